/*
 * selfmon.c — self-monitoring sets: one group per thread, opened on the
 * thread's first call and found again through a thread-local cache (no
 * system call, no lock); reads through the user page (selfmon_math.h,
 * selfmon_arch.h) where every event has a user-space counter, else one
 * read(2) of the group.
 */
#define _GNU_SOURCE
#include "core/internal.h"
#include "count/selfmon_int.h"
#include "count/selfmon_arch.h"
#include "count/selfmon_math.h"
#include "perfev/sys.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define READ_FORMAT \
	(PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED | \
	 PERF_FORMAT_TOTAL_TIME_RUNNING)

static uint64_t next_uid = 1;

/* The calling thread's groups, by set uid (uids are never reused, so a
 * freed set's entry can never match a new set). */
#define TL_SLOTS 4
static __thread struct {
	uint64_t uid;
	struct pv_sm_group *g;
} tl_cache[TL_SLOTS];
static __thread unsigned tl_next;
static __thread pid_t tl_tid;
/* Groups belong to a thread by this serial, not by tid: a tid is reused
 * after its thread exits, a serial never. */
static __thread uint64_t tl_serial;
static uint64_t next_serial = 1;

/* A forked child is another task: its own groups, not its parent's. */
static void atfork_child(void)
{
	memset(tl_cache, 0, sizeof(tl_cache));
	tl_tid = 0;
	tl_serial = 0;
}
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
static void atfork_register(void) { pthread_atfork(NULL, NULL, atfork_child); }

PERFEV_API struct perfev_selfmon *perfev_selfmon_new_evlist(const struct perfev_evlist *list,
							    unsigned flags)
{
	size_t nr = list ? perfev_evlist_count(list) : 0;
	if (nr == 0)
		return pv_error_null(EINVAL, "a counter set needs at least one event");
	if (nr > PERFEV_SELFMON_MAX_EVENTS)
		return pv_error_null(EINVAL, "%zu events in one counter set: at most %d fit one group; "
				     "use several sets", nr, PERFEV_SELFMON_MAX_EVENTS);
	struct perfev_selfmon *s = calloc(1, sizeof(*s));
	if (!s)
		return pv_error_null(ENOMEM, "out of memory");
	s->nr = nr;
	s->flags = flags;
	for (size_t i = 0; i < nr; i++) {
		const struct perfev_evsel *e = perfev_evlist_at(list, i);
		struct perfev_attr *a = &s->attr[i];
		*a = *perfev_evsel_attr_const(e);
		/* one event: the same fields without GROUP, which spares the
		 * kernel's group walk (and its allocation) on every read */
		a->read_format = nr > 1 ? READ_FORMAT : READ_FORMAT & ~(uint64_t)PERF_FORMAT_GROUP;
		a->disabled = i == 0; /* the leader starts and stops the group */
		a->inherit = !!(flags & PERFEV_SELFMON_INHERIT);
		a->sample_period = 0;
		a->freq = 0;
		a->sample_type = 0;
		const char *f = perfev_evsel_filter(e);
		if (!(s->name[i] = pv_strdup(perfev_evsel_name(e))) ||
		    (f && !(s->filter[i] = pv_strdup(f)))) {
			perfev_selfmon_free(s);
			return NULL;
		}
	}
	pthread_mutex_init(&s->lock, NULL);
	s->uid = __atomic_fetch_add(&next_uid, 1, __ATOMIC_RELAXED);
	pthread_once(&atfork_once, atfork_register);
	pv_sm_registry_add(s);
	return s;
}

PERFEV_API struct perfev_selfmon *perfev_selfmon_new(const char *events, unsigned flags)
{
	struct perfev_evlist *l = perfev_evlist_new();
	if (!l)
		return NULL;
	struct perfev_parse_error err;
	struct perfev_selfmon *s = NULL;
	if (perfev_evlist_parse(l, events, &err) < 0) {
		char msg[768];
		int e = errno;
		perfev_parse_error_format(&err, events, msg, sizeof(msg));
		pv_error(e, "counter set: %s", msg);
	} else {
		s = perfev_selfmon_new_evlist(l, flags);
	}
	perfev_evlist_free(l);
	return s;
}

