// SPDX-License-Identifier: GPL-2.0
/*
 * The records of perf stat record files through the one codec: what
 * pd_encode_stat, _stat_round, _stat_config, _cpu_map, _thread_map and
 * _event_update write, the decoders read back field for field, in the
 * sizes perf 6.1 writes (read from its files: STAT 48 bytes, STAT_ROUND
 * 24, STAT_CONFIG of 3 tags 64, EVENT_UPDATE of a unit or a scale 48).
 */
#include <errno.h>
#include <string.h>

#include "kselftest_harness.h"
#include "perfdata/codec.h"

FIXTURE(sc) {
	struct pd_buf b;
	struct pd_record rec;
	struct pc_error err;
};

FIXTURE_SETUP(sc)
{
	memset(self, 0, sizeof(*self));
}

FIXTURE_TEARDOWN(sc)
{
	pd_buf_free(&self->b);
}

/* The one record in b, as the reader hands it (at a made-up offset) */
static const struct pd_record *only(FIXTURE_DATA(sc) *self)
{
	memcpy(&self->rec.header, self->b.data, sizeof(self->rec.header));
	self->rec.data = self->b.data;
	self->rec.offset = 0x1000;
	return &self->rec;
}

TEST_F(sc, stat_round_trips_with_perfs_size)
{
	struct pd_stat in = { 579148, (uint32_t)-1, 3, 505166, 505167, 505168 }, out;

	ASSERT_EQ(0, pd_encode_stat(&self->b, &in));
	ASSERT_EQ(48, self->b.len);
	EXPECT_EQ(PC_RECORD_STAT, only(self)->header.type);
	ASSERT_EQ(0, pd_decode_stat("t", only(self), &out, &self->err)) TH_LOG("%s", self->err.msg);
	EXPECT_EQ(0, memcmp(&in, &out, sizeof(in)));
}

TEST_F(sc, stat_round_round_trips_with_perfs_size)
{
	struct pd_stat_round in = { PD_STAT_ROUND_INTERVAL, 100227231 }, out;

	ASSERT_EQ(0, pd_encode_stat_round(&self->b, &in));
	ASSERT_EQ(24, self->b.len);
	ASSERT_EQ(0, pd_decode_stat_round("t", only(self), &out, &self->err));
	EXPECT_EQ(in.type, out.type);
	EXPECT_EQ(in.time, out.time);
}

TEST_F(sc, stat_config_round_trips_every_tag)
{
	struct pd_stat_config in = { PD_AGGR_NODE, 100, 0 }, out = { 9, 9, 9 };

	ASSERT_EQ(0, pd_encode_stat_config(&self->b, &in));
	ASSERT_EQ(64, self->b.len);
	ASSERT_EQ(0, pd_decode_stat_config("t", only(self), &out, &self->err));
	EXPECT_EQ(PD_AGGR_NODE, out.aggr_mode);
	EXPECT_EQ(100, out.interval);
	EXPECT_EQ(0, out.scale);
}

/* perf 7.2's STAT_CONFIG: 4 tags (AGGR_LEVEL), its own numbers (read from its files) */
static void later_config(FIXTURE_DATA(sc) *self, uint64_t mode)
{
	struct perf_event_header h = { PC_RECORD_STAT_CONFIG, 0, 8 + 8 + 4 * 16 };
	uint64_t body[9] = { 4, 0, mode, 1, 0, 2, 1, 3, 0 };

	self->b.len = 0;
	pd_buf_put(&self->b, &h, sizeof(h));
	pd_buf_put(&self->b, body, sizeof(body));
}

TEST_F(sc, a_later_perfs_aggregation_numbers_read_as_6_1s)
{
	static const uint64_t theirs[] = { 0, 1, 2, 3, 6, 7, 9, 4, 5, 42 };
	static const uint64_t ours[] = { PD_AGGR_NONE, PD_AGGR_GLOBAL, PD_AGGR_SOCKET, PD_AGGR_DIE,
					 PD_AGGR_CORE, PD_AGGR_THREAD, PD_AGGR_NODE, PD_AGGR_OTHER,
					 PD_AGGR_OTHER, PD_AGGR_OTHER };

	for (size_t i = 0; i < sizeof(theirs) / sizeof(theirs[0]); i++) {
		struct pd_stat_config out = { 0 };

		later_config(self, theirs[i]);
		ASSERT_EQ(0, pd_decode_stat_config("t", only(self), &out, &self->err));
		EXPECT_EQ(ours[i], out.aggr_mode) TH_LOG("perf 7.2's mode %llu",
							 (unsigned long long)theirs[i]);
		EXPECT_EQ(1, out.scale);
	}
}

