/* perfev report --sort by perf 6.1's keys of the sample's own values:
 * weight, local_weight, ins_lat, local_ins_lat (PERF_SAMPLE_WEIGHT_STRUCT's
 * var1/var2), p_stage_cyc and local_p_stage_cyc (x86's perf takes them and
 * shows nothing), time (cut to --time-quantum), addr, and the columns
 * period, sample and overhead named in --sort; against perf report line for
 * line on corpus recordings that carry the data and on a local recording
 * with call graphs and weights (perf record -W). */
#define _GNU_SOURCE
#include "support.h"
#include "support_report.h"
#include "perfev.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* 14 loads of a Skylake server's load-latency event, DATA_SRC|WEIGHT_STRUCT:
 * two of weight 70 make one entry ("70", weight "140") */
Test(interop_report_keys2, weights_like_perf, .timeout = 300)
{
	require_perf_tool();
	require_corpus();
	static const struct report_corpus_case cases[] = {
		{"perf.data.weight_struct", "--sort weight", 0},
		{"perf.data.weight_struct", "--sort local_weight", 0},
		{"perf.data.weight_struct", "--sort local_weight,weight", 0},
		{"perf.data.weight_struct", "--sort ins_lat", 0},
		{"perf.data.weight_struct", "--sort local_ins_lat,sym", 0},
		{"perf.data.weight_struct", "--sort p_stage_cyc", 0},
		{"perf.data.weight_struct", "--sort local_p_stage_cyc,dso", 0},
		{"perf.data.weight_struct", "--sort sym,weight,ins_lat", 0},
		{"perf.data.weight_struct", "--sort cpu,weight", 0},
		{"perf.data.weight_struct", "-F overhead,sample,weight,sym", 0},
		{"perf.data.lost_samples-4.4", "--sort weight,addr,time", 0},
	};
	report_expect_corpus_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

Test(interop_report_keys2, time_like_perf, .timeout = 300)
{
	require_perf_tool();
	require_corpus();
	static const struct report_corpus_case cases[] = {
		{"perf.data.weight_struct", "--sort time", 0},
		{"perf.data.weight_struct", "--sort dso,time", 0},
		{"perf.data.weight_struct", "--sort time --time-quantum 1s", 0},
		{"perf.data.weight_struct", "--sort time --time-quantum 500000us", 0},
		/* times past 99999 s: cut to the column's 12 characters ("346832.30000");
		 * --children: perf's call-chain entries lack the time, every frame adds */
		{"perf.data.callgraph-3.8", "--sort time", 0},
		{"perf.data.callgraph-3.8", "--sort time,sym --no-children", 0},
		{"perf.data.callgraph-3.8", "--sort time --time-quantum 1ms -g none", 0},
		{"perf.data.callgraph-3.8", "--sort time --time-quantum 10ms --no-children -g caller", 0},
		{"perf.data.callgraph-3.8", "--sort time,comm,dso", 0},
		{"perf.data.callgraph-3.8", "-F overhead,time,sym --no-children -g none", 0},
		{"perf.data.busy.1-3.8", "--sort time,sym", 0},
		/* event groups side by side; the time unpadded when last */
		{"perf.data.lost_samples-4.4", "--sort time", 0},
		{"perf.data.lost_samples-4.4", "--sort time,comm", 0},
	};
	report_expect_corpus_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

Test(interop_report_keys2, addr_and_columns_like_perf, .timeout = 300)
{
	require_perf_tool();
	require_corpus();
	static const struct report_corpus_case cases[] = {
		{"perf.data.weight_struct", "--sort addr", 0},
		{"perf.data.weight_struct", "--sort time,addr", 0},
		{"perf.data.weight_struct", "--sort local_ins_lat,addr -F overhead,period,addr", 0},
		{"perf.data.callgraph-3.8", "--sort addr --no-children", 0},
		/* --children: call-chain entries by perf's twice-unmapped addresses
		 * (user objects by each process's mapping, modules by their start);
		 * left: ties of equal values (4 lines), and --sort sym's 3 lines of
		 * one unresolved kernel address */
		{"perf.data.callgraph-3.8", "--sort addr -g none", 0},
		{"perf.data.callgraph-3.8", "--sort addr", 4},
		{"perf.data.callgraph-3.8", "--sort addr,sym -g none", 3},
		{"perf.data.callgraph-3.8", "--sort addr,sym --no-children -g caller", 0},
		{"perf.data.lost_samples-4.4", "--sort addr", 0},
		/* columns named in --sort */
		{"perf.data.weight_struct", "--sort period", 0},
		{"perf.data.weight_struct", "--sort sample", 0},
		{"perf.data.weight_struct", "--sort period,local_weight", 0},
		{"perf.data.weight_struct", "--sort local_weight,period", 0},
		{"perf.data.weight_struct", "--sort overhead,sym", 0},
	};
	report_expect_corpus_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

/* Call graphs (children by default) and weights (0 for cpu-clock). */
Test(interop_report_keys2, local_recording_like_perf, .timeout = 300)
{
	char *data = perf_record("-D 30 -g -W -e cpu-clock -c 1000000", "keys2.data", WORKLOAD("calls") " 300");
	static const char *const options[] = {
		"--sort time",
		"--sort time,sym",
		"-F overhead,time,sym -g none",
		"--sort time,pid --time-quantum 20ms",
		"--sort addr",
		"--sort addr --no-children -g none",
		"--sort addr,sym --no-children",
		"--sort weight,sym",
		"--sort local_weight",
		"--sort ins_lat,dso",
		"--sort period,sym",
		"--sort sym,sample",
		"--sort sym,period --no-children",
		"--sort sym,overhead",
	};
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++)
		report_expect_like_perf(data, options[i], 0);
	free(data);
}

/* --json names the keys' values; a bad --time-quantum names the fix */
Test(interop_report_keys2, json_and_errors, .timeout = 120)
{
	require_corpus();
	char path[512];
	snprintf(path, sizeof(path), "%s/perf.data.weight_struct", CORPUS_DIR);
	struct run_result r = run_cmd("%s report -q -i '%s' --json --sort local_weight,time,addr", PERFEV_BIN, path);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "\"local_weight\":70,"), "%s", r.out);
	cr_assert(strstr(r.out, "\"time\":13170200000000"), "%s", r.out);
	cr_assert(strstr(r.out, "\"addr\":"), "%s", r.out);
	run_result_free(&r);
	r = run_cmd("%s report -q -i '%s' --sort time --time-quantum 0", PERFEV_BIN, path);
	cr_assert_neq(r.status, 0);
	cr_assert(strstr(r.err, "time quantum") && strstr(r.err, "10ms"), "%s", r.err);
	run_result_free(&r);
	r = run_cmd("%s report -q -i '%s' --sort time --time-quantum 5min", PERFEV_BIN, path);
	cr_assert_neq(r.status, 0);
	run_result_free(&r);
	/* memory keys: with --mem-mode only, on files with data_src */
	r = run_cmd("%s report -q -i '%s' --stdio --sort mem", PERFEV_BIN, path);
	cr_assert_neq(r.status, 0);
	cr_assert(strstr(r.err, "--mem-mode"), "%s", r.err);
	run_result_free(&r);
	r = run_cmd("%s report -q -i '%s/perf.data.callgraph-3.8' --stdio --mem-mode", PERFEV_BIN, CORPUS_DIR);
	cr_assert_neq(r.status, 0);
	cr_assert(strstr(r.err, "DATA_SRC") && strstr(r.err, "perf record -d"), "%s", r.err);
	run_result_free(&r);
	r = run_cmd("%s report -q -i '%s' --mem-mode --json --sort mem,dso_daddr", PERFEV_BIN, path);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_assert(strstr(r.out, "\"data_src\":") && strstr(r.out, "\"dso_daddr\":\"//anon\""), "%s", r.out);
	run_result_free(&r);
}

