/*
 * t_aside.c: late global events applied where they belong
 * (model_late_global()), and again after a correction goes back past
 * their coming (redo.c keeps them aside).
 *
 * From each log given: its events in time order, in blocks of one
 * capability, but the global ones (no capability: GHC 9.0 sends its
 * capability sets, tasks and the program's identity at exit, with the
 * times of the start) in one block after them all, and then the block of
 * the highest capability that began after 60% of the events, late: its
 * correction
 * goes back to a checkpoint taken before the global block came and after
 * the global events' times.  Through a
 * live source's path (tests/fuzz/fuzz-live.h: the history, corrections),
 * in reads of up to 1 KiB: the final JSON equals the file's, nothing late,
 * with at least one correction.  A log longer than the history's bound:
 * the events older than it late, and every event counted once (those
 * applied where they came were lost to the next correction that went back
 * past their coming).
 *
 *	t_aside LOG...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evtop.h"
#include "../fuzz/fuzz-live.h"
#include "../tap.h"

struct buf {
	uint8_t		*p;
	size_t		 n, cap;
};

static void
put(struct buf *b, const void *p, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2;
		if ((b->p = realloc(b->p, b->cap)) == NULL)
			abort();
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void
be(uint8_t *p, uint64_t v, int n)
{
	while (n-- > 0) {
		p[n] = (uint8_t)v;
		v >>= 8;
	}
}

static uint64_t	nblocks;

/* A block of cap's events (bytes as in the file), its marker first. */
static void
block(struct buf *out, int32_t cap, const struct buf *evs, uint64_t t0,
    uint64_t t1)
{
	uint8_t	m[24];

	if (evs->n == 0)
		return;
	nblocks++;
	be(m, 18, 2);			/* EVENT_BLOCK_MARKER */
	be(m + 2, t0, 8);
	be(m + 10, sizeof m + evs->n, 4);
	be(m + 14, t1, 8);
	be(m + 22, cap < 0 ? 0xffff : (uint64_t)cap, 2);
	put(out, m, sizeof m);
	put(out, evs->p, evs->n);
}

static char *
json_of(struct model *m)
{
	char	*j = NULL;
	size_t	 n = 0;
	FILE	*f;

	if ((f = open_memstream(&j, &n)) == NULL)
		abort();
	model_json(m, f);
	fclose(f);
	return j;
}

static void
t_log(const char *path)
{
	struct reader	*mg;
	struct model	*a;
	struct proto_ev	 e;
	struct buf	 out = { 0 }, cur = { 0 }, glob = { 0 }, last = { 0 };
	struct live	 l;
	struct redo_stats rs;
	char		*cause = NULL, *ja, *jb;
	uint8_t		*hdr;
	uint64_t	 t0 = 0, t1 = 0, g0 = 0, g1 = 0;
	size_t		 n, last_at = 0, last_len = 0, total = 0, seen = 0;
	int32_t		 cap = -2, top = 0;

	if ((mg = reader_open(path, &cause)) == NULL) {
		ok(0, "%s: %s", path, cause);
		free(cause);
		return;
	}
	nblocks = 0;
	a = model_new();
	model_set_reorder(a, 0, 0);
	model_header(a, reader_dec(mg));
	n = proto_header_encode(reader_dec(mg), NULL, 0);
	if ((hdr = malloc(n)) == NULL)
		abort();
	proto_header_encode(reader_dec(mg), hdr, n);
	put(&out, hdr, n);
	free(hdr);
	while (reader_next(mg, &e) == PROTO_EVENT) {
		total += e.cap >= 0 && e.kind != PROTO_BLOCK_MARKER;
		if (e.cap > top)
			top = e.cap;
	}
	if (reader_seek(mg, 0, 0) != 0)
		abort();
	/* Blocks of one cap in time order; the global events aside. */
	while (reader_next(mg, &e) == PROTO_EVENT) {
		const uint8_t	*raw = e.payload - (e.size - e.len);

		/* (The file's blocks are not those written.) */
		if (e.kind == PROTO_BLOCK_MARKER)
			continue;
		model_apply(a, &e);
		if (e.cap < 0) {
			if (glob.n == 0)
				g0 = e.time;
			g1 = e.time;
			put(&glob, raw, e.size);
			continue;
		}
		if (e.cap != cap || cur.n > 4096) {
			if (cap == top && last_len == 0 &&
			    seen >= total * 3 / 5) {
				last_at = out.n;
				last_len = 24 + cur.n;
			}
			block(&out, cap, &cur, t0, t1);
			cur.n = 0;
			cap = e.cap;
			t0 = e.time;
		}
		t1 = e.time;
		put(&cur, raw, e.size);
		seen++;
	}
	if (cap == top && last_len == 0) {
		last_at = out.n;
		last_len = 24 + cur.n;
	}
	block(&out, cap, &cur, t0, t1);
	model_flush(a);
	/* That block after the global one. */
	if (last_len > 0 && last_at + last_len <= out.n) {
		put(&last, out.p + last_at, last_len);
		memmove(out.p + last_at, out.p + last_at + last_len,
		    out.n - last_at - last_len);
		out.n -= last_len;
	}
	block(&out, -1, &glob, g0, g1);
	put(&out, last.p, last.n);
	put(&out, "\xff\xff", 2);
	a->totals.blocks = nblocks;
	ja = json_of(a);

	if (getenv("T_ASIDE_DUMP") != NULL) {	/* as fuzz_live takes it */
		FILE	*f = fopen(getenv("T_ASIDE_DUMP"), "wb");

		if (f != NULL) {
			fputc(10, f);
			fwrite(out.p, 1, out.n, f);
			fclose(f);
		}
	}
	live_run(&l, 10, out.p, out.n, NULL);	/* reads of up to 1 KiB */
	jb = json_of(l.m);
	redo_stats(l.r, &rs);
	/* Past the history's bound (FUZZ_BOUND): those older than it are
	 * late, each counted once, none lost to a correction after them. */
	if (out.n > FUZZ_BOUND) {
		ok(l.m->totals.late > 0 && l.m->totals.events +
		    l.m->totals.blocks == l.decoded, "%s (%zu bytes, past the "
		    "history): every event counted (%llu decoded), late %llu",
		    path, out.n, (unsigned long long)l.decoded,
		    (unsigned long long)l.m->totals.late);
	} else {
		ok(glob.n > 0 && last.n > 0 && rs.corrections > 0 &&
		    l.m->totals.late == 0 && strcmp(ja, jb) == 0, "%s: the "
		    "global events at the end, a block of cap %d after them: "
		    "live = file, late %llu, %llu corrections (%zu, %zu bytes "
		    "moved)", path, top, (unsigned long long)l.m->totals.late,
		    (unsigned long long)rs.corrections, glob.n, last.n);
	}
	if (strcmp(ja, jb) != 0 && getenv("T_ASIDE_SAY") != NULL)
		printf("#  file %s\n#  live %s\n", ja, jb);
	live_free(&l);
	free(ja);
	free(jb);
	free(out.p);
	free(cur.p);
	free(glob.p);
	free(last.p);
	model_free(a);
	reader_free(mg);
}

int
main(int argc, char **argv)
{
	int	i;

	for (i = 1; i < argc; i++)
		t_log(argv[i]);
	return tap_done();
}
