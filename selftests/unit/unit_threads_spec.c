// SPDX-License-Identifier: GPL-2.0
/*
 * record --threads[=SPEC] without a kernel: every SPEC form parses to what
 * it says (cpu with no value, core, package, numa, the user's
 * MAPS/AFFINITY masks), a bad SPEC is refused naming itself, and the
 * layout gives every ring to exactly one reading thread (the machine's
 * topology replaced by a table).
 */
#include <string.h>

#include "kselftest_harness.h"
#include "recorder/threads_layout.h"
#include "recorder/threads_spec.h"

static bool set_is(const cpu_set_t *set, const int *cpus, int n)
{
	cpu_set_t want;

	CPU_ZERO(&want);
	for (int i = 0; i < n; i++)
		CPU_SET(cpus[i], &want);
	return CPU_EQUAL(set, &want);
}

TEST(no_value_is_one_thread_per_cpu)
{
	struct rec_threads_spec s;
	struct pc_error err = { 0 };

	ASSERT_EQ(0, rec_threads_spec_parse(NULL, &s, &err));
	EXPECT_EQ(REC_THREADS_CPU, s.kind);
	ASSERT_EQ(0, rec_threads_spec_parse("", &s, &err));
	EXPECT_EQ(REC_THREADS_CPU, s.kind);
	EXPECT_EQ(0, s.nr_masks);
}

TEST(keywords_cpu_core_package_numa_parse_in_any_case)
{
	static const struct { const char *text; enum rec_threads_kind kind; } forms[] = {
		{ "cpu", REC_THREADS_CPU }, { "core", REC_THREADS_CORE },
		{ "package", REC_THREADS_PACKAGE }, { "numa", REC_THREADS_NUMA },
		{ "CORE", REC_THREADS_CORE }, { "Numa", REC_THREADS_NUMA },
	};
	struct pc_error err = { 0 };

	for (size_t i = 0; i < sizeof(forms) / sizeof(forms[0]); i++) {
		struct rec_threads_spec s;

		ASSERT_EQ(0, rec_threads_spec_parse(forms[i].text, &s, &err)) TH_LOG("%s: %s",
										   forms[i].text,
										   err.msg);
		EXPECT_EQ(forms[i].kind, s.kind) TH_LOG("%s", forms[i].text);
		EXPECT_STREQ(forms[i].text, s.text);
	}
}

TEST(user_masks_give_one_thread_per_maps_affinity_pair)
{
	static const int m0[] = { 0, 1 }, m1[] = { 2, 3 }, a1[] = { 3 }, m2[] = { 4, 6, 7, 8 };
	struct rec_threads_spec s;
	struct pc_error err = { 0 };

	ASSERT_EQ(0, rec_threads_spec_parse("0-1/0-1:2-3/3:4,6-8/4", &s, &err)) TH_LOG("%s",
										       err.msg);
	EXPECT_EQ(REC_THREADS_USER, s.kind);
	ASSERT_EQ(3, s.nr_masks);
	EXPECT_TRUE(set_is(&s.masks[0].maps, m0, 2));
	EXPECT_TRUE(set_is(&s.masks[0].affinity, m0, 2));
	EXPECT_TRUE(set_is(&s.masks[1].maps, m1, 2));
	EXPECT_TRUE(set_is(&s.masks[1].affinity, a1, 1));
	EXPECT_TRUE(set_is(&s.masks[2].maps, m2, 4));
	rec_threads_spec_free(&s);
}

TEST(bad_specs_are_refused_naming_the_spec)
{
	static const char *const bad[] = {
		"bogus",		/* no keyword, no mask */
		"0-1",			/* a mask without its affinity */
		"0/0/0",		/* three masks */
		"0/0::1/1",		/* an empty thread */
		"1-0/1",		/* a backwards range */
		"a/0",			/* not a number */
		"0,/0",			/* a trailing comma */
		"0/0:0/1",		/* maps shared by two threads */
		"0/0:1/0",		/* affinity shared by two threads */
		"0/",			/* an empty affinity */
	};
	struct pc_error err = { 0 };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct rec_threads_spec s;
		char want[64];

		err.msg[0] = '\0';
		EXPECT_EQ(-EINVAL, rec_threads_spec_parse(bad[i], &s, &err)) TH_LOG("%s", bad[i]);
		snprintf(want, sizeof(want), "--threads=%s:", bad[i]);
		EXPECT_NE(NULL, strstr(err.msg, want)) TH_LOG("%s", err.msg);
		EXPECT_EQ(NULL, s.masks);
	}
}

