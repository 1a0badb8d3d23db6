/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The record codec beside the sample parser (perfdata.h): an encoder for
 * every record type the project writes, and decoders for the non-sample
 * ones, so that the recorder, the fixtures generator and the tests write
 * records one way and the reader reads them the same way.
 *
 * Encoders append one whole record to a growing buffer: 8-byte padded,
 * header.size set, and with attr->sample_id_all the sample_id trailer
 * made from id (its pid, tid, time, id, stream_id, cpu; NULL: zeros).
 * They return 0 or -ENOMEM (the buffer keeps what it had).
 */
#ifndef PERFCHECK_PERFDATA_CODEC_H
#define PERFCHECK_PERFDATA_CODEC_H

#include "perfdata/perfdata.h"

struct pd_buf {
	uint8_t *data;
	size_t len, cap;
};

int pd_buf_put(struct pd_buf *b, const void *p, size_t n);
void pd_buf_free(struct pd_buf *b);

/* PERF_RECORD_MMAP and MMAP2 (MMAP2 with build id when build_id_size > 0) */
struct pd_mmap {
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	uint32_t prot, flags;
	uint8_t build_id_size;		/* > 0: misc has PERF_RECORD_MISC_MMAP_BUILD_ID */
	uint8_t build_id[20];
	const char *filename;
};

/* PERF_RECORD_FORK and EXIT */
struct pd_task {
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;
};

struct pd_comm {
	uint32_t pid, tid;
	const char *comm;
};

struct pd_lost {
	uint64_t id, lost;
};

/* PERF_RECORD_NAMESPACES: nr (dev, inode) pairs, in the kernel's order */
struct pd_namespaces {
	uint32_t pid, tid;
	uint64_t nr;
	const uint64_t *links;		/* 2 * nr: dev, inode of each */
};

/* PERF_RECORD_CGROUP: the cgroup's id (its inode) and path below the mount */
struct pd_cgroup {
	uint64_t id;
	const char *path;
};

/* PERF_RECORD_KSYMBOL */
struct pd_ksymbol {
	uint64_t addr;
	uint32_t len;
	uint16_t ksym_type, flags;	/* PERF_RECORD_KSYMBOL_TYPE_*, _FLAGS_* */
	const char *name;
};

/* PERF_RECORD_BPF_EVENT */
struct pd_bpf_event {
	uint16_t type, flags;		/* PERF_BPF_EVENT_* */
	uint32_t id;
	uint8_t tag[8];
};

/*
 * One program of the BPF_PROG_INFO feature, as perf writes it: the sizes,
 * the mask of the arrays present (bit i: perf's array i, JITED_INSNS 0 ..
 * PROG_TAGS 8), struct bpf_prog_info with each present array's pointer
 * replaced by its offset into data, and data (each array 8-byte padded).
 */
struct pd_bpf_prog_info {
	const void *info;
	uint32_t info_len;
	uint64_t arrays;
	const void *data;
	uint32_t data_len;
};

/*
 * The records of perf stat record (user types: no sample_id).  THREAD_MAP
 * and CPU_MAP say which threads and cpus the counters ran on; STAT is one
 * counter's reading on one (cpu, thread index); STAT_ROUND closes a round
 * of readings (an interval, or the final one); STAT_CONFIG carries the
 * aggregation mode, the interval and whether counts scale.
 */
struct pd_stat {
	uint64_t id;
	uint32_t cpu;			/* perf >= 5.19: the cpu; before: its index */
	uint32_t thread;		/* index into the THREAD_MAP */
	uint64_t val, ena, run;
};

enum { PD_STAT_ROUND_INTERVAL = 0, PD_STAT_ROUND_FINAL = 1 };

struct pd_stat_round {
	uint64_t type;			/* PD_STAT_ROUND_* */
	uint64_t time;			/* ns since the start */
};

/*
 * perf 6.1's enum aggr_mode values as STAT_CONFIG carries them (read from
 * its files).  Later perfs renumbered (cluster and cache modes inserted
 * before core) and added the AGGR_LEVEL tag; the decoder gives 6.1's
 * numbers whatever the file's, PD_AGGR_OTHER for a mode 6.1 has not.
 */
enum { PD_AGGR_NONE = 0, PD_AGGR_GLOBAL = 1, PD_AGGR_SOCKET = 2, PD_AGGR_DIE = 3,
       PD_AGGR_CORE = 4, PD_AGGR_THREAD = 5, PD_AGGR_UNSET = 6, PD_AGGR_NODE = 7,
       PD_AGGR_OTHER = 64 };

struct pd_stat_config {
	uint64_t aggr_mode;		/* PD_AGGR_*; perf's default GLOBAL */
	uint64_t interval;		/* ms; 0 without -I */
	uint64_t scale;			/* 1: counts scale by ena/run */
};

