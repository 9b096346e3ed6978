/*
 * control.c: control commands to an eventlog-socket program.
 *
 * A message is F0 9E 97 8C, version 00, a namespace length (1..255), the
 * namespace and a command id.  Commands wait in a queue and are written
 * whole and in order; when the socket is full the rest of a message waits
 * for POLLOUT.  A connection that ends in the middle of a message drops it
 * (the program's parser starts afresh on the next connection) and says so;
 * messages not yet started stay queued for the next connection.
 *
 * The program never answers.  Whether a command worked shows in the events
 * that follow: a census (HEAP_PROF_SAMPLE_BEGIN) after a census request or
 * a start of heap profiling, cost-centre samples after a start of
 * profiling, and no more samples after a stop.  "After" is in the
 * program's time: the latest event time seen when the command went out,
 * or better, the program's clock then, known from its WALL_CLOCK_TIME
 * event (same host assumed; only ever moves the bar later, never earlier
 * than the events already seen).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "source/source.h"

#define CONTROL_NNOTES		8

/* A stop is seen when samples have been absent this long (event time). */
#define CONTROL_QUIET_MIN_NS	1000000000ull
#define CONTROL_QUIET_FACTOR	3

struct control_msg {
	struct evtop_cmd cmd;
	uint8_t		 buf[CONTROL_MAX_MSG];
	size_t		 len;
};

/* What the samples of one kind look like: for a stop's effect. */
struct control_samples {
	uint64_t	 last;		/* time of the latest sample */
	uint64_t	 interval;	/* between the last two */
	int		 seen;
};

/* A built-in command written, and when: what would show it worked. */
struct control_watch {
	struct evtop_cmd cmd;
	int		 active;
	uint64_t	 t0;		/* program time at the send */
	uint64_t	 sent_wall;
	int		 told;		/* "still arriving" said */
};

struct control {
	struct control_msg q[CONTROL_QUEUE];
	unsigned	 head, n;
	size_t		 sent;		/* bytes of q[head] written */

	/* Built-in commands written, waiting for their effect. */
	struct control_watch w[CONTROL_CENSUS + 1];

	uint64_t	 last_time;	/* latest event time, this connection */
	int64_t		 wall_base;	/* wall ns - program ns */
	int		 wall_known;
	struct control_samples heap, prof;

	char		 msg[160];
	int		 pending, seen;

	/* Every message said, for the log and --batch's stderr. */
	char		 notes[CONTROL_NNOTES][160];
	unsigned	 note_head, note_n;
};

static const struct {
	const char	*name;
	uint8_t		 id;
} control_names[] = {
	{ "start-profiling", CONTROL_START_PROFILING },
	{ "stop-profiling", CONTROL_STOP_PROFILING },
	{ "start-heap-profiling", CONTROL_START_HEAP },
	{ "stop-heap-profiling", CONTROL_STOP_HEAP },
	{ "census", CONTROL_CENSUS },
	{ "request-heap-census", CONTROL_CENSUS },
};

/* NAMESPACE:ID (ID 0..255), or one of the built-in commands' names. */
int
control_parse(const char *arg, struct evtop_cmd *cmd, char **cause)
{
	const char	*colon;
	char		*end;
	unsigned long	 id;
	size_t		 i, len;

	memset(cmd, 0, sizeof *cmd);
	for (i = 0; i < sizeof control_names / sizeof control_names[0]; i++) {
		if (strcmp(arg, control_names[i].name) == 0) {
			strcpy(cmd->ns, CONTROL_NS);
			cmd->id = control_names[i].id;
			return 0;
		}
	}
	if ((colon = strrchr(arg, ':')) == NULL) {
		source_cause(cause, "%s: expected NAMESPACE:ID or one of "
		    "census, start-heap-profiling, stop-heap-profiling, "
		    "start-profiling, stop-profiling", arg);
		return -1;
	}
	len = (size_t)(colon - arg);
	if (len < 1 || len > 255) {
		source_cause(cause, "%s: the namespace must have 1 to 255 "
		    "bytes", arg);
		return -1;
	}
	errno = 0;
	id = strtoul(colon + 1, &end, 0);
	if (colon[1] == '\0' || *end != '\0' || errno != 0 || id > 255 ||
	    colon[1] == '-') {
		source_cause(cause, "%s: the command id must be 0 to 255",
		    arg);
		return -1;
	}
	memcpy(cmd->ns, arg, len);
	cmd->ns[len] = '\0';
	cmd->id = (uint8_t)id;
	return 0;
}

