/*
 * perfdata_copy — reads a perf.data file (file or pipe mode, any byte order,
 * compressed or not) and writes its events and records to a new file with
 * libperfev's writer: perfdata_copy IN OUT [-z LEVEL] [--pipe].
 * Kernel records are copied as they are delivered (time order), with a
 * FINISHED_ROUND at the end; the build-ids of the input are carried over.
 */
#include <perfev.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct copy {
	struct perfev_perfdata *in;
	struct perfev_perfdata_writer *out;
	const char *out_path;
	struct perfev_perfdata_write_opts opts;
	char **argv;
	int argc;
	unsigned long records;
};

static int open_writer(struct copy *c)
{
	size_t n = perfev_perfdata_nr_events(c->in);
	struct perfev_perfdata_event *ev = calloc(n ? n : 1, sizeof(*ev));
	for (size_t i = 0; i < n; i++) {
		ev[i].attr = perfev_perfdata_event_attr(c->in, i);
		ev[i].name = perfev_perfdata_event_name(c->in, i);
		ev[i].ids = perfev_perfdata_event_ids(c->in, i, &ev[i].nr_ids);
	}
	c->out = perfev_perfdata_writer_open(c->out_path, -1, ev, n, &c->opts);
	free(ev);
	return c->out ? 0 : -1;
}

static int on_record(void *ctx, const struct perfev_record *r)
{
	struct copy *c = ctx;
	if (r->type == PERFEV_RECORD_HEADER_BUILD_ID) {
		if (!c->out && open_writer(c) < 0)
			return -1;
		return perfev_perfdata_writer_add_build_id(c->out, r->u.build_id.pid,
							   r->misc & PERF_RECORD_MISC_CPUMODE_MASK,
							   r->u.build_id.build_id, r->u.build_id.size,
							   r->u.build_id.filename);
	}
	if (r->type >= PERFEV_RECORD_HEADER_ATTR)
		return 0; /* the writer makes its own attrs, features and rounds */
	if (!c->out && open_writer(c) < 0)
		return -1;
	c->records++;
	return perfev_perfdata_writer_write(c->out, r->bytes, r->size);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: perfdata_copy IN OUT [-z LEVEL] [--pipe]\n");
		return 2;
	}
	struct copy c = {.out_path = argv[2], .argv = argv, .argc = argc};
	c.opts.sz = sizeof(c.opts);
	c.opts.argc = argc - 1; /* CMDLINE: the program path comes first by itself */
	c.opts.argv = argv + 1;
	for (int i = 3; i < argc; i++) {
		if (!strcmp(argv[i], "-z") && i + 1 < argc)
			c.opts.compress_level = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--pipe"))
			c.opts.pipe = true;
	}
	c.in = perfev_perfdata_open(argv[1]);
	if (!c.in) {
		fprintf(stderr, "perfdata_copy: %s\n", perfev_errmsg());
		return 1;
	}
	if (!perfev_perfdata_is_pipe(c.in) && open_writer(&c) < 0) {
		fprintf(stderr, "perfdata_copy: %s\n", perfev_errmsg());
		return 1;
	}
	struct perfev_perfdata_read_opts ro = {.sz = sizeof(ro)};
	int err = perfev_perfdata_process(c.in, &ro, on_record, &c);
	if (err) {
		fprintf(stderr, "perfdata_copy: %s\n", perfev_errmsg());
		return 1;
	}
	if (!c.out && open_writer(&c) < 0) {
		fprintf(stderr, "perfdata_copy: %s\n", perfev_errmsg());
		return 1;
	}
	perfev_perfdata_writer_finish_round(c.out);
	if (perfev_perfdata_writer_close(c.out) < 0) {
		fprintf(stderr, "perfdata_copy: %s\n", perfev_errmsg());
		return 1;
	}
	perfev_perfdata_close(c.in);
	fprintf(stderr, "perfdata_copy: %lu records\n", c.records);
	return 0;
}
