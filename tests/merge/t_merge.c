/*
 * t_merge.c: what merge_next() delivers for each file, as one line:
 *
 *	t_merge FILE...
 *	-> NAME EVENTS DIGEST SET SORTED ERROR
 *
 * DIGEST folds every event's time, offset, cap, tag, size and payload, in
 * the order delivered, SET the same in any order; SORTED says whether that
 * order is by (time, offset).  Built with -DT_MERGE_ORDER (t_order), it
 * reads each file through order.c instead when order_open() takes it, and
 * says on stderr which it took; with -DT_MERGE_FEED too (t_feed), through
 * feed.c's reader thread (or, with -DT_MERGE_FEED_SYNC, without it).
 * merge.sh builds this with several MERGE_* settings (the single pass with
 * chunks and holds of many sizes, and the two passes alone) and wants the
 * same line from each.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evtop.h"

static void
mix(uint64_t *h, const void *p, size_t n)
{
	const unsigned char	*c = p;
	size_t			 i;

	for (i = 0; i < n; i++) {
		*h ^= c[i];
		*h *= 1099511628211ULL;
	}
}

/* The next event of the file, from whichever reads it; NULL at the end. */
static const struct proto_ev *
next(struct merge *m, struct order *o, struct feed *fd)
{
	static struct proto_ev	 ev;
	static const struct proto_ev *evs;
	static size_t		 i, n;

	if (fd != NULL) {
		if (i == n) {
			i = 0;
			if ((n = feed_next(fd, &evs)) == 0)
				return NULL;
		}
		return &evs[i++];
	}
	i = n = 0;
	if (o != NULL)
		return order_next_n(o, &ev, 1) == 1 ? &ev : NULL;
	return merge_next(m, &ev) == PROTO_EVENT ? &ev : NULL;
}

int
main(int argc, char **argv)
{
	struct merge	*m;
	struct order	*o = NULL;
	struct feed	*fd = NULL;
	const struct proto_ev *ev;
	const char	*name, *err, *ferr = NULL;
	char		*cause;
	uint64_t	 h, h1, set, n, v[4], last_t, last_off;
	int		 i, sorted, rc = 0;

	for (i = 1; i < argc; i++) {
		name = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 :
		    argv[i];
#ifdef T_MERGE_ORDER
		o = order_open(argv[i]);
		fprintf(stderr, "%s: %s\n", name, o != NULL ? "order" :
		    "merge");
#endif
#ifdef T_MERGE_FEED
#ifdef T_MERGE_FEED_SYNC
		if (o != NULL && (fd = feed_new(o, 0)) == NULL)
#else
		if (o != NULL && (fd = feed_new(o, 1)) == NULL)
#endif
			return 2;
#endif
		m = NULL;
		if (o == NULL && (m = merge_open(argv[i], &cause)) == NULL) {
			printf("%s open-failed\n", name);
			free(cause);
			rc = 1;
			continue;
		}
		h = 14695981039346656037ULL;
		set = 0;
		n = 0;
		sorted = 1;
		last_t = last_off = 0;
		while ((ev = next(m, o, fd)) != NULL) {
			if (n > 0 && (ev->time < last_t || (ev->time == last_t &&
			    ev->off <= last_off)))
				sorted = 0;
			last_t = ev->time;
			last_off = ev->off;
			v[0] = ev->time;
			v[1] = ev->off;
			v[2] = (uint64_t)(uint32_t)ev->cap << 32 | ev->tag;
			v[3] = (uint64_t)ev->size << 32 | ev->kind;
			mix(&h, v, sizeof v);
			mix(&h, ev->payload, ev->len);
			h1 = 14695981039346656037ULL;
			mix(&h1, v, sizeof v);
			mix(&h1, ev->payload, ev->len);
			set += h1;
			n++;
		}
		if (fd != NULL) {
			ferr = feed_error(fd);
			feed_free(fd);
			fd = NULL;
		}
		if (n != (o != NULL ? order_done(o) : merge_done(m)))
			sorted = 0;
		err = o != NULL ? order_error(o) : merge_error(m);
		if (err == NULL)
			err = ferr;
		printf("%s %llu %016llx %016llx %s %s\n", name,
		    (unsigned long long)n, (unsigned long long)h,
		    (unsigned long long)set, sorted ? "sorted" : "UNSORTED",
		    err != NULL ? "error" : "ok");
		merge_free(m);
		order_free(o);
		o = NULL;
	}
	return rc;
}
