// SPDX-License-Identifier: GPL-2.0
/*
 * Each stage of the reader alone, driven by a handful of synthesized
 * records: order (rounds, out-of-order, ties, the bound), defer (merge,
 * mismatch, the bound, what passes a waiting sample) and
 * machine (a map replacing what it overlaps, fork copying maps and comm).
 */
#include <stdio.h>

#include "kselftest_harness.h"
#include "perfdata/codec.h"
#include "reader/session.h"
#include "reader_util.h"
#include "util/log.h"

/* The end of a chain under test: what came out, in order. */
struct got {
	uint32_t nr;
	uint16_t type[64];
	uint64_t time[64];
	uint64_t merge_nr[64];
	bool unanswered[64];
};

static int collect(void *ctx, struct rd_item *it, struct pc_error *err)
{
	struct got *g = ctx;

	if (g->nr < 64) {
		g->type[g->nr] = it->type;
		g->time[g->nr] = it->timed ? it->time : UINT64_MAX;
		g->merge_nr[g->nr] = it->merge_nr;
		g->unanswered[g->nr] = it->unanswered;
		g->nr++;
	}
	rd_item_release(it);
	return 0;
}

FIXTURE(stage) {
	char *dir;
	char path[4096];
	union pc_attr a;
	struct synth d;
	struct pd_reader r;
	bool opened;
	struct got got;
	struct pc_error err;
};

FIXTURE_SETUP(stage)
{
	self->dir = pc_test_mkdtemp("stages");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->path, sizeof(self->path), "%s/s.data", self->dir);
	rt_attr(&self->a, PERF_ATTR_SIZE_VER8);
	memset(&self->d, 0, sizeof(self->d));
	memset(&self->got, 0, sizeof(self->got));
	self->opened = false;
}

FIXTURE_TEARDOWN(stage)
{
	if (self->opened)
		pd_reader_close(&self->r);
	synth_free(&self->d);
	pc_test_rmdir(self->dir);
}

static void open_file(struct __test_metadata *_metadata, FIXTURE_DATA(stage) *self)
{
	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	ASSERT_EQ(0, pd_reader_open(&self->r, self->path, &self->err)) TH_LOG("%s", self->err.msg);
	self->opened = true;
}

/* Reads every record of the file into in (whose sink is the stage under test). */
static void read_all(struct __test_metadata *_metadata, struct rd_input *in,
		     struct pc_error *err)
{
	int ret;

	while ((ret = rd_input_step(in, err)) > 0)
		;
	ASSERT_EQ(0, ret) TH_LOG("%s", err->msg);
}

static void sample_at(FIXTURE_DATA(stage) *self, uint64_t t)
{
	rt_sample(&self->d, &self->a.attr, 10, 10, t, RT_KIP(1), 0);
}

TEST_F(stage, order_sorts_out_of_order_records_at_the_end)
{
	struct rd_order o;
	struct rd_input in;

	sample_at(self, 30);
	sample_at(self, 10);
	sample_at(self, 20);
	open_file(_metadata, self);
	rd_order_init(&o, (struct rd_sink){ collect, &self->got });
	rd_input_init(&in, &self->r, (struct rd_sink){ rd_order_deliver, &o });
	read_all(_metadata, &in, &self->err);
	EXPECT_EQ(0, self->got.nr);	/* no round: all held */
	ASSERT_EQ(0, rd_order_flush(&o, UINT64_MAX, &self->err));
	ASSERT_EQ(3, self->got.nr);
	EXPECT_EQ(10, self->got.time[0]);
	EXPECT_EQ(20, self->got.time[1]);
	EXPECT_EQ(30, self->got.time[2]);
	EXPECT_EQ(0, o.unordered);
	rd_order_free(&o);
}

