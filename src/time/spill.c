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
 * find one.  It hands pointers to the events it read ahead, without
 * their fields (reader_next_heads()), which the borrower copies before
 * its next call; a reader read to its end, whose bytes their payloads
 * borrow, is kept until the caller is done with the slab they went into.
 */
#include "time/spill-priv.h"

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

/* Every file goes: history given up, or a new session.  The stream goes
 * on: the bytes given and not yet written stay, at their offsets. */
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

/* A new connection (after spill_reset()): its stream starts at offset 0,
 * nothing given yet. */
void
spill_connect(struct spill *sp)
{
	sp->staged = 0;
	sp->stage_off = 0;
	sp->borrowed = NULL;
	sp->nborrowed = 0;
}

/* The borrowed bytes copied after the staged ones: the caller's buffer is
 * about to change. */
static void
spill_absorb(struct spill *sp)
{
	const uint8_t	*p = sp->borrowed;
	size_t		 cap, n = sp->nborrowed;
	uint8_t		*b;

	sp->borrowed = NULL;
	sp->nborrowed = 0;
	if (n == 0)
		return;
	if (sp->staged + n > sp->stage_cap) {
		cap = sp->stage_cap > 0 ? sp->stage_cap : (64u << 10);
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

/* Raw bytes from the source, in order: borrowed (p stays as it is) until
 * the next spill_commit(). */
void
spill_bytes(struct spill *sp, const uint8_t *p, size_t n)
{
	spill_absorb(sp);
	sp->borrowed = p;
	sp->nborrowed = n;
}

/* Drop the bytes given before stream offset off: staged, then borrowed. */
static void
spill_unstage(struct spill *sp, uint64_t off)
{
	size_t	k;

	if (off <= sp->stage_off)
		return;
	k = off - sp->stage_off > sp->staged ? sp->staged :
	    (size_t)(off - sp->stage_off);
	if (k > 0) {
		memmove(sp->stage, sp->stage + k, sp->staged - k);
		sp->staged -= k;
		sp->stage_off += k;
	}
	if (sp->staged > 0 || off <= sp->stage_off || sp->nborrowed == 0)
		return;
	k = off - sp->stage_off > sp->nborrowed ? sp->nborrowed :
	    (size_t)(off - sp->stage_off);
	sp->borrowed += k;
	sp->nborrowed -= k;
	sp->stage_off += k;
}

/* A header was read; its data start at stream offset data: a new
 * history. */
int
spill_session(struct spill *sp, const struct proto_dec *dec, uint64_t data)
{
	size_t	n;

	/* What is staged stays: the new session's first bytes. */
	spill_reset(sp);
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

/* Write n of the bytes given from stream offset stage_off on (staged,
 * then borrowed) at the current file's offset at. */
static int
spill_write_given(struct spill *sp, size_t n, uint64_t at)
{
	size_t	k = n < sp->staged ? n : sp->staged;

	if (spill_write(sp->seg[sp->nseg - 1].fd, sp->stage, k, at) != 0)
		return -1;
	return spill_write(sp->seg[sp->nseg - 1].fd, sp->borrowed, n - k,
	    at + k);
}

static int
spill_put(struct spill *sp, uint64_t upto)
{
	struct spill_seg	*s = &sp->seg[sp->nseg - 1];
	size_t			 k, given = sp->staged + sp->nborrowed;

	if (upto <= sp->stage_off)
		return 0;
	k = upto - sp->stage_off > given ? given :
	    (size_t)(upto - sp->stage_off);
	if (spill_write_given(sp, k, sp->hlen + s->bytes) != 0)
		return spill_fail(sp, "writing");
	s->bytes += k;
	sp->ver++;
	spill_unstage(sp, sp->stage_off + k);
	given -= k;
	/* A GHC 9.6 IPE is framed with the bytes after it (proto_frame_ipe()):
	 * a file that ends with one has the next event's first ones too, a
	 * cut event its reader leaves out (reader_open_own()), not counted
	 * as the file's and written over by what follows. */
	if (((sp->ipe_end != 0 && sp->ipe_end == sp->stage_off) || (sp->rot &&
	    sp->rot_ipe && sp->stage_off == sp->rot_at)) && given > 0 &&
	    spill_write_given(sp, given < SPILL_IPE_PEEK ? given :
	    SPILL_IPE_PEEK, sp->hlen + s->bytes) != 0)
		return spill_fail(sp, "writing");
	return 0;
}

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

static int
spill_commit_in(struct spill *sp, uint64_t upto)
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

/* Write the whole events, up to stream offset upto; keep the bounds.  The
 * bytes given after upto are copied: the caller's are its own again. */
int
spill_commit(struct spill *sp, uint64_t upto)
{
	int	rc = spill_commit_in(sp, upto);

	spill_absorb(sp);	/* the rest: the next read writes over it */
	return rc;
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

/* The cursor's reading failed for why (an event's fields, read on the
 * borrower's caller): it gives nothing more until sought again. */
void
spill_lent_failed(struct spill *sp, const char *why)
{
	struct spill_cur	*c = sp->cur;

	c->bad = 1;
	snprintf(c->err, sizeof c->err, "history: %s", why);
	snprintf(sp->err, sizeof sp->err, "%s", c->err);
}

const char *
spill_error(const struct spill *sp)
{
	return sp->err[0] != '\0' ? sp->err : NULL;
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
 * On the borrower's thread: up to max next events, their fields left to
 * proto_dec_rest(), for the slab numbered slab.  They last until the next
 * call, the bytes they borrow until the slab is released; what those of
 * slabs before released borrowed may go.  0 at the end of what the files
 * held, or to leave the rest to the spill's thread (spill_unlend() says).
 */
size_t
spill_next_lent(struct spill *sp, const struct proto_ev **out, size_t max,
    uint64_t slab, uint64_t released)
{
	struct spill_cur	*c = sp->cur;

	c->slab = slab;
	spill_cur_release(c, released);
	spill_cur_spare(c);
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
	int			 halt = c->halt;

	spill_cur_unlent(c);
	c->lent = c->halt = 0;
	if (c->bad)
		snprintf(sp->err, sizeof sp->err, "%s", c->err);
	if (sp->reset_lent) {
		sp->reset_lent = 0;
		spill_cur_rest_all(c);
	}
	return halt;
}
