/*
 * listen.c: the sockets evtop listens on for --serve, --serve-tcp and
 * --metrics, all non-blocking and close-on-exec.
 *
 * Only what the user named: a TCP HOST:PORT is resolved once at start
 * (HOST is required, so nothing listens on every interface by accident)
 * and every address it gives is bound.  A Unix socket is made owner-only
 * (umask 077 while binding, then chmod 0600), is never put in place of a
 * file that is not a socket, nor of a socket someone still listens on;
 * listen_unix_remove() takes it away at exit if it is still ours.
 */
#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <netinet/in.h>

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "serve/serve.h"
#include "source/source.h"

#define LISTEN_BACKLOG	64

/* The address a socket is bound to, as HOST:PORT or [HOST]:PORT. */
static void
listen_name(int fd, char *buf, size_t size)
{
	struct sockaddr_storage	ss;
	socklen_t		len = sizeof ss;
	char			host[INET6_ADDRSTRLEN];
	const void		*a;
	unsigned		port;

	buf[0] = '\0';
	if (getsockname(fd, (struct sockaddr *)&ss, &len) != 0)
		return;
	if (ss.ss_family == AF_INET) {
		a = &((struct sockaddr_in *)&ss)->sin_addr;
		port = ntohs(((struct sockaddr_in *)&ss)->sin_port);
		inet_ntop(AF_INET, a, host, sizeof host);
		snprintf(buf, size, "%s:%u", host, port);
	} else if (ss.ss_family == AF_INET6) {
		a = &((struct sockaddr_in6 *)&ss)->sin6_addr;
		port = ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
		inet_ntop(AF_INET6, a, host, sizeof host);
		snprintf(buf, size, "[%s]:%u", host, port);
	}
}

/*
 * Listen on every address of HOST:PORT, at most max of them; fds[] gets
 * them and names (if not NULL, size bytes) their bound addresses, space
 * separated (port 0 picks one).  Returns how many, or -1 with *cause.
 */
int
listen_tcp(const char *target, int *fds, int max, char *names, size_t size,
    char **cause)
{
	struct addrinfo	 hints, *list, *ai;
	char		 host[256], port[32], one[80] = "", why[160] = "";
	int		 fd, n = 0, on = 1, error;
	size_t		 len;

	if (source_tcp_split(target, host, sizeof host, port, sizeof port,
	    cause) != 0)
		return -1;
	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE;
	if ((error = getaddrinfo(host, port, &hints, &list)) != 0) {
		source_cause(cause, "%s: %s", target, gai_strerror(error));
		return -1;
	}
	if (names != NULL && size > 0)
		names[0] = '\0';
	for (ai = list; ai != NULL && n < max; ai = ai->ai_next) {
		fd = socket(ai->ai_family,
		    ai->ai_socktype|SOCK_NONBLOCK|SOCK_CLOEXEC,
		    ai->ai_protocol);
		if (fd == -1)
			continue;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
		/* Both of "localhost"'s addresses on one port. */
		if (ai->ai_family == AF_INET6)
			setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &on,
			    sizeof on);
		if (bind(fd, ai->ai_addr, ai->ai_addrlen) != 0 ||
		    listen(fd, LISTEN_BACKLOG) != 0) {
			snprintf(why, sizeof why, "%s", strerror(errno));
			close(fd);
			continue;
		}
		fds[n++] = fd;
		if (names != NULL) {
			listen_name(fd, one, sizeof one);
			len = strlen(names);
			snprintf(names + len, size - len, "%s%s",
			    len > 0 ? " " : "", one);
		}
		/* Port 0 would give each address another port. */
		if (strcmp(port, "0") == 0)
			break;
	}
	freeaddrinfo(list);
	if (n == 0) {
		source_cause(cause, "%s: cannot listen: %s", target,
		    why[0] != '\0' ? why : "no address");
		return -1;
	}
	return n;
}

/*
 * Listen on a Unix socket at path, mode 0600.  A stale socket (nobody
 * accepting) is replaced; anything else there is an error.
 */
int
listen_unix(const char *path, uint64_t *id, char **cause)
{
	struct sockaddr_un	 sun;
	struct stat		 sb;
	mode_t			 old;
	int			 fd, probe, rc;

	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof sun.sun_path) {
		source_cause(cause, "%s: path too long", path);
		return -1;
	}
	strcpy(sun.sun_path, path);
	if (lstat(path, &sb) == 0) {
		if (!S_ISSOCK(sb.st_mode)) {
			source_cause(cause, "%s: exists and is not a socket",
			    path);
			return -1;
		}
		probe = socket(AF_UNIX, SOCK_STREAM|SOCK_CLOEXEC, 0);
		if (probe != -1 && connect(probe, (struct sockaddr *)&sun,
		    sizeof sun) == 0) {
			close(probe);
			source_cause(cause, "%s: another program listens "
			    "there", path);
			return -1;
		}
		if (probe != -1)
			close(probe);
		if (unlink(path) != 0) {
			source_cause(cause, "%s: %s", path, strerror(errno));
			return -1;
		}
	}
	fd = socket(AF_UNIX, SOCK_STREAM|SOCK_NONBLOCK|SOCK_CLOEXEC, 0);
	if (fd == -1) {
		source_cause(cause, "socket: %s", strerror(errno));
		return -1;
	}
	/* Owner-only from the start: no moment where others may connect. */
	old = umask(077);
	rc = bind(fd, (struct sockaddr *)&sun, sizeof sun);
	umask(old);
	if (rc != 0 || chmod(path, 0600) != 0 || lstat(path, &sb) != 0 ||
	    listen(fd, LISTEN_BACKLOG) != 0) {
		source_cause(cause, "%s: %s", path, strerror(errno));
		if (rc == 0)
			unlink(path);
		close(fd);
		return -1;
	}
	*id = (uint64_t)sb.st_ino ^ ((uint64_t)sb.st_dev << 40);
	return fd;
}

/* Remove our socket at path, unless something else has taken its place. */
void
listen_unix_remove(const char *path, uint64_t id)
{
	struct stat	sb;

	if (lstat(path, &sb) == 0 && S_ISSOCK(sb.st_mode) &&
	    ((uint64_t)sb.st_ino ^ ((uint64_t)sb.st_dev << 40)) == id)
		unlink(path);
}

/* A connection from a listener, non-blocking; -1 when none (or error). */
int
listen_accept(int lfd)
{
	int	fd;

	do
		fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK|SOCK_CLOEXEC);
	while (fd == -1 && errno == EINTR);
	return fd;
}
