/*
 * pane-events.c: the raw events around the time cursor, one a line as
 * `evtop show` prints them (src/time/evlist.c), scrolled through the whole
 * file or a live source's history, and searched: `/` from the cursor on,
 * `n` and `N` for the next and the previous match.  The selected event is
 * the shared time cursor: moving it moves the timeline's, and the
 * timeline's moves it.
 *
 * The search runs in slices (pane_events_work(), from the loop through
 * view_work()) so keys are answered throughout; Esc cancels it.  The file
 * is opened with a reader of its own the first time the pane is drawn; a
 * history is read with a cursor of its own (never redo.c's).  Over a live
 * source at now, with no cursor chosen, the pane follows the newest
 * events as they come (End does it too); in the past the `g` view shows,
 * the time held.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ui.h"
#include "time/evlist.h"

#define PE_ROWS		256		/* lines a page can show */
#define PE_SLICE	32768		/* events a step of the search */
#define PE_SLICE_NS	(6 * 1000 * 1000)	/* work a slice at most */
#define PE_IDLE_NS	(5ull * 1000 * 1000 * 1000)	/* then readers go */

struct pane_events {
	struct view	*view;
	/* From the loop's status (pe_get()). */
	const char	*source;
	enum evtop_src_kind kind;
	uint64_t	 now;		/* the display's event time */
	struct evl	*evl;
	char		 why[192];	/* why there is nothing to show */
	/* A live source: its history. */
	int		 live;
	const struct spill *spill;
	int		 history;	/* kept now */
	const char	*history_error;
	uint64_t	 first, last;	/* event times kept */
	uint64_t	 hbytes;
	int		 viewing;	/* the display is held in the past */
	uint64_t	 seen_bytes, seen_last;	/* when last drawn */
	int		 tail;		/* following the newest events */
	uint64_t	 went;		/* the display's time last gone to */
	int		 older;		/* went to before the history kept */
	uint64_t	 drawn;		/* when last drawn (pe_clock()) */
	int		 rested;	/* the history's readers let go since */

	/* What is shown: the first line, and the selected event. */
	int		 have;		/* top and sel are set */
	struct evl_pos	 top, sel;
	uint64_t	 cursor;	/* the view's cursor when sel was set */
	struct evl_line	 line[PE_ROWS];
	size_t		 nline;
	int		 cached;	/* line[] is read from top */
	int		 page;

	/* The search. */
	int		 dir;
	int		 sel_past;	/* n: from the event after sel */
	struct evl_pos	 from;
	int		 hl;		/* the match is highlighted */
	struct evl_pos	 hl_pos;
	size_t		 hl_off, hl_len;
	char		 msg[192];
	int		 msg_bad;
};

/*
 * The pane's state, made the first time it is needed, with what the loop
 * says this frame (the view's p->st): the source, and the display's event
 * time.
 */
static struct pane_events *
pe_get(struct pane *p)
{
	struct pane_events	*e = p->data;

	if (e == NULL) {
		if ((e = calloc(1, sizeof *e)) == NULL)
			return NULL;
		e->kind = EVTOP_SRC_STDIN;
		p->data = e;
	}
	e->view = p->view;
	if (p->st != NULL) {
		e->source = p->st->source;
		e->kind = p->st->kind;
		e->now = p->st->file_time;
		e->live = e->kind != EVTOP_SRC_FILE;
		e->spill = p->st->spill;
		e->history = p->st->history;
		e->history_error = p->st->history_error;
		e->first = p->st->history_first;
		e->last = p->st->history_last;
		e->hbytes = p->st->history_bytes;
		e->viewing = p->st->viewing;
	}
	return e;
}

/* The file, opened the first time it is needed; NULL: e->why says. */
static struct evl *
pe_evl(struct pane_events *e)
{
	char	*cause = NULL;

	if (e->evl != NULL || e->why[0] != '\0')
		return e->evl;
	if (e->live && e->spill == NULL) {
		snprintf(e->why, sizeof e->why, "no history kept (--history "
		    "0): a live source's raw events come from it");
		return NULL;
	}
	if (!e->live && e->source == NULL) {
		snprintf(e->why, sizeof e->why, "raw events need a file or a "
		    "live source's history");
		return NULL;
	}
	if ((e->evl = e->live ? evl_open_spill(e->spill, &cause) :
	    evl_open(e->source, &cause)) == NULL) {
		snprintf(e->why, sizeof e->why, "cannot read the events: %s",
		    cause != NULL ? cause : "out of memory");
		free(cause);
	}
	return e->evl;
}

