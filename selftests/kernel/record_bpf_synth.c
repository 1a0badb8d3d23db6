// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck record synthesizes the BPF programs loaded before it starts, as
 * perf record does: three socket filters loaded here (one named function,
 * two functions without BTF, two with BTF function info) must each have a
 * KSYMBOL per JITed function at the address, length and name (bpf_prog_
 * <tag>_<name>) the kernel reports, then one BPF_EVENT PROG_LOAD with the
 * program's id and tag, and an entry in the BPF_PROG_INFO and BPF_BTF
 * features.  Needs bpf() (root); the SKIP says what bpf() answered.
 * Without CAP_SYS_ADMIN bpf() refuses: the recording goes on without the
 * programs, saying why at -v, as perf does.  A program loaded during a
 * system-wide recording (its BPF_EVENT in the rings) gets its entry too,
 * as perf's side band gives it one.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/bpf.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"
#include "bpf_load.h"
#include "lib/testutil.h"
#include "perfdata/perfdata.h"
#include "probes/probe.h"
#include "util/sys.h"

#define NPROGS 3

struct ksym_rec {
	uint64_t addr;
	uint32_t len;
	uint16_t type, flags;
	char name[];
};

struct bpf_rec {
	uint16_t type, flags;
	uint32_t id;
	uint8_t tag[8];
};

FIXTURE(bpf_synth) {
	char *dir;
	char data[512];
	struct tb_prog prog[NPROGS];
	struct pd_reader r;
	bool opened;
};

FIXTURE_SETUP(bpf_synth)
{
	struct pc_error err = { 0 };
	struct pc_run run;
	int e = 0;

	for (int i = 0; i < NPROGS; i++)
		self->prog[i].fd = self->prog[i].btf_fd = -1;
	if (pc_feature_probe(PC_FEAT_KSYMBOL, &e) != PC_FEATURE_SUPPORTED)
		SKIP(return, "the kernel refuses attr.ksymbol (probe: %s): no KSYMBOL records",
		     strerror(e));
	for (int i = 0; i < NPROGS; i++)
		if (tb_load((enum tb_kind)i, &self->prog[i]))
			SKIP(return, "%s", self->prog[i].err);
	self->dir = pc_test_mkdtemp("bpf-synth");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->data, sizeof(self->data), "%s/perf.data", self->dir);
	{
		char *argv[] = { (char *)pc_test_perfcheck(), "record", "-q", "-o", self->data,
				 "--", "true", NULL };

		ASSERT_EQ(0, pc_test_run(&run, 120, argv));
		EXPECT_EQ(0, run.exit_code) TH_LOG("perfcheck record: %s", run.err);
		pc_run_free(&run);
	}
	ASSERT_EQ(0, pd_reader_open(&self->r, self->data, &err)) TH_LOG("%s", err.msg);
	self->opened = true;
}

FIXTURE_TEARDOWN(bpf_synth)
{
	if (self->opened)
		pd_reader_close(&self->r);
	for (int i = 0; i < NPROGS; i++)
		tb_close(&self->prog[i]);
	if (self->dir)
		pc_test_rmdir(self->dir);
}

/* Every function of every program: one KSYMBOL, as the kernel reports it. */
TEST_F(bpf_synth, ksymbol_per_jited_function)
{
	struct pc_error err = { 0 };
	struct pd_record rec;
	uint64_t pos = 0;
	int found[NPROGS][TB_MAX_FUNCS] = { { 0 } };

	while (pd_reader_next(&self->r, &pos, &rec, &err) == 1) {
		const struct ksym_rec *k = (const void *)((const uint8_t *)rec.data + 8);
		size_t max;

		if (rec.header.type != PC_RECORD_KSYMBOL || rec.header.size <= 8 + sizeof(*k))
			continue;
		max = rec.header.size - 8 - sizeof(*k);
		ASSERT_LT(strnlen(k->name, max), max) TH_LOG("KSYMBOL name not terminated");
		for (int i = 0; i < NPROGS; i++)
			for (uint32_t f = 0; f < self->prog[i].nr_funcs; f++) {
				const struct tb_prog *p = &self->prog[i];
				char want[64];

				tb_func_name(p, f, want, sizeof(want));
				/* the same instructions elsewhere have the same name */
				if (strcmp(k->name, want) || (p->addr[f] && k->addr != p->addr[f]))
					continue;
				found[i][f]++;
				EXPECT_EQ(PERF_RECORD_KSYMBOL_TYPE_BPF, k->type);
				EXPECT_EQ(0, k->flags);
				EXPECT_EQ(p->len[f], k->len) TH_LOG("%s", want);
			}
	}
	for (int i = 0; i < NPROGS; i++)
		for (uint32_t f = 0; f < self->prog[i].nr_funcs; f++) {
			char want[64];

			tb_func_name(&self->prog[i], f, want, sizeof(want));
			EXPECT_EQ(1, found[i][f]) TH_LOG("KSYMBOL %s (program %u)", want,
							 self->prog[i].id);
		}
}

