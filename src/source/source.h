/*
 * source.h: where the bytes come from and what goes back: live sources
 * (Unix and TCP sockets, FIFOs, stdin), paced file replay, control commands
 * and recording.  Used by loop.c and the tests; no curses here.
 */
#ifndef SOURCE_H
#define SOURCE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "evtop.h"

/* Retry delays while a live source is not there: 100 ms doubling to 2 s. */
#define SOURCE_BACKOFF_MIN_MS	100
#define SOURCE_BACKOFF_MAX_MS	2000
/* A connect() that has not finished by then is given up (and retried). */
#define SOURCE_CONNECT_MS	5000
#define SOURCE_RESOLVE_MS	10	/* a name being resolved: look again */

enum source_state {
	SOURCE_WAITING,		/* no fd; next attempt at retry_at */
	SOURCE_CONNECTING,	/* fd; connect in progress (POLLOUT) */
	SOURCE_OPEN,		/* fd; reading */
	SOURCE_ENDED,		/* for good: stdin at EOF, or --once */
};

/* What a call to source_step() or source_read() found. */
enum source_ev {
	SOURCE_EV_NONE,
	SOURCE_EV_OPENED,	/* a new connection: reset the decoder */
	SOURCE_EV_DATA,		/* bytes were read */
	SOURCE_EV_CLOSED,	/* the connection ended (msg says why) */
};

struct source;

/* One kind of live source.  open() sets src->fd and returns 0 when
 * connected, 1 when a connect is in progress (finish() is called when the
 * fd is writable, or, if open() left src->fd at -1, every
 * SOURCE_RESOLVE_MS: it returns 1 while still waiting), or -1 with
 * *cause: the loop retries later. */
struct source_ops {
	const char	*name;
	int		 (*open)(struct source *, char **);
	int		 (*finish)(struct source *, char **);
	void		 (*close)(struct source *);
	void		 (*free)(struct source *);
	ssize_t		 (*write)(struct source *, const void *, size_t);
	int		 control;	/* takes control commands */
	int		 reopen;	/* may come back after it ends */
	int		 lazy;		/* "connected" only once data comes */
};

struct source {
	const struct source_ops *ops;
	const char	*target;
	void		*data;		/* the kind's own state */
	int		 fd;
	enum source_state state;
	int		 once;
	int		 had_data;	/* this connection delivered bytes */
	int		 ever;		/* some connection delivered bytes */
	unsigned	 backoff_ms;
	uint64_t	 retry_at;	/* monotonic ns */
	uint64_t	 connect_by;	/* give up connecting then */
	uint64_t	 conn_bytes;	/* this connection */
	uint64_t	 bytes;		/* all connections */
	uint64_t	 connections;	/* connections that delivered bytes */
	char		 msg[160];
};

/* source.c */
void		 source_cause(char **, const char *, ...)
		     __attribute__((format(printf, 2, 3)));
uint64_t	 source_now(void);
int		 source_kind_of(const char *, enum evtop_src_kind *, char **);
struct source	*source_new(enum evtop_src_kind, const char *, int, char **);
void		 source_free(struct source *);
short		 source_poll_events(const struct source *);
int		 source_timeout_ms(const struct source *, uint64_t);
enum source_ev	 source_step(struct source *, short, uint64_t);
ssize_t		 source_read(struct source *, void *, size_t, short,
		     uint64_t, enum source_ev *);
ssize_t		 source_write(struct source *, const void *, size_t);
ssize_t		 source_send(struct source *, const void *, size_t);
void		 source_disconnect(struct source *, const char *, uint64_t);
int		 source_takes_control(const struct source *);
enum evtop_conn	 source_conn(const struct source *);

/* source-unix.c, source-tcp.c, source-fifo.c, source-stdin.c */
extern const struct source_ops source_unix_ops;
extern const struct source_ops source_tcp_ops;
extern const struct source_ops source_fifo_ops;
extern const struct source_ops source_stdin_ops;
int		 source_tcp_split(const char *, char *, size_t, char *,
		     size_t, char **);

