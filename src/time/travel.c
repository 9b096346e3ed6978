/*
 * travel.c: going anywhere in a file's time, for a model and its reader.
 *
 * The first pass reads the whole file once through the model, a slice at
 * a time (travel_pass()), and keeps a checkpoint of the model every so
 * many events (ckpt.c).  Its reading (framing, ordering, decoding) runs on
 * a thread of its own through feed.c, as --batch's does, so the model, the
 * timeline and the drawing have this thread: the reader is the feed's
 * until the pass is over, and nothing else here touches it meanwhile.
 * Going to time t (travel_seek()) copies back the last checkpoint before
 * t, moves the reader there, and applies the events up to t: at most one
 * interval of events, whatever t is.  The
 * model then holds exactly the events before t, as a replay from the start
 * stopped at t would (tests/time checks that at random times on every log).
 */
#include <stdlib.h>
#include <string.h>

#include "evtop.h"
#include "model/model.h"
#include "source/source.h"
#include "time/ckpt.h"
#include "time/travel.h"

#define TRAVEL_N	128		/* events applied at once */
#ifndef TRAVEL_THREAD
#define TRAVEL_THREAD	1		/* 0: the first pass on this thread */
#endif

struct travel {
	struct reader	*rd;
	struct model	*m;
	struct ckpt	*ck;
	uint64_t	 every;		/* events between checkpoints */
	uint64_t	 read;		/* events read in the pass */
	uint64_t	 next_ck;	/* take one when read reaches this */
	int		 passed;	/* the first pass is over */
	int		 failed;	/* checkpoints could not be written */
	uint64_t	 first, last;	/* event times seen in the pass */
	int		 any;
	struct feed	*fd;		/* the first pass's, until it is over */
	const struct proto_ev *fev;	/* its slab: fev[fi..fn) not applied */
	size_t		 fi, fn;
	struct proto_ev	 ev[TRAVEL_N];
};

/* The model is new (its header applied) and the reader at its start. */
struct travel *
travel_new(struct reader *rd, struct model *m, uint64_t every, char **cause)
{
	struct travel	*tr;
	struct ckpt_pos	 pos = { 0, 0, 0, 0 };

	if ((tr = calloc(1, sizeof *tr)) == NULL) {
		source_cause(cause, "out of memory");
		return NULL;
	}
	if ((tr->ck = ckpt_new(cause)) == NULL) {
		free(tr);
		return NULL;
	}
	tr->rd = rd;
	tr->m = m;
	tr->every = every > 0 ? every : TRAVEL_EVERY;
	tr->next_ck = tr->every;
	if (ckpt_save(tr->ck, m, &pos) < 0)
		tr->failed = 1;
	return tr;
}

void
travel_free(struct travel *tr)
{
	if (tr == NULL)
		return;
	feed_free(tr->fd);
	ckpt_free(tr->ck);
	free(tr);
}

/* After the events up to last: where the reader would go on from (what
 * reader_tell() says, the feed's thread reading ahead of us). */
static void
travel_checkpoint(struct travel *tr, const struct proto_ev *last)
{
	struct ckpt_pos	pos;
	int		rc;

	pos.time = last->time;
	pos.off = last->off + 1;
	pos.events = tr->read;
	pos.aside = 0;
	if ((rc = ckpt_save(tr->ck, tr->m, &pos)) < 0)
		tr->failed = 1;
	else if (rc == 1)
		tr->every *= 2;
	tr->next_ck = tr->read + tr->every;
}

/* The first pass's next events: 0 at the end, where the reader is ours
 * again (the feed's thread joined). */
