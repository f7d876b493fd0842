#define _GNU_SOURCE
#include "support_report.h"
#include "support.h"
#include "perfev.h"

#include <fcntl.h>
#include <libelf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

size_t report_parse(const char *text, bool children, struct report_row *rows, size_t max)
{
	size_t n = 0;
	const char *line = text;
	while (line && *line && n < max) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		char buf[512];
		snprintf(buf, sizeof(buf), "%.*s", (int)(len < sizeof(buf) - 1 ? len : sizeof(buf) - 1), line);
		struct report_row r = {0};
		int used = 0;
		bool ok;
		if (children)
			ok = sscanf(buf, " %lf%% %lf%% %n", &r.first, &r.self, &used) == 2 && used;
		else
			ok = sscanf(buf, " %lf%% %n", &r.first, &used) == 1 && used;
		if (ok && buf[0] == ' ') {
			if (!children)
				r.self = r.first;
			snprintf(r.name, sizeof(r.name), "%s", buf + used);
			/* trailing blanks */
			for (size_t k = strlen(r.name); k && r.name[k - 1] == ' '; k--)
				r.name[k - 1] = 0;
			rows[n++] = r;
		}
		line = end ? end + 1 : NULL;
	}
	return n;
}

int report_compare(const struct report_row *want, size_t nw, const struct report_row *got,
		   size_t ng, size_t top, double tol, char *msg, size_t len)
{
	int bad = 0;
	size_t used = 0;
	bool *taken = calloc(ng ? ng : 1, sizeof(*taken));
	cr_assert_not_null(taken);
	msg[0] = 0;
	for (size_t i = 0; i < nw && i < top; i++) {
		/* a name may stand twice (ld.so's _start and the program's): each
		 * perf row takes the closest perfev row of that name not yet taken */
		const struct report_row *g = NULL;
		size_t gj = 0;
		for (size_t j = 0; j < ng; j++) {
			if (taken[j] || strcmp(got[j].name, want[i].name) != 0)
				continue;
			double d = fabs(got[j].first - want[i].first) + fabs(got[j].self - want[i].self);
			if (!g || d < fabs(g->first - want[i].first) + fabs(g->self - want[i].self))
				g = &got[j], gj = j;
		}
		if (g)
			taken[gj] = true;
		double gf = g ? g->first : 0, gs = g ? g->self : 0;
		if (fabs(gf - want[i].first) > tol || fabs(gs - want[i].self) > tol) {
			bad++;
			used += (size_t)snprintf(msg + used, used < len ? len - used : 0,
						 "'%s': perf %.2f%%/%.2f%%, perfev %.2f%%/%.2f%%%s; ",
						 want[i].name, want[i].first, want[i].self, gf, gs,
						 g ? "" : " (missing)");
			if (used >= len)
				used = len - 1;
		}
	}
	free(taken);
	return bad;
}

char *perf_record(const char *options, const char *name, const char *cmd)
{
	require_perf_tool();
	char *path;
	cr_assert(asprintf(&path, "%s/%s", test_tmpdir(), name) > 0);
	struct run_result r = run_cmd("perf record -q %s -o '%s' -- %s >/dev/null", options, path, cmd);
	if (r.status != 0)
		cr_skip_test("perf record %s cannot record here: %s", options, r.err);
	run_result_free(&r);
	return path;
}

char *build_program(const char *name, const char *text, const char *cflags)
{
	char src[4200], *exe;
	snprintf(src, sizeof(src), "%s/%s.c", test_tmpdir(), name);
	cr_assert(asprintf(&exe, "%s/%s", test_tmpdir(), name) > 0);
	FILE *f = fopen(src, "w");
	cr_assert_not_null(f, "cannot write %s", src);
	fputs(text, f);
	fclose(f);
	struct run_result r = run_cmd("cc %s -o '%s' '%s'", cflags, exe, src);
	cr_assert_eq(r.status, 0, "cc %s %s: %s", cflags, src, r.err);
	run_result_free(&r);
	return exe;
}

/* perf's output without its closing tip block */
static void drop_tip(char *text)
{
	char *tip = strstr(text, "\n# (Tip:");
	if (!tip)
		return;
	char *from = tip + 1, *to = strchr(from, '\n');
	to = to ? to + 1 : from + strlen(from);
	/* and the "#" lines around it; what follows (-T's table) stays */
	if (from - text >= 3 && !strncmp(from - 3, "\n#\n", 3))
		from -= 2;
	if (!strncmp(to, "#\n", 2))
		to += 2;
	memmove(from, to, strlen(to) + 1);
}

