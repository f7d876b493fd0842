/*
 * perfev/perfdata.h — perf.data files: reading (file and pipe mode, either
 * byte order, zstd-compressed records, header features, time-ordered
 * delivery) and writing (what `perf report` and `perf script` read).
 *
 * The format is tools/perf's: a file header, the event attrs with their
 * sample ids, the data section of records, then the header features.
 * Pipe mode has a 16-byte header and carries attrs and features as records.
 */
#ifndef PERFEV_PERFDATA_H
#define PERFEV_PERFDATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "perfev/abi.h"
#include "perfev/record.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Header feature bits (tools/perf/util/header.h). */
enum perfev_feat {
	PERFEV_FEAT_TRACING_DATA = 1, PERFEV_FEAT_BUILD_ID, PERFEV_FEAT_HOSTNAME,
	PERFEV_FEAT_OSRELEASE, PERFEV_FEAT_VERSION, PERFEV_FEAT_ARCH, PERFEV_FEAT_NRCPUS,
	PERFEV_FEAT_CPUDESC, PERFEV_FEAT_CPUID, PERFEV_FEAT_TOTAL_MEM, PERFEV_FEAT_CMDLINE,
	PERFEV_FEAT_EVENT_DESC, PERFEV_FEAT_CPU_TOPOLOGY, PERFEV_FEAT_NUMA_TOPOLOGY,
	PERFEV_FEAT_BRANCH_STACK, PERFEV_FEAT_PMU_MAPPINGS, PERFEV_FEAT_GROUP_DESC,
	PERFEV_FEAT_AUXTRACE, PERFEV_FEAT_STAT, PERFEV_FEAT_CACHE, PERFEV_FEAT_SAMPLE_TIME,
	PERFEV_FEAT_MEM_TOPOLOGY, PERFEV_FEAT_CLOCKID, PERFEV_FEAT_DIR_FORMAT,
	PERFEV_FEAT_BPF_PROG_INFO, PERFEV_FEAT_BPF_BTF, PERFEV_FEAT_COMPRESSED,
	PERFEV_FEAT_CPU_PMU_CAPS, PERFEV_FEAT_CLOCK_DATA, PERFEV_FEAT_HYBRID_TOPOLOGY,
	PERFEV_FEAT_PMU_CAPS,
	PERFEV_FEAT_MAX = 256
};

/* ======================= writing ============================================ */

/* One event of the file: its attr, name and the sample ids of its fds. */
struct perfev_perfdata_event {
	const struct perfev_attr *attr;
	const char *name;     /* NULL: named after type/config */
	const uint64_t *ids;  /* PERF_EVENT_IOC_ID of each fd (may be NULL) */
	size_t nr_ids;
};

struct perfev_perfdata_write_opts {
	size_t sz;              /* sizeof(struct perfev_perfdata_write_opts) */
	bool pipe;              /* pipe mode (always for a non-seekable fd) */
	int compress_level;     /* 0: none; 1..22: zstd level, COMPRESSED records */
	int argc;               /* the recording's command line, for CMDLINE */
	char *const *argv;
	bool no_host_features;  /* leave out hostname, cpuid, topology... (tests) */
};
#define perfev_perfdata_write_opts__last_field no_host_features

struct perfev_perfdata_writer;

/*
 * Opens a writer on path (created or truncated; "-" is stdout) or, when path
 * is NULL, on fd (not closed by the writer). The events' attrs, names and ids
 * are copied. Host features (hostname, osrelease, arch, nrcpus, cpudesc,
 * cpuid, total memory, topology, clock) are collected now, so finalize need
 * not. In file mode the header is written at once and rewritten by finalize.
 * Returns NULL with errno and perfev_errmsg() on failure.
 */
PERFEV_API struct perfev_perfdata_writer *
perfev_perfdata_writer_open(const char *path, int fd, const struct perfev_perfdata_event *events,
			    size_t nr_events, const struct perfev_perfdata_write_opts *opts);
/*
 * Appends whole records (bytes as the kernel wrote them, any number of
 * records back to back). With compression they are compressed into
 * COMPRESSED records now. Returns 0 or -errno.
 */
