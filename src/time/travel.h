/*
 * travel.h: a file's first pass with checkpoints, and seeking (travel.c).
 */
#ifndef TRAVEL_H
#define TRAVEL_H

#include <stddef.h>
#include <stdint.h>

#define TRAVEL_EVERY	(1u << 20)	/* events between checkpoints */

struct reader;
struct model;
struct proto_ev;
struct travel;

typedef void	 travel_each_fn(void *, const struct proto_ev *, size_t);

struct travel	*travel_new(struct reader *, struct model *, uint64_t,
		     char **);
void		 travel_free(struct travel *);
int		 travel_pass(struct travel *, size_t, travel_each_fn *,
		     void *);
int		 travel_passed(const struct travel *);
double		 travel_progress(const struct travel *);
void		 travel_span(const struct travel *, uint64_t *, uint64_t *);
int		 travel_checkpoints(const struct travel *, uint64_t *);
int		 travel_seek(struct travel *, uint64_t);
int		 travel_apply(struct travel *, uint64_t);

#endif
