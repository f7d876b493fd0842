/* record_sample.c — PERF_RECORD_SAMPLE bodies and read_format blocks, both ways. */
#define _GNU_SOURCE
#include "record/record_int.h"
#include "perfev.h"

int pv_read_values(struct perfev_decoder *dec, struct pv_cur *c, uint64_t rf, struct perfev_read_data *out)
{
	memset(out, 0, sizeof(*out));
	size_t per = 8 + 8 * (!!(rf & PERF_FORMAT_ID) + !!(rf & PERF_FORMAT_LOST));
	if (rf & PERF_FORMAT_GROUP) {
		out->nr = cur_u64(c, "read nr");
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED) out->time_enabled = cur_u64(c, "time_enabled");
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING) out->time_running = cur_u64(c, "time_running");
		if (out->nr > cur_left(c) / per) {
			if (!c->bad) {
				c->bad = true;
				c->what = "read values";
			}
			out->nr = 0;
			return 0;
		}
	} else {
		out->nr = 1;
	}
	struct perfev_read_value *v = pv_arena_alloc(dec, out->nr * sizeof(*v) + 8);
	if (!v)
		return 0;
	for (uint64_t i = 0; i < out->nr; i++) {
		v[i].value = cur_u64(c, "read value");
		if (!(rf & PERF_FORMAT_GROUP)) {
			if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED) out->time_enabled = cur_u64(c, "time_enabled");
			if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING) out->time_running = cur_u64(c, "time_running");
		}
		v[i].id = rf & PERF_FORMAT_ID ? cur_u64(c, "read id") : 0;
		v[i].lost = rf & PERF_FORMAT_LOST ? cur_u64(c, "read lost") : 0;
	}
	out->values = v;
	return 0;
}

void pv_encode_read(struct pv_wr *w, uint64_t rf, const struct perfev_read_data *r)
{
	static const struct perfev_read_value zero;
	if (rf & PERF_FORMAT_GROUP) {
		wr_u64(w, r->nr);
		if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED) wr_u64(w, r->time_enabled);
		if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING) wr_u64(w, r->time_running);
	}
	uint64_t nr = rf & PERF_FORMAT_GROUP ? r->nr : 1;
	for (uint64_t i = 0; i < nr; i++) {
		const struct perfev_read_value *v = r->values ? &r->values[i] : &zero;
		wr_u64(w, v->value);
		if (!(rf & PERF_FORMAT_GROUP)) {
			if (rf & PERF_FORMAT_TOTAL_TIME_ENABLED) wr_u64(w, r->time_enabled);
			if (rf & PERF_FORMAT_TOTAL_TIME_RUNNING) wr_u64(w, r->time_running);
		}
		if (rf & PERF_FORMAT_ID) wr_u64(w, v->id);
		if (rf & PERF_FORMAT_LOST) wr_u64(w, v->lost);
	}
}

static const uint64_t *u64s(struct perfev_decoder *dec, struct pv_cur *c, uint64_t nr, const char *what)
{
	if (nr > cur_left(c) / 8) {
		if (!c->bad) {
			c->bad = true;
			c->what = what;
		}
		return NULL;
	}
	/* native order and aligned (a file's records are): the record's own
	 * words, valid as long as the record, without copying or touching them */
	if (!c->swap && ((uintptr_t)c->p & 7) == 0) {
		const uint64_t *v = (const uint64_t *)(const void *)c->p;
		c->p += nr * 8;
		return v;
	}
	uint64_t *v = pv_arena_alloc(dec, nr * 8 + 8);
	if (v && !c->swap)
		memcpy(v, c->p, nr * 8), c->p += nr * 8;
	for (uint64_t i = 0; v && c->swap && i < nr; i++)
		v[i] = cur_u64(c, what);
	return v;
}

static void read_regs(struct perfev_decoder *dec, struct pv_cur *c, uint64_t mask, struct perfev_regs *r,
		      const char *what)
{
	r->mask = mask;
	r->abi = cur_u64(c, what);
	if (r->abi) {
		r->nr = (uint32_t)__builtin_popcountll(mask);
		r->regs = u64s(dec, c, r->nr, what);
	}
}

