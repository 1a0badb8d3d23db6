// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck script --show-*-events on synthesized files (no perf, no
 * kernel): each record type in perf 6.1's layout (checked against perf
 * 6.1 when these lines were written; TEXT_POKE against perf 7.2 in a guest), in time order among the samples,
 * and a record too short for its fields refused with its offset.
 */
#include <sys/mman.h>

#include "kselftest_harness.h"
#include "reader_util.h"

FIXTURE(ev) {
	char *dir;
	char path[512];
	union pc_attr a;
	struct synth d;
	struct pc_run run;
};

/* A record of type with body (after the header), then the sample_id of id. */
static void put_record(struct synth *d, const struct perf_event_attr *a, uint32_t type,
		       uint16_t misc, const void *body, size_t len, uint64_t time)
{
	struct synth trailer = { 0 };
	struct pd_sample id = rt_id(100, 100, time);
	struct perf_event_header h = { type, misc, 0 };

	synth_sample_id(&trailer, a, &id);
	h.size = (uint16_t)(sizeof(h) + len + trailer.len);
	synth_put(d, &h, sizeof(h));
	synth_put(d, body, len);
	synth_put(d, trailer.buf, trailer.len);
	synth_free(&trailer);
}

static void put_sample(struct synth *d, const struct perf_event_attr *a, uint64_t time)
{
	struct pd_sample v = rt_id(100, 100, time);

	v.ip = RT_KIP(1);
	synth_sample(d, a, &v);
}

struct mmap2_body {
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint32_t prot, flags;
	char filename[16];
};

FIXTURE_SETUP(ev)
{
	struct pd_sample id = rt_id(100, 100, RT_SEC);
	struct mmap2_body m = { 100, 100, 0x400000, 0x1000, 0x2000, 8, 1, 1234, 5,
				PROT_READ | PROT_EXEC, MAP_PRIVATE, "/bin/alpha" };
	uint32_t sw[2] = { 200, 201 };
	uint64_t lost[2] = { 7, 3 };

	self->dir = pc_test_mkdtemp("unit-script-events");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->path, sizeof(self->path), "%s/perf.data", self->dir);
	memset(&self->d, 0, sizeof(self->d));
	memset(&self->run, 0, sizeof(self->run));
	rt_plain_attr(&self->a, PERF_SAMPLE_PERIOD);
	synth_comm(&self->d, &self->a.attr, 100, 100, "alpha", &id);
	put_record(&self->d, &self->a.attr, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, &m,
		   sizeof(m), RT_SEC + 1000);
	put_sample(&self->d, &self->a.attr, RT_SEC + 2000);
	put_record(&self->d, &self->a.attr, PERF_RECORD_SWITCH,
		   PERF_RECORD_MISC_SWITCH_OUT | PERF_RECORD_MISC_SWITCH_OUT_PREEMPT, NULL, 0,
		   RT_SEC + 3000);
	put_record(&self->d, &self->a.attr, PERF_RECORD_SWITCH_CPU_WIDE, 0, sw, sizeof(sw),
		   RT_SEC + 4000);
	put_record(&self->d, &self->a.attr, PERF_RECORD_LOST, 0, lost, sizeof(lost),
		   RT_SEC + 5000);
	synth_fork(&self->d, &self->a.attr, PERF_RECORD_EXIT, 100, 1, 100, 1, RT_SEC + 6000,
		   &(struct pd_sample){ .pid = 100, .tid = 100, .time = RT_SEC + 6000 });
	/* out of file order: the reader shows it at its time, before the sample */
	put_record(&self->d, &self->a.attr, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, &m,
		   sizeof(m), RT_SEC + 1500);
}

FIXTURE_TEARDOWN(ev)
{
	pc_run_free(&self->run);
	synth_free(&self->d);
	if (!getenv("PERFCHECK_KEEP_TEST_FILES"))
		pc_test_rmdir(self->dir);
}

static void script(struct __test_metadata *_metadata, FIXTURE_DATA(ev) *self, const char *o1,
		   const char *o2)
{
	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	pc_run_free(&self->run);
	ASSERT_EQ(0, rt_perfcheck(&self->run, "script", "--compat", "6.1", "-i", self->path,
				  o1, o2));
}

#define COMM_LINE "           alpha   100     1.000000: PERF_RECORD_COMM: alpha:100/100\n"
#define MMAP_LINE(t) "           alpha   100     1.00000" t ": PERF_RECORD_MMAP2 100/100: " \
	"[0x400000(0x1000) @ 0x2000 08:01 1234 5]: r-xp /bin/alpha\n"
#define SAMPLE_LINE "           alpha   100     1.000002:     250000 cpu-clock:  " \
	"ffff888000001010 [unknown] ([unknown])\n"

TEST_F(ev, without_options_only_samples_show)
{
	script(_metadata, self, NULL, NULL);
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_STREQ(SAMPLE_LINE, self->run.out);
}

