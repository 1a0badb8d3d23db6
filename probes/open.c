// SPDX-License-Identifier: GPL-2.0
/*
 * pc_event_open(): the one path through which the project opens an event.
 *
 * The retry ladder: when the kernel refuses the attr (EINVAL, E2BIG or
 * EOPNOTSUPP), every requested feature is probed on its own, newest first;
 * the missing ones are switched off with what depends on them, and the open
 * is tried again.  A missing feature whose loss would change what the user
 * asked for fails the open instead, naming it.  E2BIG is negotiated: the
 * kernel wrote the attr size it knows into attr.size, and when the bytes
 * past it belong only to features that may be switched off, the open is
 * retried at that size (upstream perf gives up).  The other errnos get an
 * explanation: paranoid level, fd limit, busy PMU, no PMU for cycles (then
 * cpu-clock instead, with a warning).
 */
#include "probes/internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "attr/attr.h"
#include "probes/kernel.h"
#include "util/log.h"
#include "util/sys.h"

const char *pc_errno_name(int err)
{
	switch (err) {
	case EPERM:	return "EPERM";
	case ENOENT:	return "ENOENT";
	case ESRCH:	return "ESRCH";
	case EINTR:	return "EINTR";
	case EBADF:	return "EBADF";
	case EACCES:	return "EACCES";
	case EFAULT:	return "EFAULT";
	case EBUSY:	return "EBUSY";
	case ENODEV:	return "ENODEV";
	case EINVAL:	return "EINVAL";
	case EMFILE:	return "EMFILE";
	case ENOSPC:	return "ENOSPC";
	case ERANGE:	return "ERANGE";
	case E2BIG:	return "E2BIG";
	case ENOMEM:	return "ENOMEM";
	case ENOSYS:	return "ENOSYS";
	case EOVERFLOW:	return "EOVERFLOW";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	default:	return NULL;
	}
}

static const char *ename(int err)
{
	const char *n = pc_errno_name(err);

	return n ? n : strerror(err);
}

struct ladder {
	union pc_attr *attr;
	unsigned long *flags;
	const char *name;
	struct pc_open_info *info;
	struct pc_error *err;
};

static void switch_off(struct ladder *l, enum pc_feature f, const char *why)
{
	const struct pc_feature_info *in = pc_feature_info(f);

	pc_feature_clear(f, l->attr, l->flags);
	l->info->cleared |= 1ULL << f;
	pc_info("switching off %s%s%s: %s\n", in->name, why ? " " : "", why ? why : "",
		in->clearing);
	for (int d = 0; d < PC_FEAT__COUNT; d++) {
		char because[64];

		if (!((in->dependents >> d) & 1) || !pc_feature_requested(d, l->attr, *l->flags))
			continue;
		snprintf(because, sizeof(because), "(needs %s)", in->name);
		switch_off(l, d, because);
	}
}

/*
 * Probes every requested feature, newest first.  Returns how many were
 * switched off, or -errno when one is missing that may not be dropped.
 */
static int clear_missing(struct ladder *l, int e)
{
	int n = 0;

	/* refuse before touching anything, so the error shows the attr as asked */
	for (int f = PC_FEAT__COUNT - 1; f >= 0; f--) {
		const struct pc_feature_info *in = pc_feature_info(f);
		int perr;

		if (f == PC_FEAT_MAX_STACK || !pc_feature_requested(f, l->attr, *l->flags))
			continue;
		if (pc_feature_probe(f, &perr) != PC_FEATURE_MISSING || in->clear_silently)
			continue;
		return pc_error_set(l->err, e,
				    "cannot open %s: this kernel lacks %s (%s, since %s; probe: %s); "
				    "not switching it off: %s",
				    l->name, in->name, in->description, in->since, ename(perr),
				    in->clearing);
	}
	for (int f = PC_FEAT__COUNT - 1; f >= 0; f--) {
		int perr;

		if (f == PC_FEAT_MAX_STACK || !pc_feature_requested(f, l->attr, *l->flags))
			continue;
		if (pc_feature_probe(f, &perr) != PC_FEATURE_MISSING)
			continue;
		switch_off(l, f, NULL);
		n++;
	}
	return n;
}

