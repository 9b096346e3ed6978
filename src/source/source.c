/*
 * source.c: a live source's life: wait for it, connect, read, notice the
 * end, and come back.  The kinds (source-unix.c, source-tcp.c,
 * source-fifo.c, source-stdin.c) only open and close file descriptors.
 *
 * States: WAITING (no fd, a retry is due at retry_at, the delay doubling
 * from 100 ms to 2 s), CONNECTING (a non-blocking connect, finished when
 * the fd is writable; or, with no fd yet, a name being resolved, looked
 * at every SOURCE_RESOLVE_MS), OPEN (reading), ENDED (for good: stdin at
 * its end, or any source at its end with --once).  Nothing here blocks.
 */
#include <sys/socket.h>
#include <sys/stat.h>

#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "source/source.h"

uint64_t
source_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* What a path on the command line is: a FIFO, a socket, or a file. */
int
source_kind_of(const char *path, enum evtop_src_kind *kind, char **cause)
{
	struct stat	sb;

	if (strcmp(path, "-") == 0) {
		*kind = EVTOP_SRC_STDIN;
		return 0;
	}
	if (stat(path, &sb) != 0) {
		source_cause(cause, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (S_ISFIFO(sb.st_mode))
		*kind = EVTOP_SRC_FIFO;
	else if (S_ISSOCK(sb.st_mode))
		*kind = EVTOP_SRC_UNIX;
	else
		*kind = EVTOP_SRC_FILE;
	return 0;
}

struct source *
source_new(enum evtop_src_kind kind, const char *target, int once,
    char **cause)
{
	const struct source_ops	*ops;
	struct source		*src;
	char			 host[256], port[32];

	switch (kind) {
	case EVTOP_SRC_UNIX:
		ops = &source_unix_ops;
		if (strlen(target) >= 108) {
			source_cause(cause, "%s: socket path too long (at "
			    "most 107 bytes)", target);
			return NULL;
		}
		break;
	case EVTOP_SRC_TCP:
		ops = &source_tcp_ops;
		if (source_tcp_split(target, host, sizeof host, port,
		    sizeof port, cause) != 0)
			return NULL;
		break;
	case EVTOP_SRC_FIFO:
		ops = &source_fifo_ops;
		break;
	case EVTOP_SRC_STDIN:
		ops = &source_stdin_ops;
		break;
	default:
		source_cause(cause, "%s: not a live source", target);
		return NULL;
	}
	if ((src = calloc(1, sizeof *src)) == NULL) {
		source_cause(cause, "out of memory");
		return NULL;
	}
	src->ops = ops;
	src->target = target;
	src->fd = -1;
	src->once = once;
	src->state = SOURCE_WAITING;
	src->backoff_ms = SOURCE_BACKOFF_MIN_MS;
	src->retry_at = 0;
	snprintf(src->msg, sizeof src->msg, "connecting");
	return src;
}

void
source_free(struct source *src)
{
	if (src == NULL)
		return;
	if (src->fd != -1)
		src->ops->close(src);
	if (src->ops->free != NULL)
		src->ops->free(src);
	free(src);
}

/* The poll() events to ask for, 0 when there is no fd. */
short
source_poll_events(const struct source *src)
{
	switch (src->state) {
	case SOURCE_CONNECTING:
		return POLLOUT;
	case SOURCE_OPEN:
		return POLLIN;
	default:
		return 0;
	}
}

/* Milliseconds until source_step() has something to do, or -1. */
int
source_timeout_ms(const struct source *src, uint64_t now)
{
	uint64_t	ms, at;

	if (src->state == SOURCE_WAITING)
		at = src->retry_at;
	else if (src->state == SOURCE_CONNECTING && src->fd == -1)
		return SOURCE_RESOLVE_MS;
	else if (src->state == SOURCE_CONNECTING)
		at = src->connect_by;
	else
		return -1;
	if (at <= now)
		return 0;
	ms = (at - now + 999999) / 1000000;
	return ms > 60000 ? 60000 : (int)ms;
}

/* Schedule the next attempt; returns the delay in ms. */
static unsigned
source_retry_later(struct source *src, uint64_t now)
{
	unsigned	delay = src->backoff_ms;

	src->state = SOURCE_WAITING;
	src->retry_at = now + (uint64_t)delay * 1000000;
	src->backoff_ms *= 2;
	if (src->backoff_ms > SOURCE_BACKOFF_MAX_MS)
		src->backoff_ms = SOURCE_BACKOFF_MAX_MS;
	return delay;
}

static void
source_failed(struct source *src, char *cause, uint64_t now)
{
	if (src->fd != -1)
		src->ops->close(src);
	src->fd = -1;
	source_retry_later(src, now);
	snprintf(src->msg, sizeof src->msg, "%s: %s",
	    src->ever ? "reconnecting" : "waiting",
	    cause != NULL ? cause : "failed");
	free(cause);
}

static enum source_ev
source_opened(struct source *src)
{
	src->state = SOURCE_OPEN;
	src->had_data = 0;
	src->conn_bytes = 0;
	if (src->ops->lazy)
		snprintf(src->msg, sizeof src->msg, "waiting for a writer");
	else
		snprintf(src->msg, sizeof src->msg, "connected, no data yet");
	return SOURCE_EV_OPENED;
}

/* Move on: try to open when a retry is due, finish a connect. */
enum source_ev
source_step(struct source *src, short revents, uint64_t now)
{
	char	*cause = NULL;
	int	 r, resolving;

	switch (src->state) {
	case SOURCE_WAITING:
		if (now < src->retry_at)
			return SOURCE_EV_NONE;
		r = src->ops->open(src, &cause);
		if (r < 0) {
			source_failed(src, cause, now);
			return SOURCE_EV_NONE;
		}
		if (r > 0) {
			src->state = SOURCE_CONNECTING;
			src->connect_by = now +
			    (uint64_t)SOURCE_CONNECT_MS * 1000000;
			return SOURCE_EV_NONE;
		}
		return source_opened(src);
	case SOURCE_CONNECTING:
		resolving = src->fd == -1;
		if (!resolving && (revents & (POLLOUT|POLLERR|POLLHUP)) == 0) {
			if (now < src->connect_by)
				return SOURCE_EV_NONE;
			source_failed(src, strdup("connect timed out"), now);
			return SOURCE_EV_NONE;
		}
		r = src->ops->finish(src, &cause);
		if (r < 0) {
			source_failed(src, cause, now);
			return SOURCE_EV_NONE;
		}
		if (r > 0 && src->fd == -1 && now >= src->connect_by) {
			/* Still resolving at the deadline. */
			source_failed(src, strdup("resolving the name timed "
			    "out"), now);
			return SOURCE_EV_NONE;
		}
		if (r > 0)
			return SOURCE_EV_NONE;
		return source_opened(src);
	default:
		return SOURCE_EV_NONE;
	}
}

/* The connection is over: come back later, or end for good. */
void
source_disconnect(struct source *src, const char *why, uint64_t now)
{
	if (src->fd != -1)
		src->ops->close(src);
	src->fd = -1;
	if (src->once || !src->ops->reopen) {
		src->state = SOURCE_ENDED;
		snprintf(src->msg, sizeof src->msg, "%s", why);
		return;
	}
	src->backoff_ms = SOURCE_BACKOFF_MIN_MS;
	source_retry_later(src, now);
	snprintf(src->msg, sizeof src->msg, "%s; %s", why,
	    src->ops->lazy ? "reopening" : "reconnecting");
}

/*
 * Read what is there.  Returns the number of bytes read; 0 when nothing
 * was read, *ev saying whether the connection ended.
 */
ssize_t
source_read(struct source *src, void *buf, size_t len, short revents,
    uint64_t now, enum source_ev *ev)
{
	char	why[128];
	ssize_t	n;

	*ev = SOURCE_EV_NONE;
	if (src->state != SOURCE_OPEN)
		return 0;
	n = read(src->fd, buf, len);
	if (n > 0) {
		if (!src->had_data) {
			src->had_data = src->ever = 1;
			src->connections++;
			snprintf(src->msg, sizeof src->msg, "connected");
		}
		src->conn_bytes += (uint64_t)n;
		src->bytes += (uint64_t)n;
		*ev = SOURCE_EV_DATA;
		return n;
	}
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK ||
	    errno == EINTR))
		return 0;
	if (n == 0 && src->ops->lazy && !src->had_data) {
		/*
		 * A FIFO reads 0 until a writer has come, and keeps
		 * reporting POLLHUP if one came and went without writing:
		 * open it again, quietly, so poll() waits for the next one.
		 * With --once that writer's stream has ended, empty.
		 */
		if ((revents & POLLHUP) && src->once) {
			source_disconnect(src, "its writer closed it "
			    "without writing anything", now);
			*ev = SOURCE_EV_CLOSED;
		} else if (revents & POLLHUP) {
			src->ops->close(src);
			src->fd = -1;
			src->state = SOURCE_WAITING;
			src->retry_at = now;
			*ev = SOURCE_EV_NONE;
		}
		return 0;
	}
	if (n == 0 && src->conn_bytes == 0)
		snprintf(why, sizeof why, "%s: nothing came",
		    src->ops->reopen ? "closed" : "end of input");
	else if (n == 0)
		snprintf(why, sizeof why, "%s after %llu bytes",
		    src->ops->reopen ? "closed" : "end of input",
		    (unsigned long long)src->conn_bytes);
	else
		snprintf(why, sizeof why, "read error after %llu bytes: %s",
		    (unsigned long long)src->conn_bytes, strerror(errno));
	source_disconnect(src, why, now);
	*ev = SOURCE_EV_CLOSED;
	return 0;
}

/* Write without blocking; -1 with errno set, EAGAIN when full. */
ssize_t
source_write(struct source *src, const void *buf, size_t len)
{
	if (src->state != SOURCE_OPEN || src->ops->write == NULL) {
		errno = ENOTCONN;
		return -1;
	}
	return src->ops->write(src, buf, len);
}

/* The write of the socket kinds: no SIGPIPE, never blocks. */
ssize_t
source_send(struct source *src, const void *buf, size_t len)
{
	return send(src->fd, buf, len, MSG_NOSIGNAL|MSG_DONTWAIT);
}

int
source_takes_control(const struct source *src)
{
	return src->ops->control;
}

enum evtop_conn
source_conn(const struct source *src)
{
	switch (src->state) {
	case SOURCE_OPEN:
		if (src->ops->lazy && !src->had_data)
			return src->ever ? EVTOP_CONN_CLOSED :
			    EVTOP_CONN_WAITING;
		return EVTOP_CONN_OPEN;
	case SOURCE_ENDED:
		return EVTOP_CONN_CLOSED;
	default:
		return src->ever ? EVTOP_CONN_CLOSED : EVTOP_CONN_WAITING;
	}
}
