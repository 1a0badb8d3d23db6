// SPDX-License-Identifier: GPL-2.0
/*
 * record --threads[=SPEC]: a perf.data directory of a header file "data"
 * (with DIR_FORMAT version 1) and one data.N per ring, each read alone by
 * the library reader, their samples adding up to the whole and to the
 * summary; finished when stopped by SIGINT, --timeout or a full disk; a
 * bad SPEC and the options perf refuses with it are usage errors.
 */
#include <dirent.h>
#include <fcntl.h>
#include <sys/mount.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "perfdata/codec.h"
#include "record_common.h"

FIXTURE(thr)
{
	char *dir;
	char *out;
	char *errfile;
	bool mounted;
};

FIXTURE_SETUP(thr)
{
	self->dir = pc_test_mkdtemp("record-threads");
	ASSERT_NE(NULL, self->dir);
	self->out = strdup(rt_path(self->dir, "perf.data"));
	self->errfile = strdup(rt_path(self->dir, "stderr"));
	self->mounted = false;
}

FIXTURE_TEARDOWN(thr)
{
	if (self->mounted)
		umount2(self->dir, MNT_DETACH);
	free(self->out);
	free(self->errfile);
	pc_test_rmdir(self->dir);
}

/* The data.N of dir: how many, and the largest N + 1 (-1 when it cannot be listed). */
static int count_data_files(const char *dir, int *max_n)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	int n = 0;

	*max_n = 0;
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		if (strncmp(e->d_name, "data.", 5))
			continue;
		n++;
		if (atoi(e->d_name + 5) + 1 > *max_n)
			*max_n = atoi(e->d_name + 5) + 1;
	}
	closedir(d);
	return n;
}

/* DIR_FORMAT of the directory's header: its version, or -1 without it. */
static long dir_format(const char *path)
{
	struct pc_error err = { 0 };
	struct pd_reader r;
	const void *data;
	size_t size;
	uint64_t v;
	long ret = -1;

	if (pd_reader_open(&r, path, &err))
		return -1;
	if (!pd_reader_feature(&r, PD_FEAT_DIR_FORMAT, &data, &size) && size == sizeof(v)) {
		memcpy(&v, data, sizeof(v));
		ret = (long)v;
	}
	pd_reader_close(&r);
	return ret;
}

/* The N in "(N samples," of perfcheck record's summary, or -1. */
static long long summary_samples(const char *err)
{
	const char *line = err ? strstr(err, " samples, ") : NULL;

	if (!line)
		return -1;
	while (line > err && line[-1] != '(')
		line--;
	return strtoll(line, NULL, 10);
}

static void record_threads(struct __test_metadata *_metadata, FIXTURE_DATA(thr) *self,
			   const char *spec, struct pc_run *run)
{
	const char *opts[] = { spec, "-e", "task-clock", "-F", "4000", "-o", self->out, NULL };

	ASSERT_EQ(0, rt_record(run, 60, opts, "threads", "0.5"));
	ASSERT_EQ(0, run->exit_code) TH_LOG("%s", run->err);
}

TEST_F(thr, directory_has_the_header_file_and_a_data_file_per_cpu_ring)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct pc_run run;
	struct stat st;
	int max_n;

	record_threads(_metadata, self, "--threads", &run);
	ASSERT_EQ(0, stat(self->out, &st));
	ASSERT_TRUE(S_ISDIR(st.st_mode)) TH_LOG("%s is not a directory", self->out);
	ASSERT_EQ(0, stat(rt_path(self->out, "data"), &st));
	/* perf's names: one data.N per ring, N from 0 */
	EXPECT_EQ(cpus, count_data_files(self->out, &max_n));
	EXPECT_EQ(cpus, max_n);
	EXPECT_EQ(1, dir_format(self->out)) TH_LOG("DIR_FORMAT version 1 in the header");
	pc_run_free(&run);
}

/*
 * Each data.N beside the header file alone in a directory of its own:
 * the reader reads it, and the samples of all add up to the whole.
 */
TEST_F(thr, every_data_file_reads_alone_and_their_samples_add_up)
{
	char one[PATH_MAX / 2], link[PATH_MAX], target[PATH_MAX];
	uint64_t sum = 0;
	struct rt_file whole;
	struct pc_run run;
	int max_n;

	record_threads(_metadata, self, "--threads", &run);
	ASSERT_EQ(0, rt_read(self->out, &whole)) TH_LOG("%s", whole.err);
	EXPECT_FALSE(whole.recovered);
	EXPECT_GT(whole.samples, 0);
	EXPECT_EQ((long long)whole.samples, summary_samples(run.err)) TH_LOG("%s", run.err);
	ASSERT_GT(count_data_files(self->out, &max_n), 0);
	for (int n = 0; n < max_n; n++) {
		struct rt_file f;

		snprintf(one, sizeof(one), "%s/one%d", self->dir, n);
		ASSERT_EQ(0, mkdir(one, 0700));
		snprintf(link, sizeof(link), "%s/data", one);
		snprintf(target, sizeof(target), "%s/data", self->out);
		ASSERT_EQ(0, symlink(target, link));
		snprintf(link, sizeof(link), "%s/data.%d", one, n);
		snprintf(target, sizeof(target), "%s/data.%d", self->out, n);
		ASSERT_EQ(0, symlink(target, link));
		ASSERT_EQ(0, rt_read(one, &f)) TH_LOG("data.%d: %s", n, f.err);
		sum += f.samples;
	}
	EXPECT_EQ(whole.samples, sum);
	pc_run_free(&run);
}

