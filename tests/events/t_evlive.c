/*
 * t_evlive.c: the raw events over a live source's history (evlist.c over
 * spill.c), against the file the same bytes make.
 *
 * A log's bytes go into a spill in chunks of random sizes, as loop.c and
 * redo.c give them (the bytes, then each event decoded, then the whole
 * events committed).  Then, for each log:
 *
 *  - whole: the lines read over the history, forwards in pieces and
 *    backwards from the end, and at random places, equal the file's (which
 *    equal `evtop show`'s, run as a process); searches forwards and
 *    backwards find what the brute force finds in the file;
 *  - growing: after each chunk, the last events and the events from a
 *    place seen before are those of the bytes so far (a cursor sees what
 *    was added);
 *  - -d LOG, a small bound: the oldest files go while a cursor reads
 *    forwards and a search runs in slices; what they give is the file's
 *    lines in order, and at the end exactly the file's events from some
 *    offset on, as many as the history counts;
 *  - -r LOG, with late blocks: redo.c puts late events back (corrections
 *    read the history with the spill's cursor) while another cursor reads
 *    and searches it; the lines stay the file's and the model ends equal
 *    to the file's (its JSON but for "reorder", how the bytes came);
 *  - -i LOG, blocks of GHC 9.6 IPE events only (ipeburst.c): as -d, so
 *    files would end right after an IPE, which is framed with the bytes
 *    after it; none may be lost.
 *
 * usage: t_evlive EVTOP [-d LOG] [-r LOG] [-i LOG] FILE...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../tap.h"
#include "model/model.h"
#include "source/source.h"
#include "time/evlist.h"
#include "all.h"
#include "time/redo.h"
#include "time/spill.h"

#define DEC_SIZE	(1u << 20)
#define LIVE_READ	(256u << 10)	/* the loop's read buffer */
#define SMALL_BOUND	(256u << 10)	/* -d: bytes kept, 4 files or so */
/* -r: all of it kept, in files of 64 KiB: runs read many (and open the
 * last ones after more bytes came). */
#define REDO_BOUND	(4u << 20)

/* A live source's bytes into a history: spill alone, or redo and a model
 * as loop.c has them. */
struct live {
	struct proto_dec *dec;
	struct spill	*sp;
	struct redo	*r;
	struct model	*m;
	uint64_t	 newest, wall;
};

static const char	*evtop;
static unsigned		 seed = 7;

/* ------------------------------------------------------------------ */
/* The file's side. */

static int
before(struct evl_pos a, struct evl_pos b)
{
	return a.time < b.time || (a.time == b.time && a.off < b.off);
}

static int
same_pos(struct evl_pos a, struct evl_pos b)
{
	return a.time == b.time && a.off == b.off;
}

/* The file's events are in (time, offset) order: a place says which. */
static int
sorted(const struct all *a)
{
	size_t	i;

	for (i = 1; i < a->n; i++)
		if (!before(a->pos[i - 1], a->pos[i]))
			return 0;
	return 1;
}

/* The file's event at p, or -1. */
static long
find(const struct all *a, struct evl_pos p)
{
	size_t	lo = 0, hi = a->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (before(a->pos[mid], p))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < a->n && same_pos(a->pos[lo], p) ? (long)lo : -1;
}

/* The line shown is the file's line at its place. */
static int
line_ok(const struct evl_line *l, const struct all *a)
{
	long	i = find(a, l->pos);

	return i >= 0 && same_line(l, a, (size_t)i);
}

/* The file's lines are what `evtop show` prints after "Events:". */
static int
show_equal(const char *path, const struct all *a)
{
	int	r = show_cmp(evtop, path, a);

	return r == 2 ? a->n == 0 : r == 1;
}

static uint8_t *
slurp(const char *path, size_t *n)
{
	FILE	*f = fopen(path, "rb");
	uint8_t	*b = NULL;
	size_t	 cap = 0, got;

	*n = 0;
	if (f == NULL)
		return NULL;
	for (;;) {
		if (*n + 65536 > cap) {
			cap = cap ? 2 * cap : 1 << 20;
			b = realloc(b, cap);
		}
		if ((got = fread(b + *n, 1, cap - *n, f)) == 0)
			break;
		*n += got;
	}
	fclose(f);
	return b;
}

