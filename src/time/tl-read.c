/*
 * tl-read.c: a range of a file read into a range summary (tl.h), a slice
 * at a time, for the timeline zoomed in below the whole run's buckets.
 * The file is opened once (reader.c: the scan, then seeks by time are
 * cheap); a new range seeks to its start and reads from there, at most
 * max events a call, so a frame's work is bounded and the picture fills
 * in over a few frames.  The same code will read a live source's history
 * once it is kept in an eventlog file.
 */
#include <stdlib.h>
#include <string.h>

#include "evtop.h"
#include "time/tl.h"

#define TL_READ_BATCH	256

struct tl_read {
	struct reader	*r;
	struct tl	*tl;
	uint64_t	 from, to;
	uint64_t	 upto;		/* the summary is complete before */
	int		 done;
	int		 failed;
	struct proto_ev	 ev[TL_READ_BATCH];
};

struct tl_read *
tl_read_new(const char *path, char **cause)
{
	struct tl_read	*rd;

	if ((rd = calloc(1, sizeof *rd)) == NULL) {
		if (cause != NULL)
			*cause = strdup("out of memory");
		return NULL;
	}
	if ((rd->r = reader_open(path, cause)) == NULL) {
		free(rd);
		return NULL;
	}
	return rd;
}

void
tl_read_free(struct tl_read *rd)
{
	if (rd == NULL)
		return;
	reader_free(rd->r);
	tl_free(rd->tl);
	free(rd);
}

/*
 * The summary of [from, to), read on by at most max events: *out is it,
 * *upto the time before which it is complete.  1 when it is complete,
 * 0 when more calls are needed, -1 on error (*out NULL).
 */
int
tl_read_range(struct tl_read *rd, uint64_t from, uint64_t to, size_t max,
    const struct tl **out, uint64_t *upto)
{
	size_t	n = 0, k, i, want;

	*out = NULL;
	*upto = from;
	if (rd->failed)
		return -1;
	if (rd->tl == NULL || from != rd->from || to != rd->to) {
		tl_free(rd->tl);
		if ((rd->tl = tl_new_range(from, to)) == NULL ||
		    reader_seek(rd->r, from, 0) != 0) {
			rd->failed = 1;
			return -1;
		}
		rd->from = from;
		rd->to = to;
		rd->upto = from;
		rd->done = 0;
	}
	while (!rd->done && n < max) {
		want = max - n < TL_READ_BATCH ? max - n : TL_READ_BATCH;
		if ((k = reader_next_n(rd->r, rd->ev, want)) == 0) {
			/* The file ends: what it holds ends there. */
			rd->done = 1;
			rd->upto = to;
			break;
		}
		for (i = 0; i < k; i++) {
			if (rd->ev[i].time >= to) {
				/* Nothing else happened in the range. */
				tl_until(rd->tl, to);
				rd->done = 1;
				rd->upto = to;
				break;
			}
			tl_event(rd->tl, &rd->ev[i], 1);
			rd->upto = rd->ev[i].time;
		}
		n += k;
	}
	*out = rd->tl;
	*upto = rd->upto;
	return rd->done;
}
