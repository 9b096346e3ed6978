/*
 * pane-threads.c: Haskell threads, top style: state, why a blocked thread
 * waits, its capability, CPU share in the window and in all, label.
 * Counts by state go in the title, blocked reasons in a summary row.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui.h"
#include "model/model.h"

static const char *const pane_threads_sorts[] = {
	"cpu", "total", "id", NULL,
};
static const enum model_tsort pane_threads_tsort[] = {
	MODEL_TSORT_CPU, MODEL_TSORT_TOTAL, MODEL_TSORT_ID,
};

/* Short names of STOP_THREAD statuses. */
static const char *const pane_threads_why[MODEL_NREASONS] = {
	"", "heap overflow", "stack overflow", "yield", "blocked",
	"finished", "foreign call", "MVar", "black hole", "I/O read",
	"I/O write", "threadDelay", "STM retry", "asyncDoProc",
	"foreign call", "foreign call", "throwTo", "migrating", "throwTo",
	"?", "readMVar",
};

static const char *const pane_threads_state[MODEL_NTSTATES] = {
	"runnable", "running", "blocked", "finished",
};

struct pane_threads {
	struct model_thread_row	*rows;
	int			 nalloc;
};

static int
pane_threads_want(struct pane *p, const struct model *m, int width)
{
	if (m->threads.table == 0 && m->threads.created == 0)
		return 0;
	return 2 + (int)(m->threads.table < 40 ? m->threads.table : 40);
}

static void
pane_threads_title(struct pane *p, const struct model *m, char *buf,
    size_t size)
{
	const struct model_threads *t = &m->threads;

	snprintf(buf, size, "%u live: %u running %u runnable %u blocked  (%s)",
	    t->live, t->by_state[MODEL_T_RUNNING],
	    t->by_state[MODEL_T_RUNNABLE], t->by_state[MODEL_T_BLOCKED],
	    pane_win_name(p));
}

static const char *
pane_threads_why_name(unsigned why)
{
	return why < MODEL_NREASONS ? pane_threads_why[why] : "?";
}

static int
pane_threads_matches(const struct model_thread *t, const char *f)
{
	char	buf[32];
	int	n;

	if (fmt_match(t->label, strlen(t->label), f))
		return 1;
	n = snprintf(buf, sizeof buf, "%u", t->id);
	if (fmt_match(buf, (size_t)n, f))
		return 1;
	if (t->state < MODEL_NTSTATES && fmt_match(pane_threads_state[t->state],
	    strlen(pane_threads_state[t->state]), f))
		return 1;
	return t->state == MODEL_T_BLOCKED && fmt_match(
	    pane_threads_why_name(t->why), strlen(pane_threads_why_name(
	    t->why)), f);
}

/* The filter, as the model's query asks for it. */
static int
pane_threads_keep(const void *t, const void *f)
{
	return pane_threads_matches(t, f);
}

/* The blocked reasons, most common first, on one row. */
static void
pane_threads_reasons(const struct model *m, struct lines *l, int y)
{
	int	order[MODEL_NREASONS], n = 0, i, j, t, x;

	for (i = 0; i < MODEL_NREASONS; i++)
		if (m->threads.blocked_by[i] != 0)
			order[n++] = i;
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && m->threads.blocked_by[order[j - 1]] <
		    m->threads.blocked_by[order[j]]; j--) {
			t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	x = 1 + lines_put(l, y, 1, LINES_NORMAL, "blocked on", l->width - 1);
	if (n == 0)
		x += lines_put(l, y, x, LINES_DIM, ": nothing", l->width - x);
	for (i = 0; i < n && x < l->width; i++)
		x += lines_putf(l, y, x, LINES_NORMAL, l->width - x, "%s %s %u",
		    i ? "," : ":", pane_threads_why_name((unsigned)order[i]),
		    m->threads.blocked_by[order[i]]);
	x += 2;
	if (x < l->width)
		lines_putf(l, y, x, LINES_DIM, l->width - x, " %llu created, "
		    "%llu finished",
		    (unsigned long long)MODEL_SINCE(m, m->threads.created,
		    created),
		    (unsigned long long)MODEL_SINCE(m, m->threads.finished,
		    finished));
}

static void
pane_threads_detail(const struct model *m, struct lines *l, int y,
    const struct model_thread *t)
{
	char	a[FMT_MAX], b[FMT_MAX], c[FMT_MAX];
	int	x;

	lines_fill(l, y, 0, l->width, LINES_HEAD, ' ');
	x = lines_putf(l, y, 0, LINES_HEAD, l->width, " thread %u ", t->id);
	if (t->label[0] != '\0')
		x += lines_put_ev(l, y, x, LINES_HEAD, t->label,
		    strlen(t->label), l->width - x);
	lines_putf(l, y, x, LINES_HEAD, l->width - x,
	    "  created at %s, last seen %s ago; %u runs, %u migrations, %u "
	    "wakeups, CPU %s", fmt_time(a, t->created), fmt_ns(b, m->now >
	    t->last ? m->now - t->last : 0), t->runs, t->migrations,
	    t->wakeups, fmt_ns(c, t->cpu_ns));
}