TEST_F(sc, cpu_map_round_trips_any_cpu_and_a_list)
{
	int32_t cpus[3] = { -1, 0, 7 };
	struct pd_cpu_list out = { 0 };

	ASSERT_EQ(0, pd_encode_cpu_map(&self->b, &(struct pd_cpu_list){ cpus, 3 }));
	ASSERT_EQ(0, pd_decode_cpu_map("t", only(self), 8, &out, &self->err));
	ASSERT_EQ(3, out.nr);
	EXPECT_EQ(-1, out.cpus[0]);
	EXPECT_EQ(0, out.cpus[1]);
	EXPECT_EQ(7, out.cpus[2]);
	free(out.cpus);
}

/* perf 6.1's range (type 2): 16 bytes "02 00 | any 00 | start | end" for consecutive cpus */
TEST_F(sc, cpu_map_perf_form_is_a_range_for_consecutive_cpus)
{
	int32_t cpus[3] = { 4, 5, 6 };
	static const uint8_t want[8] = { 2, 0, 0, 0, 4, 0, 6, 0 };
	struct pd_cpu_list out = { 0 };

	ASSERT_EQ(0, pd_encode_cpu_map_perf(&self->b, &(struct pd_cpu_list){ cpus, 3 }));
	ASSERT_EQ(16, self->b.len);
	EXPECT_EQ(0, memcmp(self->b.data + 8, want, sizeof(want)));
	ASSERT_EQ(0, pd_decode_cpu_map("t", only(self), 8, &out, &self->err));
	ASSERT_EQ(3, out.nr);
	for (int i = 0; i < 3; i++)
		EXPECT_EQ(cpus[i], out.cpus[i]);
	free(out.cpus);
}

/* the any-cpu map of --per-thread stays perf's list: "00 00 | 01 00 | ff ff" */
TEST_F(sc, cpu_map_perf_form_keeps_the_list_for_any_cpu)
{
	int32_t cpus[1] = { -1 };
	static const uint8_t want[6] = { 0, 0, 1, 0, 0xff, 0xff };

	ASSERT_EQ(0, pd_encode_cpu_map_perf(&self->b, &(struct pd_cpu_list){ cpus, 1 }));
	ASSERT_EQ(16, self->b.len);
	EXPECT_EQ(0, memcmp(self->b.data + 8, want, sizeof(want)));
}

/* sparse cpus: a mask of 32-bit words (type 1) when smaller than the list, and back */
TEST_F(sc, cpu_map_perf_form_is_a_mask_for_sparse_cpus)
{
	int32_t cpus[10] = { 0, 2, 4, 6, 8, 10, 12, 14, 16, 33 };
	struct pd_cpu_list out = { 0 };
	uint16_t type;

	ASSERT_EQ(0, pd_encode_cpu_map_perf(&self->b, &(struct pd_cpu_list){ cpus, 10 }));
	memcpy(&type, self->b.data + 8, 2);
	EXPECT_EQ(1, type);
	ASSERT_EQ(0, pd_decode_cpu_map("t", only(self), 8, &out, &self->err));
	ASSERT_EQ(10, out.nr);
	for (int i = 0; i < 10; i++)
		EXPECT_EQ(cpus[i], out.cpus[i]);
	free(out.cpus);
}

/* 2048 entries: a full record of 2047 (65520 bytes, under the u16 size) and one of 1 */
TEST_F(sc, id_index_splits_at_2047_entries_and_round_trips_each_field)
{
	struct pd_id_entry in[2048], *out = NULL;
	struct pd_record second;
	uint64_t nr = 0;

	for (int i = 0; i < 2048; i++)
		in[i] = (struct pd_id_entry){ 100 + i, i % 2, i % 2, i == 2047 ? -1 : 4242 };
	ASSERT_EQ(0, pd_encode_id_index(&self->b, in, 2048));
	ASSERT_EQ(16 + 2047 * 32 + 16 + 32, self->b.len);
	EXPECT_EQ(PC_RECORD_ID_INDEX, only(self)->header.type);
	EXPECT_EQ(16 + 2047 * 32, only(self)->header.size);
	ASSERT_EQ(0, pd_decode_id_index("t", only(self), &out, &nr, &self->err))
		TH_LOG("%s", self->err.msg);
	ASSERT_EQ(2047, nr);
	EXPECT_EQ(0, memcmp(in, out, 2047 * sizeof(*out)));
	free(out);
	second.offset = 0x1000 + 16 + 2047 * 32;
	second.data = self->b.data + 16 + 2047 * 32;
	memcpy(&second.header, second.data, sizeof(second.header));
	ASSERT_EQ(0, pd_decode_id_index("t", &second, &out, &nr, &self->err));
	ASSERT_EQ(1, nr);
	EXPECT_EQ(2147, out[0].id);
	EXPECT_EQ(1, out[0].idx);
	EXPECT_EQ(1, out[0].cpu);
	EXPECT_EQ(-1, out[0].tid);
	free(out);
}

