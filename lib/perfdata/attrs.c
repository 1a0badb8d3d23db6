// SPDX-License-Identifier: GPL-2.0
/*
 * The events of a file: an attr of any size loaded into an evsel, and the
 * map from sample id to evsel.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata/reader_int.h"

/*
 * Copies an attr of any size into the evsel.  Bytes beyond what this
 * project knows must be zero: a non-zero one is a field we would misread.
 */
int pd_load_attr(struct pd_reader *r, struct pd_evsel *evsel, const uint8_t *p,
		 uint64_t avail, uint64_t off, struct pc_error *err)
{
	uint32_t size;

	if (avail < PERF_ATTR_SIZE_VER0)
		return pd_bad(r, err, off, "attr needs %d bytes, only %llu present",
			      PERF_ATTR_SIZE_VER0, (unsigned long long)avail);
	memcpy(&size, p + 4, 4);
	if (size == 0)
		size = PERF_ATTR_SIZE_VER0;	/* as the kernel reads a zero size */
	if (size < PERF_ATTR_SIZE_VER0 || size % 8)
		return pd_bad(r, err, off + 4, "attr.size %u is not a valid attr size", size);
	if (size > avail)
		return pd_bad(r, err, off + 4,
			      "attr.size %u is larger than its slot of %llu bytes", size,
			      (unsigned long long)avail);
	for (uint32_t i = PC_ATTR_SIZE_MAX; i < size; i++)
		if (p[i])
			return pd_bad(r, err, off + i,
				      "attr of size %u has a non-zero byte beyond the %d bytes this reader knows",
				      size, PC_ATTR_SIZE_MAX);
	memset(&evsel->attr, 0, sizeof(evsel->attr));
	memcpy(&evsel->attr, p, size < PC_ATTR_SIZE_MAX ? size : PC_ATTR_SIZE_MAX);
	evsel->file_attr_size = size;
	evsel->attr.attr.size = size < PC_ATTR_SIZE_MAX ? size : PC_ATTR_SIZE_MAX;
	if (evsel->attr.attr.sample_type & ~PC_SAMPLE_TYPE_KNOWN)
		return pd_bad(r, err, off + 24, "sample_type %#llx has bits this reader does not know",
			      (unsigned long long)evsel->attr.attr.sample_type);
	pd_evsel_init_layout(evsel);
	return 0;
}

static int cmp_id(const void *a, const void *b)
{
	const struct pd_id_map *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

/* (Re)builds the sorted id -> evsel map and checks the events agree on layout. */
int pd_build_id_map(struct pd_reader *r, struct pc_error *err)
{
	uint64_t total = 0;
	uint32_t n = 0;

	for (uint32_t i = 0; i < r->nr_evsels; i++)
		total += r->evsels[i].nr_ids;
	free(r->id_map);
	r->id_map = NULL;
	r->nr_id_map = 0;
	if (total) {
		r->id_map = calloc(total, sizeof(*r->id_map));
		if (!r->id_map)
			return pc_error_set(err, ENOMEM, "%s: out of memory for %llu ids",
					    r->path, (unsigned long long)total);
	}
	for (uint32_t i = 0; i < r->nr_evsels; i++)
		for (uint32_t j = 0; j < r->evsels[i].nr_ids; j++) {
			r->id_map[n].id = r->evsels[i].ids[j];
			r->id_map[n].evsel = i;
			n++;
		}
	if (n)
		qsort(r->id_map, n, sizeof(*r->id_map), cmp_id);
	r->nr_id_map = n;

	r->sample_id_all = r->nr_evsels && r->evsels[0].attr.attr.sample_id_all;
	for (uint32_t i = 1; i < r->nr_evsels; i++) {
		const struct pd_evsel *a = &r->evsels[0], *b = &r->evsels[i];

		if (a->attr.attr.sample_id_all != b->attr.attr.sample_id_all)
			return pc_error_set(err, EINVAL,
					    "%s: events disagree on sample_id_all", r->path);
		/*
		 * perf checks a file's events alone (perf_session__open returns
		 * before evlist__valid_sample_type for a pipe): perf stat record
		 * -o - writes its counters with no sample_type at all
		 */
		if (r->pipe_format)
			continue;
		if (a->id_pos != b->id_pos || a->is_pos != b->is_pos || a->id_pos == (uint32_t)-1)
			return pc_error_set(err, EINVAL,
					    "%s: %u events whose samples carry no common id position",
					    r->path, r->nr_evsels);
	}
	return 0;
}

const struct pd_evsel *pd_reader_evsel_of(const struct pd_reader *r, uint64_t id)
{
	uint32_t lo = 0, hi = r->nr_id_map;

	/* perf synthesizes records with a zeroed sample_id: id 0 is the first event */
	if (r->nr_evsels == 1 || id == 0)
		return &r->evsels[0];
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;

		if (r->id_map[mid].id == id)
			return &r->evsels[r->id_map[mid].evsel];
		if (r->id_map[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
