/*
 * t-units.c: control commands, recording and live sources, without the
 * model and without a terminal.  TAP-ish output, then "N passed, N failed".
 */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <netinet/in.h>
#include <arpa/inet.h>

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

#include "source/source.h"
#include "../tap.h"

static char	tmpdir[256];

static uint64_t
ms(uint64_t n)
{
	return n * 1000000;
}

/* ------------------------------------------------------------------ */
/* control.c */

static void
test_parse(void)
{
	struct evtop_cmd	 c;
	char			*cause = NULL, big[300];
	static const struct { const char *arg; const char *ns; int id; } good[] = {
		{ "census", "eventlog-socket", 5 },
		{ "request-heap-census", "eventlog-socket", 5 },
		{ "start-profiling", "eventlog-socket", 1 },
		{ "stop-profiling", "eventlog-socket", 2 },
		{ "start-heap-profiling", "eventlog-socket", 3 },
		{ "stop-heap-profiling", "eventlog-socket", 4 },
		{ "eventlog-socket:3", "eventlog-socket", 3 },
		{ "my:ns:7", "my:ns", 7 },
		{ "x:0", "x", 0 },
		{ "x:255", "x", 255 },
		{ "x:0x10", "x", 16 },
	};
	static const char *bad[] = { "x", ":5", "ns:", "ns:256", "ns:-1",
	    "ns:5x", "census2", "" };
	size_t	i;

	for (i = 0; i < sizeof good / sizeof good[0]; i++) {
		int r = control_parse(good[i].arg, &c, &cause);
		ok(r == 0 && strcmp(c.ns, good[i].ns) == 0 &&
		    c.id == good[i].id, "parse %s", good[i].arg);
		if (r != 0)
			free(cause);
	}
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		int r;

		cause = NULL;
		r = control_parse(bad[i], &c, &cause);
		ok(r == -1 && cause != NULL, "reject \"%s\" (%s)", bad[i],
		    cause ? cause : "?");
		free(cause);
	}
	memset(big, 'n', 255);
	strcpy(big + 255, ":1");
	ok(control_parse(big, &c, &cause) == 0 && strlen(c.ns) == 255,
	    "255-byte namespace");
	memset(big, 'n', 256);
	strcpy(big + 256, ":1");
	cause = NULL;
	ok(control_parse(big, &c, &cause) == -1, "256-byte namespace "
	    "refused");
	free(cause);
}

static void
test_encode(void)
{
	struct evtop_cmd	c;
	uint8_t			buf[CONTROL_MAX_MSG], want[32];
	size_t			n;
	int			id;

	for (id = 1; id <= 5; id++) {
		memset(&c, 0, sizeof c);
		strcpy(c.ns, "eventlog-socket");
		c.id = (uint8_t)id;
		n = control_encode(&c, buf, sizeof buf);
		memcpy(want, "\xf0\x9e\x97\x8c\x00\x0f" "eventlog-socket", 21);
		want[21] = (uint8_t)id;
		ok(n == 22 && memcmp(buf, want, 22) == 0,
		    "built-in command %d: F0 9E 97 8C 00 0F eventlog-socket "
		    "%02x", id, id);
	}
	ok(control_encode(&c, buf, 21) == 0, "encode refuses a short buffer");
	memset(&c, 0, sizeof c);
	ok(control_encode(&c, buf, sizeof buf) == 0, "encode refuses an "
	    "empty namespace");
}

/* A socket that takes fake_budget bytes, then says EAGAIN. */
static size_t	fake_budget;

static ssize_t
fake_write(struct source *src, const void *buf, size_t len)
{
	if (fake_budget == 0) {
		errno = EAGAIN;
		return -1;
	}
	if (len > fake_budget)
		len = fake_budget;
	fake_budget -= len;
	return (ssize_t)len;
}

static const struct source_ops fake_ops = {
	.name = "fake",
	.write = fake_write,
	.control = 1,
};

/* A busy socket: the real one, but it takes at most 5 bytes a call and
 * says EAGAIN every other call, so each command goes in several parts. */
static int	busy_calls;

static ssize_t
busy_write(struct source *src, const void *buf, size_t len)
{
	if (busy_calls++ % 2 == 1) {
		errno = EAGAIN;
		return -1;
	}
	return write(src->fd, buf, len < 5 ? len : 5);
}

static const struct source_ops busy_ops = {
	.name = "busy",
	.write = busy_write,
	.control = 1,
};

/* A struct source over one end of a socketpair, as if connected. */
static void
fake_source(struct source *src, int fd)
{
	memset(src, 0, sizeof *src);
	src->ops = &source_unix_ops;
	src->target = "socketpair";
	src->fd = fd;
	src->state = SOURCE_OPEN;
}

/* Parse control messages out of a byte stream; returns how many. */
static int
parse_msgs(const uint8_t *p, size_t n, struct evtop_cmd *out, int max,
    size_t *junk)
{
	size_t	i = 0, len;
	int	k = 0;

	*junk = 0;
	while (i < n) {
		if (n - i < 7 || memcmp(p + i, CONTROL_MAGIC, 4) != 0 ||
		    p[i + 4] != 0) {
			(*junk)++;
			i++;
			continue;
		}
		len = p[i + 5];
		if (n - i < 6 + len + 1)
			break;
		if (k < max) {
			memcpy(out[k].ns, p + i + 6, len);
			out[k].ns[len] = '\0';
			out[k].id = p[i + 6 + len];
		}
		k++;
		i += 6 + len + 1;
	}
	if (i < n)
		*junk += n - i;
	return k;
}

