/* notify.c — poll/epoll over event fds, and overflow signals. */
#define _GNU_SOURCE
#include "core/internal.h"
#include "perfev/notify.h"

#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

struct poll_entry {
	int fd; /* -1: a free slot */
	void *ctx;
};

struct perfev_poller {
	int epfd;
	struct poll_entry *ents;
	size_t nents, cap, count;
	struct epoll_event *evbuf;
	size_t evcap;
};

PERFEV_API struct perfev_poller *perfev_poller_new(void)
{
	struct perfev_poller *p = calloc(1, sizeof(*p));
	if (!p)
		return pv_error_null(ENOMEM, "poller: out of memory");
	p->epfd = epoll_create1(EPOLL_CLOEXEC);
	if (p->epfd < 0) {
		int e = errno;
		free(p);
		return pv_error_null(e, "poller: epoll_create1: %s (fix: raise the open-file limit, ulimit -n)",
				     strerror(e));
	}
	return p;
}

PERFEV_API void perfev_poller_free(struct perfev_poller *p)
{
	if (!p)
		return;
	close(p->epfd);
	free(p->ents);
	free(p->evbuf);
	free(p);
}

PERFEV_API int perfev_poller_add(struct perfev_poller *p, int fd, void *ctx)
{
	if (!p)
		return pv_error(EINVAL, "poller: NULL");
	size_t slot = p->nents;
	for (size_t i = 0; i < p->nents; i++)
		if (p->ents[i].fd < 0) {
			slot = i;
			break;
		}
	if (slot == p->nents && pv_grow(&p->ents, &p->cap, p->nents + 1, sizeof(*p->ents)) < 0)
		return pv_error(ENOMEM, "poller: out of memory");
	/* epoll_data carries the slot: fd and ctx both come back from it. */
	struct epoll_event ev = {.events = EPOLLIN, .data.u64 = slot};
	if (epoll_ctl(p->epfd, EPOLL_CTL_ADD, fd, &ev) < 0)
		return pv_error(errno, "poller: cannot watch fd %d: %s", fd, strerror(errno));
	p->ents[slot] = (struct poll_entry){fd, ctx};
	if (slot == p->nents)
		p->nents++;
	p->count++;
	return 0;
}

PERFEV_API int perfev_poller_del(struct perfev_poller *p, int fd)
{
	if (!p)
		return pv_error(EINVAL, "poller: NULL");
	for (size_t i = 0; i < p->nents; i++) {
		if (p->ents[i].fd != fd)
			continue;
		epoll_ctl(p->epfd, EPOLL_CTL_DEL, fd, NULL); /* fails harmlessly if fd was closed */
		p->ents[i].fd = -1;
		p->count--;
		return 0;
	}
	return pv_error(ENOENT, "poller: fd %d is not watched", fd);
}

PERFEV_API size_t perfev_poller_count(const struct perfev_poller *p) { return p ? p->count : 0; }
PERFEV_API int perfev_poller_fd(const struct perfev_poller *p) { return p ? p->epfd : -1; }

PERFEV_API int perfev_poller_wait(struct perfev_poller *p, struct perfev_poll_event *evs,
				  int max, int timeout_ms)
{
	if (!p || !evs || max <= 0)
		return pv_error(EINVAL, "poller_wait: bad arguments");
	if ((size_t)max > p->evcap &&
	    pv_grow(&p->evbuf, &p->evcap, (size_t)max, sizeof(*p->evbuf)) < 0)
		return pv_error(ENOMEM, "poller: out of memory");
	int n = epoll_wait(p->epfd, p->evbuf, max, timeout_ms);
	if (n < 0)
		return errno == EINTR ? -(errno = EINTR)
				      : pv_error(errno, "poller: epoll_wait: %s", strerror(errno));
	int out = 0;
	for (int i = 0; i < n; i++) {
		size_t slot = p->evbuf[i].data.u64;
		if (slot >= p->nents || p->ents[slot].fd < 0)
			continue; /* removed while the event was pending */
		uint32_t e = p->evbuf[i].events;
		evs[out++] = (struct perfev_poll_event){
			.fd = p->ents[slot].fd,
			.ctx = p->ents[slot].ctx,
			.readable = e & EPOLLIN,
			.hangup = e & EPOLLHUP,
			.error = e & EPOLLERR,
		};
	}
	return out;
}

PERFEV_API int perfev_poll_fds(const int *fds, short *revents, size_t n, int timeout_ms)
{
	struct pollfd small[16], *pfd = small;
	if (n > PV_ARRAY_SIZE(small) && !(pfd = calloc(n, sizeof(*pfd))))
		return pv_error(ENOMEM, "poll: out of memory");
	for (size_t i = 0; i < n; i++)
		pfd[i] = (struct pollfd){.fd = fds[i], .events = POLLIN};
	int r = poll(pfd, n, timeout_ms);
	int e = errno;
	for (size_t i = 0; r >= 0 && i < n; i++)
		revents[i] = pfd[i].revents;
	if (pfd != small)
		free(pfd);
	if (r < 0)
		return e == EINTR ? -(errno = EINTR) : pv_error(e, "poll: %s", strerror(e));
	return r;
}

PERFEV_API int perfev_notify_signal(int fd, int sig, pid_t tid)
{
	struct f_owner_ex owner = {.type = F_OWNER_TID, .pid = tid ? tid : gettid()};
	if (fcntl(fd, F_SETOWN_EX, &owner) < 0)
		return pv_error(errno, "signal: F_SETOWN_EX of fd %d to thread %d: %s", fd,
				(int)owner.pid, strerror(errno));
	if (fcntl(fd, F_SETSIG, sig) < 0)
		return pv_error(errno, "signal: F_SETSIG %d on fd %d: %s", sig, fd, strerror(errno));
	int fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl | O_ASYNC) < 0)
		return pv_error(errno, "signal: O_ASYNC on fd %d: %s", fd, strerror(errno));
	return 0;
}

PERFEV_API int perfev_notify_signal_off(int fd)
{
	int fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_ASYNC) < 0)
		return pv_error(errno, "signal: clearing O_ASYNC on fd %d: %s", fd, strerror(errno));
	return 0;
}
