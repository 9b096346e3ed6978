/*
 * redo.c: a live source's history, and the model put right when events
 * come late.
 *
 * Each capability sends its events in blocks, when a buffer fills or at
 * the flush interval, so a capability that was idle may send seconds of
 * events after the others have been applied.  The model applies events
 * as they come (in time order among those that came together: what came
 * REDO_HOLD_NS ago or earlier is released, see redo_tick()), and keeps
 * checkpoints of itself (ckpt.c) every REDO_EVERY events; the stream
 * itself goes to disk (spill.c).  An event older than what the model has
 * applied is not applied where it arrives (the model's reorder buffer
 * leaves it to us): the model goes back to the last checkpoint before it,
 * and the history from there is applied again in time order, in slices of
 * the poll loop, newer events arriving meanwhile going to the history
 * only.  The result is what a replay of the recording gives: the order is
 * (time, stream offset), which is reader.c's.
 *
 * Going back in time to look (redo_view()) is the same: a checkpoint, the
 * history up to the time, and the model held there while the stream goes
 * to disk; redo_now() catches up from the newest checkpoint.
 *
 * Only events older than the history kept (the oldest usable checkpoint)
 * are applied where they arrive and counted late, as before; and those
 * the model can apply where they arrive as the time order would have
 * (model_late_global(): GHC 9.0's global events, sent at exit with the
 * times of the start).  Both are kept aside, to be applied again when a
 * later run goes back to a checkpoint taken before they came.
 *
 * A run reads the history on a thread of its own (feed.c, the spill's
 * cursor lent to it), as `--batch` reads a file: framing, merging and
 * each event's head there, its fields and the model here.  Nothing else
 * of the cursor's is done while it is lent: going back (redo_run()),
 * ending a run, holding the model in the past (redo_until(), on this
 * thread) take it back first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evtop.h"
#include "model/model.h"
#include "source/source.h"
#include "time/ckpt.h"
#include "time/redo.h"
#include "time/spill.h"

#ifndef REDO_N
#define REDO_N		2048		/* events applied at once */
#endif
#ifndef REDO_THREAD
#define REDO_THREAD	1		/* 0: runs read the history here */
#endif
#define REDO_CKPTS	64		/* checkpoints kept */
#define REDO_SAMPLES	64
#define REDO_MIN_EVERY	4096		/* no checkpoints closer than this */
#define REDO_CKPT_NS	50000000ull	/* nor further apart in time */
#define REDO_RECENT_NS	2000000000ull	/* where late events mostly go */
#ifndef REDO_Q_BYTES
#define REDO_Q_BYTES	(8u << 20)	/* events kept that came in a run */
#endif
#ifndef REDO_ASIDE_BYTES
#define REDO_ASIDE_BYTES (1u << 20)	/* late events applied in place */
#endif
/* Corrections start at most this often, or as often as the last took:
 * late blocks that keep coming (a source faster than real time) are put
 * back together, and correcting takes at most about half the time. */
#define REDO_GAP_NS	50000000ull

enum redo_state {
	REDO_IDLE,	/* events applied as they come */
	REDO_RUN,	/* the history applied again, up to now */
	REDO_VIEW,	/* held at view_ns */
};

/* When bytes came, and the newest event time they brought. */
struct redo_sample {
	uint64_t	 wall, time;
};


#define REDO_QALIGN(n)	(((n) + 7) & ~(size_t)7)

struct redo {
	struct model	*m;
	struct spill	*sp;
	struct ckpt	*ck;
	/* The model as shown when a correction began (its only entry, if
	 * fb_ok): put back if the correction cannot go on. */
	struct ckpt	*fb;
	int		 fb_ok;
	enum redo_state	 state;
	char		*cause;
	int		 on;		/* a session is kept */
	int		 giving_up;	/* in redo_give_up() */

	uint64_t	 since_ckpt;	/* events applied since the last one */
	uint64_t	 ckpt_time;	/* and its time */
	uint64_t	 ckpt_wall;	/* and when it was taken */
	uint64_t	 ckpt_off;	/* and where in the stream */
	uint64_t	 ckpt_step;	/* bytes of stream a checkpoint covers */

	/* While not IDLE: the earliest event that came meanwhile. */
	int		 arr_any;
	uint64_t	 arr_t, arr_off;
	uint64_t	 newest;	/* newest event time that came */
	int		 tail;		/* a RUN's events go to the buffer now */
	uint64_t	 given_t, given_off;	/* the last a RUN took */
	uint64_t	 horizon;	/* released once not later than this */
	uint64_t	 view_ns;
	int		 range;		/* held: a range [range_from, view_ns) */
	uint64_t	 range_from;
	uint64_t	 run_late;	/* the late event's time */
	int		 run_fix;	/* a correction, not a catch-up */
	uint64_t	 run_at;	/* when the last correction started */
	uint64_t	 busy_since;	/* when this pass over the history began */
	int		 waiting;	/* a run waits for redo_gap() */
	uint64_t	 last_run_ns;	/* how long the last correction took */
	uint64_t	 chain_at;	/* when it began (with those it led to) */
	uint64_t	 done_at;	/* and when it ended */

