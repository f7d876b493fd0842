/*
 * unwind_dwarf.c — DWARF unwinding of REGS_USER + STACK_USER samples
 * through libdw (dwfl_getthread_frames), as perf's unwind-libdw.c does:
 * the sampled registers seed the first frame, memory reads are served from
 * the copied stack or, outside it, from the mapped ELF files, and each
 * frame's module is reported to libdwfl as it is reached so its CFI
 * (.eh_frame, .debug_frame) is found. One Dwfl per process is kept; the
 * binaries are found and cached by a private symbolizer (build-id, path,
 * /proc/PID/root, [vdso], debuginfod), as for symbols.
 */
#define _GNU_SOURCE
#include "core/internal.h"
#include "core/opts.h"
#include "symbols/symbols_int.h"
#include "unwind/unwind_int.h"
#include "perfev/unwind.h"

#include <elfutils/libdwfl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

struct uw_module {
	uint64_t lo, hi; /* the address range of the maps of one file */
	const char *path;
};

struct uw_proc {
	int pid;
	Dwfl *dwfl;
	bool attached;
	struct uw_module *mods;
	size_t nr_mods, cap_mods;
};

static char *debuginfo_path;
static const Dwfl_Callbacks dwfl_cb = {
	.find_elf = NULL, /* modules are reported with dwfl_report_elf() */
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.debuginfo_path = &debuginfo_path,
};

PERFEV_API struct perfev_unwinder *perfev_unwinder_new(enum perfev_arch arch)
{
	if (arch == PERFEV_ARCH_HOST)
		arch = pv_host_arch();
	if (arch != PERFEV_ARCH_X86_64 && arch != PERFEV_ARCH_AARCH64)
		return pv_error_null(EINVAL, "DWARF unwinding supports x86_64 and aarch64 samples, "
				     "not architecture %d", (int)arch);
	struct perfev_unwinder *u = calloc(1, sizeof(*u));
	if (!u || !(u->pool = pv_strpool_new()) || !(u->finder = perfev_symbolizer_new(NULL))) {
		if (u)
			pv_strpool_free(u->pool);
		free(u);
		return pv_error_null(ENOMEM, "out of memory creating an unwinder");
	}
	u->arch = arch;
	const char *engine = getenv("PERFEV_UNWIND");
	u->libdw = engine && strcmp(engine, "libdw") == 0;
	elf_version(EV_CURRENT);
	return u;
}

void pv_unwinder_share_symbolizer(struct perfev_unwinder *u, struct perfev_symbolizer *s)
{
	if (!u || !s || u->files.nr || u->nr_procs || u->shared_finder)
		return;
	perfev_symbolizer_free(u->finder);
	u->finder = s;
	u->shared_finder = true;
}

void pv_unwinder_use_libdw(struct perfev_unwinder *u, bool libdw)
{
	if (u)
		u->libdw = libdw;
}

static void proc_free(struct uw_proc *p)
{
	if (p->dwfl)
		dwfl_end(p->dwfl);
	free(p->mods);
	memset(p, 0, sizeof(*p));
}

PERFEV_API void perfev_unwinder_free(struct perfev_unwinder *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < u->nr_procs; i++)
		proc_free(&u->procs[i]);
	free(u->procs);
	for (size_t i = 0; i < u->files.cap; i++) {
		struct pv_uw_file *f = u->files.vals ? u->files.vals[i] : NULL;
		if (f) {
			pv_cfi_fini(&f->eh);
			pv_cfi_fini(&f->dbg);
			free(f);
		}
	}
	pv_u64map_free(&u->files);
	if (!u->shared_finder)
		perfev_symbolizer_free(u->finder);
	pv_strpool_free(u->pool);
	free(u);
}

PERFEV_API void perfev_unwinder_forget(struct perfev_unwinder *u, int pid)
{
	if (!u)
		return;
	for (size_t i = 0; i < u->nr_procs; i++)
		if (u->procs[i].pid == pid) {
			proc_free(&u->procs[i]);
			u->procs[i] = u->procs[--u->nr_procs];
			break;
		}
	for (size_t i = 0; i < PV_ARRAY_SIZE(u->mapc); i++)
		if (u->mapc[i].pid == pid) {
			u->mapc[i].path = NULL;
			u->mapc[i].end = 0;
		}
}

