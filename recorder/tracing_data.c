// SPDX-License-Identifier: GPL-2.0
/*
 * The TRACING_DATA feature: without it perf refuses a file with tracepoint
 * events ("broken or missing trace data").  Layout (version 0.6, host
 * byte order): magic 23 8 68 "tracing", "0.6\0", big-endian flag, long
 * size, u32 page size; "header_page\0" u64 size + tracefs events/header_page;
 * "header_event\0" u64 size + events/header_event; u32 count of ftrace
 * formats (0); u32 count of systems, each "SYS\0" u32 count and per event
 * u64 size + its format file; u32 kallsyms size (0); u32 printk size (0);
 * u64 saved_cmdlines size (0).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "recorder/tracing_data.h"

struct blob {
	uint8_t *buf;
	size_t len, cap;
	bool failed;
};

static void add(struct blob *b, const void *data, size_t len)
{
	if (b->failed)
		return;
	if (b->len + len > b->cap) {
		size_t cap = b->cap ? b->cap : 65536;
		uint8_t *n;

		while (cap < b->len + len)
			cap *= 2;
		n = realloc(b->buf, cap);
		if (!n) {
			b->failed = true;
			return;
		}
		b->buf = n;
		b->cap = cap;
	}
	memcpy(b->buf + b->len, data, len);
	b->len += len;
}

static void add_u32(struct blob *b, uint32_t v) { add(b, &v, 4); }
static void add_u64(struct blob *b, uint64_t v) { add(b, &v, 8); }

/* u64 size then the file's bytes (tracefs files report size 0: read to EOF) */
static int add_file(struct blob *b, const char *path, struct pc_error *err)
{
	char chunk[8192];
	size_t at, n, total = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return pc_error_set(err, errno, "%s: %s", path, strerror(errno));
	at = b->len;
	add_u64(b, 0);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
		add(b, chunk, n);
		total += n;
	}
	fclose(f);
	if (!b->failed)
		memcpy(b->buf + at, &(uint64_t){ total }, 8);
	return 0;
}

static const char *tracefs_root(const struct rec_evsel *ev)
{
	static const char *const roots[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	char path[512];

	for (size_t i = 0; i < sizeof(roots) / sizeof(roots[0]); i++) {
		snprintf(path, sizeof(path), "%s/events/%s/%s/format", roots[i], ev->tp_sys,
			 ev->tp_name);
		if (!access(path, R_OK))
			return roots[i];
	}
	return NULL;
}

int rec_tracing_data(struct pd_writer *w, const struct rec_evlist *evl, struct pc_error *err)
{
	static const uint8_t magic[] = { 23, 8, 68, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	const struct rec_evsel *tps[64];
	const char *root = NULL;
	struct blob b = { 0 };
	char path[512];
	int nr = 0, nr_sys = 0, ret = 0;
	bool done[64] = { false };

	for (int i = 0; i < evl->nr_evsels && nr < 64; i++)
		if (evl->evsels[i]->tracepoint)
			tps[nr++] = evl->evsels[i];
	if (!nr)
		return 0;
	root = tracefs_root(tps[0]);
	if (!root)
		return pc_error_set(err, ENOENT, "%s: no format file in tracefs", tps[0]->name);

	add(&b, magic, sizeof(magic));
	add(&b, "0.6", 4);
	add(&b, &(uint8_t){ 0 }, 1);			/* little endian */
	add(&b, &(uint8_t){ sizeof(long) }, 1);
	add_u32(&b, (uint32_t)sysconf(_SC_PAGESIZE));
	add(&b, "header_page", 12);
	snprintf(path, sizeof(path), "%s/events/header_page", root);
	ret = add_file(&b, path, err);
	add(&b, "header_event", 13);
	snprintf(path, sizeof(path), "%s/events/header_event", root);
	if (!ret)
		ret = add_file(&b, path, err);
	add_u32(&b, 0);					/* ftrace formats */

	/* one entry per system, each event once */
	for (int i = 0; i < nr; i++) {
		bool seen = false;

		for (int j = 0; j < i; j++)
			seen |= !strcmp(tps[j]->tp_sys, tps[i]->tp_sys);
		nr_sys += !seen;
	}
	add_u32(&b, (uint32_t)nr_sys);
	for (int i = 0; i < nr && !ret; i++) {
		uint32_t count = 0;
		size_t count_at;

		if (done[i])
			continue;
		add(&b, tps[i]->tp_sys, strlen(tps[i]->tp_sys) + 1);
		count_at = b.len;
		add_u32(&b, 0);
		for (int j = i; j < nr && !ret; j++) {
			bool dup = false;

			if (done[j] || strcmp(tps[j]->tp_sys, tps[i]->tp_sys))
				continue;
			done[j] = true;
			for (int k = i; k < j; k++)
				dup |= !strcmp(tps[k]->tp_name, tps[j]->tp_name) &&
				       !strcmp(tps[k]->tp_sys, tps[j]->tp_sys);
			if (dup)
				continue;
			snprintf(path, sizeof(path), "%s/events/%s/%s/format", root, tps[j]->tp_sys,
				 tps[j]->tp_name);
			ret = add_file(&b, path, err);
			count++;
		}
		if (!b.failed)
			memcpy(b.buf + count_at, &count, 4);
	}
	add_u32(&b, 0);					/* kallsyms */
	add_u32(&b, 0);					/* printk formats */
	add_u64(&b, 0);					/* saved_cmdlines */
	if (!ret && b.failed)
		ret = pc_error_set(err, ENOMEM, "out of memory");
	if (!ret && pd_writer_set_feature(w, PD_FEAT_TRACING_DATA, b.buf, b.len))
		ret = pc_error_set(err, ENOMEM, "out of memory");
	free(b.buf);
	return ret;
}
