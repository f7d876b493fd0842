/* recorder_proc.c — what the recorder learns from /proc and /sys: CPUs,
 * threads, memory maps and the kernel's text, to describe what existed
 * before recording started. */
#define _GNU_SOURCE
#include "core/internal.h"
#include "recorder/recorder_int.h"

#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

static int numeric_dir(const char *dir, pid_t **out, size_t *n)
{
	DIR *d = opendir(dir);
	if (!d)
		return pv_error(errno, "cannot list %s: %s", dir, strerror(errno));
	pid_t *v = NULL;
	size_t nr = 0, cap = 0;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		if (pv_grow(&v, &cap, nr + 1, sizeof(*v)) < 0) {
			closedir(d);
			free(v);
			return pv_error(ENOMEM, "out of memory");
		}
		v[nr++] = (pid_t)atoi(e->d_name);
	}
	closedir(d);
	qsort(v, nr, sizeof(*v), cmp_int);
	*out = v;
	*n = nr;
	return 0;
}

int rec_task_tids(pid_t pid, pid_t **tids, size_t *n)
{
	char dir[64];
	snprintf(dir, sizeof(dir), "/proc/%d/task", (int)pid);
	int e = numeric_dir(dir, tids, n);
	if (e == -ENOENT)
		return pv_error(ESRCH, "no process %d (fix: check the pid with ps)", (int)pid);
	return e;
}

int rec_all_pids(pid_t **pids, size_t *n) { return numeric_dir("/proc", pids, n); }

int rec_uid_pids(uid_t uid, pid_t **pids, size_t *n)
{
	int e = rec_all_pids(pids, n);
	size_t k = 0;
	for (size_t i = 0; e == 0 && i < *n; i++) {
		char dir[64];
		struct stat st;
		snprintf(dir, sizeof(dir), "/proc/%d", (int)(*pids)[i]);
		if (stat(dir, &st) == 0 && st.st_uid == uid) /* (perf's thread_map__new_by_uid) */
			(*pids)[k++] = (*pids)[i];
	}
	*n = k;
	return e;
}

int rec_uid_tids(uid_t uid, pid_t **tids, size_t *n)
{
	pid_t *pids;
	size_t np;
	int e = rec_uid_pids(uid, &pids, &np);
	if (e < 0)
		return e;
	*tids = NULL;
	*n = 0;
	size_t cap = 0;
	for (size_t i = 0; i < np && e >= 0; i++) {
		pid_t *t;
		size_t nt;
		if (rec_task_tids(pids[i], &t, &nt) < 0)
			continue; /* it ended meanwhile */
		if (pv_grow(tids, &cap, *n + nt, sizeof(**tids)) < 0)
			e = pv_error(ENOMEM, "out of memory");
		else
			memcpy(*tids + *n, t, nt * sizeof(*t)), *n += nt;
		free(t);
	}
	free(pids);
	if (e == 0 && !*n)
		e = pv_error(ESRCH, "-u %u: no process of this user runs (fix: start one first, or "
			     "follow the whole system with -a)", (unsigned)uid);
	if (e < 0) {
		free(*tids);
		*tids = NULL, *n = 0;
	}
	return e;
}

int rec_proc_maps(pid_t pid, int (*fn)(const struct rec_proc_map *m, void *ctx), void *ctx)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return pv_error(errno, "cannot read %s: %s", path, strerror(errno));
	char line[PATH_MAX + 256];
	int ret = 0;
	while (fgets(line, sizeof(line), f)) {
		struct rec_proc_map m = {0};
		char perm[8] = "";
		unsigned long long start, end, pgoff, ino;
		unsigned maj, min;
		int off = 0;
		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perm, &pgoff, &maj,
			   &min, &ino, &off) < 7)
			continue;
		m.start = start;
		m.end = end;
		m.pgoff = pgoff;
		m.maj = maj;
		m.min = min;
		m.ino = ino;
		m.prot = (perm[0] == 'r' ? PROT_READ : 0) | (perm[1] == 'w' ? PROT_WRITE : 0) |
			 (perm[2] == 'x' ? PROT_EXEC : 0);
		m.flags = perm[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
		const char *name = off ? line + off : "";
		size_t len = strcspn(name, "\n");
		if (len >= sizeof(m.path))
			len = sizeof(m.path) - 1;
		memcpy(m.path, name, len);
		if (!len)
			strcpy(m.path, "//anon");
		if ((ret = fn(&m, ctx)))
			break;
	}
	fclose(f);
	return ret < 0 ? ret : 0;
}

int rec_proc_status(pid_t tid, char comm[16], pid_t *tgid, pid_t *ppid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	char *buf;
	size_t len;
	int e = pv_read_file(path, &buf, &len, 1 << 16);
	if (e < 0)
		return pv_error(-e, "cannot read %s: %s", path, strerror(-e));
	comm[0] = 0;
	*tgid = *ppid = 0;
	for (char *l = buf; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (!strncmp(l, "Name:\t", 6)) {
			size_t n = strcspn(l + 6, "\n");
			n = PV_MIN(n, 15);
			memcpy(comm, l + 6, n);
			comm[n] = 0;
		} else if (!strncmp(l, "Tgid:", 5)) {
			*tgid = atoi(l + 5);
		} else if (!strncmp(l, "PPid:", 5)) {
			*ppid = atoi(l + 5);
		}
	}
	free(buf);
	return *tgid ? 0 : pv_error(EINVAL, "%s: no Tgid line", path);
}

int rec_kernel_text(uint64_t *start, uint64_t *end, const char **ref)
{
	/* arm64's kallsyms has no _text: _stext then, as perf falls back */
	static const char *const names[] = {"_text", "_etext", "_stext"};
	uint64_t a[3];
	int r = pv_kallsyms_addrs(NULL, names, 3, a);
	*ref = a[0] ? "_text" : "_stext";
	*start = a[0] ? a[0] : a[2], *end = a[1];
	return r < 0 ? pv_error(-r, "cannot read /proc/kallsyms: %s", strerror(-r)) : 0;
}

int rec_modules(const char *path, int (*fn)(const char *name, uint64_t addr, uint64_t size, void *ctx),
		void *ctx)
{
	FILE *f = fopen(path ? path : "/proc/modules", "re");
	if (!f)
		return errno == ENOENT ? 0 : -errno; /* a kernel without modules */
	char line[4096];
	int ret = 0;
	while (!ret && fgets(line, sizeof(line), f)) {
		char name[64], state[16];
		unsigned long long size, addr;
		if (sscanf(line, "%63s %llu %*s %*s %15s %llx", name, &size, state, &addr) != 4 || !addr || !size)
			continue;
		ret = fn(name, addr, size, ctx);
	}
	fclose(f);
	return ret;
}