	/* What came during a run, in the order it came: given to the model
	 * as it would have been when the run is over, so the run need not
	 * read the history again for it (unless there was too much). */
	uint8_t		*q;
	size_t		 q_used;
	int		 q_over;

	/* Late events the model applied where they came (those that may
	 * go anywhere, model_late_global(), and those older than the
	 * history), in the order they came, numbered: after going back to a
	 * checkpoint older than their coming, those older than its place
	 * are applied again (the history from there does not hold them). */
	uint8_t		*aq;
	size_t		 aq_used;
	uint64_t	 aside_n;	/* numbered so far */
	/* One that could not be kept (no room): its number + 1, or 0.
	 * A checkpoint from before it lacks it for good: not gone back to
	 * (redo_oldest()). */
	uint64_t	 aside_lost;
	int		 aside_again;	/* applying them again */
	/* Those of the kinds that may go anywhere that came during a run
	 * older than where it is: applied when it ends (or, if it starts
	 * again, after its checkpoint), not a reason to go back for. */
	uint8_t		*gq;
	size_t		 gq_used;
	/* The stream's bytes committed so far, and when the run began (or
	 * began again): what came since is at or after run_off. */
	uint64_t	 committed, run_off;

	struct redo_sample sample[REDO_SAMPLES];
	int		 ns, s0;

	struct redo_stats st;
	struct feed	*feed;		/* a run's history, read on a thread */
	int		 here;		/* or here, for the rest of the run */
	const struct proto_ev *ev[REDO_N];	/* in the history's files */
};

static int	redo_hold(struct redo *, uint64_t);

/* Room for need more bytes in a buffer of cap bytes (made when first
 * needed): where they go, or NULL. */
static void *
redo_room(uint8_t **buf, size_t *used, size_t cap, size_t need)
{
	void	*at;

	if (*buf == NULL && (*buf = malloc(cap)) == NULL)
		return NULL;
	if (*used + need > cap)
		return NULL;
	at = *buf + *used;
	*used += need;
	return at;
}

/* One of them: its number, then the event. */
struct redo_aside {
	uint64_t	 n;
	struct proto_rec r;
};
#define REDO_ASIDE_SIZE(h)	REDO_QALIGN(sizeof *(h) + (h)->r.len)

/* The model is about to apply a late event where it came: noted, or 0
 * (no room: one that may go anywhere is deferred as any other; one older
 * than the history is lost to a later correction that goes back past
 * its coming). */
static int
redo_aside(void *arg, const struct proto_ev *ev)
{
	struct redo		*r = arg;
	struct redo_aside	*h;
	size_t			 need = REDO_QALIGN(sizeof *h + ev->len);

	if (r->aside_again || !r->on)
		return 1;
	if ((h = redo_room(&r->aq, &r->aq_used, REDO_ASIDE_BYTES, need)) ==
	    NULL) {
		r->aside_lost = ++r->aside_n;
		return 0;
	}
	h->n = r->aside_n++;
	proto_rec_put(&h->r, ev);
	return 1;
}

/* Those no checkpoint kept lacks go. */
static void
redo_aside_prune(struct redo *r)
{
	const struct redo_aside	*h;
	uint64_t		 min = r->aside_n;
	size_t			 at = 0;
	int			 i;

	if (r->aq_used == 0)
		return;
	for (i = 0; i < ckpt_count(r->ck); i++)
		if (ckpt_at(r->ck, i)->aside < min)
			min = ckpt_at(r->ck, i)->aside;
	while (at < r->aq_used) {
		h = (const struct redo_aside *)(const void *)(r->aq + at);
		if (h->n >= min)
			break;
		at += REDO_ASIDE_SIZE(h);
	}
	memmove(r->aq, r->aq + at, r->aq_used - at);
	r->aq_used -= at;
}

/* An event of a kind that may go anywhere, come during a run: kept, or
 * 0 (no room). */
static int
redo_keep_global(struct redo *r, const struct proto_ev *ev)
{
	struct proto_rec *h;
	size_t		 need = REDO_QALIGN(sizeof *h + ev->len);

	if ((h = redo_room(&r->gq, &r->gq_used, REDO_ASIDE_BYTES, need)) ==
	    NULL)
		return 0;
	proto_rec_put(h, ev);
	return 1;
}

/* A late event again: where it goes, if it may go anywhere; else as any
 * other (counted late, or deferred). */
static void
redo_apply_late(struct redo *r, const struct proto_ev *ev)
{
	if (!model_late_global(r->m, ev))
		model_apply(r->m, ev);
}

/* (t, off) goes before (t2, off2) in the time order: by time, then place
 * in the stream (reader.c's). */
static int
redo_order(uint64_t t, uint64_t off, uint64_t t2, uint64_t off2)
{
	return t < t2 || (t == t2 && off < off2);
}

/* Something came during the run older than where it is. */
static int
redo_came_older(const struct redo *r)
{
	return r->arr_any && redo_order(r->arr_t, r->arr_off, r->given_t,
	    r->given_off);
}

