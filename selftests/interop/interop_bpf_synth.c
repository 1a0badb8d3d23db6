// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF programs loaded before a recording, perf record beside perfcheck
 * record: with three socket filters loaded here (one named function, two
 * functions without BTF, two with BTF function info), the upstream perf
 * shows the same KSYMBOL and BPF_EVENT lines for them in both files
 * (perf script --show-bpf-events), the same bpf_prog_info blocks and BTF
 * line in perf report --header-only, and reads our file without a warning.
 * Lines of other programs (loaded or unloaded by others between the two
 * recordings) are left out of that comparison.  And perfcheck's reader on
 * both files prints what perf prints of them, byte for byte: every KSYMBOL
 * and BPF_EVENT line of perfcheck script --show-bpf-events, every
 * bpf_prog_info, sub_prog and btf line of perfcheck report --header-only;
 * the same for programs the workload loads and unloads while recorded.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "bpf_load.h"
#include "interop_tools.h"

#define NPROGS 3

FIXTURE(bpf_interop) {
	char *dir;
	char perf_data[512], pc_data[512];
	struct tb_prog prog[NPROGS];
};

static int record(struct __test_metadata *_metadata, const char *tool, const char *data)
{
	char *argv[] = { (char *)tool, "record", "-q", "-o", (char *)data, "--", "true", NULL };
	struct pc_run run;
	int code;

	up_run(&run, 120, argv);
	code = run.exit_code;
	if (code)
		TH_LOG("%s record: exit %d: %s", tool, code, run.err ? run.err : "");
	pc_run_free(&run);
	return code;
}

FIXTURE_SETUP(bpf_interop)
{
	for (int i = 0; i < NPROGS; i++)
		self->prog[i].fd = self->prog[i].btf_fd = -1;
	if (!up_perf())
		SKIP(return, "no upstream perf here (guest without the upstream payload)");
	if (!up_kernel_has(PC_FEAT_KSYMBOL) || !up_kernel_has(PC_FEAT_BPF_EVENT))
		SKIP(return, "the kernel refuses attr.ksymbol or attr.bpf_event (probe)");
	for (int i = 0; i < NPROGS; i++)
		if (tb_load((enum tb_kind)i, &self->prog[i]))
			SKIP(return, "%s", self->prog[i].err);
	self->dir = pc_test_mkdtemp("interop-bpf");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->perf_data, sizeof(self->perf_data), "%s/perf.data", self->dir);
	snprintf(self->pc_data, sizeof(self->pc_data), "%s/perfcheck.data", self->dir);
	ASSERT_EQ(0, record(_metadata, up_perf(), self->perf_data));
	ASSERT_EQ(0, record(_metadata, pc_test_perfcheck(), self->pc_data));
}

FIXTURE_TEARDOWN(bpf_interop)
{
	for (int i = 0; i < NPROGS; i++)
		tb_close(&self->prog[i]);
	if (self->dir)
		pc_test_rmdir(self->dir);
}

/* perf ARGS -i DATA: stdout; *err_out gets stderr (both malloc'd). */
static char *perf_out(struct __test_metadata *_metadata, const char *cmd, const char *opt,
		      const char *data, char **err_out)
{
	char *argv[] = { (char *)up_perf(), (char *)cmd, (char *)opt, "-i", (char *)data, NULL };
	struct pc_run run;
	char *out;

	up_run(&run, 120, argv);
	EXPECT_EQ(0, run.exit_code) TH_LOG("perf %s %s -i %s: %s", cmd, opt, data,
					   run.err ? run.err : "");
	out = strdup(run.out ? run.out : "");
	if (err_out)
		*err_out = strdup(run.err ? run.err : "");
	pc_run_free(&run);
	return out;
}

