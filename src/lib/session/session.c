/* session.c — threads, names and memory maps over time (see perfev/session.h). */
#define _GNU_SOURCE
#include "session/session_int.h"
#include "core/opts.h"
#include "perfev.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct comm_at {
	uint64_t time;
	char *comm;
};

struct sthread {
	uint32_t tid;
	int64_t pid;
	struct comm_at *comms;
	size_t nr_comms, cap_comms;
	char *unnamed; /* ":TID" */
	int32_t ppid;  /* of the last FORK that made it; -1 none */
	bool exited;
};

struct smap {
	struct perfev_map map;
	uint64_t t_start, t_end;
};

struct sproc {
	int64_t pid; /* -1: the kernel */
	struct smap *maps;
	size_t nr, cap;
};

struct perfev_session {
	struct sthread *threads;
	size_t nr_threads, cap_threads;
	size_t last_thread; /* index of the thread found last */
	int32_t *thash; /* index into threads, -1 empty; size cap_hash */
	size_t cap_hash;
	struct sproc *procs;
	size_t nr_procs, cap_procs;
	int32_t *phash; /* pid -> index into procs, -1 empty; size cap_phash */
	size_t cap_phash;
	/* the last map found, per address space kind (user, kernel): samples hit the same few */
	struct { int64_t pid; size_t proc, map; bool valid; } last[2];
	char **strings; /* paths, owned */
	size_t nr_strings, cap_strings;
	/* build-ids by path (the BUILD_ID feature), for maps recorded without one */
	struct sbuild { const char *path; uint8_t id[PERFEV_BUILD_ID_MAX]; uint8_t len; } *builds;
	size_t nr_builds, cap_builds;
	struct pv_perf_threads *perf; /* opts.perf_threads: perf's table, beside ours */
};

PERFEV_API struct perfev_session *perfev_session_new(void) { return perfev_session_new_opts(NULL); }

PERFEV_API struct perfev_session *perfev_session_new_opts(const struct perfev_session_opts *opts)
{
	if (!PV_OPTS_VALID(opts, perfev_session_opts))
		return NULL; /* errno and the message set */
	bool perf = PV_OPTS_GET(opts, perf_threads, false), maps = PV_OPTS_GET(opts, perf_maps, false);
	if (maps && !perf)
		return pv_error_null(EINVAL, "session: perf_maps are the maps of perf's thread table: "
					     "ask for perf_threads too");
	struct perfev_session *s = calloc(1, sizeof(*s));
	if (!s || (perf && !(s->perf = pv_perf_threads_new(maps)))) {
		free(s);
		return pv_error_null(ENOMEM, "out of memory creating a session");
	}
	return s;
}

PERFEV_API void perfev_session_free(struct perfev_session *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr_threads; i++) {
		for (size_t k = 0; k < s->threads[i].nr_comms; k++)
			free(s->threads[i].comms[k].comm);
		free(s->threads[i].comms);
		free(s->threads[i].unnamed);
	}
	free(s->threads);
	free(s->thash);
	free(s->builds);
	for (size_t i = 0; i < s->nr_procs; i++)
		free(s->procs[i].maps);
	free(s->procs);
	free(s->phash);
	for (size_t i = 0; i < s->nr_strings; i++)
		free(s->strings[i]);
	free(s->strings);
	pv_perf_threads_free(s->perf);
	free(s);
}

static size_t thash(uint32_t tid, size_t cap) { return (tid * 2654435761u) & (cap - 1); }

static struct sthread *find_thread(struct perfev_session *s, uint32_t tid)
{
	if (!s->cap_hash)
		return NULL;
	/* a sample asks three times for its thread, and runs of samples share one */
	if (s->last_thread < s->nr_threads && s->threads[s->last_thread].tid == tid)
		return &s->threads[s->last_thread];
	for (size_t h = thash(tid, s->cap_hash); s->thash[h] >= 0; h = (h + 1) & (s->cap_hash - 1))
		if (s->threads[s->thash[h]].tid == tid) {
			s->last_thread = (size_t)s->thash[h];
			return &s->threads[s->thash[h]];
		}
	return NULL;
}

