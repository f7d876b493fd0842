/* profile_load.c — perf.data (or records fed one at a time) to profile.
 * Every record goes to the resolver (resolve.c: threads, maps); samples of
 * the chosen event become stacks of frame ids the resolver interns into
 * the loader's profile, so a frame seen in many samples is resolved and
 * interned once; they are filtered, counted and added to the tree here. */
#define _GNU_SOURCE
#include "profile/profile_int.h"
#include "profile/profile_load_int.h"
#include "profile/resolve_int.h"
#include "perfdata/perfdata_int.h"
#include "core/opts.h"
#include "perfev.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

/* The group of a profile's previous sample: consecutive samples of a
 * thread (and process: old files give one tid two pids, swapper) under one
 * name on one CPU share it. */
struct group_cache {
	uint32_t tid, group; /* group 0: none yet */
	int32_t pid, cpu;
	const char *comm;    /* NULL after a COMM record: names changed */
};

/* One event's profile when every event is read: its frame ids are the
 * shared table's (the loader's p) translated through x (0: not yet). */
struct evp {
	struct perfev_profile *p;
	uint32_t *x;
	size_t xcap;
	uint64_t samples;
	struct group_cache last;
};

struct loader {
	const struct perfev_profile_load_opts *o;
	int vmlinux_fd;      /* o->vmlinux's symbols as kallsyms (pv_vmlinux_kallsyms); -1: none */
	char vmlinux_kallsyms[32]; /* its path, /proc/self/fd/N */
	struct pv_time_range *times; /* o->time parsed */
	size_t nr_times;
	bool aux_seen;       /* the file holds a hardware trace (AUXTRACE_INFO, AUXTRACE), undecoded */
	uint64_t aux_bytes;  /* its size */
	uint32_t aux_type;   /* its AUXTRACE_INFO type */
	struct perfev_profile_load_info *info;
	struct perfev_profile *p;
	struct perfev_perfdata *pd;
	struct perfev_resolver *res; /* frames into p (the shared table when every event is read) */
	struct perfev_session *sess; /* the resolver's */
	int event;
	bool oom;
	struct group_cache last; /* of the single profile (p) */
	bool all;        /* every event: evs[attr_idx], p only holds the frames */
	struct evp *evs;
	size_t nevs;
	pv_load_sample_fn sample_fn; /* set: samples go there instead (branch tables) */
	void *sample_ctx;
	/* a builder's (perfev_profile_builder_new): its own options, what it
	 * read, and without a recording the events it was given */
	struct perfev_profile_load_opts own_o;
	struct perfev_profile_load_info own_info;
	bool finished;
	const char *name; /* the recording, in messages */
	struct own_event { struct perfev_attr attr; char *name; } *own_ev;
	size_t nr_own_ev, cap_own_ev;
	uint64_t t_first, t_last, n_timed; /* the event's sample times (info's interval_ms) */
	uint64_t nr_records; /* read so far: o->progress every 16384 */
};

/* The recording's events: the file's, else those given to the builder. */
static size_t nr_events(const struct loader *l)
{
	return l->pd ? perfev_perfdata_nr_events(l->pd) : l->nr_own_ev;
}

static const struct perfev_attr *event_attr(const struct loader *l, size_t i)
{
	if (l->pd)
		return perfev_perfdata_event_attr(l->pd, i);
	return i < l->nr_own_ev ? &l->own_ev[i].attr : NULL;
}

static const char *event_name(const struct loader *l, size_t i)
{
	if (l->pd)
		return perfev_perfdata_event_name(l->pd, i);
	return i < l->nr_own_ev ? l->own_ev[i].name : NULL;
}

static int add_own_event(struct loader *l, const struct perfev_attr *attr, const char *name)
{
	if (pv_grow(&l->own_ev, &l->cap_own_ev, l->nr_own_ev + 1, sizeof(*l->own_ev)) < 0)
		return -ENOMEM;
	struct own_event *e = &l->own_ev[l->nr_own_ev];
	memset(e, 0, sizeof(*e));
	/* (a caller's attr may be older and shorter than ours) */
	memcpy(&e->attr, attr, attr->size && attr->size < sizeof(e->attr) ? attr->size : sizeof(e->attr));
	char buf[128];
	if (!name && perfev_attr_name(&e->attr, buf, sizeof(buf)) >= 0)
		name = buf;
	if (name && !(e->name = strdup(name)))
		return -ENOMEM;
	return (int)l->nr_own_ev++;
}

static struct evp *evp_for(struct loader *l, size_t idx)
{
	if (idx > 4096)
		return NULL; /* a corrupt attr index: perf files have a handful of events */
	if (idx >= l->nevs) {
		struct evp *n = realloc(l->evs, (idx + 1) * sizeof(*n));
		if (!n)
			return NULL;
		memset(n + l->nevs, 0, (idx + 1 - l->nevs) * sizeof(*n));
		l->evs = n;
		l->nevs = idx + 1;
	}
	struct evp *e = &l->evs[idx];
	if (!e->p) {
		e->p = perfev_profile_new(l->o->group, l->o->flags);
		if (e->p)
			perfev_profile_set_time_quantum(e->p, l->o->time_quantum);
		if (!e->p || (l->o->filter && perfev_profile_set_filter(e->p, l->o->filter) < 0))
			return NULL;
	}
	return e;
}

