// SPDX-License-Identifier: GPL-2.0
/*
 * Replays every fixture (fixtures/FAMILY/NAME/, see fixtures/generate):
 * each "expect FILE: ARGS" line of its meta, run as `perfcheck ARGS -i
 * perf.data --symfs symfs` in the fixture's directory, must print FILE
 * byte for byte, on any host and in every guest: nothing of the machine
 * that replays is used (symfs holds the workload as recorded; kernel
 * addresses stay unresolved).  A difference logs its first lines.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "lib/testutil.h"
#include "lib/xk_common.h"
#include "perfdata/perfdata.h"
#include "probes/probe.h"

#define FIXTURE_MAX_BYTES (256 * 1024)

/* fixtures/ of the source tree, wherever the test binary runs (build/, build/static/, a guest) */
static const char *fixtures_dir(void)
{
	static char dir[PATH_MAX];
	static const char *const up[] = { "/../fixtures", "/../../fixtures", "/../../../fixtures" };
	const char *env = getenv("PERFCHECK_FIXTURES");
	char probe[PATH_MAX + 64];

	if (env && *env)
		return env;
	for (size_t i = 0; i < sizeof(up) / sizeof(up[0]); i++) {
		snprintf(dir, sizeof(dir), "%s%s", pc_test_bindir(), up[i]);
		snprintf(probe, sizeof(probe), "%s/generate", dir);
		if (!access(probe, F_OK))
			return dir;
	}
	return NULL;
}

/* The value of "KEY: value" in meta, copied into out; false when absent. */
static bool meta_get(const char *meta, const char *key, char *out, size_t size)
{
	size_t klen = strlen(key);

	for (const char *l = meta; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (!strncmp(l, key, klen) && l[klen] == ':' && l[klen + 1] == ' ') {
			const char *v = l + klen + 2, *e = strchr(v, '\n');
			size_t n = e ? (size_t)(e - v) : strlen(v);

			snprintf(out, size, "%.*s", (int)n, v);
			return true;
		}
	}
	return false;
}

/* Logs where got first differs from want: the line number and a few lines of each. */
static void log_diff(struct __test_metadata *_metadata, const char *what, const char *want,
		     size_t want_len, const char *got, size_t got_len)
{
	size_t i = 0, line = 1, bol = 0;

	while (i < want_len && i < got_len && want[i] == got[i]) {
		if (want[i] == '\n') {
			line++;
			bol = i + 1;
		}
		i++;
	}
	TH_LOG("%s: differs at line %zu (expected %zu bytes, got %zu)", what, line, want_len,
	       got_len);
	TH_LOG("expected:\n%.*s", (int)(want_len - bol < 400 ? want_len - bol : 400), want + bol);
	TH_LOG("got:\n%.*s", (int)(got_len - bol < 400 ? got_len - bol : 400), got + bol);
}

/* Replays every expect line of one fixture; returns the number of mismatches. */
static int replay_one(struct __test_metadata *_metadata, const char *dir, int *checked)
{
	char metapath[PATH_MAX + 8], *meta;
	int bad = 0;

	snprintf(metapath, sizeof(metapath), "%s/meta", dir);
	meta = pc_test_slurp(metapath, NULL);
	if (!meta) {
		TH_LOG("%s: cannot read", metapath);
		return 1;
	}
	for (char *l = meta; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		char file[256], args[512], cmd[PATH_MAX * 2 + 1024], path[PATH_MAX + 300];
		char *want, *nl;
		size_t want_len;
		struct pc_run run;

		if (strncmp(l, "expect ", 7))
			continue;
		nl = strchr(l, '\n');
		if (sscanf(l, "expect %255[^:]: %511[^\n]", file, args) != 2) {
			TH_LOG("%s: bad line '%.*s'", metapath, nl ? (int)(nl - l) : 80, l);
			bad++;
			continue;
		}
		snprintf(path, sizeof(path), "%s/%s", dir, file);
		want = pc_test_slurp(path, &want_len);
		if (!want) {
			TH_LOG("%s: missing", path);
			bad++;
			continue;
		}
		/* in the fixture's directory: outputs name the file as "perf.data" */
		snprintf(cmd, sizeof(cmd), "cd '%s' && exec '%s' %s -i perf.data --symfs symfs", dir,
			 pc_test_perfcheck(), args);
		if (pc_test_run(&run, 120, (char *const[]){ "/bin/sh", "-c", cmd, NULL })) {
			TH_LOG("%s: cannot run", cmd);
			bad++;
		} else if (run.exit_code != 0) {
			TH_LOG("%s/%s: perfcheck %s exited %d: %s", dir, file, args, run.exit_code,
			       run.err);
			bad++;
		} else if (run.out_len != want_len || memcmp(run.out, want, want_len)) {
			char what[PATH_MAX + 600];

			snprintf(what, sizeof(what), "%s/%s (perfcheck %s)", dir, file, args);
			log_diff(_metadata, what, want, want_len, run.out ? run.out : "",
				 run.out_len);
			bad++;
		}
		(*checked)++;
		pc_run_free(&run);
		free(want);
	}
	free(meta);
	return bad;
}

