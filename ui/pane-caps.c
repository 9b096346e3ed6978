/*
 * pane-caps.c: one row per capability: what it does now (running thread
 * N, GC, idle), its time split mutator / GC / idle over the window as a
 * bar and in figures, and a sparkline of its recent history.  A last row
 * sums all capabilities, and a spark summary follows when there are any.
 *
 *   cap state   run%   gc%  mutator/GC/idle            history
 *     0 T12    62.0%  8.0%  ████████████▒▒░░░░░░░░  ▁▂▃▅▇█▇▅
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui.h"
#include "model/model.h"

#define CAPS_HIST	512	/* history slots a sparkline can show */

struct pane_caps {
	double		 hist[CAPS_HIST];
};

static int
pane_caps_count(const struct model *m, int *sparks)
{
	const struct model_cap	*c;
	int			 i, n = 0;

	*sparks = 0;
	for (i = 0; i < m->prog.ncaps && i < MODEL_MAX_CAPS; i++) {
		if ((c = m->caps[i]) == NULL || !c->exists)
			continue;
		n++;
		/* The RTS posts counters even when no spark was made. */
		if (c->sparks.crt != 0 || c->sparks.ev_create != 0 ||
		    c->sparks.ev_run != 0 || c->sparks.ev_steal != 0)
			*sparks = 1;
	}
	return n;
}

static int
pane_caps_want(struct pane *p, const struct model *m, int width)
{
	int	n, sparks;

	n = pane_caps_count(m, &sparks);
	if (n == 0)
		return 1;	/* says it is waiting */
	return 1 + n + (n > 1) + sparks;
}

static void
pane_caps_title(struct pane *p, const struct model *m, char *buf,
    size_t size)
{
	struct model_util	u;
	char			a[FMT_MAX], b[FMT_MAX];
	int			n, sparks;

	n = pane_caps_count(m, &sparks);
	model_caps_util(m, (enum model_win)p->win, &u);
	snprintf(buf, size, "%d cap%s  mutator %s  GC %s  (%s)", n,
	    n == 1 ? "" : "s", fmt_pct(a, u.run), fmt_pct(b, u.gc),
	    pane_win_name(p));
}

/* Column widths for a body width w. */
struct caps_cols {
	int	id, state, run, gc, bar, spark;
};

static void
pane_caps_cols(int w, struct caps_cols *c)
{
	int	rest;

	c->id = 4;
	c->state = 9;
	c->run = 7;
	c->gc = 7;
	rest = w - (c->id + 1 + c->state + c->run + c->gc + 2);
	if (rest < 4) {
		c->bar = c->spark = 0;
		return;
	}
	if (rest < 16) {
		c->bar = rest;
		c->spark = 0;
		return;
	}
	c->bar = rest * 11 / 20;
	c->spark = rest - c->bar - 1;
}

static void
pane_caps_row(struct lines *l, int y, const struct caps_cols *cc,
    const char *id, const char *state, int sattr,
    const struct model_util *u, const double *hist, int nh)
{
	struct fmt_seg	seg[3];
	char		a[FMT_MAX];
	int		x = 0;
	double		idle;

	lines_put_right(l, y, cc->id, LINES_BOLD, id);
	x = cc->id + 1;
	lines_put(l, y, x, sattr, state, cc->state - 1);
	x += cc->state;
	lines_put_right(l, y, x + cc->run - 1, LINES_MUT, fmt_pct(a, u->run));
	x += cc->run;
	lines_put_right(l, y, x + cc->gc - 1, LINES_GC, fmt_pct(a, u->gc));
	x += cc->gc + 1;
	if (cc->bar > 0) {
		idle = 1 - u->run - u->gc;
		seg[0].frac = u->run;
		seg[0].attr = LINES_MUT;
		seg[1].frac = u->gc;
		seg[1].attr = LINES_GC;
		seg[2].frac = idle > 0 ? idle : 0;
		seg[2].attr = LINES_IDLE;
		if (u->dur_ns == 0)
			seg[2].frac = 0;
		fmt_bar(l, y, x, cc->bar, seg, 3);
		x += cc->bar + 1;
	}
	if (cc->spark > 0 && nh > 0)
		fmt_spark(l, y, x, cc->spark, hist, nh, 1.0, LINES_SPARK);
}

