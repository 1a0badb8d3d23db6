// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck report (perf 7.2's layout, our default) against perf 7.2's
 * report --stdio ($PERFCHECK_PERF72, else /tmp/perf72) on files the system
 * perf records here, byte for byte (perf's closing tip cut): the layouts
 * beside --hierarchy (interop_report_hierarchy).  Skips where either perf
 * is missing or perf may not record.
 *
 * Not compared on purpose: -F of an event group, or with --group (perf
 * prints each member's column; perfcheck prints the leader's alone).
 */
#include <stdlib.h>
#include <unistd.h>

#include "lib/perfcmp.h"

PERFCMP_FIXTURE(r72, "interop-report-perf72")

static const char *perf72(void)
{
	const char *p = getenv("PERFCHECK_PERF72");

	if (!p || !*p)
		p = "/tmp/perf72";
	return access(p, X_OK) ? NULL : p;
}

#define NEED_PERF72()                                                                      \
	do {                                                                               \
		if (!perf72())                                                             \
			SKIP(return, "no perf 7.2 here ($PERFCHECK_PERF72 or /tmp/perf72)"); \
	} while (0)

/* perf 7.2 report --stdio ARGS and ours print the same */
static void same72(struct __test_metadata *_metadata, struct perfcmp *c, const char *args)
{
	pc_run_free(&c->perf);
	pc_run_free(&c->ours);
	snprintf(c->label, sizeof(c->label), "perf72 report %.250s", args);
	ASSERT_EQ(0, perfcmp_sh(&c->perf, "'%s' report -i '%s' --stdio %s", perf72(), c->path,
				args));
	ASSERT_EQ(0, perfcmp_sh(&c->ours, "'%s' report -i '%s' --stdio %s", pc_test_perfcheck(),
				c->path, args));
	perfcmp_assert_ran(_metadata, c);
	perfcmp_cut_tip(c->perf.out);
	ASSERT_NE(NULL, strstr(c->perf.out, "# Samples: "));
	perfcmp_expect_same(_metadata, c);
}

/* two events, no group: -F says "of event" for each, as without -F */
TEST_F(r72, fields_of_two_ungrouped_events_say_event_as_perf72)
{
	NEED_PERF72();
	PERFCMP_RECORD(self->c.path, "-e cpu-clock,task-clock -c 100000", PERFCMP_SPIN);
	same72(_metadata, &self->c, "-F overhead,comm,dso");
	EXPECT_NE(NULL, strstr(self->c.perf.out, "of event 'cpu-clock'"));
	/* --no-group makes them one group: "of events" */
	same72(_metadata, &self->c, "-F overhead,comm,dso --no-group");
	EXPECT_NE(NULL, strstr(self->c.perf.out, "of events 'cpu-clock'"));
}

TEST_HARNESS_MAIN
