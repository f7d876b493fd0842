/* data_src in words (perfev_data_src_str, what report --mem-mode's mem,
 * snoop, tlb, locked and blocked columns show field by field): every bit of
 * every field (op, lvl with hit/miss, snoop, snoopx, lock, dtlb with
 * hit/miss, lvl_num, remote, hops, blk) alone and mixed. The expected words
 * are perf 6.1's: `perf script -F data_src` of a recording holding these
 * values (tests/interop/view/report_keys2.c writes it). */
#include "support.h"
#include "perfev.h"

#include <string.h>

static const struct {
	uint64_t v;
	const char *want;
} cases[] = {
	{0x0, "|OP No|LVL N/A|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x1, "|OP N/A|LVL N/A|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x10, "|OP EXEC|LVL N/A|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x10000000002, "|OP LOAD|LVL N/A|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x1000000002, "|OP LOAD|LVL L8|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x100000004, "|OP STORE|LVL N/A|SNP N/A|TLB Fault|LCK No|BLK  N/A"},
	{0x10000004, "|OP STORE|LVL N/A|SNP N/A|TLB N/A miss|LCK No|BLK  N/A"},
	{0x1000000842, "|OP LOAD|LVL L3 or L8 hit|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x1000002, "|OP LOAD|LVL N/A|SNP N/A|TLB N/A|LCK N/A|BLK  N/A"},
	{0x10002, "|OP LOAD|LVL Remote Cache (2 hops)|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x1002, "|OP LOAD|LVL Local RAM|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x10042, "|OP LOAD|LVL Remote Cache (2 hops) hit|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x100442, "|OP LOAD|LVL L2 hit|SNP None|TLB N/A|LCK No|BLK  N/A"},
	{0x10082, "|OP LOAD|LVL Remote Cache (2 hops) miss|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x101600000042, "|OP LOAD|LVL node, same socket Any cache hit|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x102, "|OP LOAD|LVL L1|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	/* (perf script cuts these two to its 100-byte buffer: the full words) */
	{0x103600000042, "|OP LOAD|LVL Remote node, same socket Any cache hit|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x1042, "|OP LOAD|LVL Local RAM hit|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x108000004, "|OP STORE|LVL N/A|SNP N/A|TLB Fault hit|LCK No|BLK  N/A"},
	{0x1082, "|OP LOAD|LVL Local RAM miss|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x110000004, "|OP STORE|LVL N/A|SNP N/A|TLB Fault miss|LCK No|BLK  N/A"},
	{0x1400000002, "|OP LOAD|LVL I/O|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x1400000842, "|OP LOAD|LVL L3 or I/O hit|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x142, "|OP LOAD|LVL L1 hit|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x1600000002, "|OP LOAD|LVL Any cache|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x1600000842, "|OP LOAD|LVL L3 or Any cache hit|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x1800000002, "|OP LOAD|LVL LFB/MAB|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x1800000842, "|OP LOAD|LVL L3 or LFB/MAB hit|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x181600000042, "|OP LOAD|LVL socket, same board Any cache hit|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x182, "|OP LOAD|LVL L1 miss|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x183600000042, "|OP LOAD|LVL Remote socket, same board Any cache hit|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x1a00000002, "|OP LOAD|LVL RAM|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x1a00000842, "|OP LOAD|LVL L3 or RAM hit|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x1c00000002, "|OP LOAD|LVL PMEM|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x1c00000842, "|OP LOAD|LVL L3 or PMEM hit|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x1e00000002, "|OP LOAD|LVL N/A|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x1e00000842, "|OP LOAD|LVL L3 or N/A hit|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x2, "|OP LOAD|LVL N/A|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x20000000002, "|OP LOAD|LVL N/A|SNP N/A|TLB N/A|LCK No|BLK  Data"},
	{0x200000002, "|OP LOAD|LVL L1|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x20000004, "|OP STORE|LVL N/A|SNP N/A|TLB L1|LCK No|BLK  N/A"},
	{0x2000002, "|OP LOAD|LVL N/A|SNP N/A|TLB N/A|LCK Yes|BLK  N/A"},
	{0x200000842, "|OP LOAD|LVL L3 or L1 hit|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x20002, "|OP LOAD|LVL I/O|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x2002, "|OP LOAD|LVL Remote RAM (1 hop)|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x20042, "|OP LOAD|LVL I/O hit|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x200442, "|OP LOAD|LVL L2 hit|SNP Hit|TLB N/A|LCK No|BLK  N/A"},
	{0x20082, "|OP LOAD|LVL I/O miss|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x201600000042, "|OP LOAD|LVL board Any cache hit|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x202, "|OP LOAD|LVL LFB/MAB|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x203600000042, "|OP LOAD|LVL Remote board Any cache hit|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x2042, "|OP LOAD|LVL Remote RAM (1 hop) hit|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x2082, "|OP LOAD|LVL Remote RAM (1 hop) miss|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x22, "|OP LOAD|LVL N/A|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x242, "|OP LOAD|LVL LFB/MAB hit|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x28000004, "|OP STORE|LVL N/A|SNP N/A|TLB L1 hit|LCK No|BLK  N/A"},
	{0x282, "|OP LOAD|LVL LFB/MAB miss|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x30000004, "|OP STORE|LVL N/A|SNP N/A|TLB L1 miss|LCK No|BLK  N/A"},
	{0x4, "|OP STORE|LVL N/A|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x40000000002, "|OP LOAD|LVL N/A|SNP N/A|TLB N/A|LCK No|BLK  Addr"},
	{0x4000000002, "|OP LOAD|LVL N/A|SNP Fwd|TLB N/A|LCK No|BLK  N/A"},
	{0x400000002, "|OP LOAD|LVL L2|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x40000004, "|OP STORE|LVL N/A|SNP N/A|TLB L2|LCK No|BLK  N/A"},
	{0x4000004, "|OP STORE|LVL N/A|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x400000842, "|OP LOAD|LVL L3 or L2 hit|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x40002, "|OP LOAD|LVL Uncached|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x4000200002, "|OP LOAD|LVL N/A|SNP Hit or Fwd|TLB N/A|LCK No|BLK  N/A"},
	{0x4002, "|OP LOAD|LVL Remote RAM (2 hops)|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x40042, "|OP LOAD|LVL Uncached hit|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x400442, "|OP LOAD|LVL L2 hit|SNP Miss|TLB N/A|LCK No|BLK  N/A"},
	{0x40082, "|OP LOAD|LVL Uncached miss|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x402, "|OP LOAD|LVL L2|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x4042, "|OP LOAD|LVL Remote RAM (2 hops) hit|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x4082, "|OP LOAD|LVL Remote RAM (2 hops) miss|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x42, "|OP LOAD|LVL N/A hit|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x442, "|OP LOAD|LVL L2 hit|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x48000004, "|OP STORE|LVL N/A|SNP N/A|TLB L2 hit|LCK No|BLK  N/A"},
	{0x482, "|OP LOAD|LVL L2 miss|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x50000004, "|OP STORE|LVL N/A|SNP N/A|TLB L2 miss|LCK No|BLK  N/A"},
	{0x60000000000, "|OP No|LVL N/A|SNP N/A|TLB N/A|LCK No|BLK  Data Addr"},
	{0x600000002, "|OP LOAD|LVL L3|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x600000842, "|OP LOAD|LVL L3 or L3 hit|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x8, "|OP PFETCH|LVL N/A|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x8000000002, "|OP LOAD|LVL N/A|SNP Peer|TLB N/A|LCK No|BLK  N/A"},
	{0x800000002, "|OP LOAD|LVL L4|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x80000004, "|OP STORE|LVL N/A|SNP N/A|TLB Walker|LCK No|BLK  N/A"},
	{0x8000004, "|OP STORE|LVL N/A|SNP N/A|TLB N/A hit|LCK No|BLK  N/A"},
	{0x800000842, "|OP LOAD|LVL L3 or L4 hit|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x8000200002, "|OP LOAD|LVL N/A|SNP Hit or Peer|TLB N/A|LCK No|BLK  N/A"},
	{0x8002, "|OP LOAD|LVL Remote Cache (1 hop)|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x800442, "|OP LOAD|LVL L2 hit|SNP HitM|TLB N/A|LCK No|BLK  N/A"},
	{0x802, "|OP LOAD|LVL L3|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x8042, "|OP LOAD|LVL Remote Cache (1 hop) hit|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x80442, "|OP LOAD|LVL L2 hit|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x8082, "|OP LOAD|LVL Remote Cache (1 hop) miss|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x81600000042, "|OP LOAD|LVL core, same node Any cache hit|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x82, "|OP LOAD|LVL N/A miss|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x83600000042, "|OP LOAD|LVL Remote core, same node Any cache hit|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x842, "|OP LOAD|LVL L3 hit|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x88000004, "|OP STORE|LVL N/A|SNP N/A|TLB Walker hit|LCK No|BLK  N/A"},
	{0x882, "|OP LOAD|LVL L3 miss|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0x90000004, "|OP STORE|LVL N/A|SNP N/A|TLB Walker miss|LCK No|BLK  N/A"},
	{0xa00000002, "|OP LOAD|LVL L5|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0xa00000842, "|OP LOAD|LVL L3 or L5 hit|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0xc00000002, "|OP LOAD|LVL L6|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0xc00000842, "|OP LOAD|LVL L3 or L6 hit|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0xe00000002, "|OP LOAD|LVL L7|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
	{0xe00000842, "|OP LOAD|LVL L3 or L7 hit|SNP N/A|TLB N/A|LCK No|BLK  N/A"},
};

Test(unit_data_src, every_field_bit_as_perf_words_it)
{
	char b[256];
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int n = perfev_data_src_str(b, sizeof(b), cases[i].v);
		cr_expect_str_eq(b, cases[i].want, "data_src %#llx", (unsigned long long)cases[i].v);
		cr_expect_eq((size_t)n, strlen(cases[i].want), "data_src %#llx: length", (unsigned long long)cases[i].v);
	}
}

/* the fields themselves: each bit its own word */
Test(unit_data_src, fields_decode_to_their_words)
{
	char b[256];
	union perf_mem_data_src d = {0};
	d.mem_op = PERF_MEM_OP_LOAD;
	d.mem_lvl = PERF_MEM_LVL_L3 | PERF_MEM_LVL_HIT;
	d.mem_snoop = PERF_MEM_SNOOP_HITM;
	d.mem_snoopx = PERF_MEM_SNOOPX_FWD;
	d.mem_dtlb = PERF_MEM_TLB_L2 | PERF_MEM_TLB_MISS;
	d.mem_lock = PERF_MEM_LOCK_LOCKED;
	d.mem_blk = PERF_MEM_BLK_ADDR;
	d.mem_lvl_num = PERF_MEM_LVLNUM_RAM;
	perfev_data_src_str(b, sizeof(b), d.val);
	cr_assert_str_eq(b, "|OP LOAD|LVL L3 or RAM hit|SNP HitM or Fwd|TLB L2 miss|LCK Yes|BLK  Addr");
	/* a short buffer: cut and terminated, the length of what it holds */
	char s[10];
	int n = perfev_data_src_str(s, sizeof(s), d.val);
	cr_assert_str_eq(s, "|OP LOAD|");
	cr_assert_eq(n, 9);
}
