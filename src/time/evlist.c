/*
 * evlist.c: a file's events as `evtop show` lines, at any place in the
 * reader's order, forwards and backwards, and a search through them; or
 * a live source's history's (spill.c), read with a cursor of its own.
 * Both are behind struct evl_src (seek to a place, the next events, the
 * event types, how many there are), and everything above it is one code
 * path: a place is (time, stream offset) in either.
 *
 * The reader only goes forwards, from any (time, offset) on, and
 * reader_seek() is cheap; so the events before a place are found by
 * reading forwards from a little earlier in time, going further back
 * (four times as far each try) until there are enough.  A search reads
 * forwards in slices of a bounded number of events (evl_step()); backwards,
 * it reads windows of time that grow as they go back, forwards within each,
 * and takes the last match of the nearest window that has one.  Scrolling
 * between slices moves the reader: the search seeks back to its place.
 *
 * A forward search through a file that goes on past its first slice reads
 * on a thread of its own (feed.c, as --batch does): framing, merging and
 * decoding there, matching here.  The reader is the feed's until the
 * search stops, finds, or anything else reads (evl_unfeed()).
 */
#include <stdlib.h>
#include <string.h>

#include "time/evlist.h"
#include "time/spill.h"

#define EVL_BATCH	256		/* events asked of the reader at once */
#define EVL_LINE	(1 << 20)	/* the longest line there is */
#define EVL_BACK_MAX	4096		/* events evl_back() counts back */
#define EVL_SPAN	(1000 * 1000)	/* ns first tried back: 1 ms */

struct evl;

/* Where the events come from. */
struct evl_src {
	int		 (*seek)(struct evl *, struct evl_pos);
	size_t		 (*next)(struct evl *, struct proto_ev *, size_t);
	int		 (*stale)(const struct evl *);	/* seek again */
	uint64_t	 (*last)(struct evl *);	/* the newest time, or MAX */
	const struct proto_dec *(*dec)(struct evl *);	/* NULL: none yet */
	uint64_t	 (*events)(const struct evl *);
	const char	*(*error)(const struct evl *);
};

struct evl {
	const struct evl_src *src;
	char		*path;
	struct reader	*r;		/* a file */
	struct spill_cur *c;		/* or a history */
	const struct proto_dec *dec;
	struct proto_ev	 ev[EVL_BATCH];
	char		*buf;		/* one line, formatted */
	struct evl_pos	*ring;		/* evl_back() */
	uint64_t	 span;		/* ns evl_back() tried last */
	int		 flast_ok;	/* a file's newest time is known */
	uint64_t	 flast;
	uint64_t	 work;		/* events taken from the source */

	/* The search. */
	enum evl_state	 state;
	struct evl_query *q;
	char		 qtext[EVL_QUERY];
	int		 dir;		/* 1 forwards, -1 backwards */
	int		 at_ok;		/* the reader's next event is at... */
	struct evl_pos	 at;
	struct evl_pos	 next;		/* the next event to look at */
	struct evl_pos	 lo, hi;	/* backwards: the window [lo, hi) */
	uint64_t	 wspan;		/* its length */
	int		 whave;		/* a match in the window so far */
	struct evl_pos	 wpos;
	size_t		 woff, wlen;
	struct evl_pos	 found;
	size_t		 found_off, found_len;
	uint64_t	 searched;	/* events looked at */

	/* A forward search's feed, and its slab being matched. */
	struct feed	*fd;
	const struct proto_ev *fev;
	size_t		 fn, fi;
	char		 ferr[256];	/* reader_error() when it began, or "" */
};

/* The reader is ours again (somewhere ahead: the next read seeks). */
static void
evl_unfeed(struct evl *e)
{
	if (e->fd == NULL)
		return;
	feed_free(e->fd);
	e->fd = NULL;
	e->fn = e->fi = 0;
	e->at_ok = 0;
}

static int
evl_before(const struct proto_ev *ev, struct evl_pos p)
{
	return ev->time < p.time || (ev->time == p.time && ev->off < p.off);
}

/* A file, through a reader of its own. */
static int
evl_file_seek(struct evl *e, struct evl_pos pos)
{
	return reader_seek(e->r, pos.time, pos.off);
}

