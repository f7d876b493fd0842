/*
 * symbols_dwarf.c — source lines and inlined frames from DWARF (libdw),
 * cached per binary and address.
 *
 * Each compilation unit is indexed once, on first use: the address ranges
 * of its subprograms, inlined subroutines and lexical blocks, sorted, with
 * parent links. A lookup is then a binary search plus a walk up the parents
 * (dwarf_getscopes would walk the unit's whole DIE tree for every address,
 * which is ruinous on large C++ and Rust units). The chain is built as
 * addr2line -i does: the line table gives the innermost position; each
 * enclosing DW_TAG_inlined_subroutine's DW_AT_call_file/call_line gives the
 * position in the function it was inlined into, up to the DW_TAG_subprogram.
 */
#include "symbols/symbols_int.h"

#include <dwarf.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define MAX_DEPTH 256
#define MAX_SCAN 4096
/* Ranges indexed per unit: far above any real unit, and a bound on what a
 * hostile file can make us allocate (many DIEs sharing one long range list). */
#define MAX_CU_RANGES (1u << 20)

struct die_node {
	Dwarf_Off off;
	int32_t parent; /* index in dies, -1 for none */
	uint16_t tag;
	uint16_t depth;
};

struct range_node {
	uint64_t lo, hi;
	uint32_t die;
	uint16_t depth;
};

struct pv_cu_index {
	struct die_node *dies;
	size_t nr_dies, cap_dies;
	struct range_node *ranges;
	size_t nr_ranges, cap_ranges;
};

_Static_assert(offsetof(struct range_node, lo) == 0, "pv_upper_bound keys on the first field");

static const char *die_function(struct perfev_symbolizer *s, Dwarf_Die *die, enum pv_demangle how)
{
	Dwarf_Attribute a;
	const char *n = NULL;
	if (dwarf_attr_integrate(die, DW_AT_linkage_name, &a) ||
	    dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a)) {
		n = dwarf_formstring(&a);
		if (n)
			return pv_demangle_pooled(s->pool, n, how);
	}
	if (dwarf_attr_integrate(die, DW_AT_name, &a))
		n = dwarf_formstring(&a);
	return n ? pv_strpool_add(s->pool, n) : NULL;
}

/*
 * dwarf_begin_elf() decompresses every SHF_COMPRESSED debug section into
 * memory of its own: the compressed bytes in our private file mapping are
 * not read again (libelf never writes them), so their pages are given back
 * (a later touch would read the file again). Debian's debug files are
 * compressed: libc's holds 4 MB that would otherwise stay resident.
 */
static Dwarf *begin_dwarf(struct pv_elf *e)
{
	struct range {
		size_t off, size;
	} r[64];
	size_t nr = 0;
	for (Elf_Scn *scn = NULL; !e->malloced && nr < PV_ARRAY_SIZE(r) && (scn = elf_nextscn(e->elf, scn));) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_COMPRESSED) && sh.sh_type != SHT_NOBITS &&
		    sh.sh_offset <= e->size && sh.sh_size <= e->size - sh.sh_offset)
			r[nr++] = (struct range){(size_t)sh.sh_offset, (size_t)sh.sh_size};
	}
	Dwarf *dw = dwarf_begin_elf(e->elf, DWARF_C_READ, NULL);
	long page = sysconf(_SC_PAGESIZE);
	for (size_t i = 0; page > 0 && i < nr; i++) {
		uintptr_t lo = ((uintptr_t)e->image + r[i].off + (uintptr_t)page - 1) & ~((uintptr_t)page - 1);
		uintptr_t hi = ((uintptr_t)e->image + r[i].off + r[i].size) & ~((uintptr_t)page - 1);
		if (hi > lo)
			madvise((void *)lo, hi - lo, MADV_DONTNEED);
	}
	return dw;
}

/* e's DWARF, through its cached inflated copy when its sections are compressed. */
static Dwarf *open_dwarf(struct perfev_symbolizer *s, struct pv_dso *d, struct pv_elf *e)
{
	if (!pv_cache_disabled(s, "DEBUG") && pv_dcache_open(e, &d->inflated) == 0) {
		Dwarf *dw = dwarf_begin_elf(d->inflated.elf, DWARF_C_READ, NULL);
		if (dw)
			return dw;
		pv_elf_close(&d->inflated);
	}
	return begin_dwarf(e);
}

