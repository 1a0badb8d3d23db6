/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The perf_event ABI as newer kernels define it, on top of whatever
 * <linux/perf_event.h> the build machine has (Debian 12 ships the 6.1 one).
 *
 * Everything here is an ABI fact (bit positions, record numbers, sizes), so
 * each definition is guarded: a newer system header wins and we only fill
 * the gaps.  Bitfields that the 6.1 header lacks (defer_callchain,
 * defer_output) cannot be added to its struct, so they are reached through
 * the 64-bit flags word at offset 40 with the helpers below.
 */
#ifndef PERFCHECK_UAPI_PERF_COMPAT_H
#define PERFCHECK_UAPI_PERF_COMPAT_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <string.h>

/* attr sizes, PERF_ATTR_SIZE_VER0..VER8 (VER7 in 5.12, VER8 in 6.3) */
#ifndef PERF_ATTR_SIZE_VER7
#define PERF_ATTR_SIZE_VER7 128
#endif
#ifndef PERF_ATTR_SIZE_VER8
#define PERF_ATTR_SIZE_VER8 136	/* config3, 6.3 */
#endif
#ifndef PERF_ATTR_SIZE_VER9
#define PERF_ATTR_SIZE_VER9 144	/* one more u64 after config3, as perf 7.2 writes */
#endif

/*
 * The largest attr this project knows.  It is a byte buffer rather than a
 * struct so that it holds fields the system header has never heard of.
 */
#define PC_ATTR_SIZE_MAX PERF_ATTR_SIZE_VER9

/* read_format: PERF_FORMAT_LOST, 6.0 (119a784c8127) */
#ifndef PERF_FORMAT_LOST
#define PERF_FORMAT_LOST (1U << 4)
#endif

/* sample_type bits added after 5.x, guarded for older headers */
#ifndef PERF_SAMPLE_WEIGHT_STRUCT
#define PERF_SAMPLE_WEIGHT_STRUCT (1U << 24)	/* 5.12 */
#endif
#ifndef PERF_SAMPLE_DATA_PAGE_SIZE
#define PERF_SAMPLE_DATA_PAGE_SIZE (1U << 22)	/* 5.11 */
#endif
#ifndef PERF_SAMPLE_CODE_PAGE_SIZE
#define PERF_SAMPLE_CODE_PAGE_SIZE (1U << 23)	/* 5.11 */
#endif
#ifndef PERF_SAMPLE_CGROUP
#define PERF_SAMPLE_CGROUP (1U << 21)		/* 5.7 */
#endif
#define PC_SAMPLE_TYPE_KNOWN ((1ULL << 25) - 1)

/* branch_sample_type: counters (6.8) */
#define PC_SAMPLE_BRANCH_COUNTERS (1ULL << 19)
#define PC_SAMPLE_BRANCH_HW_INDEX (1ULL << 17)

/* record types newer than some headers */
#define PC_RECORD_KSYMBOL		17
#define PC_RECORD_BPF_EVENT		18
#define PC_RECORD_CGROUP		19
#define PC_RECORD_TEXT_POKE		20
#define PC_RECORD_AUX_OUTPUT_HW_ID	21
#define PC_RECORD_CALLCHAIN_DEFERRED	22	/* 6.19/7.0, deferred unwind */
#define PC_RECORD_KERNEL_MAX		23

/* user-space record types that perf writes into perf.data */
enum pc_user_record {
	PC_RECORD_HEADER_ATTR		= 64,
	PC_RECORD_HEADER_EVENT_TYPE	= 65,
	PC_RECORD_HEADER_TRACING_DATA	= 66,
	PC_RECORD_HEADER_BUILD_ID	= 67,
	PC_RECORD_FINISHED_ROUND	= 68,
	PC_RECORD_ID_INDEX		= 69,
	PC_RECORD_AUXTRACE_INFO		= 70,
	PC_RECORD_AUXTRACE		= 71,
	PC_RECORD_AUXTRACE_ERROR	= 72,
	PC_RECORD_THREAD_MAP		= 73,
	PC_RECORD_CPU_MAP		= 74,
	PC_RECORD_STAT_CONFIG		= 75,
	PC_RECORD_STAT			= 76,
	PC_RECORD_STAT_ROUND		= 77,
	PC_RECORD_EVENT_UPDATE		= 78,
	PC_RECORD_TIME_CONV		= 79,
	PC_RECORD_HEADER_FEATURE	= 80,
	PC_RECORD_COMPRESSED		= 81,
	PC_RECORD_FINISHED_INIT		= 82,
	PC_RECORD_COMPRESSED2		= 83,
	PC_RECORD_USER_MAX,
};

/* header misc */
#ifndef PERF_RECORD_MISC_MMAP_BUILD_ID
#define PERF_RECORD_MISC_MMAP_BUILD_ID (1 << 14)	/* 5.12 */
#endif
#define PC_RECORD_MISC_BUILD_ID_SIZE (1 << 15)		/* perf.data BUILD_ID */