/*
 * What the header file's data section holds before the rings' records:
 * the position (record number in it, -1: none) of each preamble record,
 * the ID_INDEX entries, the maps, and each sample checked against them.
 */
struct preamble {
	int nr_data;			/* records in the header file */
	int id_index, thread_map, cpu_map, finished_init, kernel_mmap, first_task;
	int last_type;			/* of the header file's last record */
	int first_sample;		/* records before it (a single file's: -1 none) */
	struct pd_id_entry ids[64];
	int nr_ids;
	struct pd_thread_list threads;
	struct pd_cpu_list cpus;
	uint64_t samples;
	uint64_t samples_unindexed;	/* id in no entry */
	uint64_t samples_misplaced;	/* cpu or pid not those of its entry */
	uint64_t header_ids, header_ids_unindexed;	/* the attrs' ids */
	int event_update;		/* the first EVENT_UPDATE's position */
	struct {
		int at;			/* position */
		uint64_t type, id;
		char str[64];
		double scale;
	} updates[16];
	int nr_updates;
	struct {
		int at;			/* position */
		bool exec;		/* PERF_RECORD_MISC_COMM_EXEC */
		uint32_t pid, tid;
		char comm[16];
	} comms[2048];		/* the header file's COMMs, in order */
	int nr_comms;
	uint64_t clock_ids[64], other_ids[64];	/* the ids of task-clock, of any other event */
	int nr_clock_ids, nr_other_ids;
	char err[600];
};

static const struct pd_id_entry *entry_of(const struct preamble *p, uint64_t id)
{
	for (int i = 0; i < p->nr_ids; i++)
		if (p->ids[i].id == id)
			return &p->ids[i];
	return NULL;
}

static int note_preamble(struct preamble *p, const struct pd_reader *r,
			 const struct pd_record *rec, struct pc_error *err)
{
	int n = p->nr_data++;

	p->last_type = rec->header.type;
	switch (rec->header.type) {
	case PC_RECORD_ID_INDEX: {
		struct pd_id_entry *e;
		uint64_t nr;

		if (p->id_index < 0)
			p->id_index = n;
		if (pd_decode_id_index(r->path, rec, &e, &nr, err))
			return -1;
		for (uint64_t i = 0; i < nr && p->nr_ids < 64; i++)
			p->ids[p->nr_ids++] = e[i];
		free(e);
		return 0;
	}
	case PC_RECORD_THREAD_MAP:
		if (p->thread_map >= 0)
			return pc_error_set(err, EINVAL, "a second THREAD_MAP");
		p->thread_map = n;
		return pd_decode_thread_map(r->path, rec, &p->threads, err);
	case PC_RECORD_CPU_MAP:
		if (p->cpu_map >= 0)
			return pc_error_set(err, EINVAL, "a second CPU_MAP");
		p->cpu_map = n;
		return pd_decode_cpu_map(r->path, rec, 8, &p->cpus, err);
	case PC_RECORD_FINISHED_INIT:
		if (p->finished_init < 0)
			p->finished_init = n;
		return 0;
	case PERF_RECORD_MMAP:
		if (p->kernel_mmap < 0)
			p->kernel_mmap = n;
		return 0;
	case PC_RECORD_EVENT_UPDATE: {
		struct pd_event_update u;

		if (p->event_update < 0)
			p->event_update = n;
		if (p->nr_updates >= 16)
			return 0;
		if (pd_decode_event_update(r->path, rec, &u, err))
			return -1;
		p->updates[p->nr_updates].at = n;
		p->updates[p->nr_updates].type = u.type;
		p->updates[p->nr_updates].id = u.id;
		p->updates[p->nr_updates].scale = u.scale;
		if (u.type != PD_EVENT_UPDATE_SCALE && u.str)
			snprintf(p->updates[p->nr_updates].str, 64, "%s", u.str);
		p->nr_updates++;
		return 0;
	}
	case PERF_RECORD_COMM:
		if (p->nr_comms < 2048) {
			struct pd_comm c;

			if (pd_parse_comm(r, rec, &c, NULL, err))
				return -1;
			p->comms[p->nr_comms].at = n;
			p->comms[p->nr_comms].exec = rec->header.misc & PERF_RECORD_MISC_COMM_EXEC;
			p->comms[p->nr_comms].pid = c.pid;
			p->comms[p->nr_comms].tid = c.tid;
			snprintf(p->comms[p->nr_comms].comm, 16, "%s", c.comm);
			p->nr_comms++;
		}
		/* fall through */
	case PERF_RECORD_FORK:
	case PERF_RECORD_MMAP2:
		if (p->first_task < 0)
			p->first_task = n;
		return 0;
	}
	return 0;
}

