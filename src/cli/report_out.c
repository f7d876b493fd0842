/* report_out.c — perfev report's output: perf report --stdio's table
 * (Overhead or Children/Self, then one column per sort key), call graphs in
 * perf's graph style, and the same entries as JSON. */
#define _GNU_SOURCE
#include "report.h"
#include "cli.h"
#include "internal.h"
#include "export_int.h"
#include "profile_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name, *header;
	unsigned mask;
} sort_keys[] = {
	{"comm", "Command", PERFEV_KEY_COMM},
	{"pid", "Pid:Command", PERFEV_KEY_PID},
	{"tid", "Pid:Command", PERFEV_KEY_TID},
	{"dso", "Shared Object", PERFEV_KEY_DSO},
	{"sym", "Symbol", PERFEV_KEY_SYM},
	{"symbol", "Symbol", PERFEV_KEY_SYM},
	{"srcline", "Source:Line", PERFEV_KEY_SRCLINE},
};

int report_parse_sort(struct report_view *v, const char *list)
{
	v->nr_keys = 0;
	v->key_mask = 0;
	char *copy = strdup(list), *save = NULL;
	for (char *k = strtok_r(copy, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
		while (*k == ' ')
			k++;
		size_t i;
		for (i = 0; i < PV_ARRAY_SIZE(sort_keys); i++)
			if (strcmp(k, sort_keys[i].name) == 0)
				break;
		if (i == PV_ARRAY_SIZE(sort_keys)) {
			cli_error("report", "unknown sort key '%s': use comm, pid, tid, dso, sym, srcline "
				  "(e.g. --sort comm,dso,sym)", k);
			free(copy);
			return -EINVAL;
		}
		if (v->key_mask & sort_keys[i].mask)
			continue;
		if (v->nr_keys == REPORT_MAX_KEYS)
			break;
		v->keys[v->nr_keys++] = sort_keys[i].name;
		v->key_mask |= sort_keys[i].mask;
	}
	free(copy);
	if (!v->nr_keys) {
		cli_error("report", "empty --sort list: give keys, e.g. --sort sym");
		return -EINVAL;
	}
	return 0;
}

static const char *header_of(const char *key)
{
	for (size_t i = 0; i < PV_ARRAY_SIZE(sort_keys); i++)
		if (strcmp(key, sort_keys[i].name) == 0)
			return sort_keys[i].header;
	return key;
}

static const char *base(const char *path)
{
	if (!path)
		return "[unknown]";
	const char *s = strrchr(path, '/');
	return s && s[1] ? s + 1 : path;
}

/* The text of one column of an entry. */
static void column(const struct perfev_profile_entry *e, const char *key, char *buf, size_t len)
{
	if (!strcmp(key, "comm"))
		snprintf(buf, len, "%s", e->comm ? e->comm : "[unknown]");
	else if (!strcmp(key, "pid"))
		snprintf(buf, len, "%7d:%s", e->pid, e->comm ? e->comm : "[unknown]");
	else if (!strcmp(key, "tid"))
		snprintf(buf, len, "%7d:%s", e->tid, e->comm ? e->comm : "[unknown]");
	else if (!strcmp(key, "dso"))
		snprintf(buf, len, "%s", base(e->dso));
	else if (!strcmp(key, "sym") || !strcmp(key, "symbol")) {
		if (e->symbol)
			snprintf(buf, len, "[%c] %s%s", e->kernel ? 'k' : '.', e->symbol,
				 e->inlined ? " (inlined)" : "");
		else
			snprintf(buf, len, "[%c] %#.16llx", e->kernel ? 'k' : '.',
				 (unsigned long long)(e->kernel ? e->ip : e->rel_ip));
	} else if (!strcmp(key, "srcline")) {
		if (e->srcfile)
			snprintf(buf, len, "%s:%u", base(e->srcfile), e->line);
		else
			snprintf(buf, len, "%s[%llx]", base(e->dso), (unsigned long long)e->rel_ip);
	} else
		snprintf(buf, len, "?");
}

static void samples_unit(uint64_t n, char *buf, size_t len)
{
	/* perf: "Samples: 6K" */
	if (n >= 1000000)
		snprintf(buf, len, "%lluM", (unsigned long long)(n / 1000000));
	else if (n >= 1000)
		snprintf(buf, len, "%lluK", (unsigned long long)(n / 1000));
	else
		snprintf(buf, len, "%llu", (unsigned long long)n);
}

static double pct(uint64_t v, uint64_t all)
{
	return all ? 100.0 * (double)v / (double)all : 0.0;
}

/* ---- call graphs ------------------------------------------------------------
 * perf's graph: for each sample (a leaf node d with self samples), each
 * entry E on its stack gets a path, innermost occurrence a of E only:
 *   caller order: root..d when a == d (the entry's own samples), a..d else
 *   callee order: a..root
 * (without --children only E(d) itself). Paths merge into one trie per entry
 * and print as perf --stdio does. */
struct tnode {
	const char *name;
	uint64_t w;
	uint32_t first, next;
};
struct trie {
	struct tnode *n;
	size_t nr, cap;
};

static uint32_t trie_child(struct trie *t, uint32_t parent, const char *name)
{
	for (uint32_t c = t->n[parent].first; c; c = t->n[c].next)
		if (t->n[c].name == name || strcmp(t->n[c].name, name) == 0)
			return c;
	if (pv_grow(&t->n, &t->cap, t->nr + 1, sizeof(*t->n)) < 0)
		return 0;
	uint32_t id = (uint32_t)t->nr++;
	t->n[id] = (struct tnode){name, 0, 0, 0};
	/* keep insertion order: append */
	uint32_t *at = &t->n[parent].first;
	while (*at)
		at = &t->n[*at].next;
	*at = id;
	return id;
}

static int by_weight(const void *a, const void *b, void *arg)
{
	const struct trie *t = arg;
	uint64_t x = t->n[*(const uint32_t *)a].w, y = t->n[*(const uint32_t *)b].w;
	return x > y ? -1 : x < y;
}

static void emit(FILE *out, struct trie *t, uint32_t at, struct pv_buf *prefix, uint64_t all,
		 double min_pct)
{
	/* a linear chain prints in one column: iterate, do not recurse */
	for (;;) {
		uint32_t only = 0;
		size_t shown = 0;
		for (uint32_t c = t->n[at].first; c; c = t->n[c].next)
			if (pct(t->n[c].w, all) >= min_pct)
				shown++, only = c;
		if (shown != 1 || t->n[only].w != t->n[at].w)
			break;
		fprintf(out, "%s%s\n", prefix->data, t->n[only].name);
		at = only;
	}
	size_t nk = 0;
	for (uint32_t c = t->n[at].first; c; c = t->n[c].next)
		nk += pct(t->n[c].w, all) >= min_pct;
	if (!nk)
		return;
	uint32_t *kids = malloc(nk * sizeof(*kids));
	if (!kids)
		return;
	nk = 0;
	for (uint32_t c = t->n[at].first; c; c = t->n[c].next)
		if (pct(t->n[c].w, all) >= min_pct)
			kids[nk++] = c;
	qsort_r(kids, nk, sizeof(*kids), by_weight, t);
	size_t keep = prefix->len;
	for (size_t i = 0; i < nk; i++) {
		bool last = i == nk - 1;
		fprintf(out, "%s|          \n", prefix->data);
		fprintf(out, "%s%s--%.2f%%--%s\n", prefix->data, last ? " " : "|",
			pct(t->n[kids[i]].w, all), t->n[kids[i]].name);
		pv_buf_puts(prefix, last ? "           " : "|          ");
		emit(out, t, kids[i], prefix, all, min_pct);
		prefix->len = keep;
		prefix->data[keep] = 0;
	}
	free(kids);
}

static void print_trie(FILE *out, struct trie *t, uint64_t entry_w, uint64_t all, double min_pct)
{
	uint32_t root = t->n[0].first;
	struct pv_buf prefix = PV_BUF_INIT;
	if (root && !t->n[root].next && t->n[root].w == entry_w) {
		fprintf(out, "            |\n            ---%s\n", t->n[root].name);
		pv_buf_puts(&prefix, "               ");
		emit(out, t, root, &prefix, all, min_pct);
	} else if (root) {
		pv_buf_puts(&prefix, "            ");
		t->n[0].w = entry_w;
		emit(out, t, 0, &prefix, all, min_pct);
	}
	pv_buf_free(&prefix);
	fputc('\n', out);
}

/* What identifies the entry of a frame node, as one hash (see node_is). */
static uint64_t node_key(const struct perfev_profile_node *n, const struct perfev_profile_node *g,
			 unsigned keys)
{
	struct {
		const void *sym, *dso, *comm, *file;
		uint64_t ip;
		int32_t pid, tid;
		uint32_t line, flags;
	} k;
	memset(&k, 0, sizeof(k));
	const struct perfev_profile_frame *f = &n->frame;
	if (keys & (PERFEV_KEY_SYM | PERFEV_KEY_DSO))
		k.dso = f->dso;
	if (keys & PERFEV_KEY_SYM) {
		k.sym = f->symbol;
		k.flags = f->inlined | f->kernel << 1;
		if (!f->symbol)
			k.ip = f->ip;
	}
	if (keys & PERFEV_KEY_SRCLINE) {
		k.file = f->srcfile;
		k.line = f->line;
		if (!f->srcfile && !(keys & PERFEV_KEY_SYM))
			k.ip = f->ip;
	}
	if (keys & PERFEV_KEY_COMM)
		k.comm = g->comm;
	if (keys & PERFEV_KEY_PID)
		k.pid = g->pid;
	if (keys & PERFEV_KEY_TID)
		k.tid = g->tid;
	return pv_hash_bytes(&k, sizeof(k));
}

static uint64_t entry_key(const struct perfev_profile_entry *e, unsigned keys)
{
	struct perfev_profile_node n, g;
	memset(&n, 0, sizeof(n));
	memset(&g, 0, sizeof(g));
	n.frame.symbol = e->symbol;
	n.frame.dso = e->dso;
	n.frame.inlined = e->inlined;
	n.frame.kernel = e->kernel;
	n.frame.ip = e->ip;
	n.frame.srcfile = e->srcfile;
	n.frame.line = e->line;
	g.comm = e->comm;
	g.pid = e->pid;
	g.tid = e->tid;
	return node_key(&n, &g, keys);
}

static const char *frame_label(const struct perfev_profile_frame *f, struct pv_strtab *labels)
{
	char buf[64];
	if (f->symbol && !f->inlined)
		return f->symbol;
	if (f->symbol)
		snprintf(buf, sizeof(buf), "%.40s (inlined)", f->symbol);
	else
		snprintf(buf, sizeof(buf), "0x%llx", (unsigned long long)(f->kernel ? f->ip : f->rel_ip));
	if (f->symbol && strlen(f->symbol) > 40) {
		char *long_name;
		if (asprintf(&long_name, "%s (inlined)", f->symbol) < 0)
			return f->symbol;
		const char *r = pv_strtab_get(labels, pv_strtab_intern(labels, long_name));
		free(long_name);
		return r ? r : f->symbol;
	}
	const char *r = pv_strtab_get(labels, pv_strtab_intern(labels, buf));
	return r ? r : "[unknown]";
}

/* Tries for entries e[0..nr), built in one pass over the samples' leaves. */
static struct trie *build_graphs(const struct perfev_profile *p, const struct report_view *v,
				 const struct perfev_profile_entry *e, size_t nr, struct pv_strtab *labels)
{
	struct trie *tries = calloc(nr ? nr : 1, sizeof(*tries));
	struct pv_keymap emap = {0};
	size_t nn = perfev_profile_nr_nodes(p);
	uint32_t *group_of = calloc(nn, sizeof(*group_of));
	long *ent = malloc(nn * sizeof(*ent));
	const char **label = calloc(nn, sizeof(*label));
	uint32_t *path = NULL;
	uint8_t *seen = calloc(nr + 1, 1);
	size_t pcap = 0;
	if (!tries || !group_of || !ent || !label || !seen)
		goto out;
	for (size_t i = 0; i < nr; i++) {
		if (pv_grow(&tries[i].n, &tries[i].cap, 16, sizeof(*tries[i].n)) < 0)
			goto out;
		tries[i].nr = 1;
		tries[i].n[0] = (struct tnode){"", 0, 0, 0};
		pv_keymap_put(&emap, entry_key(&e[i], v->key_mask), (uint32_t)i + 1);
	}
	/* every node's entry (or -1: not printed) and label */
	for (uint32_t id = 1; id < nn; id++) {
		struct perfev_profile_node n, g;
		perfev_profile_node(p, id, &n);
		ent[id] = -1;
		if (n.kind == PERFEV_NODE_GROUP) {
			group_of[id] = id;
			continue;
		}
		group_of[id] = group_of[n.parent];
		perfev_profile_node(p, group_of[id], &g);
		ent[id] = (long)pv_keymap_get(&emap, node_key(&n, &g, v->key_mask)) - 1;
		label[id] = frame_label(&n.frame, labels);
	}
	for (uint32_t d = 1; d < nn; d++) {
		struct perfev_profile_node n;
		perfev_profile_node(p, d, &n);
		uint64_t w = n.self[v->value];
		if (n.kind != PERFEV_NODE_FRAME || !w)
			continue;
		size_t np = 0; /* path[0] = d ... path[np-1] = outermost frame */
		for (uint32_t at = d; at && at != group_of[d]; ) {
			if (pv_grow(&path, &pcap, np + 1, sizeof(*path)) < 0)
				goto out;
			path[np++] = at;
			struct perfev_profile_node x;
			perfev_profile_node(p, at, &x);
			at = x.parent;
		}
		for (size_t i = 0; i < np; i++) {
			long en = ent[path[i]];
			if (en < 0 || seen[en] || (!v->children && i > 0))
				continue;
			seen[en] = 1; /* innermost occurrence only */
			struct trie *t = &tries[en];
			uint32_t at = 0;
			t->n[0].w += w;
			if (v->graph == GRAPH_CALLEE) {
				for (size_t k = i; k < np && at != UINT32_MAX; k++)
					if (!(at = trie_child(t, at, label[path[k]])))
						goto out;
					else
						t->n[at].w += w;
			} else {
				size_t from = i == 0 ? np - 1 : i; /* own samples: the whole chain */
				for (size_t k = from + 1; k-- > 0;)
					if (!(at = trie_child(t, at, label[path[k]])))
						goto out;
					else
						t->n[at].w += w;
			}
		}
		for (size_t i = 0; i < np; i++)
			if (ent[path[i]] >= 0)
				seen[ent[path[i]]] = 0;
	}
out:
	pv_keymap_free(&emap);
	free(group_of);
	free(ent);
	free(label);
	free(path);
	free(seen);
	return tries;
}

/* ---- the table ---------------------------------------------------------------- */
int report_print_stdio(const struct perfev_profile *p, const struct report_view *v, FILE *out)
{
	struct perfev_profile_entry *e;
	size_t nr;
	if (perfev_profile_flat(p, v->key_mask, v->value, v->children, v->percent_limit, &e, &nr) < 0)
		return cli_error("report", "%s", perfev_errmsg());
	char sbuf[32];
	samples_unit(v->nr_samples, sbuf, sizeof(sbuf));
	fprintf(out, "# To display the perf.data header info, please use --header/--header-only options.\n"
		     "#\n#\n# Total Lost Samples: %llu\n#\n# Samples: %s of event '%s'\n"
		     "# Event count (approx.): %llu\n#\n",
		(unsigned long long)v->lost, sbuf, v->event_name ? v->event_name : "unknown",
		(unsigned long long)perfev_profile_total(p, PERFEV_VALUE_PERIOD));
	/* column widths: the header or the widest value */
	size_t width[REPORT_MAX_KEYS];
	char buf[4096];
	for (size_t k = 0; k < v->nr_keys; k++) {
		width[k] = strlen(header_of(v->keys[k]));
		for (size_t i = 0; i < nr; i++) {
			column(&e[i], v->keys[k], buf, sizeof(buf));
			if (strlen(buf) > width[k])
				width[k] = strlen(buf);
		}
	}
	struct pv_buf h = PV_BUF_INIT, d = PV_BUF_INIT;
	pv_buf_puts(&h, v->children ? "# Children      Self" : "# Overhead");
	pv_buf_puts(&d, v->children ? "# ........  ........" : "# ........");
	for (size_t k = 0; k < v->nr_keys; k++) {
		bool last = k == v->nr_keys - 1;
		pv_buf_printf(&h, "  %-*s", last ? (int)width[k] : (int)width[k], header_of(v->keys[k]));
		pv_buf_puts(&d, "  ");
		for (size_t i = 0; i < width[k]; i++)
			pv_buf_putc(&d, '.');
	}
	fprintf(out, "%s\n%s\n#\n", h.data, d.data);
	pv_buf_free(&h);
	pv_buf_free(&d);
	uint64_t all = perfev_profile_total(p, v->value);
	struct pv_strtab labels = {0};
	struct trie *graphs = v->graph != GRAPH_NONE ? build_graphs(p, v, e, nr, &labels) : NULL;
	for (size_t i = 0; i < nr; i++) {
		if (v->children)
			fprintf(out, "  %7.2f%%  %7.2f%%", pct(e[i].total[v->value], all),
				pct(e[i].self[v->value], all));
		else
			fprintf(out, "  %7.2f%%", pct(e[i].self[v->value], all));
		for (size_t k = 0; k < v->nr_keys; k++) {
			column(&e[i], v->keys[k], buf, sizeof(buf));
			if (k == v->nr_keys - 1)
				fprintf(out, "  %s", buf);
			else
				fprintf(out, "  %-*s", (int)width[k], buf);
		}
		fputc('\n', out);
		uint64_t ew = v->children ? e[i].total[v->value] : e[i].self[v->value];
		if (graphs && pct(ew, all) >= v->graph_min) /* perf: no graph under the threshold */
			print_trie(out, &graphs[i], v->children ? e[i].total[v->value] : e[i].self[v->value],
				   all, v->graph_min);
	}
	fprintf(out, "\n\n");
	for (size_t i = 0; graphs && i < nr; i++)
		free(graphs[i].n);
	free(graphs);
	pv_strtab_free(&labels);
	free(e);
	return ferror(out) ? cli_error("report", "writing the report failed: %s", strerror(errno)) : 0;
}

int report_print_json(const struct perfev_profile *p, const struct report_view *v, FILE *out)
{
	struct perfev_profile_entry *e;
	size_t nr;
	if (perfev_profile_flat(p, v->key_mask, v->value, v->children, v->percent_limit, &e, &nr) < 0)
		return cli_error("report", "%s", perfev_errmsg());
	uint64_t all = perfev_profile_total(p, v->value);
	struct pv_buf b = PV_BUF_INIT;
	pv_buf_puts(&b, "{\"event\":");
	pv_buf_json_str(&b, v->event_name ? v->event_name : "unknown");
	pv_buf_printf(&b, ",\"samples\":%llu,\"period\":%llu,\"lost\":%llu,\"children\":%s,\"entries\":[",
		      (unsigned long long)perfev_profile_total(p, PERFEV_VALUE_SAMPLES),
		      (unsigned long long)perfev_profile_total(p, PERFEV_VALUE_PERIOD),
		      (unsigned long long)v->lost, v->children ? "true" : "false");
	char buf[64];
	for (size_t i = 0; i < nr; i++) {
		pv_buf_printf(&b, "%s\n{\"overhead\":%.4f,\"self\":%.4f,\"children\":%.4f,"
			      "\"samples\":%llu,\"period\":%llu", i ? "," : "",
			      pct(v->children ? e[i].total[v->value] : e[i].self[v->value], all),
			      pct(e[i].self[v->value], all), pct(e[i].total[v->value], all),
			      (unsigned long long)e[i].self[PERFEV_VALUE_SAMPLES],
			      (unsigned long long)e[i].self[PERFEV_VALUE_PERIOD]);
		if (v->key_mask & (PERFEV_KEY_COMM | PERFEV_KEY_PID | PERFEV_KEY_TID)) {
			pv_buf_puts(&b, ",\"comm\":");
			pv_buf_json_str(&b, e[i].comm ? e[i].comm : "[unknown]");
		}
		if (v->key_mask & PERFEV_KEY_PID)
			pv_buf_printf(&b, ",\"pid\":%d", e[i].pid);
		if (v->key_mask & PERFEV_KEY_TID)
			pv_buf_printf(&b, ",\"tid\":%d", e[i].tid);
		if (e[i].dso) {
			pv_buf_puts(&b, ",\"dso\":");
			pv_buf_json_str(&b, e[i].dso);
		}
		if (v->key_mask & PERFEV_KEY_SYM) {
			pv_buf_puts(&b, ",\"symbol\":");
			if (e[i].symbol) {
				pv_buf_json_str(&b, e[i].symbol);
			} else {
				snprintf(buf, sizeof(buf), "0x%016llx", (unsigned long long)e[i].rel_ip);
				pv_buf_json_str(&b, buf);
			}
			pv_buf_printf(&b, ",\"kernel\":%s", e[i].kernel ? "true" : "false");
		}
		if (v->key_mask & PERFEV_KEY_SRCLINE) {
			pv_buf_puts(&b, ",\"srcline\":");
			if (e[i].srcfile) {
				pv_buf_json_str(&b, e[i].srcfile);
				pv_buf_printf(&b, ",\"line\":%u", e[i].line);
			} else {
				pv_buf_puts(&b, "null");
			}
		}
		pv_buf_putc(&b, '}');
	}
	pv_buf_puts(&b, "\n]}\n");
	free(e);
	return pv_export_write(&b, out, "report JSON") < 0 ? cli_error("report", "%s", perfev_errmsg()) : 0;
}

/* ---- exports ------------------------------------------------------------------- */
static int write_export(const char *cmd,
			int (*fn)(const struct perfev_profile *, const struct perfev_export_options *, FILE *),
			const struct perfev_profile *p, const struct perfev_export_options *o,
			const char *path, const char *what)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "w") : stdout;
	if (!f)
		return cli_error(cmd, "cannot write the %s to %s: %s (check the directory exists and is writable)",
				 what, path, strerror(errno));
	int r = fn(p, o, f);
	if (f != stdout && fclose(f) != 0 && r >= 0)
		r = pv_error(EIO, "closing %s: %s", path, strerror(errno));
	if (r < 0)
		return cli_error(cmd, "writing the %s to %s: %s", what, path, perfev_errmsg());
	if (f != stdout)
		fprintf(stderr, "perfev %s: wrote the %s to %s\n", cmd, what, path);
	return 0;
}

