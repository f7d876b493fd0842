/*
 * watcher.c — `perfev watch`: a command started stopped at its exec
 * (ptrace), its target address resolved at the real load address, a
 * breakpoint sampling every access on each CPU (inherited by its children),
 * and each sample turned into the accessing instruction and call chain.
 */
#define _GNU_SOURCE
#include "core/internal.h"
#include "core/opts.h"
#include "perfev/counter.h"
#include "perfev/record.h"
#include "perfev/ring.h"
#include "perfev/sys.h"
#include "perfev/watch.h"
#include "watch/watch_int.h"

#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

struct perfev_watcher {
	pid_t pid;
	bool running; /* the command has not been waited for */
	int status;
	char exe[PATH_MAX];
	uint64_t addr;
	size_t len;
	unsigned type;
	struct perfev_attr attr;
	int *fds;
	struct perfev_ring **rings;
	size_t nr;
	struct perfev_decoder *dec;
	struct pv_wsym *sym;
	struct perfev_watch_frame *frames;
	size_t cap_frames;
	uint64_t n, lost;
	volatile sig_atomic_t stop;
	perfev_watch_access_fn fn;
	void *arg;
};

/* Fork + PTRACE_TRACEME + exec: the child stops with SIGTRAP once exec is done. */
static int start_stopped(struct perfev_watcher *w, char *const argv[])
{
	w->pid = fork();
	if (w->pid < 0)
		return pv_error(errno, "fork: %s", strerror(errno));
	if (w->pid == 0) {
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		execvp(argv[0], argv);
		_exit(127);
	}
	w->running = true;
	int st;
	while (waitpid(w->pid, &st, 0) < 0)
		if (errno != EINTR)
			return pv_error(errno, "waitpid: %s", strerror(errno));
	if (!WIFSTOPPED(st)) {
		w->running = false;
		w->status = st;
		return pv_error(ENOENT, "cannot run '%s': not found or not executable (exit %d)",
				argv[0], WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	}
	return 0;
}

static int read_maps(struct perfev_watcher *w)
{
	char path[64], line[PATH_MAX + 128];
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)w->pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return pv_error(errno, "%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off;
		int n = 0;
		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %n", &s, &e, &off, &n) < 3 || !n)
			continue;
		char *p = line + n;
		p[strcspn(p, "\n")] = 0;
		pv_wsym_add_map(w->sym, s, e - s, off, p);
	}
	fclose(f);
	return 0;
}

static int resolve_target(struct perfev_watcher *w, const char *target)
{
	char link[64];
	snprintf(link, sizeof(link), "/proc/%d/exe", (int)w->pid);
	ssize_t n = readlink(link, w->exe, sizeof(w->exe) - 1);
	if (n < 0)
		return pv_error(errno, "%s: %s", link, strerror(errno));
	w->exe[n] = 0;
	int r = read_maps(w);
	if (r < 0)
		return r;
	char *end;
	if (!strncmp(target, "0x", 2) || (target[0] >= '0' && target[0] <= '9')) {
		w->addr = strtoull(target, &end, 0);
		if (*end)
			return pv_error(EINVAL, "watch target '%s' is neither an address nor a symbol",
					target);
		if (!w->len)
			w->len = sizeof(long);
		return 0;
	}
	uint64_t vaddr, size, bias;
	if ((r = pv_wsym_lookup(w->sym, w->exe, target, &vaddr, &size)) < 0)
		return r;
	if ((r = pv_wsym_bias(w->sym, w->exe, &bias)) < 0)
		return r;
	w->addr = vaddr + bias;
	if (!w->len && w->type == PERFEV_WATCH_X)
		w->len = sizeof(long); /* an execute breakpoint covers one instruction */
	if (!w->len)
		w->len = (size == 1 || size == 2 || size == 4 || size == 8) ? size : 8;
	return 0;
}

