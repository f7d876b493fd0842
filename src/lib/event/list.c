/*
 * list.c — every event an event string can name here, with what the
 * current permissions let this process open (perfev list).
 */
#define _GNU_SOURCE
#include "core/internal.h"
#include "event/parse_int.h"
#include "event/pfm_int.h"
#include "perfev/event.h"
#include "perfev/pmu.h"
#include "perfev/sys.h"

#include <fnmatch.h>
#include <linux/capability.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

PERFEV_API void perfev_permissions_get(struct perfev_permissions *p)
{
	struct perfev_sysctl s;
	perfev_sysctl_read(&s);
	memset(p, 0, sizeof(*p));
	p->paranoid = s.paranoid;
	p->root = geteuid() == 0;
	p->cap_perfmon = pv_has_cap(CAP_PERFMON);
	p->cap_sys_admin = pv_has_cap(CAP_SYS_ADMIN);
	bool priv = p->root || p->cap_perfmon || p->cap_sys_admin;
	int64_t lvl = s.paranoid == PERFEV_SYSCTL_ABSENT ? 2 : s.paranoid;
	p->kernel = priv || lvl <= 1;
	p->cpu_wide = priv || lvl <= 0;
	p->tracepoint_raw = priv || lvl <= -1;
	p->any_process = p->root || pv_has_cap(CAP_SYS_PTRACE);
}

static const char *const sym_desc[] = {
	"CPU cycles", "instructions retired", "cache accesses (usually last level)",
	"cache misses (usually last level)", "branch instructions retired", "mispredicted branches",
	"bus cycles", "cycles stalled in the front end", "cycles stalled in the back end",
	"reference cycles (not scaled by frequency)",
	/* software */
	"CPU time (per-CPU clock) in ns", "task time (per-task clock) in ns", "page faults",
	"context switches", "CPU migrations", "minor page faults", "major page faults",
	"alignment faults", "emulation faults", "placeholder: counts nothing (side-band records)",
	"BPF output (bpf_perf_event_output)", "cgroup switches",
	"wall-clock time in ns of the run (a tool event: counted by perfev, opened as dummy)",
	"user CPU time in ns of the command (a tool event)",
	"system CPU time in ns of the command (a tool event)",
};

struct walk {
	const char *pattern;
	int klass; /* -1: any */
	unsigned flags;
	perfev_event_fn fn;
	void *arg;
	int count;
};

static const struct {
	const char *name;
	int klass;
} class_names[] = {
	{"hardware", PERFEV_CLASS_HARDWARE}, {"hw", PERFEV_CLASS_HARDWARE},
	{"software", PERFEV_CLASS_SOFTWARE}, {"sw", PERFEV_CLASS_SOFTWARE},
	{"cache", PERFEV_CLASS_CACHE}, {"hwcache", PERFEV_CLASS_CACHE},
	{"pmu", PERFEV_CLASS_PMU}, {"tracepoint", PERFEV_CLASS_TRACEPOINT},
	{"breakpoint", PERFEV_CLASS_BREAKPOINT}, {"raw", PERFEV_CLASS_RAW},
	{"tool", PERFEV_CLASS_TOOL}, {"vendor", PERFEV_CLASS_VENDOR},
};
static const char *const class_label[] = {"hardware", "software", "cache", "pmu",
					  "tracepoint", "breakpoint", "raw", "tool", "vendor"};

static bool name_matches(const struct walk *w, const struct perfev_event_info *ev)
{
	if (w->klass >= 0)
		return (int)ev->klass == w->klass;
	if (!w->pattern)
		return true;
	const char *p = w->pattern;
	if ((ev->pmu && !strcmp(ev->pmu, p)) || (ev->topic && !strcmp(ev->topic, p)))
		return true;
	if (strpbrk(p, "*?["))
		return !fnmatch(p, ev->name, 0) || (ev->alias && !fnmatch(p, ev->alias, 0));
	return strcasestr(ev->name, p) || (ev->alias && strcasestr(ev->alias, p));
}

