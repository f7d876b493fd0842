/* The session model: names and maps over time from COMM/FORK/EXIT/MMAP2. */
#include "support.h"
#include "perfev.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct perfev_record comm(uint32_t pid, uint32_t tid, const char *c, uint64_t t, bool exec)
{
	struct perfev_record r = {.type = PERF_RECORD_COMM, .has_sid = true};
	r.misc = exec ? PERF_RECORD_MISC_COMM_EXEC : 0;
	r.u.comm.pid = pid;
	r.u.comm.tid = tid;
	r.u.comm.comm = c;
	r.sid.time = t;
	return r;
}

static struct perfev_record mmap2(uint32_t pid, uint64_t start, uint64_t len, uint64_t pgoff, const char *f,
				  uint64_t t)
{
	struct perfev_record r = {.type = PERF_RECORD_MMAP2, .misc = PERF_RECORD_MISC_USER, .has_sid = true};
	r.u.mmap.pid = r.u.mmap.tid = pid;
	r.u.mmap.addr = start;
	r.u.mmap.len = len;
	r.u.mmap.pgoff = pgoff;
	r.u.mmap.filename = f;
	r.u.mmap.prot = 5;
	r.sid.time = t;
	return r;
}

Test(unit_session, names_and_maps_over_time)
{
	struct perfev_session *s = perfev_session_new();
	struct perfev_record r;
	cr_assert_str_eq(perfev_session_comm(s, 77), ":77");
	cr_assert_str_eq(perfev_session_comm(s, 0), "swapper");
	r = comm(10, 10, "bash", 1, false);
	perfev_session_process(s, &r);
	r = mmap2(10, 0x400000, 0x10000, 0, "/bin/bash", 2);
	perfev_session_process(s, &r);
	/* fork: the child inherits name and maps */
	r = (struct perfev_record){.type = PERF_RECORD_FORK};
	r.u.fork.pid = r.u.fork.tid = 11;
	r.u.fork.ppid = r.u.fork.ptid = 10;
	r.u.fork.time = 3;
	perfev_session_process(s, &r);
	cr_assert_str_eq(perfev_session_comm(s, 11), "bash");
	const struct perfev_map *m = perfev_session_find_map(s, 11, 11, PERF_RECORD_MISC_USER, 0x401234, 4);
	cr_assert(m && !strcmp(m->path, "/bin/bash"));
	/* exec: new name, old maps gone from then on */
	r = comm(11, 11, "ls", 5, true);
	perfev_session_process(s, &r);
	r = mmap2(11, 0x400000, 0x8000, 0x1000, "/bin/ls", 6);
	perfev_session_process(s, &r);
	cr_assert_str_eq(perfev_session_comm(s, 11), "ls");
	cr_assert_str_eq(perfev_session_comm_at(s, 11, 4), "bash");
	m = perfev_session_find_map(s, 11, 11, PERF_RECORD_MISC_USER, 0x401000, 7);
	cr_assert(m && !strcmp(m->path, "/bin/ls") && m->pgoff == 0x1000);
	m = perfev_session_find_map(s, 11, 11, PERF_RECORD_MISC_USER, 0x401000, 4);
	cr_assert(m && !strcmp(m->path, "/bin/bash"));
	cr_assert_null(perfev_session_find_map(s, 11, 11, PERF_RECORD_MISC_USER, 0x409000, 7));
	/* a partial overlap keeps the part that sticks out */
	r = mmap2(10, 0x404000, 0x1000, 0, "//anon", 8);
	perfev_session_process(s, &r);
	m = perfev_session_find_map(s, 10, 10, PERF_RECORD_MISC_USER, 0x408000, 9);
	cr_assert(m && !strcmp(m->path, "/bin/bash") && m->start == 0x405000 && m->pgoff == 0x5000);
	m = perfev_session_find_map(s, 10, 10, PERF_RECORD_MISC_USER, 0x404800, 9);
	cr_assert(m && !strcmp(m->path, "//anon"));
	/* kernel maps are shared by everyone */
	struct perfev_record k = {.type = PERF_RECORD_MMAP, .misc = PERF_RECORD_MISC_KERNEL};
	k.u.mmap.pid = (uint32_t)-1;
	k.u.mmap.addr = 0xffffffff81000000ULL;
	k.u.mmap.len = 0x1000000;
	k.u.mmap.filename = "[kernel.kallsyms]_text";
	perfev_session_process(s, &k);
	m = perfev_session_find_map(s, 10, 10, PERF_RECORD_MISC_KERNEL, 0xffffffff81000100ULL, 9);
	cr_assert(m && m->kernel);
	cr_assert_eq(perfev_session_thread_pid(s, 11), 11);
	cr_assert_geq(perfev_session_nr_threads(s), 2);
	perfev_session_free(s);
	perfev_session_free(NULL);
}

static struct perfev_record fork_rec(uint32_t pid, uint32_t tid, uint32_t ppid, uint32_t ptid, uint64_t t)
{
	struct perfev_record r = {.type = PERF_RECORD_FORK};
	r.u.fork.pid = pid, r.u.fork.tid = tid, r.u.fork.ppid = ppid, r.u.fork.ptid = ptid, r.u.fork.time = t;
	return r;
}