static int read_preamble(const char *path, struct preamble *p)
{
	struct pc_error err = { 0 };
	struct pd_reader r;
	struct pd_record rec;
	uint64_t pos = 0, local;
	int ret;

	memset(p, 0, sizeof(*p));
	p->id_index = p->thread_map = p->cpu_map = p->finished_init = -1;
	p->kernel_mmap = p->first_task = p->first_sample = p->event_update = -1;
	if (pd_reader_open(&r, path, &err)) {
		snprintf(p->err, sizeof(p->err), "open: %s", err.msg);
		return -1;
	}
	while ((ret = pd_reader_next(&r, &pos, &rec, &err)) == 1) {
		const struct pd_id_entry *e;
		struct pd_sample s;

		/* a single file: its own samples are the rings' */
		if (!strcmp(pd_reader_where(&r, rec.offset, &local), r.path) &&
		    rec.header.type != PERF_RECORD_SAMPLE) {
			if (note_preamble(p, &r, &rec, &err)) {
				ret = -1;
				break;
			}
			continue;
		}
		if (rec.header.type != PERF_RECORD_SAMPLE)
			continue;
		if (pd_parse_sample(&r, &rec, &s, &err)) {
			ret = -1;
			break;
		}
		if (!p->samples++)
			p->first_sample = p->nr_data;
		e = entry_of(p, s.id);
		if (!e)
			p->samples_unindexed++;
		else if ((e->cpu >= 0 && s.evsel &&
			  (s.evsel->attr.attr.sample_type & PERF_SAMPLE_CPU) &&
			  e->cpu != (int64_t)s.cpu) ||
			 (e->tid >= 0 && e->tid != (int64_t)s.pid))
			p->samples_misplaced++;
	}
	for (uint32_t i = 0; i < r.nr_evsels; i++)
		for (uint32_t k = 0; k < r.evsels[i].nr_ids; k++) {
			const struct perf_event_attr *a = &r.evsels[i].attr.attr;

			if (a->type == PERF_TYPE_SOFTWARE && a->config == PERF_COUNT_SW_TASK_CLOCK) {
				if (p->nr_clock_ids < 64)
					p->clock_ids[p->nr_clock_ids++] = r.evsels[i].ids[k];
			} else if (p->nr_other_ids < 64) {
				p->other_ids[p->nr_other_ids++] = r.evsels[i].ids[k];
			}
			p->header_ids++;
			p->header_ids_unindexed += !entry_of(p, r.evsels[i].ids[k]);
		}
	if (ret < 0)
		snprintf(p->err, sizeof(p->err), "%s", err.msg);
	pd_reader_close(&r);
	return ret < 0 ? -1 : 0;
}

static void free_preamble(struct preamble *p)
{
	free(p->threads.pids);
	free(p->threads.comms);
	free(p->cpus.cpus);
}

/* A workload's recording: every cpu in order, its one thread, which the ids name */
static void expect_maps_of_the_workload(struct __test_metadata *_metadata,
					const struct preamble *p, long cpus)
{
	ASSERT_EQ((uint32_t)cpus, p->cpus.nr);
	for (uint32_t i = 0; i < p->cpus.nr; i++)
		EXPECT_EQ((int32_t)i, p->cpus.cpus[i]);
	ASSERT_EQ(1, p->threads.nr);
	ASSERT_GT(p->nr_ids, 0);
	EXPECT_GT(p->threads.pids[0], 0);
	EXPECT_EQ(p->threads.pids[0], p->ids[0].tid);
	EXPECT_EQ('\0', p->threads.comms[0][0]) TH_LOG("perf's comms are empty");
}

/* -C 1: cpu 1 alone, any thread, every id and sample there */
static void expect_maps_of_cpu_1(struct __test_metadata *_metadata, const struct preamble *p)
{
	ASSERT_EQ(1, p->cpus.nr);
	EXPECT_EQ(1, p->cpus.cpus[0]);
	ASSERT_EQ(1, p->threads.nr);
	EXPECT_EQ(-1, p->threads.pids[0]) TH_LOG("-C is cpu-wide: any thread");
	for (int i = 0; i < p->nr_ids; i++) {
		EXPECT_EQ(1, p->ids[i].cpu);
		EXPECT_EQ(-1, p->ids[i].tid);
	}
	EXPECT_EQ(0, p->samples_unindexed);
	EXPECT_EQ(0, p->samples_misplaced);
}


/*
 * Every sample's id is in the header file's ID_INDEX, on the cpu the
 * sample was taken on and the thread it was opened for (the workload), and
 * every id of the attrs too: one entry each, an idx per ring.
 */