/* attr fields past the first 64 bytes, and the feature owning each */
static const struct {
	const char *name;
	uint16_t off, len;
	int feat;		/* -1: nothing we may drop */
} tail_fields[] = {
	{ "config2", 64, 8, -1 },
	{ "branch_sample_type", 72, 8, -1 },
	{ "sample_regs_user", 80, 8, -1 },
	{ "sample_stack_user", 88, 4, -1 },
	{ "clockid", 92, 4, PC_FEAT_USE_CLOCKID },
	{ "sample_regs_intr", 96, 8, -1 },
	{ "aux_watermark", 104, 4, -1 },
	{ "sample_max_stack", 108, 2, PC_FEAT_MAX_STACK },
	{ "reserved", 110, 2, -1 },
	{ "aux_sample_size", 112, 4, -1 },
	{ "aux_action", 116, 4, -1 },
	{ "sig_data", 120, 8, PC_FEAT_SIGTRAP },
	{ "config3", 128, 8, -1 },
	{ "config4", 136, 8, -1 },
};

static bool nonzero(const uint8_t *p, size_t n)
{
	while (n--)
		if (*p++)
			return true;
	return false;
}

/*
 * E2BIG: the kernel stored the attr size it knows.  Returns 1 when the attr
 * now fits it (retry), 0 when the size is not the problem, -errno to fail.
 */
static int negotiate_size(struct ladder *l, uint32_t sent)
{
	union pc_attr *a = l->attr;
	uint32_t known = a->attr.size;

	if (known >= sent || known < PERF_ATTR_SIZE_VER0 || sent > PC_ATTR_SIZE_MAX) {
		a->attr.size = sent;
		return 0;
	}
	for (size_t i = 0; i < sizeof(tail_fields) / sizeof(tail_fields[0]); i++) {
		const __typeof__(tail_fields[0]) *t = &tail_fields[i];
		char why[96];

		if (t->off + t->len <= known || t->off >= sent || !nonzero(a->bytes + t->off, t->len))
			continue;
		if (t->feat < 0 || !pc_feature_info(t->feat)->clear_silently) {
			a->attr.size = sent;
			return pc_error_set(l->err, E2BIG,
					    "cannot open %s: the kernel knows a %u-byte attr, and %s "
					    "(offset %u) is set beyond it", l->name, known, t->name, t->off);
		}
		snprintf(why, sizeof(why), "(%s is beyond the kernel's %u-byte attr)", t->name, known);
		switch_off(l, t->feat, why);
		memset(a->bytes + t->off, 0, t->len);
	}
	if (nonzero(a->bytes + known, sent - known)) {
		a->attr.size = sent;
		return pc_error_set(l->err, E2BIG,
				    "cannot open %s: the kernel knows a %u-byte attr and bytes past it are set",
				    l->name, known);
	}
	pc_info("retrying %s with the kernel's attr size %u (was %u)\n", l->name, known, sent);
	return 1;
}

static bool is_cycles(const union pc_attr *a)
{
	/*
	 * the upper 32 bits of config may name a hybrid PMU.  Only a sampling
	 * cycles falls back to cpu-clock, as perf record does (--no-samples too:
	 * frequency mode at 0, as perf opens it); a counter of cycles that cannot
	 * count is "not supported" (perf stat), not another event.
	 */
	return a->attr.type == PERF_TYPE_HARDWARE && (a->attr.sample_period || a->attr.freq) &&
	       (a->attr.config & 0xffffffffULL) == PERF_COUNT_HW_CPU_CYCLES;
}

static void fall_back_to_cpu_clock(struct ladder *l, int e)
{
	pc_warn("%s: cycles cannot be counted here (%s: no PMU for it), "
		"falling back to cpu-clock\n", l->name, ename(e));
	l->attr->attr.type = PERF_TYPE_SOFTWARE;
	l->attr->attr.config = PERF_COUNT_SW_CPU_CLOCK;
	l->attr->attr.precise_ip = 0;	/* a timer has no skid to correct */
	l->info->fell_back_to_cpu_clock = true;
}