/* Commands written in parts on a busy socket arrive whole, in order. */
static void
test_busy(void)
{
	struct control		*ctl = control_new();
	struct source		 src;
	struct evtop_cmd	 c, got[8];
	uint8_t			 rx[4096];
	size_t			 nrx = 0, junk;
	ssize_t			 r;
	int			 sv[2], i, k, rounds = 0;

	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	fcntl(sv[0], F_SETFL, O_NONBLOCK);
	fcntl(sv[1], F_SETFL, O_NONBLOCK);
	fake_source(&src, sv[0]);
	src.ops = &busy_ops;
	for (i = 0; i < 3; i++) {
		memset(&c, 0, sizeof c);
		strcpy(c.ns, CONTROL_NS);
		c.id = (uint8_t)(3 + i);
		control_queue(ctl, &c, 1);
	}
	while (control_pending(ctl) && rounds++ < 1000)
		if (control_flush(ctl, &src) != 0)
			break;
	while ((r = read(sv[1], rx + nrx, sizeof rx - nrx)) > 0)
		nrx += (size_t)r;
	k = parse_msgs(rx, nrx, got, 8, &junk);
	/* Each: 4 magic, a version, a length, the namespace, the id. */
	ok(!control_pending(ctl) && nrx == 3 * (6 + strlen(CONTROL_NS) + 1) &&
	    k == 3 && junk == 0 && got[0].id == 3 && got[1].id == 4 &&
	    got[2].id == 5 && strcmp(got[2].ns, CONTROL_NS) == 0,
	    "busy socket: 3 commands whole, in parts of 5 bytes (%zu bytes, "
	    "%d commands, %zu junk, %d rounds)", nrx, k, junk, rounds);
	close(sv[0]);
	close(sv[1]);
	control_free(ctl);
}

static void
test_queue(void)
{
	struct control		*ctl = control_new();
	struct source		 src;
	struct evtop_status	 st;
	struct evtop_cmd	 c, got[64];
	uint8_t			*rx = malloc(1 << 20), tmp[65536];
	size_t			 nrx = 0, junk;
	int			 sv[2], i, k, bufsz = 4096, rounds = 0;
	ssize_t			 r;

	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &bufsz, sizeof bufsz);
	setsockopt(sv[1], SOL_SOCKET, SO_RCVBUF, &bufsz, sizeof bufsz);
	fcntl(sv[1], F_SETFL, O_NONBLOCK);
	fake_source(&src, sv[0]);

	/* 32 long commands: more than the socket takes at once. */
	for (i = 0; i < CONTROL_QUEUE; i++) {
		memset(&c, 0, sizeof c);
		memset(c.ns, 'a' + i % 26, 200 + i);
		c.id = (uint8_t)i;
		ok(control_queue(ctl, &c, 1) == 0, "queue command %d", i);
	}
	c.id = 99;
	ok(control_queue(ctl, &c, 1) == -1, "queue full at %d", CONTROL_QUEUE);
	control_status(ctl, &st);
	ok(strstr(st.cmd_msg, "already waiting") != NULL, "full queue says "
	    "so: %s", st.cmd_msg);

	ok(control_flush(ctl, &src) == 0 && control_pending(ctl),
	    "flush stops at EAGAIN with commands left");
	while (control_pending(ctl) && rounds++ < 10000) {
		while ((r = read(sv[1], tmp, sizeof tmp)) > 0) {
			memcpy(rx + nrx, tmp, (size_t)r);
			nrx += (size_t)r;
		}
		if (control_flush(ctl, &src) != 0)
			break;
	}
	while ((r = read(sv[1], tmp, sizeof tmp)) > 0) {
		memcpy(rx + nrx, tmp, (size_t)r);
		nrx += (size_t)r;
	}
	k = parse_msgs(rx, nrx, got, 64, &junk);
	ok(!control_pending(ctl) && k == CONTROL_QUEUE && junk == 0,
	    "all %d commands arrived whole (%d, %zu junk bytes, %d rounds)",
	    CONTROL_QUEUE, k, junk, rounds);
	for (i = 0, k = 1; i < CONTROL_QUEUE; i++) {
		if (got[i].id != i || strlen(got[i].ns) != (size_t)(200 + i) ||
		    got[i].ns[0] != 'a' + i % 26)
			k = 0;
	}
	ok(k, "in order, none interleaved");
	control_status(ctl, &st);
	ok(strstr(st.cmd_msg, "sent") != NULL, "status after the last: %s",
	    st.cmd_msg);

	/* A connection that ends inside a message drops that one only:
	 * a socket that takes 700 bytes (two whole and a part), then none. */
	for (i = 0; i < 8; i++) {
		memset(&c, 0, sizeof c);
		memset(c.ns, 'z', 250);
		c.id = (uint8_t)(100 + i);
		control_queue(ctl, &c, 1);
	}
	fake_budget = 700;
	src.ops = &fake_ops;
	control_flush(ctl, &src);
	ok(control_pending(ctl) && fake_budget == 0, "socket full again");
	control_disconnected(ctl);
	control_status(ctl, &st);
	ok(strstr(st.cmd_msg, "dropped") != NULL && st.cmd_pending == 0,
	    "a half-sent command is dropped and said so: %s", st.cmd_msg);
	/* What is left is whole: drain the old socket, send the rest on a
	 * new one, and every message there is complete. */
	close(sv[0]);
	close(sv[1]);
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	fake_source(&src, sv[0]);
	control_connected(ctl);
	control_flush(ctl, &src);
	nrx = 0;
	fcntl(sv[1], F_SETFL, O_NONBLOCK);
	while ((r = read(sv[1], tmp, sizeof tmp)) > 0) {
		memcpy(rx + nrx, tmp, (size_t)r);
		nrx += (size_t)r;
	}
	k = parse_msgs(rx, nrx, got, 64, &junk);
	ok(k == 5 && junk == 0 && got[0].id == 103 && got[4].id == 107,
	    "the rest goes whole on the next connection (%d, junk %zu)", k,
	    junk);
	ok(!control_pending(ctl), "queue empty");
	close(sv[0]);
	close(sv[1]);
	free(rx);
	control_free(ctl);
}

