// SPDX-License-Identifier: GPL-2.0
/*
 * Upstream perf's fallback ladder under `perfcheck emulate`: for option
 * sets whose features differ between the matrix's kernels, the perf_event_attr
 * perf finally opens (after its own ladder, read from `perf record -vv`)
 * under an emulated kernel equals what the same perf opened on that real
 * kernel.
 *
 * Two halves.  Where it runs (a matrix guest, or this host), the test
 * records what the running kernel's ladder gives and keeps it as the
 * artifact attrs.txt (fixtures/emulate-ladder/harvest turns a matrix run's
 * artifacts into fixtures/emulate-ladder/ROW/VARIANT.attrs), and checks
 * that emulating the running kernel changes nothing.  On a host with the
 * fixtures, the row's own perf (the staged payload of vm/upstream/stage,
 * run through the payload's ld.so and libraries) runs under
 * `perfcheck emulate ROW` and must open the recorded attrs.
 */
#include <errno.h>
#include <dirent.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "interop_attr.h"
#include "interop_tools.h"
#include "probes/kmodel.h"

/* The staged perf of a row: its ld.so, library directory and binary. */
struct row_perf {
	char ldso[PATH_MAX], libdir[PATH_MAX], perf[PATH_MAX];
	char version[128];	/* "perf version 5.10.223" */
	char from[PATH_MAX];	/* the payload (or "PATH") it came from */
	bool system;		/* the system perf, not a payload */
};

FIXTURE(ladder) {
	char *dir;
};

FIXTURE_VARIANT(ladder) {
	const char *name;
	const char *opts[12];
	bool defer;		/* --call-graph fp,defer: perf 7.x on a kernel with defer_callchain */
};

/* cpu-clock with a fixed period unless the variant is about the event itself */
#define CLK "-e", "cpu-clock", "-c", "500000"

FIXTURE_VARIANT_ADD(ladder, default_event) { "default-event", { "-c", "500000" } };
FIXTURE_VARIANT_ADD(ladder, plain) { "plain", { CLK } };
FIXTURE_VARIANT_ADD(ladder, callchain_fp) { "callchain-fp", { CLK, "-g" } };
FIXTURE_VARIANT_ADD(ladder, callchain_dwarf) { "callchain-dwarf", { CLK, "--call-graph", "dwarf,4096" } };
FIXTURE_VARIANT_ADD(ladder, data_addr) { "data-addr", { CLK, "-d" } };
FIXTURE_VARIANT_ADD(ladder, sample_cpu) { "sample-cpu", { CLK, "--sample-cpu" } };
FIXTURE_VARIANT_ADD(ladder, timestamp) { "timestamp", { CLK, "-T" } };
FIXTURE_VARIANT_ADD(ladder, namespaces) { "namespaces", { CLK, "--namespaces" } };
FIXTURE_VARIANT_ADD(ladder, all_cgroups) { "all-cgroups", { CLK, "--all-cgroups" } };
FIXTURE_VARIANT_ADD(ladder, clock_mono) { "clock-mono", { CLK, "-k", "mono" } };
FIXTURE_VARIANT_ADD(ladder, switch_events) { "switch-events", { CLK, "--switch-events" } };
FIXTURE_VARIANT_ADD(ladder, overwrite) { "overwrite", { CLK, "--overwrite" } };
FIXTURE_VARIANT_ADD(ladder, inherit_stat) { "inherit-stat", { CLK, "-s" } };
FIXTURE_VARIANT_ADD(ladder, sample_read) { "sample-read", { "-c", "500000", "-e", "{cpu-clock,task-clock}:S" } };
FIXTURE_VARIANT_ADD(ladder, buildid_mmap) { "buildid-mmap", { CLK, "--buildid-mmap" } };
FIXTURE_VARIANT_ADD(ladder, page_size) { "page-size", { CLK, "--data-page-size", "--code-page-size" } };
FIXTURE_VARIANT_ADD(ladder, sideband_all) {
	"sideband-all", { CLK, "--namespaces", "--all-cgroups", "-k", "mono", "--switch-events",
			  "--sample-cpu", "-d" } };
