/* recorder_child.c — the recorded command (a perfev_child held before exec
 * so its events can be opened with enable_on_exec) and a pidfd that tells
 * the loop when it ends. */
#define _GNU_SOURCE
#include "core/internal.h"
#include "recorder/recorder_int.h"
#include "perfev/counter.h"

#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

int rec_child_fork(struct perfev_recorder *r)
{
	r->child = pv_child_new(r->opts.argv, r->pipe_mode); /* the stream is stdout */
	if (!r->child)
		return -errno;
	r->child_pid = perfev_child_pid(r->child);
	return 0;
}

int rec_child_start(struct perfev_recorder *r)
{
	int e = perfev_child_start(r->child);
	if (e < 0) {
		char msg[1024];
		snprintf(msg, sizeof(msg), "%s", perfev_errmsg());
		rec_child_reap(r, false, true);
		if (e != -EALREADY && e != -ECHILD) /* exec failed */
			r->stats.exec_error = -e;
		return pv_error(-e, "%s", msg);
	}
	r->pidfd = (int)syscall(SYS_pidfd_open, r->child_pid, 0);
	if (r->pidfd >= 0)
		return perfev_poller_add(r->poller, r->pidfd, &r->pidfd);
	return 0; /* no pidfd (before Linux 5.3): the loop polls for the exit */
}

bool rec_child_reap(struct perfev_recorder *r, bool kill_it, bool block)
{
	if (!r->child || r->child_pid <= 0)
		return false;
	if (kill_it)
		perfev_child_kill(r->child, SIGTERM);
	int ws = 0, e;
	do
		e = block ? perfev_child_wait(r->child, &ws, &r->child_ru)
			  : perfev_child_poll(r->child, &ws, &r->child_ru);
	while (e == -EINTR);
	if (e < 0)
		return false;
	r->stats.command_ran = true;
	r->stats.command_status = ws;
	r->child_pid = 0;
	return true;
}
