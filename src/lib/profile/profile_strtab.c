/* profile_strtab.c — interned strings for the profile: each distinct string
 * is stored once and named by a dense 32-bit id (0 is NULL). */
#include "profile/profile_int.h"

#include <stdlib.h>
#include <string.h>

uint64_t pv_hash_bytes(const void *data, size_t len)
{
	/* FNV-1a, then a final mix so the low bits are usable as a table index */
	const unsigned char *p = data;
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return h;
}

static int rehash(struct pv_strtab *t, size_t ncap)
{
	uint32_t *h = calloc(ncap, sizeof(*h));
	if (!h)
		return -ENOMEM;
	for (size_t id = 1; id < t->nr; id++) {
		size_t i = pv_hash_bytes(t->strs[id], strlen(t->strs[id])) & (ncap - 1);
		while (h[i])
			i = (i + 1) & (ncap - 1);
		h[i] = (uint32_t)id;
	}
	free(t->hash);
	t->hash = h;
	t->hcap = ncap;
	return 0;
}

uint32_t pv_strtab_intern(struct pv_strtab *t, const char *s)
{
	if (!s)
		return 0;
	if (t->nr == 0) { /* slot 0 stands for NULL */
		if (pv_grow(&t->strs, &t->cap, 1, sizeof(*t->strs)) < 0)
			return 0;
		t->strs[0] = NULL;
		t->nr = 1;
	}
	if ((t->nr + 1) * 2 > t->hcap && rehash(t, t->hcap ? t->hcap * 2 : 256) < 0)
		return 0;
	size_t len = strlen(s);
	size_t i = pv_hash_bytes(s, len) & (t->hcap - 1);
	while (t->hash[i]) {
		if (strcmp(t->strs[t->hash[i]], s) == 0)
			return t->hash[i];
		i = (i + 1) & (t->hcap - 1);
	}
	if (t->nr >= UINT32_MAX || pv_grow(&t->strs, &t->cap, t->nr + 1, sizeof(*t->strs)) < 0)
		return 0;
	char *copy = malloc(len + 1);
	if (!copy)
		return 0;
	memcpy(copy, s, len + 1);
	t->strs[t->nr] = copy;
	t->hash[i] = (uint32_t)t->nr;
	return (uint32_t)t->nr++;
}

uint32_t pv_strtab_find(const struct pv_strtab *t, const char *s)
{
	if (!s || !t->hcap)
		return 0;
	size_t i = pv_hash_bytes(s, strlen(s)) & (t->hcap - 1);
	for (; t->hash[i]; i = (i + 1) & (t->hcap - 1))
		if (strcmp(t->strs[t->hash[i]], s) == 0)
			return t->hash[i];
	return 0;
}

void pv_strtab_free(struct pv_strtab *t)
{
	for (size_t i = 1; i < t->nr; i++)
		free(t->strs[i]);
	free(t->strs);
	free(t->hash);
	memset(t, 0, sizeof(*t));
}