static void group_close(struct pv_sm_group *g, size_t nr)
{
	long pagesz = sysconf(_SC_PAGESIZE);
	for (size_t i = 0; i < nr; i++) {
		if (g->page[i])
			munmap(g->page[i], (size_t)pagesz);
		if (g->fd[i] >= 0)
			close(g->fd[i]);
	}
	pv_sm_regions_free(g);
	free(g);
}

PERFEV_API void perfev_selfmon_free(struct perfev_selfmon *s)
{
	if (!s)
		return;
	if (s->uid) {
		pv_sm_registry_remove(s);
		pthread_mutex_destroy(&s->lock);
	}
	for (struct pv_sm_group *g = s->groups, *n; g; g = n) {
		n = g->next;
		group_close(g, s->nr);
	}
	for (size_t i = 0; i < s->nr; i++) {
		free(s->name[i]);
		free(s->filter[i]);
	}
	free(s);
}

PERFEV_API size_t perfev_selfmon_count(const struct perfev_selfmon *s) { return s->nr; }

PERFEV_API const char *perfev_selfmon_name(const struct perfev_selfmon *s, size_t i)
{
	return i < s->nr ? s->name[i] : NULL;
}

static bool is_cpu_pmu_type(uint32_t type)
{
	return type == PERF_TYPE_HARDWARE || type == PERF_TYPE_HW_CACHE || type == PERF_TYPE_RAW;
}

#if defined(__aarch64__)
/* A dynamic PMU type with the arm64 'rdpmc' format term (config1:1). */
static bool arm64_pmu_has_user_read(uint32_t type)
{
	if (is_cpu_pmu_type(type))
		return true;
	DIR *d = opendir("/sys/bus/event_source/devices");
	bool found = false;
	struct dirent *de;
	while (d && !found && (de = readdir(d))) {
		char path[512];
		int64_t t;
		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", de->d_name);
		if (de->d_name[0] == '.' || pv_read_i64(path, &t) < 0 || t != type)
			continue;
		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/format/rdpmc", de->d_name);
		found = access(path, R_OK) == 0;
	}
	if (d)
		closedir(d);
	return found;
}
#endif

/* Opens event i; on arm64 asks for user access and a 64-bit counter
 * first, then less, since hardware without 64-bit counters refuses. */
static int open_event(struct perfev_selfmon *s, size_t i, int leader_fd, bool want_fast)
{
	struct perfev_attr a = s->attr[i];
#if defined(__aarch64__)
	if (want_fast && arm64_pmu_has_user_read(a.type)) {
		static const uint64_t tries[] = {
			PV_SM_ARM64_CONFIG1_USER | PV_SM_ARM64_CONFIG1_64BIT, PV_SM_ARM64_CONFIG1_USER};
		for (size_t t = 0; t < PV_ARRAY_SIZE(tries); t++) {
			struct perfev_attr b = a;
			b.config1 |= tries[t];
			int fd = perfev_open(&b, 0, -1, leader_fd, 0);
			if (fd >= 0)
				return fd;
		}
	}
#else
	(void)want_fast;
#endif
	return perfev_open(&a, 0, -1, leader_fd, 0);
}