/* The bytes of a message; 0 if it does not fit or the namespace is bad. */
size_t
control_encode(const struct evtop_cmd *cmd, uint8_t *buf, size_t size)
{
	size_t	nslen = strnlen(cmd->ns, sizeof cmd->ns);

	if (nslen < 1 || nslen > 255 || size < 4 + 1 + 1 + nslen + 1)
		return 0;
	memcpy(buf, CONTROL_MAGIC, 4);
	buf[4] = 0;
	buf[5] = (uint8_t)nslen;
	memcpy(buf + 6, cmd->ns, nslen);
	buf[6 + nslen] = cmd->id;
	return 6 + nslen + 1;
}

/* A name for the status line: "census", or "NAMESPACE:ID". */
const char *
control_name(const struct evtop_cmd *cmd, char *buf, size_t size)
{
	char	ns[64];
	size_t	i, n;

	if (strcmp(cmd->ns, CONTROL_NS) == 0) {
		for (i = 0; i < sizeof control_names / sizeof control_names[0];
		    i++) {
			if (control_names[i].id == cmd->id) {
				snprintf(buf, size, "%s",
				    control_names[i].name);
				return buf;
			}
		}
	}
	n = proto_sanitize(cmd->ns, strnlen(cmd->ns, sizeof cmd->ns), ns,
	    sizeof ns - 1);
	ns[n] = '\0';
	snprintf(buf, size, "%s:%u", ns, cmd->id);
	return buf;
}

struct control *
control_new(void)
{
	return calloc(1, sizeof (struct control));
}

void
control_free(struct control *ctl)
{
	free(ctl);
}

static uint64_t
control_wall_now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Still waiting for the effect of some command? */
static int
control_watching(const struct control *ctl)
{
	int	i;

	for (i = 0; i <= CONTROL_CENSUS; i++) {
		if (ctl->w[i].active)
			return 1;
	}
	return 0;
}

