/*
 * t_aside.c: late global events applied where they belong
 * (model_late_global()), and again after a correction goes back past
 * their coming (redo.c keeps them aside).
 *
 * From each log given: its events in time order, in blocks of one
 * capability, but the global ones (no capability: GHC 9.0 sends its
 * capability sets, tasks and the program's identity at exit, with the
 * times of the start) in one block after them all, and then the block of
 * the highest capability that ends past 60% of the events, late: its
 * correction goes back to a checkpoint taken before the global block came
 * and after the global events' times.  Then again with the global block
 * coming during that correction, and a block that ends past 30% of the
 * events after it: the correction goes back again, past where the global
 * events belong (redo.c keeps those that come during a run).  Through a
 * live source's path (tests/fuzz/fuzz-live.h: the history, corrections),
 * in reads of up to 1 KiB: the final JSON equals the file's, nothing late,
 * with at least one correction.  A log longer than the history's bound:
 * the events older than it late, and every event counted once (those
 * applied where they came were lost to the next correction that went back
 * past their coming).
 *
 * Built with small runs and a small memory for what comes during one
 * (-DT_ASIDE_OVERFLOW: REDO_N, FEED_N, REDO_Q_BYTES), a run is restarted
 * or reads again what came (history.overflowed): at least once in all.
 *
 *	t_aside LOG...
 */
#include <sys/resource.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

/* A block written: where in the output, and the events before it. */
struct blk {
	size_t		 at, len;
	size_t		 seen;
	int32_t		 cap;
};

static struct blk	*blks;
static size_t		 nblks, blks_room;

/* A block of cap's events (bytes as in the file), its marker first; seen:
 * the capabilities' events up to its end. */
static void
block(struct buf *out, int32_t cap, const struct buf *evs, uint64_t t0,
    uint64_t t1, size_t seen)
{
	uint8_t	m[24];

	if (evs->n == 0)
		return;
	if (nblks == blks_room) {
		blks_room = blks_room * 2 + 64;
		if ((blks = realloc(blks, blks_room * sizeof *blks)) == NULL)
			abort();
	}
	blks[nblks++] = (struct blk){ out->n, sizeof m + evs->n, seen, cap };
	nblocks++;
	be(m, 18, 2);			/* EVENT_BLOCK_MARKER */
	be(m + 2, t0, 8);
	be(m + 10, sizeof m + evs->n, 4);
	be(m + 14, t1, 8);
	be(m + 22, cap < 0 ? 0xffff : (uint64_t)cap, 2);
	put(out, m, sizeof m);
	put(out, evs->p, evs->n);
}

/* The first block of cap (any: -1) that ends after part of the events,
 * not skip: its index, or -1. */
