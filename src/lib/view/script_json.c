/* script_json.c — one JSON object per record, side-band included. */
#define _GNU_SOURCE
#include "view/script_int.h"

#include <string.h>

#define P(...) pv_buf_printf(b, __VA_ARGS__)

static void kv_u(struct pv_buf *b, const char *k, unsigned long long v) { P(",\"%s\":%llu", k, v); }
static void kv_x(struct pv_buf *b, const char *k, unsigned long long v) { P(",\"%s\":\"0x%llx\"", k, v); }
static void kv_s(struct pv_buf *b, const char *k, const char *v)
{
	P(",\"%s\":", k);
	pv_buf_json_str(b, v ? v : "");
}

static void sample_json(struct pv_script *s, struct pv_buf *b, const struct perfev_record *r)
{
	const struct perfev_sample *x = &r->u.sample;
	uint64_t t = x->sample_type;
	if ((size_t)r->attr_idx < perfev_perfdata_nr_events(s->pd))
		kv_s(b, "event", perfev_perfdata_event_name(s->pd, (size_t)r->attr_idx));
	if (t & PERF_SAMPLE_TID) {
		kv_u(b, "pid", x->pid);
		kv_u(b, "tid", x->tid);
		kv_s(b, "comm", perfev_session_comm(s->session, x->tid));
	}
	if (t & PERF_SAMPLE_TIME) kv_u(b, "time", x->time);
	if (t & PERF_SAMPLE_CPU) kv_u(b, "cpu", x->cpu);
	if (t & PERF_SAMPLE_IP) kv_x(b, "ip", x->ip);
	if (t & PERF_SAMPLE_ADDR) kv_x(b, "addr", x->addr);
	if (t & (PERF_SAMPLE_ID | PERF_SAMPLE_IDENTIFIER)) kv_u(b, "id", t & PERF_SAMPLE_ID ? x->id : x->identifier);
	if (t & PERF_SAMPLE_STREAM_ID) kv_u(b, "stream_id", x->stream_id);
	if (t & PERF_SAMPLE_PERIOD) kv_u(b, "period", x->period);
	if (t & PERF_SAMPLE_READ) {
		P(",\"read\":{\"time_enabled\":%llu,\"time_running\":%llu,\"values\":[",
		  (unsigned long long)x->read.time_enabled, (unsigned long long)x->read.time_running);
		for (uint64_t i = 0; i < x->read.nr; i++)
			P("%s{\"value\":%llu,\"id\":%llu,\"lost\":%llu}", i ? "," : "",
			  (unsigned long long)x->read.values[i].value, (unsigned long long)x->read.values[i].id,
			  (unsigned long long)x->read.values[i].lost);
		P("]}");
	}
	if (t & PERF_SAMPLE_CALLCHAIN) {
		P(",\"callchain\":[");
		for (uint64_t i = 0; i < x->callchain_nr; i++)
			P("%s\"0x%llx\"", i ? "," : "", (unsigned long long)x->callchain[i]);
		P("]");
	}
	if (t & PERF_SAMPLE_RAW) kv_u(b, "raw_size", x->raw_size);
	if (t & PERF_SAMPLE_BRANCH_STACK) {
		P(",\"branches\":[");
		for (uint64_t i = 0; i < x->branch_nr; i++) {
			char fl[96];
			perfev_branch_flags_str(fl, sizeof(fl), x->branches[i].flags);
			P("%s{\"from\":\"0x%llx\",\"to\":\"0x%llx\",\"flags\":\"%s\"}", i ? "," : "",
			  (unsigned long long)x->branches[i].from, (unsigned long long)x->branches[i].to, fl);
		}
		P("]");
	}
	if (t & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT)) kv_u(b, "weight", x->weight);
	if (t & PERF_SAMPLE_DATA_SRC) {
		char d[160];
		perfev_data_src_str(d, sizeof(d), x->data_src);
		kv_s(b, "data_src", d);
	}
	if (t & PERF_SAMPLE_TRANSACTION) {
		char d[160];
		perfev_transaction_str(d, sizeof(d), x->transaction);
		kv_s(b, "transaction", d);
	}
	if (t & PERF_SAMPLE_PHYS_ADDR) kv_x(b, "phys_addr", x->phys_addr);
	if (t & PERF_SAMPLE_CGROUP) kv_u(b, "cgroup", x->cgroup);
	if (t & PERF_SAMPLE_DATA_PAGE_SIZE) kv_u(b, "data_page_size", x->data_page_size);
	if (t & PERF_SAMPLE_CODE_PAGE_SIZE) kv_u(b, "code_page_size", x->code_page_size);
	if (t & PERF_SAMPLE_STACK_USER) kv_u(b, "stack_user_size", x->stack_user_size);
	if (t & PERF_SAMPLE_AUX) kv_u(b, "aux_size", x->aux_size);
}