TEST_F(stage, order_round_releases_up_to_the_newest_time_of_the_round_before)
{
	struct rd_order o;
	struct rd_input in;

	sample_at(self, 20);
	sample_at(self, 10);
	synth_finished_round(&self->d);	/* nothing yet; the next round may go back to 20 */
	sample_at(self, 15);
	sample_at(self, 40);
	synth_finished_round(&self->d);	/* everything up to 20 */
	open_file(_metadata, self);
	rd_order_init(&o, (struct rd_sink){ collect, &self->got });
	rd_input_init(&in, &self->r, (struct rd_sink){ rd_order_deliver, &o });
	read_all(_metadata, &in, &self->err);
	ASSERT_EQ(3, self->got.nr);
	EXPECT_EQ(10, self->got.time[0]);
	EXPECT_EQ(15, self->got.time[1]);
	EXPECT_EQ(20, self->got.time[2]);
	ASSERT_EQ(0, rd_order_flush(&o, UINT64_MAX, &self->err));
	ASSERT_EQ(4, self->got.nr);
	EXPECT_EQ(40, self->got.time[3]);
	rd_order_free(&o);
}

TEST_F(stage, order_keeps_arrival_order_among_equal_times)
{
	struct rd_order o;
	struct rd_input in;

	sample_at(self, 5);
	synth_comm(&self->d, &self->a.attr, 10, 10, "x", &(struct pd_sample){ .pid = 10, .tid = 10, .time = 5 });
	sample_at(self, 5);
	open_file(_metadata, self);
	rd_order_init(&o, (struct rd_sink){ collect, &self->got });
	rd_input_init(&in, &self->r, (struct rd_sink){ rd_order_deliver, &o });
	read_all(_metadata, &in, &self->err);
	ASSERT_EQ(0, rd_order_flush(&o, UINT64_MAX, &self->err));
	ASSERT_EQ(3, self->got.nr);
	EXPECT_EQ(PERF_RECORD_SAMPLE, self->got.type[0]);
	EXPECT_EQ(PERF_RECORD_COMM, self->got.type[1]);
	EXPECT_EQ(PERF_RECORD_SAMPLE, self->got.type[2]);
	rd_order_free(&o);
}

TEST_F(stage, order_bound_releases_the_oldest_early)
{
	struct rd_order o;
	struct rd_input in;

	sample_at(self, 3);
	sample_at(self, 1);
	sample_at(self, 2);
	sample_at(self, 9);
	open_file(_metadata, self);
	rd_order_init(&o, (struct rd_sink){ collect, &self->got });
	o.max_pending = 2;
	rd_input_init(&in, &self->r, (struct rd_sink){ rd_order_deliver, &o });
	read_all(_metadata, &in, &self->err);
	/* the third and fourth record each pushed out the oldest pending one */
	ASSERT_EQ(2, self->got.nr);
	EXPECT_EQ(1, self->got.time[0]);
	EXPECT_EQ(2, self->got.time[1]);
	EXPECT_EQ(2, o.pending);
	rd_order_free(&o);
}

/* defer: samples with a cookie wait for their thread's CALLCHAIN_DEFERRED */
static void defer_run(struct __test_metadata *_metadata, FIXTURE_DATA(stage) *self,
		      struct rd_defer *df, size_t max_held)
{
	struct rd_input in;
	struct rd_parse ps;

	open_file(_metadata, self);
	rd_defer_init(df, true, false, (struct rd_sink){ collect, &self->got });
	if (max_held)
		df->max_held = max_held;
	rd_parse_init(&ps, &self->r, (struct rd_sink){ rd_defer_deliver, df });
	rd_input_init(&in, &self->r, (struct rd_sink){ rd_parse_deliver, &ps });
	read_all(_metadata, &in, &self->err);
}

TEST_F(stage, defer_merges_the_same_cookie)
{
	struct rd_defer df;

	rt_sample(&self->d, &self->a.attr, 10, 10, 100, RT_KIP(1), 7);
	rt_deferred(&self->d, &self->a.attr, 10, 10, 200, 7, 0x401000, 3);
	defer_run(_metadata, self, &df, 0);
	ASSERT_EQ(2, self->got.nr);
	EXPECT_EQ(PERF_RECORD_SAMPLE, self->got.type[0]);
	EXPECT_EQ(4, self->got.merge_nr[0]);	/* USER context + 3 frames */
	EXPECT_EQ(PC_RECORD_CALLCHAIN_DEFERRED, self->got.type[1]);
	EXPECT_EQ(1, df.stats.merged);
	rd_defer_free(&df);
}

