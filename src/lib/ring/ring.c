/* ring.c — the mmap ring buffer consumer: normal and overwrite mode. */
#define _GNU_SOURCE
#include "core/internal.h"
#include "ring/ring_int.h"
#include "perfev/ring.h"
#include "perfev/sys.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define RING_SCRATCH (1u << 16) /* header.size is a u16: no record is larger */

static bool is_pow2(size_t n) { return n && !(n & (n - 1)); }

static size_t page_size(void)
{
	long ps = sysconf(_SC_PAGESIZE);
	return ps > 0 ? (size_t)ps : 4096;
}

PERFEV_API size_t perfev_ring_default_pages(void)
{
	struct perfev_sysctl s;
	perfev_sysctl_read(&s);
	size_t pages = 128;
	if (s.mlock_kb != PERFEV_SYSCTL_ABSENT && s.mlock_kb > 0) {
		/* perf's rule: the limit holds the user page plus the data. */
		size_t fit = (size_t)s.mlock_kb * 1024 / page_size();
		fit = fit > 1 ? fit - 1 : 1;
		while (pages > 1 && pages > fit)
			pages >>= 1;
	}
	return pages;
}

static struct perfev_ring *ring_alloc(void)
{
	struct perfev_ring *r = calloc(1, sizeof(*r));
	if (!r)
		return pv_error_null(ENOMEM, "ring: out of memory");
	r->scratch = malloc(RING_SCRATCH);
	if (!r->scratch) {
		free(r);
		return pv_error_null(ENOMEM, "ring: out of memory");
	}
	r->fd = -1;
	return r;
}

static void *explain_mmap_failure(int err, int fd, size_t pages, size_t len)
{
	struct perfev_sysctl s;
	perfev_sysctl_read(&s);
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	switch (err) {
	case EPERM:
		return pv_error_null(err,
			"mmap of %zu data pages (%zu KiB) for fd %d: over the locked-memory "
			"limit for perf buffers (perf_event_mlock_kb = %lld KiB per CPU, x %ld CPUs, "
			"for all of this user's buffers, then RLIMIT_MEMLOCK) and the process "
			"lacks CAP_IPC_LOCK; fix: raise the limit (sysctl -w "
			"kernel.perf_event_mlock_kb=N or ulimit -l), map fewer pages (-m), "
			"or run with CAP_IPC_LOCK",
			pages, len / 1024, fd, (long long)s.mlock_kb, ncpu);
	case ENOMEM:
		return pv_error_null(err,
			"mmap of %zu data pages (%zu KiB) for fd %d: not enough memory "
			"(or too many pages for the kernel's buffer); fix: map fewer pages (-m), "
			"or raise RLIMIT_MEMLOCK / kernel.perf_event_mlock_kb (now %lld KiB)",
			pages, len / 1024, fd, (long long)s.mlock_kb);
	case EINVAL:
		return pv_error_null(err,
			"mmap of %zu data pages for fd %d: the kernel refused the size; the "
			"event may already be mapped with another size, or its output was "
			"redirected with SET_OUTPUT; fix: map 1+2^n pages once per event",
			pages, fd);
	case EACCES:
	case EBADF:
	case ENODEV:
		return pv_error_null(err, "mmap of fd %d: not a perf event fd that can be mapped (%s)",
				     fd, strerror(err));
	default:
		return pv_error_null(err, "mmap of %zu data pages for fd %d: %s", pages, fd,
				     strerror(err));
	}
}

