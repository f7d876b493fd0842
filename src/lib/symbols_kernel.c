/*
 * symbols_kernel.c — kernel and module symbols from /proc/kallsyms. Only
 * text symbols are kept; sizes are the gaps to the next symbol, capped at a
 * module boundary so the last function of one does not swallow the space
 * up to the next.
 */
#include "symbols_int.h"

#include <stdlib.h>
#include <string.h>

#define KALLSYMS_MAX (256u << 20)
#define BOUNDARY_CAP 4096

int pv_kallsyms_load(struct perfev_symbolizer *s, const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	int ret = pv_read_file(path, &buf, &len, KALLSYMS_MAX);
	if (ret < 0) {
		pv_sym_note(s, "%s: cannot read (%s): kernel addresses stay unresolved; run as root "
			    "or give a copy of the recording machine's kallsyms", path, strerror(-ret));
		return ret;
	}
	size_t zero = 0, total = 0;
	for (char *line = buf, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		char *end;
		uint64_t addr = strtoull(line, &end, 16);
		if (end == line || *end != ' ')
			continue;
		char type = end[1];
		if (!type || end[2] != ' ')
			continue;
		char *name = end + 3;
		total++;
		if (!strchr("tTwW", type))
			continue;
		if (addr == 0) {
			zero++;
			continue;
		}
		const char *module = NULL;
		char *tab = strchr(name, '\t');
		if (tab) {
			*tab = '\0';
			char *m = tab + 1;
			size_t ml = strlen(m);
			if (ml > 2 && m[0] == '[' && m[ml - 1] == ']')
				module = pv_strpool_add(s->pool, m);
		}
		if (pv_symtab_add(&s->kernel, addr, 0, pv_strpool_add(s->pool, name), module,
				  type == 'T' ? 2 : 1) < 0) {
			free(buf);
			return -ENOMEM;
		}
	}
	free(buf);
	pv_symtab_finish(&s->kernel);
	struct pv_symtab *t = &s->kernel;
	for (size_t i = 0; i + 1 < t->nr; i++)
		if (t->syms[i].module != t->syms[i + 1].module && t->syms[i].size > BOUNDARY_CAP)
			t->syms[i].size = BOUNDARY_CAP;
	if (t->nr && !t->syms[t->nr - 1].size)
		t->syms[t->nr - 1].size = BOUNDARY_CAP;
	if (t->nr == 0)
		pv_sym_note(s, "%s: %s: kernel addresses stay unresolved; run as root or set "
			    "sysctl kernel.kptr_restrict=0", path,
			    zero ? "addresses are hidden (all zero)" : "no text symbols");
	(void)total;
	return (int)t->nr;
}
