// SPDX-License-Identifier: GPL-2.0
/*
 * perf's symbol tree rebuilt (lib/symbols/rbshape.c, symtab.c), without a
 * kernel: red-black insertion and deletion keep the tree ordered and
 * balanced whatever the operations; a PLT added after the zero-sized _init
 * was stretched over it is found as perf 6.1 finds it on the binary these
 * symbols come from (_init, as interop_symbol_tree checks against perf on
 * a fresh build); a JIT map's entries stay as written.
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "symbols/rbshape.h"
#include "symbols/symbols.h"

#define NODES 1000

/* black height of the subtree at i, or -1 when a rule is broken */
static int check(const struct pc_rbtree *t, const uint64_t *key, int32_t i, uint64_t lo,
		 uint64_t hi)
{
	int l, r;

	if (i < 0)
		return 1;
	if (key[i] < lo || key[i] > hi)
		return -1;
	if (t->n[i].red && ((t->n[i].left >= 0 && t->n[t->n[i].left].red) ||
			    (t->n[i].right >= 0 && t->n[t->n[i].right].red)))
		return -1;
	if ((t->n[i].left >= 0 && t->n[t->n[i].left].parent != i) ||
	    (t->n[i].right >= 0 && t->n[t->n[i].right].parent != i))
		return -1;
	l = check(t, key, t->n[i].left, lo, key[i]);
	r = check(t, key, t->n[i].right, key[i], hi);
	if (l < 0 || r < 0 || l != r)
		return -1;
	return l + !t->n[i].red;
}

TEST(insertions_and_deletions_keep_a_red_black_tree)
{
	struct pc_rbnode *n = calloc(NODES, sizeof(*n));
	uint64_t *key = malloc(NODES * sizeof(*key));
	bool *in = calloc(NODES, sizeof(*in));
	struct pc_rbtree t = { n, -1 };
	unsigned int seed = 7;

	ASSERT_NE(NULL, n);
	ASSERT_NE(NULL, key);
	ASSERT_NE(NULL, in);
	for (int i = 0; i < NODES; i++) {
		key[i] = (uint64_t)(rand_r(&seed) % 300);	/* equal keys too */
		pc_rb_insert(&t, key, i);
		in[i] = true;
		if (i % 3 == 2) {
			int gone = rand_r(&seed) % (i + 1);

			if (in[gone]) {
				pc_rb_erase(&t, gone);
				in[gone] = false;
			}
		}
		ASSERT_LT(0, check(&t, key, t.root, 0, UINT64_MAX)) TH_LOG("after node %d", i);
	}
	ASSERT_FALSE(t.n[t.root].red);
	free(n);
	free(key);
	free(in);
}

