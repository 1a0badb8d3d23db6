// SPDX-License-Identifier: GPL-2.0
/*
 * perf script -F fields of the samples' content, against the system perf
 * 6.1 (--compat 6.1), stdout byte for byte:
 *  - on files it records here: page faults with -d -W --phys-data
 *    --data-page-size --code-page-size (weight, ins_lat, data_src,
 *    phys_addr, the page sizes), -I and --user-regs (iregs, uregs), misc on
 *    samples and on the records --show-*-events prints, +field edits, and
 *    a field the samples lack (perf's message on stderr);
 *  - on files written here with the project's encoder, for the values no
 *    software event gives: every part of data_src, page sizes around each
 *    unit, WEIGHT_STRUCT's weight and latency, x86_64 XMM and arm64
 *    register names, branch stacks (no LBR here) of every flag and type,
 *    into an executable, a shared object, the kernel and no map.
 * Skips where no perf is installed or perf may not record.
 */
#include "kselftest_harness.h"
#include "lib/perfcmp.h"
#include "lib/interop_tools.h"
#include "lib/reader_util.h"

PERFCMP_FIXTURE(content, "interop-script-content")

#define MEM_OPTS "-e page-faults -c 1 -d -W --phys-data --data-page-size --code-page-size"
#define REG_OPTS "-e page-faults -c 1 --user-regs=ax,bx,cx,ip,sp,r15 -I"

/* perf script -i PATH ARGS and ours, both fail alike, stderr byte for byte */
static void same_refusal(struct __test_metadata *_metadata, struct perfcmp *c, const char *args)
{
	ASSERT_EQ(0, perfcmp_run(c, "", "script", "--compat 6.1", "-i '%s' %s", c->path, args));
	EXPECT_NE(0, c->perf.exit_code);
	EXPECT_EQ(c->perf.exit_code, c->ours.exit_code) TH_LOG("%s", c->ours.err);
	EXPECT_STREQ(c->perf.err, c->ours.err);
	EXPECT_STREQ(c->perf.out, c->ours.out);
}

TEST_F(content, memory_fields_of_page_faults_as_perf)
{
	PERFCMP_RECORD(self->c.path, MEM_OPTS, PERFCMP_SPIN);
	perfcmp_same_script(_metadata, &self->c,
			    "-F comm,tid,time,event,ip,addr,weight,ins_lat,data_src,phys_addr,"
			    "data_page_size,code_page_size", "|OP ", 20);
}

/*
 * -d: the symbol of a data address (data objects, .bss past the file's
 * bytes), and anonymous data maps named "//anon" where anonymous code is
 * perf-PID.map
 */
TEST_F(content, data_addresses_name_their_symbol_and_map_as_perf)
{
	PERFCMP_RECORD(self->c.path, "-e page-faults -c 1 -d", PERFCMP_SPIN);
	perfcmp_same_script(_metadata, &self->c, "-F comm,tid,ip,sym,addr,dso", "(//anon)", 1);
}

TEST_F(content, registers_as_perf)
{
	PERFCMP_RECORD(self->c.path, REG_OPTS, PERFCMP_SPIN);
	perfcmp_same_script(_metadata, &self->c, "-F comm,tid,ip,sym,dso,iregs,uregs", " ABI:2 ", 20);
	perfcmp_same_script(_metadata, &self->c, "-F ip,uregs", "   IP:0x", 20);
}

TEST_F(content, misc_of_samples_and_records_as_perf)
{
	PERFCMP_RECORD(self->c.path, "-e cpu-clock -c 200000 --sample-cpu", PERFCMP_SPIN);
	perfcmp_same_script(_metadata, &self->c, "-F comm,tid,cpu,misc,time,ip,sym", "] U ", 1);
	perfcmp_same_script(_metadata, &self->c,
			    "-F comm,tid,cpu,misc,time,ip --show-mmap-events --show-task-events",
			    "] E ", 1);
}

TEST_F(content, added_fields_join_the_default_as_perf)
{
	PERFCMP_RECORD(self->c.path, MEM_OPTS " --sample-cpu", PERFCMP_SPIN);
	perfcmp_same_script(_metadata, &self->c, "-F +misc,+weight,+data_src,+phys_addr,-period",
			    "|LVL ", 20);
}

