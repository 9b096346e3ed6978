/*
 * view.c: the screen, without the terminal.  The view owns the panes and
 * the UI's own state (focus, zoom, help, the filter prompt, pause) and
 * composes a whole frame into lines: the header, the panes (the overview
 * laid out for the terminal's size, or one pane zoomed) and the bottom
 * bar.  Keys arrive already translated (struct keys_key) and go through
 * the binding table; what concerns the loop comes back as an ui_action.
 * The view never changes the model.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui.h"
#include "model/model.h"
#include "time/when.h"

#define VIEW_MIN_W	20
#define VIEW_MIN_H	6

struct view {
	enum evtop_src_kind kind;
	int		 when;		/* KEYS_REPLAY, KEYS_SOCKET, KEYS_ANY */
	struct pane	 pane[VIEW_NPANES];
	struct layout_item item[VIEW_NPANES];
	int		 zoom;		/* pane index, or -1: the overview */
	int		 focus;		/* pane index */
	int		 help;
	int		 help_scroll;
	int		 help_rows;
	int		 help_page;
	int		 prompt;	/* VIEW_PROMPT_*: a line being edited */
	char		 go[32];	/* the time asked for by g */
	uint64_t	 now_ns, last_ns;	/* for g: from the status
						 * drawn last */
	int		 seekable;
	char		 seek_off[160];	/* why not, if the status says */
	int		 range_on;	/* the status says a range is shown */
	uint64_t	 mark;		/* [: a range's start, or VIEW_NO_CURSOR */
	uint64_t	 range_to;	/* ]: its end, with seek_ns its start */
	char		 saved[PANE_FILTER_MAX];
	int		 paused;
	int		 dirty;
	int		 redraw;	/* ^L: repaint the terminal */
	char		 msg[128];	/* shown in the bottom bar until a key */
	uint64_t	 cursor;	/* view_cursor() */
	uint64_t	 seek_ns;	/* what the last UI_SEEK asked for */
	struct lines	 body;		/* scratch for one pane */
};

static const struct pane_ops *const view_ops[VIEW_NPANES] = {
	&pane_caps_ops, &pane_gc_ops, &pane_heap_ops, &pane_nonmoving_ops,
	&pane_ccs_ops, &pane_threads_ops, &pane_msgs_ops, &pane_timeline_ops,
	&pane_events_ops,
};

/* The overview: column (when there are two) and importance of each. */
static const struct {
	int	col;
	int	prio;
} view_place[VIEW_NPANES] = {
	{ 0, 0 },	/* capabilities */
	{ 0, 1 },	/* gc */
	{ 0, 2 },	/* heap */
	{ 0, 6 },	/* nonmoving */
	{ 1, 3 },	/* cost centres */
	{ 1, 4 },	/* threads */
	{ 1, 5 },	/* messages */
	{ 0, 7 },	/* timeline: where there is room */
	{ 1, 9 },	/* raw events: never in the overview (want 0) */
};

struct view *
view_new(enum evtop_src_kind kind)
{
	struct view	*v;
	int		 i;

	if ((v = calloc(1, sizeof *v)) == NULL)
		return NULL;
	v->kind = kind;
	if (kind == EVTOP_SRC_FILE)
		v->when = KEYS_REPLAY;
	else if (kind == EVTOP_SRC_UNIX || kind == EVTOP_SRC_TCP)
		v->when = KEYS_SOCKET;
	else
		v->when = KEYS_ANY;
	for (i = 0; i < VIEW_NPANES; i++) {
		v->pane[i].ops = view_ops[i];
		v->pane[i].self = 1;
		v->pane[i].win = view_ops[i]->win;
		v->pane[i].view = v;
	}
	v->zoom = -1;
	v->cursor = VIEW_NO_CURSOR;
	v->mark = VIEW_NO_CURSOR;
	v->focus = 0;
	v->pane[0].focus = 1;
	v->dirty = 1;
	lines_init(&v->body, 0, 0);
	return v;
}

