/* perfev_script_run as a library call: the caller's stream, its options
 * struct as an older or a newer caller sizes it, the symbols it names
 * through its resolver. */
#include "support.h"
#include "perfev.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CALLGRAPH CORPUS_DIR "/perf.data.callgraph-3.8"

/* perfev script of the corpus file into a string; *err: its return */
static char *script_of(const struct perfev_script_opts *o0, int *err)
{
	struct perfev_perfdata *pd = perfev_perfdata_open(CALLGRAPH);
	cr_assert(pd, "%s", perfev_errmsg());
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	cr_assert(f);
	struct {
		struct perfev_script_opts o;
		char newer[8];
	} big;
	memset(&big, 0, sizeof(big));
	memcpy(&big.o, o0, o0->sz < sizeof(big.o) ? o0->sz : sizeof(big.o));
	big.o.sz = o0->sz;
	if (o0->sz > sizeof(big.o)) /* a newer caller's option, set */
		big.newer[0] = 1;
	big.o.out = f;
	*err = perfev_script_run(pd, &big.o);
	fclose(f);
	perfev_perfdata_close(pd);
	return buf;
}

Test(unit_script, run_into_the_callers_stream_through_its_resolver)
{
	require_corpus();
	struct perfev_script_opts o = {.sz = sizeof(o), .fields = "tid,ip,sym,symoff,dso"};
	int err;
	char *all = script_of(&o, &err);
	cr_assert_eq(err, 0, "%s", perfev_errmsg());
	/* the samples' call chains, their objects named by the recorded maps
	 * (the binaries are another machine's: few symbols), another kernel's
	 * addresses left unknown as perf leaves them */
	cr_assert_gt(strlen(all), 100000);
	cr_assert(strstr(all, " ([kernel.kallsyms])"), "%.2000s", all);
	cr_assert(strstr(all, " [unknown] ([kernel.kallsyms])"), "%.2000s", all);
	/* an older caller (no resolver options): the same lines */
	o.sz = offsetof(struct perfev_script_opts, deltatime) + sizeof(o.deltatime);
	char *older = script_of(&o, &err);
	cr_assert_eq(err, 0, "%s", perfev_errmsg());
	cr_assert_str_eq(older, all);
	/* no kernel symbols asked for: the same here too (another kernel's) */
	o.sz = sizeof(o);
	o.kallsyms = "";
	char *nok = script_of(&o, &err);
	cr_assert_eq(err, 0, "%s", perfev_errmsg());
	cr_assert_str_eq(nok, all);
	free(all);
	free(older);
	free(nok);
}

Test(unit_script, options_it_does_not_know_are_refused)
{
	require_corpus();
	struct perfev_script_opts o = {.sz = sizeof(o) + 8, .fields = "tid,ip"};
	int err;
	char *out = script_of(&o, &err);
	cr_assert_eq(err, -EINVAL, "non-zero bytes past the known options");
	cr_assert(!out || !*out, "nothing printed: %s", out);
	free(out);
}
