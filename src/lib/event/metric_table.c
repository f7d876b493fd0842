/*
 * metric_table.c — the metrics perfev computes, as formulas over events,
 * each from the vendor's documentation (cited per entry). Names and groups
 * follow perf's (tma_* and TopdownL1/L2 as Intel's TMA files name them,
 * PipelineL1 for AMD Zen 4); a formula may name another metric of the table.
 *
 * Sources, cited by key in each entry:
 *  SDM    Intel 64 and IA-32 Architectures Software Developer's Manual, Vol. 3B,
 *         ch. 20 "Performance Monitoring", architectural events (UnHalted Core
 *         Cycles, Instructions Retired, LLC Reference/Misses, Branch Instruction
 *         Retired/Misses Retired); the generic events are these on Intel.
 *  TMA    A. Yasin, "A Top-Down Method for Performance Analysis and Counters
 *         Architecture", ISPASS 2014; Intel 64 and IA-32 Architectures
 *         Optimization Reference Manual, appendix B.1 "Top-Down Analysis
 *         Method"; Intel's TMA_Metrics (github.com/intel/perfmon), Skylake
 *         column, the formulas without SMT.
 *  UNC    Intel Xeon Processor Scalable Memory Family Uncore Performance
 *         Monitoring Reference Manual (336274): IMC CAS_COUNT.RD/WR, one
 *         64-byte line per CAS (the kernel's cas_count_* aliases scale to MiB).
 *  PPR17  AMD Processor Programming Reference for Family 17h Model 31h (55803)
 *         and Family 19h Model 01h (55898), core PMCs: PMCx076 Cycles not in
 *         Halt, PMCx0C0 Retired Instructions, PMCx0C2/0C3 Retired Branch
 *         Instructions / Mispredicted.
 *  PPR19  AMD PPR for Family 19h Model 11h (55901), 2.1.17.2 "Pipeline
 *         Utilization": six dispatch slots per cycle; PMCx1A0 dispatch slots
 *         with no dispatch (frontend, backend, SMT contention), PMCx0AA ops
 *         dispatched, PMCx0C1 retired ops.
 *  ARM    Arm Architecture Reference Manual (DDI 0487), "The Performance
 *         Monitors Extension" common events CPU_CYCLES 0x11, INST_RETIRED 0x08,
 *         STALL_FRONTEND 0x23, STALL_BACKEND 0x24, OP_RETIRED 0x3A, OP_SPEC 0x3B;
 *         Arm, "Arm Neoverse N1 Core: Performance Analysis Methodology" (white
 *         paper), topdown level 1.
 */
#include "core/internal.h"
#include "event/metric_int.h"

#define SLOTS_SKL "(4 * cpu_clk_unhalted.thread)"
#define SLOTS_ZEN4 "(6 * cycles_not_in_halt)"
#define TMA_SKL "skl,skx,clx"
#define TMA_L1 "hsw,hsw_ep,bdw,bdw_ep,skl,skx,clx"
#define ZEN23 "amd64_fam17h_zen2,amd64_fam19h_zen3"
#define ZEN4 "amd64_fam19h_zen4"
#define ARMV8 "arm_n1,arm_n2,arm_v1,arm_v2"
#define SRC_TMA "TMA: Yasin ISPASS 2014; Intel Optimization Reference Manual B.1; Intel TMA_Metrics (Skylake)"

