/* The ring buffer consumer on synthetic buffers: every wrap offset, overwrite mode, AUX. */
#define _GNU_SOURCE
#include "support.h"
#include "support_ring.h"
#include "perfev.h"
#include <errno.h>
#include <string.h>

/* Sizes that are not all multiples of 8, so headers themselves wrap too. */
static const uint16_t sizes[] = {8, 24, 13, 40, 9, 64, 17, 32, 100, 16};

static void check_record(const void *rec, size_t size, uint16_t want_size, uint8_t seq)
{
	unsigned char want[256];
	fake_record(want, PERF_RECORD_SAMPLE, want_size, seq);
	cr_assert_eq(size, want_size, "size %zu, want %u", size, want_size);
	cr_assert_eq(memcmp(rec, want, size), 0, "record %u differs", seq);
}

Test(unit_ring, wraps_at_every_offset)
{
	const size_t size = 256;
	for (uint64_t start = 0; start < size; start++) {
		/* Positions grow without bound: start far from 0 as well. */
		for (int far = 0; far < 2; far++) {
			struct fake_ring f = fake_ring_new(size);
			uint64_t base = start + (far ? (1ULL << 40) * size : 0);
			f.page->data_head = f.page->data_tail = base;
			struct perfev_ring *r = perfev_ring_wrap(f.page, f.data, size, false);
			cr_assert_not_null(r);
			uint8_t seq = 0, rseq = 0;
			size_t si = start % (sizeof(sizes) / sizeof(sizes[0])), ri = si;
			/* Three rounds of write-then-read keep the buffer busy across the end. */
			for (int round = 0; round < 3; round++) {
				size_t used = 0;
				while (used + sizes[si] <= size) {
					fake_ring_write(&f, PERF_RECORD_SAMPLE, sizes[si], seq++);
					used += sizes[si];
					si = (si + 1) % (sizeof(sizes) / sizeof(sizes[0]));
				}
				cr_assert_eq(perfev_ring_read_begin(r), (int64_t)used);
				const void *rec;
				size_t rs;
				int n = 0, e;
				while ((e = perfev_ring_read_next(r, &rec, &rs)) > 0) {
					check_record(rec, rs, sizes[ri], rseq++);
					ri = (ri + 1) % (sizeof(sizes) / sizeof(sizes[0]));
					n++;
				}
				cr_assert_eq(e, 0, "start %llu: %s", (unsigned long long)start, perfev_errmsg());
				cr_assert_eq(perfev_ring_read_end(r), 0);
				cr_assert_eq(f.page->data_tail, f.page->data_head);
				cr_assert_eq(rseq, seq);
			}
			perfev_ring_munmap(r);
			fake_ring_free(&f);
		}
	}
}

Test(unit_ring, partial_batch_consumes_only_what_was_read)
{
	struct fake_ring f = fake_ring_new(128);
	struct perfev_ring *r = perfev_ring_wrap(f.page, f.data, 128, false);
	fake_ring_write(&f, PERF_RECORD_SAMPLE, 16, 0);
	fake_ring_write(&f, PERF_RECORD_SAMPLE, 24, 1);
	cr_assert_eq(perfev_ring_read_begin(r), 40);
	const void *rec;
	size_t rs;
	cr_assert_eq(perfev_ring_read_next(r, &rec, &rs), 1);
	cr_assert_eq(perfev_ring_read_end(r), 0);
	cr_assert_eq(f.page->data_tail, 16);
	/* A record written during the batch is not part of it. */
	cr_assert_eq(perfev_ring_read_begin(r), 24);
	fake_ring_write(&f, PERF_RECORD_SAMPLE, 8, 2);
	cr_assert_eq(perfev_ring_read_next(r, &rec, &rs), 1);
	check_record(rec, rs, 24, 1);
	cr_assert_eq(perfev_ring_read_next(r, &rec, &rs), 0);
	cr_assert_eq(perfev_ring_read_end(r), 0);
	cr_assert_eq(perfev_ring_drain(r, NULL, NULL), 1);
	cr_assert_eq(perfev_ring_drain(r, NULL, NULL), 0);
	perfev_ring_munmap(r);
	fake_ring_free(&f);
}

static int count_cb(void *ctx, const void *rec, size_t size)
{
	(*(int *)ctx)++;
	return *(int *)ctx == 2; /* stop after the second */
}