PERFEV_API void perfev_unwinder_stats(const struct perfev_unwinder *u, struct perfev_unwind_stats *st)
{
	if (st)
		*st = u ? u->st : (struct perfev_unwind_stats){0};
}

static struct uw_proc *get_proc(struct perfev_unwinder *u, int pid)
{
	for (size_t i = 0; i < u->nr_procs; i++)
		if (u->procs[i].pid == pid)
			return &u->procs[i];
	if (pv_grow(&u->procs, &u->cap_procs, u->nr_procs + 1, sizeof(*u->procs)) < 0)
		return NULL;
	struct uw_proc *p = &u->procs[u->nr_procs];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->dwfl = dwfl_begin(&dwfl_cb);
	if (!p->dwfl)
		return NULL;
	u->nr_procs++;
	return p;
}

/* The binary mapped by m, found once like the symbolizer finds it (build-id,
 * path, /proc/PID/root, [vdso], debuginfod); NULL if there is none. */
struct pv_uw_file *pv_uw_get_file(struct perfev_unwinder *u, const struct perfev_map *m, int pid)
{
	struct pv_dso *d = pv_symbolizer_dso(u->finder, pid, m->path, m->build_id,
					     m->build_id_len, m);
	if (!d || !d->bin.elf || !d->bin.path)
		return NULL;
	struct pv_uw_file *f = pv_u64map_get(&u->files, (uint64_t)(uintptr_t)d);
	if (f)
		return f;
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->dso = d;
	GElf_Ehdr eh;
	f->is_dyn = gelf_getehdr(d->bin.elf, &eh) && eh.e_type == ET_DYN;
	size_t phnum;
	if (elf_getphdrnum(d->bin.elf, &phnum) == 0)
		for (size_t i = 0; i < phnum; i++) {
			GElf_Phdr ph;
			if (gelf_getphdr(d->bin.elf, (int)i, &ph) && ph.p_type == PT_LOAD) {
				f->first_vaddr = ph.p_align > 1 ? ph.p_vaddr & -ph.p_align : ph.p_vaddr;
				break;
			}
		}
	if (pv_u64map_put(&u->files, (uint64_t)(uintptr_t)d, f) < 0) {
		free(f);
		return NULL;
	}
	return f;
}

const struct perfev_map *pv_uw_find_map(const struct perfev_unwind_sample *smp, uint64_t addr)
{
	if (smp->find_map)
		return smp->find_map(smp->find_map_ctx, addr);
	for (size_t i = 0; smp->maps && i < smp->nr_maps; i++)
		if (addr >= smp->maps[i].start && addr < smp->maps[i].end)
			return &smp->maps[i];
	return NULL;
}

bool pv_uw_file_backed(const struct perfev_map *m)
{
	if (!m || !m->path)
		return false;
	if (m->path[0] == '[')
		return strcmp(m->path, "[vdso]") == 0;
	return m->path[0] == '/' && strncmp(m->path, "//anon", 6) != 0 &&
	       strncmp(m->path, "/memfd:", 7) != 0 && strncmp(m->path, "/dev/", 5) != 0;
}

