// SPDX-License-Identifier: GPL-2.0
/*
 * perf's header listing (perf report --header-only, perf script --header):
 * the file's own numbers, then each feature present in bit order, the
 * topology-like ones only named ("info available"), then the features
 * absent.  Features perf 6.1 prints nothing for (BUILD_ID, empty PMU_CAPS)
 * print nothing here either; BPF_PROG_INFO and BPF_BTF: reader/bpf_header.c.
 * A malformed feature perf would show is "FILE: offset 0xOFF: what".
 */
#include "reader/perf_header.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "attr/attr.h"
#include "reader/bpf_header.h"
#include "reader/perf_header_misc.h"
#include "reader/perf_header_topo.h"

#define LAST_6_1_FEATURE 31	/* HEADER_PMU_CAPS: the last bit perf 6.1 knows */
#define LAST_7_2_FEATURE 34	/* HEADER_CLN_SIZE: perf 7.2's */

static int print_arg(const char *arg, void *ctx)
{
	rd_out_printf(ctx, "%s ", arg);
	return 0;
}

struct desc_ctx {
	struct rd_out *o;
	bool layout_7_2;
	bool type_shown;
	uint32_t type;
	uint64_t config;
	const char *name;	/* the event's */
};

static const char *const type_names[] = {
	"PERF_TYPE_HARDWARE", "PERF_TYPE_SOFTWARE", "PERF_TYPE_TRACEPOINT",
	"PERF_TYPE_HW_CACHE", "PERF_TYPE_RAW", "PERF_TYPE_BREAKPOINT",
};
static const char *const hw_names[] = {
	"PERF_COUNT_HW_CPU_CYCLES", "PERF_COUNT_HW_INSTRUCTIONS",
	"PERF_COUNT_HW_CACHE_REFERENCES", "PERF_COUNT_HW_CACHE_MISSES",
	"PERF_COUNT_HW_BRANCH_INSTRUCTIONS", "PERF_COUNT_HW_BRANCH_MISSES",
	"PERF_COUNT_HW_BUS_CYCLES", "PERF_COUNT_HW_STALLED_CYCLES_FRONTEND",
	"PERF_COUNT_HW_STALLED_CYCLES_BACKEND", "PERF_COUNT_HW_REF_CPU_CYCLES",
};
static const char *const sw_names[] = {
	"PERF_COUNT_SW_CPU_CLOCK", "PERF_COUNT_SW_TASK_CLOCK", "PERF_COUNT_SW_PAGE_FAULTS",
	"PERF_COUNT_SW_CONTEXT_SWITCHES", "PERF_COUNT_SW_CPU_MIGRATIONS",
	"PERF_COUNT_SW_PAGE_FAULTS_MIN", "PERF_COUNT_SW_PAGE_FAULTS_MAJ",
	"PERF_COUNT_SW_ALIGNMENT_FAULTS", "PERF_COUNT_SW_EMULATION_FAULTS",
	"PERF_COUNT_SW_DUMMY", "PERF_COUNT_SW_BPF_OUTPUT", "PERF_COUNT_SW_CGROUP_SWITCHES",
};
static const char *const cache_names[] = {
	"PERF_COUNT_HW_CACHE_L1D", "PERF_COUNT_HW_CACHE_L1I", "PERF_COUNT_HW_CACHE_LL",
	"PERF_COUNT_HW_CACHE_DTLB", "PERF_COUNT_HW_CACHE_ITLB", "PERF_COUNT_HW_CACHE_BPU",
	"PERF_COUNT_HW_CACHE_NODE",
};
static const char *const cache_ops[] = {
	"PERF_COUNT_HW_CACHE_OP_READ", "PERF_COUNT_HW_CACHE_OP_WRITE",
	"PERF_COUNT_HW_CACHE_OP_PREFETCH",
};
static const char *const cache_results[] = {
	"PERF_COUNT_HW_CACHE_RESULT_ACCESS", "PERF_COUNT_HW_CACHE_RESULT_MISS",
};

#define NAMED(v, names) ((v) < sizeof(names) / sizeof(names[0]) ? names[v] : NULL)

/* perf 7.2's "config = VALUE (NAME)": the name by the event's type, the value alone else */
static void config_7_2(const struct desc_ctx *c)
{
	const char *n = NULL;
	uint64_t v = c->config;

	rd_out_str(c->o, ", config = ");
	rd_out_printf(c->o, v ? "%#llx" : "0", (unsigned long long)v);
	switch (c->type) {
	case PERF_TYPE_HARDWARE:
		n = NAMED(v, hw_names);
		break;
	case PERF_TYPE_SOFTWARE:
		n = NAMED(v, sw_names);
		break;
	case PERF_TYPE_TRACEPOINT:
		n = c->name && strchr(c->name, ':') ? c->name : NULL;
		break;
	case PERF_TYPE_HW_CACHE: {
		const char *id = NAMED(v & 0xff, cache_names);
		const char *op = NAMED((v >> 8) & 0xff, cache_ops);
		const char *res = NAMED((v >> 16) & 0xff, cache_results);

		if (id && op && res && !(v >> 24))
			rd_out_printf(c->o, " (%s | %s | %s)", id, op, res);
		return;
	}
	default:
		break;
	}
	if (n)
		rd_out_printf(c->o, " (%s)", n);
}

