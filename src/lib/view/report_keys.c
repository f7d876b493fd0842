/* report_out.c — perfev report's output: perf report --stdio's table
 * (Overhead or Children/Self, then one column per sort key), call graphs in
 * perf's graph style, and the same entries as JSON. */
#define _GNU_SOURCE
#include "view/report_int.h"
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

bool pv_report_is_sort_key(const char *name)
{
	if (!strcmp(name, "overhead") || !strcmp(name, "sample") || !strcmp(name, "period"))
		return true; /* (columns --sort takes: see cmd_report.c's sort_as_fields) */
	for (size_t i = 0; i < PV_ARRAY_SIZE(sort_keys); i++)
		if (!strcmp(name, sort_keys[i].name))
			return true;
	return false;
}

int pv_report_parse_sort(struct pv_report_view *v, const char *list)
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
		if (i < PV_ARRAY_SIZE(sort_keys) && (sort_keys[i].mask & PV_REPORT_MEM_KEYS) && !v->mem_mode) {
			pv_error(EINVAL, "sort key '%s' is one of perf's memory keys: add --mem-mode "
				  "(perf report --mem-mode, for samples with PERF_SAMPLE_DATA_SRC)", k);
			free(copy);
			return -EINVAL;
		}
		if (i == PV_ARRAY_SIZE(sort_keys)) {
			pv_error(EINVAL, "unknown sort key '%s': use " PV_REPORT_SORT_KEYS
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
		if (v->nr_keys == PV_REPORT_MAX_KEYS)
			break;
		v->keys[v->nr_keys++] = name;
		v->key_mask |= sort_keys[i].mask;
	}
	free(copy);
	if (!given) {
		pv_error(EINVAL, "empty --sort list: give keys, e.g. --sort sym");
		return -EINVAL;
	}
	return 0;
}

/* The widths perf gives these keys' columns whatever their values (0: by the values). */
size_t pv_report_fixed_width(const char *key)
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
bool pv_report_unpadded(const char *key)
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
	static const int types[] = {PV_COL_CHILDREN, PV_COL_SELF, PV_COL_SAMPLES, PV_COL_PERIOD};
	for (size_t i = 0; i < PV_ARRAY_SIZE(names); i++)
		if (!strcmp(f, names[i]))
			return types[i];
	return -1;
}

int pv_report_parse_fields(struct pv_report_view *v, const char *fields, bool sort_given)
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
			pv_error(EINVAL, "unknown field '%s' in -F: use overhead, overhead_children, sample, "
				  "period, " PV_REPORT_SORT_KEYS, f);
			free(copy);
			pv_buf_free(&keys);
			return -EINVAL;
		}
		pv_buf_printf(&keys, "%s%s", keys.len ? "," : "", f);
	}
	free(copy);
	/* perf: --sort's keys first (shown after the fields), then the fields' */
	const char *first[PV_REPORT_MAX_KEYS];
	size_t nfirst = 0;
	if (sort_given)
		for (size_t k = 0; k < v->nr_keys; k++)
			first[nfirst++] = v->keys[k];
	struct pv_report_view fv = *v;
	int r = 0;
	if (keys.len) {
		r = pv_report_parse_sort(&fv, keys.data);
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
		if (!have && fv.nr_keys < PV_REPORT_MAX_KEYS)
			fv.keys[fv.nr_keys++] = first[k];
	}
	v->nr_keys = fv.nr_keys;
	memcpy(v->keys, fv.keys, sizeof(v->keys));
	v->key_mask = fv.key_mask | (sort_given ? v->key_mask : 0);
	return 0;
}

/* The value perf's elision names for a key, or NULL when the key is not elided. */
const char *pv_report_elided(const struct pv_report_view *v, const char *key)
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
bool pv_report_col_hidden(const struct pv_report_view *v, size_t c)
{
	if (v->cols[c].type != PV_COL_KEY || !pv_report_elided(v, v->cols[c].key))
		return false;
	for (size_t k = 0; k < v->nr_cols; k++)
		if (v->cols[k].type == PV_COL_KEY && !pv_report_elided(v, v->cols[k].key))
			return true;
	return false; /* perf shows them all again rather than none */
}