TEST_F(stage, defer_releases_a_mismatched_cookie_unmerged)
{
	struct rd_defer df;

	rt_sample(&self->d, &self->a.attr, 10, 10, 100, RT_KIP(1), 7);
	rt_deferred(&self->d, &self->a.attr, 10, 10, 200, 8, 0x401000, 3);
	defer_run(_metadata, self, &df, 0);
	ASSERT_EQ(2, self->got.nr);
	EXPECT_EQ(0, self->got.merge_nr[0]);
	EXPECT_EQ(0, df.stats.merged);
	EXPECT_EQ(1, df.stats.unmerged);
	rd_defer_free(&df);
}

TEST_F(stage, defer_lets_later_records_pass_a_waiting_sample)
{
	struct rd_defer df;
	struct pd_sample id = rt_id(11, 11, 150);

	rt_sample(&self->d, &self->a.attr, 10, 10, 100, RT_KIP(1), 7);
	synth_comm(&self->d, &self->a.attr, 11, 11, "other", &id);
	defer_run(_metadata, self, &df, 0);
	ASSERT_EQ(1, self->got.nr);
	EXPECT_EQ(PERF_RECORD_COMM, self->got.type[0]);
	ASSERT_EQ(0, rd_defer_finish(&df, &self->err));
	ASSERT_EQ(2, self->got.nr);
	EXPECT_EQ(PERF_RECORD_SAMPLE, self->got.type[1]);
	EXPECT_TRUE(self->got.unanswered[1]);
	EXPECT_EQ(1, df.stats.unmerged);
	rd_defer_free(&df);
}

TEST_F(stage, defer_releases_a_threads_samples_at_its_record_only)
{
	struct rd_defer df;

	rt_sample(&self->d, &self->a.attr, 10, 10, 100, RT_KIP(1), 7);
	rt_sample(&self->d, &self->a.attr, 10, 11, 110, RT_KIP(1), 9);
	rt_sample(&self->d, &self->a.attr, 10, 10, 120, RT_KIP(1), 7);
	rt_deferred(&self->d, &self->a.attr, 10, 10, 200, 7, 0x401000, 3);
	defer_run(_metadata, self, &df, 0);
	/* thread 10's two samples, merged, then the record; 11's still waits */
	ASSERT_EQ(3, self->got.nr);
	EXPECT_EQ(100, self->got.time[0]);
	EXPECT_EQ(120, self->got.time[1]);
	EXPECT_EQ(4, self->got.merge_nr[0]);
	EXPECT_EQ(4, self->got.merge_nr[1]);
	EXPECT_EQ(PC_RECORD_CALLCHAIN_DEFERRED, self->got.type[2]);
	ASSERT_EQ(0, rd_defer_finish(&df, &self->err));
	ASSERT_EQ(4, self->got.nr);
	EXPECT_EQ(110, self->got.time[3]);
	EXPECT_TRUE(self->got.unanswered[3]);
	rd_defer_free(&df);
}

TEST_F(stage, defer_lets_maps_pass_a_waiting_sample)
{
	struct rd_defer df;
	struct pd_sample id = rt_id(10, 10, 150);

	rt_sample(&self->d, &self->a.attr, 10, 10, 100, RT_KIP(1), 7);
	synth_mmap2(&self->d, &self->a.attr, 10, 10, 0x400000, 0x1000, 0, "/bin/x", &id);
	defer_run(_metadata, self, &df, 0);
	ASSERT_EQ(1, self->got.nr);
	EXPECT_EQ(PERF_RECORD_MMAP2, self->got.type[0]);
	rd_defer_free(&df);
}

