/* tasks.c — perf's thread model for perf report --tasks/--mmaps (see
 * perfev/tasks.h): util/machine.c's thread table (findnew, the leader's
 * shared maps, FORK replacing a thread), util/maps.c's overlap fixups and
 * builtin-report.c's tasks_print walk, as perf 6.1 has them. */
#define _GNU_SOURCE
#include "session/tasks_int.h"
#include "perfev.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

struct tmap {
	uint64_t start, end, pgoff;
	uint32_t prot, flags;
	size_t dso;
};

struct tgroup { /* one process's maps (perf's struct maps), by start */
	struct tmap *m;
	size_t nr, cap;
};

struct tthread {
	int32_t pid, tid, ppid;
	int32_t ns_pid;    /* the pid it was made with (perf's nsinfo), 0: none */
	char *comm;        /* NULL: never named */
	size_t group;
	bool removed;
};

struct tdso {
	char *name;
	uint32_t maj, min;
	uint64_t ino, ino_gen;
	size_t next;       /* the next dso of the same name, or SIZE_MAX */
};

struct perfev_tasks {
	bool maps;
	struct tthread *th;
	size_t nr_th, cap_th;
	int32_t *hkey;     /* tid -> thread: open addressing, hval -1 when removed */
	int64_t *hval;     /* index, -1 removed, -2 empty slot */
	size_t hcap, hused;
	struct tgroup *g;
	size_t nr_g, cap_g;
	struct tdso *dso;
	size_t nr_dso, cap_dso;
	size_t *dhash;     /* name hash -> first dso, SIZE_MAX empty */
	size_t dcap;
	size_t vdso;       /* the "[vdso]" dso, SIZE_MAX until made */
	size_t nr_maps;    /* over all processes, against PV_TASKS_MAX_MAPS */
};

/* Every FORK of a new process copies its parent's maps, as perf does: a
 * hostile file of forks under a process of many maps would otherwise
 * grow without bound (perf's own memory grows the same way). */
#define PV_TASKS_MAX_MAPS (16u << 20)

static size_t hash32(int32_t v, size_t cap) { return ((uint32_t)v * 2654435761u) & (cap - 1); }

static int64_t *slot_of(struct perfev_tasks *t, int32_t tid)
{
	if (!t->hcap)
		return NULL;
	for (size_t h = hash32(tid, t->hcap);; h = (h + 1) & (t->hcap - 1)) {
		if (t->hval[h] == -2)
			return NULL;
		if (t->hkey[h] == tid)
			return &t->hval[h];
	}
}

static int rehash(struct perfev_tasks *t)
{
	size_t cap = t->hcap ? t->hcap * 2 : 256;
	int32_t *k = malloc(cap * sizeof(*k));
	int64_t *v = malloc(cap * sizeof(*v));
	if (!k || !v) {
		free(k);
		free(v);
		return -ENOMEM;
	}
	for (size_t i = 0; i < cap; i++)
		v[i] = -2;
	for (size_t i = 0; i < t->hcap; i++) {
		if (t->hval[i] == -2)
			continue;
		size_t h = hash32(t->hkey[i], cap);
		while (v[h] != -2)
			h = (h + 1) & (cap - 1);
		k[h] = t->hkey[i];
		v[h] = t->hval[i];
	}
	free(t->hkey);
	free(t->hval);
	t->hkey = k;
	t->hval = v;
	t->hcap = cap;
	return 0;
}

static int set_slot(struct perfev_tasks *t, int32_t tid, int64_t idx)
{
	int64_t *s = slot_of(t, tid);
	if (s) {
		*s = idx;
		return 0;
	}
	if ((t->hused + 1) * 2 > t->hcap && rehash(t) < 0)
		return -ENOMEM;
	size_t h = hash32(tid, t->hcap);
	while (t->hval[h] != -2)
		h = (h + 1) & (t->hcap - 1);
	t->hkey[h] = tid;
	t->hval[h] = idx;
	t->hused++;
	return 0;
}

static int new_group(struct perfev_tasks *t, size_t *out)
{
	if (pv_grow(&t->g, &t->cap_g, t->nr_g + 1, sizeof(*t->g)) < 0)
		return -ENOMEM;
	memset(&t->g[t->nr_g], 0, sizeof(*t->g));
	*out = t->nr_g++;
	return 0;
}

static int findnew(struct perfev_tasks *t, int32_t pid, int32_t tid, bool create, struct tthread **out);

