// SPDX-License-Identifier: GPL-2.0
/*
 * perf script -F as perf 6.1 applies it, against the system perf on files
 * it records here:
 *  - each type of event keeps its own default and "+a,-b" edits it; trace
 *    is for tracepoints alone (perf warns for every other type, and prints
 *    nothing for an event left without fields); srcline needs ip;
 *  - srcline of an object without line information is what perf's
 *    addr2line makes of it ("??:0"): nothing, stripped or not;
 *  - the symbol of a sample's data address (-F addr,sym) is looked up only
 *    for page faults (and BTS), as perf does.
 * stdout, and stderr where perf warns, byte for byte.  Skips where no perf
 * or C compiler is installed, or perf may not record.
 */
#include "kselftest_harness.h"
#include "lib/perfcmp.h"

static const char spin_c[] =
	"__attribute__((noinline)) unsigned long spin(unsigned long n)\n"
	"{ unsigned long a = 0; for (unsigned long i = 0; i < n; i++) a = a * 31 + i; return a; }\n"
	"int main(void) { return (int)spin(200000000) & 1; }\n";

PERFCMP_FIXTURE(fields, "interop-script-fields")

/* builds spin.c without debug information (then runs POST on it), records it with OPTS */
#define RECORD_SPIN(post, opts)                                                            \
	PERFCMP_BUILD_RECORD(&self->c, "spin", spin_c, "-O2", post, "", opts)

#define RECORD(opts) PERFCMP_RECORD(self->c.path, opts, PERFCMP_SPIN)

/* perf script ARGS and ours: stdout, exit status and (with err) stderr equal */
static void same(struct __test_metadata *_metadata, FIXTURE_DATA(fields) *self,
		 const char *args, bool err)
{
	char first[800];
	struct perfcmp *c = &self->c;

	ASSERT_EQ(0, perfcmp_sh(&c->perf, "perf script -i '%s' %s", c->path, args));
	ASSERT_EQ(0, perfcmp_sh(&c->ours, "'%s' script --compat 6.1 -i '%s' %s",
				pc_test_perfcheck(), c->path, args));
	EXPECT_TRUE(perfcmp_same(c->perf.out, c->ours.out, first, sizeof(first)))
		TH_LOG("perf script %s: first difference at %s", args, first);
	if (err)
		EXPECT_STREQ(c->perf.err, c->ours.err);
	EXPECT_EQ(!c->perf.exit_code, !c->ours.exit_code) TH_LOG("%s", c->ours.err);
}

/* addr2line names spin from the symbol table and says ??:0: no srcline line */
TEST_F(fields, srcline_of_a_program_without_line_info_is_left_out_as_perf)
{
	RECORD_SPIN("", "-e cpu-clock -c 1000000");
	/* the program's samples alone: ld.so's start-up lines name other files (binutils) */
	same(_metadata, self, "--dsos spin -F ip,sym,srcline", false);
	EXPECT_LT(3, pc_count_substr(self->c.ours.out, " spin\n"));
}

TEST_F(fields, srcline_of_a_stripped_program_is_left_out_as_perf)
{
	RECORD_SPIN("&& strip -s spin", "-e cpu-clock -c 1000000");
	same(_metadata, self, "--dsos spin -F ip,dso,srcline", false);
	EXPECT_LT(3, pc_count_substr(self->c.ours.out, "/spin)\n"));
	EXPECT_EQ(NULL, strstr(self->c.ours.out, "\n  spin["));
}

/* trace on software events: perf's warning for each other type, then nothing at all */
TEST_F(fields, trace_on_other_events_prints_nothing_as_perf)
{
	RECORD("-e cpu-clock -c 100000");
	same(_metadata, self, "-F trace", true);
	EXPECT_STREQ("", self->c.ours.out);
}

/* +field: each type's own default with it (a tracepoint's has no ip: srcline cannot be) */
TEST_F(fields, added_fields_join_each_types_default_as_perf)
{
	RECORD("-e cpu-clock -c 100000 -e sched:sched_process_exec");
	same(_metadata, self, "-F +period", false);
	same(_metadata, self, "-F +srcline", true);
	EXPECT_NE(NULL, strstr(self->c.ours.err, "sample IP is not"));
}

/* a data address of cpu-clock samples: the number alone */
TEST_F(fields, addr_of_other_events_has_no_symbol_as_perf)
{
	RECORD("-e cpu-clock -c 100000 -d");
	same(_metadata, self, "-F ip,sym,addr", false);
}

/* -F sw:LIST: software events show the list, tracepoints keep their default */
TEST_F(fields, typed_fields_apply_to_their_type_only_as_perf)
{
	RECORD("-e cpu-clock -c 100000 -e sched:sched_process_exec");
	same(_metadata, self, "-F sw:comm,tid,ip", true);
	EXPECT_LT(0, pc_count_substr(self->c.perf.out, "sched:sched_process_exec:"));
}

/* -F trace: (an empty list) leaves the tracepoints out; a later -F for all overrides it */
TEST_F(fields, empty_typed_list_leaves_those_events_out_as_perf)
{
	RECORD("-e cpu-clock -c 100000 -e sched:sched_process_exec");
	same(_metadata, self, "-F trace:", true);
	EXPECT_EQ(NULL, strstr(self->c.ours.out, "sched_process_exec"));
	same(_metadata, self, "-F trace: -F comm,tid,event", true);
	EXPECT_NE(NULL, strstr(self->c.ours.err, "Overriding previous field request"));
}

/* -F tod: each sample's wall-clock date, from the CLOCK_DATA that record -k writes */
/* SKIP (return) when this perf's script has no tod field */
#define NEEDS_TOD()                                                                        \
	do {                                                                               \
		ASSERT_EQ(0, perfcmp_sh(&self->c.perf, "perf script -F tod -i '%s'",       \
					self->c.path));                                    \
		if (self->c.perf.err && strstr(self->c.perf.err, "Invalid field"))        \
			SKIP(return, "this perf has no tod field (perf 5.14 added it)");   \
	} while (0)

TEST_F(fields, tod_of_a_clockid_recording_is_perfs)
{
	RECORD("-e cpu-clock -c 100000 -k monotonic");
	NEEDS_TOD();
	same(_metadata, self, "-F comm,tid,tod,time", false);
	EXPECT_EQ(0, self->c.ours.exit_code) TH_LOG("%s", self->c.ours.err);
	EXPECT_LE(1, pc_count_substr(self->c.ours.out, ":")) TH_LOG("%s", self->c.ours.out);
}

/* without -k there is no reference: perf's error, exit 255 */
TEST_F(fields, tod_without_clock_data_is_perfs_error)
{
	RECORD("-e cpu-clock -c 100000");
	NEEDS_TOD();
	same(_metadata, self, "-F tod", false);
	EXPECT_STREQ(self->c.perf.err, self->c.ours.err);
	EXPECT_EQ(255, self->c.ours.exit_code);
}

TEST_HARNESS_MAIN
