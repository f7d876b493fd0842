/* recorder_out.c — the recorder's output: records buffered and written in
 * large blocks. */
#define _GNU_SOURCE
#include "internal.h"
#include "recorder_int.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define OUT_BUF (256 * 1024)

int rec_out_open(struct perfev_recorder *r)
{
	if (r->pipe_mode) {
		r->out_fd = STDOUT_FILENO;
		return 0;
	}
	/* Keep the previous recording as FILE.old, as perf does. */
	char old[4096];
	snprintf(old, sizeof(old), "%s.old", r->output);
	if (access(r->output, F_OK) == 0 && rename(r->output, old) < 0)
		return pv_error(errno, "cannot rename %s to %s: %s", r->output, old, strerror(errno));
	r->out_fd = open(r->output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (r->out_fd < 0)
		return pv_error(errno, "cannot create %s: %s (fix: choose a writable place with -o)",
				r->output, strerror(errno));
	return 0;
}

static int flush(struct perfev_recorder *r)
{
	size_t off = 0;
	while (off < r->out_len) {
		ssize_t n = write(r->out_fd, r->out_buf + off, r->out_len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return pv_error(errno ? errno : EIO, "writing %s: %s", r->output, strerror(errno));
		off += (size_t)n;
	}
	r->stats.bytes += r->out_len;
	r->out_len = 0;
	return 0;
}

int rec_out_begin(struct perfev_recorder *r)
{
	if (!r->out_buf && !(r->out_buf = malloc(OUT_BUF)))
		return pv_error(ENOMEM, "out of memory");
	return 0;
}

int rec_out_write(struct perfev_recorder *r, const void *data, size_t len)
{
	if (r->out_len + len > OUT_BUF) {
		int e = flush(r);
		if (e < 0)
			return e;
	}
	memcpy(r->out_buf + r->out_len, data, len);
	r->out_len += len;
	return 0;
}

int rec_out_round(struct perfev_recorder *r) { return flush(r); }
int rec_out_end(struct perfev_recorder *r) { return flush(r); }

void rec_out_close(struct perfev_recorder *r)
{
	if (r->out_fd >= 0 && r->out_fd != STDOUT_FILENO)
		close(r->out_fd);
	r->out_fd = -1;
	free(r->out_buf);
	r->out_buf = NULL;
	r->out_len = 0;
}
