/* tasks_walk.c — perf report --tasks's walk of the thread model (perf 6.1
 * builtin-report.c: tasks_print, tasks_list, task__print_level), without
 * its recursion: a long chain of forks is a loop here, not a deep stack. */
#define _GNU_SOURCE
#include "session/tasks_int.h"
#include "perfev.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

struct node {
	size_t thread;
	int32_t tid, ppid;
	size_t first, last, next, up; /* children, siblings, tree parent: SIZE_MAX none */
	bool listed;
};

/* perf's table order: 256 trees by tid modulo 256, each in tid order. */
static int table_order(const void *a, const void *b)
{
	const struct node *x = a, *y = b;
	uint32_t bx = (uint32_t)x->tid % 256, by = (uint32_t)y->tid % 256;
	if (bx != by)
		return bx < by ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static void append(struct node *n, size_t parent, size_t child)
{
	n[child].up = parent;
	n[child].listed = true;
	if (n[parent].last == SIZE_MAX)
		n[parent].first = child;
	else
		n[n[parent].last].next = child;
	n[parent].last = child;
}

PERFEV_API int perfev_tasks_walk(struct perfev_tasks *t, perfev_task_fn fn, void *ctx)
{
	size_t nr, *live = pv_tasks_live(t, &nr);
	struct node *n = live ? calloc(nr ? nr : 1, sizeof(*n)) : NULL;
	size_t *of_thread = NULL; /* thread index -> node, for parents */
	int ret = 0;
	if (!n)
		goto nomem;
	for (size_t i = 0; i < nr; i++) {
		struct perfev_task task;
		struct perfev_task_map *m;
		size_t nm;
		char buf[24];
		pv_tasks_thread(t, live[i], &task, buf, sizeof(buf), &m, &nm); /* no maps asked: cannot fail */
		n[i] = (struct node){live[i], task.tid, task.ppid, SIZE_MAX, SIZE_MAX, SIZE_MAX, SIZE_MAX, false};
		free(m);
	}
	qsort(n, nr, sizeof(*n), table_order);
	size_t max_thread = 0;
	for (size_t i = 0; i < nr; i++)
		if (n[i].thread + 1 > max_thread)
			max_thread = n[i].thread + 1;
	if (!(of_thread = malloc((max_thread ? max_thread : 1) * sizeof(*of_thread))))
		goto nomem;
	for (size_t i = 0; i < nr; i++)
		of_thread[n[i].thread] = i;
	/* each task not yet placed goes under its parent, and so on up to a
	 * task already placed (nothing more to do) or a root (a new tree) */
	size_t roots_first = SIZE_MAX, roots_last = SIZE_MAX;
	for (size_t i = 0; i < nr; i++) {
		size_t cur = i;
		for (;;) {
			if (n[cur].listed)
				break;
			if (n[cur].ppid == -1) {
				n[cur].listed = true;
				if (roots_last == SIZE_MAX)
					roots_first = cur;
				else
					n[roots_last].next = cur;
				roots_last = cur;
				break;
			}
			int64_t p = pv_tasks_find(t, n[cur].ppid);
			if (p < 0) { /* cannot happen: a parent is replaced, never removed */
				ret = pv_error(ENOENT, "the parent %d of task %d is missing", (int)n[cur].ppid,
					       (int)n[cur].tid);
				goto out;
			}
			size_t parent = of_thread[p];
			append(n, parent, cur);
			cur = parent;
		}
	}
	for (size_t root = roots_first; root != SIZE_MAX; root = n[root].next) {
		size_t cur = root;
		unsigned depth = 0;
		for (;;) {
			struct perfev_task task;
			struct perfev_task_map *m;
			size_t nm;
			char buf[24];
			if (pv_tasks_thread(t, n[cur].thread, &task, buf, sizeof(buf), &m, &nm) < 0)
				goto nomem;
			task.depth = depth;
			ret = fn(ctx, &task, m, nm);
			free(m);
			if (ret)
				goto out;
			if (n[cur].first != SIZE_MAX) {
				cur = n[cur].first;
				depth++;
				continue;
			}
			while (cur != root && n[cur].next == SIZE_MAX)
				cur = n[cur].up, depth--;
			if (cur == root)
				break;
			cur = n[cur].next;
		}
	}
	goto out;
nomem:
	ret = pv_error(ENOMEM, "out of memory walking the task tree");
out:
	free(of_thread);
	free(n);
	free(live);
	return ret;
}

static int print_task(void *ctx, const struct perfev_task *task, const struct perfev_task_map *m, size_t nr)
{
	FILE *out = ctx;
	/* perf indents a task's maps by what its line printed before the comm */
	int indent = fprintf(out, "  %8d %8d %8d |%*s", (int)task->pid, (int)task->tid, (int)task->ppid,
			     (int)task->depth, "");
	fprintf(out, "%s\n", task->comm);
	for (size_t i = 0; i < nr; i++)
		fprintf(out, "%*s  %" PRIx64 "-%" PRIx64 " %c%c%c%c %08" PRIx64 " %" PRIu64 " %s\n", indent, "",
			m[i].start, m[i].end, m[i].prot & PROT_READ ? 'r' : '-', m[i].prot & PROT_WRITE ? 'w' : '-',
			m[i].prot & PROT_EXEC ? 'x' : '-', m[i].flags & MAP_SHARED ? 's' : 'p', m[i].pgoff, m[i].ino,
			m[i].name);
	return ferror(out) ? -EIO : 0;
}

PERFEV_API int perfev_tasks_print(struct perfev_tasks *t, FILE *out)
{
	fprintf(out, "# %8s %8s %8s  %s\n", "pid", "tid", "ppid", "comm");
	int ret = perfev_tasks_walk(t, print_task, out);
	if (ret == -EIO)
		return pv_error(EIO, "cannot write the task tree: %s", strerror(errno));
	return ret;
}
