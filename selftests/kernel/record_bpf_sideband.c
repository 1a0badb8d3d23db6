// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck record's BPF side band, as perf record's: a dummy event asking
 * for bpf_event records, read by a thread, so that a BPF program loaded
 * while the recording runs gets its BPF_PROG_INFO and BPF_BTF entries,
 * whoever loads it; and --no-bpf-event, which leaves the side band, the
 * BPF_EVENT records and the program entries out (the KSYMBOLs stay, as
 * perf 6.1's).  The programs are loaded once the workload runs
 * (`sh -c 'touch READY; sleep S'`): after the synthesis of the programs
 * already there, so what the file holds of them came from the kernel.
 * Needs bpf() (root) and attr.bpf_event; each SKIP says which was refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "bpf_load.h"
#include "lib/testutil.h"
#include "perfdata/perfdata.h"
#include "probes/probe.h"
#include "util/sys.h"

/* What a file says of one program. */
struct seen {
	int ksyms, kernel_ksyms;	/* KSYMBOLs of its functions; those the kernel wrote */
	int loads, kernel_loads;	/* BPF_EVENT PROG_LOAD with its id; the kernel's */
	int info_entries;		/* BPF_PROG_INFO entries with its id */
	int btf_entries;		/* BPF_BTF entries with its BTF id */
	bool tracking_bpf_event, tracking_ksymbol;	/* on an event with attr.task */
	char err[256];
};

/*
 * A KSYMBOL of one of p's functions: its address (where the kernel shows
 * it) and bpf_prog_<tag>_<name>.  The tag is left out of the comparison:
 * the kernel names a program's first function with the whole program's
 * tag, perf's synthesis (and ours) with the function's own.
 */
#define TAGGED_PREFIX (sizeof("bpf_prog_") - 1 + 16)

static bool is_function_of(const struct tb_prog *p, const char *name, uint64_t addr)
{
	for (uint32_t f = 0; f < p->nr_funcs; f++) {
		char want[64];

		tb_func_name(p, f, want, sizeof(want));
		if (strlen(name) > TAGGED_PREFIX && !strncmp(name, "bpf_prog_", 9) &&
		    !strcmp(name + TAGGED_PREFIX, want + TAGGED_PREFIX) &&
		    (!p->addr[f] || addr == p->addr[f]))
			return true;
	}
	return false;
}

static void count_records(struct pd_reader *r, const struct tb_prog *p, struct seen *s)
{
	struct pc_error err = { 0 };
	struct pd_record rec;
	uint64_t pos = 0;

	while (pd_reader_next(r, &pos, &rec, &err) == 1) {
		const uint8_t *body = (const uint8_t *)rec.data + 8;
		struct pd_sample id = { 0 };
		bool kernel;

		if (rec.header.type != PC_RECORD_KSYMBOL && rec.header.type != PC_RECORD_BPF_EVENT)
			continue;
		/* the synthesized records carry time 0, the kernel's their time */
		kernel = !pd_parse_sample_id(r, &rec, &id, &err) && id.time;
		if (rec.header.type == PC_RECORD_KSYMBOL && rec.header.size > 8 + 16 &&
		    memchr(body + 16, '\0', rec.header.size - 8 - 16)) {
			uint64_t addr;

			memcpy(&addr, body, 8);
			if (is_function_of(p, (const char *)body + 16, addr)) {
				s->ksyms++;
				s->kernel_ksyms += kernel;
			}
		} else if (rec.header.type == PC_RECORD_BPF_EVENT && rec.header.size >= 8 + 16) {
			uint16_t type;
			uint32_t pid;

			memcpy(&type, body, 2);
			memcpy(&pid, body + 4, 4);
			if (type == PERF_BPF_EVENT_PROG_LOAD && pid == p->id) {
				s->loads++;
				s->kernel_loads += kernel;
			}
		}
	}
}

static void count_features(struct pd_reader *r, const struct tb_prog *p, struct seen *s)
{
	int n = tb_prog_info_entries(r, p->id);

	s->info_entries += n > 0 ? n : 0;
	n = p->btf_id ? tb_btf_entries(r, p->btf_id) : 0;
	s->btf_entries += n > 0 ? n : 0;
}

/* Reads data's records, features and tracking attr about p into s: 0, or -1 with s->err. */
static int read_file(const char *data, const struct tb_prog *p, struct seen *s)
{
	struct pc_error err = { 0 };
	struct pd_reader r;

	memset(s, 0, sizeof(*s));
	if (pd_reader_open(&r, data, &err)) {
		snprintf(s->err, sizeof(s->err), "%.200s", err.msg);
		return -1;
	}
	count_records(&r, p, s);
	count_features(&r, p, s);
	for (uint32_t i = 0; i < r.nr_evsels; i++)
		if (r.evsels[i].attr.attr.task) {
			s->tracking_bpf_event = r.evsels[i].attr.attr.bpf_event;
			s->tracking_ksymbol = r.evsels[i].attr.attr.ksymbol;
		}
	pd_reader_close(&r);
	return 0;
}

FIXTURE(sideband) {
	char *dir;
	char data[512], ready[512], err[512];
	struct tb_prog prog;
	pid_t rec;
};

FIXTURE_SETUP(sideband)
{
	int e = 0;

	self->prog.fd = self->prog.btf_fd = -1;
	self->rec = -1;
	if (pc_feature_probe(PC_FEAT_BPF_EVENT, &e) != PC_FEATURE_SUPPORTED)
		SKIP(return, "the kernel refuses attr.bpf_event (probe: %s): no side band to read",
		     strerror(e));
	self->dir = pc_test_mkdtemp("bpf-sideband");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->data, sizeof(self->data), "%s/perf.data", self->dir);
	snprintf(self->ready, sizeof(self->ready), "%s/READY", self->dir);
	snprintf(self->err, sizeof(self->err), "%s/stderr", self->dir);
}

