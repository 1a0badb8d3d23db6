// SPDX-License-Identifier: GPL-2.0
/*
 * Behaviour of the side-band rows: sample_id_all, comm_exec,
 * context_switch, namespaces (mmap2 and build_id: behaviour_mmap.c).  Each opens a dummy event with the feature,
 * has a child (or this thread) do what produces the record, and compares
 * the record with what the process knows from elsewhere (/proc, stat()).
 */
#include "probes/behaviour_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define RING_PAGES 16
#define WAIT_MS 10000

#ifndef PERF_RECORD_MISC_SWITCH_OUT_PREEMPT
#define PERF_RECORD_MISC_SWITCH_OUT_PREEMPT (1 << 14)
#endif

struct comm_body {
	uint32_t pid, tid;
	char comm[16];
};

static void child_rename(void *arg)
{
	prctl(PR_SET_NAME, (unsigned long)arg, 0, 0, 0);
}

/*
 * sample_id_all: the same COMM record, from the same child, with and
 * without the bit: with it the record is longer by exactly the trailer,
 * and the trailer names the child, the event's id, a time and a cpu.
 */
void bh_check_sample_id_all(struct pc_behaviour_result *r)
{
	const uint64_t st = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			    PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER;
	union pc_attr with, without;
	struct bh_ring rw, ro;
	struct bh_child c;
	const struct perf_event_header *h;
	int fw = -1, fo = -1, status, seen_with = 0, seen_without = 0, bad = 0;
	uint64_t id = 0;
	char what[200] = "";
	long ncpu = sysconf(_SC_NPROCESSORS_CONF);

	if (bh_child_start(&c, child_rename, "pcbh-sid") < 0) {
		bh_not_tested(r, "fork: %s", strerror(errno));
		return;
	}
	bh_attr_sideband(&with);
	with.attr.sample_type = st;
	with.attr.comm = 1;
	without = with;
	without.attr.sample_id_all = 0;
	fw = bh_open(r, &with, "dummy with sample_id_all", c.pid, 0);
	if (fw >= 0)
		fo = bh_open(r, &without, "dummy without sample_id_all", c.pid, 0);
	if (fo < 0 || ioctl(fw, PERF_EVENT_IOC_ID, &id) < 0 ||
	    bh_ring_map(&rw, fw, RING_PAGES, true) < 0) {
		if (fo >= 0)
			bh_broken(r, "cannot map the ring or read the id: %s", strerror(errno));
		goto out_child;
	}
	if (bh_ring_map(&ro, fo, RING_PAGES, true) < 0) {
		bh_broken(r, "cannot map the ring: %s", strerror(errno));
		bh_ring_unmap(&rw);
		goto out_child;
	}
	bh_child_go(&c);
	status = bh_child_wait(&c, WAIT_MS);
	if (status != 0) {
		bh_not_tested(r, "the workload child failed (status %d)", status);
		goto out_rings;
	}
	while ((h = bh_ring_next(&ro)))
		if (h->type == PERF_RECORD_COMM) {
			seen_without++;
			if (h->size != sizeof(*h) + sizeof(struct comm_body) && !bad++)
				snprintf(what, sizeof(what), "a COMM without the bit is %u bytes, not %zu",
					 h->size, sizeof(*h) + sizeof(struct comm_body));
		}
	while ((h = bh_ring_next(&rw))) {
		struct bh_sample s;

		if (h->type != PERF_RECORD_COMM)
			continue;
		seen_with++;
		if (h->size != sizeof(*h) + sizeof(struct comm_body) + bh_sample_id_size(st)) {
			if (!bad++)
				snprintf(what, sizeof(what), "a COMM with the bit is %u bytes, not %zu",
					 h->size, sizeof(*h) + sizeof(struct comm_body) + bh_sample_id_size(st));
			continue;
		}
		bh_parse_sample_id(h, st, &s);
		if ((s.pid != (uint32_t)c.pid || s.tid != (uint32_t)c.pid || s.id != id ||
		     s.time == 0 || (ncpu > 0 && s.cpu >= (uint32_t)ncpu)) && !bad++)
			snprintf(what, sizeof(what), "trailer pid %u tid %u id %llu time %llu cpu %u; "
				 "expected pid/tid %d, id %llu", s.pid, s.tid, (unsigned long long)s.id,
				 (unsigned long long)s.time, s.cpu, (int)c.pid, (unsigned long long)id);
	}
	if (bad)
		bh_broken(r, "%s", what);
	else if (!seen_with || !seen_without)
		bh_broken(r, "the child's PR_SET_NAME gave %d COMM records with the bit, %d without",
			  seen_with, seen_without);
	else
		bh_proven(r, "the child's COMM record carries a %zu-byte trailer with its pid/tid, the "
			  "event id, a time and a cpu; without the bit, none", bh_sample_id_size(st));
out_rings:
	bh_ring_unmap(&rw);
	bh_ring_unmap(&ro);
out_child:
	bh_child_wait(&c, WAIT_MS);
	if (fw >= 0)
		close(fw);
	if (fo >= 0)
		close(fo);
}

