// SPDX-License-Identifier: GPL-2.0
/*
 * record --kcore: the kernel's text copied beside the recording, as perf
 * copies it into the perf.data directory's kcore_dir: /proc/kallsyms and
 * /proc/modules as they are, and "kcore", an ELF file with a PT_LOAD per
 * range of /proc/kcore that holds text perf may have to read later (the
 * kernel may patch its text after the recording: perf reads the copy).
 *
 * The ranges, from the kallsyms functions and the modules: _stext to _etext
 * (else the first to one page past the last kernel function), the lowest
 * module to one page past the last module function, and from the page of
 * each entry trampoline to the end of its segment; each taken from the
 * executable PT_LOAD of /proc/kcore it starts in, clipped to it.  A range
 * that lies in the bytes of the range holding _stext (kcore maps the
 * kernel text at a second address) shares those bytes in the copy.  The
 * file: kcore's ELF identity and machine, the program headers, the data
 * from the first page boundary after them.  kallsyms is compared with
 * /proc/kallsyms after the copy: a module loaded meanwhile fails it.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "recorder/kcore.h"

#define KCORE_MAX_RANGES 64
#define KCORE_MAX_TRAMPOLINES 8

/* What kallsyms and the modules say about where the text is. */
struct kcore_text {
	uint64_t stext, etext;
	uint64_t first_sym, last_sym;			/* kernel functions */
	uint64_t first_module;				/* /proc/modules' lowest */
	uint64_t first_module_sym, last_module_sym;	/* module functions */
	uint64_t tramp[KCORE_MAX_TRAMPOLINES];		/* entry trampolines */
	int nr_tramp;
};

/* One PT_LOAD of the copy. */
struct kcore_range {
	uint64_t addr, len;
	uint64_t kcore_off;	/* where its bytes are in /proc/kcore */
	uint64_t rel;		/* where they are in the copy's data */
	int alias_of;		/* the range whose bytes it shares, -1: its own */
};

struct kcore_copy {
	struct kcore_text text;
	struct kcore_range r[KCORE_MAX_RANGES];
	int nr;
	uint64_t page;
};

static uint64_t round_down(uint64_t v, uint64_t page)
{
	return v & ~(page - 1);
}

static uint64_t round_up(uint64_t v, uint64_t page)
{
	return (v + page - 1) & ~(page - 1);
}

/* A whole /proc file (its size is not known before it is read). */
static char *read_proc(const char *path, size_t *len, struct pc_error *err)
{
	size_t size = 1 << 20, n = 0;
	char *buf = malloc(size + 1);
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || !buf) {
		pc_error_set(err, fd < 0 ? errno : ENOMEM, "%s: %s", path,
			     fd < 0 ? strerror(errno) : "out of memory");
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	for (;;) {
		ssize_t got = read(fd, buf + n, size - n);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			pc_error_set(err, errno, "%s: %s", path, strerror(errno));
			break;
		}
		if (!got) {
			close(fd);
			buf[n] = '\0';
			*len = n;
			return buf;
		}
		n += (size_t)got;
		if (n == size) {
			char *bigger = realloc(buf, size * 2 + 1);

			if (!bigger) {
				pc_error_set(err, ENOMEM, "out of memory");
				break;
			}
			buf = bigger;
			size *= 2;
		}
	}
	close(fd);
	free(buf);
	return NULL;
}

static int read_exact(int fd, void *buf, size_t len, uint64_t off)
{
	while (len) {
		ssize_t got = pread(fd, buf, len, (off_t)off);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return got < 0 ? -errno : -EIO;
		buf = (char *)buf + got;
		len -= (size_t)got;
		off += (uint64_t)got;
	}
	return 0;
}

static int write_exact(int fd, const void *buf, size_t len, uint64_t off)
{
	while (len) {
		ssize_t put = pwrite(fd, buf, len, (off_t)off);

		if (put < 0 && errno == EINTR)
			continue;
		if (put <= 0)
			return put < 0 ? -errno : -ENOSPC;
		buf = (const char *)buf + put;
		len -= (size_t)put;
		off += (uint64_t)put;
	}
	return 0;
}

static int write_file(const char *dir, const char *name, const char *data, size_t len,
		      struct pc_error *err)
{
	char path[4096];
	int fd, ret;

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return pc_error_set(err, ENAMETOOLONG, "%s: name too long", dir);
	/* perf's mode for the copies: read-only, its owner's */
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0400);
	if (fd < 0)
		return pc_error_set(err, errno, "%s: %s", path, strerror(errno));
	ret = write_exact(fd, data, len, 0);
	if (close(fd) && !ret)
		ret = -errno;
	return ret ? pc_error_set(err, -ret, "%s: %s", path, strerror(-ret)) : 0;
}

