/*
 * pfm.c — vendor events: which CPU model this is (cpuid / MIDR, or the
 * PERF_CPUID environment variable, as perf reads it) and that model's core
 * events from libpfm4's tables (the ones PAPI uses), under perf's JSON names
 * (inst_retired.any_p, ls_dispatch.ld_dispatch) and libpfm4's own
 * (INST_RETIRED:ANY_P:c=1, skx::INST_RETIRED:ANY_P).
 *
 * libpfm4 encodes only the PMUs it detects on the running CPU unless told
 * LIBPFM_ENCODE_INACTIVE when it initializes; every model's table is needed
 * here (PERF_CPUID inspects any model on any machine), so init sets that
 * variable around pfm_initialize() and restores the environment after.
 */
#define _GNU_SOURCE
#include "core/internal.h"
#include "event/pfm_int.h"
#include "event/pmu_int.h"
#include "perfev/event.h"

#include <ctype.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include <perfmon/pfmlib_perf_event.h>

/* ---- models ------------------------------------------------------------------ */

enum arch { ARCH_INTEL, ARCH_AMD, ARCH_ARM };

struct model_def {
	enum arch arch;
	unsigned family;           /* x86 family; Arm: the MIDR implementer */
	unsigned lo, hi;           /* x86 model range; Arm: the MIDR part number */
	unsigned step_lo, step_hi; /* x86 stepping range */
	const char *name;
	const char *table[2];      /* libpfm4 PMU per core PMU */
	const char *pmu[2];        /* the sysfs core PMUs: "cpu", or cpu_core and cpu_atom */
};

/*
 * Model numbers are the ones perf's pmu-events/arch/x86/mapfile.csv and
 * arm64/mapfile.csv give (and libpfm4's pfm_intel_*_detect / pfm_amd64_*
 * detect functions, which agree). libpfm4 4.13 has no Alder Lake table:
 * its P-cores are Golden Cove, whose events libpfm4 has as Sapphire Rapids'
 * (spr), and its E-cores Gracemont, nearest Tremont (tmt); the perf oracle
 * (tests/interop/event/vendor.c) holds which of those encodings agree with perf's.
 * A hybrid model lists cpu_atom first: perf makes an event's cpu_atom attr
 * before its cpu_core one (it walks the PMUs in name order).
 */
