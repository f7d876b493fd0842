/*
 * perfev/record.h — the one record decoder (and encoder) of perfev.
 *
 * Every record the kernel writes into a ring buffer (PERF_RECORD_*) and every
 * record perf writes into a perf.data file (PERFEV_RECORD_*, see abi.h) is
 * turned into a struct perfev_record by perfev_decoder_decode(), given the
 * attrs that produced the stream. The same module encodes a perfev_record
 * back into bytes (perfev_record_encode), byte-exact for what it decoded.
 *
 * Pointers inside a decoded record point either into the input bytes or into
 * the decoder's scratch storage: they are valid until the next decode call on
 * the same decoder, or until the input bytes go away, whichever comes first.
 * Arrays of integers (callchain, branch entries, registers, read values) are
 * always copied into aligned, host-endian scratch storage.
 *
 * Every length is checked against the record size: a malformed record yields
 * -EINVAL (perfev_errmsg() says which field overflowed), never a read past it.
 */
#ifndef PERFEV_RECORD_H
#define PERFEV_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "perfev/abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Newer kernel constants the system header may lack. */
#ifndef PERF_RECORD_MISC_MMAP_BUILD_ID
#define PERF_RECORD_MISC_MMAP_BUILD_ID (1 << 14)
#endif
/* perf's own misc bit for HEADER_BUILD_ID: the size byte is valid. */
#define PERFEV_RECORD_MISC_BUILD_ID_SIZE (1 << 15)

/* The sample_id trailer of non-sample records (attr.sample_id_all). */
struct perfev_sample_id {
	uint32_t pid, tid;
	uint64_t time, id, stream_id;
	uint32_t cpu, res;
	uint64_t identifier;
};

struct perfev_read_value {
	uint64_t value, id, lost;
};
/* The read_format block of SAMPLE (PERF_SAMPLE_READ) and READ records. */
struct perfev_read_data {
	uint64_t nr; /* 1 unless PERF_FORMAT_GROUP */
	uint64_t time_enabled, time_running;
	const struct perfev_read_value *values; /* nr entries */
};

struct perfev_branch_entry {
	uint64_t from, to;
	uint64_t flags; /* mispred:1 predicted:1 in_tx:1 abort:1 cycles:16 type:4 spec:2 new_type:4 priv:3 */
};

struct perfev_regs {
	uint64_t abi; /* PERF_SAMPLE_REGS_ABI_*; 0: no registers follow */
	uint64_t mask; /* the attr's register mask */
	uint32_t nr;
	const uint64_t *regs;
};

/* PERF_RECORD_SAMPLE: the fields present are those of attr.sample_type. */
struct perfev_sample {
	uint64_t sample_type; /* of the attr that produced it */
	uint64_t identifier, ip;
	uint32_t pid, tid;
	uint64_t time, addr, id, stream_id;
	uint32_t cpu, cpu_res;
	uint64_t period;
	struct perfev_read_data read;
	uint64_t callchain_nr;
	const uint64_t *callchain; /* PERF_CONTEXT_* markers included */
	uint32_t raw_size;
	const void *raw;
	uint64_t branch_nr, branch_hw_idx; /* hw_idx when branch_sample_type has HW_INDEX */
	bool branch_has_hw_idx;
	const struct perfev_branch_entry *branches;
	const uint64_t *branch_counters; /* branch_nr entries when PERF_SAMPLE_BRANCH_COUNTERS */
	struct perfev_regs regs_user, regs_intr;
	uint64_t stack_user_size, stack_user_dyn_size;
	const void *stack_user;
	uint64_t weight; /* PERF_SAMPLE_WEIGHT, or the union of WEIGHT_STRUCT */
	uint64_t data_src, transaction;
	uint64_t phys_addr, cgroup, data_page_size, code_page_size;
	uint64_t aux_size;
	const void *aux;
};

