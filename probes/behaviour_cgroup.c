// SPDX-License-Identifier: GPL-2.0
/*
 * Behaviour of the cgroup row: cpu-clock samples carry the id of this
 * thread's cgroup, and creating a cgroup gives a CGROUP record with its id
 * and path.  A cgroup2 hierarchy is mounted for the check when there is none.
 */
#include "probes/behaviour_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/sys.h"

#define RING_PAGES 16

/* ---- cgroup ---- */

/* The cgroup2 mount point, or "" */
static void cgroup2_mount(char *out, size_t size)
{
	char line[1024], dev[256], dir[PATH_MAX], type[64];
	FILE *fp = fopen("/proc/self/mounts", "r");

	out[0] = '\0';
	while (fp && fgets(line, sizeof(line), fp))
		if (sscanf(line, "%255s %4095s %63s", dev, dir, type) == 3 && !strcmp(type, "cgroup2")) {
			snprintf(out, size, "%s", dir);
			break;
		}
	if (fp)
		fclose(fp);
}

/* This process's cgroup2 path ("0::PATH" of /proc/self/cgroup), or "" */
static void own_cgroup(char *out, size_t size)
{
	char line[PATH_MAX + 16];
	FILE *fp = fopen("/proc/self/cgroup", "r");

	out[0] = '\0';
	while (fp && fgets(line, sizeof(line), fp))
		if (!strncmp(line, "0::", 3)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(out, size, "%.*s", (int)size - 1, line + 3);
			break;
		}
	if (fp)
		fclose(fp);
}

/*
 * A cgroup2 hierarchy nobody has configured yet has not computed which
 * controllers its children get, so a new cgroup gets no perf_event state
 * (and the kernel makes CGROUP records when that state comes online).
 * Enabling and disabling one controller in the root's subtree_control
 * makes the kernel compute it, with the implicit perf_event controller.
 */
static void apply_root_controllers(const char *mnt)
{
	char path[PATH_MAX + 32], buf[256], cmd[80], *name;
	int fd;

	snprintf(path, sizeof(path), "%s/cgroup.controllers", mnt);
	if (pc_read_file(path, buf, sizeof(buf)) < 0)
		return;
	name = strtok(buf, " \n");
	if (!name)
		return;
	snprintf(path, sizeof(path), "%s/cgroup.subtree_control", mnt);
	for (int on = 1; on >= 0; on--) {
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			return;
		snprintf(cmd, sizeof(cmd), "%c%s", on ? '+' : '-', name);
		if (write(fd, cmd, strlen(cmd)) < 0) {
			close(fd);
			return;
		}
		close(fd);
	}
}

/*
 * cgroup: with a cgroup2 hierarchy (one is mounted on a temporary
 * directory when there is none and we may), cpu-clock samples of this
 * thread carry the inode number of its cgroup's directory, and creating a
 * cgroup below it gives a CGROUP record with the new directory's inode and
 * its path.
 */
