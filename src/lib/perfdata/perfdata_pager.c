/*
 * perfdata_pager.c — a second thread that does a big mapped recording's
 * paging while the reader decodes it: it maps the pages ahead of the
 * reading point (a touch per 64 KB: the kernel's fault-around maps the
 * rest) and gives back the pages behind it (MADV_DONTNEED), so the reader
 * finds its pages mapped and never waits in the kernel for them.
 *
 * Reading a 300 MB recording costs the kernel about 40 ms of mapping and
 * unmapping, two thirds of a flat report's time; on a machine with a second
 * core that work now runs beside the decoding instead of before each page
 * of it. The CPU time stays about the same; the wall time shrinks. If the
 * pager falls behind, the reader just faults the page in itself. Nothing
 * here changes what is read: the map is private and read-only, so a page
 * given back and touched again (a record still queued for time ordering)
 * reads the same bytes from the file.
 */
#define _GNU_SOURCE
#include "perfdata/perfdata_int.h"

#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* Mapped this far ahead of the reader; the reader says where it is every
 * PV_PAGER_STEP. */
#define PV_PAGER_AHEAD (8ull << 20)
#define PV_PAGER_STEP (1ull << 20)

struct pv_pager {
	const uint8_t *map;
	uint64_t len, page, keep;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t moved;
	uint64_t reader;     /* where the reader is (under lock) */
	uint64_t next_note;  /* the reader's own: when to tell the pager next */
	uint64_t populated;  /* pager's own: mapped up to here */
	uint64_t released;   /* pager's own: given back up to here */
	bool stop;
};

/* A read fault on a cached file page maps the whole aligned 64 KB around it
 * (the kernel's fault-around), so one touch per 64 KB maps them all. On the
 * bench's 308 MB recording a flat report took 0.058-0.062 s of CPU with
 * touches (0.056-0.061 s without a pager) and 0.069-0.075 s with
 * MADV_POPULATE_READ, which walks every page. A page left out (a kernel
 * with a smaller fault-around) is faulted in by the reader, as without a
 * pager. */
#define PV_PAGER_TOUCH (64u << 10)

static void populate(struct pv_pager *pg, uint64_t from, uint64_t to)
{
	for (uint64_t o = from & ~(pg->page - 1); o < to; o += PV_PAGER_TOUCH)
		(void)*(const volatile uint8_t *)(pg->map + o);
}

static void *pager_main(void *arg)
{
	struct pv_pager *pg = arg;
	pthread_mutex_lock(&pg->lock);
	while (!pg->stop) {
		uint64_t r = pg->reader;
		if (r > pg->released + 2 * pg->keep) {
			uint64_t upto = (r - pg->keep) & ~(pg->page - 1);
			uint64_t from = pg->released;
			pthread_mutex_unlock(&pg->lock);
			madvise((void *)(pg->map + from), upto - from, MADV_DONTNEED);
			pthread_mutex_lock(&pg->lock);
			pg->released = upto;
			continue;
		}
		uint64_t target = r + PV_PAGER_AHEAD < pg->len ? r + PV_PAGER_AHEAD : pg->len;
		if (pg->populated < target) {
			uint64_t from = pg->populated > r ? pg->populated : r & ~(pg->page - 1);
			uint64_t to = from + PV_PAGER_STEP < target ? from + PV_PAGER_STEP : target;
			pthread_mutex_unlock(&pg->lock);
			populate(pg, from, to);
			pthread_mutex_lock(&pg->lock);
			pg->populated = to;
			continue;
		}
		pthread_cond_wait(&pg->moved, &pg->lock);
	}
	pthread_mutex_unlock(&pg->lock);
	return NULL;
}

/* Recordings smaller than this are read without a pager: their paging
 * costs less than starting a thread is worth. */
#define PV_PAGER_MIN (32ull << 20)

struct pv_pager *pv_pager_start(const uint8_t *map, uint64_t len, uint64_t start, uint64_t keep)
{
	long page = sysconf(_SC_PAGESIZE);
	const char *env = getenv("PERFEV_PAGER");
	if (len - start < PV_PAGER_MIN || page <= 0 || (env && !strcmp(env, "0")))
		return NULL;
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return NULL; /* one core: the pager would only take turns with the reader */
	struct pv_pager *pg = calloc(1, sizeof(*pg));
	if (!pg)
		return NULL;
	*pg = (struct pv_pager){.map = map, .len = len, .page = (uint64_t)page, .keep = keep,
				.reader = start, .next_note = start + PV_PAGER_STEP,
				.populated = start & ~((uint64_t)page - 1),
				.released = start & ~((uint64_t)page - 1)};
	pthread_mutex_init(&pg->lock, NULL);
	pthread_cond_init(&pg->moved, NULL);
	/* signals stay with the caller's threads */
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	int err = pthread_create(&pg->thread, NULL, pager_main, pg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		pthread_mutex_destroy(&pg->lock);
		pthread_cond_destroy(&pg->moved);
		free(pg);
		return NULL; /* the reader pages for itself */
	}
	return pg;
}

void pv_pager_at(struct pv_pager *pg, uint64_t off)
{
	if (off < pg->next_note)
		return;
	pthread_mutex_lock(&pg->lock);
	pg->reader = off;
	pthread_cond_signal(&pg->moved);
	pthread_mutex_unlock(&pg->lock);
	pg->next_note = off + PV_PAGER_STEP;
}

void pv_pager_stop(struct pv_pager *pg)
{
	if (!pg)
		return;
	pthread_mutex_lock(&pg->lock);
	pg->stop = true;
	pthread_cond_signal(&pg->moved);
	pthread_mutex_unlock(&pg->lock);
	pthread_join(pg->thread, NULL);
	pthread_mutex_destroy(&pg->lock);
	pthread_cond_destroy(&pg->moved);
	free(pg);
}
