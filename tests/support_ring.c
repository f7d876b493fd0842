/* support_ring.c — synthetic ring buffers (see support_ring.h). */
#include "support_ring.h"
#include <stdlib.h>
#include <string.h>

struct fake_ring fake_ring_new(size_t size)
{
	struct fake_ring f = {
		.page = calloc(1, sizeof(struct perf_event_mmap_page)),
		.data = calloc(1, size),
		.size = size,
	};
	return f;
}

void fake_ring_free(struct fake_ring *f)
{
	free(f->page);
	free(f->data);
}

void fake_record(unsigned char *buf, uint16_t type, uint16_t size, uint8_t seq)
{
	struct perf_event_header h = {.type = type, .misc = 0, .size = size};
	memcpy(buf, &h, sizeof(h));
	for (size_t i = sizeof(h); i < size; i++)
		buf[i] = (uint8_t)(seq + i);
}

static void put(struct fake_ring *f, uint64_t pos, const unsigned char *src, size_t len)
{
	for (size_t i = 0; i < len; i++)
		f->data[(pos + i) & (f->size - 1)] = src[i];
}

void fake_ring_write(struct fake_ring *f, uint16_t type, uint16_t size, uint8_t seq)
{
	unsigned char buf[65536];
	fake_record(buf, type, size, seq);
	uint64_t head = f->page->data_head;
	put(f, head, buf, size);
	__atomic_store_n(&f->page->data_head, head + size, __ATOMIC_RELEASE);
}

void fake_ring_write_backward(struct fake_ring *f, uint16_t type, uint16_t size, uint8_t seq)
{
	unsigned char buf[65536];
	fake_record(buf, type, size, seq);
	uint64_t head = f->page->data_head - size;
	put(f, head, buf, size);
	__atomic_store_n(&f->page->data_head, head, __ATOMIC_RELEASE);
}
