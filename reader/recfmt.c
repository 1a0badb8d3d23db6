// SPDX-License-Identifier: GPL-2.0
/*
 * Non-sample records in perf's text: what follows "PERF_RECORD_NAME" in
 * perf script --show-*-events and in -D (perf 6.1's layouts).
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "perfdata/codec.h"
#include "reader/recfmt.h"

#define HDR sizeof(struct perf_event_header)

struct body {
	const uint8_t *p;
	size_t size;		/* header included, trailer excluded */
	const char *path;
	uint64_t offset;
	const char *type;
};

static int short_record(const struct body *b, size_t need, struct pc_error *err)
{
	return pc_error_set(err, EINVAL,
			    "%s: offset 0x%llx: %s record of %zu bytes (sample_id excluded) "
			    "is too short for its fields (%zu bytes)",
			    b->path, (unsigned long long)b->offset, b->type, b->size, need);
}

static int need(const struct body *b, size_t n, struct pc_error *err)
{
	return n > b->size ? short_record(b, n, err) : 0;
}

static uint32_t u32_at(const struct body *b, size_t off)
{
	uint32_t v;

	memcpy(&v, b->p + off, 4);
	return v;
}

static uint64_t u64_at(const struct body *b, size_t off)
{
	uint64_t v;

	memcpy(&v, b->p + off, 8);
	return v;
}

/* The NUL-terminated string at off, within the body; NULL if it runs past it. */
static const char *str_at(const struct body *b, size_t off, struct pc_error *err)
{
	const char *s = (const char *)b->p + off;

	if (off >= b->size || !memchr(s, '\0', b->size - off)) {
		pc_error_set(err, EINVAL,
			     "%s: offset 0x%llx: %s record: the string at byte %zu is not "
			     "terminated within the record's %zu bytes",
			     b->path, (unsigned long long)(b->offset + off), b->type, off, b->size);
		return NULL;
	}
	return s;
}

static int mmap1(struct rd_out *o, const struct body *b, uint16_t misc, struct pc_error *err)
{
	const char *name;
	int ret = need(b, HDR + 32 + 1, err);

	if (ret)
		return ret;
	name = str_at(b, HDR + 32, err);
	if (!name)
		return -EINVAL;
	rd_out_printf(o, " %d/%d: [%#llx(%#llx) @ %#llx]: %c %s\n", (int)u32_at(b, 8),
		      (int)u32_at(b, 12), (unsigned long long)u64_at(b, 16),
		      (unsigned long long)u64_at(b, 24), (unsigned long long)u64_at(b, 32),
		      (misc & PERF_RECORD_MISC_MMAP_DATA) ? 'r' : 'x', name);
	return 0;
}

static int mmap2(struct rd_out *o, const struct body *b, uint16_t misc, struct pc_error *err)
{
	uint32_t prot, flags;
	const char *name;
	int ret = need(b, HDR + 64 + 1, err);

	if (ret)
		return ret;
	name = str_at(b, HDR + 64, err);
	if (!name)
		return -EINVAL;
	prot = u32_at(b, 64);
	flags = u32_at(b, 68);
	rd_out_printf(o, " %d/%d: [%#llx(%#llx) @ %#llx ", (int)u32_at(b, 8), (int)u32_at(b, 12),
		      (unsigned long long)u64_at(b, 16), (unsigned long long)u64_at(b, 24),
		      (unsigned long long)u64_at(b, 32));
	if (misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
		/* u8 size, 3 reserved bytes, 20 bytes of id */
		uint8_t n = b->p[40];

		if (n > 20)
			n = 20;
		rd_out_char(o, '<');
		for (uint8_t i = 0; i < n; i++)
			rd_out_printf(o, "%02x", b->p[44 + i]);
		rd_out_char(o, '>');
	} else {
		rd_out_printf(o, "%02x:%02x %llu %llu", u32_at(b, 40), u32_at(b, 44),
			      (unsigned long long)u64_at(b, 48), (unsigned long long)u64_at(b, 56));
	}
	rd_out_printf(o, "]: %c%c%c%c %s\n", (prot & PROT_READ) ? 'r' : '-',
		      (prot & PROT_WRITE) ? 'w' : '-', (prot & PROT_EXEC) ? 'x' : '-',
		      (flags & MAP_SHARED) ? 's' : 'p', name);
	return 0;
}

