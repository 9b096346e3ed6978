/*
 * pane-ccs.c: the time profile, py-spy top / perf top style.  One row
 * per cost centre, by self or total samples over the window, with
 * percentage bars; the name as Module.label followed by its hottest
 * callers over the run (the stack innermost first).  Enter shows the
 * window's stacks that end in the selected cost centre.
 *
 *    self  total                     cost centre  <- callers
 *   45.2%  78.1%  ███████▌           Main.fib  <- Main.go <- Main.main
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui.h"
#include "model/model.h"

#define CCS_NSTACKS	512	/* stacks searched for callers */

static const char *const pane_ccs_sorts[] = { "self", "total", NULL };

struct pane_ccs {
	struct model_cc_row	*rows;
	int			 nalloc;
	struct model_stack_row	 stacks[CCS_NSTACKS];
};

static int
pane_ccs_want(struct pane *p, const struct model *m, int width)
{
	if (m->prof.samples_total == 0 && !m->prog.prof)
		return 0;
	return 1 + (int)(m->prof.ccs < 40 ? m->prof.ccs : 40);
}

static void
pane_ccs_title(struct pane *p, const struct model *m, char *buf, size_t size)
{
	char	a[FMT_MAX], b[FMT_MAX];

	if (m->prof.samples_total == 0 && !m->prog.prof) {
		snprintf(buf, size, "no time profile");
		return;
	}
	snprintf(buf, size, "%s samples (%s)%s%s", fmt_count(a,
	    (double)model_prof_samples(m, (enum model_win)p->win)),
	    pane_win_name(p), m->prog.tick_ns ? "  tick " : "",
	    m->prog.tick_ns ? fmt_ns(b, m->prog.tick_ns) : "");
}

/* "Module.label" of a cost centre id. */
static const char *
pane_ccs_name(const struct model *m, uint32_t id, char *buf, size_t size)
{
	const struct model_cc	*cc = model_cc_find(m, id);

	if (cc == NULL || !cc->defined)
		snprintf(buf, size, "#%u", id);
	else if (cc->module[0] != '\0')
		snprintf(buf, size, "%s.%s", cc->module, cc->label);
	else
		snprintf(buf, size, "%s", cc->label);
	return buf;
}

static int
pane_ccs_matches(const struct model_cc *cc, const char *filter)
{
	char	buf[512];
	int	n;

	n = snprintf(buf, sizeof buf, "%s.%s", cc->module, cc->label);
	if (n < 0)
		return 0;
	if (n >= (int)sizeof buf)
		n = sizeof buf - 1;
	return fmt_match(buf, (size_t)n, filter);
}

/* The filter, as the model's query asks for it. */
static int
pane_ccs_keep(const void *cc, const void *filter)
{
	return pane_ccs_matches(cc, filter);
}

static int
pane_ccs_grow(struct pane_ccs *pc, int want)
{
	struct model_cc_row	*r;

	if (want <= pc->nalloc)
		return 0;
	if ((r = realloc(pc->rows, (size_t)want * sizeof *r)) == NULL)
		return -1;
	pc->rows = r;
	pc->nalloc = want;
	return 0;
}

/* Write the callers of the hottest stack ending in id after x. */
static void
pane_ccs_callers(const struct model *m, struct lines *l, int y, int x,
    uint32_t id, const struct model_stack_row *st, int nst)
{
	const char	*arrow = l->ascii ? " <- " : " \xe2\x86\x90 ";
	char		 buf[512];
	uint32_t	 i;
	int		 k;

	for (k = 0; k < nst; k++) {
		if (st[k].depth > 0 && st[k].ids[0] == id)
			break;
	}
	if (k == nst)
		return;
	for (i = 1; i < st[k].depth && x < l->width; i++) {
		x += lines_put(l, y, x, LINES_DIM, arrow, l->width - x);
		pane_ccs_name(m, st[k].ids[i], buf, sizeof buf);
		x += lines_put_ev(l, y, x, LINES_DIM, buf, strlen(buf),
		    l->width - x);
	}
}

/* The stacks ending in id, one a row, from row y. */
static void
pane_ccs_detail(const struct model *m, struct lines *l, int y, uint32_t id,
    const struct model_stack_row *st, int nst)
{
	const struct model_cc	*cc = model_cc_find(m, id);
	const char		*arrow = l->ascii ? " <- " : " \xe2\x86\x90 ";
	char			 buf[512], a[FMT_MAX];
	uint32_t		 i;
	int			 k, x;

	lines_fill(l, y, 0, l->width, LINES_HEAD, ' ');
	pane_ccs_name(m, id, buf, sizeof buf);
	x = lines_put(l, y, 0, LINES_HEAD, " stacks ending in ", l->width);
	x += lines_put_ev(l, y, x, LINES_HEAD, buf, strlen(buf), l->width -
	    x);
	if (cc != NULL && cc->srcloc[0] != '\0') {
		x += lines_put(l, y, x, LINES_HEAD, " at ", l->width - x);
		lines_put_ev(l, y, x, LINES_HEAD, cc->srcloc,
		    strlen(cc->srcloc), l->width - x);
	}
	y++;
	for (k = 0; k < nst && y < l->height; k++) {
		if (st[k].depth == 0 || st[k].ids[0] != id)
			continue;
		x = lines_putf(l, y, 0, LINES_NORMAL, l->width, "%7s  ",
		    fmt_pct(a, st[k].share));
		for (i = 0; i < st[k].depth && x < l->width; i++) {
			if (i > 0)
				x += lines_put(l, y, x, LINES_DIM, arrow,
				    l->width - x);
			pane_ccs_name(m, st[k].ids[i], buf, sizeof buf);
			x += lines_put_ev(l, y, x, i == 0 ? LINES_ACCENT :
			    LINES_NORMAL, buf, strlen(buf), l->width - x);
		}
		y++;
	}
}

