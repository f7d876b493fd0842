/* Tracepoint formats: raw data printed as perf prints it, fields, filters,
 * and the TRACING_DATA layout read back (hostile input included). */
#define _GNU_SOURCE
#include "support.h"
#include "perfev.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "data/tp_formats.h"

struct sw_raw {
	uint16_t type;
	uint8_t flags, preempt;
	int32_t pid;
	char prev_comm[16];
	int32_t prev_pid, prev_prio;
	int64_t prev_state;
	char next_comm[16];
	int32_t next_pid, next_prio;
};

static struct sw_raw sw(long state)
{
	struct sw_raw r;
	memset(&r, 0, sizeof(r));
	r.type = 372;
	r.pid = 4242;
	strcpy(r.prev_comm, "calls_n");
	r.prev_pid = 4242;
	r.prev_prio = 120;
	r.prev_state = state;
	strcpy(r.next_comm, "swapper/1");
	r.next_pid = 0;
	r.next_prio = 120;
	return r;
}

static struct perfev_tp *formats(void)
{
	struct perfev_tp *tp = perfev_tp_new();
	cr_assert(tp);
	cr_assert_eq(perfev_tp_add_format(tp, "sched", sched_switch_fmt, strlen(sched_switch_fmt)),
		     372, "%s", perfev_errmsg());
	cr_assert_eq(perfev_tp_add_format(tp, "syscalls", openat_fmt, strlen(openat_fmt)), 782);
	return tp;
}

Test(unit_tracepoint, sched_switch_prints_as_perf)
{
	struct perfev_tp *tp = formats();
	cr_assert_str_eq(perfev_tp_name(tp, 372), "sched:sched_switch");
	struct sw_raw r = sw(1);
	char *out;
	cr_assert_gt(perfev_tp_print(tp, &r, sizeof(r), 1, &out), 0, "%s", perfev_errmsg());
	cr_assert_str_eq(out, "prev_comm=calls_n prev_pid=4242 prev_prio=120 prev_state=S ==> "
			      "next_comm=swapper/1 next_pid=0 next_prio=120");
	free(out);
	r = sw(0);
	perfev_tp_print(tp, &r, sizeof(r), 1, &out);
	cr_assert(strstr(out, "prev_state=R ==>"), "%s", out);
	free(out);
	r = sw(2 | 256); /* D, preempted (+) */
	perfev_tp_print(tp, &r, sizeof(r), 1, &out);
	cr_assert(strstr(out, "prev_state=D+ ==>"), "%s", out);
	free(out);
	perfev_tp_free(tp);
}

Test(unit_tracepoint, openat_prints_as_perf)
{
	struct perfev_tp *tp = formats();
	uint64_t raw[6] = {0};
	uint16_t type = 782;
	memcpy(raw, &type, 2);
	int32_t nr = 257;
	memcpy((char *)raw + 8, &nr, 4);
	raw[2] = 0xffffff9c; /* AT_FDCWD, as the int argument register holds it */
	raw[3] = 0x7f5cfdb6f0b1;
	raw[4] = 0x241;
	raw[5] = 0x1b6;
	char *out;
	cr_assert_gt(perfev_tp_print(tp, raw, sizeof(raw), 0, &out), 0);
	/* what perf 6.1 prints for the same record */
	cr_assert_str_eq(out, "dfd: 0xffffff9c, filename: 0x7f5cfdb6f0b1, flags: 0x00000241, "
			      "mode: 0x000001b6");
	free(out);
	perfev_tp_free(tp);
}

