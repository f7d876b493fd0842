/* progress.c — a progress bar on stderr while perfev report reads a file:
 * shown once reading takes more than half a second, on a terminal only,
 * erased when done. */
#include "browser.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void progress_start(struct progress *p, const char *what)
{
	*p = (struct progress){.what = what, .start = now()};
}

void progress_update(void *ctx, uint64_t done, uint64_t total)
{
	struct progress *p = ctx;
	if (!isatty(STDERR_FILENO) || now() - p->start < 0.5)
		return;
	p->shown = true;
	if (!total) { /* a pipe: no end known */
		fprintf(stderr, "\rLoading %s: %llu MB", p->what, (unsigned long long)(done >> 20));
		return;
	}
	int width = 40, fill = (int)((double)width * (double)done / (double)total);
	fill = fill > width ? width : fill;
	fprintf(stderr, "\rLoading %s [%.*s%*s] %3d%%", p->what, fill, "########################################",
		width - fill, "", (int)(100.0 * (double)done / (double)total));
}

void progress_end(struct progress *p)
{
	if (p->shown)
		fputs("\r\033[K", stderr); /* the line erased: the screen or the report follows */
	p->shown = false;
}
