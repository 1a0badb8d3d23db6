// SPDX-License-Identifier: GPL-2.0
/*
 * The header perfcheck record writes, as the system perf reads it: the
 * machine's description (CPUDESC, CPUID, TOTAL_MEM, CPU_TOPOLOGY,
 * NUMA_TOPOLOGY, PMU_MAPPINGS, CACHE) is what perf record writes on the
 * same machine, line for line in `perf report --header-only -I` (the free
 * memory of a node, which moves, left out), SAMPLE_TIME spans the
 * samples perf script prints, and -k writes the clock features perf reads
 * (the PMUs' capabilities: interop_pmu_caps, which runs in the guests too).
 */
#include <stdlib.h>
#include <string.h>

#include "lib/perfcmp.h"

PERFCMP_FIXTURE(hdr, "interop-record-header")

/* the description lines of a -I header: those that do not change between two recordings */
static char *machine_lines(const char *text)
{
	static const char *const keep[] = { "# cpudesc", "# cpuid", "# total memory",
					    "# sibling ", "# CPU ", "# node", "# pmu mappings",
					    "# CPU cache info", "#  L", "# memory nodes", "#    " };
	size_t n = 0, cap = strlen(text) + 1;
	char *out = malloc(cap);
	const char *p = text;

	if (!out)
		return NULL;
	while (*p) {
		size_t len = strcspn(p, "\n"), take = len;
		const char *free_at = memmem(p, len, ", free = ", 9);

		for (size_t k = 0; k < sizeof(keep) / sizeof(keep[0]); k++) {
			if (strncmp(p, keep[k], strlen(keep[k])))
				continue;
			if (free_at)
				take = (size_t)(free_at - p);
			memcpy(out + n, p, take);
			n += take;
			out[n++] = '\n';
			break;
		}
		p += len + (p[len] == '\n');
	}
	out[n] = '\0';
	return out;
}

static void record_ours(struct __test_metadata *_metadata, const char *path)
{
	struct pc_run run;

	ASSERT_EQ(0, perfcmp_sh(&run, "'%s' record -q -e cpu-clock -o '%s' -- %s",
				pc_test_perfcheck(), path, "ls -l /usr/bin"));
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	pc_run_free(&run);
}

TEST_F(hdr, machine_description_is_what_perf_record_writes)
{
	char ours[600], first[800];
	char *a, *b;

	PERFCMP_RECORD(self->c.path, "-e cpu-clock", "ls -l /usr/bin");
	snprintf(ours, sizeof(ours), "%s/ours.data", self->c.dir);
	record_ours(_metadata, ours);
	ASSERT_EQ(0, perfcmp_sh(&self->c.perf, "perf report --header-only -I -i '%s'",
				self->c.path));
	ASSERT_EQ(0, perfcmp_sh(&self->c.ours, "perf report --header-only -I -i '%s'", ours));
	a = machine_lines(self->c.perf.out ? self->c.perf.out : "");
	b = machine_lines(self->c.ours.out ? self->c.ours.out : "");
	ASSERT_NE(NULL, a);
	ASSERT_NE(NULL, b);
	EXPECT_NE(NULL, strstr(a, "# total memory")) TH_LOG("perf: %s", self->c.perf.out);
	EXPECT_NE(NULL, strstr(a, "# pmu mappings"));
	/* perf writes MEM_TOPOLOGY where sysfs has memory blocks (x86 here) */
	if (!access("/sys/devices/system/memory/block_size_bytes", R_OK))
		EXPECT_NE(NULL, strstr(a, "# memory nodes")) TH_LOG("perf: %s", self->c.perf.out);
	EXPECT_TRUE(perfcmp_same(a, b, first, sizeof(first)))
		TH_LOG("first difference at %s\nperf's:\n%s\nours:\n%s", first, a, b);
	EXPECT_EQ(NULL, strstr(self->c.ours.err, "Warning")) TH_LOG("%s", self->c.ours.err);
	free(a);
	free(b);
}

/* perf's "time of first sample" is the first time perf script prints, the last the last */
TEST_F(hdr, sample_time_spans_the_samples_perf_script_prints)
{
	char first[64] = "", last[64] = "";
	const char *p;

	if (!pc_test_have_program("perf"))
		SKIP(return, "no perf installed");
	record_ours(_metadata, self->c.path);
	ASSERT_EQ(0, perfcmp_sh(&self->c.perf, "perf report --header-only -i '%s'", self->c.path));
	p = strstr(self->c.perf.out ? self->c.perf.out : "", "# time of first sample : ");
	ASSERT_NE(NULL, p) TH_LOG("%s", self->c.perf.out);
	sscanf(p + 25, "%63s", first);
	p = strstr(p, "# time of last sample : ");
	ASSERT_NE(NULL, p);
	sscanf(p + 24, "%63s", last);
	ASSERT_EQ(0, perfcmp_sh(&self->c.ours, "perf script -F time -i '%s' | sed -n '1p;$p'",
				self->c.path));
	ASSERT_NE(NULL, self->c.ours.out);
	EXPECT_NE(0, strcmp(first, "0.000000"));
	/* perf script prints "  39445.027387: " */
	EXPECT_NE(NULL, strstr(self->c.ours.out, first)) TH_LOG("first %s: %s", first,
								 self->c.ours.out);
	EXPECT_NE(NULL, strstr(self->c.ours.out, last)) TH_LOG("last %s: %s", last,
								self->c.ours.out);
}

