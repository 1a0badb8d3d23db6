// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck record --threads read by upstream perf: perf script and perf
 * report take the directory without a single warning and count the
 * samples the library reader counts, per task, with callchains and
 * system-wide; its layout (the header file, data.N per ring, DIR_FORMAT)
 * is the one perf record --threads writes on the same command.  Read by
 * the system perf (6.1 on the host) and, where one is there, by a second
 * perf ($PERFCHECK_PERF72, else /tmp/perf72: perf 7.2).  SKIPs without.
 */
#include <dirent.h>

#include "kselftest_harness.h"
#include "interop_tools.h"
#include "record_common.h"
#include "lib/perfcmp.h"

FIXTURE(thrperf)
{
	char *dir;
	char *out;
};

FIXTURE_VARIANT(thrperf)
{
	const char *opts[6];
	const char *mode;
	bool cpu_wide;			/* -a: root or perf_event_paranoid <= 0 */
};

FIXTURE_VARIANT_ADD(thrperf, per_task)
{
	.opts = { "--threads", "-e", "task-clock" }, .mode = "threads",
};
FIXTURE_VARIANT_ADD(thrperf, callchains)
{
	.opts = { "--threads", "-g", "-e", "task-clock" }, .mode = "threads",
};
FIXTURE_VARIANT_ADD(thrperf, package_compressed)
{
	.opts = { "--threads=package", "-z", "-e", "task-clock" }, .mode = "spin",
};
FIXTURE_VARIANT_ADD(thrperf, system_wide)
{
	.opts = { "--threads", "-a", "-e", "cpu-clock" }, .mode = "threads", .cpu_wide = true,
};

FIXTURE_SETUP(thrperf)
{
	self->dir = pc_test_mkdtemp("interop-record-threads");
	ASSERT_NE(NULL, self->dir);
	ASSERT_EQ(0, rt_use_copy(self->dir));
	self->out = strdup(rt_path(self->dir, "pc.data"));
}

FIXTURE_TEARDOWN(thrperf)
{
	rt_workload_copy[0] = '\0';
	free(self->out);
	pc_test_rmdir(self->dir);
}


/* Lines of `PROG script -F time -i path`: one per sample; -1 when it fails. */
static long long script_lines(const char *prog, const char *path, char **err)
{
	char *argv[] = { (char *)prog, "script", "-F", "time", "-i", (char *)path, NULL };
	struct pc_run run;
	long long lines = 0;

	if (pc_test_run(&run, 120, argv))
		return -1;
	for (const char *p = run.out; p && *p; p++)
		lines += *p == '\n';
	if (run.exit_code)
		lines = -1;
	if (err)
		*err = strdup(run.err ? run.err : "");
	pc_run_free(&run);
	return lines;
}

/* Records with perfcheck; its sample count by perfcheck script (-z included). */
static long long record_ours(struct __test_metadata *_metadata, FIXTURE_DATA(thrperf) *self,
			     const FIXTURE_VARIANT(thrperf) *variant)
{
	const char *opts[12];
	struct pc_run run;
	int n = 0;

	opts[n++] = "-q";
	for (int i = 0; variant->opts[i]; i++)
		opts[n++] = variant->opts[i];
	opts[n++] = "-o";
	opts[n++] = self->out;
	opts[n] = NULL;
	if (rt_record(&run, 60, opts, variant->mode, "0.3") || run.exit_code) {
		TH_LOG("perfcheck record: %s", run.err);
		pc_run_free(&run);
		return 0;
	}
	pc_run_free(&run);
	return script_lines(pc_test_perfcheck(), self->out, NULL);
}

