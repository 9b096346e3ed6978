/*
 * model-reorder.c: put a live stream's events back in time order.
 *
 * Each capability writes its events in time order, but whole blocks of
 * different capabilities arrive interleaved and late.  Events are copied
 * into 64 KiB chunks from a pool capped by max_bytes, each stream (a
 * capability, or no cap) filling its own chunk.  Each stream appends its
 * events to an open run (a FIFO list) while time does not go back; an event
 * a little older than the last (GHC stamps GC_END so) goes in among the
 * run's last RTAIL events; an older one opens another run.  Every run is
 * sorted.  A binary heap over the runs'
 * heads, keyed by (time, arrival number), releases the oldest event once it
 * is `window` older than the newest event seen, or early when the pool or
 * the set of runs is full.  A chunk goes back to the pool when the last
 * event copied into it has been released.
 *
 * With no event late, the order is exactly the stable time order that
 * reader_next() gives for a file.  An event older than one already released
 * is applied at once and counted as late, unless what it does does not
 * depend on where it goes (apply_late, model_late_global(): then it is
 * applied as in time order, not late), or the owner keeps the stream and puts such
 * events in their place itself (src/time/redo.c): then it is only noted
 * (model_late_take()); the owner is told of those applied at once
 * (model_late_aside()).  The owner may also release
 * what it knows to be in order before the window (model_reorder_horizon:
 * bytes that came a while ago), and drop what is held after taking the
 * model back to a checkpoint.  Block markers are held like the events, so
 * that what a checkpoint has counted is what was released.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "model/model-priv.h"

#define RCHUNK_BYTES	(64u << 10)

struct rchunk {
	struct rchunk	*next;		/* in the pool */
	struct rchunk	*all;		/* every chunk, newest first */
	uint32_t	 used;
	uint32_t	 live;		/* events in it not yet released */
	int		 stream;
	_Alignas(16) uint8_t data[RCHUNK_BYTES];
};

/* What is kept of an event; its payload follows (after r). */
struct rhdr {
	struct rhdr	*next;		/* in its run */
	struct rchunk	*chunk;
	uint64_t	 seq;
	struct proto_rec r;
};
/* The payload proto_rec_put() writes after r is the event's after it. */
_Static_assert(sizeof (struct rhdr) == offsetof(struct rhdr, r) +
    sizeof (struct proto_rec), "struct rhdr ends with r");

#define RALIGN(n)	(((n) + 7) & ~(size_t)7)

void
model_reorder_init(struct reorder *ro, model_apply_fn *apply,
    model_late_fn *apply_late)
{
	int	i;

	memset(ro, 0, sizeof *ro);
	ro->apply = apply;
	ro->apply_late = apply_late;
	ro->window = MODEL_REORDER_NS;
	ro->max_bytes = MODEL_REORDER_BYTES;
	for (i = 0; i < RSTREAMS; i++)
		ro->cur[i] = -1;
	for (i = 0; i < RQUEUES; i++)
		ro->freeq[i] = (uint16_t)(RQUEUES - 1 - i);
	ro->nfreeq = RQUEUES;
}

/* Free the chunks; only once nothing is held (after a flush). */
void
model_reorder_free(struct reorder *ro)
{
	struct rchunk	*c, *next;
	int		 i;

	for (c = ro->all; c != NULL; c = next) {
		next = c->all;
		mheap_free(c);
	}
	for (i = 0; i < RSTREAMS; i++)
		ro->chunk[i] = NULL;
	ro->all = ro->free = NULL;
	ro->nchunks = 0;
}

static inline int
q_before(const struct reorder *ro, int a, int b)
{
	const struct rqueue	*x = &ro->q[a], *y = &ro->q[b];

	if (x->head_time != y->head_time)
		return x->head_time < y->head_time;
	return x->head_seq < y->head_seq;
}

static inline void
heap_set(struct reorder *ro, int i, int qi)
{
	ro->heap[i] = (uint16_t)qi;
	ro->q[qi].hpos = i;
}

static void
heap_down(struct reorder *ro, int i)
{
	int	qi = ro->heap[i], c;

	for (;;) {
		c = 2 * i + 1;
		if (c >= ro->nheap)
			break;
		if (c + 1 < ro->nheap && q_before(ro, ro->heap[c + 1],
		    ro->heap[c]))
			c++;
		if (!q_before(ro, ro->heap[c], qi))
			break;
		heap_set(ro, i, ro->heap[c]);
		i = c;
	}
	heap_set(ro, i, qi);
}

static void
heap_up(struct reorder *ro, int i)
{
	int	qi = ro->heap[i], up;

	while (i > 0) {
		up = (i - 1) / 2;
		if (!q_before(ro, qi, ro->heap[up]))
			break;
		heap_set(ro, i, ro->heap[up]);
		i = up;
	}
	heap_set(ro, i, qi);
}

