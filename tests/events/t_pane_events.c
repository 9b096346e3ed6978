/*
 * t_pane_events.c: pane 9, the raw events, rendered through the view into
 * lines (no terminal), on real logs: the page holds `evtop show`'s lines
 * around the cursor, follows the shared cursor, moves it with Up, Down,
 * PgUp, PgDn, Home and End, and / n N search (run in slices as the loop
 * runs them) land on the matches the brute force finds, highlighted; Esc
 * cancels.
 *
 * Over a live source's history (a spill fed the file's bytes in three
 * parts, as the loop feeds it): with no cursor, the newest events,
 * following them as bytes come; scrolled, the page stays; End follows
 * again; / n N as over the file; in the past the display holds, its time;
 * a cursor older than what is kept (a small bound) is said; with no
 * history (--history 0), or one given up, it says why.
 *
 * usage: t_pane_events FILE...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../tap.h"
#include "../ui/uitest.h"
#include "time/evlist.h"
#include "time/spill.h"

#define W	120
#define H	30

struct all {
	char		**line;
	uint64_t	*time;
	size_t		 n;
};

static void
load(const char *path, struct all *a)
{
	struct reader	*r;
	struct proto_ev	 ev;
	char		*cause = NULL, *buf = malloc(1 << 20);
	size_t		 cap = 0, k;

	memset(a, 0, sizeof *a);
	if ((r = reader_open(path, &cause)) == NULL) {
		free(cause);
		free(buf);
		return;
	}
	while (reader_dec(r) != NULL && reader_next(r, &ev) == PROTO_EVENT) {
		if (a->n == cap) {
			cap = cap ? 2 * cap : 1024;
			a->line = realloc(a->line, cap * sizeof *a->line);
			a->time = realloc(a->time, cap * sizeof *a->time);
		}
		k = proto_show_event(&ev, reader_dec(r), buf, 1 << 20);
		while (k > 0 && buf[k - 1] == '\n')
			k--;
		buf[k] = '\0';
		a->line[a->n] = strdup(buf);
		a->time[a->n++] = ev.time;
	}
	reader_free(r);
	free(buf);
}

static void
unload(struct all *a)
{
	size_t	i;

	for (i = 0; i < a->n; i++)
		free(a->line[i]);
	free(a->line);
	free(a->time);
}

static enum ui_action
press(struct view *v, int kind, int code)
{
	struct keys_key	 k = uitest_key(kind, code);
	struct evtop_cmd cmd;

	return view_key(v, &k, &cmd);
}

static void
type(struct view *v, const char *s)
{
	for (; *s != '\0'; s++) {
		if (*s == ' ')
			press(v, KEYS_SYM, KEYS_SYM_SPACE);
		else
			press(v, KEYS_CHAR, (unsigned char)*s);
	}
}

/* The frame's row y (a pointer into a static copy). */
static const char *
row_of(const char *frame, int y)
{
	static char	 row[4096];
	const char	*p = frame, *e;
	int		 i;

	for (i = 0; i < y && p != NULL; i++) {
		p = strchr(p, '\n');
		if (p != NULL)
			p++;
	}
	if (p == NULL)
		return "";
	e = strchr(p, '\n');
	snprintf(row, sizeof row, "%.*s", (int)(e ? e - p : (long)strlen(p)),
	    p);
	return row;
}

/* Does row y show the line of event i? */
static int
row_is(const char *frame, int y, const struct all *a, size_t i)
{
	char	want[W + 1];
	int	n;

	/* Up to the first non-ASCII byte: lines_text() shows no more. */
	for (n = 0; n < W - 1 && a->line[i][n] != '\0' &&
	    (unsigned char)a->line[i][n] < 0x80; n++)
		;
	snprintf(want, sizeof want, "%.*s", n, a->line[i]);
	return strncmp(row_of(frame, y), want, strlen(want)) == 0;
}

/* The row of the frame that starts the line of event i, or -1. */
static int
find_row(const char *frame, const struct all *a, size_t i)
{
	int	y;

	for (y = 0; y < H; y++) {
		if (row_is(frame, y, a, i))
			return y;
	}
	return -1;
}

/* The index of the first event at or after t. */
static size_t
first_at(const struct all *a, uint64_t t)
{
	size_t	i;

	for (i = 0; i < a->n && a->time[i] < t; i++)
		;
	return i;
}

/* The search runs as the loop runs it: slices until it is done. */
static int
run(struct view *v)
{
	int	slices = 0;

	while (view_busy(v) && slices < 100000) {
		view_work(v);
		slices++;
	}
	return slices;
}

