/* recorder_open.c — the recorder's events: their attrs (as perf sets them),
 * one per event x CPU x thread, and one ring per CPU that all share. */
#define _GNU_SOURCE
#include "core/internal.h"
#include "recorder/recorder_int.h"
#include "perfev/sys.h"
#include "perfev/record.h"
#include "perfev/tracepoint.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The user registers a DWARF unwinder needs (perf's PERF_REGS_MASK). */
#if defined(__x86_64__)
#define REC_REGS_USER 0xff0fffULL /* ax..r15 without the segment registers */
#elif defined(__aarch64__)
#define REC_REGS_USER ((1ULL << 33) - 1)
#else
#define REC_REGS_USER 0
#endif

static void config_attr(struct perfev_recorder *r, struct perfev_attr *a, size_t idx)
{
	const struct perfev_record_opts *o = &r->opts;
	/* IDENTIFIER first and IP, TID next: every sample has its event id at
	 * offset 8 and its ip and pid at fixed offsets for the drain loop. */
	a->sample_type |= PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			  PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD | PERF_SAMPLE_CPU;
	a->sample_type &= ~(uint64_t)PERF_SAMPLE_ID;
	if (a->type == PERF_TYPE_TRACEPOINT) /* perf's tracepoint attrs: the fields ride along */
		a->sample_type |= PERF_SAMPLE_RAW;
	/* A tracepoint's period 1 is the parser's default (no term sets it):
	 * an explicit -F or -c replaces it, as in perf record. */
	bool tp_default = a->type == PERF_TYPE_TRACEPOINT && !a->freq && a->sample_period == 1;
	if (!a->sample_period || (tp_default && r->rate_given)) { /* the event string did not fix one */
		if (o->period) {
			a->freq = 0;
			a->sample_period = o->period;
		} else {
			a->freq = 1;
			a->sample_freq = o->freq;
		}
	}
	a->sample_type |= o->sample_type;
	if (o->branch_sample_type) {
		a->sample_type |= PERF_SAMPLE_BRANCH_STACK;
		a->branch_sample_type = o->branch_sample_type;
	}
	if (o->sample_regs_intr) {
		a->sample_type |= PERF_SAMPLE_REGS_INTR;
		a->sample_regs_intr = o->sample_regs_intr;
	}
	if (o->sample_regs_user) {
		a->sample_type |= PERF_SAMPLE_REGS_USER;
		a->sample_regs_user = o->sample_regs_user;
	}
	if (o->exclude_kernel)
		a->exclude_kernel = 1;
	if (o->exclude_user)
		a->exclude_user = 1;
	if (o->call_graph != PERFEV_CALLGRAPH_NONE)
		a->sample_type |= PERF_SAMPLE_CALLCHAIN;
	if (o->call_graph == PERFEV_CALLGRAPH_DWARF) {
		a->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		a->sample_regs_user |= REC_REGS_USER;
		a->sample_stack_user = o->dwarf_stack_size ? o->dwarf_stack_size : 8192;
		a->exclude_callchain_user = 1; /* the stack copy replaces it */
	}
	/* LOST: the kernel's own count of samples that found no room, read at
	 * the end (its LOST records come only once it next has room). */
	a->read_format = PERF_FORMAT_ID | PERF_FORMAT_LOST;
	a->sample_id_all = 1;
	a->disabled = 1;
	if (o->use_clockid) {
		a->use_clockid = 1;
		a->clockid = o->clockid;
	}
	bool system_wide = r->tids[0] == -1;
	a->inherit = !system_wide && !o->no_inherit;
	a->enable_on_exec = r->child && !system_wide;
	a->watermark = 0;
	a->wakeup_events = 0; /* wake when half the buffer is full */
	if (idx == 0) { /* the first event also tracks processes and maps */
		a->mmap = 1;
		a->mmap2 = 1;
		a->comm = 1;
		a->comm_exec = 1;
		a->task = 1;
		a->context_switch = o->switch_events;
		/* DWARF unwinding reads .eh_frame_hdr, which lives in a non-executable
		 * segment: the unwinder needs the data maps too (perf does the same). */
		a->mmap_data = o->call_graph == PERFEV_CALLGRAPH_DWARF ||
			       (o->sample_type & PERF_SAMPLE_ADDR); /* (perf -d: the data addresses' maps) */
	}
	a->size = 0;
}