/*
 * A chart of all capabilities over time, a column per 100 ms slot, the
 * newest on the right: the mutator share at the bottom, the share of
 * time in GC stacked on it.  rows x (width - 8) cells from row y.  A run
 * shorter than the chart is spread across it (a slot a few columns wide),
 * and the first and last slot are shares of the part of them the run
 * covers.
 */
static void
pane_caps_chart(struct pane_caps *pc, const struct model *m, struct lines *l,
    int y, int rows, int ncaps)
{
	static const uint32_t	 eighth[] = { 0x2581, 0x2582, 0x2583, 0x2584,
	    0x2585, 0x2586, 0x2587, 0x2588 };
	double			 gc[CAPS_HIST], run, g, top, span;
	char			 a[FMT_MAX];
	uint64_t		 s0, lo, hi;
	int			 w = l->width - 8, n, ng, i, r, x, cell, attr;

	if (w > CAPS_HIST)
		w = CAPS_HIST;
	if (w < 8 || rows < 2)
		return;
	n = model_history(m, MODEL_S_RUN_NS, pc->hist, w);
	ng = model_history(m, MODEL_S_GC_NS, gc, w);
	if (ng != n)
		return;
	lines_putf(l, y++, 1, LINES_BOLD, l->width - 1, "all capabilities, "
	    "last %s: mutator and GC", fmt_ns(a, (uint64_t)n *
	    MODEL_SLOT_NS));
	rows--;
	for (r = 0; r < rows; r++) {
		lines_put_right(l, y + r, 7, LINES_DIM, r == 0 ? "100%" :
		    r == rows - 1 ? "0%" : r == rows / 2 ? "50%" : "");
		lines_putc(l, y + r, 7, LINES_DIM, l->ascii ? '|' : 0x2502);
	}
	if (n == 0)
		return;
	s0 = m->now / MODEL_SLOT_NS - (uint64_t)(n - 1);	/* slot [0] */
	for (x = 8; x < 8 + w; x++) {
		i = (x - 8) * n / w;
		lo = (s0 + (uint64_t)i) * MODEL_SLOT_NS;
		hi = lo + MODEL_SLOT_NS;
		if (lo < m->prog.start)
			lo = m->prog.start;
		if (hi > m->now)
			hi = m->now;
		span = hi > lo ? (double)(hi - lo) : (double)MODEL_SLOT_NS;
		run = pc->hist[i] / (span * ncaps);
		g = gc[i] / span;
		if (run > 1)
			run = 1;
		if (g < 0)
			g = 0;
		if (run + g > 1)
			g = 1 - run;
		top = (run + g) * rows * 8;	/* in eighths of a cell */
		for (r = 0; r < rows; r++) {
			/* r counts from the bottom. */
			cell = (int)(top + 0.5) - r * 8;
			if (cell <= 0)
				break;
			attr = (r + 0.5) / rows < run ? LINES_MUT : LINES_GC;
			if (l->ascii)
				lines_putc(l, y + rows - 1 - r, x, attr,
				    cell >= 4 ? (attr == LINES_MUT ? '#' :
				    '=') : ' ');
			else
				lines_putc(l, y + rows - 1 - r, x, attr,
				    cell >= 8 ? 0x2588 : eighth[cell - 1]);
		}
	}
}

