/*
 * t_tl.c: the timeline's summary (src/time/tl.c) against an independent
 * computation from the same events: every state span and pause kept in a
 * plain list, then each bucket's figures summed by brute force over the
 * list.  Per capability run/GC/idle per bucket, program GC per bucket,
 * heap gauges, the longest pauses and the markers must be equal; totals
 * must equal the model's (--batch's figures); coarsening keeps the sums;
 * the bounds hold; a range summary read in slices from the file (tl-read.c)
 * equals the spans clipped to the range; capabilities fed out of order
 * (a live stream's interleaving) give the same per-capability figures.
 *
 * usage: t_tl FIXTURES-DIR [CORPUS-DIR]
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evtop.h"
#include "model/model.h"
#include "time/tl.h"
#include "../tap.h"

enum { S_UNK, S_IDLE, S_RUN, S_GC };

struct span {
	int		 cap, st;
	uint64_t	 a, b;
	uint32_t	 thread;
};

struct ref {
	struct span	*span;
	size_t		 nspan, aspan;
	struct tl_pause	*pause;
	uint64_t	*pfirst;	/* each pause's first GC_START */
	size_t		 npause, apause;
	struct { uint64_t t, v; int live; } *gauge;
	size_t		 ngauge, agauge;
	struct tl_mark	*mark;
	size_t		 nmark, amark;
	struct rgc {
		int		 in;
		uint64_t	 start_t, end_seq, end_t;
	}		 nocap;
	struct {
		int		 st;
		struct rgc	 gc;
		uint64_t	 since;
		uint32_t	 thread;
	}		 cap[TL_MAX_CAPS];
	int		 n_in_gc, coll_open, stats_mode, close_on;
	uint64_t	 coll_seq, last_end;
	uint64_t	 pstart, start, now;
	int		 started;
};

enum { R_NONE = -3, R_ALL = -2, R_NOCAP = -1 };

#define GROW(p, n, a) do {						\
	if ((n) == (a)) {						\
		(a) = (a) ? 2 * (a) : 1024;				\
		if (((p) = realloc((p), (a) * sizeof *(p))) == NULL)	\
			abort();					\
	}								\
} while (0)

static void
ref_close(struct ref *r, int c, int st, uint64_t t, uint32_t thread)
{
	if (t < r->cap[c].since)
		t = r->cap[c].since;
	if ((r->cap[c].st == S_RUN || r->cap[c].st == S_GC) &&
	    t > r->cap[c].since) {
		GROW(r->span, r->nspan, r->aspan);
		r->span[r->nspan].cap = c;
		r->span[r->nspan].st = r->cap[c].st;
		r->span[r->nspan].a = r->cap[c].since;
		r->span[r->nspan].b = t;
		r->span[r->nspan++].thread = r->cap[c].thread;
	}
	r->cap[c].st = st;
	r->cap[c].since = t;
	r->cap[c].thread = thread;
}

/*
 * Collections as tl.c's: open from a GC_START when none is; closed at the
 * GC_END that leaves no cap in GC, or once a GC_STATS_GHC came at the
 * GC_END of the cap that posts them (from its GC_START if within); none
 * if none came before the next GC_START.
 */
static void
ref_gc_close(struct ref *r, uint64_t s, uint64_t e)
{
	uint64_t	st = s > r->pstart && s <= e ? s : r->pstart;

	r->coll_open = 0;
	if (r->npause == r->apause &&
	    (r->pfirst = realloc(r->pfirst, (r->apause ? 2 * r->apause :
	    1024) * sizeof *r->pfirst)) == NULL)
		abort();
	r->pfirst[r->npause] = r->pstart;
	GROW(r->pause, r->npause, r->apause);
	r->pause[r->npause].start = st;
	r->pause[r->npause++].dur = e > st ? e - st : 0;
}

static void
ref_gc_start(struct ref *r, struct rgc *g, uint64_t t)
{
	if (g->in)
		return;
	g->in = 1;
	g->start_t = t;
	if (r->coll_open && r->n_in_gc == 0)
		r->coll_open = 0;	/* no stats: not a collection (tl.c) */
	r->n_in_gc++;
	if (!r->coll_open) {
		r->coll_open = 1;
		r->coll_seq++;
		r->close_on = R_NONE;
		r->pstart = r->last_end = t;
	}
}