static void
heap_push(struct reorder *ro, int qi)
{
	ro->heap[ro->nheap] = (uint16_t)qi;
	heap_up(ro, ro->nheap++);
}

static void
chunk_put(struct reorder *ro, struct rchunk *c)
{
	c->next = ro->free;
	ro->free = c;
}

/*
 * A late event the owner puts in its place itself (it keeps the stream and
 * takes the model back): noted, not applied.  1 if so.
 */
static int
reorder_defer(struct reorder *ro, const struct proto_ev *ev)
{
	if (!ro->defer || ev->time < ro->defer_time ||
	    (ev->time == ro->defer_time && ev->off < ro->defer_off))
		return 0;
	if (!ro->deferred || ev->time < ro->late_time ||
	    (ev->time == ro->late_time && ev->off < ro->late_off)) {
		ro->late_time = ev->time;
		ro->late_off = ev->off;
	}
	ro->deferred = 1;
	return 1;
}

/* A late event applied where it arrives, counted late: the owner of a
 * history is told (model_late_aside()), to apply it again after going
 * back to a checkpoint older than its coming (also while it goes over
 * the history, deferring nothing). */
static void
reorder_late(struct model *m, struct reorder *ro, const struct proto_ev *ev)
{
	if (ev->kind != PROTO_BLOCK_MARKER)
		m->totals.late++;	/* (a marker only counts) */
	if (ro->aside != NULL)
		(void)ro->aside(ro->aside_arg, ev);
	ro->apply(m, ev);
}

/* Release the oldest held event into the model. */
static void
release_one(struct model *m)
{
	struct reorder		*ro = &m->p->ro;
	int			 qi = ro->heap[0];
	struct rqueue		*q = &ro->q[qi];
	struct rhdr		*h = q->head;
	struct rchunk		*c = h->chunk;
	struct proto_ev		 ev;

	proto_rec_get(&h->r, &ev);

	m->totals.held--;
	m->totals.held_bytes -= RALIGN(sizeof *h + h->r.len);
	q->head = h->next;
	if (--q->n > 0) {
		q->head_time = q->head->r.time;
		q->head_seq = q->head->seq;
		/* Usually two or three runs: the root stays unless a child
		 * now comes first. */
		if (ro->nheap <= 3) {
			int	k = ro->nheap == 3 && q_before(ro, ro->heap[2],
			    ro->heap[1]) ? 2 : 1;

			if (k < ro->nheap && q_before(ro, ro->heap[k], qi)) {
				heap_set(ro, 0, ro->heap[k]);
				heap_set(ro, k, qi);
			}
		} else
			heap_down(ro, 0);
	}
	else {
		q->tail = NULL;
		q->hpos = -1;
		if (--ro->nheap > 0) {
			heap_set(ro, 0, ro->heap[ro->nheap]);
			heap_down(ro, 0);
		}
		if (ro->cur[q->stream] == qi)
			ro->cur[q->stream] = -1;
		ro->freeq[ro->nfreeq++] = (uint16_t)qi;
	}
	/* The payload stays readable: the pool is not used before the next
	 * push. */
	if (--c->live == 0 && ro->chunk[c->stream] != c)
		chunk_put(ro, c);

	if (!ro->any_released || ev.time >= ro->released) {
		ro->released = ev.time;
		ro->released_off = ev.off;
		ro->any_released = 1;
		ro->apply(m, &ev);
	} else if (!ro->apply_late(m, &ev) && !reorder_defer(ro, &ev))
		reorder_late(m, ro, &ev);	/* overtaken by an early release */
}

void
model_reorder_flush(struct model *m)
{
	while (m->p->ro.nheap > 0)
		release_one(m);
}

/* A fresh chunk for a stream, releasing early if the pool is spent. */
static struct rchunk *
chunk_get(struct model *m, int st)
{
	struct reorder	*ro = &m->p->ro;
	struct rchunk	*c, *old = ro->chunk[st];
	size_t		 max = ro->max_bytes / RCHUNK_BYTES;

	/* The stream's full chunk is no longer its own. */
	ro->chunk[st] = NULL;
	if (old != NULL && old->live == 0)
		chunk_put(ro, old);
	if (max < 2)
		max = 2;
	for (;;) {
		if ((c = ro->free) != NULL) {
			ro->free = c->next;
			break;
		}
		if (ro->nchunks < max) {
			c = model_calloc(m, 1, sizeof *c);
			c->all = ro->all;
			ro->all = c;
			ro->nchunks++;
			break;
		}
		if (ro->nheap == 0)
			return NULL;
		m->totals.forced++;
		release_one(m);
	}
	c->next = NULL;
	c->used = 0;
	c->live = 0;
	c->stream = st;
	ro->chunk[st] = c;
	return c;
}