/* u32 pid, u32 tid, u64 nr, then nr {u64 dev, u64 inode}: four to a line, as perf */
static int namespaces(struct rd_out *o, const struct body *b, struct pc_error *err)
{
	static const char *const names[] = { "net", "uts", "ipc", "pid", "user", "mnt", "cgroup" };
	uint64_t nr;
	int ret = need(b, HDR + 16, err);

	if (ret)
		return ret;
	nr = u64_at(b, 16);
	if (nr > (b->size - HDR - 16) / 16)
		return short_record(b, HDR + 16 + 16 * (size_t)(nr > 65536 ? 65536 : nr), err);
	rd_out_printf(o, " %d/%d - nr_namespaces: %u\n\t\t[", (int)u32_at(b, 8), (int)u32_at(b, 12),
		      (unsigned)nr);
	for (uint64_t i = 0; i < nr; i++) {
		if (i && i % 4 == 0)
			rd_out_str(o, "\n\t\t ");
		rd_out_printf(o, "%u/%s: %llu/%#llx%s", (unsigned)i,
			      i < sizeof(names) / sizeof(names[0]) ? names[i] : "(null)",
			      (unsigned long long)u64_at(b, 24 + 16 * i),
			      (unsigned long long)u64_at(b, 32 + 16 * i), i + 1 != nr ? ", " : "]\n");
	}
	if (!nr)
		rd_out_char(o, '\n');
	return 0;
}

/* "            Old bytes: xx xx ..." lines, 16 bytes a line (none for no bytes) */
static void poke_bytes(struct rd_out *o, const char *which, const uint8_t *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (!(i % 16))
			rd_out_printf(o, "            %s bytes:", which);
		rd_out_printf(o, " %02x", p[i]);
		if (i % 16 == 15 || i == n - 1)
			rd_out_char(o, '\n');
	}
}

/*
 * u64 addr, u16 old_len, u16 new_len, the old bytes then the new: perf's
 * " ADDR SYM+0xOFF old len N new len M" (the symbol where ksym names one)
 * and the bytes
 */
static int text_poke(struct rd_out *o, const struct body *b, rd_ksym_fn ksym, void *ctx,
		     struct pc_error *err)
{
	uint64_t addr, off = 0;
	uint16_t lens[2];
	const char *sym;
	int ret = need(b, HDR + 12, err);

	if (ret)
		return ret;
	addr = u64_at(b, HDR);
	memcpy(lens, b->p + HDR + 8, sizeof(lens));
	ret = need(b, HDR + 12 + (size_t)lens[0] + lens[1], err);
	if (ret)
		return ret;
	rd_out_printf(o, " %llx ", (unsigned long long)addr);
	sym = ksym ? ksym(ctx, addr, &off) : NULL;
	if (sym)
		rd_out_printf(o, "%s+0x%llx", sym, (unsigned long long)off);
	rd_out_printf(o, " old len %u new len %u\n", lens[0], lens[1]);
	poke_bytes(o, "Old", b->p + HDR + 12, lens[0]);
	poke_bytes(o, "New", b->p + HDR + 12 + lens[0], lens[1]);
	return 0;
}

int rd_recfmt_ksym(struct rd_out *o, const char *path, const struct pd_record *rec,
		   size_t trailer, rd_ksym_fn ksym, void *ctx, struct pc_error *err)
{
	const char *name = pd_record_name(rec->header.type);

	rd_out_printf(o, "PERF_RECORD_%s", name ? name : "UNKNOWN");
	return rd_recfmt_fields_ksym(o, path, rec, trailer, ksym, ctx, err);
}

int rd_recfmt(struct rd_out *o, const char *path, const struct pd_record *rec, size_t trailer,
	      struct pc_error *err)
{
	return rd_recfmt_ksym(o, path, rec, trailer, NULL, NULL, err);
}

int rd_recfmt_fields(struct rd_out *o, const char *path, const struct pd_record *rec,
		     size_t trailer, struct pc_error *err)
{
	return rd_recfmt_fields_ksym(o, path, rec, trailer, NULL, NULL, err);
}

