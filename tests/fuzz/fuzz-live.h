/*
 * fuzz-live.h: what loop.c does with a live source's reads, for the
 * fuzzers that take a live path (fuzz_live, fuzz_ui): the decoder, the
 * history and its corrections (redo.c), the model, in reads of sizes a
 * seed picks.  Header-only, static functions.
 */
#ifndef FUZZ_LIVE_H
#define FUZZ_LIVE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "time/redo.h"
#include "time/tl.h"

#define FUZZ_DEC	(64u << 10)
#define FUZZ_BOUND	(256u << 10)	/* the history: a few files */

struct live {
	struct proto_dec *dec;
	struct model	*m;
	struct redo	*r;
	struct tl	*tl;		/* or NULL: the timeline's summary */
	uint64_t	 newest, wall, decoded;
	uint64_t	 markers;	/* block markers among those decoded */
	int		 reset;		/* the model began a program again */
};

static void
live_drain(struct live *l)
{
	struct proto_ev	ev;
	enum proto_res	rc;

	while ((rc = proto_dec_next(l->dec, &ev)) != PROTO_AGAIN) {
		if (rc == PROTO_HEADER) {
			redo_finish(l->r);
			model_header(l->m, l->dec);
			redo_header(l->r, l->dec, proto_dec_offset(l->dec));
		} else if (rc == PROTO_EVENT) {
			/* (A time of UINT64_MAX is the end of every range:
			 * such an event is passed over, as in a file.) */
			l->decoded += ev.time != UINT64_MAX;
			l->markers += ev.time != UINT64_MAX &&
			    ev.kind == PROTO_BLOCK_MARKER;
			if (ev.time > l->newest)
				l->newest = ev.time;
			/* As loop.c: the summary has every event. */
			if (l->tl != NULL)
				tl_event(l->tl, &ev, 1);
			if (redo_event(l->r, &ev))
				model_apply(l->m, &ev);
		} else if (rc == PROTO_ERROR) {
			/* As loop.c: what came whole is kept first. */
			redo_commit(l->r, proto_dec_error_offset(l->dec),
			    l->wall, l->newest);
			redo_give_up(l->r, "bad bytes");
			model_error(l->m, proto_dec_error(l->dec));
		}
	}
}

/* One read, from a buffer written over once it is committed. */
static void
live_feed(struct live *l, uint8_t *buf, const uint8_t *p, size_t n)
{
	const uint8_t	*q = buf;
	size_t		 k;

	memcpy(buf, p, n);
	redo_bytes(l->r, buf, n);
	while (n > 0) {
		k = proto_dec_feed(l->dec, q, n);
		q += k;
		n -= k;
		live_drain(l);
		if (k == 0 && proto_dec_room(l->dec) == 0)
			proto_dec_reset(l->dec);
	}
	l->wall += 10000000;
	redo_commit(l->r, proto_dec_offset(l->dec), l->wall, l->newest);
	redo_tick(l->r, l->wall, 1);
	memset(buf, 0xa5, FUZZ_DEC);
}

/* A live source whose bytes are data[0..size), in reads of 1..2^(seed %
 * 17) bytes; the history kept, corrections run to the end; with tl, the
 * timeline's summary fed; hook, if not NULL, called after each read. */
static __attribute__((unused)) void
live_run_hook(struct live *l, unsigned seed, const uint8_t *data,
    size_t size, struct tl *tl, void (*hook)(struct live *))
{
	static uint8_t	 buf[FUZZ_DEC];
	char		*cause = NULL;
	size_t		 at, k, max = (size_t)1 << (seed % 17);

	memset(l, 0, sizeof *l);
	l->tl = tl;
	if ((l->dec = proto_dec_new(FUZZ_DEC)) == NULL ||
	    (l->m = model_new()) == NULL ||
	    (l->r = redo_new(l->m, FUZZ_BOUND, 0, &cause)) == NULL)
		abort();
	redo_connect(l->r);
	for (at = 0; at < size; at += k) {
		seed = seed * 1103515245u + 12345u;
		k = 1 + (seed >> 8) % max;
		if (k > size - at)
			k = size - at;
		live_feed(l, buf, data + at, k);
		if (hook != NULL)
			hook(l);
	}
	redo_finish(l->r);
	model_flush(l->m);
}

static __attribute__((unused)) void
live_run(struct live *l, unsigned seed, const uint8_t *data, size_t size,
    struct tl *tl)
{
	live_run_hook(l, seed, data, size, tl, NULL);
}

static __attribute__((unused)) void
live_free(struct live *l)
{
	redo_free(l->r);
	model_free(l->m);
	proto_dec_free(l->dec);
}

#endif
