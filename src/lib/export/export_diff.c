/*
 * export_diff.c — differential views of two profiles of one program (perfev
 * diff): stacks matched by their folded names (command, then each frame's
 * symbol), so a rebuilt binary's moved addresses do not matter.
 *   - folded: Brendan Gregg's difffolded lines, "stack OLD NEW";
 *   - a flame graph of NEW's stacks (export_flame.c with a hook), each
 *     frame coloured by how its share of the whole changed: red grew, blue
 *     shrank, the deeper the larger the change; its tooltip states both
 *     shares and the change;
 *   - pprof (export_pprof.c): NEW's samples and OLD's negated, labelled
 *     pprof::base, as `pprof -diff_base OLD NEW` merges them.
 */
#define _GNU_SOURCE
#include "export/export_int.h"
#include "core/opts.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Each stack's (prefix's) total and self value in one profile, by the hash
 * of its folded name (64 bits: a collision of two names is left to chance). */
struct stacks {
	struct pv_keymap idx;
	uint64_t *total, *self;
	size_t nr, cap;
};

static uint64_t stack_hash(const struct perfev_profile *p, uint32_t id, struct pv_buf *b, uint32_t **path,
			   size_t *cap)
{
	pv_buf_reset(b);
	pv_export_folded_stack(p, id, false, b, path, cap);
	return pv_hash_bytes(b->data ? b->data : "", b->len);
}

static int stacks_fill(struct stacks *s, const struct perfev_profile *p, int v)
{
	struct pv_buf b = PV_BUF_INIT;
	uint32_t *path = NULL;
	size_t pcap = 0;
	int ret = 0;
	for (uint32_t id = 1; id < p->nr_nodes && !ret; id++) {
		uint64_t h = stack_hash(p, id, &b, &path, &pcap);
		uint32_t at = pv_keymap_get(&s->idx, h);
		if (!at) {
			size_t c = s->cap;
			if (pv_grow(&s->total, &c, s->nr + 1, sizeof(*s->total)) < 0 ||
			    pv_grow(&s->self, &s->cap, s->nr + 1, sizeof(*s->self)) < 0 ||
			    pv_keymap_put(&s->idx, h, (uint32_t)s->nr + 1) < 0) {
				ret = -ENOMEM;
				break;
			}
			s->total[s->nr] = s->self[s->nr] = 0;
			at = (uint32_t)++s->nr;
		}
		/* (a thread's stack and another's of the same command are one) */
		s->total[at - 1] += p->nodes[id].total[v];
		s->self[at - 1] += p->nodes[id].self[v];
		if (b.oom)
			ret = -ENOMEM;
	}
	pv_buf_free(&b);
	free(path);
	return ret;
}

static void stacks_free(struct stacks *s)
{
	pv_keymap_free(&s->idx);
	free(s->total);
	free(s->self);
}

/* Both profiles as their folded views (threads merged by command). */
struct pair {
	struct perfev_export_options o;
	const struct perfev_profile *old, *new_;
	struct perfev_profile *own_old, *own_new;
	struct stacks so, sn;
};

static int pair_open(struct pair *d, const struct perfev_profile *old, const struct perfev_profile *new_,
		     const struct perfev_export_options *o, bool need_new)
{
	memset(d, 0, sizeof(*d));
	if (!old || !new_)
		return pv_error(EINVAL, "a differential export needs both profiles, the old and the new");
	if (pv_export_options(o, &d->o) < 0)
		return -EINVAL;
	d->old = pv_export_view(old, old->group == PERFEV_GROUP_NONE ? -1 : PERFEV_GROUP_COMM, &d->own_old);
	d->new_ = pv_export_view(new_, new_->group == PERFEV_GROUP_NONE ? -1 : PERFEV_GROUP_COMM, &d->own_new);
	if (!d->old || !d->new_ || stacks_fill(&d->so, d->old, d->o.value) < 0 ||
	    (need_new && stacks_fill(&d->sn, d->new_, d->o.value) < 0))
		return pv_error(ENOMEM, "out of memory matching the profiles' stacks");
	return 0;
}

static void pair_close(struct pair *d)
{
	stacks_free(&d->so);
	stacks_free(&d->sn);
	perfev_profile_free(d->own_old);
	perfev_profile_free(d->own_new);
}

/* ---- difffolded ------------------------------------------------------------------ */
/* the lines of p's stacks with self values, the other side's value from s
 * (first: NEW's order, OLD's value beside; then OLD's stacks NEW lacks) */
