// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck script and report against the system perf on files the system
 * perf records here: the same lines, symbol for symbol where both resolve
 * (--compat 6.1 selects the layout of the perf Debian 12 ships).  Skips
 * where no perf is installed (the QEMU guests) or it may not record.
 */
#include <ctype.h>

#include "kselftest_harness.h"
#include "reader_util.h"

#define SPIN "i=0; while [ $i -lt 40000 ]; do i=$((i+1)); done; ls -l /usr/bin >/dev/null"

FIXTURE(golden) {
	char *dir;
	char path[512];
	struct pc_run perf, ours;
};

FIXTURE_SETUP(golden)
{
	memset(&self->perf, 0, sizeof(self->perf));
	memset(&self->ours, 0, sizeof(self->ours));
	self->dir = pc_test_mkdtemp("script-golden");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->path, sizeof(self->path), "%s/perf.data", self->dir);
}

FIXTURE_TEARDOWN(golden)
{
	pc_run_free(&self->perf);
	pc_run_free(&self->ours);
	pc_test_rmdir(self->dir);
}

/* perf record with extra options; false (and a reason) when it cannot. */
static bool perf_record(FIXTURE_DATA(golden) *self, const char *opts, char *why, size_t n)
{
	char cmd[1024];
	struct pc_run run;
	char *argv[] = { "sh", "-c", cmd, NULL };
	bool ok;

	if (!pc_test_have_program("perf")) {
		snprintf(why, n, "no perf installed");
		return false;
	}
	snprintf(cmd, sizeof(cmd), "perf record -q -e cpu-clock -c 100000 %s -o '%s' -- sh -c '%s'",
		 opts, self->path, SPIN);
	if (pc_test_run(&run, 120, argv)) {
		snprintf(why, n, "cannot run perf record");
		return false;
	}
	ok = run.exit_code == 0;
	if (!ok)
		snprintf(why, n, "perf record %s failed: %.200s", opts, run.err ? run.err : "");
	pc_run_free(&run);
	return ok;
}

static int run_perf(struct pc_run *run, const char *what, const char *path, const char *extra)
{
	char cmd[1024];
	char *argv[] = { "sh", "-c", cmd, NULL };

	snprintf(cmd, sizeof(cmd), "perf %s -i '%s' %s 2>/dev/null", what, path, extra);
	return pc_test_run(run, 300, argv);
}

/* A callchain line "\t ADDR SYM (DSO)" split at the symbol; false otherwise. */
static bool split_frame(const char *line, size_t len, const char **sym, const char **dso)
{
	const char *sp, *paren;

	if (!len || line[0] != '\t')
		return false;
	sp = memchr(line + 1, ' ', len - 1);
	while (sp && sp < line + len && *sp == ' ')
		sp++;
	/* the address is right-aligned: skip it */
	sp = sp ? memchr(sp, ' ', (size_t)(line + len - sp)) : NULL;
	paren = line + len;
	while (paren > line && *paren != '(')
		paren--;
	if (!sp || paren <= sp)
		return false;
	*sym = sp + 1;
	*dso = paren;
	return true;
}

struct cmp {
	int lines, same, unresolved_one_side, differ;
	char first[512];
};

/*
 * Line by line: equal, or frames at the same address in the same DSO where
 * one side did not resolve the symbol (perf finds symbols we do not look
 * for, like the vdso from its build-id cache).
 */
static void compare(const char *a, const char *b, struct cmp *c)
{
	memset(c, 0, sizeof(*c));
	while (*a || *b) {
		const char *ea = strchrnul(a, '\n'), *eb = strchrnul(b, '\n');
		size_t la = (size_t)(ea - a), lb = (size_t)(eb - b);
		const char *sa, *da, *sb, *db;

		c->lines++;
		if (la == lb && !memcmp(a, b, la)) {
			c->same++;
		} else if (split_frame(a, la, &sa, &da) && split_frame(b, lb, &sb, &db) &&
			   sa - a == sb - b && !memcmp(a, b, (size_t)(sa - a)) &&
			   (size_t)(ea - da) == (size_t)(eb - db) &&
			   !memcmp(da, db, (size_t)(ea - da)) &&
			   (!strncmp(sa, "[unknown]", 9) || !strncmp(sb, "[unknown]", 9))) {
			c->unresolved_one_side++;
		} else {
			if (!c->differ)
				snprintf(c->first, sizeof(c->first), "line %d:\n perf: %.*s\n ours: %.*s",
					 c->lines, (int)(la > 200 ? 200 : la), a,
					 (int)(lb > 200 ? 200 : lb), b);
			c->differ++;
		}
		a = *ea ? ea + 1 : ea;
		b = *eb ? eb + 1 : eb;
	}
}

