/*
 * t_evlist.c: src/time/evlist.c on real logs.
 *
 * For each log given: its lines read in pieces equal `evtop show`'s
 * output (run as a process); read backwards from the end, a few at a time,
 * they are the same lines; the boundaries; each event's template spells
 * its line; and the prefiltered search agrees with the brute force
 * (format every line, look for the text) on every event for many queries:
 * substrings of real lines, digits, names, partial words, spaces, case.
 * Forward and backward searches find the same events as the brute force.
 *
 * usage: t_evlist [-p PAIRS] EVTOP FILE...  (PAIRS: event x query pairs
 * a log at most, but 24 queries at least)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../tap.h"
#include "time/evlist.h"
#include "all.h"


static const char *evtop;
static size_t	 pairs = 2000000;	/* event x query pairs a log */

/* The lines equal what `evtop show` prints after "Events:". */
static void
check_show(const char *path, const struct all *a)
{
	int	r = show_cmp(evtop, path, a);

	if (r < 0)
		ok(0, "%s: run evtop show", path);
	else if (r == 2)
		ok(a->n == 0, "%s: show prints no events, nor do we", path);
	else
		ok(r == 1, "%s: %zu lines equal evtop show's", path, a->n);
}

/*
 * Forwards in pieces of 7, and backwards from the end 5 at a time (more in
 * a big log: some readers seek by reading from the start).
 */
static void
check_read(const char *path, struct evl *e, const struct all *a)
{
	static struct evl_line l[512];
	struct evl_pos	 pos = { 0, 0 }, first, at;
	size_t		 i = 0, k, j, bad = 0, back;

	while ((k = evl_read(e, pos, l, 7)) > 0) {
		for (j = 0; j < k; j++, i++) {
			if (i >= a->n || !same_line(&l[j], a, i))
				bad++;
		}
		pos = l[k - 1].pos;
		pos.off++;
	}
	ok(bad == 0 && i == a->n, "%s: forwards, %zu of %zu lines", path, i,
	    a->n);

	/* Backwards: what is before the end, then before that... */
	back = back_all(e, a, a->n / 100 > 5 ? a->n / 100 : 5, &bad);
	ok(bad == 0 && back == 0, "%s: backwards equals forwards (%zu left)",
	    path, back);

	/* Boundaries. */
	if (a->n == 0)
		return;
	ok(evl_back(e, a->pos[0], 3, &first) == 0,
	    "%s: nothing before the first event", path);
	at = a->pos[a->n - 1];
	at.off++;
	ok(evl_read(e, at, l, 3) == 0, "%s: nothing after the last", path);
	k = a->n < 10 ? a->n : 10;
	ok(evl_last(e, 10, &first) == 0 &&
	    first.time == a->pos[a->n - k].time &&
	    first.off == a->pos[a->n - k].off, "%s: the last %zu", path, k);
	/* In the middle, before an event at the same time as others. */
	i = a->n / 2;
	k = evl_back(e, a->pos[i], 3, &first);
	ok(k == (i < 3 ? i : 3) && (k == 0 ||
	    (first.time == a->pos[i - k].time &&
	    first.off == a->pos[i - k].off)), "%s: 3 before event %zu", path,
	    i);
}

/* Each event's template spells its line. */
static void
check_templates(const char *path, const struct all *a, struct reader *r,
    unsigned *seen)
{
	struct proto_ev	ev;
	size_t		i, bad = 0, none = 0;
	int		rc;

	reader_seek(r, 0, 0);
	for (i = 0; i < a->n && reader_next(r, &ev) == PROTO_EVENT; i++) {
		rc = evl_tmpl_check(&ev, a->line[i], a->len[i]);
		if (rc == 0) {
			if (bad++ < 3)
				printf("# template of %s: %s\n",
				    proto_tag_name(ev.tag), a->line[i]);
		} else if (rc < 0)
			none++;
		else if (ev.kind < 256)
			seen[ev.kind] = 1;
	}
	if (i != a->n)
		bad++;
	ok(bad == 0, "%s: templates spell %zu lines (%zu without one)", path,
	    a->n - none, none);
}

