/*
 * perfev/abi.h — the kernel's perf_event ABI as perfev uses it.
 *
 * The system's <linux/perf_event.h> supplies the constants; this header adds
 * what older system headers lack, and defines struct perfev_attr: the
 * newest perf_event_attr layout in full (up to config3, PERF_ATTR_SIZE_VER8),
 * with the kernel's own field names. perfev always builds attrs in this
 * struct and negotiates attr.size with the running kernel (see perfev/sys.h),
 * so a field is never assumed to exist because this header has it.
 */
#ifndef PERFEV_ABI_H
#define PERFEV_ABI_H

#include <linux/perf_event.h>
#include <linux/version.h>
#include <stdint.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(PERFEV_BUILDING)
#define PERFEV_API __attribute__((visibility("default")))
#else
#define PERFEV_API
#endif

/* ---- constants newer than some system headers -------------------------- */
#ifndef PERF_ATTR_SIZE_VER8
#define PERF_ATTR_SIZE_VER8 136 /* add: config3 (Linux 6.3) */
#endif
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 8, 0)
#define PERF_SAMPLE_BRANCH_COUNTERS_SHIFT 19
#define PERF_SAMPLE_BRANCH_COUNTERS (1U << 19) /* Linux 6.8 */
#endif
/* The size of the newest attr this header describes. */
#define PERFEV_ATTR_SIZE_LATEST PERF_ATTR_SIZE_VER8

/*
 * struct perfev_attr: identical in layout to the kernel's newest
 * struct perf_event_attr (bit-fields in the kernel's order; the compiler
 * lays them out exactly as it does for the kernel's own header).
 */
struct perfev_attr {
	uint32_t type;
	uint32_t size;
	uint64_t config;
	union {
		uint64_t sample_period;
		uint64_t sample_freq;
	};
	uint64_t sample_type;
	uint64_t read_format;
	uint64_t disabled : 1, inherit : 1, pinned : 1, exclusive : 1,
		exclude_user : 1, exclude_kernel : 1, exclude_hv : 1,
		exclude_idle : 1, mmap : 1, comm : 1, freq : 1,
		inherit_stat : 1, enable_on_exec : 1, task : 1, watermark : 1,
		precise_ip : 2, mmap_data : 1, sample_id_all : 1,
		exclude_host : 1, exclude_guest : 1,
		exclude_callchain_kernel : 1, exclude_callchain_user : 1,
		mmap2 : 1, comm_exec : 1, use_clockid : 1, context_switch : 1,
		write_backward : 1, namespaces : 1, ksymbol : 1, bpf_event : 1,
		aux_output : 1, cgroup : 1, text_poke : 1, build_id : 1,
		inherit_thread : 1, remove_on_exec : 1, sigtrap : 1,
		__reserved_1 : 26;
	union {
		uint32_t wakeup_events;
		uint32_t wakeup_watermark;
	};
	uint32_t bp_type;
	union {
		uint64_t bp_addr;
		uint64_t kprobe_func;
		uint64_t uprobe_path;
		uint64_t config1;
	};
	union {
		uint64_t bp_len;
		uint64_t kprobe_addr;
		uint64_t probe_offset;
		uint64_t config2;
	};
	uint64_t branch_sample_type;
	uint64_t sample_regs_user;
	uint32_t sample_stack_user;
	int32_t clockid;
	uint64_t sample_regs_intr;
	uint32_t aux_watermark;
	uint16_t sample_max_stack;
	uint16_t __reserved_2;
	uint32_t aux_sample_size;
	union {
		uint32_t aux_action;
		struct {
			uint32_t aux_start_paused : 1, aux_pause : 1,
				aux_resume : 1, __reserved_3 : 29;
		};
	};
	uint64_t sig_data;
	uint64_t config3;
};

/* ---- perf.data user record types (tools/perf, not the kernel UAPI) ----- */
enum perfev_user_record_type {
	PERFEV_RECORD_HEADER_ATTR = 64,
	PERFEV_RECORD_HEADER_EVENT_TYPE = 65, /* deprecated */
	PERFEV_RECORD_HEADER_TRACING_DATA = 66,
	PERFEV_RECORD_HEADER_BUILD_ID = 67,
	PERFEV_RECORD_FINISHED_ROUND = 68,
	PERFEV_RECORD_ID_INDEX = 69,
	PERFEV_RECORD_AUXTRACE_INFO = 70,
	PERFEV_RECORD_AUXTRACE = 71,
	PERFEV_RECORD_AUXTRACE_ERROR = 72,
	PERFEV_RECORD_THREAD_MAP = 73,
	PERFEV_RECORD_CPU_MAP = 74,
	PERFEV_RECORD_STAT_CONFIG = 75,
	PERFEV_RECORD_STAT = 76,
	PERFEV_RECORD_STAT_ROUND = 77,
	PERFEV_RECORD_EVENT_UPDATE = 78,
	PERFEV_RECORD_TIME_CONV = 79,
	PERFEV_RECORD_HEADER_FEATURE = 80,
	PERFEV_RECORD_COMPRESSED = 81,
	PERFEV_RECORD_FINISHED_INIT = 82,
	PERFEV_RECORD_COMPRESSED2 = 83,
	PERFEV_RECORD_USER_TYPE_MAX
};

#ifdef __cplusplus
}
#endif
#endif /* PERFEV_ABI_H */
