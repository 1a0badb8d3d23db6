// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck script --compat 6.1 against the system perf script on files the
 * system perf records here: filters, fields, time layouts, call-graph
 * options and the header, one per test, byte for byte.  Skips where no perf
 * is installed (the QEMU guests) or it may not record.
 *
 * Differences on purpose: the exit status of a refused field or -C on a
 * file without cpus is 1 (perfcheck's usage error), where perf exits 255;
 * the message is perf's.  The symbol of a data address (-F addr,sym) is not
 * compared: lib/symbols reads function symbols only, so data symbols show
 * as [unknown] where perf names them; nor its object: an anonymous map
 * shows as perf-PID.map (the reader takes anonymous executable memory for
 * JIT code) where perf says //anon.
 */
#include "lib/perfcmp.h"

PERFCMP_FIXTURE(script, "interop-script")

#define RECORD(opts) PERFCMP_RECORD(self->c.path, opts, PERFCMP_SPIN)

static void run_both(struct __test_metadata *_metadata, FIXTURE_DATA(script) *self,
		     const char *args)
{
	ASSERT_EQ(0, perfcmp_run(&self->c, "", "script", "--compat 6.1", "-i '%s' %s",
				 self->c.path, args));
}

/* same stdout, both succeed, and at least min lines */
static void same_script(struct __test_metadata *_metadata, FIXTURE_DATA(script) *self,
			const char *args, int min)
{
	perfcmp_same_script(_metadata, &self->c, args, "\n", min);
}

/* The first word of line n (0-based; negative: from the end) of perf script ARGS. */
static void perf_word(struct __test_metadata *_metadata, FIXTURE_DATA(script) *self,
		      const char *args, int n, char *buf, size_t size)
{
	struct pc_run run;
	const char *p;
	int lines;

	ASSERT_EQ(0, perfcmp_sh(&run, "perf script -i '%s' %s 2>/dev/null", self->c.path, args));
	ASSERT_NE(NULL, run.out);
	lines = pc_count_substr(run.out, "\n");
	ASSERT_LT(2, lines);
	if (n < 0)
		n += lines;
	p = run.out;
	for (int i = 0; i < n; i++)
		p = strchr(p, '\n') + 1;
	p += strspn(p, " \t");
	snprintf(buf, size, "%.*s", (int)strcspn(p, " :\n"), p);
	pc_run_free(&run);
}

TEST_F(script, comms_filter_matches_perf)
{
	RECORD("-e cpu-clock -c 100000");
	same_script(_metadata, self, "--comms ls", 5);
	EXPECT_EQ(0, pc_count_substr(self->c.ours.out, " sh "));
}

TEST_F(script, pid_filter_matches_perf)
{
	char pid[32], args[64];

	RECORD("-e cpu-clock -c 100000");
	perf_word(_metadata, self, "-F pid", -1, pid, sizeof(pid));
	snprintf(args, sizeof(args), "--pid %s", pid);
	same_script(_metadata, self, args, 5);
}

TEST_F(script, tid_filter_matches_perf)
{
	char tid[32], args[64];

	RECORD("-e cpu-clock -c 100000");
	perf_word(_metadata, self, "-F tid", 0, tid, sizeof(tid));
	snprintf(args, sizeof(args), "--tid %s -F comm,tid,time,ip,sym", tid);
	same_script(_metadata, self, args, 5);
}

TEST_F(script, time_range_filter_matches_perf)
{
	char a[64], b[64], args[200];

	RECORD("-e cpu-clock -c 100000");
	perf_word(_metadata, self, "-F time", 20, a, sizeof(a));
	perf_word(_metadata, self, "-F time", -20, b, sizeof(b));
	snprintf(args, sizeof(args), "--time %s,%s", a, b);
	same_script(_metadata, self, args, 5);
}

TEST_F(script, time_open_ends_match_perf)
{
	char a[64], args[200];

	RECORD("-e cpu-clock -c 100000");
	perf_word(_metadata, self, "-F time", 30, a, sizeof(a));
	snprintf(args, sizeof(args), "--time %s, -F time", a);
	same_script(_metadata, self, args, 5);
	snprintf(args, sizeof(args), "--time ,%s -F time", a);
	same_script(_metadata, self, args, 5);
}

/*
 * A percent slice is of the wall time between the first and the last
 * sample; cpu-clock samples only while the workload runs, so on a loaded
 * machine a slice can hold none.  Record again (a few times) until perf's
 * slice holds MIN lines, so that the comparison is never of two empty outputs.
 */
static void same_slice(struct __test_metadata *_metadata, FIXTURE_DATA(script) *self,
		       const char *args, int min)
{
	for (int attempt = 1; attempt < 4; attempt++) {
		RECORD("-e cpu-clock -c 100000");
		ASSERT_EQ(0, perfcmp_sh(&self->c.perf, "perf script -i '%s' %s 2>/dev/null",
					self->c.path, args));
		if (pc_count_substr(self->c.perf.out, "\n") >= min)
			break;
		TH_LOG("attempt %d: perf's slice %s holds %d line(s): recording again", attempt,
		       args, pc_count_substr(self->c.perf.out, "\n"));
		pc_run_free(&self->c.perf);
	}
	pc_run_free(&self->c.perf);
	same_script(_metadata, self, args, min);
}

TEST_F(script, time_percent_slice_matches_perf)
{
	same_slice(_metadata, self, "--time 10%/2 -F comm,tid,time", 2);
}

TEST_F(script, time_percent_ranges_match_perf)
{
	same_slice(_metadata, self, "--time 0%-10%,50%-60% -F comm,tid,time", 2);
}

TEST_F(script, dsos_filter_matches_perf)
{
	RECORD("-e cpu-clock -c 100000");
	same_script(_metadata, self, "--dsos libc.so.6", 5);
}

TEST_F(script, symbols_filter_matches_perf)
{
	char sym[128], args[200];

	RECORD("-e cpu-clock -c 100000");
	/* the line is " ADDR SYM": take the symbol */
	ASSERT_EQ(0, perfcmp_sh(&self->c.perf, "perf script -i '%s' -F ip,sym 2>/dev/null | "
				"awk 'NR == 1 { print $2 }'", self->c.path));
	snprintf(sym, sizeof(sym), "%.*s", (int)strcspn(self->c.perf.out, "\n"), self->c.perf.out);
	pc_run_free(&self->c.perf);
	ASSERT_NE(0, sym[0]);
	snprintf(args, sizeof(args), "-S '%s'", sym);
	same_script(_metadata, self, args, 1);
}

TEST_F(script, cpu_filter_matches_perf)
{
	RECORD("-e cpu-clock -c 100000 -a");
	same_script(_metadata, self, "-C 0 -F comm,tid,cpu,time,ip", 5);
	EXPECT_EQ(0, pc_count_substr(self->c.ours.out, "[001]"));
}

TEST_F(script, cpu_filter_without_cpus_is_perfs_error)
{
	RECORD("-e cpu-clock -c 100000");
	run_both(_metadata, self, "-C 0");
	EXPECT_NE(0, self->c.perf.exit_code);
	EXPECT_EQ(self->c.perf.exit_code, self->c.ours.exit_code);	/* 255, perf's -1 */
	EXPECT_STREQ(self->c.perf.err, self->c.ours.err);
	EXPECT_STREQ("", self->c.ours.out);
}

TEST_F(script, field_the_samples_lack_is_perfs_error)
{
	RECORD("-e cpu-clock -c 100000");
	run_both(_metadata, self, "-F comm,cpu");
	EXPECT_NE(0, self->c.perf.exit_code);
	EXPECT_EQ(self->c.perf.exit_code, self->c.ours.exit_code);	/* 255, perf's -1 */
	EXPECT_STREQ(self->c.perf.err, self->c.ours.err);
	EXPECT_NE(NULL, strstr(self->c.ours.err, "Cannot print 'cpu' field."));
	EXPECT_STREQ("", self->c.ours.out);
}

TEST_F(script, addr_field_matches_perf)
{
	RECORD("-e page-faults -c 1 -d");
	same_script(_metadata, self, "-F comm,tid,time,event,addr,ip", 5);
}

TEST_F(script, flags_field_is_perfs_blank_column_outside_aux_traces)
{
	RECORD("-e cpu-clock -c 100000 -g");
	same_script(_metadata, self, "-F comm,tid,time,event,flags,ip,sym,dso", 5);
}

TEST_F(script, aux_trace_fields_print_nothing_for_other_samples_as_perf)
{
	RECORD("-e cpu-clock -c 100000");
	same_script(_metadata, self, "-F +flags,+ipc,+callindent,+synth", 5);
}

/*
 * --per-event-dump: each event's lines in INPUT.EVENT.dump, the side band on
 * stdout, perf's "Wrote" line per file (its size what reached the disk
 * before the close): the same files and lines as perf's, each tool reading
 * its own copy of the recording
 */
TEST_F(script, per_event_dump_writes_perfs_files)
{
	static const char *const dumps[] = { "cpu-clock", "task-clock" };
	struct pc_run p, o;

	RECORD("-e cpu-clock,task-clock -c 100000");
	ASSERT_EQ(0, perfcmp_sh(&p, "cd '%s' && cp perf.data a.data && cp perf.data b.data && "
				    "perf script --per-event-dump --show-task-events -i a.data",
				self->c.dir));
	ASSERT_EQ(0, p.exit_code) TH_LOG("%s", p.err);
	ASSERT_EQ(0, perfcmp_sh(&o, "cd '%s' && '%s' script --compat 6.1 --per-event-dump "
				    "--show-task-events -i b.data | sed 's/b\\.data\\./a.data./'",
				self->c.dir, pc_test_perfcheck()));
	ASSERT_EQ(0, o.exit_code) TH_LOG("%s", o.err);
	EXPECT_STREQ(p.out, o.out);
	EXPECT_NE(NULL, strstr(p.out, "[ perf script: Wrote "));
	for (size_t i = 0; i < sizeof(dumps) / sizeof(dumps[0]); i++) {
		char a[700], b[700];
		char *da, *db;

		snprintf(a, sizeof(a), "%s/a.data.%s.dump", self->c.dir, dumps[i]);
		snprintf(b, sizeof(b), "%s/b.data.%s.dump", self->c.dir, dumps[i]);
		da = pc_test_slurp(a, NULL);
		db = pc_test_slurp(b, NULL);
		ASSERT_NE(NULL, da) TH_LOG("%s", a);
		ASSERT_NE(NULL, db) TH_LOG("%s", b);
		EXPECT_STREQ(da, db) TH_LOG("%s", dumps[i]);
		EXPECT_LT(5, pc_count_substr(da, dumps[i]));
		free(da);
		free(db);
	}
	pc_run_free(&p);
	pc_run_free(&o);
}

TEST_F(script, nanoseconds_match_perf)
{
	RECORD("-e cpu-clock -c 100000");
	same_script(_metadata, self, "--ns", 5);
}

TEST_F(script, reltime_matches_perf)
{
	RECORD("-e cpu-clock -c 100000");
	same_script(_metadata, self, "--reltime", 5);
}

TEST_F(script, deltatime_matches_perf)
{
	RECORD("-e cpu-clock -c 100000");
	same_script(_metadata, self, "--deltatime -F comm,tid,time,ip", 5);
}

TEST_F(script, hide_call_graph_matches_perf)
{
	RECORD("-e cpu-clock -c 100000 -g");
	same_script(_metadata, self, "-G", 5);
}

TEST_F(script, max_stack_matches_perf)
{
	RECORD("-e cpu-clock -c 100000 -g");
	same_script(_metadata, self, "--max-stack 3", 5);
}

TEST_F(script, header_only_matches_perf)
{
	RECORD("-e cpu-clock -c 100000");
	same_script(_metadata, self, "--header-only", 10);
	EXPECT_NE(NULL, strstr(self->c.ours.out, "# captured on    : "));
}

TEST_F(script, header_then_samples_match_perf)
{
	RECORD("-e cpu-clock -c 100000 -g");
	same_script(_metadata, self, "--header", 10);
	EXPECT_NE(NULL, strstr(self->c.ours.out, "# ========\n#\n"));
}

/*
 * --kallsyms FILE names kernel frames from that copy of kallsyms, with
 * --symfs too (where nothing of this machine is read): as perf
 */
TEST_F(script, kallsyms_file_names_the_kernel_frames_as_perf)
{
	char ks[600], args[1400];

	RECORD("-e cpu-clock -c 100000 -g");
	snprintf(ks, sizeof(ks), "%s/kallsyms", self->c.dir);
	ASSERT_EQ(0, perfcmp_sh(&self->c.ours, "cp /proc/kallsyms '%s'", ks));
	ASSERT_EQ(0, self->c.ours.exit_code) TH_LOG("%s", self->c.ours.err);
	snprintf(args, sizeof(args), "--symfs '%s' --kallsyms '%s'", self->c.dir, ks);
	same_script(_metadata, self, args, 5);
	EXPECT_NE(NULL, strstr(self->c.ours.out, "([kernel.kallsyms])"));
}

TEST_F(script, kallsyms_file_that_cannot_be_read_is_perfs_error)
{
	RECORD("-e cpu-clock -c 100000");
	ASSERT_EQ(0, perfcmp_run(&self->c, "", "script", "--compat 6.1",
				 "-i '%s' --kallsyms /nonexistent/kallsyms", self->c.path));
	EXPECT_EQ(self->c.perf.exit_code, self->c.ours.exit_code);
	EXPECT_STREQ(self->c.perf.err, self->c.ours.err);
	EXPECT_STREQ("Invalid file: /nonexistent/kallsyms\n", self->c.ours.err);
}

TEST_HARNESS_MAIN
