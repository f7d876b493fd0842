/*
 * syscall_beauty.c — a system call's arguments and return value as perf
 * trace prints them (builtin-trace.c's syscall_fmts and its beauty/
 * helpers): each argument named as the syscalls:sys_enter_NAME format names
 * it, zero ones left out, values by the field's type (file names and
 * pointers in hex, descriptors, pids, modes) or by the call (open flags,
 * mmap protections and flags, futex operations...), errors as
 * "-1 ENOENT (No such file or directory)".
 *
 * Without a BPF helper the kernel's tracepoints carry no strings: a file
 * name is its address, printed as perf prints it then ("%#x", the low 32
 * bits), and descriptors are numbers (perf's "<path>" after them reads
 * /proc after the fact, and is wrong for descriptors closed since).
 */
#define _GNU_SOURCE
#include "core/internal.h"
#include "perfev/sys.h"
#include "perfev/tracepoint.h"
#include "perfev/trace.h"
#include "tracing/tp_int.h"
#include "tracing/trace_int.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- values ------------------------------------------------------------ */
/* flags by names, lowest bit first (perf's strarray flags); the rest in hex */
static int bit_names(char *b, size_t n, uint64_t v, const char *const *names, size_t nr)
{
	int p = 0;
	for (size_t i = 0; i < nr && i < 64; i++)
		if ((v & (1ull << i)) && names[i]) {
			p += snprintf(b + p, n - (size_t)p, "%s%s", p ? "|" : "", names[i]);
			v &= ~(1ull << i);
		}
	if (v)
		p += snprintf(b + p, n - (size_t)p, "%s%#llx", p ? "|" : "", (unsigned long long)v);
	return p;
}

/* perf's open__scnprintf_flags: RDONLY when the access mode is, then each flag */
static int open_flags(char *b, size_t n, uint64_t flags)
{
	int p = 0;
	if ((flags & O_ACCMODE) == O_RDONLY)
		p = snprintf(b, n, "RDONLY");
	if (!flags)
		return p;
	static const struct {
		uint64_t bit;
		const char *name;
	} f[] = {{O_RDWR, "RDWR"},	   {O_APPEND, "APPEND"},       {O_ASYNC, "ASYNC"},     {O_CLOEXEC, "CLOEXEC"},
		 {O_CREAT, "CREAT"},	   {O_DIRECT, "DIRECT"},       {O_DIRECTORY, "DIRECTORY"},
		 {O_EXCL, "EXCL"},	   {O_LARGEFILE, "LARGEFILE"}, {O_NOFOLLOW, "NOFOLLOW"},
		 {O_TMPFILE, "TMPFILE"},   {O_NOATIME, "NOATIME"},     {O_NOCTTY, "NOCTTY"},
		 {O_NONBLOCK, "NONBLOCK"}, {O_PATH, "PATH"}};
	for (size_t i = 0; i < PV_ARRAY_SIZE(f); i++) /* (as perf: any bit; O_LARGEFILE is 0 here) */
		if (flags & f[i].bit) {
			p += snprintf(b + p, n - (size_t)p, "%s%s", p ? "|" : "", f[i].name);
			flags &= ~f[i].bit;
		}
	if ((flags & O_SYNC) == O_SYNC) {
		p += snprintf(b + p, n - (size_t)p, "%sSYNC", p ? "|" : "");
		flags &= ~(uint64_t)O_SYNC;
	} else if (flags & O_DSYNC) {
		p += snprintf(b + p, n - (size_t)p, "%sDSYNC", p ? "|" : "");
		flags &= ~(uint64_t)O_DSYNC;
	}
	static const struct {
		uint64_t bit;
		const char *name;
	} g[] = {{O_TRUNC, "TRUNC"}, {O_WRONLY, "WRONLY"}};
	for (size_t i = 0; i < PV_ARRAY_SIZE(g); i++)
		if (flags & g[i].bit) {
			p += snprintf(b + p, n - (size_t)p, "%s%s", p ? "|" : "", g[i].name);
			flags &= ~g[i].bit;
		}
	if (flags)
		p += snprintf(b + p, n - (size_t)p, "%s%#llx", p ? "|" : "", (unsigned long long)flags);
	return p;
}

