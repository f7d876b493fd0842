/*
 * demangle.c — C++ and Rust names as nm -C prints them: libiberty's
 * cplus_demangle with DMGL_PARAMS | DMGL_ANSI, which tries Rust (legacy
 * and v0) before the Itanium C++ ABI, as binutils does.
 */
#include "symbols/symbols_int.h"
#include "perfev/symbols.h"

#include <libiberty/demangle.h>
#include <stdlib.h>
#include <string.h>

static bool maybe_mangled(const char *s)
{
	return (s[0] == '_' && (s[1] == 'Z' || s[1] == 'R')) ||
	       (s[0] == '_' && s[1] == '_' && s[2] == 'Z'); /* __Z: Mach-O style */
}

PERFEV_API char *perfev_demangle(const char *mangled)
{
	if (!mangled || !maybe_mangled(mangled)) {
		errno = EINVAL;
		return NULL;
	}
	char *r = cplus_demangle(mangled, DMGL_PARAMS | DMGL_ANSI);
	if (!r)
		errno = EINVAL;
	return r;
}

size_t pv_perf_name_len(const char *name, size_t *underscores)
{
	char *d = maybe_mangled(name) ? cplus_demangle(name, DMGL_NO_OPTS) : NULL;
	const char *n = d ? d : name;
	size_t len = strlen(n);
	*underscores = strspn(n, "_");
	free(d);
	return len;
}

const char *pv_demangle_pooled(struct pv_strpool *p, const char *name, enum pv_demangle how)
{
	int opts = how == PV_DEMANGLE_FULL ? DMGL_PARAMS | DMGL_ANSI : DMGL_NO_OPTS;
	if (how == PV_DEMANGLE_NONE || !maybe_mangled(name))
		return pv_strpool_add(p, name);
	/* versioned or suffixed names (foo@plt, foo.cold) demangle without the tail */
	const char *tail = strchr(name, '@');
	char *d;
	if (tail) {
		char *base = strndup(name, (size_t)(tail - name));
		if (!base)
			return NULL;
		d = cplus_demangle(base, opts);
		free(base);
	} else {
		d = cplus_demangle(name, opts);
	}
	if (!d)
		return pv_strpool_add(p, name);
	const char *r;
	if (tail) {
		size_t dl = strlen(d), tl = strlen(tail);
		char *full = malloc(dl + tl + 1);
		if (!full) {
			free(d);
			return NULL;
		}
		memcpy(full, d, dl);
		memcpy(full + dl, tail, tl + 1);
		r = pv_strpool_add(p, full);
		free(full);
	} else {
		r = pv_strpool_add(p, d);
	}
	free(d);
	return r;
}