static void
pane_threads_render(struct pane *p, const struct model *m, struct lines *l)
{
	struct pane_threads	*pt = p->data;
	const struct model_thread_row *r;
	const struct model_thread *t;
	char			 a[FMT_MAX], b[FMT_MAX], cap[16];
	struct model_rowq	 q;
	int			 y = 0, page, top, want, n, i, x, attr, base;
	int			 sortidx = p->sort % 3, reasons, detail;

	if (pt == NULL) {
		if ((pt = calloc(1, sizeof *pt)) == NULL)
			return;
		p->data = pt;
	}
	if (m->threads.table == 0) {
		lines_put(l, 0, 1, LINES_DIM, "no thread seen yet",
		    l->width - 1);
		pane_rows(p, 0, 1);
		return;
	}
	reasons = l->height >= 10;
	detail = p->detail && l->height >= 6;
	if (reasons)
		pane_threads_reasons(m, l, y++);
	lines_fill(l, y, 0, l->width, LINES_HEAD, ' ');
	x = lines_putf(l, y++, 0, LINES_HEAD, l->width,
	    "%8s %-9s%4s %-14s%7s %8s %7s ", "TID", "STATE", "CAP", "WHY",
	    sortidx == 0 ? "CPU%" : "cpu%", sortidx == 1 ? "CPU" : "cpu",
	    "runs");
	lines_put(l, y - 1, x, LINES_HEAD, "label", l->width - x);
	page = l->height - y - detail;
	/* A screenful, filtered and reversed by the query: not a sort of
	 * the whole table. */
	q.keep = p->filter[0] != '\0' ? pane_threads_keep : NULL;
	q.arg = p->filter;
	q.reverse = p->reverse;
	want = pane_rows_want(p, page);
	/* Scrolled past the middle of the whole table: the rows from its end,
	 * in the other order, cost less than all those before them. */
	base = 0;
	if (q.keep == NULL && want - page > (int)m->threads.table / 2) {
		base = pane_rows(p, (int)m->threads.table, page);
		q.reverse = !q.reverse;
		want = (int)m->threads.table - base;
	}
	if (want < 1)
		want = 1;
	if (want > pt->nalloc) {
		struct model_thread_row *nr;

		if ((nr = realloc(pt->rows, (size_t)want * sizeof *nr)) ==
		    NULL)
			return;
		pt->rows = nr;
		pt->nalloc = want;
	}
	n = model_threads_sorted(m, (enum model_win)p->win,
	    pane_threads_tsort[sortidx], pt->rows, want, &q);
	top = pane_rows(p, q.total, page);
	if (base > 0) {
		/* Back in the order asked: rows[i - base] is row i. */
		for (i = 0; i < n / 2; i++) {
			struct model_thread_row tmp = pt->rows[i];

			pt->rows[i] = pt->rows[n - 1 - i];
			pt->rows[n - 1 - i] = tmp;
		}
		n += base;
		if (top < base)
			top = base;	/* (the table cannot change meanwhile) */
	}
	for (i = top; i < n && y < l->height - detail; i++, y++) {
		r = &pt->rows[i - base];
		t = r->t;
		if (t->cap >= 0)
			snprintf(cap, sizeof cap, "%d", t->cap);
		else
			snprintf(cap, sizeof cap, "-");
		switch (t->state) {
		case MODEL_T_RUNNING:
			attr = LINES_MUT;
			break;
		case MODEL_T_BLOCKED:
			attr = LINES_WARN;
			break;
		case MODEL_T_FINISHED:
			attr = LINES_DIM;
			break;
		default:
			attr = LINES_NORMAL;
			break;
		}
		x = lines_putf(l, y, 0, LINES_NORMAL, l->width, "%8u ", t->id);
		x += lines_putf(l, y, x, attr, l->width - x, "%-9s",
		    t->state < MODEL_NTSTATES ? pane_threads_state[t->state] :
		    "?");
		x += lines_putf(l, y, x, LINES_NORMAL, l->width - x, "%4s ",
		    cap);
		x += lines_putf(l, y, x, t->state == MODEL_T_BLOCKED ?
		    LINES_NORMAL : LINES_DIM, 14, "%-14s",
		    t->state == MODEL_T_BLOCKED || t->state == MODEL_T_RUNNABLE ?
		    pane_threads_why_name(t->why) : "");
		x += lines_putf(l, y, x, LINES_NORMAL, l->width - x,
		    "%7s %8s %7u ", fmt_pct(a, r->share), fmt_ns(b, t->cpu_ns),
		    t->runs);
		lines_put_ev(l, y, x, LINES_ACCENT, t->label, strlen(t->label),
		    l->width - x);
		if (p->focus && i == p->sel)
			lines_attr(l, y, 0, l->width, LINES_SELECT);
		if (p->filter[0] != '\0')
			lines_mark(l, y, 0, p->filter, LINES_MATCH);
	}
	if (detail && p->sel >= base && p->sel < n)
		pane_threads_detail(m, l, l->height - 1,
		    pt->rows[p->sel - base].t);
}

static int
pane_threads_action(struct pane *p, enum keys_action a)
{
	if (a == KEYS_ENTER) {
		p->detail = !p->detail;
		return 1;
	}
	return 0;
}

static void
pane_threads_free(struct pane *p)
{
	struct pane_threads	*pt = p->data;

	if (pt != NULL)
		free(pt->rows);
	free(pt);
	p->data = NULL;
}

const struct pane_ops pane_threads_ops = {
	.name = "Threads",
	.key = "6",
	.sorts = pane_threads_sorts,
	.sorts_up = 1u << 2,		/* id */
	.select = 1,
	.win = MODEL_W1,
	.min = 3,
	.good = 5,
	.want = pane_threads_want,
	.title = pane_threads_title,
	.render = pane_threads_render,
	.action = pane_threads_action,
	.free = pane_threads_free,
};