static int desc_field(const char *name, const char *value, void *ctx)
{
	struct desc_ctx *c = ctx;

	if (c->layout_7_2) {
		/* perf 7.2: type and config always, each with its name */
		if (!strcmp(name, "config"))
			return 0;
		/* type comes before size, 0 included */
		if (!strcmp(name, "size") && !c->type_shown)
			rd_out_printf(c->o, ", type = 0 (%s)", type_names[0]);
		rd_out_printf(c->o, ", %s = %s", name, value);
		if (!strcmp(name, "type")) {
			c->type_shown = true;
			if (c->type < sizeof(type_names) / sizeof(type_names[0]))
				rd_out_printf(c->o, " (%s)", type_names[c->type]);
		}
		if (!strcmp(name, "size"))
			config_7_2(c);
		return 0;
	}
	/* perf 6.1 prints the type only when it is not 0 (PERF_TYPE_HARDWARE) */
	if (!strcmp(name, "type") && !strcmp(value, "0"))
		return 0;
	rd_out_printf(c->o, ", %s = %s", name, value);
	return 0;
}

/*
 * perf 6.1's check of each EVENT_DESC attr: none of its reserved bits set
 * (flags past sigtrap, the u16 after sample_max_stack, the u32 after
 * aux_sample_size), no sample_type, read_format or branch type it does not
 * know.  One that fails makes it print "event desc: not available".
 */
static int attr_known_6_1(const uint8_t *attr, uint32_t size, const char *name,
			  const uint8_t *ids, uint32_t nr_ids, void *ctx)
{
	uint64_t sample_type = 0, read_format = 0, flags = 0, branch = 0;
	uint32_t r3 = 0;
	uint16_t r2 = 0;

	(void)name;
	(void)ids;
	(void)nr_ids;
	(void)ctx;
	memcpy(&sample_type, attr + 24, 8);
	memcpy(&read_format, attr + 32, 8);
	memcpy(&flags, attr + 40, 8);
	if (size >= 80)
		memcpy(&branch, attr + 72, 8);
	if (size >= 112)
		memcpy(&r2, attr + 110, 2);
	if (size >= 120)
		memcpy(&r3, attr + 116, 4);
	if ((flags >> 38) || r2 || r3 || (sample_type & ~((1ULL << 25) - 1)) ||
	    (read_format & ~((1ULL << 5) - 1)) ||
	    ((sample_type & PERF_SAMPLE_BRANCH_STACK) && (branch & ~((1ULL << 19) - 1))))
		return -EPROTO;
	return 0;
}

/* one event of EVENT_DESC, from the feature's own data as perf prints it */
static int event_desc_one(const uint8_t *attr, uint32_t attr_size, const char *name,
			  const uint8_t *ids, uint32_t nr_ids, void *ctx)
{
	struct desc_ctx *c = ctx;
	struct rd_out *o = c->o;

	c->name = name;
	c->type_shown = false;
	memcpy(&c->type, attr, 4);
	if (attr_size >= 16)
		memcpy(&c->config, attr + 8, 8);
	rd_out_printf(o, "# event : name = %s, ", name);
	if (nr_ids) {
		rd_out_str(o, ", id = {");
		for (uint32_t j = 0; j < nr_ids; j++) {
			uint64_t id;

			memcpy(&id, ids + 8 * (size_t)j, 8);
			rd_out_printf(o, "%s %llu", j ? "," : "", (unsigned long long)id);
		}
		rd_out_str(o, " }");
	}
	pc_attr_for_each_field(attr, attr_size, desc_field, c);
	rd_out_char(o, '\n');
	return 0;
}

/* PMU_MAPPINGS: u32 count, then (u32 type, u32 len, name[len]) each */
static void pmu_mappings(struct rd_out *o, const uint8_t *p, size_t size)
{
	uint32_t nr, type, len;
	size_t off = 4;

	if (size < 4)
		return;
	memcpy(&nr, p, 4);
	rd_out_str(o, "# pmu mappings: ");
	for (uint32_t i = 0; i < nr; i++) {
		if (off + 8 > size)
			break;
		memcpy(&type, p + off, 4);
		memcpy(&len, p + off + 4, 4);
		off += 8;
		if (len > size - off)
			break;
		rd_out_printf(o, "%s%.*s = %u", i ? ", " : "", (int)strnlen((const char *)p + off, len),
			      (const char *)p + off, type);
		off += len;
	}
	rd_out_char(o, '\n');
}

