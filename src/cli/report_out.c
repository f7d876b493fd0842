/* report_out.c — perfev report's output: perf report --stdio's table
 * (Overhead or Children/Self, then one column per sort key), call graphs in
 * perf's graph style, and the same entries as JSON. */
#define _GNU_SOURCE
#include "report.h"
#include "cli.h"
#include "core/internal.h"
#include "export/export_int.h"
#include "profile/profile_int.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const struct {
	const char *name, *header;
	unsigned mask;
} sort_keys[] = {
	{"comm", "Command", PERFEV_KEY_COMM},
	/* perf's pid is the thread (sort_thread: its tid and last name); tgid
	 * (perf 6.15's) the process, named as its main thread */
	{"pid", "    Pid:Command", PERFEV_KEY_TID},
	{"tid", "    Tid:Command", PERFEV_KEY_TID},
	{"tgid", "   Tgid:Command", PERFEV_KEY_PID},
	{"dso", "Shared Object", PERFEV_KEY_DSO},
	{"sym", "Symbol", PERFEV_KEY_SYM},
	{"symbol", "Symbol", PERFEV_KEY_SYM},
	{"srcline", "Source:Line", PERFEV_KEY_SRCLINE},
	{"cpu", "CPU", PERFEV_KEY_CPU},
	{"socket", "Socket", PERFEV_KEY_SOCKET},
	{"srcfile", "Source File", PERFEV_KEY_SRCFILE},
	{"dso_size", "DSO size", PERFEV_KEY_DSO_SIZE},
	{"symbol_size", "Symbol size", PERFEV_KEY_SYM_SIZE},
	{"weight", "Weight", PERFEV_KEY_WEIGHT},
	{"local_weight", "Local Weight", PERFEV_KEY_WEIGHT},
	{"ins_lat", "INSTR Latency", PERFEV_KEY_INS_LAT},
	{"local_ins_lat", "Local INSTR Latency", PERFEV_KEY_INS_LAT},
	{"time", "Time", PERFEV_KEY_TIME},
	{"addr", "Address", PERFEV_KEY_ADDR},
	{"mem", "Memory access", PERFEV_KEY_MEM},
	{"snoop", "Snoop", PERFEV_KEY_SNOOP},
	{"tlb", "TLB access", PERFEV_KEY_TLB},
	{"locked", "Locked", PERFEV_KEY_LOCKED},
	{"blocked", "Blocked", PERFEV_KEY_BLOCKED},
	{"symbol_daddr", "Data Symbol", PERFEV_KEY_SYM_DADDR},
	{"dso_daddr", "Data Object", PERFEV_KEY_DSO_DADDR},
	{"dcacheline", "Data Cacheline", PERFEV_KEY_DCACHELINE},
	{"phys_daddr", "Data Physical Address", PERFEV_KEY_PHYS_DADDR},
	{"data_page_size", "Data Page Size", PERFEV_KEY_DATA_PAGE_SIZE},
	/* x86's perf takes them and adds nothing (arch_support_sort_key): powerpc's only */
	{"p_stage_cyc", NULL, 0},
	{"local_p_stage_cyc", NULL, 0},
	/* perf report adds it to a --sort naming "symbol": branch IPC, "-" without
	 * branches; it compares entries by symbol (sort__sym_cmp) */
	{"ipc_null", "IPC   [IPC Coverage]", PERFEV_KEY_SYM},
	/* its branch mode's: the branches' IPC in a known symbol (perfev: "-") */
	{"ipc_lbr", "IPC   [IPC Coverage]", PERFEV_KEY_SYM},
};

bool report_is_sort_key(const char *name)
{
	if (!strcmp(name, "overhead") || !strcmp(name, "sample") || !strcmp(name, "period"))
		return true; /* (columns --sort takes: see cmd_report.c's sort_as_fields) */
	for (size_t i = 0; i < PV_ARRAY_SIZE(sort_keys); i++)
		if (!strcmp(name, sort_keys[i].name))
			return true;
	return false;
}