/* perf's beauty/mode_t.c: the whole groups first, then each bit */
static int mode_t_names(char *b, size_t n, uint64_t mode)
{
	static const struct {
		unsigned m;
		const char *name;
	} f[] = {{S_IFSOCK, "IFSOCK"}, {S_IFLNK, "IFLNK"}, {S_IFREG, "IFREG"}, {S_IFBLK, "IFBLK"},
		 {S_IFDIR, "IFDIR"},		{S_IFCHR, "IFCHR"}, {S_IFIFO, "IFIFO"}, {S_ISUID, "ISUID"},
		 {S_ISGID, "ISGID"},		{S_ISVTX, "ISVTX"}, {S_IRWXU, "IRWXU"}, {S_IRUSR, "IRUSR"},
		 {S_IWUSR, "IWUSR"},		{S_IXUSR, "IXUSR"}, {S_IRWXG, "IRWXG"}, {S_IRGRP, "IRGRP"},
		 {S_IWGRP, "IWGRP"},		{S_IXGRP, "IXGRP"}, {S_IRWXO, "IRWXO"}, {S_IROTH, "IROTH"},
		 {S_IWOTH, "IWOTH"},		{S_IXOTH, "IXOTH"}};
	int p = 0;
	for (size_t i = 0; i < PV_ARRAY_SIZE(f); i++)
		if ((mode & f[i].m) == f[i].m) {
			p += snprintf(b + p, n - (size_t)p, "%s%s", p ? "|" : "", f[i].name);
			mode &= ~(uint64_t)f[i].m;
		}
	if (mode)
		p += snprintf(b + p, n - (size_t)p, "%s%#llx", p ? "|" : "", (unsigned long long)mode);
	return p;
}

static const char *signal_name(int sig)
{
	static const char *const names[] = {
		[SIGHUP] = "HUP",   [SIGINT] = "INT",	  [SIGQUIT] = "QUIT", [SIGILL] = "ILL",	    [SIGTRAP] = "TRAP",
		[SIGABRT] = "ABRT", [SIGBUS] = "BUS",	  [SIGFPE] = "FPE",   [SIGKILL] = "KILL",   [SIGUSR1] = "USR1",
		[SIGSEGV] = "SEGV", [SIGUSR2] = "USR2",	  [SIGPIPE] = "PIPE", [SIGALRM] = "ALRM",   [SIGTERM] = "TERM",
		[SIGSTKFLT] = "STKFLT", [SIGCHLD] = "CHLD", [SIGCONT] = "CONT", [SIGSTOP] = "STOP", [SIGTSTP] = "TSTP",
		[SIGTTIN] = "TTIN", [SIGTTOU] = "TTOU",	  [SIGURG] = "URG",   [SIGXCPU] = "XCPU",   [SIGXFSZ] = "XFSZ",
		[SIGVTALRM] = "VTALRM", [SIGPROF] = "PROF", [SIGWINCH] = "WINCH", [SIGIO] = "IO",  [SIGPWR] = "PWR",
		[SIGSYS] = "SYS"};
	return sig > 0 && (size_t)sig < PV_ARRAY_SIZE(names) ? names[sig] : NULL;
}

/* perf's strarrays: names from an offset, else the number */
static int strarray(char *b, size_t n, int64_t v, int64_t offset, const char *const *names, size_t nr)
{
	int64_t i = v - offset;
	if (i >= 0 && (uint64_t)i < nr && names[i])
		return snprintf(b, n, "%s", names[i]);
	return snprintf(b, n, "%d", (int)v);
}

