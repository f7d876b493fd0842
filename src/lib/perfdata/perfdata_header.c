/*
 * perfdata_header.c — a perf.data file's header as `perf report
 * --header-only` prints it (perf 6.1's perf_header__fprintf_info): the
 * file's layout, then each feature it holds in feature order (the ones perf
 * shows only with -I as "info available"), then the features it lacks.
 */
#define _GNU_SOURCE
#include "core/internal.h"
#include "core/opts.h"
#include "perfdata/perfdata_int.h"
#include "record/record_int.h"
#include "perfev/perfdata.h"
#include "perfev/recorder.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

/* the features perf 6.1 knows: bits 1 to PMU_CAPS */
#define LAST_FEAT PERFEV_FEAT_PMU_CAPS

/* perf's spelling of a feature's name: perfev_feat_name's, upper-cased
 * ("CPU_TOPOLOGY") */
static const char *feat_upper(int f, char *buf, size_t len)
{
	const char *n = perfev_feat_name(f);
	size_t i = 0;
	for (; n[i] && i + 1 < len; i++)
		buf[i] = (char)toupper((unsigned char)n[i]);
	buf[i] = '\0';
	return buf;
}

struct bit_name {
	uint64_t bit;
	const char *name;
};

/* How perf_event_attr__fprintf's callback prints a field: the header's
 * ", name = value", perf evlist -v's ": name: value" then ", name: value". */
struct attr_style {
	const char *first, *sep, *eq;
	bool started;
};

static void put_name(FILE *out, struct attr_style *st, const char *field)
{
	fprintf(out, "%s%s%s", st->started ? st->sep : st->first, field, st->eq);
	st->started = true;
}

static void print_bits(FILE *out, struct attr_style *style, const char *field, uint64_t v, const struct bit_name *b,
		       size_t n)
{
	if (!v)
		return;
	put_name(out, style, field);
	const char *sep = "";
	for (size_t i = 0; i < n; i++)
		if (v & b[i].bit) {
			fprintf(out, "%s%s", sep, b[i].name);
			sep = "|";
		}
}

#define BN(p, n) {p##n, #n}

/* perf_event_attr__fprintf with style's printer: the fields that are not
 * zero, in perf 6.1's order and formats. */