FIXTURE_VARIANT_ADD(ladder, newer_features) {
	"newer-features", { CLK, "--buildid-mmap", "--data-page-size", "--code-page-size", "-k",
			    "mono" } };
FIXTURE_VARIANT_ADD(ladder, defer) { "defer", { CLK, "--call-graph", "fp,defer" }, true };

FIXTURE_SETUP(ladder)
{
	if (!up_pcwork())
		SKIP(return, "pcwork is not next to perfcheck (make)");
	self->dir = pc_test_mkdtemp("emulate-ladder");
	ASSERT_NE(NULL, self->dir);
}

FIXTURE_TEARDOWN(ladder)
{
	pc_test_rmdir(self->dir);
}

/* ------------------------------------------------------------ running perf */

/*
 * PREFIX... record -vv OPTS -o DIR/perf.data -- pcwork spin 100, optionally
 * under `perfcheck emulate KERNEL`; the -vv text (stderr) and the exit code.
 */
static char *record(const char *dir, const char *kernel, char *const *prefix,
		    const char *const *opts, int *code)
{
	char out[PATH_MAX], *argv[48];
	const char *work[] = { up_pcwork(), "spin", "100" };
	struct pc_run run;
	char *text;
	int n = 0;

	snprintf(out, sizeof(out), "%s/perf.data", dir);
	if (kernel) {
		argv[n++] = (char *)pc_test_perfcheck();
		argv[n++] = "emulate";
		argv[n++] = (char *)kernel;
		argv[n++] = "--";
	}
	for (; *prefix; prefix++)
		argv[n++] = *prefix;
	argv[n++] = "record";
	argv[n++] = "-vv";
	for (; *opts && n < 36; opts++)
		argv[n++] = (char *)*opts;
	argv[n++] = "-o";
	argv[n++] = out;
	argv[n++] = "--";
	for (int i = 0; i < 3; i++)
		argv[n++] = (char *)work[i];
	argv[n] = NULL;
	up_run(&run, 300, argv);
	*code = run.exit_code;
	text = run.err;
	run.err = NULL;
	pc_run_free(&run);
	unlink(out);
	return text;
}

/* The options as one line, for headers and messages. */
static void opts_line(const char *const *opts, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (; *opts && len + 1 < size; opts++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? " " : "", *opts);
}

/* perf's exit for an option it does not know: usage (129), "unknown option" */
static bool unknown_option(int code, const char *text)
{
	return code == 129 && text && (strstr(text, "nknown option") || strstr(text, "Usage"));
}

/*
 * The opened attrs in a form ia_parse_vv reads back: each event's attr as
 * -vv prints it, followed by a successful open line.
 */
static char *attrs_text(const char *header, int code, const struct ia_opened *o)
{
	size_t size = 4096 + (size_t)o->n * IA_MAX_FIELDS * 220, len = 0;
	char *t = malloc(size);

	if (!t)
		return NULL;
	len += (size_t)snprintf(t + len, size - len, "%sexit %d\n", header, code);
	for (int e = 0; e < o->n; e++) {
		const struct ia_attr *a = &o->ev[e].attr;

		len += (size_t)snprintf(t + len, size - len, "%.60s\nperf_event_attr:\n",
					"------------------------------------------------------------");
		for (int f = 0; f < a->n; f++)
			len += (size_t)snprintf(t + len, size - len, "  %-32s %s\n", a->f[f].key,
						a->f[f].value);
		len += (size_t)snprintf(t + len, size - len, "%.60s\nsys_perf_event_open: = %d\n",
					"------------------------------------------------------------",
					e + 3);
	}
	return t;
}

static int exit_of(const char *text)
{
	const char *p = strstr(text, "\nexit ");

	return p ? atoi(p + 6) : -1;
}

static void header_field(const char *text, const char *key, char *out, size_t size)
{
	const char *p = strstr(text, key);

	out[0] = '\0';
	if (p) {
		p += strlen(key);
		snprintf(out, size, "%.*s", (int)strcspn(p, "\n"), p);
	}
}

