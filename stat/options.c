// SPDX-License-Identifier: GPL-2.0
/*
 * perf stat's command line.  The first word that is not an option starts
 * the workload ("+" in the option string), as perf does.
 */
#include <errno.h>
#include <limits.h>
#include <getopt.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "stat/stat.h"
#include "util/cgroup.h"
#include "util/log.h"

static void usage(FILE *out)
{
	fprintf(out,
"usage: perfcheck stat [OPTIONS] [-- COMMAND [ARGS]]\n"
"       perfcheck stat record [-o FILE] [OPTIONS] [-- COMMAND [ARGS]]\n"
"                             the counts also written to FILE (perf.data) as perf stat record\n"
"       perfcheck stat report [-i FILE] [-A|--per-*|--per-thread] [-x SEP|-j]\n"
"                             a stat record file's counts, as perf stat report\n"
"\n"
"  -e, --event EVENT[,EVENT]  events to count (default: task-clock, cpu-clock with\n"
"                             -a or -C, context-switches cpu-migrations page-faults\n"
"                             cycles instructions branches branch-misses; with\n"
"                             --compat 7.2 perf 7.2's set and its metrics)\n"
"  -p, --pid PID[,PID]        count these processes\n"
"  -t, --tid TID[,TID]        count these threads\n"
"  -a, --all-cpus             system-wide, every cpu\n"
"  -C, --cpu LIST             only these cpus (0-3,6)\n"
"      --per-thread           one line per thread (with -p/-t; with -a every\n"
"                             thread there is at the start, those that ran)\n"
"  -G, --cgroup NAME[,NAME]   with -a/-C: the events before it counted in these\n"
"                             cgroups alone, one name per event in order (one name:\n"
"                             every event; an empty name: that event everywhere)\n"
"      --for-each-cgroup NAME[,NAME]  with -a/-C: every event counted in each of\n"
"                             these cgroups, cgroup after cgroup (no -G with it);\n"
"                             a list with any of {}[]()|*+?^$ is regular expressions\n"
"                             naming the cgroups they match, in the hierarchy's order\n"
"  -A, --no-aggr              one line per cpu (with -a/-C)\n"
"      --per-socket           per socket (with -a/-C), and the cpus counted\n"
"      --per-die              per die of a socket (with -a/-C)\n"
"      --per-core             per core of a die (with -a/-C)\n"
"      --per-node             per NUMA node (with -a/-C)\n"
"      --per-cluster          per cluster of cpus (with -a/-C; --compat 6.12 or 7.2)\n"
"      --per-cache[=LN]       per cache of level N (default: the last level; with\n"
"                             -a/-C; --compat 6.12 or 7.2)\n"
"  -i, --no-inherit           children are not counted\n"
"      --all-user             count user space only (exclude_kernel on every event)\n"
"      --all-kernel           count the kernel only (exclude_user on every event)\n"
"  -D, --delay MSEC           start counting MSEC after the command started\n"
"                             (-1: never)\n"
"  -I, --interval-print MSEC  print the counts of every MSEC interval\n"
"      --interval-count N     only the first N intervals (the command runs on)\n"
"      --interval-clear       clear the screen (on stdout) and print the titles\n"
"                             before each interval\n"
"      --summary              after -I's lines, the run's totals (CSV: \"summary\"\n"
"                             first, unless --no-csv-summary)\n"
"      --timeout MSEC         end the count after MSEC (SIGTERM to the command;\n"
"                             exit 124)\n"
"  -n, --null                 no counters: the elapsed time alone\n"
"  -d, --detailed             also L1 and last level cache loads and misses;\n"
"                             -dd: and L1-icache and TLBs; -ddd: and prefetches\n"
"  -o, --output FILE          the counts into FILE (\"# started on\" first), not stderr\n"
"      --append               append to -o's FILE (or --log-fd's)\n"
"      --log-fd N             the counts to descriptor N, not stderr\n"
"      --control fifo:CTL[,ACK] | fd:CTL[,ACK]  'enable' and 'disable' the\n"
"                             counters (with -D -1: counted only when enabled)\n"
"  -r, --repeat N             run the command N times: mean and its error; 0: each\n"
"                             run printed alone, until SIGINT or SIGTERM\n"
"      --pre CMD, --post CMD  shell commands before and after each run (a\n"
"                             failing one ends stat with its status, as perf)\n"
"      --sync                 sync() before each run\n"
"      --table                with -r: each run's elapsed time before the mean\n"
"  -x, --field-separator SEP  CSV lines: value,unit,event,run,pcnt,metric,unit\n"
"      --compat 6.1|6.12|7.2  the layout of that perf stat (default 6.1); 7.2's\n"
"                             has no metrics beside -e's events (its come from its\n"
"                             metric tables), its default set's Default metrics\n"
"      --no-merge             6.1: no effect; 6.12 and 7.2: one line per cpu, as -A\n"
"  -j, --json-output          one JSON object per counter\n"
"  -B, --big-num              thousands separators of the locale (the default)\n"
"      --no-big-num           counts without them\n"
"      --no-scale             a multiplexed count as read, not scaled to the enabled\n"
"                             time (--scale: scaled, the default)\n"
"  -q, --quiet                no messages\n"
"  -v, --verbose              more messages (repeatable)\n"
"  -h, --help                 this help\n"
"\n"
"Exit status: the command's (128+N when signal N killed it), 127 when it\n"
"cannot be run, 129 for a usage error, perf's -EINVAL where it gives one (234;\n"
"22 as 7.2), 255 for any other error.\n");
}

