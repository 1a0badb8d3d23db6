/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A buffered text writer for the reader's output: formatting millions of
 * callchain lines through stdio's printf dominates the run time, so the
 * fixed-width numbers perf script prints are formatted by hand here.
 */
#ifndef PERFCHECK_READER_OUT_H
#define PERFCHECK_READER_OUT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct rd_out {
	int fd;
	char *buf;
	size_t len, cap;
	int error;		/* errno of the first failed write */
};

int rd_out_init(struct rd_out *o, int fd);
int rd_out_flush(struct rd_out *o);
void rd_out_free(struct rd_out *o);

/* n bytes at s (rd_out_mem's way when they do not fit the room left). */
void rd_out_spill(struct rd_out *o, const char *s, size_t n);

static inline void rd_out_mem(struct rd_out *o, const char *s, size_t n)
{
	if (o->len + n <= o->cap) {
		memcpy(o->buf + o->len, s, n);
		o->len += n;
		return;
	}
	rd_out_spill(o, s, n);
}
void rd_out_str(struct rd_out *o, const char *s);

static inline void rd_out_char(struct rd_out *o, char c)
{
	if (o->len == o->cap)
		rd_out_flush(o);
	o->buf[o->len++] = c;
}
/* s right-aligned in width (printf "%*s"); left-aligned when width < 0. */
void rd_out_pad(struct rd_out *o, const char *s, int width);
/* printf "%*llu" / "%*lld" / "%*llx" */
void rd_out_u64(struct rd_out *o, uint64_t v, int width);
void rd_out_s64(struct rd_out *o, int64_t v, int width);
void rd_out_hex(struct rd_out *o, uint64_t v, int width);
/* printf "%0*llu" / "%0*llx" */
void rd_out_u64z(struct rd_out *o, uint64_t v, int width);
void rd_out_hexz(struct rd_out *o, uint64_t v, int width);
void rd_out_printf(struct rd_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
