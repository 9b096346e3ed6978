/*
 * bench-search.c: the raw events' search through a whole log, against
 * the time of `evtop --batch --json` on the same log; prints the ratio.
 * The queries: the last event's line (found once, at the very end), then
 * those given (strings no line holds make every event be looked at).
 *
 * usage: bench-search EVTOP FILE QUERY...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "time/evlist.h"

static double
now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The best of three: the machine is shared. */
static double
batch_time(const char *evtop, const char *path)
{
	char	cmd[4096];
	double	best = 1e9, t;
	int	i;

	snprintf(cmd, sizeof cmd, "%s --batch --json '%s' >/dev/null", evtop,
	    path);
	for (i = 0; i < 3; i++) {
		t = now();
		if (system(cmd) != 0)
			return -1;
		t = now() - t;
		if (t < best)
			best = t;
	}
	return best;
}

static int
one(struct evl *e, const char *q, double tb)
{
	struct evl_pos	 start = { 0, 0 };
	enum evl_state	 st = EVL_IDLE;
	unsigned long	 slices = 0;
	double		 t, best = 1e9;
	int		 k;

	for (k = 0; k < 3; k++) {
		evl_search(e, q, start, 1);
		slices = 0;
		t = now();
		while ((st = evl_step(e, 131072)) == EVL_RUNNING)
			slices++;
		t = now() - t;
		if (t < best)
			best = t;
	}
	printf("search: \"%s\" %s after %llu events, %lu slices: %.3f s, "
	    "--batch %.3f s, ratio %.2f (target <= 1)\n", q,
	    st == EVL_FOUND ? "found" : "not found",
	    (unsigned long long)evl_searched(e), slices + 1, best, tb,
	    best / tb);
	return best > tb;
}

int
main(int argc, char **argv)
{
	struct evl	*e;
	struct evl_pos	 last;
	struct evl_line	 l;
	char		*cause = NULL, q[EVL_QUERY];
	double		 tb, t;
	int		 i, bad = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: bench-search EVTOP FILE QUERY...\n");
		return 2;
	}
	if ((tb = batch_time(argv[1], argv[2])) < 0) {
		fprintf(stderr, "bench-search: --batch failed\n");
		return 1;
	}
	t = now();
	if ((e = evl_open(argv[2], &cause)) == NULL) {
		fprintf(stderr, "bench-search: %s\n", cause);
		return 1;
	}
	printf("search: opening (the reader's scan, once) %.3f s\n",
	    now() - t);
	if (evl_last(e, 1, &last) == 0 && evl_read(e, last, &l, 1) == 1) {
		snprintf(q, sizeof q, "%.*s", (int)(l.ntext < sizeof q - 1 ?
		    l.ntext : sizeof q - 1), l.text);
		bad |= one(e, q, tb);
	}
	for (i = 3; i < argc; i++)
		bad |= one(e, argv[i], tb);
	evl_free(e);
	return bad;
}