static void
control_say(struct control *ctl, const struct evtop_cmd *cmd, int pending,
    int seen, const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void
control_say(struct control *ctl, const struct evtop_cmd *cmd, int pending,
    int seen, const char *fmt, ...)
{
	char	name[80], text[128];
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	snprintf(ctl->msg, sizeof ctl->msg, "%s: %s",
	    control_name(cmd, name, sizeof name), text);
	ctl->pending = pending || control_watching(ctl);
	ctl->seen = seen;
	if (ctl->note_n == CONTROL_NNOTES) {
		ctl->note_head = (ctl->note_head + 1) % CONTROL_NNOTES;
		ctl->note_n--;
	}
	memcpy(ctl->notes[(ctl->note_head + ctl->note_n++) % CONTROL_NNOTES],
	    ctl->msg, sizeof ctl->msg);
}

/* Queue a command; ready says whether it can go out now (connected, and
 * the eventlog started there). */
int
control_queue(struct control *ctl, const struct evtop_cmd *cmd,
    int ready)
{
	struct control_msg	*m;

	if (ctl->n == CONTROL_QUEUE) {
		control_say(ctl, cmd, 0, 0, "not sent: %u commands already "
		    "waiting", ctl->n);
		return -1;
	}
	m = &ctl->q[(ctl->head + ctl->n) % CONTROL_QUEUE];
	if ((m->len = control_encode(cmd, m->buf, sizeof m->buf)) == 0) {
		control_say(ctl, cmd, 0, 0, "not sent: bad namespace");
		return -1;
	}
	m->cmd = *cmd;
	ctl->n++;
	control_say(ctl, cmd, 1, 0, ready ? "sending" :
	    "queued until the eventlog starts");
	return 0;
}

void
control_refuse(struct control *ctl, const struct evtop_cmd *cmd,
    const char *why)
{
	control_say(ctl, cmd, 0, 0, "not sent: %s", why);
}

int
control_pending(const struct control *ctl)
{
	return ctl->n > 0;
}

static void
control_watch(struct control *ctl, const struct evtop_cmd *cmd)
{
	struct control_watch *w;
	uint64_t	wall = control_wall_now(), t0 = ctl->last_time;
	int64_t		prog;

	if (strcmp(cmd->ns, CONTROL_NS) != 0 ||
	    cmd->id < CONTROL_START_PROFILING || cmd->id > CONTROL_CENSUS) {
		control_say(ctl, cmd, 0, 0, "sent (its effect is not "
		    "visible in the events)");
		return;
	}
	if (ctl->wall_known) {
		prog = (int64_t)wall - ctl->wall_base;
		if (prog > 0 && (uint64_t)prog > t0)
			t0 = (uint64_t)prog;
	}
	/* A start ends the watch of its stop, and the other way round. */
	switch (cmd->id) {
	case CONTROL_START_HEAP:
		ctl->w[CONTROL_STOP_HEAP].active = 0;
		break;
	case CONTROL_STOP_HEAP:
		ctl->w[CONTROL_START_HEAP].active = 0;
		break;
	case CONTROL_START_PROFILING:
		ctl->w[CONTROL_STOP_PROFILING].active = 0;
		break;
	case CONTROL_STOP_PROFILING:
		ctl->w[CONTROL_START_PROFILING].active = 0;
		break;
	}
	w = &ctl->w[cmd->id];
	w->cmd = *cmd;
	w->active = 1;
	w->t0 = t0;
	w->sent_wall = wall;
	w->told = 0;
	switch (cmd->id) {
	case CONTROL_CENSUS:
		control_say(ctl, cmd, 1, 0, "sent; no census seen yet");
		break;
	case CONTROL_START_HEAP:
		control_say(ctl, cmd, 1, 0, "sent; no heap sample seen yet");
		break;
	case CONTROL_START_PROFILING:
		control_say(ctl, cmd, 1, 0, "sent; no cost-centre sample "
		    "seen yet");
		break;
	default:
		control_say(ctl, cmd, 1, 0, "sent; samples not stopped yet");
		break;
	}
}

/*
 * Write what the socket takes.  Returns 0, or -1 when the connection is
 * broken (the caller disconnects the source, then calls
 * control_disconnected()).
 */
int
control_flush(struct control *ctl, struct source *src)
{
	struct control_msg	*m;
	ssize_t			 w;

	while (ctl->n > 0) {
		m = &ctl->q[ctl->head];
		w = source_write(src, m->buf + ctl->sent, m->len - ctl->sent);
		if (w < 0) {
			if (errno == EAGAIN || errno == EWOULDBLOCK ||
			    errno == EINTR)
				return 0;
			return -1;
		}
		ctl->sent += (size_t)w;
		if (ctl->sent < m->len)
			return 0;
		control_watch(ctl, &m->cmd);
		ctl->sent = 0;
		ctl->head = (ctl->head + 1) % CONTROL_QUEUE;
		ctl->n--;
	}
	return 0;
}

/* A new connection: new program time, maybe a new program. */
void
control_connected(struct control *ctl)
{
	int	i;

	ctl->last_time = 0;
	ctl->wall_known = 0;
	memset(&ctl->heap, 0, sizeof ctl->heap);
	memset(&ctl->prof, 0, sizeof ctl->prof);
	for (i = 0; i <= CONTROL_CENSUS; i++) {
		/* Its effect, if any, would be in the old connection. */
		if (!ctl->w[i].active)
			continue;
		ctl->w[i].active = 0;
		control_say(ctl, &ctl->w[i].cmd, 0, 0, "sent; effect not "
		    "seen before the connection ended");
	}
}

/* The connection ended: a half-written message is lost. */
void
control_disconnected(struct control *ctl)
{
	struct control_msg	*m;

	if (ctl->n == 0 || ctl->sent == 0)
		return;
	m = &ctl->q[ctl->head];
	control_say(ctl, &m->cmd, 0, 0, "dropped: the connection ended "
	    "after %zu of its %zu bytes", ctl->sent, m->len);
	ctl->sent = 0;
	ctl->head = (ctl->head + 1) % CONTROL_QUEUE;
	ctl->n--;
}

static void
control_sample(struct control_samples *s, uint64_t t)
{
	if (s->seen && t > s->last)
		s->interval = t - s->last;
	if (!s->seen || t > s->last)
		s->last = t;
	s->seen = 1;
}

static double
control_secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

/* A sample arrived at time t: the effect of w's command? */
static void
control_effect_sample(struct control *ctl, struct control_watch *w,
    uint64_t t)
{
	double	after;

	if (!w->active || t < w->t0)
		return;		/* from before the command */
	after = control_secs(control_wall_now() - w->sent_wall);
	switch (w->cmd.id) {
	case CONTROL_CENSUS:
		w->active = 0;
		/* No number: the era is 0 but under -hb, and the heap pane
		 * counts censuses its own way. */
		control_say(ctl, &w->cmd, control_watching(ctl), 1, "a census "
		    "arrived %.1f s after the request", after);
		break;
	case CONTROL_START_HEAP:
	case CONTROL_START_PROFILING:
		w->active = 0;
		control_say(ctl, &w->cmd, control_watching(ctl), 1, "samples "
		    "arriving (%.1f s after the command)", after);
		break;
	case CONTROL_STOP_HEAP:
	case CONTROL_STOP_PROFILING:
		if (!w->told)
			control_say(ctl, &w->cmd, 1, 0, "sent; samples still "
			    "arriving %.1f s later", after);
		w->told = 1;
		break;
	}
}

/* Event time moved on to t: has a stop been quiet long enough? */
static void
control_effect_quiet(struct control *ctl, struct control_watch *w,
    const struct control_samples *s, uint64_t t)
{
	uint64_t	quiet, since;

	if (!w->active)
		return;
	quiet = CONTROL_QUIET_FACTOR * s->interval;
	if (quiet < CONTROL_QUIET_MIN_NS)
		quiet = CONTROL_QUIET_MIN_NS;
	since = w->t0;
	if (s->seen && s->last > since)
		since = s->last;	/* the stop took effect later */
	if (t < since + quiet)
		return;
	w->active = 0;
	control_say(ctl, &w->cmd, control_watching(ctl), 1, "samples "
	    "stopped (none for %.1f s of program time)",
	    control_secs(t - since));
}

/*
 * The events that matter here (WALL_CLOCK_TIME, HEAP_PROF_SAMPLE_BEGIN,
 * PROF_SAMPLE_COST_CENTRE); any other only moves the time on, as
 * control_time() does.
 */
void
control_event(struct control *ctl, const struct proto_ev *ev)
{
	switch (ev->kind) {
	case PROTO_WALL_CLOCK_TIME:
		ctl->wall_base = (int64_t)(ev->u.wall.sec * 1000000000u +
		    ev->u.wall.nsec) - (int64_t)ev->time;
		ctl->wall_known = 1;
		break;
	case PROTO_HEAP_PROF_SAMPLE_BEGIN:
		/* The stop first: a census seen is the news to tell. */
		control_sample(&ctl->heap, ev->time);
		control_effect_sample(ctl, &ctl->w[CONTROL_STOP_HEAP],
		    ev->time);
		control_effect_sample(ctl, &ctl->w[CONTROL_START_HEAP],
		    ev->time);
		control_effect_sample(ctl, &ctl->w[CONTROL_CENSUS], ev->time);
		break;
	case PROTO_PROF_SAMPLE_COST_CENTRE:
		control_sample(&ctl->prof, ev->time);
		control_effect_sample(ctl, &ctl->w[CONTROL_STOP_PROFILING],
		    ev->time);
		control_effect_sample(ctl, &ctl->w[CONTROL_START_PROFILING],
		    ev->time);
		break;
	}
	control_time(ctl, ev->time);
}

/* The latest event time seen (once per batch of events is enough). */
void
control_time(struct control *ctl, uint64_t t)
{
	if (t > ctl->last_time)
		ctl->last_time = t;
	control_effect_quiet(ctl, &ctl->w[CONTROL_STOP_HEAP], &ctl->heap,
	    ctl->last_time);
	control_effect_quiet(ctl, &ctl->w[CONTROL_STOP_PROFILING],
	    &ctl->prof, ctl->last_time);
}

/* The messages said since the last call, oldest first; NULL when none.
 * The string is valid until the next call. */
const char *
control_note(struct control *ctl)
{
	const char	*n;

	if (ctl->note_n == 0)
		return NULL;
	n = ctl->notes[ctl->note_head];
	ctl->note_head = (ctl->note_head + 1) % CONTROL_NNOTES;
	ctl->note_n--;
	return n;
}

void
control_status(const struct control *ctl, struct evtop_status *st)
{
	/* Without a command of its own, the loop's last word stays. */
	if (ctl->msg[0] != '\0')
		snprintf(st->cmd_msg, sizeof st->cmd_msg, "%s", ctl->msg);
	st->cmd_pending = ctl->pending;
	st->cmd_seen = ctl->seen;
}
