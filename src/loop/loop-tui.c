/*
 * loop-tui.c: the poll loop of the terminal UI.
 */
#include <stdio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "loop/loop-priv.h"

int
loop_tui(const struct evtop_opts *opts, const struct loop_ui *ui)
{
	struct loop	 l;
	struct pollfd	 pfd[LOOP_NFDS];
	struct evtop_cmd cmd;
	enum ui_action	 a;
	char		*cause = NULL;
	int		 sig[2] = { -1, -1 }, timeout, n, srci, rc = 0;
	int		 sigquit;
	int		 waiting;
	/* A key's answer: the key came after key_since (the last wait's
	 * end, polled, or the end of the wait it ended), so its frame out
	 * minus that bounds the time evtop took, however busy (--log says
	 * it for each key). */
	uint64_t	 now, polled, key_since = 0;

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
		snprintf(l.st.seek_off, sizeof l.st.seek_off, "no seeking: %s",
		    cause != NULL ? cause : "out of memory");
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
	polled = now;

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
		/* A key read after this wait came after the last wait's end
		 * if it is there already, else during this wait, which it
		 * ended: its answer is timed from there (what evtop's work
		 * made it wait, not the kernel's waking). */
		waiting = poll(&pfd[1], 1, 0) > 0;
		if (loop_wait(&l, 1, sig[0], pfd, n, &srci, timeout,
		    &now) != 0) {
			source_cause(&cause, "poll: %s", strerror(errno));
			rc = 1;
			break;
		}
		if ((pfd[1].revents & POLLIN) && key_since == 0)
			key_since = waiting ? polled : now;
		polled = now;
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
		loop_serve_step(&l, pfd, now);
		loop_note(&l, 0);
		if (loop_hold_draw(&l, now))
			;	/* not even for a key: the model is going back */
		else if (l.changed && now >= l.next_draw) {
			ui->draw(l.ui, l.model, &l.st, 1);
			l.changed = 0;
			l.next_draw = loop_next_draw(now, source_now());
		} else
			ui->draw(l.ui, l.model, &l.st, 0);
		/* (Not while a key is partly read: a lone Esc waits to be
		 * told from the start of a sequence.) */
		if (key_since != 0 && !loop_hold_draw(&l, now) &&
		    ui->timeout_ms(l.ui) <= 0) {
			loop_log(&l, "key answered within %.1f ms",
			    (double)(source_now() - key_since) / 1e6);
			key_since = 0;
		}
	}
	ui->free(l.ui);
	loop_unsignals(sig, 1);
	loop_finish(&l);
	if (cause == NULL && loop_ended_empty(&l) != NULL) {
		/* Shown for a moment (--once): said where it stays. */
		source_cause(&cause, "%s: %s", opts->target,
		    loop_ended_empty(&l));
		rc = 1;
	}
	/* What was said of earlier programs' exports, now it can be read. */
	fputs(l.xp.said, stderr);
	if (export_end(l.model, opts) != 0 || l.xp.failed > 0)
		rc = 1;
	if (cause != NULL) {
		fprintf(stderr, "evtop: %s\n", cause);
		free(cause);
	}
	sigquit = l.quit_sig;
	loop_free(&l);
	return loop_die(sigquit, rc);
}
