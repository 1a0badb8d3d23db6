// SPDX-License-Identifier: GPL-2.0
/*
 * record --kcore: a perf.data directory with the kernel's text beside the
 * data, as perf record --kcore makes it (kcore_dir: kallsyms, modules and
 * an ELF copy of the text ranges of /proc/kcore).  Where /proc/kcore is not
 * readable (a kernel without CONFIG_PROC_KCORE, as this project's host) the
 * recording is refused in perf's words and nothing is written; where it
 * is, the copy is checked against /proc itself and against perf's own copy,
 * perf reads our directory, and our reader takes the kernel's symbols from
 * its kcore_dir, as perf does.
 */
#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "interop_script.h"
#include "interop_tools.h"
#include "testutil.h"

static bool kcore_readable(void)
{
	int fd = open("/proc/kcore", O_RDONLY);

	if (fd < 0)
		return false;
	close(fd);
	return true;
}

#define SKIP_WITHOUT_KCORE()                                                                \
	do {                                                                                \
		if (!kcore_readable())                                                      \
			SKIP(return, "no readable /proc/kcore here (a kernel without "      \
				     "CONFIG_PROC_KCORE, or not root): nothing to copy");   \
	} while (0)

FIXTURE(kcore) {
	char *dir;
	char data[512];
};

FIXTURE_SETUP(kcore)
{
	if (!up_pcwork())
		SKIP(return, "pcwork is not next to perfcheck (make)");
	self->dir = pc_test_mkdtemp("interop-kcore");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->data, sizeof(self->data), "%s/pc.data", self->dir);
}

FIXTURE_TEARDOWN(kcore)
{
	pc_test_rmdir(self->dir);
}

/* TOOL record --kcore [-a] -e cpu-clock -o OUT -- pcwork spin 100; its exit code */
static int record_kcore(struct __test_metadata *_metadata, const char *tool, const char *out,
			bool system_wide)
{
	static const char *const task[] = { "--kcore", "-e", "cpu-clock", NULL };
	static const char *const cpus[] = { "--kcore", "-a", "-e", "cpu-clock", NULL };
	int code;
	char *vv = up_record_vv(tool, system_wide ? cpus : task, 0, out, &code);

	if (code)
		TH_LOG("%s record --kcore: exit %d: %.1500s", tool, code, vv ? vv : "");
	free(vv);
	return code;
}

/*
 * The layout perf script of version v prints in: perf 5.10's is perf
 * 6.1's, not the 7.2 layout up_compat gives versions it does not name
 * (seen in the 5.10 guest, perf 5.10.223: the tid padded to 5,
 * "perfcheck  3032 [000]", and an exited thread's later samples still
 * under its command, as perf 6.1 keeps exited threads)
 */
static const char *script_compat(const struct up_version *v)
{
	return v->major < 6 ? "6.1" : up_compat(v);
}

static char *slurp(const char *dir, const char *name)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return pc_test_slurp(path, NULL);
}

TEST_F(kcore, unreadable_kcore_is_refused_and_nothing_is_written)
{
	char *argv[] = { (char *)pc_test_perfcheck(), "record", "--kcore", "-e", "cpu-clock",
			 "-o", self->data, "--", (char *)up_pcwork(), "spin", "10", NULL };
	struct pc_run run;

	if (kcore_readable())
		SKIP(return, "/proc/kcore is readable here: the copy is what is tested");
	ASSERT_EQ(0, up_run(&run, 60, argv));
	EXPECT_EQ(255, run.exit_code);
	EXPECT_NE(NULL, strstr(run.err, "ERROR: kcore is not readable.")) TH_LOG("%s", run.err);
	EXPECT_NE(0, access(self->data, F_OK)) TH_LOG("%s was written", self->data);
	pc_run_free(&run);
}

TEST_F(kcore, kcore_dir_holds_the_kallsyms_and_modules_of_the_recording)
{
	char kdir[600];
	char *kallsyms, *modules, *now_kallsyms, *now_modules;

	SKIP_WITHOUT_KCORE();
	ASSERT_EQ(0, record_kcore(_metadata, pc_test_perfcheck(), self->data, false));
	snprintf(kdir, sizeof(kdir), "%s/kcore_dir", self->data);
	kallsyms = slurp(kdir, "kallsyms");
	modules = slurp(kdir, "modules");
	now_kallsyms = pc_test_slurp("/proc/kallsyms", NULL);
	now_modules = pc_test_slurp("/proc/modules", NULL);
	ASSERT_NE(NULL, kallsyms);
	ASSERT_NE(NULL, modules);
	ASSERT_NE(NULL, now_kallsyms);
	EXPECT_STREQ(now_kallsyms, kallsyms);
	EXPECT_STREQ(now_modules ? now_modules : "", modules);
	EXPECT_EQ(0, access(self->data, F_OK));
	free(kallsyms);
	free(modules);
	free(now_kallsyms);
	free(now_modules);
}

