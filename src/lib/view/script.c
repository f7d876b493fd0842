/* script.c — perf script's sample lines (see perfev/script.h). */
#define _GNU_SOURCE
#include "view/script_int.h"
#include "core/opts.h"
#include "profile/resolve_int.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_STACK 127
static bool kernel_mode(uint8_t m) { return m == PERF_RECORD_MISC_KERNEL || m == PERF_RECORD_MISC_GUEST_KERNEL; } /* perf script's scripting_max_stack */

static void puts_b(struct pv_script *s, const char *t) { pv_buf_puts(&s->line, t); }
#define P(...) pv_buf_printf(&s->line, __VA_ARGS__)

/* printf is most of the time of a big script: the hot fields by hand. */
static void put_num(struct pv_script *s, uint64_t v, unsigned base, int width, bool left, char pad)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[32];
	int n = 0;
	if (base == 16) {
		do {
			tmp[n++] = digits[v & 15];
			v >>= 4;
		} while (v);
	} else {
		do {
			tmp[n++] = digits[v % 10];
			v /= 10;
		} while (v);
	}
	char out[64];
	int k = 0;
	if (!left)
		while (width-- > n)
			out[k++] = pad;
	while (n)
		out[k++] = tmp[--n];
	if (left)
		while (k < width)
			out[k++] = ' ';
	pv_buf_add(&s->line, out, (size_t)k);
}
static void put_int(struct pv_script *s, int v, int width, bool left)
{
	if (v < 0) {
		P(left ? "%-*d" : "%*d", width, v);
		return;
	}
	put_num(s, (uint64_t)v, 10, width, left, ' ');
}

