/* perfev script of a uprobe recording (the uprobe PMU's dynamic type: perf
 * script's "other" output type) against perf script: the default fields are
 * perf's for that type, not the raw PMU's (perfev printed data_src, weight
 * and page-size columns: "0 0 |OP No|LVL N/A|..." and "0 0 0"). */
#define _GNU_SOURCE
#include "support.h"
#include "support_records.h"

#include <stdio.h>

Test(interop_script, uprobe_default_fields_like_perf, .timeout = 120)
{
	require_root();
	require_perf_tool();
	char data[4200];
	snprintf(data, sizeof(data), "%s/uprobe.data", test_tmpdir());
	struct run_result r = run_cmd("%s record -q -e 'u:%s:leaf_a' -o %s -- %s 5 >/dev/null", PERFEV_BIN,
				      WORKLOAD("calls"), data, WORKLOAD("calls"));
	if (r.status != 0)
		cr_skip_test("no uprobe here: %s", r.err);
	run_result_free(&r);
	cr_assert(compare_script(data, NULL), "the default fields differ");
	cr_assert(compare_script(data, "comm,tid,time,event,ip,sym,dso"));
}
