// SPDX-License-Identifier: GPL-2.0
/*
 * What each kernel of the matrix refuses.  The checks come in the order
 * the real perf_event_open makes them: attr size, open flags, attr bits
 * and their combinations, then the callchain depth.
 */
#include "probes/kmodel.h"

#include <errno.h>
#include <string.h>

#define FEAT(f)		(1ULL << PC_FEAT_##f)
#define ALL		((1ULL << PC_FEAT__COUNT) - 1)
#define NEWER_THAN_5_10	(FEAT(DATA_PAGE_SIZE) | FEAT(CODE_PAGE_SIZE) | FEAT(WEIGHT_STRUCT) | \
			 FEAT(BUILD_ID) | FEAT(INHERIT_THREAD) | FEAT(REMOVE_ON_EXEC) | \
			 FEAT(SIGTRAP) | NEWER_THAN_5_19)
#define NEWER_THAN_5_19	(FEAT(READ_LOST) | NEWER_THAN_6_1)
#define NEWER_THAN_6_1	(FEAT(BRANCH_COUNTERS) | FEAT(INHERIT_SAMPLE_READ) | NEWER_THAN_6_18)
#define NEWER_THAN_6_18	FEAT(DEFER_CALLCHAIN)

/*
 * The measured rows of kernels.md (build_id, sigtrap, inherit_sample_read,
 * defer_callchain) and of probes/baselines (measured in the matrix guests),
 * the rest by the version each feature appeared in.  Debian's 5.10 takes
 * PERF_FORMAT_LOST (read_lost, upstream 6.0): measured in the 5.10 guest,
 * and found by emulating 5.10 against that baseline (selftests/kernel_emulate).
 * attr_size is sizeof(struct perf_event_attr) there: VER6 (5.10), VER7
 * (6.1), VER8 (6.12, 6.18), VER9 (7.2).
 */
const struct pc_kernel_model pc_kernel_models[] = {
	{ "5.10", 120, (ALL & ~NEWER_THAN_5_10) | FEAT(READ_LOST), EINVAL, 127 },
	{ "6.1", 128, ALL & ~NEWER_THAN_6_1, EINVAL, 127 },
	{ "6.12", 136, ALL & ~NEWER_THAN_6_18, EINVAL, 127 },
	{ "6.18", 136, ALL & ~NEWER_THAN_6_18, EINVAL, 127 },
	{ "7.2", 144, ALL, EINVAL, 127 },
	{ NULL },
};

const struct pc_kernel_model *pc_kernel_model_find(const char *name)
{
	for (const struct pc_kernel_model *k = pc_kernel_models; k->name; k++)
		if (!strcmp(k->name, name))
			return k;
	return NULL;
}

/* The model's own map of attr bits to features (flags word bit numbers). */
static const struct {
	int bit;
	enum pc_feature feat;
} flag_feature[] = {
	{ 18, PC_FEAT_SAMPLE_ID_ALL },	{ 19, PC_FEAT_EXCLUDE_GUEST },
	{ 20, PC_FEAT_EXCLUDE_GUEST },	{ 23, PC_FEAT_MMAP2 },
	{ 24, PC_FEAT_COMM_EXEC },	{ 25, PC_FEAT_USE_CLOCKID },
	{ 26, PC_FEAT_CONTEXT_SWITCH },	{ 27, PC_FEAT_WRITE_BACKWARD },
	{ 28, PC_FEAT_NAMESPACES },	{ 29, PC_FEAT_KSYMBOL },
	{ 30, PC_FEAT_BPF_EVENT },	{ 31, PC_FEAT_AUX_OUTPUT },
	{ 32, PC_FEAT_CGROUP },		{ 33, PC_FEAT_TEXT_POKE },
	{ 34, PC_FEAT_BUILD_ID },	{ 35, PC_FEAT_INHERIT_THREAD },
	{ 36, PC_FEAT_REMOVE_ON_EXEC },	{ 37, PC_FEAT_SIGTRAP },
	{ 38, PC_FEAT_DEFER_CALLCHAIN },{ 39, PC_FEAT_DEFER_CALLCHAIN },
};

