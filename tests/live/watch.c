/* In-process watchpoints against the real kernel: every access is one call. */
#define _GNU_SOURCE
#include "support.h"
#include "perfev.h"
#include <errno.h>
#include <string.h>

static volatile long target[4] __attribute__((aligned(8)));
static volatile int hits;
static volatile uint64_t last_addr;

static void on_hit(const struct perfev_watch_hit *h, void *arg)
{
	hits++;
	last_addr = h->addr;
	(*(volatile int *)arg)++;
}

static struct perfev_watch *watch_or_skip(const volatile void *p, unsigned type, volatile int *calls)
{
	struct perfev_watch *w = perfev_watch_new((const void *)p, sizeof(long), type, on_hit, (void *)calls);
	if (!w && (errno == ENOENT || errno == EOPNOTSUPP || errno == ENODEV))
		cr_skip_test("no hardware breakpoints here: %s", perfev_errmsg());
	cr_assert(w, "perfev_watch_new: %s", perfev_errmsg());
	return w;
}

Test(live_watch, n_writes_are_n_calls)
{
	volatile int calls = 0;
	struct perfev_watch *w = watch_or_skip(&target[1], PERFEV_WATCH_W, &calls);
	for (int i = 0; i < 37; i++)
		target[1] = i;
	(void)target[1]; /* a read: not a write */
	target[2] = 5;   /* a neighbour: not watched */
	cr_assert_eq(calls, 37, "37 writes gave %d calls", calls);
	cr_assert_eq(last_addr, (uint64_t)(uintptr_t)&target[1]);
	cr_assert_eq(perfev_watch_count(w), 37);
	perfev_watch_free(w);
	target[1] = 99;
	cr_assert_eq(calls, 37, "a write after free was reported");
}

Test(live_watch, moving_follows_the_new_address)
{
	volatile int calls = 0;
	struct perfev_watch *w = watch_or_skip(&target[0], PERFEV_WATCH_W, &calls);
	target[0] = 1;
	cr_assert_eq(calls, 1);
	int r = perfev_watch_move(w, (const void *)&target[3], sizeof(long), PERFEV_WATCH_RW);
	cr_assert_eq(r, 0, "move: %s", perfev_errmsg());
	target[0] = 2; /* old address: silent now */
	cr_assert_eq(calls, 1);
	target[3] = 3;
	long v = target[3];
	(void)v;
	cr_assert_eq(calls, 3, "a write and a read of the new address gave %d calls", calls - 1);
	cr_assert_eq(last_addr, (uint64_t)(uintptr_t)&target[3]);
	perfev_watch_free(w);
}

Test(live_watch, bad_shapes_are_explained)
{
	volatile int calls = 0;
	cr_assert_null(perfev_watch_new((const char *)&target[0] + 1, 8, PERFEV_WATCH_W, on_hit, (void *)&calls));
	cr_assert_eq(errno, EINVAL);
	cr_assert(strstr(perfev_errmsg(), "aligned"), "%s", perfev_errmsg());
	cr_assert_null(perfev_watch_new((const void *)&target[0], 3, PERFEV_WATCH_W, on_hit, (void *)&calls));
	cr_assert(strstr(perfev_errmsg(), "1, 2, 4 or 8"), "%s", perfev_errmsg());
	cr_assert_eq(perfev_watch_type_parse("rw"), PERFEV_WATCH_RW);
	cr_assert_eq(perfev_watch_type_parse("q"), -EINVAL);
	perfev_watch_free(NULL);
}
