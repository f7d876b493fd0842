/* tasks.c — perf report --tasks/--mmaps's model (see perfev/tasks.h): a
 * session keeping perf's thread table (perfev_session_opts.perf_threads,
 * session_perf.c); tasks_walk.c walks and prints it as perf does. */
#define _GNU_SOURCE
#include "core/internal.h"
#include "perfev.h"

#include <stdlib.h>
#include <string.h>

struct perfev_tasks {
	struct perfev_session *s;
};

PERFEV_API struct perfev_tasks *perfev_tasks_new(bool maps)
{
	struct perfev_tasks *t = calloc(1, sizeof(*t));
	struct perfev_session_opts o;
	memset(&o, 0, sizeof(o)); /* the padding too: the library refuses bytes it does not know */
	o.sz = sizeof(o), o.perf_threads = true, o.perf_maps = maps;
	if (!t || !(t->s = perfev_session_new_opts(&o))) {
		free(t);
		return pv_error_null(ENOMEM, "out of memory for the task tree");
	}
	return t;
}

PERFEV_API void perfev_tasks_free(struct perfev_tasks *t)
{
	if (!t)
		return;
	perfev_session_free(t->s);
	free(t);
}

PERFEV_API int perfev_tasks_process(struct perfev_tasks *t, const struct perfev_record *r)
{
	if (r->type == PERF_RECORD_SAMPLE)
		return 0; /* perf's --tasks pass looks at no sample */
	return perfev_session_process(t->s, r);
}

PERFEV_API struct perfev_session *perfev_tasks_session(struct perfev_tasks *t) { return t->s; }

static int feed(void *ctx, const struct perfev_record *r) { return perfev_tasks_process(ctx, r); }

PERFEV_API struct perfev_tasks *perfev_tasks_load(const char *path, bool maps)
{
	struct perfev_perfdata *pd = perfev_perfdata_open(path);
	if (!pd)
		return NULL;
	struct perfev_tasks *t = perfev_tasks_load_from(pd, maps);
	pv_close_keep_errno(pd);
	return t;
}

PERFEV_API struct perfev_tasks *perfev_tasks_load_from(struct perfev_perfdata *pd, bool maps)
{
	struct perfev_tasks *t = perfev_tasks_new(maps);
	struct perfev_perfdata_read_opts ro = {.sz = sizeof(ro)}; /* time order, as perf's tasks pass */
	int err = t ? perfev_perfdata_process(pd, &ro, feed, t) : -ENOMEM;
	if (err) {
		perfev_tasks_free(t);
		errno = err < 0 ? -err : EINVAL;
		return NULL;
	}
	return t;
}
