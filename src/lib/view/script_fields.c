/* script_fields.c — perf script's -F syntax, its default fields per event
 * type, and the checks that make perf refuse a field. */
#define _GNU_SOURCE
#include "view/script_int.h"

#include <stdlib.h>
#include <string.h>

static const struct {
	const char *name;
	uint32_t field;
} names[] = {
	{"comm", F_COMM}, {"tid", F_TID}, {"pid", F_PID}, {"time", F_TIME}, {"cpu", F_CPU},
	{"event", F_EVNAME}, {"trace", F_TRACE}, {"ip", F_IP}, {"sym", F_SYM}, {"dso", F_DSO},
	{"addr", F_ADDR}, {"symoff", F_SYMOFF}, {"srcline", F_SRCLINE}, {"period", F_PERIOD},
	{"iregs", F_IREGS}, {"uregs", F_UREGS}, {"brstack", F_BRSTACK}, {"flags", F_FLAGS},
	{"data_src", F_DATA_SRC}, {"weight", F_WEIGHT}, {"phys_addr", F_PHYS_ADDR}, {"misc", F_MISC},
	{"data_page_size", F_DATA_PAGE_SIZE}, {"code_page_size", F_CODE_PAGE_SIZE}, {"cgroup", F_CGROUP},
	{"bpf-output", F_BPF_OUTPUT}, {"ins_lat", F_INS_LAT}, {"brstacksym", F_BRSTACKSYM},
	{"brstackoff", F_BRSTACKOFF}, {"tod", F_TOD},
};

/* perf 6.1's field names perfev accepts but leaves empty, and why (told on
 * stderr by pv_script_unprintable; retire_lat, dsoff, disasm are newer than
 * perf 6.1, which refuses them: so does perfev). */
static const struct {
	const char *name, *why;
} unprintable[] = {
	{"brstackinsn", "perfev does not disassemble branch blocks"},
	{"brstackinsnlen", "perfev does not disassemble branch blocks"},
	{"insn", "perfev does not read instruction bytes (perf takes them from an AUX trace or the binary)"},
	{"insnlen", "perfev does not read instruction bytes (perf takes them from an AUX trace or the binary)"},
	{"callindent", "it comes from decoding an AUX trace (Intel PT), which perfev does not do"},
	{"synth", "it comes from decoding an AUX trace (Intel PT), which perfev does not do"},
	{"ipc", "it comes from decoding an AUX trace (Intel PT cycle counts), which perfev does not do"},
	{"metric", "perfev does not compute metrics of PERF_SAMPLE_READ groups"},
	{"srccode", "perfev does not print source code lines"},
	{"machine_pid", "perfev does not track guest machines (perf inject / perf kvm)"},
	{"vcpu", "perfev does not track guest machines (perf inject / perf kvm)"},
};

int pv_out_type(uint32_t t) { return t < 6 ? (int)t : 6; }

static const uint32_t F_SAMPLE_DEFAULT = F_COMM | F_TID | F_CPU | F_TIME | F_EVNAME | F_IP | F_SYM | F_SYMOFF |
					 F_DSO | F_PERIOD;

static void defaults(struct pv_script *s)
{
	s->fields[PERF_TYPE_HARDWARE] = F_SAMPLE_DEFAULT;
	s->fields[PERF_TYPE_SOFTWARE] = F_SAMPLE_DEFAULT | F_BPF_OUTPUT;
	s->fields[PERF_TYPE_TRACEPOINT] = F_COMM | F_TID | F_CPU | F_TIME | F_EVNAME | F_TRACE;
	s->fields[PERF_TYPE_HW_CACHE] = F_SAMPLE_DEFAULT;
	s->fields[PERF_TYPE_RAW] = F_SAMPLE_DEFAULT | F_ADDR | F_DATA_SRC | F_WEIGHT | F_PHYS_ADDR |
				   F_DATA_PAGE_SIZE | F_CODE_PAGE_SIZE | F_INS_LAT;
	s->fields[PERF_TYPE_BREAKPOINT] = F_SAMPLE_DEFAULT;
	/* perf's OUTPUT_TYPE_OTHER: the PMUs of dynamic types (uprobe,
	 * kprobe, cpu_core, ...) print the sample defaults, not raw's */
	s->fields[6] = F_SAMPLE_DEFAULT;
}

