/* report_branch.c — perf report --stdio's branch view (perf's default for
 * recordings with branch stacks): per event, one row per branch table row
 * of the library (perfev_branch_table_load), columns Overhead, Command,
 * Source Shared Object, Source Symbol, Target Symbol, Basic Block Cycles,
 * sized and printed as perf's sort.c does. */
#define _GNU_SOURCE
#include "report.h"
#include "cli.h"
#include "internal.h"
#include "export_int.h"

#include <errno.h>
#include <string.h>

/* perf's _hist_entry__sym_snprintf: "[level] name", or the address (in the
 * object's terms) as "%-#.16llx" (so 0 has no 0x), cut to the width. */
static void end_text(const struct perfev_branch_end *e, char *buf, size_t len)
{
	if (e->symbol)
		snprintf(buf, len, "[%c] %s", e->level, e->symbol);
	else
		snprintf(buf, len, "[%c] %-#.16llx", e->level, (unsigned long long)e->rel_addr);
}

/* What the view shows besides perf's default columns. */
struct bview {
	double limit;        /* --percent-limit */
	bool samples, period; /* -n, --show-total-period: the branch count (perf's period is 1 a branch) */
	const char *comms;   /* --comms LIST (NULL: all); one name elides the Command column */
	bool no_comm;
};

static bool comm_shown(const struct bview *b, const char *comm)
{
	return !b->comms || pv_list_has(b->comms, comm);
}

/* perf's column widths (hists__calc_col_len, of the rows the filter keeps):
 * a known symbol's name + 4, an unknown one 16 digits + "0x" + 4; the
 * source object by its name only when the source symbol is known (else at
 * least 16). */
static void widths(const struct perfev_branch_event *ev, const struct bview *b, size_t w[4])
{
	w[0] = strlen("Command");
	w[1] = strlen("Source Shared Object");
	w[2] = strlen("Source Symbol");
	w[3] = strlen("Target Symbol");
	for (size_t i = 0; i < ev->nr; i++) {
		const struct perfev_branch_row *r = &ev->rows[i];
		if (!comm_shown(b, r->comm))
			continue;
		size_t n = strlen(r->thread_comm);
		w[0] = n > w[0] ? n : w[0];
		n = r->from.symbol ? strlen(report_basename(r->from.dso)) : 16;
		w[1] = n > w[1] ? n : w[1];
		n = r->from.symbol ? strlen(r->from.symbol) + 4 : 22;
		w[2] = n > w[2] ? n : w[2];
		n = r->to.symbol ? strlen(r->to.symbol) + 4 : 22;
		w[3] = n > w[3] ? n : w[3];
	}
}

static void dots(FILE *out, size_t n)
{
	fputs("  ", out);
	for (size_t i = 0; i < n; i++)
		fputc('.', out);
}

static void print_event(const struct perfev_branch_event *ev, const struct bview *b, FILE *out)
{
	char nbuf[32];
	report_samples_unit(ev->branches, nbuf, sizeof(nbuf));
	fprintf(out, "# Samples: %s of event '%s'\n# Event count (approx.): %llu\n#\n", nbuf, ev->name,
		(unsigned long long)ev->branches);
	size_t w[4];
	widths(ev, b, w);
	fputs("# Overhead", out);
	if (b->samples)
		fprintf(out, "  %12s", "Samples");
	if (b->period)
		fprintf(out, "  %12s", "Period");
	if (!b->no_comm)
		fprintf(out, "  %-*s", (int)w[0], "Command");
	fprintf(out, "  %-*s  %-*s  %-*s  Basic Block Cycles\n", (int)w[1], "Source Shared Object", (int)w[2],
		"Source Symbol", (int)w[3], "Target Symbol");
	fputs("# ........", out);
	if (b->samples)
		dots(out, 12);
	if (b->period)
		dots(out, 12);
	for (size_t c = b->no_comm; c < 4; c++)
		dots(out, w[c]);
	fputs("  ..................\n#\n", out);
	char from[512], to[512], cycles[32];
	for (size_t i = 0; i < ev->nr; i++) {
		const struct perfev_branch_row *r = &ev->rows[i];
		double pct = ev->branches ? 100.0 * (double)r->count / (double)ev->branches : 0.0;
		if ((b->limit > 0 && pct < b->limit) || !comm_shown(b, r->comm))
			continue; /* (the limit's rows count in the widths, as perf's) */
		end_text(&r->from, from, sizeof(from));
		end_text(&r->to, to, sizeof(to));
		if (r->cycles)
			snprintf(cycles, sizeof(cycles), "%hd", (short)r->cycles); /* perf's %hd */
		else
			snprintf(cycles, sizeof(cycles), "-");
		fprintf(out, "  %7.2f%%", pct);
		if (b->samples)
			fprintf(out, "  %12llu", (unsigned long long)r->count);
		if (b->period)
			fprintf(out, "  %12llu", (unsigned long long)r->count);
		if (!b->no_comm)
			fprintf(out, "  %-*.*s", (int)w[0], (int)w[0], r->comm);
		fprintf(out, "  %-*.*s  %-*.*s  %-*.*s  %-18s\n", (int)w[1], (int)w[1], report_basename(r->from.dso),
			(int)w[2], (int)w[2], from, (int)w[3], (int)w[3], to, cycles);
	}
	fputs("\n\n", out);
}

