/* perfdata_feat.c — header feature encodings shared by the writer and reader:
 * strings, EVENT_DESC, names. */
#define _GNU_SOURCE
#include "perfdata/perfdata_int.h"
#include "perfev.h"

#include <stdlib.h>

void pv_feat_put_string(struct pv_buf *b, const char *s)
{
	size_t n = strlen(s) + 1;
	uint32_t len = (uint32_t)((n + PV_NAME_ALIGN - 1) / PV_NAME_ALIGN * PV_NAME_ALIGN);
	pv_buf_add(b, &len, 4);
	pv_buf_add(b, s, n - 1);
	static const char zero[PV_NAME_ALIGN];
	pv_buf_add(b, zero, len - (n - 1));
}

const char *pv_feat_get_string(struct pv_cur *c)
{
	uint32_t len = cur_u32(c, "string length");
	return pv_cur_str(c, len, "string");
}

void pv_feat_event_desc(struct pv_buf *b, const struct perfev_perfdata_event *ev, size_t nr, uint32_t attr_size)
{
	uint32_t n = (uint32_t)nr;
	pv_buf_add(b, &n, 4);
	pv_buf_add(b, &attr_size, 4);
	for (size_t i = 0; i < nr; i++) {
		struct perfev_attr a = *ev[i].attr;
		a.size = attr_size;
		pv_buf_add(b, &a, attr_size);
		uint32_t nids = (uint32_t)ev[i].nr_ids;
		pv_buf_add(b, &nids, 4);
		char name[256];
		if (ev[i].name)
			snprintf(name, sizeof(name), "%s", ev[i].name);
		else
			perfev_attr_name(ev[i].attr, name, sizeof(name));
		pv_feat_put_string(b, name);
		if (nids)
			pv_buf_add(b, ev[i].ids, nids * 8u);
	}
}

PERFEV_API const char *perfev_feat_name(int feat)
{
	static const char *const n[] = {
		"reserved", "tracing_data", "build_id", "hostname", "osrelease", "version", "arch",
		"nrcpus", "cpudesc", "cpuid", "total_mem", "cmdline", "event_desc", "cpu_topology",
		"numa_topology", "branch_stack", "pmu_mappings", "group_desc", "auxtrace", "stat",
		"cache", "sample_time", "mem_topology", "clockid", "dir_format", "bpf_prog_info",
		"bpf_btf", "compressed", "cpu_pmu_caps", "clock_data", "hybrid_topology", "pmu_caps"};
	if (feat >= 0 && (size_t)feat < PV_ARRAY_SIZE(n))
		return n[feat];
	return "unknown";
}

/* perf's evsel__add_modifiers: k, u, h for what is not excluded (when
 * something is), p per precise level, then H and G as perf decides them. */
static const char *mod_suffix(const struct perfev_attr *a, char *buf, size_t len)
{
	char *p = buf;
	size_t left = len;
#define PUT(c) do { if (left > 1) { *p++ = (c); left--; } } while (0)
	bool guest_default = false;
	if (a->exclude_kernel || a->exclude_user || a->exclude_hv) {
		if (!a->exclude_kernel) PUT('k');
		if (!a->exclude_user) PUT('u');
		if (!a->exclude_hv) PUT('h');
		guest_default = true;
	}
	if (a->precise_ip) {
		for (unsigned i = 0; i < a->precise_ip && i < 3; i++) PUT('p');
		guest_default = true;
	}
	if (a->exclude_host || (bool)a->exclude_guest == guest_default) {
		if (!a->exclude_host) PUT('H');
		if (!a->exclude_guest) PUT('G');
	}
#undef PUT
	*p = 0;
	return buf;
}

PERFEV_API int perfev_attr_name(const struct perfev_attr *a, char *buf, size_t len)
{
	static const char *const hw[] = {"cycles", "instructions", "cache-references", "cache-misses",
					 "branches", "branch-misses", "bus-cycles",
					 "stalled-cycles-frontend", "stalled-cycles-backend", "ref-cycles"};
	static const char *const sw[] = {"cpu-clock", "task-clock", "page-faults", "context-switches",
					 "cpu-migrations", "minor-faults", "major-faults",
					 "alignment-faults", "emulation-faults", "dummy", "bpf-output",
					 "cgroup-switches"};
	char mod[16];
	mod_suffix(a, mod, sizeof(mod));
	const char *sep = mod[0] ? ":" : "";
	switch (a->type) {
	case PERF_TYPE_HARDWARE:
		if (a->config < PV_ARRAY_SIZE(hw))
			return snprintf(buf, len, "%s%s%s", hw[a->config], sep, mod);
		break;
	case PERF_TYPE_SOFTWARE:
		if (a->config < PV_ARRAY_SIZE(sw))
			return snprintf(buf, len, "%s%s%s", sw[a->config], sep, mod);
		break;
	case PERF_TYPE_RAW:
		return snprintf(buf, len, "raw 0x%llx%s%s", (unsigned long long)a->config, sep, mod);
	case PERF_TYPE_TRACEPOINT:
		return snprintf(buf, len, "unknown tracepoint%s%s", sep, mod);
	case PERF_TYPE_BREAKPOINT:
		return snprintf(buf, len, "mem:0x%llx%s%s", (unsigned long long)a->bp_addr, sep, mod);
	default:
		break;
	}
	return snprintf(buf, len, "unknown attr type: %u", a->type);
}
