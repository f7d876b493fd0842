/*
 * parse_sym.c — perf's symbolic event names and hardware cache spellings
 * (tools/perf/util/parse-events.l and evsel.c of perf 6.1).
 */
#define _GNU_SOURCE
#include "core/internal.h"
#include "event/parse_int.h"
#include "perfev/event.h"

#include <string.h>

#define HW(n, a, c) {n, a, PERF_TYPE_HARDWARE, PERF_COUNT_HW_##c}
#define SW(n, a, c) {n, a, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_##c}

#ifndef PERF_COUNT_SW_CGROUP_SWITCHES
#define PERF_COUNT_SW_CGROUP_SWITCHES 11
#endif

const struct pv_sym pv_syms[] = {
	HW("cpu-cycles", "cycles", CPU_CYCLES),
	HW("instructions", NULL, INSTRUCTIONS),
	HW("cache-references", NULL, CACHE_REFERENCES),
	HW("cache-misses", NULL, CACHE_MISSES),
	HW("branch-instructions", "branches", BRANCH_INSTRUCTIONS),
	HW("branch-misses", NULL, BRANCH_MISSES),
	HW("bus-cycles", NULL, BUS_CYCLES),
	HW("stalled-cycles-frontend", "idle-cycles-frontend", STALLED_CYCLES_FRONTEND),
	HW("stalled-cycles-backend", "idle-cycles-backend", STALLED_CYCLES_BACKEND),
	HW("ref-cycles", NULL, REF_CPU_CYCLES),
	SW("cpu-clock", NULL, CPU_CLOCK),
	SW("task-clock", NULL, TASK_CLOCK),
	SW("page-faults", "faults", PAGE_FAULTS),
	SW("context-switches", "cs", CONTEXT_SWITCHES),
	SW("cpu-migrations", "migrations", CPU_MIGRATIONS),
	SW("minor-faults", NULL, PAGE_FAULTS_MIN),
	SW("major-faults", NULL, PAGE_FAULTS_MAJ),
	SW("alignment-faults", NULL, ALIGNMENT_FAULTS),
	SW("emulation-faults", NULL, EMULATION_FAULTS),
	SW("dummy", NULL, DUMMY),
	SW("bpf-output", NULL, BPF_OUTPUT),
	SW("cgroup-switches", NULL, CGROUP_SWITCHES),
	/* perf's tool events: counted by the tool itself; opened as dummies */
	{"duration_time", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, PERFEV_EVSEL_TOOL_DURATION},
	{"user_time", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, PERFEV_EVSEL_TOOL_USER_TIME},
	{"system_time", NULL, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY, PERFEV_EVSEL_TOOL_SYSTEM_TIME},
};
const size_t pv_nr_syms = PV_ARRAY_SIZE(pv_syms);

static bool eq(const char *s, size_t len, const char *name)
{
	return name && strlen(name) == len && !memcmp(s, name, len);
}

const struct pv_sym *pv_sym_find(const char *s, size_t len)
{
	for (size_t i = 0; i < pv_nr_syms; i++)
		if (eq(s, len, pv_syms[i].name) || eq(s, len, pv_syms[i].alias))
			return &pv_syms[i];
	return NULL;
}

/* evsel__hw_cache, evsel__hw_cache_op, evsel__hw_cache_result of perf. */
static const char *const cache_types[PERF_COUNT_HW_CACHE_MAX][6] = {
	{"L1-dcache", "l1-d", "l1d", "L1-data"},
	{"L1-icache", "l1-i", "l1i", "L1-instruction"},
	{"LLC", "L2"},
	{"dTLB", "d-tlb", "Data-TLB"},
	{"iTLB", "i-tlb", "Instruction-TLB"},
	{"branch", "bpu", "btb", "bpc"}, /* perf's lexer lacks "branches" here */
	{"node"},
};
static const char *const cache_ops[PERF_COUNT_HW_CACHE_OP_MAX][6] = {
	{"load", "loads", "read"},
	{"store", "stores", "write"},
	{"prefetch", "prefetches", "speculative-read", "speculative-load"},
};
static const char *const cache_results[PERF_COUNT_HW_CACHE_RESULT_MAX][6] = {
	{"refs", "Reference", "ops", "access"},
	{"misses", "miss"},
};

#define R (1 << PERF_COUNT_HW_CACHE_OP_READ)
#define W (1 << PERF_COUNT_HW_CACHE_OP_WRITE)
#define P (1 << PERF_COUNT_HW_CACHE_OP_PREFETCH)
static const int cache_valid_ops[PERF_COUNT_HW_CACHE_MAX] = {
	R | W | P, R | P, R | W | P, R | W | P, R, R, R | W | P,
};

int pv_cache_op_valid(int type, int op) { return cache_valid_ops[type] >> op & 1; }
const char *pv_cache_type_name(int type) { return cache_types[type][0]; }
const char *pv_cache_op_name(int op, int plural) { return cache_ops[op][plural ? 1 : 0]; }
const char *pv_cache_result_name(int result) { return cache_results[result][0]; }

/* Spellings (a table row) matching at s whose end is the end or a '-'. */
static int match_word(const char *const (*tab)[6], int rows, const char *s, size_t len,
		      size_t from, size_t *next, int *row)
{
	int n = 0;
	for (int r = 0; r < rows; r++)
		for (int j = 0; j < 6 && tab[r][j]; j++) {
			size_t l = strlen(tab[r][j]);
			if (from + l > len || memcmp(s + from, tab[r][j], l))
				continue;
			if (from + l != len && s[from + l] != '-')
				continue;
			next[n] = from + l;
			row[n++] = r;
		}
	return n;
}

