/* perfev report --sort by keys of the sample beyond thread and frame
 * (cpu), against perf report: corpus recordings of several CPUs and a local
 * recording of workloads/calls with PERF_SAMPLE_CPU (perf record
 * --sample-cpu: a per-thread recording that still says where each sample
 * ran), alone and combined with other keys, with and without children and
 * call graphs. Files without PERF_SAMPLE_CPU: perf's CPU is -1, "-001".
 * Local recordings start 30 ms late (perf record -D): a sample in ld.so's
 * start-up, whose inlined code (libc6-dbg) perfev's symbolizer names by
 * other files than perf, would make the comparisons depend on chance. */
#define _GNU_SOURCE
#include "support.h"
#include "support_report.h"
#include "perfev.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Records cmd with perf (record_options), compares every option's report. */
static void record_like_perf(const char *record_options, const char *name, const char *cmd,
			     const char *const *options, size_t nr)
{
	char *data = perf_record(record_options, name, cmd);
	for (size_t i = 0; i < nr; i++)
		report_expect_like_perf(data, options[i], 0);
	free(data);
}

Test(interop_report_keys, cpu_corpus_like_perf, .timeout = 300)
{
	require_perf_tool();
	require_corpus();
	static const struct report_corpus_case cases[] = {
		/* 4 CPUs, cycles without call graphs */
		{"perf.data.systemwide.1-3.8", "--sort cpu", 0},
		{"perf.data.systemwide.1-3.8", "--sort cpu,sym -g none --no-children", 0},
		{"perf.data.systemwide.0-3.4", "-s comm,cpu -g none --no-children", 0},
		{"perf.data.systemwide.0-3.4", "-F overhead,cpu,sym -g none", 0},
		/* 32 CPUs of two NUMA nodes */
		{"perf.data.numatopology-3.2", "--sort cpu", 0},
		{"perf.data.numatopology-3.2", "--sort cpu,sym", 0},
		/* no PERF_SAMPLE_CPU: one row, "-001" */
		{"perf.data.hybrid_topology", "--sort cpu", 0},
		{"perf.data.singleprocess-3.8", "--sort cpu,sym", 0},
		/* call graphs under each (cpu, symbol), children and self */
		{"perf.data.busy.1-3.8", "--sort cpu,sym", 0},
		{"perf.data.callgraph-3.8", "--sort cpu", 0},
		{"perf.data.callgraph-3.8", "--sort sym,cpu --no-children -g caller", 0},
		/* event groups side by side: one row of every member per key (an
		 * entry's first address made one row per member: 3 rows, not 1) */
		{"perf.data.lost_samples-4.4", "--sort cpu", 0},
		{"perf.data.lost_samples-4.4", "--sort comm", 0},
		{"perf.data.group_desc-4.14", "--sort socket,comm", 0},
	};
	report_expect_corpus_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

Test(interop_report_keys, cpu_local_recording_like_perf, .timeout = 300)
{
	static const char *const options[] = {
		"--sort cpu",
		"--sort cpu --no-children",
		"--sort cpu -g none --no-children",
		"--sort cpu,sym",
		"--sort cpu,sym -g callee",
		"--sort cpu,sym -g none --no-children",
		"-s comm,cpu",
		"-F overhead,cpu,sym -g none",
		"--sort pid,cpu,dso",
	};
	record_like_perf("-D 30 --sample-cpu -g -e cpu-clock -c 1000000", "keys_cpu.data", WORKLOAD("calls") " 300",
			 options, sizeof(options) / sizeof(options[0]));
}

/* --json names each entry's CPU */
Test(interop_report_keys, cpu_in_json, .timeout = 120)
{
	char *data = perf_record("-D 30 --sample-cpu -e cpu-clock -c 1000000", "keys_cpu_json.data",
				 WORKLOAD("calls") " 100");
	struct run_result r = run_cmd("%s report -q -i '%s' --json --sort cpu", PERFEV_BIN, data);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "\"cpu\":"), "no cpu in %s", r.out);
	cr_assert(!strstr(r.out, "\"cpu\":-1"), "a CPU unknown in a recording with them: %s", r.out);
	run_result_free(&r);
	free(data);
}

/* ---- socket ------------------------------------------------------------------ */

/* Sets the socket id of `cpu` in path's CPU_TOPOLOGY feature (perf's file
 * header, its feature table after the data, the section's two sibling
 * lists, then core and socket id per CPU). */
