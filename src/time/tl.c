/*
 * tl.c: the timeline's bounded summary of a run (see tl.h).
 *
 * A capability is idle, running a Haskell thread (RUN_THREAD ..
 * STOP_THREAD) or in GC (its GC_START .. GC_END), as the model has it
 * (model-caps.c); the program is paused from the first capability's
 * GC_START to the last one's GC_END.  When a state ends its span is added
 * to the buckets it covers; the state still open counts up to the newest
 * event when asked.  Most events change nothing here: tl_event() then
 * costs a comparison of times and a switch.
 */
#include <stdlib.h>
#include <string.h>

#include "time/tl.h"

#define NB		TL_NBUCKETS
#define TL_MAX_SHIFT	52	/* 2^52 ns buckets: 52 days; beyond, clamped */

enum { TL_UNK, TL_IDLE, TL_RUN, TL_GC };

/* Who closes the open collection (tl_gc_end()), besides a cap's number. */
enum { TL_CLOSE_NONE = -3, TL_CLOSE_ALL = -2, TL_CLOSE_NOCAP = -1 };

/* A cap's part in the collections (as the model's, model-gc.c). */
struct tl_gcs {
	uint8_t		 in;		/* between its GC_START and GC_END */
	uint64_t	 start_t;	/* its last GC_START */
	uint64_t	 end_seq, end_t;	/* its last GC_END: which, when */
	uint8_t		 unk;		/* a range's: its first event a GC_END, */
	uint64_t	 unk_t;		/* then */
};

struct tl_cap {
	uint8_t		 state;
	struct tl_gcs	 gc_in;
	uint32_t	 thread;	/* running, when TL_RUN */
	uint64_t	 since;		/* when the state began */
	uint64_t	 sb;		/* its bucket */
	uint64_t	 run[NB], gc[NB];
	uint64_t	 thns[NB];	/* the longest stretch of a thread */
	uint32_t	 th[NB];	/* and its thread */
};

struct tl {
	int		 started;
	int		 fixed;		/* a range: no coarsening */
	int		 shift;		/* buckets are 2^shift ns */
	uint64_t	 start, end;	/* what the buckets cover */
	uint64_t	 now;		/* the newest event's time */
	uint64_t	 events;
	uint64_t	 range_from, range_to;

	struct tl_cap	*cap[TL_MAX_CAPS];
	int		 ncaps;

	/* The program's GC pauses: a collection closes at the GC_END that
	 * leaves no cap in GC, or once the log has GC_STATS_GHC at its
	 * leader's (see model-gc.c): so a live source's blocks, in the
	 * order they come, count each once. */
	struct tl_gcs	 nocap_gc;
	int		 n_in_gc;
	int		 coll_open;
	int		 stats_mode;
	int		 close_on;	/* TL_CLOSE_* or a cap's number */
	uint64_t	 coll_seq;	/* collections begun */
	uint64_t	 last_end;
	int		 saw_gc_start;
	int		 clipped;	/* a pause began before a range */
	int		 clip_wait;	/* its leader's first GC_END ends it */
	uint64_t	 clip_end;	/* its end so far */
	uint64_t	 pause_start;
	uint64_t	 npauses;
	uint64_t	 gcns[NB], maxp[NB], maxat[NB];
	uint32_t	 npause[NB];
	struct tl_pause	 lng[TL_NLONG];	/* longest first */
	size_t		 nlong;

	/* Heap gauges, value + 1 (0: none in the bucket). */
	uint64_t	 hsize[NB], hlive[NB];

	/* Markers in time order; one in mark_stride is kept. */
	struct tl_mark	 mark[TL_NMARKS];
	size_t		 nmark;
	uint64_t	 mark_seen, mark_stride, mark_dropped;
};

static void
tl_init(struct tl *tl)
{
	int	i;

	for (i = 0; i < TL_MAX_CAPS; i++)
		free(tl->cap[i]);
	memset(tl, 0, sizeof *tl);
	tl->shift = TL_SHIFT0;
	tl->mark_stride = 1;
	tl->close_on = tl->clip_wait = TL_CLOSE_NONE;
}