static int arch_prctl_code(char *b, size_t n, int64_t v)
{
	static const char *const c1[] = {"SET_GS", "SET_FS", "GET_FS", "GET_GS"};
	static const char *const c2[] = {"GET_CPUID", "SET_CPUID"};
	static const char *const c3[] = {"GET_XCOMP_SUPP", "GET_XCOMP_PERM", "REQ_XCOMP_PERM",
					 "GET_XCOMP_GUEST_PERM", "REQ_XCOMP_GUEST_PERM"};
	static const char *const c4[] = {"MAP_VDSO_X32", "MAP_VDSO_32", "MAP_VDSO_64"};
	if (v >= 0x1001 && v < 0x1001 + 4)
		return strarray(b, n, v, 0x1001, c1, PV_ARRAY_SIZE(c1));
	if (v >= 0x1011 && v < 0x1011 + 2)
		return strarray(b, n, v, 0x1011, c2, PV_ARRAY_SIZE(c2));
	if (v >= 0x1021 && v < 0x1021 + 5)
		return strarray(b, n, v, 0x1021, c3, PV_ARRAY_SIZE(c3));
	return strarray(b, n, v, 0x2001, c4, PV_ARRAY_SIZE(c4));
}

/* perf's beauty/futex_op.c: the command, its flags, and the arguments it
 * does not read masked (timeout 3, uaddr2 4, val3 5) */
static int futex_op(char *b, size_t n, uint64_t op, unsigned *mask)
{
	static const struct {
		const char *name;
		unsigned mask;
	} cmd[] = {{"WAIT", 1u << 5 | 1u << 4},		 {"WAKE", 1u << 5 | 1u << 4 | 1u << 3},
		   {"FD", 1u << 5 | 1u << 4 | 1u << 3},	 {"REQUEUE", 1u << 5 | 1u << 3},
		   {"CMP_REQUEUE", 1u << 3},		 {"WAKE_OP", 0},
		   {"LOCK_PI", 1u << 5 | 1u << 4 | 1u << 3}, {"UNLOCK_PI", 1u << 5 | 1u << 4 | 1u << 3},
		   {"TRYLOCK_PI", 1u << 5 | 1u << 4},	 {"WAIT_BITSET", 1u << 4},
		   {"WAKE_BITSET", 1u << 4},		 {"WAIT_REQUEUE_PI", 0},
		   {"CMP_REQUEUE_PI", 1u << 3}};
	unsigned c = (unsigned)op & 0x7f; /* FUTEX_CMD_MASK: without PRIVATE_FLAG, CLOCK_REALTIME */
	int p;
	if (c < PV_ARRAY_SIZE(cmd)) {
		p = snprintf(b, n, "%s", cmd[c].name);
		*mask |= cmd[c].mask;
	} else {
		p = snprintf(b, n, "%#x", c);
	}
	if (op & 128)
		p += snprintf(b + p, n - (size_t)p, "|PRIVATE_FLAG");
	if (op & 256)
		p += snprintf(b + p, n - (size_t)p, "|CLOCK_REALTIME");
	return p;
}

/* perf's beauty/access_mode: F, else R, W, X in a row */
static int access_mode(char *b, size_t n, uint64_t mode)
{
	if (mode == F_OK)
		return snprintf(b, n, "F");
	int p = 0;
	static const struct {
		unsigned bit;
		const char *name;
	} f[] = {{R_OK, "R"}, {W_OK, "W"}, {X_OK, "X"}};
	for (size_t i = 0; i < PV_ARRAY_SIZE(f); i++)
		if (mode & f[i].bit) {
			p += snprintf(b + p, n - (size_t)p, "%s", f[i].name);
			mode &= ~(uint64_t)f[i].bit;
		}
	if (mode)
		p += snprintf(b + p, n - (size_t)p, "|%#llx", (unsigned long long)mode);
	return p;
}

static const char *const mmap_prot[] = {"READ", "WRITE", "EXEC", "SEM"};
static const char *const mmap_flags[] = {
	"SHARED", "PRIVATE", NULL, NULL, "FIXED", "ANONYMOUS", "32BIT", NULL, "GROWSDOWN", NULL, NULL,
	"DENYWRITE", "EXECUTABLE", "LOCKED", "NORESERVE", "POPULATE", "NONBLOCK", "STACK", "HUGETLB", "SYNC",
	"FIXED_NOREPLACE", NULL, NULL, NULL, NULL, NULL, "UNINITIALIZED"};
