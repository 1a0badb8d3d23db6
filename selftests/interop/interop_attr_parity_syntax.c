// SPDX-License-Identifier: GPL-2.0
/*
 * Upstream interop, attr parity (interop_attr_parity.h): the event syntax:
 * groups with modifiers, :S, pmu/terms/, :D, -F max, -c on two events.
 */
#include "kselftest_harness.h"
#include "interop_attr_parity.h"

/* event syntax */
FIXTURE_VARIANT_ADD(parity, group) {
	.name = "group", .opts = { "-e", "{cpu-clock,page-faults}" } };
FIXTURE_VARIANT_ADD(parity, group_mod) {
	.name = "group_mod", .opts = { "-e", "{cpu-clock,page-faults}:u" } };
FIXTURE_VARIANT_ADD(parity, leader_sampling) {
	.name = "leader_sampling", .opts = { "-e", "{cpu-clock,page-faults}:S" } };
FIXTURE_VARIANT_ADD(parity, leader_sampling_c) {
	.name = "leader_sampling_c", .opts = { "-e", "{cpu-clock,page-faults}:S", "-c", "10000" } };
FIXTURE_VARIANT_ADD(parity, term_period) {
	.name = "term_period", .opts = { "-e", "cpu-clock/period=100000/" } };
FIXTURE_VARIANT_ADD(parity, term_freq) {
	.name = "term_freq", .opts = { "-e", "cpu-clock/freq=999,name=foo/" } };
FIXTURE_VARIANT_ADD(parity, term_config) {
	.name = "term_config", .opts = { "-e", "cpu-clock/config=0,config1=3,config2=5/" } };
FIXTURE_VARIANT_ADD(parity, term_callgraph) {
	.name = "term_callgraph", .opts = { "-e", "cpu-clock/call-graph=dwarf,stack-size=4096/" } };
FIXTURE_VARIANT_ADD(parity, pinned) { .name = "pinned", .opts = { "-e", "cpu-clock:D" } };
FIXTURE_VARIANT_ADD(parity, F_max) { .name = "F_max", .opts = { "-e", "cpu-clock", "-F", "max" } };
FIXTURE_VARIANT_ADD(parity, c_two_events) {
	.name = "c_two_events", .opts = { "-e", "cpu-clock", "-e", "page-faults", "-c", "5000" } };

/* an -e dummy samples at the default frequency: only perf's own tracking dummy has period 1 */
FIXTURE_VARIANT_ADD(parity, dummy_event) {
	.name = "dummy_event", .opts = { "-e", "dummy" } };

TEST_HARNESS_MAIN