/* One kernel or perf-file record, decoded. `type` says which member is set. */
struct perfev_record {
	uint32_t type;   /* PERF_RECORD_* or PERFEV_RECORD_* */
	uint16_t misc;
	uint16_t size;   /* header.size */
	const void *bytes; /* the record as given (size bytes) */
	int attr_idx;    /* index of the attr (decoder order) it belongs to; -1 if none */
	bool has_sid;    /* sid holds the sample_id trailer */
	struct perfev_sample_id sid;
	union {
		struct perfev_sample sample;
		struct { uint32_t pid, tid; uint64_t addr, len, pgoff;
			 uint32_t maj, min; uint64_t ino, ino_generation;
			 uint32_t prot, flags;
			 uint8_t build_id_size; uint8_t build_id[20];
			 const char *filename; } mmap; /* MMAP and MMAP2 (maj.. only in MMAP2) */
		struct { uint64_t id, lost; } lost;
		struct { uint32_t pid, tid; const char *comm; } comm;
		struct { uint32_t pid, ppid, tid, ptid; uint64_t time; } fork; /* FORK, EXIT */
		struct { uint64_t time, id, stream_id; } throttle; /* THROTTLE, UNTHROTTLE */
		struct { uint32_t pid, tid; struct perfev_read_data values; } read;
		struct { uint64_t aux_offset, aux_size, flags; } aux;
		struct { uint32_t pid, tid; } itrace_start;
		struct { uint64_t lost; } lost_samples;
		struct { uint32_t next_prev_pid, next_prev_tid; } switch_cpu_wide; /* zero for SWITCH */
		struct { uint32_t pid, tid; uint64_t nr; const uint64_t *dev_inode; /* 2*nr */ } namespaces;
		struct { uint64_t addr; uint32_t len; uint16_t ksym_type, flags; const char *name; } ksymbol;
		struct { uint16_t type, flags; uint32_t id; uint8_t tag[8]; } bpf_event;
		struct { uint64_t id; const char *path; } cgroup;
		struct { uint64_t addr; uint16_t old_len, new_len; const uint8_t *bytes; } text_poke;
		struct { uint64_t hw_id; } aux_output_hw_id;

		/* perf.data records */
		struct { const struct perfev_attr *attr; uint32_t attr_size;
			 uint64_t nr_ids; const uint64_t *ids; } header_attr;
		struct { uint32_t size; } tracing_data; /* size bytes of data follow the record */
		struct { int32_t pid; uint8_t size; uint8_t build_id[20]; const char *filename; } build_id;
		struct { uint64_t nr; const uint64_t *entries; /* 4*nr: id, idx, cpu, tid */ } id_index;
		struct { uint32_t type; uint64_t nr_priv; const uint64_t *priv; } auxtrace_info;
		struct { uint64_t size, offset, reference; uint32_t idx, tid, cpu; } auxtrace; /* size bytes follow */
		struct { uint32_t type, code, cpu, pid, tid, fmt; uint64_t ip, time;
			 const char *msg; uint32_t machine_pid, vcpu; } auxtrace_error;
		struct { uint64_t nr; const uint64_t *pids; const char *comms; /* nr*16 bytes */ } thread_map;
		struct { uint16_t type; uint32_t nr; const uint32_t *cpus; } cpu_map; /* cpus expanded */
		struct { uint64_t nr; const uint64_t *tag_val; /* 2*nr */ } stat_config;
		struct { uint64_t id; uint32_t cpu, thread; uint64_t val, ena, run; } stat;
		struct { uint64_t type, time; } stat_round;
		struct { uint64_t type, id; double scale; const char *str; /* unit/name */
			 uint32_t nr_cpus; const uint32_t *cpus; } event_update;
		struct { uint64_t time_shift, time_mult, time_zero, time_cycles, time_mask;
			 uint8_t cap_user_time_zero, cap_user_time_short; bool extended; } time_conv;
		struct { uint64_t feat_id; const void *data; size_t size; } feature;
		struct { uint64_t data_size; const void *data; } compressed; /* COMPRESSED, COMPRESSED2 */
	} u;
};

/* ---- the decoder ---------------------------------------------------------- */
struct perfev_decoder;