/* The queries: fixed ones, then pieces of real lines. */
static size_t
queries(const struct all *a, char q[][EVL_QUERY], size_t max,
    unsigned *seed)
{
	static const char *const fixed[] = {
		"thread", "Thread", "THREAD", "thread 1", "thread 2 ",
		"cap 0", "cap 1:", ": cap", "GC", "gc", "Gc", "starting GC",
		"stopping thread", "(", ")", "\"", "0x", "0", "1", "9", "12",
		"00", "007", "10000", "-1", " ", "  ", ": ", ", ", "es",
		"blocked", "Blocked", "black hole", "heap", "capset 0",
		"bytes", "of type", "Custom", "label", "main", "ghc", "GHC",
		"version", "args", "env", "Interned", "marker", "sample",
		"cost centre", "runnable", "wakeup", "waking up thread",
		"spark", "task 0x", "created on cap", "nonmoving", "census",
		"IPE", "Info Table", "x", "zzz-not-there", "\xc3\xa9",
		"\xef\xbf\xbd", "1 (", "s ", "s 1", "d 1", "at ", "by ",
		"ns (unix", "end time", "event block", "a", "e", ".", "'",
		":", "/", "_", "m", "mutator", "allocated", "0 bytes",
	};
	size_t	n = 0, i, j, l, start, len;
	char	digits[8];

	for (i = 0; i < sizeof fixed / sizeof fixed[0] && n < max; i++)
		snprintf(q[n++], EVL_QUERY, "%s", fixed[i]);
	for (i = 0; i < 8 && n < max; i++) {
		l = 1 + (size_t)(rand_r(seed) % 4);
		for (j = 0; j < l; j++)
			digits[j] = (char)('0' + rand_r(seed) % 10);
		digits[l] = '\0';
		snprintf(q[n++], EVL_QUERY, "%s", digits);
	}
	if (a->n == 0)
		return n;
	/* Substrings of real lines, at random places and lengths. */
	while (n < max) {
		i = (size_t)rand_r(seed) % a->n;
		if (a->len[i] == 0)
			continue;
		start = (size_t)rand_r(seed) % a->len[i];
		len = 1 + (size_t)rand_r(seed) % 24;
		if (len > a->len[i] - start)
			len = a->len[i] - start;
		if (len >= EVL_QUERY)
			len = EVL_QUERY - 1;
		memcpy(q[n], a->line[i] + start, len);
		q[n][len] = '\0';
		if (strlen(q[n]) == 0 || strchr(q[n], '\n') != NULL)
			continue;
		/* Every third, upper case: a different query. */
		if (n % 3 == 0) {
			for (j = 0; q[n][j] != '\0'; j++) {
				if (q[n][j] >= 'a' && q[n][j] <= 'z')
					q[n][j] -= 'a' - 'A';
			}
		}
		n++;
	}
	return n;
}

/* The brute force: format, look (the same case rule). */
static int
brute(const struct evl_query *q, const struct all *a, size_t i, size_t *at)
{
	return evl_text_find(q, a->line[i], a->len[i], at);
}

static void
check_prefilter(const char *path, const struct all *a, struct reader *r,
    unsigned *seed, uint64_t *cands, uint64_t *total)
{
	static char	 q[160][EVL_QUERY];
	struct proto_ev	 ev;
	struct evl_query *eq;
	size_t		 nq, k, i, at, at2, unsound = 0, wrong = 0, hits = 0;
	long		 len;

	nq = a->n > 0 && pairs / a->n < 160 ? pairs / a->n : 160;
	if (nq < 24)
		nq = 24;
	nq = queries(a, q, nq, seed);
	for (k = 0; k < nq; k++) {
		if ((eq = evl_query_new(q[k])) == NULL)
			continue;
		reader_seek(r, 0, 0);
		for (i = 0; i < a->n && reader_next(r, &ev) == PROTO_EVENT;
		    i++) {
			int	b = brute(eq, a, i, &at);
			int	c = evl_query_candidate(eq, &ev);

			*total += 1;
			*cands += c != 0;
			hits += b;
			if (b && !c) {
				if (unsound++ < 5)
					printf("# dropped: query \"%s\" in "
					    "\"%s\"\n", q[k], a->line[i]);
			}
			len = evl_query_match(eq, &ev, reader_dec(r),
			    buf, LINE_MAX_, &at2);
			if ((len >= 0) != b || (b && at2 != at))
				wrong++;
		}
		if (i != a->n)
			wrong++;
		evl_query_free(eq);
	}
	ok(unsound == 0 && wrong == 0, "%s: prefilter sound for %zu queries "
	    "(%zu matching lines)", path, nq, hits);
}