/* perf's name for an event it fell back to user space for (evsel__fallback):
 * "cpu-clock" becomes "cpu-clock:u"; a name that already has a ':' or '/'
 * ("cpu-clock:p", "cpu/cpu-clock/") only gains the "u". */
static int user_only_name(struct perfev_recorder *r, size_t ev)
{
	const char *name = perfev_evsel_name(perfev_evlist_at(r->events, ev));
	const char *sep = strpbrk(name, ":/") ? "" : ":";
	size_t n = strlen(name) + 3;
	if (!(r->names[ev] = malloc(n)))
		return pv_error(ENOMEM, "out of memory");
	snprintf(r->names[ev], n, "%s%su", name, sep);
	return 0;
}

const char *rec_event_name(const struct perfev_recorder *r, size_t ev)
{
	if (r->names && r->names[ev])
		return r->names[ev];
	return perfev_evsel_name(perfev_evlist_at(r->events, ev));
}

static int open_one(struct perfev_recorder *r, size_t ev, size_t c, size_t t, int group_fd)
{
	struct perfev_attr *a = &r->attrs[ev];
	int fd = perfev_open(a, r->tids[t], r->cpus[c], group_fd, 0);
	if (fd == -EINVAL && (a->read_format & PERF_FORMAT_LOST)) {
		/* kernels before 6.0 do not know PERF_FORMAT_LOST: LOST records only */
		a->read_format &= ~(uint64_t)PERF_FORMAT_LOST;
		fd = perfev_open(a, r->tids[t], r->cpus[c], group_fd, 0);
	}
	if ((fd == -EACCES || fd == -EPERM) && !a->exclude_kernel && !a->exclude_user) {
		/* perf_event_paranoid forbids the kernel: sample user space only, like perf. */
		a->exclude_kernel = 1;
		a->exclude_hv = 1;
		fd = perfev_open(a, r->tids[t], r->cpus[c], group_fd, 0);
		r->stats.user_only = fd >= 0;
		if (fd >= 0 && !r->names[ev] && user_only_name(r, ev) < 0) {
			close(fd);
			return -ENOMEM;
		}
	}
	if (fd == -ESRCH && r->tids[t] > 0 && (r->opts.pid || r->opts.by_uid))
		return -ESRCH; /* the thread exited meanwhile: skip it */
	return fd;
}

