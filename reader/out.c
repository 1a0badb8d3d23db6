// SPDX-License-Identifier: GPL-2.0
#include "reader/out.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define RD_OUT_CAP (1u << 20)

int rd_out_init(struct rd_out *o, int fd)
{
	memset(o, 0, sizeof(*o));
	o->fd = fd;
	o->buf = malloc(RD_OUT_CAP);
	if (!o->buf)
		return -ENOMEM;
	o->cap = RD_OUT_CAP;
	return 0;
}

int rd_out_flush(struct rd_out *o)
{
	size_t done = 0;

	while (done < o->len && !o->error) {
		ssize_t n = write(o->fd, o->buf + done, o->len - done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			o->error = errno;
			break;
		}
		done += (size_t)n;
	}
	o->len = 0;
	return o->error ? -o->error : 0;
}

void rd_out_free(struct rd_out *o)
{
	free(o->buf);
	o->buf = NULL;
}

static inline char *room(struct rd_out *o, size_t n)
{
	if (o->len + n > o->cap)
		rd_out_flush(o);
	return o->buf + o->len;
}

void rd_out_spill(struct rd_out *o, const char *s, size_t n)
{
	while (n) {
		size_t chunk = n < o->cap ? n : o->cap;

		memcpy(room(o, chunk), s, chunk);
		o->len += chunk;
		s += chunk;
		n -= chunk;
	}
}

void rd_out_str(struct rd_out *o, const char *s)
{
	rd_out_mem(o, s, strlen(s));
}

void rd_out_pad(struct rd_out *o, const char *s, int width)
{
	size_t n = strlen(s);
	size_t w = (size_t)(width < 0 ? -width : width);

	if (width > 0 && n < w) {
		memset(room(o, w - n), ' ', w - n);
		o->len += w - n;
	}
	rd_out_mem(o, s, n);
	if (width < 0 && n < w) {
		memset(room(o, w - n), ' ', w - n);
		o->len += w - n;
	}
}

static void put_digits(struct rd_out *o, const char *d, int n, int width, char fill)
{
	char *p = room(o, (size_t)(width > n ? width : n));

	if (width > n) {
		memset(p, fill, (size_t)(width - n));
		p += width - n;
		o->len += (size_t)(width - n);
	}
	memcpy(p, d, (size_t)n);
	o->len += (size_t)n;
}

static int dec(char *end, uint64_t v)
{
	char *p = end;

	do {
		*--p = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return (int)(end - p);
}

void rd_out_u64(struct rd_out *o, uint64_t v, int width)
{
	char b[24];
	int n = dec(b + sizeof(b), v);

	put_digits(o, b + sizeof(b) - n, n, width, ' ');
}

void rd_out_u64z(struct rd_out *o, uint64_t v, int width)
{
	char b[24];
	int n = dec(b + sizeof(b), v);

	put_digits(o, b + sizeof(b) - n, n, width, '0');
}

void rd_out_s64(struct rd_out *o, int64_t v, int width)
{
	char b[24];
	int n;

	if (v >= 0) {
		rd_out_u64(o, (uint64_t)v, width);
		return;
	}
	n = dec(b + sizeof(b), -(uint64_t)v);
	b[sizeof(b) - n - 1] = '-';
	n++;
	put_digits(o, b + sizeof(b) - n, n, width, ' ');
}

static int hex(char *end, uint64_t v)
{
	static const char digits[] = "0123456789abcdef";
	char *p = end;

	do {
		*--p = digits[v & 15];
		v >>= 4;
	} while (v);
	return (int)(end - p);
}

void rd_out_hex(struct rd_out *o, uint64_t v, int width)
{
	char b[16];
	int n = hex(b + sizeof(b), v);

	put_digits(o, b + sizeof(b) - n, n, width, ' ');
}

void rd_out_hexz(struct rd_out *o, uint64_t v, int width)
{
	char b[16];
	int n = hex(b + sizeof(b), v);

	put_digits(o, b + sizeof(b) - n, n, width, '0');
}

void rd_out_printf(struct rd_out *o, const char *fmt, ...)
{
	char small[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(small)) {
		rd_out_mem(o, small, (size_t)n);
		return;
	}
	{
		char *big = malloc((size_t)n + 1);

		if (!big)
			return;
		va_start(ap, fmt);
		vsnprintf(big, (size_t)n + 1, fmt, ap);
		va_end(ap);
		rd_out_mem(o, big, (size_t)n);
		free(big);
	}
}