static void
ref_gc_end(struct ref *r, struct rgc *g, int who, uint64_t t)
{
	if (!g->in)
		return;
	g->in = 0;
	r->n_in_gc--;
	if (!r->coll_open)
		return;
	g->end_seq = r->coll_seq;
	g->end_t = t;
	if (t > r->last_end)
		r->last_end = t;
	if (r->close_on == who)
		ref_gc_close(r, g->start_t, t);
	else if (r->n_in_gc == 0 && (!r->stats_mode || r->close_on == R_ALL))
		ref_gc_close(r, 0, t);
}

static void
ref_gc_stats(struct ref *r, struct rgc *g, int who)
{
	r->stats_mode = 1;
	if (!r->coll_open)
		return;
	if (g->in)
		r->close_on = who;
	else if (g->end_seq == r->coll_seq)
		ref_gc_close(r, g->start_t, g->end_t);
	else if (r->n_in_gc == 0)
		ref_gc_close(r, 0, r->last_end);
	else
		r->close_on = R_ALL;
}

/* The same rules as the model's, written out plainly. */
static void
ref_event(struct ref *r, const struct proto_ev *ev)
{
	int		c = ev->cap;
	uint64_t	t = ev->time;
	size_t		n;

	if (!r->started) {
		r->started = 1;
		r->start = r->now = t;
		for (n = 0; n < TL_MAX_CAPS; n++)
			r->cap[n].since = t;
	}
	if (t > r->now)
		r->now = t;
	if (c >= TL_MAX_CAPS)
		return;
	switch (ev->kind) {
	case PROTO_RUN_THREAD:
		if (c < 0)
			return;
		if (r->cap[c].st == S_UNK)
			r->cap[c].st = S_IDLE;
		ref_close(r, c, S_RUN, t, ev->u.thread.thread);
		break;
	case PROTO_STOP_THREAD:
		if (c < 0)
			return;
		if (r->cap[c].st == S_UNK) {
			r->cap[c].st = S_RUN;
			r->cap[c].thread = ev->u.stop.thread;
		}
		if (r->cap[c].st == S_RUN)
			ref_close(r, c, S_IDLE, t, 0);
		break;
	case PROTO_GC_START:
		if (c < 0) {
			ref_gc_start(r, &r->nocap, t);
			return;
		}
		if (r->cap[c].gc.in)
			return;
		ref_gc_start(r, &r->cap[c].gc, t);
		if (r->cap[c].st == S_UNK)
			r->cap[c].st = S_IDLE;
		ref_close(r, c, S_GC, t, 0);
		break;
	case PROTO_GC_STATS_GHC:
		if (c < 0)
			ref_gc_stats(r, &r->nocap, R_NOCAP);
		else
			ref_gc_stats(r, &r->cap[c].gc, c);
		break;
	case PROTO_GC_END:
		if (c < 0) {
			ref_gc_end(r, &r->nocap, R_NOCAP, t);
			return;
		}
		if (r->cap[c].st == S_UNK) {
			r->cap[c].st = S_GC;
			ref_close(r, c, S_IDLE, t, 0);
			return;
		}
		ref_gc_end(r, &r->cap[c].gc, c, t);
		if (r->cap[c].st == S_GC)
			ref_close(r, c, S_IDLE, t, 0);
		break;
	case PROTO_HEAP_SIZE:
	case PROTO_HEAP_LIVE:
		GROW(r->gauge, r->ngauge, r->agauge);
		r->gauge[r->ngauge].t = t;
		r->gauge[r->ngauge].v = ev->u.heap.bytes;
		r->gauge[r->ngauge++].live = ev->kind == PROTO_HEAP_LIVE;
		break;
	case PROTO_USER_MARKER:
		GROW(r->mark, r->nmark, r->amark);
		r->mark[r->nmark].time = t;
		n = proto_sanitize(ev->u.msg.p, ev->u.msg.len,
		    r->mark[r->nmark].label, TL_LABEL - 1);
		r->mark[r->nmark++].label[n] = '\0';
		break;
	}
}

/* The open states end at the newest event. */
static void
ref_finish(struct ref *r)
{
	int	c;

	for (c = 0; c < TL_MAX_CAPS; c++) {
		if (r->cap[c].st == S_RUN || r->cap[c].st == S_GC)
			ref_close(r, c, r->cap[c].st, r->now,
			    r->cap[c].thread);
	}
	if (r->coll_open) {
		/* An open pause counts its time, not as a pause. */
		GROW(r->span, r->nspan, r->aspan);
		r->span[r->nspan].cap = -1;
		r->span[r->nspan].st = S_GC;
		r->span[r->nspan].a = r->pstart;
		r->span[r->nspan++].b = r->now;
	}
}

static void
ref_free(struct ref *r)
{
	free(r->span);
	free(r->pause);
	free(r->pfirst);
	free(r->gauge);
	free(r->mark);
}