PERFEV_API int perfev_perfdata_writer_write(struct perfev_perfdata_writer *w, const void *bytes, size_t len);
/* Appends a FINISHED_ROUND record: everything before it may be sorted by
 * time against everything after it (write one after draining all buffers). */
PERFEV_API int perfev_perfdata_writer_finish_round(struct perfev_perfdata_writer *w);
/* Records the build-id of a binary (cpumode PERF_RECORD_MISC_KERNEL or _USER;
 * pid -1 for the kernel, as perf does). Kept for the BUILD_ID feature. */
PERFEV_API int perfev_perfdata_writer_add_build_id(struct perfev_perfdata_writer *w, int32_t pid,
						   uint16_t cpumode, const uint8_t *build_id,
						   size_t len, const char *filename);
/*
 * Finishes the file: writes the features after the data and rewrites the
 * header with the final data size (file mode), or writes the build-ids as
 * records (pipe mode). Async-signal-safe: only write/pwrite/lseek on memory
 * prepared earlier, so a SIGINT handler may call it. May be called more
 * than once; records written after it land after the features and are lost
 * to readers until it is called again.
 */
PERFEV_API int perfev_perfdata_writer_finalize(struct perfev_perfdata_writer *w);
/* Finalizes (if needed), closes the file and frees. Returns the finalize status. */
PERFEV_API int perfev_perfdata_writer_close(struct perfev_perfdata_writer *w);
/* Bytes of record data written so far (uncompressed). */
PERFEV_API uint64_t perfev_perfdata_writer_data_size(const struct perfev_perfdata_writer *w);

/* ======================= reading ============================================ */
struct perfev_perfdata;

/* Opens a perf.data file; "-" reads a pipe-mode stream from stdin. The file
 * header, attrs and features are read now (pipe mode: as records arrive). */
PERFEV_API struct perfev_perfdata *perfev_perfdata_open(const char *path);
/* The same on an open descriptor (not closed by perfev_perfdata_close). */
PERFEV_API struct perfev_perfdata *perfev_perfdata_open_fd(int fd);
PERFEV_API void perfev_perfdata_close(struct perfev_perfdata *pd);
/* The input as messages name it: the path given, "standard input" for "-",
 * "the input" for a descriptor. Lives as long as pd. */
PERFEV_API const char *perfev_perfdata_path(const struct perfev_perfdata *pd);
/*
 * NULL when the file was closed cleanly; else a message naming the file and
 * what is wrong with its end ("perf.data was not closed cleanly: its header's
 * data size is 0 (was the recording killed?)..."). Known at open for a file
 * whose header was never finalized or that is shorter than its header says,
 * and after perfev_perfdata_process() for one (or a pipe-mode stream) that
 * ends inside a record. Such a file is read up to its last whole record, as
 * perf does, instead of failing; the caller decides how to warn.
 */
PERFEV_API const char *perfev_perfdata_unclean(const struct perfev_perfdata *pd);

PERFEV_API bool perfev_perfdata_is_pipe(const struct perfev_perfdata *pd);
/* The file was written on a machine of the other byte order. */
PERFEV_API bool perfev_perfdata_is_swapped(const struct perfev_perfdata *pd);
/*
 * Whether the recording was made on the running kernel, so that its kernel
 * addresses may be named from this machine's /proc/kallsyms: the kernel
 * build-id of the BUILD_ID feature equals /sys/kernel/notes', or, without
 * one, the OSRELEASE feature equals uname's release; true when the file
 * says neither (perf too falls back to the running kernel then).
 */
PERFEV_API bool perfev_perfdata_kernel_is_running(const struct perfev_perfdata *pd);
/* One entry of the BUILD_ID feature: pid (-1 for the kernel), cpumode
 * (PERF_RECORD_MISC_KERNEL or _USER), the file as recorded, its build-id.
 * Return non-zero to stop. */
typedef int (*perfev_build_id_fn)(void *ctx, int32_t pid, uint16_t cpumode, const char *filename,
				  const uint8_t *build_id, size_t len);
/* Calls fn for each entry of the BUILD_ID feature; returns 0, fn's non-zero
 * value, or -EBADMSG for a malformed section. */