static int
pe_same(struct evl_pos a, struct evl_pos b)
{
	return a.time == b.time && a.off == b.off;
}

/* The selected event is the cursor from now on. */
static void
pe_set_cursor(struct pane_events *e)
{
	e->older = 0;
	e->cursor = e->sel.time;
	if (e->view != NULL)
		view_set_cursor(e->view, e->sel.time);
}

/*
 * Read the page from top; 0 when there is nothing at all.  Near the end
 * the page starts earlier, so that it is full.
 */
static size_t
pe_fill(struct pane_events *e, int rows)
{
	struct evl_pos	first;
	size_t		k;

	if (rows > PE_ROWS)
		rows = PE_ROWS;
	if (e->cached && (int)e->nline >= rows)
		return e->nline;
	e->nline = evl_read(e->evl, e->top, e->line, (size_t)rows);
	if (e->nline < (size_t)rows && (k = evl_back(e->evl, e->top,
	    (size_t)rows - e->nline, &first)) > 0) {
		e->top = first;
		e->nline = evl_read(e->evl, e->top, e->line, (size_t)rows);
	}
	e->cached = 1;
	return e->nline;
}

static void
pe_top(struct pane_events *e, struct evl_pos top)
{
	if (!pe_same(top, e->top))
		e->cached = 0;
	e->top = top;
}

/* Put sel on the page, a third down when it has to move. */
static void
pe_place(struct pane_events *e, int rows)
{
	struct evl_pos	first;
	size_t		i, n, k;

	n = pe_fill(e, rows);
	for (i = 0; i < n && i < (size_t)rows; i++) {
		if (pe_same(e->line[i].pos, e->sel))
			return;
	}
	k = evl_back(e->evl, e->sel, (size_t)(rows / 3), &first);
	pe_top(e, k > 0 ? first : e->sel);
	pe_fill(e, rows);
}

/* Select the first event at or after time t. */
static void
pe_goto_time(struct pane_events *e, uint64_t t, int rows)
{
	struct evl_line	l;
	struct evl_pos	pos = { t, 0 };

	if (evl_read(e->evl, pos, &l, 1) == 1)
		e->sel = l.pos;
	else if (evl_last(e->evl, 1, &pos) == 0)
		e->sel = pos;		/* after the last: the last */
	else
		e->sel = pos;
	e->have = 1;
	e->cursor = t;
	e->went = t;
	e->older = e->live && t < e->first;
	pe_place(e, rows);
}

/* The last page, the newest event selected (and the cursor, if set). */
static void
pe_end(struct pane_events *e, int rows, int set)
{
	struct evl_pos	first;
	size_t		n;

	if (evl_last(e->evl, (size_t)rows, &first) != 0)
		return;
	pe_top(e, first);
	e->cached = 0;
	if ((n = pe_fill(e, rows)) == 0)
		return;
	e->have = 1;
	e->older = 0;
	e->sel = e->line[n - 1].pos;
	if (set)
		pe_set_cursor(e);
}

/*
 * Bytes came to the history, or its oldest went: the page is read again
 * (a late event may belong on it), the selected event kept on its row.
 */
static void
pe_refresh(struct pane_events *e)
{
	struct evl_pos	first;
	size_t		i, row, k;

	row = (size_t)(e->page / 3);
	for (i = 0; i < e->nline && e->cached; i++)
		if (pe_same(e->line[i].pos, e->sel))
			row = i;
	e->cached = 0;
	if (!e->have || e->tail)
		return;		/* the newest are read again anyway */
	k = row > 0 ? evl_back(e->evl, e->sel, row, &first) : 0;
	pe_top(e, k > 0 ? first : e->sel);
}

/*
 * Follow the cursor when another pane moved it; with none chosen, the
 * display's time (a file's when first shown; a live source's newest
 * events as they come, or the past time it holds).
 */
