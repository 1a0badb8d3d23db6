// SPDX-License-Identifier: GPL-2.0
/*
 * The inflated image of a debug file (dbgimage.h).  Its layout: every byte
 * of the file but the compressed sections' own, at the same offsets (the
 * ELF header, program headers and the other sections stay where they
 * were), then each inflated section, then a new section header table that
 * points at them.  The compressed bytes are left out: the memfd has holes
 * there, no memory.
 */
#include "symbols/dbgimage.h"

#include <elf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#ifdef PC_HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif

#define IMG_SECTIONS_MAX 65280			/* below SHN_LORESERVE */
#define IMG_INFLATED_MAX (1ULL << 32)		/* per section */
#define IMG_ALIGN_MAX 4096

/* One section to inflate: where its stream is, where its bytes go. */
struct img_sec {
	uint32_t index;
	uint64_t in_off, in_size;	/* the section in the file, header included */
	uint64_t out_off, out_size, align;
};

struct img_plan {
	const uint8_t *raw;
	size_t size;
	const Elf64_Ehdr *eh;
	struct img_sec *secs;
	uint32_t nr;
	uint64_t shoff, total;		/* the new section header table; the image's size */
};

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) & ~(a - 1);
}

static bool in_file(const struct img_plan *p, uint64_t off, uint64_t len)
{
	return off <= p->size && len <= p->size - off;
}

static Elf64_Shdr shdr_at(const struct img_plan *p, uint32_t i)
{
	Elf64_Shdr sh;

	memcpy(&sh, p->raw + p->eh->e_shoff + (uint64_t)i * sizeof(sh), sizeof(sh));
	return sh;
}

/* The ELF header and section header table usable as they are: ELF64 of our byte order. */
static bool header_ok(const struct img_plan *p)
{
	const Elf64_Ehdr *eh = p->eh;
	const unsigned char host = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB
									   : ELFDATA2MSB;

	return p->size >= sizeof(*eh) && !memcmp(eh->e_ident, ELFMAG, SELFMAG) &&
	       eh->e_ident[EI_CLASS] == ELFCLASS64 && eh->e_ident[EI_DATA] == host &&
	       eh->e_shentsize == sizeof(Elf64_Shdr) && eh->e_shnum > 0 &&
	       eh->e_shnum <= IMG_SECTIONS_MAX && eh->e_shstrndx < eh->e_shnum &&
	       in_file(p, eh->e_shoff, (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr)) &&
	       in_file(p, eh->e_phoff, (uint64_t)eh->e_phnum * eh->e_phentsize);
}

/* A section's bytes clear of the ELF header and program headers, which stay in place. */
static bool clear_of_headers(const struct img_plan *p, uint64_t off, uint64_t len)
{
	uint64_t ph = p->eh->e_phoff, phlen = (uint64_t)p->eh->e_phnum * p->eh->e_phentsize;

	return off >= sizeof(Elf64_Ehdr) && (!phlen || off + len <= ph || off >= ph + phlen);
}

/* Section i's name, NULL when out of bounds. */
static const char *sec_name(const struct img_plan *p, const Elf64_Shdr *strs, uint32_t i)
{
	Elf64_Shdr sh = shdr_at(p, i);
	const char *s;

	if (sh.sh_name >= strs->sh_size)
		return NULL;
	s = (const char *)p->raw + strs->sh_offset + sh.sh_name;
	return memchr(s, '\0', strs->sh_size - sh.sh_name) ? s : NULL;
}

/*
 * The sections to inflate, and where they go; 1: none (or something
 * unusual: the file stays as it is), 0: a plan, -1: no memory.
 */
static int plan_image(struct img_plan *p)
{
	const Elf64_Ehdr *eh = p->eh;
	Elf64_Shdr strs;
	uint64_t at;

	if (!header_ok(p))
		return 1;
	strs = shdr_at(p, eh->e_shstrndx);
	if (strs.sh_type == SHT_NOBITS || !in_file(p, strs.sh_offset, strs.sh_size))
		return 1;
	p->secs = calloc(eh->e_shnum, sizeof(*p->secs));
	if (!p->secs)
		return -1;
	at = align_up(p->size, 8);
	for (uint32_t i = 1; i < eh->e_shnum; i++) {
		Elf64_Shdr sh = shdr_at(p, i);
		const char *name = sec_name(p, &strs, i);
		struct img_sec *s = &p->secs[p->nr];
		Elf64_Chdr ch;

		if (!name)
			return 1;
		/* found through the file's own path, which the image does not have */
		if (!strcmp(name, ".gnu_debugaltlink") || !strcmp(name, ".debug_addr"))
			return 1;
		if (!(sh.sh_flags & SHF_COMPRESSED) || sh.sh_type == SHT_NOBITS ||
		    strncmp(name, ".debug_", 7))
			continue;
		if (!in_file(p, sh.sh_offset, sh.sh_size) || sh.sh_size <= sizeof(ch) ||
		    !clear_of_headers(p, sh.sh_offset, sh.sh_size))
			return 1;
		memcpy(&ch, p->raw + sh.sh_offset, sizeof(ch));
		if (ch.ch_type != ELFCOMPRESS_ZLIB || ch.ch_size > IMG_INFLATED_MAX ||
		    ch.ch_addralign > IMG_ALIGN_MAX || (ch.ch_addralign & (ch.ch_addralign - 1)))
			return 1;
		*s = (struct img_sec){ i, sh.sh_offset, sh.sh_size, 0, ch.ch_size,
				       ch.ch_addralign > 8 ? ch.ch_addralign : 8 };
		s->out_off = align_up(at, s->align);
		at = s->out_off + s->out_size;
		p->nr++;
	}
	if (!p->nr)
		return 1;
	p->shoff = align_up(at, 8);
	p->total = p->shoff + (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr);
	return 0;
}

