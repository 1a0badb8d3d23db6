// SPDX-License-Identifier: GPL-2.0
#include "reader/sample_fields.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/brstack.h"
#include "perfdata/codec.h"
#include "reader/datasrc.h"
#include "symbols/regs.h"
#include "uapi/perf_compat.h"

/*
 * PERF_SAMPLE_WEIGHT_STRUCT splits the weight word: the low 32 bits are
 * the weight, the next 16 the instruction latency; a plain WEIGHT is the
 * whole word and has no latency.
 */
static uint64_t weight_of(const struct pd_sample *smp)
{
	if (smp->evsel && (smp->evsel->attr.attr.sample_type & PERF_SAMPLE_WEIGHT_STRUCT))
		return (uint32_t)smp->mem.weight;
	return smp->mem.weight;
}

static uint64_t ins_lat_of(const struct pd_sample *smp)
{
	if (smp->evsel && (smp->evsel->attr.attr.sample_type & PERF_SAMPLE_WEIGHT_STRUCT))
		return (uint16_t)(smp->mem.weight >> 32);
	return 0;
}

/* "%16llx |OP ...", left-aligned in the widest such text printed yet (perf's 100 bytes at most) */
static void data_src(struct rd_sample_fields *sf, struct rd_out *o, uint64_t v)
{
	char decode[100], text[100];
	int len;

	rd_data_src_text(v, sf->layout_7_2, decode, sizeof(decode));
	len = snprintf(text, sizeof(text), "%16llx %s", (unsigned long long)v, decode);
	if (len > (int)sizeof(text) - 1)
		len = (int)sizeof(text) - 1;
	if (len > sf->data_src_width)
		sf->data_src_width = len;
	rd_out_pad(o, text, -sf->data_src_width);
}