/* ------------------------------------------------------------------ */
/* The live side: what loop.c and redo.c do with a source's bytes. */

static int
live_new(struct live *l, uint64_t bound, int with_redo)
{
	char	*cause = NULL;

	memset(l, 0, sizeof *l);
	l->dec = proto_dec_new(DEC_SIZE);
	if (with_redo) {
		l->m = model_new();
		l->r = redo_new(l->m, bound, 0, &cause);
		if (l->r != NULL)
			redo_connect(l->r);
	} else
		l->sp = spill_new(bound, 0, &cause);
	free(cause);
	return l->dec != NULL && (l->sp != NULL || l->r != NULL) ? 0 : -1;
}

static void
live_free(struct live *l)
{
	proto_dec_free(l->dec);
	spill_free(l->sp);
	redo_free(l->r);
	model_free(l->m);
}

static const struct spill *
live_spill(const struct live *l)
{
	return l->r != NULL ? redo_spill(l->r) : l->sp;
}

static void
live_drain(struct live *l)
{
	struct proto_ev	ev;
	enum proto_res	rc;

	while ((rc = proto_dec_next(l->dec, &ev)) != PROTO_AGAIN) {
		if (rc == PROTO_HEADER && l->r != NULL) {
			redo_finish(l->r);
			model_header(l->m, l->dec);
			redo_header(l->r, l->dec, proto_dec_offset(l->dec));
		} else if (rc == PROTO_HEADER)
			spill_session(l->sp, l->dec,
			    proto_dec_offset(l->dec));
		else if (rc == PROTO_EVENT && l->r != NULL) {
			if (ev.time > l->newest)
				l->newest = ev.time;
			if (redo_event(l->r, &ev))
				model_apply(l->m, &ev);
		} else if (rc == PROTO_EVENT)
			spill_event(l->sp, &ev);
	}
}

/* One read's bytes: kept, decoded, committed; a pass of the loop, 10 ms
 * later than the last (late blocks then come after their time was
 * released, as from a program).  They are given from a buffer of the
 * loop's that is written over once committed, as the next read does: the
 * history may borrow them until then, no longer. */
static void
live_read(struct live *l, const uint8_t *bytes, size_t n)
{
	static uint8_t	 rbuf[LIVE_READ];
	const uint8_t	*p = rbuf;
	size_t		 k;

	memcpy(rbuf, bytes, n);

	if (l->r != NULL)
		redo_bytes(l->r, p, n);
	else
		spill_bytes(l->sp, p, n);
	while (n > 0) {
		k = proto_dec_feed(l->dec, p, n);
		p += k;
		n -= k;
		live_drain(l);
	}
	l->wall += 10000000;
	if (l->r != NULL) {
		redo_commit(l->r, proto_dec_offset(l->dec), l->wall,
		    l->newest);
		redo_tick(l->r, l->wall, 1);
	} else
		spill_commit(l->sp, proto_dec_offset(l->dec));
	memset(rbuf, 0xa5, sizeof rbuf);
}

/* n bytes, in reads of the loop's buffer at most. */
static void
live_feed(struct live *l, const uint8_t *p, size_t n)
{
	size_t	k;

	for (; n > 0; p += k, n -= k) {
		k = n < LIVE_READ ? n : LIVE_READ;
		live_read(l, p, k);
	}
}

static size_t
chunk(size_t left, size_t max)
{
	size_t	k = 1 + (size_t)rand_r(&seed) % max;

	return k < left ? k : left;
}

/* Bytes so far: how many of the file's events they hold (those before
 * upto, in the file's order). */
static void
prefix(const struct all *a, uint64_t upto, size_t *idx, size_t *n)
{
	size_t	i;

	*n = 0;
	for (i = 0; i < a->n; i++)
		if (a->pos[i].off < upto)
			idx[(*n)++] = i;
}

/* ------------------------------------------------------------------ */
/* Checks. */