static int rehash(struct perfev_session *s)
{
	size_t cap = s->cap_hash ? s->cap_hash * 2 : 256;
	int32_t *h = malloc(cap * sizeof(*h));
	if (!h)
		return -ENOMEM;
	memset(h, 0xff, cap * sizeof(*h));
	for (size_t i = 0; i < s->nr_threads; i++) {
		size_t k = thash(s->threads[i].tid, cap);
		while (h[k] >= 0)
			k = (k + 1) & (cap - 1);
		h[k] = (int32_t)i;
	}
	free(s->thash);
	s->thash = h;
	s->cap_hash = cap;
	return 0;
}

static struct sthread *get_thread(struct perfev_session *s, int64_t pid, uint32_t tid)
{
	struct sthread *t = find_thread(s, tid);
	if (t) {
		if (t->pid < 0 && pid >= 0)
			t->pid = pid;
		return t;
	}
	if ((s->nr_threads + 1) * 2 > s->cap_hash && rehash(s) < 0)
		return NULL;
	if (pv_grow(&s->threads, &s->cap_threads, s->nr_threads + 1, sizeof(*s->threads)) < 0)
		return NULL;
	t = &s->threads[s->nr_threads];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->pid = pid;
	t->ppid = -1;
	size_t k = thash(tid, s->cap_hash);
	while (s->thash[k] >= 0)
		k = (k + 1) & (s->cap_hash - 1);
	s->thash[k] = (int32_t)s->nr_threads++;
	return t;
}

static int set_comm(struct sthread *t, const char *comm, uint64_t time)
{
	if (pv_grow(&t->comms, &t->cap_comms, t->nr_comms + 1, sizeof(*t->comms)) < 0)
		return -ENOMEM;
	char *c = strdup(comm);
	if (!c)
		return -ENOMEM;
	t->comms[t->nr_comms++] = (struct comm_at){time, c};
	return 0;
}

static size_t phash(int64_t pid, size_t cap) { return ((uint64_t)pid * 0x9E3779B97F4A7C15ULL >> 20) & (cap - 1); }

static struct sproc *find_proc(struct perfev_session *s, int64_t pid)
{
	if (!s->cap_phash)
		return NULL;
	for (size_t h = phash(pid, s->cap_phash); s->phash[h] >= 0; h = (h + 1) & (s->cap_phash - 1))
		if (s->procs[s->phash[h]].pid == pid)
			return &s->procs[s->phash[h]];
	return NULL;
}

static int prehash(struct perfev_session *s)
{
	size_t cap = s->cap_phash ? s->cap_phash * 2 : 256;
	int32_t *h = malloc(cap * sizeof(*h));
	if (!h)
		return -ENOMEM;
	memset(h, 0xff, cap * sizeof(*h));
	for (size_t i = 0; i < s->nr_procs; i++) {
		size_t k = phash(s->procs[i].pid, cap);
		while (h[k] >= 0)
			k = (k + 1) & (cap - 1);
		h[k] = (int32_t)i;
	}
	free(s->phash);
	s->phash = h;
	s->cap_phash = cap;
	return 0;
}

static struct sproc *get_proc(struct perfev_session *s, int64_t pid)
{
	struct sproc *p = find_proc(s, pid);
	if (p)
		return p;
	if ((s->nr_procs + 1) * 2 > s->cap_phash && prehash(s) < 0)
		return NULL;
	if (pv_grow(&s->procs, &s->cap_procs, s->nr_procs + 1, sizeof(*s->procs)) < 0)
		return NULL;
	p = &s->procs[s->nr_procs];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	size_t k = phash(pid, s->cap_phash);
	while (s->phash[k] >= 0)
		k = (k + 1) & (s->cap_phash - 1);
	s->phash[k] = (int32_t)s->nr_procs++;
	return p;
}

