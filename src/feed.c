/*
 * feed.c: a file's events, put in time order and decoded by reader.c on a
 * thread of their own, handed to `evtop --batch` a slab at a time.
 *
 * Why a thread, where evtop otherwise has none (STYLE.md): replaying a
 * file is the one job with more work than one core does at the rate the
 * model issue asks (10 times the Haskell decoder's bare decode), and it
 * splits in two with nothing shared but finished events: framing,
 * merging and decoding, about 40% of a replay, on one core; the model and
 * its output on the other.  (Handing over framed events to decode on the
 * model's side moved less data but left that side more to do: slower.)
 *
 * Ownership keeps it simple: once feed_new() returns, the reader thread
 * alone touches the reader; the caller alone touches the model.  They
 * share FEED_SLABS slabs of FEED_N events and two counters under one
 * mutex, and a slab is in one hand at a time: the reader fills slab
 * `filled % FEED_SLABS` while fewer than FEED_SLABS are unreleased, the
 * caller reads slab `taken % FEED_SLABS` and releases it when it asks for
 * the next.  The events' borrowed pointers point into the reader's
 * mapping, which lives until reader_free().  After feed_free() the reader
 * is the caller's again (for reader_error()).
 *
 * Without the thread (feed_new(r, 0), when none can be started, or when
 * the reader's events do not last: reader_lasting()) the caller fills each
 * slab itself: the same events, in the same slabs.
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>

#include "evtop.h"

#ifndef FEED_N
#define FEED_N		2048		/* events in a slab: 352 KB */
#endif
#define FEED_SLABS	8

struct feed_slab {
	struct proto_ev	 ev[FEED_N];
	size_t		 n;		/* 0: the reader has no more */
};

struct feed {
	struct reader	*rd;
	int		 threaded;
	pthread_t	 thread;
	pthread_mutex_t	 mu;
	pthread_cond_t	 filled_cv;	/* the reader filled a slab */
	pthread_cond_t	 room_cv;	/* the caller released one */
	uint64_t	 filled, taken;	/* slabs, counted since the start */
	int		 stop;		/* the caller wants no more */
	struct feed_slab slab[FEED_SLABS];

	/* The caller's. */
	int		 holding;	/* slab taken is being read */
	int		 end;
	int		 shrank;	/* the file shrank while read */
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

		n = s->n = reader_next_n(f->rd, s->ev, FEED_N);

		pthread_mutex_lock(&f->mu);
		f->filled++;
		pthread_cond_signal(&f->filled_cv);
		pthread_mutex_unlock(&f->mu);
		if (n == 0)
			return NULL;
	}
}

/*
 * Start the reader with the signals the caller handles (Ctrl-C, SIGTERM,
 * a closed pipe) blocked, so that they reach the caller; a fault's own
 * signal (SIGBUS on a file that shrinks, see reader.c) cannot be blocked.
 */
static int
feed_start(struct feed *f)
{
	sigset_t	all, old;
	int		rc;

	sigfillset(&all);
	sigdelset(&all, SIGBUS);
	sigdelset(&all, SIGSEGV);
	sigdelset(&all, SIGFPE);
	sigdelset(&all, SIGILL);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(&f->thread, NULL, feed_reader, f);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

/* Start reading r; threaded = 0 reads in feed_next() instead. */
struct feed *
feed_new(struct reader *r, int threaded)
{
	struct feed	*f;

	if ((f = calloc(1, sizeof *f)) == NULL)
		return NULL;
	f->rd = r;
	if (!threaded || !reader_lasting(r))
		return f;
	/* (With default attributes these cannot fail.) */
	pthread_mutex_init(&f->mu, NULL);
	pthread_cond_init(&f->filled_cv, NULL);
	pthread_cond_init(&f->room_cv, NULL);
	if (feed_start(f) == 0) {
		f->threaded = 1;
		return f;
	}
	pthread_cond_destroy(&f->room_cv);
	pthread_cond_destroy(&f->filled_cv);
	pthread_mutex_destroy(&f->mu);
	return f;
}

/*
 * The next events at *ev, and how many; 0 at the end.  They, and what
 * they borrow, are not to be read after the next call.
 */
size_t
feed_next(struct feed *f, const struct proto_ev **ev)
{
	struct feed_slab *s;

	if (f->end)
		return 0;
	if (reader_shrank(f->rd)) {
		/* What the events before borrowed may have been zeros. */
		f->shrank = f->end = 1;
		return 0;
	}
	if (!f->threaded) {
		s = &f->slab[0];
		s->n = reader_next_n(f->rd, s->ev, FEED_N);
	} else {
		pthread_mutex_lock(&f->mu);
		if (f->holding && ++f->taken + FEED_SLABS / 2 == f->filled)
			pthread_cond_signal(&f->room_cv);
		while (f->filled == f->taken)
			pthread_cond_wait(&f->filled_cv, &f->mu);
		s = &f->slab[f->taken % FEED_SLABS];
		f->holding = 1;
		pthread_mutex_unlock(&f->mu);
	}
	if (s->n == 0)
		f->end = 1;
	*ev = s->ev;
	return s->n;
}

/* Why the events stopped early, if the reader did not say; or NULL. */
const char *
feed_error(const struct feed *f)
{
	return f->shrank ? "the file shrank while read" : NULL;
}

/* Stop the thread if it still runs; the reader is the caller's again. */
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
