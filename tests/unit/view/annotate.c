/*
 * perfev annotate's disassembler on an aarch64 binary (built here with the
 * cross compiler, workloads/hotloop.c -O2 -g): capstone decodes what
 * binutils' aarch64 objdump shows, instruction for instruction at the same
 * addresses with the same mnemonics, branch targets named as objdump names
 * them ("b.ne   938 <sum_div+0x18>"), the hits counted on their
 * instruction, and the source rows from the binary's DWARF. (x86-64 is
 * compared with perf annotate itself: tests/interop/view/annotate.c.)
 */
#define _GNU_SOURCE
#include "support.h"
#include "perfev.h"
#include "symbols/code.h"
#include "view/annotate_int.h"

#include <elf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct odinsn {
	uint64_t addr;
	char mnemonic[32], target[96]; /* target: "938 <sum_div+0x18>" of a branch, else "" */
};

/* objdump -d's instructions of function fn: count, start and end */
static size_t objdump_fn(const char *text, const char *fn, struct odinsn *v, size_t max, uint64_t *end)
{
	char head[128];
	snprintf(head, sizeof(head), " <%s>:\n", fn);
	const char *p = strstr(text, head);
	cr_assert_not_null(p, "objdump shows no %s", fn);
	p = strchr(p, '\n') + 1;
	size_t n = 0;
	while (*p && *p != '\n' && n < max) {
		struct odinsn *i = &v[n];
		memset(i, 0, sizeof(*i));
		char line[320], rest[256] = "";
		snprintf(line, sizeof(line), "%.*s", (int)strcspn(p, "\n"), p); /* (scanf's \t skips newlines) */
		if (sscanf(line, " %" SCNx64 ":\t%31s\t%255[^\n]", &i->addr, i->mnemonic, rest) >= 2) {
			char *lt = strchr(rest, '<');
			if (lt && strchr(lt, '>')) { /* "950 <sum_div+0x30>" (and a comment) */
				char *start = lt - 1;
				while (start > rest && start[-1] != ' ' && start[-1] != ',')
					start--;
				snprintf(i->target, sizeof(i->target), "%.*s", (int)(strchr(lt, '>') + 1 - start), start);
			}
			n++;
		}
		p = strchr(p, '\n');
		p = p ? p + 1 : "";
	}
	*end = n ? v[n - 1].addr + 4 : 0;
	return n;
}

Test(unit_annotate, aarch64_like_objdump, .timeout = 60)
{
	char exe[4200];
	snprintf(exe, sizeof(exe), "%s/hotloop-arm64", test_tmpdir());
	struct run_result r = run_cmd("aarch64-linux-gnu-gcc -O2 -g -o '%s' '%s/workloads/hotloop.c'", exe,
				      PERFEV_SRCDIR);
	if (r.status != 0)
		cr_skip_test("no aarch64 cross compiler (gcc-aarch64-linux-gnu): %s", r.err);
	run_result_free(&r);
	r = run_cmd("aarch64-linux-gnu-objdump -d --no-show-raw-insn '%s'", exe);
	cr_assert_eq(r.status, 0, "%s", r.err);
	static const char *const fns[] = {"sum_div", "mix_a"};
	for (size_t f = 0; f < 2; f++) {
		static struct odinsn od[256];
		uint64_t end;
		size_t n = objdump_fn(r.out, fns[f], od, 256, &end);
		cr_assert_gt(n, 5);
		struct perfev_annotation a = {.pool = pv_strpool_new(), .syms = perfev_symbolizer_new(NULL)};
		a.o.sz = sizeof(a.o);
		struct perfev_annotated_symbol s = {.symbol = fns[f], .dso = exe, .start = od[0].addr,
						    .size = end - od[0].addr, .samples = 4, .period = 4};
		/* three samples on the last instruction but one, one on the first */
		struct pv_ann_hit hits[] = {{od[0].addr, 1, 1}, {od[n - 2].addr, 3, 3}};
		struct pv_code c;
		cr_assert_eq(pv_symbolizer_code(a.syms, exe, s.start, s.size, &c), 0);
		cr_assert_eq(c.machine, EM_AARCH64);
		cr_assert_eq(c.len, s.size);
		struct pv_ann_build b = {.a = &a, .s = &s, .hits = hits, .nr_hits = 2};
		cr_assert_eq(pv_ann_disasm(&b, c.bytes, c.len, s.start, c.machine), 0, "%s", perfev_errmsg());
		size_t k = 0;
		bool source = false;
		for (size_t i = 0; i < b.nr; i++) {
			const struct perfev_annotate_row *row = &b.rows[i];
			source |= row->kind == PERFEV_ANNOTATE_SOURCE && row->text && strstr(row->text, "i++");
			if (row->kind != PERFEV_ANNOTATE_INSN)
				continue;
			cr_assert_lt(k, n, "%s: more instructions than objdump's", fns[f]);
			cr_expect_eq(row->addr, od[k].addr, "%s: %" PRIx64 " where objdump has %" PRIx64,
				     fns[f], row->addr, od[k].addr);
			size_t ml = strlen(od[k].mnemonic);
			cr_expect(!strncmp(row->text, od[k].mnemonic, ml) && strchr(" ", row->text[ml] ? row->text[ml] : ' '),
				  "%s at %" PRIx64 ": '%s', objdump '%s'", fns[f], row->addr, row->text, od[k].mnemonic);
			if (od[k].target[0])
				cr_expect(strstr(row->text, od[k].target), "%s at %" PRIx64 ": '%s', objdump's target '%s'",
					  fns[f], row->addr, row->text, od[k].target);
			double want = k == 0 ? 25.0 : k == n - 2 ? 75.0 : 0.0;
			cr_expect_float_eq(row->percent, want, 1e-9, "%s at %" PRIx64 ": %.2f", fns[f], row->addr,
					   row->percent);
			cr_expect_eq(row->nr_bytes, 4);
			k++;
		}
		cr_expect_eq(k, n, "%s: %zu instructions, objdump %zu", fns[f], k, n);
		cr_expect(source, "%s: no source row for the loop's line", fns[f]);
		free(b.rows);
		pv_ann_sources_free(&a);
		perfev_symbolizer_free(a.syms);
		pv_strpool_free(a.pool);
	}
	run_result_free(&r);
}