void
view_free(struct view *v)
{
	int	i;

	if (v == NULL)
		return;
	for (i = 0; i < VIEW_NPANES; i++) {
		if (v->pane[i].ops->free != NULL)
			v->pane[i].ops->free(&v->pane[i]);
	}
	lines_free(&v->body);
	free(v);
}

int
view_dirty(const struct view *v)
{
	return v->dirty;
}

void
view_set_dirty(struct view *v)
{
	v->dirty = 1;
}

int
view_paused(const struct view *v)
{
	return v->paused;
}

/* Was a full repaint asked for (^L)?  Clears the request. */
int
view_redraw_all(struct view *v)
{
	int	r = v->redraw;

	v->redraw = 0;
	return r;
}

struct pane *
view_pane(struct view *v, int i)
{
	if (i < 0 || i >= VIEW_NPANES)
		return NULL;
	return &v->pane[i];
}

/*
 * Clamp a pane's selection and first row to nrows rows of which page
 * show; returns the first row to draw.  Panes call it from render.
 */
int
pane_rows(struct pane *p, int nrows, int page)
{
	if (page < 1)
		page = 1;
	p->nrows = nrows;
	p->page = page;
	if (p->ops->select) {
		if (p->sel >= nrows)
			p->sel = nrows - 1;
		if (p->sel < 0)
			p->sel = 0;
		if (p->sel < p->top)
			p->top = p->sel;
		if (p->sel >= p->top + page)
			p->top = p->sel - page + 1;
	}
	if (p->top > nrows - page)
		p->top = nrows - page;
	if (p->top < 0)
		p->top = 0;
	return p->top;
}

/*
 * How many rows, from the first, a pane of page rows may show before it
 * knows how many there are: pane_rows() then only moves the first row up.
 */
int
pane_rows_want(const struct pane *p, int page)
{
	int	top = p->top;

	if (page < 1)
		page = 1;
	if (p->ops->select && p->sel >= top + page)
		top = p->sel - page + 1;
	return (top > 0 ? top : 0) + page;
}

/* Move the selection (or the first row shown) as a key asks. */
void
pane_scroll(struct pane *p, enum keys_action action)
{
	int	*at = p->ops->select ? &p->sel : &p->top;
	int	 page = p->page > 1 ? p->page : 1;

	switch (action) {
	case KEYS_UP:
		(*at)--;
		break;
	case KEYS_DOWN:
		(*at)++;
		break;
	case KEYS_PGUP:
		*at -= page;
		if (p->ops->select)
			p->top -= page;
		break;
	case KEYS_PGDN:
		*at += page;
		if (p->ops->select)
			p->top += page;
		break;
	case KEYS_HOME:
		*at = 0;
		break;
	case KEYS_END:
		*at = p->nrows > 0 ? p->nrows - 1 : 0;
		break;
	default:
		return;
	}
	if (*at < 0)
		*at = 0;
	if (p->nrows > 0 && *at > p->nrows - 1)
		*at = p->nrows - 1;
	if (p->top < 0)
		p->top = 0;
}

/* A window's name as titles show it. */
const char *
pane_win_name(const struct pane *p)
{
	if (p->range)
		return "range";
	switch (p->win) {
	case MODEL_W1:
		return "1s";
	case MODEL_W10:
		return "10s";
	default:
		return "run";
	}
}

static void
view_set_focus(struct view *v, int i)
{
	v->pane[v->focus].focus = 0;
	v->focus = i;
	v->pane[i].focus = 1;
}

/* Is pane i on screen now? */
static int
view_shown(const struct view *v, int i)
{
	if (v->zoom >= 0)
		return i == v->zoom;
	return v->item[i].h > 0;
}

static void
view_cycle(struct view *v, int dir)
{
	int	i, k;

	for (k = 1; k <= VIEW_NPANES; k++) {
		i = ((v->focus + dir * k) % VIEW_NPANES + VIEW_NPANES) %
		    VIEW_NPANES;
		if (v->zoom >= 0) {
			v->zoom = i;
			view_set_focus(v, i);
			return;
		}
		if (view_shown(v, i)) {
			view_set_focus(v, i);
			return;
		}
	}
}