static uint64_t
ovl(uint64_t a, uint64_t b, uint64_t lo, uint64_t hi)
{
	if (a < lo)
		a = lo;
	if (b > hi)
		b = hi;
	return b > a ? b - a : 0;
}

static int
cmp_pause(const void *x, const void *y)
{
	const struct tl_pause	*a = x, *b = y;

	if (a->dur != b->dur)
		return a->dur < b->dur ? 1 : -1;
	return (a->start > b->start) - (a->start < b->start);
}

/* Every bucket of the summary against the reference; 0 if all agree. */
static int
check_buckets(const char *name, const struct tl *tl, struct ref *r,
    uint64_t lo, uint64_t hi)
{
	struct tl_cap_sum	 s;
	struct tl_gc_sum	 g;
	uint64_t		 bs, be, run, gc, known, w = tl_width(tl);
	uint64_t		 pg, np, mx;
	size_t			 b, i, nb = tl_nbuckets(tl), bad = 0;
	int			 c, capsbad = 0;

	for (c = 0; c < tl_ncaps(tl); c++) {
		for (b = 0; b < nb; b++) {
			bs = tl_start(tl) + b * w;
			be = bs + w < tl_now(tl) ? bs + w : tl_now(tl);
			if (!tl_cap_bucket(tl, c, b, &s))
				continue;
			run = gc = 0;
			for (i = 0; i < r->nspan; i++) {
				if (r->span[i].cap != c)
					continue;
				if (r->span[i].st == S_RUN)
					run += ovl(r->span[i].a, r->span[i].b,
					    bs > lo ? bs : lo, be < hi ? be :
					    hi);
				else
					gc += ovl(r->span[i].a, r->span[i].b,
					    bs > lo ? bs : lo, be < hi ? be :
					    hi);
			}
			known = ovl(bs, be, lo, hi);
			if (!s.known) {
				if (run + gc != 0)
					capsbad++;
				continue;
			}
			if (s.run != run || s.gc != gc ||
			    s.idle != known - run - gc) {
				if (bad++ < 3)
					printf("# %s cap %d bucket %zu: run %llu "
					    "gc %llu idle %llu, reference "
					    "%llu %llu %llu\n", name, c, b,
					    (unsigned long long)s.run,
					    (unsigned long long)s.gc,
					    (unsigned long long)s.idle,
					    (unsigned long long)run,
					    (unsigned long long)gc,
					    (unsigned long long)(known - run -
					    gc));
			}
		}
	}
	for (b = 0; b < nb; b++) {
		bs = tl_start(tl) + b * w;
		be = bs + w < tl_now(tl) ? bs + w : tl_now(tl);
		tl_gc_bucket(tl, b, &g);
		pg = np = mx = 0;
		for (i = 0; i < r->npause; i++) {
			pg += ovl(r->pause[i].start, r->pause[i].start +
			    r->pause[i].dur, bs > lo ? bs : lo, be < hi ? be :
			    hi);
			if (r->pause[i].start >= bs && r->pause[i].start <
			    bs + w && r->pause[i].start >= lo) {
				np++;
				if (r->pause[i].dur > mx)
					mx = r->pause[i].dur;
			}
		}
		for (i = 0; i < r->nspan; i++)
			if (r->span[i].cap == -1)
				pg += ovl(r->span[i].a, r->span[i].b,
				    bs > lo ? bs : lo, be < hi ? be : hi);
		if (g.gc_ns != pg || g.pauses != np || g.max != mx) {
			if (bad++ < 6)
				printf("# %s GC bucket %zu: %llu ns %u pauses "
				    "max %llu, reference %llu %llu %llu\n",
				    name, b, (unsigned long long)g.gc_ns,
				    g.pauses, (unsigned long long)g.max,
				    (unsigned long long)pg,
				    (unsigned long long)np,
				    (unsigned long long)mx);
		}
	}
	return (int)bad + capsbad;
}

static void
check_heap(const char *name, const struct tl *tl, const struct ref *r)
{
	struct tl_heap_sum	 h;
	uint64_t		 w = tl_width(tl), bs, size, live;
	size_t			 b, i, nb = tl_nbuckets(tl), bad = 0;
	int			 hs, hl;

	for (b = 0; b < nb; b++) {
		bs = tl_start(tl) + b * w;
		tl_heap_sum(tl, bs, bs + w, &h);
		size = live = 0;
		hs = hl = 0;
		for (i = 0; i < r->ngauge; i++) {
			if (r->gauge[i].t < bs || r->gauge[i].t >= bs + w)
				continue;
			if (r->gauge[i].live) {
				hl = 1;
				if (r->gauge[i].v > live)
					live = r->gauge[i].v;
			} else {
				hs = 1;
				if (r->gauge[i].v > size)
					size = r->gauge[i].v;
			}
		}
		if (h.has_size != hs || h.has_live != hl || h.size != size ||
		    h.live != live)
			bad++;
	}
	ok(bad == 0, "%s: heap size and live of %zu buckets (%zu wrong)",
	    name, nb, bad);
}

