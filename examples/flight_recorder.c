/*
 * flight_recorder — keep the last few thousand samples of this process in
 * an overwrite-mode ring (attr.write_backward, read-only mapping) and look
 * at them only when something interesting happens: here, at the end.
 *
 *   usage: flight_recorder [ms=300]
 * Prints how many of the latest samples the one-page buffer held and the
 * span of time they cover (newest first, as the kernel wrote them).
 */
#include <perfev.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile unsigned long sink;

static void busy(double ms)
{
	struct timespec a, b;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	do {
		for (int i = 0; i < 10000; i++)
			sink = sink * 3 + 1;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	} while ((b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6 < ms);
}

int main(int argc, char **argv)
{
	struct perfev_attr a = {0};
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_CPU_CLOCK;
	a.sample_period = 100000; /* every 100 us of CPU */
	a.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TIME;
	a.exclude_kernel = 1;
	a.write_backward = 1; /* the kernel overwrites the oldest records */
	int fd = perfev_open(&a, 0, -1, -1, 0);
	if (fd < 0) {
		fprintf(stderr, "flight_recorder: %s\n", perfev_errmsg());
		return 1;
	}
	struct perfev_ring *ring = perfev_ring_mmap(fd, 1, true);
	if (!ring) {
		fprintf(stderr, "flight_recorder: %s\n", perfev_errmsg());
		return 1;
	}
	busy(argc > 1 ? atof(argv[1]) : 300);

	/* Something happened: read the latest samples (output paused meanwhile). */
	int64_t bytes = perfev_ring_read_begin(ring);
	const void *rec;
	size_t size;
	int n = 0;
	uint64_t newest = 0, oldest = 0;
	while (perfev_ring_read_next(ring, &rec, &size) > 0) {
		const struct perf_event_header *h = rec;
		if (h->type != PERF_RECORD_SAMPLE)
			continue;
		uint64_t t;
		memcpy(&t, (const char *)rec + 16, sizeof(t)); /* header, ip, time */
		if (!n++)
			newest = t;
		oldest = t;
	}
	perfev_ring_read_end(ring);
	printf("%d latest samples in %lld bytes, covering the last %.1f ms\n", n, (long long)bytes,
	       (newest - oldest) / 1e6);
	perfev_ring_munmap(ring);
	close(fd);
	return n > 0 ? 0 : 1;
}
