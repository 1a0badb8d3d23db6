// SPDX-License-Identifier: GPL-2.0
/*
 * vm/upstream/attr-parity.expect's PERF-VERSIONS column: X.Y, >=X.Y, <X.Y,
 * and ARCH:RANGE, which holds on machines of that architecture only
 * (uname -m), so that an arm64 difference explains nothing on x86; and
 * KEY@EVENT, which explains that field of that event only.
 * And how -vv texts are read: perf's BPF side-band dummy is an event of its
 * own beside the tracking dummy, compared on where it opened too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "interop_attr.h"

/* An architecture that is not this machine's. */
static const char *other_arch(void)
{
	struct utsname u;

	uname(&u);
	return strcmp(u.machine, "aarch64") ? "aarch64" : "x86_64";
}

static const char *this_arch(void)
{
	static struct utsname u;

	uname(&u);
	return u.machine;
}

TEST(plain_ranges_match_by_perf_version)
{
	EXPECT_TRUE(ia_version_matches("*", 6, 1));
	EXPECT_TRUE(ia_version_matches(">=6.2", 7, 2));
	EXPECT_FALSE(ia_version_matches(">=6.2", 6, 1));
	EXPECT_TRUE(ia_version_matches("<7.0", 6, 12));
	EXPECT_TRUE(ia_version_matches("5.10,6.1", 6, 1));
	EXPECT_FALSE(ia_version_matches("5.10,6.1", 6, 12));
}

TEST(arch_qualified_range_holds_on_that_architecture_only)
{
	char spec[160];

	snprintf(spec, sizeof(spec), "%s:*", this_arch());
	EXPECT_TRUE(ia_version_matches(spec, 6, 1));
	snprintf(spec, sizeof(spec), "%s:>=6.12", this_arch());
	EXPECT_TRUE(ia_version_matches(spec, 7, 2));
	EXPECT_FALSE(ia_version_matches(spec, 6, 1));
	snprintf(spec, sizeof(spec), "%s:*", other_arch());
	EXPECT_FALSE(ia_version_matches(spec, 6, 1));
	/* a prefix of the machine's name is another architecture */
	snprintf(spec, sizeof(spec), "%.3s:*", this_arch());
	EXPECT_FALSE(ia_version_matches(spec, 6, 1));
	/* a list mixes both kinds */
	snprintf(spec, sizeof(spec), "%s:*,7.2", other_arch());
	EXPECT_TRUE(ia_version_matches(spec, 7, 2));
	EXPECT_FALSE(ia_version_matches(spec, 6, 12));
}

TEST(an_arch_line_explains_a_difference_on_its_architecture_only)
{
	char path[] = "/tmp/unit-attr-expect-XXXXXX", why[256] = "";
	struct ia_expects x;
	struct ia_diff d[2];
	int fd = mkstemp(path), n = 0;
	FILE *f;

	ASSERT_LE(0, fd);
	f = fdopen(fd, "w");
	ASSERT_NE(NULL, f);
	fprintf(f, "# comment\nsample_regs_user 0x40000000 0 g %s:* LR on that arch\n"
		   "sample_type.REGS_USER 1 0 g %s:* LR on the other arch\n",
		this_arch(), other_arch());
	fclose(f);
	ASSERT_EQ(0, ia_load_expects(path, &x, why, sizeof(why))) TH_LOG("%s", why);
	unlink(path);
	ASSERT_EQ(2, x.n);
	ia_push(d, &n, "sample_regs_user", "1:0", "0x40000000", "0");
	ia_push(d, &n, "sample_type.REGS_USER", "1:0", "1", "0");
	ASSERT_EQ(2, n);
	EXPECT_EQ(1, ia_explain(d, n, &x, "g", 7, 2));
	ASSERT_NE(NULL, d[0].reason);
	EXPECT_STREQ("LR on that arch", d[0].reason);
	EXPECT_EQ(NULL, d[1].reason);
	free(x.e);
}

TEST(an_event_scoped_key_explains_that_events_field_only)
{
	char path[] = "/tmp/unit-attr-expect-XXXXXX", why[256] = "";
	struct ia_expects x;
	struct ia_diff d[3];
	int fd = mkstemp(path), n = 0;
	FILE *f;

	ASSERT_LE(0, fd);
	f = fdopen(fd, "w");
	ASSERT_NE(NULL, f);
	fprintf(f, "exclude_kernel@1:0x9 1 0 delay >=6.7 the tracking dummy is dummy:u\n");
	fclose(f);
	ASSERT_EQ(0, ia_load_expects(path, &x, why, sizeof(why))) TH_LOG("%s", why);
	unlink(path);
	ia_push(d, &n, "exclude_kernel", "1:0x9", "1", "0");
	ia_push(d, &n, "exclude_kernel", "1:0", "1", "0");
	ia_push(d, &n, "exclude_kernel_x", "1:0x9", "1", "0");
	/* the main event's and another field's differences stay unexplained */
	EXPECT_EQ(2, ia_explain(d, n, &x, "delay", 6, 12));
	EXPECT_STREQ("the tracking dummy is dummy:u", d[0].reason ? d[0].reason : "");
	EXPECT_EQ(NULL, d[1].reason);
	EXPECT_EQ(NULL, d[2].reason);
	free(x.e);
}

