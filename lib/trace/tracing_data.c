// SPDX-License-Identifier: GPL-2.0
/*
 * TRACING_DATA -> tep_handle (layout in trace.h).  A cursor walks the
 * section; every read is checked against what is left, so a cut section or
 * a length that runs past its end is an error naming the offset of the
 * item that does not fit.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>
#include <unistd.h>

#include "trace/trace.h"

struct cursor {
	const uint8_t *p;
	size_t size, pos;
	uint64_t base;		/* file offset of p[0] */
	const char *path;
	bool swap;
	bool dry;		/* lengths only: nothing given to libtraceevent */
	bool guarded;		/* try each format in a child first (see child_dies) */
	struct pc_error *err;
};

static int bad(struct cursor *c, size_t at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int bad(struct cursor *c, size_t at, const char *fmt, ...)
{
	char what[400];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return pc_error_set(c->err, EINVAL, "%s: offset 0x%llx: TRACING_DATA: %s", c->path,
			    (unsigned long long)(c->base + at), what);
}

/* n bytes of `what` at the cursor, or an error saying how many are left */
static int take(struct cursor *c, size_t n, const char *what, const uint8_t **out)
{
	if (n > c->size - c->pos)
		return bad(c, c->pos, "%s needs %zu bytes, the section has %zu left", what, n,
			   c->size - c->pos);
	*out = c->p + c->pos;
	c->pos += n;
	return 0;
}

static int take_u32(struct cursor *c, const char *what, uint32_t *v)
{
	const uint8_t *p = NULL;
	int ret = take(c, 4, what, &p);

	if (ret)
		return ret;
	memcpy(v, p, 4);
	if (c->swap)
		*v = __builtin_bswap32(*v);
	return 0;
}

static int take_u64(struct cursor *c, const char *what, uint64_t *v)
{
	const uint8_t *p = NULL;
	int ret = take(c, 8, what, &p);

	if (ret)
		return ret;
	memcpy(v, p, 8);
	if (c->swap)
		*v = __builtin_bswap64(*v);
	return 0;
}

/* a NUL-terminated string inside the section */
static int take_string(struct cursor *c, const char *what, const char **s)
{
	const uint8_t *nul = memchr(c->p + c->pos, '\0', c->size - c->pos);

	if (!nul)
		return bad(c, c->pos, "%s is not NUL-terminated before the end of the section",
			   what);
	*s = (const char *)c->p + c->pos;
	c->pos = (size_t)(nul - c->p) + 1;
	return 0;
}

/* size-prefixed blob: the size (u32 or u64), then that many bytes */
static int take_blob(struct cursor *c, int size_bytes, const char *what, const uint8_t **data,
		     uint64_t *len)
{
	size_t at = c->pos;
	uint32_t l32;
	int ret;

	if (size_bytes == 4) {
		ret = take_u32(c, what, &l32);
		*len = l32;
	} else {
		ret = take_u64(c, what, len);
	}
	if (ret)
		return ret;
	if (*len > c->size - c->pos)
		return bad(c, at, "%s of %llu bytes runs past the end of the section (%zu left)",
			   what, (unsigned long long)*len, c->size - c->pos);
	*data = c->p + c->pos;
	c->pos += *len;
	return 0;
}

/* libtraceevent wants NUL-terminated text for these */
static char *dup_text(const uint8_t *p, uint64_t len)
{
	char *s = malloc(len + 1);

	if (s) {
		memcpy(s, p, len);
		s[len] = '\0';
	}
	return s;
}

static void note_failed(struct tr_events *t, const char *sys, const uint8_t *fmt, uint64_t len)
{
	const char *name = memmem(fmt, len, "name: ", 6);
	size_t used = strlen(t->failed), n = 0;

	t->nr_failed++;
	if (name) {
		name += 6;
		while (name + n < (const char *)fmt + len && name[n] != '\n' && n < 64)
			n++;
	}
	snprintf(t->failed + used, sizeof(t->failed) - used, "%s%s:%.*s", used ? ", " : "", sys,
		 (int)n, name ? name : "?");
}

/*
 * libtraceevent 1.7.1 dereferences NULL on some malformed format texts (a
 * control character inside a field's brackets, a '%' operator without its
 * operand in the print args).  A file must not crash the reader, so the
 * section is first parsed in a child process; only when that child dies is
 * each format tried in a child of its own, and one that kills it is counted
 * as failed and never given to libtraceevent in this process.  A child that
 * hangs is killed after a few seconds.
 */
static bool child_dies(struct tr_events *t, struct cursor *c,
		       int (*fn)(struct tr_events *t, struct cursor *c, const void *arg),
		       const void *arg)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return false;		/* no child to spare: parse in this process */
	if (pid == 0) {
		alarm(5);
		fn(t, c, arg);
		_exit(0);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return false;
	/* killed, or (under ASan) exited through its SEGV report */
	return !WIFEXITED(status) || WEXITSTATUS(status) != 0;
}

struct one_format {
	const uint8_t *fmt;
	uint64_t len;
	const char *sys;
};

static int parse_one(struct tr_events *t, struct cursor *c, const void *arg)
{
	const struct one_format *f = arg;
	struct tep_event *ev;

	(void)c;
	return tep_parse_format(t->tep, &ev, (const char *)f->fmt, f->len, f->sys) ? 1 : 0;
}

static bool crashes_in_child(struct tr_events *t, const uint8_t *fmt, uint64_t len,
			     const char *sys)
{
	struct one_format f = { fmt, len, sys };

	return child_dies(t, NULL, parse_one, &f);
}

static int parse_format(struct tr_events *t, struct cursor *c, const char *sys, const char *what)
{
	struct tep_event *ev = NULL;
	const uint8_t *fmt;
	uint64_t len;
	enum tep_errno e;
	int ret = take_blob(c, 8, what, &fmt, &len);

	if (ret || c->dry)
		return ret;
	t->nr_formats++;
	/* libtraceevent also answers TEP_ERRNO__MEM_ALLOC_FAILED to a format
	 * without a readable name: every error counts as a failed format. A
	 * print fmt it cannot read still adds the event, marked failed. */
	if (c->guarded && crashes_in_child(t, fmt, len, sys)) {
		note_failed(t, sys, fmt, len);
		return 0;
	}
	e = tep_parse_format(t->tep, &ev, (const char *)fmt, len, sys);
	if (e || !ev || (ev->flags & TEP_EVENT_FL_FAILED))
		note_failed(t, sys, fmt, len);
	return 0;
}

static int parse_headers(struct tr_events *t, struct cursor *c)
{
	const uint8_t *p = NULL;
	uint64_t len;
	char *text;
	int ret;

	ret = take(c, 12, "the \"header_page\" tag", &p);
	if (ret)
		return ret;
	if (memcmp(p, "header_page", 12))
		return bad(c, c->pos - 12, "\"header_page\" tag expected");
	ret = take_blob(c, 8, "header_page", &p, &len);
	if (ret)
		return ret;
	if (!c->dry) {
		text = dup_text(p, len);
		if (!text)
			return pc_error_set(c->err, ENOMEM, "%s: out of memory", c->path);
		/* a header_page libtraceevent cannot read leaves its defaults, as in perf */
		tep_parse_header_page(t->tep, text, len, t->long_size);
		free(text);
	}
	ret = take(c, 13, "the \"header_event\" tag", &p);
	if (ret)
		return ret;
	if (memcmp(p, "header_event", 13))
		return bad(c, c->pos - 13, "\"header_event\" tag expected");
	return take_blob(c, 8, "header_event", &p, &len);
}

static int parse_events(struct tr_events *t, struct cursor *c)
{
	uint32_t nr, nr_sys;
	int ret;

	ret = take_u32(c, "the count of ftrace formats", &nr);
	for (uint32_t i = 0; !ret && i < nr; i++)
		ret = parse_format(t, c, "ftrace", "an ftrace format");
	if (!ret)
		ret = take_u32(c, "the count of event systems", &nr_sys);
	for (uint32_t s = 0; !ret && s < nr_sys; s++) {
		const char *sys;

		ret = take_string(c, "a system name", &sys);
		if (!ret)
			ret = take_u32(c, "the count of a system's formats", &nr);
		for (uint32_t i = 0; !ret && i < nr; i++)
			ret = parse_format(t, c, sys, "an event format");
	}
	return ret;
}


static int parse_tail(struct tr_events *t, struct cursor *c)
{
	const uint8_t *p = NULL;
	uint64_t len;
	char *text;
	int ret;

	ret = take_blob(c, 4, "kallsyms", &p, &len);	/* perf resolves with its own map */
	if (!ret)
		ret = take_blob(c, 4, "printk formats", &p, &len);
	if (ret)
		return ret;
	if (len && !c->dry) {
		text = dup_text(p, len);
		if (!text)
			return pc_error_set(c->err, ENOMEM, "%s: out of memory", c->path);
		tep_parse_printk_formats(t->tep, text);
		free(text);
	}
	if (strtod(t->version, NULL) < 0.6)
		return 0;
	ret = take_blob(c, 8, "saved_cmdlines", &p, &len);
	if (ret || !len || c->dry)
		return ret;
	text = dup_text(p, len);
	if (!text)
		return pc_error_set(c->err, ENOMEM, "%s: out of memory", c->path);
	tep_parse_saved_cmdlines(t->tep, text);
	free(text);
	return 0;
}

static int parse_preamble(struct tr_events *t, struct cursor *c)
{
	static const uint8_t magic[TR_MAGIC_LEN] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	const uint8_t *p = NULL;
	const char *version;
	size_t at;
	int ret;

	ret = take(c, TR_MAGIC_LEN, "the magic", &p);
	if (ret)
		return ret;
	if (memcmp(p, magic, TR_MAGIC_LEN))
		return bad(c, 0, "bad magic (not \\x17\\x08\\x44tracing)");
	at = c->pos;
	ret = take_string(c, "the version", &version);
	if (ret)
		return ret;
	if (strlen(version) >= sizeof(t->version) || strtod(version, NULL) <= 0)
		return bad(c, at, "version \"%.16s\" is not a version number", version);
	strcpy(t->version, version);
	at = c->pos;
	ret = take(c, 2, "the endianness and long size", &p);
	if (ret)
		return ret;
	if (p[0] > 1)
		return bad(c, at, "big-endian flag %u is neither 0 nor 1", p[0]);
	if (p[1] != 4 && p[1] != 8)
		return bad(c, at + 1, "long size %u is neither 4 nor 8", p[1]);
	t->file_bigendian = p[0];
	t->long_size = p[1];
	c->swap = t->file_bigendian != (bool)tep_is_bigendian();
	at = c->pos;
	ret = take_u32(c, "the page size", &t->page_size);
	if (ret)
		return ret;
	if (!t->page_size || (t->page_size & (t->page_size - 1)))
		return bad(c, at, "page size %u is not a power of two", t->page_size);
	return 0;
}

static int parse_all(struct tr_events *t, struct cursor *c, const void *arg)
{
	(void)arg;
	return parse_headers(t, c) ?: parse_events(t, c) ?: parse_tail(t, c);
}

int tr_open(struct tr_events *t, const void *data, size_t size, const char *path,
	    uint64_t offset, struct pc_error *err)
{
	struct cursor c = { .p = data, .size = data ? size : 0, .base = offset, .path = path,
			    .err = err };
	struct cursor dry, trial;
	int ret;

	memset(t, 0, sizeof(*t));
	tep_set_loglevel(TEP_LOG_NONE);		/* failures are counted, not printed */
	t->path = strdup(path);
	t->tep = tep_alloc();
	t->seq = malloc(sizeof(*t->seq));
	t->raw = aligned_alloc(8, TR_RAW_MAX + TR_RAW_PAD);
	if (!t->path || !t->tep || !t->seq || !t->raw) {
		free(t->seq);
		t->seq = NULL;
		tr_close(t);
		return pc_error_set(err, ENOMEM, "%s: out of memory", path);
	}
	trace_seq_init(t->seq);
	memset(t->raw, 0, TR_RAW_MAX + TR_RAW_PAD);
	ret = parse_preamble(t, &c);
	if (!ret) {
		tep_set_flag(t->tep, TEP_NSEC_OUTPUT);
		tep_set_file_bigendian(t->tep, t->file_bigendian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
		tep_set_local_bigendian(t->tep, tep_is_bigendian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
		tep_set_long_size(t->tep, t->long_size);
		tep_set_page_size(t->tep, (int)t->page_size);
		/* every length first, then a trial in a child, then for real */
		dry = trial = c;
		dry.dry = true;
		ret = parse_all(t, &dry, NULL);
		if (!ret) {
			c.guarded = child_dies(t, &trial, parse_all, NULL);
			ret = parse_all(t, &c, NULL);
		}
	}
	if (ret)
		tr_close(t);
	return ret;
}

void tr_close(struct tr_events *t)
{
	if (t->seq) {
		trace_seq_destroy(t->seq);
		free(t->seq);
	}
	if (t->tep)
		tep_free(t->tep);
	free(t->raw);
	free(t->path);
	memset(t, 0, sizeof(*t));
}

#ifdef PC_STATIC_BUILD
/*
 * tep_free() is the only caller from libtraceevent's parser into its plugin
 * loader (event-plugin.o, which dlopen()s: glibc warns about that in a
 * static link).  It frees the plugin path list that tep_add_plugin_path()
 * fills; perfcheck loads no plugins (perf 6.1 prints without them), so the
 * list is always empty and this definition keeps the loader out of the
 * static binaries.
 */
void free_tep_plugin_paths(struct tep_handle *tep);
void free_tep_plugin_paths(struct tep_handle *tep)
{
	(void)tep;
}
#endif
