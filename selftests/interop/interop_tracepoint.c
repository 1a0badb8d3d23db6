// SPDX-License-Identifier: GPL-2.0
/*
 * Upstream interop for lib/trace: tracepoint files recorded on this kernel
 * by this machine's perf (and by perfcheck record) are parsed from their
 * TRACING_DATA, and every sample's trace text equals, byte for byte, what
 * `perf script -F time,trace --ns` prints for it (compared as sorted
 * "time: text" lines: perf script prints in time order, we read in file
 * order).  perf resolves kernel addresses in formats (%pS, function
 * fields) with its own kernel map; with /proc/kallsyms given as the
 * resolver ours match, without it they print as addresses (logged, the
 * one difference).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "interop_tools.h"
#include "perfdata/perfdata.h"
#include "symbols/symbols.h"
#include "trace/trace.h"

/* kallsyms as a resolver: the symbol's name, *addr lowered to its start */
static char *kallsyms_resolve(void *ctx, unsigned long long *addr, char **mod)
{
	const struct pc_symbol *s = pc_symtab_find(&((struct pc_kallsyms *)ctx)->tab, *addr);

	if (!s)
		return NULL;
	*addr = s->start;
	*mod = NULL;
	return (char *)s->name;
}

struct ours {
	struct pc_strv lines;		/* "SEC.NSEC: trace text" per tracepoint sample */
	uint32_t nr_formats, nr_failed;
	char failed[256];
};

/* Every tracepoint sample of FILE formatted through lib/trace. */
static int format_file(const char *path, struct pc_kallsyms *ksyms, struct ours *o,
		       struct pc_error *err)
{
	struct pd_reader r;
	struct pd_record rec;
	struct tr_events t;
	const void *sec;
	size_t size;
	uint64_t pos = 0;
	int ret;

	memset(o, 0, sizeof(*o));
	ret = pd_reader_open(&r, path, err);
	if (ret)
		return ret;
	if (pd_reader_feature(&r, PD_FEAT_TRACING_DATA, &sec, &size)) {
		pd_reader_close(&r);
		return pc_error_set(err, ENOENT, "%s: no TRACING_DATA section", path);
	}
	ret = tr_open(&t, sec, size, path, r.features[PD_FEAT_TRACING_DATA].offset, err);
	if (ret) {
		pd_reader_close(&r);
		return ret;
	}
	o->nr_formats = t.nr_formats;
	o->nr_failed = t.nr_failed;
	snprintf(o->failed, sizeof(o->failed), "%s", t.failed);
	if (ksyms)
		tr_set_resolver(&t, kallsyms_resolve, ksyms);
	while ((ret = pd_reader_next(&r, &pos, &rec, err)) == 1) {
		struct pd_sample s;
		const char *txt;
		char *line;

		ret = 0;
		if (rec.header.type != PERF_RECORD_SAMPLE)
			continue;
		ret = pd_parse_sample(&r, &rec, &s, err);
		if (ret)
			break;
		if (s.evsel->attr.attr.type != PERF_TYPE_TRACEPOINT)
			continue;
		ret = tr_format(&t, s.evsel->attr.attr.config, s.raw.data, s.raw.size, (int)s.cpu,
				rec.offset, &txt, err);
		if (ret < 0)
			break;
		ret = 0;
		if (asprintf(&line, "%llu.%09llu: %s", (unsigned long long)(s.time / 1000000000),
			     (unsigned long long)(s.time % 1000000000), txt) < 0)
			abort();
		pc_strv_add(&o->lines, line);
		free(line);
	}
	tr_close(&t);
	pd_reader_close(&r);
	pc_strv_sort(&o->lines);
	return ret;
}

