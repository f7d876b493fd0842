/* The session model: names and maps over time from COMM/FORK/EXIT/MMAP2. */
#include "support.h"
#include "perfev.h"
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
