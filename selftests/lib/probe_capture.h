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

static inline int capture_start(struct capture *c)
{
	fflush(stderr);
	c->tmp = tmpfile();
	if (!c->tmp)
		return -1;
	c->saved = dup(2);
	if (c->saved < 0 || dup2(fileno(c->tmp), 2) < 0)
		return -1;
	return 0;
}

/* Restores stderr; returns what was written meanwhile (malloc'ed, never NULL). */
static inline char *capture_end(struct capture *c)
{
	char *buf;
	long n;

	fflush(stderr);
	dup2(c->saved, 2);
	close(c->saved);
	n = ftell(c->tmp);
	buf = calloc(1, n > 0 ? (size_t)n + 1 : 1);
	if (buf && n > 0) {
		rewind(c->tmp);
		if (fread(buf, 1, (size_t)n, c->tmp) != (size_t)n)
			buf[0] = '\0';
	}
	fclose(c->tmp);
	return buf ? buf : strdup("");
}

/* "switching off NAME" as a whole word (NAME: or NAME (needs ...)). */
static inline int says_switching_off(const char *text, const char *name)
{
	char pat[128];
	const char *p = text;
	size_t len;

	len = (size_t)snprintf(pat, sizeof(pat), "switching off %s", name);
	while ((p = strstr(p, pat))) {
		if (p[len] == ':' || p[len] == ' ')
			return 1;
		p += len;
	}
	return 0;
}

#endif
