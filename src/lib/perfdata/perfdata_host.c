/* perfdata_host.c — the host's header features for a new perf.data file:
 * hostname, osrelease, version, arch, nrcpus, cpudesc, cpuid, total memory,
 * cmdline, CPU topology, clock resolution. Collected once at open. */
#define _GNU_SOURCE
#include "perfdata/perfdata_int.h"
#include "core/internal.h"
#include "perfev.h"

#include <stdlib.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

/* A "key : value" line of /proc/cpuinfo, first occurrence. */
static bool cpuinfo(const char *key, char *out, size_t len)
{
	char *text;
	size_t n;
	if (pv_read_file("/proc/cpuinfo", &text, &n, 1 << 22) < 0)
		return false;
	bool found = false;
	size_t klen = strlen(key);
	for (char *line = text; line && *line;) {
		char *nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		if (!strncmp(line, key, klen) && (line[klen] == ' ' || line[klen] == '\t' || line[klen] == ':')) {
			char *colon = strchr(line, ':');
			if (colon) {
				colon++;
				while (*colon == ' ')
					colon++;
				snprintf(out, len, "%s", colon);
				found = true;
				break;
			}
		}
		line = nl ? nl + 1 : NULL;
	}
	free(text);
	return found;
}

static void put_u32(struct pv_buf *b, uint32_t v) { pv_buf_add(b, &v, 4); }
static void put_u64(struct pv_buf *b, uint64_t v) { pv_buf_add(b, &v, 8); }

static int nr_cpus_possible(void)
{
	char line[256];
	int max = -1;
	if (pv_read_line("/sys/devices/system/cpu/present", line, sizeof(line)) >= 0) {
		char *dash = strrchr(line, '-'), *comma = strrchr(line, ',');
		const char *last = dash ? dash + 1 : comma ? comma + 1 : line;
		max = atoi(last);
	}
	long conf = sysconf(_SC_NPROCESSORS_CONF);
	return max >= 0 ? max + 1 : (int)(conf > 0 ? conf : 1);
}

/* Distinct strings, in order of first appearance. */
struct strset {
	char **s;
	size_t n, cap;
};
static void strset_add(struct strset *set, const char *s)
{
	for (size_t i = 0; i < set->n; i++)
		if (!strcmp(set->s[i], s))
			return;
	if (pv_grow(&set->s, &set->cap, set->n + 1, sizeof(char *)) < 0)
		return;
	char *d = strdup(s);
	if (d)
		set->s[set->n++] = d;
}
static void strset_put(struct pv_buf *b, struct strset *set)
{
	put_u32(b, (uint32_t)set->n);
	for (size_t i = 0; i < set->n; i++) {
		pv_feat_put_string(b, set->s[i]);
		free(set->s[i]);
	}
	free(set->s);
}

static void cpu_topology(struct pv_buf *b, int nr)
{
	struct strset cores = {0}, threads = {0}, dies = {0};
	uint32_t *ids = calloc((size_t)nr * 3, sizeof(uint32_t));
	char path[128], line[512];
	for (int cpu = 0; cpu < nr; cpu++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/core_siblings_list", cpu);
		if (pv_read_line(path, line, sizeof(line)) >= 0)
			strset_add(&cores, line);
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
		if (pv_read_line(path, line, sizeof(line)) >= 0)
			strset_add(&threads, line);
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/die_cpus_list", cpu);
		if (pv_read_line(path, line, sizeof(line)) >= 0)
			strset_add(&dies, line);
		struct pv_cpu_topo t;
		pv_cpu_topo(cpu, &t);
		if (ids) { /* (0 where sysfs does not say) */
			ids[cpu * 3] = t.core < 0 ? 0 : (uint32_t)t.core;
			ids[cpu * 3 + 1] = t.socket < 0 ? 0 : (uint32_t)t.socket;
			ids[cpu * 3 + 2] = t.die < 0 ? 0 : (uint32_t)t.die;
		}
	}
	strset_put(b, &cores);
	strset_put(b, &threads);
	for (int cpu = 0; cpu < nr; cpu++) {
		put_u32(b, ids ? ids[cpu * 3] : 0);
		put_u32(b, ids ? ids[cpu * 3 + 1] : 0);
	}
	if (dies.n) {
		strset_put(b, &dies);
		for (int cpu = 0; cpu < nr; cpu++)
			put_u32(b, ids ? ids[cpu * 3 + 2] : 0);
	} else {
		free(dies.s);
	}
	free(ids);
}