/* The PT_LOADs of an ELF64 file: vaddr, size, file offset; their number (-1: not one). */
static int load_segments(const char *path, uint64_t seg[][3], int max)
{
	Elf64_Ehdr eh;
	int fd = open(path, O_RDONLY), n = 0;

	if (fd < 0)
		return -1;
	if (pread(fd, &eh, sizeof(eh), 0) != sizeof(eh) || memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_phentsize != sizeof(Elf64_Phdr)) {
		close(fd);
		return -1;
	}
	for (int i = 0; i < eh.e_phnum && n < max; i++) {
		Elf64_Phdr ph;

		if (pread(fd, &ph, sizeof(ph), (off_t)(eh.e_phoff + i * sizeof(ph))) != sizeof(ph))
			break;
		if (ph.p_type != PT_LOAD)
			continue;
		seg[n][0] = ph.p_vaddr;
		seg[n][1] = ph.p_filesz;
		seg[n][2] = ph.p_offset;
		n++;
	}
	close(fd);
	return n;
}

/* The address of a kernel symbol in a kallsyms text, 0 when it is not there. */
static uint64_t symbol_addr(const char *kallsyms, const char *name)
{
	char pat[128];
	const char *p;

	snprintf(pat, sizeof(pat), " %s\n", name);
	for (p = strstr(kallsyms, pat); p; p = strstr(p + 1, pat)) {
		const char *line = p;

		while (line > kallsyms && line[-1] != '\n')
			line--;
		if (p - line == 18 || p - line == 10)	/* "ADDR T" of 16 or 8 digits */
			return strtoull(line, NULL, 16);
	}
	return 0;
}

/* len bytes at addr of an ELF64 core file (kcore or our copy); 0 when read whole. */
static int read_at(const char *path, uint64_t addr, void *buf, size_t len)
{
	uint64_t seg[64][3];
	int n = load_segments(path, seg, 64), fd, ret = -1;

	for (int i = 0; i < n; i++) {
		if (addr < seg[i][0] || addr + len > seg[i][0] + seg[i][1])
			continue;
		fd = open(path, O_RDONLY);
		if (fd < 0)
			return -1;
		ret = pread(fd, buf, len, (off_t)(seg[i][2] + addr - seg[i][0])) == (ssize_t)len ?
		      0 : -1;
		close(fd);
		break;
	}
	return ret;
}

TEST_F(kcore, kcore_copy_holds_the_kernel_text_at_its_addresses)
{
	static unsigned char copy[4096], live[4096];
	char path[600];
	char *kallsyms;
	uint64_t stext;

	SKIP_WITHOUT_KCORE();
	ASSERT_EQ(0, record_kcore(_metadata, pc_test_perfcheck(), self->data, false));
	snprintf(path, sizeof(path), "%s/kcore_dir/kallsyms", self->data);
	kallsyms = pc_test_slurp(path, NULL);
	ASSERT_NE(NULL, kallsyms);
	stext = symbol_addr(kallsyms, "_stext");
	free(kallsyms);
	ASSERT_NE(0, stext) TH_LOG("no _stext in the copied kallsyms");
	snprintf(path, sizeof(path), "%s/kcore_dir/kcore", self->data);
	ASSERT_EQ(0, read_at(path, stext, copy, sizeof(copy)))
		TH_LOG("the copy has no segment holding _stext %#llx", (unsigned long long)stext);
	ASSERT_EQ(0, read_at("/proc/kcore", stext, live, sizeof(live)));
	EXPECT_EQ(0, memcmp(copy, live, sizeof(copy)));
}

