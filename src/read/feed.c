/*
 * feed.c: a file's events, put in time order and decoded by reader.c,
 * handed to `evtop --batch` and to the TUI's first pass over a file
 * (src/time/travel.c) a slab at a time: on a thread of their own
 * (feed_new(r, 1), what both ask), or on the caller's.
 *
 * The thread splits a replay in two with nothing shared but frames (an
 * event's time, place, size and capability: 24 bytes): framing and merging
 * (about 66 instructions an event on the GHC logs, most of them waiting on
 * memory) on one core; decoding (65) and the model and its output (114) on
 * the other, FEED_DEC events at a time into a buffer that stays in that
 * core's cache.  Handing over decoded events instead (176 bytes each) cost
 * more than it gave: the stores into slabs the other core had just read
 * made the decoder five times slower there, and `--batch` on two cores
 * took 0.88-0.97 s on ghc-n2 where one core took 0.63 s; frames: 0.45-0.51 s
 * (tests/bench/MEASURED.md).  Slabs of 2048 events make the hand-offs few
 * (13,000 on ghc-n2), so a side that finds nothing polls only briefly,
 * then sleeps: polling long (16,384 times) with 256-event slabs, a side
 * that was descheduled stalled the other, 2-7 times slower with one other
 * busy process on two cores.  (A reader that waits for room while the
 * caller takes slabs flat out yields its core instead: feed_wait_room().)
 *
 * Ownership keeps it simple: once feed_new() returns, the reader thread
 * alone touches the reader, save what never changes while it reads (the
 * types and the mapping, which reader_frames_dec() reads); the caller
 * alone touches the model.  They share FEED_SLABS slabs of FEED_N events
 * and two counters, each written by one side only, and a slab is in one
 * hand at a time: the reader fills slab `filled % FEED_SLABS` while fewer
 * than FEED_SLABS are unreleased, the caller reads slab `taken %
 * FEED_SLABS` and releases it when it asks for the next.  The events'
 * borrowed pointers point into the reader's mapping, which lives until
 * reader_free().  After feed_free() the reader is the caller's again (for
 * reader_error(), which then says why a frame did not decode).
 *
 * Without the thread (feed_new(r, 0), when none can be started, when the
 * process may run on one core only, or when the reader's events do not
 * last: reader_lasting()) the caller fills a slab itself: the same events.
 *
 * feed_new_fill_p() takes a source of events without their fields
 * (proto_dec_heads()) in the reader's place: a live source's history
 * (src/time/redo.c), read from several files at once.  fill_p(arg, ev,
 * max, slab, released) puts up to max pointers at ev, 0 at the end; the
 * events last until its next call, and what they borrow (the payloads)
 * until the slab is released: slab counts the slabs filled before this
 * one, released those the caller is done with.  The thread copies the
 * heads (40 bytes) into the slab one after the other; the caller copies
 * them FEED_DEC at a time and reads the fields into the copies, on its
 * own core (feed_next_p()).  Handing pointers instead, the caller missed
 * the cache on each event, 176 bytes apart in several files' buffers
 * the other core kept writing: re-applying ran at 17.5-18.1 M events/s,
 * now 21.7-22.5 (tests/bench/MEASURED.md).
 */
#include <pthread.h>
#include <sched.h>
#include <stdalign.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "evtop.h"

#ifndef FEED_N
#define FEED_N		2048		/* events in a slab: 360 KB */
#endif
#ifndef FEED_SLABS
#define FEED_SLABS	8
#endif
#ifndef FEED_SPIN
#define FEED_SPIN	256		/* polls before a wait sleeps */
#endif
#ifndef FEED_DEC
#define FEED_DEC	256		/* frames decoded at once: 45 KB */
#endif
#ifndef FEED_YIELD_NS
#define FEED_YIELD_NS	500000		/* see feed_wait_room() */
#endif

/* An event's head: what proto_dec_heads() writes, the fields left. */
#define FEED_HEAD	offsetof(struct proto_ev, u)

/* A reader's events into a slab (feed_new()). */
typedef size_t	 feed_fill_fn(void *, struct proto_ev *, size_t, uint64_t,
		     uint64_t);

struct feed_slab {
	size_t		 n;		/* 0: the reader has no more */
	union {
		alignas(64) struct proto_ev ev[FEED_N];
		unsigned char h[FEED_N][FEED_HEAD];	/* fill_p's heads */
		struct proto_frame fr[FEED_N];	/* a reader's, threaded */
	} u;
};