static size_t
travel_take(struct travel *tr, const struct proto_ev **ev)
{
	if (tr->fi == tr->fn) {
		if (tr->fd == NULL)
			tr->fd = feed_new(tr->rd, TRAVEL_THREAD);
		tr->fi = 0;
		if (tr->fd != NULL)
			tr->fn = feed_next(tr->fd, &tr->fev);
		else {
			/* Out of memory for the feed: read here. */
			tr->fn = reader_next_n(tr->rd, tr->ev, TRAVEL_N);
			tr->fev = tr->ev;
		}
		if (tr->fn == 0) {
			feed_free(tr->fd);
			tr->fd = NULL;
			return 0;
		}
	}
	*ev = tr->fev + tr->fi;
	return tr->fn - tr->fi;
}

/*
 * Read and apply at most about max events of the first pass, handing
 * each batch to each(arg, ev, n) too when it is not NULL.  Returns 1 once
 * the file is done.
 */
int
travel_pass(struct travel *tr, size_t max, travel_each_fn *each, void *arg)
{
	const struct proto_ev *ev;
	size_t	n, done = 0;

	while (!tr->passed && done < max) {
		if ((n = travel_take(tr, &ev)) == 0) {
			tr->passed = 1;
			break;
		}
		/* A few at a time: each() reads them again while they are
		 * in the cache. */
		if (n > TRAVEL_N)
			n = TRAVEL_N;
		if (n > tr->next_ck - tr->read)
			n = (size_t)(tr->next_ck - tr->read);
		if (!tr->any) {
			tr->first = ev[0].time;
			tr->any = 1;
		}
		if (ev[n - 1].time > tr->last)
			tr->last = ev[n - 1].time;
		(void)model_apply_until(tr->m, ev, n, UINT64_MAX);
		if (each != NULL)
			each(arg, ev, n);
		tr->fi += n;
		tr->read += n;
		done += n;
		if (tr->read >= tr->next_ck)
			travel_checkpoint(tr, &ev[n - 1]);
	}
	return tr->passed;
}

int
travel_passed(const struct travel *tr)
{
	return tr->passed;
}

/* How far the first pass is, 0..1, by events. */
double
travel_progress(const struct travel *tr)
{
	uint64_t	total = reader_events(tr->rd);

	if (tr->passed)
		return 1;
	return total > 0 ? (double)tr->read / (double)total : 0;
}

/* The first and last event times the pass saw. */
void
travel_span(const struct travel *tr, uint64_t *first, uint64_t *last)
{
	*first = tr->any ? tr->first : 0;
	*last = tr->any ? tr->last : 0;
}

int
travel_checkpoints(const struct travel *tr, uint64_t *bytes)
{
	if (bytes != NULL)
		*bytes = ckpt_stored(tr->ck);
	return ckpt_count(tr->ck);
}

/*
 * Make the model hold exactly the events before t, and leave the reader
 * at the first event at or after t.  0, or -1 when a checkpoint could not
 * be read back (the model is then new and empty: the caller starts
 * again).
 */
int
travel_seek(struct travel *tr, uint64_t t)
{
	const struct ckpt_pos	*pos;
	int			 i;

	if (!tr->passed)
		return -1;	/* the reader is the first pass's */
	if ((i = ckpt_find(tr->ck, t)) < 0 ||
	    ckpt_restore(tr->ck, i, tr->m) != 0)
		return -1;
	pos = ckpt_at(tr->ck, i);
	if (reader_seek(tr->rd, pos->time, pos->off) != 0)
		return -1;
	return travel_apply(tr, t);
}

/*
 * Apply the events from the reader's place up to t, and leave it at the
 * first event at or after t.  (After travel_seek(t0) and a
 * model_range_begin(), for a range [t0, t).)
 */
int
travel_apply(struct travel *tr, uint64_t t)
{
	const struct proto_ev	*stop = NULL;
	size_t			 n, k;

	while (stop == NULL && (n = reader_next_n(tr->rd, tr->ev,
	    TRAVEL_N)) > 0) {
		k = model_apply_until(tr->m, tr->ev, n, t);
		if (k < n)
			stop = &tr->ev[k];
	}
	/* Back to the first event not applied (none: the end). */
	if (stop != NULL && reader_seek(tr->rd, stop->time, stop->off) != 0)
		return -1;
	return 0;
}
