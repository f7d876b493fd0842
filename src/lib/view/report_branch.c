/* report_branch.c — perf report --stdio's branch view (perf's default for
 * recordings with branch stacks): per event, one row per branch table row
 * of the library (perfev_branch_table_load), columns Overhead, Command,
 * Source Shared Object, Source Symbol, Target Symbol, Basic Block Cycles,
 * sized and printed as perf's sort.c does. */
#define _GNU_SOURCE
#include "view/report_int.h"
#include "core/internal.h"
#include "export/export_int.h"

#include <errno.h>
#include <stdlib.h>
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

/* What the view shows: its columns (perf's branch sort keys) and besides. */
struct bview {
	double limit;        /* --percent-limit */
	bool samples, period; /* -n, --show-total-period: the branch count (perf's period is 1 a branch) */
	const char *comms;   /* --comms LIST (NULL: all); one name elides the Command column */
	bool no_comm;
	const enum perfev_branch_key *keys;
	size_t nkeys;
	bool ipc;            /* perf's ipc_lbr column (a --sort naming "symbol") */
	bool relative;       /* --percentage relative: of the rows --comms keeps */
};

static bool comm_shown(const struct bview *b, const char *comm)
{
	return !b->comms || pv_list_has(b->comms, comm);
}

static const char *const headers[PERFEV_BKEY_NR] = {
	[PERFEV_BKEY_COMM] = "Command", [PERFEV_BKEY_DSO_FROM] = "Source Shared Object",
	[PERFEV_BKEY_DSO_TO] = "Target Shared Object", [PERFEV_BKEY_SYM_FROM] = "Source Symbol",
	[PERFEV_BKEY_SYM_TO] = "Target Symbol", [PERFEV_BKEY_CYCLES] = "Basic Block Cycles",
};

/* perf's column widths (hists__calc_col_len, of the rows the filter keeps):
 * a known symbol's name + 4, an unknown one 16 digits + "0x" + 4; an
 * end's object by its name only when its symbol is known (else at least
 * 16); the command by the name of the thread that made the row. */
static size_t width(const struct perfev_branch_event *ev, const struct bview *b, enum perfev_branch_key k)
{
	size_t w = strlen(headers[k]);
	for (size_t i = 0; k != PERFEV_BKEY_CYCLES && i < ev->nr; i++) {
		const struct perfev_branch_row *r = &ev->rows[i];
		const struct perfev_branch_end *e = k == PERFEV_BKEY_DSO_TO || k == PERFEV_BKEY_SYM_TO ? &r->to : &r->from;
		if (!comm_shown(b, r->comm))
			continue;
		size_t n = k == PERFEV_BKEY_COMM ? strlen(r->thread_comm)
			 : k == PERFEV_BKEY_DSO_FROM || k == PERFEV_BKEY_DSO_TO ? (e->symbol ? strlen(pv_report_basename(e->dso)) : 16)
			 : e->symbol ? strlen(e->symbol) + 4 : 22;
		w = n > w ? n : w;
	}
	return w;
}