static const char *const rlimits[] = {"CPU", "FSIZE", "DATA", "STACK", "CORE", "RSS", "NPROC", "NOFILE",
				      "MEMLOCK", "AS", "LOCKS", "SIGPENDING", "MSGQUEUE", "NICE", "RTPRIO",
				      "RTTIME"};
static const char *const getrandom_flags[] = {"NONBLOCK", "RANDOM"};

/* One argument's text; may mask later arguments (perf's arg->mask). */
static int arg_text(char *b, size_t n, enum pv_sca fmt, uint64_t v, unsigned idx, unsigned *mask)
{
	switch (fmt) {
	case PV_SCA_HEX:
	case PV_SCA_PTR:
		return snprintf(b, n, "%#llx", (unsigned long long)v);
	case PV_SCA_FILENAME: /* perf without its vfs_getname probe: "%#x" of the address */
		return snprintf(b, n, "%#x", (unsigned)v);
	case PV_SCA_FD:
	case PV_SCA_PID:
		return snprintf(b, n, "%d", (int)v);
	case PV_SCA_FDAT:
		return (int)v == AT_FDCWD ? snprintf(b, n, "CWD") : snprintf(b, n, "%d", (int)v);
	case PV_SCA_MODE_T:
		return mode_t_names(b, n, v);
	case PV_SCA_OPEN_FLAGS:
		if (!(v & (O_CREAT | __O_TMPFILE)))
			*mask |= 1u << (idx + 1); /* the mode is read only to create */
		return open_flags(b, n, v);
	case PV_SCA_MMAP_PROT:
		return v == PROT_NONE ? snprintf(b, n, "NONE") : bit_names(b, n, v, mmap_prot, PV_ARRAY_SIZE(mmap_prot));
	case PV_SCA_MMAP_FLAGS:
		if (v & MAP_ANONYMOUS)
			*mask |= 1u << 4 | 1u << 5; /* fd and offset are ignored */
		return bit_names(b, n, v, mmap_flags, PV_ARRAY_SIZE(mmap_flags));
	case PV_SCA_ACCMODE:
		return access_mode(b, n, v);
	case PV_SCA_FUTEX_OP:
		return futex_op(b, n, v, mask);
	case PV_SCA_ARCH_PRCTL:
		return arch_prctl_code(b, n, (int64_t)v);
	case PV_SCA_RLIMIT:
		return strarray(b, n, (int)v, 0, rlimits, PV_ARRAY_SIZE(rlimits));
	case PV_SCA_GETRANDOM:
		return bit_names(b, n, v, getrandom_flags, PV_ARRAY_SIZE(getrandom_flags));
	case PV_SCA_SIGNUM: {
		const char *s = signal_name((int)v);
		return s ? snprintf(b, n, "%s", s) : snprintf(b, n, "%#x", (unsigned)v);
	}
	case PV_SCA_LONG:
	default:
		return snprintf(b, n, "%ld", (long)v);
	}
}

