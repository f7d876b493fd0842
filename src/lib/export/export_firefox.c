/* export_firefox.c — the Firefox Profiler's processed profile format
 * (profiler.firefox.com, "preprocessedProfileVersion" 48): one thread per
 * group of the profile, each with its own string, func, frame and stack
 * tables; presymbolicated, so no symbolication server is ever asked. Columns
 * are built side by side as JSON arrays. */
#define _GNU_SOURCE
#include "export/export_int.h"

#include <stdlib.h>
#include <string.h>

#define FF_PROCESSED_VERSION 48
#define FF_GECKO_VERSION 27

struct col {
	struct pv_buf b;
	size_t n;
};

static void col_sep(struct col *c)
{
	pv_buf_putc(&c->b, c->n++ ? ',' : '[');
}
static void col_int(struct col *c, long long v)
{
	col_sep(c);
	pv_buf_printf(&c->b, "%lld", v);
}
static void col_null(struct col *c)
{
	col_sep(c);
	pv_buf_puts(&c->b, "null");
}
static void col_raw(struct col *c, const char *s)
{
	col_sep(c);
	pv_buf_puts(&c->b, s);
}
static void col_double(struct col *c, double v)
{
	col_sep(c);
	pv_buf_printf(&c->b, "%.6f", v);
}
/* Appends `"name":[...]` (and frees the column). */
static void col_emit(struct pv_buf *out, const char *name, struct col *c)
{
	pv_buf_printf(out, "\"%s\":", name);
	if (!c->n)
		pv_buf_putc(out, '[');
	if (c->b.oom)
		out->oom = true;
	pv_buf_add(out, c->b.data ? c->b.data : "", c->b.len);
	pv_buf_puts(out, "],");
	pv_buf_free(&c->b);
	c->n = 0;
}

struct thr {
	const struct perfev_profile *p;
	struct pv_strtab st;
	struct pv_keymap frames, funcs, resources;
	struct col s_frame, s_cat, s_sub, s_prefix;
	struct col f_addr, f_inl, f_cat, f_sub, f_func, f_nsym, f_win, f_impl, f_line, f_col;
	struct col fn_isjs, fn_rel, fn_name, fn_res, fn_file, fn_line, fn_col;
	struct col r_lib, r_name, r_host, r_type;
	size_t nr_frames, nr_funcs, nr_res;
	bool oom;
};

static long long sidx(struct thr *t, const char *s)
{
	uint32_t id = pv_strtab_intern(&t->st, s ? s : "");
	if (!id)
		t->oom = true;
	return (long long)id - 1; /* stringArray holds ids 1.. at 0.. */
}

static long long resource(struct thr *t, const struct pv_frame *f)
{
	uint32_t r = pv_keymap_get(&t->resources, f->dso);
	if (r)
		return r - 1;
	const char *dso = pv_strtab_get(&t->p->strs, f->dso);
	const char *base = dso ? strrchr(dso, '/') : NULL;
	if (f->map)
		col_int(&t->r_lib, f->map - 1);
	else
		col_null(&t->r_lib);
	col_int(&t->r_name, sidx(t, base ? base + 1 : dso));
	col_null(&t->r_host);
	col_int(&t->r_type, f->map ? 1 : 0); /* 1: library */
	if (pv_keymap_put(&t->resources, f->dso, (uint32_t)++t->nr_res) < 0)
		t->oom = true;
	return (long long)t->nr_res - 1;
}

static long long func(struct thr *t, const struct pv_frame *f)
{
	char addr[32];
	long long name = sidx(t, pv_frame_name(t->p, f, addr, sizeof(addr)));
	long long res = resource(t, f);
	uint64_t key = (uint64_t)name << 32 | (uint32_t)res;
	uint32_t id = pv_keymap_get(&t->funcs, key);
	if (id)
		return id - 1;
	col_raw(&t->fn_isjs, "false");
	col_raw(&t->fn_rel, "false");
	col_int(&t->fn_name, name);
	col_int(&t->fn_res, res);
	const char *file = pv_strtab_get(&t->p->strs, f->file);
	if (file)
		col_int(&t->fn_file, sidx(t, file));
	else
		col_null(&t->fn_file);
	col_null(&t->fn_line);
	col_null(&t->fn_col);
	if (pv_keymap_put(&t->funcs, key, (uint32_t)++t->nr_funcs) < 0)
		t->oom = true;
	return (long long)t->nr_funcs - 1;
}

