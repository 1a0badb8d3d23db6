// SPDX-License-Identifier: GPL-2.0
/*
 * Wiring the stages of reading a file, and the last step: a sample or
 * deferred record from the machine stage becomes the consumer's rd_event.
 */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

#include "reader/session.h"
#include "reader/lbr_chain.h"
#include "reader/sample_read.h"
#include "reader/unwind_stage.h"
#include "util/log.h"

static bool same_machine(struct rd_session *s)
{
	char host[256], rel[256];
	struct utsname u;

	if (uname(&u))
		return false;
	if (pd_reader_feature_string(&s->r, PD_FEAT_HOSTNAME, host, sizeof(host), NULL) ||
	    pd_reader_feature_string(&s->r, PD_FEAT_OSRELEASE, rel, sizeof(rel), NULL))
		return false;
	return !strcmp(host, u.nodename) && !strcmp(rel, u.release);
}

static void set_build_id(struct pc_dso *dso, const uint8_t *id, size_t size)
{
	if (size > 20)
		size = 20;
	for (size_t i = 0; i < size; i++)
		snprintf(dso->build_id + 2 * i, 3, "%02x", id[i]);
}

/* BUILD_ID feature: which object ran, for each path */
static int note_build_id(const struct pd_build_id_entry *e, const uint8_t *id, size_t id_size,
			 const char *filename, void *ctx)
{
	struct rd_session *s = ctx;
	struct pc_dso *dso;
	uint16_t cpumode = e->header.misc & PERF_RECORD_MISC_CPUMODE_MASK;

	/*
	 * perf makes an object of each user entry as it reads the table, "[vdso]"
	 * too: made before any MMAP, they come first in its order of objects
	 */
	if (!filename || !filename[0] || !id_size ||
	    (cpumode != PERF_RECORD_MISC_USER && cpumode != PERF_RECORD_MISC_GUEST_USER))
		return 0;
	dso = pc_dso_cache_get(&s->dsos, filename);
	if (dso)
		set_build_id(dso, id, id_size);
	return 0;
}

/* An unwinder when some event samples user registers and stack (--call-graph dwarf). */
static struct rd_unwind *dwarf_unwinder(struct rd_session *s)
{
	const uint64_t want = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	const uint64_t fp_lr = PERF_SAMPLE_REGS_USER | PERF_SAMPLE_CALLCHAIN;
	char arch[64];
	bool any = false, lr = false;

	for (size_t i = 0; i < s->r.nr_evsels; i++) {
		const struct perf_event_attr *a = &s->r.evsels[i].attr.attr;

		if ((a->sample_type & want) == want)
			any = true;
		else if ((a->sample_type & fp_lr) == fp_lr && rd_unwind_lr_mask(a->sample_regs_user))
			lr = true;
	}
	if (!any && !lr)
		return NULL;
	if (pd_reader_feature_string(&s->r, PD_FEAT_ARCH, arch, sizeof(arch), NULL))
		return NULL;
	/* perf's leaf caller of arm64 frame-pointer chains needs the unwinder too */
	if (!any && pc_arch_from_name(arch) != PC_ARCH_AARCH64)
		return NULL;
	return rd_unwind_new(pc_arch_from_name(arch), &s->dsos);
}

/* A sample to the consumer; with PERF_SAMPLE_READ, one per value read, as perf. */
static int deliver_sample(struct rd_session *s, struct rd_event *ev, const struct pd_sample *smp)
{
	uint64_t n = rd_sread_count(smp);
	struct pd_sample one;
	int ret = 0;

	if (!s->ops.sample)
		return 0;
	if (!n)
		return s->ops.sample(s, ev, s->ops.ctx);
	for (uint64_t i = 0; i < n && !ret; i++) {
		ret = rd_sread_value(&s->sread, &s->r, smp, i, &one);
		if (ret <= 0)
			continue;
		ev->sample = &one;
		ret = s->ops.sample(s, ev, s->ops.ctx);
	}
	ev->sample = smp;
	return ret;
}

