/* recorder_child.c — the recorded command: forked first so its events can
 * be opened on its pid with enable_on_exec, then let go to exec. */
#define _GNU_SOURCE
#include "internal.h"
#include "recorder_int.h"

#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

int rec_child_fork(struct perfev_recorder *r)
{
	int go[2], err[2];
	if (pipe2(go, O_CLOEXEC) < 0)
		return pv_error(errno, "pipe: %s", strerror(errno));
	if (pipe2(err, O_CLOEXEC) < 0) {
		close(go[0]);
		close(go[1]);
		return pv_error(errno, "pipe: %s", strerror(errno));
	}
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		close(go[0]), close(go[1]), close(err[0]), close(err[1]);
		return pv_error(e, "fork: %s (fix: raise the process limit, ulimit -u)", strerror(e));
	}
	if (pid == 0) {
		char c;
		close(go[1]);
		close(err[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		/* No byte: the recorder gave up before starting us. */
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(r->opts.argv[0], r->opts.argv);
		int e = errno;
		ssize_t n = write(err[1], &e, sizeof(e));
		(void)n;
		_exit(127);
	}
	close(go[0]);
	close(err[1]);
	r->child = pid;
	r->child_go = go[1];
	r->child_err = err[0];
	return 0;
}

int rec_child_start(struct perfev_recorder *r)
{
	if (r->child <= 0)
		return 0;
	ssize_t n = write(r->child_go, "g", 1);
	close(r->child_go);
	r->child_go = -1;
	int e = 0;
	/* EOF (exec closed the CLOEXEC pipe) means the exec succeeded. */
	n = n == 1 ? read(r->child_err, &e, sizeof(e)) : -1;
	close(r->child_err);
	r->child_err = -1;
	if (n == (ssize_t)sizeof(e)) {
		rec_child_wait(r, false);
		return pv_error(e, "cannot run '%s': %s%s", r->opts.argv[0], strerror(e),
				e == ENOENT ? " (fix: check the command's name and PATH)" : "");
	}
	r->pidfd = (int)syscall(SYS_pidfd_open, r->child, 0);
	if (r->pidfd >= 0)
		return perfev_poller_add(r->poller, r->pidfd, &r->pidfd);
	return 0; /* no pidfd (old kernel): the loop polls waitpid instead */
}

void rec_child_wait(struct perfev_recorder *r, bool kill_it)
{
	if (r->child <= 0)
		return;
	if (r->child_go >= 0) {
		close(r->child_go); /* never started: it exits by itself */
		r->child_go = -1;
	} else if (kill_it) {
		kill(r->child, SIGTERM);
	}
	int status = 0;
	while (waitpid(r->child, &status, 0) < 0 && errno == EINTR)
		;
	r->stats.command_ran = true;
	r->stats.command_status = status;
	r->child = 0;
	if (r->child_err >= 0) {
		close(r->child_err);
		r->child_err = -1;
	}
}
