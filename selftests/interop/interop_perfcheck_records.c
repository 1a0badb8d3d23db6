// SPDX-License-Identifier: GPL-2.0
/*
 * Upstream interop, perfcheck -> perf: files `perfcheck record` writes are
 * read by this machine's upstream perf (the system's on a host, that
 * kernel's Debian perf in a matrix guest): `perf script` and `perf report`
 * exit 0 with nothing on stderr, perf script shows the samples `perfcheck
 * script` shows (interop_script.h), perf report counts them, and, on a
 * kernel with deferred callchains, perf 7.x merges ours as we do.  Every
 * attr in our files has the smallest size that holds the bits it sets, the
 * reason an older perf reads them (perf 6.1 refuses 144-byte attrs).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "interop_script.h"
#include "interop_tools.h"
#include "perfdata/perfdata.h"

FIXTURE(pc_records) {
	char *dir;
	char data[512];
	struct up_version v;
};

FIXTURE_SETUP(pc_records)
{
	if (!up_perf())
		SKIP(return, "no upstream perf here (guest without the upstream payload: "
			     "make matrix without --no-upstream)");
	if (!up_pcwork())
		SKIP(return, "pcwork is not next to perfcheck (make)");
	ASSERT_EQ(0, up_perf_version(&self->v));
	self->dir = pc_test_mkdtemp("interop-pc");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->data, sizeof(self->data), "%s/perfcheck.data", self->dir);
	TH_LOG("upstream %s", self->v.text);
}

FIXTURE_TEARDOWN(pc_records)
{
	pc_test_rmdir(self->dir);
}

static int pc_record(struct __test_metadata *_metadata, const char *data, const char *const *opts,
		     const char *mode)
{
	char *argv[32];
	struct pc_run run;
	int n = 0, code;

	argv[n++] = (char *)pc_test_perfcheck();
	argv[n++] = "record";
	argv[n++] = "-q";
	for (; *opts; opts++)
		argv[n++] = (char *)*opts;
	argv[n++] = "-o";
	argv[n++] = (char *)data;
	argv[n++] = "--";
	argv[n++] = (char *)up_pcwork();
	argv[n++] = (char *)mode;
	argv[n++] = UP_WORK_MS;
	argv[n] = NULL;
	up_run(&run, 300, argv);
	code = run.exit_code;
	if (code)
		TH_LOG("perfcheck record: exit %d: %s", code, run.err ? run.err : "");
	pc_run_free(&run);
	return code;
}

/* perf script EXTRA on our file: clean, and the samples perfcheck script prints. */
static void perf_script_agrees(struct __test_metadata *_metadata, FIXTURE_DATA(pc_records) *self,
			       const char *name, const char *extra)
{
	char *pa[] = { (char *)up_perf(), "script", "-i", self->data, (char *)extra, NULL };
	char *pb[] = { (char *)pc_test_perfcheck(), "script", "--compat",
		       (char *)up_compat(&self->v), "-i", self->data, (char *)extra, NULL };
	struct pc_run a, b;
	struct is_cmp c;
	char sum[512];
	int ret;

	ASSERT_EQ(0, up_run(&a, 600, pa));
	ASSERT_EQ(0, up_run(&b, 600, pb));
	up_keep(name, "perfcheck.data", NULL, self->data);
	up_keep(name, extra ? "perf-script-no-merge.txt" : "perf-script.txt", a.out, NULL);
	up_keep(name, "perf-script-stderr.txt", a.err, NULL);
	EXPECT_EQ(0, a.exit_code) TH_LOG("%s script: %s", self->v.text, a.err);
	EXPECT_STREQ("", a.err ? a.err : "");
	EXPECT_EQ(0, b.exit_code) TH_LOG("perfcheck script: %s", b.err);
	ret = is_compare_text(a.out, b.out, &c);
	is_cmp_summary(&c, sum, sizeof(sum));
	TH_LOG("%s: %s", name, sum);
	if (ret)
		ksft_print_msg("%s\n", c.why);	/* the reason the matrix shows */
	EXPECT_EQ(0, ret) TH_LOG("%s's perf script disagrees with perfcheck script on a "
				 "perfcheck file: %s", self->v.text, c.why);
	EXPECT_LT(0, c.samples);	/* compared something, however few a busy host allows */
	pc_run_free(&a);
	pc_run_free(&b);
}

/* Samples per event name and their period sums, from perfcheck script. */
struct counts {
	char event[4][128];
	uint64_t samples[4], periods[4];
	int n;
};