/* One BPF_EVENT PROG_LOAD per program, with its tag, after its KSYMBOLs. */
TEST_F(bpf_synth, bpf_event_prog_load_after_ksymbols)
{
	struct pc_error err = { 0 };
	struct pd_record rec;
	uint64_t pos = 0;
	int loads[NPROGS] = { 0 }, ksyms[NPROGS] = { 0 };

	while (pd_reader_next(&self->r, &pos, &rec, &err) == 1) {
		const uint8_t *body = (const uint8_t *)rec.data + 8;

		if (rec.header.type == PC_RECORD_KSYMBOL && rec.header.size > 8 + 16 &&
		    memchr(body + 16, '\0', rec.header.size - 8 - 16))
			for (int i = 0; i < NPROGS; i++)
				for (uint32_t f = 0; f < self->prog[i].nr_funcs; f++) {
					char want[64];

					uint64_t addr;

					tb_func_name(&self->prog[i], f, want, sizeof(want));
					memcpy(&addr, body, 8);
					if (!strcmp((const char *)body + 16, want) &&
					    (!self->prog[i].addr[f] || addr == self->prog[i].addr[f]))
						ksyms[i]++;
				}
		if (rec.header.type == PC_RECORD_BPF_EVENT && rec.header.size >= 8 + 16) {
			const struct bpf_rec *b = (const void *)body;

			for (int i = 0; i < NPROGS; i++) {
				if (b->id != self->prog[i].id)
					continue;
				loads[i]++;
				EXPECT_EQ(PERF_BPF_EVENT_PROG_LOAD, b->type);
				EXPECT_EQ(0, memcmp(b->tag, self->prog[i].tag, 8));
				EXPECT_EQ((int)self->prog[i].nr_funcs, ksyms[i])
					TH_LOG("program %u: BPF_EVENT after %d of its %u KSYMBOLs",
					       b->id, ksyms[i], self->prog[i].nr_funcs);
			}
		}
	}
	for (int i = 0; i < NPROGS; i++) {
		EXPECT_EQ(1, loads[i]) TH_LOG("BPF_EVENT PROG_LOAD of program %u", self->prog[i].id);
	}
}

/*
 * BPF_PROG_INFO: an entry per program with the bpf_prog_info the kernel
 * fills, at most perf 6.1's 232 bytes (perf refuses an entry larger than
 * its own struct: 5.10's is smaller), its id, and the JITed addresses at the offset its jited_ksyms gives.
 */