/* g's line is done: the time it says, or why not. */
static enum ui_action
view_goto(struct view *v)
{
	uint64_t	t;

	if (when_parse(v->go, v->now_ns, v->last_ns, &t) != 0) {
		snprintf(v->msg, sizeof v->msg, "g: \"%s\" is not a time "
		    "(12.5s, 1m30s, 250ms, +5s, -5s, end)", v->go);
		return UI_NONE;
	}
	/* Event time, as the header shows it; past the last event, the
	 * end (as before the first, the start). */
	if (strcmp(v->go, "end") == 0 || t > v->last_ns) {
		if (t > v->last_ns && strcmp(v->go, "end") != 0)
			snprintf(v->msg, sizeof v->msg, "g: %s is past the "
			    "last event: the end", v->go);
		t = v->last_ns + 1;	/* every event, the last included */
	}
	v->seek_ns = t;
	return UI_SEEK;
}

/* [ and ]: a range from the mark to the cursor (or the time shown). */
static enum ui_action
view_range_key(struct view *v, enum keys_action a)
{
	uint64_t	t = v->cursor != VIEW_NO_CURSOR ? v->cursor : v->now_ns;

	if (!v->seekable) {
		snprintf(v->msg, sizeof v->msg, v->kind == EVTOP_SRC_FILE ?
		    "ranges work when replaying a file" : "ranges need a "
		    "history (--history)");
		return UI_NONE;
	}
	if (a == KEYS_RANGE_START) {
		v->mark = t;
		snprintf(v->msg, sizeof v->msg, "range starts here; ] at "
		    "its end");
		return UI_NONE;
	}
	if (v->mark == VIEW_NO_CURSOR || t <= v->mark) {
		snprintf(v->msg, sizeof v->msg, v->mark == VIEW_NO_CURSOR ?
		    "] ends a range: [ first, at its start" :
		    "] must come after [ (move on, or [ again)");
		return UI_NONE;
	}
	v->seek_ns = v->mark;
	v->range_to = t;
	v->mark = VIEW_NO_CURSOR;
	return UI_RANGE;
}

/* A prompt's text is full: said, rather than keys lost without a word. */
static void
view_prompt_full(struct view *v, size_t size)
{
	snprintf(v->msg, sizeof v->msg, "at most %zu bytes: no more taken",
	    size - 1);
}

/* A key in the prompt: the focused pane's filter, or g's time. */
static enum ui_action
view_prompt_key(struct view *v, const struct keys_key *k)
{
	struct pane	*p = &v->pane[v->focus];
	char		*buf = p->filter;
	size_t		 size = sizeof p->filter, n, m;

	if (v->prompt == VIEW_PROMPT_GOTO) {
		buf = v->go;
		size = sizeof v->go;
	}
	n = strlen(buf);
	if (k->kind == KEYS_SYM && k->code == KEYS_SYM_ENTER) {
		m = (size_t)v->prompt;
		v->prompt = 0;
		if (m == VIEW_PROMPT_GOTO)
			return view_goto(v);
		/* The raw events search for what was typed. */
		if (p->ops == &pane_events_ops)
			p->ops->action(p, KEYS_FILTER);
		return UI_NONE;
	}
	if (k->kind == KEYS_SYM && k->code == KEYS_SYM_ESCAPE) {
		if (v->prompt == VIEW_PROMPT_FILTER)
			snprintf(p->filter, sizeof p->filter, "%s", v->saved);
		v->prompt = 0;
		return UI_NONE;
	}
	if (k->kind == KEYS_SYM && (k->code == KEYS_SYM_BACKSPACE ||
	    k->code == KEYS_SYM_DELETE)) {
		/* Back over one whole UTF-8 character. */
		while (n > 0 && ((unsigned char)buf[n - 1] & 0xc0) == 0x80)
			n--;
		if (n > 0)
			n--;
		buf[n] = '\0';
		return UI_NONE;
	}
	if (k->kind == KEYS_CHAR && (k->mods & KEYS_CTRL) && k->code == 'u') {
		buf[0] = '\0';
		return UI_NONE;
	}
	if (k->kind == KEYS_SYM && k->code == KEYS_SYM_SPACE) {
		if (n + 1 < size) {
			buf[n] = ' ';
			buf[n + 1] = '\0';
		} else
			view_prompt_full(v, size);
		return UI_NONE;
	}
	if (k->kind != KEYS_CHAR || (k->mods & (KEYS_CTRL | KEYS_ALT)) ||
	    k->code < 0x20 || k->code == 0x7f)
		return UI_NONE;
	m = strlen(k->utf8);
	if (m > 0 && n + m < size)
		memcpy(buf + n, k->utf8, m + 1);
	else if (m > 0)
		view_prompt_full(v, size);
	if (v->prompt == VIEW_PROMPT_FILTER)
		p->sel = p->top = 0;
	return UI_NONE;
}