static int print_branches(const struct perfev_branch_table *t, const struct report_view *v, const struct bview *b,
			  FILE *out)
{
	report_print_preamble(v, out);
	for (size_t i = 0; i < perfev_branch_table_nr_events(t); i++) {
		const struct perfev_branch_event *ev = perfev_branch_table_event(t, i);
		if (ev->nr)
			print_event(ev, b, out);
	}
	if (ferror(out))
		return cli_error("report", "writing the report failed: %s", strerror(errno));
	return 0;
}

static void json_end(struct pv_buf *b, const char *name, const struct perfev_branch_end *e)
{
	pv_buf_printf(b, ",\"%s\":{\"dso\":", name);
	if (e->dso)
		pv_buf_json_str(b, e->dso);
	else
		pv_buf_puts(b, "null"); /* outside any map */
	pv_buf_puts(b, ",\"symbol\":");
	if (e->symbol)
		pv_buf_json_str(b, e->symbol);
	else
		pv_buf_puts(b, "null");
	pv_buf_printf(b, ",\"addr\":\"0x%llx\",\"rel_addr\":\"0x%llx\",\"level\":\"%c\"}",
		      (unsigned long long)e->addr, (unsigned long long)e->rel_addr, e->level);
}

/* The same rows as JSON (perfev report -b --json): every event, every row
 * the filters keep. */
static int print_json(const struct perfev_branch_table *t, const struct bview *b, FILE *out)
{
	struct pv_buf j = PV_BUF_INIT;
	pv_buf_puts(&j, "{\"events\":[");
	bool first_ev = true;
	for (size_t i = 0; i < perfev_branch_table_nr_events(t); i++) {
		const struct perfev_branch_event *ev = perfev_branch_table_event(t, i);
		if (!ev->nr)
			continue;
		pv_buf_puts(&j, first_ev ? "\n{\"event\":" : ",\n{\"event\":");
		first_ev = false;
		pv_buf_json_str(&j, ev->name);
		pv_buf_printf(&j, ",\"samples\":%llu,\"branches\":%llu,\"entries\":[",
			      (unsigned long long)ev->samples, (unsigned long long)ev->branches);
		bool first = true;
		for (size_t k = 0; k < ev->nr; k++) {
			const struct perfev_branch_row *r = &ev->rows[k];
			double pct = ev->branches ? 100.0 * (double)r->count / (double)ev->branches : 0.0;
			if ((b->limit > 0 && pct < b->limit) || !comm_shown(b, r->comm))
				continue;
			pv_buf_printf(&j, "%s\n{\"overhead\":%.4f,\"count\":%llu,\"comm\":", first ? "" : ",", pct,
				      (unsigned long long)r->count);
			first = false;
			pv_buf_json_str(&j, r->comm);
			json_end(&j, "from", &r->from);
			json_end(&j, "to", &r->to);
			pv_buf_printf(&j, ",\"cycles\":%u}", (unsigned)r->cycles);
		}
		pv_buf_puts(&j, "\n]}");
	}
	pv_buf_puts(&j, "\n]}\n");
	return pv_export_write(&j, out, "report JSON") < 0 ? cli_error("report", "%s", perfev_errmsg()) : 0;
}

int report_branch_file(const char *input, const struct perfev_profile_load_opts *lo, const struct report_view *v0,
		       bool samples, bool period, const char *comms, bool asked, bool json)
{
	struct bview b = {.limit = v0->percent_limit, .samples = samples, .period = period, .comms = comms,
			  .no_comm = comms && !strchr(comms, ',')};
	struct perfev_profile_load_info info = {.size = sizeof(info)};
	struct perfev_branch_table *t = perfev_branch_table_load(input, lo, &info);
	if (!t)
		return cli_error("report", "%s", perfev_errmsg());
	uint64_t nsamples = 0;
	for (size_t i = 0; i < perfev_branch_table_nr_events(t); i++)
		nsamples += perfev_branch_table_event(t, i)->samples;
	int ret;
	if (!nsamples && !asked) {
		ret = -ENOENT; /* by default: the sample view says what the file holds */
	} else if (!nsamples) {
		ret = cli_error("report", "%s has no samples with branch stacks (record them with perf record -b "
				"or -j any), so there is no branch view: drop -b", input);
	} else {
		struct report_view v = *v0;
		v.lost = info.lost_samples;
		/* the preamble names an elided command ("# comm: NAME") */
		v.only_comm = b.no_comm ? comms : NULL;
		v.cols[0] = (struct report_col){COL_KEY, "comm"};
		v.nr_cols = 1;
		ret = json ? print_json(t, &b, stdout) : print_branches(t, &v, &b, stdout);
	}
	perfev_branch_table_free(t);
	return ret;
}