/* Opens attr for this process once; which access that shows. */
static void probe(struct perfev_event_info *ev, int cpu)
{
	struct perfev_attr a = ev->attr;
	a.disabled = 1;
	pid_t pid = cpu >= 0 ? -1 : 0;
	int fd = perfev_open(&a, pid, cpu, -1, 0);
	if (fd == -EINVAL && a.exclude_guest) {
		/* PMUs without guest/host support reject exclude_guest (perf retries so too) */
		a.exclude_guest = 0;
		fd = perfev_open(&a, pid, cpu, -1, 0);
	}
	if (fd >= 0) {
		close(fd);
		ev->access = PERFEV_ACCESS_FULL;
		return;
	}
	if (fd == -EACCES || fd == -EPERM) {
		a.exclude_kernel = a.exclude_hv = 1;
		int fd2 = perfev_open(&a, pid, cpu, -1, 0);
		ev->err = -fd;
		if (fd2 >= 0) {
			close(fd2);
			ev->access = PERFEV_ACCESS_USER_ONLY;
		} else if (fd2 == -ENOENT || fd2 == -ENODEV || fd2 == -EOPNOTSUPP) {
			/* allowed user-only, but the machine lacks it (no hardware PMU ...) */
			ev->access = PERFEV_ACCESS_UNSUPPORTED;
			ev->err = -fd2;
		} else { /* refused, or a PMU that cannot count user space alone (msr) */
			ev->access = PERFEV_ACCESS_DENIED;
		}
		return;
	}
	ev->access = PERFEV_ACCESS_UNSUPPORTED;
	ev->err = -fd;
}

static int report(struct walk *w, struct perfev_event_info *ev, int cpu)
{
	ev->class_name = class_label[ev->klass];
	if (!name_matches(w, ev))
		return 0;
	if ((w->flags & PERFEV_LIST_PROBE) && ev->access == PERFEV_ACCESS_UNKNOWN && ev->attr.size)
		probe(ev, cpu);
	w->count++;
	return w->fn ? w->fn(w->arg, ev) : 0;
}

static void init_attr(struct perfev_attr *a, uint32_t type, uint64_t config)
{
	memset(a, 0, sizeof(*a));
	a->type = type;
	a->config = config;
	a->size = PERFEV_ATTR_SIZE_LATEST;
	a->exclude_guest = 1;
}

static int list_symbols(struct walk *w)
{
	for (size_t i = 0; i < pv_nr_syms; i++) {
		const struct pv_sym *s = &pv_syms[i];
		struct perfev_event_info ev = {
			.klass = s->flags ? PERFEV_CLASS_TOOL
				 : s->type == PERF_TYPE_HARDWARE ? PERFEV_CLASS_HARDWARE : PERFEV_CLASS_SOFTWARE,
			.name = s->name, .alias = s->alias,
			.desc = i < PV_ARRAY_SIZE(sym_desc) ? sym_desc[i] : NULL,
		};
		init_attr(&ev.attr, s->type, s->config);
		int r = report(w, &ev, -1);
		if (r)
			return r;
	}
	return 0;
}

static int list_cache(struct walk *w)
{
	for (int t = 0; t < PERF_COUNT_HW_CACHE_MAX; t++)
		for (int op = 0; op < PERF_COUNT_HW_CACHE_OP_MAX; op++) {
			if (!pv_cache_op_valid(t, op))
				continue;
			for (int res = 0; res < PERF_COUNT_HW_CACHE_RESULT_MAX; res++) {
				char name[64];
				/* perf's names: L1-dcache-loads, L1-dcache-load-misses */
				if (res == PERF_COUNT_HW_CACHE_RESULT_ACCESS)
					snprintf(name, sizeof(name), "%s-%s", pv_cache_type_name(t),
						 pv_cache_op_name(op, 1));
				else
					snprintf(name, sizeof(name), "%s-%s-%s", pv_cache_type_name(t),
						 pv_cache_op_name(op, 0), pv_cache_result_name(res));
				struct perfev_event_info ev = {.klass = PERFEV_CLASS_CACHE, .name = name};
				init_attr(&ev.attr, PERF_TYPE_HW_CACHE,
					  (uint64_t)t | (uint64_t)op << 8 | (uint64_t)res << 16);
				int r = report(w, &ev, -1);
				if (r)
					return r;
			}
		}
	return 0;
}