static int type_of(const char *t)
{
	static const char *const n[] = {"hw", "sw", "trace", "hwcache", "raw", "break"};
	for (int i = 0; i < 6; i++)
		if (!strcmp(t, n[i]))
			return i;
	if (!strcmp(t, "synth") || !strcmp(t, "other"))
		return 6;
	return -1;
}

int pv_script_parse_fields(struct pv_script *s, const char *spec)
{
	defaults(s);
	if (!spec || !*spec)
		return 0;
	char *copy = strdup(spec);
	if (!copy)
		return pv_error(ENOMEM, "out of memory");
	char *list = copy;
	int type = -1;
	char *colon = strchr(copy, ':');
	if (colon) {
		*colon = 0;
		type = type_of(copy);
		if (type < 0) {
			int e = pv_error(EINVAL, "-F: '%s' is not an event type (hw, sw, trace, raw, break, synth)", copy);
			free(copy);
			return e;
		}
		list = colon + 1;
		s->fields_typed = true;
	}
	/* a list starting with + or - edits the defaults; otherwise it replaces them */
	bool edit = list[0] == '+' || list[0] == '-';
	if (!edit) {
		for (int t = 0; t < PV_OUT_TYPES; t++)
			if (type < 0 || t == type)
				s->fields[t] = 0;
	}
	int sign = 1;
	for (char *tok = strtok(list, ","); tok; tok = strtok(NULL, ",")) {
		if (*tok == '+') {
			sign = 1;
			tok++;
		} else if (*tok == '-') {
			sign = -1;
			tok++;
		}
		uint32_t f = 0;
		for (size_t i = 0; i < PV_ARRAY_SIZE(names); i++)
			if (!strcmp(tok, names[i].name))
				f = names[i].field;
		for (size_t i = 0; i < PV_ARRAY_SIZE(unprintable); i++)
			if (!strcmp(tok, unprintable[i].name))
				f = F_OTHER;
		if (!f) {
			int e = pv_error(EINVAL, "-F: '%s' is not a field perf script knows (try comm, tid, pid, time, "
					 "cpu, event, ip, sym, dso, addr, period, flags, ...)", tok);
			free(copy);
			return e;
		}
		for (int t = 0; t < PV_OUT_TYPES; t++) {
			if (type >= 0 && t != type)
				continue;
			if (sign > 0) {
				s->fields[t] |= f;
				s->user_set[t] |= f;
				s->user_unset[t] &= ~f;
			} else {
				s->fields[t] &= ~f;
				s->user_set[t] &= ~f;
				s->user_unset[t] |= f;
			}
		}
	}
	free(copy);
	return 0;
}

/* perf checks the first event of each type: fields it asked for by name and
 * the event cannot give are an error; default ones are quietly dropped. */
static int need(struct pv_script *s, int t, const struct perfev_attr *a, const char *evname, uint32_t field,
		uint64_t stype, const char *what, const char *fname)
{
	if (!(s->fields[t] & field) || (a->sample_type & stype))
		return 0;
	if (s->user_set[t] & field)
		return pv_error(EINVAL, "Samples for '%s' event do not have %s attribute set. Cannot print '%s' field.",
				evname, what, fname);
	s->fields[t] &= ~field;
	return 0;
}

static bool any_raw(struct pv_script *s)
{
	for (size_t i = 0, n = perfev_perfdata_nr_events(s->pd); i < n; i++)
		if (perfev_perfdata_event_attr(s->pd, i)->sample_type & PERF_SAMPLE_RAW)
			return true;
	return false;
}

