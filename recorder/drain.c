// SPDX-License-Identifier: GPL-2.0
/*
 * Where the drained records go.  Normally a whole span goes to the writer
 * in one call; the only look at each record is its header (and, for
 * samples, the ip) to count samples and losses and to note which DSOs the
 * samples hit, for the BUILD_ID feature.  In snapshot mode samples go to
 * the user-space ring instead and everything else goes to the file.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "recorder/output.h"

/* sample_type is IDENTIFIER|IP|TID|...: fixed u64 slots after the header */
#define SAMPLE_IP_SLOT	1
#define SAMPLE_PID_SLOT	2
#define SAMPLE_TIME_SLOT 3

static void note_record(struct rec_output *out, const struct perf_event_header *h)
{
	const uint64_t *u = (const uint64_t *)(h + 1);
	const uint32_t *w = (const uint32_t *)(h + 1);
	size_t body = h->size - sizeof(*h);

	switch (h->type) {
	case PERF_RECORD_SAMPLE: {
		uint16_t mode = h->misc & PERF_RECORD_MISC_CPUMODE_MASK;

		out->stats.samples++;
		if (body >= 4 * 8) {
			uint64_t t = u[SAMPLE_TIME_SLOT];

			if (!out->stats.first_time || t < out->stats.first_time)
				out->stats.first_time = t;
			if (t > out->stats.last_time)
				out->stats.last_time = t;
		}
		if (out->dsos && body >= 3 * 8)
			rec_dsos_hit(out->dsos, w[SAMPLE_PID_SLOT * 2], u[SAMPLE_IP_SLOT],
				     mode == PERF_RECORD_MISC_KERNEL);
		break;
	}
	case PERF_RECORD_MMAP2:
		/* pid tid addr len pgoff maj min ino ino_gen prot flags filename */
		if (out->dsos && body > 64 && (w[14] & PROT_EXEC))
			rec_dsos_mmap(out->dsos, w[0], u[1], u[2], (const char *)h + 8 + 64);
		break;
	case PERF_RECORD_MMAP:
		if (out->dsos && body > 32 && !(h->misc & PERF_RECORD_MISC_MMAP_DATA))
			rec_dsos_mmap(out->dsos, w[0], u[1], u[2], (const char *)h + 8 + 32);
		break;
	case PERF_RECORD_LOST:
		if (body >= 16)
			out->stats.lost += u[1];
		break;
	case PERF_RECORD_LOST_SAMPLES:
		if (body >= 8)
			out->stats.lost_samples += u[0];
		break;
	}
}

static int write_out(struct rec_output *out, const void *buf, size_t len)
{
	int ret = pd_writer_write(out->w, buf, len, &out->err);

	if (ret < 0) {
		out->write_errno = -ret;
		return ret;
	}
	out->stats.bytes += len;
	return 0;
}

/*
 * Counts and notes the records of buf; with -M writes what precedes each
 * sample and keeps the sample.  *run: where the bytes still to write begin.
 */
static int take_records(struct rec_output *out, const uint8_t *p, const uint8_t *end,
			const uint8_t **run)
{
	*run = p;
	while (p < end) {
		const struct perf_event_header *h = (const void *)p;

		if (h->size < sizeof(*h) || h->size > (size_t)(end - p))
			return pc_error_set(&out->err, EPROTO,
					    "record of size %u with %zu bytes left", h->size,
					    (size_t)(end - p));
		out->stats.records++;
		if (out->snap && h->type == PERF_RECORD_SAMPLE) {
			/* everything before this sample goes to the file, in order */
			if (*run < p) {
				int ret = write_out(out, *run, p - *run);

				if (ret)
					return ret;
			}
			rec_snapshot_put(out->snap, p, h->size);
			*run = p + h->size;
		} else {
			note_record(out, h);
		}
		p += h->size;
	}
	return 0;
}

int rec_output_records(void *ctx, const void *buf, size_t len)
{
	struct rec_output *out = ctx;
	const uint8_t *end = (const uint8_t *)buf + len, *run;
	int ret;

	/* --threads: the DSO table is the readers' and the main thread's; the write is not */
	if (out->dsos_lock)
		pthread_mutex_lock(out->dsos_lock);
	ret = take_records(out, buf, end, &run);
	if (out->dsos_lock)
		pthread_mutex_unlock(out->dsos_lock);
	if (ret)
		return ret;
	if (run < end)
		return write_out(out, run, end - run);
	return 0;
}

int rec_output_write(struct rec_output *out, const void *rec, size_t len)
{
	const uint8_t *p = rec, *end = p + len;

	if (out->dsos_lock)
		pthread_mutex_lock(out->dsos_lock);
	for (; p < end; p += ((const struct perf_event_header *)p)->size) {
		out->stats.records++;
		note_record(out, (const void *)p);
	}
	if (out->dsos_lock)
		pthread_mutex_unlock(out->dsos_lock);
	return write_out(out, rec, len);
}

int rec_output_finished_round(struct rec_output *out)
{
	static const struct perf_event_header round = {
		.type = PC_RECORD_FINISHED_ROUND, .misc = 0, .size = sizeof(round),
	};

	return write_out(out, &round, sizeof(round));
}

static int dump_sink(void *ctx, const void *buf, size_t len)
{
	return rec_output_write(ctx, buf, len);
}

int rec_output_dump_snapshot(struct rec_output *out)
{
	int ret;

	if (!out->snap)
		return 0;
	out->stats.dumps++;
	ret = rec_snapshot_dump(out->snap, dump_sink, out);
	/*
	 * The only rounds of a snapshot file: everything before this mark is
	 * older than the drain that preceded the dump, so readers may sort
	 * and flush up to here; it also tells one dump from the next.
	 */
	return ret ? ret : rec_output_finished_round(out);
}
