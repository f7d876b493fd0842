/* The attr layout equals the kernel's, field by field. */
#include "support.h"
#include "perfev.h"
#include <string.h>

Test(unit_abi, attr_size_is_latest)
{
	cr_assert_eq(sizeof(struct perfev_attr), PERF_ATTR_SIZE_VER8);
	cr_assert_eq(offsetof(struct perfev_attr, config3), PERF_ATTR_SIZE_VER7);
	cr_assert_eq(offsetof(struct perfev_attr, sig_data), PERF_ATTR_SIZE_VER6);
	cr_assert_eq(offsetof(struct perfev_attr, aux_sample_size), PERF_ATTR_SIZE_VER5);
	cr_assert_eq(offsetof(struct perfev_attr, aux_action), PERF_ATTR_SIZE_VER5 + 4);
	cr_assert_eq(offsetof(struct perfev_attr, sample_regs_intr), PERF_ATTR_SIZE_VER3);
	cr_assert_eq(offsetof(struct perfev_attr, branch_sample_type), PERF_ATTR_SIZE_VER1);
	cr_assert_eq(offsetof(struct perfev_attr, config2), PERF_ATTR_SIZE_VER0);
}

#define SAME_FIELD(f)                                                                  \
	cr_assert_eq(offsetof(struct perfev_attr, f), offsetof(struct perf_event_attr, f), \
		     "offset of " #f)

Test(unit_abi, attr_matches_system_header)
{
	SAME_FIELD(config);
	SAME_FIELD(sample_type);
	SAME_FIELD(read_format);
	SAME_FIELD(wakeup_events);
	SAME_FIELD(bp_type);
	SAME_FIELD(config1);
	SAME_FIELD(config2);
	SAME_FIELD(sample_regs_user);
	SAME_FIELD(sample_stack_user);
	SAME_FIELD(clockid);
	SAME_FIELD(aux_watermark);
	SAME_FIELD(sample_max_stack);
	SAME_FIELD(aux_sample_size);
	SAME_FIELD(sig_data);
}

/* Each bit-field lands on the same bit as in the system's header. */
#define SAME_BIT(f, v)                                                      \
	do {                                                                \
		struct perfev_attr a;                                       \
		struct perf_event_attr k;                                   \
		memset(&a, 0, sizeof(a));                                   \
		memset(&k, 0, sizeof(k));                                   \
		a.f = v;                                                    \
		k.f = v;                                                    \
		cr_assert(memcmp(&a, &k, sizeof(k)) == 0, "bit-field " #f); \
	} while (0)

Test(unit_abi, bitfields_match_system_header)
{
	SAME_BIT(disabled, 1);
	SAME_BIT(exclude_kernel, 1);
	SAME_BIT(precise_ip, 2);
	SAME_BIT(precise_ip, 3);
	SAME_BIT(sample_id_all, 1);
	SAME_BIT(exclude_guest, 1);
	SAME_BIT(mmap2, 1);
	SAME_BIT(context_switch, 1);
	SAME_BIT(write_backward, 1);
	SAME_BIT(cgroup, 1);
	SAME_BIT(build_id, 1);
	SAME_BIT(remove_on_exec, 1);
	SAME_BIT(sigtrap, 1);
}