static void
pe_follow(struct pane_events *e, int rows, int changed)
{
	uint64_t	c = e->view != NULL ? view_cursor(e->view) :
			    VIEW_NO_CURSOR;

	if (e->viewing)
		e->tail = 0;
	if (c != VIEW_NO_CURSOR && (!e->have || c != e->cursor)) {
		e->tail = 0;
		pe_goto_time(e, c, rows);
	} else if (c == VIEW_NO_CURSOR && e->live && !e->viewing) {
		if (!e->have || !e->tail || changed)
			pe_end(e, rows, 0);
		e->tail = 1;
	} else if (c == VIEW_NO_CURSOR && (!e->have || (e->live &&
	    e->now != e->went)))
		pe_goto_time(e, e->now, rows);
	else if (e->tail && changed)
		pe_end(e, rows, 1);	/* End at now: the cursor follows */
}

/* What this frame's status says, taken once (the title is drawn first):
 * bytes came, the cursor moved. */
static void
pe_sync(struct pane_events *e, int rows)
{
	int	changed = 0;

	if (e->live && (e->hbytes != e->seen_bytes || e->last !=
	    e->seen_last)) {
		e->seen_bytes = e->hbytes;
		e->seen_last = e->last;
		pe_refresh(e);
		changed = 1;
	}
	pe_follow(e, rows, changed);
}

static int
pane_events_want(struct pane *p, const struct model *m, int width)
{
	return 0;	/* full screen only: key 9 */
}

static void
pane_events_title(struct pane *p, const struct model *m, char *buf,
    size_t size)
{
	struct pane_events	*e = pe_get(p);
	char			 t[FMT_MAX], f[FMT_MAX], l[FMT_MAX];
	uint64_t		 c;

	if (e != NULL && e->evl != NULL && e->page > 0)
		pe_sync(e, e->page);
	if (e == NULL || e->evl == NULL || !e->have) {
		snprintf(buf, size, "as evtop show prints them");
		return;
	}
	/* Drawn before the body: the cursor as the body will take it. */
	c = e->view != NULL ? view_cursor(e->view) : VIEW_NO_CURSOR;
	if (c == VIEW_NO_CURSOR)
		c = e->sel.time;
	if (!e->live) {
		snprintf(buf, size, "cursor %s  (%llu ns)  %llu events in the "
		    "file", fmt_time(t, c), (unsigned long long)c,
		    (unsigned long long)evl_events(e->evl));
		return;
	}
	snprintf(buf, size, "%s %s  (%llu ns)  %llu events in the history, "
	    "%s-%s", e->tail ? "newest" : "cursor", fmt_time(t, c),
	    (unsigned long long)c, (unsigned long long)evl_events(e->evl),
	    fmt_time(f, e->first), fmt_time(l, e->last));
}

/* One event's line, the query's matches highlighted. */
static void
pe_draw_line(struct pane_events *e, struct lines *l, int y,
    const struct evl_line *ln, int sel)
{
	const char	*s = ln->text;
	size_t		 n = ln->ntext, at, skip = 0, len;
	int		 x = 0, attr = sel ? LINES_SELECT : LINES_NORMAL, w;

	/* A block marker's line ends in a newline: not drawn. */
	while (n > 0 && s[n - 1] == '\n')
		n--;
	len = e->evl != NULL ? strlen(evl_query_text(e->evl)) : 0;
	if (sel)
		lines_fill(l, y, 0, l->width, attr, ' ');
	/* The match out of sight to the right: start further in. */
	if (e->hl && pe_same(ln->pos, e->hl_pos) && e->hl_off + e->hl_len <=
	    n && e->hl_off + e->hl_len + 1 > (size_t)l->width) {
		skip = e->hl_off > (size_t)l->width / 2 ? e->hl_off -
		    (size_t)l->width / 2 : 0;
		while (skip > 0 && ((unsigned char)s[skip] & 0xc0) == 0x80)
			skip--;
		x += lines_put(l, y, x, LINES_DIM, l->ascii ? "<" :
		    "\xe2\x80\xa6", 1);
		s += skip;
		n -= skip;
	}
	w = l->width;
	while (n > 0 && x < w) {
		if (len == 0 || e->evl == NULL ||
		    !evl_line_match(e->evl, s, n, &at)) {
			x += lines_put_ev(l, y, x, attr, s, n, w - x);
			break;
		}
		x += lines_put_ev(l, y, x, attr, s, at, w - x);
		x += lines_put_ev(l, y, x, LINES_MATCH, s + at, len, w - x);
		s += at + len;
		n -= at + len;
	}
}

