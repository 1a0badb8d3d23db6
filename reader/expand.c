// SPDX-License-Identifier: GPL-2.0
/*
 * One zstd stream per file, started at the first compressed record: a
 * perf.data directory's data.N files are streams of their own (perf
 * decompresses each with its own context), so the stream starts again where
 * the records' file changes.
 */
#include <string.h>

#include "reader/expand.h"
#include "util/log.h"

static int start(struct rd_expand_zstd *x, const struct pd_reader *r, const char *file,
		 struct pc_error *err)
{
	struct pd_comp_header h, *hp = NULL;
	const void *data;
	size_t size;
	int ret;

	if (!pd_reader_feature(r, PD_FEAT_COMPRESSED, &data, &size)) {
		ret = pd_comp_header_parse(data, size, r->path, r->features[PD_FEAT_COMPRESSED].offset,
					   &h, err);
		if (ret)
			return ret;
		hp = &h;
	}
	ret = pd_decomp_init(&x->d, file, hp, err);
	if (!ret) {
		x->started = true;
		x->file = file;
	}
	return ret;
}

int rd_expand_zstd(void *ctx, struct rd_input *in, const struct pd_record *rec,
		   struct pc_error *err)
{
	struct rd_expand_zstd *x = ctx;
	struct pd_record inner, here = *rec;
	uint64_t local;
	const char *file = pd_reader_where(in->r, rec->offset, &local);
	int ret;

	if (x->started && file != x->file) {
		ret = rd_expand_zstd_finish(x, err);
		rd_expand_zstd_free(x);
		if (ret)
			return ret;
	}
	if (!x->started) {
		ret = start(x, in->r, file, err);
		if (ret)
			return ret;
	}
	/* the decompressor speaks of its file's offsets; the records keep the reader's */
	here.offset = local;
	ret = pd_decomp_feed_record(&x->d, &here, err);
	if (ret)
		return ret;
	while ((ret = pd_decomp_next(&x->d, &inner, err)) == 1) {
		inner.offset = rec->offset;
		ret = rd_input_record(in, &inner, err);
		if (ret)
			return ret;
	}
	return ret;
}

int rd_expand_zstd_finish(struct rd_expand_zstd *x, struct pc_error *err)
{
	size_t left;

	if (!x->started)
		return 0;
	/* a tail perf's writer left unfinished (pd_decomp_unfinished): shown as perf
	 * shows it, not at all, but named */
	left = pd_decomp_unfinished(&x->d);
	if (left) {
		pc_warn("%s: offset 0x%llx: the compressed stream ends inside a record (%zu bytes "
			"of it): not shown, as perf does not show it\n", x->d.path,
			(unsigned long long)x->d.cur_offset, left);
		return 0;
	}
	return pd_decomp_finish(&x->d, err);
}

void rd_expand_zstd_free(struct rd_expand_zstd *x)
{
	if (x->started)
		pd_decomp_fini(&x->d);
	memset(x, 0, sizeof(*x));
}
