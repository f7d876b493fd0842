/* cli_exports.c — the export files of perfev report and record: each
 * written beside its path and renamed over it once complete, so a failed
 * write leaves an earlier file as it was. The formats are the library's
 * (perfev/export.h). */
#define _GNU_SOURCE
#include "cli.h"
#include "report.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void report_exports_load_opts(const struct report_exports *x, struct perfev_profile_load_opts *lo)
{
	if (x->firefox)
		lo->flags |= PERFEV_PROFILE_KEEP_SAMPLES;
	if (x->pprof) /* pprof carries file names and line numbers, so its frames need them */
		lo->srclines = true;
}

/* A new file beside path (same directory, so rename replaces path in one
 * step), with path's mode, else 0666 less the umask as fopen's; NULL + errno. */
static FILE *open_beside(const char *path, char *tmp, size_t size)
{
	const char *slash = strrchr(path, '/');
	int dl = slash ? (int)(slash - path + 1) : 0;
	if (snprintf(tmp, size, "%.*s.%s.XXXXXX", dl, path, slash ? slash + 1 : path) >= (int)size) {
		errno = ENAMETOOLONG;
		return NULL;
	}
	int fd = mkstemp(tmp);
	if (fd < 0)
		return NULL;
	struct stat st;
	mode_t um = umask(0);
	umask(um);
	fchmod(fd, stat(path, &st) == 0 ? st.st_mode & 07777 : 0666 & ~um); /* a replaced file's */
	FILE *f = fdopen(fd, "w");
	if (!f) {
		close(fd);
		unlink(tmp);
	}
	return f;
}

static int cannot_write(const char *cmd, const char *what, const char *path, int err)
{
	struct stat st;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return cli_error(cmd, "cannot write the %s to %s: it is a directory (name a file in it)",
				 what, path);
	return cli_error(cmd, "cannot write the %s to %s: %s (check the directory exists and is writable)",
			 what, path, strerror(err));
}

/* The export goes to a new file renamed over path once complete: a failed
 * or interrupted write leaves an earlier file of that name as it was. */
static int write_export(const char *cmd,
			int (*fn)(const struct perfev_profile *, const struct perfev_export_options *, FILE *),
			const struct perfev_profile *p, const struct perfev_export_options *o,
			const char *path, const char *what, bool quiet)
{
	char tmp[PATH_MAX];
	bool out = !strcmp(path, "-");
	FILE *f = out ? stdout : open_beside(path, tmp, sizeof(tmp));
	if (!f)
		return cannot_write(cmd, what, path, errno);
	int r = fn(p, o, f);
	if (!out && fclose(f) != 0 && r >= 0) {
		int e = errno;
		unlink(tmp);
		return cli_error(cmd, "writing the %s to %s: closing it: %s", what, path, strerror(e));
	}
	if (!out && r >= 0 && rename(tmp, path) < 0) {
		int e = errno;
		unlink(tmp);
		return cannot_write(cmd, what, path, e);
	}
	if (r < 0) {
		if (!out)
			unlink(tmp);
		return cli_error(cmd, "writing the %s to %s: %s", what, path, perfev_errmsg());
	}
	if (!out && !quiet)
		fprintf(stderr, "perfev %s: wrote the %s to %s\n", cmd, what, path);
	return 0;
}

int report_exports_check(const char *cmd, const struct report_exports *x)
{
	const char *paths[] = {x->flame, x->pprof, x->firefox, x->folded};
	const char *what[] = {"flame graph", "pprof profile", "Firefox profile", "folded stacks"};
	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++) {
		if (!paths[i] || !strcmp(paths[i], "-"))
			continue;
		char tmp[PATH_MAX];
		struct stat st;
		FILE *f = stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode) ? NULL
									 : open_beside(paths[i], tmp, sizeof(tmp));
		if (!f)
			return cannot_write(cmd, what[i], paths[i], errno);
		fclose(f);
		unlink(tmp);
	}
	return 0;
}

int report_write_exports(const char *cmd, const struct perfev_profile *p, const struct report_exports *x,
			 const char *subtitle, enum perfev_profile_value value, double interval_ms)
{
	struct perfev_export_options eo = {.sz = sizeof(eo), .value = value, .title = x->title,
					   .subtitle = subtitle, .interval_ms = interval_ms};
	int ret = 0;
	if (x->flame && write_export(cmd, perfev_export_flame, p, &eo, x->flame, "flame graph", x->quiet))
		ret = 1;
	if (x->pprof && write_export(cmd, perfev_export_pprof, p, &eo, x->pprof, "pprof profile", x->quiet))
		ret = 1;
	if (x->firefox && write_export(cmd, perfev_export_firefox, p, &eo, x->firefox, "Firefox profile", x->quiet))
		ret = 1;
	if (x->folded && write_export(cmd, perfev_export_folded, p, &eo, x->folded, "folded stacks", x->quiet))
		ret = 1;
	return ret;
}

int report_export_file(const char *cmd, const char *input, const struct report_exports *x)
{
	struct perfev_profile_load_opts lo = {.sz = sizeof(lo), .group = PERFEV_GROUP_THREAD,
					      .event = -1};
	report_exports_load_opts(x, &lo);
	struct perfev_profile_load_info info = {.sz = sizeof(info)};
	struct perfev_profile *p = perfev_profile_load(input, &lo, &info);
	if (!p)
		return cli_error(cmd, "reading %s back for the exports: %s", input, perfev_errmsg());
	char subtitle[256];
	snprintf(subtitle, sizeof(subtitle), "%llu samples of %s",
		 (unsigned long long)perfev_profile_total(p, PERFEV_VALUE_SAMPLES), info.event_name);
	int ret = report_write_exports(cmd, p, x, subtitle, PERFEV_VALUE_SAMPLES, info.interval_ms);
	perfev_profile_free(p);
	return ret;
}
