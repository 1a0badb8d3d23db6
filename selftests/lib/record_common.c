// SPDX-License-Identifier: GPL-2.0
/* The helpers declared in record_common.h, compiled once for every test. */
#include "record_common.h"

volatile uint64_t wl_sink;
volatile uintptr_t wl_ret_in_mid, wl_ret_in_top;

double wl_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

WL_FN static void wl_tick(void)
{
	wl_sink++;
}

WL_FN static void wl_leaf(void)
{
	wl_ret_in_mid = (uintptr_t)__builtin_return_address(0);
	for (int i = 0; i < 4000; i++) {
		wl_sink += (uint64_t)i * 3;
		if ((i & 1023) == 0)
			wl_tick();
	}
}

WL_FN static void wl_mid(void)
{
	wl_ret_in_top = (uintptr_t)__builtin_return_address(0);
	wl_leaf();
	wl_sink++;
}

WL_FN static void wl_top(double secs)
{
	double end = wl_now() + secs;

	while (wl_now() < end) {
		for (int i = 0; i < 50; i++)
			wl_mid();
	}
}

/* The process's own CPU time: what cpu-clock and task-clock count. */
static double wl_cpu_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Spins until the process has run secs of CPU, however long a loaded machine takes. */
WL_FN static void wl_top_cpu(double secs)
{
	while (wl_cpu_now() < secs) {
		for (int i = 0; i < 50; i++)
			wl_mid();
	}
}

void *wl_thread(void *arg)
{
	wl_top(*(double *)arg);
	return NULL;
}

/*
 * The workloads run under make SAN=1 too, where LeakSanitizer's check at
 * exit runs in a task it clones (a pid of its own): its FORK and samples
 * would count as the workload's in the recordings.  Off in workload mode
 * (the sanitizer runtime calls this hook; unused without one).
 */
static int in_workload;
int __lsan_is_turned_off(void);
int __lsan_is_turned_off(void)
{
	return in_workload;
}

int wl_main(const char *mode, const char *arg)
{
	double secs = arg ? atof(arg) : 1;

	in_workload = 1;

	if (!strcmp(mode, "spin")) {
		const char *addrs = getenv("PC_WL_ADDRS");

		wl_top(secs);
		if (addrs) {
			FILE *f = fopen(addrs, "w");

			if (!f)
				return 2;
			fprintf(f, "%llx %llx\n", (unsigned long long)wl_ret_in_mid,
				(unsigned long long)wl_ret_in_top);
			fclose(f);
		}
		return 0;
	}
	if (!strcmp(mode, "cpuspin")) {
		wl_top_cpu(secs);
		return 0;
	}
	if (!strcmp(mode, "threads")) {
		pthread_t t;

		if (pthread_create(&t, NULL, wl_thread, &secs))
			return 2;
		wl_top(secs);
		pthread_join(t, NULL);
		return 0;
	}
	if (!strcmp(mode, "fork")) {
		int status;
		pid_t pid = fork();

		if (pid < 0)
			return 2;
		wl_top(secs);
		if (pid == 0)
			_exit(0);
		waitpid(pid, &status, 0);
		return 0;
	}
	if (!strcmp(mode, "faults")) {
		/*
		 * A burst of page faults, far more samples than a small ring
		 * holds, while the recorder (our parent) is stopped: nothing
		 * drains the ring, so the kernel must lose records whatever the
		 * speed of the machine (a TCG guest's recorder kept up otherwise).
		 */
		size_t len = (size_t)(secs * (64 << 20));
		char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		pid_t recorder = getppid();

		if (p == MAP_FAILED)
			return 2;
		/* one fault per 4 KiB page: transparent huge pages would fault 2 MiB at once */
		madvise(p, len, MADV_NOHUGEPAGE);
		kill(recorder, SIGSTOP);
		for (size_t off = 0; off < len; off += 4096)
			p[off] = 1;
		kill(recorder, SIGCONT);
		munmap(p, len);
		return 0;
	}
	if (!strcmp(mode, "exit")) {
		wl_top(0.2);
		return atoi(arg);
	}
	if (!strcmp(mode, "signal")) {
		wl_top(0.2);
		signal(atoi(arg), SIG_DFL);
		raise(atoi(arg));
		return 3;
	}
	return 2;
}

