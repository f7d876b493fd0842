/* record_str.c — record types, misc bits, data_src, branch flags and
 * transaction bits in words, as perf prints them. */
#define _GNU_SOURCE
#include "record/record_int.h"
#include "perfev.h"

#include <stdarg.h>

PERFEV_API const char *perfev_record_type_name(uint32_t type)
{
	static const char *const k[] = {
		[PERF_RECORD_MMAP] = "MMAP", [PERF_RECORD_LOST] = "LOST", [PERF_RECORD_COMM] = "COMM",
		[PERF_RECORD_EXIT] = "EXIT", [PERF_RECORD_THROTTLE] = "THROTTLE",
		[PERF_RECORD_UNTHROTTLE] = "UNTHROTTLE", [PERF_RECORD_FORK] = "FORK",
		[PERF_RECORD_READ] = "READ", [PERF_RECORD_SAMPLE] = "SAMPLE", [PERF_RECORD_MMAP2] = "MMAP2",
		[PERF_RECORD_AUX] = "AUX", [PERF_RECORD_ITRACE_START] = "ITRACE_START",
		[PERF_RECORD_LOST_SAMPLES] = "LOST_SAMPLES", [PERF_RECORD_SWITCH] = "SWITCH",
		[PERF_RECORD_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE", [PERF_RECORD_NAMESPACES] = "NAMESPACES",
		[PERF_RECORD_KSYMBOL] = "KSYMBOL", [PERF_RECORD_BPF_EVENT] = "BPF_EVENT",
		[PERF_RECORD_CGROUP] = "CGROUP", [PERF_RECORD_TEXT_POKE] = "TEXT_POKE",
		[PERF_RECORD_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
	};
	static const char *const u[] = {
		"ATTR", "EVENT_TYPE", "TRACING_DATA", "BUILD_ID", "FINISHED_ROUND", "ID_INDEX",
		"AUXTRACE_INFO", "AUXTRACE", "AUXTRACE_ERROR", "THREAD_MAP", "CPU_MAP", "STAT_CONFIG",
		"STAT", "STAT_ROUND", "EVENT_UPDATE", "TIME_CONV", "FEATURE", "COMPRESSED",
		"FINISHED_INIT", "COMPRESSED2",
	};
	if (type < PV_ARRAY_SIZE(k) && k[type])
		return k[type];
	if (type >= 64 && type - 64 < PV_ARRAY_SIZE(u))
		return u[type - 64];
	return "UNKNOWN";
}

/* Appends words separated by '|'. */
struct words {
	char *buf;
	size_t len;
	int n;
	bool any;
};
static void add(struct words *w, const char *fmt, ...) PV_PRINTF(2, 3);
static void add(struct words *w, const char *fmt, ...)
{
	char tmp[128];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	size_t at = (size_t)w->n < w->len ? (size_t)w->n : w->len;
	int k = snprintf(w->buf + at, w->len > at ? w->len - at : 0, "%s%s", w->any ? "|" : "", tmp);
	if (k > 0)
		w->n += k;
	w->any = true;
}
static int done(struct words *w)
{
	if (w->len && (size_t)w->n < w->len)
		w->buf[w->n] = 0;
	else if (w->len)
		w->buf[w->len - 1] = 0;
	return w->n;
}

PERFEV_API int perfev_misc_str(char *buf, size_t len, uint32_t type, uint16_t misc)
{
	struct words w = {buf, len, 0, false};
	if (len)
		buf[0] = 0;
	static const char *const modes[] = {"unknown", "kernel", "user", "hypervisor",
					    "guest_kernel", "guest_user", "mode6", "mode7"};
	add(&w, "%s", modes[misc & PERF_RECORD_MISC_CPUMODE_MASK]);
	if (misc & PERF_RECORD_MISC_PROC_MAP_PARSE_TIMEOUT) add(&w, "proc_map_timeout");
	if (misc & (1 << 13)) {
		switch (type) {
		case PERF_RECORD_MMAP: case PERF_RECORD_MMAP2: add(&w, "mmap_data"); break;
		case PERF_RECORD_COMM: add(&w, "comm_exec"); break;
		case PERF_RECORD_FORK: add(&w, "fork_exec"); break;
		case PERF_RECORD_SWITCH: case PERF_RECORD_SWITCH_CPU_WIDE: add(&w, "switch_out"); break;
		default: add(&w, "bit13");
		}
	}
	if (misc & (1 << 14)) {
		switch (type) {
		case PERF_RECORD_SAMPLE: add(&w, "exact_ip"); break;
		case PERF_RECORD_SWITCH: case PERF_RECORD_SWITCH_CPU_WIDE: add(&w, "preempt"); break;
		case PERF_RECORD_MMAP2: add(&w, "build_id"); break;
		default: add(&w, "bit14");
		}
	}
	if (misc & (1 << 15)) add(&w, "ext_reserved");
	return done(&w);
}

/* perf's mem-events.c wording, field by field. */
static void cat(char *out, size_t sz, size_t *l, const char *t)
{
	int k = snprintf(out + *l, *l < sz ? sz - *l : 0, "%s", t);
	if (k > 0)
		*l += (size_t)k;
	if (*l >= sz)
		*l = sz ? sz - 1 : 0;
}

static void bits_or(char *out, size_t sz, size_t *l, uint64_t m, const char *const *names, size_t n, bool *any)
{
	for (size_t i = 0; m && i < n; i++, m >>= 1) {
		if (!(m & 1))
			continue;
		if (*any)
			cat(out, sz, l, " or ");
		cat(out, sz, l, names[i]);
		*any = true;
	}
}

PERFEV_API int perfev_data_src_str(char *out, size_t sz, uint64_t v)
{
	static const char *const lvl[] = {"N/A", "HIT", "MISS", "L1", "LFB/MAB", "L2", "L3", "Local RAM",
					  "Remote RAM (1 hop)", "Remote RAM (2 hops)", "Remote Cache (1 hop)",
					  "Remote Cache (2 hops)", "I/O", "Uncached"};
	static const char *const lvlnum[16] = {[0x09] = "CXL", [0x0a] = "I/O", [0x0b] = "Any cache",
					       [0x0c] = "LFB/MAB", [0x0d] = "RAM", [0x0e] = "PMEM", [0x0f] = "N/A"};
	static const char *const hops[] = {"N/A", "core, same node", "node, same socket", "socket, same board", "board"};
	static const char *const snoop[] = {"N/A", "None", "Hit", "Miss", "HitM"};
	static const char *const snoopx[] = {"Fwd", "Peer"};
	static const char *const tlb[] = {"N/A", "HIT", "MISS", "L1", "L2", "Walker", "Fault"};
	union perf_mem_data_src d = {.val = v};
	size_t l = 0;
	if (sz)
		out[0] = 0;
	cat(out, sz, &l, "|OP ");
	unsigned op = d.mem_op;
	cat(out, sz, &l, op & PERF_MEM_OP_NA ? "N/A" : op & PERF_MEM_OP_LOAD ? "LOAD" : op & PERF_MEM_OP_STORE ? "STORE"
		       : op & PERF_MEM_OP_PFETCH ? "PFETCH" : op & PERF_MEM_OP_EXEC ? "EXEC" : "No");
	cat(out, sz, &l, "|LVL ");
	size_t start = l;
	bool any = false;
	uint64_t m = d.mem_lvl;
	bool hit = m & PERF_MEM_LVL_HIT, miss = m & PERF_MEM_LVL_MISS;
	m &= ~(uint64_t)(PERF_MEM_LVL_HIT | PERF_MEM_LVL_MISS);
	if (d.mem_remote)
		cat(out, sz, &l, "Remote ");
	if (d.mem_hops) {
		cat(out, sz, &l, d.mem_hops < 5 ? hops[d.mem_hops] : "N/A");
		cat(out, sz, &l, " ");
	} else {
		bits_or(out, sz, &l, m, lvl, PV_ARRAY_SIZE(lvl), &any);
	}
	if (d.mem_lvl_num) {
		if (any)
			cat(out, sz, &l, " or ");
		any = true;
		char b[8];
		snprintf(b, sizeof(b), "L%u", (unsigned)d.mem_lvl_num);
		cat(out, sz, &l, lvlnum[d.mem_lvl_num] ? lvlnum[d.mem_lvl_num] : b);
	}
	if (l == start)
		cat(out, sz, &l, "N/A");
	if (hit)
		cat(out, sz, &l, " hit");
	if (miss)
		cat(out, sz, &l, " miss");
	cat(out, sz, &l, "|SNP ");
	start = l;
	any = false;
	bits_or(out, sz, &l, d.mem_snoop, snoop, PV_ARRAY_SIZE(snoop), &any);
	bits_or(out, sz, &l, d.mem_snoopx, snoopx, PV_ARRAY_SIZE(snoopx), &any);
	if (l == start)
		cat(out, sz, &l, "N/A");
	cat(out, sz, &l, "|TLB ");
	start = l;
	any = false;
	m = d.mem_dtlb;
	hit = m & PERF_MEM_TLB_HIT;
	miss = m & PERF_MEM_TLB_MISS;
	m &= ~(uint64_t)(PERF_MEM_TLB_HIT | PERF_MEM_TLB_MISS);
	bits_or(out, sz, &l, m, tlb, PV_ARRAY_SIZE(tlb), &any);
	if (l == start)
		cat(out, sz, &l, "N/A");
	if (hit)
		cat(out, sz, &l, " hit");
	if (miss)
		cat(out, sz, &l, " miss");
	cat(out, sz, &l, "|LCK ");
	cat(out, sz, &l, d.mem_lock & PERF_MEM_LOCK_NA ? "N/A" : d.mem_lock & PERF_MEM_LOCK_LOCKED ? "Yes" : "No");
	cat(out, sz, &l, "|BLK ");
	if (!d.mem_blk || (d.mem_blk & PERF_MEM_BLK_NA))
		cat(out, sz, &l, " N/A");
	else {
		if (d.mem_blk & PERF_MEM_BLK_DATA)
			cat(out, sz, &l, " Data");
		if (d.mem_blk & PERF_MEM_BLK_ADDR)
			cat(out, sz, &l, " Addr");
	}
	return (int)l;
}

PERFEV_API int perfev_branch_flags_str(char *buf, size_t len, uint64_t f)
{
	/* perf's brstack order: predicted, in_tx, abort, cycles, type */
	unsigned mispred = f & 1, predicted = f >> 1 & 1, in_tx = f >> 2 & 1, abort = f >> 3 & 1;
	unsigned cycles = f >> 4 & 0xffff, type = f >> 20 & 0xf, spec = f >> 24 & 3;
	static const char *const types[] = {"", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET",
					    "SYSCALL", "SYSRET", "COND_CALL", "COND_RET", "ERET", "IRQ",
					    "SERROR", "NO_TX", "EXTEND_ABI"};
	static const char *const specs[] = {"N/A", "SPEC_WRONG_PATH", "NON_SPEC_CORRECT_PATH",
					    "SPEC_CORRECT_PATH"};
	return snprintf(buf, len, "%s/%s/%s/%u/%s/%s", mispred ? "M" : predicted ? "P" : "-",
			in_tx ? "X" : "-", abort ? "A" : "-", cycles, types[type], specs[spec]);
}

PERFEV_API int perfev_transaction_str(char *buf, size_t len, uint64_t t)
{
	struct words w = {buf, len, 0, false};
	if (len)
		buf[0] = 0;
	static const char *const names[] = {"ELISION", "TRANSACTION", "SYNC", "ASYNC", "RETRY",
					    "CONFLICT", "CAPACITY_WRITE", "CAPACITY_READ"};
	for (unsigned i = 0; i < PV_ARRAY_SIZE(names); i++)
		if (t & (1u << i)) add(&w, "%s", names[i]);
	if (t >> 32) add(&w, "abort 0x%x", (unsigned)(t >> 32));
	if (!w.any) add(&w, "NONE");
	return done(&w);
}

PERFEV_API int perfev_sample_type_str(char *buf, size_t len, uint64_t st)
{
	struct words w = {buf, len, 0, false};
	if (len)
		buf[0] = 0;
	static const char *const names[] = {
		"IP", "TID", "TIME", "ADDR", "READ", "CALLCHAIN", "ID", "CPU", "PERIOD", "STREAM_ID",
		"RAW", "BRANCH_STACK", "REGS_USER", "STACK_USER", "WEIGHT", "DATA_SRC", "IDENTIFIER",
		"TRANSACTION", "REGS_INTR", "PHYS_ADDR", "AUX", "CGROUP", "DATA_PAGE_SIZE",
		"CODE_PAGE_SIZE", "WEIGHT_STRUCT"};
	for (unsigned i = 0; i < 64; i++)
		if (st >> i & 1) {
			if (i < PV_ARRAY_SIZE(names))
				add(&w, "%s", names[i]);
			else
				add(&w, "bit%u", i);
		}
	return done(&w);
}