/* Why event i has no user-space counter, in words with the fix. */
static void explain_slow(struct perfev_selfmon *s, size_t i, char *buf, size_t len)
{
	uint32_t type = s->attr[i].type;
	if (!is_cpu_pmu_type(type) && type != PERF_TYPE_SOFTWARE && type != PERF_TYPE_TRACEPOINT &&
	    type != PERF_TYPE_BREAKPOINT)
		type = PERF_TYPE_RAW; /* a dynamic PMU: treat as hardware */
	if (!is_cpu_pmu_type(type)) {
		snprintf(buf, len, "read(2) of the group: '%s' is a software event, it has no "
			 "user-space counter", s->name[i]);
		return;
	}
#if defined(__aarch64__)
	struct perfev_sysctl sc;
	perfev_sysctl_read(&sc);
	long long ua = sc.user_access == PERFEV_SYSCTL_ABSENT ? -1 : sc.user_access;
	if (!pv_sm_arm64_user_access(ua, buf, len))
		return;
	snprintf(buf, len, "read(2) of the group: the kernel gives '%s' no user access "
		 "(chained or heterogeneous-CPU events cannot have it; pin the task to one CPU "
		 "type and name its PMU)", s->name[i]);
#else
	int64_t rdpmc = -1;
	if (pv_read_i64("/sys/bus/event_source/devices/cpu/rdpmc", &rdpmc) == 0 && rdpmc == 0)
		snprintf(buf, len, "read(2) of the group: rdpmc is off for '%s' "
			 "(/sys/bus/event_source/devices/cpu/rdpmc is 0); to read without a system "
			 "call: echo 1 > /sys/bus/event_source/devices/cpu/rdpmc", s->name[i]);
	else
		snprintf(buf, len, "read(2) of the group: the kernel gives '%s' no user-space "
			 "counter (cap_user_rdpmc is 0)", s->name[i]);
#endif
}

/* arm64 sets cap_user_rdpmc for every event that asked for user access,
 * whatever perf_user_access says; with it off the kernel traps mrs and
 * gives the page index 0, so the sysctl decides (seen in the arm64 VM). */
static bool user_reads_on(void)
{
#if defined(__aarch64__)
	struct perfev_sysctl sc;
	perfev_sysctl_read(&sc);
	return sc.user_access == 1;
#else
	return true;
#endif
}

static void set_path(struct perfev_selfmon *s, struct pv_sm_group *g)
{
	long pagesz = sysconf(_SC_PAGESIZE);
	g->fast = false;
	if (s->flags & PERFEV_SELFMON_NO_USER_PAGE) {
		snprintf(g->path, sizeof(g->path), "read(2) of the group: the user page is off "
			 "(PERFEV_SELFMON_NO_USER_PAGE)");
	} else if (s->flags & PERFEV_SELFMON_INHERIT) {
		snprintf(g->path, sizeof(g->path), "read(2) of the group: inherited counters add "
			 "other tasks, the user page sees only this thread");
	} else if (!PV_SM_HAVE_FAST) {
		snprintf(g->path, sizeof(g->path), "read(2) of the group: this architecture has no "
			 "user-space counter reads in perfev");
	} else {
		g->fast = true;
		for (size_t i = 0; i < s->nr && g->fast; i++) {
			const struct perf_event_mmap_page *pc = g->page[i];
			if (!pc) {
				snprintf(g->path, sizeof(g->path), "read(2) of the group: the user page "
					 "of '%s' could not be mapped", s->name[i]);
				g->fast = false;
			} else if (!(pc->capabilities & PV_SM_CAP_USER_RDPMC) || !user_reads_on()) {
				explain_slow(s, i, g->path, sizeof(g->path));
				g->fast = false;
			}
		}
		if (g->fast)
			snprintf(g->path, sizeof(g->path), "user page: %s, no system call while the "
				 "counters are on the PMU, read(2) of the group otherwise",
				 PV_SM_SIGN_EXTEND ? "rdpmc" : "mrs");
	}
	if (!g->fast) /* the pages would only cost memory */
		for (size_t i = 0; i < s->nr; i++)
			if (g->page[i]) {
				munmap(g->page[i], (size_t)pagesz);
				g->page[i] = NULL;
			}
}

