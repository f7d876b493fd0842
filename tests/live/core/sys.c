/* The system interface against the running kernel. */
#define _GNU_SOURCE
#include "support.h"
#include "perfev.h"
#include <errno.h>
#include <string.h>
#include <unistd.h>

Test(live_sys, kernel_attr_size_is_known)
{
	int size = perfev_kernel_attr_size();
	cr_assert_geq(size, PERF_ATTR_SIZE_VER5, "kernel attr size %d: %s", size, perfev_errmsg());
	cr_assert_eq(size % 8, 0);
}

Test(live_sys, open_read_enable_disable_reset)
{
	struct perfev_attr a = {0};
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	a.disabled = 1;
	int fd = perfev_open(&a, 0, -1, -1, 0);
	cr_assert_geq(fd, 0, "open: %s", perfev_errmsg());
	uint64_t v = 1;
	cr_assert_eq(read(fd, &v, sizeof(v)), 8);
	cr_assert_eq(v, 0, "disabled counter counted %llu", (unsigned long long)v);
	cr_assert_eq(perfev_ioc_enable(fd, false), 0);
	for (volatile int i = 0; i < 1000000; i++)
		;
	cr_assert_eq(perfev_ioc_disable(fd, false), 0);
	cr_assert_eq(read(fd, &v, sizeof(v)), 8);
	cr_assert_gt(v, 0);
	cr_assert_eq(perfev_ioc_reset(fd, false), 0);
	cr_assert_eq(read(fd, &v, sizeof(v)), 8);
	cr_assert_eq(v, 0);
	uint64_t id = 0;
	cr_assert_eq(perfev_ioc_id(fd, &id), 0);
	cr_assert_neq(id, 0);
	close(fd);
}

Test(live_sys, e2big_names_the_field)
{
	int size = perfev_kernel_attr_size();
	if (size >= (int)sizeof(struct perfev_attr))
		cr_skip_test("the kernel knows every field of perfev_attr (size %d)", size);
	struct perfev_attr a = {0};
	a.type = PERF_TYPE_SOFTWARE;
	a.config3 = 1;
	int fd = perfev_open(&a, 0, -1, -1, 0);
	cr_assert_eq(fd, -E2BIG);
	cr_assert(strstr(perfev_errmsg(), "config3"), "%s", perfev_errmsg());
}

Test(live_sys, esrch_is_explained)
{
	struct perfev_attr a = {0};
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	int fd = perfev_open(&a, 999999999, -1, -1, 0);
	cr_assert_eq(fd, -ESRCH);
	cr_assert(strstr(perfev_errmsg(), "999999999"), "%s", perfev_errmsg());
}

Test(live_sys, sysctl_read)
{
	struct perfev_sysctl s;
	perfev_sysctl_read(&s);
	cr_assert_neq(s.paranoid, PERFEV_SYSCTL_ABSENT);
	cr_assert_neq(s.mlock_kb, PERFEV_SYSCTL_ABSENT);
	cr_assert_gt(s.max_sample_rate, 0);
}

Test(live_sys, prctl_disable_stops_counting)
{
	struct perfev_attr a = {0};
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_TASK_CLOCK;
	int fd = perfev_open(&a, 0, -1, -1, 0);
	cr_assert_geq(fd, 0, "open: %s", perfev_errmsg());
	cr_assert_eq(perfev_prctl_disable(), 0);
	uint64_t v1, v2;
	cr_assert_eq(read(fd, &v1, 8), 8);
	for (volatile int i = 0; i < 3000000; i++)
		;
	cr_assert_eq(read(fd, &v2, 8), 8);
	cr_assert_eq(v1, v2, "counted while disabled: %llu -> %llu", (unsigned long long)v1,
		     (unsigned long long)v2);
	cr_assert_eq(perfev_prctl_enable(), 0);
	for (volatile int i = 0; i < 3000000; i++)
		;
	cr_assert_eq(read(fd, &v2, 8), 8);
	cr_assert_gt(v2, v1);
	close(fd);
}
