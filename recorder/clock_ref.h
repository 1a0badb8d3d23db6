/* SPDX-License-Identifier: GPL-2.0 */
/*
 * -k CLOCK's header features, as perf record writes them: CLOCKID (the
 * clock's resolution in ns) and CLOCK_DATA (the clock and a reference
 * pair of times, wall clock and CLOCK, read together at the start), from
 * which perf script -F tod and our reader turn sample times into dates.
 */
#ifndef PERFCHECK_RECORDER_CLOCK_REF_H
#define PERFCHECK_RECORDER_CLOCK_REF_H

struct pd_writer;

/* 0, or -errno when the clock cannot be read (the features are left out). */
int rec_clock_ref_write(struct pd_writer *w, int clockid);

#endif
