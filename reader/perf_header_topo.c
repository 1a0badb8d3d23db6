// SPDX-License-Identifier: GPL-2.0
/*
 * perf 6.1's -I (--show-info) lines of the topology features, which
 * without -I it only names ("... info available, use -I to display"):
 * CPU_TOPOLOGY, NUMA_TOPOLOGY, CACHE and MEM_TOPOLOGY.  Every count and
 * length comes from the file and is checked against the payload; the
 * lines stop where the payload does.
 */
#include "reader/perf_header_topo.h"

#include <stdlib.h>
#include <string.h>

/* a bounds-checked reader over one payload */
struct cur {
	const uint8_t *p;
	size_t size, off;
};

static bool u32(struct cur *c, uint32_t *v)
{
	if (c->size - c->off < 4)
		return false;
	memcpy(v, c->p + c->off, 4);
	c->off += 4;
	return true;
}

static bool u64(struct cur *c, uint64_t *v)
{
	if (c->size - c->off < 8)
		return false;
	memcpy(v, c->p + c->off, 8);
	c->off += 8;
	return true;
}

/* perf_header_string: u32 len, then len bytes holding a NUL-terminated string */
static bool str(struct cur *c, const char **s)
{
	uint32_t len;

	if (!u32(c, &len) || len > c->size - c->off || !len ||
	    !memchr(c->p + c->off, '\0', len))
		return false;
	*s = (const char *)c->p + c->off;
	c->off += len;
	return true;
}

/* a count, then that many strings: their offsets (at most max) */
static uint32_t string_list(struct cur *c, size_t *at, uint32_t max)
{
	uint32_t nr, n = 0;
	const char *s;

	if (!u32(c, &nr))
		return 0;
	for (uint32_t i = 0; i < nr; i++) {
		size_t here = c->off;

		if (!str(c, &s))
			break;
		if (n < max)
			at[n++] = here;
	}
	return n;
}

static void print_list(struct rd_out *o, const struct cur *c, const size_t *at, uint32_t n,
		       const char *title)
{
	for (uint32_t i = 0; i < n; i++)
		rd_out_printf(o, "# %s : %s\n", title, (const char *)c->p + at[i] + 4);
}

#define TOPO_MAX 1024

/* sockets' strings, threads' strings, (core, socket) per CPU, then dies' strings and ids */
static void cpu_topology(struct rd_out *o, const struct pd_reader *r, struct cur *c)
{
	size_t sockets[TOPO_MAX], threads[TOPO_MAX], dies[TOPO_MAX];
	uint32_t avail = 0, online, ns, nt, nd = 0;
	size_t ids_at, die_ids_at = 0;
	bool ids;

	if (pd_reader_nrcpus(r, &avail, &online, NULL))
		avail = 0;
	ns = string_list(c, sockets, TOPO_MAX);
	nt = string_list(c, threads, TOPO_MAX);
	ids_at = c->off;
	ids = c->size - c->off >= (size_t)avail * 8;
	if (ids) {
		c->off += (size_t)avail * 8;
		nd = string_list(c, dies, TOPO_MAX);
		die_ids_at = c->off;
		if (c->size - c->off < (size_t)avail * 4)
			nd = 0;
	}
	print_list(o, c, sockets, ns, "sibling sockets");
	print_list(o, c, dies, nd, "sibling dies   ");
	print_list(o, c, threads, nt, "sibling threads");
	if (!ids) {
		rd_out_str(o, nd ? "# Core ID, Die ID and Socket ID information is not available\n"
				 : "# Core ID and Socket ID information is not available\n");
		return;
	}
	for (uint32_t i = 0; i < avail; i++) {
		uint32_t core, socket, die;

		memcpy(&core, c->p + ids_at + 8 * (size_t)i, 4);
		memcpy(&socket, c->p + ids_at + 8 * (size_t)i + 4, 4);
		if (nd) {
			memcpy(&die, c->p + die_ids_at + 4 * (size_t)i, 4);
			rd_out_printf(o, "# CPU %u: Core ID %d, Die ID %d, Socket ID %d\n", i,
				      (int)core, (int)die, (int)socket);
		} else {
			rd_out_printf(o, "# CPU %u: Core ID %d, Socket ID %d\n", i, (int)core,
				      (int)socket);
		}
	}
}

/* "0-3,5": a CPU list as perf prints its cpu maps (sorted, ranges) */
static void cpu_list(struct rd_out *o, const char *list)
{
	bool in[TOPO_MAX];
	const char *p = list;
	bool first = true;

	memset(in, 0, sizeof(in));
	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b = a;

		if (end == p)
			break;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		for (long x = a; x <= b && x >= 0 && x < TOPO_MAX; x++)
			in[x] = true;
		p = *end == ',' ? end + 1 : end;
		if (*end != ',')
			break;
	}
	for (int x = 0; x < TOPO_MAX; x++) {
		int y = x;

		if (!in[x])
			continue;
		while (y + 1 < TOPO_MAX && in[y + 1])
			y++;
		rd_out_printf(o, y > x ? "%s%d-%d" : "%s%d", first ? "" : ",", x, y);
		first = false;
		x = y;
	}
	rd_out_char(o, '\n');
}