/* The last row: the search, or where the cursor is and the keys. */
static void
pe_draw_status(struct pane_events *e, struct lines *l, int y)
{
	char		buf[256], t[FMT_MAX], f[FMT_MAX];
	enum evl_state	st = evl_state(e->evl);
	uint64_t	total = evl_events(e->evl);

	lines_fill(l, y, 0, l->width, LINES_NORMAL, ' ');
	if (st == EVL_RUNNING) {
		snprintf(buf, sizeof buf, "searching %s for \"%s\": %llu of "
		    "%llu events (%.0f%%)  Esc cancels", e->dir > 0 ?
		    "forwards" : "backwards", evl_query_text(e->evl),
		    (unsigned long long)evl_searched(e->evl),
		    (unsigned long long)total, total ? 100.0 *
		    (double)evl_searched(e->evl) / (double)total : 0.0);
		lines_put(l, y, 0, LINES_ACCENT, buf, l->width);
		return;
	}
	if (e->msg[0] != '\0') {
		lines_put(l, y, 0, e->msg_bad ? LINES_WARN : LINES_ACCENT,
		    e->msg, l->width);
		return;
	}
	/* Asked for, or dropped since: older than the history. */
	if (e->live && (e->older || (e->have && e->sel.time < e->first))) {
		snprintf(buf, sizeof buf, "%s is older than the history kept, "
		    "from %s (--history): its first events are shown",
		    fmt_time(t, e->older ? e->went : e->sel.time), fmt_time(f,
		    e->first));
		lines_put(l, y, 0, LINES_WARN, buf, l->width);
		return;
	}
	if (!e->live && evl_error(e->evl) != NULL) {
		/* Cut short, or shrunk since: where the events end, why. */
		snprintf(buf, sizeof buf, "event time %s   the file ends "
		    "early: %s", fmt_time(t, e->sel.time), evl_error(e->evl));
		lines_put(l, y, 0, LINES_WARN, buf, l->width);
		return;
	}
	snprintf(buf, sizeof buf, "event time %s%s   / search   n N next, "
	    "previous match   Up Down PgUp PgDn Home End", fmt_time(t,
	    e->sel.time), e->tail ? " (newest, following)" : "");
	lines_put(l, y, 0, LINES_DIM, buf, l->width);
}

/* Nothing to show: why. */
static void
pe_draw_empty(struct pane_events *e, struct lines *l)
{
	char	buf[256];

	if (!e->live)
		snprintf(buf, sizeof buf, "no events in the file");
	else if (e->history_error != NULL)
		snprintf(buf, sizeof buf, "no history is kept of this "
		    "connection: %s", e->history_error);
	else if (!e->history)
		snprintf(buf, sizeof buf, "no history yet: it starts with the "
		    "stream's header");
	else
		snprintf(buf, sizeof buf, "no events in the history yet");
	lines_put(l, 0, 1, LINES_DIM, buf, l->width - 1);
}

static uint64_t	pe_clock(void);

static void
pane_events_render(struct pane *p, const struct model *m, struct lines *l)
{
	struct pane_events	*e = pe_get(p);
	size_t			 n, i;
	int			 rows = l->height - 1;

	if (e != NULL) {
		e->drawn = pe_clock();
		e->rested = 0;
	}
	if (e == NULL || pe_evl(e) == NULL) {
		lines_put(l, 0, 1, LINES_DIM, e != NULL ? e->why :
		    "out of memory", l->width - 1);
		return;
	}
	if (rows < 1)
		rows = 1;
	if (rows > PE_ROWS)
		rows = PE_ROWS;
	e->page = rows;
	pe_sync(e, rows);
	n = pe_fill(e, rows);
	if (n == 0) {
		pe_draw_empty(e, l);
		return;
	}
	for (i = 0; i < n && i < (size_t)rows; i++)
		pe_draw_line(e, l, (int)i, &e->line[i], p->focus &&
		    pe_same(e->line[i].pos, e->sel));
	if (l->height > 1)
		pe_draw_status(e, l, l->height - 1);
}

