/*
 * pane-gc.c: garbage collection over the window: collections by
 * generation, pause percentiles and maximum, a histogram of pauses,
 * productivity and minimum mutator utilisation, bytes copied and the
 * parallel balance; then the recent collections, newest first.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ui.h"
#include "model/model.h"

/* The pause a histogram bucket ends at, in ns (bucket 0: 1 us). */
static uint64_t
pane_gc_bucket_end(int i)
{
	return (uint64_t)(1000.0 * pow(2.0, i / 2.0));
}

static int
pane_gc_hist_rows(const struct model_gc_win *g, int *lo, int *hi)
{
	int	i;

	*lo = -1;
	*hi = -1;
	for (i = 0; i < MODEL_NHIST; i++) {
		if (g->hist[i] == 0)
			continue;
		if (*lo < 0)
			*lo = i;
		*hi = i;
	}
	return *lo < 0 ? 0 : *hi - *lo + 1;
}

/* The summary: how many rows it takes at width w. */
#define PANE_GC_SUMMARY 4

static int
pane_gc_want(struct pane *p, const struct model *m, int width)
{
	if (m->gc.collections == 0 && m->gc.recs == 0)
		return 1;
	return PANE_GC_SUMMARY + 1 + (int)m->gc.recs;
}

static void
pane_gc_title(struct pane *p, const struct model *m, char *buf, size_t size)
{
	struct model_gc_win	g;
	char			a[FMT_MAX], b[FMT_MAX];

	model_gc_window(m, (enum model_win)p->win, &g);
	snprintf(buf, size, "%llu collections  productivity %s  max pause %s  "
	    "(%s)", (unsigned long long)g.count, fmt_pct(a, g.productivity),
	    fmt_ns(b, g.pause_max), pane_win_name(p));
}

static void
pane_gc_summary(struct pane *p, const struct model *m, struct lines *l,
    const struct model_gc_win *g, const struct model_gc_win *run, int *y)
{
	char	a[FMT_MAX], b[FMT_MAX], c[FMT_MAX], d[FMT_MAX], e[FMT_MAX];
	char	buf[256];
	const char *t;
	int	x, i, n, last;

	/* Pauses; "~" when the percentiles come from the histogram. */
	t = g->exact || g->count == 0 ? "" : "~";
	lines_putf(l, (*y)++, 1, LINES_NORMAL, l->width - 1,
	    "pauses  p50 %s%s  p90 %s%s  p99 %s%s  max %s  total %s",
	    t, fmt_ns(a, g->p50), t, fmt_ns(b, g->p90), t, fmt_ns(c, g->p99),
	    fmt_ns(d, g->pause_max), fmt_ns(e, g->pause_total));
	/* Generations. */
	n = snprintf(buf, sizeof buf, "by gen ");
	last = -1;
	for (i = 0; i < MODEL_NGEN; i++)
		if (g->count_gen[i] != 0)
			last = i;
	for (i = 0; i <= last && n < (int)sizeof buf; i++)
		n += snprintf(buf + n, sizeof buf - n, " %s%d: %llu",
		    i == MODEL_NGEN - 1 ? ">=" : "", i,
		    (unsigned long long)g->count_gen[i]);
	if (g->count_nogen != 0 && n < (int)sizeof buf)
		n += snprintf(buf + n, sizeof buf - n, "  ?: %llu",
		    (unsigned long long)g->count_nogen);
	if (last < 0 && g->count_nogen == 0 && n < (int)sizeof buf)
		snprintf(buf + n, sizeof buf - n, " none");
	x = 1 + lines_put(l, *y, 1, LINES_NORMAL, buf, l->width - 1);
	if (m->gc.in_gc)
		lines_put(l, *y, x + 2, LINES_GC, "collecting now",
		    l->width - x - 2);
	(*y)++;
	/* Utilisation; minimum mutator utilisation is over the run, "~"
	 * when its windows held more pauses than kept. */
	x = 1 + lines_putf(l, *y, 1, LINES_NORMAL, l->width - 1,
	    "productivity %s  MMU%s", fmt_pct(a, g->productivity),
	    run->mmu_exact ? "" : "~");
	for (i = 0; i < MODEL_NMMU; i++) {
		if (run->mmu[i] < 0)
			x += lines_putf(l, *y, x, LINES_DIM, l->width - x,
			    " %s -", fmt_ns(a, model_mmu_ns[i]));
		else
			x += lines_putf(l, *y, x, run->mmu[i] < 0.5 ?
			    LINES_WARN : LINES_NORMAL, l->width - x, " %s %s",
			    fmt_ns(a, model_mmu_ns[i]),
			    fmt_pct(b, run->mmu[i]));
	}
	lines_putf(l, *y, x, LINES_NORMAL, l->width - x, "  copied %s",
	    fmt_bytes(a, g->copied));
	(*y)++;
	/* Parallel work and sync. */
	if (g->balance >= 0)
		snprintf(a, sizeof a, "%.2f", g->balance);
	else
		snprintf(a, sizeof a, "-");
	/* (Requests are counted over the run, or the range: said.) */
	lines_putf(l, (*y)++, 1, LINES_NORMAL, l->width - 1,
	    "balance %s  sync max %s  total %s  requests %llu (%s)",
	    a, fmt_ns(b, g->sync_max), fmt_ns(c, g->sync_total),
	    (unsigned long long)MODEL_SINCE(m, m->gc.requests, requests),
	    m->range.on ? "range" : "run");
}

/* The histogram on one row: a sparkline from the first to the last
 * bucket used, with its bounds. */
