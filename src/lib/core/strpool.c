/*
 * strpool.c — interned strings and a u64 hash map. Symbol names repeat
 * across binaries, inline chains and lookups; interning stores each once and
 * makes string-keyed maps pointer-keyed ones.
 */
#include "core/strpool.h"

#include <errno.h>

#include <stdlib.h>
#include <string.h>

#define CHUNK_SIZE (64 * 1024)

struct chunk {
	struct chunk *next;
	size_t used, cap;
	char data[];
};

struct pv_strpool {
	struct chunk *chunks;
	const char **slots; /* open addressing set */
	uint32_t *hashes;   /* per slot: its string's hash, to skip most compares */
	size_t cap, nr;
};

struct pv_strpool *pv_strpool_new(void)
{
	struct pv_strpool *p = calloc(1, sizeof(*p));
	if (!p)
		errno = ENOMEM;
	return p;
}

void pv_strpool_free(struct pv_strpool *p)
{
	if (!p)
		return;
	for (struct chunk *c = p->chunks, *n; c; c = n) {
		n = c->next;
		free(c);
	}
	free(p->slots);
	free(p->hashes);
	free(p);
}

void *pv_strpool_alloc(struct pv_strpool *p, size_t len)
{
	len = (len + 7) & ~(size_t)7;
	struct chunk *c = p->chunks;
	if (!c || c->cap - c->used < len) {
		size_t cap = len > CHUNK_SIZE / 4 ? len : CHUNK_SIZE;
		struct chunk *n = malloc(sizeof(*n) + cap);
		if (!n)
			return NULL;
		n->used = 0;
		n->cap = cap;
		if (c && len > CHUNK_SIZE / 4) {
			/* keep filling the current chunk: insert the big one behind it */
			n->next = c->next;
			c->next = n;
		} else {
			n->next = c;
			p->chunks = n;
		}
		c = n;
	}
	void *r = c->data + c->used;
	c->used += len;
	return r;
}

static uint64_t hash_bytes(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
	return h;
}

static int pool_grow(struct pv_strpool *p)
{
	size_t ncap = p->cap ? p->cap * 2 : 1024;
	const char **n = calloc(ncap, sizeof(*n));
	uint32_t *nh = malloc(ncap * sizeof(*nh));
	if (!n || !nh) {
		free(n);
		free(nh);
		return -ENOMEM;
	}
	for (size_t i = 0; i < p->cap; i++) {
		const char *s = p->slots[i];
		if (!s)
			continue;
		size_t j = p->hashes[i] & (ncap - 1);
		while (n[j])
			j = (j + 1) & (ncap - 1);
		n[j] = s;
		nh[j] = p->hashes[i];
	}
	free(p->slots);
	free(p->hashes);
	p->slots = n;
	p->hashes = nh;
	p->cap = ncap;
	return 0;
}

const char *pv_strpool_addn(struct pv_strpool *p, const char *s, size_t len)
{
	if (!s)
		return NULL;
	if ((p->nr + 1) * 2 > p->cap && pool_grow(p) < 0)
		return NULL;
	uint32_t h = (uint32_t)hash_bytes(s, len);
	size_t i = h & (p->cap - 1);
	for (; p->slots[i]; i = (i + 1) & (p->cap - 1)) {
		const char *t = p->slots[i];
		if (p->hashes[i] == h && strncmp(t, s, len) == 0 && t[len] == '\0')
			return t;
	}
	char *c = pv_strpool_alloc(p, len + 1);
	if (!c)
		return NULL;
	memcpy(c, s, len);
	c[len] = '\0';
	p->slots[i] = c;
	p->hashes[i] = h;
	p->nr++;
	return c;
}

const char *pv_strpool_add(struct pv_strpool *p, const char *s)
{
	return s ? pv_strpool_addn(p, s, strlen(s)) : NULL;
}

/* ---- u64 map ---------------------------------------------------------------- */
static inline size_t mix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	return (size_t)k;
}

void *pv_u64map_get(const struct pv_u64map *m, uint64_t key)
{
	if (!m->cap)
		return NULL;
	for (size_t i = mix(key) & (m->cap - 1); m->vals[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key)
			return m->vals[i];
	return NULL;
}

int pv_u64map_put(struct pv_u64map *m, uint64_t key, void *val)
{
	if ((m->nr + 1) * 2 > m->cap) {
		size_t ncap = m->cap ? m->cap * 2 : 64;
		uint64_t *nk = calloc(ncap, sizeof(*nk));
		void **nv = calloc(ncap, sizeof(*nv));
		if (!nk || !nv) {
			free(nk);
			free(nv);
			return -ENOMEM;
		}
		for (size_t i = 0; i < m->cap; i++) {
			if (!m->vals[i])
				continue;
			size_t j = mix(m->keys[i]) & (ncap - 1);
			while (nv[j])
				j = (j + 1) & (ncap - 1);
			nk[j] = m->keys[i];
			nv[j] = m->vals[i];
		}
		free(m->keys);
		free(m->vals);
		m->keys = nk;
		m->vals = nv;
		m->cap = ncap;
	}
	size_t i = mix(key) & (m->cap - 1);
	for (; m->vals[i]; i = (i + 1) & (m->cap - 1))
		if (m->keys[i] == key) {
			m->vals[i] = val;
			return 0;
		}
	m->keys[i] = key;
	m->vals[i] = val;
	m->nr++;
	return 0;
}

void pv_u64map_free(struct pv_u64map *m)
{
	free(m->keys);
	free(m->vals);
	memset(m, 0, sizeof(*m));
}