/* perf script -F time,trace --ns: "  SEC.NSEC: text" per sample */
static int perf_trace_lines(struct __test_metadata *_metadata, const char *data, struct pc_strv *out)
{
	char *argv[] = { (char *)up_perf(), "script", "-F", "time,trace", "--ns", "-i", (char *)data,
			 NULL };
	struct pc_run run;
	char *line, *save = NULL;

	memset(out, 0, sizeof(*out));
	if (up_run(&run, 600, argv) || run.exit_code || !run.out) {
		TH_LOG("perf script: exit %d: %s", run.exit_code, run.err ? run.err : "");
		pc_run_free(&run);
		return -1;
	}
	for (line = strtok_r(run.out, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		pc_strv_add(out, line + strspn(line, " "));
	pc_run_free(&run);
	pc_strv_sort(out);
	return 0;
}

/* Lines that differ between two sorted lists, the first few logged. */
static size_t compare(struct __test_metadata *_metadata, const struct pc_strv *ours,
		      const struct pc_strv *perf, int log)
{
	size_t i = 0, j = 0, diff = 0;

	while (i < ours->n || j < perf->n) {
		int c = i == ours->n ? 1 : j == perf->n ? -1 : strcmp(ours->v[i], perf->v[j]);

		if (!c) {
			i++;
			j++;
			continue;
		}
		if (diff++ < (size_t)log)
			TH_LOG("%s %s", c < 0 ? "only ours:" : "only perf's:",
			       c < 0 ? ours->v[i] : perf->v[j]);
		if (c < 0)
			i++;
		else
			j++;
	}
	return diff;
}

FIXTURE(tp) {
	char *dir;
	char data[512];
	struct up_version v;
};

FIXTURE_SETUP(tp)
{
	UP_REQUIRE_PERF_AND_PCWORK(&self->v);
	self->dir = pc_test_mkdtemp("interop-tp");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->data, sizeof(self->data), "%s/perf.data", self->dir);
	TH_LOG("upstream %s", self->v.text);
}

FIXTURE_TEARDOWN(tp)
{
	if (self->dir)
		pc_test_rmdir(self->dir);
}

/*
 * TOOL record -a -e each of events -o DATA -- pcwork sleep 200.  0, or 1
 * with *why set when the tool cannot record tracepoints here (its message).
 */
static int record_tp(struct __test_metadata *_metadata, const char *tool, const char *data,
		     const char *const *events, char *why, size_t why_size)
{
	char *argv[64];
	struct pc_run run;
	int n = 0, code;

	argv[n++] = (char *)tool;
	argv[n++] = "record";
	argv[n++] = "-q";
	argv[n++] = "-a";
	for (; *events && n < 56; events++) {
		argv[n++] = "-e";
		argv[n++] = (char *)*events;
	}
	argv[n++] = "-o";
	argv[n++] = (char *)data;
	argv[n++] = "--";
	argv[n++] = (char *)up_pcwork();
	argv[n++] = "sleep";
	argv[n++] = "200";
	argv[n] = NULL;
	if (up_run(&run, 300, argv))
		return snprintf(why, why_size, "cannot run %s", tool), 1;
	code = run.exit_code;
	if (code)
		snprintf(why, why_size, "%s record -a -e %s exits %d: %.300s", tool, argv[5], code,
			 run.err ? run.err : "");
	pc_run_free(&run);
	return code ? 1 : 0;
}

static void check_file(struct __test_metadata *_metadata, const char *data, bool with_kallsyms)
{
	struct pc_kallsyms ksyms = { 0 };
	struct pc_error err = { 0 };
	struct ours o;
	struct pc_strv perf;
	size_t diff;

	if (with_kallsyms)
		ASSERT_EQ(0, pc_kallsyms_load(&ksyms, "/proc/kallsyms"));
	ASSERT_EQ(0, format_file(data, with_kallsyms ? &ksyms : NULL, &o, &err)) TH_LOG("%s", err.msg);
	EXPECT_EQ(0, o.nr_failed) TH_LOG("formats libtraceevent could not parse: %s", o.failed);
	ASSERT_EQ(0, perf_trace_lines(_metadata, data, &perf));
	ASSERT_LT(0, o.lines.n) TH_LOG("no tracepoint sample in the file");
	EXPECT_EQ(perf.n, o.lines.n);
	diff = compare(_metadata, &o.lines, &perf, 10);
	EXPECT_EQ(0, diff);
	TH_LOG("%zu samples of %u formats, %zu lines differ from perf script", o.lines.n,
	       o.nr_formats, diff);
	pc_strv_free(&perf);
	pc_strv_free(&o.lines);
	pc_kallsyms_free(&ksyms);
}

TEST_F_TIMEOUT(tp, sched_switch_and_wakeup_trace_text_equals_perf_script, 600)
{
	static const char *const events[] = { "sched:sched_switch", "sched:sched_wakeup", NULL };
	char why[512];

	if (record_tp(_metadata, up_perf(), self->data, events, why, sizeof(why)))
		SKIP(return, "%s", why);
	check_file(_metadata, self->data, false);
}

/* Many formats: flags, symbolic values, arrays, pointers, kernel functions. */
static const char *const many_events[] = {
	"sched:*", "irq:*", "timer:*", "workqueue:*", "signal:*", "kmem:kmalloc", "kmem:kfree",
	"syscalls:sys_enter_nanosleep", "syscalls:sys_exit_nanosleep", NULL
};

TEST_F_TIMEOUT(tp, many_subsystems_with_a_kernel_map_equal_perf_script, 600)
{
	char why[512];

	if (record_tp(_metadata, up_perf(), self->data, many_events, why, sizeof(why)))
		SKIP(return, "%s", why);
	check_file(_metadata, self->data, true);
}

/* Lines of a that are not in b (both sorted). */
static void only_in(const struct pc_strv *a, const struct pc_strv *b, struct pc_strv *out)
{
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < a->n; i++)
		if (!bsearch(&a->v[i], b->v, b->n, sizeof(char *), pc_strv_cmp))
			pc_strv_add(out, a->v[i]);
}

