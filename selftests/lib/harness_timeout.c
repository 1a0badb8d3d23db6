// SPDX-License-Identifier: GPL-2.0
/*
 * The kselftest harness arms alarm(TIMEOUT) around each test, in seconds of
 * the machine's clock.  In a guest of the matrix the tests run as much
 * slower as the guest's measured slowdown (PERFCHECK_VM_FACTOR, set by
 * vm/init, which scales each test file's own timeout by it): every alarm is
 * scaled by the same factor, so that a test times out when it hangs, not
 * when eight guests share two cores (5.10 under TCG, 2026-11-26: four
 * tests killed at 30 s that passed on their re-run).  PERFCHECK_TIMEOUT_SCALE
 * (the scale of tap-exec's timeouts; make SAN=1 check sets it, ASan's code
 * being that much slower) scales them too, the larger of the two winning.
 * The test binaries are linked with -Wl,--wrap=alarm; without either
 * variable nothing changes.
 */
#include <stdlib.h>
#include <unistd.h>

unsigned int __real_alarm(unsigned int seconds);
unsigned int __wrap_alarm(unsigned int seconds);

/* a day: the factor is capped at 100 by vm/init, and alarm() takes an unsigned int */
#define LONGEST_ALARM_S 86400.0

unsigned int __wrap_alarm(unsigned int seconds)
{
	const char *text = getenv("PERFCHECK_VM_FACTOR"), *scale = getenv("PERFCHECK_TIMEOUT_SCALE");
	double factor = text ? atof(text) : 1.0;

	if (scale && atof(scale) > factor)
		factor = atof(scale);

	if (seconds && factor > 1.0) {
		double scaled = seconds * factor;

		seconds = scaled > LONGEST_ALARM_S ? (unsigned int)LONGEST_ALARM_S
						   : (unsigned int)(scaled + 0.999);
	}
	return __real_alarm(seconds);
}
