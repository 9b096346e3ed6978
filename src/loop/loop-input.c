/*
 * loop-input.c: a live source's bytes in (recorded, kept in the history,
 * decoded), its events to the model and to all else that wants them, and
 * control commands out once the program can take them.
 */
#include <stdio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "loop/loop-priv.h"

/* What an event means to all but the model. */
static void
loop_event_aside(struct loop *l, const struct proto_ev *ev)
{
	switch (ev->kind) {
	case PROTO_WALL_CLOCK_TIME:
	case PROTO_HEAP_PROF_SAMPLE_BEGIN:
	case PROTO_PROF_SAMPLE_COST_CENTRE:
		control_event(l->ctl, ev);
		break;
	}
	if (ev->time > l->max_time)
		l->max_time = ev->time;
	if (l->relay != NULL)
		relay_event(l->relay, ev);
	/* Each event once: a file's first pass fed the summary the whole
	 * run (loop_pass()); without one, a replay that goes back is not
	 * fed again what the summary has. */
	if (l->tl != NULL && l->tr == NULL && (l->rp == NULL ||
	    ev->time >= tl_now(l->tl) || tl_events(l->tl) == 0))
		tl_event(l->tl, ev, 1);
}

static void
loop_event(struct loop *l, const struct proto_ev *ev)
{
	loop_event_aside(l, ev);
	/* While the history is applied again, it has the event. */
	if (l->redo == NULL || redo_event(l->redo, ev))
		model_apply(l->model, ev);
	l->events++;
	/* Another program: the timeline starts afresh too, from the event
	 * the model began it with (or one shortly after). */
	if (l->tl != NULL && l->model->prog.resets != l->tl_resets) {
		l->tl_resets = l->model->prog.resets;
		tl_reset(l->tl);
		tl_event(l->tl, ev, 1);
	}
}

/* loop_event() for ev[0..n), the model's share in one call (a replay at
 * full speed: half the model's cost an event is its call). */
void
loop_events(struct loop *l, const struct proto_ev *ev, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		loop_event_aside(l, &ev[i]);
	/* It stops before an event at UINT64_MAX, which model_apply() does
	 * not apply either: passed over. */
	for (i = 0; i < n; i++)
		i += model_apply_until(l->model, ev + i, n - i, UINT64_MAX);
	l->events += n;
}

/*
 * An error of the stream (bad bytes, a cut): counted, logged, shown in the
 * header until another connection's header comes, and said on stderr in
 * --batch, as a file's is; the first few of a connection only (a program
 * printing to the stdout its eventlog goes to may do it every second).
 */
static void
loop_error(struct loop *l, const char *msg)
{
	model_error(l->model, msg);
	snprintf(l->stream_err, sizeof l->stream_err, "%s", msg);
	l->stream_err_conn = l->src->connections;
	loop_log(l, "%s: %s", l->opts->target, msg);
	if (l->batch && l->conn_errors < LOOP_ERRORS_SAID)
		fprintf(stderr, "evtop: %s: %s\n", l->opts->target, msg);
	else if (l->batch && l->conn_errors == LOOP_ERRORS_SAID)
		fprintf(stderr, "evtop: %s: more errors: counted (errors), "
		    "not said\n", l->opts->target);
	l->conn_errors++;
}

/* Pull every event the decoder has. */
void
loop_drain(struct loop *l)
{
	struct proto_ev	ev;
	enum proto_res	r;

	while ((r = proto_dec_next(l->dec, &ev)) != PROTO_AGAIN) {
		switch (r) {
		case PROTO_EVENT:
			l->saw_end = 0;
			loop_event(l, &ev);
			break;
		case PROTO_HEADER:
			l->saw_end = 0;
			/* Another connection's stream: the last one's
			 * error is not its. */
			if (l->stream_err_conn != l->src->connections)
				l->stream_err[0] = '\0';
			l->conn_header = 1;
			if (l->redo != NULL)
				redo_finish(l->redo);
			model_header(l->model, l->dec);
			if (l->redo != NULL)
				redo_header(l->redo, l->dec,
				    proto_dec_offset(l->dec));
			if (l->relay != NULL)
				relay_header(l->relay, l->dec);
			loop_log(l, "header at bytes %llu-%llu",
			    (unsigned long long)proto_dec_header_offset(l->dec),
			    (unsigned long long)proto_dec_offset(l->dec));
			break;
		case PROTO_END:
			l->saw_end = 1;
			loop_log(l, "end marker at byte %llu",
			    (unsigned long long)proto_dec_offset(l->dec));
			break;
		case PROTO_SKIP:
			/* After bad bytes, the decoder goes on at a block
			 * or a header. */
			loop_log(l, "skipped %llu bytes %s",
			    (unsigned long long)proto_dec_skipped(l->dec),
			    proto_dec_headers(l->dec) > 0 ? "after bad bytes, "
			    "to a block or header" : "before a header");
			break;
		case PROTO_ERROR:
			if (l->redo != NULL) {
				/* The whole events before the bad bytes are
				 * kept first: the late ones among them go
				 * back from there. */
				redo_commit(l->redo,
				    proto_dec_error_offset(l->dec),
				    source_now(), l->max_time);
				redo_give_up(l->redo, "bad bytes in the "
				    "stream: late events are applied where "
				    "they arrive");
			}
			loop_error(l, proto_dec_error(l->dec));
			break;
		default:
			break;
		}
	}
}