static void print_attr(FILE *out, const struct perfev_attr *a, struct attr_style *style)
{
	static const struct bit_name st[] = {
		BN(PERF_SAMPLE_, IP), BN(PERF_SAMPLE_, TID), BN(PERF_SAMPLE_, TIME), BN(PERF_SAMPLE_, ADDR),
		BN(PERF_SAMPLE_, READ), BN(PERF_SAMPLE_, CALLCHAIN), BN(PERF_SAMPLE_, ID), BN(PERF_SAMPLE_, CPU),
		BN(PERF_SAMPLE_, PERIOD), BN(PERF_SAMPLE_, STREAM_ID), BN(PERF_SAMPLE_, RAW),
		BN(PERF_SAMPLE_, BRANCH_STACK), BN(PERF_SAMPLE_, REGS_USER), BN(PERF_SAMPLE_, STACK_USER),
		BN(PERF_SAMPLE_, IDENTIFIER), BN(PERF_SAMPLE_, REGS_INTR), BN(PERF_SAMPLE_, DATA_SRC),
		BN(PERF_SAMPLE_, WEIGHT), BN(PERF_SAMPLE_, PHYS_ADDR), BN(PERF_SAMPLE_, AUX),
		BN(PERF_SAMPLE_, CGROUP), BN(PERF_SAMPLE_, DATA_PAGE_SIZE), BN(PERF_SAMPLE_, CODE_PAGE_SIZE),
		BN(PERF_SAMPLE_, WEIGHT_STRUCT)};
	static const struct bit_name rf[] = {
		BN(PERF_FORMAT_, TOTAL_TIME_ENABLED), BN(PERF_FORMAT_, TOTAL_TIME_RUNNING),
		BN(PERF_FORMAT_, ID), BN(PERF_FORMAT_, GROUP), BN(PERF_FORMAT_, LOST)};
	static const struct bit_name bt[] = {
		BN(PERF_SAMPLE_BRANCH_, USER), BN(PERF_SAMPLE_BRANCH_, KERNEL), BN(PERF_SAMPLE_BRANCH_, HV),
		BN(PERF_SAMPLE_BRANCH_, ANY), BN(PERF_SAMPLE_BRANCH_, ANY_CALL),
		BN(PERF_SAMPLE_BRANCH_, ANY_RETURN), BN(PERF_SAMPLE_BRANCH_, IND_CALL),
		BN(PERF_SAMPLE_BRANCH_, ABORT_TX), BN(PERF_SAMPLE_BRANCH_, IN_TX), BN(PERF_SAMPLE_BRANCH_, NO_TX),
		BN(PERF_SAMPLE_BRANCH_, COND), BN(PERF_SAMPLE_BRANCH_, CALL_STACK),
		BN(PERF_SAMPLE_BRANCH_, IND_JUMP), BN(PERF_SAMPLE_BRANCH_, CALL),
		BN(PERF_SAMPLE_BRANCH_, NO_FLAGS), BN(PERF_SAMPLE_BRANCH_, NO_CYCLES),
		BN(PERF_SAMPLE_BRANCH_, TYPE_SAVE), BN(PERF_SAMPLE_BRANCH_, HW_INDEX),
		BN(PERF_SAMPLE_BRANCH_, PRIV_SAVE)};
#define U(name, v) \
	do { \
		if (v) { \
			put_name(out, style, name); \
			fprintf(out, "%" PRIu64, (uint64_t)(v)); \
		} \
	} while (0)
#define X(name, v) \
	do { \
		if (v) { \
			put_name(out, style, name); \
			fprintf(out, "%#" PRIx64, (uint64_t)(v)); \
		} \
	} while (0)
#define F(f) U(#f, a->f)
	U("type", a->type);
	U("size", a->size);
	X("config", a->config);
	U("{ sample_period, sample_freq }", a->sample_period);
	print_bits(out, style, "sample_type", a->sample_type, st, PV_ARRAY_SIZE(st));
	print_bits(out, style, "read_format", a->read_format, rf, PV_ARRAY_SIZE(rf));
	F(disabled); F(inherit); F(pinned); F(exclusive); F(exclude_user); F(exclude_kernel);
	F(exclude_hv); F(exclude_idle); F(mmap); F(comm); F(freq); F(inherit_stat); F(enable_on_exec);
	F(task); F(watermark); F(precise_ip); F(mmap_data); F(sample_id_all); F(exclude_host);
	F(exclude_guest); F(exclude_callchain_kernel); F(exclude_callchain_user); F(mmap2);
	F(comm_exec); F(use_clockid); F(context_switch); F(write_backward); F(namespaces); F(ksymbol);
	F(bpf_event); F(aux_output); F(cgroup); F(text_poke); F(build_id); F(inherit_thread);
	F(remove_on_exec); F(sigtrap);
	U("{ wakeup_events, wakeup_watermark }", a->wakeup_events);
	F(bp_type);
	X("{ bp_addr, config1 }", a->bp_addr);
	X("{ bp_len, config2 }", a->bp_len);
	print_bits(out, style, "branch_sample_type", a->branch_sample_type, bt, PV_ARRAY_SIZE(bt));
	X("sample_regs_user", a->sample_regs_user);
	F(sample_stack_user);
	if (a->clockid) {
		put_name(out, style, "clockid");
		fprintf(out, "%" PRId64, (int64_t)a->clockid);
	}
	X("sample_regs_intr", a->sample_regs_intr);
	F(aux_watermark); F(sample_max_stack); F(aux_sample_size); F(sig_data);
#undef F
#undef U
#undef X
}

