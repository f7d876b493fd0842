#define _GNU_SOURCE
#include "support.h"
#include "perfev.h"

#include <errno.h>
#include <linux/hw_breakpoint.h>
#include <ftw.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void append(char **buf, size_t *len, const char *data, size_t n)
{
	*buf = realloc(*buf, *len + n + 1);
	cr_assert(*buf, "out of memory");
	memcpy(*buf + *len, data, n);
	*len += n;
	(*buf)[*len] = 0;
}

struct run_result run_cmd(const char *fmt, ...)
{
	char *cmd;
	va_list ap;
	va_start(ap, fmt);
	cr_assert(vasprintf(&cmd, fmt, ap) >= 0);
	va_end(ap);

	int po[2], pe[2];
	cr_assert(pipe2(po, O_CLOEXEC) == 0 && pipe2(pe, O_CLOEXEC) == 0);
	pid_t pid = fork();
	cr_assert(pid >= 0);
	if (pid == 0) {
		dup2(po[1], 1);
		dup2(pe[1], 2);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	close(po[1]);
	close(pe[1]);
	struct run_result r = {0};
	append(&r.out, &r.out_len, "", 0);
	append(&r.err, &r.err_len, "", 0);
	struct pollfd fds[2] = {{po[0], POLLIN, 0}, {pe[0], POLLIN, 0}};
	int open_fds = 2;
	char chunk[65536];
	while (open_fds) {
		if (poll(fds, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (int i = 0; i < 2; i++) {
			if (fds[i].fd < 0 || !fds[i].revents)
				continue;
			ssize_t n = read(fds[i].fd, chunk, sizeof(chunk));
			if (n <= 0) {
				close(fds[i].fd);
				fds[i].fd = -1;
				open_fds--;
				continue;
			}
			if (i == 0)
				append(&r.out, &r.out_len, chunk, (size_t)n);
			else
				append(&r.err, &r.err_len, chunk, (size_t)n);
		}
	}
	int st;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	free(cmd);
	return r;
}

void run_result_free(struct run_result *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

void require_root(void)
{
	if (geteuid() != 0)
		cr_skip_test("needs root (running as uid %d)", (int)geteuid());
}

void require_perf_tool(void)
{
	struct run_result r = run_cmd("perf version");
	bool ok = r.status == 0;
	run_result_free(&r);
	if (!ok)
		cr_skip_test("the installed `perf` (linux-perf) is not available");
}

void require_tracefs(void)
{
	if (access("/sys/kernel/tracing/events", R_OK) == 0)
		return;
	if (geteuid() == 0)
		mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL);
	if (access("/sys/kernel/tracing/events", R_OK) != 0)
		cr_skip_test("tracefs is not mounted at /sys/kernel/tracing and cannot be");
}

void require_corpus(void)
{
	if (!CORPUS_DIR[0] || access(CORPUS_DIR, R_OK) != 0)
		cr_skip_test("the perf.data corpus (../shared/corpus/perfdata) is not on this machine");
}

void require_event(unsigned type, unsigned long long config, const char *what)
{
	struct perfev_attr a = {0};
	a.type = type;
	a.config = config;
	a.exclude_kernel = 1;
	a.exclude_hv = 1;
	int fd = perfev_open(&a, 0, -1, -1, 0);
	if (fd < 0)
		cr_skip_test("%s cannot be opened here: %s", what, perfev_errmsg());
	close(fd);
}

/*
 * Whether a write breakpoint opened here also fires. Some hypervisors
 * (Firecracker, for one) accept breakpoints but never deliver the debug
 * exception: the count stays 0, as perf stat's and gdb's hardware
 * watchpoints do there. NULL when they fire, else why not.
 */
const char *breakpoints_unusable(void)
{
	static volatile int probe;
	static char why[256];
	struct perfev_attr a = {0};
	a.type = PERF_TYPE_BREAKPOINT;
	a.bp_type = HW_BREAKPOINT_W;
	a.bp_addr = (uint64_t)(uintptr_t)&probe;
	a.bp_len = HW_BREAKPOINT_LEN_4;
	a.exclude_kernel = 1;
	int fd = perfev_open(&a, 0, -1, -1, 0);
	if (fd < 0) {
		snprintf(why, sizeof(why), "hardware breakpoints cannot be opened here: %s", perfev_errmsg());
		return why;
	}
	probe = 1;
	probe = 2;
	uint64_t v = 0;
	ssize_t n = read(fd, &v, sizeof(v));
	close(fd);
	if (n != (ssize_t)sizeof(v) || v != 2) {
		snprintf(why, sizeof(why),
			 "hardware breakpoints open but do not fire on this machine (2 writes counted %llu: "
			 "its hypervisor does not deliver debug exceptions; perf's mem: events and gdb's "
			 "hardware watchpoints count nothing here either)",
			 (unsigned long long)v);
		return why;
	}
	return NULL;
}

void require_breakpoint(void)
{
	const char *why = breakpoints_unusable();
	if (why)
		cr_skip_test("%s", why);
}

static char tmpdir[64];
static pid_t tmpdir_owner; /* forked children share the name, not the cleanup */

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path) < 0 && errno != ENOENT ? -1 : 0;
}

/* The test's directory goes when its process ends: recordings of 40 MB
 * must not pile up in /tmp run after run. */
static void remove_tmpdir(void)
{
	if (tmpdir[0] && getpid() == tmpdir_owner)
		nftw(tmpdir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

const char *test_tmpdir(void)
{
	if (!tmpdir[0]) {
		strcpy(tmpdir, "/tmp/perfev-test-XXXXXX");
		cr_assert(mkdtemp(tmpdir), "mkdtemp: %s", strerror(errno));
		tmpdir_owner = getpid();
		atexit(remove_tmpdir);
	}
	return tmpdir;
}

char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	cr_assert(f, "cannot open %s: %s", path, strerror(errno));
	char *buf = NULL;
	size_t n = 0;
	char chunk[65536];
	size_t k;
	while ((k = fread(chunk, 1, sizeof(chunk), f)) > 0)
		append(&buf, &n, chunk, k);
	fclose(f);
	if (!buf)
		append(&buf, &n, "", 0);
	if (len)
		*len = n;
	return buf;
}

static int cmp_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char *sorted_lines(const char *text, bool (*keep)(const char *line, void *ctx), void *ctx)
{
	char *copy = strdup(text), **lines = NULL;
	size_t n = 0, cap = 0;
	cr_assert(copy);
	for (char *save = NULL, *l = strtok_r(copy, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (keep && !keep(l, ctx))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 256;
			lines = realloc(lines, cap * sizeof(*lines));
			cr_assert(lines);
		}
		lines[n++] = l;
	}
	if (n)
		qsort(lines, n, sizeof(*lines), cmp_line);
	char *out = calloc(1, strlen(text) + n + 1), *o = out;
	cr_assert(out);
	for (size_t i = 0; i < n; i++)
		o += sprintf(o, "%s\n", lines[i]);
	free(lines);
	free(copy);
	return out;
}

void assert_svg_offline(const char *svg)
{
	const char *http = strstr(svg, "http");
	cr_assert(http && strncmp(http, "http://www.w3.org/2000/svg\"", 27) == 0, "the SVG namespace is missing");
	cr_assert_null(strstr(http + 1, "http"), "a URL besides the SVG namespace: %.200s", strstr(http + 1, "http"));
	cr_assert_null(strstr(svg, "href"), "a link: %.200s", strstr(svg, "href"));
	cr_assert_null(strstr(svg, "url("), "a fetched resource: %.200s", strstr(svg, "url("));
}
