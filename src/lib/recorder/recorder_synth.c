/* recorder_synth.c — describing what existed before recording began, as
 * perf does: the kernel map, and COMM, FORK, MMAP2 for processes that
 * already run (-p, -a). Records are built by the records module's encoder. */
#define _GNU_SOURCE
#include "core/internal.h"
#include "recorder/recorder_int.h"
#include "perfev/record.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static int emit(struct perfev_recorder *r, struct perfev_record *rec)
{
	unsigned char buf[PATH_MAX + 256];
	rec->has_sid = true;
	rec->sid.identifier = r->ids && r->ids[0] ? r->ids[0][0] : 0;
	rec->sid.id = rec->sid.identifier;
	int n = perfev_record_encode(rec, &r->attrs[0], buf, sizeof(buf));
	if (n < 0)
		return n;
	rec_scan_process(r, rec);
	return rec_out_write(r, buf, (size_t)n);
}

int rec_synth_kernel(struct perfev_recorder *r)
{
	uint64_t start, end;
	const char *ref;
	rec_kernel_text(&start, &end, &ref);
	if (!start)
		return 0; /* kallsyms hidden (kptr_restrict): perf reports kernel samples unresolved too */
	struct perfev_record rec = {.type = PERF_RECORD_MMAP, .misc = PERF_RECORD_MISC_KERNEL};
	rec.u.mmap.pid = (uint32_t)-1;
	rec.u.mmap.tid = 0;
	rec.u.mmap.addr = start;
	rec.u.mmap.len = end > start ? end - start : 0;
	rec.u.mmap.pgoff = start;
	char name[32];
	snprintf(name, sizeof(name), "[kernel.kallsyms]%s", ref); /* the symbol pgoff is the address of */
	rec.u.mmap.filename = name;
	return emit(r, &rec);
}

static int synth_module(const char *name, uint64_t addr, uint64_t size, void *ctx)
{
	struct perfev_recorder *r = ctx;
	char path[80];
	snprintf(path, sizeof(path), "[%s]", name);
	struct perfev_record rec = {.type = PERF_RECORD_MMAP, .misc = PERF_RECORD_MISC_KERNEL};
	rec.u.mmap.pid = (uint32_t)-1;
	rec.u.mmap.addr = addr;
	rec.u.mmap.len = size;
	rec.u.mmap.filename = path;
	return emit(r, &rec);
}

/* The loaded modules, a kernel MMAP named "[module]" each, as perf records
 * them: samples in a module fall in its map, so report and perf report name
 * them through kallsyms (without, they lie outside every recorded map). */
int rec_synth_modules(struct perfev_recorder *r)
{
	return rec_modules(NULL, synth_module, r); /* hidden addresses (0) are left out */
}

struct map_ctx {
	struct perfev_recorder *r;
	pid_t pid;
	int err;
};

static int synth_map(const struct rec_proc_map *m, void *arg)
{
	struct map_ctx *c = arg;
	bool data = !(m->prot & PROT_EXEC);
	if ((data && !c->r->attrs[0].mmap_data) || !strcmp(m->path, "[vsyscall]"))
		return 0;
	struct perfev_record rec = {.type = PERF_RECORD_MMAP2, .misc = PERF_RECORD_MISC_USER};
	if (data)
		rec.misc |= PERF_RECORD_MISC_MMAP_DATA;
	rec.u.mmap.pid = (uint32_t)c->pid;
	rec.u.mmap.tid = (uint32_t)c->pid;
	rec.u.mmap.addr = m->start;
	rec.u.mmap.len = m->end - m->start;
	rec.u.mmap.pgoff = m->pgoff;
	rec.u.mmap.maj = m->maj;
	rec.u.mmap.min = m->min;
	rec.u.mmap.ino = m->ino;
	rec.u.mmap.prot = m->prot;
	rec.u.mmap.flags = m->flags;
	rec.u.mmap.filename = m->path;
	c->err = emit(c->r, &rec);
	return c->err < 0 ? c->err : 0;
}

/* One process: a COMM per thread, a FORK per thread but the main one
 * (perf assumes the main thread made them all), its executable maps. */
static int synth_process(struct perfev_recorder *r, pid_t pid)
{
	pid_t *tids;
	size_t n;
	if (rec_task_tids(pid, &tids, &n) < 0)
		return 0; /* gone meanwhile */
	int e = 0;
	for (size_t i = 0; i < n && e >= 0; i++) {
		char comm[16];
		pid_t tgid, ppid;
		if (rec_proc_status(tids[i], comm, &tgid, &ppid) < 0)
			continue;
		if (tids[i] != tgid) {
			struct perfev_record f = {.type = PERF_RECORD_FORK};
			f.u.fork.pid = (uint32_t)tgid;
			f.u.fork.ppid = (uint32_t)tgid;
			f.u.fork.tid = (uint32_t)tids[i];
			f.u.fork.ptid = (uint32_t)tgid;
			if ((e = emit(r, &f)) < 0)
				break;
		}
		struct perfev_record c = {.type = PERF_RECORD_COMM};
		c.u.comm.pid = (uint32_t)tgid;
		c.u.comm.tid = (uint32_t)tids[i];
		c.u.comm.comm = comm;
		e = emit(r, &c);
	}
	free(tids);
	if (e < 0)
		return e;
	struct map_ctx mc = {r, pid, 0};
	rec_proc_maps(pid, synth_map, &mc); /* a process that exits meanwhile has no maps */
	return mc.err;
}

int rec_synth_processes(struct perfev_recorder *r)
{
	if (r->opts.pid)
		return synth_process(r, r->opts.pid);
	if (r->opts.tid) {
		char comm[16];
		pid_t tgid, ppid;
		if (rec_proc_status(r->opts.tid, comm, &tgid, &ppid) < 0)
			return 0;
		return synth_process(r, tgid);
	}
	if (r->tids[0] != -1 && !r->opts.by_uid)
		return 0; /* a command: exec will announce it */
	pid_t *pids;
	size_t n;
	int e = r->opts.by_uid ? rec_uid_pids(r->opts.uid, &pids, &n) : rec_all_pids(&pids, &n);
	if (e < 0)
		return e;
	for (size_t i = 0; i < n && e >= 0; i++)
		e = synth_process(r, pids[i]);
	free(pids);
	return e;
}
