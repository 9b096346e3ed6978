/*
 * pane-heap.c: heap size, live data and allocation rate with sparklines;
 * then the heap profile: whether it is on, how old the last census is,
 * and its top bands with their change and trend over recent censuses.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui.h"
#include "model/model.h"

#define HEAP_HIST	512

struct pane_heap {
	double			 hist[HEAP_HIST];
	struct model_band_row	*rows;
	int			 nalloc;
};

static int
pane_heap_fixed(const struct model *m)
{
	return 3 + (m->prog.has_heap_info || m->heap.mr_events != 0);
}

/* Heap profiling said by HEAP_PROF_BEGIN, the options or a census. */
static int
pane_heap_on(const struct model *m)
{
	return m->prog.heap_prof || m->prog.hp_opt_breakdown != 0 ||
	    m->hprof.censuses != 0;
}

static int
pane_heap_want(struct pane *p, const struct model *m, int width)
{
	int	n = pane_heap_fixed(m);

	/* A blank row, the profile's line, headings and bands. */
	if (pane_heap_on(m))
		n += 2 + (m->hprof.bands != 0) +
		    (int)(m->hprof.bands < 64 ? m->hprof.bands : 64);
	return n;
}

static void
pane_heap_title(struct pane *p, const struct model *m, char *buf,
    size_t size)
{
	char	a[FMT_MAX], b[FMT_MAX], c[FMT_MAX];

	snprintf(buf, size, "size %s  live %s  alloc %s", fmt_bytes(a,
	    m->heap.size), fmt_bytes(b, m->heap.live), fmt_rate(c,
	    model_rate(m, MODEL_S_ALLOC, MODEL_W1)));
}

/* "label value  extra  sparkline" */
static void
pane_heap_gauge(struct pane_heap *ph, const struct model *m, struct lines *l,
    int y, const char *label, const char *value, const char *extra,
    enum model_series s, double max, int attr)
{
	int	x, w, n;

	lines_put(l, y, 1, LINES_NORMAL, label, 6);
	lines_put_right(l, y, 15, LINES_ACCENT, value);
	x = 16;
	x += lines_put(l, y, x, LINES_DIM, extra, l->width - x);
	x = x < 36 ? 36 : x + 1;
	w = l->width - x - 1;
	if (w > HEAP_HIST)
		w = HEAP_HIST;
	if (w < 4)
		return;
	n = model_history(m, s, ph->hist, w);
	fmt_spark(l, y, x, w, ph->hist, n, max, attr);
}

/* Enter: all a band says; for a -hi band, its whole IPE entry. */
static void
pane_heap_detail(const struct model *m, struct lines *l, int y,
    const struct model_band_row *r)
{
	const struct model_ipe	*e = model_band_ipe(m, r->band);
	char			 a[FMT_MAX];
	int			 x;

	lines_fill(l, y, 0, l->width, LINES_HEAD, ' ');
	x = lines_put(l, y, 0, LINES_HEAD, " ", l->width);
	x += lines_put_ev(l, y, x, LINES_HEAD, r->band->name,
	    strlen(r->band->name), l->width - x);
	if (e != NULL)
		x += lines_putf(l, y, x, LINES_HEAD, l->width - x,
		    "  %s  %s  type %s  label %s  module %s  at %s",
		    e->table_name, e->closure, e->type[0] ? e->type : "-",
		    e->label[0] ? e->label : "-", e->module[0] ? e->module :
		    "-", e->srcloc[0] && strcmp(e->srcloc, ":") != 0 ?
		    e->srcloc : "-");
	else if (r->band->info != 0)
		x += lines_put(l, y, x, LINES_HEAD, "  (no IPE entry: build "
		    "with -finfo-table-map)", l->width - x);
	lines_putf(l, y, x, LINES_HEAD, l->width - x, "  peak %s",
	    fmt_bytes(a, r->band->peak));
}

static void
pane_heap_profile(struct pane *p, struct pane_heap *ph, const struct model *m,
    struct lines *l, int y)
{
	const struct model_census *c;
	const struct model_band_row *r;
	const char	*by;
	char		 a[FMT_MAX], b[FMT_MAX], d[FMT_MAX], t[256];
	int		 want, n, i, k, top, page, x, nshown, sw, detail;
	size_t		 len;