/* ---- --mem-mode ------------------------------------------------------------- */

Test(interop_report_keys2, mem_mode_like_perf, .timeout = 300)
{
	require_perf_tool();
	require_corpus();
	static const struct report_corpus_case cases[] = {
		/* perf's default memory sort order, its "Total weight" header */
		{"perf.data.weight_struct", "--mem-mode", 0},
		{"perf.data.weight_struct", "--mem-mode -n", 0},
		{"perf.data.weight_struct", "--mem-mode --sort mem", 0},
		{"perf.data.weight_struct", "--mem-mode --sort snoop,tlb", 0},
		{"perf.data.weight_struct", "--mem-mode --sort locked", 0},
		{"perf.data.weight_struct", "--mem-mode --sort locked,blocked,mem", 0},
		{"perf.data.weight_struct", "--mem-mode --sort symbol_daddr,dso_daddr", 0},
		{"perf.data.weight_struct", "--mem-mode --sort dso_daddr,symbol_daddr", 0},
		{"perf.data.weight_struct", "--mem-mode --sort dcacheline", 0},
		{"perf.data.weight_struct", "--mem-mode --sort data_page_size,phys_daddr,mem", 0},
		{"perf.data.weight_struct", "--mem-mode --sort comm,mem --show-total-period", 0},
		{"perf.data.weight_struct", "--mem-mode --sort time,dcacheline", 0},
		{"perf.data.weight_struct", "--mem-mode -F overhead,sample,mem,sym", 0},
		{"perf.data.weight_struct", "--mem-mode --sort sym,locked --children", 0},
	};
	report_expect_corpus_cases(cases, sizeof(cases) / sizeof(cases[0]));
}