/* The stack's shared frame ids as e's own. */
static int translate(struct loader *l, struct evp *e, uint32_t *ids, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		uint32_t id = ids[i];
		if (id >= e->xcap) {
			size_t old = e->xcap;
			if (pv_grow(&e->x, &e->xcap, (size_t)id + 1, sizeof(*e->x)) < 0)
				return -ENOMEM;
			memset(e->x + old, 0, (e->xcap - old) * sizeof(*e->x));
		}
		if (!e->x[id] && pv_profile_copy_frame(e->p, l->p, id, &e->x[id]) < 0)
			return -ENOMEM;
		ids[i] = e->x[id];
	}
	return 0;
}

/* What the loader itself takes from side-band records (the resolver has the maps). */
static void side_band(struct loader *l, const struct perfev_record *rec)
{
	switch (rec->type) {
	case PERF_RECORD_COMM: /* names changed: the groups' cache goes */
		l->last.comm = NULL;
		for (size_t i = 0; i < l->nevs; i++)
			l->evs[i].last.comm = NULL;
		break;
	case PERF_RECORD_LOST:
		l->info->lost += rec->u.lost.lost;
		break;
	case PERF_RECORD_LOST_SAMPLES:
		l->info->lost_samples += rec->u.lost_samples.lost;
		break;
	case PERFEV_RECORD_AUXTRACE_INFO:
		l->aux_type = rec->u.auxtrace_info.type;
		l->aux_seen = true;
		break;
	case PERFEV_RECORD_AUXTRACE:
		l->aux_bytes += rec->u.auxtrace.size;
		l->aux_seen = true;
		break;
	}
}

/* A hardware trace (Intel PT, CoreSight...) is not decoded here: say that
 * the report holds the sampled events only, and what decodes it. */
static void aux_note(const struct loader *l, const char *path)
{
	static const char *const kinds[] = {"hardware", "Intel PT", "Intel BTS", "CoreSight ETM", "Arm SPE",
					    "s390 CPU-MSF", "HiSilicon PTT"};
	if (!l->aux_seen)
		return;
	const char *kind = l->aux_type < PV_ARRAY_SIZE(kinds) ? kinds[l->aux_type] : kinds[0];
	pv_note("%s holds %.1f MB of %s trace, which perfev does not decode: this report "
		"shows the sampled events only (perf report and perf script decode it, given the traced binaries)",
		path, (double)l->aux_bytes / 1048576.0, kind);
}

/* The sample's stack (ids[0..depth), leaf first) with its values into
 * its event's profile (ep, else l->p): the filter, the thread's group, the
 * tree. 0 or -ENOMEM. */
static int add_stack(struct loader *l, struct evp *ep, const struct perfev_sample_desc *d, uint32_t *ids,
		     size_t depth, const uint64_t values[PERFEV_VALUE_NR])
{
	struct perfev_profile *p = ep ? ep->p : l->p;
	if (p->has_filter) {
		/* filters see the frames by value: expand ids back (filtered runs only) */
		struct perfev_profile_frame *fr = calloc(depth, sizeof(*fr));
		if (!fr)
			return -ENOMEM;
		for (size_t i = 0; i < depth; i++)
			pv_frame_public(l->p, &l->p->frames[ids[i]], &fr[i]);
		bool ok = pv_profile_accepts(p, d, fr, depth, values);
		free(fr);
		if (!ok)
			return 0;
	}
	if (ep && translate(l, ep, ids, depth) < 0)
		return -ENOMEM;
	struct group_cache *c = ep ? &ep->last : &l->last;
	uint32_t tid = (uint32_t)d->tid;
	if (tid != c->tid || d->pid != c->pid || d->comm != c->comm || d->cpu != c->cpu || !c->group ||
	    (p->flags & PV_PROFILE_SAMPLE_KEYS)) {
		if (pv_profile_group_id(p, d, &c->group) < 0)
			return -ENOMEM;
		c->tid = tid;
		c->pid = d->pid;
		c->comm = d->comm;
		c->cpu = d->cpu;
	}
	return pv_profile_add_ids(p, c->group, ids, depth, values, d->time,
				  p->flags & PERFEV_PROFILE_KEEP_SAMPLES) < 0 ? -ENOMEM : 0;
}

/* PERFEV_PROFILE_BRANCH_TARGETS: every branch of the sample's stack a
 * sample of value 1 (perf's pseudo period), its frame the target as perf's
 * iter_next_branch_entry makes the entry's: map and symbol the target's
 * (machine__resolve_bstack: the process's maps, then the kernel's), address
 * the target's as recorded, level the sample's. */
