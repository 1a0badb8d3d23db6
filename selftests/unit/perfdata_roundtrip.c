// SPDX-License-Identifier: GPL-2.0
/*
 * perf.data library round trips: what the writer writes, the reader reads
 * back field for field (every sample_type bit, several attrs of different
 * sizes, header features, non-sample records with sample_id).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/utsname.h>

#include "kselftest_harness.h"
#include "lib/synth.h"
#include "lib/testutil.h"

#define ALL_SAMPLE_BITS (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
	PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID | \
	PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD | PERF_SAMPLE_READ | PERF_SAMPLE_CALLCHAIN | \
	PERF_SAMPLE_RAW | PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_REGS_USER | \
	PERF_SAMPLE_STACK_USER | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC | \
	PERF_SAMPLE_TRANSACTION | PERF_SAMPLE_REGS_INTR | PERF_SAMPLE_PHYS_ADDR | \
	PERF_SAMPLE_CGROUP | PERF_SAMPLE_DATA_PAGE_SIZE | PERF_SAMPLE_CODE_PAGE_SIZE | \
	PERF_SAMPLE_AUX)

/* uname's machine: what the writer puts in the ARCH feature */
static const char *self_machine(void)
{
	static struct utsname u;

	return uname(&u) ? "" : u.machine;
}

FIXTURE(file) {
	char *dir;
	char path[512];
};

FIXTURE_SETUP(file)
{
	self->dir = pc_test_mkdtemp("roundtrip");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->path, sizeof(self->path), "%s/perf.data", self->dir);
}

FIXTURE_TEARDOWN(file)
{
	pc_test_rmdir(self->dir);
}

static void full_attr(union pc_attr *a, uint32_t size, uint64_t type_bits)
{
	memset(a, 0, sizeof(*a));
	a->attr.type = PERF_TYPE_SOFTWARE;
	a->attr.config = PERF_COUNT_SW_CPU_CLOCK;
	a->attr.size = size;
	a->attr.sample_period = 100000;
	a->attr.sample_type = type_bits;
	a->attr.read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING |
			      PERF_FORMAT_ID | PERF_FORMAT_LOST;
	a->attr.sample_id_all = 1;
	a->attr.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PC_SAMPLE_BRANCH_HW_INDEX;
	a->attr.sample_regs_user = 0x7;		/* three registers */
	a->attr.sample_regs_intr = 0x3;		/* two */
	a->attr.sample_stack_user = 32;
}

static void full_sample(struct pd_sample *v, uint64_t id, uint64_t *storage)
{
	static const char raw[] = "raw-bytes";	/* 10 bytes: padding exercised */
	uint64_t *chain = storage, *branches = storage + 8, *ru = storage + 16;
	uint64_t *ri = storage + 20, *stack = storage + 24, *aux = storage + 28;

	memset(v, 0, sizeof(*v));
	v->id = id;
	v->ip = 0x401000;
	v->pid = 4242;
	v->tid = 4243;
	v->time = 123456789012ULL;
	v->addr = 0xdeadbeef;
	v->stream_id = id + 1;
	v->cpu = 1;
	v->period = 250000;
	v->read.time_enabled = 1000;
	v->read.time_running = 900;
	v->read.first.value = 77;
	v->read.first.id = id;
	v->read.first.lost = 3;
	chain[0] = PC_CONTEXT_KERNEL;
	chain[1] = 0xffffffff81000010ULL;
	chain[2] = PC_CONTEXT_USER;
	chain[3] = 0x401000;
	chain[4] = 0x401234;
	v->chain.ips = chain;
	v->chain.nr = 5;
	v->raw.data = raw;
	v->raw.size = sizeof(raw);
	branches[0] = 0x401000; branches[1] = 0x402000; branches[2] = 0x1;
	branches[3] = 0x403000; branches[4] = 0x404000; branches[5] = 0x2;
	v->branch.entries = branches;
	v->branch.nr = 2;
	v->branch.hw_idx = 9;
	ru[0] = 11; ru[1] = 12; ru[2] = 13;
	v->regs_user.abi = 2;
	v->regs_user.regs = ru;
	stack[0] = 0x1111; stack[1] = 0x2222; stack[2] = 0x3333; stack[3] = 0x4444;
	v->stack_user.data = stack;
	v->stack_user.size = 32;
	v->stack_user.dyn_size = 24;
	v->mem.weight = 55;
	v->mem.data_src = 0x66;
	v->mem.transaction = 0x77;
	ri[0] = 21; ri[1] = 22;
	v->regs_intr.abi = 2;
	v->regs_intr.regs = ri;
	v->mem.phys_addr = 0x12345000;
	v->cgroup = 88;
	v->mem.data_page_size = 4096;
	v->mem.code_page_size = 2 << 20;
	aux[0] = 0xa1; aux[1] = 0xa2;
	v->aux.data = aux;
	v->aux.size = 16;
}

