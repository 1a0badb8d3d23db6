/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one perf.data reader and the one writer.
 *
 * Reader: pd_reader_open() maps a file (or slurps a pipe), validates the
 * header, the attrs and the feature table, and then hands out records one
 * at a time with every size checked against the record and the file.
 * Nothing it returns points outside the mapping.  Errors read
 * "FILE: offset 0xOFF: what is wrong".
 *
 * Writer: pd_writer_open() creates the file; attrs are added, then
 * pd_writer_begin_data() writes the header, ids and attrs so that the file
 * is readable from then on even if we are killed (data.size stays 0 until
 * finish, and the reader recovers the whole records); records are appended;
 * pd_writer_finish() writes the feature sections and the final header.
 */
#ifndef PERFCHECK_PERFDATA_H
#define PERFCHECK_PERFDATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfdata/format.h"
#include "util/error.h"

/* ---------------------------------------------------------------- evsel */

/*
 * Where the fixed fields of an event's records sit, computed once from
 * sample_type (pd_evsel_init_layout), the one place that knows the order:
 * in a SAMPLE, u64 words after the header; in the sample_id trailer of
 * other records (with sample_id_all), u64 words from the trailer's start.
 * -1 when the record does not carry the field.
 */
struct pd_sample_place {
	int16_t ip, tid, time, addr, id, stream_id, cpu, period;
};

struct pd_sample_layout {
	struct pd_sample_place sample;	/* in PERF_RECORD_SAMPLE */
	struct pd_sample_place trailer;	/* in the sample_id of other records */
	int16_t time;			/* >= 0 when records of this event carry a time */
	uint16_t trailer_words;		/* size of the sample_id trailer, 0 without sample_id_all */
	uint16_t sample_words;		/* the fixed words that start a SAMPLE */
};

/*
 * One event of a file: its attr and the sample ids that point to it.  An
 * evsel never moves while its reader is open (a pipe's later ATTR records
 * do not invalidate pointers to earlier ones); idx is its index.
 */
struct pd_evsel {
	union pc_attr attr;	/* zero-extended to PC_ATTR_SIZE_MAX */
	uint32_t file_attr_size;	/* attr.size as stored in the file */
	uint32_t idx;		/* position among the file's evsels */
	uint64_t *ids;
	uint32_t nr_ids;
	char *name;		/* from EVENT_DESC, else synthesized ("cpu-clock") */
	/* derived from sample_type, filled by pd_evsel_init_layout() */
	uint32_t id_pos;	/* u64 index of the id in a SAMPLE, or -1 */
	uint32_t is_pos;	/* u64 index of the id from the END of sample_id, or -1 */
	uint32_t sample_id_size;	/* bytes of the sample_id trailer */
	struct pd_sample_layout layout;
};

/* Fills id_pos, is_pos, sample_id_size and layout from the attr. */
void pd_evsel_init_layout(struct pd_evsel *evsel);
/* Canonical name for an attr's type/config ("cpu-clock", "page-faults", "raw 0x..."). */
const char *pd_event_name(const struct perf_event_attr *attr, char *buf, size_t size);
/*
 * The name perf gives an event whose file names none (a pipe without
 * EVENT_UPDATE names, a file without EVENT_DESC): the canonical name with
 * perf 6.1's modifiers from the attr ("cpu-clock:u", "cycles:ppp",
 * "raw 0x1234:k").
 */
const char *pd_event_name_from_attr(const struct perf_event_attr *attr, char *buf, size_t size);

/* --------------------------------------------------------------- sample */

struct pd_read_value {
	uint64_t value;
	uint64_t id;
	uint64_t lost;
};

/* PERF_SAMPLE_READ */
struct pd_sample_read {
	uint64_t nr;			/* values: 1 unless PERF_FORMAT_GROUP */
	uint64_t time_enabled, time_running;
	const uint64_t *raw;		/* values as in the record, nr entries */
	struct pd_read_value first;	/* the first (or only) value, decoded */
};