/* Thread idx shares the maps of its process's leader (made if new). */
static int join_leader(struct perfev_tasks *t, size_t idx, int32_t pid)
{
	struct tthread *leader;
	int err = findnew(t, pid, pid, true, &leader);
	if (err < 0)
		return err;
	t->th[idx].group = leader->group;
	return 0;
}

/* perf's machine__update_thread_pid: a thread learns its process and
 * shares the leader's maps from then on. */
static int update_pid(struct perfev_tasks *t, size_t idx, int32_t pid)
{
	struct tthread *th = &t->th[idx];
	if (pid == th->pid || pid == -1 || th->pid != -1)
		return 0;
	th->pid = pid;
	return pid == th->tid ? 0 : join_leader(t, idx, pid);
}

/* perf's ____machine__findnew_thread (and thread__init_maps). *out is
 * NULL when !create and the thread is not there; pointers into t->th are
 * good until the next findnew. */
static int findnew(struct perfev_tasks *t, int32_t pid, int32_t tid, bool create, struct tthread **out)
{
	int64_t *s = slot_of(t, tid);
	*out = NULL;
	if (s && *s >= 0) {
		size_t idx = (size_t)*s;
		int err = update_pid(t, idx, pid);
		*out = &t->th[idx];
		return err;
	}
	if (!create)
		return 0;
	if (pv_grow(&t->th, &t->cap_th, t->nr_th + 1, sizeof(*t->th)) < 0)
		return -ENOMEM;
	size_t idx = t->nr_th;
	struct tthread *th = &t->th[idx];
	memset(th, 0, sizeof(*th));
	th->pid = pid, th->tid = tid, th->ppid = -1, th->ns_pid = pid;
	if (set_slot(t, tid, (int64_t)idx) < 0)
		return -ENOMEM;
	t->nr_th++;
	if (pid == tid || pid == -1) {
		size_t g;
		if (new_group(t, &g) < 0)
			return -ENOMEM;
		t->th[idx].group = g;
	} else {
		int err = join_leader(t, idx, pid);
		if (err < 0)
			return err;
	}
	*out = &t->th[idx];
	return 0;
}

static void remove_thread(struct perfev_tasks *t, struct tthread *th)
{
	int64_t *s = slot_of(t, th->tid);
	if (s && *s == th - t->th)
		*s = -1;
	th->removed = true;
}

static int set_comm(struct tthread *th, const char *comm)
{
	char *c = strdup(comm ? comm : "");
	if (!c)
		return -ENOMEM;
	free(th->comm);
	th->comm = c;
	return 0;
}

/* ---- maps ------------------------------------------------------------------ */

static size_t hash_str(const char *s, size_t cap)
{
	uint64_t h = 1469598103934665603ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return (size_t)h & (cap - 1);
}

static int dso_rehash(struct perfev_tasks *t)
{
	size_t cap = t->dcap ? t->dcap * 2 : 256;
	size_t *h = malloc(cap * sizeof(*h));
	if (!h)
		return -ENOMEM;
	for (size_t i = 0; i < cap; i++)
		h[i] = SIZE_MAX;
	/* each name's first dso heads its chain */
	for (size_t i = 0; i < t->nr_dso; i++) {
		size_t k = hash_str(t->dso[i].name, cap);
		while (h[k] != SIZE_MAX && strcmp(t->dso[h[k]].name, t->dso[i].name))
			k = (k + 1) & (cap - 1);
		if (h[k] == SIZE_MAX)
			h[k] = i;
	}
	free(t->dhash);
	t->dhash = h;
	t->dcap = cap;
	return 0;
}

static bool id_empty(uint32_t maj, uint32_t min, uint64_t ino, uint64_t gen) { return !maj && !min && !ino && !gen; }

/* perf's dsos__findnew_id: a file of the same name whose id matches, or
 * either id is empty (an empty one then takes the new id); else a new one. */