int pv_decode_sample(struct perfev_decoder *dec, struct pv_cur *c, const struct perfev_attr *a,
		     struct perfev_sample *s)
{
	uint64_t t = a->sample_type;
	s->sample_type = t;
	if (t & PERF_SAMPLE_IDENTIFIER) s->identifier = cur_u64(c, "identifier");
	if (t & PERF_SAMPLE_IP) s->ip = cur_u64(c, "ip");
	if (t & PERF_SAMPLE_TID) {
		s->pid = cur_u32(c, "pid");
		s->tid = cur_u32(c, "tid");
	}
	if (t & PERF_SAMPLE_TIME) s->time = cur_u64(c, "time");
	if (t & PERF_SAMPLE_ADDR) s->addr = cur_u64(c, "addr");
	if (t & PERF_SAMPLE_ID) s->id = cur_u64(c, "id");
	if (t & PERF_SAMPLE_STREAM_ID) s->stream_id = cur_u64(c, "stream_id");
	if (t & PERF_SAMPLE_CPU) {
		s->cpu = cur_u32(c, "cpu");
		s->cpu_res = cur_u32(c, "cpu res");
	}
	if (t & PERF_SAMPLE_PERIOD) s->period = cur_u64(c, "period");
	if (t & PERF_SAMPLE_READ) pv_read_values(dec, c, a->read_format, &s->read);
	if (t & PERF_SAMPLE_CALLCHAIN) {
		s->callchain_nr = cur_u64(c, "callchain nr");
		s->callchain = u64s(dec, c, s->callchain_nr, "callchain");
		if (!s->callchain)
			s->callchain_nr = 0;
	}
	if (t & PERF_SAMPLE_RAW) {
		s->raw_size = cur_u32(c, "raw size");
		s->raw = cur_bytes(c, s->raw_size, "raw data");
		/* u32 size + data is padded to a multiple of 8 */
		size_t used = 4 + (size_t)s->raw_size;
		cur_bytes(c, (8 - (used & 7)) & 7, "raw padding");
	}
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		s->branch_nr = cur_u64(c, "branch nr");
		if (a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) {
			s->branch_has_hw_idx = true;
			s->branch_hw_idx = cur_u64(c, "branch hw_idx");
		}
		if (s->branch_nr > cur_left(c) / 24) {
			if (!c->bad) {
				c->bad = true;
				c->what = "branch entries";
			}
			s->branch_nr = 0;
		}
		struct perfev_branch_entry *b = pv_arena_alloc(dec, s->branch_nr * sizeof(*b) + 8);
		for (uint64_t i = 0; b && i < s->branch_nr; i++) {
			b[i].from = cur_u64(c, "branch from");
			b[i].to = cur_u64(c, "branch to");
			b[i].flags = cur_u64(c, "branch flags");
		}
		s->branches = b;
		if (a->branch_sample_type & PERF_SAMPLE_BRANCH_COUNTERS)
			s->branch_counters = u64s(dec, c, s->branch_nr, "branch counters");
	}
	if (t & PERF_SAMPLE_REGS_USER) read_regs(dec, c, a->sample_regs_user, &s->regs_user, "user regs");
	if (t & PERF_SAMPLE_STACK_USER) {
		s->stack_user_size = cur_u64(c, "stack size");
		s->stack_user = cur_bytes(c, s->stack_user_size > cur_left(c) ? (size_t)-1 : s->stack_user_size,
					  "stack data");
		if (s->stack_user_size)
			s->stack_user_dyn_size = cur_u64(c, "stack dyn_size");
	}
	if (t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) s->weight = cur_u64(c, "weight");
	if (t & PERF_SAMPLE_DATA_SRC) s->data_src = cur_u64(c, "data_src");
	if (t & PERF_SAMPLE_TRANSACTION) s->transaction = cur_u64(c, "transaction");
	if (t & PERF_SAMPLE_REGS_INTR) read_regs(dec, c, a->sample_regs_intr, &s->regs_intr, "intr regs");
	if (t & PERF_SAMPLE_PHYS_ADDR) s->phys_addr = cur_u64(c, "phys_addr");
	if (t & PERF_SAMPLE_CGROUP) s->cgroup = cur_u64(c, "cgroup");
	if (t & PERF_SAMPLE_DATA_PAGE_SIZE) s->data_page_size = cur_u64(c, "data_page_size");
	if (t & PERF_SAMPLE_CODE_PAGE_SIZE) s->code_page_size = cur_u64(c, "code_page_size");
	if (t & PERF_SAMPLE_AUX) {
		s->aux_size = cur_u64(c, "aux size");
		s->aux = cur_bytes(c, s->aux_size > cur_left(c) ? (size_t)-1 : s->aux_size, "aux data");
		if (s->aux_size & 7)
			cur_bytes(c, 8 - (s->aux_size & 7), "aux padding");
	}
	return 0;
}

static void wr_regs(struct pv_wr *w, const struct perfev_regs *r, uint64_t mask)
{
	wr_u64(w, r->abi);
	if (!r->abi)
		return;
	int n = __builtin_popcountll(mask);
	for (int i = 0; i < n; i++)
		wr_u64(w, r->regs && (uint32_t)i < r->nr ? r->regs[i] : 0);
}

