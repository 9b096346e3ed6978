/*
 * t_join.c: the scan's check across the cut of a file scanned in two
 * halves (reader_fast_follows() in src/read/reader-scan.c, included here for
 * its static functions) is sound: whenever it lets a stream's second half
 * follow its first, every event of the joined stream is at least every one
 * 2 * READER_GROUP places or more before it, which the single pass's
 * lookahead needs.  Checked by brute force on random streams, nearly
 * sorted with steps back of every size and now and then one far ahead,
 * cut everywhere; and it lets the halves join when the stream is sorted.
 *
 *	t_join [ROUNDS]
 */
#include "read/reader-scan.c"

#include "../tap.h"
#include "rnd.h"

#define T_MAX	400

/* The scan's state over t[0..n) as reader_fast_span() keeps it, and the
 * events it keeps in the stream (not taken out) in keep[]. */
static size_t
scan(struct reader_fstream *s, const uint64_t *t, size_t n, uint64_t *keep)
{
	size_t	i, k = 0;

	memset(s, 0, sizeof *s);
	s->gcnt = READER_GROUP;
	for (i = 0; i < n; i++) {
		if (t[i] < s->floor)
			continue;	/* taken out */
		keep[k++] = t[i];
		s->gcur = reader_max(s->gcur, t[i]);
		if (s->hn < READER_HEAD)
			s->head[s->hn++] = t[i];
		if (--s->gcnt == 0) {
			s->floor = reader_max(s->floor, s->gprev);
			s->gprev = s->gcur;
			s->gcur = 0;
			s->gcnt = READER_GROUP;
		}
	}
	return k;
}

/* Every event at least every one 2 * READER_GROUP places or more before
 * it, in the first half's events then the second's. */
static int
sound(const uint64_t *a, size_t na, const uint64_t *b, size_t nb)
{
	uint64_t	pmax = 0;
	size_t		i, j, n = na + nb;
	uint64_t	v[2 * T_MAX];

	memcpy(v, a, na * sizeof *a);
	memcpy(v + na, b, nb * sizeof *b);
	for (j = 2 * READER_GROUP, i = 0; j < n; j++, i++) {
		pmax = reader_max(pmax, v[i]);
		if (v[j] < pmax)
			return 0;
	}
	return 1;
}

int
main(int argc, char **argv)
{
	struct reader_fstream *s1, *s2;
	uint64_t	 t[2 * T_MAX], a[T_MAX], b[T_MAX], now;
	size_t		 n1, n2, na, nb, i;
	long		 rounds = argc > 1 ? atol(argv[1]) : 200000, r;
	long		 joined = 0, refused = 0, unsound = 0, sorted_refused = 0;
	unsigned	 back, ahead;

	s1 = calloc(1, sizeof *s1);
	s2 = calloc(1, sizeof *s2);
	if (s1 == NULL || s2 == NULL)
		return 2;
	for (r = 0; r < rounds; r++) {
		n1 = 1 + rnd() % T_MAX;
		n2 = 1 + rnd() % T_MAX;
		/* Steps back: none, a few places, far. */
		back = (unsigned)(r % 4 == 0 ? 0 : r % 4 == 1 ? 4 :
		    r % 4 == 2 ? 40 : 400);
		ahead = (unsigned)(r % 3 == 2 ? 100 : 0);
		now = 1000;
		for (i = 0; i < n1 + n2; i++) {
			now += rnd() % 4;
			t[i] = now;
			if (back > 0 && rnd() % 8 == 0)
				t[i] -= rnd() % back;
			if (ahead > 0 && rnd() % 64 == 0)
				t[i] += rnd() % ahead;
		}
		na = scan(s1, t, n1, a);
		nb = scan(s2, t + n1, n2, b);
		if (reader_fast_follows(s1, s2)) {
			joined++;
			/* The second half's own check passed on its events
			 * (scan() kept them): together they must hold. */
			if (!sound(a, na, b, nb) && unsound++ == 0)
				printf("# unsound join: round %ld, %zu + %zu "
				    "events, steps back of %u\n", r, n1, n2,
				    back);
		} else {
			refused++;
			if (back == 0 && ahead == 0 && sorted_refused++ == 0)
				printf("# a sorted stream refused: round %ld\n",
				    r);
		}
	}
	ok(unsound == 0, "%ld joins, %ld refused: none lets an event go "
	    "before one 2 * %d places or more ahead of it (%ld did)",
	    joined, refused, READER_GROUP, unsound);
	ok(sorted_refused == 0, "sorted streams always join (%ld refused)",
	    sorted_refused);
	ok(refused > 0 && joined > rounds / 4, "both ways taken");
	free(s1);
	free(s2);
	return tap_done();
}
