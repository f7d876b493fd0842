/*
 * child.c — a command forked and held before exec, so counters attach to it
 * first (enable_on_exec then starts them exactly at exec). Two pipes: `go`
 * releases the child; `err` (close-on-exec) carries errno back if exec fails
 * and reaches EOF when exec succeeds.
 */
#define _GNU_SOURCE
#include "core/internal.h"
#include "perfev/counter.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

struct perfev_child {
	pid_t pid;
	int go_fd, err_fd;
	bool reaped;
	char *cmd;
};

PERFEV_API struct perfev_child *perfev_child_new(char *const argv[])
{
	return pv_child_new(argv, false);
}

struct perfev_child *pv_child_new(char *const argv[], bool stdout_to_stderr)
{
	if (!argv || !argv[0])
		return pv_error_null(EINVAL, "no command to run");
	struct perfev_child *c = calloc(1, sizeof(*c));
	int go[2], err[2];
	if (!c || !(c->cmd = strdup(argv[0]))) {
		free(c);
		return pv_error_null(ENOMEM, "out of memory");
	}
	if (pipe2(go, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0) {
		free(c->cmd);
		free(c);
		return pv_error_null(errno, "pipe: %s", strerror(errno));
	}
	c->pid = fork();
	if (c->pid < 0) {
		int e = errno;
		close(go[0]), close(go[1]), close(err[0]), close(err[1]);
		free(c->cmd);
		free(c);
		return pv_error_null(e, "fork: %s (process limit, ulimit -u?)", strerror(e));
	}
	if (c->pid == 0) {
		char b;
		close(go[1]);
		close(err[0]);
		/* parent closed `go` without writing: it gave up, do not run */
		if (read(go[0], &b, 1) != 1)
			_exit(127);
		/* the caller may block or catch signals while it waits; the
		 * command starts as from a shell: default dispositions, none blocked */
		sigset_t none;
		sigemptyset(&none);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGCHLD, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		sigprocmask(SIG_SETMASK, &none, NULL);
		if (stdout_to_stderr && dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
			_exit(127);
		execvp(argv[0], argv);
		int e = errno;
		if (write(err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(e == ENOENT ? 127 : 126);
	}
	close(go[0]);
	close(err[1]);
	c->go_fd = go[1];
	c->err_fd = err[0];
	return c;
}

PERFEV_API pid_t perfev_child_pid(const struct perfev_child *c) { return c->pid; }

PERFEV_API int perfev_child_start(struct perfev_child *c)
{
	if (c->go_fd < 0)
		return pv_error(EALREADY, "the command was started already");
	ssize_t w = write(c->go_fd, "g", 1);
	close(c->go_fd);
	c->go_fd = -1;
	if (w != 1)
		return pv_error(ECHILD, "'%s' ended before it could run", c->cmd);
	int e = 0;
	ssize_t n;
	do
		n = read(c->err_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(c->err_fd);
	c->err_fd = -1;
	if (n != (ssize_t)sizeof(e))
		return 0; /* EOF: exec succeeded and closed the pipe */
	return perfev_child_exec_error(c->cmd, e);
}

PERFEV_API int perfev_child_exec_error(const char *cmd, int e)
{
	struct stat st;
	if (e == ENOENT)
		return pv_error(e, "cannot run '%s': command not found%s", cmd,
				strchr(cmd, '/') ? " (no such file)" : " (not a file in any directory of PATH)");
	if (e == EACCES && strchr(cmd, '/') && stat(cmd, &st) == 0 && S_ISDIR(st.st_mode))
		return pv_error(e, "cannot run '%s': it is a directory, not a program", cmd);
	if (e == EACCES)
		return pv_error(e, "cannot run '%s': permission denied (not executable, or on a noexec "
				   "mount): chmod +x it", cmd);
	if (e == ENOEXEC)
		return pv_error(e, "cannot run '%s': not an executable format (a script without a #! "
				   "line?)", cmd);
	return pv_error(e, "cannot run '%s': %s", cmd, strerror(e));
}

static int reap(struct perfev_child *c, int *ws, struct rusage *ru, int flags)
{
	if (c->reaped)
		return pv_error(ECHILD, "the command was waited for already");
	struct rusage tmp;
	pid_t r = wait4(c->pid, ws, flags, ru ? ru : &tmp);
	if (r < 0)
		return errno == EINTR ? -EINTR : pv_error(errno, "wait4: %s", strerror(errno));
	if (r == 0)
		return -EAGAIN;
	c->reaped = true;
	return 0;
}

PERFEV_API int perfev_child_wait(struct perfev_child *c, int *ws, struct rusage *ru)
{
	return reap(c, ws, ru, 0);
}

PERFEV_API int perfev_child_poll(struct perfev_child *c, int *ws, struct rusage *ru)
{
	return reap(c, ws, ru, WNOHANG);
}

PERFEV_API int perfev_child_kill(struct perfev_child *c, int sig)
{
	if (c->reaped)
		return pv_error(ESRCH, "the command has ended");
	if (c->go_fd >= 0) {
		/* held before exec, it still runs the caller's signal handlers
		 * and would survive sig: closing `go` makes it exit instead */
		close(c->go_fd);
		c->go_fd = -1;
		return 0;
	}
	if (kill(c->pid, sig) < 0)
		return pv_error(errno, "kill: %s", strerror(errno));
	return 0;
}

PERFEV_API void perfev_child_free(struct perfev_child *c)
{
	if (!c)
		return;
	if (c->go_fd >= 0)
		close(c->go_fd); /* unstarted child reads EOF and exits */
	if (c->err_fd >= 0)
		close(c->err_fd);
	if (!c->reaped) {
		int ws;
		kill(c->pid, SIGKILL);
		while (waitpid(c->pid, &ws, 0) < 0 && errno == EINTR)
			;
	}
	free(c->cmd);
	free(c);
}

PERFEV_API int perfev_exit_code(int ws)
{
	if (WIFEXITED(ws))
		return WEXITSTATUS(ws);
	if (WIFSIGNALED(ws))
		return 128 + WTERMSIG(ws);
	return 1;
}
