/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The BPF features in perf's header listing (perf 6.1): "# bpf_prog_info ID:"
 * blocks with a line per JITed function, and "# btf info of id ID" lines,
 * each in id order, the first entry of an id kept (as perf's tree keeps it).
 */
#ifndef PERFCHECK_READER_BPF_HEADER_H
#define PERFCHECK_READER_BPF_HEADER_H

#include "perfdata/perfdata.h"
#include "reader/out.h"

int rd_bpf_header_progs(struct rd_out *o, const struct pd_reader *r, struct pc_error *err);
int rd_bpf_header_btfs(struct rd_out *o, const struct pd_reader *r, struct pc_error *err);

#endif