static int branch_targets(struct loader *l, struct evp *ep, const struct perfev_sample *s,
			  const struct perfev_sample_desc *d, bool kernel_ip)
{
	if (!(s->sample_type & PERF_SAMPLE_BRANCH_STACK))
		return 0;
	for (uint64_t i = 0; i < s->branch_nr; i++) {
		uint64_t to = s->branches[i].to, symoff;
		struct perfev_profile_frame f;
		char level;
		uint32_t id;
		if (pv_resolver_addr(l->res, d->pid, (uint32_t)d->tid, to, s->time, &f, &level, &symoff) < 0)
			return -ENOMEM;
		f.kernel = kernel_ip;
		if (!f.dso)
			f.dso = "[unknown]";
		if (!f.symbol)
			f.ip = f.rel_ip = to; /* perf: al->addr, the address as recorded */
		if (pv_profile_intern_frame(l->p, &f, &id) < 0)
			return -ENOMEM;
		if (ep)
			ep->samples++;
		if (l->info)
			l->info->samples++;
		uint64_t cycles = s->branches[0].flags >> 4 & 0xffff; /* perf: the first branch's */
		uint64_t values[PERFEV_VALUE_NR] = {1, 1, cycles ? cycles : 1};
		if (add_stack(l, ep, d, &id, 1, values) < 0)
			return -ENOMEM;
	}
	return 0;
}

static int sample(struct loader *l, const struct perfev_record *rec)
{
	const struct perfev_sample *s = &rec->u.sample;
	struct evp *ep = NULL;
	if (l->sample_fn)
		return l->sample_fn(l->sample_ctx, l, rec, pv_resolver_sample_pid(l->res, s));
	if (l->o->cpus && !perfev_cpus_has(l->o->cpus, (int)s->cpu))
		return 0; /* perf report -C: as if never recorded */
	if (l->nr_times && !pv_time_ranges_have(l->times, l->nr_times, s->time))
		return 0; /* perf report --time: so too */
	if (l->all) {
		if (!(ep = evp_for(l, rec->attr_idx)))
			return -ENOMEM;
	} else if (rec->attr_idx != l->event) {
		if (l->info)
			l->info->other_samples++;
		return 0;
	}
	if (!l->all && (s->sample_type & PERF_SAMPLE_TIME)) {
		if (!l->n_timed++ || s->time < l->t_first)
			l->t_first = s->time;
		l->t_last = PV_MAX(l->t_last, s->time);
	}
	uint8_t cpumode = rec->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	bool kernel_ip = cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL;
	int32_t pid = pv_resolver_sample_pid(l->res, s);
	const char *comm = perfev_session_comm(l->sess, s->tid);
	struct perfev_sample_desc d = {.sz = sizeof(d), .pid = pid, .tid = (int32_t)s->tid,
				       .comm = comm, .time = s->time, .period = s->period,
				       .weight = s->weight,
				       .cpu = -1, .ip = s->ip};
	if (s->sample_type & PERF_SAMPLE_WEIGHT_STRUCT) {
		/* perf (x86): var1_dw the weight, var2_w the instruction latency;
		 * var3_w is powerpc's pipeline stage cycles */
		d.weight = s->weight & 0xffffffffu;
		d.ins_lat = (s->weight >> 32) & 0xffff;
		d.p_stage_cyc = s->weight >> 48;
	}
	/* (only when kept: else the group cache below never misses for it) */
	if ((l->o->flags & PERFEV_PROFILE_KEEP_CPU) && (s->sample_type & PERF_SAMPLE_CPU))
		d.cpu = (int32_t)s->cpu;
	if (l->o->flags & PERFEV_PROFILE_BRANCH_TARGETS) /* (its branches are the samples) */
		return branch_targets(l, ep, s, &d, kernel_ip);
	struct pv_stack st;
	if (pv_resolver_stack(l->res, rec, pid, &st) < 0)
		return -ENOMEM;
	if (st.dwarf) {
		l->info->dwarf_samples++;
		l->info->dwarf_to_root += st.to_root;
	}
	uint32_t *stack = st.ids;
	size_t depth = st.depth;
	if (l->o->hide_unresolved) { /* perf's -U */
		if (!l->p->frames[stack[0]].sym)
			return 0; /* as if never recorded */
		size_t kept = 0;
		for (size_t i = 0; i < depth; i++)
			if (l->p->frames[stack[i]].sym)
				stack[kept++] = stack[i];
		depth = kept;
	}
	if (ep)
		ep->samples++;
	if (l->info)
		l->info->samples++;
	if (st.unmapped && pv_resolver_unmapped_levels(l->res, kernel_ip, depth, l->o->unmapped_levels_callee) < 0)
		return -ENOMEM;
	/* the sampled address under a caller-order cut: its frames (the leaf's
	 * span) are the sample's own entry, outside its call chain */
	for (uint32_t i = 0; st.cut && i < st.leaf_n; i++)
		if (pv_profile_frame_cut(l->p, stack[i], &stack[i]) < 0)
			return -ENOMEM;
	uint64_t period = s->period;
	if (!(s->sample_type & PERF_SAMPLE_PERIOD)) {
		/* a fixed period not in the samples: perf takes the attr's */
		const struct perfev_attr *attr = event_attr(l, rec->attr_idx);
		if (attr && !attr->freq)
			period = attr->sample_period;
	}
	uint64_t values[PERFEV_VALUE_NR] = {1, period ? period : 1, d.weight};
	struct perfev_mem_access mem;
	if (l->o->flags & PERFEV_PROFILE_KEEP_MEM) {
		pv_resolver_mem_access(l->res, s, pid, cpumode, &mem);
		d.mem = &mem;
		values[PERFEV_VALUE_WEIGHT] = d.weight ? d.weight : 1; /* perf --mem-mode's cost */
	}
	return add_stack(l, ep, &d, stack, depth, values);
}

