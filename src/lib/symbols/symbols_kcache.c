/*
 * symbols_kcache.c — a cache of the running kernel's kallsyms, because the
 * kernel takes ~45 ms to generate /proc/kallsyms, more than a whole
 * frame-pointer report costs otherwise.
 *
 * Correct by construction: the core kernel's symbols cannot change within
 * a boot (KASLR is chosen at boot), modules' only by loading and unloading;
 * BPF programs, trampolines and kprobe pages at any time. So the index file
 * holds the core kernel's and the loaded modules' text symbols only, and is
 * valid for one boot (boot_id), one set of modules (a hash of each one's
 * name, size, state and address in /proc/modules) and one view (the first
 * line of kallsyms, kptr_restrict, perf_event_paranoid; hidden addresses
 * are never cached). A lookup is answered from it only between two
 * neighbouring symbols of one module or of the kernel, memory nothing
 * else can occupy; anything else (BPF...) makes the caller read the real
 * file once (pv_kallsyms_find's -EAGAIN).
 *
 * The file ($XDG_CACHE_HOME/perfev/kallsyms.idx, ~/.cache by default) is
 * mapped as is: a header (magic, byte order, version, sizes, key,
 * checksums), the 16-byte symbols, the module tags, the names. It is
 * written to a temporary file and renamed, in a directory of mode 0700
 * owned by us; files are opened without following symlinks and used only
 * when we own them. Every failure means "no cache", silently.
 */
#define _GNU_SOURCE
#include "symbols/symbols_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define KC_MAGIC "PVKSYMS\n"
#define KC_ORDER 0x01020304u
#define KC_VERSION 2u /* 2: a kernel alias is the one kallsyms lists last */
#define KC_MAX_FILE (256u << 20)
#define KC_MAX_MODULES 65535u
#define MODULES_MAX (4u << 20)

struct kc_hdr {
	char magic[8];
	uint32_t byte_order; /* KC_ORDER as written: another order reads differently */
	uint32_t version;
	uint32_t hdr_size, sym_size;
	char boot_id[48];
	uint64_t key;        /* modules and view */
	uint64_t nr_syms, modules_len, nr_modules, names_len;
	uint64_t payload_sum; /* everything after the header */
	uint64_t header_sum;  /* the header before this field */
};
_Static_assert(sizeof(struct kc_hdr) == 128, "the header is 128 bytes");
_Static_assert(sizeof(struct pv_ksym) == 16, "the index stores 16-byte symbols");

/* ---- hashing: four independent lanes of 8-byte words, then the tail ---- */
static uint64_t mix(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	h *= 0xc4ceb9fe1a85ec53ull;
	return h ^ (h >> 33);
}

static uint64_t hash_bytes(const void *data, size_t len, uint64_t seed)
{
	const unsigned char *p = data;
	const uint64_t m = 0x9e3779b97f4a7c15ull;
	uint64_t a = seed ^ len, b = seed + m, c = seed - m, d = ~seed;
	size_t i = 0;
	for (; i + 32 <= len; i += 32) {
		uint64_t w[4];
		memcpy(w, p + i, 32);
		a = (a ^ w[0]) * m;
		b = (b ^ w[1]) * m;
		c = (c ^ w[2]) * m;
		d = (d ^ w[3]) * m;
		a ^= a >> 29, b ^= b >> 29, c ^= c >> 29, d ^= d >> 29;
	}
	uint64_t h = mix(a) ^ mix(b + 1) ^ mix(c + 2) ^ mix(d + 3);
	for (; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return mix(h);
}

/* ---- the key --------------------------------------------------------------- */
static const char *or_default(const char *p, const char *def)
{
	return p ? p : def;
}

/* Hashes /proc/modules (name, size, state, address of each: not the use
 * counts, which change all the time) and lists the names "\n"-framed. */
static int hash_modules(const char *path, uint64_t *h, char **names)
{
	char *text = NULL;
	int r = pv_read_file(path, &text, NULL, MODULES_MAX);
	if (r == -ENOENT) /* a kernel without modules */
		text = strdup("");
	else if (r < 0)
		return r;
	if (!text)
		return -ENOMEM;
	char *out = malloc(strlen(text) + 2);
	if (!out) {
		free(text);
		return -ENOMEM;
	}
	size_t o = 0;
	out[o++] = '\n';
	uint64_t acc = 0x6d6f64756c6573ull;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		/* name size refcount deps state address [taint] */
		char *f[6], *fs = NULL;
		size_t nf = 0;
		for (char *t = strtok_r(line, " ", &fs); t && nf < 6; t = strtok_r(NULL, " ", &fs))
			f[nf++] = t;
		if (nf == 0)
			continue;
		const size_t keep[] = {0, 1, 4, 5};
		for (size_t i = 0; i < PV_ARRAY_SIZE(keep); i++)
			if (keep[i] < nf)
				acc = hash_bytes(f[keep[i]], strlen(f[keep[i]]), acc + i);
		size_t nl = strlen(f[0]);
		memcpy(out + o, f[0], nl);
		o += nl;
		out[o++] = '\n';
	}
	out[o] = '\0';
	free(text);
	*h = acc;
	*names = out;
	return 0;
}