static int consume(struct rd_session *s, struct rd_item *it, struct pc_error *err)
{
	struct pd_record rec = { .offset = it->offset, .data = it->data };
	struct rd_event ev = { .rec = &rec };
	struct pd_sample *smp = it->p ? &it->p->smp : NULL;
	uint64_t lbr[RD_LBR_MAX + 1];

	memcpy(&rec.header, it->data, sizeof(rec.header));
	if (it->type != PERF_RECORD_SAMPLE && it->type != PC_RECORD_CALLCHAIN_DEFERRED) {
		ev.sample = it->p ? &it->p->smp : NULL;
		return s->ops.record ? s->ops.record(s, &ev, s->ops.ctx) : 0;
	}
	ev.sample = smp;
	if (it->type == PERF_RECORD_SAMPLE) {
		s->stats.samples++;
		/* without PERF_SAMPLE_PERIOD every sample stands for the fixed period */
		if (!(smp->evsel->attr.attr.sample_type & PERF_SAMPLE_PERIOD))
			smp->period = smp->evsel->attr.attr.sample_period;
		ev.thread = rd_machine_thread(&s->machine, smp->pid, smp->tid);
		if (!ev.thread)
			return pc_error_set(err, ENOMEM, "out of memory");
		ev.base = smp->chain.ips;
		ev.base_nr = smp->chain.nr;
		if (it->unwound && it->fp_leaf) {
			/* arm64 FP: the recorded user part with the leaf's caller added */
			ev.base_nr = it->fp_cut;
			ev.extra = it->unwound;
			ev.extra_nr = it->unwound_nr;
		} else if (it->unwound) {
			/* DWARF: the kernel part recorded, then the user frames unwound */
			ev.extra = it->unwound;
			ev.extra_nr = it->unwound_nr;
			ev.unwound = true;
		} else if (rd_lbr_chain(smp, s->rules.lbr_first_target, &ev.base_nr, lbr,
					&ev.extra_nr)) {
			ev.extra = lbr;
		} else if (it->merge_ips && smp->chain.deferred) {
			ev.base_nr--;	/* the cookie gives way to the frames it stood for */
			ev.extra = it->merge_ips;
			ev.extra_nr = it->merge_nr;
			ev.merged = true;
			ev.late = it->late;
		}
		ev.unanswered = it->unanswered;
		return deliver_sample(s, &ev, smp);
	}
	if (s->merge || !s->ops.deferred)
		return 0;
	ev.deferred = &it->p->d;
	ev.thread = rd_machine_thread(&s->machine, smp->pid, smp->tid);
	if (!ev.thread)
		return pc_error_set(err, ENOMEM, "out of memory");
	ev.base = it->p->d.ips;
	ev.base_nr = it->p->d.nr;
	return s->ops.deferred(s, &ev, s->ops.ctx);
}

/* Between defer and machine: other records shown to the consumer first. */
static int tap_other(void *ctx, struct rd_item *it, struct pc_error *err)
{
	struct rd_session *s = ctx;

	if (s->ops.other && it->type != PERF_RECORD_SAMPLE &&
	    it->type != PC_RECORD_CALLCHAIN_DEFERRED && it->type < PC_RECORD_HEADER_ATTR) {
		struct pd_record rec = { .offset = it->offset, .data = it->data };
		struct rd_event ev = { .rec = &rec, .sample = it->p ? &it->p->smp : NULL };
		int ret;

		memcpy(&rec.header, it->data, sizeof(rec.header));
		ret = s->ops.other(s, &ev, s->ops.ctx);
		if (ret) {
			rd_item_release(it);
			return ret;
		}
	}
	return rd_machine_deliver(&s->machine, it, err);
}

/* The consumer end of the machine stage. */
static int to_consumer(void *ctx, struct rd_item *it, struct pc_error *err)
{
	int ret = consume(ctx, it, err);

	rd_item_release(it);
	return ret;
}

int rd_session_open(struct rd_session *s, const char *path, struct pc_error *err)
{
	const char *home;
	int ret;

	ret = pd_reader_open(&s->r, path, err);
	if (ret)
		return ret;
	s->opened = true;
	pc_dso_cache_init(&s->dsos);
	s->kernel_local = same_machine(s);
	s->dsos.own_vdso = s->kernel_local;
	home = getenv("HOME");
	if (home && *home) {
		snprintf(s->paths.buildid_dir, sizeof(s->paths.buildid_dir), "%s/.debug", home);
		s->dsos.buildid_dir = s->paths.buildid_dir;
	}
	pd_reader_build_ids(&s->r, note_build_id, s, NULL);
	/* input -> order -> parse -> defer -> (other records to the consumer) -> machine -> consumer */
	rd_machine_init(&s->machine, s->r.path, &s->dsos,
			(struct rd_sink){ to_consumer, s });
	s->machine.unwind = dwarf_unwinder(s);
	rd_defer_init(&s->defer, true, false,
		      (struct rd_sink){ tap_other, s });
	rd_parse_init(&s->parse, &s->r, (struct rd_sink){ rd_defer_deliver, &s->defer });
	rd_order_init(&s->order, (struct rd_sink){ rd_parse_deliver, &s->parse });
	rd_input_init(&s->in, &s->r, (struct rd_sink){ rd_order_deliver, &s->order });
	s->in.expand = (struct rd_expand){ rd_expand_zstd, &s->expand };
	return 0;
}