static void
check_file(const char *path)
{
	struct all		 a;
	struct model		*m;
	struct evtop_status	 st;
	struct view		*v;
	const char		*f;
	size_t			 i, j, k;
	int			 y, bad, page = H - header_rows(W) - 3;
	char			 q[64];

	load(path, &a);
	if (a.n < 40 || (m = uitest_model(path)) == NULL) {
		unload(&a);
		return;
	}
	uitest_status(&st, path, EVTOP_SRC_FILE);
	st.file_time = a.time[a.n / 2];
	v = view_new(EVTOP_SRC_FILE);
	press(v, KEYS_CHAR, '9');
	f = uitest_frame(v, m, &st, W, H, 0);

	/* No cursor yet: the display's event time. */
	i = first_at(&a, st.file_time);
	ok(strstr(f, " 9 Raw events") != NULL && find_row(f, &a, i) >= 0,
	    "%s: zoomed, the event at the display's time is on the page",
	    path);
	/* The page is show's lines, in order, from its first row on. */
	y = find_row(f, &a, i);
	bad = 0;
	for (j = 1; y >= 0 && j + (size_t)y < (size_t)H - 3 && i + j < a.n;
	    j++) {
		if (!row_is(f, y + (int)j, &a, i + j))
			bad++;
	}
	ok(y >= 0 && bad == 0, "%s: the lines after it are show's, in order",
	    path);

	/* The cursor moved elsewhere (the timeline): the page follows. */
	k = a.n / 5;
	view_set_cursor(v, a.time[k]);
	f = uitest_frame(v, m, &st, W, H, 0);
	i = first_at(&a, a.time[k]);
	ok(find_row(f, &a, i) >= 0 && strstr(f, "cursor") != NULL,
	    "%s: follows the cursor to event %zu", path, i);


	/* Down and Up move the cursor to the next event and back. */
	for (j = i + 1; j < a.n && a.time[j] == a.time[i]; j++)
		;
	press(v, KEYS_SYM, KEYS_SYM_DOWN);
	ok(view_cursor(v) == a.time[i + 1], "%s: Down: the cursor is the "
	    "next event's time", path);
	press(v, KEYS_SYM, KEYS_SYM_UP);
	ok(view_cursor(v) == a.time[i], "%s: Up: back", path);
	press(v, KEYS_SYM, KEYS_SYM_PGDN);
	uitest_frame(v, m, &st, W, H, 0);
	press(v, KEYS_SYM, KEYS_SYM_PGDN);
	ok(view_cursor(v) > a.time[i] && view_cursor(v) <= a.time[i +
	    2 * (H - 4) < a.n ? i + 2 * (H - 4) : a.n - 1], "%s: PgDn twice "
	    "moves on, by pages", path);
	press(v, KEYS_SYM, KEYS_SYM_PGUP);
	press(v, KEYS_SYM, KEYS_SYM_PGUP);
	/* Back where it was, unless the end stopped the pages short. */
	ok(view_cursor(v) == a.time[i] || (i + 2 * (size_t)page >= a.n &&
	    view_cursor(v) < a.time[i]), "%s: PgUp twice: back again",
	    path);
	press(v, KEYS_SYM, KEYS_SYM_END);
	f = uitest_frame(v, m, &st, W, H, 0);
	ok(view_cursor(v) == a.time[a.n - 1] && find_row(f, &a, a.n - 1) ==
	    H - 3, "%s: End: the last event, on the last line", path);
	press(v, KEYS_SYM, KEYS_SYM_DOWN);
	ok(view_cursor(v) == a.time[a.n - 1], "%s: Down at the end stays",
	    path);
	press(v, KEYS_SYM, KEYS_SYM_HOME);
	f = uitest_frame(v, m, &st, W, H, 0);
	ok(view_cursor(v) == a.time[0] && find_row(f, &a, 0) == header_rows(W) + 1,
	    "%s: Home: the first event, on the first line", path);

	/* Search: a piece of a line two thirds in, from the start. */
	k = 2 * a.n / 3;
	snprintf(q, sizeof q, "%s", strchr(a.line[k], ':') != NULL ?
	    strchr(a.line[k], ':') + 2 : a.line[k]);
	q[20] = '\0';
	for (j = 0; j < a.n && strstr(a.line[j], q) == NULL; j++)
		;
	press(v, KEYS_CHAR, '/');
	type(v, q);
	press(v, KEYS_SYM, KEYS_SYM_ENTER);
	ok(view_busy(v), "%s: / starts a search", path);
	run(v);
	f = uitest_frame(v, m, &st, W, H, 0);
	ok(j < a.n && view_cursor(v) == a.time[j] && find_row(f, &a, j) >= 0 &&
	    strstr(f, "found at") != NULL, "%s: / finds \"%s\" at event %zu",
	    path, q, j);
	/* The match is highlighted. */
	{
		struct lines	 s;
		int		 yy = find_row(f, &a, j), x, hl = 0;

		lines_init(&s, W, H);
		view_render(v, m, &st, &s);
		for (x = 0; yy >= 0 && x < W; x++)
			hl += s.cell[(size_t)yy * W + x].attr == LINES_MATCH;
		lines_free(&s);
		ok(hl == (int)strlen(q) || (hl > 0 && strlen(q) > 20),
		    "%s: the match is highlighted (%d cells)", path, hl);
	}
	/* n: the next match; N: back to the one before. */
	for (k = j + 1; k < a.n && strstr(a.line[k], q) == NULL; k++)
		;
	press(v, KEYS_CHAR, 'n');
	run(v);
	f = uitest_frame(v, m, &st, W, H, 0);
	if (k < a.n)
		ok(view_cursor(v) == a.time[k] && find_row(f, &a, k) >= 0,
		    "%s: n: the next match, event %zu", path, k);
	else
		ok(strstr(f, "not found after") != NULL && view_cursor(v) ==
		    a.time[j], "%s: n: not found, said, the cursor stays",
		    path);
	press(v, KEYS_CHAR, 'N');
	run(v);
	if (k < a.n) {
		ok(view_cursor(v) == a.time[j], "%s: N: the match before",
		    path);
	}
	press(v, KEYS_CHAR, 'N');
	run(v);
	f = uitest_frame(v, m, &st, W, H, 0);
	ok(strstr(f, "not found before") != NULL && view_cursor(v) ==
	    a.time[j], "%s: N before the first: not found, said", path);

	/* Not there at all; and Esc cancels a running search. */
	press(v, KEYS_CHAR, '/');
	{
		struct keys_key	 ku = uitest_key(KEYS_CHAR, 'u');
		struct evtop_cmd cmd;

		ku.mods = KEYS_CTRL;	/* ^U: the old text goes */
		view_key(v, &ku, &cmd);
	}
	type(v, "zq-not-in-any-line");
	press(v, KEYS_SYM, KEYS_SYM_ENTER);
	press(v, KEYS_SYM, KEYS_SYM_ESCAPE);
	f = uitest_frame(v, m, &st, W, H, 0);
	ok(!view_busy(v) && strstr(f, "cancelled") != NULL && strstr(f,
	    " 9 Raw events") != NULL, "%s: Esc cancels the search, the "
	    "pane stays", path);
	press(v, KEYS_CHAR, 'n');
	run(v);
	f = uitest_frame(v, m, &st, W, H, 0);
	ok(strstr(f, "not found after") != NULL, "%s: a query no line "
	    "holds: not found, said", path);
	view_free(v);

	model_free(m);
	unload(&a);
}