struct tl *
tl_new(void)
{
	struct tl	*tl;

	if ((tl = calloc(1, sizeof *tl)) == NULL)
		return NULL;
	tl_init(tl);
	return tl;
}

/* A summary of [from, to) only: its buckets fixed, the rest clipped. */
struct tl *
tl_new_range(uint64_t from, uint64_t to)
{
	struct tl	*tl;
	uint64_t	 span;

	if ((tl = tl_new()) == NULL)
		return NULL;
	if (to <= from)
		to = from + 1;
	span = to - from;
	tl->shift = 0;
	while (tl->shift < TL_MAX_SHIFT &&
	    ((uint64_t)NB << tl->shift) < span)
		tl->shift++;
	tl->fixed = 1;
	tl->started = 1;
	tl->start = tl->now = from;
	tl->end = to;
	tl->range_from = from;
	tl->range_to = to;
	return tl;
}

void
tl_free(struct tl *tl)
{
	int	i;

	if (tl == NULL)
		return;
	for (i = 0; i < TL_MAX_CAPS; i++)
		free(tl->cap[i]);
	free(tl);
}

/* Forget everything: a new run (a range summary keeps its range). */
void
tl_reset(struct tl *tl)
{
	uint64_t	from = tl->range_from, to = tl->range_to;
	int		fixed = tl->fixed, shift = tl->shift;

	tl_init(tl);
	if (fixed) {
		tl->fixed = tl->started = 1;
		tl->shift = shift;
		tl->start = tl->now = from;
		tl->end = to;
		tl->range_from = from;
		tl->range_to = to;
	}
}

static inline uint64_t
tl_bw(const struct tl *tl)
{
	return (uint64_t)1 << tl->shift;
}

/* The bucket of time t (clamped to the buckets). */
static inline size_t
tl_idx(const struct tl *tl, uint64_t t)
{
	uint64_t	i;

	if (t <= tl->start)
		return 0;
	i = (t - tl->start) >> tl->shift;
	return i < NB ? (size_t)i : NB - 1;
}

static uint64_t
tl_end_of(uint64_t start, int shift)
{
	uint64_t	span = (uint64_t)NB << shift;

	return start > UINT64_MAX - span ? UINT64_MAX : start + span;
}

static void
tl_merge64(uint64_t *a, int max)
{
	size_t	i;

	for (i = 0; i < NB / 2; i++) {
		if (max)
			a[i] = a[2 * i] > a[2 * i + 1] ? a[2 * i] :
			    a[2 * i + 1];
		else
			a[i] = a[2 * i] + a[2 * i + 1];
	}
	memset(a + NB / 2, 0, sizeof a[0] * (NB / 2));
}

/* Twice as wide buckets, each pair merged, until t fits. */
static void
tl_grow(struct tl *tl, uint64_t t)
{
	struct tl_cap	*c;
	size_t		 i, k;
	int		 j;

	while (t >= tl->end && tl->shift < TL_MAX_SHIFT) {
		for (j = 0; j < tl->ncaps; j++) {
			if ((c = tl->cap[j]) == NULL)
				continue;
			tl_merge64(c->run, 0);
			tl_merge64(c->gc, 0);
			for (i = 0; i < NB / 2; i++) {
				k = c->thns[2 * i + 1] > c->thns[2 * i] ?
				    2 * i + 1 : 2 * i;
				c->thns[i] = c->thns[k];
				c->th[i] = c->th[k];
			}
			memset(c->thns + NB / 2, 0, sizeof c->thns[0] * NB / 2);
			memset(c->th + NB / 2, 0, sizeof c->th[0] * NB / 2);
			c->sb /= 2;
		}
		for (i = 0; i < NB / 2; i++) {
			k = tl->maxp[2 * i + 1] > tl->maxp[2 * i] ?
			    2 * i + 1 : 2 * i;
			tl->maxat[i] = tl->maxat[k];
			tl->npause[i] = tl->npause[2 * i] +
			    tl->npause[2 * i + 1];
		}
		memset(tl->maxat + NB / 2, 0, sizeof tl->maxat[0] * NB / 2);
		memset(tl->npause + NB / 2, 0, sizeof tl->npause[0] * NB / 2);
		tl_merge64(tl->maxp, 1);
		tl_merge64(tl->gcns, 0);
		tl_merge64(tl->hsize, 1);
		tl_merge64(tl->hlive, 1);
		tl->shift++;
		tl->end = tl_end_of(tl->start, tl->shift);
	}
}

