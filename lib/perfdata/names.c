// SPDX-License-Identifier: GPL-2.0
/* Names of feature bits, record types and events, as perf spells them. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "perfdata/perfdata.h"

static const char *const feature_names[] = {
	[PD_FEAT_RESERVED]	= "RESERVED",
	[PD_FEAT_TRACING_DATA]	= "TRACING_DATA",
	[PD_FEAT_BUILD_ID]	= "BUILD_ID",
	[PD_FEAT_HOSTNAME]	= "HOSTNAME",
	[PD_FEAT_OSRELEASE]	= "OSRELEASE",
	[PD_FEAT_VERSION]	= "VERSION",
	[PD_FEAT_ARCH]		= "ARCH",
	[PD_FEAT_NRCPUS]	= "NRCPUS",
	[PD_FEAT_CPUDESC]	= "CPUDESC",
	[PD_FEAT_CPUID]		= "CPUID",
	[PD_FEAT_TOTAL_MEM]	= "TOTAL_MEM",
	[PD_FEAT_CMDLINE]	= "CMDLINE",
	[PD_FEAT_EVENT_DESC]	= "EVENT_DESC",
	[PD_FEAT_CPU_TOPOLOGY]	= "CPU_TOPOLOGY",
	[PD_FEAT_NUMA_TOPOLOGY]	= "NUMA_TOPOLOGY",
	[PD_FEAT_BRANCH_STACK]	= "BRANCH_STACK",
	[PD_FEAT_PMU_MAPPINGS]	= "PMU_MAPPINGS",
	[PD_FEAT_GROUP_DESC]	= "GROUP_DESC",
	[PD_FEAT_AUXTRACE]	= "AUXTRACE",
	[PD_FEAT_STAT]		= "STAT",
	[PD_FEAT_CACHE]		= "CACHE",
	[PD_FEAT_SAMPLE_TIME]	= "SAMPLE_TIME",
	[PD_FEAT_MEM_TOPOLOGY]	= "MEM_TOPOLOGY",
	[PD_FEAT_CLOCKID]	= "CLOCKID",
	[PD_FEAT_DIR_FORMAT]	= "DIR_FORMAT",
	[PD_FEAT_BPF_PROG_INFO]	= "BPF_PROG_INFO",
	[PD_FEAT_BPF_BTF]	= "BPF_BTF",
	[PD_FEAT_COMPRESSED]	= "COMPRESSED",
	[PD_FEAT_CPU_PMU_CAPS]	= "CPU_PMU_CAPS",
	[PD_FEAT_CLOCK_DATA]	= "CLOCK_DATA",
	[PD_FEAT_HYBRID_TOPOLOGY] = "HYBRID_TOPOLOGY",
	[PD_FEAT_PMU_CAPS]	= "PMU_CAPS",
	[PD_FEAT_CPU_DOMAIN_INFO] = "CPU_DOMAIN_INFO",
	[PD_FEAT_E_MACHINE]	= "E_MACHINE",
	[PD_FEAT_CLN_SIZE]	= "CLN_SIZE",
	[PD_FEAT_PERFCHECK_OPEN] = "PERFCHECK_OPEN",
};

const char *pd_feature_name(int feat)
{
	if (feat < 0 || feat >= (int)(sizeof(feature_names) / sizeof(feature_names[0])))
		return NULL;
	return feature_names[feat];
}

static const char *const record_names[] = {
	[PERF_RECORD_MMAP]		= "MMAP",
	[PERF_RECORD_LOST]		= "LOST",
	[PERF_RECORD_COMM]		= "COMM",
	[PERF_RECORD_EXIT]		= "EXIT",
	[PERF_RECORD_THROTTLE]		= "THROTTLE",
	[PERF_RECORD_UNTHROTTLE]	= "UNTHROTTLE",
	[PERF_RECORD_FORK]		= "FORK",
	[PERF_RECORD_READ]		= "READ",
	[PERF_RECORD_SAMPLE]		= "SAMPLE",
	[PERF_RECORD_MMAP2]		= "MMAP2",
	[PERF_RECORD_AUX]		= "AUX",
	[PERF_RECORD_ITRACE_START]	= "ITRACE_START",
	[PERF_RECORD_LOST_SAMPLES]	= "LOST_SAMPLES",
	[PERF_RECORD_SWITCH]		= "SWITCH",
	[PERF_RECORD_SWITCH_CPU_WIDE]	= "SWITCH_CPU_WIDE",
	[PERF_RECORD_NAMESPACES]	= "NAMESPACES",
	[PC_RECORD_KSYMBOL]		= "KSYMBOL",
	[PC_RECORD_BPF_EVENT]		= "BPF_EVENT",
	[PC_RECORD_CGROUP]		= "CGROUP",
	[PC_RECORD_TEXT_POKE]		= "TEXT_POKE",
	[PC_RECORD_AUX_OUTPUT_HW_ID]	= "AUX_OUTPUT_HW_ID",
	[PC_RECORD_CALLCHAIN_DEFERRED]	= "CALLCHAIN_DEFERRED",
	[PC_RECORD_HEADER_ATTR]		= "ATTR",
	[PC_RECORD_HEADER_EVENT_TYPE]	= "EVENT_TYPE",
	[PC_RECORD_HEADER_TRACING_DATA]	= "TRACING_DATA",
	[PC_RECORD_HEADER_BUILD_ID]	= "BUILD_ID",
	[PC_RECORD_FINISHED_ROUND]	= "FINISHED_ROUND",
	[PC_RECORD_ID_INDEX]		= "ID_INDEX",
	[PC_RECORD_AUXTRACE_INFO]	= "AUXTRACE_INFO",
	[PC_RECORD_AUXTRACE]		= "AUXTRACE",
	[PC_RECORD_AUXTRACE_ERROR]	= "AUXTRACE_ERROR",
	[PC_RECORD_THREAD_MAP]		= "THREAD_MAP",
	[PC_RECORD_CPU_MAP]		= "CPU_MAP",
	[PC_RECORD_STAT_CONFIG]		= "STAT_CONFIG",
	[PC_RECORD_STAT]		= "STAT",
	[PC_RECORD_STAT_ROUND]		= "STAT_ROUND",
	[PC_RECORD_EVENT_UPDATE]	= "EVENT_UPDATE",
	[PC_RECORD_TIME_CONV]		= "TIME_CONV",
	[PC_RECORD_HEADER_FEATURE]	= "FEATURE",
	[PC_RECORD_COMPRESSED]		= "COMPRESSED",
	[PC_RECORD_FINISHED_INIT]	= "FINISHED_INIT",
	[PC_RECORD_COMPRESSED2]		= "COMPRESSED2",
};

const char *pd_record_name(uint32_t type)
{
	if (type >= sizeof(record_names) / sizeof(record_names[0]))
		return NULL;
	return record_names[type];
}

static const char *const sw_names[] = {
	[PERF_COUNT_SW_CPU_CLOCK]	 = "cpu-clock",
	[PERF_COUNT_SW_TASK_CLOCK]	 = "task-clock",
	[PERF_COUNT_SW_PAGE_FAULTS]	 = "page-faults",
	[PERF_COUNT_SW_CONTEXT_SWITCHES] = "context-switches",
	[PERF_COUNT_SW_CPU_MIGRATIONS]	 = "cpu-migrations",
	[PERF_COUNT_SW_PAGE_FAULTS_MIN]	 = "minor-faults",
	[PERF_COUNT_SW_PAGE_FAULTS_MAJ]	 = "major-faults",
	[PERF_COUNT_SW_ALIGNMENT_FAULTS] = "alignment-faults",
	[PERF_COUNT_SW_EMULATION_FAULTS] = "emulation-faults",
	[PERF_COUNT_SW_DUMMY]		 = "dummy",
	[PERF_COUNT_SW_BPF_OUTPUT]	 = "bpf-output",
	[11]				 = "cgroup-switches",
};

static const char *const hw_names[] = {
	[PERF_COUNT_HW_CPU_CYCLES]		= "cycles",
	[PERF_COUNT_HW_INSTRUCTIONS]		= "instructions",
	[PERF_COUNT_HW_CACHE_REFERENCES]	= "cache-references",
	[PERF_COUNT_HW_CACHE_MISSES]		= "cache-misses",
	[PERF_COUNT_HW_BRANCH_INSTRUCTIONS]	= "branches",
	[PERF_COUNT_HW_BRANCH_MISSES]		= "branch-misses",
	[PERF_COUNT_HW_BUS_CYCLES]		= "bus-cycles",
	[PERF_COUNT_HW_STALLED_CYCLES_FRONTEND]	= "stalled-cycles-frontend",
	[PERF_COUNT_HW_STALLED_CYCLES_BACKEND]	= "stalled-cycles-backend",
	[PERF_COUNT_HW_REF_CPU_CYCLES]		= "ref-cycles",
};

const char *pd_event_name(const struct perf_event_attr *attr, char *buf, size_t size)
{
	const char *name = NULL;

	if (attr->type == PERF_TYPE_SOFTWARE &&
	    attr->config < sizeof(sw_names) / sizeof(sw_names[0]))
		name = sw_names[attr->config];
	else if (attr->type == PERF_TYPE_HARDWARE &&
		 attr->config < sizeof(hw_names) / sizeof(hw_names[0]))
		name = hw_names[attr->config];
	if (name)
		snprintf(buf, size, "%s", name);
	else if (attr->type == PERF_TYPE_RAW)
		snprintf(buf, size, "r%llx", (unsigned long long)attr->config);
	else if (attr->type == PERF_TYPE_TRACEPOINT)
		snprintf(buf, size, "tracepoint:%llu", (unsigned long long)attr->config);
	else
		snprintf(buf, size, "unknown:%u:0x%llx", attr->type,
			 (unsigned long long)attr->config);
	return buf;
}

/* perf's event modifiers of an attr: ":u", ":ppp", ":HG" ... (perf 6.1's rules) */
static size_t modifiers(const struct perf_event_attr *a, char *buf, size_t size)
{
	char m[16];
	size_t n = 0;
	bool guest_default = false;

	if (a->exclude_kernel || a->exclude_user || a->exclude_hv) {
		if (!a->exclude_kernel)
			m[n++] = 'k';
		if (!a->exclude_user)
			m[n++] = 'u';
		if (!a->exclude_hv)
			m[n++] = 'h';
		guest_default = true;
	}
	for (unsigned int i = 0; i < a->precise_ip && i < 3; i++)
		m[n++] = 'p';
	if (a->precise_ip)
		guest_default = true;
	if (a->exclude_host || (bool)a->exclude_guest == guest_default) {
		if (!a->exclude_host)
			m[n++] = 'H';
		if (!a->exclude_guest)
			m[n++] = 'G';
	}
	m[n] = '\0';
	if (!n)
		return 0;
	return (size_t)snprintf(buf, size, ":%s", m);
}

const char *pd_event_name_from_attr(const struct perf_event_attr *attr, char *buf, size_t size)
{
	size_t len;

	if (attr->type == PERF_TYPE_RAW)
		snprintf(buf, size, "raw 0x%llx", (unsigned long long)attr->config);
	else
		pd_event_name(attr, buf, size);
	if (attr->type != PERF_TYPE_SOFTWARE && attr->type != PERF_TYPE_HARDWARE &&
	    attr->type != PERF_TYPE_RAW)
		return buf;
	len = strlen(buf);
	if (len < size)
		modifiers(attr, buf + len, size - len);
	return buf;
}
