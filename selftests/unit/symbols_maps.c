// SPDX-License-Identifier: GPL-2.0
/*
 * The address-space model (lib/symbols/maps.c) and the build-id reader
 * (lib/symbols/buildid.c), without a kernel: a new map cuts what it
 * overlaps as an mmap does, lookups find the newest, a fork copies, pids
 * are found after the table grows; a notes blob gives its GNU build id and
 * a truncated one gives none.
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "symbols/buildid.h"
#include "symbols/maps.h"

static struct pc_map map(uint64_t start, uint64_t end, uintptr_t obj)
{
	return (struct pc_map){ .start = start, .end = end, .obj = obj };
}

TEST(a_new_map_cuts_the_middle_of_an_older_one)
{
	struct pc_maps m = { 0 };
	const struct pc_map *f;
	struct pc_map a = map(0x1000, 0x5000, 1), b = map(0x2000, 0x3000, 2);

	ASSERT_EQ(0, pc_maps_insert(&m, &a));
	ASSERT_EQ(0, pc_maps_insert(&m, &b));
	ASSERT_EQ(3, m.nr);
	f = pc_maps_find(&m, 0x1fff);
	ASSERT_NE(NULL, f);
	EXPECT_EQ(1, f->obj);
	EXPECT_EQ(2, pc_maps_find(&m, 0x2000)->obj);
	f = pc_maps_find(&m, 0x3000);
	ASSERT_NE(NULL, f);
	EXPECT_EQ(1, f->obj);
	EXPECT_EQ(0x2000, f->pgoff) TH_LOG("the tail keeps its file offset");
	EXPECT_EQ(NULL, pc_maps_find(&m, 0x5000));
	EXPECT_EQ(NULL, pc_maps_find(&m, 0xfff));
	pc_maps_free(&m);
}

TEST(a_new_map_replaces_the_maps_it_covers)
{
	struct pc_maps m = { 0 };
	struct pc_map a = map(0x1000, 0x2000, 1), b = map(0x2000, 0x3000, 2),
		      c = map(0x800, 0x3800, 3);

	ASSERT_EQ(0, pc_maps_insert(&m, &a));
	ASSERT_EQ(0, pc_maps_insert(&m, &b));
	ASSERT_EQ(0, pc_maps_insert(&m, &c));
	ASSERT_EQ(1, m.nr);
	EXPECT_EQ(3, pc_maps_find(&m, 0x2500)->obj);
	pc_maps_free(&m);
}

TEST(a_fork_copies_the_maps_and_pids_survive_growth)
{
	struct pc_aspaces a = { 0 };
	struct pc_aspace *p, *c;
	struct pc_map x = map(0x400000, 0x401000, 7);

	p = pc_aspaces_get(&a, 100);
	ASSERT_NE(NULL, p);
	ASSERT_EQ(0, pc_maps_insert(&p->maps, &x));
	for (uint32_t pid = 1000; pid < 1300; pid++)
		ASSERT_NE(NULL, pc_aspaces_get(&a, pid));
	EXPECT_EQ(p, pc_aspaces_find(&a, 100)) TH_LOG("a process moved when the table grew");
	c = pc_aspaces_get(&a, 101);
	ASSERT_NE(NULL, c);
	ASSERT_EQ(0, pc_maps_copy(&c->maps, &p->maps));
	EXPECT_EQ(7, pc_maps_find(&c->maps, 0x400800)->obj);
	EXPECT_EQ(NULL, pc_aspaces_find(&a, 99));
	EXPECT_EQ(302, a.nr);
	pc_aspaces_free(&a);
}

/* the reader's unwinder caches per address space while maps.gen is unchanged */
TEST(maps_gen_changes_with_every_insert_and_copy_and_not_with_a_find)
{
	struct pc_maps m = { 0 }, child = { 0 };
	struct pc_map a = map(0x1000, 0x2000, 1), empty = map(0x3000, 0x3000, 2);
	uint64_t gen;

	ASSERT_EQ(0, pc_maps_insert(&m, &a));
	gen = m.gen;
	EXPECT_NE(0, gen);
	EXPECT_NE(NULL, pc_maps_find(&m, 0x1800));
	EXPECT_EQ(gen, m.gen);
	ASSERT_EQ(0, pc_maps_insert(&m, &empty));	/* no range: nothing changes */
	EXPECT_EQ(gen, m.gen);
	ASSERT_EQ(0, pc_maps_insert(&m, &a));		/* the same range again is a change */
	EXPECT_NE(gen, m.gen);
	gen = child.gen;
	ASSERT_EQ(0, pc_maps_copy(&child, &m));
	EXPECT_NE(gen, child.gen);
	EXPECT_EQ(1, pc_maps_find(&child, 0x1000)->obj);
	pc_maps_free(&m);
	pc_maps_free(&child);
}

TEST(a_notes_blob_gives_its_build_id_and_a_truncated_one_none)
{
	uint8_t blob[64] = { 0 }, id[PC_BUILD_ID_MAX];
	uint32_t hdr[3] = { 4, 20, 3 };
	size_t n = 0;
	char hex[41];

	memcpy(blob, hdr, 12);
	memcpy(blob + 12, "GNU", 4);
	for (int i = 0; i < 20; i++)
		blob[16 + i] = (uint8_t)(0xa0 + i);
	ASSERT_EQ(0, pc_build_id_notes(blob, 36, id, &n));
	ASSERT_EQ(20, n);
	pc_build_id_hex(id, n, hex);
	EXPECT_STREQ("a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3", hex);
	EXPECT_NE(0, pc_build_id_notes(blob, 30, id, &n));
}

TEST(a_file_that_is_not_elf_or_is_missing_has_no_build_id)
{
	uint8_t id[PC_BUILD_ID_MAX];
	size_t n = 0;

	EXPECT_NE(0, pc_build_id_path("/proc/self/status", id, &n));
	EXPECT_NE(0, pc_build_id_path("/nonexistent/pc-no-such-file", id, &n));
}

TEST_HARNESS_MAIN
