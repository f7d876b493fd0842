/* strpool.h — interned strings and a u64 -> pointer map (strpool.c): the
 * symbolizer's, the unwinder's and the profile's shared memory of names. */
#ifndef PERFEV_STRPOOL_H
#define PERFEV_STRPOOL_H

#include <stddef.h>
#include <stdint.h>

/* ---- string interning: equal strings get the same pointer --------------- */
struct pv_strpool;
struct pv_strpool *pv_strpool_new(void);
void pv_strpool_free(struct pv_strpool *p);
/* Returns the pooled copy of s (len bytes, need not be NUL-terminated), or NULL on ENOMEM. */
const char *pv_strpool_addn(struct pv_strpool *p, const char *s, size_t len);
const char *pv_strpool_add(struct pv_strpool *p, const char *s);
/* Allocates len bytes that live as long as the pool (8-byte aligned). */
void *pv_strpool_alloc(struct pv_strpool *p, size_t len);

/* ---- u64 -> pointer hash map (open addressing; key 0 is allowed) -------- */
struct pv_u64map {
	uint64_t *keys;
	void **vals;
	size_t cap, nr; /* cap is 0 or a power of two */
};
void *pv_u64map_get(const struct pv_u64map *m, uint64_t key);
int pv_u64map_put(struct pv_u64map *m, uint64_t key, void *val); /* 0 or -ENOMEM */
void pv_u64map_free(struct pv_u64map *m);

#endif
