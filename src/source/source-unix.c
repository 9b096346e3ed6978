/*
 * source-unix.c: a Unix socket, the way eventlog-socket serves it.  The
 * program unlinks and re-creates the path when it restarts; until then
 * connect() says ENOENT or ECONNREFUSED and source.c waits.
 */
#include <sys/socket.h>
#include <sys/un.h>

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "source/source.h"

static int
source_unix_open(struct source *src, char **cause)
{
	struct sockaddr_un	sun;
	int			fd;

	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	if (strlen(src->target) >= sizeof sun.sun_path) {
		source_cause(cause, "socket path too long");
		return -1;
	}
	memcpy(sun.sun_path, src->target, strlen(src->target));
	fd = socket(AF_UNIX, SOCK_STREAM|SOCK_NONBLOCK|SOCK_CLOEXEC, 0);
	if (fd == -1) {
		source_cause(cause, "socket: %s", strerror(errno));
		return -1;
	}
	if (connect(fd, (struct sockaddr *)&sun, sizeof sun) != 0) {
		if (errno == EINPROGRESS) {
			src->fd = fd;
			return 1;
		}
		source_cause(cause, "%s", strerror(errno));
		close(fd);
		return -1;
	}
	src->fd = fd;
	return 0;
}

static int
source_unix_finish(struct source *src, char **cause)
{
	socklen_t	len = sizeof (int);
	int		err = 0;

	if (getsockopt(src->fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0)
		err = errno;
	if (err != 0) {
		source_cause(cause, "%s", strerror(err));
		return -1;
	}
	return 0;
}

static void
source_unix_close(struct source *src)
{
	close(src->fd);
	src->fd = -1;
}

const struct source_ops source_unix_ops = {
	.name = "unix",
	.open = source_unix_open,
	.finish = source_unix_finish,
	.close = source_unix_close,
	.write = source_send,
	.control = 1,
	.reopen = 1,
};
