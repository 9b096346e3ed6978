/*
 * pane-timeline.c: the whole run over time, from the timeline's summary
 * (src/time/tl.h, which the loop keeps in the status): a time axis, the
 * markers with their labels, one row per capability (mutator / GC / idle:
 * the height of a cell is the share of its time busy, in eighths, its
 * colour what was most of it; the thread that ran where a stretch fills
 * cells), the program's GC pauses with the longest in view marked, the
 * heap's size and live data, and a status line for the cursor.
 *
 *   12.0s     12.5s     13.0s     13.5s
 *   ▼start    ▼alpha phase 0
 *   cap 0  ███▆▇█ T12 ███▁  ▂█████
 *   GC     ▁  ▃ ▁    █  ▁
 *   longest         ▲24.6ms
 *
 * Zoomed in below the summary's buckets on a file, the view's range is
 * read from the file into a summary of its own (tl-read.c), a bounded
 * number of events a frame: the picture sharpens over a few frames.
 * The cursor is the view's (shared with the raw events); Enter asks the
 * loop to go to its time.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui.h"
#include "model/model.h"
#include "time/tl.h"

#define TLP_LABEL	8		/* columns of the row labels */
#define TLP_MAXW	1024		/* columns drawn at most */
#define TLP_ZOOM	4		/* i and o zoom by this */
#define TLP_MIN_NS	100		/* a column is this many ns at least */
#define TLP_READ	120000		/* events read from the file a frame */
#define TLP_NLONG	3		/* longest pauses marked in view */

struct pane_tl {
	uint64_t	 from, span;	/* the view; span 0: the whole run */
	int		 cols;		/* time columns of the last frame */
	int		 rank;		/* the longest pause visited, or -1 */
	struct tl_read	*rd;		/* the file, when zoomed in */
	int		 rd_failed;
	uint64_t	 t[TLP_MAXW + 1];	/* where each column starts */
	double		 hs[TLP_MAXW], hl[TLP_MAXW];
};

static const uint32_t tlp_eighth[] = { ' ', 0x2581, 0x2582, 0x2583, 0x2584,
    0x2585, 0x2586, 0x2587, 0x2588 };

static struct pane_tl *
tlp_get(struct pane *p)
{
	struct pane_tl	*pt = p->data;

	if (pt == NULL) {
		if ((pt = calloc(1, sizeof *pt)) == NULL)
			return NULL;
		pt->rank = -1;
		p->data = pt;
	}
	return pt;
}

static const struct tl *
tlp_tl(const struct pane *p)
{
	const struct tl	*tl;

	if (p->st == NULL || (tl = p->st->timeline) == NULL ||
	    tl_events(tl) == 0)
		return NULL;
	return tl;
}

/* The run: [lo, hi), never empty. */
static void
tlp_run(const struct tl *tl, uint64_t *lo, uint64_t *hi)
{
	*lo = tl_start(tl);
	*hi = tl_now(tl);
	if (*hi <= *lo)
		*hi = *lo + 1;
}

/* The view, clamped to the run. */
static void
tlp_view(struct pane_tl *pt, const struct tl *tl, uint64_t *from,
    uint64_t *span)
{
	uint64_t	lo, hi;

	tlp_run(tl, &lo, &hi);
	if (pt->span == 0 || pt->span >= hi - lo) {
		pt->span = 0;
		*from = lo;
		*span = hi - lo;
		return;
	}
	if (pt->from < lo)
		pt->from = lo;
	if (pt->from > hi - pt->span)
		pt->from = hi - pt->span;
	*from = pt->from;
	*span = pt->span;
}

static uint64_t
tlp_col_t(uint64_t from, uint64_t span, int x, int cols)
{
	return from + (uint64_t)((unsigned __int128)span * (unsigned)x /
	    (unsigned)cols);
}

static int
tlp_col_of(uint64_t from, uint64_t span, int cols, uint64_t t)
{
	if (t < from)
		return -1;
	if (t - from >= span)
		return cols;
	return (int)((unsigned __int128)(t - from) * (unsigned)cols / span);
}

