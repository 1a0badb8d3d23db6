/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Comparing perfcheck's output with the system perf's on files that perf
 * records here: record, run both, cut perf's random tip, find the first
 * line that differs.  Shared by interop_script_* and interop_report*.
 *
 * The plain part (struct perfcmp and the perfcmp_* functions) is
 * perfcmp.c; the part that asserts (the fixture, PERFCMP_RECORD and the
 * perfcmp_*_same checks, written with the kselftest harness) is the end of
 * this header, in the test that includes it.
 */
#ifndef PERFCHECK_SELFTESTS_PERFCMP_H
#define PERFCHECK_SELFTESTS_PERFCMP_H

#include <stdbool.h>
#include <stddef.h>

#include "testutil.h"

/* A workload of a second or so: a shell loop, then ls of a big directory. */
#define PERFCMP_SPIN "i=0; while [ $i -lt 40000 ]; do i=$((i+1)); done; ls -l /usr/bin >/dev/null"
/*
 * A C program of one symbolized loop (built with perfcmp_build_record): a
 * recording of it has no rows of unresolved addresses, whose tie order perf
 * does not keep to one rule (perfcmp_same_rows)
 */
extern const char perfcmp_spin_c[];

/* One test's comparison: its directory, the recordings, both tools' last runs. */
struct perfcmp {
	char *dir;
	char path[512];		/* DIR/perf.data */
	char pipe[512];		/* DIR/pipe.data */
	struct pc_run perf, ours;
	char label[300];	/* "perf SUB ARGS" of the last perfcmp_run */
};

/* A fresh directory named after tag; 0, or -1 when none can be made. */
int perfcmp_init(struct perfcmp *c, const char *tag);
/* Frees both runs and removes the directory. */
void perfcmp_fini(struct perfcmp *c);

/*
 * perf record -q OPTS -o PATH -- sh -c WORKLOAD; false with the reason in why
 * when there is no perf or it cannot record (the reason names what failed).
 */
bool perfcmp_record(const char *path, const char *opts, const char *workload, char *why,
		    size_t n);
/* The same as a pipe stream: perf record -q OPTS -o - -- sh -c WORKLOAD > PATH. */
bool perfcmp_record_pipe(const char *path, const char *opts, const char *workload, char *why,
			 size_t n);
/*
 * Builds a program and records it: writes src to DIR/NAME.c, runs
 * "cd DIR && cc CFLAGS -o NAME NAME.c POST" (POST: a shell tail such as
 * "&& strip -s NAME", or ""), then perf record -q OPTS -o PATH of
 * "exec 'DIR/NAME' ARGS".  0 when recorded; 1 when it cannot be here (no cc,
 * no perf, perf may not record: the reason in why); -1 when writing or
 * building the program failed (what failed in why).
 */
int perfcmp_build_record(const struct perfcmp *c, const char *name, const char *src,
			 const char *cflags, const char *post, const char *args, const char *opts,
			 char *why, size_t n);
