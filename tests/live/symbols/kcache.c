/*
 * The kallsyms index cache on the running kernel (root): for every symbol
 * of /proc/kallsyms, the cached index answers exactly what the parsed file
 * answers (or defers to it), and the symbolizer gives the same locations
 * with the cache as without.
 */
#define _GNU_SOURCE
#include "support.h"
#include "symbols/symbols_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void require_kallsyms(void)
{
	require_root();
	struct pv_kcache_src src = {0};
	struct pv_kcache_key k;
	int r = pv_kcache_key(&src, &k);
	pv_kcache_key_free(&k);
	if (r == -EACCES)
		cr_skip_test("kallsyms addresses are hidden (kptr_restrict)");
	cr_assert_eq(r, 0, "the running kernel's cache key: %s", strerror(-r));
}

static struct pv_kcache_src temp_cache(const char *name)
{
	static char dir[512];
	snprintf(dir, sizeof(dir), "%s/%s", test_tmpdir(), name);
	return (struct pv_kcache_src){.dir = dir};
}

Test(live_kcache, every_symbol_same_as_proc_kallsyms, .timeout = 120)
{
	require_kallsyms();
	struct perfev_symbolizer_opts o = {.sz = sizeof(o), .kallsyms = ""};
	struct perfev_symbolizer *s = perfev_symbolizer_new(&o);
	cr_assert_not_null(s);
	struct pv_kcache_src src = temp_cache("live-kcache");
	struct pv_ktab built, cached, full;
	cr_assert_gt(pv_kcache_load(s, &src, &built), 0);
	cr_assert(!built.partial, "the first load parses /proc/kallsyms");
	cr_assert_gt(pv_kcache_load(s, &src, &cached), 0);
	cr_assert(cached.partial && cached.map, "the second load maps the index");
	cr_assert_gt(pv_kallsyms_load(s, "/proc/kallsyms", NULL, &full), 0);

	size_t probes = 0, answered = 0;
	for (size_t i = 0; i < full.nr; i++) {
		uint64_t a = full.syms[i].start;
		uint64_t next = i + 1 < full.nr ? full.syms[i + 1].start : a + 8192;
		uint64_t at[] = {a - 1, a, a + 1, a + (next - a) / 2, next - 1};
		for (size_t k = 0; k < PV_ARRAY_SIZE(at); k++) {
			const char *n1 = NULL, *m1 = NULL, *n2 = NULL, *m2 = NULL;
			uint64_t s1 = 0, s2 = 0;
			int r1 = pv_kallsyms_find(&full, at[k], &n1, &m1, &s1);
			int r2 = pv_kallsyms_find(&cached, at[k], &n2, &m2, &s2);
			probes++;
			if (r2 == -EAGAIN)
				continue;
			answered++;
			cr_assert_eq(r1, r2, "%#llx: %d, cached %d", (unsigned long long)at[k], r1, r2);
			if (r1 == 1) {
				cr_assert_str_eq(n1, n2, "%#llx", (unsigned long long)at[k]);
				cr_assert_eq(s1, s2);
				cr_assert_str_eq(m1 ? m1 : "", m2 ? m2 : "");
			}
		}
	}
	cr_log_info("kallsyms cache: %zu symbols, %zu cached; %zu of %zu probes answered from it",
		    full.nr, cached.nr, answered, probes);
	cr_expect_gt(answered, probes * 9 / 10, "the cache answers most lookups (%zu of %zu)",
		     answered, probes);
	pv_kallsyms_free(&built);
	pv_kallsyms_free(&cached);
	pv_kallsyms_free(&full);
	perfev_symbolizer_free(s);
}

Test(live_kcache, symbolizer_same_with_and_without_cache, .timeout = 60)
{
	require_kallsyms();
	char xdg[512];
	snprintf(xdg, sizeof(xdg), "%s/live-xdg", test_tmpdir());
	setenv("XDG_CACHE_HOME", xdg, 1);
	struct perfev_symbolizer_opts o = {.sz = sizeof(o)};
	struct perfev_symbolizer *warm = perfev_symbolizer_new(&o);
	struct perfev_location loc;
	perfev_symbolizer_resolve_kernel(warm, 0, 0, &loc); /* builds the index */
	perfev_symbolizer_free(warm);
	struct perfev_symbolizer *with = perfev_symbolizer_new(&o);
	o.no_cache = true;
	struct perfev_symbolizer *without = perfev_symbolizer_new(&o);
	cr_assert(with && without);

	struct pv_ktab full;
	cr_assert_gt(pv_kallsyms_load(without, "/proc/kallsyms", NULL, &full), 0);
	size_t checked = 0;
	for (size_t i = 0; i < full.nr; i += 7) {
		uint64_t ip = full.syms[i].start + 1;
		struct perfev_location a, b;
		int ra = perfev_symbolizer_resolve_kernel(with, ip, 0, &a);
		int rb = perfev_symbolizer_resolve_kernel(without, ip, 0, &b);
		cr_assert_eq(ra, rb, "%#llx", (unsigned long long)ip);
		if (ra == 1) {
			cr_assert_str_eq(a.symbol, b.symbol);
			cr_assert_str_eq(a.dso, b.dso);
			cr_assert_eq(a.symoff, b.symoff);
		}
		checked++;
	}
	cr_expect_gt(checked, 1000);
	char idx[600];
	snprintf(idx, sizeof(idx), "%s/perfev/%s", xdg, PV_KCACHE_FILE);
	cr_expect_eq(access(idx, R_OK), 0, "the symbolizer wrote %s", idx);
	unsetenv("XDG_CACHE_HOME");
	pv_kallsyms_free(&full);
	perfev_symbolizer_free(with);
	perfev_symbolizer_free(without);
}
