// SPDX-License-Identifier: GPL-2.0
/*
 * Upstream interop, attr parity (interop_attr_parity.h): no option, -g,
 * --call-graph fp,defer, -c, -F, -e, --no-inherit, -s, -p.
 */
#include "kselftest_harness.h"
#include "interop_attr_parity.h"

FIXTURE_VARIANT_ADD(parity, default) { .name = "default", .opts = { NULL } };
FIXTURE_VARIANT_ADD(parity, g) { .name = "g", .opts = { "-e", "cpu-clock", "-g" } };
FIXTURE_VARIANT_ADD(parity, defer) {
	.name = "defer", .opts = { "-e", "cpu-clock", "--call-graph", "fp,defer" }, .defer = true };
FIXTURE_VARIANT_ADD(parity, c) { .name = "c", .opts = { "-e", "cpu-clock", "-c", "100000" } };
FIXTURE_VARIANT_ADD(parity, F) { .name = "F", .opts = { "-e", "cpu-clock", "-F", "997" } };
FIXTURE_VARIANT_ADD(parity, e) { .name = "e", .opts = { "-e", "cpu-clock,page-faults" } };
FIXTURE_VARIANT_ADD(parity, no_inherit) {
	.name = "no_inherit", .opts = { "-e", "cpu-clock", "--no-inherit" } };
FIXTURE_VARIANT_ADD(parity, stat) { .name = "stat", .opts = { "-e", "cpu-clock", "-s" } };
FIXTURE_VARIANT_ADD(parity, p) { .name = "p", .opts = { "-e", "cpu-clock" }, .attach = true };

TEST_HARNESS_MAIN
