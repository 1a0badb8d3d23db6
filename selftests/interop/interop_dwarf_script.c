// SPDX-License-Identifier: GPL-2.0
/*
 * DWARF callchains against the upstream perf (the system's 6.1 here, the
 * guest's in the matrix, PERFCHECK_PERF): a `perf record --call-graph
 * dwarf -e cpu-clock` file read by `perf script` and by `perfcheck script
 * --compat` of that perf's layout (6.1, or 7.2 for perf 7.x) shows the
 * same samples, the same frames at the same addresses with the same
 * symbols.  One difference on purpose with perf 6.1: the name of an
 * "(inlined)" entry, which perf 6.1 takes from addr2line (a symbol-table
 * alias such as __GI_munmap) and we from the DWARF (__munmap); the line
 * is still there, at the same address.  perf 7.x names them from the
 * DWARF too: none may differ.
 *
 * A second one: perf 6.1 unwinds with libunwind, which searches only the
 * .eh_frame_hdr table, and stops at the first frame of an object that has
 * .eh_frame but no .eh_frame_hdr (then, at most, libunwind guesses a frame
 * from the frame pointer register).  Debian's static busybox (the guests'
 * /bin/sh) is such an object: perf 6.1.176 shows one user frame in nearly
 * every sample, where we read .eh_frame and go on to the real callers (the
 * first is _start's call of __libc_start_main: 0x40ec0b calls 0x410300,
 * return address 0x40ec11).  The rest of a sample past a frame in such an
 * object is not compared, and counted; anywhere else the chains must match.
 */
#include <gelf.h>

#include "interop_tools.h"
#include "kselftest_harness.h"
#include "perfdata/perfdata.h"

FIXTURE(dwarf_script) {
	char *dir;
	char data[PATH_MAX];
	struct up_version v;
	const char *perf_out, *ours_out;	/* what a failing case keeps */
};

/* perf record --call-graph SPEC of the shell loop into self->data: perf's exit code */
static int record_loop(FIXTURE_DATA(dwarf_script) *self, const char *spec, struct pc_run *run)
{
	char period[] = "-c", per[] = "250000";
	char *argv[] = { (char *)up_perf(), "record", "-q", "--call-graph", (char *)spec, "-e",
			 "cpu-clock", period, per, "-o", self->data, "--", "/bin/sh", "-c",
			 "i=0; while [ $i -lt 30000 ]; do i=$((i+1)); done", NULL };

	if (pc_test_run(run, 120, argv))
		return -1;
	return run->exit_code;
}

FIXTURE_SETUP(dwarf_script)
{
	struct pc_run run;

	if (!up_perf())
		SKIP(return, "no upstream perf here (guest without the upstream payload)");
	ASSERT_EQ(0, up_perf_version(&self->v));
	/* the layouts compared: perf 6.1's (--compat 6.1) and 7.x's (the default) */
	if ((self->v.major != 6 || self->v.minor != 1) && self->v.major < 7)
		SKIP(return, "the layouts compared are perf 6.1's and 7.x's; this perf is %s",
		     self->v.text);
	self->dir = pc_test_mkdtemp("interop-dwarf-script");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->data, sizeof(self->data), "%s/perf.data", self->dir);
	ASSERT_LE(0, record_loop(self, "dwarf", &run));
	if (run.exit_code)
		SKIP(return, "perf record --call-graph dwarf -e cpu-clock fails here: %.200s",
		     run.err ? run.err : "");
	pc_run_free(&run);
}

/*
 * In a guest, a failing case keeps the recording and both outputs as
 * artifacts.  Called at the end of the cases (their comparisons EXPECT and
 * stop, not ASSERT) and by the teardown: after an ASSERT this harness may
 * not run the teardown in the test's process.
 */