/* perf 6.1 -vv: the main event, the tracking dummy of -a, the side band's dummy */
static const char perf_vv[] =
	"perf_event_attr:\n  type                             1\n"
	"  sample_type                      IP|TID|TIME|CPU|PERIOD|IDENTIFIER\n"
	"------------------------------------------------------------\n"
	"sys_perf_event_open: pid -1  cpu 0  group_fd -1  flags 0x8 = 5\n"
	"sys_perf_event_open: pid -1  cpu 1  group_fd -1  flags 0x8 = 6\n"
	"perf_event_attr:\n  type                             1\n  config                           0x9\n"
	"  { sample_period, sample_freq }   1\n  mmap                             1\n"
	"------------------------------------------------------------\n"
	"sys_perf_event_open: pid -1  cpu 0  group_fd -1  flags 0x8 = 7\n"
	"sys_perf_event_open: pid -1  cpu 1  group_fd -1  flags 0x8 = 8\n"
	"perf_event_attr:\n  type                             1\n  config                           0x9\n"
	"  watermark                        1\n  sample_id_all                    1\n"
	"  bpf_event                        1\n  { wakeup_events, wakeup_watermark } 1\n"
	"------------------------------------------------------------\n"
	"sys_perf_event_open: pid -1  cpu 0  group_fd -1  flags 0x8 = 9\n"
	"sys_perf_event_open: pid -1  cpu 1  group_fd -1  flags 0x8 = 10\n";

/* perfcheck's layout: the result on a line of its own; the side band on cpu 0 only */
static const char pc_vv[] =
	"perf_event_attr:\n  type                             1\n"
	"  sample_type                      IP|TID|TIME|CPU|PERIOD|IDENTIFIER\n"
	"------------------------------------------------------------\n"
	"sys_perf_event_open: pid -1  cpu 0  group_fd -1  flags 0x8\nsys_perf_event_open: = 5\n"
	"sys_perf_event_open: pid -1  cpu 1  group_fd -1  flags 0x8\nsys_perf_event_open: = 6\n"
	"perf_event_attr:\n  type                             1\n  config                           0x9\n"
	"  { sample_period, sample_freq }   1\n  mmap                             1\n"
	"------------------------------------------------------------\n"
	"sys_perf_event_open: pid -1  cpu 0  group_fd -1  flags 0x8\nsys_perf_event_open: = 7\n"
	"sys_perf_event_open: pid -1  cpu 1  group_fd -1  flags 0x8\nsys_perf_event_open: = 8\n"
	"perf_event_attr:\n  type                             1\n  config                           0x9\n"
	"  watermark                        1\n  sample_id_all                    1\n"
	"  bpf_event                        1\n  { wakeup_events, wakeup_watermark } 1\n"
	"------------------------------------------------------------\n"
	"sys_perf_event_open: pid 4242  cpu 0  group_fd -1  flags 0x8\nsys_perf_event_open: = 9\n";

TEST(side_band_dummy_is_an_event_of_its_own)
{
	static struct ia_opened o;
	char where[128];

	ASSERT_EQ(0, ia_parse_vv(perf_vv, &o));
	ASSERT_EQ(3, o.n);
	EXPECT_STREQ("1:0", o.ev[0].id);
	EXPECT_STREQ("1:0x9", o.ev[1].id);
	EXPECT_STREQ("1:0x9:sb", o.ev[2].id);
	ia_opens(&o.ev[2], where, sizeof(where));
	EXPECT_STREQ("pid:-1,cpu:0+1", where);
	EXPECT_EQ(1, ia_drop_sideband(&o));
	EXPECT_EQ(2, o.n);
	EXPECT_EQ(0, ia_drop_sideband(&o));
}

TEST(side_band_opened_elsewhere_is_a_difference)
{
	static struct ia_opened perf, pc;
	struct ia_diff d[IA_MAX_DIFFS];
	int n;

	ASSERT_EQ(0, ia_parse_vv(perf_vv, &perf));
	ASSERT_EQ(0, ia_parse_vv(pc_vv, &pc));
	n = ia_diff(&perf, &pc, d);
	ASSERT_EQ(1, n);
	EXPECT_STREQ("opens", d[0].key);
	EXPECT_STREQ("1:0x9:sb", d[0].event);
	EXPECT_STREQ("pid:-1,cpu:0+1", d[0].perf);
	EXPECT_STREQ("pid:task,cpu:0", d[0].pc);
}

TEST_HARNESS_MAIN