static void
check_long(const char *name, const struct tl *tl, struct ref *r)
{
	const struct tl_pause	*lp;
	size_t			 n, i, want, bad = 0;

	lp = tl_longest(tl, &n);
	if (r->npause > 0)
		qsort(r->pause, r->npause, sizeof r->pause[0], cmp_pause);
	want = r->npause < TL_NLONG ? r->npause : TL_NLONG;
	for (i = 0; i < n && i < want; i++)
		if (lp[i].dur != r->pause[i].dur || (lp[i].start !=
		    r->pause[i].start && (i + 1 >= r->npause ||
		    r->pause[i + 1].dur != r->pause[i].dur) && (i == 0 ||
		    r->pause[i - 1].dur != r->pause[i].dur)))
			bad++;
	ok(n == want && bad == 0 && tl_pauses(tl) == r->npause,
	    "%s: %llu pauses, the %zu longest (%s), %zu wrong", name,
	    (unsigned long long)tl_pauses(tl), n, n > 0 ? "kept" : "none",
	    bad);
}

static void
check_marks(const char *name, const struct tl *tl, const struct ref *r)
{
	const struct tl_mark	*mk;
	size_t			 n, i, bad = 0;

	mk = tl_marks(tl, &n);
	if (r->nmark <= TL_NMARKS) {
		for (i = 0; i < n && i < r->nmark; i++)
			if (mk[i].time != r->mark[i].time ||
			    strcmp(mk[i].label, r->mark[i].label) != 0)
				bad++;
		ok(n == r->nmark && bad == 0 && tl_marks_dropped(tl) == 0,
		    "%s: %zu markers, times and labels (%zu wrong)", name, n,
		    bad);
		return;
	}
	for (i = 1; i < n; i++)
		if (mk[i].time < mk[i - 1].time)
			bad++;
	ok(n <= TL_NMARKS && n + tl_marks_dropped(tl) == r->nmark &&
	    bad == 0, "%s: %zu of %zu markers kept, %llu dropped, in order",
	    name, n, r->nmark, (unsigned long long)tl_marks_dropped(tl));
}

/* A whole file through the summary, the reference and the model. */
static void
check_file(const char *path, int with_model)
{
	struct reader		*rd;
	struct proto_ev		 ev;
	struct tl		*tl;
	struct model		*m;
	struct ref		 r;
	struct tl_cap_sum	 s;
	struct tl_gc_sum	 g;
	struct model_util	 u;
	struct model_gc_win	 gw;
	struct tl_heap_sum	 h;
	const char		*name = strrchr(path, '/') ? strrchr(path, '/')
				    + 1 : path;
	char			*cause = NULL;
	int			 c, bad;

	if ((rd = reader_open(path, &cause)) == NULL) {
		ok(0, "%s: %s", name, cause);
		free(cause);
		return;
	}
	memset(&r, 0, sizeof r);
	tl = tl_new();
	m = model_new();
	model_set_reorder(m, 0, 0);
	model_header(m, reader_dec(rd));
	while (reader_next(rd, &ev) == PROTO_EVENT) {
		tl_event(tl, &ev, 1);
		ref_event(&r, &ev);
		model_apply(m, &ev);
	}
	model_flush(m);
	reader_free(rd);
	ref_finish(&r);
	bad = check_buckets(name, tl, &r, 0, UINT64_MAX);
	ok(bad == 0 && tl_nbuckets(tl) <= TL_NBUCKETS, "%s: %d caps x %zu "
	    "buckets of %llu ns: run/GC/idle and GC per bucket equal the "
	    "reference (%d wrong)", name, tl_ncaps(tl), tl_nbuckets(tl),
	    (unsigned long long)tl_width(tl), bad);
	check_heap(name, tl, &r);
	check_long(name, tl, &r);
	check_marks(name, tl, &r);
	if (with_model) {
		bad = 0;
		for (c = 0; c < tl_ncaps(tl) && c < MODEL_MAX_CAPS; c++) {
			if (m->caps[c] == NULL)
				continue;
			tl_cap_sum(tl, c, 0, UINT64_MAX, &s);
			model_cap_util(m, m->caps[c], MODEL_WRUN, &u);
			if (s.run != u.run_ns || s.gc != u.gc_ns)
				bad++;
		}
		ok(bad == 0, "%s: per-cap run and GC totals equal the "
		    "model's (%d caps differ)", name, bad);
		tl_gc_sum(tl, 0, UINT64_MAX, &g);
		model_gc_window(m, MODEL_WRUN, &gw);
		ok(tl_pauses(tl) == m->gc.collections &&
		    g.gc_ns == m->gc.gc_ns + (m->gc.in_gc ? m->now -
		    m->gc.open_start : 0) && g.max == gw.pause_max,
		    "%s: %llu pauses, %llu ns paused, longest %llu ns: the "
		    "model's %llu, %llu, %llu", name,
		    (unsigned long long)tl_pauses(tl),
		    (unsigned long long)g.gc_ns, (unsigned long long)g.max,
		    (unsigned long long)m->gc.collections,
		    (unsigned long long)m->gc.gc_ns,
		    (unsigned long long)gw.pause_max);
		tl_heap_sum(tl, 0, UINT64_MAX, &h);
		ok(h.size == m->heap.size_max && h.live == m->heap.live_max,
		    "%s: heap size %llu live %llu at most: the model's %llu "
		    "%llu", name, (unsigned long long)h.size,
		    (unsigned long long)h.live,
		    (unsigned long long)m->heap.size_max,
		    (unsigned long long)m->heap.live_max);
	}
	tl_free(tl);
	model_free(m);
	ref_free(&r);
}