Test(unit_tracepoint, fields)
{
	struct perfev_tp *tp = formats();
	struct sw_raw r = sw(1);
	r.prev_prio = -5;
	uint64_t v;
	cr_assert_eq(perfev_tp_field_u64(tp, &r, sizeof(r), "prev_pid", &v), 0);
	cr_assert_eq(v, 4242);
	cr_assert_eq(perfev_tp_field_u64(tp, &r, sizeof(r), "prev_prio", &v), 0);
	cr_assert_eq((int64_t)v, -5);
	cr_assert_eq(perfev_tp_field_u64(tp, &r, sizeof(r), "common_pid", &v), 0);
	cr_assert_eq(v, 4242);
	cr_assert_eq(perfev_tp_field_u64(tp, &r, sizeof(r), "nope", &v), -ENOENT);
	cr_assert(strstr(perfev_errmsg(), "nope"));
	cr_assert_eq(perfev_tp_field_u64(tp, &r, sizeof(r), "next_comm", &v), -EINVAL);
	char *t;
	cr_assert_gt(perfev_tp_field_text(tp, &r, sizeof(r), "next_comm", &t), 0);
	cr_assert_str_eq(t, "swapper/1");
	free(t);
	cr_assert_gt(perfev_tp_field_text(tp, &r, sizeof(r), "prev_prio", &t), 0);
	cr_assert_str_eq(t, "-5");
	free(t);
	/* a comm that fills its array, no NUL: bounded, not read past */
	memcpy(r.next_comm, "0123456789abcdef", 16);
	cr_assert_gt(perfev_tp_field_text(tp, &r, sizeof(r), "next_comm", &t), 0);
	cr_assert_str_eq(t, "0123456789abcdef");
	free(t);
	/* raw data too short for the field */
	cr_assert_eq(perfev_tp_field_u64(tp, &r, 20, "next_pid", &v), -EINVAL);
	/* an id nobody loaded */
	r.type = 9999;
	cr_assert_eq(perfev_tp_print(tp, &r, sizeof(r), 0, &t), -ENOENT);
	cr_assert_eq(perfev_tp_raw_id(&r, 1), -EINVAL);
	perfev_tp_free(tp);
}

Test(unit_tracepoint, filters_are_checked_against_the_format)
{
	struct perfev_tp *tp = formats();
	cr_assert_eq(perfev_tp_filter_check(tp, 372, "prev_pid == 42 && next_comm == \"x\""), 0,
		     "%s", perfev_errmsg());
	cr_assert_eq(perfev_tp_filter_check(tp, 372, "next_comm != \"swapper\" && (prev_pid < 2 || prev_prio >= 100)"), 0,
		     "%s", perfev_errmsg());
	cr_assert_eq(perfev_tp_filter_check(tp, 372, "no_field > 3"), -EINVAL);
	cr_assert(strstr(perfev_errmsg(), "no_field"), "%s", perfev_errmsg());
	cr_assert_eq(perfev_tp_filter_check(tp, 782, "flags & 0x40"), 0, "%s", perfev_errmsg());
	cr_assert_eq(perfev_tp_filter_check(tp, 782, "flags ==="), -EINVAL);
	perfev_tp_free(tp);
}

/* A TRACING_DATA image built by hand, in perf's layout, in either byte order. */
static size_t image(uint8_t *buf, bool swap, bool with_cmdlines)
{
	size_t o = 0;
#define PUT(p, n) (memcpy(buf + o, (p), (n)), o += (n))
#define U32(v) do { uint32_t x = (v); if (swap) x = __builtin_bswap32(x); PUT(&x, 4); } while (0)
#define U64(v) do { uint64_t x = (v); if (swap) x = __builtin_bswap64(x); PUT(&x, 8); } while (0)
	PUT("\027\010\104tracing", 10);
	PUT(with_cmdlines ? "0.6" : "0.5", 4);
	uint8_t endian = swap ? 1 : 0, lsz = 8;
	PUT(&endian, 1);
	PUT(&lsz, 1);
	U32(4096);
	PUT("header_page", 12);
	U64(0);
	PUT("header_event", 13);
	U64(0);
	U32(0); /* ftrace */
	U32(1);
	PUT("sched", 6);
	U32(1);
	U64(strlen(sched_switch_fmt));
	PUT(sched_switch_fmt, strlen(sched_switch_fmt));
	U32(0); /* kallsyms */
	U32(0); /* printk */
	if (with_cmdlines) {
		static const char cl[] = "4242 calls_n\n";
		U64(strlen(cl));
		PUT(cl, strlen(cl));
	}
	return o;
}

