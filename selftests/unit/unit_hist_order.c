// SPDX-License-Identifier: GPL-2.0
/*
 * perf report's row order among rows that tie on every shown column:
 * unresolved addresses are compared by a wrapped 64-bit difference, which
 * is not transitive when addresses lie more than 2^63 apart (garbage
 * return addresses that a frame-pointer walk read from argv or environment
 * strings, such as 0x2d00752d00702d00 = "\0-p\0-u\0-").  perf 6.1 feeds
 * its output tree from the input tree unless a sort key (comm, srcline)
 * asks for a collapse tree; one tree more or less reorders such rows.
 *
 * Three rows A=0x10, B=0x6000000000000010, C=0xc000000000000010 created
 * in that order: wrapped, A < B, B < C and C < A.
 *   input tree  (A, then B right of A, then C left of A): C A B
 *   collapse tree fed C A B (A right of C, B left of C):  B C A
 * Every row ties in the output tree, so each goes right: its order is the
 * order it is fed.
 */
#include <string.h>

#include "kselftest_harness.h"
#include "reader/hist.h"
#include "reader/hist_input.h"
#include "symbols/symbols.h"

static const uint64_t ips[3] = { 0x10, 0x6000000000000010ULL, 0xc000000000000010ULL };

FIXTURE(rows) {
	struct entry e[3];
	struct entry *v[3];
	char keys[3][32];
	char comm[8];
};

FIXTURE_SETUP(rows)
{
	strcpy(self->comm, "sh");
	for (int i = 0; i < 3; i++) {
		struct entry *e = &self->e[i];

		memset(e, 0, sizeof(*e));
		e->key_len = (size_t)snprintf(self->keys[i], sizeof(self->keys[i]), "%016llx",
					      (unsigned long long)ips[i]);
		e->key = self->keys[i];
		e->children = 5;
		e->nr_samples = 5;
		e->comm = self->comm;
		e->thread_comm = self->comm;
		e->tid = 100 + (uint32_t)i;	/* different threads: no depth rule */
		e->cpu = -1;
		e->seq = (uint64_t)i;
		e->at.level = '.';
		e->at.ip = ips[i];
		self->v[i] = e;
	}
}

FIXTURE_TEARDOWN(rows)
{
}

static void order(FIXTURE_DATA(rows) *self, const char *spec, uint64_t out[3])
{
	struct sk_list keys;
	char bad[64];
	struct hist_order o = { .keys = &keys, .children = true };
	size_t n = 3;

	memset(out, 0, 3 * sizeof(*out));
	if (sk_parse(&keys, spec, bad, sizeof(bad)) || hist_order(self->v, &n, &o))
		return;	/* the EXPECTs fail on the zeros */
	for (int i = 0; i < 3; i++)
		out[i] = self->v[i]->at.ip;
}

TEST_F(rows, dso_sym_rows_keep_the_input_tree_order_as_perf)
{
	uint64_t got[3];

	order(self, "dso,sym", got);
	EXPECT_EQ(ips[2], got[0]);
	EXPECT_EQ(ips[0], got[1]);
	EXPECT_EQ(ips[1], got[2]);
}

TEST_F(rows, comm_key_rows_pass_through_the_collapse_tree_as_perf)
{
	uint64_t got[3];

	order(self, "comm,dso,sym", got);
	EXPECT_EQ(ips[1], got[0]);
	EXPECT_EQ(ips[2], got[1]);
	EXPECT_EQ(ips[0], got[2]);
}

/*
 * perf's symbol comparison where an inlined entry meets another symbol:
 * by function name first (strcmp's sign, node against row), where others
 * compare by address.  "foo (inlined)" carries the range of bar, the
 * function it is inlined in.
 */
static int sym_rows_cmp(const struct pc_symbol *a, const struct pc_symbol *b)
{
	struct entry x = { .key = "x", .key_len = 1, .comm = "sh", .at.sym = a, .at.dso = "d",
			   .at.dso_len = 1 };
	struct entry y = { .key = "y", .key_len = 1, .comm = "sh", .at.sym = b, .at.dso = "d",
			   .at.dso_len = 1 };
	struct sk_list keys;
	char bad[64];

	if (sk_parse(&keys, "sym", bad, sizeof(bad)))
		return 99;
	return hist_cmp(&x, &y, &keys);
}

TEST(inlined_entry_compares_by_name_before_address)
{
	struct pc_symbol bar = { 0x1000, 0x2000, "bar", NULL, 3, false };
	struct pc_symbol inl = { 0x1000, 0x2000, "foo (inlined)", NULL, 13, true };
	struct pc_symbol aaa = { 0x500, 0x600, "aaa", NULL, 3, false };

	/* by address aaa comes first; by name foo is after aaa: perf's sign is strcmp's */
	EXPECT_EQ(1, sym_rows_cmp(&inl, &aaa));
	EXPECT_EQ(-1, sym_rows_cmp(&aaa, &inl));
	/* not inlined: by start address */
	EXPECT_EQ(-1, sym_rows_cmp(&bar, &aaa));
}

/* the hooks of a reference: found hands back its replacement when one is set */
struct ref_hooks {
	struct entry *replacement;
	int found, made;
	struct entry twin;
};

static struct entry *hook_twin(void *ctx, const struct entry *e)
{
	struct ref_hooks *h = ctx;

	h->made++;
	h->twin = *e;
	return &h->twin;
}

static struct entry *hook_found(void *ctx, struct entry *row)
{
	struct ref_hooks *h = ctx;

	h->found++;
	return h->replacement ? h->replacement : row;
}

/*
 * A row perf renames in place keeps its place in the input tree: the walk
 * lists its replacement where it was, and the tree is marked walked-only.
 */
TEST_F(rows, renamed_row_takes_the_place_of_the_row_found)
{
	struct sk_list keys;
	char bad[64];
	struct hist_input in = { 0 };
	struct ref_hooks h = { 0 };
	struct hist_ref_ops ops = { hook_twin, hook_found, &h };
	struct entry renamed = self->e[1], *walk[3];

	ASSERT_EQ(0, sk_parse(&keys, "dso,sym", bad, sizeof(bad)));
	for (int i = 0; i < 3; i++)
		ASSERT_EQ(self->v[i], hist_input_ref(&in, self->v[i], NULL, true, &keys, &ops));
	ASSERT_EQ(0, h.found);
	h.replacement = &renamed;
	EXPECT_EQ(&renamed, hist_input_ref(&in, self->v[1], NULL, false, &keys, &ops));
	EXPECT_EQ(1, h.found);
	EXPECT_EQ(0, h.made);
	EXPECT_TRUE(in.renamed);
	ASSERT_EQ(0, hist_input_walk(&in, walk));
	/* the input tree's order, C A B (file comment), B replaced */
	EXPECT_EQ(self->v[2], walk[0]);
	EXPECT_EQ(self->v[0], walk[1]);
	EXPECT_EQ(&renamed, walk[2]);
	hist_input_free(&in);
}

TEST_HARNESS_MAIN
