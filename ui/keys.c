/*
 * keys.c: the one key binding table (htop's Action_setBindings).  It
 * drives the key lookup, the help screen and the bottom bar, so the three
 * never disagree.
 */
#include <string.h>

#include "ui.h"

/* Every key evtop knows, and what it does. */
static const struct keys_binding keys_bindings[] = {
	{ KEYS_FN, 1, 0, KEYS_HELP },
	{ KEYS_CHAR, '?', 0, KEYS_HELP },
	{ KEYS_CHAR, 'q', 0, KEYS_QUIT },
	{ KEYS_FN, 10, 0, KEYS_QUIT },
	{ KEYS_CHAR, ' ', 0, KEYS_PAUSE },
	{ KEYS_SYM, KEYS_SYM_SPACE, 0, KEYS_PAUSE },
	{ KEYS_CHAR, 'p', 0, KEYS_PAUSE },
	{ KEYS_CHAR, 'z', 0, KEYS_RESET },
	{ KEYS_CHAR, 'E', 0, KEYS_EXPORT },
	{ KEYS_CHAR, 'l', KEYS_CTRL, KEYS_REDRAW },
	{ KEYS_CHAR, 'z', KEYS_CTRL, KEYS_SUSPEND },

	{ KEYS_CHAR, '0', 0, KEYS_OVERVIEW },
	{ KEYS_SYM, KEYS_SYM_ESCAPE, 0, KEYS_OVERVIEW },
	{ KEYS_CHAR, '1', 0, KEYS_ZOOM1 },
	{ KEYS_CHAR, '2', 0, KEYS_ZOOM2 },
	{ KEYS_CHAR, '3', 0, KEYS_ZOOM3 },
	{ KEYS_CHAR, '4', 0, KEYS_ZOOM4 },
	{ KEYS_CHAR, '5', 0, KEYS_ZOOM5 },
	{ KEYS_CHAR, '6', 0, KEYS_ZOOM6 },
	{ KEYS_CHAR, '7', 0, KEYS_ZOOM7 },
	{ KEYS_CHAR, '8', 0, KEYS_ZOOM8 },
	{ KEYS_CHAR, '9', 0, KEYS_ZOOM9 },
	{ KEYS_SYM, KEYS_SYM_TAB, 0, KEYS_FOCUS_NEXT },
	{ KEYS_SYM, KEYS_SYM_TAB, KEYS_SHIFT, KEYS_FOCUS_PREV },

	{ KEYS_CHAR, '/', 0, KEYS_FILTER },
	{ KEYS_FN, 3, 0, KEYS_FILTER },
	{ KEYS_FN, 4, 0, KEYS_FILTER },
	{ KEYS_CHAR, '<', 0, KEYS_SORT_PREV },
	{ KEYS_CHAR, '>', 0, KEYS_SORT_NEXT },
	{ KEYS_FN, 6, 0, KEYS_SORT_NEXT },
	{ KEYS_CHAR, 'r', 0, KEYS_SORT_REVERSE },
	{ KEYS_SYM, KEYS_SYM_UP, 0, KEYS_UP },
	{ KEYS_SYM, KEYS_SYM_DOWN, 0, KEYS_DOWN },
	{ KEYS_SYM, KEYS_SYM_PGUP, 0, KEYS_PGUP },
	{ KEYS_SYM, KEYS_SYM_PGDN, 0, KEYS_PGDN },
	{ KEYS_SYM, KEYS_SYM_HOME, 0, KEYS_HOME },
	{ KEYS_SYM, KEYS_SYM_END, 0, KEYS_END },
	{ KEYS_SYM, KEYS_SYM_ENTER, 0, KEYS_ENTER },
	{ KEYS_CHAR, 's', 0, KEYS_SELF_TOTAL },
	{ KEYS_CHAR, 'w', 0, KEYS_WINDOW },
	{ KEYS_CHAR, 'n', 0, KEYS_SEARCH_NEXT },
	{ KEYS_CHAR, 'N', 0, KEYS_SEARCH_PREV },

	{ KEYS_CHAR, '+', 0, KEYS_FASTER },
	{ KEYS_CHAR, '=', 0, KEYS_FASTER },
	{ KEYS_CHAR, '-', 0, KEYS_SLOWER },
	{ KEYS_CHAR, '*', 0, KEYS_MAX_SPEED },
	{ KEYS_CHAR, 'P', 0, KEYS_PAUSE_REPLAY },
	{ KEYS_CHAR, 'e', 0, KEYS_TO_END },
	{ KEYS_CHAR, 'g', 0, KEYS_GOTO },
	{ KEYS_CHAR, '[', 0, KEYS_RANGE_START },
	{ KEYS_CHAR, ']', 0, KEYS_RANGE_END },

	{ KEYS_CHAR, 'T', 0, KEYS_TIME_PROF_ON },
	{ KEYS_CHAR, 't', 0, KEYS_TIME_PROF_OFF },
	{ KEYS_CHAR, 'H', 0, KEYS_HEAP_PROF_ON },
	{ KEYS_CHAR, 'h', 0, KEYS_HEAP_PROF_OFF },
	{ KEYS_CHAR, 'c', 0, KEYS_CENSUS },

	{ KEYS_SYM, KEYS_SYM_LEFT, 0, KEYS_LEFT },
	{ KEYS_SYM, KEYS_SYM_RIGHT, 0, KEYS_RIGHT },
	{ KEYS_CHAR, 'i', 0, KEYS_TL_IN },
	{ KEYS_CHAR, 'o', 0, KEYS_TL_OUT },
	{ KEYS_CHAR, 'f', 0, KEYS_TL_FIT },
	{ KEYS_CHAR, 'm', 0, KEYS_TL_MARK_NEXT },
	{ KEYS_CHAR, 'M', 0, KEYS_TL_MARK_PREV },
	{ KEYS_CHAR, 'l', 0, KEYS_TL_LONG_NEXT },
	{ KEYS_CHAR, 'L', 0, KEYS_TL_LONG_PREV },
};

