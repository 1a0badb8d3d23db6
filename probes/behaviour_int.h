/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the behaviour checks (probes/behaviour_*.c): the verdict
 * setters, opening an event for a check, a minimal reader of the check's
 * own mmap ring, the sample layout of the few sample_type bits the checks
 * ask for, and the workloads (a held child, an exec stub, page touching).
 * The checks call these; these call nothing of the checks.
 */
#ifndef PERFCHECK_PROBES_BEHAVIOUR_INT_H
#define PERFCHECK_PROBES_BEHAVIOUR_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "probes/behaviour.h"

typedef void (*bh_check_fn)(struct pc_behaviour_result *r);

/* the verdicts; each formats the detail */
void bh_proven(struct pc_behaviour_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void bh_broken(struct pc_behaviour_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void bh_not_tested(struct pc_behaviour_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* attrs: side-band only (dummy, TID|TIME, sample_id_all), and a sampling one */
void bh_attr_sideband(union pc_attr *a);
void bh_attr_sampling(union pc_attr *a, uint32_t type, uint64_t config, uint64_t period,
		      uint64_t sample_type);
/*
 * Opens through pc_event_open.  On failure (or when the ladder switched
 * anything off) sets the verdict (not tested for permission errors,
 * broken otherwise) and returns -1.
 */
int bh_open(struct pc_behaviour_result *r, union pc_attr *a, const char *what, pid_t pid,
	    unsigned long flags);
/* PERF_EVENT_IOC_ENABLE / DISABLE: 0 or -errno */
int bh_enable(int fd, bool on);
/* read() of one u64 count (and more words when read_format asks); 0 or -errno */
int bh_read(int fd, uint64_t *words, size_t n);

/* A ring of 2^n data pages, read forward; records copied out whole. */
struct bh_ring {
	int fd;
	uint8_t *base;		/* the user page, then data */
	size_t mmap_len;
	uint64_t data_size;
	uint64_t tail;
	uint8_t *copy;		/* one record, for those wrapping at the end */
	unsigned int bad;	/* records that did not fit the ring's bounds */
};
int bh_ring_map(struct bh_ring *ring, int fd, unsigned int data_pages, bool writable);
/* The next record, or NULL at the end (or on a malformed size: ring->bad). */
const struct perf_event_header *bh_ring_next(struct bh_ring *ring);
void bh_ring_unmap(struct bh_ring *ring);
/* data_head, read with acquire ordering (a write_backward ring is read from it: behaviour_ringrows.c) */
uint64_t bh_ring_head(const struct bh_ring *ring);

/* The sample fields the checks use; parse checks the record's size exactly. */
struct bh_sample {
	uint64_t ip, time, addr, id, period, cgroup, data_page_size, code_page_size;
	uint32_t pid, tid, cpu;
	uint64_t read[5];	/* value, then what read_format adds, in ABI order */
	uint64_t weight;
	uint64_t nr;		/* callchain */
	const uint64_t *ips;	/* into the record */
};
int bh_parse_sample(const struct perf_event_header *h, uint64_t sample_type,
		    uint64_t read_format, struct bh_sample *s);
/* The sample_id_all trailer of a side-band record (TID TIME ID STREAM_ID CPU IDENTIFIER). */
int bh_parse_sample_id(const struct perf_event_header *h, uint64_t sample_type,
		       struct bh_sample *s);
size_t bh_sample_id_size(uint64_t sample_type);

/* A forked child held on a pipe until bh_child_go(); then fn(arg) and _exit(0). */
struct bh_child {
	pid_t pid;
	int go_fd;
};
int bh_child_start(struct bh_child *c, void (*fn)(void *arg), void *arg);
int bh_child_go(struct bh_child *c);
/* Waits (bounded: kills it after timeout_ms); the wait status, or -errno. */
int bh_child_wait(struct bh_child *c, int timeout_ms);

/*
 * The exec stub: a tiny static ELF that maps and writes `pages` anonymous
 * pages, then exits 0; in a memfd and, for kernels or mounts where that
 * does not exec, in a file under $TMPDIR.  bh_stub_create is called before
 * fork, bh_stub_exec in the child (returns only on failure, -errno),
 * bh_stub_free in the parent.
 */
struct bh_stub {
	int fd;			/* the memfd, read-only; -1 if none */
	char path[128];		/* the file, "" if none */
};
int bh_stub_create(struct bh_stub *s, unsigned int pages);	/* 0 or -errno (-ENOEXEC: no stub for this arch) */
int bh_stub_exec(const struct bh_stub *s);
void bh_stub_free(struct bh_stub *s);
/* a child whose exec failed exits with this plus the errno */
#define BH_EXEC_FAILED_BASE 100
/* "not tested" for a stub child that did not exit 0, saying why */
void bh_stub_status(struct pc_behaviour_result *r, int status);

/* mmaps n anonymous pages, writes one byte in each, unmaps: n page faults */
int bh_touch_pages(size_t n);
/* spins for about ms of this thread's CPU time */
void bh_spin_ms(double ms);
/* spins ms, then on in 1 ms steps until the ring holds a record, 500 ms at most */
void bh_spin_for_records(const struct bh_ring *ring, double ms);
double bh_now_ms(void);
/* This thread's cpu time in ms. */
double bh_thread_cpu_ms(void);

/* the checks, one per row */
void bh_check_sample_id_all(struct pc_behaviour_result *r);
void bh_check_exclude_guest(struct pc_behaviour_result *r);
void bh_check_mmap2(struct pc_behaviour_result *r);
void bh_check_comm_exec(struct pc_behaviour_result *r);
void bh_check_fd_cloexec(struct pc_behaviour_result *r);
void bh_check_use_clockid(struct pc_behaviour_result *r);
void bh_check_context_switch(struct pc_behaviour_result *r);
void bh_check_write_backward(struct pc_behaviour_result *r);
void bh_check_namespaces(struct pc_behaviour_result *r);
void bh_check_lbr_flags(struct pc_behaviour_result *r);
void bh_check_ksymbol(struct pc_behaviour_result *r);
void bh_check_bpf_event(struct pc_behaviour_result *r);
void bh_check_aux_output(struct pc_behaviour_result *r);
void bh_check_cgroup(struct pc_behaviour_result *r);
void bh_check_text_poke(struct pc_behaviour_result *r);
void bh_check_data_page_size(struct pc_behaviour_result *r);
void bh_check_code_page_size(struct pc_behaviour_result *r);
void bh_check_weight_struct(struct pc_behaviour_result *r);
void bh_check_build_id(struct pc_behaviour_result *r);
void bh_check_inherit_thread(struct pc_behaviour_result *r);
void bh_check_remove_on_exec(struct pc_behaviour_result *r);
void bh_check_sigtrap(struct pc_behaviour_result *r);
void bh_check_read_lost(struct pc_behaviour_result *r);
void bh_check_branch_counters(struct pc_behaviour_result *r);
void bh_check_inherit_sample_read(struct pc_behaviour_result *r);
void bh_check_defer_callchain(struct pc_behaviour_result *r);
void bh_check_max_stack(struct pc_behaviour_result *r);

#endif