/* perf's fractal remainder lines, "[...]", are named by a struct symbol it
 * mallocs and never clears but for the name (ui/stdio/hist.c init_rem_hits):
 * its `inlined` bit is whatever the heap held there, so perf prints "[...]
 * (inlined)" on some recordings (workloads/calls), "[...]" on others. The
 * suffix is dropped from perf's text: perfev prints "[...]". */
static void drop_rem_inlined(char *text)
{
	static const char rem[] = "[...] (inlined)\n";
	char *w = text;
	for (const char *r = text; *r;) {
		if (!strncmp(r, rem, sizeof(rem) - 1)) {
			memcpy(w, "[...]\n", 6);
			w += 6, r += sizeof(rem) - 1;
		} else {
			*w++ = *r++;
		}
	}
	*w = 0;
}

static void write_text(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	fclose(f);
}

/* An entry of a --stdio table: its line, then its graph's lines (up to the
 * next entry or "#" line). */
static bool is_entry_line(const char *l)
{
	double v;
	int used = 0;
	return l[0] == ' ' && sscanf(l, " %lf%%%n", &v, &used) == 1 && used > 0;
}

struct block {
	const char *at;
	size_t len;
	double first;
};

static int cmp_block(const void *a, const void *b)
{
	const struct block *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->at, y->at, n);
	return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* b[0..nb) to o, each run of equal first values sorted; returns the end */
static char *put_sorted_runs(struct block *b, size_t nb, char *o)
{
	for (size_t i = 0; i < nb;) {
		size_t j = i;
		while (j < nb && b[j].first == b[i].first)
			j++;
		qsort(b + i, j - i, sizeof(*b), cmp_block);
		for (; i < j; i++) {
			memcpy(o, b[i].at, b[i].len);
			o += b[i].len;
		}
	}
	return o;
}

/* text with every run of consecutive entries of equal first value sorted (malloc'ed) */
static char *sort_tied_entries(const char *text)
{
	size_t len = strlen(text), nb = 0;
	struct block *b = calloc(len + 1, sizeof(*b));
	char *out = malloc(len + 1), *o = out;
	cr_assert(b && out);
	const char *l = text;
	while (*l) {
		const char *end = strchr(l, '\n');
		end = end ? end + 1 : l + strlen(l);
		if (is_entry_line(l)) {
			b[nb++] = (struct block){l, (size_t)(end - l), strtod(l, NULL)};
		} else if (nb && *l != '#') {
			b[nb - 1].len = (size_t)(end - b[nb - 1].at); /* a graph line of the last entry */
		} else {
			o = put_sorted_runs(b, nb, o); /* the entries before this line */
			nb = 0;
			memcpy(o, l, (size_t)(end - l));
			o += end - l;
		}
		l = end;
	}
	o = put_sorted_runs(b, nb, o);
	*o = 0;
	free(b);
	return out;
}

static int report_diff(const char *data, const char *options, bool ties_as_sets, char **diff_out, size_t *lines);

int report_diff_perf(const char *data, const char *options, char **diff_out, size_t *lines)
{
	return report_diff(data, options, false, diff_out, lines);
}

size_t report_expect_like_perf(const char *data, const char *options, int slack)
{
	char *diff;
	size_t lines;
	int differ = report_diff_perf(data, options, &diff, &lines);
	cr_expect_leq(differ, slack, "perfev report --stdio %s on %s: %d of %zu lines differ from perf's:\n%s",
		      options, data, differ, lines, diff);
	free(diff);
	return lines;
}

void report_expect_corpus_like_perf(const char *file, const char *options, int slack)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/%s", CORPUS_DIR, file);
	char *diff;
	size_t lines;
	int differ = report_diff_perf(path, options, &diff, &lines);
	cr_expect_leq(differ, slack, "%s %s: %d of %zu lines differ from perf's:\n%.4000s", file, options, differ,
		      lines, diff);
	free(diff);
}

void report_expect_corpus_cases(const struct report_corpus_case *cases, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		report_expect_corpus_like_perf(cases[i].file, cases[i].options, cases[i].slack);
}

int report_diff_perf_ties_as_sets(const char *data, const char *options, char **diff_out, size_t *lines)
{
	return report_diff(data, options, true, diff_out, lines);
}

