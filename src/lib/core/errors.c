/*
 * errors.c — why perf_event_open failed, in words: one explanation per errno
 * of the manual's ERRORS section, made specific with the attr, the target
 * and the machine's settings.
 */
#define _GNU_SOURCE
#include "core/internal.h"
#include "perfev/sys.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/capability.h>
#include <sys/syscall.h>

static const char *paranoid_meaning(int64_t level)
{
	if (level == PERFEV_SYSCTL_ABSENT)
		return "perf_event_paranoid is absent (no perf support in this kernel?)";
	if (level <= -1)
		return "-1: no restrictions";
	if (level == 0)
		return "0: CPU-wide and kernel measurement allowed, no raw tracepoint access without CAP_PERFMON";
	if (level == 1)
		return "1: kernel and user measurement of your own processes; no CPU-wide measurement";
	if (level == 2)
		return "2: user-space measurement of your own processes only (exclude_kernel required)";
	return ">=3: perf_event_open is denied to unprivileged users (distribution patch)";
}

static bool privileged(void)
{
	return geteuid() == 0 || pv_has_cap(CAP_PERFMON) || pv_has_cap(CAP_SYS_ADMIN);
}

/* Is process pid ours (same real uid)? Then ptrace rules are not the cause. */
static bool owned_by_us(pid_t pid)
{
	char path[64];
	struct stat st;
	snprintf(path, sizeof(path), "/proc/%d", (int)pid);
	return stat(path, &st) == 0 && st.st_uid == getuid();
}

/* The permission case shared by EACCES and EPERM. */
static void explain_permission(struct pv_buf *b, const struct perfev_attr *a, pid_t pid, int cpu,
			       unsigned long flags)
{
	struct perfev_sysctl s;
	perfev_sysctl_read(&s);
	pv_buf_printf(b, "permission denied: perf_event_paranoid is %s. ",
		      paranoid_meaning(s.paranoid));
	if (privileged()) {
		pv_buf_puts(b, "This process is privileged, so a security module (SELinux, AppArmor, "
			       "lockdown) or a seccomp filter refused it. ");
		return;
	}
	bool cpu_wide = pid == -1 || (flags & PERF_FLAG_PID_CGROUP);
	if (flags & PERF_FLAG_PID_CGROUP)
		pv_buf_puts(b, "Counting a cgroup (-G) is CPU-wide: it needs perf_event_paranoid <= 0 "
			       "or CAP_PERFMON. ");
	else if (pid == -1)
		pv_buf_puts(b, "Counting a whole CPU (system-wide, -a/-C) needs perf_event_paranoid <= 0 "
			       "or CAP_PERFMON. ");
	if (!a->exclude_kernel && s.paranoid >= 2 && !cpu_wide)
		pv_buf_puts(b, "This event counts kernel space too, and kernel counting needs "
			       "perf_event_paranoid <= 1 or CAP_PERFMON: add the :u modifier "
			       "(exclude_kernel) or lower perf_event_paranoid to 1. ");
	if (a->type == PERF_TYPE_TRACEPOINT)
		pv_buf_puts(b, "Tracepoints need read access to tracefs and, with paranoid > -1, "
			       "CAP_PERFMON for raw samples. ");
	if (a->type == PERF_TYPE_BREAKPOINT)
		pv_buf_puts(b, "A breakpoint on a kernel address needs CAP_PERFMON. ");
	/* what perf_event_paranoid itself forbids here (kernel/events/core.c) */
	bool paranoid_blocks = s.paranoid >= 3 || (cpu_wide && s.paranoid > 0) ||
			       (!cpu_wide && !a->exclude_kernel && s.paranoid >= 2) ||
			       a->type == PERF_TYPE_TRACEPOINT || a->type == PERF_TYPE_BREAKPOINT;
	/* perf_check_permission: another's process needs ptrace_may_access
	 * (PTRACE_MODE_READ_REALCREDS: the same real uid and a dumpable
	 * process, or CAP_SYS_PTRACE), whatever perf_event_paranoid says */
	bool ptrace_blocks = pid > 0 && !cpu_wide && !owned_by_us(pid);
	if (ptrace_blocks)
		pv_buf_printf(b, "Pid %d is another user's: counting a process needs the right to read it as "
				 "ptrace does (the same user and a dumpable process, or CAP_SYS_PTRACE)%s. ",
			      (int)pid, paranoid_blocks ? "" : ", and perf_event_paranoid is not what blocks it");
	if (ptrace_blocks && !paranoid_blocks)
		pv_buf_puts(b, "Fix: run as the process's owner or root, or grant CAP_PERFMON "
			       "(setcap cap_perfmon+ep), which counts any process.");
	else
		pv_buf_printf(b, "Fix: run as root, grant CAP_PERFMON (setcap cap_perfmon+ep), "
				 "or as root: sysctl kernel.perf_event_paranoid=%d (or -1).", cpu_wide ? 0 : 1);
}

