#define _GNU_SOURCE
#include "support.h"
#include "support_dynevents.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

struct held_child hold_child(char *const argv[])
{
	int p[2];
	cr_assert(pipe2(p, O_CLOEXEC) == 0);
	pid_t pid = fork();
	cr_assert(pid >= 0);
	if (pid == 0) {
		char c;
		close(p[1]);
		while (read(p[0], &c, 1) < 0 && errno == EINTR)
			;
		execv(argv[0], argv);
		_exit(127);
	}
	close(p[0]);
	return (struct held_child){pid, p[1]};
}

int release_child(struct held_child *c)
{
	close(c->go);
	int st;
	while (waitpid(c->pid, &st, 0) < 0 && errno == EINTR)
		;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

bool probe_events_mention(pid_t pid)
{
	char needle[32];
	snprintf(needle, sizeof(needle), "perfev_%d/", (int)pid);
	static const char *const files[] = {"/sys/kernel/tracing/uprobe_events",
					    "/sys/kernel/tracing/kprobe_events"};
	for (size_t i = 0; i < 2; i++) {
		FILE *f = fopen(files[i], "r");
		if (!f)
			continue;
		char line[4096];
		bool found = false;
		while (!found && fgets(line, sizeof(line), f))
			found = strstr(line, needle) != NULL;
		fclose(f);
		if (found)
			return true;
	}
	return false;
}

uint64_t read_count(int fd)
{
	uint64_t v = 0;
	cr_assert_eq(read(fd, &v, sizeof(v)), (ssize_t)sizeof(v), "read count: %s", strerror(errno));
	return v;
}

void *perfdata_feature(const char *path, int feat, size_t *len)
{
	size_t n;
	uint8_t *f = (uint8_t *)slurp(path, &n);
	void *out = NULL;
	uint64_t h[13];
	if (n < 104 || memcmp(f, "PERFILE2", 8))
		goto done;
	memcpy(h, f, sizeof(h));
	uint64_t sec = h[5] + h[6]; /* data.offset + data.size */
	const uint8_t *bits = f + 72;
	if (!(bits[feat / 8] >> (feat % 8) & 1))
		goto done;
	for (int b = 0; b < feat; b++)
		if (bits[b / 8] >> (b % 8) & 1)
			sec += 16;
	uint64_t s[2];
	if (sec + 16 > n)
		goto done;
	memcpy(s, f + sec, 16);
	if (s[0] > n || s[1] > n - s[0])
		goto done;
	out = malloc(s[1] ? s[1] : 1);
	memcpy(out, f + s[0], s[1]);
	*len = s[1];
done:
	free(f);
	return out;
}
