/* SPDX-License-Identifier: GPL-2.0 */
/* The machine's description in the header (CPUDESC ... CACHE), as perf record writes it. */
#ifndef PERFCHECK_RECORDER_MACHINE_DESC_H
#define PERFCHECK_RECORDER_MACHINE_DESC_H

struct pd_writer;

/* Sets the features this machine can describe; the others stay out of the file. */
void rec_machine_desc_write(struct pd_writer *w);

#endif