static size_t
evl_file_next(struct evl *e, struct proto_ev *ev, size_t n)
{
	return reader_next_n(e->r, ev, n);
}

static int
evl_file_stale(const struct evl *e)
{
	return 0;
}

/*
 * A file's newest event time, found once by halving: seeking is cheap
 * for the single pass (not for the two, which are left to read back from
 * further).
 */
static uint64_t
evl_file_last(struct evl *e)
{
	struct proto_ev	ev;
	uint64_t	lo = 0, hi = UINT64_MAX, mid;

	if (e->flast_ok)
		return e->flast;
	if (!reader_lasting(e->r))
		return UINT64_MAX;
	evl_unfeed(e);
	e->at_ok = 0;		/* the reader moves */
	/* An event at lo or later, none at hi or later. */
	while (hi - lo > 1) {
		mid = lo + (hi - lo) / 2;
		if (reader_seek(e->r, mid, 0) != 0)
			return UINT64_MAX;
		if (reader_next_n(e->r, &ev, 1) == 1)
			lo = ev.time;
		else
			hi = mid;
	}
	e->flast_ok = 1;
	e->flast = lo;
	return lo;
}

static const struct proto_dec *
evl_file_dec(struct evl *e)
{
	return reader_dec(e->r);
}

static uint64_t
evl_file_events(const struct evl *e)
{
	return reader_events(e->r);
}

static const char *
evl_file_error(const struct evl *e)
{
	/* The reader's error is its thread's to write while it feeds. */
	if (e->fd != NULL)
		return e->ferr[0] != '\0' ? e->ferr : NULL;
	return reader_error(e->r);
}

static const struct evl_src evl_file = {
	evl_file_seek, evl_file_next, evl_file_stale, evl_file_last,
	evl_file_dec, evl_file_events, evl_file_error,
};

/* A live source's history, through a cursor of its own: bytes come and
 * old files go between calls, so it is sought again after either. */
static int
evl_spill_seek(struct evl *e, struct evl_pos pos)
{
	return spill_cur_seek(e->c, pos.time, pos.off);
}

static size_t
evl_spill_next(struct evl *e, struct proto_ev *ev, size_t n)
{
	return spill_cur_next(e->c, ev, n);
}

static int
evl_spill_stale(const struct evl *e)
{
	return spill_cur_more(e->c);
}

static uint64_t
evl_spill_last(struct evl *e)
{
	return spill_cur_last(e->c);
}

static const struct proto_dec *
evl_spill_dec(struct evl *e)
{
	return spill_cur_dec(e->c);
}

static uint64_t
evl_spill_events(const struct evl *e)
{
	return spill_cur_events(e->c);
}

static const char *
evl_spill_error(const struct evl *e)
{
	return spill_cur_error(e->c);
}

static const struct evl_src evl_spill = {
	evl_spill_seek, evl_spill_next, evl_spill_stale, evl_spill_last,
	evl_spill_dec, evl_spill_events, evl_spill_error,
};

static struct evl *
evl_new(const struct evl_src *src, char **cause)
{
	struct evl	*e;

	if ((e = calloc(1, sizeof *e)) == NULL ||
	    (e->buf = malloc(EVL_LINE)) == NULL ||
	    (e->ring = calloc(EVL_BACK_MAX, sizeof *e->ring)) == NULL) {
		evl_free(e);
		*cause = strdup("out of memory");
		return NULL;
	}
	e->src = src;
	e->span = EVL_SPAN;
	e->state = EVL_IDLE;
	return e;
}

struct evl *
evl_open(const char *path, char **cause)
{
	struct evl	*e;

	if ((e = evl_new(&evl_file, cause)) == NULL)
		return NULL;
	if ((e->path = strdup(path)) == NULL) {
		evl_free(e);
		*cause = strdup("out of memory");
		return NULL;
	}
	if ((e->r = reader_open(path, cause)) == NULL) {
		evl_free(e);
		return NULL;
	}
	e->dec = reader_dec(e->r);
	return e;
}

/* A live source's history: its events as they are kept now, and as
 * they come. */
