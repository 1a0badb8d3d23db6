/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the reader's selftests: building small perf.data files with
 * deferred callchains and running perfcheck script/report on them.
 */
#ifndef PERFCHECK_SELFTESTS_READER_UTIL_H
#define PERFCHECK_SELFTESTS_READER_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/synth.h"
#include "lib/testutil.h"

#define RT_SEC 1000000000ULL
/* kernel addresses below any kallsyms symbol: they print as [unknown] anywhere */
#define RT_KIP(n) (0xffff888000001000ULL + (n) * 0x10)

void rt_attr(union pc_attr *a, uint32_t size);
/* A cpu-clock attr of PERF_ATTR_SIZE_VER7 without deferred callchains, sampling
 * IP, TID, TIME and what sample_type adds. */
void rt_plain_attr(union pc_attr *a, uint64_t sample_type);

struct pd_sample rt_id(uint32_t pid, uint32_t tid, uint64_t time);

/* A sample whose chain is one kernel frame then USER_DEFERRED + cookie (0: a
 * plain user chain of one frame instead). */
void rt_sample(struct synth *d, const struct perf_event_attr *a, uint32_t pid,
			     uint32_t tid, uint64_t time, uint64_t kip, uint64_t cookie);

/* CALLCHAIN_DEFERRED with user frames base, base + 0x100, ... (n of them) */
void rt_deferred(struct synth *d, const struct perf_event_attr *a, uint32_t pid,
			       uint32_t tid, uint64_t time, uint64_t cookie, uint64_t base, int n);

int rt_write(const char *path, const union pc_attr *a, const struct synth *d);

/* Runs perfcheck with up to 6 arguments after the subcommand. */
int rt_perfcheck(struct pc_run *run, const char *cmd, const char *a1,
			       const char *a2, const char *a3, const char *a4, const char *a5,
			       const char *a6);

#endif
