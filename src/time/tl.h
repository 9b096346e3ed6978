/*
 * tl.h: the timeline's summary of a run, in bounded memory.
 *
 * A struct tl is fed every event once (tl_event(), a batch at a time), in
 * time order or nearly
 * (a live stream's capabilities may interleave late: each capability's own
 * events must be in order, which GHC guarantees).  It keeps TL_NBUCKETS
 * buckets of 2^shift ns from the first event; when the run outgrows them,
 * neighbours merge in pairs and the width doubles, so the whole run is
 * always there at the resolution memory allows.  Per capability and
 * bucket: ns running Haskell code, ns in GC (idle is the rest of the time
 * the capability's state is known) and the thread with the longest stretch
 * in it; per bucket: ns the program was paused for GC, the pauses that
 * began in it and the longest, heap size and live at most; and the longest
 * pauses of the run, and its markers (decimated evenly when too many).
 *
 * tl_new_range() makes a summary of one range [from, to) of fixed buckets,
 * fed with the range's events (the timeline reads a file's range into one
 * when zoomed in below the whole run's buckets: tl-read.c).  A capability
 * whose first event in it says what it was doing (STOP_THREAD: running,
 * GC_END: collecting) has that state from the start of the summary.
 *
 * tl_event() allocates only when a capability is seen for the first time.
 */
#ifndef TL_H
#define TL_H

#include <stddef.h>
#include <stdint.h>

#include "proto.h"

#define TL_NBUCKETS	2048	/* a power of two */
#define TL_SHIFT0	10	/* the first bucket width: 1.024 us */
#define TL_MAX_CAPS	256	/* capabilities >= this are not shown */
#define TL_NLONG	64	/* longest pauses kept */
#define TL_NMARKS	1024	/* markers kept */
#define TL_LABEL	56	/* bytes of a marker's label kept */
#define TL_NO_TIME	UINT64_MAX

struct tl;

struct tl_mark {
	uint64_t	 time;
	char		 label[TL_LABEL];	/* NUL-terminated, sanitized */
};

struct tl_pause {
	uint64_t	 start, dur;
};

/* A capability over a span of time. */
struct tl_cap_sum {
	uint64_t	 run, gc, idle;	/* ns */
	uint32_t	 thread;	/* its longest stretch; 0: none */
	uint64_t	 thread_ns;	/* how long that stretch was, within */
	int		 known;		/* its state is known in the span */
};

/* The program over a span of time. */
struct tl_gc_sum {
	uint64_t	 gc_ns;		/* paused for GC */
	uint32_t	 pauses;	/* began in buckets that begin in it */
	uint64_t	 max;		/* the longest that began in it */
	uint64_t	 max_at;	/* when it began */
};

struct tl_heap_sum {
	uint64_t	 size, live;	/* at most, in the span */
	int		 has_size, has_live;
};

/* tl.c */
struct tl	*tl_new(void);
struct tl	*tl_new_range(uint64_t, uint64_t);
void		 tl_gc_stats_seen(struct tl *);
void		 tl_free(struct tl *);
void		 tl_reset(struct tl *);
void		 tl_event(struct tl *, const struct proto_ev *, size_t);
void		 tl_until(struct tl *, uint64_t);
uint64_t	 tl_start(const struct tl *);
uint64_t	 tl_now(const struct tl *);
uint64_t	 tl_events(const struct tl *);
uint64_t	 tl_width(const struct tl *);
size_t		 tl_nbuckets(const struct tl *);
int		 tl_ncaps(const struct tl *);
int		 tl_has_cap(const struct tl *, int);
void		 tl_cap_sum(const struct tl *, int, uint64_t, uint64_t,
		     struct tl_cap_sum *);
void		 tl_gc_sum(const struct tl *, uint64_t, uint64_t,
		     struct tl_gc_sum *);
void		 tl_heap_sum(const struct tl *, uint64_t, uint64_t,
		     struct tl_heap_sum *);
int		 tl_heap_before(const struct tl *, uint64_t,
		     struct tl_heap_sum *);
const struct tl_mark *tl_marks(const struct tl *, size_t *);
uint64_t	 tl_marks_dropped(const struct tl *);
const struct tl_pause *tl_longest(const struct tl *, size_t *);
uint64_t	 tl_pauses(const struct tl *);
int		 tl_cap_bucket(const struct tl *, int, size_t,
		     struct tl_cap_sum *);
void		 tl_gc_bucket(const struct tl *, size_t, struct tl_gc_sum *);

/* tl-read.c: a file's range read into a range summary, a slice at a
 * time (bounded work per call). */
struct tl_read;
struct tl_read	*tl_read_new(const char *, char **);
void		 tl_read_free(struct tl_read *);
int		 tl_read_range(struct tl_read *, uint64_t, uint64_t, size_t,
		     const struct tl **, uint64_t *);

#endif
