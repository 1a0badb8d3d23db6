// SPDX-License-Identifier: GPL-2.0
/*
 * Upstream interop, attr parity (interop_attr_parity.h): the sample content:
 * -d, --phys-data, page sizes, --sample-cpu, -T, -W, --transaction, registers,
 * --call-graph dwarf, -P, -R, --sample-identifier, --running-time, the
 * callchain parts, --no-buffering, --buildid-mmap, -n, --strict-freq, -F
 * above the kernel's limit, --timestamp-boundary; perf 7.2's --sample-mem-info,
 * --data-mmap and --latency, and what changes no attr (--aio,
 * --num-thread-synthesize, --proc-map-timeout, --vmlinux).
 */
#include "kselftest_harness.h"
#include "interop_attr_parity.h"

/* sample content */
FIXTURE_VARIANT_ADD(parity, d) { .name = "d", .opts = { "-e", "cpu-clock", "-d" } };
FIXTURE_VARIANT_ADD(parity, phys_data) {
	.name = "phys_data", .opts = { "-e", "cpu-clock", "--phys-data" } };
FIXTURE_VARIANT_ADD(parity, data_page_size) {
	.name = "data_page_size", .opts = { "-e", "cpu-clock", "--data-page-size" },
	.needs = 1 + PC_FEAT_DATA_PAGE_SIZE };
FIXTURE_VARIANT_ADD(parity, code_page_size) {
	.name = "code_page_size", .opts = { "-e", "cpu-clock", "--code-page-size" },
	.needs = 1 + PC_FEAT_CODE_PAGE_SIZE };
FIXTURE_VARIANT_ADD(parity, sample_cpu) {
	.name = "sample_cpu", .opts = { "-e", "cpu-clock", "--sample-cpu" } };
FIXTURE_VARIANT_ADD(parity, T) { .name = "T", .opts = { "-e", "cpu-clock", "-T" } };
FIXTURE_VARIANT_ADD(parity, W) { .name = "W", .opts = { "-e", "cpu-clock", "-W" } };
FIXTURE_VARIANT_ADD(parity, transaction) {
	.name = "transaction", .opts = { "-e", "cpu-clock", "--transaction" } };
FIXTURE_VARIANT_ADD(parity, user_regs) {
	.name = "user_regs", .opts = { "-e", "cpu-clock", "--user-regs=" PC_TEST_REGS_IP_SP } };
FIXTURE_VARIANT_ADD(parity, user_regs_all) {
	.name = "user_regs_all", .opts = { "-e", "cpu-clock", "--user-regs" } };
FIXTURE_VARIANT_ADD(parity, intr_regs) { .name = "intr_regs", .opts = { "-e", "cpu-clock", "-I" } };
FIXTURE_VARIANT_ADD(parity, dwarf) {
	.name = "dwarf", .opts = { "-e", "cpu-clock", "--call-graph", "dwarf" } };
FIXTURE_VARIANT_ADD(parity, dwarf_size) {
	.name = "dwarf_size", .opts = { "-e", "cpu-clock", "--call-graph", "dwarf,4096" } };

FIXTURE_VARIANT_ADD(parity, P) { .name = "P", .opts = { "-e", "cpu-clock", "-P" } };
FIXTURE_VARIANT_ADD(parity, R) { .name = "R", .opts = { "-e", "cpu-clock", "-R" } };
FIXTURE_VARIANT_ADD(parity, sample_identifier) {
	.name = "sample_identifier", .opts = { "-e", "cpu-clock", "--sample-identifier" } };
FIXTURE_VARIANT_ADD(parity, running_time) {
	.name = "running_time", .opts = { "-e", "cpu-clock", "--running-time" } };
FIXTURE_VARIANT_ADD(parity, user_callchains) {
	.name = "user_callchains", .opts = { "-e", "cpu-clock", "-g", "--user-callchains" } };
FIXTURE_VARIANT_ADD(parity, kernel_callchains) {
	.name = "kernel_callchains", .opts = { "-e", "cpu-clock", "-g", "--kernel-callchains" } };
FIXTURE_VARIANT_ADD(parity, no_samples) {
	.name = "no_samples", .opts = { "-e", "cpu-clock", "-n" } };
/* the default event: cycles, or cpu-clock where no PMU counts cycles (perf falls back here too) */
FIXTURE_VARIANT_ADD(parity, no_samples_default_event) {
	.name = "no_samples_default_event", .opts = { "-n" } };
FIXTURE_VARIANT_ADD(parity, no_samples_c) {
	.name = "no_samples_c", .opts = { "-e", "cpu-clock", "-c", "100000", "--no-samples" } };
/* above kernel.perf_event_max_sample_rate: both lower it to the limit */
FIXTURE_VARIANT_ADD(parity, freq_above_limit) {
	.name = "freq_above_limit", .opts = { "-e", "cpu-clock", "-F", "100000000" } };
FIXTURE_VARIANT_ADD(parity, strict_freq) {
	.name = "strict_freq", .opts = { "-e", "cpu-clock", "-F", "999", "--strict-freq" } };
FIXTURE_VARIANT_ADD(parity, timestamp_boundary) {
	.name = "timestamp_boundary", .opts = { "-e", "cpu-clock", "--timestamp-boundary" } };
FIXTURE_VARIANT_ADD(parity, no_buffering) {
	.name = "no_buffering", .opts = { "-e", "cpu-clock", "--no-buffering" } };
/* perf 7.2's own options: each a skip with perfs that lack them */
FIXTURE_VARIANT_ADD(parity, sample_mem_info) {
	.name = "sample_mem_info", .opts = { "-e", "cpu-clock", "--sample-mem-info" } };
FIXTURE_VARIANT_ADD(parity, data_mmap) {
	.name = "data_mmap", .opts = { "-e", "cpu-clock", "--data-mmap" } };
FIXTURE_VARIANT_ADD(parity, latency) {
	.name = "latency", .opts = { "-e", "cpu-clock", "--latency" } };
/* how perf writes and synthesizes: the same attrs */
FIXTURE_VARIANT_ADD(parity, aio) { .name = "aio", .opts = { "-e", "cpu-clock", "--aio=2" } };
FIXTURE_VARIANT_ADD(parity, num_thread_synthesize) {
	.name = "num_thread_synthesize",
	.opts = { "-e", "cpu-clock", "--num-thread-synthesize", "2" } };
FIXTURE_VARIANT_ADD(parity, vmlinux) {
	.name = "vmlinux", .opts = { "-e", "cpu-clock", "--vmlinux", "/bin/sh" } };
FIXTURE_VARIANT_ADD(parity, proc_map_timeout) {
	.name = "proc_map_timeout", .opts = { "-e", "cpu-clock", "--proc-map-timeout", "100" } };
FIXTURE_VARIANT_ADD(parity, buildid_mmap) {
	.name = "buildid_mmap", .opts = { "-e", "cpu-clock", "--buildid-mmap" },
	.needs = 1 + PC_FEAT_BUILD_ID };

TEST_HARNESS_MAIN