static void print_event_desc(FILE *out, const uint8_t *p, size_t size, bool swap)
{
	struct pv_cur c = {p, p + size, swap, false, NULL};
	uint32_t nr = cur_u32(&c, "nr"), asz = cur_u32(&c, "attr size");
	if (c.bad || asz < 64 || asz > 4096) {
		fputs("# event desc: not available or unable to read\n", out);
		return;
	}
	for (uint32_t i = 0; i < nr && !c.bad; i++) {
		const void *raw = cur_bytes(&c, asz, "attr");
		uint32_t nids = cur_u32(&c, "nr ids");
		const char *name = pv_feat_get_string(&c);
		if (!raw || !name || c.bad || nids > cur_left(&c) / 8)
			return;
		struct perfev_attr a;
		pv_attr_from_bytes(&a, raw, asz, swap);
		fprintf(out, "# event : name = %s, ", name);
		if (nids) {
			fputs(", id = {", out);
			for (uint32_t j = 0; j < nids; j++)
				fprintf(out, "%s %" PRIu64, j ? "," : "", cur_u64(&c, "id"));
			fputs(" }", out);
		}
		struct attr_style style = {", ", ", ", " = ", false};
		print_attr(out, &a, &style);
		fputc('\n', out);
	}
}

static void print_cmdline(FILE *out, const struct perfev_perfdata *pd)
{
	fputs("# cmdline : ", out);
	for (size_t i = 0;; i++) {
		const char *arg = perfev_perfdata_feature_list(pd, PERFEV_FEAT_CMDLINE, i);
		if (!arg)
			break;
		for (const char *q; (q = strchr(arg, '\'')); arg = q + 1) /* perf escapes quotes */
			fprintf(out, "%.*s\\'", (int)(q - arg), arg);
		fprintf(out, "%s ", arg);
	}
	fputc('\n', out);
}

static void print_pmu_mappings(FILE *out, const uint8_t *p, size_t size, bool swap)
{
	struct pv_cur c = {p, p + size, swap, false, NULL};
	uint32_t n = cur_u32(&c, "nr");
	if (!n) {
		fputs("# pmu mappings: not available\n", out);
		return;
	}
	const char *sep = "# pmu mappings: ";
	for (uint32_t i = 0; i < n; i++) {
		uint32_t type = cur_u32(&c, "type");
		const char *name = pv_feat_get_string(&c);
		if (!name || c.bad) {
			fputs("\n# pmu mappings: unable to read\n", out);
			return;
		}
		fprintf(out, "%s%s = %" PRIu32, sep, name, type);
		sep = ", ";
	}
	fputc('\n', out);
}

/* perf's GROUP_DESC: "# group: NAME{leader,member,...}" per group of two or more */
static void print_group_desc(FILE *out, const struct perfev_perfdata *pd, const uint8_t *p, size_t size,
			     bool swap)
{
	struct pv_cur c = {p, p + size, swap, false, NULL};
	uint32_t n = cur_u32(&c, "nr");
	size_t nev = perfev_perfdata_nr_events(pd);
	for (uint32_t g = 0; g < n && !c.bad; g++) {
		const char *name = pv_feat_get_string(&c);
		uint32_t leader = cur_u32(&c, "leader"), members = cur_u32(&c, "members");
		if (!name || c.bad || members < 2 || leader >= nev || members > nev - leader)
			continue;
		fprintf(out, "# group: %s{", strcmp(name, "{anon_group}") ? name : "");
		for (uint32_t m = 0; m < members; m++)
			fprintf(out, "%s%s", m ? "," : "", perfev_perfdata_event_name(pd, leader + m));
		fputs("}\n", out);
	}
}

/* perf 6.1's __print_pmu_caps of CPU_PMU_CAPS (one PMU) and PMU_CAPS (each) */
static void print_caps(FILE *out, struct pv_cur *c, const char *pmu)
{
	uint32_t n = cur_u32(c, "nr caps");
	if (!n || c->bad) {
		fprintf(out, "# %s pmu capabilities: not available\n", pmu);
		return;
	}
	fprintf(out, "# %s pmu capabilities: ", pmu);
	for (uint32_t i = 0; i < n && !c->bad; i++) {
		const char *k = pv_feat_get_string(c);
		char key[256];
		snprintf(key, sizeof(key), "%s", k ? k : "");
		const char *v = pv_feat_get_string(c);
		if (!k || !v)
			break;
		fprintf(out, "%s%s=%s", i ? ", " : "", key, v);
	}
	fputc('\n', out);
}

