/* recorder_feed.c — the records the recorder writes, handed decoded to the
 * caller's perfev_record_opts.on_record as a reader of the file would get
 * them: records with a time wait for the end of perf's round after the one
 * they came in (a round holds each CPU's ring in time order, one after
 * another: only by then can no older record still come) and go in (time,
 * order written) order, as perfev_perfdata_process delivers them; the
 * others go at once. */
#define _GNU_SOURCE
#include "core/internal.h"
#include "recorder/recorder_int.h"
#include "perfev/record.h"

#include <stdlib.h>
#include <string.h>

struct feed_rec {
	uint64_t time, seq;
	void *data; /* a copy of the record */
	uint32_t len;
};

struct rec_feed {
	struct feed_rec *q;
	size_t nq, capq;
	uint64_t seq, max_time, next_flush;
};

static int deliver(struct perfev_recorder *r, const void *data, size_t len)
{
	struct perfev_record rec;
	if (perfev_decoder_decode(r->dec, data, len, &rec) < 0)
		return 0; /* the reader skips what it cannot decode too (keep_going) */
	int e = r->opts.on_record(r->opts.on_record_ctx, &rec);
	if (e < 0)
		return pv_error(-e, "recorder: on_record: %s", perfev_errmsg());
	return e ? pv_error(ECANCELED, "recorder: on_record returned %d", e) : 0;
}

int rec_feed_record(struct perfev_recorder *r, const void *data, size_t len)
{
	if (!r->opts.on_record || !r->dec)
		return 0;
	struct rec_feed *f = r->feed;
	if (!f && !(f = r->feed = calloc(1, sizeof(*f))))
		return pv_error(ENOMEM, "recorder: out of memory");
	uint64_t t;
	if (perfev_decoder_record_time(r->dec, data, len, &t) < 0 || !t || t == (uint64_t)-1)
		return deliver(r, data, len);
	void *copy = malloc(len);
	if (!copy || pv_grow(&f->q, &f->capq, f->nq + 1, sizeof(*f->q)) < 0) {
		free(copy);
		return pv_error(ENOMEM, "recorder: out of memory ordering records");
	}
	memcpy(copy, data, len);
	f->q[f->nq++] = (struct feed_rec){.time = t, .seq = f->seq++, .data = copy, .len = (uint32_t)len};
	if (t > f->max_time)
		f->max_time = t;
	return 0;
}

static int cmp_feed(const void *a, const void *b)
{
	const struct feed_rec *x = a, *y = b;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Delivers the queued records up to limit, in order; keeps the rest. */
static int flush_to(struct perfev_recorder *r, uint64_t limit)
{
	struct rec_feed *f = r->feed;
	if (!f || !f->nq)
		return 0;
	qsort(f->q, f->nq, sizeof(*f->q), cmp_feed);
	size_t i = 0;
	int e = 0;
	for (; i < f->nq && f->q[i].time <= limit && !e; i++) {
		e = deliver(r, f->q[i].data, f->q[i].len);
		free(f->q[i].data);
	}
	memmove(f->q, f->q + i, (f->nq - i) * sizeof(*f->q));
	f->nq -= i;
	return e;
}

int rec_feed_round(struct perfev_recorder *r)
{
	struct rec_feed *f = r->feed;
	if (!f)
		return 0;
	int e = flush_to(r, f->next_flush);
	f->next_flush = f->max_time;
	return e;
}

int rec_feed_end(struct perfev_recorder *r)
{
	return flush_to(r, UINT64_MAX);
}

void rec_feed_free(struct perfev_recorder *r)
{
	struct rec_feed *f = r->feed;
	if (!f)
		return;
	for (size_t i = 0; i < f->nq; i++)
		free(f->q[i].data);
	free(f->q);
	free(f);
	r->feed = NULL;
}
