/* tracefs.c — finding tracefs, tracepoint ids and glob expansion, and
 * writing its control files (uprobe_events, kprobe_events). */
#define _GNU_SOURCE
#include "core/internal.h"
#include "perfev/pmu.h"
#include "tracing/tracefs_int.h"

#include <dirent.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

const char *pv_tracefs_root(void)
{
	static const char *const roots[] = {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"};
	int denied = -1;
	for (size_t i = 0; i < PV_ARRAY_SIZE(roots); i++) {
		char p[64];
		snprintf(p, sizeof(p), "%s/events", roots[i]);
		if (access(p, F_OK) == 0)
			return roots[i];
		if (errno == EACCES && denied < 0)
			denied = (int)i;
	}
	if (denied >= 0)
		return pv_error_null(EACCES, "%s is not readable: tracepoints need root (or a tracefs "
				     "mounted with a gid/mode that grants you access)", roots[denied]);
	if (mount("nodev", roots[0], "tracefs", 0, NULL) == 0)
		return roots[0];
	return pv_error_null(ENOENT, "tracefs is not mounted: mount it with "
			     "`mount -t tracefs nodev /sys/kernel/tracing` (as root)");
}

char *pv_tracefs_path(char *buf, size_t len, const char *rel)
{
	const char *root = pv_tracefs_root();
	snprintf(buf, len, "%s/%s", root ? root : "/sys/kernel/tracing", rel);
	return buf;
}

PERFEV_API const char *perfev_tracefs_events_dir(void)
{
	static char dir[64];
	const char *root = pv_tracefs_root();
	if (!root)
		return NULL;
	snprintf(dir, sizeof(dir), "%s/events", root);
	return dir;
}

static bool safe_component(const char *s)
{
	return s[0] && strcmp(s, ".") && strcmp(s, "..") && !strchr(s, '/');
}

PERFEV_API int perfev_tracepoint_id(const char *dir, const char *sys, const char *name)
{
	if (!dir && !(dir = perfev_tracefs_events_dir()))
		return -errno;
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
		return -errno;
	struct dirent **sys = NULL;
	int nsys = scandir(dir, &sys, skip_dots, alphasort);
	if (nsys < 0)
		return pv_error(errno, "cannot read %s: %s%s", dir, strerror(errno),
				errno == EACCES ? " (tracefs is for root unless mounted with a gid/mode "
						  "that grants you access)" : "");
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
			if (fn && (stop = fn(arg, s, n, (int)id)))
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

int pv_tracefs_append(const char *file, const char *line)
{
	char path[512];
	if (!pv_tracefs_root())
		return -errno;
	pv_tracefs_path(path, sizeof(path), file);
	int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0)
		return pv_error(errno, "cannot open %s: %s%s", path, strerror(errno),
				errno == ENOENT ? " (the kernel lacks this probe type: "
						  "CONFIG_KPROBE_EVENTS/CONFIG_UPROBE_EVENTS)" :
				errno == EACCES ? " (run as root)" : "");
	size_t n = strlen(line);
	ssize_t w = write(fd, line, n);
	int e = errno;
	close(fd);
	if (w != (ssize_t)n) {
		char log[1024] = "";
		char lp[512];
		pv_read_line(pv_tracefs_path(lp, sizeof(lp), "error_log"), log, sizeof(log));
		return pv_error(w < 0 ? e : EIO, "writing '%s' to %s: %s%s%s", line, path,
				w < 0 ? strerror(e) : "short write", log[0] ? "; error_log: " : "", log);
	}
	return 0;
}

int64_t pv_tracefs_event_id(const char *sys, const char *name)
{
	return perfev_tracepoint_id(NULL, sys, name);
}

struct find_id {
	uint64_t id;
	char *sys, *name;
	size_t sys_len, name_len;
	bool found;
};

static int match_id(void *arg, const char *sys, const char *name, int id)
{
	struct find_id *f = arg;
	if ((uint64_t)id != f->id)
		return 0;
	snprintf(f->sys, f->sys_len, "%s", sys);
	snprintf(f->name, f->name_len, "%s", name);
	f->found = true;
	return 1;
}

int pv_tracefs_find_id(uint64_t id, char *sys, size_t sys_len, char *name, size_t name_len)
{
	struct find_id f = {id, sys, name, sys_len, name_len, false};
	int r = perfev_tracepoints_foreach(NULL, NULL, NULL, match_id, &f);
	if (r < 0)
		return r;
	if (!f.found)
		return pv_error(ENOENT, "no tracepoint has id %llu on this system: was the "
				"recording made on another kernel?", (unsigned long long)id);
	return 0;
}