/* Those kept, to the model: late, each goes in place (or is deferred as
 * any other); with p, only those before its place, in place (the history
 * from there has the others). */
static void
redo_give_global(struct redo *r, const struct ckpt_pos *p)
{
	const struct proto_rec	*h;
	struct proto_ev		 ev;
	size_t			 at;

	for (at = 0; at < r->gq_used; at += REDO_QALIGN(sizeof *h + h->len)) {
		h = (const struct proto_rec *)(const void *)(r->gq + at);
		proto_rec_get(h, &ev);
		if (p == NULL)
			model_apply(r->m, &ev);
		else if (redo_order(ev.time, ev.off, p->time, p->off))
			redo_apply_late(r, &ev);
	}
	r->gq_used = 0;
}

/* Back at checkpoint p: those that came after it and belong before its
 * place, applied again. */
static void
redo_aside_again(struct redo *r, const struct ckpt_pos *p)
{
	const struct redo_aside	*h;
	struct proto_ev		 ev;
	size_t			 at;

	r->aside_again = 1;
	for (at = 0; at < r->aq_used; at += REDO_ASIDE_SIZE(h)) {
		h = (const struct redo_aside *)(const void *)(r->aq + at);
		proto_rec_get(&h->r, &ev);
		if (h->n < p->aside || !redo_order(ev.time, ev.off, p->time,
		    p->off))
			continue;
		redo_apply_late(r, &ev);
	}
	r->aside_again = 0;
}

static size_t
redo_fill(void *arg, const struct proto_ev **ev, size_t max, uint64_t slab,
    uint64_t released)
{
	return spill_next_lent(arg, ev, max, slab, released);
}

/* The thread reading the history stops; the cursor is ours again. */
static void
redo_unlend(struct redo *r)
{
	char	why[160];

	if (r->feed == NULL)
		return;
	snprintf(why, sizeof why, "%s", feed_error(r->feed) != NULL ?
	    feed_error(r->feed) : "");
	feed_free(r->feed);
	r->feed = NULL;
	if (spill_unlend(r->sp))
		r->here = 1;
	if (why[0] != '\0')
		spill_lent_failed(r->sp, why);
}

/* A run's next events, at *ev: from the thread, or read here. */
static size_t
redo_take(struct redo *r, const struct proto_ev *const **ev)
{
	size_t	n;

	if (!r->here && r->feed == NULL) {
		spill_lend(r->sp);
		if ((r->feed = feed_new_fill_p(redo_fill, r->sp,
		    REDO_THREAD)) == NULL) {
			(void)spill_unlend(r->sp);
			r->here = 1;
		}
	}
	if (!r->here && (n = feed_next_p(r->feed, ev)) > 0)
		return n;
	/* The end, or the thread stopped short of it: the rest here. */
	redo_unlend(r);
	*ev = r->ev;
	return r->here ? spill_next_p(r->sp, r->ev, REDO_N) : 0;
}

static uint64_t
redo_gap(const struct redo *r)
{
	return r->last_run_ns > REDO_GAP_NS ? r->last_run_ns : REDO_GAP_NS;
}

/* When the next correction may start: as long after the last ended as it
 * took, so correcting takes at most half the time. */
static uint64_t
redo_next_at(const struct redo *r)
{
	uint64_t	a = r->run_at + REDO_GAP_NS;
	uint64_t	b = r->done_at + r->last_run_ns;

	return a > b ? a : b;
}

struct redo *
redo_new(struct model *m, uint64_t max_bytes, uint64_t max_ns, char **cause)
{
	struct redo	*r;

	if ((r = calloc(1, sizeof *r)) == NULL) {
		source_cause(cause, "out of memory");
		return NULL;
	}
	r->m = m;
	if ((r->sp = spill_new(max_bytes, max_ns, cause)) == NULL ||
	    (r->ck = ckpt_new(cause)) == NULL ||
	    (r->fb = ckpt_new(cause)) == NULL) {
		redo_free(r);
		return NULL;
	}
	model_late_aside(m, redo_aside, r);
	ckpt_limit(r->ck, REDO_CKPTS);
	ckpt_thin_old(r->ck);	/* late events are mostly recent */
	r->ckpt_step = max_bytes / REDO_CKPTS;
	return r;
}

void
redo_free(struct redo *r)
{
	if (r == NULL)
		return;
	redo_unlend(r);
	spill_free(r->sp);
	ckpt_free(r->ck);
	ckpt_free(r->fb);
	free(r->q);
	free(r->aq);
	free(r->gq);
	free(r);
}

/* The oldest checkpoint the history can go on from, or -1. */
static int
redo_oldest(const struct redo *r)
{
	uint64_t		 floor = spill_floor(r->sp);
	const struct ckpt_pos	*p;
	int			 i;

	for (i = 0; i < ckpt_count(r->ck); i++) {
		p = ckpt_at(r->ck, i);
		if (p->time >= floor && p->aside >= r->aside_lost)
			return i;
	}
	return -1;
}

