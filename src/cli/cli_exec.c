/* cli_exec.c — a command that cannot be executed, refused with the shell's status:
 * checked before tracing or watching starts (execvp's search of PATH). */
#define _GNU_SOURCE
#include "cli.h"
#include "perfev.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* 0, or the errno execvp(file) fails with for want of an executable file. */
static int exec_errno(const char *file)
{
	struct stat st;
	if (!*file)
		return ENOENT;
	if (strchr(file, '/')) {
		if (stat(file, &st) < 0)
			return errno;
		return S_ISREG(st.st_mode) && access(file, X_OK) == 0 ? 0 : EACCES;
	}
	const char *path = getenv("PATH");
	if (!path)
		path = "/bin:/usr/bin"; /* glibc's default */
	int err = ENOENT;
	for (const char *p = path;; p++) {
		size_t n = strcspn(p, ":");
		char full[PATH_MAX];
		snprintf(full, sizeof(full), "%.*s%s%s", (int)n, n ? p : ".", "/", file);
		if (stat(full, &st) == 0) {
			if (S_ISREG(st.st_mode) && access(full, X_OK) == 0)
				return 0;
			err = EACCES;
		}
		p += n;
		if (!*p)
			break;
	}
	return err;
}

int cli_exec_check(const char *cmd, const char *file)
{
	int e = exec_errno(file);
	if (!e)
		return 0;
	perfev_child_exec_error(file, e);
	cli_error(cmd, "%s", perfev_errmsg());
	return e == ENOENT ? 127 : 126;
}