static void cpuid_str(char *out, size_t len)
{
	char vendor[64] = "", family[16] = "0", model[16] = "0", stepping[16] = "0";
#if defined(__x86_64__) || defined(__i386__)
	cpuinfo("vendor_id", vendor, sizeof(vendor));
	cpuinfo("cpu family", family, sizeof(family));
	cpuinfo("model", model, sizeof(model));
	cpuinfo("stepping", stepping, sizeof(stepping));
	snprintf(out, len, "%s,%s,%s,%s", vendor, family, model, stepping);
#else
	/* arm64 perf writes MIDR_EL1 as hex */
	char midr[32] = "";
	if (pv_read_line("/sys/devices/system/cpu/cpu0/regs/identification/midr_el1", midr, sizeof(midr)) >= 0)
		snprintf(out, len, "%s", midr);
	else
		snprintf(out, len, "unknown");
	(void)vendor; (void)family; (void)model; (void)stepping;
#endif
}

void pv_host_features(struct pv_buf f[PV_FEAT_WRITTEN], int argc, char *const *argv)
{
	struct utsname u;
	if (uname(&u) == 0) {
		pv_feat_put_string(&f[PERFEV_FEAT_HOSTNAME], u.nodename);
		pv_feat_put_string(&f[PERFEV_FEAT_OSRELEASE], u.release);
		pv_feat_put_string(&f[PERFEV_FEAT_ARCH], u.machine);
	}
	char ver[64];
	snprintf(ver, sizeof(ver), "perfev %s", perfev_version());
	pv_feat_put_string(&f[PERFEV_FEAT_VERSION], ver);

	int possible = nr_cpus_possible();
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	put_u32(&f[PERFEV_FEAT_NRCPUS], (uint32_t)possible);
	put_u32(&f[PERFEV_FEAT_NRCPUS], (uint32_t)(online > 0 ? online : possible));

	char desc[256];
	if (cpuinfo("model name", desc, sizeof(desc)) || cpuinfo("Processor", desc, sizeof(desc)) ||
	    cpuinfo("cpu model", desc, sizeof(desc)))
		pv_feat_put_string(&f[PERFEV_FEAT_CPUDESC], desc);
	char id[160];
	cpuid_str(id, sizeof(id));
	pv_feat_put_string(&f[PERFEV_FEAT_CPUID], id);

	char memline[128];
	uint64_t kb = 0;
	char *mi;
	if (pv_read_file("/proc/meminfo", &mi, NULL, 1 << 20) >= 0) {
		char *p = strstr(mi, "MemTotal:");
		if (p)
			kb = strtoull(p + 9, NULL, 10);
		free(mi);
	}
	(void)memline;
	put_u64(&f[PERFEV_FEAT_TOTAL_MEM], kb);

	/* CMDLINE: the recorder's path, then its arguments */
	uint32_t n = (uint32_t)(argc > 0 ? argc : 0);
	put_u32(&f[PERFEV_FEAT_CMDLINE], n + 1);
	char exe[512];
	ssize_t k = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[k > 0 ? k : 0] = 0;
	pv_feat_put_string(&f[PERFEV_FEAT_CMDLINE], exe);
	for (uint32_t i = 0; i < n; i++)
		pv_feat_put_string(&f[PERFEV_FEAT_CMDLINE], argv[i] ? argv[i] : "");

	cpu_topology(&f[PERFEV_FEAT_CPU_TOPOLOGY], possible);

	struct timespec res;
	uint64_t res_ns = clock_getres(CLOCK_MONOTONIC, &res) == 0 ? (uint64_t)res.tv_nsec : 1;
	put_u64(&f[PERFEV_FEAT_CLOCKID], res_ns);
}