void bh_check_cgroup(struct pc_behaviour_result *r)
{
	char mnt[PATH_MAX], cg[PATH_MAX], dir[PATH_MAX * 2], sub[PATH_MAX * 2 + 32];
	char tmp[] = "/tmp/perfcheck-cg-XXXXXX", want_path[PATH_MAX + 32];
	const struct perf_event_header *h;
	struct stat st, sst;
	struct bh_ring ring;
	union pc_attr a;
	bool mounted = false, record = false;
	int fd, samples = 0, wrong = 0, cgroup_records = 0;
	char last_path[128] = "";
	uint64_t wrong_id = 0;

	cgroup2_mount(mnt, sizeof(mnt));
	if (!mnt[0]) {
		if (!mkdtemp(tmp)) {
			bh_not_tested(r, "no cgroup2 mount, and mkdtemp: %s", strerror(errno));
			return;
		}
		if (mount("cgroup2", tmp, "cgroup2", 0, NULL) < 0) {
			bh_not_tested(r, "no cgroup2 mount, and mounting one: %s", strerror(errno));
			rmdir(tmp);
			return;
		}
		mounted = true;
		snprintf(mnt, sizeof(mnt), "%s", tmp);
		apply_root_controllers(mnt);
	}
	own_cgroup(cg, sizeof(cg));
	if (!cg[0]) {
		bh_not_tested(r, "/proc/self/cgroup has no cgroup2 line");
		goto out_mount;
	}
	snprintf(dir, sizeof(dir), "%s%s", mnt, cg);
	if (stat(dir, &st) < 0) {
		bh_not_tested(r, "stat %s: %s", dir, strerror(errno));
		goto out_mount;
	}
	bh_attr_sampling(&a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, 100000,
			 PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_CGROUP);
	a.attr.sample_id_all = 1;
	a.attr.cgroup = 1;
	fd = bh_open(r, &a, "cpu-clock with cgroup", 0, 0);
	if (fd < 0)
		goto out_mount;
	if (bh_ring_map(&ring, fd, RING_PAGES, true) < 0) {
		bh_broken(r, "cannot map the ring: %s", strerror(errno));
		close(fd);
		goto out_mount;
	}
	bh_spin_for_records(&ring, 5);
	snprintf(sub, sizeof(sub), "%s/perfcheck-bh-%d", strcmp(cg, "/") ? dir : mnt, (int)getpid());
	snprintf(want_path, sizeof(want_path), "%s/perfcheck-bh-%d", strcmp(cg, "/") ? cg : "",
		 (int)getpid());
	if (mkdir(sub, 0755) < 0) {
		bh_not_tested(r, "cannot create the cgroup %s: %s", sub, strerror(errno));
		goto out_ring;
	}
	if (stat(sub, &sst) < 0)
		sst.st_ino = 0;
	rmdir(sub);
	while ((h = bh_ring_next(&ring))) {
		if (h->type == PERF_RECORD_SAMPLE) {
			struct bh_sample s;

			if (bh_parse_sample(h, a.attr.sample_type, 0, &s) < 0) {
				bh_broken(r, "a sample of %u bytes does not fit the TID TIME CGROUP layout",
					  h->size);
				goto out_ring;
			}
			samples++;
			if (s.cgroup != st.st_ino && !wrong++)
				wrong_id = s.cgroup;
		} else if (h->type == PC_RECORD_CGROUP && h->size > sizeof(*h) + 8) {
			const uint64_t *id = (const void *)(h + 1);
			const char *p = (const char *)(id + 1);
			size_t max = h->size - sizeof(*h) - 8;

			if (strnlen(p, max) == max)
				continue;
			cgroup_records++;
			snprintf(last_path, sizeof(last_path), "%s", p);
			if (strcmp(p, want_path))
				continue;
			record = true;
			if (*id != sst.st_ino) {
				bh_broken(r, "CGROUP record for %s: id %llu, stat() says inode %llu", p,
					  (unsigned long long)*id, (unsigned long long)sst.st_ino);
				goto out_ring;
			}
		}
	}
	if (!samples)
		bh_broken(r, "no samples in 5 to 505 ms of cpu-clock at 100 us");
	else if (wrong)
		bh_broken(r, "%d of %d samples carry cgroup id %llu, the cgroup %s is inode %llu", wrong,
			  samples, (unsigned long long)wrong_id, cg, (unsigned long long)st.st_ino);
	else if (!record)
		bh_broken(r, "no CGROUP record named %s after mkdir %s (%d CGROUP records%s%s)",
			  want_path, sub, cgroup_records, cgroup_records ? ", the last for " : "",
			  last_path);
	else
		bh_proven(r, "%d samples carry the id of cgroup %s (inode %llu); mkdir gave a CGROUP "
			  "record with the new directory's inode %llu and path%s", samples, cg,
			  (unsigned long long)st.st_ino, (unsigned long long)sst.st_ino,
			  mounted ? " (on a cgroup2 mounted for the check)" : "");
out_ring:
	bh_ring_unmap(&ring);
	close(fd);
out_mount:
	if (mounted) {
		umount(tmp);
		rmdir(tmp);
	}
}