int rd_recfmt_fields_ksym(struct rd_out *o, const char *path, const struct pd_record *rec,
			  size_t trailer, rd_ksym_fn ksym, void *ctx, struct pc_error *err)
{
	const char *name = pd_record_name(rec->header.type);
	struct body b = { rec->data, rec->header.size, path, rec->offset, name ? name : "UNKNOWN" };
	uint16_t misc = rec->header.misc;
	const char *s;
	int ret;

	if (trailer > b.size - HDR)
		return pc_error_set(err, EINVAL,
				    "%s: offset 0x%llx: %s record of %zu bytes cannot hold its "
				    "%zu-byte sample_id", path, (unsigned long long)rec->offset,
				    b.type, b.size, trailer);
	b.size -= trailer;
	switch (rec->header.type) {
	case PERF_RECORD_MMAP:
		return mmap1(o, &b, misc, err);
	case PERF_RECORD_MMAP2:
		return mmap2(o, &b, misc, err);
	case PERF_RECORD_COMM:
		ret = need(&b, HDR + 8 + 1, err);
		if (ret)
			return ret;
		s = str_at(&b, HDR + 8, err);
		if (!s)
			return -EINVAL;
		rd_out_printf(o, "%s: %s:%d/%d\n", (misc & PERF_RECORD_MISC_COMM_EXEC) ? " exec" : "",
			      s, (int)u32_at(&b, 8), (int)u32_at(&b, 12));
		return 0;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		/* pid, ppid, tid, ptid, time */
		ret = need(&b, HDR + 24, err);
		if (ret)
			return ret;
		rd_out_printf(o, "(%d:%d):(%d:%d)\n", (int)u32_at(&b, 8), (int)u32_at(&b, 16),
			      (int)u32_at(&b, 12), (int)u32_at(&b, 20));
		return 0;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE: {
		bool out = misc & PERF_RECORD_MISC_SWITCH_OUT;
		const char *io = !out ? "IN         " :
				 (misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) ? "OUT preempt" :
										  "OUT        ";

		if (rec->header.type == PERF_RECORD_SWITCH) {
			rd_out_printf(o, " %s\n", io);
			return 0;
		}
		ret = need(&b, HDR + 8, err);
		if (ret)
			return ret;
		rd_out_printf(o, " %s  %s pid/tid: %5d/%-5d\n", io, out ? "next" : "prev",
			      (int)u32_at(&b, 8), (int)u32_at(&b, 12));
		return 0;
	}
	case PERF_RECORD_LOST:
		/* id, lost */
		ret = need(&b, HDR + 16, err);
		if (ret)
			return ret;
		rd_out_printf(o, " lost %llu\n", (unsigned long long)u64_at(&b, 16));
		return 0;
	case PC_RECORD_KSYMBOL:
		/* u64 addr, u32 len, u16 type, u16 flags, name */
		ret = need(&b, HDR + 16 + 1, err);
		if (ret)
			return ret;
		s = str_at(&b, HDR + 16, err);
		if (!s)
			return -EINVAL;
		rd_out_printf(o, " addr %llx len %u type %u flags 0x%x name %s\n",
			      (unsigned long long)u64_at(&b, 8), u32_at(&b, 16),
			      (unsigned)(u32_at(&b, 20) & 0xffff), (unsigned)(u32_at(&b, 20) >> 16), s);
		return 0;
	case PC_RECORD_BPF_EVENT:
		/* u16 type, u16 flags, u32 id, tag */
		ret = need(&b, HDR + 8, err);
		if (ret)
			return ret;
		rd_out_printf(o, " type %u, flags %u, id %u\n", (unsigned)(u32_at(&b, 8) & 0xffff),
			      (unsigned)(u32_at(&b, 8) >> 16), u32_at(&b, 12));
		return 0;
	case PERF_RECORD_NAMESPACES:
		return namespaces(o, &b, err);
	case PC_RECORD_TEXT_POKE:
		return text_poke(o, &b, ksym, ctx, err);
	case PERF_RECORD_CGROUP: {
		struct pd_cgroup c;

		if (pd_decode_cgroup(path, rec, b.size, &c, err))
			return -EINVAL;
		rd_out_printf(o, " cgroup: %llu %s\n", (unsigned long long)c.id, c.path);
		return 0;
	}
	default:
		rd_out_char(o, '\n');
		return 0;
	}
}

bool rd_record_task(const struct pd_record *rec, int32_t *pid, int32_t *tid)
{
	size_t at = HDR;

	switch (rec->header.type) {
	case PERF_RECORD_COMM:
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_NAMESPACES:
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		/* pid, ppid, tid */
		if (rec->header.size < HDR + 12)
			return false;
		memcpy(pid, (const uint8_t *)rec->data + HDR, 4);
		memcpy(tid, (const uint8_t *)rec->data + HDR + 8, 4);
		return true;
	default:
		return false;
	}
	if (rec->header.size < at + 8)
		return false;
	memcpy(pid, (const uint8_t *)rec->data + at, 4);
	memcpy(tid, (const uint8_t *)rec->data + at + 4, 4);
	return true;
}
