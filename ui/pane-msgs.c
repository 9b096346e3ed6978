/*
 * pane-msgs.c: user messages, markers and RTS log lines, newest first;
 * the filter keeps those containing its text.
 */
#include <stdio.h>
#include <string.h>

#include "ui.h"
#include "model/model.h"

static const char *const pane_msgs_kind[] = {
	"msg", "mark", "log", "bin",
};

static int
pane_msgs_want(struct pane *p, const struct model *m, int width)
{
	if (m->msgs.kept == 0)
		return 0;
	return (int)(m->msgs.kept < 30 ? m->msgs.kept : 30);
}

static void
pane_msgs_title(struct pane *p, const struct model *m, char *buf,
    size_t size)
{
	snprintf(buf, size, "%llu messages  %llu markers  %llu log",
	    (unsigned long long)m->msgs.user,
	    (unsigned long long)m->msgs.markers,
	    (unsigned long long)m->msgs.log);
}

static void
pane_msgs_render(struct pane *p, const struct model *m, struct lines *l)
{
	const struct model_msg	*g;
	char			 a[FMT_MAX], cap[16];
	int			 i, k, n, top, y = 0, x, kind;

	if (m->msgs.kept == 0) {
		lines_put(l, 0, 1, LINES_DIM, "no message yet (traceEvent, "
		    "traceMarker)", l->width - 1);
		pane_rows(p, 0, 1);
		return;
	}
	/* Count the matches first, to place the selection. */
	n = 0;
	for (i = 0; (g = model_msg_recent(m, i)) != NULL; i++)
		if (fmt_match(g->text, strlen(g->text), p->filter))
			n++;
	if (n == 0) {
		lines_put(l, 0, 1, LINES_DIM, "no message matches",
		    l->width - 1);
		pane_rows(p, 0, 1);
		return;
	}
	top = pane_rows(p, n, l->height);
	k = 0;
	for (i = 0; y < l->height && (g = model_msg_recent(m, i)) != NULL;
	    i++) {
		if (!fmt_match(g->text, strlen(g->text), p->filter))
			continue;
		if (k++ < top)
			continue;
		if (g->cap >= 0)
			snprintf(cap, sizeof cap, "%d", g->cap);
		else
			snprintf(cap, sizeof cap, "-");
		kind = g->kind < 4 ? g->kind : 0;
		x = lines_putf(l, y, 0, LINES_DIM, l->width, "%11s %3s ",
		    fmt_time(a, g->time), cap);
		x += lines_putf(l, y, x, kind == MODEL_MSG_MARKER ? LINES_GOOD :
		    kind == MODEL_MSG_LOG ? LINES_WARN : LINES_NORMAL,
		    l->width - x, "%-5s", pane_msgs_kind[kind]);
		lines_put_ev(l, y, x, LINES_NORMAL, g->text, strlen(g->text),
		    l->width - x);
		if (p->focus && k - 1 == p->sel)
			lines_attr(l, y, 0, l->width, LINES_SELECT);
		if (p->filter[0] != '\0')
			lines_mark(l, y, 0, p->filter, LINES_MATCH);
		y++;
	}
}

const struct pane_ops pane_msgs_ops = {
	.name = "Messages",
	.key = "7",
	.select = 1,
	.win = -1,
	.min = 2,
	.good = 3,
	.want = pane_msgs_want,
	.title = pane_msgs_title,
	.render = pane_msgs_render,
};
