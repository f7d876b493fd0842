/* support_dynevents.h — test helpers for probes, watchpoints and tracing:
 * a child held before exec so events can be opened on it first. */
#ifndef PERFEV_TEST_SUPPORT_DYNEVENTS_H
#define PERFEV_TEST_SUPPORT_DYNEVENTS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct held_child {
	pid_t pid;
	int go; /* write end: closing it lets the child exec */
};

/* Forks a child that waits, then execs argv (NULL-terminated). */
struct held_child hold_child(char *const argv[]);
/* Lets the child exec and waits for it; returns its exit status. */
int release_child(struct held_child *c);
/* Does tracefs's uprobe_events or kprobe_events mention "perfev_PID"? */
bool probe_events_mention(pid_t pid);
/* Counting attr result of fd; aborts the test on a short read. */
uint64_t read_count(int fd);



/* The bytes of header feature `feat` (1 = TRACING_DATA) of a perf.data
 * file, malloc'ed; NULL when the file lacks it. Reads only the header. */
void *perfdata_feature(const char *path, int feat, size_t *len);
#endif