/* The first CPU of a cpumask such as "0-3" or "0,4"; -1 for none. */
static int first_cpu(const char *mask)
{
	return mask && *mask >= '0' && *mask <= '9' ? atoi(mask) : -1;
}

static int list_pmus(struct walk *w)
{
	struct perfev_pmus *s = perfev_pmus_load(NULL);
	if (!s)
		return 0;
	int r = 0;
	for (size_t i = 0; !r && i < perfev_pmus_count(s); i++) {
		const struct perfev_pmu *p = perfev_pmus_at(s, i);
		for (size_t j = 0; !r && j < perfev_pmu_alias_count(p); j++) {
			const struct perfev_pmu_alias *al = perfev_pmu_alias_at(p, j);
			char name[512];
			snprintf(name, sizeof(name), "%s/%s/", perfev_pmu_name(p), al->name);
			struct perfev_event_info ev = {.klass = PERFEV_CLASS_PMU, .name = name,
						       .pmu = perfev_pmu_name(p), .desc = al->desc};
			struct perfev_evlist *l = perfev_evlist_new();
			if (l && perfev_evlist_parse(l, name, NULL) == 0)
				ev.attr = *perfev_evsel_attr(perfev_evlist_at(l, 0));
			perfev_evlist_free(l);
			r = report(w, &ev, first_cpu(perfev_pmu_cpumask(p)));
		}
	}
	perfev_pmus_free(s);
	return r;
}

static int vendor_one(const struct perfev_event_info *ev, void *arg)
{
	struct perfev_event_info copy = *ev;
	return report(arg, &copy, -1);
}

/* The CPU model's events from its vendor tables (PERF_CPUID or this CPU). */
static int list_vendor(struct walk *w)
{
	return pv_vendor_foreach(NULL, vendor_one, w);
}

struct tp_arg {
	struct walk *w;
	bool probed;
	enum perfev_access access;
	int err;
	int stop;
};

static int tp_one(void *arg, const char *sys, const char *name, int id)
{
	struct tp_arg *t = arg;
	char full[512];
	snprintf(full, sizeof(full), "%s:%s", sys, name);
	struct perfev_event_info ev = {.klass = PERFEV_CLASS_TRACEPOINT, .name = full};
	init_attr(&ev.attr, PERF_TYPE_TRACEPOINT, (uint64_t)id);
	ev.class_name = class_label[ev.klass];
	if (!name_matches(t->w, &ev))
		return 0;
	/* tracepoints share their permission rules: one probe speaks for all */
	if ((t->w->flags & PERFEV_LIST_PROBE) && !t->probed) {
		probe(&ev, -1);
		t->probed = true;
		t->access = ev.access;
		t->err = ev.err;
	}
	ev.access = t->access;
	ev.err = t->err;
	return t->stop = report(t->w, &ev, -1);
}

static int list_tracepoints(struct walk *w)
{
	const char *dir = perfev_tracefs_events_dir();
	struct tp_arg t = {w, false, PERFEV_ACCESS_UNKNOWN, 0, 0};
	int r = dir ? perfev_tracepoints_foreach(dir, NULL, NULL, tp_one, &t) : -errno;
	if (r < 0) { /* say so rather than list nothing */
		struct perfev_event_info ev = {.klass = PERFEV_CLASS_TRACEPOINT, .name = "SYS:NAME",
					       .desc = perfev_errmsg(), .access = PERFEV_ACCESS_DENIED,
					       .err = -r};
		return report(w, &ev, -1);
	}
	return t.stop;
}