/* Add the part of [a, b) the buckets cover to a per-bucket sum. */
static void
tl_add(const struct tl *tl, uint64_t *arr, uint64_t a, uint64_t b)
{
	size_t		i, ib;
	uint64_t	be;

	if (a < tl->start)
		a = tl->start;
	if (b > tl->end)
		b = tl->end;
	if (b <= a)
		return;
	i = tl_idx(tl, a);
	ib = tl_idx(tl, b - 1);
	if (i == ib) {
		arr[i] += b - a;
		return;
	}
	for (; i <= ib; i++) {
		be = tl->start + ((uint64_t)(i + 1) << tl->shift);
		if (i == NB - 1 || be > b)
			be = b;
		arr[i] += be - a;
		a = be;
	}
}

/* A thread ran over [a, b): the longest stretch of each bucket. */
static void
tl_add_thread(const struct tl *tl, struct tl_cap *c, uint64_t a, uint64_t b,
    uint32_t thread)
{
	size_t		i, ib;
	uint64_t	be;

	if (a < tl->start)
		a = tl->start;
	if (b > tl->end)
		b = tl->end;
	if (b <= a)
		return;
	ib = tl_idx(tl, b - 1);
	for (i = tl_idx(tl, a); i <= ib; i++) {
		be = tl->start + ((uint64_t)(i + 1) << tl->shift);
		if (i == NB - 1 || be > b)
			be = b;
		if (be - a > c->thns[i]) {
			c->thns[i] = be - a;
			c->th[i] = thread;
		}
		a = be;
	}
}

static struct tl_cap *
tl_cap_get(struct tl *tl, int32_t id)
{
	struct tl_cap	*c;

	if (id < 0 || id >= TL_MAX_CAPS)
		return NULL;
	if ((c = tl->cap[id]) != NULL)
		return c;
	if ((c = calloc(1, sizeof *c)) == NULL)
		return NULL;
	c->state = TL_UNK;
	c->since = tl->start;
	c->sb = 0;
	tl->cap[id] = c;
	if (id >= tl->ncaps)
		tl->ncaps = id + 1;
	return c;
}

/* The cap's state ends at t and st begins. */
static void
tl_cap_to(struct tl *tl, struct tl_cap *c, int st, uint64_t t,
    uint32_t thread)
{
	if (t < c->since)
		t = c->since;	/* never a negative span */
	if (c->state == TL_RUN) {
		tl_add(tl, c->run, c->since, t);
		tl_add_thread(tl, c, c->since, t, c->thread);
	} else if (c->state == TL_GC)
		tl_add(tl, c->gc, c->since, t);
	c->state = (uint8_t)st;
	c->since = t;
	c->sb = tl_idx(tl, t);
	c->thread = thread;
}

static void
tl_long_add(struct tl *tl, uint64_t start, uint64_t dur)
{
	size_t	i;

	if (tl->nlong == TL_NLONG && dur <= tl->lng[TL_NLONG - 1].dur)
		return;
	i = tl->nlong < TL_NLONG ? tl->nlong++ : TL_NLONG - 1;
	for (; i > 0 && tl->lng[i - 1].dur < dur; i--)
		tl->lng[i] = tl->lng[i - 1];
	tl->lng[i].start = start;
	tl->lng[i].dur = dur;
}

static void
tl_pause(struct tl *tl, uint64_t s, uint64_t e)
{
	size_t	i;

	if (e < s)
		e = s;
	tl->npauses++;
	tl_add(tl, tl->gcns, s, e);
	if (s < tl->start || (tl->fixed && s >= tl->end))
		return;
	i = tl_idx(tl, s);
	tl->npause[i]++;
	if (e - s >= tl->maxp[i]) {
		tl->maxp[i] = e - s;
		tl->maxat[i] = s;
	}
	tl_long_add(tl, s, e - s);
}

