/*
 * probe_tracefs.c — probe events created in tracefs, and their removal:
 * a registry of what this process created, emptied by perfev_probe_free,
 * at exit, and, when the program asked (perfev_probe_cleanup_on_signals),
 * on the default-action termination signals.
 *
 * The registry is a fixed array of preformatted removal lines so the
 * signal handler can use it with open/write/close alone.
 */
#define _GNU_SOURCE
#include "core/internal.h"
#include "perfev/probe.h"
#include "tracing/probe_int.h"
#include "tracing/tracefs_int.h"

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_CREATED 256

struct created {
	bool used, kernel;
	char event[160];   /* perfev_PID/NAME */
	char control[300]; /* absolute path of uprobe_events/kprobe_events */
};

static struct created created[MAX_CREATED];
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t hooks_once = PTHREAD_ONCE_INIT;
static pthread_once_t signals_once = PTHREAD_ONCE_INIT;
static bool signals_wanted; /* perfev_probe_cleanup_on_signals was called */
static bool hooks_done;     /* a probe was created: the atexit hook is in */
static const int term_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
static struct sigaction old_actions[PV_ARRAY_SIZE(term_signals)];

/* Signal-safe: "-:EVENT" appended to the control file. */
static int remove_line(const struct created *c)
{
	char line[200] = "-:";
	size_t n = strlen(c->event);
	memcpy(line + 2, c->event, n + 1);
	int fd = open(c->control, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ssize_t w = write(fd, line, n + 2);
	int e = errno;
	close(fd);
	return w == (ssize_t)(n + 2) ? 0 : -(w < 0 ? e : EIO);
}

/* Signal-safe: close every perf event fd of this process, so that the
 * probe events they use are no longer busy. Only for a dying process. */
static void close_perf_fds(void)
{
	int dfd = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return;
	char buf[4096];
	long n;
	while ((n = syscall(SYS_getdents64, dfd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < n;) {
			struct dirent64 *d = (struct dirent64 *)(buf + off);
			off += d->d_reclen;
			char link[64];
			ssize_t l = readlinkat(dfd, d->d_name, link, sizeof(link) - 1);
			if (l <= 0)
				continue;
			link[l] = 0;
			if (!strcmp(link, "anon_inode:[perf_event]")) {
				int fd = 0;
				for (const char *p = d->d_name; *p >= '0' && *p <= '9'; p++)
					fd = fd * 10 + (*p - '0');
				if (fd != dfd)
					close(fd);
			}
		}
	}
	close(dfd);
}

static void remove_all_unlocked(void)
{
	for (size_t i = 0; i < MAX_CREATED; i++)
		if (created[i].used && remove_line(&created[i]) == 0)
			created[i].used = false;
}

static void on_exit_cleanup(void)
{
	bool any = false;
	for (size_t i = 0; i < MAX_CREATED; i++)
		any |= created[i].used;
	if (!any)
		return;
	close_perf_fds(); /* the process is ending: nothing will read them again */
	remove_all_unlocked();
}

static void on_term_signal(int sig)
{
	on_exit_cleanup();
	for (size_t i = 0; i < PV_ARRAY_SIZE(term_signals); i++)
		if (term_signals[i] == sig)
			sigaction(sig, &old_actions[i], NULL);
	raise(sig); /* unblocked when we return: dies as it would have */
}

static void install_hooks(void)
{
	atexit(on_exit_cleanup);
	__atomic_store_n(&hooks_done, true, __ATOMIC_RELEASE);
}

static void install_signals(void)
{
	for (size_t i = 0; i < PV_ARRAY_SIZE(term_signals); i++) {
		struct sigaction cur;
		if (sigaction(term_signals[i], NULL, &cur) < 0 || cur.sa_handler != SIG_DFL ||
		    (cur.sa_flags & SA_SIGINFO))
			continue; /* the program handles it: its exit path runs atexit */
		struct sigaction sa;
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_term_signal;
		sigemptyset(&sa.sa_mask);
		sigaction(term_signals[i], &sa, &old_actions[i]);
	}
}

static void sanitize(char *dst, size_t len, const char *src)
{
	size_t j = 0;
	for (size_t i = 0; src[i] && j + 1 < len; i++) {
		char c = src[i];
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
			  (c >= '0' && c <= '9' && j > 0);
		dst[j++] = ok ? c : '_';
	}
	dst[j] = 0;
	if (!j)
		snprintf(dst, len, "probe");
}

int64_t pv_probe_tracefs_create(bool kernel, bool ret, const char *name_hint,
				const char *location, char *event, size_t len)
{
	const char *file = kernel ? "kprobe_events" : "uprobe_events";
	char control[300], base[96], group[32];
	if (!pv_tracefs_root())
		return -errno;
	pv_tracefs_path(control, sizeof(control), file);
	if (access(control, F_OK) != 0)
		return pv_error(ENOTSUP, "the kernel has no %s PMU and no tracefs %s: it was built "
				"without %s; %s probes cannot be used here",
				kernel ? "kprobe" : "uprobe", file,
				kernel ? "CONFIG_KPROBES/CONFIG_KPROBE_EVENTS" :
					 "CONFIG_UPROBES/CONFIG_UPROBE_EVENTS",
				kernel ? "kernel" : "user");
	pthread_once(&hooks_once, install_hooks);
	if (__atomic_load_n(&signals_wanted, __ATOMIC_ACQUIRE))
		pthread_once(&signals_once, install_signals);
	sanitize(base, sizeof(base) - 12, name_hint);
	if (ret)
		strcat(base, "__return");
	snprintf(group, sizeof(group), "perfev_%d", (int)getpid());

	pthread_mutex_lock(&lock);
	size_t slot = MAX_CREATED;
	for (size_t i = 0; i < MAX_CREATED && slot == MAX_CREATED; i++)
		if (!created[i].used)
			slot = i;
	int64_t r;
	if (slot == MAX_CREATED) {
		r = pv_error(ENOSPC, "more than %d probes created by one process", MAX_CREATED);
		goto out;
	}
	char name[128];
	for (int n = 0;; n++) {
		if (n)
			snprintf(name, sizeof(name), "%s_%d", base, n);
		else
			snprintf(name, sizeof(name), "%s", base);
		char rel[256], dir[400];
		snprintf(rel, sizeof(rel), "events/%s/%s", group, name);
		if (access(pv_tracefs_path(dir, sizeof(dir), rel), F_OK) != 0)
			break;
	}
	char line[4400];
	snprintf(line, sizeof(line), "%c:%s/%s %s", ret ? 'r' : 'p', group, name, location);
	r = pv_tracefs_append(file, line);
	if (r < 0)
		goto out;
	struct created *c = &created[slot];
	snprintf(c->event, sizeof(c->event), "%s/%s", group, name);
	snprintf(c->control, sizeof(c->control), "%s", control);
	c->kernel = kernel;
	c->used = true;
	snprintf(event, len, "%s", c->event);
	r = pv_tracefs_event_id(group, name);
	if (r < 0) {
		int e = errno;
		remove_line(c);
		c->used = false;
		errno = e;
	}
out:
	pthread_mutex_unlock(&lock);
	return r;
}

int pv_probe_tracefs_remove(const char *event)
{
	int r = -ENOENT;
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < MAX_CREATED; i++) {
		if (!created[i].used || strcmp(created[i].event, event))
			continue;
		r = remove_line(&created[i]);
		if (r == 0)
			created[i].used = false;
		else
			pv_error(-r, "cannot remove probe %s from %s: %s%s", event,
				 created[i].control, strerror(-r),
				 r == -EBUSY ? " (an event on it is still open: close it first)" : "");
		break;
	}
	pthread_mutex_unlock(&lock);
	return r;
}

int pv_probe_tracefs_remove_all(void)
{
	int left = 0;
	pthread_mutex_lock(&lock);
	remove_all_unlocked();
	for (size_t i = 0; i < MAX_CREATED; i++)
		left += created[i].used;
	pthread_mutex_unlock(&lock);
	return left;
}

PERFEV_API int perfev_probe_cleanup_on_signals(void)
{
	__atomic_store_n(&signals_wanted, true, __ATOMIC_RELEASE);
	if (__atomic_load_n(&hooks_done, __ATOMIC_ACQUIRE)) /* probes exist already */
		pthread_once(&signals_once, install_signals);
	return 0;
}
