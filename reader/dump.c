// SPDX-License-Identifier: GPL-2.0
/*
 * script -D, in perf report -D's shape: for each record in file order the
 * offset, size and type, the raw bytes, then one line of parsed fields
 * (and the callchain for samples and deferred records).  Records are not
 * reordered here: this is a view of the file as it is.
 */
#include <ctype.h>
#include <string.h>

#include "reader/dump.h"

static void hexdump(struct rd_out *o, const uint8_t *p, size_t n)
{
	rd_out_printf(o, ".\n. ... raw event: size %zu bytes\n", n);
	for (size_t i = 0; i < n; i += 16) {
		char ascii[17];
		size_t j;

		rd_out_printf(o, ".  %04zx: ", i);
		for (j = 0; j < 16; j++) {
			if (i + j < n) {
				rd_out_printf(o, " %02x", p[i + j]);
				ascii[j] = isprint(p[i + j]) ? (char)p[i + j] : '.';
			} else {
				rd_out_str(o, "   ");
				ascii[j] = ' ';
			}
		}
		ascii[16] = '\0';
		rd_out_printf(o, "  %s\n", ascii);
	}
	rd_out_char(o, '\n');
}

static void chain(struct rd_out *o, const uint64_t *ips, uint64_t nr, bool deferred)
{
	rd_out_printf(o, "... FP chain: nr:%llu\n", (unsigned long long)nr);
	for (uint64_t i = 0; i < nr; i++)
		rd_out_printf(o, ".....  %2llu: %016llx\n", (unsigned long long)i,
			      (unsigned long long)ips[i]);
	if (deferred)
		rd_out_str(o, "...... (deferred)\n");
}

static const char *cpumode(uint16_t misc)
{
	switch (misc & PERF_RECORD_MISC_CPUMODE_MASK) {
	case PERF_RECORD_MISC_KERNEL: return "K";
	case PERF_RECORD_MISC_USER: return "IP";
	case PERF_RECORD_MISC_HYPERVISOR: return "H";
	case PERF_RECORD_MISC_GUEST_KERNEL: return "GK";
	case PERF_RECORD_MISC_GUEST_USER: return "GU";
	default: return "?";
	}
}

/* The NUL-terminated string at off, or a marker when the record lacks it. */
static const char *str_at(const struct pd_record *rec, size_t off)
{
	const char *p = (const char *)rec->data + off;

	if (off >= rec->header.size || !memchr(p, '\0', rec->header.size - off))
		return "(unterminated)";
	return p;
}

static int fields(struct rd_session *s, struct rd_out *o, const struct pd_record *rec,
		  struct pc_error *err)
{
	const uint8_t *p = rec->data;
	uint32_t u32[4];
	uint64_t u64[4];
	struct pd_sample smp;
	struct pd_deferred d;
	int ret;

	switch (rec->header.type) {
	case PERF_RECORD_SAMPLE:
		ret = pd_parse_sample(&s->r, rec, &smp, err);
		if (ret)
			return ret;
		rd_out_printf(o, "(%s, %#x): %d/%d: %#llx period: %llu addr: %#llx\n",
			      cpumode(rec->header.misc), rec->header.misc, (int)smp.pid,
			      (int)smp.tid, (unsigned long long)smp.ip,
			      (unsigned long long)smp.period, (unsigned long long)smp.addr);
		if (smp.evsel && (smp.evsel->attr.attr.sample_type & PERF_SAMPLE_CALLCHAIN))
			chain(o, smp.chain.ips, smp.chain.nr, smp.chain.deferred);
		return 0;
	case PC_RECORD_CALLCHAIN_DEFERRED:
		ret = pd_parse_deferred(&s->r, rec, &d, &smp, err);
		if (ret)
			return ret;
		rd_out_printf(o, "(%s, %#x): %d/%d: %#llx\n", cpumode(rec->header.misc),
			      rec->header.misc, (int)smp.pid, (int)smp.tid,
			      (unsigned long long)d.cookie);
		chain(o, d.ips, d.nr, false);
		return 0;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if (rec->header.size < 40 + (rec->header.type == PERF_RECORD_MMAP2 ? 32 : 0))
			break;
		memcpy(u32, p + 8, 8);
		memcpy(u64, p + 16, 24);
		rd_out_printf(o, " %d/%d: [%#llx(%#llx) @ %#llx]: %s\n", (int)u32[0], (int)u32[1],
			      (unsigned long long)u64[0], (unsigned long long)u64[1],
			      (unsigned long long)u64[2],
			      str_at(rec, rec->header.type == PERF_RECORD_MMAP2 ? 72 : 40));
		return 0;
	case PERF_RECORD_COMM:
		if (rec->header.size < 16)
			break;
		memcpy(u32, p + 8, 8);
		rd_out_printf(o, "%s: %s:%d/%d\n",
			      rec->header.misc & PERF_RECORD_MISC_COMM_EXEC ? " exec" : "",
			      str_at(rec, 16), (int)u32[0], (int)u32[1]);
		return 0;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		if (rec->header.size < 32)
			break;
		memcpy(u32, p + 8, 16);
		rd_out_printf(o, "(%d:%d):(%d:%d)\n", (int)u32[0], (int)u32[2], (int)u32[1],
			      (int)u32[3]);
		return 0;
	case PERF_RECORD_LOST:
		if (rec->header.size < 24)
			break;
		memcpy(u64, p + 8, 16);
		rd_out_printf(o, " id: %llu lost: %llu\n", (unsigned long long)u64[0],
			      (unsigned long long)u64[1]);
		return 0;
	default:
		break;
	}
	rd_out_char(o, '\n');
	return 0;
}

int rd_dump(struct rd_session *s, struct rd_out *o, bool header, struct pc_error *err)
{
	struct pd_record rec;
	uint64_t pos = 0;
	int ret;

	if (header) {
		ret = rd_dump_header(s, o, err);
		if (ret)
			return ret;
	}
	for (;;) {
		struct pd_sample id;
		const char *name;
		uint64_t t = 0;

		ret = pd_reader_next(&s->r, &pos, &rec, err);
		if (ret <= 0)
			return ret;
		rd_out_printf(o, "\n%#llx@%s [%#x]: event: %u\n", (unsigned long long)rec.offset,
			      s->r.path, rec.header.size, rec.header.type);
		hexdump(o, rec.data, rec.header.size);
		if (rec.header.type == PERF_RECORD_SAMPLE) {
			ret = pd_parse_sample(&s->r, &rec, &id, err);
			if (ret)
				return ret;
			t = id.time;
		} else if (rec.header.type < PC_RECORD_HEADER_ATTR) {
			ret = pd_parse_sample_id(&s->r, &rec, &id, err);
			if (ret)
				return ret;
			t = id.time;
		}
		name = pd_record_name(rec.header.type);
		rd_out_printf(o, "%llu %#llx [%#x]: PERF_RECORD_%s", (unsigned long long)t,
			      (unsigned long long)rec.offset, rec.header.size,
			      name ? name : "UNKNOWN");
		if (!name)
			rd_out_printf(o, "(%u)", rec.header.type);
		ret = fields(s, o, &rec, err);
		if (ret)
			return ret;
	}
}
