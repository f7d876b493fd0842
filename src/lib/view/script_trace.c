/* script_trace.c — the `trace` field of perf script: a tracepoint sample's
 * raw data printed through the formats of the file's TRACING_DATA. */
#define _GNU_SOURCE
#include "view/script_int.h"

#include <stdlib.h>

void pv_script_load_tracing(struct pv_script *s)
{
	size_t size = 0;
	perfev_tp_free(s->tp);
	s->tp = NULL;
	s->tp_loaded = true;
	const void *p = perfev_perfdata_has_feature(s->pd, PERFEV_FEAT_TRACING_DATA)
				? perfev_perfdata_feature(s->pd, PERFEV_FEAT_TRACING_DATA, &size)
				: NULL;
	if (p && (s->tp = perfev_tp_from_tracing_data(p, size, NULL)))
		return;
	/* no formats in the file (or unreadable ones): this machine's, by id */
	for (size_t i = 0; i < perfev_perfdata_nr_events(s->pd); i++) {
		const struct perfev_attr *a = perfev_perfdata_event_attr(s->pd, i);
		if (a->type != PERF_TYPE_TRACEPOINT)
			continue;
		if (!s->tp && !(s->tp = perfev_tp_new()))
			return;
		perfev_tp_load_id(s->tp, a->config);
	}
}

void pv_script_trace(struct pv_script *s, const struct perfev_sample *smp)
{
	char *text;
	if (!s->tp_loaded) /* pipe mode without TRACING_DATA: the events are known by now */
		pv_script_load_tracing(s);
	if (!s->tp || !smp->raw || perfev_tp_print(s->tp, smp->raw, smp->raw_size, (int)smp->cpu, &text) < 0)
		return;
	pv_buf_puts(&s->line, text);
	free(text);
}