/* An op-or-result word: rows 0..2 ops, 3..4 results. */
static int match_opres(const char *s, size_t len, size_t from, size_t *next, int *row)
{
	int n = match_word(cache_ops, PERF_COUNT_HW_CACHE_OP_MAX, s, len, from, next, row);
	size_t nx[16];
	int rw[16];
	int m = match_word(cache_results, PERF_COUNT_HW_CACHE_RESULT_MAX, s, len, from, nx, rw);
	for (int i = 0; i < m; i++) {
		next[n] = nx[i];
		row[n++] = 3 + rw[i];
	}
	return n;
}

int pv_cache_parse(const char *s, size_t len, uint64_t *config)
{
	size_t tn[16], an[32], bn[32];
	int tr[16], ar[32], br[32];
	int nt = match_word(cache_types, PERF_COUNT_HW_CACHE_MAX, s, len, 0, tn, tr);
	/* The whole token must be TYPE[-OPRES[-OPRES]], as perf's lexer wants. */
	for (int t = 0; t < nt; t++) {
		int words[2] = {-1, -1}, found = tn[t] == len;
		if (!found && s[tn[t]] == '-') {
			int na = match_opres(s, len, tn[t] + 1, an, ar);
			for (int a = 0; a < na && !found; a++) {
				if (an[a] == len) {
					words[0] = ar[a], found = 1;
					break;
				}
				if (s[an[a]] != '-')
					continue;
				int nb = match_opres(s, len, an[a] + 1, bn, br);
				for (int b = 0; b < nb; b++)
					if (bn[b] == len) {
						words[0] = ar[a], words[1] = br[b], found = 1;
						break;
					}
			}
		}
		if (!found)
			continue;
		/* parse_events_add_cache: the first op wins, then the first result;
		 * a word that is neither, in its turn, is ignored. */
		int op = -1, res = -1;
		for (int i = 0; i < 2 && words[i] >= 0; i++) {
			if (op == -1 && words[i] < 3) {
				op = words[i];
				if (!pv_cache_op_valid(tr[t], op))
					return pv_error(EINVAL, "'%s' cannot be counted for %s (perf accepts %s%s%s)",
							cache_ops[op][0], cache_types[tr[t]][0],
							"load", cache_valid_ops[tr[t]] & W ? ", store" : "",
							cache_valid_ops[tr[t]] & P ? ", prefetch" : "");
				continue;
			}
			if (res == -1 && words[i] >= 3)
				res = words[i] - 3;
		}
		if (op < 0)
			op = PERF_COUNT_HW_CACHE_OP_READ;
		if (res < 0)
			res = PERF_COUNT_HW_CACHE_RESULT_ACCESS;
		*config = (uint64_t)tr[t] | (uint64_t)op << 8 | (uint64_t)res << 16;
		return 0;
	}
	return -ENOENT;
}

/* Edit distance (insert, delete, substitute, swap neighbours) of short names. */
static int distance(const char *a, size_t n, const char *b)
{
	size_t m = strlen(b);
	if (n > 63 || m > 63)
		return 99;
	int d[64][64];
	for (size_t i = 0; i <= n; i++)
		d[i][0] = (int)i;
	for (size_t j = 0; j <= m; j++)
		d[0][j] = (int)j;
	for (size_t i = 1; i <= n; i++)
		for (size_t j = 1; j <= m; j++) {
			int cost = a[i - 1] != b[j - 1];
			int v = PV_MIN(d[i - 1][j] + 1, d[i][j - 1] + 1);
			v = PV_MIN(v, d[i - 1][j - 1] + cost);
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
				v = PV_MIN(v, d[i - 2][j - 2] + 1);
			d[i][j] = v;
		}
	return d[n][m];
}

static void consider(const char *w, size_t n, const char *name, const char **best, int *bestd,
		     char *buf, size_t len)
{
	int d = distance(w, n, name);
	if (d < *bestd) {
		*bestd = d;
		snprintf(buf, len, "%s", name);
		*best = buf;
	}
}

const char *pv_suggest(const char *w, size_t n, char *buf, size_t len)
{
	const char *best = NULL;
	int bestd = n < 5 ? 2 : 3; /* closer than this, or no suggestion */
	for (size_t i = 0; i < pv_nr_syms; i++) {
		consider(w, n, pv_syms[i].name, &best, &bestd, buf, len);
		if (pv_syms[i].alias)
			consider(w, n, pv_syms[i].alias, &best, &bestd, buf, len);
	}
	char name[64];
	for (int t = 0; t < PERF_COUNT_HW_CACHE_MAX; t++)
		for (int op = 0; op < PERF_COUNT_HW_CACHE_OP_MAX; op++) {
			if (!pv_cache_op_valid(t, op))
				continue;
			snprintf(name, sizeof(name), "%s-%s", cache_types[t][0], cache_ops[op][1]);
			consider(w, n, name, &best, &bestd, buf, len);
			snprintf(name, sizeof(name), "%s-%s-misses", cache_types[t][0], cache_ops[op][0]);
			consider(w, n, name, &best, &bestd, buf, len);
		}
	return best;
}
