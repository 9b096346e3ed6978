/*
 * bench_tl.c: what feeding the timeline's summary costs a first pass over
 * a file: the file read (reader.c) alone, then read and every event given
 * to tl_event(); CPU seconds of each and the difference per event.
 *
 * usage: bench_tl FILE [MAX-EVENTS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "evtop.h"
#include "time/tl.h"

#define BATCH	1024

static double
cpu(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double
pass(const char *path, int feed, uint64_t max, uint64_t *events,
    struct tl **out)
{
	static struct proto_ev	 ev[BATCH];
	struct reader		*r;
	struct tl		*tl = NULL;
	char			*cause = NULL;
	size_t			 k;
	double			 t0;

	if ((r = reader_open(path, &cause)) == NULL) {
		fprintf(stderr, "%s: %s\n", path, cause);
		exit(1);
	}
	if (feed && (tl = tl_new()) == NULL)
		exit(1);
	*events = 0;
	t0 = cpu();
	while (*events < max && (k = reader_next_n(r, ev, BATCH)) > 0) {
		if (feed)
			tl_event(tl, ev, k);
		*events += k;
	}
	t0 = cpu() - t0;
	reader_free(r);
	*out = tl;
	return t0;
}

int
main(int argc, char **argv)
{
	struct tl	*tl, *none;
	uint64_t	 n, n2, max = argc > 2 ? strtoull(argv[2], NULL, 10) :
			    UINT64_MAX;
	double		 a, b;

	if (argc < 2) {
		fprintf(stderr, "usage: bench_tl FILE [MAX-EVENTS]\n");
		return 2;
	}
	a = pass(argv[1], 0, max, &n, &none);
	b = pass(argv[1], 1, max, &n2, &tl);
	printf("bench_tl: %llu events: read %.3f s, read + tl_event %.3f s: "
	    "%.1f ns an event for the summary (%d caps, %llu pauses, %zu "
	    "buckets of %llu ns)\n", (unsigned long long)n, a, b,
	    (b - a) * 1e9 / (double)(n ? n : 1), tl_ncaps(tl),
	    (unsigned long long)tl_pauses(tl), tl_nbuckets(tl),
	    (unsigned long long)tl_width(tl));
	tl_free(tl);
	return 0;
}