static struct pv_sm_group *group_open(struct perfev_selfmon *s, pid_t tid)
{
	struct pv_sm_group *g = calloc(1, sizeof(*g));
	if (!g)
		return pv_error_null(ENOMEM, "out of memory");
	g->tid = tid;
	for (size_t i = 0; i < PERFEV_SELFMON_MAX_EVENTS; i++)
		g->fd[i] = -1;
	bool want_fast = PV_SM_HAVE_FAST &&
			 !(s->flags & (PERFEV_SELFMON_NO_USER_PAGE | PERFEV_SELFMON_INHERIT));
	long pagesz = sysconf(_SC_PAGESIZE);
	for (size_t i = 0; i < s->nr; i++) {
		int fd = open_event(s, i, i ? g->fd[0] : -1, want_fast);
		if (fd < 0) {
			char msg[1024];
			snprintf(msg, sizeof(msg), "%s", perfev_errmsg());
			group_close(g, s->nr);
			return pv_error_null(-fd, "counter set, event '%s': %s", s->name[i], msg);
		}
		g->fd[i] = fd;
		int r = perfev_ioc_id(fd, &g->id[i]);
		if (r == 0 && s->filter[i])
			r = perfev_ioc_set_filter(fd, s->filter[i]);
		if (r < 0) {
			group_close(g, s->nr);
			return pv_error_null(-r, "counter set, event '%s': %s", s->name[i], perfev_errmsg());
		}
		if (want_fast) {
			void *p = mmap(NULL, (size_t)pagesz, PROT_READ, MAP_SHARED, fd, 0);
			g->page[i] = p == MAP_FAILED ? NULL : p;
		}
	}
	set_path(s, g);
	return g;
}

struct pv_sm_group *pv_sm_group_get(struct perfev_selfmon *s)
{
	for (unsigned i = 0; i < TL_SLOTS; i++)
		if (tl_cache[i].uid == s->uid)
			return tl_cache[i].g;
	if (!tl_serial) {
		tl_tid = gettid();
		tl_serial = __atomic_fetch_add(&next_serial, 1, __ATOMIC_RELAXED);
	}
	pthread_mutex_lock(&s->lock);
	struct pv_sm_group *g = s->groups;
	while (g && g->thread != tl_serial)
		g = g->next;
	if (!g && (g = group_open(s, tl_tid))) {
		g->thread = tl_serial;
		g->next = s->groups;
		s->groups = g;
	}
	pthread_mutex_unlock(&s->lock);
	if (g) {
		unsigned slot = tl_next++ % TL_SLOTS;
		tl_cache[slot].uid = s->uid;
		tl_cache[slot].g = g;
	}
	return g;
}

static void scale_all(struct perfev_selfmon_values *v)
{
	for (uint32_t i = 0; i < v->nr; i++)
		v->scaled[i] = pv_sm_scale(v->value[i], v->enabled, v->running);
}

/* One read(2) of the whole group; values matched to events by id. */
static int group_read_syscall(struct perfev_selfmon *s, struct pv_sm_group *g,
			      struct perfev_selfmon_values *v)
{
	uint64_t buf[3 + 2 * PERFEV_SELFMON_MAX_EVENTS];
	if (s->nr == 1) { /* value, enabled, running, id */
		ssize_t n = read(g->fd[0], buf, 4 * sizeof(uint64_t));
		if (n != 4 * sizeof(uint64_t))
			return pv_error(n < 0 ? errno : EIO, "reading the counter of thread %d: %s",
					(int)g->tid, n < 0 ? strerror(errno) : "short read");
		v->value[0] = buf[0];
		v->enabled = buf[1];
		v->running = buf[2];
		return 0;
	}
	size_t want = (3 + 2 * s->nr) * sizeof(uint64_t);
	ssize_t n = read(g->fd[0], buf, want);
	if (n < 0)
		return pv_error(errno, "reading the counter group of thread %d: %s", (int)g->tid,
				strerror(errno));
	if ((size_t)n < want || buf[0] != s->nr)
		return pv_error(EIO, "reading the counter group of thread %d: %zd bytes, %llu events "
				"(expected %zu bytes, %zu events)", (int)g->tid, n,
				(unsigned long long)buf[0], want, s->nr);
	v->enabled = buf[1];
	v->running = buf[2];
	for (size_t i = 0; i < s->nr; i++) {
		size_t j = i;
		if (buf[4 + 2 * i] != g->id[i]) /* the kernel's order is ours; in case not */
			for (j = 0; j < s->nr && buf[4 + 2 * j] != g->id[i]; j++)
				;
		if (j == s->nr)
			return pv_error(EIO, "reading the counter group: no value for '%s' (id %llu)",
					s->name[i], (unsigned long long)g->id[i]);
		v->value[i] = buf[3 + 2 * j];
	}
	return 0;
}

