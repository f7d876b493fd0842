/* The record decoder and encoder: byte-exact round trips of every sample_type
 * bit and every record type, and hostile input. */
#include "support.h"
#include "perfev.h"
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#define PV_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const uint64_t all_bits[] = {
	PERF_SAMPLE_IDENTIFIER, PERF_SAMPLE_IP, PERF_SAMPLE_TID, PERF_SAMPLE_TIME, PERF_SAMPLE_ADDR,
	PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU, PERF_SAMPLE_PERIOD, PERF_SAMPLE_READ,
	PERF_SAMPLE_CALLCHAIN, PERF_SAMPLE_RAW, PERF_SAMPLE_BRANCH_STACK, PERF_SAMPLE_REGS_USER,
	PERF_SAMPLE_STACK_USER, PERF_SAMPLE_WEIGHT, PERF_SAMPLE_DATA_SRC, PERF_SAMPLE_TRANSACTION,
	PERF_SAMPLE_REGS_INTR, PERF_SAMPLE_PHYS_ADDR, PERF_SAMPLE_CGROUP, PERF_SAMPLE_DATA_PAGE_SIZE,
	PERF_SAMPLE_CODE_PAGE_SIZE, PERF_SAMPLE_AUX, PERF_SAMPLE_WEIGHT_STRUCT,
};

static const uint64_t callchain[] = {PERF_CONTEXT_KERNEL, 0xffffffff81000010ULL, PERF_CONTEXT_USER,
				     0x401000, 0x401234};
static const struct perfev_branch_entry branches[] = {
	{0x1000, 0x2000, 0x1 | (17u << 4) | (1u << 20)}, {0x3000, 0x4000, 0x2 | (4u << 20)}};
