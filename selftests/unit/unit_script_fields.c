// SPDX-License-Identifier: GPL-2.0
/*
 * perfcheck script -F checks on synthesized files (no perf, no kernel),
 * each as perf 6.1 words it (checked against perf 6.1 on its own files):
 * a field the samples do not carry names the event and the field; symoff
 * without sym and srcline without ip are refused; data_src is decoded;
 * cgroup and dsoff are perf 7.2's (refused with --compat 6.1).
 */
#include "kselftest_harness.h"
#include "reader_util.h"

FIXTURE(f) {
	char *dir;
	char path[512];
	union pc_attr a;
	struct synth d;
	struct pc_run run;
};

FIXTURE_SETUP(f)
{
	struct pd_sample v = rt_id(100, 100, RT_SEC);

	self->dir = pc_test_mkdtemp("unit-script-fields");
	ASSERT_NE(NULL, self->dir);
	snprintf(self->path, sizeof(self->path), "%s/perf.data", self->dir);
	memset(&self->d, 0, sizeof(self->d));
	memset(&self->run, 0, sizeof(self->run));
	rt_plain_attr(&self->a, 0);
	v.ip = 0x400123;
	synth_sample(&self->d, &self->a.attr, &v);
}

FIXTURE_TEARDOWN(f)
{
	pc_run_free(&self->run);
	synth_free(&self->d);
	if (!getenv("PERFCHECK_KEEP_TEST_FILES"))
		pc_test_rmdir(self->dir);
}

static void script(struct __test_metadata *_metadata, FIXTURE_DATA(f) *self, const char *fields)
{
	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	pc_run_free(&self->run);
	ASSERT_EQ(0, rt_perfcheck(&self->run, "script", "-i", self->path, "-F", fields, NULL, NULL));
}

TEST_F(f, field_without_its_sample_bit_names_event_and_field)
{
	script(_metadata, self, "ip,weight");
	EXPECT_EQ(255, self->run.exit_code);
	EXPECT_STREQ("Samples for 'cpu-clock' event do not have WEIGHT attribute set. "
		     "Cannot print 'weight' field.\n", self->run.err);
	EXPECT_STREQ("", self->run.out);
}

TEST_F(f, checks_come_in_perfs_order)
{
	/* perf checks ADDR before CPU */
	script(_metadata, self, "cpu,addr");
	EXPECT_EQ(255, self->run.exit_code);
	EXPECT_NE(NULL, strstr(self->run.err, "do not have ADDR attribute set")) TH_LOG("%s",
										    self->run.err);
}

TEST_F(f, symoff_without_sym_is_refused)
{
	script(_metadata, self, "ip,symoff");
	EXPECT_EQ(255, self->run.exit_code);
	EXPECT_STREQ("Display of offsets requested but symbol is notselected.\n", self->run.err);
}

TEST_F(f, srcline_without_ip_is_refused)
{
	script(_metadata, self, "comm,srcline");
	EXPECT_EQ(255, self->run.exit_code);
	EXPECT_STREQ("Display of source line number requested but sample IP is not\nselected. "
		     "Hence, no address to lookup the source line number.\n", self->run.err);
}

/* data_src: the raw word and perf 6.1's decoded text, padded to the widest yet */
TEST_F(f, data_src_is_printed_decoded)
{
	struct pd_sample v = rt_id(100, 100, RT_SEC);

	synth_free(&self->d);
	self->a.attr.sample_type |= PERF_SAMPLE_DATA_SRC;
	v.ip = 0x400123;
	/* load, L1 hit, snoop none, TLB L1 hit, not locked */
	v.mem.data_src = 0x68100142ULL;
	synth_sample(&self->d, &self->a.attr, &v);
	script(_metadata, self, "data_src");
	EXPECT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_STREQ("        68100142 |OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 hit|LCK No|"
		     "BLK  N/A\n", self->run.out);
}

/* cgroup: perf 6.1 has no such field; 7.2's layout names each sample's cgroup by its record */
TEST_F(f, cgroup_is_named_by_its_record_in_7_2s_layout_only)
{
	struct pd_sample v = rt_id(100, 100, RT_SEC);

	synth_free(&self->d);
	self->a.attr.sample_type |= PERF_SAMPLE_CGROUP;
	synth_cgroup(&self->d, &self->a.attr, 7, "/system.slice/a.service", &v);
	v.ip = 0x400123;
	v.cgroup = 7;
	synth_sample(&self->d, &self->a.attr, &v);
	v.cgroup = 8;
	synth_sample(&self->d, &self->a.attr, &v);
	script(_metadata, self, "ip,cgroup");
	EXPECT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_STREQ(" /system.slice/a.service           400123\n unknown           400123\n",
		     self->run.out);
	pc_run_free(&self->run);
	ASSERT_EQ(0, rt_perfcheck(&self->run, "script", "--compat", "6.1", "-i", self->path, "-F",
				  "ip,cgroup"));
	EXPECT_EQ(1, self->run.exit_code);
	EXPECT_NE(NULL, strstr(self->run.err, "unknown field 'cgroup'")) TH_LOG("%s", self->run.err);
	EXPECT_STREQ("", self->run.out);
}

