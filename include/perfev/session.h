/*
 * perfev/session.h — the session model: processes, threads, their names and
 * memory maps over time, built from COMM, FORK, EXIT, MMAP and MMAP2 records
 * (from a perf.data file or a live ring buffer) delivered in time order.
 * report, script, top and every exporter ask it who ran and what was mapped
 * where at the time of a sample.
 */
#ifndef PERFEV_SESSION_H
#define PERFEV_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "perfev/location.h"
#include "perfev/record.h"

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_session;

PERFEV_API struct perfev_session *perfev_session_new(void);
PERFEV_API void perfev_session_free(struct perfev_session *s);

/*
 * Feeds one decoded record. COMM, FORK, EXIT, MMAP and MMAP2 change the
 * model; a SAMPLE makes its thread known; other records are ignored.
 * Returns 0 or -ENOMEM.
 */
PERFEV_API int perfev_session_process(struct perfev_session *s, const struct perfev_record *rec);

/* The thread's current name: the last COMM it got (or inherited by FORK);
 * ":TID" for a thread never named, as perf shows it; "swapper" for tid 0. */
PERFEV_API const char *perfev_session_comm(struct perfev_session *s, uint32_t tid);
/* The name the thread had at `time` (the first name if it had none yet). */
PERFEV_API const char *perfev_session_comm_at(struct perfev_session *s, uint32_t tid, uint64_t time);
/* The process of a thread, or -1 if unknown. */
PERFEV_API int64_t perfev_session_thread_pid(struct perfev_session *s, uint32_t tid);
PERFEV_API size_t perfev_session_nr_threads(const struct perfev_session *s);

/*
 * The map holding addr in process pid (tid when pid is unknown) at `time`:
 * cpumode PERF_RECORD_MISC_KERNEL / _GUEST_KERNEL looks in the kernel's maps,
 * anything else in the process's. A later mapping over the same addresses
 * hides an earlier one from its time on; exec (COMM with COMM_EXEC) unmaps
 * everything. NULL if nothing is mapped there. The map lives as long as s.
 */
PERFEV_API const struct perfev_map *perfev_session_find_map(struct perfev_session *s, uint32_t pid, uint32_t tid,
							    uint8_t cpumode, uint64_t addr, uint64_t time);

/*
 * Build-ids for maps recorded without one (MMAP, MMAP2 with device and
 * inode): a map of `path` mapped after this call carries build_id. Returns
 * 0 or -errno.
 */
PERFEV_API int perfev_session_add_build_id(struct perfev_session *s, const char *path,
					   const uint8_t *build_id, size_t len);
/* The same for every entry of a recording's BUILD_ID feature: call it before
 * feeding the file's records. Returns 0 or -errno. */
struct perfev_perfdata;
PERFEV_API int perfev_session_add_build_ids(struct perfev_session *s, const struct perfev_perfdata *pd);

#ifdef __cplusplus
}
#endif
#endif /* PERFEV_SESSION_H */
