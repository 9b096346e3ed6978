/*
 * ckpt.c: checkpoints of a model, kept in a file of their own.
 *
 * A checkpoint is the model's bytes (model_state()) and where its events
 * stopped.  The bytes go to an unlinked temporary file in $TMPDIR, so
 * nothing is left behind whatever way evtop ends, and only the pages that
 * are not all zeros are written (a bitmap says which), nor those in the
 * model's holes (model_state_hole(): the events a live model holds back,
 * dropped when it is restored; up to 8 MiB, where the rest of a model of
 * the GHC bench logs is 1-2 MB), which come back as zeros.  At most CKPT_MAX
 * are kept: when full, every other one goes (its space punched out of the
 * file) and the caller is told to take them half as often.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "evtop.h"
#include "model/model.h"
#include "source/source.h"
#include "time/ckpt.h"

#define CKPT_PAGE	4096

struct ckpt_ent {
	struct ckpt_pos	 pos;
	uint64_t	 off;		/* in the file: bitmap, then pages */
	uint64_t	 len;		/* the model's bytes */
	uint64_t	 stored;	/* bytes in the file */
};

struct ckpt {
	int		 fd;
	uint64_t	 end;		/* where the next one goes */
	struct ckpt_ent	 ent[CKPT_MAX];
	int		 n, max;
	int		 thin_old;	/* thinning spares the newer half */
	uint64_t	 stored;	/* bytes in the file, all kept */
	uint8_t		*map;		/* bitmap scratch */
	uint8_t		*skip;		/* and the pages in holes */
	size_t		 map_len;
};

struct ckpt *
ckpt_new(char **cause)
{
	struct ckpt	*c;
	const char	*dir = getenv("TMPDIR");
	char		 path[4096];

	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
	if ((c = calloc(1, sizeof *c)) == NULL) {
		source_cause(cause, "out of memory");
		return NULL;
	}
#ifdef O_TMPFILE
	c->fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (c->fd < 0)
#endif
	{
		snprintf(path, sizeof path, "%s/evtop-ckpt.XXXXXX", dir);
		if ((c->fd = mkostemp(path, O_CLOEXEC)) >= 0)
			unlink(path);
	}
	if (c->fd < 0) {
		source_cause(cause, "checkpoints in %s: %s", dir,
		    strerror(errno));
		free(c);
		return NULL;
	}
	c->max = CKPT_MAX;
	return c;
}

/* When full, thin the older half only: the newer stay as dense. */
void
ckpt_thin_old(struct ckpt *c)
{
	c->thin_old = 1;
}

/* At most n kept (2 to CKPT_MAX). */
void
ckpt_limit(struct ckpt *c, int n)
{
	c->max = n < 2 ? 2 : n > CKPT_MAX ? CKPT_MAX : n;
	while (c->n > c->max)
		ckpt_keep(c, c->n - c->max, c->n);
}

/* Keep checkpoints [lo, hi) only: the others are no longer true (a late
 * event) or no longer reachable (the history moved on). */
void
ckpt_keep(struct ckpt *c, int lo, int hi)
{
	int	i;

	if (lo < 0)
		lo = 0;
	if (hi > c->n)
		hi = c->n;
	if (hi < lo)
		hi = lo;
	for (i = 0; i < c->n; i++) {
		if (i >= lo && i < hi)
			continue;
		c->stored -= c->ent[i].stored;
#ifdef FALLOC_FL_PUNCH_HOLE
		(void)fallocate(c->fd, FALLOC_FL_PUNCH_HOLE |
		    FALLOC_FL_KEEP_SIZE, (off_t)c->ent[i].off,
		    (off_t)c->ent[i].stored);
#endif
	}
	memmove(&c->ent[0], &c->ent[lo], (size_t)(hi - lo) * sizeof c->ent[0]);
	c->n = hi - lo;
	/* The file's end comes back after the last kept. */
	c->end = c->n == 0 ? 0 : (c->ent[c->n - 1].off +
	    c->ent[c->n - 1].stored + CKPT_PAGE - 1) &
	    ~(uint64_t)(CKPT_PAGE - 1);
}