/* Searches find what the brute force finds, forwards and backwards. */
static void
check_search(const char *path, struct evl *e, const struct all *a,
    unsigned *seed)
{
	char		 q[8][EVL_QUERY];
	struct evl_query *eq;
	static struct evl_line mid[2];
	struct evl_pos	 pos, fp;
	size_t		 nq, k, i, off, len, at, bad = 0, found = 0, slices;
	enum evl_state	 st;

	/* Pieces of real lines. */
	for (k = 0; k < 8 && a->n > 0; k++) {
		i = (size_t)rand_r(seed) % a->n;
		off = a->len[i] > 6 ? (size_t)rand_r(seed) % (a->len[i] - 6) : 0;
		len = a->len[i] - off < 12 ? a->len[i] - off : 12;
		memcpy(q[k], a->line[i] + off, len);
		q[k][len] = '\0';
		if (strchr(q[k], '\n') != NULL)
			snprintf(q[k], EVL_QUERY, "thread");
	}
	nq = a->n > 0 ? 8 : 0;
	for (k = 0; k < nq; k++) {
		eq = evl_query_new(q[k]);
		/* Forwards from the start: every match in turn. */
		pos = (struct evl_pos){ 0, 0 };
		i = 0;
		for (;;) {
			evl_search(e, q[k], pos, 1);
			/* Lines read between slices (the pane drawing): the
			 * search, on a thread from its second slice, must
			 * give the reader back and go on. */
			for (slices = 0; (st = evl_step(e, 1000)) ==
			    EVL_RUNNING; slices++)
				if (slices % 4 == 1)
					evl_read(e, pos, mid, 2);
			while (i < a->n && !brute(eq, a, i, &at))
				i++;
			if (st != EVL_FOUND) {
				if (i != a->n || st != EVL_NOT_FOUND)
					bad++;
				break;
			}
			evl_found(e, &fp, &off, &len);
			if (i == a->n || fp.time != a->pos[i].time ||
			    fp.off != a->pos[i].off || off != at ||
			    len != strlen(q[k])) {
				bad++;
				break;
			}
			found++;
			/* Scroll in between: the search must not mind. */
			if (found % 3 == 0)
				evl_back(e, fp, 2, &pos);
			pos = fp;
			pos.off++;
			i++;
			if (found > 40)
				break;
		}
		/* Backwards from the end: the last few matches. */
		pos = (struct evl_pos){ UINT64_MAX, UINT64_MAX };
		i = a->n;
		for (int round = 0; round < 5; round++) {
			evl_search(e, q[k], pos, -1);
			while ((st = evl_step(e, 777)) == EVL_RUNNING)
				;
			while (i > 0 && !brute(eq, a, i - 1, &at))
				i--;
			if (st != EVL_FOUND) {
				if (i != 0 || st != EVL_NOT_FOUND)
					bad++;
				break;
			}
			evl_found(e, &fp, &off, &len);
			if (i == 0 || fp.time != a->pos[i - 1].time ||
			    fp.off != a->pos[i - 1].off || off != at) {
				bad++;
				break;
			}
			found++;
			pos = fp;
			i--;
		}
		evl_query_free(eq);
	}
	ok(bad == 0, "%s: %zu searches found %zu matches as the brute force "
	    "does", path, nq, found);
}

int
main(int argc, char **argv)
{
	struct all	 a;
	struct reader	*r;
	struct evl	*e;
	char		*cause = NULL;
	unsigned	 seed = 12, seen[256] = { 0 }, nseen = 0, i;
	uint64_t	 cands = 0, total = 0;
	int		 f;

	if (argc > 2 && strcmp(argv[1], "-p") == 0) {
		pairs = strtoul(argv[2], NULL, 10);
		argc -= 2;
		argv += 2;
	}
	if (argc < 3) {
		fprintf(stderr, "usage: t_evlist [-p PAIRS] EVTOP FILE...\n");
		return 2;
	}
	evtop = argv[1];
	buf = malloc(LINE_MAX_);
	for (f = 2; f < argc; f++) {
		if (load(argv[f], &a, &r) == -1) {
			ok(evl_open(argv[f], &cause) == NULL,
			    "%s: unreadable for both", argv[f]);
			free(cause);
			cause = NULL;
			continue;
		}
		if ((e = evl_open(argv[f], &cause)) == NULL) {
			ok(0, "%s: evl_open: %s", argv[f], cause);
			free(cause);
			cause = NULL;
			unload(&a);
			reader_free(r);
			continue;
		}
		check_show(argv[f], &a);
		check_read(argv[f], e, &a);
		check_templates(argv[f], &a, r, seen);
		check_prefilter(argv[f], &a, r, &seed, &cands, &total);
		check_search(argv[f], e, &a, &seed);
		evl_free(e);
		unload(&a);
		reader_free(r);
	}
	for (i = 0; i < 256; i++)
		nseen += seen[i];
	printf("# %u kinds' templates checked; candidates %.1f%% of "
	    "%llu event x query pairs\n", nseen, total ? 100.0 *
	    (double)cands / (double)total : 0.0, (unsigned long long)total);
	ok(nseen >= 40, "templates of %u kinds checked on real lines", nseen);
	free(buf);
	return tap_done();
}