void pv_encode_sample(struct pv_wr *w, const struct perfev_attr *a, const struct perfev_sample *s)
{
	uint64_t t = a->sample_type;
	if (t & PERF_SAMPLE_IDENTIFIER) wr_u64(w, s->identifier);
	if (t & PERF_SAMPLE_IP) wr_u64(w, s->ip);
	if (t & PERF_SAMPLE_TID) {
		wr_u32(w, s->pid);
		wr_u32(w, s->tid);
	}
	if (t & PERF_SAMPLE_TIME) wr_u64(w, s->time);
	if (t & PERF_SAMPLE_ADDR) wr_u64(w, s->addr);
	if (t & PERF_SAMPLE_ID) wr_u64(w, s->id);
	if (t & PERF_SAMPLE_STREAM_ID) wr_u64(w, s->stream_id);
	if (t & PERF_SAMPLE_CPU) {
		wr_u32(w, s->cpu);
		wr_u32(w, s->cpu_res);
	}
	if (t & PERF_SAMPLE_PERIOD) wr_u64(w, s->period);
	if (t & PERF_SAMPLE_READ) pv_encode_read(w, a->read_format, &s->read);
	if (t & PERF_SAMPLE_CALLCHAIN) {
		wr_u64(w, s->callchain_nr);
		wr_bytes(w, s->callchain, s->callchain_nr * 8);
	}
	if (t & PERF_SAMPLE_RAW) {
		wr_u32(w, s->raw_size);
		wr_bytes(w, s->raw, s->raw_size);
		wr_pad8(w);
	}
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		wr_u64(w, s->branch_nr);
		if (a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) wr_u64(w, s->branch_hw_idx);
		wr_bytes(w, s->branches, s->branch_nr * sizeof(*s->branches));
		if (a->branch_sample_type & PERF_SAMPLE_BRANCH_COUNTERS)
			wr_bytes(w, s->branch_counters, s->branch_nr * 8);
	}
	if (t & PERF_SAMPLE_REGS_USER) wr_regs(w, &s->regs_user, a->sample_regs_user);
	if (t & PERF_SAMPLE_STACK_USER) {
		wr_u64(w, s->stack_user_size);
		wr_bytes(w, s->stack_user, s->stack_user_size);
		if (s->stack_user_size) wr_u64(w, s->stack_user_dyn_size);
	}
	if (t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) wr_u64(w, s->weight);
	if (t & PERF_SAMPLE_DATA_SRC) wr_u64(w, s->data_src);
	if (t & PERF_SAMPLE_TRANSACTION) wr_u64(w, s->transaction);
	if (t & PERF_SAMPLE_REGS_INTR) wr_regs(w, &s->regs_intr, a->sample_regs_intr);
	if (t & PERF_SAMPLE_PHYS_ADDR) wr_u64(w, s->phys_addr);
	if (t & PERF_SAMPLE_CGROUP) wr_u64(w, s->cgroup);
	if (t & PERF_SAMPLE_DATA_PAGE_SIZE) wr_u64(w, s->data_page_size);
	if (t & PERF_SAMPLE_CODE_PAGE_SIZE) wr_u64(w, s->code_page_size);
	if (t & PERF_SAMPLE_AUX) {
		wr_u64(w, s->aux_size);
		wr_bytes(w, s->aux, s->aux_size);
		/* padding after the data itself, as the decoder skips it (the same
		 * as wr_pad8 unless an earlier field, such as a malformed stack
		 * size, left the record unaligned) */
		wr_zero(w, (8 - (s->aux_size & 7)) & 7);
	}
}

void pv_encode_sid(struct pv_wr *w, const struct perfev_attr *a, const struct perfev_sample_id *sid)
{
	if (!a || !a->sample_id_all)
		return;
	uint64_t t = a->sample_type;
	if (t & PERF_SAMPLE_TID) {
		wr_u32(w, sid->pid);
		wr_u32(w, sid->tid);
	}
	if (t & PERF_SAMPLE_TIME) wr_u64(w, sid->time);
	if (t & PERF_SAMPLE_ID) wr_u64(w, sid->id);
	if (t & PERF_SAMPLE_STREAM_ID) wr_u64(w, sid->stream_id);
	if (t & PERF_SAMPLE_CPU) {
		wr_u32(w, sid->cpu);
		wr_u32(w, sid->res);
	}
	if (t & PERF_SAMPLE_IDENTIFIER) wr_u64(w, sid->identifier);
}