static const char *intern(struct perfev_session *s, const char *str)
{
	/* the most recent paths repeat most */
	for (size_t i = s->nr_strings, n = 0; i-- > 0 && n < 64; n++)
		if (!strcmp(s->strings[i], str))
			return s->strings[i];
	if (pv_grow(&s->strings, &s->cap_strings, s->nr_strings + 1, sizeof(char *)) < 0)
		return NULL;
	char *c = strdup(str);
	if (c)
		s->strings[s->nr_strings++] = c;
	return c;
}

static int add_map(struct sproc *p, const struct perfev_map *m, uint64_t time)
{
	/* a new mapping hides what it overlaps from now on; what sticks out stays */
	size_t n = p->nr;
	for (size_t i = 0; i < n; i++) {
		struct smap *o = &p->maps[i];
		if (o->t_end != UINT64_MAX || o->map.end <= m->start || o->map.start >= m->end)
			continue;
		struct smap old = *o;
		o->t_end = time;
		if (old.map.start < m->start) {
			struct smap l = old;
			l.map.end = m->start;
			l.t_start = time;
			l.t_end = UINT64_MAX;
			if (pv_grow(&p->maps, &p->cap, p->nr + 1, sizeof(*p->maps)) < 0)
				return -ENOMEM;
			p->maps[p->nr++] = l;
		}
		if (old.map.end > m->end) {
			struct smap r = old;
			r.map.pgoff += m->end - old.map.start;
			r.map.start = m->end;
			r.t_start = time;
			r.t_end = UINT64_MAX;
			if (pv_grow(&p->maps, &p->cap, p->nr + 1, sizeof(*p->maps)) < 0)
				return -ENOMEM;
			p->maps[p->nr++] = r;
		}
	}
	if (pv_grow(&p->maps, &p->cap, p->nr + 1, sizeof(*p->maps)) < 0)
		return -ENOMEM;
	p->maps[p->nr++] = (struct smap){*m, time, UINT64_MAX};
	return 0;
}

static bool kernel_mode(uint8_t cpumode)
{
	return cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
}

static int process_mmap(struct perfev_session *s, const struct perfev_record *r, uint64_t time)
{
	struct perfev_map m = {0};
	m.start = r->u.mmap.addr;
	m.end = r->u.mmap.addr + r->u.mmap.len;
	if (m.end < m.start)
		m.end = UINT64_MAX;
	m.pgoff = r->u.mmap.pgoff;
	m.path = intern(s, r->u.mmap.filename ? r->u.mmap.filename : "//anon");
	if (!m.path)
		return -ENOMEM;
	/* Kernels before 3.x recorded the vdso's address as its pgoff; the
	 * image starts at offset 0 whatever a record says (perf's map__new) */
	if (!strcmp(m.path, "[vdso]"))
		m.pgoff = 0;
	if (r->type == PERF_RECORD_MMAP2) {
		m.prot = r->u.mmap.prot;
		m.flags = r->u.mmap.flags;
		if (r->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			m.build_id_len = r->u.mmap.build_id_size;
			memcpy(m.build_id, r->u.mmap.build_id, m.build_id_len);
		} else {
			m.maj = r->u.mmap.maj;
			m.min = r->u.mmap.min;
			m.ino = r->u.mmap.ino;
			m.ino_generation = r->u.mmap.ino_generation;
		}
	}
	m.kernel = kernel_mode(r->misc & PERF_RECORD_MISC_CPUMODE_MASK);
	int64_t pid = m.kernel ? -1 : (int64_t)r->u.mmap.pid;
	struct sproc *p = get_proc(s, pid);
	if (!p)
		return -ENOMEM;
	if (!m.kernel && !get_thread(s, (int32_t)r->u.mmap.pid, r->u.mmap.tid))
		return -ENOMEM;
	for (size_t i = 0; !m.build_id_len && i < s->nr_builds; i++)
		if (!strcmp(s->builds[i].path, m.path)) {
			m.build_id_len = s->builds[i].len;
			memcpy(m.build_id, s->builds[i].id, m.build_id_len);
		}
	return add_map(p, &m, time);
}

