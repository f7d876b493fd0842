/* cli_pager.c — what reads perfev's text on a terminal: a pager (as git and
 * perf: $PERFEV_PAGER, else $PAGER, else less with LESS=FRSX unless set,
 * but not on a dumb terminal;
 * none when stdout is not a terminal, with --no-pager, or a pager of "" or
 * "cat") and colour (--color=auto|always|never: auto is a terminal whose
 * TERM is not dumb and no NO_COLOR, https://no-color.org). --no-pager and
 * --color are taken before the command (perfev --no-pager report) or
 * among its options (perfev report --color=never), by cli_parse. */
#define _GNU_SOURCE
#include "cli.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static bool no_pager;
static enum { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER } color_mode;
static pid_t pager_pid;

/* "--no-pager", "--color", "--color=WHEN": 1 taken, 0 not one of them, -1
 * after saying WHEN is wrong */
int cli_display_option(const char *cmd, const char *arg)
{
	if (!strcmp(arg, "--no-pager")) {
		no_pager = true;
		return 1;
	}
	if (strcmp(arg, "--color") && strncmp(arg, "--color=", 8))
		return 0;
	const char *when = arg[7] ? arg + 8 : "always"; /* (perf's and git's bare --color) */
	if (!strcmp(when, "auto"))
		color_mode = COLOR_AUTO;
	else if (!strcmp(when, "always"))
		color_mode = COLOR_ALWAYS;
	else if (!strcmp(when, "never"))
		color_mode = COLOR_NEVER;
	else
	{
		cli_error(cmd, "--color=%s: give auto, always or never", when);
		return -1;
	}
	return 1;
}

bool cli_color(FILE *f)
{
	if (color_mode != COLOR_AUTO)
		return color_mode == COLOR_ALWAYS;
	const char *nc = getenv("NO_COLOR"), *term = getenv("TERM");
	return isatty(fileno(f)) && !(nc && *nc) && !(term && !strcmp(term, "dumb"));
}

static void wait_pager(void)
{
	fflush(stdout);
	close(STDOUT_FILENO);
	if (pager_pid > 0)
		waitpid(pager_pid, NULL, 0);
}

void cli_pager_start(void)
{
	if (no_pager || pager_pid || !isatty(STDOUT_FILENO))
		return;
	const char *pager = getenv("PERFEV_PAGER");
	if (!pager)
		pager = getenv("PAGER");
	const char *term = getenv("TERM");
	if (!pager && term && !strcmp(term, "dumb"))
		return; /* (as git: no less on a terminal that cannot draw it) */
	if (!pager)
		pager = "less";
	if (!*pager || !strcmp(pager, "cat"))
		return;
	int fd[2];
	if (pipe(fd) < 0)
		return; /* (no pager: the text goes to the terminal) */
	fflush(stdout);
	pid_t pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return;
	}
	if (pid == 0) {
		dup2(fd[0], STDIN_FILENO);
		close(fd[0]);
		close(fd[1]);
		setenv("LESS", "FRSX", 0);
		execl("/bin/sh", "sh", "-c", pager, (char *)NULL);
		_exit(127);
	}
	close(fd[0]);
	dup2(fd[1], STDOUT_FILENO);
	close(fd[1]);
	pager_pid = pid;
	signal(SIGPIPE, SIG_DFL); /* the reader quit: so do we, quietly */
	atexit(wait_pager);
}