int rd_sample_fields_record(struct rd_sample_fields *sf, struct rd_session *s,
			    const struct pd_record *rec, struct pc_error *err)
{
	struct rd_cgroup_name *n;
	struct pd_cgroup c;
	int ret;

	if (rec->header.type != PC_RECORD_CGROUP)
		return 0;
	ret = pd_parse_cgroup(&s->r, rec, &c, NULL, err);
	if (ret)
		return ret;
	if (sf->nr_cgroups == sf->cap_cgroups) {
		size_t cap = sf->cap_cgroups ? 2 * sf->cap_cgroups : 16;

		n = realloc(sf->cgroups, cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		sf->cgroups = n;
		sf->cap_cgroups = cap;
	}
	n = &sf->cgroups[sf->nr_cgroups];
	n->id = c.id;
	n->path = strdup(c.path);
	if (!n->path)
		return -ENOMEM;
	sf->nr_cgroups++;
	return 0;
}

/* " PATH" of the sample's cgroup, " unknown" when no record named it (the latest naming wins) */
static void cgroup(const struct rd_sample_fields *sf, struct rd_out *o, uint64_t id)
{
	const char *name = "unknown";

	for (size_t i = sf->nr_cgroups; i-- > 0;)
		if (sf->cgroups[i].id == id) {
			name = sf->cgroups[i].path;
			break;
		}
	rd_out_char(o, ' ');
	rd_out_str(o, name);
}

void rd_sample_fields_before_ip(struct rd_sample_fields *sf, struct rd_out *o,
				const struct pd_sample *smp, unsigned int f)
{
	if (f & RF_DATA_SRC)
		data_src(sf, o, smp->mem.data_src);
	if (f & RF_WEIGHT)
		rd_out_u64(o, weight_of(smp), 16);
	if (f & RF_INS_LAT)
		rd_out_u64(o, ins_lat_of(smp), 16);
	if (f & RF_CGROUP)
		cgroup(sf, o, smp->cgroup);
}

/*
 * perf's page size names: the size in the largest unit of B, K, M, G that
 * leaves more than 1024 of the next below ("1024B", "4K", "2M", "1024M"),
 * "N/A" for 0.
 */
static void page_size(struct rd_out *o, uint64_t size)
{
	static const char unit[] = "BKMG";
	int i = 0;

	rd_out_char(o, ' ');
	if (!size) {
		rd_out_mem(o, "N/A", 3);
		return;
	}
	while (size / 1024 > 1 && i < 3) {
		size /= 1024;
		i++;
	}
	rd_out_u64(o, size, 0);
	rd_out_char(o, unit[i]);
}

/* " ABI:N " then "%5s:0x%llx " per register of the mask; nothing without registers */
static void regs(struct rd_out *o, const struct pd_sample_regs *r, uint64_t mask, int arch)
{
	unsigned int i = 0;

	if (!r->regs)
		return;
	rd_out_mem(o, " ABI:", 5);
	rd_out_u64(o, r->abi, 0);
	rd_out_char(o, ' ');
	for (unsigned int bit = 0; bit < 64; bit++) {
		if (!(mask & (1ULL << bit)))
			continue;
		rd_out_pad(o, pc_reg_name((enum pc_arch)arch, bit), 5);
		rd_out_mem(o, ":0x", 3);
		rd_out_hex(o, r->regs[i++], 0);
		rd_out_char(o, ' ');
	}
}

/* perf names registers by the recording's arch (its ARCH header), this host's when absent */
static int file_arch(struct rd_sample_fields *sf, struct rd_session *s)
{
	char name[64];

	if (sf->arch >= 0)
		return sf->arch;
	if (pd_reader_feature_string(&s->r, PD_FEAT_ARCH, name, sizeof(name), NULL))
		sf->arch = PC_ARCH_X86_64;
	else
		sf->arch = pc_arch_from_name(name);
	return sf->arch;
}

void rd_sample_fields_after_ip(struct rd_sample_fields *sf, struct rd_out *o,
			       struct rd_session *s, const struct rd_event *ev, unsigned int f)
{
	const struct pd_sample *smp = ev->sample;
	const struct perf_event_attr *a = smp->evsel ? &smp->evsel->attr.attr : NULL;

	if ((f & RF_IREGS) && a)
		regs(o, &smp->regs_intr, a->sample_regs_intr, file_arch(sf, s));
	if ((f & RF_UREGS) && a)
		regs(o, &smp->regs_user, a->sample_regs_user, file_arch(sf, s));
	if (f & (RF_BRSTACK | RF_BRSTACKSYM | RF_BRSTACKOFF))
		rd_brstack_print(o, s, ev, f, sf->layout_7_2);
	if (f & RF_PHYS_ADDR)
		rd_out_hex(o, smp->mem.phys_addr, 16);
	if (f & RF_DATA_PAGE_SIZE)
		page_size(o, smp->mem.data_page_size);
	if (f & RF_CODE_PAGE_SIZE)
		page_size(o, smp->mem.code_page_size);
}

/*
 * A letter per cpumode whose bits are all in misc (so a hypervisor's 3
 * shows as "KUH", as perf's test does), then the record type's own: M for
 * MMAP data, E for an exec COMM, S (and p) for a switch out (preempted).
 */
void rd_sample_fields_misc(struct rd_out *o, const struct pd_record *rec)
{
	static const char modes[] = "KUHGg";
	uint16_t misc = rec->header.misc;
	int n = 0;

	for (unsigned int m = 1; m <= 5; m++)
		if ((misc & m) == m) {
			rd_out_char(o, modes[m - 1]);
			n++;
		}
	switch (rec->header.type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if (misc & PERF_RECORD_MISC_MMAP_DATA) {
			rd_out_char(o, 'M');
			n++;
		}
		break;
	case PERF_RECORD_COMM:
		if (misc & PERF_RECORD_MISC_COMM_EXEC) {
			rd_out_char(o, 'E');
			n++;
		}
		break;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		if (misc & PERF_RECORD_MISC_SWITCH_OUT) {
			rd_out_char(o, 'S');
			n++;
			if (misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) {
				rd_out_char(o, 'p');
				n++;
			}
		}
		break;
	default:
		break;
	}
	/* perf's "%*s" of " " in 6 - n columns: at least one blank */
	rd_out_pad(o, " ", 6 - n > 1 ? 6 - n : 1);
}

void rd_sample_fields_free(struct rd_sample_fields *sf)
{
	if (!sf)
		return;
	for (size_t i = 0; i < sf->nr_cgroups; i++)
		free(sf->cgroups[i].path);
	free(sf->cgroups);
	free(sf);
}
