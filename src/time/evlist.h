/*
 * evlist.h: a file's raw events at any time, one line each exactly as
 * `evtop show` prints them, read forwards and backwards, and a search
 * through their text that runs in slices of bounded work.
 *
 * It works on a file path with a reader of its own (src/read/reader.c), or
 * on a live source's history (src/time/spill.c) with a cursor of its own,
 * never the loop's: a replayed file, or what a live source keeps.  An
 * event's place in the order is its (time, offset) pair: the stream's
 * offset for a history, which is a recording's of the same bytes.
 */
#ifndef EVLIST_H
#define EVLIST_H

#include <stddef.h>
#include <stdint.h>

#include "evtop.h"

#define EVL_QUERY	64		/* bytes of a query */
#define EVL_TEXT	512		/* bytes of a line kept for display */

/* An event's place in the order: reader_seek() goes to it. */
struct evl_pos {
	uint64_t	 time, off;
};

/* One event as a line; text is cut at EVL_TEXT bytes, len is not. */
struct evl_line {
	struct evl_pos	 pos;
	size_t		 len;		/* the whole line's length */
	size_t		 ntext;		/* bytes in text */
	char		 text[EVL_TEXT];
};

/* A compiled query (evlist-match.c). */
struct evl_query;

enum evl_state {
	EVL_IDLE,		/* no search */
	EVL_RUNNING,		/* more slices to go */
	EVL_FOUND,		/* evl_found() says where */
	EVL_NOT_FOUND,		/* the end (or start) reached */
	EVL_ERROR,		/* the file could not be read */
};

struct evl;
struct spill;

/* evlist.c */
struct evl	*evl_open(const char *, char **);
struct evl	*evl_open_spill(const struct spill *, char **);
void		 evl_free(struct evl *);
void		 evl_rest(struct evl *);
const char	*evl_path(const struct evl *);
uint64_t	 evl_events(const struct evl *);
uint64_t	 evl_work(const struct evl *);
size_t		 evl_read(struct evl *, struct evl_pos, struct evl_line *,
		     size_t);
size_t		 evl_back(struct evl *, struct evl_pos, size_t,
		     struct evl_pos *);
int		 evl_last(struct evl *, size_t, struct evl_pos *);
int		 evl_search(struct evl *, const char *, struct evl_pos, int);
enum evl_state	 evl_step(struct evl *, uint64_t);
enum evl_state	 evl_state(const struct evl *);
void		 evl_cancel(struct evl *);
int		 evl_found(const struct evl *, struct evl_pos *, size_t *,
		     size_t *);
uint64_t	 evl_searched(const struct evl *);
const char	*evl_error(const struct evl *);
const char	*evl_query_text(const struct evl *);
int		 evl_line_match(const struct evl *, const char *, size_t,
		     size_t *);

/* evlist-match.c */
struct evl_query *evl_query_new(const char *);
void		 evl_query_free(struct evl_query *);
int		 evl_query_icase(const struct evl_query *);
long		 evl_query_match(struct evl_query *, const struct proto_ev *,
		     const struct proto_dec *, char *, size_t, size_t *);
int		 evl_query_candidate(struct evl_query *,
		     const struct proto_ev *);
int		 evl_text_find(const struct evl_query *, const char *, size_t,
		     size_t *);
int		 evl_tmpl_check(const struct proto_ev *, const char *,
		     size_t);

#endif
