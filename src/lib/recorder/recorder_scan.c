/* recorder_scan.c — which binaries samples hit, for the BUILD_ID feature:
 * the executable maps of each process (from MMAP2, FORK and exec) and a
 * look-up of each sample's ip in them. perf marks only the sampled ip's
 * binary, not the callchain's, and so do we. */
#define _GNU_SOURCE
#include "core/internal.h"
#include "recorder/recorder_int.h"
#include "perfev/record.h"

#include <stdlib.h>
#include <string.h>

struct scan_map {
	uint64_t start, end;
	uint32_t dso;
};

struct scan_proc {
	pid_t pid, parent; /* parent: maps inherited at fork, until exec */
	bool used;
	struct scan_map *maps; /* sorted by start */
	size_t n, cap;
};

struct rec_scan {
	struct scan_proc *procs; /* open addressing on pid, at most half full */
	size_t cap, count;
	struct rec_dso *dsos;
	size_t ndsos, dcap;
	bool kernel_hit;
	pid_t last_pid; /* the last hit, checked first */
	struct scan_map last;
	/* samples read before their process's maps: the rings of the CPUs are
	 * read one after another, and a process that moved may have its MMAP2
	 * in a ring read later; looked up again at the end (rec_scan_dsos) */
	struct scan_pending { pid_t pid; uint64_t ip; } *pending;
	size_t npending, pcap;
};
#define SCAN_MAX_PENDING 65536

static size_t pid_slot(const struct rec_scan *s, pid_t pid)
{
	size_t i = ((uint32_t)pid * 2654435761u) & (s->cap - 1);
	while (s->procs[i].used && s->procs[i].pid != pid)
		i = (i + 1) & (s->cap - 1);
	return i;
}

static struct scan_proc *find_proc(struct rec_scan *s, pid_t pid)
{
	if (!s->cap)
		return NULL;
	struct scan_proc *p = &s->procs[pid_slot(s, pid)];
	return p->used ? p : NULL;
}

static struct scan_proc *get_proc(struct rec_scan *s, pid_t pid)
{
	struct scan_proc *p = find_proc(s, pid);
	if (p)
		return p;
	if ((s->count + 1) * 2 > s->cap) {
		size_t ncap = s->cap ? s->cap * 2 : 64;
		struct scan_proc *np = calloc(ncap, sizeof(*np));
		if (!np)
			return NULL;
		struct rec_scan tmp = {.procs = np, .cap = ncap};
		for (size_t i = 0; i < s->cap; i++)
			if (s->procs[i].used)
				np[pid_slot(&tmp, s->procs[i].pid)] = s->procs[i];
		free(s->procs);
		s->procs = np;
		s->cap = ncap;
	}
	p = &s->procs[pid_slot(s, pid)];
	*p = (struct scan_proc){.pid = pid, .parent = -1, .used = true};
	s->count++;
	return p;
}

static struct rec_scan *scan(struct perfev_recorder *r)
{
	if (!r->scan)
		r->scan = calloc(1, sizeof(*r->scan));
	return r->scan;
}

static int dso_index(struct rec_scan *s, const char *path)
{
	for (size_t i = s->ndsos; i-- > 0;)
		if (!strcmp(s->dsos[i].path, path))
			return (int)i;
	if (pv_grow(&s->dsos, &s->dcap, s->ndsos + 1, sizeof(*s->dsos)) < 0)
		return -ENOMEM;
	char *p = strdup(path);
	if (!p)
		return -ENOMEM;
	s->dsos[s->ndsos] = (struct rec_dso){.path = p};
	return (int)s->ndsos++;
}

void rec_scan_mmap(struct perfev_recorder *r, pid_t pid, uint64_t start, uint64_t len,
		   const char *path)
{
	struct rec_scan *s = scan(r);
	struct scan_proc *p = s ? get_proc(s, pid) : NULL;
	int d = p ? dso_index(s, path) : -1;
	if (d < 0 || pv_grow(&p->maps, &p->cap, p->n + 1, sizeof(*p->maps)) < 0)
		return;
	uint64_t end = start + len;
	/* A new map replaces what it overlaps (as mmap(2) does). */
	size_t w = 0;
	for (size_t i = 0; i < p->n; i++)
		if (p->maps[i].end <= start || p->maps[i].start >= end)
			p->maps[w++] = p->maps[i];
	p->n = w;
	size_t at = p->n;
	while (at > 0 && p->maps[at - 1].start > start)
		at--;
	memmove(&p->maps[at + 1], &p->maps[at], (p->n - at) * sizeof(*p->maps));
	p->maps[at] = (struct scan_map){start, end, (uint32_t)d};
	p->n++;
	s->last_pid = 0;
}