/* perf script and perf report by that perf: no warning, and its sample count. */
static void perf_reads_it(struct __test_metadata *_metadata, const char *perf, const char *path,
			  long long samples)
{
	char *report[] = { (char *)perf, "report", "--stdio", "-i", (char *)path, NULL };
	struct pc_run run;
	char *err = NULL;

	EXPECT_EQ(samples, script_lines(perf, path, &err)) TH_LOG("%s script: one line per "
								  "sample", perf);
	EXPECT_STREQ("", err ? err : "(did not run)") TH_LOG("%s script warned", perf);
	free(err);
	ASSERT_EQ(0, pc_test_run(&run, 120, report));
	EXPECT_EQ(0, run.exit_code);
	EXPECT_STREQ("", run.err) TH_LOG("%s report warned", perf);
	EXPECT_NE(NULL, strstr(run.out, "# Total Lost Samples: 0")) TH_LOG("%.2000s", run.out);
	pc_run_free(&run);
}

/*
 * Whether perf has record --threads (5.17+): one that predates it reads a
 * directory's data file alone (perf 5.10 in the 5.10 guest: none of the
 * samples, which are all in data.N); 0, else -1 with perf's words in why
 */
static int perf_has_threads(const char *perf, const char *dir, char *why, size_t size)
{
	char *out = strdup(rt_path(dir, "probe.data"));
	char *argv[] = { (char *)perf, "record", "-q", "--threads", "-e", "cpu-clock", "-o", out,
			 "--", "sleep", "0", NULL };
	struct pc_run run;
	int ret = 0;

	if (pc_test_run(&run, 120, argv) || run.exit_code) {
		snprintf(why, size, "%s", run.err ? run.err : "could not run");
		ret = -1;
	}
	pc_run_free(&run);
	free(out);
	return ret;
}

TEST_F(thrperf, system_perf_reads_it_without_a_warning_and_counts_the_same_samples)
{
	long long samples;
	char why[400];

	if (!up_perf())
		SKIP(return, "no upstream perf here (the guests have none without its payload)");
	if (perf_has_threads(up_perf(), self->dir, why, sizeof(why)) && strstr(why, "threads"))
		SKIP(return, "this perf has no record --threads, nor a reader of its data.N: %.300s",
		     why);
	if (variant->cpu_wide && !pc_test_cpu_wide_allowed())
		SKIP(return, "cpu-wide events need root or perf_event_paranoid <= 0");
	samples = record_ours(_metadata, self, variant);
	ASSERT_GT(samples, 0);
	perf_reads_it(_metadata, up_perf(), self->out, samples);
}

TEST_F(thrperf, perf_7_2_reads_it_without_a_warning_and_counts_the_same_samples)
{
	long long samples;

	if (!perfcmp_perf72())
		SKIP(return, "no perf 7.2 here ($PERFCHECK_PERF72 or /tmp/perf72)");
	if (variant->cpu_wide && !pc_test_cpu_wide_allowed())
		SKIP(return, "cpu-wide events need root or perf_event_paranoid <= 0");
	samples = record_ours(_metadata, self, variant);
	ASSERT_GT(samples, 0);
	perf_reads_it(_metadata, perfcmp_perf72(), self->out, samples);
}

/* The n of perf report -D's "NAME events: n" statistics line, -1 when absent. */
static long long dump_stat(const char *out, const char *name)
{
	char key[64];
	const char *p;

	snprintf(key, sizeof(key), " %s events:", name);
	p = strstr(out, key);
	return p ? strtoll(p + strlen(key), NULL, 10) : -1;
}

/* Whether id is among perf's ID_INDEX entries */
static bool dumped_id(const uint64_t *ids, int nr, uint64_t id)
{
	for (int i = 0; i < nr; i++)
		if (ids[i] == id)
			return true;
	return false;
}

