/* recorder_scan.c — which binaries samples hit, for the BUILD_ID feature:
 * the recorded side-band records and samples, decoded by the one decoder,
 * feed a session (the one thread/map model); each sample's ip is looked up
 * in its process's maps there at the sample's time. perf marks only the
 * sampled ip's binary, not the callchain's, and so do we. */
#define _GNU_SOURCE
#include "core/internal.h"
#include "core/strpool.h"
#include "recorder/recorder_int.h"
#include "perfev/record.h"
#include "perfev/session.h"

#include <stdlib.h>
#include <string.h>

struct rec_scan {
	struct perfev_session *sess;
	/* the files of executable maps, in the order first mapped */
	struct rec_dso *dsos;
	size_t ndsos, dcap;
	struct pv_strpool *paths;  /* the dsos' paths, and those maps hit named */
	struct pv_u64map dso_of;   /* pooled path -> 1 + index into dsos */
	bool kernel_hit;
	const char *last_path; /* the session's path of the last map hit: already marked */
	/* samples read before their process's maps: the rings of the CPUs are
	 * read one after another, and a process that moved may have its MMAP2
	 * in a ring read later; looked up again at the end (rec_scan_dsos) */
	struct scan_pending { uint32_t pid, tid; uint64_t ip, time; } *pending;
	size_t npending, pcap;
};
#define SCAN_MAX_PENDING 65536

static struct rec_scan *scan(struct perfev_recorder *r)
{
	if (r->scan)
		return r->scan;
	struct rec_scan *s = calloc(1, sizeof(*s));
	if (s && (!(s->sess = perfev_session_new()) || !(s->paths = pv_strpool_new()))) {
		perfev_session_free(s->sess);
		free(s);
		s = NULL;
	}
	return r->scan = s;
}

static int dso_index(struct rec_scan *s, const char *path)
{
	const char *p = pv_strpool_add(s->paths, path);
	if (!p)
		return -ENOMEM;
	void *known = pv_u64map_get(&s->dso_of, (uintptr_t)p);
	if (known)
		return (int)((uintptr_t)known - 1);
	if (pv_grow(&s->dsos, &s->dcap, s->ndsos + 1, sizeof(*s->dsos)) < 0 ||
	    pv_u64map_put(&s->dso_of, (uintptr_t)p, (void *)(uintptr_t)(s->ndsos + 1)) < 0)
		return -ENOMEM;
	s->dsos[s->ndsos] = (struct rec_dso){.path = p};
	return (int)s->ndsos++;
}

/* Marks the binary of the map holding ip in the sample's process at its
 * time; false where no map does (yet). */
static bool mark(struct rec_scan *s, uint32_t pid, uint32_t tid, uint64_t ip, uint64_t time)
{
	const struct perfev_map *m = perfev_session_find_map(s->sess, pid, tid, PERF_RECORD_MISC_USER, ip, time);
	if (!m)
		return false;
	if (m->path == s->last_path)
		return true; /* the same binary as last time: already marked */
	const char *p = pv_strpool_add(s->paths, m->path);
	void *known = p ? pv_u64map_get(&s->dso_of, (uintptr_t)p) : NULL;
	if (known) { /* data maps are no binary to mark */
		s->dsos[(uintptr_t)known - 1].hit = true;
		s->last_path = m->path;
	}
	return true;
}

static void scan_sample(struct rec_scan *s, const struct perfev_record *rec)
{
	const struct perfev_sample *smp = &rec->u.sample;
	if ((smp->sample_type & (PERF_SAMPLE_IP | PERF_SAMPLE_TID)) != (PERF_SAMPLE_IP | PERF_SAMPLE_TID))
		return;
	uint16_t mode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	if (mode == PERF_RECORD_MISC_KERNEL || mode == PERF_RECORD_MISC_GUEST_KERNEL) {
		s->kernel_hit = true;
		return;
	}
	if (mark(s, smp->pid, smp->tid, smp->ip, smp->time) || s->npending >= SCAN_MAX_PENDING ||
	    pv_grow(&s->pending, &s->pcap, s->npending + 1, sizeof(*s->pending)) < 0)
		return;
	s->pending[s->npending++] = (struct scan_pending){smp->pid, smp->tid, smp->ip, smp->time};
}

void rec_scan_process(struct perfev_recorder *r, const struct perfev_record *rec)
{
	if (r->opts.no_output)
		return;
	struct rec_scan *s = scan(r);
	if (!s)
		return;
	if (rec->type == PERF_RECORD_SAMPLE) {
		scan_sample(s, rec);
		return;
	}
	/* out of memory: the scan misses what follows, the recording goes on */
	if (perfev_session_process(s->sess, rec) < 0)
		return;
	uint16_t mode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	if ((rec->type == PERF_RECORD_MMAP || rec->type == PERF_RECORD_MMAP2) && rec->u.mmap.filename &&
	    !(rec->misc & PERF_RECORD_MISC_MMAP_DATA) && mode != PERF_RECORD_MISC_KERNEL &&
	    mode != PERF_RECORD_MISC_GUEST_KERNEL)
		dso_index(s, rec->u.mmap.filename);
}

void rec_scan_mmap(struct perfev_recorder *r, pid_t pid, uint64_t start, uint64_t len, const char *path)
{
	struct perfev_record rec = {.type = PERF_RECORD_MMAP2, .misc = PERF_RECORD_MISC_USER};
	rec.u.mmap.pid = rec.u.mmap.tid = (uint32_t)pid;
	rec.u.mmap.addr = start;
	rec.u.mmap.len = len;
	rec.u.mmap.filename = path;
	rec_scan_process(r, &rec);
}

void rec_scan_sample(struct perfev_recorder *r, pid_t pid, uint64_t ip, bool kernel)
{
	struct perfev_record rec = {.type = PERF_RECORD_SAMPLE};
	rec.misc = kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
	rec.u.sample.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID;
	rec.u.sample.pid = rec.u.sample.tid = (uint32_t)pid;
	rec.u.sample.ip = ip;
	rec_scan_process(r, &rec);
}

const struct rec_dso *rec_scan_dsos(struct perfev_recorder *r, size_t *n, bool *kernel_hit)
{
	struct rec_scan *s = r->scan;
	for (size_t i = 0; s && i < s->npending; i++)
		mark(s, s->pending[i].pid, s->pending[i].tid, s->pending[i].ip, s->pending[i].time);
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
	perfev_session_free(s->sess);
	pv_strpool_free(s->paths);
	pv_u64map_free(&s->dso_of);
	free(s->dsos);
	free(s->pending);
	free(s);
	r->scan = NULL;
}

/* A record read from a ring: what the model needs, decoded. */
void rec_scan_record(struct perfev_recorder *r, const void *rec, size_t size)
{
	const struct perf_event_header *h = rec;
	if (r->opts.no_output)
		return; /* no file, no build-ids to find */
	switch (h->type) {
	case PERF_RECORD_SAMPLE:
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
	case PERF_RECORD_FORK:
	case PERF_RECORD_COMM:
	case PERF_RECORD_EXIT:
		break;
	default:
		return; /* nothing the model keeps: not worth decoding */
	}
	struct perfev_record d;
	if (r->dec && perfev_decoder_decode(r->dec, rec, size, &d) >= 0)
		rec_scan_process(r, &d);
}
