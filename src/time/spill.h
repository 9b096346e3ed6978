/*
 * spill.h: a live source's recent stream on disk, read back in time order
 * (spill.c).
 */
#ifndef SPILL_H
#define SPILL_H

#include <stddef.h>
#include <stdint.h>

#define SPILL_SEGS	65	/* files at once: the bound is split in 64 */

struct proto_dec;
struct proto_ev;
struct spill;
struct spill_cur;

struct spill_stats {
	uint64_t	 bytes;		/* on disk now */
	uint64_t	 first, last;	/* event times kept */
	uint64_t	 events;	/* kept */
};

struct spill	*spill_new(uint64_t, uint64_t, char **);
void		 spill_free(struct spill *);
void		 spill_reset(struct spill *);
void		 spill_connect(struct spill *);
void		 spill_bytes(struct spill *, const uint8_t *, size_t);
int		 spill_session(struct spill *, const struct proto_dec *,
		     uint64_t);
void		 spill_event(struct spill *, const struct proto_ev *);
int		 spill_commit(struct spill *, uint64_t);
uint64_t	 spill_floor(const struct spill *);
void		 spill_pin(struct spill *, uint64_t);
const char	*spill_error(const struct spill *);
int		 spill_failed(const struct spill *);
void		 spill_lent_failed(struct spill *, const char *);
void		 spill_stats(const struct spill *, struct spill_stats *);

/* A cursor of one's own: files may go while it reads. */
struct spill_cur *spill_cur_new(const struct spill *);
void		 spill_cur_free(struct spill_cur *);
int		 spill_cur_seek(struct spill_cur *, uint64_t, uint64_t);
size_t		 spill_cur_next(struct spill_cur *, struct proto_ev *, size_t);
size_t		 spill_cur_next_p(struct spill_cur *, const struct proto_ev **,
		     size_t);
int		 spill_cur_more(const struct spill_cur *);
int		 spill_cur_refresh(struct spill_cur *);
void		 spill_cur_rest(struct spill_cur *);
int		 spill_cur_failed(const struct spill_cur *);
const char	*spill_cur_error(const struct spill_cur *);
const struct proto_dec *spill_cur_dec(struct spill_cur *);
uint64_t	 spill_cur_events(const struct spill_cur *);
uint64_t	 spill_cur_last(const struct spill_cur *);
int		 spill_cur_readers(const struct spill_cur *);

/* The spill's own cursor (redo.c's): the files it reads stay. */
int		 spill_seek(struct spill *, uint64_t, uint64_t);
size_t		 spill_next_p(struct spill *, const struct proto_ev **, size_t);
int		 spill_more(const struct spill *);
int		 spill_refresh(struct spill *);
void		 spill_rest(struct spill *);
/* It, read on another thread. */
void		 spill_lend(struct spill *);
size_t		 spill_next_lent(struct spill *, const struct proto_ev **,
		     size_t, uint64_t, uint64_t);
int		 spill_unlend(struct spill *);

#endif
