/*
 * evtop.h: what src/ offers the rest of evtop: options, sources and the
 * loop's status, the time-ordered file reader, and the entry points.
 * The model has its own header, model.h.
 */
#ifndef EVTOP_H
#define EVTOP_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "proto.h"

#define EVTOP_MAX_SEND	16

/* A control command: eventlog-socket namespace and command id. */
struct evtop_cmd {
	char		ns[256];
	uint8_t		id;
};

enum evtop_src_kind {
	EVTOP_SRC_FILE,		/* a recorded eventlog, replayed */
	EVTOP_SRC_STDIN,	/* "-" */
	EVTOP_SRC_FIFO,
	EVTOP_SRC_UNIX,
	EVTOP_SRC_TCP,
};

/* The command line, parsed by evtop.c. */
struct evtop_opts {
	enum evtop_src_kind kind;
	const char	*target;	/* path, or HOST:PORT for tcp */
	int		 batch;
	int		 json;
	double		 interval;	/* --interval SECONDS, batch */
	int		 once;		/* exit when a live source ends */
	const char	*record;	/* --record FILE */
	struct evtop_cmd send[EVTOP_MAX_SEND];
	int		 nsend;
	double		 speed;		/* replay speed, 1 = real time */
	const char	*log;		/* -v log file */
	/* Serving (serve.h): --metrics, --serve, --serve-tcp. */
	const char	*metrics;	/* HOST:PORT */
	const char	*serve;		/* Unix socket path */
	const char	*serve_tcp;	/* HOST:PORT */
	int		 serve_readonly; /* refuse clients' commands */
	size_t		 serve_queue;	/* bytes queued per client */
	/* Profiles out (export.c): files written at the end ("-": stdout),
	 * and where the export key writes. */
	const char	*folded, *speedscope, *hp, *export_dir;
	/* --from, --to: the range of event time --batch reports (ns;
	 * to_ns UINT64_MAX: the end). */
	int		 range;
	uint64_t	 from_ns, to_ns;
	/* A live source's history (src/time/redo.c): event time and bytes
	 * kept; history_ns 0: none. */
	uint64_t	 history_ns, history_bytes;
};

/* Connection state of the source, for the header and the status line. */
enum evtop_conn {
	EVTOP_CONN_WAITING,	/* not there yet: retrying, not an error */
	EVTOP_CONN_OPEN,
	EVTOP_CONN_CLOSED,	/* ended; reconnecting unless --once */
	EVTOP_CONN_DONE,	/* a file replayed to its end */
};

struct spill;
struct tl;

/* What the loop tells the UI, besides the model. */
struct evtop_status {
	const char	*source;	/* as given on the command line */
	enum evtop_src_kind kind;
	enum evtop_conn	 conn;
	char		 conn_msg[160];	/* why closed/waiting, last error */
	char		 stream_err[160]; /* a live stream's bad bytes, or "" */
	uint64_t	 bytes;		/* read from the source */
	uint64_t	 connections;
	double		 events_per_s;	/* wall-clock rate, live */
	/* File replay. */
	double		 speed;		/* 0 = as fast as possible */
	int		 paused;	/* replay paused */
	int		 file_err;	/* conn_msg: why the file stops short */
	char		 seek_off[160];	/* why a file cannot be sought, or "" */
	uint64_t	 file_size, file_pos;
	uint64_t	 file_time;	/* event time reached, ns */
	/* Time travel (src/time/travel.c), a file only. */
	int		 seekable;	/* g works */
	double		 pass;		/* the first pass: 0..1, 1 when done */
	uint64_t	 file_first, file_last;	/* its event times, when done */
	int		 range_on;	/* a range [range_from, range_to) shown */
	uint64_t	 range_from, range_to;
	/* Recording. */
	const char	*record_path;	/* current file, NULL when off */
	uint64_t	 record_bytes;
	/* Last control command and whether its effect was seen. */
	char		 cmd_msg[160];
	int		 cmd_pending;	/* sent, effect not yet seen */
	int		 cmd_seen;	/* effect seen */
	/* What the export key wrote, or why not (export.c). */
	char		 export_msg[160];
	/* A live source's history: late events put back, the past. */
	int		 history;	/* kept */
	uint64_t	 history_bytes, history_first, history_last;
	uint64_t	 corrections;	/* times late events were put back */
	uint64_t	 corrected_ns;	/* how far back the last went */
	uint64_t	 corrected_at;	/* wall ns it ended, 0: never */
	int		 correcting;	/* one under way */
	int		 viewing;	/* held in the past at view_ns */
	uint64_t	 view_ns;
	uint64_t	 lag_ns;	/* wall now - wall of the newest shown */
	int		 lag_known;
	/* The history itself, for the raw events' own reading (time/spill.h;
	 * NULL: none kept, --history 0), and why it stopped, or NULL. */
	const struct spill *spill;
	const char	*history_error;
	/* Wall clock now, ns since the epoch, from the loop. */
	uint64_t	 wall_ns;
	/* The run's summary for the timeline (time/tl.h), or NULL. */
	const struct tl	*timeline;
};