/* A time with as many decimals as a step of step ns needs. */
static int
tlp_fmt_time(char *buf, size_t size, uint64_t t, uint64_t step)
{
	int	dec = 0;
	uint64_t s;

	for (s = 1000000000ULL; s > step && dec < 9; s /= 10)
		dec++;
	return snprintf(buf, size, "%.*fs", dec, (double)t / 1e9);
}

static int
tlp_count(const struct tl *tl)
{
	int	i, n = 0;

	for (i = 0; i < tl_ncaps(tl); i++)
		n += tl_has_cap(tl, i);
	return n;
}

static int
pane_tl_want(struct pane *p, const struct model *m, int width)
{
	const struct tl	*tl = tlp_tl(p);

	if (tl == NULL)
		return 0;
	return 8 + tlp_count(tl);
}

static void
pane_tl_title(struct pane *p, const struct model *m, char *buf, size_t size)
{
	struct pane_tl		*pt = tlp_get(p);
	const struct tl		*tl = tlp_tl(p);
	const struct tl_pause	*lp;
	uint64_t		 from, span, lo, hi;
	size_t			 nl, nm;
	char			 a[FMT_MAX], b[FMT_MAX], c[FMT_MAX];

	if (pt == NULL || tl == NULL) {
		snprintf(buf, size, "no events yet");
		return;
	}
	tlp_view(pt, tl, &from, &span);
	tlp_run(tl, &lo, &hi);
	lp = tl_longest(tl, &nl);
	tl_marks(tl, &nm);
	if (pt->span == 0)
		snprintf(buf, size, "whole run %s, %llu GC pauses%s%s%s, "
		    "%zu markers", fmt_ns(a, hi - lo),
		    (unsigned long long)tl_pauses(tl), nl > 0 ?
		    " (longest " : "", nl > 0 ? fmt_ns(b, lp[0].dur) : "",
		    nl > 0 ? ")" : "", nm);
	else
		snprintf(buf, size, "%s of %s from %s, x%.0f", fmt_ns(a, span),
		    fmt_ns(b, hi - lo), fmt_time(c, from),
		    (double)(hi - lo) / (double)span);
}

/* The glyph for a cell busy for frac of its time, mostly GC or not. */
static uint32_t
tlp_glyph(const struct lines *l, double frac, int gc)
{
	static const char	 amut[] = " .:+#", agc[] = " ,;=@";
	int			 lvl;

	if (!(frac > 0))
		return ' ';
	if (frac > 1)
		frac = 1;
	if (l->ascii) {
		lvl = (int)ceil(frac * 4);
		return (uint32_t)(gc ? agc[lvl] : amut[lvl]);
	}
	lvl = (int)lround(frac * 8);
	if (lvl < 1)
		lvl = 1;
	if (gc && l->mono)
		return lvl <= 3 ? 0x2591 : lvl <= 6 ? 0x2592 : 0x2593;
	return tlp_eighth[lvl];
}

/* The summary column x is drawn from: the range read, where read. */
static const struct tl *
tlp_src(const struct tl *tl, const struct tl *det, uint64_t upto,
    uint64_t t1)
{
	return det != NULL && t1 <= upto ? det : tl;
}

static void
tlp_axis(struct pane_tl *pt, struct lines *l, int y, int cols, uint64_t from,
    uint64_t span)
{
	static const uint64_t	 mult[] = { 1, 2, 5 };
	char			 buf[32];
	uint64_t		 step = 1, t, scale = 1;
	int			 i = 0, x, w, last = -1, need;

	/* A step whose labels fit between the ticks. */
	for (;;) {
		step = mult[i] * scale;
		tlp_fmt_time(buf, sizeof buf, from + span, step);
		need = (int)strlen(buf) + 3;
		if ((unsigned __int128)step * (unsigned)cols >=
		    (unsigned __int128)span * (unsigned)need)
			break;
		if (++i == 3) {
			i = 0;
			if (scale > UINT64_MAX / 100)
				break;
			scale *= 10;
		}
	}
	lines_put(l, y, 0, LINES_DIM, "time", TLP_LABEL - 1);
	for (t = (from + step - 1) / step * step; t < from + span; t += step) {
		x = tlp_col_of(from, span, cols, t);
		if (x <= last || x >= cols)
			continue;
		w = tlp_fmt_time(buf, sizeof buf, t, step);
		lines_putc(l, y, TLP_LABEL + x, LINES_DIM, l->ascii ? '|' :
		    0x2577);
		if (x + 1 + w <= cols)
			lines_put(l, y, TLP_LABEL + x + 1, LINES_NORMAL, buf,
			    cols - x - 1);
		last = x + w;
		if (t > UINT64_MAX - step)
			break;
	}
	(void)pt;
}

