/*
 * t_order.c: order.c on damaged files.
 *
 *	t_order FILE TMPDIR
 *
 * FILE is a clean log with two capabilities.  1. A copy with one event's
 * tag, inside capability 0's block, made undeclared: order_open() still
 * takes it; that block ends there with an error at that byte, and every
 * other event (all of capability 1's, capability 0's before it) comes out
 * as from the clean file.  2. A copy that shrinks to 4 KiB while read: the
 * replay ends with an error, not SIGBUS, read directly and through feed.c.
 * 3. Copies cut mid-event, with bytes after the end marker, with junk
 * before the header: declined.  4. The RTS identifier retagged as a
 * profiling sample, too short for its fields: that event alone is left
 * out, with the same error, read directly and through feed.c.
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

/* Events per cap (index cap + 1) with offsets before `before`. */
struct tally {
	uint64_t	 all, cap[3], cap0_before;
};

static void
tally(struct order *o, uint64_t before, struct tally *t)
{
	struct proto_ev	 ev[16];
	size_t		 n, i;

	memset(t, 0, sizeof *t);
	while ((n = order_next_n(o, ev, 16)) > 0)
		for (i = 0; i < n; i++) {
			t->all++;
			if (ev[i].cap >= -1 && ev[i].cap <= 1)
				t->cap[ev[i].cap + 1]++;
			if (ev[i].cap == 0 && ev[i].off < before)
				t->cap0_before++;
		}
}

/* Events, and the first error, read directly or through feed.c. */
static uint64_t
drain(struct order *o, int feed, char *err, size_t size)
{
	struct proto_ev		 ev[16];
	const struct proto_ev	*fev;
	struct feed		*f;
	uint64_t		 all = 0;
	size_t			 n;
	const char		*e;

	err[0] = '\0';
	if (!feed) {
		while ((n = order_next_n(o, ev, 16)) > 0)
			all += n;
		if ((e = order_error(o)) != NULL)
			snprintf(err, size, "%s", e);
		return all;
	}
	if ((f = feed_new(o, 1)) == NULL)
		exit(2);
	while ((n = feed_next(f, &fev)) > 0)
		all += n;
	if ((e = feed_error(f)) != NULL)
		snprintf(err, size, "%s", e);
	feed_free(f);
	if ((e = order_error(o)) != NULL)
		snprintf(err, size, "%s", e);
	return all;
}