static const struct {
	uint64_t bit;
	enum pc_feature feat;
} sample_feature[] = {
	{ 1ULL << 21, PC_FEAT_CGROUP },
	{ 1ULL << 22, PC_FEAT_DATA_PAGE_SIZE },
	{ 1ULL << 23, PC_FEAT_CODE_PAGE_SIZE },
	{ 1ULL << 24, PC_FEAT_WEIGHT_STRUCT },
};

static bool has(const struct pc_kernel_model *k, enum pc_feature f)
{
	return (k->features >> f) & 1;
}

int pc_kernel_model_decide(const struct pc_kernel_model *k, const struct perf_event_attr *attr,
			   unsigned long flags, uint32_t *size_out)
{
	const unsigned char *bytes = (const unsigned char *)attr;
	uint32_t size = attr->size ? attr->size : PERF_ATTR_SIZE_VER0;
	uint64_t fw, st = attr->sample_type;
	unsigned long known_flags = PERF_FLAG_FD_NO_GROUP | PERF_FLAG_FD_OUTPUT |
				    PERF_FLAG_PID_CGROUP;
	int refuse = k->refuse_errno;

	/* size: like the kernel's attr copy, a longer attr is fine if its tail is zero */
	if (size < PERF_ATTR_SIZE_VER0 || size > 4096)
		goto e2big;
	for (uint32_t i = k->attr_size; i < size && i < PC_ATTR_SIZE_MAX; i++)
		if (bytes[i])
			goto e2big;
	if (has(k, PC_FEAT_FD_CLOEXEC))
		known_flags |= PERF_FLAG_FD_CLOEXEC;
	if (flags & ~known_flags)
		return EINVAL;

	fw = pc_attr_flags_get(attr);
	if (fw >> 40)
		return EINVAL;
	for (size_t i = 0; i < sizeof(flag_feature) / sizeof(flag_feature[0]); i++)
		if (((fw >> flag_feature[i].bit) & 1) && !has(k, flag_feature[i].feat))
			return refuse;
	if (st >> 25)
		return EINVAL;
	for (size_t i = 0; i < sizeof(sample_feature) / sizeof(sample_feature[0]); i++)
		if ((st & sample_feature[i].bit) && !has(k, sample_feature[i].feat))
			return refuse;
	if (attr->read_format >> 5)
		return EINVAL;
	if ((attr->read_format & PERF_FORMAT_LOST) && !has(k, PC_FEAT_READ_LOST))
		return refuse;
	if (st & PERF_SAMPLE_BRANCH_STACK) {
		uint64_t bt = attr->branch_sample_type;

		if (bt >> 20)
			return EINVAL;
		if ((bt & (PERF_SAMPLE_BRANCH_NO_FLAGS | PERF_SAMPLE_BRANCH_NO_CYCLES)) &&
		    !has(k, PC_FEAT_LBR_FLAGS))
			return EINVAL;
		if ((bt & PC_SAMPLE_BRANCH_COUNTERS) && !has(k, PC_FEAT_BRANCH_COUNTERS))
			return EINVAL;
	}
	if (attr->inherit && (st & PERF_SAMPLE_READ) && !has(k, PC_FEAT_INHERIT_SAMPLE_READ))
		return EINVAL;
	if (((fw >> 37) & 1) && !((fw >> 36) & 1))	/* sigtrap needs remove_on_exec */
		return EINVAL;
	if (((fw >> 35) & 1) && !attr->inherit)		/* inherit_thread needs inherit */
		return EINVAL;
	if ((st & PERF_SAMPLE_CALLCHAIN) && has(k, PC_FEAT_MAX_STACK) &&
	    attr->sample_max_stack > k->max_stack)
		return EOVERFLOW;
	return 0;

e2big:
	if (size_out)
		*size_out = k->attr_size;
	return E2BIG;
}
