/* Fuzz target: the perf.data reader, its header printer, the session,
 * perfev script, report --stats and the task tree (--mmaps) on a whole file
 * (file or pipe mode) held in a memory file. */
#define _GNU_SOURCE
#include "perfev.h"
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

static int count(void *ctx, const struct perfev_record *r)
{
	return perfev_tasks_process(ctx, r) < 0; /* only out of memory (or maps) stops it */
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
	struct perfev_perfdata *pd = perfev_perfdata_open_fd(fd);
	if (pd) {
		struct perfev_tasks *t = perfev_tasks_new(true);
		if (t)
			perfev_perfdata_process(pd, NULL, count, t);
		struct perfev_perfdata_info info;
		perfev_perfdata_info(pd, &info);
		for (int f = 0; f < 32; f++)
			perfev_perfdata_feature_str(pd, f);
		int32_t sockets[64];
		perfev_perfdata_cpu_sockets(pd, sockets, 64);
		FILE *null = fopen("/dev/null", "w");
		perfev_perfdata_print_stats(pd, null); /* perf report --stats */
		if (t)
			perfev_tasks_print(t, null);   /* --mmaps */
		perfev_tasks_free(t);
		perfev_perfdata_print_header(pd, null, false); /* perf report --header-only */
		perfev_perfdata_print_header(pd, null, true);  /* and -I */
		struct perfev_script_opts o = {.sz = sizeof(o), .out = null, .show_task_events = true,
					       .show_mmap_events = true, .show_switch_events = true,
					       .show_lost_events = true};
		perfev_script_run(pd, &o);
		o.json = true;
		perfev_script_run(pd, &o);
		o.json = false;
		o.fields = "comm,pid,tid,cpu,time,event,ip,sym,dso,addr,period,misc,flags,brstack,iregs,uregs";
		perfev_script_run(pd, &o);
		fclose(null);
		perfev_perfdata_close(pd);
	}
	close(fd);
	return 0;
}
