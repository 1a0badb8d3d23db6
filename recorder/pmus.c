// SPDX-License-Identifier: GPL-2.0
/* The PMUs of sysfs (see pmus.h). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "recorder/cpus.h"
#include "recorder/pmus.h"
#include "util/sys.h"

int rec_core_pmu(const char *devices_dir, char *name, size_t size)
{
	char path[4096];
	DIR *dir;
	struct dirent *d;

	name[0] = '\0';
	snprintf(path, sizeof(path), "%s/cpu", devices_dir);
	dir = opendir(path);
	if (dir) {
		closedir(dir);
		snprintf(name, size, "cpu");
		return 0;
	}
	dir = opendir(devices_dir);
	while (dir && (d = readdir(dir))) {
		if (d->d_name[0] == '.' || (name[0] && strcmp(d->d_name, name) >= 0))
			continue;
		if (snprintf(path, sizeof(path), "%s/%s/cpus", devices_dir, d->d_name) <
		    (int)sizeof(path) && !access(path, R_OK))
			snprintf(name, size, "%s", d->d_name);
	}
	if (dir)
		closedir(dir);
	return name[0] ? 0 : -1;
}

/* The PMU whose "type" file says type: 0 and its name, or -1 */
static int pmu_of_type(const char *devices_dir, uint32_t type, char *name, size_t size)
{
	DIR *dir = opendir(devices_dir);
	struct dirent *d;
	int ret = -1;

	while (dir && ret && (d = readdir(dir))) {
		char path[4096], buf[32];

		if (d->d_name[0] == '.' ||
		    snprintf(path, sizeof(path), "%s/%s/type", devices_dir, d->d_name) >=
		    (int)sizeof(path))
			continue;
		if (pc_read_file(path, buf, sizeof(buf)) > 0 && strtoul(buf, NULL, 10) == type) {
			snprintf(name, size, "%s", d->d_name);
			ret = 0;
		}
	}
	if (dir)
		closedir(dir);
	return ret;
}

int rec_own_cpus(const char *devices_dir, const struct perf_event_attr *a, int **cpus, int *nr)
{
	static const char *const files[] = { "cpumask", "cpus" };
	bool legacy = a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE;
	uint32_t ext = legacy ? (uint32_t)(a->config >> 32) : 0;
	char core[256], pmu[256], path[4096], list[4096];
	struct pc_error err = { 0 };
	bool have_core = !rec_core_pmu(devices_dir, core, sizeof(core));
	int ret;

	*cpus = NULL;
	*nr = 0;
	/* software, tracepoint, breakpoint: no cpus of their own */
	ret = -1;
	if (ext) {
		ret = pmu_of_type(devices_dir, ext, pmu, sizeof(pmu));
	} else if ((legacy || a->type == PERF_TYPE_RAW) && have_core) {
		snprintf(pmu, sizeof(pmu), "%s", core);
		ret = 0;
	} else if (a->type >= PERF_TYPE_MAX) {
		ret = pmu_of_type(devices_dir, a->type, pmu, sizeof(pmu));
	}
	if (ret)
		return 0;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s/%s", devices_dir, pmu, files[i]);
		if (pc_read_file(path, list, sizeof(list)) <= 0)
			continue;
		list[strcspn(list, "\n")] = '\0';
		if (!list[0])
			continue;
		ret = rec_cpus_parse(list, cpus, nr, &err);
		/* a list naming an offline cpu: perf's own cpus are of no use to us then */
		return ret == -ENOMEM ? ret : 0;
	}
	/* a core PMU listing none: the online cpus */
	if (!have_core || strcmp(core, pmu))
		return 0;
	ret = rec_cpus_parse(NULL, cpus, nr, &err);
	return ret == -ENOMEM ? ret : 0;
}
