// SPDX-License-Identifier: GPL-2.0
/*
 * Upstream interop, attr parity (interop_attr_parity.h): side band and
 * targets: --namespaces, --all-cgroups, --all-user, --all-kernel, -k,
 * --per-thread, --no-bpf-event, and the BPF side-band dummy perf opens
 * beside the events of every variant (its id "1:0x9:sb").
 */
#include "kselftest_harness.h"
#include "interop_attr_parity.h"

/* side band and targets */
FIXTURE_VARIANT_ADD(parity, namespaces) {
	.name = "namespaces", .opts = { "-e", "cpu-clock", "--namespaces" },
	.needs = 1 + PC_FEAT_NAMESPACES };
FIXTURE_VARIANT_ADD(parity, all_cgroups) {
	.name = "all_cgroups", .opts = { "-e", "cpu-clock", "--all-cgroups" },
	.needs = 1 + PC_FEAT_CGROUP };
FIXTURE_VARIANT_ADD(parity, all_user) {
	.name = "all_user", .opts = { "-e", "cpu-clock", "--all-user" } };
FIXTURE_VARIANT_ADD(parity, all_kernel) {
	.name = "all_kernel", .opts = { "-e", "cpu-clock", "--all-kernel" } };
FIXTURE_VARIANT_ADD(parity, clockid) {
	.name = "clockid", .opts = { "-e", "cpu-clock", "-k", "mono" } };
FIXTURE_VARIANT_ADD(parity, clockid_raw) {
	.name = "clockid_raw", .opts = { "-e", "cpu-clock", "-k", "CLOCK_MONOTONIC_RAW" } };
FIXTURE_VARIANT_ADD(parity, switch_events) {
	.name = "switch_events", .opts = { "-e", "cpu-clock", "--switch-events" },
	.needs = 1 + PC_FEAT_CONTEXT_SWITCH };
FIXTURE_VARIANT_ADD(parity, per_thread) {
	.name = "per_thread", .opts = { "-e", "cpu-clock", "--per-thread" } };
/* no bpf_event on the tracking event, no side-band dummy; ksymbol stays */
FIXTURE_VARIANT_ADD(parity, no_bpf_event) {
	.name = "no_bpf_event", .opts = { "-e", "cpu-clock", "--no-bpf-event" } };

TEST_HARNESS_MAIN