/* PERF_SAMPLE_CALLCHAIN: ips point into the record (8-byte aligned) */
struct pd_sample_chain {
	uint64_t nr;
	const uint64_t *ips;
	/* deferred: the chain ends with PERF_CONTEXT_USER_DEFERRED, cookie */
	bool deferred;
	uint64_t cookie;
};

/* PERF_SAMPLE_BRANCH_STACK */
struct pd_sample_branch {
	uint64_t nr;
	uint64_t hw_idx;
	const uint64_t *entries;	/* 3 u64 per entry */
	const uint64_t *counters;	/* nr u64, or NULL */
};

/* The third word of a branch entry (perf_branch_entry's bit fields, low bits first) */
struct pd_branch_flags {
	bool mispred, predicted, in_tx, abort;
	uint16_t cycles;
	uint8_t type;		/* PERF_BR_*; PERF_BR_EXTEND_ABI: new_type says */
	uint8_t spec;		/* PERF_BR_SPEC_* */
	uint8_t new_type;	/* PERF_BR_NEW_* */
	uint8_t priv;		/* PERF_BR_PRIV_* */
};

static inline struct pd_branch_flags pd_branch_flags(uint64_t w)
{
	struct pd_branch_flags f = {
		.mispred = w & 1, .predicted = (w >> 1) & 1, .in_tx = (w >> 2) & 1,
		.abort = (w >> 3) & 1, .cycles = (uint16_t)(w >> 4), .type = (w >> 20) & 0xf,
		.spec = (w >> 24) & 3, .new_type = (w >> 26) & 0xf, .priv = (w >> 30) & 7,
	};

	return f;
}

/* PERF_SAMPLE_REGS_USER / PERF_SAMPLE_REGS_INTR */
struct pd_sample_regs {
	uint64_t abi;
	const uint64_t *regs;		/* popcount(the attr's mask) u64 */
};

/* PERF_SAMPLE_STACK_USER */
struct pd_sample_stack {
	uint64_t size;
	const void *data;
	uint64_t dyn_size;
};

/* The memory-access fields: -d, -W, --phys-data, --data/code-page-size */
struct pd_sample_mem {
	uint64_t weight;
	uint64_t data_src;
	uint64_t transaction;
	uint64_t phys_addr;
	uint64_t data_page_size;
	uint64_t code_page_size;
};

/* A blob the sample carries (PERF_SAMPLE_RAW, PERF_SAMPLE_AUX) */
struct pd_sample_blob {
	uint64_t size;
	const void *data;
};

struct pd_sample {
	const struct pd_evsel *evsel;
	uint64_t id;
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;
	uint64_t addr;
	uint64_t stream_id;
	uint32_t cpu;
	uint64_t period;
	uint64_t cgroup;
	struct pd_sample_read read;
	struct pd_sample_chain chain;
	struct pd_sample_blob raw;
	struct pd_sample_branch branch;
	struct pd_sample_regs regs_user;
	struct pd_sample_stack stack_user;
	struct pd_sample_regs regs_intr;
	struct pd_sample_mem mem;
	struct pd_sample_blob aux;
};

/* ------------------------------------------------------------- records */

struct pd_record {
	uint64_t offset;		/* file offset of the header */
	struct perf_event_header header;
	const void *data;		/* the whole record, header included, 8-byte aligned */
};

/* PERF_RECORD_CALLCHAIN_DEFERRED, decoded */
struct pd_deferred {
	uint64_t cookie;
	uint64_t nr;
	const uint64_t *ips;
};

/* ---------------------------------------------------------------- reader */

/* A pipe read as it comes (stream.c); NULL for a mapped or slurped input. */
struct pd_stream {
	int fd;
	bool own_fd, eof;
	uint8_t *buf;			/* [head, tail) not read yet */
	size_t cap, head, tail;
	uint64_t off;			/* input offset of buf[head] */
	uint8_t *feat[PD_FEAT_BITS];	/* feature payloads, each copied out */
};

struct pd_dir;

