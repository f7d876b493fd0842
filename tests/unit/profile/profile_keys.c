/* The profile's keys beyond the thread and the frame: the sample's CPU
 * (PERFEV_PROFILE_KEEP_CPU + PERFEV_KEY_CPU). */
#include "support.h"
#include "perfev.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* One sample of thread 7 ("app") on cpu, stack leaf..main (leaf first). */
static void add_on(struct perfev_profile *p, int32_t cpu, const char *leaf, uint32_t desc_size)
{
	struct perfev_profile_frame f[2] = {{.symbol = leaf, .dso = "/bin/app", .ip = 0x1000},
					    {.symbol = "main", .dso = "/bin/app", .ip = 0x2000}};
	struct perfev_sample_desc d = {.sz = desc_size, .pid = 7, .tid = 7, .comm = "app", .period = 10,
				       .cpu = cpu};
	cr_assert_eq(perfev_profile_add(p, &d, f, 2), 1, "%s", perfev_errmsg());
}

/* cpu 1: f x3; cpu 0: f x1, g x2 */
static struct perfev_profile *cpu_profile(unsigned flags, uint32_t desc_size)
{
	struct perfev_profile *p = perfev_profile_new(PERFEV_GROUP_THREAD, flags);
	cr_assert(p);
	for (int i = 0; i < 3; i++)
		add_on(p, 1, "f", desc_size);
	add_on(p, 0, "f", desc_size);
	add_on(p, 0, "g", desc_size);
	add_on(p, 0, "g", desc_size);
	return p;
}

static const struct perfev_profile_entry *entry_of(const struct perfev_profile_entry *e, size_t nr, int32_t cpu,
						   const char *sym)
{
	for (size_t i = 0; i < nr; i++)
		if (e[i].cpu == cpu && (!sym || (e[i].symbol && !strcmp(e[i].symbol, sym))))
			return &e[i];
	return NULL;
}

Test(unit_profile, cpu_key_splits_entries_by_cpu)
{
	struct perfev_profile *p = cpu_profile(PERFEV_PROFILE_KEEP_CPU, sizeof(struct perfev_sample_desc));
	struct perfev_profile_entry *e;
	size_t nr;
	cr_assert_eq(perfev_profile_flat(p, PERFEV_KEY_CPU, PERFEV_VALUE_SAMPLES, false, 0, &e, &nr), 0);
	cr_assert_eq(nr, 2);
	const struct perfev_profile_entry *c0 = entry_of(e, nr, 0, NULL), *c1 = entry_of(e, nr, 1, NULL);
	cr_assert(c0 && c1);
	cr_assert_eq(c0->self[PERFEV_VALUE_SAMPLES], 3);
	cr_assert_eq(c1->self[PERFEV_VALUE_SAMPLES], 3);
	cr_assert_eq(c1->self[PERFEV_VALUE_PERIOD], 30);
	cr_assert_eq(e[0].pid, -1, "not keyed by pid");
	free(e);
	/* with children: each sample once per entry (main and the leaf share the cpu) */
	cr_assert_eq(perfev_profile_flat(p, PERFEV_KEY_CPU, PERFEV_VALUE_SAMPLES, true, 0, &e, &nr), 0);
	cr_assert_eq(nr, 2);
	cr_assert_eq(entry_of(e, nr, 0, NULL)->total[PERFEV_VALUE_SAMPLES], 3);
	free(e);
	cr_assert_eq(perfev_profile_flat(p, PERFEV_KEY_CPU | PERFEV_KEY_SYM, PERFEV_VALUE_SAMPLES, true, 0, &e, &nr),
		     0);
	cr_assert_eq(nr, 5, "f@1 main@1 f@0 g@0 main@0");
	cr_assert_eq(entry_of(e, nr, 1, "f")->self[PERFEV_VALUE_SAMPLES], 3);
	cr_assert_eq(entry_of(e, nr, 0, "f")->self[PERFEV_VALUE_SAMPLES], 1);
	cr_assert_eq(entry_of(e, nr, 0, "g")->self[PERFEV_VALUE_SAMPLES], 2);
	cr_assert_eq(entry_of(e, nr, 0, "main")->total[PERFEV_VALUE_SAMPLES], 3);
	cr_assert_eq(entry_of(e, nr, 1, "main")->total[PERFEV_VALUE_SAMPLES], 3);
	free(e);
	/* keyed by symbol alone the cpu is not a key (-1), and the CPUs merge */
	cr_assert_eq(perfev_profile_flat(p, PERFEV_KEY_SYM, PERFEV_VALUE_SAMPLES, false, 0, &e, &nr), 0);
	cr_assert_eq(nr, 2);
	cr_assert_eq(entry_of(e, nr, -1, "f")->self[PERFEV_VALUE_SAMPLES], 4);
	free(e);
	/* the group nodes carry it */
	struct perfev_profile_node root, g;
	cr_assert_eq(perfev_profile_node(p, 0, &root), 0);
	int seen = 0;
	for (uint32_t id = root.first_child; id; id = g.next_sibling, seen++) {
		cr_assert_eq(perfev_profile_node(p, id, &g), 0);
		cr_assert(g.cpu == 0 || g.cpu == 1);
		cr_assert_eq(g.total[PERFEV_VALUE_SAMPLES], 3);
	}
	cr_assert_eq(seen, 2, "one group per (thread, cpu)");
	/* derived with the flag, the CPUs stay apart */
	struct perfev_profile *d = perfev_profile_derive(p, PERFEV_GROUP_COMM, PERFEV_PROFILE_KEEP_CPU);
	cr_assert(d);
	cr_assert_eq(perfev_profile_flat(d, PERFEV_KEY_CPU, PERFEV_VALUE_SAMPLES, false, 0, &e, &nr), 0);
	cr_assert_eq(nr, 2);
	free(e);
	perfev_profile_free(d);
	perfev_profile_free(p);
}

