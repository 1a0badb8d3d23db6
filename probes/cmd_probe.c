// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck probe: the verdict of every row of the feature table on the
 * running kernel, as a table, JSON (parsed by the VM matrix: keep its shape),
 * TAP, or a baseline file; --expect compares with a checked-in baseline so
 * that CI notices a kernel regression or a probe bug.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "attr/attr.h"
#include "cli/commands.h"
#include "probes/behaviour.h"
#include "probes/probe.h"
#include "util/log.h"

struct result {
	enum pc_feature_status status[PC_FEAT__COUNT];
	int err[PC_FEAT__COUNT];
	int expected[PC_FEAT__COUNT];	/* -1: the baseline does not say */
	int expected_line[PC_FEAT__COUNT];
};

static void usage(FILE *out)
{
	fprintf(out,
		"usage: perfcheck probe [--json | --tap | --baseline] [--expect FILE] [-v]\n"
		"       perfcheck probe --behaviour [--json | --tap]\n\n"
		"Probes every perf_event feature of the table on the running kernel, each on its\n"
		"own, and prints supported, missing, or unknown (with the errno that decided nothing).\n\n"
		"  --json         one JSON object: release, machine, features, errno\n"
		"  --tap          one TAP line per feature\n"
		"  --baseline     the verdicts as a baseline file (name status per line)\n"
		"  --expect FILE  compare with a baseline file; exit 1 naming each difference\n"
		"  -v             also show what switching each feature off means\n"
		"  --behaviour    run each feature's behaviour check: refused, proven, broken\n"
		"                 (with what was seen) or not tested (with why); exit 1 if broken\n");
}

static const char *errname(int e)
{
	const char *n = pc_errno_name(e);

	return n ? n : "errno";
}

static void status_text(char *buf, size_t len, const struct result *r, int f)
{
	if (r->status[f] == PC_FEATURE_SUPPORTED)
		snprintf(buf, len, "supported");
	else if (r->err[f])
		snprintf(buf, len, "%s (%s %d)", pc_feature_status_name(r->status[f]),
			 errname(r->err[f]), r->err[f]);
	else
		snprintf(buf, len, "%s", pc_feature_status_name(r->status[f]));
}

static int parse_status(const char *s)
{
	for (int st = PC_FEATURE_UNKNOWN; st <= PC_FEATURE_MISSING; st++)
		if (!strcmp(s, pc_feature_status_name(st)))
			return st;
	return -1;
}