static int is_function(char type)
{
	return type == 'T' || type == 't' || type == 'W' || type == 'w';
}

static void min_nonzero(uint64_t *v, uint64_t x)
{
	if (!*v || x < *v)
		*v = x;
}

/* One kallsyms line: "ADDR TYPE NAME[\t[MODULE]]". */
static void kallsyms_line(struct kcore_text *t, const char *line, const char *end)
{
	char *p;
	uint64_t addr = strtoull(line, &p, 16);
	char type;
	const char *name;
	size_t name_len;

	if (p == line || p + 3 > end || *p != ' ')
		return;
	type = p[1];
	name = p + 3;
	name_len = (size_t)(end - name);
	if (!is_function(type))
		return;
	if (memchr(name, '[', name_len)) {
		min_nonzero(&t->first_module_sym, addr);
		if (addr > t->last_module_sym)
			t->last_module_sym = addr;
		return;
	}
	min_nonzero(&t->first_sym, addr);
	if (addr > t->last_sym)
		t->last_sym = addr;
#define IS(s) (name_len == sizeof(s) - 1 && !memcmp(name, s, sizeof(s) - 1))
	if (IS("_stext"))
		t->stext = addr;
	else if (IS("_etext"))
		t->etext = addr;
	else if (IS("__entry_SYSCALL_64_trampoline") && t->nr_tramp < KCORE_MAX_TRAMPOLINES)
		t->tramp[t->nr_tramp++] = addr;
#undef IS
}

static void parse_kallsyms(struct kcore_text *t, const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;

		kallsyms_line(t, p, eol);
		p = eol + 1;
	}
}