static void script_matches(struct __test_metadata *_metadata, FIXTURE_DATA(golden) *self,
			   const char *fields)
{
	char fopt[256] = "";
	struct cmp c;

	if (fields)
		snprintf(fopt, sizeof(fopt), "-F %s", fields);
	ASSERT_EQ(0, run_perf(&self->perf, "script", self->path, fopt));
	ASSERT_EQ(0, self->perf.exit_code);
	ASSERT_EQ(0, rt_perfcheck(&self->ours, "script", "--compat", "6.1", "-i", self->path,
				  fields ? "-F" : NULL, fields));
	ASSERT_EQ(0, self->ours.exit_code) TH_LOG("%s", self->ours.err);
	ASSERT_LT(10, pc_count_substr(self->perf.out, "cpu-clock:"));
	compare(self->perf.out, self->ours.out, &c);
	TH_LOG("%d lines: %d equal, %d resolved by one side only", c.lines, c.same,
	       c.unresolved_one_side);
	EXPECT_EQ(0, c.differ) TH_LOG("%d differ; first at %s", c.differ, c.first);
	/* most lines must be byte-identical, not merely tolerated */
	EXPECT_LT(c.lines * 9, c.same * 10);
}

TEST_F(golden, callchains_match_perf_script_symbol_for_symbol)
{
	char why[300];

	if (!perf_record(self, "-g", why, sizeof(why)))
		SKIP(return, "%s", why);
	script_matches(_metadata, self, NULL);
}

TEST_F(golden, samples_without_callchains_match_perf_script)
{
	char why[300];

	if (!perf_record(self, "", why, sizeof(why)))
		SKIP(return, "%s", why);
	script_matches(_metadata, self, NULL);
}

TEST_F(golden, system_wide_samples_show_the_cpu_as_perf_script_does)
{
	char why[300];

	if (!perf_record(self, "-a -g", why, sizeof(why)))
		SKIP(return, "%s", why);
	script_matches(_metadata, self, NULL);
	EXPECT_NE(NULL, strstr(self->ours.out, "] "));
}

TEST_F(golden, selected_fields_match_perf_script_F)
{
	char why[300];

	if (!perf_record(self, "-g", why, sizeof(why)))
		SKIP(return, "%s", why);
	script_matches(_metadata, self, "comm,tid,pid,time,event,ip,sym,dso,period");
}

TEST_F(golden, default_layout_is_perf_7_2s_seven_column_tid)
{
	char why[300], want[64];
	const char *nl;

	if (!perf_record(self, "", why, sizeof(why)))
		SKIP(return, "%s", why);
	ASSERT_EQ(0, rt_perfcheck(&self->ours, "script", "-i", self->path, NULL, NULL, NULL,
				  NULL));
	ASSERT_EQ(0, self->ours.exit_code);
	nl = strchr(self->ours.out, '\n');
	ASSERT_NE(NULL, nl);
	/* "%16s %7d " then the time */
	snprintf(want, sizeof(want), "%.16s ", self->ours.out);
	EXPECT_EQ(' ', self->ours.out[16]);
	EXPECT_TRUE(isdigit((unsigned char)self->ours.out[23]));
	EXPECT_EQ(' ', self->ours.out[24]);
}

/* "pct comm dso sym" rows of a report table, one string each, joined by '\n' */
static void report_rows(const char *out, char *rows, size_t size, int max)
{
	const char *l = out;
	size_t len = 0;
	int n = 0;

	rows[0] = '\0';
	while (*l && n < max) {
		const char *e = strchrnul(l, '\n');
		char pct[32], comm[64], dso[128], kind[8], sym[256];

		if (*l != '#' && sscanf(l, "%31s %63s %127s %7s %255s", pct, comm, dso, kind, sym) == 5 &&
		    strchr(pct, '%') && strncmp(sym, "0x", 2)) {
			int w = snprintf(rows + len, size - len, "%s %s %s %s %s\n", pct, comm, dso,
					 kind, sym);

			if (w < 0 || (size_t)w >= size - len)
				break;
			len += (size_t)w;
			n++;
		}
		l = *e ? e + 1 : e;
	}
}

TEST_F(golden, report_overheads_match_perf_report_stdio)
{
	char why[300], theirs[8192], mine[65536];
	const char *row;

	if (!perf_record(self, "-g", why, sizeof(why)))
		SKIP(return, "%s", why);
	ASSERT_EQ(0, run_perf(&self->perf, "report", self->path, "--stdio --no-children -g none"));
	ASSERT_EQ(0, self->perf.exit_code);
	ASSERT_EQ(0, rt_perfcheck(&self->ours, "report", "--stdio", "--no-children", "-i",
				  self->path, NULL, NULL));
	ASSERT_EQ(0, self->ours.exit_code) TH_LOG("%s", self->ours.err);
	report_rows(self->perf.out, theirs, sizeof(theirs), 10);
	report_rows(self->ours.out, mine, sizeof(mine), 100000);
	ASSERT_NE(0, theirs[0]);
	/* each of perf's top rows with a symbol is one of ours, percentage included */
	for (row = theirs; *row; row = strchr(row, '\n') + 1) {
		char one[512];
		size_t n = (size_t)(strchr(row, '\n') - row) + 1;

		snprintf(one, sizeof(one), "%.*s", (int)n, row);
		EXPECT_NE(NULL, strstr(mine, one)) TH_LOG("perf row not in ours: %s", one);
	}
}

TEST_HARNESS_MAIN