/* The panes' group: its heading says what 1-9 do, its rows which pane
 * (short: the help's narrowest column holds it). */
#define KEYS_PANES	"Panes (1-9 zoom)"

/*
 * What each action is called, in help order.  An action whose help is
 * NULL is described by the row before it (Up and Down share a row).
 * The keys column must name every binding above: tests/ui checks it.
 */
static const struct keys_info keys_infos[] = {
	{ KEYS_HELP, "General", "F1 ?", "this help", "Help", "F1",
	    KEYS_ANY, 0 },
	{ KEYS_QUIT, "General", "q F10", "quit", "Quit", "F10",
	    KEYS_ANY, 0 },
	{ KEYS_PAUSE, "General", "Space p", "pause display, keep reading", "Pause", "Spc", KEYS_ANY, 0 },
	{ KEYS_RESET, "General", "z", "reset the window counters", "Reset",
	    "z", KEYS_ANY, 0 },
	{ KEYS_EXPORT, "General", "E", "export profiles (window) to files",
	    NULL, NULL, KEYS_ANY, 0 },
	{ KEYS_REDRAW, "General", "^L", "redraw the screen", NULL, NULL,
	    KEYS_ANY, 0 },
	{ KEYS_SUSPEND, "General", "^Z", "suspend (fg to come back)", NULL,
	    NULL, KEYS_ANY, 0 },

	{ KEYS_OVERVIEW, KEYS_PANES, "0 Esc", "overview of the panes",
	    NULL, NULL, KEYS_ANY, 0 },
	{ KEYS_ZOOM1, KEYS_PANES, "1", "Capabilities", "Zoom",
	    "1-9", KEYS_ANY, 0 },
	{ KEYS_ZOOM2, KEYS_PANES, "2", "GC", NULL, NULL,
	    KEYS_ANY, 0 },
	{ KEYS_ZOOM3, KEYS_PANES, "3", "Heap", NULL, NULL,
	    KEYS_ANY, 0 },
	{ KEYS_ZOOM4, KEYS_PANES, "4", "Nonmoving heap", NULL,
	    NULL, KEYS_ANY, 0 },
	{ KEYS_ZOOM5, KEYS_PANES, "5", "Cost centres", NULL, NULL,
	    KEYS_ANY, 0 },
	{ KEYS_ZOOM6, KEYS_PANES, "6", "Threads", NULL, NULL,
	    KEYS_ANY, 0 },
	{ KEYS_ZOOM7, KEYS_PANES, "7", "Messages", NULL, NULL,
	    KEYS_ANY, 0 },
	{ KEYS_ZOOM8, KEYS_PANES, "8", "Timeline of the whole run", NULL,
	    NULL, KEYS_ANY, 0 },
	{ KEYS_ZOOM9, KEYS_PANES, "9", "Raw events at the cursor", NULL,
	    NULL, KEYS_ANY, 0 },
	{ KEYS_FOCUS_NEXT, KEYS_PANES, "Tab S-Tab", "focus the next / "
	    "previous pane", "Focus", "Tab", KEYS_ANY, 0 },
	{ KEYS_FOCUS_PREV, KEYS_PANES, NULL, NULL, NULL, NULL, KEYS_ANY, 0 },

	{ KEYS_FILTER, "Focused pane", "/ F3 F4", "filter rows (9: search)", "Filter", "/", KEYS_ANY,
	    0 },
	{ KEYS_SEARCH_NEXT, "Focused pane", "n N", "9: next / previous match", NULL, NULL, KEYS_ANY, 0 },
	{ KEYS_SEARCH_PREV, "Focused pane", NULL, NULL, NULL, NULL, KEYS_ANY,
	    0 },
	{ KEYS_SORT_PREV, "Focused pane", "< > F6 r", "sort column < >, reverse r", "Sort", "<>", KEYS_ANY, 0 },
	{ KEYS_SORT_NEXT, "Focused pane", NULL, NULL, NULL, NULL, KEYS_ANY,
	    0 },
	{ KEYS_SORT_REVERSE, "Focused pane", NULL, NULL, NULL, NULL, KEYS_ANY,
	    0 },
	{ KEYS_UP, "Focused pane", "Up Down", "move the selection", NULL,
	    NULL, KEYS_ANY, 0 },
	{ KEYS_DOWN, "Focused pane", NULL, NULL, NULL, NULL, KEYS_ANY, 0 },
	{ KEYS_PGUP, "Focused pane", "PgUp PgDn", "move a page", NULL, NULL,
	    KEYS_ANY, 0 },
	{ KEYS_PGDN, "Focused pane", NULL, NULL, NULL, NULL, KEYS_ANY, 0 },
	{ KEYS_HOME, "Focused pane", "Home End", "first / last row", NULL,
	    NULL, KEYS_ANY, 0 },
	{ KEYS_END, "Focused pane", NULL, NULL, NULL, NULL, KEYS_ANY, 0 },
	{ KEYS_ENTER, "Focused pane", "Enter", "details; timeline: go to the cursor", NULL, NULL, KEYS_ANY, 0 },
	{ KEYS_SELF_TOTAL, "Focused pane", "s", "cost centres: self or "
	    "total", NULL, NULL, KEYS_ANY, 0 },
	{ KEYS_WINDOW, "Focused pane", "w", "window: 1s, 10s, whole run",
	    NULL, NULL, KEYS_ANY, 0 },

	{ KEYS_LEFT, "Timeline", "Left Right", "cursor; PgUp PgDn: scroll",
	    NULL, NULL, KEYS_ANY, 0 },
	{ KEYS_RIGHT, "Timeline", NULL, NULL, NULL, NULL, KEYS_ANY, 0 },
	{ KEYS_TL_IN, "Timeline", "i o", "zoom in / out at the cursor",
	    NULL, NULL, KEYS_ANY, 0 },
	{ KEYS_TL_OUT, "Timeline", NULL, NULL, NULL, NULL, KEYS_ANY, 0 },
	{ KEYS_TL_FIT, "Timeline", "f", "fit the whole run", NULL, NULL,
	    KEYS_ANY, 0 },
	{ KEYS_TL_MARK_NEXT, "Timeline", "m M", "next / previous marker",
	    NULL, NULL, KEYS_ANY, 0 },
	{ KEYS_TL_MARK_PREV, "Timeline", NULL, NULL, NULL, NULL, KEYS_ANY,
	    0 },
	{ KEYS_TL_LONG_NEXT, "Timeline", "l L", "next / previous longest "
	    "GC pause", NULL, NULL, KEYS_ANY, 0 },
	{ KEYS_TL_LONG_PREV, "Timeline", NULL, NULL, NULL, NULL, KEYS_ANY,
	    0 },

	{ KEYS_FASTER, "Replay", "+ = -", "replay faster / slower",
	    "Speed", "+-", KEYS_REPLAY, 0 },
	{ KEYS_SLOWER, "Replay", NULL, NULL, NULL, NULL, KEYS_REPLAY, 0 },
	{ KEYS_MAX_SPEED, "Replay", "*", "replay as fast as possible", NULL,
	    NULL, KEYS_REPLAY, 0 },
	{ KEYS_PAUSE_REPLAY, "Replay", "P", "pause / resume the replay",
	    "Replay", "P", KEYS_REPLAY, 0 },
	{ KEYS_TO_END, "Replay", "e", "jump to the end", "End", "e",
	    KEYS_REPLAY, 0 },
	{ KEYS_GOTO, "Replay", "g", "go to a time: 12.5s 1m30s 250ms "
	    "+5s -5s end (held there; P goes on)", "Go", "g", KEYS_REPLAY,
	    0 },
	{ KEYS_RANGE_START, "Replay", "[ ]", "a range's start and end at "
	    "the cursor (or the time shown): every pane shows it; Esc back",
	    NULL, NULL, KEYS_REPLAY, 0 },
	{ KEYS_RANGE_END, "Replay", NULL, NULL, NULL, NULL, KEYS_REPLAY, 0 },

	{ KEYS_HEAP_PROF_ON, "Socket control", "H", "start heap profiling",
	    "Heap", "H/h", KEYS_SOCKET, 3 },
	{ KEYS_HEAP_PROF_OFF, "Socket control", "h", "stop heap profiling",
	    NULL, NULL, KEYS_SOCKET, 4 },
	{ KEYS_CENSUS, "Socket control", "c", "request a heap census",
	    "Census", "c", KEYS_SOCKET, 5 },
	{ KEYS_TIME_PROF_ON, "Socket control", "T", "start time profiling",
	    "Prof", "T/t", KEYS_SOCKET, 1 },
	{ KEYS_TIME_PROF_OFF, "Socket control", "t", "stop time profiling",
	    NULL, NULL, KEYS_SOCKET, 2 },
};