TEST_F(ev, task_events_show_comm_and_exit_in_time_order)
{
	script(_metadata, self, "--show-task-events", NULL);
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_STREQ(COMM_LINE SAMPLE_LINE
		     "           alpha   100     1.000006: PERF_RECORD_EXIT(100:100):(1:1)\n",
		     self->run.out);
}

/*
 * perf script since 6.8 forgets a thread at its EXIT (and a process's maps
 * with its leader): a sample after it, such as those of the exit path or a
 * deferred callchain's, is a new thread ":TID".  perf 6.1 keeps the thread,
 * and so does --compat 6.1.
 */
TEST_F(ev, sample_after_its_threads_exit_is_a_new_thread_but_in_6_1)
{
	put_sample(&self->d, &self->a.attr, RT_SEC + 7000);
	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	ASSERT_EQ(0, rt_perfcheck(&self->run, "script", "-i", self->path, NULL, NULL, NULL, NULL));
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_EQ(1, pc_count_substr(self->run.out, " alpha ")) TH_LOG("%s", self->run.out);
	EXPECT_EQ(1, pc_count_substr(self->run.out, " :100 ")) TH_LOG("%s", self->run.out);
	script(_metadata, self, NULL, NULL);
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_EQ(2, pc_count_substr(self->run.out, " alpha ")) TH_LOG("%s", self->run.out);
}

TEST_F(ev, mmap2_shows_prot_device_and_inode)
{
	script(_metadata, self, "--show-mmap-events", NULL);
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_STREQ(MMAP_LINE("1") MMAP_LINE("1") SAMPLE_LINE, self->run.out);
}

TEST_F(ev, switch_events_show_direction_and_next_task)
{
	script(_metadata, self, "--show-switch-events", NULL);
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_STREQ(SAMPLE_LINE
		     "           alpha   100     1.000003: PERF_RECORD_SWITCH OUT preempt\n"
		     "           alpha   100     1.000004: PERF_RECORD_SWITCH_CPU_WIDE IN  "
		     "         prev pid/tid:   200/201  \n", self->run.out);
}

TEST_F(ev, lost_events_show_the_count)
{
	script(_metadata, self, "--show-lost-events", NULL);
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_STREQ(SAMPLE_LINE
		     "           alpha   100     1.000005: PERF_RECORD_LOST lost 3\n",
		     self->run.out);
}

/* perf's session end: the LOST records counted against every record read, on stderr */
TEST_F(ev, lost_records_are_warned_of_after_the_output)
{
	script(_metadata, self, NULL, NULL);
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_STREQ(SAMPLE_LINE, self->run.out);
	EXPECT_STREQ("Warning:\nProcessed 8 events and lost 1 chunks!\n\n"
		     "Check IO/CPU overload!\n\n", self->run.err);
}

/* shown one by one, LOST records are not warned of again */
TEST_F(ev, shown_lost_records_are_not_warned_of)
{
	script(_metadata, self, "--show-lost-events", NULL);
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_STREQ("", self->run.err);
}

/*
 * A sample of a round older than what a flush already delivered (perf
 * flushes, at each FINISHED_ROUND, up to the newest time of the round
 * before): shown where it came, and counted in perf's warning
 */
TEST_F(ev, sample_older_than_a_flushed_round_is_warned_of)
{
	struct perf_event_header round = { PC_RECORD_FINISHED_ROUND, 0, sizeof(round) };

	synth_free(&self->d);
	synth_comm(&self->d, &self->a.attr, 100, 100, "alpha", &(struct pd_sample){
		   .pid = 100, .tid = 100, .time = RT_SEC });
	put_sample(&self->d, &self->a.attr, RT_SEC + 10000);
	synth_put(&self->d, &round, sizeof(round));
	put_sample(&self->d, &self->a.attr, RT_SEC + 20000);
	synth_put(&self->d, &round, sizeof(round));
	put_sample(&self->d, &self->a.attr, RT_SEC + 5000);
	synth_put(&self->d, &round, sizeof(round));
	script(_metadata, self, "-F", "time");
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_STREQ("    1.000010: \n    1.000005: \n    1.000020: \n", self->run.out);
	EXPECT_STREQ("Warning:\n1 out of order events recorded.\n", self->run.err);
}

/*
 * --show-round-events: perf orders nothing then, every record comes where
 * the file has it, the round markers among them, and nothing is out of order
 */
