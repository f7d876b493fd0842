/* evlist.c — the ordered list of events to open, with groups and details. */
#define _GNU_SOURCE
#include "core/internal.h"
#include "perfev/event.h"

#include <stdlib.h>
#include <string.h>

struct perfev_evsel {
	struct perfev_attr attr;
	struct perfev_evlist *list; /* the owner, where the leader is found */
	size_t idx;
	size_t leader; /* index of the group leader; idx for a leader */
	char *name, *pmu, *unit, *filter, *group_name;
	double scale;
	unsigned flags;
	uint64_t max_events;
};

struct perfev_evlist {
	struct perfev_evsel **ev; /* pointers, so evsels never move */
	size_t nr, cap;
};

PERFEV_API struct perfev_evlist *perfev_evlist_new(void)
{
	struct perfev_evlist *l = calloc(1, sizeof(*l));
	if (!l)
		return pv_error_null(ENOMEM, "out of memory");
	return l;
}

static void evsel_free(struct perfev_evsel *e)
{
	free(e->name);
	free(e->pmu);
	free(e->unit);
	free(e->filter);
	free(e->group_name);
	free(e);
}

PERFEV_API void perfev_evlist_free(struct perfev_evlist *l)
{
	if (!l)
		return;
	for (size_t i = 0; i < l->nr; i++)
		evsel_free(l->ev[i]);
	free(l->ev);
	free(l);
}

PERFEV_API size_t perfev_evlist_count(const struct perfev_evlist *l) { return l->nr; }

PERFEV_API struct perfev_evsel *perfev_evlist_at(const struct perfev_evlist *l, size_t idx)
{
	if (idx >= l->nr)
		return pv_error_null(ERANGE, "event %zu of %zu", idx, l->nr);
	return l->ev[idx];
}

PERFEV_API struct perfev_evsel *perfev_evlist_add(struct perfev_evlist *l,
						  const struct perfev_attr *attr,
						  const char *name)
{
	if (pv_grow(&l->ev, &l->cap, l->nr + 1, sizeof(*l->ev)) < 0)
		return pv_error_null(ENOMEM, "out of memory");
	struct perfev_evsel *e = calloc(1, sizeof(*e));
	if (!e)
		return pv_error_null(ENOMEM, "out of memory");
	e->attr = *attr;
	if (!e->attr.size)
		e->attr.size = PERFEV_ATTR_SIZE_LATEST;
	e->idx = e->leader = l->nr;
	e->scale = 1.0;
	if (name)
		e->name = strdup(name);
	else if (asprintf(&e->name, "%u:0x%llx", attr->type, (unsigned long long)attr->config) < 0)
		e->name = NULL;
	if (!e->name) {
		free(e);
		return pv_error_null(ENOMEM, "out of memory");
	}
	e->list = l;
	l->ev[l->nr++] = e;
	return e;
}

PERFEV_API struct perfev_attr *perfev_evsel_attr(struct perfev_evsel *e) { return &e->attr; }
PERFEV_API const struct perfev_attr *perfev_evsel_attr_const(const struct perfev_evsel *e) { return &e->attr; }
PERFEV_API size_t perfev_evsel_index(const struct perfev_evsel *e) { return e->idx; }
PERFEV_API const char *perfev_evsel_name(const struct perfev_evsel *e) { return e->name; }

static int set_str(char **dst, const char *s)
{
	char *n = NULL;
	if (s && !(n = strdup(s)))
		return pv_error(ENOMEM, "out of memory");
	free(*dst);
	*dst = n;
	return 0;
}

PERFEV_API int perfev_evsel_set_name(struct perfev_evsel *e, const char *name)
{
	if (!name)
		return pv_error(EINVAL, "an event needs a name");
	return set_str(&e->name, name);
}

PERFEV_API int perfev_evsel_set_leader(struct perfev_evsel *e, struct perfev_evsel *leader)
{
	struct perfev_evlist *l = e->list;
	if (leader->list != l)
		return pv_error(EINVAL, "'%s' and its leader '%s' are in different lists",
				e->name, leader->name);
	if (leader->idx > e->idx || leader->leader != leader->idx)
		return pv_error(EINVAL, "'%s' cannot lead '%s': a leader leads its own group and comes first",
				leader->name, e->name);
	/* a leader with members of its own cannot join another group */
	for (size_t i = e->idx + 1; i < l->nr; i++)
		if (l->ev[i]->leader == e->idx && e != leader)
			return pv_error(EINVAL, "'%s' leads a group and cannot join another", e->name);
	e->leader = leader->idx;
	return 0;
}

PERFEV_API struct perfev_evsel *perfev_evsel_leader(const struct perfev_evsel *e)
{
	return e->list->ev[e->leader];
}

PERFEV_API bool perfev_evsel_is_leader(const struct perfev_evsel *e) { return e->leader == e->idx; }

PERFEV_API size_t perfev_evsel_group_size(const struct perfev_evsel *leader)
{
	const struct perfev_evlist *l = leader->list;
	size_t n = 0;
	for (size_t i = leader->idx; i < l->nr; i++)
		n += l->ev[i]->leader == leader->idx;
	return n;
}

PERFEV_API const char *perfev_evsel_pmu_name(const struct perfev_evsel *e) { return e->pmu; }
PERFEV_API int perfev_evsel_set_pmu_name(struct perfev_evsel *e, const char *pmu) { return set_str(&e->pmu, pmu); }
PERFEV_API double perfev_evsel_scale(const struct perfev_evsel *e) { return e->scale; }
PERFEV_API const char *perfev_evsel_unit(const struct perfev_evsel *e) { return e->unit ? e->unit : ""; }

PERFEV_API int perfev_evsel_set_scale_unit(struct perfev_evsel *e, double scale, const char *unit)
{
	int r = set_str(&e->unit, unit);
	if (r == 0)
		e->scale = scale;
	return r;
}

PERFEV_API const char *perfev_evsel_filter(const struct perfev_evsel *e) { return e->filter; }
PERFEV_API int perfev_evsel_set_filter(struct perfev_evsel *e, const char *f) { return set_str(&e->filter, f); }

PERFEV_API unsigned perfev_evsel_flags(const struct perfev_evsel *e) { return e->flags; }
PERFEV_API void perfev_evsel_set_flags(struct perfev_evsel *e, unsigned flags) { e->flags = flags; }
PERFEV_API uint64_t perfev_evsel_max_events(const struct perfev_evsel *e) { return e->max_events; }
PERFEV_API void perfev_evsel_set_max_events(struct perfev_evsel *e, uint64_t n) { e->max_events = n; }
PERFEV_API const char *perfev_evsel_group_name(const struct perfev_evsel *e) { return e->group_name; }
PERFEV_API int perfev_evsel_set_group_name(struct perfev_evsel *e, const char *n) { return set_str(&e->group_name, n); }