/* Does this line name one of our programs (its id, or a function at its address)? */
static bool ours(const struct tb_prog *prog, const char *line)
{
	for (int i = 0; i < NPROGS; i++) {
		char key[64];

		snprintf(key, sizeof(key), "id %u", prog[i].id);
		if (strstr(line, "PERF_RECORD_BPF_EVENT") && (strstr(line, key)) &&
		    strlen(strstr(line, key)) == strlen(key))
			return true;
		for (uint32_t f = 0; f < prog[i].nr_funcs; f++) {
			char name[64];

			tb_func_name(&prog[i], f, name, sizeof(name));
			snprintf(key, sizeof(key), "addr %llx ", (unsigned long long)prog[i].addr[f]);
			if (strstr(line, "PERF_RECORD_KSYMBOL") && strstr(line, key) &&
			    strstr(line, name))
				return true;
		}
	}
	return false;
}

/* The lines of text that concern our programs, joined. */
static char *our_lines(const struct tb_prog *prog, const char *text)
{
	size_t n = strlen(text);
	char *out = calloc(1, n + 1), *copy = strdup(text), *save = NULL;

	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		if (ours(prog, l)) {
			strcat(out, l);
			strcat(out, "\n");
		}
	free(copy);
	return out;
}

/* perf script --show-bpf-events: the same KSYMBOL and BPF_EVENT lines for our programs. */
TEST_F_TIMEOUT(bpf_interop, show_bpf_events_equal, 600)
{
	char *err = NULL;
	char *a = perf_out(_metadata, "script", "--show-bpf-events", self->perf_data, NULL);
	char *b = perf_out(_metadata, "script", "--show-bpf-events", self->pc_data, &err);
	char *la = our_lines(self->prog, a), *lb = our_lines(self->prog, b);
	int want = NPROGS;

	for (int i = 0; i < NPROGS; i++)
		want += (int)self->prog[i].nr_funcs;
	EXPECT_EQ(want, pc_count_substr(la, "\n")) TH_LOG("perf's file:\n%s", la);
	EXPECT_STREQ(la, lb);
	EXPECT_STREQ("", err) TH_LOG("perf script on perfcheck's file warns");
	free(a);
	free(b);
	free(la);
	free(lb);
	free(err);
}

/* The header block of one program: its bpf_prog_info line and any sub_prog lines. */
static char *prog_block(const char *text, uint32_t id)
{
	char key[64], *out = calloc(1, 4096);
	const char *p;

	snprintf(key, sizeof(key), "# bpf_prog_info %u:", id);
	p = strstr(text, key);
	while (p && out) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p + 1) : strlen(p);

		size_t at = strlen(out);

		if (at + len >= 4096)
			break;
		memcpy(out + at, p, len);
		out[at + len] = '\0';
		if (!nl || strncmp(nl + 1, "# \tsub_prog", 11))
			break;
		p = nl + 1;
	}
	return out;
}

/* perf report --header-only: the same bpf_prog_info blocks and the BTF line. */
TEST_F_TIMEOUT(bpf_interop, header_prog_info_equal, 600)
{
	char *a = perf_out(_metadata, "report", "--header-only", self->perf_data, NULL);
	char *b = perf_out(_metadata, "report", "--header-only", self->pc_data, NULL);
	char btf[64];

	for (int i = 0; i < NPROGS; i++) {
		char *ba = prog_block(a, self->prog[i].id), *bb = prog_block(b, self->prog[i].id);

		EXPECT_NE(0, strlen(ba)) TH_LOG("perf's header has no bpf_prog_info %u",
						self->prog[i].id);
		EXPECT_STREQ(ba, bb);
		free(ba);
		free(bb);
	}
	snprintf(btf, sizeof(btf), "# btf info of id %u\n", self->prog[TB_BTF].btf_id);
	EXPECT_NE(NULL, strstr(a, btf)) TH_LOG("perf's header:\n%s", a);
	EXPECT_NE(NULL, strstr(b, btf)) TH_LOG("perfcheck's file, perf's header:\n%s", b);
	free(a);
	free(b);
}

