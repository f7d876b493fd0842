/*
 * stat_print.c — perf stat's three layouts: aligned text (perf 6.x
 * stat-display widths: 18-column counts, 32-column names, 35-column
 * metrics), CSV (-x: value, unit, event, [variance,] run time, % running,
 * metric value, metric unit) and JSON (one object per line, perf's keys).
 */
#define _GNU_SOURCE
#include "core/internal.h"
#include "core/opts.h"
#include "count/stat_int.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define COUNTS_LEN 18
#define METRIC_LEN 35
#define NAME_LEN 32

/* perf's printf format for each metric unit */
static const char *metric_fmt(const char *unit)
{
	if (!strcmp(unit, "insn per cycle"))
		return "%7.2f ";
	if (!strcmp(unit, "of all cache refs"))
		return "%8.3f %%";
	if (!strncmp(unit, "of all", 6) || strstr(unit, "cycles idle"))
		return "%7.2f%%";
	return "%8.3f";
}

/* A topology line's name, as perf's aggr_printout: "S0-D0-C3", "S0-D1", "S1", "N0". */
static void topo_name(const struct perfev_stat *s, size_t line, char *buf, size_t len)
{
	const struct pv_cpu_topo *t = &s->topo[line];
	if (s->aggr == PERFEV_AGGR_CORE)
		snprintf(buf, len, "S%d-D%d-C%d", t->socket, t->die, t->core);
	else if (s->aggr == PERFEV_AGGR_DIE)
		snprintf(buf, len, "S%d-D%d", t->socket, t->die);
	else if (s->aggr == PERFEV_AGGR_SOCKET)
		snprintf(buf, len, "S%d", t->socket);
	else
		snprintf(buf, len, "N%d", t->node);
}

struct ctx {
	const struct perfev_stat *s;
	const struct perfev_stat_output *o;
	struct pv_buf *b;
	const char *sep;
	int unit_width;
};

static void prefix(struct ctx *c, size_t line)
{
	const struct perfev_stat *s = c->s;
	bool csv = c->o->format == PERFEV_STAT_CSV;
	if (c->o->interval) {
		double ts = c->o->interval_ts;
		unsigned long sec = (unsigned long)ts;
		unsigned long ns = (unsigned long)llround((ts - (double)sec) * 1e9);
		if (ns >= 1000000000UL)
			sec++, ns -= 1000000000UL;
		pv_buf_printf(c->b, "%6lu.%09lu%s", sec, ns, c->sep);
	}
	if (pv_stat_by_topo(s->aggr)) {
		char id[64];
		topo_name(s, line, id, sizeof(id));
		/* perf: "S%d-D%d-C%*d", "S%d-D%*d", "S%*d", "N%*d" (the last part
		 * left-aligned in 8 or 5), then the CPUs "%*d" in 4; CSV: no padding */
		int pad = s->aggr == PERFEV_AGGR_CORE || s->aggr == PERFEV_AGGR_DIE ? 8 : 5;
		const char *last = strrchr(id, '-') ? strrchr(id, '-') + 2 : id + 1;
		pv_buf_printf(c->b, "%-*s%s%*d%s", csv ? 0 : (int)(last - id) + pad, id, c->sep, csv ? 0 : 4,
			      s->topo_cpus[line], c->sep);
		return;
	}
	if (s->aggr != PERFEV_AGGR_PLACE)
		return;
	if (s->labels_cpus)
		pv_buf_printf(c->b, "CPU%-*d%s", csv ? 0 : 7, s->labels[line], c->sep);
	else
		pv_buf_printf(c->b, "%*s-%-*d%s", csv ? 0 : 16, s->comm[line] ? s->comm[line] : "?",
			      csv ? 0 : 8, s->labels[line], c->sep);
}

/* "12.3" from "%8.3f%%": perf's CSV keeps only the number */
static void metric_number(char *buf, size_t len, const char *fmt, double v)
{
	char tmp[64];
	snprintf(tmp, sizeof(tmp), fmt, v);
	const char *p = tmp;
	while (*p == ' ')
		p++;
	size_t n = 0;
	while (n + 1 < len && (p[n] == '-' || p[n] == '.' || (p[n] >= '0' && p[n] <= '9')))
		n++;
	memcpy(buf, p, n);
	buf[n] = 0;
}

