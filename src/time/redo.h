/*
 * redo.h: a live source's history, late events put in their place, and
 * the model taken back in time while reading goes on (redo.c).
 */
#ifndef REDO_H
#define REDO_H

#include <stddef.h>
#include <stdint.h>

#define REDO_HISTORY_NS		(600ull * 1000000000ull)	/* 10 min */
#define REDO_HISTORY_BYTES	(512ull << 20)
#define REDO_HOLD_NS		30000000ull	/* bytes this old are in order */
#define REDO_EVERY		(1u << 17)	/* events between checkpoints */

struct model;
struct proto_dec;
struct proto_ev;
struct redo;
struct spill;

struct redo_stats {
	int		 on;		/* a history is kept */
	uint64_t	 bytes, first, last;	/* the spill, event times */
	int		 checkpoints;
	uint64_t	 corrections;	/* late events put back */
	uint64_t	 back_ns;	/* how far the last went back */
	uint64_t	 corrected_at;	/* when it ended (source_now()), 0: none */
	int		 busy;		/* one is under way */
	uint64_t	 reapplied;	/* events given again, in all */
	uint64_t	 reapply_ns;	/* and the time it took */
	uint64_t	 overflowed;	/* more came during a run than kept:
					 * read again from the files */
	int		 viewing;	/* held in the past, at view_ns */
	uint64_t	 view_ns;
	const char	*error;
};

struct redo	*redo_new(struct model *, uint64_t, uint64_t, char **);
void		 redo_free(struct redo *);
void		 redo_connect(struct redo *);
void		 redo_bytes(struct redo *, const uint8_t *, size_t);
void		 redo_header(struct redo *, const struct proto_dec *,
		     uint64_t);
int		 redo_event(struct redo *, const struct proto_ev *);
void		 redo_commit(struct redo *, uint64_t, uint64_t, uint64_t);
void		 redo_tick(struct redo *, uint64_t, uint64_t);
int		 redo_busy(const struct redo *);
uint64_t	 redo_busy_ns(const struct redo *, uint64_t);
int		 redo_wait_ms(const struct redo *, uint64_t);
void		 redo_settle(struct redo *);
void		 redo_finish(struct redo *);
void		 redo_give_up(struct redo *, const char *);
int		 redo_view(struct redo *, uint64_t, const char **);
int		 redo_range(struct redo *, uint64_t, uint64_t, const char **);
void		 redo_now(struct redo *);
void		 redo_stats(const struct redo *, struct redo_stats *);
const struct spill *redo_spill(const struct redo *);

#endif