	x = 1;
	if (!pane_heap_on(m)) {
		lines_put(l, y, 1, LINES_DIM, "heap profiling: off (run the "
		    "program with +RTS -h)", l->width - 1);
		pane_rows(p, 0, 1);
		return;
	}
	/* HEAP_PROF_BEGIN comes once, at start; a client that connected
	 * later knows the breakdown from the program's options. */
	by = proto_breakdown_name(m->prog.heap_prof ? m->prog.breakdown :
	    m->prog.hp_opt_breakdown);
	x += lines_put(l, y, x, LINES_NORMAL, "heap profile", l->width - x);
	if (by != NULL)
		x += lines_putf(l, y, x, LINES_NORMAL, l->width - x, " by %s",
		    by);
	if (m->prog.hp_opt_manual)
		x += lines_put(l, y, x, LINES_DIM, ", censuses on request "
		    "(c: one now, H/h: start/stop)", l->width - x);
	if (m->prog.hp_filters[0] != '\0') {
		x += lines_put(l, y, x, LINES_DIM, " [", l->width - x);
		x += lines_put_ev(l, y, x, LINES_DIM, m->prog.hp_filters,
		    strlen(m->prog.hp_filters), l->width - x - 1);
		x += lines_put(l, y, x, LINES_DIM, "]", l->width - x);
	}
	if (m->hprof.censuses == 0) {
		lines_put(l, y, x, LINES_WARN, ": no census yet", l->width -
		    x);
	} else {
		x += lines_putf(l, y, x, LINES_NORMAL, l->width - x,
		    ": census %llu, ", (unsigned long long)m->hprof.censuses);
		x += lines_putf(l, y, x, m->now - m->hprof.last_time >
		    10000000000ULL ? LINES_WARN : LINES_NORMAL, l->width - x,
		    "%s ago", fmt_ns(a, m->now - m->hprof.last_time));
		if ((c = model_census_recent(m, 0)) != NULL)
			x += lines_putf(l, y, x, LINES_NORMAL, l->width - x,
			    ", %s in %llu bands", fmt_bytes(b, c->total),
			    (unsigned long long)m->hprof.bands);
		if (m->hprof.in_census)
			lines_put(l, y, x, LINES_ACCENT, " (census running)",
			    l->width - x);
	}
	y++;
	if (y >= l->height || m->hprof.bands == 0) {
		pane_rows(p, 0, 1);
		return;
	}
	/* The bands. */
	sw = l->width >= 70 ? MODEL_NTREND : 0;
	lines_fill(l, y, 0, l->width, LINES_HEAD, ' ');
	lines_putf(l, y++, 0, LINES_HEAD, l->width, "%8s %6s %8s %-*s %s",
	    "bytes", "share", "change", sw, sw ? "trend" : "", "band");
	detail = p->detail && l->height - y >= 3;
	page = l->height - y - detail;
	want = p->filter[0] != '\0' ? MODEL_MAX_BANDS :
	    pane_rows_want(p, page);
	if (want < 1)
		want = 1;
	if (want > ph->nalloc) {
		free(ph->rows);
		ph->rows = calloc((size_t)want, sizeof *ph->rows);
		ph->nalloc = ph->rows != NULL ? want : 0;
		if (ph->rows == NULL)
			return;
	}
	n = model_top_bands(m, ph->rows, want);
	/* Keep those matching the filter at the front. */
	if (p->filter[0] != '\0') {
		for (i = k = 0; i < n; i++) {
			len = model_band_title(m, ph->rows[i].band, t,
			    sizeof t);
			if (fmt_match(t, len, p->filter))
				ph->rows[k++] = ph->rows[i];
		}
		n = k;
		nshown = n;
	} else
		nshown = (int)m->hprof.bands;
	top = pane_rows(p, nshown, page);
	for (i = top; i < n && y < l->height - detail; i++, y++) {
		r = &ph->rows[i];
		if (r->delta > 0)
			snprintf(d, sizeof d, "+%s", fmt_bytes(a,
			    (uint64_t)r->delta));
		else if (r->delta < 0)
			snprintf(d, sizeof d, "-%s", fmt_bytes(a,
			    (uint64_t)-r->delta));
		else
			snprintf(d, sizeof d, "0");
		x = lines_putf(l, y, 0, LINES_NORMAL, l->width, "%8s %6s ",
		    fmt_bytes(a, r->bytes), fmt_pct(b, r->share));
		lines_putf(l, y, x, r->delta > 0 ? LINES_WARN : r->delta < 0 ?
		    LINES_GOOD : LINES_DIM, 9, "%8s ", d);
		x += 9;
		if (sw > 0) {
			double	v[MODEL_NTREND];
			int	j;

			for (j = 0; j < r->ntrend && j < MODEL_NTREND; j++)
				v[j] = (double)r->trend[j];
			fmt_spark(l, y, x, sw, v, j, 0, LINES_SPARK);
			x += sw + 1;
		}
		len = model_band_title(m, r->band, t, sizeof t);
		lines_put_ev(l, y, x, LINES_ACCENT, t, len, l->width - x);
		if (p->filter[0] != '\0')
			lines_mark(l, y, x, p->filter, LINES_MATCH);
		if (p->focus && i == p->sel)
			lines_attr(l, y, 0, l->width, LINES_SELECT);
	}
	if (detail && p->sel >= 0 && p->sel < n)
		pane_heap_detail(m, l, l->height - 1, &ph->rows[p->sel]);
}