TEST_F(content, field_the_samples_lack_is_perfs_error)
{
	PERFCMP_RECORD(self->c.path, "-e cpu-clock -c 200000", PERFCMP_SPIN);
	same_refusal(_metadata, &self->c, "-F ip,weight");
	same_refusal(_metadata, &self->c, "-F ip,iregs");
	same_refusal(_metadata, &self->c, "-F ip,uregs");
	same_refusal(_metadata, &self->c, "-F ip,phys_addr");
	same_refusal(_metadata, &self->c, "-F ip,data_page_size");
	same_refusal(_metadata, &self->c, "-F ip,ins_lat");
}

/* A cpu-clock event writing samples of sample_type (ip, tid, time and more) */
static void event_attr(union pc_attr *a, uint64_t sample_type)
{
	rt_plain_attr(a, sample_type);
}

/* the file of one event, its ARCH header arch (NULL: this machine's) */
static int write_file(const char *path, const union pc_attr *a, const struct synth *d,
		      const char *arch)
{
	struct pd_writer w;
	struct pc_error err;
	int ret = pd_writer_open(&w, path, &err);

	if (ret)
		return ret;
	ret = pd_writer_add_evsel(&w, &a->attr, NULL, 0, "cpu-clock", &err);
	if (!ret)
		ret = pd_writer_set_host_features(&w, "perfcheck-selftest");
	if (!ret && arch)
		ret = pd_writer_set_string(&w, PD_FEAT_ARCH, arch);
	if (!ret)
		ret = pd_writer_begin_data(&w, &err);
	if (!ret && d->len)
		ret = pd_writer_write(&w, d->buf, d->len, &err);
	if (ret) {
		pd_writer_abort(&w);
		return ret;
	}
	return pd_writer_finish(&w, &err);
}

/*
 * perf reads the written file, or the test skips saying so (false: the
 * caller returns); then both print the same
 */
static bool same_on_written(struct __test_metadata *_metadata, struct perfcmp *c,
			    const char *fields, const char *what, int min)
{
	char args[300];

	if (perfcmp_sh(&c->perf, "perf script -i '%s' -F ip >/dev/null", c->path) ||
	    c->perf.exit_code == 127)
		SKIP(return false, "no perf to compare with");
	snprintf(args, sizeof(args), "-F %s", fields);
	perfcmp_same_script(_metadata, c, args, what, min);
	return true;
}

/* every bit of each data_src part alone, then mixes such as real loads have */
TEST_F(content, data_src_decoded_as_perf)
{
	static const uint64_t mixes[] = {
		0x68100142ULL,			/* load, L1 hit, snoop none, TLB L1 hit */
		0x29080004ULL | (3ULL << 33),	/* store, lvl_num L3 */
		0x1ULL | (0xdULL << 33) | (1ULL << 37) | (2ULL << 43),	/* remote RAM, hops */
		0x2ULL | (1ULL << 38) | (3ULL << 40),	/* snoopx fwd, blk data addr */
		0x2ULL | (0x9ULL << 33) | (0xbULL << 33),
		0, ~0ULL,
	};
	union pc_attr a;
	struct synth d = { 0 };
	struct pd_sample v = rt_id(100, 100, RT_SEC);
	uint64_t t = RT_SEC;

	event_attr(&a, PERF_SAMPLE_DATA_SRC);
	v.ip = 0x400123;
	for (unsigned int bit = 0; bit < 48; bit++) {
		v.time = t++;
		v.mem.data_src = 1ULL << bit;
		synth_sample(&d, &a.attr, &v);
	}
	for (unsigned int n = 0; n < 16; n++) {
		v.time = t++;
		v.mem.data_src = (uint64_t)n << 33;	/* each mem_lvl_num */
		synth_sample(&d, &a.attr, &v);
	}
	for (unsigned int i = 0; i < sizeof(mixes) / sizeof(mixes[0]); i++) {
		v.time = t++;
		v.mem.data_src = mixes[i];
		synth_sample(&d, &a.attr, &v);
	}
	ASSERT_EQ(0, write_file(self->c.path, &a, &d, NULL));
	synth_free(&d);
	same_on_written(_metadata, &self->c, "ip,data_src", "|OP ", 70);
}

