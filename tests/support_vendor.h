/*
 * support_vendor.h — the vendor-event test table (tests/data/vendor/events.tsv,
 * written by tests/interop/event/vendor_gen.py from perf 6.1's attrs) and what the
 * unit and interop tests do with it: build a fake sysfs with a model's core
 * PMU, parse an event as perfev does under PERF_CPUID, compare attrs.
 */
#ifndef PERFEV_TEST_SUPPORT_VENDOR_H
#define PERFEV_TEST_SUPPORT_VENDOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One attr as the table (and perf -vv) gives it. */
struct vattr {
	char pmu[16];
	unsigned type;
	uint64_t config, config1;
	int exclude_user, exclude_kernel, exclude_hv, precise_ip;
};

struct vrow {
	char cpuid[48], kind[8], event[160];
	struct vattr want[2];
	int nwant;
};

/* Every row of the table; *n gets the count. Aborts the test if unreadable. */
struct vrow *vendor_table(size_t *n);
/* The fake devices directory for kind ("intel", "amd", "hybrid") under dir. */
void vendor_fake_sysfs(const char *dir, const char *kind);
/* perfev's attrs for row->event under PERF_CPUID=row->cpuid over sysfs;
 * returns how many (-errno on a parse failure, with msg filled). */
int vendor_perfev_attrs(const struct vrow *row, const char *sysfs, struct vattr *out, int max,
			char *msg, size_t len);
/* "" when a equals b, else what differs (into buf). */
const char *vattr_diff(const struct vattr *a, const struct vattr *b, char *buf, size_t len);
/* Parses "pmu:type:config:config1:eu:ek:eh:precise" into *a. */
bool vattr_parse(const char *s, struct vattr *a);

#endif