/* The checks of one attr, the first of its output type. */
int pv_script_check_attr(struct pv_script *s, const struct perfev_attr *a, const char *name)
{
	int t = pv_out_type(a->type);
	if (t == 6 || !s->fields[t]) /* perf checks the kernel's own types only */
		return 0;
	/* "-F trace" (no type) on a file with tracepoints: the other events
	 * print nothing, as perf ignores the field for them. With no event
	 * that has the raw data, or "sw:trace", need() refuses it below (it
	 * printed a blank line per sample). */
	if ((s->fields[t] & F_TRACE) && !(a->sample_type & PERF_SAMPLE_RAW) &&
	    (!(s->user_set[t] & F_TRACE) || (!s->fields_typed && any_raw(s))))
		s->fields[t] &= ~(uint32_t)F_TRACE;
	int e;
	if ((e = need(s, t, a, name, F_IP, PERF_SAMPLE_IP, "IP", "ip")) < 0 ||
	    (e = need(s, t, a, name, F_TRACE, PERF_SAMPLE_RAW, "RAW", "trace")) < 0 ||
	    (e = need(s, t, a, name, F_ADDR, PERF_SAMPLE_ADDR, "ADDR", "addr")) < 0 ||
	    (e = need(s, t, a, name, F_DATA_SRC, PERF_SAMPLE_DATA_SRC, "DATA_SRC", "data_src")) < 0 ||
	    (e = need(s, t, a, name, F_WEIGHT, PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT", "weight")) < 0 ||
	    (e = need(s, t, a, name, F_TID | F_PID, PERF_SAMPLE_TID, "TID", "tid")) < 0 ||
	    (e = need(s, t, a, name, F_TIME, PERF_SAMPLE_TIME, "TIME", "time")) < 0 ||
	    (e = need(s, t, a, name, F_CPU, PERF_SAMPLE_CPU, "CPU", "cpu")) < 0 ||
	    (e = need(s, t, a, name, F_IREGS, PERF_SAMPLE_REGS_INTR, "IREGS", "iregs")) < 0 ||
	    (e = need(s, t, a, name, F_UREGS, PERF_SAMPLE_REGS_USER, "UREGS", "uregs")) < 0 ||
	    (e = need(s, t, a, name, F_PHYS_ADDR, PERF_SAMPLE_PHYS_ADDR, "PHYS_ADDR", "phys_addr")) < 0 ||
	    (e = need(s, t, a, name, F_DATA_PAGE_SIZE, PERF_SAMPLE_DATA_PAGE_SIZE, "DATA_PAGE_SIZE",
		      "data_page_size")) < 0 ||
	    (e = need(s, t, a, name, F_INS_LAT, PERF_SAMPLE_WEIGHT_STRUCT, "WEIGHT_STRUCT", "ins_lat")) < 0 ||
	    (e = need(s, t, a, name, F_CODE_PAGE_SIZE, PERF_SAMPLE_CODE_PAGE_SIZE, "CODE_PAGE_SIZE",
		      "code_page_size")) < 0)
		return e;
	if ((s->fields[t] & (F_SYM | F_DSO)) && !(a->sample_type & (PERF_SAMPLE_IP | PERF_SAMPLE_ADDR))) {
		if (s->user_set[t] & (F_SYM | F_DSO))
			return pv_error(EINVAL, "Display of symbols requested but neither sample IP nor sample "
					"address available: record with IP to print sym or dso");
		s->fields[t] &= ~(uint32_t)(F_SYM | F_DSO | F_SYMOFF);
	}
	if ((s->fields[t] & F_SYMOFF) && !(s->fields[t] & F_SYM))
		return pv_error(EINVAL, "Display of offsets requested but symbol is not selected: add sym to -F");
	return 0;
}

PERFEV_API int perfev_script_unprintable(const char *spec, char *buf, size_t len)
{
	int n = 0;
	size_t off = 0;
	if (len)
		buf[0] = 0;
	for (size_t i = 0; spec && i < PV_ARRAY_SIZE(unprintable); i++) {
		/* a whole name of the list, with or without its +/- or type: prefix */
		size_t l = strlen(unprintable[i].name);
		bool found = false;
		for (const char *p = spec; (p = strstr(p, unprintable[i].name)); p += l)
			if ((p == spec || strchr(",+:", p[-1])) && (p[l] == 0 || p[l] == ','))
				found = true; /* "-insn" removes it: not found */
		if (!found)
			continue;
		n++;
		if (off < len)
			off += (size_t)snprintf(buf + off, len - off, "%s'%s' stays empty: %s", off ? "; " : "",
						unprintable[i].name, unprintable[i].why);
	}
	return n;
}

int pv_script_check(struct pv_script *s)
{
	size_t n = perfev_perfdata_nr_events(s->pd);
	bool seen[PV_OUT_TYPES] = {0};
	for (size_t i = 0; i < n; i++) {
		const struct perfev_attr *a = perfev_perfdata_event_attr(s->pd, i);
		int t = pv_out_type(a->type);
		if (seen[t])
			continue;
		seen[t] = true;
		int e = pv_script_check_attr(s, a, perfev_perfdata_event_name(s->pd, i));
		if (e < 0)
			return e;
	}
	return 0;
}