/* Calls fn for each fixture directory of a family (sorted, for a stable log). */
static int each_fixture(const char *family, void (*fn)(const char *dir, void *ctx), void *ctx)
{
	const char *root = fixtures_dir();
	char fam[PATH_MAX], dir[PATH_MAX + 300], meta[PATH_MAX + 310];
	struct dirent **names;
	int n, count = 0;

	snprintf(fam, sizeof(fam), "%s/%s", root, family);
	n = scandir(fam, &names, NULL, alphasort);
	for (int i = 0; i < n; i++) {
		snprintf(dir, sizeof(dir), "%s/%s", fam, names[i]->d_name);
		snprintf(meta, sizeof(meta), "%s/meta", dir);
		if (names[i]->d_name[0] != '.' && !access(meta, F_OK)) {
			fn(dir, ctx);
			count++;
		}
		free(names[i]);
	}
	if (n >= 0)
		free(names);
	return count;
}

struct replay_ctx {
	struct __test_metadata *md;
	int bad, checked;
};

static void replay_cb(const char *dir, void *p)
{
	struct replay_ctx *c = p;

	c->bad += replay_one(c->md, dir, &c->checked);
}

static void replay_family(struct __test_metadata *_metadata, const char *family)
{
	struct replay_ctx c = { .md = _metadata };
	int n;

	if (!fixtures_dir())
		SKIP(return, "no fixtures/ directory near %s (set PERFCHECK_FIXTURES)",
		     pc_test_bindir());
	n = each_fixture(family, replay_cb, &c);
	TH_LOG("%s: %d fixtures, %d outputs compared, %d differ", family, n, c.checked, c.bad);
	ASSERT_LT(0, n) TH_LOG("no fixture in fixtures/%s", family);
	EXPECT_EQ(0, c.bad);
}

TEST(timeout_fixtures_replay_byte_for_byte)
{
	replay_family(_metadata, "timeout");
}

TEST(snapshot_fixtures_replay_byte_for_byte)
{
	replay_family(_metadata, "snapshot");
}

TEST(callchain_fixtures_replay_byte_for_byte)
{
	replay_family(_metadata, "callchain");
}

/* ---------------------------------------------------------------- meta */

static void complete_cb(const char *dir, void *p)
{
	struct replay_ctx *c = p;
	struct __test_metadata *_metadata = c->md;
	static const char *const keys[] = { "kernel", "command", "expected-exit", "exit",
					    "perfcheck" };
	char path[PATH_MAX + 64], v[512], want[64];
	struct stat st;
	char *meta;

	snprintf(path, sizeof(path), "%s/meta", dir);
	meta = pc_test_slurp(path, NULL);
	if (!meta) {
		c->bad++;
		return;
	}
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		if (!meta_get(meta, keys[i], v, sizeof(v))) {
			TH_LOG("%s: no '%s:'", path, keys[i]);
			c->bad++;
		}
	}
	if (meta_get(meta, "expected-exit", want, sizeof(want)) &&
	    meta_get(meta, "exit", v, sizeof(v)) && strcmp(want, v)) {
		TH_LOG("%s: recorded with exit %s, expected %s", dir, v, want);
		c->bad++;
	}
	if (!strstr(meta, "\nexpect ")) {
		TH_LOG("%s: no expected output", path);
		c->bad++;
	}
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	if (stat(path, &st) || st.st_size >= FIXTURE_MAX_BYTES) {
		TH_LOG("%s: missing or not under %d bytes", path, FIXTURE_MAX_BYTES);
		c->bad++;
	}
	snprintf(path, sizeof(path), "%s/symfs", dir);
	if (stat(path, &st) || !S_ISDIR(st.st_mode)) {
		TH_LOG("%s: no symfs/ (the recorded workload)", dir);
		c->bad++;
	}
	c->checked++;
	free(meta);
}

