/*
 * record.c: --record FILE, the bytes received, as they arrive.
 *
 * Each connection that delivers data gets its own file, so that every file
 * is a whole eventlog starting with its header: the first goes to FILE, the
 * next to FILE.1, then FILE.2 and so on (each created or truncated when
 * its first byte arrives; FILE itself is created at start, so a bad path
 * fails at once).  Bytes before the first "hdrb" of a connection are not
 * recorded (GHC 9.0.2 sends a block marker before the header when a client
 * reconnects).
 *
 * At every moment a file is an eventlog cut anywhere, at worst inside its
 * last event.  When a connection ends without the end marker, the file is
 * cut after its last whole event and given one (record_end()), so that
 * readers that insist on it (ghc-events) read it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "source/source.h"

struct record {
	char		*base;
	char		*path;		/* current file */
	int		 fd;
	unsigned	 next;		/* suffix of the next file */
	int		 fresh;		/* nothing written to fd yet */
	int		 seeking;	/* skipping to "hdrb" */
	uint8_t		 hold[3];	/* a possible start of "hdrb" */
	size_t		 nhold;
	uint64_t	 skipped;	/* junk before "hdrb", this connection */
	uint64_t	 written;	/* to the current file */
	uint64_t	 total;
	int		 failed;
	char		 err[200];
};

static int
record_open(struct record *rec, const char *path, char **cause)
{
	int	fd;

	fd = open(path, O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC, 0666);
	if (fd == -1) {
		source_cause(cause, "%s: %s", path, strerror(errno));
		return -1;
	}
	free(rec->path);
	if ((rec->path = strdup(path)) == NULL) {
		close(fd);
		source_cause(cause, "out of memory");
		return -1;
	}
	rec->fd = fd;
	rec->fresh = 1;
	rec->written = 0;
	return 0;
}

struct record *
record_new(const char *path, char **cause)
{
	struct record	*rec;

	if ((rec = calloc(1, sizeof *rec)) == NULL ||
	    (rec->base = strdup(path)) == NULL) {
		free(rec);
		source_cause(cause, "out of memory");
		return NULL;
	}
	rec->fd = -1;
	rec->next = 1;
	rec->seeking = 1;
	if (record_open(rec, path, cause) != 0) {
		free(rec->base);
		free(rec);
		return NULL;
	}
	return rec;
}

void
record_free(struct record *rec)
{
	if (rec == NULL)
		return;
	if (rec->fd != -1)
		close(rec->fd);
	free(rec->path);
	free(rec->base);
	free(rec);
}

static int
record_fail(struct record *rec, char **cause, const char *what)
{
	snprintf(rec->err, sizeof rec->err, "recording stopped: %.100s: %.60s",
	    rec->path != NULL ? rec->path : rec->base, what);
	if (rec->fd != -1)
		close(rec->fd);
	rec->fd = -1;
	rec->failed = 1;
	source_cause(cause, "%s", rec->err);
	return -1;
}

static int
record_put(struct record *rec, const uint8_t *p, size_t n, char **cause)
{
	char	 path[4096], *c = NULL;
	ssize_t	 w;

	if (n == 0)
		return 0;
	if (rec->fd == -1) {
		snprintf(path, sizeof path, "%s.%u", rec->base, rec->next++);
		if (record_open(rec, path, &c) != 0) {
			snprintf(rec->err, sizeof rec->err, "recording "
			    "stopped: %.170s", c != NULL ? c : path);
			free(c);
			rec->failed = 1;
			source_cause(cause, "%s", rec->err);
			return -1;
		}
	}
	while (n > 0) {
		w = write(rec->fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return record_fail(rec, cause, strerror(errno));
		}
		p += w;
		n -= (size_t)w;
		rec->written += (uint64_t)w;
		rec->total += (uint64_t)w;
	}
	rec->fresh = 0;
	return 0;
}

/* Bytes of the current connection, in order. */
int
record_write(struct record *rec, const void *buf, size_t len, char **cause)
{
	static const uint8_t	 hdrb[4] = { 'h', 'd', 'r', 'b' };
	const uint8_t		*p = buf;
	uint8_t			 tmp[8];
	size_t			 i, k, n;

	if (rec->failed)
		return 0;
	if (!rec->seeking)
		return record_put(rec, p, len, cause);

	/* The held bytes and the first new ones: "hdrb" across the seam? */
	n = rec->nhold;
	memcpy(tmp, rec->hold, n);
	k = len < 3 ? len : 3;
	memcpy(tmp + n, p, k);
	for (i = 0; i < n && i + 4 <= n + k; i++) {
		if (memcmp(tmp + i, hdrb, 4) == 0) {
			rec->skipped += i;
			rec->seeking = 0;
			rec->nhold = 0;
			if (record_put(rec, tmp + i, n - i, cause) != 0)
				return -1;
			return record_put(rec, p, len, cause);
		}
	}
	for (i = 0; i + 4 <= len; i++) {
		if (p[i] == 'h' && memcmp(p + i, hdrb, 4) == 0) {
			rec->skipped += n + i;
			rec->seeking = 0;
			rec->nhold = 0;
			return record_put(rec, p + i, len - i, cause);
		}
	}
	/* Not yet: keep the last three bytes, they may start "hdrb". */
	k = n + len < 3 ? n + len : 3;
	if (len >= k)
		memcpy(rec->hold, p + len - k, k);
	else
		memcpy(rec->hold, tmp + n + len - k, k);
	rec->skipped += n + len - k;
	rec->nhold = k;
	return 0;
}

/*
 * The connection ended.  complete is how many of its bytes made whole
 * events (junk included); add_end says it did not end with the end
 * marker, so the file is cut there and given one.  The next connection's
 * bytes go to the next file.
 */
int
record_end(struct record *rec, uint64_t complete, int add_end, char **cause)
{
	static const uint8_t	end[2] = { 0xff, 0xff };
	uint64_t		keep;

	if (!rec->failed && rec->fd != -1 && !rec->fresh && add_end &&
	    complete >= rec->skipped) {
		keep = complete - rec->skipped;
		if (keep < rec->written) {
			if (ftruncate(rec->fd, (off_t)keep) != 0 ||
			    lseek(rec->fd, (off_t)keep, SEEK_SET) < 0)
				return record_fail(rec, cause,
				    strerror(errno));
			rec->total -= rec->written - keep;
			rec->written = keep;
		}
		if (record_put(rec, end, sizeof end, cause) != 0)
			return -1;
	}
	if (rec->fd != -1 && !rec->fresh) {
		close(rec->fd);
		rec->fd = -1;
	}
	rec->seeking = 1;
	rec->nhold = 0;
	rec->skipped = 0;
	return 0;
}

const char *
record_path(const struct record *rec)
{
	return rec->failed ? NULL : rec->path;
}

uint64_t
record_bytes(const struct record *rec)
{
	return rec->total;
}

uint64_t
record_skipped(const struct record *rec)
{
	return rec->skipped;
}

const char *
record_error(const struct record *rec)
{
	return rec->failed ? rec->err : NULL;
}