PERFEV_API int perfev_perfdata_build_ids(const struct perfev_perfdata *pd, perfev_build_id_fn fn, void *ctx);
/* Events: attrs (host order), names (EVENT_DESC, EVENT_UPDATE or derived). */
PERFEV_API size_t perfev_perfdata_nr_events(const struct perfev_perfdata *pd);
PERFEV_API const struct perfev_attr *perfev_perfdata_event_attr(const struct perfev_perfdata *pd, size_t i);
PERFEV_API const char *perfev_perfdata_event_name(const struct perfev_perfdata *pd, size_t i);
/* The sample ids of event i (*nr of them; NULL when none). */
PERFEV_API const uint64_t *perfev_perfdata_event_ids(const struct perfev_perfdata *pd, size_t i, size_t *nr);
/* The decoder set up with the file's attrs and ids. */
PERFEV_API struct perfev_decoder *perfev_perfdata_decoder(struct perfev_perfdata *pd);

PERFEV_API bool perfev_perfdata_has_feature(const struct perfev_perfdata *pd, int feat);
/* A feature section's raw bytes (file byte order), or NULL. */
PERFEV_API const void *perfev_perfdata_feature(const struct perfev_perfdata *pd, int feat, size_t *size);
/* A string feature (HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC, CPUID), or NULL. */
PERFEV_API const char *perfev_perfdata_feature_str(const struct perfev_perfdata *pd, int feat);
/*
 * The idx-th string of a list feature, or NULL past its end: CMDLINE (the
 * recorder's path, then its arguments), CPU_TOPOLOGY (the core sibling lists,
 * then the thread sibling lists), PMU_MAPPINGS ("type name" pairs as "name").
 */
PERFEV_API const char *perfev_perfdata_feature_list(const struct perfev_perfdata *pd, int feat, size_t idx);
/*
 * The socket (physical package) of each CPU from the CPU_TOPOLOGY feature, as
 * perf reads it: out[cpu] for cpu < min(NRCPUS' available CPUs, max), -1
 * where the file says -1. Returns the number of CPUs the file describes
 * (may exceed max), or 0 when it gives no socket ids: no feature, an old
 * perf's sibling lists alone, a truncated section, or a socket id above the
 * CPU count (perf then drops them all, but on s390 and aarch64).
 */
PERFEV_API int perfev_perfdata_cpu_sockets(const struct perfev_perfdata *pd, int32_t *out, size_t max);
/*
 * Prints the file's header as `perf report --header-only` (perf 6.1) does,
 * from "# ========" to "# ========\n#\n": layout, each feature in feature
 * order, the features missing. The CPU/NUMA/cache/memory/hybrid topologies
 * are "info available" unless full (perf's -I). File mode only (ENOTSUP
 * for a pipe). 0 or -errno.
 */
PERFEV_API int perfev_perfdata_print_header(const struct perfev_perfdata *pd, FILE *out, bool full);

/* What perf evlist shows of each event (zero past sz: names only). */
struct perfev_evlist_opts {
	size_t sz;     /* sizeof(struct perfev_evlist_opts) */
	bool verbose;  /* -v: every attr field that is not zero, as perf prints them */
	bool freq;     /* -F: its sample_freq or sample_period */
	bool group;    /* -g: the groups, "{leader,member}" (not with verbose or freq: EINVAL) */
	/* --trace-fields: each tracepoint's fields (the file's formats, else
	 * this machine's), "(not a tracepoint)" for the others */
	bool trace_fields;
};
#define perfev_evlist_opts__last_field trace_fields
/*
 * perf evlist (perf 6.1) of pd: one line per event of the file, its name,
 * and o's details; after them, for files with tracepoints, perf's tip
 * line. o NULL: names only. 0 or -errno (EINVAL: bad options, EIO: a
 * failed write).
 */
PERFEV_API int perfev_perfdata_print_evlist(const struct perfev_perfdata *pd, const struct perfev_evlist_opts *o,
					     FILE *out);
/* The name perf gives a feature ("hostname", "build_id", ...). */
PERFEV_API const char *perfev_feat_name(int feat);

