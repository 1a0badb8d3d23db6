// SPDX-License-Identifier: GPL-2.0
/*
 * Files of upstream perf stat record, read by perfcheck script as perf
 * script reads them: the counts of every round, line for line, and -D.  perf 7.2's
 * script prints no round of such files (its own or 6.1's); there perfcheck
 * still must print them, and the comparison is left out naming why.  Of
 * stat record -n and -o -, our file has perf's records in perf's order.
 */
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "interop_tools.h"
#include "testutil.h"

#define TOUCH 2000
#define HEAD "CPU   THREAD             VAL             ENA             RUN            TIME EVENT\n"

FIXTURE(stat_record) {
	const char *perf;
	char *dir;
	char path[512];
	struct pc_run rec, theirs, ours;
};

FIXTURE_SETUP(stat_record)
{
	memset(&self->rec, 0, sizeof(self->rec));
	memset(&self->theirs, 0, sizeof(self->theirs));
	memset(&self->ours, 0, sizeof(self->ours));
	self->dir = NULL;
	self->perf = up_perf();
	if (!self->perf)
		SKIP(return, "no upstream perf here (PERFCHECK_PERF, upstream/perf, or perf in PATH)");
	self->dir = pc_test_mkdtemp("interop-stat-record");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->path, sizeof(self->path), "%s/stat.data", self->dir);
}

FIXTURE_TEARDOWN(stat_record)
{
	pc_run_free(&self->rec);
	pc_run_free(&self->theirs);
	pc_run_free(&self->ours);
	if (self->dir && !getenv("PERFCHECK_KEEP_TEST_FILES"))
		pc_test_rmdir(self->dir);
}

/* perf stat record -o PATH [OPTS...] -e task-clock,page-faults -- this binary --workload N */
static int stat_record(FIXTURE_DATA(stat_record) *self, const char *o1, const char *o2,
		       const char *o3)
{
	char exe[64], num[16];
	char *argv[20];
	int i = 0;

	snprintf(exe, sizeof(exe), "/proc/%d/exe", (int)getpid());
	snprintf(num, sizeof(num), "%d", TOUCH);
	argv[i++] = (char *)self->perf;
	argv[i++] = "stat";
	argv[i++] = "record";
	argv[i++] = "-o";
	argv[i++] = self->path;
	argv[i++] = "-e";
	argv[i++] = "task-clock,page-faults";
	if (o1)
		argv[i++] = (char *)o1;
	if (o2)
		argv[i++] = (char *)o2;
	if (o3)
		argv[i++] = (char *)o3;
	argv[i++] = "--";
	argv[i++] = exe;
	argv[i++] = "--workload";
	argv[i++] = num;
	argv[i] = NULL;
	return up_run(&self->rec, 60, argv);
}

/* Both scripts of the file: ours prints its rounds; perf's the same, where it prints them. */
static void compare(struct __test_metadata *_metadata, FIXTURE_DATA(stat_record) *self,
		    int min_lines)
{
	char *theirs[] = { (char *)self->perf, "script", "-i", self->path, NULL };
	char *ours[] = { (char *)pc_test_perfcheck(), "script", "--compat", "6.1", "-i",
			 self->path, NULL };

	ASSERT_EQ(0, up_run(&self->theirs, 60, theirs));
	ASSERT_EQ(0, pc_test_run(&self->ours, 60, ours));
	ASSERT_EQ(0, self->ours.exit_code) TH_LOG("%s", self->ours.err);
	ASSERT_NE(NULL, self->ours.out);
	/* never an empty output for a file with counts */
	EXPECT_EQ(0, strncmp(self->ours.out, HEAD, strlen(HEAD))) TH_LOG("%s", self->ours.out);
	/* the events' names as the file has them: perf 6.12 adds " [software]" */
	EXPECT_LE(min_lines, pc_count_substr(self->ours.out, " task-clock"))
		TH_LOG("%s", self->ours.out);
	EXPECT_LE(min_lines, pc_count_substr(self->ours.out, " page-faults"))
		TH_LOG("%s", self->ours.out);
	if (self->theirs.exit_code || !self->theirs.out || !strstr(self->theirs.out, HEAD))
		SKIP(return, "perf's script prints no stat round of this file (exit %d: %.200s)",
		     self->theirs.exit_code, self->theirs.err ? self->theirs.err : "");
	EXPECT_STREQ(self->theirs.out, self->ours.out);
}

TEST_F(stat_record, counts_of_a_command_script_as_perf)
{
	ASSERT_EQ(0, stat_record(self, NULL, NULL, NULL));
	if (self->rec.exit_code)
		SKIP(return, "perf stat record failed: %.300s", self->rec.err);
	compare(_metadata, self, 1);
}

TEST_F(stat_record, per_cpu_intervals_script_as_perf)
{
	ASSERT_EQ(0, stat_record(self, "-a", "-A", "-I100"));
	if (self->rec.exit_code)
		SKIP(return, "perf stat record -a -A -I100 failed: %.300s", self->rec.err);
	compare(_metadata, self, 1);
}

/* script -D: perf's dump of the stat records, the round's table on the round's line */
TEST_F(stat_record, dump_of_a_stat_file_is_perfs)
{
	char *theirs[] = { (char *)self->perf, "script", "-D", "-i", self->path, NULL };
	char *ours[] = { (char *)pc_test_perfcheck(), "script", "--compat", "6.1", "-D", "-i",
			 self->path, NULL };

	ASSERT_EQ(0, stat_record(self, NULL, NULL, NULL));
	if (self->rec.exit_code)
		SKIP(return, "perf stat record failed: %.300s", self->rec.err);
	ASSERT_EQ(0, up_run(&self->theirs, 60, theirs));
	ASSERT_EQ(0, pc_test_run(&self->ours, 60, ours));
	ASSERT_EQ(0, self->ours.exit_code) TH_LOG("%s", self->ours.err);
	EXPECT_NE(NULL, strstr(self->ours.out, "PERF_RECORD_STAT_ROUND" HEAD))
		TH_LOG("%s", self->ours.out);
	if (self->theirs.exit_code || !self->theirs.out || !strstr(self->theirs.out, HEAD))
		SKIP(return, "perf's script -D prints no stat round of this file (exit %d: %.200s)",
		     self->theirs.exit_code, self->theirs.err ? self->theirs.err : "");
	EXPECT_STREQ(self->theirs.out, self->ours.out);
}