/* callchain context markers */
#define PC_CONTEXT_HV			((uint64_t)-32)
#define PC_CONTEXT_KERNEL		((uint64_t)-128)
#define PC_CONTEXT_USER			((uint64_t)-512)
#define PC_CONTEXT_USER_DEFERRED	((uint64_t)-640)
#define PC_CONTEXT_GUEST		((uint64_t)-2048)
#define PC_CONTEXT_GUEST_KERNEL		((uint64_t)-2176)
#define PC_CONTEXT_GUEST_USER		((uint64_t)-2560)
#define PC_CONTEXT_MAX			((uint64_t)-4095)

static inline bool pc_is_context(uint64_t ip)
{
	return ip >= PC_CONTEXT_MAX;
}

/* open flags */
#ifndef PERF_FLAG_FD_CLOEXEC
#define PERF_FLAG_FD_CLOEXEC (1UL << 3)		/* 3.14 */
#endif

/*
 * Bits of the flags word (the u64 after read_format, offset 40).  The
 * positions are the kernel's bitfield order; the names follow
 * include/uapi/linux/perf_event.h.
 */
#define PC_ATTR_FLAGS_OFFSET 40
enum pc_attr_flag_bit {
	PC_ATTR_disabled		= 0,
	PC_ATTR_inherit			= 1,
	PC_ATTR_pinned			= 2,
	PC_ATTR_exclusive		= 3,
	PC_ATTR_exclude_user		= 4,
	PC_ATTR_exclude_kernel		= 5,
	PC_ATTR_exclude_hv		= 6,
	PC_ATTR_exclude_idle		= 7,
	PC_ATTR_mmap			= 8,
	PC_ATTR_comm			= 9,
	PC_ATTR_freq			= 10,
	PC_ATTR_inherit_stat		= 11,
	PC_ATTR_enable_on_exec		= 12,
	PC_ATTR_task			= 13,
	PC_ATTR_watermark		= 14,
	PC_ATTR_precise_ip		= 15,	/* two bits: 15-16 */
	PC_ATTR_mmap_data		= 17,
	PC_ATTR_sample_id_all		= 18,
	PC_ATTR_exclude_host		= 19,
	PC_ATTR_exclude_guest		= 20,
	PC_ATTR_exclude_callchain_kernel = 21,
	PC_ATTR_exclude_callchain_user	= 22,
	PC_ATTR_mmap2			= 23,
	PC_ATTR_comm_exec		= 24,
	PC_ATTR_use_clockid		= 25,
	PC_ATTR_context_switch		= 26,
	PC_ATTR_write_backward		= 27,
	PC_ATTR_namespaces		= 28,
	PC_ATTR_ksymbol			= 29,
	PC_ATTR_bpf_event		= 30,
	PC_ATTR_aux_output		= 31,
	PC_ATTR_cgroup			= 32,
	PC_ATTR_text_poke		= 33,
	PC_ATTR_build_id		= 34,
	PC_ATTR_inherit_thread		= 35,
	PC_ATTR_remove_on_exec		= 36,
	PC_ATTR_sigtrap			= 37,
	PC_ATTR_defer_callchain		= 38,
	PC_ATTR_defer_output		= 39,
};

/*
 * The flags word (disabled, inherit, ... defer_output) as one u64.  Read
 * and written with memcpy: a store through a u64 pointer next to stores to
 * the bitfields of the same word was reordered by GCC -O2 (strict aliasing)
 * and undid them (mmap, comm, task... of the tracking event, 2026-11-27).
 */
static inline uint64_t pc_attr_flags_get(const struct perf_event_attr *attr)
{
	uint64_t v;

	memcpy(&v, (const char *)attr + PC_ATTR_FLAGS_OFFSET, sizeof(v));
	return v;
}

static inline void pc_attr_flags_put(struct perf_event_attr *attr, uint64_t v)
{
	memcpy((char *)attr + PC_ATTR_FLAGS_OFFSET, &v, sizeof(v));
}

static inline bool pc_attr_test(const struct perf_event_attr *attr, int bit)
{
	return (pc_attr_flags_get(attr) >> bit) & 1;
}

static inline void pc_attr_set(struct perf_event_attr *attr, int bit, bool on)
{
	uint64_t v = pc_attr_flags_get(attr);

	pc_attr_flags_put(attr, on ? v | (1ULL << bit) : v & ~(1ULL << bit));
}

/*
 * A perf_event_attr with room for every field up to PC_ATTR_SIZE_MAX, even
 * when the system header's struct is smaller.  Use .attr for the fields the
 * header knows and the offsets below for the rest.
 */
union pc_attr {
	struct perf_event_attr attr;
	uint8_t bytes[PC_ATTR_SIZE_MAX];
	uint64_t words[PC_ATTR_SIZE_MAX / 8];
};

/* fields after the 6.1 struct: config3 (VER8, 6.3) and the VER9 word */
#define PC_ATTR_OFF_config3		128
#define PC_ATTR_OFF_config4		136

_Static_assert(offsetof(struct perf_event_attr, sample_type) == 24, "attr layout");
_Static_assert(offsetof(struct perf_event_attr, read_format) == 32, "attr layout");
_Static_assert(offsetof(struct perf_event_attr, bp_type) == 52, "attr layout");

/* perf's attr type of the events it synthesizes (Intel PT's, ARM SPE's): INT_MAX + 1 */
#define PC_PERF_TYPE_SYNTH 0x80000000u

#endif