/* -vv: an attr as perf prints it, through the print function */
static void debug_attr(const union pc_attr *a)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	if (!fp)
		return;
	pc_attr_fprintf_block(fp, a, a->attr.size);
	if (fclose(fp) == 0 && buf)
		pc_debug("%s", buf);
	free(buf);
}

static int refused(struct ladder *l, int e)
{
	char undecided[160] = "", line[256], cleared[160] = "";
	size_t u = 0, c = 0;

	for (int f = PC_FEAT__COUNT - 1; f >= 0; f--) {
		int perr;

		if ((l->info->cleared >> f) & 1)
			c += (size_t)snprintf(cleared + c, c < sizeof(cleared) ? sizeof(cleared) - c : 0,
					      "%s%s", c ? ", " : "", pc_feature_name(f));
		if (c >= sizeof(cleared))
			c = sizeof(cleared) - 1;
		if (!pc_feature_requested(f, l->attr, *l->flags) ||
		    pc_feature_probe(f, &perr) != PC_FEATURE_UNKNOWN)
			continue;
		u += (size_t)snprintf(undecided + u, u < sizeof(undecided) ? sizeof(undecided) - u : 0,
				      "%s%s (%s)", u ? ", " : "", pc_feature_name(f), ename(perr));
		if (u >= sizeof(undecided))
			u = sizeof(undecided) - 1;
	}
	pc_attr_snprintf_line(line, sizeof(line), l->attr, l->attr->attr.size);
	if (pc_log_on(PC_LOG_DEBUG)) {
		pc_debug("the attr the kernel refused for %s:\n", l->name);
		debug_attr(l->attr);
	}
	return pc_error_set(l->err, e, "cannot open %s: the kernel refused its attr (%s)%s%s%s%s: %s",
			    l->name, ename(e), c ? " after switching off " : "", cleared,
			    u ? "; could not probe " : "", undecided, line);
}

static int permission(struct ladder *l, int e, pid_t pid)
{
	long level;
	char extra[160] = "";

	if (pc_read_int_file("/proc/sys/kernel/perf_event_paranoid", &level) < 0)
		return pc_error_set(l->err, e, "cannot open %s: %s, and "
				    "/proc/sys/kernel/perf_event_paranoid is unreadable", l->name, ename(e));
	if (level >= 2 && !l->attr->attr.exclude_kernel)
		snprintf(extra, sizeof(extra), " This event also measures the kernel (exclude_kernel=0).");
	else if (level >= 1 && pid == -1)
		snprintf(extra, sizeof(extra), " This is a cpu-wide event (pid -1).");
	return pc_error_set(l->err, e,
			    "cannot open %s: %s: kernel.perf_event_paranoid is %ld (3: no perf_event_open "
			    "without CAP_PERFMON, 2: user space of own tasks only, 1: also cpu-wide, "
			    "0: also kernel, -1: no limits).%s Run as root or with CAP_PERFMON, or lower "
			    "it with sysctl kernel.perf_event_paranoid=N.",
			    l->name, ename(e), level, extra);
}

static int too_many_files(struct ladder *l, int e)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return pc_error_set(l->err, e, "cannot open %s: too many open files (EMFILE)", l->name);
	return pc_error_set(l->err, e,
			    "cannot open %s: too many open files (EMFILE): RLIMIT_NOFILE is %llu "
			    "(hard %llu); every event takes one fd per cpu or thread: raise it "
			    "with ulimit -n", l->name, (unsigned long long)rl.rlim_cur,
			    (unsigned long long)rl.rlim_max);
}

static void trace_attempt(const union pc_attr *a, pid_t pid, int cpu, int group_fd,
			  unsigned long flags)
{
	if (!pc_log_on(PC_LOG_DEBUG))
		return;
	debug_attr(a);
	pc_debug("sys_perf_event_open: pid %d  cpu %d  group_fd %d  flags %#lx\n",
		 (int)pid, cpu, group_fd, flags);
}

int pc_event_open(union pc_attr *attr, const char *event_name, pid_t pid, int cpu,
		  int group_fd, unsigned long flags, struct pc_open_info *info,
		  struct pc_error *err)
{
	struct pc_open_info local;
	struct ladder l = { attr, &flags, event_name ? event_name : "event", info, err };
	int busy_left = PC_EBUSY_TRIES;