/* The pause a range began in ends at t, or later than it was said. */
static void
tl_clipped(struct tl *tl, uint64_t t)
{
	size_t	i;

	if (!tl->clipped) {
		tl->clipped = 1;
		tl->clip_end = t;
		tl_pause(tl, tl->start, t);
		return;
	}
	if (t <= tl->clip_end)
		return;
	tl_add(tl, tl->gcns, tl->clip_end, t);
	tl->clip_end = t;
	if (t - tl->start >= tl->maxp[0]) {
		tl->maxp[0] = t - tl->start;
		tl->maxat[0] = tl->start;
	}
	for (i = 0; i < tl->nlong; i++) {
		if (tl->lng[i].start != tl->start)
			continue;
		memmove(&tl->lng[i], &tl->lng[i + 1], (tl->nlong - i - 1) *
		    sizeof tl->lng[0]);
		tl->nlong--;
		break;
	}
	tl_long_add(tl, tl->start, t - tl->start);
}

/* The open pause ends at e: from its leader's start s if within it. */
static void
tl_gc_close(struct tl *tl, uint64_t s, uint64_t e)
{
	tl->coll_open = 0;
	tl_pause(tl, s > tl->pause_start && s <= e ? s : tl->pause_start, e);
}

/* The log had a GC_STATS_GHC before what this summary is fed (a range):
 * leaders close collections from its start, as from the first one seen. */
void
tl_gc_stats_seen(struct tl *tl)
{
	tl->stats_mode = 1;
}

static void
tl_gc_start(struct tl *tl, struct tl_gcs *g, uint64_t t)
{
	tl->saw_gc_start = 1;
	if (g->in)
		return;
	g->in = 1;
	g->start_t = t;
	/* With no cap in GC and no stats: in the order a live source's
	 * blocks come, a worker's own span, not a collection (the model,
	 * in time order, counts it: a collection whose stats were lost). */
	if (tl->coll_open && tl->n_in_gc == 0)
		tl->coll_open = 0;
	tl->n_in_gc++;
	if (!tl->coll_open) {
		tl->coll_open = 1;
		tl->coll_seq++;
		tl->close_on = TL_CLOSE_NONE;
		tl->pause_start = tl->last_end = t;
	}
}

static void
tl_gc_end(struct tl *tl, struct tl_gcs *g, int who, uint64_t t, int unknown)
{
	if (!g->in) {
		/*
		 * A range begun inside a collection: paused from the start
		 * of the range to the last end before any GC_START; where
		 * leaders close collections, to its leader's, said by the
		 * GC_STATS_GHC that follows (tl_gc_stats(); without one
		 * before a GC_START, these were workers of one closed
		 * before the range).
		 */
		if (!unknown || !tl->fixed || tl->saw_gc_start ||
		    tl->n_in_gc != 0)
			return;
		if (!tl->stats_mode || tl->clip_wait == who)
			tl_clipped(tl, t);
		g->unk = 1;
		g->unk_t = t;
		return;
	}
	g->in = 0;
	tl->n_in_gc--;
	if (!tl->coll_open)
		return;
	g->end_seq = tl->coll_seq;
	g->end_t = t;
	if (t > tl->last_end)
		tl->last_end = t;
	if (tl->close_on == who)
		tl_gc_close(tl, g->start_t, t);
	else if (tl->n_in_gc == 0 && (!tl->stats_mode ||
	    tl->close_on == TL_CLOSE_ALL))
		tl_gc_close(tl, 0, t);
}

/* GC_STATS_GHC from g's cap (who): the leader of the collection open;
 * unknown: its cap not seen yet in a range. */
static void
tl_gc_stats(struct tl *tl, struct tl_gcs *g, int who, int unknown)
{
	if (tl->fixed && !tl->saw_gc_start && !tl->clipped &&
	    tl->clip_wait == TL_CLOSE_NONE && tl->stats_mode) {
		if (g->unk)
			tl_clipped(tl, g->unk_t);
		else if (unknown)
			tl->clip_wait = who;
	}
	tl->stats_mode = 1;
	if (!tl->coll_open)
		return;
	if (g->in)
		tl->close_on = who;
	else if (g->end_seq == tl->coll_seq)
		tl_gc_close(tl, g->start_t, g->end_t);
	else if (tl->n_in_gc == 0)
		tl_gc_close(tl, 0, tl->last_end);
	else
		tl->close_on = TL_CLOSE_ALL;
}

