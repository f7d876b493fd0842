/* The profile's per-sample keys: weights (PERFEV_PROFILE_KEEP_WEIGHTS +
 * PERFEV_KEY_WEIGHT/INS_LAT/P_STAGE_CYC), time cut to the quantum
 * (KEEP_TIME + KEY_TIME) and sampled address (KEEP_ADDR + KEY_ADDR). */
#include "support.h"
#include "perfev.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

struct s {
	uint64_t weight, ins_lat, time, ip;
	const char *leaf;
};

static void add(struct perfev_profile *p, const struct s *x, uint32_t desc_size)
{
	struct perfev_profile_frame f[2] = {{.symbol = x->leaf, .dso = "/bin/app", .ip = x->ip},
					    {.symbol = "main", .dso = "/bin/app", .ip = 0x2000}};
	struct perfev_sample_desc d = {.sz = desc_size, .pid = 7, .tid = 7, .comm = "app", .period = 10,
				       .weight = x->weight, .cpu = -1, .ins_lat = x->ins_lat,
				       .time = x->time, .ip = x->ip};
	cr_assert_eq(perfev_profile_add(p, &d, f, 2), 1, "%s", perfev_errmsg());
}

static const struct s samples[] = {
	{70, 3, 50000000, 0x1000, "f"},  {70, 3, 150000000, 0x1004, "f"}, {70, 4, 190000000, 0x1000, "f"},
	{249, 3, 210000000, 0x1100, "g"}, {0, 0, 10000000, 0x1000, "f"},
};
#define NR_SAMPLES (sizeof(samples) / sizeof(samples[0]))

static struct perfev_profile *profile(unsigned flags, uint32_t desc_size)
{
	struct perfev_profile *p = perfev_profile_new(PERFEV_GROUP_THREAD, flags);
	cr_assert(p);
	for (size_t i = 0; i < NR_SAMPLES; i++)
		add(p, &samples[i], desc_size);
	return p;
}

static struct perfev_profile_entry *flat(const struct perfev_profile *p, unsigned keys, bool children, size_t *nr)
{
	struct perfev_profile_entry *e;
	cr_assert_eq(perfev_profile_flat(p, keys, PERFEV_VALUE_SAMPLES, children, 0, &e, nr), 0, "%s",
		     perfev_errmsg());
	return e;
}

static uint64_t samples_where(const struct perfev_profile_entry *e, size_t nr, size_t off, uint64_t v)
{
	for (size_t i = 0; i < nr; i++) {
		uint64_t x;
		memcpy(&x, (const char *)&e[i] + off, sizeof(x));
		if (x == v)
			return e[i].self[PERFEV_VALUE_SAMPLES];
	}
	return 0;
}

Test(unit_profile_keys2, weight_key_splits_by_each_samples_weight)
{
	struct perfev_profile *p = profile(PERFEV_PROFILE_KEEP_WEIGHTS, sizeof(struct perfev_sample_desc));
	size_t nr;
	struct perfev_profile_entry *e = flat(p, PERFEV_KEY_WEIGHT, false, &nr);
	cr_assert_eq(nr, 3);
	cr_assert_eq(samples_where(e, nr, offsetof(struct perfev_profile_entry, weight), 70), 3);
	cr_assert_eq(samples_where(e, nr, offsetof(struct perfev_profile_entry, weight), 249), 1);
	cr_assert_eq(samples_where(e, nr, offsetof(struct perfev_profile_entry, weight), 0), 1);
	cr_assert_eq(e[0].ins_lat, 0, "not keyed by ins_lat");
	free(e);
	e = flat(p, PERFEV_KEY_INS_LAT, false, &nr);
	cr_assert_eq(nr, 3);
	cr_assert_eq(samples_where(e, nr, offsetof(struct perfev_profile_entry, ins_lat), 3), 3);
	cr_assert_eq(samples_where(e, nr, offsetof(struct perfev_profile_entry, ins_lat), 4), 1);
	free(e);
	e = flat(p, PERFEV_KEY_WEIGHT | PERFEV_KEY_INS_LAT | PERFEV_KEY_SYM, false, &nr);
	cr_assert_eq(nr, 4); /* f 70/3, f 70/4, g 249/3, f 0/0 */
	free(e);
	perfev_profile_free(p);
}

Test(unit_profile_keys2, keys_need_their_flag_and_desc_size)
{
	/* without KEEP_WEIGHTS every weight is 0: one entry */
	struct perfev_profile *p = profile(0, sizeof(struct perfev_sample_desc));
	size_t nr;
	struct perfev_profile_entry *e = flat(p, PERFEV_KEY_WEIGHT | PERFEV_KEY_TIME | PERFEV_KEY_ADDR, false, &nr);
	cr_assert_eq(nr, 1);
	cr_assert_eq(e[0].self[PERFEV_VALUE_SAMPLES], NR_SAMPLES);
	cr_assert_eq(e[0].weight, 0);
	free(e);
	perfev_profile_free(p);
	/* a caller built before ins_lat existed: its desc ends at cpu */
	p = profile(PERFEV_PROFILE_KEEP_WEIGHTS | PERFEV_PROFILE_KEEP_ADDR,
		    offsetof(struct perfev_sample_desc, ins_lat));
	e = flat(p, PERFEV_KEY_INS_LAT | PERFEV_KEY_ADDR, false, &nr);
	cr_assert_eq(nr, 1, "ins_lat and ip beyond the desc's size are not read");
	free(e);
	e = flat(p, PERFEV_KEY_WEIGHT, false, &nr);
	cr_assert_eq(nr, 3, "weight is within it");
	free(e);
	perfev_profile_free(p);
}