/* The differences as lines, "" when none. */
static int diff_text(const struct ia_opened *real, const struct ia_opened *emu, char *buf,
		     size_t size)
{
	static struct ia_diff d[IA_MAX_DIFFS];
	int n = ia_diff(real, emu, d);
	size_t len = 0;

	buf[0] = '\0';
	for (int i = 0; i < n && len + 1 < size; i++)
		len += (size_t)snprintf(buf + len, size - len, "  %-28s real %-10s emulated %-10s "
					"(event %s)\n", d[i].key, d[i].perf, d[i].pc, d[i].event);
	return n;
}

/* The model of the running kernel: "MAJOR.MINOR" of uname -r, if there is one. */
static const char *running_model(char *release, size_t size)
{
	static char name[32];
	struct utsname u;
	int major, minor;

	if (uname(&u) || sscanf(u.release, "%d.%d", &major, &minor) != 2)
		return NULL;
	snprintf(release, size, "%s", u.release);
	snprintf(name, sizeof(name), "%d.%d", major, minor);
	return pc_kernel_model_find(name) ? name : NULL;
}

/* Whether `perfcheck emulate` can run here (seccomp user notification). */
static const char *emulate_unavailable(void)
{
	static char why[512];
	char *argv[] = { (char *)pc_test_perfcheck(), "emulate", "7.2", "--", "true", NULL };
	struct pc_run run;

	if (up_run(&run, 60, argv))
		return "perfcheck does not run";
	why[0] = '\0';
	if (run.exit_code)
		snprintf(why, sizeof(why), "perfcheck emulate cannot run here: %.400s",
			 run.err ? run.err : "");
	pc_run_free(&run);
	return why[0] ? why : NULL;
}

/* ---------------------------------------------------- the running kernel */

/* A perf staged beside perfcheck under cross/TAG (a newer perf for an older guest). */
static bool cross_perf(const char *tag, char **prefix, char bufs[3][PATH_MAX], char *payload,
		       size_t psize)
{
	char tmp[PATH_MAX], dir[PATH_MAX], path[PATH_MAX + 32];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s", pc_test_perfcheck());
	snprintf(dir, sizeof(dir), "%s", dirname(tmp));
	if (snprintf(bufs[0], PATH_MAX, "%s/cross/%s/lib64/ld-linux-x86-64.so.2", dir, tag) >= PATH_MAX ||
	    snprintf(bufs[1], PATH_MAX, "%s/cross/%s/lib/x86_64-linux-gnu", dir, tag) >= PATH_MAX ||
	    snprintf(bufs[2], PATH_MAX, "%s/cross/%s/perfcheck/upstream/perf", dir, tag) >= PATH_MAX ||
	    access(bufs[0], X_OK) || access(bufs[2], X_OK))
		return false;
	prefix[0] = bufs[0];
	prefix[1] = "--library-path";
	prefix[2] = bufs[1];
	prefix[3] = bufs[2];
	prefix[4] = NULL;
	payload[0] = '\0';
	snprintf(path, sizeof(path), "%s/cross/%s/payload", dir, tag);
	f = fopen(path, "r");
	if (f) {
		if (fgets(payload, (int)psize, f))
			payload[strcspn(payload, "\n")] = '\0';
		fclose(f);
	}
	return true;
}

/* PREFIX --version: "perf version X.Y.Z" */
static void prefix_version(char *const *prefix, char *out, size_t size)
{
	char *argv[8];
	struct pc_run run;
	int n = 0;

	for (; *prefix && n < 6; prefix++)
		argv[n++] = *prefix;
	argv[n++] = "--version";
	argv[n] = NULL;
	out[0] = '\0';
	if (up_run(&run, 60, argv))
		return;
	snprintf(out, size, "%.*s", (int)strcspn(run.out ? run.out : "", "\n"),
		 run.out ? run.out : "");
	pc_run_free(&run);
}

/*
 * Records the running kernel's ladder result with the perf of prefix (kept
 * as FILE: the fixtures are made of the guests' copies), then the same
 * under the model of this kernel: a model stricter than the kernel opens less.
 */
