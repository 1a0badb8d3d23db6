/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf stat's output reduced to its layout, for the interop_stat* tests
 * that compare perf stat and perfcheck stat on counts that differ run to run.
 */
#ifndef PERFCHECK_SELFTESTS_STAT_LAYOUT_H
#define PERFCHECK_SELFTESTS_STAT_LAYOUT_H

#include <stddef.h>

/*
 * in with every number made "N", runs of spaces made one and rates'
 * prefixes (K/sec) dropped: what is left is the layout (names, units,
 * columns, order), not the measurement
 */
void up_stat_layout_of(const char *in, char *out, size_t size);
/*
 * The same without the std layout's running share "(N%)": a cgroup
 * event's enabled and running times are the kernel's cgroup clocks, and
 * their ratio varies run to run where nothing multiplexes (perf 7.2.13,
 * stat -A -a -G / on this host's 6.18 under load: 4% to 100% running on a
 * cpu, either perf or perfcheck)
 */
void up_stat_layout_cgroup_of(const char *in, char *out, size_t size);

#endif