TEST_F(content, page_sizes_weight_struct_and_ins_lat_as_perf)
{
	static const uint64_t sizes[] = {
		0, 1, 1023, 1024, 1025, 2047, 2048, 4096, 65536, 1ULL << 20, 2ULL << 20,
		1ULL << 30, 2ULL << 30, 1ULL << 40, 3ULL << 40, ~0ULL,
	};
	union pc_attr a;
	struct synth d = { 0 };
	struct pd_sample v = rt_id(100, 100, RT_SEC);

	event_attr(&a, PERF_SAMPLE_WEIGHT_STRUCT | PERF_SAMPLE_DATA_PAGE_SIZE |
		       PERF_SAMPLE_CODE_PAGE_SIZE | PERF_SAMPLE_PHYS_ADDR);
	v.ip = 0x400123;
	for (unsigned int i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		v.time = RT_SEC + i;
		v.mem.data_page_size = sizes[i];
		v.mem.code_page_size = sizes[sizeof(sizes) / sizeof(sizes[0]) - 1 - i];
		/* weight (32 bits), instruction latency (16), pipeline stage cycles (16) */
		v.mem.weight = 0x1234000000000000ULL | ((uint64_t)(i * 7) << 32) | (i * 1000 + 3);
		v.mem.phys_addr = sizes[i] ^ 0x5a5a;
		synth_sample(&d, &a.attr, &v);
	}
	ASSERT_EQ(0, write_file(self->c.path, &a, &d, NULL));
	synth_free(&d);
	same_on_written(_metadata, &self->c,
			"ip,weight,ins_lat,phys_addr,data_page_size,code_page_size", "N/A", 2);
}

/* a plain PERF_SAMPLE_WEIGHT is the whole word; ins_lat needs WEIGHT_STRUCT (perf's error) */
TEST_F(content, plain_weight_as_perf)
{
	union pc_attr a;
	struct synth d = { 0 };
	struct pd_sample v = rt_id(100, 100, RT_SEC);

	event_attr(&a, PERF_SAMPLE_WEIGHT);
	v.ip = 0x400123;
	for (unsigned int i = 0; i < 4; i++) {
		v.time = RT_SEC + i;
		v.mem.weight = 0x123456789abcULL << (i * 4);
		synth_sample(&d, &a.attr, &v);
	}
	ASSERT_EQ(0, write_file(self->c.path, &a, &d, NULL));
	synth_free(&d);
	if (same_on_written(_metadata, &self->c, "ip,weight", "400123", 4))
		same_refusal(_metadata, &self->c, "-F ip,weight,ins_lat");
}

/* registers of every mask bit perf names, by the recording's arch */
static void regs_of_arch(struct __test_metadata *_metadata, struct perfcmp *c, const char *arch,
			 uint64_t intr_mask, uint64_t user_mask)
{
	uint64_t values[64];
	union pc_attr a;
	struct synth d = { 0 };
	struct pd_sample v = rt_id(100, 100, RT_SEC);

	for (unsigned int i = 0; i < 64; i++)
		values[i] = 0x1000ULL * i + i;
	event_attr(&a, PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_REGS_USER);
	a.attr.sample_regs_intr = intr_mask;
	a.attr.sample_regs_user = user_mask;
	v.ip = 0x400123;
	v.regs_intr.abi = PERF_SAMPLE_REGS_ABI_64;
	v.regs_intr.regs = values;
	v.regs_user.abi = PERF_SAMPLE_REGS_ABI_64;
	v.regs_user.regs = values + 1;
	synth_sample(&d, &a.attr, &v);
	/* a kernel thread: no user registers (ABI_NONE), nothing printed */
	v.time++;
	v.regs_user.abi = PERF_SAMPLE_REGS_ABI_NONE;
	synth_sample(&d, &a.attr, &v);
	ASSERT_EQ(0, write_file(c->path, &a, &d, arch));
	synth_free(&d);
	same_on_written(_metadata, c, "ip,iregs,uregs", " ABI:2 ", 1);
}

