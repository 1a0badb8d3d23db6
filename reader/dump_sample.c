// SPDX-License-Identifier: GPL-2.0
/* A sample's fields in perf script -D's layout (perf 6.1). */
#include <stdio.h>

#include "reader/dump_sample.h"

static const char *abi_name(uint64_t abi)
{
	switch (abi) {
	case PERF_SAMPLE_REGS_ABI_32:
		return "32-bit";
	case PERF_SAMPLE_REGS_ABI_64:
		return "64-bit";
	default:
		return "none";
	}
}

static void regs(struct rd_out *o, const char *type, uint64_t mask,
		 const struct pd_sample_regs *r, enum pc_arch arch)
{
	unsigned int i = 0;

	if (!r->regs)
		return;
	rd_out_printf(o, "... %s regs: mask 0x%llx ABI %s\n", type, (unsigned long long)mask,
		      abi_name(r->abi));
	for (unsigned int bit = 0; bit < 64; bit++)
		if (mask & (1ULL << bit))
			rd_out_printf(o, ".... %-5s 0x%016llx\n", pc_reg_name(arch, bit),
				      (unsigned long long)r->regs[i++]);
}

/* perf 7.2 names a context marker after its value */
static const char *context_name(uint64_t ip)
{
	switch (ip) {
	case PC_CONTEXT_HV:
		return " (PERF_CONTEXT_HV)";
	case PC_CONTEXT_KERNEL:
		return " (PERF_CONTEXT_KERNEL)";
	case PC_CONTEXT_USER:
		return " (PERF_CONTEXT_USER)";
	case PC_CONTEXT_GUEST:
		return " (PERF_CONTEXT_GUEST)";
	case PC_CONTEXT_GUEST_KERNEL:
		return " (PERF_CONTEXT_GUEST_KERNEL)";
	case PC_CONTEXT_GUEST_USER:
		return " (PERF_CONTEXT_GUEST_USER)";
	case PC_CONTEXT_USER_DEFERRED:
		return " (PERF_CONTEXT_USER_DEFERRED)";
	default:
		return "";
	}
}

void rd_dump_chain(struct rd_out *o, const uint64_t *ips, uint64_t nr, bool deferred,
		   bool named)
{
	rd_out_printf(o, "... FP chain: nr:%llu\n", (unsigned long long)nr);
	for (uint64_t i = 0; i < nr; i++)
		rd_out_printf(o, "..... %2llu: %016llx%s\n", (unsigned long long)i,
			      (unsigned long long)ips[i], named ? context_name(ips[i]) : "");
	if (deferred)
		rd_out_str(o, "...... (deferred)\n");
}

static void read_values(struct rd_out *o, const struct pd_sample *smp, uint64_t rf)
{
	rd_out_str(o, "... sample_read:\n");
	if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED)
		rd_out_printf(o, "...... time enabled %016llx\n",
			      (unsigned long long)smp->read.time_enabled);
	if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING)
		rd_out_printf(o, "...... time running %016llx\n",
			      (unsigned long long)smp->read.time_running);
	if (rf & PERF_FORMAT_GROUP) {
		uint64_t per = 1 + !!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST);

		rd_out_printf(o, ".... group nr %llu\n", (unsigned long long)smp->read.nr);
		for (uint64_t i = 0; i < smp->read.nr; i++) {
			const uint64_t *v = smp->read.raw + i * per;

			rd_out_printf(o, "..... id %016llx, value %016llx",
				      (unsigned long long)((rf & PERF_FORMAT_ID) ? v[1] : 0),
				      (unsigned long long)v[0]);
			if (rf & PERF_FORMAT_LOST)
				rd_out_printf(o, ", lost %llu", (unsigned long long)v[per - 1]);
			rd_out_char(o, '\n');
		}
		return;
	}
	rd_out_printf(o, "..... id %016llx, value %016llx", (unsigned long long)smp->read.first.id,
		      (unsigned long long)smp->read.first.value);
	if (rf & PERF_FORMAT_LOST)
		rd_out_printf(o, ", lost %llu", (unsigned long long)smp->read.first.lost);
	rd_out_char(o, '\n');
}

void rd_dump_sample(struct rd_out *o, const struct pd_record *rec, const struct pd_sample *smp,
		    enum pc_arch arch, bool named)
{
	const struct perf_event_attr *a = &smp->evsel->attr.attr;
	uint64_t st = a->sample_type;

	rd_out_printf(o, "(IP, 0x%x): %d/%d: %#llx period: %llu addr: %#llx\n", rec->header.misc,
		      (int)smp->pid, (int)smp->tid, (unsigned long long)smp->ip,
		      (unsigned long long)smp->period, (unsigned long long)smp->addr);
	if (st & PERF_SAMPLE_CALLCHAIN)
		rd_dump_chain(o, smp->chain.ips, smp->chain.nr, smp->chain.deferred, named);
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		rd_out_printf(o, "... branch stack: nr:%llu\n", (unsigned long long)smp->branch.nr);
		for (uint64_t i = 0; i < smp->branch.nr; i++)
			rd_out_printf(o, ".....  %2llu: %016llx -> %016llx\n", (unsigned long long)i,
				      (unsigned long long)smp->branch.entries[3 * i],
				      (unsigned long long)smp->branch.entries[3 * i + 1]);
	}
	if (st & PERF_SAMPLE_REGS_USER)
		regs(o, "user", a->sample_regs_user, &smp->regs_user, arch);
	if (st & PERF_SAMPLE_REGS_INTR)
		regs(o, "intr", a->sample_regs_intr, &smp->regs_intr, arch);
	/* as perf: the size the kernel filled (dyn_size), the offset of the size word */
	if ((st & PERF_SAMPLE_STACK_USER) && smp->stack_user.data)
		rd_out_printf(o, "... ustack: size %llu, offset 0x%x\n",
			      (unsigned long long)smp->stack_user.dyn_size,
			      (unsigned)((const uint8_t *)smp->stack_user.data -
					 (const uint8_t *)rec->data - 8));
	if (st & PERF_SAMPLE_WEIGHT_STRUCT)
		/* var1 (32 bits), then instruction latency and pipeline stage cycles */
		rd_out_printf(o, "... weight: %llu,0x%x,0x%x\n",
			      (unsigned long long)(smp->mem.weight & 0xffffffff),
			      (unsigned)(smp->mem.weight >> 32 & 0xffff),
			      (unsigned)(smp->mem.weight >> 48));
	else if (st & PERF_SAMPLE_WEIGHT)
		rd_out_printf(o, "... weight: %llu\n", (unsigned long long)smp->mem.weight);
	if (st & PERF_SAMPLE_DATA_SRC)
		rd_out_printf(o, " . data_src: 0x%llx\n", (unsigned long long)smp->mem.data_src);
	if (st & PERF_SAMPLE_PHYS_ADDR)
		rd_out_printf(o, " .. phys_addr: 0x%llx\n", (unsigned long long)smp->mem.phys_addr);
	if (st & PERF_SAMPLE_TRANSACTION)
		rd_out_printf(o, "... transaction: %llx\n", (unsigned long long)smp->mem.transaction);
	if (st & PERF_SAMPLE_READ)
		read_values(o, smp, a->read_format);
}