struct pd_reader {
	char *path;
	const uint8_t *base;		/* the whole file */
	size_t size;
	bool mapped;			/* base is an mmap, else malloc'd (pipe) */
	bool pipe_format;		/* PERFILE2 with header size 16 */
	bool byte_swapped;
	struct pd_file_header header;
	struct pd_evsel *evsels;
	uint32_t nr_evsels;
	uint64_t data_start, data_end;	/* [start, end) in the file */
	bool data_size_recovered;	/* header said 0: read to the last whole record */
	struct pd_file_section features[PD_FEAT_BITS];	/* size 0 where absent or empty */
	uint64_t feat_present[4];	/* the header's bits; a pipe's FEATURE records */
	bool sample_id_all;		/* every evsel agrees; mixed files are rejected */
	uint8_t *scratch;		/* aligned copy of a misaligned record */
	/* the id -> evsel map, sorted by id */
	struct pd_id_map { uint64_t id; uint32_t evsel; } *id_map;
	uint32_t nr_id_map;
	struct pd_stream *stream;	/* a pipe: base is NULL, features copied */
	struct pd_dir *dir;		/* a perf.data directory's data.N files, or NULL */
};

/*
 * The file a record offset lies in (a perf.data directory's data.N, else the
 * reader's path) and the offset in that file.
 */
const char *pd_reader_where(const struct pd_reader *r, uint64_t off, uint64_t *local);

/* The file has feature bit (a section, empty for some: BRANCH_STACK, STAT) */
static inline bool pd_reader_has_feature(const struct pd_reader *r, int bit)
{
	return bit >= 0 && bit < PD_FEAT_BITS && (r->feat_present[bit / 64] >> (bit % 64) & 1);
}

/* path "-" reads standard input (pipe or file format).  Warnings (recovered
 * data size) go to pc_warn. */
int pd_reader_open(struct pd_reader *r, const char *path, struct pc_error *err);
void pd_reader_close(struct pd_reader *r);

/*
 * Iterates over the data section.  *pos starts at 0 (meaning data_start).
 * Returns 1 and fills rec, 0 at the end, or -errno with err set.  A record
 * that runs past data_end is an error, except in a recovered file where the
 * torn last record ends the iteration with a warning.  In pipe format the
 * attr records (HEADER_ATTR) are consumed into r->evsels as they come and
 * are also returned.
 */
int pd_reader_next(struct pd_reader *r, uint64_t *pos, struct pd_record *rec,
		   struct pc_error *err);

/* The evsel a record belongs to (by sample id, or the only one). NULL if none. */
const struct pd_evsel *pd_reader_evsel_of(const struct pd_reader *r, uint64_t id);

/* Parses a PERF_RECORD_SAMPLE. */
int pd_parse_sample(const struct pd_reader *r, const struct pd_record *rec,
		    struct pd_sample *s, struct pc_error *err);
/* Parses the sample_id trailer of a non-sample record (pid/tid/time/id/cpu
 * set, rest zero).  Returns 0 with s->evsel NULL when there is no trailer. */
int pd_parse_sample_id(const struct pd_reader *r, const struct pd_record *rec,
		       struct pd_sample *s, struct pc_error *err);
/* Parses PERF_RECORD_CALLCHAIN_DEFERRED (plus its sample_id into s if non-NULL). */
int pd_parse_deferred(const struct pd_reader *r, const struct pd_record *rec,
		      struct pd_deferred *d, struct pd_sample *s, struct pc_error *err);
/*
 * The same three with the record's event known (evsel from pd_record_time,
 * or NULL: found by the record's id as above).
 */
int pd_parse_sample_as(const struct pd_reader *r, const struct pd_evsel *evsel,
		       const struct pd_record *rec, struct pd_sample *s, struct pc_error *err);
int pd_parse_sample_id_as(const struct pd_reader *r, const struct pd_evsel *evsel,
			  const struct pd_record *rec, struct pd_sample *s, struct pc_error *err);
int pd_parse_deferred_as(const struct pd_reader *r, const struct pd_evsel *evsel,
			 const struct pd_record *rec, struct pd_deferred *d, struct pd_sample *s,
			 struct pc_error *err);
