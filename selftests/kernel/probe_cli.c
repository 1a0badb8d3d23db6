// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck probe as CI uses it: --expect against the checked-in baseline
 * of the running kernel, a baseline altered by one feature, and the JSON
 * object the VM matrix parses.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "lib/testutil.h"
#include "probes/probe.h"

static int run_probe(struct pc_run *run, const char *a1, const char *a2, const char *a3)
{
	char *argv[] = { (char *)pc_test_perfcheck(), "probe", (char *)a1, (char *)a2,
			 (char *)a3, NULL };

	return pc_test_run(run, 60, argv);
}

static bool try_dir(char *path, size_t len, const char *dir, const char *suffix, const char *mm)
{
	int n = snprintf(path, len, "%s%s/%s.txt", dir, suffix, mm);

	return n > 0 && (size_t)n < len && access(path, R_OK) == 0;
}

/* probes/baselines/MAJOR.MINOR.txt of the running kernel, if there is one. */
static bool find_baseline(char *path, size_t len, char *release, size_t rlen)
{
	const char *env = getenv("PERFCHECK_BASELINES"), *src;
	struct utsname u;
	char mm[32], rel[64];
	int major, minor;

	if (uname(&u) < 0 || sscanf(u.release, "%d.%d", &major, &minor) != 2)
		return false;
	snprintf(release, rlen, "%s", u.release);
	snprintf(mm, sizeof(mm), "%d.%d", major, minor);
	if (env && *env && try_dir(path, len, env, "", mm))
		return true;
	snprintf(rel, sizeof(rel), "probes/baselines/%s.txt", mm);
	src = pc_test_srcdir(rel);
	return src && try_dir(path, len, src, "/probes/baselines", mm);
}

TEST(expect_passes_with_the_running_kernels_baseline)
{
	char path[PATH_MAX], release[128];
	struct pc_run run;

	if (!find_baseline(path, sizeof(path), release, sizeof(release)))
		SKIP(return, "no baseline for kernel %s in probes/baselines", release);
	ASSERT_EQ(0, run_probe(&run, "--expect", path, NULL));
	EXPECT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	EXPECT_EQ(NULL, strstr(run.err, "says")) TH_LOG("%s", run.err);
	pc_run_free(&run);
}

static void write_file(struct __test_metadata *_metadata, const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	ASSERT_NE(NULL, fp);
	fputs(text, fp);
	ASSERT_EQ(0, fclose(fp));
}

TEST(expect_fails_naming_the_feature_a_baseline_gets_wrong)
{
	char *dir = pc_test_mkdtemp("probe"), same[PATH_MAX], altered[PATH_MAX];
	char want[PATH_MAX + 128], name[64] = "", *flipped, *line;
	struct pc_run run, base;

	ASSERT_NE(NULL, dir);
	/* the running kernel's own verdicts, and the same with one of them flipped */
	ASSERT_EQ(0, run_probe(&base, "--baseline", NULL, NULL));
	ASSERT_EQ(0, base.exit_code);
	flipped = strdup(base.out);
	ASSERT_NE(NULL, flipped);
	for (line = flipped; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		char n[64], st[32];

		if (sscanf(line, "%63s %31s", n, st) == 2 && !strcmp(st, "supported")) {
			snprintf(name, sizeof(name), "%s", n);
			memcpy(line + strlen(n) + 1, "missing  ", 9);	/* same length */
			break;
		}
	}
	if (!name[0])
		SKIP(goto out, "no feature is supported here");
	snprintf(same, sizeof(same), "%s/same.txt", dir);
	snprintf(altered, sizeof(altered), "%s/altered.txt", dir);
	write_file(_metadata, same, base.out);
	write_file(_metadata, altered, flipped);

	ASSERT_EQ(0, run_probe(&run, "--expect", same, NULL));
	EXPECT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	pc_run_free(&run);
	ASSERT_EQ(0, run_probe(&run, "--expect", altered, NULL));
	EXPECT_EQ(1, run.exit_code);
	snprintf(want, sizeof(want), "%s: %s says missing, probed supported", name, altered);
	EXPECT_NE(NULL, strstr(run.err, want)) TH_LOG("%s", run.err);
	EXPECT_EQ(1, pc_count_substr(run.err, " says ")) TH_LOG("%s", run.err);
	pc_run_free(&run);
out:
	free(flipped);
	pc_run_free(&base);
	pc_test_rmdir(dir);
}

