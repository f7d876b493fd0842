/* record_encode.c — struct perfev_record back into the bytes the kernel or perf writes. */
#define _GNU_SOURCE
#include "record/record_int.h"
#include "perfev.h"

static void wr_cpu_map(struct pv_wr *w, uint16_t type, uint32_t nr, const uint32_t *cpus)
{
	/* Written as a plain list (PERF_CPU_MAP__CPUS) whatever it was read as. */
	(void)type;
	wr_u16(w, 0);
	wr_u16(w, (uint16_t)nr);
	for (uint32_t i = 0; i < nr; i++)
		wr_u16(w, (uint16_t)cpus[i]);
	wr_pad8(w);
}

static int encode_body(struct pv_wr *w, const struct perfev_record *r, const struct perfev_attr *a)
{
	switch (r->type) {
	case PERF_RECORD_SAMPLE:
		if (!a)
			return pv_error(EINVAL, "encoding a sample needs its attr");
		pv_encode_sample(w, a, &r->u.sample);
		return 0;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		wr_u32(w, r->u.mmap.pid);
		wr_u32(w, r->u.mmap.tid);
		wr_u64(w, r->u.mmap.addr);
		wr_u64(w, r->u.mmap.len);
		wr_u64(w, r->u.mmap.pgoff);
		if (r->type == PERF_RECORD_MMAP2) {
			if (r->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
				wr_u8(w, r->u.mmap.build_id_size);
				wr_zero(w, 3);
				wr_bytes(w, r->u.mmap.build_id, 20);
			} else {
				wr_u32(w, r->u.mmap.maj);
				wr_u32(w, r->u.mmap.min);
				wr_u64(w, r->u.mmap.ino);
				wr_u64(w, r->u.mmap.ino_generation);
			}
			wr_u32(w, r->u.mmap.prot);
			wr_u32(w, r->u.mmap.flags);
		}
		wr_str(w, r->u.mmap.filename);
		break;
	case PERF_RECORD_LOST:
		wr_u64(w, r->u.lost.id);
		wr_u64(w, r->u.lost.lost);
		break;
	case PERF_RECORD_COMM:
		wr_u32(w, r->u.comm.pid);
		wr_u32(w, r->u.comm.tid);
		wr_str(w, r->u.comm.comm);
		break;
	case PERF_RECORD_EXIT:
	case PERF_RECORD_FORK:
		wr_u32(w, r->u.fork.pid);
		wr_u32(w, r->u.fork.ppid);
		wr_u32(w, r->u.fork.tid);
		wr_u32(w, r->u.fork.ptid);
		wr_u64(w, r->u.fork.time);
		break;
	case PERF_RECORD_THROTTLE:
	case PERF_RECORD_UNTHROTTLE:
		wr_u64(w, r->u.throttle.time);
		wr_u64(w, r->u.throttle.id);
		wr_u64(w, r->u.throttle.stream_id);
		break;
	case PERF_RECORD_READ:
		if (!a)
			return pv_error(EINVAL, "encoding a READ record needs its attr");
		wr_u32(w, r->u.read.pid);
		wr_u32(w, r->u.read.tid);
		pv_encode_read(w, a->read_format, &r->u.read.values);
		break;
	case PERF_RECORD_AUX:
		wr_u64(w, r->u.aux.aux_offset);
		wr_u64(w, r->u.aux.aux_size);
		wr_u64(w, r->u.aux.flags);
		break;
	case PERF_RECORD_ITRACE_START:
		wr_u32(w, r->u.itrace_start.pid);
		wr_u32(w, r->u.itrace_start.tid);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		wr_u64(w, r->u.lost_samples.lost);
		break;
	case PERF_RECORD_SWITCH:
		break;
	case PERF_RECORD_SWITCH_CPU_WIDE:
		wr_u32(w, r->u.switch_cpu_wide.next_prev_pid);
		wr_u32(w, r->u.switch_cpu_wide.next_prev_tid);
		break;
	case PERF_RECORD_NAMESPACES:
		wr_u32(w, r->u.namespaces.pid);
		wr_u32(w, r->u.namespaces.tid);
		wr_u64(w, r->u.namespaces.nr);
		wr_bytes(w, r->u.namespaces.dev_inode, r->u.namespaces.nr * 16);
		break;
	case PERF_RECORD_KSYMBOL:
		wr_u64(w, r->u.ksymbol.addr);
		wr_u32(w, r->u.ksymbol.len);
		wr_u16(w, r->u.ksymbol.ksym_type);
		wr_u16(w, r->u.ksymbol.flags);
		wr_str(w, r->u.ksymbol.name);
		break;
	case PERF_RECORD_BPF_EVENT:
		wr_u16(w, r->u.bpf_event.type);
		wr_u16(w, r->u.bpf_event.flags);
		wr_u32(w, r->u.bpf_event.id);
		wr_bytes(w, r->u.bpf_event.tag, 8);
		break;
	case PERF_RECORD_CGROUP:
		wr_u64(w, r->u.cgroup.id);
		wr_str(w, r->u.cgroup.path);
		break;
	case PERF_RECORD_TEXT_POKE:
		wr_u64(w, r->u.text_poke.addr);
		wr_u16(w, r->u.text_poke.old_len);
		wr_u16(w, r->u.text_poke.new_len);
		wr_bytes(w, r->u.text_poke.bytes, (size_t)r->u.text_poke.old_len + r->u.text_poke.new_len);
		wr_pad8(w);
		break;
	case PERF_RECORD_AUX_OUTPUT_HW_ID:
		wr_u64(w, r->u.aux_output_hw_id.hw_id);
		break;

	case PERFEV_RECORD_HEADER_ATTR: {
		const struct perfev_attr *at = r->u.header_attr.attr;
		if (!at)
			return pv_error(EINVAL, "HEADER_ATTR without an attr");
		uint32_t sz = r->u.header_attr.attr_size ? r->u.header_attr.attr_size : at->size;
		if (!sz || sz > sizeof(*at))
			sz = sizeof(*at);
		struct perfev_attr copy = *at;
		copy.size = sz;
		wr_bytes(w, &copy, sz);
		wr_bytes(w, r->u.header_attr.ids, r->u.header_attr.nr_ids * 8);
		return 0;
	}
	case PERFEV_RECORD_HEADER_TRACING_DATA:
		wr_u32(w, r->u.tracing_data.size);
		wr_pad8(w);
		return 0;
	case PERFEV_RECORD_HEADER_BUILD_ID: {
		wr_u32(w, (uint32_t)r->u.build_id.pid);
		wr_bytes(w, r->u.build_id.build_id, 20);
		wr_u8(w, r->u.build_id.size);
		wr_zero(w, 3);
		wr_str(w, r->u.build_id.filename);
		return 0;
	}
	case PERFEV_RECORD_FINISHED_ROUND:
	case PERFEV_RECORD_FINISHED_INIT:
		return 0;
	case PERFEV_RECORD_ID_INDEX:
		wr_u64(w, r->u.id_index.nr);
		wr_bytes(w, r->u.id_index.entries, r->u.id_index.nr * 32);
		return 0;
	case PERFEV_RECORD_AUXTRACE_INFO:
		wr_u32(w, r->u.auxtrace_info.type);
		wr_u32(w, 0);
		wr_bytes(w, r->u.auxtrace_info.priv, r->u.auxtrace_info.nr_priv * 8);
		return 0;
	case PERFEV_RECORD_AUXTRACE:
		wr_u64(w, r->u.auxtrace.size);
		wr_u64(w, r->u.auxtrace.offset);
		wr_u64(w, r->u.auxtrace.reference);
		wr_u32(w, r->u.auxtrace.idx);
		wr_u32(w, r->u.auxtrace.tid);
		wr_u32(w, r->u.auxtrace.cpu);
		wr_u32(w, 0);
		return 0;
	case PERFEV_RECORD_AUXTRACE_ERROR: {
		const struct perfev_record *e = r;
		wr_u32(w, e->u.auxtrace_error.type);
		wr_u32(w, e->u.auxtrace_error.code);
		wr_u32(w, e->u.auxtrace_error.cpu);
		wr_u32(w, e->u.auxtrace_error.pid);
		wr_u32(w, e->u.auxtrace_error.tid);
		wr_u32(w, e->u.auxtrace_error.fmt);
		wr_u64(w, e->u.auxtrace_error.ip);
		wr_u64(w, e->u.auxtrace_error.time);
		char msg[64] = {0};
		if (e->u.auxtrace_error.msg)
			strncpy(msg, e->u.auxtrace_error.msg, sizeof(msg) - 1);
		wr_bytes(w, msg, 64);
		if (e->u.auxtrace_error.fmt >= 2) {
			wr_u32(w, e->u.auxtrace_error.machine_pid);
			wr_u32(w, e->u.auxtrace_error.vcpu);
		}
		return 0;
	}
	case PERFEV_RECORD_THREAD_MAP:
		wr_u64(w, r->u.thread_map.nr);
		for (uint64_t i = 0; i < r->u.thread_map.nr; i++) {
			wr_u64(w, r->u.thread_map.pids[i]);
			char comm[16] = {0};
			if (r->u.thread_map.comms)
				strncpy(comm, r->u.thread_map.comms + i * 16, 15);
			wr_bytes(w, comm, 16);
		}
		return 0;
	case PERFEV_RECORD_CPU_MAP:
		wr_cpu_map(w, r->u.cpu_map.type, r->u.cpu_map.nr, r->u.cpu_map.cpus);
		return 0;
	case PERFEV_RECORD_STAT_CONFIG:
		wr_u64(w, r->u.stat_config.nr);
		wr_bytes(w, r->u.stat_config.tag_val, r->u.stat_config.nr * 16);
		return 0;
	case PERFEV_RECORD_STAT:
		wr_u64(w, r->u.stat.id);
		wr_u32(w, r->u.stat.cpu);
		wr_u32(w, r->u.stat.thread);
		wr_u64(w, r->u.stat.val);
		wr_u64(w, r->u.stat.ena);
		wr_u64(w, r->u.stat.run);
		return 0;
	case PERFEV_RECORD_STAT_ROUND:
		wr_u64(w, r->u.stat_round.type);
		wr_u64(w, r->u.stat_round.time);
		return 0;
	case PERFEV_RECORD_EVENT_UPDATE: {
		uint64_t t = r->u.event_update.type;
		wr_u64(w, t);
		wr_u64(w, r->u.event_update.id);
		if (t == 0 || t == 2)
			wr_str(w, r->u.event_update.str);
		else if (t == 1)
			wr_bytes(w, &r->u.event_update.scale, 8);
		else if (t == 3)
			wr_cpu_map(w, 0, r->u.event_update.nr_cpus, r->u.event_update.cpus);
		return 0;
	}
	case PERFEV_RECORD_TIME_CONV:
		wr_u64(w, r->u.time_conv.time_shift);
		wr_u64(w, r->u.time_conv.time_mult);
		wr_u64(w, r->u.time_conv.time_zero);
		if (r->u.time_conv.extended) {
			wr_u64(w, r->u.time_conv.time_cycles);
			wr_u64(w, r->u.time_conv.time_mask);
			wr_u8(w, r->u.time_conv.cap_user_time_zero);
			wr_u8(w, r->u.time_conv.cap_user_time_short);
			wr_zero(w, 6);
		}
		return 0;
	case PERFEV_RECORD_HEADER_FEATURE:
		wr_u64(w, r->u.feature.feat_id);
		wr_bytes(w, r->u.feature.data, r->u.feature.size);
		wr_pad8(w);
		return 0;
	case PERFEV_RECORD_COMPRESSED:
		wr_bytes(w, r->u.compressed.data, r->u.compressed.data_size);
		return 0;
	case PERFEV_RECORD_COMPRESSED2:
		wr_u64(w, r->u.compressed.data_size);
		wr_bytes(w, r->u.compressed.data, r->u.compressed.data_size);
		wr_pad8(w);
		return 0;
	default:
		/* unknown types: their bytes as given */
		if (r->bytes && r->size >= 8) {
			wr_bytes(w, (const uint8_t *)r->bytes + 8, r->size - 8u);
			return 0;
		}
		return pv_error(EINVAL, "cannot encode a record of unknown type %u", r->type);
	}
	pv_encode_sid(w, a, &r->sid);
	return 0;
}

PERFEV_API int perfev_record_encode(const struct perfev_record *r, const struct perfev_attr *a, void *buf,
				    size_t cap)
{
	struct pv_wr w = {buf, cap, 8};
	int err = encode_body(&w, r, a);
	if (err < 0)
		return err;
	if (w.len > 0xffff)
		return pv_error(EINVAL, "a %s record of %zu bytes does not fit the 16-bit size field",
				perfev_record_type_name(r->type), w.len);
	if (w.len > cap)
		return pv_error(ENOSPC, "encoding a %s record needs %zu bytes, the buffer has %zu",
				perfev_record_type_name(r->type), w.len, cap);
	uint16_t size = (uint16_t)w.len;
	memcpy(buf, &r->type, 4);
	memcpy((uint8_t *)buf + 4, &r->misc, 2);
	memcpy((uint8_t *)buf + 6, &size, 2);
	return size;
}
