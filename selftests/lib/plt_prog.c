// SPDX-License-Identifier: GPL-2.0
#include "plt_prog.h"

#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"

static const char prog_c[] =
	"#include <stdio.h>\n"
	"#include <stdlib.h>\n"
	"static long twice(long x) { return 2 * x; }\n"
	"static void *pick(void) { return (void *)twice; }\n"
	"long scaled(long x) __attribute__((ifunc(\"pick\")));\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"\tlong (*volatile f)(long) = labs;\n"
	"\tprintf(\"%ld %ld %ld\\n\", scaled(argc), labs(argc - 9), f(-3));\n"
	"\tputs(argv[0]);\n"
	"\treturn 0;\n"
	"}\n";

bool plt_prog_build(const char *dir, const char *name, const char *cflags, char *path,
		    size_t n)
{
	char src[600], cmd[2000];
	char *argv[] = { "sh", "-c", cmd, NULL };
	struct pc_run run;
	bool ok;
	FILE *f;

	snprintf(src, sizeof(src), "%s/plt_prog.c", dir);
	snprintf(path, n, "%s/%s", dir, name);
	f = fopen(src, "w");
	if (!f)
		return false;
	if (fputs(prog_c, f) < 0) {
		fclose(f);
		return false;
	}
	if (fclose(f))
		return false;
	snprintf(cmd, sizeof(cmd), "cc -O2 -fno-builtin %s -o '%s' '%s'", cflags, path, src);
	if (pc_test_run(&run, 300, argv))
		return false;
	ok = !run.exit_code;
	pc_run_free(&run);
	return ok;
}

bool plt_prog_section(const char *path, const char *name, uint64_t *addr, uint64_t *size)
{
	int fd = open(path, O_RDONLY);
	Elf *e;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	bool found = false;

	*addr = *size = 0;
	if (fd < 0)
		return false;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (e && !elf_getshdrstrndx(e, &shstrndx))
		while (!found && (scn = elf_nextscn(e, scn))) {
			GElf_Shdr sh;
			const char *s;

			if (!gelf_getshdr(scn, &sh) || !(s = elf_strptr(e, shstrndx, sh.sh_name)) ||
			    strcmp(s, name))
				continue;
			*addr = sh.sh_addr;
			*size = sh.sh_size;
			found = true;
		}
	if (e)
		elf_end(e);
	close(fd);
	return found;
}

int plt_prog_machine(const char *path)
{
	int fd = open(path, O_RDONLY), machine = -1;
	GElf_Ehdr eh;
	Elf *e;

	if (fd < 0)
		return -1;
	elf_version(EV_CURRENT);
	e = elf_begin(fd, ELF_C_READ, NULL);
	if (e && gelf_getehdr(e, &eh))
		machine = eh.e_machine;
	if (e)
		elf_end(e);
	close(fd);
	return machine;
}