const struct perfev_metric_info pv_metric_table[] = {
	/* ---- generic events: any CPU whose PMU maps them ---- */
	{"IPC", "Summary;Default", "instructions / cycles", "insn per cycle", 1,
	 "Instructions retired per core cycle", "SDM: Instructions Retired / UnHalted Core Cycles", "any"},
	{"CPI", "Summary", "cycles / instructions", "cycles per insn", 1,
	 "Core cycles per instruction retired", "SDM: UnHalted Core Cycles / Instructions Retired", "any"},
	{"branch_miss_rate", "Branches;Default", "branch-misses / branches", "%", 100,
	 "Mispredicted branches of all branches retired",
	 "SDM: Branch Misses Retired / Branch Instruction Retired", "any"},
	{"cache_miss_rate", "Cache", "cache-misses / cache-references", "%", 100,
	 "Last level cache misses of all references", "SDM: LLC Misses / LLC Reference", "any"},
	{"l1d_load_miss_rate", "Cache", "L1-dcache-load-misses / L1-dcache-loads", "%", 100,
	 "L1 data cache load misses of all L1 data loads",
	 "perf's hardware cache events (the kernel maps them per model: arch/x86/events/intel/core.c, amd/core.c)", "any"},
	{"llc_load_miss_rate", "Cache", "LLC-load-misses / LLC-loads", "%", 100,
	 "Last level cache load misses of all its loads",
	 "perf's hardware cache events (the kernel maps them per model)", "any"},
	{"dtlb_load_miss_rate", "TLB", "dTLB-load-misses / dTLB-loads", "%", 100,
	 "Data TLB load misses of all its loads", "perf's hardware cache events (the kernel maps them per model)", "any"},
	/* ---- Intel TMA level 1 and 2 (Skylake generation; level 1 from Haswell) ---- */
	{"tma_frontend_bound", "TopdownL1;tma_L1_group", "idq_uops_not_delivered.core / " SLOTS_SKL, "%", 100,
	 "Slots where the front end delivered no uop while the back end could take one", SRC_TMA, TMA_L1},
	{"tma_bad_speculation", "TopdownL1;tma_L1_group",
	 "(uops_issued.any - uops_retired.retire_slots + 4 * int_misc.recovery_cycles) / " SLOTS_SKL, "%", 100,
	 "Slots wasted on uops that did not retire, and on recovering from mispredictions", SRC_TMA, TMA_L1},
	{"tma_retiring", "TopdownL1;tma_L1_group", "uops_retired.retire_slots / " SLOTS_SKL, "%", 100,
	 "Slots that retired a uop", SRC_TMA, TMA_L1},
	{"tma_backend_bound", "TopdownL1;tma_L1_group",
	 "1 - (tma_frontend_bound + tma_bad_speculation + tma_retiring)", "%", 100,
	 "Slots with no uop delivered because the back end lacked resources", SRC_TMA, TMA_L1},
	{"tma_fetch_latency", "TopdownL2;tma_L2_group;tma_frontend_bound_group",
	 "4 * idq_uops_not_delivered.cycles_0_uops_deliv.core / " SLOTS_SKL, "%", 100,
	 "Front end: slots lost to cycles when no uop was delivered (fetch latency)", SRC_TMA, TMA_SKL},
	{"tma_fetch_bandwidth", "TopdownL2;tma_L2_group;tma_frontend_bound_group",
	 "tma_frontend_bound - tma_fetch_latency", "%", 100,
	 "Front end: slots lost to too few uops delivered per cycle", SRC_TMA, TMA_SKL},
	{"tma_branch_mispredicts", "TopdownL2;tma_L2_group;tma_bad_speculation_group",
	 "br_misp_retired.all_branches / (br_misp_retired.all_branches + machine_clears.count) * tma_bad_speculation",
	 "%", 100, "Bad speculation due to branch mispredictions", SRC_TMA, TMA_SKL},
	{"tma_machine_clears", "TopdownL2;tma_L2_group;tma_bad_speculation_group",
	 "tma_bad_speculation - tma_branch_mispredicts", "%", 100,
	 "Bad speculation due to machine clears", SRC_TMA, TMA_SKL},
	{"tma_memory_bound", "TopdownL2;tma_L2_group;tma_backend_bound_group",
	 "(cycle_activity.stalls_mem_any + exe_activity.bound_on_stores) / (cycle_activity.stalls_total + "
	 "exe_activity.1_ports_util + tma_retiring * exe_activity.2_ports_util + exe_activity.bound_on_stores) "
	 "* tma_backend_bound", "%", 100,
	 "Back end: slots stalled on the memory subsystem", SRC_TMA, TMA_SKL},
	{"tma_core_bound", "TopdownL2;tma_L2_group;tma_backend_bound_group",
	 "tma_backend_bound - tma_memory_bound", "%", 100,
	 "Back end: slots stalled on execution resources, not memory", SRC_TMA, TMA_SKL},
	{"tma_microcode_sequencer", "TopdownL2;tma_L2_group;tma_retiring_group",
	 "uops_retired.retire_slots / uops_issued.any * idq.ms_uops / " SLOTS_SKL, "%", 100,
	 "Retiring: slots retiring uops the microcode sequencer delivered", SRC_TMA, TMA_SKL},
	{"tma_base", "TopdownL2;tma_L2_group;tma_retiring_group", "tma_retiring - tma_microcode_sequencer",
	 "%", 100, "Retiring: slots retiring ordinary uops", SRC_TMA, TMA_SKL},
	/* ---- Intel server memory bandwidth: every memory controller's CAS commands ----
	 * Skylake-SP: the vendor events from libpfm4's skx_unc_imc tables (one per
	 * uncore_imc_N box, summed), 64 bytes a CAS, in MiB as the kernel's
	 * cas_count_* aliases scale them (6.103515625e-5 = 64 / 2^20); the others
	 * have no libpfm4 uncore table, so the kernel's aliases. Where the PMU is
	 * absent the inputs are <not supported>, with the reason. */
	{"dram_bandwidth", "Memory_BW", "(unc_m_cas_count.rd + unc_m_cas_count.wr) * 64 / 1048576 / "
	 "(duration_time / 1e9)", "MiB/s", 1, "DRAM read and write bandwidth, all memory controllers",
	 "UNC: CAS_COUNT.RD + CAS_COUNT.WR (IMC event 0x04, umask 0x03 / 0x0C), 64 bytes each", "skx"},
	{"dram_bandwidth", "Memory_BW", "(uncore_imc@cas_count_read@ + uncore_imc@cas_count_write@) / "
	 "(duration_time / 1e9)", "MiB/s", 1, "DRAM read and write bandwidth, all memory controllers",
	 "UNC: CAS_COUNT.RD + CAS_COUNT.WR, 64 bytes each", "clx,icx,spr"},
	/* ---- AMD Zen 2 and 3 ---- */
	{"zen_ipc", "Summary", "ex_ret_instr / ls_not_halted_cyc", "insn per cycle", 1,
	 "Instructions retired per cycle not in halt", "PPR17: PMCx0C0 / PMCx076", ZEN23},
	{"zen_branch_misprediction_ratio", "Branches", "ex_ret_brn_misp / ex_ret_brn", "%", 100,
	 "Mispredicted branches of all branches retired", "PPR17: PMCx0C3 / PMCx0C2", ZEN23},
	/* ---- AMD Zen 4 pipeline utilization (libpfm4's names: perf 6.1 has no Zen 4 table) ---- */
	{"frontend_bound", "PipelineL1;TopdownL1", "dispatch_stalls_1.fe_no_ops / " SLOTS_ZEN4, "%", 100,
	 "Dispatch slots empty because the front end supplied no op", "PPR19: PMCx1A0 umask 0x01 / (6 * PMCx076)", ZEN4},
	{"bad_speculation", "PipelineL1;TopdownL1",
	 "(OPS_SOURCE_DISPATCHED_FROM_DECODER:DECODER:OPCACHE:LOOP_BUFFER - retired_ops) / " SLOTS_ZEN4, "%", 100,
	 "Dispatch slots of ops that did not retire", "PPR19: (PMCx0AA umask 0x07 - PMCx0C1) / (6 * PMCx076)", ZEN4},
	{"backend_bound", "PipelineL1;TopdownL1", "dispatch_stalls_1.be_stalls / " SLOTS_ZEN4, "%", 100,
	 "Dispatch slots empty because the back end had no room", "PPR19: PMCx1A0 umask 0x1E / (6 * PMCx076)", ZEN4},
	{"smt_contention", "PipelineL1;TopdownL1", "dispatch_stalls_1.smt_contention / " SLOTS_ZEN4, "%", 100,
	 "Dispatch slots given to the other SMT thread", "PPR19: PMCx1A0 umask 0x60 / (6 * PMCx076)", ZEN4},
	{"retiring", "PipelineL1;TopdownL1", "retired_ops / " SLOTS_ZEN4, "%", 100,
	 "Dispatch slots of ops that retired", "PPR19: PMCx0C1 / (6 * PMCx076)", ZEN4},
	/* ---- Arm Neoverse topdown level 1 ---- */
	{"arm_frontend_bound", "TopdownL1", "stall_frontend / cpu_cycles", "%", 100,
	 "Cycles with no op issued because the front end supplied none", "ARM: STALL_FRONTEND / CPU_CYCLES", ARMV8},
	{"arm_backend_bound", "TopdownL1", "stall_backend / cpu_cycles", "%", 100,
	 "Cycles with no op issued because the back end had no room", "ARM: STALL_BACKEND / CPU_CYCLES", ARMV8},
	{"arm_bad_speculation", "TopdownL1",
	 "(1 - op_retired / op_spec) * (1 - (stall_frontend + stall_backend) / cpu_cycles)", "%", 100,
	 "Issued ops that did not retire", "ARM: (1 - OP_RETIRED/OP_SPEC) * (1 - STALL/CPU_CYCLES)", ARMV8},
	{"arm_retiring", "TopdownL1", "op_retired / op_spec * (1 - (stall_frontend + stall_backend) / cpu_cycles)",
	 "%", 100, "Issued ops that retired", "ARM: OP_RETIRED/OP_SPEC * (1 - STALL/CPU_CYCLES)", ARMV8},
	{"arm_ipc", "Summary", "inst_retired / cpu_cycles", "insn per cycle", 1,
	 "Instructions retired per cycle", "ARM: INST_RETIRED / CPU_CYCLES", ARMV8},
};
const size_t pv_metric_table_len = PV_ARRAY_SIZE(pv_metric_table);
