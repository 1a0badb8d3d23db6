// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF programs loaded before the recording starts, as perf record
 * synthesizes them: per program a KSYMBOL (type BPF) for each JITed
 * function, named bpf_prog_<tag>_<name>, then a BPF_EVENT PROG_LOAD with
 * the program's id and tag; then a KSYMBOL for each BPF trampoline and
 * dispatcher in /proc/kallsyms (when a loaded program can have one).  The programs' info and BTF go to the
 * BPF_PROG_INFO and BPF_BTF features, where perf report --header-only
 * shows them.  The sample_id trailers carry the tracking event's id with
 * pid, tid, time and cpu 0.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfdata/btf.h"
#include "perfdata/codec.h"
#include "recorder/bpf_progs.h"
#include "recorder/synth_bpf.h"
#include "util/log.h"

#define NAME_MAX_LEN 512

struct btf_obj {
	uint32_t id;
	void *data;
	uint32_t size;
};

/*
 * What the BPF_PROG_INFO and BPF_BTF features will hold.  The side-band
 * thread adds to it while the main thread synthesizes and writes headers:
 * lock held by each public function, never across two of them.
 */
struct rec_bpf_info {
	pthread_mutex_t lock;
	struct pd_buf progs, btfs;	/* their entries */
	uint32_t *ids;			/* the programs in progs */
	uint32_t nr_progs;
	struct btf_obj *btf;		/* fetched, each once */
	uint32_t nr_btf;
};

struct bpf_synth {
	const struct perf_event_attr *attr;
	struct pd_sample id;
	struct pd_buf recs;
	bool records;			/* false: only the info (a program loaded meanwhile) */
	bool no_bpf_event;		/* KSYMBOLs and BTF only, as perf without its side band */
	bool images;			/* a program that runs through a trampoline or dispatcher */
	struct rec_bpf_info *info;
};

/*
 * BPF trampolines are made for attached tracing, extension, LSM and
 * struct_ops programs, the dispatcher for XDP: without such a program the
 * 5 MB of /proc/kallsyms are not read for them (that read was most of the
 * recorder's own CPU time).
 */
static bool uses_images(uint32_t type)
{
	return type == BPF_PROG_TYPE_TRACING || type == BPF_PROG_TYPE_EXT ||
	       type == BPF_PROG_TYPE_LSM || type == BPF_PROG_TYPE_STRUCT_OPS ||
	       type == BPF_PROG_TYPE_XDP;
}

/* The BTF object id, fetched once: 0 with *out (its data stays owned by s), or -errno. */
static int btf_of(struct rec_bpf_info *s, uint32_t id, struct btf_obj *out)
{
	struct btf_obj *v, o = { .id = id };
	size_t mark = s->btfs.len;
	int ret;

	for (uint32_t i = 0; i < s->nr_btf; i++)
		if (s->btf[i].id == id) {
			*out = s->btf[i];
			return 0;
		}
	ret = rec_bpf_btf_get(id, &o.data, &o.size);
	if (ret) {
		pc_info("BPF: cannot read BTF %u: %s\n", id, strerror(-ret));
		return ret;
	}
	ret = pd_encode_btf(&s->btfs, o.id, o.data, o.size);
	v = ret ? NULL : realloc(s->btf, (s->nr_btf + 1) * sizeof(*v));
	if (!v) {
		s->btfs.len = mark;
		free(o.data);
		return -ENOMEM;
	}
	s->btf = v;
	s->btf[s->nr_btf++] = o;
	*out = o;
	return 0;
}

/*
 * perf's name: bpf_prog_<sub-program tag>, then _<its BTF function name>
 * when the program has function info, else _<program name> for a program
 * of one function with a name, else _F for a sub-program.
 */
static void prog_name(char *buf, const struct rec_bpf_prog *p, const uint8_t *tags,
		      const struct btf_obj *btf, const void *finfo, uint32_t finfo_size,
		      uint32_t sub, uint32_t nr_sub)
{
	const char *sname = NULL;
	int n = snprintf(buf, NAME_MAX_LEN, "bpf_prog_");

	for (int i = 0; i < 8; i++)
		n += snprintf(buf + n, NAME_MAX_LEN - n, "%02x", tags[sub * 8 + i]);
	if (btf) {
		struct bpf_func_info fi;

		memcpy(&fi, (const uint8_t *)finfo + (size_t)sub * finfo_size, sizeof(fi));
		if (pd_btf_type_name(btf->data, btf->size, fi.type_id, &sname, NULL))
			sname = NULL;
	} else if (sub == 0 && nr_sub == 1) {
		if (p->info.name[0])
			sname = p->info.name;
	} else {
		sname = "F";
	}
	/* the program's name has at most 16 bytes; a BTF name ends in the BTF's strings */
	if (sname == p->info.name)
		snprintf(buf + n, NAME_MAX_LEN - n, "_%.*s", (int)sizeof(p->info.name), sname);
	else if (sname)
		snprintf(buf + n, NAME_MAX_LEN - n, "_%s", sname);
}