TEST_F(thr, threads_data_holds_an_id_index_of_every_sample_id)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	/* --sample-cpu: each sample's cpu is checked against its entry's */
	const char *opts[] = { "--threads", "--sample-cpu", "-e", "task-clock", "-F", "4000", "-o",
			       self->out, NULL };
	struct preamble p;
	struct pc_run run;

	ASSERT_EQ(0, rt_record(&run, 60, opts, "threads", "0.5"));
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	ASSERT_EQ(0, read_preamble(self->out, &p)) TH_LOG("%s", p.err);
	ASSERT_EQ(0, p.id_index) TH_LOG("the ID_INDEX leads the data section, as perf's");
	ASSERT_GT(p.samples, 0);
	EXPECT_EQ(0, p.samples_unindexed);
	EXPECT_EQ(0, p.samples_misplaced);
	/* the attrs' ids: each indexed, none more (one task-clock per cpu) */
	EXPECT_EQ(p.header_ids, (uint64_t)p.nr_ids);
	EXPECT_EQ(0, p.header_ids_unindexed);
	EXPECT_EQ(cpus, p.nr_ids);
	for (int i = 0; i < p.nr_ids; i++) {
		/* per-cpu rings: the idx is the cpu's index, the tid the workload */
		EXPECT_EQ((uint64_t)i, p.ids[i].idx);
		EXPECT_EQ(i, p.ids[i].cpu);
		EXPECT_EQ(p.threads.nr ? p.threads.pids[0] : -2, p.ids[i].tid);
	}
	free_preamble(&p);
	pc_run_free(&run);
}

/*
 * The CPU_MAP holds the cpus recorded (-C 1 alone, or all online), the
 * THREAD_MAP the workload (the pid of the samples), or -1 with -a.
 */
TEST_F(thr, threads_cpu_map_and_thread_map_are_the_targets_recorded)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	const char *one_cpu[] = { "--threads", "-C", "1", "-e", "task-clock", "-o", self->out,
				  NULL };
	struct preamble p;
	struct pc_run run;

	record_threads(_metadata, self, "--threads", &run);
	pc_run_free(&run);
	ASSERT_EQ(0, read_preamble(self->out, &p)) TH_LOG("%s", p.err);
	expect_maps_of_the_workload(_metadata, &p, cpus);
	free_preamble(&p);

	if (cpus < 2)
		SKIP(return, "one cpu: -C 1 cannot be recorded");
	if (!pc_test_cpu_wide_allowed())
		SKIP(return, "cpu-wide events need root or perf_event_paranoid <= 0");
	ASSERT_EQ(0, rt_record(&run, 60, one_cpu, "spin", "0.2"));
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	pc_run_free(&run);
	ASSERT_EQ(0, read_preamble(self->out, &p)) TH_LOG("%s", p.err);
	expect_maps_of_cpu_1(_metadata, &p);
	for (int i = 0; i < p.nr_ids; i++)
		EXPECT_EQ(0, p.ids[i].idx);
	free_preamble(&p);
}

/*
 * perf's order in the header file: ID_INDEX, the kernel map, THREAD_MAP,
 * CPU_MAP, the tasks, and FINISHED_INIT last of all, once.
 */
TEST_F(thr, threads_data_ends_its_synthesized_preamble_with_finished_init)
{
	struct preamble p;
	struct pc_run run;

	record_threads(_metadata, self, "--threads", &run);
	pc_run_free(&run);
	ASSERT_EQ(0, read_preamble(self->out, &p)) TH_LOG("%s", p.err);
	EXPECT_EQ(0, p.id_index);
	ASSERT_GE(p.kernel_mmap, 0);
	EXPECT_LT(p.id_index, p.kernel_mmap);
	EXPECT_LT(p.kernel_mmap, p.thread_map);
	EXPECT_LT(p.thread_map, p.cpu_map);
	ASSERT_GE(p.first_task, 0) TH_LOG("the workload's COMM");
	EXPECT_LT(p.cpu_map, p.first_task);
	EXPECT_EQ(p.nr_data - 1, p.finished_init);
	EXPECT_EQ(PC_RECORD_FINISHED_INIT, p.last_type);
	free_preamble(&p);
}

/*
 * Without --threads, the single perf.data has the same preamble as perf
 * 6.1's: every sample's id (and every attr id) in its ID_INDEX, on the cpu
 * it was taken on and the workload it was opened for.
 */
TEST_F(thr, single_file_holds_an_id_index_of_every_sample_id)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	const char *opts[] = { "--sample-cpu", "-e", "task-clock", "-F", "4000", "-o", self->out,
			       NULL };
	struct preamble p;
	struct pc_run run;

	ASSERT_EQ(0, rt_record(&run, 60, opts, "threads", "0.5"));
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	ASSERT_EQ(0, read_preamble(self->out, &p)) TH_LOG("%s", p.err);
	ASSERT_EQ(0, p.id_index) TH_LOG("the ID_INDEX leads the data section, as perf's");
	ASSERT_GT(p.samples, 0);
	EXPECT_EQ(0, p.samples_unindexed);
	EXPECT_EQ(0, p.samples_misplaced);
	EXPECT_EQ(p.header_ids, (uint64_t)p.nr_ids);
	EXPECT_EQ(0, p.header_ids_unindexed);
	EXPECT_EQ(cpus, p.nr_ids);
	for (int i = 0; i < p.nr_ids; i++) {
		EXPECT_EQ((uint64_t)i, p.ids[i].idx);
		EXPECT_EQ(i, p.ids[i].cpu);
		EXPECT_EQ(p.threads.nr ? p.threads.pids[0] : -2, p.ids[i].tid);
	}
	free_preamble(&p);
	pc_run_free(&run);
}

