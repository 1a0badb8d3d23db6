// SPDX-License-Identifier: GPL-2.0
/* The helpers declared in emulate_ladder.h, compiled once for every test. */
#include <dirent.h>
#include <stdarg.h>
#include <sys/utsname.h>

#include "emulate_ladder.h"
#include "probes/kmodel.h"

/* snprintf through a va_list: a path too long for its buffer is an error, not a warning */
int el_pathf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}

/*
 * PREFIX... record -vv OPTS -o DIR/perf.data -- pcwork spin 100, optionally
 * under `perfcheck emulate KERNEL`; the -vv text (stderr) and the exit code.
 */
char *el_record(const char *dir, const char *kernel, char *const *prefix,
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
void el_opts_line(const char *const *opts, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = '\0';
	for (; *opts && len + 1 < size; opts++)
		len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? " " : "", *opts);
}

/* perf's exit for an option it does not know: usage (129), "unknown option" */
bool el_unknown_option(int code, const char *text)
{
	return code == 129 && text && (strstr(text, "nknown option") || strstr(text, "Usage"));
}

/*
 * The opened attrs in a form ia_parse_vv reads back: each event's attr as
 * -vv prints it, followed by a successful open line.
 */
char *el_attrs_text(const char *header, int code, const struct ia_opened *o)
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

int el_exit_of(const char *text)
{
	const char *p = strstr(text, "\nexit ");

	return p ? atoi(p + 6) : -1;
}

void el_header_field(const char *text, const char *key, char *out, size_t size)
{
	const char *p = strstr(text, key);

	out[0] = '\0';
	if (p) {
		p += strlen(key);
		snprintf(out, size, "%.*s", (int)strcspn(p, "\n"), p);
	}
}

/* The differences as lines, "" when none. */
int el_diff_text(const struct ia_opened *real, const struct ia_opened *emu, char *buf,
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
const char *el_running_model(char *release, size_t size)
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
const char *el_emulate_unavailable(void)
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

/* A perf staged beside perfcheck under cross/TAG (a newer perf for an older guest). */
bool el_cross_perf(const char *tag, char **prefix, char bufs[3][PATH_MAX], char *payload,
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
void el_prefix_version(char *const *prefix, char *out, size_t size)
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
 * The payload directory of ROW in the cache whose perf has the version
 * wanted: the one named (PAYLOAD) first, else any ROW-KEY with that perf.
 */
bool el_find_payload(const char *row, const char *named, const char *want_version,
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
		if (el_pathf(path, sizeof(path), "%s/%s/perf-version", base, de->d_name))
			continue;
		ver = pc_test_slurp(path, NULL);
		if (ver && !strncmp(ver, want_version, strlen(want_version)) &&
		    !el_pathf(out, size, "%s/%s/payload.cpio.zst", base, de->d_name) &&
		    !access(out, R_OK))
			found = true;
		free(ver);
	}
	closedir(d);
	if (!found && *named)
		return el_find_payload(row, "", want_version, out, size);
	return found;
}

/*
 * The payload unpacked once under build/emulate-ladder/NAME (a private
 * directory renamed into place, so that parallel tests share one copy).
 */
int el_unpack_payload(const char *payload, struct row_perf *rp)
{
	char tmp[PATH_MAX], bindir[PATH_MAX], name[256], dest[PATH_MAX], work[PATH_MAX];
	char cmd[PATH_MAX * 4];

	if (el_pathf(tmp, sizeof(tmp), "%s", payload) ||
	    el_pathf(name, sizeof(name), "%s", basename(dirname(tmp))) ||
	    el_pathf(tmp, sizeof(tmp), "%s", pc_test_perfcheck()) ||
	    el_pathf(bindir, sizeof(bindir), "%s", dirname(tmp)) ||
	    el_pathf(dest, sizeof(dest), "%s/emulate-ladder/%s", bindir, name) ||
	    el_pathf(rp->perf, sizeof(rp->perf), "%s/perfcheck/upstream/perf", dest) ||
	    el_pathf(rp->ldso, sizeof(rp->ldso), "%s/lib64/ld-linux-x86-64.so.2", dest) ||
	    el_pathf(rp->libdir, sizeof(rp->libdir), "%s/lib/x86_64-linux-gnu", dest) ||
	    el_pathf(rp->from, sizeof(rp->from), "%s", payload) ||
	    el_pathf(work, sizeof(work), "%s/emulate-ladder/.%s.%d", bindir, name, (int)getpid()))
		return -1;
	if (!access(rp->perf, X_OK) && !access(rp->ldso, X_OK))
		return 0;
	if (el_pathf(cmd, sizeof(cmd),
		  "mkdir -p '%s' && cd '%s' && zstd -qdc '%s' | cpio -idm --quiet && "
		  "{ mv -T '%s' '%s' 2>/dev/null || rm -rf '%s'; }",
		  work, work, payload, work, dest, work) || system(cmd))
		return -1;
	return access(rp->perf, X_OK) || access(rp->ldso, X_OK) ? -1 : 0;
}

/* Which perf plays the row's: its payload here, else a system perf of that version. */
const char *el_row_perf_find(const char *row, const char *fixture, struct row_perf *rp)
{
	static char why[900];
	char want[128], named[256], payload[PATH_MAX];
	struct up_version v;

	memset(rp, 0, sizeof(*rp));
	el_header_field(fixture, "# perf: ", want, sizeof(want));
	el_header_field(fixture, "# payload: ", named, sizeof(named));
	if (!want[0])
		return "the recording names no perf version (# perf:)";
	snprintf(rp->version, sizeof(rp->version), "%s", want);
	if (el_find_payload(row, named, want, payload, sizeof(payload))) {
		if (el_unpack_payload(payload, rp)) {
			el_pathf(why, sizeof(why), "cannot unpack %s (zstd, cpio)", payload);
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
	el_pathf(why, sizeof(why), "no staged perf of row %s with %s in the cache "
		 "(vm/upstream/stage %s) and no such perf in PATH", row, want, row);
	return why;
}

/* A feature the recorded attrs use that this kernel lacks: emulation only takes away. */
const char *el_lacking_feature(const struct ia_opened *o)
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
