// SPDX-License-Identifier: GPL-2.0
/*
 * perf.data directories (perf record --threads, --kcore): "data" is a
 * perf.data file (header, attrs, features, and a data section of the
 * records perf synthesized); each "data.N" holds, with no header, the
 * records recording thread N took from its rings.  perf reads them all and
 * orders their records by time (they carry no FINISHED_ROUND: one sort at
 * the end).  Their records follow the data section's here, file by file in
 * the order the directory lists them (perf's: it matters to -D and to
 * records of one time), at offsets that name the file (PD_DIR_SHIFT), so
 * that each error says which file and where.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfdata/reader_int.h"

struct pd_dir_file {
	char *path;
	const uint8_t *base;	/* mapped, NULL when empty */
	size_t size;
};

struct pd_dir {
	struct pd_dir_file *files;
	uint32_t nr;
};

/* "data.N" with N a number alone (perf takes "data." and anything) */
static bool data_n(const char *name, unsigned int *n)
{
	char *end;
	unsigned long v;

	if (strncmp(name, "data.", 5) || !name[5] || name[5] < '0' || name[5] > '9')
		return false;
	v = strtoul(name + 5, &end, 10);
	if (*end || v > 1000000)
		return false;
	*n = (unsigned int)v;
	return true;
}

static int map_file(struct pd_dir_file *f, struct pc_error *err)
{
	struct stat st;
	int fd = open(f->path, O_RDONLY | O_CLOEXEC);
	void *map;

	if (fd < 0)
		return pc_error_set(err, errno, "%s: cannot open: %s", f->path, strerror(errno));
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return pc_error_set(err, EINVAL, "%s: not a regular file", f->path);
	}
	f->size = (size_t)st.st_size;
	if (f->size) {
		map = mmap(NULL, f->size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (map == MAP_FAILED) {
			close(fd);
			return pc_error_set(err, errno, "%s: cannot map: %s", f->path,
					    strerror(errno));
		}
		f->base = map;
	}
	close(fd);
	return 0;
}

void pd_dir_free(struct pd_dir *d)
{
	if (!d)
		return;
	for (uint32_t i = 0; i < d->nr; i++) {
		if (d->files[i].base)
			munmap((void *)d->files[i].base, d->files[i].size);
		free(d->files[i].path);
	}
	free(d->files);
	free(d);
}

int pd_dir_open(struct pd_reader *r, const char *dir, struct pc_error *err)
{
	struct pd_dir *d = calloc(1, sizeof(*d));
	DIR *dh = opendir(dir);
	struct dirent *e;
	uint32_t cap = 0;
	int ret = 0;

	if (!d || !dh) {
		ret = !d ? pc_error_set(err, ENOMEM, "out of memory") :
			   pc_error_set(err, errno, "%s: cannot list: %s", dir, strerror(errno));
		goto out;
	}
	while (!ret && (e = readdir(dh))) {
		unsigned int n;

		if (!data_n(e->d_name, &n))
			continue;
		if (d->nr >= PD_DIR_MAX_FILES) {
			ret = pc_error_set(err, E2BIG, "%s: more than %d data.N files", dir,
					   PD_DIR_MAX_FILES);
			break;
		}
		if (d->nr == cap) {
			struct pd_dir_file *f;

			cap = cap ? 2 * cap : 16;
			f = realloc(d->files, cap * sizeof(*f));
			if (!f) {
				ret = pc_error_set(err, ENOMEM, "out of memory");
				break;
			}
			d->files = f;
		}
		d->files[d->nr] = (struct pd_dir_file){ .path = NULL };
		if (asprintf(&d->files[d->nr].path, "%s/%s", dir, e->d_name) < 0) {
			d->files[d->nr].path = NULL;
			ret = pc_error_set(err, ENOMEM, "out of memory");
			break;
		}
		d->nr++;
	}
	for (uint32_t i = 0; !ret && i < d->nr; i++)
		ret = map_file(&d->files[i], err);
out:
	if (dh)
		closedir(dh);
	if (ret) {
		pd_dir_free(d);
		return ret;
	}
	r->dir = d;
	return 0;
}

bool pd_dir_range(const struct pd_reader *r, uint64_t off, const uint8_t **base,
		  uint64_t *start, uint64_t *end)
{
	uint64_t f = off >> PD_DIR_SHIFT;

	if (!f) {
		*base = r->base + r->data_start;
		*start = r->data_start;
		*end = r->data_end;
		return true;
	}
	if (!r->dir || f > r->dir->nr)
		return false;
	/* the file's own mapping: a pointer moved back by the offset's tag is undefined */
	*base = r->dir->files[f - 1].base;
	*start = f << PD_DIR_SHIFT;
	*end = *start + r->dir->files[f - 1].size;
	return true;
}

bool pd_dir_next_range(const struct pd_reader *r, uint64_t *off)
{
	uint64_t f = *off >> PD_DIR_SHIFT;

	if (!r->dir || f >= r->dir->nr)
		return false;
	*off = (f + 1) << PD_DIR_SHIFT;
	return true;
}

const char *pd_reader_where(const struct pd_reader *r, uint64_t off, uint64_t *local)
{
	return pd_dir_where(r, off, local);
}

const char *pd_dir_where(const struct pd_reader *r, uint64_t off, uint64_t *local)
{
	uint64_t f = off >> PD_DIR_SHIFT;

	*local = off;
	if (!f || !r->dir || f > r->dir->nr)
		return r->path;
	*local = off & ((1ULL << PD_DIR_SHIFT) - 1);
	return r->dir->files[f - 1].path;
}