static int parse_uint(const char *s, unsigned int *v, unsigned int min, const char *what,
		      struct pc_error *err)
{
	char *end;
	unsigned long n;

	errno = 0;
	n = strtoul(s, &end, 10);
	if (errno || end == s || *end || n < min || n > 1000000000UL)
		return pc_error_set(err, EINVAL, "%s: '%s' is not a number >= %u", what, s, min);
	*v = (unsigned int)n;
	return 0;
}

static int parse_pids(struct stat_opts *o, const char *s, struct pc_error *err)
{
	char *copy = strdup(s), *save = NULL;

	if (!copy)
		return pc_error_set(err, ENOMEM, "out of memory");
	for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *end;
		long pid = strtol(tok, &end, 10);
		pid_t *v;

		if (*end || pid <= 0 || pid > 4194304) {
			free(copy);
			return pc_error_set(err, EINVAL, "'%s' is not a process id", tok);
		}
		v = realloc(o->pids, (o->nr_pids + 1) * sizeof(*v));
		if (!v) {
			free(copy);
			return pc_error_set(err, ENOMEM, "out of memory");
		}
		o->pids = v;
		o->pids[o->nr_pids++] = (pid_t)pid;
	}
	free(copy);
	return o->nr_pids ? 0 : pc_error_set(err, EINVAL, "empty process list");
}

/*
 * A cgroup of the hierarchy at mnt opened as perf's open_cgroup: its fd, or
 * an error in perf's words.
 */
static int cgroup_open(const char *mnt, const char *name, size_t len, struct pc_error *err)
{
	char path[8192];
	int fd = pc_cgroup_open(mnt, name, len, path, sizeof(path));

	/* perf's words */
	return fd >= 0 ? fd : pc_error_set(err, -fd, "no access to cgroup %s", path);
}

/*
 * -G NAME,...: as perf 6.1's parse_cgroups, the Nth name (N counting every
 * -G) goes to the Nth event given so far, an empty name leaving it be; each
 * named cgroup opened now ("no access to cgroup PATH" when it cannot be),
 * before its event is looked for (no event: an error perf gives no text).
 * A single name, the first -G's, goes to every event.
 */
