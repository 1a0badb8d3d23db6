/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the record_*.c selftests: the workloads (a mode of the test
 * binary itself, so the guests need nothing else), running perfcheck
 * record in the foreground or the background, and reading what it wrote
 * with the library reader.
 */
#ifndef PERFCHECK_SELFTESTS_RECORD_COMMON_H
#define PERFCHECK_SELFTESTS_RECORD_COMMON_H

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/testutil.h"
#include "perfdata/perfdata.h"

/* ------------------------------------------------------------ workloads */

/*
 * Frame pointers on the functions a callchain test walks, whatever the
 * build flags; the leaf makes a call so that it keeps a frame of its own
 * (gcc drops the frame of a leaf that needs no stack, and its caller
 * vanishes from the chain).
 */
#define WL_FN __attribute__((noinline, optimize("no-omit-frame-pointer")))

extern volatile uint64_t wl_sink;
extern volatile uintptr_t wl_ret_in_mid, wl_ret_in_top;

double wl_now(void);

void *wl_thread(void *arg);

/* self --workload MODE ARG: what the recordings run */
int wl_main(const char *mode, const char *arg);

#define RECORD_TEST_MAIN()							\
int main(int argc, char **argv)							\
{										\
	if (argc >= 3 && !strcmp(argv[1], "--workload"))			\
		return wl_main(argv[2], argc > 3 ? argv[3] : NULL);		\
	return test_harness_run(argc, argv);					\
}

/*
 * This binary, by a name that stays valid while the test runs even if a
 * rebuild replaces the file meanwhile (a shared build tree).
 */
extern char rt_workload_copy[PATH_MAX];

const char *rt_self(void);

/*
 * Runs the workload from a private copy in dir: symbol lookups by the
 * system perf then read a file that no rebuild replaces.
 */
int rt_use_copy(const char *dir);

/* ------------------------------------------------------------ running */

#define RT_MAX_ARGS 48

/* perfcheck record OPTS... -- self --workload MODE ARG (mode NULL: no command) */
void rt_argv(char **out, const char *const *opts, const char *mode, const char *arg);

int rt_record(struct pc_run *run, int timeout, const char *const *opts,
		     const char *mode, const char *arg);

/* In the background, in its own process group, stderr to errfile. */
pid_t rt_spawn(const char *const *opts, const char *mode, const char *arg,
		      const char *errfile);

/* Waits up to timeout seconds; returns the exit code (128+sig), or -1 and kills the group. */
int rt_wait(pid_t pid, int timeout);

char *rt_slurp(const char *path);

/* ------------------------------------------------------------ reading */

#define RT_MAX_PIDS 64

struct rt_file {
	bool recovered;			/* data size was 0: killed before finish */
	uint64_t records, samples, rounds, comms, mmaps, forks, switches, lost;
	uint64_t deferred;
	uint32_t pids[RT_MAX_PIDS], tids[RT_MAX_PIDS];
	uint32_t tid_pid[RT_MAX_PIDS];		/* the pid of each of tids[] */
	uint64_t pid_samples[RT_MAX_PIDS];
	int nr_pids, nr_tids;
	uint64_t cpu_mask;		/* cpus seen in samples (PERF_SAMPLE_CPU) */
	uint64_t max_cpu;
	uint64_t chains_with_pair;	/* callchains holding ret_in_mid then ret_in_top */
	uint64_t chains;
	uint64_t pair[2];		/* from the workload, to look for */
	uint32_t nr_evsels;
	uint64_t evsel_samples[8];	/* samples per event, by file order */
	char err[600];
};

void rt_add_id(uint32_t *set, int *nr, uint32_t v);

bool rt_chain_has_pair(const uint64_t *ips, uint64_t nr, const uint64_t *pair);

/* Reads every record of path with the library reader; 0, or -1 with f->err. */
int rt_read(const char *path, struct rt_file *f);

uint64_t rt_pid_samples(const struct rt_file *f, uint32_t pid);

/* Threads sampled in process pid. */
int rt_tids_of(const struct rt_file *f, uint32_t pid);

/* The process with the most samples: the workload, whatever helpers a
 * sanitizer runtime clones at exit. */
uint32_t rt_busiest_pid(const struct rt_file *f);

char *rt_path(const char *dir, const char *name);

#endif
