// SPDX-License-Identifier: GPL-2.0
/* Decoding the records of perf stat record files, every size checked. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "perfdata/codec.h"

int pd_record_too_short(const char *path, const struct pd_record *rec, size_t need,
			struct pc_error *err)
{
	return pc_error_set(err, EINVAL, "%s: offset 0x%llx: %s record of %u bytes is too short "
			    "for its fields (%zu bytes)", path, (unsigned long long)rec->offset,
			    pd_record_name(rec->header.type) ?: "UNKNOWN", rec->header.size, need);
}

static uint64_t u64_at(const struct pd_record *rec, size_t off)
{
	uint64_t v;

	memcpy(&v, (const uint8_t *)rec->data + off, 8);
	return v;
}

static uint16_t u16_at(const struct pd_record *rec, size_t off)
{
	uint16_t v;

	memcpy(&v, (const uint8_t *)rec->data + off, 2);
	return v;
}

int pd_decode_stat(const char *path, const struct pd_record *rec, struct pd_stat *st,
		   struct pc_error *err)
{
	if (rec->header.size < 48)
		return pd_record_too_short(path, rec, 48, err);
	st->id = u64_at(rec, 8);
	memcpy(&st->cpu, (const uint8_t *)rec->data + 16, 4);
	memcpy(&st->thread, (const uint8_t *)rec->data + 20, 4);
	st->val = u64_at(rec, 24);
	st->ena = u64_at(rec, 32);
	st->run = u64_at(rec, 40);
	return 0;
}

int pd_decode_stat_round(const char *path, const struct pd_record *rec,
			 struct pd_stat_round *rd, struct pc_error *err)
{
	if (rec->header.size < 24)
		return pd_record_too_short(path, rec, 24, err);
	rd->type = u64_at(rec, 8);
	rd->time = u64_at(rec, 16);
	return 0;
}

int pd_decode_stat_config(const char *path, const struct pd_record *rec,
			  struct pd_stat_config *c, struct pc_error *err)
{
	size_t size = rec->header.size;
	bool later = false;
	uint64_t nr;

	if (size < 16)
		return pd_record_too_short(path, rec, 16, err);
	nr = u64_at(rec, 8);
	if (nr > (size - 16) / 16)
		return pd_record_too_short(path, rec, 16 + nr * 16, err);
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t tag = u64_at(rec, 16 + i * 16), val = u64_at(rec, 24 + i * 16);

		if (tag == 0)
			c->aggr_mode = val;
		else if (tag == 1)
			c->interval = val;
		else if (tag == 2)
			c->scale = val;
		else if (tag == 3)
			later = true;
	}
	if (later) {
		/* none, global, socket, die, cluster, cache, core, thread, unset, node */
		static const uint64_t to_6_1[] = {
			PD_AGGR_NONE, PD_AGGR_GLOBAL, PD_AGGR_SOCKET, PD_AGGR_DIE, PD_AGGR_OTHER,
			PD_AGGR_OTHER, PD_AGGR_CORE, PD_AGGR_THREAD, PD_AGGR_UNSET, PD_AGGR_NODE,
		};

		c->aggr_mode = c->aggr_mode < sizeof(to_6_1) / sizeof(to_6_1[0]) ?
			       to_6_1[c->aggr_mode] : PD_AGGR_OTHER;
	}
	return 0;
}

static int cpus_from_mask(const struct pd_record *rec, size_t at, size_t bytes,
			  struct pd_cpu_list *out)
{
	const uint8_t *mask = (const uint8_t *)rec->data + at;
	uint32_t n = 0;

	for (size_t i = 0; i < bytes; i++)
		n += (uint32_t)__builtin_popcount(mask[i]);
	out->cpus = calloc(n ? n : 1, sizeof(*out->cpus));
	if (!out->cpus)
		return -ENOMEM;
	out->nr = 0;
	for (size_t bit = 0; bit < bytes * 8; bit++)
		if (mask[bit / 8] & (1u << (bit % 8)))
			out->cpus[out->nr++] = (int32_t)bit;
	return 0;
}

int pd_decode_cpu_map(const char *path, const struct pd_record *rec, size_t off,
		      struct pd_cpu_list *out, struct pc_error *err)
{
	size_t size = rec->header.size;
	struct pd_cpu_list l = { 0 };
	uint16_t type, nr;

