/*
 * loop.c: the one poll() loop, for the TUI (loop-tui.c) and for --batch over
 * a live source (loop-batch.c): their setup, the UI's actions, the poll.
 *
 * Each pass: poll() the self-pipe of the signals, the terminal and the
 * source with a timeout that is the nearest of: the next draw, the next
 * retry of a source that is not there, the next replayed event, a key the
 * UI must force, the periodic batch output, the flush of a quiet source.
 * Then: signals, keys, a bounded slice of input (at most LOOP_SLICE_BYTES
 * or LOOP_SLICE_NS per pass, so keys stay responsive during a flood or a
 * fast replay; LOOP_FINE_NS, and as long for the history applied again,
 * while late events are put back), queued control commands, and at most
 * one draw, at most every LOOP_DRAW_NS and only when something changed.
 *
 * The source is always drained, whatever the display does: a paused
 * display or a slow terminal never stops the reading (an eventlog-socket
 * program queues what is unread in its own memory, without limit).
 *
 * Each connection gets a fresh decoder; the model decides what a new header
 * means (model_header).  The bytes go to the recorder before the decoder,
 * the events to the control watch and to the model.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loop/loop-priv.h"

/* Leaving with a connection open: its recording ends as a whole file. */
void
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

void
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

int
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
	/* Another program in the stream: the one that ended is exported. */
	l->xp.o = opts;
	l->xp.err = opts->batch ? stderr : NULL;
	l->xp.msg = opts->batch ? NULL : l->st.export_msg;
	l->xp.len = sizeof l->st.export_msg;
	model_on_program(l->model, export_program, &l->xp);
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

/* A command to the program: NULL once queued, or why it was not. */
static const char *
loop_send(struct loop *l, const struct evtop_cmd *cmd, uint64_t now)
{
	const char	*why = NULL;

	if (l->src == NULL)
		why = "control commands need a socket (--unix or --tcp), "
		    "this is a file";
	else if (!source_takes_control(l->src))
		why = "control commands need a socket (--unix or --tcp), "
		    "not a FIFO or stdin";
	if (why != NULL) {
		control_refuse(l->ctl, cmd, why);
		return why;
	}
	if (control_queue(l->ctl, cmd, loop_can_send(l)) != 0)
		return "not queued: see the control note";
	loop_control(l, now);
	return NULL;
}

/* The UI asked for something. */
void
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
			(void)loop_seek(l, l->model->range.to_ns, 0);
		else if (l->rp != NULL && loop_file_changed(l))
			snprintf(l->st.cmd_msg, sizeof l->st.cmd_msg,
			    "the replay stays: %s", l->file_changed);
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
		if (l->rp != NULL && loop_file_changed(l))
			snprintf(l->st.cmd_msg, sizeof l->st.cmd_msg,
			    "the replay stays: %s", l->file_changed);
		else if (l->rp != NULL)
			replay_to_end(l->rp, now);
		else if (l->redo != NULL)
			redo_now(l->redo);
		break;
	case UI_SEND:
		(void)loop_send(l, cmd, now);
		break;
	case UI_SEEK:
		if (l->redo != NULL) {
			loop_view(l, l->uiops->seek_ns(l->ui));
			break;
		}
		if (l->tr == NULL) {
			snprintf(l->st.cmd_msg, sizeof l->st.cmd_msg, "%s",
			    l->rp == NULL ? "seeking works when replaying a "
			    "file" : l->st.seek_off[0] != '\0' ?
			    l->st.seek_off : "seeking is off while re-serving "
			    "(--serve): readers would see time go back");
			break;
		}
		if (!travel_passed(l->tr)) {
			l->seek_pending = 1;
			l->seek_to = l->uiops->seek_ns(l->ui);
			break;
		}
		(void)loop_seek(l, l->uiops->seek_ns(l->ui), 1);
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
			(void)loop_seek(l, l->model->range.to_ns, 1);
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

/* What the serving sockets brought: relay clients' commands go the way
 * the keys' do (the relay counts them as what became of them), then
 * what is queued for the clients. */
void
loop_serve_step(struct loop *l, const struct pollfd *pfd, uint64_t now)
{
	struct evtop_cmd	cmd;

	loop_serve_handle(l, pfd, now);
	if (l->relay == NULL)
		return;
	while (relay_command(l->relay, &cmd)) {
		relay_command_done(l->relay, loop_send(l, &cmd, now));
		l->changed = 1;
	}
	relay_flush(l->relay);
}

/*
 * When the next draw may be: LOOP_DRAW_NS after this one ended, or twice
 * as long as it took if the terminal is slow, so that at least two thirds
 * of the time go to reading the source.
 */
uint64_t
loop_next_draw(uint64_t began, uint64_t ended)
{
	uint64_t	took = ended - began;

	return ended + (2 * took > LOOP_DRAW_NS ? 2 * took : LOOP_DRAW_NS);
}

/*
 * While the model goes back to put late events in place it shows the
 * past: the last frame stays instead, for up to LOOP_HOLD_DRAW_NS (then
 * the header says it is correcting).
 */
int
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
int
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
