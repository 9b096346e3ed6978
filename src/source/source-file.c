/*
 * source-file.c: replay of a recorded eventlog, paced by its timestamps.
 *
 * The events come from reader.c in time order.  An event of time t is due
 * at anchor_wall + (t - anchor_ev) / speed; every change of speed, a pause
 * and its end move the anchor to the last event delivered and now, so the
 * replay goes on from where it is.  Speed 0 delivers as fast as the loop
 * takes them.  The next events are read ahead, REPLAY_N at a time (one
 * call to the reader for many events: the replay at `*` is the reader's
 * pace), and held until due (their borrowed pointers stay valid: the
 * reader is not called again before the last is handed over).
 */
#include <stdlib.h>
#include <string.h>

#include "source/source.h"

#define REPLAY_SPEED_MIN	(1.0 / 64)
#define REPLAY_SPEED_MAX	1024.0
#define REPLAY_N		256

struct replay {
	struct reader	*m;
	struct proto_ev	 evs[REPLAY_N];	/* read ahead */
	size_t		 i, n;		/* evs[i..n) not yet delivered */
	struct proto_ev	*ev;		/* evs[i], when have */
	int		 have;
	int		 done;
	int		 paused;
	int		 to_end;	/* jumping to the end */
	double		 speed;		/* 0: as fast as possible */
	double		 last_speed;	/* the speed before max */
	int		 anchored;
	uint64_t	 anchor_wall;	/* monotonic ns */
	uint64_t	 anchor_ev;	/* event ns due at anchor_wall */
	uint64_t	 pos;		/* time of the last event delivered */
	uint64_t	 delivered;
};

struct replay *
replay_open(const char *path, double speed, char **cause)
{
	struct replay	*rp;

	if ((rp = calloc(1, sizeof *rp)) == NULL) {
		source_cause(cause, "out of memory");
		return NULL;
	}
	if ((rp->m = reader_open(path, cause)) == NULL) {
		free(rp);
		return NULL;
	}
	rp->speed = speed < 0 ? 1 : speed;
	rp->last_speed = rp->speed > 0 ? rp->speed : 1;
	return rp;
}

void
replay_free(struct replay *rp)
{
	if (rp == NULL)
		return;
	reader_free(rp->m);
	free(rp);
}

const struct proto_dec *
replay_dec(const struct replay *rp)
{
	return reader_dec(rp->m);
}

const char *
replay_error(const struct replay *rp)
{
	return reader_error(rp->m);
}

int
replay_done(const struct replay *rp)
{
	return rp->done;
}

static void
replay_anchor(struct replay *rp, uint64_t now)
{
	rp->anchor_wall = now;
	rp->anchor_ev = rp->delivered > 0 ? rp->pos :
	    (rp->have ? rp->ev->time : 0);
	rp->anchored = 1;
}

/* When the held event is due, monotonic ns. */
static uint64_t
replay_due(const struct replay *rp)
{
	double	dt;

	if (rp->ev->time <= rp->anchor_ev)
		return rp->anchor_wall;
	dt = (double)(rp->ev->time - rp->anchor_ev) / rp->speed;
	if (dt > 1e18)
		return UINT64_MAX;
	return rp->anchor_wall + (uint64_t)dt;
}

/* Make sure an event is held; 0 at the end. */
static int
replay_fill(struct replay *rp, uint64_t now)
{
	if (rp->have)
		return 1;
	if (rp->done)
		return 0;
	if (rp->i == rp->n) {
		rp->i = 0;
		if ((rp->n = reader_next_n(rp->m, rp->evs, REPLAY_N)) == 0) {
			rp->done = 1;
			rp->to_end = 0;
			return 0;
		}
	}
	rp->ev = &rp->evs[rp->i++];
	rp->have = 1;
	if (!rp->anchored || rp->ev->time < rp->pos) {
		/* The first event, or time went back (a new session). */
		rp->anchor_wall = now;
		rp->anchor_ev = rp->ev->time;
		rp->anchored = 1;
	}
	return 1;
}

/*
 * The events due now, at *evs, and how many (0: none yet): paced, one at
 * a time; as fast as possible, all read ahead (the loop's cost per event
 * is the replay's pace then).  They last until the next call.
 */
