// SPDX-License-Identifier: GPL-2.0
/*
 * perf_mem_data_src, bit by bit (uapi linux/perf_event.h): mem_op 0..4,
 * mem_lvl 5..18, mem_snoop 19..23, mem_lock 24..25, mem_dtlb 26..32,
 * mem_lvl_num 33..36, mem_remote 37, mem_snoopx 38..39, mem_blk 40..42,
 * mem_hops 43..45.  Each part is named as perf 6.1 names it (the level
 * also as newer perf does); parts whose bits are all clear say N/A (op
 * says "No").
 */
#include "reader/datasrc.h"

#include <stdarg.h>
#include <stdio.h>

static uint64_t bits(uint64_t v, unsigned int lo, unsigned int n)
{
	return (v >> lo) & ((1ULL << n) - 1);
}

/* appends to a text cut at its size, as scnprintf chains do */
struct text {
	char *buf;
	size_t size, len;
};

static void add(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void add(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->len + 1 >= t->size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(t->buf + t->len, t->size - t->len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	t->len += (size_t)n < t->size - t->len ? (size_t)n : t->size - t->len - 1;
}

/* the names of the set bits of m, " or " between them; how many */
static int add_set(struct text *t, uint64_t m, const char *const *names, unsigned int nr,
		   int printed)
{
	for (unsigned int i = 0; m && i < nr; i++, m >>= 1) {
		if (!(m & 1))
			continue;
		add(t, "%s%s", printed++ ? " or " : "", names[i]);
	}
	return printed;
}

static void op(struct text *t, uint64_t m)
{
	/* the first bit set wins, N/A first */
	static const char *const names[] = { "N/A", "LOAD", "STORE", "PFETCH", "EXEC" };

	for (unsigned int i = 0; i < 5; i++)
		if (m & (1ULL << i)) {
			add(t, "%s", names[i]);
			return;
		}
	add(t, "No");
}

/* the PERF_MEM_LVL bits and mem_hops, as both perfs name them */
static const char *const lvl_names[] = {
	"N/A", "HIT", "MISS", "L1", "LFB/MAB", "L2", "L3", "Local RAM",
	"Remote RAM (1 hop)", "Remote RAM (2 hops)", "Remote Cache (1 hop)",
	"Remote Cache (2 hops)", "I/O", "Uncached",
};
static const char *const hops[8] = {
	"N/A", "core, same node", "node, same socket", "socket, same board", "board",
};

static void lvl(struct text *t, uint64_t v)
{
	/* mem_lvl_num: cache levels are "L%d" */
	static const char *const nums[16] = {
		[0x9] = "CXL", [0xa] = "I/O", [0xb] = "Any cache", [0xc] = "LFB/MAB", [0xd] = "RAM",
		[0xe] = "PMEM", [0xf] = "N/A",
	};
	uint64_t m = bits(v, 5, 14), num = bits(v, 33, 4), hop = bits(v, 43, 3);
	size_t start = t->len;
	int printed = 0;

	if (bits(v, 37, 1))
		add(t, "Remote ");
	/* a hop count replaces the PERF_MEM_LVL names */
	if (hop)
		add(t, "%s ", hops[hop] ? hops[hop] : "(null)");
	else
		printed = add_set(t, m & ~6ULL, lvl_names, 14, 0);
	if (num) {
		add(t, "%s", printed++ ? " or " : "");
		if (nums[num])
			add(t, "%s", nums[num]);
		else
			add(t, "L%d", (int)num);
	}
	if (t->len == start)
		add(t, "N/A");
	if (m & 2)
		add(t, " hit");
	if (m & 4)
		add(t, " miss");
}

/*
 * Newer perf: a level number (not N/A) is the level, after "Remote " and
 * the hops; else the PERF_MEM_LVL bits but N/A, hit and miss; else N/A.
 * "hit" or "miss" follows after a blank, the blank there even without them.
 */
static void lvl_7_2(struct text *t, uint64_t v)
{
	static const char *const nums[16] = {
		[0x1] = "L1", [0x2] = "L2", [0x3] = "L3", [0x4] = "L4", [0x5] = "L2 MHB",
		[0x6] = "Memory-side Cache", [0x8] = "Uncached", [0x9] = "CXL", [0xa] = "I/O",
		[0xb] = "Any cache", [0xc] = "LFB/MAB", [0xd] = "RAM", [0xe] = "PMEM",
	};
	uint64_t m = bits(v, 5, 14), num = bits(v, 33, 4), hop = bits(v, 43, 3);
	const char *hit_miss = (m & 2) ? "hit" : (m & 4) ? "miss" : "";

	if (num && num != 0xf) {
		if (bits(v, 37, 1))
			add(t, "Remote ");
		if (hop)
			add(t, "%s ", hops[hop] ? hops[hop] : "(null)");
		if (nums[num])
			add(t, "%s", nums[num]);
		else
			add(t, "Unknown level %d", (int)num);
		add(t, " %s", hit_miss);
		return;
	}
	if (!add_set(t, m & ~7ULL, lvl_names, 14, 0)) {
		add(t, "N/A");
		return;
	}
	add(t, " %s", hit_miss);
}

static void snoop(struct text *t, uint64_t v)
{
	static const char *const names[] = { "N/A", "None", "Hit", "Miss", "HitM" };
	static const char *const namesx[] = { "Fwd", "Peer" };
	int printed = add_set(t, bits(v, 19, 5), names, 5, 0);

	if (!add_set(t, bits(v, 38, 2), namesx, 2, printed))
		add(t, "N/A");
}

static void tlb(struct text *t, uint64_t v)
{
	static const char *const names[] = { "N/A", "HIT", "MISS", "L1", "L2", "Walker", "Fault" };
	uint64_t m = bits(v, 26, 7);

	if (!add_set(t, m & ~6ULL, names, 7, 0))
		add(t, "N/A");
	if (m & 2)
		add(t, " hit");
	if (m & 4)
		add(t, " miss");
}

static void lock(struct text *t, uint64_t v)
{
	uint64_t m = bits(v, 24, 2);

	add(t, "%s", (m & 1) ? "N/A" : (m & 2) ? "Yes" : "No");
}

static void blk(struct text *t, uint64_t v)
{
	uint64_t m = bits(v, 40, 3);

	if (!m || (m & 1)) {
		add(t, " N/A");
		return;
	}
	if (m & 2)
		add(t, " Data");
	if (m & 4)
		add(t, " Addr");
}

size_t rd_data_src_text(uint64_t v, bool layout_7_2, char *buf, size_t size)
{
	struct text t = { buf, size, 0 };

	if (!size)
		return 0;
	buf[0] = '\0';
	add(&t, "|OP ");
	op(&t, bits(v, 0, 5));
	add(&t, "|LVL ");
	if (layout_7_2)
		lvl_7_2(&t, v);
	else
		lvl(&t, v);
	add(&t, "|SNP ");
	snoop(&t, v);
	add(&t, "|TLB ");
	tlb(&t, v);
	add(&t, "|LCK ");
	lock(&t, v);
	add(&t, "|BLK ");
	blk(&t, v);
	return t.len;
}