int report_parse_sort(struct report_view *v, const char *list)
{
	v->nr_keys = 0;
	v->key_mask = 0;
	char *copy = strdup(list), *save = NULL;
	size_t given = 0;
	for (char *k = strtok_r(copy, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
		while (*k == ' ')
			k++;
		size_t i;
		for (i = 0; i < PV_ARRAY_SIZE(sort_keys); i++)
			if (strcmp(k, sort_keys[i].name) == 0)
				break;
		given++;
		if (i < PV_ARRAY_SIZE(sort_keys) && (sort_keys[i].mask & REPORT_MEM_KEYS) && !v->mem_mode) {
			cli_error("report", "sort key '%s' is one of perf's memory keys: add --mem-mode "
				  "(perf report --mem-mode, for samples with PERF_SAMPLE_DATA_SRC)", k);
			free(copy);
			return -EINVAL;
		}
		if (i == PV_ARRAY_SIZE(sort_keys)) {
			cli_error("report", "unknown sort key '%s': use " REPORT_SORT_KEYS
				  " (e.g. --sort comm,dso,sym)", k);
			free(copy);
			return -EINVAL;
		}
		const char *name = !strcmp(sort_keys[i].name, "symbol") ? "sym" : sort_keys[i].name;
		/* each key once: by its entries (mask), but weight and local_weight,
		 * ins_lat and local_ins_lat are two columns of one key, and the IPC
		 * columns always come */
		bool own_column = strstr(name, "weight") || strstr(name, "ins_lat") || !strncmp(name, "ipc_", 4);
		bool taken = !sort_keys[i].header || (!own_column && (v->key_mask & sort_keys[i].mask));
		for (size_t j = 0; j < v->nr_keys && !taken; j++)
			taken = !strcmp(v->keys[j], name) && strncmp(name, "ipc_", 4) != 0;
		if (taken)
			continue;
		if (v->nr_keys == REPORT_MAX_KEYS)
			break;
		v->keys[v->nr_keys++] = name;
		v->key_mask |= sort_keys[i].mask;
	}
	free(copy);
	if (!given) {
		cli_error("report", "empty --sort list: give keys, e.g. --sort sym");
		return -EINVAL;
	}
	return 0;
}

/* The widths perf gives these keys' columns whatever their values (0: by the values). */
static size_t fixed_width(const char *key)
{
	static const struct {
		const char *key;
		size_t width;
	} w[] = {{"weight", 12}, {"local_weight", 12}, {"ins_lat", 13}, {"local_ins_lat", 13},
		 {"time", 12}, {"addr", 18}, {"mem", 24}, {"snoop", 12}, {"tlb", 22}, {"locked", 6},
		 {"blocked", 10}, {"symbol_daddr", 22}, {"dcacheline", 22}, {"phys_daddr", 22},
		 {"data_page_size", 22}};
	for (size_t i = 0; i < PV_ARRAY_SIZE(w); i++)
		if (!strcmp(key, w[i].key))
			return w[i].width;
	return 0;
}

/* The keys perf prints without padding ("%.*s", or a symbol's form): a
 * last column of them has no trailing blanks (the others pad to the next). */
static bool unpadded(const char *key)
{
	static const char *const k[] = {"sym", "srcline", "srcfile", "time", "locked", "blocked", "dcacheline",
					"symbol_daddr"};
	for (size_t i = 0; i < PV_ARRAY_SIZE(k); i++)
		if (!strcmp(key, k[i]))
			return true;
	return false;
}

static int value_field(const char *f)
{
	static const char *const names[] = {"overhead_children", "overhead", "sample", "period"};
	static const int types[] = {COL_CHILDREN, COL_SELF, COL_SAMPLES, COL_PERIOD};
	for (size_t i = 0; i < PV_ARRAY_SIZE(names); i++)
		if (!strcmp(f, names[i]))
			return types[i];
	return -1;
}

int report_parse_fields(struct report_view *v, const char *fields, bool sort_given)
{
	struct pv_buf keys = PV_BUF_INIT;
	char *copy = strdup(fields), *save = NULL;
	for (char *f = strtok_r(copy, ",", &save); f; f = strtok_r(NULL, ",", &save)) {
		while (*f == ' ')
			f++;
		if (value_field(f) >= 0)
			continue;
		size_t i;
		for (i = 0; i < PV_ARRAY_SIZE(sort_keys); i++)
			if (!strcmp(f, sort_keys[i].name))
				break;
		if (i == PV_ARRAY_SIZE(sort_keys)) {
			cli_error("report", "unknown field '%s' in -F: use overhead, overhead_children, sample, "
				  "period, " REPORT_SORT_KEYS, f);
			free(copy);
			pv_buf_free(&keys);
			return -EINVAL;
		}
		pv_buf_printf(&keys, "%s%s", keys.len ? "," : "", f);
	}
	free(copy);
	/* perf: --sort's keys first (shown after the fields), then the fields' */
	const char *first[REPORT_MAX_KEYS];
	size_t nfirst = 0;
	if (sort_given)
		for (size_t k = 0; k < v->nr_keys; k++)
			first[nfirst++] = v->keys[k];
	struct report_view fv = *v;
	int r = 0;
	if (keys.len) {
		r = report_parse_sort(&fv, keys.data);
	} else {
		fv.nr_keys = 0;
		fv.key_mask = 0;
	}
	pv_buf_free(&keys);
	if (r < 0)
		return r;
	v->nr_sort_first = 0;
	for (size_t k = 0; k < nfirst; k++) {
		v->sort_first[v->nr_sort_first++] = first[k];
		bool have = false;
		for (size_t j = 0; j < fv.nr_keys; j++)
			have |= !strcmp(fv.keys[j], first[k]);
		if (!have && fv.nr_keys < REPORT_MAX_KEYS)
			fv.keys[fv.nr_keys++] = first[k];
	}
	v->nr_keys = fv.nr_keys;
	memcpy(v->keys, fv.keys, sizeof(v->keys));
	v->key_mask = fv.key_mask | (sort_given ? v->key_mask : 0);
	return 0;
}

/* The value perf's elision names for a key, or NULL when the key is not elided. */
static const char *elided(const struct report_view *v, const char *key)
{
	if (!strcmp(key, "comm"))
		return v->only_comm;
	if (!strcmp(key, "dso"))
		return v->only_dso;
	if (!strcmp(key, "sym"))
		return v->only_sym;
	return NULL;
}

/* Whether column c is left out by perf's elision (never all the keys). */
static bool col_hidden(const struct report_view *v, size_t c)
{
	if (v->cols[c].type != COL_KEY || !elided(v, v->cols[c].key))
		return false;
	for (size_t k = 0; k < v->nr_cols; k++)
		if (v->cols[k].type == COL_KEY && !elided(v, v->cols[k].key))
			return true;
	return false; /* perf shows them all again rather than none */
}

void report_set_columns(struct report_view *v, const char *fields, bool samples, bool period)
{
	v->nr_cols = 0;
	v->self_header = !fields && v->children ? "Self" : "Overhead";
	if (!fields) {
		if (v->children)
			v->cols[v->nr_cols++] = (struct report_col){COL_CHILDREN, NULL};
		v->cols[v->nr_cols++] = (struct report_col){COL_SELF, NULL};
		if (samples)
			v->cols[v->nr_cols++] = (struct report_col){COL_SAMPLES, NULL};
		if (period)
			v->cols[v->nr_cols++] = (struct report_col){COL_PERIOD, NULL};
		for (size_t k = 0; k < v->nr_keys; k++)
			v->cols[v->nr_cols++] = (struct report_col){COL_KEY, v->keys[k]};
		return;
	}
	if (v->fields_from_sort && v->children) {
		v->cols[v->nr_cols++] = (struct report_col){COL_CHILDREN, NULL};
		v->self_header = "Self";
	}
	v->nr_sort_cols = 0;
	if (v->fields_from_sort && v->sort_list) {
		/* perf's setup_overhead: "overhead" (and "overhead_children") put
		 * first unless the list names it; the entries sorted in that order */
		if (v->children)
			v->sort_cols[v->nr_sort_cols++] = (struct report_col){COL_CHILDREN, NULL};
		char *list = strdup(v->sort_list), *save = NULL;
		bool named = false;
		for (char *f = strtok_r(list, ",", &save); f; f = strtok_r(NULL, ",", &save))
			named |= !strcmp(f, "overhead");
		if (!named)
			v->sort_cols[v->nr_sort_cols++] = (struct report_col){COL_SELF, NULL};
		free(list);
		list = strdup(v->sort_list);
		save = NULL;
		for (char *f = strtok_r(list, ",", &save); f && v->nr_sort_cols < PV_ARRAY_SIZE(v->sort_cols);
		     f = strtok_r(NULL, ",", &save)) {
			int t = value_field(f);
			for (size_t k = 0; t < 0 && k < v->nr_keys; k++)
				if (!strcmp(v->keys[k], f) || (!strcmp(f, "symbol") && !strcmp(v->keys[k], "sym")))
					v->sort_cols[v->nr_sort_cols++] = (struct report_col){COL_KEY, v->keys[k]};
			if (t >= 0)
				v->sort_cols[v->nr_sort_cols++] = (struct report_col){t, NULL};
		}
		free(list);
	}
	/* the fields in their order (checked by report_parse_fields), then --sort's other keys */
	char *copy = strdup(fields), *save = NULL;
	for (char *f = strtok_r(copy, ",", &save); f && v->nr_cols < PV_ARRAY_SIZE(v->cols);
	     f = strtok_r(NULL, ",", &save)) {
		while (*f == ' ')
			f++;
		int t = value_field(f);
		if (t >= 0) {
			v->cols[v->nr_cols++] = (struct report_col){t, NULL};
			continue;
		}
		for (size_t k = 0; k < v->nr_keys; k++)
			if (!strcmp(v->keys[k], f) || (!strcmp(f, "symbol") && !strcmp(v->keys[k], "sym")))
				v->cols[v->nr_cols++] = (struct report_col){COL_KEY, v->keys[k]};
	}
	free(copy);
	for (size_t k = 0; k < v->nr_keys && v->nr_cols < PV_ARRAY_SIZE(v->cols); k++) {
		bool shown = false;
		for (size_t c = 0; c < v->nr_cols; c++)
			shown |= v->cols[c].type == COL_KEY && v->cols[c].key == v->keys[k];
		if (!shown)
			v->cols[v->nr_cols++] = (struct report_col){COL_KEY, v->keys[k]};
	}
}

static const char *header_of(const char *key)
{
	for (size_t i = 0; i < PV_ARRAY_SIZE(sort_keys); i++)
		if (strcmp(key, sort_keys[i].name) == 0)
			return sort_keys[i].header;
	return key;
}

const char *report_basename(const char *path)
{
	if (!path)
		return "[unknown]";
	const char *s = strrchr(path, '/');
	return s && s[1] ? s + 1 : path;
}

#define shown_ip report_shown_ip

/* One field of data_src as perf's perf_mem__*_scnprintf words it: the text
 * after tag ("LVL", "SNP", "TLB", "LCK", "BLK") in perf script's form. */
static void data_src_field(uint64_t data_src, const char *tag, char *buf, size_t len)
{
	char all[512], t[8];
	perfev_data_src_str(all, sizeof(all), data_src);
	snprintf(t, sizeof(t), "|%s ", tag);
	const char *at = strstr(all, t);
	const char *s = at ? at + strlen(t) : "";
	size_t n = strcspn(s, "|");
	snprintf(buf, len, "%.*s", (int)n, s);
}

/* perf's get_page_size_name: "N/A", else unit_number__scnprintf ("4K"). */
static void page_size_name(uint64_t n, char *buf, size_t len)
{
	if (!n) {
		snprintf(buf, len, "N/A");
		return;
	}
	static const char unit[] = "BKMG";
	int i = 0;
	while (n / 1024 > 1 && i < 3)
		n /= 1024, i++;
	snprintf(buf, len, "%llu%c", (unsigned long long)n, unit[i]);
}

/* The text of one column of an entry. */
static void column(const struct perfev_profile_entry *e, const char *key, char *buf, size_t len)
{
	if (!strcmp(key, "comm"))
		snprintf(buf, len, "%s", e->comm ? e->comm : "[unknown]");
	else if (!strcmp(key, "pid") || !strcmp(key, "tid"))
		snprintf(buf, len, "%7d:%s", e->tid,
			 e->thread_comm ? e->thread_comm : e->comm ? e->comm : "[unknown]");
	else if (!strcmp(key, "tgid"))
		snprintf(buf, len, "%7d:%s", e->pid,
			 e->process_comm ? e->process_comm : e->comm ? e->comm : "[unknown]");
	else if (!strcmp(key, "dso"))
		snprintf(buf, len, "%s", report_basename(e->dso));
	else if (!strcmp(key, "sym") || !strcmp(key, "symbol")) {
		if (e->symbol)
			snprintf(buf, len, "[%c] %s%s", e->kernel ? 'k' : '.', e->symbol,
				 e->inlined ? " (inlined)" : "");
		else
			snprintf(buf, len, "[%c] %#.16llx", e->kernel ? 'k' : '.', (unsigned long long)shown_ip(e));
	} else if (!strcmp(key, "cpu")) {
		snprintf(buf, len, "%3.3d", e->cpu); /* perf: "%*.*d" in the header's width, -1 "-001" */
	} else if (!strcmp(key, "dso_size")) {
		if (e->dso_size >= 0) /* perf: "%*d" of map__size, in the header's width */
			snprintf(buf, len, "%8d", (int)e->dso_size);
		else
			snprintf(buf, len, "%8s", "unknown");
	} else if (!strcmp(key, "symbol_size")) {
		if (e->sym_size >= 0) /* perf: "%*d" of symbol__size, in the header's width */
			snprintf(buf, len, "%11d", (int)e->sym_size);
		else
			snprintf(buf, len, "%11s", "unknown");
	} else if (!strcmp(key, "weight") || !strcmp(key, "local_weight")) {
		/* perf: "%-*llu" of the entry's first sample's weight, times its samples for weight */
		uint64_t w = e->weight * (key[0] == 'w' ? e->self[PERFEV_VALUE_SAMPLES] : 1);
		snprintf(buf, len, "%-12llu", (unsigned long long)w);
	} else if (!strcmp(key, "ins_lat") || !strcmp(key, "local_ins_lat")) {
		/* perf: "%-*u" of a u64 (its low 32 bits, on x86-64) */
		uint64_t w = e->ins_lat * (key[0] == 'i' ? e->self[PERFEV_VALUE_SAMPLES] : 1);
		snprintf(buf, len, "%-*u", key[0] == 'i' ? 13 : 19, (unsigned)w);
	} else if (!strcmp(key, "time")) {
		/* perf: timestamp__scnprintf_usec cut to the column's 12 characters ("%-.*s") */
		char t[48];
		snprintf(t, sizeof(t), "%llu.%06llu", (unsigned long long)(e->time / 1000000000u),
			 (unsigned long long)(e->time % 1000000000u / 1000u));
		snprintf(buf, len, "%-.12s", t);
	} else if (!strcmp(key, "addr")) {
		snprintf(buf, len, "%-#18llx", (unsigned long long)e->addr); /* perf: "%-#*llx" */
	} else if (!strcmp(key, "mem") || !strcmp(key, "snoop") || !strcmp(key, "tlb") || !strcmp(key, "locked") ||
		   !strcmp(key, "blocked")) {
		static const char *const tags[][2] = {{"mem", "LVL"}, {"snoop", "SNP"}, {"tlb", "TLB"},
						      {"locked", "LCK"}, {"blocked", "BLK"}};
		char f[256];
		for (size_t i = 0; i < PV_ARRAY_SIZE(tags); i++)
			if (!strcmp(key, tags[i][0]))
				data_src_field(e->mem.data_src, tags[i][1], f, sizeof(f));
		/* perf: "%-*s", locked and blocked "%.*s" */
		snprintf(buf, len, "%-*s", key[0] == 'l' || key[0] == 'b' ? 0 : (int)fixed_width(key), f);
	} else if (!strcmp(key, "symbol_daddr")) { /* (data symbols are not resolved: the address) */
		snprintf(buf, len, "[%c] %#.16llx", e->kernel ? 'k' : '.', (unsigned long long)e->mem.addr);
	} else if (!strcmp(key, "dso_daddr")) {
		snprintf(buf, len, "%s", e->mem.dso ? report_basename(e->mem.dso) : "[unknown]");
	} else if (!strcmp(key, "dcacheline")) {
		/* perf: [s] shared file data, [X] outside any map, else the sample's level */
		char level = e->mem.shared ? 's' : !e->mem.dso ? 'X' : e->kernel ? 'k' : '.';
		snprintf(buf, len, "[%c] %#.16llx", level, (unsigned long long)(e->mem.dso_addr & ~63ull));
	} else if (!strcmp(key, "phys_daddr")) {
		snprintf(buf, len, "[%c] %-#.16llx", e->kernel ? 'k' : '.', (unsigned long long)e->mem.phys_addr);
	} else if (!strcmp(key, "data_page_size")) {
		char f[32];
		page_size_name(e->mem.data_page_size, f, sizeof(f));
		snprintf(buf, len, "%-22s", f);
	} else if (!strcmp(key, "ipc_null")) {
		snprintf(buf, len, "%s", "-      -            ");
	} else if (!strcmp(key, "ipc_lbr")) {
		/* perf's IPC of the target symbol from its annotation, which it
		 * has not made here: 0 */
		snprintf(buf, len, "%s", e->symbol ? "0.00  [  0.0%]" : "-");
	} else if (!strcmp(key, "srcfile")) {
		snprintf(buf, len, "%s", e->source_file ? e->source_file : "");
	} else if (!strcmp(key, "socket")) {
		snprintf(buf, len, "%6.3d", e->socket); /* perf: "%*.*d", width, width - 3 */
	} else if (!strcmp(key, "srcline")) {
		if (e->srcfile && !e->line) /* "symbol+offset": no line information */
			snprintf(buf, len, "%s", e->srcfile);
		else if (e->srcfile)
			snprintf(buf, len, "%s:%u", report_basename(e->srcfile), e->line);
		else
			snprintf(buf, len, "%s[%llx]", report_basename(e->dso), (unsigned long long)e->rel_ip);
	} else
		snprintf(buf, len, "?");
}

void report_samples_unit(uint64_t n, char *buf, size_t len)
{
	/* perf's convert_unit: "Samples: 6K", "Samples: 191 " (a blank for no unit) */
	const char *units = " KMG";
	int u = 0;
	while (n > 1000 && u < 3)
		n /= 1000, u++;
	snprintf(buf, len, "%llu%c", (unsigned long long)n, units[u]);
}

static double pct(uint64_t v, uint64_t all)
{
	return all ? 100.0 * (double)v / (double)all : 0.0;
}

/* ---- the table ----------------------------------------------------------------
 * A row is an entry of any member of the section (perf matches the members'
 * entries to the leader's and adds the others as dummies); its values are
 * each member's, as percentages of that member's total. */
struct row {
	const struct perfev_profile_entry *e; /* the key's description */
	long lead;                            /* index in the leader's entries, -1: none */
	uint32_t depth;                       /* of the leader's graph */
	uint64_t thread;                      /* the leader's entry's thread; UINT64_MAX: none */
	uint64_t *self, *total;               /* per member */
	uint64_t *samples, *period;           /* per member: self's */
};

/* What makes entries of different members' profiles the same row: the
 * keyed fields by content (each profile interns its own strings). */
static uint64_t row_key(const struct perfev_profile_entry *e, unsigned keys)
{
	struct pv_buf b = PV_BUF_INIT;
	if (keys & (PERFEV_KEY_COMM | PERFEV_KEY_PID | PERFEV_KEY_TID))
		pv_buf_printf(&b, "%s", e->comm ? e->comm : "");
	pv_buf_printf(&b, "|%d|%d|%d|%d|%lld|%lld|%s|%s|%s|%u|%d%d", e->pid, e->tid, e->cpu, e->socket,
		      (long long)e->dso_size, (long long)e->sym_size, e->dso ? e->dso : "",
		      e->symbol ? e->symbol : "", e->srcfile ? e->srcfile : "", e->line,
		      e->kernel && (e->symbol || (e->dso && strcmp(e->dso, "[unknown]"))), e->inlined);
	if (keys & PERFEV_KEY_SRCFILE)
		pv_buf_printf(&b, "|%s", e->source_file ? e->source_file : "");
	if (keys & REPORT_MEM_KEYS)
		pv_buf_printf(&b, "|%llx|%llx|%llx|%llx|%llx|%s|%d", (unsigned long long)e->mem.data_src,
			      (unsigned long long)e->mem.addr, (unsigned long long)e->mem.dso_addr,
			      (unsigned long long)e->mem.phys_addr, (unsigned long long)e->mem.data_page_size,
			      e->mem.dso ? e->mem.dso : "", e->mem.shared);
	if (keys & (PERFEV_KEY_WEIGHT | PERFEV_KEY_INS_LAT | PERFEV_KEY_P_STAGE_CYC | PERFEV_KEY_TIME | PERFEV_KEY_ADDR))
		pv_buf_printf(&b, "|%llu|%llu|%llu|%llu|%llx", (unsigned long long)e->weight,
			      (unsigned long long)e->ins_lat, (unsigned long long)e->p_stage_cyc,
			      (unsigned long long)e->time, (unsigned long long)e->addr);
	if (!e->symbol && (keys & PERFEV_KEY_SYM)) /* perf's entries of call chains apart */
		pv_buf_printf(&b, "|%llx", (unsigned long long)shown_ip(e));
	else if ((keys & PERFEV_KEY_SRCLINE) && !e->srcfile) /* (keys without an address: none) */
		pv_buf_printf(&b, "|%llx", (unsigned long long)e->rel_ip);
	uint64_t h = pv_hash_bytes(b.data ? b.data : "", b.len);
	pv_buf_free(&b);
	return h;
}

struct order {
	const struct report_view *v;
	size_t nm;
	bool depth; /* children ties by call depth (perf does with call graphs) */
	bool tree;  /* full ties stay in the order given (perf's output tree) */
};

/* --percentage relative over the rows left shown: each member's total
 * (all), the period and (samples non-NULL) the samples of those rows. */
static void shown_totals(const struct row *rows, size_t nr, size_t nm, uint64_t *all, uint64_t *period,
			 uint64_t *samples)
{
	*period = 0;
	if (samples)
		*samples = 0;
	for (size_t m = 0; m < nm; m++)
		all[m] = 0;
	for (size_t r = 0; r < nr; r++)
		for (size_t m = 0; m < nm; m++) {
			all[m] += rows[r].self[m];
			*period += rows[r].period[m];
			if (samples)
				*samples += rows[r].samples[m];
		}
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a > b ? -1 : a < b;
}

/* perf's order of equal values: the sort keys in the order given, names
 * ascending, unknown DSOs and symbols last. */
static int cmp_key(const struct perfev_profile_entry *a, const struct perfev_profile_entry *b, const char *key)
{
	if (!strcmp(key, "comm"))
		return strcmp(a->comm ? a->comm : "", b->comm ? b->comm : "");
	if (!strcmp(key, "tgid"))
		return (a->pid > b->pid) - (a->pid < b->pid);
	if (!strcmp(key, "pid") || !strcmp(key, "tid"))
		return (a->tid > b->tid) - (a->tid < b->tid);
	if (!strcmp(key, "cpu"))
		return (a->cpu > b->cpu) - (a->cpu < b->cpu);
	if (!strcmp(key, "socket"))
		return (a->socket > b->socket) - (a->socket < b->socket);
	if (!strcmp(key, "dso_size"))
		return (a->dso_size > b->dso_size) - (a->dso_size < b->dso_size);
	/* perf: the weights (the first sample's) descending, times and addresses ascending */
	if (!strcmp(key, "weight") || !strcmp(key, "local_weight"))
		return (a->weight < b->weight) - (a->weight > b->weight);
	if (!strcmp(key, "ins_lat") || !strcmp(key, "local_ins_lat"))
		return (a->ins_lat < b->ins_lat) - (a->ins_lat > b->ins_lat);
	if (!strcmp(key, "time"))
		return (a->time > b->time) - (a->time < b->time);
	if (!strcmp(key, "addr"))
		return ((int64_t)a->addr > (int64_t)b->addr) - ((int64_t)a->addr < (int64_t)b->addr);
	if (!strcmp(key, "mem") || !strcmp(key, "snoop") || !strcmp(key, "tlb") || !strcmp(key, "locked") ||
	    !strcmp(key, "blocked")) { /* perf: the field's bits ascending */
		union perf_mem_data_src x = {.val = a->mem.data_src}, y = {.val = b->mem.data_src};
		uint64_t fx = key[0] == 'm' ? x.mem_lvl : key[0] == 's' ? x.mem_snoop : key[0] == 't' ? x.mem_dtlb
			    : key[0] == 'l' ? x.mem_lock : x.mem_blk;
		uint64_t fy = key[0] == 'm' ? y.mem_lvl : key[0] == 's' ? y.mem_snoop : key[0] == 't' ? y.mem_dtlb
			    : key[0] == 'l' ? y.mem_lock : y.mem_blk;
		return (fx > fy) - (fx < fy);
	}
	if (!strcmp(key, "symbol_daddr"))
		return ((int64_t)a->mem.addr > (int64_t)b->mem.addr) - ((int64_t)a->mem.addr < (int64_t)b->mem.addr);
	if (!strcmp(key, "phys_daddr"))
		return (a->mem.phys_addr > b->mem.phys_addr) - (a->mem.phys_addr < b->mem.phys_addr);
	if (!strcmp(key, "data_page_size"))
		return (a->mem.data_page_size > b->mem.data_page_size) - (a->mem.data_page_size < b->mem.data_page_size);
	if (!strcmp(key, "dso_daddr")) { /* perf: unknown first, then names descending */
		if (!a->mem.dso || !b->mem.dso)
			return !b->mem.dso - !a->mem.dso;
		return -strcmp(report_basename(a->mem.dso), report_basename(b->mem.dso));
	}
	if (!strcmp(key, "dcacheline")) { /* perf: kernel first, mapped first, lines ascending */
		if (a->kernel != b->kernel)
			return b->kernel - a->kernel;
		if (!a->mem.dso != !b->mem.dso)
			return !a->mem.dso - !b->mem.dso;
		uint64_t x = a->mem.dso_addr & ~63ull, y = b->mem.dso_addr & ~63ull;
		return (x > y) - (x < y);
	}
	if (!strcmp(key, "symbol_size")) /* (unknown counts as 0) */
		return (PV_MAX(a->sym_size, 0) > PV_MAX(b->sym_size, 0)) - (PV_MAX(a->sym_size, 0) < PV_MAX(b->sym_size, 0));
	if (!strcmp(key, "dso")) {
		bool ua = !a->dso || !strcmp(a->dso, "[unknown]"), ub = !b->dso || !strcmp(b->dso, "[unknown]");
		if (ua || ub)
			return ua - ub;
		return strcmp(report_basename(a->dso), report_basename(b->dso));
	}
	if (!strcmp(key, "sym") || !strcmp(key, "symbol")) {
		if (!a->symbol || !b->symbol)
			return !a->symbol - !b->symbol;
		return strcmp(a->symbol, b->symbol);
	}
	char x[512], y[512];
	column(a, key, x, sizeof(x));
	column(b, key, y, sizeof(y));
	return strcmp(x, y);
}

static int cmp_row(const void *pa, const void *pb, void *arg)
{
	const struct order *o = arg;
	const struct row *a = pa, *b = pb;
	int c = 0;
	const struct report_view *v = o->v;
	/* perf: --sort keys given with -F first, then the columns in order, then the keys */
	for (size_t k = 0; k < v->nr_sort_first && !c; k++)
		c = cmp_key(a->e, b->e, v->sort_first[k]);
	/* (the --sort list's order when it named columns, else the columns') */
	const struct report_col *cols = v->nr_sort_cols ? v->sort_cols : v->cols;
	size_t ncols = v->nr_sort_cols ? v->nr_sort_cols : v->nr_cols;
	for (size_t i = 0; i < ncols && !c; i++) {
		switch (cols[i].type) {
		case COL_CHILDREN:
			c = cmp_u64(a->total[0], b->total[0]); /* the leader's only (perf's __hpp__sort_acc) */
			/* perf puts the caller above its callee, within one thread */
			if (!c && o->depth && a->thread == b->thread && a->thread != UINT64_MAX)
				c = v->graph == GRAPH_CALLEE ? (a->depth > b->depth) - (a->depth < b->depth)
							     : (a->depth < b->depth) - (a->depth > b->depth);
			break;
		case COL_SELF:
			for (size_t m = 0; m < o->nm && !c; m++)
				c = cmp_u64(a->self[m], b->self[m]);
			break;
		case COL_SAMPLES:
			for (size_t m = 0; m < o->nm && !c; m++)
				c = cmp_u64(a->samples[m], b->samples[m]);
			break;
		case COL_PERIOD:
			for (size_t m = 0; m < o->nm && !c; m++)
				c = cmp_u64(a->period[m], b->period[m]);
			break;
		case COL_KEY:
			c = cmp_key(a->e, b->e, cols[i].key);
			break;
		}
	}
	for (size_t k = 0; k < v->nr_keys && !c; k++)
		c = cmp_key(a->e, b->e, v->keys[k]);
	if (!c && !o->tree) { /* perf: by address, the difference taken as signed */
		int64_t d = (int64_t)(shown_ip(a->e) - shown_ip(b->e));
		c = (d > 0) - (d < 0);
	}
	return c;
}

/* perf's collapsed tree of entries (hists__collapse_resort), walked in
 * order: its entries by the sort keys' comparisons (comm, dso by name with
 * the unknown last, symbols before unknown ones and by address, unknown
 * ones by address); whether the keys are ones it is known for. */
static bool unknown_dso(const char *dso)
{
	return !dso || !strcmp(dso, "[unknown]");
}

static bool collapse_known(const struct report_view *v)
{
	for (size_t k = 0; k < v->nr_keys; k++)
		if (strcmp(v->keys[k], "comm") && strcmp(v->keys[k], "dso") && strcmp(v->keys[k], "sym") &&
		    strcmp(v->keys[k], "symbol"))
			return false;
	return v->nr_sort_first == 0;
}

static int cmp_collapse(const void *pa, const void *pb, void *arg)
{
	const struct report_view *v = arg;
	const struct perfev_profile_entry *x = ((const struct row *)pa)->e, *y = ((const struct row *)pb)->e;
	int c = 0;
	for (size_t k = 0; k < v->nr_keys && !c; k++) {
		if (!strcmp(v->keys[k], "comm")) {
			c = strcmp(x->comm ? x->comm : "", y->comm ? y->comm : "");
			continue;
		}
		/* dso, and sym (perf's sort__sym_cmp compares the objects first) */
		bool ux = unknown_dso(x->dso), uy = unknown_dso(y->dso);
		c = ux != uy ? ux - uy : ux ? 0 : strcmp(report_basename(x->dso), report_basename(y->dso));
		if (c || !strcmp(v->keys[k], "dso"))
			continue;
		if (!x->symbol != !y->symbol) {
			c = !x->symbol - !y->symbol;
			continue;
		}
		/* perf's _sort__addr_cmp: the difference taken as signed */
		uint64_t ax = x->symbol ? x->rel_ip : shown_ip(x), ay = y->symbol ? y->rel_ip : shown_ip(y);
		int64_t d = (int64_t)(ax - ay);
		c = (d > 0) - (d < 0);
	}
	return c;
}

/* perf sizes the Command column by the length of each entry's thread's
 * name as it is at the end (thread__comm_len), so a name the thread had
 * before exec ("perf-exec") is cut to it. Here: each thread's name at the
 * end of the file as the loader saw it (else the last group of its tid),
 * over the section's profiles. */
static size_t comm_width(const struct report_section *s, const char *first_comms)
{
	size_t w = 0;
	for (size_t m = 0; m < s->nr; m++) {
		const struct perfev_profile *p = s->p[m];
		struct perfev_profile_node root, g;
		struct pv_keymap last = {0}; /* thread -> its last name's length + 1 */
		if (perfev_profile_node(p, 0, &root) < 0)
			continue;
		for (uint32_t id = root.first_child; id; id = g.next_sibling) {
			if (perfev_profile_node(p, id, &g) < 0)
				break;
			if (first_comms && !pv_list_has(first_comms, g.comm ? g.comm : "[unknown]"))
				continue; /* (its entries hidden) */
			size_t len = g.comm ? strlen(g.comm) : strlen("[unknown]");
			const struct pv_group *pg = &p->groups[p->nodes[id].what & ~PV_NODE_GROUP_BIT];
			if (pg->thread_comm) /* the loader knew the thread's last name */
				len = strlen(pv_strtab_get(&p->strs, pg->thread_comm));
			uint64_t key = (uint64_t)(uint32_t)g.pid << 32 | (uint32_t)g.tid;
			if (g.tid < 0 || pv_keymap_put(&last, key, (uint32_t)len + 1) < 0)
				w = len > w ? len : w; /* not by thread: every name counts */
		}
		for (size_t i = 0; i < last.cap; i++)
			if (last.vals[i] && last.vals[i] - 1 > w)
				w = last.vals[i] - 1;
		pv_keymap_free(&last);
	}
	return w;
}

bool report_header_shown;

void report_display_hint(FILE *out)
{
	if (!report_header_shown)
		fputs("# To display the perf.data header info, please use --header/--header-only options.\n#\n", out);
}

void report_print_preamble(const struct report_view *v, FILE *out)
{
	report_display_hint(out);
	static const char *const names[] = {"comm", "dso", "symbol"};
	for (size_t c = 0; c < v->nr_cols; c++) {
		const char *x = v->cols[c].type == COL_KEY ? elided(v, v->cols[c].key) : NULL;
		if (x)
			fprintf(out, "# %s: %s\n", names[!strcmp(v->cols[c].key, "dso") ? 1 :
							  !strcmp(v->cols[c].key, "sym") ? 2 : 0], x);
	}
	fprintf(out, "#\n# Total Lost Samples: %llu\n#\n", (unsigned long long)v->lost);
}

int report_print_stdio(const struct report_section *s, const struct report_view *v, FILE *out)
{
	size_t nm = s->nr;
	struct perfev_profile_entry *e[REPORT_MAX_MEMBERS] = {0};
	size_t ne[REPORT_MAX_MEMBERS] = {0};
	struct row *rows = NULL;
	uint64_t *vals = NULL;
	size_t nr = 0, cap = 0;
	struct pv_keymap kmap = {0};
	int ret = 0;
	uint64_t all[REPORT_MAX_MEMBERS], period = 0, samples = s->samples;
	/* perf --mem-mode: the samples' weights ("cost") are their periods */
	enum perfev_profile_value pv = v->mem_mode ? PERFEV_VALUE_WEIGHT : PERFEV_VALUE_PERIOD;
	for (size_t m = 0; m < nm; m++) {
		/* all entries: perf sizes the columns before --percent-limit hides rows */
		if (perfev_profile_flat(s->p[m], v->key_mask | PERFEV_KEY_SPLIT_UNRESOLVED, v->value, v->children, 0,
					&e[m], &ne[m]) < 0) {
			ret = cli_error("report", "%s", perfev_errmsg());
			goto out;
		}
		/* perf counts filtered samples in its totals (not --time's), unless
		 * --percentage relative */
		bool abs_ = !v->relative;
		all[m] = perfev_profile_total(s->p[m], v->value) + abs_ * perfev_profile_hidden(s->p[m], v->value);
		period += perfev_profile_total(s->p[m], pv) + abs_ * perfev_profile_hidden(s->p[m], pv);
		if (v->relative)
			samples -= PV_MIN(samples, perfev_profile_filtered(s->p[m]));
	}
	/* perf's call-graph percentages stay of every sample with --percentage relative */
	uint64_t shown0 = nm ? all[0] + (v->relative ? perfev_profile_hidden(s->p[0], v->value) : 0) : 0;
	for (size_t m = 0; m < nm; m++) {
		for (size_t i = 0; i < ne[m]; i++) {
			uint64_t k = row_key(&e[m][i], v->key_mask);
			uint32_t at = m ? pv_keymap_get(&kmap, k) : 0;
			if (!at) {
				if (pv_grow(&rows, &cap, nr + 1, sizeof(*rows)) < 0)
					goto oom;
				rows[nr] = (struct row){.e = &e[m][i], .lead = m ? -1 : (long)i};
				if (nm > 1 && pv_keymap_put(&kmap, k, (uint32_t)nr + 1) < 0)
					goto oom;
				at = (uint32_t)++nr;
			}
		}
	}
	vals = calloc(nr ? nr * nm * 4 : 1, sizeof(*vals));
	if (!vals)
		goto oom;
	for (size_t r = 0; r < nr; r++) {
		rows[r].self = vals + r * nm * 4;
		rows[r].total = rows[r].self + nm;
		rows[r].samples = rows[r].total + nm;
		rows[r].period = rows[r].samples + nm;
	}
	for (size_t m = 0; m < nm; m++)
		for (size_t i = 0; i < ne[m]; i++) {
			uint32_t at = nm > 1 ? pv_keymap_get(&kmap, row_key(&e[m][i], v->key_mask))
					     : (uint32_t)i + 1;
			if (!at)
				continue;
			rows[at - 1].self[m] = e[m][i].self[v->value];
			rows[at - 1].total[m] = e[m][i].total[v->value];
			rows[at - 1].samples[m] = e[m][i].self[PERFEV_VALUE_SAMPLES];
			rows[at - 1].period[m] = e[m][i].self[pv];
		}
	if (v->first_comms) { /* perf hides its entries by their first sample's thread */
		size_t keep = 0;
		for (size_t r = 0; r < nr; r++)
			if (pv_list_has(v->first_comms, rows[r].e->first_comm ? rows[r].e->first_comm
										: "[unknown]"))
				rows[keep++] = rows[r];
		nr = keep;
		if (v->relative) /* perf: of the entries shown, their branches whole */
			shown_totals(rows, nr, nm, all, &period, &samples);
	}
	if (v->symbol_filter) { /* perf's hists__filter_by_symbol: rows of a symbol named so */
		size_t keep = 0;
		for (size_t r = 0; r < nr; r++)
			if (rows[r].e->symbol && strstr(rows[r].e->symbol, v->symbol_filter))
				rows[keep++] = rows[r];
		nr = keep;
		if (v->relative) /* of the rows shown; the Samples line stays */
			shown_totals(rows, nr, nm, all, &period, NULL);
	}
	struct report_graphs *graphs = v->graph != GRAPH_NONE ? report_graphs_build(s->p[0], v, e[0], ne[0]) : NULL;
	for (size_t r = 0; r < nr; r++) {
		rows[r].depth = rows[r].lead >= 0 ? report_graphs_depth(graphs, (size_t)rows[r].lead) : 0;
		rows[r].thread = rows[r].lead >= 0 ? report_graphs_thread(graphs, (size_t)rows[r].lead) : UINT64_MAX;
	}
	struct order ord = {v, nm, graphs != NULL, false};
	if (nr > 1 && ord.depth && v->children && collapse_known(v)) {
		/* the depth rule holds within a thread only: not a total order, so
		 * perf's order is its output tree's, filled in collapsed order */
		qsort_r(rows, nr, sizeof(*rows), cmp_collapse, (void *)v);
		ord.tree = true;
		if (report_rbtree_order(rows, nr, sizeof(*rows), cmp_row, &ord) < 0)
			goto oom;
	} else if (nr > 1) {
		qsort_r(rows, nr, sizeof(*rows), cmp_row, &ord);
	}

	char sbuf[32];
	report_samples_unit(samples, sbuf, sizeof(sbuf));
	fprintf(out, "# Samples: %s of %s", sbuf, s->title);
	if (v->time_slices)
		fprintf(out, " (time slices: %s)", v->time_slices);
	if (v->mem_mode)
		fprintf(out, "\n# Total weight : %llu\n# Sort order   : %s\n#\n", (unsigned long long)period,
			v->sort_order ? v->sort_order : REPORT_MEM_SORT);
	else
		fprintf(out, "\n# Event count (approx.): %llu\n#\n", (unsigned long long)period);
	/* column widths: the header or the widest value */
	size_t width[REPORT_MAX_KEYS + 4];
	char buf[4096];
	for (size_t c = 0; c < v->nr_cols; c++) {
		const struct report_col *col = &v->cols[c];
		if (col->type != COL_KEY) {
			width[c] = (col->type == COL_SAMPLES || col->type == COL_PERIOD ? 12 : 8) * nm;
			continue;
		}
		width[c] = strlen(header_of(col->key));
		if (!strcmp(col->key, "dso_daddr")) { /* perf: the objects' names, 16 with one unknown */
			for (size_t r = 0; r < nr; r++) {
				const char *d = rows[r].e->mem.dso;
				width[c] = PV_MAX(width[c], d ? strlen(report_basename(d)) : 16);
			}
			continue;
		}
		if (!strcmp(col->key, "comm")) { /* perf: the threads' last names, see comm_width */
			/* (of the rows shown: none left by --symbol-filter, none) */
			size_t cw = nr ? comm_width(s, v->first_comms) : 0;
			width[c] = cw > width[c] ? cw : width[c];
			continue;
		}
		if (!strcmp(col->key, "cpu") || !strcmp(col->key, "socket") || !strcmp(col->key, "dso_size") ||
		    !strcmp(col->key, "symbol_size"))
			continue; /* perf: the header's width, whatever the values ("-001") */
		size_t fixed = fixed_width(col->key);
		if (fixed) { /* perf: hists__calc_col_len's width, whatever the values */
			width[c] = PV_MAX(width[c], fixed);
			continue;
		}
		for (size_t r = 0; r < nr; r++) {
			column(rows[r].e, col->key, buf, sizeof(buf));
			size_t len = strlen(buf);
			/* perf sizes symbols by their names: " (inlined)" is not counted */
			if (!strcmp(col->key, "sym") && len > 10 && !strcmp(buf + len - 10, " (inlined)"))
				len -= 10;
			if (len > width[c])
				width[c] = len;
			/* perf: an entry without a symbol (its first sample's, keyed
			 * by it or not) widens Shared Object to an address's 16
			 * digits (hists__set_unres_dso_col_len) */
			if (!strcmp(col->key, "dso") && !rows[r].e->first_symbol && !v->only_dso && width[c] < 16)
				width[c] = 16;
		}
	}
	static const char *const value_names[] = {"Children", "Self", "Samples", "Period"};
	struct pv_buf h = PV_BUF_INIT, d = PV_BUF_INIT;
	pv_buf_puts(&h, "# ");
	pv_buf_puts(&d, "# ");
	size_t last = 0;
	for (size_t c = 0; c < v->nr_cols; c++)
		if (!col_hidden(v, c))
			last = c;
	bool first = true;
	for (size_t c = 0; c < v->nr_cols; c++) {
		const struct report_col *col = &v->cols[c];
		if (col_hidden(v, c))
			continue;
		if (!first) {
			pv_buf_puts(&h, "  ");
			pv_buf_puts(&d, "  ");
		}
		first = false;
		if (col->type == COL_KEY)
			pv_buf_printf(&h, "%-*s", (int)width[c], header_of(col->key));
		else /* perf: "Overhead" without a Children column */
			pv_buf_printf(&h, "%*s", (int)width[c],
				      col->type == COL_SELF ? v->self_header : value_names[col->type]);
		for (size_t i = 0; i < width[c]; i++)
			pv_buf_putc(&d, '.');
	}
	fprintf(out, "%s\n%s\n#\n", h.data, d.data);
	pv_buf_free(&h);
	pv_buf_free(&d);
	for (size_t r = 0; r < nr; r++) {
		const struct row *w = &rows[r];
		uint64_t ew = v->children ? w->total[0] : w->self[0];
		if (v->percent_limit > 0 && pct(ew, all[0]) < v->percent_limit)
			continue; /* by the leader's value, as perf */
		for (size_t c = 0; c < v->nr_cols; c++) {
			const struct report_col *col = &v->cols[c];
			if (col_hidden(v, c))
				continue;
			fputs("  ", out);
			for (size_t m = 0; col->type != COL_KEY && m < nm; m++) {
				if (col->type == COL_CHILDREN)
					fprintf(out, "%7.2f%%", pct(w->total[m], all[m]));
				else if (col->type == COL_SELF)
					fprintf(out, "%7.2f%%", pct(w->self[m], all[m]));
				else
					fprintf(out, "%12llu", (unsigned long long)(col->type == COL_SAMPLES ? w->samples[m]
													  : w->period[m]));
			}
			if (col->type != COL_KEY)
				continue;
			column(w->e, col->key, buf, sizeof(buf));
			if (!strcmp(col->key, "comm") && strlen(buf) > width[c])
				buf[width[c]] = 0; /* perf: "%-*.*s", cut to the column */
			/* perf pads every column but a last symbol or srcline */
			/* (the time: "%-.*s" cuts it to the column, pads nothing) */
			if (c == last && unpadded(col->key))
				fputs(buf, out);
			else
				fprintf(out, "%-*s", (int)width[c], buf);
		}
		fputc('\n', out);
		/* perf: no graph under the threshold (fractal's is of the parent) */
		if (graphs && w->lead >= 0 && (v->graph_mode == GRAPH_FRACTAL || pct(ew, all[0]) >= v->graph_min))
			report_graphs_print(out, graphs, (size_t)w->lead, ew, all[0], shown0, v->graph_min,
					    v->graph_skip_first, v->graph_mode, v->graph_value);
	}
	fprintf(out, "\n\n");
	report_graphs_free(graphs);
	if (ferror(out))
		ret = cli_error("report", "writing the report failed: %s", strerror(errno));
	goto out;
oom:
	ret = cli_error("report", "out of memory building the table");
out:
	for (size_t m = 0; m < nm; m++)
		free(e[m]);
	free(rows);
	free(vals);
	pv_keymap_free(&kmap);
	return ret;
}

int report_print_json(const struct perfev_profile *p, const struct report_view *v, FILE *out)
{
	struct perfev_profile_entry *e;
	size_t nr;
	if (perfev_profile_flat(p, v->key_mask | PERFEV_KEY_SPLIT_UNRESOLVED, v->value, v->children,
				v->percent_limit, &e, &nr) < 0)
		return cli_error("report", "%s", perfev_errmsg());
	uint64_t all = perfev_profile_total(p, v->value);
	struct pv_buf b = PV_BUF_INIT;
	pv_buf_puts(&b, "{\"event\":");
	pv_buf_json_str(&b, v->event_name ? v->event_name : "unknown");
	pv_buf_printf(&b, ",\"samples\":%llu,\"period\":%llu,\"lost\":%llu,\"children\":%s,\"entries\":[",
		      (unsigned long long)perfev_profile_total(p, PERFEV_VALUE_SAMPLES),
		      (unsigned long long)perfev_profile_total(p, PERFEV_VALUE_PERIOD),
		      (unsigned long long)v->lost, v->children ? "true" : "false");
	char buf[64];
	for (size_t i = 0; i < nr; i++) {
		pv_buf_printf(&b, "%s\n{\"overhead\":%.4f,\"self\":%.4f,\"children\":%.4f,"
			      "\"samples\":%llu,\"period\":%llu", i ? "," : "",
			      pct(v->children ? e[i].total[v->value] : e[i].self[v->value], all),
			      pct(e[i].self[v->value], all), pct(e[i].total[v->value], all),
			      (unsigned long long)e[i].self[PERFEV_VALUE_SAMPLES],
			      (unsigned long long)e[i].self[PERFEV_VALUE_PERIOD]);
		if (v->key_mask & (PERFEV_KEY_COMM | PERFEV_KEY_PID | PERFEV_KEY_TID)) {
			pv_buf_puts(&b, ",\"comm\":");
			pv_buf_json_str(&b, e[i].comm ? e[i].comm : "[unknown]");
		}
		if (v->key_mask & PERFEV_KEY_PID)
			pv_buf_printf(&b, ",\"pid\":%d", e[i].pid);
		if (v->key_mask & PERFEV_KEY_TID)
			pv_buf_printf(&b, ",\"tid\":%d", e[i].tid);
		if (v->key_mask & PERFEV_KEY_CPU)
			pv_buf_printf(&b, ",\"cpu\":%d", e[i].cpu);
		if (v->key_mask & PERFEV_KEY_SOCKET)
			pv_buf_printf(&b, ",\"socket\":%d", e[i].socket);
		if (v->key_mask & PERFEV_KEY_DSO_SIZE)
			pv_buf_printf(&b, ",\"dso_size\":%lld", (long long)e[i].dso_size);
		if (v->key_mask & PERFEV_KEY_SYM_SIZE)
			pv_buf_printf(&b, ",\"symbol_size\":%lld", (long long)e[i].sym_size);
		if (v->key_mask & PERFEV_KEY_WEIGHT)
			pv_buf_printf(&b, ",\"local_weight\":%llu", (unsigned long long)e[i].weight);
		if (v->key_mask & PERFEV_KEY_INS_LAT)
			pv_buf_printf(&b, ",\"local_ins_lat\":%llu", (unsigned long long)e[i].ins_lat);
		if (v->key_mask & PERFEV_KEY_TIME)
			pv_buf_printf(&b, ",\"time\":%llu", (unsigned long long)e[i].time);
		if (v->key_mask & PERFEV_KEY_ADDR)
			pv_buf_printf(&b, ",\"addr\":%llu", (unsigned long long)e[i].addr);
		if (v->key_mask & REPORT_MEM_KEYS) {
			const struct perfev_mem_access *m = &e[i].mem;
			pv_buf_printf(&b, ",\"data_src\":%llu,\"daddr\":%llu,\"phys_daddr\":%llu,\"data_page_size\":%llu"
				      ",\"dso_daddr\":", (unsigned long long)m->data_src, (unsigned long long)m->addr,
				      (unsigned long long)m->phys_addr, (unsigned long long)m->data_page_size);
			if (m->dso)
				pv_buf_json_str(&b, m->dso);
			else
				pv_buf_puts(&b, "null");
		}
		if (e[i].dso) {
			pv_buf_puts(&b, ",\"dso\":");
			pv_buf_json_str(&b, e[i].dso);
		}
		if (v->key_mask & PERFEV_KEY_SYM) {
			pv_buf_puts(&b, ",\"symbol\":");
			if (e[i].symbol) {
				pv_buf_json_str(&b, e[i].symbol);
			} else {
				snprintf(buf, sizeof(buf), "0x%016llx", (unsigned long long)shown_ip(&e[i]));
				pv_buf_json_str(&b, buf);
			}
			pv_buf_printf(&b, ",\"kernel\":%s", e[i].kernel ? "true" : "false");
		}
		if (v->key_mask & PERFEV_KEY_SRCFILE) {
			pv_buf_puts(&b, ",\"srcfile\":");
			pv_buf_json_str(&b, e[i].source_file ? e[i].source_file : "");
		}
		if (v->key_mask & PERFEV_KEY_SRCLINE) {
			pv_buf_puts(&b, ",\"srcline\":");
			if (e[i].srcfile) {
				pv_buf_json_str(&b, e[i].srcfile);
				pv_buf_printf(&b, ",\"line\":%u", e[i].line);
			} else {
				pv_buf_puts(&b, "null");
			}
		}
		pv_buf_putc(&b, '}');
	}
	pv_buf_puts(&b, "\n]}\n");
	free(e);
	return pv_export_write(&b, out, "report JSON") < 0 ? cli_error("report", "%s", perfev_errmsg()) : 0;
}

/* ---- exports ------------------------------------------------------------------- */
/* A new file beside path (same directory, so rename replaces path in one
 * step), with path's mode, else 0666 less the umask as fopen's; NULL + errno. */
static FILE *open_beside(const char *path, char *tmp, size_t size)
{
	const char *slash = strrchr(path, '/');
	int dl = slash ? (int)(slash - path + 1) : 0;
	if (snprintf(tmp, size, "%.*s.%s.XXXXXX", dl, path, slash ? slash + 1 : path) >= (int)size) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	int fd = mkstemp(tmp);
	if (fd < 0)
		return NULL;
	struct stat st;
	mode_t um = umask(0);
	umask(um);
	fchmod(fd, stat(path, &st) == 0 ? st.st_mode & 07777 : 0666 & ~um); /* a replaced file's */
	FILE *f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(tmp);
	}
	return f;
}

