// SPDX-License-Identifier: GPL-2.0
#include "reader/lbr_chain.h"

bool rd_lbr_chain(const struct pd_sample *smp, bool first_target, uint64_t *base_nr,
		  uint64_t *user, uint64_t *user_nr)
{
	const struct pd_sample_branch *b = &smp->branch;
	uint64_t i;

	if (!smp->evsel || !(smp->evsel->attr.attr.branch_sample_type & PERF_SAMPLE_BRANCH_CALL_STACK) ||
	    !(smp->evsel->attr.attr.sample_type & PERF_SAMPLE_BRANCH_STACK) || !b->nr ||
	    b->nr > RD_LBR_MAX)
		return false;
	for (i = 0; i < smp->chain.nr && smp->chain.ips[i] != PERF_CONTEXT_USER; i++)
		;
	if (i == smp->chain.nr)
		return false;
	*base_nr = i + 1;
	user[0] = first_target ? b->entries[1] : smp->ip;
	for (uint64_t k = 0; k < b->nr; k++)
		user[k + 1] = b->entries[3 * k];
	*user_nr = b->nr + 1;
	return true;
}
