/* ring_int.h — the ring buffer's state, shared by ring.c and ring_aux.c. */
#ifndef PERFEV_RING_INT_H
#define PERFEV_RING_INT_H

#include <linux/perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct perfev_ring {
	int fd;                              /* -1 for a wrapped ring */
	struct perf_event_mmap_page *page;
	unsigned char *data;                 /* the data area: size bytes, a power of two */
	size_t size;
	void *map;                           /* our mapping (NULL when wrapped) */
	size_t map_len;
	bool overwrite;
	bool paused, paused_by_read, in_batch;
	uint64_t head, pos, end;             /* the current batch: [pos, end) */
	uint64_t prev_head;                  /* overwrite mode: head at the last batch */
	unsigned char *scratch;              /* a record that wraps, copied whole */
	unsigned char *aux;                  /* the AUX area */
	void *aux_map;                       /* our AUX mapping (NULL when wrapped) */
	size_t aux_size;
};

#endif
