/*
 * selfmon_report.c — region results as a text table or JSON, the registry
 * of live sets the at-exit report walks, where that report goes
 * (PERFEV_REGIONS or perfev_regions_output()), and the default region set.
 */
#define _GNU_SOURCE
#include "core/internal.h"
#include "count/selfmon_int.h"

#include <stdlib.h>
#include <string.h>

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct perfev_selfmon *registry;
static char *output_spec; /* perfev_regions_output(); NULL: the environment */

void pv_sm_registry_add(struct perfev_selfmon *s)
{
	pthread_mutex_lock(&registry_lock);
	s->next_live = registry;
	registry = s;
	pthread_mutex_unlock(&registry_lock);
}

void pv_sm_registry_remove(struct perfev_selfmon *s)
{
	pthread_mutex_lock(&registry_lock);
	for (struct perfev_selfmon **p = &registry; *p; p = &(*p)->next_live)
		if (*p == s) {
			*p = s->next_live;
			break;
		}
	pthread_mutex_unlock(&registry_lock);
}

/* The names of s's regions, in order of first appearance over threads. */
static size_t region_names(struct perfev_selfmon *s, const char ***out)
{
	const char **names = NULL;
	size_t nr = 0, cap = 0;
	for (struct pv_sm_group *g = s->groups; g; g = g->next)
		for (size_t i = 0; i < g->nr_regions; i++) {
			size_t j = 0;
			while (j < nr && strcmp(names[j], g->regions[i].name) != 0)
				j++;
			if (j == nr && pv_grow(&names, &cap, nr + 1, sizeof(*names)) == 0)
				names[nr++] = g->regions[i].name;
		}
	*out = names;
	return nr;
}

static void text_rows(struct pv_buf *b, struct perfev_selfmon *s, const char *region,
		      const char *who, const struct perfev_region_stats *st)
{
	for (size_t i = 0; i < s->nr; i++) {
		double mean = st->calls ? (double)st->total[i] / (double)st->calls : 0;
		if (i == 0)
			pv_buf_printf(b, "%-20s %-10s %10llu ", region, who,
				      (unsigned long long)st->calls);
		else
			pv_buf_printf(b, "%-20s %-10s %10s ", "", "", "");
		pv_buf_printf(b, "%-20s %14llu %12llu %12llu %14.1f\n", s->name[i],
			      (unsigned long long)st->total[i], (unsigned long long)st->min[i],
			      (unsigned long long)st->max[i], mean);
	}
}

static void json_counts(struct pv_buf *b, struct perfev_selfmon *s,
			const struct perfev_region_stats *st)
{
	pv_buf_printf(b, "\"calls\":%llu,\"time_enabled\":%llu,\"time_running\":%llu,\"counts\":[",
		      (unsigned long long)st->calls, (unsigned long long)st->enabled,
		      (unsigned long long)st->running);
	for (size_t i = 0; i < s->nr; i++) {
		pv_buf_puts(b, i ? ",{\"event\":" : "{\"event\":");
		pv_buf_json_str(b, s->name[i]);
		pv_buf_printf(b, ",\"total\":%llu,\"min\":%llu,\"max\":%llu}",
			      (unsigned long long)st->total[i], (unsigned long long)st->min[i],
			      (unsigned long long)st->max[i]);
	}
	pv_buf_putc(b, ']');
}