static const struct model_def models[] = {
	{ARCH_INTEL, 6, 0x55, 0x55, 0, 4, "Skylake-SP", {"skx"}, {"cpu"}},
	{ARCH_INTEL, 6, 0x55, 0x55, 5, 15, "Cascade Lake-SP", {"clx"}, {"cpu"}},
	{ARCH_INTEL, 6, 0x6a, 0x6a, 0, 15, "Ice Lake-SP", {"icx"}, {"cpu"}},
	{ARCH_INTEL, 6, 0x6c, 0x6c, 0, 15, "Ice Lake-D", {"icx"}, {"cpu"}},
	{ARCH_INTEL, 6, 0x8f, 0x8f, 0, 15, "Sapphire Rapids", {"spr"}, {"cpu"}},
	{ARCH_INTEL, 6, 0x4e, 0x4e, 0, 15, "Skylake", {"skl"}, {"cpu"}},
	{ARCH_INTEL, 6, 0x5e, 0x5e, 0, 15, "Skylake", {"skl"}, {"cpu"}},
	{ARCH_INTEL, 6, 0x8e, 0x8e, 0, 15, "Kaby Lake", {"skl"}, {"cpu"}},
	{ARCH_INTEL, 6, 0x9e, 0x9e, 0, 15, "Kaby Lake / Coffee Lake", {"skl"}, {"cpu"}},
	{ARCH_INTEL, 6, 0xa5, 0xa6, 0, 15, "Comet Lake", {"skl"}, {"cpu"}},
	{ARCH_INTEL, 6, 0x7d, 0x7e, 0, 15, "Ice Lake", {"icl"}, {"cpu"}},
	{ARCH_INTEL, 6, 0x3d, 0x3d, 0, 15, "Broadwell", {"bdw"}, {"cpu"}},
	{ARCH_INTEL, 6, 0x47, 0x47, 0, 15, "Broadwell", {"bdw"}, {"cpu"}},
	{ARCH_INTEL, 6, 0x4f, 0x4f, 0, 15, "Broadwell-EP", {"bdw_ep"}, {"cpu"}},
	{ARCH_INTEL, 6, 0x56, 0x56, 0, 15, "Broadwell-DE", {"bdw_ep"}, {"cpu"}},
	{ARCH_INTEL, 6, 0x3c, 0x3c, 0, 15, "Haswell", {"hsw"}, {"cpu"}},
	{ARCH_INTEL, 6, 0x45, 0x46, 0, 15, "Haswell", {"hsw"}, {"cpu"}},
	{ARCH_INTEL, 6, 0x3f, 0x3f, 0, 15, "Haswell-EP", {"hsw_ep"}, {"cpu"}},
	{ARCH_INTEL, 6, 0x3a, 0x3a, 0, 15, "Ivy Bridge", {"ivb"}, {"cpu"}},
	{ARCH_INTEL, 6, 0x3e, 0x3e, 0, 15, "Ivy Bridge-EP", {"ivb_ep"}, {"cpu"}},
	{ARCH_INTEL, 6, 0x2a, 0x2a, 0, 15, "Sandy Bridge", {"snb"}, {"cpu"}},
	{ARCH_INTEL, 6, 0x2d, 0x2d, 0, 15, "Sandy Bridge-EP", {"snb_ep"}, {"cpu"}},
	{ARCH_INTEL, 6, 0x57, 0x57, 0, 15, "Knights Landing", {"knl"}, {"cpu"}},
	{ARCH_INTEL, 6, 0x85, 0x85, 0, 15, "Knights Mill", {"knm"}, {"cpu"}},
	{ARCH_INTEL, 6, 0x5c, 0x5c, 0, 15, "Goldmont", {"glm"}, {"cpu"}},
	{ARCH_INTEL, 6, 0x5f, 0x5f, 0, 15, "Goldmont", {"glm"}, {"cpu"}},
	{ARCH_INTEL, 6, 0x86, 0x86, 0, 15, "Tremont (Snow Ridge)", {"tmt"}, {"cpu"}},
	{ARCH_INTEL, 6, 0x97, 0x97, 0, 15, "Alder Lake", {"tmt", "spr"}, {"cpu_atom", "cpu_core"}},
	{ARCH_INTEL, 6, 0x9a, 0x9a, 0, 15, "Alder Lake", {"tmt", "spr"}, {"cpu_atom", "cpu_core"}},
	{ARCH_INTEL, 6, 0xb7, 0xb7, 0, 15, "Raptor Lake", {"tmt", "spr"}, {"cpu_atom", "cpu_core"}},
	{ARCH_INTEL, 6, 0xba, 0xba, 0, 15, "Raptor Lake", {"tmt", "spr"}, {"cpu_atom", "cpu_core"}},
	{ARCH_INTEL, 6, 0xbf, 0xbf, 0, 15, "Raptor Lake", {"tmt", "spr"}, {"cpu_atom", "cpu_core"}},
	{ARCH_AMD, 0x17, 0x00, 0x2f, 0, 15, "AMD Zen", {"amd64_fam17h_zen1"}, {"cpu"}},
	{ARCH_AMD, 0x17, 0x30, 0xff, 0, 15, "AMD Zen 2", {"amd64_fam17h_zen2"}, {"cpu"}},
	{ARCH_AMD, 0x19, 0x00, 0x0f, 0, 15, "AMD Zen 3", {"amd64_fam19h_zen3"}, {"cpu"}},
	{ARCH_AMD, 0x19, 0x20, 0x5f, 0, 15, "AMD Zen 3", {"amd64_fam19h_zen3"}, {"cpu"}},
	{ARCH_AMD, 0x19, 0x10, 0x1f, 0, 15, "AMD Zen 4", {"amd64_fam19h_zen4"}, {"cpu"}},
	{ARCH_AMD, 0x19, 0x60, 0xaf, 0, 15, "AMD Zen 4", {"amd64_fam19h_zen4"}, {"cpu"}},
	{ARCH_ARM, 0x41, 0xd03, 0xd03, 0, 15, "Arm Cortex-A53", {"arm_ac53"}, {"armv8_pmuv3_0"}},
	{ARCH_ARM, 0x41, 0xd07, 0xd07, 0, 15, "Arm Cortex-A57", {"arm_ac57"}, {"armv8_pmuv3_0"}},
	{ARCH_ARM, 0x41, 0xd0c, 0xd0c, 0, 15, "Arm Neoverse N1", {"arm_n1"}, {"armv8_pmuv3_0"}},
	{ARCH_ARM, 0x41, 0xd40, 0xd40, 0, 15, "Arm Neoverse V1", {"arm_v1"}, {"armv8_pmuv3_0"}},
	{ARCH_ARM, 0x41, 0xd49, 0xd49, 0, 15, "Arm Neoverse N2", {"arm_n2"}, {"armv8_pmuv3_0"}},
	{ARCH_ARM, 0x41, 0xd4f, 0xd4f, 0, 15, "Arm Neoverse V2", {"arm_v2"}, {"armv8_pmuv3_0"}},
	{ARCH_ARM, 0x46, 0x001, 0x001, 0, 15, "Fujitsu A64FX", {"arm_a64fx"}, {"armv8_pmuv3_0"}},
};

