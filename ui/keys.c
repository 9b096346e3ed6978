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

	{ KEYS_OVERVIEW, "Panes", "0 Esc", "overview of the panes", NULL,
	    NULL, KEYS_ANY, 0 },
	{ KEYS_ZOOM1, "Panes", "1", "Capabilities, full screen", "Zoom",
	    "1-9", KEYS_ANY, 0 },
	{ KEYS_ZOOM2, "Panes", "2", "GC, full screen", NULL, NULL,
	    KEYS_ANY, 0 },
	{ KEYS_ZOOM3, "Panes", "3", "Heap, full screen", NULL, NULL,
	    KEYS_ANY, 0 },
	{ KEYS_ZOOM4, "Panes", "4", "Nonmoving heap, full screen", NULL,
	    NULL, KEYS_ANY, 0 },
	{ KEYS_ZOOM5, "Panes", "5", "Cost centres, full screen", NULL, NULL,
	    KEYS_ANY, 0 },
	{ KEYS_ZOOM6, "Panes", "6", "Threads, full screen", NULL, NULL,
	    KEYS_ANY, 0 },
	{ KEYS_ZOOM7, "Panes", "7", "Messages, full screen", NULL, NULL,
	    KEYS_ANY, 0 },
	{ KEYS_ZOOM8, "Panes", "8", "Timeline of the whole run, full screen",
	    NULL, NULL, KEYS_ANY, 0 },
	{ KEYS_ZOOM9, "Panes", "9", "Raw events at the cursor, full screen",
	    NULL, NULL, KEYS_ANY, 0 },
	{ KEYS_FOCUS_NEXT, "Panes", "Tab S-Tab", "focus the next / previous "
	    "pane", "Focus", "Tab", KEYS_ANY, 0 },
	{ KEYS_FOCUS_PREV, "Panes", NULL, NULL, NULL, NULL, KEYS_ANY, 0 },

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
 * The help text: groups of "keys  what they do", in one or two columns.
 * Rows before scroll are skipped; returns the rows the help needs.
 */
int
keys_help_render(struct lines *l, int y0, int scroll)
{
	const struct keys_info	*ki;
	const char		*group = NULL;
	int			 rows = 0, ncol, colw, percol, r, c, k, split;
	int			 keyw = 9;
	size_t			 i;
	struct {
		const char	*group;
		const struct keys_info *ki;
	}			 row[2 * KEYS_NINFOS];

	for (i = 0; i < KEYS_NINFOS; i++) {
		ki = &keys_infos[i];
		if (ki->help == NULL)
			continue;
		if (group == NULL || strcmp(group, ki->group) != 0) {
			if (group != NULL) {
				row[rows].group = "";
				row[rows++].ki = NULL;
			}
			group = ki->group;
			row[rows].group = group;
			row[rows++].ki = NULL;
		}
		row[rows].group = NULL;
		row[rows++].ki = ki;
	}
	ncol = l->width >= 76 ? 2 : 1;
	split = rows;
	percol = rows;
	if (ncol == 2) {
		/*
		 * The second column starts at the group heading that makes
		 * the longer column shortest (the blank row before it is
		 * dropped).
		 */
		for (r = 1; r < rows; r++) {
			if (row[r].ki != NULL || row[r].group[0] == '\0')
				continue;
			k = r - 1 > rows - r ? r - 1 : rows - r;
			if (k < percol) {
				percol = k;
				split = r;
			}
		}
	}
	colw = l->width / ncol;
	for (c = 0; c < ncol; c++) {
		for (r = 0; r < percol; r++) {
			i = (size_t)(c == 0 ? r : split + r);
			if ((c == 0 && (int)i >= split - (ncol == 2)) ||
			    (int)i >= rows || r - scroll < 0 ||
			    y0 + r - scroll >= l->height)
				continue;
			if (row[i].ki == NULL) {
				lines_put(l, y0 + r - scroll, c * colw + 1,
				    LINES_ACCENT,
				    row[i].group, colw - 2);
				continue;
			}
			lines_put(l, y0 + r - scroll, c * colw + 2, LINES_KEY,
			    row[i].ki->keys, keyw);
			lines_put(l, y0 + r - scroll, c * colw + 3 + keyw,
			    LINES_NORMAL, row[i].ki->help, colw - keyw - 4);
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
