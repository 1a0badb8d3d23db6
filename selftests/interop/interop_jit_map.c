// SPDX-License-Identifier: GPL-2.0
/*
 * Code run from anonymous executable memory (a JIT) against the system
 * perf 6.1: perf names its object /tmp/perf-PID.map (script's "(...)"),
 * with the short name "[JIT] tid PID" in report, and takes its symbols
 * from that file when the JIT wrote one ("START SIZE NAME" in hex).  A
 * program built here copies a loop into an mmap'd PROT_EXEC page twice,
 * names one copy in its map file, and calls both.  script and report are
 * compared byte for byte, with and without the map file.  Skips where no
 * perf or C compiler is installed, or perf may not record.
 */
#include <unistd.h>

#include "kselftest_harness.h"
#include "lib/perfcmp.h"

static const char jit_c[] =
	"#include <stdio.h>\n"
	"#include <string.h>\n"
	"#include <sys/mman.h>\n"
	"#include <unistd.h>\n"
	"#if defined(__x86_64__)\n"
	"/* mov ecx, 200000; l: imul rax, rax, 3; add rax, 1; dec ecx; jnz l; ret */\n"
	"static const unsigned char code[] = { 0xb9, 0x40, 0x0d, 0x03, 0x00, 0x48, 0x6b, 0xc0,\n"
	"\t0x03, 0x48, 0x83, 0xc0, 0x01, 0xff, 0xc9, 0x75, 0xf4, 0xc3 };\n"
	"#elif defined(__aarch64__)\n"
	"/* mov w1, #0x0d40; movk w1, #3, lsl 16; l: add x0, x0, x0, lsl 1; add x0, x0, 1;\n"
	"   subs w1, w1, 1; b.ne l; ret */\n"
	"static const unsigned int code[] = { 0x5281a801, 0x72a00061, 0x8b000400, 0x91000400,\n"
	"\t0x71000421, 0x54ffffa1, 0xd65f03c0 };\n"
	"#endif\n"
	"int main(int argc, char **argv)\n"
	"{\n"
	"\tunsigned char *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE | PROT_EXEC,\n"
	"\t\t\t\tMAP_PRIVATE | MAP_ANONYMOUS, -1, 0);\n"
	"\tchar path[64];\n"
	"\tlong (*fn)(void), acc = 0;\n"
	"\tFILE *f;\n"
	"\tif (p == MAP_FAILED)\n"
	"\t\treturn 1;\n"
	"\tmemcpy(p + 256, code, sizeof(code));\n"
	"\tmemcpy(p + 1024, code, sizeof(code));\n"
	"\t__builtin___clear_cache((char *)p, (char *)p + 8192);\n"
	"\tsnprintf(path, sizeof(path), \"/tmp/perf-%d.map\", getpid());\n"
	"\tf = fopen(path, \"w\");\n"
	"\tif (!f)\n"
	"\t\treturn 1;\n"
	"\tfprintf(f, \"%lx %zx jitted_loop\\n\", (unsigned long)(p + 256), sizeof(code));\n"
	"\tif (argc > 2) {\n"
	"\t\t/* a JIT that moved code: the same start twice, an empty entry, no last newline */\n"
	"\t\tfprintf(f, \"%lx %zx jitted_again\\n\", (unsigned long)(p + 256), sizeof(code));\n"
	"\t\tfprintf(f, \"%lx 0 empty\\n\", (unsigned long)(p + 1024));\n"
	"\t\tfprintf(f, \"%lx %zx second_copy\", (unsigned long)(p + 1024), sizeof(code));\n"
	"\t}\n"
	"\tfclose(f);\n"
	"\tf = fopen(argv[1], \"w\");\n"
	"\tfprintf(f, \"%d\\n\", getpid());\n"
	"\tfclose(f);\n"
	"\tfor (int i = 0; i < 300; i++) {\n"
	"\t\tfn = (long (*)(void))(p + 256);\n"
	"\t\tacc += fn();\n"
	"\t\tfn = (long (*)(void))(p + 1024);\n"
	"\t\tacc += fn();\n"
	"\t}\n"
	"\tprintf(\"%ld\\n\", acc);\n"
	"\treturn 0;\n"
	"}\n";

