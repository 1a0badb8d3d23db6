// SPDX-License-Identifier: GPL-2.0
/*
 * Reading records: a record outside the file's mapping (the reader's
 * aligned copy of a misaligned one, or a decompressed one) is copied so
 * that it lives as long as its item; its event and time are read here, the
 * parse comes after ordering (reader/parse.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "reader/copies.h"
#include "reader/input.h"
#include "util/log.h"

/* PERF_RECORD_MISC_LOST_SAMPLES_BPF: samples a BPF filter of perf's dropped, not the kernel */
#define RD_MISC_LOST_SAMPLES_BPF (1u << 15)

void rd_input_init(struct rd_input *in, struct pd_reader *r, struct rd_sink out)
{
	memset(in, 0, sizeof(*in));
	in->r = r;
	in->out = out;
}

enum rd_use rd_record_use(uint32_t type, bool can_expand)
{
	switch (type) {
	case PERF_RECORD_SAMPLE:
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PC_RECORD_CALLCHAIN_DEFERRED:
	case PC_RECORD_HEADER_ATTR:
	case PC_RECORD_HEADER_FEATURE:
	case PC_RECORD_FINISHED_ROUND:
		return RD_USE_READ;
	case PC_RECORD_COMPRESSED:
	case PC_RECORD_COMPRESSED2:
		return can_expand ? RD_USE_READ : RD_USE_NOT_INTERPRETED;
	case PERF_RECORD_AUX:
	case PC_RECORD_AUXTRACE:
	case PC_RECORD_AUXTRACE_INFO:
	case PC_RECORD_AUXTRACE_ERROR:
		return RD_USE_NOT_INTERPRETED;
	default:
		return pd_record_name(type) ? RD_USE_IGNORED : RD_USE_NOT_INTERPRETED;
	}
}

/* What ordering needs: the record's event and time, read in place (the parse comes later). */
static void stamp(const struct pd_reader *r, const struct pd_record *rec, struct rd_item *it)
{
	if (rec->header.type >= PC_RECORD_HEADER_ATTR)
		return;
	it->timed = pd_record_time(r, rec, &it->evsel, &it->time);
	if (!it->timed)
		it->evsel = NULL;
}

int rd_input_record(struct rd_input *in, const struct pd_record *rec, struct pc_error *err)
{
	const struct pd_reader *r = in->r;
	struct rd_item it = { .data = rec->data, .offset = rec->offset, .seq = in->seq++,
			      .type = (uint16_t)rec->header.type };
	struct pd_record stable = *rec;
	int ret;

	in->records++;
	if (rec->header.type < RD_INPUT_TYPES)
		in->by_type[rec->header.type]++;
	else
		in->other_types++;
	if (rec->header.type == PERF_RECORD_LOST_SAMPLES && rec->header.size >= 16 &&
	    !(rec->header.misc & RD_MISC_LOST_SAMPLES_BPF)) {
		uint64_t lost;

		memcpy(&lost, (const uint8_t *)rec->data + 8, sizeof(lost));
		in->lost_samples += lost;
	}
	if ((rec->header.type == PC_RECORD_COMPRESSED || rec->header.type == PC_RECORD_COMPRESSED2) &&
	    in->expand.fn)
		return in->expand.fn(in->expand.ctx, in, rec, err);
	if (rec->header.type >= PC_RECORD_HEADER_ATTR && in->tap.fn &&
	    rec->header.type != PC_RECORD_COMPRESSED && rec->header.type != PC_RECORD_COMPRESSED2) {
		ret = in->tap.fn(in->tap.ctx, rec, err);
		if (ret)
			return ret;
	}
	/* header records other than the round marker stay here (pipe attrs are read already) */
	if (rec->header.type >= PC_RECORD_HEADER_ATTR && rec->header.type != PC_RECORD_FINISHED_ROUND)
		return 0;
	if ((const uint8_t *)rec->data < r->base || (const uint8_t *)rec->data >= r->base + r->size) {
		void *copy = rd_copy_alloc(rec->header.size);

		if (!copy)
			return pc_error_set(err, ENOMEM, "out of memory");
		memcpy(copy, rec->data, rec->header.size);
		it.data = stable.data = copy;
		it.owned = true;
	}
	stamp(r, &stable, &it);
	return rd_sink_put(&in->out, &it, err);
}

int rd_input_step(struct rd_input *in, struct pc_error *err)
{
	struct pd_record rec;
	int ret = pd_reader_next(in->r, &in->pos, &rec, err);

	if (ret <= 0)
		return ret;
	ret = rd_input_record(in, &rec, err);
	return ret ? ret : 1;
}

uint64_t rd_input_report(const struct rd_input *in)
{
	uint64_t skipped = 0;
	bool expand = in->expand.fn != NULL;

	for (uint32_t t = 0; t < RD_INPUT_TYPES; t++) {
		const char *name = pd_record_name(t);
		uint64_t n = in->by_type[t];

		if (!n)
			continue;
		if (rd_record_use(t, expand) == RD_USE_NOT_INTERPRETED) {
			skipped += n;
			if (name)
				pc_warn("%s: %llu %s record%s not interpreted (skipped)\n", in->r->path,
					(unsigned long long)n, name, n == 1 ? "" : "s");
			else
				pc_warn("%s: %llu record%s of unknown type %u not interpreted (skipped)\n",
					in->r->path, (unsigned long long)n, n == 1 ? "" : "s", t);
		} else {
			pc_info("%s: %llu %s record%s%s\n", in->r->path, (unsigned long long)n,
				name ? name : "?", n == 1 ? "" : "s",
				rd_record_use(t, expand) == RD_USE_IGNORED ? " (no effect on this output)"
									   : "");
		}
	}
	if (in->other_types) {
		skipped += in->other_types;
		pc_warn("%s: %llu record%s of unknown types (>= %d) not interpreted (skipped)\n",
			in->r->path, (unsigned long long)in->other_types,
			in->other_types == 1 ? "" : "s", RD_INPUT_TYPES);
	}
	return skipped;
}
