/*
 * batch.c: evtop --batch: the model printed as text (like `top -b`) or as
 * one JSON object per line, every --interval seconds of event time and
 * once at the end.  Files are replayed as fast as they can be read, in the
 * reference's time order (merge.c).
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

static int
batch_file(const struct evtop_opts *o)
{
	static struct proto_ev evs[BATCH_EVENTS];
	struct proto_ev	*ev;
	struct merge	*mg;
	struct model	*m;
	const char	*err;
	size_t		 n, i;
	char		*cause = NULL;
	uint64_t	 every = batch_interval_ns(o), next = 0;
	int		 started = 0;

	if ((mg = merge_open(o->target, &cause)) == NULL) {
		fprintf(stderr, "evtop: %s\n", cause != NULL ? cause :
		    o->target);
		free(cause);
		return 1;
	}
	m = model_new();
	model_set_reorder(m, 0, 0);	/* merge_next gives time order */
	if (merge_dec(mg) != NULL)
		model_header(m, merge_dec(mg));
	while ((n = merge_next_n(mg, evs, BATCH_EVENTS)) > 0) {
		for (i = 0; i < n; i++) {
			ev = &evs[i];
			if (ev->kind == PROTO_BLOCK_MARKER)
				;
			else if (!started) {
				started = 1;
				next = ev->time + every;
			} else if (ev->time >= next) {
				batch_emit(m, o, stdout);
				next += (ev->time - next) / every * every +
				    every;
			}
			model_apply(m, ev);
		}
	}
	if ((err = merge_error(mg)) != NULL) {
		fprintf(stderr, "evtop: %s: %s\n", o->target, err);
		model_error(m, err);
	}
	model_flush(m);
	batch_emit(m, o, stdout);
	model_free(m);
	merge_free(mg);
	return ferror(stdout) ? 1 : 0;
}

int
batch_main(const struct evtop_opts *o)
{
	if (o->kind != EVTOP_SRC_FILE)
		return loop_batch(o);	/* live sources: loop.c */
	return batch_file(o);
}
