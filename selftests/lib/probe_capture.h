/* SPDX-License-Identifier: GPL-2.0 */
/* stderr capture for the probe selftests: the ladder says what it clears there. */
#ifndef PERFCHECK_SELFTESTS_PROBE_CAPTURE_H
#define PERFCHECK_SELFTESTS_PROBE_CAPTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct capture {
	int saved;
	FILE *tmp;
};

int capture_start(struct capture *c);

/* Restores stderr; returns what was written meanwhile (malloc'ed, never NULL). */
char *capture_end(struct capture *c);

/* "switching off NAME" as a whole word (NAME: or NAME (needs ...)). */
int says_switching_off(const char *text, const char *name);

#endif
