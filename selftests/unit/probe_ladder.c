// SPDX-License-Identifier: GPL-2.0
/*
 * The retry ladder of pc_event_open() against simulated kernels: the matrix
 * kernels (5.10, 6.1, 6.12, 6.18, 7.2) and adversarial ones.  The simulated
 * kernel decides from raw attr bits with its own map of features, so these
 * tests catch a wrong row in the probe table as well as a wrong ladder.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "lib/testutil.h"
#include "probe_capture.h"
#include "probes/probe.h"
#include "lib/simkernel.h"
#include "util/log.h"

#define FEAT(f) (1ULL << PC_FEAT_##f)

/* Everything a recorder could ask for that may be switched off silently
 * and needs no PMU. */
static const uint64_t recorder_features =
	FEAT(SAMPLE_ID_ALL) | FEAT(EXCLUDE_GUEST) | FEAT(MMAP2) | FEAT(COMM_EXEC) |
	FEAT(FD_CLOEXEC) | FEAT(USE_CLOCKID) | FEAT(CONTEXT_SWITCH) | FEAT(NAMESPACES) |
	FEAT(KSYMBOL) | FEAT(BPF_EVENT) | FEAT(TEXT_POKE) | FEAT(WEIGHT_STRUCT) |
	FEAT(BUILD_ID) | FEAT(INHERIT_THREAD) | FEAT(REMOVE_ON_EXEC) | FEAT(SIGTRAP) |
	FEAT(READ_LOST) | FEAT(INHERIT_SAMPLE_READ) | FEAT(DEFER_CALLCHAIN);

static void recorder_attr(union pc_attr *a, unsigned long *flags)
{
	pc_feature_baseline_attr(a);
	a->attr.size = PC_ATTR_SIZE_MAX;	/* zero tail: every kernel takes it */
	a->attr.sample_type |= PERF_SAMPLE_TIME | PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_READ |
			       PERF_SAMPLE_PERIOD | PERF_SAMPLE_WEIGHT_STRUCT;
	a->attr.read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
	a->attr.inherit = 1;
	a->attr.mmap = 1;
	a->attr.comm = 1;
	a->attr.sample_id_all = 1;
	a->attr.exclude_guest = 1;
	a->attr.mmap2 = 1;
	a->attr.comm_exec = 1;
	a->attr.use_clockid = 1;
	a->attr.clockid = CLOCK_MONOTONIC;
	a->attr.context_switch = 1;
	a->attr.namespaces = 1;
	a->attr.ksymbol = 1;
	a->attr.bpf_event = 1;
	a->attr.text_poke = 1;
	a->attr.sample_max_stack = 64;		/* below every profile's limit */
	pc_attr_set(&a->attr, PC_ATTR_build_id, true);
	pc_attr_set(&a->attr, PC_ATTR_inherit_thread, true);
	pc_attr_set(&a->attr, PC_ATTR_remove_on_exec, true);
	pc_attr_set(&a->attr, PC_ATTR_sigtrap, true);
	pc_attr_set(&a->attr, PC_ATTR_defer_callchain, true);
	pc_attr_set(&a->attr, PC_ATTR_defer_output, true);
	*flags = PERF_FLAG_FD_CLOEXEC;
}

/* What the ladder must switch off on a kernel with these features. */
static uint64_t expected_cleared(uint64_t kernel_features)
{
	uint64_t e = recorder_features & ~kernel_features;

	/* inherit goes with inherit_sample_read, and inherit_thread needs inherit */
	if (e & FEAT(INHERIT_SAMPLE_READ))
		e |= FEAT(INHERIT_THREAD);
	if (e & FEAT(REMOVE_ON_EXEC))
		e |= FEAT(SIGTRAP);
	if (e & FEAT(MMAP2))
		e |= FEAT(BUILD_ID);
	return e;
}

FIXTURE(kernel) {
	const struct pc_sim_profile *p;
};

FIXTURE_VARIANT(kernel) {
	const char *profile;
};

FIXTURE_VARIANT_ADD(kernel, linux_5_10) { .profile = "5.10" };
FIXTURE_VARIANT_ADD(kernel, linux_6_1) { .profile = "6.1" };
FIXTURE_VARIANT_ADD(kernel, linux_6_12) { .profile = "6.12" };
FIXTURE_VARIANT_ADD(kernel, linux_6_18) { .profile = "6.18" };
FIXTURE_VARIANT_ADD(kernel, linux_7_2) { .profile = "7.2" };
FIXTURE_VARIANT_ADD(kernel, eopnotsupp_for_unknown_bits) { .profile = "eopnotsupp" };

