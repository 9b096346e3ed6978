/*
 * batch.c: evtop --batch: the model printed as text (like `top -b`) or as
 * one JSON object per line, every --interval seconds of event time and
 * once at the end.  Files are replayed as fast as they can be read, in
 * time order: order.c's, read on a second core (feed.c), or merge.c's
 * for the files order.c does not take.
 */
#include <stdio.h>
#include <stdlib.h>

#include "evtop.h"
#include "model.h"

#define BATCH_DEFAULT_NS	1000000000ULL
#ifndef BATCH_EVENTS
#define BATCH_EVENTS		64	/* events taken from the merge at once */
#endif

/* Print the model once, in the form the options ask for. */
void
batch_emit(const struct model *m, const struct evtop_opts *o, FILE *f)
{
	if (export_stdout(o))
		return;		/* stdout carries an export */
	if (o->json)
		model_json(m, f);
	else {
		model_text(m, f);
		fputc('\n', f);
	}
	fflush(f);
}

uint64_t
batch_interval_ns(const struct evtop_opts *o)
{
	if (!(o->interval > 0) || o->interval > 1e9)
		return BATCH_DEFAULT_NS;
	if (o->interval * 1e9 < 1)
		return 1;
	return (uint64_t)(o->interval * 1e9);
}

/* The events of the file: order.c's through feed.c, else merge.c's. */
struct batch_src {
	struct order	*ord;
	struct feed	*fd;
	struct merge	*mg;
	struct proto_ev	 evs[BATCH_EVENTS];	/* merge.c's */
};

static size_t
batch_next(struct batch_src *b, const struct proto_ev **ev)
{
	if (b->fd != NULL)
		return feed_next(b->fd, ev);
	*ev = b->evs;
	return merge_next_n(b->mg, b->evs, BATCH_EVENTS);
}

static void
batch_error(struct model *m, const struct evtop_opts *o, const char *err)
{
	fprintf(stderr, "evtop: %s: %s\n", o->target, err);
	model_error(m, err);
}

static int
batch_file(const struct evtop_opts *o)
{
	static struct batch_src b;
	const struct proto_ev *evs, *ev;
	struct model	*m;
	const struct proto_dec *dec;
	const char	*err;
	size_t		 n, i;
	char		*cause = NULL, derr[128] = "";
	uint64_t	 every = batch_interval_ns(o), next = 0;
	int		 started = 0, rc;

	if ((b.ord = order_open(o->target)) == NULL &&
	    (b.mg = merge_open(o->target, &cause)) == NULL) {
		fprintf(stderr, "evtop: %s\n", cause != NULL ? cause :
		    o->target);
		free(cause);
		return 1;
	}
	m = model_new();
	model_set_reorder(m, 0, 0);	/* both give time order */
	dec = b.ord != NULL ? order_dec(b.ord) : merge_dec(b.mg);
	if (dec != NULL)
		model_header(m, dec);
	if (b.ord != NULL && (b.fd = feed_new(b.ord, 1)) == NULL) {
		fprintf(stderr, "evtop: out of memory\n");
		return 1;
	}
	while ((n = batch_next(&b, &evs)) > 0) {
		for (i = 0; i < n;) {
			ev = &evs[i];
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
			i += model_apply_until(m, ev, n - i, next);
			if (i < n) {
				batch_emit(m, o, stdout);
				next += (evs[i].time - next) / every * every +
				    every;
			}
		}
	}
	if (b.fd != NULL && (err = feed_error(b.fd)) != NULL)
		snprintf(derr, sizeof derr, "%s", err);
	feed_free(b.fd);	/* the order is ours again */
	err = b.ord != NULL ? order_error(b.ord) : merge_error(b.mg);
	if (err != NULL)
		batch_error(m, o, err);
	if (derr[0] != '\0')
		batch_error(m, o, derr);
	model_flush(m);
	batch_emit(m, o, stdout);
	rc = export_end(m, o);
	model_free(m);
	order_free(b.ord);
	merge_free(b.mg);
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