/* A cpu map (CPU_MAP, or EVENT_UPDATE's CPUS): -1 is "any cpu". */
struct pd_cpu_list {
	int32_t *cpus;
	uint32_t nr;
};

/* THREAD_MAP: the pid and comm of each thread index */
struct pd_thread_list {
	int32_t *pids;
	uint32_t nr;
	char (*comms)[16];		/* NUL-ended; NULL: empty comms (encoding) */
};

/*
 * EVENT_UPDATE of type UNIT (0: str), SCALE (1: scale), NAME (2: str) or
 * CPUS (3: cpu map data, as CPU_MAP's): u64 type, u64 id, then the string
 * (NUL-ended), the double or the map.  perf 6.1 sizes the first three by
 * their 40-byte struct plus the 8-byte padded data, so 16 zero bytes follow
 * the data, as there; a CPUS record ends with its map.
 */
enum { PD_EVENT_UPDATE_UNIT = 0, PD_EVENT_UPDATE_SCALE = 1, PD_EVENT_UPDATE_NAME = 2,
       PD_EVENT_UPDATE_CPUS = 3 };

struct pd_event_update {
	uint64_t type;			/* PD_EVENT_UPDATE_UNIT, _SCALE, _NAME or _CPUS */
	uint64_t id;
	const char *str;		/* UNIT, NAME */
	double scale;			/* SCALE */
	struct pd_cpu_list cpus;	/* CPUS: the event's own cpus (its PMU's) */
};

/*
 * ID_INDEX: each sample id with where its event was opened: idx the ring
 * (mmap) index, the cpu and the thread (-1: any).
 */
struct pd_id_entry {
	uint64_t id, idx;
	int64_t cpu, tid;
};

/* entries per ID_INDEX record: (UINT16_MAX - 16-byte head) / 32 */
#define PD_ID_INDEX_MAX 2047

int pd_encode_sample(struct pd_buf *b, const struct perf_event_attr *attr, uint16_t misc,
		     const struct pd_sample *v);
/* Only the trailer (no record): what the others append. */
int pd_encode_sample_id(struct pd_buf *b, const struct perf_event_attr *attr,
			const struct pd_sample *id);
int pd_encode_comm(struct pd_buf *b, const struct perf_event_attr *attr, uint16_t misc,
		   const struct pd_comm *c, const struct pd_sample *id);
/* type: PERF_RECORD_FORK or PERF_RECORD_EXIT */
int pd_encode_task(struct pd_buf *b, const struct perf_event_attr *attr, uint32_t type,
		   uint16_t misc, const struct pd_task *t, const struct pd_sample *id);
/* type: PERF_RECORD_MMAP or PERF_RECORD_MMAP2; misc: the cpumode */
int pd_encode_mmap(struct pd_buf *b, const struct perf_event_attr *attr, uint32_t type,
		   uint16_t misc, const struct pd_mmap *m, const struct pd_sample *id);
int pd_encode_lost(struct pd_buf *b, const struct perf_event_attr *attr,
		   const struct pd_lost *l, const struct pd_sample *id);
/* PERF_RECORD_LOST_SAMPLES: lost samples the kernel dropped */
int pd_encode_lost_samples(struct pd_buf *b, const struct perf_event_attr *attr, uint64_t lost,
			   const struct pd_sample *id);
int pd_encode_namespaces(struct pd_buf *b, const struct perf_event_attr *attr,
			 const struct pd_namespaces *n, const struct pd_sample *id);
int pd_encode_cgroup(struct pd_buf *b, const struct perf_event_attr *attr,
		     const struct pd_cgroup *c, const struct pd_sample *id);
int pd_encode_deferred(struct pd_buf *b, const struct perf_event_attr *attr,
		       const struct pd_deferred *d, const struct pd_sample *id);
int pd_encode_finished_round(struct pd_buf *b);
int pd_encode_ksymbol(struct pd_buf *b, const struct perf_event_attr *attr,
		      const struct pd_ksymbol *k, const struct pd_sample *id);
int pd_encode_bpf_event(struct pd_buf *b, const struct perf_event_attr *attr,
			const struct pd_bpf_event *ev, const struct pd_sample *id);
/*
 * Feature bodies (no record header): BPF_PROG_INFO and BPF_BTF are a u32
 * count followed by that many entries; these append one entry each.  A BTF
 * entry is the object's id, its size and its raw bytes, unpadded.
 */
