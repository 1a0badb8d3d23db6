// SPDX-License-Identifier: GPL-2.0
/*
 * The file says what the kernel refused: per event, the attr features it
 * asked for and those the open ladder cleared, in perfcheck's own header
 * section (PD_FEAT_PERFCHECK_OPEN), one line per event:
 *
 *   cpu-clock: requested sample_id_all,mmap2,defer_callchain; cleared defer_callchain
 *
 * A recording made on an older kernel thus carries its own explanation of
 * why (say) it holds no deferred callchains.
 */
#include <stdio.h>
#include <string.h>

#include "probes/probe.h"
#include "recorder/open_features.h"

/* Before the first open: the ladder edits the attr, so ask it now. */
void rec_open_features_requested(struct rec_evsel *ev)
{
	ev->requested = 0;
	ev->cleared = 0;
	for (int f = 0; f < PC_FEAT__COUNT; f++)
		if (pc_feature_requested(f, &ev->attr, PERF_FLAG_FD_CLOEXEC))
			ev->requested |= 1ULL << f;
}

static void put_list(char *buf, size_t size, size_t *len, uint64_t bits)
{
	bool first = true;

	for (int f = 0; f < PC_FEAT__COUNT; f++) {
		if (!(bits & (1ULL << f)))
			continue;
		if (*len < size)
			*len += snprintf(buf + *len, size - *len, "%s%s", first ? "" : ",",
					 pc_feature_name(f));
		first = false;
	}
	if (first && *len < size)
		*len += snprintf(buf + *len, size - *len, "-");
}

int rec_open_features_write(struct pd_writer *w, const struct rec_evlist *evl)
{
	char buf[4096];
	size_t len = 0;

	for (int e = 0; e < evl->nr_evsels && len < sizeof(buf); e++) {
		const struct rec_evsel *ev = evl->evsels[e];

		len += snprintf(buf + len, sizeof(buf) - len, "%s%s: requested ",
				e ? "\n" : "", ev->name);
		put_list(buf, sizeof(buf), &len, ev->requested);
		if (len < sizeof(buf))
			len += snprintf(buf + len, sizeof(buf) - len, "; cleared ");
		put_list(buf, sizeof(buf), &len, ev->cleared);
	}
	return pd_writer_set_string(w, PD_FEAT_PERFCHECK_OPEN, buf);
}
