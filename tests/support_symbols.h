/*
 * support_symbols.h — what the symbols and unwind tests share: the fixture
 * binaries (tests/data/symbols/build.sh, built once), maps that place a
 * fixture at a chosen base as the loader would, /proc/PID/maps as
 * perfev_maps, and addr2line / nm output to compare with.
 */
#ifndef PERFEV_TEST_SUPPORT_SYMBOLS_H
#define PERFEV_TEST_SUPPORT_SYMBOLS_H

#include "perfev.h"
#include <stddef.h>
#include <stdint.h>

/* The fixtures' directory (built on first use); skips the test if the build fails. */
const char *symbols_fixtures(void);
/* FIXTURE/name, in a static buffer per call slot (up to 8 live at once). */
const char *fixture(const char *name);

/* Maps of `path` loaded at bias `base` (one per PT_LOAD); *nr set. Caller frees. */
struct perfev_map *fixture_maps(const char *path, uint64_t base, size_t *nr);
/* The map among maps that holds addr, or NULL. */
const struct perfev_map *map_for(const struct perfev_map *maps, size_t nr, uint64_t addr);

/* /proc/PID/maps (pid 0: self), or such text, as perfev_maps (paths strdup'ed).
 * Caller frees with maps_free. */
struct perfev_map *parse_maps(const char *text, size_t *nr);
struct perfev_map *proc_maps(int pid, size_t *nr);
void maps_free(struct perfev_map *maps, size_t nr);

/* One function symbol as `nm -C -S --defined-only` prints it. */
struct nm_sym {
	uint64_t addr, size;
	char type;
	char *name;
};
/* nm -n -S [-C] over path (by address), text symbols with a size only. Caller frees with nm_free. */
struct nm_sym *nm_text(const char *path, bool demangle, size_t *nr);
void nm_free(struct nm_sym *s, size_t nr);

/* addr2line -f -i -C -a -e path over addrs; frames per address, innermost first. */
struct a2l_frame {
	char *function;
	char *file; /* basename */
	unsigned line;
};
struct a2l_result {
	size_t nr;
	struct a2l_frame *frames;
};
struct a2l_result *addr2line(const char *path, const uint64_t *addrs, size_t n);
void a2l_free(struct a2l_result *r, size_t n);

#endif