#if defined(__x86_64__) || defined(__aarch64__)
#define JIT_CODE 1
#else
#define JIT_CODE 0
#endif

FIXTURE(jit) {
	struct perfcmp c;
	char map[64];
};

FIXTURE_SETUP(jit)
{
	self->map[0] = '\0';
	ASSERT_EQ(0, perfcmp_init(&self->c, "interop-jit-map"));
}

FIXTURE_TEARDOWN(jit)
{
	if (self->map[0])
		unlink(self->map);
	perfcmp_fini(&self->c);
}

/* builds and records the JIT program; self->map names the map file it wrote */
#define RECORD_JIT(extra)                                                                  \
	do {                                                                               \
		char args_[700], pid_path_[600];                                           \
		FILE *f_;                                                                  \
		int pid_ = 0;                                                              \
		if (!JIT_CODE)                                                             \
			SKIP(return, "the JIT program's machine code is x86-64 and arm64 only"); \
		snprintf(args_, sizeof(args_), "'%s/pid' %s >/dev/null", self->c.dir, extra); \
		PERFCMP_BUILD_RECORD(&self->c, "jit", jit_c, "-O2", "", args_,             \
				     "-e cpu-clock -c 100000");                            \
		snprintf(pid_path_, sizeof(pid_path_), "%s/pid", self->c.dir);             \
		f_ = fopen(pid_path_, "r");                                                \
		ASSERT_NE(NULL, f_);                                                       \
		ASSERT_EQ(1, fscanf(f_, "%d", &pid_));                                     \
		fclose(f_);                                                                \
		snprintf(self->map, sizeof(self->map), "/tmp/perf-%d.map", pid_);          \
	} while (0)

TEST_F(jit, script_names_the_jit_map_and_its_symbols_as_perf)
{
	RECORD_JIT("");
	perfcmp_same_on_file(_metadata, &self->c, "script", "jitted_loop+0x");
	EXPECT_NE(NULL, strstr(self->c.ours.out, self->map));
}

TEST_F(jit, report_shows_the_jit_as_perfs_short_name)
{
	char tid[64];

	RECORD_JIT("");
	perfcmp_same_on_file(_metadata, &self->c, "report --stdio", "[.] jitted_loop");
	snprintf(tid, sizeof(tid), "[JIT] tid %s", self->map + strlen("/tmp/perf-"));
	*strrchr(tid, '.') = '\0';
	EXPECT_NE(NULL, strstr(self->c.ours.out, tid))
		TH_LOG("no '%s' in %s", tid, self->c.ours.out);
}

/* without the map file: addresses only, the object named all the same */
TEST_F(jit, jit_without_its_map_file_matches_perf)
{
	RECORD_JIT("");
	ASSERT_EQ(0, unlink(self->map));
	perfcmp_same_on_file(_metadata, &self->c, "report --stdio --sort dso,sym", "[JIT] tid ");
	perfcmp_same_on_file(_metadata, &self->c, "script", "[unknown] (/tmp/perf-");
}

/*
 * perf reads the map as it is: no entry dropped or closed, the line's last
 * character taken for its newline, one start twice decided by perf's
 * symbol tree, an empty entry found at its start alone.
 */
TEST_F(jit, map_entries_are_read_as_perf_reads_them)
{
	RECORD_JIT("dups");
	perfcmp_same_on_file(_metadata, &self->c, "report --stdio --no-children --sort sym",
			     "second_cop");
	perfcmp_same_on_file(_metadata, &self->c, "script", "(/tmp/perf-");
	EXPECT_EQ(NULL, strstr(self->c.ours.out, "second_copy"));
}

TEST_HARNESS_MAIN
