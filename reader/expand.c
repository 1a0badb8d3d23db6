// SPDX-License-Identifier: GPL-2.0
/* One zstd stream per file, started at the first compressed record. */
#include <string.h>

#include "reader/expand.h"
#include "util/log.h"

static int start(struct rd_expand_zstd *x, const struct pd_reader *r, struct pc_error *err)
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
	ret = pd_decomp_init(&x->d, r->path, hp, err);
	if (!ret)
		x->started = true;
	return ret;
}

int rd_expand_zstd(void *ctx, struct rd_input *in, const struct pd_record *rec,
		   struct pc_error *err)
{
	struct rd_expand_zstd *x = ctx;
	struct pd_record inner;
	int ret;

	if (!x->started) {
		ret = start(x, in->r, err);
		if (ret)
			return ret;
	}
	ret = pd_decomp_feed_record(&x->d, rec, err);
	if (ret)
		return ret;
	while ((ret = pd_decomp_next(&x->d, &inner, err)) == 1) {
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
		pc_warn("%s: offset %#llx: the compressed stream ends inside a record (%zu bytes "
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
