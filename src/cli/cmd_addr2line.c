/*
 * cmd_addr2line.c — `perfev addr2line -e FILE [-a] [-f] [-i] [-C] [-s] [ADDR...]`:
 * binutils addr2line's interface and output over perfev's symbolizer
 * (source lines, inlined frames, separate debug info found as for profiles).
 * Addresses are the binary's own (link-time) addresses; without arguments
 * they are read from stdin, one per line.
 */
#include "cli.h"
#include "perfev.h"

#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(FILE *f)
{
	fprintf(f, "usage: perfev addr2line -e FILE [-a] [-f] [-i] [-C] [-s] [ADDR...]\n\n"
		   "Prints the source location of each address of FILE as addr2line does:\n"
		   "  -a  print the address first     -f  print the function name\n"
		   "  -i  print inlined frames too    -C  demangle C++ and Rust names\n"
		   "  -s  file base names only\n"
		   "Debug info is looked up like for profiles: the file itself, its build-id\n"
		   "under /usr/lib/debug, .gnu_debuglink, MiniDebugInfo, debuginfod.\n");
}

struct opts {
	bool addr, func, inl, demangle, base;
	const char *exe;
};

static int option(void *ctx, int c)
{
	struct opts *o = ctx;
	switch (c) {
	case 'a': o->addr = true; return 0;
	case 'f': o->func = true; return 0;
	case 'i': o->inl = true; return 0;
	case 'C': o->demangle = true; return 0;
	case 's': o->base = true; return 0;
	case 'e': o->exe = optarg; return 0;
	}
	return CLI_UNKNOWN;
}

static void print_one(struct perfev_symbolizer *s, const char *exe, uint64_t addr,
		      const struct opts *o)
{
	struct perfev_location loc;
	unsigned flags = (o->inl ? PERFEV_RESOLVE_INLINE : PERFEV_RESOLVE_SRCLINE) |
			 (o->demangle ? 0 : PERFEV_RESOLVE_NO_DEMANGLE);
	perfev_symbolizer_resolve_file(s, exe, addr, flags, &loc);
	if (o->addr)
		printf("0x%016llx\n", (unsigned long long)addr);
	if (!loc.nr_lines) { /* as addr2line: ??:0 when nothing is known, ??:? with a symbol */
		if (o->func)
			printf("%s\n", loc.symbol ? loc.symbol : "??");
		printf(loc.symbol ? "??:?\n" : "??:0\n");
		return;
	}
	for (size_t i = 0; i < loc.nr_lines; i++) {
		const struct perfev_source_line *l = &loc.lines[i];
		const char *file = l->file;
		if (file && o->base && strrchr(file, '/'))
			file = strrchr(file, '/') + 1;
		if (o->func)
			printf("%s\n", l->function ? l->function : (loc.symbol ? loc.symbol : "??"));
		if (l->line)
			printf("%s:%u\n", file ? file : "??", l->line);
		else
			printf("%s:?\n", file ? file : "??");
		if (!o->inl)
			break;
	}
}

static int cmd_addr2line(int argc, char **argv)
{
	struct opts o = {.exe = "a.out"};
	static const struct option lo[] = {{"exe", required_argument, 0, 'e'}, {"addresses", no_argument, 0, 'a'},
		{"functions", no_argument, 0, 'f'}, {"inlines", no_argument, 0, 'i'},
		{"demangle", no_argument, 0, 'C'}, {"basenames", no_argument, 0, 's'},
		{"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
	int r = cli_parse("addr2line", argc, argv, ":afiCse:h", lo, usage, option, &o);
	if (r)
		return r == CLI_HELP ? 0 : r;
	const char *exe = o.exe;
	if (access(exe, R_OK) != 0)
		return cli_error("addr2line", "cannot read '%s': give an ELF file with -e FILE", exe);
	FILE *ef = fopen(exe, "rb");
	char magic[4] = {0};
	if (!ef || fread(magic, 1, 4, ef) != 4 || memcmp(magic, "\177ELF", 4)) {
		if (ef)
			fclose(ef);
		return cli_error("addr2line", "%s: file format not recognized (not an ELF file): give an "
				 "executable, library or debug file with -e FILE", exe);
	}
	fclose(ef);
	struct perfev_symbolizer *s = perfev_symbolizer_new(NULL);
	if (!s)
		return cli_error("addr2line", "%s", perfev_errmsg());
	int status = 0;
	char line[256];
	for (int i = optind;; i++) {
		const char *arg;
		if (optind < argc) {
			if (i >= argc)
				break;
			arg = argv[i];
		} else {
			if (!fgets(line, sizeof(line), stdin))
				break;
			line[strcspn(line, "\r\n")] = '\0';
			arg = line;
		}
		char *end;
		uint64_t addr = strtoull(arg, &end, 16);
		if (end == arg) {
			status = cli_error("addr2line", "'%s' is not a hex address: give addresses "
					   "like 0x1139, as nm prints them", arg);
			continue;
		}
		print_one(s, exe, addr, &o);
		fflush(stdout);
	}
	for (size_t i = 0; i < perfev_symbolizer_nr_notes(s); i++) /* stripped, no debug info... */
		fprintf(stderr, "perfev addr2line: %s\n", perfev_symbolizer_note(s, i));
	perfev_symbolizer_free(s);
	return status;
}
CLI_COMMAND(addr2line, cmd_addr2line, "source lines and inlined frames of addresses, as addr2line");
