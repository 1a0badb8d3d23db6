// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck record files read back by the system perf: sample content
 * and side band: -d, --phys-data, page sizes, --sample-cpu, -T, -W,
 * registers, --call-graph dwarf, --namespaces, --all-cgroups, -G,
 * --all-user, -k, --per-thread.
 */
#include "kselftest_harness.h"
#include "record_perf_script.h"

FIXTURE_VARIANT_ADD(fam, data_addr)
{
	.opts = { "-e", "cpu-clock", "-d" }, .mode = "spin", .arg = "0.3", .expect = "wl_",
	.report = true,
};
FIXTURE_VARIANT_ADD(fam, phys_data)
{
	.opts = { "-e", "cpu-clock", "--phys-data" }, .mode = "spin", .arg = "0.3",
	.expect = "wl_",
};
FIXTURE_VARIANT_ADD(fam, page_sizes)
{
	.opts = { "-e", "cpu-clock", "--data-page-size", "--code-page-size" }, .mode = "spin",
	.arg = "0.3", .expect = "wl_",
};
FIXTURE_VARIANT_ADD(fam, sample_cpu_timestamp)
{
	.opts = { "-e", "cpu-clock", "--sample-cpu", "-T" }, .mode = "spin", .arg = "0.3",
	.expect = "wl_",
};
FIXTURE_VARIANT_ADD(fam, weight)
{
	.opts = { "-e", "cpu-clock", "-W" }, .mode = "spin", .arg = "0.3", .expect = "wl_",
	.report = true,
};
FIXTURE_VARIANT_ADD(fam, registers)
{
	.opts = { "-e", "cpu-clock", "--user-regs=" PC_TEST_REGS_IP_SP, "-I" }, .mode = "spin", .arg = "0.3",
	.expect = "wl_",
};
FIXTURE_VARIANT_ADD(fam, dwarf)
{
	.opts = { "-e", "cpu-clock", "--call-graph", "dwarf" }, .mode = "spin", .arg = "0.3",
	.expect = "wl_", .report = true,
};
FIXTURE_VARIANT_ADD(fam, dwarf_size)
{
	.opts = { "-e", "cpu-clock", "--call-graph", "dwarf,4096" }, .mode = "spin",
	.arg = "0.3", .expect = "wl_",
};
FIXTURE_VARIANT_ADD(fam, namespaces)
{
	.opts = { "-e", "cpu-clock", "--namespaces" }, .mode = "spin", .arg = "0.3",
	.expect = "wl_", .report = true,
};
FIXTURE_VARIANT_ADD(fam, all_cgroups)
{
	.opts = { "-e", "cpu-clock", "--all-cgroups" }, .mode = "spin", .arg = "0.3",
	.expect = "wl_", .report = true,
};
FIXTURE_VARIANT_ADD(fam, cgroup_root)
{
	.opts = { "-a", "-e", "cpu-clock", "-G", "/" }, .mode = "spin", .arg = "0.3",
	.expect = "cpu-clock", .cpu_wide = true,
};
FIXTURE_VARIANT_ADD(fam, all_user)
{
	.opts = { "-e", "cpu-clock", "--all-user" }, .mode = "spin", .arg = "0.3",
	.expect = "wl_",
};
FIXTURE_VARIANT_ADD(fam, clockid)
{
	.opts = { "-e", "cpu-clock", "-k", "mono" }, .mode = "spin", .arg = "0.3",
	.expect = "wl_",
};
FIXTURE_VARIANT_ADD(fam, per_thread)
{
	.opts = { "-e", "cpu-clock", "--per-thread" }, .mode = "spin", .arg = "0.3",
	.expect = "wl_", .report = true,
};

RECORD_TEST_MAIN()