static int	view_cancel(struct view *);

static const char *const view_cmd_text[] = {
	NULL, "start time profiling", "stop time profiling",
	"start heap profiling", "stop heap profiling", "request a census",
};

/* Handle one key; what the loop must do comes back. */
enum ui_action
view_key(struct view *v, const struct keys_key *k, struct evtop_cmd *cmd)
{
	const struct keys_info	*ki;
	struct pane		*p = &v->pane[v->focus];
	enum keys_action	 a;
	int			 n, i;

	v->dirty = 1;
	v->msg[0] = '\0';
	if (v->prompt)
		return view_prompt_key(v, k);
	a = keys_lookup(k);
	if (v->help) {
		switch (a) {
		case KEYS_UP:
		case KEYS_DOWN:
		case KEYS_PGUP:
		case KEYS_PGDN:
		case KEYS_HOME:
		case KEYS_END:
			n = v->help_rows - v->help_page;
			if (a == KEYS_UP)
				v->help_scroll--;
			else if (a == KEYS_DOWN)
				v->help_scroll++;
			else if (a == KEYS_PGUP)
				v->help_scroll -= v->help_page;
			else if (a == KEYS_PGDN)
				v->help_scroll += v->help_page;
			else if (a == KEYS_HOME)
				v->help_scroll = 0;
			else
				v->help_scroll = n;
			if (v->help_scroll > n)
				v->help_scroll = n;
			if (v->help_scroll < 0)
				v->help_scroll = 0;
			return UI_NONE;
		default:
			v->help = 0;
			return UI_NONE;
		}
	}
	/* Esc stops a running search first. */
	if (k->kind == KEYS_SYM && k->code == KEYS_SYM_ESCAPE &&
	    view_cancel(v))
		return UI_NONE;
	switch (a) {
	case KEYS_NONE:
		snprintf(v->msg, sizeof v->msg, "unbound key; F1 or ? for "
		    "help");
		return UI_NONE;
	case KEYS_HELP:
		v->help = 1;
		v->help_scroll = 0;
		return UI_NONE;
	case KEYS_QUIT:
		return UI_QUIT;
	case KEYS_PAUSE:
		v->paused = !v->paused;
		return UI_NONE;
	case KEYS_RESET:
		snprintf(v->msg, sizeof v->msg, "window counters reset");
		return UI_RESET_WINDOW;
	case KEYS_EXPORT:
		/* The cost-centre pane's window is the one on screen. */
		memset(cmd, 0, sizeof *cmd);
		cmd->id = MODEL_WRUN;
		for (n = 0; n < VIEW_NPANES; n++) {
			if (v->pane[n].ops == &pane_ccs_ops)
				cmd->id = (uint8_t)v->pane[n].win;
		}
		return UI_EXPORT;
	case KEYS_REDRAW:
		v->redraw = 1;
		return UI_NONE;
	case KEYS_SUSPEND:
		return UI_NONE;		/* ui.c stops the process */
	case KEYS_OVERVIEW:
		/* Esc leaves a range first. */
		if (v->range_on && k->kind == KEYS_SYM &&
		    k->code == KEYS_SYM_ESCAPE) {
			snprintf(v->msg, sizeof v->msg, "range left");
			return UI_RANGE_OFF;
		}
		v->zoom = -1;
		return UI_NONE;
	case KEYS_RANGE_START:
	case KEYS_RANGE_END:
		return view_range_key(v, a);
	case KEYS_ZOOM1: case KEYS_ZOOM2: case KEYS_ZOOM3: case KEYS_ZOOM4:
	case KEYS_ZOOM5: case KEYS_ZOOM6: case KEYS_ZOOM7: case KEYS_ZOOM8:
	case KEYS_ZOOM9:
		n = a - KEYS_ZOOM1;
		for (i = 0; a == KEYS_ZOOM9 && i < VIEW_NPANES; i++) {
			if (view_ops[i] == &pane_events_ops)
				n = i;
		}
		if (v->zoom == n)
			v->zoom = -1;
		else {
			v->zoom = n;
			view_set_focus(v, n);
		}
		return UI_NONE;
	case KEYS_FOCUS_NEXT:
		view_cycle(v, 1);
		return UI_NONE;
	case KEYS_FOCUS_PREV:
		view_cycle(v, -1);
		return UI_NONE;
	case KEYS_GOTO:
		if (!v->seekable) {
			snprintf(v->msg, sizeof v->msg, "g: %.120s", v->kind !=
			    EVTOP_SRC_FILE ? "no history is kept (--history)" :
			    v->seek_off[0] != '\0' ? v->seek_off :
			    "seeking is off (see the log, -v)");
			return UI_NONE;
		}
		v->prompt = VIEW_PROMPT_GOTO;
		v->go[0] = '\0';
		return UI_NONE;
	case KEYS_FILTER:
		v->prompt = VIEW_PROMPT_FILTER;
		snprintf(v->saved, sizeof v->saved, "%s", p->filter);
		return UI_NONE;
	case KEYS_FASTER:
	case KEYS_SLOWER:
	case KEYS_MAX_SPEED:
	case KEYS_PAUSE_REPLAY:
	case KEYS_TO_END:
		/* e: a live source's past goes back to now. */
		if (v->kind != EVTOP_SRC_FILE && a == KEYS_TO_END &&
		    v->seekable)
			return UI_TO_END;
		if (v->kind != EVTOP_SRC_FILE) {
			snprintf(v->msg, sizeof v->msg, "replay keys work when "
			    "replaying a file");
			return UI_NONE;
		}
		if (a == KEYS_FASTER)
			return UI_FASTER;
		if (a == KEYS_SLOWER)
			return UI_SLOWER;
		if (a == KEYS_MAX_SPEED)
			return UI_MAX_SPEED;
		if (a == KEYS_PAUSE_REPLAY)
			return UI_PAUSE_REPLAY;
		return UI_TO_END;
	case KEYS_TIME_PROF_ON:
	case KEYS_TIME_PROF_OFF:
	case KEYS_HEAP_PROF_ON:
	case KEYS_HEAP_PROF_OFF:
	case KEYS_CENSUS:
		ki = keys_info(a);
		if (v->when != KEYS_SOCKET) {
			snprintf(v->msg, sizeof v->msg, "cannot %s: commands "
			    "need a --unix or --tcp source",
			    view_cmd_text[ki->cmd]);
			return UI_NONE;
		}
		memset(cmd, 0, sizeof *cmd);
		snprintf(cmd->ns, sizeof cmd->ns, "eventlog-socket");
		cmd->id = ki->cmd;
		return UI_SEND;
	default:
		break;
	}
	/* The focused pane's own keys. */
	if (p->ops->action != NULL && (n = p->ops->action(p, a)) != 0) {
		if (n != PANE_SEEK || v->cursor == VIEW_NO_CURSOR)
			return UI_NONE;
		v->seek_ns = v->cursor;
		return UI_SEEK;
	}
	switch (a) {
	case KEYS_SORT_PREV:
	case KEYS_SORT_NEXT:
		if (p->ops->sorts == NULL)
			break;
		for (n = 0; p->ops->sorts[n] != NULL; n++)
			;
		p->sort = (p->sort + (a == KEYS_SORT_NEXT ? 1 : n - 1)) % n;
		p->reverse = 0;
		return UI_NONE;
	case KEYS_SORT_REVERSE:
		if (p->ops->sorts == NULL)
			break;
		p->reverse = !p->reverse;
		return UI_NONE;
	case KEYS_UP:
	case KEYS_DOWN:
	case KEYS_PGUP:
	case KEYS_PGDN:
	case KEYS_HOME:
	case KEYS_END:
		pane_scroll(p, a);
		return UI_NONE;
	case KEYS_WINDOW:
		if (p->win < 0)
			break;
		p->win = (p->win + 1) % MODEL_NWIN;
		return UI_NONE;
	default:
		break;
	}
	snprintf(v->msg, sizeof v->msg, "the %s pane has no use for that key",
	    p->ops->name);
	return UI_NONE;
}