char rt_workload_copy[PATH_MAX];

const char *rt_self(void)
{
	static char self[64];

	if (rt_workload_copy[0])
		return rt_workload_copy;
	snprintf(self, sizeof(self), "/proc/%d/exe", (int)getpid());
	return self;
}

int rt_use_copy(const char *dir)
{
	char buf[65536];
	ssize_t n;
	int in = open("/proc/self/exe", O_RDONLY), out;

	snprintf(rt_workload_copy, sizeof(rt_workload_copy), "%s/pc-workload", dir);
	out = open(rt_workload_copy, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	if (in < 0 || out < 0)
		goto fail;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			goto fail;
	close(in);
	close(out);
	return n < 0 ? -1 : 0;
fail:
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	rt_workload_copy[0] = '\0';
	return -1;
}

void rt_argv(char **out, const char *const *opts, const char *mode, const char *arg)
{
	int n = 0;

	out[n++] = (char *)pc_test_perfcheck();
	out[n++] = "record";
	for (; opts && *opts && n < RT_MAX_ARGS - 8; opts++)
		out[n++] = (char *)*opts;
	if (mode) {
		out[n++] = "--";
		out[n++] = (char *)rt_self();
		out[n++] = "--workload";
		out[n++] = (char *)mode;
		if (arg)
			out[n++] = (char *)arg;
	}
	out[n] = NULL;
}

int rt_record(struct pc_run *run, int timeout, const char *const *opts,
		     const char *mode, const char *arg)
{
	char *argv[RT_MAX_ARGS];

	rt_argv(argv, opts, mode, arg);
	return pc_test_run(run, timeout, argv);
}

pid_t rt_spawn(const char *const *opts, const char *mode, const char *arg,
		      const char *errfile)
{
	char *argv[RT_MAX_ARGS];
	pid_t pid;

	rt_argv(argv, opts, mode, arg);
	pid = fork();
	if (pid == 0) {
		int fd = open(errfile, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int nul = open("/dev/null", O_RDWR);

		setpgid(0, 0);
		dup2(nul, 0);
		dup2(nul, 1);
		dup2(fd, 2);
		execv(argv[0], argv);
		_exit(127);
	}
	return pid;
}

int rt_wait(pid_t pid, int timeout)
{
	double end = wl_now() + timeout;
	int status;

	while (wl_now() < end) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		usleep(20000);
	}
	kill(-pid, SIGKILL);
	waitpid(pid, &status, 0);
	return -1;
}

char *rt_slurp(const char *path)
{
	static char buf[8192];
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? 0 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	return buf;
}

void rt_add_id(uint32_t *set, int *nr, uint32_t v)
{
	for (int i = 0; i < *nr; i++)
		if (set[i] == v)
			return;
	if (*nr < RT_MAX_PIDS)
		set[(*nr)++] = v;
}

bool rt_chain_has_pair(const uint64_t *ips, uint64_t nr, const uint64_t *pair)
{
	for (uint64_t i = 0; i + 1 < nr; i++)
		if (ips[i] == pair[0] && ips[i + 1] == pair[1])
			return true;
	return false;
}

int rt_read(const char *path, struct rt_file *f)
{
	uint64_t pair[2] = { f->pair[0], f->pair[1] };
	struct pc_error err = { 0 };
	struct pd_reader r;
	struct pd_record rec;
	uint64_t pos = 0;
	int ret;

	memset(f, 0, sizeof(*f));
	f->pair[0] = pair[0];
	f->pair[1] = pair[1];
	if (pd_reader_open(&r, path, &err)) {
		snprintf(f->err, sizeof(f->err), "open: %s", err.msg);
		return -1;
	}
	f->recovered = r.data_size_recovered;
	f->nr_evsels = r.nr_evsels;
	while ((ret = pd_reader_next(&r, &pos, &rec, &err)) == 1) {
		struct pd_sample s;

		f->records++;
		switch (rec.header.type) {
		case PERF_RECORD_SAMPLE:
			if (pd_parse_sample(&r, &rec, &s, &err)) {
				snprintf(f->err, sizeof(f->err), "sample: %s", err.msg);
				pd_reader_close(&r);
				return -1;
			}
			f->samples++;
			if (s.evsel && s.evsel - r.evsels < 8)
				f->evsel_samples[s.evsel - r.evsels]++;
			rt_add_id(f->pids, &f->nr_pids, s.pid);
			for (int i = 0; i < f->nr_pids; i++)
				if (f->pids[i] == s.pid)
					f->pid_samples[i]++;
			rt_add_id(f->tids, &f->nr_tids, s.tid);
			for (int i = 0; i < f->nr_tids; i++)
				if (f->tids[i] == s.tid)
					f->tid_pid[i] = s.pid;
			if (s.evsel && (s.evsel->attr.attr.sample_type & PERF_SAMPLE_CPU)) {
				if (s.cpu < 64)
					f->cpu_mask |= 1ULL << s.cpu;
				if (s.cpu > f->max_cpu)
					f->max_cpu = s.cpu;
			}
			if (s.chain.nr) {
				f->chains++;
				if (pair[0] && rt_chain_has_pair(s.chain.ips, s.chain.nr, pair))
					f->chains_with_pair++;
			}
			break;
		case PC_RECORD_CALLCHAIN_DEFERRED: {
			struct pd_deferred d;

			f->deferred++;
			if (!pd_parse_deferred(&r, &rec, &d, NULL, &err) && pair[0] &&
			    rt_chain_has_pair(d.ips, d.nr, pair))
				f->chains_with_pair++;
			break;
		}
		case PC_RECORD_FINISHED_ROUND: f->rounds++; break;
		case PERF_RECORD_COMM: f->comms++; break;
		case PERF_RECORD_MMAP:
		case PERF_RECORD_MMAP2: f->mmaps++; break;
		case PERF_RECORD_FORK: f->forks++; break;
		case PERF_RECORD_SWITCH:
		case PERF_RECORD_SWITCH_CPU_WIDE: f->switches++; break;
		case PERF_RECORD_LOST: f->lost++; break;
		}
	}
	if (ret < 0) {
		snprintf(f->err, sizeof(f->err), "records: %s", err.msg);
		pd_reader_close(&r);
		return -1;
	}
	pd_reader_close(&r);
	return 0;
}

uint64_t rt_pid_samples(const struct rt_file *f, uint32_t pid)
{
	for (int i = 0; i < f->nr_pids; i++)
		if (f->pids[i] == pid)
			return f->pid_samples[i];
	return 0;
}

int rt_tids_of(const struct rt_file *f, uint32_t pid)
{
	int n = 0;

	for (int i = 0; i < f->nr_tids; i++)
		n += f->tid_pid[i] == pid;
	return n;
}

uint32_t rt_busiest_pid(const struct rt_file *f)
{
	uint64_t best = 0;
	uint32_t pid = 0;

	for (int i = 0; i < f->nr_pids; i++)
		if (f->pid_samples[i] > best) {
			best = f->pid_samples[i];
			pid = f->pids[i];
		}
	return pid;
}

char *rt_path(const char *dir, const char *name)
{
	static char buf[4][PATH_MAX];
	static int k;

	k = (k + 1) % 4;
	snprintf(buf[k], sizeof(buf[k]), "%s/%s", dir, name);
	return buf[k];
}