/* Forwards in pieces of 7; backwards from the end; random places. */
static void
check_read(const char *name, struct evl *e, const struct all *a)
{
	static struct evl_line l[512];
	struct evl_pos	 pos = { 0, 0 }, first, at;
	size_t		 i = 0, k, j, bad = 0, back, t;

	while ((k = evl_read(e, pos, l, 7)) > 0) {
		for (j = 0; j < k; j++, i++)
			if (i >= a->n || !same_line(&l[j], a, i))
				bad++;
		pos = l[k - 1].pos;
		pos.off++;
	}
	ok(bad == 0 && i == a->n, "%s: forwards over the history, %zu of "
	    "%zu lines the file's", name, i, a->n);

	back = back_all(e, a, a->n / 60 > 5 ? a->n / 60 : 5, &bad);
	ok(bad == 0 && back == 0, "%s: backwards equals forwards (%zu left)",
	    name, back);
	if (a->n == 0)
		return;

	/* Random places, in random order: k on, and k back; now and then
	 * the readers let go, as when the pane is not shown. */
	bad = 0;
	for (t = 0; t < 300; t++) {
		if (t % 37 == 0)
			evl_rest(e);
		i = (size_t)rand_r(&seed) % a->n;
		k = 1 + (size_t)rand_r(&seed) % 12;
		j = evl_read(e, a->pos[i], l, k);
		if (j != (a->n - i < k ? a->n - i : k))
			bad++;
		while (j-- > 0)
			if (!same_line(&l[j], a, i + j))
				bad++;
		j = evl_back(e, a->pos[i], k, &first);
		if (j != (i < k ? i : k) || (j > 0 && !same_pos(first,
		    a->pos[i - j])))
			bad++;
	}
	ok(bad == 0, "%s: 300 random places, forwards and back, as in the "
	    "file (the readers let go 9 times)", name);
	ok(evl_back(e, a->pos[0], 3, &first) == 0, "%s: nothing before the "
	    "first event", name);
	at = a->pos[a->n - 1];
	at.off++;
	ok(evl_read(e, at, l, 3) == 0, "%s: nothing after the last", name);
	k = a->n < 10 ? a->n : 10;
	ok(evl_last(e, 10, &first) == 0 && same_pos(first, a->pos[a->n - k]),
	    "%s: the last %zu", name, k);
	ok(evl_events(e) == a->n, "%s: the history counts %llu events, the "
	    "file %zu", name, (unsigned long long)evl_events(e), a->n);
}

/* A search to its end, in slices of budget events. */
static enum evl_state
search(struct evl *e, const char *q, struct evl_pos from, int dir,
    uint64_t budget)
{
	enum evl_state	st;

	evl_search(e, q, from, dir);
	while ((st = evl_step(e, budget)) == EVL_RUNNING)
		;
	return st;
}

/* Searches from the start, from the end, as the brute force over the
 * file finds. */
static void
check_search(const char *name, struct evl *e, const struct all *a)
{
	char		 q[6][EVL_QUERY];
	struct evl_query *eq;
	struct evl_pos	 pos, fp;
	size_t		 k, i, off, len, at, bad = 0, found = 0, r;
	enum evl_state	 st;

	if (a->n == 0)
		return;
	for (k = 0; k < 6; k++) {
		i = (size_t)rand_r(&seed) % a->n;
		off = a->len[i] > 6 ? (size_t)rand_r(&seed) % (a->len[i] - 6) :
		    0;
		len = a->len[i] - off < 10 ? a->len[i] - off : 10;
		memcpy(q[k], a->line[i] + off, len);
		q[k][len] = '\0';
		if (strchr(q[k], '\n') != NULL || q[k][0] == '\0')
			snprintf(q[k], EVL_QUERY, "thread");
	}
	snprintf(q[5], EVL_QUERY, "zq-in-no-line");
	for (k = 0; k < 6; k++) {
		eq = evl_query_new(q[k]);
		pos = (struct evl_pos){ 0, 0 };
		i = 0;
		for (r = 0; r < 12; r++) {
			st = search(e, q[k], pos, 1, 500);
			while (i < a->n && !evl_text_find(eq, a->line[i],
			    a->len[i], &at))
				i++;
			if (st != EVL_FOUND) {
				if (i != a->n || st != EVL_NOT_FOUND)
					bad++;
				break;
			}
			evl_found(e, &fp, &off, &len);
			if (i == a->n || !same_pos(fp, a->pos[i]) || off != at) {
				bad++;
				break;
			}
			found++;
			pos = fp;
			pos.off++;
			i++;
		}
		pos = (struct evl_pos){ UINT64_MAX, UINT64_MAX };
		i = a->n;
		for (r = 0; r < 4; r++) {
			st = search(e, q[k], pos, -1, 333);
			while (i > 0 && !evl_text_find(eq, a->line[i - 1],
			    a->len[i - 1], &at))
				i--;
			if (st != EVL_FOUND) {
				if (i != 0 || st != EVL_NOT_FOUND)
					bad++;
				break;
			}
			evl_found(e, &fp, &off, &len);
			if (i == 0 || !same_pos(fp, a->pos[i - 1]) || off != at) {
				bad++;
				break;
			}
			found++;
			pos = fp;
			i--;
		}
		evl_query_free(eq);
	}
	ok(bad == 0 && found > 0, "%s: searches over the history find the "
	    "file's %zu matches", name, found);
}