static void running_kernel(struct __test_metadata *_metadata, FIXTURE_DATA(ladder) *self,
			   const FIXTURE_VARIANT(ladder) *variant, char *const *prefix,
			   const char *file, const char *payload)
{
	static struct ia_opened real, emu;
	char release[128], header[1024], opts[512], diffs[8192], version[128];
	const char *model = running_model(release, sizeof(release)), *why;
	char *real_vv, *emu_vv, *kept;
	int code, ecode, n;

	prefix_version(prefix, version, sizeof(version));
	ASSERT_NE('\0', version[0]) TH_LOG("%s --version printed nothing", prefix[0]);
	opts_line(variant->opts, opts, sizeof(opts));
	real_vv = record(self->dir, NULL, prefix, variant->opts, &code);
	ASSERT_NE(NULL, real_vv);
	ASSERT_EQ(0, ia_parse_vv(real_vv, &real));
	snprintf(header, sizeof(header), "# perf: %s\n# kernel: %s\n# options: %s\n%s%s%s",
		 version, release, opts, payload ? "# payload: " : "", payload ? payload : "",
		 payload ? "\n" : "");
	kept = attrs_text(header, code, &real);
	ASSERT_NE(NULL, kept);
	up_keep(variant->name, file, kept, NULL);
	free(kept);
	if (unknown_option(code, real_vv)) {
		free(real_vv);
		SKIP(return, "%s has no option among '%s'", version, opts);
	}
	if (variant->defer && !up_kernel_has(PC_FEAT_DEFER_CALLCHAIN)) {
		free(real_vv);
		SKIP(return, "kernel lacks defer_callchain");
	}
	if (variant->defer && code) {
		free(real_vv);
		SKIP(return, "%s refused --call-graph fp,defer (exit %d)", version, code);
	}
	if (!model) {
		free(real_vv);
		SKIP(return, "no kernel model of %s to emulate (perfcheck emulate --list)", release);
	}
	why = emulate_unavailable();
	if (why) {
		free(real_vv);
		SKIP(return, "%s", why);
	}
	emu_vv = record(self->dir, model, prefix, variant->opts, &ecode);
	ASSERT_NE(NULL, emu_vv);
	/* a perf that refuses the options on this kernel must refuse them emulated too */
	EXPECT_EQ(code, ecode) TH_LOG("real: %.2000s\nunder emulate %s: %.2000s", real_vv, model,
				      emu_vv);
	ASSERT_EQ(0, ia_parse_vv(emu_vv, &emu));
	n = diff_text(&real, &emu, diffs, sizeof(diffs));
	TH_LOG("%s, kernel %s, emulated %s, options '%s': exit %d; %d events, %d opens (%d failed) "
	       "real, %d (%d failed) emulated; %d differences\n%s", version, release, model, opts,
	       code, real.n, real.attempts, real.failures, emu.attempts, emu.failures, n, diffs);
	EXPECT_EQ(0, n);
	free(real_vv);
	free(emu_vv);
}

TEST_F_TIMEOUT(ladder, emulating_the_running_kernel_opens_what_it_opens, 600)
{
	char *prefix[] = { (char *)up_perf(), NULL };

	if (!up_perf())
		SKIP(return, "no upstream perf here (guest without the upstream payload: "
			     "make matrix without --no-upstream)");
	running_kernel(_metadata, self, variant, prefix, "attrs.txt", NULL);
}

/* perf 7.2 on an older kernel: the ladder at work (staged by fixtures/emulate-ladder/record) */
TEST_F_TIMEOUT(ladder, emulating_the_running_kernel_opens_what_perf_7_2_opens, 600)
{
	char bufs[3][PATH_MAX], payload[256], *prefix[5];

	if (!cross_perf("7.2", prefix, bufs, payload, sizeof(payload)))
		SKIP(return, "no perf 7.2 staged beside perfcheck in cross/7.2 (a matrix run with "
			     "fixtures/emulate-ladder/record's payload)");
	running_kernel(_metadata, self, variant, prefix, "attrs-perf-7.2.txt",
		       payload[0] ? payload : NULL);
}

/* ------------------------------------------------- a matrix row, emulated */

/* snprintf through a va_list: a path too long for its buffer is an error, not a warning */
static int pathf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