/* perfcheck CMD OPT [OPT2] -i DATA: stdout (malloc'd), exit 0 expected. */
static char *pc_out(struct __test_metadata *_metadata, const char *cmd, const char *opt,
		    const char *opt2, const char *data)
{
	struct up_version v;
	char *argv[9] = { (char *)pc_test_perfcheck(), (char *)cmd, (char *)opt };
	struct pc_run run;
	char *out;
	int n = 3;

	if (opt2)
		argv[n++] = (char *)opt2;
	if (!strcmp(cmd, "script") && !up_perf_version(&v)) {
		argv[n++] = "--compat";
		argv[n++] = (char *)up_compat(&v);
	} else if (!strcmp(cmd, "report") && !up_perf_version(&v) &&
		   !strcmp(up_compat(&v), "6.1")) {
		/* report's layouts: perf 6.1's, else perf 7.2's */
		argv[n++] = "--compat";
		argv[n++] = "6.1";
	}
	argv[n++] = "-i";
	argv[n++] = (char *)data;
	up_run(&run, 120, argv);
	EXPECT_EQ(0, run.exit_code) TH_LOG("perfcheck %s %s -i %s: %s", cmd, opt, data,
					   run.err ? run.err : "");
	out = strdup(run.out ? run.out : "");
	pc_run_free(&run);
	return out;
}

/* The lines of text that begin (after perf's start columns) with one of prefixes. */
static char *lines_with(const char *text, const char *const *prefixes, bool anywhere)
{
	char *out = calloc(1, strlen(text) + 1), *copy = strdup(text), *save = NULL;

	for (char *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		for (const char *const *p = prefixes; *p; p++)
			if (anywhere ? strstr(l, *p) != NULL : !strncmp(l, *p, strlen(*p))) {
				strcat(out, l);
				strcat(out, "\n");
				break;
			}
	free(copy);
	return out;
}

static void script_equal(struct __test_metadata *_metadata, const struct tb_prog *prog,
			 const char *data)
{
	static const char *const bpf[] = { ": PERF_RECORD_KSYMBOL ", ": PERF_RECORD_BPF_EVENT ",
					   NULL };
	char *a = perf_out(_metadata, "script", "--show-bpf-events", data, NULL);
	char *b = pc_out(_metadata, "script", "--show-bpf-events", NULL, data);
	char *la = lines_with(a, bpf, true), *lb = lines_with(b, bpf, true);
	char *mine = our_lines(prog, lb);
	int want = NPROGS;

	for (int i = 0; i < NPROGS; i++)
		want += (int)prog[i].nr_funcs;
	EXPECT_EQ(want, pc_count_substr(mine, "\n")) TH_LOG("perfcheck:\n%s", lb);
	EXPECT_STREQ(la, lb) TH_LOG("%s", data);
	free(a);
	free(b);
	free(la);
	free(lb);
	free(mine);
}

/* perfcheck script --show-bpf-events: perf's KSYMBOL and BPF_EVENT lines, in order. */
TEST_F_TIMEOUT(bpf_interop, reader_show_bpf_events_as_perf_on_perf_file, 600)
{
	script_equal(_metadata, self->prog, self->perf_data);
}

TEST_F_TIMEOUT(bpf_interop, reader_show_bpf_events_as_perf_on_perfcheck_file, 600)
{
	script_equal(_metadata, self->prog, self->pc_data);
}

static void header_equal(struct __test_metadata *_metadata, const struct tb_prog *prog,
			 const char *data)
{
	static const char *const bpf[] = { "# bpf_prog_info ", "# \tsub_prog ", "# btf info ",
					   NULL };
	char *a = perf_out(_metadata, "report", "--header-only", data, NULL);
	char *b = pc_out(_metadata, "report", "--header-only", NULL, data);
	char *la = lines_with(a, bpf, false), *lb = lines_with(b, bpf, false);

	for (int i = 0; prog && i < NPROGS; i++) {
		char *block = prog_block(lb, prog[i].id);

		EXPECT_NE(0, strlen(block)) TH_LOG("perfcheck shows no bpf_prog_info %u",
						   prog[i].id);
		free(block);
	}
	EXPECT_STREQ(la, lb) TH_LOG("%s", data);
	free(a);
	free(b);
	free(la);
	free(lb);
}

/* perfcheck report --header-only: perf's bpf_prog_info blocks and btf lines. */
TEST_F_TIMEOUT(bpf_interop, reader_header_as_perf_on_perf_file, 600)
{
	header_equal(_metadata, self->prog, self->perf_data);
}

TEST_F_TIMEOUT(bpf_interop, reader_header_as_perf_on_perfcheck_file, 600)
{
	header_equal(_metadata, self->prog, self->pc_data);
}

/*
 * The workload of the test below: this binary run with PC_BPF_WORKLOAD set
 * loads the three programs and exits (unloading them), before the harness.
 */
__attribute__((constructor)) static void bpf_workload(void)
{
	struct tb_prog p[NPROGS];
	int code = 0;

	if (!getenv("PC_BPF_WORKLOAD"))
		return;
	for (int i = 0; i < NPROGS; i++) {
		p[i].fd = p[i].btf_fd = -1;
		if (tb_load((enum tb_kind)i, &p[i])) {
			fprintf(stderr, "%s\n", p[i].err);
			code = 1;
		}
	}
	for (int i = 0; i < NPROGS; i++)
		tb_close(&p[i]);
	_exit(code);
}

/* TOOL record of this binary as the workload that loads and unloads programs. */
static int record_loader(struct __test_metadata *_metadata, const char *tool, const char *data)
{
	char self_exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self_exe, sizeof(self_exe) - 1);
	char *argv[] = { (char *)tool, "record", "-q", "-o", (char *)data, "--", self_exe, NULL };
	struct pc_run run;
	int code;

	if (n <= 0)
		return -1;
	self_exe[n] = '\0';
	setenv("PC_BPF_WORKLOAD", "1", 1);
	up_run(&run, 120, argv);
	unsetenv("PC_BPF_WORKLOAD");
	code = run.exit_code;
	if (code)
		TH_LOG("%s record: exit %d: %s", tool, code, run.err ? run.err : "");
	pc_run_free(&run);
	return code;
}

