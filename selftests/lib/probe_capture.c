// SPDX-License-Identifier: GPL-2.0
/* The helpers declared in probe_capture.h, compiled once for every test. */
#include "probe_capture.h"

int capture_start(struct capture *c)
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

char *capture_end(struct capture *c)
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

int says_switching_off(const char *text, const char *name)
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