/* The bottom bar, left to right, with the width each label wants. */
static const struct {
	enum keys_action action;
	int		 prio;		/* dropped highest first */
} keys_bar[] = {
	{ KEYS_HELP, 0 },
	{ KEYS_PAUSE, 2 },
	{ KEYS_FILTER, 3 },
	{ KEYS_SORT_PREV, 4 },
	{ KEYS_FOCUS_NEXT, 6 },
	{ KEYS_ZOOM1, 1 },
	{ KEYS_RESET, 7 },
	{ KEYS_FASTER, 2 },
	{ KEYS_PAUSE_REPLAY, 3 },
	{ KEYS_TO_END, 5 },
	{ KEYS_GOTO, 4 },
	{ KEYS_HEAP_PROF_ON, 2 },
	{ KEYS_CENSUS, 2 },
	{ KEYS_TIME_PROF_ON, 3 },
	{ KEYS_QUIT, 0 },
};

#define KEYS_NBINDINGS	(sizeof keys_bindings / sizeof keys_bindings[0])
#define KEYS_NINFOS	(sizeof keys_infos / sizeof keys_infos[0])
#define KEYS_NBAR	(sizeof keys_bar / sizeof keys_bar[0])

/* The action bound to a key, or KEYS_NONE. */
enum keys_action
keys_lookup(const struct keys_key *k)
{
	const struct keys_binding	*b;
	size_t				 i;
	int				 mods = k->mods;

	/* A typed character carries its shift in the character itself. */
	if (k->kind == KEYS_CHAR)
		mods &= ~KEYS_SHIFT;
	for (i = 0; i < KEYS_NBINDINGS; i++) {
		b = &keys_bindings[i];
		if (b->kind == k->kind && b->code == k->code &&
		    b->mods == mods)
			return b->action;
	}
	return KEYS_NONE;
}