/* ---- what each call's arguments are --------------------------------------- */
/* perf's syscall_fmts: the calls whose arguments or return it prints its own way */
static const struct {
	const char *name;
	enum pv_sc_ret ret;
	struct {
		int idx;
		enum pv_sca fmt;
		bool show_zero;
	} arg[6];
} calls[] = {
	{"access", PV_RET_SIGNED, {{1, PV_SCA_ACCMODE}}},
	{"arch_prctl", PV_RET_SIGNED, {{0, PV_SCA_ARCH_PRCTL}, {1, PV_SCA_PTR}}},
	{"brk", PV_RET_HEX, {{0, PV_SCA_PTR}}},
	{"clone", PV_RET_PID},
	{"clone3", PV_RET_PID},
	{"close", PV_RET_SIGNED, {{0, PV_SCA_FD}}},
	{"exit", PV_RET_NONE},
	{"exit_group", PV_RET_NONE},
	{"faccessat", PV_RET_SIGNED, {{0, PV_SCA_FDAT}, {2, PV_SCA_ACCMODE}}},
	{"faccessat2", PV_RET_SIGNED, {{0, PV_SCA_FDAT}, {2, PV_SCA_ACCMODE}}},
	{"fork", PV_RET_PID},
	{"futex", PV_RET_SIGNED, {{1, PV_SCA_FUTEX_OP}}},
	{"getpid", PV_RET_PID},
	{"getppid", PV_RET_PID},
	{"getrandom", PV_RET_SIGNED, {{2, PV_SCA_GETRANDOM}}},
	{"getrlimit", PV_RET_SIGNED, {{0, PV_SCA_RLIMIT, true}}},
	{"gettid", PV_RET_PID},
	{"kill", PV_RET_SIGNED, {{1, PV_SCA_SIGNUM}}},
	{"mmap", PV_RET_HEX, {{0, PV_SCA_HEX}, {2, PV_SCA_MMAP_PROT}, {3, PV_SCA_MMAP_FLAGS}, {4, PV_SCA_FD}, {5, PV_SCA_HEX}}},
	{"mprotect", PV_RET_SIGNED, {{0, PV_SCA_HEX}, {2, PV_SCA_MMAP_PROT}}},
	{"mremap", PV_RET_HEX, {{0, PV_SCA_HEX}, {4, PV_SCA_HEX}}},
	{"munmap", PV_RET_SIGNED, {{0, PV_SCA_HEX}}},
	{"newfstatat", PV_RET_SIGNED, {{0, PV_SCA_FDAT}}},
	{"open", PV_RET_SIGNED, {{1, PV_SCA_OPEN_FLAGS}}},
	{"openat", PV_RET_SIGNED, {{0, PV_SCA_FDAT}, {2, PV_SCA_OPEN_FLAGS}}},
	{"prlimit64", PV_RET_SIGNED, {{1, PV_SCA_RLIMIT, true}}},
	{"rt_sigaction", PV_RET_SIGNED, {{0, PV_SCA_SIGNUM}}},
	{"rt_sigqueueinfo", PV_RET_SIGNED, {{1, PV_SCA_SIGNUM}}},
	{"rt_tgsigqueueinfo", PV_RET_SIGNED, {{2, PV_SCA_SIGNUM}}},
	{"setrlimit", PV_RET_SIGNED, {{0, PV_SCA_RLIMIT, true}}},
	{"set_tid_address", PV_RET_PID},
	{"tgkill", PV_RET_SIGNED, {{2, PV_SCA_SIGNUM}}},
	{"tkill", PV_RET_SIGNED, {{1, PV_SCA_SIGNUM}}},
	{"vfork", PV_RET_PID},
	{"wait4", PV_RET_PID},
};

/* perf's rules by the field (syscall_arg_fmt__init_array) */
static enum pv_sca by_field(const struct tep_format_field *f)
{
	size_t len = strlen(f->name);
	if (!strcmp(f->type, "const char *") &&
	    ((len >= 4 && !strcmp(f->name + len - 4, "name")) || strstr(f->name, "path")))
		return PV_SCA_FILENAME;
	if ((f->flags & TEP_FIELD_IS_POINTER) || strstr(f->name, "addr"))
		return PV_SCA_PTR;
	if (!strcmp(f->type, "pid_t"))
		return PV_SCA_PID;
	if (!strcmp(f->type, "umode_t"))
		return PV_SCA_MODE_T;
	if ((!strcmp(f->type, "int") || !strcmp(f->type, "unsigned int") || !strcmp(f->type, "long")) && len >= 2 &&
	    !strcmp(f->name + len - 2, "fd"))
		return PV_SCA_FD;
	return PV_SCA_LONG;
}

