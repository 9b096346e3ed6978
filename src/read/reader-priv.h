/*
 * reader-priv.h: what the files of reader.c's module share (see reader.c
 * for how a file is read): the limits, the state of both ways of reading,
 * and the functions one file calls in another.  Calls go one way:
 * reader.c (the interface) calls the others; reader-scan.c, reader-pass.c
 * and reader-runs.c call reader-bytes.c; nothing calls back.
 */
#ifndef EVTOP_READER_PRIV_H
#define EVTOP_READER_PRIV_H

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evtop.h"

#ifndef READER_FAN
#define READER_FAN	256		/* sources merged at once */
#endif
#ifndef READER_SEGS
#define READER_SEGS	(1 << 19)	/* segments indexed at once */
#endif
#ifndef READER_LOOK
#define READER_LOOK	32		/* a run's lookahead, in events: a power of 2 */
#endif
#ifndef READER_SINGLE
#define READER_SINGLE	1		/* 0: only the two passes (tests) */
#endif
#ifndef READER_DROP
#define READER_DROP	(8 << 20)	/* mapped bytes read between drops */
#endif
/* A history's files (reader_open_own()): several are read at once, on
 * top of a live model, and little is read again; 8 MB each kept 30 MB of
 * their pages mapped, 60 MB in all with a late capability's blocks. */
#ifndef READER_POP
#define READER_POP	(1u << 20)	/* mapped ahead at once */
#endif
#ifndef READER_DROP_OWN
#define READER_DROP_OWN	(1 << 20)
#endif
#define READER_KEYS	258		/* caps 0..255, none, the rest */
#define READER_READ	(1 << 16)
#define READER_MAX_EVENT	(12 + 65535)	/* the largest event there is */
#define READER_NONE	UINT32_MAX
#define READER_NO_HEADER	(1u << 20)	/* a pipe's bytes before its header */
#define READER_PRINT	4096		/* bytes hashed at each of three places */

/* Contiguous events of one run, and the decoder's block state before. */
struct reader_seg {
	uint64_t	 off, end;
	int64_t		 left;
	uint32_t	 count;
	int32_t		 cap;
	uint32_t	 next;		/* the run's next segment, or NONE */
};

/* An event waiting in a lookahead: enough to order it and find it again. */
struct reader_ent {
	uint64_t	 time, off;
	uint32_t	 size;
	int32_t		 cap;
};

/*
 * A lookahead: entries kept sorted by (time, offset) in a ring.  Events
 * arrive nearly sorted, so an insertion is nearly always an append.
 */
struct reader_look {
	struct reader_ent e[READER_LOOK];
	unsigned	 head, n;
};

struct reader_run {
	uint32_t	 first, last;	/* segments */
	uint64_t	 out;		/* time of the last event out */
	struct reader_look look;		/* pass 1: its cursor, simulated */
};

/* One sorted input: a run of the file, or a spill file of records. */
struct reader_src {
	uint64_t	 time, off;	/* of the event it offers next */
	/* Runs. */
	const struct reader_seg *seg;	/* the segment being read */
	uint32_t	 count;		/* its events not yet read */
	struct proto_dec *dec;
	uint64_t	 pos;		/* next file offset to read */
	struct reader_look look;
	/* Spills. */
	FILE		*spill;
	uint32_t	 rec_size;
	int32_t		 rec_cap;
};

/* A merge in progress over n sources. */
struct reader_heap {
	struct reader_src *v;
	size_t		  n, nh;
	size_t		 *heap;
	long		  pending;	/* source to advance first, or -1 */
	uint8_t		 *rec;		/* an event's bytes, when copied */
};

struct reader_spill {
	FILE		*f;
	unsigned	 level;
};

struct reader_fast;

struct reader {
	int		 fd;
	int		 own;		/* evtop's own file: it never shrinks */
	uint64_t	 bias;		/* own: added to the offsets told */
	struct reader_fast *fast;	/* the single pass, if it is used */
	struct proto_dec *dec;		/* pass 1 */
	struct proto_dec *types;	/* the first header's types */
	uint64_t	 size;
	uint8_t		*rbuf;		/* READER_READ: the scan's, pass 1's */

	struct reader_run *runs;
	size_t		 nruns;
	struct reader_seg *segs;
	size_t		 nsegs;
	long		 key_run[READER_KEYS];	/* current run of each key */
	int		 last_key;		/* key of the previous event */

	struct reader_spill *spills;
	size_t		 nspills, spills_size;

