/*
 * source-stdin.c: "-", a stream on standard input.  It cannot come back
 * once it ends.  Its O_NONBLOCK flag is shared with whoever else holds the
 * same open file, so it is put back as it was on close.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "source/source.h"

struct source_stdin {
	int	flags;
};

static int
source_stdin_open(struct source *src, char **cause)
{
	struct source_stdin	*si;
	int			 flags;

	if ((flags = fcntl(STDIN_FILENO, F_GETFL)) == -1) {
		source_cause(cause, "stdin: %s", strerror(errno));
		return -1;
	}
	if (src->data == NULL) {
		if ((si = malloc(sizeof *si)) == NULL) {
			source_cause(cause, "out of memory");
			return -1;
		}
		si->flags = flags;
		src->data = si;
	}
	if (fcntl(STDIN_FILENO, F_SETFL, flags|O_NONBLOCK) == -1) {
		source_cause(cause, "stdin: %s", strerror(errno));
		return -1;
	}
	src->fd = STDIN_FILENO;
	return 0;
}

static void
source_stdin_close(struct source *src)
{
	struct source_stdin	*si = src->data;

	if (si != NULL)
		fcntl(STDIN_FILENO, F_SETFL, si->flags);
	src->fd = -1;
}

static void
source_stdin_free(struct source *src)
{
	free(src->data);
	src->data = NULL;
}

const struct source_ops source_stdin_ops = {
	.name = "stdin",
	.open = source_stdin_open,
	.close = source_stdin_close,
	.free = source_stdin_free,
};
