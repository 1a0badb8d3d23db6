// SPDX-License-Identifier: GPL-2.0
/*
 * Behaviour of the mapping rows: mmap2 (MMAP2 records against stat() and
 * the mapping made) and build_id (the build id in MMAP2 against the one
 * libelf reads from the file).  Both map this program's own executable.
 */
#include "probes/behaviour_int.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define RING_PAGES 16

/* ---- MMAP2 ---- */

struct mmap2_body {
	uint32_t pid, tid;
	uint64_t addr, len, pgoff;
	union {
		struct {
			uint32_t maj, min;
			uint64_t ino, ino_generation;
		};
		struct {
			uint8_t build_id_size, res1;
			uint16_t res2;
			uint8_t build_id[20];
		};
	};
	uint32_t prot, flags;
	char filename[];
};

struct mapping {
	void *addr;
	size_t len;
	uint64_t pgoff;
	int prot, flags;
};

/* The MMAP2 record of this process for m, or NULL. */
static const struct mmap2_body *find_mmap2(struct bh_ring *ring, const struct mapping *m,
					   uint16_t *misc, char *copy, size_t copy_size)
{
	const struct perf_event_header *h;

	while ((h = bh_ring_next(ring))) {
		const struct mmap2_body *b = (const void *)(h + 1);

		if (h->type != PERF_RECORD_MMAP2 || h->size < sizeof(*h) + sizeof(*b) + 8)
			continue;
		if (b->pid != (uint32_t)getpid() || b->addr != (uintptr_t)m->addr)
			continue;
		if (h->size > copy_size)
			return NULL;
		memcpy(copy, h, h->size);
		*misc = h->misc;
		return (const struct mmap2_body *)((struct perf_event_header *)copy + 1);
	}
	return NULL;
}

static int map_exe(const char *path, struct mapping *m, size_t n, int *fd_out)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	for (size_t i = 0; i < n; i++) {
		m[i].len = page;
		m[i].addr = mmap(NULL, page, m[i].prot, m[i].flags, fd, (off_t)m[i].pgoff);
		if (m[i].addr == MAP_FAILED) {
			int e = errno;

			while (i--)
				munmap(m[i].addr, m[i].len);
			close(fd);
			return -e;
		}
	}
	*fd_out = fd;
	return 0;
}

static void unmap_all(struct mapping *m, size_t n)
{
	for (size_t i = 0; i < n; i++)
		munmap(m[i].addr, m[i].len);
}

/*
 * mmap2: two mappings of this executable (text-like: read+exec, private,
 * offset 0; data-like: read-only, shared, offset one page).  Each MMAP2
 * record must carry the device and inode stat() gives, the offset, the
 * protection and the sharing the mapping was made with, and the path.
 */
void bh_check_mmap2(struct pc_behaviour_result *r)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct mapping m[2] = {
		{ .prot = PROT_READ | PROT_EXEC, .flags = MAP_PRIVATE, .pgoff = 0 },
		{ .prot = PROT_READ, .flags = MAP_SHARED, .pgoff = page },
	};
	char path[PATH_MAX], rec[PATH_MAX + 256];
	struct bh_ring ring;
	struct stat st;
	union pc_attr a;
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	int fd, exe_fd, ret;

	if (n <= 0) {
		bh_not_tested(r, "readlink /proc/self/exe: %s", strerror(errno));
		return;
	}
	path[n] = '\0';
	bh_attr_sideband(&a);
	a.attr.mmap = 1;
	a.attr.mmap_data = 1;
	a.attr.mmap2 = 1;
	fd = bh_open(r, &a, "dummy with mmap2", 0, 0);
	if (fd < 0)
		return;
	if (bh_ring_map(&ring, fd, RING_PAGES, true) < 0) {
		bh_broken(r, "cannot map the ring: %s", strerror(errno));
		close(fd);
		return;
	}
	ret = map_exe(path, m, 2, &exe_fd);
	if (ret < 0) {
		bh_not_tested(r, "cannot map %s: %s", path, strerror(-ret));
		goto out;
	}
	if (fstat(exe_fd, &st) < 0) {
		bh_not_tested(r, "fstat %s: %s", path, strerror(errno));
		goto out_map;
	}
	for (int i = 0; i < 2; i++) {
		uint16_t misc = 0;
		const struct mmap2_body *b = find_mmap2(&ring, &m[i], &misc, rec, sizeof(rec));

		if (!b) {
			bh_broken(r, "no MMAP2 record for the mapping of %s at %p", path, m[i].addr);
			goto out_map;
		}
		if (misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			bh_broken(r, "an MMAP2 record without build_id asked has the build-id flag");
			goto out_map;
		}
		if (b->maj != major(st.st_dev) || b->min != minor(st.st_dev) || b->ino != st.st_ino) {
			bh_broken(r, "MMAP2 dev %u:%u ino %llu, stat() says %u:%u ino %llu", b->maj,
				  b->min, (unsigned long long)b->ino, major(st.st_dev), minor(st.st_dev),
				  (unsigned long long)st.st_ino);
			goto out_map;
		}
		if (b->len != m[i].len || b->pgoff != m[i].pgoff ||
		    b->prot != (uint32_t)m[i].prot ||
		    (b->flags & (MAP_SHARED | MAP_PRIVATE)) != (uint32_t)m[i].flags) {
			bh_broken(r, "MMAP2 len %llu pgoff %llu prot %#x flags %#x; mapped len %zu pgoff "
				  "%llu prot %#x flags %#x", (unsigned long long)b->len,
				  (unsigned long long)b->pgoff, b->prot, b->flags, m[i].len,
				  (unsigned long long)m[i].pgoff, m[i].prot, m[i].flags);
			goto out_map;
		}
		if (strncmp(b->filename, path, sizeof(rec) - sizeof(*b) - 8)) {
			bh_broken(r, "MMAP2 names %.64s, the file is %.64s", b->filename, path);
			goto out_map;
		}
	}
	bh_proven(r, "two mappings of %s (r-x private, r-- shared at page 1): dev %u:%u, inode %llu, "
		  "offset, prot, flags and path match", path, major(st.st_dev), minor(st.st_dev),
		  (unsigned long long)st.st_ino);
