// SPDX-License-Identifier: GPL-2.0
/* The `trace` field of tracepoint samples (see tracefmt.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reader/tracefmt.h"

/* libtraceevent asks for the name of a kernel address (%pS, function fields) */
static char *kernel_name(void *ctx, unsigned long long *addr, char **mod)
{
	struct rd_trace *tr = ctx;
	struct rd_resolved r;

	rd_resolve(tr->s, NULL, true, *addr, &r);
	if (!r.sym)
		return NULL;
	snprintf(tr->name, sizeof(tr->name), "%s", r.sym->name);
	*addr -= r.off;
	if (mod)
		*mod = NULL;
	return tr->name;
}

int rd_trace_open(struct rd_trace *tr, struct rd_session *s)
{
	const void *data;
	size_t size;
	int ret;

	if (tr->tried)
		return tr->ok ? 0 : -(tr->err.code ? tr->err.code : ENOENT);
	tr->tried = true;
	tr->s = s;
	if (pd_reader_feature(&s->r, PD_FEAT_TRACING_DATA, &data, &size) || !size)
		return pc_error_set(&tr->err, ENOENT, "%s: tracepoint samples but no TRACING_DATA "
				    "to format them with", s->r.path);
	ret = tr_open(&tr->t, data, size, s->r.path, s->r.features[PD_FEAT_TRACING_DATA].offset,
		      &tr->err);
	if (ret)
		return ret;
	if (tr_set_resolver(&tr->t, kernel_name, tr)) {
		tr_close(&tr->t);
		return pc_error_set(&tr->err, ENOMEM, "out of memory");
	}
	tr->ok = true;
	return 0;
}

int rd_trace_text(struct rd_trace *tr, struct rd_session *s, const struct rd_event *ev,
		  const char **text)
{
	const struct pd_sample *smp = ev->sample;
	const struct pd_evsel *e = smp->evsel;
	int ret;

	*text = NULL;
	if (!e || e->attr.attr.type != PERF_TYPE_TRACEPOINT)
		return 0;
	ret = rd_trace_open(tr, s);
	if (ret)
		return ret;
	return tr_format(&tr->t, e->attr.attr.config, smp->raw.data, smp->raw.size,
			 (e->attr.attr.sample_type & PERF_SAMPLE_CPU) ? (int)smp->cpu : -1,
			 ev->rec->offset, text, &tr->err);
}

int rd_trace_field(struct rd_out *o, struct rd_session *s, const struct rd_event *ev, void *ctx)
{
	const char *text;
	int ret = rd_trace_text(ctx, s, ev, &text);

	if (ret < 0)
		return ret;
	if (text)
		rd_out_mem(o, text, (size_t)ret);
	return 0;
}

void rd_trace_free(struct rd_trace *tr)
{
	if (tr->ok)
		tr_close(&tr->t);
	tr->ok = false;
}

/*
 * Tracepoint events named by number ("tracepoint:372": a pipe has no
 * EVENT_DESC before its samples) take their "sys:name" from the section,
 * as perf names them.
 */
int rd_trace_name_events(struct rd_trace *tr, struct rd_session *s)
{
	char buf[256];

	if (!tr->ok)
		return 0;
	for (uint32_t i = 0; i < s->r.nr_evsels; i++) {
		struct pd_evsel *e = &s->r.evsels[i];
		const char *name;
		char *copy;

		if (e->attr.attr.type != PERF_TYPE_TRACEPOINT ||
		    (e->name && strncmp(e->name, "tracepoint:", 11)))
			continue;
		name = tr_event_name(&tr->t, e->attr.attr.config, buf, sizeof(buf));
		if (!name)
			continue;
		copy = strdup(name);
		if (!copy)
			return pc_error_set(&tr->err, ENOMEM, "out of memory");
		free(e->name);
		e->name = copy;
	}
	return 0;
}
