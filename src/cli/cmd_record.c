/* cmd_record.c — `perfev record`: sample a command, processes or the whole
 * system into perf.data (the recorder library does the work). */
#define _GNU_SOURCE
#include "cli.h"
#include "report.h"
#include "cli_events.h"
#include "perfev.h"

#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void usage(FILE *f)
{
	fprintf(f,
		"usage: perfev record [OPTIONS] [--] [COMMAND [ARGS...]]\n\n"
		"Samples COMMAND (or -p/-t/-a) and writes perf.data, which perf report and\n"
		"perf script read. The command's exit status becomes perfev's.\n\n"
		"  -e, --event EVENTS      events in perf's syntax (default: cycles, or\n"
		"                          cpu-clock where no PMU counts cycles)\n"
		"  -F, --freq HZ           samples per second (default 4000)\n"
		"  -c, --count PERIOD      a sample every PERIOD events instead\n"
		"  -g                      call graphs from frame pointers\n"
		"      --call-graph MODE   fp, or dwarf[,SIZE] (SIZE bytes of user stack, default 8192)\n"
		"  -a, --all-cpus          every CPU, every process\n"
		"  -C, --cpu CPUS          these CPUs (system-wide), e.g. 0-3,5\n"
		"  -p, --pid PID           every thread of the running process PID\n"
		"  -t, --tid TID           the thread TID\n"
		"  -m, --mmap-pages PAGES  ring buffer data pages per CPU (a power of two)\n"
		"  -z, --compression-level[=N]  zstd-compress the records (perf's COMPRESSED2)\n"
		"  -o, --output FILE       the output (default perf.data; the old one becomes\n"
		"                          perf.data.old); '-' writes a pipe-mode stream to stdout\n"
		"      --switch-events     record context switches\n"
		"  -k, --clockid CLOCK     timestamps from CLOCK: monotonic, monotonic_raw, realtime,\n"
		"                          boottime, tai (or a number); perf script -F tod then works\n"
		"  -q, --quiet             print errors only (no Woken up/Captured lines, no notes)\n"
		"      --filter EXPR       tracepoint filter for the -e event just before it\n"
		"                          (the kernel's syntax: 'prev_pid == 1 && next_comm != \"sh\"')\n"
		"      --flame FILE.svg    also write a flame graph of the recording (as perfev report --flame),\n"
		"                          built while recording (the recording is not read back)\n"
		"      --pprof FILE.pb.gz  ... a pprof profile; --firefox FILE.json a Firefox Profiler one;\n"
		"      --folded FILE       ... folded stacks\n"
		"  -d, --data              the sampled data addresses (PERF_SAMPLE_ADDR)\n"
		"      --phys-data, --data-page-size, --code-page-size  the physical data address,\n"
		"                          the data and the code page sizes\n"
		"  -W, --weight            the sample weight; --transaction the transaction flags\n"
		"  -b, --branch-any        the taken branches (LBR); -j, --branch-filter MODES those of\n"
		"                          any,any_call,any_ret,ind_call,call,ind_jmp,cond,u,k,hv,...\n"
		"  -I, --intr-regs[=REGS]  the interrupted registers (default: the general ones);\n"
		"      --user-regs[=REGS]  the user registers; REGS: ax,bx,... ('?' lists them)\n"
		"  -i, --no-inherit        not the tasks the command or process creates\n"
		"      --all-user, --all-kernel  every event in user space, or in the kernel, only\n"
		"  -T, --timestamp, -P, --period, --sample-cpu  (always recorded)\n");
}

static struct perfev_recorder *g_rec;

/* The exports' profile, built from the records as they are written (the
 * file is never read back). */
struct live_profile {
	struct perfev_profile_builder *b;
	int err; /* the builder's first failure: the exports are not written */
	char errmsg[256];
};

static int feed(void *ctx, const struct perfev_record *rec)
{
	struct live_profile *lp = ctx;
	if (!lp->err && perfev_profile_builder_add(lp->b, rec) < 0) {
		lp->err = errno ? errno : ENOMEM;
		snprintf(lp->errmsg, sizeof(lp->errmsg), "%s", perfev_errmsg());
	}
	return 0; /* the recording goes on */
}

/* A builder of what perfev report --flame would build from the file, fed
 * the recorder's events. 0, or 1 after saying why not. */
