/* cmd_buildid_list.c — perfev buildid-list: perf buildid-list's listing of
 * a recording's (or an ELF file's, or the running kernel's) build-ids; the
 * listing is the library's (perfev/buildid.h). */
#define _GNU_SOURCE
#include "cli.h"
#include "perfev.h"

#include <errno.h>
#include <getopt.h>
#include <string.h>

static void usage(FILE *f)
{
	fprintf(f, "usage: perfev buildid-list [-i FILE] [-H] [-k]\n"
		   "  -i, --input FILE  the perf.data file (default perf.data; - for a pipe), or an ELF\n"
		   "                    file: its build-id alone\n"
		   "  -H, --with-hits   only the objects the samples are in (those without a build-id\n"
		   "                    too, the id blank)\n"
		   "  -k, --kernel      the running kernel's build-id\n"
		   "Prints \"BUILDID PATH\" per object, as perf buildid-list.\n");
}

struct args {
	const char *input;
	bool with_hits, kernel;
};

static int option(void *ctx, int c)
{
	struct args *a = ctx;
	switch (c) {
	case 'i': a->input = optarg; return 0;
	case 'H': a->with_hits = true; return 0;
	case 'k': a->kernel = true; return 0;
	case 'm':
		return cli_error("buildid-list", "-m (the kernel's and its modules' build-ids with their "
				 "addresses) is not supported: -k prints the kernel's");
	}
	return CLI_UNKNOWN;
}

static void print_id(const uint8_t *id, int len)
{
	for (int i = 0; i < len; i++)
		printf("%02x", id[i]);
	putchar('\n');
}

static int run(int argc, char **argv)
{
	static const struct option lo[] = {{"input", required_argument, 0, 'i'}, {"with-hits", no_argument, 0, 'H'},
					   {"kernel", no_argument, 0, 'k'}, {"kernel-maps", no_argument, 0, 'm'},
					   {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
	struct args a = {.input = "perf.data"};
	int r = cli_parse("buildid-list", argc, argv, ":i:Hkmh", lo, usage, option, &a);
	if (r)
		return r == CLI_HELP ? 0 : r;
	if (optind < argc)
		return cli_usage_error("buildid-list", usage, "unexpected argument '%s': give the file with -i FILE",
				       argv[optind]);
	uint8_t id[64];
	if (a.kernel) { /* perf: the running kernel's, whatever -i says */
		int n = perfev_kernel_build_id(id, sizeof(id));
		if (n < 0)
			return cli_error("buildid-list", "the running kernel's build-id: /sys/kernel/notes: %s",
					 strerror(-n));
		print_id(id, n);
		return 0;
	}
	/* perf: an ELF file with a build-id first */
	int n = strcmp(a.input, "-") ? perfev_elf_build_id(a.input, id, sizeof(id)) : -ENOEXEC;
	if (n > 0) {
		print_id(id, n);
		return 0;
	}
	struct perfev_perfdata *pd = perfev_perfdata_open(a.input);
	if (!pd)
		return cli_error("buildid-list", "%s", perfev_errmsg());
	cli_warn_unclean("buildid-list", pd);
	struct perfev_buildid_list_opts o = {.sz = sizeof(o), .with_hits = a.with_hits};
	int err = perfev_perfdata_print_build_ids(pd, &o, stdout);
	perfev_perfdata_close(pd);
	return err < 0 ? cli_error("buildid-list", "%s", perfev_errmsg()) : 0;
}
CLI_COMMAND_NAMED(buildid_list, "buildid-list", run, "the build-ids of a recording's objects, as perf buildid-list");
