/*
 * fuzz_live.c: libFuzzer over a live source's path past the decoder: the
 * bytes kept in the history (spill.c), late events put back by taking the
 * model to a checkpoint and applying the history again (redo.c, ckpt.c,
 * reader.c over the history's files), the model, its JSON.  What loop.c
 * does with a read, in reads of sizes the input's first byte picks.
 * Beyond not crashing: every event decoded is counted once by the model,
 * however it came back (events plus block markers).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "time/redo.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define FUZZ_DEC	(64u << 10)
#define FUZZ_BOUND	(256u << 10)	/* the history: a few files */

struct live {
	struct proto_dec *dec;
	struct model	*m;
	struct redo	*r;
	uint64_t	 newest, wall, decoded;
	int		 reset;		/* the model began a program again */
};

static void
drain(struct live *l)
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
			if (ev.time > l->newest)
				l->newest = ev.time;
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
feed(struct live *l, uint8_t *buf, const uint8_t *p, size_t n)
{
	const uint8_t	*q = buf;
	size_t		 k;

	memcpy(buf, p, n);
	redo_bytes(l->r, buf, n);
	while (n > 0) {
		k = proto_dec_feed(l->dec, q, n);
		q += k;
		n -= k;
		drain(l);
		if (k == 0 && proto_dec_room(l->dec) == 0)
			proto_dec_reset(l->dec);
	}
	l->wall += 10000000;
	redo_commit(l->r, proto_dec_offset(l->dec), l->wall, l->newest);
	redo_tick(l->r, l->wall, 1);
	memset(buf, 0xa5, FUZZ_DEC);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t	 buf[FUZZ_DEC];
	struct live	 l;
	char		*cause = NULL, *out = NULL;
	size_t		 at, k, max, outlen = 0;
	unsigned	 seed;
	FILE		*f;

	if (size < 1)
		return 0;
	/* Reads of 1..max bytes: a byte at a time up to 64 KiB. */
	max = (size_t)1 << (data[0] % 17);
	seed = data[0];
	data++;
	size--;
	memset(&l, 0, sizeof l);
	if ((l.dec = proto_dec_new(FUZZ_DEC)) == NULL ||
	    (l.m = model_new()) == NULL ||
	    (l.r = redo_new(l.m, FUZZ_BOUND, 0, &cause)) == NULL)
		abort();
	redo_connect(l.r);
	for (at = 0; at < size; at += k) {
		seed = seed * 1103515245u + 12345u;
		k = 1 + (seed >> 8) % max;
		if (k > size - at)
			k = size - at;
		feed(&l, buf, data + at, k);
	}
	redo_finish(l.r);
	model_flush(l.m);
	if ((f = open_memstream(&out, &outlen)) == NULL)
		abort();
	model_json(l.m, f);
	fclose(f);
	free(out);
	/* Each event once: a program begun again forgets what came before. */
	if (l.m->prog.resets == 0 &&
	    l.m->totals.events + l.m->totals.blocks != l.decoded) {
		if (getenv("FUZZ_SAY"))
			fprintf(stderr, "decoded %llu, events %llu, blocks %llu, late %llu\n", (unsigned long long)l.decoded, (unsigned long long)l.m->totals.events, (unsigned long long)l.m->totals.blocks, (unsigned long long)l.m->totals.late);
		abort();
	}
	redo_free(l.r);
	model_free(l.m);
	proto_dec_free(l.dec);
	return 0;
}
