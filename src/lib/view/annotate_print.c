/*
 * annotate_print.c — an annotation as perf annotate --stdio prints it (the
 * header naming the DSO, event, samples and percent type; rows " 84.37 :
 * 122c:   addsd  %xmm1,%xmm0" and "         : 26   source"; --print-line's
 * sorted summary of the hottest source lines; --asm-raw's bytes), or as
 * JSON, per symbol, per instruction.
 */
#define _GNU_SOURCE
#include "view/annotate_int.h"
#include "core/opts.h"

#include <elf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define WIDTH 8 /* perf's percent column */

static const char *const percent_names[] = {"local period", "global period", "local hits", "global hits"};

static const char *base_name(const char *p)
{
	const char *s = p ? strrchr(p, '/') : NULL;
	return s ? s + 1 : p;
}

/* ---- --print-line: perf's sorted summary ------------------------------------------ */
struct line_sum {
	const char *file;
	uint32_t line;
	double percent;
};

static int cmp_sum(const void *x, const void *y)
{
	const struct line_sum *a = x, *b = y;
	if (a->percent != b->percent)
		return a->percent > b->percent ? -1 : 1;
	int c = strcmp(a->file, b->file);
	return c ? c : (a->line > b->line) - (a->line < b->line);
}

/* perf's annotation__calc_lines: instructions above 0.5 percent, summed per file:line */
static void print_summary(struct pv_buf *b, const struct perfev_annotated_symbol *s, bool full)
{
	struct line_sum *v = calloc(s->nr_rows ? s->nr_rows : 1, sizeof(*v));
	size_t n = 0;
	for (size_t i = 0; v && i < s->nr_rows; i++) {
		const struct perfev_annotate_row *r = &s->rows[i];
		if (r->kind != PERFEV_ANNOTATE_INSN || r->percent <= 0.5 || !r->srcfile || !r->line)
			continue;
		const char *f = full ? r->srcfile : base_name(r->srcfile);
		size_t j = 0;
		while (j < n && !(v[j].line == r->line && !strcmp(v[j].file, f)))
			j++;
		if (j == n)
			v[n++] = (struct line_sum){f, r->line, 0};
		v[j].percent += r->percent;
	}
	pv_buf_printf(b, "\nSorted summary for file %s\n----------------------------------------------\n\n",
		      s->dso);
	if (!n)
		pv_buf_printf(b, " Nothing higher than %1.1f%%\n", 0.5);
	if (v)
		qsort(v, n, sizeof(*v), cmp_sum);
	for (size_t i = 0; i < n; i++)
		pv_buf_printf(b, " %7.2f %s:%u\n", v[i].percent, v[i].file, v[i].line);
	free(v);
}

/* ---- --stdio -------------------------------------------------------------------- */
/* objdump's raw bytes column: x86 up to 7 bytes a line ("48 85 ff", padded
 * to its tab stop), aarch64 one 32-bit word. Returns the bytes shown. */
static size_t raw_bytes(struct pv_buf *b, const struct perfev_annotate_row *r, bool arm)
{
	if (arm && r->nr_bytes == 4) {
		uint32_t w = (uint32_t)r->bytes[0] | (uint32_t)r->bytes[1] << 8 |
			     (uint32_t)r->bytes[2] << 16 | (uint32_t)r->bytes[3] << 24;
		pv_buf_printf(b, "%08x        ", w);
		return 4;
	}
	size_t n = PV_MIN(r->nr_bytes, (size_t)7);
	for (size_t i = 0; i < n; i++)
		pv_buf_printf(b, "%02x ", r->bytes[i]);
	pv_buf_printf(b, "%*s", (int)(24 - 3 * n), "");
	return n;
}

