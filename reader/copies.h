/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Copies of records that do not stay in the file's mapping (decompressed
 * records, a pipe's, a misaligned one), kept while their item lives.  They
 * come and go by the million in arrival order, so they are cut from large
 * chunks one after the other (written and read in sequence, as the cache
 * likes) rather than from malloc; a chunk is used again once every copy in
 * it is returned.  One arena per process: the reader runs in one thread.
 */
#ifndef PERFCHECK_READER_COPIES_H
#define PERFCHECK_READER_COPIES_H

#include <stddef.h>

/* size bytes, 8-byte aligned; NULL on ENOMEM. */
void *rd_copy_alloc(size_t size);
void rd_copy_free(void *p);

#endif
