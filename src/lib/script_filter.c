/* script_filter.c — perf script's sample filters (--comms, --pid, --tid,
 * -C, --time, -S/--symbols, --dsos) and its time column options (--ns,
 * --reltime, --deltatime), as perf 6.1 applies them: a thread by its name
 * when the sample is processed, its process id and its thread id
 * (thread__is_filtered); the CPU for samples and side-band lines alike
 * (filter_cpu); the time ranges for samples only; a symbol by name or by
 * its start address "0x..." and an object by short or long name, of the
 * sampled address (outside any map: neither passes). */
#define _GNU_SOURCE
#include "script_int.h"
#include "perfdata_int.h"

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

/* "SECONDS[.FRACTION]" as nanoseconds (perf's parse_nsec_time: at most 9 digits). */
static int parse_time(const char *s, size_t len, uint64_t *ns)
{
	uint64_t sec = 0, frac = 0;
	size_t i = 0, digits = 0;
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, digits++) {
		if (sec > UINT64_MAX / 10 / 1000000000ull)
			return -1;
		sec = sec * 10 + (uint64_t)(s[i] - '0');
	}
	if (i < len && s[i] == '.') {
		size_t n = 0;
		for (i++; i < len && s[i] >= '0' && s[i] <= '9'; i++, n++) {
			if (n == 9)
				return -1;
			frac = frac * 10 + (uint64_t)(s[i] - '0');
		}
		for (size_t k = n; k < 9; k++)
			frac *= 10;
		digits += n;
	}
	if (i != len || !digits)
		return -1;
	*ns = sec * 1000000000ull + frac;
	return 0;
}

/* perf's --time: "START,END" ranges separated by spaces, either end may be
 * empty (the file's start or end). Percent ranges ("10%/2") are refused. */
static int parse_ranges(struct pv_script *s, const char *spec)
{
	for (const char *c = spec; *c;) {
		while (*c == ' ')
			c++;
		if (!*c)
			break;
		size_t len = strcspn(c, " ");
		const char *comma = memchr(c, ',', len);
		uint64_t a = 0, b = UINT64_MAX;
		if (memchr(c, '%', len))
			return pv_error(EINVAL, "--time '%s': percent ranges are not supported; give START,END "
					"in seconds as perf script prints them (e.g. --time 2226.41,2227.1)", spec);
		if (!comma || (comma > c && parse_time(c, (size_t)(comma - c), &a) < 0) ||
		    (comma + 1 < c + len && parse_time(comma + 1, (size_t)(c + len - comma - 1), &b) < 0) ||
		    a > b)
			return pv_error(EINVAL, "--time '%s': '%.*s' is not START,END in seconds (either may be "
					"empty, START not after END; several ranges separated by spaces)", spec,
					(int)len, c);
		struct pv_time_range *n = realloc(s->ranges, (s->nr_ranges + 1) * sizeof(*n));
		if (!n)
			return -ENOMEM;
		s->ranges = n;
		s->ranges[s->nr_ranges++] = (struct pv_time_range){a, b};
		c += len;
	}
	return 0;
}

int pv_script_filter_init(struct pv_script *s)
{
	const struct perfev_script_opts *o = s->o;
	int err;
	if (o->pids && (err = parse_ints("pid", o->pids, &s->pids, &s->nr_pids)) < 0)
		return err;
	if (o->tids && (err = parse_ints("tid", o->tids, &s->tids, &s->nr_tids)) < 0)
		return err;
	if (o->time && (err = parse_ranges(s, o->time)) < 0)
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
	if (s->nr_ranges) {
		bool in = false;
		for (size_t i = 0; i < s->nr_ranges && !in; i++)
			in = smp->time >= s->ranges[i].start && smp->time <= s->ranges[i].end;
		if (!in)
			return false;
	}
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