/* a count its record cannot hold is refused, nothing allocated */
TEST_F(sc, id_index_of_more_entries_than_its_size_is_refused)
{
	struct pd_id_entry in = { 7, 0, 0, -1 }, *out = NULL;
	uint64_t nr = 0, big = 2;

	ASSERT_EQ(0, pd_encode_id_index(&self->b, &in, 1));
	memcpy(self->b.data + 8, &big, 8);
	EXPECT_EQ(-EINVAL, pd_decode_id_index("t", only(self), &out, &nr, &self->err));
	EXPECT_NE(NULL, strstr(self->err.msg, "ID_INDEX record of 48 bytes is too short"))
		TH_LOG("%s", self->err.msg);
	EXPECT_EQ(NULL, out);
	EXPECT_EQ(0, pd_encode_id_index(&self->b, &in, 0));
}

TEST_F(sc, thread_map_round_trips_pids_and_comms)
{
	int32_t pids[2] = { -1, 4242 };
	char comms[2][16] = { "", "a-fifteen-chars" };
	struct pd_thread_list out = { 0 };

	ASSERT_EQ(0, pd_encode_thread_map(&self->b, &(struct pd_thread_list){ pids, 2, comms }));
	ASSERT_EQ(8 + 8 + 2 * 24, self->b.len);
	ASSERT_EQ(0, pd_decode_thread_map("t", only(self), &out, &self->err));
	ASSERT_EQ(2, out.nr);
	EXPECT_EQ(-1, out.pids[0]);
	EXPECT_EQ(4242, out.pids[1]);
	EXPECT_STREQ("", out.comms[0]);
	EXPECT_STREQ("a-fifteen-chars", out.comms[1]);
	free(out.pids);
	free(out.comms);
}

TEST_F(sc, thread_map_without_comms_writes_empty_ones)
{
	int32_t pids[1] = { 77 };
	struct pd_thread_list out = { 0 };

	ASSERT_EQ(0, pd_encode_thread_map(&self->b, &(struct pd_thread_list){ pids, 1 }));
	ASSERT_EQ(0, pd_decode_thread_map("t", only(self), &out, &self->err));
	EXPECT_STREQ("", out.comms[0]);
	free(out.pids);
	free(out.comms);
}

TEST_F(sc, event_update_unit_round_trips_at_perfs_size)
{
	struct pd_event_update out;

	ASSERT_EQ(0, pd_encode_event_update(&self->b, &(struct pd_event_update){
		.type = PD_EVENT_UPDATE_UNIT, .id = 579148, .str = "msec" }));
	ASSERT_EQ(48, self->b.len);
	ASSERT_EQ(0, pd_decode_event_update("t", only(self), &out, &self->err));
	EXPECT_EQ(PD_EVENT_UPDATE_UNIT, out.type);
	EXPECT_EQ(579148, out.id);
	EXPECT_STREQ("msec", out.str);
}

TEST_F(sc, event_update_scale_round_trips_at_perfs_size)
{
	struct pd_event_update out;

	ASSERT_EQ(0, pd_encode_event_update(&self->b, &(struct pd_event_update){
		.type = PD_EVENT_UPDATE_SCALE, .id = 5, .scale = 1e-6 }));
	ASSERT_EQ(48, self->b.len);
	ASSERT_EQ(0, pd_decode_event_update("t", only(self), &out, &self->err));
	EXPECT_EQ(PD_EVENT_UPDATE_SCALE, out.type);
	EXPECT_EQ(1e-6, out.scale);
}

/* a type past CPUS is none perf writes: refused, nothing of the record left behind */
TEST_F(sc, event_update_of_an_unknown_type_is_not_encoded)
{
	EXPECT_EQ(-EINVAL, pd_encode_event_update(&self->b, &(struct pd_event_update){
		.type = PD_EVENT_UPDATE_CPUS + 1, .id = 5 }));
	EXPECT_EQ(0, self->b.len);
}

TEST_F(sc, event_update_string_without_its_nul_is_refused_with_its_offset)
{
	ASSERT_EQ(0, pd_encode_event_update(&self->b, &(struct pd_event_update){
		.type = PD_EVENT_UPDATE_NAME, .id = 5, .str = "0123456" }));
	memset(self->b.data + 24, 'x', self->b.len - 24);
	EXPECT_EQ(-EINVAL, pd_decode_event_update("f.data", only(self), &(struct pd_event_update){ 0 },
						  &self->err));
	EXPECT_STREQ("f.data: offset 0x1018: EVENT_UPDATE string is not NUL-terminated",
		     self->err.msg);
}

TEST_F(sc, cut_stat_is_refused_with_offset_and_sizes)
{
	struct pd_stat out;

	ASSERT_EQ(0, pd_encode_stat(&self->b, &(struct pd_stat){ 1, 0, 0, 1, 1, 1 }));
	((struct perf_event_header *)self->b.data)->size = 40;
	EXPECT_EQ(-EINVAL, pd_decode_stat("f.data", only(self), &out, &self->err));
	EXPECT_STREQ("f.data: offset 0x1000: STAT record of 40 bytes is too short for its fields "
		     "(48 bytes)", self->err.msg);
}

TEST_HARNESS_MAIN