struct evl *
evl_open_spill(const struct spill *sp, char **cause)
{
	struct evl	*e;

	if ((e = evl_new(&evl_spill, cause)) == NULL)
		return NULL;
	if ((e->c = spill_cur_new(sp)) == NULL) {
		evl_free(e);
		*cause = strdup("out of memory");
		return NULL;
	}
	e->dec = spill_cur_dec(e->c);
	return e;
}

void
evl_free(struct evl *e)
{
	if (e == NULL)
		return;
	evl_unfeed(e);
	reader_free(e->r);
	spill_cur_free(e->c);
	evl_query_free(e->q);
	free(e->ring);
	free(e->buf);
	free(e->path);
	free(e);
}

const char *
evl_path(const struct evl *e)
{
	return e->path;
}

/* Events in the file, or kept in the history now. */
uint64_t
evl_events(const struct evl *e)
{
	return e->src->events(e);
}

/* Whether there are event types to print with (a history has none
 * before its first header). */
static int
evl_ready(struct evl *e)
{
	e->dec = e->src->dec(e);
	return e->dec != NULL;
}

/* Go to pos, unless the reader is there (some readers seek slowly) and
 * nothing changed under it. */
static int
evl_seek(struct evl *e, struct evl_pos pos)
{
	evl_unfeed(e);		/* whoever reads next, it is not the feed */
	if (e->at_ok && e->at.time == pos.time && e->at.off == pos.off &&
	    !e->src->stale(e))
		return 0;
	e->at = pos;
	e->at_ok = e->src->seek(e, pos) == 0 && evl_ready(e);
	return e->at_ok ? 0 : -1;
}

/* Events taken from the file or history so far: what reading cost. */
uint64_t
evl_work(const struct evl *e)
{
	return e->work;
}

/* Idle: a history's readers go (a megabyte each); the next read seeks. */
void
evl_rest(struct evl *e)
{
	if (e->c == NULL)
		return;
	spill_cur_rest(e->c);
	e->at_ok = 0;
}

/* The reader gave these events and nothing after them. */
static void
evl_gave(struct evl *e, const struct proto_ev *ev, size_t n)
{
	e->work += n;
	if (n > 0)
		e->at = (struct evl_pos){ ev[n - 1].time, ev[n - 1].off + 1 };
}

/* Keep the start of a line for display, cut at a character. */
static void
evl_keep(struct evl_line *l, const char *s, size_t n)
{
	size_t	k = n < EVL_TEXT ? n : EVL_TEXT;

	if (k < n) {
		while (k > 0 && ((unsigned char)s[k] & 0xc0) == 0x80)
			k--;
	}
	memcpy(l->text, s, k);
	l->ntext = k;
	l->len = n;
}

/* Up to n events from pos on (pos itself if it is one) as lines. */
size_t
evl_read(struct evl *e, struct evl_pos pos, struct evl_line *out, size_t n)
{
	size_t	k = 0, got, i, len;

	if (evl_seek(e, pos) == -1)
		return 0;
	while (k < n) {
		got = e->src->next(e, e->ev, n - k < EVL_BATCH ? n - k :
		    EVL_BATCH);
		if (got == 0)
			break;
		evl_gave(e, e->ev, got);
		for (i = 0; i < got; i++, k++) {
			len = proto_show_event(&e->ev[i], e->dec, e->buf,
			    EVL_LINE);
			evl_keep(&out[k], e->buf, len);
			out[k].pos.time = e->ev[i].time;
			out[k].pos.off = e->ev[i].off;
		}
	}
	return k;
}

/*
 * Where the n events before pos begin: *first, and how many there are
 * (fewer than n only at the start of the file).
 */