void
ckpt_free(struct ckpt *c)
{
	if (c == NULL)
		return;
	close(c->fd);
	free(c->map);
	free(c->skip);
	free(c);
}

static int
ckpt_pwrite(int fd, const void *buf, size_t n, uint64_t off)
{
	const char	*p = buf;
	ssize_t		 w;

	while (n > 0) {
		if ((w = pwrite(fd, p, n, (off_t)off)) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
		off += (uint64_t)w;
	}
	return 0;
}

static int
ckpt_pread(int fd, void *buf, size_t n, uint64_t off)
{
	char	*p = buf;
	ssize_t	 r;

	while (n > 0) {
		if ((r = pread(fd, p, n, (off_t)off)) <= 0) {
			if (r < 0 && errno == EINTR)
				continue;
			return -1;
		}
		p += r;
		n -= (size_t)r;
		off += (uint64_t)r;
	}
	return 0;
}

static int
ckpt_zero_page(const char *p, size_t n)
{
	const uint64_t	*w = (const void *)p;
	size_t		 i;
	uint64_t	 acc = 0;

	for (i = 0; i < n / 8; i++)
		acc |= w[i];
	return acc == 0;
}

/* The pages of the state b (len bytes) wholly in m's holes, in skip. */
static void
ckpt_holes(uint8_t *skip, size_t mlen, const char *b, size_t len,
    const struct model *m)
{
	const char	*h = NULL;
	size_t		 n, i, from, to;

	memset(skip, 0, mlen);
	while ((h = model_state_hole(m, h, &n)) != NULL) {
		if (h < b || (size_t)(h - b) > len || n > len - (size_t)(h - b))
			continue;
		from = ((size_t)(h - b) + CKPT_PAGE - 1) / CKPT_PAGE;
		to = ((size_t)(h - b) + n) / CKPT_PAGE;
		for (i = from; i < to; i++)
			skip[i / 8] |= (uint8_t)(1u << (i % 8));
	}
}

/* Every other checkpoint goes (the first stays: the start), or with
 * thin_old every other of the older half. */
static void
ckpt_thin(struct ckpt *c)
{
	int	i, j, upto = c->thin_old ? c->n / 2 : c->n;

	for (i = 1, j = 1; i < c->n; i++) {
		if (i < upto && i % 2 == 1) {
			c->stored -= c->ent[i].stored;
#ifdef FALLOC_FL_PUNCH_HOLE
			(void)fallocate(c->fd, FALLOC_FL_PUNCH_HOLE |
			    FALLOC_FL_KEEP_SIZE, (off_t)c->ent[i].off,
			    (off_t)c->ent[i].stored);
#endif
			continue;
		}
		c->ent[j++] = c->ent[i];
	}
	c->n = j;
}

/*
 * Keep m's state at pos.  Returns 1 when the checkpoints were thinned
 * (take them half as often from now on), 0, or -1 on a write error.
 */
int
ckpt_save(struct ckpt *c, const struct model *m, const struct ckpt_pos *pos)
{
	const char	*b;
	size_t		 len, npages, i, run, mlen;
	uint64_t	 off;
	struct ckpt_ent	*e;
	int		 thinned = 0;

	b = model_state(m, &len);
	npages = (len + CKPT_PAGE - 1) / CKPT_PAGE;
	mlen = (npages + 7) / 8;
	if (mlen > c->map_len) {
		free(c->map);
		free(c->skip);
		c->map = malloc(mlen);
		c->skip = malloc(mlen);
		if (c->map == NULL || c->skip == NULL) {
			c->map_len = 0;
			return -1;
		}
		c->map_len = mlen;
	}
	memset(c->map, 0, mlen);
	ckpt_holes(c->skip, mlen, b, len, m);
	if (c->n == c->max) {
		ckpt_thin(c);
		thinned = 1;
	}
	off = c->end;
	e = &c->ent[c->n];
	e->off = off;
	off += (mlen + 7) & ~(size_t)7;
	/* Runs of pages that are not all zeros, written as they are. */
	for (i = 0; i < npages; i += run) {
		size_t	 plen;

		run = 0;
		while (i + run < npages) {
			plen = i + run + 1 < npages ? CKPT_PAGE :
			    len - (i + run) * CKPT_PAGE;
			if (((c->skip[(i + run) / 8] >> ((i + run) % 8)) & 1) ||
			    ckpt_zero_page(b + (i + run) * CKPT_PAGE, plen))
				break;
			c->map[(i + run) / 8] |= (uint8_t)(1u << ((i + run) % 8));
			run++;
		}
		if (run == 0) {
			run = 1;
			continue;
		}
		plen = (i + run) * CKPT_PAGE > len ? len - i * CKPT_PAGE :
		    run * CKPT_PAGE;
		if (ckpt_pwrite(c->fd, b + i * CKPT_PAGE, plen, off) != 0)
			return -1;
		off += plen;
	}
	if (ckpt_pwrite(c->fd, c->map, mlen, e->off) != 0)
		return -1;
	e->pos = *pos;
	e->len = len;
	e->stored = off - e->off;
	c->stored += e->stored;
	c->end = (off + CKPT_PAGE - 1) & ~(uint64_t)(CKPT_PAGE - 1);
	c->n++;
	return thinned;
}

int
ckpt_count(const struct ckpt *c)
{
	return c->n;
}

const struct ckpt_pos *
ckpt_at(const struct ckpt *c, int i)
{
	return i >= 0 && i < c->n ? &c->ent[i].pos : NULL;
}

uint64_t
ckpt_stored(const struct ckpt *c)
{
	return c->stored;
}

/* Whether every event e had applied came before t. */
static int
ckpt_before(const struct ckpt_ent *e, uint64_t t)
{
	return e->pos.time < t || (e->pos.time == 0 && e->pos.off == 0);
}

/* The last checkpoint whose events all came before t, or -1. */
int
ckpt_find(const struct ckpt *c, uint64_t t)
{
	int	lo = 0, hi = c->n;

	/* ent[] is in the events' order: the first not before t, less one */
	while (lo < hi) {
		int	mid = (lo + hi) / 2;

		if (ckpt_before(&c->ent[mid], t))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo - 1;
}

struct ckpt_fill {
	struct ckpt		*c;
	const struct ckpt_ent	*e;
};

static int
ckpt_fill(void *arg, void *dst, size_t len)
{
	struct ckpt_fill	*f = arg;
	struct ckpt		*c = f->c;
	const struct ckpt_ent	*e = f->e;
	char			*d = dst;
	size_t			 npages, mlen, i, run, plen;
	uint64_t		 off;

	npages = (len + CKPT_PAGE - 1) / CKPT_PAGE;
	mlen = (npages + 7) / 8;
	if (mlen > c->map_len ||
	    ckpt_pread(c->fd, c->map, mlen, e->off) != 0)
		return -1;
	off = e->off + ((mlen + 7) & ~(size_t)7);
	for (i = 0; i < npages; i += run) {
		int	set = (c->map[i / 8] >> (i % 8)) & 1;

		for (run = 1; i + run < npages &&
		    ((c->map[(i + run) / 8] >> ((i + run) % 8)) & 1) == set;
		    run++)
			;
		plen = (i + run) * CKPT_PAGE > len ? len - i * CKPT_PAGE :
		    run * CKPT_PAGE;
		if (!set)
			memset(d + i * CKPT_PAGE, 0, plen);
		else {
			if (ckpt_pread(c->fd, d + i * CKPT_PAGE, plen, off) != 0)
				return -1;
			off += plen;
		}
	}
	return 0;
}

/* m as it was at checkpoint i; -1 (and m made anew) on a read error. */
int
ckpt_restore(struct ckpt *c, int i, struct model *m)
{
	struct ckpt_fill	f;

	if (i < 0 || i >= c->n)
		return -1;
	f.c = c;
	f.e = &c->ent[i];
	return model_restore(m, c->ent[i].len, ckpt_fill, &f);
}