/* Bytes from the source: record them, decode them. */
static void
loop_feed(struct loop *l, const uint8_t *p, size_t n)
{
	char	*cause = NULL;
	size_t	 k;

	if (l->rec != NULL && record_write(l->rec, p, n, &cause) != 0) {
		loop_log(l, "%s", cause);
		free(cause);
	}
	if (l->redo != NULL)
		redo_bytes(l->redo, p, n);
	while (n > 0) {
		k = proto_dec_feed(l->dec, p, n);
		p += k;
		n -= k;
		loop_drain(l);
		if (k == 0 && proto_dec_room(l->dec) == 0) {
			/* Cannot happen: a unit always fits.  Start over. */
			loop_error(l, "decoder buffer full");
			proto_dec_reset(l->dec);
		}
	}
	if (l->redo != NULL)
		redo_commit(l->redo, proto_dec_offset(l->dec), source_now(),
		    l->max_time);
	control_time(l->ctl, l->max_time);
	l->held = 1;
	l->changed = 1;
}

/* Everything the model holds back, applied: late events put back. */
void
loop_flush(struct loop *l)
{
	if (l->redo != NULL)
		redo_finish(l->redo);
	model_flush(l->model);
}

static void
loop_connection_start(struct loop *l)
{
	proto_dec_reset(l->dec);
	if (l->redo != NULL)
		redo_connect(l->redo);
	l->saw_end = 0;
	l->conn_header = 0;
	l->conn_errors = 0;
	l->max_time = 0;
	control_connected(l->ctl);
	loop_log(l, "%s: open", l->opts->target);
}

/*
 * Whether the connection ended with bytes but no whole header: said as a
 * file's is.  (With nothing at all the source says so; at the limit,
 * loop_no_header() did.)
 */
static int
loop_header_cut(const struct loop *l)
{
	uint64_t	n = l->src->conn_bytes;

	return proto_dec_headers(l->dec) == 0 && n > 0 &&
	    n < LOOP_NO_HEADER_MAX;
}

static void
loop_connection_end(struct loop *l)
{
	char	*cause = NULL, msg[128];
	int	 add_end;

	loop_drain(l);
	if (proto_dec_in_data(l->dec) && proto_dec_pending(l->dec) > 0) {
		/* It ended within an event: the events before count. */
		snprintf(msg, sizeof msg, "truncated: the event at byte %llu "
		    "is incomplete (%llu bytes)", (unsigned long long)
		    proto_dec_offset(l->dec), (unsigned long long)
		    proto_dec_pending(l->dec));
		loop_error(l, msg);
	}
	if (loop_header_cut(l))
		loop_error(l, "no eventlog header found");
	add_end = proto_dec_in_data(l->dec) && !l->saw_end;
	if (l->rec != NULL) {
		if (record_end(l->rec, proto_dec_offset(l->dec), add_end,
		    &cause) != 0) {
			loop_log(l, "%s", cause);
			free(cause);
		} else if (add_end && record_path(l->rec) != NULL)
			loop_log(l, "%s: no end marker: cut after byte %llu "
			    "and ended", record_path(l->rec),
			    (unsigned long long)proto_dec_offset(l->dec));
	}
	control_disconnected(l->ctl);
	if (l->relay != NULL)
		relay_end(l->relay, l->opts->once || !l->src->ops->reopen);
	loop_flush(l);
	l->held = 0;
	l->changed = 1;
	/* Said now: putting late events back may take long enough for a
	 * reconnection to say something else before the next status. */
	loop_status(l, source_now());
	loop_note(l, l->batch);
}

/* How long a slice of input, or of the history applied again, lasts. */
static uint64_t
loop_slice_ns(const struct loop *l)
{
	return redo_busy(l->redo) ? LOOP_FINE_NS : LOOP_SLICE_NS;
}