size_t
evl_back(struct evl *e, struct evl_pos pos, size_t n, struct evl_pos *first)
{
	struct evl_pos	 from;
	uint64_t	 span = e->span, count, more, top = pos.time, last;
	size_t		 got, i, k;
	int		 done;

	if (n > EVL_BACK_MAX)
		n = EVL_BACK_MAX;
	if (n == 0 || !evl_ready(e))
		return 0;
	/* Back from the newest event, not from a time after it (the end's
	 * place is the end of time). */
	if ((last = e->src->last(e)) != UINT64_MAX && top > last)
		top = last + 1;
	for (;;) {
		from.time = top > span ? top - span : 0;
		from.off = 0;
		if (evl_seek(e, from) == -1)
			return 0;
		count = 0;
		done = 0;
		while (!done && (got = e->src->next(e, e->ev,
		    EVL_BATCH)) > 0) {
			evl_gave(e, e->ev, got);
			for (i = 0; i < got; i++) {
				if (!evl_before(&e->ev[i], pos)) {
					done = 1;
					break;
				}
				e->ring[count++ % n] = (struct evl_pos){
				    e->ev[i].time, e->ev[i].off };
			}
		}
		if (count >= n || from.time == 0)
			break;
		if (span > UINT64_MAX / 4)
			span = UINT64_MAX;
		else
			span *= 4;
	}
	/* Next time start from about what was needed: halved as many
	 * times as there were more than enough. */
	e->span = span;
	for (more = count; more > 4 * n && e->span > 1000; more /= 2)
		e->span /= 2;
	k = count < n ? (size_t)count : n;
	if (k > 0)
		*first = e->ring[(count - k) % n];
	return k;
}

/* The place of the last n events (fewer in a short file): 0, or -1. */
int
evl_last(struct evl *e, size_t n, struct evl_pos *first)
{
	struct evl_pos	end = { UINT64_MAX, UINT64_MAX };

	return evl_back(e, end, n, first) > 0 ? 0 : -1;
}

/*
 * Search for text from pos on (dir 1: pos and after) or before pos (dir
 * -1); evl_step() does the work.  0, or -1 without memory.
 */
int
evl_search(struct evl *e, const char *text, struct evl_pos pos, int dir)
{
	if (e->q == NULL || strcmp(e->qtext, text) != 0) {
		evl_query_free(e->q);
		snprintf(e->qtext, sizeof e->qtext, "%s", text);
		if ((e->q = evl_query_new(e->qtext)) == NULL) {
			e->state = EVL_ERROR;
			return -1;
		}
	}
	evl_unfeed(e);
	e->dir = dir;
	e->searched = 0;
	e->whave = 0;
	if (text[0] == '\0' || !evl_ready(e)) {
		e->state = EVL_NOT_FOUND;
		return 0;
	}
	e->state = EVL_RUNNING;
	if (dir > 0) {
		e->next = pos;
		return 0;
	}
	e->hi = pos;
	e->wspan = e->span * 16;
	e->lo.time = pos.time > e->wspan ? pos.time - e->wspan : 0;
	e->lo.off = 0;
	e->next = e->lo;
	return 0;
}

/* The end: a file cut short ends there too (evl_error() says why). */
static void
evl_end(struct evl *e)
{
	e->state = EVL_NOT_FOUND;
}

/* The reader to a feed, from where it is (the search's next event). */
static void
evl_feed(struct evl *e)
{
	const char	*err = reader_error(e->r);

	snprintf(e->ferr, sizeof e->ferr, "%s", err != NULL ? err : "");
	e->fd = feed_new(e->r, 1);	/* (NULL: read here) */
}

/* A forward search's next events: from the feed once the search has gone
 * past a slice in a file whose events last, else from the source. */
static size_t
evl_take(struct evl *e, const struct proto_ev **ev)
{
	size_t	n;

	if (e->fd == NULL && e->r != NULL && e->searched > 0 &&
	    reader_lasting(e->r))
		evl_feed(e);
	if (e->fd == NULL) {
		*ev = e->ev;
		return e->src->next(e, e->ev, EVL_BATCH);
	}
	if (e->fi == e->fn) {
		e->fi = 0;
		if ((e->fn = feed_next(e->fd, &e->fev)) == 0)
			return 0;
	}
	n = e->fn - e->fi < EVL_BATCH ? e->fn - e->fi : EVL_BATCH;
	*ev = e->fev + e->fi;
	e->fi += n;
	return n;
}

