/* perfev report against perf report on crafted recordings where two
 * call-graph siblings of equal weight lie in different objects (libc and
 * ld.so of this machine): perf orders them by its dso structures' heap
 * addresses, i.e. the order in which it made them (the BUILD_ID table's
 * entries while reading the header, then one per new name in MMAP records),
 * the newest first, not by the addresses the objects are mapped at. Here libc
 * is mapped above ld.so and first, so the mapping addresses and perf's order
 * disagree; a build-id table naming ld.so first turns perf's order round. */
#define _GNU_SOURCE
#include "support.h"
#include "support_report.h"
#include "perfev.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PID 4343

/* What a crafted recording needs of an object: its executable PT_LOAD, its
 * GNU build-id and the addresses of two functions of its .dynsym. */
struct object {
	char path[4096];
	uint64_t base; /* where it is mapped */
	GElf_Phdr text;
	uint8_t build_id[20];
	size_t build_id_len;
	uint64_t fn[2];
};

static bool read_object(struct object *o, const char *const names[2])
{
	int fd;
	bool text;
	Elf *e = report_elf_open(o->path, &fd, &o->text, &text);
	for (Elf_Scn *s = NULL; (s = elf_nextscn(e, s));) {
		GElf_Shdr sh;
		Elf_Data *d = gelf_getshdr(s, &sh) ? elf_getdata(s, NULL) : NULL;
		if (!d)
			continue;
		if (sh.sh_type == SHT_NOTE) {
			GElf_Nhdr nh;
			size_t off = 0, name_off, desc_off;
			while ((off = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0)
				if (nh.n_type == NT_GNU_BUILD_ID && nh.n_descsz <= sizeof(o->build_id)) {
					memcpy(o->build_id, (char *)d->d_buf + desc_off, nh.n_descsz);
					o->build_id_len = nh.n_descsz;
				}
		} else if (sh.sh_type == SHT_DYNSYM && sh.sh_entsize) {
			for (size_t k = 0; k < sh.sh_size / sh.sh_entsize; k++) {
				GElf_Sym sym;
				const char *n = gelf_getsym(d, (int)k, &sym) ? elf_strptr(e, sh.sh_link, sym.st_name) : NULL;
				for (int j = 0; n && j < 2; j++)
					if (!o->fn[j] && !strcmp(n, names[j]) && GELF_ST_TYPE(sym.st_info) == STT_FUNC &&
					    sym.st_size > 8)
						o->fn[j] = sym.st_value;
			}
		}
	}
	report_elf_close(e, fd);
	return text && o->build_id_len && o->fn[0] && o->fn[1];
}

/* COMM, libc's MMAP2 then ld.so's (libc mapped above ld.so), the build-ids
 * (ld.so's first) when `table`, then two samples of equal period in libc's
 * fn[0], one called from libc's fn[1], one from ld.so's fn[0]. */
static void write_recording(const char *data, const struct object *libc, const struct object *ld, bool table)
{
	struct perfev_attr a;
	struct perfev_perfdata_writer *w = report_crafted_writer(data, &a, PERF_SAMPLE_CALLCHAIN);
	if (table) {
		cr_assert_eq(perfev_perfdata_writer_add_build_id(w, -1, PERF_RECORD_MISC_USER, ld->build_id,
								 ld->build_id_len, ld->path), 0);
		cr_assert_eq(perfev_perfdata_writer_add_build_id(w, -1, PERF_RECORD_MISC_USER, libc->build_id,
								 libc->build_id_len, libc->path), 0);
	}
	report_put_text_map(w, &a, PID, "objs", libc->path, libc->base, libc->text.p_vaddr, libc->text.p_memsz,
			    libc->text.p_offset);
	report_put_text_mmap(w, &a, PID, ld->path, ld->base, ld->text.p_vaddr, ld->text.p_memsz, ld->text.p_offset, 3);
	for (uint64_t k = 0; k < 2; k++) {
		uint64_t leaf = libc->base + libc->fn[0] + 4;
		uint64_t caller = k ? ld->base + ld->fn[0] + 6 : libc->base + libc->fn[1] + 6;
		uint64_t chain[] = {PERF_CONTEXT_USER, leaf, caller};
		report_put_sample(w, &a, PERF_RECORD_MISC_USER, PID, leaf, 10 + k, 1000, chain, 3);
	}
	cr_assert_eq(perfev_perfdata_writer_close(w), 0, "%s", perfev_errmsg());
}

/* The line of the first of the two branches in perfev's graph of the leaf. */
static char *first_branch(const char *data)
{
	struct run_result r = run_cmd("%s report -q -i '%s' --stdio --no-children -g callee | grep -m1 -- '--50.00%%--'",
				      PERFEV_BIN, data);
	char *line = strdup(r.out);
	run_result_free(&r);
	return line;
}

Test(interop_report, tied_siblings_of_objects_like_perf, .timeout = 60)
{
	require_perf_tool();
	static const char *const libc_fns[] = {"strfry", "strsignal"}, *const ld_fns[] = {"_dl_catch_exception", "_dl_catch_exception"};
	struct object libc = {.base = 0x7f0000000000ull}, ld = {.base = 0x7e0000000000ull};
	cr_assert(report_find_object("/libc.so.6", libc.path, sizeof(libc.path)), "libc.so.6 is not in /proc/self/maps");
	cr_assert(report_find_object("/ld-linux", ld.path, sizeof(ld.path)), "ld.so is not in /proc/self/maps");
	if (!read_object(&libc, libc_fns) || !read_object(&ld, ld_fns))
		cr_skip_test("%s or %s lacks a build-id or the functions %s, %s, %s", libc.path, ld.path, libc_fns[0],
			     libc_fns[1], ld_fns[0]);
	/* perf looks binaries up in ~/.debug between making its dso structures,
	 * and what it allocates and frees there moves where malloc puts the
	 * next one: an empty cache of our own keeps perf's order the order of
	 * making them, whatever earlier tests (perf record fills ~/.debug) left */
	char home[4200];
	snprintf(home, sizeof(home), "%s/home", test_tmpdir());
	cr_assert_eq(mkdir(home, 0700), 0, "%s: %s", home, strerror(errno));
	setenv("HOME", home, 1);
	for (int table = 0; table < 2; table++) {
		char data[4200];
		snprintf(data, sizeof(data), "%s/objects%d.data", test_tmpdir(), table);
		write_recording(data, &libc, &ld, table);
		static const char *const options[] = {"--no-children -g callee", "--children", "--children -g callee",
						      "--no-children -g caller", "--no-children -g flat"};
		for (size_t i = 0; i < sizeof(options) / sizeof(options[0]); i++) {
			report_expect_like_perf(data, options[i], 0); /* objects1.data: with the table */
		}
		/* newest object first: ld.so's without the table, libc's with it */
		char *first = first_branch(data);
		cr_expect(strstr(first, table ? libc_fns[1] : ld_fns[0]), "%s the table, the first branch: %s",
			  table ? "with" : "without", first);
		free(first);
	}
}
