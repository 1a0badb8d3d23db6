// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck script -F of the samples' content on synthesized files (no
 * perf, no kernel): a branch stack's entries (brstack), perf 7.2's branch
 * flags and data_src level, registers named by the file's arch (iregs),
 * WEIGHT_STRUCT split into weight and ins_lat, misc; and the decoder's
 * refusals, exit 2 with the offset: a branch stack or a register mask that
 * runs past the sample.  interop_script_content compares the same with
 * perf 6.1.
 */
#include "kselftest_harness.h"
#include "reader_util.h"

FIXTURE(c) {
	char *dir;
	char path[512];
	union pc_attr a;
	struct synth d;
	struct pc_run run;
	struct pd_sample v;
};

FIXTURE_SETUP(c)
{
	self->dir = pc_test_mkdtemp("unit-script-content");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->path, sizeof(self->path), "%s/perf.data", self->dir);
	memset(&self->d, 0, sizeof(self->d));
	memset(&self->run, 0, sizeof(self->run));
	rt_plain_attr(&self->a, 0);
	self->v = rt_id(100, 100, RT_SEC);
	self->v.ip = 0x400123;
}

FIXTURE_TEARDOWN(c)
{
	pc_run_free(&self->run);
	synth_free(&self->d);
	pc_test_rmdir(self->dir);
}

static void script(struct __test_metadata *_metadata, FIXTURE_DATA(c) *self, const char *fields)
{
	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	pc_run_free(&self->run);
	ASSERT_EQ(0, rt_perfcheck(&self->run, "script", "--compat", "6.1", "-i", self->path, "-F",
				  fields));
}

TEST_F(c, branch_stack_entries_with_their_flags)
{
	/* mispredicted conditional, 5 cycles; predicted call in a transaction, aborted */
	uint64_t e[6] = { 0x400100, 0x400200, 1 | 5 << 4 | 1ULL << 20,
			  0x400300, 0x400400, 2 | 4 | 8 | 4ULL << 20 };

	self->a.attr.sample_type |= PERF_SAMPLE_BRANCH_STACK;
	self->v.branch.nr = 2;
	self->v.branch.entries = e;
	synth_sample(&self->d, &self->a.attr, &self->v);
	script(_metadata, self, "ip,brstack");
	EXPECT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_STREQ("           400123 0x400100/0x400200/M/-/-/5/COND  "
		     "0x400300/0x400400/P/X/A/0/CALL \n", self->run.out);
}

/* perf 7.2 adds the speculation outcome and N for a branch not taken (bit 33) */
TEST_F(c, branch_flags_in_7_2s_layout)
{
	uint64_t e[6] = { 0x400100, 0x400200, 1 | 1ULL << 20 | 2ULL << 24 | 1ULL << 33,
			  0x400300, 0x400400, 0 };

	self->a.attr.sample_type |= PERF_SAMPLE_BRANCH_STACK;
	self->v.branch.nr = 2;
	self->v.branch.entries = e;
	synth_sample(&self->d, &self->a.attr, &self->v);
	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	ASSERT_EQ(0, rt_perfcheck(&self->run, "script", "--compat", "7.2", "-i", self->path, "-F",
				  "ip,brstack"));
	EXPECT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_STREQ("           400123 0x400100/0x400200/MN/-/-/0/COND/NON_SPEC_CORRECT_PATH  "
		     "0x400300/0x400400/-/-/-/0//- \n", self->run.out);
}

/*
 * Newer perf names the level number alone when set (remote and hops before
 * it, a blank and hit or miss after it), else the PERF_MEM_LVL bits; 6.1
 * lists both ("L1 or L3 hit")
 */