#define MEM_PID 4242
#define ANON 0x7f0000000000ull   /* private anonymous memory */
#define SHARED 0x7f1000000000ull /* a shared file mapping: [s] in dcacheline */
#define FILEMAP 0x600000ull      /* a private file mapping at offset 0x2000 */

static void put_mmap2(struct perfev_perfdata_writer *w, const struct perfev_attr *a, uint64_t addr, uint64_t len,
		      uint64_t pgoff, const char *name, uint32_t flags, uint32_t ino)
{
	struct perfev_record r = {.type = PERF_RECORD_MMAP2, .misc = PERF_RECORD_MISC_USER | (1 << 13), .has_sid = true};
	r.u.mmap.pid = r.u.mmap.tid = MEM_PID;
	r.u.mmap.addr = addr;
	r.u.mmap.len = len;
	r.u.mmap.pgoff = pgoff;
	r.u.mmap.maj = ino ? 8 : 0;
	r.u.mmap.ino = ino;
	r.u.mmap.prot = 3; /* rw- */
	r.u.mmap.flags = flags;
	r.u.mmap.filename = name;
	r.sid.pid = r.sid.tid = MEM_PID;
	r.sid.time = 3;
	report_put_record(w, &r, a);
}

/* One sample per data_src value: every bit of every field (op, lvl, snoop,
 * lock, dtlb, lvl_num, remote, snoopx, blk, hops), alone and mixed, at data
 * addresses in each kind of mapping and outside any, with pages and
 * physical addresses, in user and kernel mode; weights all different. */
