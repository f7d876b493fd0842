/*
 * probe.c — u:/k: probe strings → perf_event_attrs, through the
 * uprobe/kprobe PMU when the kernel has it, else through tracefs.
 */
#define _GNU_SOURCE
#include "core/internal.h"
#include "perfev/probe.h"
#include "tracing/probe_int.h"

#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__x86_64__)
#define PV_MULTIARCH "x86_64-linux-gnu"
#elif defined(__aarch64__)
#define PV_MULTIARCH "aarch64-linux-gnu"
#else
#define PV_MULTIARCH "."
#endif

struct perfev_probe {
	struct perfev_probe_spec spec;
	struct perfev_attr attr;
	char *path;   /* realpath of the file (uprobe); config1 points here */
	char *target; /* the symbol (kprobe); config1 points here */
	char *name;
	char tracefs_event[160]; /* "" when through a PMU */
	uint64_t offset;
};

PERFEV_API bool perfev_probe_is_spec(const char *s)
{
	return s && (s[0] == 'u' || s[0] == 'k') && s[1] == ':';
}

static int spec_error(const char *s, const char *why)
{
	return pv_error(EINVAL, "probe '%s': %s; the forms are u:PATH:SYMBOL[+OFFSET][%%return] "
			"and k:SYMBOL[+OFFSET][%%return]", s, why);
}

PERFEV_API int perfev_probe_spec_parse(const char *s, struct perfev_probe_spec *out)
{
	memset(out, 0, sizeof(*out));
	if (!perfev_probe_is_spec(s))
		return spec_error(s ? s : "(null)", "it must start with u: or k:");
	out->kernel = s[0] == 'k';
	const char *p = s + 2, *end = s + strlen(s);
	static const char ret[] = "%return";
	if ((size_t)(end - p) > sizeof(ret) - 1 && !strcmp(end - (sizeof(ret) - 1), ret)) {
		out->retprobe = true;
		end -= sizeof(ret) - 1;
	}
	if (!out->kernel) {
		const char *colon = memrchr(p, ':', (size_t)(end - p));
		if (!colon || colon == p)
			return spec_error(s, "the file path is missing");
		if ((size_t)(colon - p) >= sizeof(out->path))
			return spec_error(s, "the path is too long");
		memcpy(out->path, p, (size_t)(colon - p));
		p = colon + 1;
	}
	const char *plus = memchr(p, '+', (size_t)(end - p));
	const char *symend = plus ? plus : end;
	if (symend == p)
		return spec_error(s, "the symbol is missing");
	if ((size_t)(symend - p) >= sizeof(out->symbol))
		return spec_error(s, "the symbol is too long");
	memcpy(out->symbol, p, (size_t)(symend - p));
	for (const char *c = out->symbol; *c; c++)
		if (*c == '%' || *c == ':' || *c == ' ' || *c == '/')
			return spec_error(s, "the symbol has a character a symbol cannot have");
	if (plus) {
		char num[32];
		size_t n = (size_t)(end - plus - 1);
		if (!n || n >= sizeof(num))
			return spec_error(s, "the offset after '+' is missing or too long");
		memcpy(num, plus + 1, n);
		num[n] = 0;
		char *e;
		errno = 0;
		out->offset = strtoull(num, &e, 0);
		if (*e || errno)
			return spec_error(s, "the offset is not a number");
		if (out->retprobe && out->offset)
			return spec_error(s, "a return probe takes no offset");
	}
	return 0;
}

/* The bit of `config` that format/retprobe names ("config:0"); -errno. */
static int pmu_retprobe_bit(const char *pmu)
{
	char path[128], line[64];
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/format/retprobe", pmu);
	int r = pv_read_line(path, line, sizeof(line));
	if (r < 0)
		return r;
	unsigned bit;
	if (sscanf(line, "config:%u", &bit) != 1 || bit > 63)
		return pv_error(EINVAL, "%s: unexpected format '%s'", path, line);
	return (int)bit;
}

