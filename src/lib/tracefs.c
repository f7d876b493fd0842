/* tracefs.c — tracepoint ids and glob expansion from tracefs. */
#define _GNU_SOURCE
#include "internal.h"
#include "perfev/pmu.h"

#include <dirent.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static const char *const events_dirs[] = {
	"/sys/kernel/tracing/events",
	"/sys/kernel/debug/tracing/events",
};

PERFEV_API const char *perfev_tracefs_events_dir(void)
{
	struct stat st;
	for (size_t i = 0; i < PV_ARRAY_SIZE(events_dirs); i++)
		if (stat(events_dirs[i], &st) == 0 && S_ISDIR(st.st_mode))
			return events_dirs[i];
	return pv_error_null(ENOENT, "tracefs is not mounted: mount it with "
			     "'mount -t tracefs nodev /sys/kernel/tracing' (as root)");
}

static bool safe_component(const char *s)
{
	return s[0] && strcmp(s, ".") && strcmp(s, "..") && !strchr(s, '/');
}

PERFEV_API int perfev_tracepoint_id(const char *dir, const char *sys, const char *name)
{
	if (!dir && !(dir = perfev_tracefs_events_dir()))
		return -ENOENT;
	if (!safe_component(sys) || !safe_component(name))
		return pv_error(ENOENT, "'%s:%s' is not a tracepoint name", sys, name);
	char path[4096];
	int64_t id;
	if (snprintf(path, sizeof(path), "%s/%s/%s/id", dir, sys, name) >= (int)sizeof(path))
		return pv_error(ENAMETOOLONG, "tracepoint name too long");
	int r = pv_read_i64(path, &id);
	if (r == -EACCES || r == -EPERM)
		return pv_error(-r, "cannot read %s: tracefs needs root (or a tracefs mounted with "
				"gid/mode that grants you access)", path);
	if (r < 0 || id < 0 || id > INT32_MAX)
		return pv_error(ENOENT, "unknown tracepoint '%s:%s' (no %s); "
				"'perfev list tracepoint' shows those available", sys, name, path);
	return (int)id;
}

static int skip_dots(const struct dirent *de) { return de->d_name[0] != '.'; }

PERFEV_API int perfev_tracepoints_foreach(const char *dir, const char *sys_glob,
					  const char *name_glob, perfev_tracepoint_fn fn, void *arg)
{
	if (!dir && !(dir = perfev_tracefs_events_dir()))
		return -ENOENT;
	struct dirent **sys = NULL;
	int nsys = scandir(dir, &sys, skip_dots, alphasort);
	if (nsys < 0)
		return pv_error(errno, "cannot read %s: %s", dir, strerror(errno));
	int found = 0, stop = 0;
	for (int i = 0; i < nsys; i++) {
		const char *s = sys[i]->d_name;
		if (stop || (sys_glob && fnmatch(sys_glob, s, 0)))
			continue;
		char sub[4096];
		if (snprintf(sub, sizeof(sub), "%s/%s", dir, s) >= (int)sizeof(sub))
			continue;
		struct dirent **ev = NULL;
		int nev = scandir(sub, &ev, skip_dots, alphasort);
		for (int j = 0; j < nev; j++) {
			const char *n = ev[j]->d_name;
			if (stop || (name_glob && fnmatch(name_glob, n, 0)))
				continue;
			char path[4096];
			int64_t id;
			if (snprintf(path, sizeof(path), "%s/%s/id", sub, n) >= (int)sizeof(path) ||
			    pv_read_i64(path, &id) < 0 || id < 0 || id > INT32_MAX)
				continue; /* "enable", "filter" and the like are not events */
			found++;
			if (fn && (stop = fn(s, n, (int)id, arg)))
				found = stop;
		}
		for (int j = 0; j < nev; j++)
			free(ev[j]);
		free(ev);
	}
	for (int i = 0; i < nsys; i++)
		free(sys[i]);
	free(sys);
	return found;
}
