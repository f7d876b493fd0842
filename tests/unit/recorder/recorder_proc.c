/* The recorder's view of the system: /proc maps, build-ids. */
#define _GNU_SOURCE
#include "support.h"
#include "recorder/recorder_int.h"
#include "perfev/record.h"
#include "core/internal.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int find_self(const struct rec_proc_map *m, void *ctx)
{
	if ((m->prot & PROT_EXEC) && strstr(m->path, "perfev-tests")) {
		*(int *)ctx = 1;
		return 1;
	}
	return 0;
}

Test(unit_recorder_proc, own_maps_and_status)
{
	int found = 0;
	cr_assert_eq(rec_proc_maps(getpid(), find_self, &found), 0);
	cr_assert(found, "no executable map of the test binary in /proc/self/maps");
	char comm[16];
	pid_t tgid, ppid;
	cr_assert_eq(rec_proc_status(getpid(), comm, &tgid, &ppid), 0);
	cr_assert_eq(tgid, getpid());
	cr_assert_eq(ppid, getppid());
	pid_t *tids;
	size_t n;
	cr_assert_eq(rec_task_tids(getpid(), &tids, &n), 0);
	cr_assert_geq(n, 1);
	cr_assert_eq(tids[0], getpid(), "the main thread has the lowest tid");
	free(tids);
	cr_assert_eq(rec_task_tids(999999999, &tids, &n), -ESRCH);
}

Test(unit_recorder_proc, build_id_matches_readelf)
{
	struct run_result r = run_cmd("readelf -n /bin/ls | sed -n 's/.*Build ID: //p'");
	if (r.status != 0 || !r.out[0])
		cr_skip_test("readelf shows no build-id for /bin/ls");
	uint8_t id[20];
	int n = pv_file_build_id("/bin/ls", id, sizeof(id));
	cr_assert_eq(n, 20);
	char hex[41];
	for (int i = 0; i < n; i++)
		sprintf(hex + 2 * i, "%02x", id[i]);
	cr_assert_eq(strncmp(hex, r.out, 40), 0, "%s vs %s", hex, r.out);
	cr_assert_lt(pv_file_build_id("/etc/passwd", id, sizeof(id)), 0);
	run_result_free(&r);
	if (pv_kernel_build_id(id, sizeof(id)) < 0)
		cr_skip_test("no /sys/kernel/notes build-id");
}

struct mods {
	char names[4][64];
	uint64_t addr[4], size[4];
	int n;
};

static int add_mod(const char *name, uint64_t addr, uint64_t size, void *ctx)
{
	struct mods *m = ctx;
	if (m->n < 4) {
		snprintf(m->names[m->n], sizeof(m->names[0]), "%s", name);
		m->addr[m->n] = addr;
		m->size[m->n] = size;
	}
	m->n++;
	return 0;
}

/* /proc/modules as the recorder reads it for perf's module maps: name, size
 * and address of each module; hidden addresses (0) and junk left out; a
 * kernel without modules has no such file. */
Test(unit_recorder_proc, loaded_modules)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/modules", test_tmpdir());
	FILE *f = fopen(path, "w");
	cr_assert(f);
	fputs("ext4 1056768 2 - Live 0xffffffffc0a41000\n"
	      "crc16 12288 1 ext4, Live 0xffffffffc0a3c000\n"
	      "hidden 4096 0 - Live 0x0000000000000000\n"
	      "garbage line\n"
	      "nvme 61440 3 - Live 0xffffffffc0a1a000 (E)\n", f);
	fclose(f);
	struct mods m = {0};
	cr_assert_eq(rec_modules(path, add_mod, &m), 0);
	cr_assert_eq(m.n, 3);
	cr_expect_str_eq(m.names[0], "ext4");
	cr_expect_eq(m.addr[0], 0xffffffffc0a41000ull);
	cr_expect_eq(m.size[0], 1056768);
	cr_expect_str_eq(m.names[1], "crc16");
	cr_expect_str_eq(m.names[2], "nvme");
	cr_expect_eq(m.addr[2], 0xffffffffc0a1a000ull);
	struct mods none = {0};
	cr_expect_eq(rec_modules("/nonexistent/modules", add_mod, &none), 0);
	cr_expect_eq(none.n, 0);
}

/* The rings of the CPUs are read one after the other: a sample of a process
 * that moved to another CPU can come before the MMAP2 of its binary. Its
 * binary still goes into the build-id table (looked up again at the end);
 * the CI saw spin's build-id missing once on a loaded machine. */