/* "N" strings after a u32 count, each printed as "# LABEL : S" */
static uint32_t print_strings(FILE *out, struct pv_cur *c, const char *label, bool print)
{
	uint32_t n = cur_u32(c, "nr");
	for (uint32_t i = 0; i < n && !c->bad; i++) {
		const char *s = pv_feat_get_string(c);
		if (!s)
			break;
		if (print)
			fprintf(out, "# %s : %s\n", label, s);
	}
	return n;
}

/* perf's print_cpu_topology (-I): core (perf: "sockets"), die and thread
 * sibling lists, then each CPU's core, die and socket ids when recorded */
static void print_cpu_topology(FILE *out, const uint8_t *p, size_t size, bool swap, uint32_t ncpus)
{
	struct pv_cur c = {p, p + size, swap, false, NULL};
	struct pv_cur cores = c;
	print_strings(out, &c, "", false);
	struct pv_cur threads = c;
	print_strings(out, &c, "", false);
	struct pv_cur ids = c;
	bool have_ids = !c.bad && cur_left(&c) >= (size_t)ncpus * 8;
	if (have_ids)
		cur_bytes(&c, (size_t)ncpus * 8, "ids");
	bool dies = have_ids && cur_left(&c) >= 4;
	struct pv_cur die_list = c;
	uint32_t ndies = dies ? print_strings(out, &c, "", false) : 0;
	struct pv_cur die_ids = c;
	print_strings(out, &cores, "sibling sockets", true);
	if (ndies)
		print_strings(out, &die_list, "sibling dies   ", true);
	print_strings(out, &threads, "sibling threads", true);
	if (!have_ids) {
		fprintf(out, ndies ? "# Core ID, Die ID and Socket ID information is not available\n"
				   : "# Core ID and Socket ID information is not available\n");
		return;
	}
	for (uint32_t i = 0; i < ncpus; i++) {
		uint32_t core = cur_u32(&ids, "core"), socket = cur_u32(&ids, "socket");
		if (ndies)
			fprintf(out, "# CPU %u: Core ID %d, Die ID %d, Socket ID %d\n", i, (int)core,
				(int)cur_u32(&die_ids, "die"), (int)socket);
		else
			fprintf(out, "# CPU %u: Core ID %d, Socket ID %d\n", i, (int)core, (int)socket);
	}
}

static void print_numa(FILE *out, struct pv_cur *c)
{
	uint32_t n = cur_u32(c, "nr");
	for (uint32_t i = 0; i < n && !c->bad; i++) {
		uint32_t node = cur_u32(c, "node");
		uint64_t total = cur_u64(c, "total"), freem = cur_u64(c, "free");
		const char *cpus = pv_feat_get_string(c);
		if (!cpus)
			break;
		fprintf(out, "# node%u meminfo  : total = %" PRIu64 " kB, free = %" PRIu64 " kB\n", node, total, freem);
		fprintf(out, "# node%u cpu list : %s\n", node, cpus);
	}
}

static void print_cache(FILE *out, struct pv_cur *c)
{
	cur_u32(c, "version");
	uint32_t n = cur_u32(c, "nr");
	fputs("# CPU cache info:\n", out);
	for (uint32_t i = 0; i < n && !c->bad; i++) {
		uint32_t level = cur_u32(c, "level");
		cur_bytes(c, 12, "line size, sets, ways");
		char type[64], sz[64];
		const char *t = pv_feat_get_string(c);
		snprintf(type, sizeof(type), "%s", t ? t : "");
		const char *z = pv_feat_get_string(c);
		snprintf(sz, sizeof(sz), "%s", z ? z : "");
		const char *map = pv_feat_get_string(c);
		if (!t || !z || !map)
			break;
		fprintf(out, "#  L%u %-15s %8s [%s]\n", level, type, sz, map);
	}
}

/* perf's print_mem_topology: each node's memory (blocks set x block size,
 * in perf's unit_number__scnprintf) and its blocks as ranges */
