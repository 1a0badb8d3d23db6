// SPDX-License-Identifier: GPL-2.0
/*
 * The machine's description in the header, as perf record writes it:
 * CPUDESC and CPUID, TOTAL_MEM, CPU_TOPOLOGY, NUMA_TOPOLOGY, PMU_MAPPINGS,
 * the PMUs' capabilities (pmu_caps.c) and CACHE, read from /proc and /sys.  A part this machine cannot give
 * (no sysfs in a small guest, no cpu model line) is left out of the file,
 * never written half; perf's readers take a file without it.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfdata/perfdata.h"
#include "recorder/machine_desc.h"
#include "recorder/pmu_caps.h"
#include "recorder/pmus.h"
#include "util/sys.h"

#define SYS_CPU "/sys/devices/system/cpu"
#define MAX_CPUS 4096
#define MAX_CACHES 64

/* One line of a sysfs file, its newline cut: 0, or -1 when it cannot be read. */
static int read_line(const char *path, char *buf, size_t size)
{
	if (pc_read_file(path, buf, size) < 0)
		return -1;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static int read_u32(const char *path, uint32_t *v)
{
	long x;

	if (pc_read_int_file(path, &x) < 0 || x < 0)
		return -1;
	*v = (uint32_t)x;
	return 0;
}

/* The cpus of a list such as "0-3,6" set in online[]; the count, or -1. */
static int parse_cpu_list(const char *list, bool *online, int max)
{
	const char *p = list;
	int n = 0;

	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b = a;

		if (end == p || a < 0)
			return -1;
		if (*end == '-') {
			p = end + 1;
			b = strtol(p, &end, 10);
			if (end == p || b < a)
				return -1;
		}
		for (long c = a; c <= b && c < max; c++) {
			n += !online[c];
			online[c] = true;
		}
		p = *end == ',' ? end + 1 : end;
		if (*end && *end != ',')
			return -1;
	}
	return n;
}

/* perf's CPUDESC on x86: /proc/cpuinfo's model name, runs of blanks made one */
static int write_cpudesc(struct pd_writer *w)
{
	char buf[65536], desc[256];
	const char *line, *v;
	size_t n = 0;

	if (pc_read_file("/proc/cpuinfo", buf, sizeof(buf)) < 0)
		return -1;
	line = strstr(buf, "model name");
	if (!line || !(v = strchr(line, ':')))
		return -1;
	for (v++; *v == ' ' || *v == '\t'; v++)
		;
	for (; *v && *v != '\n' && n + 1 < sizeof(desc); v++) {
		if (isspace((unsigned char)*v) && (n == 0 || desc[n - 1] == ' '))
			continue;
		desc[n++] = isspace((unsigned char)*v) ? ' ' : *v;
	}
	while (n && desc[n - 1] == ' ')
		n--;
	desc[n] = '\0';
	return n ? pd_writer_set_string(w, PD_FEAT_CPUDESC, desc) : -1;
}

/* perf's CPUID: "Vendor,family,model,stepping" on x86, the MIDR on arm64 */
static int write_cpuid(struct pd_writer *w)
{
	char id[128];

#if defined(__x86_64__) || defined(__i386__)
	uint32_t a, b, c, d, family, model;
	char vendor[13];

	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0), "c"(0));
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = '\0';
	__asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(1), "c"(0));
	family = (a >> 8) & 0xf;
	model = (a >> 4) & 0xf;
	if (family >= 0xf)
		family += (a >> 20) & 0xff;
	if (family >= 6)
		model += ((a >> 16) & 0xf) << 4;
	snprintf(id, sizeof(id), "%s,%u,%u,%u", vendor, family, model, a & 0xf);
#else
	char midr[64];
	unsigned long long v;

	if (read_line(SYS_CPU "/cpu0/regs/identification/midr_el1", midr, sizeof(midr)) ||
	    sscanf(midr, "%llx", &v) != 1)
		return -1;
	snprintf(id, sizeof(id), "0x%016llx", v);
#endif
	return pd_writer_set_string(w, PD_FEAT_CPUID, id);
}

