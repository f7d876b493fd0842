/* idmap.c — event id -> the caller's event: open addressing on the id. */
#define _GNU_SOURCE
#include "core/internal.h"
#include "perfev/notify.h"
#include "perfev/ring.h"
#include "perfev/sys.h"

#include <stdlib.h>

struct idmap_slot {
	uint64_t id;
	void *ctx;
	bool used;
};

struct perfev_idmap {
	struct idmap_slot *slots;
	size_t cap, count; /* cap: a power of two, kept at most half full */
};

static size_t id_hash(uint64_t id)
{
	id ^= id >> 33;
	id *= 0xff51afd7ed558ccdULL;
	id ^= id >> 33;
	return (size_t)id;
}

PERFEV_API struct perfev_idmap *perfev_idmap_new(void)
{
	struct perfev_idmap *m = calloc(1, sizeof(*m));
	if (!m)
		return pv_error_null(ENOMEM, "idmap: out of memory");
	return m;
}

PERFEV_API void perfev_idmap_free(struct perfev_idmap *m)
{
	if (!m)
		return;
	free(m->slots);
	free(m);
}

static struct idmap_slot *idmap_slot(struct idmap_slot *slots, size_t cap, uint64_t id)
{
	for (size_t i = id_hash(id) & (cap - 1);; i = (i + 1) & (cap - 1))
		if (!slots[i].used || slots[i].id == id)
			return &slots[i];
}

PERFEV_API int perfev_idmap_add(struct perfev_idmap *m, uint64_t id, void *ctx)
{
	if (!m)
		return pv_error(EINVAL, "idmap: NULL");
	if ((m->count + 1) * 2 > m->cap) {
		size_t ncap = m->cap ? m->cap * 2 : 16;
		struct idmap_slot *ns = calloc(ncap, sizeof(*ns));
		if (!ns)
			return pv_error(ENOMEM, "idmap: out of memory");
		for (size_t i = 0; i < m->cap; i++)
			if (m->slots[i].used)
				*idmap_slot(ns, ncap, m->slots[i].id) = m->slots[i];
		free(m->slots);
		m->slots = ns;
		m->cap = ncap;
	}
	struct idmap_slot *s = idmap_slot(m->slots, m->cap, id);
	if (!s->used)
		m->count++;
	*s = (struct idmap_slot){id, ctx, true};
	return 0;
}

PERFEV_API int perfev_idmap_add_fd(struct perfev_idmap *m, int fd, void *ctx, uint64_t *id)
{
	uint64_t v;
	int e = perfev_ioc_id(fd, &v);
	if (e < 0)
		return e;
	if (id)
		*id = v;
	return perfev_idmap_add(m, v, ctx);
}

PERFEV_API void *perfev_idmap_find(const struct perfev_idmap *m, uint64_t id)
{
	if (m && m->cap) {
		struct idmap_slot *s = idmap_slot(m->slots, m->cap, id);
		if (s->used)
			return s->ctx;
	}
	errno = ENOENT;
	return NULL;
}

PERFEV_API void *perfev_idmap_find_record(const struct perfev_idmap *m, const void *rec, size_t size)
{
	uint64_t id;
	if (perfev_ring_record_id(rec, size, &id) < 0)
		return NULL;
	return perfev_idmap_find(m, id);
}

PERFEV_API size_t perfev_idmap_count(const struct perfev_idmap *m) { return m ? m->count : 0; }
