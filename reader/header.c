// SPDX-License-Identifier: GPL-2.0
/*
 * The header view of script -D --header: each attr with its ids, then each
 * feature section present, decoded where the library decodes it.
 */
#include <string.h>

#include "attr/attr.h"
#include "reader/dump.h"

static int print_arg(const char *arg, void *ctx)
{
	rd_out_printf(ctx, " %s", arg);
	return 0;
}

static int attr_field(const char *name, const char *value, void *ctx)
{
	rd_out_printf(ctx, "#   %-32s %s\n", name, value);
	return 0;
}

/* Each event: its name and ids, then its attr in perf's "perf_event_attr:" layout. */
static void attr_line(struct rd_out *o, const struct pd_evsel *e, uint32_t i)
{
	rd_out_printf(o, "# event %u: %s, attr.size %u in the file, ids %u:", i,
		      e->name ? e->name : "?", e->file_attr_size, e->nr_ids);
	for (uint32_t j = 0; j < e->nr_ids; j++)
		rd_out_printf(o, " %llu", (unsigned long long)e->ids[j]);
	rd_out_str(o, "\n# perf_event_attr:\n");
	pc_attr_for_each_field(e->attr.bytes, e->attr.attr.size, attr_field, o);
}

int rd_dump_header(struct rd_session *s, struct rd_out *o, struct pc_error *err)
{
	const struct pd_reader *r = &s->r;

	rd_out_printf(o, "# ========\n# %s: %s format, data at %#llx size %#llx%s\n", r->path,
		      r->pipe_format ? "pipe" : "file", (unsigned long long)r->data_start,
		      (unsigned long long)(r->data_end - r->data_start),
		      r->data_size_recovered ? " (recovered: header said 0)" : "");
	for (uint32_t i = 0; i < r->nr_evsels; i++)
		attr_line(o, &r->evsels[i], i);
	for (int f = 1; f < PD_FEAT_BITS; f++) {
		const char *name = pd_feature_name(f);
		const void *data;
		size_t size;
		char buf[512];
		uint32_t avail, online;

		if (pd_reader_feature(r, f, &data, &size))
			continue;
		rd_out_printf(o, "# feature %s (%d): %zu bytes", name ? name : "unknown", f, size);
		switch (f) {
		case PD_FEAT_HOSTNAME:
		case PD_FEAT_OSRELEASE:
		case PD_FEAT_VERSION:
		case PD_FEAT_ARCH:
		case PD_FEAT_CPUDESC:
		case PD_FEAT_CPUID:
			if (!pd_reader_feature_string(r, f, buf, sizeof(buf), NULL))
				rd_out_printf(o, ": %s", buf);
			break;
		case PD_FEAT_NRCPUS:
			if (!pd_reader_nrcpus(r, &avail, &online, NULL))
				rd_out_printf(o, ": %u available, %u online", avail, online);
			break;
		case PD_FEAT_PERFCHECK_OPEN:
			if (!pd_reader_feature_string(r, f, buf, sizeof(buf), NULL))
				for (char *l = strtok(buf, "\n"); l; l = strtok(NULL, "\n"))
					rd_out_printf(o, "\n#   %s", l);
			break;
		case PD_FEAT_CMDLINE:
			rd_out_char(o, ':');
			pd_reader_cmdline(r, print_arg, o, NULL);
			break;
		default:
			break;
		}
		rd_out_char(o, '\n');
	}
	rd_out_str(o, "# ========\n");
	return 0;
}
