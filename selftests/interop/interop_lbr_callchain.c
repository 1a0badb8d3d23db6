// SPDX-License-Identifier: GPL-2.0
/*
 * Callchains of perf record --call-graph lbr, against the system perf 6.1
 * (--compat 6.1), stdout byte for byte: the samples' user frames come from
 * the LBR call stack (PERF_SAMPLE_BRANCH_CALL_STACK), not from their
 * recorded chain.  The files are written here with the project's encoder
 * (this machine has no LBR), with the attr perf record opens for lbr:
 * branch_sample_type USER|CALL_STACK|NO_FLAGS|NO_CYCLES|HW_INDEX.  Skips
 * where no perf is installed.
 */
#include "kselftest_harness.h"
#include "lib/perfcmp.h"
#include "lib/interop_tools.h"
#include "lib/reader_util.h"

PERFCMP_FIXTURE(lbr, "interop-lbr-callchain")

#define LBR_BRANCH_TYPE (PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_CALL_STACK | \
			 PERF_SAMPLE_BRANCH_NO_FLAGS | PERF_SAMPLE_BRANCH_NO_CYCLES | \
			 PERF_SAMPLE_BRANCH_HW_INDEX)


/*
 * Samples of pcwork at work_leaf with call stacks of one to three calls
 * (work_mid, work_top, pcwork_main), user-mode ones with a recorded user
 * chain that LBR replaces, a kernel-mode one with a kernel part first, and
 * one whose chain has no user part (kept as recorded); branch_type as
 * the event's.
 */
static int write_lbr(const char *path, uint64_t branch_type)
{
	static const uint64_t calls[3][2] = {
		{ 0x4010f8, 0x4010d4 },		/* work_mid -> work_leaf */
		{ 0x401105, 0x4010f1 },		/* work_top -> work_mid */
		{ 0x401290, 0x401100 },		/* pcwork_main -> work_top */
	};
	const char *pcwork = up_pcwork();
	uint64_t e[3 * 3], chain[8];
	union pc_attr a;
	struct synth d = { 0 };
	struct pd_sample v = rt_id(100, 100, RT_SEC);
	int ret;

	rt_plain_attr(&a, PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_PERIOD | PERF_SAMPLE_BRANCH_STACK);
	a.attr.branch_sample_type = branch_type;
	synth_comm(&d, &a.attr, 100, 100, "pcwork", &v);
	synth_mmap2(&d, &a.attr, 100, 100, 0x401000, 0x1000, 0x1000, pcwork, &v);
	for (unsigned int i = 0; i < 3; i++) {
		e[3 * i] = calls[i][0];
		e[3 * i + 1] = calls[i][1];
		e[3 * i + 2] = 0;
	}
	for (unsigned int n = 0; n < 12; n++) {
		unsigned int k = 0;

		v = rt_id(100, 100, RT_SEC + 10 + n);
		v.ip = 0x4010e0 + n % 3;
		v.period = 1000;
		if (n % 4 == 3) {	/* in the kernel, called from the user */
			chain[k++] = PERF_CONTEXT_KERNEL;
			chain[k++] = 0xffffffff81000100;
			v.ip = 0xffffffff81000100;
		}
		if (n % 6 != 5) {
			chain[k++] = PERF_CONTEXT_USER;
			chain[k++] = 0x4010e0 + n % 3;
			chain[k++] = 0x401299;	/* what frame pointers gave: replaced */
		}
		v.chain.nr = k;
		v.chain.ips = chain;
		v.branch.nr = 1 + n % 3;
		v.branch.hw_idx = v.branch.nr - 1;
		v.branch.entries = e;
		synth_sample_misc(&d, &a.attr, n % 4 == 3 ? PERF_RECORD_MISC_KERNEL :
				  PERF_RECORD_MISC_USER, &v);
	}
	ret = synth_write_one(path, &a.attr, "cycles", &d);
	synth_free(&d);
	return ret;
}

static bool written(struct __test_metadata *_metadata, struct perfcmp *c, uint64_t branch_type)
{
	int ret;

	if (!up_pcwork()) {
		TH_LOG("no pcwork next to perfcheck");
		return false;
	}
	ret = write_lbr(c->path, branch_type);
	EXPECT_EQ(0, ret);
	if (ret)
		return false;
	return !perfcmp_sh(&c->perf, "perf script -i '%s' -F ip >/dev/null", c->path) &&
	       c->perf.exit_code != 127;
}

TEST_F(lbr, script_shows_the_lbr_call_stack_as_perf)
{
	if (!written(_metadata, &self->c, LBR_BRANCH_TYPE))
		SKIP(return, "no perf to compare with, or no pcwork");
	perfcmp_same_script(_metadata, &self->c, "", "work_top", 4);
	/* the recorded user frame after the ip is not shown */
	EXPECT_EQ(NULL, strstr(self->c.ours.out, "pcwork_main+0x19"));
}

TEST_F(lbr, a_branch_stack_that_is_no_call_stack_leaves_the_chain_as_perf)
{
	if (!written(_metadata, &self->c, PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER))
		SKIP(return, "no perf to compare with, or no pcwork");
	perfcmp_same_script(_metadata, &self->c, "", "pcwork_main+0x19", 4);
}

TEST_F(lbr, report_graphs_of_the_lbr_call_stack_as_perf)
{
	if (!written(_metadata, &self->c, LBR_BRANCH_TYPE))
		SKIP(return, "no perf to compare with, or no pcwork");
	perfcmp_run_report(_metadata, &self->c, "--compat 6.1", "--no-branch-stack");
	perfcmp_expect_perf_holds(_metadata, &self->c, "pcwork_main", 1);
	perfcmp_expect_same(_metadata, &self->c);
	perfcmp_run_report(_metadata, &self->c, "--compat 6.1", "--no-branch-stack --no-children -G");
	perfcmp_expect_perf_holds(_metadata, &self->c, "work_top", 1);
	perfcmp_expect_same(_metadata, &self->c);
}

TEST_HARNESS_MAIN