/* Where an event goes in a run: after the i-th of the last events kept
 * (0 = the oldest kept), or: */
#define PLACE_TAIL	(-1)	/* after all */
#define PLACE_HEAD	(-2)	/* before all: the run is all kept */
#define PLACE_NONE	(-3)	/* before what is kept: another run */

/*
 * The place of an event at time t, older than the last of the stream's
 * open run q: after the newest of the last events kept that is not later
 * (equal times: it came after).  Those kept that were released since (the
 * oldest) are forgotten first.
 */
static int
tail_place(struct reorder *ro, int st, const struct rqueue *q, uint64_t t)
{
	int	n = ro->tw_n[st], i;

	if ((uint64_t)n > q->n) {
		ro->tw_at[st] = (uint8_t)((ro->tw_at[st] + n - (int)q->n) %
		    RTAIL);
		ro->tw_n[st] = (uint8_t)(n = (int)q->n);
	}
	for (i = n - 1; i >= 0; i--) {
		if (ro->tw[st][(ro->tw_at[st] + i) % RTAIL]->r.time <= t)
			return i;
	}
	return (uint64_t)n == q->n ? PLACE_HEAD : PLACE_NONE;
}

/*
 * Keep h among the stream's last events, at index i of those kept (i ==
 * RTAIL: after them all); the oldest kept leaves when they are RTAIL.
 */
static void
tail_add(struct reorder *ro, int st, int i, struct rhdr *h)
{
	struct rhdr	**tw = ro->tw[st];
	int		  n = ro->tw_n[st], at = ro->tw_at[st], k;

	if (i > n)
		i = n;
	if (n == RTAIL && i == n) {
		/* The common case: the newest; the oldest kept leaves. */
		tw[at] = h;
		ro->tw_at[st] = (uint8_t)((at + 1) % RTAIL);
		return;
	}
	if (n == RTAIL) {
		if (i == 0)
			return;		/* older than all kept: not kept */
		/* The oldest leaves; the ones up to i move down. */
		for (k = 0; k < i - 1; k++)
			tw[(at + k) % RTAIL] = tw[(at + k + 1) % RTAIL];
		tw[(at + i - 1) % RTAIL] = h;
		return;
	}
	for (k = n; k > i; k--)
		tw[(at + k) % RTAIL] = tw[(at + k - 1) % RTAIL];
	tw[(at + i) % RTAIL] = h;
	ro->tw_n[st] = (uint8_t)(n + 1);
}

void
model_reorder_push(struct model *m, const struct proto_ev *ev)
{
	struct reorder	*ro = &m->p->ro;
	struct rqueue	*q;
	struct rchunk	*c;
	struct rhdr	*h;
	size_t		 need = RALIGN(sizeof *h + ev->len);
	int		 qi, st, where = PLACE_TAIL;

	if (ro->any_released && ev->time < ro->released) {
		if (!ro->apply_late(m, ev) && !reorder_defer(ro, ev))
			reorder_late(m, ro, ev);
		return;
	}
	if (need > RCHUNK_BYTES) {
		/* Too big to copy: what is older goes first, then it. */
		m->totals.oversize++;
		while (ro->nheap > 0 && ro->q[ro->heap[0]].head_time <=
		    ev->time)
			release_one(m);
		if (!ro->any_released || ev->time >= ro->released) {
			ro->released = ev->time;
			ro->released_off = ev->off;
		}
		ro->any_released = 1;
		ro->apply(m, ev);
		return;
	}
	st = ev->cap < 0 ? 0 : 1 + (int)((uint32_t)ev->cap % MODEL_MAX_CAPS);

	/* Room first: making it may release events and close runs. */
	if ((c = ro->chunk[st]) == NULL || c->used + need > RCHUNK_BYTES) {
		if ((c = chunk_get(m, st)) == NULL) {
			ro->apply(m, ev);
			return;
		}
	}
	qi = ro->cur[st];
	if (qi >= 0 && ro->q[qi].tail_time > ev->time)
		where = tail_place(ro, st, &ro->q[qi], ev->time);
	if (qi < 0 || where == PLACE_NONE) {
		/* A new run: time went back too far in this stream. */
		while (ro->nfreeq == 0) {
			m->totals.forced++;
			release_one(m);
		}
		qi = ro->freeq[--ro->nfreeq];
		ro->cur[st] = (int16_t)qi;
		ro->tw_n[st] = 0;
		q = &ro->q[qi];
		q->head = q->tail = NULL;
		q->n = 0;
		q->stream = st;
		q->hpos = -1;
		where = PLACE_TAIL;
	}
	q = &ro->q[qi];

	h = (struct rhdr *)(void *)(c->data + c->used);
	h->next = NULL;
	h->chunk = c;
	h->seq = ro->seq++;
	proto_rec_put(&h->r, ev);
	c->used += (uint32_t)need;
	c->live++;
	m->totals.held++;
	m->totals.held_bytes += need;

	if (q->n++ == 0) {
		q->head = q->tail = h;
		q->head_time = h->r.time;
		q->head_seq = h->seq;
		q->tail_time = h->r.time;
		heap_push(ro, qi);
		tail_add(ro, st, RTAIL, h);
	} else if (where == PLACE_TAIL) {
		q->tail->next = h;
		q->tail = h;
		q->tail_time = h->r.time;
		if (ro->tw_n[st] == RTAIL) {
			/* The common case (tail_add's first). */
			ro->tw[st][ro->tw_at[st]] = h;
			ro->tw_at[st] = (uint8_t)((ro->tw_at[st] + 1) % RTAIL);
		} else
			tail_add(ro, st, RTAIL, h);
	} else if (where == PLACE_HEAD) {
		/* Older than all the run holds: its new head. */
		h->next = q->head;
		q->head = h;
		q->head_time = h->r.time;
		q->head_seq = h->seq;
		heap_up(ro, q->hpos);
		tail_add(ro, st, 0, h);
	} else {
		/* After the where-th of the last events. */
		struct rhdr *prev = ro->tw[st][(ro->tw_at[st] + where) %
		    RTAIL];

		h->next = prev->next;
		prev->next = h;
		tail_add(ro, st, where + 1, h);
	}
	if (ev->time > ro->newest)
		ro->newest = ev->time;
	while (ro->nheap > 0 && (ro->q[ro->heap[0]].head_time + ro->window <=
	    ro->newest || ro->q[ro->heap[0]].head_time <= ro->horizon))
		release_one(m);
}