/* ---- COMM with exec ---- */

struct exec_arg {
	struct bh_stub stub;
};

static void child_rename_exec(void *arg)
{
	struct exec_arg *e = arg;

	prctl(PR_SET_NAME, (unsigned long)"pcbh-pre", 0, 0, 0);
	_exit(BH_EXEC_FAILED_BASE + -bh_stub_exec(&e->stub));
}

/*
 * comm_exec: the child renames itself (PR_SET_NAME), then execs: the first
 * COMM record must not have PERF_RECORD_MISC_COMM_EXEC, the second must.
 */
void bh_check_comm_exec(struct pc_behaviour_result *r)
{
	struct exec_arg e;
	int made = bh_stub_create(&e.stub, 1);
	const struct perf_event_header *h;
	struct bh_ring ring;
	struct bh_child c;
	union pc_attr a;
	int fd, status, renames = 0, execs = 0, wrong = 0;
	char exec_comm[17] = "";

	if (made < 0) {
		bh_not_tested(r, "no exec stub: %s", made == -ENOEXEC ?
			      "none for this architecture" : strerror(-made));
		return;
	}
	if (bh_child_start(&c, child_rename_exec, &e) < 0) {
		bh_not_tested(r, "fork: %s", strerror(errno));
		bh_stub_free(&e.stub);
		return;
	}
	bh_attr_sideband(&a);
	a.attr.comm = 1;
	a.attr.comm_exec = 1;
	fd = bh_open(r, &a, "dummy with comm_exec", c.pid, 0);
	if (fd < 0)
		goto out;
	if (bh_ring_map(&ring, fd, RING_PAGES, true) < 0) {
		bh_broken(r, "cannot map the ring: %s", strerror(errno));
		close(fd);
		goto out;
	}
	bh_child_go(&c);
	status = bh_child_wait(&c, WAIT_MS);
	if (status != 0) {
		bh_stub_status(r, status);
		goto out_ring;
	}
	while ((h = bh_ring_next(&ring))) {
		const struct comm_body *b = (const void *)(h + 1);

		if (h->type != PERF_RECORD_COMM || h->size < sizeof(*h) + 16 || b->pid != (uint32_t)c.pid)
			continue;
		if (!strncmp(b->comm, "pcbh-pre", 9)) {
			renames++;
			wrong += !!(h->misc & PERF_RECORD_MISC_COMM_EXEC);
		} else {
			execs++;
			wrong += !(h->misc & PERF_RECORD_MISC_COMM_EXEC);
			snprintf(exec_comm, sizeof(exec_comm), "%.16s", b->comm);
		}
	}
	if (wrong || renames != 1 || execs != 1)
		bh_broken(r, "%d COMM from PR_SET_NAME, %d from exec, %d with the wrong exec flag",
			  renames, execs, wrong);
	else
		bh_proven(r, "COMM \"pcbh-pre\" from PR_SET_NAME without the exec flag, COMM \"%s\" "
			  "from exec with it", exec_comm);
out_ring:
	bh_ring_unmap(&ring);
	close(fd);
out:
	bh_child_wait(&c, WAIT_MS);
	bh_stub_free(&e.stub);
}

/* ---- SWITCH ---- */

#define SLEEPS 3

static void child_sleeps(void *arg)
{
	for (int i = 0; i < SLEEPS; i++) {
		struct timespec ts = { 0, 2000000 };

		nanosleep(&ts, NULL);
	}
}

/*
 * context_switch: a child sleeps three times: there must be at least three
 * voluntary switch-outs (no PREEMPT flag), each followed by a switch-in,
 * and every record must be the child's.
 */