/* /proc/modules: "NAME SIZE REFS DEPS STATE 0xADDR ..." per module */
static void parse_modules(struct kcore_text *t, const char *buf)
{
	const char *p = buf;

	while (*p) {
		unsigned long long addr;

		if (sscanf(p, "%*s %*u %*d %*s %*s %llx", &addr) == 1 && addr)
			min_nonzero(&t->first_module, addr);
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
}

/* perf's rounding: whole pages, one past the last function where no end symbol says */
static int text_bounds(struct kcore_text *t, uint64_t page, struct pc_error *err)
{
	t->stext = round_down(t->stext ? t->stext : t->first_sym, page);
	if (t->etext)
		t->etext = round_up(t->etext, page);
	else if (t->last_sym)
		t->etext = round_up(t->last_sym, page) + page;
	if (t->first_module_sym && (!t->first_module || t->first_module_sym < t->first_module))
		t->first_module = t->first_module_sym;
	t->first_module = round_down(t->first_module, page);
	if (t->last_module_sym)
		t->last_module_sym = round_up(t->last_module_sym, page) + page;
	if (!t->stext || !t->etext)
		return pc_error_set(err, ENOENT, "kallsyms: no kernel text (its addresses are "
				    "hidden: kernel.kptr_restrict?)");
	if (t->first_module && !t->last_module_sym)
		return pc_error_set(err, ENOENT, "kallsyms: modules, but no module function");
	return 0;
}

/* The part of [s, e) that starts in the segment [start, start + len) at pgoff. */
static int add_range(struct kcore_copy *kc, uint64_t start, uint64_t len, uint64_t pgoff,
		     uint64_t s, uint64_t e, struct pc_error *err)
{
	uint64_t end = start + len;

	if (s < start || s >= end)
		return 0;
	if (kc->nr == KCORE_MAX_RANGES)
		return pc_error_set(err, E2BIG, "kcore: more than %d text ranges",
				    KCORE_MAX_RANGES);
	kc->r[kc->nr++] = (struct kcore_range){
		.addr = s, .len = (e < end ? e : end) - s, .kcore_off = s - start + pgoff,
		.alias_of = -1,
	};
	return 0;
}

/* Every executable PT_LOAD of kcore: the ranges starting in it. */
static int ranges_of_segment(struct kcore_copy *kc, uint64_t start, uint64_t len,
			     uint64_t pgoff, struct pc_error *err)
{
	const struct kcore_text *t = &kc->text;
	int ret = add_range(kc, start, len, pgoff, t->stext, t->etext, err);

	if (!ret)
		ret = add_range(kc, start, len, pgoff, t->first_module, t->last_module_sym, err);
	for (int i = 0; !ret && i < t->nr_tramp; i++) {
		uint64_t s = round_down(t->tramp[i], kc->page);

		ret = add_range(kc, start, len, pgoff, s, s + len, err);
	}
	return ret;
}

static int read_ranges(struct kcore_copy *kc, int fd, Elf64_Ehdr *eh, struct pc_error *err)
{
	int ret;

	ret = read_exact(fd, eh, sizeof(*eh), 0);
	if (ret)
		return pc_error_set(err, -ret, "/proc/kcore: its ELF header: %s", strerror(-ret));
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64)
		return pc_error_set(err, EINVAL, "/proc/kcore: not a 64-bit ELF file");
	if (eh->e_phentsize != sizeof(Elf64_Phdr) || !eh->e_phnum)
		return pc_error_set(err, EINVAL, "/proc/kcore: program headers of %u bytes",
				    eh->e_phentsize);
	for (unsigned int i = 0; i < eh->e_phnum; i++) {
		Elf64_Phdr ph;
		uint64_t size;

		ret = read_exact(fd, &ph, sizeof(ph), eh->e_phoff + (uint64_t)i * sizeof(ph));
		if (ret)
			return pc_error_set(err, -ret, "/proc/kcore: program header %u: %s", i,
					    strerror(-ret));
		size = ph.p_memsz < ph.p_filesz ? ph.p_memsz : ph.p_filesz;
		if (ph.p_type != PT_LOAD || !(ph.p_flags & PF_X) || !size)
			continue;
		ret = ranges_of_segment(kc, ph.p_vaddr, size, ph.p_offset, err);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Where each range's bytes go: the range holding _stext first decides
 * which others are its aliases (their kcore bytes inside its own); the
 * others follow one after another.
 */
static void layout(struct kcore_copy *kc)
{
	int k = -1;
	uint64_t rel = 0;

	for (int i = 0; i < kc->nr && k < 0; i++)
		if (kc->r[i].addr <= kc->text.stext && kc->text.stext < kc->r[i].addr + kc->r[i].len)
			k = i;
	for (int i = 0; k >= 0 && i < kc->nr; i++)
		if (i != k && kc->r[i].kcore_off >= kc->r[k].kcore_off &&
		    kc->r[i].kcore_off + kc->r[i].len <= kc->r[k].kcore_off + kc->r[k].len)
			kc->r[i].alias_of = k;
	for (int i = 0; i < kc->nr; i++) {
		if (kc->r[i].alias_of >= 0)
			continue;
		kc->r[i].rel = rel;
		rel += kc->r[i].len;
	}
	for (int i = 0; i < kc->nr; i++) {
		const struct kcore_range *k_range = &kc->r[kc->r[i].alias_of];

		if (kc->r[i].alias_of >= 0)
			kc->r[i].rel = kc->r[i].kcore_off - k_range->kcore_off + k_range->rel;
	}
}

/* The copy's headers: kcore's identity, a PT_LOAD per range, data from data_off. */
static int write_headers(const struct kcore_copy *kc, int out, const Elf64_Ehdr *from,
			 uint64_t data_off)
{
	Elf64_Ehdr eh = {
		.e_type = from->e_type, .e_machine = from->e_machine, .e_version = from->e_version,
		.e_flags = from->e_flags, .e_phoff = sizeof(Elf64_Ehdr),
		.e_ehsize = sizeof(Elf64_Ehdr), .e_phentsize = sizeof(Elf64_Phdr),
		.e_phnum = (Elf64_Half)kc->nr,
	};
	int ret;

	memcpy(eh.e_ident, from->e_ident, EI_NIDENT);
	ret = write_exact(out, &eh, sizeof(eh), 0);
	for (int i = 0; !ret && i < kc->nr; i++) {
		Elf64_Phdr ph = {
			.p_type = PT_LOAD, .p_flags = PF_R | PF_W | PF_X,
			.p_offset = data_off + kc->r[i].rel, .p_vaddr = kc->r[i].addr,
			.p_filesz = kc->r[i].len, .p_memsz = kc->r[i].len, .p_align = kc->page,
		};

		ret = write_exact(out, &ph, sizeof(ph), sizeof(eh) + (uint64_t)i * sizeof(ph));
	}
	return ret;
}

static int copy_bytes(int in, uint64_t from, int out, uint64_t to, uint64_t len, char *buf,
		      size_t buf_size)
{
	while (len) {
		size_t n = len < buf_size ? (size_t)len : buf_size;
		int ret = read_exact(in, buf, n, from);

		if (!ret)
			ret = write_exact(out, buf, n, to);
		if (ret)
			return ret;
		from += n;
		to += n;
		len -= n;
	}
	return 0;
}

static int write_copy(const struct kcore_copy *kc, int in, const Elf64_Ehdr *from,
		      const char *path, struct pc_error *err)
{
	uint64_t data_off = round_up(sizeof(Elf64_Ehdr) + (uint64_t)kc->nr * sizeof(Elf64_Phdr),
				     kc->page);
	size_t buf_size = 1 << 20;
	char *buf = malloc(buf_size);
	int out = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0400), ret;

	if (out < 0 || !buf) {
		ret = pc_error_set(err, out < 0 ? errno : ENOMEM, "%s: %s", path,
				   out < 0 ? strerror(errno) : "out of memory");
		free(buf);
		if (out >= 0)
			close(out);
		return ret;
	}
	ret = write_headers(kc, out, from, data_off);
	for (int i = 0; !ret && i < kc->nr; i++)
		if (kc->r[i].alias_of < 0)
			ret = copy_bytes(in, kc->r[i].kcore_off, out, data_off + kc->r[i].rel,
					 kc->r[i].len, buf, buf_size);
	free(buf);
	if (close(out) && !ret)
		ret = -errno;
	if (ret)
		return pc_error_set(err, -ret, "%s: %s", path, strerror(-ret));
	return 0;
}

bool rec_kcore_readable(void)
{
	int fd = open("/proc/kcore", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* kallsyms, modules and kcore into dir, which exists and is empty */
static int copy_into(const char *dir, struct kcore_copy *kc, struct pc_error *err)
{
	char path[4096], *kallsyms, *modules = NULL, *again = NULL;
	size_t kallsyms_len, modules_len, again_len;
	Elf64_Ehdr eh;
	int fd = -1, ret;

	kallsyms = read_proc("/proc/kallsyms", &kallsyms_len, err);
	ret = kallsyms ? write_file(dir, "kallsyms", kallsyms, kallsyms_len, err) : -EIO;
	if (!ret) {
		modules = read_proc("/proc/modules", &modules_len, err);
		ret = modules ? write_file(dir, "modules", modules, modules_len, err) : -EIO;
	}
	if (!ret) {
		parse_kallsyms(&kc->text, kallsyms, kallsyms_len);
		parse_modules(&kc->text, modules);
		ret = text_bounds(&kc->text, kc->page, err);
	}
	if (!ret) {
		fd = open("/proc/kcore", O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			ret = pc_error_set(err, errno, "/proc/kcore: %s", strerror(errno));
	}
	if (!ret)
		ret = read_ranges(kc, fd, &eh, err);
	if (!ret) {
		layout(kc);
		if (snprintf(path, sizeof(path), "%s/kcore", dir) >= (int)sizeof(path))
			ret = pc_error_set(err, ENAMETOOLONG, "%s: name too long", dir);
		else
			ret = write_copy(kc, fd, &eh, path, err);
	}
	/* the copy holds what kallsyms said: a module loaded meanwhile fails it, as perf */
	if (!ret) {
		again = read_proc("/proc/kallsyms", &again_len, err);
		if (!again)
			ret = -EIO;
		else if (again_len != kallsyms_len || memcmp(again, kallsyms, kallsyms_len))
			ret = pc_error_set(err, EAGAIN, "/proc/kallsyms changed while kcore was copied");
	}
	if (fd >= 0)
		close(fd);
	free(kallsyms);
	free(modules);
	free(again);
	return ret;
}

/* the files of a kcore_dir made here, and the directory */
static void remove_copy(const char *dir)
{
	static const char *const names[] = { "kallsyms", "modules", "kcore" };
	char path[4096];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (snprintf(path, sizeof(path), "%s/%s", dir, names[i]) < (int)sizeof(path))
			unlink(path);
	rmdir(dir);
}

int rec_kcore_copy(const char *data_dir, struct pc_error *err)
{
	struct kcore_copy *kc = calloc(1, sizeof(*kc));
	char dir[4096];
	int ret;

	if (!kc)
		return pc_error_set(err, ENOMEM, "out of memory");
	kc->page = (uint64_t)sysconf(_SC_PAGESIZE);
	if (snprintf(dir, sizeof(dir), "%s/kcore_dir", data_dir) >= (int)sizeof(dir)) {
		free(kc);
		return pc_error_set(err, ENAMETOOLONG, "%s: name too long", data_dir);
	}
	if (mkdir(dir, 0700)) {
		ret = pc_error_set(err, errno, "%s: %s", dir, strerror(errno));
		free(kc);
		return ret;
	}
	ret = copy_into(dir, kc, err);
	if (ret)
		remove_copy(dir);
	free(kc);
	return ret;
}