static const uint64_t counters[] = {3, 4};
static const uint64_t regs[] = {11, 22, 33};
static const struct perfev_read_value rvals[] = {{100, 7, 1}, {200, 8, 2}, {300, 9, 3}};
static const char raw[] = "raw-bytes!";       /* 11 bytes with the NUL: padding needed */
static const uint8_t stack[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
static const uint8_t auxd[] = {0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, 0x11, 0x22};

static void fill_sample(struct perfev_sample *s, uint64_t read_format)
{
	memset(s, 0, sizeof(*s));
	s->identifier = 77;
	s->ip = 0xffffffff81234567ULL;
	s->pid = 1234;
	s->tid = 1235;
	s->time = 123456789012345ULL;
	s->addr = 0x7fff0000;
	s->id = 77;
	s->stream_id = 78;
	s->cpu = 3;
	s->period = 100000;
	s->read.nr = read_format & PERF_FORMAT_GROUP ? 3 : 1;
	s->read.time_enabled = 5000;
	s->read.time_running = 4000;
	s->read.values = rvals;
	s->callchain_nr = 5;
	s->callchain = callchain;
	s->raw_size = sizeof(raw);
	s->raw = raw;
	s->branch_nr = 2;
	s->branch_hw_idx = 5;
	s->branches = branches;
	s->branch_counters = counters;
	s->regs_user = (struct perfev_regs){PERF_SAMPLE_REGS_ABI_64, 0x7, 3, regs};
	s->regs_intr = (struct perfev_regs){PERF_SAMPLE_REGS_ABI_64, 0x7, 3, regs};
	s->stack_user_size = sizeof(stack);
	s->stack_user = stack;
	s->stack_user_dyn_size = 12;
	s->weight = 0x0001000200000300ULL;
	s->data_src = 0x68100142ULL;
	s->transaction = 0x500000003ULL;
	s->phys_addr = 0x12345000;
	s->cgroup = 99;
	s->data_page_size = 4096;
	s->code_page_size = 2097152;
	s->aux_size = sizeof(auxd);
	s->aux = auxd;
}

static struct perfev_attr mk_attr(uint64_t st, uint64_t rf)
{
	struct perfev_attr a = {0};
	a.type = PERF_TYPE_SOFTWARE;
	a.size = PERFEV_ATTR_SIZE_LATEST;
	a.sample_type = st;
	a.read_format = rf;
	a.sample_id_all = 1;
	a.branch_sample_type = PERF_SAMPLE_BRANCH_ANY | PERF_SAMPLE_BRANCH_HW_INDEX | PERF_SAMPLE_BRANCH_COUNTERS;
	a.sample_regs_user = 0x7;
	a.sample_regs_intr = 0x7;
	return a;
}

/* encode → decode → encode gives the same bytes; returns the decoded size. */
static void round_trip(const struct perfev_record *in, const struct perfev_attr *a, struct perfev_record *out)
{
	static uint8_t b1[65536], b2[65536];
	int n1 = perfev_record_encode(in, a, b1, sizeof(b1));
	cr_assert_gt(n1, 0, "encode type %u: %s", in->type, perfev_errmsg());
	cr_assert_eq(n1 % 8, 0, "type %u size %d not a multiple of 8", in->type, n1);
	struct perfev_decoder *d = perfev_decoder_new();
	cr_assert_geq(perfev_decoder_add_attr(d, a, NULL, 0), 0);
	int got = perfev_decoder_decode(d, b1, (size_t)n1, out);
	cr_assert_eq(got, n1, "decode type %u: %d %s", in->type, got, perfev_errmsg());
	int n2 = perfev_record_encode(out, a, b2, sizeof(b2));
	cr_assert_eq(n2, n1, "type %u: re-encoded %d bytes, first %d", in->type, n2, n1);
	cr_assert(memcmp(b1, b2, (size_t)n1) == 0, "type %u: bytes differ after a round trip", in->type);
	/* every shorter length is refused, never read past */
	struct perfev_record tmp;
	for (int cut = 0; cut < n1; cut += 1)
		cr_assert_lt(perfev_decoder_decode(d, b1, (size_t)cut, &tmp), 0);
	/* a record claiming fewer bytes than its fields is malformed or a valid prefix, never a crash */
	for (int sz = 8; sz < n1; sz += 8) {
		uint16_t s16 = (uint16_t)sz;
		memcpy(b2, b1, (size_t)n1);
		memcpy(b2 + 6, &s16, 2);
		(void)perfev_decoder_decode(d, b2, (size_t)sz, &tmp);
	}
	memcpy(b2, b1, (size_t)n1);
	/* keep decoding something so `out` stays valid: re-decode the record */
	cr_assert_eq(perfev_decoder_decode(d, b2, (size_t)n1, out), n1);
	static struct perfev_decoder *last;
	perfev_decoder_free(last);
	last = d;
}

static void check_sample(uint64_t st, uint64_t rf)
{
	struct perfev_attr a = mk_attr(st, rf);
	struct perfev_record r = {.type = PERF_RECORD_SAMPLE, .misc = PERF_RECORD_MISC_USER}, o;
	fill_sample(&r.u.sample, rf);
	round_trip(&r, &a, &o);
	const struct perfev_sample *s = &o.u.sample;
	if (st & PERF_SAMPLE_IP) cr_assert_eq(s->ip, 0xffffffff81234567ULL);
	if (st & PERF_SAMPLE_TID) cr_assert(s->pid == 1234 && s->tid == 1235);
	if (st & PERF_SAMPLE_TIME) cr_assert_eq(s->time, 123456789012345ULL);
	if (st & PERF_SAMPLE_CALLCHAIN) cr_assert(s->callchain_nr == 5 && s->callchain[2] == PERF_CONTEXT_USER);
	if (st & PERF_SAMPLE_RAW) cr_assert(s->raw_size == sizeof(raw) && !memcmp(s->raw, raw, sizeof(raw)));
	if (st & PERF_SAMPLE_BRANCH_STACK)
		cr_assert(s->branch_nr == 2 && s->branch_hw_idx == 5 && s->branches[1].to == 0x4000 &&
			  s->branch_counters[1] == 4);
	if (st & PERF_SAMPLE_READ) {
		cr_assert_eq(s->read.nr, rf & PERF_FORMAT_GROUP ? 3 : 1);
		cr_assert_eq(s->read.values[0].value, 100);
		if (rf & PERF_FORMAT_ID) cr_assert_eq(s->read.values[0].id, 7);
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING) cr_assert_eq(s->read.time_running, 4000);
	}
	if (st & PERF_SAMPLE_REGS_USER) cr_assert(s->regs_user.nr == 3 && s->regs_user.regs[2] == 33);
	if (st & PERF_SAMPLE_STACK_USER) cr_assert(s->stack_user_size == 16 && s->stack_user_dyn_size == 12);
	if (st & PERF_SAMPLE_AUX) cr_assert(s->aux_size == 8 && !memcmp(s->aux, auxd, 8));
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE) cr_assert_eq(s->code_page_size, 2097152);
}

