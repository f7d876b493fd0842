/* parse_int.h — the event-string parser's tables, shared with the lister (not API). */
#ifndef PERFEV_PARSE_INT_H
#define PERFEV_PARSE_INT_H

#include <stddef.h>
#include <stdint.h>
#include "perfev/abi.h"

/* A symbolic event: perf's name, its alias (or NULL), type and config. */
struct pv_sym {
	const char *name, *alias;
	uint32_t type;
	uint64_t config;
	unsigned flags; /* PERFEV_EVSEL_TOOL_* for perf's tool events */
};
extern const struct pv_sym pv_syms[];
extern const size_t pv_nr_syms;
/* The symbol spelled s[0..len), or NULL. */
const struct pv_sym *pv_sym_find(const char *s, size_t len);

/*
 * Parses a hardware cache event name (L1-dcache-load-misses, LLC-loads,
 * dTLB-stores, branch-loads, ...) as perf does into a PERF_TYPE_HW_CACHE
 * config. Returns 0, -ENOENT when s is not cache syntax, or -EINVAL (with
 * pv_error's message) when the operation is invalid for the cache.
 */
int pv_cache_parse(const char *s, size_t len, uint64_t *config);
/* Is op (PERF_COUNT_HW_CACHE_OP_*) valid for cache type (as perf sees it)? */
int pv_cache_op_valid(int type, int op);
/* The known name closest to w[0..n) (a typo's fix), written into buf, or NULL. */
const char *pv_suggest(const char *w, size_t n, char *buf, size_t len);
/* Canonical spellings for listing: type names, op names (plural), results. */
const char *pv_cache_type_name(int type);
const char *pv_cache_op_name(int op, int plural);
const char *pv_cache_result_name(int result);

#endif
