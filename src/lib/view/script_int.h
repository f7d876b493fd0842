/* script_int.h — what the script files share (not API). */
#ifndef PERFEV_SCRIPT_INT_H
#define PERFEV_SCRIPT_INT_H

#include "core/internal.h"
#include "perfev.h"

enum pv_field {
	F_COMM = 1u << 0, F_TID = 1u << 1, F_PID = 1u << 2, F_TIME = 1u << 3, F_CPU = 1u << 4,
	F_EVNAME = 1u << 5, F_TRACE = 1u << 6, F_IP = 1u << 7, F_SYM = 1u << 8, F_DSO = 1u << 9,
	F_ADDR = 1u << 10, F_SYMOFF = 1u << 11, F_SRCLINE = 1u << 12, F_PERIOD = 1u << 13,
	F_IREGS = 1u << 14, F_UREGS = 1u << 15, F_BRSTACK = 1u << 16, F_FLAGS = 1u << 17,
	F_DATA_SRC = 1u << 18, F_WEIGHT = 1u << 19, F_PHYS_ADDR = 1u << 20, F_MISC = 1u << 21,
	F_DATA_PAGE_SIZE = 1u << 22, F_CODE_PAGE_SIZE = 1u << 23, F_CGROUP = 1u << 24,
	F_BPF_OUTPUT = 1u << 25, F_INS_LAT = 1u << 26, F_BRSTACKSYM = 1u << 27, F_BRSTACKOFF = 1u << 28,
	F_TOD = 1u << 29,
	F_OTHER = 1u << 31 /* accepted perf names perfev does not print (pv_script_unprintable says which) */
};

#define PV_OUT_TYPES 7 /* hw, sw, tracepoint, hw_cache, raw, breakpoint, other */

struct pv_script {
	const struct perfev_script_opts *o;
	struct perfev_perfdata *pd;
	struct perfev_resolver *res;     /* every symbol, map and unwound stack (profile/resolve_int.h) */
	struct perfev_session *session;  /* the resolver's threads and maps */
	int vmlinux_fd;                  /* -k's symbols as kallsyms (pv_vmlinux_kallsyms_for); -1: none */
	char vmlinux_kallsyms[32];       /* their path */
	FILE *out;
	uint32_t fields[PV_OUT_TYPES];
	uint32_t user_set[PV_OUT_TYPES];
	uint32_t user_unset[PV_OUT_TYPES];
	bool fields_typed;       /* -F gave an event type ("sw:ip,sym") */
	uint64_t combined_sample_type; /* of the attrs seen so far (pipe mode) */
	bool checked;
	size_t attrs_seen; /* pipe mode: HEADER_ATTR records delivered so far */
	int name_width;
	int data_src_width;
	struct pv_buf line;
	struct pv_buf bid_names; /* files of the build-id table, NUL-separated */
	struct perfev_tp *tp;    /* tracepoint formats (script_trace.c) */
	bool tp_loaded;
	int err;
	/* script_filter.c: perf script's filters and time column */
	int64_t *pids, *tids;
	size_t nr_pids, nr_tids;
	struct perfev_cpus *cpus;
	struct pv_time_range *ranges;
	size_t nr_ranges;
	uint64_t initial_time, previous_time; /* --reltime, --deltatime */
	unsigned max_stack;                   /* callchain entries printed at most */
};

bool pv_script_in_buildids(struct pv_script *s, const char *path);
int pv_script_parse_fields(struct pv_script *s, const char *spec);
int pv_script_check(struct pv_script *s);
int pv_script_check_attr(struct pv_script *s, const struct perfev_attr *a, const char *name);
int pv_out_type(uint32_t attr_type);
/* script_trace.c: the file's tracepoint formats; the `trace` field. */
void pv_script_load_tracing(struct pv_script *s);
void pv_script_trace(struct pv_script *s, const struct perfev_sample *smp);
void pv_script_sample(struct pv_script *s, const struct perfev_record *r);
void pv_script_side(struct pv_script *s, const struct perfev_record *r);
void pv_script_json(struct pv_script *s, const struct perfev_record *r);
/* script_filter.c */
int pv_script_filter_init(struct pv_script *s);
void pv_script_filter_free(struct pv_script *s);
bool pv_script_cpu_shown(const struct pv_script *s, uint32_t cpu);
bool pv_script_sample_shown(struct pv_script *s, const struct perfev_record *r);
uint64_t pv_script_shown_time(struct pv_script *s, uint64_t time);
/* script.c: a map's DSO name as perf shows it; the sampled symbol of addr */
const char *pv_script_dso_name(struct pv_script *s, const struct perfev_map *map, uint32_t pid, char *buf,
			       size_t len);
bool pv_script_resolve(struct pv_script *s, const struct perfev_record *r, uint8_t cpumode, uint64_t addr,
		       const struct perfev_map *map, struct perfev_location *loc);
void pv_script_start(struct pv_script *s, const struct perfev_record *r, uint32_t fields, uint32_t pid,
		     uint32_t tid, uint64_t time, uint32_t cpu, bool has_callchain);

#endif