static double noise_pct(const struct perfev_stat_value *v)
{
	return v->val != 0 ? 100.0 * v->stddev / fabs(v->val) : 0;
}

static void line_text(struct ctx *c, size_t ev, size_t line, const struct perfev_stat_value *v,
		      const char *name, bool has_metric, double mval, const char *munit)
{
	struct pv_buf *b = c->b;
	prefix(c, line);
	if (!v->counted) {
		pv_buf_printf(b, "%*s ", COUNTS_LEN, v->status ? "<not supported>" : "<not counted>");
		pv_buf_printf(b, "%-*s %-25s", c->unit_width, v->unit, name);
		pv_buf_printf(b, "%-*s", METRIC_LEN, "");
		pv_buf_putc(b, '\n');
		return;
	}
	double scale = v->raw != 0 ? v->val / v->raw : 1;
	bool frac = floor(scale) != scale;
	if (c->o->big_num)
		pv_buf_printf(b, frac ? "%'*.2f " : "%'*.0f ", COUNTS_LEN, v->val);
	else
		pv_buf_printf(b, frac ? "%*.2f " : "%*.0f ", COUNTS_LEN, v->val);
	pv_buf_printf(b, "%-*s %-*s", c->unit_width, v->unit, NAME_LEN, name);
	if (has_metric) {
		char num[64];
		snprintf(num, sizeof(num), metric_fmt(munit), mval);
		int n = 3 + (int)strlen(num);
		pv_buf_printf(b, " # %s %-*s", num, PV_MAX(METRIC_LEN - n - 1, 0), munit);
	} else {
		pv_buf_printf(b, "%-*s", METRIC_LEN, "");
	}
	if (v->runs > 1 && noise_pct(v) != 0) /* perf leaves out a zero noise */
		pv_buf_printf(b, "  ( +-%6.2f%% )", noise_pct(v));
	if (v->run < v->ena)
		pv_buf_printf(b, "  (%.2f%%)", v->pcnt_running);
	pv_buf_putc(b, '\n');
}

static void line_csv(struct ctx *c, size_t ev, size_t line, const struct perfev_stat_value *v,
		     const char *name, bool has_metric, double mval, const char *munit)
{
	struct pv_buf *b = c->b;
	const char *sep = c->sep;
	prefix(c, line);
	if (!v->counted) {
		pv_buf_printf(b, "%s%s%s%s%s", v->status ? "<not supported>" : "<not counted>", sep,
			      v->unit, sep, name);
	} else {
		double scale = v->raw != 0 ? v->val / v->raw : 1;
		pv_buf_printf(b, floor(scale) != scale ? "%.2f" : "%.0f", v->val);
		pv_buf_printf(b, "%s%s%s%s", sep, v->unit, sep, name);
	}
	if (v->runs > 1)
		pv_buf_printf(b, "%s%.2f%%", sep, v->counted ? noise_pct(v) : 0.0);
	pv_buf_printf(b, "%s%.0f%s%.2f", sep, v->counted ? v->run : 0.0, sep,
		      v->counted ? v->pcnt_running : 100.0);
	if (has_metric) {
		char num[64];
		metric_number(num, sizeof(num), metric_fmt(munit), mval);
		pv_buf_printf(b, "%s%s%s%s", sep, num, sep, munit);
	} else {
		pv_buf_printf(b, "%s%s", sep, sep);
	}
	pv_buf_putc(b, '\n');
}