Test(unit_record, every_sample_bit_alone)
{
	for (size_t i = 0; i < PV_ARRAY_SIZE(all_bits); i++)
		check_sample(all_bits[i], PERF_FORMAT_ID);
}

Test(unit_record, all_bits_every_read_format)
{
	uint64_t st = 0;
	for (size_t i = 0; i < PV_ARRAY_SIZE(all_bits); i++)
		st |= all_bits[i];
	st &= ~(uint64_t)PERF_SAMPLE_WEIGHT; /* WEIGHT and WEIGHT_STRUCT exclude each other */
	for (uint64_t rf = 0; rf < 32; rf++) {
		check_sample(st, rf);
		check_sample(PERF_SAMPLE_READ | PERF_SAMPLE_TID, rf);
	}
}

Test(unit_record, every_kernel_record)
{
	uint64_t st = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_STREAM_ID |
		      PERF_SAMPLE_CPU | PERF_SAMPLE_IDENTIFIER;
	struct perfev_attr a = mk_attr(st, PERF_FORMAT_GROUP | PERF_FORMAT_ID | PERF_FORMAT_TOTAL_TIME_ENABLED);
	struct perfev_sample_id sid = {10, 11, 999, 77, 78, 2, 0, 77};
	static const uint64_t ns[] = {1, 2, 3, 4};
	static const uint8_t poke[] = {0x90, 0x90, 0x90, 0xe8, 1, 2, 3, 4};
	struct perfev_record recs[32];
	int n = 0;
#define R(T, MISC) (recs[n] = (struct perfev_record){.type = (T), .misc = (MISC), .sid = sid}, &recs[n++])
	struct perfev_record *r;
	r = R(PERF_RECORD_MMAP, PERF_RECORD_MISC_USER);
	r->u.mmap = (typeof(r->u.mmap)){.pid = 1, .tid = 2, .addr = 0x400000, .len = 4096, .pgoff = 0, .filename = "/bin/true"};
	r = R(PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER);
	r->u.mmap = (typeof(r->u.mmap)){.pid = 1, .tid = 2, .addr = 0x400000, .len = 4096, .maj = 8, .min = 1,
		.ino = 42, .ino_generation = 3, .prot = 5, .flags = 2, .filename = "/usr/lib/libc.so.6"};
	r = R(PERF_RECORD_MMAP2, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_BUILD_ID);
	r->u.mmap = (typeof(r->u.mmap)){.pid = 1, .tid = 2, .addr = 0x400000, .len = 4096, .build_id_size = 20,
		.build_id = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20}, .prot = 5, .filename = "x"};
	r = R(PERF_RECORD_LOST, 0); r->u.lost.id = 77; r->u.lost.lost = 5;
	r = R(PERF_RECORD_COMM, PERF_RECORD_MISC_COMM_EXEC); r->u.comm.pid = 3; r->u.comm.tid = 3; r->u.comm.comm = "abcdefg";
	r = R(PERF_RECORD_EXIT, 0); r->u.fork = (typeof(r->u.fork)){1, 2, 3, 4, 5};
	r = R(PERF_RECORD_FORK, 0); r->u.fork = (typeof(r->u.fork)){6, 7, 8, 9, 10};
	r = R(PERF_RECORD_THROTTLE, 0); r->u.throttle = (typeof(r->u.throttle)){1, 77, 78};
	r = R(PERF_RECORD_UNTHROTTLE, 0); r->u.throttle = (typeof(r->u.throttle)){2, 77, 78};
	r = R(PERF_RECORD_READ, 0); r->u.read.pid = 1; r->u.read.tid = 2;
	r->u.read.values = (struct perfev_read_data){3, 10, 0, rvals};
	r = R(PERF_RECORD_AUX, 0); r->u.aux = (typeof(r->u.aux)){4096, 8192, PERF_AUX_FLAG_TRUNCATED};
	r = R(PERF_RECORD_ITRACE_START, 0); r->u.itrace_start.pid = 1; r->u.itrace_start.tid = 2;
	r = R(PERF_RECORD_LOST_SAMPLES, 0); r->u.lost_samples.lost = 9;
	r = R(PERF_RECORD_SWITCH, PERF_RECORD_MISC_SWITCH_OUT);
	r = R(PERF_RECORD_SWITCH_CPU_WIDE, 0); r->u.switch_cpu_wide.next_prev_pid = 5; r->u.switch_cpu_wide.next_prev_tid = 6;
	r = R(PERF_RECORD_NAMESPACES, 0); r->u.namespaces = (typeof(r->u.namespaces)){1, 2, 2, ns};
	r = R(PERF_RECORD_KSYMBOL, 0); r->u.ksymbol = (typeof(r->u.ksymbol)){0xffffffffa0000000ULL, 128, 1, 0, "bpf_prog_x"};
	r = R(PERF_RECORD_BPF_EVENT, 0); r->u.bpf_event = (typeof(r->u.bpf_event)){1, 0, 42, {1, 2, 3, 4, 5, 6, 7, 8}};
	r = R(PERF_RECORD_CGROUP, 0); r->u.cgroup.id = 5; r->u.cgroup.path = "/sys/fs/cgroup/a";
	r = R(PERF_RECORD_TEXT_POKE, 0); r->u.text_poke = (typeof(r->u.text_poke)){0xffffffff81000000ULL, 3, 5, poke};
	r = R(PERF_RECORD_AUX_OUTPUT_HW_ID, 0); r->u.aux_output_hw_id.hw_id = 3;
	for (int i = 0; i < n; i++) {
		struct perfev_record o;
		round_trip(&recs[i], &a, &o);
		cr_assert(o.has_sid && o.sid.time == 999 && o.sid.cpu == 2 && o.sid.identifier == 77);
		cr_assert_eq(o.type, recs[i].type);
	}
}

