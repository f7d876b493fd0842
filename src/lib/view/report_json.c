/* report_out.c — perfev report's output: perf report --stdio's table
 * (Overhead or Children/Self, then one column per sort key), call graphs in
 * perf's graph style, and the same entries as JSON. */
#define _GNU_SOURCE
#include "view/report_int.h"
#include "core/internal.h"
#include "export/export_int.h"
#include "profile/profile_int.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int pv_report_print_json(const struct perfev_profile *p, const struct pv_report_view *v, FILE *out)
{
	struct perfev_profile_entry *e;
	size_t nr;
	if (perfev_profile_flat(p, v->key_mask | PERFEV_KEY_SPLIT_UNRESOLVED, v->value, v->children,
				v->percent_limit, &e, &nr) < 0)
		return -errno;
	uint64_t all = perfev_profile_total(p, v->value);
	struct pv_buf b = PV_BUF_INIT;
	pv_buf_puts(&b, "{\"event\":");
	pv_buf_json_str(&b, v->event_name ? v->event_name : "unknown");
	pv_buf_printf(&b, ",\"samples\":%llu,\"period\":%llu,\"lost\":%llu,\"children\":%s,\"entries\":[",
		      (unsigned long long)perfev_profile_total(p, PERFEV_VALUE_SAMPLES),
		      (unsigned long long)perfev_profile_total(p, PERFEV_VALUE_PERIOD),
		      (unsigned long long)v->lost, v->children ? "true" : "false");
	char buf[64];
	for (size_t i = 0; i < nr; i++) {
		pv_buf_printf(&b, "%s\n{\"overhead\":%.4f,\"self\":%.4f,\"children\":%.4f,"
			      "\"samples\":%llu,\"period\":%llu", i ? "," : "",
			      pv_report_pct(v->children ? e[i].total[v->value] : e[i].self[v->value], all),
			      pv_report_pct(e[i].self[v->value], all), pv_report_pct(e[i].total[v->value], all),
			      (unsigned long long)e[i].self[PERFEV_VALUE_SAMPLES],
			      (unsigned long long)e[i].self[PERFEV_VALUE_PERIOD]);
		if (v->key_mask & (PERFEV_KEY_COMM | PERFEV_KEY_PID | PERFEV_KEY_TID)) {
			pv_buf_puts(&b, ",\"comm\":");
			pv_buf_json_str(&b, e[i].comm ? e[i].comm : "[unknown]");
		}
		if (v->key_mask & PERFEV_KEY_PID)
			pv_buf_printf(&b, ",\"pid\":%d", e[i].pid);
		if (v->key_mask & PERFEV_KEY_TID)
			pv_buf_printf(&b, ",\"tid\":%d", e[i].tid);
		if (v->key_mask & PERFEV_KEY_CPU)
			pv_buf_printf(&b, ",\"cpu\":%d", e[i].cpu);
		if (v->key_mask & PERFEV_KEY_SOCKET)
			pv_buf_printf(&b, ",\"socket\":%d", e[i].socket);
		if (v->key_mask & PERFEV_KEY_DSO_SIZE)
			pv_buf_printf(&b, ",\"dso_size\":%lld", (long long)e[i].dso_size);
		if (v->key_mask & PERFEV_KEY_SYM_SIZE)
			pv_buf_printf(&b, ",\"symbol_size\":%lld", (long long)e[i].sym_size);
		if (v->key_mask & PERFEV_KEY_WEIGHT)
			pv_buf_printf(&b, ",\"local_weight\":%llu", (unsigned long long)e[i].weight);
		if (v->key_mask & PERFEV_KEY_INS_LAT)
			pv_buf_printf(&b, ",\"local_ins_lat\":%llu", (unsigned long long)e[i].ins_lat);
		if (v->key_mask & PERFEV_KEY_TIME)
			pv_buf_printf(&b, ",\"time\":%llu", (unsigned long long)e[i].time);
		if (v->key_mask & PERFEV_KEY_ADDR)
			pv_buf_printf(&b, ",\"addr\":%llu", (unsigned long long)e[i].addr);
		if (v->key_mask & PV_REPORT_MEM_KEYS) {
			const struct perfev_mem_access *m = &e[i].mem;
			pv_buf_printf(&b, ",\"data_src\":%llu,\"daddr\":%llu,\"phys_daddr\":%llu,\"data_page_size\":%llu"
				      ",\"dso_daddr\":", (unsigned long long)m->data_src, (unsigned long long)m->addr,
				      (unsigned long long)m->phys_addr, (unsigned long long)m->data_page_size);
			if (m->dso)
				pv_buf_json_str(&b, m->dso);
			else
				pv_buf_puts(&b, "null");
		}
		if (e[i].dso) {
			pv_buf_puts(&b, ",\"dso\":");
			pv_buf_json_str(&b, e[i].dso);
		}
		if (v->key_mask & PERFEV_KEY_SYM) {
			pv_buf_puts(&b, ",\"symbol\":");
			if (e[i].symbol) {
				pv_buf_json_str(&b, e[i].symbol);
			} else {
				snprintf(buf, sizeof(buf), "0x%016llx", (unsigned long long)pv_report_shown_ip(&e[i]));
				pv_buf_json_str(&b, buf);
			}
			pv_buf_printf(&b, ",\"kernel\":%s", e[i].kernel ? "true" : "false");
		}
		if (v->key_mask & PERFEV_KEY_SRCFILE) {
			pv_buf_puts(&b, ",\"srcfile\":");
			pv_buf_json_str(&b, e[i].source_file ? e[i].source_file : "");
		}
		if (v->key_mask & PERFEV_KEY_SRCLINE) {
			pv_buf_puts(&b, ",\"srcline\":");
			if (e[i].srcfile) {
				pv_buf_json_str(&b, e[i].srcfile);
				pv_buf_printf(&b, ",\"line\":%u", e[i].line);
			} else {
				pv_buf_puts(&b, "null");
			}
		}
		pv_buf_putc(&b, '}');
	}
	pv_buf_puts(&b, "\n]}\n");
	free(e);
	return pv_export_write(&b, out, "report JSON");
}

