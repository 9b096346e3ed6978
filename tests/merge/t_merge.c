/*
 * t_merge.c: what reader_next() delivers for each file, as one line:
 *
 *	t_merge FILE...
 *	-> NAME EVENTS DIGEST SET SORTED ERROR
 *
 * DIGEST folds every event's time, offset, cap, tag, size and payload, in
 * the order delivered, SET the same in any order; SORTED says whether that
 * order is by (time, offset).  Built with -DT_MERGE_FEED (t_feed), through
 * feed.c's reader thread (or, with -DT_MERGE_FEED_SYNC, without it).
 * merge.sh builds this with several READER_* settings (the single pass with
 * chunks and holds of many sizes, and the two passes alone) and wants the
 * same line from each.  With -DT_MERGE_SEEK, each line ends with what
 * seeking gave: "seek-ok" when reader_seek() to the key of several events
 * (and reader_tell()'s position after some), and to times between events,
 * went on with exactly the events after, in the same order.
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

static uint64_t
ev_hash(const struct proto_ev *ev)
{
	uint64_t	h1 = 14695981039346656037ULL, v[4];

	v[0] = ev->time;
	v[1] = ev->off;
	v[2] = (uint64_t)(uint32_t)ev->cap << 32 | ev->tag;
	v[3] = (uint64_t)ev->size << 32 | ev->kind;
	mix(&h1, v, sizeof v);
	mix(&h1, ev->payload, ev->len);
	return h1;
}

/* The next event of the file, from whichever reads it; NULL at the end. */
static const struct proto_ev *
next(struct reader *m, struct feed *fd)
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
	return reader_next(m, &ev) == PROTO_EVENT ? &ev : NULL;
}

#ifdef T_MERGE_SEEK
struct key {
	uint64_t	 time, off, h;
};

/* The events from a seek to (time, off) must be those of all[at..n). */
static int
seek_same(struct reader *m, const struct key *all, uint64_t n, uint64_t at,
    uint64_t time, uint64_t off)
{
	struct proto_ev	ev[5];
	uint64_t	i = at;
	size_t		k, j;

	if (reader_seek(m, time, off) != 0)
		return 0;
	/* Taken several at once, as feed.c does. */
	while ((k = reader_next_n(m, ev, 5)) > 0)
		for (j = 0; j < k; j++, i++)
			if (i >= n || ev_hash(&ev[j]) != all[i].h)
				return 0;
	return i == n;
}

static const char *
seek_test(struct reader *m, const struct key *all, uint64_t n)
{
	struct proto_ev	ev;
	uint64_t	at[] = { 0, 1, n / 3, n / 2, n - 1, n }, i, t, o;
	size_t		j;

	for (j = 0; j < sizeof at / sizeof at[0]; j++) {
		if (at[j] > n)
			continue;
		if (at[j] < n && !seek_same(m, all, n, at[j], all[at[j]].time,
		    all[at[j]].off))
			return "seek-KEY-FAILED";
		/* A time between events: from the first after it. */
		if (at[j] < n && at[j] > 0 && all[at[j]].time >
		    all[at[j] - 1].time + 1 && !seek_same(m, all, n, at[j],
		    all[at[j]].time - 1, 0))
			return "seek-TIME-FAILED";
	}
	/* A saved position: read some, tell, read on, seek back there. */
	if (n > 10) {
		reader_seek(m, 0, 0);
		for (i = 0; i < n / 2 + 1; i++)
			reader_next(m, &ev);
		reader_tell(m, &t, &o);
		for (i = 0; i < 3; i++)
			reader_next(m, &ev);
		if (!seek_same(m, all, n, n / 2 + 1, t, o))
			return "seek-TELL-FAILED";
	}
	if (!seek_same(m, all, n, 0, 0, 0))
		return "seek-START-FAILED";
	return "seek-ok";
}
#endif

int
main(int argc, char **argv)
{
	struct reader	*m;
	struct feed	*fd = NULL;
	const struct proto_ev *ev;
	const char	*name, *err, *seek = "";
	char		*cause;
	uint64_t	 h, h1, set, n, last_t, last_off;
	int		 i, sorted, rc = 0;
#ifdef T_MERGE_SEEK
	struct key	*all = NULL;
	uint64_t	 nall = 0;
#endif

	for (i = 1; i < argc; i++) {
		name = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 :
		    argv[i];
		if ((m = reader_open(argv[i], &cause)) == NULL) {
			printf("%s open-failed\n", name);
			free(cause);
			rc = 1;
			continue;
		}
#ifdef T_MERGE_FEED
#ifdef T_MERGE_FEED_SYNC
		if ((fd = feed_new(m, 0)) == NULL)
#else
		if ((fd = feed_new(m, 1)) == NULL)
#endif
			return 2;
#endif
		h = 14695981039346656037ULL;
		set = 0;
		n = 0;
		sorted = 1;
		last_t = last_off = 0;
		while ((ev = next(m, fd)) != NULL) {
			if (n > 0 && (ev->time < last_t || (ev->time == last_t &&
			    ev->off <= last_off)))
				sorted = 0;
			last_t = ev->time;
			last_off = ev->off;
			h1 = ev_hash(ev);
			mix(&h, &h1, sizeof h1);
			set += h1;
#ifdef T_MERGE_SEEK
			if (n == nall) {
				nall = nall ? 2 * nall : 1024;
				if ((all = realloc(all, nall * sizeof *all)) ==
				    NULL)
					return 2;
			}
			all[n].time = ev->time;
			all[n].off = ev->off;
			all[n].h = h1;
#endif
			n++;
		}
		if (fd != NULL) {
			feed_free(fd);
			fd = NULL;
		}
		if (n != reader_done(m))
			sorted = 0;
		err = reader_error(m);
		/* The count reader_open() gave (progress) is what came. */
		if (err == NULL && n != reader_events(m))
			sorted = 0;
#ifdef T_MERGE_SEEK
		/* A file cut short is read up to its end: sought too. */
		seek = err == NULL || strncmp(err, "truncated:", 10) == 0 ?
		    seek_test(m, all, n) : "seek-skipped";
#endif
		printf("%s %llu %016llx %016llx %s %s%s%s%s%s\n", name,
		    (unsigned long long)n, (unsigned long long)h,
		    (unsigned long long)set, sorted ? "sorted" : "UNSORTED",
		    err != NULL ? "error (" : "ok", err != NULL ? err : "",
		    err != NULL ? ")" : "", seek[0] ? " " : "", seek);
		reader_free(m);
	}
#ifdef T_MERGE_SEEK
	free(all);
#endif
	return rc;
}
