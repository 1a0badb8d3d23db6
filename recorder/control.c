// SPDX-License-Identifier: GPL-2.0
/*
 * perf record's control channel: a fifo (opened read-write, so that it
 * never reports end-of-file when a writer goes away) or an inherited fd,
 * read without blocking from the poll loop; commands are lines.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "recorder/control.h"
#include "util/log.h"

static int parse_fd(const char *s, int *fd)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0 || v > INT_MAX || fcntl((int)v, F_GETFD) < 0)
		return -EBADF;
	*fd = (int)v;
	return 0;
}

int rec_control_open(struct rec_control *c, const char *spec, struct pc_error *err)
{
	bool fifo = !strncmp(spec, "fifo:", 5);
	char ctl[PATH_MAX], *ack;

	memset(c, 0, sizeof(*c));
	c->ctl_fd = c->ack_fd = -1;
	if (snprintf(ctl, sizeof(ctl), "%s", spec + (fifo ? 5 : 3)) >= (int)sizeof(ctl))
		return pc_error_set(err, ENAMETOOLONG, "--control: name too long");
	ack = strchr(ctl, ',');
	if (ack)
		*ack++ = '\0';
	if (!fifo) {
		if (parse_fd(ctl, &c->ctl_fd) || (ack && parse_fd(ack, &c->ack_fd)))
			return pc_error_set(err, EBADF, "--control %s: not an open fd", spec);
		fcntl(c->ctl_fd, F_SETFL, fcntl(c->ctl_fd, F_GETFL) | O_NONBLOCK);
		return 0;
	}
	c->own_fds = true;
	c->ctl_fd = open(ctl, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (c->ctl_fd < 0)
		return pc_error_set(err, errno, "--control: cannot open %s: %s", ctl,
				    strerror(errno));
	if (ack) {
		/* read-write too: the open does not wait for the other side */
		c->ack_fd = open(ack, O_RDWR | O_CLOEXEC);
		if (c->ack_fd < 0) {
			int e = errno;

			close(c->ctl_fd);
			c->ctl_fd = -1;
			return pc_error_set(err, e, "--control: cannot open %s: %s", ack,
					    strerror(e));
		}
	}
	return 0;
}

static enum rec_ctl_cmd command(const char *line)
{
	static const struct { const char *name; enum rec_ctl_cmd cmd; } cmds[] = {
		{ "enable", REC_CTL_ENABLE }, { "disable", REC_CTL_DISABLE },
		{ "snapshot", REC_CTL_SNAPSHOT }, { "stop", REC_CTL_STOP },
		{ "ping", REC_CTL_PING },
	};

	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(line, cmds[i].name))
			return cmds[i].cmd;
	pc_info("--control: unknown command '%s'\n", line);
	return REC_CTL_UNKNOWN;
}

enum rec_ctl_cmd rec_control_next(struct rec_control *c)
{
	for (;;) {
		char *nl = memchr(c->buf, '\n', c->len);
		ssize_t n;

		if (nl) {
			char line[sizeof(c->buf)];
			size_t len = (size_t)(nl - c->buf);

			memcpy(line, c->buf, len);
			line[len] = '\0';
			c->len -= len + 1;
			memmove(c->buf, nl + 1, c->len);
			if (!len)
				continue;	/* an empty line */
			return command(line);
		}
		if (c->len == sizeof(c->buf))
			c->len = 0;		/* a line longer than any command: drop it */
		if (c->ctl_fd < 0)
			return REC_CTL_NONE;
		n = read(c->ctl_fd, c->buf + c->len, sizeof(c->buf) - c->len);
		if (n == 0) {
			/* fd: whose writer closed it: nothing more will come */
			if (c->own_fds)
				close(c->ctl_fd);
			c->ctl_fd = -1;
		}
		if (n <= 0)
			return REC_CTL_NONE;
		c->len += (size_t)n;
	}
}

void rec_control_ack(struct rec_control *c)
{
	static const char ack[] = "ack\n";

	if (c->ack_fd >= 0 && write(c->ack_fd, ack, sizeof(ack) - 1) != sizeof(ack) - 1)
		pc_info("--control: cannot write the ack: %s\n", strerror(errno));
}

void rec_control_close(struct rec_control *c)
{
	if (c->own_fds) {
		if (c->ctl_fd >= 0)
			close(c->ctl_fd);
		if (c->ack_fd >= 0)
			close(c->ack_fd);
	}
	c->ctl_fd = c->ack_fd = -1;
}
