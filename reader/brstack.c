// SPDX-License-Identifier: GPL-2.0
/*
 * Each entry: brstack " 0xFROM/0xTO", brstackoff the same with addresses
 * map-relative where a map holds them, brstacksym "sym+0xoff/sym+0xoff"
 * (no blank before it); "(dso)" after each address with -F dso; then
 * "/M|P|-/X|-/A|-/CYCLES/TYPE " (mispredicted or predicted, in a
 * transaction, aborted, cycles, the branch type's name or nothing).
 * perf 7.2 adds "N" after M or P for a branch not taken (bit 33 of the
 * flags, perf's own) and "/SPEC" (the speculation outcome's name, or "-").
 */
#include "reader/brstack.h"

#include "reader/a2l_answer.h"
#include "reader/fields.h"

/* perf's names of PERF_BR_* and, for PERF_BR_EXTEND_ABI, of PERF_BR_NEW_* (as on x86 hosts) */
static const char *type_name(const struct pd_branch_flags *fl)
{
	static const char *const types[] = {
		"", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET", "SYSCALL", "SYSRET",
		"COND_CALL", "COND_RET", "ERET", "IRQ", "SERROR", "NO_TX",
	};
	static const char *const new_types[] = {
		"FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARCH_1", "ARCH_2", "ARCH_3", "ARCH_4",
		"ARCH_5",
	};

	if (fl->type < sizeof(types) / sizeof(types[0]))
		return types[fl->type];
	if (fl->new_type < sizeof(new_types) / sizeof(new_types[0]))
		return new_types[fl->new_type];
	return "(null)";
}

static void flags(struct rd_out *o, uint64_t w, bool layout_7_2)
{
	static const char *const spec[] = {
		"-", "SPEC_WRONG_PATH", "NON_SPEC_CORRECT_PATH", "SPEC_CORRECT_PATH",
	};
	struct pd_branch_flags fl = pd_branch_flags(w);
	bool not_taken = layout_7_2 && ((w >> 33) & 1);

	rd_out_char(o, '/');
	if (!fl.predicted && !fl.mispred && !not_taken) {
		rd_out_char(o, '-');
	} else {
		rd_out_char(o, fl.predicted ? 'P' : 'M');
		if (not_taken)
			rd_out_char(o, 'N');
	}
	rd_out_char(o, '/');
	rd_out_char(o, fl.in_tx ? 'X' : '-');
	rd_out_char(o, '/');
	rd_out_char(o, fl.abort ? 'A' : '-');
	rd_out_char(o, '/');
	rd_out_u64(o, fl.cycles, 0);
	rd_out_char(o, '/');
	rd_out_str(o, type_name(&fl));
	if (layout_7_2) {
		rd_out_char(o, '/');
		rd_out_str(o, spec[fl.spec]);
	}
	rd_out_char(o, ' ');
}

static void dso(struct rd_out *o, const struct rd_resolved *r)
{
	rd_out_char(o, '(');
	if (r->dso)
		rd_out_mem(o, r->dso, r->dso_len);
	else
		rd_out_mem(o, "[unknown]", 9);
	rd_out_char(o, ')');
}

/* one end of a branch as the field asks */
static void end(struct rd_out *o, struct rd_session *s, const struct rd_event *ev,
		unsigned int f, uint64_t addr)
{
	struct rd_resolved r;

	/* perf looks in the sample's cpumode, then the other: the kernel's half decides here */
	rd_resolve(s, ev->thread, addr >= 0xffff800000000000ULL, addr, &r);
	if (f & RF_BRSTACKSYM) {
		if (r.sym) {
			rd_out_mem(o, r.sym->name, r.sym->name_len);
			rd_out_mem(o, "+0x", 3);
			rd_out_hex(o, r.off, 0);
		} else {
			rd_out_mem(o, "[unknown]", 9);
		}
	} else {
		rd_out_mem(o, "0x", 2);
		/* perf's map_ip where the object's symbols are not adjusted (not ET_EXEC) */
		rd_out_hex(o, (f & RF_BRSTACKOFF) && r.dso ? rd_a2l_addr(&r) : addr, 0);
	}
	if (f & RF_DSO)
		dso(o, &r);
}

void rd_brstack_print(struct rd_out *o, struct rd_session *s, const struct rd_event *ev,
		      unsigned int f, bool layout_7_2)
{
	const struct pd_sample_branch *br = &ev->sample->branch;
	unsigned int which = f & RF_BRSTACK ? RF_BRSTACK :
			     f & RF_BRSTACKSYM ? RF_BRSTACKSYM : RF_BRSTACKOFF;

	f = (f & ~(RF_BRSTACK | RF_BRSTACKSYM | RF_BRSTACKOFF)) | which;
	for (uint64_t i = 0; i < br->nr; i++) {
		const uint64_t *e = &br->entries[3 * i];

		if (which != RF_BRSTACKSYM)
			rd_out_char(o, ' ');
		end(o, s, ev, f, e[0]);
		rd_out_char(o, '/');
		end(o, s, ev, f, e[1]);
		flags(o, e[2], layout_7_2);
	}
}
