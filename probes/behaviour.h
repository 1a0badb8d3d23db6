/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Behaviour checks: every row of the feature table proven by what the
 * kernel does, not by the kernel accepting the bit.  One small check per
 * row (probes/behaviour_*.c), one table indexed by enum pc_feature, one
 * lazily filled cache.  A check opens its events through pc_event_open(),
 * runs a tiny workload and reads what the kernel wrote into its own ring.
 *
 * Verdicts: refused (the probe found the feature missing), proven (the
 * check saw the promised behaviour), broken (accepted, but the check saw
 * something else: the detail says what), not tested (with the reason,
 * derived from the probe or from what the machine offers).
 */
#ifndef PERFCHECK_PROBES_BEHAVIOUR_H
#define PERFCHECK_PROBES_BEHAVIOUR_H

#include "probes/probe.h"

enum pc_behaviour {
	PC_BEHAVIOUR_NOT_TESTED,
	PC_BEHAVIOUR_REFUSED,
	PC_BEHAVIOUR_PROVEN,
	PC_BEHAVIOUR_BROKEN,
};

struct pc_behaviour_result {
	enum pc_behaviour verdict;
	int probe_errno;		/* the probe's errno when refused or undecided */
	double ms;			/* wall time of the check */
	char detail[320];		/* what was seen, or why it was not tested */
};

/* Runs the row's check once per process (cached); NULL for an unknown row. */
const struct pc_behaviour_result *pc_behaviour_check(enum pc_feature feat);
/* "not tested", "refused", "proven", "broken" */
const char *pc_behaviour_name(enum pc_behaviour verdict);
/* Forgets every cached result (and the probe's verdicts). */
void pc_behaviour_reset(void);

#endif