TEST_F(stage, defer_bounds_the_samples_held_in_all)
{
	struct rd_defer df;

	for (int i = 0; i < 3; i++)
		rt_sample(&self->d, &self->a.attr, 10, 10 + i % 2, 100 + i, RT_KIP(1), 7 + i);
	defer_run(_metadata, self, &df, 2);
	/* the third sample forced the first out, unanswered */
	ASSERT_EQ(1, self->got.nr);
	EXPECT_EQ(100, self->got.time[0]);
	EXPECT_TRUE(self->got.unanswered[0]);
	EXPECT_EQ(1, df.stats.forced);
	ASSERT_EQ(0, rd_defer_finish(&df, &self->err));
	ASSERT_EQ(3, self->got.nr);
	EXPECT_EQ(101, self->got.time[1]);
	EXPECT_EQ(102, self->got.time[2]);
	rd_defer_free(&df);
}

/* machine: state records applied directly */
struct mach {
	struct rd_machine m;
	struct pc_dso_cache dsos;
	struct pd_buf b;
};

static int mach_record(struct mach *mc, struct pc_error *err)
{
	struct pd_record rec = { .offset = 0x100, .data = mc->b.data };
	int ret;

	memcpy(&rec.header, mc->b.data, sizeof(rec.header));
	ret = rd_machine_record(&mc->m, &rec, 0, err);
	mc->b.len = 0;
	return ret;
}

static void mach_init(struct mach *mc)
{
	memset(mc, 0, sizeof(*mc));
	pc_dso_cache_init(&mc->dsos);
	mc->dsos.root = "/nonexistent-stage-test";
	rd_machine_init(&mc->m, "m.data", &mc->dsos, (struct rd_sink){ collect, NULL });
}

static void mach_free(struct mach *mc)
{
	rd_machine_free(&mc->m);
	pc_dso_cache_free(&mc->dsos);
	pd_buf_free(&mc->b);
}

static int mmap2(struct mach *mc, uint32_t pid, uint64_t start, uint64_t len, const char *name,
		 struct pc_error *err)
{
	struct perf_event_attr a = { .size = PERF_ATTR_SIZE_VER5 };
	struct pd_mmap m = { .pid = pid, .tid = pid, .start = start, .len = len,
			     .filename = name };

	pd_encode_mmap(&mc->b, &a, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, &m, NULL);
	return mach_record(mc, err);
}

static const char *dso_at(struct mach *mc, uint32_t pid, uint64_t ip)
{
	struct rd_thread *t = rd_machine_thread(&mc->m, pid, pid);
	struct rd_resolved r;

	rd_machine_resolve(&mc->m, t, false, ip, &r);
	return r.dso ? r.dso : "(none)";
}

TEST(machine_map_replaces_what_it_overlaps)
{
	struct pc_error err = { 0 };
	struct mach mc;

	mach_init(&mc);
	ASSERT_EQ(0, mmap2(&mc, 10, 0x1000, 0x4000, "/a", &err));
	ASSERT_EQ(0, mmap2(&mc, 10, 0x2000, 0x1000, "/b", &err));
	EXPECT_STREQ("/a", dso_at(&mc, 10, 0x1800));
	EXPECT_STREQ("/b", dso_at(&mc, 10, 0x2800));
	EXPECT_STREQ("/a", dso_at(&mc, 10, 0x3800));	/* the tail of /a stays */
	EXPECT_STREQ("(none)", dso_at(&mc, 10, 0x5800));
	mach_free(&mc);
}

