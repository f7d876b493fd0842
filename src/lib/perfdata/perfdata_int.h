/* perfdata_int.h — what the perf.data reader, writer and feature files share. */
#ifndef PERFEV_PERFDATA_INT_H
#define PERFEV_PERFDATA_INT_H

#include "core/internal.h"
#include "record/record_int.h"
#include "perfev/perfdata.h"

#define PV_PERF_MAGIC2 0x32454c4946524550ULL /* "PERFILE2" little-endian */
#define PV_PERF_MAGIC2_SWAPPED 0x50455246494c4532ULL
#define PV_FILE_HEADER_SIZE 104
#define PV_PIPE_HEADER_SIZE 16
#define PV_NAME_ALIGN 64
#define PV_FEAT_WRITTEN 32 /* features below this bit are the ones perfev writes */

struct pv_file_section {
	uint64_t offset, size;
};

struct pv_file_header {
	uint64_t magic, size, attr_size;
	struct pv_file_section attrs, data, event_types;
	uint64_t adds_features[4];
};

/* perf's string: u32 len (padded to 64, NUL included), bytes. */
void pv_feat_put_string(struct pv_buf *b, const char *s);
/* Reads one such string; NULL when malformed. The result points into a
 * scratch copy owned by the caller's buffer (*out_storage, freed by caller). */
const char *pv_feat_get_string(struct pv_cur *c);

/* The file's descriptor (its stat for the header's "captured on"). */
int pv_perfdata_fd(const struct perfev_perfdata *pd);
/* How far process() is: bytes of the data section behind the record being
 * handled, of total (0 for a pipe: done is then the bytes read so far). */
void pv_perfdata_progress(const struct perfev_perfdata *pd, uint64_t *done, uint64_t *total);

/* Fills the host features perfev writes (indexes by feat id < PV_FEAT_WRITTEN). */
void pv_host_features(struct pv_buf feats[PV_FEAT_WRITTEN], int argc, char *const *argv);

/* EVENT_DESC of these events. */
void pv_feat_event_desc(struct pv_buf *b, const struct perfev_perfdata_event *ev, size_t nr, uint32_t attr_size);

/* perfdata_pager.c: a thread that maps a big recording's pages ahead of
 * the reader and gives back those keep bytes behind it. NULL when the
 * recording is small, there is one core, PERFEV_PAGER=0, or no thread can
 * be started: the reader then pages for itself. */
struct pv_pager;
struct pv_pager *pv_pager_start(const uint8_t *map, uint64_t len, uint64_t start, uint64_t keep);
/* The reader is at off (cheap: it tells the pager once a megabyte). */
void pv_pager_at(struct pv_pager *pg, uint64_t off);
void pv_pager_stop(struct pv_pager *pg);

struct perfev_cpus;
/* perfdata_topology.c: -C's checks (perf report and script) */
int pv_perfdata_check_cpu_filter(struct perfev_perfdata *pd, const char *path, const struct perfev_cpus *cpus);

/* perfdata_header.c, for perf evlist (view/evlist.c): the GROUP_DESC
 * feature's groups of two or more, each event's leader in lead[] (itself
 * when alone), members[] and names[] ("" anonymous) at each leader; the
 * attr's fields that are not zero as perf_event_attr__fprintf prints them,
 * each "NAME" EQ "VALUE" after first (the first) or sep (*started). */
void pv_perfdata_event_groups(const struct perfev_perfdata *pd, size_t nev, size_t *lead, size_t *members,
			      const char **names);
struct perfev_attr;
void pv_attr_fprintf(FILE *out, const struct perfev_attr *a, const char *first, const char *sep, const char *eq,
		     bool *started);
#endif