/* The file of the first n bytes, as a recording so far would be. */
static int
load_prefix(const uint8_t *b, size_t n, struct all *a)
{
	char	 path[4096];
	FILE	*f;
	int	 fd, rc;

	snprintf(path, sizeof path, "%s/t_evlive.XXXXXX", getenv("TMPDIR") ?
	    getenv("TMPDIR") : "/tmp");
	if ((fd = mkstemp(path)) == -1 || (f = fdopen(fd, "wb")) == NULL)
		return -1;
	fwrite(b, 1, n, f);
	fclose(f);
	rc = load(path, a, NULL);
	unlink(path);
	return rc;
}

/*
 * The log given in chunks; after each, the history holds what a
 * recording of the bytes so far holds (not quite every event decoded: an
 * IPE of GHC 9.6 is framed with the bytes after it); then all of it is
 * the file's.
 */
static void
check_file(const char *path, const struct all *a, const uint8_t *b,
    size_t n)
{
	static struct evl_line l[16];
	struct live	 lv;
	struct all	 pre;
	struct evl	*e, *tail;
	struct evl_pos	 held = { 0, 0 }, first, end = { 0, 0 };
	size_t		 at = 0, k, j, i, bad = 0, checks = 0, follow = 0;
	char		*cause = NULL;

	if (live_new(&lv, 1u << 30, 0) != 0 ||
	    (e = evl_open_spill(live_spill(&lv), &cause)) == NULL ||
	    (tail = evl_open_spill(live_spill(&lv), &cause)) == NULL) {
		ok(0, "%s: a history and cursors", path);
		free(cause);
		live_free(&lv);
		return;
	}
	ok(evl_read(e, held, l, 1) == 0 && evl_events(e) == 0, "%s: nothing "
	    "before the first byte", path);
	while (at < n) {
		k = chunk(n - at, n / 12 + 1);
		live_feed(&lv, b + at, k);
		at += k;
		if (load_prefix(b, proto_dec_offset(lv.dec), &pre) != 0 ||
		    pre.n == 0) {
			unload(&pre);
			continue;
		}
		checks++;
		/* The newest three. */
		k = pre.n < 3 ? pre.n : 3;
		if (evl_last(e, 3, &first) != 0 || evl_read(e, first, l, 3) !=
		    k)
			bad++;
		for (j = 0; j < k; j++)
			if (!same_line(&l[j], &pre, pre.n - k + j) &&
			    bad++ < 3)
				printf("# at %llu: newest %zu: %.*s | file "
				    "%.60s\n", (unsigned long long)
				    proto_dec_offset(lv.dec), j, (int)(l[j].ntext <
				    60 ? l[j].ntext : 60), l[j].text,
				    pre.line[pre.n - k + j]);
		/* From the place held on: what came since is there. */
		k = evl_read(e, held, l, 16);
		for (i = 0; i < pre.n && before(pre.pos[i], held); i++)
			;
		if (k != (pre.n - i < 16 ? pre.n - i : 16) && bad++ < 3)
			printf("# at %llu: %zu from the place held, not %zu\n",
			    (unsigned long long)proto_dec_offset(lv.dec), k,
			    pre.n - i);
		for (j = 0; j < k; j++)
			if (!same_line(&l[j], &pre, i + j) && bad++ < 3)
				printf("# at %llu: after %zu: %.*s | file "
				    "%.60s\n", (unsigned long long)
				    proto_dec_offset(lv.dec), j, (int)(l[j].ntext <
				    60 ? l[j].ntext : 60), l[j].text,
				    pre.line[i + j]);
		held = pre.pos[pre.n > 5 ? pre.n - 5 : 0];
		/* A cursor that reads on from where it stopped: what came
		 * after it since. */
		k = evl_read(tail, end, l, 16);
		for (i = 0; i < pre.n && before(pre.pos[i], end); i++)
			;
		if (k != (pre.n - i < 16 ? pre.n - i : 16) && bad++ < 3)
			printf("# at %llu: %zu read on, not %zu\n",
			    (unsigned long long)proto_dec_offset(lv.dec), k,
			    pre.n - i);
		for (j = 0; j < k; j++)
			if (!same_line(&l[j], &pre, i + j))
				bad++;
		if (k > 0) {
			end = l[k - 1].pos;
			end.off++;
			follow += k;
		}
		unload(&pre);
	}
	ok(bad == 0 && checks > 0 && follow > 0, "%s: growing, %zu times the "
	    "newest, what came after a place and after a cursor's last are "
	    "a recording so far's", path, checks);
	check_read(path, e, a);
	check_search(path, e, a);
	evl_free(tail);
	evl_free(e);
	live_free(&lv);
}