static int findnew_dso(struct perfev_tasks *t, const char *name, uint32_t maj, uint32_t min, uint64_t ino,
		       uint64_t gen, size_t *out)
{
	if ((t->nr_dso + 1) * 2 > t->dcap && dso_rehash(t) < 0)
		return -ENOMEM;
	size_t k = hash_str(name, t->dcap);
	while (t->dhash[k] != SIZE_MAX && strcmp(t->dso[t->dhash[k]].name, name))
		k = (k + 1) & (t->dcap - 1);
	size_t last = SIZE_MAX;
	for (size_t i = t->dhash[k]; i != SIZE_MAX; last = i, i = t->dso[i].next) {
		struct tdso *d = &t->dso[i];
		bool empty = id_empty(d->maj, d->min, d->ino, d->ino_gen), nempty = id_empty(maj, min, ino, gen);
		if (empty || nempty || (d->maj == maj && d->min == min && d->ino == ino && d->ino_gen == gen)) {
			if (empty && !nempty)
				d->maj = maj, d->min = min, d->ino = ino, d->ino_gen = gen;
			*out = i;
			return 0;
		}
	}
	if (pv_grow(&t->dso, &t->cap_dso, t->nr_dso + 1, sizeof(*t->dso)) < 0)
		return -ENOMEM;
	struct tdso *d = &t->dso[t->nr_dso];
	if (!(d->name = strdup(name)))
		return -ENOMEM;
	d->maj = maj, d->min = min, d->ino = ino, d->ino_gen = gen, d->next = SIZE_MAX;
	if (last != SIZE_MAX)
		t->dso[last].next = t->nr_dso;
	else
		t->dhash[k] = t->nr_dso;
	*out = t->nr_dso++;
	return 0;
}

/* Inserts after the maps starting at or below it (perf's rbtree insert). */
static int group_insert(struct tgroup *g, const struct tmap *m)
{
	if (pv_grow(&g->m, &g->cap, g->nr + 1, sizeof(*g->m)) < 0)
		return -ENOMEM;
	size_t lo = 0, hi = g->nr;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (g->m[mid].start <= m->start)
			lo = mid + 1;
		else
			hi = mid;
	}
	memmove(&g->m[lo + 1], &g->m[lo], (g->nr - lo) * sizeof(*g->m));
	g->m[lo] = *m;
	g->nr++;
	return 0;
}

/* perf's maps__fixup_overlappings, then the insert: what the new map
 * covers goes, the parts of old maps before and after it stay. */
static int group_insert_fixup(struct tgroup *g, const struct tmap *m)
{
	size_t lo = 0, hi = g->nr;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (g->m[mid].start < m->start)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo > 0 && g->m[lo - 1].end > m->start)
		lo--;
	size_t i = lo;
	while (i < g->nr && g->m[i].start < m->end) {
		struct tmap pos = g->m[i];
		if (pos.end <= m->start) {
			i++;
			continue;
		}
		memmove(&g->m[i], &g->m[i + 1], (g->nr - i - 1) * sizeof(*g->m));
		g->nr--;
		if (m->start > pos.start) {
			struct tmap before = pos;
			before.end = m->start;
			if (group_insert(g, &before) < 0)
				return -ENOMEM;
			i++;
		}
		if (m->end < pos.end) {
			struct tmap after = pos;
			after.start = m->end;
			after.pgoff += m->end - pos.start;
			if (group_insert(g, &after) < 0)
				return -ENOMEM;
		}
	}
	return group_insert(g, m);
}

static bool starts(const char *s, const char *p) { return !strncmp(s, p, strlen(p)); }

static uint32_t raw32(const struct perfev_record *r, size_t off)
{
	uint32_t v = 0;
	if (r->bytes && r->size >= off + 4)
		memcpy(&v, (const uint8_t *)r->bytes + off, 4);
	return v;
}

static uint64_t raw64(const struct perfev_record *r, size_t off)
{
	uint64_t v = 0;
	if (r->bytes && r->size >= off + 8)
		memcpy(&v, (const uint8_t *)r->bytes + off, 8);
	return v;
}