/*
 * Programs loaded and unloaded by the workload during the recording: the
 * kernel's own KSYMBOL (register, unregister) and BPF_EVENT (PROG_LOAD,
 * PROG_UNLOAD) records with the workload's sample_id, shown as perf shows
 * them, and the header's entries perf's side band or ours added.
 */
TEST_F_TIMEOUT(bpf_interop, reader_shows_programs_loaded_during_the_recording_as_perf, 600)
{
	char perf_rt[600], pc_rt[600];

	snprintf(perf_rt, sizeof(perf_rt), "%s/perf-loader.data", self->dir);
	snprintf(pc_rt, sizeof(pc_rt), "%s/perfcheck-loader.data", self->dir);
	ASSERT_EQ(0, record_loader(_metadata, up_perf(), perf_rt));
	ASSERT_EQ(0, record_loader(_metadata, pc_test_perfcheck(), pc_rt));
	for (int f = 0; f < 2; f++) {
		static const char *const bpf[] = { ": PERF_RECORD_KSYMBOL ",
						   ": PERF_RECORD_BPF_EVENT ", NULL };
		const char *data = f ? pc_rt : perf_rt;
		char *a = perf_out(_metadata, "script", "--show-bpf-events", data, NULL);
		char *b = pc_out(_metadata, "script", "--show-bpf-events", NULL, data);
		char *la = lines_with(a, bpf, true), *lb = lines_with(b, bpf, true);

		/*
		 * the workload's PROG_LOAD of each program, from the kernel (its
		 * PROG_UNLOAD comes when the kernel frees the program, after an
		 * RCU grace period: it may come after the recording ended)
		 */
		EXPECT_LE(NPROGS, pc_count_substr(la, "PERF_RECORD_BPF_EVENT type 1,"))
			TH_LOG("%s:\n%s", data, la);
		EXPECT_STREQ(la, lb) TH_LOG("%s", data);
		free(a);
		free(b);
		free(la);
		free(lb);
		header_equal(_metadata, NULL, data);
	}
}

TEST_HARNESS_MAIN