/* "config1:0-7,32-35" from a format's field and mask. */
static void format_text(const struct perfev_pmu_format *f, char *buf, size_t len)
{
	static const char *const field[] = {"config", "config1", "config2", "config3"};
	size_t o = (size_t)snprintf(buf, len, "%s:", field[f->field]);
	const char *sep = "";
	for (int b = 0; b < 64 && o < len; b++) {
		if (!(f->mask >> b & 1) || (b && f->mask >> (b - 1) & 1))
			continue;
		int e = b;
		while (e < 63 && f->mask >> (e + 1) & 1)
			e++;
		o += (size_t)(e == b ? snprintf(buf + o, len - o, "%s%d", sep, b)
				     : snprintf(buf + o, len - o, "%s%d-%d", sep, b, e));
		sep = ",";
	}
}

/* One entry per PMU with format/ terms: what pmu/term=value,.../ takes there. */
static int list_pmu_formats(struct walk *w)
{
	struct perfev_pmus *s = perfev_pmus_load(NULL);
	if (!s)
		return 0;
	int r = 0;
	for (size_t i = 0; !r && i < perfev_pmus_count(s); i++) {
		const struct perfev_pmu *p = perfev_pmus_at(s, i);
		if (!perfev_pmu_format_count(p))
			continue;
		struct pv_buf d = PV_BUF_INIT;
		pv_buf_printf(&d, "PMU type %u; terms:", perfev_pmu_type(p));
		for (size_t j = 0; j < perfev_pmu_format_count(p); j++) {
			const struct perfev_pmu_format *f = perfev_pmu_format_at(p, j);
			char text[256];
			format_text(f, text, sizeof(text));
			pv_buf_printf(&d, "%s %s (%s)", j ? "," : "", f->name, text);
		}
		char name[300];
		snprintf(name, sizeof(name), "%s/term=value,.../", perfev_pmu_name(p));
		struct perfev_event_info ev = {.klass = PERFEV_CLASS_RAW, .name = name,
					       .pmu = perfev_pmu_name(p), .desc = d.data};
		r = report(w, &ev, -1);
		pv_buf_free(&d);
	}
	perfev_pmus_free(s);
	return r;
}

static long bp_probe_target;

static int list_syntax(struct walk *w)
{
	struct perfev_event_info bp = {
		.klass = PERFEV_CLASS_BREAKPOINT, .name = "mem:ADDR[/LEN][:rwx]",
		.desc = "hardware breakpoint on an address: r, w, x access (default rw), LEN 1, 2, 4 or 8",
	};
	init_attr(&bp.attr, PERF_TYPE_BREAKPOINT, 0);
	bp.attr.bp_type = 3; /* HW_BREAKPOINT_RW */
	bp.attr.bp_addr = (uintptr_t)&bp_probe_target;
	bp.attr.bp_len = 4;
	int r = report(w, &bp, -1);
	if (r)
		return r;
	struct perfev_event_info raw = {
		.klass = PERFEV_CLASS_RAW, .name = "rNNNN",
		.desc = "raw hardware event: NNNN is the hex config of the CPU's PMU (PERF_TYPE_RAW)",
	};
	init_attr(&raw.attr, PERF_TYPE_RAW, 0);
	if ((r = report(w, &raw, -1)))
		return r;
	struct perfev_event_info pmu = {
		.klass = PERFEV_CLASS_RAW, .name = "PMU/term=value,.../",
		.desc = "a PMU's event by its format/ terms (e.g. cpu/event=0x3c,umask=0/), or "
			"config=, config1=, config2=, config3=, name=, period=, freq=",
	};
	if ((r = report(w, &pmu, -1)))
		return r;
	return list_pmu_formats(w);
}

PERFEV_API int perfev_events_foreach(const char *pattern, unsigned flags, perfev_event_fn fn,
				     void *arg)
{
	struct walk w = {.pattern = pattern && *pattern ? pattern : NULL, .klass = -1,
			 .flags = flags, .fn = fn, .arg = arg};
	for (size_t i = 0; w.pattern && i < PV_ARRAY_SIZE(class_names); i++)
		if (!strcmp(w.pattern, class_names[i].name))
			w.klass = class_names[i].klass;
	int r;
	if ((r = list_symbols(&w)) || (r = list_cache(&w)) || (r = list_pmus(&w)) || (r = list_vendor(&w)) ||
	    (r = list_tracepoints(&w)) || (r = list_syntax(&w)))
		return r;
	return w.count;
}