/*
 * perf 7.2's features: CPU_DOMAIN_INFO (u32 schedstat version, u32 most
 * sched domains, then per cpu u32 cpu and u32 domains: shown up to the
 * first cpu with domains, whose layout is not read here), E_MACHINE (u32
 * ELF machine, u32 flags), CLN_SIZE (u32 cache line size)
 */
static void features_7_2(struct rd_out *o, int f, const uint8_t *p, size_t size, bool full)
{
	uint32_t v[2];

	switch (f) {
	case PD_FEAT_CPU_DOMAIN_INFO:
		if (!full) {
			rd_out_printf(o, "# %s info available, use -I to display\n",
				      pd_feature_name(f));
			break;
		}
		if (size < 8)
			break;
		memcpy(v, p, 8);
		rd_out_printf(o, "# schedstat version\t: %u\n# Maximum sched domains\t: %u\n",
			      v[0], v[1]);
		for (size_t off = 8; off + 8 <= size; off += 8) {
			memcpy(v, p + off, 8);
			rd_out_printf(o, "# cpu\t\t: %u\n# nr_domains\t: %u\n", v[0], v[1]);
			if (v[1])
				break;
		}
		break;
	case PD_FEAT_E_MACHINE:
		if (size >= 8) {
			memcpy(v, p, 8);
			rd_out_printf(o, "# e_machine : %u\n#   e_flags : %u\n", v[0], v[1]);
		}
		break;
	case PD_FEAT_CLN_SIZE:
		if (size >= 4) {
			memcpy(v, p, 4);
			rd_out_printf(o, "# cacheline size: %u\n", v[0]);
		}
		break;
	}
}

static void timestamp(struct rd_out *o, const char *what, uint64_t ns)
{
	rd_out_printf(o, "# %s : %llu.%06llu\n", what, (unsigned long long)(ns / 1000000000ULL),
		      (unsigned long long)(ns % 1000000000ULL / 1000));
}

int rd_perf_header_feature(struct rd_out *o, const struct pd_reader *r, int f, unsigned int how,
			   struct pc_error *err)
{
	static const char *const strings[] = {
		[PD_FEAT_HOSTNAME] = "hostname", [PD_FEAT_OSRELEASE] = "os release",
		[PD_FEAT_VERSION] = "perf version", [PD_FEAT_ARCH] = "arch",
		[PD_FEAT_CPUDESC] = "cpudesc", [PD_FEAT_CPUID] = "cpuid",
	};
	char buf[1024];
	uint32_t avail, online;
	uint64_t v[2];
	const void *vdata;
	const uint8_t *data;
	size_t size;

	if (pd_reader_feature(r, f, &vdata, &size))
		return 0;
	data = vdata;
	switch (f) {
	case PD_FEAT_HOSTNAME:
	case PD_FEAT_OSRELEASE:
	case PD_FEAT_VERSION:
	case PD_FEAT_ARCH:
	case PD_FEAT_CPUDESC:
	case PD_FEAT_CPUID:
		if (!pd_reader_feature_string(r, f, buf, sizeof(buf), NULL))
			rd_out_printf(o, "# %s : %s\n", strings[f], buf);
		break;
	case PD_FEAT_NRCPUS:
		if (!pd_reader_nrcpus(r, &avail, &online, NULL))
			rd_out_printf(o, "# nrcpus online : %u\n# nrcpus avail : %u\n", online, avail);
		break;
	case PD_FEAT_TOTAL_MEM:
		if (size >= 8) {
			memcpy(v, data, 8);
			rd_out_printf(o, "# total memory : %llu kB\n", (unsigned long long)v[0]);
		}
		break;
	case PD_FEAT_CMDLINE:
		rd_out_str(o, "# cmdline : ");
		pd_reader_cmdline(r, print_arg, o, NULL);
		rd_out_char(o, '\n');
		break;
	case PD_FEAT_EVENT_DESC: {
		struct pc_error ignored = { 0 };
		struct desc_ctx dc = { .o = o, .layout_7_2 = how & RD_HDR_7_2 };

		if (!dc.layout_7_2 &&
		    pd_reader_event_desc(r, attr_known_6_1, NULL, &ignored) == -EPROTO) {
			rd_out_str(o, "# event desc: not available or unable to read\n");
			break;
		}
		return pd_reader_event_desc(r, event_desc_one, &dc, err);
	}
	case PD_FEAT_CPU_TOPOLOGY:
	case PD_FEAT_NUMA_TOPOLOGY:
	case PD_FEAT_CACHE:
	case PD_FEAT_MEM_TOPOLOGY:
		if (!(how & RD_HDR_FULL))
			rd_out_printf(o, "# %s info available, use -I to display\n",
				      pd_feature_name(f));
		else
			rd_perf_header_topo(o, r, f, data, size);
		break;
	case PD_FEAT_BRANCH_STACK:
		rd_out_str(o, "# contains samples with branch stack\n");
		break;
	case PD_FEAT_PMU_MAPPINGS:
		pmu_mappings(o, data, size);
		break;
	case PD_FEAT_SAMPLE_TIME:
		if (size >= 16) {
			memcpy(v, data, 16);
			timestamp(o, "time of first sample", v[0]);
			timestamp(o, "time of last sample", v[1]);
			rd_out_printf(o, "# sample duration : %10.3f ms\n",
				      (double)(v[1] - v[0]) / 1e6);
		}
		break;
	case PD_FEAT_CPU_DOMAIN_INFO:
	case PD_FEAT_E_MACHINE:
	case PD_FEAT_CLN_SIZE:
		/* perf 7.2's own features: perf 6.1 reads none of them */
		if (how & RD_HDR_7_2)
			features_7_2(o, f, data, size, how & RD_HDR_FULL);
		break;
	case PD_FEAT_BPF_PROG_INFO:
		/* perf 7.2 says an empty one (perf 6.1 prints nothing) */
		if ((how & RD_HDR_7_2) && size <= 8)
			rd_out_str(o, "# bpf_prog_info empty\n");
		return rd_bpf_header_progs(o, r, err);
	case PD_FEAT_BPF_BTF:
		if ((how & RD_HDR_7_2) && size <= 8)
			rd_out_str(o, "# btf info empty\n");
		return rd_bpf_header_btfs(o, r, err);
	default:
		return rd_perf_header_misc(o, r, f, data, size, err);
	}
	return 0;
}

