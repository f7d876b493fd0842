/* pmu_int.h — what the parser and lister share with pmu.c (not API). */
#ifndef PERFEV_PMU_INT_H
#define PERFEV_PMU_INT_H

#include <stdbool.h>
#include "perfev/pmu.h"

/* Loads one PMU (root NULL: the real sysfs); NULL + errno when absent. */
struct perfev_pmu *pv_pmu_load(const char *root, const char *name);
void pv_pmu_free(struct perfev_pmu *pmu);
/* A PMU sysfs does not show (a model's core PMU on another machine), from
 * formats[0..n) as "name=config:0-7" texts. NULL + errno. */
struct perfev_pmu *pv_pmu_synth(const char *name, uint32_t type, const char *const *formats,
			       size_t n);
/* Does root/name/type exist? Cheaper than loading. */
bool pv_pmu_exists(const char *root, const char *name);
/* &attr->config, config1, config2 or config3 for field 0..3. */
uint64_t *pv_attr_config_field(struct perfev_attr *attr, int field);
/* Scatters value into the bits of f (ERANGE when it does not fit). */
int pv_format_encode(const struct perfev_pmu_format *f, uint64_t value, struct perfev_attr *attr);

#endif