Test(unit_recorder_proc, a_sample_read_before_its_map_still_marks_its_binary)
{
	struct perfev_recorder *r = calloc(1, sizeof(*r));
	cr_assert_not_null(r);
	rec_scan_sample(r, 42, 0x401234, false);   /* before any map of 42 */
	rec_scan_mmap(r, 42, 0x400000, 0x10000, "/bin/hit");
	rec_scan_mmap(r, 42, 0x500000, 0x10000, "/bin/missed");
	rec_scan_sample(r, 43, 0x401234, false);   /* a pid that never maps it */
	size_t n;
	bool kernel;
	const struct rec_dso *d = rec_scan_dsos(r, &n, &kernel);
	cr_assert_eq(n, 2);
	cr_assert(!kernel);
	cr_assert_str_eq(d[0].path, "/bin/hit");
	cr_assert(d[0].hit, "the sample read before its map did not mark /bin/hit");
	cr_assert(!d[1].hit);
	rec_scan_free(r);
	free(r);
}

/* Ring records go through the one decoder into the scan's session: a
 * sample layout without IDENTIFIER first is read right (the old scan read
 * ip and pid at fixed offsets), and a sample read after its process's exec
 * but taken before it marks the binary mapped at its time. */
static void feed_encoded(struct perfev_recorder *r, const struct perfev_attr *a, struct perfev_record *rec)
{
	unsigned char buf[512];
	int n = perfev_record_encode(rec, a, buf, sizeof(buf));
	cr_assert_gt(n, 0, "%s", perfev_errmsg());
	rec_scan_record(r, buf, (size_t)n);
}

static struct perfev_record mmap2_at(uint32_t pid, uint64_t addr, const char *path, uint64_t time)
{
	struct perfev_record m = {.type = PERF_RECORD_MMAP2, .misc = PERF_RECORD_MISC_USER, .has_sid = true};
	m.u.mmap.pid = m.u.mmap.tid = pid;
	m.u.mmap.addr = addr;
	m.u.mmap.len = 0x10000;
	m.u.mmap.prot = PROT_READ | PROT_EXEC;
	m.u.mmap.filename = path;
	m.sid.pid = m.sid.tid = pid;
	m.sid.time = time;
	return m;
}

Test(unit_recorder_proc, samples_are_decoded_and_looked_up_at_their_time)
{
	struct perfev_recorder *r = calloc(1, sizeof(*r));
	cr_assert_not_null(r);
	struct perfev_attr a = {.size = sizeof(a), .sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME};
	a.sample_id_all = 1;
	cr_assert_not_null(r->dec = perfev_decoder_new());
	cr_assert_geq(perfev_decoder_add_attr(r->dec, &a, NULL, 0), 0);
	struct perfev_record m = mmap2_at(42, 0x400000, "/bin/old", 10);
	feed_encoded(r, &a, &m);
	struct perfev_record c = {.type = PERF_RECORD_COMM, .misc = PERF_RECORD_MISC_COMM_EXEC, .has_sid = true};
	c.u.comm.pid = c.u.comm.tid = 42;
	c.u.comm.comm = "new";
	c.sid.pid = c.sid.tid = 42;
	c.sid.time = 20;
	feed_encoded(r, &a, &c);
	m = mmap2_at(42, 0x400000, "/bin/new", 21);
	feed_encoded(r, &a, &m);
	m = mmap2_at(42, 0x600000, "/bin/other", 22);
	feed_encoded(r, &a, &m);
	struct perfev_record s = {.type = PERF_RECORD_SAMPLE, .misc = PERF_RECORD_MISC_USER};
	s.u.sample.sample_type = a.sample_type;
	s.u.sample.ip = 0x401234;
	s.u.sample.pid = s.u.sample.tid = 42;
	s.u.sample.time = 15; /* before the exec: the old binary */
	feed_encoded(r, &a, &s);
	size_t n;
	bool kernel;
	const struct rec_dso *d = rec_scan_dsos(r, &n, &kernel);
	cr_assert_eq(n, 3);
	cr_assert_str_eq(d[0].path, "/bin/old");
	cr_expect(d[0].hit, "a sample taken before the exec did not mark the binary mapped then");
	cr_expect(!d[1].hit && !d[2].hit);
	s.u.sample.time = 30; /* after it: the new one */
	feed_encoded(r, &a, &s);
	d = rec_scan_dsos(r, &n, &kernel);
	cr_expect(d[1].hit && !d[2].hit && !kernel);
	s.misc = PERF_RECORD_MISC_KERNEL;
	feed_encoded(r, &a, &s);
	rec_scan_dsos(r, &n, &kernel);
	cr_expect(kernel);
	rec_scan_free(r);
	perfev_decoder_free(r->dec);
	free(r);
}