TEST_F(c, data_src_level_in_7_2s_layout)
{
	static const uint64_t values[] = {
		0x68100142ULL,				/* L1 hit by PERF_MEM_LVL */
		0x68100142ULL | 3ULL << 33,		/* and level number 3 */
		0x1ULL | 0xdULL << 33 | 1ULL << 37 | 2ULL << 43,	/* remote RAM, hops */
		0x1e05080021ULL,			/* N/A everywhere (software events) */
	};
	static const char *const levels[] = {
		"|LVL L1 hit|", "|LVL L3 hit|", "|LVL Remote node, same socket RAM |", "|LVL N/A|",
	};

	self->a.attr.sample_type |= PERF_SAMPLE_DATA_SRC;
	for (unsigned int i = 0; i < 4; i++) {
		self->v.mem.data_src = values[i];
		synth_sample(&self->d, &self->a.attr, &self->v);
	}
	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	ASSERT_EQ(0, rt_perfcheck(&self->run, "script", "--compat", "7.2", "-i", self->path, "-F",
				  "data_src"));
	EXPECT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	for (unsigned int n = 0; n < 4; n++) {
		const char *level = levels[n];

		EXPECT_NE(NULL, strstr(self->run.out, level)) TH_LOG("%s: %s", level, self->run.out);
	}
	pc_run_free(&self->run);
	ASSERT_EQ(0, rt_perfcheck(&self->run, "script", "--compat", "6.1", "-i", self->path, "-F",
				  "data_src"));
	EXPECT_NE(NULL, strstr(self->run.out, "|LVL L1 or L3 hit|")) TH_LOG("%s", self->run.out);
	EXPECT_NE(NULL, strstr(self->run.out, "|LVL N/A or N/A|")) TH_LOG("%s", self->run.out);
}

TEST_F(c, registers_by_the_files_arch)
{
	uint64_t regs[3] = { 7, 0x7ffd1000, 0x401000 };

	/* an x86_64 file, whatever machine reads it (arm64 would name these x0, x7, x8) */
	self->d.arch = "x86_64";
	self->a.attr.sample_type |= PERF_SAMPLE_REGS_INTR;
	self->a.attr.sample_regs_intr = 1 | 1 << 7 | 1 << 8;	/* AX, SP, IP */
	self->v.regs_intr.abi = PERF_SAMPLE_REGS_ABI_64;
	self->v.regs_intr.regs = regs;
	synth_sample(&self->d, &self->a.attr, &self->v);
	script(_metadata, self, "ip,iregs");
	EXPECT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_STREQ("           400123 ABI:2    AX:0x7    SP:0x7ffd1000    IP:0x401000 \n",
		     self->run.out);
}

TEST_F(c, weight_struct_is_split_into_weight_and_ins_lat)
{
	self->a.attr.sample_type |= PERF_SAMPLE_WEIGHT_STRUCT;
	self->v.mem.weight = 0x0009002a00000123ULL;	/* stage cycles 9, latency 42, weight 0x123 */
	synth_sample(&self->d, &self->a.attr, &self->v);
	script(_metadata, self, "misc,weight,ins_lat");
	EXPECT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_STREQ("U                  291              42\n", self->run.out);
}

/* the stack's nr says more entries than the record holds */
TEST_F(c, branch_stack_past_the_sample_is_refused_with_its_offset)
{
	uint64_t e[3] = { 0x400100, 0x400200, 0 };
	uint64_t nr = 1000;

	self->a.attr.sample_type |= PERF_SAMPLE_BRANCH_STACK;
	self->v.branch.nr = 1;
	self->v.branch.entries = e;
	synth_sample(&self->d, &self->a.attr, &self->v);
	/* header, ip, tid, time: then nr */
	memcpy(self->d.buf + 32, &nr, 8);
	script(_metadata, self, "ip,brstack");
	EXPECT_EQ(2, self->run.exit_code);
	EXPECT_NE(NULL, strstr(self->run.err, ": offset 0x")) TH_LOG("%s", self->run.err);
	EXPECT_NE(NULL, strstr(self->run.err, "1000 branch entries do not fit the record"))
		TH_LOG("%s", self->run.err);
	EXPECT_STREQ("", self->run.out);
}

/* the attr's mask names 8 registers, the sample holds 1 */
TEST_F(c, register_mask_past_the_sample_is_refused_with_its_offset)
{
	uint64_t regs[1] = { 7 };

	self->a.attr.sample_type |= PERF_SAMPLE_REGS_INTR;
	self->a.attr.sample_regs_intr = 1;
	self->v.regs_intr.abi = PERF_SAMPLE_REGS_ABI_64;
	self->v.regs_intr.regs = regs;
	synth_sample(&self->d, &self->a.attr, &self->v);
	self->a.attr.sample_regs_intr = 0xff;
	script(_metadata, self, "ip,iregs");
	EXPECT_EQ(2, self->run.exit_code);
	EXPECT_NE(NULL, strstr(self->run.err, ": offset 0x")) TH_LOG("%s", self->run.err);
	EXPECT_NE(NULL, strstr(self->run.err, "intr regs needs 64 bytes"))
		TH_LOG("%s", self->run.err);
	EXPECT_STREQ("", self->run.out);
}

TEST_HARNESS_MAIN
