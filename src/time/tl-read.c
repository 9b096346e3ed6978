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
/* How far the first GC_STATS_GHC is looked for (GHC posts one at every
 * collection: the first is near the start, or there is none). */
#define TL_READ_STATS	(1u << 20)

struct tl_read {
	struct reader	*r;
	struct tl	*tl;
	uint64_t	 stats_at;	/* the first GC_STATS_GHC's time + 1 */
	int		 stats_known;
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
 * Whether the file has a GC_STATS_GHC, and where: a range after it closes
 * collections at their leaders' GC_END (tl.c), as the whole run does.
 */
static int
tl_read_stats(struct tl_read *rd)
{
	size_t	n, k, i;

	if (rd->stats_known)
		return 0;
	rd->stats_known = 1;
	if (reader_seek(rd->r, 0, 0) != 0)
		return -1;
	for (n = 0; n < TL_READ_STATS; n += k) {
		if ((k = reader_next_n(rd->r, rd->ev, TL_READ_BATCH)) == 0)
			break;
		for (i = 0; i < k; i++) {
			if (rd->ev[i].kind == PROTO_GC_STATS_GHC) {
				rd->stats_at = rd->ev[i].time + 1;
				return 0;
			}
		}
	}
	return 0;
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
		    tl_read_stats(rd) != 0 || reader_seek(rd->r, from, 0) !=
		    0) {
			rd->failed = 1;
			return -1;
		}
		if (rd->stats_at != 0 && rd->stats_at - 1 < from)
			tl_gc_stats_seen(rd->tl);
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