TEST_F(ev, round_events_show_the_records_in_file_order)
{
	struct perf_event_header round = { PC_RECORD_FINISHED_ROUND, 0, sizeof(round) };

	synth_free(&self->d);
	synth_comm(&self->d, &self->a.attr, 100, 100, "alpha", &(struct pd_sample){
		   .pid = 100, .tid = 100, .time = RT_SEC });
	put_sample(&self->d, &self->a.attr, RT_SEC + 10000);
	synth_put(&self->d, &round, sizeof(round));
	put_sample(&self->d, &self->a.attr, RT_SEC + 20000);
	put_sample(&self->d, &self->a.attr, RT_SEC + 5000);
	synth_put(&self->d, &round, sizeof(round));
	script(_metadata, self, "-F", "time");
	EXPECT_STREQ("    1.000005: \n    1.000010: \n    1.000020: \n", self->run.out);
	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	pc_run_free(&self->run);
	ASSERT_EQ(0, rt_perfcheck(&self->run, "script", "--compat=6.1", "-i", self->path,
				  "-F", "time", "--show-round-events"));
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_STREQ("    1.000010: \nPERF_RECORD_FINISHED_ROUND\n    1.000020: \n"
		     "    1.000005: \nPERF_RECORD_FINISHED_ROUND\n", self->run.out);
	EXPECT_STREQ("", self->run.err);
}

/*
 * a FORK naming a thread a COMM made already (the COMM first in the file,
 * out of time order): as perf, the thread goes and the child starts anew
 * from its parent, here one known by its ":TID" alone, so the child's
 * samples are ":100"'s until it names itself again
 */
TEST_F(ev, fork_of_a_known_thread_starts_it_anew_from_its_parent)
{
	synth_free(&self->d);
	synth_comm(&self->d, &self->a.attr, 100, 100, "alpha", &(struct pd_sample){
		   .pid = 100, .tid = 100, .time = RT_SEC + 2000 });
	synth_fork(&self->d, &self->a.attr, PERF_RECORD_FORK, 100, 1, 100, 1, RT_SEC + 1000,
		   &(struct pd_sample){ .pid = 100, .tid = 100, .time = RT_SEC + 1000 });
	put_sample(&self->d, &self->a.attr, RT_SEC + 3000);
	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	ASSERT_EQ(0, rt_perfcheck(&self->run, "script", "-i", self->path, "-F", "comm,tid",
				  "--show-round-events", NULL));
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_STREQ("            :100     100 \n", self->run.out);
	/* in time order the COMM comes after the FORK: the sample is alpha's */
	script(_metadata, self, "-F", "comm,tid");
	EXPECT_STREQ("           alpha   100 \n", self->run.out);
}

TEST_F(ev, mmap_build_id_form_shows_the_id)
{
	struct mmap2_body m = { 100, 100, 0x500000, 0x1000, 0, 0, 0, 0, 0,
				PROT_READ | PROT_EXEC, MAP_SHARED, "/bin/beta" };
	uint8_t id[24] = { 4, 0, 0, 0, 0xde, 0xad, 0xbe, 0xef };

	memcpy(&m.maj, id, sizeof(id));
	synth_free(&self->d);
	put_record(&self->d, &self->a.attr, PERF_RECORD_MMAP2,
		   PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_BUILD_ID, &m, sizeof(m), RT_SEC);
	script(_metadata, self, "--show-mmap-events", NULL);
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_STREQ("            :100   100     1.000000: PERF_RECORD_MMAP2 100/100: "
		     "[0x500000(0x1000) @ 0 <deadbeef>]: r-xs /bin/beta\n", self->run.out);
}

/* a SWITCH_CPU_WIDE without its next/prev pid/tid: the offset and what is missing */
TEST_F(ev, short_record_is_refused_with_its_offset)
{
	char want[64];
	size_t off;

	synth_free(&self->d);
	put_sample(&self->d, &self->a.attr, RT_SEC);
	off = self->d.len;
	put_record(&self->d, &self->a.attr, PERF_RECORD_SWITCH_CPU_WIDE, 0, NULL, 0, RT_SEC + 1);
	script(_metadata, self, "--show-switch-events", NULL);
	EXPECT_EQ(2, self->run.exit_code);
	snprintf(want, sizeof(want), ": offset 0x%zx: SWITCH_CPU_WIDE record", off + 0);
	/* the data section starts after the header and attrs: match the tail only */
	EXPECT_NE(NULL, strstr(self->run.err, "SWITCH_CPU_WIDE record of 8 bytes"))
		TH_LOG("%s", self->run.err);
	EXPECT_NE(NULL, strstr(self->run.err, "is too short for its fields (16 bytes)"));
	EXPECT_NE(NULL, strstr(self->run.err, ": offset 0x"));
}

/* a filename without its NUL inside the record */
TEST_F(ev, unterminated_filename_is_refused)
{
	struct mmap2_body m = { 100, 100, 0x400000, 0x1000, 0, 0, 0, 0, 0, PROT_READ,
				MAP_PRIVATE, "" };

	memset(m.filename, 'x', sizeof(m.filename));
	synth_free(&self->d);
	put_record(&self->d, &self->a.attr, PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER, &m,
		   sizeof(m), RT_SEC);
	script(_metadata, self, "--show-mmap-events", NULL);
	EXPECT_EQ(2, self->run.exit_code);
	EXPECT_NE(NULL, strstr(self->run.err, "not NUL-terminated")) TH_LOG("%s", self->run.err);
}