static long long frame(struct thr *t, uint32_t fid)
{
	uint32_t id = pv_keymap_get(&t->frames, fid);
	if (id)
		return id - 1;
	const struct pv_frame *f = &t->p->frames[fid];
	col_int(&t->f_addr, f->sym || f->rel_ip ? (long long)f->rel_ip : -1);
	col_int(&t->f_inl, f->inlined ? 1 : 0);
	col_int(&t->f_cat, f->kernel ? 1 : 0);
	col_int(&t->f_sub, 0);
	col_int(&t->f_func, func(t, f));
	col_null(&t->f_nsym);
	col_null(&t->f_win);
	col_null(&t->f_impl);
	if (f->line)
		col_int(&t->f_line, f->line);
	else
		col_null(&t->f_line);
	col_null(&t->f_col);
	if (pv_keymap_put(&t->frames, fid, (uint32_t)++t->nr_frames) < 0)
		t->oom = true;
	return (long long)t->nr_frames - 1;
}

static void thread_free(struct thr *t)
{
	struct col *cols[] = {&t->s_frame, &t->s_cat, &t->s_sub, &t->s_prefix, &t->f_addr, &t->f_inl,
			      &t->f_cat, &t->f_sub, &t->f_func, &t->f_nsym, &t->f_win, &t->f_impl,
			      &t->f_line, &t->f_col, &t->fn_isjs, &t->fn_rel, &t->fn_name, &t->fn_res,
			      &t->fn_file, &t->fn_line, &t->fn_col, &t->r_lib, &t->r_name, &t->r_host,
			      &t->r_type};
	for (size_t i = 0; i < PV_ARRAY_SIZE(cols); i++)
		pv_buf_free(&cols[i]->b);
	pv_strtab_free(&t->st);
	pv_keymap_free(&t->frames);
	pv_keymap_free(&t->funcs);
	pv_keymap_free(&t->resources);
}

/* One thread object for group node `gnode`. samples/nsamples: log indices
 * of its samples (NULL: one weighted sample per stack). */
