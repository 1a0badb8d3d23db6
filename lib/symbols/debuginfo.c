// SPDX-License-Identifier: GPL-2.0
#include "symbols/debuginfo.h"
#include "symbols/dbgimage.h"

#include <fcntl.h>
#include <gelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int try_open(const char *path, char **name)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd >= 0 && name) {
		free(*name);
		*name = strdup(path);
	}
	return fd;
}

static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			  Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	const char *dir = userdata && *userdata ? *userdata : "/usr/lib/debug";
	const unsigned char *id;
	GElf_Addr id_vaddr;
	char path[4096];
	int n = dwfl_module_build_id(mod, &id, &id_vaddr), fd;

	if (n > 1) {
		int len = snprintf(path, sizeof(path), "%s/.build-id/%02x/", dir, id[0]);

		for (int i = 1; i < n && len > 0 && (size_t)len + 3 < sizeof(path); i++)
			len += snprintf(path + len, sizeof(path) - (size_t)len, "%02x", id[i]);
		if (len > 0 && (size_t)len + 7 < sizeof(path)) {
			memcpy(path + len, ".debug", 7);
			fd = try_open(path, debuginfo_file_name);
			if (fd >= 0)
				return fd;
		}
	}
	if (debuglink_file && file_name && !strchr(debuglink_file, '/')) {
		const char *slash = strrchr(file_name, '/');
		int dlen = slash ? (int)(slash - file_name) : 0;
		const char *const fmt[] = { "%.*s/%s", "%.*s/.debug/%s" };

		for (size_t i = 0; i < 2; i++) {
			snprintf(path, sizeof(path), fmt[i], dlen, file_name, debuglink_file);
			/* not the file itself */
			if (strcmp(path, file_name) && (fd = try_open(path, debuginfo_file_name)) >= 0)
				return fd;
		}
		snprintf(path, sizeof(path), "%s%.*s/%s", dir, dlen, file_name, debuglink_file);
		if ((fd = try_open(path, debuginfo_file_name)) >= 0)
			return fd;
	}
	return -1;
}

/* Whether the ELF file open at fd has a .debug_frame (or .zdebug_frame) section. */
static bool has_debug_frame(int fd)
{
	Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	Elf_Scn *scn = NULL;
	bool found = false;
	size_t shstrndx;

	if (!e)
		return false;
	if (!elf_getshdrstrndx(e, &shstrndx)) {
		while (!found && (scn = elf_nextscn(e, scn))) {
			GElf_Shdr sh;
			const char *name;

			if (!gelf_getshdr(scn, &sh))
				break;
			name = elf_strptr(e, shstrndx, sh.sh_name);
			found = name && (!strcmp(name, ".debug_frame") || !strcmp(name, ".zdebug_frame"));
		}
	}
	elf_end(e);
	return found;
}

/*
 * For unwinding: the separate debug file only when it has .debug_frame.
 * Without one the file adds nothing to the CFI, and libdwfl would open its
 * DWARF whole (decompressing every section) to find that out.
 */
static int find_debuginfo_cfi(Dwfl_Module *mod, void **userdata, const char *modname,
			      Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			      GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	int fd = find_debuginfo(mod, userdata, modname, base, file_name, debuglink_file,
				debuglink_crc, debuginfo_file_name);

	if (fd >= 0 && !has_debug_frame(fd)) {
		close(fd);
		if (debuginfo_file_name) {
			free(*debuginfo_file_name);
			*debuginfo_file_name = NULL;
		}
		return -1;
	}
	return fd >= 0 ? pc_dbgimage_open(fd) : fd;
}

/* For DWARF: the debug file with its compressed sections inflated (dbgimage.h). */
static int find_debuginfo_dwarf(Dwfl_Module *mod, void **userdata, const char *modname,
				Dwarf_Addr base, const char *file_name, const char *debuglink_file,
				GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	int fd = find_debuginfo(mod, userdata, modname, base, file_name, debuglink_file,
				debuglink_crc, debuginfo_file_name);

	return fd >= 0 ? pc_dbgimage_open(fd) : fd;
}

static int find_elf(Dwfl_Module *mod, void **userdata, const char *modname, Dwarf_Addr base,
		    char **file_name, Elf **elfp)
{
	return -1;	/* every module is reported with its file */
}

void pc_debuginfo_callbacks(Dwfl_Callbacks *cbs)
{
	memset(cbs, 0, sizeof(*cbs));
	cbs->find_elf = find_elf;
	cbs->find_debuginfo = find_debuginfo_dwarf;
	cbs->section_address = dwfl_offline_section_address;
}

void pc_debuginfo_callbacks_cfi(Dwfl_Callbacks *cbs)
{
	pc_debuginfo_callbacks(cbs);
	cbs->find_debuginfo = find_debuginfo_cfi;
}

void pc_debuginfo_attach(Dwfl_Module *mod, const char *debug_dir)
{
	void **userdata = NULL;

	if (mod && dwfl_module_info(mod, &userdata, NULL, NULL, NULL, NULL, NULL, NULL) && userdata)
		*userdata = (void *)debug_dir;
}

/*
 * Static builds (the guests): libdwfl's debuginfod client, which dwfl_end
 * always references, would be linked in and dlopen libdebuginfod at run
 * time, and glibc warns at link time.  We never ask debuginfod (the
 * callbacks above), so in a static build against elfutils 0.188 the
 * client's four entry points are these no-ops instead; another elfutils
 * version gets its own client back (and the warning), not a broken link.
 */
#include <elfutils/version.h>

#if defined(PC_STATIC_BUILD) && _ELFUTILS_VERSION == 188
void __libdwfl_debuginfod_end(debuginfod_client *c);
int __libdwfl_debuginfod_find_executable(Dwfl *dwfl, const unsigned char *id, size_t len);
int __libdwfl_debuginfod_find_debuginfo(Dwfl *dwfl, const unsigned char *id, size_t len);

void __libdwfl_debuginfod_end(debuginfod_client *c)
{
}

int __libdwfl_debuginfod_find_executable(Dwfl *dwfl, const unsigned char *id, size_t len)
{
	return -1;
}

int __libdwfl_debuginfod_find_debuginfo(Dwfl *dwfl, const unsigned char *id, size_t len)
{
	return -1;
}

debuginfod_client *dwfl_get_debuginfod_client(Dwfl *dwfl)
{
	return NULL;
}
#endif