static void
pane_heap_render(struct pane *p, const struct model *m, struct lines *l)
{
	struct pane_heap	*ph = p->data;
	char			 a[FMT_MAX], b[64], c[FMT_MAX], d[FMT_MAX];
	double			 max;
	int			 y = 0;

	if (ph == NULL) {
		if ((ph = calloc(1, sizeof *ph)) == NULL)
			return;
		p->data = ph;
	}
	max = (double)m->heap.size_max;
	snprintf(b, sizeof b, "max %s", fmt_bytes(c, m->heap.size_max));
	if (m->heap.blocks != 0) {
		size_t n = strlen(b);

		snprintf(b + n, sizeof b - n, "  blocks %s",
		    fmt_bytes(d, m->heap.blocks));
	}
	pane_heap_gauge(ph, m, l, y++, "size", fmt_bytes(a, m->heap.size), b,
	    MODEL_S_HEAP_SIZE, max, LINES_SPARK);
	if (y >= l->height)
		goto out;
	snprintf(b, sizeof b, "max %s", fmt_bytes(c, m->heap.live_max));
	pane_heap_gauge(ph, m, l, y++, "live", fmt_bytes(a, m->heap.live), b,
	    MODEL_S_HEAP_LIVE, max, LINES_MUT);
	if (y >= l->height)
		goto out;
	snprintf(b, sizeof b, "total %s", fmt_bytes(c, m->heap.allocated));
	pane_heap_gauge(ph, m, l, y++, "alloc", fmt_rate(a, model_rate(m,
	    MODEL_S_ALLOC, MODEL_W1)), b, MODEL_S_ALLOC, 0, LINES_GC);
	if (y >= l->height)
		goto out;
	if (m->prog.has_heap_info || m->heap.mr_events != 0) {
		int	x = 1;

		if (m->prog.has_heap_info)
			x += lines_putf(l, y, x, LINES_DIM, l->width - x,
			    "%u gens  alloc area %s  max heap %s  ", m->prog.gens,
			    fmt_bytes(a, m->prog.alloc_area), m->prog.max_heap ?
			    fmt_bytes(c, m->prog.max_heap) : "none");
		if (m->heap.mr_events != 0)
			lines_putf(l, y, x, LINES_DIM, l->width - x,
			    "returned %s to the OS", fmt_bytes(a,
			    m->heap.mr_returned_total * (m->prog.mblock ?
			    m->prog.mblock : 1048576)));
		y++;
	}
	if (y + 1 < l->height)
		pane_heap_profile(p, ph, m, l, y + 1);
	return;
out:
	pane_rows(p, 0, 1);
}

static int
pane_heap_action(struct pane *p, enum keys_action a)
{
	if (a == KEYS_ENTER) {
		p->detail = !p->detail;
		return 1;
	}
	return 0;
}

static void
pane_heap_free(struct pane *p)
{
	struct pane_heap	*ph = p->data;

	if (ph != NULL)
		free(ph->rows);
	free(ph);
	p->data = NULL;
}

const struct pane_ops pane_heap_ops = {
	.name = "Heap",
	.key = "3",
	.select = 1,
	.win = -1,
	.min = 3,
	.good = 3,
	.want = pane_heap_want,
	.title = pane_heap_title,
	.render = pane_heap_render,
	.action = pane_heap_action,
	.free = pane_heap_free,
};