/* One slice forwards; 1 when the search ended (the feed, if any, gone). */
static int
evl_step_fwd(struct evl *e, uint64_t budget)
{
	const struct proto_ev *ev;
	uint64_t	done = 0;
	size_t		got, i, at;
	long		len;

	while (done < budget) {
		if ((got = evl_take(e, &ev)) == 0) {
			evl_unfeed(e);
			evl_end(e);
			return 1;
		}
		evl_gave(e, ev, got);
		for (i = 0; i < got; i++) {
			if ((len = evl_query_match(e->q, &ev[i], e->dec,
			    e->buf, EVL_LINE, &at)) < 0)
				continue;
			e->found = (struct evl_pos){ ev[i].time, ev[i].off };
			e->found_off = at;
			e->found_len = strlen(e->qtext);
			e->searched += i + 1;
			e->next = (struct evl_pos){ e->found.time,
			    e->found.off + 1 };
			e->state = EVL_FOUND;
			evl_unfeed(e);
			return 1;
		}
		done += got;
		e->searched += got;
		e->next = (struct evl_pos){ ev[got - 1].time,
		    ev[got - 1].off + 1 };
	}
	return 0;
}

/* One slice backwards; 1 when the search ended. */
static int
evl_step_back(struct evl *e, uint64_t budget)
{
	uint64_t	done = 0;
	size_t		got, i, at;
	long		len;
	int		end = 0;

	while (done < budget && !end) {
		if ((got = e->src->next(e, e->ev, EVL_BATCH)) == 0) {
			end = 1;
			break;
		}
		evl_gave(e, e->ev, got);
		for (i = 0; i < got; i++) {
			if (!evl_before(&e->ev[i], e->hi)) {
				end = 1;
				break;
			}
			if ((len = evl_query_match(e->q, &e->ev[i], e->dec,
			    e->buf, EVL_LINE, &at)) < 0)
				continue;
			e->whave = 1;
			e->wpos = (struct evl_pos){ e->ev[i].time,
			    e->ev[i].off };
			e->woff = at;
		}
		done += i;
		e->searched += i;
		if (i > 0)
			e->next = (struct evl_pos){ e->ev[i - 1].time,
			    e->ev[i - 1].off + 1 };
	}
	if (!end)
		return 0;
	/* The window is done: its last match is the nearest. */
	if (e->whave) {
		e->found = e->wpos;
		e->found_off = e->woff;
		e->found_len = strlen(e->qtext);
		e->state = EVL_FOUND;
		return 1;
	}
	if (e->lo.time == 0) {
		e->state = EVL_NOT_FOUND;
		return 1;
	}
	e->hi = e->lo;
	if (e->wspan <= UINT64_MAX / 2)
		e->wspan *= 2;
	e->lo.time = e->hi.time > e->wspan ? e->hi.time - e->wspan : 0;
	e->next = e->lo;
	return 0;
}

/* Search on over about budget events; the state after. */
enum evl_state
evl_step(struct evl *e, uint64_t budget)
{
	if (e->state != EVL_RUNNING)
		return e->state;
	/* A feed goes on where the last slice ended: anything that read
	 * since took the reader back (evl_seek()). */
	if (e->fd == NULL && evl_seek(e, e->next) == -1) {
		e->state = EVL_ERROR;
		return e->state;
	}
	if (e->dir > 0)
		evl_step_fwd(e, budget);
	else
		evl_step_back(e, budget);
	return e->state;
}

enum evl_state
evl_state(const struct evl *e)
{
	return e->state;
}

void
evl_cancel(struct evl *e)
{
	evl_unfeed(e);
	e->state = EVL_IDLE;
}

/* The last match: its event, where in its line, how long.  0, or -1. */
int
evl_found(const struct evl *e, struct evl_pos *pos, size_t *off,
    size_t *len)
{
	if (e->state != EVL_FOUND)
		return -1;
	*pos = e->found;
	*off = e->found_off;
	*len = e->found_len;
	return 0;
}

uint64_t
evl_searched(const struct evl *e)
{
	return e->searched;
}

/* Why the file's events end early (or the history could not be read),
 * or NULL. */
const char *
evl_error(const struct evl *e)
{
	return e->src->error(e);
}

const char *
evl_query_text(const struct evl *e)
{
	return e->qtext;
}

/* Where the query is in a line shown, for highlighting: 1 and *at, or 0. */
int
evl_line_match(const struct evl *e, const char *s, size_t n, size_t *at)
{
	if (e->q == NULL || e->qtext[0] == '\0')
		return 0;
	return evl_text_find(e->q, s, n, at);
}