static int parse_cgroups(struct stat_opts *o, const char *s, struct pc_error *err)
{
	struct stat_cgroups *cg = &o->cgroups;
	int nr = o->ev.nr_evsels;
	char mnt[4096];

	/* perf's words */
	if (o->each_cgroup_list)
		return pc_error_set(err, EINVAL, "--cgroup and --for-each-cgroup cannot be used together");
	if (!nr)
		return pc_error_set(err, EINVAL, "must define events before cgroups");
	if (nr > 0) {
		char **names = realloc(cg->names, nr * sizeof(*names));
		int *fds = names ? realloc(cg->fds, nr * sizeof(*fds)) : NULL;

		if (names)
			cg->names = names;
		if (!fds)
			return pc_error_set(err, ENOMEM, "out of memory");
		cg->fds = fds;
		for (int i = cg->size; i < nr; i++) {
			cg->names[i] = NULL;
			cg->fds[i] = -1;
		}
		cg->size = nr;
	}
	for (const char *p = s;; p++) {
		size_t len = strcspn(p, ",");

		if (len) {
			int fd, ret = pc_cgroup_mount(mnt, sizeof(mnt), err);

			if (ret)
				return ret;
			fd = cgroup_open(mnt, p, len, err);
			if (fd < 0)
				return fd;
			if (cg->nr >= nr) {
				close(fd);
				return pc_error_set(err, EINVAL, "-G %.*s: no event %d to count in it "
						    "(%d given before it)", (int)len, p, cg->nr + 1, nr);
			}
			cg->names[cg->nr] = strndup(p, len);
			if (!cg->names[cg->nr]) {
				close(fd);
				return pc_error_set(err, ENOMEM, "out of memory");
			}
			cg->fds[cg->nr] = fd;
		}
		cg->nr++;
		p += len;
		if (!*p)
			break;
	}
	if (cg->nr == 1 && cg->names[0]) {
		for (int i = 1; i < nr; i++) {
			cg->names[i] = strdup(cg->names[0]);
			cg->fds[i] = dup(cg->fds[0]);
			if (!cg->names[i] || cg->fds[i] < 0)
				return pc_error_set(err, ENOMEM, "out of memory");
		}
	}
	return 0;
}

/* --for-each-cgroup's next cgroup, unless it has it: name and fd appended */
static int each_cgroup_add(struct stat_cgroups *cg, const char *mnt, const char *name, size_t len,
			   struct pc_error *err)
{
	char **names;
	int *fds, fd;

	for (int i = 0; i < cg->nr; i++)
		if (strlen(cg->names[i]) == len && !strncmp(cg->names[i], name, len))
			return 0;
	names = realloc(cg->names, (cg->nr + 1) * sizeof(*names));
	fds = names ? realloc(cg->fds, (cg->nr + 1) * sizeof(*fds)) : NULL;
	if (names)
		cg->names = names;
	if (!fds)
		return pc_error_set(err, ENOMEM, "out of memory");
	cg->fds = fds;
	fd = cgroup_open(mnt, name, len, err);
	if (fd < 0)
		return fd;
	cg->names[cg->nr] = strndup(name, len);
	cg->fds[cg->nr] = fd;
	cg->size = ++cg->nr;
	return cg->names[cg->nr - 1] ? 0 : pc_error_set(err, ENOMEM, "out of memory");
}

/*
 * --for-each-cgroup with a pattern, as perf's match_cgroups: every cgroup
 * of the hierarchy whose name below the mount (the root's is "") a basic
 * regular expression of the list finds anywhere in it, an empty entry
 * naming the root; the cgroups in the hierarchy's walk order, whatever the
 * order of the patterns.
 */
static int each_cgroup_match(struct stat_opts *o, const char *mnt, struct pc_error *err)
{
	struct pc_cgroup_list all;
	const char *s = o->each_cgroup_list;
	bool *used;
	int ret = pc_cgroup_list_read(mnt, &all);

	if (ret)
		return pc_error_set(err, -ret, "--for-each-cgroup: %s: %s", mnt, strerror(-ret));
	used = calloc(all.nr, sizeof(*used));
	if (!used) {
		pc_cgroup_list_free(&all);
		return pc_error_set(err, ENOMEM, "out of memory");
	}
	for (const char *p = s; !ret; p++) {
		size_t len = strcspn(p, ",");
		char *pattern = strndup(p, len);
		regex_t re;

		if (!pattern) {
			ret = pc_error_set(err, ENOMEM, "out of memory");
		} else if (!len) {
			used[0] = true;
		} else if (regcomp(&re, pattern, REG_NOSUB)) {
			/* perf gives no words, only its usage */
			ret = pc_error_set(err, EINVAL, "--for-each-cgroup %s: not a regular expression", pattern);
		} else {
			for (int i = 0; i < all.nr; i++)
				used[i] |= !regexec(&re, all.names[i], 0, NULL, 0);
			regfree(&re);
		}
		free(pattern);
		p += len;
		if (!*p)
			break;
	}
	for (int i = 0; i < all.nr && !ret; i++)
		if (used[i])
			ret = each_cgroup_add(&o->each, mnt, all.names[i], strlen(all.names[i]), err);
	free(used);
	pc_cgroup_list_free(&all);
	/* perf's words */
	if (!ret && !o->each.nr)
		ret = pc_error_set(err, ENOENT, "no cgroup matched: %s", s);
	return ret;
}

