// SPDX-License-Identifier: GPL-2.0
/*
 * reader/callgraph.c and cg_siblings.c: a chain finds a node's child as
 * perf's search of its children's tree does (match_chain), and perf 6.5's
 * merge of chains leaves their frames as bare addresses.
 *
 * perf orders a node's children by object, then symbol start for two
 * resolved frames, but by object, then address where an unresolved frame
 * is one of the two (the resolved child's first address).  Where both
 * kinds are children of one node that is not an order: a search can pass
 * its equal child by, and perf adds another child of the same symbol,
 * printed as a branch of its own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "reader/callgraph.h"
#include "reader/machine.h"
#include "symbols/symbols.h"

static const char object[] = "/lib/obj.so";
static const struct pc_symbol func = { .start = 0x100, .end = 0x200, .name = "func",
				       .name_len = 4 };

/* func resolved, or an unresolved address, in object */
static uint32_t frame_of(struct __test_metadata *_metadata, struct cg_forest *f, bool resolved,
			 uint64_t ip)
{
	char name[24];
	struct cg_frame_key k = { .sym = resolved ? &func : NULL, .dso = object,
				  .dso_rank = RD_RANK_DSO, .ip = ip, .name = name };
	int64_t i;

	k.name_len = resolved ? (size_t)snprintf(name, sizeof(name), "func") :
				(size_t)snprintf(name, sizeof(name), "%#llx", (unsigned long long)ip);
	i = cg_frame(f, &k);
	EXPECT_LE(0, i);
	return (uint32_t)i;
}

/* One chain of one frame at ip under root. */
static void add(struct __test_metadata *_metadata, struct cg_forest *f, uint32_t root,
		bool resolved, uint64_t ip)
{
	uint32_t frame = frame_of(_metadata, f, resolved, ip), last;

	ASSERT_EQ(0, cg_tree_add(f, root, &frame, &ip, 1, 1, &last));
}

/* The graph of root printed into out (its chains: 3 samples of period 1 at most). */
static void print(struct __test_metadata *_metadata, struct cg_forest *f, uint32_t root,
		  char *out, size_t size)
{
	struct cg_params p = { .mode = CG_GRAPH, .order = CG_CALLEE, .min_percent = 0 };
	struct rd_out o;
	FILE *tmp = tmpfile();
	size_t n;

	ASSERT_NE(NULL, tmp);
	ASSERT_EQ(0, cg_forest_finish(f));
	ASSERT_EQ(0, rd_out_init(&o, fileno(tmp)));
	cg_print(&o, f, root, &p, 3, 3);
	ASSERT_EQ(0, rd_out_flush(&o));
	rd_out_free(&o);
	rewind(tmp);
	n = fread(out, 1, size - 1, tmp);
	out[n] = '\0';
	fclose(tmp);
}