static void count_samples(const char *text, struct counts *k)
{
	struct is_script s;
	char *t = strdup(text ? text : "");
	char why[256];

	memset(k, 0, sizeof(*k));
	if (!t || is_parse(t, &s, why, sizeof(why))) {
		free(t);
		return;
	}
	for (int i = 0; i < s.nr; i++) {
		int e;

		if (!strcmp(s.samples[i].event, "DEFERRED CALLCHAIN"))
			continue;
		for (e = 0; e < k->n; e++)
			if (!strcmp(k->event[e], s.samples[i].event))
				break;
		if (e == k->n) {
			if (k->n == 4)
				continue;
			snprintf(k->event[k->n++], sizeof(k->event[0]), "%s", s.samples[i].event);
		}
		k->samples[e]++;
		k->periods[e] += s.samples[i].period;
	}
	is_free(&s);
	free(t);
}

/* perf report's "# Samples: 603  of event 'cpu-clock'" (or "1K of event"). */
static int report_samples(const char *text, const char *event, uint64_t *n, char *unit)
{
	char tail[192];
	const char *p;

	snprintf(tail, sizeof(tail), " of event '%s'", event);
	for (p = text ? strstr(text, "# Samples: ") : NULL; p; p = strstr(p + 1, "# Samples: ")) {
		char *end;
		const char *eol = p + strcspn(p, "\n");

		*n = strtoull(p + 11, &end, 10);
		if (end == p + 11 || end >= eol)
			continue;
		*unit = *end;
		if (!strncmp(end + 1, tail, strlen(tail)))
			return 0;
	}
	return -1;
}

/* perf report --stdio on our file: clean, with our sample count and period per event. */
static void perf_report_agrees(struct __test_metadata *_metadata, FIXTURE_DATA(pc_records) *self,
			       const char *name)
{
	char *pa[] = { (char *)up_perf(), "report", "--stdio", "-i", self->data, NULL };
	char *pb[] = { (char *)pc_test_perfcheck(), "script", "-i", self->data, NULL };
	struct pc_run a, b;
	struct counts k;

	ASSERT_EQ(0, up_run(&a, 600, pa));
	ASSERT_EQ(0, up_run(&b, 600, pb));
	up_keep(name, "perf-report.txt", a.out, NULL);
	up_keep(name, "perf-report-stderr.txt", a.err, NULL);
	EXPECT_EQ(0, a.exit_code) TH_LOG("%s report: %s", self->v.text, a.err);
	EXPECT_STREQ("", a.err ? a.err : "");
	count_samples(b.out, &k);
	ASSERT_LT(0, k.n);
	for (int e = 0; e < k.n; e++) {
		char want[256];

		uint64_t shown = 0;
		char unit = '?';

		EXPECT_EQ(0, report_samples(a.out, k.event[e], &shown, &unit))
			TH_LOG("%s report has no \"# Samples: ... of event '%s'\"", self->v.text,
			       k.event[e]);
		/* perf shows 1000 and more in K (and M, G): our count in its unit */
		EXPECT_TRUE(unit == ' ' ? shown == k.samples[e] :
			    unit == 'K' ? shown == k.samples[e] / 1000 :
			    unit == 'M' ? shown == k.samples[e] / 1000000 : false)
			TH_LOG("%s report: %" PRIu64 "%c samples of '%s', perfcheck script: %" PRIu64,
			       self->v.text, shown, unit, k.event[e], k.samples[e]);
		snprintf(want, sizeof(want), "# Event count (approx.): %" PRIu64, k.periods[e]);
		EXPECT_NE(NULL, strstr(a.out ? a.out : "", want))
			TH_LOG("%s report lacks \"%s\"", self->v.text, want);
	}
	pc_run_free(&a);
	pc_run_free(&b);
}

TEST_F_TIMEOUT(pc_records, perf_script_shows_our_callchain_samples_cleanly, 600)
{
	const char *opts[] = { "-e", "cpu-clock", "-c", UP_PERIOD, "-g", NULL };

	ASSERT_EQ(0, pc_record(_metadata, self->data, opts, "syscalls"));
	perf_script_agrees(_metadata, self, "pc-fp", NULL);
}

TEST_F_TIMEOUT(pc_records, perf_report_counts_our_callchain_samples_cleanly, 600)
{
	const char *opts[] = { "-e", "cpu-clock", "-c", UP_PERIOD, "-g", NULL };

	ASSERT_EQ(0, pc_record(_metadata, self->data, opts, "syscalls"));
	perf_report_agrees(_metadata, self, "pc-fp");
}