/* Late events the model leaves to us: those we can put back. */
static void
redo_defer(struct redo *r)
{
	const struct ckpt_pos	*p;
	int			 i;

	if (!r->on || (i = redo_oldest(r)) < 0) {
		model_late_defer(r->m, 0, 0, 0);
		return;
	}
	/* ckpt_find() takes one strictly before the event's time. */
	p = ckpt_at(r->ck, i);
	model_late_defer(r->m, 1, p->time + (p->time != 0 || p->off != 0),
	    0);
}

/* Where the model is, for a checkpoint of it. */
static void
redo_pos(const struct redo *r, struct ckpt_pos *pos)
{
	model_released(r->m, &pos->time, &pos->off);
	pos->events = r->m->totals.events;
	pos->aside = r->aside_n;
}

static void
redo_checkpoint(struct redo *r)
{
	struct ckpt_pos	pos;

	redo_pos(r, &pos);
	if (ckpt_save(r->ck, r->m, &pos) < 0) {
		redo_give_up(r, "checkpoints could not be written");
		return;
	}
	r->since_ckpt = 0;
	r->ckpt_time = pos.time;
	r->ckpt_wall = source_now();
	r->ckpt_off = pos.off;
	redo_aside_prune(r);
}

/* Time for a checkpoint: every REDO_EVERY events applied, or 50 ms of
 * event time and of the clock (with a few thousand events), so that going
 * back is short however fast the program writes. */
static int
redo_due(const struct redo *r)
{
	uint64_t	at, off;

	model_released(r->m, &at, &off);
	/* Going over the history again, by events only: four times fewer,
	 * and sixteen far from now (where late events seldom reach).  A
	 * checkpoint writes megabytes (2.7 MB each on the GHC bench logs:
	 * 1-8 ms, the page cache throttling): one every REDO_EVERY cost a
	 * run more than applying the events (make bench-late, the log on
	 * time: 2.1 s of a run's 4.4 s).  At the stream's pace, by time
	 * too. */
	if (r->state == REDO_RUN)
		return r->since_ckpt >= (at + REDO_RECENT_NS < r->newest ?
		    16 * REDO_EVERY : 4 * REDO_EVERY);
	if (r->since_ckpt >= REDO_EVERY)
		return 1;
	/* By time, no oftener than the stream's pace, or than the history
	 * keeps them (REDO_CKPTS over its bytes): a source read faster than
	 * it was written (a flood, a backlog) took one each 50 ms of its
	 * time, 2 334 checkpoints (3.6 s) for the 500 MB bench log. */
	return r->since_ckpt >= REDO_MIN_EVERY && at >= r->ckpt_time +
	    REDO_CKPT_NS && (source_now() >= r->ckpt_wall + REDO_CKPT_NS ||
	    off >= r->ckpt_off + r->ckpt_step);
}

/* Nothing kept: a new connection, or no more history for this one. */
static void
redo_off(struct redo *r)
{
	redo_unlend(r);
	r->on = 0;
	r->state = REDO_IDLE;
	r->ns = r->s0 = 0;
	spill_reset(r->sp);
	spill_pin(r->sp, UINT64_MAX);
	ckpt_keep(r->ck, 0, 0);
	r->aq_used = r->gq_used = 0;
	model_late_defer(r->m, 0, 0, 0);
}

void
redo_connect(struct redo *r)
{
	redo_off(r);
	spill_connect(r->sp);
}

/* History is no longer exact (bad bytes, a write error): late events
 * are applied where they arrive from now on.  Those left to us so far
 * are put back first, from what the history holds. */
void
redo_give_up(struct redo *r, const char *why)
{
	/* (Not again from within: a run that cannot go on gives up where
	 * it is; finishing it would give up again, without end.) */
	if (!r->giving_up && (r->state != REDO_IDLE || (r->on &&
	    model_late_peek(r->m)))) {
		r->giving_up = 1;
		redo_finish(r);
		r->giving_up = 0;
	}
	redo_off(r);
	if (why != NULL)
		r->st.error = why;
}

/* A read's bytes, before they are decoded: borrowed until redo_commit(). */
void
redo_bytes(struct redo *r, const uint8_t *p, size_t n)
{
	spill_bytes(r->sp, p, n);
}

/* A header: a new session, and a new history from the model as it is. */
void
redo_header(struct redo *r, const struct proto_dec *dec, uint64_t data)
{
	if (r->state != REDO_IDLE)
		redo_finish(r);
	ckpt_keep(r->ck, 0, 0);
	r->aq_used = r->gq_used = 0;
	if (spill_session(r->sp, dec, data) != 0) {
		r->st.error = spill_error(r->sp);
		redo_off(r);
		return;
	}
	r->on = 1;
	r->newest = 0;
	r->horizon = 0;
	r->ns = r->s0 = 0;
	redo_checkpoint(r);
	redo_defer(r);
}

/*
 * While a run goes, the files it may have to go back to stay: from the
 * last checkpoint before where it is, or before the earliest event come
 * older than that (it starts again there if too much came to keep).
 * Letting the files before its position go made every checkpoint
 * useless in a long run, and what came older then could not be put back.
 */
