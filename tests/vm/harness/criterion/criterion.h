/*
 * tests/vm/harness: the part of Criterion the VM tests use (Test() with
 * .timeout, cr_assert*, cr_expect, cr_skip_test, cr_log_*), with Criterion's
 * verbose output ([RUN ], [PASS], [FAIL], [SKIP], [----]) and its summary
 * line, so scripts/vm-check.sh reads the VM's run like the host's.
 * Why not Criterion itself: its arm64 package cannot be installed beside the
 * amd64 one (not Multi-Arch: same), and the VM has no shared libraries for
 * it; this is one static file. Each test runs in its own process with a
 * timeout, as under Criterion. The runner is runner.c.
 */
#ifndef PERFEV_VM_HARNESS_CRITERION_H
#define PERFEV_VM_HARNESS_CRITERION_H

#include <stdbool.h>
#include <string.h>

struct vmt_test {
	const char *suite, *name;
	void (*fn)(void);
	const char *file;
	unsigned timeout;  /* seconds; 0: the runner's default */
};

#define VMT_ID(s, n, what) vmt_##s##__##n##_##what
#define Test(s, n, ...)                                                                \
	static void VMT_ID(s, n, fn)(void);                                             \
	static const struct vmt_test VMT_ID(s, n, desc) = {                             \
		.suite = #s, .name = #n, .fn = VMT_ID(s, n, fn), .file = __FILE__, __VA_ARGS__}; \
	static const struct vmt_test *const VMT_ID(s, n, ptr)                           \
		__attribute__((section("vmt_tests"), used)) = &VMT_ID(s, n, desc);       \
	static void VMT_ID(s, n, fn)(void)

/* fatal: ends the test; the message (printf-style, optional) follows the expression */
void vmt_fail(bool fatal, const char *file, int line, const char *expr, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));
void vmt_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void vmt_log(const char *level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define VMT_CHECK(fatal, cond, expr, ...)                                               \
	do {                                                                            \
		if (!(cond))                                                            \
			vmt_fail(fatal, __FILE__, __LINE__, expr, "" __VA_ARGS__);      \
	} while (0)

#define cr_assert(c, ...) VMT_CHECK(true, (c), #c, __VA_ARGS__)
#define cr_assert_not(c, ...) VMT_CHECK(true, !(c), "!(" #c ")", __VA_ARGS__)
#define cr_assert_eq(a, b, ...) VMT_CHECK(true, (a) == (b), #a " == " #b, __VA_ARGS__)
#define cr_assert_neq(a, b, ...) VMT_CHECK(true, (a) != (b), #a " != " #b, __VA_ARGS__)
#define cr_assert_lt(a, b, ...) VMT_CHECK(true, (a) < (b), #a " < " #b, __VA_ARGS__)
#define cr_assert_leq(a, b, ...) VMT_CHECK(true, (a) <= (b), #a " <= " #b, __VA_ARGS__)
#define cr_assert_gt(a, b, ...) VMT_CHECK(true, (a) > (b), #a " > " #b, __VA_ARGS__)
#define cr_assert_geq(a, b, ...) VMT_CHECK(true, (a) >= (b), #a " >= " #b, __VA_ARGS__)
#define cr_assert_null(p, ...) VMT_CHECK(true, (p) == NULL, #p " == NULL", __VA_ARGS__)
#define cr_assert_not_null(p, ...) VMT_CHECK(true, (p) != NULL, #p " != NULL", __VA_ARGS__)
#define cr_assert_str_eq(a, b, ...) VMT_CHECK(true, strcmp((a), (b)) == 0, #a " == " #b, __VA_ARGS__)
#define cr_assert_fail(...) VMT_CHECK(true, 0, "cr_assert_fail", __VA_ARGS__)
#define cr_expect(c, ...) VMT_CHECK(false, (c), #c, __VA_ARGS__)
#define cr_expect_eq(a, b, ...) VMT_CHECK(false, (a) == (b), #a " == " #b, __VA_ARGS__)
#define cr_skip_test(...) vmt_skip(__VA_ARGS__)
#define cr_log_info(...) vmt_log("----", __VA_ARGS__)
#define cr_log_warn(...) vmt_log("WARN", __VA_ARGS__)
#define cr_log_error(...) vmt_log("ERR ", __VA_ARGS__)

#endif