Test(unit_profile, cpu_unknown_without_keep_cpu_or_field)
{
	/* not kept: one entry, cpu -1 (perf's "-001" of files without PERF_SAMPLE_CPU) */
	struct perfev_profile *p = cpu_profile(0, sizeof(struct perfev_sample_desc));
	struct perfev_profile_entry *e;
	size_t nr;
	cr_assert_eq(perfev_profile_flat(p, PERFEV_KEY_CPU, PERFEV_VALUE_SAMPLES, false, 0, &e, &nr), 0);
	cr_assert_eq(nr, 1);
	cr_assert_eq(e[0].cpu, -1);
	cr_assert_eq(e[0].self[PERFEV_VALUE_SAMPLES], 6);
	free(e);
	perfev_profile_free(p);
	/* a caller built before the field (size without it): unknown too */
	p = cpu_profile(PERFEV_PROFILE_KEEP_CPU, (uint32_t)offsetof(struct perfev_sample_desc, cpu));
	cr_assert_eq(perfev_profile_flat(p, PERFEV_KEY_CPU, PERFEV_VALUE_SAMPLES, false, 0, &e, &nr), 0);
	cr_assert_eq(nr, 1);
	cr_assert_eq(e[0].cpu, -1);
	free(e);
	perfev_profile_free(p);
}

Test(unit_profile, socket_key_maps_cpus_through_the_table)
{
	struct perfev_profile *p = cpu_profile(PERFEV_PROFILE_KEEP_CPU, sizeof(struct perfev_sample_desc));
	struct perfev_profile_entry *e;
	size_t nr;
	/* no table: every CPU's socket is unknown, one entry */
	cr_assert_eq(perfev_profile_flat(p, PERFEV_KEY_SOCKET, PERFEV_VALUE_SAMPLES, false, 0, &e, &nr), 0);
	cr_assert_eq(nr, 1);
	cr_assert_eq(e[0].socket, -1);
	cr_assert_eq(e[0].cpu, -1, "not keyed by cpu");
	free(e);
	/* both CPUs on socket 0: one entry, each sample once in its children */
	int32_t zero[2] = {0, 0}, same[2] = {3, 3}, apart[2] = {0, 1};
	cr_assert_eq(perfev_profile_set_sockets(p, zero, 2), 0);
	cr_assert_eq(perfev_profile_flat(p, PERFEV_KEY_SOCKET, PERFEV_VALUE_SAMPLES, true, 0, &e, &nr), 0);
	cr_assert_eq(nr, 1);
	cr_assert_eq(e[0].socket, 0);
	cr_assert_eq(e[0].total[PERFEV_VALUE_SAMPLES], 6);
	free(e);
	/* on socket 3, perf's children count the sample's own entry and then
	 * every frame (its call-chain entries lack the socket): 6 x (1 + 2) */
	cr_assert_eq(perfev_profile_set_sockets(p, same, 2), 0);
	cr_assert_eq(perfev_profile_flat(p, PERFEV_KEY_SOCKET, PERFEV_VALUE_SAMPLES, true, 0, &e, &nr), 0);
	cr_assert_eq(nr, 1);
	cr_assert_eq(e[0].socket, 3);
	cr_assert_eq(e[0].total[PERFEV_VALUE_SAMPLES], 18);
	cr_assert_eq(e[0].self[PERFEV_VALUE_SAMPLES], 6);
	free(e);
	cr_assert_eq(perfev_profile_set_sockets(p, apart, 2), 0);
	cr_assert_eq(perfev_profile_flat(p, PERFEV_KEY_SOCKET | PERFEV_KEY_SYM, PERFEV_VALUE_SAMPLES, false, 0, &e,
					 &nr), 0);
	cr_assert_eq(nr, 3, "f@1, f@0, g@0");
	for (size_t i = 0; i < nr; i++)
		cr_assert_eq(e[i].self[PERFEV_VALUE_SAMPLES],
			     !strcmp(e[i].symbol, "g") ? 2u : e[i].socket == 1 ? 3u : 1u);
	free(e);
	/* a table shorter than the CPUs: the others unknown */
	cr_assert_eq(perfev_profile_set_sockets(p, apart, 1), 0);
	struct perfev_profile *d = perfev_profile_derive(p, PERFEV_GROUP_PID, PERFEV_PROFILE_KEEP_CPU);
	cr_assert(d);
	cr_assert_eq(perfev_profile_flat(d, PERFEV_KEY_SOCKET, PERFEV_VALUE_SAMPLES, false, 0, &e, &nr), 0);
	cr_assert_eq(nr, 2, "derived profiles keep the table");
	cr_assert_eq(e[0].socket + e[1].socket, -1, "socket 0 (cpu 0) and unknown (cpu 1)");
	cr_assert_eq(e[0].self[PERFEV_VALUE_SAMPLES] + e[1].self[PERFEV_VALUE_SAMPLES], 6);
	free(e);
	perfev_profile_free(d);
	perfev_profile_free(p);
}

