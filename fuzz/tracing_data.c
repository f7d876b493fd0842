/* Fuzz target: perf.data TRACING_DATA sections (perfev_tp_from_tracing_data),
 * then the first format's fields read from the remaining bytes as raw data. */
#include "perfev.h"
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t used = 0;
	struct perfev_tp *tp = perfev_tp_from_tracing_data(data, size, &used);
	if (!tp)
		return 0;
	if (size - used >= 2) {
		char *out = NULL;
		uint64_t v;
		perfev_tp_field_u64(tp, data + used, size - used, "common_pid", &v);
		perfev_tp_name(tp, (uint64_t)perfev_tp_raw_id(data + used, size - used));
		free(out);
	}
	perfev_tp_free(tp);
	return 0;
}
