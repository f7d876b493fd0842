/* The recorder's view of the system: /proc maps, build-ids. */
#define _GNU_SOURCE
#include "support.h"
#include "recorder_int.h"
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
	int n = rec_elf_build_id("/bin/ls", id, sizeof(id));
	cr_assert_eq(n, 20);
	char hex[41];
	for (int i = 0; i < n; i++)
		sprintf(hex + 2 * i, "%02x", id[i]);
	cr_assert_eq(strncmp(hex, r.out, 40), 0, "%s vs %s", hex, r.out);
	cr_assert_lt(rec_elf_build_id("/etc/passwd", id, sizeof(id)), 0);
	run_result_free(&r);
	if (rec_kernel_build_id(id, sizeof(id)) < 0)
		cr_skip_test("no /sys/kernel/notes build-id");
}
