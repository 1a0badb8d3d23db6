// SPDX-License-Identifier: GPL-2.0
/*
 * A recording that fails before it has begun (EMFILE while opening the
 * events, a snapshot ring that cannot be allocated, a full disk while
 * writing the attrs) must leave the previous perf.data where it was and
 * no broken file: it is written under a temporary name and renamed into
 * place, after rotating the old file, only once its header is on disk.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "recorder/outfile.h"

int rec_outfile_tmpname(const char *path, char *tmp, size_t size, struct pc_error *err)
{
	const char *slash = strrchr(path, '/');
	int dirlen = slash ? (int)(slash - path + 1) : 0;
	int n = snprintf(tmp, size, "%.*s.%s.perfcheck-%d", dirlen, path,
			 slash ? slash + 1 : path, (int)getpid());

	if (n < 0 || (size_t)n >= size)
		return pc_error_set(err, ENAMETOOLONG, "%s: name too long", path);
	return 0;
}

/* perf's names in a perf.data directory: data, data.N (kcore_dir apart) */
static bool perf_data_name(const char *name)
{
	return !strcmp(name, "data") || !strncmp(name, "data.", 5);
}

/* a kcore_dir of perf's or ours: the copies it holds, then itself */
static int remove_kcore_dir(const char *path, struct pc_error *err)
{
	static const char *const names[] = { "kallsyms", "modules", "kcore" };
	char file[PATH_MAX];

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (snprintf(file, sizeof(file), "%s/%s", path, names[i]) >= (int)sizeof(file))
			return pc_error_set(err, ENAMETOOLONG, "%s: name too long", path);
		if (unlink(file) && errno != ENOENT)
			return pc_error_set(err, errno, "cannot remove %s: %s", file,
					    strerror(errno));
	}
	/* anything else in it is someone's: rmdir fails and says so */
	if (rmdir(path))
		return pc_error_set(err, errno, "cannot remove %s: %s", path, strerror(errno));
	return 0;
}

int rec_outfile_remove_dir(const char *path, struct pc_error *err)
{
	char file[PATH_MAX];
	struct dirent *e;
	DIR *d = opendir(path);
	int ret = 0;

	if (!d)
		return pc_error_set(err, errno, "%s: cannot list: %s", path, strerror(errno));
	while (!ret && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (!strcmp(e->d_name, "kcore_dir")) {
			if (snprintf(file, sizeof(file), "%s/%s", path, e->d_name) >= (int)sizeof(file))
				ret = pc_error_set(err, ENAMETOOLONG, "%s: name too long", path);
			else
				ret = remove_kcore_dir(file, err);
			continue;
		}
		/* perf's words: a directory of someone else's files is left alone */
		if (!perf_data_name(e->d_name))
			ret = pc_error_set(err, ENOTEMPTY, "Can't remove old data: Unknown file "
					   "found (%s/%s)", path, e->d_name);
		else if (snprintf(file, sizeof(file), "%s/%s", path, e->d_name) >= (int)sizeof(file))
			ret = pc_error_set(err, ENAMETOOLONG, "%s: name too long", path);
		else if (unlink(file))
			ret = pc_error_set(err, errno, "cannot remove %s: %s", file, strerror(errno));
	}
	closedir(d);
	if (!ret && rmdir(path))
		ret = pc_error_set(err, errno, "cannot remove %s: %s", path, strerror(errno));
	return ret;
}

int rec_outfile_rotate(const char *path, struct pc_error *err)
{
	char old[PATH_MAX];
	struct stat st, ost;

	if (stat(path, &st) || (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)))
		return 0;
	if (snprintf(old, sizeof(old), "%s.old", path) >= (int)sizeof(old))
		return pc_error_set(err, ENAMETOOLONG, "%s: name too long", path);
	/* rename() puts no directory over a file nor the other way: the old one goes first */
	if (!lstat(old, &ost) && S_ISDIR(ost.st_mode) && rec_outfile_remove_dir(old, err))
		return -ENOTEMPTY;
	if (!lstat(old, &ost) && !S_ISDIR(ost.st_mode) && S_ISDIR(st.st_mode) && unlink(old))
		return pc_error_set(err, errno, "cannot remove %s: %s", old, strerror(errno));
	if (rename(path, old))
		return pc_error_set(err, errno, "cannot rename %s to %s: %s", path, old,
				    strerror(errno));
	return 0;
}

int rec_outfile_reserve(const char *dir, size_t bytes)
{
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);

	if (fd < 0)
		return -1;
	/* allocated blocks, not a sparse size: a full disk cannot take them back */
	if (posix_fallocate(fd, 0, (off_t)bytes)) {
		close(fd);
		return -1;
	}
	return fd;
}

int rec_outfile_timestamped(const char *base, char *out, size_t size, struct pc_error *err)
{
	struct timeval tv;
	struct tm tm;
	char stamp[32];
	struct stat st;
	int n;

	/*
	 * perf's stamp: the local time and the hundredths of a second; two
	 * switches within one hundredth would share a name (perf writes over the
	 * first): the second waits for the next one
	 */
	for (int tries = 0;; tries++) {
		gettimeofday(&tv, NULL);
		if (!localtime_r(&tv.tv_sec, &tm) ||
		    !strftime(stamp, sizeof(stamp), "%Y%m%d%H%M%S", &tm))
			return pc_error_set(err, EINVAL, "cannot format the time");
		n = snprintf(out, size, "%s.%s%02d", base, stamp, (int)(tv.tv_usec / 10000));
		if (n < 0 || (size_t)n >= size)
			return pc_error_set(err, ENAMETOOLONG, "%s: name too long", base);
		if (stat(out, &st) || tries >= 100)
			return 0;
		usleep(1000);
	}
}

int rec_outfile_ring_add(struct rec_outfile_ring *ring, const char *name)
{
	char **names, *copy = strdup(name);

	if (!copy)
		return -ENOMEM;
	names = realloc(ring->names, (ring->nr + 1) * sizeof(*names));
	if (!names) {
		free(copy);
		return -ENOMEM;
	}
	ring->names = names;
	ring->names[ring->nr++] = copy;
	if (ring->max && ring->nr > ring->max) {
		unlink(ring->names[0]);
		free(ring->names[0]);
		memmove(ring->names, ring->names + 1, (ring->nr - 1) * sizeof(*names));
		ring->nr--;
	}
	return 0;
}

void rec_outfile_ring_free(struct rec_outfile_ring *ring)
{
	for (unsigned int i = 0; i < ring->nr; i++)
		free(ring->names[i]);
	free(ring->names);
	ring->names = NULL;
	ring->nr = 0;
}