static int live_begin(struct live_profile *lp, const struct perfev_recorder *rec, const struct report_exports *x)
{
	struct perfev_profile_load_opts lo = {.sz = sizeof(lo), .group = PERFEV_GROUP_THREAD, .event = -1};
	if (x->firefox)
		lo.flags |= PERFEV_PROFILE_KEEP_SAMPLES;
	struct perfev_profile_builder_opts bo = {.sz = sizeof(bo), .load = &lo};
	lp->b = perfev_profile_builder_new(&bo);
	bool ok = lp->b != NULL;
	for (size_t i = 0; ok && i < perfev_recorder_nr_events(rec); i++)
		ok = perfev_profile_builder_add_event(lp->b, perfev_recorder_event_attr(rec, i),
						      perfev_recorder_event_name(rec, i)) >= 0;
	if (!ok)
		return cli_error("record", "the exports' profile: %s", perfev_errmsg());
	return 0;
}

/* The exports of the profile built while recording. 0, or 1 after saying what failed. */
static int live_exports(struct live_profile *lp, const struct report_exports *x)
{
	if (lp->err)
		return cli_error("record", "the exports' profile: %s", lp->errmsg);
	struct perfev_profile_load_info info = {.sz = sizeof(info)};
	struct perfev_profile *p = perfev_profile_builder_finish(lp->b, &info);
	if (!p)
		return cli_error("record", "the exports' profile: %s", perfev_errmsg());
	char subtitle[256];
	snprintf(subtitle, sizeof(subtitle), "%llu samples of %s",
		 (unsigned long long)perfev_profile_total(p, PERFEV_VALUE_SAMPLES), info.event_name);
	int ret = report_write_exports("record", p, x, subtitle, PERFEV_VALUE_SAMPLES, info.interval_ms);
	perfev_profile_free(p);
	return ret;
}

static int parse_u64(const char *opt, const char *s, uint64_t *out)
{
	return cli_parse_positive("record", opt, s, out);
}

static int parse_callgraph(const char *s, struct perfev_record_opts *o)
{
	if (!strcmp(s, "fp")) {
		o->call_graph = PERFEV_CALLGRAPH_FP;
		return 0;
	}
	if (!strncmp(s, "dwarf", 5) && (s[5] == 0 || s[5] == ',')) {
		o->call_graph = PERFEV_CALLGRAPH_DWARF;
		if (s[5] == ',') {
			uint64_t v;
			if (parse_u64("--call-graph dwarf,SIZE", s + 6, &v))
				return 1;
			if (v > 65528 || v % 8)
				return cli_error("record", "--call-graph dwarf,%s: the stack size must be "
						 "a multiple of 8 up to 65528", s + 6);
			o->dwarf_stack_size = (uint32_t)v;
		}
		return 0;
	}
	return cli_error("record", "--call-graph '%s': want fp or dwarf[,SIZE]", s);
}

static double mb(uint64_t bytes) { return bytes / 1048576.0; }

/* What perfev record's command line asks for. */
struct record_cli {
	struct perfev_record_opts o;
	struct report_exports x; /* record, and build the exports' profile on the way */
	struct perfev_evlist *events;
	bool quiet;
};

static const struct option longopts[] = {
	{"event", required_argument, 0, 'e'},    {"freq", required_argument, 0, 'F'},
	{"count", required_argument, 0, 'c'},    {"call-graph", required_argument, 0, 'G'},
	{"all-cpus", no_argument, 0, 'a'},       {"cpu", required_argument, 0, 'C'},
	{"pid", required_argument, 0, 'p'},      {"tid", required_argument, 0, 't'},
	{"mmap-pages", required_argument, 0, 'm'},
	{"compression-level", optional_argument, 0, 'z'},
	{"output", required_argument, 0, 'o'},   {"switch-events", no_argument, 0, 'S'},
	{"flame", required_argument, 0, 256},    {"pprof", required_argument, 0, 257},
	{"firefox", required_argument, 0, 258},  {"folded", required_argument, 0, 259},
	{"filter", required_argument, 0, 'f'},
	{"clockid", required_argument, 0, 'k'},  {"quiet", no_argument, 0, 'q'},
	{"data", no_argument, 0, 'd'},           {"phys-data", no_argument, 0, 260},
	{"data-page-size", no_argument, 0, 261}, {"code-page-size", no_argument, 0, 262},
	{"weight", no_argument, 0, 'W'},         {"transaction", no_argument, 0, 263},
	{"branch-any", no_argument, 0, 'b'},     {"branch-filter", required_argument, 0, 'j'},
	{"intr-regs", optional_argument, 0, 'I'}, {"user-regs", optional_argument, 0, 264},
	{"no-inherit", no_argument, 0, 'i'},     {"all-user", no_argument, 0, 265},
	{"all-kernel", no_argument, 0, 266},     {"timestamp", no_argument, 0, 'T'},
	{"period", no_argument, 0, 'P'},         {"sample-cpu", no_argument, 0, 267},
	{"help", no_argument, 0, 'h'},           {0, 0, 0, 0},
};

