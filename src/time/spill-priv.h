/*
 * spill-priv.h: what the files of spill.c's module share (see spill.c for
 * how the history is kept and read): its limits, the files, the cursors,
 * and the functions one file calls in another.  Calls go one way: spill.c
 * (writing, and the spill's own cursor) calls spill-cur.c (reading back
 * with a cursor), both call spill-stats.c (what the files hold).
 */
#ifndef EVTOP_SPILL_PRIV_H
#define EVTOP_SPILL_PRIV_H

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "evtop.h"
#include "source/source.h"
#include "time/spill.h"

#define SPILL_N		256		/* events read from a file at once */
#define SPILL_STAGE_MAX	(8u << 20)	/* bytes not yet whole events */
#define SPILL_IPE_PEEK	3		/* bytes an IPE is framed with */
#define SPILL_SEG_MIN	(64u << 10)

#define SPILL_KEEP	4		/* readers a cursor keeps open at a seek */
#define SPILL_KEEP_OWN	SPILL_SEGS	/* the spill's own: every file, resting */

struct spill_seg {
	int		 fd;
	uint64_t	 seq;		/* which file: never used again */
	uint64_t	 base;		/* stream offset of its first byte */
	uint64_t	 bytes;		/* stream bytes in it */
	uint64_t	 tmin, tmax;	/* its events' times */
	uint64_t	 nev;		/* its events */
	int		 any;
};

/* Events read ahead from a file.  Lent, one whose events were given is
 * not read into again during that call (what it gives points at them);
 * the borrower copies them before the next. */
struct spill_buf {
	struct spill_buf *next;		/* given, or spare */
	struct proto_ev	 ev[SPILL_N];
};

/* A cursor's reading of one file: its reader, the events read ahead. */
struct spill_rd {
	uint64_t	 seq;		/* the file's, 0: none */
	uint64_t	 base, lb;	/* its first byte, the first time to come */
	struct reader	*rd;
	uint64_t	 covered;	/* its bytes when sought */
	struct spill_buf *buf;
	struct proto_ev	*ev;		/* buf's: ev[i..n) to give */
	size_t		 n, i;
	int		 done;		/* nothing more from rd */
};

struct spill_cur {
	const struct spill *sp;
	struct spill_rd	 rd[SPILL_SEGS];	/* [k]: seg[k] at the last seek */
	/* The files with events still to give. */
	struct spill_rd	*act[SPILL_SEGS];	/* open */
	int		 nact;
	struct spill_rd	*lazy[SPILL_SEGS];	/* to open, lazy[lz] next */
	int		 nlazy, lz;
	uint64_t	 from_t, from_off;
	uint64_t	 last_t, last_off;
	int		 given;
	/* Readers read to their end rest (reader_rest()) rather than go,
	 * up to keep at a seek: the spill's own, which each run reads from
	 * a checkpoint on, much of it read by the run before. */
	int		 rest;
	int		 keep;
	uint64_t	 ver;		/* the spill's bytes when sought */
	uint64_t	 drops;		/* its files gone when sought */
	uint64_t	 pruned;	/* and when the open ones were checked */
	int		 bad;		/* a file could not be read: err */
	char		 err[256];
	struct proto_dec *dec;		/* the session's event types */
	uint64_t	 dec_session;

	/* Lent (the spill's own, on another thread): readers read to their
	 * end, and the slab their last events went into. */
	int		 lent, halt;
	uint64_t	 slab;
	struct reader	*retired[SPILL_SEGS];
	uint64_t	 retired_at[SPILL_SEGS];
	int		 nretired;
	struct spill_buf *gave;	/* events given in the last call */
	struct spill_buf *spare;	/* to use again */
};

struct spill {
	uint64_t	 max_bytes, max_ns, seg_max;
	int		 on;		/* a session is being kept */
	uint8_t		*hdr;
	size_t		 hlen;
	struct spill_seg seg[SPILL_SEGS];	/* [0] the oldest */
	int		 nseg;
	/* Bytes given but not yet written, from stream offset stage_off:
	 * staged ones copied here, then the caller's last, borrowed until
	 * spill_commit() (most of a read goes to the file from there). */
	uint8_t		*stage;
	size_t		 staged, stage_cap;
	uint64_t	 stage_off;
	const uint8_t	*borrowed;
	size_t		 nborrowed;
	/* The next file starts at the block marker at rot_at. */
	int		 rot, rot_any;
	uint64_t	 ipe_end;	/* where the last IPE ends */
	int		 rot_ipe;	/* one ends at rot_at */
	uint64_t	 rot_at, rot_tmin, rot_tmax;
	uint64_t	 floor;		/* events before it are gone */
	uint64_t	 newest;
	uint64_t	 pin;		/* files with events at or after it stay */
	uint64_t	 rot_nev;
	uint64_t	 seq;		/* the last file's */
	uint64_t	 ver;		/* counts writes: cursors see new bytes */
	uint64_t	 drops;		/* counts files gone */
	uint64_t	 session;	/* counts sessions */
	struct proto_dec *types;	/* the session's event types */
	struct spill_cur *cur;		/* the spill_seek() family's */
	pthread_mutex_t	*mu;		/* files come and go: see the top */
	int		 reset_lent;	/* spill_reset() while cur was lent */
	char		 err[256];
};

/* spill-stats.c: what the files hold */
const struct spill_seg *spill_find(const struct spill *sp, uint64_t seq);
uint64_t spill_total(const struct spill *sp);

/* spill-cur.c: reading back, with a cursor */
int	spill_cur_needs(const struct spill_cur *c, uint64_t seq);
void	spill_cur_release(struct spill_cur *c, uint64_t upto);
void	spill_cur_spare(struct spill_cur *c);
void	spill_cur_unlent(struct spill_cur *c);
void	spill_cur_rest_all(struct spill_cur *c);
void	spill_cur_rest_read(struct spill_cur *c);

#endif