	if (!info)
		l.info = info = &local;
	memset(info, 0, sizeof(*info));
	pc_error_clear(err);
	if (attr->attr.size == 0)
		attr->attr.size = sizeof(struct perf_event_attr);
	if (attr->attr.size > PC_ATTR_SIZE_MAX)
		return pc_error_set(err, E2BIG, "cannot open %s: attr size %u is larger than "
				    "this build knows (%u)", l.name, attr->attr.size, PC_ATTR_SIZE_MAX);

	/* each round either opens, clears at least one thing, or fails */
	for (int round = 0; round < PC_FEAT__COUNT + 8; round++) {
		uint32_t sent = attr->attr.size;
		int fd, e, ret;

		trace_attempt(attr, pid, cpu, group_fd, flags);
		fd = pc_open_retrying(attr, pid, cpu, group_fd, flags, &busy_left);
		if (fd >= 0) {
			pc_debug("sys_perf_event_open: = %d\n", fd);
			if ((info->cleared >> PC_FEAT_FD_CLOEXEC) & 1)
				fcntl(fd, F_SETFD, FD_CLOEXEC);
			info->attr_size = attr->attr.size;
			return fd;
		}
		e = -fd;
		pc_debug("sys_perf_event_open failed, error %d (%s)\n", fd, ename(e));
		switch (e) {
		case E2BIG:
			ret = negotiate_size(&l, sent);
			if (ret < 0)
				return ret;
			if (ret > 0)
				continue;
			/* an attr bit may be what it refuses */
			__attribute__((fallthrough));
		case EINVAL:
		case EOPNOTSUPP:
			ret = clear_missing(&l, e);
			if (ret < 0)
				return ret;
			if (ret > 0)
				continue;
			if (e == EOPNOTSUPP && is_cycles(attr)) {
				fall_back_to_cpu_clock(&l, e);
				continue;
			}
			if (e == EOPNOTSUPP && (attr->attr.sample_type & PERF_SAMPLE_BRANCH_STACK)) {
				pc_info("%s: a branch stack (-b, -j, --call-graph lbr) needs a PMU that "
					"records taken branches (LBR, BRS, BRBE); software events and "
					"machines without such a PMU (most VMs) have none\n", l.name);
				return pc_error_set(err, e, "%s: PMU Hardware or event type doesn't "
						    "support branch stack sampling (EOPNOTSUPP)", l.name);
			}
			return refused(&l, e);
		case ENOENT:
		case ENODEV:
			if (is_cycles(attr)) {
				fall_back_to_cpu_clock(&l, e);
				continue;
			}
			return pc_error_set(err, e, "cannot open %s: no PMU of this machine counts it (%s)",
					    l.name, ename(e));
		case EOVERFLOW:
			if (pc_feature_requested(PC_FEAT_MAX_STACK, attr, flags) &&
			    !((info->cleared >> PC_FEAT_MAX_STACK) & 1)) {
				unsigned int asked = attr->attr.sample_max_stack;

				pc_feature_clear(PC_FEAT_MAX_STACK, attr, &flags);
				info->cleared |= 1ULL << PC_FEAT_MAX_STACK;
				pc_info("lowering sample_max_stack of %s from %u to %u "
					"(kernel.perf_event_max_stack)\n", l.name, asked,
					attr->attr.sample_max_stack);
				continue;
			}
			return pc_error_set(err, e, "cannot open %s: EOVERFLOW: sample_max_stack %u is "
					    "above kernel.perf_event_max_stack", l.name,
					    attr->attr.sample_max_stack);
		case EBUSY:
			return pc_error_set(err, e, "cannot open %s: the PMU stayed busy (EBUSY) over %d "
					    "tries; another user may hold it exclusively", l.name,
					    PC_EBUSY_TRIES + 1);
		case EACCES:
		case EPERM:
			return permission(&l, e, pid);
		case EMFILE:
			return too_many_files(&l, e);
		default:
			return pc_error_set(err, e, "cannot open %s: %s (%s)", l.name, strerror(e),
					    ename(e));
		}
	}
	return pc_error_set(err, EINVAL, "cannot open %s: still refused after switching off "
			    "everything that could be", l.name);
}