static void line_json(struct ctx *c, size_t ev, size_t line, const struct perfev_stat_value *v,
		      const char *name, bool has_metric, double mval, const char *munit)
{
	struct pv_buf *b = c->b;
	const struct perfev_stat *s = c->s;
	pv_buf_putc(b, '{');
	if (c->o->interval)
		pv_buf_printf(b, "\"interval\" : %.9f, ", c->o->interval_ts);
	if (pv_stat_by_topo(s->aggr)) {
		static const char *const key[] = {[PERFEV_AGGR_CORE] = "core", [PERFEV_AGGR_DIE] = "die",
						  [PERFEV_AGGR_SOCKET] = "socket", [PERFEV_AGGR_NODE] = "node"};
		char id[64];
		topo_name(s, line, id, sizeof(id));
		pv_buf_printf(b, "\"%s\" : \"%s\", \"aggregate-number\" : %d, ", key[s->aggr], id,
			      s->topo_cpus[line]);
	} else if (s->aggr == PERFEV_AGGR_PLACE && s->labels_cpus)
		pv_buf_printf(b, "\"cpu\" : \"%d\", ", s->labels[line]);
	else if (s->aggr == PERFEV_AGGR_PLACE) {
		char th[96];
		snprintf(th, sizeof(th), "%s-%d", s->comm[line] ? s->comm[line] : "?", s->labels[line]);
		pv_buf_puts(b, "\"thread\" : ");
		pv_buf_json_str(b, th);
		pv_buf_puts(b, ", ");
	}
	if (v->counted)
		pv_buf_printf(b, "\"counter-value\" : \"%f\", ", v->val);
	else
		pv_buf_printf(b, "\"counter-value\" : \"%s\", ",
			      v->status ? "<not supported>" : "<not counted>");
	pv_buf_puts(b, "\"unit\" : ");
	pv_buf_json_str(b, v->unit);
	pv_buf_puts(b, ", \"event\" : ");
	pv_buf_json_str(b, name);
	if (v->runs > 1)
		pv_buf_printf(b, ", \"variance\" : %.2f", v->counted ? noise_pct(v) : 0.0);
	pv_buf_printf(b, ", \"event-runtime\" : %.0f, \"pcnt-running\" : %.2f",
		      v->counted ? v->run : 0.0, v->counted ? v->pcnt_running : 100.0);
	pv_buf_printf(b, ", \"metric-value\" : %f, \"metric-unit\" : ", has_metric ? mval : 0.0);
	pv_buf_json_str(b, has_metric ? munit : "");
	pv_buf_puts(b, "}\n");
}

static int precision(double num)
{
	if (num > 1 || num <= 0)
		return 0;
	return (int)lround(ceil(-log10(num)));
}

static void header(struct ctx *c)
{
	const struct perfev_stat *s = c->s;
	if (c->o->interval) {
		/* perf's aggr_header_std */
		static const char *const aggr[] = {[PERFEV_AGGR_CORE] = "core            cpus ",
						   [PERFEV_AGGR_DIE] = "die          cpus ",
						   [PERFEV_AGGR_SOCKET] = "socket cpus ",
						   [PERFEV_AGGR_NODE] = "node   cpus "};
		const char *what = pv_stat_by_topo(s->aggr) ? aggr[s->aggr]
				   : s->aggr != PERFEV_AGGR_PLACE ? ""
				   : s->labels_cpus		  ? "CPU        "
								  : "            comm-pid      ";
		if (c->o->interval_header)
			pv_buf_printf(c->b, "#           time %s            counts %*s events\n", what, c->unit_width,
				      "unit");
		return;
	}
	unsigned runs = s->elapsed.n;
	pv_buf_printf(c->b, "\n Performance counter stats for %s", c->o->what ? c->o->what : "'workload'");
	if (runs > 1)
		pv_buf_printf(c->b, " (%u runs)", runs);
	pv_buf_puts(c->b, ":\n\n");
}

/* perf's --table: each run's time, its distance from the mean, and a bar
 * of one '#' per 5% of that distance (print_table) */
