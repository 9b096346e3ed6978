/*
 * pane-nonmoving.c: the nonmoving (concurrent) old generation: the
 * current phase, mark / sync / sweep totals, the latest census per block
 * size with occupancy and fragmentation bars, and the recent cycles.
 * A size's capacity counts its active and filled segments and the current
 * segment of each capability ("cur"), whose marked blocks GHC counts live.
 */
#include <stdio.h>
#include <string.h>

#include "ui.h"
#include "model/model.h"

static int
pane_nm_active(const struct model *m)
{
	const struct model_nonmoving *nm = &m->nm;

	return nm->censuses != 0 || nm->marks != 0 || nm->syncs != 0 ||
	    nm->sweeps != 0 || nm->phase != MODEL_NM_IDLE;
}

static int
pane_nm_classes(const struct model *m)
{
	return m->nm.nsizes < MODEL_NM_SIZES ? m->nm.nsizes : MODEL_NM_SIZES;
}

static int
pane_nm_want(struct pane *p, const struct model *m, int width)
{
	int	n;

	if (!pane_nm_active(m))
		return 0;
	n = pane_nm_classes(m);
	return 2 + (n > 0 ? 1 + n : 0) + (m->nm.recs > 0 ? 1 +
	    (int)(m->nm.recs < 8 ? m->nm.recs : 8) : 0);
}

static const char *const pane_nm_phases[] = {
	"idle", "marking", "sync", "sweeping",
};

static void
pane_nm_title(struct pane *p, const struct model *m, char *buf, size_t size)
{
	char	a[FMT_MAX], b[FMT_MAX];

	if (!pane_nm_active(m)) {
		snprintf(buf, size, "not in use");
		return;
	}
	snprintf(buf, size, "%s  live %s in %s of segments",
	    pane_nm_phases[m->nm.phase % 4], fmt_bytes(a, m->nm.live_bytes),
	    fmt_bytes(b, m->nm.seg_bytes));
}