static void keep_outputs(struct __test_metadata *_metadata, FIXTURE_DATA(dwarf_script) *self)
{
	if (self->dir && !__test_passed(_metadata)) {
		up_keep("interop_dwarf_script", "perf.data", NULL, self->data);
		if (self->perf_out)
			up_keep("interop_dwarf_script", "perf.txt", self->perf_out, NULL);
		if (self->ours_out)
			up_keep("interop_dwarf_script", "perfcheck.txt", self->ours_out, NULL);
	}
	self->perf_out = self->ours_out = NULL;
}

FIXTURE_TEARDOWN(dwarf_script)
{
	keep_outputs(_metadata, self);
	if (self->dir)
		pc_test_rmdir(self->dir);
}

static bool inlined(const char *line, size_t len)
{
	return len >= 9 && !memcmp(line + len - 9, "(inlined)", 9);
}

/* The address column of a frame line ("\t%16lx ..."), or 0. */
static unsigned long long frame_addr(const char *line)
{
	return line[0] == '\t' ? strtoull(line + 1, NULL, 16) : 0;
}

/* True when path is an ELF file with .eh_frame and without .eh_frame_hdr. */
static bool eh_frame_without_hdr(const char *path)
{
	static char last[PATH_MAX];
	static bool answer;
	bool frame = false, hdr = false;
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	Elf *elf;
	int fd;

	if (!strcmp(path, last))
		return answer;
	snprintf(last, sizeof(last), "%s", path);
	answer = false;
	elf_version(EV_CURRENT);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return false;
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (elf && !elf_getshdrstrndx(elf, &shstrndx)) {
		while ((scn = elf_nextscn(elf, scn))) {
			GElf_Shdr sh;
			const char *name = gelf_getshdr(scn, &sh) ?
					   elf_strptr(elf, shstrndx, sh.sh_name) : NULL;

			frame |= name && !strcmp(name, ".eh_frame");
			hdr |= name && !strcmp(name, ".eh_frame_hdr");
		}
	}
	elf_end(elf);
	close(fd);
	answer = frame && !hdr;
	return answer;
}

/* Steps *p to the blank line that ends its sample; returns the lines stepped over. */
static int to_sample_end(const char **p)
{
	int n = 0;

	while (**p && **p != '\n') {
		size_t l = strcspn(*p, "\n");

		n++;
		*p += l + ((*p)[l] == '\n');
	}
	return n;
}

/*
 * Where the chains part right after a frame both printed in an object with
 * .eh_frame and no .eh_frame_hdr (obj): perf's libunwind has no table to
 * search there, so what it prints next is nothing, or a guess from the frame
 * pointer register (perf 6.1.176 in the 6.1 guest: "bb2a2" and "2e220" in
 * busybox, return addresses minus one that follow no call), where we go on
 * by the CFI.  Steps *a (perf) and *b (ours) to the sample's end and adds
 * the lines stepped over to *perf and *ours; false where the lines are the
 * same or the difference is another one.
 */
static bool past_unwind_table(const char **a, const char **b, const char *obj, int *perf,
			      int *ours)
{
	size_t la = strcspn(*a, "\n"), lb = strcspn(*b, "\n");

	if ((la == lb && !memcmp(*a, *b, la)) || !obj[0] || (la && (*a)[0] != '\t') ||
	    (lb && (*b)[0] != '\t') || !eh_frame_without_hdr(obj))
		return false;
	*perf += to_sample_end(a);
	*ours += to_sample_end(b);
	return true;
}

/* Remembers the object of a frame line ("... (PATH)") in obj; "" for [kernel.kallsyms]. */
static void frame_object(const char *line, size_t len, char *obj, size_t size)
{
	const char *open = NULL;

	if (!frame_addr(line) || len < 3 || line[len - 1] != ')')
		return;
	for (const char *q = line; q < line + len; q++)
		if (*q == '(')
			open = q;
	if (open && open[1] == '/')
		snprintf(obj, size, "%.*s", (int)(line + len - 1 - open - 1), open + 1);
	else
		obj[0] = '\0';
}