static void
tlp_marks(struct lines *l, int y, int cols, uint64_t from, uint64_t span,
    const struct tl *src)
{
	const struct tl_mark	*mk;
	size_t			 n, i, j;
	int			 x, nx, w;

	lines_put(l, y, 0, LINES_DIM, "marks", TLP_LABEL - 1);
	mk = tl_marks(src, &n);
	for (i = 0; i < n; i++) {
		if (mk[i].time < from || mk[i].time - from >= span)
			continue;
		x = tlp_col_of(from, span, cols, mk[i].time);
		/* The label runs up to the next marker's column. */
		nx = cols;
		for (j = i + 1; j < n; j++) {
			if (mk[j].time - from >= span)
				break;
			if (tlp_col_of(from, span, cols, mk[j].time) > x) {
				nx = tlp_col_of(from, span, cols, mk[j].time);
				break;
			}
		}
		if (l->cell[(size_t)y * l->width + TLP_LABEL + x].ch != ' ')
			continue;	/* one in the column already */
		lines_putc(l, y, TLP_LABEL + x, LINES_WARN, l->ascii ? 'v' :
		    0x25bc);
		w = nx - x - 2;
		if (w > 0)
			lines_put(l, y, TLP_LABEL + x + 1, LINES_ACCENT,
			    mk[i].label, w);
	}
}

static void
tlp_cap(struct pane_tl *pt, struct lines *l, int y, int cols, int cap,
    const struct tl *tl, const struct tl *det, uint64_t upto)
{
	struct tl_cap_sum	 s;
	const struct tl		*src;
	uint32_t		 th[TLP_MAXW];
	char			 id[16];
	uint64_t		 d;
	int			 x, x0, w, gc;

	lines_putf(l, y, 0, LINES_BOLD, TLP_LABEL - 1, "cap %d", cap);
	for (x = 0; x < cols; x++) {
		th[x] = 0;
		src = tlp_src(tl, det, upto, pt->t[x + 1]);
		tl_cap_sum(src, cap, pt->t[x], pt->t[x + 1], &s);
		if (!s.known && src != tl)
			tl_cap_sum(tl, cap, pt->t[x], pt->t[x + 1], &s);
		d = s.run + s.gc + s.idle;
		if (!s.known || d == 0)
			continue;
		gc = s.gc > s.run;
		lines_putc(l, y, TLP_LABEL + x, gc ? LINES_GC : LINES_MUT,
		    tlp_glyph(l, (double)(s.run + s.gc) / (double)d, gc));
		/* A stretch of one thread over most of the column. */
		if (!gc && s.thread != 0 && s.thread_ns * 2 >= d)
			th[x] = s.thread;
	}
	/* Thread ids where a thread's stretch fills enough columns. */
	for (x = 0; x < cols; x = x0) {
		for (x0 = x + 1; x0 < cols && th[x0] == th[x]; x0++)
			;
		if (th[x] == 0)
			continue;
		w = snprintf(id, sizeof id, "T%u", th[x]);
		if (x0 - x >= w + 2)
			lines_put(l, y, TLP_LABEL + x + (x0 - x - w) / 2,
			    LINES_HEAD, id, w);
	}
}

