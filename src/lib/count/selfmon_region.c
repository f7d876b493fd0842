/*
 * selfmon_region.c — named regions: a snapshot of the thread's group at
 * begin, another at end, the difference added to the region (per thread,
 * no lock: a thread's regions are its own). Nothing here makes a system
 * call beyond the two reads, once the thread's group is open and started.
 */
#define _GNU_SOURCE
#include "core/internal.h"
#include "count/selfmon_int.h"
#include "count/selfmon_math.h"
#include "perfev/sys.h"

#include <stdlib.h>
#include <string.h>

void pv_sm_regions_free(struct pv_sm_group *g)
{
	for (size_t i = 0; i < g->nr_regions; i++)
		free(g->regions[i].name);
	free(g->regions);
	free(g->stack);
	g->regions = NULL;
	g->stack = NULL;
	g->nr_regions = g->cap_regions = g->depth = g->cap_stack = 0;
}

static long region_find(struct pv_sm_group *g, const char *name)
{
	for (size_t i = 0; i < g->nr_regions; i++)
		if (strcmp(g->regions[i].name, name) == 0)
			return (long)i;
	return -1;
}

static long region_add(struct perfev_selfmon *s, struct pv_sm_group *g, const char *name)
{
	if (pv_grow(&g->regions, &g->cap_regions, g->nr_regions + 1, sizeof(*g->regions)) < 0)
		return pv_error(ENOMEM, "out of memory");
	struct pv_region *r = &g->regions[g->nr_regions];
	memset(r, 0, sizeof(*r));
	if (!(r->name = pv_strdup(name)))
		return -ENOMEM;
	r->st.nr = (uint32_t)s->nr;
	r->st.threads = 1;
	pv_sm_report_at_exit_arm();
	return (long)g->nr_regions++;
}

PERFEV_API int perfev_selfmon_region_begin(struct perfev_selfmon *s, const char *name)
{
	if (!name)
		return pv_error(EINVAL, "a region needs a name");
	struct pv_sm_group *g = pv_sm_group_get(s);
	if (!g)
		return -errno;
	if (!g->started && !g->manual) {
		int r = perfev_ioc_enable(g->fd[0], false);
		if (r < 0)
			return r;
		g->started = true;
	}
	long idx = region_find(g, name);
	if (idx < 0 && (idx = region_add(s, g, name)) < 0)
		return (int)idx;
	if (pv_grow(&g->stack, &g->cap_stack, g->depth + 1, sizeof(*g->stack)) < 0)
		return pv_error(ENOMEM, "out of memory");
	struct pv_region_frame *f = &g->stack[g->depth];
	f->region = (size_t)idx;
	int r = pv_sm_group_read(s, g, &f->at);
	if (r < 0)
		return r;
	g->depth++;
	return 0;
}

PERFEV_API int perfev_selfmon_region_end(struct perfev_selfmon *s, const char *name)
{
	struct pv_sm_group *g = pv_sm_group_get(s);
	if (!g)
		return -errno;
	if (g->depth == 0)
		return pv_error(EINVAL, "region '%s' ends but no region is open in this thread; "
				"call perfev_region_begin first", name ? name : "(null)");
	struct pv_region_frame *f = &g->stack[g->depth - 1];
	struct pv_region *reg = &g->regions[f->region];
	if (name && strcmp(reg->name, name) != 0)
		return pv_error(EINVAL, "region '%s' ends but '%s' is the innermost open region; "
				"end regions in the reverse order of their begins", name, reg->name);
	struct perfev_selfmon_values now;
	int r = pv_sm_group_read(s, g, &now);
	if (r < 0)
		return r;
	g->depth--;
	uint64_t d_ena = now.enabled - f->at.enabled, d_run = now.running - f->at.running;
	struct perfev_region_stats *st = &reg->st;
	for (size_t i = 0; i < s->nr; i++) {
		uint64_t d = pv_sm_scale(now.value[i] - f->at.value[i], d_ena, d_run);
		st->total[i] += d;
		if (st->calls == 0 || d < st->min[i])
			st->min[i] = d;
		if (d > st->max[i])
			st->max[i] = d;
	}
	st->enabled += d_ena;
	st->running += d_run;
	st->calls++;
	return 0;
}

void pv_sm_stats_add(struct perfev_region_stats *sum, const struct perfev_region_stats *t)
{
	for (uint32_t i = 0; i < t->nr; i++) {
		sum->total[i] += t->total[i];
		if (sum->calls == 0 || t->min[i] < sum->min[i])
			sum->min[i] = t->min[i];
		if (t->max[i] > sum->max[i])
			sum->max[i] = t->max[i];
	}
	sum->calls += t->calls;
	sum->enabled += t->enabled;
	sum->running += t->running;
	sum->threads++;
}

PERFEV_API int perfev_selfmon_region_stats(struct perfev_selfmon *s, const char *name,
					   bool all_threads, struct perfev_region_stats *out)
{
	memset(out, 0, sizeof(*out));
	out->nr = (uint32_t)s->nr;
	if (!name)
		return pv_error(EINVAL, "a region needs a name");
	if (!all_threads) {
		struct pv_sm_group *g = pv_sm_group_get(s);
		if (!g)
			return -errno;
		long idx = region_find(g, name);
		if (idx < 0 || g->regions[idx].st.calls == 0)
			return pv_error(ENOENT, "region '%s' has no completed call in this thread", name);
		*out = g->regions[idx].st;
		return 0;
	}
	pthread_mutex_lock(&s->lock);
	for (struct pv_sm_group *g = s->groups; g; g = g->next) {
		long idx = region_find(g, name);
		if (idx >= 0 && g->regions[idx].st.calls)
			pv_sm_stats_add(out, &g->regions[idx].st);
	}
	pthread_mutex_unlock(&s->lock);
	if (!out->calls)
		return pv_error(ENOENT, "region '%s' has no completed call in any thread", name);
	return 0;
}
