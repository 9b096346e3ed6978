/*
 * loop.c: the one poll() loop, for the TUI (loop_tui) and for --batch over
 * a live source (loop_batch).
 *
 * Each pass: poll() the self-pipe of the signals, the terminal and the
 * source with a timeout that is the nearest of: the next draw, the next
 * retry of a source that is not there, the next replayed event, a key the
 * UI must force, the periodic batch output, the flush of a quiet source.
 * Then: signals, keys, a bounded slice of input (at most LOOP_SLICE_BYTES
 * or LOOP_SLICE_NS per pass, so keys stay responsive during a flood or a
 * fast replay), queued control commands, and at most one draw, at most
 * every LOOP_DRAW_NS and only when something changed.
 *
 * The source is always drained, whatever the display does: a paused
 * display or a slow terminal never stops the reading (an eventlog-socket
 * program queues what is unread in its own memory, without limit).
 *
 * Each connection gets a fresh decoder; the model decides what a new header
 * means (model_header).  The bytes go to the recorder before the decoder,
 * the events to the control watch and to the model.
 */
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "evtop.h"
#include "model/model.h"
#include "serve/serve.h"
#include "source/source.h"
#include "time/redo.h"
#include "time/tl.h"
#include "ui.h"		/* enum ui_action only: ui/ is reached via loop_ui */
#include "time/travel.h"

#define LOOP_READ_SIZE		(256u << 10)
#define LOOP_DEC_SIZE		(1u << 20)
#define LOOP_SLICE_BYTES	(4u << 20)
#define LOOP_SLICE_NS		5000000ull
#define LOOP_PASS_N		16384	/* first pass events between clock reads */
#define LOOP_DRAW_NS		100000000ull
#define LOOP_HOLD_DRAW_NS	5000000000ull	/* a correction under way */
#define LOOP_QUIET_NS		1000000000ull	/* flush a quiet source */
#define LOOP_RATE_NS		1000000000ull
#define LOOP_NO_HEADER		(64u << 10)	/* say so after this */
#define LOOP_DRAIN_NS		5000000000ull	/* relay clients, at exit */
#define LOOP_SERVE_FDS		(HTTP_MAX_FDS + RELAY_MAX_FDS)
#define LOOP_NFDS		(3 + LOOP_SERVE_FDS)

struct loop {
	const struct evtop_opts *opts;
	struct source	*src;		/* a live source, or */
	struct replay	*rp;		/* a file */
	struct proto_dec *dec;
	struct model	*model;
	struct control	*ctl;
	struct record	*rec;
	struct ui	*ui;
	const struct loop_ui *uiops;
	FILE		*log;
	struct http	*http;		/* --metrics */
	int		 http_at, http_n;	/* its slice of the poll set */
	struct relay	*relay;		/* --serve, --serve-tcp */
	struct travel	*tr;		/* a file in the TUI: seeking */
	int		 seek_pending;	/* asked before the first pass ended */
	uint64_t	 seek_to;
	int		 relay_at, relay_n;
	struct tl	*tl;		/* the timeline's summary (TUI) */
	struct redo	*redo;		/* a live source's history */

	struct evtop_status st;
	int		 changed;	/* since the last draw */
	uint64_t	 next_draw;

	uint8_t		*buf;
	int		 saw_end;	/* the last unit was the end marker */
	int		 conn_header;	/* this connection's header came */
	uint64_t	 last_data;	/* when bytes last came */
	int		 held;		/* the model may hold events back */
	char		 last_msg[sizeof ((struct evtop_status *)0)->conn_msg];

	uint64_t	 events;
	uint64_t	 max_time;	/* latest event time, this connection */
	uint64_t	 rate_at, rate_events;

	int		 quit;
	int		 suspended;
	int		 batch;		/* --batch: notes to stderr too */
};

/*
 * What the signal handlers need: the write end of the self-pipe, and how
 * to put the terminal back before dying.  The only file-scope variables,
 * set by loop_signals() and cleared by loop_unsignals().
 */
static int loop_sig_fd = -1;
static void (*loop_sig_restore)(void);

