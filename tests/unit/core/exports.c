/* The version script (src/lib/libperfev.map) against the headers and the
 * built library: every PERFEV_API function declared in include/ is named in
 * exactly one node and exported with that node's version; the map names
 * nothing else; each node is sorted, one symbol per line (easy merges). */
#define _GNU_SOURCE
#include "support.h"

#include <ctype.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct sym {
	char *name;
	char *version; /* the map's node or nm's version; NULL for a header's */
};

struct syms {
	struct sym *v;
	size_t n, cap;
};

static void add(struct syms *s, const char *name, size_t len, const char *version)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 256;
		s->v = realloc(s->v, s->cap * sizeof(*s->v));
		cr_assert_not_null(s->v);
	}
	s->v[s->n].name = strndup(name, len);
	s->v[s->n++].version = version ? strdup(version) : NULL;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct sym *)a)->name, ((const struct sym *)b)->name);
}

static const struct sym *find(const struct syms *s, const char *name)
{
	struct sym key = {(char *)name, NULL};
	return bsearch(&key, s->v, s->n, sizeof(*s->v), by_name);
}

static void syms_free(struct syms *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i].name), free(s->v[i].version);
	free(s->v);
}

/* Blanks out C comments, keeping the text's length. */
static void uncomment(char *t)
{
	for (char *c = t; (c = strstr(c, "/*"));) {
		char *e = strstr(c + 2, "*/");
		char *end = e ? e + 2 : c + strlen(c);
		memset(c, ' ', (size_t)(end - c));
		c = end;
	}
}

/* The functions PERFEV_API declares in one header: the first perfev_ name
 * followed by '(' before the declaration's ';'. */
static void header_syms(const char *path, struct syms *out)
{
	char *t = slurp(path, NULL);
	cr_assert_not_null(t, "%s", path);
	uncomment(t);
	for (char *c = t; (c = strstr(c, "PERFEV_API"));) {
		c += strlen("PERFEV_API");
		if (isalnum((unsigned char)*c) || *c == '_') /* the macro's own #define */
			continue;
		char *semi = strchr(c, ';');
		cr_assert_not_null(semi, "%s: PERFEV_API without ';'", path);
		for (char *p = c; (p = strstr(p, "perfev_")) && p < semi; p++) {
			size_t len = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
			const char *q = p + len;
			while (*q == ' ' || *q == '\t' || *q == '\n')
				q++;
			if (*q == '(' && (p == t || !isalnum((unsigned char)p[-1]))) {
				add(out, p, len, NULL);
				break;
			}
		}
		c = semi;
	}
	free(t);
}

/* The map's symbols with their node; checks each node is sorted. */
static void map_syms(const char *path, struct syms *out)
{
	char *t = slurp(path, NULL);
	cr_assert_not_null(t, "%s", path);
	uncomment(t);
	char node[64] = "";
	char prev[256] = "";
	for (char *line = strtok(t, "\n"); line; line = strtok(NULL, "\n")) {
		char name[256];
		if (sscanf(line, " %63[A-Z_0-9.] {", node) == 1 && strchr(line, '{')) {
			prev[0] = 0;
			continue;
		}
		if (sscanf(line, " %255[a-z_0-9];", name) != 1 || strncmp(name, "perfev_", 7))
			continue;
		cr_assert(node[0], "%s: %s outside a node", path, name);
		cr_assert_gt(strcmp(name, prev), 0, "%s: node %s is not sorted at %s (after %s)", path, node, name,
			     prev);
		snprintf(prev, sizeof(prev), "%s", name);
		add(out, name, strlen(name), node);
	}
	free(t);
}

/* nm -D --defined-only: the library's exported functions and versions. */
static void lib_syms(const char *lib, struct syms *out)
{
	char cmd[4200];
	snprintf(cmd, sizeof(cmd), "nm -D --defined-only '%s'", lib);
	FILE *p = popen(cmd, "r");
	cr_assert_not_null(p);
	char line[1024];
	while (fgets(line, sizeof(line), p)) {
		char type, name[512];
		if (sscanf(line, "%*s %c %511s", &type, name) != 2 || strncmp(name, "perfev_", 7))
			continue;
		char *at = strstr(name, "@@");
		if (!at)
			at = strchr(name, '@');
		const char *ver = at ? at + strspn(at, "@") : "";
		size_t len = at ? (size_t)(at - name) : strlen(name);
		add(out, name, len, ver);
	}
	cr_assert_eq(pclose(p), 0, "%s failed", cmd);
}

Test(unit_exports, map_matches_headers_and_library, .timeout = 60)
{
	char lib[4096];
	snprintf(lib, sizeof(lib), "%s/libperfev.so", PERFEV_BUILDDIR);
	if (access(lib, R_OK) != 0)
		cr_skip_test("%s was not built (a static-only build)", lib);
	if (system("command -v nm >/dev/null") != 0)
		cr_skip_test("nm (binutils) is not installed");
	struct syms hdr = {0}, map = {0}, so = {0};
	glob_t g;
	cr_assert_eq(glob(PERFEV_SRCDIR "/include/perfev/*.h", 0, NULL, &g), 0);
	header_syms(PERFEV_SRCDIR "/include/perfev.h", &hdr);
	for (size_t i = 0; i < g.gl_pathc; i++)
		header_syms(g.gl_pathv[i], &hdr);
	globfree(&g);
	map_syms(PERFEV_SRCDIR "/src/lib/libperfev.map", &map);
	lib_syms(lib, &so);
	cr_assert_gt(hdr.n, 100, "the headers' PERFEV_API functions were not found");
	qsort(hdr.v, hdr.n, sizeof(*hdr.v), by_name);
	qsort(map.v, map.n, sizeof(*map.v), by_name);
	qsort(so.v, so.n, sizeof(*so.v), by_name);
	for (size_t i = 1; i < map.n; i++)
		cr_assert_str_neq(map.v[i].name, map.v[i - 1].name, "the map names %s twice", map.v[i].name);
	for (size_t i = 0; i < hdr.n; i++) {
		const struct sym *m = find(&map, hdr.v[i].name);
		cr_expect_not_null(m, "%s is PERFEV_API but not in src/lib/libperfev.map (add it to the coming "
				      "release's node)", hdr.v[i].name);
		const struct sym *e = find(&so, hdr.v[i].name);
		cr_expect_not_null(e, "%s is PERFEV_API but libperfev.so does not export it", hdr.v[i].name);
		if (m && e)
			cr_expect_str_eq(e->version, m->version, "%s is exported as version %s, the map's node is %s",
					 e->name, e->version, m->version);
	}
	for (size_t i = 0; i < map.n; i++)
		cr_expect_not_null(find(&hdr, map.v[i].name), "the map names %s, which no header declares PERFEV_API",
				   map.v[i].name);
	for (size_t i = 0; i < so.n; i++)
		cr_expect_not_null(find(&hdr, so.v[i].name), "libperfev.so exports %s, which no header declares",
				   so.v[i].name);
	syms_free(&hdr);
	syms_free(&map);
	syms_free(&so);
}
