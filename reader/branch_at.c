// SPDX-License-Identifier: GPL-2.0
#include "reader/branch_at.h"

char rd_branch_at(struct rd_session *s, struct rd_thread *t, uint64_t addr,
		  struct rd_resolved *r)
{
	rd_resolve(s, t, false, addr, r);
	if (r->dso)
		return '.';
	rd_resolve(s, t, true, addr, r);
	return r->dso ? 'k' : 'H';
}

void rd_branch_sym_bounds(const struct rd_resolved *r, uint64_t *start, uint64_t *end)
{
	uint64_t shift = 0, off;

	*start = *end = 0;
	if (!r->sym)
		return;
	if (r->obj && r->obj->exec && pc_dso_vaddr_to_off(r->obj, r->sym->start, &off))
		shift = r->sym->start - off;
	*start = r->sym->start - shift;
	*end = r->sym->end - shift;
}