TEST_F(file, every_sample_type_bit_reads_back_field_for_field)
{
	union pc_attr a, b;
	const struct perf_event_attr *attrs[2] = { &a.attr, &b.attr };
	uint64_t ids[2] = { 1001, 2002 }, store1[40], store2[40];
	struct pd_sample in[2], out;
	struct synth data = { 0 };
	struct pd_reader r;
	struct pd_record rec;
	struct pc_error err;
	uint64_t pos = 0;
	int n = 0, ret;

	/* two events with different attr sizes share one file */
	full_attr(&a, PERF_ATTR_SIZE_VER8, ALL_SAMPLE_BITS);
	full_attr(&b, PERF_ATTR_SIZE_VER5, ALL_SAMPLE_BITS & ~PERF_SAMPLE_CGROUP);
	b.attr.config = PERF_COUNT_SW_PAGE_FAULTS;
	full_sample(&in[0], ids[0], store1);
	full_sample(&in[1], ids[1], store2);
	in[1].ip = 0x402000;
	synth_sample(&data, &a.attr, &in[0]);
	synth_sample(&data, &b.attr, &in[1]);
	ASSERT_EQ(0, synth_write_file(self->path, attrs, ids, NULL, 2, &data));

	ASSERT_EQ(0, pd_reader_open(&r, self->path, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(2, r.nr_evsels);
	EXPECT_EQ(PERF_ATTR_SIZE_VER8, r.evsels[0].attr.attr.size);
	EXPECT_EQ(0, memcmp(&r.evsels[0].attr, &a, PERF_ATTR_SIZE_VER5));
	while ((ret = pd_reader_next(&r, &pos, &rec, &err)) == 1) {
		const struct pd_sample *v;

		if (rec.header.type != PERF_RECORD_SAMPLE)
			continue;
		ASSERT_LT(n, 2);
		v = &in[n];
		ASSERT_EQ(0, pd_parse_sample(&r, &rec, &out, &err)) TH_LOG("%s", err.msg);
		EXPECT_EQ(&r.evsels[n], out.evsel);
		EXPECT_EQ(v->id, out.id);
		EXPECT_EQ(v->ip, out.ip);
		EXPECT_EQ(v->pid, out.pid);
		EXPECT_EQ(v->tid, out.tid);
		EXPECT_EQ(v->time, out.time);
		EXPECT_EQ(v->addr, out.addr);
		EXPECT_EQ(v->stream_id, out.stream_id);
		EXPECT_EQ(v->cpu, out.cpu);
		EXPECT_EQ(v->period, out.period);
		EXPECT_EQ(1, out.read.nr);
		EXPECT_EQ(v->read.first.value, out.read.first.value);
		EXPECT_EQ(v->read.first.id, out.read.first.id);
		EXPECT_EQ(v->read.first.lost, out.read.first.lost);
		EXPECT_EQ(v->read.time_enabled, out.read.time_enabled);
		EXPECT_EQ(v->read.time_running, out.read.time_running);
		ASSERT_EQ(v->chain.nr, out.chain.nr);
		EXPECT_EQ(0, memcmp(v->chain.ips, out.chain.ips, v->chain.nr * 8));
		EXPECT_FALSE(out.chain.deferred);
		ASSERT_EQ(v->raw.size, out.raw.size);
		EXPECT_EQ(0, memcmp(v->raw.data, out.raw.data, v->raw.size));
		ASSERT_EQ(v->branch.nr, out.branch.nr);
		EXPECT_EQ(v->branch.hw_idx, out.branch.hw_idx);
		EXPECT_EQ(0, memcmp(v->branch.entries, out.branch.entries, v->branch.nr * 24));
		EXPECT_EQ(v->regs_user.abi, out.regs_user.abi);
		EXPECT_EQ(0, memcmp(v->regs_user.regs, out.regs_user.regs, 3 * 8));
		EXPECT_EQ(v->stack_user.size, out.stack_user.size);
		EXPECT_EQ(0, memcmp(v->stack_user.data, out.stack_user.data, v->stack_user.size));
		EXPECT_EQ(v->stack_user.dyn_size, out.stack_user.dyn_size);
		EXPECT_EQ(v->mem.weight, out.mem.weight);
		EXPECT_EQ(v->mem.data_src, out.mem.data_src);
		EXPECT_EQ(v->mem.transaction, out.mem.transaction);
		EXPECT_EQ(v->regs_intr.abi, out.regs_intr.abi);
		EXPECT_EQ(0, memcmp(v->regs_intr.regs, out.regs_intr.regs, 2 * 8));
		EXPECT_EQ(v->mem.phys_addr, out.mem.phys_addr);
		EXPECT_EQ(n == 0 ? v->cgroup : 0, out.cgroup);
		EXPECT_EQ(v->mem.data_page_size, out.mem.data_page_size);
		EXPECT_EQ(v->mem.code_page_size, out.mem.code_page_size);
		EXPECT_EQ(v->aux.size, out.aux.size);
		EXPECT_EQ(0, memcmp(v->aux.data, out.aux.data, v->aux.size));
		n++;
	}
	EXPECT_EQ(0, ret) TH_LOG("%s", err.msg);
	EXPECT_EQ(2, n);
	pd_reader_close(&r);
	synth_free(&data);
}

TEST_F(file, sample_id_trailer_of_non_sample_records_reads_back)
{
	union pc_attr a;
	const struct perf_event_attr *attrs[1] = { &a.attr };
	uint64_t id = 7;
	struct pd_sample v = { 0 }, out;
	struct synth data = { 0 };
	struct pd_reader r;
	struct pd_record rec;
	struct pc_error err;
	uint64_t pos = 0, ips[3] = { PC_CONTEXT_USER, 0x401000, 0x402000 };
	struct pd_deferred d;
	int seen = 0;

	full_attr(&a, PERF_ATTR_SIZE_VER7, PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_TID |
		  PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_IP);
	v.id = id;
	v.pid = 10;
	v.tid = 11;
	v.time = 5000;
	v.cpu = 1;
	synth_comm(&data, &a.attr, 10, 11, "worker", &v);
	synth_mmap2(&data, &a.attr, 10, 11, 0x400000, 0x1000, 0, "/bin/true", &v);
	synth_fork(&data, &a.attr, PERF_RECORD_FORK, 12, 10, 12, 11, 4000, &v);
	synth_deferred(&data, &a.attr, 0x2d00000001ULL, 3, ips, &v);
	ASSERT_EQ(0, synth_write_file(self->path, attrs, &id, NULL, 1, &data));

	ASSERT_EQ(0, pd_reader_open(&r, self->path, &err)) TH_LOG("%s", err.msg);
	while (pd_reader_next(&r, &pos, &rec, &err) == 1) {
		ASSERT_EQ(0, pd_parse_sample_id(&r, &rec, &out, &err)) TH_LOG("%s", err.msg);
		if (rec.header.type == PC_RECORD_FINISHED_ROUND)
			continue;
		EXPECT_EQ(10, out.pid);
		EXPECT_EQ(11, out.tid);
		EXPECT_EQ(5000, out.time);
		EXPECT_EQ(1, out.cpu);
		EXPECT_EQ(id, out.id);
		if (rec.header.type == PC_RECORD_CALLCHAIN_DEFERRED) {
			ASSERT_EQ(0, pd_parse_deferred(&r, &rec, &d, NULL, &err));
			EXPECT_EQ(0x2d00000001ULL, d.cookie);
			ASSERT_EQ(3, d.nr);
			EXPECT_EQ(0, memcmp(ips, d.ips, sizeof(ips)));
		}
		seen++;
	}
	EXPECT_EQ(4, seen);
	pd_reader_close(&r);
	synth_free(&data);
}

TEST_F(file, deferred_cookie_at_the_end_of_a_callchain_is_recognised)
{
	union pc_attr a;
	const struct perf_event_attr *attrs[1] = { &a.attr };
	uint64_t chain[4] = { PC_CONTEXT_KERNEL, 0xffffffff81000000ULL,
			      PC_CONTEXT_USER_DEFERRED, 0x3790000001ULL };
	struct pd_sample v = { 0 }, out;
	struct synth data = { 0 };
	struct pd_reader r;
	struct pd_record rec;
	struct pc_error err;
	uint64_t pos = 0;

	full_attr(&a, PERF_ATTR_SIZE_VER9, PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_CALLCHAIN);
	pc_attr_set(&a.attr, PC_ATTR_defer_callchain, 1);
	v.chain.ips = chain;
	v.chain.nr = 4;
	synth_sample(&data, &a.attr, &v);
	ASSERT_EQ(0, synth_write_file(self->path, attrs, NULL, NULL, 1, &data));
	ASSERT_EQ(0, pd_reader_open(&r, self->path, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(PERF_ATTR_SIZE_VER9, r.evsels[0].file_attr_size);
	EXPECT_TRUE(pc_attr_test(&r.evsels[0].attr.attr, PC_ATTR_defer_callchain));
	ASSERT_EQ(1, pd_reader_next(&r, &pos, &rec, &err));
	ASSERT_EQ(0, pd_parse_sample(&r, &rec, &out, &err));
	EXPECT_TRUE(out.chain.deferred);
	EXPECT_EQ(0x3790000001ULL, out.chain.cookie);
	pd_reader_close(&r);
	synth_free(&data);
}

static int collect_arg(const char *arg, void *ctx)
{
	strcat(ctx, arg);
	strcat(ctx, "|");
	return 0;
}

static int collect_build_id(const struct pd_build_id_entry *e, const uint8_t *id,
			    size_t id_size, const char *filename, void *ctx)
{
	char *out = ctx;

	sprintf(out + strlen(out), "%s:%zu:%02x%02x:%d|", filename, id_size, id[0], id[1],
		e->header.misc & 7);
	return 0;
}

TEST_F(file, header_features_read_back)
{
	union pc_attr a;
	struct pd_writer w;
	struct pd_reader r;
	struct pc_error err;
	uint64_t id = 5;
	uint8_t bid[20] = { 0xab, 0xcd };
	char *argv[] = { "perfcheck", "record", "--", "sleep", "1" };
	char buf[256], args[256] = "", bids[256] = "";
	uint32_t avail, online;

	full_attr(&a, PERF_ATTR_SIZE_VER7, PERF_SAMPLE_IP | PERF_SAMPLE_TID);
	ASSERT_EQ(0, pd_writer_open(&w, self->path, &err));
	ASSERT_EQ(0, pd_writer_add_evsel(&w, &a.attr, &id, 1, "cpu-clock:u", &err));
	ASSERT_EQ(0, pd_writer_set_host_features(&w, "0.1-test"));
	ASSERT_EQ(0, pd_writer_set_cmdline(&w, 5, argv));
	ASSERT_EQ(0, pd_writer_add_build_id(&w, false, -1, bid, 20, "/usr/bin/true"));
	ASSERT_EQ(0, pd_writer_add_build_id(&w, true, -1, bid, 20, "[kernel.kallsyms]"));
	ASSERT_EQ(0, pd_writer_begin_data(&w, &err));
	ASSERT_EQ(0, pd_writer_finish(&w, &err)) TH_LOG("%s", err.msg);

	ASSERT_EQ(0, pd_reader_open(&r, self->path, &err)) TH_LOG("%s", err.msg);
	EXPECT_FALSE(r.data_size_recovered);
	ASSERT_EQ(0, pd_reader_feature_string(&r, PD_FEAT_VERSION, buf, sizeof(buf), &err));
	EXPECT_STREQ("0.1-test", buf);
	ASSERT_EQ(0, pd_reader_feature_string(&r, PD_FEAT_ARCH, buf, sizeof(buf), &err));
	EXPECT_STREQ(self_machine(), buf);
	ASSERT_EQ(0, pd_reader_feature_string(&r, PD_FEAT_OSRELEASE, buf, sizeof(buf), &err));
	EXPECT_NE(0, strlen(buf));
	ASSERT_EQ(0, pd_reader_nrcpus(&r, &avail, &online, &err));
	EXPECT_EQ((uint32_t)sysconf(_SC_NPROCESSORS_ONLN), online);
	ASSERT_EQ(0, pd_reader_cmdline(&r, collect_arg, args, &err));
	EXPECT_STREQ("perfcheck|record|--|sleep|1|", args);
	ASSERT_EQ(0, pd_reader_build_ids(&r, collect_build_id, bids, &err));
	EXPECT_STREQ("/usr/bin/true:20:abcd:2|[kernel.kallsyms]:20:abcd:1|", bids);
	EXPECT_STREQ("cpu-clock:u", r.evsels[0].name);
	pd_reader_close(&r);
}

TEST_F(file, killed_writer_leaves_a_file_read_to_its_last_whole_record)
{
	union pc_attr a;
	struct pd_sample v = { 0 };
	struct synth data = { 0 };
	struct pd_writer w;
	struct pd_reader r;
	struct pd_record rec;
	struct pc_error err;
	uint64_t pos = 0;
	int n = 0, ret;

	full_attr(&a, PERF_ATTR_SIZE_VER7, PERF_SAMPLE_IP | PERF_SAMPLE_TID);
	for (int i = 0; i < 10; i++) {
		v.ip = 0x1000 + i;
		synth_sample(&data, &a.attr, &v);
	}
	ASSERT_EQ(0, pd_writer_open(&w, self->path, &err));
	ASSERT_EQ(0, pd_writer_add_evsel(&w, &a.attr, NULL, 0, NULL, &err));
	ASSERT_EQ(0, pd_writer_begin_data(&w, &err));
	ASSERT_EQ(0, pd_writer_write(&w, data.buf, data.len, &err));
	ASSERT_EQ(0, pd_writer_flush(&w, &err));
	/* as if killed: no finish; then a torn half record appended */
	ASSERT_EQ(12, pwrite(w.fd, data.buf, 12, (off_t)(w.data_start + w.data_size)));
	pd_writer_abort(&w);

	ASSERT_EQ(0, pd_reader_open(&r, self->path, &err)) TH_LOG("%s", err.msg);
	EXPECT_TRUE(r.data_size_recovered);
	while ((ret = pd_reader_next(&r, &pos, &rec, &err)) == 1)
		n++;
	EXPECT_EQ(0, ret);
	EXPECT_EQ(10, n);
	pd_reader_close(&r);
	synth_free(&data);
}

TEST_F(file, pipe_input_reads_a_file_from_stdin)
{
	union pc_attr a;
	const struct perf_event_attr *attrs[1] = { &a.attr };
	struct pd_sample v = { 0 };
	struct synth data = { 0 };
	struct pd_reader r;
	struct pd_record rec;
	struct pc_error err;
	uint64_t pos = 0;
	int n = 0, fds[2], saved;
	pid_t pid;

	full_attr(&a, PERF_ATTR_SIZE_VER7, PERF_SAMPLE_IP | PERF_SAMPLE_TID);
	for (int i = 0; i < 3; i++)
		synth_sample(&data, &a.attr, &v);
	ASSERT_EQ(0, synth_write_file(self->path, attrs, NULL, NULL, 1, &data));
	ASSERT_EQ(0, pipe(fds));
	pid = fork();
	ASSERT_LE(0, pid);
	if (pid == 0) {
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "cat '%s' >&%d", self->path, fds[1]);
		close(fds[0]);
		_exit(system(cmd) ? 1 : 0);
	}
	close(fds[1]);
	saved = dup(0);
	dup2(fds[0], 0);
	close(fds[0]);
	ASSERT_EQ(0, pd_reader_open(&r, "-", &err)) TH_LOG("%s", err.msg);
	dup2(saved, 0);
	while (pd_reader_next(&r, &pos, &rec, &err) == 1)
		n += rec.header.type == PERF_RECORD_SAMPLE;
	EXPECT_EQ(3, n);
	pd_reader_close(&r);
	synth_free(&data);
}

TEST_HARNESS_MAIN