Test(unit_record, every_perf_file_record)
{
	struct perfev_attr at = mk_attr(PERF_SAMPLE_IP, 0);
	static const uint64_t ids[] = {5, 6, 7}, idx[] = {5, 0, 0, 100, 6, 0, 1, 100}, tv[] = {1, 2, 3, 4};
	static const uint32_t cpus[] = {0, 1, 3};
	static const uint64_t pids[] = {10, 11};
	static const char comms[32] = "one\0............two";
	static const uint8_t z[] = {0x28, 0xb5, 0x2f, 0xfd, 1, 2, 3, 4};
	struct perfev_record recs[32];
	int n = 0;
	struct perfev_sample_id sid = {0};
	struct perfev_record *r;
	r = R(PERFEV_RECORD_HEADER_ATTR, 0); r->u.header_attr = (typeof(r->u.header_attr)){&at, 136, 3, ids};
	r = R(PERFEV_RECORD_HEADER_TRACING_DATA, 0); r->u.tracing_data.size = 4096;
	r = R(PERFEV_RECORD_HEADER_BUILD_ID, PERF_RECORD_MISC_KERNEL | PERFEV_RECORD_MISC_BUILD_ID_SIZE);
	r->u.build_id = (typeof(r->u.build_id)){-1, 20, {9, 8, 7}, "[kernel.kallsyms]"};
	r = R(PERFEV_RECORD_FINISHED_ROUND, 0);
	r = R(PERFEV_RECORD_FINISHED_INIT, 0);
	r = R(PERFEV_RECORD_ID_INDEX, 0); r->u.id_index.nr = 2; r->u.id_index.entries = idx;
	r = R(PERFEV_RECORD_AUXTRACE_INFO, 0); r->u.auxtrace_info = (typeof(r->u.auxtrace_info)){1, 3, ids};
	r = R(PERFEV_RECORD_AUXTRACE, 0); r->u.auxtrace = (typeof(r->u.auxtrace)){4096, 0, 12, 0, 55, 1};
	r = R(PERFEV_RECORD_AUXTRACE_ERROR, 0);
	r->u.auxtrace_error = (typeof(r->u.auxtrace_error)){1, 2, 3, 4, 5, 2, 0x1000, 99, "decoder error", 7, 8};
	r = R(PERFEV_RECORD_THREAD_MAP, 0); r->u.thread_map = (typeof(r->u.thread_map)){2, pids, comms};
	r = R(PERFEV_RECORD_CPU_MAP, 0); r->u.cpu_map = (typeof(r->u.cpu_map)){0, 3, cpus};
	r = R(PERFEV_RECORD_STAT_CONFIG, 0); r->u.stat_config.nr = 2; r->u.stat_config.tag_val = tv;
	r = R(PERFEV_RECORD_STAT, 0); r->u.stat = (typeof(r->u.stat)){5, 1, 0, 100, 200, 150};
	r = R(PERFEV_RECORD_STAT_ROUND, 0); r->u.stat_round.type = 1; r->u.stat_round.time = 1000;
	r = R(PERFEV_RECORD_EVENT_UPDATE, 0); r->u.event_update.type = 2; r->u.event_update.id = 5; r->u.event_update.str = "cycles:u";
	r = R(PERFEV_RECORD_EVENT_UPDATE, 0); r->u.event_update.type = 1; r->u.event_update.id = 5; r->u.event_update.scale = 0.5;
	r = R(PERFEV_RECORD_EVENT_UPDATE, 0); r->u.event_update.type = 3; r->u.event_update.id = 5;
	r->u.event_update.nr_cpus = 3; r->u.event_update.cpus = cpus;
	r = R(PERFEV_RECORD_TIME_CONV, 0);
	r->u.time_conv = (typeof(r->u.time_conv)){10, 20, 30, 40, 50, 1, 1, true};
	r = R(PERFEV_RECORD_HEADER_FEATURE, 0); r->u.feature = (typeof(r->u.feature)){3, "host\0\0\0\0", 8};
	r = R(PERFEV_RECORD_COMPRESSED, 0); r->u.compressed.data_size = 8; r->u.compressed.data = z;
	r = R(PERFEV_RECORD_COMPRESSED2, 0); r->u.compressed.data_size = 8; r->u.compressed.data = z;
#undef R
	for (int i = 0; i < n; i++) {
		struct perfev_record o;
		round_trip(&recs[i], &at, &o);
		cr_assert_eq(o.type, recs[i].type);
	}
}