int rec_open_events(struct perfev_recorder *r)
{
	size_t nev = perfev_evlist_count(r->events);
	r->nevents = nev;
	r->attrs = calloc(nev, sizeof(*r->attrs));
	r->fds = malloc(nev * r->ncpus * r->ntids * sizeof(*r->fds));
	r->ids = calloc(nev, sizeof(*r->ids));
	r->rings = calloc(r->ncpus, sizeof(*r->rings));
	r->names = calloc(nev, sizeof(*r->names));
	if (!r->attrs || !r->fds || !r->ids || !r->rings || !r->names)
		return pv_error(ENOMEM, "out of memory");
	for (size_t i = 0; i < nev * r->ncpus * r->ntids; i++)
		r->fds[i] = -1;
	for (size_t ev = 0; ev < nev; ev++) {
		r->attrs[ev] = *perfev_evsel_attr_const(perfev_evlist_at(r->events, ev));
		config_attr(r, &r->attrs[ev], ev);
		if (!(r->ids[ev] = calloc(r->ncpus * r->ntids, sizeof(uint64_t))))
			return pv_error(ENOMEM, "out of memory");
	}
	if (!(r->poller = perfev_poller_new()))
		return -errno;
	if (perfev_poller_add(r->poller, r->wake[0], &r->wake) < 0)
		return -errno;
	for (size_t c = 0; c < r->ncpus; c++) {
		for (size_t ev = 0; ev < nev; ev++) {
			const struct perfev_evsel *es = perfev_evlist_at(r->events, ev);
			const struct perfev_evsel *leader = perfev_evsel_leader(es);
			size_t lidx = leader ? perfev_evsel_index(leader) : ev;
			for (size_t t = 0; t < r->ntids; t++) {
				int group_fd = lidx != ev ? REC_FD(r, lidx, c, t) : -1;
				int fd = open_one(r, ev, c, t, group_fd);
				if (fd == -ESRCH)
					continue;
				if (fd < 0) {
					char why[1024]; /* errmsg's buffer is about to be rewritten */
					snprintf(why, sizeof(why), "%s", perfev_errmsg());
					return pv_error(-fd, "cannot open %s on CPU %d: %s",
							perfev_evsel_name(es), r->cpus[c], why);
				}
				REC_FD(r, ev, c, t) = fd;
				const char *filter = perfev_evsel_filter(es);
				if (filter && perfev_tp_filter_set(NULL, 0, fd, filter) < 0) {
					int e = errno;
					char why[1024];
					snprintf(why, sizeof(why), "%s", perfev_errmsg());
					return pv_error(e, "event %s: %s", perfev_evsel_name(es), why);
				}
				perfev_ioc_id(fd, &r->ids[ev][c * r->ntids + t]);
				if (!r->rings[c]) {
					r->rings[c] = perfev_ring_mmap(fd, r->opts.mmap_pages, false);
					if (!r->rings[c])
						return -errno;
					if (perfev_poller_add(r->poller, fd, r->rings[c]) < 0)
						return -errno;
				} else if (perfev_ring_add_event(r->rings[c], fd) < 0) {
					return -errno;
				}
			}
		}
	}
	if (!(r->dec = perfev_decoder_new()))
		return -errno;
	for (size_t ev = 0; ev < nev; ev++)
		if (perfev_decoder_add_attr(r->dec, &r->attrs[ev], r->ids[ev], r->ncpus * r->ntids) < 0)
			return -errno;
	return 0;
}

int rec_enable(struct perfev_recorder *r, bool on)
{
	for (size_t i = 0; i < r->nevents * r->ncpus * r->ntids; i++)
		if (r->fds[i] >= 0)
			on ? perfev_ioc_enable(r->fds[i], false) : perfev_ioc_disable(r->fds[i], false);
	return 0;
}

uint64_t rec_read_lost(struct perfev_recorder *r)
{
	uint64_t total = 0;
	for (size_t ev = 0; ev < r->nevents; ev++) {
		if (!(r->attrs[ev].read_format & PERF_FORMAT_LOST))
			continue;
		for (size_t i = 0; i < r->ncpus * r->ntids; i++) {
			int fd = r->fds[ev * r->ncpus * r->ntids + i];
			uint64_t v[3]; /* value, id, lost */
			if (fd >= 0 && read(fd, v, sizeof(v)) == (ssize_t)sizeof(v))
				total += v[2];
		}
	}
	return total;
}

void rec_close_events(struct perfev_recorder *r)
{
	if (r->rings)
		for (size_t c = 0; c < r->ncpus; c++)
			perfev_ring_munmap(r->rings[c]);
	free(r->rings);
	r->rings = NULL;
	perfev_poller_free(r->poller);
	r->poller = NULL;
	if (r->fds)
		for (size_t i = 0; i < r->nevents * r->ncpus * r->ntids; i++)
			if (r->fds[i] >= 0)
				close(r->fds[i]);
	free(r->fds);
	r->fds = NULL;
	if (r->ids)
		for (size_t ev = 0; ev < r->nevents; ev++)
			free(r->ids[ev]);
	free(r->ids);
	r->ids = NULL;
	if (r->names)
		for (size_t ev = 0; ev < r->nevents; ev++)
			free(r->names[ev]);
	free(r->names);
	r->names = NULL;
	free(r->attrs);
	r->attrs = NULL;
	perfev_decoder_free(r->dec);
	r->dec = NULL;
}