struct perfev_perfdata_info {
	uint32_t nr_cpus_avail, nr_cpus_online; /* NRCPUS */
	uint64_t total_mem_kb;                  /* TOTAL_MEM */
	uint64_t clockid_res_ns;                /* CLOCKID */
	uint32_t clockid;                       /* CLOCK_DATA */
	uint64_t clock_tod_ns, clock_clockid_ns;
	uint32_t comp_type, comp_level, comp_ratio, comp_mmap_len; /* COMPRESSED */
	uint64_t data_offset, data_size;        /* the data section (file mode) */
};
PERFEV_API void perfev_perfdata_info(const struct perfev_perfdata *pd, struct perfev_perfdata_info *out);

/* Called for each record; a non-zero return stops processing and is returned. */
typedef int (*perfev_perfdata_cb)(void *ctx, const struct perfev_record *rec);

struct perfev_perfdata_read_opts {
	size_t sz;        /* sizeof(struct perfev_perfdata_read_opts) */
	bool unordered;   /* deliver in file order (default: time order by rounds, as perf) */
	bool keep_going;  /* skip records that do not decode instead of failing */
};
#define perfev_perfdata_read_opts__last_field keep_going

/*
 * Delivers every record of the data section (decompressed; AUXTRACE and
 * TRACING_DATA payloads skipped) to cb. Kernel records with a timestamp are
 * delivered in time order using FINISHED_ROUND as perf does; the others as
 * they come. A file may be processed again; a pipe only once.
 * HEADER_ATTR, HEADER_FEATURE and EVENT_UPDATE records
 * update the events before cb sees them. Returns 0, cb's non-zero value, or
 * -errno (perfev_errmsg() names the offset and the problem).
 */
PERFEV_API int perfev_perfdata_process(struct perfev_perfdata *pd, const struct perfev_perfdata_read_opts *opts,
				       perfev_perfdata_cb cb, void *ctx);

/* Counts of what process() saw: records by type, and problems. */
struct perfev_perfdata_stats {
	uint64_t nr_records[128];
	uint64_t nr_unknown_id, nr_bad, nr_unordered, nr_lost_events, nr_lost_samples;
};
PERFEV_API void perfev_perfdata_stats(const struct perfev_perfdata *pd, struct perfev_perfdata_stats *out);

/* Per event, what process() delivered since the file was opened, counted
 * as perf report --stats counts it: SAMPLE records of the event (with
 * PERF_SAMPLE_READ: one for each member of the sample's values whose count
 * moved, as perf delivers them), and the samples its LOST_SAMPLES records
 * say were lost. */
struct perfev_perfdata_event_stats {
	uint64_t nr_samples, nr_lost_samples;
};
/* Event i's counts; 0, or -ERANGE past the last event. */
PERFEV_API int perfev_perfdata_event_stats(const struct perfev_perfdata *pd, size_t i,
					   struct perfev_perfdata_event_stats *out);
/*
 * Prints what `perf report --stats` (perf 6.1) prints, from the counts of a
 * perfev_perfdata_process() pass: "Aggregated stats:" (with perf's note
 * on files with an AUX area trace), the TOTAL and each record type seen
 * (perf's names, in type order, with its share of the total), then
 * "<event> stats:" with the event's SAMPLE and LOST_SAMPLES counts for
 * each event that has any. Record types perf 6.1 does not know (83 and
 * up) are left out of the total, as they are of perf's (which refuses
 * them). 0 or -errno.
 */
PERFEV_API int perfev_perfdata_print_stats(const struct perfev_perfdata *pd, FILE *out);
/* The same counts as one JSON object (a line): {"aux_area_excluded": bool,
 * "total": N, "records": {"MMAP": n, ...} (the types seen, perf's names),
 * "events": [{"name": ..., "samples": n, "lost_samples": n}, ...] (every
 * event, those without samples too)}. 0 or -errno. */
PERFEV_API int perfev_perfdata_print_stats_json(const struct perfev_perfdata *pd, FILE *out);

/* The event name perf would derive from an attr ("cycles", "cpu-clock:u", "raw 0x1c4"). */
PERFEV_API int perfev_attr_name(const struct perfev_attr *attr, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif /* PERFEV_PERFDATA_H */
