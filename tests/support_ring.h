/*
 * support_ring.h — synthetic ring buffers for the ring tests: a malloc'ed
 * fake user page and data area that a test writes records into as the
 * kernel would (forwards, or backwards for write_backward).
 */
#ifndef PERFEV_TEST_SUPPORT_RING_H
#define PERFEV_TEST_SUPPORT_RING_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>

struct fake_ring {
	struct perf_event_mmap_page *page;
	unsigned char *data;
	size_t size;
};

struct fake_ring fake_ring_new(size_t size);
void fake_ring_free(struct fake_ring *f);
/* Fills a record: header {type, misc 0, size} then bytes seq, seq+1, ... */
void fake_record(unsigned char *buf, uint16_t type, uint16_t size, uint8_t seq);
/* Writes a record at data_head and moves data_head forward (release). */
void fake_ring_write(struct fake_ring *f, uint16_t type, uint16_t size, uint8_t seq);
/* Writes a record below data_head and moves data_head back (write_backward). */
void fake_ring_write_backward(struct fake_ring *f, uint16_t type, uint16_t size, uint8_t seq);

#endif