static void
tlp_gc(struct pane_tl *pt, struct lines *l, int y, int ylong, int cols,
    const struct tl *tl, const struct tl *det, uint64_t upto)
{
	struct tl_gc_sum	 g;
	uint64_t		 mx[TLP_MAXW], at[TLP_MAXW];
	char			 buf[FMT_MAX + 4], a[FMT_MAX];
	int			 x, k, best, w, used[TLP_MAXW], placed;

	lines_put(l, y, 0, LINES_BOLD, "GC", TLP_LABEL - 1);
	for (x = 0; x < cols; x++) {
		/* A pause that ends past a range read is whole in the run's
		 * summary. */
		tl_gc_sum(tl, pt->t[x], pt->t[x + 1], &g);
		mx[x] = g.max;
		tl_gc_sum(tlp_src(tl, det, upto, pt->t[x + 1]), pt->t[x],
		    pt->t[x + 1], &g);
		/* Not one the range began in: only its end is there. */
		if (g.max > mx[x] && (det == NULL || g.max_at > tl_start(det)))
			mx[x] = g.max;
		at[x] = g.max_at;
		used[x] = 0;
		if (g.gc_ns > 0)
			lines_putc(l, y, TLP_LABEL + x, LINES_GC, tlp_glyph(l,
			    (double)g.gc_ns / (double)(pt->t[x + 1] -
			    pt->t[x]), 1));
	}
	if (ylong < 0)
		return;
	lines_put(l, ylong, 0, LINES_DIM, "longest", TLP_LABEL - 1);
	/* The longest pauses in view, marked where their label fits (a
	 * shorter one may fit where a longer one would not). */
	for (k = placed = 0; placed < TLP_NLONG && k < 4 * TLP_NLONG; k++) {
		best = -1;
		for (x = 0; x < cols; x++)
			if (mx[x] > 0 && !used[x] && (best < 0 ||
			    mx[x] > mx[best]))
				best = x;
		if (best < 0)
			break;
		used[best] = 1;
		w = snprintf(buf, sizeof buf, "%s%s", l->ascii ? "^" :
		    "\xe2\x96\xb2", fmt_ns(a, mx[best]));
		w = lines_width(buf, (size_t)w, l->ascii);
		for (x = best; x < best + w && x < cols; x++)
			if (l->cell[(size_t)ylong * l->width + TLP_LABEL +
			    x].ch != ' ')
				break;
		if (x < best + w || best + w > cols)
			continue;
		lines_put(l, ylong, TLP_LABEL + best, placed++ == 0 ?
		    LINES_BAD : LINES_WARN, buf, w);
		(void)at;
	}
}

static void
tlp_heap(struct pane_tl *pt, struct lines *l, int y, int ylive, int cols,
    const struct tl *tl, const struct tl *det, uint64_t upto)
{
	struct tl_heap_sum	 h, prev;
	double			 max = 0;
	int			 x;

	tl_heap_before(tl, pt->t[0] + 1, &prev);
	for (x = 0; x < cols; x++) {
		tl_heap_sum(tlp_src(tl, det, upto, pt->t[x + 1]), pt->t[x],
		    pt->t[x + 1], &h);
		/* Gauges hold between samples. */
		if (h.has_size)
			prev.size = h.size, prev.has_size = 1;
		if (h.has_live)
			prev.live = h.live, prev.has_live = 1;
		pt->hs[x] = prev.has_size ? (double)(h.has_size ? h.size :
		    prev.size) : 0;
		pt->hl[x] = prev.has_live ? (double)(h.has_live ? h.live :
		    prev.live) : 0;
		if (pt->hs[x] > max)
			max = pt->hs[x];
		if (pt->hl[x] > max)
			max = pt->hl[x];
	}
	lines_putf(l, y, 0, LINES_BOLD, TLP_LABEL - 1, "heap");
	if (ylive >= 0)
		lines_putf(l, ylive, 0, LINES_BOLD, TLP_LABEL - 1, "live");
	if (!(max > 0))
		return;
	for (x = 0; x < cols; x++) {
		if (pt->hs[x] > 0)
			lines_putc(l, y, TLP_LABEL + x, LINES_SPARK,
			    tlp_glyph(l, pt->hs[x] / max, 0));
		if (ylive >= 0 && pt->hl[x] > 0)
			lines_putc(l, ylive, TLP_LABEL + x, LINES_ACCENT,
			    tlp_glyph(l, pt->hl[x] / max, 0));
	}
}

