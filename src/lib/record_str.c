/* record_str.c — record types, misc bits, data_src, branch flags and
 * transaction bits in words, as perf prints them. */
#define _GNU_SOURCE
#include "record_int.h"
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

PERFEV_API int perfev_data_src_str(char *buf, size_t len, uint64_t v)
{
	struct words w = {buf, len, 0, false};
	if (len)
		buf[0] = 0;
	union perf_mem_data_src d = {.val = v};
	static const char *const op[] = {"NA", "LOAD", "STORE", "PFETCH", "EXEC"};
	for (unsigned i = 0; i < 5; i++)
		if (d.mem_op & (1u << i)) add(&w, "%s", op[i]);
	static const char *const lvl[] = {"NA", "HIT", "MISS", "L1", "LFB/MAB", "L2", "L3",
					  "Local RAM", "Remote RAM (1 hop)", "Remote RAM (2 hops)",
					  "Remote Cache (1 hop)", "Remote Cache (2 hops)", "I/O", "Uncached"};
	for (unsigned i = 0; i < PV_ARRAY_SIZE(lvl); i++)
		if (d.mem_lvl & (1u << i)) add(&w, "lvl %s", lvl[i]);
	if (d.mem_lvl_num) add(&w, "lvl_num %u", d.mem_lvl_num);
	if (d.mem_remote) add(&w, "remote");
	static const char *const snoop[] = {"NA", "None", "Hit", "Miss", "HitM"};
	for (unsigned i = 0; i < 5; i++)
		if (d.mem_snoop & (1u << i)) add(&w, "SNP %s", snoop[i]);
	if (d.mem_snoopx & 1) add(&w, "SNP Fwd");
	static const char *const tlb[] = {"NA", "HIT", "MISS", "L1", "L2", "Walker", "Fault"};
	for (unsigned i = 0; i < 7; i++)
		if (d.mem_dtlb & (1u << i)) add(&w, "TLB %s", tlb[i]);
	static const char *const lck[] = {"NA", "Locked"};
	for (unsigned i = 0; i < 2; i++)
		if (d.mem_lock & (1u << i)) add(&w, "LCK %s", lck[i]);
	if (d.mem_blk & 1) add(&w, "BLK NA");
	if (d.mem_blk & 2) add(&w, "BLK Data");
	if (d.mem_blk & 4) add(&w, "BLK Addr");
	if (!w.any) add(&w, "N/A");
	return done(&w);
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