static void patch_socket(const char *path, uint32_t cpu, uint32_t socket)
{
	size_t len;
	char *b = slurp(path, &len);
	uint64_t hdr[13];
	cr_assert_geq(len, sizeof(hdr));
	memcpy(hdr, b, sizeof(hdr));
	uint64_t data_off = hdr[5], data_size = hdr[6]; /* magic, size, attr_size, attrs{2}, data{2} */
	const uint64_t *bits = &hdr[9];
	size_t idx = 0;
	for (int f = 0; f < PERFEV_FEAT_CPU_TOPOLOGY; f++)
		idx += (bits[f / 64] >> (f % 64)) & 1;
	cr_assert((bits[0] >> PERFEV_FEAT_CPU_TOPOLOGY) & 1, "%s has no CPU_TOPOLOGY", path);
	uint64_t sec[2];
	memcpy(sec, b + data_off + data_size + idx * 16, 16);
	size_t at = sec[0];
	for (int list = 0; list < 2; list++) {
		uint32_t nr;
		memcpy(&nr, b + at, 4);
		at += 4;
		for (uint32_t i = 0; i < nr; i++) {
			uint32_t sl;
			memcpy(&sl, b + at, 4);
			at += 4 + sl;
		}
	}
	at += (size_t)cpu * 8 + 4;
	cr_assert_leq(at + 4, sec[0] + sec[1], "%s: no ids for cpu %u", path, cpu);
	memcpy(b + at, &socket, 4);
	FILE *f = fopen(path, "w");
	cr_assert(f && fwrite(b, 1, len, f) == len && fclose(f) == 0);
	free(b);
}

