/* perf's task tree (perfev/tasks.h) from crafted records: perf's table
 * order and depth, a FORK that replaces a thread, threads sharing their
 * leader's maps, overlap fixups, maps copied at fork, perf's names for
 * anonymous code and the vdso, an inode learnt late, a parent loop left
 * out; and the text perf report --mmaps prints. */
#define _GNU_SOURCE
#include "support.h"
#include "perfev.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static void comm(struct perfev_tasks *t, int pid, int tid, const char *name)
{
	struct perfev_record r = {.type = PERF_RECORD_COMM};
	r.u.comm.pid = (uint32_t)pid, r.u.comm.tid = (uint32_t)tid, r.u.comm.comm = name;
	cr_assert_eq(perfev_tasks_process(t, &r), 0);
}

static void fork_(struct perfev_tasks *t, int pid, int tid, int ppid, int ptid)
{
	struct perfev_record r = {.type = PERF_RECORD_FORK};
	r.u.fork.pid = (uint32_t)pid, r.u.fork.tid = (uint32_t)tid;
	r.u.fork.ppid = (uint32_t)ppid, r.u.fork.ptid = (uint32_t)ptid;
	cr_assert_eq(perfev_tasks_process(t, &r), 0);
}

static void mmap2(struct perfev_tasks *t, int pid, int tid, uint64_t addr, uint64_t len, uint64_t pgoff,
		  uint32_t prot, uint64_t ino, const char *file)
{
	struct perfev_record r = {.type = PERF_RECORD_MMAP2, .misc = PERF_RECORD_MISC_USER};
	r.u.mmap.pid = (uint32_t)pid, r.u.mmap.tid = (uint32_t)tid;
	r.u.mmap.addr = addr, r.u.mmap.len = len, r.u.mmap.pgoff = pgoff;
	r.u.mmap.prot = prot, r.u.mmap.flags = MAP_PRIVATE, r.u.mmap.ino = ino, r.u.mmap.maj = ino ? 8 : 0;
	r.u.mmap.filename = file;
	cr_assert_eq(perfev_tasks_process(t, &r), 0);
}

static char *text_of(struct perfev_tasks *t)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	cr_assert_eq(perfev_tasks_print(t, f), 0, "%s", perfev_errmsg());
	fclose(f);
	return text;
}

Test(unit_tasks, tree_in_perf_table_order)
{
	struct perfev_tasks *t = perfev_tasks_new(false);
	cr_assert(t);
	comm(t, 1, 1, "init");
	fork_(t, 300, 300, 1, 1);  /* table slot 44, after 44 */
	fork_(t, 44, 44, 1, 1);
	fork_(t, 301, 302, 300, 300); /* a thread of 300 */
	comm(t, 301, 302, "worker");
	fork_(t, 257, 257, 44, 44); /* slot 1: listed first, under 44 under 1 */
	comm(t, 9, 9, "orphan");    /* no FORK: a root */
	char *text = text_of(t);
	const char *want = "#      pid      tid     ppid  comm\n"
			   "         0        0       -1 |swapper\n"
			   "         1        1       -1 |init\n"
			   "        44       44        1 | init\n"
			   "       257      257       44 |  init\n"
			   "       300      300        1 | init\n"
			   "       301      302      300 |  worker\n"
			   "         9        9       -1 |orphan\n"
			   "       301      301       -1 |:301\n";
	/* 301 was made as 302's leader: a root without a FORK or name of its own */
	cr_expect_str_eq(text, want, "got:\n%s", text);
	free(text);
	perfev_tasks_free(t);
}

Test(unit_tasks, fork_replaces_a_thread_and_loops_are_left_out)
{
	struct perfev_tasks *t = perfev_tasks_new(false);
	comm(t, 5, 5, "old");
	fork_(t, 5, 5, 0, 0); /* tid 5 again: a new task under swapper, named as its parent */
	fork_(t, 6, 6, 5, 5);
	fork_(t, 5, 5, 6, 6); /* and again under 6: 5 and 6 are each other's parents */
	char *text = text_of(t);
	cr_expect_str_eq(text, "#      pid      tid     ppid  comm\n"
			       "         0        0       -1 |swapper\n", "got:\n%s", text);
	free(text);
	perfev_tasks_free(t);
}

static int count_tasks(void *ctx, const struct perfev_task *task, const struct perfev_task_map *m, size_t nr)
{
	(void)task, (void)m, (void)nr;
	return ++*(int *)ctx >= 2 ? 7 : 0;
}

Test(unit_tasks, walk_stops_when_asked)
{
	struct perfev_tasks *t = perfev_tasks_new(false);
	comm(t, 1, 1, "a");
	comm(t, 2, 2, "b");
	int n = 0;
	cr_expect_eq(perfev_tasks_walk(t, count_tasks, &n), 7);
	cr_expect_eq(n, 2);
	perfev_tasks_free(t);
}