/*
 * perf script and perfcheck script --compat (that perf's layout) on
 * self->data: the same lines, but for inlined names and the tails past
 * objects without .eh_frame_hdr (above).  Returns perf's output (owned).
 */
static char *compare_scripts(struct __test_metadata *_metadata, FIXTURE_DATA(dwarf_script) *self)
{
	char *pargv[] = { (char *)up_perf(), "script", "-i", self->data, NULL };
	char *oargv[] = { (char *)pc_test_perfcheck(), "script", "--compat", (char *)up_compat(&self->v), "-i",
			  self->data, NULL };
	struct pc_run p, o;
	const char *a, *b;
	int lines = 0, named = 0, user = 0, perf_past = 0, ours_past = 0;
	char obj[PATH_MAX] = "";

	ASSERT_EQ(0, pc_test_run(&p, 300, pargv));
	ASSERT_EQ(0, pc_test_run(&o, 300, oargv));
	ASSERT_EQ(0, p.exit_code);
	ASSERT_EQ(0, o.exit_code) TH_LOG("%s", o.err);
	ASSERT_NE(NULL, p.out);
	ASSERT_NE(NULL, o.out);
	self->perf_out = p.out;
	self->ours_out = o.out;
	for (a = p.out, b = o.out; *a && *b; lines++) {
		size_t la, lb;

		past_unwind_table(&a, &b, obj, &perf_past, &ours_past);
		la = strcspn(a, "\n");
		lb = strcspn(b, "\n");
		if (la == lb && !memcmp(a, b, la))
			frame_object(a, la, obj, sizeof(obj));
		if (la != lb || memcmp(a, b, la)) {
			/* the one difference on purpose: an inlined entry's name */
			bool ok = (inlined(a, la) || inlined(b, lb)) &&
				  frame_addr(a) == frame_addr(b);

			EXPECT_TRUE(ok)
				TH_LOG("line %d differs:\nperf:      %.*s\nperfcheck: %.*s", lines + 1,
				       (int)la, a, (int)lb, b);
			if (!ok)
				break;
			named++;
		}
		if (la > 20 && strstr(a, " (/") && strstr(a, " (/") < a + la)
			user++;
		a += la + (a[la] == '\n');
		b += lb + (b[lb] == '\n');
	}
	if (!*a || !*b) {
		EXPECT_EQ('\0', *a) TH_LOG("perf prints more lines than perfcheck after line %d",
					   lines);
		EXPECT_EQ('\0', *b) TH_LOG("perfcheck prints more lines than perf after line %d",
					   lines);
	}
	/* the user frames are there: perf unwound some, and so did we */
	EXPECT_LT(0, user);
	/* names taken apart are few (19 of 2085 lines when this was written), none with perf 7 */
	EXPECT_LT(named * 20, lines) TH_LOG("%d of %d lines differ in an inlined name", named, lines);
	if (self->v.major >= 7)
		EXPECT_EQ(0, named);
	TH_LOG("%d lines, %d user frames, %d inlined names differ; past an object without "
	       ".eh_frame_hdr: %d lines of perf's, %d of ours", lines, user, named, perf_past,
	       ours_past);
	keep_outputs(_metadata, self);
	pc_run_free(&o);
	return p.out;
}

TEST_F_TIMEOUT(dwarf_script, script_shows_perfs_samples_frames_and_symbols, 600)
{
	free(compare_scripts(_metadata, self));
}

/*
 * pcwork has no .eh_frame (built without unwind tables) but keeps its frame
 * pointers: perf 6.1's libunwind ends each chain at its first pcwork frame,
 * perf 7.x's libdw walks on by the frame pointer (measured here: perf
 * 6.1.187 the leaf alone, perf 7.2.13 the whole chain); each as that perf.
 */