/* MemTotal of /proc/meminfo, in kB */
static int write_total_mem(struct pd_writer *w)
{
	char buf[8192];
	const char *p;
	unsigned long long kb;

	if (pc_read_file("/proc/meminfo", buf, sizeof(buf)) < 0 ||
	    !(p = strstr(buf, "MemTotal:")) || sscanf(p + 9, "%llu", &kb) != 1)
		return -1;
	return pd_writer_set_feature(w, PD_FEAT_TOTAL_MEM, &kb, sizeof(uint64_t));
}

/* A list of distinct strings, in the order first seen. */
struct strset {
	char *v[MAX_CPUS];
	uint32_t nr;
};

static int strset_add(struct strset *s, const char *str)
{
	for (uint32_t i = 0; i < s->nr; i++)
		if (!strcmp(s->v[i], str))
			return 0;
	if (s->nr == MAX_CPUS || !(s->v[s->nr] = strdup(str)))
		return -1;
	s->nr++;
	return 0;
}

static void strset_put(struct pd_feat *b, const struct strset *s)
{
	pd_feat_u32(b, s->nr);
	for (uint32_t i = 0; i < s->nr; i++)
		pd_feat_string(b, s->v[i]);
}

static void strset_free(struct strset *s)
{
	for (uint32_t i = 0; i < s->nr; i++)
		free(s->v[i]);
	s->nr = 0;
}

/* one of a cpu's topology files, the first name that exists */
static int topo_line(int cpu, const char *name, const char *fallback, char *buf, size_t size)
{
	char path[128];

	snprintf(path, sizeof(path), SYS_CPU "/cpu%d/topology/%s", cpu, name);
	if (!read_line(path, buf, size))
		return 0;
	snprintf(path, sizeof(path), SYS_CPU "/cpu%d/topology/%s", cpu, fallback);
	return read_line(path, buf, size);
}

static uint32_t topo_id(int cpu, const char *name)
{
	char path[128];
	uint32_t v;

	snprintf(path, sizeof(path), SYS_CPU "/cpu%d/topology/%s", cpu, name);
	return read_u32(path, &v) ? (uint32_t)-1 : v;
}

/*
 * CPU_TOPOLOGY: the package, then the core sibling lists of the online cpus,
 * each cpu's core and socket id, then (where the kernel has dies) the die
 * lists and ids, as perf writes them
 */
static int write_cpu_topology(struct pd_writer *w, const bool *online, int nr_avail)
{
	struct strset *sets = calloc(3, sizeof(*sets));
	struct strset *pkg = sets, *core = sets + 1, *die = sets + 2;
	char line[4096];
	bool dies = access(SYS_CPU "/cpu0/topology/die_cpus_list", F_OK) == 0;
	struct pd_feat b = { 0 };
	int ret = -1;

	if (!sets)
		return -1;
	for (int c = 0; c < nr_avail; c++) {
		if (!online[c])
			continue;
		if (topo_line(c, "package_cpus_list", "core_siblings_list", line, sizeof(line)) ||
		    strset_add(pkg, line) ||
		    topo_line(c, "core_cpus_list", "thread_siblings_list", line, sizeof(line)) ||
		    strset_add(core, line))
			goto out;
		if (dies && (topo_line(c, "die_cpus_list", "die_cpus_list", line, sizeof(line)) ||
			     strset_add(die, line)))
			goto out;
	}
	if (!pkg->nr)
		goto out;
	strset_put(&b, pkg);
	strset_put(&b, core);
	for (int c = 0; c < nr_avail; c++) {
		pd_feat_u32(&b, online[c] ? topo_id(c, "core_id") : (uint32_t)-1);
		pd_feat_u32(&b, online[c] ? topo_id(c, "physical_package_id") : (uint32_t)-1);
	}
	if (dies) {
		strset_put(&b, die);
		for (int c = 0; c < nr_avail; c++)
			pd_feat_u32(&b, online[c] ? topo_id(c, "die_id") : (uint32_t)-1);
	}
	ret = pd_feat_commit(w, PD_FEAT_CPU_TOPOLOGY, &b);
	b.data = NULL;
out:
	free(b.data);
	for (int i = 0; i < 3; i++)
		strset_free(&sets[i]);
	free(sets);
	return ret;
}