/* The pid of most of the samples, as perf script shows them (-z's too); 0 when none */
static long busiest_pid_by(const char *perf, const char *path)
{
	char *argv[] = { (char *)perf, "script", "-F", "pid", "-i", (char *)path, NULL };
	long pids[64], counts[64], best = 0;
	int nr = 0;
	struct pc_run run;

	if (pc_test_run(&run, 120, argv))
		return 0;
	for (const char *p = run.out; p && *p;) {
		char *end;
		long pid = strtol(p, &end, 10);
		int i;

		if (end == p)
			break;
		for (i = 0; i < nr && pids[i] != pid; i++)
			;
		if (i == nr && nr < 64) {
			pids[nr] = pid;
			counts[nr++] = 0;
		}
		if (i < nr)
			counts[i]++;
		p = strchr(end, '\n');
		p = p ? p + 1 : NULL;
	}
	for (int i = 0; i < nr; i++)
		if (!best || counts[i] > counts[best - 1])
			best = i + 1;
	pc_run_free(&run);
	return best ? pids[best - 1] : 0;
}

/*
 * perf report -D shows our header file's ID_INDEX (each id of the attrs
 * and of the samples, on the cpus recorded), THREAD_MAP (the workload, -1
 * with -a), CPU_MAP (the online cpus) and FINISHED_INIT, once each, and
 * warns of nothing.
 */
TEST_F(thrperf, system_perf_dumps_our_id_index_maps_and_finished_init)
{
	char *dump[] = { (char *)up_perf(), "report", "-D", "-i", self->out, NULL };
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	uint64_t ids[256], pos = 0;
	struct pc_error err = { 0 };
	char want[64], why[400];
	struct pd_record rec;
	struct pd_reader r;
	struct pc_run run;
	const char *p;
	long pid;
	int nr = 0, attr_ids = 0, ret;

	if (!up_perf())
		SKIP(return, "no upstream perf here (the guests have none without its payload)");
	if (perf_has_threads(up_perf(), self->dir, why, sizeof(why)) && strstr(why, "threads"))
		SKIP(return, "this perf has no record --threads: %.300s", why);
	if (variant->cpu_wide && !pc_test_cpu_wide_allowed())
		SKIP(return, "cpu-wide events need root or perf_event_paranoid <= 0");
	ASSERT_GT(record_ours(_metadata, self, variant), 0);
	pid = variant->cpu_wide ? -1 : busiest_pid_by(up_perf(), self->out);
	ASSERT_NE(0, pid) TH_LOG("perf script shows no sample");
	ASSERT_EQ(0, pc_test_run(&run, 120, dump));
	ASSERT_EQ(0, run.exit_code) TH_LOG("%.2000s", run.err);
	EXPECT_STREQ("", run.err) TH_LOG("perf report -D warned");
	EXPECT_EQ(1, dump_stat(run.out, "ID_INDEX"));
	EXPECT_EQ(1, dump_stat(run.out, "THREAD_MAP"));
	EXPECT_EQ(1, dump_stat(run.out, "CPU_MAP"));
	EXPECT_EQ(1, dump_stat(run.out, "FINISHED_INIT"));
	for (p = strstr(run.out, " ... id: "); p && nr < 256; p = strstr(p + 1, " ... id: ")) {
		unsigned long long id, idx;
		long long cpu, tid;

		if (sscanf(p, " ... id: %llu  idx: %llu  cpu: %lld  tid: %lld", &id, &idx, &cpu,
			   &tid) != 4)
			continue;	/* an EVENT_UPDATE's "... id:" */
		ids[nr++] = id;
		EXPECT_EQ((long long)idx, cpu) TH_LOG("per-cpu rings: idx is the cpu's index");
		EXPECT_EQ(pid, tid) TH_LOG("the workload, -1 with -a");
	}
	if (cpus > 1)
		snprintf(want, sizeof(want), "PERF_RECORD_CPU_MAP: 0-%ld\n", cpus - 1);
	else
		snprintf(want, sizeof(want), "PERF_RECORD_CPU_MAP: 0\n");
	EXPECT_NE(NULL, strstr(run.out, want)) TH_LOG("want %s", want);
	snprintf(want, sizeof(want), "PERF_RECORD_THREAD_MAP nr: 1 thread: %ld\n", pid);
	EXPECT_NE(NULL, strstr(run.out, want)) TH_LOG("want %s", want);
	pc_run_free(&run);

	/* perf's entries are the attrs' ids, and every sample's id is among them (-z: none read) */
	ASSERT_EQ(0, pd_reader_open(&r, self->out, &err)) TH_LOG("%s", err.msg);
	for (uint32_t i = 0; i < r.nr_evsels; i++) {
		for (uint32_t k = 0; k < r.evsels[i].nr_ids; k++)
			EXPECT_TRUE(dumped_id(ids, nr, r.evsels[i].ids[k]));
		attr_ids += r.evsels[i].nr_ids;
	}
	EXPECT_EQ(attr_ids, nr) TH_LOG("one entry per id");
	while ((ret = pd_reader_next(&r, &pos, &rec, &err)) == 1) {
		struct pd_sample sm;

		if (rec.header.type != PERF_RECORD_SAMPLE)
			continue;
		ASSERT_EQ(0, pd_parse_sample(&r, &rec, &sm, &err)) TH_LOG("%s", err.msg);
		if (!dumped_id(ids, nr, sm.id)) {
			EXPECT_TRUE(false) TH_LOG("sample id %llu not in the ID_INDEX",
						  (unsigned long long)sm.id);
			break;
		}
	}
	EXPECT_EQ(0, ret) TH_LOG("%s", err.msg);
	pd_reader_close(&r);
}