Test(unit_tracepoint, tracing_data_is_read_and_bounded)
{
	uint8_t buf[8192];
	size_t n = image(buf, false, true), used = 0;
	struct perfev_tp *tp = perfev_tp_from_tracing_data(buf, n, &used);
	cr_assert(tp, "%s", perfev_errmsg());
	cr_assert_eq(used, n);
	struct sw_raw r = sw(1);
	char *out;
	cr_assert_gt(perfev_tp_print(tp, &r, sizeof(r), 0, &out), 0);
	cr_assert(strstr(out, "prev_comm=calls_n"), "%s", out);
	free(out);
	perfev_tp_free(tp);

	n = image(buf, false, false); /* version 0.5: no saved_cmdlines */
	tp = perfev_tp_from_tracing_data(buf, n, &used);
	cr_assert(tp, "%s", perfev_errmsg());
	cr_assert_eq(used, n);
	perfev_tp_free(tp);

	n = image(buf, true, true); /* big-endian sizes */
	tp = perfev_tp_from_tracing_data(buf, n, &used);
	cr_assert(tp, "%s", perfev_errmsg());
	cr_assert_eq(used, n);
	cr_assert_str_eq(perfev_tp_name(tp, 372), "sched:sched_switch");
	perfev_tp_free(tp);

	/* every truncation fails cleanly */
	n = image(buf, false, true);
	for (size_t cut = 0; cut < n; cut++) {
		tp = perfev_tp_from_tracing_data(buf, cut, NULL);
		cr_assert_null(tp, "accepted %zu of %zu bytes", cut, n);
		cr_assert_eq(errno, EINVAL);
	}
	cr_assert(strstr(perfev_errmsg(), "remain") || strstr(perfev_errmsg(), "terminated"),
		  "%s", perfev_errmsg());
	buf[3] = 'X';
	cr_assert_null(perfev_tp_from_tracing_data(buf, n, NULL));
	cr_assert(strstr(perfev_errmsg(), "magic"), "%s", perfev_errmsg());
}

/* __data_loc strings, and raw data whose lengths lie (hostile files) */
Test(unit_tracepoint, data_loc_strings_are_bounded)
{
	struct perfev_tp *tp = perfev_tp_new();
	cr_assert_eq(perfev_tp_add_format(tp, "test", str_fmt, strlen(str_fmt)), 900, "%s", perfev_errmsg());
	uint8_t raw[32] = {0};
	uint16_t type = 900;
	memcpy(raw, &type, 2);
	uint32_t loc = 24 | 6u << 16;
	memcpy(raw + 8, &loc, 4);
	int64_t ret = -2;
	memcpy(raw + 16, &ret, 8);
	memcpy(raw + 24, "hello", 6);
	char *out;
	cr_assert_gt(perfev_tp_print(tp, raw, 30, 0, &out), 0, "%s", perfev_errmsg());
	cr_assert_str_eq(out, "name=hello ret=-2");
	free(out);
	cr_assert_gt(perfev_tp_field_text(tp, raw, 30, "name", &out), 0);
	cr_assert_str_eq(out, "hello");
	free(out);
	/* the string runs past the data */
	cr_assert_eq(perfev_tp_print(tp, raw, 28, 0, &out), -EINVAL);
	cr_assert(strstr(perfev_errmsg(), "'name'"), "%s", perfev_errmsg());
	cr_assert_eq(perfev_tp_field_text(tp, raw, 28, "name", &out), -EINVAL);
	/* a field past the data */
	cr_assert_eq(perfev_tp_print(tp, raw, 20, 0, &out), -EINVAL);
	/* a string without its NUL */
	loc = 24 | 5u << 16;
	memcpy(raw + 8, &loc, 4);
	cr_assert_eq(perfev_tp_print(tp, raw, 30, 0, &out), -EINVAL);
	cr_assert(strstr(perfev_errmsg(), "not terminated"), "%s", perfev_errmsg());
	loc = 60000 | 6u << 16;
	memcpy(raw + 8, &loc, 4);
	cr_assert_eq(perfev_tp_print(tp, raw, 30, 0, &out), -EINVAL);
	perfev_tp_free(tp);
}