static int open_events(struct perfev_watcher *w)
{
	struct perfev_cpus *cpus = perfev_cpus_online();
	if (!cpus)
		return -errno;
	size_t nc = perfev_cpus_count(cpus);
	w->fds = calloc(nc, sizeof(*w->fds));
	w->rings = calloc(nc, sizeof(*w->rings));
	if (!w->fds || !w->rings) {
		perfev_cpus_free(cpus);
		return pv_error(ENOMEM, "out of memory");
	}
	struct perfev_attr *a = &w->attr;
	a->size = PERFEV_ATTR_SIZE_LATEST;
	a->type = PERF_TYPE_BREAKPOINT;
	a->bp_type = w->type;
	a->bp_addr = w->addr;
	a->bp_len = w->len;
	a->sample_period = 1;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			 PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_ADDR;
	a->exclude_kernel = 1;
	a->exclude_hv = 1;
	a->exclude_callchain_kernel = 1;
	a->inherit = 1;
	a->mmap = 1;
	a->mmap2 = 1;
	a->comm = 1;
	a->sample_id_all = 1;
	a->wakeup_events = 1;
	int r = 0;
	for (size_t i = 0; i < nc && r == 0; i++) {
		int fd = perfev_open(a, w->pid, perfev_cpus_at(cpus, i), -1, 0);
		if (fd < 0) {
			r = fd;
			pv_watch_explain(-fd, w->type);
			break;
		}
		w->fds[w->nr] = fd;
		w->rings[w->nr] = perfev_ring_mmap(fd, 16, false);
		if (!w->rings[w->nr]) {
			close(fd);
			r = -errno;
			break;
		}
		w->nr++;
	}
	perfev_cpus_free(cpus);
	if (r == 0 && perfev_decoder_add_attr(w->dec, a, NULL, 0) < 0)
		r = -errno;
	return r;
}

PERFEV_API struct perfev_watcher *perfev_watcher_new(const struct perfev_watcher_opts *opts)
{
	if (!PV_OPTS_VALID(opts, perfev_watcher_opts))
		return NULL;
	struct perfev_watcher_opts oc;
	PV_OPTS_COPY(oc, opts);
	if (!opts || !oc.argv || !oc.argv[0] || !oc.target)
		return pv_error_null(EINVAL, "watch: give the address or symbol and a command");
	opts = &oc;
	struct perfev_watcher *w = calloc(1, sizeof(*w));
	if (!w)
		return pv_error_null(ENOMEM, "out of memory");
	w->status = -1;
	w->type = opts->type ? opts->type : PERFEV_WATCH_W;
	w->len = opts->len;
	w->dec = perfev_decoder_new();
	w->sym = pv_wsym_new();
	int r = w->dec && w->sym ? 0 : -ENOMEM;
	if (r == 0)
		r = start_stopped(w, opts->argv);
	if (r == 0)
		r = resolve_target(w, opts->target);
	if (r == 0)
		r = open_events(w);
	if (r < 0) {
		int e = errno;
		perfev_watcher_free(w);
		errno = e;
		return NULL;
	}
	return w;
}

PERFEV_API uint64_t perfev_watcher_addr(const struct perfev_watcher *w) { return w->addr; }
PERFEV_API size_t perfev_watcher_len(const struct perfev_watcher *w) { return w->len; }

static void frame_of(struct perfev_watcher *w, int pid, uint64_t ip, struct perfev_watch_frame *f)
{
	struct pv_wloc loc;
	pv_wsym_resolve(w->sym, pid, ip, &loc);
	*f = (struct perfev_watch_frame){ip, loc.symbol, loc.symoff, loc.dso, loc.rel};
}

