/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf.data on-disk layout, as documented in the kernel tree's
 * tools/perf/Documentation/perf.data-file-format.txt.  Host byte order
 * (little-endian x86_64); a byte-swapped file is rejected with a message.
 */
#ifndef PERFCHECK_PERFDATA_FORMAT_H
#define PERFCHECK_PERFDATA_FORMAT_H

#include <stdint.h>
#include "uapi/perf_compat.h"

#define PD_MAGIC		0x32454c4946524550ULL	/* "PERFILE2" */
#define PD_MAGIC_SWAPPED	0x50455246494c4532ULL
#define PD_PIPE_HEADER_SIZE	16
#define PD_NAME_ALIGN		64	/* header strings are padded to this */

struct pd_file_section {
	uint64_t offset;
	uint64_t size;
};

struct pd_file_header {
	uint64_t magic;
	uint64_t size;			/* sizeof(struct pd_file_header) */
	uint64_t attr_size;		/* attr.size + sizeof(struct pd_file_section) */
	struct pd_file_section attrs;
	struct pd_file_section data;
	struct pd_file_section event_types;	/* unused since 2012, zero */
	uint64_t adds_features[4];	/* bitmap of HEADER_* features present */
};
_Static_assert(sizeof(struct pd_file_header) == 104, "perf.data header");

struct pd_pipe_header {
	uint64_t magic;
	uint64_t size;			/* 16 */
};

/* Feature bits of adds_features; each has a section after the data. */
enum pd_feature {
	PD_FEAT_RESERVED	= 0,
	PD_FEAT_TRACING_DATA	= 1,
	PD_FEAT_BUILD_ID	= 2,
	PD_FEAT_HOSTNAME	= 3,
	PD_FEAT_OSRELEASE	= 4,
	PD_FEAT_VERSION		= 5,
	PD_FEAT_ARCH		= 6,
	PD_FEAT_NRCPUS		= 7,
	PD_FEAT_CPUDESC		= 8,
	PD_FEAT_CPUID		= 9,
	PD_FEAT_TOTAL_MEM	= 10,
	PD_FEAT_CMDLINE		= 11,
	PD_FEAT_EVENT_DESC	= 12,
	PD_FEAT_CPU_TOPOLOGY	= 13,
	PD_FEAT_NUMA_TOPOLOGY	= 14,
	PD_FEAT_BRANCH_STACK	= 15,
	PD_FEAT_PMU_MAPPINGS	= 16,
	PD_FEAT_GROUP_DESC	= 17,
	PD_FEAT_AUXTRACE	= 18,
	PD_FEAT_STAT		= 19,
	PD_FEAT_CACHE		= 20,
	PD_FEAT_SAMPLE_TIME	= 21,
	PD_FEAT_MEM_TOPOLOGY	= 22,
	PD_FEAT_CLOCKID		= 23,
	PD_FEAT_DIR_FORMAT	= 24,
	PD_FEAT_BPF_PROG_INFO	= 25,
	PD_FEAT_BPF_BTF		= 26,
	PD_FEAT_COMPRESSED	= 27,
	PD_FEAT_CPU_PMU_CAPS	= 28,
	PD_FEAT_CLOCK_DATA	= 29,
	PD_FEAT_HYBRID_TOPOLOGY	= 30,
	PD_FEAT_PMU_CAPS	= 31,
	/* perf 7.x's */
	PD_FEAT_CPU_DOMAIN_INFO	= 32,
	PD_FEAT_E_MACHINE	= 33,
	PD_FEAT_CLN_SIZE	= 34,
	PD_FEAT_LAST_KNOWN	= 34,
	/*
	 * perfcheck's own section: per event, the attr features asked for and
	 * those the open ladder cleared (a perf string, one line per event).
	 * High in the bitmap: perf reads sections only up to its last known
	 * feature, and this one comes last in the section table.
	 */
	PD_FEAT_PERFCHECK_OPEN	= 250,
	PD_FEAT_BITS		= 256,
};

/* Name of a feature bit ("HOSTNAME"), or NULL when unknown. */
const char *pd_feature_name(int feat);
/* Name of a record type ("SAMPLE", "CALLCHAIN_DEFERRED"), or NULL when unknown. */
const char *pd_record_name(uint32_t type);

/*
 * BUILD_ID feature entry: perf_event_header, pid, 20-byte id padded to 24
 * (byte 20 holds the id size when misc has PC_RECORD_MISC_BUILD_ID_SIZE),
 * then a NUL-terminated file name padded to PD_NAME_ALIGN.
 */
struct pd_build_id_entry {
	struct perf_event_header header;
	int32_t pid;
	uint8_t build_id[24];
	char filename[];
};
_Static_assert(sizeof(struct pd_build_id_entry) == 36, "build_id entry");

#define PD_BUILD_ID_MAX 20

#endif