/* The last line: the cursor, and what the keys do. */
static void
tlp_status(struct pane *p, struct lines *l, int y, uint64_t cursor,
    int xc, const struct tl *tl, const struct tl *src, uint64_t span)
{
	struct pane_tl		*pt = p->data;
	struct tl_gc_sum	 g;
	struct tl_heap_sum	 h;
	char			 a[32], b[FMT_MAX], c[FMT_MAX], d[FMT_MAX];
	int			 n = 0;

	lines_fill(l, y, 0, l->width, LINES_NORMAL, ' ');
	if (cursor != VIEW_NO_CURSOR) {
		/* As precise as a column. */
		tlp_fmt_time(a, sizeof a, cursor, span / (uint64_t)pt->cols > 0 ?
		    span / (uint64_t)pt->cols : 1);
		n = lines_putf(l, y, 0, LINES_ACCENT, l->width, "cursor %s",
		    a);
		if (xc >= 0 && xc < pt->cols) {
			tl_gc_sum(src, pt->t[xc], pt->t[xc + 1], &g);
			if (g.max == 0 || (src != tl && g.max_at <=
			    tl_start(src)))
				tl_gc_sum(tl, pt->t[xc], pt->t[xc + 1], &g);
			tl_heap_before(src, pt->t[xc + 1], &h);
			if (src != tl && (!h.has_size || !h.has_live))
				tl_heap_before(tl, pt->t[xc + 1], &h);
			if (g.max > 0)
				n += lines_putf(l, y, n, LINES_GC, l->width - n,
				    "  GC pause %s", fmt_ns(b, g.max));
			if (h.has_size)
				n += lines_putf(l, y, n, LINES_NORMAL,
				    l->width - n, "  heap %s", fmt_bytes(c,
				    h.size));
			if (h.has_live)
				n += lines_putf(l, y, n, LINES_NORMAL,
				    l->width - n, "  live %s", fmt_bytes(d,
				    h.live));
		}
	}
	lines_put_right(l, y, l->width, LINES_DIM, l->width - n > 60 ?
	    " i/o zoom  \xe2\x86\x90\xe2\x86\x92 cursor  m marker  "
	    "l longest GC  Enter go" : l->width - n > 30 ? " i/o zoom  "
	    "Enter go" : "");
	if (l->ascii)
		lines_put_right(l, y, l->width, LINES_DIM, l->width - n > 60 ?
		    " i/o zoom  <- -> cursor  m marker  l longest GC  "
		    "Enter go" : l->width - n > 30 ? " i/o zoom  Enter go" :
		    "");
}