/*
 * The events of each capability fed one capability after the other (the
 * worst interleaving a live stream could bring): the same per-cap figures.
 */
static void
check_disorder(const char *path)
{
	struct reader		*rd;
	struct proto_ev		 ev;
	struct tl		*a, *b;
	struct tl_cap_sum	 x, y;
	char			*cause = NULL;
	int			 c, pass, bad = 0, ncaps = 0;
	size_t			 i;

	a = tl_new();
	b = tl_new();
	for (pass = -1; pass < 8; pass++) {
		if ((rd = reader_open(path, &cause)) == NULL) {
			ok(0, "%s", cause);
			free(cause);
			return;
		}
		while (reader_next(rd, &ev) == PROTO_EVENT) {
			if (pass == -1)
				tl_event(a, &ev, 1);
			/* Cap-less events first, then each cap's. */
			if ((pass == -1 && ev.cap < 0) || (pass >= 0 &&
			    ev.cap == pass))
				tl_event(b, &ev, 1);
		}
		reader_free(rd);
	}
	for (c = 0; c < tl_ncaps(a); c++) {
		if (!tl_has_cap(a, c))
			continue;
		ncaps++;
		for (i = 0; i < tl_nbuckets(a); i++) {
			tl_cap_bucket(a, c, i, &x);
			tl_cap_bucket(b, c, i, &y);
			if (x.run != y.run || x.gc != y.gc)
				bad++;
		}
	}
	ok(bad == 0 && tl_width(a) == tl_width(b) && ncaps > 1,
	    "caps fed one after the other: the same run and GC in every "
	    "bucket of %d caps (%d differ)", ncaps, bad);
	tl_free(a);
	tl_free(b);
}

/*
 * The end of the collection a range begins in, as its own events tell it
 * (the range's summary sees no earlier one): a cap whose first scheduling
 * or GC event in the range is a GC_END was in it.  Until the log's first
 * GC_STATS_GHC (stats: one came before from), the last such GC_END
 * before any GC_START; after, that of the cap that posts the first
 * GC_STATS_GHC before any GC_START.  0: none.
 */
static uint64_t
range_clip_end(const char *path, uint64_t from, uint64_t to, int stats)
{
	struct reader	*rd;
	struct proto_ev	 ev;
	static uint8_t	 seen[TL_MAX_CAPS];
	static uint64_t	 unk[TL_MAX_CAPS];
	uint64_t	 end = 0;
	int		 wait = -1, c;

	memset(seen, 0, sizeof seen);
	memset(unk, 0, sizeof unk);
	if ((rd = reader_open(path, NULL)) == NULL || reader_seek(rd, from,
	    0) != 0)
		abort();
	while (reader_next(rd, &ev) == PROTO_EVENT && ev.time < to) {
		if ((c = ev.cap) < 0 || c >= TL_MAX_CAPS)
			continue;
		if (ev.kind == PROTO_GC_START)
			break;
		if (ev.kind == PROTO_GC_STATS_GHC && stats && wait < 0) {
			if (unk[c] != 0) {
				end = unk[c];
				break;
			}
			if (seen[c])
				break;
			wait = c;
		}
		if (ev.kind == PROTO_GC_END && !seen[c]) {
			if (!stats)
				end = ev.time;
			else if (wait == c) {
				end = ev.time;
				break;
			}
			unk[c] = ev.time;
		}
		if (ev.kind == PROTO_GC_END || ev.kind == PROTO_RUN_THREAD ||
		    ev.kind == PROTO_STOP_THREAD)
			seen[c] = 1;
		if (wait == c && seen[c] && end == 0 && ev.kind !=
		    PROTO_GC_STATS_GHC)
			break;	/* its first event not a GC_END */
	}
	reader_free(rd);
	return end;
}

