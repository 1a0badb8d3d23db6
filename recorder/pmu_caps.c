// SPDX-License-Identifier: GPL-2.0
/*
 * The PMUs' capabilities, as perf record writes them: every file of
 * /sys/bus/event_source/devices/PMU/caps/ is one capability, its name the
 * file's and its value the file's first line (x86's cpu PMU has branches,
 * max_precise and pmu_name; arm64's armv8_pmuv3_0 has slots, and from 6.x
 * threshold_max, bus_slots, bus_width; intel_pt has a dozen).
 *
 *   CPU_PMU_CAPS (28): the core PMU's: u32 count, then per capability its
 *                      name and value as header strings.  The core PMU is
 *                      "cpu" where there is one, else one that lists its
 *                      cpus (arm64's), as perf 6.6 and later take it (perf
 *                      6.1 took "cpu" alone: on arm64 its files have no
 *                      CPU_PMU_CAPS, ours have one more line).  Left out
 *                      where there is no core PMU (a guest without a PMU;
 *                      perf 6.6 and later write an empty one there, for a
 *                      placeholder PMU they make up).
 *   PMU_CAPS (31):     u32 count of the PMUs other than "cpu" that have at
 *                      least one capability (arm64's core PMU among them),
 *                      then per PMU its capabilities as above and its name.
 *                      Written with a count of 0 on a machine where none
 *                      has any (perf 6.1 and 7.2 do so: their readers list
 *                      the feature as present).
 *
 * PMUs and capabilities come in their directories' order, as perf 6.1 reads
 * them.  A value file that is empty or unreadable is left out, as perf does.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfdata/perfdata.h"
#include "recorder/pmu_caps.h"
#include "recorder/pmus.h"
#include "util/sys.h"

/* perf reads one line of at most 127 bytes */
#define CAP_VALUE_MAX 128

/*
 * The capabilities of the PMU in dir (DEVICES/PMU), each name and value
 * appended to b: their count (0 when it has no caps/ directory).
 */
static uint32_t put_caps(struct pd_feat *b, const char *dir)
{
	char path[4096], value[CAP_VALUE_MAX];
	DIR *caps;
	struct dirent *d;
	uint32_t nr = 0;

	if (snprintf(path, sizeof(path), "%s/caps", dir) >= (int)sizeof(path))
		return 0;
	caps = opendir(path);
	if (!caps)
		return 0;
	while ((d = readdir(caps))) {
		if (d->d_name[0] == '.')
			continue;
		if (snprintf(path, sizeof(path), "%s/caps/%s", dir, d->d_name) >= (int)sizeof(path) ||
		    pc_read_file(path, value, sizeof(value)) <= 0)
			continue;
		/* the first line, its newline cut */
		value[strcspn(value, "\n")] = '\0';
		pd_feat_string(b, d->d_name);
		pd_feat_string(b, value);
		nr++;
	}
	closedir(caps);
	return nr;
}

/* One PMU's section: u32 count, then the strings put_caps wrote. */
static uint32_t put_pmu(struct pd_feat *b, const char *devices_dir, const char *pmu)
{
	struct pd_feat caps = { 0 };
	char dir[4096];
	uint32_t nr;

	snprintf(dir, sizeof(dir), "%s/%s", devices_dir, pmu);
	nr = put_caps(&caps, dir);
	pd_feat_u32(b, nr);
	pd_feat_put(b, caps.data, caps.len);
	b->oom |= caps.oom;
	free(caps.data);
	return nr;
}

static int write_cpu_pmu_caps(struct pd_writer *w, const char *devices_dir)
{
	struct pd_feat b = { 0 };
	char core[256];

	if (rec_core_pmu(devices_dir, core, sizeof(core)))
		return 0;
	put_pmu(&b, devices_dir, core);
	return pd_feat_commit(w, PD_FEAT_CPU_PMU_CAPS, &b);
}

static int write_pmu_caps(struct pd_writer *w, const char *devices_dir)
{
	struct pd_feat pmus = { 0 }, b = { 0 };
	DIR *dir = opendir(devices_dir);
	struct dirent *d;
	uint32_t nr = 0;

	while (dir && (d = readdir(dir))) {
		struct pd_feat one = { 0 };

		if (d->d_name[0] == '.' || !strcmp(d->d_name, "cpu"))
			continue;
		if (put_pmu(&one, devices_dir, d->d_name)) {
			pd_feat_put(&pmus, one.data, one.len);
			pd_feat_string(&pmus, d->d_name);
			nr++;
		}
		pmus.oom |= one.oom;
		free(one.data);
	}
	if (dir)
		closedir(dir);
	pd_feat_u32(&b, nr);
	pd_feat_put(&b, pmus.data, pmus.len);
	b.oom |= pmus.oom;
	free(pmus.data);
	return pd_feat_commit(w, PD_FEAT_PMU_CAPS, &b);
}

int rec_pmu_caps_write(struct pd_writer *w, const char *devices_dir)
{
	int ret = write_cpu_pmu_caps(w, devices_dir);

	return ret ? ret : write_pmu_caps(w, devices_dir);
}