TEST_F_TIMEOUT(pc_records, perf_script_and_report_read_our_two_event_frequency_file, 600)
{
	const char *opts[] = { "-e", "cpu-clock,task-clock", "-F", "997", NULL };

	ASSERT_EQ(0, pc_record(_metadata, self->data, opts, "spin"));
	perf_script_agrees(_metadata, self, "pc-two-events", NULL);
	perf_report_agrees(_metadata, self, "pc-two-events");
}

/* The smallest PERF_ATTR_SIZE_VER* holding every non-zero byte but size's. */
static uint32_t smallest_size(const union pc_attr *a)
{
	static const uint32_t vers[] = { 64, 72, 80, 96, 104, 112, 120, 128, 136, 144 };
	uint32_t used = 0;

	for (uint32_t i = 0; i < PC_ATTR_SIZE_MAX; i++)
		if (a->bytes[i] && (i < 4 || i > 7))
			used = i + 1;
	for (size_t i = 0; i < sizeof(vers) / sizeof(vers[0]); i++)
		if (used <= vers[i])
			return vers[i];
	return PC_ATTR_SIZE_MAX;
}

static void check_attr_sizes(struct __test_metadata *_metadata, const char *path)
{
	struct pd_reader r;
	struct pc_error err;

	ASSERT_EQ(0, pd_reader_open(&r, path, &err)) TH_LOG("%s", err.msg);
	ASSERT_LT(0, r.nr_evsels);
	for (uint32_t i = 0; i < r.nr_evsels; i++) {
		const struct pd_evsel *e = &r.evsels[i];

		EXPECT_EQ(smallest_size(&e->attr), e->attr.attr.size)
			TH_LOG("%s: attr.size %u, but its bits fit in %u", e->name, e->attr.attr.size,
			       smallest_size(&e->attr));
		EXPECT_EQ(e->attr.attr.size, e->file_attr_size);
	}
	pd_reader_close(&r);
}

TEST_F_TIMEOUT(pc_records, every_attr_we_write_has_the_smallest_size_holding_its_bits, 600)
{
	const char *plain[] = { "-e", "cpu-clock", "-c", UP_PERIOD, "-g", NULL };
	const char *stat[] = { "-e", "cpu-clock,page-faults", "-c", UP_PERIOD, "-s", NULL };
	const char *defer[] = { "-e", "cpu-clock", "-c", UP_PERIOD, "--call-graph", "fp,defer", NULL };

	ASSERT_EQ(0, pc_record(_metadata, self->data, plain, "spin"));
	check_attr_sizes(_metadata, self->data);
	ASSERT_EQ(0, pc_record(_metadata, self->data, stat, "spin"));
	check_attr_sizes(_metadata, self->data);
	ASSERT_EQ(0, pc_record(_metadata, self->data, defer, "spin"));
	check_attr_sizes(_metadata, self->data);
}

static void need_defer(struct __test_metadata *_metadata, FIXTURE_DATA(pc_records) *self,
		       bool *ok)
{
	*ok = false;
	if (!up_kernel_has(PC_FEAT_DEFER_CALLCHAIN))
		SKIP(return, "kernel lacks defer_callchain");
	if (!up_perf_knows_defer(self->dir))
		SKIP(return, "%s does not know deferred callchains", self->v.text);
	*ok = true;
}

TEST_F_TIMEOUT(pc_records, perf_merges_our_deferred_callchains_as_we_do, 600)
{
	const char *opts[] = { "-e", "cpu-clock", "-c", UP_PERIOD, "--call-graph", "fp,defer", NULL };
	bool ok;

	need_defer(_metadata, self, &ok);
	if (!ok)
		return;
	ASSERT_EQ(0, pc_record(_metadata, self->data, opts, "syscalls"));
	perf_script_agrees(_metadata, self, "pc-fp-defer", NULL);
	perf_report_agrees(_metadata, self, "pc-fp-defer");
}

TEST_F_TIMEOUT(pc_records, perf_shows_our_unmerged_deferred_callchains_as_we_do, 600)
{
	const char *opts[] = { "-e", "cpu-clock", "-c", UP_PERIOD, "--call-graph", "fp,defer", NULL };
	bool ok;

	need_defer(_metadata, self, &ok);
	if (!ok)
		return;
	ASSERT_EQ(0, pc_record(_metadata, self->data, opts, "syscalls"));
	perf_script_agrees(_metadata, self, "pc-fp-defer-no-merge", "--no-merge-callchains");
}

TEST_HARNESS_MAIN
