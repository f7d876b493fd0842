/* recorder_out.c — the recorder's output: a perf.data file or pipe-mode
 * stream through the perf.data writer, records handed over in large blocks,
 * build-ids of the binaries samples hit added at the end. */
#define _GNU_SOURCE
#include "core/internal.h"
#include "recorder/recorder_int.h"
#include "perfev/perfdata.h"
#include "perfev/location.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define OUT_BUF (512 * 1024)

int rec_out_open(struct perfev_recorder *r)
{
	if (r->opts.no_output)
		return 0; /* the records go to on_record alone */
	if (!r->pipe_mode) {
		/* Keep the previous recording as FILE.old, as perf does. */
		char old[4096];
		snprintf(old, sizeof(old), "%s.old", r->output);
		/* Only a regular file with data (as perf): /dev/null or a FIFO
		 * is written to, not moved away; a directory is refused. */
		struct stat st;
		bool had = stat(r->output, &st) == 0;
		if (had && S_ISDIR(st.st_mode))
			return pv_error(EISDIR, "%s is a directory: give the output file's name (-o %s/perf.data)",
					r->output, r->output);
		had = had && S_ISREG(st.st_mode) && st.st_size > 0;
		if (had && rename(r->output, old) < 0)
			return pv_error(errno, "cannot rename %s to %s: %s (fix: choose another "
					"place with -o)", r->output, old, strerror(errno));
		r->kept_old = had;
	}
	struct perfev_perfdata_event *ev = calloc(r->nevents, sizeof(*ev));
	if (!ev || !(r->out_buf = malloc(OUT_BUF))) {
		free(ev);
		return pv_error(ENOMEM, "out of memory");
	}
	for (size_t i = 0; i < r->nevents; i++) {
		ev[i].attr = &r->attrs[i];
		ev[i].name = rec_event_name(r, i);
		ev[i].ids = r->ids[i];
		ev[i].nr_ids = r->ncpus * r->ntids;
	}
	struct perfev_perfdata_write_opts wo = {
		.sz = sizeof(wo),
		.pipe = r->pipe_mode,
		.compress_level = r->opts.compress ? (r->opts.compress_level ? r->opts.compress_level : 1) : 0,
		.argc = r->opts.cmdline_argc,
		.argv = r->opts.cmdline_argv,
	};
	r->writer = perfev_perfdata_writer_open(r->output, -1, ev, r->nevents, &wo);
	free(ev);
	struct stat st;
	r->out_regular = r->writer && !r->pipe_mode && stat(r->output, &st) == 0 && S_ISREG(st.st_mode);
	return r->writer ? 0 : -errno;
}

static int flush(struct perfev_recorder *r)
{
	if (!r->out_len)
		return 0;
	int e = perfev_perfdata_writer_write(r->writer, r->out_buf, r->out_len);
	r->out_len = 0;
	return e;
}

int rec_out_begin(struct perfev_recorder *r) { return r->writer || r->opts.no_output ? 0 : -EBADF; }

int rec_out_write(struct perfev_recorder *r, const void *data, size_t len)
{
	int fe = rec_feed_record(r, data, len);
	if (fe < 0 || !r->writer)
		return fe;
	if (r->out_len + len > OUT_BUF) {
		int e = flush(r);
		if (e < 0)
			return e;
	}
	memcpy(r->out_buf + r->out_len, data, len);
	r->out_len += len;
	return 0;
}

int rec_out_round(struct perfev_recorder *r)
{
	if (!r->writer)
		return rec_feed_round(r);
	int e = flush(r);
	if (e >= 0)
		e = perfev_perfdata_writer_finish_round(r->writer);
	return e < 0 ? e : rec_feed_round(r);
}

/* Binaries that samples hit, and the kernel, into the BUILD_ID feature. */
static void add_build_ids(struct perfev_recorder *r)
{
	size_t n;
	bool kernel_hit;
	const struct rec_dso *d = rec_scan_dsos(r, &n, &kernel_hit);
	uint8_t id[PERFEV_BUILD_ID_MAX];
	int len;
	if (kernel_hit && (len = pv_kernel_build_id(id, sizeof(id))) > 0)
		perfev_perfdata_writer_add_build_id(r->writer, -1, PERF_RECORD_MISC_KERNEL, id,
						    (size_t)len, "[kernel.kallsyms]");
	for (size_t i = 0; i < n; i++) {
		if (!d[i].hit || d[i].path[0] != '/')
			continue; /* [vdso], //anon, [stack]...: no file to name */
		if ((len = pv_file_build_id(d[i].path, id, sizeof(id))) > 0)
			perfev_perfdata_writer_add_build_id(r->writer, -1, PERF_RECORD_MISC_USER, id,
							    (size_t)len, d[i].path);
	}
}

int rec_out_end(struct perfev_recorder *r)
{
	int e = rec_feed_end(r);
	if (!r->writer)
		return e;
	int e1 = flush(r);
	e = e < 0 ? e : e1;
	add_build_ids(r);
	int e2 = perfev_perfdata_writer_finalize(r->writer);
	struct stat st; /* what landed on disk, compressed or not */
	if (!r->pipe_mode && stat(r->output, &st) == 0)
		r->stats.bytes = (uint64_t)st.st_size;
	else
		r->stats.bytes = perfev_perfdata_writer_data_size(r->writer);
	return e < 0 ? e : e2;
}

void rec_out_close(struct perfev_recorder *r)
{
	perfev_perfdata_writer_close(r->writer);
	if (r->writer && r->stats.exec_error && r->out_regular) {
		/* nothing was recorded: leave no file, and the previous one where it was */
		unlink(r->output);
		char old[4096];
		snprintf(old, sizeof(old), "%s.old", r->output);
		if (r->kept_old)
			rename(old, r->output);
	}
	r->writer = NULL;
	free(r->out_buf);
	r->out_buf = NULL;
	r->out_len = 0;
}
