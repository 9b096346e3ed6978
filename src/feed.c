/*
 * feed.c: a file's events, framed and put in time order by order.c on a
 * thread of their own, decoded here for `evtop --batch`.
 *
 * Why a thread, where evtop otherwise has none (STYLE.md): replaying a
 * file is the one job with more work than one core does at the rate the
 * model issue asks (10 times the Haskell decoder's bare decode), and it
 * splits in two with little shared: framing and merging the capabilities'
 * streams, about a third of a replay, run on one core, while decoding and
 * the model run on the other.  The reader hands over 24-byte entries
 * (order_ent), not decoded events: 176-byte events written on one core
 * and read on the other cost more in cache traffic than they saved.
 *
 * Ownership keeps it simple: once feed_new() returns, the reader thread
 * alone touches the order, but for order_decode(), which reads only what
 * order_open() set up.  The caller alone touches the model.  They share
 * FEED_SLABS slabs of FEED_N entries and two counters under one mutex,
 * and a slab is in one hand at a time: the reader fills slab
 * `filled % FEED_SLABS` while fewer than FEED_SLABS are unreleased, the
 * caller reads slab `taken % FEED_SLABS` and releases it when done.  After
 * feed_free() the order is the caller's again (for order_error()).
 *
 * Without the thread (feed_new(o, 0), or when none can be started) the
 * caller fills each slab itself: the same events, in the same slabs.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "evtop.h"

#ifndef FEED_N
#define FEED_N		4096		/* entries in a slab: 24 KB */
#endif
#define FEED_SLABS	8
#define FEED_EV		64		/* events decoded at once */

struct feed_slab {
	struct order_ent ent[FEED_N];
	size_t		 n;		/* 0: the order has no more */
};

struct feed {
	struct order	*ord;
	int		 threaded;
	pthread_t	 thread;
	pthread_mutex_t	 mu;
	pthread_cond_t	 filled_cv;	/* the reader filled a slab */
	pthread_cond_t	 room_cv;	/* the caller released one */
	uint64_t	 filled, taken;	/* slabs, counted since the start */
	int		 stop;		/* the caller wants no more */
	struct feed_slab slab[FEED_SLABS];

	/* The caller's. */
	struct feed_slab *cur;		/* the slab held, or NULL */
	size_t		 pos;		/* its next entry */
	int		 end;
	struct proto_ev	 ev[FEED_EV];
	char		 error[128];	/* the first event that did not decode */
};

static void *
feed_reader(void *arg)
{
	struct feed	 *f = arg;
	struct feed_slab *s;
	size_t		  n;

	for (;;) {
		pthread_mutex_lock(&f->mu);
		/* Full: wait for half the slabs, not one, so that the two
		 * threads do not wake each other for every slab. */
		if (f->filled - f->taken == FEED_SLABS)
			while (f->filled - f->taken > FEED_SLABS / 2 &&
			    !f->stop)
				pthread_cond_wait(&f->room_cv, &f->mu);
		if (f->stop) {
			pthread_mutex_unlock(&f->mu);
			return NULL;
		}
		s = &f->slab[f->filled % FEED_SLABS];
		pthread_mutex_unlock(&f->mu);

		n = s->n = order_next_ents(f->ord, s->ent, FEED_N);

		pthread_mutex_lock(&f->mu);
		f->filled++;
		pthread_cond_signal(&f->filled_cv);
		pthread_mutex_unlock(&f->mu);
		if (n == 0)
			return NULL;
	}
}

/* Start reading o; threaded = 0 reads in feed_next() instead. */
struct feed *
feed_new(struct order *o, int threaded)
{
	struct feed	*f;

	if ((f = calloc(1, sizeof *f)) == NULL)
		return NULL;
	f->ord = o;
	if (threaded && pthread_mutex_init(&f->mu, NULL) == 0) {
		if (pthread_cond_init(&f->filled_cv, NULL) == 0) {
			if (pthread_cond_init(&f->room_cv, NULL) == 0) {
				if (pthread_create(&f->thread, NULL,
				    feed_reader, f) == 0) {
					f->threaded = 1;
					return f;
				}
				pthread_cond_destroy(&f->room_cv);
			}
			pthread_cond_destroy(&f->filled_cv);
		}
		pthread_mutex_destroy(&f->mu);
	}
	return f;
}

/* The next slab of entries, the one before released; NULL at the end. */
static struct feed_slab *
feed_slab_next(struct feed *f)
{
	struct feed_slab *s;

	if (!f->threaded) {
		s = &f->slab[0];
		s->n = order_next_ents(f->ord, s->ent, FEED_N);
		return s->n > 0 ? s : NULL;
	}
	pthread_mutex_lock(&f->mu);
	if (f->cur != NULL && ++f->taken + FEED_SLABS / 2 == f->filled)
		pthread_cond_signal(&f->room_cv);
	while (f->filled == f->taken)
		pthread_cond_wait(&f->filled_cv, &f->mu);
	s = &f->slab[f->taken % FEED_SLABS];
	pthread_mutex_unlock(&f->mu);
	return s->n > 0 ? s : NULL;
}

/*
 * The next events, decoded, at *ev, and how many; 0 at the end.  They are
 * not to be read after the next call.  An event whose fields do not parse
 * is left out and the first such is kept for feed_error().
 */
size_t
feed_next(struct feed *f, const struct proto_ev **ev)
{
	const char	*why;
	size_t		 k = 0;
	int		 had = f->error[0] != '\0';

	while (k == 0 && !f->end) {
		if (f->cur == NULL || f->pos == f->cur->n) {
			f->cur = feed_slab_next(f);
			f->pos = 0;
			if (f->cur == NULL) {
				f->end = 1;
				break;
			}
		}
		for (; k < FEED_EV && f->pos < f->cur->n; f->pos++) {
			why = order_decode(f->ord, &f->cur->ent[f->pos],
			    &f->ev[k]);
			if (why == NULL)
				k++;
			else if (f->error[0] == '\0')
				snprintf(f->error, sizeof f->error,
				    "byte %llu: %s", (unsigned long long)
				    f->cur->ent[f->pos].off, why);
		}
		if (order_shrank(f->ord)) {
			/* Some of these may have been read as zeros, and
			 * an error found in them is theirs. */
			if (!had || f->error[0] == '\0')
				snprintf(f->error, sizeof f->error,
				    "the file shrank while read");
			f->end = 1;
			k = 0;
		}
	}
	*ev = f->ev;
	return k;
}

/* Why an event did not decode, or NULL. */
const char *
feed_error(const struct feed *f)
{
	return f->error[0] != '\0' ? f->error : NULL;
}

/* Stop the reader if it still runs; the order is the caller's again. */
void
feed_free(struct feed *f)
{
	if (f == NULL)
		return;
	if (f->threaded) {
		pthread_mutex_lock(&f->mu);
		f->stop = 1;
		pthread_cond_signal(&f->room_cv);
		pthread_mutex_unlock(&f->mu);
		pthread_join(f->thread, NULL);
		pthread_cond_destroy(&f->room_cv);
		pthread_cond_destroy(&f->filled_cv);
		pthread_mutex_destroy(&f->mu);
	}
	free(f);
}
