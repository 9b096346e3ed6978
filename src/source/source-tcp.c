/*
 * source-tcp.c: a TCP connection to HOST:PORT, [IPV6]:PORT, or a name
 * (each attempt resolves again: the program may come back elsewhere).
 * Each address is tried in turn with a non-blocking connect().
 *
 * A name is resolved in the background with glibc's getaddrinfo_a(), so
 * that a slow DNS server never stops the loop (keys, drawing): open()
 * queues the request and says "in progress" with no fd, and finish(),
 * called at every step while there is none (source.c), looks whether it
 * is done.  A request that cannot be cancelled is waited for by the next
 * attempt rather than queued again.  Numeric addresses need no resolver.
 */
#include <sys/socket.h>

#include <netinet/in.h>
#include <netinet/tcp.h>

#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "source/source.h"

struct source_tcp {
	struct addrinfo	*list;
	struct addrinfo	*next;		/* next address to try */
	char		 last[128];	/* why the last address failed */

	/* A name being resolved: the request and what it points to. */
	int		 resolving;
	struct gaicb	 req;
	struct addrinfo	 hints;
	char		 host[256], port[32];
};

/* Split HOST:PORT or [HOST]:PORT. */
int
source_tcp_split(const char *target, char *host, size_t hostsize,
    char *port, size_t portsize, char **cause)
{
	const char	*colon, *end, *orig = target;
	size_t		 hlen;

	if (target[0] == '[') {
		if ((end = strchr(target, ']')) == NULL || end[1] != ':') {
			source_cause(cause, "%s: expected [ADDRESS]:PORT",
			    target);
			return -1;
		}
		hlen = (size_t)(end - target - 1);
		colon = end + 1;
		target++;
	} else {
		if ((colon = strrchr(target, ':')) == NULL) {
			source_cause(cause, "%s: expected HOST:PORT", target);
			return -1;
		}
		if (memchr(target, ':', (size_t)(colon - target)) != NULL) {
			source_cause(cause, "%s: an IPv6 address goes in "
			    "brackets: [ADDRESS]:PORT", target);
			return -1;
		}
		hlen = (size_t)(colon - target);
	}
	if (hlen == 0 || hlen >= hostsize) {
		source_cause(cause, "%s: bad host", orig);
		return -1;
	}
	if (colon[1] == '\0' || strlen(colon + 1) >= portsize) {
		source_cause(cause, "%s: bad port", orig);
		return -1;
	}
	/* A number, 0 to 65535: getaddrinfo() takes 99999 as 34463. */
	if (strspn(colon + 1, "0123456789") == strlen(colon + 1) &&
	    (strlen(colon + 1) > 5 || atol(colon + 1) > 65535)) {
		source_cause(cause, "%s: a port is 0 to 65535", orig);
		return -1;
	}
	memcpy(host, target, hlen);
	host[hlen] = '\0';
	strcpy(port, colon + 1);
	return 0;
}

static void
source_tcp_forget(struct source_tcp *st)
{
	if (st->list != NULL)
		freeaddrinfo(st->list);
	st->list = st->next = NULL;
}

/* Start connecting to the next address: 0 done, 1 in progress, -1 none. */
static int
source_tcp_try(struct source *src, char **cause)
{
	struct source_tcp	*st = src->data;
	struct addrinfo		*ai;
	int			 fd, one = 1;

	while ((ai = st->next) != NULL) {
		st->next = ai->ai_next;
		fd = socket(ai->ai_family,
		    ai->ai_socktype|SOCK_NONBLOCK|SOCK_CLOEXEC,
		    ai->ai_protocol);
		if (fd == -1) {
			snprintf(st->last, sizeof st->last, "socket: %s",
			    strerror(errno));
			continue;
		}
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) {
			src->fd = fd;
			source_tcp_forget(st);
			return 0;
		}
		if (errno == EINPROGRESS) {
			src->fd = fd;
			return 1;
		}
		snprintf(st->last, sizeof st->last, "%s", strerror(errno));
		close(fd);
	}
	source_cause(cause, "%s", st->last);
	source_tcp_forget(st);
	return -1;
}

/* The addresses are known: try them. */
static int
source_tcp_resolved(struct source *src, struct addrinfo *list, char **cause)
{
	struct source_tcp	*st = src->data;

	st->list = st->next = list;
	snprintf(st->last, sizeof st->last, "no address");
	return source_tcp_try(src, cause);
}