/* NUMA_TOPOLOGY: per online node its id, total and free memory (kB) and cpu list */
static int write_numa(struct pd_writer *w)
{
	bool nodes[MAX_CPUS] = { false };
	char line[4096], path[128], buf[8192];
	struct pd_feat b = { 0 };
	int nr;

	if (read_line("/sys/devices/system/node/online", line, sizeof(line)) ||
	    (nr = parse_cpu_list(line, nodes, MAX_CPUS)) <= 0)
		return -1;
	pd_feat_u32(&b, (uint32_t)nr);
	for (int n = 0; n < MAX_CPUS; n++) {
		unsigned long long total = 0, avail = 0;
		const char *p;

		if (!nodes[n])
			continue;
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/meminfo", n);
		if (pc_read_file(path, buf, sizeof(buf)) < 0)
			goto fail;
		p = strstr(buf, "MemTotal:");
		if (!p || sscanf(p + 9, "%llu", &total) != 1)
			goto fail;
		p = strstr(buf, "MemFree:");
		if (!p || sscanf(p + 8, "%llu", &avail) != 1)
			goto fail;
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist", n);
		if (read_line(path, line, sizeof(line)))
			goto fail;
		pd_feat_u32(&b, (uint32_t)n);
		pd_feat_u64(&b, total);
		pd_feat_u64(&b, avail);
		pd_feat_string(&b, line);
	}
	return pd_feat_commit(w, PD_FEAT_NUMA_TOPOLOGY, &b);
fail:
	free(b.data);
	return -1;
}

/*
 * MEM_TOPOLOGY, as perf writes it where sysfs has memory blocks: version 1,
 * the block size, the number of nodes, then per online node its number,
 * the bits of its bitmap (its highest memoryN + 1) and the bitmap of its
 * memory blocks in u64 words.
 */
static int node_blocks(int node, uint64_t **set, uint64_t *nbits)
{
	char path[128];
	struct dirent *e;
	DIR *d;
	unsigned int phys, max = 0;

	snprintf(path, sizeof(path), "/sys/devices/system/node/node%d", node);
	d = opendir(path);
	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (sscanf(e->d_name, "memory%u", &phys) == 1 && phys > max)
			max = phys;
	*nbits = (uint64_t)max + 1;
	*set = calloc((*nbits + 63) / 64, sizeof(uint64_t));
	if (!*set) {
		closedir(d);
		return -1;
	}
	rewinddir(d);
	while ((e = readdir(d)))
		if (sscanf(e->d_name, "memory%u", &phys) == 1)
			(*set)[phys / 64] |= 1ULL << (phys % 64);
	closedir(d);
	return 0;
}

static int write_mem_topology(struct pd_writer *w)
{
	bool nodes[MAX_CPUS] = { false };
	char line[4096];
	struct pd_feat b = { 0 };
	unsigned long long bsize;
	int nr;

	if (read_line("/sys/devices/system/memory/block_size_bytes", line, sizeof(line)) ||
	    sscanf(line, "%llx", &bsize) != 1 ||
	    read_line("/sys/devices/system/node/online", line, sizeof(line)) ||
	    (nr = parse_cpu_list(line, nodes, MAX_CPUS)) <= 0)
		return -1;
	pd_feat_u64(&b, 1);
	pd_feat_u64(&b, bsize);
	pd_feat_u64(&b, (uint64_t)nr);
	for (int n = 0; n < MAX_CPUS; n++) {
		uint64_t *set, nbits;

		if (!nodes[n])
			continue;
		if (node_blocks(n, &set, &nbits)) {
			free(b.data);
			return -1;
		}
		pd_feat_u64(&b, (uint64_t)n);
		pd_feat_u64(&b, nbits);
		pd_feat_u64(&b, nbits);
		pd_feat_put(&b, set, (nbits + 63) / 64 * sizeof(uint64_t));
		free(set);
	}
	return pd_feat_commit(w, PD_FEAT_MEM_TOPOLOGY, &b);
}

/* PMU_MAPPINGS: each PMU's type and name, in the directory's order (perf 6.1's) */
static int write_pmu_mappings(struct pd_writer *w)
{
	static const char dir_path[] = "/sys/bus/event_source/devices";
	struct pd_feat names = { 0 }, b = { 0 };
	DIR *dir = opendir(dir_path);
	struct dirent *d;
	uint32_t nr = 0;
	char path[512];

	if (!dir)
		return -1;
	while ((d = readdir(dir))) {
		uint32_t type;

		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/type", dir_path, d->d_name);
		if (read_u32(path, &type))
			continue;
		pd_feat_u32(&names, type);
		pd_feat_string(&names, d->d_name);
		nr++;
	}
	closedir(dir);
	pd_feat_u32(&b, nr);
	pd_feat_put(&b, names.data, names.len);
	b.oom |= names.oom;
	free(names.data);
	return nr ? pd_feat_commit(w, PD_FEAT_PMU_MAPPINGS, &b) : (free(b.data), -1);
}