static int report_diff(const char *data, const char *options, bool ties_as_sets, char **diff_out, size_t *lines)
{
	struct run_result want = run_cmd("perf report -i '%s' --stdio %s 2>/dev/null", data, options);
	cr_assert_eq(want.status, 0, "perf report %s: %s", options, want.err);
	struct run_result got = run_cmd("%s report -q -i '%s' --stdio %s", PERFEV_BIN, data, options);
	cr_assert_eq(got.status, 0, "perfev report %s: %s", options, got.err);
	drop_tip(want.out);
	drop_rem_inlined(want.out);
	char a[4096], b[4096];
	snprintf(a, sizeof(a), "%s/report_perf.txt", test_tmpdir());
	snprintf(b, sizeof(b), "%s/report_perfev.txt", test_tmpdir());
	if (ties_as_sets) {
		char *w = sort_tied_entries(want.out), *g = sort_tied_entries(got.out);
		free(want.out);
		free(got.out);
		want.out = w;
		got.out = g;
	}
	write_text(a, want.out);
	write_text(b, got.out);
	size_t n = 0;
	for (const char *c = want.out; *c; c++)
		n += *c == '\n';
	if (lines)
		*lines = n;
	run_result_free(&want);
	run_result_free(&got);
	struct run_result d = run_cmd("diff '%s' '%s'", a, b);
	int differ = 0;
	for (const char *l = d.out; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		differ += *l == '<' || *l == '>';
	if (diff_out)
		*diff_out = strdup(d.out ? d.out : "");
	run_result_free(&d);
	return differ;
}

char *report_header_lines(const char *text)
{
	size_t len = strlen(text);
	char *out = malloc(len + 1), *o = out;
	cr_assert_not_null(out);
	for (const char *l = text; l && *l;) {
		const char *end = strchr(l, '\n');
		size_t n = end ? (size_t)(end - l + 1) : strlen(l);
		if (n >= 2 && l[0] == '#' && l[1] == ' ' && strncmp(l, "# (Tip:", 7) != 0) {
			memcpy(o, l, n);
			o += n;
		}
		l = end ? end + 1 : NULL;
	}
	*o = 0;
	return out;
}

void report_put_record(struct perfev_perfdata_writer *w, const struct perfev_record *r,
		       const struct perfev_attr *a)
{
	uint8_t buf[4400];
	int n = perfev_record_encode(r, a, buf, sizeof(buf));
	cr_assert_gt(n, 0, "%s", perfev_errmsg());
	cr_assert_eq(perfev_perfdata_writer_write(w, buf, (size_t)n), 0, "%s", perfev_errmsg());
}

struct perfev_perfdata_writer *report_crafted_writer(const char *data, struct perfev_attr *a, uint64_t sample_type)
{
	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_CPU_CLOCK;
	a->size = PERFEV_ATTR_SIZE_LATEST;
	a->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_PERIOD | sample_type;
	a->sample_id_all = 1;
	a->sample_period = 1000;
	a->exclude_guest = 1;
	if (sample_type & PERF_SAMPLE_BRANCH_STACK)
		a->branch_sample_type = PERF_SAMPLE_BRANCH_ANY;
	struct perfev_perfdata_event ev = {a, "cpu-clock", NULL, 0};
	struct perfev_perfdata_write_opts o = {.sz = sizeof(o), .no_host_features = true};
	struct perfev_perfdata_writer *w = perfev_perfdata_writer_open(data, -1, &ev, 1, &o);
	cr_assert(w, "writer: %s", perfev_errmsg());
	return w;
}

void report_put_kernel_map(struct perfev_perfdata_writer *w, const struct perfev_attr *a, uint64_t kbase)
{
	struct perfev_record r = {.type = PERF_RECORD_MMAP, .misc = PERF_RECORD_MISC_KERNEL, .has_sid = true};
	r.u.mmap.pid = (uint32_t)-1;
	r.u.mmap.tid = 0;
	r.u.mmap.addr = kbase;
	r.u.mmap.len = 0x1000000;
	r.u.mmap.pgoff = kbase;
	r.u.mmap.filename = "[kernel.kallsyms]_text";
	r.sid.pid = -1;
	r.sid.tid = 0;
	report_put_record(w, &r, a);
}

void report_write_kernel_samples(const char *data, int pid, uint64_t text, uint64_t moved, const uint64_t *at,
				 size_t n, uint64_t off)
{
	struct perfev_attr a;
	struct perfev_perfdata_writer *w = report_crafted_writer(data, &a, 0);
	struct perfev_record r = {.type = PERF_RECORD_MMAP, .misc = PERF_RECORD_MISC_KERNEL, .has_sid = true};
	r.u.mmap.pid = (uint32_t)-1;
	r.u.mmap.addr = text + moved;
	r.u.mmap.len = ~0ull - (text + moved);
	r.u.mmap.pgoff = text + moved;
	r.u.mmap.filename = "[kernel.kallsyms]_text";
	r.sid.pid = -1;
	report_put_record(w, &r, &a);
	report_put_comm(w, &a, pid, "kernel", 1, false);
	for (size_t k = 0; k < n; k++)
		report_put_sample(w, &a, PERF_RECORD_MISC_KERNEL, pid, at[k] + moved + off, 10 + k, 1000 * (k + 1),
				  NULL, 0);
	cr_assert_eq(perfev_perfdata_writer_close(w), 0, "%s", perfev_errmsg());
}

char *report_write_kallsyms(const char *text)
{
	char *path;
	cr_assert(asprintf(&path, "%s/kallsyms", test_tmpdir()) > 0);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(text, f);
	fclose(f);
	return path;
}

Elf *report_elf_open(const char *path, int *fd, GElf_Phdr *text, bool *found)
{
	elf_version(EV_CURRENT);
	*fd = open(path, O_RDONLY);
	cr_assert_geq(*fd, 0, "open %s", path);
	Elf *e = elf_begin(*fd, ELF_C_READ, NULL);
	cr_assert_not_null(e, "%s: %s", path, elf_errmsg(-1));
	size_t phnum = 0;
	*found = false;
	if (elf_getphdrnum(e, &phnum) == 0)
		for (size_t i = 0; i < phnum && !*found; i++)
			*found = gelf_getphdr(e, (int)i, text) && text->p_type == PT_LOAD && (text->p_flags & PF_X);
	return e;
}

void report_elf_close(Elf *e, int fd)
{
	elf_end(e);
	close(fd);
}

bool report_find_object(const char *name, char *path, size_t len)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[4096];
	bool found = false;
	while (f && !found && fgets(line, sizeof(line), f)) {
		char *p = strchr(line, '/');
		if (!p || !strstr(p, name))
			continue;
		p[strcspn(p, "\n")] = 0;
		snprintf(path, len, "%s", p);
		found = true;
	}
	if (f)
		fclose(f);
	return found;
}