void pv_script_start(struct pv_script *s, const struct perfev_record *r, uint32_t f, uint32_t pid, uint32_t tid,
		     uint64_t time, uint32_t cpu, bool wide_comm)
{
	if (f & F_COMM) {
		const char *comm = perfev_session_comm(s->session, tid);
		if (s->o->latency) /* perf -L's latency_format (before the wide rule) */
			P("%8.8s ", comm);
		else if (wide_comm)
			P("%s ", comm);
		else
			P("%16s ", comm);
	}
	if ((f & F_PID) && (f & F_TID)) {
		put_int(s, (int)pid, 5, false);
		pv_buf_putc(&s->line, '/');
		put_int(s, (int)tid, 5, true);
		pv_buf_putc(&s->line, ' ');
	} else if (f & (F_PID | F_TID)) {
		put_int(s, (int)(f & F_PID ? pid : tid), 5, false);
		pv_buf_putc(&s->line, ' ');
	}
	if (f & F_CPU)
		P(s->o->latency ? "%3d " : "[%03d] ", (int)cpu);
	if (f & F_MISC) {
		int n = 0;
		uint16_t m = r->misc;
#define HAS(v) ((m & (v)) == (v))
		if (HAS(PERF_RECORD_MISC_KERNEL)) n += (puts_b(s, "K"), 1);
		if (HAS(PERF_RECORD_MISC_USER)) n += (puts_b(s, "U"), 1);
		if (HAS(PERF_RECORD_MISC_HYPERVISOR)) n += (puts_b(s, "H"), 1);
		if (HAS(PERF_RECORD_MISC_GUEST_KERNEL)) n += (puts_b(s, "G"), 1);
		if (HAS(PERF_RECORD_MISC_GUEST_USER)) n += (puts_b(s, "g"), 1);
		switch (r->type) {
		case PERF_RECORD_MMAP:
		case PERF_RECORD_MMAP2:
			if (HAS(PERF_RECORD_MISC_MMAP_DATA)) n += (puts_b(s, "M"), 1);
			break;
		case PERF_RECORD_COMM:
			if (HAS(PERF_RECORD_MISC_COMM_EXEC)) n += (puts_b(s, "E"), 1);
			break;
		case PERF_RECORD_SWITCH:
		case PERF_RECORD_SWITCH_CPU_WIDE:
			if (HAS(PERF_RECORD_MISC_SWITCH_OUT)) {
				n += (puts_b(s, "S"), 1);
				if (m & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT)
					n += (puts_b(s, "p"), 1);
			}
			break;
		default:
			break;
		}
#undef HAS
		P("%*s", 6 - n, " ");
	}
	if (f & F_TOD) {
		/* the wall-clock time from the CLOCK_DATA feature's pair (perf's tod_scnprintf) */
		struct perfev_perfdata_info in;
		perfev_perfdata_info(s->pd, &in);
		uint64_t ns = time > in.clock_clockid_ns ? in.clock_tod_ns + (time - in.clock_clockid_ns)
							  : in.clock_tod_ns - (in.clock_clockid_ns - time);
		time_t sec = (time_t)(ns / 1000000000ULL);
		struct tm tm;
		char date[64];
		if (localtime_r(&sec, &tm) && strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S", &tm))
			P("%s.%06lu ", date, (unsigned long)(ns % 1000000000ULL / 1000ULL));
		else
			P("failed ");
	}
	if (f & F_TIME) {
		uint64_t t = pv_script_shown_time(s, time);
		put_num(s, t / 1000000000ULL, 10, 5, false, ' ');
		pv_buf_putc(&s->line, '.');
		if (s->o->ns)
			put_num(s, t % 1000000000ULL, 10, 9, false, '0');
		else
			put_num(s, t % 1000000000ULL / 1000ULL, 10, 6, false, '0');
		pv_buf_add(&s->line, ": ", 2);
	}
}


/* The DSO name perf shows for a map: [kernel.kallsyms], [module] for a
 * kernel module, /tmp/perf-PID.map for anonymous (JIT) memory. */
bool pv_script_in_buildids(struct pv_script *s, const char *path)
{
	for (size_t off = 0; off < s->bid_names.len;) {
		const char *n = s->bid_names.data + off;
		if (!strcmp(n, path))
			return true;
		off += strlen(n) + 1;
	}
	return false;
}

static void add_buildid_name(struct pv_script *s, const char *name)
{
	if (name && !pv_script_in_buildids(s, name))
		pv_buf_add(&s->bid_names, name, strlen(name) + 1);
}

/* The files the BUILD_ID feature names (perf shows them by their build-id path). */
static int add_buildid_entry(void *ctx, int32_t pid, uint16_t cpumode, const char *name,
			     const uint8_t *id, size_t len)
{
	add_buildid_name(ctx, name);
	return 0;
}

static void load_buildids(struct pv_script *s)
{
	perfev_perfdata_build_ids(s->pd, add_buildid_entry, s);
}

const char *pv_script_dso_name(struct pv_script *s, const struct perfev_map *map, uint32_t pid, char *buf, size_t len)
{
	const char *p = map->path;
	if (map->kernel && !strncmp(p, "[kernel.kallsyms]", 17))
		return "[kernel.kallsyms]";
	/* perf names a module [name] unless the build-id table made it a DSO by its path */
	if (map->kernel && p[0] == '/' && !pv_script_in_buildids(s, p)) {
		const char *base = strrchr(p, '/') + 1;
		const char *ko = strstr(base, ".ko");
		size_t n = ko ? (size_t)(ko - base) : strlen(base);
		if (n > len - 3)
			n = len - 3;
		buf[0] = '[';
		for (size_t i = 0; i < n; i++)
			buf[i + 1] = base[i] == '-' ? '_' : base[i];
		buf[n + 1] = ']';
		buf[n + 2] = 0;
		return buf;
	}
	if (!strcmp(p, "//anon") || !strncmp(p, "/anon_hugepage", 14) || !strncmp(p, "/dev/zero", 9)) {
		snprintf(buf, len, "/tmp/perf-%u.map", pid);
		return buf;
	}
	return p;
}

/* addr's symbol (with inlines: its inline chain in loc->lines), as the
 * resolver names it; false where perf prints [unknown]. */
static bool resolve_at(struct pv_script *s, bool inlines, const struct perfev_record *r, uint8_t cpumode,
		       uint64_t addr, const struct perfev_map *map, struct perfev_location *loc)
{
	return pv_resolver_location(s->res, (int32_t)r->u.sample.pid, cpumode, addr, map, inlines, loc);
}

bool pv_script_resolve(struct pv_script *s, const struct perfev_record *r, uint8_t cpumode, uint64_t addr,
		       const struct perfev_map *map, struct perfev_location *loc)
{
	return resolve_at(s, false, r, cpumode, addr, map, loc);
}

static uint64_t map_rel(const struct perfev_map *m, uint64_t ip);

/* sym, symoff, dso, srcline of one address */
static void print_sym(struct pv_script *s, const struct perfev_record *r, uint32_t f, uint8_t cpumode, uint64_t addr)
{
	if (!(f & (F_SYM | F_DSO | F_SRCLINE)))
		return;
	const struct perfev_sample *smp = &r->u.sample;
	const struct perfev_map *map =
		perfev_session_find_map(s->session, smp->pid, smp->tid, cpumode, addr, smp->time);
	struct perfev_location loc = {0};
	bool have = resolve_at(s, false, r, cpumode, addr, map, &loc);
	if (f & F_SYM) {
		if (have && loc.symbol) {
			P(" %s", loc.symbol);
			if (f & F_SYMOFF) /* perf prints +0x0 too */
				P("+0x%llx", (unsigned long long)loc.symoff);
		} else {
			P(" [unknown]");
		}
	}
	if (f & F_DSO) {
		/* the dso is the map's, as perf names it: an address no map of the
		 * recording holds is [unknown] whatever the symbolizer could guess */
		char kbuf[256];
		const char *dso = map ? pv_script_dso_name(s, map, smp->pid, kbuf, sizeof(kbuf)) : NULL;
		P(" (%s)", dso ? dso : "[unknown]");
	}
	if ((f & F_SRCLINE) && have && loc.nr_lines && loc.lines[loc.nr_lines - 1].file) {
		/* perf shows the file's base name (its srcline_full_filename is off) */
		const char *file = loc.lines[loc.nr_lines - 1].file, *slash = strrchr(file, '/');
		P("\n  %s:%u", slash ? slash + 1 : file, loc.lines[loc.nr_lines - 1].line);
	} else if ((f & F_SRCLINE) && map) {
		/* no line: perf's map__srcline shows the object's short name and the
		 * address in it ([kernel.kallsyms][ffffffff81000130], libc.so.6[2724a]) */
		char kbuf[256];
		const char *dso = pv_script_dso_name(s, map, smp->pid, kbuf, sizeof(kbuf));
		const char *slash = dso ? strrchr(dso, '/') : NULL;
		P("\n  %s[%llx]", slash ? slash + 1 : dso ? dso : "[unknown]",
		  (unsigned long long)(kernel_mode(cpumode) ? addr : map_rel(map, addr)));
	}
}

static uint64_t chain_addr(struct pv_script *s, const struct perfev_sample *smp, uint8_t cpumode, uint64_t ip);

/* One callchain entry: its line, or for a DWARF-unwound frame (unwound)
 * with inlined functions at ip one line per function, innermost first, as
 * perf 6.1's unwind_entry/append_inlines make them (its frame-pointer
 * callchains get no inline frames): a function other than the ELF symbol
 * is "name+off (inlined)" (no dso). */
static void print_chain_entry(struct pv_script *s, const struct perfev_record *r, uint32_t f, uint8_t cpumode,
			      uint64_t ip, bool unwound)
{
	const struct perfev_sample *smp = &r->u.sample;
	uint64_t shown = chain_addr(s, smp, cpumode, ip);
	struct perfev_location loc = {0};
	const struct perfev_map *map = NULL;
	if (unwound && !kernel_mode(cpumode) && !s->o->no_inline) { /* (perf: whatever the fields, "ADDR (inlined)" with ip alone) */
		map = perfev_session_find_map(s->session, smp->pid, smp->tid, cpumode, ip, smp->time);
		if (!map || !resolve_at(s, true, r, cpumode, ip, map, &loc))
			loc.nr_lines = 0;
	}
	/* several lines are several entries even when all are the symbol's own
	 * (perf's new_inline_sym reuses the real symbol for each) */
	bool inl = loc.nr_lines > 1;
	for (size_t i = 0; i < loc.nr_lines; i++)
		if (loc.lines[i].function && strcmp(loc.lines[i].function, loc.symbol))
			inl = true;
	if (!inl) {
		pv_buf_putc(&s->line, '\t');
		put_num(s, shown, 16, 16, false, ' ');
		print_sym(s, r, f, cpumode, ip);
		pv_buf_putc(&s->line, '\n');
		return;
	}
	char kbuf[256];
	const char *dso = pv_script_dso_name(s, map, smp->pid, kbuf, sizeof(kbuf));
	for (size_t i = 0; i < loc.nr_lines; i++) {
		const struct perfev_source_line *l = &loc.lines[i];
		const char *fn = l->function ? l->function : "??";
		bool own = !strcmp(fn, loc.symbol);
		pv_buf_putc(&s->line, '\t');
		put_num(s, shown, 16, 16, false, ' ');
		if (f & F_SYM) {
			P(" %s", fn);
			if (f & F_SYMOFF) /* perf prints +0x0 too */
				P("+0x%llx", (unsigned long long)loc.symoff);
		}
		if ((f & F_DSO) && own)
			P(" (%s)", dso ? dso : "[unknown]");
		if ((f & F_SRCLINE) && l->file) {
			const char *slash = strrchr(l->file, '/');
			P("\n  %s:%u", slash ? slash + 1 : l->file, l->line);
		}
		if (!own)
			P(" (inlined)");
		pv_buf_putc(&s->line, '\n');
	}
}

/* ip in its map's terms (ip - start + pgoff), as is for the maps perf
 * treats as identity (anonymous memory, heap, stack, SysV shm) */
static uint64_t map_rel(const struct perfev_map *m, uint64_t ip)
{
	if (!m || !m->path)
		return ip;
	const char *f = m->path;
	if (!strcmp(f, "//anon") || !strncmp(f, "/dev/zero", 9) || !strncmp(f, "/anon_hugepage", 14) ||
	    !strncmp(f, "[stack", 6) || !strncmp(f, "/SYSV", 5) || !strcmp(f, "[heap]"))
		return ip;
	return ip - m->start + m->pgoff;
}

/* perf prints a callchain entry relative to its map, a kernel one as is */
static uint64_t chain_addr(struct pv_script *s, const struct perfev_sample *smp, uint8_t cpumode, uint64_t ip)
{
	if (kernel_mode(cpumode))
		return ip; /* perf's kernel maps are identity maps */
	return map_rel(perfev_session_find_map(s->session, smp->pid, smp->tid, cpumode, ip, smp->time), ip);
}

/* --stop-bt: whether the chain ends after the entry at ip (its symbol is listed) */
static bool stops_here(struct pv_script *s, const struct perfev_record *r, uint8_t cpumode, uint64_t ip)
{
	const char *list = s->o->stop_bt;
	if (!list)
		return false;
	const struct perfev_sample *smp = &r->u.sample;
	const struct perfev_map *map = perfev_session_find_map(s->session, smp->pid, smp->tid, cpumode, ip, smp->time);
	struct perfev_location loc = {0};
	if (!map || !resolve_at(s, false, r, cpumode, ip, map, &loc))
		return false;
	return pv_list_has(list, loc.symbol);
}

/* A --call-graph dwarf sample (REGS_USER + STACK_USER) unwound as perf
 * script shows it: the callchain's kernel part, then the user frames, a
 * return address shown (and named) as the call's last byte (ip - 1), as
 * perf's unwinders do. false if it could not be unwound. */
static bool print_unwound(struct pv_script *s, const struct perfev_record *r, uint32_t f)
{
	const struct perfev_sample *smp = &r->u.sample;
	if (!(smp->sample_type & PERF_SAMPLE_STACK_USER) || !smp->regs_user.abi || !smp->stack_user_dyn_size)
		return false;
	struct perfev_frame fr[MAX_STACK];
	int dwarf;
	size_t n = pv_resolver_frames(s->res, smp, fr, s->max_stack, &dwarf);
	if (dwarf <= 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		uint8_t cpumode = fr[i].kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
		uint64_t ip = fr[i].ip - (!fr[i].kernel && fr[i].return_addr);
		print_chain_entry(s, r, f, cpumode, ip, true);
		if (stops_here(s, r, cpumode, ip))
			break;
	}
	return true;
}

/* The callchain as perf's sample__fprintf_callchain prints it; false if it has no entries. */
static void print_callchain(struct pv_script *s, const struct perfev_record *r, uint32_t f)
{
	const struct perfev_sample *smp = &r->u.sample;
	uint8_t cpumode = r->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	unsigned n = 0;
	if (print_unwound(s, r, f))
		return;
	for (uint64_t i = 0; i < smp->callchain_nr && n < s->max_stack; i++) {
		uint64_t ip = smp->callchain[i];
		if (ip >= PERF_CONTEXT_MAX) {
			switch (ip) {
			case PERF_CONTEXT_HV: cpumode = PERF_RECORD_MISC_HYPERVISOR; break;
			case PERF_CONTEXT_KERNEL: cpumode = PERF_RECORD_MISC_KERNEL; break;
			case PERF_CONTEXT_USER: cpumode = PERF_RECORD_MISC_USER; break;
			case PERF_CONTEXT_GUEST_KERNEL: cpumode = PERF_RECORD_MISC_GUEST_KERNEL; break;
			case PERF_CONTEXT_GUEST_USER: cpumode = PERF_RECORD_MISC_GUEST_USER; break;
			default: return; /* a corrupt chain: perf discards the rest */
			}
			continue;
		}
		n++;
		print_chain_entry(s, r, f, cpumode, ip, false);
		if (stops_here(s, r, cpumode, ip))
			return;
	}
}

static void print_flags(struct pv_script *s, uint32_t flags)
{
	/* samples read from a file carry no branch flags: perf prints them blank */
	(void)flags;
	P("  %-21s ", "");
}

/* The map of a branch address: the sample's cpumode first, then the other
 * side, as perf's thread__find_map_fb falls back. */
static const struct perfev_map *branch_map(struct pv_script *s, const struct perfev_record *r, uint64_t addr,
					   uint8_t *cpumode)
{
	const struct perfev_sample *smp = &r->u.sample;
	*cpumode = r->misc & PERF_RECORD_MISC_CPUMODE_MASK;
	const struct perfev_map *m = perfev_session_find_map(s->session, smp->pid, smp->tid, *cpumode, addr, smp->time);
	if (!m) {
		*cpumode = kernel_mode(*cpumode) ? PERF_RECORD_MISC_USER : PERF_RECORD_MISC_KERNEL;
		m = perfev_session_find_map(s->session, smp->pid, smp->tid, *cpumode, addr, smp->time);
	}
	return m;
}

/* "(dso)" after a branch end, with the dso field */
static void branch_dso(struct pv_script *s, uint32_t f, const struct perfev_record *r, const struct perfev_map *m)
{
	if (!(f & F_DSO))
		return;
	char kbuf[256];
	const char *dso = m ? pv_script_dso_name(s, m, r->u.sample.pid, kbuf, sizeof(kbuf)) : NULL;
	P("(%s)", dso ? dso : "[unknown]");
}

/* brstacksym: each end as sym+off (perf prints +0x0 too) or [unknown] */
static void branch_sym(struct pv_script *s, const struct perfev_record *r, uint32_t f, uint64_t addr)
{
	uint8_t cpumode;
	const struct perfev_map *m = branch_map(s, r, addr, &cpumode);
	struct perfev_location loc = {0};
	if (m && resolve_at(s, false, r, cpumode, addr, m, &loc))
		P("%s+0x%llx", loc.symbol, (unsigned long long)loc.symoff);
	else
		P("[unknown]");
	branch_dso(s, f, r, m);
}

/* brstackoff: each end relative to its map (ip - start + pgoff), as is where no map holds it */
static void branch_off(struct pv_script *s, const struct perfev_record *r, uint32_t f, uint64_t addr)
{
	uint8_t cpumode;
	const struct perfev_map *m = branch_map(s, r, addr, &cpumode);
	/* perf's map_ip, the kernel's map included (its brstackoff differs from callchains there) */
	P("0x%llx", (unsigned long long)(m && m->kernel ? addr - m->start : map_rel(m, addr)));
	branch_dso(s, f, r, m);
}

static void print_bstack_flags(struct pv_script *s, uint64_t fl)
{
	static const char *const types[] = {"", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET", "SYSCALL",
					    "SYSRET", "COND_CALL", "COND_RET", "ERET", "IRQ", "SERROR", "NO_TX",
					    "EXTEND_ABI"};
	char mp = !(fl & 3) ? '-' : (fl & 2) ? 'P' : 'M';
	/* perf 6.1's layout: no speculation field */
	P("/%c/%c/%c/%u/%s ", mp, (fl & 4) ? 'X' : '-', (fl & 8) ? 'A' : '-', (unsigned)(fl >> 4 & 0xffff),
	  types[fl >> 20 & 0xf]);
}

static void print_brstack(struct pv_script *s, const struct perfev_sample *smp)
{
	for (uint64_t i = 0; i < smp->branch_nr; i++) {
		const struct perfev_branch_entry *b = &smp->branches[i];
		P(" 0x%llx/0x%llx", (unsigned long long)b->from, (unsigned long long)b->to);
		print_bstack_flags(s, b->flags);
	}
}

/* brstacksym and brstackoff (perf prints one of brstack, brstacksym, brstackoff, in that order) */
static void print_brstack_ends(struct pv_script *s, const struct perfev_record *r, uint32_t f)
{
	const struct perfev_sample *smp = &r->u.sample;
	for (uint64_t i = 0; i < smp->branch_nr; i++) {
		const struct perfev_branch_entry *b = &smp->branches[i];
		if (f & F_BRSTACKSYM) {
			branch_sym(s, r, f, b->from);
			P("/");
			branch_sym(s, r, f, b->to);
		} else {
			P(" ");
			branch_off(s, r, f, b->from);
			P("/");
			branch_off(s, r, f, b->to);
		}
		print_bstack_flags(s, b->flags);
	}
}

static void print_regs(struct pv_script *s, const char *label, const struct perfev_regs *rg)
{
	if (!rg->abi)
		return;
	P(" ABI:%llu ", (unsigned long long)rg->abi);
	uint64_t mask = rg->mask;
	uint32_t k = 0;
	for (int bit = 0; bit < 64 && k < rg->nr; bit++)
		if (mask >> bit & 1)
			P("%5s:0x%llx ", label, (unsigned long long)rg->regs[k++]), (void)bit;
}

void pv_script_sample(struct pv_script *s, const struct perfev_record *r)
{
	const struct perfev_attr *a = perfev_decoder_attr(perfev_perfdata_decoder(s->pd), r->attr_idx);
	if (!a)
		return;
	int t = pv_out_type(a->type);
	uint32_t f = s->fields[t];
	if (!f)
		return;
	const struct perfev_sample *smp = &r->u.sample;
	uint64_t period = (smp->sample_type & PERF_SAMPLE_PERIOD) ? smp->period : a->sample_period;
	bool chain = !s->o->hide_call_graph &&
		     ((smp->sample_type & PERF_SAMPLE_CALLCHAIN) ||
		      ((smp->sample_type & PERF_SAMPLE_STACK_USER) && (smp->sample_type & PERF_SAMPLE_REGS_USER)));
	pv_buf_reset(&s->line);
	pv_script_start(s, r, f, smp->pid, smp->tid, smp->time, smp->cpu, (f & F_IP) && chain);
	if (f & F_PERIOD) {
		put_num(s, period, 10, 10, false, ' ');
		pv_buf_putc(&s->line, ' ');
	}
	if (f & F_EVNAME) {
		if (!s->name_width) {
			for (size_t i = 0; i < perfev_perfdata_nr_events(s->pd); i++) {
				int l = (int)strlen(perfev_perfdata_event_name(s->pd, i));
				if (l > s->name_width)
					s->name_width = l;
			}
		}
		/* decoder attrs and file events are added in the same order */
		const char *name = (size_t)r->attr_idx < perfev_perfdata_nr_events(s->pd)
					   ? perfev_perfdata_event_name(s->pd, (size_t)r->attr_idx)
					   : "[unknown]";
		P("%*s: ", s->name_width, name);
	}
	if (f & F_FLAGS)
		print_flags(s, 0);
	if (f & F_TRACE)
		pv_script_trace(s, smp);
	if (f & F_ADDR) {
		P("%16llx", (unsigned long long)smp->addr);
		/* perf resolves the address of page faults */
		if (a->type == PERF_TYPE_SOFTWARE &&
		    (a->config == PERF_COUNT_SW_PAGE_FAULTS || a->config == PERF_COUNT_SW_PAGE_FAULTS_MIN ||
		     a->config == PERF_COUNT_SW_PAGE_FAULTS_MAJ))
			print_sym(s, r, f & (F_SYM | F_SYMOFF | F_DSO), r->misc & PERF_RECORD_MISC_CPUMODE_MASK, smp->addr);
	}
	if (f & F_DATA_SRC) {
		/* perf pads to the longest one printed so far */
		char d[160], o[200];
		perfev_data_src_str(d, sizeof(d), smp->data_src);
		int len = snprintf(o, sizeof(o), "%16llx %s", (unsigned long long)smp->data_src, d);
		if (len > (int)sizeof(o) - 1)
			len = (int)sizeof(o) - 1;
		if (len > s->data_src_width)
			s->data_src_width = len;
		P("%-*s", s->data_src_width, o);
	}
	/* WEIGHT_STRUCT: var1_dw is the weight, var2_w the instruction latency */
	bool wstruct = smp->sample_type & PERF_SAMPLE_WEIGHT_STRUCT;
	if (f & F_WEIGHT)
		P("%16llu", (unsigned long long)(wstruct ? (smp->weight & 0xffffffffu) : smp->weight));
	if (f & F_INS_LAT)
		P("%16u", wstruct ? (unsigned)(smp->weight >> 32 & 0xffff) : 0u);
	if (f & F_IP) {
		if (chain) {
			P("\n");
			print_callchain(s, r, f);
		} else {
			pv_buf_putc(&s->line, ' ');
			put_num(s, smp->ip, 16, 16, false, ' ');
			print_sym(s, r, f, r->misc & PERF_RECORD_MISC_CPUMODE_MASK, smp->ip);
		}
	}
	if (f & F_IREGS)
		print_regs(s, "r", &smp->regs_intr);
	if (f & F_UREGS)
		print_regs(s, "r", &smp->regs_user);
	if (f & F_BRSTACK)
		print_brstack(s, smp);
	else if (f & (F_BRSTACKSYM | F_BRSTACKOFF))
		print_brstack_ends(s, r, f);

	if (f & F_PHYS_ADDR)
		P("%16llx", (unsigned long long)smp->phys_addr);
	if (f & F_DATA_PAGE_SIZE)
		P(" %llu", (unsigned long long)smp->data_page_size);
	if (f & F_CODE_PAGE_SIZE)
		P(" %llu", (unsigned long long)smp->code_page_size);
	if (f & F_CGROUP)
		P(" %llu", (unsigned long long)smp->cgroup);
	pv_buf_putc(&s->line, '\n');
	fwrite(s->line.data, 1, s->line.len, s->out);
}

static int on_record(void *ctx, const struct perfev_record *r)
{
	struct pv_script *s = ctx;
	if (r->type == PERFEV_RECORD_AUXTRACE_INFO && !s->o->json) {
		/* perf script decodes the AUX trace (Intel PT, CoreSight...) into samples; perfev does not */
		s->err = pv_error(ENOTSUP, "the file holds an AUX area trace (AUXTRACE_INFO type %u) whose samples perf "
				  "synthesizes by decoding it; perfev does not decode AUX traces: use perf script "
				  "for this file, or perfev script --json for its raw records", r->u.auxtrace_info.type);
		return s->err;
	}
	if (r->type == PERFEV_RECORD_HEADER_ATTR && !s->checked && !s->o->json) {
		/* pipe mode: perf checks each attr as it arrives, the first of its type */
		const struct perfev_attr *a = r->u.header_attr.attr;
		size_t n = ++s->attrs_seen; /* (the reader knows them all from the start) */
		bool first = true;
		for (size_t i = 0; i + 1 < n && i < perfev_perfdata_nr_events(s->pd); i++)
			if (perfev_perfdata_event_attr(s->pd, i)->type == a->type)
				first = false;
		if (first && a->sample_type) {
			char name[256];
			perfev_attr_name(a, name, sizeof(name));
			int e = pv_script_check_attr(s, a, name);
			if (e < 0) {
				s->err = e;
				return e;
			}
		}
	}
	if (r->type == PERFEV_RECORD_HEADER_BUILD_ID)
		add_buildid_name(s, r->u.build_id.filename);
	if (r->type == PERFEV_RECORD_HEADER_TRACING_DATA)
		pv_script_load_tracing(s); /* pipe mode: the reader kept its payload */
	if (r->type == PERFEV_RECORD_HEADER_ATTR) {
		/* perf script in pipe mode shows callchains with symbols, whatever -F says */
		const struct perfev_attr *a = r->u.header_attr.attr;
		uint64_t st = (s->combined_sample_type |= a->sample_type);
		if ((st & PERF_SAMPLE_CALLCHAIN) || (st & PERF_SAMPLE_BRANCH_STACK) ||
		    ((st & PERF_SAMPLE_REGS_USER) && (st & PERF_SAMPLE_STACK_USER))) {
			int t = pv_out_type(a->type);
			if (!(s->user_unset[t] & F_IP))
				s->fields[t] |= F_IP;
			if (!(s->user_unset[t] & F_SYM))
				s->fields[t] |= F_SYM;
		}
	}
	if (pv_resolver_record(s->res, r) < 0) { /* threads, maps, what an exec forgets */
		s->err = -ENOMEM;
		return -ENOMEM;
	}
	if (r->type == PERF_RECORD_SAMPLE && !pv_script_sample_shown(s, r))
		return 0;
	if (s->o->json)
		pv_script_json(s, r);
	else if (r->type == PERF_RECORD_SAMPLE)
		pv_script_sample(s, r);
	else
		pv_script_side(s, r);
	if (ferror(s->out)) {
		s->err = pv_error(EPIPE, "cannot write the output");
		return s->err;
	}
	return 0;
}

/* The resolver of every symbol, map and unwound stack script prints: the
 * recording's (its build-ids, its kernel), named as the options ask. NULL
 * with errno set. */
static struct perfev_resolver *new_resolver(struct pv_script *s)
{
	bool srcline = false;
	for (int t = 0; t < PV_OUT_TYPES; t++)
		srcline |= (s->fields[t] & F_SRCLINE) != 0;
	const char *kallsyms = s->o->kallsyms;
	if (s->o->vmlinux && pv_vmlinux_kallsyms_for(s->pd, s->o->vmlinux, &s->vmlinux_fd, s->vmlinux_kallsyms,
						     sizeof(s->vmlinux_kallsyms), &kallsyms) < 0)
		return NULL;
	struct perfev_resolver_opts ro = {.sz = sizeof(ro), .srclines = srcline, .no_demangle = s->o->no_demangle,
					  .demangle_params = s->o->demangle_params, .symfs = s->o->symfs,
					  .kallsyms = kallsyms};
	struct perfev_resolver *r = pv_resolver_new(&ro, NULL);
	if (r) {
		pv_resolver_addresses_only(r);
		pv_resolver_use_perfdata(r, s->pd); /* (script says nothing of another kernel, as perf) */
	}
	return r;
}

PERFEV_API int perfev_script_run(struct perfev_perfdata *pd, const struct perfev_script_opts *opts)
{
	if (!PV_OPTS_VALID(opts, perfev_script_opts))
		return -EINVAL;
	/* a caller built against an older header gave fewer fields: the rest are 0 */
	struct perfev_script_opts o;
	PV_OPTS_COPY(o, opts);
	struct pv_script s = {.o = &o, .pd = pd, .vmlinux_fd = -1};
	s.out = s.o->out ? s.o->out : stdout;
	s.max_stack = o.max_stack_given && o.max_stack < MAX_STACK ? o.max_stack : MAX_STACK;
	int err = pv_script_parse_fields(&s, s.o->fields);
	if (err < 0)
		return err;
	bool tod = false;
	for (int t = 0; t < PV_OUT_TYPES; t++)
		tod |= (s.fields[t] & F_TOD) != 0;
	if (tod && !s.o->json && !perfev_perfdata_has_feature(pd, PERFEV_FEAT_CLOCK_DATA))
		return pv_error(EINVAL, "Can't provide 'tod' time, missing clock data. Please record with "
				"-k/--clockid option.");
	if (!perfev_perfdata_is_pipe(pd) && !s.o->json) {
		s.checked = true;
		if ((err = pv_script_check(&s)) < 0)
			return err;
	}
	if ((err = pv_script_filter_init(&s)) < 0) {
		pv_script_filter_free(&s);
		return err;
	}
	load_buildids(&s);
	if (!(s.res = new_resolver(&s))) {
		err = -errno;
		pv_script_filter_free(&s);
		pv_buf_free(&s.bid_names);
		if (s.vmlinux_fd >= 0)
			close(s.vmlinux_fd);
		return err;
	}
	s.session = perfev_resolver_session(s.res);
	if (!perfev_perfdata_is_pipe(pd))
		pv_script_load_tracing(&s);
	struct perfev_perfdata_read_opts ro = {.sz = sizeof(ro)};
	err = perfev_perfdata_process(pd, &ro, on_record, &s);
	perfev_resolver_free(s.res);
	if (s.vmlinux_fd >= 0)
		close(s.vmlinux_fd);
	perfev_tp_free(s.tp);
	pv_buf_free(&s.line);
	pv_buf_free(&s.bid_names);
	pv_script_filter_free(&s);
	fflush(s.out);
	if (s.err)
		return s.err;
	return err > 0 ? -EINVAL : err;
}