/* Reads a whole file; NULL when it cannot. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f)
		return NULL;
	do {
		if (len + 4096 + 1 > cap) {
			char *b = realloc(buf, cap = (cap ? cap * 2 : 16384));

			if (!b) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = b;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
	} while (n);
	fclose(f);
	if (buf)
		buf[len] = '\0';
	return buf;
}

/*
 * The payload directory of ROW in the cache whose perf has the version
 * wanted: the one named (PAYLOAD) first, else any ROW-KEY with that perf.
 */
static bool find_payload(const char *row, const char *named, const char *want_version,
			 char *out, size_t size)
{
	const char *cache = getenv("PERFCHECK_CACHE");
	char base[PATH_MAX], path[PATH_MAX * 2];
	struct dirent *de;
	bool found = false;
	DIR *d;

	if (cache && *cache)
		snprintf(base, sizeof(base), "%s/upstream", cache);
	else
		snprintf(base, sizeof(base), "%s/.cache/perfcheck/upstream",
			 getenv("HOME") ? getenv("HOME") : "/root");
	d = opendir(base);
	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		size_t rl = strlen(row);
		char *ver;

		/* ROW-DIGITS: not ROW-arm64-..., not a .lock or .tmp */
		if (strncmp(de->d_name, row, rl) || de->d_name[rl] != '-' ||
		    strspn(de->d_name + rl + 1, "0123456789") != strlen(de->d_name + rl + 1))
			continue;
		if (*named && strcmp(named, de->d_name))
			continue;
		if (pathf(path, sizeof(path), "%s/%s/perf-version", base, de->d_name))
			continue;
		ver = slurp(path);
		if (ver && !strncmp(ver, want_version, strlen(want_version)) &&
		    !pathf(out, size, "%s/%s/payload.cpio.zst", base, de->d_name) &&
		    !access(out, R_OK))
			found = true;
		free(ver);
	}
	closedir(d);
	if (!found && *named)
		return find_payload(row, "", want_version, out, size);
	return found;
}

/*
 * The payload unpacked once under build/emulate-ladder/NAME (a private
 * directory renamed into place, so that parallel tests share one copy).
 */
static int unpack_payload(const char *payload, struct row_perf *rp)
{
	char tmp[PATH_MAX], bindir[PATH_MAX], name[256], dest[PATH_MAX], work[PATH_MAX];
	char cmd[PATH_MAX * 4];

	if (pathf(tmp, sizeof(tmp), "%s", payload) ||
	    pathf(name, sizeof(name), "%s", basename(dirname(tmp))) ||
	    pathf(tmp, sizeof(tmp), "%s", pc_test_perfcheck()) ||
	    pathf(bindir, sizeof(bindir), "%s", dirname(tmp)) ||
	    pathf(dest, sizeof(dest), "%s/emulate-ladder/%s", bindir, name) ||
	    pathf(rp->perf, sizeof(rp->perf), "%s/perfcheck/upstream/perf", dest) ||
	    pathf(rp->ldso, sizeof(rp->ldso), "%s/lib64/ld-linux-x86-64.so.2", dest) ||
	    pathf(rp->libdir, sizeof(rp->libdir), "%s/lib/x86_64-linux-gnu", dest) ||
	    pathf(rp->from, sizeof(rp->from), "%s", payload) ||
	    pathf(work, sizeof(work), "%s/emulate-ladder/.%s.%d", bindir, name, (int)getpid()))
		return -1;
	if (!access(rp->perf, X_OK) && !access(rp->ldso, X_OK))
		return 0;
	if (pathf(cmd, sizeof(cmd),
		  "mkdir -p '%s' && cd '%s' && zstd -qdc '%s' | cpio -idm --quiet && "
		  "{ mv -T '%s' '%s' 2>/dev/null || rm -rf '%s'; }",
		  work, work, payload, work, dest, work) || system(cmd))
		return -1;
	return access(rp->perf, X_OK) || access(rp->ldso, X_OK) ? -1 : 0;
}