struct feed {
	struct reader	*rd;		/* NULL: fill */
	feed_fill_fn	*fill;		/* or fill_p */
	feed_fill_p_fn	*fill_p;
	void		*arg;
	int		 threaded;
	int		 frames;	/* the slabs hold rd's frames */
	pthread_t	 thread;
	/* Slabs counted since the start: the reader alone writes filled,
	 * the caller alone taken (each on a cache line of its own). */
	alignas(64) _Atomic uint64_t filled;
	alignas(64) _Atomic uint64_t taken;
	/* A side that found nothing to do for FEED_SPIN polls sleeps on
	 * its condition, saying so first; the other signals it under mu. */
	alignas(64) _Atomic int reader_asleep;
	_Atomic int	 caller_asleep;
	_Atomic int	 ended;		/* the reader's last slab is out */
	_Atomic int	 stop;		/* the caller wants no more */
	int		 yielding;	/* the reader's: see feed_wait_room() */
	const struct proto_ev *tp[FEED_N];	/* the reader's: fill_p's */
	pthread_mutex_t	 mu;
	pthread_cond_t	 filled_cv, room_cv;

	/* The caller's. */
	alignas(64) int	 holding;	/* slab taken is being read */
	int		 end;
	uint64_t	 sync;		/* slabs filled without the thread */
	/* A threaded reader's slabs hold frames, decoded here a few at a
	 * time (feed_next()), a fill_p feed's heads, completed here
	 * (feed_next_p()): the slab being read, and how far. */
	struct feed_slab *cur;
	size_t		 di;
	int		 failed;	/* bad is a frame that did not decode */
	struct proto_frame bad;
	alignas(64) struct proto_ev dec[FEED_DEC];
	/* A fill_p feed's: pointers to dec, completed here, and why one's
	 * fields did not parse. */
	const struct proto_ev *decp[FEED_DEC];
	char		 why[160];

	/* Last: a feed of heads touches under a quarter of its pages. */
	struct feed_slab slab[FEED_SLABS];
};