	if (size < off + 4)
		return pd_record_too_short(path, rec, off + 4, err);
	type = u16_at(rec, off);
	nr = u16_at(rec, off + 2);
	if (type == 0) {
		/* u16 nr, u16 cpu[nr]; (u16)-1 is any cpu */
		if (size < off + 4 + 2ULL * nr)
			return pd_record_too_short(path, rec, off + 4 + 2ULL * nr, err);
		l.cpus = calloc(nr ? nr : 1, sizeof(*l.cpus));
		if (!l.cpus)
			return pc_error_set(err, ENOMEM, "out of memory");
		for (l.nr = 0; l.nr < nr; l.nr++) {
			uint16_t cpu = u16_at(rec, off + 4 + 2ULL * l.nr);

			l.cpus[l.nr] = cpu == UINT16_MAX ? -1 : cpu;
		}
	} else if (type == 1) {
		/* u16 nr (of words), u16 word size; 8-byte words after 4 bytes of padding */
		uint16_t long_size;
		size_t at;

		if (size < off + 6)
			return pd_record_too_short(path, rec, off + 6, err);
		long_size = u16_at(rec, off + 4);
		if (long_size != 4 && long_size != 8)
			return pc_error_set(err, EINVAL, "%s: offset 0x%llx: CPU_MAP mask words of %u "
					    "bytes (4 or 8 expected)", path,
					    (unsigned long long)(rec->offset + off + 4), long_size);
		at = off + (long_size == 4 ? 6 : 10);
		if (size < at + (size_t)nr * long_size)
			return pd_record_too_short(path, rec, at + (size_t)nr * long_size, err);
		if (cpus_from_mask(rec, at, (size_t)nr * long_size, &l))
			return pc_error_set(err, ENOMEM, "out of memory");
	} else if (type == 2) {
		/* u8 any_cpu, u8 pad, u16 start, u16 end */
		uint8_t any = ((const uint8_t *)rec->data)[off + 2];
		uint16_t start, end;

		if (size < off + 8)
			return pd_record_too_short(path, rec, off + 8, err);
		start = u16_at(rec, off + 4);
		end = u16_at(rec, off + 6);
		if (end < start)
			return pc_error_set(err, EINVAL, "%s: offset 0x%llx: CPU_MAP range %u-%u ends "
					    "before it starts", path,
					    (unsigned long long)(rec->offset + off + 4), start, end);
		l.cpus = calloc((size_t)(end - start) + 2, sizeof(*l.cpus));
		if (!l.cpus)
			return pc_error_set(err, ENOMEM, "out of memory");
		if (any)
			l.cpus[l.nr++] = -1;
		for (uint32_t c = start; c <= end; c++)
			l.cpus[l.nr++] = (int32_t)c;
	} else {
		return pc_error_set(err, EINVAL, "%s: offset 0x%llx: CPU_MAP of unknown type %u",
				    path, (unsigned long long)(rec->offset + off), type);
	}
	*out = l;
	return 0;
}

int pd_decode_thread_map(const char *path, const struct pd_record *rec,
			 struct pd_thread_list *out, struct pc_error *err)
{
	size_t size = rec->header.size;
	struct pd_thread_list t = { 0 };
	uint64_t nr;

	if (size < 16)
		return pd_record_too_short(path, rec, 16, err);
	nr = u64_at(rec, 8);
	if (nr > (size - 16) / 24)
		return pd_record_too_short(path, rec, 16 + nr * 24, err);
	t.pids = calloc(nr ? nr : 1, sizeof(*t.pids));
	t.comms = calloc(nr ? nr : 1, sizeof(*t.comms));
	if (!t.pids || !t.comms) {
		free(t.pids);
		free(t.comms);
		return pc_error_set(err, ENOMEM, "out of memory");
	}
	for (t.nr = 0; t.nr < nr; t.nr++) {
		t.pids[t.nr] = (int32_t)u64_at(rec, 16 + 24ULL * t.nr);
		/* a comm of 16 bytes may have no NUL: the last byte is the end */
		memcpy(t.comms[t.nr], (const uint8_t *)rec->data + 24 + 24ULL * t.nr, 15);
	}
	*out = t;
	return 0;
}

int pd_decode_id_index(const char *path, const struct pd_record *rec, struct pd_id_entry **out,
		       uint64_t *nr, struct pc_error *err)
{
	size_t size = rec->header.size;
	struct pd_id_entry *e;
	uint64_t n;

	if (size < 16)
		return pd_record_too_short(path, rec, 16, err);
	n = u64_at(rec, 8);
	if (n > (size - 16) / 32)
		return pd_record_too_short(path, rec, 16 + n * 32, err);
	e = calloc(n ? n : 1, sizeof(*e));
	if (!e)
		return pc_error_set(err, ENOMEM, "out of memory");
	for (uint64_t i = 0; i < n; i++) {
		e[i].id = u64_at(rec, 16 + i * 32);
		e[i].idx = u64_at(rec, 24 + i * 32);
		e[i].cpu = (int64_t)u64_at(rec, 32 + i * 32);
		e[i].tid = (int64_t)u64_at(rec, 40 + i * 32);
	}
	*out = e;
	*nr = n;
	return 0;
}

int pd_decode_event_update(const char *path, const struct pd_record *rec,
			   struct pd_event_update *u, struct pc_error *err)
{
	size_t size = rec->header.size;
	const char *str = (const char *)rec->data + 24;

	if (size < 24)
		return pd_record_too_short(path, rec, 24, err);
	memset(u, 0, sizeof(*u));
	u->type = u64_at(rec, 8);
	u->id = u64_at(rec, 16);
	if (u->type == PD_EVENT_UPDATE_SCALE) {
		if (size < 32)
			return pd_record_too_short(path, rec, 32, err);
		memcpy(&u->scale, str, sizeof(u->scale));
	} else if (u->type == PD_EVENT_UPDATE_UNIT || u->type == PD_EVENT_UPDATE_NAME) {
		if (size == 24 || !memchr(str, '\0', size - 24))
			return pc_error_set(err, EINVAL, "%s: offset 0x%llx: EVENT_UPDATE string is "
					    "not NUL-terminated", path,
					    (unsigned long long)rec->offset + 24);
		u->str = str;
	}
	return 0;
}
