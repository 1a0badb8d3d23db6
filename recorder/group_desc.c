// SPDX-License-Identifier: GPL-2.0
/*
 * GROUP_DESC (17): u32 count of groups, then per group its name (a header
 * string), the index of its leader among the file's events and its number
 * of members, leader included.  perf counts only groups of two or more
 * ({a}:S is no group to it) and names one given without a name
 * "{anon_group}"; perf report shows such events as one group ("of events
 * 'anon group { a, b }'", a column per member) only when the file says so.
 */
#include "recorder/group_desc.h"

int rec_group_desc_write(struct pd_writer *w, const struct rec_evlist *evl)
{
	struct pd_feat b = { 0 };
	uint32_t nr = 0;

	for (int e = 0; e < evl->nr_evsels; e++)
		nr += evl->evsels[e]->leader == e && evl->evsels[e]->nr_members > 1;
	if (!nr)
		return 0;
	pd_feat_u32(&b, nr);
	for (int e = 0; e < evl->nr_evsels; e++) {
		const struct rec_evsel *ev = evl->evsels[e];

		if (ev->leader != e || ev->nr_members < 2)
			continue;
		pd_feat_string(&b, "{anon_group}");
		pd_feat_u32(&b, (uint32_t)e);
		pd_feat_u32(&b, (uint32_t)ev->nr_members);
	}
	return pd_feat_commit(w, PD_FEAT_GROUP_DESC, &b);
}