/* The record types of a dump, in order, one a line */
static char *types_of(const char *dump)
{
	size_t cap = strlen(dump ? dump : "") + 1, len = 0;
	char *res = calloc(1, cap);
	const char *p = dump ? dump : "";

	while (res && (p = strstr(p, ": PERF_RECORD_"))) {
		size_t n = strspn(p + 2, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_");

		/* the round's table follows its name on the same line */
		if (!strncmp(p + 2, "PERF_RECORD_STAT_ROUNDCPU", 25))
			n -= 3;

		memcpy(res + len, p + 2, n);
		len += n;
		res[len++] = '\n';
		p += 2 + n;
	}
	return res;
}

/*
 * perf stat record -n and -o - by both tools: perf's script -D of our file
 * lists perf's own file's records in the same order, and prints what
 * perfcheck script -D prints of it, byte for byte
 */
static void same_records(struct __test_metadata *_metadata, FIXTURE_DATA(stat_record) *self,
			 bool pipe)
{
	char exe[64], cmd[2048], ours_path[600], *theirs_types, *ours_types;
	const char *tools[2] = { self->perf, pc_test_perfcheck() };
	const char *paths[2] = { self->path, ours_path };
	struct up_version v;

	/*
	 * perfcheck stat record writes perf 6.1's records: perf 5.10's -D
	 * prints no "@FILE", perf 7.2 adds a CPUS update per event to its
	 * pipe and cannot read its own -n file (comp_mmap_len 0)
	 */
	ASSERT_EQ(0, up_perf_version(&v));
	if (v.major != 6 || v.minor != 1)
		SKIP(return, "%s: perfcheck stat record writes perf 6.1's records", v.text);
	snprintf(ours_path, sizeof(ours_path), "%s.ours", self->path);
	snprintf(exe, sizeof(exe), "/proc/%d/exe", (int)getpid());
	for (int t = 0; t < 2; t++) {
		if (pipe)
			snprintf(cmd, sizeof(cmd), "exec '%s' stat record -o - -e task-clock,page-faults "
				 "-- %s --workload %d > '%s'", tools[t], exe, TOUCH, paths[t]);
		else
			snprintf(cmd, sizeof(cmd), "exec '%s' stat record -n -o '%s' -- %s --workload %d",
				 tools[t], paths[t], exe, TOUCH);
		pc_run_free(&self->rec);
		ASSERT_EQ(0, up_run(&self->rec, 60, (char *[]){ "/bin/sh", "-c", cmd, NULL }));
		ASSERT_EQ(0, self->rec.exit_code) TH_LOG("%s: %s", tools[t], self->rec.err);
	}
	pc_run_free(&self->theirs);
	ASSERT_EQ(0, up_run(&self->theirs, 60,
			    (char *[]){ (char *)self->perf, "script", "-D", "-i", self->path, NULL }));
	ASSERT_EQ(0, self->theirs.exit_code) TH_LOG("%s", self->theirs.err);
	theirs_types = types_of(self->theirs.out);
	pc_run_free(&self->theirs);
	ASSERT_EQ(0, up_run(&self->theirs, 60,
			    (char *[]){ (char *)self->perf, "script", "-D", "-i", ours_path, NULL }));
	ASSERT_EQ(0, self->theirs.exit_code) TH_LOG("%s", self->theirs.err);
	ours_types = types_of(self->theirs.out);
	EXPECT_STREQ(theirs_types, ours_types);
	EXPECT_STREQ(pipe ? "PERF_RECORD_ATTR\nPERF_RECORD_ATTR\nPERF_RECORD_EVENT_UPDATE\n"
			    "PERF_RECORD_EVENT_UPDATE\nPERF_RECORD_EVENT_UPDATE\n"
			    "PERF_RECORD_EVENT_UPDATE\nPERF_RECORD_THREAD_MAP\nPERF_RECORD_CPU_MAP\n"
			    "PERF_RECORD_STAT_CONFIG\nPERF_RECORD_STAT\nPERF_RECORD_STAT\n"
			    "PERF_RECORD_MMAP\nPERF_RECORD_STAT_ROUND\n"
			  : "PERF_RECORD_THREAD_MAP\nPERF_RECORD_CPU_MAP\nPERF_RECORD_STAT_CONFIG\n"
			    "PERF_RECORD_MMAP\nPERF_RECORD_STAT_ROUND\n", ours_types);
	pc_run_free(&self->ours);
	ASSERT_EQ(0, pc_test_run(&self->ours, 60, (char *[]){ (char *)pc_test_perfcheck(), "script",
			 "--compat", "6.1", "-D", "-i", ours_path, NULL }));
	EXPECT_STREQ(self->theirs.out, self->ours.out);
	free(theirs_types);
	free(ours_types);
}

TEST_F(stat_record, null_run_writes_perfs_records_without_attrs)
{
	same_records(_metadata, self, false);
}

TEST_F(stat_record, pipe_output_writes_perfs_records_in_perfs_order)
{
	same_records(_metadata, self, true);
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "--workload"))
		return pc_test_touch_pages(atoi(argv[2]));
	return test_harness_run(argc, argv);
}
