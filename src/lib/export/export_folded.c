/* export_folded.c — folded stacks ("comm;outer;...;leaf COUNT"), the input
 * of flamegraph.pl, inferno and speedscope. One line per distinct stack. */
#include "export/export_int.h"

#include <stdlib.h>
#include <string.h>

/* Folded lines are split on ';' and the last ' ': keep names free of
 * separators and line breaks. */
static void put_name(struct pv_buf *b, const char *s)
{
	for (; *s; s++)
		pv_buf_putc(b, *s == ';' ? ':' : (*s == '\n' || *s == '\r') ? ' ' : *s);
}

/* Node id's stack as a folded line names it: the group (its command, with
 * pid/tid when grouped so) then the frames outermost first, ';'-separated. */
void pv_export_folded_stack(const struct perfev_profile *p, uint32_t id, bool annotate, struct pv_buf *b,
			    uint32_t **path, size_t *cap)
{
	char addr[32];
	size_t nr = 0;
	for (uint32_t at = id; at; at = p->nodes[at].parent) {
		if (pv_grow(path, cap, nr + 1, sizeof(**path)) < 0) {
			b->oom = true;
			return;
		}
		(*path)[nr++] = at;
	}
	bool first = true;
	for (size_t i = nr; i-- > 0;) {
		const struct pv_node *x = &p->nodes[(*path)[i]];
		if (pv_node_is_group(x)) {
			const struct pv_group *g = &p->groups[x->what & ~PV_NODE_GROUP_BIT];
			const char *comm = pv_strtab_get(&p->strs, g->comm);
			if (!comm)
				continue;
			put_name(b, comm);
			if (p->group == PERFEV_GROUP_THREAD)
				pv_buf_printf(b, "-%d/%d", g->pid, g->tid);
			else if (p->group == PERFEV_GROUP_PID)
				pv_buf_printf(b, "-%d", g->pid);
			first = false;
			continue;
		}
		const struct pv_frame *f = &p->frames[x->what];
		if (!first)
			pv_buf_putc(b, ';');
		first = false;
		put_name(b, pv_frame_name(p, f, addr, sizeof(addr)));
		if (annotate && f->kernel)
			pv_buf_puts(b, "_[k]");
		else if (annotate && f->inlined)
			pv_buf_puts(b, "_[i]");
	}
}

PERFEV_API int perfev_export_folded(const struct perfev_profile *p0,
				    const struct perfev_export_options *o0, FILE *out)
{
	struct perfev_export_options o;
	if (pv_export_options(o0, &o) < 0)
		return -EINVAL;
	struct perfev_profile *owned;
	const struct perfev_profile *p =
		pv_export_view(p0, p0->group == PERFEV_GROUP_THREAD ? PERFEV_GROUP_COMM : -1, &owned);
	if (!p)
		return -ENOMEM;
	struct pv_buf b = PV_BUF_INIT;
	uint32_t *path = NULL;
	size_t cap = 0;
	for (uint32_t id = 1; id < p->nr_nodes && !b.oom; id++) {
		const struct pv_node *n = &p->nodes[id];
		if (pv_node_is_group(n) || !n->self[o.value])
			continue;
		pv_export_folded_stack(p, id, o.annotate_kernel, &b, &path, &cap);
		pv_buf_printf(&b, " %llu\n", (unsigned long long)n->self[o.value]);
	}
	free(path);
	perfev_profile_free(owned);
	return pv_export_write(&b, out, "folded");
}