static int on_record(void *ctx, const struct perfev_record *rec)
{
	struct loader *l = ctx;
	if (l->o->progress && l->pd && !(++l->nr_records & 16383)) {
		uint64_t done, total;
		pv_perfdata_progress(l->pd, &done, &total);
		l->o->progress(l->o->progress_ctx, done, total);
	}
	if (pv_resolver_record(l->res, rec) < 0)
		return -ENOMEM;
	if (rec->type == PERF_RECORD_SAMPLE) {
		int r = sample(l, rec);
		return r || !l->o->on_record ? r : l->o->on_record(l->o->on_record_ctx, rec);
	}
	/* a stream without a recording announces its events itself */
	if (rec->type == PERFEV_RECORD_HEADER_ATTR && !l->pd && rec->u.header_attr.attr &&
	    add_own_event(l, rec->u.header_attr.attr, NULL) < 0)
		return -ENOMEM;
	side_band(l, rec);
	return l->o->on_record ? l->o->on_record(l->o->on_record_ctx, rec) : 0;
}

static void no_event(const char *path, int event, size_t nev)
{
	if (!nev)
		pv_error(EINVAL, "%s: no events recorded (an empty or truncated recording?)", path);
	else
		pv_error(EINVAL, "%s: no event %d (the file has %zu; choose one with --event 0..%zu)", path,
			 event, nev, nev - 1);
}

/* What info says about the event (once its attr is known). */
static void event_info(struct loader *l)
{
	if (!l->info || l->info->event_name[0] || (size_t)l->event >= nr_events(l))
		return;
	const struct perfev_attr *attr = event_attr(l, (size_t)l->event);
	l->info->has_callchains = attr && (attr->sample_type & (PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_STACK_USER));
	const char *name = event_name(l, (size_t)l->event);
	snprintf(l->info->event_name, sizeof(l->info->event_name), "%s", name ? name : "unknown");
}

/* GROUP_DESC: u32 nr, then per group: string name, u32 leader, u32 members.
 * Marks each event's leader; a malformed section is ignored. */
static uint32_t rd32(const uint8_t *p, bool swap)
{
	uint32_t v;
	memcpy(&v, p, 4);
	return swap ? __builtin_bswap32(v) : v;
}

/* Every event its own group's leader. */
static void group_desc_none(struct perfev_profile_event *ev, size_t nev)
{
	for (size_t i = 0; i < nev; i++) {
		ev[i].leader = (int)i;
		ev[i].nr_members = 1;
	}
}

static void group_desc(struct perfev_perfdata *pd, struct perfev_profile_event *ev, size_t nev)
{
	group_desc_none(ev, nev);
	size_t size = 0;
	const uint8_t *p = perfev_perfdata_has_feature(pd, PERFEV_FEAT_GROUP_DESC)
				   ? perfev_perfdata_feature(pd, PERFEV_FEAT_GROUP_DESC, &size) : NULL;
	bool swap = perfev_perfdata_is_swapped(pd);
	if (!p || size < 4)
		return;
	const uint8_t *end = p + size;
	uint32_t nr = rd32(p, swap);
	p += 4;
	for (uint32_t g = 0; g < nr && end - p >= 4; g++) {
		uint32_t len = rd32(p, swap);
		p += 4;
		if (len > (size_t)(end - p) || end - p - len < 8)
			return;
		const char *name = (const char *)p;
		p += len;
		uint32_t leader = rd32(p, swap), members = rd32(p + 4, swap);
		p += 8;
		if (leader >= nev || members < 1 || members > nev - leader)
			continue;
		ev[leader].nr_members = (int)members;
		size_t nl = strnlen(name, len);
		if (nl && strncmp(name, "{anon_group}", nl) != 0)
			snprintf(ev[leader].group_name, sizeof(ev[leader].group_name), "%.*s", (int)nl, name);
		for (uint32_t m = 1; m < members; m++) {
			ev[leader + m].leader = (int)leader;
			ev[leader + m].nr_members = 0;
		}
	}
}

/* Each group's thread's name at the end of the file: perf sizes the Command
 * column by it (thread__comm_len), e.g. "bash" for a thread whose samples
 * were taken as "pyenv-version-f" before the script's interpreter's exec. */