int report_write_exports(const char *cmd, const struct perfev_profile *p, const struct report_exports *x,
			 const char *subtitle, enum perfev_profile_value value)
{
	struct perfev_export_options eo = {.size = sizeof(eo), .value = value, .title = x->title,
					   .subtitle = subtitle};
	int ret = 0;
	if (x->flame && write_export(cmd, perfev_export_flame, p, &eo, x->flame, "flame graph"))
		ret = 1;
	if (x->pprof && write_export(cmd, perfev_export_pprof, p, &eo, x->pprof, "pprof profile"))
		ret = 1;
	if (x->firefox && write_export(cmd, perfev_export_firefox, p, &eo, x->firefox, "Firefox profile"))
		ret = 1;
	if (x->folded && write_export(cmd, perfev_export_folded, p, &eo, x->folded, "folded stacks"))
		ret = 1;
	return ret;
}

static void quiet_note(void *ctx, const char *msg)
{
	fprintf(stderr, "perfev %s: note: %s\n", (const char *)ctx, msg);
}

int report_export_file(const char *cmd, const char *input, const struct report_exports *x)
{
	struct perfev_profile_load_opts lo = {.size = sizeof(lo), .group = PERFEV_GROUP_THREAD,
					      .event = -1, .note = quiet_note, .note_ctx = (void *)cmd};
	if (x->firefox)
		lo.flags |= PERFEV_PROFILE_KEEP_SAMPLES;
	struct perfev_profile_load_info info = {.size = sizeof(info)};
	struct perfev_profile *p = perfev_profile_load(input, &lo, &info);
	if (!p)
		return cli_error(cmd, "reading %s back for the exports: %s", input, perfev_errmsg());
	char subtitle[256];
	snprintf(subtitle, sizeof(subtitle), "%llu samples of %s",
		 (unsigned long long)perfev_profile_total(p, PERFEV_VALUE_SAMPLES), info.event_name);
	int ret = report_write_exports(cmd, p, x, subtitle, PERFEV_VALUE_SAMPLES);
	perfev_profile_free(p);
	return ret;
}