static inline void
feed_pause(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/* Wake the other side if it said it sleeps (after this side published). */
static void
feed_wake(struct feed *f, _Atomic int *asleep, pthread_cond_t *cv)
{
	if (atomic_load(asleep)) {
		pthread_mutex_lock(&f->mu);
		pthread_cond_signal(cv);
		pthread_mutex_unlock(&f->mu);
	}
}

/*
 * Wait until ready(f): polled first (the other side is usually less than
 * a slab away: sleeping and waking for each slab cost more than the work),
 * then asleep until enough(f), which asks more than ready(f) (a side
 * asleep waits for half the slabs, filled or free, not one: woken for each
 * slab, the two sides took turns, a futex wake-up a slab).  Saying so
 * before the last check, and the other side publishing before it looks
 * (both sequentially consistent), one of the two sees the other: no
 * wake-up is lost.
 */
static void
feed_wait(struct feed *f, int (*ready)(struct feed *),
    int (*enough)(struct feed *), _Atomic int *asleep, pthread_cond_t *cv)
{
	int	i;

	for (i = 0; i < FEED_SPIN; i++) {
		if (ready(f))
			return;
		feed_pause();
	}
	pthread_mutex_lock(&f->mu);
	atomic_store(asleep, 1);
	while (!enough(f))
		pthread_cond_wait(cv, &f->mu);
	atomic_store(asleep, 0);
	pthread_mutex_unlock(&f->mu);
}

static int
feed_has_room(struct feed *f)
{
	return atomic_load(&f->filled) - atomic_load(&f->taken) < FEED_SLABS ||
	    atomic_load(&f->stop);
}

static int
feed_has_half(struct feed *f)
{
	return atomic_load(&f->filled) - atomic_load(&f->taken) <=
	    FEED_SLABS / 2 || atomic_load(&f->stop);
}

static int
feed_has_slab(struct feed *f)
{
	return atomic_load(&f->filled) != atomic_load(&f->taken);
}

/* What a caller asleep waits for, as the reader asleep waits for half the
 * room.  Woken for each slab, the caller was woken onto the reader's core,
 * preempting it, and the two took turns there a slab at a time: on ghc-n2
 * the TUI's first pass slept 5 900 times, now 3 500; --batch switched
 * 957-2 999 times of its own accord, now 246-1 048. */
static int
feed_has_half_filled(struct feed *f)
{
	return atomic_load(&f->filled) - atomic_load(&f->taken) >=
	    FEED_SLABS / 2 || atomic_load(&f->ended);
}

static uint64_t
feed_clock(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/*
 * The reader's wait for room.  While the caller takes slabs flat out (the
 * last wait took under FEED_YIELD_NS), the reader yields its core until
 * there is room rather than sleep: a sleeper is woken onto the waker's
 * core, and two threads that keep waking each other stay on one core
 * taking turns while the other core idles (perf's sched_switch trace of
 * the TUI's pass: for 100 ms and more); a thread that stays runnable is
 * moved to the idle core.  A caller that takes slabs slowly (a replay at
 * its own pace, redo.c between its slices) is waited for asleep, the
 * core left alone: past FEED_YIELD_NS, or after a long sleep.
 */
static void
feed_wait_room(struct feed *f)
{
	uint64_t	t0 = feed_clock();

	if (f->yielding) {
		while (!feed_has_room(f) && feed_clock() - t0 < FEED_YIELD_NS)
			sched_yield();
		if (feed_has_room(f))
			return;
	}
	feed_wait(f, feed_has_room, feed_has_half, &f->reader_asleep,
	    &f->room_cv);
	f->yielding = feed_clock() - t0 < FEED_YIELD_NS;
}

static size_t
feed_fill(struct feed *f, struct feed_slab *s, uint64_t slab,
    uint64_t released)
{
	size_t	i, n;

	if (f->fill_p != NULL) {
		n = f->fill_p(f->arg, f->tp, FEED_N, slab, released);
		for (i = 0; i < n; i++)
			memcpy(s->u.h[i], f->tp[i], FEED_HEAD);
		return n;
	}
	if (f->frames)
		return reader_next_frames(f->rd, s->u.fr, FEED_N);
	return f->fill(f->arg, s->u.ev, FEED_N, slab, released);
}

static void *
feed_reader(void *arg)
{
	struct feed	 *f = arg;
	struct feed_slab *s;
	uint64_t	  filled = 0;
	size_t		  n;

	for (;;) {
		if (!feed_has_room(f))
			feed_wait_room(f);
		if (atomic_load(&f->stop))
			return NULL;
		s = &f->slab[filled % FEED_SLABS];
		n = s->n = feed_fill(f, s, filled, atomic_load(&f->taken));
		if (n == 0)
			atomic_store(&f->ended, 1);
		atomic_store(&f->filled, ++filled);
		if (feed_has_half_filled(f))
			feed_wake(f, &f->caller_asleep, &f->filled_cv);
		if (n == 0)
			return NULL;
	}
}

static size_t
feed_fill_reader(void *arg, struct proto_ev *ev, size_t max, uint64_t slab,
    uint64_t released)
{
	return reader_next_n(arg, ev, max);
}

static struct feed *
feed_start(feed_fill_fn *fill, feed_fill_p_fn *fill_p, void *arg,
    int threaded)
{
	struct feed	*f;

	if ((f = aligned_alloc(64, sizeof *f)) == NULL)
		return NULL;
	/* (Each slab's n is written before it is read.) */
	memset(f, 0, offsetof(struct feed, slab));
	f->fill = fill;
	f->fill_p = fill_p;
	f->arg = arg;
	if (fill == feed_fill_reader)
		f->rd = arg;
	if (!threaded || !reader_cores())
		return f;
	/* (With default attributes these cannot fail.) */
	pthread_mutex_init(&f->mu, NULL);
	pthread_cond_init(&f->filled_cv, NULL);
	pthread_cond_init(&f->room_cv, NULL);
	f->frames = f->rd != NULL;	/* before the thread reads it */
	if (reader_thread(&f->thread, feed_reader, f) == 0) {
		f->threaded = 1;
		return f;
	}
	f->frames = 0;
	pthread_cond_destroy(&f->room_cv);
	pthread_cond_destroy(&f->filled_cv);
	pthread_mutex_destroy(&f->mu);
	return f;
}

/* Start filling from fill_p(arg, ...), on a thread if threaded and there
 * is a core for it. */
struct feed *
feed_new_fill_p(feed_fill_p_fn *fill_p, void *arg, int threaded)
{
	return feed_start(NULL, fill_p, arg, threaded);
}

/* Start reading r; threaded = 0 reads in feed_next() instead. */
struct feed *
feed_new(struct reader *r, int threaded)
{
	return feed_start(feed_fill_reader, NULL, r, threaded &&
	    reader_lasting(r));
}

/* The next slab, or NULL at the end. */
static struct feed_slab *
feed_take(struct feed *f)
{
	struct feed_slab *s;

	if (f->end)
		return NULL;
	if (f->rd != NULL && reader_shrank(f->rd)) {
		/* What the events before borrowed may have been zeros. */
		f->end = 1;	/* reader_error() says why */
		return NULL;
	}
	if (!f->threaded) {
		s = &f->slab[0];
		s->n = feed_fill(f, s, f->sync, f->sync);
		f->sync++;
	} else {
		if (f->holding) {
			atomic_fetch_add(&f->taken, 1);
			if (feed_has_half(f))
				feed_wake(f, &f->reader_asleep, &f->room_cv);
		}
		if (!feed_has_slab(f))
			feed_wait(f, feed_has_slab, feed_has_half_filled,
			    &f->caller_asleep, &f->filled_cv);
		s = &f->slab[atomic_load(&f->taken) % FEED_SLABS];
		f->holding = 1;
	}
	if (s->n == 0) {
		f->end = 1;
		return NULL;
	}
	return s;
}

/* How many of the slab being read (frames or heads) to take next, at
 * most FEED_DEC, the next slab taken when it is done: 0 at the end. */
static size_t
feed_chunk(struct feed *f)
{
	if (f->end)
		return 0;
	if (f->cur == NULL || f->di == f->cur->n) {
		if ((f->cur = feed_take(f)) == NULL)
			return 0;
		f->di = 0;
	}
	return f->cur->n - f->di < FEED_DEC ? f->cur->n - f->di : FEED_DEC;
}

/*
 * The next events at *ev, and how many; 0 at the end.  They, and what
 * they borrow, are not to be read after the next call.
 */
size_t
feed_next(struct feed *f, const struct proto_ev **ev)
{
	struct feed_slab *s;
	size_t		  c, d;

	if (!f->frames) {
		if ((s = feed_take(f)) == NULL)
			return 0;
		*ev = s->u.ev;
		return s->n;
	}
	/* Frames: decoded FEED_DEC at a time into a buffer that stays in
	 * this core's cache (decoded on the reader's thread, 176 bytes an
	 * event crossed between the cores, and the stores into slabs the
	 * other core had just read cost more than the decoding). */
	if ((c = feed_chunk(f)) == 0)
		return 0;
	d = reader_frames_dec(f->rd, f->cur->u.fr + f->di, c, f->dec);
	if (reader_shrank(f->rd)) {
		/* Some bytes just decoded were the zeros mapped for them
		 * (reader_error() says so). */
		f->end = 1;
		return 0;
	}
	f->di += d;
	if (d < c) {
		f->failed = 1;
		f->bad = f->cur->u.fr[f->di];
		f->end = 1;
	}
	*ev = f->dec;
	return d;
}

/* The next pointers to events, of a feed_new_fill_p() feed. */
size_t
feed_next_p(struct feed *f, const struct proto_ev *const **ev)
{
	unsigned char	(*h)[FEED_HEAD];
	const char	 *why;
	size_t		  c, i;

	/* Copied here FEED_DEC at a time, their fields read into the
	 * copies (see feed_next()). */
	if ((c = feed_chunk(f)) == 0)
		return 0;
	h = f->cur->u.h + f->di;
	for (i = 0; i < c; i++) {
		memcpy(&f->dec[i], h[i], FEED_HEAD);
		if ((why = proto_dec_rest(&f->dec[i])) != NULL) {
			snprintf(f->why, sizeof f->why, "byte %llu: %s",
			    (unsigned long long)f->dec[i].off, why);
			f->end = 1;
			break;
		}
		f->decp[i] = &f->dec[i];
	}
	f->di += i;
	*ev = f->decp;
	return i;
}

/* Why a feed of heads ended early (an event's fields did not parse), or
 * NULL. */
const char *
feed_error(const struct feed *f)
{
	return f->why[0] != '\0' ? f->why : NULL;
}

/* Stop the thread if it still runs; the reader is the caller's again. */
void
feed_free(struct feed *f)
{
	if (f == NULL)
		return;
	if (f->threaded) {
		atomic_store(&f->stop, 1);
		feed_wake(f, &f->reader_asleep, &f->room_cv);
		pthread_join(f->thread, NULL);
		pthread_cond_destroy(&f->room_cv);
		pthread_cond_destroy(&f->filled_cv);
		pthread_mutex_destroy(&f->mu);
	}
	if (f->failed)
		reader_frames_fail(f->rd, &f->bad);
	free(f);
}
