/* export_flame.c — a self-contained interactive SVG flame graph, written
 * from scratch: the root at the bottom, callees above their callers, widths
 * proportional to the chosen value, siblings in name order (so equal stacks
 * from different runs look alike). Script and style: export_flame_js.h. */
#define _GNU_SOURCE
#include "export/export_int.h"
#include "export/export_flame_js.h"

#include <stdlib.h>
#include <string.h>

#define FH 16       /* frame height, px */
#define TOP 60      /* title, subtitle, buttons */
#define BOTTOM 30   /* the details line */
#define PAD 10

/* XML text or attribute: escaped, control characters and invalid UTF-8
 * replaced, so any symbol name keeps the document well-formed. */
static void xml_str(struct pv_buf *b, const char *s, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = 0;
	while (*p && n < max) {
		unsigned c = *p;
		if (c < 0x80) {
			switch (c) {
			case '&': pv_buf_puts(b, "&amp;"); break;
			case '<': pv_buf_puts(b, "&lt;"); break;
			case '>': pv_buf_puts(b, "&gt;"); break;
			case '"': pv_buf_puts(b, "&quot;"); break;
			case '\'': pv_buf_puts(b, "&apos;"); break;
			default: pv_buf_putc(b, c < 0x20 ? '?' : (char)c);
			}
			p++, n++;
			continue;
		}
		size_t len = c >= 0xf0 && c < 0xf5 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 && c < 0xe0 ? 2 : 0;
		bool ok = len > 0;
		for (size_t i = 1; ok && i < len; i++)
			ok = (p[i] & 0xc0) == 0x80;
		if (!ok) {
			pv_buf_putc(b, '?');
			p++, n++;
			continue;
		}
		pv_buf_add(b, p, len);
		p += len, n++;
	}
	if (*p)
		pv_buf_puts(b, "..");
}

static void color(const char *name, const struct pv_frame *f, bool group, char *out, size_t len)
{
	uint64_t h = pv_hash_bytes(name, strlen(name));
	unsigned a = h & 0xff, b2 = (h >> 8) & 0xff, c = (h >> 16) & 0xff;
	if (group)
		snprintf(out, len, "rgb(%u,%u,%u)", 180 + a % 40, 180 + a % 40, 190 + a % 40);
	else if (!f->sym)
		snprintf(out, len, "rgb(%u,%u,%u)", 190 + a % 30, 190 + a % 30, 190 + a % 30);
	else if (f->kernel) /* kernel: orange */
		snprintf(out, len, "rgb(%u,%u,%u)", 230 + a % 25, 120 + b2 % 60, 40 + c % 30);
	else if (f->inlined) /* inlined: aqua */
		snprintf(out, len, "rgb(%u,%u,%u)", 80 + a % 50, 190 + b2 % 50, 190 + c % 50);
	else /* user code: the classic warm palette */
		snprintf(out, len, "rgb(%u,%u,%u)", 205 + a % 50, b2 % 230, c % 55);
}

struct lay {
	const struct perfev_profile *p;
	int value;
	double *x; /* start, as a fraction of the root's total */
};