Test(unit_ring, drain_stops_when_asked)
{
	struct fake_ring f = fake_ring_new(128);
	struct perfev_ring *r = perfev_ring_wrap(f.page, f.data, 128, false);
	for (int i = 0; i < 4; i++)
		fake_ring_write(&f, PERF_RECORD_SAMPLE, 16, i);
	int n = 0;
	cr_assert_eq(perfev_ring_drain(r, count_cb, &n), 2);
	cr_assert_eq(f.page->data_tail, 32);
	cr_assert_eq(perfev_ring_drain(r, NULL, NULL), 2);
	perfev_ring_munmap(r);
	fake_ring_free(&f);
}

Test(unit_ring, corrupt_sizes_are_errors)
{
	struct fake_ring f = fake_ring_new(128);
	struct perfev_ring *r = perfev_ring_wrap(f.page, f.data, 128, false);
	const void *rec;
	size_t rs;
	/* header.size 4: smaller than a header */
	struct perf_event_header h = {.type = 9, .size = 4};
	memcpy(f.data, &h, sizeof(h));
	f.page->data_head = 16;
	cr_assert_eq(perfev_ring_read_begin(r), 16);
	cr_assert_eq(perfev_ring_read_next(r, &rec, &rs), -EBADMSG);
	cr_assert(strstr(perfev_errmsg(), "claims"), "%s", perfev_errmsg());
	cr_assert_eq(perfev_ring_read_next(r, &rec, &rs), 0);
	perfev_ring_read_end(r);
	/* header.size beyond data_head */
	h.size = 64;
	memcpy(f.data + 16, &h, sizeof(h));
	f.page->data_head = 32;
	cr_assert_eq(perfev_ring_read_begin(r), 16);
	cr_assert_eq(perfev_ring_read_next(r, &rec, &rs), -EBADMSG);
	perfev_ring_read_end(r);
	/* data_head more than a buffer ahead of data_tail */
	f.page->data_head = 32 + 129;
	cr_assert_eq(perfev_ring_read_begin(r), -EBADMSG);
	perfev_ring_munmap(r);
	fake_ring_free(&f);
}

Test(unit_ring, bad_sizes_refused)
{
	struct fake_ring f = fake_ring_new(128);
	cr_assert_null(perfev_ring_wrap(f.page, f.data, 100, false));
	cr_assert_eq(errno, EINVAL);
	cr_assert_null(perfev_ring_mmap(-1, 4, false));
	cr_assert_null(perfev_ring_mmap(0, 3, false));
	cr_assert_eq(errno, EINVAL);
	cr_assert(strstr(perfev_errmsg(), "power of two"), "%s", perfev_errmsg());
	size_t d = perfev_ring_default_pages();
	cr_assert(d >= 1 && d <= 128 && (d & (d - 1)) == 0, "default %zu", d);
	fake_ring_free(&f);
}

/* Overwrite mode: the newest records first, contiguous, the truncated oldest left out. */
Test(unit_ring, overwrite_reads_latest_backwards_at_every_offset)
{
	const size_t size = 256;
	for (int total = 1; total < 80; total++) {
		struct fake_ring f = fake_ring_new(size);
		struct perfev_ring *r = perfev_ring_wrap(f.page, f.data, size, true);
		cr_assert(perfev_ring_is_overwrite(r));
		size_t bytes = 0;
		for (int i = 0; i < total; i++) {
			fake_ring_write_backward(&f, PERF_RECORD_SAMPLE, sizes[i % 10], (uint8_t)i);
			bytes += sizes[i % 10];
		}
		int64_t avail = perfev_ring_read_begin(r);
		cr_assert_eq(avail, (int64_t)(bytes < size ? bytes : size));
		const void *rec;
		size_t rs, got = 0;
		int i = total - 1, e;
		while ((e = perfev_ring_read_next(r, &rec, &rs)) > 0) {
			cr_assert_geq(i, 0);
			check_record(rec, rs, sizes[i % 10], (uint8_t)i);
			got += rs;
			i--;
		}
		cr_assert_eq(e, 0);
		/* Everything that still fits whole was read. */
		if (i >= 0)
			cr_assert_gt(got + sizes[i % 10], size, "total %d: stopped early at %d", total, i);
		cr_assert_eq(perfev_ring_read_end(r), 0);
		cr_assert_eq(f.page->data_tail, 0, "overwrite mode never writes data_tail");
		/* A second batch sees only what is new. */
		cr_assert_eq(perfev_ring_read_begin(r), 0);
		perfev_ring_read_end(r);
		fake_ring_write_backward(&f, PERF_RECORD_SAMPLE, 24, 200);
		fake_ring_write_backward(&f, PERF_RECORD_SAMPLE, 16, 201);
		cr_assert_eq(perfev_ring_read_begin(r), 40);
		cr_assert_eq(perfev_ring_read_next(r, &rec, &rs), 1);
		check_record(rec, rs, 16, 201);
		cr_assert_eq(perfev_ring_read_next(r, &rec, &rs), 1);
		check_record(rec, rs, 24, 200);
		cr_assert_eq(perfev_ring_read_next(r, &rec, &rs), 0);
		perfev_ring_read_end(r);
		perfev_ring_munmap(r);
		fake_ring_free(&f);
	}
}

