/*
 * t_faults.c: reader.c on damaged files.
 *
 *	t_faults FILE TMPDIR
 *
 * FILE is a clean log with two capabilities.  1. A copy with one event's
 * tag, inside capability 0's block, made undeclared: an error at that
 * byte, and the events before it in the file come out (those of every
 * capability), none after it.  2. A copy that shrinks to 4 KiB while read
 * (from the mapping of the single pass): the replay ends with an error,
 * not SIGBUS, read directly and through feed.c.  3. Copies cut mid-event
 * (an error, all but the cut event), with bytes after the end marker, with
 * junk before the header (the same events as the clean file).  4. The RTS
 * identifier retagged as a profiling sample, too short for its fields: an
 * error at its byte, read directly and through feed.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "evtop.h"

static int	fails, passes;

static void
ok(int cond, const char *what)
{
	if (cond)
		passes++;
	else {
		fails++;
		printf("not ok - %s\n", what);
	}
}

static unsigned char *
slurp(const char *path, size_t *n)
{
	FILE		*f = fopen(path, "rb");
	unsigned char	*b;

	if (f == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	*n = (size_t)ftell(f);
	rewind(f);
	if ((b = malloc(*n + 16)) == NULL || fread(b, 1, *n, f) != *n)
		exit(2);
	fclose(f);
	return b;
}

static void
spit(const char *path, const void *b, size_t n, const void *pre, size_t pn)
{
	FILE	*f = fopen(path, "wb");

	if (f == NULL || fwrite(pre, 1, pn, f) != pn ||
	    fwrite(b, 1, n, f) != n || fclose(f) != 0)
		exit(2);
}

/* Events per cap (index cap + 1), and those with offsets before `before`. */
struct tally {
	uint64_t	 all, cap[3], before, after;
};

static void
tally(struct reader *r, uint64_t before, struct tally *t)
{
	struct proto_ev	 ev[16];
	size_t		 n, i;

	memset(t, 0, sizeof *t);
	while ((n = reader_next_n(r, ev, 16)) > 0)
		for (i = 0; i < n; i++) {
			t->all++;
			if (ev[i].cap >= -1 && ev[i].cap <= 1)
				t->cap[ev[i].cap + 1]++;
			if (ev[i].off < before)
				t->before++;
			else
				t->after++;
		}
}

/* Events, and the first error, read directly or through feed.c. */
static uint64_t
drain(struct reader *r, int feed, char *err, size_t size)
{
	struct proto_ev		 ev[16];
	const struct proto_ev	*fev;
	struct feed		*f;
	uint64_t		 all = 0;
	size_t			 n;
	const char		*e;

	err[0] = '\0';
	if (!feed) {
		while ((n = reader_next_n(r, ev, 16)) > 0)
			all += n;
		if ((e = reader_error(r)) != NULL)
			snprintf(err, size, "%s", e);
		return all;
	}
	if ((f = feed_new(r, 1)) == NULL)
		exit(2);
	while ((n = feed_next(f, &fev)) > 0)
		all += n;
	feed_free(f);
	if ((e = reader_error(r)) != NULL)
		snprintf(err, size, "%s", e);
	return all;
}

static struct reader *
open_or_die(const char *path)
{
	struct reader	*r;
	char		*cause;

	if ((r = reader_open(path, &cause)) == NULL) {
		printf("not ok - %s: %s\n", path, cause);
		exit(1);
	}
	return r;
}