TEST_F(kcore, kcore_copy_has_the_segments_of_perfs)
{
	uint64_t ours[64][3], theirs[64][3];
	char perf_data[600], path[700];
	int n_ours, n_theirs;

	SKIP_WITHOUT_KCORE();
	if (!up_perf())
		SKIP(return, "no upstream perf here to copy kcore beside us");
	snprintf(perf_data, sizeof(perf_data), "%s/perf.data", self->dir);
	ASSERT_EQ(0, record_kcore(_metadata, up_perf(), perf_data, false));
	ASSERT_EQ(0, record_kcore(_metadata, pc_test_perfcheck(), self->data, false));
	snprintf(path, sizeof(path), "%s/kcore_dir/kcore", perf_data);
	n_theirs = load_segments(path, theirs, 64);
	snprintf(path, sizeof(path), "%s/kcore_dir/kcore", self->data);
	n_ours = load_segments(path, ours, 64);
	ASSERT_LT(0, n_theirs);
	ASSERT_EQ(n_theirs, n_ours);
	for (int i = 0; i < n_ours; i++) {
		EXPECT_EQ(theirs[i][0], ours[i][0]) TH_LOG("segment %d: vaddr", i);
		EXPECT_EQ(theirs[i][1], ours[i][1]) TH_LOG("segment %d: size", i);
		/* where the bytes sit in the copy: the same layout, aliases included */
		EXPECT_EQ(theirs[i][2], ours[i][2]) TH_LOG("segment %d: file offset", i);
	}
}

/* perf script reads our directory cleanly and shows the samples perfcheck script shows */
TEST_F(kcore, perf_reads_our_kcore_recording_as_we_do)
{
	struct up_version v;
	struct pc_run a, b;
	struct is_cmp c;
	int ret;

	SKIP_WITHOUT_KCORE();
	if (!up_perf())
		SKIP(return, "no upstream perf here");
	ASSERT_EQ(0, up_perf_version(&v));
	ASSERT_EQ(0, record_kcore(_metadata, pc_test_perfcheck(), self->data, true));
	{
		char *pa[] = { (char *)up_perf(), "script", "-i", self->data, NULL };
		char *pb[] = { (char *)pc_test_perfcheck(), "script", "--compat",
			       (char *)script_compat(&v), "-i", self->data, NULL };

		ASSERT_EQ(0, up_run(&a, 600, pa));
		ASSERT_EQ(0, up_run(&b, 600, pb));
	}
	up_keep("kcore", "perf-script.txt", a.out, NULL);
	EXPECT_EQ(0, a.exit_code) TH_LOG("%s script: %s", v.text, a.err);
	EXPECT_STREQ("", a.err ? a.err : "");
	EXPECT_EQ(0, b.exit_code) TH_LOG("perfcheck script: %s", b.err);
	ret = is_compare_text(a.out, b.out, &c);
	EXPECT_EQ(0, ret) TH_LOG("%s script and perfcheck script differ on our --kcore "
				 "directory: %s", v.text, c.why);
	EXPECT_LT(0, c.samples);
	pc_run_free(&a);
	pc_run_free(&b);
}

/*
 * The kernel's symbols come from the directory's kcore_dir/kallsyms, not
 * from this machine's: every function renamed there shows renamed.
 */
TEST_F(kcore, our_reader_takes_kernel_symbols_from_the_kcore_dir)
{
	char path[600];
	char *kallsyms, *renamed, *q;
	const char *p;
	FILE *f;
	struct pc_run run;
	char *argv[] = { (char *)pc_test_perfcheck(), "script", "-F", "ip,sym,dso", "-i",
			 self->data, NULL };

	SKIP_WITHOUT_KCORE();
	ASSERT_EQ(0, record_kcore(_metadata, pc_test_perfcheck(), self->data, true));
	snprintf(path, sizeof(path), "%s/kcore_dir/kallsyms", self->data);
	kallsyms = pc_test_slurp(path, NULL);
	ASSERT_NE(NULL, kallsyms);
	renamed = malloc(strlen(kallsyms) * 2 + 1);
	ASSERT_NE(NULL, renamed);
	/* "ADDR T name" -> "ADDR T kc_name" */
	for (p = kallsyms, q = renamed; *p;) {
		const char *nl = strchr(p, '\n'), *eol = nl ? nl + 1 : p + strlen(p);
		const char *sp = memchr(p, ' ', (size_t)(eol - p));

		if (sp && sp + 3 < eol) {
			memcpy(q, p, (size_t)(sp + 3 - p));
			q += sp + 3 - p;
			memcpy(q, "kc_", 3);
			q += 3;
			memcpy(q, sp + 3, (size_t)(eol - sp - 3));
			q += eol - sp - 3;
		} else {
			memcpy(q, p, (size_t)(eol - p));
			q += eol - p;
		}
		p = eol;
	}
	*q = '\0';
	chmod(path, 0600);
	f = fopen(path, "w");
	ASSERT_NE(NULL, f);
	fputs(renamed, f);
	fclose(f);
	ASSERT_EQ(0, up_run(&run, 300, argv));
	EXPECT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	EXPECT_NE(NULL, strstr(run.out, " kc_")) TH_LOG("no renamed kernel symbol: %.2000s",
							run.out);
	free(kallsyms);
	free(renamed);
	pc_run_free(&run);
}