/* ------------------------------------------------------------------ */
/* A live source's history. */

struct feed {
	const uint8_t	*b;
	size_t		 n, at;
	struct proto_dec *dec;
	struct spill	*sp;
};

/* The next bytes, up to upto, into the spill as the loop gives them. */
static void
feed_to(struct feed *fd, size_t upto)
{
	struct proto_ev	ev;
	enum proto_res	rc;
	size_t		k;

	if (upto > fd->n)
		upto = fd->n;
	spill_bytes(fd->sp, fd->b + fd->at, upto - fd->at);
	while (fd->at < upto) {
		k = proto_dec_feed(fd->dec, fd->b + fd->at, upto - fd->at);
		fd->at += k;
		while ((rc = proto_dec_next(fd->dec, &ev)) != PROTO_AGAIN) {
			if (rc == PROTO_HEADER)
				spill_session(fd->sp, fd->dec,
				    proto_dec_offset(fd->dec));
			else if (rc == PROTO_EVENT)
				spill_event(fd->sp, &ev);
		}
	}
	spill_commit(fd->sp, proto_dec_offset(fd->dec));
}

/* The status the loop gives over the history now. */
static void
live_status(struct evtop_status *st, const char *path, struct spill *sp,
    uint64_t now)
{
	struct spill_stats	ss;

	uitest_status(st, path, EVTOP_SRC_UNIX);
	spill_stats(sp, &ss);
	st->spill = sp;
	st->history = 1;
	st->history_bytes = ss.bytes;
	st->history_first = ss.first;
	st->history_last = ss.last;
	st->file_time = now;
}