Test(unit_record, id_maps_records_to_attrs)
{
	struct perfev_attr a = mk_attr(PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_ID | PERF_SAMPLE_TIME, 0);
	struct perfev_attr b = a;
	b.sample_type |= PERF_SAMPLE_PERIOD;
	uint64_t ia[] = {100, 101}, ib[] = {200};
	struct perfev_decoder *d = perfev_decoder_new();
	cr_assert_eq(perfev_decoder_add_attr(d, &a, ia, 2), 0);
	cr_assert_eq(perfev_decoder_add_attr(d, &b, ib, 1), 1);
	uint8_t buf[256];
	struct perfev_record r = {.type = PERF_RECORD_SAMPLE}, o;
	r.u.sample.id = 200;
	r.u.sample.period = 4000;
	r.u.sample.time = 55;
	int n = perfev_record_encode(&r, &b, buf, sizeof(buf));
	cr_assert_eq(perfev_decoder_decode(d, buf, (size_t)n, &o), n);
	cr_assert_eq(o.attr_idx, 1);
	cr_assert_eq(o.u.sample.period, 4000);
	uint64_t t;
	cr_assert_eq(perfev_decoder_record_time(d, buf, (size_t)n, &t), 0);
	cr_assert_eq(t, 55);
	r.u.sample.id = 999;
	n = perfev_record_encode(&r, &b, buf, sizeof(buf));
	cr_assert_eq(perfev_decoder_decode(d, buf, (size_t)n, &o), -ENOENT);
	/* a COMM's trailer says which event it came from */
	struct perfev_record c = {.type = PERF_RECORD_COMM};
	c.u.comm.comm = "x";
	c.sid.id = 101;
	c.sid.time = 77;
	n = perfev_record_encode(&c, &a, buf, sizeof(buf));
	cr_assert_eq(perfev_decoder_decode(d, buf, (size_t)n, &o), n);
	cr_assert_eq(o.attr_idx, 0);
	cr_assert_eq(o.sid.time, 77);
	cr_assert_eq(perfev_decoder_record_time(d, buf, (size_t)n, &t), 0);
	cr_assert_eq(t, 77);
	perfev_decoder_free(d);
}

