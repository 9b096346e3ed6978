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
 * in the stream's terms, not the file's.  Each reader of the history has
 * a cursor of its own (struct spill_cur): redo.c's putting late events
 * back, the raw events pane.  A cursor knows a file by its sequence
 * number, so files may go while it reads; only the spill's own cursor
 * (the spill_seek() family, redo.c's) keeps the files it reads.
 *
 * The spill's own cursor may be lent to another thread for a while
 * (spill_lend(): redo.c reads the history there while the model applies
 * it).  The files it reads were given before it was lent and stay while
 * unread (the pin: the borrower is ahead of what was applied); the
 * spill's thread locks mu to add a file or let one go, the borrower to
 * find one.  It hands pointers to the events it read ahead: a buffer of
 * them whose events were given, and a reader read to its end (for what
 * they borrow), is kept until the caller is done with the slab they went
 * into.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "evtop.h"
#include "source/source.h"
#include "time/spill.h"

#define SPILL_N		256		/* events read from a file at once */
#define SPILL_STAGE_MAX	(8u << 20)	/* bytes not yet whole events */
#define SPILL_IPE_PEEK	3		/* bytes an IPE is framed with */
#define SPILL_SEG_MIN	(64u << 10)

#define SPILL_KEEP	4		/* readers a cursor keeps open at a seek */
#define SPILL_KEEP_OWN	SPILL_SEGS	/* the spill's own: every file, resting */

struct spill_seg {
	int		 fd;
	uint64_t	 seq;		/* which file: never used again */
	uint64_t	 base;		/* stream offset of its first byte */
	uint64_t	 bytes;		/* stream bytes in it */
	uint64_t	 tmin, tmax;	/* its events' times */
	uint64_t	 nev;		/* its events */
	int		 any;
};

/* Events read ahead from a file.  Lent, one whose events were given is
 * kept, not read into again, until the slab they went into is released:
 * the borrower gives pointers to them. */
struct spill_buf {
	struct spill_buf *next;		/* kept: in the order kept */
	uint64_t	 slab;
	struct proto_ev	 ev[SPILL_N];
};

/* A cursor's reading of one file: its reader, the events read ahead. */
struct spill_rd {
	uint64_t	 seq;		/* the file's, 0: none */
	uint64_t	 base, lb;	/* its first byte, the first time to come */
	struct reader	*rd;
	uint64_t	 covered;	/* its bytes when sought */
	struct spill_buf *buf;
	struct proto_ev	*ev;		/* buf's: ev[i..n) to give */
	size_t		 n, i;
	int		 done;		/* nothing more from rd */
};

struct spill_cur {
	const struct spill *sp;
	struct spill_rd	 rd[SPILL_SEGS];	/* [k]: seg[k] at the last seek */
	/* The files with events still to give. */
	struct spill_rd	*act[SPILL_SEGS];	/* open */
	int		 nact;
	struct spill_rd	*lazy[SPILL_SEGS];	/* to open, lazy[lz] next */
	int		 nlazy, lz;
	uint64_t	 from_t, from_off;
	uint64_t	 last_t, last_off;
	int		 given;
	/* Readers read to their end rest (reader_rest()) rather than go,
	 * up to keep at a seek: the spill's own, which each run reads from
	 * a checkpoint on, much of it read by the run before. */
	int		 rest;
	int		 keep;
	uint64_t	 ver;		/* the spill's bytes when sought */
	uint64_t	 drops;		/* its files gone when sought */
	uint64_t	 pruned;	/* and when the open ones were checked */
	int		 bad;		/* a file could not be read: err */
	char		 err[256];
	struct proto_dec *dec;		/* the session's event types */
	uint64_t	 dec_session;

	/* Lent (the spill's own, on another thread): readers read to their
	 * end, and the slab their last events went into. */
	int		 lent, halt;
	uint64_t	 slab;
	struct reader	*retired[SPILL_SEGS];
	uint64_t	 retired_at[SPILL_SEGS];
	int		 nretired;
	struct spill_buf *kept, *kept_last;	/* events given, by slab */
	struct spill_buf *spare;		/* released, to use again */
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
	uint64_t	 ipe_end;	/* where the last IPE ends */
	int		 rot_ipe;	/* one ends at rot_at */
	uint64_t	 rot_at, rot_tmin, rot_tmax;
	uint64_t	 floor;		/* events before it are gone */
	uint64_t	 newest;
	uint64_t	 pin;		/* files with events at or after it stay */
	uint64_t	 rot_nev;
	uint64_t	 seq;		/* the last file's */
	uint64_t	 ver;		/* counts writes: cursors see new bytes */
	uint64_t	 drops;		/* counts files gone */
	uint64_t	 session;	/* counts sessions */
	struct proto_dec *types;	/* the session's event types */
	struct spill_cur *cur;		/* the spill_seek() family's */
	pthread_mutex_t	*mu;		/* files come and go: see the top */
	int		 reset_lent;	/* spill_reset() while cur was lent */
	char		 err[256];
};

static void	spill_cur_rest_all(struct spill_cur *);

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
	for (i = 0; i < SPILL_SEGS; i++)
		sp->seg[i].fd = -1;
	if ((sp->mu = malloc(sizeof *sp->mu)) != NULL)
		pthread_mutex_init(sp->mu, NULL);
	if (sp->mu == NULL || (sp->cur = spill_cur_new(sp)) == NULL) {
		spill_free(sp);
		source_cause(cause, "out of memory");
		return NULL;
	}
	sp->cur->rest = 1;
	sp->cur->keep = SPILL_KEEP_OWN;
	return sp;
}