static void folded_side(struct pv_buf *out, const struct perfev_profile *p, int v, const struct stacks *other,
			bool is_old)
{
	struct pv_buf b = PV_BUF_INIT;
	uint32_t *path = NULL;
	size_t pcap = 0;
	for (uint32_t id = 1; id < p->nr_nodes; id++) {
		const struct pv_node *n = &p->nodes[id];
		if (pv_node_is_group(n) || !n->self[v])
			continue;
		uint32_t at = pv_keymap_get(&other->idx, stack_hash(p, id, &b, &path, &pcap));
		uint64_t o = at ? other->self[at - 1] : 0;
		if (is_old && o)
			continue; /* printed with NEW's */
		pv_buf_add(out, b.data, b.len);
		if (is_old)
			pv_buf_printf(out, " %llu 0\n", (unsigned long long)n->self[v]);
		else
			pv_buf_printf(out, " %llu %llu\n", (unsigned long long)o, (unsigned long long)n->self[v]);
		out->oom |= b.oom;
	}
	pv_buf_free(&b);
	free(path);
}

PERFEV_API int perfev_export_folded_diff(const struct perfev_profile *old, const struct perfev_profile *new_,
					 const struct perfev_export_options *o, FILE *out)
{
	struct pair d;
	int ret = pair_open(&d, old, new_, o, true);
	if (ret == 0) {
		struct pv_buf b = PV_BUF_INIT;
		folded_side(&b, d.new_, d.o.value, &d.so, false);
		folded_side(&b, d.old, d.o.value, &d.sn, true);
		ret = pv_export_write(&b, out, "difffolded");
	}
	pair_close(&d);
	return ret;
}

/* ---- the differential flame graph -------------------------------------------------- */
struct flame_diff {
	struct pair *d;
	double *old_pct, *new_pct; /* per node of the drawn profile */
	double max_change;
	struct pv_buf b;
	uint32_t *path;
	size_t pcap;
};

static int flame_begin(void *ctx, const struct perfev_profile *p)
{
	struct flame_diff *f = ctx;
	int v = f->d->o.value;
	uint64_t old_all = f->d->old->nodes[0].total[v], new_all = p->nodes[0].total[v];
	f->old_pct = calloc(p->nr_nodes, sizeof(double));
	f->new_pct = calloc(p->nr_nodes, sizeof(double));
	if (!f->old_pct || !f->new_pct)
		return -ENOMEM;
	for (uint32_t id = 1; id < p->nr_nodes; id++) {
		uint32_t at = pv_keymap_get(&f->d->so.idx, stack_hash(p, id, &f->b, &f->path, &f->pcap));
		f->old_pct[id] = at && old_all ? 100.0 * (double)f->d->so.total[at - 1] / (double)old_all : 0;
		f->new_pct[id] = new_all ? 100.0 * (double)p->nodes[id].total[v] / (double)new_all : 0;
		f->max_change = fmax(f->max_change, fabs(f->new_pct[id] - f->old_pct[id]));
	}
	return f->b.oom ? -ENOMEM : 0;
}

/* red grew, blue shrank (flamegraph.pl's differential palette): the
 * larger the change against the largest, the deeper the colour */
static void flame_frame(void *ctx, const struct perfev_profile *p, uint32_t id, char *fill, size_t len,
			struct pv_buf *title)
{
	(void)p;
	struct flame_diff *f = ctx;
	double change = f->new_pct[id] - f->old_pct[id];
	unsigned light = f->max_change > 0 ? (unsigned)lround(210.0 * (1.0 - fabs(change) / f->max_change)) : 210;
	if (fabs(change) < 0.005) /* no change at the precision shown: neutral */
		snprintf(fill, len, "rgb(%u,%u,%u)", 235, 235, 235);
	else if (change > 0)
		snprintf(fill, len, "rgb(255,%u,%u)", light, light);
	else
		snprintf(fill, len, "rgb(%u,%u,255)", light, light);
	pv_buf_printf(title, " (old %.2f%%, new %.2f%%, change %+.2f points)", f->old_pct[id], f->new_pct[id],
		      change);
}

PERFEV_API int perfev_export_flame_diff(const struct perfev_profile *old, const struct perfev_profile *new_,
					const struct perfev_export_options *o, FILE *out)
{
	struct pair d;
	int ret = pair_open(&d, old, new_, o, false);
	if (ret == 0) {
		struct flame_diff f = {.d = &d};
		struct pv_flame_hook hook = {.frame = flame_frame, .ctx = &f, .begin = flame_begin};
		struct perfev_export_options fo = d.o;
		if (!o || !PV_OPTS_GET(o, title, NULL))
			fo.title = "Differential Flame Graph";
		ret = pv_export_flame_hooked(d.new_, &fo, &hook, out);
		free(f.old_pct);
		free(f.new_pct);
		free(f.path);
		pv_buf_free(&f.b);
	}
	pair_close(&d);
	return ret;
}