static void print_insn(struct pv_buf *b, const struct perfev_annotate_row *r, int aw, bool raw, bool arm)
{
	pv_buf_printf(b, " %7.2f :   %*" PRIx64 ":   ", r->percent, aw, r->addr);
	if (!raw) {
		pv_buf_printf(b, "%s\n", r->text);
		return;
	}
	size_t shown = raw_bytes(b, r, arm);
	pv_buf_printf(b, "%s\n", r->text);
	while (shown < r->nr_bytes) { /* objdump's continuation lines */
		pv_buf_printf(b, " %7.2f :   %*" PRIx64 ":   ", 0.0, aw, r->addr + shown);
		size_t n = PV_MIN(r->nr_bytes - shown, (size_t)7);
		for (size_t i = 0; i < n; i++)
			pv_buf_printf(b, i ? " %02x" : "%02x", r->bytes[shown + i]);
		pv_buf_putc(b, '\n');
		shown += n;
	}
}

static void print_row(struct pv_buf *b, const struct perfev_annotate_row *r, int aw, bool raw, bool arm)
{
	switch (r->kind) {
	case PERFEV_ANNOTATE_INSN:
		print_insn(b, r, aw, raw, arm);
		break;
	case PERFEV_ANNOTATE_FUNCTION:
		pv_buf_printf(b, " %*s: %*s %s():\n", WIDTH, "", aw, "", r->text);
		break;
	case PERFEV_ANNOTATE_SOURCE:
		if (r->text && !r->text[0])
			pv_buf_printf(b, " %*s:\n", WIDTH, "");
		else if (r->text)
			pv_buf_printf(b, " %*s: %-*u %s\n", WIDTH, "", aw, r->line, r->text);
		else /* the file is not here: where it is */
			pv_buf_printf(b, " %*s: %-*u %s:%u\n", WIDTH, "", aw, r->line,
				      r->srcfile ? r->srcfile : "??", r->line);
		break;
	}
}

static void print_symbol(struct pv_buf *b, const struct perfev_annotation *a,
			 const struct perfev_annotated_symbol *s, const struct perfev_annotate_print_opts *o)
{
	if (o->print_line)
		print_summary(b, s, o->full_paths);
	size_t at = b->len;
	pv_buf_printf(b, " %-*.*s|\tSource code & Disassembly of %s for %s (%" PRIu64 " samples, percent: %s)\n",
		      WIDTH, WIDTH, "Percent", base_name(s->dso), a->event, s->samples,
		      percent_names[a->o.percent_type]);
	size_t dashes = b->len - at + 4; /* perf: as long as the header line, newline counted, and 4 */
	for (size_t i = 0; i < dashes; i++)
		pv_buf_putc(b, '-');
	pv_buf_putc(b, '\n');
	if (s->note)
		pv_buf_printf(b, " %*s: note: %s\n", WIDTH, "", s->note);
	char bf[32];
	int aw = 0; /* perf: the width of the last instruction's address */
	for (size_t i = s->nr_rows; i-- > 0;)
		if (s->rows[i].kind == PERFEV_ANNOTATE_INSN) {
			aw = snprintf(bf, sizeof(bf), "%" PRIx64, s->rows[i].addr);
			break;
		}
	pv_buf_printf(b, " %*s:\n %*s: %-*s %016" PRIx64 " <%s>:\n", WIDTH, "", WIDTH, "", aw, "",
		      s->start, s->symbol);
	bool arm = s->machine == EM_AARCH64;
	for (size_t i = 0; i < s->nr_rows; i++)
		print_row(b, &s->rows[i], aw, o->asm_raw, arm);
}

/* ---- --json ------------------------------------------------------------------- */
static void json_hex(struct pv_buf *b, const uint8_t *p, size_t n)
{
	pv_buf_putc(b, '"');
	for (size_t i = 0; i < n; i++)
		pv_buf_printf(b, "%02x", p[i]);
	pv_buf_putc(b, '"');
}

static void json_str_or_null(struct pv_buf *b, const char *s)
{
	if (s)
		pv_buf_json_str(b, s);
	else
		pv_buf_puts(b, "null");
}