static void report_build(struct pv_buf *b, struct perfev_selfmon *s, enum perfev_report_format fmt)
{
	const char **names;
	pthread_mutex_lock(&s->lock);
	size_t nr = region_names(s, &names);
	if (fmt == PERFEV_REPORT_JSON) {
		pv_buf_puts(b, "{\"events\":[");
		for (size_t i = 0; i < s->nr; i++) {
			if (i)
				pv_buf_putc(b, ',');
			pv_buf_json_str(b, s->name[i]);
		}
		pv_buf_puts(b, "],\"regions\":[");
	} else {
		pv_buf_printf(b, "%-20s %-10s %10s %-20s %14s %12s %12s %14s\n", "region", "thread",
			      "calls", "event", "total", "min", "max", "mean");
	}
	for (size_t r = 0; r < nr; r++) {
		struct perfev_region_stats sum = {.nr = (uint32_t)s->nr};
		for (struct pv_sm_group *g = s->groups; g; g = g->next)
			for (size_t i = 0; i < g->nr_regions; i++)
				if (strcmp(g->regions[i].name, names[r]) == 0 && g->regions[i].st.calls)
					sum.threads++;
		if (fmt == PERFEV_REPORT_JSON) {
			pv_buf_puts(b, r ? ",{\"name\":" : "{\"name\":");
			pv_buf_json_str(b, names[r]);
			pv_buf_puts(b, ",\"per_thread\":[");
		}
		bool first = true;
		uint32_t threads = sum.threads;
		sum.threads = 0;
		for (struct pv_sm_group *g = s->groups; g; g = g->next)
			for (size_t i = 0; i < g->nr_regions; i++) {
				const struct pv_region *reg = &g->regions[i];
				if (strcmp(reg->name, names[r]) != 0 || !reg->st.calls)
					continue;
				const struct perfev_region_stats t = reg->st;
				pv_sm_stats_add(&sum, &t);
				if (fmt == PERFEV_REPORT_JSON) {
					pv_buf_printf(b, "%s{\"tid\":%d,", first ? "" : ",", (int)g->tid);
					json_counts(b, s, &t);
					pv_buf_putc(b, '}');
				} else {
					char who[32];
					snprintf(who, sizeof(who), "%d", (int)g->tid);
					text_rows(b, s, names[r], who, &t);
				}
				first = false;
			}
		if (fmt == PERFEV_REPORT_JSON) {
			pv_buf_printf(b, "],\"threads\":%u,", sum.threads);
			json_counts(b, s, &sum);
			pv_buf_putc(b, '}');
		} else if (threads > 1) {
			char who[32];
			snprintf(who, sizeof(who), "all(%u)", threads);
			text_rows(b, s, names[r], who, &sum);
		}
	}
	if (fmt == PERFEV_REPORT_JSON)
		pv_buf_puts(b, "]}");
	pthread_mutex_unlock(&s->lock);
	free(names);
}

int pv_sm_report_write(struct perfev_selfmon *s, FILE *f, enum perfev_report_format fmt)
{
	struct pv_buf b = PV_BUF_INIT;
	report_build(&b, s, fmt);
	if (fmt == PERFEV_REPORT_JSON)
		pv_buf_putc(&b, '\n');
	int r = 0;
	if (b.oom)
		r = pv_error(ENOMEM, "out of memory writing the region report");
	else if (fwrite(b.data, 1, b.len, f) != b.len || fflush(f) != 0)
		r = pv_error(errno ? errno : EIO, "writing the region report: %s", strerror(errno));
	pv_buf_free(&b);
	return r;
}

PERFEV_API int perfev_selfmon_report(struct perfev_selfmon *s, FILE *f,
				     enum perfev_report_format format)
{
	if (!s || !f)
		return pv_error(EINVAL, "perfev_selfmon_report needs a set and a stream");
	return pv_sm_report_write(s, f, format);
}

/* ---- where the at-exit report goes ---------------------------------------- */

/* "text" | "json" | "off", each optionally ":FILE". 0, or -EINVAL. */
static int parse_spec(const char *spec, int *fmt, const char **file)
{
	size_t n = strcspn(spec, ":");
	*file = spec[n] == ':' && spec[n + 1] ? spec + n + 1 : NULL;
	if (n == 4 && !strncmp(spec, "text", 4))
		*fmt = PERFEV_REPORT_TEXT;
	else if (n == 4 && !strncmp(spec, "json", 4))
		*fmt = PERFEV_REPORT_JSON;
	else if (n == 3 && !strncmp(spec, "off", 3))
		*fmt = -1;
	else
		return -EINVAL;
	return 0;
}

PERFEV_API int perfev_regions_output(const char *spec)
{
	int fmt;
	const char *file;
	if (!spec || parse_spec(spec, &fmt, &file) < 0)
		return pv_error(EINVAL, "region output '%s': use text, json or off, optionally "
				"followed by :FILE (e.g. json:regions.json)", spec ? spec : "(null)");
	char *copy = pv_strdup(spec);
	if (!copy)
		return -ENOMEM;
	pthread_mutex_lock(&registry_lock);
	free(output_spec);
	output_spec = copy;
	pthread_mutex_unlock(&registry_lock);
	return 0;
}

static bool has_regions(struct perfev_selfmon *s)
{
	for (struct pv_sm_group *g = s->groups; g; g = g->next)
		for (size_t i = 0; i < g->nr_regions; i++)
			if (g->regions[i].st.calls)
				return true;
	return false;
}

