/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Upstream perf's fallback ladder under `perfcheck emulate`: for option
 * sets whose features differ between the matrix's kernels, the
 * perf_event_attr perf finally opens (after its own ladder, read from
 * `perf record -vv`) under an emulated kernel equals what the same perf
 * opened on that real kernel.
 *
 * Where it runs (a matrix guest, or this host), interop_emulate_ladder and
 * interop_emulate_ladder_sideband record what the running kernel's ladder
 * gives, with the row's own perf and with a perf 7.2 staged beside
 * perfcheck in cross/7.2, and keep it as artifacts (attrs.txt,
 * attrs-perf-7.2.txt; fixtures/emulate-ladder/record boots the rows and
 * harvests them into fixtures/emulate-ladder/ROW/), and check that
 * emulating the running kernel changes nothing.  On a host with the
 * fixtures, interop_emulate_ladder_rows_ROW and _rows_perf72_ROW run the same perf
 * (its staged payload from vm/upstream/stage, through the payload's ld.so
 * and libraries) under `perfcheck emulate ROW`: it must exit as it did in
 * the guest and open the recorded attrs.
 *
 * The fixture, the option sets (variants, in two groups) and the two test
 * bodies; the helpers are in emulate_ladder.c.
 */
#ifndef PERFCHECK_SELFTESTS_EMULATE_LADDER_H
#define PERFCHECK_SELFTESTS_EMULATE_LADDER_H

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "interop_attr.h"
#include "interop_tools.h"

/* The staged perf of a row: its ld.so, library directory and binary. */
struct row_perf {
	char ldso[PATH_MAX], libdir[PATH_MAX], perf[PATH_MAX];
	char version[128];	/* "perf version 5.10.223" */
	char from[PATH_MAX];	/* the payload (or "PATH") it came from */
	bool system;		/* the system perf, not a payload */
};

/* snprintf through a va_list: -1 when the text does not fit */
int el_pathf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/*
 * PREFIX... record -vv OPTS -o DIR/perf.data -- pcwork spin 100, under
 * `perfcheck emulate KERNEL` unless kernel is NULL; the -vv text and exit code.
 */
char *el_record(const char *dir, const char *kernel, char *const *prefix,
		const char *const *opts, int *code);
void el_opts_line(const char *const *opts, char *buf, size_t size);
/* perf's exit for an option it does not know (129, usage) */
bool el_unknown_option(int code, const char *text);
/* The opened attrs, as -vv prints them, after a header: what ia_parse_vv reads back. */
char *el_attrs_text(const char *header, int code, const struct ia_opened *o);
/* The "exit N" line of such a text; -1 when there is none. */
int el_exit_of(const char *text);
void el_header_field(const char *text, const char *key, char *out, size_t size);
/* The differences of two sets of opened attrs as lines; their number. */
int el_diff_text(const struct ia_opened *real, const struct ia_opened *emu, char *buf,
		 size_t size);
/* The kernel model of the running kernel (MAJOR.MINOR), NULL when none. */
const char *el_running_model(char *release, size_t size);
/* Why `perfcheck emulate` cannot run here, or NULL. */
const char *el_emulate_unavailable(void);
/* A perf staged beside perfcheck in cross/TAG: the command prefix running it. */
bool el_cross_perf(const char *tag, char **prefix, char bufs[3][PATH_MAX], char *payload,
		   size_t psize);
/* PREFIX --version's first line. */
void el_prefix_version(char *const *prefix, char *out, size_t size);
bool el_find_payload(const char *row, const char *named, const char *want_version,
		     char *out, size_t size);
int el_unpack_payload(const char *payload, struct row_perf *rp);
/* Which perf plays the row's (payload, else system perf); NULL, or why none. */
const char *el_row_perf_find(const char *row, const char *fixture, struct row_perf *rp);
/* A feature the recorded attrs use that this kernel lacks, or NULL. */
const char *el_lacking_feature(const struct ia_opened *o);

#ifdef __KSELFTEST_HARNESS_H

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

