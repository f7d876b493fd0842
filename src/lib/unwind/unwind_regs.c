/*
 * unwind_regs.c — perf's sample register order (arch/.../uapi/asm/perf_regs.h)
 * to DWARF register numbers (the psABI numbering the CFI uses).
 */
#include "core/internal.h"
#include "perfev/unwind.h"
#include "unwind/unwind_int.h"

#include <string.h>

/* x86_64: perf_event_x86_regs */
enum { X_AX, X_BX, X_CX, X_DX, X_SI, X_DI, X_BP, X_SP, X_IP, X_FLAGS, X_CS, X_SS,
       X_DS, X_ES, X_FS, X_GS, X_R8, X_R9, X_R10, X_R11, X_R12, X_R13, X_R14, X_R15 };
/* DWARF x86_64 register n is perf register x86_dwarf[n]; 16 is the return address (rip). */
static const int x86_dwarf[17] = {X_AX, X_DX, X_CX, X_BX, X_SI, X_DI, X_BP, X_SP,
				  X_R8, X_R9, X_R10, X_R11, X_R12, X_R13, X_R14, X_R15, X_IP};
/* arm64: perf_event_arm64_regs: X0..X28, X29 (fp), LR (x30), SP, PC */
enum { A_LR = 30, A_SP = 31, A_PC = 32 };

enum perfev_arch pv_host_arch(void)
{
#if defined(__x86_64__)
	return PERFEV_ARCH_X86_64;
#elif defined(__aarch64__)
	return PERFEV_ARCH_AARCH64;
#else
	return PERFEV_ARCH_HOST;
#endif
}

PERFEV_API uint64_t perfev_unwind_regs_mask(enum perfev_arch arch)
{
	if (arch == PERFEV_ARCH_HOST)
		arch = pv_host_arch();
	switch (arch) {
	case PERFEV_ARCH_X86_64: {
		uint64_t m = 0;
		for (size_t i = 0; i < PV_ARRAY_SIZE(x86_dwarf); i++)
			m |= 1ull << x86_dwarf[i];
		return m; /* never DS/ES/FS/GS: the kernel refuses them on x86_64 */
	}
	case PERFEV_ARCH_AARCH64:
		return (1ull << (A_PC + 1)) - 1;
	default:
		return 0;
	}
}

PERFEV_API int perfev_unwind_regs_to_dwarf(enum perfev_arch arch, uint64_t mask,
					   const uint64_t *regs, size_t nr_regs,
					   uint64_t *dwarf, size_t nr_dwarf, uint64_t *valid,
					   uint64_t *pc, uint64_t *sp)
{
	if (arch == PERFEV_ARCH_HOST)
		arch = pv_host_arch();
	if ((size_t)__builtin_popcountll(mask) > nr_regs || (nr_regs && !regs))
		return pv_error(EINVAL, "sample has %zu registers, its mask 0x%llx says %d",
				nr_regs, (unsigned long long)mask, __builtin_popcountll(mask));
	/* perf register b is regs[idx[b]], idx[b] = mask bits below b (kept per
	 * mask: samples of one event share it) */
	static __thread uint64_t idx_mask = 0;
	static __thread uint8_t idx[64];
	if (idx_mask != mask || !mask) {
		for (int b = 0, k = 0; b < 64; b++)
			idx[b] = (uint8_t)k, k += (int)(mask >> b & 1);
		idx_mask = mask;
	}
#define FULL(b) ((mask >> (b) & 1) ? regs[idx[b]] : 0)
	const int *map;
	int nr, ipreg, spreg;
	int aarch64_map[32];
	switch (arch) {
	case PERFEV_ARCH_X86_64:
		map = x86_dwarf;
		nr = 17;
		ipreg = X_IP;
		spreg = X_SP;
		break;
	case PERFEV_ARCH_AARCH64:
		for (int i = 0; i < 32; i++)
			aarch64_map[i] = i; /* x0..x30, sp: the same numbers in both */
		map = aarch64_map;
		nr = 32;
		ipreg = A_PC;
		spreg = A_SP;
		break;
	default:
		return pv_error(EINVAL, "DWARF unwinding: unsupported architecture %d", (int)arch);
	}
	if (nr_dwarf < (size_t)nr)
		return pv_error(EINVAL, "DWARF unwinding: %zu register slots, %d needed", nr_dwarf, nr);
	uint64_t v = 0;
	for (int i = 0; i < nr; i++) {
		dwarf[i] = FULL(map[i]);
		if (mask >> map[i] & 1)
			v |= 1ull << i;
	}
	if (valid)
		*valid = v;
	if (!(mask >> ipreg & 1) || !(mask >> spreg & 1))
		return pv_error(ENOENT, "the sample lacks the pc or sp register (sample_regs_user "
				"0x%llx): record with perfev_unwind_regs_mask()",
				(unsigned long long)mask);
	if (pc)
		*pc = FULL(ipreg);
	if (sp)
		*sp = FULL(spreg);
	return nr;
#undef FULL
}

/* ---- sampling masks by name (perf record -I, --user-regs) ------------------ */
static const char *const x86_names[] = {"ax", "bx", "cx",  "dx",  "si",  "di",	"bp",  "sp",
					"ip", "flags", "cs", "ss", "ds",  "es",	"fs",  "gs",
					"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15"};

/* the host's register names in perf's sample order; *nr of them */
static const char *reg_name(size_t i, char *buf, size_t len)
{
#if defined(__x86_64__)
	if (i < PV_ARRAY_SIZE(x86_names) && (i < 12 || i > 15)) /* (no DS/ES/FS/GS on x86_64) */
		return x86_names[i];
	return NULL;
#elif defined(__aarch64__)
	if (i > A_PC)
		return NULL;
	if (i < A_LR)
		snprintf(buf, len, "x%zu", i);
	else
		snprintf(buf, len, "%s", i == A_LR ? "lr" : i == A_SP ? "sp" : "pc");
	return buf;
#else
	(void)i, (void)buf, (void)len;
	return NULL;
#endif
}

PERFEV_API uint64_t perfev_regs_mask(const char *names)
{
	char buf[16];
	if (!names) {
		uint64_t m = 0;
		for (size_t i = 0; i < 64; i++)
			if (reg_name(i, buf, sizeof(buf)))
				m |= 1ull << i;
		return m;
	}
	uint64_t m = 0;
	const char *p = names;
	while (*p) {
		size_t n = strcspn(p, ",");
		size_t i = 0;
		for (; i < 64; i++) {
			const char *r = reg_name(i, buf, sizeof(buf));
			if (r && strlen(r) == n && !strncasecmp(r, p, n))
				break;
		}
		if (i == 64) {
			char names_buf[512];
			perfev_regs_names(names_buf, sizeof(names_buf));
			pv_error(EINVAL, "no register '%.*s' here: give some of %s", (int)n, p, names_buf);
			return 0;
		}
		m |= 1ull << i;
		p += n + (p[n] == ',');
	}
	if (!m)
		pv_error(EINVAL, "no register named: give some of them, e.g. ax,bx (x86_64) or x0,sp (arm64)");
	return m;
}

PERFEV_API int perfev_regs_names(char *out, size_t len)
{
	char buf[16];
	int p = 0;
	if (len)
		out[0] = 0;
	for (size_t i = 0; i < 64 && (size_t)p < len; i++) {
		const char *r = reg_name(i, buf, sizeof(buf));
		if (r)
			p += snprintf(out + p, len - (size_t)p, "%s%s", p ? " " : "", r);
	}
	return p;
}