/* The title bar of a pane: "1 Name  what it shows ... sort, filter". */
static void
view_title(struct view *v, struct pane *p, const struct model *m,
    struct lines *s, int y, int x, int w)
{
	char	 buf[256], right[128];
	int	 attr = p->focus ? LINES_TITLE_FOCUS : LINES_TITLE, rx, n;
	unsigned up;
	const char *arrow;

	lines_fill(s, y, x, w, attr, ' ');
	/* Without colour, bold reverse is not enough to see the focus. */
	n = lines_putf(s, y, x, attr, w, "%c%s %s", p->focus && s->mono ?
	    '>' : ' ', p->ops->key, p->ops->name);
	buf[0] = '\0';
	if (p->ops->title != NULL)
		p->ops->title(p, m, buf, sizeof buf);
	right[0] = '\0';
	if (p->ops->sorts != NULL) {
		/* The way the rows go: up, smallest first. */
		up = ((p->ops->sorts_up >> p->sort) & 1) ^ (p->reverse != 0);
		arrow = s->ascii ? (up ? "^" : "v") :
		    (up ? "\xe2\x96\xb2" : "\xe2\x96\xbc");
		snprintf(right, sizeof right, "%s%s ", p->ops->sorts[p->sort],
		    arrow);
	}
	if (p->filter[0] != '\0' || (v->prompt == VIEW_PROMPT_FILTER &&
	    p->focus)) {
		n += lines_put(s, y, x + n, attr, "  /", w - n);
		n += lines_put(s, y, x + n, LINES_MATCH, p->filter, w - n);
	}
	rx = x + w - lines_width(right, strlen(right), s->ascii);
	if (rx < x + n + 1)
		rx = x + w;
	else
		lines_put(s, y, rx, attr, right, x + w - rx);
	if (buf[0] != '\0' && x + n + 2 < rx)
		lines_put(s, y, x + n + 2, attr, buf, rx - (x + n + 2) - 1);
}