FIXTURE_TEARDOWN(sideband)
{
	if (self->rec > 0) {
		kill(self->rec, SIGKILL);
		waitpid(self->rec, NULL, 0);
	}
	tb_close(&self->prog);
	if (self->dir)
		pc_test_rmdir(self->dir);
}

/*
 * perfcheck record -v OPTS -o DATA -- sh -c 'touch READY; sleep 2' in the
 * background, stderr to a file; returns once the workload runs, or -1.
 */
static int start_recording(FIXTURE_DATA(sideband) *self, const char *const *opts)
{
	char script[600];
	char *argv[24];
	int n = 0;

	snprintf(script, sizeof(script), "touch '%s'; sleep 2", self->ready);
	argv[n++] = (char *)pc_test_perfcheck();
	argv[n++] = "record";
	argv[n++] = "-v";
	for (; *opts && n < 16; opts++)
		argv[n++] = (char *)*opts;
	argv[n++] = "-o";
	argv[n++] = self->data;
	argv[n++] = "--";
	argv[n++] = "sh";
	argv[n++] = "-c";
	argv[n++] = script;
	argv[n] = NULL;
	self->rec = fork();
	if (self->rec == 0) {
		int fd = open(self->err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int nul = open("/dev/null", O_WRONLY);

		if (fd < 0 || nul < 0 || dup2(fd, 2) < 0 || dup2(nul, 1) < 0)
			_exit(126);
		execv(argv[0], argv);
		_exit(127);
	}
	if (self->rec < 0)
		return -1;
	for (int i = 0; i < 1200 && access(self->ready, F_OK); i++) {
		if (waitpid(self->rec, NULL, WNOHANG) == self->rec) {
			self->rec = -1;
			return -1;
		}
		usleep(50000);
	}
	return access(self->ready, F_OK);
}

/* Waits for the recording; its exit code, with its stderr in text. */
static int end_recording(FIXTURE_DATA(sideband) *self, char *text, size_t size)
{
	int status;
	pid_t pid = self->rec;

	self->rec = -1;
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	if (pc_read_file(self->err, text, size) < 0)
		text[0] = '\0';
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/*
 * -a: the program loaded meanwhile has the kernel's KSYMBOLs and its
 * BPF_EVENT in the rings, and its BPF_PROG_INFO and BPF_BTF entries.
 */
TEST_F_TIMEOUT(sideband, loaded_during_system_wide_recording_has_records_and_entries, 120)
{
	static const char *const opts[] = { "-a", NULL };
	static char text[16384];
	struct seen s;
	int ret;

	ASSERT_EQ(0, start_recording(self, opts)) TH_LOG("perfcheck record -a did not start");
	ret = tb_load(TB_BTF, &self->prog);
	ASSERT_EQ(0, end_recording(self, text, sizeof(text))) TH_LOG("%s", text);
	if (ret)
		SKIP(return, "%s", self->prog.err);
	ASSERT_EQ(0, read_file(self->data, &self->prog, &s)) TH_LOG("%s", s.err);
	EXPECT_EQ((int)self->prog.nr_funcs, s.kernel_ksyms)
		TH_LOG("program %u: %d of its %u KSYMBOLs from the kernel (%d in all)",
		       self->prog.id, s.kernel_ksyms, self->prog.nr_funcs, s.ksyms);
	EXPECT_EQ(1, s.kernel_loads) TH_LOG("BPF_EVENT PROG_LOAD of program %u (%d in all)",
					    self->prog.id, s.loads);
	EXPECT_EQ(1, s.info_entries) TH_LOG("BPF_PROG_INFO entries of program %u", self->prog.id);
	EXPECT_EQ(1, s.btf_entries) TH_LOG("BPF_BTF entries of BTF %u", self->prog.btf_id);
}

/*
 * A per-task recording does not see another task's program load in its
 * rings; the side band does: the program gets its entries, as perf's.
 */
TEST_F_TIMEOUT(sideband, loaded_by_another_task_during_per_task_recording_has_entries, 120)
{
	static const char *const opts[] = { "-e", "cpu-clock", NULL };
	static char text[16384];
	struct seen s;
	int ret;

	ASSERT_EQ(0, start_recording(self, opts)) TH_LOG("perfcheck record did not start");
	ret = tb_load(TB_BTF, &self->prog);
	ASSERT_EQ(0, end_recording(self, text, sizeof(text))) TH_LOG("%s", text);
	if (ret)
		SKIP(return, "%s", self->prog.err);
	ASSERT_EQ(0, read_file(self->data, &self->prog, &s)) TH_LOG("%s", s.err);
	/* loaded after the synthesis, by a task the events do not follow */
	EXPECT_EQ(0, s.loads) TH_LOG("the per-task events saw program %u's load", self->prog.id);
	EXPECT_EQ(1, s.info_entries) TH_LOG("BPF_PROG_INFO entries of program %u", self->prog.id);
	EXPECT_EQ(1, s.btf_entries) TH_LOG("BPF_BTF entries of BTF %u", self->prog.btf_id);
}

/*
 * --no-bpf-event, as perf 6.1: the tracking event keeps ksymbol and drops
 * bpf_event; a program loaded before has its KSYMBOLs and its BTF, no
 * BPF_EVENT and no BPF_PROG_INFO entry; one loaded meanwhile has nothing.
 */
TEST_F_TIMEOUT(sideband, no_bpf_event_keeps_ksymbols_and_btf_only, 120)
{
	static const char *const opts[] = { "--no-bpf-event", NULL };
	static char text[16384];
	struct tb_prog late = { .fd = -1, .btf_fd = -1 };
	struct seen s, l;
	int ret;

	if (tb_load(TB_BTF, &self->prog))
		SKIP(return, "%s", self->prog.err);
	ASSERT_EQ(0, start_recording(self, opts)) TH_LOG("perfcheck record did not start");
	ret = tb_load(TB_ONE, &late);
	ASSERT_EQ(0, end_recording(self, text, sizeof(text))) TH_LOG("%s", text);
	ASSERT_EQ(0, read_file(self->data, &self->prog, &s)) TH_LOG("%s", s.err);
	EXPECT_TRUE(s.tracking_ksymbol);
	EXPECT_FALSE(s.tracking_bpf_event);
	EXPECT_EQ((int)self->prog.nr_funcs, s.ksyms) TH_LOG("KSYMBOLs of program %u",
							    self->prog.id);
	EXPECT_EQ(0, s.loads);
	EXPECT_EQ(0, s.info_entries);
	EXPECT_EQ(1, s.btf_entries) TH_LOG("BPF_BTF entries of BTF %u", self->prog.btf_id);
	if (!ret) {
		ASSERT_EQ(0, read_file(self->data, &late, &l)) TH_LOG("%s", l.err);
		EXPECT_EQ(0, l.info_entries) TH_LOG("program %u loaded meanwhile", late.id);
	}
	EXPECT_EQ(NULL, strstr(text, "BPF side band not started")) TH_LOG("%s", text);
	tb_close(&late);
}

/*
 * --per-thread on a workload: pid -1 with cpu -1 cannot be opened, so there
 * is no side band.  As perf, the recording goes on as with --no-bpf-event
 * (the events keep bpf_event) and says why at -v.
 */
TEST_F_TIMEOUT(sideband, unopenable_side_band_is_said_and_recording_goes_on, 120)
{
	static const char *const opts[] = { "--per-thread", NULL };
	static char text[16384];
	struct seen s;

	if (tb_load(TB_ONE, &self->prog))
		SKIP(return, "%s", self->prog.err);
	ASSERT_EQ(0, start_recording(self, opts)) TH_LOG("perfcheck record did not start");
	ASSERT_EQ(0, end_recording(self, text, sizeof(text))) TH_LOG("%s", text);
	EXPECT_NE(NULL, strstr(text, "BPF side band not started")) TH_LOG("%s", text);
	ASSERT_EQ(0, read_file(self->data, &self->prog, &s)) TH_LOG("%s", s.err);
	EXPECT_TRUE(s.tracking_bpf_event);
	EXPECT_EQ((int)self->prog.nr_funcs, s.ksyms);
	EXPECT_EQ(0, s.loads);
	EXPECT_EQ(0, s.info_entries);
}

TEST_HARNESS_MAIN