TEST_F_TIMEOUT(dwarf_script, chains_through_code_without_cfi_end_as_perfs, 600)
{
	char *argv[] = { (char *)up_perf(), "record", "-q", "--call-graph", "dwarf", "-e",
			 "cpu-clock", "-c", "250000", "-o", self->data, "--",
			 (char *)up_pcwork(), "spin", "300", NULL };
	struct pc_run run;

	if (!up_pcwork())
		SKIP(return, "no pcwork beside perfcheck");
	ASSERT_EQ(0, pc_test_run(&run, 120, argv));
	ASSERT_EQ(0, run.exit_code) TH_LOG("%s", run.err);
	pc_run_free(&run);
	free(compare_scripts(_metadata, self));
}

/*
 * 1 KiB dumps: many chains run past the dump.  Debian's perf 6.1 and 7.2
 * alike (libunwind's memory) read the dump's last word and what lies past
 * it in [stack] as 0; perf 6.1 ends such a chain with a ffffffffffffffff
 * frame (measured: 575 of the chains of a shell loop and ls here), perf
 * 7.2 only where the last frame had no CFI (287 lines of busybox in its
 * guest; none on glibc objects here); the chains are compared as is.
 */
TEST_F_TIMEOUT(dwarf_script, chains_past_small_stack_dumps_end_as_perfs, 600)
{
	struct pc_run run;
	char *perf;

	ASSERT_EQ(0, record_loop(self, "dwarf,1024", &run)) TH_LOG("%s", run.err);
	pc_run_free(&run);
	perf = compare_scripts(_metadata, self);
	ASSERT_NE(NULL, perf);
	if (self->v.major == 6 && self->v.minor == 1) {
		int ends = pc_count_substr(perf, "\tffffffffffffffff [unknown] ([unknown])\n");

		/*
		 * the chains were compared above; whether any ran to the dump's
		 * end is the workload's: in the 6.1 guest (busybox, objects
		 * without .eh_frame_hdr) perf 6.1's libunwind stopped every chain
		 * before it (2026-11-27)
		 */
		/* (a SKIP would hide a difference found above: only when there was none) */
		if (!ends && _metadata->exit_code == KSFT_PASS) {
			free(perf);
			SKIP(return, "perf 6.1 ended no chain at the dump's end here (its unwinding "
				     "stopped earlier in every chain): the chains are equal, that "
				     "end is not exercised");
		}
	} else {
		TH_LOG("%s: %d chains end at the dump", self->v.text,
		       pc_count_substr(perf, "\tffffffffffffffff [unknown]"));
	}
	free(perf);
}

/*
 * -F +srcline: a srcline under every frame, "(inlined)" after those of
 * inlined entries, as perf.  Differences named: perf prints ":0" where the
 * object has DWARF but no line for the address (we print "dso[addr]"), and
 * binutils' addr2line names another file of the CU for some lines (the line
 * number is the same); the inlined entries' names as above; our frames past
 * perf 6.1's end, with their srclines, as above.  perf gets a copy of
 * /proc/kallsyms: with kallsyms beside /proc/kcore it reads the kernel from
 * kcore and asks addr2line for its lines, which cannot read kcore ("could not
 * read first record"), and perf dies of SIGPIPE (exit 141) at the first
 * kernel frame (perf 6.1.176 in the 6.1 guest); kallsyms alone has no file
 * to hand addr2line, and perf prints "[kernel.kallsyms][ADDR]" as we do.
 */