static void
pane_caps_render(struct pane *p, const struct model *m, struct lines *l)
{
	struct pane_caps	*pc = p->data;
	const struct model_cap	*c;
	struct model_util	 u;
	struct caps_cols	 cc;
	char			 id[16], state[32], a[FMT_MAX];
	int			 n, sparks, rows, y = 0, r, i, top, body, nh;
	int			 sattr, hw;
	double			 slots;
	enum model_win		 win = (enum model_win)p->win;

	if (pc == NULL) {
		if ((pc = calloc(1, sizeof *pc)) == NULL)
			return;
		p->data = pc;
	}
	n = pane_caps_count(m, &sparks);
	if (n == 0) {
		lines_put(l, 0, 1, LINES_DIM, "no capabilities seen yet",
		    l->width - 1);
		pane_rows(p, 0, l->height);
		return;
	}
	pane_caps_cols(l->width, &cc);
	rows = n + (n > 1) + sparks;
	body = l->height;
	if (body > rows) {
		/* Room for the headings. */
		lines_fill(l, 0, 0, l->width, LINES_HEAD, ' ');
		lines_put_right(l, 0, cc.id, LINES_HEAD, "cap");
		lines_put(l, 0, cc.id + 1, LINES_HEAD, "state", cc.state);
		lines_put_right(l, 0, cc.id + 1 + cc.state + cc.run - 1,
		    LINES_HEAD, "mut");
		lines_put_right(l, 0, cc.id + 1 + cc.state + cc.run + cc.gc -
		    1, LINES_HEAD, "GC");
		if (cc.bar > 0)
			lines_put(l, 0, cc.id + 1 + cc.state + cc.run + cc.gc +
			    1, LINES_HEAD, "mutator/GC/idle", cc.bar);
		if (cc.spark > 0) {
			hw = cc.spark;
			lines_putf(l, 0, l->width - cc.spark, LINES_HEAD, hw,
			    "last %s", fmt_ns(a, (uint64_t)hw * MODEL_SLOT_NS));
		}
		y = 1;
		body--;
	}
	top = pane_rows(p, rows, body);
	hw = cc.spark < CAPS_HIST ? cc.spark : CAPS_HIST;
	r = 0;
	for (i = 0; i < m->prog.ncaps && i < MODEL_MAX_CAPS; i++) {
		if ((c = m->caps[i]) == NULL || !c->exists)
			continue;
		if (r++ < top || y >= l->height)
			continue;
		snprintf(id, sizeof id, "%d", c->id);
		if (!c->enabled) {
			snprintf(state, sizeof state, "off");
			sattr = LINES_DIM;
		} else if (c->state == MODEL_CAP_RUN) {
			snprintf(state, sizeof state, "T%u", c->thread);
			sattr = LINES_MUT;
		} else if (c->state == MODEL_CAP_GC) {
			snprintf(state, sizeof state, "GC");
			sattr = LINES_GC;
		} else {
			snprintf(state, sizeof state, "idle");
			sattr = LINES_DIM;
		}
		model_cap_util(m, c, win, &u);
		nh = hw > 0 ? model_cap_history(m, c, pc->hist, hw) : 0;
		pane_caps_row(l, y++, &cc, id, state, sattr, &u, pc->hist, nh);
	}
	if (n > 1 && r++ >= top && y < l->height) {
		model_caps_util(m, win, &u);
		nh = hw > 0 ? model_history(m, MODEL_S_RUN_NS, pc->hist, hw) :
		    0;
		slots = (double)MODEL_SLOT_NS * n;
		for (i = 0; i < nh; i++)
			pc->hist[i] /= slots;
		pane_caps_row(l, y++, &cc, "all", "", LINES_NORMAL, &u,
		    pc->hist, nh);
	}
	if (sparks && r++ >= top && y < l->height) {
		char	b[6][FMT_MAX];

		lines_putf(l, y++, 1, LINES_NORMAL, l->width - 1,
		    l->width >= 90 ? "sparks (%s): %s created  %s converted  "
		    "%s fizzled  %s GC'd  %s dud  %s overflowed" :
		    "sparks %s: %s new %s run %s fizzled %s GC'd %s dud %s "
		    "ovf", pane_win_name(p),
		    fmt_count(b[0], (double)model_sum(m,
		    MODEL_S_SPARKS_CREATED, win)),
		    fmt_count(b[1], (double)model_sum(m,
		    MODEL_S_SPARKS_CONVERTED, win)),
		    fmt_count(b[2], (double)model_sum(m,
		    MODEL_S_SPARKS_FIZZLED, win)),
		    fmt_count(b[3], (double)model_sum(m, MODEL_S_SPARKS_GCD,
		    win)),
		    fmt_count(b[4], (double)model_sum(m, MODEL_S_SPARKS_DUD,
		    win)),
		    fmt_count(b[5], (double)model_sum(m,
		    MODEL_S_SPARKS_OVERFLOWED, win)));
	}
	/* Room to spare (zoomed): the chart. */
	if (top == 0 && l->height - y >= 8)
		pane_caps_chart(pc, m, l, y + 1, l->height - y - 1 > 16 ? 16 :
		    l->height - y - 1, n);
}

static void
pane_caps_free(struct pane *p)
{
	free(p->data);
	p->data = NULL;
}

const struct pane_ops pane_caps_ops = {
	.name = "Capabilities",
	.key = "1",
	.select = 0,
	.win = MODEL_W1,
	.min = 1,
	.good = 8,
	.want = pane_caps_want,
	.title = pane_caps_title,
	.render = pane_caps_render,
	.free = pane_caps_free,
};