const struct keys_info *
keys_info(enum keys_action a)
{
	size_t	i;

	for (i = 0; i < KEYS_NINFOS; i++) {
		if (keys_infos[i].action == a)
			return &keys_infos[i];
	}
	return NULL;
}

const struct keys_info *
keys_info_at(size_t i)
{
	return i < KEYS_NINFOS ? &keys_infos[i] : NULL;
}

size_t
keys_ninfo(void)
{
	return KEYS_NINFOS;
}

const struct keys_binding *
keys_binding_at(size_t i)
{
	return i < KEYS_NBINDINGS ? &keys_bindings[i] : NULL;
}

/*
 * The help, row by row: a group's heading (a blank row before each but the
 * first), then its entries, what each does wrapped at tw columns so that
 * none is cut (the table's text is ASCII: a byte a column).  Stacked (a
 * narrow screen), an entry's keys have a row of their own above.
 */
struct keys_hrow {
	const char		*group;	/* a heading, "" a blank row; or NULL */
	const struct keys_info	*ki;	/* else an entry's row */
	int			 first;	/* its first row: the keys too */
	const char		*text;	/* what it does, on this row */
	size_t			 len;
};
struct keys_hit {
	size_t		 i;		/* keys_infos[i] is next */
	size_t		 off;		/* in its help; 0: not begun */
	const char	*group;		/* the last heading */
	int		 blank;		/* the blank row before it is out */
	int		 stacked;	/* keys above what they do */
	int		 keyed;		/* the keys' own row is out */
};

