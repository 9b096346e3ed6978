/*
 * source-fifo.c: a named pipe (`+RTS -l -ol FIFO`).  Opened for reading
 * without blocking, it has no writer until the program opens it: source.c
 * treats it as "waiting for a writer" until the first byte.  When the
 * writer closes it, it is opened again for the next one.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "source/source.h"

static int
source_fifo_open(struct source *src, char **cause)
{
	int	fd;

	fd = open(src->target, O_RDONLY|O_NONBLOCK|O_CLOEXEC);
	if (fd == -1) {
		source_cause(cause, "%s", strerror(errno));
		return -1;
	}
	src->fd = fd;
	return 0;
}

static void
source_fifo_close(struct source *src)
{
	close(src->fd);
	src->fd = -1;
}

const struct source_ops source_fifo_ops = {
	.name = "fifo",
	.open = source_fifo_open,
	.close = source_fifo_close,
	.reopen = 1,
	.lazy = 1,
};