/*
 * The single file's CPU_MAP holds the cpus recorded (all online, or -C 1
 * alone), its THREAD_MAP the workload, or -1 when cpu-wide.
 */
TEST_F(thr, single_file_cpu_map_and_thread_map_are_the_targets_recorded)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	const char *whole[] = { "-e", "task-clock", "-o", self->out, NULL };
	const char *one_cpu[] = { "-C", "1", "-e", "task-clock", "-o", self->out, NULL };
	struct preamble p;
	struct pc_run run;

	ASSERT_EQ(0, rt_record(&run, 60, whole, "threads", "0.3"));
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	pc_run_free(&run);
	ASSERT_EQ(0, read_preamble(self->out, &p)) TH_LOG("%s", p.err);
	expect_maps_of_the_workload(_metadata, &p, cpus);
	free_preamble(&p);

	if (cpus < 2)
		SKIP(return, "one cpu: -C 1 cannot be recorded");
	if (!pc_test_cpu_wide_allowed())
		SKIP(return, "cpu-wide events need root or perf_event_paranoid <= 0");
	ASSERT_EQ(0, rt_record(&run, 60, one_cpu, "spin", "0.2"));
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	pc_run_free(&run);
	ASSERT_EQ(0, read_preamble(self->out, &p)) TH_LOG("%s", p.err);
	expect_maps_of_cpu_1(_metadata, &p);
	free_preamble(&p);
}

/*
 * perf 6.1's order in a single file: ID_INDEX, the kernel map, THREAD_MAP,
 * CPU_MAP, the tasks, before the first sample; and no FINISHED_INIT, on
 * which a perf older than 5.19 stops reading ("failed to process type: 82").
 */
TEST_F(thr, single_file_has_the_preamble_in_perf_order_without_finished_init)
{
	const char *opts[] = { "-e", "task-clock", "-F", "4000", "-o", self->out, NULL };
	struct preamble p;
	struct pc_run run;

	ASSERT_EQ(0, rt_record(&run, 60, opts, "threads", "0.3"));
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	pc_run_free(&run);
	ASSERT_EQ(0, read_preamble(self->out, &p)) TH_LOG("%s", p.err);
	EXPECT_EQ(0, p.id_index);
	ASSERT_GE(p.kernel_mmap, 0);
	EXPECT_LT(p.id_index, p.kernel_mmap);
	EXPECT_LT(p.kernel_mmap, p.thread_map);
	EXPECT_LT(p.thread_map, p.cpu_map);
	ASSERT_GE(p.first_task, 0) TH_LOG("the workload's COMM");
	EXPECT_LT(p.cpu_map, p.first_task);
	ASSERT_GE(p.first_sample, 0);
	EXPECT_LT(p.first_task, p.first_sample);
	EXPECT_EQ(-1, p.finished_init) TH_LOG("perf 5.10 cannot read a FINISHED_INIT");
	free_preamble(&p);
}

/*
 * --tail-synthesize: the ID_INDEX, the kernel map and the maps follow the
 * events' records, as perf 6.1 writes them (there after its FINISHED_INIT).
 */
TEST_F(thr, tail_synthesized_file_has_the_preamble_after_the_samples)
{
	const char *opts[] = { "--tail-synthesize", "-e", "task-clock", "-F", "4000", "-o",
			       self->out, NULL };
	struct preamble p;
	struct pc_run run;

	ASSERT_EQ(0, rt_record(&run, 60, opts, "threads", "0.3"));
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	pc_run_free(&run);
	ASSERT_EQ(0, read_preamble(self->out, &p)) TH_LOG("%s", p.err);
	ASSERT_GE(p.first_sample, 0);
	EXPECT_LT(p.first_sample, p.id_index);
	EXPECT_LT(p.id_index, p.kernel_mmap);
	EXPECT_LT(p.kernel_mmap, p.thread_map);
	EXPECT_LT(p.thread_map, p.cpu_map);
	EXPECT_EQ(-1, p.finished_init);
	free_preamble(&p);
}

/*
 * perf 6.1's EVENT_UPDATEs of a task-clock and page-faults recording:
 * task-clock's unit "msec" then its scale 1e-6, by its first id, between
 * the kernel map and THREAD_MAP; nothing for page-faults (no unit, scale
 * 1), and no name (a file has EVENT_DESC).
 */