/* perf's machine__process_mmap{,2}_event and map__new for a user map. */
static int process_mmap(struct perfev_tasks *t, const struct perfev_record *r)
{
	uint8_t cpumode = r->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	if (cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL)
		return 0; /* the kernel's maps, not a task's */
	struct tthread *th;
	if (findnew(t, (int32_t)r->u.mmap.pid, (int32_t)r->u.mmap.tid, true, &th) < 0)
		return -ENOMEM;
	struct tmap m = {.start = r->u.mmap.addr, .end = r->u.mmap.addr + r->u.mmap.len, .pgoff = r->u.mmap.pgoff};
	uint32_t maj = 0, min = 0;
	uint64_t ino = 0, gen = 0;
	if (r->type == PERF_RECORD_MMAP2) {
		m.prot = r->u.mmap.prot, m.flags = r->u.mmap.flags;
		if (r->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			/* perf 6.1 reads the id fields whatever they hold: here the build-id */
			maj = raw32(r, 40), min = raw32(r, 44), ino = raw64(r, 48), gen = raw64(r, 56);
		} else {
			maj = r->u.mmap.maj, min = r->u.mmap.min, ino = r->u.mmap.ino, gen = r->u.mmap.ino_generation;
		}
	} else {
		m.prot = r->misc & PERF_RECORD_MISC_MMAP_DATA ? 0 : PROT_EXEC;
	}
	const char *name = r->u.mmap.filename ? r->u.mmap.filename : "";
	bool anon = !strcmp(name, "//anon") || starts(name, "/dev/zero") || starts(name, "/anon_hugepage") ||
		    (m.flags & MAP_HUGETLB);
	bool no_dso = starts(name, "[stack") || starts(name, "/SYSV") || !strcmp(name, "[heap]");
	char buf[64];
	if ((anon || no_dso) && th->ns_pid && (m.prot & PROT_EXEC)) {
		snprintf(buf, sizeof(buf), "/tmp/perf-%d.map", (int)th->ns_pid);
		name = buf;
	}
	size_t group = th->group;
	if (++t->nr_maps > PV_TASKS_MAX_MAPS)
		return -E2BIG;
	if (!strcmp(name, "[vdso]")) {
		m.pgoff = 0; /* the vdso: one file, no id */
		if (t->vdso == SIZE_MAX && findnew_dso(t, name, 0, 0, 0, 0, &t->vdso) < 0)
			return -ENOMEM;
		m.dso = t->vdso;
	} else if (findnew_dso(t, name, maj, min, ino, gen, &m.dso) < 0) {
		return -ENOMEM;
	}
	return group_insert_fixup(&t->g[group], &m);
}

/* perf's machine__process_fork_event and thread__fork. */
static int process_fork(struct perfev_tasks *t, const struct perfev_record *r)
{
	int32_t pid = (int32_t)r->u.fork.pid, tid = (int32_t)r->u.fork.tid;
	int32_t ppid = (int32_t)r->u.fork.ppid, ptid = (int32_t)r->u.fork.ptid;
	struct tthread *th, *parent;
	if (findnew(t, pid, tid, false, &th) < 0)
		return -ENOMEM;
	int64_t old = th ? th - t->th : -1;
	if (findnew(t, ppid, ptid, true, &parent) < 0)
		return -ENOMEM;
	if (parent->pid != ppid) { /* a thread of that id, but not the parent: perf drops it */
		remove_thread(t, parent);
		if (findnew(t, ppid, ptid, true, &parent) < 0)
			return -ENOMEM;
	}
	size_t pidx = (size_t)(parent - t->th);
	if (old >= 0)
		remove_thread(t, &t->th[old]); /* the new task replaces the old of its id */
	if (findnew(t, pid, tid, true, &th) < 0)
		return -ENOMEM;
	parent = &t->th[pidx];
	if (parent->comm && set_comm(th, parent->comm) < 0)
		return -ENOMEM;
	th->ppid = parent->tid;
	bool clone = !(r->misc & PERF_RECORD_MISC_FORK_EXEC); /* perf's synthesized FORKs copy nothing */
	if (th->pid == parent->pid || th->group == parent->group || !clone)
		return 0;
	/* a new process starts with a copy of its parent's maps, inserted as they are */
	size_t cg = th->group, pg = parent->group;
	if ((t->nr_maps += t->g[pg].nr) > PV_TASKS_MAX_MAPS)
		return -E2BIG;
	for (size_t i = 0; i < t->g[pg].nr; i++) {
		struct tmap m = t->g[pg].m[i];
		if (group_insert(&t->g[cg], &m) < 0)
			return -ENOMEM;
	}
	return 0;
}