static void print_mem_topology(FILE *out, struct pv_cur *c)
{
	cur_u64(c, "version");
	uint64_t bsize = cur_u64(c, "block size"), n = cur_u64(c, "nr");
	fprintf(out, "# memory nodes (nr %d, block size 0x%" PRIx64 "):\n", (int)n, bsize);
	for (uint64_t i = 0; i < n && !c->bad; i++) {
		uint64_t node = cur_u64(c, "node");
		cur_u64(c, "size");
		uint64_t bits = cur_u64(c, "bitmap size"); /* do_write_bitmap: its size, then its words */
		if (bits > cur_left(c) * 8)
			break;
		const uint8_t *w = cur_bytes(c, (size_t)((bits + 63) / 64 * 8), "bitmap");
		if (!w)
			break;
		char map[100] = "";
		size_t len = 0;
		uint64_t set = 0;
		for (uint64_t b = 0; b < bits;) {
			uint64_t word;
			memcpy(&word, w + b / 64 * 8, 8);
			if (!((word >> (b % 64)) & 1)) {
				b++;
				continue;
			}
			uint64_t e = b;
			for (;;) {
				uint64_t nb = e + 1, nw;
				if (nb >= bits)
					break;
				memcpy(&nw, w + nb / 64 * 8, 8);
				if (!((nw >> (nb % 64)) & 1))
					break;
				e = nb;
			}
			set += e - b + 1;
			if (len < sizeof(map))
				len += (size_t)snprintf(map + len, sizeof(map) - len, e > b ? "%s%" PRIu64 "-%" PRIu64 : "%s%" PRIu64,
							len ? "," : "", b, e);
			b = e + 1;
		}
		uint64_t sz = bsize * set;
		const char units[] = "BKMGTPE";
		int u = 0;
		while (sz >= 1024 && u < 6)
			sz /= 1024, u++;
		fprintf(out, "#  %3" PRIu64 " [%" PRIu64 "%c]: %s\n", node, sz, units[u], map);
	}
}

static void print_hybrid(FILE *out, struct pv_cur *c)
{
	uint32_t n = cur_u32(c, "nr");
	fputs("# hybrid cpu system:\n", out);
	for (uint32_t i = 0; i < n && !c->bad; i++) {
		char pmu[128];
		const char *s = pv_feat_get_string(c);
		snprintf(pmu, sizeof(pmu), "%s", s ? s : "");
		const char *cpus = pv_feat_get_string(c);
		if (!s || !cpus)
			break;
		fprintf(out, "# %s cpu list : %s\n", pmu, cpus);
	}
}