static int cannot_write(const char *cmd, const char *what, const char *path, int err)
{
	struct stat st;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return cli_error(cmd, "cannot write the %s to %s: it is a directory (name a file in it)",
				 what, path);
	return cli_error(cmd, "cannot write the %s to %s: %s (check the directory exists and is writable)",
			 what, path, strerror(err));
}

/* The export goes to a new file renamed over path once complete: a failed
 * or interrupted write leaves an earlier file of that name as it was. */
static int write_export(const char *cmd,
			int (*fn)(const struct perfev_profile *, const struct perfev_export_options *, FILE *),
			const struct perfev_profile *p, const struct perfev_export_options *o,
			const char *path, const char *what)
{
	char tmp[PATH_MAX];
	bool out = !strcmp(path, "-");
	FILE *f = out ? stdout : open_beside(path, tmp, sizeof(tmp));
	if (!f)
		return cannot_write(cmd, what, path, errno);
	int r = fn(p, o, f);
	if (!out && fclose(f) != 0 && r >= 0)
		r = pv_error(EIO, "closing %s: %s", path, strerror(errno));
	if (!out && r >= 0 && rename(tmp, path) < 0) {
		int e = errno;
		unlink(tmp);
		return cannot_write(cmd, what, path, e);
	}
	if (r < 0) {
		if (!out)
			unlink(tmp);
		return cli_error(cmd, "writing the %s to %s: %s", what, path, perfev_errmsg());
	}
	if (!out)
		fprintf(stderr, "perfev %s: wrote the %s to %s\n", cmd, what, path);
	return 0;
}

