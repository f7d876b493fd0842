/*
 * counter.c — an evlist opened for counting: one fd per event per place
 * (CPU or thread), groups read with one read(2) per leader, enable/disable
 * per fd (see perfev_counters_enable for why not PERF_IOC_FLAG_GROUP).
 */
#define _GNU_SOURCE
#include "core/internal.h"
#include "core/opts.h"
#include "perfev/counter.h"
#include "perfev/sys.h"
#include "count/counter_int.h"

#include <dirent.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef PERF_FORMAT_LOST
#define PERF_FORMAT_LOST (1U << 4)
#endif
#define READ_FORMAT (PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED | \
		     PERF_FORMAT_TOTAL_TIME_RUNNING)

struct place {
	int cpu;
	pid_t tid;
	char comm[16]; /* thread places: its name at open (TASK_COMM_LEN) */
};

struct perfev_counters {
	struct perfev_evlist *list;
	size_t nev, nplaces;
	struct place *places;
	int *fd;                    /* [ev * nplaces + place], -1 if not open */
	uint64_t *id;               /* kernel ids, same layout */
	struct perfev_count *count; /* last reading, same layout */
	int *status;                /* per event: 0 or -errno of a failed open */
	char **err;                 /* per event: why it failed */
	int cgroup_fd;
	uint64_t read_format;
};

#define AT(c, ev, pl) ((ev) * (c)->nplaces + (pl))

/* ---- places ----------------------------------------------------------------- */
static int add_place(struct perfev_counters *c, size_t *cap, int cpu, pid_t tid, bool comm)
{
	if (pv_grow(&c->places, cap, c->nplaces + 1, sizeof(*c->places)) < 0)
		return pv_error(ENOMEM, "out of memory");
	struct place *p = &c->places[c->nplaces++];
	*p = (struct place){cpu, tid, ""};
	if (comm && tid > 0) {
		char path[64];
		snprintf(path, sizeof(path), "/proc/%d/comm", (int)tid);
		if (pv_read_line(path, p->comm, sizeof(p->comm)) < 0)
			p->comm[0] = 0;
	}
	return 0;
}

static int cmp_place(const void *a, const void *b)
{
	const struct place *x = a, *y = b;
	return (x->tid > y->tid) - (x->tid < y->tid);
}

static int process_threads(struct perfev_counters *c, size_t *cap, pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	DIR *d = opendir(path);
	if (!d)
		return pv_error(ESRCH, "no process %d exists (%s: %s)", (int)pid, path,
				strerror(errno));
	struct dirent *de;
	int r = 0;
	while (r == 0 && (de = readdir(d)))
		if (de->d_name[0] != '.')
			r = add_place(c, cap, -1, (pid_t)atoi(de->d_name), true);
	closedir(d);
	if (r == 0 && c->nplaces)
		qsort(c->places, c->nplaces, sizeof(*c->places), cmp_place);
	return r;
}

static int cpu_places(struct perfev_counters *c, size_t *cap, const struct perfev_cpus *cpus)
{
	struct perfev_cpus *online = NULL;
	if (!cpus && !(cpus = online = perfev_cpus_online()))
		return -errno;
	int r = 0;
	for (size_t i = 0; r == 0 && i < perfev_cpus_count(cpus); i++)
		r = add_place(c, cap, perfev_cpus_at(cpus, i), -1, false);
	perfev_cpus_free(online);
	if (r == 0 && c->nplaces == 0)
		r = pv_error(EINVAL, "the CPU list is empty");
	return r;
}

/* A cgroup name becomes a directory fd: absolute paths as given, others
 * under the perf_event v1 hierarchy or the cgroup2 mount (as perf does). */
