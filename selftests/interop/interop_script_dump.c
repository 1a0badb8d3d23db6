// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck script -D --compat 6.1 against perf script -D (perf 6.1) on
 * files it records here, byte for byte: every record's raw bytes, stamp,
 * type and fields, each sample's fields (callchain, read values, registers
 * and stack of --call-graph dwarf), ... thread: / ...... dso: and the
 * script line, in perf's delivery order.  Skips where no perf is installed
 * (the QEMU guests) or it may not record.
 *
 * Where we differ on purpose, not compared: the script lines of DWARF
 * callchains (our unwinder reaches frames perf 6.1's does not; see
 * interop_dwarf), so that file compares only the lines that do not start
 * with a tab.
 */
#include "lib/perfcmp.h"

PERFCMP_FIXTURE(dump, "interop-script-dump")

#define RECORD(opts) PERFCMP_RECORD(self->c.path, opts, PERFCMP_SPIN)

/*
 * perf script -D and ours on the file (or, with in "cat FILE |", on stdin),
 * through filter (a shell pipeline stage): the same text, perf's holding
 * what at least min times.
 */
static void same(struct __test_metadata *_metadata, FIXTURE_DATA(dump) *self, const char *in,
		 const char *filter, const char *what, int min)
{
	char args[1200];

	snprintf(args, sizeof(args), "-D -i %s %s", in[0] ? "-" : self->c.path, filter);
	perfcmp_same_script_in(_metadata, &self->c, in, args, what, min);
}

/* ID_INDEX entries, THREAD_MAP, CPU_MAP, EVENT_UPDATE, MMAP2 prot/dev/inode, thread/dso */
TEST_F(dump, plain_file_matches_perf)
{
	RECORD("-e cpu-clock -c 100000");
	same(_metadata, self, "", "", " ... id: ", 1);
	EXPECT_LE(1, pc_count_substr(self->c.ours.out, " ...... dso: "));
	EXPECT_LE(1, pc_count_substr(self->c.ours.out, "PERF_RECORD_THREAD_MAP nr: "));
}

TEST_F(dump, callchain_file_matches_perf)
{
	RECORD("-g -e cpu-clock -c 100000");
	same(_metadata, self, "", "", "... FP chain: nr:", 5);
}

/*
 * --dump-unsorted-raw-trace: the same in the file's order (perf then orders
 * nothing): a system-wide file's cpus one ring after another, each round
 * marker "unhandled!"
 */
TEST_F(dump, unsorted_dump_in_file_order_matches_perf)
{
	char args[600];

	RECORD("-a -g -e cpu-clock -c 1000000");
	snprintf(args, sizeof(args), "--dump-unsorted-raw-trace -i %s", self->c.path);
	perfcmp_same_script_in(_metadata, &self->c, "", args,
			       "PERF_RECORD_FINISHED_ROUND: unhandled!\n", 1);
}

/*
 * perf 7.2's dump: the context markers of a chain named, and a thread
 * forgotten at its EXIT (a sample after it is ":TID"'s, without maps)
 */
TEST_F(dump, callchain_system_wide_dump_matches_perf72)
{
	PERFCMP_NEED_PERF72();
	RECORD("-a -g -e cpu-clock -c 1000000");
	ASSERT_EQ(0, perfcmp_run(&self->c, "", "script", "--compat 7.2", "-D -i '%s'",
				 self->c.path));
	ASSERT_EQ(0, perfcmp_sh(&self->c.perf, "'%s' script -D -i '%s'", perfcmp_perf72(),
				self->c.path));
	perfcmp_assert_ran(_metadata, &self->c);
	perfcmp_expect_perf_holds(_metadata, &self->c, " (PERF_CONTEXT_KERNEL)\n", 1);
	perfcmp_expect_same(_metadata, &self->c);
}

/* leader sampling: the read values under the sample, one script line per member */
TEST_F(dump, sample_read_group_matches_perf)
{
	RECORD("-e {cpu-clock,task-clock}:S -c 200000");
	same(_metadata, self, "", "", "..... id ", 2);
}

/* system wide: cpu in the stamps, SWITCH_CPU_WIDE, KSYMBOL/BPF_EVENT of the system */
TEST_F(dump, system_wide_switch_file_matches_perf)
{
	RECORD("-a -e cpu-clock -c 1000000 --switch-events");
	same(_metadata, self, "", "", "PERF_RECORD_SWITCH_CPU_WIDE", 2);
}

/*
 * perf's own -z file: where its build-id table names no "[vdso]" (seen once,
 * a vdso sample perf's build-id pass did not mark), perf names the vdso by
 * its temporary copy, as for a pipe (below): mapped back
 */
TEST_F(dump, compressed_file_matches_perf)
{
	RECORD("-z -e cpu-clock -c 100000");
	same(_metadata, self, "", "| sed 's|/tmp/perf-vdso\\.so-[A-Za-z0-9]*$|[vdso]|'",
	     "PERF_RECORD_SAMPLE", 3);
}

/*
 * a pipe: offsets from 0 "@pipe", the ATTR and FEATURE records.  A pipe has
 * no build-id table naming "[vdso]", so perf names a sample's vdso by the
 * temporary copy of its own vdso it writes (/tmp/perf-vdso.so-XXXXXX, a
 * random name); ours stays "[vdso]", so perf's name is mapped back.
 */
TEST_F(dump, pipe_matches_perf)
{
	char in[700], why[300];

	RECORD("-e cpu-clock -c 100000");
	ASSERT_TRUE(perfcmp_record_pipe(self->c.pipe, "-e cpu-clock -c 100000", PERFCMP_SPIN, why,
					sizeof(why))) TH_LOG("%s", why);
	snprintf(in, sizeof(in), "cat '%s' |", self->c.pipe);
	same(_metadata, self, in, "| sed 's|/tmp/perf-vdso\\.so-[A-Za-z0-9]*$|[vdso]|'", "@pipe [", 5);
}

/* DWARF: registers by name, the user stack's size and offset (script lines apart) */
TEST_F(dump, dwarf_file_matches_perf_but_the_chains)
{
	RECORD("--call-graph dwarf -e cpu-clock -c 500000");
	same(_metadata, self, "", "| grep -v '^\t'", "... user regs: mask ", 3);
	EXPECT_LE(3, pc_count_substr(self->c.ours.out, "... ustack: size "));
}

TEST_HARNESS_MAIN
