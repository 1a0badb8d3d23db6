/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Upstream interop, attr parity: for the same options, the perf_event_attr
 * perfcheck record opens equals the one this machine's upstream perf
 * record opens, each after its own ladder, field by field (both print it
 * at -vv in perf's layout).  Every difference must be listed with its
 * reason in vm/upstream/attr-parity.expect; one that is not fails here and
 * is printed as the line to add once it is understood.
 *
 * The fixture and its two tests; each interop_attr_parity*.c adds its
 * option families as variants (one binary per group of families, so that
 * each stays within a guest's per-test time).
 */
#ifndef PERFCHECK_SELFTESTS_INTEROP_ATTR_PARITY_H
#define PERFCHECK_SELFTESTS_INTEROP_ATTR_PARITY_H

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "attach_watch.h"
#include "interop_attr.h"
#include "interop_tools.h"

#define EXPECT_REL_TREE  "vm/upstream/attr-parity.expect"
#define EXPECT_REL_GUEST "upstream/attr-parity.expect"

FIXTURE(parity) {
	char *dir;
	struct up_version v;
	struct ia_expects x;
	pid_t target;
};

FIXTURE_VARIANT(parity) {
	const char *name;		/* as named in the expectations file */
	const char *opts[12];
	bool attach;			/* -p PID of a running pcwork */
	bool pipe;			/* -o -: the pipe format, kept in the file for perf evlist */
	bool defer;
	int needs;			/* 1 + a feature the kernel must have (else skip) */
	/* run first in the test's process: 0, or -1 with why it cannot run here (skip) */
	int (*prepare)(char *why, size_t size);
};

FIXTURE_SETUP(parity)
{
	const char *path;
	char why[512] = "";

	self->target = -1;
	UP_REQUIRE_PERF_AND_PCWORK(&self->v);
	path = up_find_source("PERFCHECK_ATTR_EXPECT", EXPECT_REL_GUEST, EXPECT_REL_TREE);
	ASSERT_NE(NULL, path) TH_LOG("no %s (set PERFCHECK_ATTR_EXPECT)", EXPECT_REL_TREE);
	ASSERT_EQ(0, ia_load_expects(path, &self->x, why, sizeof(why))) TH_LOG("%s", why);
	self->dir = pc_test_mkdtemp("interop-attr");
	ASSERT_NE(NULL, self->dir);
}

FIXTURE_TEARDOWN(parity)
{
	if (self->target > 0) {
		kill(self->target, SIGKILL);
		waitpid(self->target, NULL, 0);
	}
	free(self->x.e);
	pc_test_rmdir(self->dir);
}

/* A pcwork spinning for ms (or until ended), replacing the previous target. */
static int fresh_target(FIXTURE_DATA(parity) *self, int ms)
{
	char arg[16];

	if (self->target > 0) {
		kill(self->target, SIGKILL);
		waitpid(self->target, NULL, 0);
	}
	snprintf(arg, sizeof(arg), "%d", ms);
	self->target = fork();
	if (self->target == 0) {
		execl(up_pcwork(), "pcwork", "spin", arg, (char *)NULL);
		_exit(127);
	}
	if (self->target < 0)
		return -1;
	usleep(200000);		/* exec'd and running before the attach */
	return 0;
}

/* TOOL record -vv OPTS -o - -- pcwork spin 100, its stdout written to out; its -vv text */
static char *record_pipe_vv(const char *tool, const char *const *opts, const char *out,
			    int *code)
{
	char *argv[32];
	struct pc_run run;
	char *text;
	FILE *f;
	int n = 0;

	argv[n++] = (char *)tool;
	argv[n++] = "record";
	argv[n++] = "-vv";
	for (; *opts && n < 24; opts++)
		argv[n++] = (char *)*opts;
	argv[n++] = "-o";
	argv[n++] = "-";
	argv[n++] = "--";
	argv[n++] = (char *)up_pcwork();
	argv[n++] = "spin";
	argv[n++] = "100";
	argv[n] = NULL;
	up_run(&run, 300, argv);
	*code = run.exit_code;
	f = fopen(out, "w");
	if (!f || (run.out_len && fwrite(run.out, 1, run.out_len, f) != run.out_len))
		*code = *code ? *code : 255;
	if (f)
		fclose(f);
	text = run.err;
	run.err = NULL;
	pc_run_free(&run);
	return text;
}

/*
 * Records with TOOL.  Attached (-p), both tools record until the target
 * exits: the target spins until the tool has held its events for a second
 * (attach_watch.h), however long the tool takes to start.  A tool that still
 * met a gone target (ESRCH: the events it held were probes) tries again.
 */
static char *record_tool(struct __test_metadata *_metadata, FIXTURE_DATA(parity) *self,
			 const FIXTURE_VARIANT(parity) *variant, const char *tool,
			 const char *out, int *code)
{
	char *text = NULL;

	if (variant->pipe)
		return record_pipe_vv(tool, variant->opts, out, code);
	if (!variant->attach)
		return up_record_vv(tool, variant->opts, -1, out, code);
	for (int attempt = 1; attempt <= 3; attempt++) {
		pid_t watcher;

		free(text);
		if (fresh_target(self, 600000))
			return NULL;
		watcher = attach_watch_start(self->target, 1000);
		text = up_record_vv(tool, variant->opts, self->target, out, code);
		attach_watch_end(watcher);
		if (!*code || !text || (!strstr(text, "No such process") && !strstr(text, "ESRCH") &&
					!strstr(text, "targets are gone")))
			break;
		TH_LOG("%s: the target ended before %s attached (attempt %d)", tool, tool, attempt);
	}
	return text;
}

TEST_F_TIMEOUT(parity, opened_attr_equals_perfs_up_to_listed_differences, 600)
{
	static struct ia_opened perf_o, pc_o;
	struct ia_diff d[IA_MAX_DIFFS];
	char out[600], list[8192] = "";
	char *perf_vv, *pc_vv;
	int code, n, unexpected;
	size_t used = 0;

	if (variant->defer && !up_kernel_has(PC_FEAT_DEFER_CALLCHAIN))
		SKIP(return, "kernel lacks defer_callchain");
	if (variant->needs && !up_kernel_has(variant->needs - 1))
		SKIP(return, "kernel lacks %s", pc_feature_name(variant->needs - 1));
	if (variant->defer && !up_perf_knows_defer(self->dir))
		SKIP(return, "%s has no --call-graph fp,defer", self->v.text);
	if (variant->prepare && variant->prepare(list, sizeof(list)))
		SKIP(return, "%s", list);
	snprintf(out, sizeof(out), "%s/perf.data", self->dir);
	perf_vv = record_tool(_metadata, self, variant, up_perf(), out, &code);
	/*
	 * perf itself refused by the kernel: nothing of perf's to compare.  Seen on
	 * arm64 with SVE, where perf adds VG to sample_regs_user after a cycles
	 * probe and software events refuse it (6.12-arm64, perf 6.12.107).
	 */
	if (code && perf_vv && strstr(perf_vv, "sys_perf_event_open failed, error -95"))
		SKIP(free(perf_vv); return, "%s record cannot open its own attr here: the kernel "
		     "answers EOPNOTSUPP (its -vv output)", self->v.text);
	/* a perf built without what the options need (perf 7.x -u filters with BPF) */
	if (code && perf_vv && strstr(perf_vv, "not built with")) {
		const char *l = strstr(perf_vv, "not built with");

		while (l > perf_vv && l[-1] != '\n')
			l--;
		snprintf(list, sizeof(list), "%s refuses '%s': %.*s", self->v.text, variant->name,
			 (int)strcspn(l, "\n"), l);
		free(perf_vv);
		SKIP(return, "%s", list);
	}
	/* an option newer than this perf (perf 5.10: --sample-identifier): its usage says so */
	if (code == 129 && perf_vv && strstr(perf_vv, "unknown option `")) {
		const char *o = strstr(perf_vv, "unknown option `") + 16;

		snprintf(list, sizeof(list), "%s has no --%.*s (its usage: unknown option)",
			 self->v.text, (int)strcspn(o, "'"), o);
		free(perf_vv);
		SKIP(return, "%s", list);
	}
	ASSERT_EQ(0, code) TH_LOG("perf record: %.2000s", perf_vv ? perf_vv : "");
	snprintf(out, sizeof(out), "%s/perfcheck.data", self->dir);
	pc_vv = record_tool(_metadata, self, variant, pc_test_perfcheck(), out, &code);
	ASSERT_EQ(0, code) TH_LOG("perfcheck record: %.2000s", pc_vv ? pc_vv : "");
	up_keep(variant->name, "perf-record-vv.txt", perf_vv, NULL);
	up_keep(variant->name, "perfcheck-record-vv.txt", pc_vv, NULL);

	ASSERT_EQ(0, ia_parse_vv(perf_vv, &perf_o));
	ASSERT_EQ(0, ia_parse_vv(pc_vv, &pc_o));
	ASSERT_LT(0, perf_o.n) TH_LOG("no successful open in perf's -vv output");
	ASSERT_LT(0, pc_o.n) TH_LOG("no successful open in perfcheck's -vv output");

	n = ia_diff(&perf_o, &pc_o, d);
	unexpected = ia_explain(d, n, &self->x, variant->name, self->v.major, self->v.minor);
	for (int i = 0; i < n; i++) {
		used += (size_t)snprintf(list + used, used < sizeof(list) ? sizeof(list) - used : 0,
					 "%s %-28s perf %-10s perfcheck %-10s event %s%s%s\n",
					 d[i].reason ? "  " : "!!", d[i].key, d[i].perf, d[i].pc,
					 d[i].event, d[i].reason ? ": " : "  UNEXPECTED",
					 d[i].reason ? d[i].reason : "");
		if (used >= sizeof(list))
			used = sizeof(list) - 1;
	}
	up_keep(variant->name, "differences.txt", list, NULL);
	TH_LOG("%s, options '%s': %d events opened by perf, %d by perfcheck; %d differences, "
	       "%d unexpected\n%s", self->v.text, variant->name, perf_o.n, pc_o.n, n, unexpected,
	       list);
	for (int i = 0; i < n; i++)
		if (!d[i].reason)
			TH_LOG("not in the expectations file; once understood, add:\n%-28s %-6s %-6s "
			       "%-10s %d.%d  REASON", d[i].key, d[i].perf, d[i].pc, variant->name,
			       self->v.major, self->v.minor);
	if (unexpected) {
		char why[1024];
		size_t w = 0;

		/* one line on stdout: the matrix shows it as the reason */
		for (int i = 0; i < n && w < sizeof(why); i++)
			if (!d[i].reason)
				w += (size_t)snprintf(why + w, sizeof(why) - w, "%s%s (perf %s, perfcheck %s)",
						      w ? ", " : "", d[i].key, d[i].perf, d[i].pc);
		ksft_print_msg("%s, options '%s': unexpected %s\n", self->v.text, variant->name, why);
	}
	EXPECT_EQ(0, unexpected);
	free(perf_vv);
	free(pc_vv);
}

/*
 * What perfcheck opened is what its file says it opened, as upstream perf
 * reads the file (`perf evlist -v`): the ladder's changes reach the file.
 */
TEST_F_TIMEOUT(parity, perf_evlist_shows_in_our_file_the_attr_we_opened, 600)
{
	static struct ia_opened pc_o, file_o;
	struct ia_diff d[IA_MAX_DIFFS];
	char out[600];
	char *evlist[] = { (char *)up_perf(), "evlist", "-v", "-i", out, NULL };
	struct pc_run run;
	char *pc_vv;
	int code, n;

	if (variant->defer && !up_kernel_has(PC_FEAT_DEFER_CALLCHAIN))
		SKIP(return, "kernel lacks defer_callchain");
	if (variant->needs && !up_kernel_has(variant->needs - 1))
		SKIP(return, "kernel lacks %s", pc_feature_name(variant->needs - 1));
	if (variant->prepare && variant->prepare(out, sizeof(out)))
		SKIP(return, "%s", out);
	snprintf(out, sizeof(out), "%s/perfcheck.data", self->dir);
	pc_vv = record_tool(_metadata, self, variant, pc_test_perfcheck(), out, &code);
	ASSERT_EQ(0, code) TH_LOG("perfcheck record: %.2000s", pc_vv ? pc_vv : "");
	ASSERT_EQ(0, up_run(&run, 300, evlist));
	EXPECT_EQ(0, run.exit_code) TH_LOG("perf evlist: %s", run.err);
	up_keep(variant->name, "perf-evlist-perfcheck-file.txt", run.out, NULL);
	ASSERT_EQ(0, ia_parse_vv(pc_vv, &pc_o));
	ASSERT_EQ(0, ia_parse_evlist(run.out, &file_o));
	ASSERT_LT(0, file_o.n) TH_LOG("perf evlist -v printed no event: %s", run.out);
	/* the BPF side band's dummy is read by its thread, as perf's: no file lists it */
	ia_drop_sideband(&pc_o);
	EXPECT_EQ(pc_o.n, file_o.n);
	/* the file's attrs on the left, where ia_diff puts perf's */
	n = ia_diff(&file_o, &pc_o, d);
	for (int i = 0; i < n; i++) {
		/* a pipe's ATTR records hold 144 bytes, which perf copies whole: by design */
		bool pipe_size = variant->pipe && !strcmp(d[i].key, "size") &&
				 !strcmp(d[i].perf, "144");
		/*
		 * perf's attr printer has no name for the bit and prints nothing for
		 * it (interop_record_transaction reads it from the files)
		 */
		bool unnamed = !strcmp(d[i].key, "sample_type.TRANSACTION") &&
			       !strcmp(d[i].perf, "0");

		TH_LOG("%s: %s in the file (perf evlist -v), %s opened (event %s)%s", d[i].key,
		       d[i].perf, d[i].pc, d[i].event,
		       pipe_size ? ": the pipe's attrs are zero-extended to 144 bytes" :
		       unnamed ? ": perf evlist -v cannot name it" : "");
		EXPECT_TRUE(pipe_size || unnamed);
	}
	pc_run_free(&run);
	free(pc_vv);
}


#endif