/* cpus 0,1 are one core, 2,3 another; 0-3 one package, 4-5 another; node = cpu / 4 */
static int table_group(int cpu, enum rec_threads_kind kind, void *ctx)
{
	(void)ctx;
	if (kind == REC_THREADS_CORE)
		return cpu / 2;
	if (kind == REC_THREADS_PACKAGE || kind == REC_THREADS_NUMA)
		return cpu / 4;
	return cpu;
}

static const int ring_cpus[] = { 0, 1, 2, 3, 4, 5 };

static void layout_of(struct __test_metadata *_metadata, const char *text,
		      struct rec_threads_layout *l)
{
	struct rec_threads_spec s;
	struct pc_error err = { 0 };

	ASSERT_EQ(0, rec_threads_spec_parse(text, &s, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, rec_threads_layout(&s, text, ring_cpus, 6, table_group, NULL, l, &err))
		TH_LOG("%s", err.msg);
	rec_threads_spec_free(&s);
}

TEST(cpu_layout_reads_each_ring_in_a_thread_of_its_own)
{
	struct rec_threads_layout l;

	layout_of(_metadata, "cpu", &l);
	ASSERT_EQ(6, l.nr_threads);
	for (int i = 0; i < 6; i++) {
		EXPECT_EQ(i, l.ring_thread[i]);
		EXPECT_TRUE(set_is(&l.affinity[i], &ring_cpus[i], 1));
	}
	rec_threads_layout_free(&l);
}

TEST(core_and_package_layouts_share_a_thread_per_group)
{
	struct rec_threads_layout l;
	static const int core1[] = { 2, 3 }, pkg1[] = { 4, 5 };

	layout_of(_metadata, "core", &l);
	ASSERT_EQ(3, l.nr_threads);
	EXPECT_EQ(l.ring_thread[0], l.ring_thread[1]);
	EXPECT_EQ(l.ring_thread[2], l.ring_thread[3]);
	EXPECT_NE(l.ring_thread[1], l.ring_thread[2]);
	EXPECT_TRUE(set_is(&l.affinity[l.ring_thread[2]], core1, 2));
	rec_threads_layout_free(&l);

	layout_of(_metadata, "package", &l);
	ASSERT_EQ(2, l.nr_threads);
	EXPECT_EQ(l.ring_thread[0], l.ring_thread[3]);
	EXPECT_NE(l.ring_thread[3], l.ring_thread[4]);
	EXPECT_TRUE(set_is(&l.affinity[l.ring_thread[5]], pkg1, 2));
	rec_threads_layout_free(&l);
}

TEST(user_layout_follows_the_maps_masks)
{
	struct rec_threads_layout l;
	static const int a0[] = { 5 };

	layout_of(_metadata, "0-2,4/5:3,5/0-1", &l);
	ASSERT_EQ(2, l.nr_threads);
	EXPECT_EQ(0, l.ring_thread[0]);
	EXPECT_EQ(0, l.ring_thread[2]);
	EXPECT_EQ(0, l.ring_thread[4]);
	EXPECT_EQ(1, l.ring_thread[3]);
	EXPECT_EQ(1, l.ring_thread[5]);
	EXPECT_TRUE(set_is(&l.affinity[0], a0, 1));
	rec_threads_layout_free(&l);
}

TEST(user_layout_refuses_a_ring_no_thread_reads)
{
	struct rec_threads_spec s;
	struct rec_threads_layout l;
	struct pc_error err = { 0 };

	ASSERT_EQ(0, rec_threads_spec_parse("0-4/0-4", &s, &err));
	EXPECT_EQ(-EINVAL, rec_threads_layout(&s, "0-4/0-4", ring_cpus, 6, table_group, NULL,
					      &l, &err));
	EXPECT_NE(NULL, strstr(err.msg, "cpu 5")) TH_LOG("%s", err.msg);
	rec_threads_spec_free(&s);
}

TEST(user_layout_refuses_a_mask_without_a_recording_cpu)
{
	struct rec_threads_spec s;
	struct rec_threads_layout l;
	struct pc_error err = { 0 };

	ASSERT_EQ(0, rec_threads_spec_parse("0-5/0-5:9/9", &s, &err));
	EXPECT_EQ(-EINVAL, rec_threads_layout(&s, "0-5/0-5:9/9", ring_cpus, 6, table_group,
					      NULL, &l, &err));
	EXPECT_NE(NULL, strstr(err.msg, "--threads=0-5/0-5:9/9")) TH_LOG("%s", err.msg);
	rec_threads_spec_free(&s);
}

TEST_HARNESS_MAIN