static const char *field_past(uint32_t size)
{
	if (size < PERF_ATTR_SIZE_VER1) return "config2";
	if (size < PERF_ATTR_SIZE_VER2) return "branch_sample_type";
	if (size < PERF_ATTR_SIZE_VER3) return "sample_regs_user/sample_stack_user";
	if (size < PERF_ATTR_SIZE_VER4) return "sample_regs_intr";
	if (size < PERF_ATTR_SIZE_VER5) return "aux_watermark";
	if (size < PERF_ATTR_SIZE_VER6) return "aux_sample_size";
	if (size < PERF_ATTR_SIZE_VER7) return "sig_data";
	if (size < PERF_ATTR_SIZE_VER8) return "config3";
	return "a field newer than perfev knows";
}

static bool have_cpu_pmu(void)
{
	/* x86 "cpu", arm64 "armv8_*"/"cpu_*" PMUs, hybrid "cpu_core"/"cpu_atom" */
	return access("/sys/bus/event_source/devices/cpu", F_OK) == 0 ||
	       access("/sys/bus/event_source/devices/cpu_core", F_OK) == 0 ||
	       access("/sys/devices/armv8_pmuv3_0", F_OK) == 0 ||
	       access("/sys/bus/event_source/devices/armv8_pmuv3_0", F_OK) == 0;
}

PERFEV_API int perfev_explain_open(char *out, size_t len, const struct perfev_attr *a,
				   pid_t pid, int cpu, int err)
{
	return pv_explain_open_flags(out, len, a, pid, cpu, 0, err);
}