/* -j's modes, as perf's parse_branch_stack names them */
static const struct {
	const char *name;
	uint64_t bit;
} branch_modes[] = {
	{"u", PERF_SAMPLE_BRANCH_USER},		  {"k", PERF_SAMPLE_BRANCH_KERNEL},
	{"hv", PERF_SAMPLE_BRANCH_HV},		  {"any", PERF_SAMPLE_BRANCH_ANY},
	{"any_call", PERF_SAMPLE_BRANCH_ANY_CALL}, {"any_ret", PERF_SAMPLE_BRANCH_ANY_RETURN},
	{"ind_call", PERF_SAMPLE_BRANCH_IND_CALL}, {"abort_tx", PERF_SAMPLE_BRANCH_ABORT_TX},
	{"in_tx", PERF_SAMPLE_BRANCH_IN_TX},	  {"no_tx", PERF_SAMPLE_BRANCH_NO_TX},
	{"cond", PERF_SAMPLE_BRANCH_COND},	  {"ind_jmp", PERF_SAMPLE_BRANCH_IND_JUMP},
	{"call", PERF_SAMPLE_BRANCH_CALL},	  {"save_type", PERF_SAMPLE_BRANCH_TYPE_SAVE},
	{"stack", PERF_SAMPLE_BRANCH_CALL_STACK}, {"no_flags", PERF_SAMPLE_BRANCH_NO_FLAGS},
	{"no_cycles", PERF_SAMPLE_BRANCH_NO_CYCLES},
};

/* -j MODES: perf's rule, only privilege levels given means any branch */
static int parse_branch_filter(const char *list, uint64_t *out)
{
	char *copy = strdup(list), *save = NULL;
	uint64_t m = 0;
	for (char *t = copy ? strtok_r(copy, ",", &save) : NULL; t; t = strtok_r(NULL, ",", &save)) {
		size_t i = 0;
		while (i < sizeof(branch_modes) / sizeof(branch_modes[0]) && strcmp(branch_modes[i].name, t))
			i++;
		if (i == sizeof(branch_modes) / sizeof(branch_modes[0])) {
			int r = cli_error("record", "-j: unknown branch filter '%s': any, any_call, any_ret, "
					  "ind_call, call, ind_jmp, cond, in_tx, no_tx, abort_tx, save_type, stack, "
					  "no_flags, no_cycles, u, k, hv", t);
			free(copy);
			return r;
		}
		m |= branch_modes[i].bit;
	}
	free(copy);
	if (!(m & ~(uint64_t)(PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_KERNEL | PERF_SAMPLE_BRANCH_HV)))
		m |= PERF_SAMPLE_BRANCH_ANY;
	*out = m;
	return 0;
}

/* -I / --user-regs [REGS]: perf's names of this machine's registers */
static int parse_regs(const char *opt, const char *list, uint64_t *out)
{
	uint64_t all = perfev_regs_mask(NULL);
	if (!list) {
		*out = all;
		return 0;
	}
	if (!strcmp(list, "?")) {
		char names[512];
		perfev_regs_names(names, sizeof(names));
		printf("available registers: %s\n", names);
		return CLI_HELP;
	}
	uint64_t m = perfev_regs_mask(list);
	if (!m)
		return cli_error("record", "%s %s: %s", opt, list, perfev_errmsg());
	*out = m;
	return 0;
}

/* -z[N] */
static int parse_compress(struct perfev_record_opts *o, const char *arg)
{
	uint64_t v;
	o->compress = true;
	if (!arg)
		return 0;
	if (parse_u64("-z", arg, &v))
		return 1;
	if (v > 22)
		return cli_error("record", "-z %s: zstd levels go from 1 to 22", arg);
	o->compress_level = (int)v;
	return 0;
}

/* One option c (its value optarg), cli_parse's fn: 0, 1 after saying what
 * is wrong, or CLI_UNKNOWN for an option record does not take. */