static void
ev_at(struct proto_ev *ev, uint16_t kind, uint64_t t)
{
	memset(ev, 0, sizeof *ev);
	ev->kind = ev->tag = kind;
	ev->time = t;
	ev->cap = -1;
}

static void
send_one(struct control *ctl, int id)
{
	struct evtop_cmd	c;
	struct source		src;
	int			sv[2];

	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	fake_source(&src, sv[0]);
	memset(&c, 0, sizeof c);
	strcpy(c.ns, CONTROL_NS);
	c.id = (uint8_t)id;
	control_queue(ctl, &c, 1);
	control_flush(ctl, &src);
	close(sv[0]);
	close(sv[1]);
}

static void
test_effects(void)
{
	struct control		*ctl = control_new();
	struct evtop_status	 st;
	struct proto_ev		 ev;
	uint64_t		 t;

	control_connected(ctl);
	ev_at(&ev, PROTO_RUN_THREAD, ms(5000));
	control_event(ctl, &ev);
	send_one(ctl, CONTROL_CENSUS);
	control_status(ctl, &st);
	ok(st.cmd_pending && !st.cmd_seen && strstr(st.cmd_msg, "census"),
	    "census sent, pending: %s", st.cmd_msg);
	ev_at(&ev, PROTO_HEAP_PROF_SAMPLE_BEGIN, ms(4000));
	control_event(ctl, &ev);
	control_status(ctl, &st);
	ok(st.cmd_pending && !st.cmd_seen, "an older census is not its "
	    "effect");
	/* The era (0 but under -hb) is no census number: not said. */
	ev_at(&ev, PROTO_HEAP_PROF_SAMPLE_BEGIN, ms(5100));
	ev.u.sample.era = 7;
	control_event(ctl, &ev);
	control_status(ctl, &st);
	ok(!st.cmd_pending && st.cmd_seen && strstr(st.cmd_msg,
	    "a census arrived") && strchr(st.cmd_msg, '7') == NULL,
	    "census seen: %s", st.cmd_msg);

	/* Stop heap profiling: samples every 100 ms go on for a while. */
	for (t = 5200; t <= 6000; t += 100) {
		ev_at(&ev, PROTO_HEAP_PROF_SAMPLE_BEGIN, ms(t));
		control_event(ctl, &ev);
	}
	send_one(ctl, CONTROL_STOP_HEAP);
	for (t = 6100; t <= 6300; t += 100) {
		ev_at(&ev, PROTO_HEAP_PROF_SAMPLE_BEGIN, ms(t));
		control_event(ctl, &ev);
	}
	control_status(ctl, &st);
	ok(st.cmd_pending && strstr(st.cmd_msg, "still arriving"),
	    "stop: samples still arriving: %s", st.cmd_msg);
	ev_at(&ev, PROTO_RUN_THREAD, ms(7200));
	control_event(ctl, &ev);
	control_status(ctl, &st);
	ok(st.cmd_pending, "stop: 0.9 s quiet is not enough");
	ev_at(&ev, PROTO_RUN_THREAD, ms(7400));
	control_event(ctl, &ev);
	control_status(ctl, &st);
	ok(!st.cmd_pending && st.cmd_seen && strstr(st.cmd_msg, "stopped"),
	    "stop seen after 1.1 s without samples: %s", st.cmd_msg);

	/* Start heap profiling: a sample after it. */
	send_one(ctl, CONTROL_START_HEAP);
	ev_at(&ev, PROTO_HEAP_PROF_SAMPLE_BEGIN, ms(7500));
	control_event(ctl, &ev);
	control_status(ctl, &st);
	ok(!st.cmd_pending && st.cmd_seen, "start heap: seen: %s",
	    st.cmd_msg);

	/* Start profiling: a cost-centre sample. */
	send_one(ctl, CONTROL_START_PROFILING);
	ev_at(&ev, PROTO_HEAP_PROF_SAMPLE_BEGIN, ms(7600));
	control_event(ctl, &ev);
	control_status(ctl, &st);
	ok(st.cmd_pending, "start profiling: a heap sample is not its "
	    "effect");
	ev_at(&ev, PROTO_PROF_SAMPLE_COST_CENTRE, ms(7700));
	control_event(ctl, &ev);
	control_status(ctl, &st);
	ok(!st.cmd_pending && st.cmd_seen, "start profiling: seen: %s",
	    st.cmd_msg);

	/* Two at once: a census and a stop, each seen in its turn. */
	send_one(ctl, CONTROL_STOP_HEAP);
	send_one(ctl, CONTROL_CENSUS);
	ev_at(&ev, PROTO_HEAP_PROF_SAMPLE_BEGIN, ms(7800));
	ev.u.sample.era = 9;
	control_event(ctl, &ev);
	control_status(ctl, &st);
	ok(st.cmd_pending && st.cmd_seen && strstr(st.cmd_msg, "a census arrived"),
	    "census seen while the stop is still watched: %s", st.cmd_msg);
	ev_at(&ev, PROTO_RUN_THREAD, ms(8900));
	control_event(ctl, &ev);
	control_status(ctl, &st);
	ok(!st.cmd_pending && st.cmd_seen && strstr(st.cmd_msg,
	    "stop-heap-profiling: samples stopped"), "then the stop: %s",
	    st.cmd_msg);

	/* A reconnection while waiting: not seen, said so. */
	send_one(ctl, CONTROL_CENSUS);
	control_connected(ctl);
	control_status(ctl, &st);
	ok(!st.cmd_pending && !st.cmd_seen && strstr(st.cmd_msg,
	    "not seen"), "reconnection while waiting: %s", st.cmd_msg);

	/* The program's clock from WALL_CLOCK_TIME moves the bar. */
	ev_at(&ev, PROTO_WALL_CLOCK_TIME, ms(1000));
	{
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		/* The program started 100 s ago: now is t = 100 s. */
		ev.u.wall.sec = (uint64_t)ts.tv_sec - 99;
		ev.u.wall.nsec = (uint32_t)ts.tv_nsec;
	}
	control_event(ctl, &ev);
	send_one(ctl, CONTROL_CENSUS);
	ev_at(&ev, PROTO_HEAP_PROF_SAMPLE_BEGIN, ms(50000));
	control_event(ctl, &ev);
	control_status(ctl, &st);
	ok(st.cmd_pending, "with a wall clock: a census from 50 s ago does "
	    "not count");
	ev_at(&ev, PROTO_HEAP_PROF_SAMPLE_BEGIN, ms(100500));
	control_event(ctl, &ev);
	control_status(ctl, &st);
	ok(st.cmd_seen, "with a wall clock: a census at 100.5 s does: %s",
	    st.cmd_msg);

	/* Other namespaces: no effect to look for. */
	{
		struct evtop_cmd c;
		struct source src;
		int sv[2];
		char *cause;

		control_parse("custom:9", &c, &cause);
		socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
		fake_source(&src, sv[0]);
		control_queue(ctl, &c, 1);
		control_flush(ctl, &src);
		close(sv[0]);
		close(sv[1]);
		control_status(ctl, &st);
		ok(!st.cmd_pending && strstr(st.cmd_msg, "custom:9: sent"),
		    "custom command: %s", st.cmd_msg);
		control_refuse(ctl, &c, "needs a socket");
		control_status(ctl, &st);
		ok(strstr(st.cmd_msg, "not sent: needs a socket") != NULL,
		    "refused: %s", st.cmd_msg);
	}
	control_free(ctl);
}

