// SPDX-License-Identifier: GPL-2.0
/* addr2line's answer where libdw has no line (see a2l_answer.h). */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "reader/a2l_answer.h"

uint64_t rd_a2l_addr(const struct rd_resolved *r)
{
	uint64_t vaddr;

	if (r->obj && r->obj->exec && pc_dso_off_to_vaddr(r->obj, r->addr, &vaddr))
		return vaddr;
	return r->addr;
}

int rd_a2l_no_line(struct pc_srcline_cache *src, const struct rd_session *s,
		   const struct rd_resolved *r, const char *path, const char **file)
{
	char copy[4096];
	const char *ask = path;
	int covered;

	*file = NULL;
	if (access(path, R_OK))
		return -1;
	covered = pc_srcline_covered(src, path, rd_a2l_addr(r));
	if (covered < 0 && covered != -ENODATA)
		return -1;
	if (r->obj && r->obj->build_id[0] && s->dsos.buildid_dir) {
		snprintf(copy, sizeof(copy), "%s/.build-id/%.2s/%s/elf", s->dsos.buildid_dir,
			 r->obj->build_id, r->obj->build_id + 2);
		if (!access(copy, R_OK))
			ask = copy;
	}
	return pc_srcline_named(src, ask, rd_a2l_addr(r), file) > 0;
}

struct pc_srcline_cache *rd_srcline_cache(struct pc_srcline_cache **slot,
					  const struct rd_session *s, const char *debug_dir,
					  bool libdw_files)
{
	if (*slot)
		return *slot;
	*slot = pc_srcline_new(debug_dir);
	if (*slot) {
		pc_srcline_set_demangle(*slot, pc_dso_cache_demangle(&s->dsos));
		pc_srcline_set_libdw_files(*slot, libdw_files);
	}
	return *slot;
}
