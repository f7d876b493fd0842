/* attr_json.c — a perf_event_attr as a JSON object with the kernel's field names. */
#define _GNU_SOURCE
#include "core/internal.h"
#include "perfev/event.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

static void field(struct pv_buf *b, const char *name, uint64_t v)
{
	pv_buf_printf(b, "%s\"%s\": %" PRIu64, b->len > 1 ? ", " : "", name, v);
}

PERFEV_API char *perfev_attr_to_json(const struct perfev_attr *a)
{
	struct pv_buf b = PV_BUF_INIT;
	pv_buf_putc(&b, '{');
	field(&b, "type", a->type);
	field(&b, "size", a->size);
	field(&b, "config", a->config);
	field(&b, a->freq ? "sample_freq" : "sample_period", a->sample_period);
	field(&b, "sample_type", a->sample_type);
	field(&b, "read_format", a->read_format);
#define BIT(f) field(&b, #f, a->f)
	BIT(disabled); BIT(inherit); BIT(pinned); BIT(exclusive);
	BIT(exclude_user); BIT(exclude_kernel); BIT(exclude_hv); BIT(exclude_idle);
	BIT(mmap); BIT(comm); BIT(freq); BIT(inherit_stat); BIT(enable_on_exec);
	BIT(task); BIT(watermark); BIT(precise_ip); BIT(mmap_data); BIT(sample_id_all);
	BIT(exclude_host); BIT(exclude_guest); BIT(exclude_callchain_kernel);
	BIT(exclude_callchain_user); BIT(mmap2); BIT(comm_exec); BIT(use_clockid);
	BIT(context_switch); BIT(write_backward); BIT(namespaces); BIT(ksymbol);
	BIT(bpf_event); BIT(aux_output); BIT(cgroup); BIT(text_poke); BIT(build_id);
	BIT(inherit_thread); BIT(remove_on_exec); BIT(sigtrap);
	field(&b, a->watermark ? "wakeup_watermark" : "wakeup_events", a->wakeup_events);
	BIT(bp_type);
	if (a->type == PERF_TYPE_BREAKPOINT) {
		field(&b, "bp_addr", a->bp_addr);
		field(&b, "bp_len", a->bp_len);
	} else {
		field(&b, "config1", a->config1);
		field(&b, "config2", a->config2);
	}
	BIT(branch_sample_type); BIT(sample_regs_user); BIT(sample_stack_user);
	pv_buf_printf(&b, ", \"clockid\": %d", (int)a->clockid);
	BIT(sample_regs_intr); BIT(aux_watermark); BIT(sample_max_stack);
	BIT(aux_sample_size); BIT(aux_start_paused); BIT(aux_pause); BIT(aux_resume);
	BIT(sig_data); BIT(config3);
#undef BIT
	pv_buf_putc(&b, '}');
	if (b.oom) {
		pv_buf_free(&b);
		return pv_error_null(ENOMEM, "out of memory");
	}
	return pv_buf_detach(&b);
}

PERFEV_API char *perfev_evsel_to_json(const struct perfev_evsel *e)
{
	if (!e)
		return pv_error_null(EINVAL, "perfev_evsel_to_json: no event");
	char *json = perfev_attr_to_json(perfev_evsel_attr_const(e));
	if (!json)
		return NULL;
	/* the attr's object, with perfev's details appended as one extra key */
	json[strlen(json) - 1] = 0;
	struct pv_buf b = PV_BUF_INIT;
	pv_buf_printf(&b, "%s, \"perfev\": {\"name\": ", json);
	free(json);
	pv_buf_json_str(&b, perfev_evsel_name(e));
	pv_buf_printf(&b, ", \"index\": %zu, \"leader\": %zu, \"group_name\": ", perfev_evsel_index(e),
		      perfev_evsel_index(perfev_evsel_leader(e)));
	pv_buf_json_str(&b, perfev_evsel_group_name(e) ? perfev_evsel_group_name(e) : "");
	pv_buf_puts(&b, ", \"pmu\": ");
	pv_buf_json_str(&b, perfev_evsel_pmu_name(e) ? perfev_evsel_pmu_name(e) : "");
	pv_buf_printf(&b, ", \"scale\": %.17g, \"unit\": ", perfev_evsel_scale(e));
	pv_buf_json_str(&b, perfev_evsel_unit(e));
	pv_buf_printf(&b, ", \"flags\": %u}}", perfev_evsel_flags(e));
	if (b.oom) {
		pv_buf_free(&b);
		return pv_error_null(ENOMEM, "out of memory");
	}
	return pv_buf_detach(&b);
}
