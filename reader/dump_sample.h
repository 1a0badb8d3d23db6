/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fields of a sample as perf script -D prints them under its
 * PERF_RECORD_SAMPLE line: callchain, user and interrupt registers with
 * their names, the user stack's size and place, weight, data_src,
 * physical address, transaction, and the values read (PERF_SAMPLE_READ).
 */
#ifndef PERFCHECK_READER_DUMP_SAMPLE_H
#define PERFCHECK_READER_DUMP_SAMPLE_H

#include "perfdata/perfdata.h"
#include "reader/out.h"
#include "symbols/regs.h"

/*
 * "(IP, 0xMISC): PID/TID: 0xIP period: N addr: 0xA" and the lines of the
 * fields; named: a callchain's context markers named, as perf 7.2
 */
void rd_dump_sample(struct rd_out *o, const struct pd_record *rec, const struct pd_sample *smp,
		    enum pc_arch arch, bool named);
/* "... FP chain: nr:N" and one line per entry (named: as above) */
void rd_dump_chain(struct rd_out *o, const uint64_t *ips, uint64_t nr, bool deferred,
		   bool named);

#endif
