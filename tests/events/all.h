/*
 * all.h: a file's every event and its `evtop show` line, read with a
 * reader of the test's own, and a raw events line checked against them:
 * what t_evlist.c (files) and t_evlive.c (a live history) compare with.
 * Static functions: one test includes it once.
 */
#ifndef EVENTS_ALL_H
#define EVENTS_ALL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evtop.h"
#include "proto.h"
#include "time/evlist.h"

#define LINE_MAX_	(1 << 20)

struct all {
	char		**line;		/* whole lines */
	size_t		*len;
	struct evl_pos	*pos;
	size_t		 n;
};

static char	*buf;			/* LINE_MAX_ bytes, the test's */

/* Every event and its line; the reader is given back in *rp when rp is
 * not NULL, else freed. */
static int
load(const char *path, struct all *a, struct reader **rp)
{
	struct reader	*r;
	struct proto_ev	 ev;
	char		*cause = NULL;
	size_t		 cap = 0, k;

	memset(a, 0, sizeof *a);
	if ((r = reader_open(path, &cause)) == NULL) {
		free(cause);
		return -1;
	}
	while (reader_dec(r) != NULL && reader_next(r, &ev) == PROTO_EVENT) {
		if (a->n == cap) {
			cap = cap ? 2 * cap : 1024;
			a->line = realloc(a->line, cap * sizeof *a->line);
			a->len = realloc(a->len, cap * sizeof *a->len);
			a->pos = realloc(a->pos, cap * sizeof *a->pos);
		}
		k = proto_show_event(&ev, reader_dec(r), buf, LINE_MAX_);
		a->line[a->n] = malloc(k + 1);
		memcpy(a->line[a->n], buf, k);
		a->line[a->n][k] = '\0';
		a->len[a->n] = k;
		a->pos[a->n] = (struct evl_pos){ ev.time, ev.off };
		a->n++;
	}
	if (rp != NULL)
		*rp = r;
	else
		reader_free(r);
	return 0;
}

static void
unload(struct all *a)
{
	size_t	i;

	for (i = 0; i < a->n; i++)
		free(a->line[i]);
	free(a->line);
	free(a->len);
	free(a->pos);
}

/* Line l is the file's i-th: its place, its length, its text (cut at
 * EVL_TEXT, within a character). */
static int
same_line(const struct evl_line *l, const struct all *a, size_t i)
{
	return l->pos.time == a->pos[i].time && l->pos.off == a->pos[i].off &&
	    l->len == a->len[i] && l->ntext <= a->len[i] &&
	    memcmp(l->text, a->line[i], l->ntext) == 0 &&
	    (l->ntext == l->len || l->ntext + 4 > EVL_TEXT);
}

/*
 * `EVTOP show PATH` against the lines: 1 when it prints each of them, in
 * order, after "Events:"; 0 when not; 2 when it prints no events at all;
 * -1 when it cannot be run.
 */
static int
show_cmp(const char *evtop, const char *path, const struct all *a)
{
	char	 cmd[4096], *out = NULL, *p;
	size_t	 n = 0, cap = 0, got, i;
	FILE	*f;
	int	 good = 1;

	snprintf(cmd, sizeof cmd, "%s show '%s' 2>/dev/null", evtop, path);
	if ((f = popen(cmd, "r")) == NULL)
		return -1;
	for (;;) {
		if (n + 65536 > cap) {
			cap = cap ? 2 * cap : 1 << 20;
			out = realloc(out, cap + 1);
		}
		if ((got = fread(out + n, 1, cap - n, f)) == 0)
			break;
		n += got;
	}
	pclose(f);
	out[n] = '\0';
	if ((p = strstr(out, "\nEvents:\n")) == NULL) {
		free(out);
		return 2;
	}
	p += strlen("\nEvents:\n");
	for (i = 0; i < a->n && good; i++) {
		if ((size_t)(out + n - p) < a->len[i] + 1 ||
		    memcmp(p, a->line[i], a->len[i]) != 0 ||
		    p[a->len[i]] != '\n')
			good = 0;
		p += a->len[i] + 1;
	}
	free(out);
	return good;
}

/*
 * Read the whole history or file backwards from its end, step events at a
 * time (at most 512), each step's lines the file's: the events left
 * unread (0 when whole), and *bad, the steps or lines that were wrong.
 */
static size_t
back_all(struct evl *e, const struct all *a, size_t step, size_t *bad)
{
	static struct evl_line	 l[512];
	struct evl_pos		 at = { UINT64_MAX, UINT64_MAX }, first;
	size_t			 back = a->n, k, j;

	*bad = 0;
	if (step > 512)
		step = 512;
	while ((k = evl_back(e, at, step, &first)) > 0) {
		if (k > back || (k < step && back != k)) {
			(*bad)++;
			break;
		}
		back -= k;
		if (evl_read(e, first, l, k) != k)
			(*bad)++;
		for (j = 0; j < k; j++)
			if (!same_line(&l[j], a, back + j))
				(*bad)++;
		at = first;
	}
	return back;
}

#endif