static void check_clock_updates(struct __test_metadata *_metadata, const struct preamble *p)
{
	ASSERT_EQ(2, p->nr_updates);
	ASSERT_GT(p->nr_clock_ids, 0);
	ASSERT_GT(p->nr_other_ids, 0) TH_LOG("page-faults opened");
	EXPECT_EQ(PD_EVENT_UPDATE_UNIT, p->updates[0].type);
	EXPECT_STREQ("msec", p->updates[0].str);
	EXPECT_EQ(PD_EVENT_UPDATE_SCALE, p->updates[1].type);
	EXPECT_TRUE(p->updates[1].scale == 1e-6) TH_LOG("scale %g", p->updates[1].scale);
	for (int i = 0; i < 2; i++)
		EXPECT_EQ(p->clock_ids[0], p->updates[i].id) TH_LOG("task-clock's first id");
	ASSERT_GE(p->kernel_mmap, 0);
	EXPECT_LT(p->kernel_mmap, p->updates[0].at);
	EXPECT_EQ(p->updates[0].at + 1, p->updates[1].at);
	EXPECT_EQ(p->updates[1].at + 1, p->thread_map);
}

TEST_F(thr, single_file_event_updates_give_task_clock_msec_and_its_scale_before_the_thread_map)
{
	const char *opts[] = { "-e", "task-clock", "-e", "page-faults", "-o", self->out, NULL };
	struct preamble p;
	struct pc_run run;

	ASSERT_EQ(0, rt_record(&run, 60, opts, "threads", "0.3"));
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	pc_run_free(&run);
	ASSERT_EQ(0, read_preamble(self->out, &p)) TH_LOG("%s", p.err);
	check_clock_updates(_metadata, &p);
	free_preamble(&p);
}

TEST_F(thr, threads_data_event_updates_give_task_clock_msec_and_its_scale_before_the_thread_map)
{
	const char *opts[] = { "--threads", "-e", "task-clock", "-e", "page-faults", "-o",
			       self->out, NULL };
	struct preamble p;
	struct pc_run run;

	ASSERT_EQ(0, rt_record(&run, 60, opts, "threads", "0.3"));
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	pc_run_free(&run);
	ASSERT_EQ(0, read_preamble(self->out, &p)) TH_LOG("%s", p.err);
	check_clock_updates(_metadata, &p);
	free_preamble(&p);
}

/* The position of the COMM "perf-exec" of the preamble (-1: none), and that it is the only one. */
static int perf_exec_comm(struct __test_metadata *_metadata, const struct preamble *p)
{
	int at = -1;

	for (int i = 0; i < p->nr_comms; i++) {
		if (p->comms[i].exec || strcmp(p->comms[i].comm, "perf-exec"))
			continue;
		EXPECT_EQ(-1, at) TH_LOG("a second COMM perf-exec");
		at = i;
	}
	return at;
}

/*
 * -p PID with a command: the command is not recorded, but its COMM
 * "perf-exec" (pid and tid its own) follows the target's records, last of
 * the synthesized ones, as perf 6.1 writes it (there before FINISHED_INIT).
 */
TEST_F(thr, pid_target_with_a_command_has_the_commands_perf_exec_comm_after_the_targets)
{
	char pid[16];
	const char *opts[] = { "-p", pid, "-e", "task-clock", "-o", self->out, NULL };
	struct preamble p;
	struct pc_run run;
	pid_t target = fork();
	int at, target_at = -1;

	ASSERT_LE(0, target);
	if (!target) {
		execlp("sleep", "sleep", "30", (char *)NULL);
		_exit(127);
	}
	snprintf(pid, sizeof(pid), "%d", target);
	usleep(100 * 1000);	/* exec'd: its comm is sleep */
	EXPECT_EQ(0, rt_record(&run, 60, opts, "threads", "0.3"));
	kill(target, SIGKILL);
	waitpid(target, NULL, 0);
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	pc_run_free(&run);
	ASSERT_EQ(0, read_preamble(self->out, &p)) TH_LOG("%s", p.err);
	for (int i = 0; i < p.nr_comms; i++)
		if (p.comms[i].pid == (uint32_t)target && !strcmp(p.comms[i].comm, "sleep"))
			target_at = p.comms[i].at;
	ASSERT_GE(target_at, 0) TH_LOG("the target's COMM");
	at = perf_exec_comm(_metadata, &p);
	ASSERT_GE(at, 0) TH_LOG("no COMM perf-exec");
	EXPECT_NE((uint32_t)target, p.comms[at].pid);
	EXPECT_GT(p.comms[at].pid, 0);
	EXPECT_EQ(p.comms[at].pid, p.comms[at].tid);
	EXPECT_LT(target_at, p.comms[at].at);
	EXPECT_EQ(p.nr_data - 1, p.comms[at].at) TH_LOG("the last synthesized record");
	free_preamble(&p);
}

/*
 * -a with a command: the command is among the tasks of /proc ("perf-exec",
 * its name until it execs), and its COMM "perf-exec" comes once more, by
 * its pid, before the exec.  Counted, not placed: the rings of the cpus
 * are written one after another, so the kernel's own COMMs of the command
 * (its rename, its exec) may come in another order than they happened.
 */
