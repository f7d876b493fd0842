/* perfdata_stats.c — perf report --stats: the record counts of a pass over
 * a perf.data file, printed as perf 6.1 prints them (ui/stdio/hist.c's
 * events_stats__fprintf, util/hist.c's evlist__fprintf_nr_events). */
#define _GNU_SOURCE
#include "perfdata/perfdata_int.h"
#include "perfev.h"

/* perf 6.1's PERF_RECORD_HEADER_MAX: it knows types below (FINISHED_INIT is
 * the last) and refuses the others. */
#define PV_PERF61_RECORD_MAX 83

/* perf's stats pass reads no EVENT_UPDATE or feature records: a pipe's
 * events keep the names perf derives from their attrs. */
static const char *stats_name(const struct perfev_perfdata *pd, size_t i, char *buf, size_t len)
{
	const char *name = perfev_perfdata_event_name(pd, i);
	if (perfev_perfdata_is_pipe(pd) && perfev_attr_name(perfev_perfdata_event_attr(pd, i), buf, len) >= 0)
		name = buf;
	return name;
}

/* perf counts in u32 (and prints with %d) */
static uint32_t stats_total(const struct perfev_perfdata_stats *st)
{
	uint32_t total = 0;
	for (int t = 0; t < PV_PERF61_RECORD_MAX; t++)
		total += (uint32_t)st->nr_records[t];
	return total;
}

/* a pipe's features arrive as records, which perf's stats pass does not read */
static bool stats_aux(const struct perfev_perfdata *pd)
{
	return !perfev_perfdata_is_pipe(pd) && perfev_perfdata_has_feature(pd, PERFEV_FEAT_AUXTRACE);
}

PERFEV_API int perfev_perfdata_print_stats(const struct perfev_perfdata *pd, FILE *out)
{
	struct perfev_perfdata_stats st;
	perfev_perfdata_stats(pd, &st);
	uint32_t total = stats_total(&st);
	bool aux = stats_aux(pd);
	fprintf(out, "\nAggregated stats:%s\n",
		aux ? " (excludes AUX area (e.g. instruction trace) decoded / synthesized events)" : "");
	fprintf(out, "%16s events: %10d\n", "TOTAL", (int)total);
	for (int t = 1; t < PV_PERF61_RECORD_MAX; t++) {
		uint32_t n = (uint32_t)st.nr_records[t];
		const char *name = perfev_record_type_name((uint32_t)t);
		if (!n || !strcmp(name, "UNKNOWN"))
			continue;
		if (total)
			fprintf(out, "%16s events: %10d  (%4.1f%%)\n", name, (int)n, 100.0 * n / total);
		else
			fprintf(out, "%16s events: %10d\n", name, (int)n);
	}
	for (size_t i = 0; i < perfev_perfdata_nr_events(pd); i++) {
		struct perfev_perfdata_event_stats es;
		if (perfev_perfdata_event_stats(pd, i, &es) < 0)
			return -errno;
		uint32_t ns = (uint32_t)es.nr_samples, nl = (uint32_t)es.nr_lost_samples;
		if (!ns && !nl)
			continue; /* perf's report.skip-empty, on by default */
		char buf[256];
		fprintf(out, "%s stats:\n", stats_name(pd, i, buf, sizeof(buf)));
		if (ns)
			fprintf(out, "%16s events: %10d\n", "SAMPLE", (int)ns);
		if (nl)
			fprintf(out, "%16s events: %10d\n", "LOST_SAMPLES", (int)nl);
	}
	return ferror(out) ? pv_error(EIO, "cannot write the stats: %s", strerror(errno)) : 0;
}

PERFEV_API int perfev_perfdata_print_stats_json(const struct perfev_perfdata *pd, FILE *out)
{
	struct perfev_perfdata_stats st;
	perfev_perfdata_stats(pd, &st);
	struct pv_buf b = PV_BUF_INIT;
	pv_buf_printf(&b, "{\"aux_area_excluded\": %s, \"total\": %u, \"records\": {", stats_aux(pd) ? "true" : "false",
		      stats_total(&st));
	const char *sep = "";
	for (int t = 1; t < PV_PERF61_RECORD_MAX; t++) {
		const char *name = perfev_record_type_name((uint32_t)t);
		if (!st.nr_records[t] || !strcmp(name, "UNKNOWN"))
			continue;
		pv_buf_printf(&b, "%s\"%s\": %u", sep, name, (uint32_t)st.nr_records[t]);
		sep = ", ";
	}
	pv_buf_puts(&b, "}, \"events\": [");
	for (size_t i = 0; i < perfev_perfdata_nr_events(pd); i++) {
		struct perfev_perfdata_event_stats es;
		char buf[256];
		perfev_perfdata_event_stats(pd, i, &es);
		pv_buf_puts(&b, i ? ", {\"name\": " : "{\"name\": ");
		pv_buf_json_str(&b, stats_name(pd, i, buf, sizeof(buf)));
		pv_buf_printf(&b, ", \"samples\": %u, \"lost_samples\": %u}", (uint32_t)es.nr_samples,
			      (uint32_t)es.nr_lost_samples);
	}
	pv_buf_puts(&b, "]}\n");
	if (b.oom) {
		pv_buf_free(&b);
		return pv_error(ENOMEM, "out of memory writing the stats");
	}
	fwrite(b.data, 1, b.len, out);
	pv_buf_free(&b);
	return ferror(out) ? pv_error(EIO, "cannot write the stats: %s", strerror(errno)) : 0;
}