/*
 * Whether the connection has gone on too long without an eventlog header
 * (cat /dev/zero): it is dropped then, said why (stdin ends; a FIFO or a
 * socket is waited for again).  Only before its first header: past it,
 * what comes goes to the decoder, which finds its way.
 */
static int
loop_no_header(struct loop *l)
{
	char	why[128];

	if (proto_dec_headers(l->dec) > 0 ||
	    l->src->conn_bytes < LOOP_NO_HEADER_MAX)
		return 0;
	snprintf(why, sizeof why, "not an eventlog: no header in the first "
	    "%u bytes", LOOP_NO_HEADER_MAX);
	model_error(l->model, why);	/* (stderr has it as the source's) */
	l->not_eventlog = 1;
	source_disconnect(l->src, why, source_now());
	loop_connection_end(l);
	return 1;
}

/* Read a slice: until the source is empty, or enough for one pass. */
static void
loop_read(struct loop *l, short revents, uint64_t start)
{
	enum source_ev	ev;
	uint64_t	total = 0;
	ssize_t		n;

	for (;;) {
		n = source_read(l->src, l->buf, LOOP_READ_SIZE, revents,
		    source_now(), &ev);
		if (n > 0) {
			loop_feed(l, l->buf, (size_t)n);
			if (loop_no_header(l))
				break;
			total += (uint64_t)n;
			l->last_data = source_now();
			if ((size_t)n < LOOP_READ_SIZE)
				break;
			if (total >= LOOP_SLICE_BYTES ||
			    l->last_data - start >= loop_slice_ns(l))
				break;
			continue;
		}
		if (ev == SOURCE_EV_CLOSED)
			loop_connection_end(l);
		break;
	}
}

/*
 * Whether control commands may go: once the connection's header has come.
 * eventlog-socket reads commands from the moment a client connects, and
 * only then stops the eventlog running (to a file, with -l) and starts it
 * again on the socket (its worker.c): a census taken in between is written
 * nowhere.  The header is the RTS writing to the socket.  (Seen in CI with
 * GHC 9.6 programs under load: the census sent on connecting never came.)
 */
int
loop_can_send(const struct loop *l)
{
	return l->src != NULL && l->src->state == SOURCE_OPEN &&
	    l->conn_header;
}

/* Send what is queued, if the source can take it now. */
void
loop_control(struct loop *l, uint64_t now)
{
	if (!loop_can_send(l) || !control_pending(l->ctl))
		return;
	if (control_flush(l->ctl, l->src) != 0) {
		loop_log(l, "writing a control command: %s",
		    strerror(errno));
		source_disconnect(l->src, "write error", now);
		loop_connection_end(l);
	}
	l->changed = 1;
}

void
loop_step(struct loop *l, short revents, uint64_t now)
{
	if (source_step(l->src, revents, now) == SOURCE_EV_OPENED) {
		loop_connection_start(l);
		loop_control(l, now);
	}
}

/*
 * One pass over the live source's part of the loop after poll(): connect,
 * read a slice, write commands, flush a quiet source.
 */
void
loop_live(struct loop *l, const struct pollfd *pfd, uint64_t now)
{
	short	rev = pfd != NULL ? pfd->revents : 0;

	if (l->src->state == SOURCE_CONNECTING && rev != 0)
		loop_step(l, rev, now);
	else if (l->src->state == SOURCE_OPEN) {
		if (rev & POLLOUT)
			loop_control(l, now);
		if (rev & (POLLIN|POLLHUP|POLLERR))
			loop_read(l, rev, now);
	}
	now = source_now();
	loop_step(l, 0, now);
	if (l->redo != NULL) {
		redo_tick(l->redo, now, loop_slice_ns(l));
		l->changed = 1;
	}
	if (l->held && now - l->last_data >= LOOP_QUIET_NS) {
		/* Quiet for a while: show what the model holds back. */
		model_flush(l->model);
		l->held = 0;
		l->changed = 1;
	}
}

short
loop_live_events(const struct loop *l)
{
	short	ev = source_poll_events(l->src);

	if (loop_can_send(l) && control_pending(l->ctl))
		ev |= POLLOUT;
	return ev;
}

int
loop_live_timeout(const struct loop *l, uint64_t now)
{
	int	t = source_timeout_ms(l->src, now);

	if (l->held)
		t = loop_min_timeout(t, loop_ms_until(l->last_data +
		    LOOP_QUIET_NS, now));
	return loop_min_timeout(t, redo_wait_ms(l->redo, now));
}
