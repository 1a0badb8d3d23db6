// SPDX-License-Identifier: GPL-2.0
/*
 * Row keys (reader/sortkeys.c): two frames make one row exactly when
 * their keys are equal, so a key holds what perf's sort comparisons
 * compare.  perf's symbol comparison looks at the object of two symbols
 * (one symbol name of two objects is two rows) but compares two
 * unresolved addresses by address alone: the same offset into dash and
 * into ls (both stripped) is one row of -s sym or -F overhead,sym.
 */
#include <string.h>

#include "kselftest_harness.h"
#include "reader/sortkeys.h"
#include "symbols/symbols.h"

static const struct pc_symbol strcmp_sym = {
	.start = 0x1000, .end = 0x1100, .name = "strcmp", .name_len = 6,
};

/* a user frame of process comm in object dso at offset addr, symbol sym or none */
static struct sk_frame frame(const char *comm, const char *dso, uint64_t addr,
			     const struct pc_symbol *sym)
{
	return (struct sk_frame){ .comm = comm, .pid = 1, .tid = 1, .cpu = -1, .sym = sym,
				  .dso = dso, .dso_len = strlen(dso), .addr = addr,
				  .off = sym ? addr - sym->start : 0, .rel = addr, .level = '.' };
}

/* whether frames a and b make one row under the keys of spec */
static bool one_row(struct __test_metadata *_metadata, const char *spec,
		    const struct sk_frame *a, const struct sk_frame *b)
{
	struct sk_list l;
	char bad[64], ka[512], kb[512];
	size_t la, lb;

	if (sk_parse(&l, spec, bad, sizeof(bad))) {
		TH_LOG("sk_parse(%s) failed at %s", spec, bad);
		return false;
	}
	la = sk_key(&l, a, ka, sizeof(ka));
	lb = sk_key(&l, b, kb, sizeof(kb));
	EXPECT_NE(0, la);
	EXPECT_NE(0, lb);
	return la == lb && !memcmp(ka, kb, la);
}

TEST(one_unresolved_offset_of_two_objects_is_one_sym_row)
{
	struct sk_frame a = frame("sh", "/usr/bin/dash", 0xde92, NULL);
	struct sk_frame b = frame("ls", "/usr/bin/ls", 0xde92, NULL);

	EXPECT_TRUE(one_row(_metadata, "sym", &a, &b));
}

TEST(one_unresolved_offset_of_two_objects_is_two_dso_sym_rows)
{
	struct sk_frame a = frame("sh", "/usr/bin/dash", 0xde92, NULL);
	struct sk_frame b = frame("ls", "/usr/bin/ls", 0xde92, NULL);

	EXPECT_FALSE(one_row(_metadata, "dso,sym", &a, &b));
}

TEST(two_unresolved_offsets_of_one_object_are_two_sym_rows)
{
	struct sk_frame a = frame("sh", "/usr/bin/dash", 0xde92, NULL);
	struct sk_frame b = frame("sh", "/usr/bin/dash", 0xde93, NULL);

	EXPECT_FALSE(one_row(_metadata, "sym", &a, &b));
}

TEST(one_symbol_of_two_objects_is_two_sym_rows)
{
	struct sk_frame a = frame("sh", "/usr/lib/x86_64-linux-gnu/libc.so.6", 0x1010,
				  &strcmp_sym);
	struct sk_frame b = frame("sh", "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2",
				  0x1010, &strcmp_sym);

	EXPECT_FALSE(one_row(_metadata, "sym", &a, &b));
}

TEST(two_addresses_of_one_symbol_are_one_sym_row)
{
	struct sk_frame a = frame("sh", "/usr/lib/x86_64-linux-gnu/libc.so.6", 0x1010,
				  &strcmp_sym);
	struct sk_frame b = frame("ls", "/usr/lib/x86_64-linux-gnu/libc.so.6", 0x1020,
				  &strcmp_sym);

	EXPECT_TRUE(one_row(_metadata, "sym", &a, &b));
}

TEST_HARNESS_MAIN
