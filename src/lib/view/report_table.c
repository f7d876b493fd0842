/* report_out.c — perfev report's output: perf report --stdio's table
 * (Overhead or Children/Self, then one column per sort key), call graphs in
 * perf's graph style, and the same entries as JSON. */
#define _GNU_SOURCE
#include "view/report_int.h"
#include "core/internal.h"
#include "export/export_int.h"
#include "profile/profile_int.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- the table ----------------------------------------------------------------
 * A row is an entry of any member of the section (perf matches the members'
 * entries to the leader's and adds the others as dummies); its values are
 * each member's, as percentages of that member's total. */
struct row {
	const struct perfev_profile_entry *e; /* the key's description */
	long lead;                            /* index in the leader's entries, -1: none */
	uint32_t depth;                       /* of the leader's graph */
	uint64_t thread;                      /* the leader's entry's thread; UINT64_MAX: none */
	uint64_t *self, *total;               /* per member */
	uint64_t *samples, *period;           /* per member: self's */
};

/* What makes entries of different members' profiles the same row: the
 * keyed fields by content (each profile interns its own strings). */
static uint64_t row_key(const struct perfev_profile_entry *e, unsigned keys)
{
	struct pv_buf b = PV_BUF_INIT;
	if (keys & (PERFEV_KEY_COMM | PERFEV_KEY_PID | PERFEV_KEY_TID))
		pv_buf_printf(&b, "%s", e->comm ? e->comm : "");
	pv_buf_printf(&b, "|%d|%d|%d|%d|%lld|%lld|%s|%s|%s|%u|%d%d", e->pid, e->tid, e->cpu, e->socket,
		      (long long)e->dso_size, (long long)e->sym_size, e->dso ? e->dso : "",
		      e->symbol ? e->symbol : "", e->srcfile ? e->srcfile : "", e->line,
		      e->kernel && (e->symbol || (e->dso && strcmp(e->dso, "[unknown]"))), e->inlined);
	if (keys & PERFEV_KEY_SRCFILE)
		pv_buf_printf(&b, "|%s", e->source_file ? e->source_file : "");
	if (keys & PV_REPORT_MEM_KEYS)
		pv_buf_printf(&b, "|%llx|%llx|%llx|%llx|%llx|%s|%d", (unsigned long long)e->mem.data_src,
			      (unsigned long long)e->mem.addr, (unsigned long long)e->mem.dso_addr,
			      (unsigned long long)e->mem.phys_addr, (unsigned long long)e->mem.data_page_size,
			      e->mem.dso ? e->mem.dso : "", e->mem.shared);
	if (keys & (PERFEV_KEY_WEIGHT | PERFEV_KEY_INS_LAT | PERFEV_KEY_P_STAGE_CYC | PERFEV_KEY_TIME | PERFEV_KEY_ADDR))
		pv_buf_printf(&b, "|%llu|%llu|%llu|%llu|%llx", (unsigned long long)e->weight,
			      (unsigned long long)e->ins_lat, (unsigned long long)e->p_stage_cyc,
			      (unsigned long long)e->time, (unsigned long long)e->addr);
	if (!e->symbol && (keys & PERFEV_KEY_SYM)) /* perf's entries of call chains apart */
		pv_buf_printf(&b, "|%llx", (unsigned long long)pv_report_shown_ip(e));
	else if ((keys & PERFEV_KEY_SRCLINE) && !e->srcfile) /* (keys without an address: none) */
		pv_buf_printf(&b, "|%llx", (unsigned long long)e->rel_ip);
	uint64_t h = pv_hash_bytes(b.data ? b.data : "", b.len);
	pv_buf_free(&b);
	return h;
}

struct order {
	const struct pv_report_view *v;
	size_t nm;
	bool depth; /* children ties by call depth (perf does with call graphs) */
	bool tree;  /* full ties stay in the order given (perf's output tree) */
};

/* --percentage relative over the rows left shown: each member's total
 * (all), the period and (samples non-NULL) the samples of those rows. */
/* perf's hists__filter_by_symbol (--symbol-filter: the name holds it) and,
 * with Children, its --symbols list (the callers' entries of the samples
 * kept are not shown). */
static bool symbol_row_kept(const struct pv_report_view *v, const char *sym)
{
	if (v->symbol_filter && !(sym && strstr(sym, v->symbol_filter)))
		return false;
	return !(v->children && v->symbols) || (sym && pv_list_has(v->symbols, sym));
}

static void shown_totals(const struct row *rows, size_t nr, size_t nm, uint64_t *all, uint64_t *period,
			 uint64_t *samples)
{
	*period = 0;
	if (samples)
		*samples = 0;
	for (size_t m = 0; m < nm; m++)
		all[m] = 0;
	for (size_t r = 0; r < nr; r++)
		for (size_t m = 0; m < nm; m++) {
			all[m] += rows[r].self[m];
			*period += rows[r].period[m];
			if (samples)
				*samples += rows[r].samples[m];
		}
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a > b ? -1 : a < b;
}

/* perf's order of equal values: the sort keys in the order given, names
 * ascending, unknown DSOs and symbols last. */
int pv_report_cmp_key(const struct perfev_profile_entry *a, const struct perfev_profile_entry *b, const char *key)
{
	if (!strcmp(key, "comm"))
		return strcmp(a->comm ? a->comm : "", b->comm ? b->comm : "");
	if (!strcmp(key, "tgid"))
		return (a->pid > b->pid) - (a->pid < b->pid);
	if (!strcmp(key, "pid") || !strcmp(key, "tid"))
		return (a->tid > b->tid) - (a->tid < b->tid);
	if (!strcmp(key, "cpu"))
		return (a->cpu > b->cpu) - (a->cpu < b->cpu);
	if (!strcmp(key, "socket"))
		return (a->socket > b->socket) - (a->socket < b->socket);
	if (!strcmp(key, "dso_size"))
		return (a->dso_size > b->dso_size) - (a->dso_size < b->dso_size);
	/* perf: the weights (the first sample's) descending, times and addresses ascending */
	if (!strcmp(key, "weight") || !strcmp(key, "local_weight"))
		return (a->weight < b->weight) - (a->weight > b->weight);
	if (!strcmp(key, "ins_lat") || !strcmp(key, "local_ins_lat"))
		return (a->ins_lat < b->ins_lat) - (a->ins_lat > b->ins_lat);
	if (!strcmp(key, "time"))
		return (a->time > b->time) - (a->time < b->time);
	if (!strcmp(key, "addr"))
		return ((int64_t)a->addr > (int64_t)b->addr) - ((int64_t)a->addr < (int64_t)b->addr);
	if (!strcmp(key, "mem") || !strcmp(key, "snoop") || !strcmp(key, "tlb") || !strcmp(key, "locked") ||
	    !strcmp(key, "blocked")) { /* perf: the field's bits ascending */
		union perf_mem_data_src x = {.val = a->mem.data_src}, y = {.val = b->mem.data_src};
		uint64_t fx = key[0] == 'm' ? x.mem_lvl : key[0] == 's' ? x.mem_snoop : key[0] == 't' ? x.mem_dtlb
			    : key[0] == 'l' ? x.mem_lock : x.mem_blk;
		uint64_t fy = key[0] == 'm' ? y.mem_lvl : key[0] == 's' ? y.mem_snoop : key[0] == 't' ? y.mem_dtlb
			    : key[0] == 'l' ? y.mem_lock : y.mem_blk;
		return (fx > fy) - (fx < fy);
	}
	if (!strcmp(key, "symbol_daddr"))
		return ((int64_t)a->mem.addr > (int64_t)b->mem.addr) - ((int64_t)a->mem.addr < (int64_t)b->mem.addr);
	if (!strcmp(key, "phys_daddr"))
		return (a->mem.phys_addr > b->mem.phys_addr) - (a->mem.phys_addr < b->mem.phys_addr);
	if (!strcmp(key, "data_page_size"))
		return (a->mem.data_page_size > b->mem.data_page_size) - (a->mem.data_page_size < b->mem.data_page_size);
	if (!strcmp(key, "dso_daddr")) { /* perf: unknown first, then names descending */
		if (!a->mem.dso || !b->mem.dso)
			return !b->mem.dso - !a->mem.dso;
		return -strcmp(pv_report_basename(a->mem.dso), pv_report_basename(b->mem.dso));
	}
	if (!strcmp(key, "dcacheline")) { /* perf: kernel first, mapped first, lines ascending */
		if (a->kernel != b->kernel)
			return b->kernel - a->kernel;
		if (!a->mem.dso != !b->mem.dso)
			return !a->mem.dso - !b->mem.dso;
		uint64_t x = a->mem.dso_addr & ~63ull, y = b->mem.dso_addr & ~63ull;
		return (x > y) - (x < y);
	}
	if (!strcmp(key, "symbol_size")) /* (unknown counts as 0) */
		return (PV_MAX(a->sym_size, 0) > PV_MAX(b->sym_size, 0)) - (PV_MAX(a->sym_size, 0) < PV_MAX(b->sym_size, 0));
	if (!strcmp(key, "dso")) {
		bool ua = !a->dso || !strcmp(a->dso, "[unknown]"), ub = !b->dso || !strcmp(b->dso, "[unknown]");
		if (ua || ub)
			return ua - ub;
		return strcmp(pv_report_basename(a->dso), pv_report_basename(b->dso));
	}
	if (!strcmp(key, "sym") || !strcmp(key, "symbol")) {
		if (!a->symbol || !b->symbol)
			return !a->symbol - !b->symbol;
		return strcmp(a->symbol, b->symbol);
	}
	char x[512], y[512];
	pv_report_column(a, key, x, sizeof(x));
	pv_report_column(b, key, y, sizeof(y));
	return strcmp(x, y);
}

static int cmp_row(const void *pa, const void *pb, void *arg)
{
	const struct order *o = arg;
	const struct row *a = pa, *b = pb;
	int c = 0;
	const struct pv_report_view *v = o->v;
	/* perf: --sort keys given with -F first, then the columns in order, then the keys */
	for (size_t k = 0; k < v->nr_sort_first && !c; k++)
		c = pv_report_cmp_key(a->e, b->e, v->sort_first[k]);
	/* (the --sort list's order when it named columns, else the columns') */
	const struct pv_report_col *cols = v->nr_sort_cols ? v->sort_cols : v->cols;
	size_t ncols = v->nr_sort_cols ? v->nr_sort_cols : v->nr_cols;
	for (size_t i = 0; i < ncols && !c; i++) {
		switch (cols[i].type) {
		case PV_COL_CHILDREN:
			c = cmp_u64(a->total[0], b->total[0]); /* the leader's only (perf's __hpp__sort_acc) */
			/* perf puts the caller above its callee, within one thread */
			if (!c && o->depth && a->thread == b->thread && a->thread != UINT64_MAX)
				c = v->graph == PV_GRAPH_CALLEE ? (a->depth > b->depth) - (a->depth < b->depth)
							     : (a->depth < b->depth) - (a->depth > b->depth);
			break;
		case PV_COL_SELF:
			for (size_t m = 0; m < o->nm && !c; m++)
				c = cmp_u64(a->self[m], b->self[m]);
			break;
		case PV_COL_SAMPLES:
			for (size_t m = 0; m < o->nm && !c; m++)
				c = cmp_u64(a->samples[m], b->samples[m]);
			break;
		case PV_COL_PERIOD:
			for (size_t m = 0; m < o->nm && !c; m++)
				c = cmp_u64(a->period[m], b->period[m]);
			break;
		case PV_COL_KEY:
			c = pv_report_cmp_key(a->e, b->e, cols[i].key);
			break;
		}
	}
	for (size_t k = 0; k < v->nr_keys && !c; k++)
		c = pv_report_cmp_key(a->e, b->e, v->keys[k]);
	if (!c && !o->tree) { /* perf: by address, the difference taken as signed */
		int64_t d = (int64_t)(pv_report_shown_ip(a->e) - pv_report_shown_ip(b->e));
		c = (d > 0) - (d < 0);
	}
	return c;
}

size_t pv_report_entry_width(const struct pv_report_view *v, const char *key, const struct perfev_profile_entry *e)
{
	if (!strcmp(key, "dso_daddr")) /* perf: the objects' names, 16 with one unknown */
		return e->mem.dso ? strlen(pv_report_basename(e->mem.dso)) : 16;
	if (!strcmp(key, "cpu") || !strcmp(key, "socket") || !strcmp(key, "dso_size") || !strcmp(key, "symbol_size"))
		return 0; /* perf: the header's width, whatever the values ("-001") */
	size_t fixed = pv_report_fixed_width(key);
	if (fixed) /* perf: hists__calc_col_len's width, whatever the values */
		return fixed;
	char buf[4096];
	pv_report_column(e, key, buf, sizeof(buf));
	size_t len = strlen(buf);
	/* perf sizes symbols by their names: " (inlined)" is not counted */
	if (!strcmp(key, "sym") && len > 10 && !strcmp(buf + len - 10, " (inlined)"))
		len -= 10;
	/* perf: an entry without a symbol (its first sample's, keyed by it or
	 * not) widens Shared Object to an address's 16 digits
	 * (hists__set_unres_dso_col_len) */
	if (!strcmp(key, "dso") && !e->first_symbol && !v->only_dso && len < 16)
		len = 16;
	return len;
}

/* perf's collapsed tree of entries (hists__collapse_resort), walked in
 * order: its entries by the sort keys' comparisons (comm, dso by name with
 * the unknown last, symbols before unknown ones and by address, unknown
 * ones by address); whether the keys are ones it is known for. */
static bool unknown_dso(const char *dso)
{
	return !dso || !strcmp(dso, "[unknown]");
}

static bool collapse_known(const struct pv_report_view *v)
{
	for (size_t k = 0; k < v->nr_keys; k++)
		if (strcmp(v->keys[k], "comm") && strcmp(v->keys[k], "dso") && strcmp(v->keys[k], "sym") &&
		    strcmp(v->keys[k], "symbol"))
			return false;
	return v->nr_sort_first == 0;
}

static int cmp_collapse(const void *pa, const void *pb, void *arg)
{
	const struct pv_report_view *v = arg;
	const struct perfev_profile_entry *x = ((const struct row *)pa)->e, *y = ((const struct row *)pb)->e;
	int c = 0;
	for (size_t k = 0; k < v->nr_keys && !c; k++) {
		if (!strcmp(v->keys[k], "comm")) {
			c = strcmp(x->comm ? x->comm : "", y->comm ? y->comm : "");
			continue;
		}
		/* dso, and sym (perf's sort__sym_cmp compares the objects first) */
		bool ux = unknown_dso(x->dso), uy = unknown_dso(y->dso);
		c = ux != uy ? ux - uy : ux ? 0 : strcmp(pv_report_basename(x->dso), pv_report_basename(y->dso));
		if (c || !strcmp(v->keys[k], "dso"))
			continue;
		if (!x->symbol != !y->symbol) {
			c = !x->symbol - !y->symbol;
			continue;
		}
		/* perf's _sort__addr_cmp: the difference taken as signed */
		uint64_t ax = x->symbol ? x->rel_ip : pv_report_shown_ip(x), ay = y->symbol ? y->rel_ip : pv_report_shown_ip(y);
		int64_t d = (int64_t)(ax - ay);
		c = (d > 0) - (d < 0);
	}
	return c;
}

/* perf's colour of a percentage (get_percent_color: red from 5%, green
 * above 0.5%; the padding inside the colour), "" for none */
static const char *pct_color(double pct, bool color)
{
	return !color ? "" : pct >= 5.0 || pct <= -5.0 ? "\033[31m" : pct > 0.5 || pct < -0.5 ? "\033[32m" : "";
}

/* perf 6.1 names an entry's source line (hist_entry__srcline) when it
 * first compares it by srcline, and sizes the column (hists__calc_col_len)
 * as it puts each entry in its output tree: an entry named after that is
 * cut to the column ("%-.*s"). It compares by srcline
 * - as it files samples (sort__srcline_cmp), two entries equal in every key
 *   before srcline, and an entry with each further sample (with children: a
 *   sample's own entry twice, a call-chain frame once per sample);
 * - as it sorts the output (hist_entry__sort), entries of equal overhead and
 *   equal keys before srcline as sorting compares them (symbols and objects
 *   by name): each one but the first put in, which is named only after its
 *   width was taken.
 * The hash of entry e's keys before srcline, as filing (as_sorted false) or
 * sorting compares them: */
static uint64_t srcline_prefix(const struct pv_report_view *v, const struct perfev_profile_entry *e, bool as_sorted)
{
	struct pv_buf b = PV_BUF_INIT;
	char buf[4096];
	for (size_t k = 0; k < v->nr_keys && strcmp(v->keys[k], "srcline"); k++) {
		if (as_sorted && !strcmp(v->keys[k], "sym"))
			snprintf(buf, sizeof(buf), "%s", e->symbol ? e->symbol : "");
		else if (as_sorted && !strcmp(v->keys[k], "dso"))
			snprintf(buf, sizeof(buf), "%s", e->dso ? pv_report_basename(e->dso) : "");
		else
			pv_report_column(e, v->keys[k], buf, sizeof(buf));
		pv_buf_printf(&b, "%s\x1f", buf);
	}
	if (as_sorted)
		pv_buf_printf(&b, "%llu", (unsigned long long)e->self[PERFEV_VALUE_PERIOD]);
	uint64_t h = pv_hash_bytes(b.data ? b.data : "", b.len);
	pv_buf_free(&b);
	return h;
}

struct srcline_row {
	uint64_t filed, sorted; /* srcline_prefix's hashes */
	const struct perfev_profile_entry *e;
};

static int cmp_filed(const void *a, const void *b)
{
	return cmp_u64(((const struct srcline_row *)a)->filed, ((const struct srcline_row *)b)->filed);
}

/* by sorting's ties, each tie in perf's filing order: the keys before
 * srcline (cmp_collapse, the view's keys cut there), then srcline descending */
static int cmp_sorted(const void *pa, const void *pb, void *arg)
{
	const struct srcline_row *a = pa, *b = pb;
	int c = cmp_u64(a->sorted, b->sorted);
	struct row ra = {.e = a->e}, rb = {.e = b->e};
	if (!c)
		c = cmp_collapse(&ra, &rb, arg);
	if (!c) {
		char la[4096], lb[4096];
		pv_report_column(a->e, "srcline", la, sizeof(la));
		pv_report_column(b->e, "srcline", lb, sizeof(lb));
		c = strcmp(lb, la);
	}
	return c;
}

/* The Source:Line column's width over the rows perf names before it sizes
 * the column (all of them when out of memory). */
static size_t srcline_width(const struct pv_report_view *v, const struct row *rows, size_t nr, size_t width)
{
	struct srcline_row *sr = malloc((nr ? nr : 1) * sizeof(*sr));
	bool *named = calloc(nr ? nr : 1, sizeof(*named));
	struct pv_report_view before = *v; /* the keys before srcline */
	for (before.nr_keys = 0; before.nr_keys < v->nr_keys && strcmp(v->keys[before.nr_keys], "srcline");)
		before.nr_keys++;
	for (size_t r = 0; sr && named && r < nr; r++) {
		const struct perfev_profile_entry *e = rows[r].e;
		sr[r] = (struct srcline_row){srcline_prefix(v, e, false), srcline_prefix(v, e, true), e};
		uint64_t self = e->self[PERFEV_VALUE_SAMPLES], total = e->total[PERFEV_VALUE_SAMPLES];
		named[r] = self > 1 || (v->children && (self || total > 1));
	}
	if (sr && named) {
		qsort(sr, nr, sizeof(*sr), cmp_filed);
		for (size_t r = 0; r < nr; r++) /* filed beside another: named at once */
			if ((r > 0 && sr[r - 1].filed == sr[r].filed) || (r + 1 < nr && sr[r + 1].filed == sr[r].filed))
				width = PV_MAX(width, pv_report_entry_width(v, "srcline", sr[r].e));
		qsort_r(sr, nr, sizeof(*sr), cmp_sorted, &before);
		for (size_t r = 1; r < nr; r++) /* sorted against one put in before it */
			if (sr[r - 1].sorted == sr[r].sorted)
				width = PV_MAX(width, pv_report_entry_width(v, "srcline", sr[r].e));
	}
	for (size_t r = 0; r < nr; r++)
		if (!sr || !named || named[r])
			width = PV_MAX(width, pv_report_entry_width(v, "srcline", rows[r].e));
	free(sr);
	free(named);
	return width;
}

/* perf sizes the Command column by the length of each entry's thread's
 * name as it is at the end (thread__comm_len), so a name the thread had
 * before exec ("perf-exec") is cut to it. Here: each thread's name at the
 * end of the file as the loader saw it (else the last group of its tid),
 * over the section's profiles. */
static size_t comm_width(const struct pv_report_section *s, const char *first_comms)
{
	size_t w = 0;
	for (size_t m = 0; m < s->nr; m++) {
		const struct perfev_profile *p = s->p[m];
		struct perfev_profile_node root, g;
		struct pv_keymap last = {0}; /* thread -> its last name's length + 1 */
		if (perfev_profile_node(p, 0, &root) < 0)
			continue;
		for (uint32_t id = root.first_child; id; id = g.next_sibling) {
			if (perfev_profile_node(p, id, &g) < 0)
				break;
			if (first_comms && !pv_list_has(first_comms, g.comm ? g.comm : "[unknown]"))
				continue; /* (its entries hidden) */
			size_t len = g.comm ? strlen(g.comm) : strlen("[unknown]");
			const struct pv_group *pg = &p->groups[p->nodes[id].what & ~PV_NODE_GROUP_BIT];
			if (pg->thread_comm) /* the loader knew the thread's last name */
				len = strlen(pv_strtab_get(&p->strs, pg->thread_comm));
			uint64_t key = (uint64_t)(uint32_t)g.pid << 32 | (uint32_t)g.tid;
			if (g.tid < 0 || pv_keymap_put(&last, key, (uint32_t)len + 1) < 0)
				w = len > w ? len : w; /* not by thread: every name counts */
		}
		for (size_t i = 0; i < last.cap; i++)
			if (last.vals[i] && last.vals[i] - 1 > w)
				w = last.vals[i] - 1;
		pv_keymap_free(&last);
	}
	return w;
}

void pv_report_display_hint(const struct pv_report_view *v, FILE *out)
{
	if (!v->no_hint)
		fputs("# To display the perf.data header info, please use --header/--header-only options.\n#\n", out);
}

void pv_report_print_preamble(const struct pv_report_view *v, FILE *out)
{
	pv_report_display_hint(v, out);
	static const char *const names[] = {"comm", "dso", "symbol"};
	for (size_t c = 0; c < v->nr_cols; c++) {
		const char *x = v->cols[c].type == PV_COL_KEY ? pv_report_elided(v, v->cols[c].key) : NULL;
		if (x)
			fprintf(out, "# %s: %s\n", names[!strcmp(v->cols[c].key, "dso") ? 1 :
							  !strcmp(v->cols[c].key, "sym") ? 2 : 0], x);
	}
	fprintf(out, "#\n# Total Lost Samples: %llu\n#\n", (unsigned long long)v->lost);
}

/* The rows of the browser's zoom (v->zoom_*), kept in order; how many. */
static size_t zoomed(struct row *rows, size_t nr, const struct pv_report_view *v)
{
	size_t keep = 0;
	for (size_t r = 0; r < nr; r++) {
		const struct perfev_profile_entry *x = rows[r].e;
		const char *comm = x->comm ? x->comm : x->first_comm;
		if ((!v->zoom_dso || (x->dso && !strcmp(x->dso, v->zoom_dso))) &&
		    (!v->zoom_comm || (comm && !strcmp(comm, v->zoom_comm))) &&
		    (v->zoom_tid < 0 || x->tid == v->zoom_tid))
			rows[keep++] = rows[r];
	}
	return keep;
}

/* A row's value column, each member's value: perf's "%*.2f%%" and
 * "%*"PRIu64 at the column's width, or under -t (sep) at width 1. */
static void value_cell(const struct row *w, int type, size_t nm, const uint64_t *all, bool sep, bool color,
		       char *buf, size_t len)
{
	size_t n = 0;
	buf[0] = 0;
	for (size_t m = 0; m < nm && n < len; m++) {
		if (type == PV_COL_CHILDREN || type == PV_COL_SELF) {
			double pct = pv_report_pct(type == PV_COL_SELF ? w->self[m] : w->total[m], all[m]);
			const char *c = pct_color(pct, color && !sep);
			n += (size_t)snprintf(buf + n, len - n, sep ? "%s %.2f%%%s" : "%s%7.2f%%%s", c, pct, *c ? "\033[m" : "");
		} else
			n += (size_t)snprintf(buf + n, len - n, sep ? " %llu" : "%12llu",
					      (unsigned long long)(type == PV_COL_SAMPLES ? w->samples[m] : w->period[m]));
	}
}

int pv_report_print_stdio(const struct pv_report_section *s, const struct pv_report_view *v, FILE *out)
{
	size_t nm = s->nr;
	struct perfev_profile_entry *e[PV_REPORT_MAX_MEMBERS] = {0};
	size_t ne[PV_REPORT_MAX_MEMBERS] = {0};
	struct row *rows = NULL;
	uint64_t *vals = NULL;
	size_t nr = 0, cap = 0;
	struct pv_keymap kmap = {0};
	int ret = 0;
	uint64_t all[PV_REPORT_MAX_MEMBERS], period = 0, samples = s->samples;
	/* perf --mem-mode: the samples' weights ("cost") are their periods */
	enum perfev_profile_value pv = v->mem_mode ? PERFEV_VALUE_WEIGHT : PERFEV_VALUE_PERIOD;
	for (size_t m = 0; m < nm; m++) {
		/* all entries: perf sizes the columns before --percent-limit hides rows */
		if (perfev_profile_flat(s->p[m], v->key_mask | PERFEV_KEY_SPLIT_UNRESOLVED, v->value, v->children, 0,
					&e[m], &ne[m]) < 0) {
			ret = -errno;
			goto out;
		}
		/* perf counts filtered samples in its totals (not --time's), unless
		 * --percentage relative */
		bool abs_ = !v->relative;
		all[m] = perfev_profile_total(s->p[m], v->value) + abs_ * perfev_profile_hidden(s->p[m], v->value);
		period += perfev_profile_total(s->p[m], pv) + abs_ * perfev_profile_hidden(s->p[m], pv);
		if (v->relative)
			samples -= PV_MIN(samples, perfev_profile_filtered(s->p[m]));
	}
	/* perf's call-graph percentages stay of every sample with --percentage relative */
	uint64_t shown0 = nm ? all[0] + (v->relative ? perfev_profile_hidden(s->p[0], v->value) : 0) : 0;
	for (size_t m = 0; m < nm; m++) {
		for (size_t i = 0; i < ne[m]; i++) {
			uint64_t k = row_key(&e[m][i], v->key_mask);
			uint32_t at = m ? pv_keymap_get(&kmap, k) : 0;
			if (!at) {
				if (pv_grow(&rows, &cap, nr + 1, sizeof(*rows)) < 0)
					goto oom;
				rows[nr] = (struct row){.e = &e[m][i], .lead = m ? -1 : (long)i};
				if (nm > 1 && pv_keymap_put(&kmap, k, (uint32_t)nr + 1) < 0)
					goto oom;
				at = (uint32_t)++nr;
			}
		}
	}
	vals = calloc(nr ? nr * nm * 4 : 1, sizeof(*vals));
	if (!vals)
		goto oom;
	for (size_t r = 0; r < nr; r++) {
		rows[r].self = vals + r * nm * 4;
		rows[r].total = rows[r].self + nm;
		rows[r].samples = rows[r].total + nm;
		rows[r].period = rows[r].samples + nm;
	}
	for (size_t m = 0; m < nm; m++)
		for (size_t i = 0; i < ne[m]; i++) {
			uint32_t at = nm > 1 ? pv_keymap_get(&kmap, row_key(&e[m][i], v->key_mask))
					     : (uint32_t)i + 1;
			if (!at)
				continue;
			rows[at - 1].self[m] = e[m][i].self[v->value];
			rows[at - 1].total[m] = e[m][i].total[v->value];
			rows[at - 1].samples[m] = e[m][i].self[PERFEV_VALUE_SAMPLES];
			rows[at - 1].period[m] = e[m][i].self[pv];
		}
	if (v->first_comms) { /* perf hides its entries by their first sample's thread */
		size_t keep = 0;
		for (size_t r = 0; r < nr; r++)
			if (pv_list_has(v->first_comms, rows[r].e->first_comm ? rows[r].e->first_comm
										: "[unknown]"))
				rows[keep++] = rows[r];
		nr = keep;
		if (v->relative) /* perf: of the entries shown, their branches whole */
			shown_totals(rows, nr, nm, all, &period, &samples);
	}
	if (v->symbol_filter || (v->children && v->symbols)) {
		size_t keep = 0;
		for (size_t r = 0; r < nr; r++)
			if (symbol_row_kept(v, rows[r].e->symbol))
				rows[keep++] = rows[r];
		nr = keep;
		if (v->relative && v->symbol_filter) /* of the rows shown; the Samples line stays */
			shown_totals(rows, nr, nm, all, &period, NULL);
	}
	if (v->zoom_dso || v->zoom_comm || v->zoom_tid >= 0) { /* the browser's zoom (hists__filter_by_dso/thread) */
		nr = zoomed(rows, nr, v);
		if (v->relative)
			shown_totals(rows, nr, nm, all, &period, NULL);
	}
	struct pv_report_graphs *graphs = v->graph != PV_GRAPH_NONE ? pv_report_graphs_build(s->p[0], v, e[0], ne[0]) : NULL;
	for (size_t r = 0; r < nr; r++) {
		rows[r].depth = rows[r].lead >= 0 ? pv_report_graphs_depth(graphs, (size_t)rows[r].lead) : 0;
		rows[r].thread = rows[r].lead >= 0 ? pv_report_graphs_thread(graphs, (size_t)rows[r].lead) : UINT64_MAX;
	}
	struct order ord = {v, nm, graphs != NULL, false};
	if (nr > 1 && ord.depth && v->children && collapse_known(v)) {
		/* the depth rule holds within a thread only: not a total order, so
		 * perf's order is its output tree's, filled in collapsed order */
		qsort_r(rows, nr, sizeof(*rows), cmp_collapse, (void *)v);
		ord.tree = true;
		if (pv_report_rbtree_order(rows, nr, sizeof(*rows), cmp_row, &ord) < 0)
			goto oom;
	} else if (nr > 1) {
		qsort_r(rows, nr, sizeof(*rows), cmp_row, &ord);
	}

	char sbuf[32];
	pv_report_samples_unit(samples, sbuf, sizeof(sbuf));
	fprintf(out, "# Samples: %s of %s", sbuf, s->title);
	if (v->time_slices)
		fprintf(out, " (time slices: %s)", v->time_slices);
	if (v->mem_mode)
		fprintf(out, "\n# Total weight : %llu\n# Sort order   : %s\n#\n", (unsigned long long)period,
			v->sort_order ? v->sort_order : PERFEV_REPORT_MEM_SORT);
	else
		fprintf(out, "\n# Event count (approx.): %llu\n#\n", (unsigned long long)period);
	/* column widths: the header or the widest value */
	size_t width[PV_REPORT_MAX_KEYS + 4];
	char buf[4096];
	for (size_t c = 0; c < v->nr_cols; c++) {
		const struct pv_report_col *col = &v->cols[c];
		if (col->type != PV_COL_KEY) {
			width[c] = (col->type == PV_COL_SAMPLES || col->type == PV_COL_PERIOD ? 12 : 8) * nm;
			continue;
		}
		width[c] = strlen(pv_report_header_of(col->key));
		if (!strcmp(col->key, "comm")) { /* perf: the threads' last names, see comm_width */
			/* (of the rows shown: none left by --symbol-filter, none) */
			size_t cw = nr ? comm_width(s, v->first_comms) : 0;
			width[c] = cw > width[c] ? cw : width[c];
			continue;
		}
		if (!strcmp(col->key, "srcline")) {
			width[c] = srcline_width(v, rows, nr, width[c]);
			continue;
		}
		for (size_t r = 0; r < nr; r++)
			width[c] = PV_MAX(width[c], pv_report_entry_width(v, col->key, rows[r].e));
	}
	static const char *const value_names[] = {"Children", "Self", "Samples", "Period"};
	struct pv_buf h = PV_BUF_INIT, d = PV_BUF_INIT;
	pv_buf_puts(&h, "# ");
	pv_buf_puts(&d, "# ");
	size_t last = 0;
	for (size_t c = 0; c < v->nr_cols; c++)
		if (!pv_report_col_hidden(v, c))
			last = c;
	bool first = true;
	const char *sep = v->field_sep;
	size_t first_col = 0;
	while (first_col < v->nr_cols && pv_report_col_hidden(v, first_col))
		first_col++;
	for (size_t c = 0; c < v->nr_cols; c++) {
		const struct pv_report_col *col = &v->cols[c];
		if (pv_report_col_hidden(v, c))
			continue;
		if (!first) {
			pv_buf_puts(&h, sep ? sep : "  ");
			pv_buf_puts(&d, "  ");
		}
		first = false;
		if (col->type == PV_COL_KEY)
			pv_buf_printf(&h, "%-*s", (int)width[c], pv_report_header_of(col->key));
		else /* perf: "Overhead" without a Children column */
			pv_buf_printf(&h, "%*s", (int)width[c],
				      col->type == PV_COL_SELF ? v->self_header : value_names[col->type]);
		for (size_t i = 0; i < width[c]; i++)
			pv_buf_putc(&d, '.');
	}
	if (sep) /* perf: no dots line, no "#" line */
		fprintf(out, "%s\n", h.data);
	else
		fprintf(out, "%s\n%s\n#\n", h.data, d.data);
	pv_buf_free(&h);
	pv_buf_free(&d);
	for (size_t r = 0; r < nr; r++) {
		const struct row *w = &rows[r];
		uint64_t ew = v->children ? w->total[0] : w->self[0];
		if (v->percent_limit > 0 && pv_report_pct(ew, all[0]) < v->percent_limit)
			continue; /* by the leader's value, as perf */
		if (v->on_row)
			v->on_row(v->row_ctx, w->e, out);
		for (size_t c = 0; c < v->nr_cols; c++) {
			const struct pv_report_col *col = &v->cols[c];
			if (pv_report_col_hidden(v, c))
				continue;
			if (!sep || c != first_col)
				fputs(sep ? sep : "  ", out);
			if (col->type != PV_COL_KEY) {
				value_cell(w, col->type, nm, all, sep != NULL, v->color, buf, sizeof(buf));
				/* perf pads every column but the last to its width (-t's values too) */
				fprintf(out, "%-*s", c == last ? 0 : (int)width[c], buf);
				continue;
			}
			pv_report_column(w->e, col->key, buf, sizeof(buf));
			for (char *s = sep ? strchr(buf, *sep) : NULL; s; s = strchr(s, *sep))
				*s = '.'; /* perf's repsep_snprintf */
			if ((!strcmp(col->key, "comm") || !strcmp(col->key, "srcline")) && strlen(buf) > width[c])
				buf[width[c]] = 0; /* perf: "%-*.*s", "%-.*s", cut to the column */
			/* perf pads every column but a last symbol or srcline */
			/* (the time: "%-.*s" cuts it to the column, pads nothing) */
			if (c == last && pv_report_unpadded(col->key))
				fputs(buf, out);
			else
				fprintf(out, "%-*s", (int)width[c], buf);
		}
		fputc('\n', out);
		/* perf: no graph under the threshold (fractal's is of the parent) */
		if (graphs && w->lead >= 0 && (v->graph_mode == PV_GRAPH_FRACTAL || pv_report_pct(ew, all[0]) >= v->graph_min))
			pv_report_graphs_print(out, graphs, (size_t)w->lead, ew, all[0], shown0, v->graph_min,
					    v->graph_skip_first, v->graph_mode, v->graph_value);
	}
	fprintf(out, "\n\n");
	pv_report_graphs_free(graphs);
	if (ferror(out))
		ret = pv_error(EIO, "writing the report failed: %s", strerror(errno));
	goto out;
oom:
	ret = pv_error(ENOMEM, "out of memory building the table");
out:
	for (size_t m = 0; m < nm; m++)
		free(e[m]);
	free(rows);
	free(vals);
	pv_keymap_free(&kmap);
	return ret;
}