static void
tl_mark(struct tl *tl, uint64_t t, const struct proto_str *s)
{
	struct tl_mark	*mk;
	size_t		 i, j, n;

	if (tl->mark_seen++ % tl->mark_stride != 0) {
		tl->mark_dropped++;
		return;
	}
	if (tl->nmark == TL_NMARKS) {
		/* Keep every other one: the run stays evenly covered. */
		for (i = j = 0; i < tl->nmark; i += 2)
			tl->mark[j++] = tl->mark[i];
		tl->mark_dropped += tl->nmark - j;
		tl->nmark = j;
		tl->mark_stride *= 2;
	}
	for (i = tl->nmark; i > 0 && tl->mark[i - 1].time > t; i--)
		;
	memmove(&tl->mark[i + 1], &tl->mark[i], (tl->nmark - i) *
	    sizeof tl->mark[0]);
	tl->nmark++;
	mk = &tl->mark[i];
	mk->time = t;
	n = proto_sanitize(s->p, s->len, mk->label, sizeof mk->label - 1);
	mk->label[n] = '\0';
}

static void
tl_gauge(struct tl *tl, uint64_t *arr, uint64_t t, uint64_t v)
{
	size_t	i;

	if (t < tl->start || (tl->fixed && t >= tl->end))
		return;
	i = tl_idx(tl, t);
	if (v < UINT64_MAX)
		v++;
	if (v > arr[i])
		arr[i] = v;
}

/*
 * The events that change a capability's state, the most frequent after
 * the first: one capability known, in time, a span within one bucket.
 * 0: take the general way.
 */
static inline int
tl_thread_fast(struct tl *tl, const struct proto_ev *ev, uint64_t t)
{
	struct tl_cap	*c;
	uint64_t	 b, d;

	if ((uint32_t)ev->cap >= TL_MAX_CAPS ||
	    (c = tl->cap[ev->cap]) == NULL || c->state == TL_UNK ||
	    t < c->since)
		return 0;
	if (ev->kind == PROTO_STOP_THREAD && c->state != TL_RUN)
		return 1;
	b = (t - tl->start) >> tl->shift;
	if (b != c->sb || b >= NB)
		return 0;
	d = t - c->since;
	if (c->state == TL_RUN) {
		c->run[b] += d;
		if (d > c->thns[b]) {
			c->thns[b] = d;
			c->th[b] = c->thread;
		}
	} else if (c->state == TL_GC)
		c->gc[b] += d;
	c->since = t;
	if (ev->kind == PROTO_RUN_THREAD) {
		c->state = TL_RUN;
		c->thread = ev->u.thread.thread;
	} else
		c->state = TL_IDLE;
	return 1;
}

static void	tl_event_slow(struct tl *, const struct proto_ev *, uint64_t)
		    __attribute__((noinline));
static void	tl_begin(struct tl *, uint64_t) __attribute__((noinline));

/* The kinds below 64 tl_event_slow() takes. */
#define TL_SLOW_KINDS	((1ULL << PROTO_GC_START) | (1ULL << PROTO_GC_END) | \
			 (1ULL << PROTO_GC_STATS_GHC) | \
			 (1ULL << PROTO_HEAP_SIZE) | (1ULL << PROTO_HEAP_LIVE) | \
			 (1ULL << PROTO_USER_MARKER))

/*
 * Each event: a few comparisons for most; RUN_THREAD and STOP_THREAD,
 * the most frequent that matter, a few more (tl_thread_fast); the rest
 * out of line.  Inlined in the loop of tl_event(): 45 instructions an
 * event where a call an event took 48 and the caller's loop.
 */
