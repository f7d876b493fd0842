/* pmu.c — PMUs from sysfs: type, format/ bit fields, events/ aliases, caps. */
#define _GNU_SOURCE
#include "core/internal.h"
#include "event/pmu_int.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct cap {
	char *name, *value;
};

struct perfev_pmu {
	char *name, *cpumask;
	uint32_t type;
	struct perfev_pmu_format *formats;
	size_t nr_formats;
	struct perfev_pmu_alias *aliases;
	size_t nr_aliases;
	struct cap *caps;
	size_t nr_caps;
};

struct perfev_pmus {
	struct perfev_pmu **pmu;
	size_t nr;
};

/* Sysfs files we read are tiny; anything bigger is not what we expect. */
#define SYSFS_MAX 65536

static char *read_text(const char *dir, const char *a, const char *b)
{
	char path[4096], *s = NULL;
	size_t len;
	if (snprintf(path, sizeof(path), "%s/%s%s%s", dir, a, b ? "/" : "", b ? b : "") >=
	    (int)sizeof(path))
		return NULL;
	if (pv_read_file(path, &s, &len, SYSFS_MAX) < 0)
		return NULL;
	while (len && (s[len - 1] == '\n' || s[len - 1] == ' ' || s[len - 1] == '\t'))
		s[--len] = 0;
	return s;
}

PERFEV_API int perfev_pmu_format_parse(const char *text, int *field, uint64_t *mask)
{
	const char *p = text;
	int f;
	if (!strncmp(p, "config3:", 8))
		f = 3, p += 8;
	else if (!strncmp(p, "config2:", 8))
		f = 2, p += 8;
	else if (!strncmp(p, "config1:", 8))
		f = 1, p += 8;
	else if (!strncmp(p, "config:", 7))
		f = 0, p += 7;
	else
		return pv_error(EINVAL, "format '%s' names no config field (config, config1..3)", text);
	uint64_t m = 0;
	for (;;) {
		char *end;
		unsigned long lo = strtoul(p, &end, 10), hi = lo;
		if (end == p || lo > 63)
			return pv_error(EINVAL, "format '%s': bad bit number", text);
		p = end;
		if (*p == '-') {
			hi = strtoul(++p, &end, 10);
			if (end == p || hi > 63 || hi < lo)
				return pv_error(EINVAL, "format '%s': bad bit range", text);
			p = end;
		}
		for (unsigned long b = lo; b <= hi; b++)
			m |= 1ULL << b;
		if (*p == ',') {
			p++;
			continue;
		}
		while (*p == '\n' || *p == ' ')
			p++;
		if (*p)
			return pv_error(EINVAL, "format '%s': unexpected '%c'", text, *p);
		break;
	}
	*field = f;
	*mask = m;
	return 0;
}

static int by_format_name(const void *a, const void *b)
{
	return strcmp(((const struct perfev_pmu_format *)a)->name,
		      ((const struct perfev_pmu_format *)b)->name);
}

static int by_alias_name(const void *a, const void *b)
{
	return strcmp(((const struct perfev_pmu_alias *)a)->name,
		      ((const struct perfev_pmu_alias *)b)->name);
}

static void load_formats(struct perfev_pmu *p, const char *dir)
{
	char path[4096];
	if (snprintf(path, sizeof(path), "%s/format", dir) >= (int)sizeof(path))
		return;
	DIR *d = opendir(path);
	if (!d)
		return;
	size_t cap = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		char *text = read_text(path, de->d_name, NULL);
		struct perfev_pmu_format f = {0};
		if (!text || perfev_pmu_format_parse(text, &f.field, &f.mask) < 0 ||
		    pv_grow(&p->formats, &cap, p->nr_formats + 1, sizeof(f)) < 0 ||
		    !(f.name = strdup(de->d_name))) {
			free(text);
			continue;
		}
		free(text);
		p->formats[p->nr_formats++] = f;
	}
	closedir(d);
	if (p->nr_formats)
		qsort(p->formats, p->nr_formats, sizeof(*p->formats), by_format_name);
}