static void run_table(struct ctx *c, int p, double avg)
{
	char tmp[64];
	int indent = 0;
	snprintf(tmp, sizeof(tmp), " %17.*f", p, avg);
	while (tmp[indent] == ' ')
		indent++;
	pv_buf_printf(c->b, "%*s# Table of individual measurements:\n", indent, "");
	for (size_t i = 0; i < c->s->nruns; i++) {
		double run = c->s->run_ns[i] / 1e9;
		int n = run > 0 ? 1 + abs((int)(100.0 * (run - avg) / run) / 5) : 1;
		pv_buf_printf(c->b, " %17.*f (%+.*f) ", p, run, p, run - avg);
		for (int h = 0; h < n; h++)
			pv_buf_putc(c->b, '#');
		pv_buf_putc(c->b, '\n');
	}
	pv_buf_printf(c->b, "\n%*s# Final result:\n", indent, "");
}

static void footer(struct ctx *c)
{
	const struct perfev_stat *s = c->s;
	if (c->o->interval)
		return;
	double avg = s->elapsed.mean / 1e9;
	if (!c->o->null_run)
		pv_buf_putc(c->b, '\n');
	if (s->elapsed.n > 1) {
		double sd = pv_acc_stddev_mean(&s->elapsed) / 1e9;
		int p = precision(sd) + 2;
		if (c->o->table)
			run_table(c, p, avg);
		pv_buf_printf(c->b, " %17.*f +- %.*f seconds time elapsed", p, avg, p, sd);
		pv_buf_printf(c->b, "  ( +-%6.2f%% )\n", avg ? 100.0 * sd / avg : 0.0);
	} else {
		pv_buf_printf(c->b, " %17.9f seconds time elapsed\n", avg);
	}
	pv_buf_putc(c->b, '\n');
	if (s->have_ru && s->elapsed.n == 1) {
		pv_buf_printf(c->b, " %17.9f seconds user\n",
			      s->ru.ru_utime.tv_sec + s->ru.ru_utime.tv_usec / 1e6);
		pv_buf_printf(c->b, " %17.9f seconds sys\n\n\n",
			      s->ru.ru_stime.tv_sec + s->ru.ru_stime.tv_usec / 1e6);
	}
}

/* ---- one event on many boxes (perf's merged aliases) ---------------------- */
/* Whether PMU names a and b are boxes of one unit: "uncore_imc_0", "uncore_imc_3". */
static bool same_unit(const char *a, const char *b)
{
	if (!a || !b || !strcmp(a, b))
		return false;
	size_t la = strlen(a), lb = strlen(b);
	while (la && isdigit((unsigned char)a[la - 1]))
		la--;
	while (lb && isdigit((unsigned char)b[lb - 1]))
		lb--;
	return la == lb && la > 1 && a[la - 1] == '_' && !strncmp(a, b, la);
}

/* The end of the run of events from ev that are one event on the boxes of a
 * unit (same name, PMUs UNIT_N): perf prints their sum as one line. */
static size_t boxes_end(const struct perfev_evlist *l, size_t ev)
{
	const struct perfev_evsel *e = perfev_evlist_at(l, ev);
	size_t end = ev + 1, n = perfev_evlist_count(l);
	while (end < n) {
		const struct perfev_evsel *x = perfev_evlist_at(l, end);
		if (strcmp(perfev_evsel_name(x), perfev_evsel_name(e)) ||
		    !same_unit(perfev_evsel_pmu_name(e), perfev_evsel_pmu_name(x)))
			break;
		end++;
	}
	return end;
}

/* perf's name of one box's line under --no-merge: "NAME [PMU]". */
static const char *box_name(const struct perfev_evsel *e, bool boxed, char *buf, size_t len)
{
	if (!boxed)
		return perfev_evsel_name(e);
	snprintf(buf, len, "%s [%s]", perfev_evsel_name(e), perfev_evsel_pmu_name(e));
	return buf;
}

/* Events [ev, end) at line as one: counts and times summed (perf sums the
 * boxes' counts, enabled and running times); not counted unless one was. */