/*
 * Release too what is not later than h: the owner knows no event that
 * old can still arrive in order (a live source's bytes that came a while
 * ago), so they need not wait for the window.
 */
void
model_reorder_horizon(struct model *m, uint64_t h)
{
	struct reorder	*ro = &m->p->ro;

	if (h <= ro->horizon)
		return;
	ro->horizon = h;
	while (ro->nheap > 0 && ro->q[ro->heap[0]].head_time <= h)
		release_one(m);
}

/*
 * Forget what is held, applying nothing: the owner has taken the model
 * back to a checkpoint and gives it the events again from its history.
 */
void
model_reorder_drop(struct model *m)
{
	struct reorder	*ro = &m->p->ro;
	struct rchunk	*c;
	int		 i;

	for (i = 0; i < ro->nheap; i++)
		ro->q[ro->heap[i]].hpos = -1;
	ro->nheap = 0;
	for (i = 0; i < RSTREAMS; i++) {
		ro->chunk[i] = NULL;
		ro->cur[i] = -1;
		ro->tw_n[i] = 0;
	}
	for (i = 0; i < RQUEUES; i++) {
		ro->q[i].head = ro->q[i].tail = NULL;
		ro->q[i].n = 0;
		ro->freeq[i] = (uint16_t)(RQUEUES - 1 - i);
	}
	ro->nfreeq = RQUEUES;
	/* Every chunk free again, from their list: what the chunks hold
	 * is not read (restored, it is not there: model_reorder_hole()). */
	ro->free = NULL;
	for (c = ro->all; c != NULL; c = c->all) {
		c->live = 0;
		c->next = ro->free;
		ro->free = c;
	}
	m->totals.held = 0;
	m->totals.held_bytes = 0;
}

/* The bytes of the chunks held events are copied into (each a block of
 * whole pages, its header included). */
size_t
model_reorder_pool(const struct model *m)
{
	return m->p->ro.nchunks * (sizeof (struct rchunk) + 4096);
}

/*
 * The copies of the held events, chunk after chunk: the next after prev
 * (NULL: the first), its length at *len; NULL after the last.  A state
 * restored drops what was held (model_reorder_drop()), so a checkpoint
 * need not keep them: on a live source, up to the pool's 8 MiB of a
 * state of 1-2 MB without them.
 */
const void *
model_reorder_hole(const struct model *m, const void *prev, size_t *len)
{
	const struct rchunk	*c;

	if (prev == NULL)
		c = m->p->ro.all;
	else
		c = ((const struct rchunk *)(const void *)((const char *)prev -
		    offsetof(struct rchunk, data)))->all;
	if (c == NULL)
		return NULL;
	*len = sizeof c->data;
	return c->data;
}
