/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Synthesizing perf records for tests: the encoder that mirrors the
 * library's sample parser, so that tests can build any file they need
 * (every sample_type bit, deferred callchains, malformed records).
 */
#ifndef PERFCHECK_SELFTESTS_SYNTH_H
#define PERFCHECK_SELFTESTS_SYNTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfdata/perfdata.h"

struct synth {
	uint8_t *buf;
	size_t len, cap;
	const char *arch;	/* the file's ARCH feature (synth_write_file); NULL: this machine's */
	bool stat;		/* the file has the STAT feature (perf stat record's) */
	bool branch_stack;	/* the file has BRANCH_STACK (perf record -b/-j's) */
	const char *const *build_ids;	/* user objects of the BUILD_ID table, in its order */
	int nr_build_ids;
};

void synth_put(struct synth *s, const void *p, size_t n);
void synth_free(struct synth *s);
/* A PERF_RECORD_SAMPLE with every field of attr->sample_type taken from v. */
void synth_sample(struct synth *s, const struct perf_event_attr *attr, const struct pd_sample *v);
/* the same with the header's misc (cpumode) given */
void synth_sample_misc(struct synth *s, const struct perf_event_attr *attr, uint16_t misc,
		       const struct pd_sample *v);
/* The sample_id trailer (when attr->sample_id_all), fields from v. */
void synth_sample_id(struct synth *s, const struct perf_event_attr *attr, const struct pd_sample *v);
/* PERF_RECORD_CGROUP: the cgroup id's path */
void synth_cgroup(struct synth *s, const struct perf_event_attr *attr, uint64_t id,
		  const char *path, const struct pd_sample *sid);
/* A LOST_SAMPLES record of lost samples, its sample_id from id */
void synth_lost_samples(struct synth *s, const struct perf_event_attr *attr, uint64_t lost,
			const struct pd_sample *id);
void synth_comm(struct synth *s, const struct perf_event_attr *attr, uint32_t pid, uint32_t tid,
		const char *comm, const struct pd_sample *id);
void synth_mmap2(struct synth *s, const struct perf_event_attr *attr, uint32_t pid, uint32_t tid,
		 uint64_t start, uint64_t len, uint64_t pgoff, const char *filename,
		 const struct pd_sample *id);
/* The kernel's MMAP perf record writes first ([kernel.kallsyms]_text, pid -1): its kernel map. */
void synth_kernel_mmap(struct synth *s, const struct perf_event_attr *attr,
		       const struct pd_sample *id);
void synth_fork(struct synth *s, const struct perf_event_attr *attr, uint32_t type,
		uint32_t pid, uint32_t ppid, uint32_t tid, uint32_t ptid, uint64_t time,
		const struct pd_sample *id);
void synth_deferred(struct synth *s, const struct perf_event_attr *attr, uint64_t cookie,
		    uint64_t nr, const uint64_t *ips, const struct pd_sample *id);
void synth_finished_round(struct synth *s);
/* Pipe format: the 16-byte header, then attrs as HEADER_ATTR records. */
void synth_pipe_header(struct synth *s);
void synth_attr(struct synth *s, const struct perf_event_attr *attr, const uint64_t *ids,
		uint32_t nr_ids);

/* Writes a whole perf.data: one event per attr (ids[i] its id), then data. */
int synth_write_file(const char *path, const struct perf_event_attr *const *attrs,
		     const uint64_t *ids, const char *const *names, int nr,
		     const struct synth *data);
/* The same with one event, named name */
int synth_write_one(const char *path, const struct perf_event_attr *attr, const char *name,
		    const struct synth *data);

#endif