static void
pane_ccs_render(struct pane *p, const struct model *m, struct lines *l)
{
	struct pane_ccs		*pc = p->data;
	const struct model_cc_row *r;
	enum model_win		 win = (enum model_win)p->win;
	char			 a[FMT_MAX], b[FMT_MAX], name[512];
	struct model_rowq	 q;
	int			 y = 0, page, top, want, n, i, bw, x, nst;
	int			 detail, by_self = p->sort == 0, body;
	double			 v;

	if (pc == NULL) {
		if ((pc = calloc(1, sizeof *pc)) == NULL)
			return;
		p->data = pc;
	}
	if (m->prof.samples_total == 0) {
		lines_put(l, 0, 1, LINES_DIM, m->prog.prof ? "time profiling "
		    "is on; no sample yet" : "no time profile (a profiled "
		    "program run with +RTS -p -l)", l->width - 1);
		pane_rows(p, 0, 1);
		return;
	}
	bw = l->width >= 100 ? 24 : l->width >= 60 ? 12 : 0;
	lines_fill(l, 0, 0, l->width, LINES_HEAD, ' ');
	x = lines_putf(l, 0, 0, LINES_HEAD, l->width, "%7s %7s  %-*s",
	    by_self ? "SELF" : "self", by_self ? "total" : "TOTAL", bw,
	    "");
	lines_put(l, 0, x, LINES_HEAD, "cost centre  (callers)", l->width - x);
	y = 1;
	body = l->height - 1;
	detail = p->detail && body >= 6;
	if (detail)
		body -= body / 2;
	page = body;
	/* A screenful, filtered and reversed by the query: not a sort of
	 * every cost centre. */
	q.keep = p->filter[0] != '\0' ? pane_ccs_keep : NULL;
	q.arg = p->filter;
	q.reverse = p->reverse;
	want = pane_rows_want(p, page);
	if (pane_ccs_grow(pc, want) < 0)
		return;
	n = model_top_ccs(m, win, !by_self, pc->rows, want, &q);
	top = pane_rows(p, q.total, page);
	/*
	 * The callers come from the hottest stacks of the whole run: they
	 * change little, and the run's counts cost less to read than a
	 * window's.  The detail (Enter) shows the window's stacks.
	 */
	nst = model_top_stacks(m, detail ? win : MODEL_WRUN, pc->stacks,
	    CCS_NSTACKS);
	for (i = top; i < n && y < 1 + page; i++, y++) {
		r = &pc->rows[i];
		x = lines_putf(l, y, 0, LINES_NORMAL, l->width, "%7s %7s  ",
		    fmt_pct(a, r->self_share), fmt_pct(b, r->total_share));
		if (bw > 0) {
			v = by_self ? r->self_share : r->total_share;
			fmt_meter(l, y, x, bw, v, by_self ? LINES_MUT :
			    LINES_ACCENT);
			x += bw + 1;
		}
		pane_ccs_name(m, r->cc->id, name, sizeof name);
		x += lines_put_ev(l, y, x, LINES_ACCENT, name, strlen(name),
		    l->width - x);
		pane_ccs_callers(m, l, y, x, r->cc->id, pc->stacks, nst);
		if (p->focus && i == p->sel)
			lines_attr(l, y, 0, l->width, LINES_SELECT);
		if (p->filter[0] != '\0')
			lines_mark(l, y, 0, p->filter, LINES_MATCH);
	}
	if (detail && p->sel >= 0 && p->sel < n)
		pane_ccs_detail(m, l, 1 + page, pc->rows[p->sel].cc->id,
		    pc->stacks, nst);
}

static int
pane_ccs_action(struct pane *p, enum keys_action a)
{
	switch (a) {
	case KEYS_SELF_TOTAL:
		p->sort = !p->sort;
		p->reverse = 0;
		return 1;
	case KEYS_ENTER:
		p->detail = !p->detail;
		return 1;
	default:
		return 0;
	}
}

static void
pane_ccs_free(struct pane *p)
{
	struct pane_ccs	*pc = p->data;

	if (pc != NULL)
		free(pc->rows);
	free(pc);
	p->data = NULL;
}

const struct pane_ops pane_ccs_ops = {
	.name = "Cost centres",
	.key = "5",
	.sorts = pane_ccs_sorts,
	.select = 1,
	.win = MODEL_W10,
	.min = 3,
	.good = 5,
	.want = pane_ccs_want,
	.title = pane_ccs_title,
	.render = pane_ccs_render,
	.action = pane_ccs_action,
	.free = pane_ccs_free,
};