/* The text of a row's column. */
static void cell(const struct perfev_branch_row *r, enum perfev_branch_key k, char *buf, size_t len)
{
	switch (k) {
	case PERFEV_BKEY_COMM: snprintf(buf, len, "%s", r->comm); break;
	case PERFEV_BKEY_DSO_FROM: snprintf(buf, len, "%s", pv_report_basename(r->from.dso)); break;
	case PERFEV_BKEY_DSO_TO: snprintf(buf, len, "%s", pv_report_basename(r->to.dso)); break;
	case PERFEV_BKEY_SYM_FROM: end_text(&r->from, buf, len); break;
	case PERFEV_BKEY_SYM_TO: end_text(&r->to, buf, len); break;
	case PERFEV_BKEY_CYCLES:
		if (r->cycles)
			snprintf(buf, len, "%hd", (short)r->cycles); /* perf's %hd */
		else
			snprintf(buf, len, "-");
		break;
	default: snprintf(buf, len, "?"); break;
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
	uint64_t all = ev->branches;
	if (b->relative && b->comms) { /* perf: the branches of the rows shown */
		all = 0;
		for (size_t i = 0; i < ev->nr; i++)
			all += comm_shown(b, ev->rows[i].comm) ? ev->rows[i].count : 0;
	}
	pv_report_samples_unit(all, nbuf, sizeof(nbuf));
	fprintf(out, "# Samples: %s of event '%s'\n# Event count (approx.): %llu\n#\n", nbuf, ev->name,
		(unsigned long long)all);
	size_t w[PERFEV_BKEY_NR + 1];
	bool shown[PERFEV_BKEY_NR + 1];
	for (size_t c = 0; c < b->nkeys; c++) {
		w[c] = b->keys[c] == PERFEV_BKEY_TARGET ? 0 : width(ev, b, b->keys[c]);
		shown[c] = !(b->no_comm && b->keys[c] == PERFEV_BKEY_COMM) && b->keys[c] != PERFEV_BKEY_TARGET;
	}
	fputs("# Overhead", out);
	if (b->samples)
		fprintf(out, "  %12s", "Samples");
	if (b->period)
		fprintf(out, "  %12s", "Period");
	for (size_t c = 0; c < b->nkeys; c++)
		if (shown[c])
			fprintf(out, "  %-*s", (int)w[c], headers[b->keys[c]]);
	fputs(b->ipc ? "  IPC   [IPC Coverage]\n# ........" : "\n# ........", out);
	if (b->samples)
		dots(out, 12);
	if (b->period)
		dots(out, 12);
	for (size_t c = 0; c < b->nkeys; c++)
		if (shown[c])
			dots(out, w[c]);
	if (b->ipc)
		dots(out, 20);
	fputs("\n#\n", out);
	char buf[512];
	for (size_t i = 0; i < ev->nr; i++) {
		const struct perfev_branch_row *r = &ev->rows[i];
		double pct = all ? 100.0 * (double)r->count / (double)all : 0.0;
		if ((b->limit > 0 && pct < b->limit) || !comm_shown(b, r->comm))
			continue; /* (the limit's rows count in the widths, as perf's) */
		fprintf(out, "  %7.2f%%", pct);
		if (b->samples)
			fprintf(out, "  %12llu", (unsigned long long)r->count);
		if (b->period)
			fprintf(out, "  %12llu", (unsigned long long)r->count);
		for (size_t c = 0; c < b->nkeys; c++) {
			if (!shown[c])
				continue;
			cell(r, b->keys[c], buf, sizeof(buf));
			fprintf(out, "  %-*.*s", (int)w[c], (int)w[c], buf);
		}
		/* perf's ipc_lbr of the entry's symbol, the target's: its IPC from
		 * an annotation it has not made here, 0 */
		if (b->ipc)
			fprintf(out, "  %-20s", r->to.symbol ? "0.00  [  0.0%]" : "-");
		fputc('\n', out);
	}
	fputs("\n\n", out);
}

static int print_branches(const struct perfev_branch_table *t, const struct pv_report_view *v, const struct bview *b,
			  FILE *out)
{
	pv_report_print_preamble(v, out);
	for (size_t i = 0; i < perfev_branch_table_nr_events(t); i++) {
		const struct perfev_branch_event *ev = perfev_branch_table_event(t, i);
		if (ev->nr)
			print_event(ev, b, out);
	}
	if (ferror(out))
		return pv_error(EIO, "writing the report failed: %s", strerror(errno));
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
	return pv_export_write(&j, out, "report JSON");
}

static const char *const key_names[PERFEV_BKEY_NR] = {
	[PERFEV_BKEY_COMM] = "comm", [PERFEV_BKEY_DSO_FROM] = "dso_from", [PERFEV_BKEY_DSO_TO] = "dso_to",
	[PERFEV_BKEY_SYM_FROM] = "symbol_from", [PERFEV_BKEY_SYM_TO] = "symbol_to", [PERFEV_BKEY_CYCLES] = "cycles",
};

/* perf's branch keys perfev does not sort by */
static const char *const other_branch_keys[] = {"mispredict", "in_tx", "abort", "srcline_from", "srcline_to",
						"addr_from", "addr_to"};

int pv_report_branch_keys(const char *list, enum perfev_branch_key *keys, size_t *nr)
{
	*nr = 0;
	char *copy = strdup(list), *save = NULL;
	if (!copy)
		return pv_error(ENOMEM, "out of memory");
	int ret = 0;
	for (char *k = strtok_r(copy, ",", &save); k && !ret; k = strtok_r(NULL, ",", &save)) {
		while (*k == ' ')
			k++;
		size_t i = 0;
		while (i < PERFEV_BKEY_NR && (!key_names[i] || strcmp(k, key_names[i])))
			i++;
		if (i < PERFEV_BKEY_NR) {
			if (*nr < PERFEV_BKEY_NR)
				keys[(*nr)++] = (enum perfev_branch_key)i;
			continue;
		}
		for (size_t o = 0; o < PV_ARRAY_SIZE(other_branch_keys); o++)
			if (!strcmp(k, other_branch_keys[o])) {
				ret = pv_error(EINVAL, "perfev does not sort branches by %s yet: use comm, "
					       "dso_from, dso_to, symbol_from, symbol_to and cycles", k);
			}
		if (!ret) {
			ret = pv_error(EINVAL, "'%s' with branch keys: perf's branch keys (dso_from, dso_to, "
				       "symbol_from, symbol_to, cycles) go with comm and each other only here; "
				       "sort by the targets' %s alone, or add --no-branch-stack", k, k);
		}
	}
	free(copy);
	return ret;
}

bool pv_report_names_branch_key(const char *list)
{
	for (const char *k = list; k; k = strchr(k, ',') ? strchr(k, ',') + 1 : NULL) {
		while (*k == ' ')
			k++;
		size_t len = strcspn(k, ",");
		for (size_t i = 1; i < PERFEV_BKEY_NR; i++)
			if (key_names[i] && strlen(key_names[i]) == len && !strncmp(k, key_names[i], len))
				return true;
		for (size_t o = 0; o < PV_ARRAY_SIZE(other_branch_keys); o++)
			if (strlen(other_branch_keys[o]) == len && !strncmp(k, other_branch_keys[o], len))
				return true;
	}
	return false;
}

static bool has_comm(const enum perfev_branch_key *keys, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (keys[i] == PERFEV_BKEY_COMM)
			return true;
	return false;
}

int pv_report_branch(struct perfev_perfdata *pd, const struct perfev_profile_load_opts *lo,
		     const struct pv_report_view *v0, bool samples, bool period, const char *comms, bool asked,
		     bool json, FILE *out)
{
	static const enum perfev_branch_key perf_default[] = {PERFEV_BKEY_COMM, PERFEV_BKEY_DSO_FROM,
							      PERFEV_BKEY_SYM_FROM, PERFEV_BKEY_SYM_TO,
							      PERFEV_BKEY_CYCLES};
	enum perfev_branch_key keys[PERFEV_BKEY_NR];
	size_t nkeys = 0;
	bool ipc = false;
	if (v0->branch_sort) { /* --sort of branch keys */
		if (pv_report_branch_keys(v0->branch_sort, keys, &nkeys) < 0)
			return -EINVAL;
		ipc = strstr(v0->branch_sort, "symbol") != NULL; /* perf's ipc_lbr, a key too */
		if (ipc && nkeys < PERFEV_BKEY_NR)
			keys[nkeys++] = PERFEV_BKEY_TARGET;
	} else {
		memcpy(keys, perf_default, sizeof(perf_default));
		nkeys = PV_ARRAY_SIZE(perf_default);
	}
	struct bview b = {.limit = v0->percent_limit, .samples = samples, .period = period, .comms = comms,
			  .no_comm = comms && !strchr(comms, ','), .keys = keys, .nkeys = nkeys, .ipc = ipc,
			  .relative = v0->relative};
	struct perfev_profile_load_info info = {.sz = sizeof(info)};
	struct perfev_branch_table *t = perfev_branch_table_load_keys_from(pd, lo, keys, nkeys, &info);
	if (!t)
		return -errno;
	uint64_t nsamples = 0;
	for (size_t i = 0; i < perfev_branch_table_nr_events(t); i++)
		nsamples += perfev_branch_table_event(t, i)->samples;
	int ret;
	if (!nsamples && !asked) {
		ret = -ENOENT; /* by default: the sample view says what the file holds */
	} else if (!nsamples) {
		ret = pv_error(EINVAL, "%s has no samples with branch stacks (record them with perf record -b "
			       "or -j any), so there is no branch view: drop -b", perfev_perfdata_path(pd));
	} else {
		struct pv_report_view v = *v0;
		v.lost = info.lost_samples;
		/* the preamble names an elided command ("# comm: NAME") */
		v.only_comm = b.no_comm ? comms : NULL;
		v.cols[0] = (struct pv_report_col){PV_COL_KEY, "comm"};
		v.nr_cols = has_comm(keys, nkeys); /* (only then named) */
		ret = json ? print_json(t, &b, out) : print_branches(t, &v, &b, out);
	}
	perfev_branch_table_free(t);
	return ret;
}