static void thread_comms(struct loader *l, struct perfev_profile *p)
{
	for (size_t i = 1; p && i < p->nr_groups; i++) {
		struct pv_group *g = &p->groups[i];
		const char *c = g->tid >= 0 ? perfev_session_comm(l->sess, (uint32_t)g->tid) : NULL;
		g->thread_comm = c ? pv_strtab_intern(&p->strs, c) : 0;
		c = g->pid >= 0 ? perfev_session_comm(l->sess, (uint32_t)g->pid) : NULL;
		g->process_comm = c ? pv_strtab_intern(&p->strs, c) : 0;
	}
}

/* The file's socket of each CPU, for every profile (after the records: a
 * pipe's features come as records). 0 or -ENOMEM. */
static int cpu_sockets(struct loader *l)
{
	int n = l->pd ? perfev_perfdata_cpu_sockets(l->pd, NULL, 0) : 0;
	if (n <= 0)
		return 0;
	int32_t *t = malloc((size_t)n * sizeof(*t));
	if (!t)
		return -ENOMEM;
	perfev_perfdata_cpu_sockets(l->pd, t, (size_t)n);
	int r = perfev_profile_set_sockets(l->p, t, (size_t)n);
	for (size_t i = 0; r == 0 && i < l->nevs; i++) /* (events without samples have none yet) */
		r = l->evs[i].p ? perfev_profile_set_sockets(l->evs[i].p, t, (size_t)n) : 0;
	free(t);
	return r;
}


/* Readies l for records of pd (NULL: records alone, events given to the
 * builder or announced by HEADER_ATTR records), named `name` in messages.
 * 0 or -1 with the error set. */
/* perf's -k: o->vmlinux's symbols as the kallsyms the resolver reads. 0 or -1. */
static int load_vmlinux(struct loader *l, struct perfev_perfdata *pd, const char **kallsyms)
{
	return pv_vmlinux_kallsyms_for(pd, l->o->vmlinux, &l->vmlinux_fd, l->vmlinux_kallsyms,
				       sizeof(l->vmlinux_kallsyms), kallsyms);
}

static int loader_begin(struct loader *l, struct perfev_perfdata *pd, const char *name)
{
	const struct perfev_profile_load_opts *o = l->o;
	l->pd = pd;
	l->name = name;
	size_t nev = nr_events(l);
	l->event = o->event < 0 || l->all ? 0 : o->event;
	/* a pipe (and a live stream) announces its events as records: check them once read */
	if (pd && !perfev_perfdata_is_pipe(pd) && (!nev || (size_t)l->event >= nev)) {
		no_event(name, l->event, nev);
		return -1;
	}
	event_info(l);
	if (pd && o->cpus && pv_perfdata_check_cpu_filter(pd, name, o->cpus) < 0)
		return -1;
	if (o->time && pv_time_ranges_parse(o->time, &l->times, &l->nr_times) < 0)
		return -1;
	l->p = perfev_profile_new(o->group, o->flags);
	if (l->p)
		perfev_profile_set_time_quantum(l->p, o->time_quantum);
	const char *kallsyms = o->kallsyms;
	if (o->vmlinux && load_vmlinux(l, pd, &kallsyms) < 0)
		return -1;
	struct perfev_resolver_opts ro = {
		.sz = sizeof(ro), .symfs = o->symfs, .kallsyms = kallsyms, .no_cache = o->no_cache,
		.no_inline = o->no_inline, .inline_dwarf_only = o->inline_dwarf_only, .srclines = o->srclines,
		.no_demangle = o->no_demangle, .demangle_params = o->demangle_params,
		.no_callchain = o->no_callchain, .max_stack_outer = o->max_stack_outer, .max_stack = o->max_stack,
	};
	if (!l->p) {
		pv_error(ENOMEM, "profile_load: out of memory");
		return -1;
	}
	if (!(l->res = pv_resolver_new(&ro, l->p)))
		return -1; /* its message */
	l->sess = perfev_resolver_session(l->res);
	if (o->flags & PERFEV_PROFILE_KEEP_ADDR)
		pv_resolver_keep_maps(l->res);
	/* Another kernel's recording: its addresses are not this kernel's, unless
	 * the caller hands us that kernel's kallsyms. (Records without a
	 * recording are this kernel's.) */
	if (pd && pv_resolver_use_perfdata(l->res, pd)) {
		const char *rel = perfev_perfdata_feature_str(pd, PERFEV_FEAT_OSRELEASE);
		pv_note("%s was recorded on another kernel (%s): kernel addresses stay unresolved; give "
			"that kernel's symbols with --kallsyms FILE", name,
			rel ? rel : "its build-id differs from this one's");
	}
	if (!l->all && o->filter && perfev_profile_set_filter(l->p, o->filter) < 0)
		return -1;
	return 0;
}

