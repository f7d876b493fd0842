#include "support_profile.h"
#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void add(struct perfev_profile *p, const char *comm, int pid, int tid, uint64_t period,
		const char *const *syms, size_t nr, int times)
{
	static const struct perfev_map exe = {.start = 0x400000, .end = 0x500000, .path = "/usr/bin/app",
					      .build_id = {0xde, 0xad, 0xbe, 0xef}, .build_id_len = 4};
	struct perfev_profile_frame fr[8];
	memset(fr, 0, sizeof(fr));
	for (size_t i = 0; i < nr; i++) {
		/* syms: leaf first; "k:" marks kernel frames, "i:" inlined ones, "" unknown */
		const char *s = syms[i];
		fr[i].dso = "/usr/bin/app";
		fr[i].map = &exe;
		fr[i].ip = 0x401000 + 0x10 * i + strlen(s);
		fr[i].rel_ip = fr[i].ip - 0x400000;
		if (strncmp(s, "k:", 2) == 0) {
			fr[i].kernel = true;
			fr[i].dso = "[kernel.kallsyms]";
			fr[i].map = NULL;
			fr[i].ip = 0xffffffff81000000ull;
			s += 2;
		} else if (strncmp(s, "i:", 2) == 0) {
			fr[i].inlined = true;
			s += 2;
			fr[i].srcfile = "string.h";
			fr[i].line = 42;
		}
		if (*s)
			fr[i].symbol = s;
		else
			fr[i].ip = fr[i].rel_ip = 0x4242;
	}
	for (int t = 0; t < times; t++) {
		struct perfev_sample_desc d = {.sz = sizeof(d), .pid = pid, .tid = tid, .comm = comm,
					       .time = 1000000ull * (unsigned)(t + 1), .period = period,
					       .weight = 7};
		cr_assert_eq(perfev_profile_add(p, &d, fr, nr), 1);
	}
}

void synthetic_add(struct perfev_profile *p, const char *comm, int pid, int tid, uint64_t period,
		   const char *const *syms, size_t nr, int times)
{
	add(p, comm, pid, tid, period, syms, nr, times);
}
#define ADD(p, comm, pid, tid, period, times, ...)                                  \
	do {                                                                         \
		static const char *const s_[] = {__VA_ARGS__};                       \
		add(p, comm, pid, tid, period, s_, sizeof(s_) / sizeof(s_[0]), times); \
	} while (0)

struct perfev_profile *synthetic_profile(enum perfev_profile_group group, unsigned flags)
{
	struct perfev_profile *p = perfev_profile_new(group, flags);
	cr_assert(p);
	ADD(p, "app", 100, 100, 1000, 60, "compute", "work", "main");
	ADD(p, "app", 100, 100, 1000, 10, "i:memcpy", "compute", "work", "main");
	ADD(p, "app", 100, 100, 1000, 20, "idle", "main");
	ADD(p, "app", 100, 100, 1000, 5, "k:sys_write", "work", "main");
	ADD(p, "app", 100, 101, 1000, 4, "compute", "work", "main");
	ADD(p, "app", 100, 101, 1000, 1, "rec", "rec", "rec", "main");
	for (int i = 0; i < 3; i++) {
		struct perfev_sample_desc d = {.sz = sizeof(d), .pid = 200, .tid = 200, .comm = "sh",
					       .time = 5, .period = 500};
		cr_assert_eq(perfev_profile_add(p, &d, NULL, 0), 1);
	}
	ADD(p, "sh", 200, 200, 500, 2, "", "main");
	cr_assert_eq(perfev_profile_total(p, PERFEV_VALUE_SAMPLES), SYNTH_SAMPLES);
	return p;
}

char *profile_folded(const struct perfev_profile *p, enum perfev_profile_value v, bool sorted)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	cr_assert(f);
	struct perfev_export_options eo = {.sz = sizeof(eo), .value = v};
	cr_assert_eq(perfev_export_folded(p, &eo, f), 0, "%s", perfev_errmsg());
	fclose(f);
	if (!sorted)
		return buf;
	char *out = sorted_lines(buf, NULL, NULL);
	free(buf);
	return out;
}