static bool has_prog(const struct rec_bpf_info *info, uint32_t id)
{
	for (uint32_t i = 0; i < info->nr_progs; i++)
		if (info->ids[i] == id)
			return true;
	return false;
}

static int add_entry(struct rec_bpf_info *info, uint32_t id, const struct pd_bpf_prog_info *e)
{
	size_t mark = info->progs.len;
	uint32_t *v;
	int ret = pd_encode_bpf_prog_info(&info->progs, e);

	if (ret)
		return ret;
	v = realloc(info->ids, (info->nr_progs + 1) * sizeof(*v));
	if (!v) {
		info->progs.len = mark;
		return -ENOMEM;
	}
	info->ids = v;
	info->ids[info->nr_progs++] = id;
	return 0;
}

static int one_prog(struct bpf_synth *s, const struct rec_bpf_prog *p)
{
	uint32_t nr_sub = 0, nr_tags = 0, nr_lens = 0, nr_fi = 0, fi_size = 0, sz;
	const uint64_t *addrs = rec_bpf_prog_array(p, REC_BPIL_JITED_KSYMS, &nr_sub, &sz);
	const uint8_t *tags = rec_bpf_prog_array(p, REC_BPIL_PROG_TAGS, &nr_tags, &sz);
	const uint32_t *lens = rec_bpf_prog_array(p, REC_BPIL_JITED_FUNC_LENS, &nr_lens, &sz);
	const void *finfo = rec_bpf_prog_array(p, REC_BPIL_FUNC_INFO, &nr_fi, &fi_size);
	struct btf_obj btf_obj, *btf = NULL;
	struct pd_bpf_event ev = { PERF_BPF_EVENT_PROG_LOAD, 0, p->info.id, { 0 } };
	uint8_t info[REC_BPF_INFO_LEN];
	struct pd_bpf_prog_info entry = { info, REC_BPF_INFO_LEN, p->arrays, p->data, p->data_len };
	char name[NAME_MAX_LEN];
	int ret = 0;

	if (!addrs || !tags || !lens || nr_sub != nr_tags || nr_sub != nr_lens) {
		pc_info("BPF program %u: %u JITed functions, %u tags, %u lengths: not synthesized\n",
			p->info.id, nr_sub, nr_tags, nr_lens);
		return 0;
	}
	if (p->info.btf_id && nr_fi && fi_size) {
		if (nr_fi != nr_sub || fi_size < sizeof(struct bpf_func_info)) {
			pc_info("BPF program %u: %u functions and %u BTF function infos: not "
				"synthesized\n", p->info.id, nr_sub, nr_fi);
			return 0;
		}
		ret = btf_of(s->info, p->info.btf_id, &btf_obj);
		if (ret == -ENOMEM)
			return ret;
		if (ret)
			return 0;	/* as perf: a program whose BTF cannot be read is left out */
		btf = &btf_obj;
	}
	for (uint32_t i = 0; i < nr_sub && !ret && s->records; i++) {
		struct pd_ksymbol k = { addrs[i], lens[i], PERF_RECORD_KSYMBOL_TYPE_BPF, 0, name };

		prog_name(name, p, tags, btf, finfo, fi_size, i, nr_sub);
		ret = pd_encode_ksymbol(&s->recs, s->attr, &k, &s->id);
	}
	/*
	 * perf without its side band (--no-bpf-event, or a side band that did
	 * not open): the KSYMBOLs and the BTF, no BPF_EVENT and no program info
	 */
	if (s->no_bpf_event)
		return ret;
	memcpy(ev.tag, p->info.tag, sizeof(ev.tag));
	if (!ret && s->records)
		ret = pd_encode_bpf_event(&s->recs, s->attr, &ev, &s->id);
	if (ret || has_prog(s->info, p->info.id))
		return ret;
	entry.info_len = rec_bpf_prog_file_info(p, info);
	return add_entry(s->info, p->info.id, &entry);
}

static int all_progs(struct bpf_synth *s)
{
	uint32_t id = 0;
	int ret;

	for (;;) {
		struct rec_bpf_prog p;

		ret = rec_bpf_next_prog_id(id, &id);
		if (ret == -ENOENT)
			return 0;
		if (ret) {
			/* EPERM without CAP_SYS_ADMIN, EINVAL before 4.13: perf goes on too */
			pc_info("BPF programs not synthesized: bpf(BPF_PROG_GET_NEXT_ID): %s\n",
				strerror(-ret));
			return 0;
		}
		ret = rec_bpf_prog_get(id, &p);
		if (ret == -EOPNOTSUPP) {
			pc_info("BPF programs not synthesized: this kernel's bpf_prog_info has no "
				"prog_tags\n");
			return 0;
		}
		if (ret) {
			if (ret != -ENOENT)	/* ENOENT: unloaded meanwhile */
				pc_info("BPF program %u not synthesized: %s\n", id, strerror(-ret));
			continue;
		}
		s->images |= uses_images(p.info.type);
		ret = one_prog(s, &p);
		rec_bpf_prog_free(&p);
		if (ret)
			return ret;
	}
}