Test(unit_record, hostile_lengths)
{
	struct perfev_attr a = mk_attr(PERF_SAMPLE_CALLCHAIN | PERF_SAMPLE_BRANCH_STACK | PERF_SAMPLE_RAW, 0);
	struct perfev_decoder *d = perfev_decoder_new();
	perfev_decoder_add_attr(d, &a, NULL, 0);
	struct perfev_record o;
	uint64_t buf[8] = {0};
	uint32_t type = PERF_RECORD_SAMPLE;
	uint16_t size = 32;
	memcpy(buf, &type, 4);
	memcpy((char *)buf + 6, &size, 2);
	buf[1] = UINT64_MAX / 4; /* callchain nr far beyond the record */
	cr_assert_eq(perfev_decoder_decode(d, buf, 64, &o), -EINVAL);
	cr_assert(strstr(perfev_errmsg(), "callchain"), "%s", perfev_errmsg());
	size = 4;
	memcpy((char *)buf + 6, &size, 2);
	cr_assert_eq(perfev_decoder_decode(d, buf, 64, &o), -EINVAL);
	/* random bytes of every type never crash */
	srand(1);
	uint8_t rnd[512];
	for (int it = 0; it < 20000; it++) {
		for (size_t i = 0; i < sizeof(rnd); i++)
			rnd[i] = (uint8_t)rand();
		uint32_t t = (uint32_t)(it % 90);
		uint16_t s = (uint16_t)(8 + (rand() % 63) * 8);
		memcpy(rnd, &t, 4);
		memcpy(rnd + 6, &s, 2);
		(void)perfev_decoder_decode(d, rnd, s, &o);
	}
	perfev_decoder_free(d);
}

Test(unit_record, words)
{
	char b[256];
	perfev_misc_str(b, sizeof(b), PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_EXACT_IP);
	cr_assert_str_eq(b, "user|exact_ip");
	perfev_sample_type_str(b, sizeof(b), PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_PERIOD);
	cr_assert_str_eq(b, "IP|TID|PERIOD");
	perfev_transaction_str(b, sizeof(b), 0x300000006ULL);
	cr_assert_str_eq(b, "TRANSACTION|SYNC|abort 0x3");
	perfev_branch_flags_str(b, sizeof(b), 1 | (5u << 4) | (1u << 20));
	cr_assert_str_eq(b, "M/-/-/5/COND/N/A");
	union perf_mem_data_src ds = {0};
	ds.mem_op = PERF_MEM_OP_LOAD;
	ds.mem_lvl = PERF_MEM_LVL_HIT | PERF_MEM_LVL_L1;
	perfev_data_src_str(b, sizeof(b), ds.val);
	cr_assert_str_eq(b, "|OP LOAD|LVL L1 hit|SNP N/A|TLB N/A|LCK No|BLK  N/A");
	cr_assert_str_eq(perfev_record_type_name(PERFEV_RECORD_FINISHED_ROUND), "FINISHED_ROUND");
	cr_assert_str_eq(perfev_record_type_name(PERF_RECORD_MMAP2), "MMAP2");
}