	struct reader_heap out;		/* the final merge */
	uint64_t	 events;
	/* Events given: read by another thread while feed.c's reads. */
	_Atomic uint64_t done;
	uint64_t	 last_time, last_off;	/* of the last event given */
	int		 given;		/* since the start or a seek */
	char		 error[256];
	int		 io_error;
	/* The file as read (reader_changed()): when it last changed, a
	 * hash of some of its bytes, and what became of it since. */
	struct timespec	 mtime;
	uint64_t	 print;
	const char	*changed;
};


/* ------------------------------------------------------------------ */
/* The single pass, over a mapping of the file. */

/*
 * The single pass keeps each stream (a capability's blocks, or the events
 * outside blocks) as a list of segments, stretches of the file where only
 * its events lie, found by the scan; pmax is the stream's newest time up
 * to the segment's end, for seeking.
 */
struct reader_fseg {
	uint64_t	 off, end;
	uint64_t	 pmax;
	uint32_t	 next;		/* the stream's next segment, or NONE */
};

#ifndef READER_GROUP
#define READER_GROUP	16		/* the scan's unit of displacement */
#endif
#ifndef READER_EXCEPT
#define READER_EXCEPT	(1 << 16)	/* events taken out of their streams */
#endif
/* The scan reads the file, not the mapping: copied in by the kernel, the
 * bytes are in cache when their events are framed one after the other,
 * and the mapping's pages are touched once, by the merge. */
#define READER_SCAN	(256 << 10)
#ifndef READER_BATCH
#define READER_BATCH	256		/* events a stream frames at once */
#endif
/* Enough to sort any event the scan let pass (see reader_fast_scan). */
#define READER_FLOOK	(2 * READER_GROUP)
/* A file this large is scanned in two halves at once; the second starts
 * at a block marker found within READER_CUT_LOOK bytes of the middle. */
#ifndef READER_SPLIT
#define READER_SPLIT	(16u << 20)
#endif
#define READER_CUT_READ	(256 << 10)
#define READER_CUT_LOOK	(16u << 20)
/* Events of a stream's start in the second half checked against the
 * first half's (reader_fast_follows()). */
#define READER_HEAD	(2 * READER_GROUP + 1)

struct reader_fstream {
	uint64_t	 pos, end;	/* unread bytes of the current segment */
	uint32_t	 seg;		/* the current segment, or NONE */
	uint32_t	 first, last;	/* its segments */
	int32_t		 cap;		/* as events carry it */
	unsigned	 i, ready, n;	/* next out, sorted out, framed */
	/* After a seek, an event of it made ready: every later one comes
	 * after that one (the scan's bound), none is before where the seek
	 * starts, and its frames take the bulk's way again. */
	int		 past;
	uint64_t	 drop, mark;	/* pages before drop are let go; then mark */
	uint64_t	 pop;		/* pages mapped ahead up to here */
	/* The scan's check: the newest time of its groups before the last
	 * two, the last one's, and the current's. */
	uint64_t	 floor, gprev, gcur;
	unsigned	 gcnt;
	/* The times of its first READER_HEAD events in the scan's part, and
	 * how many there are (reader_fast_follows()). */
	uint64_t	 head[READER_HEAD];
	unsigned	 hn;
	/* The stream of events taken out of theirs, or NULL. */
	const struct proto_frame *xv;
	uint32_t	 xi, xn;
	/* ent[0] is a sentinel (time 0) before the frames, ent + 1. */
	struct proto_frame ent[1 + READER_BATCH + READER_FLOOK];
};

/* A sorted run of frames to merge. */
struct reader_frun {
	const struct proto_frame *p;
	size_t		 n;
};

struct reader_fast {
	/* The header's framing (proto_dec_sizes()), PROTO_NTAGS of them. */
	int32_t		*tsize;
	/* A fixed-size event's bytes by tag (its bytes as reader_raw16()
	 * loads them); 0 for the rest (variable, markers): the long way. */
	uint32_t	*fixed;
	void		*tabs;		/* both, if they are this one's */
	int		 rested;	/* reader_rest(): no tables, no buffers */
	int		 marker;	/* block markers have their fields */
	uint64_t	 data, end;	/* the events' bytes */
	uint64_t	 cut;		/* bytes of an event cut by the end */
	uint64_t	 safe;		/* events before it are framed fast */
	const uint8_t	*map;		/* the whole file */