struct seen {
	struct perfev_session_thread th[8];
	char comm[8][16];
	int n;
};

static int collect(void *ctx, const struct perfev_session_thread *th)
{
	struct seen *s = ctx;
	cr_assert_lt(s->n, 8);
	s->th[s->n] = *th;
	snprintf(s->comm[s->n], sizeof(s->comm[0]), "%s", th->comm ? th->comm : "(none)");
	s->n++;
	return 0;
}

static void feed(struct perfev_session *s, struct perfev_record r) { cr_assert_eq(perfev_session_process(s, &r), 0); }

Test(unit_session, threads_with_parents_exits_and_maps_now)
{
	struct perfev_session *s = perfev_session_new();
	feed(s, comm(10, 10, "sh", 1, false));
	feed(s, mmap2(10, 0x400000, 0x10000, 0, "/bin/sh", 2));
	feed(s, mmap2(10, 0x200000, 0x1000, 0, "/lib/a.so", 2));
	feed(s, fork_rec(11, 11, 10, 10, 3));
	feed(s, (struct perfev_record){.type = PERF_RECORD_EXIT, .u.fork = {11, 10, 11, 10, 4}});
	struct seen seen = {0};
	cr_assert_eq(perfev_session_for_each_thread(s, collect, &seen), 0);
	cr_assert_eq(seen.n, 2);
	cr_expect(seen.th[0].tid == 10 && seen.th[0].ppid == -1 && !seen.th[0].exited);
	cr_expect_str_eq(seen.comm[0], "sh");
	cr_expect(seen.th[1].tid == 11 && seen.th[1].pid == 11 && seen.th[1].ppid == 10 && seen.th[1].exited);
	cr_expect_str_eq(seen.comm[1], "sh");
	/* the maps now, by start: the child's copies; none after an exec */
	struct perfev_map *m;
	size_t nr;
	cr_assert_eq(perfev_session_thread_maps(s, 11, &m, &nr), 0);
	cr_assert_eq(nr, 2);
	cr_expect(m[0].start == 0x200000 && !strcmp(m[0].path, "/lib/a.so") && m[1].start == 0x400000);
	free(m);
	feed(s, comm(10, 10, "ls", 5, true));
	cr_assert_eq(perfev_session_thread_maps(s, 10, &m, &nr), 0);
	cr_expect(nr == 0 && !m);
	cr_expect_eq(perfev_session_thread_maps(s, 99, &m, &nr), -ENOENT);
	perfev_session_free(s);
}

Test(unit_session, perf_thread_table_on_request)
{
	struct perfev_session_opts o;
	memset(&o, 0, sizeof(o));
	o.sz = sizeof(o), o.perf_maps = true;
	cr_expect_null(perfev_session_new_opts(&o), "perf_maps without perf_threads");
	cr_expect_eq(errno, EINVAL);
	struct { struct perfev_session_opts o; uint64_t newer; } big;
	memset(&big, 0, sizeof(big));
	big.o.sz = sizeof(big), big.newer = 1;
	cr_expect_null(perfev_session_new_opts(&big.o), "a newer caller's field set");
	cr_expect_eq(errno, EINVAL);
	o.perf_threads = true;
	struct perfev_session *s = perfev_session_new_opts(&o);
	cr_assert_not_null(s, "%s", perfev_errmsg());
	feed(s, comm(5, 5, "old", 1, false));
	feed(s, mmap2(5, 0x1000, 0x1000, 0, "/bin/old", 1));
	feed(s, fork_rec(5, 5, 0, 0, 2)); /* tid 5 again: perf's table replaces it */
	struct seen seen = {0};
	cr_assert_eq(perfev_session_for_each_thread(s, collect, &seen), 0);
	cr_assert_eq(seen.n, 2, "swapper and the new 5");
	cr_expect(seen.th[0].tid == 0 && seen.th[0].pid == 0);
	cr_expect_str_eq(seen.comm[0], "swapper");
	cr_expect(seen.th[1].tid == 5 && seen.th[1].ppid == 0);
	cr_expect_str_eq(seen.comm[1], "swapper", "a forked task is named as its parent");
	/* perf's maps: the new process's own (none); the session's own model
	 * still names tid 5 as it was named last */
	struct perfev_map *m;
	size_t nr;
	cr_assert_eq(perfev_session_thread_maps(s, 5, &m, &nr), 0);
	cr_expect_eq(nr, 0);
	cr_expect_str_eq(perfev_session_comm(s, 5), "swapper");
	cr_expect_str_eq(perfev_session_comm_at(s, 5, 1), "old");
	perfev_session_free(s);
	/* the tasks view sits on such a session */
	struct perfev_tasks *t = perfev_tasks_new(true);
	cr_assert_not_null(perfev_tasks_session(t));
	seen.n = 0;
	cr_assert_eq(perfev_session_for_each_thread(perfev_tasks_session(t), collect, &seen), 0);
	cr_expect(seen.n == 1 && seen.th[0].tid == 0);
	perfev_tasks_free(t);
}