Test(interop_report_keys, socket_corpus_like_perf, .timeout = 300)
{
	require_perf_tool();
	require_corpus();
	static const struct report_corpus_case cases[] = {
		/* perf before 4.x wrote the sibling lists alone: every socket -1 */
		{"perf.data.numatopology-3.2", "--sort socket", 0},
		{"perf.data.numatopology-3.2", "--sort socket,cpu -g none", 0},
		{"perf.data.systemwide.1-3.8", "--sort cpu,socket,sym --no-children", 0},
		{"perf.data.busy.1-3.8", "--sort socket,sym", 0},
		/* no PERF_SAMPLE_CPU */
		{"perf.data.hybrid_topology", "--sort socket", 0},
		/* call graphs: every socket -1, so perf's --children counts every
		 * frame (716% Children), its graphs over 32 levels deep */
		{"perf.data.callgraph-3.8", "--sort socket", 0},
		{"perf.data.callgraph-3.4", "--sort socket", 0},
		{"perf.data.callgraph-3.4", "--sort cpu,socket -g none", 0},
	};
	report_expect_corpus_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

/* This machine's topology (one socket), then CPU 1 moved to socket 1, then
 * to socket 7, more than the CPUs: perf drops every id (-1). With
 * --children a socket other than 0 meets perf's bug (its call-chain entries
 * are made without the socket, so they never match the sample's entries
 * and every frame adds to its entry and its graph again: "430% 100% 001"),
 * matched too. */
Test(interop_report_keys, socket_local_recording_like_perf, .timeout = 300)
{
	char *data = perf_record("-D 30 --sample-cpu -g -e cpu-clock -c 1000000", "keys_socket.data",
				 WORKLOAD("calls") " 300");
	static const char *const options[] = {
		"--sort socket,cpu -g none --no-children",
		"--sort socket,sym --no-children",
		"-F overhead,socket,cpu,sym -g none",
		"--sort socket",
		"--sort socket,sym",
	};
	size_t nopt = sizeof(options) / sizeof(options[0]);
	for (size_t i = 0; i < nopt; i++)
		report_expect_like_perf(data, options[i], 0);
	struct run_result r = run_cmd("nproc --all");
	bool two = atoi(r.out) >= 2;
	run_result_free(&r);
	if (!two) {
		cr_log_info("one CPU: the two-socket cases need two");
		free(data);
		return;
	}
	patch_socket(data, 1, 1);
	for (size_t i = 0; i < nopt; i++)
		report_expect_like_perf(data, options[i], 0);
	r = run_cmd("%s report -q -i '%s' --json --sort socket,cpu", PERFEV_BIN, data);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(!strstr(r.out, "\"socket\":0,\"cpu\":1") && !strstr(r.out, "\"socket\":1,\"cpu\":0"),
		  "CPU 0 on socket 0, CPU 1 on socket 1: %s", r.out);
	run_result_free(&r);
	patch_socket(data, 1, 7);
	for (size_t i = 0; i < nopt; i++)
		report_expect_like_perf(data, options[i], 0);
	r = run_cmd("%s report -q -i '%s' --json --sort socket", PERFEV_BIN, data);
	cr_assert(strstr(r.out, "\"socket\":-1") && !strstr(r.out, "\"socket\":0"), "%s", r.out);
	run_result_free(&r);
	free(data);
}

/* ---- srcfile -------------------------------------------------------------------- */

/* A -g PIE (workloads/calls: "calls.c"; libc without debug info: ""), its
 * DWARF-unwound recording, and a program without debug info (sha256sum). */
Test(interop_report_keys, srcfile_like_perf, .timeout = 300)
{
	static const char *const options[] = {
		"--sort srcfile",
		"--sort srcfile --no-children",
		"--sort srcfile,sym",
		"--sort srcfile,sym -g none --no-children",
		"--sort sym,srcfile -g none",
		"--sort comm,srcfile --no-children",
		"-F overhead,srcfile,sym -g none",
	};
	size_t nopt = sizeof(options) / sizeof(options[0]);
	/* quiet: no printf at the end, whose inlined libc lines (down to
	 * fstat64.c) perf names as "" and perfev by the line table; the same
	 * for libc's assembly (strcmp-evex.S, when a sample lands in the
	 * argument check at start-up): -D 200 starts after it even on a
	 * loaded machine (-D 30 did not once in CI) */
	record_like_perf("-D 200 -g -e cpu-clock -c 1000000", "keys_srcfile.data", WORKLOAD("calls") " 300 quiet",
			 options, nopt);
	record_like_perf("-D 200 --call-graph dwarf -e cpu-clock -c 2000000", "keys_srcfile_dwarf.data",
			 WORKLOAD("calls") " 200 quiet", options, nopt);
	char cmd[4200];
	snprintf(cmd, sizeof(cmd), "sha256sum %s/zeros", test_tmpdir());
	struct run_result r = run_cmd("head -c 30000000 /dev/zero > %s/zeros", test_tmpdir());
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_result_free(&r);
	char *data = perf_record("-D 30 -g -e cpu-clock -c 500000", "keys_srcfile_nodebug.data", cmd);
	/* (sha256sum's own frames lack frame pointers: its chains' addresses
	 * are garbage both tools name apart; -g none keeps to the key) */
	report_expect_like_perf(data, "--sort srcfile", 0);
	report_expect_like_perf(data, "--sort srcfile,sym -g none --no-children", 0);
	report_expect_like_perf(data, "--sort srcfile,dso --no-children", 0);
	free(data);
}

/* ---- "symbol" in --sort ------------------------------------------------------------ */

/* perf report appends ipc_null to a --sort naming "symbol" (not "sym"):
 * an "IPC   [IPC Coverage]" column of dashes without branch stacks. */
Test(interop_report_keys, sort_symbol_adds_ipc_columns_like_perf, .timeout = 120)
{
	static const char *const options[] = {
		"--sort symbol -g none",
		"--sort symbol",
		"--sort dso,symbol -g none --no-children",
		"--sort symbol,cpu --no-children",
		"--sort symbol -F overhead,sym -g none --no-children",
		"-F overhead,symbol -g none --no-children",
	};
	record_like_perf("-D 30 -g -e cpu-clock -c 1000000", "keys_symbol.data", WORKLOAD("calls") " 200", options,
			 sizeof(options) / sizeof(options[0]));
}

/* ---- dso_size ---------------------------------------------------------------------- */

/* perf's map__size: the length of the mapping, "%*d" in the header's width.
 * Kernel and module frames are left out (see README: perf sizes the
 * running kernel's map from kallsyms, another's from its own fixups). */
Test(interop_report_keys, dso_size_like_perf, .timeout = 180)
{
	static const char *const options[] = {
		"--sort dso_size,sym -g none --no-children --dsos calls",
		"--sort dso,dso_size --no-children --dsos calls",
		"-F overhead,dso_size,sym -g none --no-children --dsos calls",
	};
	record_like_perf("-D 30 -g -e cpu-clock -c 1000000", "keys_dso_size.data", WORKLOAD("calls") " 200",
			 options, sizeof(options) / sizeof(options[0]));
	require_corpus();
	/* another machine's libraries (94208, 2244608...): 2 rows differ, its
	 * kernel's and a module's ("unknown" here) */
	report_expect_corpus_like_perf("perf.data.systemwide.1-3.8", "--sort dso_size,dso --no-children", 4);
}

/* ---- symbol_size ------------------------------------------------------------------- */

/* perf's symbol__size: ELF st_size, a kernel symbol up to the next one,
 * "unknown" without a symbol; with the IPC columns its "symbol" brings,
 * whose comparison (sort__sym_cmp) keeps symbols of one size apart. */
Test(interop_report_keys, symbol_size_like_perf, .timeout = 180)
{
	static const char *const options[] = {
		"--sort symbol_size -g none --no-children",
		"--sort symbol_size",
		"--sort symbol_size,dso",
		"-F overhead,symbol_size,sym -g none --no-children",
	};
	record_like_perf("-D 30 -g -e cpu-clock -c 1000000", "keys_symbol_size.data", WORKLOAD("calls") " 200",
			 options, sizeof(options) / sizeof(options[0]));
	require_corpus();
	/* unresolved symbols: "unknown", one row per address */
	report_expect_corpus_like_perf("perf.data.systemwide.1-3.8", "--sort symbol_size -g none --no-children", 0);
	report_expect_corpus_like_perf("perf.data.callgraph-3.8", "--sort symbol_size -g none --no-children", 0);
}