TEST_F(content, x86_64_register_names_as_perf)
{
	regs_of_arch(_metadata, &self->c, "x86_64", ~0ULL, 0xff0fffULL);
}

TEST_F(content, arm64_register_names_as_perf)
{
	regs_of_arch(_metadata, &self->c, "aarch64", (1ULL << 33) - 1, (1ULL << 33) - 1);
	regs_of_arch(_metadata, &self->c, "aarch64", (1ULL << 47) - 1, 1ULL << 46);
}

/*
 * Branch stacks of pcwork (ET_EXEC, addresses as they are) and libc
 * (ET_DYN, map-relative for brstackoff), a kernel address (no kernel map:
 * [unknown]) and an unmapped one; flags with every mispredict, transaction,
 * abort and branch type (EXTEND_ABI with each new type), speculation and
 * privilege bits (which perf 6.1 does not show).
 */
TEST_F(content, branch_stacks_as_perf)
{
	static const char libc[] = "/usr/lib/x86_64-linux-gnu/libc.so.6";
	const char *pcwork = up_pcwork();
	uint64_t e[3 * 48];
	union pc_attr a;
	struct synth d = { 0 };
	struct pd_sample v = rt_id(100, 100, RT_SEC);

	if (!pcwork || access(libc, R_OK))
		SKIP(return, "no pcwork next to perfcheck or no %s to map", libc);
	event_attr(&a, PERF_SAMPLE_BRANCH_STACK);
	a.attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_USER;
	synth_comm(&d, &a.attr, 100, 100, "pcwork", &v);
	synth_mmap2(&d, &a.attr, 100, 100, 0x401000, 0x1000, 0x1000, pcwork, &v);
	synth_mmap2(&d, &a.attr, 100, 100, 0x7f0000026000, 0x155000, 0x26000, libc, &v);
	for (unsigned int i = 0; i < 48; i++) {
		static const uint64_t targets[] = { 0x40129e, 0x7f0000030010, 0xffffffff81000010, 0x7000 };
		uint64_t type = i < 32 ? i % 16 : 15;

		e[3 * i] = i % 3 ? 0x401000 + i * 0x11 : 0x7f0000027000 + i * 0x101;
		e[3 * i + 1] = targets[i % 4] + i;
		e[3 * i + 2] = (uint64_t)(i & 15) | ((uint64_t)(i * 1237) << 4 & 0xffff0) | type << 20 |
			       (uint64_t)(i % 4) << 24 | (uint64_t)(i % 8) << 26 | (uint64_t)(i % 4) << 30;
	}
	v.ip = 0x401005;
	for (unsigned int n = 0; n < 4; n++) {
		v.time = RT_SEC + 10 + n;
		v.branch.nr = n == 3 ? 0 : 16;	/* the last: an empty stack */
		v.branch.entries = e + 3 * 16 * n;
		synth_sample(&d, &a.attr, &v);
	}
	ASSERT_EQ(0, write_file(self->c.path, &a, &d, NULL));
	synth_free(&d);
	if (!same_on_written(_metadata, &self->c, "ip,brstack", "/COND ", 2))
		return;
	same_on_written(_metadata, &self->c, "ip,dso,brstack", "libc.so.6)/", 2);
	same_on_written(_metadata, &self->c, "ip,sym,brstacksym", "/FAULT_ALGN ", 1);
	same_on_written(_metadata, &self->c, "ip,sym,dso,brstacksym", "[unknown]([unknown])", 2);
	same_on_written(_metadata, &self->c, "ip,brstackoff", "/ARCH_5 ", 1);
	same_on_written(_metadata, &self->c, "ip,dso,brstackoff", "/M/", 2);
	/* one of the three, brstack first, as perf */
	same_on_written(_metadata, &self->c, "ip,brstack,brstacksym,brstackoff", "/P/", 2);
}

TEST_HARNESS_MAIN
