// SPDX-License-Identifier: GPL-2.0
/*
 * The behaviour table: one check per row of the feature table, indexed by
 * enum pc_feature, and a cache filled on first use.  The probe decides
 * first: a feature the kernel refuses is "refused", one the probe could
 * not decide is "not tested" with the probe's errno; only an accepted
 * feature runs its check.
 *
 * Not thread-safe, like the probe cache: check from one thread.
 */
#include "probes/behaviour_int.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const bh_check_fn checks[PC_FEAT__COUNT] = {
	[PC_FEAT_SAMPLE_ID_ALL]		= bh_check_sample_id_all,
	[PC_FEAT_EXCLUDE_GUEST]		= bh_check_exclude_guest,
	[PC_FEAT_MMAP2]			= bh_check_mmap2,
	[PC_FEAT_COMM_EXEC]		= bh_check_comm_exec,
	[PC_FEAT_FD_CLOEXEC]		= bh_check_fd_cloexec,
	[PC_FEAT_USE_CLOCKID]		= bh_check_use_clockid,
	[PC_FEAT_CONTEXT_SWITCH]	= bh_check_context_switch,
	[PC_FEAT_WRITE_BACKWARD]	= bh_check_write_backward,
	[PC_FEAT_NAMESPACES]		= bh_check_namespaces,
	[PC_FEAT_LBR_FLAGS]		= bh_check_lbr_flags,
	[PC_FEAT_KSYMBOL]		= bh_check_ksymbol,
	[PC_FEAT_BPF_EVENT]		= bh_check_bpf_event,
	[PC_FEAT_AUX_OUTPUT]		= bh_check_aux_output,
	[PC_FEAT_CGROUP]		= bh_check_cgroup,
	[PC_FEAT_TEXT_POKE]		= bh_check_text_poke,
	[PC_FEAT_DATA_PAGE_SIZE]	= bh_check_data_page_size,
	[PC_FEAT_CODE_PAGE_SIZE]	= bh_check_code_page_size,
	[PC_FEAT_WEIGHT_STRUCT]		= bh_check_weight_struct,
	[PC_FEAT_BUILD_ID]		= bh_check_build_id,
	[PC_FEAT_INHERIT_THREAD]	= bh_check_inherit_thread,
	[PC_FEAT_REMOVE_ON_EXEC]	= bh_check_remove_on_exec,
	[PC_FEAT_SIGTRAP]		= bh_check_sigtrap,
	[PC_FEAT_READ_LOST]		= bh_check_read_lost,
	[PC_FEAT_BRANCH_COUNTERS]	= bh_check_branch_counters,
	[PC_FEAT_INHERIT_SAMPLE_READ]	= bh_check_inherit_sample_read,
	[PC_FEAT_DEFER_CALLCHAIN]	= bh_check_defer_callchain,
	[PC_FEAT_MAX_STACK]		= bh_check_max_stack,
};

static struct pc_behaviour_result cache[PC_FEAT__COUNT];
static bool done[PC_FEAT__COUNT];

void pc_behaviour_reset(void)
{
	memset(cache, 0, sizeof(cache));
	memset(done, 0, sizeof(done));
	pc_probe_reset();
}

const char *pc_behaviour_name(enum pc_behaviour verdict)
{
	switch (verdict) {
	case PC_BEHAVIOUR_REFUSED:	return "refused";
	case PC_BEHAVIOUR_PROVEN:	return "proven";
	case PC_BEHAVIOUR_BROKEN:	return "broken";
	default:			return "not tested";
	}
}

static void run(enum pc_feature feat, struct pc_behaviour_result *r)
{
	const struct pc_feature_info *in = pc_feature_info(feat);
	const char *en;
	int err = 0;
	double t0 = bh_now_ms();

	switch (pc_feature_probe(feat, &err)) {
	case PC_FEATURE_MISSING:
		r->verdict = PC_BEHAVIOUR_REFUSED;
		r->probe_errno = err;
		en = pc_errno_name(err);
		snprintf(r->detail, sizeof(r->detail), "kernel lacks %s (probe: %s)", in->name,
			 en ? en : strerror(err));
		break;
	case PC_FEATURE_UNKNOWN:
		r->probe_errno = err;
		en = pc_errno_name(err);
		/* the PMU rows: ENOENT/EOPNOTSUPP for their hardware base means no PMU */
		if ((err == ENOENT || err == EOPNOTSUPP || err == ENODEV) &&
		    (feat == PC_FEAT_LBR_FLAGS || feat == PC_FEAT_BRANCH_COUNTERS ||
		     feat == PC_FEAT_AUX_OUTPUT))
			bh_not_tested(r, "no PMU for it (probe: %s)", en ? en : strerror(err));
		else
			bh_not_tested(r, "the probe decided nothing (%s)", en ? en : strerror(err));
		break;
	default:
		checks[feat](r);
		break;
	}
	r->ms = bh_now_ms() - t0;
}

const struct pc_behaviour_result *pc_behaviour_check(enum pc_feature feat)
{
	if ((unsigned int)feat >= PC_FEAT__COUNT)
		return NULL;
	if (!done[feat]) {
		memset(&cache[feat], 0, sizeof(cache[feat]));
		run(feat, &cache[feat]);
		done[feat] = true;
	}
	return &cache[feat];
}