void pv_report_set_columns(struct pv_report_view *v, const char *fields, bool samples, bool period)
{
	v->nr_cols = 0;
	v->self_header = !fields && v->children ? "Self" : "Overhead";
	if (!fields) {
		if (v->children)
			v->cols[v->nr_cols++] = (struct pv_report_col){PV_COL_CHILDREN, NULL};
		v->cols[v->nr_cols++] = (struct pv_report_col){PV_COL_SELF, NULL};
		if (samples)
			v->cols[v->nr_cols++] = (struct pv_report_col){PV_COL_SAMPLES, NULL};
		if (period)
			v->cols[v->nr_cols++] = (struct pv_report_col){PV_COL_PERIOD, NULL};
		for (size_t k = 0; k < v->nr_keys; k++)
			v->cols[v->nr_cols++] = (struct pv_report_col){PV_COL_KEY, v->keys[k]};
		return;
	}
	if (v->fields_from_sort && v->children) {
		v->cols[v->nr_cols++] = (struct pv_report_col){PV_COL_CHILDREN, NULL};
		v->self_header = "Self";
	}
	v->nr_sort_cols = 0;
	if (v->fields_from_sort && v->sort_list) {
		/* perf's setup_overhead: "overhead" (and "overhead_children") put
		 * first unless the list names it; the entries sorted in that order */
		if (v->children)
			v->sort_cols[v->nr_sort_cols++] = (struct pv_report_col){PV_COL_CHILDREN, NULL};
		char *list = strdup(v->sort_list), *save = NULL;
		bool named = false;
		for (char *f = strtok_r(list, ",", &save); f; f = strtok_r(NULL, ",", &save))
			named |= !strcmp(f, "overhead");
		if (!named)
			v->sort_cols[v->nr_sort_cols++] = (struct pv_report_col){PV_COL_SELF, NULL};
		free(list);
		list = strdup(v->sort_list);
		save = NULL;
		for (char *f = strtok_r(list, ",", &save); f && v->nr_sort_cols < PV_ARRAY_SIZE(v->sort_cols);
		     f = strtok_r(NULL, ",", &save)) {
			int t = value_field(f);
			for (size_t k = 0; t < 0 && k < v->nr_keys; k++)
				if (!strcmp(v->keys[k], f) || (!strcmp(f, "symbol") && !strcmp(v->keys[k], "sym")))
					v->sort_cols[v->nr_sort_cols++] = (struct pv_report_col){PV_COL_KEY, v->keys[k]};
			if (t >= 0)
				v->sort_cols[v->nr_sort_cols++] = (struct pv_report_col){t, NULL};
		}
		free(list);
	}
	/* the fields in their order (checked by pv_report_parse_fields), then --sort's other keys */
	char *copy = strdup(fields), *save = NULL;
	for (char *f = strtok_r(copy, ",", &save); f && v->nr_cols < PV_ARRAY_SIZE(v->cols);
	     f = strtok_r(NULL, ",", &save)) {
		while (*f == ' ')
			f++;
		int t = value_field(f);
		if (t >= 0) {
			v->cols[v->nr_cols++] = (struct pv_report_col){t, NULL};
			continue;
		}
		for (size_t k = 0; k < v->nr_keys; k++)
			if (!strcmp(v->keys[k], f) || (!strcmp(f, "symbol") && !strcmp(v->keys[k], "sym")))
				v->cols[v->nr_cols++] = (struct pv_report_col){PV_COL_KEY, v->keys[k]};
	}
	free(copy);
	for (size_t k = 0; k < v->nr_keys && v->nr_cols < PV_ARRAY_SIZE(v->cols); k++) {
		bool shown = false;
		for (size_t c = 0; c < v->nr_cols; c++)
			shown |= v->cols[c].type == PV_COL_KEY && v->cols[c].key == v->keys[k];
		if (!shown)
			v->cols[v->nr_cols++] = (struct pv_report_col){PV_COL_KEY, v->keys[k]};
	}
}

const char *pv_report_header_of(const char *key)
{
	for (size_t i = 0; i < PV_ARRAY_SIZE(sort_keys); i++)
		if (strcmp(key, sort_keys[i].name) == 0)
			return sort_keys[i].header;
	return key;
}

const char *pv_report_basename(const char *path)
{
	if (!path)
		return "[unknown]";
	const char *s = strrchr(path, '/');
	return s && s[1] ? s + 1 : path;
}


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
void pv_report_column(const struct perfev_profile_entry *e, const char *key, char *buf, size_t len)
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
		snprintf(buf, len, "%s", pv_report_basename(e->dso));
	else if (!strcmp(key, "sym") || !strcmp(key, "symbol")) {
		if (e->symbol)
			snprintf(buf, len, "[%c] %s%s", e->kernel ? 'k' : '.', e->symbol,
				 e->inlined ? " (inlined)" : "");
		else
			snprintf(buf, len, "[%c] %#.16llx", e->kernel ? 'k' : '.', (unsigned long long)pv_report_shown_ip(e));
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
		snprintf(buf, len, "%-*s", key[0] == 'l' || key[0] == 'b' ? 0 : (int)pv_report_fixed_width(key), f);
	} else if (!strcmp(key, "symbol_daddr")) { /* (data symbols are not resolved: the address) */
		snprintf(buf, len, "[%c] %#.16llx", e->kernel ? 'k' : '.', (unsigned long long)e->mem.addr);
	} else if (!strcmp(key, "dso_daddr")) {
		snprintf(buf, len, "%s", e->mem.dso ? pv_report_basename(e->mem.dso) : "[unknown]");
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
		if (pv_srcline_is_symoff(e->srcfile, e->line)) /* no line information */
			snprintf(buf, len, "%s", e->srcfile);
		else if (e->srcfile)
			snprintf(buf, len, "%s:%u", pv_report_basename(e->srcfile), e->line);
		else if (!e->dso || !strcmp(e->dso, "[unknown]")) /* outside any map (perf's map__srcline) */
			snprintf(buf, len, "??:0");
		else
			snprintf(buf, len, "%s[%llx]", pv_report_basename(e->dso), (unsigned long long)e->rel_ip);
	} else
		snprintf(buf, len, "?");
}

void pv_report_samples_unit(uint64_t n, char *buf, size_t len)
{
	/* perf's convert_unit: "Samples: 6K", "Samples: 191 " (a blank for no unit) */
	const char *units = " KMG";
	int u = 0;
	while (n > 1000 && u < 3)
		n /= 1000, u++;
	snprintf(buf, len, "%llu%c", (unsigned long long)n, units[u]);
}

