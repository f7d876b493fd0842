/*
 * bench/symbols — addresses resolved per second (symbol, offset, source
 * line, inlined frames) by the perfev symbolizer and by addr2line -f -i -C
 * on the same addresses of the same binary, side by side.
 *
 * usage: symbols [BINARY (default: libperfev.so beside this build, -g)] [N=20000]
 * The addresses are N pseudo-random instruction addresses inside the
 * binary's function symbols. perfev is timed cold (a fresh symbolizer: ELF
 * and DWARF loading included) and warm (the same addresses again, as a
 * profile revisits hot addresses); addr2line gets them all on stdin in one
 * process (its fastest use).
 */
#define _GNU_SOURCE
#include "perfev.h"

#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>


struct range {
	uint64_t lo, hi;
};

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static struct range *functions(const char *path, size_t *nr)
{
	elf_version(EV_CURRENT);
	int fd = open(path, O_RDONLY);
	Elf *e = fd >= 0 ? elf_begin(fd, ELF_C_READ, NULL) : NULL;
	if (!e) {
		fprintf(stderr, "symbols: cannot read %s as ELF: give a binary with symbols\n", path);
		exit(1);
	}
	struct range *r = NULL;
	size_t n = 0, cap = 0;
	for (Elf_Scn *scn = NULL; (scn = elf_nextscn(e, scn));) {
		GElf_Shdr sh;
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
			continue;
		Elf_Data *d = elf_getdata(scn, NULL);
		for (size_t i = 0; d && i < d->d_size / sh.sh_entsize; i++) {
			GElf_Sym s;
			if (!gelf_getsym(d, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC ||
			    !s.st_size || !s.st_value)
				continue;
			if (n == cap) {
				cap = cap ? cap * 2 : 1024;
				r = realloc(r, cap * sizeof(*r));
			}
			r[n++] = (struct range){s.st_value, s.st_value + s.st_size};
		}
	}
	elf_end(e);
	close(fd);
	if (!n) {
		fprintf(stderr, "symbols: %s has no function symbols: give an unstripped binary\n", path);
		exit(1);
	}
	*nr = n;
	return r;
}

static double run_perfev(const char *path, const uint64_t *addrs, size_t n, int passes,
			 double *warm, size_t *resolved, size_t *lines)
{
	struct perfev_symbolizer *s = perfev_symbolizer_new(NULL);
	double t0 = now(), cold = 0;
	for (int p = 0; p < passes; p++) {
		double ts = now();
		for (size_t i = 0; i < n; i++) {
			struct perfev_location loc;
			int r = perfev_symbolizer_resolve_file(s, path, addrs[i],
							       PERFEV_RESOLVE_INLINE, &loc);
			if (p == 0) {
				*resolved += r == 1;
				*lines += loc.nr_lines;
			}
		}
		if (p == 0)
			cold = now() - t0;
		else
			*warm = now() - ts;
	}
	perfev_symbolizer_free(s);
	return cold;
}

int main(int argc, char **argv)
{
	char def[4096];
	ssize_t l = readlink("/proc/self/exe", def, sizeof(def) - 32);
	def[l > 0 ? l : 0] = '\0';
	char *slash = strrchr(def, '/');
	if (slash)
		*slash = '\0';
	strcat(def, "/../libperfev.so");
	const char *bin = argc > 1 ? argv[1] : def;
	size_t n = argc > 2 ? strtoul(argv[2], NULL, 0) : 20000;
	size_t nf;
	struct range *f = functions(bin, &nf);
	uint64_t *addrs = malloc(n * sizeof(*addrs));
	uint64_t x = 88172645463325252ull; /* xorshift: the same addresses every run */
	for (size_t i = 0; i < n; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		const struct range *r = &f[x % nf];
		addrs[i] = r->lo + (x >> 20) % (r->hi - r->lo);
	}

	char tmp[] = "/tmp/bench-symbols-XXXXXX";
	int fd = mkstemp(tmp);
	FILE *in = fdopen(fd, "w");
	for (size_t i = 0; i < n; i++)
		fprintf(in, "0x%llx\n", (unsigned long long)addrs[i]);
	fclose(in);

	size_t resolved = 0, lines = 0;
	double warm = 0;
	double cold = run_perfev(bin, addrs, n, 2, &warm, &resolved, &lines);

	char cmd[8400];
	snprintf(cmd, sizeof(cmd), "addr2line -f -i -C -e '%s' < %s > /dev/null", bin, tmp);
	double t0 = now();
	int rc = system(cmd);
	double a2l = now() - t0;
	unlink(tmp);
	if (rc != 0) {
		fprintf(stderr, "symbols: addr2line failed (install binutils)\n");
		return 1;
	}
	printf("binary: %s (%zu functions), %zu addresses, %zu resolved by perfev (%.1f lines each)\n",
	       bin, nf, n, resolved, resolved ? (double)lines / (double)n : 0.0);
	printf("%-28s %12s %14s\n", "", "seconds", "addresses/s");
	printf("%-28s %12.3f %14.0f\n", "perfev cold (load + resolve)", cold, (double)n / cold);
	printf("%-28s %12.3f %14.0f\n", "perfev warm (cached)", warm, (double)n / warm);
	printf("%-28s %12.3f %14.0f\n", "addr2line -f -i -C", a2l, (double)n / a2l);
	printf("ratio perfev/addr2line: cold %.1fx, warm %.1fx\n", a2l / cold, a2l / warm);
	free(addrs);
	free(f);
	return 0;
}
