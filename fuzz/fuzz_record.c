/* Fuzz target: the record decoder (and encoder). Input: 32 bytes that make
 * the attr (sample_type, read_format, branch_sample_type, flags and register
 * masks), then one record's bytes. A record that decodes is encoded again
 * and the encoding decoded: it must decode to the same size. */
#include "perfev.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 32)
		return 0;
	uint64_t f[4];
	memcpy(f, data, 32);
	struct perfev_attr a = {0};
	a.size = PERFEV_ATTR_SIZE_LATEST;
	a.sample_type = f[0] & ((1ULL << 25) - 1);
	a.read_format = f[1] & 31;
	a.branch_sample_type = f[2] & ((1ULL << 20) - 1);
	a.sample_id_all = f[3] & 1;
	a.sample_regs_user = f[3] >> 8 & 0xffff;
	a.sample_regs_intr = f[3] >> 24 & 0xffff;
	struct perfev_decoder *d = perfev_decoder_new();
	if (!d)
		return 0;
	uint64_t ids[2] = {f[3] >> 40, 7};
	perfev_decoder_add_attr(d, &a, ids, 2);
	if (f[3] & 2) /* a second event makes the decoder look for ids */
		perfev_decoder_add_attr(d, &a, ids + 1, 1);
	perfev_decoder_set_swap(d, f[3] & 4);
	struct perfev_record r;
	int n = perfev_decoder_decode(d, data + 32, size - 32, &r);
	uint64_t t;
	perfev_decoder_record_time(d, data + 32, size - 32, &t);
	if (n > 0) {
		char words[256];
		perfev_misc_str(words, sizeof(words), r.type, r.misc);
		if (r.type == PERF_RECORD_SAMPLE) {
			perfev_data_src_str(words, sizeof(words), r.u.sample.data_src);
			perfev_transaction_str(words, sizeof(words), r.u.sample.transaction);
			for (uint64_t i = 0; i < r.u.sample.branch_nr; i++)
				perfev_branch_flags_str(words, sizeof(words), r.u.sample.branches[i].flags);
		}
	}
	if (n > 0 && !(f[3] & 4)) {
		/* encode with the attr the record was decoded with, decode again with
		 * the same decoder: the same size must come back */
		const struct perfev_attr *ra = r.attr_idx >= 0 ? perfev_decoder_attr(d, r.attr_idx) : NULL;
		bool known = r.type != 0 && strcmp(perfev_record_type_name(r.type), "UNKNOWN");
		uint8_t *buf = malloc(65536);
		struct perfev_record copy = r;
		int m = buf && known && (ra || r.type >= 64) ? perfev_record_encode(&copy, ra, buf, 65536) : -1;
		if (m > 0) {
			struct perfev_record r2;
			int k = perfev_decoder_decode(d, buf, (size_t)m, &r2);
			if (k != m)
				abort(); /* what we encode, we decode */
		}
		free(buf);
	}
	perfev_decoder_free(d);
	return 0;
}
