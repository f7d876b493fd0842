/* evlist.c — perf evlist (perf 6.1) of a recording
 * (perfev_perfdata_print_evlist, perfev/perfdata.h): evsel__fprintf's
 * lines, the attrs printed by the header's printer (perfdata/), the
 * tracepoints' fields from their formats (tracing/). */
#define _GNU_SOURCE
#include "core/internal.h"
#include "core/opts.h"
#include "perfdata/perfdata_int.h"
#include "tracing/tp_int.h"
#include "perfev.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The tracepoint formats the file carries (TRACING_DATA), else this
 * machine's for its tracepoint events' ids; NULL: none. */
static struct perfev_tp *trace_formats(const struct perfev_perfdata *pd)
{
	size_t size = 0;
	const void *p = perfev_perfdata_feature(pd, PERFEV_FEAT_TRACING_DATA, &size);
	struct perfev_tp *tp = p ? perfev_tp_from_tracing_data(p, size, NULL) : NULL;
	for (size_t i = 0; !p && i < perfev_perfdata_nr_events(pd); i++) {
		const struct perfev_attr *a = perfev_perfdata_event_attr(pd, i);
		if (a->type == PERF_TYPE_TRACEPOINT && (tp || (tp = perfev_tp_new())))
			perfev_tp_load_id(tp, a->config);
	}
	return tp;
}

/* perf evlist --trace-fields: " trace_fields: a,b,c", or why there are none. */
static void print_trace_fields(FILE *out, struct perfev_tp *tp, const struct perfev_attr *a, bool *started)
{
	const char *lead = *started ? "," : ":";
	*started = true;
	if (a->type != PERF_TYPE_TRACEPOINT) {
		fprintf(out, "%s (not a tracepoint)", lead);
		return;
	}
	const char *f = pv_tp_field_name(tp, a->config, 0);
	if (!f) {
		fprintf(out, "%s (no trace field)", lead);
		return;
	}
	fprintf(out, "%s trace_fields: %s", lead, f);
	for (size_t i = 1; (f = pv_tp_field_name(tp, a->config, i)); i++)
		fprintf(out, ",%s", f);
}

PERFEV_API int perfev_perfdata_print_evlist(const struct perfev_perfdata *pd, const struct perfev_evlist_opts *o,
					     FILE *out)
{
	if (!PV_OPTS_VALID(o, perfev_evlist_opts))
		return -EINVAL;
	bool verbose = PV_OPTS_GET(o, verbose, false), freq = PV_OPTS_GET(o, freq, false);
	bool group = PV_OPTS_GET(o, group, false), fields = PV_OPTS_GET(o, trace_fields, false);
	if (group && (verbose || freq)) /* (perf's words) */
		return pv_error(EINVAL, "--group option is not compatible with other options");
	size_t nev = perfev_perfdata_nr_events(pd);
	size_t *lead = calloc(nev + 1, sizeof(*lead)), *members = calloc(nev + 1, sizeof(*members));
	const char **names = calloc(nev + 1, sizeof(*names));
	if (!lead || !members || !names) {
		free(lead), free(members), free(names);
		return pv_error(ENOMEM, "out of memory");
	}
	pv_perfdata_event_groups(pd, nev, lead, members, names);
	struct perfev_tp *tp = fields && !group ? trace_formats(pd) : NULL;
	bool tracepoint = false;
	for (size_t i = 0; i < nev; i++) {
		const struct perfev_attr *a = perfev_perfdata_event_attr(pd, i);
		const char *name = perfev_perfdata_event_name(pd, i);
		tracepoint |= a->type == PERF_TYPE_TRACEPOINT;
		if (group) { /* evsel__fprintf's event_group: leaders only, "NAME{leader,member...}" */
			if (lead[i] != i)
				continue;
			if (members[i] > 1)
				fprintf(out, "%s{", names[i]);
			for (size_t m = 0; m < members[i]; m++)
				fprintf(out, "%s%s", m ? "," : "", perfev_perfdata_event_name(pd, i + m));
			fputs(members[i] > 1 ? "}\n" : "\n", out);
			continue;
		}
		fputs(name, out);
		bool started = false; /* perf's comma_fprintf: ':' first, ',' after */
		if (verbose) {
			pv_attr_fprintf(out, a, ": ", ", ", ": ", &started);
		} else if (freq) {
			fprintf(out, ": %s=%" PRIu64, a->freq ? "sample_freq" : "sample_period", (uint64_t)a->sample_period);
			started = true;
		}
		if (fields)
			print_trace_fields(out, tp, a, &started);
		fputc('\n', out);
	}
	perfev_tp_free(tp);
	if (tracepoint && !fields) /* (perf's, as it prints it) */
		fputs("# Tip: use 'perf evlist --trace-fields' to show fields for tracepoint events\n", out);
	free(lead), free(members), free(names);
	return ferror(out) ? pv_error(EIO, "evlist: write error") : 0;
}