/* perf's srcfile: the base name of the sampled line's file; call-chain
 * entries (with children) unknown, "" */
Test(unit_profile, srcfile_key_by_base_name)
{
	struct perfev_profile *p = perfev_profile_new(PERFEV_GROUP_THREAD, 0);
	cr_assert(p);
	struct perfev_sample_desc d = {.sz = sizeof(d), .pid = 7, .tid = 7, .comm = "app", .period = 1};
	struct perfev_profile_frame a[2] = {
		{.symbol = "f", .dso = "/bin/app", .ip = 0x5000, .rel_ip = 0x1000, .srcfile = "/src/a/x.c", .line = 3},
		{.symbol = "main", .dso = "/bin/app", .ip = 0x6000, .rel_ip = 0x2000, .srcfile = "/src/m.c", .line = 9}};
	struct perfev_profile_frame b[2] = {
		{.symbol = "g", .dso = "/bin/app", .ip = 0x5100, .rel_ip = 0x1100, .srcfile = "/src/b/x.c", .line = 4},
		a[1]};
	struct perfev_profile_frame c[1] = {{.symbol = "h", .dso = "/lib/libc.so.6", .ip = 0x7000, .rel_ip = 0x700}};
	cr_assert_eq(perfev_profile_add(p, &d, a, 2), 1);
	cr_assert_eq(perfev_profile_add(p, &d, a, 2), 1);
	cr_assert_eq(perfev_profile_add(p, &d, b, 2), 1);
	cr_assert_eq(perfev_profile_add(p, &d, c, 1), 1);
	struct perfev_profile_entry *e;
	size_t nr;
	/* self: x.c of two directories is one entry (3), libc's "" (1) */
	cr_assert_eq(perfev_profile_flat(p, PERFEV_KEY_SRCFILE, PERFEV_VALUE_SAMPLES, false, 0, &e, &nr), 0);
	cr_assert_eq(nr, 2);
	cr_assert_str_eq(e[0].source_file, "x.c");
	cr_assert_eq(e[0].self[PERFEV_VALUE_SAMPLES], 3);
	cr_assert_str_eq(e[1].source_file, "");
	cr_assert(!e[0].symbol, "not keyed by symbol");
	free(e);
	/* children: the stacks' frames are all "" (4), x.c its own samples (3); m.c none */
	cr_assert_eq(perfev_profile_flat(p, PERFEV_KEY_SRCFILE, PERFEV_VALUE_SAMPLES, true, 0, &e, &nr), 0);
	cr_assert_eq(nr, 2);
	cr_assert_str_eq(e[0].source_file, "");
	cr_assert_eq(e[0].total[PERFEV_VALUE_SAMPLES], 4);
	cr_assert_eq(e[0].self[PERFEV_VALUE_SAMPLES], 1);
	cr_assert_str_eq(e[1].source_file, "x.c");
	cr_assert_eq(e[1].total[PERFEV_VALUE_SAMPLES], 3);
	cr_assert_eq(e[1].self[PERFEV_VALUE_SAMPLES], 3);
	free(e);
	perfev_profile_free(p);
}
