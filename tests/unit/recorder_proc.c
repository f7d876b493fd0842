/* The recorder's view of the system: /proc maps, build-ids. */
#define _GNU_SOURCE
#include "support.h"
#include "recorder/recorder_int.h"
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