/* What a recording of the first n bytes holds. */
static void
load_bytes(const uint8_t *b, size_t n, struct all *a)
{
	char	 path[4096];
	FILE	*f;
	int	 fd;

	memset(a, 0, sizeof *a);
	snprintf(path, sizeof path, "%s/t_pane_events.XXXXXX",
	    getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	if ((fd = mkstemp(path)) == -1 || (f = fdopen(fd, "wb")) == NULL)
		return;
	fwrite(b, 1, n, f);
	fclose(f);
	load(path, a);
	unlink(path);
}

static uint8_t *
slurp(const char *path, size_t *n)
{
	FILE	*f = fopen(path, "rb");
	uint8_t	*b = NULL;
	long	 len;

	*n = 0;
	if (f == NULL)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (len = ftell(f)) > 0 &&
	    (b = malloc((size_t)len)) != NULL) {
		rewind(f);
		*n = fread(b, 1, (size_t)len, f);
	}
	fclose(f);
	return b;
}

static void
check_live(const char *path)
{
	struct all		 a, p1, p2;
	struct model		*m;
	struct evtop_status	 st;
	struct view		*v;
	struct feed		 fd;
	const char		*f;
	char			*cause = NULL, q[64];
	size_t			 i, j, k;
	uint64_t		 c;
	int			 y;

	load(path, &a);
	memset(&fd, 0, sizeof fd);
	if (a.n < 200 || (m = uitest_model(path)) == NULL ||
	    (fd.b = slurp(path, &fd.n)) == NULL) {
		unload(&a);
		return;
	}
	fd.dec = proto_dec_new(1u << 20);
	fd.sp = spill_new(1u << 30, 0, &cause);

	/* No history kept: why. */
	uitest_status(&st, path, EVTOP_SRC_UNIX);
	v = view_new(EVTOP_SRC_UNIX);
	press(v, KEYS_CHAR, '9');
	f = uitest_frame(v, m, &st, W, H, 0);
	ok(strstr(f, "no history kept (--history 0)") != NULL, "%s: live, "
	    "--history 0: said", path);
	view_free(v);

	/* A third of it: the newest events, the last on the last row (a
	 * log whose first third is mostly its header is passed over). */
	feed_to(&fd, fd.n / 3);
	load_bytes(fd.b, proto_dec_offset(fd.dec), &p1);
	feed_to(&fd, 2 * fd.n / 3);
	load_bytes(fd.b, proto_dec_offset(fd.dec), &p2);
	if (p1.n < 40 || p2.n < p1.n + 2)
		goto out;
	spill_free(fd.sp);
	proto_dec_free(fd.dec);
	fd.at = 0;
	fd.dec = proto_dec_new(1u << 20);
	fd.sp = spill_new(1u << 30, 0, &cause);
	feed_to(&fd, fd.n / 3);
	live_status(&st, path, fd.sp, p1.time[p1.n - 1]);
	v = view_new(EVTOP_SRC_UNIX);
	press(v, KEYS_CHAR, '9');
	f = uitest_frame(v, m, &st, W, H, 0);
	ok(p1.n > 10 && find_row(f, &p1, p1.n - 1) == H - 3 &&
	    find_row(f, &p1, p1.n - 2) == H - 4 && strstr(f, "newest") !=
	    NULL && view_cursor(v) == VIEW_NO_CURSOR, "%s: live, a third "
	    "in: the newest events, the last on the last row", path);
	/* Two thirds: it follows. */
	feed_to(&fd, 2 * fd.n / 3);
	live_status(&st, path, fd.sp, p2.time[p2.n - 1]);
	f = uitest_frame(v, m, &st, W, H, 0);
	ok(p2.n > p1.n && find_row(f, &p2, p2.n - 1) == H - 3 &&
	    find_row(f, &p2, p2.n - 2) == H - 4, "%s: live, two thirds in: "
	    "it follows the newest (%zu events now, %zu before)", path, p2.n,
	    p1.n);
	/* Up: the cursor is set, the one before the newest; then the
	 * rest comes and the page stays. */
	press(v, KEYS_SYM, KEYS_SYM_UP);
	c = view_cursor(v);
	feed_to(&fd, fd.n);
	live_status(&st, path, fd.sp, a.time[a.n - 1]);
	f = uitest_frame(v, m, &st, W, H, 0);
	ok(c == p2.time[p2.n - 2] && view_cursor(v) == c && find_row(f, &a,
	    a.n - 1) < 0 && strstr(f, "cursor") != NULL, "%s: live, "
	    "scrolled up: the page stays as bytes come", path);
	/* The page is the file's lines before it. */
	for (i = 0; i < a.n && a.time[i] < c; i++)
		;
	y = find_row(f, &a, i);
	ok(i >= 2 && y >= 2 && row_is(f, y - 1, &a, i - 1) && row_is(f,
	    y - 2, &a, i - 2), "%s: live: the lines are the file's, in "
	    "order", path);
	/* End: the newest, the cursor its time. */
	press(v, KEYS_SYM, KEYS_SYM_END);
	f = uitest_frame(v, m, &st, W, H, 0);
	ok(view_cursor(v) == a.time[a.n - 1] && find_row(f, &a, a.n - 1) ==
	    H - 3, "%s: live, End: the newest, the cursor its time", path);

	/* Search: a piece of a line a quarter in, from Home. */
	press(v, KEYS_SYM, KEYS_SYM_HOME);
	k = a.n / 4;
	snprintf(q, sizeof q, "%s", strchr(a.line[k], ':') != NULL ?
	    strchr(a.line[k], ':') + 2 : a.line[k]);
	q[16] = '\0';
	for (j = 0; j < a.n && strstr(a.line[j], q) == NULL; j++)
		;
	press(v, KEYS_CHAR, '/');
	type(v, q);
	press(v, KEYS_SYM, KEYS_SYM_ENTER);
	run(v);
	f = uitest_frame(v, m, &st, W, H, 0);
	ok(j < a.n && view_cursor(v) == a.time[j] && find_row(f, &a, j) >= 0 &&
	    strstr(f, "found at") != NULL, "%s: live, / finds \"%s\" at "
	    "event %zu", path, q, j);
	for (k = j + 1; k < a.n && strstr(a.line[k], q) == NULL; k++)
		;
	press(v, KEYS_CHAR, 'n');
	run(v);
	ok(k == a.n || view_cursor(v) == a.time[k], "%s: live, n: the next "
	    "match", path);
	press(v, KEYS_CHAR, 'N');
	run(v);
	ok(k == a.n || view_cursor(v) == a.time[j], "%s: live, N: the one "
	    "before", path);
	view_free(v);

	/* Held in the past (g), no cursor: the time held. */
	live_status(&st, path, fd.sp, a.time[a.n / 2]);
	st.viewing = 1;
	st.view_ns = st.file_time;
	v = view_new(EVTOP_SRC_UNIX);
	press(v, KEYS_CHAR, '9');
	f = uitest_frame(v, m, &st, W, H, 0);
	i = first_at(&a, a.time[a.n / 2]);
	ok(find_row(f, &a, i) >= 0 && find_row(f, &a, a.n - 1) < 0 &&
	    strstr(f, "newest") == NULL, "%s: live, held in the past: its "
	    "time's events", path);
	view_free(v);
out:
	unload(&p1);
	unload(&p2);
	spill_free(fd.sp);
	proto_dec_free(fd.dec);

	/* 64 KiB kept: a cursor before it is said, the first kept shown. */
	fd.at = 0;
	fd.dec = proto_dec_new(1u << 20);
	fd.sp = spill_new(64u << 10, 0, &cause);
	feed_to(&fd, fd.n);
	live_status(&st, path, fd.sp, a.time[a.n - 1]);
	v = view_new(EVTOP_SRC_UNIX);
	press(v, KEYS_CHAR, '9');
	view_set_cursor(v, a.time[0]);
	f = uitest_frame(v, m, &st, W, H, 0);
	/* (Only where the bound dropped a file.) */
	if (st.history_first > a.time[0])
		ok(strstr(f, "older than the history kept") != NULL &&
		    find_row(f, &a, 0) < 0 && find_row(f, &a, first_at(&a,
		    st.history_first)) >= 0, "%s: live, a cursor older than "
		    "the history: said, its first events shown", path);
	view_free(v);
	spill_free(fd.sp);
	proto_dec_free(fd.dec);

	/* Given up: why. */
	fd.dec = proto_dec_new(1u << 20);
	fd.sp = spill_new(1u << 30, 0, &cause);
	live_status(&st, path, fd.sp, 0);
	st.history = 0;
	st.history_error = "history: writing: No space left on device";
	v = view_new(EVTOP_SRC_UNIX);
	press(v, KEYS_CHAR, '9');
	f = uitest_frame(v, m, &st, W, H, 0);
	ok(strstr(f, "No space left") != NULL, "%s: live, the history "
	    "given up: said why", path);
	view_free(v);
	spill_free(fd.sp);
	proto_dec_free(fd.dec);
	free((void *)fd.b);
	free(cause);
	model_free(m);
	unload(&a);
}

int
main(int argc, char **argv)
{
	int	i;

	for (i = 1; i < argc; i++) {
		check_file(argv[i]);
		check_live(argv[i]);
	}
	return tap_done();
}