void rd_session_unordered(struct rd_session *s)
{
	s->order.pass_through = true;
}

void rd_session_use_files(struct rd_session *s, const char *symfs, const char *kallsyms)
{
	s->kallsyms = kallsyms;
	if (!symfs)
		return;
	snprintf(s->paths.debug_dir, sizeof(s->paths.debug_dir), "%s/usr/lib/debug", symfs);
	s->dsos.root = symfs;
	s->dsos.debug_dir = s->paths.debug_dir;
	s->kernel_local = false;
	s->dsos.own_vdso = false;
	s->dsos.buildid_dir = NULL;
}

void rd_session_close(struct rd_session *s)
{
	if (!s->opened)
		return;
	rd_order_free(&s->order);
	rd_defer_free(&s->defer);
	rd_machine_free(&s->machine);
	rd_expand_zstd_free(&s->expand);
	rd_sread_free(&s->sread);
	pc_dso_cache_free(&s->dsos);
	pd_reader_close(&s->r);
	s->opened = false;
}

void rd_session_warn(const struct rd_session *s, bool chunks, FILE *f)
{
	uint64_t lost = s->in.by_type[PERF_RECORD_LOST], dropped = s->in.lost_samples;
	uint64_t taken = s->in.by_type[PERF_RECORD_SAMPLE] + dropped;

	/* perf's counters here are ints: the same numbers past 2^31 */
	if (chunks && lost)
		fprintf(f, "Warning:\nProcessed %d events and lost %d chunks!\n\n"
			"Check IO/CPU overload!\n\n", (int)s->in.records, (int)lost);
	if (dropped && (double)dropped / (double)taken > 0.05)
		fprintf(f, "Warning:\nProcessed %llu samples and lost %3.2f%%!\n\n",
			(unsigned long long)taken, 100.0 * (double)dropped / (double)taken);
	for (size_t i = 0; i < s->r.nr_evsels; i++)
		if (s->r.evsels[i].attr.attr.write_backward)
			return;
	if (s->order.unordered)
		fprintf(f, "Warning:\n%u out of order events recorded.\n",
			(unsigned int)s->order.unordered);
}

static void sum_up(struct rd_session *s)
{
	const struct rd_defer_stats *d = &s->defer.stats;

	s->stats.records = s->in.records;
	s->stats.deferred_records = d->deferred_records;
	s->stats.merged = d->merged;
	s->stats.merged_late = d->merged_late;
	s->stats.unmerged = d->unmerged;
	s->stats.forced = d->forced;
	s->stats.unordered = s->order.unordered;
	s->stats.not_interpreted = rd_input_report(&s->in);
	if (s->sread.unknown_ids)
		pc_warn("%s: %llu read values of PERF_SAMPLE_READ samples carry an id no event has "
			"(not shown, as perf)\n", s->r.path, (unsigned long long)s->sread.unknown_ids);
}

/* Everything queued goes out; the first error stays in err. */
static int drain_all(struct rd_session *s, struct pc_error *err)
{
	int ret = rd_order_flush(&s->order, UINT64_MAX, err);

	return ret ? ret : rd_defer_finish(&s->defer, err);
}

/*
 * A pipe brings its features as records after the attrs: once the host
 * and release (and arch) are known, or at the first sample, decide whether
 * this machine's kernel and vdso apply, and whether an event needs DWARF
 * unwinding, as open does for a file.
 */
static void pipe_features(struct rd_session *s)
{
	bool all = s->r.features[PD_FEAT_HOSTNAME].size && s->r.features[PD_FEAT_OSRELEASE].size &&
		   s->r.features[PD_FEAT_ARCH].size;

	if (!all && !s->in.by_type[PERF_RECORD_SAMPLE])
		return;
	s->local_pending = false;
	s->kernel_local = same_machine(s);
	s->machine.kernel_local = s->kernel_local;
	s->dsos.own_vdso = s->kernel_local;
	if (!s->machine.unwind) {
		s->machine.unwind = dwarf_unwinder(s);
		rd_unwind_set_leaf_lr(s->machine.unwind, s->rules.leaf_lr);
		rd_unwind_set_zero_unreadable(s->machine.unwind, s->rules.zero_unreadable, s->rules.libunwind_ends);
	}
}

