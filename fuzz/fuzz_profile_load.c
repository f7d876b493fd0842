/* Fuzz target: perf.data -> profile (session, symbolizer, callchains,
 * DWARF stacks) and every view and exporter of the result, and the branch
 * table (perf report's branch view), on a whole file
 * held in a memory file. Kernel symbols off: nothing here depends on them
 * and reading /proc/kallsyms per input would starve the fuzzer. */
#define _GNU_SOURCE
#include "perfev.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static void views(const struct perfev_profile *p, FILE *null)
{
	struct perfev_profile_entry *e;
	size_t n;
	if (perfev_profile_flat(p, PERFEV_KEY_COMM | PERFEV_KEY_DSO | PERFEV_KEY_SYM, PERFEV_VALUE_PERIOD,
				true, 0, &e, &n) == 0)
		free(e);
	if (perfev_profile_flat(p, PERFEV_KEY_SRCLINE | PERFEV_KEY_PID, PERFEV_VALUE_SAMPLES, false, 1.0,
				&e, &n) == 0)
		free(e);
	perfev_export_folded(p, NULL, null);
	perfev_export_flame(p, NULL, null);
	perfev_export_pprof(p, NULL, null);
	perfev_export_firefox(p, NULL, null);
	struct perfev_profile *c = perfev_profile_derive(p, PERFEV_GROUP_COMM, PERFEV_PROFILE_CALLEE);
	if (c)
		perfev_export_flame(c, NULL, null);
	perfev_profile_free(c);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz", 0);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) != (ssize_t)size) {
		close(fd);
		return 0;
	}
	char path[64];
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	FILE *null = fopen("/dev/null", "w");
	for (int srclines = 0; srclines < 2; srclines++) {
		struct perfev_profile_load_opts o = {.sz = sizeof(o), .group = PERFEV_GROUP_THREAD,
						     .flags = PERFEV_PROFILE_KEEP_SAMPLES, .event = -1,
						     .srclines = srclines, .kallsyms = ""};
		struct perfev_profile_load_info info = {.sz = sizeof(info)};
		struct perfev_profile *p = perfev_profile_load(path, &o, &info);
		if (p)
			views(p, null);
		perfev_profile_free(p);
	}
	/* every event at once (perf report's sections, GROUP_DESC) */
	struct perfev_profile_load_opts o = {.sz = sizeof(o), .group = PERFEV_GROUP_THREAD, .event = -1,
					     .kallsyms = "", .inline_dwarf_only = true};
	size_t nev;
	struct perfev_profile_event *ev = perfev_profile_load_events(path, &o, NULL, &nev);
	for (size_t i = 0; ev && i < nev; i++) {
		views(ev[i].profile, null);
		if (ev[i].leader < 0 || (size_t)ev[i].leader >= nev || ev[i].nr_members < 0 ||
		    (size_t)ev[i].leader + (size_t)(ev[i].nr_members ? ev[i].nr_members : 1) > nev)
			abort(); /* a group must stay inside the file's events */
	}
	perfev_profile_events_free(ev, nev);
	/* the branch view (perf report -b): every branch of every branch stack */
	struct perfev_branch_table *bt = perfev_branch_table_load(path, &o, NULL);
	for (size_t i = 0; i < perfev_branch_table_nr_events(bt); i++) {
		const struct perfev_branch_event *be = perfev_branch_table_event(bt, i);
		uint64_t sum = 0;
		for (size_t r = 0; r < be->nr; r++) {
			sum += be->rows[r].count;
			if (!be->rows[r].comm || !be->rows[r].thread_comm || (r && be->rows[r - 1].count < be->rows[r].count))
				abort(); /* named, and in perf's order */
		}
		if (sum != be->branches)
			abort();
	}
	perfev_branch_table_free(bt);
	fclose(null);
	close(fd);
	return 0;
}