struct cache {
	uint32_t level, line_size, sets, ways;
	char type[32], size[32], map[256];
};

static bool cache_same(const struct cache *a, const struct cache *b)
{
	return a->level == b->level && a->line_size == b->line_size && a->sets == b->sets &&
	       a->ways == b->ways && !strcmp(a->type, b->type) && !strcmp(a->size, b->size) &&
	       !strcmp(a->map, b->map);
}

static int read_cache(int cpu, int index, struct cache *c)
{
	char path[160], base[96];

	snprintf(base, sizeof(base), SYS_CPU "/cpu%d/cache/index%d", cpu, index);
#define FIELD(name) (snprintf(path, sizeof(path), "%s/" name, base), path)
	if (read_u32(FIELD("level"), &c->level) ||
	    read_u32(FIELD("coherency_line_size"), &c->line_size) ||
	    read_u32(FIELD("number_of_sets"), &c->sets) ||
	    read_u32(FIELD("ways_of_associativity"), &c->ways) ||
	    read_line(FIELD("type"), c->type, sizeof(c->type)) ||
	    read_line(FIELD("size"), c->size, sizeof(c->size)) ||
	    read_line(FIELD("shared_cpu_list"), c->map, sizeof(c->map)))
		return -1;
#undef FIELD
	return 0;
}

/*
 * CACHE: version 1, then each distinct cache of the online cpus (perf reads
 * index0..3 of each), by level, cpus and indexes in order within a level;
 * a machine whose sysfs lists none has the feature with a count of 0, as perf
 */
static int write_caches(struct pd_writer *w, const bool *online, int nr_avail)
{
	struct cache caches[MAX_CACHES];
	struct pd_feat b = { 0 };
	uint32_t nr = 0;

	for (int c = 0; c < nr_avail; c++) {
		for (int i = 0; online[c] && i < 4; i++) {
			struct cache k;
			bool seen = false;

			if (read_cache(c, i, &k))
				break;
			for (uint32_t j = 0; j < nr && !seen; j++)
				seen = cache_same(&caches[j], &k);
			if (!seen && nr < MAX_CACHES)
				caches[nr++] = k;
		}
	}
	/* stable: by level, the order found kept within one */
	for (uint32_t i = 1; i < nr; i++)
		for (uint32_t j = i; j > 0 && caches[j - 1].level > caches[j].level; j--) {
			struct cache t = caches[j];

			caches[j] = caches[j - 1];
			caches[j - 1] = t;
		}
	pd_feat_u32(&b, 1);
	pd_feat_u32(&b, nr);
	for (uint32_t i = 0; i < nr; i++) {
		pd_feat_u32(&b, caches[i].level);
		pd_feat_u32(&b, caches[i].line_size);
		pd_feat_u32(&b, caches[i].sets);
		pd_feat_u32(&b, caches[i].ways);
		pd_feat_string(&b, caches[i].type);
		pd_feat_string(&b, caches[i].size);
		pd_feat_string(&b, caches[i].map);
	}
	return pd_feat_commit(w, PD_FEAT_CACHE, &b);
}

void rec_machine_desc_write(struct pd_writer *w)
{
	bool online[MAX_CPUS] = { false };
	long conf = sysconf(_SC_NPROCESSORS_CONF);
	int nr_avail = conf > 0 && conf <= MAX_CPUS ? (int)conf : 1;
	char line[4096];

	/* each part on its own: one this machine lacks leaves the others */
	write_cpudesc(w);
	write_cpuid(w);
	write_total_mem(w);
	if (!read_line(SYS_CPU "/online", line, sizeof(line)) &&
	    parse_cpu_list(line, online, MAX_CPUS) > 0) {
		write_cpu_topology(w, online, nr_avail);
		write_caches(w, online, nr_avail);
	}
	write_numa(w);
	write_pmu_mappings(w);
	rec_pmu_caps_write(w, REC_PMU_DEVICES);
	write_mem_topology(w);
}