/* Move the selection by d events (d < 0: back). */
static void
pe_move(struct pane_events *e, long d)
{
	struct evl_pos	 first, from;
	size_t		 n, i, k;
	int		 rows = e->page > 0 ? e->page : 1;

	e->tail = 0;
	if (d > 0) {
		/* Read from sel on: d + rows lines say where to go. */
		n = evl_read(e->evl, e->sel, e->line, (size_t)d + 1 >
		    PE_ROWS ? PE_ROWS : (size_t)d + 1);
		e->cached = 0;
		if (n == 0)
			return;
		e->sel = e->line[n - 1].pos;
	} else if (d < 0) {
		k = evl_back(e->evl, e->sel, (size_t)-d, &first);
		if (k == 0)
			return;
		e->sel = first;
	}
	pe_set_cursor(e);
	/* Keep the page still while sel is on it. */
	n = pe_fill(e, rows);
	for (i = 0; i < n && i < (size_t)rows; i++) {
		if (pe_same(e->line[i].pos, e->sel))
			return;
	}
	if (d > 0) {
		k = evl_back(e->evl, e->sel, (size_t)rows - 1, &first);
		from = k > 0 ? first : e->sel;
	} else
		from = e->sel;
	pe_top(e, from);
	pe_fill(e, rows);
}

/* Home: the first event; End: the last (at a live source's now: the
 * newest, followed as they come). */
static void
pe_home_end(struct pane_events *e, int end)
{
	struct evl_pos	zero = { 0, 0 };
	struct evl_line	l;
	int		rows = e->page > 0 ? e->page : 1;

	e->tail = 0;
	if (end) {
		pe_end(e, rows, 1);
		e->tail = e->live && !e->viewing;
		return;
	}
	if (evl_read(e->evl, zero, &l, 1) != 1)
		return;
	e->sel = l.pos;
	pe_top(e, l.pos);
	pe_set_cursor(e);
	pe_fill(e, rows);
}

static void
pe_search(struct pane_events *e, const char *q, int dir)
{
	struct evl_pos	from = e->sel;

	e->msg[0] = '\0';
	e->hl = 0;
	if (q[0] == '\0') {
		snprintf(e->msg, sizeof e->msg, "no search yet: / and some "
		    "text");
		e->msg_bad = 1;
		return;
	}
	if (dir > 0 && e->sel_past)
		from.off++;
	e->tail = 0;
	e->dir = dir;
	e->from = e->sel;
	if (evl_search(e->evl, q, from, dir) == -1) {
		snprintf(e->msg, sizeof e->msg, "search: out of memory");
		e->msg_bad = 1;
	}
}

static int
pane_events_action(struct pane *p, enum keys_action a)
{
	struct pane_events	*e = pe_get(p);
	int			 page;

	if (e == NULL || e->evl == NULL || !e->have)
		return 0;
	page = e->page > 1 ? e->page : 1;
	switch (a) {
	case KEYS_UP:
		pe_move(e, -1);
		break;
	case KEYS_DOWN:
		pe_move(e, 1);
		break;
	case KEYS_PGUP:
		pe_move(e, -(long)page);
		break;
	case KEYS_PGDN:
		pe_move(e, page);
		break;
	case KEYS_HOME:
		pe_home_end(e, 0);
		break;
	case KEYS_END:
		pe_home_end(e, 1);
		break;
	case KEYS_FILTER:
		/* The prompt closed with Enter: search from the cursor. */
		e->sel_past = 0;
		pe_search(e, p->filter, 1);
		break;
	case KEYS_SEARCH_NEXT:
		e->sel_past = 1;
		pe_search(e, p->filter, 1);
		break;
	case KEYS_SEARCH_PREV:
		pe_search(e, p->filter, -1);
		break;
	default:
		return 0;
	}
	if (a != KEYS_FILTER && a != KEYS_SEARCH_NEXT &&
	    a != KEYS_SEARCH_PREV)
		e->msg[0] = '\0';
	return 1;
}

