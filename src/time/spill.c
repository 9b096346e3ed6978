/*
 * spill.c: a live source's recent stream, kept on disk and read back in
 * time order.
 *
 * The bytes of a session are written as they came, after a header made
 * from the session's event types, into files in $TMPDIR that are unlinked
 * from the start (O_TMPFILE, or unlinked at once), so nothing is left
 * behind however evtop ends.  A file is a valid eventlog that reader.c
 * reads like any other; only whole events go in (the decoder says where
 * they end).  When a file passes 1/64 of the bound, the next one
 * starts at a block marker, so each file's blocks are whole; the oldest
 * file goes when the bound in bytes or in event time is passed, and the
 * history's floor moves past its last event.
 *
 * Reading merges the files' readers by (time, stream offset), which is the
 * order reader.c gives a recording of the same bytes: offsets are given
 * in the stream's terms, not the file's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "evtop.h"
#include "source/source.h"
#include "time/spill.h"

#define SPILL_N		256		/* events read from a file at once */
#define SPILL_STAGE_MAX	(8u << 20)	/* bytes not yet whole events */
#define SPILL_SEG_MIN	(64u << 10)

struct spill_seg {
	int		 fd;
	uint64_t	 base;		/* stream offset of its first byte */
	uint64_t	 bytes;		/* stream bytes in it */
	uint64_t	 tmin, tmax;	/* its events' times */
	int		 any;
	struct reader	*rd;
	uint64_t	 covered;	/* bytes when rd was opened */
	struct proto_ev	*ev;		/* [SPILL_N] read, ev[i..n) to give */
	size_t		 n, i;
	int		 done;		/* nothing more from rd */
	int		 sought;	/* rd is at the events sought */
};

struct spill {
	uint64_t	 max_bytes, max_ns, seg_max;
	int		 on;		/* a session is being kept */
	uint8_t		*hdr;
	size_t		 hlen;
	struct spill_seg seg[SPILL_SEGS];	/* [0] the oldest */
	int		 nseg;
	/* Bytes given but not yet written, from stream offset stage_off. */
	uint8_t		*stage;
	size_t		 staged, stage_cap;
	uint64_t	 stage_off;
	/* The next file starts at the block marker at rot_at. */
	int		 rot, rot_any;
	uint64_t	 rot_at, rot_tmin, rot_tmax;
	uint64_t	 floor;		/* events before it are gone */
	uint64_t	 newest;
	uint64_t	 pin;		/* files with events at or after it stay */
	/* Reading: the files with events still to give. */
	struct spill_seg *act[SPILL_SEGS];	/* open */
	int		 nact;
	struct spill_seg *lazy[SPILL_SEGS];	/* to open, lazy[lz] next */
	int		 nlazy, lz;
	uint64_t	 from_t, from_off;
	uint64_t	 last_t, last_off;
	int		 given;
	int		 bad;		/* a file could not be read: err */
	char		 err[256];
};

struct spill *
spill_new(uint64_t max_bytes, uint64_t max_ns, char **cause)
{
	struct spill	*sp;
	int		 i;

	if ((sp = calloc(1, sizeof *sp)) == NULL) {
		source_cause(cause, "out of memory");
		return NULL;
	}
	sp->max_bytes = max_bytes;
	sp->max_ns = max_ns;
	sp->seg_max = max_bytes / (SPILL_SEGS - 1);
	if (sp->seg_max < SPILL_SEG_MIN)
		sp->seg_max = SPILL_SEG_MIN;
	sp->pin = UINT64_MAX;
	for (i = 0; i < SPILL_SEGS; i++) {
		sp->seg[i].fd = -1;
		if ((sp->seg[i].ev = calloc(SPILL_N, sizeof (struct proto_ev)))
		    == NULL) {
			spill_free(sp);
			source_cause(cause, "out of memory");
			return NULL;
		}
	}
	return sp;
}

static void
spill_seg_close(struct spill_seg *s)
{
	struct proto_ev	*ev = s->ev;

	reader_free(s->rd);
	if (s->fd != -1)
		close(s->fd);
	memset(s, 0, sizeof *s);
	s->fd = -1;
	s->ev = ev;
}

