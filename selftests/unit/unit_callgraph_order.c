// SPDX-License-Identifier: GPL-2.0
/*
 * reader/callgraph.c: branches of equal share come out in perf 6.1's
 * order, the higher object first (the rank machine.h gives each object:
 * the order perf made its records of them), then the higher symbol start
 * or, beside an unresolved frame, the higher address sampled.  The
 * object's rank decides, never where its name happens to lie in memory:
 * under AddressSanitizer's allocator names met later can lie lower, and
 * the order of a report must not depend on the build.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "reader/callgraph.h"
#include "reader/machine.h"
#include "symbols/symbols.h"

/* Names of two objects: the first lies lower in memory than the second. */
static const char names[2][8] = { "/lo", "/hi" };

/*
 * A root with two branches of one sample each (equal shares), frames
 * unresolved at ip in objects a and b; the fractal graph printed, in out.
 */
static void print_two(struct __test_metadata *_metadata, const struct cg_frame_key *a,
		      const struct cg_frame_key *b, char *out, size_t size)
{
	struct cg_params p = { .mode = CG_FRACTAL, .order = CG_CALLEE, .min_percent = 0 };
	struct cg_forest f = { 0 };
	uint32_t root, last = 0, chain[1];
	struct rd_out o;
	FILE *tmp = tmpfile();
	size_t n;

	ASSERT_NE(NULL, tmp);
	root = cg_tree_new(&f);
	ASSERT_NE(0, root);
	chain[0] = (uint32_t)cg_frame(&f, a);
	ASSERT_EQ(0, cg_tree_add(&f, root, chain, NULL, 1, 1, &last));
	chain[0] = (uint32_t)cg_frame(&f, b);
	ASSERT_EQ(0, cg_tree_add(&f, root, chain, NULL, 1, 1, &last));
	cg_forest_finish(&f);
	ASSERT_EQ(0, rd_out_init(&o, fileno(tmp)));
	cg_print(&o, &f, root, &p, 2, 2);
	ASSERT_EQ(0, rd_out_flush(&o));
	rd_out_free(&o);
	cg_forest_free(&f);
	rewind(tmp);
	n = fread(out, 1, size - 1, tmp);
	out[n] = '\0';
	fclose(tmp);
}

static const char *first_of(const char *out, const char *x, const char *y)
{
	const char *px = strstr(out, x), *py = strstr(out, y);

	if (!px || !py)
		return NULL;
	return px < py ? x : y;
}

/* the object made later ranks higher, though its name lies lower: it comes first */
TEST(equal_shares_come_in_object_rank_order_not_name_address)
{
	struct cg_frame_key a = { .dso = names[0], .dso_rank = RD_RANK_DSO + 1, .ip = 0x1000,
				  .name = "0x1000", .name_len = 6 };
	struct cg_frame_key b = { .dso = names[1], .dso_rank = RD_RANK_DSO + 0, .ip = 0x2000,
				  .name = "0x2000", .name_len = 6 };
	char out[4096];

	ASSERT_LT((const void *)names[0], (const void *)names[1]);
	print_two(_metadata, &a, &b, out, sizeof(out));
	EXPECT_STREQ("0x1000", first_of(out, "0x1000", "0x2000")) TH_LOG("%s", out);
	/* the same, added the other way round */
	print_two(_metadata, &b, &a, out, sizeof(out));
	EXPECT_STREQ("0x1000", first_of(out, "0x1000", "0x2000")) TH_LOG("%s", out);
}

/* within one object, the higher address first */
TEST(equal_shares_in_one_object_come_higher_address_first)
{
	struct cg_frame_key a = { .dso = names[0], .dso_rank = RD_RANK_DSO, .ip = 0x1000,
				  .name = "0x1000", .name_len = 6 };
	struct cg_frame_key b = { .dso = names[0], .dso_rank = RD_RANK_DSO, .ip = 0x2000,
				  .name = "0x2000", .name_len = 6 };
	char out[4096];

	print_two(_metadata, &a, &b, out, sizeof(out));
	EXPECT_STREQ("0x2000", first_of(out, "0x1000", "0x2000")) TH_LOG("%s", out);
}

/*
 * A symbol beside an unresolved address of the same object: perf 6.1
 * compares the addresses sampled (the symbol's start is in the object's
 * space, 0x500 here, far below any address in the process).  A sample in
 * libselinux's lgetfilecon_raw and one at an address of libselinux without
 * a symbol came out the other way round under SAN=1 (interop_report fractal).
 */
TEST(a_symbol_beside_an_unresolved_address_is_ordered_by_the_address_sampled)
{
	static const struct pc_symbol sym = { .start = 0x500, .end = 0x600, .name = "func",
					      .name_len = 4 };
	struct cg_frame_key s = { .sym = &sym, .dso = names[0], .dso_rank = RD_RANK_DSO,
				  .ip = 0x7f0000001520ULL, .name = "func", .name_len = 4 };
	struct cg_frame_key u = { .dso = names[0], .dso_rank = RD_RANK_DSO,
				  .ip = 0x7f0000000e70ULL, .name = "0x7f0000000e70",
				  .name_len = 14 };
	char out[4096];

	print_two(_metadata, &s, &u, out, sizeof(out));
	EXPECT_STREQ("func", first_of(out, "func", "0x7f0000000e70")) TH_LOG("%s", out);
	print_two(_metadata, &u, &s, out, sizeof(out));
	EXPECT_STREQ("func", first_of(out, "func", "0x7f0000000e70")) TH_LOG("%s", out);
}

/* the kernel below every file's object, no object below the kernel */
TEST(kernel_ranks_below_files_and_no_object_below_the_kernel)
{
	struct cg_frame_key k = { .dso = "[kernel.kallsyms]", .dso_rank = RD_RANK_KERNEL,
				  .ip = 0xffffffff81000000ULL, .name = "kfunc", .name_len = 5 };
	struct cg_frame_key u = { .dso = names[1], .dso_rank = RD_RANK_DSO, .ip = 0x1000,
				  .name = "ufunc", .name_len = 5 };
	struct cg_frame_key none = { .dso = NULL, .dso_rank = RD_RANK_NONE, .ip = 0x3000,
				     .name = "nofunc", .name_len = 6 };
	char out[4096];

	print_two(_metadata, &k, &u, out, sizeof(out));
	EXPECT_STREQ("ufunc", first_of(out, "kfunc", "ufunc")) TH_LOG("%s", out);
	print_two(_metadata, &none, &k, out, sizeof(out));
	EXPECT_STREQ("kfunc", first_of(out, "kfunc", "nofunc")) TH_LOG("%s", out);
}

TEST_HARNESS_MAIN