int report_exports_check(const char *cmd, const struct report_exports *x)
{
	const char *paths[] = {x->flame, x->pprof, x->firefox, x->folded};
	const char *what[] = {"flame graph", "pprof profile", "Firefox profile", "folded stacks"};
	for (size_t i = 0; i < PV_ARRAY_SIZE(paths); i++) {
		if (!paths[i] || !strcmp(paths[i], "-"))
			continue;
		char tmp[PATH_MAX];
		struct stat st;
		FILE *f = stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode) ? NULL
									 : open_beside(paths[i], tmp, sizeof(tmp));
		if (!f)
			return cannot_write(cmd, what[i], paths[i], errno);
		fclose(f);
		unlink(tmp);
	}
	return 0;
}

int report_write_exports(const char *cmd, const struct perfev_profile *p, const struct report_exports *x,
			 const char *subtitle, enum perfev_profile_value value)
{
	struct perfev_export_options eo = {.sz = sizeof(eo), .value = value, .title = x->title,
					   .subtitle = subtitle};
	int ret = 0;
	if (x->flame && write_export(cmd, perfev_export_flame, p, &eo, x->flame, "flame graph"))
		ret = 1;
	if (x->pprof && write_export(cmd, perfev_export_pprof, p, &eo, x->pprof, "pprof profile"))
		ret = 1;
	if (x->firefox && write_export(cmd, perfev_export_firefox, p, &eo, x->firefox, "Firefox profile"))
		ret = 1;
	if (x->folded && write_export(cmd, perfev_export_folded, p, &eo, x->folded, "folded stacks"))
		ret = 1;
	return ret;
}

int report_export_file(const char *cmd, const char *input, const struct report_exports *x)
{
	struct perfev_profile_load_opts lo = {.sz = sizeof(lo), .group = PERFEV_GROUP_THREAD,
					      .event = -1};
	if (x->firefox)
		lo.flags |= PERFEV_PROFILE_KEEP_SAMPLES;
	struct perfev_profile_load_info info = {.sz = sizeof(info)};
	struct perfev_profile *p = perfev_profile_load(input, &lo, &info);
	if (!p)
		return cli_error(cmd, "reading %s back for the exports: %s", input, perfev_errmsg());
	char subtitle[256];
	snprintf(subtitle, sizeof(subtitle), "%llu samples of %s",
		 (unsigned long long)perfev_profile_total(p, PERFEV_VALUE_SAMPLES), info.event_name);
	int ret = report_write_exports(cmd, p, x, subtitle, PERFEV_VALUE_SAMPLES);
	perfev_profile_free(p);
	return ret;
}