static long
pick(int32_t cap, size_t part, long skip)
{
	size_t	i;

	for (i = 0; i < nblks; i++)
		if ((cap < 0 || blks[i].cap == cap) && (long)i != skip &&
		    blks[i].seen >= part)
			return (long)i;
	return -1;
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

static uint64_t	overflowed;
static struct rlimit	fd_limit;
static int		fd_cut;
static uint64_t		shown;		/* events, before the correction */

/* Once a correction runs, no more files: its history cannot be read. */
static void
cut_files(struct live *l)
{
	struct rlimit	lim = fd_limit;
	int		fd;

	if (!fd_cut && !redo_busy(l->r))
		shown = l->m->totals.events;
	if (fd_cut || !redo_busy(l->r))
		return;
	if ((fd = dup(0)) < 0)
		abort();
	close(fd);
	lim.rlim_cur = (rlim_t)fd;	/* the lowest free one is too many */
	if (setrlimit(RLIMIT_NOFILE, &lim) != 0)
		abort();
	fd_cut = 1;
}

/*
 * mode 0: ..., the global block, the highest cap's block after 60%;
 * mode 1: ..., that block, the global block, a block after 30%.
 */
static void
t_log(const char *path, int mode)
{
	struct reader	*mg;
	struct model	*a;
	struct proto_ev	 e;
	struct buf	 out = { 0 }, cur = { 0 }, glob = { 0 }, tail = { 0 };
	struct live	 l;
	struct redo_stats rs;
	char		*cause = NULL, *ja, *jb;
	uint8_t		*hdr;
	uint64_t	 t0 = 0, t1 = 0, g0 = 0, g1 = 0;
	size_t		 n, total = 0, seen = 0, moved = 0, i;
	long		 la, lb = -1, mv[2];
	int32_t		 cap = -2, top = 0;

	if ((mg = reader_open(path, &cause)) == NULL) {
		ok(0, "%s: %s", path, cause);
		free(cause);
		return;
	}
	nblocks = nblks = 0;
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
			block(&out, cap, &cur, t0, t1, seen);
			cur.n = 0;
			cap = e.cap;
			t0 = e.time;
		}
		t1 = e.time;
		put(&cur, raw, e.size);
		seen++;
	}
	block(&out, cap, &cur, t0, t1, seen);
	model_flush(a);
	la = pick(top, total * 3 / 5, -1);
	if (mode >= 1)
		lb = pick(-1, total * 3 / 10, la);
	/* The blocks moved, out of the output, in the order they go. */
	mv[0] = la;
	mv[1] = lb;
	for (i = 0; i < 2; i++) {
		if (mv[i] >= 0 && (mode == 0 || (la >= 0 && lb >= 0))) {
			put(&tail, out.p + blks[mv[i]].at, blks[mv[i]].len);
			moved += blks[mv[i]].len;
		} else
			mv[i] = -1;
	}
	n = 0;
	for (i = 0; i < nblks; i++) {
		if ((long)i == mv[0] || (long)i == mv[1])
			continue;
		memmove(out.p + blks[0].at + n, out.p + blks[i].at,
		    blks[i].len);
		n += blks[i].len;
	}
	if (nblks > 0)
		out.n = blks[0].at + n;
	if (mode == 0 || mv[1] < 0) {
		block(&out, -1, &glob, g0, g1, seen);
		put(&out, tail.p, tail.n);
	} else {
		put(&out, tail.p, blks[mv[0]].len);
		block(&out, -1, &glob, g0, g1, seen);
		put(&out, tail.p + blks[mv[0]].len, tail.n - blks[mv[0]].len);
	}
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
	/* Reads of up to 1 KiB (mode 2: files cut during a correction). */
	fd_cut = 0;
	live_run_hook(&l, 10, out.p, out.n, NULL, mode == 2 ? cut_files :
	    NULL);
	if (fd_cut && setrlimit(RLIMIT_NOFILE, &fd_limit) != 0)
		abort();
	jb = json_of(l.m);
	redo_stats(l.r, &rs);
	overflowed += rs.overflowed;
	/* Past the history's bound (FUZZ_BOUND): those older than it are
	 * late, each counted once, none lost to a correction after them. */
	if (mode == 2) {
		/* What was shown stays: the late events the correction was
		 * for, and those held back, only its files had. */
		ok(fd_cut && rs.error != NULL && l.m->totals.events >= shown &&
		    l.m->totals.events <= l.decoded - l.markers, "%s: no file "
		    "to be had during a correction: given up (%s), the figures "
		    "as shown kept: %llu events, %llu before it, of %llu",
		    path, rs.error != NULL ? rs.error : "no error",
		    (unsigned long long)l.m->totals.events,
		    (unsigned long long)shown,
		    (unsigned long long)(l.decoded - l.markers));
	} else if (out.n > FUZZ_BOUND) {
		ok(l.m->totals.late > 0 && l.m->totals.blocks == l.markers &&
		    l.m->totals.events == l.decoded - l.markers &&
		    l.m->totals.events == a->totals.events, "%s (%zu bytes, "
		    "past the history, layout %d): every event counted (%llu "
		    "decoded, %llu events of %llu), late %llu", path, out.n,
		    mode, (unsigned long long)l.decoded,
		    (unsigned long long)l.m->totals.events,
		    (unsigned long long)a->totals.events,
		    (unsigned long long)l.m->totals.late);
	} else {
		ok(glob.n > 0 && moved > 0 && rs.corrections > 0 &&
		    l.m->totals.late == 0 && strcmp(ja, jb) == 0, "%s: the "
		    "global events at the end, %s: live = file, late %llu, "
		    "%llu corrections, %llu overflowed (%zu, %zu bytes moved)",
		    path, mode == 0 ? "a block of the highest cap after them" :
		    "during a correction, a block of 30% after them",
		    (unsigned long long)l.m->totals.late,
		    (unsigned long long)rs.corrections,
		    (unsigned long long)rs.overflowed, glob.n, moved);
	}
	if (strcmp(ja, jb) != 0 && getenv("T_ASIDE_SAY") != NULL)
		printf("#  file %s\n#  live %s\n", ja, jb);
	live_free(&l);
	free(ja);
	free(jb);
	free(out.p);
	free(cur.p);
	free(glob.p);
	free(tail.p);
	model_free(a);
	reader_free(mg);
}

int
main(int argc, char **argv)
{
	int	i;

	if (getrlimit(RLIMIT_NOFILE, &fd_limit) != 0)
		abort();
	for (i = 1; i < argc; i++) {
		t_log(argv[i], 0);
		t_log(argv[i], 1);
		t_log(argv[i], 2);
	}
#ifdef T_ASIDE_OVERFLOW
	ok(overflowed > 0, "runs that overflowed what they keep: %llu",
	    (unsigned long long)overflowed);
#endif
	free(blks);
	return tap_done();
}