static int cmp_child(const void *a, const void *b, void *arg)
{
	const struct perfev_profile *p = arg;
	const struct pv_node *x = &p->nodes[*(const uint32_t *)a], *y = &p->nodes[*(const uint32_t *)b];
	char ba[32], bb[32];
	const char *na, *nb;
	if (pv_node_is_group(x) && pv_node_is_group(y)) {
		na = pv_strtab_get(&p->strs, p->groups[x->what & ~PV_NODE_GROUP_BIT].comm);
		nb = pv_strtab_get(&p->strs, p->groups[y->what & ~PV_NODE_GROUP_BIT].comm);
	} else {
		na = pv_frame_name(p, &p->frames[x->what], ba, sizeof(ba));
		nb = pv_frame_name(p, &p->frames[y->what], bb, sizeof(bb));
	}
	int c = strcmp(na ? na : "", nb ? nb : "");
	return c ? c : (*(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1);
}

static const char *unit_name(int v)
{
	return v == PERFEV_VALUE_SAMPLES ? "samples" : v == PERFEV_VALUE_PERIOD ? "period" : "weight";
}

PERFEV_API int perfev_export_flame(const struct perfev_profile *p0,
				   const struct perfev_export_options *o0, FILE *out)
{
	return pv_export_flame_hooked(p0, o0, NULL, out);
}

/* The tooltip of an undrawn-by-hook frame: its value, share, self share, object. */
static void own_title(struct pv_buf *b, const struct perfev_profile *p, const struct pv_node *n,
		      const struct pv_frame *f, int v, uint64_t all)
{
	double pct = all ? 100.0 * (double)n->total[v] / (double)all : 100.0;
	pv_buf_printf(b, " (%llu %s, %.2f%%", (unsigned long long)n->total[v], unit_name(v), pct);
	if (n->self[v])
		pv_buf_printf(b, "; self %llu, %.2f%%", (unsigned long long)n->self[v],
			      100.0 * (double)n->self[v] / (double)(all ? all : 1));
	pv_buf_puts(b, ")");
	if (f->dso) {
		pv_buf_puts(b, " in ");
		xml_str(b, pv_strtab_get(&p->strs, f->dso), 4096);
	}
}

/* Lays p out top-down: children share their parent's span (x: start, a
 * fraction of the root's total) in name order; *max_level: the deepest
 * level drawn (frames narrower than min_width px are not, nor their
 * children). 0 or -ENOMEM. */
static int layout(const struct perfev_profile *p, int v, double span, double min_width, double *x,
		  unsigned *max_level)
{
	uint64_t all = p->nodes[0].total[v];
	bool skip_groups = p->group == PERFEV_GROUP_NONE;
	uint32_t *work = malloc(p->nr_nodes * sizeof(*work)), *kids = NULL;
	size_t cap_kids = 0, nwork = 0;
	int ret = work ? 0 : -ENOMEM;
	if (work)
		work[nwork++] = 0;
	while (nwork && !ret) {
		uint32_t u = work[--nwork];
		size_t nk = 0;
		for (uint32_t c = p->nodes[u].first_child; c && !ret; c = p->nodes[c].next_sibling) {
			ret = pv_grow(&kids, &cap_kids, nk + 1, sizeof(*kids));
			if (!ret)
				kids[nk++] = c;
		}
		if (nk > 1)
			qsort_r(kids, nk, sizeof(*kids), cmp_child, (void *)p);
		double at = x[u];
		for (size_t i = 0; i < nk; i++) {
			x[kids[i]] = at;
			double w = all ? (double)p->nodes[kids[i]].total[v] / (double)all : 0;
			at += w;
			if (w * span < min_width)
				continue; /* too narrow to draw: neither it nor its children */
			unsigned lvl = p->nodes[kids[i]].depth - (skip_groups ? 1 : 0);
			if (lvl > *max_level)
				*max_level = lvl;
			work[nwork++] = kids[i];
		}
	}
	free(work);
	free(kids);
	return ret < 0 ? -ENOMEM : 0;
}

/* The document up to the frames: its size, style, script, title, subtitle,
 * the buttons and the details line. */
static void svg_head(struct pv_buf *b, const struct perfev_export_options *o, unsigned height)
{
	pv_buf_printf(b,
		      "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		      "<svg version=\"1.1\" width=\"%u\" height=\"%u\" viewBox=\"0 0 %u %u\" "
		      "xmlns=\"http://www.w3.org/2000/svg\" onload=\"init(evt)\">\n"
		      "<style type=\"text/css\"><![CDATA[\n%s]]></style>\n"
		      "<script type=\"text/ecmascript\"><![CDATA[\n%s]]></script>\n"
		      "<rect x=\"0\" y=\"0\" width=\"%u\" height=\"%u\" fill=\"#f6f6f2\"/>\n",
		      o->width, height, o->width, height, pv_flame_css, pv_flame_js, o->width, height);
	pv_buf_printf(b, "<text id=\"title\" x=\"%u\" y=\"24\">", o->width / 2);
	xml_str(b, o->title, 200);
	pv_buf_puts(b, "</text>\n");
	pv_buf_printf(b, "<text id=\"subtitle\" x=\"%u\" y=\"42\">", o->width / 2);
	if (o->subtitle)
		xml_str(b, o->subtitle, 300);
	pv_buf_puts(b, "</text>\n");
	pv_buf_printf(b,
		      "<text id=\"unzoom\" class=\"hide\" x=\"%d\" y=\"24\">Reset Zoom</text>\n"
		      "<text id=\"search\" x=\"%u\" y=\"24\">Search</text>\n"
		      "<text id=\"matched\" x=\"%u\" y=\"%u\"> </text>\n"
		      "<text id=\"details\" x=\"%d\" y=\"%u\"> </text>\n<g id=\"frames\">\n",
		      PAD, o->width - PAD - 100, o->width - PAD, height - 10, PAD, height - 10);
}

int pv_export_flame_hooked(const struct perfev_profile *p0, const struct perfev_export_options *o0,
			   const struct pv_flame_hook *hook, FILE *out)
{
	struct perfev_export_options o;
	if (pv_export_options(o0, &o) < 0)
		return -EINVAL;
	struct perfev_profile *owned;
	const struct perfev_profile *p =
		pv_export_view(p0, p0->group == PERFEV_GROUP_NONE ? -1 : PERFEV_GROUP_COMM, &owned);
	if (!p)
		return -ENOMEM;
	int v = o.value;
	uint64_t all = p->nodes[0].total[v];
	bool skip_groups = p->group == PERFEV_GROUP_NONE;
	double span = o.width - 2 * PAD;
	double *x = calloc(p->nr_nodes, sizeof(*x));
	struct pv_buf b = PV_BUF_INIT;
	struct pv_buf extra = PV_BUF_INIT;
	if (!x) {
		b.oom = true;
		goto done;
	}
	if (hook && hook->begin && hook->begin(hook->ctx, p) < 0) {
		b.oom = true;
		goto done;
	}
	unsigned max_level = 0;
	if (layout(p, v, span, o.min_width, x, &max_level) < 0) {
		b.oom = true;
		goto done;
	}
	unsigned height = TOP + BOTTOM + (max_level + 1) * FH;
	svg_head(&b, &o, height);
	char name_buf[32], fill[40];
	for (uint32_t id = 0; id < p->nr_nodes; id++) {
		const struct pv_node *n = &p->nodes[id];
		double w = all ? (double)n->total[v] / (double)all : (id == 0);
		if (w * span < o.min_width && id != 0)
			continue;
		if (id && skip_groups && pv_node_is_group(n))
			continue;
		/* a node is drawn only if its parent was: check the parent's width */
		if (id && n->parent && all && (double)p->nodes[n->parent].total[v] / (double)all * span < o.min_width)
			continue;
		unsigned lvl = id == 0 ? 0 : n->depth - (skip_groups ? 1 : 0);
		const struct pv_frame none = {0};
		const struct pv_frame *f = &none;
		const char *name;
		bool group = id == 0 || pv_node_is_group(n);
		if (id == 0)
			name = "all";
		else if (pv_node_is_group(n))
			name = pv_strtab_get(&p->strs, p->groups[n->what & ~PV_NODE_GROUP_BIT].comm);
		else
			name = pv_frame_name(p, f = &p->frames[n->what], name_buf, sizeof(name_buf));
		if (!name)
			name = "[unknown]";
		pv_buf_reset(&extra);
		if (hook && id)
			hook->frame(hook->ctx, p, id, fill, sizeof(fill), &extra);
		else
			color(name, f, group, fill, sizeof(fill));
		double px = PAD + x[id] * span, pw = w * span;
		unsigned y = height - BOTTOM - (lvl + 1) * FH;
		pv_buf_printf(&b, "<g class=\"f\" data-x=\"%.9f\" data-w=\"%.9f\" data-d=\"%u\" data-n=\"",
			      x[id], w, lvl);
		xml_str(&b, name, 4096);
		pv_buf_puts(&b, "\"><title>");
		xml_str(&b, name, 4096);
		if (f->kernel)
			pv_buf_puts(&b, " [k]");
		else if (f->inlined)
			pv_buf_puts(&b, " [inlined]");
		if (hook && id) {
			if (extra.len)
				xml_str(&b, extra.data, extra.len);
			b.oom |= extra.oom;
		} else {
			own_title(&b, p, n, f, v, all);
		}
		pv_buf_printf(&b, "</title><rect x=\"%.2f\" y=\"%u\" width=\"%.2f\" height=\"%d\" "
			      "fill=\"%s\" data-c=\"%s\" rx=\"2\" ry=\"2\"/><text x=\"%.2f\" y=\"%u\">",
			      px, y, pw, FH - 1, fill, fill, px + 3, y + FH - 4);
		long chars = (long)((pw - 6) / 6.5);
		if (chars >= 3)
			xml_str(&b, name, strlen(name) <= (size_t)chars ? (size_t)chars : (size_t)chars - 2);
		pv_buf_puts(&b, "</text></g>\n");
	}
	pv_buf_puts(&b, "</g>\n</svg>\n");
done:
	pv_buf_free(&extra);
	free(x);
	perfev_profile_free(owned);
	return pv_export_write(&b, out, "flame graph");
}