static void boxes_value(const struct perfev_stat *s, size_t ev, size_t end, size_t line,
			struct perfev_stat_value *v, double *first_raw)
{
	perfev_stat_value(s, ev, line, v);
	*first_raw = v->raw; /* (the box perfev_stat_metric reads) */
	double var = v->stddev * v->stddev;
	for (size_t i = ev + 1; i < end; i++) {
		struct perfev_stat_value x;
		perfev_stat_value(s, i, line, &x);
		if (!x.counted)
			continue;
		if (!v->counted) {
			*v = x;
			var = x.stddev * x.stddev;
			continue;
		}
		v->val += x.val;
		v->raw += x.raw;
		v->run += x.run;
		v->ena += x.ena;
		var += x.stddev * x.stddev;
	}
	v->stddev = sqrt(var);
	v->pcnt_running = v->ena > 0 ? 100.0 * v->run / v->ena : 100.0;
}

/* The line of events [ev, next) (their boxes summed) at line. */
static void print_value(struct ctx *c, size_t ev, size_t next, size_t line, const char *name)
{
	struct perfev_stat_value v;
	double first_raw;
	boxes_value(c->s, ev, next, line, &v, &first_raw);
	double mval = 0;
	const char *munit = "";
	bool has = perfev_stat_metric(c->s, ev, line, &mval, &munit);
	double per_sec;
	if (has && next > ev + 1) { /* the sum's rate: the first box's, scaled to the sum */
		has = first_raw != 0 && pv_stat_rate_of(mval, munit, &per_sec);
		if (has)
			pv_stat_rate(per_sec * v.raw / first_raw, &mval, &munit);
	}
	if (c->o->format == PERFEV_STAT_CSV)
		line_csv(c, ev, line, &v, name, has, mval, munit);
	else if (c->o->format == PERFEV_STAT_JSON)
		line_json(c, ev, line, &v, name, has, mval, munit);
	else
		line_text(c, ev, line, &v, name, has, mval, munit);
}

PERFEV_API int perfev_stat_print(const struct perfev_stat *s, FILE *f,
				 const struct perfev_stat_output *o)
{
	if (!PV_OPTS_VALID(o, perfev_stat_output))
		return -errno;
	/* NULL, or a caller's smaller (older) struct, reads as zeros: text */
	struct perfev_stat_output def;
	PV_OPTS_COPY(def, o);
	o = &def;
	struct pv_buf b = PV_BUF_INIT;
	struct ctx c = {s, o, &b, o->format == PERFEV_STAT_CSV ? (o->sep ? o->sep : ",") : " ", 4};
	for (size_t ev = 0; ev < s->nev; ev++) {
		const char *u;
		pv_stat_scale(perfev_evlist_at(s->list, ev), &u);
		c.unit_width = PV_MAX(c.unit_width, (int)strlen(u));
	}
	if (o->format == PERFEV_STAT_TEXT)
		header(&c);
	/* perf orders -A output by event, then CPU/thread; --per-core and the
	 * like by core (die, socket, node), then event (print_aggr) */
	bool by_line = pv_stat_by_topo(s->aggr);
	for (size_t outer = 0; outer < (by_line ? s->nlines : 1); outer++) {
		size_t run_start = 0, run_end = 0; /* the event's boxes: [run_start, run_end) */
		for (size_t ev = 0, next; ev < s->nev && !(o->metrics && o->metric_only); ev = next) {
			if (ev >= run_end) {
				run_start = ev;
				run_end = boxes_end(s->list, ev);
			}
			next = o->no_merge ? ev + 1 : run_end;
			char boxed[256];
			const char *name = box_name(perfev_evlist_at(s->list, ev),
						    o->no_merge && run_end - run_start > 1, boxed, sizeof(boxed));
			for (size_t line = by_line ? outer : 0; line < (by_line ? outer + 1 : s->nlines); line++)
				print_value(&c, ev, next, line, name);
		}
	}
	pv_metrics_format(o->metrics, s, &b, o, o->metric_only, c.sep);
	if (o->format == PERFEV_STAT_TEXT)
		footer(&c);
	int r = 0;
	if (b.oom)
		r = pv_error(ENOMEM, "out of memory");
	else if (b.len && fwrite(b.data, 1, b.len, f) != b.len)
		r = pv_error(EIO, "cannot write the statistics: %s", strerror(errno));
	fflush(f);
	pv_buf_free(&b);
	return r;
}
