/*
 * Symbols fixture (aarch64, run under qemu-aarch64): a 20-deep recursion
 * without frame pointers whose leaf captures its registers in perf's arm64
 * order (x0..x30, sp, pc) and a copy of its stack, as a REGS_USER +
 * STACK_USER sample would hold them, and writes them to the file argv[1]:
 *   u64 nr_regs (33), u64 regs[33], u64 stack_size, u8 stack[stack_size]
 * The host unwinds that sample with perfev's aarch64 unwinder.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#define STACK_COPY 8192

static const char *out_path;
volatile uint64_t sink;

__attribute__((noinline)) void capture(void)
{
	uint64_t regs[33];
	uint64_t *r = regs;
	/* x0..x30 as they are here, then sp, then this instruction's pc */
	__asm__ volatile("stp x0, x1, [%0, #0]\n\t"
			 "stp x2, x3, [%0, #16]\n\t"
			 "stp x4, x5, [%0, #32]\n\t"
			 "stp x6, x7, [%0, #48]\n\t"
			 "stp x8, x9, [%0, #64]\n\t"
			 "stp x10, x11, [%0, #80]\n\t"
			 "stp x12, x13, [%0, #96]\n\t"
			 "stp x14, x15, [%0, #112]\n\t"
			 "stp x16, x17, [%0, #128]\n\t"
			 "stp x18, x19, [%0, #144]\n\t"
			 "stp x20, x21, [%0, #160]\n\t"
			 "stp x22, x23, [%0, #176]\n\t"
			 "stp x24, x25, [%0, #192]\n\t"
			 "stp x26, x27, [%0, #208]\n\t"
			 "stp x28, x29, [%0, #224]\n\t"
			 "str x30, [%0, #240]\n\t"
			 "mov x9, sp\n\t"
			 "str x9, [%0, #248]\n\t"
			 "adr x9, .\n\t"
			 "str x9, [%0, #256]\n\t"
			 :
			 : "r"(r)
			 : "x9", "memory");
	uint64_t sp = regs[31], size = STACK_COPY;
	/* no further than the end of [stack] */
	FILE *m = fopen("/proc/self/maps", "r");
	char line[512];
	while (m && fgets(line, sizeof(line), m)) {
		unsigned long long lo, hi;
		if (strstr(line, "[stack]") && sscanf(line, "%llx-%llx", &lo, &hi) == 2 &&
		    sp >= lo && sp < hi && hi - sp < size)
			size = hi - sp;
	}
	if (m)
		fclose(m);
	FILE *f = fopen(out_path, "wb");
	if (!f)
		return;
	uint64_t n = 33;
	fwrite(&n, 8, 1, f);
	fwrite(regs, 8, 33, f);
	fwrite(&size, 8, 1, f);
	fwrite((const void *)(uintptr_t)sp, 1, size, f);
	fclose(f);
	/* where the code is: the host needs the maps of this run */
	m = fopen("/proc/self/maps", "r");
	while (m && fgets(line, sizeof(line), m))
		fputs(line, stdout);
	if (m)
		fclose(m);
}

__attribute__((noinline)) uint64_t descend(int depth)
{
	volatile char pad[24];
	pad[0] = (char)depth;
	if (depth <= 0) {
		capture();
		return pad[0];
	}
	return descend(depth - 1) + pad[0] + 1;
}

int main(int argc, char **argv)
{
	out_path = argc > 1 ? argv[1] : "a64.sample";
	sink = descend(20);
	return 0;
}