void bh_check_context_switch(struct pc_behaviour_result *r)
{
	const struct perf_event_header *h;
	struct bh_ring ring;
	struct bh_child c;
	union pc_attr a;
	int fd, status, outs = 0, voluntary = 0, ins = 0, unpaired = 0, foreign = 0, last_out = 0;

	if (bh_child_start(&c, child_sleeps, NULL) < 0) {
		bh_not_tested(r, "fork: %s", strerror(errno));
		return;
	}
	bh_attr_sideband(&a);
	a.attr.context_switch = 1;
	fd = bh_open(r, &a, "dummy with context_switch", c.pid, 0);
	if (fd < 0)
		goto out;
	if (bh_ring_map(&ring, fd, RING_PAGES, true) < 0) {
		bh_broken(r, "cannot map the ring: %s", strerror(errno));
		close(fd);
		goto out;
	}
	bh_child_go(&c);
	status = bh_child_wait(&c, WAIT_MS);
	if (status != 0) {
		bh_not_tested(r, "the sleeping child failed (wait status %#x)", status);
		goto out_ring;
	}
	while ((h = bh_ring_next(&ring))) {
		struct bh_sample s;
		int out;

		if (h->type != PERF_RECORD_SWITCH)
			continue;
		if (bh_parse_sample_id(h, a.attr.sample_type, &s) < 0 || s.pid != (uint32_t)c.pid) {
			foreign++;
			continue;
		}
		out = !!(h->misc & PERF_RECORD_MISC_SWITCH_OUT);
		if (out) {
			outs++;
			voluntary += !(h->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT);
		} else {
			ins++;
		}
		/* after the first record, outs and ins alternate */
		if (outs + ins > 1 && out == last_out)
			unpaired++;
		last_out = out;
	}
	if (foreign || unpaired || voluntary < SLEEPS || ins < SLEEPS)
		bh_broken(r, "%d sleeps: %d switch-outs (%d voluntary), %d switch-ins, %d out of "
			  "order, %d not the child's", SLEEPS, outs, voluntary, ins, unpaired, foreign);
	else
		bh_proven(r, "%d sleeps: %d voluntary switch-outs, %d switch-ins, alternating", SLEEPS,
			  voluntary, ins);
out_ring:
	bh_ring_unmap(&ring);
	close(fd);
out:
	bh_child_wait(&c, WAIT_MS);
}

/* ---- NAMESPACES ---- */

static const char *const ns_names[] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };
#define NR_NS (sizeof(ns_names) / sizeof(ns_names[0]))

static void child_nothing(void *arg)
{
}

/*
 * namespaces: forking a child makes a NAMESPACES record for it; its
 * (dev, inode) pairs, in the ABI's order net uts ipc pid user mnt cgroup,
 * must be what stat() gives for /proc/CHILD/ns/ (links the kernel lacks
 * are not compared).
 */
void bh_check_namespaces(struct pc_behaviour_result *r)
{
	struct { uint64_t dev, ino; bool have; } want[NR_NS];
	const struct perf_event_header *h;
	struct bh_ring ring;
	struct bh_child c;
	union pc_attr a;
	int fd, status, found = 0, compared = 0;

	bh_attr_sideband(&a);
	a.attr.namespaces = 1;
	a.attr.task = 1;
	fd = bh_open(r, &a, "dummy with namespaces", 0, 0);
	if (fd < 0)
		return;
	if (bh_ring_map(&ring, fd, RING_PAGES, true) < 0) {
		bh_broken(r, "cannot map the ring: %s", strerror(errno));
		close(fd);
		return;
	}
	if (bh_child_start(&c, child_nothing, NULL) < 0) {
		bh_not_tested(r, "fork: %s", strerror(errno));
		goto out;
	}
	for (size_t i = 0; i < NR_NS; i++) {
		char p[64];
		struct stat st;

		snprintf(p, sizeof(p), "/proc/%d/ns/%s", (int)c.pid, ns_names[i]);
		want[i].have = stat(p, &st) == 0;
		want[i].dev = st.st_dev;
		want[i].ino = st.st_ino;
	}
	bh_child_go(&c);
	status = bh_child_wait(&c, WAIT_MS);
	if (status != 0) {
		bh_not_tested(r, "the child failed (wait status %#x)", status);
		goto out;
	}
	while ((h = bh_ring_next(&ring)) && !found) {
		const uint32_t *ids = (const void *)(h + 1);
		const uint64_t *w = (const void *)(h + 1);
		uint64_t nr;

		if (h->type != PERF_RECORD_NAMESPACES || h->size < sizeof(*h) + 16 ||
		    ids[0] != (uint32_t)c.pid)
			continue;
		found = 1;
		nr = w[1];
		if (nr > (h->size - sizeof(*h) - 16) / 16) {
			bh_broken(r, "NAMESPACES record of %u bytes says %llu namespaces", h->size,
				  (unsigned long long)nr);
			goto out;
		}
		for (size_t i = 0; i < NR_NS && i < nr; i++) {
			uint64_t dev = w[2 + 2 * i], ino = w[3 + 2 * i];

			if (!want[i].have)
				continue;
			compared++;
			if (dev != want[i].dev || ino != want[i].ino) {
				bh_broken(r, "NAMESPACES %s: dev %#llx inode %llu; stat of /proc/%d/ns/%s: "
					  "dev %#llx inode %llu", ns_names[i], (unsigned long long)dev,
					  (unsigned long long)ino, (int)c.pid, ns_names[i],
					  (unsigned long long)want[i].dev, (unsigned long long)want[i].ino);
				goto out;
			}
		}
	}
	if (!found)
		bh_broken(r, "no NAMESPACES record for the forked child %d", (int)c.pid);
	else if (!compared)
		bh_not_tested(r, "no /proc/PID/ns links to compare with");
	else
		bh_proven(r, "the fork's NAMESPACES record holds the dev/inode of all %d /proc/%d/ns "
			  "links", compared, (int)c.pid);
out:
	bh_ring_unmap(&ring);
	close(fd);
}