static inline __attribute__((always_inline)) void
tl_one(struct tl *tl, const struct proto_ev *ev)
{
	uint64_t	t = ev->time;
	unsigned	k = ev->kind;

	if (__builtin_expect(!tl->started, 0))
		tl_begin(tl, t);
	tl->events++;
	if (t > tl->now) {
		tl->now = t;
		if (__builtin_expect(t >= tl->end, 0) && !tl->fixed)
			tl_grow(tl, t);
	}
	if (k - PROTO_RUN_THREAD < 2) {
		if (tl_thread_fast(tl, ev, t))
			return;
	} else if (k >= 64 || ((TL_SLOW_KINDS >> k) & 1) == 0)
		return;
	tl_event_slow(tl, ev, t);
}

/* The events ev[0..n), in order. */
void
tl_event(struct tl *tl, const struct proto_ev *ev, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		tl_one(tl, &ev[i]);
}

static void
tl_begin(struct tl *tl, uint64_t t)
{
	tl->started = 1;
	tl->start = tl->now = t;
	tl->end = tl_end_of(t, tl->shift);
}

static void
tl_event_slow(struct tl *tl, const struct proto_ev *ev, uint64_t t)
{
	struct tl_cap	*c;

	switch (ev->kind) {
	case PROTO_RUN_THREAD:
		if ((c = tl_cap_get(tl, ev->cap)) == NULL)
			return;
		if (c->state == TL_UNK)
			c->state = TL_IDLE;
		tl_cap_to(tl, c, TL_RUN, t, ev->u.thread.thread);
		return;
	case PROTO_STOP_THREAD:
		if ((c = tl_cap_get(tl, ev->cap)) == NULL)
			return;
		if (c->state == TL_UNK) {
			/* It was running that thread when we came in. */
			c->state = TL_RUN;
			c->thread = ev->u.stop.thread;
		}
		if (c->state == TL_RUN)
			tl_cap_to(tl, c, TL_IDLE, t, 0);
		return;
	case PROTO_GC_START:
		if ((c = tl_cap_get(tl, ev->cap)) == NULL) {
			if (ev->cap < 0)
				tl_gc_start(tl, &tl->nocap_gc, t);
			return;
		}
		if (c->gc_in.in)
			return;
		tl_gc_start(tl, &c->gc_in, t);
		if (c->state == TL_UNK)
			c->state = TL_IDLE;
		tl_cap_to(tl, c, TL_GC, t, 0);
		return;
	case PROTO_GC_END:
		if ((c = tl_cap_get(tl, ev->cap)) == NULL) {
			if (ev->cap < 0)
				tl_gc_end(tl, &tl->nocap_gc, TL_CLOSE_NOCAP, t,
				    0);
			return;
		}
		if (c->state == TL_UNK) {
			/* It was collecting when we came in. */
			c->state = TL_GC;
			tl_gc_end(tl, &c->gc_in, ev->cap, t, 1);
			tl_cap_to(tl, c, TL_IDLE, t, 0);
			return;
		}
		tl_gc_end(tl, &c->gc_in, ev->cap, t, 0);
		if (c->state == TL_GC)
			tl_cap_to(tl, c, TL_IDLE, t, 0);
		return;
	case PROTO_GC_STATS_GHC:
		if ((c = tl_cap_get(tl, ev->cap)) != NULL)
			tl_gc_stats(tl, &c->gc_in, ev->cap,
			    c->state == TL_UNK);
		else if (ev->cap < 0)
			tl_gc_stats(tl, &tl->nocap_gc, TL_CLOSE_NOCAP, 0);
		return;
	case PROTO_HEAP_SIZE:
		tl_gauge(tl, tl->hsize, t, ev->u.heap.bytes);
		return;
	case PROTO_HEAP_LIVE:
		tl_gauge(tl, tl->hlive, t, ev->u.heap.bytes);
		return;
	case PROTO_USER_MARKER:
		if (!tl->fixed || (t >= tl->start && t < tl->end))
			tl_mark(tl, t, &ev->u.msg);
		return;
	default:
		return;
	}
}

/* Nothing more happened before t: open states last until then. */
void
tl_until(struct tl *tl, uint64_t t)
{
	if (!tl->started || t <= tl->now)
		return;
	tl->now = t;
	if (t >= tl->end && !tl->fixed)
		tl_grow(tl, t);
}

uint64_t
tl_start(const struct tl *tl)
{
	return tl->start;
}