TEST(every_fixture_has_meta_expected_outputs_symfs_and_a_small_file)
{
	struct replay_ctx c = { .md = _metadata };
	static const char *const families[] = { "timeout", "snapshot", "callchain" };

	if (!fixtures_dir())
		SKIP(return, "no fixtures/ directory near %s (set PERFCHECK_FIXTURES)",
		     pc_test_bindir());
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		each_fixture(families[i], complete_cb, &c);
	EXPECT_LT(0, c.checked);
	EXPECT_EQ(0, c.bad);
}

/* ------------------------------------------- cleared features vs. the probe */

/* "missing" or "supported" for a feature in a probe.txt table */
static const char *probe_status(const char *probe, const char *name)
{
	size_t n = strlen(name);

	for (const char *l = probe; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (!strncmp(l, name, n) && l[n] == ' ') {
			const char *s = l + n;

			while (*s == ' ')
				s++;
			if (!strncmp(s, "supported", 9))
				return "supported";
			if (!strncmp(s, "missing", 7))
				return "missing";
			return "unknown";
		}
	}
	return NULL;
}

static void cleared_cb(const char *dir, void *p)
{
	struct replay_ctx *c = p;
	struct __test_metadata *_metadata = c->md;
	char path[PATH_MAX + 64], open_line[4096];
	struct pc_error err = { 0 };
	struct pd_reader r;
	char *probe;

	snprintf(path, sizeof(path), "%s/probe.txt", dir);
	probe = pc_test_slurp(path, NULL);
	if (!probe)
		return;		/* synthesized: no kernel */
	snprintf(path, sizeof(path), "%s/perf.data", dir);
	if (pd_reader_open(&r, path, &err)) {
		TH_LOG("%s", err.msg);
		c->bad++;
		free(probe);
		return;
	}
	if (pd_reader_feature_string(&r, PD_FEAT_PERFCHECK_OPEN, open_line, sizeof(open_line),
				     NULL)) {
		TH_LOG("%s: no PERFCHECK_OPEN section", path);
		c->bad++;
	} else {
		for (int f = 0; f < PC_FEAT__COUNT; f++) {
			const char *name = pc_feature_name(f);
			const char *st = probe_status(probe, name);
			bool req = xk_listed(open_line, "requested ", name);
			bool clr = xk_listed(open_line, "cleared ", name);

			if (!req || !st || !strcmp(st, "unknown"))
				continue;
			if (clr != !strcmp(st, "missing")) {
				TH_LOG("%s: %s requested, %s by the probe, %s in the file", dir,
				       name, st, clr ? "cleared" : "kept");
				c->bad++;
			}
		}
		c->checked++;
	}
	pd_reader_close(&r);
	free(probe);
}

TEST(each_recorded_fixture_clears_exactly_what_its_kernel_probe_lacks)
{
	struct replay_ctx c = { .md = _metadata };
	static const char *const families[] = { "timeout", "snapshot", "callchain" };

	if (!fixtures_dir())
		SKIP(return, "no fixtures/ directory near %s (set PERFCHECK_FIXTURES)",
		     pc_test_bindir());
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		each_fixture(families[i], cleared_cb, &c);
	EXPECT_LT(0, c.checked);
	EXPECT_EQ(0, c.bad);
}

TEST_HARNESS_MAIN