void pv_sc_fmt_load(struct pv_sc_fmt *f, struct perfev_tp *tp, long nr)
{
	memset(f, 0, sizeof(*f));
	f->loaded = true;
	const char *name = perfev_syscall_name(nr);
	snprintf(f->name, sizeof(f->name), "%s", name ? name : "");
	if (!name)
		snprintf(f->name, sizeof(f->name), "%ld", nr);
	size_t c = 0;
	while (c < PV_ARRAY_SIZE(calls) && (!name || strcmp(calls[c].name, name)))
		c++;
	if (c < PV_ARRAY_SIZE(calls))
		f->ret = calls[c].ret;
	/* the arguments' names and types: the call's own tracepoint */
	char tpname[64];
	snprintf(tpname, sizeof(tpname), "sys_enter_%s", f->name);
	struct tep_event *ev = NULL;
	if (name && perfev_tp_load(tp, "syscalls", tpname) >= 0)
		ev = tep_find_event_by_name(tp->tep, "syscalls", tpname);
	const struct tep_format_field *fl = ev ? ev->format.fields : NULL;
	if (fl && !strcmp(fl->name, "__syscall_nr"))
		fl = fl->next;
	for (; fl && f->nr_args < 6; fl = fl->next) {
		struct pv_sc_arg *a = &f->arg[f->nr_args++];
		snprintf(a->name, sizeof(a->name), "%s", fl->name);
		a->fmt = by_field(fl);
	}
	if (!ev) { /* no format: perf's "arg0: ..." of six */
		for (f->nr_args = 0; f->nr_args < 6; f->nr_args++)
			snprintf(f->arg[f->nr_args].name, sizeof(f->arg[0].name), "arg%zu", f->nr_args);
	}
	for (size_t i = 0; c < PV_ARRAY_SIZE(calls) && i < 6; i++) {
		int idx = calls[c].arg[i].idx;
		if (calls[c].arg[i].fmt == PV_SCA_LONG || idx < 0 || (size_t)idx >= f->nr_args)
			continue;
		f->arg[idx].fmt = calls[c].arg[i].fmt;
		f->arg[idx].show_zero = calls[c].arg[i].show_zero;
	}
}

int pv_sc_args_text(const struct pv_sc_fmt *f, const uint64_t *args, char *b, size_t n)
{
	int p = snprintf(b, n, "%s(", f->name);
	unsigned mask = 0;
	bool first = true;
	for (unsigned i = 0; i < f->nr_args && (size_t)p < n; i++) {
		if ((mask & (1u << i)) || (!args[i] && !f->arg[i].show_zero))
			continue;
		p += snprintf(b + p, n - (size_t)p, "%s%s: ", first ? "" : ", ", f->arg[i].name);
		first = false;
		if ((size_t)p < n)
			p += arg_text(b + p, n - (size_t)p, f->arg[i].fmt, args[i], i, &mask);
	}
	return (size_t)p < n ? p : (int)n - 1;
}

/* the kernel's own restart codes, which reach sys_exit but not errno.h */
static const char *kernel_errno(int e)
{
	static const char *const names[] = {"ERESTARTSYS", "ERESTARTNOINTR", "ERESTARTNOHAND", "ENOIOCTLCMD",
					    "ERESTART_RESTARTBLOCK"};
	return e >= 512 && e < 512 + (int)PV_ARRAY_SIZE(names) ? names[e - 512] : NULL;
}

int pv_sc_ret_text(const struct pv_sc_fmt *f, int64_t ret, const char *child_comm, char *b, size_t n)
{
	if (ret < 0 && ret > -4096) {
		int e = (int)-ret;
		const char *name = kernel_errno(e) ? kernel_errno(e) : perfev_errname(e);
		return snprintf(b, n, "-1 %s (%s)", name, strerror(e));
	}
	if (f->ret == PV_RET_HEX)
		return snprintf(b, n, "%#llx", (unsigned long long)ret);
	if (f->ret == PV_RET_PID && child_comm && *child_comm && strcmp(child_comm, "?"))
		return snprintf(b, n, "%lld (%s)", (long long)ret, child_comm);
	return snprintf(b, n, "%lld", (long long)ret);
}
