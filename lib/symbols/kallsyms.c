// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/kallsyms: "ADDR TYPE NAME [\t[MODULE]]" per line.  Only text
 * symbols (t, T, w, W) are kept; they have no size, so each runs to the
 * next one.  Zero addresses (kptr_restrict) yield an empty table.
 */
#include "symbols/symbols.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int hex_digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* One line, its newline cut: kept when it is a text symbol; -ENOMEM. */
static int add_line(struct pc_kallsyms *k, char *line, size_t *nonzero)
{
	char *p = line, *end, *name, *mod = NULL;
	unsigned long long addr = 0;
	int digits = 0, d, bind;
	char type;

	/* the address: hex digits (strtoull's work, without its locale) */
	while ((d = hex_digit(*p)) >= 0 && digits < 16) {
		addr = addr << 4 | (unsigned)d;
		p++;
		digits++;
	}
	if (!digits || *p != ' ')
		return 0;
	p++;
	type = *p;
	if (!type || p[1] != ' ')
		return 0;
	if (toupper((unsigned char)type) != 'T' && toupper((unsigned char)type) != 'W')
		return 0;
	name = p + 2;
	end = strchr(name, '\t');
	if (end) {
		*end = '\0';
		mod = end + 1;
	}
	if (!*name)
		return 0;
	if (addr)
		(*nonzero)++;
	bind = type == 'W' || type == 'w' ? PC_BIND_WEAK :
	       isupper((unsigned char)type) ? PC_BIND_GLOBAL : PC_BIND_LOCAL;
	return pc_symtab_add(&k->tab, addr, 0, name, bind, mod) ? -ENOMEM : 0;
}

/* Read in large chunks: the file is 100k lines and more, made as it is read. */
#define KALLSYMS_CHUNK (256 * 1024)
#define KALLSYMS_LINE_MAX 1024	/* longer lines are not symbols (names end at 512) */

int pc_kallsyms_load(struct pc_kallsyms *k, const char *path)
{
	size_t nonzero = 0, len = 0;
	char *buf;
	int fd, ret = 0;

	if (k->loaded)
		return k->tab.nr ? 0 : -ENOENT;
	k->loaded = true;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	buf = malloc(KALLSYMS_CHUNK + 1);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	for (;;) {
		ssize_t n = read(fd, buf + len, KALLSYMS_CHUNK - len);
		char *line = buf, *nl;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			break;
		}
		len += (size_t)n;
		buf[len] = '\0';
		while (!ret && (nl = memchr(line, '\n', len - (size_t)(line - buf)))) {
			*nl = '\0';
			ret = add_line(k, line, &nonzero);
			line = nl + 1;
		}
		if (ret)
			break;
		len -= (size_t)(line - buf);
		if (!n) {
			/* a last line without a newline */
			if (len)
				ret = add_line(k, buf, &nonzero);
			break;
		}
		if (len >= KALLSYMS_LINE_MAX)
			len = 0;	/* no newline in sight: drop it */
		memmove(buf, line, len);
	}
	free(buf);
	close(fd);
	if (ret) {
		pc_symtab_free(&k->tab);
		return ret;
	}
	if (!nonzero) {
		pc_symtab_free(&k->tab);
		return -EPERM;
	}
	pc_symtab_finish(&k->tab);
	return 0;
}

void pc_kallsyms_free(struct pc_kallsyms *k)
{
	pc_symtab_free(&k->tab);
	k->loaded = false;
}