static void print_feature(FILE *out, const struct perfev_perfdata *pd, const struct perfev_perfdata_info *info,
			  int f, bool full)
{
	size_t size = 0;
	const uint8_t *p = perfev_perfdata_feature(pd, f, &size);
	bool swap = perfev_perfdata_is_swapped(pd);
	char up[32];
	struct pv_cur c = {p, p ? p + size : NULL, swap, false, NULL};
	const char *s = perfev_perfdata_feature_str(pd, f);
	switch (f) {
	case PERFEV_FEAT_HOSTNAME: fprintf(out, "# hostname : %s\n", s ? s : "(null)"); break;
	case PERFEV_FEAT_OSRELEASE: fprintf(out, "# os release : %s\n", s ? s : "(null)"); break;
	case PERFEV_FEAT_VERSION: fprintf(out, "# perf version : %s\n", s ? s : "(null)"); break;
	case PERFEV_FEAT_ARCH: fprintf(out, "# arch : %s\n", s ? s : "(null)"); break;
	case PERFEV_FEAT_CPUDESC: fprintf(out, "# cpudesc : %s\n", s ? s : "(null)"); break;
	case PERFEV_FEAT_CPUID: fprintf(out, "# cpuid : %s\n", s ? s : "(null)"); break;
	case PERFEV_FEAT_NRCPUS:
		fprintf(out, "# nrcpus online : %u\n# nrcpus avail : %u\n", info->nr_cpus_online, info->nr_cpus_avail);
		break;
	case PERFEV_FEAT_TOTAL_MEM: fprintf(out, "# total memory : %" PRIu64 " kB\n", info->total_mem_kb); break;
	case PERFEV_FEAT_CMDLINE: print_cmdline(out, pd); break;
	case PERFEV_FEAT_EVENT_DESC: print_event_desc(out, p, size, swap); break;
	case PERFEV_FEAT_BRANCH_STACK: fputs("# contains samples with branch stack\n", out); break;
	case PERFEV_FEAT_PMU_MAPPINGS: print_pmu_mappings(out, p, size, swap); break;
	case PERFEV_FEAT_GROUP_DESC: print_group_desc(out, pd, p, size, swap); break;
	case PERFEV_FEAT_AUXTRACE: fputs("# contains AUX area data (e.g. instruction trace)\n", out); break;
	case PERFEV_FEAT_STAT: fputs("# contains stat data\n", out); break;
	case PERFEV_FEAT_SAMPLE_TIME: {
		uint64_t first = cur_u64(&c, "first"), last = cur_u64(&c, "last");
		fprintf(out, "# time of first sample : %" PRIu64 ".%06" PRIu64 "\n", first / 1000000000,
			first % 1000000000 / 1000);
		fprintf(out, "# time of last sample : %" PRIu64 ".%06" PRIu64 "\n", last / 1000000000,
			last % 1000000000 / 1000);
		fprintf(out, "# sample duration : %10.3f ms\n", (double)(last - first) / 1e6);
		break;
	}
	case PERFEV_FEAT_CLOCKID:
		fprintf(out, "# clockid frequency: %" PRIu64 " MHz\n", info->clockid_res_ns * 1000);
		break;
	case PERFEV_FEAT_DIR_FORMAT:
		fprintf(out, "# directory data version : %" PRIu64 "\n", cur_u64(&c, "version"));
		break;
	case PERFEV_FEAT_COMPRESSED:
		fprintf(out, "# compressed : %s, level = %d, ratio = %d\n", info->comp_type == 1 ? "Zstd" : "Unknown",
			(int)info->comp_level, (int)info->comp_ratio);
		break;
	case PERFEV_FEAT_CPU_PMU_CAPS: print_caps(out, &c, "cpu"); break;
	case PERFEV_FEAT_PMU_CAPS: {
		uint32_t n = cur_u32(&c, "nr pmus");
		for (uint32_t i = 0; i < n && !c.bad; i++) {
			/* each: nr caps, caps, then the PMU's name */
			struct pv_cur probe = c;
			uint32_t nc = cur_u32(&probe, "nr caps");
			for (uint32_t k = 0; k < 2 * nc && !probe.bad; k++)
				if (!pv_feat_get_string(&probe))
					probe.bad = true;
			const char *pmu = probe.bad ? NULL : pv_feat_get_string(&probe);
			if (!pmu)
				break;
			char name[128];
			snprintf(name, sizeof(name), "%s", pmu);
			print_caps(out, &c, name);
			pv_feat_get_string(&c); /* the name, printed first */
		}
		break;
	}
	case PERFEV_FEAT_CLOCK_DATA:
		/* perf prints the reference time in its local time zone; ours too */
		if (info->clock_tod_ns) {
			time_t sec = (time_t)(info->clock_tod_ns / 1000000000);
			int usec = (int)(info->clock_tod_ns % 1000000000 / 1000);
			struct tm tm;
			char date[64] = "<error>";
			if (localtime_r(&sec, &tm))
				strftime(date, sizeof(date), "%F %T", &tm);
			char cname[32];
			snprintf(cname, sizeof(cname), "%s", perfev_clockid_name((int)info->clockid));
			fprintf(out, "# clockid: %s (%u)\n", cname, info->clockid);
			fprintf(out, "# reference time: %s.%06d = %ld.%06d (TOD) = %ld.%09ld (%s)\n", date, usec,
				(long)sec, usec, (long)(info->clock_clockid_ns / 1000000000),
				(long)(info->clock_clockid_ns % 1000000000), cname);
		} else {
			fputs("# reference time disabled\n", out);
		}
		break;
	case PERFEV_FEAT_CPU_TOPOLOGY:
	case PERFEV_FEAT_NUMA_TOPOLOGY:
	case PERFEV_FEAT_CACHE:
	case PERFEV_FEAT_MEM_TOPOLOGY:
	case PERFEV_FEAT_HYBRID_TOPOLOGY:
		if (!full)
			fprintf(out, "# %s info available, use -I to display\n", feat_upper(f, up, sizeof(up)));
		else if (f == PERFEV_FEAT_CPU_TOPOLOGY)
			print_cpu_topology(out, p, size, swap, info->nr_cpus_avail);
		else if (f == PERFEV_FEAT_NUMA_TOPOLOGY)
			print_numa(out, &c);
		else if (f == PERFEV_FEAT_CACHE)
			print_cache(out, &c);
		else if (f == PERFEV_FEAT_MEM_TOPOLOGY)
			print_mem_topology(out, &c);
		else
			print_hybrid(out, &c);
		break;
	default: /* tracing data, build-ids, BPF programs: perf prints nothing for them */
		break;
	}
}

