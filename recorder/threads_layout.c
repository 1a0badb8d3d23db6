// SPDX-License-Identifier: GPL-2.0
/*
 * --threads: rings to reading threads.  cpu, core, package and numa give
 * one thread per group of the recording's cpus (perf's layouts; a group
 * with none of them gets no thread, where perf refuses the recording), the
 * thread kept on its group's recording cpus; a user SPEC gives one thread
 * per MAPS/AFFINITY pair.  Each ring is read by exactly one thread.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "recorder/threads_layout.h"
#include "util/sys.h"

#define SYS_CPU "/sys/devices/system/cpu"

/* The first cpu of a topology list file (the newer name, else the older). */
static int first_cpu_of(int cpu, const char *name, const char *old_name)
{
	char path[128], buf[256];

	snprintf(path, sizeof(path), SYS_CPU "/cpu%d/topology/%s", cpu, name);
	if (pc_read_file(path, buf, sizeof(buf)) < 0) {
		snprintf(path, sizeof(path), SYS_CPU "/cpu%d/topology/%s", cpu, old_name);
		if (pc_read_file(path, buf, sizeof(buf)) < 0)
			return cpu;
	}
	return buf[0] >= '0' && buf[0] <= '9' ? atoi(buf) : cpu;
}

/* cpuN/nodeM names the cpu's node; a machine without NUMA is one node */
static int node_of(int cpu)
{
	char path[128];
	struct dirent *e;
	DIR *d;
	int node = 0;

	snprintf(path, sizeof(path), SYS_CPU "/cpu%d", cpu);
	d = opendir(path);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		if (!strncmp(e->d_name, "node", 4) && e->d_name[4] >= '0' && e->d_name[4] <= '9') {
			node = atoi(e->d_name + 4);
			break;
		}
	}
	closedir(d);
	return node;
}

int rec_threads_sysfs_group(int cpu, enum rec_threads_kind kind, void *ctx)
{
	(void)ctx;
	switch (kind) {
	case REC_THREADS_CORE:
		return first_cpu_of(cpu, "core_cpus_list", "thread_siblings_list");
	case REC_THREADS_PACKAGE:
		return first_cpu_of(cpu, "package_cpus_list", "core_siblings_list");
	case REC_THREADS_NUMA:
		return node_of(cpu);
	default:
		return cpu;
	}
}

static int alloc_layout(struct rec_threads_layout *out, int nr_rings, struct pc_error *err)
{
	memset(out, 0, sizeof(*out));
	out->ring_thread = calloc(nr_rings ? nr_rings : 1, sizeof(int));
	out->affinity = calloc(nr_rings ? nr_rings : 1, sizeof(cpu_set_t));
	if (!out->ring_thread || !out->affinity) {
		rec_threads_layout_free(out);
		return pc_error_set(err, ENOMEM, "out of memory");
	}
	return 0;
}

/* cpu, core, package, numa: a thread per group met, in the order of the rings */
static int by_group(const struct rec_threads_spec *spec, const int *ring_cpus, int nr_rings,
		    rec_cpu_group_fn group, void *ctx, struct rec_threads_layout *out,
		    struct pc_error *err)
{
	int *keys = calloc(nr_rings ? nr_rings : 1, sizeof(int));

	if (!keys)
		return pc_error_set(err, ENOMEM, "out of memory");
	for (int i = 0; i < nr_rings; i++) {
		int t = -1;

		keys[i] = spec->kind == REC_THREADS_CPU ? ring_cpus[i] :
			  group(ring_cpus[i], spec->kind, ctx);
		for (int j = 0; j < i && t < 0; j++)
			if (keys[j] == keys[i])
				t = out->ring_thread[j];
		if (t < 0) {
			t = out->nr_threads++;
			CPU_ZERO(&out->affinity[t]);
		}
		out->ring_thread[i] = t;
		if (ring_cpus[i] >= 0 && ring_cpus[i] < CPU_SETSIZE)
			CPU_SET(ring_cpus[i], &out->affinity[t]);
	}
	free(keys);
	return 0;
}

/* a user SPEC: a thread per MAPS/AFFINITY pair, each mask cut to the recording's cpus */
static int by_masks(const struct rec_threads_spec *spec, const char *text, const int *ring_cpus,
		    int nr_rings, struct rec_threads_layout *out, struct pc_error *err)
{
	cpu_set_t rec_cpus;
	cpu_set_t *aff;

	CPU_ZERO(&rec_cpus);
	for (int i = 0; i < nr_rings; i++) {
		out->ring_thread[i] = -1;
		if (ring_cpus[i] >= 0 && ring_cpus[i] < CPU_SETSIZE)
			CPU_SET(ring_cpus[i], &rec_cpus);
	}
	aff = realloc(out->affinity, (spec->nr_masks ? spec->nr_masks : 1) * sizeof(*aff));
	if (!aff)
		return pc_error_set(err, ENOMEM, "out of memory");
	out->affinity = aff;
	for (int t = 0; t < spec->nr_masks; t++) {
		const struct rec_threads_mask *m = &spec->masks[t];
		cpu_set_t maps;
		int n = 0;

		CPU_AND(&maps, &m->maps, &rec_cpus);
		CPU_AND(&out->affinity[t], &m->affinity, &rec_cpus);
		for (int i = 0; i < nr_rings; i++)
			if (ring_cpus[i] >= 0 && ring_cpus[i] < CPU_SETSIZE &&
			    CPU_ISSET(ring_cpus[i], &maps)) {
				out->ring_thread[i] = t;
				n++;
			}
		/* perf's rules: a mask with none of the recording's cpus is refused */
		if (!n)
			return pc_error_set(err, EINVAL, "--threads=%s: thread %d's maps mask has "
					    "no cpu of the recording", text, t + 1);
		if (!CPU_COUNT(&out->affinity[t]))
			return pc_error_set(err, EINVAL, "--threads=%s: thread %d's affinity mask "
					    "has no cpu of the recording", text, t + 1);
	}
	out->nr_threads = spec->nr_masks;
	for (int i = 0; i < nr_rings; i++)
		if (out->ring_thread[i] < 0)
			/* its ring would be read by no one: the kernel would drop its records */
			return pc_error_set(err, EINVAL, "--threads=%s: cpu %d of the recording is "
					    "in no maps mask", text, ring_cpus[i]);
	return 0;
}

int rec_threads_layout(const struct rec_threads_spec *spec, const char *spec_text,
		       const int *ring_cpus, int nr_rings, rec_cpu_group_fn group, void *ctx,
		       struct rec_threads_layout *out, struct pc_error *err)
{
	int ret = alloc_layout(out, nr_rings, err);

	if (ret)
		return ret;
	if (spec->kind == REC_THREADS_USER)
		ret = by_masks(spec, spec_text ? spec_text : "", ring_cpus, nr_rings, out, err);
	else
		ret = by_group(spec, ring_cpus, nr_rings, group, ctx, out, err);
	if (ret)
		rec_threads_layout_free(out);
	return ret;
}

void rec_threads_layout_free(struct rec_threads_layout *l)
{
	free(l->ring_thread);
	free(l->affinity);
	l->ring_thread = NULL;
	l->affinity = NULL;
	l->nr_threads = 0;
}
