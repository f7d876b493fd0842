/* script_side.c — side-band records (COMM, FORK, EXIT, MMAP, MMAP2, SWITCH,
 * LOST, ...) as perf script prints them with --show-*-events. */
#define _GNU_SOURCE
#include "view/script_int.h"

#include <string.h>
#include <sys/mman.h>

#define P(...) pv_buf_printf(&s->line, __VA_ARGS__)

static bool wanted(const struct perfev_script_opts *o, uint32_t type)
{
	switch (type) {
	case PERF_RECORD_COMM:
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return o->show_task_events;
	case PERF_RECORD_MMAP:
	case PERF_RECORD_MMAP2:
		return o->show_mmap_events;
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE:
		return o->show_switch_events;
	case PERF_RECORD_NAMESPACES:
		return o->show_namespace_events;
	case PERF_RECORD_LOST: /* perf does not show LOST_SAMPLES */
		return o->show_lost_events;
	case PERFEV_RECORD_FINISHED_ROUND:
		return o->show_round_events;
	default:
		return false;
	}
}

void pv_script_side(struct pv_script *s, const struct perfev_record *r)
{
	if (!wanted(s->o, r->type))
		return;
	pv_buf_reset(&s->line);
	if (r->type != PERFEV_RECORD_FINISHED_ROUND) {
		struct perfev_decoder *dec = perfev_perfdata_decoder(s->pd);
		int idx = r->attr_idx >= 0 ? r->attr_idx : 0;
		const struct perfev_attr *a = perfev_decoder_nr_attrs(dec) ? perfev_decoder_attr(dec, idx) : NULL;
		uint32_t pid = r->sid.pid, tid = r->sid.tid, cpu = r->sid.cpu;
		uint64_t time = r->sid.time;
		uint32_t rtid = tid;
		switch (r->type) {
		case PERF_RECORD_COMM: rtid = r->u.comm.tid; pid = a && !a->sample_id_all ? r->u.comm.pid : pid; break;
		case PERF_RECORD_MMAP:
		case PERF_RECORD_MMAP2: rtid = r->u.mmap.tid; pid = a && !a->sample_id_all ? r->u.mmap.pid : pid; break;
		case PERF_RECORD_FORK:
		case PERF_RECORD_EXIT: rtid = r->u.fork.tid; pid = a && !a->sample_id_all ? r->u.fork.pid : pid; break;
		case PERF_RECORD_NAMESPACES:
			rtid = r->u.namespaces.tid;
			pid = a && !a->sample_id_all ? r->u.namespaces.pid : pid;
			break;
		default: break;
		}
		/* -C: a record with its CPU (sample_id_all and PERF_SAMPLE_CPU) is filtered by it */
		if (!pv_script_cpu_shown(s, a && a->sample_id_all && (a->sample_type & PERF_SAMPLE_CPU) ? cpu : UINT32_MAX))
			return;
		if (a && !a->sample_id_all) {
			cpu = 0;
			tid = rtid;
			time = (r->type == PERF_RECORD_FORK || r->type == PERF_RECORD_EXIT) ? r->u.fork.time : 0;
		}
		if (a) {
			uint32_t f = s->fields[pv_out_type(a->type)] & (F_COMM | F_PID | F_TID | F_CPU | F_MISC | F_TIME);
			/* the name shown is the record's thread's */
			uint32_t save = f & F_COMM;
			if (save) {
				bool wide = (s->fields[pv_out_type(a->type)] & F_IP) && (a->sample_type & PERF_SAMPLE_CALLCHAIN);
				P(s->o->latency ? "%8.8s " : wide ? "%s " : "%16s ", perfev_session_comm(s->session, rtid));
				f &= ~(uint32_t)F_COMM;
			}
			pv_script_start(s, r, f, pid, tid, time, cpu, false);
		}
	}
	P("PERF_RECORD_%s", perfev_record_type_name(r->type));
	switch (r->type) {
	case PERF_RECORD_COMM:
		P("%s: %s:%d/%d\n", (r->misc & PERF_RECORD_MISC_COMM_EXEC) ? " exec" : "",
		  r->u.comm.comm ? r->u.comm.comm : "", (int)r->u.comm.pid, (int)r->u.comm.tid);
		break;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		P("(%d:%d):(%d:%d)\n", (int)r->u.fork.pid, (int)r->u.fork.tid, (int)r->u.fork.ppid, (int)r->u.fork.ptid);
		break;
	case PERF_RECORD_MMAP:
		P(" %d/%d: [%#llx(%#llx) @ %#llx]: %c %s\n", (int)r->u.mmap.pid, (int)r->u.mmap.tid,
		  (unsigned long long)r->u.mmap.addr, (unsigned long long)r->u.mmap.len,
		  (unsigned long long)r->u.mmap.pgoff, (r->misc & PERF_RECORD_MISC_MMAP_DATA) ? 'r' : 'x',
		  r->u.mmap.filename ? r->u.mmap.filename : "");
		break;
	case PERF_RECORD_MMAP2: {
		uint32_t prot = r->u.mmap.prot;
		char perm[5] = {prot & PROT_READ ? 'r' : '-', prot & PROT_WRITE ? 'w' : '-',
				prot & PROT_EXEC ? 'x' : '-', r->u.mmap.flags & MAP_SHARED ? 's' : 'p', 0};
		P(" %d/%d: [%#llx(%#llx) @ %#llx ", (int)r->u.mmap.pid, (int)r->u.mmap.tid,
		  (unsigned long long)r->u.mmap.addr, (unsigned long long)r->u.mmap.len,
		  (unsigned long long)r->u.mmap.pgoff);
		if (r->misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			P("<");
			for (unsigned i = 0; i < r->u.mmap.build_id_size; i++)
				P("%02x", r->u.mmap.build_id[i]);
			P(">");
		} else {
			P("%02x:%02x %llu %llu", r->u.mmap.maj, r->u.mmap.min, (unsigned long long)r->u.mmap.ino,
			  (unsigned long long)r->u.mmap.ino_generation);
		}
		P("]: %s %s\n", perm, r->u.mmap.filename ? r->u.mmap.filename : "");
		break;
	}
	case PERF_RECORD_SWITCH:
	case PERF_RECORD_SWITCH_CPU_WIDE: {
		bool out = r->misc & PERF_RECORD_MISC_SWITCH_OUT;
		const char *io = !out ? "IN         " : !(r->misc & PERF_RECORD_MISC_SWITCH_OUT_PREEMPT) ? "OUT        "
												: "OUT preempt";
		if (r->type == PERF_RECORD_SWITCH)
			P(" %s\n", io);
		else
			P(" %s  %s pid/tid: %5d/%-5d\n", io, out ? "next" : "prev", (int)r->u.switch_cpu_wide.next_prev_pid,
			  (int)r->u.switch_cpu_wide.next_prev_tid);
		break;
	}
	case PERF_RECORD_LOST:
		P(" lost %llu\n", (unsigned long long)r->u.lost.lost);
		break;
	case PERF_RECORD_LOST_SAMPLES:
		P(" lost %llu\n", (unsigned long long)r->u.lost_samples.lost);
		break;
	case PERF_RECORD_NAMESPACES: {
		static const char *const ns[] = {"net", "uts", "ipc", "pid", "user", "mnt", "cgroup"};
		uint32_t nr = (uint32_t)r->u.namespaces.nr;
		P(" %d/%d - nr_namespaces: %u\n\t\t[", (int)r->u.namespaces.pid, (int)r->u.namespaces.tid, nr);
		for (uint32_t i = 0; i < nr; i++) {
			if (i && i % 4 == 0)
				P("\n\t\t ");
			P("%u/%s: %llu/%#llx%s", i, i < 7 ? ns[i] : "UNKNOWN",
			  (unsigned long long)r->u.namespaces.dev_inode[2 * i],
			  (unsigned long long)r->u.namespaces.dev_inode[2 * i + 1], i + 1 != nr ? ", " : "]\n");
		}
		break;
	}
	default:
		P("\n");
	}
	fwrite(s->line.data, 1, s->line.len, s->out);
}