static int parse_opt(void *ctx, int c)
{
	struct record_cli *rc = ctx;
	struct perfev_record_opts *o = &rc->o;
	uint64_t v;
	switch (c) {
	case 'e': return cli_parse_events("record", rc->events, optarg) < 0;
	case 'f':
		return cli_set_filter("record", rc->events, perfev_evlist_count(rc->events) - 1, optarg) < 0;
	case 'g': o->call_graph = PERFEV_CALLGRAPH_FP; break;
	case 'G': return parse_callgraph(optarg, o);
	case 'm':
		if (parse_u64("-m", optarg, &v))
			return 1;
		o->mmap_pages = (size_t)v;
		break;
	case 'z': return parse_compress(o, optarg);
	case 'o': o->output = optarg; break;
	case 'S': o->switch_events = true; break;
	case 'k': {
		int id = perfev_clockid_parse(optarg);
		if (id < 0)
			return cli_error("record", "%s", perfev_errmsg());
		o->use_clockid = true;
		o->clockid = id;
		break;
	}
	case 'q':
		rc->quiet = rc->x.quiet = true;
		cli_log_to_stderr("record", true); /* errors and warnings only */
		break;
	case 'd': o->sample_type |= PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC; break;
	case 260: o->sample_type |= PERF_SAMPLE_PHYS_ADDR; break;
	case 261: o->sample_type |= PERF_SAMPLE_DATA_PAGE_SIZE; break;
	case 262: o->sample_type |= PERF_SAMPLE_CODE_PAGE_SIZE; break;
	case 'W': o->sample_type |= PERF_SAMPLE_WEIGHT_STRUCT; break;
	case 263: o->sample_type |= PERF_SAMPLE_TRANSACTION; break;
	case 'b': o->branch_sample_type = PERF_SAMPLE_BRANCH_ANY; break;
	case 'j': return parse_branch_filter(optarg, &o->branch_sample_type);
	case 'I': return parse_regs("-I", optarg, &o->sample_regs_intr);
	case 264: return parse_regs("--user-regs", optarg, &o->sample_regs_user);
	case 'i': o->no_inherit = true; break;
	case 265: o->exclude_kernel = true; break;
	case 266: o->exclude_user = true; break;
	case 'T': case 'P': case 267: break; /* the recorder always records the time, period and CPU */
	case 256: rc->x.flame = optarg; break;
	case 257: rc->x.pprof = optarg; break;
	case 258: rc->x.firefox = optarg; break;
	case 259: rc->x.folded = optarg; break;
	default: return cli_sampling_opt("record", o, c, optarg); /* -F -c -a -C -p -t */
	}
	return 0;
}

static bool is_stdout(const char *path) { return path && !strcmp(path, "-"); }

/* After the options: what they ask for together, and where it goes.
 * 0, or 1 after saying what does not fit. */
static int check_opts(struct record_cli *rc, int argc, char **argv)
{
	struct perfev_record_opts *o = &rc->o;
	const struct report_exports *x = &rc->x;
	if (o->freq && o->period) /* perf's words */
		return cli_error("record", "cannot set frequency and period at the same time: give -F HZ or -c PERIOD");
	if (!o->argv && !o->pid && !o->tid && !o->all_cpus && !o->cpus)
		return cli_usage_error("record", usage, "nothing to record: give a command after --, -p PID, "
				       "-t TID, or -a for the whole system");
	o->cmdline_argc = argc;
	o->cmdline_argv = argv;
	if (perfev_evlist_count(rc->events))
		o->events = rc->events;
	if (!o->output) { /* perf writes a pipe-mode stream when stdout is a pipe */
		struct stat st;
		if (!fstat(STDOUT_FILENO, &st) && S_ISFIFO(st.st_mode))
			o->output = "-";
	}
	if (is_stdout(o->output) && isatty(STDOUT_FILENO))
		return cli_error("record", "-o - writes a binary stream and standard output is a terminal: pipe it "
			  "(perfev record -o - ... | perfev script -i -) or give a file with -o FILE");
	if (is_stdout(o->output) &&
	    (is_stdout(x->flame) || is_stdout(x->pprof) || is_stdout(x->firefox) || is_stdout(x->folded)))
		return cli_error("record", "-o - writes the recording to standard output: give the "
			  "--flame/--pprof/--firefox/--folded output a file name");
	return report_exports_check("record", x); /* before the recording, not after it */
}