/* sampling and callchains */
#define EL_VARIANTS_SAMPLING \
	FIXTURE_VARIANT_ADD(ladder, default_event){ "default-event", { "-c", "500000" } }; \
	FIXTURE_VARIANT_ADD(ladder, plain){ "plain", { CLK } }; \
	FIXTURE_VARIANT_ADD(ladder, callchain_fp){ "callchain-fp", { CLK, "-g" } }; \
	FIXTURE_VARIANT_ADD(ladder, callchain_dwarf){ "callchain-dwarf", { CLK, "--call-graph", "dwarf,4096" } }; \
	FIXTURE_VARIANT_ADD(ladder, data_addr){ "data-addr", { CLK, "-d" } }; \
	FIXTURE_VARIANT_ADD(ladder, sample_cpu){ "sample-cpu", { CLK, "--sample-cpu" } }; \
	FIXTURE_VARIANT_ADD(ladder, timestamp){ "timestamp", { CLK, "-T" } }; \
	FIXTURE_VARIANT_ADD(ladder, inherit_stat){ "inherit-stat", { CLK, "-s" } }; \
	FIXTURE_VARIANT_ADD(ladder, sample_read){ "sample-read", { "-c", "500000", "-e", "{cpu-clock,task-clock}:S" } }; \
	FIXTURE_VARIANT_ADD(ladder, defer){ "defer", { CLK, "--call-graph", "fp,defer" }, true };

/* side-band records and the features newer than 5.10 */
#define EL_VARIANTS_SIDEBAND \
	FIXTURE_VARIANT_ADD(ladder, namespaces){ "namespaces", { CLK, "--namespaces" } }; \
	FIXTURE_VARIANT_ADD(ladder, all_cgroups){ "all-cgroups", { CLK, "--all-cgroups" } }; \
	FIXTURE_VARIANT_ADD(ladder, clock_mono){ "clock-mono", { CLK, "-k", "mono" } }; \
	FIXTURE_VARIANT_ADD(ladder, switch_events){ "switch-events", { CLK, "--switch-events" } }; \
	FIXTURE_VARIANT_ADD(ladder, overwrite){ "overwrite", { CLK, "--overwrite" } }; \
	FIXTURE_VARIANT_ADD(ladder, buildid_mmap){ "buildid-mmap", { CLK, "--buildid-mmap" } }; \
	FIXTURE_VARIANT_ADD(ladder, page_size){ "page-size", { CLK, "--data-page-size", "--code-page-size" } }; \
	FIXTURE_VARIANT_ADD(ladder, sideband_all){ "sideband-all", { CLK, "--namespaces", "--all-cgroups", "-k", "mono", "--switch-events", "--sample-cpu", "-d" } }; \
	FIXTURE_VARIANT_ADD(ladder, newer_features){ "newer-features", { CLK, "--buildid-mmap", "--data-page-size", "--code-page-size", "-k", "mono" } };

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

/*
 * Records the running kernel's ladder result with the perf of prefix (kept
 * as FILE: the fixtures are made of the guests' copies), then the same
 * under the model of this kernel: a model stricter than the kernel opens less.
 */