/* Runs a shell command line; its stdout and stderr in run. */
int perfcmp_sh(struct pc_run *run, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * One command line run with each tool, in the shell: "PRE perf SUB ARGS" into
 * c->perf and "PRE 'perfcheck' SUB OURS ARGS" into c->ours (what either held
 * before is freed); "perf SUB ARGS" in c->label.  PRE feeds a pipe ("cat FILE |") or is ""; OURS is
 * perfcheck's own options ("--compat 6.1") or ""; ARGS is a printf format.
 * 0, or -1 when either could not be started.
 */
int perfcmp_run(struct perfcmp *c, const char *pre, const char *sub, const char *ours,
		const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Cuts perf report's closing "#\n# (Tip: ...)\n#\n" (a random line) from out, keeping what follows. */
void perfcmp_cut_tip(char *out);
/* perf 7.2 beside perf 6.1: $PERFCHECK_PERF72, else /tmp/perf72; NULL when neither runs. */
const char *perfcmp_perf72(void);
/* "[...] (inlined)" becomes "[...]" in s (perf's flag after a fractal rest is not set). */
void perfcmp_drop_rest_suffix(char *s);
/* True when a and b are the same text; else the first differing line in first. */
bool perfcmp_same(const char *a, const char *b, char *first, size_t n);
/*
 * perfcmp_same for report rows, but for one known divergence: among
 * adjacent rows that differ only by a bare address and its level ("[.]
 * 0x...", no symbol) and so tie on every printed column, perf's order comes from a
 * wrapped 64-bit address comparison that is not transitive (garbage frames
 * more than 2^63 apart) over its trees' insertion history, which we do not
 * yet reproduce in every case; such runs compare as sets.  *tied counts
 * the runs that were in another order.
 */
bool perfcmp_same_rows(const char *a, const char *b, char *first, size_t n, int *tied);
/*
 * The lines of text holding what (and also, when not NULL), in order and with
 * trailing blanks cut, into buf (size bytes; lines that do not fit are left
 * out but counted).  Returns how many lines held them.
 */
int perfcmp_lines_with(const char *text, const char *what, const char *also, char *buf,
		       size_t size);

#ifndef PERFCMP_NO_HARNESS
#include "kselftest_harness.h"

/* SKIP (return) where no perf 7.2 runs here (perfcmp_perf72). */
#define PERFCMP_NEED_PERF72()                                                              \
	do {                                                                               \
		if (!perfcmp_perf72())                                                     \
			SKIP(return, "no perf 7.2 here ($PERFCHECK_PERF72 or /tmp/perf72)"); \
	} while (0)

/* FIXTURE(name) holding a struct perfcmp c, made and removed around each test. */
#define PERFCMP_FIXTURE(name, tag)                                                        \
	FIXTURE(name) {                                                                    \
		struct perfcmp c;                                                          \
	};                                                                                 \
	FIXTURE_SETUP(name)                                                                \
	{                                                                                  \
		ASSERT_EQ(0, perfcmp_init(&self->c, tag));                                 \
	}                                                                                  \
	FIXTURE_TEARDOWN(name)                                                             \
	{                                                                                  \
		perfcmp_fini(&self->c);                                                    \
	}

/* perfcmp_record into PATH, or SKIP (return) with the reason it gives. */
#define PERFCMP_RECORD(path, opts, workload)                                               \
	do {                                                                               \
		char why_[300];                                                            \
		if (!perfcmp_record(path, opts, workload, why_, sizeof(why_)))             \
			SKIP(return, "%s", why_);                                          \
	} while (0)

/* perfcmp_build_record into c->path: SKIP (return) with its reason, or fail when the build did. */
#define PERFCMP_BUILD_RECORD(c, name, src, cflags, post, args, opts)                       \
	do {                                                                               \
		char why_[600];                                                            \
		int rc_ = perfcmp_build_record(c, name, src, cflags, post, args, opts, why_, \
					       sizeof(why_));                              \
		ASSERT_LE(0, rc_) TH_LOG("%s", why_);                                      \
		if (rc_)                                                                   \
			SKIP(return, "%s", why_);                                          \
	} while (0)

/* Both tools' last runs exited 0 (the stderr of one that did not is shown). */
static inline void perfcmp_assert_ran(struct __test_metadata *_metadata,
				      const struct perfcmp *c)
{
	ASSERT_EQ(0, c->perf.exit_code) TH_LOG("%s", c->perf.err);
	ASSERT_EQ(0, c->ours.exit_code) TH_LOG("%s", c->ours.err);
}

/* perf's output holds what at least min times: the comparison is of something. */
static inline void perfcmp_expect_perf_holds(struct __test_metadata *_metadata,
					     const struct perfcmp *c, const char *what, int min)
{
	EXPECT_LE(min, pc_count_substr(c->perf.out, what)) TH_LOG("perf: %.4000s", c->perf.out);
}

/* Ours printed perf's text (the message names the command, c->label). */
static inline void perfcmp_expect_same(struct __test_metadata *_metadata,
				       const struct perfcmp *c)
{
	char first[800];

	EXPECT_TRUE(perfcmp_same(c->perf.out, c->ours.out, first, sizeof(first)))
		TH_LOG("%s: first difference at %s", c->label, first);
}

/* The same for report rows: runs of tied bare-address rows compare as sets (logged). */
static inline void perfcmp_expect_same_rows(struct __test_metadata *_metadata,
					    const struct perfcmp *c)
{
	char first[800];
	int tied;

	EXPECT_TRUE(perfcmp_same_rows(c->perf.out, c->ours.out, first, sizeof(first), &tied))
		TH_LOG("%s: first difference at %s", c->label, first);
	if (tied)
		TH_LOG("%s: %d runs of tied bare-address rows in another order than perf's",
		       c->label, tied);
}

/*
 * "PRE perf script ARGS" and "PRE perfcheck script --compat 6.1 ARGS": both
 * succeed, perf's output holds what at least min times, ours is the same text.
 */
static inline void perfcmp_same_script_in(struct __test_metadata *_metadata,
					  struct perfcmp *c, const char *pre, const char *args,
					  const char *what, int min)
{
	ASSERT_EQ(0, perfcmp_run(c, pre, "script", "--compat 6.1", "%s", args));
	perfcmp_assert_ran(_metadata, c);
	perfcmp_expect_perf_holds(_metadata, c, what, min);
	perfcmp_expect_same(_metadata, c);
}

/* The same on the recorded file: perf script -i PATH ARGS. */
static inline void perfcmp_same_script(struct __test_metadata *_metadata, struct perfcmp *c,
				       const char *args, const char *what, int min)
{
	char all[1200];

	snprintf(all, sizeof(all), "-i '%s' %s", c->path, args);
	perfcmp_same_script_in(_metadata, c, "", all, what, min);
}

/*
 * perf report -i PATH --stdio ARGS and perfcheck report OURS -i PATH --stdio
 * ARGS, both succeed; perf's closing tip is cut.  The test compares.
 */
static inline void perfcmp_run_report(struct __test_metadata *_metadata, struct perfcmp *c,
				      const char *ours, const char *args)
{
	ASSERT_EQ(0, perfcmp_run(c, "", "report", ours, "-i '%s' --stdio %s", c->path, args));
	perfcmp_assert_ran(_metadata, c);
	perfcmp_cut_tip(c->perf.out);
}

/*
 * perf CMD -i PATH and perfcheck CMD --compat 6.1 -i PATH (CMD: a subcommand
 * and its options), both succeed; perf's closing tip is cut.  The test compares.
 */
static inline void perfcmp_run_on_file(struct __test_metadata *_metadata, struct perfcmp *c,
				       const char *cmd)
{
	ASSERT_EQ(0, perfcmp_run(c, "", cmd, "--compat 6.1", "-i '%s'", c->path));
	perfcmp_assert_ran(_metadata, c);
	perfcmp_cut_tip(c->perf.out);
}

/* The same, then perf's output holds what and ours is the same text. */
static inline void perfcmp_same_on_file(struct __test_metadata *_metadata, struct perfcmp *c,
					const char *cmd, const char *what)
{
	perfcmp_run_on_file(_metadata, c, cmd);
	perfcmp_expect_perf_holds(_metadata, c, what, 1);
	perfcmp_expect_same(_metadata, c);
}
#endif

#endif