Test(unit_profile_keys2, time_key_cuts_to_the_quantum)
{
	struct perfev_profile *p = profile(PERFEV_PROFILE_KEEP_TIME, sizeof(struct perfev_sample_desc));
	size_t nr;
	struct perfev_profile_entry *e = flat(p, PERFEV_KEY_TIME, false, &nr);
	/* 100 ms: 0 (50, 10 ms), 100 ms (150, 190), 200 ms (210) */
	cr_assert_eq(nr, 3);
	size_t off = offsetof(struct perfev_profile_entry, time);
	cr_assert_eq(samples_where(e, nr, off, 0), 2);
	cr_assert_eq(samples_where(e, nr, off, 100000000), 2);
	cr_assert_eq(samples_where(e, nr, off, 200000000), 1);
	free(e);
	perfev_profile_free(p);
	p = perfev_profile_new(PERFEV_GROUP_THREAD, PERFEV_PROFILE_KEEP_TIME);
	perfev_profile_set_time_quantum(p, 20000000); /* 20 ms: 40, 140, 180, 200, 0 */
	for (size_t i = 0; i < NR_SAMPLES; i++)
		add(p, &samples[i], sizeof(struct perfev_sample_desc));
	e = flat(p, PERFEV_KEY_TIME, false, &nr);
	cr_assert_eq(nr, 5);
	cr_assert_eq(samples_where(e, nr, off, 40000000), 1);
	cr_assert_eq(samples_where(e, nr, off, 180000000), 1);
	free(e);
	/* derived profiles keep the cut times */
	struct perfev_profile *d = perfev_profile_derive(p, PERFEV_GROUP_COMM, PERFEV_PROFILE_KEEP_TIME);
	cr_assert(d);
	e = flat(d, PERFEV_KEY_TIME, false, &nr);
	cr_assert_eq(nr, 5);
	cr_assert_eq(samples_where(e, nr, off, 140000000), 1);
	free(e);
	perfev_profile_free(d);
	perfev_profile_free(p);
}

Test(unit_profile_keys2, addr_key_is_the_sampled_address)
{
	struct perfev_profile *p = profile(PERFEV_PROFILE_KEEP_ADDR, sizeof(struct perfev_sample_desc));
	size_t nr;
	struct perfev_profile_entry *e = flat(p, PERFEV_KEY_ADDR, false, &nr);
	cr_assert_eq(nr, 3);
	size_t off = offsetof(struct perfev_profile_entry, addr);
	cr_assert_eq(samples_where(e, nr, off, 0x1000), 3);
	cr_assert_eq(samples_where(e, nr, off, 0x1004), 1);
	cr_assert_eq(samples_where(e, nr, off, 0x1100), 1);
	free(e);
	/* the group nodes carry it */
	struct perfev_profile_node n;
	bool seen = false;
	for (uint32_t id = 1; id < perfev_profile_nr_nodes(p); id++) {
		cr_assert_eq(perfev_profile_node(p, id, &n), 0);
		seen |= n.kind == PERFEV_NODE_GROUP && n.addr == 0x1100;
	}
	cr_assert(seen);
	perfev_profile_free(p);
}

/* perf's call-chain entries lack the weight: with children, every frame of
 * a sample of weight other than 0 adds to its entry again, after the
 * sample's own entry (keyed by weight alone, one entry: own, f, main). */
Test(unit_profile_keys2, children_count_every_frame_of_weighted_samples)
{
	struct perfev_profile *p = profile(PERFEV_PROFILE_KEEP_WEIGHTS, sizeof(struct perfev_sample_desc));
	size_t nr;
	struct perfev_profile_entry *e = flat(p, PERFEV_KEY_WEIGHT, true, &nr);
	cr_assert_eq(nr, 3);
	for (size_t i = 0; i < nr; i++) {
		uint64_t self = e[i].self[PERFEV_VALUE_SAMPLES];
		uint64_t want = e[i].weight ? 3 * self : self; /* weight 0: once, as perf's he_tmp matches */
		cr_assert_eq(e[i].total[PERFEV_VALUE_SAMPLES], want, "weight %llu: total %llu, self %llu",
			     (unsigned long long)e[i].weight, (unsigned long long)e[i].total[0],
			     (unsigned long long)self);
	}
	free(e);
	perfev_profile_free(p);
}