/* perf 7.x's dsoff: an object file's name with the map-relative offset, none without one */
TEST_F(f, dsoff_adds_the_offset_in_the_object_in_7_2s_layout_only)
{
	struct pd_sample v = rt_id(100, 100, RT_SEC);
	char exe[4096], want[4200];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	ASSERT_LT(0, n);
	exe[n] = '\0';
	synth_free(&self->d);
	self->a.attr.sample_id_all = 1;
	synth_kernel_mmap(&self->d, &self->a.attr, &v);
	synth_mmap2(&self->d, &self->a.attr, 100, 100, 0x400000, 0x10000, 0x2000, exe, &v);
	v.ip = 0x401234;
	synth_sample(&self->d, &self->a.attr, &v);
	v.ip = RT_KIP(1);
	synth_sample(&self->d, &self->a.attr, &v);
	script(_metadata, self, "ip,dsoff");
	EXPECT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	snprintf(want, sizeof(want), "          401234 (%s+0x3234)\n", exe);
	EXPECT_NE(NULL, strstr(self->run.out, want)) TH_LOG("%s", self->run.out);
	/* an address in no map: no object, no offset */
	EXPECT_NE(NULL, strstr(self->run.out, " ([unknown])\n")) TH_LOG("%s", self->run.out);
	pc_run_free(&self->run);
	ASSERT_EQ(0, rt_perfcheck(&self->run, "script", "--compat", "6.1", "-i", self->path, "-F",
				  "ip,dsoff"));
	EXPECT_EQ(1, self->run.exit_code);
	EXPECT_NE(NULL, strstr(self->run.err, "unknown field 'dsoff'")) TH_LOG("%s", self->run.err);
}

/* a sample with an address, a weight and a data source, of an event of attr type type */
static void memory_sample(FIXTURE_DATA(f) *self, uint32_t type)
{
	struct pd_sample v = rt_id(100, 100, RT_SEC);

	synth_free(&self->d);
	self->a.attr.type = type;
	self->a.attr.sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_DATA_SRC;
	v.ip = 0x400123;
	v.addr = 0x7f0000001000ULL;
	v.mem.weight = 42;
	v.mem.data_src = 0x68100142ULL;
	synth_sample(&self->d, &self->a.attr, &v);
}

/* perf's default for raw PMU events (perf mem's) shows what they carry: addr, weight, data_src */
TEST_F(f, raw_events_show_their_memory_fields_by_default)
{
	char *explicit;

	memory_sample(self, PERF_TYPE_RAW);
	script(_metadata, self, "comm,tid,time,period,event,addr,weight,data_src,ip,sym,symoff,dso");
	ASSERT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	explicit = strdup(self->run.out);
	ASSERT_NE(NULL, explicit);
	pc_run_free(&self->run);
	ASSERT_EQ(0, rt_perfcheck(&self->run, "script", "-i", self->path, NULL, NULL, NULL, NULL));
	EXPECT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_NE(NULL, strstr(self->run.out, "7f0000001000")) TH_LOG("%s", self->run.out);
	EXPECT_NE(NULL, strstr(self->run.out, "68100142"));
	EXPECT_STREQ(explicit, self->run.out);
	free(explicit);
}

/* the same sample of a software event: its default has none of them */
TEST_F(f, software_events_leave_memory_fields_out_by_default)
{
	memory_sample(self, PERF_TYPE_SOFTWARE);
	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	ASSERT_EQ(0, rt_perfcheck(&self->run, "script", "-i", self->path, NULL, NULL, NULL, NULL));
	EXPECT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_EQ(NULL, strstr(self->run.out, "7f0000001000")) TH_LOG("%s", self->run.out);
	EXPECT_EQ(NULL, strstr(self->run.out, "68100142"));
}

/* a raw event's default field its samples lack is left out quietly (a -F list's is an error) */
TEST_F(f, raw_default_field_the_samples_lack_is_left_out_quietly)
{
	synth_free(&self->d);
	self->a.attr.type = PERF_TYPE_RAW;
	{
		struct pd_sample v = rt_id(100, 100, RT_SEC);

		v.ip = 0x400123;
		synth_sample(&self->d, &self->a.attr, &v);
	}
	ASSERT_EQ(0, rt_write(self->path, &self->a, &self->d));
	ASSERT_EQ(0, rt_perfcheck(&self->run, "script", "-i", self->path, NULL, NULL, NULL, NULL));
	EXPECT_EQ(0, self->run.exit_code) TH_LOG("%s", self->run.err);
	EXPECT_STREQ("", self->run.err);
	EXPECT_NE(NULL, strstr(self->run.out, "400123")) TH_LOG("%s", self->run.out);
}

/* -F TYPE:list: an unknown type is refused, naming it */
TEST_F(f, unknown_event_type_in_fields_is_refused)
{
	script(_metadata, self, "bogus:ip");
	EXPECT_EQ(1, self->run.exit_code);
	EXPECT_NE(NULL, strstr(self->run.err, "unknown event type 'bogus'")) TH_LOG("%s", self->run.err);
}

TEST_HARNESS_MAIN