int pv_sm_group_read(struct perfev_selfmon *s, struct pv_sm_group *g,
		     struct perfev_selfmon_values *v)
{
	v->nr = (uint32_t)s->nr;
	v->threads = 1;
	if (g->fast) {
		size_t i;
		struct pv_sm_snap sn;
		for (i = 0; i < s->nr; i++) {
			const struct pv_sm_reader *t = s->test_reader;
			int r = __builtin_expect(t != NULL, 0)
					? pv_sm_page_read(g->page[i], t->pmc, t->clock, t->ctx,
							  t->sign_extend, &sn)
					: pv_sm_page_read(g->page[i], pv_sm_arch_read_pmc,
							  pv_sm_arch_read_clock, NULL,
							  PV_SM_SIGN_EXTEND, &sn);
			if (r <= 0)
				break;
			v->value[i] = sn.count;
			if (i == 0) {
				v->enabled = sn.enabled;
				v->running = sn.running;
			}
		}
		if (i == s->nr) {
			scale_all(v);
			return 0;
		}
	}
	int r = group_read_syscall(s, g, v);
	if (r == 0)
		scale_all(v);
	return r;
}

PERFEV_API int perfev_selfmon_read(struct perfev_selfmon *s, struct perfev_selfmon_values *v)
{
	struct pv_sm_group *g = pv_sm_group_get(s);
	if (!g)
		return -errno;
	return pv_sm_group_read(s, g, v);
}

PERFEV_API int perfev_selfmon_read_total(struct perfev_selfmon *s, struct perfev_selfmon_values *v)
{
	memset(v, 0, sizeof(*v));
	v->nr = (uint32_t)s->nr;
	int r = 0;
	pthread_mutex_lock(&s->lock);
	for (struct pv_sm_group *g = s->groups; g && r == 0; g = g->next) {
		struct perfev_selfmon_values t;
		/* another thread's counters: only read(2) sees them */
		if ((r = group_read_syscall(s, g, &t)) < 0)
			break;
		t.nr = v->nr;
		scale_all(&t);
		v->enabled += t.enabled;
		v->running += t.running;
		v->threads++;
		for (size_t i = 0; i < s->nr; i++) {
			v->value[i] += t.value[i];
			v->scaled[i] += t.scaled[i];
		}
	}
	pthread_mutex_unlock(&s->lock);
	return r;
}

/*
 * Start and stop switch the leader alone: members (opened enabled) count
 * exactly when their leader is on the PMU. Not PERF_IOC_FLAG_GROUP: on
 * Linux 6.18 a group disable followed by a group enable left a software
 * member (page-faults under task-clock) off for good (seen here, tested by
 * live_selfmon/region_counts_equal_plain_reads).
 */
PERFEV_API int perfev_selfmon_start(struct perfev_selfmon *s)
{
	struct pv_sm_group *g = pv_sm_group_get(s);
	if (!g)
		return -errno;
	int r = perfev_ioc_enable(g->fd[0], false);
	if (r == 0)
		g->started = g->manual = true;
	return r;
}

PERFEV_API int perfev_selfmon_stop(struct perfev_selfmon *s)
{
	struct pv_sm_group *g = pv_sm_group_get(s);
	if (!g)
		return -errno;
	int r = perfev_ioc_disable(g->fd[0], false);
	if (r == 0) {
		g->started = false;
		g->manual = true;
	}
	return r;
}

PERFEV_API int perfev_selfmon_reset(struct perfev_selfmon *s)
{
	struct pv_sm_group *g = pv_sm_group_get(s);
	return g ? perfev_ioc_reset(g->fd[0], true) : -errno;
}

PERFEV_API int perfev_selfmon_fd(struct perfev_selfmon *s, size_t i)
{
	if (i >= s->nr)
		return pv_error(ERANGE, "event %zu of a set of %zu", i, s->nr);
	struct pv_sm_group *g = pv_sm_group_get(s);
	return g ? g->fd[i] : -errno;
}

PERFEV_API const char *perfev_selfmon_path(struct perfev_selfmon *s)
{
	struct pv_sm_group *g = pv_sm_group_get(s);
	return g ? g->path : "";
}
