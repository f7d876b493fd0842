/* tracefs.c — finding tracefs and its event ids. */
#define _GNU_SOURCE
#include "internal.h"
#include "tracefs_int.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <unistd.h>

const char *pv_tracefs_root(void)
{
	static const char *const roots[] = {"/sys/kernel/tracing", "/sys/kernel/debug/tracing"};
	for (size_t i = 0; i < PV_ARRAY_SIZE(roots); i++) {
		char p[64];
		snprintf(p, sizeof(p), "%s/events", roots[i]);
		if (access(p, F_OK) == 0)
			return roots[i];
	}
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

int64_t pv_tracefs_event_id(const char *sys, const char *name)
{
	if (!pv_tracefs_root())
		return -errno;
	char rel[512], path[600];
	snprintf(rel, sizeof(rel), "events/%s/%s/id", sys, name);
	int64_t id;
	int r = pv_read_i64(pv_tracefs_path(path, sizeof(path), rel), &id);
	if (r < 0)
		return pv_error(-r, "no tracepoint %s:%s (%s: %s): see `perf list tracepoint`",
				sys, name, path, strerror(-r));
	return id;
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

int pv_tracefs_find_id(uint64_t id, char *sys, size_t sys_len, char *name, size_t name_len)
{
	char events[300];
	if (!pv_tracefs_root())
		return -errno;
	DIR *top = opendir(pv_tracefs_path(events, sizeof(events), "events"));
	if (!top)
		return pv_error(errno, "cannot list %s: %s", events, strerror(errno));
	int r = pv_error(ENOENT, "no tracepoint has id %llu on this system (tracefs %s): "
			 "was the recording made on another kernel?", (unsigned long long)id, events);
	struct dirent *s;
	while (r < 0 && (s = readdir(top))) {
		if (s->d_name[0] == '.' || s->d_type == DT_REG)
			continue;
		char sdir[600];
		snprintf(sdir, sizeof(sdir), "%s/%s", events, s->d_name);
		DIR *sd = opendir(sdir);
		if (!sd)
			continue;
		struct dirent *e;
		while ((e = readdir(sd))) {
			if (e->d_name[0] == '.' || e->d_type == DT_REG)
				continue;
			char idp[1000];
			int64_t v;
			snprintf(idp, sizeof(idp), "%s/%s/id", sdir, e->d_name);
			if (pv_read_i64(idp, &v) == 0 && (uint64_t)v == id) {
				snprintf(sys, sys_len, "%s", s->d_name);
				snprintf(name, name_len, "%s", e->d_name);
				r = 0;
				break;
			}
		}
		closedir(sd);
	}
	closedir(top);
	return r;
}
