/* perfdata_topology.c — the CPU_TOPOLOGY feature's per-CPU ids as perf
 * reads them (util/header.c process_cpu_topology): the socket of each CPU,
 * for perf report --sort socket. Bounded by the section: one pass. And the
 * checks of a -C CPU filter against the file. */
#define _GNU_SOURCE
#include "perfdata/perfdata_int.h"
#include "perfev/counter.h"

#include <string.h>

/* perf's string_size: the length word and the name padded to 64 bytes */
static uint64_t string_size(const char *s, uint32_t len)
{
	size_t n = strnlen(s, len) + 1;
	return 4 + (n + PV_NAME_ALIGN - 1) / PV_NAME_ALIGN * PV_NAME_ALIGN;
}

PERFEV_API int perfev_perfdata_cpu_sockets(const struct perfev_perfdata *pd, int32_t *out, size_t max)
{
	size_t size;
	const uint8_t *p = perfev_perfdata_has_feature(pd, PERFEV_FEAT_CPU_TOPOLOGY)
				   ? perfev_perfdata_feature(pd, PERFEV_FEAT_CPU_TOPOLOGY, &size) : NULL;
	if (!p)
		return 0;
	struct perfev_perfdata_info info;
	perfev_perfdata_info(pd, &info);
	uint32_t nr_cpus = info.nr_cpus_avail;
	if (nr_cpus > INT32_MAX)
		return 0;
	struct pv_cur c = {p, p + size, perfev_perfdata_is_swapped(pd), false, NULL};
	uint64_t used = 0; /* what perf counts it read */
	for (int list = 0; list < 2; list++) { /* core siblings, thread siblings */
		uint32_t nr = cur_u32(&c, "sibling lists");
		used += 4;
		for (uint32_t i = 0; i < nr && !c.bad; i++) {
			const uint8_t *at = c.p;
			const char *s = pv_feat_get_string(&c);
			if (!s)
				return 0;
			used += string_size(s, (uint32_t)(c.p - at - 4));
		}
		if (c.bad)
			return 0;
	}
	if (size <= used)
		return 0; /* an old perf's: the sibling lists alone */
	/* perf lets socket ids above the CPU count pass on s390 and aarch64 only */
	const char *arch = perfev_perfdata_feature_str(pd, PERFEV_FEAT_ARCH);
	bool check = !arch || (strncmp(arch, "s390", 4) && strncmp(arch, "aarch64", 7));
	for (uint32_t cpu = 0; cpu < nr_cpus; cpu++) {
		cur_u32(&c, "core id");
		uint32_t socket = cur_u32(&c, "socket id");
		if (c.bad || (check && socket != UINT32_MAX && socket > nr_cpus))
			return 0; /* perf drops every CPU's ids then */
		if (cpu < max)
			out[cpu] = (int32_t)socket;
	}
	return (int)nr_cpus;
}

/* perf report and script -C's checks: the events record their CPU, and the
 * machine had the CPUs asked for (its NRCPUS; unknown in a pipe). 0, or -1
 * with the error set (naming path unless NULL). */
int pv_perfdata_check_cpu_filter(struct perfev_perfdata *pd, const char *path, const struct perfev_cpus *cpus)
{
	size_t nev = perfev_perfdata_nr_events(pd);
	for (size_t i = 0; i < nev; i++) {
		const struct perfev_attr *a = perfev_perfdata_event_attr(pd, i);
		if (a && !(a->sample_type & PERF_SAMPLE_CPU)) {
			pv_error(EINVAL, "%s%sits samples do not say which CPU took them (record with -a, -C "
				 "or --sample-cpu): remove the CPU filter", path ? path : "", path ? ": " : "");
			return -1;
		}
	}
	struct perfev_perfdata_info in;
	perfev_perfdata_info(pd, &in);
	for (size_t i = 0; in.nr_cpus_avail && i < perfev_cpus_count(cpus); i++) {
		int c = perfev_cpus_at(cpus, i);
		if (c >= (int)in.nr_cpus_avail) {
			pv_error(EINVAL, "%s%sCPU %d was not there: the recording machine had %u CPUs (0-%u)",
				 path ? path : "", path ? ": " : "", c, in.nr_cpus_avail, in.nr_cpus_avail - 1);
			return -1;
		}
	}
	return 0;
}