/* Baseline files: "name status" per line, '#' starts a comment. */
static int read_baseline(const char *path, struct result *r)
{
	char line[512];
	int lineno = 0, ret = 0;
	FILE *fp = fopen(path, "r");

	if (!fp) {
		fprintf(stderr, "perfcheck probe: cannot read %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), fp)) {
		char name[128], status[64], extra[2], *hash = strchr(line, '#');
		int n, f, st;

		lineno++;
		if (!strchr(line, '\n') && !feof(fp)) {
			fprintf(stderr, "perfcheck probe: %s:%d: line too long\n", path, lineno);
			ret = -1;
			break;
		}
		if (hash)
			*hash = '\0';
		n = sscanf(line, "%127s %63s %1s", name, status, extra);
		if (n <= 0)
			continue;
		if (n != 2) {
			fprintf(stderr, "perfcheck probe: %s:%d: expected \"FEATURE STATUS\"\n",
				path, lineno);
			ret = -1;
			continue;
		}
		f = pc_feature_by_name(name);
		st = parse_status(status);
		if (f == PC_FEAT__COUNT) {
			fprintf(stderr, "perfcheck probe: %s:%d: no feature named %s\n", path, lineno, name);
			ret = -1;
		} else if (st < 0) {
			fprintf(stderr, "perfcheck probe: %s:%d: status %s is not supported, missing "
				"or unknown\n", path, lineno, status);
			ret = -1;
		} else if (r->expected[f] >= 0) {
			fprintf(stderr, "perfcheck probe: %s:%d: %s already given on line %d\n",
				path, lineno, name, r->expected_line[f]);
			ret = -1;
		} else {
			r->expected[f] = st;
			r->expected_line[f] = lineno;
		}
	}
	if (ferror(fp)) {
		fprintf(stderr, "perfcheck probe: reading %s: %s\n", path, strerror(errno));
		ret = -1;
	}
	fclose(fp);
	return ret;
}

static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static void print_json(const struct result *r, const struct utsname *u)
{
	bool first = true;

	printf("{\"release\":");
	json_string(u->release);
	printf(",\"machine\":");
	json_string(u->machine);
	printf(",\"features\":{");
	for (int f = 0; f < PC_FEAT__COUNT; f++)
		printf("%s\"%s\":\"%s\"", f ? "," : "", pc_feature_name(f),
		       pc_feature_status_name(r->status[f]));
	printf("},\"errno\":{");
	for (int f = 0; f < PC_FEAT__COUNT; f++) {
		if (r->status[f] == PC_FEATURE_SUPPORTED)
			continue;
		printf("%s\"%s\":%d", first ? "" : ",", pc_feature_name(f), r->err[f]);
		first = false;
	}
	printf("}}\n");
}

static void print_tap(const struct result *r, bool expect)
{
	printf("TAP version 13\n1..%d\n", PC_FEAT__COUNT);
	for (int f = 0; f < PC_FEAT__COUNT; f++) {
		char st[64];

		status_text(st, sizeof(st), r, f);
		if (expect && r->expected[f] >= 0 && r->expected[f] != (int)r->status[f])
			printf("not ok %d - %s %s, baseline says %s\n", f + 1, pc_feature_name(f), st,
			       pc_feature_status_name(r->expected[f]));
		else if (r->status[f] == PC_FEATURE_SUPPORTED || (expect && r->expected[f] >= 0))
			printf("ok %d - %s %s\n", f + 1, pc_feature_name(f), st);
		else
			printf("ok %d - %s # SKIP %s\n", f + 1, pc_feature_name(f), st);
	}
}

static void print_baseline(const struct result *r, const struct utsname *u)
{
	printf("# perfcheck probe baseline for %s %s\n", u->release, u->machine);
	for (int f = 0; f < PC_FEAT__COUNT; f++) {
		printf("%s %s", pc_feature_name(f), pc_feature_status_name(r->status[f]));
		if (r->err[f])
			printf("\t# %s", errname(r->err[f]));
		putchar('\n');
	}
}

static void print_table(const struct result *r, const struct utsname *u)
{
	printf("kernel %s %s\n\n%-22s %-24s %-7s %s\n", u->release, u->machine,
	       "feature", "status", "since", "what");
	for (int f = 0; f < PC_FEAT__COUNT; f++) {
		const struct pc_feature_info *in = pc_feature_info(f);
		char st[64];

		status_text(st, sizeof(st), r, f);
		printf("%-22s %-24s %-7s %s\n", in->name, st, in->since, in->description);
		if (pc_verbose >= 1 && r->status[f] != PC_FEATURE_SUPPORTED)
			printf("%-22s off: %s%s\n", "", in->clearing,
			       in->clear_silently ? "" : " (never switched off silently)");
	}
}

static void json_detail(const char *key, const char *s)
{
	printf(",\"%s\":", key);
	json_string(s);
}

static void print_behaviour_json(const struct pc_behaviour_result *const *b, const struct utsname *u)
{
	printf("{\"release\":");
	json_string(u->release);
	printf(",\"machine\":");
	json_string(u->machine);
	printf(",\"behaviour\":{");
	for (int f = 0; f < PC_FEAT__COUNT; f++) {
		printf("%s\"%s\":{\"verdict\":", f ? "," : "", pc_feature_name(f));
		json_string(pc_behaviour_name(b[f]->verdict));
		json_detail("detail", b[f]->detail);
		printf(",\"ms\":%.3f}", b[f]->ms);
	}
	printf("}}\n");
}

static void print_behaviour_tap(const struct pc_behaviour_result *const *b)
{
	printf("TAP version 13\n1..%d\n", PC_FEAT__COUNT);
	for (int f = 0; f < PC_FEAT__COUNT; f++) {
		const char *name = pc_feature_name(f);

		switch (b[f]->verdict) {
		case PC_BEHAVIOUR_PROVEN:
			printf("ok %d - %s proven: %s\n", f + 1, name, b[f]->detail);
			break;
		case PC_BEHAVIOUR_BROKEN:
			printf("not ok %d - %s accepted but broken: %s\n", f + 1, name, b[f]->detail);
			break;
		case PC_BEHAVIOUR_REFUSED:
			printf("ok %d - %s # SKIP refused: %s\n", f + 1, name, b[f]->detail);
			break;
		default:
			printf("ok %d - %s # SKIP not tested: %s\n", f + 1, name, b[f]->detail);
			break;
		}
	}
}

static void print_behaviour_table(const struct pc_behaviour_result *const *b, const struct utsname *u)
{
	printf("kernel %s %s\n\n%-22s %-11s %8s  %s\n", u->release, u->machine, "feature",
	       "behaviour", "ms", "what was seen");
	for (int f = 0; f < PC_FEAT__COUNT; f++)
		printf("%-22s %-11s %8.1f  %s\n", pc_feature_name(f), pc_behaviour_name(b[f]->verdict),
		       b[f]->ms, b[f]->detail);
}

/* --behaviour: every row's check; exit 1 when one is accepted but broken */
static int run_behaviour(int mode_json, int mode_tap, const struct utsname *u)
{
	const struct pc_behaviour_result *b[PC_FEAT__COUNT];
	int broken = 0;

	for (int f = 0; f < PC_FEAT__COUNT; f++) {
		b[f] = pc_behaviour_check(f);
		broken += b[f]->verdict == PC_BEHAVIOUR_BROKEN;
	}
	if (mode_json)
		print_behaviour_json(b, u);
	else if (mode_tap)
		print_behaviour_tap(b);
	else
		print_behaviour_table(b, u);
	fflush(stdout);
	return broken ? 1 : 0;
}

int cmd_probe(int argc, char **argv)
{
	enum { TABLE, JSON, TAP, BASELINE } mode = TABLE;
	const char *expect = NULL;
	bool behaviour = false;
	struct result r;
	struct utsname u;
	int diffs = 0;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(a, "--json")) {
			mode = JSON;
		} else if (!strcmp(a, "--tap")) {
			mode = TAP;
		} else if (!strcmp(a, "--behaviour") || !strcmp(a, "--behavior")) {
			behaviour = true;
		} else if (!strcmp(a, "--baseline")) {
			mode = BASELINE;
		} else if (!strcmp(a, "--expect") && i + 1 < argc) {
			expect = argv[++i];
		} else if (!strncmp(a, "--expect=", 9)) {
			expect = a + 9;
		} else if (a[0] == '-' && a[1] == 'v' && a[strspn(a + 1, "v") + 1] == '\0') {
			pc_verbose += (int)strlen(a) - 1;
		} else {
			fprintf(stderr, "perfcheck probe: unknown option '%s'\n\n", a);
			usage(stderr);
			return 2;
		}
	}
	memset(&r, 0, sizeof(r));
	for (int f = 0; f < PC_FEAT__COUNT; f++)
		r.expected[f] = -1;
	if (expect && read_baseline(expect, &r) < 0)
		return 2;
	if (uname(&u) < 0) {
		fprintf(stderr, "perfcheck probe: uname: %s\n", strerror(errno));
		return 2;
	}
	if (behaviour) {
		if (expect || mode == BASELINE) {
			fprintf(stderr, "perfcheck probe: --behaviour takes --json or --tap, not "
				"--expect or --baseline\n");
			return 2;
		}
		return run_behaviour(mode == JSON, mode == TAP, &u);
	}
	if (pc_verbose >= 2) {
		union pc_attr base;

		pc_feature_baseline_attr(&base);
		fprintf(stderr, "the baseline every probe starts from:\n");
		pc_attr_fprintf_block(stderr, &base, base.attr.size);
	}
	for (int f = 0; f < PC_FEAT__COUNT; f++)
		r.status[f] = pc_feature_probe(f, &r.err[f]);

	switch (mode) {
	case JSON:	print_json(&r, &u); break;
	case TAP:	print_tap(&r, expect != NULL); break;
	case BASELINE:	print_baseline(&r, &u); break;
	default:	print_table(&r, &u); break;
	}
	fflush(stdout);
	for (int f = 0; expect && f < PC_FEAT__COUNT; f++) {
		char st[64];

		if (r.expected[f] < 0 || r.expected[f] == (int)r.status[f])
			continue;
		status_text(st, sizeof(st), &r, f);
		fprintf(stderr, "perfcheck probe: %s: %s says %s, probed %s\n", pc_feature_name(f),
			expect, pc_feature_status_name(r.expected[f]), st);
		diffs++;
	}
	if (diffs)
		fprintf(stderr, "perfcheck probe: %d difference%s from %s\n", diffs,
			diffs == 1 ? "" : "s", expect);
	return diffs ? 1 : 0;
}