/* Which perf plays the row's: its payload here, else a system perf of that version. */
static const char *row_perf_find(const char *row, const char *fixture, struct row_perf *rp)
{
	static char why[900];
	char want[128], named[256], payload[PATH_MAX];
	struct up_version v;

	memset(rp, 0, sizeof(*rp));
	header_field(fixture, "# perf: ", want, sizeof(want));
	header_field(fixture, "# payload: ", named, sizeof(named));
	if (!want[0])
		return "the recording names no perf version (# perf:)";
	snprintf(rp->version, sizeof(rp->version), "%s", want);
	if (find_payload(row, named, want, payload, sizeof(payload))) {
		if (unpack_payload(payload, rp)) {
			pathf(why, sizeof(why), "cannot unpack %s (zstd, cpio)", payload);
			return why;
		}
		return NULL;
	}
	/* the system perf of the same major.minor (Debian 12's 6.1 against the 6.1 row) */
	if (pc_test_have_program("perf") && !getenv("PERFCHECK_PERF") && !up_perf_version(&v)) {
		char mm[32];

		snprintf(mm, sizeof(mm), "perf version %d.%d.", v.major, v.minor);
		if (!strncmp(want, mm, strlen(mm))) {
			snprintf(rp->perf, sizeof(rp->perf), "perf");
			snprintf(rp->version, sizeof(rp->version), "%s", v.text);
			snprintf(rp->from, sizeof(rp->from), "PATH");
			rp->system = true;
			return NULL;
		}
	}
	pathf(why, sizeof(why), "no staged perf of row %s with %s in the cache "
		 "(vm/upstream/stage %s) and no such perf in PATH", row, want, row);
	return why;
}

/* A feature the recorded attrs use that this kernel lacks: emulation only takes away. */
static const char *lacking_feature(const struct ia_opened *o)
{
	static const struct {
		const char *key, *bit;
		enum pc_feature f;
	} bits[] = {
		{ "sample_type", "DATA_PAGE_SIZE", PC_FEAT_DATA_PAGE_SIZE },
		{ "sample_type", "CODE_PAGE_SIZE", PC_FEAT_CODE_PAGE_SIZE },
		{ "sample_type", "WEIGHT_STRUCT", PC_FEAT_WEIGHT_STRUCT },
		{ "sample_type", "CGROUP", PC_FEAT_CGROUP },
		{ "read_format", "LOST", PC_FEAT_READ_LOST },
	};

	for (int e = 0; e < o->n; e++) {
		const struct ia_attr *a = &o->ev[e].attr;

		for (int f = 0; f < PC_FEAT__COUNT; f++) {
			const char *val = ia_get(a, pc_feature_name(f));

			if (strcmp(val, "0") && !up_kernel_has(f))
				return pc_feature_name(f);
		}
		if (strcmp(ia_get(a, "defer_callchain"), "0") &&
		    !up_kernel_has(PC_FEAT_DEFER_CALLCHAIN))
			return "defer_callchain";
		for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
			if (ia_has_bit(ia_get(a, bits[i].key), bits[i].bit) && !up_kernel_has(bits[i].f))
				return pc_feature_name(bits[i].f);
	}
	return NULL;
}