/*
 * The exit of an error perf returns as -EINVAL: 234 (perf 6.1's -22 as a
 * byte), 22 from perf 7.2 (measured: 7.2.13 returns it positive)
 */
static int einval_exit(const struct stat_opts *o)
{
	return o->look.layout == STAT_LAYOUT_7_2 ? 22 : 234;
}

/*
 * --for-each-cgroup NAME,...: as perf's, a list holding any of
 * {}[]()|*+?^$ is patterns (each_cgroup_match); else each name once, an
 * empty one the root ("/"), each cgroup opened; perf's words where one
 * cannot be (its exit: einval_exit).
 */
static int open_each_cgroup(struct stat_opts *o, struct pc_error *err)
{
	const char *s = o->each_cgroup_list;
	char mnt[4096];
	int ret = pc_cgroup_mount(mnt, sizeof(mnt), err);

	if (ret)
		return ret;
	if (strpbrk(s, "{}[]()|*+?^$"))
		return each_cgroup_match(o, mnt, err);
	for (const char *p = s;; p++) {
		size_t len = strcspn(p, ",");

		/* an empty name is the root */
		ret = each_cgroup_add(&o->each, mnt, len ? p : "/", len ? len : 1, err);
		if (ret)
			return ret;
		p += len;
		if (!*p)
			break;
	}
	return 0;
}

static void cgroups_free(struct stat_cgroups *cg)
{
	for (int i = 0; i < cg->size; i++) {
		free(cg->names[i]);
		if (cg->fds[i] >= 0)
			close(cg->fds[i]);
	}
	free(cg->names);
	free(cg->fds);
	memset(cg, 0, sizeof(*cg));
}

enum { O_PER_THREAD = 256, O_PER_SOCKET, O_PER_DIE, O_PER_CORE, O_PER_NODE, O_APPEND,
       O_INTERVAL_COUNT, O_TIMEOUT, O_COMPAT, O_SUMMARY, O_NO_CSV_SUMMARY, O_NO_BIG_NUM,
       O_ALL_USER, O_ALL_KERNEL, O_PRE, O_POST, O_SYNC, O_INTERVAL_CLEAR, O_TABLE, O_NO_MERGE,
       O_FOR_EACH_CGROUP, O_SCALE, O_NO_SCALE, O_LOG_FD, O_CONTROL, O_PER_CLUSTER, O_PER_CACHE };

/* perf's highest cache level of --per-cache (its MAX_CACHE_LVL) */
#define MAX_CACHE_LEVEL 4

/* --per-cache[=LN]: N into *level, 0 without a value (the last level cache) */
static int parse_cache_level(const char *val, int *level, struct pc_error *err)
{
	*level = 0;
	if (!val)
		return 0;
	/* perf's words, each a usage error */
	if (strlen(val) != 2 || (val[0] != 'L' && val[0] != 'l') || val[1] < '1' || val[1] > '9')
		return pc_error_set(err, EINVAL, "Cache level must be of form L[1-%d], or l[1-%d]",
				    MAX_CACHE_LEVEL, MAX_CACHE_LEVEL);
	*level = val[1] - '0';
	if (*level > MAX_CACHE_LEVEL)
		return pc_error_set(err, EINVAL, "perf only supports max cache level of %d.\n"
				    "Consider increasing MAX_CACHE_LVL", MAX_CACHE_LEVEL);
	return 0;
}