/* reader.c: a file's events in the reference's order (stable by time). */
struct reader;
struct reader	*reader_open(const char *, char **);
struct reader	*reader_open_own(const char *, uint64_t, uint64_t, char **);
void		 reader_free(struct reader *);
enum proto_res	 reader_next(struct reader *, struct proto_ev *);
size_t		 reader_next_n(struct reader *, struct proto_ev *, size_t);
size_t		 reader_next_heads(struct reader *, struct proto_ev *, size_t);
size_t		 reader_next_frames(struct reader *, struct proto_frame *,
		     size_t);
size_t		 reader_frames_dec(const struct reader *,
		     const struct proto_frame *, size_t, struct proto_ev *);
void		 reader_frames_fail(struct reader *, const struct proto_frame *);
int		 reader_seek(struct reader *, uint64_t, uint64_t);
void		 reader_rest(struct reader *);
void		 reader_tell(const struct reader *, uint64_t *, uint64_t *);
int		 reader_lasting(const struct reader *);
int		 reader_shrank(const struct reader *);
const char	*reader_changed(struct reader *);
int		 reader_cores(void);
int		 reader_thread(pthread_t *, void *(*)(void *), void *);
const struct proto_dec *reader_dec(const struct reader *);
const char	*reader_error(const struct reader *);
uint64_t	 reader_events(const struct reader *);
uint64_t	 reader_done(const struct reader *);
uint64_t	 reader_size(const struct reader *);
int		 reader_bus_fault(const void *);	/* reader-bytes.c */

/* feed.c: a reader read on a thread of its own, a slab at a time. */
struct feed;
typedef size_t	 feed_fill_p_fn(void *, const struct proto_ev **, size_t,
		     uint64_t, uint64_t);
struct feed	*feed_new(struct reader *, int);
struct feed	*feed_new_fill_p(feed_fill_p_fn *, void *, int);
size_t		 feed_next(struct feed *, const struct proto_ev **);
size_t		 feed_next_p(struct feed *, const struct proto_ev *const **);
const char	*feed_error(const struct feed *);
void		 feed_free(struct feed *);

/* export.c: profiles out; win is an enum model_win. */
struct model;
struct model_band;
const char	*export_band_name(const struct model *,
		     const struct model_band *, char *, size_t);
int		 export_stdout(const struct evtop_opts *);
int		 export_check(const struct evtop_opts *, char **);
int		 export_end(const struct model *, const struct evtop_opts *);
int		 export_key(const struct model *, const struct evtop_opts *,
		     int, char *, size_t);
/* Each program but the last, written when the next begins: given to
 * model_on_program() with export_program(). */
struct export_progs {
	const struct evtop_opts *o;
	uint64_t	 done;		/* programs written */
	FILE		*err;		/* lines to (--batch), or NULL: */
	char		 said[2048];	/* kept for the end (the TUI) */
	char		*msg;		/* the TUI's header, or NULL */
	size_t		 len;
	int		 failed;	/* writes that failed */
};
void		 export_program(void *, const struct model *);

/* show.c */
int		 show_main(int, char **);

/* batch.c: --batch */
int		 batch_main(const struct evtop_opts *);

/* loop.c: the TUI (ui/, wired by loop.c); --batch over a live source. */
int		 tui_main(const struct evtop_opts *);
int		 loop_batch(const struct evtop_opts *);

#endif
