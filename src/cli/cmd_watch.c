/* cmd_watch.c — `perfev watch`: every access to an address of a command,
 * with the accessing instruction, its symbol and the call chain. */
#define _GNU_SOURCE
#include "cli.h"
#include "perfev.h"

#include <stdlib.h>
#include <string.h>

static void stop(void *t) { perfev_watcher_stop(t); }

static void usage(FILE *f)
{
	fprintf(f, "usage: perfev watch [-r | -w | -rw | -x] [--len N] [-q] (ADDR | SYMBOL) -- COMMAND [ARGS...]\n\n"
		   "Runs COMMAND with a hardware watchpoint on ADDR (0x...) or on SYMBOL, a variable\n"
		   "or function of its executable (resolved where a PIE is really loaded), and\n"
		   "prints every access: the instruction that made it, its symbol and the call\n"
		   "chain, then a count per instruction. -w writes (default), -rw reads and writes\n"
		   "(x86 has no read-only watchpoints), -x execution. --len: 1, 2, 4 or 8 bytes\n"
		   "(default: the symbol's size). -q prints the counts only.\n");
}

struct site {
	uint64_t ip, rel, count;
	char *where;
};

struct state {
	bool quiet;
	struct site *sites;
	size_t nr;
};

static void frame_str(char *buf, size_t len, const struct perfev_watch_frame *f)
{
	if (f->symbol)
		snprintf(buf, len, "%s+0x%llx (%s)", f->symbol, (unsigned long long)f->symoff, f->dso);
	else
		snprintf(buf, len, "[unknown] (%s)", f->dso);
}

static void on_access(void *arg, const struct perfev_watch_access *a)
{
	struct state *st = arg;
	char where[512];
	frame_str(where, sizeof(where), &a->insn);
	if (!st->quiet) {
		printf("access #%llu: %u/%u at %llu.%06llu, address 0x%llx\n", (unsigned long long)a->n,
		       a->pid, a->tid, (unsigned long long)(a->time / 1000000000),
		       (unsigned long long)(a->time % 1000000000 / 1000), (unsigned long long)a->addr);
		for (size_t i = 0; i < a->nr_frames; i++) {
			char f[512];
			frame_str(f, sizeof(f), &a->frames[i]);
			printf("    %16llx %s\n", (unsigned long long)a->frames[i].ip, f);
		}
	}
	for (size_t i = 0; i < st->nr; i++)
		if (st->sites[i].ip == a->insn.ip) {
			st->sites[i].count++;
			return;
		}
	struct site *s = realloc(st->sites, (st->nr + 1) * sizeof(*s));
	if (!s)
		return;
	st->sites = s;
	st->sites[st->nr++] = (struct site){a->insn.ip, a->insn.rel, 1, strdup(where)};
}

static int cmd_watch(int argc, char **argv)
{
	unsigned type = PERFEV_WATCH_W;
	size_t len = 0;
	struct state st = {0};
	const char *target = NULL;
	int i = 1;
	for (; i < argc; i++) {
		const char *a = argv[i];
		if (!strcmp(a, "--")) {
			i++;
			break;
		} else if (!strcmp(a, "-r") || !strcmp(a, "-w") || !strcmp(a, "-rw") || !strcmp(a, "-x")) {
			type = (unsigned)perfev_watch_type_parse(a + 1);
		} else if (!strcmp(a, "--len") && i + 1 == argc) {
			return cli_usage_error("watch", usage, "option '--len' needs a value");
		} else if (!strcmp(a, "--len")) {
			char *end;
			len = strtoul(argv[++i], &end, 0);
			if (*end || (len != 1 && len != 2 && len != 4 && len != 8))
				return cli_error("watch", "--len %s: the hardware watches 1, 2, 4 or 8 bytes",
						 argv[i]);
		} else if (!strcmp(a, "-q") || !strcmp(a, "--quiet")) {
			st.quiet = true;
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			return 0;
		} else if (a[0] == '-') {
			return cli_usage_error("watch", usage, "unknown option '%s'", a);
		} else if (!target) {
			target = a;
		} else {
			break;
		}
	}
	if (!target || i >= argc)
		return cli_usage_error("watch", usage, "give the address or symbol to watch, then -- and "
				       "the command");
	int x = cli_exec_check("watch", argv[i]);
	if (x)
		return x;
	struct perfev_watcher_opts o = {sizeof(o), argv + i, target, type, len};
	struct perfev_watcher *w = perfev_watcher_new(&o);
	if (!w)
		return cli_error("watch", "%s", perfev_errmsg());
	static const char *const tn[] = {"", "r", "w", "rw", "x"};
	fprintf(stderr, "perfev watch: %s on 0x%llx (%s, %zu bytes)\n", tn[type],
		(unsigned long long)perfev_watcher_addr(w), target, perfev_watcher_len(w));
	cli_stop_on_signals(stop, w);
	int r = perfev_watcher_run(w, on_access, &st);
	cli_stop_off();
	int status;
	if (r < 0) {
		status = cli_error("watch", "%s", perfev_errmsg());
	} else {
		uint64_t total = 0;
		for (size_t k = 0; k < st.nr; k++)
			total += st.sites[k].count;
		printf("%llu accesses to 0x%llx (%s)\n", (unsigned long long)total,
		       (unsigned long long)perfev_watcher_addr(w), target);
		for (size_t k = 0; k < st.nr; k++)
			printf("%10llu  %16llx  0x%llx %s\n", (unsigned long long)st.sites[k].count,
			       (unsigned long long)st.sites[k].ip, (unsigned long long)st.sites[k].rel,
			       st.sites[k].where ? st.sites[k].where : "");
		if (perfev_watcher_lost(w))
			fprintf(stderr, "perfev watch: %llu accesses were lost (ring full)\n",
				(unsigned long long)perfev_watcher_lost(w));
		int ws = perfev_watcher_status(w);
		status = ws == -1 ? 0 : perfev_exit_code(ws);
	}
	for (size_t k = 0; k < st.nr; k++)
		free(st.sites[k].where);
	free(st.sites);
	perfev_watcher_free(w);
	return status;
}

CLI_COMMAND(watch, cmd_watch, "every access to a variable of a command: instruction, symbol, call chain");