TEST(malformed_baseline_is_refused_naming_the_line)
{
	char *dir = pc_test_mkdtemp("probe"), file[PATH_MAX];
	struct pc_run run;
	FILE *fp;

	ASSERT_NE(NULL, dir);
	snprintf(file, sizeof(file), "%s/bad.txt", dir);
	fp = fopen(file, "w");
	ASSERT_NE(NULL, fp);
	fprintf(fp, "# comment\nmmap2 supported\nno_such_feature supported\n");
	fclose(fp);
	ASSERT_EQ(0, run_probe(&run, "--expect", file, NULL));
	EXPECT_EQ(2, run.exit_code);
	EXPECT_NE(NULL, strstr(run.err, ":3: no feature named no_such_feature")) TH_LOG("%s", run.err);
	pc_run_free(&run);
	pc_test_rmdir(dir);
}

/* ---- a small strict JSON reader, enough to check the shape ---- */

struct json {
	const char *p;
	int bad;
};

static void ws(struct json *j)
{
	while (isspace((unsigned char)*j->p))
		j->p++;
}

static int string(struct json *j, char *out, size_t len)
{
	size_t n = 0;

	ws(j);
	if (*j->p != '"')
		return -1;
	j->p++;
	while (*j->p && *j->p != '"') {
		char c = *j->p++;

		if ((unsigned char)c < 0x20)
			return -1;
		if (c == '\\') {
			c = *j->p++;
			if (c == 'u') {
				for (int i = 0; i < 4; i++)
					if (!isxdigit((unsigned char)*j->p++))
						return -1;
				c = '?';
			} else if (!strchr("\"\\/bfnrt", c)) {
				return -1;
			}
		}
		if (n + 1 < len)
			out[n++] = c;
	}
	if (*j->p != '"')
		return -1;
	j->p++;
	out[n] = '\0';
	return 0;
}

static int number(struct json *j, long *v)
{
	char *end;

	ws(j);
	if (!isdigit((unsigned char)*j->p) && *j->p != '-')
		return -1;
	*v = strtol(j->p, &end, 10);
	j->p = end;
	return 0;
}

static int expect_char(struct json *j, char c)
{
	ws(j);
	if (*j->p != c)
		return -1;
	j->p++;
	return 0;
}