static int pmu_type(const char *pmu)
{
	char path[128];
	int64_t t;
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", pmu);
	if (pv_read_i64(path, &t) < 0)
		return -ENOENT;
	return (int)t;
}

static bool force_tracefs(void)
{
	const char *e = getenv("PERFEV_PROBE_TRACEFS");
	return e && *e && strcmp(e, "0");
}

/* A name without '/' is looked up in $PATH (a program), then in the
 * usual library directories (a shared library such as libc.so.6). */
static char *resolve_path(const char *path)
{
	if (!strchr(path, '/')) {
		const char *env = getenv("PATH");
		char *dirs = NULL, *save = NULL;
		if (asprintf(&dirs, "%s:/lib64:/usr/lib64:/lib/" PV_MULTIARCH ":/usr/lib/" PV_MULTIARCH
			     ":/lib:/usr/lib:/usr/local/lib", env ? env : "/usr/bin:/bin") < 0)
			return pv_error_null(ENOMEM, "out of memory");
		for (char *d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
			char cand[PATH_MAX];
			if (snprintf(cand, sizeof(cand), "%s/%s", d, path) < (int)sizeof(cand) &&
			    access(cand, R_OK) == 0) {
				char *r = realpath(cand, NULL);
				free(dirs);
				return r;
			}
		}
		free(dirs);
	}
	char *r = realpath(path, NULL);
	if (!r)
		pv_error(errno, "probe file '%s': %s%s", path, strerror(errno),
			 strchr(path, '/') ? "" : " (not in $PATH nor the library directories: give its path)");
	return r;
}

static const char *base_name(const char *path)
{
	const char *b = strrchr(path, '/');
	return b ? b + 1 : path;
}

/*
 * The attr, through the PMU (config1 = the string `target` points to) when
 * the kernel has it, else through a tracefs probe at `location`.
 */
static int build_attr(struct perfev_probe *p, const char *pmu, const char *target,
		      const char *location)
{
	int type = force_tracefs() ? -ENOENT : pmu_type(pmu);
	if (type >= 0) {
		p->attr.type = (uint32_t)type;
		p->attr.config1 = (uint64_t)(uintptr_t)target; /* uprobe_path / kprobe_func */
		p->attr.config2 = p->offset;                   /* probe_offset */
		if (p->spec.retprobe) {
			int bit = pmu_retprobe_bit(pmu);
			if (bit < 0)
				return pv_error(-bit, "the %s PMU has no format/retprobe: return "
						"probes need a newer kernel", pmu);
			p->attr.config |= 1ULL << bit;
		}
		return 0;
	}
	int64_t id = pv_probe_tracefs_create(p->spec.kernel, p->spec.retprobe, p->spec.symbol,
					     location, p->tracefs_event, sizeof(p->tracefs_event));
	if (id < 0)
		return (int)id;
	p->attr.type = PERF_TYPE_TRACEPOINT;
	p->attr.config = (uint64_t)id;
	return 0;
}

static int build_uprobe(struct perfev_probe *p)
{
	p->path = resolve_path(p->spec.path);
	if (!p->path)
		return -errno;
	uint64_t off;
	int r = perfev_elf_symbol_file_offset(p->path, p->spec.symbol, &off);
	if (r < 0)
		return r;
	if (p->spec.offset && (r = pv_probe_check_offset(p->path, p->spec.symbol, p->spec.offset)) < 0)
		return r;
	p->offset = off + p->spec.offset;
	char file[96], sym[300];
	snprintf(file, sizeof(file), "%s", base_name(p->path));
	for (char *c = file; *c; c++)
		if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9')))
			*c = '_';
	snprintf(sym, sizeof(sym), "%s%s", p->spec.symbol, p->spec.retprobe ? "__return" : "");
	if (asprintf(&p->name, "probe_%s:%s", file, sym) < 0)
		return pv_error(ENOMEM, "out of memory");

	char loc[PATH_MAX + 32];
	snprintf(loc, sizeof(loc), "%s:0x%llx", p->path, (unsigned long long)p->offset);
	return build_attr(p, "uprobe", p->path, loc);
}