/* NAMESPACES: pid/tid, the count, then dev/inode pairs named, four to a line (perf 6.1's) */
TEST_F(ev, namespace_events_show_their_links_four_to_a_line)
{
	uint64_t ns[1 + 1 + 10] = { 100 | (uint64_t)100 << 32, 5, 4, 0xf1, 4, 0xf2, 4, 0xf3,
				    4, 0xf4, 4, 0xf5 };

	put_record(&self->d, &self->a.attr, PERF_RECORD_NAMESPACES, 0, ns, sizeof(ns),
		   RT_SEC + 2500);
	script(_metadata, self, "--show-namespace-events", NULL);
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_STREQ(SAMPLE_LINE
		     "           alpha   100     1.000002: PERF_RECORD_NAMESPACES 100/100 - "
		     "nr_namespaces: 5\n\t\t[0/net: 4/0xf1, 1/uts: 4/0xf2, 2/ipc: 4/0xf3, "
		     "3/pid: 4/0xf4, \n\t\t 4/user: 4/0xf5]\n", self->run.out);
}

TEST_F(ev, cgroup_events_show_id_and_path)
{
	struct {
		uint64_t id;
		char path[16];
	} cg = { 7, "/user.slice" };

	put_record(&self->d, &self->a.attr, PERF_RECORD_CGROUP, 0, &cg, sizeof(cg), RT_SEC + 2500);
	script(_metadata, self, "--show-cgroup-events", NULL);
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_STREQ(SAMPLE_LINE
		     "           alpha   100     1.000002: PERF_RECORD_CGROUP cgroup: 7 /user.slice\n",
		     self->run.out);
}

TEST_F(ev, namespaces_counting_past_the_record_are_refused)
{
	uint64_t ns[1 + 1 + 2] = { 100 | (uint64_t)100 << 32, 9, 4, 0xf1 };

	put_record(&self->d, &self->a.attr, PERF_RECORD_NAMESPACES, 0, ns, sizeof(ns),
		   RT_SEC + 2500);
	script(_metadata, self, "--show-namespace-events", NULL);
	EXPECT_EQ(2, self->run.exit_code);
	EXPECT_NE(NULL, strstr(self->run.err, "NAMESPACES record of 40 bytes (sample_id excluded) "
					      "is too short for its fields (168 bytes)"))
		TH_LOG("%s", self->run.err);
}

/* u64 addr, u16 old_len, u16 new_len, the bytes, padded to 8 */
struct text_poke_body {
	uint64_t addr;
	uint16_t old_len, new_len;
	uint8_t bytes[28];
};

/*
 * --show-text-poke-events: the address (its symbol where a map holds it:
 * none here, so perf's two spaces), the lengths, then the old and the new
 * bytes sixteen to a line (perf's layout, seen on record --kcore files)
 */
TEST_F(ev, text_poke_events_show_old_and_new_bytes_sixteen_to_a_line)
{
	struct text_poke_body tp = { 0xffff888000001010ULL, 2, 18, { 0x66, 0x90 } };

	for (int i = 0; i < 18; i++)
		tp.bytes[2 + i] = (uint8_t)i;
	put_record(&self->d, &self->a.attr, PC_RECORD_TEXT_POKE, PERF_RECORD_MISC_KERNEL, &tp,
		   sizeof(tp), RT_SEC + 2500);
	script(_metadata, self, "--show-text-poke-events", NULL);
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_STREQ(SAMPLE_LINE
		     "           alpha   100     1.000002: PERF_RECORD_TEXT_POKE ffff888000001010  "
		     "old len 2 new len 18\n"
		     "            Old bytes: 66 90\n"
		     "            New bytes: 00 01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f\n"
		     "            New bytes: 10 11\n",
		     self->run.out);
}

TEST_F(ev, text_poke_lengths_past_the_record_are_refused)
{
	struct text_poke_body tp = { 0xffff888000001010ULL, 200, 18, { 0 } };

	put_record(&self->d, &self->a.attr, PC_RECORD_TEXT_POKE, PERF_RECORD_MISC_KERNEL, &tp,
		   sizeof(tp), RT_SEC + 2500);
	script(_metadata, self, "--show-text-poke-events", NULL);
	EXPECT_EQ(2, self->run.exit_code);
	EXPECT_NE(NULL, strstr(self->run.err, "TEXT_POKE record of 48 bytes (sample_id excluded) "
					      "is too short for its fields (238 bytes)"))
		TH_LOG("%s", self->run.err);
}

TEST_HARNESS_MAIN
