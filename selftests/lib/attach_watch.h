/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Ending an attach target (-p PID) once the tool recording it has attached,
 * instead of giving the target a fixed life: on a slow guest (TCG, eight
 * rows on two cores) perf 6.12 and 7.2 took longer than 2+4+8+16+32 s to
 * start, every target had ended before they attached, and -p parity failed
 * on ESRCH in the 6.12 and 7.2 rows (2026-11-26).
 */
#ifndef PERFCHECK_SELFTESTS_ATTACH_WATCH_H
#define PERFCHECK_SELFTESTS_ATTACH_WATCH_H

#include <sys/types.h>

/*
 * Forks a watcher that waits until another child of this process (the tool
 * run by pc_test_run) has held perf_event file descriptors for hold_ms
 * (probes the tool opens and closes at once do not count), then sends
 * SIGTERM to target.  Returns the watcher's pid (for attach_watch_end), or
 * -1 with errno.
 */
pid_t attach_watch_start(pid_t target, int hold_ms);

/* Stops and reaps the watcher (it may have ended already).  Returns 1 when it
 * ended the target, 0 when it had not seen the tool attach. */
int attach_watch_end(pid_t watcher);

#endif
