/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf script's sample filters: --comms, --pid, --tid, -C/--cpu, --dsos,
 * -S/--symbols (comma lists) and --time (absolute "start,end" in seconds,
 * either side open, or percent slices of the recording: "10%/2",
 * "0%-10%,50%-60%").  A sample is shown when it passes every filter given.
 */
#ifndef PERFCHECK_READER_FILTER_H
#define PERFCHECK_READER_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RD_FILTER_MAX 64

struct rd_time_range {
	uint64_t start, end;	/* ns; 0 = open */
	double pstart, pend;	/* percent form: fractions of the recording */
	bool percent;
};

struct rd_list {
	char **v;
	size_t nr;
};

struct rd_filter {
	struct rd_list comms, dsos, syms;
	/*
	 * -S's entries that read as hex numbers, moved out of syms as perf
	 * moves them (its addr_list): addresses a sample's ip must equal, or
	 * fall within addr_range of (script --addr-range)
	 */
	int64_t addrs[RD_FILTER_MAX];
	size_t nr_addrs;
	uint64_t addr_range;
	int64_t pids[RD_FILTER_MAX], tids[RD_FILTER_MAX], cpus[RD_FILTER_MAX];
	size_t nr_pids, nr_tids, nr_cpus;
	struct rd_time_range times[RD_FILTER_MAX];
	size_t nr_times;
	bool has_percent;
	bool any;		/* some filter given */
};

/* Each returns 0, or -1 when the text is not of the option's form. */
int rd_filter_list(struct rd_list *l, const char *spec);
/* -S LIST: the names into syms, the entries perf reads as hex numbers into addrs */
int rd_filter_symbols(struct rd_filter *f, const char *spec);
/* Whether -S gave anything: names or addresses */
static inline bool rd_filter_has_syms(const struct rd_filter *f)
{
	return f->syms.nr || f->nr_addrs;
}
int rd_filter_numbers(int64_t *v, size_t *nr, const char *spec, bool ranges);
int rd_filter_time(struct rd_filter *f, const char *spec);
/* Percent ranges become times once the recording's first and last sample are known. */
void rd_filter_time_resolve(struct rd_filter *f, uint64_t first, uint64_t last);
struct pd_reader;
struct pc_error;
/*
 * The same from the file: its SAMPLE_TIME feature, else its samples read
 * ahead (a pipe cannot be: an error).  0 or -errno.
 */
int rd_filter_time_span(struct rd_filter *f, struct pd_reader *r, struct pc_error *err);
void rd_filter_free(struct rd_filter *f);

/*
 * perf's test of -C against the input, before reading it: the first event
 * of each type must sample the CPU, and each CPU be below the number the
 * file says it had (a pipe's features come later: perf takes 0, so any -C
 * fails there).  0, or -1 after perf's message on stderr.
 */
int rd_filter_cpus_usable(const struct rd_filter *f, const struct pd_reader *r);

/* --comms, --pid, --tid on a sample's thread */
bool rd_filter_thread_ok(const struct rd_filter *f, const char *comm, int64_t pid, int64_t tid);

struct rd_resolved;
/*
 * --dsos and -S/--symbols on a sample's own ip: its object by path or file
 * name ("[unknown]" without a map) and its symbol by name.
 */
/* --dsos and --symbols apart (rd_filter_object_ok: both) */
bool rd_filter_dso_ok(const struct rd_filter *f, const struct rd_resolved *r);
/* ip: the sample's (or frame's) address, r what it resolved to */
bool rd_filter_sym_ok(const struct rd_filter *f, const struct rd_resolved *r, uint64_t ip);
bool rd_filter_object_ok(const struct rd_filter *f, const struct rd_resolved *r, uint64_t ip);

bool rd_filter_in_list(const struct rd_list *l, const char *s, size_t len);
bool rd_filter_in_numbers(const int64_t *v, size_t nr, int64_t x);
bool rd_filter_time_ok(const struct rd_filter *f, uint64_t t);

#endif
