/*
 * uitest.h: helpers shared by the UI's tests and benchmark (header-only,
 * static functions): a model from a real eventlog, the way the loop
 * replays a file, and frames rendered to text.
 */
#ifndef UITEST_H
#define UITEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui.h"
#include "model/model.h"
#include "time/tl.h"

#define UITEST_FN static __attribute__((unused))

/* A model fed with every event of an eventlog, in time order. */
UITEST_FN struct model *
uitest_model(const char *path)
{
	struct reader	*mg;
	struct model	*m;
	struct proto_ev	 ev;
	char		*cause = NULL;

	if ((mg = reader_open(path, &cause)) == NULL) {
		fprintf(stderr, "%s: %s\n", path, cause ? cause : "?");
		free(cause);
		return NULL;
	}
	if ((m = model_new()) == NULL) {
		reader_free(mg);
		return NULL;
	}
	model_set_reorder(m, 0, 0);
	model_header(m, reader_dec(mg));
	while (reader_next(mg, &ev) == PROTO_EVENT)
		model_apply(m, &ev);
	model_flush(m);
	reader_free(mg);
	return m;
}

/* The timeline's summary of an eventlog, every event in time order. */
UITEST_FN struct tl *
uitest_tl(const char *path)
{
	struct reader	*mg;
	struct tl	*tl;
	struct proto_ev	 ev;
	char		*cause = NULL;

	if ((mg = reader_open(path, &cause)) == NULL) {
		free(cause);
		return NULL;
	}
	if ((tl = tl_new()) != NULL)
		while (reader_next(mg, &ev) == PROTO_EVENT)
			tl_event(tl, &ev, 1);
	reader_free(mg);
	return tl;
}

/* A status as the loop gives it for a finished replay of path. */
UITEST_FN void
uitest_status(struct evtop_status *st, const char *path,
    enum evtop_src_kind kind)
{
	memset(st, 0, sizeof *st);
	st->source = path;
	st->kind = kind;
	st->conn = kind == EVTOP_SRC_FILE ? EVTOP_CONN_DONE : EVTOP_CONN_OPEN;
	st->speed = 1;
	st->wall_ns = 1700000000ULL * 1000000000ULL;
}

/* The frame at w x h as text, one line a row. */
UITEST_FN const char *
uitest_frame(struct view *v, const struct model *m,
    const struct evtop_status *st, int w, int h, int ascii)
{
	static char	 buf[1 << 17];
	struct lines	 s;

	lines_init(&s, w, h);
	s.ascii = ascii;
	view_render(v, m, st, &s);
	lines_text(&s, buf, sizeof buf);
	lines_free(&s);
	return buf;
}

/* One pane's body at w x h as text. */
UITEST_FN const char *
uitest_pane(struct pane *p, const struct model *m, int w, int h)
{
	static char	 buf[1 << 17];
	struct lines	 l;

	lines_init(&l, w, h);
	p->ops->render(p, m, &l);
	lines_text(&l, buf, sizeof buf);
	lines_free(&l);
	return buf;
}

/* A key press as ui.c would translate it. */
UITEST_FN struct keys_key
uitest_key(int kind, int code)
{
	struct keys_key	k;

	memset(&k, 0, sizeof k);
	k.kind = (enum keys_kind)kind;
	k.code = code;
	if (kind == KEYS_CHAR && code < 0x80) {
		k.utf8[0] = (char)code;
		k.utf8[1] = '\0';
	}
	return k;
}

#endif
