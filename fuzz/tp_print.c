/*
 * Fuzz target: tracepoint raw data (PERF_SAMPLE_RAW from a hostile file)
 * printed and read through known formats: sched_switch (__print_flags),
 * sys_enter_openat, and one with a __data_loc string. The first input byte
 * picks the event; the rest is the raw data after common_type.
 */
#include "perfev.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "../tests/data/tp_formats.h"

static struct perfev_tp *tp;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!tp) {
		tp = perfev_tp_new();
		perfev_tp_add_format(tp, "sched", sched_switch_fmt, strlen(sched_switch_fmt));
		perfev_tp_add_format(tp, "syscalls", openat_fmt, strlen(openat_fmt));
		perfev_tp_add_format(tp, "test", str_fmt, strlen(str_fmt));
	}
	if (size < 1 || size > 4096)
		return 0;
	static const uint16_t ids[] = {372, 782, 900};
	uint8_t *raw = malloc(size + 1);
	if (!raw)
		return 0;
	uint16_t id = ids[data[0] % 3];
	memcpy(raw, &id, 2);
	memcpy(raw + 2, data + 1, size - 1);
	size_t n = size + 1;
	char *out = NULL;
	if (perfev_tp_print(tp, raw, n, 0, &out) >= 0)
		free(out);
	static const char *const fields[] = {"prev_comm", "prev_state", "filename", "name", "ret", "common_pid"};
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		uint64_t v;
		perfev_tp_field_u64(tp, raw, n, fields[i], &v);
		if (perfev_tp_field_text(tp, raw, n, fields[i], &out) >= 0)
			free(out);
	}
	free(raw);
	return 0;
}