/* Format bits of the core PMUs, as the kernel's sysfs gives them, for a
 * model whose PMU this machine lacks (arch/x86/events/intel/core.c, amd/core.c,
 * arm64 perf_event.c). */
static const char *const intel_formats[] = {
	"event=config:0-7", "umask=config:8-15", "edge=config:18", "pc=config:19",
	"any=config:21", "inv=config:23", "cmask=config:24-31", "in_tx=config:32",
	"in_tx_cp=config:33",
};
static const char *const amd_formats[] = {
	"event=config:0-7,32-35", "umask=config:8-15", "edge=config:18", "inv=config:23",
	"cmask=config:24-31",
};
static const char *const arm_formats[] = {"event=config:0-15", "long=config1:0"};

struct cpu_id {
	enum arch arch;
	unsigned family, model, stepping;
	bool valid;
};

static int parse_cpuid(const char *s, struct cpu_id *id)
{
	memset(id, 0, sizeof(*id));
	unsigned f, m, st = 0;
	char vendor[32];
	if (!strncmp(s, "0x", 2)) { /* arm64: MIDR_EL1 */
		char *end;
		unsigned long long midr = strtoull(s, &end, 16);
		if (*end)
			return -EINVAL;
		id->arch = ARCH_ARM;
		id->family = (unsigned)(midr >> 24) & 0xff;
		id->model = (unsigned)(midr >> 4) & 0xfff;
		id->stepping = (unsigned)midr & 0xf;
		id->valid = true;
		return 0;
	}
	/* x86: Vendor-Family-Model[-Stepping], family decimal, model and stepping hex */
	int n = sscanf(s, "%31[^-]-%u-%x-%x", vendor, &f, &m, &st);
	if (n < 3)
		return -EINVAL;
	if (!strcmp(vendor, "GenuineIntel"))
		id->arch = ARCH_INTEL;
	else if (!strcmp(vendor, "AuthenticAMD") || !strcmp(vendor, "HygonGenuine"))
		id->arch = ARCH_AMD;
	else
		return -EINVAL;
	id->family = f;
	id->model = m;
	id->stepping = st;
	id->valid = true;
	return 0;
}

/* This machine's identity in perf's spelling (get_cpuid_str). */
static void host_cpuid(char *buf, size_t len)
{
	buf[0] = 0;
#if defined(__x86_64__) || defined(__i386__)
	unsigned a, b, c, d;
	if (!__get_cpuid(0, &a, &b, &c, &d))
		return;
	char vendor[13];
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = 0;
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return;
	unsigned family = (a >> 8) & 0xf, model = (a >> 4) & 0xf, step = a & 0xf;
	if (family == 0xf)
		family += (a >> 20) & 0xff;
	if (family == 6 || family >= 0xf)
		model |= ((a >> 16) & 0xf) << 4;
	snprintf(buf, len, "%s-%u-%X-%X", vendor, family, model, step);
#else
	char line[64];
	if (pv_read_line("/sys/devices/system/cpu/cpu0/regs/identification/midr_el1", line,
			 sizeof(line)) == 0)
		snprintf(buf, len, "%s", line);
#endif
}

static const struct model_def *find_model(const struct cpu_id *id)
{
	if (!id->valid)
		return NULL;
	for (size_t i = 0; i < PV_ARRAY_SIZE(models); i++) {
		const struct model_def *m = &models[i];
		if (m->arch == id->arch && m->family == id->family && id->model >= m->lo &&
		    id->model <= m->hi && id->stepping >= m->step_lo && id->stepping <= m->step_hi)
			return m;
	}
	return NULL;
}