	struct reader_fseg *segs;
	uint32_t	 nsegs, segs_room;
	struct reader_fstream *st;
	unsigned	 nst, st_room;
	/* A stream's index + 1 by a block's u16 cap: caps 0..255 and none
	 * (0xffff, at 256) here, the rest in stream_hi, made when one comes
	 * (all 65536 here were 128 KB a reader, kept while it rests). */
	uint16_t	 stream_of[257];
	uint16_t	*stream_hi;

	/*
	 * Events the scan found too far out of place in their streams:
	 * taken out (the segment is split around each), sorted, and given
	 * as one more stream.  A bounded correction: past READER_EXCEPT of
	 * them, the two passes.
	 */
	struct proto_frame *exc;
	uint32_t	 nexc, exc_room;
	uint8_t		*sbuf;		/* the scan's */

	unsigned	*live;		/* streams not done */
	unsigned	 nlive;
	struct reader_frun *run;	/* a round's runs, one per stream */
	struct proto_frame *out, *tmp;	/* where runs are merged */
	const struct proto_frame *cur;	/* the round's events, in order */
	size_t		 ncur, icur;
	uint64_t	 drop_step;	/* a stream's bytes between drops */
	int		 all;		/* nothing more: after an error */
	/* After a seek, events before (from_time, from_off) are passed
	 * over: (0, 0) passes none. */
	uint64_t	 from_time, from_off;
	int		 guard;		/* its range in reader_guard[] + 1, or 0 */
};

static inline uint16_t
reader_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* A tag's two bytes as the machine loads them: an index for tables built
 * the same way (one load, no swap). */
static inline uint16_t
reader_raw16(const uint8_t *p)
{
	uint16_t	v;

	memcpy(&v, p, 2);
	return v;
}

static inline uint64_t
reader_be64(const uint8_t *p)
{
	uint64_t	v;

	memcpy(&v, p, 8);
	return __builtin_bswap64(v);
}

static inline uint64_t
reader_max(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* A stream's frames, after the sentinel. */
static inline struct proto_frame *
reader_frames(struct reader_fstream *s)
{
	return s->ent + 1;
}

/* a goes before b: by time, then by place in the file (no branch). */
static inline int
reader_fbefore(const struct proto_frame *a, const struct proto_frame *b)
{
	return (a->time < b->time) | ((a->time == b->time) & (a->off < b->off));
}

/* reader-bytes.c: the file's bytes, its mapping, errors */
void	reader_cut(struct reader *m, uint64_t at, uint64_t n);
void	reader_drop(const uint8_t *map, uint64_t from, uint64_t to);
void	reader_populate(const uint8_t *map, uint64_t from, uint64_t n,
	    uint64_t size);
void	reader_fail(struct reader *m, const char *why);
int	reader_fast_map(struct reader *m, struct reader_fast *f);
void	reader_fast_unmap(struct reader_fast *f, uint64_t size);
int	reader_guard_shrunk(const struct reader_fast *f);
int	reader_read_at(int fd, void *buf, size_t len, uint64_t off,
	    size_t *got);

/* reader-runs.c: the two passes */
int	reader_flush_runs(struct reader *m);
void	reader_forget_runs(struct reader *m);
void	reader_heap_advance(struct reader *m, struct reader_heap *h);
void	reader_heap_free(struct reader_heap *h);
int	reader_heap_init(struct reader *m, struct reader_heap *h,
	    struct reader_src *v, size_t n);
int	reader_heap_pop(struct reader *m, struct reader_heap *h,
	    struct proto_ev *ev);
int	reader_index(struct reader *m);
struct reader_src *reader_run_srcs(struct reader *m);
void	reader_sift(const struct reader_src *v, size_t *h, size_t n, size_t i);
struct reader_src *reader_spill_srcs(struct reader *m, size_t n);
int	reader_src_next(struct reader *m, struct reader_src *s);

/* reader-scan.c: the single pass's scan */
int	reader_fast_bufs(struct reader_fast *f);
void	reader_fast_free(struct reader_fast *f, uint64_t size);
int	reader_fast_scan(struct reader *m, struct reader_fast *f);
int	reader_fast_tables(struct reader *m, struct reader_fast *f);
void	reader_fast_unbufs(struct reader_fast *f);

/* reader-pass.c: the single pass */
size_t	reader_fast_next(struct reader *m, struct reader_fast *f,
	    struct proto_ev *ev, size_t n, int full);
size_t	reader_fast_frames(struct reader *m, struct reader_fast *f,
	    struct proto_frame *fr, size_t n);
void	reader_fast_fail(struct reader *m, struct reader_fast *f,
	    const struct proto_frame *e);
void	reader_fast_seek(struct reader_fast *f, uint64_t time, uint64_t off);

#endif
