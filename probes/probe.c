// SPDX-License-Identifier: GPL-2.0
/*
 * Probing: each feature is asked of the kernel on its own, once per
 * process, and the verdict kept (unknown until probed, then supported,
 * missing, or unknown with the errno that decided nothing).  Nothing is
 * inferred from a newer feature working, unlike upstream perf: a backport
 * or a config option can give a kernel a newer feature without an older one.
 *
 * The cache is not locked: probe from one thread (the recorder opens its
 * events before starting any).
 */
#include "probes/internal.h"

#include <errno.h>
#include <string.h>

struct verdict {
	bool probed;
	enum pc_feature_status status;
	int err;
};

static struct verdict cache[PC_FEAT__COUNT];
static struct verdict baseline;

void pc_probe_reset(void)
{
	memset(cache, 0, sizeof(cache));
	memset(&baseline, 0, sizeof(baseline));
}

/* A feature's refusal means something only if the baseline itself opens. */
static int baseline_errno(void)
{
	if (!baseline.probed) {
		union pc_attr a;
		int ret;

		pc_feature_baseline_attr(&a);
		ret = pc_probe_try(&a, 0);
		baseline.probed = true;
		baseline.status = ret < 0 ? PC_FEATURE_UNKNOWN : PC_FEATURE_SUPPORTED;
		baseline.err = ret < 0 ? -ret : 0;
	}
	return baseline.err;
}

static void probe_one(enum pc_feature feat, struct verdict *v)
{
	const struct pc_feature_row *row = &pc_feature_rows[feat];
	int base_err = baseline_errno();

	v->probed = true;
	if (base_err) {
		v->status = PC_FEATURE_UNKNOWN;
		v->err = base_err;
		return;
	}
	if (row->probe) {
		v->status = row->probe(&v->err);
	} else {
		union pc_attr a;
		unsigned long flags;

		pc_feature_probe_attr(feat, &a, &flags);
		v->status = pc_probe_verdict(pc_probe_try(&a, flags), row->needs_pmu, &v->err);
	}
}

enum pc_feature_status pc_feature_probe(enum pc_feature feat, int *errno_out)
{
	struct verdict *v;

	if ((unsigned int)feat >= PC_FEAT__COUNT) {
		if (errno_out)
			*errno_out = EINVAL;
		return PC_FEATURE_UNKNOWN;
	}
	v = &cache[feat];
	if (!v->probed)
		probe_one(feat, v);
	if (errno_out)
		*errno_out = v->err;
	return v->status;
}