FIXTURE_SETUP(kernel)
{
	self->p = pc_sim_profile_find(variant->profile);
	ASSERT_NE(NULL, self->p);
	pc_sim_install(self->p);
	pc_verbose = 1;
}

FIXTURE_TEARDOWN(kernel)
{
	pc_sim_uninstall();
}

TEST_F(kernel, ladder_clears_exactly_the_missing_features_and_opens)
{
	uint64_t expect = expected_cleared(self->p->features);
	struct pc_open_info info;
	struct pc_error err;
	struct capture cap;
	unsigned long flags;
	union pc_attr a;
	char *said;
	int fd;

	recorder_attr(&a, &flags);
	ASSERT_EQ(0, capture_start(&cap));
	fd = pc_event_open(&a, "cpu-clock", 0, -1, -1, flags, &info, &err);
	said = capture_end(&cap);
	ASSERT_LE(0, fd) TH_LOG("%s", err.msg);
	EXPECT_EQ(expect, info.cleared) TH_LOG("cleared %#llx, expected %#llx",
		(unsigned long long)info.cleared, (unsigned long long)expect);
	for (int f = 0; f < PC_FEAT__COUNT; f++) {
		const char *name = pc_feature_name(f);

		if (!((recorder_features >> f) & 1))
			continue;
		if ((expect >> f) & 1) {
			EXPECT_FALSE(pc_feature_requested(f, &a, (f == PC_FEAT_FD_CLOEXEC) ? 0 : flags))
				TH_LOG("%s still requested", name);
			EXPECT_TRUE(says_switching_off(said, name)) TH_LOG("no message for %s:\n%s",
									  name, said);
		} else {
			EXPECT_TRUE(pc_feature_requested(f, &a, flags)) TH_LOG("%s was dropped", name);
			EXPECT_FALSE(says_switching_off(said, name)) TH_LOG("%s said cleared", name);
		}
	}
	EXPECT_EQ(__builtin_popcountll(expect), pc_count_substr(said, "switching off "));
	EXPECT_EQ(PC_ATTR_SIZE_MAX, info.attr_size);
	EXPECT_FALSE(info.fell_back_to_cpu_clock);
	/* close-on-exec holds even when the open flag had to go */
	EXPECT_EQ(FD_CLOEXEC, fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
	free(said);
}

TEST_F(kernel, probe_verdicts_match_the_kernels_feature_set)
{
	for (int f = 0; f < PC_FEAT__COUNT; f++) {
		bool has = (self->p->features >> f) & 1;
		enum pc_feature_status want = has ? PC_FEATURE_SUPPORTED : PC_FEATURE_MISSING;
		int e = -1;
		enum pc_feature_status got = pc_feature_probe(f, &e);

		/* without a PMU a known PMU feature decides nothing ... */
		if (has && (f == PC_FEAT_LBR_FLAGS || f == PC_FEAT_BRANCH_COUNTERS ||
			    f == PC_FEAT_AUX_OUTPUT))
			want = PC_FEATURE_UNKNOWN;
		/* ... and neither does an unknown aux_output bit answered like a known one */
		if (!has && f == PC_FEAT_AUX_OUTPUT && self->p->refuse_errno == EOPNOTSUPP)
			want = PC_FEATURE_UNKNOWN;
		EXPECT_EQ(want, got) TH_LOG("%s: %s, expected %s (errno %d)", pc_feature_name(f),
			pc_feature_status_name(got), pc_feature_status_name(want), e);
		if (got == PC_FEATURE_SUPPORTED) {
			EXPECT_EQ(0, e);
		} else {
			EXPECT_NE(0, e) TH_LOG("%s: no errno kept", pc_feature_name(f));
		}
	}
}

TEST_F(kernel, features_not_dropped_silently_fail_the_open_naming_them)
{
	static const enum pc_feature guarded[] = {
		PC_FEAT_CGROUP, PC_FEAT_AUX_OUTPUT, PC_FEAT_WRITE_BACKWARD,
		PC_FEAT_DATA_PAGE_SIZE, PC_FEAT_CODE_PAGE_SIZE,
	};

	for (size_t i = 0; i < sizeof(guarded) / sizeof(guarded[0]); i++) {
		enum pc_feature f = guarded[i];
		struct pc_sim_profile lacking = *self->p;
		struct pc_open_info info;
		struct pc_error err;
		unsigned long flags;
		union pc_attr a, asked;
		int fd;

		/* aux_output refused with EOPNOTSUPP cannot be told from "no AUX PMU" */
		if (f == PC_FEAT_AUX_OUTPUT && self->p->refuse_errno == EOPNOTSUPP)
			continue;
		EXPECT_FALSE(pc_feature_info(f)->clear_silently);
		lacking.features &= ~(1ULL << f);
		pc_sim_install(&lacking);
		pc_feature_probe_attr(f, &a, &flags);
		asked = a;
		fd = pc_event_open(&a, "cpu-clock", 0, -1, -1, flags, &info, &err);
		EXPECT_GT(0, fd);
		EXPECT_NE(NULL, strstr(err.msg, pc_feature_name(f))) TH_LOG("%s", err.msg);
		EXPECT_NE(NULL, strstr(err.msg, "cpu-clock")) TH_LOG("%s", err.msg);
		EXPECT_EQ(0, info.cleared);
		EXPECT_EQ(0, memcmp(&asked, &a, sizeof(a))) TH_LOG("%s: attr changed",
								  pc_feature_name(f));
		if (fd >= 0)
			close(fd);
	}
}

TEST_F(kernel, callchain_deeper_than_the_limit_is_lowered_to_it)
{
	struct pc_open_info info;
	struct pc_error err;
	union pc_attr a;
	int fd;

	pc_feature_baseline_attr(&a);
	a.attr.sample_type |= PERF_SAMPLE_CALLCHAIN;
	a.attr.sample_max_stack = 500;
	fd = pc_event_open(&a, "cpu-clock", 0, -1, -1, 0, &info, &err);
	ASSERT_LE(0, fd) TH_LOG("%s", err.msg);
	EXPECT_EQ(self->p->max_stack, a.attr.sample_max_stack);
	EXPECT_EQ(FEAT(MAX_STACK), info.cleared);
	close(fd);
}

TEST_F(kernel, cycles_without_pmu_falls_back_to_cpu_clock_with_a_warning)
{
	struct pc_open_info info;
	struct pc_error err;
	struct capture cap;
	union pc_attr a;
	char *said;
	int fd;

	pc_feature_baseline_attr(&a);
	a.attr.type = PERF_TYPE_HARDWARE;
	a.attr.config = PERF_COUNT_HW_CPU_CYCLES;
	a.attr.precise_ip = 2;
	ASSERT_EQ(0, capture_start(&cap));
	fd = pc_event_open(&a, "cycles", 0, -1, -1, 0, &info, &err);
	said = capture_end(&cap);
	ASSERT_LE(0, fd) TH_LOG("%s", err.msg);
	EXPECT_TRUE(info.fell_back_to_cpu_clock);
	EXPECT_EQ(PERF_TYPE_SOFTWARE, a.attr.type);
	EXPECT_EQ(PERF_COUNT_SW_CPU_CLOCK, a.attr.config);
	EXPECT_NE(NULL, strstr(said, "falling back to cpu-clock")) TH_LOG("%s", said);
	close(fd);
	free(said);
}

TEST_F(kernel, probes_are_cached_until_reset)
{
	unsigned int opens;
	int e;

	for (int f = 0; f < PC_FEAT__COUNT; f++)
		pc_feature_probe(f, &e);
	opens = pc_sim_open_count();
	EXPECT_LT(0U, opens);
	for (int f = 0; f < PC_FEAT__COUNT; f++)
		pc_feature_probe(f, &e);
	EXPECT_EQ(opens, pc_sim_open_count());
	pc_probe_reset();
	pc_feature_probe(PC_FEAT_SIGTRAP, &e);
	EXPECT_LT(opens, pc_sim_open_count());
}

/* ---- adversarial kernels ---- */

static void install(struct __test_metadata *_metadata, const char *name)
{
	const struct pc_sim_profile *p = pc_sim_profile_find(name);

	ASSERT_NE(NULL, p);
	pc_sim_install(p);
	pc_verbose = 1;
}

TEST(verdicts_are_not_inferred_from_newer_features)
{
	struct pc_sim_profile odd = *pc_sim_profile_find("7.2");
	int e;

	/* a kernel with everything new but one old feature (a backport gone wrong) */
	odd.features &= ~FEAT(COMM_EXEC);
	pc_sim_install(&odd);
	for (int f = 0; f < PC_FEAT__COUNT; f++) {
		enum pc_feature_status st = pc_feature_probe(f, &e);

		if (f == PC_FEAT_COMM_EXEC) {
			EXPECT_EQ(PC_FEATURE_MISSING, st);
		} else {
			EXPECT_NE(PC_FEATURE_MISSING, st) TH_LOG("%s", pc_feature_name(f));
		}
	}
	pc_sim_uninstall();
}

TEST(missing_cloexec_flag_is_replaced_by_fcntl)
{
	struct pc_sim_profile old = *pc_sim_profile_find("6.18");
	struct pc_open_info info;
	struct pc_error err;
	union pc_attr a;
	int fd;

	old.features &= ~FEAT(FD_CLOEXEC);	/* a pre-3.14 kernel's answer */
	pc_sim_install(&old);
	pc_verbose = 0;
	pc_feature_baseline_attr(&a);
	fd = pc_event_open(&a, "cpu-clock", 0, -1, -1, PERF_FLAG_FD_CLOEXEC, &info, &err);
	ASSERT_LE(0, fd) TH_LOG("%s", err.msg);
	EXPECT_EQ(FEAT(FD_CLOEXEC), info.cleared);
	EXPECT_EQ(FD_CLOEXEC, fcntl(fd, F_GETFD) & FD_CLOEXEC);
	close(fd);
	pc_sim_uninstall();
}

TEST(e2big_retries_at_the_kernels_attr_size_dropping_what_lies_beyond)
{
	struct pc_open_info info;
	struct pc_error err;
	struct capture cap;
	union pc_attr a;
	char *said;
	int fd;

	install(_metadata, "e2big");
	pc_feature_probe_attr(PC_FEAT_SIGTRAP, &a, &(unsigned long){ 0 });
	a.attr.size = PC_ATTR_SIZE_MAX;
	a.attr.sig_data = 42;			/* offset 120: past a 120-byte attr */
	ASSERT_EQ(0, capture_start(&cap));
	fd = pc_event_open(&a, "cpu-clock", 0, -1, -1, 0, &info, &err);
	said = capture_end(&cap);
	ASSERT_LE(0, fd) TH_LOG("%s", err.msg);
	EXPECT_EQ(120, info.attr_size);
	EXPECT_EQ(120, a.attr.size);
	EXPECT_EQ(FEAT(SIGTRAP), info.cleared);
	EXPECT_EQ(0, a.attr.sig_data);
	EXPECT_TRUE(pc_attr_test(&a.attr, PC_ATTR_remove_on_exec));
	EXPECT_TRUE(says_switching_off(said, "sigtrap")) TH_LOG("%s", said);
	close(fd);
	free(said);
	pc_sim_uninstall();
}

TEST(e2big_with_a_field_that_cannot_be_dropped_fails_naming_it)
{
	struct pc_error err;
	union pc_attr a;
	int fd;

	install(_metadata, "e2big");
	pc_feature_baseline_attr(&a);
	a.attr.size = PC_ATTR_SIZE_MAX;
	a.words[PC_ATTR_OFF_config3 / 8] = 1;
	fd = pc_event_open(&a, "cpu-clock", 0, -1, -1, 0, NULL, &err);
	EXPECT_EQ(-E2BIG, fd);
	EXPECT_NE(NULL, strstr(err.msg, "config3")) TH_LOG("%s", err.msg);
	EXPECT_NE(NULL, strstr(err.msg, "120")) TH_LOG("%s", err.msg);
	EXPECT_EQ(PC_ATTR_SIZE_MAX, a.attr.size);
	pc_sim_uninstall();
}

TEST(transient_ebusy_is_retried)
{
	struct pc_error err;
	union pc_attr a;
	int fd;

	install(_metadata, "ebusy");
	pc_feature_baseline_attr(&a);
	fd = pc_event_open(&a, "cpu-clock", 0, -1, -1, 0, NULL, &err);
	ASSERT_LE(0, fd) TH_LOG("%s", err.msg);
	close(fd);
	pc_sim_uninstall();
}

TEST(lasting_ebusy_gives_up_with_a_message)
{
	struct pc_sim_profile busy = *pc_sim_profile_find("ebusy");
	struct pc_error err;
	union pc_attr a;
	int fd;

	busy.busy_times = 1000;
	pc_sim_install(&busy);
	pc_feature_baseline_attr(&a);
	fd = pc_event_open(&a, "cpu-clock", 0, -1, -1, 0, NULL, &err);
	EXPECT_EQ(-EBUSY, fd);
	EXPECT_NE(NULL, strstr(err.msg, "busy")) TH_LOG("%s", err.msg);
	EXPECT_GT(20U, pc_sim_open_count());	/* bounded */
	pc_sim_uninstall();
}

TEST(eintr_is_retried)
{
	struct pc_error err;
	union pc_attr a;
	int fd;

	install(_metadata, "eintr");
	pc_feature_baseline_attr(&a);
	fd = pc_event_open(&a, "cpu-clock", 0, -1, -1, 0, NULL, &err);
	ASSERT_LE(0, fd) TH_LOG("%s", err.msg);
	close(fd);
	pc_sim_uninstall();
}

TEST(kernel_rejecting_everything_fails_naming_event_and_attr)
{
	struct pc_open_info info;
	struct pc_error err;
	struct capture cap;
	union pc_attr a;
	char *said;
	int fd;

	install(_metadata, "reject-all");
	pc_verbose = 2;
	pc_feature_baseline_attr(&a);
	a.attr.sample_type |= PERF_SAMPLE_CALLCHAIN;
	a.attr.mmap2 = 1;
	ASSERT_EQ(0, capture_start(&cap));
	fd = pc_event_open(&a, "task-clock", 0, -1, -1, 0, &info, &err);
	said = capture_end(&cap);
	EXPECT_EQ(-EINVAL, fd);
	EXPECT_EQ(0, info.cleared);
	EXPECT_NE(NULL, strstr(err.msg, "task-clock")) TH_LOG("%s", err.msg);
	EXPECT_NE(NULL, strstr(err.msg, "EINVAL")) TH_LOG("%s", err.msg);
	EXPECT_NE(NULL, strstr(err.msg, "sample_type: IP|TID|CALLCHAIN")) TH_LOG("%s", err.msg);
	/* nothing was probed true, so mmap2 is named as undecided, not dropped */
	EXPECT_NE(NULL, strstr(err.msg, "mmap2 (EINVAL)")) TH_LOG("%s", err.msg);
	/* -vv: the refused attr in perf's layout */
	EXPECT_NE(NULL, strstr(said, "perf_event_attr:\n")) TH_LOG("%s", said);
	EXPECT_NE(NULL, strstr(said, "  sample_type                      IP|TID|CALLCHAIN\n"));
	EXPECT_NE(NULL, strstr(said, "  mmap2                            1\n"));
	free(said);
	pc_sim_uninstall();
}

static void reject_with(struct __test_metadata *_metadata, int e, struct pc_error *err)
{
	struct pc_sim_profile p = *pc_sim_profile_find("reject-all");
	union pc_attr a;

	p.reject_all_errno = e;
	pc_sim_install(&p);
	pc_feature_baseline_attr(&a);
	EXPECT_EQ(-e, pc_event_open(&a, "cpu-clock", 0, -1, -1, 0, NULL, err));
	pc_sim_uninstall();
}

TEST(permission_error_explains_perf_event_paranoid_with_its_value)
{
	char want[64], buf[32];
	struct pc_error err;
	FILE *fp = fopen("/proc/sys/kernel/perf_event_paranoid", "r");

	if (!fp)
		SKIP(return, "no /proc/sys/kernel/perf_event_paranoid");
	ASSERT_NE(NULL, fgets(buf, sizeof(buf), fp));
	fclose(fp);
	snprintf(want, sizeof(want), "perf_event_paranoid is %ld", strtol(buf, NULL, 10));
	reject_with(_metadata, EACCES, &err);
	EXPECT_NE(NULL, strstr(err.msg, want)) TH_LOG("%s", err.msg);
	reject_with(_metadata, EPERM, &err);
	EXPECT_NE(NULL, strstr(err.msg, want)) TH_LOG("%s", err.msg);
}

TEST(emfile_names_the_fd_limit)
{
	struct pc_error err;

	reject_with(_metadata, EMFILE, &err);
	EXPECT_NE(NULL, strstr(err.msg, "RLIMIT_NOFILE")) TH_LOG("%s", err.msg);
}

TEST_HARNESS_MAIN