static pthread_once_t pfm_once = PTHREAD_ONCE_INIT;
static int pfm_status = -1;

static void pfm_init_once(void)
{
	/* see the head comment: every table, not only the running CPU's */
	const char *had = getenv("LIBPFM_ENCODE_INACTIVE");
	if (!had)
		setenv("LIBPFM_ENCODE_INACTIVE", "1", 0);
	pfm_status = pfm_initialize();
	if (!had)
		unsetenv("LIBPFM_ENCODE_INACTIVE");
}

static bool pfm_ready(void)
{
	pthread_once(&pfm_once, pfm_init_once);
	return pfm_status == PFM_SUCCESS;
}

/* Is libpfm4's table `name` built into this libpfm4? */
int pv_pfm_table_pmu(const char *name)
{
	if (!name || !pfm_ready())
		return -1;
	pfm_pmu_t p;
	pfm_for_all_pmus(p) {
		pfm_pmu_info_t in = {.size = sizeof(in)};
		if (pfm_get_pmu_info(p, &in) == PFM_SUCCESS && !strcmp(in.name, name))
			return (int)p;
	}
	return -1;
}

struct model_now {
	char cpuid[128], host[128];
	bool overridden;
	const struct model_def *def;
};

static void model_now(struct model_now *m)
{
	memset(m, 0, sizeof(*m));
	host_cpuid(m->host, sizeof(m->host));
	const char *env = getenv("PERF_CPUID");
	m->overridden = env && *env;
	snprintf(m->cpuid, sizeof(m->cpuid), "%s", m->overridden ? env : m->host);
	struct cpu_id id;
	if (parse_cpuid(m->cpuid, &id) == 0)
		m->def = find_model(&id);
}

PERFEV_API int perfev_cpu_model_get(struct perfev_cpu_model *out)
{
	if (!out || out->sz < sizeof(out->sz))
		return pv_error(EINVAL, "perfev_cpu_model_get: out->sz must be sizeof(struct perfev_cpu_model)");
	struct model_now m;
	model_now(&m);
	struct perfev_cpu_model r = {.sz = out->sz};
	snprintf(r.cpuid, sizeof(r.cpuid), "%s", m.cpuid);
	snprintf(r.host_cpuid, sizeof(r.host_cpuid), "%s", m.host);
	r.overridden = m.overridden;
	if (m.def) {
		r.name = m.def->name;
		r.tables_present = true;
		for (int i = 0; i < 2; i++) {
			r.tables[i] = m.def->table[i];
			r.core_pmus[i] = m.def->pmu[i];
			if (m.def->table[i] && pv_pfm_table_pmu(m.def->table[i]) < 0)
				r.tables_present = false;
		}
	}
	struct cpu_id host;
	r.is_host = m.def && parse_cpuid(m.host, &host) == 0 && find_model(&host) == m.def;
	size_t n = PV_MIN(out->sz, sizeof(r));
	memcpy(out, &r, n);
	if (!m.def)
		return pv_error(ENOENT, "no vendor event table for CPU %s%s: libpfm4 %s does not know it; "
				"PERF_CPUID=MODEL (e.g. GenuineIntel-6-55-4) selects another model's",
				m.cpuid, m.overridden ? " (PERF_CPUID)" : "", "4.13");
	return 0;
}

PERFEV_API const char *perfev_cpu_model_mismatch(char *buf, size_t len)
{
	struct perfev_cpu_model m = {.sz = sizeof(m)};
	if (!len)
		return buf;
	buf[0] = 0;
	if (perfev_cpu_model_get(&m) < 0 || m.is_host)
		return buf;
	struct cpu_id host;
	const struct model_def *hd = parse_cpuid(m.host_cpuid, &host) == 0 ? find_model(&host) : NULL;
	snprintf(buf, len, "this CPU is not %s (it is %s%s%s%s)%s", m.name, hd ? hd->name : "",
		 hd ? ", " : "", m.host_cpuid, m.overridden ? "; PERF_CPUID chose the table" : "",
		 m.overridden ? ": 'perfev attr EVENT' shows the attr it would open" : "");
	return buf;
}

const char *pv_vendor_model_table(void)
{
	struct model_now m;
	model_now(&m);
	return m.def && pfm_ready() ? m.def->table[0] : NULL;
}

