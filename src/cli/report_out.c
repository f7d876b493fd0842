/* report_out.c — perfev report's output: perf report --stdio's table
 * (Overhead or Children/Self, then one column per sort key), call graphs in
 * perf's graph style, and the same entries as JSON. */
#define _GNU_SOURCE
#include "report.h"
#include "cli.h"
#include "internal.h"
#include "export_int.h"

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
			snprintf(buf, len, "[%c] 0x%016llx", e->kernel ? 'k' : '.',
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

/* ---- call graphs ------------------------------------------------------------ */
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
	t->n[id] = (struct tnode){name, 0, 0, t->n[parent].first};
	t->n[parent].first = id;
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
	uint32_t kids[4096];
	size_t nk = 0;
	for (uint32_t c = t->n[at].first; c && nk < PV_ARRAY_SIZE(kids); c = t->n[c].next)
		if (pct(t->n[c].w, all) >= min_pct)
			kids[nk++] = c;
	qsort_r(kids, nk, sizeof(*kids), by_weight, t);
	if (nk == 1 && t->n[kids[0]].w == t->n[at].w) {
		fprintf(out, "%s%s\n", prefix->data, t->n[kids[0]].name);
		emit(out, t, kids[0], prefix, all, min_pct);
		return;
	}
	size_t keep = prefix->len;
	for (size_t i = 0; i < nk; i++) {
		bool last = i == nk - 1;
		char marker[64];
		snprintf(marker, sizeof(marker), "%s--%.2f%%--", last ? " " : "|", pct(t->n[kids[i]].w, all));
		fprintf(out, "%s%s%s\n", prefix->data, marker, t->n[kids[i]].name);
		pv_buf_putc(prefix, last ? ' ' : '|');
		for (size_t k = 1; k < strlen(marker); k++)
			pv_buf_putc(prefix, ' ');
		emit(out, t, kids[i], prefix, all, min_pct);
		prefix->len = keep;
		prefix->data[keep] = 0;
		if (!last)
			fprintf(out, "%s|\n", prefix->data);
	}
}

static bool node_is(const struct perfev_profile_node *n, const struct perfev_profile_node *g,
		    const struct perfev_profile_entry *e, unsigned keys)
{
	const struct perfev_profile_frame *f = &n->frame;
	if ((keys & PERFEV_KEY_SYM) && (f->symbol != e->symbol || f->dso != e->dso ||
					f->inlined != e->inlined || (!f->symbol && f->ip != e->ip)))
		return false;
	if ((keys & PERFEV_KEY_DSO) && f->dso != e->dso)
		return false;
	if ((keys & PERFEV_KEY_COMM) && g->comm != e->comm)
		return false;
	if ((keys & PERFEV_KEY_PID) && g->pid != e->pid)
		return false;
	if ((keys & PERFEV_KEY_TID) && g->tid != e->tid)
		return false;
	if ((keys & PERFEV_KEY_SRCLINE) && (f->srcfile != e->srcfile || f->line != e->line))
		return false;
	return true;
}

static const char *frame_label(const struct perfev_profile_frame *f, char *buf, size_t len)
{
	if (f->symbol)
		return f->symbol;
	snprintf(buf, len, "0x%llx", (unsigned long long)(f->kernel ? f->ip : f->rel_ip));
	return buf;
}

/* The call paths through entry e: callers (callee order) or from the root
 * down (caller order), as one trie whose root is e itself. */
static void print_graph(FILE *out, const struct perfev_profile *p, const struct report_view *v,
			const struct perfev_profile_entry *e, const uint32_t *group_of)
{
	struct trie t = {0};
	if (pv_grow(&t.n, &t.cap, 64, sizeof(*t.n)) < 0)
		return;
	t.nr = 1;
	t.n[0] = (struct tnode){"", 0, 0, 0};
	size_t nn = perfev_profile_nr_nodes(p);
	const char **path = NULL;
	size_t pcap = 0;
	struct pv_strtab labels = {0}; /* unknown-symbol labels live here */
	for (uint32_t id = 1; id < nn; id++) {
		struct perfev_profile_node n, g;
		perfev_profile_node(p, id, &n);
		if (n.kind != PERFEV_NODE_FRAME)
			continue;
		uint64_t w = v->children ? n.total[v->value] : n.self[v->value];
		if (!w)
			continue;
		perfev_profile_node(p, group_of[id], &g);
		if (!node_is(&n, &g, e, v->key_mask))
			continue;
		if (v->children) {
			/* count a recursive entry once: skip if an ancestor is it too */
			bool inner = false;
			struct perfev_profile_node a = n;
			while (a.parent && !inner) {
				perfev_profile_node(p, a.parent, &a);
				inner = a.kind == PERFEV_NODE_FRAME && node_is(&a, &g, e, v->key_mask);
			}
			if (inner)
				continue;
		}
		/* n up to the group: callee order */
		size_t np = 0;
		struct perfev_profile_node a = n;
		char buf[40];
		for (;;) {
			if (pv_grow(&path, &pcap, np + 1, sizeof(*path)) < 0)
				goto out;
			const char *l = frame_label(&a.frame, buf, sizeof(buf));
			path[np++] = l == buf ? pv_strtab_get(&labels, pv_strtab_intern(&labels, buf)) : l;
			if (!path[np - 1])
				path[np - 1] = "[unknown]";
			if (!a.parent)
				break;
			perfev_profile_node(p, a.parent, &a);
			if (a.kind != PERFEV_NODE_FRAME)
				break;
		}
		uint32_t at = 0;
		t.n[0].w += w;
		for (size_t i = 0; i < np; i++) {
			const char *name = v->graph == GRAPH_CALLEE ? path[i] : path[np - 1 - i];
			at = trie_child(&t, at, name);
			if (!at)
				goto out;
			t.n[at].w += w;
		}
	}
	uint64_t all = perfev_profile_total(p, v->value);
	uint32_t root = t.n[0].first;
	if (root && !t.n[root].next) {
		fprintf(out, "            |\n            ---%s\n", t.n[root].name);
		struct pv_buf prefix = PV_BUF_INIT;
		pv_buf_puts(&prefix, "               ");
		emit(out, &t, root, &prefix, all, v->graph_min);
		pv_buf_free(&prefix);
	} else if (root) {
		fprintf(out, "            |\n");
		struct pv_buf prefix = PV_BUF_INIT;
		pv_buf_puts(&prefix, "            ");
		emit(out, &t, 0, &prefix, all, v->graph_min);
		pv_buf_free(&prefix);
	}
	fputc('\n', out);
out:
	free(path);
	free(t.n);
	pv_strtab_free(&labels);
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
	uint32_t *group_of = NULL;
	if (v->graph != GRAPH_NONE) {
		size_t nn = perfev_profile_nr_nodes(p);
		group_of = calloc(nn, sizeof(*group_of));
		for (uint32_t id = 1; group_of && id < nn; id++) {
			struct perfev_profile_node n;
			perfev_profile_node(p, id, &n);
			group_of[id] = n.kind == PERFEV_NODE_GROUP ? id : group_of[n.parent];
		}
	}
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
		if (group_of)
			print_graph(out, p, v, &e[i], group_of);
	}
	fprintf(out, "\n\n");
	free(group_of);
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
