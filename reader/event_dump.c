// SPDX-License-Identifier: GPL-2.0
/* script --per-event-dump (see event_dump.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reader/event_dump.h"

static int open_dump(struct rd_event_dumps *d, const struct pd_evsel *e, struct rd_event_dump *x,
		     struct pc_error *err)
{
	size_t len = strlen(d->input) + strlen(e->name ? e->name : "") + 8;
	int fd;

	x->path = malloc(len);
	if (!x->path)
		return pc_error_set(err, ENOMEM, "out of memory");
	snprintf(x->path, len, "%s.%s.dump", d->input, e->name ? e->name : "");
	fd = open(x->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0)
		return pc_error_set(err, errno, "%s: %s", x->path, strerror(errno));
	if (rd_out_init(&x->out, fd)) {
		close(fd);
		return pc_error_set(err, ENOMEM, "out of memory");
	}
	x->open = true;
	return 0;
}

/* Room for every event of r (a pipe brings them as it goes). */
static int grow(struct rd_event_dumps *d, size_t nr, struct pc_error *err)
{
	struct rd_event_dump *v;

	if (nr <= d->nr)
		return 0;
	v = realloc(d->v, nr * sizeof(*v));
	if (!v)
		return pc_error_set(err, ENOMEM, "out of memory");
	memset(v + d->nr, 0, (nr - d->nr) * sizeof(*v));
	d->v = v;
	d->nr = nr;
	return 0;
}

struct rd_out *rd_event_dump_out(struct rd_event_dumps *d, const struct pd_reader *r,
				 const struct pd_evsel *e, bool sample, struct pc_error *err)
{
	size_t i;

	if (!e || e < r->evsels || e >= r->evsels + r->nr_evsels)
		e = r->nr_evsels ? &r->evsels[0] : NULL;	/* perf: the first event's */
	if (!e) {
		pc_error_set(err, EINVAL, "--per-event-dump: no event in the file");
		return NULL;
	}
	i = (size_t)(e - r->evsels);
	if (grow(d, r->nr_evsels, err))
		return NULL;
	if (!d->v[i].open && open_dump(d, e, &d->v[i], err))
		return NULL;
	d->v[i].samples += sample;
	return &d->v[i].out;
}

int rd_event_dumps_finish(struct rd_event_dumps *d, const struct pd_reader *r, FILE *o,
			  struct pc_error *err)
{
	int ret = 0;

	if (grow(d, r->nr_evsels, err))
		return -ENOMEM;
	for (size_t i = 0; i < d->nr; i++) {
		struct rd_event_dump *x = &d->v[i];
		off_t size;

		if (!x->open && !ret)
			ret = open_dump(d, &r->evsels[i], x, err);
		if (!x->open)
			continue;
		/*
		 * perf states the size before it closes the file, its last
		 * 4 KiB buffer not yet written: what has reached the disk
		 */
		size = lseek(x->out.fd, 0, SEEK_END);
		size = size < 0 ? 0 : (size + (off_t)x->out.len) / 4096 * 4096;
		fprintf(o, "[ perf script: Wrote %.3f MB %s (%llu samples) ]\n",
			(double)size / 1024.0 / 1024.0, x->path, (unsigned long long)x->samples);
		rd_out_flush(&x->out);
		if (x->out.error && !ret)
			ret = pc_error_set(err, x->out.error, "%s: %s", x->path,
					   strerror(x->out.error));
	}
	return ret;
}

void rd_event_dumps_free(struct rd_event_dumps *d)
{
	for (size_t i = 0; i < d->nr; i++) {
		if (d->v[i].open) {
			int fd = d->v[i].out.fd;

			rd_out_free(&d->v[i].out);
			close(fd);
		}
		free(d->v[i].path);
	}
	free(d->v);
	d->v = NULL;
	d->nr = 0;
}