static Dwarf *dso_dwarf(struct perfev_symbolizer *s, struct pv_dso *d)
{
	if (d->dwarf_tried)
		return d->dwarf;
	d->dwarf_tried = true;
	if (d->debug.elf)
		d->dwarf = open_dwarf(s, d, &d->debug);
	if (!d->dwarf && d->bin.elf)
		d->dwarf = open_dwarf(s, d, &d->bin);
	if (!d->dwarf && (d->bin.elf || d->debug.elf))
		pv_sym_note(s, "%s: no DWARF debug info: source lines and inlined frames unknown; "
			    "build with -g or install its debug package", d->name);
	return d->dwarf;
}

/* ---- the per-CU index ---------------------------------------------------- */
static int add_die(struct pv_cu_index *x, Dwarf_Die *die, int tag, int32_t parent, int depth)
{
	if (pv_grow(&x->dies, &x->cap_dies, x->nr_dies + 1, sizeof(*x->dies)) < 0)
		return -ENOMEM;
	int32_t id = (int32_t)x->nr_dies;
	x->dies[x->nr_dies++] = (struct die_node){dwarf_dieoffset(die), parent, (uint16_t)tag,
						  (uint16_t)depth};
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;
	int guard = 0;
	while (x->nr_ranges < MAX_CU_RANGES &&
	       (off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0 && guard++ < 4096) {
		if (hi <= lo)
			continue;
		if (pv_grow(&x->ranges, &x->cap_ranges, x->nr_ranges + 1, sizeof(*x->ranges)) < 0)
			return -ENOMEM;
		x->ranges[x->nr_ranges++] = (struct range_node){lo, hi, (uint32_t)id, (uint16_t)depth};
	}
	return id;
}

/*
 * Well-formed DWARF stores a unit's tree in preorder, so the walk meets DIE
 * offsets in increasing order. A hostile DW_AT_sibling that points back (or
 * into an ancestor's siblings) would make the walk loop or revisit subtrees
 * exponentially: the walk stops at the first offset that does not increase,
 * which visits every DIE at most once.
 */
struct die_walk {
	struct pv_cu_index *x;
	Dwarf_Off last;
};

static void index_children(struct die_walk *w, Dwarf_Die *parent, int32_t parent_id, int depth,
			   int nest)
{
	Dwarf_Die child;
	if (depth >= MAX_DEPTH || nest >= MAX_DEPTH || dwarf_child(parent, &child) != 0)
		return;
	do {
		Dwarf_Off off = dwarf_dieoffset(&child);
		if (off <= w->last)
			return;
		w->last = off;
		int tag = dwarf_tag(&child);
		switch (tag) {
		case DW_TAG_subprogram:
		case DW_TAG_inlined_subroutine:
		case DW_TAG_lexical_block:
		case DW_TAG_entry_point: {
			int id = add_die(w->x, &child, tag, parent_id, depth);
			if (id < 0)
				return;
			index_children(w, &child, id, depth + 1, nest + 1);
			break;
		}
		case DW_TAG_namespace:
		case DW_TAG_module:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
			index_children(w, &child, parent_id, depth, nest + 1);
			break;
		default:
			break;
		}
	} while (dwarf_siblingof(&child, &child) == 0);
}

static int cmp_range(const void *a, const void *b)
{
	const struct range_node *x = a, *y = b;
	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->depth < y->depth ? -1 : x->depth > y->depth;
}

static struct pv_cu_index *cu_index(struct pv_dso *d, Dwarf_Die *cu)
{
	Dwarf_Off key = dwarf_dieoffset(cu);
	struct pv_cu_index *x = pv_u64map_get(&d->cu_index, key);
	if (x)
		return x;
	x = calloc(1, sizeof(*x));
	if (!x)
		return NULL;
	struct die_walk w = {x, dwarf_dieoffset(cu)};
	index_children(&w, cu, -1, 0, 0);
	if (x->nr_ranges)
		qsort(x->ranges, x->nr_ranges, sizeof(*x->ranges), cmp_range);
	if (pv_u64map_put(&d->cu_index, key, x) < 0) {
		pv_cu_index_free(x);
		return NULL;
	}
	return x;
}

void pv_cu_index_free(struct pv_cu_index *x)
{
	if (!x)
		return;
	free(x->dies);
	free(x->ranges);
	free(x);
}

/* The innermost indexed DIE whose ranges hold addr, or -1. */
static int32_t innermost(const struct pv_cu_index *x, uint64_t addr)
{
	size_t lo = pv_upper_bound(x->ranges, x->nr_ranges, sizeof(*x->ranges), addr);
	/* as binutils: the smallest range holding addr; on a tie, the later DIE
	 * (a child covering all of its parent, or the last of overlapping copies) */
	int32_t best = -1;
	uint64_t best_len = UINT64_MAX;
	for (size_t i = lo, scanned = 0; i > 0 && scanned < MAX_SCAN; i--, scanned++) {
		const struct range_node *r = &x->ranges[i - 1];
		uint64_t len = r->hi - r->lo;
		if (addr < r->hi &&
		    (len < best_len || (len == best_len && (int32_t)r->die > best))) {
			best = (int32_t)r->die;
			best_len = len;
		}
		/* a top-level function: everything nested in it was seen (sorted by lo) */
		if (r->depth == 0)
			break;
	}
	return best;
}

/* ---- units by address, when .debug_aranges is missing ---------------------- */
struct pv_cu_range {
	uint64_t lo, hi;
	Dwarf_Off off;
};

_Static_assert(offsetof(struct pv_cu_range, lo) == 0, "pv_upper_bound keys on the first field");

static int cmp_cu_range(const void *a, const void *b)
{
	const struct pv_cu_range *x = a, *y = b;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static void build_cu_ranges(struct pv_dso *d, Dwarf *dw)
{
	size_t cap = 0;
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie;
	d->cu_ranges_built = true;
	while (dwarf_get_units(dw, cu, &cu, NULL, NULL, &cudie, NULL) == 0) {
		Dwarf_Addr base, lo, hi;
		ptrdiff_t off = 0;
		int guard = 0;
		while ((off = dwarf_ranges(&cudie, off, &base, &lo, &hi)) > 0 && guard++ < 65536) {
			if (hi <= lo)
				continue;
			if (pv_grow(&d->cu_ranges, &cap, d->nr_cu_ranges + 1, sizeof(*d->cu_ranges)) < 0)
				return;
			d->cu_ranges[d->nr_cu_ranges++] =
				(struct pv_cu_range){lo, hi, dwarf_dieoffset(&cudie)};
		}
	}
	if (d->nr_cu_ranges)
		qsort(d->cu_ranges, d->nr_cu_ranges, sizeof(*d->cu_ranges), cmp_cu_range);
}

/* Reads n (4 or 8) bytes, native order (the copy and libdw's data are the host's). */
static bool get_uint(const unsigned char **p, const unsigned char *end, size_t n, uint64_t *v)
{
	if ((size_t)(end - *p) < n)
		return false;
	if (n == 4) {
		uint32_t x;
		memcpy(&x, *p, 4);
		*v = x;
	} else {
		memcpy(v, *p, 8);
	}
	*p += n;
	return true;
}

/* .debug_aranges as dwarf_getaranges reads it (sets of address, length
 * tuples naming a unit; (0, 0) pairs skipped), without reading the units.
 * -1: not there or not understood. */
static int read_aranges(struct pv_dso *d, Dwarf *dw)
{
	Elf *elf = dwarf_getelf(dw);
	GElf_Ehdr eh;
	Elf_Scn *scn = elf ? pv_elf_section(elf, ".debug_aranges", NULL) : NULL;
	Elf_Data *data = scn ? elf_getdata(scn, NULL) : NULL;
	if (!data || !data->d_buf || !gelf_getehdr(elf, &eh) ||
	    eh.e_ident[EI_DATA] != (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB))
		return -1;
	const unsigned char *p = data->d_buf, *end = p + data->d_size;
	size_t cap = 0;
	while (end - p >= 4) {
		const unsigned char *set = p;
		uint64_t len, cu;
		size_t osz = 4;
		if (!get_uint(&p, end, 4, &len))
			return -1;
		if (len == 0xffffffffu) {
			osz = 8;
			if (!get_uint(&p, end, 8, &len))
				return -1;
		}
		if (len > (uint64_t)(end - p) || len < 2)
			return -1;
		const unsigned char *set_end = p + len;
		uint16_t version;
		memcpy(&version, p, 2);
		p += 2;
		if (version != 2 || !get_uint(&p, set_end, osz, &cu) || set_end - p < 2)
			return -1;
		unsigned asz = p[0], segsz = p[1];
		p += 2;
		if ((asz != 4 && asz != 8) || segsz != 0)
			return -1;
		size_t tuple = 2u * asz, pad = (size_t)(p - set) % tuple;
		if (pad)
			p += tuple - pad;
		for (uint64_t a = 0, l = 0; set_end - p >= (ptrdiff_t)tuple;) {
			get_uint(&p, set_end, asz, &a);
			get_uint(&p, set_end, asz, &l);
			if (a == 0 && l == 0)
				continue;
			if (pv_grow(&d->aranges, &cap, d->nr_aranges + 1, sizeof(*d->aranges)) < 0)
				return -1;
			d->aranges[d->nr_aranges++] = (struct pv_cu_range){a, a + l, cu};
		}
		p = set_end;
	}
	if (d->nr_aranges)
		qsort(d->aranges, d->nr_aranges, sizeof(*d->aranges), cmp_cu_range);
	return 1;
}

/*
 * The pages of an inflated copy (a file mapping libelf and libdw only read:
 * native byte order) can be given back at any time: a later access reads
 * the page cache again. libdw learns of a unit only by walking every unit
 * before it, which would make most of .debug_info resident; so that walk
 * is done here in steps, giving pages back between them, and again after
 * each address is resolved.
 */
static void give_back(struct pv_dso *d)
{
	if (d->inflated.image)
		madvise(d->inflated.image, d->inflated.size, MADV_DONTNEED);
}

#define WALK_STEP 64 /* units between give-backs */
#define COMPUTE_GIVE_BACK 128 /* addresses resolved between give-backs */

static void walk_units(struct pv_dso *d, Dwarf *dw, Dwarf_Off target)
{
	if (!d->inflated.image || d->walk_done)
		return;
	for (size_t n = 1; d->walk_pos <= target; n++) {
		Dwarf_CU *next;
		Dwarf_Off after;
		size_t hsize;
		if (dwarf_next_unit(dw, d->walk_pos, &after, &hsize, NULL, NULL, NULL, NULL, NULL,
				    NULL) != 0 ||
		    dwarf_get_units(dw, d->walk_cu, &next, NULL, NULL, NULL, NULL) != 0) {
			d->walk_done = true;
			break;
		}
		d->walk_cu = next;
		d->walk_pos = after;
		if (n % WALK_STEP == 0)
			give_back(d);
	}
	give_back(d);
}

/* The unit DIE of the unit at offset off. */
static bool unit_die(struct pv_dso *d, Dwarf *dw, Dwarf_Off off, Dwarf_Die *cu)
{
	Dwarf_Off next;
	size_t hsize;
	walk_units(d, dw, off);
	return dwarf_next_unit(dw, off, &next, &hsize, NULL, NULL, NULL, NULL, NULL, NULL) == 0 &&
	       dwarf_offdie(dw, off + hsize, cu) != NULL;
}

/* By .debug_aranges: 1 found, 0 not there, -1 ask libdw. */
static int aranges_cu(struct pv_dso *d, Dwarf *dw, uint64_t addr, Dwarf_Die *cu)
{
	if (d->aranges_state == 0)
		d->aranges_state = read_aranges(d, dw);
	if (d->aranges_state < 0)
		return -1;
	size_t i = pv_upper_bound(d->aranges, d->nr_aranges, sizeof(*d->aranges), addr);
	for (size_t n = 0; i > 0 && n < 16; i--, n++)
		if (addr < d->aranges[i - 1].hi)
			return unit_die(d, dw, d->aranges[i - 1].off, cu) ? 1 : -1;
	return 0;
}

/* The unit holding addr: by .debug_aranges, else by the units' own ranges. */
static bool find_cu(struct pv_dso *d, Dwarf *dw, uint64_t addr, Dwarf_Die *cu)
{
	int a = aranges_cu(d, dw, addr, cu);
	if (a > 0)
		return true;
	if (a < 0 && dwarf_addrdie(dw, addr, cu))
		return true;
	if (!d->cu_ranges_built)
		build_cu_ranges(d, dw);
	size_t lo = pv_upper_bound(d->cu_ranges, d->nr_cu_ranges, sizeof(*d->cu_ranges), addr);
	for (size_t i = lo, n = 0; i > 0 && n < 16; i--, n++)
		if (addr < d->cu_ranges[i - 1].hi)
			return dwarf_offdie(dw, d->cu_ranges[i - 1].off, cu) != NULL;
	return false;
}

/* ---- building the chain --------------------------------------------------- */
static int push(struct pv_srcinfo *si, size_t *cap, const char *fn, const char *file,
		uint32_t line, uint32_t col)
{
	if (pv_grow(&si->lines, cap, si->nr + 1, sizeof(*si->lines)) < 0)
		return -ENOMEM;
	si->lines[si->nr++] = (struct perfev_source_line){fn, file, line, col};
	return 0;
}

/* A source path as addr2line prints it: relative ones under the unit's DW_AT_comp_dir. */
static const char *src_path(struct perfev_symbolizer *s, Dwarf_Die *cu, const char *f)
{
	if (!f)
		return NULL;
	Dwarf_Attribute a;
	const char *dir = f[0] == '/' ? NULL : dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &a));
	if (!dir || !*dir)
		return pv_strpool_add(s->pool, f);
	size_t dl = strlen(dir), fl = strlen(f);
	char *buf = malloc(dl + fl + 2);
	if (!buf)
		return NULL;
	memcpy(buf, dir, dl);
	buf[dl] = '/';
	memcpy(buf + dl + 1, f, fl + 1);
	const char *r = pv_strpool_add(s->pool, buf);
	free(buf);
	return r;
}

