// SPDX-License-Identifier: GPL-2.0
/*
 * The header lines of perf 6.1 for the smaller features: GROUP_DESC
 * ("# group: NAME{a,b}"), CLOCKID, CLOCK_DATA, COMPRESSED, AUXTRACE, STAT
 * and DIR_FORMAT.  Each payload's length is checked; a short one prints
 * nothing (perf refuses the file's header there).
 */
#include "reader/perf_header_misc.h"
#include "reader/tod.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

struct groups_out {
	struct rd_out *o;
	const struct pd_reader *r;
};

static int group_line(const char *name, uint32_t leader, uint32_t nr, void *ctx)
{
	struct groups_out *g = ctx;

	if (nr < 2)
		return 0;
	/* the anonymous group prints no name */
	rd_out_printf(g->o, "# group: %s{", strcmp(name, "{anon_group}") ? name : "");
	for (uint32_t i = leader; i < leader + nr; i++) {
		const char *n = g->r->evsels[i].name;

		rd_out_printf(g->o, "%s%s", i == leader ? "" : ",", n ? n : "");
	}
	rd_out_str(g->o, "}\n");
	return 0;
}

/* perf's name of a clock: the first of its table that has the id */
static const char *clock_name(uint32_t id)
{
	static const struct { const char *name; uint32_t id; } names[] = {
		{ "monotonic", 1 }, { "monotonic_raw", 4 }, { "realtime", 0 }, { "boottime", 7 },
		{ "tai", 11 }, { "monotonic_coarse", 6 }, { "realtime_coarse", 5 },
		{ "realtime_alarm", 8 }, { "boottime_alarm", 9 },
	};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (names[i].id == id)
			return names[i].name;
	return "(not found)";
}

static void clock_data(struct rd_out *o, const struct pd_reader *r)
{
	struct pd_clock_data c;
	char date[64];

	if (pd_reader_clock_data(r, &c))
		return;
	rd_tod_text(c.tod_ns, date, sizeof(date));
	rd_out_printf(o, "# clockid: %s (%u)\n", clock_name(c.clockid), c.clockid);
	rd_out_printf(o, "# reference time: %s = %ld.%06d (TOD) = %ld.%09ld (%s)\n", date,
		      (long)(c.tod_ns / 1000000000ULL), (int)(c.tod_ns % 1000000000ULL / 1000),
		      (long)(c.clockid_ns / 1000000000ULL), (long)(c.clockid_ns % 1000000000ULL),
		      clock_name(c.clockid));
}

/* a perf_header_string at *off: its text, or NULL past the payload */
static const char *payload_string(const uint8_t *p, size_t size, size_t *off)
{
	uint32_t len;
	const char *s;

	if (size - *off < 4)
		return NULL;
	memcpy(&len, p + *off, 4);
	if (!len || len > size - *off - 4 || !memchr(p + *off + 4, '\0', len))
		return NULL;
	s = (const char *)p + *off + 4;
	*off += 4 + (size_t)len;
	return s;
}

/* u32 caps, then name and value strings each; o NULL: only checked */
static int caps_line(struct rd_out *o, const uint8_t *p, size_t size, size_t *off,
		     const char *pmu_at_end)
{
	uint32_t nr;
	size_t at;
	const char *name, *value, *pmu;

	if (size - *off < 4)
		return -1;
	memcpy(&nr, p + *off, 4);
	*off += 4;
	at = *off;
	for (uint32_t i = 0; i < nr; i++)
		if (!payload_string(p, size, off) || !payload_string(p, size, off))
			return -1;
	pmu = pmu_at_end ? pmu_at_end : payload_string(p, size, off);
	if (!pmu)
		return -1;
	if (!o)
		return 0;
	if (!nr) {
		rd_out_printf(o, "# %s pmu capabilities: not available\n", pmu);
		return 0;
	}
	rd_out_printf(o, "# %s pmu capabilities: ", pmu);
	for (uint32_t i = 0; i < nr; i++) {
		name = payload_string(p, size, &at);
		value = payload_string(p, size, &at);
		rd_out_printf(o, "%s%s=%s", i ? ", " : "", name, value);
	}
	rd_out_char(o, '\n');
	return 0;
}

/*
 * CPU_PMU_CAPS: the cpu PMU's capabilities; PMU_CAPS: u32 PMUs, each its
 * capabilities and then its name.  "NAME=VALUE" joined by ", ".  A section
 * whose counts run past its end is an error naming the section's offset
 * (perf drops such a feature; nothing of it is printed here either).
 */
static int pmu_caps(struct rd_out *o, const struct pd_reader *r, const uint8_t *p,
		    size_t size, bool several, struct pc_error *err)
{
	size_t off = 0;
	uint32_t nr = 1;
	int f = several ? PD_FEAT_PMU_CAPS : PD_FEAT_CPU_PMU_CAPS;

	if (several) {
		if (size < 4)
			return pc_error_set(err, EINVAL,
					    "%s: offset 0x%llx: PMU_CAPS: %zu bytes, too short for its count of PMUs",
					    r->path, (unsigned long long)r->features[f].offset, size);
		memcpy(&nr, p, 4);
		off = 4;
	}
	/* checked whole first: a bad section prints nothing */
	for (uint32_t i = 0; i < nr; i++)
		if (caps_line(NULL, p, size, &off, several ? NULL : "cpu"))
			return pc_error_set(err, EINVAL,
					    "%s: offset 0x%llx: %s: the capabilities of PMU %u of %u run past the section's %zu bytes",
					    r->path, (unsigned long long)r->features[f].offset,
					    several ? "PMU_CAPS" : "CPU_PMU_CAPS", i + 1, nr, size);
	off = several ? 4 : 0;
	for (uint32_t i = 0; i < nr; i++)
		caps_line(o, p, size, &off, several ? NULL : "cpu");
	return 0;
}

int rd_perf_header_misc(struct rd_out *o, const struct pd_reader *r, int f, const uint8_t *p,
			size_t size, struct pc_error *err)
{
	uint32_t v[4];
	uint64_t u;

	switch (f) {
	case PD_FEAT_GROUP_DESC: {
		struct groups_out g = { o, r };

		return pd_reader_groups(r, group_line, &g, err);
	}
	case PD_FEAT_AUXTRACE:
		rd_out_str(o, "# contains AUX area data (e.g. instruction trace)\n");
		break;
	case PD_FEAT_STAT:
		rd_out_str(o, "# contains stat data\n");
		break;
	case PD_FEAT_CLOCKID:
		if (size >= 8) {
			memcpy(&u, p, 8);
			rd_out_printf(o, "# clockid frequency: %llu MHz\n",
				      (unsigned long long)(u * 1000));
		}
		break;
	case PD_FEAT_DIR_FORMAT:
		if (size >= 8) {
			memcpy(&u, p, 8);
			rd_out_printf(o, "# directory data version : %llu\n", (unsigned long long)u);
		}
		break;
	case PD_FEAT_COMPRESSED:
		/* u32 version, type, level, ratio, mmap_len */
		if (size >= 16) {
			memcpy(v, p, 16);
			rd_out_printf(o, "# compressed : %s, level = %d, ratio = %d\n",
				      v[1] == 1 ? "Zstd" : "Unknown", (int)v[2], (int)v[3]);
		}
		break;
	case PD_FEAT_CLOCK_DATA:
		clock_data(o, r);
		break;
	case PD_FEAT_CPU_PMU_CAPS:
		return pmu_caps(o, r, p, size, false, err);
	case PD_FEAT_PMU_CAPS:
		return pmu_caps(o, r, p, size, true, err);
	default:
		break;
	}
	return 0;
}