/* The newest event's time (a range: clipped to its end). */
uint64_t
tl_now(const struct tl *tl)
{
	return tl->fixed && tl->now > tl->end ? tl->end : tl->now;
}

uint64_t
tl_events(const struct tl *tl)
{
	return tl->events;
}

uint64_t
tl_width(const struct tl *tl)
{
	return tl_bw(tl);
}

/* Buckets in use: up to the newest event's. */
size_t
tl_nbuckets(const struct tl *tl)
{
	if (!tl->started)
		return 0;
	return tl_idx(tl, tl_now(tl)) + 1;
}

int
tl_ncaps(const struct tl *tl)
{
	return tl->ncaps;
}

int
tl_has_cap(const struct tl *tl, int i)
{
	return i >= 0 && i < tl->ncaps && tl->cap[i] != NULL;
}

static uint64_t
tl_overlap(uint64_t a, uint64_t b, uint64_t lo, uint64_t hi)
{
	if (a < lo)
		a = lo;
	if (b > hi)
		b = hi;
	return b > a ? b - a : 0;
}

/* [lo, hi) clipped to what the summary knows; 0 if nothing is left. */
static int
tl_clip(const struct tl *tl, uint64_t *lo, uint64_t *hi)
{
	uint64_t	now = tl_now(tl);

	if (!tl->started)
		return 0;
	if (*lo < tl->start)
		*lo = tl->start;
	if (*hi > now)
		*hi = now;
	if (*hi > tl->end)
		*hi = tl->end;
	return *hi > *lo;
}

static inline uint64_t
tl_bstart(const struct tl *tl, size_t i)
{
	return tl->start + ((uint64_t)i << tl->shift);
}

/*
 * The share of bucket b's value v that [lo, hi) covers: all of it when
 * the span covers what the bucket holds (up to the newest event), else in
 * proportion.
 */
static inline uint64_t
tl_part(const struct tl *tl, size_t b, uint64_t v, uint64_t lo, uint64_t hi)
{
	uint64_t	bs = tl_bstart(tl, b), be = bs + tl_bw(tl), now, o;

	now = tl_now(tl);
	if (be > now || b == NB - 1)
		be = now;
	if (be > tl->end)
		be = tl->end;
	o = tl_overlap(bs, be, lo, hi);
	if (o >= be - bs)
		return v;
	return (uint64_t)((double)v * (double)o / (double)(be - bs) + 0.5);
}

/*
 * What capability i did in [lo, hi): buckets the span covers only in part
 * count in proportion; the open state counts up to the newest event.
 */
void
tl_cap_sum(const struct tl *tl, int i, uint64_t lo, uint64_t hi,
    struct tl_cap_sum *s)
{
	const struct tl_cap	*c;
	size_t			 b, ib;
	uint64_t		 o, d;

	memset(s, 0, sizeof *s);
	if (!tl_has_cap(tl, i) || (c = tl->cap[i])->state == TL_UNK ||
	    !tl_clip(tl, &lo, &hi))
		return;
	s->known = 1;
	ib = tl_idx(tl, hi - 1);
	for (b = tl_idx(tl, lo); b <= ib; b++) {
		s->run += tl_part(tl, b, c->run[b], lo, hi);
		s->gc += tl_part(tl, b, c->gc[b], lo, hi);
		if (c->thns[b] > s->thread_ns) {
			s->thread_ns = c->thns[b];
			s->thread = c->th[b];
		}
	}
	o = tl_overlap(c->since, tl_now(tl), lo, hi);
	if (c->state == TL_RUN) {
		s->run += o;
		if (o > s->thread_ns) {
			s->thread_ns = o;
			s->thread = c->thread;
		}
	} else if (c->state == TL_GC)
		s->gc += o;
	d = hi - lo;
	if (s->run > d)
		s->run = d;
	if (s->gc > d - s->run)
		s->gc = d - s->run;
	s->idle = d - s->run - s->gc;
}

/* The program's pauses in [lo, hi): those that began in a bucket whose
 * start is in it; the time paused in proportion, as for a cap. */
