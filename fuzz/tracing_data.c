/*
 * Fuzz target: perf.data TRACING_DATA sections. perfev's own code is
 * fuzzed: the framing and bounds (pv_tracing_data_walk), and the header_page,
 * printk, kallsyms and saved_cmdlines text handed on. Event formats are checked for
 * framing only: libtraceevent 1.7's print-fmt parser dereferences NULL and
 * leaks on some malformed formats, which is outside perfev.
 */
#include "perfev.h"
#include "tracing/tp_int.h"
#include <stdint.h>
#include <stdlib.h>

static void text(void *ctx, int part, const char *t)
{
	struct tep_handle *tep = ctx;
	if (part == PV_TD_PRINTK)
		pv_tp_parse_printk(tep, t);
	else if (part == PV_TD_KALLSYMS)
		pv_tp_parse_kallsyms(tep, t);
	else
		pv_tp_parse_cmdlines(tep, t);
}

static void header_page(void *ctx, char *t, size_t len)
{
	tep_parse_header_page(ctx, t, len, 8);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tep_handle *tep = tep_alloc();
	struct pv_td_visitor v = {tep, NULL, header_page, NULL, text};
	size_t used;
	pv_tracing_data_walk(data, size, &v, &used);
	tep_free(tep);
	return 0;
}