out_map:
	unmap_all(m, 2);
	close(exe_fd);
out:
	bh_ring_unmap(&ring);
	close(fd);
}

/* ---- build ids ---- */

/* The GNU build id of an ELF file, read with libelf; its length or -errno. */
static int elf_build_id(const char *path, uint8_t *id, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret = -ENOENT;
	Elf_Scn *scn = NULL;
	Elf *e;

	if (fd < 0)
		return -errno;
	if (elf_version(EV_CURRENT) == EV_NONE) {
		close(fd);
		return -ENOSYS;
	}
	e = elf_begin(fd, ELF_C_READ, NULL);
	while (e && ret < 0 && (scn = elf_nextscn(e, scn))) {
		GElf_Shdr sh;
		GElf_Nhdr nh;
		Elf_Data *d;
		size_t off = 0, name_off, desc_off, next;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE || !(d = elf_getdata(scn, NULL)))
			continue;
		while ((next = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
			if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
			    !memcmp((char *)d->d_buf + name_off, "GNU", 4) &&
			    nh.n_descsz > 0 && nh.n_descsz <= size) {
				memcpy(id, (char *)d->d_buf + desc_off, nh.n_descsz);
				ret = (int)nh.n_descsz;
				break;
			}
			off = next;
		}
	}
	if (e)
		elf_end(e);
	close(fd);
	return ret;
}

static void hex(char *out, const uint8_t *id, size_t n)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
	out[2 * n] = '\0';
}

/*
 * build_id: the MMAP2 record of a mapping of this executable carries the
 * build-id flag and the build id libelf reads from the file.
 */
void bh_check_build_id(struct pc_behaviour_result *r)
{
	struct mapping m = { .prot = PROT_READ | PROT_EXEC, .flags = MAP_PRIVATE, .pgoff = 0 };
	char path[PATH_MAX], rec[PATH_MAX + 256], want_hex[41], got_hex[41];
	const struct mmap2_body *b;
	uint8_t want[20];
	struct bh_ring ring;
	union pc_attr a;
	uint16_t misc = 0;
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	int fd, exe_fd, len, ret;

	if (n <= 0) {
		bh_not_tested(r, "readlink /proc/self/exe: %s", strerror(errno));
		return;
	}
	path[n] = '\0';
	/* reading the file also puts its first page in the page cache, where the kernel looks */
	len = elf_build_id(path, want, sizeof(want));
	if (len < 0) {
		bh_not_tested(r, "%s has no build id to compare with (%s)", path, strerror(-len));
		return;
	}
	hex(want_hex, want, (size_t)len);
	bh_attr_sideband(&a);
	a.attr.mmap = 1;
	a.attr.mmap2 = 1;
	pc_attr_set(&a.attr, PC_ATTR_build_id, true);
	fd = bh_open(r, &a, "dummy with build_id", 0, 0);
	if (fd < 0)
		return;
	if (bh_ring_map(&ring, fd, RING_PAGES, true) < 0) {
		bh_broken(r, "cannot map the ring: %s", strerror(errno));
		close(fd);
		return;
	}
	ret = map_exe(path, &m, 1, &exe_fd);
	if (ret < 0) {
		bh_not_tested(r, "cannot map %s: %s", path, strerror(-ret));
		goto out;
	}
	b = find_mmap2(&ring, &m, &misc, rec, sizeof(rec));
	if (!b) {
		bh_broken(r, "no MMAP2 record for the mapping of %s", path);
	} else if (!(misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
		bh_broken(r, "the MMAP2 record of %s has no build id (misc %#x); libelf reads %s", path,
			  misc, want_hex);
	} else if (b->build_id_size > 20) {
		bh_broken(r, "the MMAP2 record says a %u-byte build id", b->build_id_size);
	} else {
		hex(got_hex, b->build_id, b->build_id_size);
		if (strcmp(got_hex, want_hex))
			bh_broken(r, "MMAP2 build id %s, libelf reads %s from %s", got_hex, want_hex, path);
		else
			bh_proven(r, "the MMAP2 record of %s carries its build id %s", path, got_hex);
	}
	unmap_all(&m, 1);
	close(exe_fd);
out:
	bh_ring_unmap(&ring);
	close(fd);
}
