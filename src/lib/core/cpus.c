/* cpus.c — CPU lists: the kernel's "0-3,7" syntax, online CPUs, PMU cpumasks. */
#define _GNU_SOURCE
#include "core/internal.h"
#include "perfev/counter.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PV_MAX_CPU 65535

struct perfev_cpus {
	size_t nr;
	int cpu[]; /* ascending, no duplicates */
};

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static long parse_num(const char *list, const char **p)
{
	if (!isdigit((unsigned char)**p))
		return pv_error(EINVAL, "CPU list '%s': expected a CPU number at offset %d",
				list, (int)(*p - list));
	char *end;
	long v = strtol(*p, &end, 10);
	if (v > PV_MAX_CPU)
		return pv_error(EINVAL, "CPU list '%s': CPU %ld is out of range (0-%d)",
				list, v, PV_MAX_CPU);
	*p = end;
	return v;
}

PERFEV_API struct perfev_cpus *perfev_cpus_parse(const char *list)
{
	/* a bitmap of every possible CPU: memory stays bounded whatever the
	 * ranges repeat, and the result comes out sorted without duplicates */
	uint64_t *set = calloc((PV_MAX_CPU + 1) / 64, sizeof(uint64_t));
	if (!set)
		return pv_error_null(ENOMEM, "out of memory");
	size_t nr = 0;
	const char *p = list;
	while (isspace((unsigned char)*p))
		p++;
	while (*p && *p != '\n') {
		long a = parse_num(list, &p), b = a;
		if (a < 0)
			goto fail;
		if (*p == '-') {
			p++;
			if ((b = parse_num(list, &p)) < 0)
				goto fail;
			if (b < a) {
				pv_error(EINVAL, "CPU list '%s': range %ld-%ld goes backwards", list, a, b);
				goto fail;
			}
		}
		for (long c = a; c <= b; c++) {
			uint64_t bit = 1ULL << (c % 64);
			nr += !(set[c / 64] & bit);
			set[c / 64] |= bit;
		}
		if (*p == ',')
			p++;
		else if (*p && *p != '\n') {
			pv_error(EINVAL, "CPU list '%s': unexpected '%c' at offset %d (use e.g. 0-3,7)",
				 list, *p, (int)(p - list));
			goto fail;
		}
	}
	struct perfev_cpus *c = malloc(sizeof(*c) + nr * sizeof(int));
	if (!c) {
		pv_error(ENOMEM, "out of memory");
		goto fail;
	}
	c->nr = 0;
	for (int cpu = 0; cpu <= PV_MAX_CPU && c->nr < nr; cpu++)
		if (set[cpu / 64] & (1ULL << (cpu % 64)))
			c->cpu[c->nr++] = cpu;
	free(set);
	return c;
fail:
	free(set);
	return NULL;
}

static struct perfev_cpus *from_file(const char *path)
{
	char line[4096];
	int r = pv_read_line(path, line, sizeof(line));
	if (r < 0)
		return pv_error_null(-r, "cannot read %s: %s", path, strerror(-r));
	return perfev_cpus_parse(line);
}

PERFEV_API struct perfev_cpus *perfev_cpus_online(void)
{
	return from_file("/sys/devices/system/cpu/online");
}

PERFEV_API struct perfev_cpus *perfev_cpus_pmu(const char *pmu)
{
	char path[256];
	if (!pmu || strchr(pmu, '/'))
		return pv_error_null(EINVAL, "bad PMU name");
	snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/cpumask", pmu);
	return from_file(path);
}

PERFEV_API void perfev_cpus_free(struct perfev_cpus *c) { free(c); }
PERFEV_API size_t perfev_cpus_count(const struct perfev_cpus *c) { return c->nr; }
PERFEV_API int perfev_cpus_at(const struct perfev_cpus *c, size_t i) { return i < c->nr ? c->cpu[i] : -1; }

PERFEV_API bool perfev_cpus_has(const struct perfev_cpus *c, int cpu)
{
	return bsearch(&cpu, c->cpu, c->nr, sizeof(int), cmp_int) != NULL;
}

PERFEV_API int perfev_cpus_format(const struct perfev_cpus *c, char *buf, size_t len)
{
	struct pv_buf b = PV_BUF_INIT;
	for (size_t i = 0; i < c->nr;) {
		size_t j = i;
		while (j + 1 < c->nr && c->cpu[j + 1] == c->cpu[j] + 1)
			j++;
		pv_buf_printf(&b, i ? ",%d" : "%d", c->cpu[i]);
		if (j > i)
			pv_buf_printf(&b, "-%d", c->cpu[j]);
		i = j + 1;
	}
	int n = snprintf(buf, len, "%s", b.data ? b.data : "");
	pv_buf_free(&b);
	return n;
}

void pv_cpu_topo(int cpu, struct pv_cpu_topo *t)
{
	static const char *const files[] = {"physical_package_id", "die_id", "core_id"};
	int *out[] = {&t->socket, &t->die, &t->core};
	char path[128];
	for (size_t i = 0; i < PV_ARRAY_SIZE(files); i++) {
		int64_t v;
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu, files[i]);
		*out[i] = pv_read_i64(path, &v) == 0 ? (int)v : -1;
	}
	t->node = -1;
}

int pv_cpu_node(int cpu)
{
	char path[128];
	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d", cpu);
	DIR *d = opendir(path);
	int node = -1;
	for (struct dirent *de; d && node < 0 && (de = readdir(d));) {
		char *end;
		long n = !strncmp(de->d_name, "node", 4) ? strtol(de->d_name + 4, &end, 10) : -1;
		if (n >= 0 && end != de->d_name + 4 && !*end)
			node = (int)n;
	}
	if (d)
		closedir(d);
	return node;
}