static void
loop_log(struct loop *l, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
loop_log(struct loop *l, const char *fmt, ...)
{
	struct timespec	ts;
	va_list		ap;

	if (l->log == NULL)
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	fprintf(l->log, "%lld.%03ld ", (long long)ts.tv_sec,
	    ts.tv_nsec / 1000000);
	va_start(ap, fmt);
	vfprintf(l->log, fmt, ap);
	va_end(ap);
	fputc('\n', l->log);
	fflush(l->log);
}

static uint64_t
loop_wall(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* ------------------------------------------------------------------ */
/* Signals. */

static void
loop_sig_handler(int sig)
{
	unsigned char	c = (unsigned char)sig;
	int		saved = errno;

	if (loop_sig_fd != -1)
		(void)!write(loop_sig_fd, &c, 1);
	errno = saved;
}

static void
loop_crash_handler(int sig)
{
	if (loop_sig_restore != NULL)
		loop_sig_restore();
	raise(sig);		/* SA_RESETHAND: the default action now */
}

static void
loop_catch(int sig, void (*fn)(int), int flags)
{
	struct sigaction	sa;

	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = fn;
	sa.sa_flags = flags;
	sigaction(sig, &sa, NULL);
}

/* A self-pipe for the signals the loop handles; -1 on failure. */
static int
loop_signals(int fds[2], const struct loop_ui *ui, char **cause)
{
	int	tui = ui != NULL;
	int	i, fl;

	if (pipe(fds) != 0) {
		source_cause(cause, "pipe: %s", strerror(errno));
		return -1;
	}
	for (i = 0; i < 2; i++) {
		fl = fcntl(fds[i], F_GETFL);
		fcntl(fds[i], F_SETFL, fl|O_NONBLOCK);
		fcntl(fds[i], F_SETFD, FD_CLOEXEC);
	}
	loop_sig_fd = fds[1];
	loop_sig_restore = tui ? ui->emergency_restore : NULL;
	loop_catch(SIGPIPE, SIG_IGN, 0);
	loop_catch(SIGINT, loop_sig_handler, SA_RESTART);
	loop_catch(SIGTERM, loop_sig_handler, SA_RESTART);
	loop_catch(SIGHUP, loop_sig_handler, SA_RESTART);
	if (tui) {
		loop_catch(SIGWINCH, loop_sig_handler, SA_RESTART);
		loop_catch(SIGTSTP, loop_sig_handler, SA_RESTART);
		loop_catch(SIGCONT, loop_sig_handler, SA_RESTART);
		loop_catch(SIGSEGV, loop_crash_handler, SA_RESETHAND);
		loop_catch(SIGBUS, loop_crash_handler, SA_RESETHAND);
		loop_catch(SIGABRT, loop_crash_handler, SA_RESETHAND);
		loop_catch(SIGFPE, loop_crash_handler, SA_RESETHAND);
	}
	return 0;
}

static void
loop_unsignals(int fds[2], int tui)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGWINCH,
	    SIGTSTP, SIGCONT, SIGSEGV, SIGBUS, SIGABRT, SIGFPE };
	size_t	i;

	for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		if (tui || i < 3)
			loop_catch(sigs[i], SIG_DFL, 0);
	}
	loop_sig_fd = -1;
	loop_sig_restore = NULL;
	if (fds[0] != -1)
		close(fds[0]);
	if (fds[1] != -1)
		close(fds[1]);
}

/* Stop for job control: the terminal back as it was, then stop. */
static void
loop_suspend(struct loop *l)
{
	if (l->ui != NULL) {
		l->uiops->suspend(l->ui);
		l->suspended = 1;
	}
	loop_catch(SIGTSTP, SIG_DFL, 0);
	raise(SIGTSTP);
	/* Here again after SIGCONT. */
	loop_catch(SIGTSTP, loop_sig_handler, SA_RESTART);
	if (l->ui != NULL && l->suspended) {
		l->uiops->resume(l->ui);
		l->suspended = 0;
	}
	l->changed = 1;
}

static void
loop_signal(struct loop *l, int sig)
{
	switch (sig) {
	case SIGINT:
	case SIGTERM:
	case SIGHUP:
		loop_log(l, "signal %d: quitting", sig);
		l->quit = 1;
		break;
	case SIGWINCH:
		if (l->ui != NULL)
			l->uiops->resize(l->ui);
		l->changed = 1;
		break;
	case SIGTSTP:
		loop_suspend(l);
		break;
	case SIGCONT:
		/* Stopped by someone else (SIGSTOP): redraw. */
		if (l->ui != NULL && !l->suspended)
			l->uiops->resize(l->ui);
		l->changed = 1;
		break;
	}
}

static void
loop_read_signals(struct loop *l, int fd)
{
	unsigned char	c[64];
	ssize_t		n, i;

	while ((n = read(fd, c, sizeof c)) > 0) {
		for (i = 0; i < n; i++)
			loop_signal(l, c[i]);
	}
}

/* ------------------------------------------------------------------ */
/* Input. */

static void	loop_status(struct loop *, uint64_t);
static void	loop_note(struct loop *, int);

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
}

/* loop_event() for ev[0..n), the model's share in one call (a replay at
 * full speed: half the model's cost an event is its call). */
static void
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

/* Pull every event the decoder has. */
static void
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
			l->conn_header = 1;
			if (l->redo != NULL)
				redo_finish(l->redo);
			model_header(l->model, l->dec);
			if (l->redo != NULL)
				redo_header(l->redo, l->dec,
				    proto_dec_offset(l->dec));
			if (l->relay != NULL)
				relay_header(l->relay, l->dec);
			loop_log(l, "header at byte %llu",
			    (unsigned long long)proto_dec_offset(l->dec));
			break;
		case PROTO_END:
			l->saw_end = 1;
			loop_log(l, "end marker at byte %llu",
			    (unsigned long long)proto_dec_offset(l->dec));
			break;
		case PROTO_SKIP:
			loop_log(l, "skipped %llu bytes before a header",
			    (unsigned long long)proto_dec_skipped(l->dec));
			break;
		case PROTO_ERROR:
			if (l->redo != NULL)
				redo_give_up(l->redo, "bad bytes in the "
				    "stream: late events are applied where "
				    "they arrive");
			model_error(l->model, proto_dec_error(l->dec));
			loop_log(l, "decode error: %s", proto_dec_error(l->dec));
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
			model_error(l->model, "decoder buffer full");
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
static void
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
	l->max_time = 0;
	control_connected(l->ctl);
	loop_log(l, "%s: open", l->opts->target);
}

