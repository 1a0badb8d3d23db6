// SPDX-License-Identifier: GPL-2.0
/*
 * The rows whose records come from changes to the system: cgroup (sample
 * cgroup ids and the CGROUP record of a new cgroup, against stat()),
 * ksymbol and bpf_event (a BPF socket filter loaded with bpf(): its name,
 * address, id and tag), text_poke (kernel text patched by a tracepoint's
 * static key, and patched back).
 */
#include "kselftest_harness.h"
#include "feature_common.h"

FEATURE_TEST(cgroup, PC_FEAT_CGROUP)
FEATURE_TEST(ksymbol, PC_FEAT_KSYMBOL)
FEATURE_TEST(bpf_event, PC_FEAT_BPF_EVENT)
FEATURE_TEST(text_poke, PC_FEAT_TEXT_POKE)

TEST_HARNESS_MAIN