/* After the last record: names, sockets, the event's check. 0 or -1 with the error set. */
static int loader_end(struct loader *l)
{
	aux_note(l, l->name);
	thread_comms(l, l->p);
	for (size_t i = 0; i < l->nevs; i++)
		thread_comms(l, l->evs[i].p);
	if ((l->o->flags & PERFEV_PROFILE_KEEP_CPU) && cpu_sockets(l) < 0) {
		pv_error(ENOMEM, "profile_load: out of memory reading %s", l->name);
		return -1;
	}
	size_t nev = nr_events(l);
	if ((size_t)l->event >= nev) {
		no_event(l->name, l->event, nev);
		return -1;
	}
	event_info(l);
	return 0;
}

/* Reads the recording into l (l->all: every event, else l->event). 0 or -1 with the error set. */
static int load(struct loader *l, struct perfev_perfdata *pd)
{
	const char *path = perfev_perfdata_path(pd);
	if (loader_begin(l, pd, path) < 0)
		return -1;
	struct perfev_perfdata_read_opts ro = {.sz = sizeof(ro), .keep_going = true};
	int r = perfev_perfdata_process(l->pd, &ro, on_record, l);
	if (r == -ENOMEM || l->oom) {
		pv_error(ENOMEM, "profile_load: out of memory reading %s", path);
		return -1;
	}
	if (r < 0) {
		errno = -r;
		return -1; /* the reader's message (or on_record's) */
	}
	if (l->o->progress) {
		uint64_t done, total;
		pv_perfdata_progress(l->pd, &done, &total);
		l->o->progress(l->o->progress_ctx, total ? total : done, total);
	}
	return loader_end(l);
}

static void loader_free(struct loader *l)
{
	if (l->vmlinux_fd >= 0)
		close(l->vmlinux_fd);
	l->vmlinux_fd = -1;
	perfev_resolver_free(l->res); /* (before p: its table) */
	perfev_profile_free(l->p);
	free(l->times);
	for (size_t i = 0; i < l->nevs; i++) {
		perfev_profile_free(l->evs[i].p);
		free(l->evs[i].x);
	}
	free(l->evs);
	for (size_t i = 0; i < l->nr_own_ev; i++)
		free(l->own_ev[i].name);
	free(l->own_ev);
}

/* The event's sampling interval in ms (perfev_profile_load_info.interval_ms). */
static double interval_ms(const struct loader *l)
{
	const struct perfev_attr *a = l->event >= 0 && (size_t)l->event < nr_events(l) ? event_attr(l, (size_t)l->event)
										   : NULL;
	if (a && a->freq && a->sample_freq)
		return 1000.0 / (double)a->sample_freq;
	if (a && !a->freq && a->sample_period && a->type == PERF_TYPE_SOFTWARE &&
	    (a->config == PERF_COUNT_SW_CPU_CLOCK || a->config == PERF_COUNT_SW_TASK_CLOCK))
		return (double)a->sample_period / 1e6; /* (ns) */
	if (l->n_timed > 1 && l->t_last > l->t_first)
		return (double)(l->t_last - l->t_first) / 1e6 / (double)(l->n_timed - 1);
	return 0;
}

/* What the loader read, into the caller's info (of its size; may be NULL). */
static void info_out(struct loader *l, struct perfev_profile_load_info *info)
{
	if (!info)
		return;
	l->own_info.interval_ms = interval_ms(l);
	size_t sz = info->sz;
	memcpy(info, &l->own_info, PV_MIN(sz, sizeof(*info)));
	info->sz = sz;
}

static int opts_init(struct perfev_profile_load_opts *o, const struct perfev_profile_load_opts *o0)
{
	if (!PV_OPTS_VALID(o0, perfev_profile_load_opts))
		return -EINVAL;
	PV_OPTS_COPY(*o, o0);
	o->event = PV_OPTS_GET(o0, event, -1);
	if (o->max_stack == 0) /* perf report's default: its report.max_stack = PERF_MAX_STACK_DEPTH */
		o->max_stack = 127;
	return 0;
}

/* A loader on the heap (its frame arrays are large) with its own options and
 * info; info (the caller's, may be NULL) must be one this library can fill. */
static struct loader *loader_new(const struct perfev_profile_load_opts *o0, bool all,
				 const struct perfev_profile_load_info *info)
{
	if (!PV_OPTS_VALID(info, perfev_profile_load_info))
		return NULL;
	struct loader *l = calloc(1, sizeof(*l));
	if (!l)
		return pv_error_null(ENOMEM, "profile_load: out of memory");
	if (opts_init(&l->own_o, o0) < 0) {
		free(l);
		return NULL;
	}
	l->o = &l->own_o;
	l->vmlinux_fd = -1;
	l->own_info.sz = sizeof(l->own_info);
	l->info = &l->own_info;
	l->all = all;
	return l;
}

static void loader_destroy(struct loader *l)
{
	if (!l)
		return;
	int err = errno;
	loader_free(l);
	free(l);
	errno = err;
}

/* The profile built (the loader gives it up). */
static struct perfev_profile *take_profile(struct loader *l, struct perfev_profile_load_info *info)
{
	info_out(l, info);
	struct perfev_profile *p = l->p;
	l->p = NULL;
	return p;
}

