/* tasks_walk.c — perf report --tasks's walk of the thread model (perf 6.1
 * builtin-report.c: tasks_print, tasks_list, task__print_level) over the
 * session's perf thread table, through the session's public API; without
 * its recursion: a long chain of forks is a loop here, not a deep stack. */
#define _GNU_SOURCE
#include "core/internal.h"
#include "perfev.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

struct node {
	struct perfev_task task;
	char unnamed[16];             /* ":TID" */
	size_t first, last, next, up; /* children, siblings, tree parent: SIZE_MAX none */
	bool listed;
};

struct nodes {
	struct node *n;
	size_t nr, cap;
};

static int add_node(void *ctx, const struct perfev_session_thread *th)
{
	struct nodes *ns = ctx;
	if (pv_grow(&ns->n, &ns->cap, ns->nr + 1, sizeof(*ns->n)) < 0)
		return -ENOMEM;
	struct node *n = &ns->n[ns->nr++];
	*n = (struct node){.task = {th->pid, th->tid, th->ppid, th->comm, 0},
			   .first = SIZE_MAX, .last = SIZE_MAX, .next = SIZE_MAX, .up = SIZE_MAX};
	return 0;
}

/* perf's table order: 256 trees by tid modulo 256, each in tid order. */
static int tid_order(int32_t a, int32_t b)
{
	uint32_t bx = (uint32_t)a % 256, by = (uint32_t)b % 256;
	if (bx != by)
		return bx < by ? -1 : 1;
	return a < b ? -1 : a > b;
}

static int table_order(const void *a, const void *b)
{
	return tid_order(((const struct node *)a)->task.tid, ((const struct node *)b)->task.tid);
}

/* The node of a live tid (each has one) in the sorted nodes, or SIZE_MAX. */
static size_t node_of(const struct nodes *ns, int32_t tid)
{
	size_t lo = 0, hi = ns->nr;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = tid_order(ns->n[mid].task.tid, tid);
		if (!c)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return SIZE_MAX;
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

/* Each task not yet placed goes under its parent, and so on up to a task
 * already placed (nothing more to do) or a root (a new tree); the roots
 * are chained by next from *roots. */
static int place(struct nodes *ns, size_t *roots)
{
	struct node *n = ns->n;
	size_t roots_last = SIZE_MAX;
	*roots = SIZE_MAX;
	for (size_t i = 0; i < ns->nr; i++) {
		size_t cur = i;
		while (!n[cur].listed) {
			if (n[cur].task.ppid == -1) {
				n[cur].listed = true;
				if (roots_last == SIZE_MAX)
					*roots = cur;
				else
					n[roots_last].next = cur;
				roots_last = cur;
				break;
			}
			size_t parent = node_of(ns, n[cur].task.ppid);
			if (parent == SIZE_MAX) /* cannot happen: a parent is replaced, never removed */
				return pv_error(ENOENT, "the parent %d of task %d is missing", (int)n[cur].task.ppid,
						(int)n[cur].task.tid);
			append(n, parent, cur);
			cur = parent;
		}
	}
	return 0;
}

/* Calls fn for node cur, with its process's maps. */
static int visit(struct perfev_session *s, struct node *cur, unsigned depth, perfev_task_fn fn, void *ctx)
{
	struct perfev_map *m;
	size_t nm;
	int ret = perfev_session_thread_maps(s, cur->task.tid, &m, &nm);
	if (ret < 0)
		return ret;
	struct perfev_task_map *tm = nm ? malloc(nm * sizeof(*tm)) : NULL;
	if (nm && !tm) {
		free(m);
		return pv_error(ENOMEM, "out of memory walking the task tree");
	}
	for (size_t i = 0; i < nm; i++)
		tm[i] = (struct perfev_task_map){m[i].start, m[i].end, m[i].pgoff, m[i].ino,
						 m[i].prot, m[i].flags, m[i].path};
	free(m);
	cur->task.depth = depth;
	ret = fn(ctx, &cur->task, tm, nm);
	free(tm);
	return ret;
}

PERFEV_API int perfev_tasks_walk(struct perfev_tasks *t, perfev_task_fn fn, void *ctx)
{
	struct perfev_session *s = perfev_tasks_session(t);
	struct nodes ns = {0};
	size_t roots;
	int ret = perfev_session_for_each_thread(s, add_node, &ns);
	if (ret < 0) {
		ret = pv_error(ENOMEM, "out of memory walking the task tree");
		goto out;
	}
	qsort(ns.n, ns.nr, sizeof(*ns.n), table_order);
	for (size_t i = 0; i < ns.nr; i++) /* named in place: after the sort moved them */
		if (!ns.n[i].task.comm) {
			snprintf(ns.n[i].unnamed, sizeof(ns.n[i].unnamed), ":%d", (int)ns.n[i].task.tid);
			ns.n[i].task.comm = ns.n[i].unnamed;
		}
	if ((ret = place(&ns, &roots)) < 0)
		goto out;
	for (size_t root = roots; root != SIZE_MAX; root = ns.n[root].next) {
		size_t cur = root;
		unsigned depth = 0;
		for (;;) {
			if ((ret = visit(s, &ns.n[cur], depth, fn, ctx)))
				goto out;
			if (ns.n[cur].first != SIZE_MAX) {
				cur = ns.n[cur].first;
				depth++;
				continue;
			}
			while (cur != root && ns.n[cur].next == SIZE_MAX)
				cur = ns.n[cur].up, depth--;
			if (cur == root)
				break;
			cur = ns.n[cur].next;
		}
	}
out:
	free(ns.n);
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