int rd_perf_header(struct rd_session *s, struct rd_out *o, unsigned int how,
		   struct pc_error *err)
{
	const struct pd_reader *r = &s->r;
	struct stat st;
	char when[64] = "";
	int missing = 0, ret;
	rd_out_str(o, "# ========\n");
	if (!stat(r->path, &st) || !fstat(STDIN_FILENO, &st)) {
		ctime_r(&st.st_mtime, when);
		when[strcspn(when, "\n")] = '\0';
	}
	/* a pipe: zeros; its features print as their records come (rd_perf_header_pipe) */
	if (r->pipe_format) {
		rd_out_printf(o, "# captured on    : %s\n", when);
		rd_out_str(o, "# header version : 1\n# data offset    : 0\n# data size      : 0\n"
			      "# feat offset    : 0\n# ========\n#\n");
		return 0;
	}
	{
		rd_out_printf(o, "# captured on    : %s\n", when);
		rd_out_str(o, "# header version : 1\n");
		rd_out_printf(o, "# data offset    : %llu\n", (unsigned long long)r->data_start);
		rd_out_printf(o, "# data size      : %llu\n",
			      (unsigned long long)(r->data_end - r->data_start));
		rd_out_printf(o, "# feat offset    : %llu\n", (unsigned long long)r->data_end);
	}
	for (int f = 1; f < PD_FEAT_BITS; f++) {
		ret = rd_perf_header_feature(o, r, f, how, err);
		if (ret)
			return ret;
	}
	for (int f = 1; f <= (how & RD_HDR_7_2 ? LAST_7_2_FEATURE : LAST_6_1_FEATURE); f++) {
		const void *data;
		size_t size;

		if (!pd_reader_feature(r, f, &data, &size) || !pd_feature_name(f))
			continue;
		if (!missing++)
			rd_out_str(o, "# missing features: ");
		rd_out_printf(o, "%s ", pd_feature_name(f));
	}
	if (missing)
		rd_out_char(o, '\n');
	rd_out_str(o, "# ========\n#\n");
	return 0;
}

static int on_feature(void *ctx, const struct pd_record *rec, struct pc_error *err)
{
	struct rd_pipe_header *ph = ctx;
	uint64_t feat;

	if (rec->header.type != PC_RECORD_HEADER_FEATURE ||
	    rec->header.size < sizeof(struct perf_event_header) + 8)
		return 0;
	memcpy(&feat, (const uint8_t *)rec->data + sizeof(struct perf_event_header), 8);
	if (feat >= PD_FEAT_BITS)
		return 0;
	return rd_perf_header_feature(ph->o, ph->r, (int)feat, ph->how, err);
}

void rd_perf_header_pipe(struct rd_session *s, struct rd_out *o, unsigned int how,
			 struct rd_pipe_header *ph)
{
	if (!s->r.pipe_format)
		return;
	*ph = (struct rd_pipe_header){ o, &s->r, how };
	s->in.tap = (struct rd_input_tap){ on_feature, ph };
}
