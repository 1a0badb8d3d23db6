/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf script -F fields of a sample's content beyond the line's start and
 * its ip: weight, ins_lat, data_src, phys_addr, data_page_size,
 * code_page_size, iregs, uregs, the branch stack (brstack, brstacksym,
 * brstackoff) and misc, each in perf 6.1's layout and place.  Kept apart
 * from print.c's per-sample path: print.c calls in only when one of these
 * fields is asked for.
 */
#ifndef PERFCHECK_READER_SAMPLE_FIELDS_H
#define PERFCHECK_READER_SAMPLE_FIELDS_H

#include "reader/fields.h"
#include "reader/out.h"
#include "reader/session.h"

/* the fields perf prints between addr and ip, and those after ip (and srcline) */
#define RF_BEFORE_IP (RF_DATA_SRC | RF_WEIGHT | RF_INS_LAT | RF_CGROUP)
#define RF_AFTER_IP (RF_IREGS | RF_UREGS | RF_BRSTACK | RF_BRSTACKSYM | RF_BRSTACKOFF | \
		     RF_PHYS_ADDR | RF_DATA_PAGE_SIZE | RF_CODE_PAGE_SIZE)

/* A cgroup's id and path, from its PERF_RECORD_CGROUP */
struct rd_cgroup_name {
	uint64_t id;
	char *path;
};

/* What the fields keep from sample to sample. */
struct rd_sample_fields {
	int data_src_width;	/* perf pads data_src to the longest printed so far */
	int arch;		/* enum pc_arch of the file's ARCH, -1 until known */
	bool layout_7_2;	/* perf 7.2's data_src level and branch flags */
	struct rd_cgroup_name *cgroups;
	size_t nr_cgroups, cap_cgroups;
};

/* Learns a cgroup's path from a PERF_RECORD_CGROUP (other records are ignored). */
int rd_sample_fields_record(struct rd_sample_fields *sf, struct rd_session *s,
			    const struct pd_record *rec, struct pc_error *err);
void rd_sample_fields_free(struct rd_sample_fields *sf);

void rd_sample_fields_before_ip(struct rd_sample_fields *sf, struct rd_out *o,
				const struct pd_sample *smp, unsigned int f);
void rd_sample_fields_after_ip(struct rd_sample_fields *sf, struct rd_out *o,
			       struct rd_session *s, const struct rd_event *ev, unsigned int f);
/* "K", "U", ... of the record's misc, padded to 6 columns (after cpu, before time) */
void rd_sample_fields_misc(struct rd_out *o, const struct pd_record *rec);

#endif