/* The time of a file's first GC_STATS_GHC, + 1; 0 if it has none. */
static uint64_t
first_stats(const char *path)
{
	struct reader	*rd;
	struct proto_ev	 ev;
	uint64_t	 t = 0;

	if ((rd = reader_open(path, NULL)) == NULL)
		abort();
	while (reader_next(rd, &ev) == PROTO_EVENT)
		if (ev.kind == PROTO_GC_STATS_GHC) {
			t = ev.time + 1;
			break;
		}
	reader_free(rd);
	return t;
}

/* A range of the file read in slices into a range summary. */
static void
check_range(const char *path, double f0, double f1)
{
	struct reader		*rd;
	struct tl_read		*tr;
	struct proto_ev		 ev;
	struct tl		*whole;
	const struct tl		*part = NULL, *part2 = NULL;
	struct ref		 r;
	uint64_t		 from, to, upto = 0;
	char			*cause = NULL;
	int			 calls = 0, rc, bad;

	if ((rd = reader_open(path, &cause)) == NULL) {
		ok(0, "%s", cause);
		free(cause);
		return;
	}
	memset(&r, 0, sizeof r);
	whole = tl_new();
	while (reader_next(rd, &ev) == PROTO_EVENT) {
		tl_event(whole, &ev, 1);
		ref_event(&r, &ev);
	}
	reader_free(rd);
	ref_finish(&r);
	from = tl_start(whole) + (uint64_t)((double)(tl_now(whole) -
	    tl_start(whole)) * f0);
	to = tl_start(whole) + (uint64_t)((double)(tl_now(whole) -
	    tl_start(whole)) * f1);
	if ((tr = tl_read_new(path, &cause)) == NULL) {
		ok(0, "%s", cause);
		free(cause);
		return;
	}
	while ((rc = tl_read_range(tr, from, to, 100, &part, &upto)) == 0)
		calls++;
	ok(rc == 1 && upto == to && calls > 0, "range %.2f-%.2f read in %d "
	    "slices of 100 events", f0, f1, calls + 1);
	/* The reference's spans, clipped: those of the caps the range has
	 * events of (the others' state is unknown in it). */
	{
		size_t	i, j;

		for (i = j = 0; i < r.nspan; i++) {
			if (r.span[i].cap >= 0 &&
			    !tl_has_cap(part, r.span[i].cap))
				continue;
			r.span[j++] = r.span[i];
		}
		r.nspan = j;
		/* A pause the range began in begins with it and ends
		 * where its events say (range_clip_end()); one that ends
		 * after it is still open in it. */
		uint64_t	st = first_stats(path);
		uint64_t	clip = range_clip_end(path, from, to,
				    st != 0 && st - 1 < from);

		for (i = j = 0; i < r.npause; i++) {
			struct tl_pause	p = r.pause[i];

			if (p.start >= to || p.start + p.dur <= from ||
			    (p.start < from && clip <= from))
				continue;
			if (p.start < from) {
				p.dur = clip - from;
				p.start = from;
			}
			if (p.start + p.dur >= to) {
				/* Its leader not known yet: from its first
				 * GC_START. */
				p.start = r.pfirst[i] > from ? r.pfirst[i] :
				    from;
				GROW(r.span, r.nspan, r.aspan);
				r.span[r.nspan].cap = -1;
				r.span[r.nspan].st = S_GC;
				r.span[r.nspan].a = p.start;
				r.span[r.nspan++].b = tl_now(part);
				continue;
			}
			r.pause[j++] = p;
		}
		r.npause = j;
	}
	bad = check_buckets("range", part, &r, from, to);
	ok(bad == 0 && tl_ncaps(part) > 0, "range summary: %d caps x %zu "
	    "buckets of %llu ns, %llu pauses, equal the reference clipped "
	    "(%d wrong)", tl_ncaps(part), tl_nbuckets(part),
	    (unsigned long long)tl_width(part),
	    (unsigned long long)tl_pauses(part), bad);
	/* Asked again: the same summary, nothing read. */
	rc = tl_read_range(tr, from, to, 5000, &part2, &upto);
	ok(rc == 1 && part2 == part, "the same range again is kept");
	tl_read_free(tr);
	tl_free(whole);
	ref_free(&r);
}