static void compute(struct perfev_symbolizer *s, struct pv_dso *d, Dwarf *dw, uint64_t addr,
		    bool inlines, enum pv_demangle how, struct pv_srcinfo *si)
{
	Dwarf_Die cu;
	size_t cap = 0;
	if (!find_cu(d, dw, addr, &cu))
		return;
	const char *file = NULL;
	int line = 0, col = 0;
	Dwarf_Line *l = dwarf_getsrc_die(&cu, addr);
	if (l) {
		file = src_path(s, &cu, dwarf_linesrc(l, NULL, NULL));
		dwarf_lineno(l, &line);
		dwarf_linecol(l, &col);
	}
	struct pv_cu_index *x = cu_index(d, &cu);
	int32_t id = x ? innermost(x, addr) : -1;
	Dwarf_Files *files = NULL;
	size_t nfiles = 0;
	for (int guard = 0; id >= 0 && guard < MAX_DEPTH; id = x->dies[id].parent, guard++) {
		int tag = x->dies[id].tag;
		if (tag != DW_TAG_subprogram && tag != DW_TAG_inlined_subroutine)
			continue;
		Dwarf_Die die;
		if (!dwarf_offdie(dw, x->dies[id].off, &die))
			break;
		if (push(si, &cap, die_function(s, &die, how), file, (uint32_t)PV_MAX(line, 0),
			 (uint32_t)PV_MAX(col, 0)) < 0)
			break;
		if (tag == DW_TAG_subprogram || !inlines)
			break;
		/* the position in the caller is where this inlined copy was called */
		Dwarf_Attribute a;
		Dwarf_Word w;
		file = NULL;
		line = col = 0;
		if (!files && dwarf_getsrcfiles(&cu, &files, &nfiles) != 0)
			files = NULL;
		if (files && dwarf_formudata(dwarf_attr(&die, DW_AT_call_file, &a), &w) == 0 &&
		    w < nfiles) {
			file = src_path(s, &cu, dwarf_filesrc(files, w, NULL, NULL));
		}
		if (dwarf_formudata(dwarf_attr(&die, DW_AT_call_line, &a), &w) == 0)
			line = (int)w;
		if (dwarf_formudata(dwarf_attr(&die, DW_AT_call_column, &a), &w) == 0)
			col = (int)w;
	}
	if (si->nr == 0 && file) /* a line without a function DIE (e.g. assembly) */
		push(si, &cap, NULL, file, (uint32_t)PV_MAX(line, 0), (uint32_t)PV_MAX(col, 0));
}