static int
source_tcp_open(struct source *src, char **cause)
{
	struct source_tcp	*st = src->data;
	struct gaicb		*reqs[1];
	struct addrinfo		*list;
	int			 error;

	if (st == NULL) {
		if ((st = calloc(1, sizeof *st)) == NULL) {
			source_cause(cause, "out of memory");
			return -1;
		}
		src->data = st;
	}
	if (st->resolving)
		return 1;	/* the last attempt's request still runs */
	source_tcp_forget(st);
	if (source_tcp_split(src->target, st->host, sizeof st->host,
	    st->port, sizeof st->port, cause) != 0)
		return -1;
	memset(&st->hints, 0, sizeof st->hints);
	st->hints.ai_family = AF_UNSPEC;
	st->hints.ai_socktype = SOCK_STREAM;
	st->hints.ai_flags = AI_NUMERICHOST;
	error = getaddrinfo(st->host, st->port, &st->hints, &list);
	if (error == 0)
		return source_tcp_resolved(src, list, cause);
	if (error != EAI_NONAME) {
		source_cause(cause, "%s: %s", st->host, gai_strerror(error));
		return -1;
	}
	/* A name: in the background. */
	st->hints.ai_flags = 0;
	memset(&st->req, 0, sizeof st->req);
	st->req.ar_name = st->host;
	st->req.ar_service = st->port;
	st->req.ar_request = &st->hints;
	reqs[0] = &st->req;
	if ((error = getaddrinfo_a(GAI_NOWAIT, reqs, 1, NULL)) != 0) {
		source_cause(cause, "%s: %s", st->host, gai_strerror(error));
		return -1;
	}
	st->resolving = 1;
	return 1;
}

static int
source_tcp_finish(struct source *src, char **cause)
{
	struct source_tcp	*st = src->data;
	socklen_t		 len = sizeof (int);
	int			 err = 0;

	if (st->resolving) {
		if ((err = gai_error(&st->req)) == EAI_INPROGRESS)
			return 1;
		st->resolving = 0;
		if (err != 0) {
			source_cause(cause, "%s: %s", st->host,
			    gai_strerror(err));
			return -1;
		}
		return source_tcp_resolved(src, st->req.ar_result, cause);
	}
	if (getsockopt(src->fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0)
		err = errno;
	if (err == 0) {
		source_tcp_forget(st);
		return 0;
	}
	snprintf(st->last, sizeof st->last, "%s", strerror(err));
	close(src->fd);
	src->fd = -1;
	return source_tcp_try(src, cause);
}

/* Stop a request still running if it can be; else a later attempt (or
 * free) waits for it. */
static void
source_tcp_cancel(struct source_tcp *st)
{
	if (!st->resolving)
		return;
	switch (gai_cancel(&st->req)) {
	case EAI_CANCELED:
		st->resolving = 0;
		break;
	case EAI_ALLDONE:
		st->resolving = 0;
		if (gai_error(&st->req) == 0)
			freeaddrinfo(st->req.ar_result);
		break;
	}
}

static void
source_tcp_close(struct source *src)
{
	if (src->fd != -1)
		close(src->fd);
	src->fd = -1;
	if (src->data != NULL) {
		source_tcp_cancel(src->data);
		source_tcp_forget(src->data);
	}
}

static void
source_tcp_free(struct source *src)
{
	struct source_tcp	*st = src->data;
	const struct gaicb	*reqs[1];

	if (st == NULL)
		return;
	source_tcp_cancel(st);
	if (st->resolving) {
		/* It writes into st when it ends: wait (at exit only). */
		reqs[0] = &st->req;
		while (gai_error(&st->req) == EAI_INPROGRESS)
			gai_suspend(reqs, 1, NULL);
		if (gai_error(&st->req) == 0)
			freeaddrinfo(st->req.ar_result);
	}
	source_tcp_forget(st);
	free(st);
	src->data = NULL;
}

const struct source_ops source_tcp_ops = {
	.name = "tcp",
	.open = source_tcp_open,
	.finish = source_tcp_finish,
	.close = source_tcp_close,
	.free = source_tcp_free,
	.write = source_send,
	.control = 1,
	.reopen = 1,
};