/* perf's closing lines: wake-ups, what was written, what was lost. */
static void print_stats(const struct perfev_record_stats *s, const char *output)
{
	const char *name = output && strcmp(output, "-") ? output : output ? "(pipe)" : "perf.data";
	fprintf(stderr, "[ perfev record: Woken up %llu times to write data ]\n", (unsigned long long)s->wakeups);
	fprintf(stderr, "[ perfev record: Captured and wrote %.3f MB %s (%llu samples), lost %llu", mb(s->bytes),
		name, (unsigned long long)s->samples, (unsigned long long)(s->lost + s->lost_samples));
	if (s->throttled)
		fprintf(stderr, ", throttled %llu times", (unsigned long long)s->throttled);
	fprintf(stderr, " ]\n");
	if (s->lost)
		fprintf(stderr, "perfev record: the kernel dropped %llu samples because the ring "
				"buffer was full; fix: more pages (-m) or a lower frequency (-F)\n",
			(unsigned long long)s->lost);
	if (s->throttled)
		fprintf(stderr, "perfev record: the kernel throttled sampling %llu times "
				"(kernel.perf_event_max_sample_rate); fix: a lower -F\n",
			(unsigned long long)s->throttled);
}

/* The recording, once the options are checked (g_rec stays for the caller
 * to free: that finishes the file). Returns the exit status; *export: the
 * exports are to be written. */
static int record(struct record_cli *rc, struct live_profile *lp, bool *export)
{
	struct perfev_record_opts *o = &rc->o;
	/* Signals before the recorder exists must not kill us half-way either. */
	cli_recorder_signals();
	if (report_exports_wanted(&rc->x)) {
		o->on_record = feed;
		o->on_record_ctx = lp;
	}
	g_rec = perfev_recorder_new(o);
	if (!g_rec)
		return cli_error("record", "%s", perfev_errmsg());
	if (report_exports_wanted(&rc->x) && live_begin(lp, g_rec, &rc->x))
		return 1;
	cli_recorder_watch(g_rec);
	struct perfev_record_stats s0;
	perfev_recorder_stats(g_rec, &s0);
	if (s0.user_only && !rc->quiet)
		fprintf(stderr, "perfev record: kernel.perf_event_paranoid forbids kernel samples to this "
				"user: recording user space only (fix: run as root, or "
				"sysctl -w kernel.perf_event_paranoid=1)\n");
	int e = perfev_recorder_run(g_rec);
	struct perfev_record_stats s;
	perfev_recorder_stats(g_rec, &s);
	if (s.exec_error) { /* as a shell: the error alone, 127 (not found) or 126; no file */
		perfev_child_exec_error(o->argv[0], s.exec_error);
		cli_error("record", "%s", perfev_errmsg());
		return s.exec_error == ENOENT ? 127 : 126;
	}
	if (e < 0)
		cli_error("record", "%s", perfev_errmsg());
	if (!rc->quiet) /* perf record -q: errors only */
		print_stats(&s, o->output);
	*export = e >= 0 && report_exports_wanted(&rc->x);
	if (s.command_ran && perfev_exit_code(s.command_status))
		return perfev_exit_code(s.command_status);
	return e < 0 ? 1 : 0;
}

static int cmd_record(int argc, char **argv)
{
	struct record_cli rc = {.o = {.sz = sizeof(rc.o)}};
	struct live_profile lp = {0};
	bool export = false;
	int ret = 1;
	if (!(rc.events = perfev_evlist_new()))
		return cli_error("record", "out of memory");
	int r = cli_parse("record", argc, argv, "+:e:F:c:gaC:p:t:m:z::o:k:qhdWbj:I::iTP", longopts, usage, parse_opt,
			  &rc);
	if (r) {
		ret = r == CLI_HELP ? 0 : 1;
		goto out;
	}
	if (optind < argc)
		rc.o.argv = argv + optind;
	if (!check_opts(&rc, argc, argv))
		ret = record(&rc, &lp, &export);
out:
	cli_recorder_watch(NULL);
	perfev_recorder_free(g_rec); /* finishes the file */
	g_rec = NULL;
	perfev_evlist_free(rc.events);
	if (export && live_exports(&lp, &rc.x))
		ret = ret ? ret : 1;
	perfev_profile_builder_free(lp.b);
	return ret;
}
CLI_COMMAND(record, cmd_record, "sample a command or the system into perf.data");