void
tl_gc_sum(const struct tl *tl, uint64_t lo, uint64_t hi, struct tl_gc_sum *g)
{
	size_t		b, ib;
	uint64_t	bs;

	memset(g, 0, sizeof *g);
	if (!tl_clip(tl, &lo, &hi))
		return;
	ib = tl_idx(tl, hi - 1);
	for (b = tl_idx(tl, lo); b <= ib; b++) {
		bs = tl_bstart(tl, b);
		g->gc_ns += tl_part(tl, b, tl->gcns[b], lo, hi);
		/* The longest where it began, finer than the bucket. */
		if (tl->npause[b] > 0 && tl->maxp[b] >= g->max &&
		    tl->maxat[b] >= lo && tl->maxat[b] < hi) {
			g->max = tl->maxp[b];
			g->max_at = tl->maxat[b];
		}
		if (bs < lo && lo > tl->start)
			continue;
		g->pauses += tl->npause[b];
	}
	if (tl->coll_open)
		g->gc_ns += tl_overlap(tl->pause_start, tl_now(tl), lo, hi);
	if (g->gc_ns > hi - lo)
		g->gc_ns = hi - lo;
}

void
tl_heap_sum(const struct tl *tl, uint64_t lo, uint64_t hi,
    struct tl_heap_sum *h)
{
	size_t	b, ib;

	memset(h, 0, sizeof *h);
	if (!tl->started || hi <= lo || hi <= tl->start ||
	    (tl->fixed && lo >= tl->end))
		return;
	ib = tl_idx(tl, hi - 1);
	for (b = tl_idx(tl, lo); b <= ib; b++) {
		if (tl->hsize[b] > 0 && tl->hsize[b] - 1 >= h->size) {
			h->size = tl->hsize[b] - 1;
			h->has_size = 1;
		}
		if (tl->hlive[b] > 0 && tl->hlive[b] - 1 >= h->live) {
			h->live = tl->hlive[b] - 1;
			h->has_live = 1;
		}
	}
}

/* The heap gauges of the last bucket before t that has them; 0 if none. */
int
tl_heap_before(const struct tl *tl, uint64_t t, struct tl_heap_sum *h)
{
	size_t	b;

	memset(h, 0, sizeof *h);
	if (!tl->started || t <= tl->start)
		return 0;
	for (b = tl_idx(tl, t - 1) + 1; b-- > 0;) {
		if (!h->has_size && tl->hsize[b] > 0) {
			h->size = tl->hsize[b] - 1;
			h->has_size = 1;
		}
		if (!h->has_live && tl->hlive[b] > 0) {
			h->live = tl->hlive[b] - 1;
			h->has_live = 1;
		}
		if (h->has_size && h->has_live)
			break;
	}
	return h->has_size || h->has_live;
}

const struct tl_mark *
tl_marks(const struct tl *tl, size_t *n)
{
	*n = tl->nmark;
	return tl->mark;
}

uint64_t
tl_marks_dropped(const struct tl *tl)
{
	return tl->mark_dropped;
}

/* The longest pauses, longest first (ties: earliest first). */
const struct tl_pause *
tl_longest(const struct tl *tl, size_t *n)
{
	*n = tl->nlong;
	return tl->lng;
}

uint64_t
tl_pauses(const struct tl *tl)
{
	return tl->npauses;
}

/* Bucket i of capability c, exactly; 0 if there is no such bucket. */
int
tl_cap_bucket(const struct tl *tl, int c, size_t i, struct tl_cap_sum *s)
{
	uint64_t	bs;

	memset(s, 0, sizeof *s);
	if (i >= tl_nbuckets(tl))
		return 0;
	bs = tl_bstart(tl, i);
	tl_cap_sum(tl, c, bs, i == NB - 1 ? tl->end : bs + tl_bw(tl), s);
	return 1;
}

void
tl_gc_bucket(const struct tl *tl, size_t i, struct tl_gc_sum *g)
{
	uint64_t	bs;

	memset(g, 0, sizeof *g);
	if (i >= tl_nbuckets(tl))
		return;
	bs = tl_bstart(tl, i);
	tl_gc_sum(tl, bs, i == NB - 1 ? tl->end : bs + tl_bw(tl), g);
}