static int
keys_help_next(struct keys_hit *it, size_t tw, struct keys_hrow *r)
{
	const struct keys_info	*ki;
	const char		*s;
	size_t			 cut, next;

	while (it->off == 0 && it->i < KEYS_NINFOS &&
	    keys_infos[it->i].help == NULL)
		it->i++;
	if (it->i >= KEYS_NINFOS)
		return 0;
	ki = &keys_infos[it->i];
	memset(r, 0, sizeof *r);
	if (it->off == 0 && (it->group == NULL ||
	    strcmp(it->group, ki->group) != 0)) {
		if (it->group != NULL && !it->blank) {
			it->blank = 1;
			r->group = "";
			return 1;
		}
		it->blank = 0;
		r->group = it->group = ki->group;
		return 1;
	}
	r->ki = ki;
	if (it->stacked && it->off == 0 && !it->keyed) {
		it->keyed = r->first = 1;
		r->text = "";
		return 1;
	}
	it->keyed = 0;
	r->first = it->off == 0 && !it->stacked;
	r->text = s = ki->help + it->off;
	if (strlen(s) <= tw) {
		r->len = strlen(s);
		it->off = 0;
		it->i++;
		return 1;
	}
	/* At the last space that leaves the row's words whole; a word
	 * longer than the row is broken. */
	for (cut = tw; cut > 0 && s[cut] != ' '; cut--)
		;
	if (cut == 0)
		cut = tw;
	for (next = cut; s[next] == ' '; next++)
		;
	while (cut > 0 && s[cut - 1] == ' ')
		cut--;
	r->len = cut;
	it->off += next;
	if (s[next] == '\0') {
		it->off = 0;
		it->i++;
	}
	return 1;
}

/*
 * The help text: groups of "keys  what they do", in two columns from 76
 * wide, else one.  Rows before scroll are skipped; returns the rows the
 * help needs.
 */