int
main(int argc, char **argv)
{
	struct reader	*r, *rs[5];
	size_t		 first[5];
	struct proto_ev	 ev[16];
	struct tally	 clean, bad, t;
	struct feed	*f;
	const struct proto_ev *fev;
	unsigned char	*b;
	const char	*err;
	char		 path[4096], want[128], msg[128];
	size_t		 n, k, got;
	uint64_t	 at = 0, seen = 0, all, in_file = 0;
	int		 feed;
	volatile unsigned sink = 0;

	if (argc != 3 || (b = slurp(argv[1], &n)) == NULL)
		return 2;
	snprintf(path, sizeof path, "%s/t_faults.eventlog", argv[2]);

	/* The 300th event of cap 0, in the clean file. */
	r = open_or_die(argv[1]);
	while (at == 0 && (got = reader_next_n(r, ev, 16)) > 0)
		for (k = 0; k < got; k++)
			if (ev[k].cap == 0 && ev[k].kind != PROTO_BLOCK_MARKER &&
			    ++seen == 300) {
				at = ev[k].off;
				break;
			}
	reader_free(r);
	r = open_or_die(argv[1]);
	tally(r, at, &clean);
	ok(reader_error(r) == NULL && clean.cap[1] > 300 && clean.cap[2] > 0,
	    "the clean file has events on caps 0 and 1, no error");
	ok(reader_lasting(r), "the clean file: the single pass");
	reader_free(r);

	/* 1. An undeclared tag inside cap 0's block. */
	b[at] = 0x77;
	b[at + 1] = 0x77;
	spit(path, b, n, "", 0);
	r = open_or_die(path);
	ok(!reader_lasting(r), "a bad tag: the two passes");
	tally(r, at, &bad);
	err = reader_error(r);
	snprintf(want, sizeof want, "byte %llu:", (unsigned long long)at);
	ok(err != NULL && strstr(err, want) != NULL, "error at the byte");
	ok(bad.before == clean.before && bad.after == 0,
	    "the events before it all there, none after");
	reader_free(r);
	free(b);
	if ((b = slurp(argv[1], &n)) == NULL)
		return 2;

	/* 2. Shrinking while read, directly and through the feed. */
	for (feed = 0; feed < 2; feed++) {
		spit(path, b, n, "", 0);
		r = open_or_die(path);
		if (feed) {
			if ((f = feed_new(r, 1)) == NULL ||
			    feed_next(f, &fev) == 0)
				return 2;
			if (truncate(path, 4096) != 0)
				return 2;
			/* Read what the events borrow, as the model does:
			 * the reader may have framed them all already. */
			while ((got = feed_next(f, &fev)) > 0)
				for (k = 0; k < got; k++)
					if (fev[k].len > 0)
						sink += fev[k].payload[0];
			feed_free(f);
			err = reader_error(r) != NULL ? reader_error(r) : "";
		} else {
			got = reader_next_n(r, ev, 16);
			if (truncate(path, 4096) != 0)
				return 2;
			while (reader_next_n(r, ev, 16) > 0)
				got++;
			err = reader_error(r);
		}
		ok(err != NULL && strstr(err, "shrank") != NULL, feed ?
		    "a file that shrinks under the feed: an error, not SIGBUS" :
		    "a file that shrinks: an error, not SIGBUS");
		reader_free(r);
	}

	/* 2b. Readers of one file at once (the replay's, the raw events
	 * pane's, a zoomed timeline's): four map it, the fifth reads by
	 * pread; one freed, the others still say the file shrank. */
	spit(path, b, n, "", 0);
	for (k = 0; k < 5; k++)
		rs[k] = open_or_die(path);
	ok(reader_lasting(rs[0]) && reader_lasting(rs[1]) &&
	    reader_lasting(rs[2]) && reader_lasting(rs[3]),
	    "four readers of a file at once: each maps it");
	ok(!reader_lasting(rs[4]), "a fifth: the two passes");
	reader_free(rs[0]);
	for (k = 1; k < 5; k++)
		first[k] = reader_next_n(rs[k], ev, 16);
	if (truncate(path, 4096) != 0)
		return 2;
	for (k = 1; k < 5; k++) {
		/* (The last reader's: every event, or an error; it may
		 * hold the small file's bytes already.) */
		seen = first[k];
		while ((got = reader_next_n(rs[k], ev, 16)) > 0)
			seen += got;
		err = reader_error(rs[k]);
		snprintf(msg, sizeof msg, "reader %zu of 4 left, the file "
		    "shrunk: %s (%llu of %llu events)", k, err != NULL ? err :
		    "no error", (unsigned long long)seen,
		    (unsigned long long)clean.all);
		ok(k < 4 ? err != NULL && strstr(err, "shrank") != NULL :
		    err != NULL || seen == clean.all, msg);
	}
	for (k = 1; k < 5; k++)
		reader_free(rs[k]);
	spit(path, b, n, "", 0);
	r = open_or_die(path);
	ok(reader_lasting(r), "all freed: the next maps it again");
	reader_free(r);

	/* 3. Cut mid-event, bytes after the end marker, junk before. */
	spit(path, b, n - 3, "", 0);
	r = open_or_die(path);
	tally(r, UINT64_MAX, &t);
	ok(reader_error(r) != NULL && strstr(reader_error(r), "truncated") &&
	    t.all + 1 == clean.all, "cut mid-event: all but the cut event");
	reader_free(r);
	b[n] = 0;
	b[n + 1] = 0;
	spit(path, b, n + 2, "", 0);
	r = open_or_die(path);
	tally(r, UINT64_MAX, &t);
	ok(t.all >= clean.all, "after the end marker: the events all there");
	reader_free(r);
	spit(path, b, n, "junk", 4);
	r = open_or_die(path);
	tally(r, UINT64_MAX, &t);
	ok(t.all == clean.all, "junk before the header: the events all there");
	reader_free(r);

	/* 4. A field that does not parse, directly and through the feed. */
	r = open_or_die(argv[1]);
	for (at = 0; at == 0 && (got = reader_next_n(r, ev, 16)) > 0;)
		for (k = 0; k < got; k++)
			if (ev[k].kind == PROTO_RTS_IDENTIFIER) {
				at = ev[k].off;
				break;
			}
	reader_free(r);
	ok(at != 0, "the log has an RTS identifier");
	b[at] = PROTO_PROF_SAMPLE_COST_CENTRE >> 8;
	b[at + 1] = PROTO_PROF_SAMPLE_COST_CENTRE & 0xff;
	spit(path, b, n, "", 0);
	snprintf(want, sizeof want, "byte %llu: cost-centre stack longer "
	    "than its event", (unsigned long long)at);
	for (feed = 0; feed < 2; feed++) {
		r = open_or_die(path);
		all = drain(r, feed, msg, sizeof msg);
		ok(all < clean.all, feed ? "through the feed: stops" :
		    "stops");
		ok(strstr(msg, want) != NULL, feed ? "through the feed: its "
		    "error at its byte" : "its error at its byte");
		if (strstr(msg, want) == NULL)
			printf("# %s\n", msg);
		reader_free(r);
	}
	(void)in_file;

	unlink(path);
	free(b);
	printf("reader faults: %d passed, %d failed\n", passes, fails);
	return fails != 0;
}
