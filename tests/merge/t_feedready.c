/*
 * t_feedready.c: feed_ready() says 1 exactly when feed_next_p() would
 * give at once: a slab filled beyond the one held, or the end.  The fill
 * function waits for the test's word before each slab, so what the
 * thread has filled is known at every check.  (redo.c ends a slice rather
 * than wait when the loop has input: a ready feed that waited would stall
 * the loop; one that was never ready would stop corrections going on.)
 */
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "evtop.h"
#include "../tap.h"

#define NEV	3

static sem_t		 go;
static _Atomic int	 fills;
static struct proto_ev	 evs[NEV];

static size_t
fill(void *arg, const struct proto_ev **ev, size_t max, uint64_t slab,
    uint64_t released)
{
	int	k;

	sem_wait(&go);
	if ((k = atomic_fetch_add(&fills, 1)) >= NEV)
		return 0;
	ev[0] = &evs[k];
	return 1;
}

/* Whether f becomes ready within 5 s. */
static int
becomes_ready(const struct feed *f)
{
	struct timespec	ts = { 0, 1000000 };
	int		i;

	for (i = 0; i < 5000; i++) {
		if (feed_ready(f))
			return 1;
		nanosleep(&ts, NULL);
	}
	return 0;
}

int
main(void)
{
	const struct proto_ev *const *p;
	struct feed	*f;
	size_t		 n;
	int		 i;

	if (!reader_cores()) {
		printf("t_feedready: SKIPPED (one core: no thread)\n");
		return 0;
	}
	sem_init(&go, 0, 0);
	if ((f = feed_new_fill_p(fill, NULL, 1)) == NULL)
		return 2;
	ok(!feed_ready(f), "nothing filled: not ready");
	for (i = 0; i < NEV; i++) {
		sem_post(&go);
		ok(becomes_ready(f), "event %d filled: ready", i);
		n = feed_next_p(f, &p);
		ok(n == 1 && p[0] == &evs[i], "event %d given", i);
		ok(!feed_ready(f), "event %d held, the next not filled: "
		    "not ready", i);
	}
	sem_post(&go);	/* the end */
	ok(becomes_ready(f), "the end filled: ready");
	ok(feed_next_p(f, &p) == 0, "the end given");
	ok(feed_ready(f), "past the end: ready (feed_next_p gives 0)");
	feed_free(f);
	return tap_done();
}