int
keys_help_render(struct lines *l, int y0, int scroll)
{
	struct keys_hit		 it;
	struct keys_hrow	 r;
	int			 ncol = l->width >= 76 ? 2 : 1, colw, keyw = 0;
	int			 tw, tx, rows, split, percol, k, c, y, x;
	int			 stacked;
	size_t			 i;

	for (i = 0; i < KEYS_NINFOS; i++) {
		if (keys_infos[i].help != NULL &&
		    (int)strlen(keys_infos[i].keys) > keyw)
			keyw = (int)strlen(keys_infos[i].keys);
	}
	colw = l->width / ncol;
	tx = 3 + keyw;
	tw = colw - keyw - 4;
	/* Too narrow for words beside the keys: below them. */
	if ((stacked = tw < 16)) {
		tx = 4;
		tw = colw - 5;
	}
	if (tw < 1)
		tw = 1;
	/*
	 * Two columns: the second starts at the group heading that makes
	 * the longer column shortest (the blank row before it is dropped).
	 */
	memset(&it, 0, sizeof it);
	it.stacked = stacked;
	for (rows = 0; keys_help_next(&it, (size_t)tw, &r); rows++)
		;
	split = percol = rows;
	memset(&it, 0, sizeof it);
	it.stacked = stacked;
	for (k = 0; ncol == 2 && keys_help_next(&it, (size_t)tw, &r); k++) {
		if (k == 0 || r.group == NULL || r.group[0] == '\0')
			continue;
		if ((k - 1 > rows - k ? k - 1 : rows - k) < percol) {
			percol = k - 1 > rows - k ? k - 1 : rows - k;
			split = k;
		}
	}
	memset(&it, 0, sizeof it);
	it.stacked = stacked;
	for (k = 0; keys_help_next(&it, (size_t)tw, &r); k++) {
		c = k >= split;
		if (!c && split < rows && k == split - 1)
			continue;	/* the blank row before column 2 */
		y = y0 + (c ? k - split : k) - scroll;
		if (y < y0 || y >= l->height)
			continue;
		x = c * colw;
		if (r.group != NULL)
			lines_put(l, y, x + 1, LINES_ACCENT, r.group,
			    colw - 2);
		else {
			if (r.first)
				lines_put(l, y, x + 2, LINES_KEY, r.ki->keys,
				    colw - 3);
			lines_putn(l, y, x + tx, LINES_NORMAL, r.text, r.len,
			    tw);
		}
	}
	return percol;
}

/* The bottom bar at row y: the main keys, htop style, for this source. */
void
keys_bar_render(struct lines *l, int y, int when)
{
	const struct keys_info	*ki;
	int			 shown[KEYS_NBAR], w[KEYS_NBAR], total = 0;
	int			 x = 0, worst, i;

	for (i = 0; i < (int)KEYS_NBAR; i++) {
		ki = keys_info(keys_bar[i].action);
		shown[i] = ki != NULL && ki->bar != NULL &&
		    (ki->when == KEYS_ANY || ki->when == when);
		w[i] = shown[i] ? (int)(strlen(ki->barkey) +
		    strlen(ki->bar) + 1) : 0;
		total += w[i];
	}
	/* Drop the least needed until the rest fits. */
	while (total > l->width) {
		worst = -1;
		for (i = 0; i < (int)KEYS_NBAR; i++) {
			if (shown[i] && (worst < 0 ||
			    keys_bar[i].prio >= keys_bar[worst].prio))
				worst = i;
		}
		if (worst < 0 || keys_bar[worst].prio == 0)
			break;
		shown[worst] = 0;
		total -= w[worst];
	}
	lines_fill(l, y, 0, l->width, LINES_KEYLABEL, ' ');
	for (i = 0; i < (int)KEYS_NBAR; i++) {
		if (!shown[i])
			continue;
		ki = keys_info(keys_bar[i].action);
		x += lines_put(l, y, x, LINES_KEY, ki->barkey, -1);
		x += lines_put(l, y, x, LINES_KEYLABEL, ki->bar, -1);
		x += lines_put(l, y, x, LINES_KEYLABEL, " ", -1);
	}
}