/* ------------------------------------------------------------------ */
/* record.c */

static size_t
slurp(const char *path, uint8_t *buf, size_t size)
{
	FILE	*f = fopen(path, "rb");
	size_t	 n;

	if (f == NULL)
		return (size_t)-1;
	n = fread(buf, 1, size, f);
	fclose(f);
	return n;
}

static void
test_record(void)
{
	/* 24 bytes of 9.0.2's block marker, with traps, then a stream. */
	static const uint8_t junk[] = { 0x00, 0x12, 'h', 'd', 'r', 0, 0, 0,
	    'h', 'h', 'd', 1, 2, 3, 4, 5, 6, 7, 8, 9, 'h', 'd', 0xff, 0xff };
	static const uint8_t body[] = "hdrbhetbXXXXhetehdredatb\x00\x01"
	    "0123456789";
	uint8_t		 in[256], out[512];
	char		 path[512], p1[600], *cause = NULL;
	struct record	*rec;
	size_t		 n = 0, k, i, got;
	int		 good = 1;
	struct stat	 sb;

	memcpy(in, junk, sizeof junk);
	n = sizeof junk;
	memcpy(in + n, body, sizeof body - 1);
	n += sizeof body - 1;

	snprintf(path, sizeof path, "%s/rec.eventlog", tmpdir);
	for (k = 0; k <= n; k++) {
		rec = record_new(path, &cause);
		record_write(rec, in, k, &cause);
		record_write(rec, in + k, n - k, &cause);
		if (record_skipped(rec) != sizeof junk)
			good = 0;
		record_free(rec);
		got = slurp(path, out, sizeof out);
		if (got != sizeof body - 1 || memcmp(out, body, got) != 0) {
			good = 0;
			printf("# split at %zu: %zu bytes\n", k, got);
		}
	}
	ok(good, "junk before hdrb skipped, split at every offset");
	rec = record_new(path, &cause);
	for (i = 0; i < n; i++)
		record_write(rec, in + i, 1, &cause);
	ok(record_skipped(rec) == sizeof junk, "byte by byte: %llu skipped",
	    (unsigned long long)record_skipped(rec));
	record_free(rec);
	got = slurp(path, out, sizeof out);
	ok(got == sizeof body - 1 && memcmp(out, body, got) == 0,
	    "byte by byte: the stream from hdrb");

	/* Connections: FILE, then FILE.1, FILE.2; an empty one makes none. */
	rec = record_new(path, &cause);
	record_write(rec, body, 10, &cause);
	record_end(rec, 0, 0, &cause);
	record_end(rec, 0, 0, &cause);		/* a connection with nothing */
	record_write(rec, junk, sizeof junk, &cause);
	/* In two writes, the second short: the cut is counted from the
	 * connection's first recorded byte, not from the last write's. */
	record_write(rec, body, sizeof body - 3, &cause);
	record_write(rec, body + sizeof body - 3, 2, &cause);
	ok(strstr(record_path(rec), "rec.eventlog.1") != NULL,
	    "second file: %s", record_path(rec));
	/* It ended without ff ff: cut after 30 bytes of the connection
	 * (24 junk + 6 recorded) and ended. */
	record_end(rec, sizeof junk + 6, 1, &cause);
	record_write(rec, body, 4, &cause);
	ok(strstr(record_path(rec), "rec.eventlog.2") != NULL,
	    "third file: %s", record_path(rec));
	ok(record_bytes(rec) == 10 + 8 + 4, "bytes recorded: %llu",
	    (unsigned long long)record_bytes(rec));
	record_free(rec);
	got = slurp(path, out, sizeof out);
	ok(got == 10 && memcmp(out, body, 10) == 0, "FILE holds the first");
	snprintf(p1, sizeof p1, "%s.1", path);
	got = slurp(p1, out, sizeof out);
	ok(got == 8 && memcmp(out, body, 6) == 0 && out[6] == 0xff &&
	    out[7] == 0xff, "FILE.1 cut after the last whole event, ff ff "
	    "added (%zu bytes)", got);
	snprintf(p1, sizeof p1, "%s.3", path);
	ok(stat(p1, &sb) != 0, "no FILE.3");

	snprintf(p1, sizeof p1, "%s/no/such/dir/x", tmpdir);
	cause = NULL;
	rec = record_new(p1, &cause);
	ok(rec == NULL && cause != NULL, "a bad path fails at once: %s",
	    cause ? cause : "?");
	free(cause);
}