/* Lines of text holding any of the needles, in order, joined. */
static char *lines_with(const char *text, const char *a, const char *b)
{
	size_t n = strlen(text) + 1, len = 0;
	char *out = malloc(n);

	if (!out)
		return NULL;
	out[0] = '\0';
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p + 1) : strlen(p);
		char line[4096];

		snprintf(line, sizeof(line), "%.*s", (int)l, p);
		if (strstr(line, a) || strstr(line, b)) {
			memcpy(out + len, p, l);
			len += l;
			out[len] = '\0';
		}
		p += l;
	}
	return out;
}

/*
 * The kernel patches its text when a tracepoint is switched on and off:
 * the text poke dummy records each patch, and perfcheck script
 * --show-text-poke-events prints them as perf script does (the address's
 * symbol and offset, the old and new bytes)
 */
TEST_F(kcore, text_pokes_are_recorded_and_shown_as_perf)
{
	static const char *const enable = "/sys/kernel/tracing/events/sched/sched_process_fork/enable";
	char work[512];
	struct up_version v;
	struct pc_run rec, a, b;
	char *pa_lines, *pb_lines;

	SKIP_WITHOUT_KCORE();
	if (!up_perf())
		SKIP(return, "no upstream perf here");
	if (access(enable, W_OK))
		system("mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null");
	if (access(enable, W_OK))
		SKIP(return, "no tracefs here to switch a tracepoint on and off");
	ASSERT_EQ(0, up_perf_version(&v));
	snprintf(work, sizeof(work), "sleep 0.2; echo 1 > %s; sleep 0.1; echo 0 > %s; sleep 0.1",
		 enable, enable);
	{
		char *argv[] = { (char *)pc_test_perfcheck(), "record", "-q", "--kcore", "-a", "-e",
				 "cpu-clock", "-o", self->data, "--", "sh", "-c", work, NULL };

		ASSERT_EQ(0, up_run(&rec, 300, argv));
		ASSERT_EQ(0, rec.exit_code) TH_LOG("%s", rec.err);
		pc_run_free(&rec);
	}
	{
		char *pa[] = { (char *)up_perf(), "script", "--show-text-poke-events", "-i",
			       self->data, NULL };
		char *pb[] = { (char *)pc_test_perfcheck(), "script", "--compat",
			       (char *)script_compat(&v), "--show-text-poke-events", "-i",
			       self->data, NULL };

		ASSERT_EQ(0, up_run(&a, 600, pa));
		ASSERT_EQ(0, up_run(&b, 600, pb));
	}
	EXPECT_EQ(0, a.exit_code) TH_LOG("%s", a.err);
	EXPECT_EQ(0, b.exit_code) TH_LOG("%s", b.err);
	pa_lines = lines_with(a.out, "PERF_RECORD_TEXT_POKE", " bytes:");
	pb_lines = lines_with(b.out, "PERF_RECORD_TEXT_POKE", " bytes:");
	ASSERT_NE(NULL, pa_lines);
	ASSERT_NE(NULL, pb_lines);
	EXPECT_NE(NULL, strstr(pa_lines, "PERF_RECORD_TEXT_POKE"))
		TH_LOG("no text poke recorded while a tracepoint was switched on and off");
	EXPECT_STREQ(pa_lines, pb_lines);
	up_keep("kcore", "perf-script-text-poke.txt", a.out, NULL);
	free(pa_lines);
	free(pb_lines);
	pc_run_free(&a);
	pc_run_free(&b);
	/* and -D, whose lines name the poked symbol too */
	{
		char *pa[] = { (char *)up_perf(), "script", "-D", "-i", self->data, NULL };
		char *pb[] = { (char *)pc_test_perfcheck(), "script", "--compat",
			       (char *)up_compat(&v), "-D", "-i", self->data, NULL };

		ASSERT_EQ(0, up_run(&a, 600, pa));
		ASSERT_EQ(0, up_run(&b, 600, pb));
	}
	pa_lines = lines_with(a.out, "PERF_RECORD_TEXT_POKE", " bytes:");
	pb_lines = lines_with(b.out, "PERF_RECORD_TEXT_POKE", " bytes:");
	ASSERT_NE(NULL, pa_lines);
	ASSERT_NE(NULL, pb_lines);
	EXPECT_STREQ(pa_lines, pb_lines);
	free(pa_lines);
	free(pb_lines);
	pc_run_free(&a);
	pc_run_free(&b);
}

TEST_HARNESS_MAIN
