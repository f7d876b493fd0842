/* pfm_int.h — vendor events (pfm.c), shared with the parser and lister (not API). */
#ifndef PERFEV_PFM_INT_H
#define PERFEV_PFM_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "perfev/pmu.h"

/* One encoding of a vendor event on one of the model's core PMUs. */
struct pv_vendor_event {
	const char *pmu;    /* the sysfs core PMU it opens on: "cpu", "cpu_core", "cpu_atom" */
	const char *table;  /* the libpfm4 table that encoded it: "skx", "amd64_fam19h_zen3" */
	uint64_t config, config1, config2;
	char pfm_name[256]; /* libpfm4's spelling: "INST_RETIRED:ANY_P" */
	/* libpfm4's own modifiers (native syntax only: INST_RETIRED:ANY_P:u) */
	bool native;
	bool exclude_user, exclude_kernel;
	unsigned precise_ip;
};

/*
 * Resolves name[0..n) (perf's JSON name, libpfm4's with its modifiers, or
 * TABLE::NAME) through the current model's tables (PERF_CPUID or this CPU).
 * Fills out[] (one per core PMU that has it: two on a hybrid CPU) and
 * returns how many, 0 when no table has it (or no table is known), or
 * -errno with perfev_errmsg() set when libpfm4 refuses a modifier.
 */
int pv_vendor_resolve(const char *name, size_t n, struct pv_vendor_event out[2]);
/* Is pmu one of the current model's core PMUs (those vendor events open on)? */
bool pv_vendor_core_pmu(const char *pmu);
/*
 * The core PMU to scatter a vendor event's terms (cmask=, inv, ...) into:
 * sysfs's (root NULL: the real one), else one built from the model's known
 * format bits with type PERF_TYPE_RAW. Free with pv_pmu_free. NULL + errno.
 */
struct perfev_pmu *pv_vendor_pmu_load(const char *root, const char *name);

/* Calls fn for every event of the model's tables (perfev list's "vendor" class). */
int pv_vendor_foreach(const char *root, int (*fn)(const struct perfev_event_info *ev, void *arg),
		      void *arg);

/* Why a name is no vendor event here, as "; ..." to append to "unknown event". */
void pv_vendor_unknown_hint(const char *name, char *buf, size_t len);
/* The current model's (first) core table, "skx", once libpfm4 is ready;
 * NULL when no model or libpfm4 is known. */
const char *pv_vendor_model_table(void);

/* One uncore vendor event (pfm_uncore.c): its encoding on every box of its unit. */
struct pv_uncore_event {
	const char *unit;   /* perf's Unit, the sysfs PMU prefix: "uncore_imc", "amd_l3" */
	const char *table;  /* libpfm4's table (without the box number): "skx_unc_imc" */
	int box;            /* the box a TABLE::NAME with a numbered table names, else -1 */
	unsigned boxes;     /* how many boxes the kernel makes on the model (at most) */
	uint64_t config, config1;
	char pfm_name[256]; /* libpfm4's spelling with its defaults: "UNC_M_CAS_COUNT:RD:e=0:i=0:t=0" */
	const char *const *formats; /* the unit's format/ fields, "event=config:0-7" ... */
	size_t nformats;
};
/*
 * Resolves name[0..n) as an uncore event of the current model: 1 and *out
 * filled, 0 when no uncore table of the model has it, -errno (perfev_errmsg
 * set) when libpfm4 refuses its modifiers.
 */
int pv_uncore_resolve(const char *name, size_t n, struct pv_uncore_event *out);
/* An uncore event as perfev list shows it (strings valid during the call). */
struct pv_uncore_listed {
	const char *name;     /* perf's: "unc_m_cas_count.rd" */
	const char *pfm_name; /* libpfm4's: "UNC_M_CAS_COUNT:RD" */
	const char *desc;
	const char *unit;     /* "uncore_imc" */
	const char *topic;    /* perf list's heading: "uncore memory" */
	uint64_t config, config1;
	unsigned boxes;
};
/* Calls fn for every uncore event of the current model (fn's non-zero stops
 * and is returned). */
int pv_uncore_foreach(int (*fn)(void *ctx, const struct pv_uncore_listed *e), void *ctx);
/* libpfm4's index of its table named name, -1 when it has none (or no libpfm4). */
int pv_pfm_table_pmu(const char *name);
/* Calls fn(ctx, event, umask or NULL, description) for every event of
 * libpfm4's table (each umask, or the event alone when it has none), its
 * information as for pfm_os_t os; fn's non-zero stops and is returned. 0
 * when libpfm4 has no such table. */
int pv_pfm_each_event(const char *table, int os,
		      int (*fn)(void *ctx, const char *ev, const char *umask, const char *desc), void *ctx);
/* Is sysfs PMU pmu a box of u's unit (UNIT or UNIT_N, the named box if any)? */
bool pv_uncore_box_of(const char *pmu, const struct pv_uncore_event *u);
/* The type an uncore box absent here gets: the kernel numbers uncore PMUs
 * as it registers them, so no number is right; this one never opens. */
#define PV_UNCORE_TYPE_ABSENT UINT32_MAX

/* perf's name for libpfm4's event (E:U), if the two differ (pfm_names.c), else NULL. */
const char *pv_pfm_perf_name(const char *table, const char *pfm_name);
/* libpfm4's name for perf's event, if the two differ, else NULL. */
const char *pv_pfm_name_of_perf(const char *table, const char *perf_name);

#endif
