/*
 * loop-time.c: time in the loop: a file's first pass (checkpoints, the
 * timeline's summary) and its replay, seeking, ranges; and the same over
 * a live source's history.
 */
#include <stdio.h>
#include <string.h>

#include "loop/loop-priv.h"

/*
 * Whether the file changed since the first pass read it: shrunk, or
 * written over (a program run again rewrites its eventlog in place).  Its
 * checkpoints and places are another file's then: seeking is off for
 * good, the replay is held where it is, and what is shown stays; the
 * header says why.
 */
int
loop_file_changed(struct loop *l)
{
	const char	*why;

	if (l->file_changed[0] != '\0')
		return 1;
	if (l->tr == NULL || !travel_passed(l->tr) ||
	    (why = reader_changed(replay_reader(l->rp))) == NULL)
		return 0;
	snprintf(l->file_changed, sizeof l->file_changed, "%s since it was "
	    "read: no seeking", why);
	loop_log(l, "%s: %s", l->opts->target, l->file_changed);
	replay_hold(l->rp);
	l->changed = 1;
	return 1;
}

/* Said when something would read the file again. */
static int
loop_file_refused(struct loop *l, const char *what)
{
	if (!loop_file_changed(l))
		return 0;
	snprintf(l->st.cmd_msg, sizeof l->st.cmd_msg, "%s: %s", what,
	    l->file_changed);
	return 1;
}

/* Replay due events of a file, a slice at a time. */
void
loop_replay(struct loop *l, uint64_t start)
{
	const struct proto_ev *evs;
	size_t		k, n = 0;
	uint64_t	now = start;

	/* A look at the file now and then: a stat. */
	if (l->tr != NULL && start - l->file_checked >= LOOP_RATE_NS) {
		l->file_checked = start;
		(void)loop_file_changed(l);
	}

	while ((k = replay_take(l->rp, now, &evs)) > 0) {
		loop_events(l, evs, k);
		l->changed = 1;
		if ((n += k) >= 256) {
			n = 0;
			now = source_now();
			if (now - start >= LOOP_SLICE_NS)
				break;
		}
	}
	if (replay_done(l->rp) && l->st.conn != EVTOP_CONN_DONE) {
		if (l->relay != NULL)
			relay_end(l->relay, 1);
		model_flush(l->model);
		l->changed = 1;
	}
}

/*
 * The first pass over a file (travel.c), a slice at a time, before the
 * replay: checkpoints for seeking.  Then the replay starts from the start,
 * or from where a seek asked meanwhile; as fast as possible, it is done.
 */
static void
loop_pass_each(void *arg, const struct proto_ev *ev, size_t n)
{
	struct loop	*l = arg;

	l->events += n;		/* the header's rate: the pass's */
	if (l->tl != NULL)
		tl_event(l->tl, ev, n);
}

void
loop_pass(struct loop *l, uint64_t start)
{
	uint64_t	first, last;

	while (!travel_pass(l->tr, LOOP_PASS_N, loop_pass_each, l)) {
		l->changed = 1;
		if (source_now() - start >= LOOP_SLICE_NS)
			return;
	}
	l->changed = 1;
	loop_log(l, "first pass done: %d checkpoints", travel_checkpoints(l->tr,
	    NULL));
	if (!l->seek_pending && replay_asap(l->rp)) {
		/* At `*` the pass was the replay: the model holds the whole
		 * file, and the reader is at its end. */
		travel_span(l->tr, &first, &last);
		replay_moved(l->rp, last, 0);
		return;
	}
	(void)loop_seek(l, l->seek_pending ? l->seek_to : 0,
	    l->seek_pending);
	l->seek_pending = 0;
}

/* The model as it was at t, held there (hold) or replaying on: 0, or -1
 * if it is not (the file changed, or seeking failed). */
int
loop_seek(struct loop *l, uint64_t t, int hold)
{
	l->changed = 1;
	if (loop_file_refused(l, "g"))
		return -1;
	if (travel_seek(l->tr, t) == 0) {
		if (hold || t > 0)
			replay_moved(l->rp, t, hold);
		return 0;
	}
	if (loop_file_refused(l, "g"))
		return -1;	/* changed while seeking: held, as it is */
	/* A checkpoint could not be read back: from the start. */
	loop_log(l, "seek to %llu ns failed; replaying from the start",
	    (unsigned long long)t);
	snprintf(l->st.cmd_msg, sizeof l->st.cmd_msg, "seek failed "
	    "(checkpoints unreadable): replaying from the start");
	travel_free(l->tr);
	l->tr = NULL;
	model_free(l->model);
	l->model = model_new();
	model_on_program(l->model, export_program, &l->xp);
	model_header(l->model, replay_dec(l->rp));
	(void)reader_seek(replay_reader(l->rp), 0, 0);
	if (hold)
		replay_moved(l->rp, 0, hold);
	return -1;
}

/* A live source's past at t, held there; at or after the newest event,
 * now again. */
void
loop_view(struct loop *l, uint64_t t)
{
	struct redo_stats	 rs;
	const char		*why = NULL;

	redo_stats(l->redo, &rs);
	if (rs.on && t > rs.last) {
		redo_now(l->redo);
		return;
	}
	if (redo_view(l->redo, t, &why) != 0) {
		snprintf(l->st.cmd_msg, sizeof l->st.cmd_msg, "g: %s", why);
		return;
	}
	loop_log(l, "history: held at %llu ns", (unsigned long long)t);
}

/* A range of a live source's history, held at its end. */
void
loop_live_range(struct loop *l)
{
	uint64_t	 from, to;
	const char	*why = NULL;

	l->uiops->range(l->ui, &from, &to);
	if (redo_range(l->redo, from, to, &why) != 0) {
		snprintf(l->st.cmd_msg, sizeof l->st.cmd_msg, "range: %s",
		    why);
		return;
	}
	loop_log(l, "history: range %llu..%llu ns", (unsigned long long)from,
	    (unsigned long long)to);
}

/*
 * Show a range [from, to): the model at from, its run window reset there
 * (model_range_begin()), then the events up to to; held at to.
 */
void
loop_range(struct loop *l)
{
	uint64_t	from, to;

	l->uiops->range(l->ui, &from, &to);
	if (loop_seek(l, from, 1) != 0)
		return;		/* said why */
	model_range_begin(l->model, from, to);
	if (travel_apply(l->tr, to) != 0) {
		(void)loop_seek(l, from, 1);
		return;
	}
	replay_moved(l->rp, to, 1);
	loop_log(l, "range %llu..%llu ns", (unsigned long long)from,
	    (unsigned long long)to);
}