int stat_opts_parse(struct stat_opts *o, int argc, char **argv, struct pc_error *err)
{
	static const struct option longs[] = {
		{ "event", required_argument, NULL, 'e' },
		{ "pid", required_argument, NULL, 'p' },
		{ "tid", required_argument, NULL, 't' },
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "per-thread", no_argument, NULL, O_PER_THREAD },
		{ "no-aggr", no_argument, NULL, 'A' },
		{ "cgroup", required_argument, NULL, 'G' },
		{ "for-each-cgroup", required_argument, NULL, O_FOR_EACH_CGROUP },
		{ "output", required_argument, NULL, 'o' },
		{ "append", no_argument, NULL, O_APPEND },
		{ "log-fd", required_argument, NULL, O_LOG_FD },
		{ "control", required_argument, NULL, O_CONTROL },
		{ "scale", no_argument, NULL, O_SCALE },
		{ "no-scale", no_argument, NULL, O_NO_SCALE },
		{ "null", no_argument, NULL, 'n' },
		{ "detailed", no_argument, NULL, 'd' },
		{ "interval-count", required_argument, NULL, O_INTERVAL_COUNT },
		{ "timeout", required_argument, NULL, O_TIMEOUT },
		{ "compat", required_argument, NULL, O_COMPAT },
		{ "no-merge", no_argument, NULL, O_NO_MERGE },
		{ "delay", required_argument, NULL, 'D' },
		{ "summary", no_argument, NULL, O_SUMMARY },
		{ "no-csv-summary", no_argument, NULL, O_NO_CSV_SUMMARY },
		{ "big-num", no_argument, NULL, 'B' },
		{ "no-big-num", no_argument, NULL, O_NO_BIG_NUM },
		{ "all-user", no_argument, NULL, O_ALL_USER },
		{ "all-kernel", no_argument, NULL, O_ALL_KERNEL },
		{ "pre", required_argument, NULL, O_PRE },
		{ "post", required_argument, NULL, O_POST },
		{ "sync", no_argument, NULL, O_SYNC },
		{ "interval-clear", no_argument, NULL, O_INTERVAL_CLEAR },
		{ "table", no_argument, NULL, O_TABLE },
		{ "per-socket", no_argument, NULL, O_PER_SOCKET },
		{ "per-die", no_argument, NULL, O_PER_DIE },
		{ "per-core", no_argument, NULL, O_PER_CORE },
		{ "per-node", no_argument, NULL, O_PER_NODE },
		{ "per-cluster", no_argument, NULL, O_PER_CLUSTER },
		{ "per-cache", optional_argument, NULL, O_PER_CACHE },
		{ "no-inherit", no_argument, NULL, 'i' },
		{ "interval-print", required_argument, NULL, 'I' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "field-separator", required_argument, NULL, 'x' },
		{ "json-output", no_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool no_merge = false;
	const char *per_new = NULL;	/* --per-cluster or --per-cache, which perf 6.1 has not */
	int c, ret;

	memset(o, 0, sizeof(*o));
	o->repeat = 1;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+e:p:t:aAC:G:iI:r:x:jqvho:ndD:B", longs, NULL)) != -1) {
		switch (c) {
		case 'e':
			ret = rec_events_parse(&o->ev, optarg, err);
			if (ret)
				return ret;
			break;
		case 'p':
		case 't':
			if (o->nr_pids && o->pids_are_tids != (c == 't'))
				return pc_error_set(err, EINVAL, "-p and -t cannot go together");
			o->pids_are_tids = c == 't';
			ret = parse_pids(o, optarg, err);
			if (ret)
				return ret;
			break;
		case 'a':
			o->system_wide = true;
			break;
		case 'C':
			o->cpu_list = optarg;
			break;
		case O_PER_THREAD:
			o->per_thread = true;
			break;
		case 'A':
			o->aggr = STAT_AGGR_CPU;
			break;
		case 'G':
			ret = parse_cgroups(o, optarg, err);
			if (ret)
				return ret;
			break;
		case O_FOR_EACH_CGROUP:
			o->each_cgroup_list = optarg;
			break;
		case 'o':
			o->output.path = optarg;
			break;
		case O_APPEND:
			o->output.append = true;
			break;
		case O_LOG_FD: {
			char *end;
			long fd = strtol(optarg, &end, 10);

			/* perf's words; 0 is stderr, as not given */
			if (*end || end == optarg || fd < 0 || fd > INT_MAX)
				return pc_error_set(err, EINVAL, "argument to --log-fd must be a > 0");
			o->output.fd = (int)fd;
			break;
		}
		case O_CONTROL:
			o->control = optarg;
			break;
		case O_SCALE:
		case O_NO_SCALE:
			o->no_scale = c == O_NO_SCALE;
			break;
		case 'n':
			o->null_run = true;
			break;
		case 'd':
			o->sets.detailed++;
			break;
		case O_INTERVAL_COUNT:
			ret = parse_uint(optarg, &o->interval_count, 1, "--interval-count", err);
			if (ret)
				return ret;
			break;
		case O_TIMEOUT:
			ret = parse_uint(optarg, &o->timeout_ms, 0, "--timeout", err);
			if (ret)
				return ret;
			/* perf's words */
			if (o->timeout_ms < 10)
				return pc_error_set(err, EINVAL, "timeout must be >= 10ms.");
			break;
		case O_COMPAT:
			if (stat_layout_parse(optarg, &o->look.layout))
				return pc_error_set(err, EINVAL, "--compat: '%s' is not "
						    STAT_LAYOUT_NAMES, optarg);
			break;
		case O_NO_MERGE:
			no_merge = true;
			break;
		case 'D': {
			char *end;
			long ms;

			errno = 0;
			ms = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || ms < -1 || ms > 1000000000L)
				return pc_error_set(err, EINVAL, "-D: '%s' is not a number of ms >= -1",
						    optarg);
			o->each_run.delay_ms = (int)ms;
			break;
		}
		case O_SUMMARY:
			o->look.summary = true;
			break;
		case O_NO_CSV_SUMMARY:
			o->look.no_csv_summary = true;
			break;
		case 'B':
			o->look.no_big_num = false;
			break;
		case O_NO_BIG_NUM:
			o->look.no_big_num = true;
			break;
		case O_ALL_USER:
			o->attrs.user_only = true;
			break;
		case O_ALL_KERNEL:
			o->attrs.kernel_only = true;
			break;
		case O_PRE:
			o->each_run.pre = optarg;
			break;
		case O_POST:
			o->each_run.post = optarg;
			break;
		case O_SYNC:
			o->each_run.sync = true;
			break;
		case O_INTERVAL_CLEAR:
			o->look.interval_clear = true;
			break;
		case O_TABLE:
			o->look.table = true;
			break;
		case O_PER_SOCKET:
		case O_PER_DIE:
		case O_PER_CORE:
		case O_PER_NODE:
			o->aggr = c == O_PER_SOCKET ? STAT_AGGR_SOCKET : c == O_PER_DIE ? STAT_AGGR_DIE :
				  c == O_PER_CORE ? STAT_AGGR_CORE : STAT_AGGR_NODE;
			break;
		case O_PER_CLUSTER:
			o->aggr = STAT_AGGR_CLUSTER;
			per_new = "--per-cluster";
			break;
		case O_PER_CACHE:
			ret = parse_cache_level(optarg, &o->cache_level, err);
			if (ret)
				return ret;
			o->aggr = STAT_AGGR_CACHE;
			per_new = "--per-cache";
			break;
		case 'i':
			o->attrs.no_inherit = true;
			break;
		case 'I':
			ret = parse_uint(optarg, &o->interval_ms, 10, "-I", err);
			if (ret)
				return ret;
			break;
		case 'r':
			ret = parse_uint(optarg, &o->repeat, 0, "-r", err);
			if (ret)
				return ret;
			/* perf's -r 0: each run counted and printed alone, for ever */
			o->forever = !o->repeat;
			if (o->forever)
				o->repeat = 1;
			break;
		case 'x':
			if (!*optarg)
				return pc_error_set(err, EINVAL, "-x: empty separator");
			o->look.format = STAT_FMT_CSV;
			o->look.sep = optarg;
			break;
		case 'j':
			o->look.format = STAT_FMT_JSON;
			break;
		case 'q':
			pc_verbose = -1;
			break;
		case 'v':
			pc_verbose++;
			break;
		case 'h':
			usage(stdout);
			return 1;
		default:
			return pc_error_set(err, EINVAL, "unknown option '%s'", argv[optind - 1]);
		}
	}
	o->argc = argc - optind;
	o->argv = argv + optind;
	/* perf 6.12's and later: perf 6.1 has neither */
	if (per_new && o->look.layout == STAT_LAYOUT_6_1)
		return pc_error_set(err, EINVAL, "unknown option '%s'", per_new);
	/*
	 * --no-merge merges nothing perf 6.1 counts here (its PMUs of one kind);
	 * perf 6.12 and 7.2 make it no aggregation, -A (seen: a line per cpu)
	 */
	if (no_merge && o->look.layout != STAT_LAYOUT_6_1 && o->aggr == STAT_AGGR_GLOBAL)
		o->aggr = STAT_AGGR_CPU;
	/* -d: perf's detailed sets after -e's events (or the default set) */
	o->sets.nr_named = o->ev.nr_evsels;
	if (o->sets.detailed) {
		ret = o->ev.nr_evsels ? 0 : rec_events_parse(&o->ev, stat_default_events(o), err);
		o->sets.first_detailed = o->ev.nr_evsels;
		if (!ret)
			ret = stat_add_detailed(&o->ev, o->sets.detailed, err);
		if (ret)
			return ret;
	}
	if (o->output.path && o->output.fd) {
		/* perf's words and its -EINVAL */
		o->error_exit = einval_exit(o);
		return pc_error_set(err, EINVAL, "cannot use both --output and --log-fd");
	}
	if (!o->argc && !o->nr_pids && !o->system_wide && !o->cpu_list)
		return pc_error_set(err, EINVAL, "nothing to count: give a command, -p, -t, -a or -C");
	if (o->per_thread && !o->nr_pids && !o->system_wide) {
		/* perf's words and its -EINVAL */
		o->error_exit = einval_exit(o);
		return pc_error_set(err, EINVAL, "The --per-thread option is only available when "
				    "monitoring via -p -t -a options or only --per-thread.");
	}
	if (o->per_thread && (o->cpu_list || (o->system_wide && o->nr_pids)))
		return pc_error_set(err, EINVAL, "--per-thread goes with -p, -t or -a alone");
	/* perf's words */
	if ((o->aggr != STAT_AGGR_GLOBAL || o->cgroups.nr || o->each_cgroup_list) &&
	    !o->system_wide && !o->cpu_list) {
		/* its -EINVAL, not the usage error's 129 */
		o->error_exit = einval_exit(o);
		return pc_error_set(err, EINVAL,
				    "both cgroup and no-aggregation modes only available in system-wide mode");
	}
	if (o->each_cgroup_list) {
		o->error_exit = einval_exit(o);
		/* perf's words */
		if (o->cgroups.nr)
			return pc_error_set(err, EINVAL,
					    "--cgroup and --for-each-cgroup cannot be used together");
		ret = open_each_cgroup(o, err);
		if (ret)
			return ret;
		o->error_exit = 0;
	}
	if ((o->repeat > 1 || o->forever) && !o->argc)
		return pc_error_set(err, EINVAL, "-r needs a command to repeat");
	if (o->interval_count && !o->interval_ms)
		return pc_error_set(err, EINVAL,
				    "interval-count option should be used together with interval-print.");
	if (o->timeout_ms && o->interval_ms)
		return pc_error_set(err, EINVAL, "timeout option is not supported with interval-print.");
	/* --append alone appends to nothing: perf takes it all the same */
	if ((o->repeat > 1 || o->forever) && o->interval_ms)
		return pc_error_set(err, EINVAL, "-r cannot go with -I");
	if (o->nr_pids && (o->system_wide || o->cpu_list))
		return pc_error_set(err, EINVAL, "-p/-t cannot go with -a or -C");
	if (!o->look.sep)
		o->look.sep = o->look.format == STAT_FMT_JSON ? "," : " ";
	return 0;
}