static void
pane_gc_hist_line(struct lines *l, int y, const struct model_gc_win *g)
{
	double	v[MODEL_NHIST];
	char	a[FMT_MAX], b[FMT_MAX];
	int	lo, hi, n, i, x, w;

	n = pane_gc_hist_rows(g, &lo, &hi);
	x = 1 + lines_put(l, y, 1, LINES_NORMAL, "histogram ", l->width - 1);
	if (n == 0) {
		lines_put(l, y, x, LINES_DIM, "no pauses", l->width - x);
		return;
	}
	for (i = 0; i < n; i++)
		v[i] = (double)g->hist[lo + i];
	x += lines_putf(l, y, x, LINES_DIM, l->width - x, "%s ",
	    lo == 0 ? "0" : fmt_ns(a, pane_gc_bucket_end(lo - 1)));
	w = n;
	if (x + w + 8 > l->width)
		w = l->width - x - 8;
	if (w < 1)
		return;
	fmt_spark(l, y, x, w, v, n, 0, LINES_GC);
	x += w;
	lines_putf(l, y, x, LINES_DIM, l->width - x, " %s",
	    fmt_ns(b, pane_gc_bucket_end(hi)));
}

/* The histogram as rows of bars, when the pane is tall. */
static int
pane_gc_hist_block(struct lines *l, int y, int rows,
    const struct model_gc_win *g)
{
	char		a[FMT_MAX], b[FMT_MAX];
	uint64_t	max = 0;
	int		lo, hi, n, i, x;

	n = pane_gc_hist_rows(g, &lo, &hi);
	if (n == 0 || rows < 2)
		return 0;
	if (n > rows)
		lo = hi - rows + 1;	/* the longest pauses matter most */
	for (i = lo; i <= hi; i++)
		if (g->hist[i] > max)
			max = g->hist[i];
	for (i = lo; i <= hi; i++, y++) {
		x = 1;
		x += lines_putf(l, y, x, LINES_DIM, 20, "<%7s ",
		    fmt_ns(a, pane_gc_bucket_end(i)));
		x += lines_putf(l, y, x, LINES_NORMAL, 10, "%7s ",
		    fmt_count(b, (double)g->hist[i]));
		if (l->width - x - 1 > 0)
			fmt_meter(l, y, x, l->width - x - 1,
			    (double)g->hist[i] / (double)max, LINES_GC);
	}
	return hi - lo + 1;
}

static void
pane_gc_render(struct pane *p, const struct model *m, struct lines *l)
{
	struct model_gc_win	 g, run;
	const struct model_gc_rec *r;
	char			 a[FMT_MAX], b[FMT_MAX], c[FMT_MAX],
				 d[FMT_MAX], e[FMT_MAX], gen[8], bal[16];
	int			 y = 0, top, i, page, hrows, nrec;

	if (m->gc.collections == 0 && m->gc.recs == 0) {
		lines_put(l, 0, 1, LINES_DIM, "no collection seen yet",
		    l->width - 1);
		pane_rows(p, 0, l->height);
		return;
	}
	model_gc_window(m, (enum model_win)p->win, &g);
	if (p->win == MODEL_WRUN)
		run = g;
	else
		model_gc_window(m, MODEL_WRUN, &run);
	pane_gc_summary(p, m, l, &g, &run, &y);
	if (y >= l->height)
		return;
	/* A tall pane gets the histogram as bars. */
	if (l->height - y >= 16) {
		hrows = l->height - y - 8;
		if (hrows > 16)
			hrows = 16;
		y += pane_gc_hist_block(l, y, hrows, &g);
	} else
		pane_gc_hist_line(l, y++, &g);
	if (y + 1 >= l->height)
		return;
	/* Recent collections. */
	lines_fill(l, y, 0, l->width, LINES_HEAD, ' ');
	lines_putf(l, y++, 0, LINES_HEAD, l->width,
	    "%6s %3s %8s %7s %7s %7s %4s %5s %10s", "#", "gen", "pause",
	    "sync", "copied", "live", "par", "bal", "at");
	nrec = (int)m->gc.recs;
	page = l->height - y;
	top = pane_rows(p, nrec, page);
	for (i = top; i < nrec && y < l->height; i++) {
		if ((r = model_gc_recent(m, i)) == NULL)
			break;
		if (r->gen == MODEL_GEN_UNKNOWN)
			snprintf(gen, sizeof gen, "?");
		else
			snprintf(gen, sizeof gen, "%u", r->gen);
		if (r->par_threads > 1 && r->par_tot_copied > 0)
			snprintf(bal, sizeof bal, "%.2f",
			    (double)r->par_balanced / (double)r->par_tot_copied);
		else
			snprintf(bal, sizeof bal, "-");
		lines_putf(l, y, 0, LINES_NORMAL, l->width,
		    "%6llu %3s %8s %7s %7s %7s %4u %5s %10s",
		    (unsigned long long)r->seq, gen,
		    fmt_ns(a, r->end - r->start),
		    r->sync_ns ? fmt_ns(b, r->sync_ns) : "-",
		    fmt_bytes(c, r->copied),
		    r->live ? fmt_bytes(d, r->live) : "-",
		    r->par_threads, bal, fmt_time(e, r->start));
		/* The pause stands out when it is long. */
		if (r->end - r->start >= 10000000ULL)
			lines_attr(l, y, 11, 8, LINES_BAD);
		y++;
	}
}

const struct pane_ops pane_gc_ops = {
	.name = "GC",
	.key = "2",
	.select = 0,
	.win = MODEL_W10,
	.min = 2,
	.good = 4,
	.want = pane_gc_want,
	.title = pane_gc_title,
	.render = pane_gc_render,
};
