/*
 * The VM tests' runner (see criterion/criterion.h): every test of the
 * vmt_tests section in its own process, in name order, with a timeout;
 * Criterion's verbose lines and summary; exit 1 if any test failed or
 * crashed. Options: --filter GLOB (on "suite/name"), --timeout S (the
 * default per test, 300), --list; --verbose and --jobs are accepted and
 * ignored (one test at a time: they measure the one CPU).
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <fnmatch.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern const struct vmt_test *const __start_vmt_tests[] __attribute__((weak));
extern const struct vmt_test *const __stop_vmt_tests[] __attribute__((weak));

enum { EXIT_SKIP = 77 };
static const struct vmt_test *current;
static bool expect_failed;

static void out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void out(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(stdout, fmt, ap);
	va_end(ap);
	fflush(stdout);
}

/* The message of a variadic function of ours, formatted into buf. */
#define FORMAT_INTO(buf, fmt)                              \
	do {                                               \
		va_list ap_;                               \
		va_start(ap_, fmt);                        \
		vsnprintf(buf, sizeof(buf), fmt, ap_);     \
		va_end(ap_);                               \
	} while (0)

/* Prints msg line by line, each as "[tag] indent line" (Criterion's layout). */
static void out_lines(const char *tag, const char *indent, char *msg)
{
	for (char *s = msg, *nl; *s; s = nl + 1) {
		nl = strchr(s, '\n');
		if (nl)
			*nl = 0;
		out("[%s] %s%s\n", tag, indent, s);
		if (!nl)
			break;
	}
}

void vmt_fail(bool fatal, const char *file, int line, const char *expr, const char *fmt, ...)
{
	char msg[4096] = "";
	FORMAT_INTO(msg, fmt);
	const char *base = strrchr(file, '/');
	out("[----] %s:%d: Assertion Failed\n[----]   %s\n", base ? base + 1 : file, line, expr);
	out_lines("----", "  ", msg);
	if (fatal)
		_exit(1);
	expect_failed = true;
}

void vmt_skip(const char *fmt, ...)
{
	char msg[1024];
	FORMAT_INTO(msg, fmt);
	out("[SKIP] %s::%s: %s\n", current->suite, current->name, msg);
	_exit(EXIT_SKIP);
}

void vmt_log(const char *level, const char *fmt, ...)
{
	char msg[8192];
	FORMAT_INTO(msg, fmt);
	out_lines(level, "", msg);
}

static int by_name(const void *a, const void *b)
{
	const struct vmt_test *x = *(const struct vmt_test *const *)a;
	const struct vmt_test *y = *(const struct vmt_test *const *)b;
	int c = strcmp(x->suite, y->suite);
	return c ? c : strcmp(x->name, y->name);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	const char *filter = NULL;
	unsigned def_timeout = 300;
	bool list = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--filter") && i + 1 < argc)
			filter = argv[++i];
		else if (!strncmp(argv[i], "--filter=", 9))
			filter = argv[i] + 9;
		else if (!strcmp(argv[i], "--timeout") && i + 1 < argc)
			def_timeout = (unsigned)atoi(argv[++i]);
		else if (!strcmp(argv[i], "--list"))
			list = true;
		else if (!strcmp(argv[i], "--jobs") && i + 1 < argc)
			i++;
		else if (strcmp(argv[i], "--verbose") && strncmp(argv[i], "--jobs=", 7)) {
			fprintf(stderr, "usage: %s [--filter GLOB] [--timeout S] [--list]\n", argv[0]);
			return 2;
		}
	}
	size_t n = (size_t)(__stop_vmt_tests - __start_vmt_tests);
	const struct vmt_test **tests = malloc(n * sizeof(*tests));
	if (!tests)
		return 2;
	memcpy(tests, __start_vmt_tests, n * sizeof(*tests));
	qsort(tests, n, sizeof(*tests), by_name);

	unsigned tested = 0, passed = 0, failed = 0, crashed = 0, skipped = 0;
	for (size_t i = 0; i < n; i++) {
		const struct vmt_test *t = tests[i];
		char full[512];
		snprintf(full, sizeof(full), "%s/%s", t->suite, t->name);
		if (filter && fnmatch(filter, full, 0) != 0)
			continue;
		if (list) {
			printf("%s::%s\n", t->suite, t->name);
			continue;
		}
		unsigned timeout = t->timeout ? t->timeout : def_timeout;
		out("[RUN ] %s::%s\n", t->suite, t->name);
		double t0 = now();
		pid_t pid = fork();
		if (pid < 0) {
			perror("fork");
			return 2;
		}
		if (pid == 0) {
			setpgid(0, 0); /* the timeout ends what the test started too */
			current = t;
			alarm(timeout);
			t->fn();
			fflush(NULL);
			_exit(expect_failed ? 1 : 0);
		}
		int st;
		while (waitpid(pid, &st, 0) < 0)
			;
		kill(-pid, SIGKILL);
		double dt = now() - t0;
		if (WIFEXITED(st) && WEXITSTATUS(st) == EXIT_SKIP) {
			skipped++;
			continue;
		}
		tested++;
		if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
			passed++;
			out("[PASS] %s::%s: (%.2fs)\n", t->suite, t->name, dt);
		} else if (WIFSIGNALED(st) && WTERMSIG(st) == SIGALRM) {
			failed++;
			out("[FAIL] %s::%s: Timed out. (%.2fs)\n", t->suite, t->name, dt);
		} else if (WIFSIGNALED(st)) {
			crashed++;
			out("[----] %s: Unexpected signal caught below this line!\n", t->file);
			out("[FAIL] %s::%s: CRASH! (signal %d, %s)\n", t->suite, t->name, WTERMSIG(st),
			    strsignal(WTERMSIG(st)));
		} else {
			failed++;
			out("[FAIL] %s::%s: (%.2fs)\n", t->suite, t->name, dt);
		}
	}
	if (list)
		return 0;
	out("[====] Synthesis: Tested: %u | Passing: %u | Failing: %u | Crashing: %u\n", tested + skipped,
	    passed, failed, crashed);
	return failed || crashed ? 1 : 0;
}