void stat_opts_free(struct stat_opts *o)
{
	rec_evlist_free(&o->ev);
	cgroups_free(&o->cgroups);
	cgroups_free(&o->each);
	free(o->pids);
	o->pids = NULL;
}

int stat_record_args(int argc, char **argv, const char **path, struct pc_error *err)
{
	int i = 2;

	while (i < argc) {
		const char *a = argv[i];

		if (!strcmp(a, "-o") || !strcmp(a, "--output")) {
			if (i + 1 >= argc)
				return pc_error_set(err, EINVAL, "%s needs a file name", a), -1;
			*path = argv[i + 1];
			i += 2;
		} else if (!strncmp(a, "--output=", 9)) {
			*path = a + 9;
			i++;
		} else if (!strncmp(a, "-o", 2) && a[2]) {
			*path = a + 2;
			i++;
		} else {
			break;
		}
	}
	if (!**path)
		return pc_error_set(err, EINVAL, "-o: empty file name"), -1;
	return i;
}

int stat_record_check(const struct stat_opts *o, struct pc_error *err)
{
	/*
	 * perf 6.1's __cmd_record: "run_count != 1 || forever" is refused
	 * with this text (and -1, exit 255), before the file is made.  -n is
	 * recorded: the maps, STAT_CONFIG and the final round, no counter.
	 */
	if (o->repeat != 1 || o->forever)
		return pc_error_set(err, EINVAL, "Cannot use -r option with perf stat record.");
	/* the file's STAT_CONFIG numbers the aggregations as perf 6.1, which has not these */
	if (o->aggr == STAT_AGGR_CLUSTER || o->aggr == STAT_AGGR_CACHE)
		return pc_error_set(err, EINVAL, "stat record: --per-cluster and --per-cache are "
				    "not recorded (perf 6.1's STAT_CONFIG has no number for them)");
	return 0;
}
