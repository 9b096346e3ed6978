/*
 * ckpt.h: checkpoints of a model in a temporary file (ckpt.c).
 */
#ifndef CKPT_H
#define CKPT_H

#include <stdint.h>

#define CKPT_MAX	256	/* kept at once; then every other goes */

struct model;

/* Where a checkpoint's events stopped: reader_seek(time, off) goes on
 * from there; every event before time has been applied. */
struct ckpt_pos {
	uint64_t	 time, off;	/* reader_tell() */
	uint64_t	 events;	/* events read before */
	uint64_t	 aside;		/* late events applied in place before
					 * it (redo.c) */
};

struct ckpt;
struct ckpt	*ckpt_new(char **);
void		 ckpt_free(struct ckpt *);
void		 ckpt_limit(struct ckpt *, int);
void		 ckpt_thin_old(struct ckpt *);
void		 ckpt_keep(struct ckpt *, int, int);
int		 ckpt_save(struct ckpt *, const struct model *,
		     const struct ckpt_pos *);
int		 ckpt_find(const struct ckpt *, uint64_t);
int		 ckpt_restore(struct ckpt *, int, struct model *);
int		 ckpt_count(const struct ckpt *);
const struct ckpt_pos *ckpt_at(const struct ckpt *, int);
uint64_t	 ckpt_stored(const struct ckpt *);

#endif
