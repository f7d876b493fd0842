/*
 * ring_read — the ring buffer reader on hostile bytes: the input is a data
 * area (its size rounded down to a power of two) plus head/tail positions,
 * read in normal and overwrite mode. Nothing may crash, hang or read out of
 * bounds whatever the headers claim.
 */
#include "perfev.h"
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static void read_all(struct perf_event_mmap_page *pg, unsigned char *data, size_t size, bool ow)
{
	struct perfev_ring *r = perfev_ring_wrap(pg, data, size, ow);
	if (!r)
		return;
	for (int round = 0; round < 2; round++) {
		if (perfev_ring_read_begin(r) < 0)
			continue;
		const void *rec;
		size_t rs;
		volatile unsigned sum = 0;
		while (perfev_ring_read_next(r, &rec, &rs) > 0)
			sum += ((const unsigned char *)rec)[rs - 1]; /* touch the last byte */
		perfev_ring_read_end(r);
	}
	perfev_ring_munmap(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *in, size_t len)
{
	if (len < 16 + 8)
		return 0;
	uint64_t head, tail;
	memcpy(&head, in, 8);
	memcpy(&tail, in + 8, 8);
	size_t size = 8;
	while (size * 2 <= len - 16 && size < (1 << 16))
		size *= 2;
	unsigned char *data = malloc(size);
	struct perf_event_mmap_page *pg = calloc(1, sizeof(*pg));
	if (!data || !pg)
		goto out;
	memcpy(data, in + 16, size);
	/* Keep head within reach of tail sometimes, so records get parsed. */
	pg->data_head = (in[0] & 1) ? tail + (head % (size + 1)) : head;
	pg->data_tail = tail;
	read_all(pg, data, size, false);
	pg->data_head = head;
	read_all(pg, data, size, true);
out:
	free(data);
	free(pg);
	return 0;
}