static void
pane_tl_render(struct pane *p, const struct model *m, struct lines *l)
{
	struct pane_tl	*pt = tlp_get(p);
	const struct tl	*tl = tlp_tl(p), *det = NULL, *part = NULL;
	uint64_t	 from, span, upto = 0, cursor;
	int		 cols, ncaps, rows, y, i, r, top, xc, want;
	int		 has_marks, has_long, has_heap, has_live, caprows;
	char		*cause = NULL;

	if (pt == NULL)
		return;
	if (tl == NULL) {
		lines_put(l, 0, 1, LINES_DIM, "no events yet", l->width - 1);
		pane_rows(p, 0, l->height);
		return;
	}
	cols = l->width - TLP_LABEL;
	if (cols > TLP_MAXW)
		cols = TLP_MAXW;
	if (cols < 8 || l->height < 3) {
		lines_put(l, 0, 0, LINES_DIM, "too small for the timeline",
		    l->width);
		return;
	}
	pt->cols = cols;
	tlp_view(pt, tl, &from, &span);
	for (i = 0; i <= cols; i++)
		pt->t[i] = tlp_col_t(from, span, i, cols);

	/* Finer than the summary: read the range from the file. */
	if (span < 2 * tl_width(tl) * (uint64_t)cols && p->st != NULL &&
	    p->st->kind == EVTOP_SRC_FILE && p->st->source != NULL &&
	    !pt->rd_failed) {
		if (pt->rd == NULL && (pt->rd = tl_read_new(p->st->source,
		    &cause)) == NULL) {
			pt->rd_failed = 1;
			free(cause);
		}
		if (pt->rd != NULL) {
			r = tl_read_range(pt->rd, from, from + span, TLP_READ,
			    &part, &upto);
			if (r >= 0)
				det = part;
			if (r == 0 && p->view != NULL)
				view_set_dirty(p->view);	/* read on */
		}
	}

	/* Rows: the axis, the status and at least a cap; then GC, heap,
	 * markers, the longest pauses, live, as room allows. */
	ncaps = tlp_count(tl);
	rows = l->height;
	want = rows - 3;
	has_marks = has_long = has_heap = has_live = 0;
	{
		int	gcrow = want >= 2;

		want -= gcrow;
		has_heap = want >= 2 + (ncaps > 1);
		want -= has_heap;
		has_marks = want >= 2 + (ncaps > 1);
		want -= has_marks;
		has_long = want >= 2 + (ncaps > 2);
		want -= has_long;
		has_live = want >= 2 + (ncaps > 3);
		want -= has_live;
		caprows = rows - 2 - gcrow - has_heap - has_marks - has_long -
		    has_live;
		if (caprows < 1)
			caprows = 1;
		top = pane_rows(p, ncaps, caprows);
		y = 0;
		tlp_axis(pt, l, y++, cols, from, span);
		if (has_marks)
			tlp_marks(l, y++, cols, from, span, det != NULL &&
			    upto >= from + span ? det : tl);
		for (i = r = 0; i < tl_ncaps(tl) && y < rows - 1 -
		    gcrow - has_heap - has_long - has_live; i++) {
			if (!tl_has_cap(tl, i) || r++ < top)
				continue;
			tlp_cap(pt, l, y++, cols, i, tl, det, upto);
		}
		if (gcrow) {
			tlp_gc(pt, l, y, has_long ? y + 1 : -1, cols, tl, det,
			    upto);
			y += 1 + has_long;
		}
		if (has_heap) {
			tlp_heap(pt, l, y, has_live ? y + 1 : -1, cols, tl,
			    det, upto);
			y += 1 + has_live;
		}
	}

	/* The cursor: a column in reverse, over everything but the axis. */
	cursor = p->view != NULL ? view_cursor(p->view) : VIEW_NO_CURSOR;
	xc = cursor == VIEW_NO_CURSOR ? -1 : tlp_col_of(from, span, cols,
	    cursor);
	if (xc >= 0 && xc < cols) {
		for (i = 1; i < y; i++)
			lines_attr(l, i, TLP_LABEL + xc, 1, LINES_SELECT);
		if (l->cell[TLP_LABEL + xc].ch == ' ')
			lines_putc(l, 0, TLP_LABEL + xc, LINES_SELECT,
			    l->ascii ? 'v' : 0x25be);
	}
	tlp_status(p, l, rows - 1, cursor, xc, tl, det != NULL && xc >= 0 &&
	    xc < cols && pt->t[xc + 1] <= upto ? det : tl, span);
	(void)m;
}

/* Put the cursor at t and bring it into view. */
static void
tlp_goto(struct pane *p, const struct tl *tl, uint64_t t, int centre)
{
	struct pane_tl	*pt = p->data;
	uint64_t	 from, span, lo, hi;

	tlp_run(tl, &lo, &hi);
	if (t < lo)
		t = lo;
	if (t >= hi)
		t = hi - 1;
	view_set_cursor(p->view, t);
	tlp_view(pt, tl, &from, &span);
	if (pt->span == 0)
		return;
	if (centre || t < from || t >= from + span)
		pt->from = t > span / 2 ? t - span / 2 : 0;
	if (t < pt->from)
		pt->from = t;
	if (t >= pt->from + span)
		pt->from = t - span + 1;
}

static void
tlp_zoom(struct pane *p, const struct tl *tl, uint64_t cursor, int in)
{
	struct pane_tl	*pt = p->data;
	uint64_t	 from, span, lo, hi, nspan, min;
	double		 at;

	tlp_view(pt, tl, &from, &span);
	tlp_run(tl, &lo, &hi);
	if (cursor == VIEW_NO_CURSOR || cursor < from || cursor >= from +
	    span)
		cursor = from + span / 2;
	min = (uint64_t)TLP_MIN_NS * (uint64_t)(pt->cols > 0 ? pt->cols : 80);
	nspan = in ? span / TLP_ZOOM : span > UINT64_MAX / TLP_ZOOM ?
	    UINT64_MAX : span * TLP_ZOOM;
	if (nspan < min)
		nspan = min;
	if (nspan >= hi - lo) {
		pt->span = 0;
		return;
	}
	/* The cursor keeps its column. */
	at = (double)(cursor - from) / (double)span;
	pt->span = nspan;
	pt->from = cursor - (uint64_t)(at * (double)nspan) ;
	if (pt->from < lo)
		pt->from = lo;
}

