/*
 * loop-priv.h: what the files of the poll loop share (see loop.c for the
 * loop itself): its state, its limits, and the functions one file calls
 * in another.  Calls go one way, each file calling only those after it
 * here: loop-tui.c and loop-batch.c (the two loops); loop.c (setup, the
 * UI's actions, the poll); loop-time.c (a file's passes, seeking,
 * ranges); loop-input.c (bytes and events in, commands out);
 * loop-status.c (what the header says); loop-serve.c (metrics and the
 * relay); loop-signals.c; loop-base.c (the log and the clocks).
 */
#ifndef EVTOP_LOOP_PRIV_H
#define EVTOP_LOOP_PRIV_H

#include <sys/types.h>

#include <poll.h>
#include <stdint.h>
#include <stdio.h>

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
/* The slices while the history is applied again: the source is read
 * between them often enough that a program writing to a Unix socket
 * (a queue of about 200 KB) is not held up by a correction. */
#define LOOP_FINE_NS		1000000ull
#define LOOP_EMIT_WAIT_NS	1000000000ull	/* a line waits for a correction */
#define LOOP_PASS_N		16384	/* first pass events between clock reads */
#define LOOP_DRAW_NS		100000000ull
#define LOOP_HOLD_DRAW_NS	5000000000ull	/* a correction under way */
#define LOOP_QUIET_NS		1000000000ull	/* flush a quiet source */
#define LOOP_RATE_NS		1000000000ull
#define LOOP_NO_HEADER		(64u << 10)	/* say so after this */
#define LOOP_NO_HEADER_MAX	(1u << 20)	/* not an eventlog: drop it */
#define LOOP_DRAIN_NS		5000000000ull	/* relay clients, at exit */
#define LOOP_ERRORS_SAID	10	/* a connection's, on stderr */
#define LOOP_SERVE_FDS		(HTTP_MAX_FDS + RELAY_MAX_FDS)
#define LOOP_NFDS		(3 + LOOP_SERVE_FDS)

struct loop {
	const struct evtop_opts *opts;
	struct source	*src;		/* a live source, or */
	struct replay	*rp;		/* a file */
	struct proto_dec *dec;
	struct model	*model;
	struct export_progs xp;		/* each program's profiles out */
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
	/* Why seeking is off since the file changed under it, or "". */
	char		 file_changed[96];
	uint64_t	 file_checked;	/* when it was last looked at */
	int		 relay_at, relay_n;
	struct tl	*tl;		/* the timeline's summary (TUI) */
	uint64_t	 tl_resets;	/* the model's prog.resets it follows */
	struct redo	*redo;		/* a live source's history */

	struct evtop_status st;
	int		 changed;	/* since the last draw */
	uint64_t	 next_draw;

	uint8_t		*buf;
	int		 saw_end;	/* the last unit was the end marker */
	int		 not_eventlog;	/* a connection dropped: no header */
	int		 conn_header;	/* this connection's header came */
	unsigned	 conn_errors;	/* this connection's stream errors */
	char		 stream_err[160];	/* the last, for the header */
	uint64_t	 stream_err_conn;	/* its connection (src) */
	uint64_t	 last_data;	/* when bytes last came */
	int		 held;		/* the model may hold events back */
	char		 last_msg[sizeof ((struct evtop_status *)0)->conn_msg];

	uint64_t	 events;
	uint64_t	 max_time;	/* latest event time, this connection */
	uint64_t	 rate_at, rate_events;

	int		 quit;
	int		 quit_sig;	/* SIGTERM, SIGHUP: die of it last */
	int		 suspended;
	int		 batch;		/* --batch: notes to stderr too */
};

/* loop-base.c: the log and the clock */
void	loop_log(struct loop *l, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
int	loop_min_timeout(int a, int b);
int	loop_ms_until(uint64_t at, uint64_t now);
uint64_t loop_wall(void);

/* loop-signals.c: signals, job control, the terminal put back */
void	loop_read_signals(struct loop *l, int fd);
int	loop_signals(int fds[2], const struct loop_ui *ui, char **cause);
void	loop_unsignals(int fds[2], int tui);
int	loop_die(int sig, int rc);

/* loop-status.c: what the header and --batch say of the source */
const char *loop_ended_empty(const struct loop *l);
void	loop_history_json(struct loop *l, char *buf, size_t size);
void	loop_note(struct loop *l, int batch);
void	loop_status(struct loop *l, uint64_t now);

/* loop-input.c: a live source's bytes and events in, commands out */
int	loop_can_send(const struct loop *l);
void	loop_control(struct loop *l, uint64_t now);
void	loop_drain(struct loop *l);
void	loop_events(struct loop *l, const struct proto_ev *ev, size_t n);
void	loop_flush(struct loop *l);
void	loop_live(struct loop *l, const struct pollfd *pfd, uint64_t now);
short	loop_live_events(const struct loop *l);
int	loop_live_timeout(const struct loop *l, uint64_t now);
void	loop_step(struct loop *l, short revents, uint64_t now);

/* loop-time.c: a file's replay and first pass, seeking, ranges */
void	loop_live_range(struct loop *l);
int	loop_file_changed(struct loop *l);
void	loop_pass(struct loop *l, uint64_t start);
void	loop_range(struct loop *l);
void	loop_replay(struct loop *l, uint64_t start);
int	loop_seek(struct loop *l, uint64_t t, int hold);
void	loop_view(struct loop *l, uint64_t t);

/* loop-serve.c: metrics and the relay in the poll set */
int	loop_serve_fds(struct loop *l, struct pollfd *pfd, int n);
void	loop_serve_handle(struct loop *l, const struct pollfd *pfd,
	    uint64_t now);
int	loop_serve_init(struct loop *l, int batch, char **cause);
int	loop_serve_timeout(const struct loop *l, int t, uint64_t now);

/* loop.c: setup, the UI's actions, the poll */
void	loop_action(struct loop *l, enum ui_action a,
	    const struct evtop_cmd *cmd, uint64_t now);
void	loop_finish(struct loop *l);
void	loop_free(struct loop *l);
int	loop_hold_draw(const struct loop *l, uint64_t now);
int	loop_init(struct loop *l, const struct evtop_opts *opts,
	    char **cause);
uint64_t loop_next_draw(uint64_t began, uint64_t ended);
void	loop_serve_step(struct loop *l, const struct pollfd *pfd,
	    uint64_t now);
int	loop_wait(struct loop *l, int source, int sig, struct pollfd *pfd,
	    int n, int *srci, int timeout, uint64_t *now);

#endif