static void write_thread(const struct perfev_profile *p, const struct perfev_export_options *o,
			 uint32_t gnode, const uint32_t *grp, long long *stack_of,
			 const uint32_t *samples, size_t nsamples, uint64_t t0, struct pv_buf *out)
{
	struct thr t;
	memset(&t, 0, sizeof(t));
	t.p = p;
	const struct pv_group *g = &p->groups[p->nodes[gnode].what & ~PV_NODE_GROUP_BIT];
	size_t nstacks = 0;
	/* children have higher ids than their parents: prefixes come first */
	for (uint32_t id = gnode + 1; id < p->nr_nodes; id++) {
		if (grp[id] != gnode)
			continue;
		const struct pv_node *n = &p->nodes[id];
		const struct pv_frame *f = &p->frames[n->what];
		col_int(&t.s_frame, frame(&t, n->what));
		col_int(&t.s_cat, f->kernel ? 1 : 0);
		col_int(&t.s_sub, 0);
		if (n->parent == gnode)
			col_null(&t.s_prefix);
		else
			col_int(&t.s_prefix, stack_of[n->parent]);
		stack_of[id] = (long long)nstacks++;
	}
	struct col sm_stack = {0}, sm_time = {0}, sm_weight = {0};
	if (samples) {
		for (size_t i = 0; i < nsamples; i++) {
			const struct pv_logged_sample *ls = &p->log[samples[i]];
			col_int(&sm_stack, stack_of[ls->node]);
			col_double(&sm_time, ls->time >= t0 ? (double)(ls->time - t0) / 1e6 : 0);
		}
	} else {
		double at = 0;
		for (uint32_t id = gnode + 1; id < p->nr_nodes; id++) {
			if (grp[id] != gnode || !p->nodes[id].self[o->value])
				continue;
			col_int(&sm_stack, stack_of[id]);
			col_double(&sm_time, at);
			col_int(&sm_weight, (long long)p->nodes[id].self[o->value]);
			at += o->interval_ms * (double)p->nodes[id].self[o->value];
		}
	}
	const char *comm = pv_strtab_get(&p->strs, g->comm);
	pv_buf_puts(out, "{\"processType\":\"default\",\"processStartupTime\":0,"
			 "\"processShutdownTime\":null,\"registerTime\":0,\"unregisterTime\":null,"
			 "\"pausedRanges\":[],\"name\":");
	pv_buf_json_str(out, comm ? comm : "all");
	pv_buf_puts(out, ",\"processName\":");
	pv_buf_json_str(out, comm ? comm : "all");
	pv_buf_printf(out, ",\"isMainThread\":%s,\"pid\":\"%d\",\"tid\":%d,",
		      g->pid == g->tid ? "true" : "false", g->pid, g->tid);
	size_t ns = sm_stack.n;
	pv_buf_puts(out, "\"samples\":{");
	col_emit(out, "stack", &sm_stack);
	col_emit(out, "time", &sm_time);
	if (samples)
		pv_buf_puts(out, "\"weight\":null,");
	else
		col_emit(out, "weight", &sm_weight);
	pv_buf_printf(out, "\"weightType\":\"samples\",\"length\":%zu},", ns);
	pv_buf_puts(out, "\"markers\":{\"data\":[],\"name\":[],\"startTime\":[],\"endTime\":[],"
			 "\"phase\":[],\"category\":[],\"length\":0},");
	pv_buf_puts(out, "\"stackTable\":{");
	col_emit(out, "frame", &t.s_frame);
	col_emit(out, "category", &t.s_cat);
	col_emit(out, "subcategory", &t.s_sub);
	col_emit(out, "prefix", &t.s_prefix);
	pv_buf_printf(out, "\"length\":%zu},\"frameTable\":{", nstacks);
	col_emit(out, "address", &t.f_addr);
	col_emit(out, "inlineDepth", &t.f_inl);
	col_emit(out, "category", &t.f_cat);
	col_emit(out, "subcategory", &t.f_sub);
	col_emit(out, "func", &t.f_func);
	col_emit(out, "nativeSymbol", &t.f_nsym);
	col_emit(out, "innerWindowID", &t.f_win);
	col_emit(out, "implementation", &t.f_impl);
	col_emit(out, "line", &t.f_line);
	col_emit(out, "column", &t.f_col);
	pv_buf_printf(out, "\"length\":%zu},\"funcTable\":{", t.nr_frames);
	col_emit(out, "isJS", &t.fn_isjs);
	col_emit(out, "relevantForJS", &t.fn_rel);
	col_emit(out, "name", &t.fn_name);
	col_emit(out, "resource", &t.fn_res);
	col_emit(out, "fileName", &t.fn_file);
	col_emit(out, "lineNumber", &t.fn_line);
	col_emit(out, "columnNumber", &t.fn_col);
	pv_buf_printf(out, "\"length\":%zu},\"resourceTable\":{", t.nr_funcs);
	col_emit(out, "lib", &t.r_lib);
	col_emit(out, "name", &t.r_name);
	col_emit(out, "host", &t.r_host);
	col_emit(out, "type", &t.r_type);
	pv_buf_printf(out, "\"length\":%zu},\"nativeSymbols\":{\"libIndex\":[],\"address\":[],"
			   "\"name\":[],\"functionSize\":[],\"length\":0},\"stringArray\":[",
		      t.nr_res);
	for (size_t i = 1; i < t.st.nr; i++) {
		if (i > 1)
			pv_buf_putc(out, ',');
		pv_buf_json_str(out, t.st.strs[i]);
	}
	pv_buf_puts(out, "]}");
	if (t.oom)
		out->oom = true;
	thread_free(&t);
}

struct sort_ctx {
	const struct perfev_profile *p;
	const uint32_t *grp;
};
static int by_group_time(const void *a, const void *b, void *arg)
{
	const struct sort_ctx *c = arg;
	const struct pv_logged_sample *x = &c->p->log[*(const uint32_t *)a];
	const struct pv_logged_sample *y = &c->p->log[*(const uint32_t *)b];
	uint32_t gx = c->grp[x->node], gy = c->grp[y->node];
	if (gx != gy)
		return gx < gy ? -1 : 1;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return *(const uint32_t *)a < *(const uint32_t *)b ? -1 : 1;
}

