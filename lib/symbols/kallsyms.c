// SPDX-License-Identifier: GPL-2.0
/*
 * /proc/kallsyms: "ADDR TYPE NAME [\t[MODULE]]" per line.  Only text
 * symbols (t, T, w, W) are kept; they have no size, so each runs to the
 * next one.  Zero addresses (kptr_restrict) yield an empty table.
 */
#include "symbols/symbols.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pc_kallsyms_load(struct pc_kallsyms *k, const char *path)
{
	char line[1024];
	FILE *f;
	size_t nonzero = 0;

	if (k->loaded)
		return k->tab.nr ? 0 : -ENOENT;
	k->loaded = true;
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *p = line, *end, *name, *mod = NULL;
		unsigned long long addr;
		char type;
		int bind;

		addr = strtoull(p, &end, 16);
		if (end == p || *end != ' ')
			continue;
		p = end + 1;
		type = *p;
		if (!type || p[1] != ' ')
			continue;
		if (toupper((unsigned char)type) != 'T' && toupper((unsigned char)type) != 'W')
			continue;
		name = p + 2;
		name[strcspn(name, "\n")] = '\0';
		end = strchr(name, '\t');
		if (end) {
			*end = '\0';
			mod = end + 1;
		}
		if (!*name)
			continue;
		if (addr)
			nonzero++;
		bind = type == 'W' || type == 'w' ? PC_BIND_WEAK :
		       isupper((unsigned char)type) ? PC_BIND_GLOBAL : PC_BIND_LOCAL;
		if (pc_symtab_add(&k->tab, addr, 0, name, bind, mod)) {
			fclose(f);
			return -ENOMEM;
		}
	}
	fclose(f);
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
