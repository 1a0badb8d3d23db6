// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's reference symbol the recorder names in its kernel MMAP
 * ("[kernel.kallsyms]SYMBOL", pgoff its address), picked from /proc/kallsyms
 * text as perf picks it.  Without it perf 6.1 warns that kernel address maps
 * were restricted (6.1.192 arm64 has _stext but no _text in kallsyms).
 */
#include <stdio.h>
#include <string.h>

#include "kselftest_harness.h"
#include "recorder/synth.h"

/* The reference symbol of kallsyms TEXT, its address in *addr. */
static const char *ref_of(const char *text, uint64_t *addr)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	const char *name;

	if (!f)
		return "fmemopen failed";
	name = rec_kernel_ref_symbol(f, addr);
	fclose(f);
	return name;
}

TEST(text_is_preferred_to_stext)
{
	uint64_t addr = 0;

	EXPECT_STREQ("_text", ref_of("ffff800008000000 T _stext\n"
				     "ffff800008010000 t el1_sync\n"
				     "ffff800007ff0000 T _text\n", &addr));
	EXPECT_EQ(0xffff800007ff0000ULL, addr);
}

TEST(stext_stands_in_where_kallsyms_has_no_text)
{
	uint64_t addr = 0;

	EXPECT_STREQ("_stext", ref_of("ffffc335ba400000 t _head\n"
				      "ffffc335ba410000 T _stext\n"
				      "ffffc335ba410000 T __exception_text_start\n", &addr));
	EXPECT_EQ(0xffffc335ba410000ULL, addr);
}

TEST(hidden_addresses_give_no_reference)
{
	uint64_t addr = 0;

	EXPECT_EQ(NULL, ref_of("0000000000000000 T _text\n0000000000000000 T _stext\n", &addr));
}

TEST_HARNESS_MAIN
