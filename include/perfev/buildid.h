/*
 * perfev/buildid.h — build-ids as `perf buildid-list` (perf 6.1) prints
 * them: of the objects a recording names (its BUILD_ID feature, or in a
 * pipe its HEADER_BUILD_ID records), of the objects its samples hit, of an
 * ELF file, of the running kernel.
 */
#ifndef PERFEV_BUILDID_H
#define PERFEV_BUILDID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "perfev/perfdata.h"

#ifdef __cplusplus
extern "C" {
#endif

struct perfev_buildid_list_opts {
	size_t sz;       /* sizeof(struct perfev_buildid_list_opts) */
	/* -H (--with-hits): only the objects a sample's address is in, those
	 * without a build-id too (blank id), read from the samples; also what
	 * a file without a BUILD_ID feature (and a pipe) gets, as perf */
	bool with_hits;
};
#define perfev_buildid_list_opts__last_field with_hits

/*
 * perf buildid-list of pd to out: "BUILDID PATH" per object ("%-40s %s"),
 * in perf's order (the file's table, then objects first mapped later). A
 * file is read through its records only with o->with_hits (or when it has
 * no table, or is a pipe). 0 or -errno with perfev_errmsg().
 */
PERFEV_API int perfev_perfdata_print_build_ids(struct perfev_perfdata *pd, const struct perfev_buildid_list_opts *o,
					       FILE *out);
/*
 * The GNU build-id of the ELF file at path into id (max bytes): its
 * length, or -ENOENT (no build-id note), -ENOEXEC (not an ELF file) or
 * another -errno.
 */
PERFEV_API int perfev_elf_build_id(const char *path, uint8_t *id, size_t max);
/* The running kernel's build-id (/sys/kernel/notes): its length or -errno. */
PERFEV_API int perfev_kernel_build_id(uint8_t *id, size_t max);

#ifdef __cplusplus
}
#endif
#endif /* PERFEV_BUILDID_H */