int
main(int argc, char **argv)
{
	struct order	*o;
	struct proto_ev	 ev[16];
	struct tally	 clean, bad;
	struct feed	*f;
	const struct proto_ev *fev;
	unsigned char	*b;
	const char	*err;
	char		 path[4096], want[128], msg[128];
	size_t		 n, k, got;
	uint64_t	 at = 0, seen = 0, all;
	int		 feed;
	volatile unsigned sink = 0;

	if (argc != 3 || (b = slurp(argv[1], &n)) == NULL)
		return 2;
	snprintf(path, sizeof path, "%s/t_order.eventlog", argv[2]);

	/* The 300th event of cap 0, in the clean file. */
	if ((o = order_open(argv[1])) == NULL)
		return 2;
	while (at == 0 && (got = order_next_n(o, ev, 16)) > 0)
		for (k = 0; k < got; k++)
			if (ev[k].cap == 0 && ev[k].kind != PROTO_BLOCK_MARKER &&
			    ++seen == 300) {
				at = ev[k].off;
				break;
			}
	order_free(o);
	o = order_open(argv[1]);
	tally(o, at, &clean);
	ok(order_error(o) == NULL && clean.cap[1] > 300 && clean.cap[2] > 0,
	    "the clean file has events on caps 0 and 1, no error");
	order_free(o);

	/* 1. An undeclared tag inside cap 0's block. */
	b[at] = 0x77;
	b[at + 1] = 0x77;
	spit(path, b, n, "", 0);
	ok((o = order_open(path)) != NULL, "a bad tag inside a block: taken");
	if (o != NULL) {
		tally(o, at, &bad);
		err = order_error(o);
		snprintf(want, sizeof want, "byte %llu: an event tag not "
		    "declared in the header", (unsigned long long)at);
		ok(err != NULL && strcmp(err, want) == 0, "error at the byte");
		ok(bad.cap[2] == clean.cap[2], "cap 1's events all there");
		ok(bad.cap[0] == clean.cap[0], "no-cap events all there");
		ok(bad.cap0_before == clean.cap0_before,
		    "cap 0's events before it all there");
		ok(bad.cap[1] < clean.cap[1], "cap 0's block ends there");
		order_free(o);
	}
	free(b);
	if ((b = slurp(argv[1], &n)) == NULL)
		return 2;

	/* 2. Shrinking while read, directly and through the feed. */
	for (feed = 0; feed < 2; feed++) {
		spit(path, b, n, "", 0);
		if ((o = order_open(path)) == NULL) {
			ok(0, "the copy is taken");
			continue;
		}
		if (feed) {
			if ((f = feed_new(o, 1)) == NULL ||
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
			snprintf(msg, sizeof msg, "%s", feed_error(f) != NULL ?
			    feed_error(f) : "");
			feed_free(f);
			err = order_error(o) != NULL ? order_error(o) : msg;
		} else {
			got = order_next_n(o, ev, 16);
			if (truncate(path, 4096) != 0)
				return 2;
			while (order_next_n(o, ev, 16) > 0)
				got++;
			err = order_error(o);
		}
		ok(err != NULL && strstr(err, "shrank") != NULL, feed ?
		    "a file that shrinks under the feed: an error, not SIGBUS" :
		    "a file that shrinks: an error, not SIGBUS");
		order_free(o);
	}

	/* 3. Declined: cut mid-event, bytes after the end marker, junk. */
	spit(path, b, n - 3, "", 0);
	ok((o = order_open(path)) == NULL, "cut mid-event: declined");
	order_free(o);
	b[n] = 0;
	b[n + 1] = 0;
	spit(path, b, n + 2, "", 0);
	ok((o = order_open(path)) == NULL, "after the end marker: declined");
	order_free(o);
	spit(path, b, n, "junk", 4);
	ok((o = order_open(path)) == NULL, "junk before the header: declined");
	order_free(o);
	spit(path, b, n, "", 0);
	ok((o = order_open(path)) != NULL, "the copy again: taken");
	order_free(o);

	/* 4. A field that does not parse, directly and through the feed. */
	if ((o = order_open(argv[1])) == NULL)
		return 2;
	for (at = 0; at == 0 && (got = order_next_n(o, ev, 16)) > 0;)
		for (k = 0; k < got; k++)
			if (ev[k].kind == PROTO_RTS_IDENTIFIER) {
				at = ev[k].off;
				break;
			}
	order_free(o);
	ok(at != 0, "the log has an RTS identifier");
	b[at] = PROTO_PROF_SAMPLE_COST_CENTRE >> 8;
	b[at + 1] = PROTO_PROF_SAMPLE_COST_CENTRE & 0xff;
	spit(path, b, n, "", 0);
	snprintf(want, sizeof want, "byte %llu: cost-centre stack longer "
	    "than its event", (unsigned long long)at);
	for (feed = 0; feed < 2; feed++) {
		if ((o = order_open(path)) == NULL) {
			ok(0, "a short sample: taken");
			continue;
		}
		all = drain(o, feed, msg, sizeof msg);
		ok(all + 1 == clean.all, feed ? "through the feed: the short "
		    "sample alone left out" : "the short sample alone left out");
		ok(strcmp(msg, want) == 0, feed ? "through the feed: its "
		    "error at its byte" : "its error at its byte");
		order_free(o);
	}

	unlink(path);
	free(b);
	printf("order faults: %d passed, %d failed\n", passes, fails);
	return fails != 0;
}