PERFEV_API struct perfev_profile *perfev_profile_load(const char *path,
						      const struct perfev_profile_load_opts *o,
						      struct perfev_profile_load_info *info)
{
	struct perfev_perfdata *pd = perfev_perfdata_open(path);
	if (!pd)
		return NULL; /* its message says what is wrong with the file */
	struct perfev_profile *p = perfev_profile_load_from(pd, o, info);
	pv_close_keep_errno(pd);
	return p;
}

PERFEV_API struct perfev_profile *perfev_profile_load_from(struct perfev_perfdata *pd,
							   const struct perfev_profile_load_opts *o0,
							   struct perfev_profile_load_info *info)
{
	struct loader *l = loader_new(o0, false, info);
	if (!l)
		return NULL;
	info_out(l, info); /* (zeroed, whatever happens next) */
	struct perfev_profile *ret = load(l, pd) == 0 ? take_profile(l, info) : NULL;
	loader_destroy(l);
	return ret;
}

/* Every event's profile (l->all), given up by the loader. */
static struct perfev_profile_event *take_events(struct loader *l, struct perfev_profile_load_info *info,
						 size_t *nr)
{
	size_t nev = nr_events(l);
	struct perfev_profile_event *ev = calloc(nev ? nev : 1, sizeof(*ev));
	bool ok = ev != NULL;
	for (size_t i = 0; ok && i < nev; i++) /* every event gets a profile, empty or not */
		ok = evp_for(l, i) != NULL && pv_profile_copy_objects(l->evs[i].p, l->p) == 0;
	if (!ok) {
		free(ev);
		return pv_error_null(ENOMEM, "profile_load: out of memory");
	}
	for (size_t i = 0; i < nev; i++) {
		const struct perfev_attr *attr = event_attr(l, i);
		const char *name = event_name(l, i);
		snprintf(ev[i].name, sizeof(ev[i].name), "%s", name ? name : "unknown");
		ev[i].has_callchains = attr && (attr->sample_type & (PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_STACK_USER));
		ev[i].samples = l->evs[i].samples;
		ev[i].profile = l->evs[i].p;
		l->evs[i].p = NULL;
	}
	if (l->pd)
		group_desc(l->pd, ev, nev);
	else
		group_desc_none(ev, nev);
	info_out(l, info);
	*nr = nev;
	return ev;
}

PERFEV_API struct perfev_profile_event *perfev_profile_load_events(const char *path,
								   const struct perfev_profile_load_opts *o,
								   struct perfev_profile_load_info *info,
								   size_t *nr)
{
	*nr = 0;
	struct perfev_perfdata *pd = perfev_perfdata_open(path);
	if (!pd)
		return NULL;
	struct perfev_profile_event *ev = perfev_profile_load_events_from(pd, o, info, nr);
	pv_close_keep_errno(pd);
	return ev;
}

PERFEV_API struct perfev_profile_event *perfev_profile_load_events_from(struct perfev_perfdata *pd,
									const struct perfev_profile_load_opts *o0,
									struct perfev_profile_load_info *info,
									size_t *nr)
{
	*nr = 0;
	struct loader *l = loader_new(o0, true, info);
	if (!l)
		return NULL;
	info_out(l, info);
	struct perfev_profile_event *ev = load(l, pd) == 0 ? take_events(l, info, nr) : NULL;
	loader_destroy(l);
	return ev;
}

/* ---- profiles fed record by record (perfev_profile_builder_*) ------------------- */
struct perfev_profile_builder {
	struct loader *l;
};

PERFEV_API struct perfev_profile_builder *perfev_profile_builder_new(const struct perfev_profile_builder_opts *o)
{
	if (!PV_OPTS_VALID(o, perfev_profile_builder_opts))
		return NULL;
	struct perfev_profile_builder *b = calloc(1, sizeof(*b));
	if (!b)
		return pv_error_null(ENOMEM, "profile_builder: out of memory");
	struct perfev_perfdata *pd = PV_OPTS_GET(o, perfdata, NULL);
	b->l = loader_new(PV_OPTS_GET(o, load, NULL), PV_OPTS_GET(o, all_events, false), NULL);
	if (!b->l || loader_begin(b->l, pd, pd ? perfev_perfdata_path(pd) : "the records") < 0) {
		perfev_profile_builder_free(b);
		return NULL;
	}
	return b;
}

PERFEV_API int perfev_profile_builder_add_event(struct perfev_profile_builder *b, const struct perfev_attr *attr,
						const char *name)
{
	if (!b || !attr || b->l->pd || b->l->finished)
		return pv_error(EINVAL, "profile_builder: events are added before finishing, and only "
				"to a builder without a recording");
	int r = add_own_event(b->l, attr, name);
	if (r < 0)
		return pv_error(ENOMEM, "profile_builder: out of memory");
	event_info(b->l);
	return r;
}

