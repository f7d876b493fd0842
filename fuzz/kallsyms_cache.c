/*
 * Fuzz target: the kallsyms index cache reader (symbols_kcache.c) on any
 * bytes, as they come (checksums stop most of them at the header) and with
 * their checksums forged (pv_kcache_seal), so the structural checks behind
 * them are reached; then lookups in what was accepted. Linear in the input.
 */
#include "symbols/symbols_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void try_image(struct pv_strpool *pool, const void *img, size_t len)
{
	struct pv_ktab t;
	if (pv_kcache_parse(pool, img, len, NULL, &t) < 0)
		return;
	/* a few lookups around the first and last symbols */
	for (size_t i = 0; i < t.nr && i < 64; i++) {
		const struct pv_ksym *k = &t.syms[(i & 1) ? t.nr - 1 - i / 2 : i / 2];
		const char *name, *mod;
		uint64_t start;
		uint64_t at[] = {k->start - 1, k->start, k->start + 1, k->start + 5000};
		for (size_t j = 0; j < 4; j++)
			if (pv_kallsyms_find(&t, at[j], &name, &mod, &start) == 1 &&
			    strlen(name) + (mod ? strlen(mod) : 0) > (1u << 20))
				abort(); /* the strings are read whole: ASan sees any overrun */
	}
	pv_kallsyms_free(&t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > (1u << 20))
		return 0;
	struct pv_strpool *pool = pv_strpool_new();
	if (!pool)
		return 0;
	/* the reader wants the 8-byte alignment of a mapping */
	void *img = aligned_alloc(8, (size + 7) & ~(size_t)7);
	if (!img) {
		pv_strpool_free(pool);
		return 0;
	}
	memcpy(img, data, size);
	try_image(pool, img, size);
	pv_kcache_seal(img, size);
	try_image(pool, img, size);
	free(img);
	pv_strpool_free(pool);
	return 0;
}