/* ------------------------------------------------------------------ */
/* Live sources. */

/* Step the source until ev or the deadline (ms); returns the event. */
static enum source_ev
wait_ev(struct source *src, enum source_ev want, int deadline_ms,
    void *buf, size_t size, ssize_t *got)
{
	uint64_t	end = source_now() + ms((uint64_t)deadline_ms), now;
	struct pollfd	pfd;
	enum source_ev	ev;
	ssize_t		n;
	int		t;

	*got = 0;
	while ((now = source_now()) < end) {
		ev = source_step(src, 0, now);
		if (ev == want)
			return ev;
		t = source_timeout_ms(src, now);
		if (t < 0 || t > 50)
			t = 50;
		pfd.fd = src->fd;
		pfd.events = source_poll_events(src);
		pfd.revents = 0;
		if (poll(&pfd, src->fd != -1 && pfd.events ? 1 : 0, t) < 0)
			continue;
		if (src->state == SOURCE_CONNECTING) {
			ev = source_step(src, pfd.revents, source_now());
			if (ev == want)
				return ev;
			continue;
		}
		if (src->state == SOURCE_OPEN && pfd.revents) {
			n = source_read(src, buf, size, pfd.revents,
			    source_now(), &ev);
			if (n > 0) {
				*got = n;
				if (want == SOURCE_EV_DATA)
					return SOURCE_EV_DATA;
			}
			if (ev == want)
				return ev;
		}
	}
	return SOURCE_EV_NONE;
}