/* The names in a perf.data directory, sorted, joined by spaces. */
static void dir_names(const char *dir, char *buf, size_t size)
{
	struct pc_strv names = { 0 };
	struct dirent *e;
	DIR *d = opendir(dir);
	size_t len = 0;

	buf[0] = '\0';
	if (!d)
		return;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			pc_strv_add(&names, e->d_name);
	closedir(d);
	pc_strv_sort(&names);
	for (size_t i = 0; i < names.n; i++) {
		len += (size_t)snprintf(buf + len, len < size ? size - len : 0, "%s ", names.v[i]);
		free(names.v[i]);
	}
	free(names.v);
}

TEST_F(thrperf, layout_is_the_one_perf_record_threads_writes)
{
	char *perf_out = strdup(rt_path(self->dir, "perf.data"));
	char ours[4096], theirs[4096];
	char *header[] = { (char *)up_perf(), "report", "--header-only", "-i", self->out, NULL };
	char *rec[24];
	struct pc_run run;
	int n = 0;

	if (!up_perf())
		SKIP(return, "no upstream perf here (the guests have none without its payload)");
	if (variant->cpu_wide && !pc_test_cpu_wide_allowed())
		SKIP(return, "cpu-wide events need root or perf_event_paranoid <= 0");
	ASSERT_GT(record_ours(_metadata, self, variant), 0);
	rec[n++] = (char *)up_perf();
	rec[n++] = "record";
	rec[n++] = "-q";
	for (int i = 0; variant->opts[i]; i++)
		rec[n++] = (char *)variant->opts[i];
	rec[n++] = "-o";
	rec[n++] = perf_out;
	rec[n++] = "--";
	rec[n++] = rt_workload_copy;
	rec[n++] = "--workload";
	rec[n++] = (char *)variant->mode;
	rec[n++] = "0.3";
	rec[n] = NULL;
	ASSERT_EQ(0, pc_test_run(&run, 120, rec));
	if (run.exit_code)
		SKIP(return, "perf record --threads failed here: %.300s", run.err);
	pc_run_free(&run);
	dir_names(self->out, ours, sizeof(ours));
	dir_names(perf_out, theirs, sizeof(theirs));
	EXPECT_STREQ(theirs, ours);
	ASSERT_EQ(0, pc_test_run(&run, 60, header));
	EXPECT_NE(NULL, strstr(run.out, "# directory data version : 1")) TH_LOG("%.3000s",
										  run.out);
	pc_run_free(&run);
	free(perf_out);
}

RECORD_TEST_MAIN()