/*
 * The difference named: without a kernel map, each sample that differs has
 * a kernel address (0xffff...) in ours where perf prints a symbol, at the
 * same time stamp.
 */
TEST_F_TIMEOUT(tp, without_a_kernel_map_only_kernel_addresses_differ, 600)
{
	struct pc_error err = { 0 };
	struct pc_strv perf, mine, theirs;
	struct ours o;
	char why[512];

	if (record_tp(_metadata, up_perf(), self->data, many_events, why, sizeof(why)))
		SKIP(return, "%s", why);
	ASSERT_EQ(0, format_file(self->data, NULL, &o, &err)) TH_LOG("%s", err.msg);
	ASSERT_EQ(0, perf_trace_lines(_metadata, self->data, &perf));
	only_in(&o.lines, &perf, &mine);
	only_in(&perf, &o.lines, &theirs);
	EXPECT_EQ(mine.n, theirs.n);
	for (size_t i = 0; i < theirs.n; i++) {
		size_t tl = strcspn(theirs.v[i], ":") + 1;
		bool paired = false;

		for (size_t j = 0; j < mine.n && !paired; j++)
			paired = !strncmp(mine.v[j], theirs.v[i], tl) && strstr(mine.v[j], "0xffff");
		EXPECT_TRUE(paired) TH_LOG("perf's line has no counterpart with a kernel address: %s",
					   theirs.v[i]);
	}
	TH_LOG("without a kernel map %zu of %zu lines differ: kernel function fields print as "
	       "addresses where perf prints symbols%s%s", theirs.n, perf.n,
	       theirs.n ? ", e.g. " : "", theirs.n ? theirs.v[0] : "");
	pc_strv_free(&mine);
	pc_strv_free(&theirs);
	pc_strv_free(&perf);
	pc_strv_free(&o.lines);
}

TEST_F_TIMEOUT(tp, perfcheck_record_tracing_data_parses_and_equals_perf_script, 600)
{
	static const char *const events[] = { "sched:sched_switch", "sched:sched_wakeup", NULL };
	char why[512];

	if (record_tp(_metadata, pc_test_perfcheck(), self->data, events, why, sizeof(why)))
		SKIP(return, "%s", why);
	check_file(_metadata, self->data, false);
}

TEST_HARNESS_MAIN