/*
 * gc.eventlog from 210.6 ms to 211.01 ms: both caps start a collection
 * at 210.858 and 210.862 ms that ends at 213.69 ms, after the range: they
 * are in GC up to its end, the program paused, no pause counted.
 */
static void
check_range_open(const char *path)
{
	struct tl_read		*tr;
	const struct tl		*t;
	struct tl_cap_sum	 s0, s1;
	struct tl_gc_sum	 g;
	uint64_t		 upto;
	char			*cause = NULL;
	int			 rc;

	if ((tr = tl_read_new(path, &cause)) == NULL) {
		ok(0, "%s", cause);
		free(cause);
		return;
	}
	rc = tl_read_range(tr, 210600000, 211010000, 1000, &t, &upto);
	tl_cap_sum(t, 0, 210900000, 211010000, &s0);
	tl_cap_sum(t, 1, 210600000, 211010000, &s1);
	tl_gc_sum(t, 210600000, 211010000, &g);
	ok(rc == 1 && s0.gc == 110000 && s0.run == 0 && s1.gc == 211010000 -
	    210858131 && s1.run == 210857640 - 210600000 && g.gc_ns ==
	    211010000 - 210858131 && g.pauses == 0, "a collection open at the "
	    "end of a range: cap 0 GC %llu, cap 1 run %llu GC %llu, paused "
	    "%llu ns, %u pauses", (unsigned long long)s0.gc,
	    (unsigned long long)s1.run, (unsigned long long)s1.gc,
	    (unsigned long long)g.gc_ns, g.pauses);
	tl_read_free(tr);
}

static void
ev_at(struct proto_ev *ev, uint16_t kind, int32_t cap, uint64_t t)
{
	memset(ev, 0, sizeof *ev);
	ev->tag = ev->kind = kind;
	ev->cap = cap;
	ev->time = t;
}

/*
 * A long synthetic run: an hour, 4 caps, a pause every 10 ms of a length
 * that varies, 5000 markers: coarsening all the way, bounds, longest
 * pauses, marker decimation.
 */
static void
check_synthetic(void)
{
	struct proto_ev	 ev;
	struct tl	*tl;
	struct ref	 r;
	char		 label[32];
	uint64_t	 t, step = 10000000, hour = 3600ULL * 1000000000ULL;
	uint64_t	 k = 0, dur;
	int		 c, bad;

	memset(&r, 0, sizeof r);
	tl = tl_new();
	for (t = 1000; t < hour; t += step, k++) {
		for (c = 0; c < 4; c++) {
			ev_at(&ev, PROTO_RUN_THREAD, c, t + 1000 * c);
			ev.u.thread.thread = (uint32_t)(k % 97 + c);
			tl_event(tl, &ev, 1);
			ref_event(&r, &ev);
		}
		for (c = 0; c < 4; c++) {
			ev_at(&ev, PROTO_STOP_THREAD, c, t + 5000000 +
			    1000 * c);
			ev.u.stop.thread = (uint32_t)(k % 97 + c);
			ev.u.stop.status = 2;
			tl_event(tl, &ev, 1);
			ref_event(&r, &ev);
		}
		dur = 100000 + (k * 7919) % 3000000;
		for (c = 0; c < 4; c++) {
			ev_at(&ev, PROTO_GC_START, c, t + 6000000 + c);
			tl_event(tl, &ev, 1);
			ref_event(&r, &ev);
		}
		for (c = 0; c < 4; c++) {
			ev_at(&ev, PROTO_GC_END, c, t + 6000000 + dur + c);
			tl_event(tl, &ev, 1);
			ref_event(&r, &ev);
		}
		ev_at(&ev, PROTO_HEAP_SIZE, -1, t + 6000000 + dur + 9);
		ev.u.heap.bytes = 1000000 + k % 1000;
		tl_event(tl, &ev, 1);
		ref_event(&r, &ev);
		if (k % 72 == 0) {
			snprintf(label, sizeof label, "phase %llu",
			    (unsigned long long)(k / 72));
			ev_at(&ev, PROTO_USER_MARKER, 0, t + 10);
			ev.u.msg.p = label;
			ev.u.msg.len = (uint32_t)strlen(label);
			tl_event(tl, &ev, 1);
			ref_event(&r, &ev);
		}
	}
	ref_finish(&r);
	ok(tl_nbuckets(tl) <= TL_NBUCKETS && tl_width(tl) >=
	    hour / TL_NBUCKETS && tl_width(tl) < 2 * hour / TL_NBUCKETS * 2,
	    "an hour in %zu buckets of %llu ns", tl_nbuckets(tl),
	    (unsigned long long)tl_width(tl));
	bad = check_buckets("synthetic", tl, &r, 0, UINT64_MAX);
	ok(bad == 0, "synthetic hour: coarsened buckets equal the reference "
	    "(%d wrong)", bad);
	check_heap("synthetic", tl, &r);
	check_long("synthetic", tl, &r);
	check_marks("synthetic", tl, &r);
	{
		size_t			 n, i, even = 1;
		const struct tl_mark	*mk = tl_marks(tl, &n);

		/* Decimated evenly: the kept ones are equally spaced. */
		for (i = 2; i < n; i++)
			if (mk[i].time - mk[i - 1].time != mk[1].time -
			    mk[0].time)
				even = 0;
		ok(n > TL_NMARKS / 4 && even && strcmp(mk[0].label,
		    "phase 0") == 0, "markers kept evenly spaced, the first "
		    "\"%s\"", n > 0 ? mk[0].label : "");
	}
	tl_reset(tl);
	ok(tl_nbuckets(tl) == 0 && tl_pauses(tl) == 0 && tl_ncaps(tl) == 0,
	    "reset: empty");
	tl_free(tl);
	ref_free(&r);
}