void report_put_comm(struct perfev_perfdata_writer *w, const struct perfev_attr *a, int pid, const char *comm,
		     uint64_t time, bool exec)
{
	struct perfev_record r = {.type = PERF_RECORD_COMM, .misc = exec ? PERF_RECORD_MISC_COMM_EXEC : 0,
				  .has_sid = true};
	r.u.comm.pid = r.u.comm.tid = (uint32_t)pid;
	r.u.comm.comm = comm;
	r.sid.pid = r.sid.tid = (uint32_t)pid;
	r.sid.time = time;
	report_put_record(w, &r, a);
}

void report_put_text_mmap(struct perfev_perfdata_writer *w, const struct perfev_attr *a, int pid,
			  const char *path, uint64_t base, uint64_t vaddr, uint64_t memsz, uint64_t offset,
			  uint64_t time)
{
	struct perfev_record r = {.type = PERF_RECORD_MMAP2, .misc = PERF_RECORD_MISC_USER, .has_sid = true};
	r.u.mmap.pid = r.u.mmap.tid = (uint32_t)pid;
	r.u.mmap.addr = (base + vaddr) & ~0xfffull;
	r.u.mmap.len = ((base + vaddr + memsz + 0xfff) & ~0xfffull) - r.u.mmap.addr;
	r.u.mmap.pgoff = offset & ~0xfffull;
	r.u.mmap.prot = 5; /* r-x */
	r.u.mmap.flags = 2; /* MAP_PRIVATE */
	r.u.mmap.filename = path;
	r.sid.pid = r.sid.tid = (uint32_t)pid;
	r.sid.time = time;
	report_put_record(w, &r, a);
}

void report_put_text_map(struct perfev_perfdata_writer *w, const struct perfev_attr *a, int pid,
			 const char *comm, const char *path, uint64_t base, uint64_t vaddr,
			 uint64_t memsz, uint64_t offset)
{
	report_put_comm(w, a, pid, comm, 1, true);
	report_put_text_mmap(w, a, pid, path, base, vaddr, memsz, offset, 2);
}

void report_put_sample(struct perfev_perfdata_writer *w, const struct perfev_attr *a, uint16_t misc, int pid,
		       uint64_t ip, uint64_t time, uint64_t period, const uint64_t *chain, uint64_t nr)
{
	struct perfev_record r = {.type = PERF_RECORD_SAMPLE, .misc = misc};
	r.u.sample.ip = ip;
	r.u.sample.pid = r.u.sample.tid = (uint32_t)pid;
	r.u.sample.time = time;
	r.u.sample.period = period;
	r.u.sample.callchain_nr = nr;
	r.u.sample.callchain = chain;
	report_put_record(w, &r, a);
}
