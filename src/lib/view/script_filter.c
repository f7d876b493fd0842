/* script_filter.c — perf script's sample filters (--comms, --pid, --tid,
 * -C, --time, -S/--symbols, --dsos) and its time column options (--ns,
 * --reltime, --deltatime), as perf 6.1 applies them: a thread by its name
 * when the sample is processed, its process id and its thread id
 * (thread__is_filtered); the CPU for samples and side-band lines alike
 * (filter_cpu); the time ranges for samples only; a symbol by name or by
 * its start address "0x..." and an object by short or long name, of the
 * sampled address (outside any map: neither passes). */
#define _GNU_SOURCE
#include "view/script_int.h"
#include "perfdata/perfdata_int.h"

#include <stdlib.h>
#include <string.h>

/* A comma list of integers into *out (malloc'ed); -EINVAL names the bad item. */
static int parse_ints(const char *opt, const char *list, int64_t **out, size_t *nr)
{
	*out = NULL, *nr = 0;
	for (const char *c = list; c && *c; c = strchr(c, ',') ? strchr(c, ',') + 1 : NULL) {
		char *end;
		long long v = strtoll(c, &end, 10);
		if (end == c || (*end && *end != ',')) {
			free(*out);
			return pv_error(EINVAL, "--%s '%s': '%.*s' is not a number; give a comma list such as 1234,5678",
					opt, list, (int)strcspn(c, ","), c);
		}
		int64_t *n = realloc(*out, (*nr + 1) * sizeof(**out));
		if (!n) {
			free(*out);
			return -ENOMEM;
		}
		*out = n;
		(*out)[(*nr)++] = v;
	}
	return 0;
}

static bool ints_have(const int64_t *v, size_t nr, int64_t x)
{
	for (size_t i = 0; i < nr; i++)
		if (v[i] == x)
			return true;
	return false;
}

int pv_script_filter_init(struct pv_script *s)
{
	const struct perfev_script_opts *o = s->o;
	int err;
	if (o->pids && (err = parse_ints("pid", o->pids, &s->pids, &s->nr_pids)) < 0)
		return err;
	if (o->tids && (err = parse_ints("tid", o->tids, &s->tids, &s->nr_tids)) < 0)
		return err;
	if (o->time && (err = pv_time_ranges_parse(o->time, &s->ranges, &s->nr_ranges)) < 0)
		return err;
	if (o->cpus) {
		s->cpus = perfev_cpus_parse(o->cpus);
		if (!s->cpus)
			return pv_error(EINVAL, "-C '%s': not a CPU list; give CPUs as 0,2-3", o->cpus);
		if (pv_perfdata_check_cpu_filter(s->pd, NULL, s->cpus) < 0)
			return -EINVAL;
	}
	return 0;
}

void pv_script_filter_free(struct pv_script *s)
{
	free(s->pids);
	free(s->tids);
	free(s->ranges);
	perfev_cpus_free(s->cpus);
}

bool pv_script_cpu_shown(const struct pv_script *s, uint32_t cpu)
{
	/* a record without a CPU (UINT32_MAX) passes, as perf's filter_cpu */
	return !s->cpus || cpu == UINT32_MAX || perfev_cpus_has(s->cpus, (int)cpu);
}

bool pv_script_sample_shown(struct pv_script *s, const struct perfev_record *r)
{
	const struct perfev_script_opts *o = s->o;
	const struct perfev_sample *smp = &r->u.sample;
	if (!pv_script_cpu_shown(s, (smp->sample_type & PERF_SAMPLE_CPU) ? smp->cpu : UINT32_MAX))
		return false;
	if (!pv_time_ranges_have(s->ranges, s->nr_ranges, smp->time))
		return false;
	if (o->comms && !pv_list_has(o->comms, perfev_session_comm(s->session, smp->tid)))
		return false;
	if (s->nr_pids && !ints_have(s->pids, s->nr_pids, (int32_t)smp->pid))
		return false;
	if (s->nr_tids && !ints_have(s->tids, s->nr_tids, (int32_t)smp->tid))
		return false;
	if (!o->dsos && !o->symbols)
		return true;
	uint8_t cpumode = r->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	const struct perfev_map *map =
		perfev_session_find_map(s->session, smp->pid, smp->tid, cpumode, smp->ip, smp->time);
	if (o->dsos) {
		if (!map || !map->path)
			return false;
		char buf[256];
		const char *name = pv_script_dso_name(s, map, smp->pid, buf, sizeof(buf));
		const char *slash = name ? strrchr(name, '/') : NULL;
		if (!name || !(pv_list_has(o->dsos, slash ? slash + 1 : name) || pv_list_has(o->dsos, name)))
			return false;
	}
	if (o->symbols) {
		struct perfev_location loc = {0};
		if (!map || !pv_script_resolve(s, r, cpumode, smp->ip, map, &loc))
			return false;
		char start[32];
		snprintf(start, sizeof(start), "0x%llx", (unsigned long long)(smp->ip - loc.symoff));
		if (!pv_list_has(o->symbols, loc.symbol) && !pv_list_has(o->symbols, start))
			return false;
	}
	return true;
}

uint64_t pv_script_shown_time(struct pv_script *s, uint64_t time)
{
	if (s->o->reltime) {
		if (!s->initial_time)
			s->initial_time = time;
		return time - s->initial_time;
	}
	if (s->o->deltatime) {
		uint64_t t = s->previous_time ? time - s->previous_time : 0;
		s->previous_time = time;
		return t;
	}
	return time;
}