/* ---- perf evlist's pieces (view/evlist.c prints it) ------------------------------- */
/* perf evlist -g: the GROUP_DESC feature's groups of two or more (leader,
 * members, name): each member's leader in lead[] (itself when alone), the
 * group's name at its leader ("" for an anonymous group). */
void pv_perfdata_event_groups(const struct perfev_perfdata *pd, size_t nev, size_t *lead, size_t *members,
			      const char **names)
{
	for (size_t i = 0; i < nev; i++)
		lead[i] = i, members[i] = 1, names[i] = "";
	size_t size = 0;
	const uint8_t *p = perfev_perfdata_feature(pd, PERFEV_FEAT_GROUP_DESC, &size);
	if (!p)
		return;
	struct pv_cur c = {p, p + size, perfev_perfdata_is_swapped(pd), false, NULL};
	uint32_t n = cur_u32(&c, "nr");
	for (uint32_t g = 0; g < n && !c.bad; g++) {
		const char *name = pv_feat_get_string(&c);
		uint32_t leader = cur_u32(&c, "leader"), nr = cur_u32(&c, "members");
		if (!name || c.bad || nr < 2 || leader >= nev || nr > nev - leader)
			continue;
		members[leader] = nr;
		names[leader] = strcmp(name, "{anon_group}") ? name : "";
		for (uint32_t m = 1; m < nr; m++)
			lead[leader + m] = leader;
	}
}

void pv_attr_fprintf(FILE *out, const struct perfev_attr *a, const char *first, const char *sep, const char *eq,
		     bool *started)
{
	struct attr_style style = {first, sep, eq, *started};
	print_attr(out, a, &style);
	*started = style.started;
}

PERFEV_API int perfev_perfdata_print_header(const struct perfev_perfdata *pd, FILE *out, bool full)
{
	if (!pd || !out)
		return pv_error(EINVAL, "print_header: NULL argument");
	if (perfev_perfdata_is_pipe(pd))
		return pv_error(ENOTSUP, "a pipe-mode stream has no file header to show (its features come as "
				"records: perfev script --json shows them)");
	struct perfev_perfdata_info in;
	perfev_perfdata_info(pd, &in);
	struct stat st;
	char when[64] = "?\n";
	if (fstat(pv_perfdata_fd(pd), &st) == 0)
		ctime_r(&st.st_mtime, when);
	fputs("# ========\n", out);
	fprintf(out, "# captured on    : %s", when);
	fprintf(out, "# header version : 1\n");
	fprintf(out, "# data offset    : %" PRIu64 "\n", in.data_offset);
	fprintf(out, "# data size      : %" PRIu64 "\n", in.data_size);
	fprintf(out, "# feat offset    : %" PRIu64 "\n", in.data_offset + in.data_size);
	for (int f = 1; f <= LAST_FEAT; f++)
		if (perfev_perfdata_has_feature(pd, f))
			print_feature(out, pd, &in, f, full);
	fputs("# missing features: ", out);
	char up[32];
	for (int f = 1; f <= LAST_FEAT; f++)
		if (!perfev_perfdata_has_feature(pd, f))
			fprintf(out, "%s ", feat_upper(f, up, sizeof(up)));
	fputs("\n# ========\n#\n", out);
	return 0;
}