static bool has_live_maps(const struct sproc *p)
{
	for (size_t i = 0; i < p->nr; i++)
		if (p->maps[i].t_end == UINT64_MAX)
			return true;
	return false;
}

/* The live maps of `from` into `to` from `time` on (procs do not move:
 * neither is made here). */
static int copy_maps(struct sproc *to, const struct sproc *from, uint64_t time)
{
	/* a new process has nothing they could overlap, and they do not overlap
	 * each other (a later map cuts what it covers): no overlap checks, which
	 * cost a process of n maps n*n/2 at each fork */
	bool fresh = !has_live_maps(to);
	for (size_t i = 0; i < from->nr; i++) {
		if (from->maps[i].t_end != UINT64_MAX)
			continue;
		struct perfev_map m = from->maps[i].map;
		if (!fresh) {
			if (add_map(to, &m, time) < 0)
				return -ENOMEM;
			continue;
		}
		if (pv_grow(&to->maps, &to->cap, to->nr + 1, sizeof(*to->maps)) < 0)
			return -ENOMEM;
		to->maps[to->nr++] = (struct smap){m, time, UINT64_MAX};
	}
	return 0;
}

static int process_fork(struct perfev_session *s, const struct perfev_record *r, uint64_t time)
{
	struct sthread *parent = find_thread(s, r->u.fork.ptid);
	struct sthread *child = get_thread(s, (int32_t)r->u.fork.pid, r->u.fork.tid);
	if (!child)
		return -ENOMEM;
	parent = find_thread(s, r->u.fork.ptid); /* get_thread may have moved it */
	child = find_thread(s, r->u.fork.tid);
	child->pid = (int32_t)r->u.fork.pid;
	child->ppid = (int32_t)r->u.fork.ptid;
	child->exited = false;
	if (parent != child && ((parent && parent->nr_comms) || r->u.fork.ptid == 0)) {
		const char *pc = perfev_session_comm(s, r->u.fork.ptid);
		if (set_comm(child, pc, time) < 0)
			return -ENOMEM;
	}
	if (r->u.fork.pid != r->u.fork.ppid) {
		/* a new process starts with a copy of its parent's address space */
		struct sproc *pp = get_proc(s, (int32_t)r->u.fork.ppid);
		struct sproc *cp = get_proc(s, (int32_t)r->u.fork.pid);
		if (!pp || !cp)
			return -ENOMEM;
		pp = get_proc(s, (int32_t)r->u.fork.ppid); /* get_proc may have moved it */
		return copy_maps(cp, pp, time);
	}
	return 0;
}

/* The session's own threads and maps: 0 or -ENOMEM. */
static int process_own(struct perfev_session *s, const struct perfev_record *r)
{
	uint64_t time = r->has_sid ? r->sid.time : 0;
	struct sthread *t;
	switch (r->type) {
	case PERF_RECORD_COMM:
		t = get_thread(s, (int32_t)r->u.comm.pid, r->u.comm.tid);
		if (!t || set_comm(t, r->u.comm.comm ? r->u.comm.comm : "", time) < 0)
			return -ENOMEM;
		if (r->misc & PERF_RECORD_MISC_COMM_EXEC) {
			struct sproc *p = get_proc(s, (int32_t)r->u.comm.pid);
			for (size_t i = 0; p && i < p->nr; i++)
				if (p->maps[i].t_end == UINT64_MAX)
					p->maps[i].t_end = time;
		}
		return 0;
	case PERF_RECORD_FORK:
		return process_fork(s, r, r->u.fork.time ? r->u.fork.time : time);
	case PERF_RECORD_EXIT:
		if ((t = find_thread(s, r->u.fork.tid)))
			t->exited = true;
		return 0;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return process_mmap(s, r, time);
	case PERF_RECORD_SAMPLE:
		if ((r->u.sample.sample_type & PERF_SAMPLE_TID) &&
		    !get_thread(s, (int32_t)r->u.sample.pid, r->u.sample.tid))
			return -ENOMEM;
		return 0;
	default:
		return 0;
	}
}