static void emulated_row(struct __test_metadata *_metadata, FIXTURE_DATA(ladder) *self,
			 const FIXTURE_VARIANT(ladder) *variant, const char *row,
			 const char *perf_row)
{
	static struct ia_opened real, emu;
	char rel[256], path[PATH_MAX + 256], opts[512], diffs[8192], kernel[128];
	char *prefix[6] = { NULL };
	struct row_perf rp;
	const char *top, *why;
	char *fixture, *emu_vv;
	int code, want, n;

	if (perf_row)
		snprintf(rel, sizeof(rel), "fixtures/emulate-ladder/%s/%s.perf-%s.attrs", row,
			 variant->name, perf_row);
	else
		snprintf(rel, sizeof(rel), "fixtures/emulate-ladder/%s/%s.attrs", row, variant->name);
	top = pc_test_srcdir("fixtures/emulate-ladder");
	if (!top)
		SKIP(return, "no source tree here to hold fixtures/emulate-ladder (a guest carries "
			     "binaries only)");
	snprintf(path, sizeof(path), "%s/%s", top, rel);
	fixture = slurp(path);
	ASSERT_NE(NULL, fixture)
		TH_LOG("no recording %s: run the matrix row %s and fixtures/emulate-ladder/harvest",
		       rel, row);
	ASSERT_EQ(0, ia_parse_vv(fixture, &real));
	header_field(fixture, "# kernel: ", kernel, sizeof(kernel));
	want = exit_of(fixture);
	if (want == 129) {
		char ver[128];

		header_field(fixture, "# perf: ", ver, sizeof(ver));
		free(fixture);
		SKIP(return, "%s in the %s guest does not take these options (exit 129)", ver, row);
	}
	if (!want)
		ASSERT_LT(0, real.n) TH_LOG("%s holds no opened attr", rel);
	why = lacking_feature(&real);
	if (why) {
		free(fixture);
		SKIP(return, "this kernel lacks %s, which perf opened in the %s guest: emulation "
			     "can only refuse", why, row);
	}
	why = emulate_unavailable();
	if (!why)
		why = row_perf_find(perf_row ? perf_row : row, fixture, &rp);
	if (why) {
		free(fixture);
		SKIP(return, "%s", why);
	}
	if (rp.system) {
		prefix[0] = rp.perf;
	} else {
		prefix[0] = rp.ldso;
		prefix[1] = "--library-path";
		prefix[2] = rp.libdir;
		prefix[3] = rp.perf;
	}
	opts_line(variant->opts, opts, sizeof(opts));
	emu_vv = record(self->dir, row, prefix, variant->opts, &code);
	ASSERT_NE(NULL, emu_vv);
	/* perf's verdict first: where it gave up in the guest, it gives up emulated */
	EXPECT_EQ(want, code) TH_LOG("%s under emulate %s: %.3000s", rp.version, row, emu_vv);
	ASSERT_EQ(0, ia_parse_vv(emu_vv, &emu));
	n = diff_text(&real, &emu, diffs, sizeof(diffs));
	TH_LOG("%s (%s) under emulate %s, options '%s': exit %d, %d events, %d opens (%d failed); "
	       "in the guest (%s) exit %d, %d events; %d differences\n%s", rp.version, rp.from, row,
	       opts, code, emu.n, emu.attempts, emu.failures, kernel, want, real.n, n, diffs);
	if (n)
		ksft_print_msg("emulate %s, options '%s': %d attr differences from the %s guest\n",
			       row, opts, n, row);
	EXPECT_EQ(0, n);
	free(fixture);
	free(emu_vv);
}

TEST_F_TIMEOUT(ladder, emulated_5_10_opens_what_the_5_10_guest_opened, 300)
{
	emulated_row(_metadata, self, variant, "5.10", NULL);
}

TEST_F_TIMEOUT(ladder, emulated_6_1_opens_what_the_6_1_guest_opened, 300)
{
	emulated_row(_metadata, self, variant, "6.1", NULL);
}

TEST_F_TIMEOUT(ladder, emulated_6_12_opens_what_the_6_12_guest_opened, 300)
{
	emulated_row(_metadata, self, variant, "6.12", NULL);
}

TEST_F_TIMEOUT(ladder, emulated_7_2_opens_what_the_7_2_guest_opened, 300)
{
	emulated_row(_metadata, self, variant, "7.2", NULL);
}

/* Debian's perf 7.2 on the older kernels: its ladder refuses and retries there */
TEST_F_TIMEOUT(ladder, emulated_5_10_opens_what_perf_7_2_opened_in_the_5_10_guest, 300)
{
	emulated_row(_metadata, self, variant, "5.10", "7.2");
}

TEST_F_TIMEOUT(ladder, emulated_6_1_opens_what_perf_7_2_opened_in_the_6_1_guest, 300)
{
	emulated_row(_metadata, self, variant, "6.1", "7.2");
}

TEST_F_TIMEOUT(ladder, emulated_6_12_opens_what_perf_7_2_opened_in_the_6_12_guest, 300)
{
	emulated_row(_metadata, self, variant, "6.12", "7.2");
}

TEST_HARNESS_MAIN
