/* ring_aux.c — the AUX area of a ring: the PMU's own trace buffer. */
#define _GNU_SOURCE
#include "core/internal.h"
#include "ring/ring_int.h"
#include "perfev/ring.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static bool is_pow2(size_t n) { return n && !(n & (n - 1)); }

PERFEV_API int perfev_ring_aux_mmap(struct perfev_ring *r, size_t aux_pages, bool overwrite)
{
	if (!r || r->fd < 0)
		return pv_error(EINVAL, "aux: needs a ring mapped from an event");
	if (r->overwrite)
		return pv_error(EINVAL, "aux: the ring's user page is read-only (overwrite mode); "
				"map the data area writable and the AUX area with overwrite instead");
	if (r->aux)
		return pv_error(EBUSY, "aux: already mapped");
	if (!is_pow2(aux_pages))
		return pv_error(EINVAL, "aux: %zu pages is not a power of two", aux_pages);
	long ps = sysconf(_SC_PAGESIZE);
	size_t len = aux_pages * (size_t)ps;
	r->page->aux_offset = r->page->data_offset + r->page->data_size;
	r->page->aux_size = len;
	void *m = mmap(NULL, len, PROT_READ | (overwrite ? 0 : PROT_WRITE), MAP_SHARED, r->fd,
		       (off_t)r->page->aux_offset);
	if (m == MAP_FAILED) {
		int e = errno;
		if (e == EINVAL || e == EOPNOTSUPP || e == ENODEV)
			return pv_error(e, "aux: mmap of %zu AUX pages for fd %d failed (%s): the "
					"event's PMU has no AUX area (only tracing PMUs such as "
					"intel_pt, cs_etm, arm_spe have one), or the size is refused",
					aux_pages, r->fd, strerror(e));
		return pv_error(e, "aux: mmap of %zu AUX pages for fd %d: %s; fix: fewer pages, or "
				"raise kernel.perf_event_mlock_kb", aux_pages, r->fd, strerror(e));
	}
	r->aux_map = m;
	r->aux = m;
	r->aux_size = len;
	return 0;
}

PERFEV_API int perfev_ring_aux_wrap(struct perfev_ring *r, void *aux, size_t aux_size)
{
	if (!r || !aux || !is_pow2(aux_size) || r->aux)
		return pv_error(EINVAL, "aux_wrap: need a ring without AUX area and a power-of-two size");
	r->aux = aux;
	r->aux_size = aux_size;
	return 0;
}

PERFEV_API size_t perfev_ring_aux_size(const struct perfev_ring *r) { return r ? r->aux_size : 0; }

PERFEV_API int perfev_ring_aux_at(struct perfev_ring *r, uint64_t offset, uint64_t size,
				  const void **p1, size_t *n1, const void **p2, size_t *n2)
{
	if (!r || !r->aux)
		return pv_error(EINVAL, "aux: no AUX area");
	if (size > r->aux_size)
		return pv_error(EINVAL, "aux: %llu bytes asked of a %zu-byte area",
				(unsigned long long)size, r->aux_size);
	size_t off = offset & (r->aux_size - 1);
	size_t first = PV_MIN((size_t)size, r->aux_size - off);
	*p1 = r->aux + off;
	*n1 = first;
	*p2 = r->aux;
	*n2 = (size_t)size - first;
	return 0;
}

PERFEV_API int64_t perfev_ring_aux_peek(struct perfev_ring *r, const void **p1, size_t *n1,
					const void **p2, size_t *n2)
{
	if (!r || !r->aux)
		return pv_error(EINVAL, "aux: no AUX area");
	/* acquire: the PMU's trace bytes written before aux_head moved are visible to us */
	uint64_t head = __atomic_load_n(&r->page->aux_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->page->aux_tail;
	uint64_t n = head - tail;
	if (n > r->aux_size) /* snapshot mode: older bytes were overwritten */
		n = r->aux_size;
	int e = perfev_ring_aux_at(r, head - n, n, p1, n1, p2, n2);
	return e < 0 ? e : (int64_t)n;
}

PERFEV_API int perfev_ring_aux_consume(struct perfev_ring *r, uint64_t bytes)
{
	if (!r || !r->aux)
		return pv_error(EINVAL, "aux: no AUX area");
	/* release: our reads of the AUX bytes finish before the PMU may overwrite them */
	__atomic_store_n(&r->page->aux_tail, r->page->aux_tail + bytes, __ATOMIC_RELEASE);
	return 0;
}