/* Outside DWARF: the file the symbol table names (from the debug file when
 * there is one, as addr2line reads it). */
static const char *symtab_file(struct perfev_symbolizer *s, struct pv_dso *d, uint64_t vaddr)
{
	if (!d->filesyms_read) {
		d->filesyms_read = true;
		Elf *elf = d->debug.elf ? d->debug.elf : d->bin.elf;
		ssize_t n = elf ? pv_elf_read_filesyms(s->pool, elf, &d->filesyms) : 0;
		d->nr_filesyms = n > 0 ? (size_t)n : 0;
	}
	return pv_filesyms_find(d->filesyms, d->nr_filesyms, vaddr);
}

const struct pv_srcinfo *pv_dso_srcinfo(struct perfev_symbolizer *s, struct pv_dso *d,
					uint64_t vaddr, bool inlines, enum pv_demangle how)
{
	uint64_t key = vaddr << 3 | (uint64_t)how << 1 | inlines;
	struct pv_srcinfo *si = pv_u64map_get(&d->srcinfo, key);
	if (si)
		return si;
	Dwarf *dw = dso_dwarf(s, d);
	si = calloc(1, sizeof(*si));
	if (!si)
		return NULL;
	if (dw) {
		compute(s, d, dw, vaddr, inlines, how, si);
		if (++d->computed % COMPUTE_GIVE_BACK == 0)
			give_back(d);
	}
	const char *file = si->nr ? NULL : symtab_file(s, d, vaddr);
	if (file) {
		size_t cap = 0;
		push(si, &cap, NULL, file, 0, 0); /* addr2line's "crtstuff.c:?" */
	}
	if (pv_u64map_put(&d->srcinfo, key, si) < 0) {
		free(si->lines);
		free(si);
		return NULL;
	}
	return si;
}
