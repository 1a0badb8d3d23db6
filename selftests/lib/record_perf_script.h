/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the record_perf_script_*.c selftests: each option family of
 * perfcheck record writes a file that the system perf (Debian 12: 6.1, which
 * refuses attrs larger than it knows) reads with `perf script` (and, where
 * the variant asks, `perf report`) without a single warning.  Without a
 * perf (the guests, unless the matrix ships upstream perf) these SKIP.  The
 * families are split over several binaries so that each fits the guests'
 * per-binary time budget under TCG.
 */
#ifndef PERFCHECK_SELFTESTS_RECORD_PERF_SCRIPT_H
#define PERFCHECK_SELFTESTS_RECORD_PERF_SCRIPT_H

#include "kselftest_harness.h"
#include <sys/mount.h>

#include "record_common.h"

#define SYSTEM_PERF "/usr/bin/perf"

FIXTURE(fam)
{
	char *dir;
	char *out;
};

FIXTURE_VARIANT(fam)
{
	const char *opts[8];
	const char *mode;
	const char *arg;
	bool cpu_wide;		/* needs root or paranoid <= 0 */
	bool tracefs;		/* needs a mounted tracefs */
	const char *expect;	/* in perf script's output */
	bool report;		/* also perf report --stdio */
};

FIXTURE_SETUP(fam)
{
	self->dir = pc_test_mkdtemp("record-perf-script");
	ASSERT_NE(NULL, self->dir);
	ASSERT_EQ(0, rt_use_copy(self->dir));
	self->out = strdup(rt_path(self->dir, "perf.data"));
}

FIXTURE_TEARDOWN(fam)
{
	rt_workload_copy[0] = '\0';
	free(self->out);
	pc_test_rmdir(self->dir);
}

/*
 * A recording whose ring buffer overran (a loaded machine: the CI's two
 * cores) holds LOST records, and perf rightly warns of them: that warning,
 * and it alone, is allowed.  Returns what perf printed after it.
 */
static const char *past_lost_chunks(struct __test_metadata *_metadata, const char *err)
{
	unsigned int events, chunks;
	int end = 0;

	if (!err || sscanf(err, "Warning:\nProcessed %u events and lost %u chunks!\n\n"
			   "Check IO/CPU overload!\n\n%n", &events, &chunks, &end) != 2 || !end)
		return err;
	TH_LOG("the recording lost %u chunks of %u events (the machine was loaded)", chunks,
	       events);
	return err + end;
}

TEST_F(fam, read_back_by_perf_script_and_report_without_warnings)
{
	const char *opts[16];
	char *script[] = { SYSTEM_PERF, "script", "-i", self->out, NULL };
	char *report[] = { SYSTEM_PERF, "report", "--stdio", "-i", self->out, NULL };
	struct pc_run run, pr;
	int n = 0;

	if (access(SYSTEM_PERF, X_OK))
		SKIP(return, "no system perf here (the guests have none)");
	if (variant->cpu_wide && !pc_test_cpu_wide_allowed())
		SKIP(return, "cpu-wide events need root or perf_event_paranoid <= 0");
	if (variant->tracefs && access("/sys/kernel/tracing/events/sched", F_OK) &&
	    access("/sys/kernel/debug/tracing/events/sched", F_OK) &&
	    mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL))
		SKIP(return, "tracefs is not mounted and cannot be (%s)", strerror(errno));
	opts[n++] = "-q";
	for (int i = 0; variant->opts[i]; i++)
		opts[n++] = variant->opts[i];
	opts[n++] = "-o";
	opts[n++] = self->out;
	opts[n] = NULL;

	ASSERT_EQ(0, rt_record(&run, 60, opts, variant->mode, variant->arg));
	if (strcmp(variant->opts[0] ? variant->opts[0] : "", "--timeout"))
		ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	pc_run_free(&run);

	ASSERT_EQ(0, pc_test_run(&run, 120, script));
	EXPECT_EQ(0, run.exit_code);
	EXPECT_STREQ("", past_lost_chunks(_metadata, run.err));
	EXPECT_NE(NULL, strstr(run.out, variant->expect))
		TH_LOG("'%s' not in perf script's output:\n%.2000s", variant->expect, run.out);
	pc_run_free(&run);

	if (!variant->report)
		return;
	ASSERT_EQ(0, pc_test_run(&pr, 120, report));
	EXPECT_EQ(0, pr.exit_code);
	EXPECT_STREQ("", past_lost_chunks(_metadata, pr.err));
	EXPECT_NE(NULL, strstr(pr.out, "# Total Lost Samples: 0"));
	pc_run_free(&pr);
}


#endif