TEST(json_is_one_well_formed_object_with_every_feature)
{
	char key[128], val[128], release[128] = "", machine[64] = "";
	int status[PC_FEAT__COUNT], errs[PC_FEAT__COUNT];
	struct utsname u;
	struct pc_run run;
	struct json j;

	ASSERT_EQ(0, uname(&u));
	ASSERT_EQ(0, run_probe(&run, "--json", NULL, NULL));
	ASSERT_EQ(0, run.exit_code);
	for (int f = 0; f < PC_FEAT__COUNT; f++)
		status[f] = errs[f] = -1;
	j.p = run.out;
	ASSERT_EQ(0, expect_char(&j, '{'));
	ASSERT_EQ(0, string(&j, key, sizeof(key)));
	ASSERT_STREQ("release", key);
	ASSERT_EQ(0, expect_char(&j, ':'));
	ASSERT_EQ(0, string(&j, release, sizeof(release)));
	ASSERT_EQ(0, expect_char(&j, ','));
	ASSERT_EQ(0, string(&j, key, sizeof(key)));
	ASSERT_STREQ("machine", key);
	ASSERT_EQ(0, expect_char(&j, ':'));
	ASSERT_EQ(0, string(&j, machine, sizeof(machine)));
	ASSERT_EQ(0, expect_char(&j, ','));
	ASSERT_EQ(0, string(&j, key, sizeof(key)));
	ASSERT_STREQ("features", key);
	ASSERT_EQ(0, expect_char(&j, ':'));
	ASSERT_EQ(0, expect_char(&j, '{'));
	do {
		enum pc_feature f;

		ASSERT_EQ(0, string(&j, key, sizeof(key)));
		ASSERT_EQ(0, expect_char(&j, ':'));
		ASSERT_EQ(0, string(&j, val, sizeof(val)));
		f = pc_feature_by_name(key);
		ASSERT_NE(PC_FEAT__COUNT, f) TH_LOG("unknown feature %s", key);
		ASSERT_EQ(-1, status[f]) TH_LOG("%s twice", key);
		status[f] = !strcmp(val, "supported") ? PC_FEATURE_SUPPORTED :
			    !strcmp(val, "missing") ? PC_FEATURE_MISSING :
			    !strcmp(val, "unknown") ? PC_FEATURE_UNKNOWN : -2;
		ASSERT_NE(-2, status[f]) TH_LOG("%s: %s", key, val);
		ws(&j);
	} while (*j.p == ',' && j.p++);
	ASSERT_EQ(0, expect_char(&j, '}'));
	ASSERT_EQ(0, expect_char(&j, ','));
	ASSERT_EQ(0, string(&j, key, sizeof(key)));
	ASSERT_STREQ("errno", key);
	ASSERT_EQ(0, expect_char(&j, ':'));
	ASSERT_EQ(0, expect_char(&j, '{'));
	ws(&j);
	if (*j.p != '}') {
		do {
			enum pc_feature f;
			long v;

			ASSERT_EQ(0, string(&j, key, sizeof(key)));
			ASSERT_EQ(0, expect_char(&j, ':'));
			ASSERT_EQ(0, number(&j, &v));
			f = pc_feature_by_name(key);
			ASSERT_NE(PC_FEAT__COUNT, f) TH_LOG("unknown feature %s", key);
			ASSERT_EQ(-1, errs[f]);
			errs[f] = (int)v;
			ws(&j);
		} while (*j.p == ',' && j.p++);
	}
	ASSERT_EQ(0, expect_char(&j, '}'));
	ASSERT_EQ(0, expect_char(&j, '}'));
	ws(&j);
	EXPECT_EQ('\0', *j.p) TH_LOG("trailing: %s", j.p);
	EXPECT_STREQ(u.release, release);
	EXPECT_STREQ(u.machine, machine);
	for (int f = 0; f < PC_FEAT__COUNT; f++) {
		EXPECT_NE(-1, status[f]) TH_LOG("%s not reported", pc_feature_name(f));
		/* an errno exactly for the features that are not supported */
		EXPECT_EQ(status[f] == PC_FEATURE_SUPPORTED, errs[f] == -1) TH_LOG("%s", pc_feature_name(f));
	}
	pc_run_free(&run);
}

TEST(tap_has_a_plan_and_one_line_per_feature)
{
	struct pc_run run;
	char plan[32];

	ASSERT_EQ(0, run_probe(&run, "--tap", NULL, NULL));
	EXPECT_EQ(0, run.exit_code);
	snprintf(plan, sizeof(plan), "\n1..%d\n", PC_FEAT__COUNT);
	EXPECT_NE(NULL, strstr(run.out, plan)) TH_LOG("%s", run.out);
	EXPECT_EQ(PC_FEAT__COUNT, pc_count_substr(run.out, "\nok "));
	EXPECT_EQ(0, pc_count_substr(run.out, "not ok"));
	pc_run_free(&run);
}

TEST(help_describes_the_options)
{
	struct pc_run run;

	ASSERT_EQ(0, run_probe(&run, "--help", NULL, NULL));
	EXPECT_EQ(0, run.exit_code);
	EXPECT_NE(NULL, strstr(run.out, "--expect FILE"));
	pc_run_free(&run);
}

TEST_HARNESS_MAIN