TEST_F(thr, system_wide_with_a_command_has_the_commands_perf_exec_comm_after_the_tasks)
{
	const char *opts[] = { "-a", "-e", "task-clock", "-o", self->out, NULL };
	struct preamble p;
	struct pc_run run;
	int exec_at = -1, before = 0;

	if (!pc_test_cpu_wide_allowed())
		SKIP(return, "cpu-wide events need root or perf_event_paranoid <= 0");
	ASSERT_EQ(0, rt_record(&run, 60, opts, "threads", "0.3"));
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	pc_run_free(&run);
	ASSERT_EQ(0, read_preamble(self->out, &p)) TH_LOG("%s", p.err);
	/* the exec of a process that was "perf-exec" before it: the command's */
	for (int i = 0; i < p.nr_comms && exec_at < 0; i++)
		for (int k = 0; k < i && p.comms[i].exec; k++)
			if (!p.comms[k].exec && p.comms[k].pid == p.comms[i].pid &&
			    !strcmp(p.comms[k].comm, "perf-exec")) {
				exec_at = i;
				break;
			}
	ASSERT_GE(exec_at, 0) TH_LOG("no exec of a process named perf-exec before it");
	for (int k = 0; k < exec_at; k++)
		before += !p.comms[k].exec && p.comms[k].pid == p.comms[exec_at].pid &&
			  p.comms[k].pid == p.comms[k].tid && !strcmp(p.comms[k].comm, "perf-exec");
	/* /proc's, then the command's own (a third where the kernel saw its rename) */
	EXPECT_LE(2, before);
	free_preamble(&p);
}

/*
 * --tail-synthesize: the command has exited, but perf's tail finds it a
 * zombie still: its COMM by the name it exited with (pid and tid its own),
 * after the samples and before the ID_INDEX.
 */
TEST_F(thr, tail_synthesized_file_has_the_exited_commands_comm_by_its_last_name)
{
	const char *opts[] = { "--tail-synthesize", "-e", "task-clock", "-o", self->out, NULL };
	struct preamble p;
	struct pc_run run;
	int pre = -1, exec = -1, tail = -1;

	ASSERT_EQ(0, rt_record(&run, 60, opts, "threads", "0.3"));
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	pc_run_free(&run);
	ASSERT_EQ(0, read_preamble(self->out, &p)) TH_LOG("%s", p.err);
	for (int i = 0; i < p.nr_comms && pre < 0; i++)
		if (!p.comms[i].exec && !strcmp(p.comms[i].comm, "perf-exec"))
			pre = i;
	ASSERT_GE(pre, 0) TH_LOG("the command's COMM before its exec");
	for (int i = pre + 1; i < p.nr_comms && exec < 0; i++)
		if (p.comms[i].exec && p.comms[i].pid == p.comms[pre].pid)
			exec = i;
	ASSERT_GE(exec, 0) TH_LOG("the command's exec");
	for (int i = exec + 1; i < p.nr_comms; i++)
		if (!p.comms[i].exec && p.comms[i].pid == p.comms[exec].pid)
			tail = i;
	ASSERT_GE(tail, 0) TH_LOG("no tail COMM of %u", p.comms[exec].pid);
	EXPECT_EQ(p.comms[exec].pid, p.comms[tail].tid);
	EXPECT_STREQ(p.comms[exec].comm, p.comms[tail].comm);
	EXPECT_LT(p.first_sample, p.comms[tail].at);
	EXPECT_LT(p.comms[tail].at, p.id_index);
	free_preamble(&p);
}

TEST_F(thr, sigint_stopped_recording_is_a_finished_directory)
{
	const char *opts[] = { "--threads", "-e", "task-clock", "-o", self->out, NULL };
	struct rt_file f;
	pid_t pid = rt_spawn(opts, "spin", "30", self->errfile);
	int code;

	ASSERT_GT(pid, 0);
	usleep(1000 * 1000);
	kill(pid, SIGINT);
	code = rt_wait(pid, 30);
	kill(-pid, SIGKILL);		/* the workload, if left behind */
	EXPECT_NE(-1, code);
	EXPECT_NE(NULL, strstr(rt_slurp(self->errfile), "perfcheck record: Captured and wrote"))
		TH_LOG("%s", rt_slurp(self->errfile));
	EXPECT_EQ(1, dir_format(self->out));
	ASSERT_EQ(0, rt_read(self->out, &f)) TH_LOG("%s", f.err);
	EXPECT_FALSE(f.recovered) TH_LOG("the header was finished");
	EXPECT_GT(f.samples, 0);
}

TEST_F(thr, timeout_finishes_the_directory_with_exit_124)
{
	const char *opts[] = { "--threads", "--timeout", "0.5", "-e", "task-clock", "-o",
			       self->out, NULL };
	struct pc_run run;
	struct rt_file f;

	ASSERT_EQ(0, rt_record(&run, 60, opts, "spin", "30"));
	EXPECT_EQ(124, run.exit_code) TH_LOG("%s", run.err);
	EXPECT_EQ(1, dir_format(self->out));
	ASSERT_EQ(0, rt_read(self->out, &f)) TH_LOG("%s", f.err);
	EXPECT_FALSE(f.recovered);
	EXPECT_GT(f.samples, 0);
	pc_run_free(&run);
}