/* Every file goes: a new connection, or history given up. */
void
spill_reset(struct spill *sp)
{
	int	i;

	for (i = 0; i < sp->nseg; i++)
		spill_seg_close(&sp->seg[i]);
	sp->nseg = 0;
	sp->on = 0;
	sp->staged = 0;
	sp->stage_off = 0;
	sp->rot = sp->rot_any = 0;
	sp->floor = sp->newest = 0;
	sp->given = 0;
}

void
spill_free(struct spill *sp)
{
	int	i;

	if (sp == NULL)
		return;
	spill_reset(sp);
	for (i = 0; i < SPILL_SEGS; i++)
		free(sp->seg[i].ev);
	free(sp->hdr);
	free(sp->stage);
	free(sp);
}

static int
spill_fail(struct spill *sp, const char *what)
{
	snprintf(sp->err, sizeof sp->err, "history: %s: %s; late events "
	    "are applied where they arrive", what, strerror(errno));
	spill_reset(sp);
	return -1;
}

static int
spill_write(int fd, const uint8_t *p, size_t n)
{
	ssize_t	w;

	while (n > 0) {
		if ((w = write(fd, p, n)) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* A new file, its header written, for the stream from base. */
static int
spill_open_seg(struct spill *sp, uint64_t base)
{
	struct spill_seg	*s = &sp->seg[sp->nseg];
	const char		*dir = getenv("TMPDIR");
	char			 path[4096];

	if (dir == NULL || *dir == '\0')
		dir = "/tmp";
	s->fd = -1;
#ifdef O_TMPFILE
	s->fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
#endif
	if (s->fd < 0) {
		snprintf(path, sizeof path, "%s/evtop-history.XXXXXX", dir);
		if ((s->fd = mkostemp(path, O_CLOEXEC)) >= 0)
			unlink(path);
	}
	if (s->fd < 0)
		return spill_fail(sp, dir);
	if (spill_write(s->fd, sp->hdr, sp->hlen) != 0)
		return spill_fail(sp, "writing");
	s->base = base;
	s->bytes = 0;
	s->any = 0;
	s->rd = NULL;
	s->covered = 0;
	s->done = 1;
	sp->nseg++;
	return 0;
}

/* Raw bytes from the source, in order. */
void
spill_bytes(struct spill *sp, const uint8_t *p, size_t n)
{
	size_t	cap;
	uint8_t	*b;

	if (sp->staged + n > sp->stage_cap) {
		cap = sp->stage_cap > 0 ? sp->stage_cap : (512u << 10);
		while (cap < sp->staged + n)
			cap *= 2;
		if (cap > SPILL_STAGE_MAX || (b = realloc(sp->stage, cap)) ==
		    NULL) {
			/* Whole events never wait this long: give up. */
			if (sp->on) {
				errno = ENOMEM;
				(void)spill_fail(sp, "too many bytes in "
				    "one event");
			}
			sp->stage_off += sp->staged + n;
			sp->staged = 0;
			return;
		}
		sp->stage = b;
		sp->stage_cap = cap;
	}
	memcpy(sp->stage + sp->staged, p, n);
	sp->staged += n;
}

/* Drop the staged bytes before stream offset off. */
static void
spill_unstage(struct spill *sp, uint64_t off)
{
	size_t	k;

	if (off <= sp->stage_off)
		return;
	k = off - sp->stage_off > sp->staged ? sp->staged :
	    (size_t)(off - sp->stage_off);
	memmove(sp->stage, sp->stage + k, sp->staged - k);
	sp->staged -= k;
	sp->stage_off += k;
}

/* A header was read; its data start at stream offset data: a new
 * history. */
int
spill_session(struct spill *sp, const struct proto_dec *dec, uint64_t data)
{
	uint64_t	stage_off = sp->stage_off;
	size_t		staged = sp->staged;
	size_t		n;

	/* What is staged stays: the new session's first bytes. */
	spill_reset(sp);
	sp->stage_off = stage_off;
	sp->staged = staged;
	spill_unstage(sp, data);
	n = proto_header_encode(dec, NULL, 0);
	free(sp->hdr);
	if ((sp->hdr = malloc(n)) == NULL) {
		errno = ENOMEM;
		return spill_fail(sp, "the header");
	}
	sp->hlen = proto_header_encode(dec, sp->hdr, n);
	if (spill_open_seg(sp, data) != 0)
		return -1;
	sp->on = 1;
	return 0;
}

/* An event decoded: its time, and a block marker where a file may end. */
void
spill_event(struct spill *sp, const struct proto_ev *ev)
{
	struct spill_seg	*s;

	if (!sp->on)
		return;
	s = &sp->seg[sp->nseg - 1];
	if (!sp->rot && ev->kind == PROTO_BLOCK_MARKER && ev->off > s->base &&
	    ev->off - s->base >= sp->seg_max) {
		sp->rot = 1;
		sp->rot_at = ev->off;
		sp->rot_any = 0;
	}
	if (ev->time > sp->newest)
		sp->newest = ev->time;
	if (sp->rot && ev->off >= sp->rot_at) {
		if (!sp->rot_any || ev->time < sp->rot_tmin)
			sp->rot_tmin = ev->time;
		if (!sp->rot_any || ev->time > sp->rot_tmax)
			sp->rot_tmax = ev->time;
		sp->rot_any = 1;
		return;
	}
	if (!s->any || ev->time < s->tmin)
		s->tmin = ev->time;
	if (!s->any || ev->time > s->tmax)
		s->tmax = ev->time;
	s->any = 1;
}

static int
spill_put(struct spill *sp, uint64_t upto)
{
	struct spill_seg	*s = &sp->seg[sp->nseg - 1];
	size_t			 k;

	if (upto <= sp->stage_off)
		return 0;
	k = upto - sp->stage_off > sp->staged ? sp->staged :
	    (size_t)(upto - sp->stage_off);
	if (spill_write(s->fd, sp->stage, k) != 0)
		return spill_fail(sp, "writing");
	s->bytes += k;
	spill_unstage(sp, sp->stage_off + k);
	return 0;
}

static uint64_t
spill_total(const struct spill *sp)
{
	uint64_t	t = 0;
	int		i;

	for (i = 0; i < sp->nseg; i++)
		t += sp->hlen + sp->seg[i].bytes;
	return t;
}

/* The oldest file goes, if nothing still to be read needs it. */
static int
spill_drop(struct spill *sp)
{
	struct spill_seg	*s = &sp->seg[0];
	struct spill_seg	 t;
	int			 i;

	if (sp->nseg < 2 || (s->any && s->tmax >= sp->pin))
		return 0;
	for (i = 0; i < sp->nact; i++)
		if (sp->act[i] == s)
			return 0;	/* still being read */
	for (i = sp->lz; i < sp->nlazy; i++)
		if (sp->lazy[i] == s)
			return 0;
	if (s->any && s->tmax + 1 > sp->floor)
		sp->floor = s->tmax + 1;
	spill_seg_close(s);
	t = *s;
	memmove(&sp->seg[0], &sp->seg[1], (size_t)(sp->nseg - 1) *
	    sizeof sp->seg[0]);
	sp->seg[--sp->nseg] = t;
	for (i = 0; i < sp->nact; i++)
		sp->act[i]--;		/* they moved down one */
	for (i = sp->lz; i < sp->nlazy; i++)
		sp->lazy[i]--;
	return 1;
}

/* Write the whole events, up to stream offset upto; keep the bounds. */
int
spill_commit(struct spill *sp, uint64_t upto)
{
	struct spill_seg	*s;

	if (!sp->on) {
		spill_unstage(sp, upto);
		return 0;
	}
	if (sp->rot && upto >= sp->rot_at) {
		if (spill_put(sp, sp->rot_at) != 0)
			return -1;
		if (sp->nseg == SPILL_SEGS && !spill_drop(sp)) {
			/* Still needed: the file goes on growing. */
			sp->rot = 0;
		} else {
			if (spill_open_seg(sp, sp->rot_at) != 0)
				return -1;
			s = &sp->seg[sp->nseg - 1];
			s->any = sp->rot_any;
			s->tmin = sp->rot_tmin;
			s->tmax = sp->rot_tmax;
			sp->rot = 0;
		}
	}
	if (spill_put(sp, upto) != 0)
		return -1;
	while (sp->nseg > 1 && (spill_total(sp) > sp->max_bytes ||
	    (sp->max_ns > 0 && sp->seg[0].any && sp->newest > sp->max_ns &&
	    sp->seg[0].tmax < sp->newest - sp->max_ns)))
		if (!spill_drop(sp))
			break;
	return 0;
}

/* Events before this time are no longer kept. */
uint64_t
spill_floor(const struct spill *sp)
{
	return sp->floor;
}

/* Keep the files with events at or after t (UINT64_MAX: none needed). */
void
spill_pin(struct spill *sp, uint64_t t)
{
	sp->pin = t;
}

/* Whether the last reading stopped on a file it could not read. */
int
spill_failed(const struct spill *sp)
{
	return sp->bad;
}

const char *
spill_error(const struct spill *sp)
{
	return sp->err[0] != '\0' ? sp->err : NULL;
}

void
spill_stats(const struct spill *sp, struct spill_stats *st)
{
	int	i;

	memset(st, 0, sizeof *st);
	st->bytes = spill_total(sp);
	for (i = 0; i < sp->nseg; i++) {
		if (!sp->seg[i].any)
			continue;
		if (st->first == 0 || sp->seg[i].tmin < st->first)
			st->first = sp->seg[i].tmin;
		if (sp->seg[i].tmax > st->last)
			st->last = sp->seg[i].tmax;
	}
}

/* ------------------------------------------------------------------ */
/* Reading back. */

/* Where a file's events begin, at the earliest: its first time (or the
 * time sought) and its first byte. */
static uint64_t
spill_lb(const struct spill_seg *s, uint64_t from)
{
	return s->tmin > from ? s->tmin : from;
}

static uint64_t spill_sort_from;	/* qsort has no argument */

static int
spill_lb_cmp(const void *a, const void *b)
{
	const struct spill_seg	*x = *(struct spill_seg *const *)a;
	const struct spill_seg	*y = *(struct spill_seg *const *)b;
	uint64_t		 tx = spill_lb(x, spill_sort_from);
	uint64_t		 ty = spill_lb(y, spill_sort_from);

	if (tx != ty)
		return tx < ty ? -1 : 1;
	return x->base < y->base ? -1 : x->base > y->base;
}

/*
 * Every file from the first event at or after (t, off), stream offset.
 * A file is opened only when the merge reaches its first time (most runs
 * need the newest few): a reader holds a megabyte of tables.
 */
int
spill_seek(struct spill *sp, uint64_t t, uint64_t off)
{
	struct spill_seg	*s;
	int			 i;

	sp->from_t = t;
	sp->from_off = off;
	spill_sort_from = t;
	sp->given = 0;
	sp->nact = sp->nlazy = sp->lz = 0;
	sp->bad = 0;
	for (i = 0; i < sp->nseg; i++) {
		s = &sp->seg[i];
		s->n = s->i = 0;
		s->done = 1;
		s->sought = 0;
		if (s->rd != NULL && s->covered != s->bytes) {
			reader_free(s->rd);
			s->rd = NULL;
		}
		s->covered = s->bytes;
		if (!s->any || s->tmax < t)
			continue;
		s->done = 0;
		sp->lazy[sp->nlazy++] = s;
	}
	/* By the bound on their first events: the next to open first. */
	qsort(sp->lazy, (size_t)sp->nlazy, sizeof sp->lazy[0], spill_lb_cmp);
	sp->lz = 0;
	return 0;
}

/* A file's reader, at the events sought: 0, or -1 (sp->err says). */
static int
spill_wake(struct spill *sp, struct spill_seg *s)
{
	char		 path[64], *cause = NULL;
	uint64_t	 local;

	if (s->rd == NULL) {
		snprintf(path, sizeof path, "/proc/self/fd/%d", s->fd);
		if ((s->rd = reader_open_own(path, &cause)) == NULL) {
			snprintf(sp->err, sizeof sp->err, "history: %s",
			    cause != NULL ? cause : "cannot read");
			free(cause);
			return -1;
		}
	}
	local = sp->from_off >= s->base ? sp->hlen + (sp->from_off - s->base) :
	    0;
	if (reader_seek(s->rd, sp->from_t, local) != 0) {
		snprintf(sp->err, sizeof sp->err, "history: %s",
		    reader_error(s->rd) != NULL ? reader_error(s->rd) :
		    "cannot seek");
		return -1;
	}
	s->sought = 1;
	return 0;
}

/* Refill a file's events: 0 when it has none left. */
static int
spill_fill(struct spill *sp, struct spill_seg *s)
{
	size_t	j, k;

	if (s->done || s->rd == NULL)
		return 0;
	s->i = 0;
	do {
		s->n = reader_next_n(s->rd, s->ev, SPILL_N);
		if (s->n == 0) {
			/* Read to its end: its pages go now, not at the
			 * run's end (a run over the whole history would
			 * map all of it). */
			s->done = 1;
			reader_free(s->rd);
			s->rd = NULL;
			return 0;
		}
		/* Only the bytes there when it was sought: those written
		 * since (the file grows while a run reads it) come to the
		 * owner anew. */
		for (j = k = 0; k < s->n; k++) {
			s->ev[k].off = s->base + (s->ev[k].off - sp->hlen);
			if (s->ev[k].off < s->base + s->covered)
				s->ev[j++] = s->ev[k];
		}
		s->n = j;
	} while (j == 0);
	return 1;
}

/*
 * Up to max next events in time order, offsets the stream's; 0 at the end
 * of what the files held when they were sought.  Their pointers last
 * until the next call.
 */
size_t
spill_next(struct spill *sp, struct proto_ev *out, size_t max)
{
	struct spill_seg	*s, *best;
	uint64_t		 t, o, bt = 0, bo = 0;
	size_t			 n = 0;
	int			 i;

	while (n < max && !sp->bad) {
		best = NULL;
		for (i = 0; i < sp->nact; i++) {
			s = sp->act[i];
			if (s->i == s->n) {
				/* A refill would move what out[] points at. */
				if (n > 0)
					goto out;
				if (!spill_fill(sp, s)) {
					sp->act[i--] = sp->act[--sp->nact];
					continue;
				}
			}
			t = s->ev[s->i].time;
			o = s->ev[s->i].off;
			if (best == NULL || t < bt || (t == bt && o < bo)) {
				best = s;
				bt = t;
				bo = o;
			}
		}
		/* The next file not yet open, if its events may come first:
		 * open it, then look again. */
		if (sp->lz < sp->nlazy && (s = sp->lazy[sp->lz],
		    best == NULL || spill_lb(s, sp->from_t) < bt ||
		    (spill_lb(s, sp->from_t) == bt && s->base < bo))) {
			sp->lz++;
			if (spill_wake(sp, s) != 0) {
				sp->bad = 1;
				break;
			}
			sp->act[sp->nact++] = s;
			continue;
		}
		if (best == NULL)
			break;
		out[n++] = best->ev[best->i++];
	}
out:
	if (n > 0) {
		sp->last_t = out[n - 1].time;
		sp->last_off = out[n - 1].off;
		sp->given = 1;
	}
	return n;
}

/* Reading is over for now: the readers go, and the pages they mapped. */
void
spill_rest(struct spill *sp)
{
	int	i;

	for (i = 0; i < sp->nseg; i++) {
		reader_free(sp->seg[i].rd);
		sp->seg[i].rd = NULL;
		sp->seg[i].n = sp->seg[i].i = 0;
		sp->seg[i].done = 1;
		sp->seg[i].sought = 0;
		sp->seg[i].covered = sp->seg[i].bytes;
	}
	sp->nact = sp->nlazy = sp->lz = 0;
}

/* Whether bytes came since the files were sought. */
int
spill_more(const struct spill *sp)
{
	int	i;

	for (i = 0; i < sp->nseg; i++)
		if (sp->seg[i].bytes != sp->seg[i].covered)
			return 1;
	return 0;
}

/* Go on after the last event given, over what the files hold now. */
int
spill_refresh(struct spill *sp)
{
	if (!sp->given)
		return spill_seek(sp, sp->from_t, sp->from_off);
	return spill_seek(sp, sp->last_t, sp->last_off + 1);
}