Test(unit_tasks, maps_as_perf_keeps_them)
{
	struct perfev_tasks *t = perfev_tasks_new(true);
	comm(t, 10, 10, "app");
	mmap2(t, 10, 10, 0x1000, 0x4000, 0, PROT_READ | PROT_EXEC, 0, "/bin/app"); /* id learnt below */
	mmap2(t, 10, 11, 0x2000, 0x1000, 0x7000, PROT_READ | PROT_WRITE, 99, "/lib/x.so"); /* a thread's: the process's */
	mmap2(t, 10, 10, 0x9000, 0x1000, 0x5000, PROT_READ | PROT_EXEC, 0, "[vdso]");
	mmap2(t, 10, 10, 0xa000, 0x1000, 0, PROT_READ | PROT_EXEC, 0, "//anon");
	mmap2(t, 10, 10, 0xb000, 0x1000, 0, PROT_READ, 0, "//anon");
	mmap2(t, 10, 10, 0xc000, 0x1000, 0, PROT_READ | PROT_EXEC, 77, "/bin/app");
	fork_(t, 20, 20, 10, 10); /* copies the maps */
	mmap2(t, 20, 20, 0x1800, 0x100, 0, PROT_READ, 0, "/data");
	comm(t, 20, 20, "child");
	char *text = text_of(t);
	const char *want =
		"#      pid      tid     ppid  comm\n"
		"         0        0       -1 |swapper\n"
		"        10       10       -1 |app\n"
		"                                1000-2000 r-xp 00000000 77 /bin/app\n"
		"                                2000-3000 rw-p 00007000 99 /lib/x.so\n"
		"                                3000-5000 r-xp 00002000 77 /bin/app\n"
		"                                9000-a000 r-xp 00000000 0 [vdso]\n"
		"                                a000-b000 r-xp 00000000 0 /tmp/perf-10.map\n"
		"                                b000-c000 r--p 00000000 0 //anon\n"
		"                                c000-d000 r-xp 00000000 77 /bin/app\n"
		"        20       20       10 | child\n"
		"                                 1000-1800 r-xp 00000000 77 /bin/app\n"
		"                                 1800-1900 r--p 00000000 0 /data\n"
		"                                 1900-2000 r-xp 00000900 77 /bin/app\n"
		"                                 2000-3000 rw-p 00007000 99 /lib/x.so\n"
		"                                 3000-5000 r-xp 00002000 77 /bin/app\n"
		"                                 9000-a000 r-xp 00000000 0 [vdso]\n"
		"                                 a000-b000 r-xp 00000000 0 /tmp/perf-10.map\n"
		"                                 b000-c000 r--p 00000000 0 //anon\n"
		"                                 c000-d000 r-xp 00000000 77 /bin/app\n"
		"        10       11       -1 |:11\n"
		"                                1000-2000 r-xp 00000000 77 /bin/app\n"
		"                                2000-3000 rw-p 00007000 99 /lib/x.so\n"
		"                                3000-5000 r-xp 00002000 77 /bin/app\n"
		"                                9000-a000 r-xp 00000000 0 [vdso]\n"
		"                                a000-b000 r-xp 00000000 0 /tmp/perf-10.map\n"
		"                                b000-c000 r--p 00000000 0 //anon\n"
		"                                c000-d000 r-xp 00000000 77 /bin/app\n";
	cr_expect_str_eq(text, want, "got:\n%s", text);
	free(text);
	perfev_tasks_free(t);
}

Test(unit_tasks, kernel_maps_and_tasks_mode_make_no_threads)
{
	struct perfev_tasks *t = perfev_tasks_new(false);
	mmap2(t, 30, 30, 0x1000, 0x1000, 0, PROT_READ, 0, "/x"); /* --tasks: MMAPs make no thread */
	char *text = text_of(t);
	cr_expect_str_eq(text, "#      pid      tid     ppid  comm\n         0        0       -1 |swapper\n");
	free(text);
	perfev_tasks_free(t);
	t = perfev_tasks_new(true);
	struct perfev_record r = {.type = PERF_RECORD_MMAP, .misc = PERF_RECORD_MISC_KERNEL};
	r.u.mmap.pid = (uint32_t)-1, r.u.mmap.addr = 0xffffffff81000000ULL, r.u.mmap.len = 0x1000;
	r.u.mmap.filename = "[kernel.kallsyms]_text";
	cr_assert_eq(perfev_tasks_process(t, &r), 0);
	text = text_of(t);
	cr_expect_str_eq(text, "#      pid      tid     ppid  comm\n         0        0       -1 |swapper\n");
	free(text);
	perfev_tasks_free(t);
}