/* Reports the file mapped at addr to libdwfl, once. */
static bool report_module(struct perfev_unwinder *u, uint64_t addr)
{
	struct uw_proc *p = u->proc;
	for (size_t i = 0; i < p->nr_mods; i++)
		if (addr >= p->mods[i].lo && addr < p->mods[i].hi)
			return true;
	const struct perfev_map *m = pv_uw_find_map(u->smp, addr);
	if (!pv_uw_file_backed(m))
		return false;
	struct pv_uw_file *f = pv_uw_get_file(u, m, u->smp->pid);
	if (!f)
		return false;
	uint64_t bias;
	if (!pv_uw_map_bias(f, m, &bias))
		return false;
	dwfl_report_begin_add(p->dwfl);
	Dwfl_Module *mod = dwfl_report_elf(p->dwfl, m->path, f->dso->bin.path, -1,
					   f->is_dyn ? bias + f->first_vaddr : 0, false);
	dwfl_report_end(p->dwfl, NULL, NULL);
	if (!mod)
		return false;
	/* libdwfl's idea of the module's extent (all its segments) */
	Dwarf_Addr lo = m->start, hi = m->end;
	dwfl_module_info(mod, NULL, &lo, &hi, NULL, NULL, NULL, NULL);
	if (pv_grow(&p->mods, &p->cap_mods, p->nr_mods + 1, sizeof(*p->mods)) < 0)
		return false;
	p->mods[p->nr_mods++] = (struct uw_module){PV_MIN(lo, m->start), PV_MAX(hi, m->end),
						   pv_strpool_add(u->pool, m->path)};
	return true;
}

static pid_t next_thread(Dwfl *dwfl, void *arg, void **thread_argp)
{
	struct perfev_unwinder *u = arg;
	if (*thread_argp)
		return 0;
	*thread_argp = arg;
	return u->smp->tid > 0 ? u->smp->tid : 1;
}

bool pv_uw_map_bias(const struct pv_uw_file *f, const struct perfev_map *m, uint64_t *bias)
{
	/* from the first segment that starts in the mapping: the loader maps a
	 * segment from the page its offset is in, which may end the segment
	 * before it (rustc's binaries: .text at offset 0x13b70, address
	 * 0x14b70, mapped from 0x13000, where the first segment ends at 0x13b68) */
	for (size_t i = 0; i < f->dso->nr_segs; i++) {
		const struct pv_segment *g = &f->dso->segs[i];
		if (g->offset >= m->pgoff && g->offset - m->pgoff < m->end - m->start) {
			*bias = m->start + (g->offset - m->pgoff) - g->vaddr;
			return true;
		}
	}
	/* else (a mapping of a segment's middle, after mprotect split it) the
	 * segment that holds the map's file offset */
	for (size_t i = 0; i < f->dso->nr_segs; i++) {
		const struct pv_segment *g = &f->dso->segs[i];
		if (m->pgoff >= (g->offset & ~(uint64_t)0xfff) && m->pgoff < g->offset + g->filesz) {
			*bias = m->start - (m->pgoff - g->offset + g->vaddr);
			return true;
		}
	}
	return false;
}

bool pv_uw_read(void *arg, uint64_t addr, uint64_t *result)
{
	struct perfev_unwinder *u = arg;
	const struct perfev_unwind_sample *smp = u->smp;
	if (smp->stack && smp->stack_size >= 8 && addr >= u->sp &&
	    addr - u->sp <= smp->stack_size - 8) {
		memcpy(result, smp->stack + (addr - u->sp), 8);
		return true;
	}
	/* outside the stack copy: read-only data of a mapped file */
	const struct perfev_map *m = pv_uw_find_map(smp, addr);
	if (!pv_uw_file_backed(m))
		return false;
	struct pv_uw_file *f = pv_uw_get_file(u, m, smp->pid);
	if (!f)
		return false;
	const struct pv_elf *e = &f->dso->bin;
	uint64_t off = addr - m->start + m->pgoff;
	if (off > e->size || e->size - off < 8)
		return false;
	memcpy(result, (const uint8_t *)e->image + off, 8);
	return true;
}

static bool memory_read(Dwfl *dwfl, Dwarf_Addr addr, Dwarf_Word *result, void *arg)
{
	uint64_t v;
	if (!pv_uw_read(arg, addr, &v))
		return false;
	*result = v;
	return true;
}

static bool set_initial_registers(Dwfl_Thread *thread, void *arg)
{
	struct perfev_unwinder *u = arg;
	if (!dwfl_thread_state_registers(thread, 0, (unsigned)u->nr_regs, u->regs))
		return false;
	dwfl_thread_state_register_pc(thread, u->pc);
	return true;
}