static int by_in_off(const void *a, const void *b)
{
	const struct img_sec *x = a, *y = b;

	return x->in_off < y->in_off ? -1 : x->in_off > y->in_off;
}

/* The file's bytes outside the compressed sections, at their offsets; false if two overlap. */
static bool copy_rest(const struct img_plan *p, uint8_t *img)
{
	struct img_sec *v = malloc(p->nr * sizeof(*v));
	uint64_t from = 0;

	if (!v)
		return false;
	memcpy(v, p->secs, p->nr * sizeof(*v));
	qsort(v, p->nr, sizeof(*v), by_in_off);
	for (uint32_t i = 0; i < p->nr; i++) {
		if (v[i].in_off < from) {
			free(v);
			return false;
		}
		memcpy(img + from, p->raw + from, v[i].in_off - from);
		from = v[i].in_off + v[i].in_size;
	}
	memcpy(img + from, p->raw + from, p->size - from);
	free(v);
	return true;
}

/* One zlib stream, exactly the section's bytes, inflating to exactly out_size. */
static bool inflate_one(void *ctx, uint8_t *out, uint64_t out_size, const uint8_t *in,
			uint64_t in_size)
{
#ifdef PC_HAVE_LIBDEFLATE
	size_t used = 0, got = 0;

	return libdeflate_zlib_decompress_ex(ctx, in, in_size, out, out_size, &used, &got) ==
		       LIBDEFLATE_SUCCESS &&
	       used == in_size && got == out_size;
#else
	z_stream z;
	bool ok;

	memset(&z, 0, sizeof(z));
	if (in_size > UINT32_MAX || out_size > UINT32_MAX || inflateInit(&z) != Z_OK)
		return false;
	z.next_in = (Bytef *)in;
	z.avail_in = (uInt)in_size;
	z.next_out = out;
	z.avail_out = (uInt)out_size;
	ok = inflate(&z, Z_FINISH) == Z_STREAM_END && !z.avail_in && !z.avail_out;
	inflateEnd(&z);
	return ok;
#endif
}

static bool inflate_all(const struct img_plan *p, uint8_t *img)
{
	void *ctx = NULL;
	bool ok = true;

#ifdef PC_HAVE_LIBDEFLATE
	ctx = libdeflate_alloc_decompressor();
	if (!ctx)
		return false;
#endif
	for (uint32_t i = 0; ok && i < p->nr; i++) {
		const struct img_sec *s = &p->secs[i];

		ok = inflate_one(ctx, img + s->out_off, s->out_size,
				 p->raw + s->in_off + sizeof(Elf64_Chdr),
				 s->in_size - sizeof(Elf64_Chdr));
	}
#ifdef PC_HAVE_LIBDEFLATE
	libdeflate_free_decompressor(ctx);
#endif
	return ok;
}

/* The new section header table, and the ELF header pointing at it. */
static void write_headers(const struct img_plan *p, uint8_t *img)
{
	Elf64_Ehdr *eh = (Elf64_Ehdr *)img;

	memcpy(img + p->shoff, p->raw + p->eh->e_shoff,
	       (size_t)p->eh->e_shnum * sizeof(Elf64_Shdr));
	for (uint32_t i = 0; i < p->nr; i++) {
		const struct img_sec *s = &p->secs[i];
		Elf64_Shdr sh;
		uint8_t *at = img + p->shoff + (uint64_t)s->index * sizeof(sh);

		memcpy(&sh, at, sizeof(sh));
		sh.sh_offset = s->out_off;
		sh.sh_size = s->out_size;
		sh.sh_flags &= ~(uint64_t)SHF_COMPRESSED;
		sh.sh_addralign = s->align;
		memcpy(at, &sh, sizeof(sh));
	}
	eh->e_shoff = p->shoff;
}

/* The image in a new memfd, -1 on any failure. */
static int build(const struct img_plan *p)
{
	int mfd = memfd_create("perfcheck-debuginfo", MFD_CLOEXEC);
	uint8_t *img;
	bool ok;

	if (mfd < 0)
		return -1;
	if (ftruncate(mfd, (off_t)p->total)) {
		close(mfd);
		return -1;
	}
	img = mmap(NULL, p->total, PROT_READ | PROT_WRITE, MAP_SHARED, mfd, 0);
	if (img == MAP_FAILED) {
		close(mfd);
		return -1;
	}
	ok = copy_rest(p, img) && inflate_all(p, img);
	if (ok)
		write_headers(p, img);
	munmap(img, p->total);
	if (!ok) {
		close(mfd);
		return -1;
	}
	return mfd;
}

int pc_dbgimage_open(int fd)
{
	struct img_plan p = { 0 };
	struct stat st;
	void *raw;
	int mfd = -1;

	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_size < (off_t)sizeof(Elf64_Ehdr))
		return fd;
	raw = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (raw == MAP_FAILED)
		return fd;
	p.raw = raw;
	p.size = (size_t)st.st_size;
	p.eh = raw;
	if (!plan_image(&p))
		mfd = build(&p);
	free(p.secs);
	munmap(raw, p.size);
	if (mfd < 0)
		return fd;
	close(fd);
	return mfd;
}