int pv_cgroup_open(const char *name)
{
	if (name[0] == '/' && access(name, F_OK) == 0) {
		int fd = open(name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		return fd < 0 ? pv_error(errno, "cannot open cgroup %s: %s", name, strerror(errno)) : fd;
	}
	char *mounts = NULL, v1[PATH_MAX] = "", v2[PATH_MAX] = "";
	if (pv_read_file("/proc/self/mounts", &mounts, NULL, 1 << 22) < 0)
		return -errno;
	for (char *save, *line = strtok_r(mounts, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char dev[256], dir[PATH_MAX], type[64], opts[1024];
		if (sscanf(line, "%255s %4095s %63s %1023s", dev, dir, type, opts) != 4)
			continue;
		if (!strcmp(type, "cgroup2") && !v2[0])
			snprintf(v2, sizeof(v2), "%s", dir);
		else if (!strcmp(type, "cgroup") && strstr(opts, "perf_event") && !v1[0])
			snprintf(v1, sizeof(v1), "%s", dir);
	}
	free(mounts);
	const char *root = v1[0] ? v1 : v2;
	if (!root[0])
		return pv_error(ENOENT, "cgroup '%s': no perf_event cgroup (v1) or cgroup2 "
				"hierarchy is mounted: mount -t cgroup2 none /sys/fs/cgroup", name);
	char path[PATH_MAX * 2];
	snprintf(path, sizeof(path), "%s/%s", root, name);
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return pv_error(errno, "cgroup '%s': cannot open %s: %s (list them with ls %s)",
				name, path, strerror(errno), root);
	return fd;
}

/* ---- open ------------------------------------------------------------------ */
static bool unsupported_errno(int e)
{
	return e == ENOENT || e == EOPNOTSUPP || e == ENODEV || e == EINVAL || e == E2BIG ||
	       e == ENOSPC || e == ENOSYS;
}

static void describe_place(char *buf, size_t len, const struct perfev_counters *c,
			   const struct perfev_target *t, size_t pl)
{
	if (t->kind == PERFEV_TARGET_CGROUP)
		snprintf(buf, len, "for cgroup '%s' on CPU %d", t->cgroup, c->places[pl].cpu);
	else if (c->places[pl].cpu >= 0)
		snprintf(buf, len, "on CPU %d (system-wide)", c->places[pl].cpu);
	else if (t->kind == PERFEV_TARGET_CHILD)
		snprintf(buf, len, "for the command (pid %d)", (int)c->places[pl].tid);
	else
		snprintf(buf, len, "for thread %d", (int)c->places[pl].tid);
}

static int open_one(struct perfev_counters *c, const struct perfev_target *t, size_t ev, size_t pl)
{
	struct perfev_evsel *e = perfev_evlist_at(c->list, ev);
	struct perfev_attr *a = perfev_evsel_attr(e);
	struct perfev_evsel *leader = perfev_evsel_leader(e);
	size_t li = perfev_evsel_index(leader);
	bool task = t->kind != PERFEV_TARGET_CPUS && t->kind != PERFEV_TARGET_CGROUP;
	int group_fd = -1;
	if (li != ev) {
		group_fd = c->fd[AT(c, li, pl)];
		if (group_fd < 0)
			return 0; /* the leader is not counting here: nor are its members */
	}
	a->read_format |= c->read_format;
	a->inherit = task && !t->no_inherit;
	a->disabled = li == ev && (t->kind == PERFEV_TARGET_CHILD || !t->enabled);
	a->enable_on_exec = li == ev && t->kind == PERFEV_TARGET_CHILD;
	pid_t pid = c->places[pl].tid;
	unsigned long flags = 0;
	if (t->kind == PERFEV_TARGET_CGROUP) {
		pid = c->cgroup_fd;
		flags = PERF_FLAG_PID_CGROUP;
	}
	int fd = perfev_open(a, pid, c->places[pl].cpu, group_fd, flags);
	if (fd == -EINVAL && a->inherit && (c->read_format & PERF_FORMAT_GROUP) && ev == 0) {
		/* kernels before 4.13 refuse inherit with PERF_FORMAT_GROUP (the
		 * manual's "inherit does not work for ... PERF_FORMAT_GROUP"):
		 * read every counter on its own instead */
		c->read_format &= ~(uint64_t)PERF_FORMAT_GROUP;
		a->read_format &= ~(uint64_t)PERF_FORMAT_GROUP;
		fd = perfev_open(a, pid, c->places[pl].cpu, group_fd, flags);
	}
	if (fd == -EINVAL && (c->read_format & PERF_FORMAT_LOST)) {
		/* kernels before 6.0 do not know PERF_FORMAT_LOST */
		c->read_format &= ~(uint64_t)PERF_FORMAT_LOST;
		a->read_format &= ~(uint64_t)PERF_FORMAT_LOST;
		fd = perfev_open(a, pid, c->places[pl].cpu, group_fd, flags);
	}
	if (fd == -EINVAL && (a->exclude_guest || a->exclude_host)) {
		/* perf's fallback: some PMUs (msr, uncore, ...) refuse every
		 * exclusion bit, and exclude_guest is on by default */
		a->exclude_guest = a->exclude_host = 0;
		fd = perfev_open(a, pid, c->places[pl].cpu, group_fd, flags);
	}
	if (fd < 0) {
		int err = -fd;
		char where[128], why[1800];
		describe_place(where, sizeof(where), c, t, pl);
		pv_explain_open_flags(why, sizeof(why), a, pid, c->places[pl].cpu, flags, err);
		pv_error(err, "cannot count '%s' %s: %s", perfev_evsel_name(e), where, why);
		return -err;
	}
	c->fd[AT(c, ev, pl)] = fd;
	if (perfev_ioc_id(fd, &c->id[AT(c, ev, pl)]) < 0)
		return -errno;
	const char *filter = perfev_evsel_filter(e);
	if (filter && perfev_ioc_set_filter(fd, filter) < 0)
		return pv_error(errno, "event '%s': the filter '%s' is invalid (%s): check the "
				"field names in the tracepoint's format file", perfev_evsel_name(e),
				filter, strerror(errno));
	return 0;
}

static void close_event(struct perfev_counters *c, size_t ev)
{
	for (size_t pl = 0; pl < c->nplaces; pl++) {
		int *fd = &c->fd[AT(c, ev, pl)];
		if (*fd >= 0)
			close(*fd);
		*fd = -1;
	}
}

static int open_event(struct perfev_counters *c, const struct perfev_target *t, size_t ev)
{
	struct perfev_evsel *e = perfev_evlist_at(c->list, ev);
	size_t li = perfev_evsel_index(perfev_evsel_leader(e));
	struct perfev_cpus *mask = NULL;
	const char *pmu = perfev_evsel_pmu_name(e);
	if (li != ev && c->status[li]) {
		c->status[ev] = c->status[li];
		if (asprintf(&c->err[ev], "its group leader '%s' is not counting",
			     perfev_evsel_name(perfev_evsel_leader(e))) < 0)
			c->err[ev] = NULL;
		return 0;
	}
	/* Only CPU-wide counting looks at the PMU's cpumask (no sysfs reads
	 * for the common per-task case). */
	if (pmu && (t->kind == PERFEV_TARGET_CPUS || t->kind == PERFEV_TARGET_CGROUP))
		mask = perfev_cpus_pmu(pmu);
	int r = 0;
	for (size_t pl = 0; r == 0 && pl < c->nplaces; pl++)
		if (!mask || perfev_cpus_has(mask, c->places[pl].cpu))
			r = open_one(c, t, ev, pl);
	perfev_cpus_free(mask);
	if (r < 0 && t->keep_unsupported && unsupported_errno(-r)) {
		close_event(c, ev);
		c->status[ev] = r;
		c->err[ev] = strdup(perfev_errmsg());
		return 0;
	}
	return r;
}

PERFEV_API struct perfev_counters *perfev_counters_open(struct perfev_evlist *list,
							const struct perfev_target *target)
{
	if (!list || !target)
		return pv_error_null(EINVAL, "perfev_counters_open: no list or target");
	if (!PV_OPTS_VALID(target, perfev_target))
		return NULL;
	/* a caller's smaller (older) struct reads as zeros past its end */
	struct perfev_target tcopy, *t = &tcopy;
	PV_OPTS_COPY(tcopy, target);
	struct perfev_counters *c = calloc(1, sizeof(*c));
	if (!c)
		return pv_error_null(ENOMEM, "out of memory");
	c->list = list;
	c->cgroup_fd = -1;
	c->nev = perfev_evlist_count(list);
	c->read_format = READ_FORMAT | PERF_FORMAT_LOST;
	size_t cap = 0;
	int r = 0;
	switch (t->kind) {
	case PERFEV_TARGET_THREAD:
	case PERFEV_TARGET_CHILD: /* a held child is still named after its parent */
		r = add_place(c, &cap, -1, t->pid, t->kind == PERFEV_TARGET_THREAD);
		break;
	case PERFEV_TARGET_PROCESS:
		r = process_threads(c, &cap, t->pid);
		break;
	case PERFEV_TARGET_CGROUP:
		if (!t->cgroup) {
			r = pv_error(EINVAL, "a cgroup target needs a cgroup name");
			break;
		}
		if ((c->cgroup_fd = pv_cgroup_open(t->cgroup)) < 0) {
			r = c->cgroup_fd;
			break;
		}
		/* fall through */
	case PERFEV_TARGET_CPUS:
		r = cpu_places(c, &cap, t->cpus);
		break;
	default:
		r = pv_error(EINVAL, "unknown target kind %d", (int)t->kind);
	}
	if (r < 0)
		goto fail;
	size_t n = c->nev * c->nplaces;
	c->fd = malloc((n ? n : 1) * sizeof(*c->fd));
	c->id = calloc(n ? n : 1, sizeof(*c->id));
	c->count = calloc(n ? n : 1, sizeof(*c->count));
	c->status = calloc(c->nev ? c->nev : 1, sizeof(*c->status));
	c->err = calloc(c->nev ? c->nev : 1, sizeof(*c->err));
	if (!c->fd || !c->id || !c->count || !c->status || !c->err) {
		r = pv_error(ENOMEM, "out of memory");
		goto fail;
	}
	for (size_t i = 0; i < n; i++)
		c->fd[i] = -1;
	for (size_t ev = 0; r == 0 && ev < c->nev; ev++)
		r = open_event(c, t, ev);
	if (r < 0)
		goto fail;
	return c;
fail: {
	int e = -r;
	char msg[2048];
	snprintf(msg, sizeof(msg), "%s", perfev_errmsg());
	perfev_counters_close(c);
	return pv_error_null(e, "%s", msg);
}
}

PERFEV_API void perfev_counters_close(struct perfev_counters *c)
{
	if (!c)
		return;
	if (c->fd)
		for (size_t ev = 0; ev < c->nev; ev++)
			close_event(c, ev);
	if (c->err)
		for (size_t ev = 0; ev < c->nev; ev++)
			free(c->err[ev]);
	if (c->cgroup_fd >= 0)
		close(c->cgroup_fd);
	free(c->places);
	free(c->fd);
	free(c->id);
	free(c->count);
	free(c->status);
	free(c->err);
	free(c);
}

/*
 * Per-fd ioctls, not PERF_IOC_FLAG_GROUP: on 6.18 a group disable+enable
 * with the flag was seen to leave members stopped. Members are enabled
 * before their leader and disabled after it, so a group starts and stops
 * as one (members count only while their leader is on the PMU).
 */
static int ioc_all(struct perfev_counters *c, int (*fn)(int, bool), bool reverse)
{
	for (size_t k = 0; k < c->nev; k++) {
		size_t ev = reverse ? c->nev - 1 - k : k;
		for (size_t pl = 0; pl < c->nplaces; pl++) {
			int fd = c->fd[AT(c, ev, pl)];
			if (fd >= 0 && fn(fd, false) < 0)
				return -errno;
		}
	}
	return 0;
}

PERFEV_API int perfev_counters_enable(struct perfev_counters *c) { return ioc_all(c, perfev_ioc_enable, true); }
PERFEV_API int perfev_counters_disable(struct perfev_counters *c) { return ioc_all(c, perfev_ioc_disable, false); }
PERFEV_API int perfev_counters_reset(struct perfev_counters *c) { return ioc_all(c, perfev_ioc_reset, false); }

PERFEV_API size_t perfev_counters_nr_places(const struct perfev_counters *c) { return c->nplaces; }

PERFEV_API int perfev_counters_place_cpu(const struct perfev_counters *c, size_t pl)
{
	return pl < c->nplaces ? c->places[pl].cpu : -1;
}

PERFEV_API pid_t perfev_counters_place_tid(const struct perfev_counters *c, size_t pl)
{
	return pl < c->nplaces ? c->places[pl].tid : -1;
}

PERFEV_API const char *perfev_counters_place_comm(const struct perfev_counters *c, size_t pl)
{
	return pl < c->nplaces ? c->places[pl].comm : "";
}

PERFEV_API int perfev_counters_fd(const struct perfev_counters *c, size_t ev, size_t pl)
{
	return ev < c->nev && pl < c->nplaces ? c->fd[AT(c, ev, pl)] : -1;
}

PERFEV_API int perfev_counters_status(const struct perfev_counters *c, size_t ev)
{
	return ev < c->nev ? c->status[ev] : -ERANGE;
}

PERFEV_API const char *perfev_counters_error(const struct perfev_counters *c, size_t ev)
{
	return ev < c->nev && c->err[ev] ? c->err[ev] : "";
}

/* ---- read ------------------------------------------------------------------- */
/* One group read: { nr, time_enabled, time_running, { value, id, [lost] }[nr] }. */
static int read_group(struct perfev_counters *c, size_t li, size_t pl)
{
	struct perfev_evsel *leader = perfev_evlist_at(c->list, li);
	size_t gsize = perfev_evsel_group_size(leader);
	size_t per = c->read_format & PERF_FORMAT_LOST ? 3 : 2;
	size_t words = 3 + gsize * per;
	uint64_t stackbuf[3 + 16 * 3], *buf = stackbuf;
	if (words > PV_ARRAY_SIZE(stackbuf) && !(buf = malloc(words * sizeof(uint64_t))))
		return pv_error(ENOMEM, "out of memory");
	ssize_t n;
	do
		n = read(c->fd[AT(c, li, pl)], buf, words * sizeof(uint64_t));
	while (n < 0 && errno == EINTR);
	int r = 0;
	if (n < 0) {
		r = pv_error(errno, "reading '%s': %s", perfev_evsel_name(leader), strerror(errno));
	} else if (n < 24 || (size_t)n < (3 + buf[0] * per) * sizeof(uint64_t)) {
		r = pv_error(EIO, "reading '%s': short group read (%zd bytes)",
			     perfev_evsel_name(leader), n);
	} else {
		for (uint64_t k = 0; k < buf[0]; k++) {
			const uint64_t *v = &buf[3 + k * per];
			for (size_t ev = li; ev < c->nev; ev++) {
				if (c->id[AT(c, ev, pl)] != v[1] || c->fd[AT(c, ev, pl)] < 0)
					continue;
				struct perfev_count *o = &c->count[AT(c, ev, pl)];
				o->val = v[0];
				o->ena = buf[1];
				o->run = buf[2];
				o->lost = per == 3 ? v[2] : 0;
				break;
			}
		}
	}
	if (buf != stackbuf)
		free(buf);
	return r;
}

/* Without PERF_FORMAT_GROUP: { value, time_enabled, time_running, id, [lost] }. */
static int read_single(struct perfev_counters *c, size_t ev, size_t pl)
{
	uint64_t buf[5] = {0};
	size_t words = c->read_format & PERF_FORMAT_LOST ? 5 : 4;
	ssize_t n;
	do
		n = read(c->fd[AT(c, ev, pl)], buf, words * sizeof(uint64_t));
	while (n < 0 && errno == EINTR);
	const char *name = perfev_evsel_name(perfev_evlist_at(c->list, ev));
	if (n < 0)
		return pv_error(errno, "reading '%s': %s", name, strerror(errno));
	if ((size_t)n < words * sizeof(uint64_t))
		return pv_error(EIO, "reading '%s': short read (%zd bytes)", name, n);
	c->count[AT(c, ev, pl)] = (struct perfev_count){buf[0], buf[1], buf[2], words == 5 ? buf[4] : 0};
	return 0;
}

PERFEV_API int perfev_counters_read(struct perfev_counters *c)
{
	for (size_t ev = 0; ev < c->nev; ev++) {
		if (!(c->read_format & PERF_FORMAT_GROUP)) {
			for (size_t pl = 0; pl < c->nplaces; pl++) {
				int r = c->fd[AT(c, ev, pl)] < 0 ? 0 : read_single(c, ev, pl);
				if (r < 0)
					return r;
			}
			continue;
		}
		if (!perfev_evsel_is_leader(perfev_evlist_at(c->list, ev)))
			continue;
		for (size_t pl = 0; pl < c->nplaces; pl++) {
			if (c->fd[AT(c, ev, pl)] < 0)
				continue;
			int r = read_group(c, ev, pl);
			if (r < 0)
				return r;
		}
	}
	return 0;
}

PERFEV_API int perfev_counters_get(const struct perfev_counters *c, size_t ev, size_t pl,
				   struct perfev_count *out)
{
	if (ev >= c->nev || pl >= c->nplaces)
		return pv_error(ERANGE, "event %zu / place %zu out of range", ev, pl);
	*out = c->count[AT(c, ev, pl)];
	return 0;
}

PERFEV_API int perfev_counters_sum(const struct perfev_counters *c, size_t ev,
				   struct perfev_count *out)
{
	if (ev >= c->nev)
		return pv_error(ERANGE, "event %zu out of range", ev);
	*out = (struct perfev_count){0};
	for (size_t pl = 0; pl < c->nplaces; pl++) {
		const struct perfev_count *v = &c->count[AT(c, ev, pl)];
		out->val += v->val;
		out->ena += v->ena;
		out->run += v->run;
		out->lost += v->lost;
	}
	return 0;
}

PERFEV_API double perfev_count_scaled(const struct perfev_count *v, double *fraction)
{
	if (v->run == 0) {
		if (fraction)
			*fraction = 0;
		return 0;
	}
	if (v->run >= v->ena) {
		if (fraction)
			*fraction = 1.0;
		return (double)v->val;
	}
	if (fraction)
		*fraction = (double)v->run / (double)v->ena;
	return (double)v->val * (double)v->ena / (double)v->run;
}