static const Dwfl_Thread_Callbacks thread_cb = {
	.next_thread = next_thread,
	.memory_read = memory_read,
	.set_initial_registers = set_initial_registers,
};

static int frame_cb(Dwfl_Frame *state, void *arg)
{
	struct perfev_unwinder *u = arg;
	Dwarf_Addr pc;
	bool activation;
	/* as perf does: report the module before asking whether the frame is
	 * an activation, which unwinds it (an unknown module there makes
	 * libdwfl fall back to frame pointers, for good, for this frame) */
	if (!dwfl_frame_pc(state, &pc, NULL))
		return DWARF_CB_ABORT;
	report_module(u, pc);
	if (!dwfl_frame_pc(state, &pc, &activation))
		return DWARF_CB_ABORT;
	u->out[u->n++] = (struct perfev_frame){pc, false, !activation && u->n > 0};
	if (u->n >= u->max)
		return DWARF_CB_ABORT;
	/* the caller's CFI is looked up next: its module must be known */
	report_module(u, activation ? pc : pc - 1);
	return DWARF_CB_OK;
}

PERFEV_API int perfev_unwinder_unwind(struct perfev_unwinder *u,
				      const struct perfev_unwind_sample *smp,
				      struct perfev_frame *frames, size_t max)
{
	if (!u || !smp || (!frames && max))
		return pv_error(EINVAL, "perfev_unwinder_unwind: bad arguments");
	if (!PV_OPTS_VALID(smp, perfev_unwind_sample))
		return -EINVAL;
	if (max == 0)
		return 0;
	u->st.samples++;
	if (!smp->abi || !smp->regs) {
		u->st.failed++;
		return 0;
	}
	int nr = perfev_unwind_regs_to_dwarf(u->arch, smp->mask, smp->regs, smp->nr_regs, u->regs,
					     PV_ARRAY_SIZE(u->regs), NULL, &u->pc, &u->sp);
	if (nr < 0) {
		u->st.failed++;
		return 0;
	}
	u->nr_regs = nr;
	/* a caller built against an older header has no find_map fields */
	struct perfev_unwind_sample full;
	PV_OPTS_COPY(full, smp);
	smp = &full;
	u->smp = smp;
	u->out = frames;
	u->max = max;
	u->n = 0;
	if (!u->libdw) {
		bool to_root = false;
		int n = pv_cfi_unwind(u, frames, max, &to_root);
		u->smp = NULL;
		if (n > 0) {
			u->st.to_root += to_root;
			u->st.truncated += !to_root;
			u->st.frames += (uint64_t)n;
			return n;
		}
		frames[0] = (struct perfev_frame){u->pc, false, false};
		u->st.truncated++;
		u->st.frames++;
		return 1;
	}
	for (int attempt = 0; attempt < 2; attempt++) {
		u->proc = get_proc(u, smp->pid);
		if (!u->proc)
			break;
		if (!report_module(u, u->pc)) {
			/* pc not in a file we can read (JIT, anon, missing): just the pc */
			break;
		}
		if (!u->proc->attached) {
			if (!dwfl_attach_state(u->proc->dwfl, NULL, smp->pid > 0 ? smp->pid : 1,
					       &thread_cb, u)) {
				perfev_unwinder_forget(u, smp->pid);
				continue;
			}
			u->proc->attached = true;
		}
		int r = dwfl_getthread_frames(u->proc->dwfl, smp->tid > 0 ? smp->tid : 1, frame_cb, u);
		if (u->n == 0 && attempt == 0) {
			/* a stale Dwfl (exec, reused pid): start over once */
			perfev_unwinder_forget(u, smp->pid);
			continue;
		}
		if (r == 0)
			u->st.to_root++;
		else
			u->st.truncated++;
		u->st.frames += u->n;
		u->smp = NULL;
		return (int)u->n;
	}
	u->smp = NULL;
	frames[0] = (struct perfev_frame){u->pc, false, false};
	u->st.truncated++;
	u->st.frames++;
	return 1;
}
