// SPDX-License-Identifier: GPL-2.0
/* The pipe format: attrs and features arrive as records within the stream. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata/reader_int.h"

/* Pipe format: attrs and features arrive as records within the stream. */
int pd_pipe_record(struct pd_reader *r, const struct pd_record *rec, struct pc_error *err)
{
	const uint8_t *p = rec->data;
	uint64_t body = rec->header.size - sizeof(struct perf_event_header);

	if (rec->header.type == PC_RECORD_HEADER_ATTR) {
		struct pd_evsel *evsel;
		uint32_t attr_size;
		uint64_t nr_ids;
		char buf[64];
		int ret;

		if (body < PERF_ATTR_SIZE_VER0)
			return pd_bad(r, err, rec->offset, "ATTR record of %u bytes is too short",
				      rec->header.size);
		memcpy(&attr_size, p + 8 + 4, 4);
		if (attr_size == 0)
			attr_size = PERF_ATTR_SIZE_VER0;
		if (attr_size > body || (body - attr_size) % 8)
			return pd_bad(r, err, rec->offset + 12,
				      "ATTR record: attr.size %u does not fit the record body of %llu bytes",
				      attr_size, (unsigned long long)body);
		if (r->nr_evsels >= PD_MAX_EVSELS)
			return pd_bad(r, err, rec->offset, "more than %d ATTR records",
				      PD_MAX_EVSELS);
		/*
		 * Consumers keep pointers to evsels (sample.evsel) across later
		 * ATTR records: the array is reserved whole at the first one and
		 * never moves (calloc leaves the untouched pages unbacked).
		 */
		if (!r->evsels) {
			r->evsels = calloc(PD_MAX_EVSELS, sizeof(*r->evsels));
			if (!r->evsels)
				return pc_error_set(err, ENOMEM, "out of memory");
		}
		evsel = &r->evsels[r->nr_evsels];
		memset(evsel, 0, sizeof(*evsel));
		evsel->idx = r->nr_evsels;
		r->nr_evsels++;
		ret = pd_load_attr(r, evsel, p + 8, attr_size, rec->offset + 8, err);
		if (ret)
			return ret;
		nr_ids = (body - attr_size) / 8;
		if (nr_ids) {
			evsel->ids = malloc(nr_ids * 8);
			if (!evsel->ids)
				return pc_error_set(err, ENOMEM, "out of memory");
			memcpy(evsel->ids, p + 8 + attr_size, nr_ids * 8);
		}
		evsel->nr_ids = (uint32_t)nr_ids;
		evsel->name = strdup(pd_event_name_from_attr(&evsel->attr.attr, buf, sizeof(buf)));
		if (!evsel->name)
			return pc_error_set(err, ENOMEM, "out of memory");
		return pd_build_id_map(r, err);
	}
	if (rec->header.type == PC_RECORD_HEADER_FEATURE) {
		uint64_t feat;

		if (body < 8)
			return pd_bad(r, err, rec->offset, "FEATURE record too short");
		memcpy(&feat, p + 8, 8);
		if (feat < PD_FEAT_BITS && r->stream) {
			/* the record goes with the next read: keep a copy of its payload */
			uint8_t *copy = malloc(body - 8 ? body - 8 : 1);

			if (!copy)
				return pc_error_set(err, ENOMEM, "out of memory");
			memcpy(copy, p + 16, body - 8);
			free(r->stream->feat[feat]);
			r->stream->feat[feat] = copy;
		}
		if (feat < PD_FEAT_BITS) {
			r->features[feat].offset = rec->offset + 16;
			r->features[feat].size = body - 8;
			r->feat_present[feat / 64] |= 1ULL << (feat % 64);
		}
	}
	return 0;
}

/*
 * PERF_RECORD_HEADER_TRACING_DATA in a pipe: a u32 size after the header;
 * that many bytes of TRACING_DATA follow the record (outside header.size),
 * then zeros up to a multiple of 8.  The section becomes the feature's, and
 * *pos moves past it.
 */
int pd_pipe_tracing_data(struct pd_reader *r, const struct pd_record *rec, uint64_t *pos,
			 struct pc_error *err)
{
	uint32_t size;
	uint64_t padded, start = rec->offset + rec->header.size;

	if (rec->header.size < sizeof(struct perf_event_header) + 4)
		return pd_bad(r, err, rec->offset, "TRACING_DATA record of %u bytes is too short",
			      rec->header.size);
	memcpy(&size, (const uint8_t *)rec->data + sizeof(struct perf_event_header), 4);
	padded = ((uint64_t)size + 7) & ~7ULL;
	if (padded > r->data_end - start)
		return pd_bad(r, err, rec->offset,
			      "TRACING_DATA of %u bytes runs past the end of the input (%llu left)",
			      size, (unsigned long long)(r->data_end - start));
	r->features[PD_FEAT_TRACING_DATA].offset = start;
	r->features[PD_FEAT_TRACING_DATA].size = size;
	if (size)
		r->feat_present[PD_FEAT_TRACING_DATA / 64] |= 1ULL << (PD_FEAT_TRACING_DATA % 64);
	*pos = start + padded;
	return 0;
}

/*
 * PERF_RECORD_EVENT_UPDATE: u64 type, u64 id, then the type's data.  A NAME
 * (type 2) renames the event the id belongs to, as perf does; the other
 * types (unit, scale, cpus) do not change what the reader prints.
 */
int pd_event_update(struct pd_reader *r, const struct pd_record *rec, struct pc_error *err)
{
	const uint8_t *p = rec->data;
	uint64_t body = rec->header.size - sizeof(struct perf_event_header);
	uint64_t type, id;
	const struct pd_evsel *found;
	struct pd_evsel *evsel;
	const char *name;
	char *copy;

	if (body < 16)
		return pd_bad(r, err, rec->offset, "EVENT_UPDATE record of %u bytes is too short",
			      rec->header.size);
	memcpy(&type, p + 8, 8);
	memcpy(&id, p + 16, 8);
	if (type != 2)
		return 0;
	name = (const char *)p + 24;
	if (body == 16 || !memchr(name, '\0', body - 16))
		return pd_bad(r, err, rec->offset + 24,
			      "EVENT_UPDATE name is not NUL-terminated within the record");
	found = r->nr_evsels ? pd_reader_evsel_of(r, id) : NULL;
	if (!found)
		return 0;	/* perf ignores an id it does not know */
	evsel = &r->evsels[found->idx];
	copy = strdup(name);
	if (!copy)
		return pc_error_set(err, ENOMEM, "out of memory");
	free(evsel->name);
	evsel->name = copy;
	return 0;
}