static int
unix_listen(const char *path)
{
	struct sockaddr_un	sun;
	int			fd;

	unlink(path);
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	strcpy(sun.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (bind(fd, (struct sockaddr *)&sun, sizeof sun) != 0 ||
	    listen(fd, 4) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static void
test_unix(void)
{
	char		 path[300], *cause = NULL, buf[64];
	struct source	*src;
	unsigned	 delays[8];
	int		 i, lfd, cfd, good;
	ssize_t		 got;
	uint64_t	 now;
	enum source_ev	 ev;

	snprintf(path, sizeof path, "%s/u.sock", tmpdir);
	src = source_new(EVTOP_SRC_UNIX, path, 0, &cause);
	ok(src != NULL, "unix source");
	/* Not there: waiting, retry delays 100, 200, ... capped at 2000. */
	now = source_now();
	for (i = 0; i < 8; i++) {
		source_step(src, 0, now);
		delays[i] = (unsigned)((src->retry_at - now) / 1000000);
		now = src->retry_at;
	}
	ok(delays[0] == 100 && delays[1] == 200 && delays[2] == 400 &&
	    delays[4] == 1600 && delays[5] == 2000 && delays[7] == 2000,
	    "backoff %u %u %u %u %u %u ms", delays[0], delays[1], delays[2],
	    delays[3], delays[4], delays[5]);
	ok(source_conn(src) == EVTOP_CONN_WAITING &&
	    strstr(src->msg, "waiting") != NULL, "waiting, not an error: %s",
	    src->msg);
	source_free(src);

	src = source_new(EVTOP_SRC_UNIX, path, 0, &cause);
	source_step(src, 0, source_now());
	ok(src->state == SOURCE_WAITING, "not there yet");
	lfd = unix_listen(path);
	ev = wait_ev(src, SOURCE_EV_OPENED, 3000, buf, sizeof buf, &got);
	ok(ev == SOURCE_EV_OPENED && source_conn(src) == EVTOP_CONN_OPEN,
	    "connects once it is there");
	cfd = accept(lfd, NULL, NULL);
	write(cfd, "hello", 5);
	ev = wait_ev(src, SOURCE_EV_DATA, 3000, buf, sizeof buf, &got);
	ok(ev == SOURCE_EV_DATA && got == 5 && memcmp(buf, "hello", 5) == 0 &&
	    src->connections == 1, "reads");
	close(cfd);
	ev = wait_ev(src, SOURCE_EV_CLOSED, 3000, buf, sizeof buf, &got);
	ok(ev == SOURCE_EV_CLOSED && src->state == SOURCE_WAITING &&
	    source_conn(src) == EVTOP_CONN_CLOSED &&
	    strstr(src->msg, "reconnecting") != NULL,
	    "closed after 5 bytes, reconnecting: %s", src->msg);
	ok(src->retry_at - source_now() <= ms(100), "reconnects within "
	    "100 ms");
	ev = wait_ev(src, SOURCE_EV_OPENED, 3000, buf, sizeof buf, &got);
	cfd = accept(lfd, NULL, NULL);
	write(cfd, "again", 5);
	ev = wait_ev(src, SOURCE_EV_DATA, 3000, buf, sizeof buf, &got);
	ok(ev == SOURCE_EV_DATA && src->connections == 2 && src->bytes == 10,
	    "second connection: %llu bytes in all",
	    (unsigned long long)src->bytes);
	/* The program goes away and the path with it: waiting again. */
	close(cfd);
	close(lfd);
	unlink(path);
	ev = wait_ev(src, SOURCE_EV_CLOSED, 3000, buf, sizeof buf, &got);
	source_step(src, 0, src->retry_at);
	ok(src->state == SOURCE_WAITING && source_conn(src) ==
	    EVTOP_CONN_CLOSED && strstr(src->msg, "reconnecting") != NULL,
	    "gone: %s", src->msg);
	source_free(src);

	/* --once: the end is the end. */
	lfd = unix_listen(path);
	src = source_new(EVTOP_SRC_UNIX, path, 1, &cause);
	wait_ev(src, SOURCE_EV_OPENED, 3000, buf, sizeof buf, &got);
	cfd = accept(lfd, NULL, NULL);
	write(cfd, "x", 1);
	close(cfd);
	good = wait_ev(src, SOURCE_EV_CLOSED, 3000, buf, sizeof buf, &got) ==
	    SOURCE_EV_CLOSED;
	ok(good && src->state == SOURCE_ENDED, "--once: ended");
	source_free(src);
	close(lfd);

	/* A path too long for a socket. */
	memset(buf, 0, sizeof buf);
	{
		char long_path[200];
		memset(long_path, 'p', sizeof long_path - 1);
		long_path[sizeof long_path - 1] = '\0';
		cause = NULL;
		ok(source_new(EVTOP_SRC_UNIX, long_path, 0, &cause) == NULL &&
		    cause != NULL, "socket path too long refused");
		free(cause);
	}
}

/* A TCP source whose name never resolves (source-tcp.c's finish() with
 * a request that stays in progress). */
static int	stuck_asked;

static int
stuck_open(struct source *src, char **cause)
{
	(void)cause;
	src->fd = -1;
	return 1;
}

static int
stuck_finish(struct source *src, char **cause)
{
	(void)src;
	(void)cause;
	stuck_asked++;
	return 1;
}

static void
stuck_close(struct source *src)
{
	src->fd = -1;
}

static const struct source_ops stuck_ops = {
	.name = "tcp",
	.open = stuck_open,
	.finish = stuck_finish,
	.close = stuck_close,
	.reopen = 1,
};

static void
test_tcp(void)
{
	static const struct { const char *t; const char *h; const char *p; }
	    good[] = {
		{ "localhost:4242", "localhost", "4242" },
		{ "127.0.0.1:1", "127.0.0.1", "1" },
		{ "[::1]:9000", "::1", "9000" },
		{ "[fe80::1%lo]:http", "fe80::1%lo", "http" },
		{ "localhost:65535", "localhost", "65535" },
		{ "localhost:0", "localhost", "0" },
	};
	static const char *bad[] = { "localhost", "localhost:", ":42",
	    "::1:9000", "[::1]9000", "[::1", "[]:1", "localhost:65536",
	    "127.0.0.1:99999", "[::1]:74000", "localhost:0000065535" };
	char		 host[256], port[32], target[64], buf[64];
	char		*cause = NULL;
	struct source	*src, *src2;
	struct sockaddr_in sin;
	struct sockaddr_in6 sin6;
	socklen_t	 len = sizeof sin;
	size_t		 i;
	int		 lfd, cfd, cfd2, one = 1;
	ssize_t		 got;
	enum source_ev	 ev;

	for (i = 0; i < sizeof good / sizeof good[0]; i++) {
		ok(source_tcp_split(good[i].t, host, sizeof host, port,
		    sizeof port, &cause) == 0 && strcmp(host, good[i].h) == 0 &&
		    strcmp(port, good[i].p) == 0, "split %s", good[i].t);
	}
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		int r;

		cause = NULL;
		r = source_tcp_split(bad[i], host, sizeof host, port,
		    sizeof port, &cause);
		ok(r == -1 && cause != NULL, "reject %s: %s", bad[i],
		    cause ? cause : "?");
		free(cause);
	}

	/* A peer on 127.0.0.1, port chosen at run time. */
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	bind(lfd, (struct sockaddr *)&sin, sizeof sin);
	listen(lfd, 4);
	getsockname(lfd, (struct sockaddr *)&sin, &len);
	snprintf(target, sizeof target, "127.0.0.1:%u", ntohs(sin.sin_port));
	src = source_new(EVTOP_SRC_TCP, target, 0, &cause);
	ev = wait_ev(src, SOURCE_EV_OPENED, 3000, buf, sizeof buf, &got);
	ok(ev == SOURCE_EV_OPENED, "tcp %s: connected", target);
	cfd = accept(lfd, NULL, NULL);
	write(cfd, "tcp!", 4);
	ev = wait_ev(src, SOURCE_EV_DATA, 3000, buf, sizeof buf, &got);
	ok(ev == SOURCE_EV_DATA && got == 4 && memcmp(buf, "tcp!", 4) == 0,
	    "tcp: reads");
	/* Control commands go the other way. */
	ok(source_write(src, "ctl", 3) == 3 && read(cfd, buf, 3) == 3 &&
	    memcmp(buf, "ctl", 3) == 0, "tcp: writes");
	/* A name: resolved in the background (no fd, the loop free to go
	 * on), then connected all the same. */
	snprintf(target, sizeof target, "localhost:%u", ntohs(sin.sin_port));
	src2 = source_new(EVTOP_SRC_TCP, target, 0, &cause);
	source_step(src2, 0, source_now());
	ok(src2->state == SOURCE_CONNECTING && src2->fd == -1 &&
	    source_timeout_ms(src2, source_now()) == SOURCE_RESOLVE_MS,
	    "tcp %s: resolving in the background", target);
	ev = wait_ev(src2, SOURCE_EV_OPENED, 3000, buf, sizeof buf, &got);
	ok(ev == SOURCE_EV_OPENED && src2->fd != -1, "tcp %s: connected: %s",
	    target, src2->msg);
	if ((cfd2 = accept(lfd, NULL, NULL)) != -1)
		close(cfd2);
	source_free(src2);
	close(cfd);
	close(lfd);
	ev = wait_ev(src, SOURCE_EV_CLOSED, 3000, buf, sizeof buf, &got);
	ok(ev == SOURCE_EV_CLOSED, "tcp: closed: %s", src->msg);
	/* Nobody listens now: connection refused, waiting. */
	wait_ev(src, SOURCE_EV_OPENED, 400, buf, sizeof buf, &got);
	ok(src->state == SOURCE_WAITING && strstr(src->msg, "refused"),
	    "tcp: %s", src->msg);
	source_free(src);

	/* IPv6 loopback, if there is one. */
	lfd = socket(AF_INET6, SOCK_STREAM, 0);
	memset(&sin6, 0, sizeof sin6);
	sin6.sin6_family = AF_INET6;
	sin6.sin6_addr = in6addr_loopback;
	len = sizeof sin6;
	if (lfd == -1 || bind(lfd, (struct sockaddr *)&sin6, sizeof sin6) != 0 ||
	    listen(lfd, 4) != 0) {
		ok(1, "# SKIP no IPv6 loopback");
	} else {
		getsockname(lfd, (struct sockaddr *)&sin6, &len);
		snprintf(target, sizeof target, "[::1]:%u",
		    ntohs(sin6.sin6_port));
		src = source_new(EVTOP_SRC_TCP, target, 0, &cause);
		ev = wait_ev(src, SOURCE_EV_OPENED, 3000, buf, sizeof buf, &got);
		cfd = accept(lfd, NULL, NULL);
		write(cfd, "six", 3);
		ev = wait_ev(src, SOURCE_EV_DATA, 3000, buf, sizeof buf, &got);
		ok(ev == SOURCE_EV_DATA && got == 3, "tcp %s: reads", target);
		close(cfd);
		source_free(src);
	}
	if (lfd != -1)
		close(lfd);

	/* A connect that never finishes is given up after a while. */
	src = source_new(EVTOP_SRC_TCP, "127.0.0.1:1", 0, &cause);
	src->state = SOURCE_CONNECTING;
	src->fd = socket(AF_INET, SOCK_STREAM, 0);
	src->connect_by = source_now() + ms(SOURCE_CONNECT_MS);
	ok(source_timeout_ms(src, source_now()) > SOURCE_CONNECT_MS - 100,
	    "connecting: the deadline is in the timeout");
	source_step(src, 0, source_now());
	ok(src->state == SOURCE_CONNECTING, "connecting: not yet");
	source_step(src, 0, src->connect_by);
	ok(src->state == SOURCE_WAITING && src->fd == -1 &&
	    strstr(src->msg, "connect timed out"), "connecting: given up: %s",
	    src->msg);
	source_free(src);

	/* A name that does not resolve: the resolver's answer, waiting. */
	cause = NULL;
	src = source_new(EVTOP_SRC_TCP, "no-such-host.invalid:1", 0, &cause);
	wait_ev(src, SOURCE_EV_OPENED, 3000, buf, sizeof buf, &got);
	ok(src->state == SOURCE_WAITING && strstr(src->msg, "waiting") &&
	    strstr(src->msg, "no-such-host.invalid"), "unknown host: %s",
	    src->msg);
	source_free(src);

	/* A resolver that never answers: given up at the connect deadline,
	 * the loop woken every SOURCE_RESOLVE_MS meanwhile. */
	src = source_new(EVTOP_SRC_TCP, "stuck.invalid:1", 0, &cause);
	src->ops = &stuck_ops;
	source_step(src, 0, source_now());
	ok(src->state == SOURCE_CONNECTING && src->fd == -1 &&
	    source_timeout_ms(src, source_now()) == SOURCE_RESOLVE_MS,
	    "a slow resolver: connecting, no fd");
	source_step(src, 0, src->connect_by - 1);
	ok(src->state == SOURCE_CONNECTING && stuck_asked == 1,
	    "a slow resolver: asked at the next step (%d)", stuck_asked);
	source_step(src, 0, src->connect_by);
	ok(src->state == SOURCE_WAITING && stuck_asked == 2 && strstr(src->msg,
	    "resolving the name timed out") != NULL, "a slow resolver: %s",
	    src->msg);
	source_free(src);
}

static void
test_fifo(void)
{
	char		 path[300], *cause = NULL, buf[64];
	struct source	*src;
	enum evtop_src_kind kind;
	int		 wfd;
	ssize_t		 got;
	enum source_ev	 ev;

	snprintf(path, sizeof path, "%s/f.fifo", tmpdir);
	src = source_new(EVTOP_SRC_FIFO, path, 0, &cause);
	source_step(src, 0, source_now());
	ok(src->state == SOURCE_WAITING && source_conn(src) ==
	    EVTOP_CONN_WAITING, "fifo not there: waiting: %s", src->msg);
	mkfifo(path, 0600);
	ok(source_kind_of(path, &kind, &cause) == 0 && kind == EVTOP_SRC_FIFO,
	    "a FIFO path is read as a FIFO");
	ev = wait_ev(src, SOURCE_EV_OPENED, 3000, buf, sizeof buf, &got);
	ok(ev == SOURCE_EV_OPENED && source_conn(src) == EVTOP_CONN_WAITING &&
	    strstr(src->msg, "writer"), "opened, waiting for a writer: %s",
	    src->msg);
	/* A writer that comes and goes without writing: nothing happens. */
	wfd = open(path, O_WRONLY);
	close(wfd);
	ev = wait_ev(src, SOURCE_EV_DATA, 300, buf, sizeof buf, &got);
	ok(ev == SOURCE_EV_NONE && src->connections == 0 &&
	    source_conn(src) == EVTOP_CONN_WAITING, "an empty writer is "
	    "not a connection");
	wfd = open(path, O_WRONLY);
	write(wfd, "fifo", 4);
	ev = wait_ev(src, SOURCE_EV_DATA, 3000, buf, sizeof buf, &got);
	ok(ev == SOURCE_EV_DATA && got == 4 && src->connections == 1 &&
	    source_conn(src) == EVTOP_CONN_OPEN, "fifo: reads");
	close(wfd);
	ev = wait_ev(src, SOURCE_EV_CLOSED, 3000, buf, sizeof buf, &got);
	ok(ev == SOURCE_EV_CLOSED && strstr(src->msg, "reopening"),
	    "writer gone: %s", src->msg);
	wfd = -1;
	ev = wait_ev(src, SOURCE_EV_OPENED, 3000, buf, sizeof buf, &got);
	wfd = open(path, O_WRONLY);
	write(wfd, "next", 4);
	ev = wait_ev(src, SOURCE_EV_DATA, 3000, buf, sizeof buf, &got);
	ok(ev == SOURCE_EV_DATA && src->connections == 2, "the next writer");
	close(wfd);
	ok(source_write(src, "x", 1) == -1, "no control over a FIFO");
	ok(!source_takes_control(src), "a FIFO takes no control");
	source_free(src);
	/* With --once, the stream of a writer that came and went without
	 * writing has ended (it was waited for without end). */
	src = source_new(EVTOP_SRC_FIFO, path, 1, &cause);
	ev = wait_ev(src, SOURCE_EV_OPENED, 3000, buf, sizeof buf, &got);
	wfd = open(path, O_WRONLY);
	close(wfd);
	ev = wait_ev(src, SOURCE_EV_CLOSED, 3000, buf, sizeof buf, &got);
	ok(ev == SOURCE_EV_CLOSED && src->state == SOURCE_ENDED &&
	    src->connections == 0 && strstr(src->msg, "without writing "
	    "anything"), "--once: an empty writer ends it: %s", src->msg);
	source_free(src);
}

static void
test_stdin(void)
{
	char		*cause = NULL, buf[64];
	struct source	*src;
	int		 p[2], saved = dup(0), flags;
	ssize_t		 got;
	enum source_ev	 ev;

	pipe(p);
	dup2(p[0], 0);
	close(p[0]);
	flags = fcntl(0, F_GETFL);
	src = source_new(EVTOP_SRC_STDIN, "-", 0, &cause);
	ev = wait_ev(src, SOURCE_EV_OPENED, 1000, buf, sizeof buf, &got);
	write(p[1], "in", 2);
	close(p[1]);
	ev = wait_ev(src, SOURCE_EV_DATA, 1000, buf, sizeof buf, &got);
	ok(ev == SOURCE_EV_DATA && got == 2, "stdin: reads");
	ev = wait_ev(src, SOURCE_EV_CLOSED, 1000, buf, sizeof buf, &got);
	ok(ev == SOURCE_EV_CLOSED && src->state == SOURCE_ENDED &&
	    strstr(src->msg, "end of input"), "stdin: ended for good: %s",
	    src->msg);
	ok(fcntl(0, F_GETFL) == flags, "stdin's flags put back");
	source_free(src);
	/* Nothing at all: said so, not "after 0 bytes". */
	pipe(p);
	dup2(p[0], 0);
	close(p[0]);
	close(p[1]);
	src = source_new(EVTOP_SRC_STDIN, "-", 0, &cause);
	ev = wait_ev(src, SOURCE_EV_CLOSED, 1000, buf, sizeof buf, &got);
	ok(ev == SOURCE_EV_CLOSED && strcmp(src->msg, "end of input: "
	    "nothing came") == 0, "stdin, empty: %s", src->msg);
	source_free(src);
	dup2(saved, 0);
	close(saved);
}

int
main(void)
{
	char	cmd[300];

	signal(SIGPIPE, SIG_IGN);
	snprintf(tmpdir, sizeof tmpdir, "/tmp/evtop-t-units.XXXXXX");
	if (mkdtemp(tmpdir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	test_parse();
	test_encode();
	test_queue();
	test_busy();
	test_effects();
	test_record();
	test_unix();
	test_tcp();
	test_fifo();
	test_stdin();
	snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", tmpdir);
	return tap_done();
}