/* -k CLOCK: perf's CLOCKID and CLOCK_DATA, which perf reads and perf script -F tod uses */
TEST_F(hdr, clockid_recording_carries_perfs_clock_features)
{
	struct pc_run run;

	if (!pc_test_have_program("perf"))
		SKIP(return, "no perf installed");
	ASSERT_EQ(0, perfcmp_sh(&run, "'%s' record -q -k monotonic -e cpu-clock -o '%s' -- %s",
				pc_test_perfcheck(), self->c.path, "ls -l /usr/bin"));
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	pc_run_free(&run);
	ASSERT_EQ(0, perfcmp_sh(&self->c.perf, "perf report --header-only -I -i '%s'",
				self->c.path));
	ASSERT_NE(NULL, self->c.perf.out);
	EXPECT_NE(NULL, strstr(self->c.perf.out, "# clockid frequency: ")) TH_LOG("%s", self->c.perf.out);
	EXPECT_NE(NULL, strstr(self->c.perf.out, "# clockid: monotonic (1)\n"));
	EXPECT_NE(NULL, strstr(self->c.perf.out, " (TOD) = "));
	ASSERT_EQ(0, perfcmp_sh(&self->c.ours, "perf script -F tod,time -i '%s' | head -1",
				self->c.path));
	if (self->c.ours.err && strstr(self->c.ours.err, "Invalid field"))
		SKIP(return, "this perf has no tod field (perf 5.14 added it)");
	/* a date, then the sample's time */
	EXPECT_NE(NULL, strchr(self->c.ours.out ? self->c.ours.out : "", '-'))
		TH_LOG("%s / %s", self->c.ours.out, self->c.ours.err);
}

/* "# group: NAME{a,b}" lines of a header as perf reads it, in order */
static void group_lines(const char *text, char *out, size_t n)
{
	const char *p = text ? text : "";
	size_t len = 0;

	out[0] = '\0';
	while ((p = strstr(p, "# group: ")) && len < n) {
		size_t l = strcspn(p, "\n");

		len += snprintf(out + len, n - len, "%.*s\n", (int)l, p);
		p += l;
	}
}

/*
 * GROUP_DESC: two groups of two and one event alone (no group to perf):
 * perf reads from ours the groups perf record wrote, and perf report shows
 * the group view ("of events 'anon group { ... }'") of ours as of its own
 */
TEST_F(hdr, event_groups_are_described_as_perf_record_describes_them)
{
	static const char events[] = "-e {cpu-clock,task-clock} -e page-faults "
				     "-e {context-switches,cpu-migrations}";
	char ours[600], a[1024], b[1024];
	struct pc_run run;

	PERFCMP_RECORD(self->c.path, events, "ls -l /usr/bin");
	snprintf(ours, sizeof(ours), "%s/ours.data", self->c.dir);
	ASSERT_EQ(0, perfcmp_sh(&run, "'%s' record -q %s -o '%s' -- ls -l /usr/bin",
				pc_test_perfcheck(), events, ours));
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	pc_run_free(&run);
	ASSERT_EQ(0, perfcmp_sh(&self->c.perf, "perf report --header-only -i '%s'", self->c.path));
	ASSERT_EQ(0, perfcmp_sh(&self->c.ours, "perf report --header-only -i '%s'", ours));
	group_lines(self->c.perf.out, a, sizeof(a));
	group_lines(self->c.ours.out, b, sizeof(b));
	EXPECT_STREQ("# group: {cpu-clock,task-clock}\n# group: {context-switches,cpu-migrations}\n",
		     a) TH_LOG("perf: %s", self->c.perf.out);
	EXPECT_STREQ(a, b) TH_LOG("ours: %s", self->c.ours.out);
	ASSERT_EQ(0, perfcmp_sh(&self->c.ours, "perf report --stdio -i '%s' 2>&1", ours));
	EXPECT_NE(NULL, strstr(self->c.ours.out ? self->c.ours.out : "",
			       "of events 'anon group { cpu-clock, task-clock }'"))
		TH_LOG("%s", self->c.ours.out);
}

TEST_HARNESS_MAIN