static void on_sample(struct perfev_watcher *w, const struct perfev_sample *s)
{
	struct perfev_watch_access a = {0};
	a.n = ++w->n;
	a.pid = s->pid;
	a.tid = s->tid;
	a.time = s->time;
	a.addr = s->addr ? s->addr : w->addr;
	a.trap_ip = s->ip;
	uint64_t insn = s->ip;
	/* data breakpoints trap after the access; an execute breakpoint faults
	 * before its instruction, so the IP is the instruction itself */
	if (w->type != PERFEV_WATCH_X)
		pv_wsym_insn_before(w->sym, (int)s->pid, s->ip, &insn);
	frame_of(w, (int)s->pid, insn, &a.insn);
	size_t n = 0;
	if (pv_grow(&w->frames, &w->cap_frames, s->callchain_nr + 1, sizeof(*w->frames)) == 0) {
		for (uint64_t i = 0; i < s->callchain_nr; i++) {
			uint64_t ip = s->callchain[i];
			if (ip >= (uint64_t)PERF_CONTEXT_MAX)
				continue; /* PERF_CONTEXT_USER and the other markers */
			if (n == 0 && ip == s->ip)
				ip = insn; /* the innermost frame is the access itself */
			frame_of(w, (int)s->pid, ip, &w->frames[n++]);
		}
		if (!n)
			w->frames[n++] = a.insn;
	}
	a.nr_frames = n;
	a.frames = w->frames;
	w->fn(w->arg, &a);
}

static int on_record(void *ctx, const void *bytes, size_t size)
{
	struct perfev_watcher *w = ctx;
	struct perfev_record rec;
	if (perfev_decoder_decode(w->dec, bytes, size, &rec) < 0)
		return 0;
	switch (rec.type) {
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		pv_wsym_add_map(w->sym, rec.u.mmap.addr, rec.u.mmap.len, rec.u.mmap.pgoff,
				rec.u.mmap.filename);
		break;
	case PERF_RECORD_LOST:
		w->lost += rec.u.lost.lost;
		break;
	case PERF_RECORD_SAMPLE:
		on_sample(w, &rec.u.sample);
		break;
	}
	return 0;
}

PERFEV_API int perfev_watcher_run(struct perfev_watcher *w, perfev_watch_access_fn fn, void *arg)
{
	w->fn = fn;
	w->arg = arg;
	if (ptrace(PTRACE_DETACH, w->pid, NULL, NULL) < 0)
		return pv_error(errno, "cannot let the command run (PTRACE_DETACH): %s",
				strerror(errno));
	struct pollfd *pfd = calloc(w->nr ? w->nr : 1, sizeof(*pfd));
	if (!pfd)
		return pv_error(ENOMEM, "out of memory");
	for (size_t i = 0; i < w->nr; i++)
		pfd[i] = (struct pollfd){w->fds[i], POLLIN, 0};
	while (!w->stop && w->running) {
		poll(pfd, w->nr, 100);
		for (size_t i = 0; i < w->nr; i++)
			perfev_ring_drain(w->rings[i], on_record, w);
		int st;
		pid_t p = waitpid(w->pid, &st, WNOHANG);
		if (p == w->pid) {
			w->running = false;
			w->status = st;
		}
	}
	free(pfd);
	for (size_t i = 0; i < w->nr; i++)
		perfev_ring_drain(w->rings[i], on_record, w);
	return 0;
}

PERFEV_API void perfev_watcher_stop(struct perfev_watcher *w) { w->stop = 1; }
PERFEV_API int perfev_watcher_status(const struct perfev_watcher *w) { return w->status; }
PERFEV_API uint64_t perfev_watcher_lost(const struct perfev_watcher *w) { return w->lost; }

PERFEV_API void perfev_watcher_free(struct perfev_watcher *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->nr; i++) {
		perfev_ring_munmap(w->rings[i]);
		close(w->fds[i]);
	}
	if (w->running) {
		kill(w->pid, SIGKILL);
		waitpid(w->pid, NULL, 0);
	}
	free(w->fds);
	free(w->rings);
	free(w->frames);
	perfev_decoder_free(w->dec);
	pv_wsym_free(w->sym);
	free(w);
}
