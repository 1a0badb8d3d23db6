/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the interop_*.c selftests: the perf_event_attr each tool opened,
 * read from its -vv output (perf record -vv; perfcheck record -vv prints the
 * same layout through lib/attr), the field-by-field differences between
 * the two, and the checked-in list of differences allowed, each with its
 * reason (vm/upstream/attr-parity.expect).
 *
 * Only the attr of an open that succeeded counts: what each tool opens
 * after its own ladder.  An event is known by "type:config" of that attr;
 * bitmask fields are compared bit by bit ("sample_type.IDENTIFIER"), every
 * other field by its printed value, an absent field reading as 0.
 */
#ifndef PERFCHECK_SELFTESTS_INTEROP_ATTR_H
#define PERFCHECK_SELFTESTS_INTEROP_ATTR_H

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define IA_MAX_FIELDS	80
#define IA_MAX_EVENTS	16
#define IA_MAX_DIFFS	128

struct ia_field {
	char key[48];
	char value[160];
};

struct ia_attr {
	struct ia_field f[IA_MAX_FIELDS];
	int n;
};

struct ia_event {
	char id[48];		/* "type:config" */
	struct ia_attr attr;
	/*
	 * where it opened: pid -1 (bit 0), a task (bit 1); the cpus (0-63),
	 * cpu -1; all 0 when the text does not say (fixtures keep only "= FD")
	 */
	unsigned int on_pids;
	unsigned long long on_cpus;
	bool on_any_cpu;
};

/* "pid:-1,cpu:0+1", "pid:task,cpu:-1": where e opened. */
void ia_opens(const struct ia_event *e, char *buf, size_t size);

struct ia_opened {
	struct ia_event ev[IA_MAX_EVENTS];
	int n;
	int attempts, failures;
};

struct ia_diff {
	char key[96];		/* field, "field.BIT" or "event:TYPE:CONFIG" */
	char event[48];
	char perf[160], pc[160];
	const char *reason;	/* from the expectations; NULL when unexpected */
};

const char *ia_get(const struct ia_attr *a, const char *key);

/* "{ sample_period, sample_freq }" -> "sample_period"; others as printed. */
void ia_key(const char *name, size_t len, char *key, size_t size);

void ia_add_event(struct ia_opened *o, const struct ia_attr *a);

/* Whether an open line ("sys_perf_event_open: ...") says it succeeded. */
int ia_open_result(const char *line);

/* Reads every successful open of a -vv text (copied, not modified). */
int ia_parse_vv(const char *text, struct ia_opened *o);

/*
 * Reads `perf evlist -v`: one line per event, "NAME: type: 1, size: 64,
 * { sample_period, sample_freq }: 4000, ...", a value possibly annotated
 * ("1 (PERF_TYPE_SOFTWARE)") as in -vv.
 */
int ia_parse_evlist(const char *text, struct ia_opened *o);

bool ia_is_bitmask(const char *key);

bool ia_has_bit(const char *value, const char *bit);

void ia_push(struct ia_diff *d, int *n, const char *key, const char *event,
			   const char *perf, const char *pc);

void ia_bit_diffs(struct ia_diff *d, int *n, const char *key, const char *event,
				const char *a, const char *b);

bool ia_has_event(const struct ia_opened *o, const char *id);

/* Removes the BPF side-band dummy ("1:0x9:sb"), which no file lists; 1 if there was one. */
int ia_drop_sideband(struct ia_opened *o);

/* The fields of one pair of events: every key once, perf's then perfcheck's. */
void ia_diff_pair(const struct ia_event *e, const struct ia_event *g,
				struct ia_diff *d, int *n);

/*
 * Field-by-field differences.  Events pair by type:config; those left
 * over pair in order (one tool's fallback event against the other's: the
 * difference shows as type/config), and any still alone is an event only
 * one tool opened.
 */
int ia_diff(const struct ia_opened *perf, const struct ia_opened *pc,
			  struct ia_diff *d);

/* ------------------------------------------------------------ expectations */

struct ia_expect {
	char key[96], perf[160], pc[160], options[160], versions[64];
	char reason[512];
	int line;
	int used;
};

struct ia_expects {
	struct ia_expect *e;
	int n;
};

/* KEY PERF PERFCHECK OPTIONS PERF-VERSIONS REASON...; '#' comments. */
int ia_load_expects(const char *path, struct ia_expects *x, char *why, size_t len);

bool ia_in_list(const char *list, const char *word);

/* "*", or a comma list of X.Y (that version), >=X.Y, <X.Y, each possibly
 * ARCH:RANGE (aarch64:*, aarch64:>=6.12): only on that machine (uname -m). */
bool ia_version_matches(const char *spec, int major, int minor);

bool ia_value_matches(const char *spec, const char *value);

/* Fills each difference's reason from the first matching line; returns
 * how many stay unexpected. */
int ia_explain(struct ia_diff *d, int n, struct ia_expects *x, const char *variant,
			     int major, int minor);

#endif
