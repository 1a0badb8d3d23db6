/* SPDX-License-Identifier: GPL-2.0 */
/* Helpers shared by the selftests: locating perfcheck, running commands. */
#ifndef PERFCHECK_SELFTESTS_TESTUTIL_H
#define PERFCHECK_SELFTESTS_TESTUTIL_H

#include <stddef.h>
#include <sys/types.h>

struct pc_run {
	char *out;		/* captured stdout, NUL-terminated (may be NULL) */
	size_t out_len;
	char *err;		/* captured stderr */
	size_t err_len;
	int status;		/* wait status */
	int exit_code;		/* WEXITSTATUS, or 128+signal */
};

/*
 * The instruction pointer and the stack pointer as --user-regs and -I name
 * them on this machine (perf's register names are the architecture's).
 */
#if defined(__aarch64__)
#define PC_TEST_REGS_IP_SP "pc,sp"
#else
#define PC_TEST_REGS_IP_SP "ip,sp"
#endif

/* Path of build/perfcheck: $PERFCHECK_BIN, else ../perfcheck next to this test. */
const char *pc_test_perfcheck(void);
/* Directory holding this test binary. */
const char *pc_test_bindir(void);
/*
 * The source tree that holds REL (a path inside it): $PERFCHECK_SRCDIR,
 * else up from build/selftests or build/{san,static}/selftests.  NULL when
 * there is none (a guest carries binaries, not the tree).
 */
const char *pc_test_srcdir(const char *rel);
/* Runs argv (argv[0] looked up in PATH) with stdin from /dev/null, captures
 * stdout and stderr; timeout_s > 0 kills it after that many seconds. */
int pc_test_run(struct pc_run *run, int timeout_s, char *const argv[]);
void pc_run_free(struct pc_run *run);
/* A fresh directory under $TMPDIR (or /tmp), removed by pc_test_rmdir. */
char *pc_test_mkdtemp(const char *tag);
void pc_test_rmdir(char *dir);
/* True when a program is found in PATH. */
int pc_test_have_program(const char *name);
/* cpu-wide events may be opened: root, or perf_event_paranoid <= 0 */
int pc_test_cpu_wide_allowed(void);
/*
 * The whole file at path, NUL-terminated (its length in *len when len is not
 * NULL); free it.  NULL when it cannot be read.
 */
char *pc_test_slurp(const char *path, size_t *len);
/* A growing list of strings, each a copy; { 0 } is empty. */
struct pc_strv {
	char **v;
	size_t n, cap;
};
/* Appends a copy of s (aborts when memory runs out, as a test cannot go on). */
void pc_strv_add(struct pc_strv *l, const char *s);
/* Sorts the strings (strcmp order); pc_strv_cmp compares two elements (bsearch). */
void pc_strv_sort(struct pc_strv *l);
int pc_strv_cmp(const void *a, const void *b);
void pc_strv_free(struct pc_strv *l);
/* Counts the occurrences of needle in haystack. */
int pc_count_substr(const char *haystack, const char *needle);
/*
 * Workload: maps N anonymous pages and writes one byte to each, one page fault
 * per page (no huge page may back them: THP is "always" on the arm64 guests).
 * 0, or 1 when the mapping fails.
 */
int pc_test_touch_pages(int n);

/* The id of tracepoint SYS:NAME from tracefs (either mount point), or -1. */
long pc_test_tracepoint_id(const char *sys, const char *name);

#endif