/* Draw pane i into the rectangle (x, y, w, h) of the screen. */
static void
view_pane_draw(struct view *v, int i, const struct model *m,
    struct lines *s, int x, int y, int w, int h)
{
	struct pane	*p = &v->pane[i];
	int		 win = p->win;

	if (h <= 0 || w <= 0)
		return;
	/* A range shown: every pane's window is the run's, which the range
	 * reset at its start (model_range_begin()). */
	if (v->range_on && win >= 0) {
		p->win = MODEL_WRUN;
		p->range = 1;
	}
	view_title(v, p, m, s, y, x, w);
	if (h > 1) {
		v->body.ascii = s->ascii;
		v->body.mono = s->mono;
		lines_reset(&v->body, w, h - 1);
		p->ops->render(p, m, &v->body);
		lines_blit(s, y + 1, x, &v->body);
	}
	p->win = win;
	p->range = 0;
}

static void
view_bottom(struct view *v, struct lines *s)
{
	struct pane	*p = &v->pane[v->focus];
	int		 y = s->height - 1, x;

	if (v->prompt == VIEW_PROMPT_GOTO) {
		lines_fill(s, y, 0, s->width, LINES_NORMAL, ' ');
		x = lines_put(s, y, 0, LINES_KEY, "Go to time: ", s->width);
		x += lines_put(s, y, x, LINES_MATCH, v->go, s->width - x - 1);
		lines_putc(s, y, x, LINES_SELECT, ' ');
		lines_put_right(s, y, s->width, v->msg[0] ? LINES_WARN :
		    LINES_DIM, v->msg[0] ? v->msg :
		    " 12.5s 1m30s +5s -5s end  Enter go  Esc cancel");
		return;
	}
	if (v->prompt) {
		lines_fill(s, y, 0, s->width, LINES_NORMAL, ' ');
		x = lines_putf(s, y, 0, LINES_KEY, -1, "%s %s: ",
		    p->ops == &pane_events_ops ? "Search" : "Filter",
		    p->ops->name);
		x += lines_put(s, y, x, LINES_MATCH, p->filter, s->width - x -
		    1);
		lines_putc(s, y, x, LINES_SELECT, ' ');
		/* A message (the text is full) instead of the keys. */
		lines_put_right(s, y, s->width, v->msg[0] ? LINES_WARN :
		    LINES_DIM, v->msg[0] ? v->msg : " Enter keep  Esc cancel");
		return;
	}
	if (v->msg[0] != '\0') {
		lines_fill(s, y, 0, s->width, LINES_NORMAL, ' ');
		lines_put(s, y, 0, LINES_WARN, v->msg, s->width);
		return;
	}
	keys_bar_render(s, y, v->when);
}