/*
 * A record's event and time without parsing it (what a time-order queue
 * needs; the parse can wait until the record leaves it): true when the
 * record carries a time and its places can be read, false otherwise (no
 * time, or a defect that the parse will name).
 */
bool pd_record_time(const struct pd_reader *r, const struct pd_record *rec,
		    const struct pd_evsel **evsel, uint64_t *time);

/* Feature section payload, or -ENOENT. */
int pd_reader_feature(const struct pd_reader *r, int feat, const void **data,
		      size_t *size);
/* CLOCK_DATA (perf record -k): the clock and a (wall clock, clock) pair read together. */
struct pd_clock_data {
	uint32_t version, clockid;
	uint64_t tod_ns, clockid_ns;
};
/* 0, or -ENOENT without the feature (or one too short to hold them). */
int pd_reader_clock_data(const struct pd_reader *r, struct pd_clock_data *c);
/* String features (HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC, CPUID): copy into buf. */
int pd_reader_feature_string(const struct pd_reader *r, int feat, char *buf,
			     size_t size, struct pc_error *err);
/* CMDLINE: calls fn for each argument in order. */
int pd_reader_cmdline(const struct pd_reader *r,
		      int (*fn)(const char *arg, void *ctx), void *ctx,
		      struct pc_error *err);
/* NRCPUS */
int pd_reader_nrcpus(const struct pd_reader *r, uint32_t *avail, uint32_t *online,
		     struct pc_error *err);
/* GROUP_DESC: fn for each group (its name, leader's evsel index, member count). */
int pd_reader_groups(const struct pd_reader *r,
		     int (*fn)(const char *name, uint32_t leader, uint32_t nr_members, void *ctx),
		     void *ctx, struct pc_error *err);
/*
 * EVENT_DESC as the feature holds it: fn for each event with its attr
 * (attr_size bytes), name and ids (nr_ids u64s, maybe unaligned).
 */
int pd_reader_event_desc(const struct pd_reader *r,
			 int (*fn)(const uint8_t *attr, uint32_t attr_size, const char *name,
				   const uint8_t *ids, uint32_t nr_ids, void *ctx),
			 void *ctx, struct pc_error *err);
/* BUILD_ID: calls fn for each entry. */
int pd_reader_build_ids(const struct pd_reader *r,
			int (*fn)(const struct pd_build_id_entry *e, const uint8_t *id,
				  size_t id_size, const char *filename, void *ctx),
			void *ctx, struct pc_error *err);

/* ---------------------------------------------------------------- writer */

struct pd_writer_feature {
	uint8_t *data;
	size_t size;
};

struct pd_writer {
	char *path;
	int fd;
	struct pd_evsel *evsels;
	uint32_t nr_evsels;
	uint32_t attr_size;		/* largest attr.size among evsels */
	uint64_t data_start;
	uint64_t data_size;		/* bytes of whole records on disk */
	uint8_t *buf;			/* pending records */
	size_t buf_len, buf_cap;
	struct pd_writer_feature features[PD_FEAT_BITS];
	bool data_begun;
	bool failed;			/* a write failed; finish truncates to data_size */
	uint64_t nr_records;
	bool pipe;			/* pipe format, written in order (-o -) */
	bool records_only;		/* a directory's data.N: records, no header */
	bool no_evsels_ok;		/* begin_data without events (stat record -n) */
	bool pipe_no_features;		/* a pipe of ATTRs and records alone (stat record) */
	struct pd_writer_comp {		/* -z: data as COMPRESSED records */
		struct pd_zstd *zstd;	/* NULL: not compressed */
		int level;
		uint32_t mmap_len;	/* HEADER_COMPRESSED: the reader's buffer */
	} comp;
};

int pd_writer_open(struct pd_writer *w, const char *path, struct pc_error *err);
/* The pipe format on fd (stdout for -o -): header, ATTR and FEATURE records at
 * begin_data, BUILD_ID records at finish; name is for messages. */