static void
loop_connection_end(struct loop *l)
{
	char	*cause = NULL;
	int	 add_end;

	loop_drain(l);
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
			total += (uint64_t)n;
			l->last_data = source_now();
			if ((size_t)n < LOOP_READ_SIZE)
				break;
			if (total >= LOOP_SLICE_BYTES ||
			    l->last_data - start >= LOOP_SLICE_NS)
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
static int
loop_can_send(const struct loop *l)
{
	return l->src != NULL && l->src->state == SOURCE_OPEN &&
	    l->conn_header;
}

/* Send what is queued, if the source can take it now. */
static void
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

static void
loop_step(struct loop *l, short revents, uint64_t now)
{
	if (source_step(l->src, revents, now) == SOURCE_EV_OPENED) {
		loop_connection_start(l);
		loop_control(l, now);
	}
}

/* Replay due events of a file, a slice at a time. */
static void
loop_replay(struct loop *l, uint64_t start)
{
	const struct proto_ev *evs;
	size_t		k, n = 0;
	uint64_t	now = start;

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

static void	loop_seek(struct loop *, uint64_t, int);

/*
 * The first pass over a file (travel.c), a slice at a time, before the
 * replay: checkpoints for seeking.  Then the replay starts from the start,
 * or from where a seek asked meanwhile; as fast as possible, it is done.
 */
static void
loop_pass_tl(void *arg, const struct proto_ev *ev, size_t n)
{
	tl_event(arg, ev, n);
}

static void
loop_pass(struct loop *l, uint64_t start)
{
	uint64_t	first, last;

	while (!travel_pass(l->tr, LOOP_PASS_N, l->tl != NULL ? loop_pass_tl :
	    NULL, l->tl)) {
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
	loop_seek(l, l->seek_pending ? l->seek_to : 0, l->seek_pending);
	l->seek_pending = 0;
}

/* The model as it was at t, held there (hold) or replaying on. */
static void
loop_seek(struct loop *l, uint64_t t, int hold)
{
	if (travel_seek(l->tr, t) != 0) {
		/* A checkpoint could not be read back: from the start. */
		loop_log(l, "seek to %llu ns failed; replaying from the start",
		    (unsigned long long)t);
		snprintf(l->st.cmd_msg, sizeof l->st.cmd_msg, "seek failed "
		    "(checkpoints unreadable): replaying from the start");
		travel_free(l->tr);
		l->tr = NULL;
		model_free(l->model);
		l->model = model_new();
		model_header(l->model, replay_dec(l->rp));
		(void)reader_seek(replay_reader(l->rp), 0, 0);
		t = 0;
	}
	if (hold || t > 0)
		replay_moved(l->rp, t, hold);
	l->changed = 1;
}

/* A live source's past at t, held there; at or after the newest event,
 * now again. */
static void
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
static void
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
static void
loop_range(struct loop *l)
{
	uint64_t	from, to;

	l->uiops->range(l->ui, &from, &to);
	loop_seek(l, from, 1);
	if (l->tr == NULL)
		return;		/* the seek failed: replaying from the start */
	model_range_begin(l->model, from, to);
	if (travel_apply(l->tr, to) != 0) {
		loop_seek(l, from, 1);
		return;
	}
	replay_moved(l->rp, to, 1);
	loop_log(l, "range %llu..%llu ns", (unsigned long long)from,
	    (unsigned long long)to);
}

/* ------------------------------------------------------------------ */
/* Status. */

/* The lag, and what the history did. */
static void
loop_status_live(struct loop *l, struct evtop_status *st)
{
	const struct model	*m = l->model;
	struct redo_stats	 rs;
	uint64_t		 pw;

	st->lag_known = 0;
	if (m->prog.has_wall && l->src->state == SOURCE_OPEN) {
		pw = m->prog.wall_ns + (m->now - m->prog.wall_at);
		st->lag_known = 1;
		st->lag_ns = st->wall_ns > pw ? st->wall_ns - pw : 0;
	}
	if (l->redo == NULL)
		return;
	redo_stats(l->redo, &rs);
	/* g, the timeline's Enter and e work over the history. */
	st->seekable = rs.on;
	st->pass = 1;
	st->file_time = rs.viewing ? rs.view_ns : m->now;
	st->file_first = rs.first;
	st->file_last = rs.last;
	st->range_on = rs.viewing && m->range.on;
	st->range_from = m->range.from_ns;
	st->range_to = m->range.to_ns;
	st->history = rs.on;
	st->history_bytes = rs.bytes;
	st->history_first = rs.first;
	st->history_last = rs.last;
	st->corrections = rs.corrections;
	st->corrected_ns = rs.back_ns;
	/* The header compares it with the wall clock. */
	st->corrected_at = rs.corrected_at == 0 ? 0 : st->wall_ns -
	    (source_now() - rs.corrected_at);
	st->correcting = rs.busy;
	st->viewing = rs.viewing;
	st->view_ns = rs.view_ns;
	st->spill = redo_spill(l->redo);
	st->history_error = rs.error;
}

static void
loop_status(struct loop *l, uint64_t now)
{
	struct evtop_status	*st = &l->st, old = l->st;
	const char		*err;
	size_t			 len;

	st->source = l->opts->target;
	st->kind = l->opts->kind;
	st->wall_ns = loop_wall();
	if (now - l->rate_at >= LOOP_RATE_NS) {
		st->events_per_s = (double)(l->events - l->rate_events) *
		    1e9 / (double)(now - l->rate_at);
		l->rate_at = now;
		l->rate_events = l->events;
	}
	if (l->rp != NULL) {
		replay_status(l->rp, st);
		st->seekable = l->tr != NULL;
		st->range_on = l->model->range.on;
		st->range_from = l->model->range.from_ns;
		st->range_to = l->model->range.to_ns;
		st->pass = l->tr != NULL ? travel_progress(l->tr) : 1;
		if (l->tr != NULL)
			travel_span(l->tr, &st->file_first, &st->file_last);
		/* Where the replay is, by time: it moves back as well. */
		if (l->tr != NULL && st->pass >= 1 && !replay_done(l->rp) &&
		    st->file_last > st->file_first)
			st->file_pos = st->file_time <= st->file_first ? 0 :
			    (uint64_t)((double)st->file_size *
			    (double)(st->file_time - st->file_first) /
			    (double)(st->file_last - st->file_first));
		st->conn = replay_done(l->rp) ? EVTOP_CONN_DONE :
		    EVTOP_CONN_OPEN;
		st->bytes = st->file_pos;
		st->connections = 1;
		/* (The first pass's thread owns the reader, and its
		 * error, until the pass is over.) */
		err = st->pass < 1 ? NULL : replay_error(l->rp);
		st->file_err = err != NULL;
		snprintf(st->conn_msg, sizeof st->conn_msg, "%s",
		    err != NULL ? err : replay_done(l->rp) ? "replayed" :
		    st->paused ? "replay paused" : "replaying");
	} else {
		st->conn = source_conn(l->src);
		if (l->src->state == SOURCE_ENDED)
			st->conn = l->src->ops->reopen ? EVTOP_CONN_CLOSED :
			    EVTOP_CONN_DONE;
		snprintf(st->conn_msg, sizeof st->conn_msg, "%s",
		    l->src->msg);
		if (l->src->state == SOURCE_OPEN &&
		    l->src->conn_bytes >= LOOP_NO_HEADER &&
		    proto_dec_headers(l->dec) == 0)
			snprintf(st->conn_msg, sizeof st->conn_msg,
			    "connected, but no eventlog header in the first "
			    "%llu bytes", (unsigned long long)
			    l->src->conn_bytes);
		st->bytes = l->src->bytes;
		st->connections = l->src->connections;
		st->speed = 0;
	}
	if (l->rec != NULL) {
		st->record_path = record_path(l->rec);
		st->record_bytes = record_bytes(l->rec);
		if ((err = record_error(l->rec)) != NULL) {
			len = strlen(st->conn_msg);
			snprintf(st->conn_msg + len, sizeof st->conn_msg - len,
			    "; %s", err);
		}
	}
	if (l->ctl != NULL)
		control_status(l->ctl, st);
	if (l->src != NULL)
		loop_status_live(l, st);
	old.wall_ns = st->wall_ns;
	old.lag_ns = st->lag_ns;
	if (memcmp(&old, st, sizeof old) != 0)
		l->changed = 1;
}

/* ------------------------------------------------------------------ */
/* Setup. */

/* Leaving with a connection open: its recording ends as a whole file. */
static void
loop_finish(struct loop *l)
{
	char	*cause = NULL;

	if (l->src == NULL || l->src->state != SOURCE_OPEN)
		return;
	loop_drain(l);
	if (l->rec != NULL && record_end(l->rec, proto_dec_offset(l->dec),
	    proto_dec_in_data(l->dec) && !l->saw_end, &cause) != 0) {
		loop_log(l, "%s", cause);
		free(cause);
	}
	model_flush(l->model);
}

static void
loop_free(struct loop *l)
{
	travel_free(l->tr);
	replay_free(l->rp);
	source_free(l->src);
	proto_dec_free(l->dec);
	model_free(l->model);
	control_free(l->ctl);
	record_free(l->rec);
	redo_free(l->redo);
	http_free(l->http);
	relay_free(l->relay);
	tl_free(l->tl);
	free(l->buf);
	if (l->log != NULL)
		fclose(l->log);
}

static int
loop_init(struct loop *l, const struct evtop_opts *opts, char **cause)
{
	double	speed;
	int	i;

	memset(l, 0, sizeof *l);
	l->opts = opts;
	if (opts->log != NULL && (l->log = fopen(opts->log, "a")) == NULL) {
		source_cause(cause, "%s: %s", opts->log, strerror(errno));
		return -1;
	}
	if ((l->model = model_new()) == NULL ||
	    (l->ctl = control_new()) == NULL) {
		source_cause(cause, "out of memory");
		return -1;
	}
	if (opts->kind == EVTOP_SRC_FILE) {
		/* --batch replays as fast as it can, but a relay keeps the
		 * pace its readers would see live. */
		speed = opts->speed;
		if (opts->batch && opts->serve == NULL &&
		    opts->serve_tcp == NULL)
			speed = 0;
		if ((l->rp = replay_open(opts->target, speed,
		    cause)) == NULL)
			return -1;
		model_set_reorder(l->model, 0, 0);
		model_header(l->model, replay_dec(l->rp));
		loop_log(l, "replaying %s at speed %g", opts->target,
		    speed);
		return 0;
	}
	if ((l->src = source_new(opts->kind, opts->target, opts->once,
	    cause)) == NULL)
		return -1;
	if ((l->dec = proto_dec_new(LOOP_DEC_SIZE)) == NULL ||
	    (l->buf = malloc(LOOP_READ_SIZE)) == NULL) {
		source_cause(cause, "out of memory");
		return -1;
	}
	if (opts->record != NULL &&
	    (l->rec = record_new(opts->record, cause)) == NULL)
		return -1;
	if (opts->history_ns > 0 && (l->redo = redo_new(l->model, opts->history_bytes,
	    opts->history_ns, cause)) == NULL)
		return -1;
	for (i = 0; i < opts->nsend; i++)
		control_queue(l->ctl, &opts->send[i], 0);
	loop_log(l, "reading %s (%s)", opts->target, l->src->ops->name);
	return 0;
}

/* The UI asked for something. */
static void
loop_action(struct loop *l, enum ui_action a, const struct evtop_cmd *cmd,
    uint64_t now)
{
	switch (a) {
	case UI_QUIT:
		l->quit = 1;
		break;
	case UI_PAUSE_REPLAY:
		/* Going on from a range: from its end, without it. */
		if (l->tr != NULL && l->model->range.on)
			loop_seek(l, l->model->range.to_ns, 0);
		else if (l->rp != NULL)
			replay_pause(l->rp, now);
		break;
	case UI_FASTER:
		if (l->rp != NULL)
			replay_faster(l->rp, now);
		break;
	case UI_SLOWER:
		if (l->rp != NULL)
			replay_slower(l->rp, now);
		break;
	case UI_MAX_SPEED:
		if (l->rp != NULL)
			replay_max(l->rp, now);
		break;
	case UI_TO_END:
		if (l->rp != NULL)
			replay_to_end(l->rp, now);
		else if (l->redo != NULL)
			redo_now(l->redo);
		break;
	case UI_SEND:
		if (l->src == NULL)
			control_refuse(l->ctl, cmd, "control commands need a "
			    "socket (--unix or --tcp), this is a file");
		else if (!source_takes_control(l->src))
			control_refuse(l->ctl, cmd, "control commands need a "
			    "socket (--unix or --tcp), not a FIFO or stdin");
		else {
			control_queue(l->ctl, cmd, loop_can_send(l));
			loop_control(l, now);
		}
		break;
	case UI_SEEK:
		if (l->redo != NULL) {
			loop_view(l, l->uiops->seek_ns(l->ui));
			break;
		}
		if (l->tr == NULL) {
			snprintf(l->st.cmd_msg, sizeof l->st.cmd_msg,
			    l->rp == NULL ? "seeking works when replaying a "
			    "file" : "seeking is off while re-serving (--serve):"
			    " readers would see time go back");
			break;
		}
		if (!travel_passed(l->tr)) {
			l->seek_pending = 1;
			l->seek_to = l->uiops->seek_ns(l->ui);
			break;
		}
		loop_seek(l, l->uiops->seek_ns(l->ui), 1);
		break;
	case UI_RANGE:
		if (l->redo != NULL) {
			loop_live_range(l);
			break;
		}
		if (l->tr == NULL || !travel_passed(l->tr)) {
			snprintf(l->st.cmd_msg, sizeof l->st.cmd_msg, "%s",
			    l->tr == NULL ? "ranges work when replaying a file" :
			    "a range needs the first pass: a moment");
			break;
		}
		loop_range(l);
		break;
	case UI_RANGE_OFF:
		if (l->tr != NULL && l->model->range.on)
			loop_seek(l, l->model->range.to_ns, 1);
		else if (l->redo != NULL && l->model->range.on)
			loop_view(l, l->model->range.to_ns);
		break;
	case UI_RESET_WINDOW:
		model_reset_window(l->model);
		break;
	case UI_EXPORT:
		export_key(l->model, l->opts, cmd->id, l->st.export_msg,
		    sizeof l->st.export_msg);
		loop_log(l, "%s", l->st.export_msg);
		break;
	default:
		break;
	}
	l->changed = 1;
}

/*
 * When the next draw may be: LOOP_DRAW_NS after this one ended, or twice
 * as long as it took if the terminal is slow, so that at least two thirds
 * of the time go to reading the source.
 */
static uint64_t
loop_next_draw(uint64_t began, uint64_t ended)
{
	uint64_t	took = ended - began;

	return ended + (2 * took > LOOP_DRAW_NS ? 2 * took : LOOP_DRAW_NS);
}

static int
loop_min_timeout(int a, int b)
{
	if (a < 0)
		return b;
	if (b < 0)
		return a;
	return a < b ? a : b;
}

static int
loop_ms_until(uint64_t at, uint64_t now)
{
	uint64_t	ms;

	if (at <= now)
		return 0;
	ms = (at - now + 999999) / 1000000;
	return ms > 60000 ? 60000 : (int)ms;
}

/* ------------------------------------------------------------------ */
/* Serving (serve.h): metrics and the relay, each a slice of the poll set. */

static void
loop_metrics_body(void *arg, int om, FILE *f)
{
	struct loop	*l = arg;

	metrics_write(f, om, l->model, &l->st, l->relay != NULL ?
	    relay_stats(l->relay) : NULL, http_stats(l->http));
}

static int
loop_serve_init(struct loop *l, int batch, char **cause)
{
	if (l->opts->metrics != NULL) {
		if ((l->http = http_new(l->opts->metrics, "/metrics",
		    loop_metrics_body, l, cause)) == NULL)
			return -1;
		loop_log(l, "metrics: listening on %s", http_addr(l->http));
		if (batch)
			fprintf(stderr, "evtop: metrics: listening on %s\n",
			    http_addr(l->http));
	}
	if (l->opts->serve != NULL || l->opts->serve_tcp != NULL) {
		if ((l->relay = relay_new(l->opts, cause)) == NULL)
			return -1;
		loop_log(l, "relay: listening on %s", relay_addr(l->relay));
		if (batch)
			fprintf(stderr, "evtop: relay: listening on %s\n",
			    relay_addr(l->relay));
		if (l->rp != NULL)
			relay_header(l->relay, replay_dec(l->rp));
	}
	return 0;
}

/* The serving fds from pfd[n]; the new count. */
static int
loop_serve_fds(struct loop *l, struct pollfd *pfd, int n)
{
	if (l->http != NULL) {
		l->http_at = n;
		l->http_n = http_fds(l->http, pfd + n, LOOP_NFDS - n);
		n += l->http_n;
	}
	if (l->relay != NULL) {
		l->relay_at = n;
		l->relay_n = relay_fds(l->relay, pfd + n, LOOP_NFDS - n);
		n += l->relay_n;
	}
	return n;
}

static void
loop_serve_handle(struct loop *l, const struct pollfd *pfd, uint64_t now)
{
	struct evtop_cmd	cmd;

	if (l->http != NULL)
		http_handle(l->http, pfd + l->http_at, now);
	if (l->relay != NULL) {
		relay_handle(l->relay, pfd + l->relay_at, now);
		/* Clients' commands go the way the keys' do. */
		while (relay_command(l->relay, &cmd))
			loop_action(l, UI_SEND, &cmd, now);
		relay_flush(l->relay);
	}
}

static int
loop_serve_timeout(const struct loop *l, int t, uint64_t now)
{
	if (l->http != NULL)
		t = loop_min_timeout(t, http_timeout_ms(l->http, now));
	if (l->relay != NULL)
		t = loop_min_timeout(t, relay_timeout_ms(l->relay, now));
	return t;
}

/* Log what changed in the connection and in the commands (and tell
 * stderr too in --batch). */
static void
loop_note(struct loop *l, int batch)
{
	const char	*n;

	if (strcmp(l->st.conn_msg, l->last_msg) != 0) {
		memcpy(l->last_msg, l->st.conn_msg, sizeof l->last_msg);
		loop_log(l, "%s: %s", l->opts->target, l->st.conn_msg);
		if (batch)
			fprintf(stderr, "evtop: %s: %s\n", l->opts->target,
			    l->st.conn_msg);
	}
	while ((n = control_note(l->ctl)) != NULL) {
		loop_log(l, "control: %s", n);
		if (batch)
			fprintf(stderr, "evtop: %s\n", n);
	}
	while (l->relay != NULL && (n = relay_note(l->relay)) != NULL) {
		loop_log(l, "%s", n);
		if (batch)
			fprintf(stderr, "evtop: %s\n", n);
	}
}

/*
 * One pass over the live source's part of the loop after poll(): connect,
 * read a slice, write commands, flush a quiet source.
 */
static void
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
		redo_tick(l->redo, now, LOOP_SLICE_NS);
		l->changed = 1;
	}
	if (l->held && now - l->last_data >= LOOP_QUIET_NS) {
		/* Quiet for a while: show what the model holds back. */
		model_flush(l->model);
		l->held = 0;
		l->changed = 1;
	}
}

static short
loop_live_events(const struct loop *l)
{
	short	ev = source_poll_events(l->src);

	if (loop_can_send(l) && control_pending(l->ctl))
		ev |= POLLOUT;
	return ev;
}

static int
loop_live_timeout(const struct loop *l, uint64_t now)
{
	int	t = source_timeout_ms(l->src, now);

	if (l->held)
		t = loop_min_timeout(t, loop_ms_until(l->last_data +
		    LOOP_QUIET_NS, now));
	return loop_min_timeout(t, redo_wait_ms(l->redo, now));
}

/* ------------------------------------------------------------------ */
/* The TUI. */

/*
 * While the model goes back to put late events in place it shows the
 * past: the last frame stays instead, for up to LOOP_HOLD_DRAW_NS (then
 * the header says it is correcting).
 */
static int
loop_hold_draw(const struct loop *l, uint64_t now)
{
	uint64_t	busy = redo_busy_ns(l->redo, now);

	return busy > 0 && busy < LOOP_HOLD_DRAW_NS;
}

/*
 * What the loop polls besides its signals (and the terminal): the source
 * (a live source's fd and its timeout, or a replay's pace) unless it has
 * ended, then the serving sockets.  *srci: the source's entry, or -1.
 */
static int
loop_poll_fds(struct loop *l, int source, struct pollfd *pfd, int n,
    int *srci, int *timeout, uint64_t now)
{
	*srci = -1;
	if (!source)
		;
	else if (l->src != NULL) {
		*timeout = loop_min_timeout(*timeout, loop_live_timeout(l, now));
		if (l->src->fd != -1 && loop_live_events(l) != 0) {
			*srci = n;
			pfd[n].fd = l->src->fd;
			pfd[n++].events = loop_live_events(l);
		}
	} else if (l->tr != NULL && !travel_passed(l->tr))
		*timeout = 0;		/* the first pass goes on */
	else
		*timeout = loop_min_timeout(*timeout, replay_timeout_ms(l->rp,
		    now));
	*timeout = loop_serve_timeout(l, *timeout, now);
	return loop_serve_fds(l, pfd, n);
}

/*
 * Poll pfd[0..n) (the signals' pipe first) and what loop_poll_fds() adds,
 * then read the signals: -1 if poll failed (errno says why), an interrupted
 * poll counting as nothing ready.  *now: the time after.
 */
static int
loop_wait(struct loop *l, int source, int sig, struct pollfd *pfd, int n,
    int *srci, int timeout, uint64_t *now)
{
	int	i;

	n = loop_poll_fds(l, source, pfd, n, srci, &timeout, *now);
	if (poll(pfd, (nfds_t)n, timeout) < 0) {
		if (errno != EINTR)
			return -1;
		for (i = 0; i < n; i++)
			pfd[i].revents = 0;
	}
	*now = source_now();
	if (pfd[0].revents & POLLIN)
		loop_read_signals(l, sig);
	return 0;
}

int
loop_tui(const struct evtop_opts *opts, const struct loop_ui *ui)
{
	struct loop	 l;
	struct pollfd	 pfd[LOOP_NFDS];
	struct evtop_cmd cmd;
	enum ui_action	 a;
	char		*cause = NULL;
	int		 sig[2] = { -1, -1 }, timeout, n, srci, rc = 0;
	uint64_t	 now;

	if (loop_init(&l, opts, &cause) != 0) {
		fprintf(stderr, "evtop: %s\n", cause != NULL ? cause :
		    "out of memory");
		free(cause);
		loop_free(&l);
		return 1;
	}
	l.uiops = ui;
	if ((l.tl = tl_new()) == NULL)
		cause = strdup("out of memory");
	l.st.timeline = l.tl;
	if (l.tl == NULL || loop_serve_init(&l, 0, &cause) != 0 ||
	    loop_signals(sig, ui, &cause) != 0 ||
	    (l.ui = ui->new(opts, &cause)) == NULL) {
		loop_unsignals(sig, 1);
		fprintf(stderr, "evtop: %s\n", cause != NULL ? cause :
		    "cannot start the terminal UI");
		free(cause);
		loop_free(&l);
		return 1;
	}
	/* A file: seeking, unless it is re-served (time would go back). */
	if (l.rp != NULL && opts->serve == NULL && opts->serve_tcp == NULL &&
	    (l.tr = travel_new(replay_reader(l.rp), l.model, 0,
	    &cause)) == NULL) {
		loop_log(&l, "no seeking: %s", cause);
		free(cause);
		cause = NULL;
	}
	now = source_now();
	l.rate_at = now;
	if (l.src != NULL)
		loop_step(&l, 0, now);
	loop_status(&l, now);
	ui->draw(l.ui, l.model, &l.st, 1);
	l.changed = 0;
	l.next_draw = now + LOOP_DRAW_NS;

	while (!l.quit) {
		now = source_now();
		timeout = ui->timeout_ms(l.ui);
		if (l.changed)
			timeout = loop_min_timeout(timeout,
			    loop_ms_until(l.next_draw, now));
		timeout = loop_min_timeout(timeout, loop_ms_until(l.rate_at +
		    LOOP_RATE_NS, now));
		n = 0;
		pfd[n].fd = sig[0];
		pfd[n++].events = POLLIN;
		pfd[n].fd = ui->fd(l.ui);
		pfd[n++].events = POLLIN;
		if (loop_wait(&l, 1, sig[0], pfd, n, &srci, timeout,
		    &now) != 0) {
			source_cause(&cause, "poll: %s", strerror(errno));
			rc = 1;
			break;
		}
		while ((a = (enum ui_action)ui->input(l.ui, (pfd[1].revents & (POLLIN|POLLHUP|
		    POLLERR)) != 0, &cmd)) != UI_NONE) {
			loop_action(&l, a, &cmd, now);
			pfd[1].revents = 0;
			if (l.quit)
				break;
		}
		if (l.quit)
			break;
		if (l.src != NULL) {
			loop_live(&l, srci >= 0 ? &pfd[srci] : NULL, now);
			if (l.src->state == SOURCE_ENDED && opts->once)
				l.quit = 1;
		} else if (l.tr != NULL && !travel_passed(l.tr))
			loop_pass(&l, now);
		else
			loop_replay(&l, now);

		now = source_now();
		loop_status(&l, now);
		loop_serve_handle(&l, pfd, now);
		loop_note(&l, 0);
		if (loop_hold_draw(&l, now))
			;	/* not even for a key: the model is going back */
		else if (l.changed && now >= l.next_draw) {
			ui->draw(l.ui, l.model, &l.st, 1);
			l.changed = 0;
			l.next_draw = loop_next_draw(now, source_now());
		} else
			ui->draw(l.ui, l.model, &l.st, 0);
	}
	ui->free(l.ui);
	loop_unsignals(sig, 1);
	loop_finish(&l);
	if (export_end(l.model, opts) != 0)
		rc = 1;
	if (cause != NULL) {
		fprintf(stderr, "evtop: %s\n", cause);
		free(cause);
	}
	loop_free(&l);
	return rc;
}

/* ------------------------------------------------------------------ */
/* --batch over a live source. */

/* The history's part of a live source's JSON: ,"history":{...}. */
static void
loop_history_json(struct loop *l, char *buf, size_t size)
{
	const struct evtop_status	*st = &l->st;
	struct redo_stats		 rs;
	char				 err[200];
	size_t				 i, k = 0;

	redo_stats(l->redo, &rs);
	/* Its own words and paths: only quotes and backslashes to mind. */
	for (i = 0; rs.error != NULL && rs.error[i] != '\0' &&
	    k + 3 < sizeof err; i++) {
		if (rs.error[i] == '"' || rs.error[i] == '\\')
			err[k++] = '\\';
		err[k++] = (unsigned char)rs.error[i] < 0x20 ? ' ' :
		    rs.error[i];
	}
	err[k] = '\0';
	snprintf(buf, size, ",\"history\":{\"on\":%s,\"bytes\":%llu,"
	    "\"first_ns\":%llu,\"last_ns\":%llu,\"checkpoints\":%d,"
	    "\"corrections\":%llu,\"corrected_ns\":%llu,"
	    "\"reapplied\":%llu,\"reapply_ns\":%llu,\"error\":%s%s%s}",
	    rs.on ? "true" : "false",
	    (unsigned long long)st->history_bytes,
	    (unsigned long long)st->history_first,
	    (unsigned long long)st->history_last, rs.checkpoints,
	    (unsigned long long)st->corrections,
	    (unsigned long long)st->corrected_ns,
	    (unsigned long long)rs.reapplied,
	    (unsigned long long)rs.reapply_ns, rs.error != NULL ? "\"" :
	    "null", rs.error != NULL ? err : "", rs.error != NULL ? "\"" : "");
}

static int
loop_emit(struct loop *l)
{
	const struct evtop_status	*st = &l->st;
	char				 more[512];
	int				 n = 0;

	more[0] = '\0';
	if (l->src != NULL) {
		/* Not the figures of a model gone back to a checkpoint. */
		if (l->redo != NULL)
			redo_settle(l->redo);
		loop_status(l, source_now());
		n = snprintf(more, sizeof more, st->lag_known ?
		    "\"lag_ns\":%llu" : "\"lag_ns\":null",
		    (unsigned long long)st->lag_ns);
		if (l->redo != NULL)
			loop_history_json(l, more + n, sizeof more - (size_t)n);
	}
	batch_emit(l->model, l->opts, stdout, more);
	return ferror(stdout) ? -1 : 0;
}

/*
 * --batch over a live source, or over a file that is served (--metrics,
 * --serve): replayed at --speed when relayed, else as fast as it goes.
 * When the source has ended for good, the last figures are printed and,
 * with --metrics, evtop goes on serving until SIGINT or SIGTERM, so that
 * a scrape of a finished replay works.
 */
int
loop_batch(const struct evtop_opts *opts)
{
	struct loop	 l;
	struct pollfd	 pfd[LOOP_NFDS];
	char		*cause = NULL;
	int		 sig[2] = { -1, -1 }, timeout, n, srci, rc = 0;
	int		 ended = 0;
	uint64_t	 now, period, next_out, drain_by = 0;

	if (loop_init(&l, opts, &cause) != 0 ||
	    loop_serve_init(&l, 1, &cause) != 0 ||
	    loop_signals(sig, NULL, &cause) != 0) {
		fprintf(stderr, "evtop: %s\n", cause != NULL ? cause :
		    "out of memory");
		free(cause);
		loop_unsignals(sig, 0);
		loop_free(&l);
		return 1;
	}
	l.batch = 1;
	period = batch_interval_ns(opts);
	now = source_now();
	l.rate_at = now;
	next_out = now + period;
	if (l.src != NULL)
		loop_step(&l, 0, now);

	while (!l.quit) {
		now = source_now();
		timeout = ended ? (l.http != NULL ? -1 :
		    loop_ms_until(drain_by, now)) : loop_ms_until(next_out, now);
		n = 0;
		pfd[n].fd = sig[0];
		pfd[n++].events = POLLIN;
		if (loop_wait(&l, !ended, sig[0], pfd, n, &srci, timeout,
		    &now) != 0) {
			fprintf(stderr, "evtop: poll: %s\n", strerror(errno));
			rc = 1;
			break;
		}
		if (l.quit)
			break;
		if (ended)
			;
		else if (l.src != NULL)
			loop_live(&l, srci >= 0 ? &pfd[srci] : NULL, now);
		else
			loop_replay(&l, now);
		now = source_now();
		loop_status(&l, now);
		loop_serve_handle(&l, pfd, now);
		loop_note(&l, 1);
		if (ended) {
			/* Relay clients get what is queued, for a while. */
			if (l.http == NULL && (!relay_pending(l.relay) ||
			    now >= drain_by))
				break;
			continue;
		}
		if ((l.src != NULL && l.src->state == SOURCE_ENDED) ||
		    (l.rp != NULL && replay_done(l.rp))) {
			/* The last figures now; serve them if asked. */
			loop_finish(&l);
			loop_flush(&l);
			if (loop_emit(&l) != 0) {
				rc = 1;
				break;
			}
			ended = 1;
			drain_by = now + LOOP_DRAIN_NS;
			if (l.http == NULL && (l.relay == NULL ||
			    !relay_pending(l.relay)))
				break;
			continue;
		}
		if (now >= next_out) {
			if (loop_emit(&l) != 0) {
				rc = 1;
				break;
			}
			next_out += period;
			if (next_out <= now)
				next_out = now + period;
		}
	}
	/* Interrupted, or ended: what was read so far counts. */
	if (!ended) {
		loop_finish(&l);
		loop_flush(&l);
		if (rc == 0 && loop_emit(&l) != 0)
			rc = 1;
	}
	if (export_end(l.model, opts) != 0)
		rc = 1;
	loop_unsignals(sig, 0);
	loop_free(&l);
	return rc;
}
