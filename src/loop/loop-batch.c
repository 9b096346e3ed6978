/*
 * loop-batch.c: the poll loop of --batch over a live source, or over a file
 * that is served.
 */
#include <stdio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "loop/loop-priv.h"

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
 * When the line due at next_out is printed: a correction under way is let
 * finish first, for a while; settling it then would stop reading the
 * source until it is done (the producer held up at every line).
 */
static uint64_t
loop_emit_due(const struct loop *l, uint64_t next_out)
{
	return redo_busy(l->redo) ? next_out + LOOP_EMIT_WAIT_NS : next_out;
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
	int		 ended = 0, sigquit;
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
		    loop_ms_until(drain_by, now)) :
		    loop_ms_until(loop_emit_due(&l, next_out), now);
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
		loop_serve_step(&l, pfd, now);
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
		if (now >= loop_emit_due(&l, next_out)) {
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
	if (export_end(l.model, opts) != 0 || l.xp.failed > 0)
		rc = 1;
	if (l.not_eventlog && l.model->totals.headers == 0)
		rc = 1;		/* not an eventlog: said, figures of nothing */
	if (loop_ended_empty(&l) != NULL)
		rc = 1;		/* ended with no header: said, as above */
	loop_unsignals(sig, 0);
	sigquit = l.quit_sig;
	loop_free(&l);
	return loop_die(sigquit, rc);
}