PERFEV_API int perfev_profile_builder_add(struct perfev_profile_builder *b, const struct perfev_record *rec)
{
	if (!b || !rec || b->l->finished)
		return pv_error(EINVAL, "profile_builder: %s", !b || !rec ? "NULL" : "already finished");
	int r = on_record(b->l, rec);
	if (r < 0 || b->l->oom) {
		b->l->oom = false;
		return pv_error(ENOMEM, "profile_builder: out of memory");
	}
	return 0;
}

PERFEV_API struct perfev_profile *perfev_profile_builder_finish(struct perfev_profile_builder *b,
								struct perfev_profile_load_info *info)
{
	if (!b || b->l->finished || b->l->all)
		return pv_error_null(EINVAL, "profile_builder: %s", !b ? "NULL" : b->l->finished ?
				     "already finished" : "all_events: finish with perfev_profile_builder_finish_events");
	if (!PV_OPTS_VALID(info, perfev_profile_load_info))
		return NULL;
	b->l->finished = true;
	return loader_end(b->l) == 0 ? take_profile(b->l, info) : NULL;
}

PERFEV_API struct perfev_profile *perfev_profile_builder_snapshot(struct perfev_profile_builder *b,
								  struct perfev_profile_load_info *info)
{
	if (!b || b->l->finished || b->l->all)
		return pv_error_null(EINVAL, "profile_builder: %s", !b ? "NULL" : b->l->finished ?
				     "already finished" : "a snapshot of an all_events builder is not supported: "
				     "make one builder per event");
	if (!PV_OPTS_VALID(info, perfev_profile_load_info))
		return NULL;
	size_t nev = nr_events(b->l);
	if ((size_t)b->l->event >= nev) {
		no_event(b->l->name, b->l->event, nev);
		return NULL;
	}
	struct perfev_profile *p = pv_profile_clone(b->l->p);
	if (!p)
		return NULL;
	thread_comms(b->l, p); /* what finish adds, on the copy */
	event_info(b->l);
	info_out(b->l, info);
	return p;
}

PERFEV_API int perfev_profile_builder_decay(struct perfev_profile_builder *b, uint64_t num, uint64_t den,
					    unsigned flags)
{
	if (!b || b->l->finished)
		return pv_error(EINVAL, "profile_builder: %s", !b ? "NULL" : "already finished");
	int r = perfev_profile_decay(b->l->p, num, den, flags);
	for (size_t i = 0; r == 0 && i < b->l->nevs; i++)
		r = b->l->evs[i].p ? perfev_profile_decay(b->l->evs[i].p, num, den, flags) : 0;
	return r;
}

PERFEV_API struct perfev_profile_event *
perfev_profile_builder_finish_events(struct perfev_profile_builder *b, struct perfev_profile_load_info *info,
				     size_t *nr)
{
	*nr = 0;
	if (!b || b->l->finished || !b->l->all)
		return pv_error_null(EINVAL, "profile_builder: %s", !b ? "NULL" : b->l->finished ?
				     "already finished" : "not all_events: finish with perfev_profile_builder_finish");
	if (!PV_OPTS_VALID(info, perfev_profile_load_info))
		return NULL;
	b->l->finished = true;
	return loader_end(b->l) == 0 ? take_events(b->l, info, nr) : NULL;
}

PERFEV_API void perfev_profile_builder_free(struct perfev_profile_builder *b)
{
	if (!b)
		return;
	loader_destroy(b->l);
	free(b);
}

/* ---- for other loaders (profile_load_int.h) ------------------------------------- */
int pv_profile_load_run(struct perfev_perfdata *pd, const struct perfev_profile_load_opts *o0,
			struct perfev_profile_load_info *info, pv_load_sample_fn fn, pv_load_done_fn done,
			void *ctx)
{
	struct loader *l = loader_new(o0, false, info);
	if (!l)
		return -1;
	info_out(l, info);
	l->own_o.event = -1;
	l->own_o.no_inline = true; /* one frame per address: the function's own symbol */
	l->sample_fn = fn;
	l->sample_ctx = ctx;
	int ret = load(l, pd);
	if (ret == 0 && done && done(ctx, l) < 0)
		ret = pv_error(ENOMEM, "profile_load: out of memory");
	if (ret == 0)
		info_out(l, info);
	loader_destroy(l);
	return ret < 0 ? -1 : 0;
}

int pv_load_addr(struct loader *l, int32_t pid, uint32_t tid, uint64_t addr, uint64_t time,
		 struct perfev_profile_frame *out, char *level, uint64_t *symoff)
{
	return pv_resolver_addr(l->res, pid, tid, addr, time, out, level, symoff);
}

const char *pv_load_comm(struct loader *l, uint32_t tid)
{
	return perfev_session_comm(l->sess, tid);
}

const char *pv_load_event_name(struct loader *l, size_t idx)
{
	return event_name(l, idx);
}

size_t pv_load_nr_events(struct loader *l)
{
	return nr_events(l);
}

PERFEV_API void perfev_profile_events_free(struct perfev_profile_event *ev, size_t nr)
{
	if (!ev)
		return;
	for (size_t i = 0; i < nr; i++)
		perfev_profile_free(ev[i].profile);
	free(ev);
}
