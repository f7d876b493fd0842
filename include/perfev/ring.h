/*
 * perfev/ring.h — the mmap ring buffer of a sampling event: the records the
 * kernel writes (samples and side-band), read without a system call.
 *
 * A ring is one user page (struct perf_event_mmap_page) followed by 2^n data
 * pages. In the normal mode the mapping is writable and the reader tells the
 * kernel how far it has read through data_tail; the kernel never overwrites
 * unread records (it counts them as PERF_RECORD_LOST instead). In overwrite
 * mode (attr.write_backward = 1, read-only mapping) the kernel writes
 * backwards and keeps overwriting the oldest records: a flight recorder whose
 * latest records are read on demand, newest first.
 *
 * Reading is a batch: perfev_ring_read_begin() snapshots data_head,
 * perfev_ring_read_next() yields each raw record (pointer and size; a record
 * that wraps around the end of the buffer is copied into the ring's scratch
 * buffer so it is always contiguous), perfev_ring_read_end() hands the space
 * back to the kernel. Records are not decoded here: the records module
 * (perfev/record.h) decodes them given the attr that produced them.
 *
 * A ring is used by one thread at a time.
 */
#ifndef PERFEV_RING_H
#define PERFEV_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "perfev/abi.h"

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_ring;

/*
 * Maps the ring buffer of the event fd: one user page and data_pages data
 * pages. data_pages must be a power of two (1, 2, 4, ...); 0 picks the
 * default (the largest power of two up to 128 pages, 512 KiB with 4 KiB
 * pages, that fits in /proc/sys/kernel/perf_event_mlock_kb). overwrite
 * maps read-only: the event must have been opened with
 * attr.write_backward = 1 (see perfev_ring_read_begin).
 * Fails with EINVAL for a size that is not a power of two, and explains
 * EPERM/ENOMEM (the perf_event_mlock_kb limit per user, RLIMIT_MEMLOCK) with
 * the fixes: raise the limit, map fewer pages, or grant CAP_IPC_LOCK.
 * Returns the ring or NULL (errno set, perfev_errmsg() explains).
 */
PERFEV_API struct perfev_ring *perfev_ring_mmap(int fd, size_t data_pages, bool overwrite);
/* Unmaps (data and AUX area) and frees. Does not close the fd. NULL is fine. */
PERFEV_API void perfev_ring_munmap(struct perfev_ring *ring);

/*
 * A ring over memory the caller owns: `page` plays the user page (only its
 * data_head, data_tail, aux_head, aux_tail fields are used) and `data` the
 * data area of data_size bytes (a power of two). For tests and for reading
 * a copy of a ring; the ring does not free either.
 */
PERFEV_API struct perfev_ring *perfev_ring_wrap(struct perf_event_mmap_page *page, void *data,
						size_t data_size, bool overwrite);

/* The event fd (-1 for a wrapped ring), the user page, the data size in bytes. */
PERFEV_API int perfev_ring_fd(const struct perfev_ring *ring);
PERFEV_API struct perf_event_mmap_page *perfev_ring_user_page(const struct perfev_ring *ring);
PERFEV_API size_t perfev_ring_data_size(const struct perfev_ring *ring);
PERFEV_API bool perfev_ring_is_overwrite(const struct perfev_ring *ring);

/*
 * Starts a read batch. Normal mode: snapshots data_head (acquire) and
 * returns the number of unread bytes. Overwrite mode: pauses the kernel's
 * output (PERF_EVENT_IOC_PAUSE_OUTPUT, if the ring has an fd) so the buffer
 * holds still, snapshots data_head, and returns the number of bytes holding
 * records written since the previous batch (at most the buffer size).
 * Returns -errno on failure.
 */
PERFEV_API int64_t perfev_ring_read_begin(struct perfev_ring *ring);
/*
 * The next raw record of the batch: *rec points at its perf_event_header,
 * *size is header.size. Normal mode yields records oldest first, overwrite
 * mode newest first. The pointer stays valid until the next call or
 * read_end. Returns 1 for a record, 0 at the end of the batch, -EBADMSG if
 * a header claims an impossible size (the rest of the batch is skipped).
 */
PERFEV_API int perfev_ring_read_next(struct perfev_ring *ring, const void **rec, size_t *size);
/*
 * Ends the batch. Normal mode: stores data_tail (release) so the kernel may
 * reuse what was read. Overwrite mode: resumes the output. Returns 0 or -errno.
 */