Test(unit_ring, aux_area_wraps)
{
	struct fake_ring f = fake_ring_new(64);
	struct perfev_ring *r = perfev_ring_wrap(f.page, f.data, 64, false);
	unsigned char aux[64];
	for (int i = 0; i < 64; i++)
		aux[i] = (unsigned char)i;
	const void *p1, *p2;
	size_t n1, n2;
	cr_assert_lt(perfev_ring_aux_peek(r, &p1, &n1, &p2, &n2), 0, "no AUX area yet");
	cr_assert_eq(perfev_ring_aux_wrap(r, aux, 64), 0);
	cr_assert_eq(perfev_ring_aux_size(r), 64);
	f.page->aux_tail = 50;
	f.page->aux_head = 70;
	cr_assert_eq(perfev_ring_aux_peek(r, &p1, &n1, &p2, &n2), 20);
	cr_assert_eq(p1, aux + 50);
	cr_assert_eq(n1, 14);
	cr_assert_eq(p2, aux);
	cr_assert_eq(n2, 6);
	cr_assert_eq(perfev_ring_aux_consume(r, 20), 0);
	cr_assert_eq(f.page->aux_tail, 70);
	cr_assert_eq(perfev_ring_aux_peek(r, &p1, &n1, &p2, &n2), 0);
	/* Snapshot mode: the head ran more than a buffer ahead; the last 64 bytes count. */
	f.page->aux_head = 70 + 100;
	cr_assert_eq(perfev_ring_aux_peek(r, &p1, &n1, &p2, &n2), 64);
	cr_assert_eq(n1 + n2, 64);
	/* What a PERF_RECORD_AUX names. */
	cr_assert_eq(perfev_ring_aux_at(r, 128 + 60, 8, &p1, &n1, &p2, &n2), 0);
	cr_assert_eq(p1, aux + 60);
	cr_assert_eq(n1, 4);
	cr_assert_eq(n2, 4);
	cr_assert_eq(perfev_ring_aux_at(r, 0, 65, &p1, &n1, &p2, &n2), -EINVAL);
	perfev_ring_munmap(r);
	fake_ring_free(&f);
}

Test(unit_ring, record_id_from_identifier)
{
	uint64_t rec[4] = {0};
	struct perf_event_header h = {.type = PERF_RECORD_SAMPLE, .size = 32};
	memcpy(rec, &h, sizeof(h));
	rec[1] = 0x1111;
	rec[3] = 0x3333;
	uint64_t id = 0;
	cr_assert_eq(perfev_ring_record_id(rec, 32, &id), 0);
	cr_assert_eq(id, 0x1111);
	h.type = PERF_RECORD_COMM;
	memcpy(rec, &h, sizeof(h));
	cr_assert_eq(perfev_ring_record_id(rec, 32, &id), 0);
	cr_assert_eq(id, 0x3333);
	h.type = PERFEV_RECORD_FINISHED_ROUND;
	memcpy(rec, &h, sizeof(h));
	cr_assert_eq(perfev_ring_record_id(rec, 32, &id), -EINVAL);
	cr_assert_eq(perfev_ring_record_id(rec, 8, &id), -EINVAL);
}

Test(unit_ring, wakeup_settings)
{
	struct perfev_attr a = {0};
	cr_assert_eq(perfev_attr_set_wakeup(&a, 0, 4096), 0);
	cr_assert_eq(a.watermark, 1);
	cr_assert_eq(a.wakeup_watermark, 4096);
	cr_assert_eq(perfev_attr_set_wakeup(&a, 7, 0), 0);
	cr_assert_eq(a.watermark, 0);
	cr_assert_eq(a.wakeup_events, 7);
	cr_assert_eq(perfev_attr_set_wakeup(&a, 7, 8), -EINVAL);
}