TEST(machine_fork_copies_maps_and_comm)
{
	struct perf_event_attr a = { .size = PERF_ATTR_SIZE_VER5 };
	struct pd_task fork = { 20, 10, 20, 10, 0 };
	struct pd_comm comm = { 10, 10, "parent" };
	struct pc_error err = { 0 };
	struct mach mc;

	mach_init(&mc);
	ASSERT_EQ(0, mmap2(&mc, 10, 0x1000, 0x1000, "/a", &err));
	pd_encode_comm(&mc.b, &a, 0, &comm, NULL);
	ASSERT_EQ(0, mach_record(&mc, &err));
	pd_encode_task(&mc.b, &a, PERF_RECORD_FORK, 0, &fork, NULL);
	ASSERT_EQ(0, mach_record(&mc, &err));
	EXPECT_STREQ("/a", dso_at(&mc, 20, 0x1800));
	EXPECT_STREQ("parent", rd_machine_thread(&mc.m, 20, 20)->comm);
	/* the child's later map is its own */
	ASSERT_EQ(0, mmap2(&mc, 20, 0x1000, 0x1000, "/c", &err));
	EXPECT_STREQ("/c", dso_at(&mc, 20, 0x1800));
	EXPECT_STREQ("/a", dso_at(&mc, 10, 0x1800));
	mach_free(&mc);
}

TEST(machine_names_a_bad_record_by_offset)
{
	struct pc_error err = { 0 };
	struct mach mc;
	uint8_t rec[24] = { 0 };
	struct perf_event_header h = { PERF_RECORD_COMM, 0, sizeof(rec) };

	mach_init(&mc);
	memcpy(rec, &h, sizeof(h));
	memset(rec + 16, 'x', 8);	/* the name runs to the end without a NUL */
	pd_buf_put(&mc.b, rec, sizeof(rec));
	EXPECT_EQ(-EINVAL, mach_record(&mc, &err));
	EXPECT_NE(NULL, strstr(err.msg, "m.data: offset 0x100: COMM name is not NUL-terminated"))
		TH_LOG("%s", err.msg);
	mach_free(&mc);
}

/* input: a type the reader cannot read is counted and named through the print function */
static char printed[1024];

static void capture(enum pc_log_level level, const char *fmt, va_list ap)
{
	size_t l = strlen(printed);

	if (level == PC_LOG_WARN)
		vsnprintf(printed + l, sizeof(printed) - l, fmt, ap);
}

TEST_F(stage, input_names_record_types_it_does_not_interpret)
{
	struct perf_event_header h = { 30, 0, 32 };	/* body and sample_id (tid, time) */
	struct pd_sample id = rt_id(10, 10, 2);
	uint64_t body = 0;
	struct rd_input in;
	pc_print_fn old;

	sample_at(self, 1);
	synth_put(&self->d, &h, sizeof(h));
	synth_put(&self->d, &body, 8);
	synth_sample_id(&self->d, &self->a.attr, &id);
	open_file(_metadata, self);
	rd_input_init(&in, &self->r, (struct rd_sink){ collect, &self->got });
	read_all(_metadata, &in, &self->err);
	EXPECT_EQ(2, self->got.nr);
	printed[0] = '\0';
	old = pc_set_print(capture);
	EXPECT_EQ(1, rd_input_report(&in));
	pc_set_print(old);
	EXPECT_NE(NULL, strstr(printed, "1 record of unknown type 30 not interpreted"))
		TH_LOG("%s", printed);
}

TEST_F(stage, print_function_set_to_null_drops_library_warnings)
{
	struct rd_input in;
	pc_print_fn old;
	struct perf_event_header h = { 31, 0, 24 };
	struct pd_sample id = rt_id(10, 10, 2);

	synth_put(&self->d, &h, sizeof(h));
	synth_sample_id(&self->d, &self->a.attr, &id);
	open_file(_metadata, self);
	rd_input_init(&in, &self->r, (struct rd_sink){ collect, &self->got });
	read_all(_metadata, &in, &self->err);
	printed[0] = '\0';
	old = pc_set_print(capture);
	EXPECT_TRUE(old == pc_print_stderr);
	pc_set_print(NULL);
	EXPECT_EQ(1, rd_input_report(&in));
	EXPECT_TRUE(pc_set_print(old) == NULL);
	EXPECT_STREQ("", printed);
}

TEST_HARNESS_MAIN
