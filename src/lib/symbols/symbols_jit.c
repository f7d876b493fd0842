/*
 * symbols_jit.c — symbols of JIT-compiled code from /tmp/perf-PID.map
 * (the format JITs such as V8, the JVM agent and LuaJIT write: one
 * "START SIZE name" line per function, hex numbers). Processes in another
 * PID namespace write it under their own pid, in their own /tmp: that file
 * is found through /proc/PID/root and the NSpid line of /proc/PID/status.
 */
#define _GNU_SOURCE
#include "symbols/symbols_int.h"

#include <stdlib.h>
#include <string.h>

#define JITMAP_MAX (512u << 20)

static int ns_pid(int pid)
{
	char path[64], *buf = NULL;
	size_t len;
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	if (pv_read_file(path, &buf, &len, 1 << 20) < 0)
		return pid;
	int r = pid;
	char *l = strstr(buf, "\nNSpid:");
	if (l) {
		char *p = l + 7, *last = NULL;
		for (char *tok = strtok(p, " \t\n"); tok && tok < buf + len;
		     tok = strtok(NULL, " \t\n")) {
			if (tok[0] < '0' || tok[0] > '9')
				break;
			last = tok;
		}
		if (last)
			r = atoi(last);
	}
	free(buf);
	return r;
}

static void parse(struct perfev_symbolizer *s, struct pv_jit *j, char *buf)
{
	for (char *line = buf, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		char *end, *end2;
		uint64_t start = strtoull(line, &end, 16);
		if (end == line || *end != ' ')
			continue;
		uint64_t size = strtoull(end + 1, &end2, 16);
		if (end2 == end + 1 || *end2 != ' ')
			continue;
		char *name = end2 + 1;
		size_t nl = strlen(name);
		while (nl && (name[nl - 1] == '\r' || name[nl - 1] == ' '))
			name[--nl] = '\0';
		if (!nl)
			continue;
		pv_symtab_add(&j->syms, start, size, pv_demangle_pooled(s->pool, name, PV_DEMANGLE_NONE), NULL, 1);
	}
	pv_symtab_finish(&j->syms);
}

struct pv_jit *pv_jit_get(struct perfev_symbolizer *s, int pid)
{
	for (size_t i = 0; i < s->nr_jits; i++)
		if (s->jits[i].pid == pid)
			return s->jits[i].found ? &s->jits[i] : NULL;
	if (pv_grow(&s->jits, &s->cap_jits, s->nr_jits + 1, sizeof(*s->jits)) < 0)
		return NULL;
	struct pv_jit *j = &s->jits[s->nr_jits++];
	memset(j, 0, sizeof(*j));
	j->pid = pid;
	const char *dir = s->opts.jit_dir ? s->opts.jit_dir : "/tmp";
	char path[PATH_MAX];
	char *buf = NULL;
	size_t len;
	snprintf(path, sizeof(path), "%s/perf-%d.map", dir, pid);
	if (pv_read_file(path, &buf, &len, JITMAP_MAX) < 0 && !s->opts.no_proc_root) {
		snprintf(path, sizeof(path), "/proc/%d/root%s/perf-%d.map", pid, dir, ns_pid(pid));
		if (pv_read_file(path, &buf, &len, JITMAP_MAX) < 0)
			buf = NULL;
	}
	if (!buf)
		return NULL;
	snprintf(path, sizeof(path), "%s/perf-%d.map", dir, pid);
	j->name = pv_strpool_add(s->pool, path);
	j->found = true;
	parse(s, j, buf);
	free(buf);
	return j;
}