static int count(const char *out, const char *what)
{
	int n = 0;

	for (const char *p = out; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/*
 * Children: 0x150 (unresolved), then func first sampled at 0x180 (left of
 * 0x150 in perf's tree: 0x150 is before 0x180).  func at 0x120 compares
 * with 0x150 only, goes right, finds nothing there: a second func branch.
 */
TEST(a_search_that_passes_its_equal_by_makes_a_twin_branch)
{
	struct cg_forest f = { 0 };
	uint32_t root = cg_tree_new(&f);
	char out[4096];

	ASSERT_NE(0, root);
	add(_metadata, &f, root, false, 0x150);
	add(_metadata, &f, root, true, 0x180);
	add(_metadata, &f, root, true, 0x120);
	print(_metadata, &f, root, out, sizeof(out));
	EXPECT_EQ(2, count(out, "--func")) TH_LOG("%s", out);
	EXPECT_EQ(1, count(out, "--0x150")) TH_LOG("%s", out);
	cg_forest_free(&f);
}

/*
 * The same three branches of equal shares come out in perf's walk of the
 * children's tree (func at 0x180 left of 0x150, its twin right of it), as
 * its output sort leaves equal shares: no order of the frames gives that.
 */
TEST(equal_branches_of_two_kinds_come_in_perfs_tree_walk)
{
	struct cg_forest f = { 0 };
	uint32_t root = cg_tree_new(&f);
	char out[4096];
	const char *first, *mid, *last;

	ASSERT_NE(0, root);
	add(_metadata, &f, root, false, 0x150);
	add(_metadata, &f, root, true, 0x180);
	add(_metadata, &f, root, true, 0x120);
	print(_metadata, &f, root, out, sizeof(out));
	first = strstr(out, "--func");
	mid = strstr(out, "--0x150");
	ASSERT_NE(NULL, first) TH_LOG("%s", out);
	ASSERT_NE(NULL, mid) TH_LOG("%s", out);
	last = strstr(mid, "--func");
	EXPECT_TRUE(first < mid) TH_LOG("%s", out);
	EXPECT_NE(NULL, last) TH_LOG("%s", out);
	cg_forest_free(&f);
}

/* The same, func at 0x160: after 0x150, perf's search goes left and finds func. */
TEST(a_search_the_order_leads_to_its_equal_adds_to_it)
{
	struct cg_forest f = { 0 };
	uint32_t root = cg_tree_new(&f);
	char out[4096];

	ASSERT_NE(0, root);
	add(_metadata, &f, root, false, 0x150);
	add(_metadata, &f, root, true, 0x180);
	add(_metadata, &f, root, true, 0x160);
	print(_metadata, &f, root, out, sizeof(out));
	EXPECT_EQ(1, count(out, "--func")) TH_LOG("%s", out);
	EXPECT_EQ(1, count(out, "66.67%--func")) TH_LOG("%s", out);
	cg_forest_free(&f);
}

/*
 * A chain found before is found again without a descent, but where perf
 * searches, only with the same addresses: func at 0x160 finds its branch,
 * func at 0x120 afterwards passes it by as in the first case.
 */
TEST(a_chain_met_again_at_another_address_is_searched_again)
{
	struct cg_forest f = { 0 };
	uint32_t root = cg_tree_new(&f);
	char out[4096];

	ASSERT_NE(0, root);
	add(_metadata, &f, root, false, 0x150);
	add(_metadata, &f, root, true, 0x180);
	add(_metadata, &f, root, true, 0x160);
	add(_metadata, &f, root, true, 0x120);
	print(_metadata, &f, root, out, sizeof(out));
	EXPECT_EQ(2, count(out, "--func")) TH_LOG("%s", out);
	cg_forest_free(&f);
}

/*
 * ... and only while the tree is as it was: 0x170 comes between 0x150 and
 * func (first at 0x180) and becomes the root of perf's tree; func at 0x160,
 * which found its branch through 0x150 before, now turns away at 0x170
 * and makes a twin.
 */
TEST(a_chain_met_again_after_its_tree_changed_is_searched_again)
{
	struct cg_forest f = { 0 };
	uint32_t root = cg_tree_new(&f);
	char out[4096];

	ASSERT_NE(0, root);
	add(_metadata, &f, root, false, 0x150);
	add(_metadata, &f, root, true, 0x180);
	add(_metadata, &f, root, true, 0x160);
	add(_metadata, &f, root, false, 0x170);
	add(_metadata, &f, root, true, 0x160);
	print(_metadata, &f, root, out, sizeof(out));
	EXPECT_EQ(2, count(out, "--func")) TH_LOG("%s", out);
	cg_forest_free(&f);
}

/* Resolved frames alone are in order: every func chain finds the one branch. */
TEST(resolved_frames_alone_never_make_twins)
{
	struct cg_forest f = { 0 };
	uint32_t root = cg_tree_new(&f);
	char out[4096];

	ASSERT_NE(0, root);
	add(_metadata, &f, root, true, 0x180);
	add(_metadata, &f, root, true, 0x120);
	add(_metadata, &f, root, true, 0x1f0);
	print(_metadata, &f, root, out, sizeof(out));
	EXPECT_EQ(1, count(out, "func")) TH_LOG("%s", out);
	cg_forest_free(&f);
}

/* perf 6.5+ merges a collapsed row's chains without their symbols: the frames show as addresses. */
TEST(a_bare_merge_shows_each_merged_frame_as_its_first_address)
{
	struct cg_forest f = { 0 };
	uint32_t dst = cg_tree_new(&f), src = cg_tree_new(&f);
	char out[4096];

	ASSERT_NE(0, dst);
	ASSERT_NE(0, src);
	add(_metadata, &f, dst, true, 0x180);
	add(_metadata, &f, src, true, 0x1a0);
	add(_metadata, &f, src, true, 0x1c0);
	ASSERT_EQ(0, cg_tree_merge(&f, dst, src, true));
	print(_metadata, &f, dst, out, sizeof(out));
	EXPECT_EQ(1, count(out, "--func")) TH_LOG("%s", out);
	/* src's node: the address of the first chain that made it, both its samples */
	EXPECT_EQ(1, count(out, "66.67%--0x1a0")) TH_LOG("%s", out);
	EXPECT_EQ(0, count(out, "0x1c0")) TH_LOG("%s", out);
	cg_forest_free(&f);
}

/* perf 6.1 kept the symbols: merged chains add to the branches of their symbols. */
TEST(a_merge_with_symbols_adds_to_the_same_symbols_branch)
{
	struct cg_forest f = { 0 };
	uint32_t dst = cg_tree_new(&f), src = cg_tree_new(&f);
	char out[4096];

	ASSERT_NE(0, dst);
	ASSERT_NE(0, src);
	add(_metadata, &f, dst, true, 0x180);
	add(_metadata, &f, src, true, 0x1a0);
	ASSERT_EQ(0, cg_tree_merge(&f, dst, src, false));
	print(_metadata, &f, dst, out, sizeof(out));
	EXPECT_EQ(1, count(out, "func")) TH_LOG("%s", out);
	EXPECT_EQ(0, count(out, "0x1a0")) TH_LOG("%s", out);
	cg_forest_free(&f);
}

TEST_HARNESS_MAIN
