// SPDX-License-Identifier: GPL-2.0
/*
 * perf_event_attr as text, in the layouts of perf record -vv and
 * perf evlist -v.  Field order, names and value formats follow what the
 * system perf (6.1) prints, extended with the fields it does not know yet
 * (defer_callchain/defer_output, aux_action bits, config3 and the VER9 word)
 * at the places newer perf puts them.  perf drops sample_type bits it has no
 * name for; we print the rest as hex so that nothing set goes unseen.
 */
#include "attr/attr.h"

#include <inttypes.h>
#include <string.h>

#include "uapi/perf_compat.h"

static const char *const sample_type_names[] = {
	"IP", "TID", "TIME", "ADDR", "READ", "CALLCHAIN", "ID", "CPU",
	"PERIOD", "STREAM_ID", "RAW", "BRANCH_STACK", "REGS_USER", "STACK_USER",
	"WEIGHT", "DATA_SRC", "IDENTIFIER", "TRANSACTION", "REGS_INTR",
	"PHYS_ADDR", "AUX", "CGROUP", "DATA_PAGE_SIZE", "CODE_PAGE_SIZE",
	"WEIGHT_STRUCT",
};

static const char *const read_format_names[] = {
	"TOTAL_TIME_ENABLED", "TOTAL_TIME_RUNNING", "ID", "GROUP", "LOST",
};

static const char *const branch_type_names[] = {
	"USER", "KERNEL", "HV", "ANY", "ANY_CALL", "ANY_RETURN", "IND_CALL",
	"ABORT_TX", "IN_TX", "NO_TX", "COND", "CALL_STACK", "IND_JUMP", "CALL",
	"NO_FLAGS", "NO_CYCLES", "TYPE_SAVE", "HW_INDEX", "PRIV_SAVE", "COUNTERS",
};

/* Bit positions of the flags word; precise_ip spans bits 15-16. */
static const char *const flag_names[40] = {
	"disabled", "inherit", "pinned", "exclusive", "exclude_user",
	"exclude_kernel", "exclude_hv", "exclude_idle", "mmap", "comm", "freq",
	"inherit_stat", "enable_on_exec", "task", "watermark", "precise_ip",
	NULL, "mmap_data", "sample_id_all", "exclude_host", "exclude_guest",
	"exclude_callchain_kernel", "exclude_callchain_user", "mmap2",
	"comm_exec", "use_clockid", "context_switch", "write_backward",
	"namespaces", "ksymbol", "bpf_event", "aux_output", "cgroup",
	"text_poke", "build_id", "inherit_thread", "remove_on_exec", "sigtrap",
	"defer_callchain", "defer_output",
};

const char *pc_attr_flag_name(int bit)
{
	if (bit < 0 || bit >= (int)(sizeof(flag_names) / sizeof(flag_names[0])))
		return NULL;
	return flag_names[bit];
}

static int bits_str(char *buf, size_t size, uint64_t value,
		    const char *const *names, size_t nr_names)
{
	size_t len = 0;
	uint64_t rest = value;

	if (size == 0)
		return 0;
	buf[0] = '\0';
	for (size_t i = 0; i < nr_names && i < 64; i++) {
		if (!(value & (1ULL << i)))
			continue;
		rest &= ~(1ULL << i);
		len += (size_t)snprintf(buf + (len < size ? len : size - 1),
					len < size ? size - len : 1, "%s%s",
					len ? "|" : "", names[i]);
	}
	if (rest)
		len += (size_t)snprintf(buf + (len < size ? len : size - 1),
					len < size ? size - len : 1, "%s%#" PRIx64,
					len ? "|" : "", rest);
	return (int)len;
}

#define NR(a) (sizeof(a) / sizeof((a)[0]))

int pc_attr_sample_type_str(char *buf, size_t size, uint64_t value)
{
	return bits_str(buf, size, value, sample_type_names, NR(sample_type_names));
}

int pc_attr_read_format_str(char *buf, size_t size, uint64_t value)
{
	return bits_str(buf, size, value, read_format_names, NR(read_format_names));
}

int pc_attr_branch_type_str(char *buf, size_t size, uint64_t value)
{
	return bits_str(buf, size, value, branch_type_names, NR(branch_type_names));
}

/* A field outside the meaningful size reads as zero, as the kernel does. */
static uint64_t field(const void *attr, size_t size, size_t off, size_t width)
{
	uint64_t v = 0;

	if (off + width > size)
		return 0;
	switch (width) {
	case 2: { uint16_t x; memcpy(&x, (const char *)attr + off, 2); v = x; break; }
	case 4: { uint32_t x; memcpy(&x, (const char *)attr + off, 4); v = x; break; }
	default: memcpy(&v, (const char *)attr + off, 8); break;
	}
	return v;
}

enum fmt { U, S32, HEX, SAMPLE_TYPE, READ_FORMAT, BRANCH_TYPE };

struct field_desc {
	const char *name;
	uint16_t off;
	uint8_t width;
	uint8_t fmt;
};

static const struct field_desc head_fields[] = {
	{ "type", 0, 4, U },
	{ "size", 4, 4, U },
	{ "config", 8, 8, HEX },
	{ "{ sample_period, sample_freq }", 16, 8, U },
	{ "sample_type", 24, 8, SAMPLE_TYPE },
	{ "read_format", 32, 8, READ_FORMAT },
};

