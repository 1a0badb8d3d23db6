// SPDX-License-Identifier: GPL-2.0
/* The GNU build id of an ELF object (libelf) or of the running kernel. */
#include "symbols/buildid.h"

#include <errno.h>
#include <fcntl.h>
#include <libelf.h>
#include <stdio.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

static int find_in_notes(Elf_Data *data, uint8_t *id, size_t *id_size)
{
	GElf_Nhdr nhdr;
	size_t off = 0, name_off, desc_off;

	while (data && (off = gelf_getnote(data, off, &nhdr, &name_off, &desc_off)) > 0) {
		if (nhdr.n_type == NT_GNU_BUILD_ID && nhdr.n_namesz == 4 &&
		    !memcmp((char *)data->d_buf + name_off, "GNU", 4) &&
		    nhdr.n_descsz && nhdr.n_descsz <= PC_BUILD_ID_MAX &&
		    desc_off + nhdr.n_descsz <= data->d_size) {
			memcpy(id, (char *)data->d_buf + desc_off, nhdr.n_descsz);
			*id_size = nhdr.n_descsz;
			return 0;
		}
	}
	return -ENOENT;
}

int pc_build_id_elf(Elf *elf, uint8_t *id, size_t *id_size)
{
	Elf_Scn *scn = NULL;
	size_t nphdr;
	int ret = -ENOENT;

	while (ret && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr shdr;

		if (gelf_getshdr(scn, &shdr) && shdr.sh_type == SHT_NOTE)
			ret = find_in_notes(elf_getdata(scn, NULL), id, id_size);
	}
	if (ret && !elf_getphdrnum(elf, &nphdr)) {
		for (size_t i = 0; ret && i < nphdr; i++) {
			GElf_Phdr phdr;

			if (!gelf_getphdr(elf, (int)i, &phdr) || phdr.p_type != PT_NOTE)
				continue;
			ret = find_in_notes(elf_getdata_rawchunk(elf, phdr.p_offset,
								 phdr.p_filesz, ELF_T_NHDR),
					    id, id_size);
		}
	}
	return ret;
}

int pc_build_id_path(const char *path, uint8_t *id, size_t *id_size)
{
	int fd, ret = -ENOENT;
	Elf *elf;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF)
		ret = pc_build_id_elf(elf, id, id_size);
	if (elf)
		elf_end(elf);
	close(fd);
	return ret;
}

int pc_build_id_notes(const uint8_t *buf, size_t n, uint8_t *id, size_t *id_size)
{
	size_t pos = 0;

	while (pos + 12 <= n) {
		uint32_t namesz, descsz, type;
		size_t name_end, desc_end;

		memcpy(&namesz, buf + pos, 4);
		memcpy(&descsz, buf + pos + 4, 4);
		memcpy(&type, buf + pos + 8, 4);
		pos += 12;
		if (namesz > n || descsz > n)
			return -EINVAL;
		name_end = pos + ((namesz + 3) & ~3U);
		desc_end = name_end + ((descsz + 3) & ~3U);
		if (desc_end > n)
			return -EINVAL;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(buf + pos, "GNU", 4) &&
		    descsz && descsz <= PC_BUILD_ID_MAX) {
			memcpy(id, buf + name_end, descsz);
			*id_size = descsz;
			return 0;
		}
		pos = desc_end;
	}
	return -ENOENT;
}

int pc_build_id_kernel(uint8_t *id, size_t *id_size)
{
	uint8_t buf[4096];
	FILE *f = fopen("/sys/kernel/notes", "rb");
	size_t n;

	if (!f)
		return -errno;
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return pc_build_id_notes(buf, n, id, id_size);
}

const uint8_t *pc_own_vdso(size_t *size)
{
	const uint8_t *base = (const uint8_t *)getauxval(AT_SYSINFO_EHDR);
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)base;

	if (!base || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64)
		return NULL;
	/* the image ends with its section headers; a vdso is a few pages */
	*size = eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;
	return *size <= (1u << 20) ? base : NULL;
}

int pc_build_id_vdso(uint8_t *id, size_t *id_size)
{
	size_t size;
	const uint8_t *base = pc_own_vdso(&size);
	Elf *e;
	int ret;

	if (!base)
		return -ENOENT;
	if (elf_version(EV_CURRENT) == EV_NONE)
		return -ENOSYS;
	e = elf_memory((char *)base, size);
	if (!e)
		return -EINVAL;
	ret = pc_build_id_elf(e, id, id_size);
	elf_end(e);
	return ret;
}

void pc_build_id_hex(const uint8_t *id, size_t id_size, char *hex)
{
	for (size_t i = 0; i < id_size; i++)
		snprintf(hex + 2 * i, 3, "%02x", id[i]);
	hex[2 * id_size] = '\0';
}