PERFEV_API int perfev_perfdata_build_ids(const struct perfev_perfdata *pd, perfev_build_id_fn fn, void *ctx)
{
	size_t size;
	const uint8_t *p = perfev_perfdata_has_feature(pd, PERFEV_FEAT_BUILD_ID) ?
				   perfev_perfdata_feature(pd, PERFEV_FEAT_BUILD_ID, &size) : NULL;
	if (!p)
		return 0;
	struct perfev_decoder *dec = perfev_decoder_new();
	if (!dec)
		return -ENOMEM;
	bool swap = perfev_perfdata_is_swapped(pd);
	perfev_decoder_set_swap(dec, swap);
	uint8_t rec[65536];
	int ret = 0;
	for (size_t off = 0; off + 8 <= size && !ret;) {
		/* entries need not carry a type (old perf left it 0): the decoder
		 * is told they are build-id records */
		struct perf_event_header h;
		memcpy(&h, p + off, sizeof(h));
		uint16_t sz = swap ? __builtin_bswap16(h.size) : h.size;
		if (sz < 8 || sz > size - off) {
			ret = pv_error(EBADMSG, "BUILD_ID feature: an entry of %u bytes at offset %zu "
				       "overruns the section", sz, off);
			break;
		}
		memcpy(rec, p + off, sz);
		uint32_t type = PERFEV_RECORD_HEADER_BUILD_ID;
		if (swap)
			type = __builtin_bswap32(type);
		memcpy(rec, &type, 4);
		struct perfev_record r;
		if (perfev_decoder_decode(dec, rec, sz, &r) > 0 && r.u.build_id.filename)
			ret = fn(ctx, r.u.build_id.pid, r.misc & PERF_RECORD_MISC_CPUMODE_MASK,
				 r.u.build_id.filename, r.u.build_id.build_id, r.u.build_id.size);
		off += sz;
	}
	perfev_decoder_free(dec);
	return ret;
}

struct kernel_id {
	uint8_t *id;
	size_t max, len;
};

static int kernel_entry(void *ctx, int32_t pid, uint16_t cpumode, const char *name,
			const uint8_t *id, size_t len)
{
	struct kernel_id *k = ctx;
	if (cpumode != PERF_RECORD_MISC_KERNEL || strncmp(name, "[kernel.kallsyms]", 17) || len > k->max)
		return 0;
	memcpy(k->id, id, len);
	k->len = len;
	return 1;
}

PERFEV_API bool perfev_perfdata_kernel_is_running(const struct perfev_perfdata *pd)
{
	/* A stream's build-ids come after its samples, and perf settles the
	 * kernel's symbols at the first sample: it reads a stream with this
	 * machine's kallsyms, whatever features the stream announced first. */
	if (perfev_perfdata_is_pipe(pd))
		return true;
	uint8_t rec[20], run[64];
	struct kernel_id k = {rec, sizeof(rec), 0};
	size_t n = perfev_perfdata_build_ids(pd, kernel_entry, &k) > 0 ? k.len : 0;
	if (n) {
		int m = pv_kernel_build_id(run, sizeof(run));
		return m == (int)n && !memcmp(rec, run, n);
	}
	const char *rel = perfev_perfdata_feature_str(pd, PERFEV_FEAT_OSRELEASE);
	struct utsname u;
	if (rel && uname(&u) == 0)
		return !strcmp(rel, u.release);
	return true; /* nothing says otherwise: perf too reads this machine's kallsyms */
}