int pv_explain_open_flags(char *out, size_t len, const struct perfev_attr *a, pid_t pid,
			  int cpu, unsigned long flags, int err)
{
	struct pv_buf b = PV_BUF_INIT;
	const struct perfev_attr zero = {0};
	if (!a)
		a = &zero;

	switch (err) {
	case E2BIG:
		pv_buf_printf(&b, "the kernel knows a %u-byte perf_event_attr and this one uses %s, "
				  "which it does not support: leave that field zero or run a newer kernel.",
			      a->size, field_past(a->size));
		break;
	case EACCES:
	case EPERM:
		if (err == EPERM && (a->exclude_hv || a->exclude_idle || a->exclude_user ||
				     a->exclude_kernel) && privileged()) {
			pv_buf_puts(&b, "this PMU cannot honour the exclusion bits asked for "
					"(exclude_user/kernel/hv/idle): drop the :u/:k/:h modifiers "
					"for this event. ");
			break;
		}
		explain_permission(&b, a, pid, cpu, flags);
		break;
	case EBADF:
		pv_buf_puts(&b, "a file descriptor passed in is not valid: the group leader's fd, or, "
				"with PERF_FLAG_PID_CGROUP, the cgroup directory's fd "
				"(open /sys/fs/cgroup/NAME with O_RDONLY).");
		break;
	case EBUSY:
		pv_buf_puts(&b, "another event already holds exclusive access to this PMU (an "
				"'exclusive' event, or a tracer such as Intel PT by another tool): "
				"stop the other user or drop the exclusive modifier.");
		break;
	case EFAULT:
		pv_buf_puts(&b, "the attr (or a path or name it points to) is not readable memory.");
		break;
	case EINTR:
		pv_buf_puts(&b, "this uprobe is in use by ftrace (tracefs uprobe_events) as well: "
				"remove the ftrace probe or use it through tracefs only.");
		break;
	case EINVAL: {
		struct perfev_sysctl st;
		perfev_sysctl_read(&st);
		pv_buf_puts(&b, "the kernel rejected this event's settings as invalid. ");
		if (a->freq && st.max_sample_rate != PERFEV_SYSCTL_ABSENT &&
		    a->sample_freq > (uint64_t)st.max_sample_rate)
			pv_buf_printf(&b, "The frequency %llu Hz is above perf_event_max_sample_rate "
					  "(%lld): ask for less, or raise it as root. ",
				      (unsigned long long)a->sample_freq, (long long)st.max_sample_rate);
		if (cpu >= 0 && cpu >= sysconf(_SC_NPROCESSORS_CONF))
			pv_buf_printf(&b, "CPU %d does not exist here. ", cpu);
		if ((a->pinned || a->exclusive))
			pv_buf_puts(&b, "pinned/exclusive are allowed on group leaders only. ");
		if (a->precise_ip)
			pv_buf_puts(&b, "The precise_ip level (:p/:pp/:ppp) may be more than this PMU offers. ");
		pv_buf_puts(&b, "Other causes: a config value out of range or with reserved bits set "
				"(check the PMU's format/ in sysfs), a generic event this CPU lacks, "
				"read_format/sample_type bits this kernel does not know, or no room "
				"for the event on the PMU.");
		break;
	}
	case EMFILE:
	case ENFILE:
		pv_buf_puts(&b, "too many open files: each event on each CPU or thread is one file "
				"descriptor. Raise the limit (ulimit -n), or count fewer events, CPUs "
				"or threads.");
		break;
	case ENODEV:
		if (cpu >= 0) {
			char path[96];
			snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
			int64_t on = 1;
			if (pv_read_i64(path, &on) == 0 && on == 0) {
				pv_buf_printf(&b, "CPU %d is offline: bring it online (echo 1 > %s) "
						  "or leave it out of -C. ", cpu, path);
				break;
			}
		}
		pv_buf_puts(&b, "this CPU lacks a feature the event needs (the PMU exists but this "
				"event or mode does not on this model).");
		break;
	case ENOENT:
		pv_buf_printf(&b, "the kernel has no event of type %u config 0x%llx: ", a->type,
			      (unsigned long long)a->config);
		if ((a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE ||
		     a->type == PERF_TYPE_RAW) && !have_cpu_pmu())
			pv_buf_puts(&b, "hardware events are not supported on this machine: it has "
					"no hardware PMU (no 'cpu' in /sys/bus/event_source/devices; "
					"usual in virtual machines without PMU passthrough). Software "
					"events such as task-clock, page-faults and context-switches "
					"still work.");
		else if (a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE ||
		    a->type == PERF_TYPE_RAW)
			pv_buf_puts(&b, "this machine has no hardware PMU for it (common in virtual "
					"machines) or this CPU does not implement it. Software events "
					"such as task-clock still work.");
		else
			pv_buf_puts(&b, "the PMU type is not registered (see "
					"/sys/bus/event_source/devices) or the event is unknown.");
		break;
	case ENOSPC:
		pv_buf_puts(&b, "no room on the PMU: hardware breakpoints are few (4 on x86); "
				"use fewer mem: events at once.");
		break;
	case ENOSYS:
		pv_buf_puts(&b, "user stack sampling (PERF_SAMPLE_STACK_USER, --call-graph dwarf) "
				"is not supported here: use frame-pointer call graphs (-g).");
		break;
	case EOPNOTSUPP:
		pv_buf_puts(&b, "the hardware lacks a feature this event asks for: ");
		if (a->precise_ip)
			pv_buf_puts(&b, "low-skid sampling (:p/:pp/:ppp); ");
		if (a->sample_type & PERF_SAMPLE_BRANCH_STACK)
			pv_buf_puts(&b, "branch stacks (-b/-j, or any on a software event); ");
		if (a->sample_period || a->freq)
			pv_buf_puts(&b, "sampling (no overflow interrupt on this PMU; count instead); ");
		if (a->exclude_user || a->exclude_kernel || a->exclude_hv || a->exclude_idle ||
		    a->exclude_host || a->exclude_guest)
			pv_buf_puts(&b, "excluding user/kernel/hypervisor/idle/guest time (this PMU "
					"cannot exclude: drop the :u/:k/:h/:H/:G modifiers); ");
		pv_buf_puts(&b, "drop that request.");
		break;
	case EOVERFLOW: {
		struct perfev_sysctl st;
		perfev_sysctl_read(&st);
		pv_buf_printf(&b, "the call-chain depth asked for (%u) exceeds perf_event_max_stack "
				  "(%lld): ask for less, or raise it as root "
				  "(sysctl kernel.perf_event_max_stack).",
			      a->sample_max_stack, (long long)st.max_stack);
		break;
	}
	case ESRCH:
		pv_buf_printf(&b, "no process or thread %d exists (it may have exited): check the id "
				  "with ps -eLf, or start the program under perfev (perfev stat -- CMD).",
			      (int)pid);
		break;
	case ENOMEM:
		pv_buf_puts(&b, "the kernel is out of memory for this event.");
		break;
	default:
		pv_buf_printf(&b, "%s.", strerror(err));
	}
	int n = snprintf(out, len, "%s", b.data ? b.data : strerror(err));
	pv_buf_free(&b);
	return n;
}