/*
 * Fills the filesystem of dir up to keep free bytes (a file of the rest):
 * the recording then meets a full disk after a few dozen KiB, however few
 * samples the kernel lets through (a TCG guest throttled task-clock to 491
 * samples in 20 s, 67 KB, and the test's 256 KiB never filled)
 */
static int fill_up_to(const char *dir, long long keep)
{
	struct statvfs sv;
	long long pad;
	int fd, ret;

	if (statvfs(dir, &sv))
		return -1;
	pad = (long long)sv.f_bavail * (long long)sv.f_frsize - keep;
	if (pad <= 0)
		return 0;
	fd = open(rt_path(dir, "pad"), O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		return -1;
	ret = posix_fallocate(fd, 0, (off_t)pad);
	close(fd);
	return ret ? -1 : 0;
}

TEST_F(thr, full_disk_stops_with_a_clear_error_and_a_directory_perf_can_read)
{
	const char *opts[] = { "--threads", "-g", "-e", "task-clock", "-F", "4000", "-m", "16",
			       "--timeout", "15", "-o", self->out, NULL };
	struct pc_run run;
	struct rt_file f;

	if (mount("perfcheck", self->dir, "tmpfs", 0, "size=1m"))
		SKIP(return, "cannot mount a tmpfs (%s): needs root", strerror(errno));
	self->mounted = true;
	/* the recorder's 128 KiB held back for the header, and 16 KiB of records */
	ASSERT_EQ(0, fill_up_to(self->dir, (128 + 16) * 1024)) TH_LOG("%s", strerror(errno));
	ASSERT_EQ(0, rt_record(&run, 60, opts, "threads", "30"));
	/* a kernel that lets too few samples through for 16 KiB in 15 s (a slow guest) */
	if (run.exit_code == 124 && !strstr(run.err, "No space left on device"))
		SKIP(return, "the disk did not fill in 15 s (%lld samples written): %.200s",
		     summary_samples(run.err), run.err);
	EXPECT_NE(0, run.exit_code);
	EXPECT_NE(NULL, strstr(run.err, "No space left on device")) TH_LOG("stderr: %s", run.err);
	/* perf reads a directory only with its DIR_FORMAT: it must survive the full disk */
	EXPECT_EQ(1, dir_format(self->out));
	ASSERT_EQ(0, rt_read(self->out, &f)) TH_LOG("%s", f.err);
	EXPECT_FALSE(f.recovered);
	EXPECT_GT(f.samples, 0);
	EXPECT_EQ((long long)f.samples, summary_samples(run.err)) TH_LOG("%s", run.err);
	pc_run_free(&run);
}

TEST_F(thr, previous_recording_becomes_old_whatever_its_kind)
{
	const char *file_opts[] = { "-e", "task-clock", "-o", self->out, NULL };
	struct pc_run run;
	struct stat st;

	ASSERT_EQ(0, rt_record(&run, 60, file_opts, "spin", "0.1"));
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	pc_run_free(&run);
	record_threads(_metadata, self, "--threads", &run);
	pc_run_free(&run);
	ASSERT_EQ(0, stat(rt_path(self->dir, "perf.data.old"), &st));
	EXPECT_TRUE(S_ISREG(st.st_mode)) TH_LOG("the file became perf.data.old");
	/* a directory over a directory: the older one goes, the last becomes .old */
	record_threads(_metadata, self, "--threads", &run);
	pc_run_free(&run);
	ASSERT_EQ(0, stat(rt_path(self->dir, "perf.data.old"), &st));
	EXPECT_TRUE(S_ISDIR(st.st_mode));
	EXPECT_EQ(1, dir_format(rt_path(self->dir, "perf.data.old")));
	EXPECT_EQ(1, dir_format(self->out));
}

TEST_F(thr, bad_spec_is_a_usage_error_naming_itself)
{
	static const char *const specs[] = { "--threads=bogus", "--threads=0/0:0/1",
					     "--threads=0-1" };

	for (size_t i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		const char *opts[] = { specs[i], "-e", "task-clock", "-o", self->out, NULL };
		struct pc_run run;

		ASSERT_EQ(0, rt_record(&run, 30, opts, "spin", "0.1"));
		EXPECT_EQ(129, run.exit_code) TH_LOG("%s: %s", specs[i], run.err);
		EXPECT_NE(NULL, strstr(run.err, specs[i] + 2)) TH_LOG("%s", run.err);
		pc_run_free(&run);
	}
}

TEST_F(thr, pipe_output_is_refused_with_perfs_reason)
{
	const char *opts[] = { "--threads", "-e", "task-clock", "-o", "-", NULL };
	struct pc_run run;

	ASSERT_EQ(0, rt_record(&run, 30, opts, "spin", "0.1"));
	EXPECT_EQ(129, run.exit_code);
	EXPECT_NE(NULL, strstr(run.err, "Parallel trace streaming is not available in pipe "
				 "mode")) TH_LOG("%s", run.err);
	pc_run_free(&run);
}

RECORD_TEST_MAIN()