/* a small PIE's symbols in its symtab's order, then its three PLT slots */
TEST(plt_slots_inside_a_stretched_init_are_found_as_perf_finds_them)
{
	static const struct { uint64_t start, size; const char *name; enum pc_sym_bind bind; } s[] = {
		{ 0x37c, 32, "__abi_tag", PC_BIND_LOCAL },
		{ 0x1160, 0, "deregister_tm_clones", PC_BIND_LOCAL },
		{ 0x1190, 0, "register_tm_clones", PC_BIND_LOCAL },
		{ 0x11d0, 0, "__do_global_dtors_aux", PC_BIND_LOCAL },
		{ 0x4028, 1, "completed.0", PC_BIND_LOCAL },
		{ 0x3dd8, 0, "__do_global_dtors_aux_fini_array_entry", PC_BIND_LOCAL },
		{ 0x1210, 0, "frame_dummy", PC_BIND_LOCAL },
		{ 0x3dd0, 0, "__frame_dummy_init_array_entry", PC_BIND_LOCAL },
		{ 0x2100, 0, "__FRAME_END__", PC_BIND_LOCAL },
		{ 0x3de0, 0, "_DYNAMIC", PC_BIND_LOCAL },
		{ 0x3fe8, 0, "_GLOBAL_OFFSET_TABLE_", PC_BIND_LOCAL },
		{ 0x121c, 0, "_fini", PC_BIND_GLOBAL },
		{ 0x4020, 0, "__dso_handle", PC_BIND_GLOBAL },
		{ 0x2000, 4, "_IO_stdin_used", PC_BIND_GLOBAL },
		{ 0x1130, 34, "_start", PC_BIND_GLOBAL },
		{ 0x1070, 190, "main", PC_BIND_GLOBAL },
		{ 0x4028, 0, "__TMC_END__", PC_BIND_GLOBAL },
		{ 0x1000, 0, "_init", PC_BIND_GLOBAL },
		{ 0x1030, 16, "write@plt", PC_BIND_PLT },
		{ 0x1040, 16, "open@plt", PC_BIND_PLT },
		{ 0x1050, 16, "getxattr@plt", PC_BIND_PLT },
	};
	struct pc_symtab t = { 0 };

	for (size_t i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		ASSERT_EQ(0, pc_symtab_add(&t, s[i].start, s[i].size, s[i].name, s[i].bind, NULL));
	pc_symtab_finish(&t);
	ASSERT_NE(NULL, t.kids);
	EXPECT_STREQ("_init", pc_symtab_find(&t, 0x1030)->name);
	EXPECT_STREQ("_init", pc_symtab_find(&t, 0x1050)->name);
	EXPECT_STREQ("_init", pc_symtab_find(&t, 0x1062)->name);	/* .plt.got */
	EXPECT_STREQ("main", pc_symtab_find(&t, 0x1071)->name);
	EXPECT_STREQ("_start", pc_symtab_find(&t, 0x1130)->name);
	pc_symtab_free(&t);
}

/* no PLT over a stretched symbol: each slot is its own */
TEST(plt_slots_without_an_overlap_are_their_own)
{
	struct pc_symtab t = { 0 };

	ASSERT_EQ(0, pc_symtab_add(&t, 0x1000, 0x17, "_init", PC_BIND_GLOBAL, NULL));
	ASSERT_EQ(0, pc_symtab_add(&t, 0x1070, 0x20, "main", PC_BIND_GLOBAL, NULL));
	ASSERT_EQ(0, pc_symtab_add(&t, 0x1030, 16, "write@plt", PC_BIND_PLT, NULL));
	pc_symtab_finish(&t);
	EXPECT_STREQ("write@plt", pc_symtab_find(&t, 0x1035)->name);
	EXPECT_EQ(NULL, pc_symtab_find(&t, 0x1020));
	pc_symtab_free(&t);
}

/* a JIT map as written: an empty entry holds only its start; one start twice stays twice */
TEST(raw_tables_keep_every_entry_as_written)
{
	struct pc_symtab t = { 0 };
	const struct pc_symbol *a, *b;

	ASSERT_EQ(0, pc_symtab_add(&t, 0x5000, 0x20, "first", PC_BIND_GLOBAL, NULL));
	ASSERT_EQ(0, pc_symtab_add(&t, 0x5000, 0x20, "again", PC_BIND_GLOBAL, NULL));
	ASSERT_EQ(0, pc_symtab_add(&t, 0x6000, 0, "empty", PC_BIND_GLOBAL, NULL));
	pc_symtab_finish_raw(&t);
	EXPECT_EQ(3, t.nr);
	EXPECT_STREQ("empty", pc_symtab_find(&t, 0x6000)->name);
	EXPECT_EQ(NULL, pc_symtab_find(&t, 0x6001));
	a = pc_symtab_find(&t, 0x5000);
	b = pc_symtab_find(&t, 0x501f);
	ASSERT_NE(NULL, a);
	EXPECT_EQ(a, b);
	EXPECT_EQ(NULL, pc_symtab_find(&t, 0x5020));
	pc_symtab_free(&t);
}

TEST_HARNESS_MAIN
