// SPDX-License-Identifier: GPL-2.0
/*
 * perf report -s cgroup on files recorded with --all-cgroups (samples with
 * PERF_SAMPLE_CGROUP, CGROUP records naming each id), against the system
 * perf 6.1 (--compat 6.1), stdout byte for byte.  The files are written
 * here with the project's encoder so that their samples fall in several
 * cgroups (this host runs everything in "/"): ids named by a record, one a
 * later record names again (perf keeps the first name), one no record
 * names ("unknown").  Skips where no perf is
 * installed.
 */
#include "kselftest_harness.h"
#include "lib/perfcmp.h"
#include "lib/interop_tools.h"
#include "lib/reader_util.h"

PERFCMP_FIXTURE(cg, "interop-report-cgroup")


/* samples of three threads in cgroups 1 (/), 0x500 (/system.slice/a.service), 0x900 (renamed), 0x777 (never named) */
static int write_cgroups(const char *path)
{
	static const uint64_t ids[] = { 1, 0x500, 0x900, 0x777 };
	const char *pcwork = up_pcwork();
	union pc_attr a;
	struct synth d = { 0 };
	struct pd_sample v = rt_id(100, 100, RT_SEC);
	int ret;

	rt_plain_attr(&a, PERF_SAMPLE_PERIOD | PERF_SAMPLE_CGROUP);
	a.attr.sample_id_all = 1;
	synth_cgroup(&d, &a.attr, 1, "/", &v);
	synth_cgroup(&d, &a.attr, 0x500, "/system.slice/a.service", &v);
	synth_cgroup(&d, &a.attr, 0x900, "/user.slice/old", &v);
	synth_comm(&d, &a.attr, 100, 100, "pcwork", &v);
	synth_comm(&d, &a.attr, 200, 200, "other", &v);
	synth_mmap2(&d, &a.attr, 100, 100, 0x401000, 0x1000, 0x1000, pcwork, &v);
	synth_mmap2(&d, &a.attr, 200, 200, 0x401000, 0x1000, 0x1000, pcwork, &v);
	for (unsigned int n = 0; n < 30; n++) {
		v = rt_id(n % 2 ? 200 : 100, n % 2 ? 200 : 100, RT_SEC + 10 + n);
		v.ip = 0x4010e0 + n % 5 * 0x20;
		v.period = 1000 + n % 3 * 500;
		v.cgroup = ids[n % 4];
		synth_sample(&d, &a.attr, &v);
		if (n == 15) {
			v = rt_id(100, 100, RT_SEC + 25);
			synth_cgroup(&d, &a.attr, 0x900, "/user.slice/new", &v);
		}
	}
	ret = synth_write_one(path, &a.attr, "cpu-clock", &d);
	synth_free(&d);
	return ret;
}

static bool written(struct __test_metadata *_metadata, struct perfcmp *c)
{
	int ret;

	if (!up_pcwork())
		return false;
	ret = write_cgroups(c->path);
	EXPECT_EQ(0, ret);
	return !ret && !perfcmp_sh(&c->perf, "perf script -i '%s' -F ip >/dev/null", c->path) &&
	       c->perf.exit_code != 127;
}

static void same(struct __test_metadata *_metadata, struct perfcmp *c, const char *args,
		 const char *what)
{
	perfcmp_run_report(_metadata, c, "--compat 6.1", args);
	perfcmp_expect_perf_holds(_metadata, c, what, 1);
	perfcmp_expect_same(_metadata, c);
}

TEST_F(cg, rows_by_cgroup_path_as_perf)
{
	if (!written(_metadata, &self->c))
		SKIP(return, "no perf to compare with, or no pcwork");
	same(_metadata, &self->c, "-s cgroup", "/system.slice/a.service");
}

TEST_F(cg, cgroup_with_other_keys_and_unnamed_ids_as_perf)
{
	if (!written(_metadata, &self->c))
		SKIP(return, "no perf to compare with, or no pcwork");
	same(_metadata, &self->c, "-s cgroup,comm,sym -n", "unknown");
	same(_metadata, &self->c, "-s comm,cgroup", "Cgroup");
}

TEST_HARNESS_MAIN