PERFEV_API int perfev_ring_read_end(struct perfev_ring *ring);

/*
 * Calls fn for every record available now (one batch) and returns how many
 * it saw, or -errno. fn returning non-zero stops early (the record it was
 * given counts as read).
 */
typedef int (*perfev_ring_record_fn)(void *ctx, const void *rec, size_t size);
PERFEV_API int64_t perfev_ring_drain(struct perfev_ring *ring, perfev_ring_record_fn fn, void *ctx);

/* Pause/resume the kernel's writing into this ring (PAUSE_OUTPUT). */
PERFEV_API int perfev_ring_pause(struct perfev_ring *ring, bool pause);

/*
 * Sends the records of event `fd` into this ring (PERF_EVENT_IOC_SET_OUTPUT),
 * so one buffer per CPU serves many events. fd must be on the same CPU (or
 * the same task) as the ring's event, must not be mapped itself, and must
 * use the same clock. Tell the records apart with PERF_SAMPLE_IDENTIFIER and
 * perfev_ring_record_id().
 */
PERFEV_API int perfev_ring_add_event(struct perfev_ring *ring, int fd);

/*
 * The AUX area (for PMUs that trace into a separate buffer: Intel PT, CoreSight,
 * SPE...). Sets aux_offset/aux_size in the user page and maps aux_pages pages
 * (a power of two) after the data area; writable unless overwrite (then the
 * PMU overwrites old data: snapshot mode). Returns 0 or -errno. The PMU
 * reports what it wrote with PERF_RECORD_AUX (aux_offset, aux_size, flags).
 */
PERFEV_API int perfev_ring_aux_mmap(struct perfev_ring *ring, size_t aux_pages, bool overwrite);
/* Same for memory the caller owns (tests). */
PERFEV_API int perfev_ring_aux_wrap(struct perfev_ring *ring, void *aux, size_t aux_size);
PERFEV_API size_t perfev_ring_aux_size(const struct perfev_ring *ring);
/*
 * The unread AUX bytes [aux_tail, aux_head) (aux_head read with acquire), as
 * at most two pieces because the area wraps: p1/n1 then p2/n2 (n2 may be
 * 0). Returns n1 + n2 (0: nothing new) or -errno (no AUX area).
 */
PERFEV_API int64_t perfev_ring_aux_peek(struct perfev_ring *ring, const void **p1, size_t *n1,
					const void **p2, size_t *n2);
/*
 * The bytes a PERF_RECORD_AUX names (aux_offset, aux_size as the kernel gives
 * them, offsets growing without bound), as at most two pieces.
 * Returns 0 or -EINVAL (larger than the area, or no AUX area).
 */
PERFEV_API int perfev_ring_aux_at(struct perfev_ring *ring, uint64_t offset, uint64_t size,
				  const void **p1, size_t *n1, const void **p2, size_t *n2);
/* Hands back `bytes` of the AUX area: aux_tail += bytes (release store). */
PERFEV_API int perfev_ring_aux_consume(struct perfev_ring *ring, uint64_t bytes);

/*
 * The id of the event that wrote a record, from PERF_SAMPLE_IDENTIFIER:
 * the first u64 after the header of PERF_RECORD_SAMPLE, the last u64 of
 * other kernel records (which carry it when attr.sample_id_all is set).
 * Only valid when every event writing into the ring has IDENTIFIER in its
 * sample_type. Returns 0 or -EINVAL (record too short, or a type that
 * carries no sample_id such as perf.data's own records).
 */
PERFEV_API int perfev_ring_record_id(const void *rec, size_t size, uint64_t *id);

/*
 * Wake-up settings on an attr before it is opened: poll(2) and signals fire
 * every `events` samples (wakeup_events), or, when bytes > 0, once `bytes`
 * of records are waiting (attr.watermark = 1, wakeup_watermark). One of the
 * two must be 0.
 */
PERFEV_API int perfev_attr_set_wakeup(struct perfev_attr *attr, uint32_t events, uint32_t bytes);

/* The default number of data pages (see perfev_ring_mmap) for the current limits. */
PERFEV_API size_t perfev_ring_default_pages(void);

#ifdef __cplusplus
}
#endif
#endif /* PERFEV_RING_H */
