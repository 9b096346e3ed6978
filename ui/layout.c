/*
 * layout.c: where the panes of the overview go.
 *
 * Each pane says how many rows it needs at least (min), how many make it
 * comfortable (good) and how many it can use (want; 0 when it has nothing
 * to show).  A narrow terminal stacks the panes in one column, a wide one
 * puts them in two.  In a column, most important first, a pane gets its
 * good size if that still fits, else its minimum if that fits, else it is
 * left out (a less important, smaller one may still fit).  The rows left
 * are then dealt out one at a time, most important pane first, to the
 * panes still short of what they want, so the tables share the rest.
 */
#include "ui.h"

#define LAYOUT_TWO_COLUMNS 160	/* columns from which two fit side by side */

int
layout_columns(int w, int h)
{
	return w >= LAYOUT_TWO_COLUMNS ? 2 : 1;
}

/* Lay out the n items whose col is c (or all, c < 0) in one column. */
static void
layout_column(struct layout_item *it, int n, int c, int x, int y, int w,
    int h)
{
	int	order[64], k = 0, i, j, t, g, used = 0, extra, given;

	for (i = 0; i < n && k < 64; i++) {
		if (c >= 0 && it[i].col != c)
			continue;
		it[i].h = 0;
		if (it[i].want <= 0)
			continue;
		order[k++] = i;
	}
	/* Most important first; stable. */
	for (i = 1; i < k; i++) {
		for (j = i; j > 0 && it[order[j - 1]].prio > it[order[j]].prio;
		    j--) {
			t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	}
	/* Good sizes while they fit, else minimums. */
	for (i = 0; i < k; i++) {
		g = it[order[i]].good;
		t = it[order[i]].min;
		if (g > it[order[i]].want)
			g = it[order[i]].want;
		if (t > g)
			t = g;
		if (t < 1)
			t = 1;
		if (used + g <= h) {
			it[order[i]].h = g;
			used += g;
		} else if (used + t <= h) {
			it[order[i]].h = t;
			used += t;
		}
	}
	/* Deal out the rest. */
	extra = h - used;
	do {
		given = 0;
		for (i = 0; i < k && extra > 0; i++) {
			t = order[i];
			if (it[t].h > 0 && it[t].h < it[t].want) {
				it[t].h++;
				extra--;
				given = 1;
			}
		}
	} while (given && extra > 0);
	/* Whatever is left goes to the last pane shown. */
	for (i = n - 1; i >= 0 && extra > 0; i--) {
		if ((c < 0 || it[i].col == c) && it[i].h > 0) {
			it[i].h += extra;
			extra = 0;
		}
	}
	for (i = 0; i < n; i++) {
		if ((c >= 0 && it[i].col != c) || it[i].h == 0)
			continue;
		it[i].x = x;
		it[i].w = w;
		it[i].y = y;
		y += it[i].h;
	}
}

/* Place n items in the rectangle (x, y, w, h). */
void
layout_place(struct layout_item *it, int n, int x, int y, int w, int h)
{
	int	i, any[2] = { 0, 0 }, lw;

	for (i = 0; i < n; i++) {
		it[i].x = it[i].y = it[i].w = it[i].h = 0;
		if (it[i].want > 0)
			any[it[i].col != 0] = 1;
	}
	if (w <= 0 || h <= 0)
		return;
	if (layout_columns(w, h) == 1 || !any[0] || !any[1]) {
		layout_column(it, n, -1, x, y, w, h);
		return;
	}
	lw = (w - 1) / 2;
	layout_column(it, n, 0, x, y, lw, h);
	layout_column(it, n, 1, x + lw + 1, y, w - lw - 1, h);
}