static void
pane_nm_render(struct pane *p, const struct model *m, struct lines *l)
{
	const struct model_nonmoving *nm = &m->nm;
	const struct model_nm_size *s;
	const struct model_nm_rec *r;
	char		 a[FMT_MAX], b[FMT_MAX], c[FMT_MAX], d[FMT_MAX],
			 e[FMT_MAX];
	int		 y = 0, x, i, bw = 0, rows, top, k, n;

	if (!pane_nm_active(m)) {
		lines_put(l, 0, 1, LINES_DIM, "no nonmoving collector activity "
		    "(it runs with +RTS -xn)", l->width - 1);
		pane_rows(p, 0, 1);
		return;
	}
	x = 1 + lines_put(l, y, 1, LINES_NORMAL, "phase ", l->width - 1);
	x += lines_put(l, y, x, nm->phase == MODEL_NM_IDLE ? LINES_DIM :
	    LINES_GC, pane_nm_phases[nm->phase % 4], l->width - x);
	if (nm->phase != MODEL_NM_IDLE)
		x += lines_putf(l, y, x, LINES_NORMAL, l->width - x, " for %s",
		    fmt_ns(a, m->now - nm->phase_since));
	lines_putf(l, y, x, LINES_NORMAL, l->width - x,
	    "  mark %llu x %s (%s objects)  sync %llu, max %s  sweep %llu x "
	    "%s", (unsigned long long)nm->marks, fmt_ns(a, nm->mark_ns),
	    fmt_count(b, (double)nm->marked), (unsigned long long)nm->syncs,
	    fmt_ns(c, nm->sync_max_ns), (unsigned long long)nm->sweeps,
	    fmt_ns(d, nm->sweep_ns));
	if (++y >= l->height)
		return;
	x = 1;
	if (nm->censuses != 0)
		x += lines_putf(l, y, x, LINES_NORMAL, l->width - x,
		    "census %llu at %s: live %s in %s of segments  ",
		    (unsigned long long)nm->censuses, fmt_time(a,
		    nm->census_time), fmt_bytes(b, nm->live_bytes),
		    fmt_bytes(c, nm->seg_bytes));
	else
		x += lines_put(l, y, x, LINES_DIM, "no census yet  ",
		    l->width - x);
	lines_putf(l, y, x, LINES_DIM, l->width - x,
	    "pruned %llu  flushes %llu",
	    (unsigned long long)nm->pruned_total,
	    (unsigned long long)nm->flushes);
	if (++y >= l->height)
		return;
	/* The census by block size. */
	n = pane_nm_classes(m);
	rows = n + (nm->recs > 0 ? 1 + (int)nm->recs : 0);
	if (n > 0) {
		/* 45 columns of figures, 7 + 5 of percentages, 2 gaps. */
		bw = (l->width - 59) / 2;
		if (bw > 30)
			bw = 30;
		lines_fill(l, y, 0, l->width, LINES_HEAD, ' ');
		lines_putf(l, y, 0, LINES_HEAD, l->width,
		    "%7s %7s %7s %3s %15s  %-*s %s", "block", "active", "filled",
		    "cur", "live/capacity", bw > 0 ? bw + 8 : 7, "occupancy",
		    bw > 4 ? "fragmentation" : "frag");
		y++;
	}
	top = pane_rows(p, rows, l->height - y);
	k = 0;
	for (i = 0; i < n && y < l->height; i++) {
		s = &nm->sizes[i];
		if (k++ < top)
			continue;
		if (s->capacity > 0)
			snprintf(e, sizeof e, "%u/%llu", s->live,
			    (unsigned long long)s->capacity);
		else
			snprintf(e, sizeof e, "%u/-", s->live);
		x = lines_putf(l, y, 0, LINES_NORMAL, l->width,
		    "%7s %7u %7u %3u %15s  ", fmt_bytes(a, s->blk_size),
		    s->active, s->filled, s->current, e);
		if (s->capacity == 0) {
			/* A class of no block size: no share to show. */
			lines_putf(l, y, x, LINES_DIM, l->width - x, "%*s",
			    bw > 0 ? bw + 6 : 5, "-");
			y++;
			continue;
		}
		if (bw > 0) {
			fmt_meter(l, y, x, bw, s->occupancy, LINES_MUT);
			x += bw + 1;
		}
		x += lines_putf(l, y, x, LINES_NORMAL, 7, "%5s  ",
		    fmt_pct(a, s->occupancy));
		if (bw > 0) {
			fmt_meter(l, y, x, bw, s->frag, LINES_GC);
			x += bw + 1;
		}
		lines_putf(l, y, x, s->frag > 0.5 ? LINES_WARN : LINES_NORMAL,
		    l->width - x, "%5s", fmt_pct(a, s->frag));
		y++;
	}
	if (nm->recs == 0 || y >= l->height)
		return;
	if (k++ >= top) {
		lines_fill(l, y, 0, l->width, LINES_HEAD, ' ');
		lines_putf(l, y++, 0, LINES_HEAD, l->width, "%10s %9s %10s %9s "
		    "%9s", "cycle at", "mark", "objects", "sync", "sweep");
	}
	for (i = 0; y < l->height; i++) {
		if ((r = model_nm_recent(m, i)) == NULL)
			break;
		if (k++ < top)
			continue;
		lines_putf(l, y++, 0, LINES_NORMAL, l->width,
		    "%10s %9s %10s %9s %9s", fmt_time(a, r->mark_start),
		    r->mark_ns ? fmt_ns(b, r->mark_ns) : "-",
		    fmt_count(c, (double)r->marked),
		    r->sync_ns ? fmt_ns(d, r->sync_ns) : "-",
		    r->sweep_ns ? fmt_ns(e, r->sweep_ns) : "-");
	}
}

const struct pane_ops pane_nonmoving_ops = {
	.name = "Nonmoving",
	.key = "4",
	.select = 0,
	.win = -1,
	.min = 2,
	.good = 4,
	.want = pane_nm_want,
	.title = pane_nm_title,
	.render = pane_nm_render,
};
