/*
 * spill-cur.c: the history read back in time order, with a cursor (see
 * spill.c): each file's reader, the events read ahead, the files merged;
 * files that go while it reads; lent to another thread.
 */
#include "time/spill-priv.h"

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

/* A file's buffer, read: lent, kept until the next call (its events were
 * given), else it goes. */
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
	b->next = c->gave;
	c->gave = b;
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
void
spill_cur_release(struct spill_cur *c, uint64_t upto)
{
	int	i, j;

	for (i = j = 0; i < c->nretired; i++) {
		if (c->retired_at[i] < upto) {
			reader_free(c->retired[i]);
			continue;
		}
		c->retired[j] = c->retired[i];
		c->retired_at[j++] = c->retired_at[i];
	}
	c->nretired = j;
}

/* The buffers whose events the last call gave: to use again (their events
 * were copied). */
void
spill_cur_spare(struct spill_cur *c)
{
	struct spill_buf	*b;

	while ((b = c->gave) != NULL) {
		c->gave = b->next;
		b->next = c->spare;
		c->spare = b;
	}
}

/* No longer lent: the readers kept for slabs and the buffers go. */
void
spill_cur_unlent(struct spill_cur *c)
{
	struct spill_buf	*b;

	spill_cur_release(c, UINT64_MAX);
	spill_cur_spare(c);
	while ((b = c->spare) != NULL) {
		c->spare = b->next;
		free(b);
	}
}

/* Nothing read ahead, no reader open: a seek starts again. */
void
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
void
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
	int	i;

	if (c == NULL)
		return;
	for (i = 0; i < SPILL_SEGS; i++)
		spill_rd_close(&c->rd[i]);
	spill_cur_unlent(c);
	proto_dec_free(c->dec);
	free(c);
}

/* Whether the cursor has events of file seq still to give. */
int
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
	/* Lent, the fields are left to the borrower's caller (feed.c):
	 * only the heads (40 bytes of 176) cross to its core. */
	if ((r->n = c->lent ? reader_next_heads(r->rd, r->ev, SPILL_N) :
	    reader_next_n(r->rd, r->ev, SPILL_N)) == 0) {
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