TEST_F(bpf_synth, prog_info_feature)
{
	const uint8_t *d;
	const void *v;
	size_t size, pos = 4;
	uint32_t count;
	int seen[NPROGS] = { 0 };

	ASSERT_EQ(0, pd_reader_feature(&self->r, PD_FEAT_BPF_PROG_INFO, &v, &size));
	d = v;
	ASSERT_GE(size, 4);
	memcpy(&count, d, 4);
	for (uint32_t n = 0; n < count; n++) {
		uint32_t info_len, data_len;
		struct bpf_prog_info info = { 0 };

		ASSERT_LE(pos + 16, size);
		memcpy(&info_len, d + pos, 4);
		memcpy(&data_len, d + pos + 4, 4);
		/* what the kernel fills, at most perf 6.1's struct (232 bytes) */
		ASSERT_LE(offsetof(struct bpf_prog_info, prog_tags) + 8, info_len);
		ASSERT_GE(232, info_len);
		ASSERT_LE(pos + 16 + info_len + data_len, size);
		memcpy(&info, d + pos + 16, info_len);
		for (int i = 0; i < NPROGS; i++) {
			const struct tb_prog *p = &self->prog[i];

			if (info.id != p->id)
				continue;
			seen[i]++;
			EXPECT_EQ(p->info_len < 232 ? p->info_len : 232, info_len);
			EXPECT_EQ(p->nr_funcs, info.nr_jited_ksyms);
			ASSERT_LE(info.jited_ksyms + 8ULL * info.nr_jited_ksyms, data_len);
			for (uint32_t f = 0; f < p->nr_funcs && p->addr[f]; f++) {
				uint64_t a;

				memcpy(&a, d + pos + 16 + info_len + info.jited_ksyms + 8 * f, 8);
				EXPECT_EQ(p->addr[f], a);
			}
			EXPECT_EQ(0, memcmp(info.tag, p->tag, 8));
		}
		pos += 16 + info_len + data_len;
	}
	EXPECT_EQ(size, pos);
	for (int i = 0; i < NPROGS; i++) {
		EXPECT_EQ(1, seen[i]) TH_LOG("BPF_PROG_INFO entry of program %u", self->prog[i].id);
	}
}

/* BPF_BTF: the BTF object of the program with function info, once. */
TEST_F(bpf_synth, btf_feature)
{
	const struct tb_prog *p = &self->prog[TB_BTF];
	const uint8_t *d;
	const void *v;
	size_t size, pos = 4;
	uint32_t count;
	int seen = 0;

	ASSERT_NE(0, p->btf_id);
	ASSERT_EQ(0, pd_reader_feature(&self->r, PD_FEAT_BPF_BTF, &v, &size));
	d = v;
	ASSERT_GE(size, 4);
	memcpy(&count, d, 4);
	for (uint32_t n = 0; n < count; n++) {
		uint32_t id, len;
		uint16_t magic;

		ASSERT_LE(pos + 8, size);
		memcpy(&id, d + pos, 4);
		memcpy(&len, d + pos + 4, 4);
		ASSERT_LE(pos + 8 + len, size);
		if (id == p->btf_id) {
			seen++;
			ASSERT_GE(len, 2);
			memcpy(&magic, d + pos + 8, 2);
			EXPECT_EQ(0xeb9f, magic);
			EXPECT_NE(NULL, memmem(d + pos + 8, len, "pc_main", 8));
		}
		pos += 8 + len;
	}
	EXPECT_EQ(size, pos);
	EXPECT_EQ(1, seen) TH_LOG("BPF_BTF entry of BTF %u", p->btf_id);
}