static bool is_detail_file(const char *n)
{
	static const char *const suffixes[] = {".scale", ".unit", ".per-pkg", ".snapshot"};
	size_t len = strlen(n);
	for (size_t i = 0; i < PV_ARRAY_SIZE(suffixes); i++) {
		size_t l = strlen(suffixes[i]);
		if (len > l && !strcmp(n + len - l, suffixes[i]))
			return true;
	}
	return false;
}

static void load_aliases(struct perfev_pmu *p, const char *dir)
{
	char path[4096];
	if (snprintf(path, sizeof(path), "%s/events", dir) >= (int)sizeof(path))
		return;
	DIR *d = opendir(path);
	if (!d)
		return;
	size_t cap = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		const char *n = de->d_name;
		if (n[0] == '.' || is_detail_file(n))
			continue; /* NAME.scale, NAME.unit ... are read with NAME */
		char *terms = read_text(path, n, NULL);
		if (!terms || pv_grow(&p->aliases, &cap, p->nr_aliases + 1, sizeof(*p->aliases)) < 0) {
			free(terms);
			continue;
		}
		struct perfev_pmu_alias a = {.name = strdup(n), .terms = terms, .scale = 1.0};
		char sub[512];
		snprintf(sub, sizeof(sub), "%s.scale", n);
		char *scale = read_text(path, sub, NULL);
		if (scale) {
			a.scale = strtod(scale, NULL);
			free(scale);
		}
		snprintf(sub, sizeof(sub), "%s.unit", n);
		a.unit = read_text(path, sub, NULL);
		if (!a.unit)
			a.unit = strdup("");
		snprintf(sub, sizeof(sub), "%s.per-pkg", n);
		char *flag = read_text(path, sub, NULL);
		a.per_pkg = flag && atoi(flag) == 1;
		free(flag);
		snprintf(sub, sizeof(sub), "%s.snapshot", n);
		flag = read_text(path, sub, NULL);
		a.snapshot = flag && atoi(flag) == 1;
		free(flag);
		if (!a.name || !a.unit) {
			free((char *)a.name);
			free((char *)a.terms);
			free((char *)a.unit);
			continue;
		}
		p->aliases[p->nr_aliases++] = a;
	}
	closedir(d);
	if (p->nr_aliases)
		qsort(p->aliases, p->nr_aliases, sizeof(*p->aliases), by_alias_name);
}

static void load_caps(struct perfev_pmu *p, const char *dir)
{
	char path[4096];
	if (snprintf(path, sizeof(path), "%s/caps", dir) >= (int)sizeof(path))
		return;
	DIR *d = opendir(path);
	if (!d)
		return;
	size_t cap = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		char *v = read_text(path, de->d_name, NULL);
		char *n = strdup(de->d_name);
		if (!v || !n || pv_grow(&p->caps, &cap, p->nr_caps + 1, sizeof(*p->caps)) < 0) {
			free(v);
			free(n);
			continue;
		}
		p->caps[p->nr_caps++] = (struct cap){n, v};
	}
	closedir(d);
}

void pv_pmu_free(struct perfev_pmu *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->nr_formats; i++)
		free((char *)p->formats[i].name);
	for (size_t i = 0; i < p->nr_aliases; i++) {
		struct perfev_pmu_alias *a = &p->aliases[i];
		free((char *)a->name);
		free((char *)a->terms);
		free((char *)a->desc);
		free((char *)a->unit);
	}
	for (size_t i = 0; i < p->nr_caps; i++) {
		free(p->caps[i].name);
		free(p->caps[i].value);
	}
	free(p->formats);
	free(p->aliases);
	free(p->caps);
	free(p->name);
	free(p->cpumask);
	free(p);
}

