/*
 * batch.c: evtop --batch: the model printed as text (like `top -b`) or as
 * one JSON object per line, every --interval seconds of event time and
 * once at the end.  Files are replayed as fast as they can be read, in
 * time order: reader.c's, through feed.c on this thread (its reader thread
 * has not paid so far: see feed.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evtop.h"
#include "model/model.h"

#ifndef BATCH_THREAD
#define BATCH_THREAD		1	/* 0: never read on a second thread */
#endif

static void
batch_error(struct model *m, const struct evtop_opts *o, const char *err)
{
	fprintf(stderr, "evtop: %s: %s\n", o->target, err);
	model_error(m, err);
}

/* Where the range begins: --from end is after every event, as g's end
 * (the state at the end, an empty range). */
static uint64_t
batch_from(const struct model *m, const struct evtop_opts *o)
{
	if (o->from_ns != UINT64_MAX)
		return o->from_ns;
	return m->totals.events > 0 && m->now < UINT64_MAX ? m->now + 1 : 0;
}

static int
batch_file(const struct evtop_opts *o)
{
	const struct proto_ev *evs, *ev;
	struct reader	*rd;
	struct feed	*fd;
	struct model	*m;
	struct export_progs xp;
	const struct proto_dec *dec;
	const char	*err;
	size_t		 n, i;
	char		*cause = NULL;
	uint64_t	 every = batch_interval_ns(o), next = 0, stop;
	int		 started = 0, rc, begun = !o->range, past = 0;

	if ((rd = reader_open(o->target, &cause)) == NULL) {
		fprintf(stderr, "evtop: %s\n", cause != NULL ? cause :
		    o->target);
		free(cause);
		return 1;
	}
	m = model_new();
	memset(&xp, 0, sizeof xp);
	xp.o = o;
	xp.err = stderr;
	model_on_program(m, export_program, &xp);
	model_set_reorder(m, 0, 0);	/* the reader gives time order */
	if ((dec = reader_dec(rd)) != NULL)
		model_header(m, dec);
	if ((fd = feed_new(rd, BATCH_THREAD)) == NULL) {
		fprintf(stderr, "evtop: out of memory\n");
		return 1;
	}
	stop = o->range ? o->to_ns : UINT64_MAX;
	while (!past && (n = feed_next(fd, &evs)) > 0) {
		for (i = 0; i < n;) {
			ev = &evs[i];
			if (!begun) {
				/* --from: the state before it, then the range. */
				i += model_apply_until(m, ev, n - i, o->from_ns);
				if (i < n) {
					model_range_begin(m, batch_from(m, o),
					    stop);
					begun = 1;
				}
				continue;
			}
			if (ev->time >= stop) {
				past = 1;
				break;
			}
			if (!started && ev->kind == PROTO_BLOCK_MARKER) {
				i += model_apply_until(m, ev, 1, UINT64_MAX);
				continue;
			}
			if (!started) {
				/* Intervals count from the first event. */
				started = 1;
				next = ev->time + every;
			}
			/* Up to the next event at or past the interval. */
			i += model_apply_until(m, ev, n - i,
			    next < stop ? next : stop);
			if (i < n && evs[i].time < stop) {
				batch_emit(m, o, stdout, NULL);
				next += (evs[i].time - next) / every * every +
				    every;
			}
		}
	}
	feed_free(fd);	/* the reader is ours again */
	if ((err = reader_error(rd)) != NULL)
		batch_error(m, o, err);
	if (!begun)	/* the file ended before --from */
		model_range_begin(m, batch_from(m, o), stop);
	model_flush(m);
	batch_emit(m, o, stdout, NULL);
	rc = export_end(m, o) != 0 || xp.failed > 0;
	if (m->totals.headers == 0)
		rc = 1;		/* not an eventlog: said, and figures of nothing */
	model_free(m);
	reader_free(rd);
	return ferror(stdout) ? 1 : rc;
}

int
batch_main(const struct evtop_opts *o)
{
	/* Live sources, and a file that is served: loop.c's poll loop. */
	if (o->kind != EVTOP_SRC_FILE || o->metrics != NULL ||
	    o->serve != NULL || o->serve_tcp != NULL)
		return loop_batch(o);
	return batch_file(o);
}