void pv_script_json(struct pv_script *s, const struct perfev_record *r)
{
	struct pv_buf *b = &s->line;
	pv_buf_reset(b);
	char misc[96];
	perfev_misc_str(misc, sizeof(misc), r->type, r->misc);
	P("{\"type\":\"%s\",\"misc\":\"%s\"", perfev_record_type_name(r->type), misc);
	switch (r->type) {
	case PERF_RECORD_SAMPLE:
		sample_json(s, b, r);
		break;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		kv_u(b, "pid", r->u.mmap.pid);
		kv_u(b, "tid", r->u.mmap.tid);
		kv_x(b, "start", r->u.mmap.addr);
		kv_x(b, "len", r->u.mmap.len);
		kv_x(b, "pgoff", r->u.mmap.pgoff);
		if (r->type == PERF_RECORD_MMAP2 && (r->misc & PERF_RECORD_MISC_MMAP_BUILD_ID)) {
			char hex[41] = "";
			for (unsigned i = 0; i < r->u.mmap.build_id_size && i < 20; i++)
				snprintf(hex + 2 * i, 3, "%02x", r->u.mmap.build_id[i]);
			kv_s(b, "build_id", hex);
		} else if (r->type == PERF_RECORD_MMAP2) {
			kv_u(b, "maj", r->u.mmap.maj);
			kv_u(b, "min", r->u.mmap.min);
			kv_u(b, "ino", r->u.mmap.ino);
		}
		if (r->type == PERF_RECORD_MMAP2) {
			kv_u(b, "prot", r->u.mmap.prot);
			kv_u(b, "flags", r->u.mmap.flags);
		}
		kv_s(b, "filename", r->u.mmap.filename);
		break;
	case PERF_RECORD_COMM:
		kv_u(b, "pid", r->u.comm.pid);
		kv_u(b, "tid", r->u.comm.tid);
		kv_s(b, "comm", r->u.comm.comm);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		kv_u(b, "pid", r->u.fork.pid);
		kv_u(b, "ppid", r->u.fork.ppid);
		kv_u(b, "tid", r->u.fork.tid);
		kv_u(b, "ptid", r->u.fork.ptid);
		kv_u(b, "time", r->u.fork.time);
		break;
	case PERF_RECORD_LOST:
		kv_u(b, "id", r->u.lost.id);
		kv_u(b, "lost", r->u.lost.lost);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		kv_u(b, "lost", r->u.lost_samples.lost);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		kv_u(b, "time", r->u.throttle.time);
		kv_u(b, "id", r->u.throttle.id);
		break;
	case PERF_RECORD_SWITCH_CPU_WIDE:
		kv_u(b, "next_prev_pid", r->u.switch_cpu_wide.next_prev_pid);
		kv_u(b, "next_prev_tid", r->u.switch_cpu_wide.next_prev_tid);
		break;
	case PERF_RECORD_AUX:
		kv_u(b, "aux_offset", r->u.aux.aux_offset);
		kv_u(b, "aux_size", r->u.aux.aux_size);
		kv_u(b, "flags", r->u.aux.flags);
		break;
	case PERF_RECORD_KSYMBOL:
		kv_x(b, "addr", r->u.ksymbol.addr);
		kv_u(b, "len", r->u.ksymbol.len);
		kv_s(b, "name", r->u.ksymbol.name);
		break;
	case PERF_RECORD_CGROUP:
		kv_u(b, "id", r->u.cgroup.id);
		kv_s(b, "path", r->u.cgroup.path);
		break;
	case PERFEV_RECORD_HEADER_BUILD_ID: {
		char hex[41] = "";
		for (unsigned i = 0; i < r->u.build_id.size && i < 20; i++)
			snprintf(hex + 2 * i, 3, "%02x", r->u.build_id.build_id[i]);
		P(",\"pid\":%d", r->u.build_id.pid);
		kv_s(b, "build_id", hex);
		kv_s(b, "filename", r->u.build_id.filename);
		break;
	}
	case PERFEV_RECORD_HEADER_ATTR:
		kv_u(b, "attr_type", r->u.header_attr.attr->type);
		kv_x(b, "config", r->u.header_attr.attr->config);
		kv_u(b, "nr_ids", r->u.header_attr.nr_ids);
		break;
	case PERFEV_RECORD_HEADER_FEATURE:
		kv_s(b, "feature", perfev_feat_name((int)r->u.feature.feat_id));
		break;
	case PERFEV_RECORD_TIME_CONV:
		kv_u(b, "time_shift", r->u.time_conv.time_shift);
		kv_u(b, "time_mult", r->u.time_conv.time_mult);
		kv_u(b, "time_zero", r->u.time_conv.time_zero);
		break;
	default:
		break;
	}
	if (r->has_sid && r->type != PERF_RECORD_SAMPLE) {
		P(",\"sample_id\":{\"pid\":%u,\"tid\":%u,\"time\":%llu,\"cpu\":%u,\"id\":%llu}", r->sid.pid, r->sid.tid,
		  (unsigned long long)r->sid.time, r->sid.cpu,
		  (unsigned long long)(r->sid.id ? r->sid.id : r->sid.identifier));
	}
	P("}\n");
	fwrite(b->data, 1, b->len, s->out);
}