bool pv_vendor_core_pmu(const char *pmu)
{
	struct model_now m;
	model_now(&m);
	for (int i = 0; m.def && pmu && i < 2; i++)
		if (m.def->pmu[i] && !strcmp(m.def->pmu[i], pmu))
			return true;
	return false;
}

/* ---- encoding ------------------------------------------------------------------ */

/* libpfm4's encoding of "table::str" for perf_events; PFM_* status. */
static int pfm_encode(const char *table, const char *str, struct perf_event_attr *a, char **fstr)
{
	char full[512];
	if (snprintf(full, sizeof(full), "%s::%s", table, str) >= (int)sizeof(full))
		return PFM_ERR_TOOSMALL;
	memset(a, 0, sizeof(*a));
	pfm_perf_encode_arg_t arg = {0};
	arg.attr = a;
	arg.size = sizeof(arg);
	arg.fstr = fstr;
	return pfm_get_os_event_encoding(full, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
}

/* The event part of libpfm4's fully qualified string: "skx::A:B:e=0:..." -> "A:B". */
static void pfm_short_name(const char *fstr, char *out, size_t len)
{
	const char *p = strstr(fstr, "::");
	p = p ? p + 2 : fstr;
	size_t o = 0;
	for (; *p && o + 1 < len; p++) {
		if (*p == ':' && strchr(p + 1, '=') && (!strchr(p + 1, ':') || strchr(p + 1, '=') < strchr(p + 1, ':')))
			break; /* the first key=value modifier ends the name */
		out[o++] = *p;
	}
	out[o] = 0;
}

static bool has_plm_modifier(const char *s)
{
	/* libpfm4's privilege modifiers in native syntax: ...:u, :k, :u=1 */
	for (const char *p = strchr(s, ':'); p; p = strchr(p + 1, ':'))
		if ((p[1] == 'u' || p[1] == 'k') && (!p[2] || p[2] == ':' || p[2] == '='))
			return true;
	return false;
}

static int resolve_in(const char *table, const char *sysfs_pmu, const char *name,
		      struct pv_vendor_event *out)
{
	char str[300];
	const char *sep = strstr(name, "::");
	bool native = false;
	if (sep) { /* TABLE::NAME names its table */
		if ((size_t)(sep - name) != strlen(table) || strncasecmp(name, table, strlen(table)))
			return 0;
		name = sep + 2;
	}
	const char *pfm = pv_pfm_name_of_perf(table, name);
	if (pfm) {
		snprintf(str, sizeof(str), "%s", pfm);
	} else if (!strchr(name, ':') && strchr(name, '.')) {
		/* perf's event.umask -> libpfm4's EVENT:UMASK */
		snprintf(str, sizeof(str), "%s", name);
		*strchr(str, '.') = ':';
	} else {
		snprintf(str, sizeof(str), "%s", name);
		native = strchr(name, ':') != NULL;
	}
	struct perf_event_attr a;
	char *fstr = NULL;
	int r = pfm_encode(table, str, &a, &fstr);
	if (r != PFM_SUCCESS) {
		free(fstr);
		if (native && r != PFM_ERR_NOTFOUND)
			return pv_error(EINVAL, "libpfm4 (%s) refuses '%s': %s", table, name, pfm_strerror(r));
		return 0;
	}
	memset(out, 0, sizeof(*out));
	out->pmu = sysfs_pmu;
	out->table = table;
	out->config = a.config;
	out->config1 = a.config1;
	out->config2 = a.config2;
	pfm_short_name(fstr ? fstr : str, out->pfm_name, sizeof(out->pfm_name));
	free(fstr);
	if (native && has_plm_modifier(str)) {
		out->native = true;
		out->exclude_user = a.exclude_user;
		out->exclude_kernel = a.exclude_kernel;
	}
	if (native)
		out->precise_ip = a.precise_ip;
	return 1;
}

int pv_vendor_resolve(const char *name, size_t n, struct pv_vendor_event out[2])
{
	if (!n || n >= 256)
		return 0;
	struct model_now m;
	model_now(&m);
	if (!m.def || !pfm_ready())
		return 0;
	char w[256];
	snprintf(w, sizeof(w), "%.*s", (int)n, name);
	int found = 0;
	for (int i = 0; i < 2 && m.def->table[i]; i++) {
		int r = resolve_in(m.def->table[i], m.def->pmu[i], w, &out[found]);
		if (r < 0)
			return r;
		found += r;
	}
	return found;
}

struct perfev_pmu *pv_vendor_pmu_load(const char *root, const char *name)
{
	struct perfev_pmu *p = pv_pmu_exists(root, name) ? pv_pmu_load(root, name) : NULL;
	if (p)
		return p;
	struct model_now m;
	model_now(&m);
	if (!m.def)
		return pv_error_null(ENOENT, "no PMU named '%s'", name);
	if (m.def->arch == ARCH_AMD)
		return pv_pmu_synth(name, PERF_TYPE_RAW, amd_formats, PV_ARRAY_SIZE(amd_formats));
	if (m.def->arch == ARCH_ARM)
		return pv_pmu_synth(name, PERF_TYPE_RAW, arm_formats, PV_ARRAY_SIZE(arm_formats));
	return pv_pmu_synth(name, PERF_TYPE_RAW, intel_formats, PV_ARRAY_SIZE(intel_formats));
}

/* ---- listing ---------------------------------------------------------------------- */

/*
 * perf lists vendor events under the "Topic" of its JSON files (cache,
 * floating point, frontend, memory, pipeline, virtual memory, other; AMD:
 * branch, cache, core, floating point, memory, other). libpfm4 has no
 * topics, so the event's name decides, by the prefixes those files share.
 */
static const char *topic_of(enum arch arch, const char *ev)
{
	static const struct { enum arch arch; const char *prefix, *topic; } t[] = {
		{ARCH_INTEL, "L1D", "cache"}, {ARCH_INTEL, "L2_", "cache"},
		{ARCH_INTEL, "LONGEST_LAT_CACHE", "cache"}, {ARCH_INTEL, "MEM_LOAD", "cache"},
		{ARCH_INTEL, "MEM_INST_RETIRED", "cache"}, {ARCH_INTEL, "MEM_UOPS_RETIRED", "cache"},
		{ARCH_INTEL, "OFFCORE_REQUESTS", "cache"}, {ARCH_INTEL, "SQ_MISC", "cache"},
		{ARCH_INTEL, "CORE_SNOOP", "cache"}, {ARCH_INTEL, "OFFCORE_RESPONSE", "cache"},
		{ARCH_INTEL, "OCR", "cache"}, {ARCH_INTEL, "L3_", "cache"},
		{ARCH_INTEL, "FP_", "floating point"}, {ARCH_INTEL, "ASSISTS", "floating point"},
		{ARCH_INTEL, "IDQ", "frontend"}, {ARCH_INTEL, "ICACHE", "frontend"},
		{ARCH_INTEL, "DSB", "frontend"}, {ARCH_INTEL, "FRONTEND", "frontend"},
		{ARCH_INTEL, "DECODE", "frontend"}, {ARCH_INTEL, "BACLEARS", "frontend"},
		{ARCH_INTEL, "ILD_STALL", "frontend"}, {ARCH_INTEL, "MEM_TRANS", "memory"},
		{ARCH_INTEL, "RTM_", "memory"}, {ARCH_INTEL, "HLE_", "memory"},
		{ARCH_INTEL, "TX_", "memory"}, {ARCH_INTEL, "CYCLE_ACTIVITY", "pipeline"},
		{ARCH_INTEL, "DTLB", "virtual memory"}, {ARCH_INTEL, "ITLB", "virtual memory"},
		{ARCH_INTEL, "TLB_FLUSH", "virtual memory"}, {ARCH_INTEL, "EPT", "virtual memory"},
		{ARCH_INTEL, "CORE_POWER", "other"}, {ARCH_INTEL, "HW_INTERRUPTS", "other"},
		{ARCH_INTEL, "SW_PREFETCH", "other"}, {ARCH_INTEL, "OTHER_ASSISTS", "other"},
		{ARCH_AMD, "BP_", "branch"}, {ARCH_AMD, "EX_RET_BRN", "branch"},
		{ARCH_AMD, "IC_", "cache"}, {ARCH_AMD, "L2_", "cache"}, {ARCH_AMD, "OP_CACHE", "cache"},
		{ARCH_AMD, "L3_", "cache"}, {ARCH_AMD, "LS_", "memory"}, {ARCH_AMD, "EX_", "core"},
		{ARCH_AMD, "RETIRED", "core"}, {ARCH_AMD, "CYCLES", "core"},
		{ARCH_AMD, "FP_", "floating point"}, {ARCH_AMD, "RETIRED_SSE", "floating point"},
		{ARCH_AMD, "RETIRED_MMX", "floating point"}, {ARCH_AMD, "RETIRED_X87", "floating point"},
		{ARCH_AMD, "RETIRED_SERIALIZING", "floating point"},
	};
	const char *best = NULL;
	size_t best_len = 0;
	for (size_t i = 0; i < PV_ARRAY_SIZE(t); i++) {
		size_t l = strlen(t[i].prefix);
		if (t[i].arch == arch && l > best_len && !strncasecmp(ev, t[i].prefix, l))
			best = t[i].topic, best_len = l;
	}
	if (best)
		return best;
	return arch == ARCH_INTEL ? "pipeline" : "other";
}

static void lower(char *s)
{
	for (; *s; s++)
		*s = (char)tolower((unsigned char)*s);
}

struct entry {
	char *name, *pfm, *desc;
	const char *pmu, *topic;
	struct perfev_attr attr;
};

struct list_ctx {
	const struct model_def *def;
	int i; /* which table */
	uint32_t type;
	const char *root;        /* sysfs (NULL: the real one) */
	const char *unit;        /* the uncore unit whose first box's type is unit_type */
	uint32_t unit_type;
	struct entry *e;
	size_t n, cap;
	bool oom;
};

static int add_entry(struct list_ctx *l, const char *name, const char *pfm_name, const char *desc,
		     const char *pmu, const char *topic, const struct perfev_attr *attr)
{
	if (pv_grow(&l->e, &l->cap, l->n + 1, sizeof(*l->e)) < 0)
		return l->oom = true, -ENOMEM;
	struct entry *en = &l->e[l->n];
	memset(en, 0, sizeof(*en));
	en->name = strdup(name);
	en->pfm = strdup(pfm_name);
	en->desc = desc ? strdup(desc) : NULL;
	if (!en->name || !en->pfm || (desc && !en->desc)) {
		free(en->name);
		free(en->pfm);
		free(en->desc);
		return l->oom = true, -ENOMEM;
	}
	en->pmu = pmu;
	en->topic = topic;
	en->attr = *attr;
	l->n++;
	return 0;
}

static int list_one(void *ctx, const char *ev, const char *umask, const char *desc)
{
	struct list_ctx *l = ctx;
	const char *table = l->def->table[l->i];
	char pfm_name[300], name[300];
	if (umask)
		snprintf(pfm_name, sizeof(pfm_name), "%s:%s", ev, umask);
	else
		snprintf(pfm_name, sizeof(pfm_name), "%s", ev);
	const char *perf = pv_pfm_perf_name(table, pfm_name);
	if (perf) {
		snprintf(name, sizeof(name), "%s", perf);
	} else {
		snprintf(name, sizeof(name), "%s%s%s", ev, umask ? "." : "", umask ? umask : "");
		lower(name);
	}
	struct perf_event_attr a;
	if (pfm_encode(table, pfm_name, &a, NULL) != PFM_SUCCESS)
		return 0; /* needs another umask with it: not an event alone */
	struct perfev_attr attr = {.type = l->type, .size = PERFEV_ATTR_SIZE_LATEST, .config = a.config,
				   .config1 = a.config1, .config2 = a.config2, .exclude_guest = 1};
	return add_entry(l, name, pfm_name, desc, l->def->pmu[l->i], topic_of(l->def->arch, ev), &attr);
}

/* An uncore event: its attr on the unit's first box here (uncore_imc_0),
 * with a type that never opens where there is none. */
static int uncore_one(void *ctx, const struct pv_uncore_listed *u)
{
	struct list_ctx *l = ctx;
	if (l->unit != u->unit) {
		char box[64];
		snprintf(box, sizeof(box), u->boxes > 1 ? "%s_0" : "%s", u->unit);
		struct perfev_pmu *p = pv_pmu_exists(l->root, box) ? pv_pmu_load(l->root, box) : NULL;
		l->unit = u->unit;
		l->unit_type = p ? perfev_pmu_type(p) : PV_UNCORE_TYPE_ABSENT;
		pv_pmu_free(p);
	}
	struct perfev_attr attr = {.type = l->unit_type, .size = PERFEV_ATTR_SIZE_LATEST, .config = u->config,
				   .config1 = u->config1};
	return add_entry(l, u->name, u->pfm_name, u->desc, u->unit, u->topic, &attr);
}

int pv_pfm_each_event(const char *table, int os,
		      int (*fn)(void *ctx, const char *ev, const char *umask, const char *desc), void *ctx)
{
	int pidx = pv_pfm_table_pmu(table);
	pfm_pmu_info_t pinfo = {.size = sizeof(pinfo)};
	if (pidx < 0 || pfm_get_pmu_info((pfm_pmu_t)pidx, &pinfo) != PFM_SUCCESS)
		return 0;
	int r = 0;
	for (int e = pinfo.first_event; e != -1 && !r; e = pfm_get_event_next(e)) {
		pfm_event_info_t ei = {.size = sizeof(ei)};
		if (pfm_get_event_info(e, (pfm_os_t)os, &ei) != PFM_SUCCESS)
			continue;
		int umasks = 0;
		for (int k = 0; k < ei.nattrs && !r; k++) {
			pfm_event_attr_info_t ai = {.size = sizeof(ai)};
			if (pfm_get_event_attr_info(e, k, (pfm_os_t)os, &ai) != PFM_SUCCESS || ai.type != PFM_ATTR_UMASK)
				continue;
			umasks++;
			r = fn(ctx, ei.name, ai.name, ai.desc ? ai.desc : ei.desc);
		}
		if (!umasks && !r)
			r = fn(ctx, ei.name, NULL, ei.desc);
	}
	return r;
}

/* perf's order: by PMU, then topic, then name */
static int by_topic_name(const void *x, const void *y)
{
	const struct entry *a = x, *b = y;
	int r = strcmp(a->pmu, b->pmu);
	if (!r)
		r = strcmp(a->topic, b->topic);
	return r ? r : strcmp(a->name, b->name);
}

int pv_vendor_foreach(const char *root, int (*fn)(const struct perfev_event_info *ev, void *arg),
		      void *arg)
{
	struct model_now m;
	model_now(&m);
	if (!m.def || !pfm_ready())
		return 0;
	struct list_ctx l = {.def = m.def, .root = root};
	int r = 0;
	for (l.i = 0; l.i < 2 && m.def->table[l.i]; l.i++) {
		if (pv_pfm_table_pmu(m.def->table[l.i]) < 0)
			continue;
		struct perfev_pmu *core = pv_vendor_pmu_load(root, m.def->pmu[l.i]);
		l.type = core ? perfev_pmu_type(core) : PERF_TYPE_RAW;
		pv_pmu_free(core);
		if ((r = pv_pfm_each_event(m.def->table[l.i], PFM_OS_PERF_EVENT_EXT, list_one, &l)))
			break;
	}
	if (!r)
		r = pv_uncore_foreach(uncore_one, &l);
	if (l.n)
		qsort(l.e, l.n, sizeof(*l.e), by_topic_name);
	for (size_t i = 0; !r && i < l.n; i++) {
		struct perfev_event_info info = {
			.klass = PERFEV_CLASS_VENDOR, .class_name = "vendor", .name = l.e[i].name,
			.alias = l.e[i].pfm, .pmu = l.e[i].pmu, .desc = l.e[i].desc,
			.attr = l.e[i].attr, .topic = l.e[i].topic,
		};
		r = fn(&info, arg);
	}
	for (size_t i = 0; i < l.n; i++) {
		free(l.e[i].name);
		free(l.e[i].pfm);
		free(l.e[i].desc);
	}
	free(l.e);
	if (l.oom && !r)
		return pv_error(ENOMEM, "out of memory");
	return r;
}

void pv_vendor_unknown_hint(const char *name, char *buf, size_t len)
{
	struct model_now m;
	model_now(&m);
	buf[0] = 0;
	if (!m.def)
		snprintf(buf, len, "; no vendor event table for this CPU (%s%s): libpfm4 does not know "
			 "it; PERF_CPUID=GenuineIntel-6-55-4 (say) shows another model's", m.cpuid,
			 m.overridden ? ", from PERF_CPUID" : "");
	else if (!pfm_ready() || pv_pfm_table_pmu(m.def->table[0]) < 0)
		snprintf(buf, len, "; the %s table (%s) is not in this build of libpfm4", m.def->name,
			 m.def->table[0]);
	else
		snprintf(buf, len, "; not an event of %s (%s%s) either ('perfev list vendor' shows them)",
			 m.def->name, m.cpuid, m.overridden ? ", from PERF_CPUID" : "");
	(void)name;
}