PERFEV_API struct perfev_decoder *perfev_decoder_new(void);
PERFEV_API void perfev_decoder_free(struct perfev_decoder *dec);
/*
 * Adds the attr of one event (copied; attr->size 0 means the full struct)
 * with the sample ids its records carry (may be NULL/0: then the attr is used
 * for records whose id matches no other attr). Returns the attr's index.
 */
PERFEV_API int perfev_decoder_add_attr(struct perfev_decoder *dec, const struct perfev_attr *attr,
				       const uint64_t *ids, size_t nr_ids);
/* Adds ids to an attr added before (HEADER_ATTR, ID_INDEX). */
PERFEV_API int perfev_decoder_add_ids(struct perfev_decoder *dec, int attr_idx,
				      const uint64_t *ids, size_t nr_ids);
PERFEV_API size_t perfev_decoder_nr_attrs(const struct perfev_decoder *dec);
PERFEV_API const struct perfev_attr *perfev_decoder_attr(const struct perfev_decoder *dec, int attr_idx);
/* The attr index for a sample id, or -1. */
PERFEV_API int perfev_decoder_attr_of_id(const struct perfev_decoder *dec, uint64_t id);
/* Bytes come from a machine of the other byte order (set by the perf.data reader). */
PERFEV_API void perfev_decoder_set_swap(struct perfev_decoder *dec, bool swap);
/*
 * Decodes one record from bytes[0..len): len must cover header.size.
 * Returns the record's size (header.size) or -EINVAL (malformed),
 * -ENOENT (a sample whose id matches no attr; out->attr_idx is -1).
 */
PERFEV_API int perfev_decoder_decode(struct perfev_decoder *dec, const void *bytes, size_t len,
				     struct perfev_record *out);
/*
 * The timestamp of a kernel record without decoding all of it: the sample's
 * time or the sample_id trailer's. Returns 0 and sets *time, or -ENOENT if
 * it has none (user records, no PERF_SAMPLE_TIME).
 */
PERFEV_API int perfev_decoder_record_time(struct perfev_decoder *dec, const void *bytes,
					  size_t len, uint64_t *time);

/* ---- the encoder ---------------------------------------------------------- */
/*
 * Encodes rec into buf (cap bytes) as the kernel or perf would write it,
 * given attr for samples and sample_id trailers (may be NULL for user
 * records). The size written is computed, not taken from rec->size; strings
 * are NUL-padded to 8 bytes. Returns the record's size, or -ENOSPC when cap
 * is too small (the size it needs is in errno's message), -EINVAL when the
 * record cannot be encoded (over 65535 bytes, unknown type).
 */
PERFEV_API int perfev_record_encode(const struct perfev_record *rec, const struct perfev_attr *attr,
				    void *buf, size_t cap);

/* ---- words for people ------------------------------------------------------ */
/* The record type's name as perf prints it ("MMAP2", "SAMPLE", "FINISHED_ROUND"). */
PERFEV_API const char *perfev_record_type_name(uint32_t type);
/* The size of a sample_id trailer for this attr (0 without sample_id_all). */
PERFEV_API size_t perfev_sample_id_size(const struct perfev_attr *attr);
/* Writes words for misc bits ("user", "kernel|exact_ip"). Returns strlen (snprintf). */
PERFEV_API int perfev_misc_str(char *buf, size_t len, uint32_t type, uint16_t misc);
/* data_src as perf script prints it ("|OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 hit|LCK No|BLK  N/A"). */
PERFEV_API int perfev_data_src_str(char *buf, size_t len, uint64_t data_src);
/* Branch entry flags ("M", "P", "X", "A", cycles, type: "P/-/-/0/COND"). */
PERFEV_API int perfev_branch_flags_str(char *buf, size_t len, uint64_t flags);
/* Transaction bits ("ELISION|TRANSACTION|SYNC|ASYNC|RETRY|CONFLICT|...|abort 0x..") */
PERFEV_API int perfev_transaction_str(char *buf, size_t len, uint64_t txn);
/* sample_type bits as perf names them ("IP|TID|TIME|CPU|PERIOD"). */
PERFEV_API int perfev_sample_type_str(char *buf, size_t len, uint64_t sample_type);

#ifdef __cplusplus
}
#endif
#endif /* PERFEV_RECORD_H */