/* u32 nr; per node: u32 node, u64 total, u64 free, string cpus */
static void numa_topology(struct rd_out *o, struct cur *c)
{
	uint32_t nr, node;
	uint64_t total, free_kb;
	const char *cpus;

	if (!u32(c, &nr))
		return;
	for (uint32_t i = 0; i < nr; i++) {
		if (!u32(c, &node) || !u64(c, &total) || !u64(c, &free_kb) || !str(c, &cpus))
			return;
		rd_out_printf(o, "# node%u meminfo  : total = %llu kB, free = %llu kB\n", node,
			      (unsigned long long)total, (unsigned long long)free_kb);
		rd_out_printf(o, "# node%u cpu list : ", node);
		cpu_list(o, cpus);
	}
}

/* u32 version, u32 count; per cache: u32 level, line, sets, ways, strings type, size, map */
static void cache(struct rd_out *o, struct cur *c)
{
	uint32_t version, nr, v[4];
	const char *type, *size, *map;

	if (!u32(c, &version) || !u32(c, &nr))
		return;
	rd_out_str(o, "# CPU cache info:\n");
	for (uint32_t i = 0; i < nr; i++) {
		if (!u32(c, &v[0]) || !u32(c, &v[1]) || !u32(c, &v[2]) || !u32(c, &v[3]) ||
		    !str(c, &type) || !str(c, &size) || !str(c, &map))
			return;
		rd_out_printf(o, "#  L%d %-15s %8s [%s]\n", (int)v[0], type, size, map);
	}
}

/* perf's unit_number__scnprintf: divide by 1024 while the quotient stays above 1 */
static void unit_number(struct rd_out *o, uint64_t n)
{
	static const char unit[] = "BKMGTPEZY";
	int i = 0;

	while (n / 1024 > 1 && i < 8) {
		n /= 1024;
		i++;
	}
	rd_out_printf(o, "%llu%c", (unsigned long long)n, unit[i]);
}

/*
 * u64 version, block size, count; per node: u64 node, u64 size, then the
 * bitmap (u64 bits again, its u64 words)
 */
static void mem_topology(struct rd_out *o, struct cur *c)
{
	uint64_t version, bsize, nr, node, bits;

	if (!u64(c, &version) || !u64(c, &bsize) || !u64(c, &nr))
		return;
	rd_out_printf(o, "# memory nodes (nr %d, block size 0x%llx):\n", (int)nr,
		      (unsigned long long)bsize);
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t words, weight = 0, size;
		size_t at;
		bool first = true;

		if (!u64(c, &node) || !u64(c, &size) || !u64(c, &bits))
			return;
		words = (bits + 63) / 64;
		if (words > (c->size - c->off) / 8)
			return;
		at = c->off;
		c->off += words * 8;
		for (uint64_t b = 0; b < bits; b++) {
			uint64_t w;

			memcpy(&w, c->p + at + 8 * (b / 64), 8);
			weight += (w >> (b % 64)) & 1;
		}
		rd_out_printf(o, "#  %3llu [", (unsigned long long)node);
		unit_number(o, bsize * weight);
		rd_out_str(o, "]: ");
		for (uint64_t b = 0; b < bits; b++) {
			uint64_t w, e = b;

			memcpy(&w, c->p + at + 8 * (b / 64), 8);
			if (!((w >> (b % 64)) & 1))
				continue;
			while (e + 1 < bits) {
				memcpy(&w, c->p + at + 8 * ((e + 1) / 64), 8);
				if (!((w >> ((e + 1) % 64)) & 1))
					break;
				e++;
			}
			rd_out_printf(o, e > b ? "%s%llu-%llu" : "%s%llu", first ? "" : ",",
				      (unsigned long long)b, (unsigned long long)e);
			first = false;
			b = e;
		}
		rd_out_char(o, '\n');
	}
}

bool rd_perf_header_topo(struct rd_out *o, const struct pd_reader *r, int f, const uint8_t *p,
			 size_t size)
{
	struct cur c = { p, size, 0 };

	switch (f) {
	case PD_FEAT_CPU_TOPOLOGY:
		cpu_topology(o, r, &c);
		return true;
	case PD_FEAT_NUMA_TOPOLOGY:
		numa_topology(o, &c);
		return true;
	case PD_FEAT_CACHE:
		cache(o, &c);
		return true;
	case PD_FEAT_MEM_TOPOLOGY:
		mem_topology(o, &c);
		return true;
	default:
		return false;
	}
}