static void write_mem(const char *data)
{
	struct perfev_attr a;
	struct perfev_perfdata_writer *w = report_crafted_writer(
		data, &a, PERF_SAMPLE_ADDR | PERF_SAMPLE_DATA_SRC | PERF_SAMPLE_WEIGHT | PERF_SAMPLE_PHYS_ADDR |
				  PERF_SAMPLE_DATA_PAGE_SIZE);
	report_put_kernel_map(w, &a, 0xffffffff81000000ull);
	report_put_text_map(w, &a, MEM_PID, "memy", "/nonexistent/perfev-test/memy", 0x400000, 0, 0x1000, 0);
	put_mmap2(w, &a, ANON, 0x100000, 0, "//anon", 0x22 /* MAP_PRIVATE|MAP_ANONYMOUS */, 0);
	put_mmap2(w, &a, SHARED, 0x100000, 0, "/nonexistent/perfev-test/shm", 0x01 /* MAP_SHARED */, 77);
	put_mmap2(w, &a, FILEMAP, 0x10000, 0x2000, "/nonexistent/perfev-test/memy.data", 0x02, 78);
	uint64_t vals[160];
	size_t n = 0;
	union perf_mem_data_src d;
	for (int b = 0; b < 5; b++) { /* op */
		d.val = 0, d.mem_op = 1u << b, vals[n++] = d.val;
	}
	for (int b = 0; b < 14; b++) { /* lvl, and with hit/miss */
		d.val = 0, d.mem_op = PERF_MEM_OP_LOAD, d.mem_lvl = 1u << b, vals[n++] = d.val;
		d.mem_lvl |= b > 2 ? PERF_MEM_LVL_HIT : 0, vals[n++] = d.val;
		d.mem_lvl = (1u << b) | (b > 2 ? PERF_MEM_LVL_MISS : 0), vals[n++] = d.val;
	}
	for (int b = 0; b < 5; b++) { /* snoop */
		d.val = 0, d.mem_op = PERF_MEM_OP_LOAD, d.mem_lvl = PERF_MEM_LVL_L2 | PERF_MEM_LVL_HIT;
		d.mem_snoop = 1u << b, vals[n++] = d.val;
	}
	for (int b = 0; b < 2; b++) { /* snoopx, alone and after a snoop bit */
		d.val = 0, d.mem_op = PERF_MEM_OP_LOAD, d.mem_snoopx = 1u << b, vals[n++] = d.val;
		d.mem_snoop = PERF_MEM_SNOOP_HIT, vals[n++] = d.val;
	}
	for (int b = 0; b < 2; b++) { /* lock */
		d.val = 0, d.mem_op = PERF_MEM_OP_LOAD, d.mem_lock = 1u << b, vals[n++] = d.val;
	}
	for (int b = 0; b < 7; b++) { /* dtlb, and with hit/miss */
		d.val = 0, d.mem_op = PERF_MEM_OP_STORE, d.mem_dtlb = 1u << b, vals[n++] = d.val;
		d.mem_dtlb |= b > 2 ? PERF_MEM_TLB_HIT : 0, vals[n++] = d.val;
		d.mem_dtlb = (1u << b) | (b > 2 ? PERF_MEM_TLB_MISS : 0), vals[n++] = d.val;
	}
	for (int v = 1; v < 16; v++) { /* lvl_num, alone and after lvl bits */
		if (v == 9) /* CXL: perf 6.1 prints "L9" (its table lacks it), perfev "CXL" */
			continue;
		d.val = 0, d.mem_op = PERF_MEM_OP_LOAD, d.mem_lvl_num = v, vals[n++] = d.val;
		d.mem_lvl = PERF_MEM_LVL_L3 | PERF_MEM_LVL_HIT, vals[n++] = d.val;
	}
	for (int v = 1; v < 5; v++) { /* hops, remote */
		d.val = 0, d.mem_op = PERF_MEM_OP_LOAD, d.mem_lvl_num = PERF_MEM_LVLNUM_ANY_CACHE, d.mem_hops = v;
		d.mem_lvl = PERF_MEM_LVL_HIT, vals[n++] = d.val;
		d.mem_remote = 1, vals[n++] = d.val;
	}
	for (int b = 0; b < 3; b++) { /* blk */
		d.val = 0, d.mem_op = PERF_MEM_OP_LOAD, d.mem_blk = 1u << b, vals[n++] = d.val;
	}
	d.val = 0, d.mem_blk = PERF_MEM_BLK_DATA | PERF_MEM_BLK_ADDR, vals[n++] = d.val;
	vals[n++] = 0; /* nothing: every field N/A or No */
	cr_assert_leq(n, sizeof(vals) / sizeof(vals[0]));
	static const uint64_t daddrs[] = {ANON + 0x1238, SHARED + 0x40, FILEMAP + 0x2468, 0x1000, 0xffff888012345678ull};
	for (size_t i = 0; i < n; i++) {
		struct perfev_record r = {.type = PERF_RECORD_SAMPLE};
		bool kernel = i % 7 == 3;
		r.misc = kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
		r.u.sample.ip = kernel ? 0xffffffff81000100ull : 0x400100 + 8 * (i % 5);
		r.u.sample.pid = r.u.sample.tid = MEM_PID;
		r.u.sample.time = 1000000 + i * 1000;
		r.u.sample.period = 1000;
		r.u.sample.addr = daddrs[i % 5] + 64 * (i % 3);
		r.u.sample.data_src = vals[i];
		r.u.sample.weight = 1000 + 7 * i; /* (all different) */
		r.u.sample.phys_addr = i % 4 ? 0x100000000ull + 4096 * i : 0;
		r.u.sample.data_page_size = i % 3 == 0 ? 0 : i % 3 == 1 ? 4096 : 2 << 20;
		report_put_record(w, &r, &a);
	}
	cr_assert_eq(perfev_perfdata_writer_close(w), 0, "%s", perfev_errmsg());
}