static void
redo_run_pin(struct redo *r)
{
	uint64_t	t = r->given_t;
	int		i;

	if (redo_came_older(r))
		t = r->arr_t;
	if (ckpt_count(r->ck) > 0) {
		i = ckpt_find(r->ck, t);
		if (i < 0)
			i = 0;
		if (ckpt_at(r->ck, i)->time < t)
			t = ckpt_at(r->ck, i)->time;
	}
	spill_pin(r->sp, t);
}

/*
 * Back at checkpoint p, the oldest left, for what came during the run
 * (at or after run_off), some of it older than p: those older, read from
 * the files, applied late (each as late events go, see
 * redo_apply_late()); the run from p reads the rest.  -1 if the files
 * could not be read.
 */
static int
redo_catch_up(struct redo *r, const struct ckpt_pos *p)
{
	const struct proto_ev	*e;
	size_t			 n, k;

	if (spill_seek(r->sp, 0, 0) != 0)
		return -1;
	while ((n = spill_next_p(r->sp, r->ev, REDO_N)) > 0) {
		for (k = 0; k < n; k++) {
			e = r->ev[k];
			if (!redo_order(e->time, e->off, p->time, p->off))
				return 0;
			if (e->off >= r->run_off)
				redo_apply_late(r, e);
		}
	}
	return spill_failed(r->sp) ? -1 : 0;
}

/* Keep an event that came during a run, if there is room. */
static void
redo_keep(struct redo *r, const struct proto_ev *ev)
{
	struct proto_rec *h;
	size_t		 need = REDO_QALIGN(sizeof *h + ev->len);

	if (r->q_over)
		return;
	if ((h = redo_room(&r->q, &r->q_used, REDO_Q_BYTES, need)) == NULL) {
		r->q_over = 1;
		return;
	}
	proto_rec_put(h, ev);
}

/* The events kept during the run, to the model as they came. */
static void
redo_give_kept(struct redo *r)
{
	const struct proto_rec	*h;
	struct proto_ev		 ev;
	size_t			 at;

	for (at = 0; at < r->q_used; at += REDO_QALIGN(sizeof *h + h->len)) {
		h = (const struct proto_rec *)(const void *)(r->q + at);
		proto_rec_get(h, &ev);
		model_apply(r->m, &ev);
	}
	r->q_used = 0;
	redo_give_global(r, NULL);
}

/* An event decoded: 1 if the model is to have it now. */
int
redo_event(struct redo *r, const struct proto_ev *ev)
{
	if (!r->on)
		return 1;
	spill_event(r->sp, ev);
	if (ev->time > r->newest)
		r->newest = ev->time;
	if (r->state == REDO_IDLE) {
		r->since_ckpt++;
		return 1;
	}
	if (r->state == REDO_RUN && model_late_global_kind(ev) &&
	    redo_order(ev->time, ev->off, r->given_t, r->given_off) &&
	    redo_keep_global(r, ev))
		return 0;
	if (!r->arr_any || redo_order(ev->time, ev->off, r->arr_t,
	    r->arr_off)) {
		r->arr_t = ev->time;
		r->arr_off = ev->off;
	}
	r->arr_any = 1;
	if (r->state == REDO_RUN)
		redo_keep(r, ev);
	return 0;
}

/*
 * A correction that cannot go on (its history cannot be read, a
 * checkpoint not read back): the model as shown before it began, what
 * came since that was kept applied late, then as redo_give_up().  What
 * only the files held (the late events it was for, the events the model
 * held back) is lost; without this the model was left where the
 * correction had got to (from the start: no event at all).
 */
static void
redo_fail(struct redo *r, const char *why)
{
	if (r->fb_ok && ckpt_restore(r->fb, 0, r->m) == 0) {
		redo_unlend(r);
		r->state = REDO_IDLE;
		r->st.busy = 0;
		r->run_fix = 0;
		r->fb_ok = 0;
		model_late_defer(r->m, 0, 0, 0);
		redo_give_kept(r);
	}
	redo_give_up(r, why);
}

/* Before a correction: the model as shown, to put back if it fails. */
static void
redo_fallback(struct redo *r)
{
	struct ckpt_pos	pos;

	ckpt_keep(r->fb, 0, 0);
	redo_pos(r, &pos);
	r->fb_ok = ckpt_save(r->fb, r->m, &pos) == 0;
}

/*
 * Go on from the last checkpoint before (t, off) (fix: after a late event,
 * the later ones are false) and apply the history again.
 */