PERFEV_API int perfev_session_process(struct perfev_session *s, const struct perfev_record *r)
{
	if (process_own(s, r) < 0)
		return pv_error(ENOMEM, "out of memory in the session");
	if (!s->perf || r->type == PERF_RECORD_SAMPLE)
		return 0;
	int err = pv_perf_threads_process(s->perf, r);
	if (err == -E2BIG)
		return pv_error(E2BIG, "more than %u maps made for perf's thread table (forks copy their parent's "
				"maps): the recording is too big or corrupt for perf's maps (--mmaps); --tasks still works",
				PV_PERF_MAX_MAPS);
	return err < 0 ? pv_error(ENOMEM, "out of memory in perf's thread table") : 0;
}

PERFEV_API const char *perfev_session_comm(struct perfev_session *s, uint32_t tid)
{
	struct sthread *t = find_thread(s, tid);
	if (t && t->nr_comms)
		return t->comms[t->nr_comms - 1].comm;
	if (tid == 0)
		return "swapper";
	if (!t && !(t = get_thread(s, -1, tid)))
		return ":?";
	if (!t->unnamed && asprintf(&t->unnamed, ":%d", (int)tid) < 0) /* perf: pid_t, so -1 is ":-1" */
		t->unnamed = NULL;
	return t->unnamed ? t->unnamed : ":?";
}

PERFEV_API const char *perfev_session_comm_at(struct perfev_session *s, uint32_t tid, uint64_t time)
{
	struct sthread *t = find_thread(s, tid);
	if (!t || !t->nr_comms)
		return perfev_session_comm(s, tid);
	const char *c = t->comms[0].comm;
	for (size_t i = 0; i < t->nr_comms && t->comms[i].time <= time; i++)
		c = t->comms[i].comm;
	return c;
}

PERFEV_API int64_t perfev_session_thread_pid(struct perfev_session *s, uint32_t tid)
{
	struct sthread *t = find_thread(s, tid);
	return t ? t->pid : -1;
}

PERFEV_API size_t perfev_session_nr_threads(const struct perfev_session *s) { return s->nr_threads; }

static const struct smap *lookup(const struct sproc *p, uint64_t addr, uint64_t time)
{
	const struct smap *best = NULL, *any = NULL;
	for (size_t i = 0; i < p->nr; i++) {
		const struct smap *m = &p->maps[i];
		if (addr < m->map.start || addr >= m->map.end)
			continue;
		if (m->t_start <= time && time < m->t_end && (!best || m->t_start >= best->t_start))
			best = m;
		/* a sample older than the map it hit (records without time): the live map */
		if (m->t_end == UINT64_MAX && time < m->t_start && (!any || m->t_start >= any->t_start))
			any = m;
	}
	return best ? best : any;
}

PERFEV_API const struct perfev_map *perfev_session_find_map(struct perfev_session *s, uint32_t pid, uint32_t tid,
							    uint8_t cpumode, uint64_t addr, uint64_t time)
{
	bool k = kernel_mode(cpumode);
	int64_t key = k ? -1 : (int64_t)pid;
	if (!k && (int32_t)pid == -1)
		key = perfev_session_thread_pid(s, tid);
	/* a map valid at `time` is the only one there: later ones end it */
	if (s->last[k].valid && s->last[k].pid == key && s->last[k].proc < s->nr_procs) {
		const struct sproc *p = &s->procs[s->last[k].proc];
		if (s->last[k].map < p->nr) {
			const struct smap *m = &p->maps[s->last[k].map];
			if (addr >= m->map.start && addr < m->map.end && m->t_start <= time && time < m->t_end)
				return &m->map;
		}
	}
	struct sproc *p = find_proc(s, key);
	if (!p)
		return NULL;
	const struct smap *m = lookup(p, addr, time);
	if (!m)
		return NULL;
	s->last[k].pid = key;
	s->last[k].proc = (size_t)(p - s->procs);
	s->last[k].map = (size_t)(m - p->maps);
	s->last[k].valid = true;
	return &m->map;
}