/*
 * A perf.data directory recorded with --kcore holds the kernel's symbols of
 * its recording in kcore_dir/kallsyms: perf reads them there, whatever
 * machine it runs on (--kallsyms still wins).  NULL for other inputs.
 */
static const char *kcore_kallsyms(struct rd_session *s)
{
	size_t len = strlen(s->r.path);
	struct stat st;

	/* the reader names a directory's header file DIR/data */
	if (len < 5 || strcmp(s->r.path + len - 5, "/data"))
		return NULL;
	if (snprintf(s->paths.kcore_kallsyms, sizeof(s->paths.kcore_kallsyms),
		     "%.*s/kcore_dir/kallsyms", (int)(len - 5), s->r.path) >=
	    (int)sizeof(s->paths.kcore_kallsyms))
		return NULL;
	if (stat(s->paths.kcore_kallsyms, &st) || !S_ISREG(st.st_mode))
		return NULL;
	return s->paths.kcore_kallsyms;
}

int rd_session_process(struct rd_session *s, struct pc_error *err)
{
	int ret;

	s->defer.merge = s->merge;
	s->defer.merge_late = s->merge_late;
	s->machine.kernel_local = s->kernel_local;
	s->machine.kallsyms_path = s->kallsyms ? s->kallsyms : kcore_kallsyms(s);
	s->machine.pass_records = s->ops.record != NULL;
	s->sread.per_thread = s->rules.sread_per_thread;
	rd_unwind_set_leaf_lr(s->machine.unwind, s->rules.leaf_lr);
	rd_unwind_set_zero_unreadable(s->machine.unwind, s->rules.zero_unreadable, s->rules.libunwind_ends);
	/* --symfs: nothing of this machine applies, whatever the pipe says */
	s->local_pending = s->r.pipe_format && !s->dsos.root;
	while ((ret = rd_input_step(&s->in, err)) > 0)
		if (s->local_pending)
			pipe_features(s);
	if (!ret)
		ret = rd_expand_zstd_finish(&s->expand, err);
	if (ret < 0) {
		/* a defect stops the reading, not the output: what came before it still goes out */
		struct pc_error later;

		drain_all(s, &later);
	} else {
		ret = drain_all(s, err);
	}
	sum_up(s);
	return ret;
}

void rd_resolve(struct rd_session *s, struct rd_thread *t, bool kernel, uint64_t ip,
		struct rd_resolved *out)
{
	rd_machine_resolve(&s->machine, t, kernel, ip, out);
}

struct rd_thread *rd_thread_get(struct rd_session *s, uint32_t pid, uint32_t tid)
{
	return rd_machine_thread(&s->machine, pid, tid);
}

/* Entry g of the chain (the sample's part, then the extra one): 0 a frame, 1 a context perf knows, -1 one it does not */
static int chain_entry_kind(const struct rd_event *ev, uint64_t g)
{
	int part = g >= ev->base_nr;
	uint64_t i = part ? g - ev->base_nr : g;
	uint64_t ip = part ? ev->extra[i] : ev->base[i];

	if (!rd_chain_context(ev, part, i, ip))	/* most are addresses */
		return 0;
	switch (ip) {
	case PC_CONTEXT_HV:
	case PC_CONTEXT_KERNEL:
	case PC_CONTEXT_USER:
	case PC_CONTEXT_USER_DEFERRED:
	case PC_CONTEXT_GUEST_KERNEL:
	case PC_CONTEXT_GUEST_USER:
		return 1;
	default:
		return pc_is_context(ip) ? -1 : 0;
	}
}

bool rd_chain_valid(const struct rd_event *ev, int max)
{
	uint64_t nr = ev->base_nr + ev->extra_nr;
	int frames = 0;

	for (uint64_t g = 0; g < nr && frames < max; g++) {
		int kind = chain_entry_kind(ev, g);

		if (kind < 0)
			return false;
		frames += !kind;
	}
	return true;
}

/* Whether the last context before entry g is one perf does not know (none: no) */
static bool context_before_unknown(const struct rd_event *ev, uint64_t g)
{
	while (g-- > 0) {
		int kind = chain_entry_kind(ev, g);

		if (kind)
			return kind < 0;
	}
	return false;
}

bool rd_chain_valid_caller(const struct rd_event *ev, int max)
{
	uint64_t nr = ev->base_nr + ev->extra_nr;
	int frames = 0;

	if (context_before_unknown(ev, nr))
		return false;
	for (uint64_t k = 0; k < nr && frames < max; k++) {
		uint64_t g = nr - 1 - k;

		if (!chain_entry_kind(ev, g))
			frames++;
		else if (context_before_unknown(ev, g))
			return false;
	}
	return true;
}