PERFEV_API int perfev_tasks_process(struct perfev_tasks *t, const struct perfev_record *r)
{
	struct tthread *th;
	int err = 0;
	switch (r->type) {
	case PERF_RECORD_COMM:
		err = findnew(t, (int32_t)r->u.comm.pid, (int32_t)r->u.comm.tid, true, &th);
		if (!err)
			err = set_comm(th, r->u.comm.comm);
		break;
	case PERF_RECORD_FORK:
		err = process_fork(t, r);
		break;
	case PERF_RECORD_EXIT: /* perf keeps exited threads: only the lookup's side effects */
		err = findnew(t, (int32_t)r->u.fork.pid, (int32_t)r->u.fork.tid, false, &th);
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if (t->maps)
			err = process_mmap(t, r);
		break;
	default:
		break;
	}
	if (err == -E2BIG)
		return pv_error(E2BIG, "more than %u maps made for the task tree (forks copy their parent's "
				"maps): the recording is too big or corrupt for --mmaps; --tasks still works",
				PV_TASKS_MAX_MAPS);
	return err < 0 ? pv_error(ENOMEM, "out of memory building the task tree") : 0;
}

PERFEV_API struct perfev_tasks *perfev_tasks_new(bool maps)
{
	struct perfev_tasks *t = calloc(1, sizeof(*t));
	if (!t)
		return pv_error_null(ENOMEM, "out of memory for the task tree");
	t->maps = maps;
	t->vdso = SIZE_MAX;
	struct tthread *idle; /* perf_session__register_idle_thread */
	if (findnew(t, 0, 0, true, &idle) < 0 || set_comm(idle, "swapper") < 0) {
		perfev_tasks_free(t);
		return pv_error_null(ENOMEM, "out of memory for the task tree");
	}
	return t;
}

PERFEV_API void perfev_tasks_free(struct perfev_tasks *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nr_th; i++)
		free(t->th[i].comm);
	free(t->th);
	free(t->hkey);
	free(t->hval);
	for (size_t i = 0; i < t->nr_g; i++)
		free(t->g[i].m);
	free(t->g);
	for (size_t i = 0; i < t->nr_dso; i++)
		free(t->dso[i].name);
	free(t->dso);
	free(t->dhash);
	free(t);
}

static int feed(void *ctx, const struct perfev_record *r) { return perfev_tasks_process(ctx, r); }

PERFEV_API struct perfev_tasks *perfev_tasks_load(const char *path, bool maps)
{
	struct perfev_perfdata *pd = perfev_perfdata_open(path);
	if (!pd)
		return NULL;
	struct perfev_tasks *t = perfev_tasks_new(maps);
	struct perfev_perfdata_read_opts ro = {.sz = sizeof(ro)}; /* time order, as perf's tasks pass */
	int err = t ? perfev_perfdata_process(pd, &ro, feed, t) : -ENOMEM;
	perfev_perfdata_close(pd);
	if (err) {
		perfev_tasks_free(t);
		errno = err < 0 ? -err : EINVAL;
		return NULL;
	}
	return t;
}

size_t *pv_tasks_live(const struct perfev_tasks *t, size_t *nr)
{
	size_t *out = malloc((t->nr_th ? t->nr_th : 1) * sizeof(*out)), n = 0;
	if (!out)
		return NULL;
	for (size_t i = 0; i < t->nr_th; i++)
		if (!t->th[i].removed)
			out[n++] = i;
	*nr = n;
	return out;
}

int64_t pv_tasks_find(const struct perfev_tasks *t, int32_t tid)
{
	int64_t *s = slot_of((struct perfev_tasks *)t, tid);
	return s && *s >= 0 ? *s : -1;
}

int pv_tasks_thread(const struct perfev_tasks *t, size_t idx, struct perfev_task *task, char *buf, size_t len,
		    struct perfev_task_map **maps, size_t *nr_maps)
{
	const struct tthread *th = &t->th[idx];
	task->pid = th->pid, task->tid = th->tid, task->ppid = th->ppid;
	if (th->comm) {
		task->comm = th->comm;
	} else {
		snprintf(buf, len, ":%d", (int)th->tid);
		task->comm = buf;
	}
	*maps = NULL;
	*nr_maps = 0;
	const struct tgroup *g = &t->g[th->group];
	if (!t->maps || !g->nr)
		return 0;
	struct perfev_task_map *m = malloc(g->nr * sizeof(*m));
	if (!m)
		return -ENOMEM;
	for (size_t i = 0; i < g->nr; i++) {
		const struct tdso *d = &t->dso[g->m[i].dso];
		m[i] = (struct perfev_task_map){g->m[i].start, g->m[i].end, g->m[i].pgoff, d->ino,
						g->m[i].prot, g->m[i].flags, d->name};
	}
	*maps = m;
	*nr_maps = g->nr;
	return 0;
}
