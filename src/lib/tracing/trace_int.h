/* trace_int.h — perfev trace's pieces (private): how each system call's
 * arguments and return value print (syscall_beauty.c) and the line per call
 * (trace_stream.c), for the tracer (trace_run.c). */
#ifndef PERFEV_TRACE_INT_H
#define PERFEV_TRACE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

struct perfev_tp;

/* How an argument prints (perf trace's SCA_* beautifiers). */
enum pv_sca {
	PV_SCA_LONG, /* "%ld" */
	PV_SCA_HEX,
	PV_SCA_PTR,
	PV_SCA_FILENAME,
	PV_SCA_PID,
	PV_SCA_MODE_T,
	PV_SCA_FD,
	PV_SCA_FDAT,
	PV_SCA_OPEN_FLAGS,
	PV_SCA_MMAP_PROT,
	PV_SCA_MMAP_FLAGS,
	PV_SCA_ACCMODE,
	PV_SCA_FUTEX_OP,
	PV_SCA_ARCH_PRCTL,
	PV_SCA_RLIMIT,
	PV_SCA_GETRANDOM,
	PV_SCA_SIGNUM,
};

/* How the return value prints: a number, hex (brk, mmap), a pid with its
 * thread's name, or none (exit, exit_group: printed at entry, "= ?"). */
enum pv_sc_ret { PV_RET_SIGNED, PV_RET_HEX, PV_RET_PID, PV_RET_NONE };

struct pv_sc_arg {
	char name[32];
	enum pv_sca fmt;
	bool show_zero;
};

/* One system call's format: its name and arguments, from its
 * syscalls:sys_enter_NAME tracepoint and perf's table of special calls. */
struct pv_sc_fmt {
	char name[32];
	struct pv_sc_arg arg[6];
	size_t nr_args;
	enum pv_sc_ret ret;
	bool loaded;
};

void pv_sc_fmt_load(struct pv_sc_fmt *f, struct perfev_tp *tp, long nr);
/* "openat(dfd: CWD, filename: 0x3dfbb0b1, flags: RDONLY|CLOEXEC" (no closing
 * parenthesis), into b of n bytes; its length. */
int pv_sc_args_text(const struct pv_sc_fmt *f, const uint64_t *args, char *b, size_t n);
/* "3", "0x7f3a00000", "-1 ENOENT (No such file or directory)", "1234 (cat)". */
int pv_sc_ret_text(const struct pv_sc_fmt *f, int64_t ret, const char *child_comm, char *b, size_t n);

/* The lines of perf trace: each call at its exit (with its entry's time and
 * arguments), in time order, as "%10.3f ( %6.3f ms): comm/tid call(args) = ret". */
struct pv_sc_stream;
struct pv_sc_stream *pv_sc_stream_new(struct perfev_tp *tp, FILE *out, double min_ms);
void pv_sc_stream_free(struct pv_sc_stream *s);
int pv_sc_stream_comm(struct pv_sc_stream *s, pid_t tid, const char *comm);
int pv_sc_stream_enter(struct pv_sc_stream *s, pid_t tid, uint64_t time, long nr, const uint64_t *args);
int pv_sc_stream_exit(struct pv_sc_stream *s, pid_t tid, uint64_t time, long nr, int64_t ret);

#endif