static void json_insn(struct pv_buf *b, const struct perfev_annotate_row *r, bool first)
{
	pv_buf_printf(b, "%s\n      {\"address\": \"0x%" PRIx64 "\", \"bytes\": ", first ? "" : ",", r->addr);
	json_hex(b, r->bytes, r->nr_bytes);
	pv_buf_puts(b, ", \"text\": ");
	pv_buf_json_str(b, r->text);
	pv_buf_puts(b, ", \"source\": ");
	if (r->srcfile && r->line) {
		char *loc = NULL;
		if (asprintf(&loc, "%s:%u", r->srcfile, r->line) > 0)
			pv_buf_json_str(b, loc);
		else
			b->oom = true;
		free(loc);
	} else {
		pv_buf_puts(b, "null");
	}
	pv_buf_puts(b, ", \"function\": ");
	json_str_or_null(b, r->function);
	pv_buf_puts(b, ", \"inlined\": ");
	json_str_or_null(b, r->inlined ? r->function : NULL);
	pv_buf_printf(b, ", \"samples\": %" PRIu64 ", \"period\": %" PRIu64 ", \"percent\": %.4f}",
		      r->samples, r->period, r->percent);
}

static void json_symbol(struct pv_buf *b, const struct perfev_annotated_symbol *s, bool first)
{
	pv_buf_printf(b, "%s\n    {\"symbol\": ", first ? "" : ",");
	pv_buf_json_str(b, s->symbol);
	pv_buf_puts(b, ", \"dso\": ");
	pv_buf_json_str(b, s->dso);
	pv_buf_printf(b, ", \"kernel\": %s, \"start\": \"0x%" PRIx64 "\", \"size\": %" PRIu64
		      ", \"samples\": %" PRIu64 ", \"period\": %" PRIu64 ", \"note\": ",
		      s->kernel ? "true" : "false", s->start, s->size, s->samples, s->period);
	json_str_or_null(b, s->note);
	pv_buf_puts(b, ", \"instructions\": [");
	bool f = true;
	for (size_t i = 0; i < s->nr_rows; i++)
		if (s->rows[i].kind == PERFEV_ANNOTATE_INSN) {
			json_insn(b, &s->rows[i], f);
			f = false;
		}
	pv_buf_puts(b, f ? "]}" : "\n    ]}");
}

static void print_json(struct pv_buf *b, const struct perfev_annotation *a)
{
	pv_buf_puts(b, "{\n  \"event\": ");
	pv_buf_json_str(b, a->event);
	pv_buf_printf(b, ",\n  \"samples\": %" PRIu64 ",\n  \"period\": %" PRIu64 ",\n  \"percent_type\": \"%s\",\n"
		      "  \"symbols\": [", a->total_samples, a->total_period, percent_names[a->o.percent_type]);
	for (size_t i = 0; i < a->nr_sym; i++)
		json_symbol(b, &a->sym[i], i == 0);
	pv_buf_puts(b, a->nr_sym ? "\n  ]\n}\n" : "]\n}\n");
}

PERFEV_API int perfev_annotation_print(const struct perfev_annotation *a,
				       const struct perfev_annotate_print_opts *opts, FILE *out)
{
	if (!a || !out)
		return pv_error(EINVAL, "perfev_annotation_print: NULL argument");
	if (!PV_OPTS_VALID(opts, perfev_annotate_print_opts))
		return -errno;
	struct perfev_annotate_print_opts o;
	PV_OPTS_COPY(o, opts);
	struct pv_buf b = PV_BUF_INIT;
	int r = 0;
	if (o.json) {
		print_json(&b, a);
	} else {
		for (size_t i = 0; i < a->nr_sym && r == 0; i++) {
			print_symbol(&b, a, &a->sym[i], &o);
			if (b.len > (1u << 20) && !b.oom) { /* in pieces: a whole binary's is large */
				r = fwrite(b.data, 1, b.len, out) != b.len ? -1 : 0;
				pv_buf_reset(&b);
			}
		}
	}
	if (r == 0 && !b.oom && b.len && fwrite(b.data, 1, b.len, out) != b.len)
		r = -1;
	bool oom = b.oom;
	pv_buf_free(&b);
	if (oom)
		return pv_error(ENOMEM, "out of memory printing the annotation");
	if (r < 0 || fflush(out) != 0 || ferror(out))
		return pv_error(EIO, "writing the annotation failed");
	return 0;
}