size_t
replay_take(struct replay *rp, uint64_t now, const struct proto_ev **evs)
{
	size_t	k = 1;

	if (rp->paused && !rp->to_end)
		return 0;
	if (!replay_fill(rp, now))
		return 0;
	if (!rp->to_end && rp->speed > 0) {
		if (replay_due(rp) > now)
			return 0;
	} else {
		/* The held event and the rest read with it. */
		k += rp->n - rp->i;
		rp->i = rp->n;
	}
	*evs = rp->ev;
	rp->have = 0;
	rp->pos = rp->ev[k - 1].time;
	rp->delivered += k;
	return k;
}

/* Milliseconds until the next event is due; -1 if none will be. */
int
replay_timeout_ms(const struct replay *rp, uint64_t now)
{
	uint64_t	due, ms;

	if (rp->done || (rp->paused && !rp->to_end))
		return -1;
	if (!rp->have || rp->to_end || rp->speed == 0)
		return 0;
	due = replay_due(rp);
	if (due <= now)
		return 0;
	ms = (due - now + 999999) / 1000000;
	return ms > 60000 ? 60000 : (int)ms;
}

void
replay_pause(struct replay *rp, uint64_t now)
{
	rp->paused = !rp->paused;
	if (!rp->paused)
		replay_anchor(rp, now);
}

/* Held where it is, until resumed (P). */
void
replay_hold(struct replay *rp)
{
	rp->paused = 1;
	rp->to_end = 0;
}

void
replay_speed(struct replay *rp, double speed, uint64_t now)
{
	if (speed > 0) {
		if (speed < REPLAY_SPEED_MIN)
			speed = REPLAY_SPEED_MIN;
		if (speed > REPLAY_SPEED_MAX)
			speed = REPLAY_SPEED_MAX;
		rp->last_speed = speed;
	}
	rp->speed = speed;
	replay_anchor(rp, now);
}

void
replay_faster(struct replay *rp, uint64_t now)
{
	if (rp->speed > 0)
		replay_speed(rp, rp->speed * 2, now);
}

void
replay_slower(struct replay *rp, uint64_t now)
{
	replay_speed(rp, rp->speed > 0 ? rp->speed / 2 : rp->last_speed,
	    now);
}

/* Max speed, or back to the speed before. */
void
replay_max(struct replay *rp, uint64_t now)
{
	replay_speed(rp, rp->speed > 0 ? 0 : rp->last_speed, now);
}

/* As fast as it goes, and going: what a pass over the whole file gives. */
int
replay_asap(const struct replay *rp)
{
	return (rp->speed == 0 || rp->to_end) && !rp->paused && !rp->done;
}

void
replay_to_end(struct replay *rp, uint64_t now)
{
	if (!rp->done)
		rp->to_end = 1;
}

/* The reader, for time travel (src/time/travel.c). */
struct reader *
replay_reader(struct replay *rp)
{
	return rp->m;
}

/*
 * The reader was moved to the first event at or after t: go on from
 * there, held at t until the replay is resumed (P) if hold.
 */
void
replay_moved(struct replay *rp, uint64_t t, int hold)
{
	rp->i = rp->n = 0;	/* what was read ahead is the old place's */
	rp->ev = NULL;
	rp->have = 0;
	rp->done = 0;
	rp->to_end = 0;
	rp->paused = hold;
	rp->anchored = 0;
	rp->pos = t;
	rp->delivered = 1;	/* resuming anchors at t, not at 0 */
}

void
replay_status(const struct replay *rp, struct evtop_status *st)
{
	uint64_t	events = reader_events(rp->m), done = reader_done(rp->m);

	st->speed = rp->to_end ? 0 : rp->speed;
	st->paused = rp->paused && !rp->done;
	st->file_size = reader_size(rp->m);
	/* Events come in time order, not file order: the bytes replayed are
	 * the file's share of the events delivered. */
	if (rp->done || (events > 0 && done >= events))
		st->file_pos = st->file_size;
	else if (events == 0)
		st->file_pos = 0;
	else
		st->file_pos = (uint64_t)((double)st->file_size *
		    (double)done / (double)events);
	st->file_time = rp->pos;
}