/* Can uid/gid 65534 execute path? (A checkout under a 0700 directory, as mktemp -d makes, keeps it out.) */
static bool unprivileged_can_exec(const char *path)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		if (setgroups(0, NULL) || setgid(65534) || setuid(65534))
			_exit(2);
		_exit(access(path, X_OK) ? 1 : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return false;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

/* perfcheck record -v as uid/gid 65534 (no passwd entry needed); its exit code, stderr in err */
static int record_unprivileged(const char *data, const char *err)
{
	int status;
	pid_t pid = fork();

	if (pid == 0) {
		int fd = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (fd < 0 || dup2(fd, 2) < 0 || setgroups(0, NULL) || setgid(65534) ||
		    setuid(65534))
			_exit(126);
		execl(pc_test_perfcheck(), "perfcheck", "record", "-v", "-o", data, "--", "true",
		      (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/*
 * bpf() refused (no CAP_SYS_ADMIN): the recording still succeeds, says at
 * -v why the programs are not there, and leaves their records out (with a
 * program loaded, so that there is something it could not see).
 */
TEST(refused_bpf_leaves_programs_out_and_says_why)
{
	struct tb_prog prog = { .fd = -1, .btf_fd = -1 };
	struct pc_error perr = { 0 };
	char *dir, data[512], err[512], want[160], paranoid[16] = "";
	struct pd_reader r;
	struct pd_record rec;
	uint64_t pos = 0;
	const void *v;
	size_t size;
	uint32_t count = 1;
	int code, ksyms = 0;
	static char text[8192];

	if (getuid() != 0)
		SKIP(return, "not root: cannot become another user to be refused");
	if (pc_read_file("/proc/sys/kernel/perf_event_paranoid", paranoid, sizeof(paranoid)) > 0 &&
	    atoi(paranoid) > 2)
		SKIP(return, "perf_event_paranoid %d: an unprivileged user opens no event",
		     atoi(paranoid));
	if (!unprivileged_can_exec(pc_test_perfcheck()))
		SKIP(return, "uid 65534 cannot execute %s (a directory above it is not searchable)",
		     pc_test_perfcheck());
	if (tb_load(TB_ONE, &prog))
		SKIP(return, "%s", prog.err);
	dir = pc_test_mkdtemp("bpf-refused");
	ASSERT_NE(NULL, dir);
	ASSERT_EQ(0, chmod(dir, 0777));
	snprintf(data, sizeof(data), "%s/perf.data", dir);
	snprintf(err, sizeof(err), "%s/stderr", dir);
	code = record_unprivileged(data, err);
	if (pc_read_file(err, text, sizeof(text)) < 0)
		text[0] = '\0';
	EXPECT_EQ(0, code) TH_LOG("perfcheck record as uid 65534: %s", text);
	snprintf(want, sizeof(want), "BPF programs not synthesized: bpf(BPF_PROG_GET_NEXT_ID): %s",
		 strerror(EPERM));
	EXPECT_NE(NULL, strstr(text, want)) TH_LOG("stderr: %s", text);
	if (code == 0) {
		char name[64];

		tb_func_name(&prog, 0, name, sizeof(name));
		ASSERT_EQ(0, pd_reader_open(&r, data, &perr)) TH_LOG("%s", perr.msg);
		while (pd_reader_next(&r, &pos, &rec, &perr) == 1)
			if (rec.header.type == PC_RECORD_KSYMBOL && rec.header.size > 24 &&
			    memmem(rec.data, rec.header.size, name, strlen(name)))
				ksyms++;
		EXPECT_EQ(0, ksyms);
		ASSERT_EQ(0, pd_reader_feature(&r, PD_FEAT_BPF_PROG_INFO, &v, &size));
		ASSERT_LE(4, size);
		memcpy(&count, v, 4);
		EXPECT_EQ(0, count);
		pd_reader_close(&r);
	}
	tb_close(&prog);
	pc_test_rmdir(dir);
}

/* Does the BPF_PROG_INFO of data have an entry for program id? -1: no feature */
static int prog_info_has(const char *data, uint32_t id)
{
	struct pc_error err = { 0 };
	struct pd_reader r;
	int n;

	if (pd_reader_open(&r, data, &err))
		return -1;
	n = tb_prog_info_entries(&r, id);
	pd_reader_close(&r);
	return n < 0 ? -1 : n > 0;
}

TEST(loaded_during_system_wide_recording_gets_prog_info)
{
	struct tb_prog prog = { .fd = -1, .btf_fd = -1 };
	char *dir = pc_test_mkdtemp("bpf-meanwhile"), data[512];
	int status, ret;
	pid_t pid;

	ASSERT_NE(NULL, dir);
	snprintf(data, sizeof(data), "%s/perf.data", dir);
	pid = fork();
	if (pid == 0) {
		int nul = open("/dev/null", O_WRONLY);

		dup2(nul, 1);
		execl(pc_test_perfcheck(), "perfcheck", "record", "-q", "-a", "-o", data, "--",
		      "sleep", "2", (char *)NULL);
		_exit(127);
	}
	ASSERT_LT(0, pid);
	/* the file takes its name once the events are open */
	for (int i = 0; i < 600 && access(data, F_OK); i++)
		usleep(50000);
	ret = tb_load(TB_ONE, &prog);
	ASSERT_EQ(pid, waitpid(pid, &status, 0));
	if (ret) {
		pc_test_rmdir(dir);
		SKIP(return, "%s", prog.err);
	}
	EXPECT_EQ(0, status) TH_LOG("perfcheck record -a: status %#x", status);
	EXPECT_EQ(1, prog_info_has(data, prog.id))
		TH_LOG("program %u loaded during the recording: no BPF_PROG_INFO entry", prog.id);
	tb_close(&prog);
	pc_test_rmdir(dir);
}

TEST_HARNESS_MAIN