struct perfev_pmu *pv_pmu_load(const char *root, const char *name)
{
	char dir[4096];
	if (!root)
		root = PERFEV_PMU_SYSFS_ROOT;
	if (!name[0] || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return pv_error_null(ENOENT, "no PMU named '%s'", name);
	if (snprintf(dir, sizeof(dir), "%s/%s", root, name) >= (int)sizeof(dir))
		return pv_error_null(ENAMETOOLONG, "PMU path too long");
	char *type = read_text(dir, "type", NULL);
	if (!type)
		return pv_error_null(ENOENT, "no PMU named '%s' (no %s/type); 'perfev list' shows the PMUs here",
				     name, dir);
	struct perfev_pmu *p = calloc(1, sizeof(*p));
	if (!p || !(p->name = strdup(name))) {
		free(type);
		free(p);
		return pv_error_null(ENOMEM, "out of memory");
	}
	p->type = (uint32_t)strtoul(type, NULL, 0);
	free(type);
	p->cpumask = read_text(dir, "cpumask", NULL);
	load_formats(p, dir);
	load_aliases(p, dir);
	load_caps(p, dir);
	return p;
}

struct perfev_pmu *pv_pmu_synth(const char *name, uint32_t type, const char *const *formats,
			       size_t n)
{
	struct perfev_pmu *p = calloc(1, sizeof(*p));
	if (!p || !(p->name = strdup(name)) || !(p->formats = calloc(n ? n : 1, sizeof(*p->formats)))) {
		pv_pmu_free(p);
		return pv_error_null(ENOMEM, "out of memory");
	}
	p->type = type;
	for (size_t i = 0; i < n; i++) {
		const char *eq = strchr(formats[i], '=');
		struct perfev_pmu_format f = {0};
		if (!eq || perfev_pmu_format_parse(eq + 1, &f.field, &f.mask) < 0 ||
		    !(f.name = strndup(formats[i], (size_t)(eq - formats[i])))) {
			pv_pmu_free(p);
			return pv_error_null(EINVAL, "bad built-in format '%s'", formats[i]);
		}
		p->formats[p->nr_formats++] = f;
	}
	qsort(p->formats, p->nr_formats, sizeof(*p->formats), by_format_name);
	return p;
}

static int by_pmu_name(const void *a, const void *b)
{
	return strcmp((*(struct perfev_pmu *const *)a)->name, (*(struct perfev_pmu *const *)b)->name);
}

PERFEV_API struct perfev_pmus *perfev_pmus_load(const char *root)
{
	if (!root)
		root = PERFEV_PMU_SYSFS_ROOT;
	DIR *d = opendir(root);
	if (!d)
		return pv_error_null(errno, "cannot read the PMU directory %s: %s", root, strerror(errno));
	struct perfev_pmus *s = calloc(1, sizeof(*s));
	if (!s) {
		closedir(d);
		return pv_error_null(ENOMEM, "out of memory");
	}
	size_t cap = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		struct perfev_pmu *p = pv_pmu_load(root, de->d_name);
		if (!p)
			continue;
		if (pv_grow(&s->pmu, &cap, s->nr + 1, sizeof(*s->pmu)) < 0) {
			pv_pmu_free(p);
			continue;
		}
		s->pmu[s->nr++] = p;
	}
	closedir(d);
	if (s->nr)
		qsort(s->pmu, s->nr, sizeof(*s->pmu), by_pmu_name);
	return s;
}

PERFEV_API void perfev_pmus_free(struct perfev_pmus *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr; i++)
		pv_pmu_free(s->pmu[i]);
	free(s->pmu);
	free(s);
}

PERFEV_API size_t perfev_pmus_count(const struct perfev_pmus *s) { return s->nr; }

PERFEV_API const struct perfev_pmu *perfev_pmus_at(const struct perfev_pmus *s, size_t idx)
{
	if (idx >= s->nr)
		return pv_error_null(ERANGE, "PMU %zu of %zu", idx, s->nr);
	return s->pmu[idx];
}

PERFEV_API const struct perfev_pmu *perfev_pmus_find(const struct perfev_pmus *s, const char *name)
{
	for (size_t i = 0; i < s->nr; i++)
		if (!strcmp(s->pmu[i]->name, name))
			return s->pmu[i];
	return pv_error_null(ENOENT, "no PMU named '%s'", name);
}