/* At exit: every live set with regions, in one document. */
static void report_at_exit(void)
{
	pthread_mutex_lock(&registry_lock);
	const char *spec = output_spec ? output_spec : getenv("PERFEV_REGIONS");
	int fmt = PERFEV_REPORT_TEXT;
	const char *file = NULL;
	if (spec && *spec && parse_spec(spec, &fmt, &file) < 0) {
		pv_warn("PERFEV_REGIONS='%s' is not text, json or off (optionally "
			"with :FILE); writing text to stderr", spec);
		fmt = PERFEV_REPORT_TEXT;
		file = NULL;
	}
	if (fmt < 0)
		goto out;
	struct pv_buf b = PV_BUF_INIT;
	size_t sets = 0;
	if (fmt == PERFEV_REPORT_JSON)
		pv_buf_puts(&b, "{\"perfev_regions\":[");
	/* the registry is newest first; report oldest first */
	struct perfev_selfmon *order[64];
	size_t n = 0;
	for (struct perfev_selfmon *s = registry; s && n < PV_ARRAY_SIZE(order); s = s->next_live)
		if (has_regions(s))
			order[n++] = s;
	while (n--) {
		if (fmt == PERFEV_REPORT_JSON && sets)
			pv_buf_putc(&b, ',');
		else if (fmt == PERFEV_REPORT_TEXT)
			pv_buf_printf(&b, "%sperfev regions (counts per call, scaled when multiplexed):\n",
				      sets ? "\n" : "");
		report_build(&b, order[n], (enum perfev_report_format)fmt);
		sets++;
	}
	if (fmt == PERFEV_REPORT_JSON)
		pv_buf_puts(&b, "]}\n");
	if (sets && !b.oom) {
		FILE *f = file ? fopen(file, "w") : stderr;
		if (!f)
			pv_warn("cannot write the region report to %s: %s", file, strerror(errno));
		else {
			fwrite(b.data, 1, b.len, f);
			if (f != stderr)
				fclose(f);
		}
	}
	pv_buf_free(&b);
out:
	pthread_mutex_unlock(&registry_lock);
}

static pthread_once_t at_exit_once = PTHREAD_ONCE_INIT;
static void at_exit_register(void) { atexit(report_at_exit); }
void pv_sm_report_at_exit_arm(void) { pthread_once(&at_exit_once, at_exit_register); }

/* ---- the default region set ------------------------------------------------- */

static pthread_mutex_t default_lock = PTHREAD_MUTEX_INITIALIZER;
static struct perfev_selfmon *default_set;

static char *default_events; /* perfev_regions_events() */
#define DEFAULT_EVENTS "task-clock,page-faults,context-switches"

static struct perfev_selfmon *default_create(void)
{
	const char *ev = default_events ? default_events : getenv("PERFEV_REGION_EVENTS");
	return perfev_selfmon_new(ev && *ev ? ev : DEFAULT_EVENTS, 0);
}

PERFEV_API int perfev_regions_events(const char *events)
{
	if (!events || !*events)
		return pv_error(EINVAL, "perfev_regions_events: no events given");
	int r = 0;
	pthread_mutex_lock(&default_lock);
	if (default_set)
		r = pv_error(EBUSY, "the default region set is in use already; call "
			     "perfev_regions_events before the first perfev_region_begin");
	else {
		char *copy = pv_strdup(events);
		if (!copy)
			r = -ENOMEM;
		else {
			free(default_events);
			default_events = copy;
		}
	}
	pthread_mutex_unlock(&default_lock);
	return r;
}

PERFEV_API struct perfev_selfmon *perfev_regions_default(void)
{
	struct perfev_selfmon *s = __atomic_load_n(&default_set, __ATOMIC_ACQUIRE);
	if (s)
		return s;
	pthread_mutex_lock(&default_lock);
	if (!(s = default_set) && (s = default_create()))
		__atomic_store_n(&default_set, s, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&default_lock);
	return s;
}

PERFEV_API int perfev_region_begin(const char *name)
{
	struct perfev_selfmon *s = perfev_regions_default();
	return s ? perfev_selfmon_region_begin(s, name) : -errno;
}

PERFEV_API int perfev_region_end(const char *name)
{
	struct perfev_selfmon *s = perfev_regions_default();
	return s ? perfev_selfmon_region_end(s, name) : -errno;
}
