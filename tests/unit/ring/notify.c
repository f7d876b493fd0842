/* Notification helpers that need no kernel: the id map and siginfo decoding. */
#define _GNU_SOURCE
#include "support.h"
#include "perfev.h"
#include <errno.h>
#include <string.h>

Test(unit_notify, idmap_finds_every_id)
{
	struct perfev_idmap *m = perfev_idmap_new();
	static int ctx[1000];
	for (int i = 0; i < 1000; i++)
		cr_assert_eq(perfev_idmap_add(m, (uint64_t)i * 7919 + 1, &ctx[i]), 0);
	cr_assert_eq(perfev_idmap_count(m), 1000);
	for (int i = 0; i < 1000; i++)
		cr_assert_eq(perfev_idmap_find(m, (uint64_t)i * 7919 + 1), &ctx[i]);
	cr_assert_null(perfev_idmap_find(m, 2));
	cr_assert_eq(errno, ENOENT);
	cr_assert_eq(perfev_idmap_add(m, 1, &ctx[5]), 0);
	cr_assert_eq(perfev_idmap_count(m), 1000);
	cr_assert_eq(perfev_idmap_find(m, 1), &ctx[5]);
	uint64_t rec[3] = {0};
	struct perf_event_header h = {.type = PERF_RECORD_SAMPLE, .size = 24};
	memcpy(rec, &h, sizeof(h));
	rec[1] = 7919 + 1;
	cr_assert_eq(perfev_idmap_find_record(m, rec, 24), &ctx[1]);
	perfev_idmap_free(m);
	perfev_idmap_free(NULL);
	cr_assert_null(perfev_idmap_find(NULL, 1));
}

Test(unit_notify, siginfo_poll_codes)
{
	siginfo_t si;
	memset(&si, 0, sizeof(si));
	si.si_signo = SIGRTMIN;
	si.si_code = POLL_HUP;
	si.si_fd = 42;
	si.si_band = 0x10;
	struct perfev_siginfo d;
	cr_assert_eq(perfev_siginfo_decode(&si, &d), PERFEV_SIG_POLL_HUP);
	cr_assert_eq(d.fd, 42);
	cr_assert_eq(d.band, 0x10);
	cr_assert_str_eq(perfev_sig_kind_name(d.kind), "POLL_HUP");
	si.si_code = SI_USER;
	cr_assert_eq(perfev_siginfo_decode(&si, &d), PERFEV_SIG_OTHER);
}

Test(unit_notify, sigtrap_attr)
{
	struct perfev_attr a = {0};
	a.inherit = 1;
	perfev_attr_set_sigtrap(&a, 0xabcdef);
	cr_assert_eq(a.sigtrap, 1);
	cr_assert_eq(a.remove_on_exec, 1);
	cr_assert_eq(a.inherit_thread, 1);
	cr_assert_eq(a.sig_data, 0xabcdef);
}