/* source-file.c: a recorded eventlog replayed at a pace set by its
 * timestamps. */
struct replay;
struct replay	*replay_open(const char *, double, char **);
void		 replay_free(struct replay *);
size_t		 replay_take(struct replay *, uint64_t, const struct proto_ev **);
int		 replay_timeout_ms(const struct replay *, uint64_t);
int		 replay_done(const struct replay *);
const struct proto_dec *replay_dec(const struct replay *);
const char	*replay_error(const struct replay *);
void		 replay_pause(struct replay *, uint64_t);
void		 replay_hold(struct replay *);
void		 replay_speed(struct replay *, double, uint64_t);
void		 replay_faster(struct replay *, uint64_t);
void		 replay_slower(struct replay *, uint64_t);
void		 replay_max(struct replay *, uint64_t);
void		 replay_to_end(struct replay *, uint64_t);
int		 replay_asap(const struct replay *);
void		 replay_status(const struct replay *, struct evtop_status *);
struct reader	*replay_reader(struct replay *);
void		 replay_moved(struct replay *, uint64_t, int);

/* control.c: control commands, queued and written whole. */
#define CONTROL_MAGIC		"\xf0\x9e\x97\x8c"
#define CONTROL_NS		"eventlog-socket"
#define CONTROL_MAX_MSG		(4 + 1 + 1 + 255 + 1)
#define CONTROL_QUEUE		32

enum {
	CONTROL_START_PROFILING = 1,
	CONTROL_STOP_PROFILING = 2,
	CONTROL_START_HEAP = 3,
	CONTROL_STOP_HEAP = 4,
	CONTROL_CENSUS = 5,
};

struct control;
int		 control_parse(const char *, struct evtop_cmd *, char **);
size_t		 control_encode(const struct evtop_cmd *, uint8_t *, size_t);
const char	*control_name(const struct evtop_cmd *, char *, size_t);
struct control	*control_new(void);
void		 control_free(struct control *);
int		 control_queue(struct control *, const struct evtop_cmd *,
		     int);
int		 control_pending(const struct control *);
int		 control_flush(struct control *, struct source *);
void		 control_connected(struct control *);
void		 control_disconnected(struct control *);
void		 control_refuse(struct control *, const struct evtop_cmd *,
		     const char *);
void		 control_event(struct control *, const struct proto_ev *);
void		 control_time(struct control *, uint64_t);
const char	*control_note(struct control *);
void		 control_status(const struct control *, struct evtop_status *);

/* record.c: the bytes received, one valid eventlog per connection. */
struct record;
struct record	*record_new(const char *, char **);
void		 record_free(struct record *);
int		 record_write(struct record *, const void *, size_t, char **);
int		 record_end(struct record *, uint64_t, int, char **);
const char	*record_path(const struct record *);
uint64_t	 record_bytes(const struct record *);
uint64_t	 record_skipped(const struct record *);
const char	*record_error(const struct record *);

/*
 * loop.c: the UI as the loop drives it.  evtop.c fills it with ui.h's
 * functions; a test double can take their place, so that the loop (and
 * everything linking src/) never needs curses.
 */
struct ui;
struct model;
struct loop_ui {
	struct ui	*(*new)(const struct evtop_opts *, char **);
	void		 (*free)(struct ui *);
	int		 (*fd)(const struct ui *);
	int		 (*timeout_ms)(const struct ui *);
	int		 (*input)(struct ui *, int, struct evtop_cmd *);
					/* an enum ui_action */
	void		 (*draw)(struct ui *, const struct model *,
			     const struct evtop_status *, int);
	void		 (*resize)(struct ui *);
	void		 (*suspend)(struct ui *);
	void		 (*resume)(struct ui *);
	void		 (*emergency_restore)(void);
	uint64_t	 (*seek_ns)(const struct ui *);	/* of a UI_SEEK */
	void		 (*range)(const struct ui *, uint64_t *, uint64_t *);
};
int		 loop_tui(const struct evtop_opts *, const struct loop_ui *);

#endif
