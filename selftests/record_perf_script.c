// SPDX-License-Identifier: GPL-2.0
/*
 * Every option family of perfcheck record writes a file that the system's
 * perf (Debian 12: 6.1, which refuses attrs larger than it knows) reads
 * with `perf script` and `perf report` without a single warning.  The
 * guests have no perf: there these SKIP.
 */
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
};

FIXTURE_VARIANT_ADD(fam, default_event)
{
	.opts = { NULL }, .mode = "spin", .arg = "0.5", .expect = "wl_",
};
FIXTURE_VARIANT_ADD(fam, software_events)
{
	.opts = { "-e", "cpu-clock,task-clock,page-faults,minor-faults,major-faults,"
		  "context-switches,cpu-migrations,dummy", "-c", "1" },
	.mode = "threads", .arg = "0.3", .expect = "page-faults",
};
FIXTURE_VARIANT_ADD(fam, hardware_event_or_its_fallback)
{
	.opts = { "-e", "cycles" }, .mode = "spin", .arg = "0.3", .expect = "wl_",
};
FIXTURE_VARIANT_ADD(fam, user_and_kernel_modifiers)
{
	.opts = { "-e", "cpu-clock:u,task-clock:k" }, .mode = "spin", .arg = "0.3",
	.expect = "cpu-clock:u",
};
FIXTURE_VARIANT_ADD(fam, period)
{
	.opts = { "-e", "task-clock", "-c", "100000" }, .mode = "spin", .arg = "0.3",
	.expect = "task-clock",
};
FIXTURE_VARIANT_ADD(fam, frequency)
{
	.opts = { "-e", "task-clock", "-F", "997" }, .mode = "spin", .arg = "0.3",
	.expect = "task-clock",
};
FIXTURE_VARIANT_ADD(fam, callchain_g)
{
	.opts = { "-g", "-e", "task-clock" }, .mode = "spin", .arg = "0.3", .expect = "wl_mid",
};
FIXTURE_VARIANT_ADD(fam, callchain_fp_defer)
{
	.opts = { "--call-graph", "fp,defer", "-e", "task-clock" }, .mode = "spin", .arg = "0.3",
	.expect = "wl_mid",
};
FIXTURE_VARIANT_ADD(fam, no_inherit)
{
	.opts = { "-i", "-e", "task-clock" }, .mode = "fork", .arg = "0.3", .expect = "wl_",
};
FIXTURE_VARIANT_ADD(fam, inherit_stat_and_sample_read)
{
	.opts = { "-s", "-e", "task-clock" }, .mode = "fork", .arg = "0.3", .expect = "wl_",
};
FIXTURE_VARIANT_ADD(fam, mmap_pages)
{
	.opts = { "-m", "8", "-e", "task-clock" }, .mode = "spin", .arg = "0.3", .expect = "wl_",
};
FIXTURE_VARIANT_ADD(fam, switch_events)
{
	.opts = { "--switch-events", "-e", "task-clock" }, .mode = "threads", .arg = "0.3",
	.expect = "wl_",
};
FIXTURE_VARIANT_ADD(fam, timeout)
{
	.opts = { "--timeout", "1", "-e", "task-clock" }, .mode = "spin", .arg = "10",
	.expect = "wl_",
};
FIXTURE_VARIANT_ADD(fam, cpu_list)
{
	.opts = { "-C", "0", "-e", "cpu-clock" }, .mode = "threads", .arg = "0.3",
	.cpu_wide = true, .expect = "cpu-clock",
};
FIXTURE_VARIANT_ADD(fam, all_cpus)
{
	.opts = { "-a", "-g", "-e", "cpu-clock" }, .mode = "threads", .arg = "0.3",
	.cpu_wide = true, .expect = "cpu-clock",
};
FIXTURE_VARIANT_ADD(fam, tracepoint)
{
	.opts = { "-e", "sched:sched_process_exit" }, .mode = "fork", .arg = "0.2",
	.tracefs = true, .expect = "sched:sched_process_exit",
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

static bool cpu_wide_allowed(void)
{
	long paranoid = 2;
	FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");

	if (f) {
		if (fscanf(f, "%ld", &paranoid) != 1)
			paranoid = 2;
		fclose(f);
	}
	return geteuid() == 0 || paranoid <= 0;
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
	if (variant->cpu_wide && !cpu_wide_allowed())
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
	EXPECT_STREQ("", run.err);
	EXPECT_NE(NULL, strstr(run.out, variant->expect))
		TH_LOG("'%s' not in perf script's output:\n%.2000s", variant->expect, run.out);
	pc_run_free(&run);

	ASSERT_EQ(0, pc_test_run(&pr, 120, report));
	EXPECT_EQ(0, pr.exit_code);
	EXPECT_STREQ("", pr.err);
	EXPECT_NE(NULL, strstr(pr.out, "# Total Lost Samples: 0"));
	pc_run_free(&pr);
}

RECORD_TEST_MAIN()
