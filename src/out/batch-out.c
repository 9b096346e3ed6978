/*
 * batch-out.c: what --batch prints, and how often: the model as text
 * (like `top -b`) or one JSON object a line (for batch.c's file replay and
 * loop.c's live sources).
 */
#include <stdio.h>
#include <stdlib.h>

#include "evtop.h"
#include "model/model.h"

#define BATCH_DEFAULT_NS	1000000000ULL

/* Print the model once, in the form the options ask for; more: JSON keys
 * of the source's to add, or NULL. */
void
batch_emit(const struct model *m, const struct evtop_opts *o, FILE *f,
    const char *more)
{
	if (export_stdout(o))
		return;		/* stdout carries an export */
	if (o->json)
		model_json_more(m, f, more);
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