int pd_encode_bpf_prog_info(struct pd_buf *b, const struct pd_bpf_prog_info *p);
int pd_encode_btf(struct pd_buf *b, uint32_t id, const void *data, uint32_t size);
int pd_encode_stat(struct pd_buf *b, const struct pd_stat *st);
int pd_encode_stat_round(struct pd_buf *b, const struct pd_stat_round *rd);
int pd_encode_stat_config(struct pd_buf *b, const struct pd_stat_config *c);
/* CPU_MAP as perf 6.1 writes a list (type 0: u16 nr, u16 cpus) */
int pd_encode_cpu_map(struct pd_buf *b, const struct pd_cpu_list *c);
/* CPU_MAP in the form perf record 6.1 picks: a range for consecutive cpus */
int pd_encode_cpu_map_perf(struct pd_buf *b, const struct pd_cpu_list *c);
int pd_encode_thread_map(struct pd_buf *b, const struct pd_thread_list *t);
int pd_encode_event_update(struct pd_buf *b, const struct pd_event_update *u);
/* ID_INDEX records of nr entries (none when nr is 0); FINISHED_INIT (a bare header) */
int pd_encode_id_index(struct pd_buf *b, const struct pd_id_entry *ent, uint64_t nr);
int pd_encode_finished_init(struct pd_buf *b);
/* Pipe format: the 16-byte header, and an attr with its ids as a HEADER_ATTR record. */
int pd_encode_pipe_header(struct pd_buf *b);
int pd_encode_attr(struct pd_buf *b, const struct perf_event_attr *attr, const uint64_t *ids,
		   uint32_t nr_ids);

/*
 * Decoders: every size checked against the record (without its sample_id
 * trailer); the sample_id goes to id when not NULL.  Strings point into
 * the record.
 */
int pd_parse_comm(const struct pd_reader *r, const struct pd_record *rec, struct pd_comm *c,
		  struct pd_sample *id, struct pc_error *err);
int pd_parse_task(const struct pd_reader *r, const struct pd_record *rec, struct pd_task *t,
		  struct pd_sample *id, struct pc_error *err);
int pd_parse_mmap(const struct pd_reader *r, const struct pd_record *rec, struct pd_mmap *m,
		  struct pd_sample *id, struct pc_error *err);
int pd_parse_lost(const struct pd_reader *r, const struct pd_record *rec, struct pd_lost *l,
		  struct pd_sample *id, struct pc_error *err);
int pd_parse_cgroup(const struct pd_reader *r, const struct pd_record *rec, struct pd_cgroup *c,
		    struct pd_sample *id, struct pc_error *err);

/* The same on a record whose body (trailer excluded) is size bytes; path for messages. */
int pd_decode_comm(const char *path, const struct pd_record *rec, size_t size,
		   struct pd_comm *c, struct pc_error *err);
int pd_decode_task(const char *path, const struct pd_record *rec, size_t size,
		   struct pd_task *t, struct pc_error *err);
int pd_decode_mmap(const char *path, const struct pd_record *rec, size_t size,
		   struct pd_mmap *m, struct pc_error *err);
int pd_decode_lost(const char *path, const struct pd_record *rec, size_t size,
		   struct pd_lost *l, struct pc_error *err);
int pd_decode_cgroup(const char *path, const struct pd_record *rec, size_t size,
		     struct pd_cgroup *c, struct pc_error *err);

/*
 * "FILE: offset 0xOFF: TYPE record of N bytes is too short for its fields
 * (NEED bytes)": the error of a record whose fields run past it.  -EINVAL.
 */
int pd_record_too_short(const char *path, const struct pd_record *rec, size_t need,
			struct pc_error *err);

/*
 * The stat side.  A cpu map's body starts at off (8 in CPU_MAP, 24 in
 * EVENT_UPDATE): a list, a bit mask (4- or 8-byte words) or a range, each
 * bounded by the record; the lists are allocated (free them), the caller's
 * left untouched on error.
 */
int pd_decode_stat(const char *path, const struct pd_record *rec, struct pd_stat *st,
		   struct pc_error *err);
int pd_decode_stat_round(const char *path, const struct pd_record *rec,
			 struct pd_stat_round *rd, struct pc_error *err);
/*
 * Unknown tags are skipped; c keeps its defaults for tags not given.  A
 * record with the AGGR_LEVEL tag (3) is a later perf's: its aggr_mode is
 * read in that perf's numbering (measured on perf 7.2.13's files: core 6,
 * thread 7, node 9) and given in 6.1's.
 */
int pd_decode_stat_config(const char *path, const struct pd_record *rec,
			  struct pd_stat_config *c, struct pc_error *err);
int pd_decode_cpu_map(const char *path, const struct pd_record *rec, size_t off,
		      struct pd_cpu_list *out, struct pc_error *err);
int pd_decode_thread_map(const char *path, const struct pd_record *rec,
			 struct pd_thread_list *out, struct pc_error *err);
/* ID_INDEX: *out allocated (free it), *nr entries; every count checked against the record */
int pd_decode_id_index(const char *path, const struct pd_record *rec, struct pd_id_entry **out,
		       uint64_t *nr, struct pc_error *err);
/* UNIT, SCALE and NAME (str points into the record); CPUS: pd_decode_cpu_map at 24 */
int pd_decode_event_update(const char *path, const struct pd_record *rec,
			   struct pd_event_update *u, struct pc_error *err);

#endif