TEST_F_TIMEOUT(dwarf_script, srclines_follow_every_frame_as_perf_prints_them, 600)
{
	char kallsyms[PATH_MAX + 32], opt[PATH_MAX + 48];
	char *pargv[] = { (char *)up_perf(), "script", "-F", "+srcline", opt, "-i", self->data,
			  NULL };
	char *oargv[] = { (char *)pc_test_perfcheck(), "script", "--compat", (char *)up_compat(&self->v), "-F",
			  "+srcline", "-i", self->data, NULL };
	char *cp[] = { "/bin/cp", "/proc/kallsyms", kallsyms, NULL };
	struct pc_run p, o;
	const char *a, *b;
	int lines = 0, named = 0, srclines = 0, perf_past = 0, ours_past = 0;
	char obj[PATH_MAX] = "";
	bool prev = false;

	snprintf(kallsyms, sizeof(kallsyms), "%s/kallsyms", self->dir);
	snprintf(opt, sizeof(opt), "--kallsyms=%s", kallsyms);
	ASSERT_EQ(0, pc_test_run(&p, 60, cp));
	ASSERT_EQ(0, p.exit_code) TH_LOG("cp /proc/kallsyms: %s", p.err);
	pc_run_free(&p);
	ASSERT_EQ(0, pc_test_run(&p, 300, pargv));
	ASSERT_EQ(0, pc_test_run(&o, 300, oargv));
	ASSERT_EQ(0, p.exit_code) TH_LOG("perf: %.300s", p.err);
	ASSERT_EQ(0, o.exit_code) TH_LOG("%s", o.err);
	ASSERT_NE(NULL, p.out);
	ASSERT_NE(NULL, o.out);
	self->perf_out = p.out;
	self->ours_out = o.out;
	for (a = p.out, b = o.out; *a && *b; lines++) {
		size_t la, lb;

		past_unwind_table(&a, &b, obj, &perf_past, &ours_past);
		la = strcspn(a, "\n");
		lb = strcspn(b, "\n");
		if (la == lb && !memcmp(a, b, la))
			frame_object(a, la, obj, sizeof(obj));
		if (la > 2 && a[0] == ' ' && a[1] == ' ')
			srclines++;
		if (la != lb || memcmp(a, b, la)) {
			bool src = a[0] == ' ' && b[0] == ' ';

			/* a srcline keeps its "(inlined)" mark (unless its frame's
			 * name differs: an alias perf takes for an inlined entry) */
			bool ok = (src || frame_addr(a) == frame_addr(b)) &&
				  (prev || inlined(a, la) == inlined(b, lb));

			EXPECT_TRUE(ok)
				TH_LOG("line %d differs:\nperf:      %.*s\nperfcheck: %.*s", lines + 1,
				       (int)la, a, (int)lb, b);
			if (!ok)
				break;
			named++;
			prev = !src;
		} else {
			prev = false;
		}
		a += la + (a[la] == '\n');
		b += lb + (b[lb] == '\n');
	}
	if (!*a || !*b) {
		EXPECT_EQ('\0', *a) TH_LOG("perf prints more lines than perfcheck after line %d",
					   lines);
		EXPECT_EQ('\0', *b) TH_LOG("perfcheck prints more lines than perf after line %d",
					   lines);
	}
	EXPECT_LT(0, srclines);
	EXPECT_LT(named * 5, lines) TH_LOG("%d of %d lines differ", named, lines);
	TH_LOG("%d lines, %d srclines, %d differ (named above); past an object without "
	       ".eh_frame_hdr: %d lines of perf's, %d of ours", lines, srclines, named, perf_past,
	       ours_past);
	keep_outputs(_metadata, self);
	pc_run_free(&p);
	pc_run_free(&o);
}

/* Report lines without comments and blank lines (the header names the tool). */
static char *rows(const char *out)
{
	size_t len = out ? strlen(out) : 0, n = 0;
	char *r = malloc(len + 1);

	for (const char *p = out; r && p && *p;) {
		size_t l = strcspn(p, "\n");

		if (l && p[0] != '#') {
			memcpy(r + n, p, l);
			n += l;
			r[n++] = '\n';
		}
		p += l + (p[l] == '\n');
	}
	if (r)
		r[n] = '\0';
	return r;
}

/*
 * report's Self rows come from the same unwound chains perf uses: byte for
 * byte perf report --no-children -g none.  (The Children rows and call
 * graphs differ where perf adds inlined entries, not shown by report yet.)
 */