/*
 * A small bound: files go while a cursor reads forwards and a search runs
 * in slices between the chunks.
 */
static void
check_drops(const char *path, const struct all *a, const uint8_t *b,
    size_t n, const char *q)
{
	static struct evl_line l[64];
	struct live	 lv;
	struct evl	*e, *s;
	struct evl_pos	 pos = { 0, 0 }, fp;
	struct spill_stats st;
	size_t		 at = 0, k, j, i, bad = 0, got = 0, found = 0, skipped = 0;
	size_t		 off, len, mx;
	uint64_t	 from = 0;
	char		*cause = NULL;
	long		 prev = -1, x;
	enum evl_state	 es;
	char		 qgone[EVL_QUERY];

	if (live_new(&lv, SMALL_BOUND, 0) != 0 ||
	    (e = evl_open_spill(live_spill(&lv), &cause)) == NULL ||
	    (s = evl_open_spill(live_spill(&lv), &cause)) == NULL) {
		ok(0, "%s: a history and cursors", path);
		free(cause);
		live_free(&lv);
		return;
	}
	while (at < n) {
		k = chunk(n - at, 48 << 10);
		live_feed(&lv, b + at, k);
		at += k;
		/* The reader: on from where it was, each line the file's,
		 * in order (what went meanwhile is skipped). */
		k = evl_read(e, pos, l, 40);
		for (j = 0; j < k; j++) {
			if ((x = find(a, l[j].pos)) < 0 || x <= prev ||
			    !same_line(&l[j], a, (size_t)x))
				bad++;
			else {
				skipped += (size_t)(x - prev - 1);
				prev = x;
			}
		}
		got += k;
		if (k > 0) {
			pos = l[k - 1].pos;
			pos.off++;
		}
		/* The search: a slice; a match is on a line of the file's
		 * that holds it, after the last. */
		if (evl_state(s) != EVL_RUNNING)
			evl_search(s, q, (struct evl_pos){ 0, 0 }, 1);
		es = evl_step(s, 700);
		if (es == EVL_FOUND) {
			evl_found(s, &fp, &off, &len);
			x = find(a, fp);
			if (x < 0 || strncmp(a->line[x] + off, q, len) != 0)
				bad++;
			found++;
			evl_search(s, q, (struct evl_pos){ fp.time,
			    fp.off + 1 }, 1);
		} else if (es == EVL_ERROR)
			bad++;
	}
	spill_stats(live_spill(&lv), &st);
	ok(bad == 0 && got > 0 && found > 0, "%s: files dropped under a "
	    "reading cursor (%zu lines, %zu gone unread) and a search (%zu "
	    "found): the file's lines, in order", path, got, skipped, found);
	ok(st.bytes <= SMALL_BOUND + (SMALL_BOUND / 2) && st.events < a->n,
	    "%s: the bound held: %llu bytes, %llu of %zu events kept", path,
	    (unsigned long long)st.bytes, (unsigned long long)st.events,
	    a->n);

	/* Now: exactly the file's events from some offset on. */
	pos = (struct evl_pos){ 0, 0 };
	mx = 0;
	bad = 0;
	while ((k = evl_read(e, pos, l, 64)) > 0) {
		for (j = 0; j < k; j++) {
			if (mx == 0 || l[j].pos.off < from)
				from = l[j].pos.off;
			if (!line_ok(&l[j], a))
				bad++;
			mx++;
		}
		pos = l[k - 1].pos;
		pos.off++;
	}
	for (i = 0, j = 0; i < a->n; i++)
		j += mx > 0 && a->pos[i].off >= from;
	ok(bad == 0 && mx == j && mx == st.events && mx > 0 && mx < a->n,
	    "%s: what is kept is the file's events from offset %llu on (%zu "
	    "read, %zu in the file from there, %llu counted)", path,
	    (unsigned long long)from, mx, j, (unsigned long long)st.events);
	/* The first line of the file is gone: not found. */
	snprintf(qgone, sizeof qgone, "%.*s", (int)strcspn(a->line[0], "\n"),
	    a->line[0]);
	es = search(s, qgone, (struct evl_pos){ 0, 0 }, 1, 10000);
	i = 0;
	for (j = 1; j < a->n; j++)
		i += a->pos[j].off >= from && strstr(a->line[j], qgone) != NULL;
	ok(i > 0 || es == EVL_NOT_FOUND, "%s: a line gone is not found", path);
	evl_free(s);
	evl_free(e);
	live_free(&lv);
}

