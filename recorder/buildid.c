// SPDX-License-Identifier: GPL-2.0
/* The GNU build id of an ELF file, read with libelf from its note sections
 * (or note segments when the section headers are stripped). */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <string.h>
#include <unistd.h>

#include "recorder/record.h"

static int find_in_notes(Elf_Data *data, uint8_t *id, size_t *id_size)
{
	GElf_Nhdr nhdr;
	size_t off = 0, name_off, desc_off;

	while (data && (off = gelf_getnote(data, off, &nhdr, &name_off, &desc_off)) > 0) {
		if (nhdr.n_type == NT_GNU_BUILD_ID && nhdr.n_namesz == 4 &&
		    !memcmp((char *)data->d_buf + name_off, "GNU", 4) &&
		    nhdr.n_descsz && nhdr.n_descsz <= PD_BUILD_ID_MAX &&
		    desc_off + nhdr.n_descsz <= data->d_size) {
			memcpy(id, (char *)data->d_buf + desc_off, nhdr.n_descsz);
			*id_size = nhdr.n_descsz;
			return 0;
		}
	}
	return -ENOENT;
}

int rec_read_build_id(const char *path, uint8_t *id, size_t *id_size)
{
	Elf_Scn *scn = NULL;
	size_t nphdr;
	int fd, ret = -ENOENT;
	Elf *elf;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF)
		goto out;
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
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return ret;
}