PERFEV_API const char *perfev_pmu_name(const struct perfev_pmu *p) { return p->name; }
PERFEV_API uint32_t perfev_pmu_type(const struct perfev_pmu *p) { return p->type; }
PERFEV_API const char *perfev_pmu_cpumask(const struct perfev_pmu *p) { return p->cpumask; }

PERFEV_API const char *perfev_pmu_cap(const struct perfev_pmu *p, const char *cap)
{
	for (size_t i = 0; i < p->nr_caps; i++)
		if (!strcmp(p->caps[i].name, cap))
			return p->caps[i].value;
	return NULL;
}

PERFEV_API size_t perfev_pmu_format_count(const struct perfev_pmu *p) { return p->nr_formats; }

PERFEV_API const struct perfev_pmu_format *perfev_pmu_format_at(const struct perfev_pmu *p, size_t i)
{
	if (i >= p->nr_formats)
		return pv_error_null(ERANGE, "format %zu of %zu", i, p->nr_formats);
	return &p->formats[i];
}

PERFEV_API const struct perfev_pmu_format *perfev_pmu_format_find(const struct perfev_pmu *p,
								   const char *name)
{
	for (size_t i = 0; i < p->nr_formats; i++)
		if (!strcmp(p->formats[i].name, name))
			return &p->formats[i];
	return pv_error_null(ENOENT, "PMU '%s' has no format term '%s'", p->name, name);
}

PERFEV_API size_t perfev_pmu_alias_count(const struct perfev_pmu *p) { return p->nr_aliases; }

PERFEV_API const struct perfev_pmu_alias *perfev_pmu_alias_at(const struct perfev_pmu *p, size_t i)
{
	if (i >= p->nr_aliases)
		return pv_error_null(ERANGE, "alias %zu of %zu", i, p->nr_aliases);
	return &p->aliases[i];
}

PERFEV_API const struct perfev_pmu_alias *perfev_pmu_alias_find(const struct perfev_pmu *p,
								 const char *name)
{
	for (size_t i = 0; i < p->nr_aliases; i++)
		if (!strcasecmp(p->aliases[i].name, name))
			return &p->aliases[i];
	return pv_error_null(ENOENT, "PMU '%s' has no event '%s'", p->name, name);
}

uint64_t *pv_attr_config_field(struct perfev_attr *attr, int field)
{
	switch (field) {
	case 0: return &attr->config;
	case 1: return &attr->config1;
	case 2: return &attr->config2;
	default: return &attr->config3;
	}
}

int pv_format_encode(const struct perfev_pmu_format *f, uint64_t value, struct perfev_attr *attr)
{
	int bits = __builtin_popcountll(f->mask);
	if (bits < 64 && value >> bits)
		return pv_error(ERANGE, "value 0x%llx is too big for '%s' (%d bits, at most 0x%llx)",
				(unsigned long long)value, f->name, bits,
				(unsigned long long)((1ULL << bits) - 1));
	uint64_t *dst = pv_attr_config_field(attr, f->field), v = 0;
	int vbit = 0;
	for (int b = 0; b < 64; b++)
		if (f->mask >> b & 1) {
			if (value >> vbit & 1)
				v |= 1ULL << b;
			vbit++;
		}
	*dst = (*dst & ~f->mask) | v;
	return 0;
}

PERFEV_API int perfev_pmu_encode_term(const struct perfev_pmu *p, const char *term,
				      uint64_t value, struct perfev_attr *attr)
{
	const struct perfev_pmu_format *f = perfev_pmu_format_find(p, term);
	if (!f)
		return -ENOENT;
	return pv_format_encode(f, value, attr);
}

bool pv_pmu_exists(const char *root, const char *name)
{
	char path[4096];
	if (!root)
		root = PERFEV_PMU_SYSFS_ROOT;
	if (!name[0] || strchr(name, '/') || snprintf(path, sizeof(path), "%s/%s/type", root, name) >=
						      (int)sizeof(path))
		return false;
	char buf[32];
	return pv_read_line(path, buf, sizeof(buf)) >= 0;
}