int pd_writer_open_pipe(struct pd_writer *w, int fd, const char *name, struct pc_error *err);
/*
 * A perf.data directory's data.N (record --threads): whole records from
 * offset 0, no header, no attrs, no features; finish flushes, cuts a torn
 * tail and closes.  -z works as in a file: the records become one zstd
 * stream of COMPRESSED records of its own.
 */
int pd_writer_open_records(struct pd_writer *w, const char *path, struct pc_error *err);
/* The name messages use, when the file was moved by someone else (its directory). */
int pd_writer_set_path(struct pd_writer *w, const char *path, struct pc_error *err);
/* Renames the file (its messages use the new name). */
int pd_writer_rename(struct pd_writer *w, const char *path, struct pc_error *err);
/*
 * Before begin_data: the data goes out as zstd PERF_RECORD_COMPRESSED records
 * of at most mmap_len decompressed bytes each, with the HEADER_COMPRESSED
 * feature (level, ratio, mmap_len) that readers size their buffer by.
 */
int pd_writer_set_compression(struct pd_writer *w, int level, uint32_t mmap_len,
			      struct pc_error *err);
/* Bytes of records given and bytes written for them (equal without -z). */
void pd_writer_totals(const struct pd_writer *w, uint64_t *in, uint64_t *out);
/* attr->size says how many bytes of attr are meaningful; it is kept as is. */
int pd_writer_add_evsel(struct pd_writer *w, const struct perf_event_attr *attr,
			const uint64_t *ids, uint32_t nr_ids, const char *name,
			struct pc_error *err);
/* Adds ids to an evsel added before (ids become known after the open). */
int pd_writer_add_ids(struct pd_writer *w, uint32_t evsel, const uint64_t *ids,
		      uint32_t nr_ids, struct pc_error *err);
int pd_writer_begin_data(struct pd_writer *w, struct pc_error *err);
/*
 * Appends whole records (one or many, as in a ring buffer).  Each record's
 * header.size is checked.  On a failed write (ENOSPC, EIO) returns -errno;
 * what was written before stays and finish keeps it.
 */
int pd_writer_write(struct pd_writer *w, const void *records, size_t len,
		    struct pc_error *err);
int pd_writer_flush(struct pd_writer *w, struct pc_error *err);

/* Feature payloads, set before finish. */
/*
 * A feature section's payload built field by field in perf's encodings;
 * pd_feat_commit gives it to the writer (and frees it on error: -ENOMEM
 * when a put failed, -EINVAL for a feature number out of range).
 */
struct pd_feat {
	uint8_t *data;
	size_t len, cap;
	bool oom;
};

void pd_feat_put(struct pd_feat *b, const void *p, size_t n);
void pd_feat_u32(struct pd_feat *b, uint32_t v);
void pd_feat_u64(struct pd_feat *b, uint64_t v);
/* perf's header string: u32 padded length, the bytes and NULs to a 64-byte multiple */
void pd_feat_string(struct pd_feat *b, const char *s);
int pd_feat_commit(struct pd_writer *w, int feat, struct pd_feat *b);
int pd_writer_set_feature(struct pd_writer *w, int feat, const void *data,
			  size_t size);
int pd_writer_set_string(struct pd_writer *w, int feat, const char *s);
int pd_writer_set_nrcpus(struct pd_writer *w, uint32_t avail, uint32_t online);
int pd_writer_set_cmdline(struct pd_writer *w, int argc, char *const argv[]);
int pd_writer_add_build_id(struct pd_writer *w, bool kernel, int32_t pid,
			   const uint8_t *id, size_t id_size, const char *filename);
/* HOSTNAME, OSRELEASE, ARCH (uname), VERSION, NRCPUS of this machine. */
int pd_writer_set_host_features(struct pd_writer *w, const char *version);

/* Writes pending data, EVENT_DESC from the evsels, the features, the final
 * header; closes.  After a failed write it still produces a valid file
 * holding every whole record written. */
int pd_writer_finish(struct pd_writer *w, struct pc_error *err);
/* Frees without finishing (the file stays as it is on disk). */
void pd_writer_abort(struct pd_writer *w);

#endif