PERFEV_API int perfev_session_add_build_id(struct perfev_session *s, const char *path,
					   const uint8_t *build_id, size_t len)
{
	if (!s || !path || len > PERFEV_BUILD_ID_MAX)
		return pv_error(EINVAL, "session_add_build_id: no session or path, or an id over %d bytes",
				PERFEV_BUILD_ID_MAX);
	const char *p = intern(s, path);
	if (!p || pv_grow(&s->builds, &s->cap_builds, s->nr_builds + 1, sizeof(*s->builds)) < 0)
		return pv_error(ENOMEM, "out of memory adding a build-id");
	struct sbuild *b = &s->builds[s->nr_builds++];
	b->path = p;
	b->len = (uint8_t)len;
	memcpy(b->id, build_id, len);
	return 0;
}

static int add_recorded(void *ctx, int32_t pid, uint16_t cpumode, const char *filename,
			const uint8_t *id, size_t len)
{
	return perfev_session_add_build_id(ctx, filename, id, len) < 0 ? -ENOMEM : 0;
}

PERFEV_API int perfev_session_add_build_ids(struct perfev_session *s, const struct perfev_perfdata *pd)
{
	return perfev_perfdata_build_ids(pd, add_recorded, s);
}

PERFEV_API int perfev_session_for_each_thread(struct perfev_session *s, perfev_session_thread_fn fn, void *ctx)
{
	if (s->perf)
		return pv_perf_threads_each(s->perf, fn, ctx);
	for (size_t i = 0; i < s->nr_threads; i++) {
		const struct sthread *t = &s->threads[i];
		struct perfev_session_thread st = {(int32_t)t->pid, (int32_t)t->tid, t->ppid,
						   t->nr_comms ? t->comms[t->nr_comms - 1].comm : NULL, t->exited};
		int ret = fn(ctx, &st);
		if (ret)
			return ret;
	}
	return 0;
}

static int by_start(const void *a, const void *b)
{
	const struct perfev_map *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

PERFEV_API int perfev_session_thread_maps(struct perfev_session *s, int32_t tid, struct perfev_map **maps,
					  size_t *nr)
{
	*maps = NULL;
	*nr = 0;
	if (s->perf) {
		int err = pv_perf_threads_maps(s->perf, tid, maps, nr);
		if (err == -ENOMEM)
			return pv_error(ENOMEM, "out of memory listing the maps of thread %d", (int)tid);
		return err < 0 ? pv_error(-err, "no thread %d in perf's thread table", (int)tid) : 0;
	}
	const struct sthread *t = find_thread(s, (uint32_t)tid);
	if (!t)
		return pv_error(ENOENT, "no thread %d in the session", (int)tid);
	const struct sproc *p = find_proc(s, t->pid >= 0 ? t->pid : (int64_t)tid);
	size_t n = 0;
	for (size_t i = 0; p && i < p->nr; i++)
		n += p->maps[i].t_end == UINT64_MAX;
	if (!n)
		return 0;
	struct perfev_map *m = malloc(n * sizeof(*m));
	if (!m)
		return pv_error(ENOMEM, "out of memory listing the maps of thread %d", (int)tid);
	n = 0;
	for (size_t i = 0; i < p->nr; i++)
		if (p->maps[i].t_end == UINT64_MAX)
			m[n++] = p->maps[i].map;
	qsort(m, n, sizeof(*m), by_start); /* the live maps do not overlap: later ones cut them */
	*maps = m;
	*nr = n;
	return 0;
}