TEST_F_TIMEOUT(dwarf_script, report_self_rows_are_perfs, 600)
{
	char *pargv[] = { (char *)up_perf(), "report", "--stdio", "--no-children", "-g", "none",
			  "-i", self->data, NULL };
	char *oargv[] = { (char *)pc_test_perfcheck(), "report", "--compat", (char *)up_compat(&self->v), "--stdio",
			  "--no-children", "-g", "none", "-i", self->data, NULL };
	struct pc_run p, o;
	char *rp, *ro;

	ASSERT_EQ(0, pc_test_run(&p, 300, pargv));
	ASSERT_EQ(0, pc_test_run(&o, 300, oargv));
	ASSERT_EQ(0, p.exit_code);
	ASSERT_EQ(0, o.exit_code) TH_LOG("%s", o.err);
	rp = rows(p.out);
	ro = rows(o.out);
	ASSERT_NE(NULL, rp);
	ASSERT_NE(NULL, ro);
	EXPECT_LT(0, (int)strlen(rp));
	EXPECT_STREQ(rp, ro);
	free(rp);
	free(ro);
	pc_run_free(&p);
	pc_run_free(&o);
}

/*
 * The file offset of the first sample's stack dyn_size word, and the dump's
 * size; 0 when no sample has a user stack.
 */
static uint64_t first_dyn_size(const char *path, uint64_t *size)
{
	struct pd_reader r;
	struct pd_record rec;
	struct pd_sample smp;
	struct pc_error err = { 0 };
	uint64_t pos = 0, at = 0;

	if (pd_reader_open(&r, path, &err))
		return 0;
	while (!at && pd_reader_next(&r, &pos, &rec, &err) == 1) {
		if (rec.header.type != PERF_RECORD_SAMPLE ||
		    pd_parse_sample(&r, &rec, &smp, &err) || !smp.stack_user.size)
			continue;
		at = rec.offset + (uint64_t)((const uint8_t *)smp.stack_user.data -
					     (const uint8_t *)rec.data) + smp.stack_user.size;
		*size = smp.stack_user.size;
	}
	pd_reader_close(&r);
	return at;
}

/* A stack dump claiming more valid bytes than it holds: named, exit 2. */
TEST_F_TIMEOUT(dwarf_script, stack_dyn_size_past_the_dump_is_an_error_at_its_offset, 300)
{
	char bad[PATH_MAX + 8], want[PATH_MAX + 64];
	char *argv[] = { (char *)pc_test_perfcheck(), "script", "-i", bad, NULL };
	uint64_t size = 0, at = first_dyn_size(self->data, &size), dyn;
	struct pc_run run;
	int in, out;
	char buf[65536];
	ssize_t n;

	ASSERT_NE(0, at) TH_LOG("no sample with a user stack in the recording");
	snprintf(bad, sizeof(bad), "%s/bad.data", self->dir);
	in = open(self->data, O_RDONLY);
	out = open(bad, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ASSERT_LE(0, in);
	ASSERT_LE(0, out);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		ASSERT_EQ(n, write(out, buf, (size_t)n));
	dyn = size + 8;
	ASSERT_EQ(8, pwrite(out, &dyn, 8, (off_t)at));
	close(in);
	close(out);
	ASSERT_EQ(0, pc_test_run(&run, 120, argv));
	EXPECT_EQ(2, run.exit_code);
	snprintf(want, sizeof(want), "%s: offset 0x", bad);
	EXPECT_NE(NULL, run.err ? strstr(run.err, want) : NULL) TH_LOG("stderr: %s", run.err);
	EXPECT_NE(NULL, run.err ? strstr(run.err, "dyn_size") : NULL) TH_LOG("stderr: %s", run.err);
	pc_run_free(&run);
}

TEST_HARNESS_MAIN