/* The help, scrolled as the panes are; its title says how, and where. */
static void
view_help(struct view *v, struct lines *s)
{
	char	title[128];
	int	page = s->height - 1, n;

	v->body.ascii = s->ascii;
	v->body.mono = s->mono;
	lines_reset(&v->body, s->width, page);
	/* Its rows, first: the screen may have grown since the last key. */
	v->help_rows = keys_help_render(&v->body, 0, 0);
	v->help_page = page;
	n = v->help_rows - page;
	if (v->help_scroll > n)
		v->help_scroll = n;
	if (v->help_scroll < 0)
		v->help_scroll = 0;
	if (v->help_scroll > 0) {
		lines_reset(&v->body, s->width, page);
		keys_help_render(&v->body, 0, v->help_scroll);
	}
	if (n <= 0)
		snprintf(title, sizeof title, "evtop keys: any key returns");
	else {
		snprintf(title, sizeof title, "evtop keys  %d-%d of %d  Up "
		    "Down PgUp PgDn Home End: scroll; other keys: back",
		    v->help_scroll + 1, v->help_scroll + page, v->help_rows);
		if ((int)strlen(title) > s->width - 1)
			snprintf(title, sizeof title, "keys %d-%d/%d  Up Down "
			    "PgUp PgDn: scroll", v->help_scroll + 1,
			    v->help_scroll + page, v->help_rows);
		if ((int)strlen(title) > s->width - 1)
			snprintf(title, sizeof title, "%d-%d/%d: Up Down",
			    v->help_scroll + 1, v->help_scroll + page,
			    v->help_rows);
	}
	lines_fill(s, 0, 0, s->width, LINES_TITLE_FOCUS, ' ');
	lines_put(s, 0, 1, LINES_TITLE_FOCUS, title, s->width - 1);
	lines_blit(s, 1, 0, &v->body);
}