static inline void running_kernel(struct __test_metadata *_metadata, FIXTURE_DATA(ladder) *self,
			   const FIXTURE_VARIANT(ladder) *variant, char *const *prefix,
			   const char *file, const char *payload)
{
	static struct ia_opened real, emu;
	char release[128], header[1024], opts[512], diffs[8192], version[128];
	const char *model = el_running_model(release, sizeof(release)), *why;
	char *real_vv, *emu_vv, *kept;
	int code, ecode, n;

	el_prefix_version(prefix, version, sizeof(version));
	ASSERT_NE('\0', version[0]) TH_LOG("%s --version printed nothing", prefix[0]);
	el_opts_line(variant->opts, opts, sizeof(opts));
	real_vv = el_record(self->dir, NULL, prefix, variant->opts, &code);
	ASSERT_NE(NULL, real_vv);
	ASSERT_EQ(0, ia_parse_vv(real_vv, &real));
	snprintf(header, sizeof(header), "# perf: %s\n# kernel: %s\n# options: %s\n%s%s%s",
		 version, release, opts, payload ? "# payload: " : "", payload ? payload : "",
		 payload ? "\n" : "");
	kept = el_attrs_text(header, code, &real);
	ASSERT_NE(NULL, kept);
	up_keep(variant->name, file, kept, NULL);
	free(kept);
	if (el_unknown_option(code, real_vv)) {
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
	why = el_emulate_unavailable();
	if (why) {
		free(real_vv);
		SKIP(return, "%s", why);
	}
	emu_vv = el_record(self->dir, model, prefix, variant->opts, &ecode);
	ASSERT_NE(NULL, emu_vv);
	/* a perf that refuses the options on this kernel must refuse them emulated too */
	EXPECT_EQ(code, ecode) TH_LOG("real: %.2000s\nunder emulate %s: %.2000s", real_vv, model,
				      emu_vv);
	ASSERT_EQ(0, ia_parse_vv(emu_vv, &emu));
	n = el_diff_text(&real, &emu, diffs, sizeof(diffs));
	TH_LOG("%s, kernel %s, emulated %s, options '%s': exit %d; %d events, %d opens (%d failed) "
	       "real, %d (%d failed) emulated; %d differences\n%s", version, release, model, opts,
	       code, real.n, real.attempts, real.failures, emu.attempts, emu.failures, n, diffs);
	EXPECT_EQ(0, n);
	free(real_vv);
	free(emu_vv);
}

static inline void emulated_row(struct __test_metadata *_metadata, FIXTURE_DATA(ladder) *self,
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
	fixture = pc_test_slurp(path, NULL);
	ASSERT_NE(NULL, fixture)
		TH_LOG("no recording %s: run the matrix row %s and fixtures/emulate-ladder/harvest",
		       rel, row);
	ASSERT_EQ(0, ia_parse_vv(fixture, &real));
	el_header_field(fixture, "# kernel: ", kernel, sizeof(kernel));
	want = el_exit_of(fixture);
	if (want == 129) {
		char ver[128];

		el_header_field(fixture, "# perf: ", ver, sizeof(ver));
		free(fixture);
		SKIP(return, "%s in the %s guest does not take these options (exit 129)", ver, row);
	}
	if (!want)
		ASSERT_LT(0, real.n) TH_LOG("%s holds no opened attr", rel);
	why = el_lacking_feature(&real);
	if (why) {
		free(fixture);
		SKIP(return, "this kernel lacks %s, which perf opened in the %s guest: emulation "
			     "can only refuse", why, row);
	}
	why = el_emulate_unavailable();
	if (!why)
		why = el_row_perf_find(perf_row ? perf_row : row, fixture, &rp);
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
	el_opts_line(variant->opts, opts, sizeof(opts));
	emu_vv = el_record(self->dir, row, prefix, variant->opts, &code);
	ASSERT_NE(NULL, emu_vv);
	/* perf's verdict first: where it gave up in the guest, it gives up emulated */
	EXPECT_EQ(want, code) TH_LOG("%s under emulate %s: %.3000s", rp.version, row, emu_vv);
	ASSERT_EQ(0, ia_parse_vv(emu_vv, &emu));
	n = el_diff_text(&real, &emu, diffs, sizeof(diffs));
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

/*
 * The cases of one row, one file per row (interop_emulate_ladder_rows_ROW,
 * _rows_perf72_ROW): every case runs perf record once, and perf's side-band
 * thread ends only at its 1 s poll timeout, so a case takes a second of wall
 * time whatever the machine's speed.  19 cases (about 25 s on this host when
 * quiet) fit in the matrix's per-test time, 60 s at the reference speed with
 * two tests side by side; the 76 of all four rows in one file did not.
 */
#define EL_ROW_TESTS(ID, ROW) \
	TEST_F_TIMEOUT(ladder, emulated_##ID##_opens_what_the_##ID##_guest_opened, 300) \
	{ \
		emulated_row(_metadata, self, variant, ROW, NULL); \
	}
#define EL_ROW_PERF72_TESTS(ID, ROW) \
	TEST_F_TIMEOUT(ladder, emulated_##ID##_opens_what_perf_7_2_opened_in_the_##ID##_guest, 300) \
	{ \
		emulated_row(_metadata, self, variant, ROW, "7.2"); \
	}

#endif /* __KSELFTEST_HARNESS_H */

#endif