/* Bad input: caps out of range, times going back, a lone GC_END. */
static void
check_robust(void)
{
	struct proto_ev		 ev;
	struct tl		*tl = tl_new();
	struct tl_cap_sum	 s;

	ev_at(&ev, PROTO_RUN_THREAD, 70000, 100);
	tl_event(tl, &ev, 1);
	ev_at(&ev, PROTO_RUN_THREAD, 3, 1000);
	ev.u.thread.thread = 7;
	tl_event(tl, &ev, 1);
	ev_at(&ev, PROTO_STOP_THREAD, 3, 500);	/* back in time */
	tl_event(tl, &ev, 1);
	ev_at(&ev, PROTO_GC_END, -1, 2000);
	tl_event(tl, &ev, 1);
	ev_at(&ev, PROTO_RUN_THREAD, 3, 5000);
	ev.u.thread.thread = 8;
	tl_event(tl, &ev, 1);
	tl_cap_sum(tl, 3, 0, UINT64_MAX, &s);
	ok(tl_ncaps(tl) == 4 && s.known && s.run == 0 && s.idle == 4900 &&
	    tl_pauses(tl) == 0 && tl_start(tl) == 100,
	    "bad input: cap 70000 ignored, a stop before its run spans "
	    "nothing, a lone GC_END no pause (idle %llu)",
	    (unsigned long long)s.idle);
	tl_free(tl);
}

static int
is_log(const char *n)
{
	size_t	k = strlen(n);

	return k > 9 && strcmp(n + k - 9, ".eventlog") == 0;
}

int
main(int argc, char **argv)
{
	static const char *const fix[] = { "gc", "sparks", "threads",
	    "messages", "nonmoving", "prof", "ghc96-gc", "ghc96-threads" };
	const char	*dir = argc > 1 ? argv[1] : "tests/fixtures";
	char		 path[1024];
	struct dirent	*de;
	DIR		*d;
	size_t		 i;
	int		 n = 0;

	check_robust();
	check_synthetic();
	for (i = 0; i < sizeof fix / sizeof fix[0]; i++) {
		snprintf(path, sizeof path, "%s/%s.eventlog", dir, fix[i]);
		check_file(path, 1);
	}
	snprintf(path, sizeof path, "%s/gc.eventlog", dir);
	check_disorder(path);
	check_range(path, 0.3, 0.6);
	check_range_open(path);
	snprintf(path, sizeof path, "%s/nonmoving.eventlog", dir);
	check_range(path, 0.4, 0.7);
	snprintf(path, sizeof path, "%s/ghc96-gc.eventlog", dir);
	check_range(path, 0.3, 0.7);
	if (argc > 2 && (d = opendir(argv[2])) != NULL) {
		while ((de = readdir(d)) != NULL) {
			if (!is_log(de->d_name))
				continue;
			snprintf(path, sizeof path, "%s/%s", argv[2],
			    de->d_name);
			check_file(path, 0);
			n++;
		}
		closedir(d);
		printf("# corpus: %d logs\n", n);
	}
	return tap_done();
}