/*
 * The last page, then 20 events back one at a time, read from the file
 * and over the history: a few spans' events, not the whole of it (End
 * then Up once read it all from the start).
 */
static void
check_cost(const char *name, struct evl *e, const struct all *a)
{
	struct evl_pos	p;
	uint64_t	w;
	size_t		i;
	int		rc;

	if (a->n < 2000)
		return;
	w = evl_work(e);
	rc = evl_last(e, 30, &p);
	w = evl_work(e) - w;
	ok(rc == 0 && same_pos(p, a->pos[a->n - 30]) && w < a->n / 20,
	    "%s: the last page, %llu events read of %zu", name,
	    (unsigned long long)w, a->n);
	w = evl_work(e);
	for (i = 0; i < 20; i++)
		evl_back(e, p, 1, &p);
	w = evl_work(e) - w;
	ok(same_pos(p, a->pos[a->n - 50]) && w < a->n / 20, "%s: then 20 "
	    "back one at a time, %llu events read", name,
	    (unsigned long long)w);
}

/*
 * 4 MiB kept, files of 64 KiB: a cursor reading all of it forwards has
 * few readers open at once; backwards a page at a time, the lines are the
 * file's.  A cursor sought halfway gives the events there were then, not
 * those that came after in the files it opens later.
 */