static void
redo_run(struct redo *r, uint64_t t, int fix)
{
	const struct ckpt_pos	*p;
	int			 i, o, again;

	redo_unlend(r);
	r->here = 0;
	if (fix && !r->run_fix && r->state == REDO_IDLE)
		redo_fallback(r);
	o = redo_oldest(r);
	i = ckpt_find(r->ck, t);
	if (o < 0) {
		redo_fail(r, "history lost");
		return;
	}
	/* A run begun again for what came during it, some older than the
	 * oldest checkpoint left: those are read from the files, late. */
	again = fix && r->state == REDO_RUN && i < o;
	if (i < o)
		i = o;
	/* What was shown stays shown: released as far again. */
	if (r->m->now > r->horizon && r->state != REDO_VIEW)
		r->horizon = r->m->now;
	if (ckpt_restore(r->ck, i, r->m) != 0) {
		redo_fail(r, "a checkpoint could not be read back");
		return;
	}
	if (fix)
		ckpt_keep(r->ck, 0, i + 1);
	p = ckpt_at(r->ck, i);
	model_late_defer(r->m, 0, 0, 0);
	redo_aside_again(r, p);
	if (again) {
		r->gq_used = 0;		/* the files hold them */
		if (redo_catch_up(r, p) != 0) {
			redo_fail(r, spill_error(r->sp));
			return;
		}
	} else
		redo_give_global(r, p);
	r->run_off = r->committed;
	spill_pin(r->sp, p->time);
	if (spill_seek(r->sp, p->time, p->off) != 0) {
		redo_fail(r, spill_error(r->sp));
		return;
	}
	if (fix)
		r->run_at = source_now();
	r->busy_since = source_now();
	r->waiting = 0;
	if (fix && !r->run_fix) {
		r->run_fix = 1;
		r->chain_at = r->run_at;
		r->run_late = t;
	} else if (fix && t < r->run_late)
		r->run_late = t;
	r->state = REDO_RUN;
	r->tail = 0;
	/* What comes meanwhile must not be older than where it starts. */
	r->given_t = p->time;
	r->given_off = p->off;
	r->arr_any = 0;
	r->q_used = 0;		/* the files hold them now */
	r->q_over = 0;
	r->since_ckpt = 0;
	r->ckpt_time = p->time;
	r->st.busy = 1;
}

/* The run is over: events go to the model as they come again. */
static void
redo_done(struct redo *r, uint64_t wall)
{
	redo_unlend(r);
	r->state = REDO_IDLE;
	r->st.busy = 0;
	spill_pin(r->sp, UINT64_MAX);
	spill_rest(r->sp);
	r->fb_ok = 0;
	if (r->run_fix) {
		r->last_run_ns = wall > r->chain_at ? wall - r->chain_at : 0;
		r->done_at = wall;
		r->st.corrections++;
		r->st.back_ns = r->newest > r->run_late ? r->newest -
		    r->run_late : 0;
		r->st.corrected_at = wall != 0 ? wall : 1;
		r->run_fix = 0;
	}
	redo_defer(r);
}

/*
 * Apply the history until budget ns have passed since start, the loop's
 * slice (all of it: budget 0): 1 while there is more.
 */
static int
redo_slice_in(struct redo *r, uint64_t start, uint64_t budget)
{
	const struct proto_ev *const *ev;
	size_t		 n, k;
	int		 older;

	for (;;) {
		n = redo_take(r, &ev);
		if (n == 0 && spill_failed(r->sp)) {
			redo_fail(r, spill_error(r->sp));
			return 0;
		}
		if (n == 0) {
			/* What came meanwhile, older than where the run
			 * is: kept, it ends the run as late events that
			 * wait for the next correction; too much to keep,
			 * the run starts again (without a checkpoint left
			 * for it, reads on: what came older than here is
			 * lost, see redo_run_pin()). */
			older = redo_came_older(r);
			if (older && !r->q_over) {
				redo_defer(r);
				r->tail = 1;
				redo_give_kept(r);
				return 0;
			}
			if (older && budget > 0 && source_now() < r->run_at +
			    redo_gap(r)) {
				r->waiting = 1;
				return 1;
			}
			if (r->q_over)
				r->st.overflowed++;
			if (older && redo_oldest(r) >= 0) {
				redo_run(r, r->arr_t, 1);
				if (r->state != REDO_RUN)
					return 0;
				continue;
			}
			if (r->q_over && spill_more(r->sp)) {
				/* Too much came to keep: read it. */
				r->arr_any = 0;
				r->q_used = 0;
				r->q_over = 0;
				if (spill_refresh(r->sp) != 0) {
					redo_fail(r, spill_error(r->sp));
					return 0;
				}
				continue;
			}
			/* In order after the run's: as if they came now
			 * (any older than what the tail released, left to
			 * the next correction as the late events they
			 * are, not counted late where they land). */
			r->tail = 1;
			redo_defer(r);
			redo_give_kept(r);
			return 0;
		}
		r->st.reapplied += n;
		r->given_t = ev[n - 1]->time;
		r->given_off = ev[n - 1]->off;
		/* Those up to the horizon here; the newer below. */
		k = r->tail ? 0 : model_apply_sorted_p(r->m, ev, n,
		    r->horizon == UINT64_MAX ? UINT64_MAX : r->horizon + 1);
		r->since_ckpt += k;
		if (k < n) {
			/* The newest go through the buffer, as events
			 * arriving do, for those still to come; late ones
			 * among what comes then are left to us. */
			r->tail = 1;
			redo_defer(r);
			for (; k < n; k++)
				model_apply(r->m, ev[k]);
		}
		if (redo_due(r))
			redo_checkpoint(r);
		redo_run_pin(r);
		if (budget > 0 && source_now() - start >= budget)
			return 1;
	}
}