void rec_scan_fork(struct perfev_recorder *r, pid_t pid, pid_t ppid)
{
	struct rec_scan *s = scan(r);
	if (!s || pid == ppid)
		return; /* a new thread shares its process's maps */
	struct scan_proc *p = get_proc(s, pid);
	if (p) {
		p->n = 0;
		p->parent = ppid;
	}
	s->last_pid = 0;
}

void rec_scan_exec(struct perfev_recorder *r, pid_t pid)
{
	struct rec_scan *s = scan(r);
	struct scan_proc *p = s ? find_proc(s, pid) : NULL;
	if (!p)
		return;
	p->n = 0;
	p->parent = -1;
	s->last_pid = 0;
}

static const struct scan_map *lookup(const struct scan_proc *p, uint64_t ip)
{
	size_t lo = 0, hi = p->n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		if (p->maps[mid].start <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && ip < p->maps[lo - 1].end)
		return &p->maps[lo - 1];
	return NULL;
}

/* Marks the binary of the map holding ip in pid (or the parent it forked
 * from, until its exec); false where none does. */
static bool mark(struct rec_scan *s, pid_t pid, uint64_t ip)
{
	for (int depth = 0; depth < 64; depth++) {
		struct scan_proc *p = find_proc(s, pid);
		if (!p)
			return false;
		const struct scan_map *m = lookup(p, ip);
		if (m) {
			s->dsos[m->dso].hit = true;
			s->last_pid = pid;
			s->last = *m;
			return true;
		}
		if (p->parent < 0)
			return false;
		pid = p->parent;
	}
	return false;
}

void rec_scan_sample(struct perfev_recorder *r, pid_t pid, uint64_t ip, bool kernel)
{
	struct rec_scan *s = scan(r);
	if (!s)
		return;
	if (kernel) {
		s->kernel_hit = true;
		return;
	}
	if (s->last_pid == pid && ip >= s->last.start && ip < s->last.end)
		return; /* the same binary as last time: already marked */
	if (mark(s, pid, ip) || s->npending >= SCAN_MAX_PENDING ||
	    pv_grow(&s->pending, &s->pcap, s->npending + 1, sizeof(*s->pending)) < 0)
		return;
	s->pending[s->npending++] = (struct scan_pending){pid, ip};
}

const struct rec_dso *rec_scan_dsos(struct perfev_recorder *r, size_t *n, bool *kernel_hit)
{
	struct rec_scan *s = r->scan;
	for (size_t i = 0; s && i < s->npending; i++)
		mark(s, s->pending[i].pid, s->pending[i].ip);
	if (s)
		s->npending = 0;
	*n = s ? s->ndsos : 0;
	*kernel_hit = s && s->kernel_hit;
	return s ? s->dsos : NULL;
}

void rec_scan_free(struct perfev_recorder *r)
{
	struct rec_scan *s = r->scan;
	if (!s)
		return;
	for (size_t i = 0; i < s->cap; i++)
		free(s->procs[i].maps);
	for (size_t i = 0; i < s->ndsos; i++)
		free(s->dsos[i].path);
	free(s->procs);
	free(s->dsos);
	free(s->pending);
	free(s);
	r->scan = NULL;
}

/* Samples take the fast path: the recorder's attrs all start with
 * IDENTIFIER, IP, TID, so ip and pid sit at fixed offsets. */
void rec_scan_record(struct perfev_recorder *r, const void *rec, size_t size)
{
	const struct perf_event_header *h = rec;
	if (h->type == PERF_RECORD_SAMPLE) {
		if (size < 32)
			return;
		uint64_t ip;
		uint32_t pid;
		memcpy(&ip, (const char *)rec + 16, 8);
		memcpy(&pid, (const char *)rec + 24, 4);
		uint16_t mode = h->misc & PERF_RECORD_MISC_CPUMODE_MASK;
		rec_scan_sample(r, (pid_t)pid, ip,
				mode == PERF_RECORD_MISC_KERNEL || mode == PERF_RECORD_MISC_GUEST_KERNEL);
		return;
	}
	if (h->type != PERF_RECORD_MMAP && h->type != PERF_RECORD_MMAP2 &&
	    h->type != PERF_RECORD_FORK && h->type != PERF_RECORD_COMM)
		return;
	struct perfev_record d;
	if (!r->dec || perfev_decoder_decode(r->dec, rec, size, &d) < 0)
		return;
	switch (d.type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		if (!(d.misc & PERF_RECORD_MISC_MMAP_DATA) && d.u.mmap.filename)
			rec_scan_mmap(r, (pid_t)d.u.mmap.pid, d.u.mmap.addr, d.u.mmap.len,
				      d.u.mmap.filename);
		break;
	case PERF_RECORD_FORK:
		rec_scan_fork(r, (pid_t)d.u.fork.pid, (pid_t)d.u.fork.ppid);
		break;
	case PERF_RECORD_COMM:
		if (d.misc & PERF_RECORD_MISC_COMM_EXEC)
			rec_scan_exec(r, (pid_t)d.u.comm.pid);
		break;
	}
}