/* Compose a frame of s->width x s->height into s (already reset). */
void
view_render(struct view *v, const struct model *m,
    const struct evtop_status *st, struct lines *s)
{
	int	hr, ph, i, w;

	v->dirty = 0;
	v->seekable = st->seekable;
	snprintf(v->seek_off, sizeof v->seek_off, "%s", st->seek_off);
	v->range_on = st->range_on;
	v->now_ns = st->file_time;
	v->last_ns = st->file_last;
	for (i = 0; i < VIEW_NPANES; i++)
		v->pane[i].st = st;
	if (s->width < VIEW_MIN_W || s->height < VIEW_MIN_H) {
		lines_put(s, 0, 0, LINES_WARN, "evtop: terminal too small",
		    s->width);
		return;
	}
	if (v->help) {
		view_help(v, s);
		return;
	}
	hr = header_rows(s->width);
	v->body.ascii = s->ascii;
	v->body.mono = s->mono;
	lines_reset(&v->body, s->width, hr);
	header_render(&v->body, m, st, v->paused);
	lines_blit(s, 0, 0, &v->body);
	ph = s->height - hr - 1;
	w = s->width;
	if (v->zoom >= 0) {
		for (i = 0; i < VIEW_NPANES; i++)
			v->item[i].h = 0;
		view_pane_draw(v, v->zoom, m, s, 0, hr, w, ph);
	} else {
		for (i = 0; i < VIEW_NPANES; i++) {
			v->item[i].col = view_place[i].col;
			v->item[i].prio = view_place[i].prio;
			v->item[i].min = 1 + v->pane[i].ops->min;
			v->item[i].good = 1 + v->pane[i].ops->good;
			v->item[i].want = v->pane[i].ops->want(&v->pane[i], m,
			    w);
			if (v->item[i].want > 0)
				v->item[i].want++;	/* the title */
		}
		layout_place(v->item, VIEW_NPANES, 0, hr, w, ph);
		/* Keep the focus on something shown. */
		if (v->item[v->focus].h == 0) {
			for (i = 0; i < VIEW_NPANES; i++) {
				if (v->item[i].h > 0) {
					view_set_focus(v, i);
					break;
				}
			}
		}
		for (i = 0; i < VIEW_NPANES; i++) {
			if (v->item[i].h > 0)
				view_pane_draw(v, i, m, s, v->item[i].x,
				    v->item[i].y, v->item[i].w, v->item[i].h);
		}
		if (layout_columns(w, ph) == 2) {
			/* The gutter between the columns. */
			for (i = hr; i < hr + ph; i++) {
				if (s->cell[(size_t)i * w + (w - 1) / 2].ch ==
				    ' ')
					lines_putc(s, i, (w - 1) / 2,
					    LINES_DIM, s->ascii ? '|' :
					    0x2502);
			}
		}
	}
	view_bottom(v, s);
}

/* Is a pane working in slices (a search)?  The loop then does not wait. */
int
view_busy(struct view *v)
{
	int	i;

	for (i = 0; i < VIEW_NPANES; i++) {
		if (view_ops[i]->busy != NULL &&
		    view_ops[i]->busy(&v->pane[i]))
			return 1;
	}
	return 0;
}

/* A slice of that work; 1 if the screen changed. */
int
view_work(struct view *v)
{
	int	i, changed = 0;

	for (i = 0; i < VIEW_NPANES; i++) {
		if (view_ops[i]->work != NULL &&
		    view_ops[i]->work(&v->pane[i]))
			changed = 1;
	}
	if (changed)
		v->dirty = 1;
	return changed;
}

/* Cancel that work (Esc); 1 if there was some. */
static int
view_cancel(struct view *v)
{
	int	i, any = 0;

	for (i = 0; i < VIEW_NPANES; i++) {
		if (view_ops[i]->cancel != NULL &&
		    view_ops[i]->cancel(&v->pane[i]))
			any = 1;
	}
	return any;
}

uint64_t
view_cursor(const struct view *v)
{
	return v->cursor;
}

void
view_set_cursor(struct view *v, uint64_t t)
{
	v->cursor = t;
	v->dirty = 1;
}

uint64_t
view_seek_ns(const struct view *v)
{
	return v->seek_ns;
}

/* The range a UI_RANGE asks for. */
void
view_range(const struct view *v, uint64_t *from, uint64_t *to)
{
	*from = v->seek_ns;
	*to = v->range_to;
}