PERFEV_API int perfev_export_firefox(const struct perfev_profile *p0,
				     const struct perfev_export_options *o0, FILE *out)
{
	struct perfev_export_options o;
	if (pv_export_options(o0, &o) < 0)
		return -EINVAL;
	struct perfev_profile *owned;
	const struct perfev_profile *p = pv_export_view(p0, -1, &owned);
	if (!p)
		return -ENOMEM;
	struct pv_buf b = PV_BUF_INIT;
	uint32_t *grp = malloc(p->nr_nodes * sizeof(*grp));
	long long *stack_of = malloc(p->nr_nodes * sizeof(*stack_of));
	uint32_t *order = NULL, *start = NULL;
	if (!grp || !stack_of) {
		b.oom = true;
		goto done;
	}
	grp[0] = 0;
	for (uint32_t id = 1; id < p->nr_nodes; id++)
		grp[id] = pv_node_is_group(&p->nodes[id]) ? id : grp[p->nodes[id].parent];
	/* the sample log, bucketed by thread (counting sort on the group node) */
	bool logged = p->nr_log > 0;
	uint64_t t0 = 0;
	if (logged) {
		order = malloc(p->nr_log * sizeof(*order));
		start = calloc(p->nr_nodes + 1, sizeof(*start));
		if (!order || !start) {
			b.oom = true;
			goto done;
		}
		t0 = p->log[0].time;
		for (size_t i = 0; i < p->nr_log; i++) {
			start[grp[p->log[i].node] + 1]++;
			if (p->log[i].time && (p->log[i].time < t0 || !t0))
				t0 = p->log[i].time;
		}
		for (size_t i = 1; i <= p->nr_nodes; i++)
			start[i] += start[i - 1];
		for (size_t i = 0; i < p->nr_log; i++)
			order[start[grp[p->log[i].node]]++] = (uint32_t)i;
		/* start[g] is now the end of g's bucket (and the beginning of the
		 * next); the profiler wants each thread's samples in time order */
		qsort_r(order, p->nr_log, sizeof(*order), by_group_time, (void *)&(struct sort_ctx){p, grp});
	}
	pv_buf_printf(&b, "{\"meta\":{\"interval\":%g,\"startTime\":%.3f,\"processType\":0,"
			  "\"product\":", o.interval_ms, (double)o.time_nanos / 1e6);
	pv_buf_json_str(&b, o.product);
	pv_buf_printf(&b, ",\"stackwalk\":1,\"debug\":false,\"version\":%d,"
			  "\"preprocessedProfileVersion\":%d,\"symbolicated\":true,\"platform\":\"Linux\","
			  "\"markerSchema\":[],\"categories\":["
			  "{\"name\":\"User\",\"color\":\"yellow\",\"subcategories\":[\"Other\"]},"
			  "{\"name\":\"Kernel\",\"color\":\"orange\",\"subcategories\":[\"Other\"]}]},",
		      FF_GECKO_VERSION, FF_PROCESSED_VERSION);
	pv_buf_puts(&b, "\"libs\":[");
	for (size_t i = 0; i < p->nr_maps; i++) {
		const struct pv_pmap *m = &p->maps[i];
		const char *path = pv_strtab_get(&p->strs, m->path);
		const char *base = strrchr(path, '/');
		base = base ? base + 1 : path;
		char id[2 * PERFEV_BUILD_ID_MAX + 2] = "";
		for (size_t k = 0; k < m->build_id_len; k++)
			snprintf(id + 2 * k, 3, "%02X", m->build_id[k]);
		pv_buf_puts(&b, i ? ",{\"name\":" : "{\"name\":");
		pv_buf_json_str(&b, base);
		pv_buf_puts(&b, ",\"path\":");
		pv_buf_json_str(&b, path);
		pv_buf_puts(&b, ",\"debugName\":");
		pv_buf_json_str(&b, base);
		pv_buf_puts(&b, ",\"debugPath\":");
		pv_buf_json_str(&b, path);
		pv_buf_printf(&b, ",\"breakpadId\":\"%s%s\",\"codeId\":null,\"arch\":\"\","
				  "\"start\":%llu,\"end\":%llu,\"offset\":%llu}",
			      id, *id ? "0" : "", (unsigned long long)m->start,
			      (unsigned long long)m->end, (unsigned long long)m->pgoff);
	}
	pv_buf_puts(&b, "],\"threads\":[");
	bool first = true;
	for (uint32_t gi = p->nodes[0].first_child; gi; gi = p->nodes[gi].next_sibling) {
		if (!first)
			pv_buf_putc(&b, ',');
		first = false;
		const uint32_t *smp = NULL;
		size_t ns = 0;
		if (logged) {
			size_t end = start[gi], beg = gi ? start[gi - 1] : 0;
			smp = order + beg;
			ns = end - beg;
		}
		write_thread(p, &o, gi, grp, stack_of, logged ? smp : NULL, ns, t0, &b);
	}
	pv_buf_puts(&b, "]}\n");
done:
	free(grp);
	free(stack_of);
	free(order);
	free(start);
	perfev_profile_free(owned);
	return pv_export_write(&b, out, "Firefox Profiler");
}
