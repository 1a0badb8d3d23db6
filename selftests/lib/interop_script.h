/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the interop_*.c selftests: perf script's default text parsed
 * into samples, and two such texts compared the way the interop promise
 * reads: the same samples in the same order, each with the same header
 * (comm, tid, cpu, time, period, event) and the same callchain addresses;
 * symbols and DSOs compared wherever both tools resolve them.
 *
 * Parsing rather than diffing bytes: column widths changed between perf
 * versions (tid %5d in 6.1, %7d in 7.2), and a symbol one tool resolves and
 * the other cannot is not a disagreement.  Two names for one kernel address
 * (aliases in kallsyms, such as __pi___x86_indirect_thunk_r14 and
 * __x86_indirect_thunk_r14) are accepted only when kallsyms lists both at
 * that same address; they are counted.
 */
#ifndef PERFCHECK_SELFTESTS_INTEROP_SCRIPT_H
#define PERFCHECK_SELFTESTS_INTEROP_SCRIPT_H

#include <ctype.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct is_frame {
	uint64_t addr;
	char sym[256];		/* "[unknown]", "(cookie)" or a name */
	uint64_t off;
	bool has_off;
	char dso[256];
};

struct is_sample {
	int line;		/* 1-based line of the header */
	char comm[64];
	char tid[32];		/* "tid" or "pid/tid" as printed */
	int cpu;		/* -1 when not printed */
	char time[32];
	uint64_t period;
	bool has_period;
	char event[128];	/* without the colon; "DEFERRED CALLCHAIN" for blocks */
	char cookie[32];	/* deferred blocks */
	struct is_frame *frames;
	int nr_frames;
};

struct is_script {
	struct is_sample *samples;
	int nr;
};

struct is_cmp {
	int samples, frames;
	int sym_both, sym_alias, sym_only_a, sym_only_b;
	int dso_both;
	int deferred_blocks, cookie_frames;
	char why[1024];		/* the first disagreement */
};

void is_free(struct is_script *s);

bool is_time_token(const char *t);

bool is_all_digits(const char *t, bool slash);

/* "ADDR SYM+0xOFF (DSO)": the text of a frame, from a line or a header's tail. */
int is_parse_frame(const char *s, struct is_frame *f);

int is_add_frame(struct is_sample *s, const struct is_frame *f);

#define IS_MAX_TOKENS 64

/* A header line: COMM... TID [CPU] TIME: [PERIOD] EVENT: [frame], or a
 * deferred block COMM... TID TIME: DEFERRED CALLCHAIN [cookie: HEX]. */
int is_parse_header(char *line, struct is_sample *s, char *why, size_t whylen);

/* Parses text (modified in place).  Returns 0, or -1 with why set. */
int is_parse(char *text, struct is_script *out, char *why, size_t whylen);

bool is_unknown(const char *s);

bool is_kernel_addr(uint64_t a);

/* Whether kallsyms lists both names at the address (when it is readable). */
bool is_kallsyms_alias(uint64_t addr, const char *a, const char *b);

#define IS_WHY(c, ...) (snprintf((c)->why, sizeof((c)->why), __VA_ARGS__), -1)

/*
 * Compares a (perf's text: the reference) with b (perfcheck's).  Returns
 * 0 when they agree, -1 with c->why naming the first disagreement.
 */
int is_compare(const struct is_script *a, const struct is_script *b,
			     struct is_cmp *c);

/* Parses both texts (copies) and compares them; a parse error is a disagreement. */
int is_compare_text(const char *perf_text, const char *pc_text, struct is_cmp *c);

void is_cmp_summary(const struct is_cmp *c, char *buf, size_t len);

#endif