/* redo_slice_in(), its time counted: how fast the history goes again. */
static int
redo_slice(struct redo *r, uint64_t start, uint64_t budget)
{
	uint64_t	t0 = source_now();
	int		more = redo_slice_in(r, start, budget);

	r->st.reapply_ns += source_now() - t0;
	return more;
}

/* The history up to t applied; the files left at the first event not. */
static int
redo_until(struct redo *r, uint64_t t)
{
	size_t		 n, k;

	redo_unlend(r);
	while ((n = spill_next_p(r->sp, r->ev, REDO_N)) > 0) {
		k = model_apply_sorted_p(r->m, r->ev, n, t);
		if (k < n)
			return spill_seek(r->sp, r->ev[k]->time, r->ev[k]->off);
	}
	return 0;
}

/* Late events left to us since last asked: a run to put them back. */
static int
redo_late(struct redo *r, int now)
{
	uint64_t	t, off;

	if (r->state != REDO_IDLE || (!now && model_late_peek(r->m) &&
	    source_now() < redo_next_at(r)) ||
	    !model_late_take(r->m, &t, &off))
		return 0;
	redo_run(r, t, 1);
	return 1;
}

/*
 * After the bytes of a read are decoded (up to stream offset upto): write
 * them, put late events back, keep a checkpoint now and then.  wall: now;
 * newest: the newest event time so far.
 */
void
redo_commit(struct redo *r, uint64_t upto, uint64_t wall, uint64_t newest)
{
	int	i;

	r->committed = upto;
	if (!r->on) {
		spill_commit(r->sp, upto);
		return;
	}
	/* Late events wait for a correction: the files it will read from
	 * the oldest checkpoint on stay until it runs, over the bound. */
	if (r->state == REDO_IDLE && model_late_peek(r->m) &&
	    (i = redo_oldest(r)) >= 0)
		spill_pin(r->sp, ckpt_at(r->ck, i)->time);
	if (r->state == REDO_RUN)
		redo_run_pin(r);
	if (spill_commit(r->sp, upto) != 0) {
		/* The files are gone (spill_fail()): nothing to go over
		 * again, and a correction under way gives way to the model
		 * as shown before it (finishing it from no files left the
		 * model at its checkpoint: /tmp full, the figures gone). */
		r->st.error = spill_error(r->sp);
		if (r->state == REDO_RUN && r->fb_ok)
			redo_fail(r, NULL);
		else
			redo_off(r);
		return;
	}

	if (r->ns == REDO_SAMPLES) {
		r->s0 = (r->s0 + 1) % REDO_SAMPLES;
		r->ns--;
	}
	r->sample[(r->s0 + r->ns++) % REDO_SAMPLES] =
	    (struct redo_sample){ wall, newest };
	if (redo_late(r, 0))
		return;
	if (r->state == REDO_IDLE) {
		/* Those the history no longer reaches go. */
		if ((i = redo_oldest(r)) > 0) {
			ckpt_keep(r->ck, i, ckpt_count(r->ck));
			redo_aside_prune(r);
		}
		/* Not while a late event waits: the model lacks it. */
		if (!model_late_peek(r->m) && redo_due(r))
			redo_checkpoint(r);
		redo_defer(r);
	}
}

/* Each pass of the loop: release what came a while ago; a slice of a
 * run. */
void
redo_tick(struct redo *r, uint64_t wall, uint64_t budget)
{
	struct redo_sample	*s;

	if (!r->on)
		return;
	while (r->ns > 0) {
		s = &r->sample[r->s0];
		if (s->wall + REDO_HOLD_NS > wall)
			break;
		if (s->time > r->horizon)
			r->horizon = s->time;
		r->s0 = (r->s0 + 1) % REDO_SAMPLES;
		r->ns--;
	}
	if (r->state == REDO_RUN && !redo_slice(r, wall, budget))
		redo_done(r, wall);
	/* Held in the past, and late events came that belong there. */
	if (r->state == REDO_VIEW && r->arr_any && r->arr_t < r->view_ns &&
	    wall >= r->run_at + redo_gap(r)) {
		r->run_at = wall;
		(void)redo_hold(r, r->view_ns);
	}
	if (r->state == REDO_IDLE) {
		model_release_until(r->m, r->horizon);
		(void)redo_late(r, 0);
	}
}

int
redo_busy(const struct redo *r)
{
	return r != NULL && r->state == REDO_RUN;
}

/*
 * How long the model has been on its way back to now, going over the
 * history again (0: it is not; nor while it waits to start again, when it
 * holds all it had shown).
 */
uint64_t
redo_busy_ns(const struct redo *r, uint64_t now)
{
	if (!redo_busy(r) || r->waiting || now < r->busy_since)
		return 0;
	return now - r->busy_since + 1;
}