static void
check_readers(const char *path, const struct all *a, const uint8_t *b,
    size_t n)
{
	static struct evl_line l[64];
	struct live	 lv;
	struct spill_cur *c, *g;
	struct proto_ev	 ev[100];
	struct evl	*e;
	struct evl_pos	 at = { UINT64_MAX, UINT64_MAX }, first;
	size_t		 done = 0, k, j, got = 0, bad = 0, back = a->n, np;
	size_t		*idx;
	uint64_t	 cut = 0;
	int		 most = 0;
	char		*cause = NULL;

	if (live_new(&lv, 4u << 20, 0) != 0 ||
	    (c = spill_cur_new(live_spill(&lv))) == NULL ||
	    (g = spill_cur_new(live_spill(&lv))) == NULL ||
	    (idx = calloc(a->n + 1, sizeof *idx)) == NULL ||
	    (e = evl_open_spill(live_spill(&lv), &cause)) == NULL) {
		ok(0, "%s: a history and cursors", path);
		free(cause);
		live_free(&lv);
		return;
	}
	while (done < n) {
		k = chunk(n - done, 64 << 10);
		live_feed(&lv, b + done, k);
		done += k;
		if (cut == 0 && done >= n / 2) {
			spill_cur_seek(g, 0, 0);
			cut = proto_dec_offset(lv.dec);
		}
	}
	/* Its last file grew since: read only as far as it was. */
	prefix(a, cut, idx, &np);
	for (got = 0; (k = spill_cur_next(g, ev, 100)) > 0;)
		for (j = 0; j < k; j++, got++)
			if (got >= np || ev[j].time != a->pos[idx[got]].time ||
			    ev[j].off != a->pos[idx[got]].off)
				bad++;
	ok(bad == 0 && got == np && np < a->n, "%s: a cursor sought halfway: "
	    "%zu events of the %zu there were then", path, got, np);
	spill_cur_free(g);
	free(idx);
	got = bad = 0;
	spill_cur_seek(c, 0, 0);
	while ((k = spill_cur_next(c, ev, 100)) > 0) {
		for (j = 0; j < k; j++, got++)
			if (got >= a->n || ev[j].time != a->pos[got].time ||
			    ev[j].off != a->pos[got].off)
				bad++;
		if (spill_cur_readers(c) > most)
			most = spill_cur_readers(c);
	}
	ok(bad == 0 && got == a->n && most <= 4, "%s: %zu events read "
	    "forwards over many files, at most %d readers open", path, got,
	    most);
	spill_cur_free(c);
	/* Backwards, with the raw events' cursor. */
	bad = 0;
	while ((k = evl_back(e, at, 64, &first)) > 0 && back >= k) {
		back -= k;
		if (evl_read(e, first, l, k) != k || !same_line(&l[0], a,
		    back))
			bad++;
		at = first;
	}
	ok(bad == 0 && back == 0, "%s: and backwards a page at a time", path);
	check_cost(path, e, a);
	evl_free(e);
	if ((e = evl_open(path, &cause)) != NULL)
		check_cost(path, e, a);
	free(cause);
	evl_free(e);
	live_free(&lv);
}

/* The model's JSON but for "reorder" (how the bytes came). */
static char *
json_of(const struct model *m)
{
	char	*p = NULL, *r, *end;
	size_t	 n = 0;
	FILE	*f = open_memstream(&p, &n);

	model_json(m, f);
	fclose(f);
	if ((r = strstr(p, "\"reorder\":{")) != NULL &&
	    (end = strchr(r, '}')) != NULL)
		memmove(r, end + 1, strlen(end + 1) + 1);
	return p;
}

/*
 * Late blocks: redo.c reads the history to put them back, with the
 * spill's cursor, while another reads and searches it.  A GHC 9.0 log:
 * every event decoded is read back at once, so the bytes so far hold the
 * file's events before their offset.
 */
