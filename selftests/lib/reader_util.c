// SPDX-License-Identifier: GPL-2.0
/* The helpers declared in reader_util.h, compiled once for every test. */
#include "reader_util.h"

void rt_attr(union pc_attr *a, uint32_t size)
{
	memset(a, 0, sizeof(*a));
	a->attr.type = PERF_TYPE_SOFTWARE;
	a->attr.config = PERF_COUNT_SW_CPU_CLOCK;
	a->attr.size = size;
	a->attr.sample_period = 250000;
	a->attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			      PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_PERIOD;
	a->attr.sample_id_all = 1;
	a->attr.comm = 1;
	a->attr.mmap = 1;
	a->attr.task = 1;
	pc_attr_set(&a->attr, PC_ATTR_defer_callchain, 1);
	pc_attr_set(&a->attr, PC_ATTR_defer_output, 1);
}

void rt_plain_attr(union pc_attr *a, uint64_t sample_type)
{
	rt_attr(a, PERF_ATTR_SIZE_VER7);
	pc_attr_set(&a->attr, PC_ATTR_defer_callchain, 0);
	pc_attr_set(&a->attr, PC_ATTR_defer_output, 0);
	a->attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | sample_type;
}

struct pd_sample rt_id(uint32_t pid, uint32_t tid, uint64_t time)
{
	struct pd_sample v;

	memset(&v, 0, sizeof(v));
	v.pid = pid;
	v.tid = tid;
	v.time = time;
	v.period = 250000;
	return v;
}

void rt_sample(struct synth *d, const struct perf_event_attr *a, uint32_t pid,
			     uint32_t tid, uint64_t time, uint64_t kip, uint64_t cookie)
{
	struct pd_sample v = rt_id(pid, tid, time);
	uint64_t chain[4] = { PC_CONTEXT_KERNEL, kip,
			      cookie ? PC_CONTEXT_USER_DEFERRED : PC_CONTEXT_USER,
			      cookie ? cookie : 0x400500 };

	v.ip = kip;
	v.chain.ips = chain;
	v.chain.nr = 4;
	/* taken in the kernel, as its chain says: perf resolves the ip in the record's cpumode */
	synth_sample_misc(d, a, PERF_RECORD_MISC_KERNEL, &v);
}

void rt_deferred(struct synth *d, const struct perf_event_attr *a, uint32_t pid,
			       uint32_t tid, uint64_t time, uint64_t cookie, uint64_t base, int n)
{
	struct pd_sample v = rt_id(pid, tid, time);
	uint64_t ips[16];

	ips[0] = PC_CONTEXT_USER;
	for (int i = 0; i < n && i < 15; i++)
		ips[i + 1] = base + (uint64_t)i * 0x100;
	synth_deferred(d, a, cookie, (uint64_t)(n < 15 ? n : 15) + 1, ips, &v);
}

int rt_write(const char *path, const union pc_attr *a, const struct synth *d)
{
	const struct perf_event_attr *attrs[1] = { &a->attr };
	const char *names[1] = { "cpu-clock" };

	return synth_write_file(path, attrs, NULL, names, 1, d);
}

int rt_perfcheck(struct pc_run *run, const char *cmd, const char *a1,
			       const char *a2, const char *a3, const char *a4, const char *a5,
			       const char *a6)
{
	char *argv[9] = { (char *)pc_test_perfcheck(), (char *)cmd, (char *)a1, (char *)a2,
			  (char *)a3, (char *)a4, (char *)a5, (char *)a6, NULL };

	return pc_test_run(run, 120, argv);
}