/* Is a search running? */
static int
pane_events_busy(struct pane *p)
{
	struct pane_events	*e = pe_get(p);

	return e != NULL && e->evl != NULL && evl_state(e->evl) ==
	    EVL_RUNNING;
}

/* Stop the search; 1 if one was running. */
static int
pane_events_cancel(struct pane *p)
{
	struct pane_events	*e = pe_get(p);
	char			 t[FMT_MAX];

	if (!pane_events_busy(p))
		return 0;
	snprintf(e->msg, sizeof e->msg, "search for \"%s\" cancelled after "
	    "%llu events; the cursor stays at %s", evl_query_text(e->evl),
	    (unsigned long long)evl_searched(e->evl), fmt_time(t,
	    e->sel.time));
	e->msg_bad = 1;
	evl_cancel(e->evl);
	return 1;
}

static uint64_t
pe_clock(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/*
 * A slice of the search: a few ms at most.  1 if anything changed on
 * screen (progress, or the end).
 */
static int
pane_events_work(struct pane *p)
{
	struct pane_events	*e = pe_get(p);
	uint64_t		 t0;
	enum evl_state		 st;
	char			 t[FMT_MAX];
	const char		*err;

	if (!pane_events_busy(p)) {
		/* Not shown for a while: a history's readers (a megabyte of
		 * tables each, and their pages) go until it is again. */
		if (e != NULL && e->evl != NULL && e->live && !e->rested &&
		    pe_clock() - e->drawn > PE_IDLE_NS) {
			evl_rest(e->evl);
			e->rested = 1;
		}
		return 0;
	}
	t0 = pe_clock();
	do
		st = evl_step(e->evl, PE_SLICE);
	while (st == EVL_RUNNING && pe_clock() - t0 < PE_SLICE_NS);
	switch (st) {
	case EVL_FOUND:
		evl_found(e->evl, &e->hl_pos, &e->hl_off, &e->hl_len);
		e->hl = 1;
		e->sel = e->hl_pos;
		pe_set_cursor(e);
		e->cached = 0;
		pe_place(e, e->page > 0 ? e->page : 1);
		snprintf(e->msg, sizeof e->msg, "\"%s\" found at %s (%llu ns) "
		    "after %llu events   n next  N previous",
		    evl_query_text(e->evl), fmt_time(t, e->sel.time),
		    (unsigned long long)e->sel.time,
		    (unsigned long long)evl_searched(e->evl));
		e->msg_bad = 0;
		break;
	case EVL_NOT_FOUND:
		err = evl_error(e->evl);
		snprintf(e->msg, sizeof e->msg, "\"%s\" not found %s %s "
		    "(%llu events searched to the %s)%s%s",
		    evl_query_text(e->evl), e->dir > 0 ? "after" : "before",
		    fmt_time(t, e->from.time),
		    (unsigned long long)evl_searched(e->evl), e->dir > 0 ?
		    "end" : "start", err != NULL ? "; the file ends early: " :
		    "", err != NULL ? err : "");
		e->msg_bad = 1;
		break;
	case EVL_ERROR:
		snprintf(e->msg, sizeof e->msg, "search failed: %s",
		    evl_error(e->evl) ? evl_error(e->evl) : "cannot read");
		e->msg_bad = 1;
		break;
	default:
		break;
	}
	return 1;
}

static void
pane_events_free(struct pane *p)
{
	struct pane_events	*e = pe_get(p);

	if (e == NULL)
		return;
	evl_free(e->evl);
	free(e);
	p->data = NULL;
}

const struct pane_ops pane_events_ops = {
	.name = "Raw events",
	.key = "9",
	.select = 0,
	.win = -1,
	.min = 3,
	.good = 10,
	.want = pane_events_want,
	.title = pane_events_title,
	.render = pane_events_render,
	.action = pane_events_action,
	.free = pane_events_free,
	.busy = pane_events_busy,
	.work = pane_events_work,
	.cancel = pane_events_cancel,
};