static void
check_redo(const char *path, const struct all *a, const uint8_t *b,
    size_t n)
{
	static struct evl_line l[16];
	struct live	 lv;
	struct evl	*e;
	struct model	*fm;
	struct reader	*rd;
	struct proto_ev	 ev;
	struct redo_stats rs;
	size_t		*idx, ni, at = 0, k, j, i, bad = 0, busy = 0, found = 0;
	size_t		 off, len;
	char		*cause = NULL, *jl, *jf;
	struct evl_pos	 fp;
	enum evl_state	 es;

	if (live_new(&lv, REDO_BOUND, 1) != 0 ||
	    (e = evl_open_spill(live_spill(&lv), &cause)) == NULL) {
		ok(0, "%s: redo and a cursor", path);
		free(cause);
		live_free(&lv);
		return;
	}
	idx = malloc((a->n + 1) * sizeof *idx);
	while (at < n) {
		k = chunk(n - at, 16 << 10);
		live_feed(&lv, b + at, k);
		at += k;
		prefix(a, proto_dec_offset(lv.dec), idx, &ni);
		if (ni == 0)
			continue;
		busy += redo_busy(lv.r);
		/* Random places of the bytes so far. */
		for (j = 0; j < 4; j++) {
			i = (size_t)rand_r(&seed) % ni;
			k = evl_read(e, a->pos[idx[i]], l, 6);
			if (k != (ni - i < 6 ? ni - i : 6))
				bad++;
			while (k-- > 0)
				if (!same_line(&l[k], a, idx[i + k]))
					bad++;
		}
		/* And a search, a slice at a time. */
		if (evl_state(e) != EVL_RUNNING)
			evl_search(e, "GC", a->pos[idx[(size_t)rand_r(&seed) %
			    ni]], 1);
		if ((es = evl_step(e, 300)) == EVL_FOUND) {
			evl_found(e, &fp, &off, &len);
			if (find(a, fp) < 0 || strncmp(a->line[find(a, fp)] +
			    off, "GC", 2) != 0)
				bad++;
			found++;
		} else if (es == EVL_ERROR)
			bad++;
		redo_tick(lv.r, lv.wall, 1);
	}
	redo_finish(lv.r);
	model_flush(lv.m);
	redo_stats(lv.r, &rs);
	ok(bad == 0 && found > 0, "%s: read and searched (%zu found) while "
	    "late events were put back, the file's lines", path, found);
	ok(rs.corrections > 0 && busy > 0, "%s: %llu corrections, %zu "
	    "chunks read during one", path,
	    (unsigned long long)rs.corrections, busy);

	/* The model as the file gives it. */
	fm = model_new();
	rd = reader_open(path, &cause);
	model_set_reorder(fm, 0, 0);
	if (rd != NULL) {
		model_header(fm, reader_dec(rd));
		while (reader_next(rd, &ev) == PROTO_EVENT)
			model_apply(fm, &ev);
	}
	model_flush(fm);
	jl = json_of(lv.m);
	jf = json_of(fm);
	ok(strcmp(jl, jf) == 0, "%s: the model is the file's (%zu bytes of "
	    "JSON)", path, strlen(jf));
	if (strcmp(jl, jf) != 0) {
		for (i = 0; jl[i] == jf[i]; i++)
			;
		printf("# differ at %zu: live ...%.80s\n#    file ...%.80s\n", i,
		    jl + (i > 40 ? i - 40 : 0), jf + (i > 40 ? i - 40 : 0));
	}
	check_read(path, e, a);
	free(jl);
	free(jf);
	free(cause);
	reader_free(rd);
	model_free(fm);
	evl_free(e);
	free(idx);
	live_free(&lv);
}

int
main(int argc, char **argv)
{
	struct all	 a;
	uint8_t		*b;
	size_t		 n;
	int		 f, mode;

	if (argc < 3) {
		fprintf(stderr, "usage: t_evlive EVTOP [-d LOG] [-r LOG] [-i LOG] "
		    "FILE...\n");
		return 2;
	}
	evtop = argv[1];
	buf = malloc(LINE_MAX_);
	for (f = 2; f < argc; f++) {
		mode = 0;
		if ((strcmp(argv[f], "-d") == 0 || strcmp(argv[f], "-r") ==
		    0 || strcmp(argv[f], "-i") == 0) && f + 1 < argc)
			mode = argv[f++][1];
		if (load(argv[f], &a, NULL) != 0 || (b = slurp(argv[f], &n)) ==
		    NULL) {
			ok(0, "%s: read", argv[f]);
			continue;
		}
		ok(sorted(&a) && show_equal(argv[f], &a), "%s: the file's %zu "
		    "lines are evtop show's, in (time, offset) order", argv[f],
		    a.n);
		if (mode == 'd') {
			check_drops(argv[f], &a, b, n, "stopping thread");
			check_readers(argv[f], &a, b, n);
		} else if (mode == 'i')
			check_drops(argv[f], &a, b, n, "Info Table");
		else if (mode == 'r')
			check_redo(argv[f], &a, b, n);
		else
			check_file(argv[f], &a, b, n);
		free(b);
		unload(&a);
	}
	free(buf);
	return tap_done();
}
