/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A branch stack entry's end resolved as perf report's branch mode does it:
 * in the thread's maps, then the kernel's; an address in neither has level
 * 'H' (perf's last try, a guest's maps, is not made without guests).
 */
#ifndef PERFCHECK_READER_BRANCH_AT_H
#define PERFCHECK_READER_BRANCH_AT_H

#include <stdint.h>

#include "reader/session.h"

/* Resolves addr into r; returns its level: '.', 'k' or 'H'. */
char rd_branch_at(struct rd_session *s, struct rd_thread *t, uint64_t addr,
		  struct rd_resolved *r);

/*
 * The bounds perf compares r's symbol by: an ET_EXEC's symbols as file
 * offsets (perf adjusts them), others' as they are; 0 without a symbol.
 */
void rd_branch_sym_bounds(const struct rd_resolved *r, uint64_t *start, uint64_t *end);

#endif
