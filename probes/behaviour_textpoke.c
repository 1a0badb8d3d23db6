// SPDX-License-Identifier: GPL-2.0
/*
 * Behaviour of the text_poke row: enabling a tracepoint nobody uses flips
 * its static key, which patches kernel text; disabling it patches it back.
 */
#include "probes/behaviour_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RING_PAGES 16

/* ---- text_poke ---- */

static const char *const tracefs_roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
/* tracepoints in every kernel of the matrix that hardly anyone enables */
static const char *const quiet_tracepoints[] = {
	"task/task_rename", "timer/itimer_state", "signal/signal_deliver", "module/module_put",
};

static long tracepoint_id(const char *name, char *root_used, size_t size)
{
	for (size_t i = 0; i < sizeof(tracefs_roots) / sizeof(tracefs_roots[0]); i++) {
		char p[PATH_MAX], buf[32];
		int fd;
		ssize_t n;

		snprintf(p, sizeof(p), "%s/events/%s/id", tracefs_roots[i], name);
		fd = open(p, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			continue;
		buf[n] = '\0';
		snprintf(root_used, size, "%s", tracefs_roots[i]);
		return strtol(buf, NULL, 10);
	}
	return -1;
}

struct poke {
	uint64_t addr;
	uint16_t old_len, new_len;
	uint8_t bytes[];
};

struct seen_poke {
	uint64_t addr;
	uint16_t len;
	uint8_t old[16], new[16];
};

/* The TEXT_POKE records now in the ring; how many (up to max kept). */
static int collect_pokes(struct bh_ring *ring, struct seen_poke *out, int max, int *bad)
{
	const struct perf_event_header *h;
	int n = 0;

	while ((h = bh_ring_next(ring))) {
		const struct poke *p = (const void *)(h + 1);

		if (h->type != PC_RECORD_TEXT_POKE)
			continue;
		if (h->size < sizeof(*h) + sizeof(*p) ||
		    (size_t)p->old_len + p->new_len > h->size - sizeof(*h) - sizeof(*p)) {
			(*bad)++;
			continue;
		}
		if (n < max && p->old_len == p->new_len && p->old_len <= 16) {
			out[n].addr = p->addr;
			out[n].len = p->old_len;
			memcpy(out[n].old, p->bytes, p->old_len);
			memcpy(out[n].new, p->bytes + p->old_len, p->new_len);
		} else if (n < max) {
			(*bad)++;
		}
		n++;
	}
	return n;
}

/*
 * text_poke: enabling a tracepoint nobody uses flips its static key, which
 * patches kernel text; the TEXT_POKE records say where and give the old and
 * new bytes.  Disabling it patches the same places back: the second set of
 * records must hold the first set's bytes, swapped.
 */
void bh_check_text_poke(struct pc_behaviour_result *r)
{
	struct seen_poke on[64], off[64];
	char root[PATH_MAX] = "", tried[256] = "";
	struct bh_ring ring;
	union pc_attr a;
	int fd, bad = 0;
	size_t t = 0;

	bh_attr_sideband(&a);
	a.attr.text_poke = 1;
	a.attr.exclude_kernel = 0;
	fd = bh_open(r, &a, "dummy with text_poke", 0, 0);
	if (fd < 0)
		return;
	if (bh_ring_map(&ring, fd, RING_PAGES, true) < 0) {
		bh_broken(r, "cannot map the ring: %s", strerror(errno));
		close(fd);
		return;
	}
	for (size_t i = 0; i < sizeof(quiet_tracepoints) / sizeof(quiet_tracepoints[0]); i++) {
		const char *name = quiet_tracepoints[i];
		long id = tracepoint_id(name, root, sizeof(root));
		struct pc_open_info info;
		struct pc_error err;
		union pc_attr tp;
		int tfd, n_on, n_off, matched = 0;

		if (id < 0)
			continue;
		t += (size_t)snprintf(tried + t, t < sizeof(tried) ? sizeof(tried) - t : 0, "%s%s",
				      t ? ", " : "", name);
		if (t >= sizeof(tried))
			t = sizeof(tried) - 1;
		memset(&tp, 0, sizeof(tp));
		tp.attr.type = PERF_TYPE_TRACEPOINT;
		tp.attr.size = sizeof(tp.attr);
		tp.attr.config = (uint64_t)id;
		tp.attr.disabled = 1;
		tfd = pc_event_open(&tp, name, 0, -1, -1, PERF_FLAG_FD_CLOEXEC, &info, &err);
		if (tfd < 0)
			continue;
		n_on = collect_pokes(&ring, on, 64, &bad);
		close(tfd);
		n_off = collect_pokes(&ring, off, 64, &bad);
		if (bad) {
			bh_broken(r, "%d TEXT_POKE records whose lengths do not fit them", bad);
			goto out;
		}
		if (!n_on)
			continue;	/* its key was already on: someone else uses it */
		for (int k = 0; k < n_on && k < 64; k++)
			for (int j = 0; j < n_off && j < 64; j++)
				if (on[k].addr == off[j].addr && on[k].len == off[j].len &&
				    !memcmp(on[k].old, off[j].new, on[k].len) &&
				    !memcmp(on[k].new, off[j].old, on[k].len) &&
				    memcmp(on[k].old, on[k].new, on[k].len)) {
					matched++;
					break;
				}
		if (n_off && matched == n_on)
			bh_proven(r, "enabling tracepoint %s patched %d place%s of kernel text (TEXT_POKE "
				  "with old and new bytes); disabling it patched each back", name, n_on,
				  n_on == 1 ? "" : "s");
		else if (!n_off)
			bh_proven(r, "enabling tracepoint %s patched %d place%s of kernel text (TEXT_POKE "
				  "with old and new bytes); no records for disabling it (deferred)", name,
				  n_on, n_on == 1 ? "" : "s");
		else
			bh_broken(r, "tracepoint %s: %d TEXT_POKE on enable, %d on disable, only %d "
				  "undone with the same bytes", name, n_on, n_off, matched);
		goto out;
	}
	if (!t)
		bh_not_tested(r, "no tracefs with any of the tracepoints used to patch text");
	else
		bh_not_tested(r, "enabling tracepoints %s patched no text (their keys were on already, "
			      "or static keys are not patched here)", tried);
out:
	bh_ring_unmap(&ring);
	close(fd);
}