PERFEV_API struct perfev_ring *perfev_ring_mmap(int fd, size_t data_pages, bool overwrite)
{
	if (fd < 0)
		return pv_error_null(EBADF, "ring: fd %d is not an open event", fd);
	if (data_pages == 0)
		data_pages = perfev_ring_default_pages();
	if (!is_pow2(data_pages) || data_pages > (1u << 24))
		return pv_error_null(EINVAL,
			"ring: %zu data pages is not a power of two (1, 2, 4, ... up to 2^24); "
			"the kernel maps 1 + 2^n pages",
			data_pages);
	size_t ps = page_size();
	size_t len = (data_pages + 1) * ps;
	int prot = PROT_READ | (overwrite ? 0 : PROT_WRITE);
	void *map = mmap(NULL, len, prot, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return explain_mmap_failure(errno, fd, data_pages, data_pages * ps);
	struct perfev_ring *r = ring_alloc();
	if (!r) {
		munmap(map, len);
		return NULL;
	}
	r->fd = fd;
	r->map = map;
	r->map_len = len;
	r->page = map;
	/* Kernels since 4.1 publish where the data lives; older ones use page 1. */
	uint64_t off = r->page->data_offset ? r->page->data_offset : ps;
	uint64_t size = r->page->data_size ? r->page->data_size : data_pages * ps;
	r->data = (unsigned char *)map + off;
	r->size = size;
	r->overwrite = overwrite;
	return r;
}

PERFEV_API struct perfev_ring *perfev_ring_wrap(struct perf_event_mmap_page *page, void *data,
						size_t data_size, bool overwrite)
{
	if (!page || !data || !is_pow2(data_size))
		return pv_error_null(EINVAL, "ring_wrap: need a page, data and a power-of-two size (got %zu)",
				     data_size);
	struct perfev_ring *r = ring_alloc();
	if (!r)
		return NULL;
	r->page = page;
	r->data = data;
	r->size = data_size;
	r->overwrite = overwrite;
	return r;
}

PERFEV_API void perfev_ring_munmap(struct perfev_ring *r)
{
	if (!r)
		return;
	if (r->paused)
		perfev_ring_pause(r, false);
	if (r->aux_map)
		munmap(r->aux_map, r->aux_size);
	if (r->map)
		munmap(r->map, r->map_len);
	free(r->scratch);
	free(r);
}

PERFEV_API int perfev_ring_fd(const struct perfev_ring *r) { return r ? r->fd : -1; }
PERFEV_API struct perf_event_mmap_page *perfev_ring_user_page(const struct perfev_ring *r)
{
	return r ? r->page : NULL;
}
PERFEV_API size_t perfev_ring_data_size(const struct perfev_ring *r) { return r ? r->size : 0; }
PERFEV_API bool perfev_ring_is_overwrite(const struct perfev_ring *r) { return r && r->overwrite; }

PERFEV_API int perfev_ring_pause(struct perfev_ring *r, bool pause)
{
	if (!r || r->fd < 0)
		return pv_error(EINVAL, "ring: pause needs a mapped event");
	int e = perfev_ioc_pause_output(r->fd, pause);
	if (e == 0)
		r->paused = pause;
	return e;
}

PERFEV_API int perfev_ring_add_event(struct perfev_ring *r, int fd)
{
	if (!r || r->fd < 0)
		return pv_error(EINVAL, "ring: SET_OUTPUT needs a mapped event as target");
	int e = perfev_ioc_set_output(fd, r->fd);
	if (e == -EINVAL)
		return pv_error(EINVAL,
			"SET_OUTPUT of fd %d into the ring of fd %d: refused; both events must be "
			"on the same CPU (or the same task for per-thread events), use the same "
			"clock, and fd %d must not have its own mapping",
			fd, r->fd, fd);
	return e;
}

/* Copies len bytes at ring position pos into dst, across the end if need be. */
static void ring_copy(const struct perfev_ring *r, uint64_t pos, void *dst, size_t len)
{
	size_t off = pos & (r->size - 1);
	size_t first = PV_MIN(len, r->size - off);
	memcpy(dst, r->data + off, first);
	if (len > first)
		memcpy((unsigned char *)dst + first, r->data, len - first);
}

PERFEV_API int64_t perfev_ring_read_begin(struct perfev_ring *r)
{
	if (!r)
		return pv_error(EINVAL, "ring: NULL");
	if (r->overwrite) {
		if (r->fd >= 0 && !r->paused) {
			int e = perfev_ring_pause(r, true);
			if (e < 0)
				return e;
			r->paused_by_read = true;
		}
		/* acquire: the record bytes the kernel wrote before moving head are visible to us */
		r->head = __atomic_load_n(&r->page->data_head, __ATOMIC_ACQUIRE);
		/* Backwards, head decreases from 0: what is new lies in [head, prev). */
		uint64_t avail = r->prev_head - r->head;
		if (avail > r->size)
			avail = r->size;
		r->pos = r->head;
		r->end = r->head + avail;
	} else {
		/* acquire: the record bytes the kernel wrote before moving head are visible to us */
		r->head = __atomic_load_n(&r->page->data_head, __ATOMIC_ACQUIRE);
		r->pos = r->page->data_tail; /* only we write it */
		r->end = r->head;
		if (r->end - r->pos > r->size) {
			r->pos = r->end;
			return pv_error(EBADMSG,
				"ring: data_head %llu is %llu bytes past data_tail, more than the buffer holds",
				(unsigned long long)r->head,
				(unsigned long long)(r->head - r->page->data_tail));
		}
	}
	r->in_batch = true;
	return (int64_t)(r->end - r->pos);
}

PERFEV_API int perfev_ring_read_next(struct perfev_ring *r, const void **rec, size_t *size)
{
	if (!r || !r->in_batch)
		return pv_error(EINVAL, "ring: read_next outside read_begin/read_end");
	uint64_t left = r->end - r->pos;
	if (left == 0)
		return 0;
	struct perf_event_header h = {0};
	if (left >= sizeof(h))
		ring_copy(r, r->pos, &h, sizeof(h));
	if (left < sizeof(h) || h.size < sizeof(h) || h.size > left) {
		/* Overwrite mode: an unwritten area (zeros) or the oldest record,
		 * partly overwritten by the newest, ends the batch. */
		if (r->overwrite) {
			r->pos = r->end;
			return 0;
		}
		goto bad;
	}
	size_t off = r->pos & (r->size - 1);
	if (off + h.size <= r->size) {
		*rec = r->data + off;
	} else {
		ring_copy(r, r->pos, r->scratch, h.size);
		*rec = r->scratch;
	}
	*size = h.size;
	r->pos += h.size;
	return 1;
bad:;
	uint64_t at = r->pos;
	r->pos = r->end;
	return pv_error(EBADMSG, "ring: record at position %llu claims %u bytes but %llu remain",
			(unsigned long long)at, left < sizeof(h) ? 0u : h.size,
			(unsigned long long)left);
}

PERFEV_API int perfev_ring_read_end(struct perfev_ring *r)
{
	if (!r || !r->in_batch)
		return pv_error(EINVAL, "ring: read_end without read_begin");
	r->in_batch = false;
	if (r->overwrite) {
		r->prev_head = r->head;
		if (r->paused_by_read) {
			r->paused_by_read = false;
			return perfev_ring_pause(r, false);
		}
		return 0;
	}
	/* release: our reads of the records finish before the kernel may overwrite them */
	__atomic_store_n(&r->page->data_tail, r->pos, __ATOMIC_RELEASE);
	return 0;
}

PERFEV_API int64_t perfev_ring_drain(struct perfev_ring *r, perfev_ring_record_fn fn, void *ctx)
{
	int64_t n = perfev_ring_read_begin(r);
	if (n < 0)
		return n;
	int64_t count = 0;
	const void *rec;
	size_t size;
	int e;
	while ((e = perfev_ring_read_next(r, &rec, &size)) > 0) {
		count++;
		if (fn && fn(ctx, rec, size))
			break;
	}
	int e2 = perfev_ring_read_end(r);
	if (e < 0)
		return e;
	return e2 < 0 ? e2 : count;
}

PERFEV_API int perfev_ring_record_id(const void *rec, size_t size, uint64_t *id)
{
	struct perf_event_header h;
	if (!rec || size < sizeof(h) + sizeof(*id))
		return pv_error(EINVAL, "record_id: record of %zu bytes has no id", size);
	memcpy(&h, rec, sizeof(h));
	if (h.type >= PERFEV_RECORD_HEADER_ATTR || h.size != size)
		return pv_error(EINVAL, "record_id: record type %u carries no sample_id", h.type);
	const unsigned char *p = rec;
	if (h.type == PERF_RECORD_SAMPLE)
		memcpy(id, p + sizeof(h), sizeof(*id));
	else
		memcpy(id, p + size - sizeof(*id), sizeof(*id));
	return 0;
}

PERFEV_API int perfev_attr_set_wakeup(struct perfev_attr *attr, uint32_t events, uint32_t bytes)
{
	if (!attr || (events && bytes))
		return pv_error(EINVAL, "wakeup: give either a number of samples or of bytes, not both");
	attr->watermark = bytes ? 1 : 0;
	if (bytes)
		attr->wakeup_watermark = bytes;
	else
		attr->wakeup_events = events;
	return 0;
}
