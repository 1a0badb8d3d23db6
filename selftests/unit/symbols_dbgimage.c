// SPDX-License-Identifier: GPL-2.0
/*
 * lib/symbols/dbgimage.c, without a kernel: a copy of this test binary
 * (built with -g) whose DWARF sections libelf compressed with zlib, as
 * Debian's debug packages ship them, is handed back as an image where
 * every section holds the bytes libelf inflates from it and none is marked
 * compressed; a file with nothing compressed, and one whose stream is
 * damaged, are handed back as they are (libdw then reads them as before).
 */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "symbols/dbgimage.h"

/* This binary copied to a temporary file; its DWARF compressed when zlib is set. */
static int copy_self(char *path, size_t size, bool zlib)
{
	int in = open("/proc/self/exe", O_RDONLY | O_CLOEXEC), out, ret = -1;
	char buf[65536];
	ssize_t n;
	Elf *e;

	snprintf(path, size, "/tmp/pc-dbgimage-XXXXXX");
	out = mkstemp(path);
	if (in < 0 || out < 0)
		goto done;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			goto done;
	if (n < 0)
		goto done;
	ret = 0;
	if (!zlib)
		goto done;
	e = elf_begin(out, ELF_C_RDWR, NULL);
	if (!e)
		return -1;
	{
		size_t shstrndx;
		Elf_Scn *scn = NULL;
		int compressed = 0;

		if (elf_getshdrstrndx(e, &shstrndx))
			ret = -1;
		while (!ret && (scn = elf_nextscn(e, scn))) {
			GElf_Shdr sh;
			const char *name;

			if (!gelf_getshdr(scn, &sh))
				ret = -1;
			name = ret ? NULL : elf_strptr(e, shstrndx, sh.sh_name);
			if (name && !strncmp(name, ".debug_", 7) && sh.sh_type != SHT_NOBITS) {
				if (elf_compress(scn, ELFCOMPRESS_ZLIB, 0) < 0)
					ret = -1;
				compressed++;
			}
		}
		if (!ret && (!compressed || elf_update(e, ELF_C_WRITE) < 0))
			ret = -1;
	}
	elf_end(e);
done:
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return ret;
}

/* Section name's bytes, inflated by libelf when compressed; NULL when absent. */
static void *section(Elf *e, const char *want, size_t *size, bool *compressed)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(e, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			return NULL;
		name = elf_strptr(e, shstrndx, sh.sh_name);
		if (!name || strcmp(name, want))
			continue;
		*compressed = sh.sh_flags & SHF_COMPRESSED;
		if (*compressed && elf_compress(scn, 0, 0) < 0)
			return NULL;
		d = elf_getdata(scn, NULL);
		if (!d)
			return NULL;
		*size = d->d_size;
		return d->d_buf;
	}
	return NULL;
}

static const char *const sections[] = { ".debug_info", ".debug_abbrev", ".debug_line",
					".debug_str", ".symtab", ".text" };

TEST(compressed_dwarf_comes_back_inflated_as_libelf_inflates_it)
{
	char path[64];
	int fd, img;
	Elf *orig, *mine;

	elf_version(EV_CURRENT);
	ASSERT_EQ(0, copy_self(path, sizeof(path), true));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	img = pc_dbgimage_open(open(path, O_RDONLY | O_CLOEXEC));
	ASSERT_LE(0, img);
	orig = elf_begin(fd, ELF_C_READ, NULL);
	mine = elf_begin(img, ELF_C_READ, NULL);
	ASSERT_NE(NULL, orig);
	ASSERT_NE(NULL, mine);
	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++) {
		size_t a_size = 0, b_size = 0;
		bool a_z = false, b_z = true;
		void *a = section(orig, sections[i], &a_size, &a_z);
		void *b = section(mine, sections[i], &b_size, &b_z);

		ASSERT_NE(NULL, a) TH_LOG("%s missing from the compressed copy", sections[i]);
		ASSERT_NE(NULL, b) TH_LOG("%s missing from the image", sections[i]);
		/* the DWARF was compressed in the copy, and is not in the image */
		EXPECT_EQ(!strncmp(sections[i], ".debug_", 7), a_z) TH_LOG("%s", sections[i]);
		EXPECT_FALSE(b_z) TH_LOG("%s still compressed", sections[i]);
		ASSERT_EQ(a_size, b_size) TH_LOG("%s", sections[i]);
		EXPECT_EQ(0, memcmp(a, b, a_size)) TH_LOG("%s differs", sections[i]);
	}
	elf_end(orig);
	elf_end(mine);
	close(fd);
	close(img);
	unlink(path);
}

TEST(a_file_with_nothing_compressed_is_kept)
{
	char path[64];
	int fd;

	elf_version(EV_CURRENT);
	ASSERT_EQ(0, copy_self(path, sizeof(path), false));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	ASSERT_LE(0, fd);
	EXPECT_EQ(fd, pc_dbgimage_open(fd));
	close(fd);
	unlink(path);
}

/* The first compressed section's stream damaged in its middle: the file is libdw's again. */
TEST(a_damaged_stream_leaves_the_file_as_it_is)
{
	char path[64];
	int fd;
	Elf *e;
	size_t shstrndx;
	Elf_Scn *scn = NULL;
	off_t at = 0;

	elf_version(EV_CURRENT);
	ASSERT_EQ(0, copy_self(path, sizeof(path), true));
	fd = open(path, O_RDWR | O_CLOEXEC);
	ASSERT_LE(0, fd);
	e = elf_begin(fd, ELF_C_READ, NULL);
	ASSERT_NE(NULL, e);
	ASSERT_EQ(0, elf_getshdrstrndx(e, &shstrndx));
	while (!at && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;

		ASSERT_NE(NULL, gelf_getshdr(scn, &sh));
		if ((sh.sh_flags & SHF_COMPRESSED) && sh.sh_size > 64)
			at = (off_t)(sh.sh_offset + sh.sh_size / 2);
	}
	elf_end(e);
	ASSERT_NE(0, at);
	{
		unsigned char c[16];

		ASSERT_EQ((ssize_t)sizeof(c), pread(fd, c, sizeof(c), at));
		for (size_t i = 0; i < sizeof(c); i++)
			c[i] ^= 0xa5;
		ASSERT_EQ((ssize_t)sizeof(c), pwrite(fd, c, sizeof(c), at));
	}
	EXPECT_EQ(fd, pc_dbgimage_open(fd));
	close(fd);
	unlink(path);
}

TEST(a_file_too_short_for_elf_is_kept)
{
	char path[] = "/tmp/pc-dbgimage-XXXXXX";
	int fd = mkstemp(path);

	ASSERT_LE(0, fd);
	ASSERT_EQ(4, write(fd, "\177ELF", 4));
	EXPECT_EQ(fd, pc_dbgimage_open(fd));
	close(fd);
	unlink(path);
}

TEST_HARNESS_MAIN