int pv_kcache_key(const struct pv_kcache_src *src, struct pv_kcache_key *k)
{
	memset(k, 0, sizeof(*k));
	char line[512];
	int r = pv_read_line(or_default(src->boot_id, "/proc/sys/kernel/random/boot_id"), k->boot_id,
			     sizeof(k->boot_id));
	if (r < 0)
		return r;
	if (!k->boot_id[0])
		return -ENOENT;
	/* the view: how kallsyms shows addresses to us now */
	r = pv_read_line(or_default(src->kallsyms, "/proc/kallsyms"), line, sizeof(line));
	if (r < 0)
		return r;
	char *end;
	unsigned long long first = strtoull(line, &end, 16);
	if (end == line || first == 0)
		return -EACCES; /* hidden (zeros): nothing worth caching */
	uint64_t h = hash_bytes(line, strlen(line), 1);
	const char *view[] = {or_default(src->kptr_restrict, "/proc/sys/kernel/kptr_restrict"),
			      or_default(src->paranoid, "/proc/sys/kernel/perf_event_paranoid")};
	for (size_t i = 0; i < PV_ARRAY_SIZE(view); i++) {
		if (pv_read_line(view[i], line, sizeof(line)) < 0)
			snprintf(line, sizeof(line), "?");
		h = hash_bytes(line, strlen(line), h);
	}
	uint64_t mh = 0;
	r = hash_modules(or_default(src->modules, "/proc/modules"), &mh, &k->modules);
	if (r < 0)
		return r;
	k->hash = mix(h ^ mh);
	return 0;
}

void pv_kcache_key_free(struct pv_kcache_key *k)
{
	free(k->modules);
	k->modules = NULL;
}