static const struct field_desc tail_fields[] = {
	{ "{ wakeup_events, wakeup_watermark }", 48, 4, U },
	{ "bp_type", 52, 4, U },
	{ "{ bp_addr, config1 }", 56, 8, HEX },
	{ "{ bp_len, config2 }", 64, 8, HEX },
	{ "branch_sample_type", 72, 8, BRANCH_TYPE },
	{ "sample_regs_user", 80, 8, HEX },
	{ "sample_stack_user", 88, 4, U },
	{ "clockid", 92, 4, S32 },
	{ "sample_regs_intr", 96, 8, HEX },
	{ "aux_watermark", 104, 4, U },
	{ "sample_max_stack", 108, 2, U },
	{ "aux_sample_size", 112, 4, U },
	{ NULL, 116, 4, U },		/* aux_action bits, below */
	{ "sig_data", 120, 8, U },
	{ "config3", PC_ATTR_OFF_config3, 8, HEX },
	{ "config4", PC_ATTR_OFF_config4, 8, HEX },
};

static const char *const aux_action_names[] = {
	"aux_start_paused", "aux_pause", "aux_resume",
};

static int emit(const struct field_desc *f, uint64_t v, pc_attr_field_fn fn, void *priv)
{
	char val[512];

	switch (f->fmt) {
	case S32:
		snprintf(val, sizeof(val), "%" PRId32, (int32_t)(uint32_t)v);
		break;
	case HEX:
		snprintf(val, sizeof(val), "%#" PRIx64, v);
		break;
	case SAMPLE_TYPE:
		pc_attr_sample_type_str(val, sizeof(val), v);
		break;
	case READ_FORMAT:
		pc_attr_read_format_str(val, sizeof(val), v);
		break;
	case BRANCH_TYPE:
		pc_attr_branch_type_str(val, sizeof(val), v);
		break;
	default:
		snprintf(val, sizeof(val), "%" PRIu64, v);
		break;
	}
	return fn(f->name, val, priv);
}

int pc_attr_for_each_field(const void *attr, size_t size, pc_attr_field_fn fn, void *priv)
{
	uint64_t flags = field(attr, size, PC_ATTR_FLAGS_OFFSET, 8);
	char val[32];
	int ret;

	for (size_t i = 0; i < NR(head_fields); i++) {
		const struct field_desc *f = &head_fields[i];
		uint64_t v = field(attr, size, f->off, f->width);

		/* perf always prints type and size, even when 0 */
		if (!v && i > 1)
			continue;
		ret = emit(f, v, fn, priv);
		if (ret)
			return ret;
	}
	for (int bit = 0; bit < (int)NR(flag_names); bit++) {
		uint64_t v;

		if (!flag_names[bit])
			continue;
		v = (flags >> bit) & (bit == PC_ATTR_precise_ip ? 3 : 1);
		if (!v)
			continue;
		snprintf(val, sizeof(val), "%" PRIu64, v);
		ret = fn(flag_names[bit], val, priv);
		if (ret)
			return ret;
	}
	for (size_t i = 0; i < NR(tail_fields); i++) {
		const struct field_desc *f = &tail_fields[i];
		uint64_t v = field(attr, size, f->off, f->width);

		if (!v)
			continue;
		if (!f->name) {
			for (size_t b = 0; b < NR(aux_action_names); b++) {
				if (!(v & (1ULL << b)))
					continue;
				ret = fn(aux_action_names[b], "1", priv);
				if (ret)
					return ret;
			}
			continue;
		}
		ret = emit(f, v, fn, priv);
		if (ret)
			return ret;
	}
	return 0;
}

static int vv_line(const char *name, const char *value, void *priv)
{
	fprintf(priv, "  %-32s %s\n", name, value);
	return 0;
}

int pc_attr_fprintf(FILE *fp, const void *attr, size_t size)
{
	return pc_attr_for_each_field(attr, size, vv_line, fp);
}

#define RULE "------------------------------------------------------------\n"

int pc_attr_fprintf_block(FILE *fp, const void *attr, size_t size)
{
	fputs(RULE "perf_event_attr:\n", fp);
	pc_attr_fprintf(fp, attr, size);
	fputs(RULE, fp);
	return 0;
}

struct line_buf {
	char *buf;
	size_t len, used;
	int truncated;
};

static int line_field(const char *name, const char *value, void *priv)
{
	struct line_buf *lb = priv;
	size_t need = strlen(name) + strlen(value) + 4;

	if (lb->truncated)
		return 0;
	if (lb->used + need + 4 > lb->len) {
		/* leave room for the ellipsis */
		if (lb->used + 4 <= lb->len)
			lb->used += (size_t)snprintf(lb->buf + lb->used, lb->len - lb->used, "...");
		lb->truncated = 1;
		return 0;
	}
	lb->used += (size_t)snprintf(lb->buf + lb->used, lb->len - lb->used, "%s%s: %s",
				     lb->used ? ", " : "", name, value);
	return 0;
}

int pc_attr_snprintf_line(char *buf, size_t len, const void *attr, size_t size)
{
	struct line_buf lb = { buf, len, 0, 0 };

	if (!len)
		return 0;
	buf[0] = '\0';
	pc_attr_for_each_field(attr, size, line_field, &lb);
	return (int)lb.used;
}