static int build_kprobe(struct perfev_probe *p)
{
	p->target = pv_strdup(p->spec.symbol);
	if (!p->target)
		return -ENOMEM;
	p->offset = p->spec.offset;
	if (asprintf(&p->name, "probe:%s%s", p->spec.symbol, p->spec.retprobe ? "__return" : "") < 0)
		return pv_error(ENOMEM, "out of memory");
	char loc[300];
	if (p->offset)
		snprintf(loc, sizeof(loc), "%s+%llu", p->target, (unsigned long long)p->offset);
	else
		snprintf(loc, sizeof(loc), "%s", p->target);
	return build_attr(p, "kprobe", p->target, loc);
}

PERFEV_API struct perfev_probe *perfev_probe_new(const char *spec)
{
	struct perfev_probe *p = calloc(1, sizeof(*p));
	if (!p)
		return pv_error_null(ENOMEM, "out of memory");
	int r = perfev_probe_spec_parse(spec, &p->spec);
	if (r == 0) {
		p->attr.size = PERFEV_ATTR_SIZE_LATEST;
		p->attr.sample_period = 1; /* like tracepoints: every hit is a sample */
		r = p->spec.kernel ? build_kprobe(p) : build_uprobe(p);
	}
	if (r < 0) {
		int e = errno;
		perfev_probe_free(p);
		errno = e;
		return NULL;
	}
	return p;
}

PERFEV_API const struct perfev_attr *perfev_probe_attr(const struct perfev_probe *p)
{
	return &p->attr;
}

PERFEV_API const char *perfev_probe_name(const struct perfev_probe *p) { return p->name; }

PERFEV_API const char *perfev_probe_tracefs_event(const struct perfev_probe *p)
{
	return p->tracefs_event[0] ? p->tracefs_event : NULL;
}

PERFEV_API uint64_t perfev_probe_offset(const struct perfev_probe *p) { return p->offset; }

PERFEV_API void perfev_probe_free(struct perfev_probe *p)
{
	if (!p)
		return;
	if (p->tracefs_event[0])
		pv_probe_tracefs_remove(p->tracefs_event);
	free(p->path);
	free(p->target);
	free(p->name);
	free(p);
}

/* ---- the probes behind parsed event strings, alive until exit ------------ */
static struct perfev_probe **registry;
static size_t nr_registry, cap_registry;
static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;

struct perfev_probe *pv_probe_keep(const char *spec)
{
	struct perfev_probe *p = perfev_probe_new(spec);
	if (!p)
		return NULL;
	pthread_mutex_lock(&registry_lock);
	int r = pv_grow(&registry, &cap_registry, nr_registry + 1, sizeof(*registry));
	if (r == 0)
		registry[nr_registry++] = p;
	pthread_mutex_unlock(&registry_lock);
	if (r < 0) {
		perfev_probe_free(p);
		return pv_error_null(ENOMEM, "out of memory");
	}
	return p;
}

void pv_probe_event_name(const struct perfev_probe *p, char *buf, size_t len)
{
	/* a tracefs probe is named as the tracepoint it is: its format is found by it */
	snprintf(buf, len, "%s", p->tracefs_event[0] ? p->tracefs_event : p->name);
	char *slash = p->tracefs_event[0] ? strchr(buf, '/') : NULL;
	if (slash)
		*slash = ':';
}

PERFEV_API struct perfev_evsel *perfev_probe_add(struct perfev_evlist *list, const char *spec)
{
	struct perfev_probe *p = pv_probe_keep(spec);
	if (!p)
		return NULL;
	char name[300];
	pv_probe_event_name(p, name, sizeof(name));
	return perfev_evlist_add(list, &p->attr, name);
}

PERFEV_API int perfev_probe_cleanup_all(void)
{
	pthread_mutex_lock(&registry_lock);
	for (size_t i = 0; i < nr_registry; i++)
		perfev_probe_free(registry[i]);
	free(registry);
	registry = NULL;
	nr_registry = cap_registry = 0;
	pthread_mutex_unlock(&registry_lock);
	return pv_probe_tracefs_remove_all();
}