/* Milliseconds until redo_tick() has something to release, or -1. */
int
redo_wait_ms(const struct redo *r, uint64_t wall)
{
	uint64_t	at;

	if (r == NULL || !r->on)
		return -1;
	if (r->state == REDO_RUN && r->waiting) {
		at = r->run_at + redo_gap(r);
		return at <= wall ? 0 : (int)((at - wall + 999999) / 1000000);
	}
	if (r->state == REDO_IDLE && model_late_peek(r->m)) {
		at = redo_next_at(r);
		return at <= wall ? 0 : (int)((at - wall + 999999) / 1000000);
	}
	if (r->state == REDO_RUN)
		return 0;
	if (r->ns == 0)
		return -1;
	at = r->sample[r->s0].wall + REDO_HOLD_NS;
	return at <= wall ? 0 : (int)((at - wall + 999999) / 1000000);
}

/* A run under way, to its end now: figures printed or drawn are never
 * those of a model gone back. */
void
redo_settle(struct redo *r)
{
	if (r->state == REDO_RUN) {
		(void)redo_slice(r, 0, 0);
		redo_done(r, source_now());
	}
}

/*
 * The source ended, or a session: whatever run there is, whole, and then
 * all the model holds, late events put back.
 */
void
redo_finish(struct redo *r)
{
	if (r->state == REDO_VIEW)
		redo_now(r);
	r->horizon = UINT64_MAX;
	for (;;) {
		if (r->state == REDO_RUN) {
			(void)redo_slice(r, 0, 0);
			redo_done(r, source_now());
		}
		model_flush(r->m);
		if (!r->on || !redo_late(r, 1))
			break;
	}
}

/*
 * The model at t, held there: from the last checkpoint before it, the
 * history up to it.  Events that came while held and older than a
 * checkpoint make it false: it goes first.
 */
static int
redo_hold(struct redo *r, uint64_t t)
{
	if (r->state == REDO_VIEW && r->arr_any)
		ckpt_keep(r->ck, 0, ckpt_find(r->ck, r->arr_t) + 1);
	r->state = REDO_IDLE;
	redo_run(r, r->range ? r->range_from : t, 0);
	if (r->state != REDO_RUN)
		return -1;
	if (r->range) {
		/* A range: its window starts at its start. */
		(void)redo_until(r, r->range_from);
		model_range_begin(r->m, r->range_from, t);
	}
	(void)redo_until(r, t);
	r->state = REDO_VIEW;
	r->view_ns = t;
	r->st.busy = 0;
	spill_rest(r->sp);
	/* The stream goes on to disk; the newest checkpoint stays. */
	spill_pin(r->sp, ckpt_at(r->ck, ckpt_count(r->ck) - 1)->time);
	return 0;
}

/*
 * Hold the model at t (every event before it applied), within the
 * history.  0, or -1 with *why.
 */
int
redo_view(struct redo *r, uint64_t t, const char **why)
{
	int	i;

	if (!r->on) {
		*why = "no history is kept of this source (--history)";
		return -1;
	}
	/* Late events put back first: the checkpoints are then true. */
	redo_settle(r);
	if (redo_late(r, 1))
		redo_settle(r);
	if ((i = redo_oldest(r)) < 0 || t < ckpt_at(r->ck, i)->time) {
		*why = "that is before the history kept (--history)";
		return -1;
	}
	r->range = 0;
	if (redo_hold(r, t) != 0) {
		*why = "the history could not be read";
		return -1;
	}
	return 0;
}

/*
 * A range [from, to) of the history: the model at from, its run window
 * reset there (model_range_begin()), the events up to to; held at to.
 */
int
redo_range(struct redo *r, uint64_t from, uint64_t to, const char **why)
{
	if (redo_view(r, from, why) != 0)
		return -1;
	r->range = 1;
	r->range_from = from;
	if (redo_hold(r, to) != 0) {
		r->range = 0;
		*why = "the history could not be read";
		return -1;
	}
	return 0;
}

/* Back to now: from the newest checkpoint that still holds, catching up. */
void
redo_now(struct redo *r)
{
	uint64_t	t = UINT64_MAX;

	if (r->state != REDO_VIEW)
		return;
	r->range = 0;
	if (r->arr_any)
		t = r->arr_t;
	r->state = REDO_IDLE;
	redo_run(r, t, r->arr_any);
}

/* The history on disk, for readers with cursors of their own (the raw
 * events). */
const struct spill *
redo_spill(const struct redo *r)
{
	return r->sp;
}

void
redo_stats(const struct redo *r, struct redo_stats *st)
{
	struct spill_stats	ss;

	*st = r->st;
	st->on = r->on;
	st->viewing = r->state == REDO_VIEW;
	st->view_ns = r->view_ns;
	st->checkpoints = ckpt_count(r->ck);
	spill_stats(r->sp, &ss);
	st->bytes = ss.bytes;
	st->first = ss.first;
	st->last = ss.last;
	if (st->error == NULL)
		st->error = spill_error(r->sp);
}