/* BPF trampolines and dispatchers: their kallsyms lines, a page each, as perf. */
static int images(struct bpf_synth *s, const char *kallsyms)
{
	char line[1024];
	long page = sysconf(_SC_PAGESIZE);
	FILE *f = fopen(kallsyms, "r");
	int ret = 0;

	if (!f)
		return 0;
	setvbuf(f, NULL, _IOFBF, 1 << 20);	/* 1 KiB reads of a proc file otherwise */
	while (!ret && fgets(line, sizeof(line), f)) {
		unsigned long long addr;
		char type, name[NAME_MAX_LEN], mod[32];
		struct pd_ksymbol k = { 0, (uint32_t)page, PERF_RECORD_KSYMBOL_TYPE_BPF, 0, name };

		if (sscanf(line, "%llx %c %511s %31s", &addr, &type, name, mod) != 4 ||
		    strcmp(mod, "[bpf]") ||
		    (strncmp(name, "bpf_trampoline_", 15) && strncmp(name, "bpf_dispatcher_", 15)))
			continue;
		k.addr = addr;
		ret = pd_encode_ksymbol(&s->recs, s->attr, &k, &s->id);
	}
	fclose(f);
	return ret;
}

/* a feature body: the count, then the entries */
static int set_feature(struct pd_writer *w, int feat, uint32_t count, const struct pd_buf *b)
{
	struct pd_buf body = { 0 };
	int ret = pd_buf_put(&body, &count, sizeof(count));

	if (!ret)
		ret = pd_buf_put(&body, b->data, b->len);
	if (!ret)
		ret = pd_writer_set_feature(w, feat, body.data, body.len);
	pd_buf_free(&body);
	return ret;
}

int rec_bpf_empty_features(struct pd_writer *w)
{
	static const struct pd_buf none;
	int ret = set_feature(w, PD_FEAT_BPF_PROG_INFO, 0, &none);

	return ret ? ret : set_feature(w, PD_FEAT_BPF_BTF, 0, &none);
}

struct rec_bpf_info *rec_bpf_info_new(void)
{
	struct rec_bpf_info *info = calloc(1, sizeof(*info));

	if (info && pthread_mutex_init(&info->lock, NULL)) {
		free(info);
		return NULL;
	}
	return info;
}

void rec_bpf_info_free(struct rec_bpf_info *info)
{
	if (!info)
		return;
	for (uint32_t i = 0; i < info->nr_btf; i++)
		free(info->btf[i].data);
	free(info->btf);
	free(info->ids);
	pd_buf_free(&info->progs);
	pd_buf_free(&info->btfs);
	pthread_mutex_destroy(&info->lock);
	free(info);
}

int rec_bpf_info_add(struct rec_bpf_info *info, uint32_t id)
{
	struct bpf_synth s = { .info = info };
	struct rec_bpf_prog p;
	int ret;

	pthread_mutex_lock(&info->lock);
	ret = has_prog(info, id) ? 0 : rec_bpf_prog_get(id, &p);
	/* an error: gone already, or refused; perf's side band misses it too */
	if (!ret && !has_prog(info, id)) {
		ret = one_prog(&s, &p);
		rec_bpf_prog_free(&p);
	}
	pthread_mutex_unlock(&info->lock);
	return ret;
}

int rec_bpf_info_write(struct rec_bpf_info *info, struct pd_writer *w)
{
	int ret;

	pthread_mutex_lock(&info->lock);
	ret = set_feature(w, PD_FEAT_BPF_PROG_INFO, info->nr_progs, &info->progs);
	if (!ret)
		ret = set_feature(w, PD_FEAT_BPF_BTF, info->nr_btf, &info->btfs);
	pthread_mutex_unlock(&info->lock);
	return ret;
}

int rec_synth_bpf(const struct rec_synth_bpf *in, struct pc_error *err)
{
	struct bpf_synth s = { .attr = in->attr, .records = true, .no_bpf_event = in->no_bpf_event,
			       .info = in->info ? in->info : rec_bpf_info_new() };
	int ret = s.info ? 0 : -ENOMEM;

	s.id.id = in->id;
	s.id.stream_id = in->id;
	if (!ret) {
		pthread_mutex_lock(&s.info->lock);
		ret = all_progs(&s);
		pthread_mutex_unlock(&s.info->lock);
	}
	if (!ret && (s.images || in->kallsyms))
		ret = images(&s, in->kallsyms ? in->kallsyms : "/proc/kallsyms");
	if (!ret && s.recs.len)
		ret = in->write(in->ctx, s.recs.data, s.recs.len);
	if (ret == -ENOMEM)
		pc_error_set(err, ENOMEM, "out of memory synthesizing the BPF programs");
	else if (ret && !err->code)
		pc_error_set(err, -ret, "synthesizing the BPF programs: %s", strerror(-ret));
	if (!in->info)
		rec_bpf_info_free(s.info);
	pd_buf_free(&s.recs);
	return ret;
}