static void
spill_seg_close(struct spill_seg *s)
{
	if (s->fd != -1)
		close(s->fd);
	memset(s, 0, sizeof *s);
	s->fd = -1;
}

/* Every file goes: a new connection, or history given up. */
void
spill_reset(struct spill *sp)
{
	int	i;

	pthread_mutex_lock(sp->mu);
	for (i = 0; i < sp->nseg; i++)
		spill_seg_close(&sp->seg[i]);
	sp->nseg = 0;
	sp->drops++;
	pthread_mutex_unlock(sp->mu);
	sp->on = 0;
	sp->staged = 0;
	sp->stage_off = 0;
	sp->rot = sp->rot_any = 0;
	sp->ipe_end = 0;
	sp->floor = sp->newest = 0;
	/* Cursors see every file gone, and no session. */
	sp->ver++;
	sp->session++;
	proto_dec_free(sp->types);
	sp->types = NULL;
	if (sp->cur != NULL && sp->cur->lent)
		sp->reset_lent = 1;	/* its borrower finds them gone */
	else if (sp->cur != NULL)
		spill_cur_rest_all(sp->cur);
}

void
spill_free(struct spill *sp)
{
	if (sp == NULL)
		return;
	if (sp->mu != NULL) {
		spill_reset(sp);
		pthread_mutex_destroy(sp->mu);
		free(sp->mu);
	}
	spill_cur_free(sp->cur);
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
spill_write(int fd, const uint8_t *p, size_t n, uint64_t at)
{
	ssize_t	w;

	while (n > 0) {
		if ((w = pwrite(fd, p, n, (off_t)at)) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
		at += (uint64_t)w;
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
	if (spill_write(s->fd, sp->hdr, sp->hlen, 0) != 0)
		return spill_fail(sp, "writing");
	s->seq = ++sp->seq;
	s->base = base;
	s->bytes = 0;
	s->nev = 0;
	s->any = 0;
	pthread_mutex_lock(sp->mu);
	sp->nseg++;
	pthread_mutex_unlock(sp->mu);
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
	/* The types, for the text of the events read back. */
	if ((sp->types = proto_dec_new_sharing(dec, 0)) == NULL) {
		errno = ENOMEM;
		return spill_fail(sp, "the header");
	}
	sp->session++;
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
		sp->rot_ipe = sp->ipe_end == ev->off;
		sp->rot_any = 0;
		sp->rot_nev = 0;
	}
	if (ev->kind == PROTO_IPE)
		sp->ipe_end = ev->off + ev->size;
	if (ev->time > sp->newest)
		sp->newest = ev->time;
	if (sp->rot && ev->off >= sp->rot_at) {
		if (!sp->rot_any || ev->time < sp->rot_tmin)
			sp->rot_tmin = ev->time;
		if (!sp->rot_any || ev->time > sp->rot_tmax)
			sp->rot_tmax = ev->time;
		sp->rot_any = 1;
		sp->rot_nev++;
		return;
	}
	if (!s->any || ev->time < s->tmin)
		s->tmin = ev->time;
	if (!s->any || ev->time > s->tmax)
		s->tmax = ev->time;
	s->any = 1;
	s->nev++;
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
	if (spill_write(s->fd, sp->stage, k, sp->hlen + s->bytes) != 0)
		return spill_fail(sp, "writing");
	s->bytes += k;
	sp->ver++;
	spill_unstage(sp, sp->stage_off + k);
	/* A GHC 9.6 IPE is framed with the bytes after it (proto_frame_ipe()):
	 * a file that ends with one has the next event's first ones too, a
	 * cut event its reader leaves out (reader_open_own()), not counted
	 * as the file's and written over by what follows. */
	if (((sp->ipe_end != 0 && sp->ipe_end == sp->stage_off) || (sp->rot &&
	    sp->rot_ipe && sp->stage_off == sp->rot_at)) && sp->staged > 0 &&
	    spill_write(s->fd, sp->stage, sp->staged < SPILL_IPE_PEEK ?
	    sp->staged : SPILL_IPE_PEEK, sp->hlen + s->bytes) != 0)
		return spill_fail(sp, "writing");
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

static int	spill_cur_needs(const struct spill_cur *, uint64_t);

/* The oldest file goes, if nothing the spill's cursor has still to read
 * needs it (other cursors lose it). */
static int
spill_drop(struct spill *sp)
{
	struct spill_seg	*s = &sp->seg[0];
	struct spill_seg	 t;

	if (sp->nseg < 2 || (s->any && s->tmax >= sp->pin))
		return 0;
	/* (Lent, it reads nothing before the pin.) */
	if (!sp->cur->lent && spill_cur_needs(sp->cur, s->seq))
		return 0;	/* still being read */
	if (s->any && s->tmax + 1 > sp->floor)
		sp->floor = s->tmax + 1;
	pthread_mutex_lock(sp->mu);
	spill_seg_close(s);
	t = *s;
	memmove(&sp->seg[0], &sp->seg[1], (size_t)(sp->nseg - 1) *
	    sizeof sp->seg[0]);
	sp->seg[--sp->nseg] = t;
	sp->drops++;
	pthread_mutex_unlock(sp->mu);
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
			/* Still needed: the file goes on growing, with the
			 * events counted for the next. */
			s = &sp->seg[sp->nseg - 1];
			if (sp->rot_any && (!s->any || sp->rot_tmin < s->tmin))
				s->tmin = sp->rot_tmin;
			if (sp->rot_any && (!s->any || sp->rot_tmax > s->tmax))
				s->tmax = sp->rot_tmax;
			s->any |= sp->rot_any;
			s->nev += sp->rot_nev;
			sp->rot = 0;
		} else {
			if (spill_open_seg(sp, sp->rot_at) != 0)
				return -1;
			s = &sp->seg[sp->nseg - 1];
			s->any = sp->rot_any;
			s->tmin = sp->rot_tmin;
			s->tmax = sp->rot_tmax;
			s->nev = sp->rot_nev;
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
	return sp->cur->bad;
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
		st->events += sp->seg[i].nev;
		if (!sp->seg[i].any)
			continue;
		if (st->first == 0 || sp->seg[i].tmin < st->first)
			st->first = sp->seg[i].tmin;
		if (sp->seg[i].tmax > st->last)
			st->last = sp->seg[i].tmax;
	}
}

/* ------------------------------------------------------------------ */
/* Reading back, with a cursor. */

struct spill_cur *
spill_cur_new(const struct spill *sp)
{
	struct spill_cur	*c;

	if ((c = calloc(1, sizeof *c)) == NULL)
		return NULL;
	c->sp = sp;
	c->drops = c->pruned = sp->drops;
	c->keep = SPILL_KEEP;
	return c;
}

static void
spill_rd_close(struct spill_rd *r)
{
	reader_free(r->rd);
	free(r->buf);
	memset(r, 0, sizeof *r);
	r->done = 1;
}

/* A buffer for a file's events: a spare one, or new. */
static struct spill_buf *
spill_buf_get(struct spill_cur *c)
{
	struct spill_buf	*b;

	if ((b = c->spare) != NULL) {
		c->spare = b->next;
		return b;
	}
	return malloc(sizeof *b);
}

/* A file's buffer, read: kept while lent (its events were given), else
 * it goes. */
static void
spill_buf_done(struct spill_cur *c, struct spill_rd *r)
{
	struct spill_buf	*b = r->buf;

	r->buf = NULL;
	r->ev = NULL;
	if (b == NULL)
		return;
	if (!c->lent) {
		free(b);
		return;
	}
	b->next = NULL;
	b->slab = c->slab;
	if (c->kept_last != NULL)
		c->kept_last->next = b;
	else
		c->kept = b;
	c->kept_last = b;
}

/* A file's reader and events go.  Lent, a reader whose events may be in
 * a slab not yet released stays until spill_cur_release() (or
 * spill_unlend()) lets it go. */
static void
spill_cur_drop_rd(struct spill_cur *c, struct spill_rd *r)
{
	if (c->lent && r->rd != NULL && c->nretired < SPILL_SEGS) {
		/* (A file has one reader a lending: there is room.) */
		c->retired[c->nretired] = r->rd;
		c->retired_at[c->nretired++] = c->slab;
		r->rd = NULL;
	}
	reader_free(r->rd);
	r->rd = NULL;
	spill_buf_done(c, r);
}

static void
spill_cur_close(struct spill_cur *c, struct spill_rd *r)
{
	spill_cur_drop_rd(c, r);
	spill_rd_close(r);
}

/* Readers kept for slabs before the one numbered upto: they go. */
static void
spill_cur_release(struct spill_cur *c, uint64_t upto)
{
	struct spill_buf	*b;
	int			 i, j;

	for (i = j = 0; i < c->nretired; i++) {
		if (c->retired_at[i] < upto) {
			reader_free(c->retired[i]);
			continue;
		}
		c->retired[j] = c->retired[i];
		c->retired_at[j++] = c->retired_at[i];
	}
	c->nretired = j;
	while ((b = c->kept) != NULL && b->slab < upto) {
		if ((c->kept = b->next) == NULL)
			c->kept_last = NULL;
		b->next = c->spare;
		c->spare = b;
	}
}

/* Nothing read ahead, no reader open: a seek starts again. */
static void
spill_cur_rest_all(struct spill_cur *c)
{
	int	i;

	for (i = 0; i < SPILL_SEGS; i++)
		spill_rd_close(&c->rd[i]);
	c->nact = c->nlazy = c->lz = 0;
	c->given = 0;
	c->drops = c->pruned = c->sp->drops;
}

/* The same, but the cursor keeps its readers' scans (c->rest): they
 * rest (reader_rest()), for spill_cur_seek() to find them again. */
static void
spill_cur_rest_read(struct spill_cur *c)
{
	struct spill_rd	*r;
	int		 i;

	if (!c->rest) {
		spill_cur_rest_all(c);
		return;
	}
	for (i = 0; i < SPILL_SEGS; i++) {
		r = &c->rd[i];
		if (r->rd == NULL || !reader_lasting(r->rd)) {
			spill_rd_close(r);
			continue;
		}
		reader_rest(r->rd);
		free(r->buf);
		r->buf = NULL;
		r->ev = NULL;
		r->n = r->i = 0;
		r->done = 1;
	}
	c->nact = c->nlazy = c->lz = 0;
	c->given = 0;
}

/* Its readers go and the pages they mapped; where it was stays. */
void
spill_cur_rest(struct spill_cur *c)
{
	int	given = c->given;

	spill_cur_rest_read(c);
	c->given = given;
}

void
spill_cur_free(struct spill_cur *c)
{
	struct spill_buf	*b;
	int			 i;

	if (c == NULL)
		return;
	for (i = 0; i < SPILL_SEGS; i++)
		spill_rd_close(&c->rd[i]);
	spill_cur_release(c, UINT64_MAX);
	while ((b = c->spare) != NULL) {
		c->spare = b->next;
		free(b);
	}
	proto_dec_free(c->dec);
	free(c);
}

static const struct spill_seg *
spill_find(const struct spill *sp, uint64_t seq)
{
	int	i;

	for (i = 0; i < sp->nseg; i++)
		if (sp->seg[i].seq == seq)
			return &sp->seg[i];
	return NULL;
}

/* Whether the cursor has events of file seq still to give. */
static int
spill_cur_needs(const struct spill_cur *c, uint64_t seq)
{
	int	i;

	for (i = 0; i < c->nact; i++)
		if (c->act[i]->seq == seq)
			return 1;
	for (i = c->lz; i < c->nlazy; i++)
		if (c->lazy[i]->seq == seq)
			return 1;
	return 0;
}

/*
 * The cursor's rd[k] for the spill's seg[k]: what was read of a file that
 * stays is kept; a file gone, its reader too.  Files only come at the end
 * while none goes.
 */
static void
spill_cur_sync(struct spill_cur *c)
{
	const struct spill	*sp = c->sp;
	struct spill_rd		 t;
	int			 i, j;

	if (c->drops != sp->drops) {
		for (j = 0; j < SPILL_SEGS; j++)
			if (c->rd[j].seq != 0 &&
			    spill_find(sp, c->rd[j].seq) == NULL)
				spill_rd_close(&c->rd[j]);
		for (i = 0; i < sp->nseg; i++) {
			for (j = i; j < SPILL_SEGS &&
			    c->rd[j].seq != sp->seg[i].seq; j++)
				;
			/* Not read yet: a free place (there is one). */
			for (j = j < SPILL_SEGS ? j : i; j < SPILL_SEGS &&
			    c->rd[j].seq != sp->seg[i].seq &&
			    c->rd[j].seq != 0; j++)
				;
			if (j == SPILL_SEGS) {
				spill_rd_close(&c->rd[i]);
				j = i;
			}
			t = c->rd[i];
			c->rd[i] = c->rd[j];
			c->rd[j] = t;
		}
		c->drops = c->pruned = sp->drops;
	}
	for (i = 0; i < sp->nseg; i++) {
		if (c->rd[i].seq != sp->seg[i].seq) {
			spill_rd_close(&c->rd[i]);
			c->rd[i].seq = sp->seg[i].seq;
		}
	}
}

static int
spill_lb_cmp(const void *a, const void *b)
{
	const struct spill_rd	*x = *(struct spill_rd *const *)a;
	const struct spill_rd	*y = *(struct spill_rd *const *)b;

	if (x->lb != y->lb)
		return x->lb < y->lb ? -1 : 1;
	return x->base < y->base ? -1 : x->base > y->base;
}

/* At most c->keep readers stay open: those of files before t first,
 * then of those the merge reaches last. */
static void
spill_cur_trim(struct spill_cur *c)
{
	int	i, open = 0;

	for (i = 0; i < SPILL_SEGS; i++)
		open += c->rd[i].rd != NULL;
	for (i = 0; i < c->sp->nseg && open > c->keep; i++) {
		if (c->rd[i].done && c->rd[i].rd != NULL) {
			reader_free(c->rd[i].rd);
			c->rd[i].rd = NULL;
			open--;
		}
	}
	for (i = c->nlazy - 1; i >= 0 && open > c->keep; i--) {
		if (c->lazy[i]->rd != NULL) {
			reader_free(c->lazy[i]->rd);
			c->lazy[i]->rd = NULL;
			open--;
		}
	}
}

/*
 * Every file from the first event at or after (t, off), stream offset.
 * A file is opened only when the merge reaches its first time (most runs
 * need the newest few): a reader holds a megabyte of tables.
 */
int
spill_cur_seek(struct spill_cur *c, uint64_t t, uint64_t off)
{
	const struct spill	*sp = c->sp;
	const struct spill_seg	*s;
	struct spill_rd		*r;
	int			 i;

	spill_cur_sync(c);
	c->from_t = t;
	c->from_off = off;
	c->given = 0;
	c->nact = c->nlazy = c->lz = 0;
	c->bad = 0;
	c->ver = sp->ver;
	for (i = 0; i < sp->nseg; i++) {
		s = &sp->seg[i];
		r = &c->rd[i];
		r->n = r->i = 0;
		r->done = 1;
		if (r->rd != NULL && r->covered != s->bytes) {
			reader_free(r->rd);
			r->rd = NULL;
		}
		r->covered = s->bytes;
		r->base = s->base;
		/* Where its events begin, at the earliest: its first time
		 * (or the time sought) and its first byte. */
		r->lb = s->tmin > t ? s->tmin : t;
		if (!s->any || s->tmax < t)
			continue;
		r->done = 0;
		c->lazy[c->nlazy++] = r;
	}
	/* By the bound on their first events: the next to open first. */
	qsort(c->lazy, (size_t)c->nlazy, sizeof c->lazy[0], spill_lb_cmp);
	spill_cur_trim(c);
	return 0;
}

/* A file's reader, at the events sought: 0; 1 if the file is gone; -1
 * (c->err says). */
static int
spill_wake(struct spill_cur *c, struct spill_rd *r)
{
	const struct spill	*sp = c->sp;
	const struct spill_seg	*s;
	char			 path[64], *cause = NULL;
	int			 fd;

	/* Its own descriptor, which the file's going cannot close. */
	pthread_mutex_lock(sp->mu);
	fd = (s = spill_find(sp, r->seq)) != NULL ? fcntl(s->fd,
	    F_DUPFD_CLOEXEC, 0) : -2;
	pthread_mutex_unlock(sp->mu);
	if (fd == -2) {
		spill_cur_close(c, r);
		return 1;
	}
	if (fd == -1) {
		snprintf(c->err, sizeof c->err, "history: %s",
		    strerror(errno));
		return -1;
	}
	if (r->buf == NULL && (r->buf = spill_buf_get(c)) == NULL) {
		close(fd);
		snprintf(c->err, sizeof c->err, "history: out of memory");
		return -1;
	}
	r->ev = r->buf->ev;
	if (r->rd == NULL) {
		snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
		/* Only the bytes there when it was sought (it grows while
		 * a run reads it): those come anew.  An IPE at their end
		 * is framed with the next bytes (see spill_put()). */
		r->rd = reader_open_own(path, sp->hlen + r->covered +
		    SPILL_IPE_PEEK, r->base - sp->hlen, &cause);
	}
	close(fd);
	if (r->rd == NULL) {
		snprintf(c->err, sizeof c->err, "history: %s",
		    cause != NULL ? cause : "cannot read");
		free(cause);
		return -1;
	}
	/* Lent, the borrower stops before a reader whose events do not
	 * last: the rest is read on the spill's thread. */
	if (c->lent && !reader_lasting(r->rd))
		c->halt = 1;
	if (reader_seek(r->rd, c->from_t, c->from_off) != 0) {
		snprintf(c->err, sizeof c->err, "history: %s",
		    reader_error(r->rd) != NULL ? reader_error(r->rd) :
		    "cannot seek");
		return -1;
	}
	return 0;
}

/* Refill a file's events: 0 when it has none left. */
static int
spill_fill(struct spill_cur *c, struct spill_rd *r)
{
	if (r->done || r->rd == NULL)
		return 0;
	if (c->lent && r->n > 0) {
		/* Its events were given: read into another. */
		spill_buf_done(c, r);
		if ((r->buf = spill_buf_get(c)) == NULL) {
			snprintf(c->err, sizeof c->err, "history: out of "
			    "memory");
			c->bad = 1;
			return 0;
		}
		r->ev = r->buf->ev;
	}
	r->i = 0;
	if ((r->n = reader_next_n(r->rd, r->ev, SPILL_N)) == 0) {
		/* Read to its end: its pages go now, not at the run's end
		 * (a run over the whole history would map all of it).  The
		 * spill's own cursor keeps the reader's scan, for the next
		 * run (its mapping stays: what its events borrow). */
		r->done = 1;
		if (c->rest && reader_lasting(r->rd)) {
			reader_rest(r->rd);
			spill_buf_done(c, r);
		} else
			spill_cur_drop_rd(c, r);
		return 0;
	}
	return 1;
}

/* Files gone while the cursor read them: their events go too. */
static void
spill_cur_prune(struct spill_cur *c)
{
	int	i;

	pthread_mutex_lock(c->sp->mu);
	if (c->pruned == c->sp->drops) {
		pthread_mutex_unlock(c->sp->mu);
		return;
	}
	c->pruned = c->sp->drops;
	for (i = 0; i < c->nact; i++) {
		if (spill_find(c->sp, c->act[i]->seq) == NULL) {
			/* (Those left stay in order.) */
			spill_cur_close(c, c->act[i]);
			c->nact--;
			memmove(&c->act[i], &c->act[i + 1], (size_t)(c->nact -
			    i) * sizeof c->act[0]);
			i--;
		}
	}
	pthread_mutex_unlock(c->sp->mu);
}

/* Whether a's next event comes before b's. */
static inline int
spill_rd_before(const struct spill_rd *a, const struct spill_rd *b)
{
	const struct proto_ev	*x = &a->ev[a->i], *y = &b->ev[b->i];

	return x->time < y->time || (x->time == y->time && x->off < y->off);
}

/* The open files are kept by their next events, act[0] first: act[i],
 * whose next event is later now, to its place. */
static void
spill_cur_place(struct spill_cur *c, int i)
{
	struct spill_rd	*r = c->act[i];

	for (; i + 1 < c->nact && spill_rd_before(c->act[i + 1], r); i++)
		c->act[i] = c->act[i + 1];
	c->act[i] = r;
}

/* A file just opened, its first events read, among them. */
static void
spill_cur_insert(struct spill_cur *c, struct spill_rd *r)
{
	int	i;

	for (i = c->nact++; i > 0 && spill_rd_before(r, c->act[i - 1]); i--)
		c->act[i] = c->act[i - 1];
	c->act[i] = r;
}

/* e comes before (t, off): by time, then place in the stream. */
static inline int
spill_before(const struct proto_ev *e, uint64_t t, uint64_t off)
{
	return e->time < t || (e->time == t && e->off < off);
}

/* The first of the sorted events [x, xe) not before (t, off). */
static const struct proto_ev *
spill_upto(const struct proto_ev *x, const struct proto_ev *xe, uint64_t t,
    uint64_t off)
{
	const struct proto_ev	*mid;

	while (x < xe) {
		mid = x + (xe - x) / 2;
		if (spill_before(mid, t, off))
			x = mid + 1;
		else
			xe = mid;
	}
	return x;
}


/*
 * The events of a and b merged into out[n..max), while both have events
 * read and, with lim, those given come before (lt, lo): the new n.
 */
static size_t
spill_merge2(struct spill_rd *a, struct spill_rd *b, int lim, uint64_t lt,
    uint64_t lo, const struct proto_ev **out, size_t n, size_t max)
{
	const struct proto_ev	*x = &a->ev[a->i], *xe = &a->ev[a->n];
	const struct proto_ev	*y = &b->ev[b->i], *ye = &b->ev[b->n];
	size_t			 k;
	int			 tb, xcut = 0, ycut = 0;

	if (lim) {
		/* Only those before the third file's: a file cut there
		 * has its next events after them all. */
		xcut = (xe = spill_upto(x, xe, lt, lo)) != &a->ev[a->n];
		ycut = (ye = spill_upto(y, ye, lt, lo)) != &b->ev[b->n];
	}
	while (n < max && x < xe && y < ye) {
		k = max - n;
		/* All of one's events read before the other's next: given
		 * as they are, no step each (files mostly follow each other
		 * in time; a late block goes in whole). */
		if (spill_before(ye - 1, x->time, x->off)) {
			for (k = (size_t)(ye - y) < k ? (size_t)(ye - y) : k;
			    k > 0; k--)
				out[n++] = y++;
			continue;
		}
		if (spill_before(xe - 1, y->time, y->off)) {
			for (k = (size_t)(xe - x) < k ? (size_t)(xe - x) : k;
			    k > 0; k--)
				out[n++] = x++;
			continue;
		}
		/* Steps that cannot run past either end or max (one
		 * step takes one event of one). */
		k = (size_t)(xe - x) < k ? (size_t)(xe - x) : k;
		k = (size_t)(ye - y) < k ? (size_t)(ye - y) : k;
		for (; k > 0; k--) {
			/* Which goes is not predictable: arithmetic. */
			tb = (y->time < x->time) | ((y->time == x->time) &
			    (y->off < x->off));
			out[n++] = tb ? y : x;
			y += tb;
			x += !tb;
		}
	}
	for (; x == xe && xcut && n < max && y < ye; y++)
		out[n++] = y;
	for (; y == ye && ycut && n < max && x < xe; x++)
		out[n++] = x;
	a->i = (size_t)(x - a->ev);
	b->i = (size_t)(y - b->ev);
	return n;
}

/* After spill_merge2(): in order again, a file whose events read were
 * all given (one at most) first, to be refilled. */
static void
spill_cur_settle(struct spill_cur *c)
{
	struct spill_rd	*t;

	if (c->act[1]->i == c->act[1]->n) {
		t = c->act[0];
		c->act[0] = c->act[1];
		c->act[1] = t;
	}
	spill_cur_place(c, 1);
	if (c->act[0]->i < c->act[0]->n)
		spill_cur_place(c, 0);
}

/*
 * Up to max next events in time order, offsets the stream's; 0 at the end
 * of what the files held when they were sought.  Their pointers last
 * until the next call.
 */
size_t
spill_cur_next_p(struct spill_cur *c, const struct proto_ev **out,
    size_t max)
{
	const struct proto_ev	*e;
	struct spill_rd		*r, *best;
	uint64_t		 st = 0, so = 0;
	size_t			 n = 0;
	int			 w, two;

	spill_cur_prune(c);
	while (n < max && !c->bad && !c->halt) {
		best = c->nact > 0 ? c->act[0] : NULL;
		if (best != NULL && best->i == best->n) {
			/* A refill would move what out[] points at (lent,
			 * it reads into another buffer). */
			if (n > 0 && !c->lent)
				goto out;
			if (!spill_fill(c, best)) {
				c->nact--;
				memmove(&c->act[0], &c->act[1], (size_t)c->nact *
				    sizeof c->act[0]);
			} else
				spill_cur_place(c, 0);
			continue;
		}
		/* (st, so): the first event of a file other than best and
		 * act[1] (when there are two), or of the next file to open. */
		two = 0;
		if (c->nact > 2) {
			e = &c->act[2]->ev[c->act[2]->i];
			st = e->time;
			so = e->off;
			two = 1;
		}
		/* The next file not yet open, if its events may come first:
		 * open it (its first events read), then look again. */
		if (c->lz < c->nlazy) {
			r = c->lazy[c->lz];
			e = best != NULL ? &best->ev[best->i] : NULL;
			if (e == NULL || r->lb < e->time || (r->lb == e->time &&
			    r->base < e->off)) {
				c->lz++;
				if ((w = spill_wake(c, r)) < 0) {
					c->bad = 1;
					break;
				}
				if (w == 0 && spill_fill(c, r))
					spill_cur_insert(c, r);
				continue;
			}
			if (!two || r->lb < st || (r->lb == st &&
			    r->base < so)) {
				st = r->lb;
				so = r->base;
				two = 1;
			}
		}
		if (best == NULL)
			break;
		if (c->nact > 1) {
			n = spill_merge2(best, c->act[1], two, st, so, out, n,
			    max);
			spill_cur_settle(c);
			continue;
		}
		/* Best's events while they come before any other file's. */
		do
			out[n++] = &best->ev[best->i++];
		while (n < max && best->i < best->n && (!two ||
		    best->ev[best->i].time < st || (best->ev[best->i].time ==
		    st && best->ev[best->i].off < so)));
	}
out:
	if (n > 0) {
		c->last_t = out[n - 1]->time;
		c->last_off = out[n - 1]->off;
		c->given = 1;
	}
	return n;
}

/* The same, copied; the payloads they borrow last until the next call. */
size_t
spill_cur_next(struct spill_cur *c, struct proto_ev *out, size_t max)
{
	const struct proto_ev	*p[SPILL_N];
	size_t			 i, n;

	n = spill_cur_next_p(c, p, max < SPILL_N ? max : SPILL_N);
	for (i = 0; i < n; i++)
		out[i] = *p[i];
	return n;
}

/* Whether bytes came, or files went, since the files were sought. */
int
spill_cur_more(const struct spill_cur *c)
{
	return c->ver != c->sp->ver || c->drops != c->sp->drops;
}

/* Go on after the last event given, over what the files hold now. */
int
spill_cur_refresh(struct spill_cur *c)
{
	if (!c->given)
		return spill_cur_seek(c, c->from_t, c->from_off);
	return spill_cur_seek(c, c->last_t, c->last_off + 1);
}

int
spill_cur_failed(const struct spill_cur *c)
{
	return c->bad;
}

const char *
spill_cur_error(const struct spill_cur *c)
{
	return c->bad ? c->err : NULL;
}

/* The session's event types, to print the events with; NULL before a
 * header. */
const struct proto_dec *
spill_cur_dec(struct spill_cur *c)
{
	const struct spill	*sp = c->sp;

	if (c->dec != NULL && c->dec_session == sp->session)
		return c->dec;
	proto_dec_free(c->dec);
	c->dec = NULL;
	/* Its own reference: the types outlive the session's end. */
	if (sp->types != NULL)
		c->dec = proto_dec_new_sharing(sp->types, 0);
	c->dec_session = sp->session;
	return c->dec;
}

/* The newest event time kept, or UINT64_MAX when none is. */
uint64_t
spill_cur_last(const struct spill_cur *c)
{
	struct spill_stats	st;

	spill_stats(c->sp, &st);
	return st.events > 0 ? st.last : UINT64_MAX;
}

/* Readers open: a megabyte of tables each. */
int
spill_cur_readers(const struct spill_cur *c)
{
	int	i, n = 0;

	for (i = 0; i < SPILL_SEGS; i++)
		n += c->rd[i].rd != NULL;
	return n;
}

/* Events kept now (what spill_stats() says). */
uint64_t
spill_cur_events(const struct spill_cur *c)
{
	struct spill_stats	st;

	spill_stats(c->sp, &st);
	return st.events;
}

/* ------------------------------------------------------------------ */
/* The spill's own cursor: redo.c's, which keeps the files it reads. */

int
spill_seek(struct spill *sp, uint64_t t, uint64_t off)
{
	return spill_cur_seek(sp->cur, t, off);
}

size_t
spill_next_p(struct spill *sp, const struct proto_ev **out, size_t max)
{
	size_t	n = spill_cur_next_p(sp->cur, out, max);

	if (n == 0 && sp->cur->bad)
		snprintf(sp->err, sizeof sp->err, "%s", sp->cur->err);
	return n;
}

/* Reading is over for now: the readers go, and the pages they mapped
 * (their scans stay, for the next run). */
void
spill_rest(struct spill *sp)
{
	spill_cur_rest_read(sp->cur);
}

/* Whether bytes came since the files were sought. */
int
spill_more(const struct spill *sp)
{
	return sp->cur->ver != sp->ver;
}

/* Go on after the last event given, over what the files hold now. */
int
spill_refresh(struct spill *sp)
{
	return spill_cur_refresh(sp->cur);
}

/*
 * The spill's own cursor, sought, goes to another thread: there only
 * spill_next_lent() may be called, here nothing of the cursor's (the
 * spill_seek() family) until spill_unlend().
 */
void
spill_lend(struct spill *sp)
{
	sp->cur->lent = 1;
	sp->cur->halt = 0;
}

/*
 * On the borrower's thread: up to max next events, for the slab numbered
 * slab (they last until it is released); what those of slabs before
 * released borrowed may go.  0
 * at the end of what the files held, or to leave the rest to the spill's
 * thread (spill_unlend() says).
 */
size_t
spill_next_lent(struct spill *sp, const struct proto_ev **out, size_t max,
    uint64_t slab, uint64_t released)
{
	struct spill_cur	*c = sp->cur;

	c->slab = slab;
	spill_cur_release(c, released);
	return spill_cur_next_p(c, out, max);
}

/*
 * Back from the borrower, which has stopped: the readers it kept go.  1
 * if it stopped before a file whose events do not last, to be read here
 * with spill_next_p() (its events come next); else 0.
 */
int
spill_unlend(struct spill *sp)
{
	struct spill_cur	*c = sp->cur;
	struct spill_buf	*b;
	int			 halt = c->halt;

	spill_cur_release(c, UINT64_MAX);
	while ((b = c->spare) != NULL) {
		c->spare = b->next;
		free(b);
	}
	c->lent = c->halt = 0;
	if (c->bad)
		snprintf(sp->err, sizeof sp->err, "%s", c->err);
	if (sp->reset_lent) {
		sp->reset_lent = 0;
		spill_cur_rest_all(c);
	}
	return halt;
}