static int
pane_tl_action(struct pane *p, enum keys_action a)
{
	struct pane_tl		*pt = tlp_get(p);
	const struct tl		*tl = tlp_tl(p);
	const struct tl_mark	*mk;
	const struct tl_pause	*lp;
	uint64_t		 from, span, lo, hi, cur, cell;
	size_t			 n, i;

	if (pt == NULL || tl == NULL || p->view == NULL)
		return 0;
	tlp_view(pt, tl, &from, &span);
	tlp_run(tl, &lo, &hi);
	cur = view_cursor(p->view);
	cell = span / (uint64_t)(pt->cols > 0 ? pt->cols : 80);
	if (cell == 0)
		cell = 1;
	if (cur == VIEW_NO_CURSOR && a != KEYS_ENTER)
		cur = a == KEYS_LEFT || a == KEYS_RIGHT ? from + span - 1 :
		    from + span / 2;
	switch (a) {
	case KEYS_LEFT:
		tlp_goto(p, tl, cur > lo + cell ? cur - cell : lo, 0);
		return 1;
	case KEYS_RIGHT:
		tlp_goto(p, tl, cur + cell, 0);
		return 1;
	case KEYS_PGUP:
	case KEYS_PGDN:
		/* Time, by half a screen (Up and Down scroll the caps). */
		if (pt->span == 0)
			return 1;
		if (a == KEYS_PGUP)
			pt->from = pt->from > lo + span / 2 ? pt->from -
			    span / 2 : lo;
		else
			pt->from += span / 2;
		tlp_view(pt, tl, &from, &span);
		if (cur < from || cur >= from + span)
			view_set_cursor(p->view, a == KEYS_PGUP ? from +
			    span - 1 : from);
		return 1;
	case KEYS_TL_IN:
	case KEYS_TL_OUT:
		if (view_cursor(p->view) == VIEW_NO_CURSOR)
			view_set_cursor(p->view, cur);
		tlp_zoom(p, tl, cur, a == KEYS_TL_IN);
		return 1;
	case KEYS_TL_FIT:
		pt->span = 0;
		return 1;
	case KEYS_HOME:
		tlp_goto(p, tl, lo, 0);
		return 1;
	case KEYS_END:
		tlp_goto(p, tl, hi - 1, 0);
		return 1;
	case KEYS_TL_MARK_NEXT:
	case KEYS_TL_MARK_PREV:
		mk = tl_marks(tl, &n);
		if (a == KEYS_TL_MARK_NEXT) {
			for (i = 0; i < n && mk[i].time <= cur; i++)
				;
			if (i < n)
				tlp_goto(p, tl, mk[i].time, 0);
		} else {
			for (i = n; i > 0 && mk[i - 1].time >= cur; i--)
				;
			if (i > 0)
				tlp_goto(p, tl, mk[i - 1].time, 0);
		}
		return 1;
	case KEYS_TL_LONG_NEXT:
	case KEYS_TL_LONG_PREV:
		lp = tl_longest(tl, &n);
		if (n == 0)
			return 1;
		if (a == KEYS_TL_LONG_NEXT)
			pt->rank = pt->rank + 1 < (int)n ? pt->rank + 1 : 0;
		else
			pt->rank = pt->rank > 0 ? pt->rank - 1 : (int)n - 1;
		tlp_goto(p, tl, lp[pt->rank].start, 1);
		return 1;
	case KEYS_ENTER:
		return view_cursor(p->view) == VIEW_NO_CURSOR ? 1 : PANE_SEEK;
	default:
		return 0;
	}
}

static void
pane_tl_free(struct pane *p)
{
	struct pane_tl	*pt = p->data;

	if (pt != NULL)
		tl_read_free(pt->rd);
	free(pt);
	p->data = NULL;
}

const struct pane_ops pane_timeline_ops = {
	.name = "Timeline",
	.key = "8",
	.select = 0,
	.win = -1,
	.min = 4,
	.good = 8,
	.want = pane_tl_want,
	.title = pane_tl_title,
	.render = pane_tl_render,
	.action = pane_tl_action,
	.free = pane_tl_free,
};