Test(interop_report_keys2, mem_mode_every_data_src_bit_like_perf, .timeout = 300)
{
	require_perf_tool();
	char *data;
	cr_assert(asprintf(&data, "%s/keys2_mem.data", test_tmpdir()) > 0);
	write_mem(data);
	static const char *const options[] = {
		"--mem-mode",
		"--mem-mode --sort mem",
		"--mem-mode --sort snoop",
		"--mem-mode --sort tlb",
		"--mem-mode --sort locked,blocked",
		"--mem-mode --sort mem,snoop,tlb,locked,blocked,weight",
		"--mem-mode --sort dso_daddr",
		"--mem-mode --sort dcacheline,dso_daddr",
		"--mem-mode --sort symbol_daddr",
		"--mem-mode --sort phys_daddr,data_page_size",
		"--mem-mode --sort data_page_size",
		"--mem-mode -F overhead,sample,period,dcacheline",
	};
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++)
		report_expect_like_perf(data, options[i], 0);
	free(data);
}

/* The lines of a report that are not comments (the table). */
static char *table_lines(const char *text)
{
	size_t n = strlen(text);
	char *out = calloc(n + 1, 1), *o = out;
	cr_assert(out);
	for (const char *l = text; *l;) {
		const char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l) + 1 : strlen(l);
		if (*l != '#') {
			memcpy(o, l, len);
			o += len;
		}
		l += len;
	}
	return out;
}

/* perfev mem report: perf mem report's (report --mem-mode -n) */
Test(interop_report_keys2, mem_report_like_perf, .timeout = 120)
{
	require_perf_tool();
	require_corpus();
	static const char *const options[] = {"", "--sort mem,tlb", "--sort dso_daddr,sym"};
	for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++) {
		struct run_result p = run_cmd("perf mem report -i '%s/perf.data.weight_struct' --stdio %s 2>/dev/null",
					      CORPUS_DIR, options[i]);
		struct run_result r = run_cmd("%s mem report -q -i '%s/perf.data.weight_struct' --stdio %s", PERFEV_BIN,
					      CORPUS_DIR, options[i]);
		cr_assert_eq(r.status, 0, "%s", r.err);
		char *ph = report_header_lines(p.out), *rh = report_header_lines(r.out);
		char *pt = table_lines(p.out), *rt = table_lines(r.out);
		cr_assert_gt(strlen(pt), 100, "perf mem report printed: %s", p.out);
		cr_expect_str_eq(rh, ph, "%s: headers", options[i]);
		cr_expect_str_eq(rt, pt, "%s: table", options[i]);
		free(ph), free(rh), free(pt), free(rt);
		run_result_free(&p);
		run_result_free(&r);
	}
	struct run_result r = run_cmd("%s mem record", PERFEV_BIN);
	cr_assert_neq(r.status, 0);
	cr_assert(strstr(r.err, "perf mem record"), "%s", r.err);
	run_result_free(&r);
}
