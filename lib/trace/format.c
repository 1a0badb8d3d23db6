// SPDX-License-Identifier: GPL-2.0
/*
 * A tracepoint sample's `trace` field, as perf script prints it: the
 * event's print format applied to the PERF_SAMPLE_RAW bytes by
 * libtraceevent (tep_print_event with TEP_PRINT_INFO, no plugins, as perf
 * 6.1 prints sched_switch).  libtraceevent reads fields where the format
 * says they are, so the raw bytes are checked first: every field inside
 * them, every dynamic (__data_loc / __rel_loc) field pointing inside them.
 * They are then copied into a buffer followed by 64 KiB of zeros, so that
 * strings end and a u16 length read from a field stays in bounds.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>

#include "trace/trace.h"

static int check_field(struct tr_events *t, const struct tep_event *ev,
		       const struct tep_format_field *f, const uint8_t *raw, uint32_t raw_size,
		       uint64_t rec_offset, struct pc_error *err)
{
	unsigned long long v, off, len;

	if (f->offset < 0 || f->size < 0 || (uint64_t)f->offset + (uint64_t)f->size > raw_size)
		return pc_error_set(err, EINVAL,
				    "%s: offset 0x%llx: %s:%s raw data of %u bytes does not hold field %s (bytes %d..%d)",
				    t->path, (unsigned long long)rec_offset, ev->system, ev->name,
				    raw_size, f->name, f->offset, f->offset + f->size);
	if (!(f->flags & TEP_FIELD_IS_DYNAMIC))
		return 0;
	if (f->size != 2 && f->size != 4 && f->size != 8)
		return pc_error_set(err, EINVAL, "%s: offset 0x%llx: %s:%s dynamic field %s has size %d",
				    t->path, (unsigned long long)rec_offset, ev->system, ev->name,
				    f->name, f->size);
	v = tep_read_number(t->tep, raw + f->offset, f->size);
	off = v & 0xffff;
	len = (v >> 16) & 0xffff;
	if (f->flags & TEP_FIELD_IS_RELATIVE)
		off += (unsigned long long)f->offset + (unsigned long long)f->size;
	if (off + len > raw_size)
		return pc_error_set(err, EINVAL,
				    "%s: offset 0x%llx: %s:%s dynamic field %s (%llu bytes at %llu) runs past the raw data of %u bytes",
				    t->path, (unsigned long long)rec_offset, ev->system, ev->name,
				    f->name, len, off, raw_size);
	return 0;
}

int tr_format(struct tr_events *t, uint64_t id, const void *raw, uint32_t raw_size, int cpu,
	      uint64_t rec_offset, const char **text, struct pc_error *err)
{
	struct tep_event *ev = id <= INT32_MAX ? tep_find_event(t->tep, (int)id) : NULL;
	struct tep_record rec;
	const struct tep_format_field *f;
	int ret;

	if (!ev)
		return pc_error_set(err, ENOENT,
				    "%s: offset 0x%llx: tracepoint id %llu has no format in TRACING_DATA",
				    t->path, (unsigned long long)rec_offset, (unsigned long long)id);
	if (!raw || raw_size > TR_RAW_MAX)
		return pc_error_set(err, EINVAL, "%s: offset 0x%llx: %s:%s sample has %s raw data",
				    t->path, (unsigned long long)rec_offset, ev->system, ev->name,
				    raw ? "too much" : "no");
	for (f = ev->format.common_fields; f; f = f->next)
		if ((ret = check_field(t, ev, f, raw, raw_size, rec_offset, err)))
			return ret;
	for (f = ev->format.fields; f; f = f->next)
		if ((ret = check_field(t, ev, f, raw, raw_size, rec_offset, err)))
			return ret;
	memcpy(t->raw, raw, raw_size);
	if (t->raw_used > raw_size)		/* what the previous sample left past this one */
		memset(t->raw + raw_size, 0, t->raw_used - raw_size);
	t->raw_used = raw_size;

	memset(&rec, 0, sizeof(rec));
	rec.cpu = cpu;
	rec.size = (int)raw_size;
	rec.record_size = (int)raw_size;
	rec.data = t->raw;
	/* libtraceevent picks the format by the raw data's common_type */
	if (tep_data_type(t->tep, &rec) != ev->id)
		return pc_error_set(err, EINVAL,
				    "%s: offset 0x%llx: %s:%s sample's raw data has common_type %d, not the tracepoint id %d",
				    t->path, (unsigned long long)rec_offset, ev->system, ev->name,
				    tep_data_type(t->tep, &rec), ev->id);
	trace_seq_reset(t->seq);
	tep_print_event(t->tep, t->seq, &rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(t->seq);
	if (t->seq->state != TRACE_SEQ__GOOD)
		return pc_error_set(err, ENOMEM, "%s: out of memory formatting %s:%s", t->path,
				    ev->system, ev->name);
	*text = t->seq->buffer;
	return (int)t->seq->len;
}

const char *tr_event_name(struct tr_events *t, uint64_t id, char *buf, size_t size)
{
	struct tep_event *ev = id <= INT32_MAX ? tep_find_event(t->tep, (int)id) : NULL;

	if (!ev)
		return NULL;
	snprintf(buf, size, "%s:%s", ev->system, ev->name);
	return buf;
}

int tr_set_resolver(struct tr_events *t, tr_resolve_fn *fn, void *ctx)
{
	return tep_set_function_resolver(t->tep, fn, ctx) ? -ENOMEM : 0;
}