/* ---- the directory ------------------------------------------------------------ */
/* A directory we own that others cannot write to. */
static bool safe_dir(int fd)
{
	struct stat st;
	return fstat(fd, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() &&
	       (st.st_mode & 022) == 0;
}

/* base, opened (created 0700 if absent, and its parent too when
 * parent_too): only inside a directory of ours, or a sticky one like
 * /var/tmp, where no one else can rename or remove what we create. */
static int open_dir(char *base, bool parent_too)
{
	int fd = open(base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT) {
		/* root with another user's HOME must not plant files there */
		char *slash = strrchr(base, '/');
		if (!slash || slash == base)
			return -ENOENT;
		*slash = '\0';
		int pfd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (pfd < 0 && errno == ENOENT && parent_too) {
			char *up = strrchr(base, '/');
			if (up && up != base) {
				*up = '\0';
				int gfd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
				struct stat gs;
				bool ours = gfd >= 0 && fstat(gfd, &gs) == 0 && gs.st_uid == geteuid();
				if (ours)
					mkdirat(gfd, up + 1, 0700);
				if (gfd >= 0)
					close(gfd);
				*up = '/';
				pfd = open(base, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			}
		}
		*slash = '/';
		if (pfd < 0)
			return -ENOENT;
		struct stat ps;
		if (fstat(pfd, &ps) == 0 && (ps.st_uid == geteuid() || (ps.st_mode & S_ISVTX)))
			mkdirat(pfd, slash + 1, 0700);
		fd = openat(pfd, slash + 1, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		close(pfd);
	}
	if (fd < 0)
		return -errno;
	if (!safe_dir(fd)) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

int pv_kcache_dir(const struct pv_kcache_src *src)
{
	char base[PATH_MAX];
	if (src->dir) {
		snprintf(base, sizeof(base), "%s", src->dir);
		return open_dir(base, false);
	}
	const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	int fd = -ENOENT;
	if (xdg && xdg[0] == '/')
		snprintf(base, sizeof(base), "%s/perfev", xdg);
	else if (home && home[0] == '/')
		snprintf(base, sizeof(base), "%s/.cache/perfev", home);
	else
		base[0] = '\0';
	if (base[0] && (fd = open_dir(base, true)) >= 0 && faccessat(fd, ".", W_OK, AT_EACCESS) == 0)
		return fd;
	/* no HOME, a read-only or foreign one (a container, a service user):
	 * /var/tmp/perfev-UID, ours alone, or the unwritable one to read */
	snprintf(base, sizeof(base), "%s/perfev-%u", src->fallback ? src->fallback : "/var/tmp",
		 (unsigned)geteuid());
	int alt = open_dir(base, false);
	if (alt < 0)
		return fd;
	if (fd >= 0)
		close(fd);
	return alt;
}

/* ---- reading ------------------------------------------------------------------ */
int pv_kcache_parse(struct pv_strpool *pool, const void *img, size_t len,
		    const struct pv_kcache_key *k, struct pv_ktab *t)
{
	memset(t, 0, sizeof(*t));
	const unsigned char *base = img;
	struct kc_hdr h;
	if (len < sizeof(h) || ((uintptr_t)img & 7))
		return -EBADMSG;
	memcpy(&h, img, sizeof(h));
	if (memcmp(h.magic, KC_MAGIC, sizeof(h.magic)) != 0 || h.byte_order != KC_ORDER ||
	    h.version != KC_VERSION || h.hdr_size != sizeof(h) || h.sym_size != sizeof(struct pv_ksym) ||
	    h.header_sum != hash_bytes(&h, offsetof(struct kc_hdr, header_sum), 0))
		return -EBADMSG;
	/* sizes: each bounded by the file before they are added */
	size_t rest = len - sizeof(h);
	if (h.nr_syms > rest / sizeof(struct pv_ksym) || h.modules_len > rest ||
	    h.names_len > rest || h.nr_modules > KC_MAX_MODULES ||
	    h.nr_syms * sizeof(struct pv_ksym) + h.modules_len + h.names_len != rest)
		return -EBADMSG;
	if (k && (strncmp(h.boot_id, k->boot_id, sizeof(h.boot_id)) != 0 || h.key != k->hash))
		return -ESTALE;
	if (h.payload_sum != hash_bytes(base + sizeof(h), rest, h.key))
		return -EBADMSG;
	const struct pv_ksym *syms = (const void *)(base + sizeof(h));
	const char *mods = (const char *)(syms + h.nr_syms);
	const char *names = mods + h.modules_len;
	if (h.names_len == 0 || names[h.names_len - 1] != '\0' ||
	    (h.modules_len && mods[h.modules_len - 1] != '\0') || (!h.modules_len && h.nr_modules))
		return -EBADMSG;
	for (size_t i = 0; i < h.nr_syms; i++) {
		const struct pv_ksym *s = &syms[i];
		if ((i && s->start <= syms[i - 1].start) || s->name >= h.names_len ||
		    s->module > h.nr_modules || s->rank < 1 || s->rank > 2 || (s->flags & ~PV_KSYM_OPEN))
			return -EBADMSG;
	}
	if (h.nr_modules) {
		t->modules = malloc(h.nr_modules * sizeof(*t->modules));
		if (!t->modules)
			return -ENOMEM;
		t->cap_modules = h.nr_modules;
	}
	for (const char *m = mods; m < mods + h.modules_len; m += strlen(m) + 1) {
		size_t ml = strlen(m);
		if (t->nr_modules == h.nr_modules || ml < 3 || m[0] != '[' || m[ml - 1] != ']')
			goto bad;
		if (!(t->modules[t->nr_modules++] = pv_strpool_addn(pool, m, ml))) {
			pv_kallsyms_free(t);
			return -ENOMEM;
		}
	}
	if (t->nr_modules != h.nr_modules)
		goto bad;
	t->syms = (struct pv_ksym *)syms; /* never written: borrowed */
	t->nr = h.nr_syms;
	t->names = (char *)names;
	t->borrowed = true;
	t->partial = true;
	return 0;
bad:
	pv_kallsyms_free(t);
	return -EBADMSG;
}

int pv_kcache_read(struct pv_strpool *pool, int dirfd, const struct pv_kcache_key *k,
		   struct pv_ktab *t)
{
	int fd = openat(dirfd, PV_KCACHE_FILE, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return 0;
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    st.st_size < (off_t)sizeof(struct kc_hdr) || st.st_size > (off_t)KC_MAX_FILE) {
		close(fd);
		return 0;
	}
	size_t len = (size_t)st.st_size;
	void *img = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (img == MAP_FAILED)
		return 0;
	if (pv_kcache_parse(pool, img, len, k, t) < 0) {
		munmap(img, len);
		return 0;
	}
	/* checking touched every page: give them back, lookups need a few dozen */
	madvise(img, len, MADV_DONTNEED);
	madvise(img, len, MADV_RANDOM); /* no 64 KB read-around per binary-search step */
	t->map = img;
	t->map_len = len;
	return 1;
}

void pv_kcache_seal(void *img, size_t len)
{
	struct kc_hdr h;
	if (len < sizeof(h))
		return;
	memcpy(&h, img, sizeof(h));
	h.payload_sum = hash_bytes((unsigned char *)img + sizeof(h), len - sizeof(h), h.key);
	h.header_sum = hash_bytes(&h, offsetof(struct kc_hdr, header_sum), 0);
	memcpy(img, &h, sizeof(h));
}

/* ---- writing ------------------------------------------------------------------ */
int pv_kcache_write(int dirfd, const struct pv_kcache_key *k, const struct pv_ktab *full)
{
	/* the kept symbols (their next neighbour in the file marked when it was
	 * dropped), the module tags as they are, the kept names */
	size_t nk = 0, names_len = 0, modules_len = 0;
	for (size_t i = 0; i < full->nr; i++)
		if (!(full->syms[i].flags & PV_KSYM_DYNAMIC)) {
			nk++;
			names_len += strlen(full->names + full->syms[i].name) + 1;
		}
	for (size_t i = 0; i < full->nr_modules; i++)
		modules_len += strlen(full->modules[i]) + 1;
	if (nk == 0 || names_len > UINT32_MAX)
		return -EINVAL;
	size_t len = sizeof(struct kc_hdr) + nk * sizeof(struct pv_ksym) + modules_len + names_len;
	if (len > KC_MAX_FILE)
		return -EFBIG;
	unsigned char *img = calloc(1, len);
	if (!img)
		return -ENOMEM;
	struct pv_ksym *syms = (void *)(img + sizeof(struct kc_hdr));
	char *mods = (char *)(syms + nk), *names = mods + modules_len;
	size_t n = 0, o = 0;
	for (size_t i = 0; i < full->nr; i++) {
		const struct pv_ksym *s = &full->syms[i];
		if (s->flags & PV_KSYM_DYNAMIC) {
			if (n)
				syms[n - 1].flags |= PV_KSYM_OPEN;
			continue;
		}
		const char *nm = full->names + s->name;
		size_t nl = strlen(nm) + 1;
		memcpy(names + o, nm, nl);
		syms[n++] = (struct pv_ksym){s->start, (uint32_t)o, s->module, s->rank, 0};
		o += nl;
	}
	char *m = mods;
	for (size_t i = 0; i < full->nr_modules; i++) {
		size_t ml = strlen(full->modules[i]) + 1;
		memcpy(m, full->modules[i], ml);
		m += ml;
	}
	struct kc_hdr h = {.byte_order = KC_ORDER, .version = KC_VERSION, .hdr_size = sizeof(h),
			   .sym_size = sizeof(struct pv_ksym), .key = k->hash, .nr_syms = nk,
			   .modules_len = modules_len, .nr_modules = full->nr_modules,
			   .names_len = names_len};
	memcpy(h.magic, KC_MAGIC, sizeof(h.magic));
	snprintf(h.boot_id, sizeof(h.boot_id), "%s", k->boot_id);
	memcpy(img, &h, sizeof(h));
	pv_kcache_seal(img, len);

	char tmp[64];
	snprintf(tmp, sizeof(tmp), ".%s.%d.tmp", PV_KCACHE_FILE, (int)getpid());
	int fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 && errno == EEXIST) { /* a crashed run's leftover (ours: the directory is) */
		unlinkat(dirfd, tmp, 0);
		fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	}
	if (fd < 0) {
		int e = errno;
		free(img);
		return -e;
	}
	int r = pv_write_all(fd, img, len);
	free(img);
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && renameat(dirfd, tmp, dirfd, PV_KCACHE_FILE) < 0)
		r = -errno;
	if (r < 0)
		unlinkat(dirfd, tmp, 0);
	return r;
}

/* ---- the symbolizer's entry ---------------------------------------------------- */
int pv_kcache_load(struct perfev_symbolizer *s, const struct pv_kcache_src *src, struct pv_ktab *t)
{
	const char *path = or_default(src->kallsyms, "/proc/kallsyms");
	struct pv_kcache_key k;
	if (pv_kcache_key(src, &k) < 0) {
		pv_kcache_key_free(&k);
		return pv_kallsyms_load(s, path, NULL, t);
	}
	int dfd = pv_kcache_dir(src);
	if (dfd >= 0 && pv_kcache_read(s->pool, dfd, &k, t) > 0) {
		close(dfd);
		pv_kcache_key_free(&k);
		return (int)t->nr;
	}
	int n = pv_kallsyms_load(s, path, k.modules, t);
	if (n > 0 && dfd >= 0) {
		/* only if nothing changed while we read: else the next run rebuilds */
		struct pv_kcache_key again;
		if (pv_kcache_key(src, &again) == 0 && again.hash == k.hash &&
		    strcmp(again.boot_id, k.boot_id) == 0)
			pv_kcache_write(dfd, &k, t);
		pv_kcache_key_free(&again);
	}
	if (dfd >= 0)
		close(dfd);
	pv_kcache_key_free(&k);
	return n;
}
