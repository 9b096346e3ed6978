/*
 * relay.c: --serve PATH and --serve-tcp HOST:PORT, the eventlog evtop
 * reads re-served to any number of clients at once, from a live source
 * or a replayed file alike.
 *
 * What a client gets is an eventlog built from the decoded events, not
 * the source's bytes: a header made from the session's event types, then
 * the events in the order evtop applies them, framed in blocks of our
 * own (a BLOCK_MARKER with the capability, then that capability's
 * events), so that every block boundary is ours and a file replayed in
 * time order frames as well as a live stream.  The source's own block
 * markers are dropped (a decoder counts ours instead).
 *
 * A client that connects mid-session gets the header, then the events a
 * decoder needs to make sense of what follows (RTS identifier, program
 * arguments and pid, capability sets, cost-centre definitions, heap and
 * time profile begin, IPE entries, thread labels, ...: the "init" store,
 * kept as they pass, at most RELAY_INIT_MAX bytes), framed in blocks,
 * then every block from the next one on.  A client there before the
 * session starts gets it all.  When the source's connection ends, each
 * client gets the end marker and is closed once its queue is written
 * (as eventlog-socket does, a new connection gets a fresh header).
 *
 * Each client has a ring of opts->serve_queue bytes (RELAY_QUEUE by
 * default), allocated when it connects; a block that does not fit drops
 * the client, so that a slow reader never slows the source or the
 * others.  What a client writes is scanned for control commands (bounded:
 * at most CONTROL_MAX_MSG bytes are kept), which the loop forwards to the
 * program unless --serve-readonly; the loop says what became of each
 * (relay_command_done()), as only it knows whether the source takes
 * commands.  The protocol has no reply: a client is never told.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "serve/serve.h"
#include "source/source.h"

#define RELAY_BLOCK	(256u << 10)	/* our blocks' events, at most */
#define RELAY_MARKER	24		/* a BLOCK_MARKER's bytes */
#define RELAY_INIT_MAX	(16u << 20)	/* the init store */
#define RELAY_INIT_REC	6		/* u16 cap, u32 length, then bytes */
#define RELAY_NCMD	16
#define RELAY_NNOTE	8
#define RELAY_READ	4096		/* from a client, per pass */

enum relay_cstate {
	RELAY_WAITING,		/* connected before a session: gets it all */
	RELAY_LIVE,		/* gets every block */
	RELAY_CLOSING,		/* writes what is queued, then closes */
};

struct relay_client {
	int		 fd;
	unsigned	 id;
	enum relay_cstate state;
	uint8_t		*q;		/* ring of qsize bytes */
	size_t		 qsize, qhead, qlen;
	uint8_t		 in[CONTROL_MAX_MSG];	/* a command being read */
	size_t		 nin;
};

/* A command read from a client, for the loop. */
struct relay_cmd {
	struct evtop_cmd cmd;
	unsigned	 client;
};

struct relay {
	const struct evtop_opts *opts;
	int		 ufd;		/* --serve */
	uint64_t	 uid;
	int		 tfd[HTTP_MAX_LISTEN];	/* --serve-tcp */
	int		 nt;
	char		 addr[256];
	size_t		 qsize;
	unsigned	 next_id;
	struct relay_client *c[RELAY_MAX_CLIENTS];
	int		 slot[RELAY_MAX_FDS];	/* pollfd k: -1 unix, -2-i tcp */
	int		 nslot;

	/* The session: its header and init store. */
	int		 session;	/* a header is in force */
	int		 final;		/* the source will not come back */
	uint8_t		*hdr;
	size_t		 hlen;
	uint8_t		*init;
	size_t		 ilen, isize;
	int		 init_old;	/* the store is the last session's */
	uint64_t	 init_lost;
	size_t		 ninit;		/* events in the store */

	/* The block being filled. */
	uint8_t		*blk;
	size_t		 blen;
	int32_t		 bcap;
	uint64_t	 bt0, bt1;
	int		 live;		/* clients that take blocks */

	struct relay_cmd cmds[RELAY_NCMD];
	int		 ncmds;
	struct relay_cmd taken;		/* the last relay_command() gave */
	char		 notes[RELAY_NNOTE][160];
	int		 nnotes, note_at;
	struct relay_stats st;
};

static void relay_write(struct relay *, int);
static void relay_note_add(struct relay *, const char *, ...)
    __attribute__((format(printf, 2, 3)));

static void
relay_note_add(struct relay *rl, const char *fmt, ...)
{
	va_list	ap;
	int	i = (rl->note_at + rl->nnotes) % RELAY_NNOTE;

	va_start(ap, fmt);
	vsnprintf(rl->notes[i], sizeof rl->notes[i], fmt, ap);
	va_end(ap);
	if (rl->nnotes < RELAY_NNOTE)
		rl->nnotes++;
	else
		rl->note_at = (rl->note_at + 1) % RELAY_NNOTE;
}

const char *
relay_note(struct relay *rl)
{
	const char	*n;

	if (rl->nnotes == 0)
		return NULL;
	n = rl->notes[rl->note_at];
	rl->note_at = (rl->note_at + 1) % RELAY_NNOTE;
	rl->nnotes--;
	return n;
}

struct relay *
relay_new(const struct evtop_opts *opts, char **cause)
{
	struct relay	*rl;
	size_t		 len;
	int		 n;

	if ((rl = calloc(1, sizeof *rl)) == NULL ||
	    (rl->blk = malloc(RELAY_BLOCK)) == NULL) {
		free(rl);
		source_cause(cause, "out of memory");
		return NULL;
	}
	rl->opts = opts;
	rl->ufd = -1;
	rl->qsize = opts->serve_queue > 0 ? opts->serve_queue : RELAY_QUEUE;
	if (opts->serve != NULL) {
		if ((rl->ufd = listen_unix(opts->serve, &rl->uid,
		    cause)) == -1) {
			relay_free(rl);
			return NULL;
		}
		snprintf(rl->addr, sizeof rl->addr, "%s", opts->serve);
	}
	if (opts->serve_tcp != NULL) {
		len = strlen(rl->addr);
		if (len > 0)
			rl->addr[len++] = ' ';
		if ((n = listen_tcp(opts->serve_tcp, rl->tfd, HTTP_MAX_LISTEN,
		    rl->addr + len, sizeof rl->addr - len, cause)) < 0) {
			relay_free(rl);
			return NULL;
		}
		rl->nt = n;
	}
	return rl;
}

const char *
relay_addr(const struct relay *rl)
{
	return rl->addr;
}

const struct relay_stats *
relay_stats(const struct relay *rl)
{
	return &rl->st;
}

static void
relay_close(struct relay *rl, int i)
{
	struct relay_client	*c = rl->c[i];

	if (c == NULL)
		return;
	if (c->state == RELAY_LIVE)
		rl->live--;
	close(c->fd);
	free(c->q);
	free(c);
	rl->c[i] = NULL;
	rl->st.clients--;
}

/* Queue bytes for a client; -1 if they do not fit. */
static int
relay_put(struct relay_client *c, const void *p, size_t n)
{
	size_t	at, k;

	if (n > c->qsize - c->qlen)
		return -1;
	at = (c->qhead + c->qlen) % c->qsize;
	k = c->qsize - at < n ? c->qsize - at : n;
	memcpy(c->q + at, p, k);
	memcpy(c->q, (const uint8_t *)p + k, n - k);
	c->qlen += n;
	return 0;
}

static void
relay_drop(struct relay *rl, int i, const char *why)
{
	relay_note_add(rl, "relay: client %u dropped: %s", rl->c[i]->id,
	    why);
	rl->st.dropped++;
	relay_close(rl, i);
}

static void
be16put(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void
be32put(uint8_t *p, uint32_t v)
{
	be16put(p, (uint16_t)(v >> 16));
	be16put(p + 2, (uint16_t)v);
}

static void
be64put(uint8_t *p, uint64_t v)
{
	be32put(p, (uint32_t)(v >> 32));
	be32put(p + 4, (uint32_t)v);
}

/* A BLOCK_MARKER for n bytes of events of cap, from t0 to t1. */
static void
relay_marker(uint8_t *m, size_t n, int32_t cap, uint64_t t0, uint64_t t1)
{
	be16put(m, PROTO_BLOCK_MARKER);
	be64put(m + 2, t0);
	/* As GHC writes it: the size counts the marker too. */
	be32put(m + 10, (uint32_t)(n + RELAY_MARKER));
	be64put(m + 14, t1);
	be16put(m + 22, cap < 0 ? 0xffff : (uint16_t)cap);
}

/* A block to one client; -1 if it does not fit. */
static int
relay_put_block(struct relay_client *c, const uint8_t *p, size_t n,
    int32_t cap, uint64_t t0, uint64_t t1)
{
	uint8_t	m[RELAY_MARKER];

	if (n == 0)
		return 0;
	if (RELAY_MARKER + n > c->qsize - c->qlen)
		return -1;
	relay_marker(m, n, cap, t0, t1);
	relay_put(c, m, sizeof m);
	relay_put(c, p, n);
	return 0;
}

/* The block being filled, to every live client. */
static void
relay_send_block(struct relay *rl)
{
	struct relay_client	*c;
	char			 why[64];
	int			 i;

	if (rl->blen == 0)
		return;
	for (i = 0; i < RELAY_MAX_CLIENTS; i++) {
		if ((c = rl->c[i]) == NULL || c->state != RELAY_LIVE)
			continue;
		if (relay_put_block(c, rl->blk, rl->blen, rl->bcap, rl->bt0,
		    rl->bt1) != 0) {
			snprintf(why, sizeof why, "%zu bytes behind (the "
			    "queue holds %zu)", c->qlen, c->qsize);
			relay_drop(rl, i, why);
		} else if (c->qlen >= RELAY_BLOCK)
			relay_write(rl, i);	/* keep up within a pass */
	}
	rl->blen = 0;
}

/* The init store, framed in blocks by capability, to one client. */
static int
relay_put_init(struct relay *rl, struct relay_client *c)
{
	const uint8_t	*p = rl->init, *end = rl->init + rl->ilen, *start;
	int32_t		 cap = 0, rcap;
	uint64_t	 t0 = 0, t1 = 0, t;
	size_t		 n = 0, len;
	uint8_t		 m[RELAY_MARKER];

	/* Runs of one capability, each a block. */
	start = NULL;
	while (p <= end) {
		if (p < end) {
			rcap = (int32_t)((p[0] << 8) | p[1]);
			if (rcap == 0xffff)
				rcap = -1;
			len = ((size_t)p[2] << 24) | ((size_t)p[3] << 16) |
			    ((size_t)p[4] << 8) | p[5];
			t = 0;
			for (size_t k = 0; k < 8; k++)
				t = (t << 8) | p[RELAY_INIT_REC + 2 + k];
		} else {
			rcap = INT32_MIN;
			len = 0;
			t = 0;
		}
		if (start != NULL && (rcap != cap || n + len > RELAY_BLOCK ||
		    p == end)) {
			relay_marker(m, n, cap, t0, t1);
			if (relay_put(c, m, sizeof m) != 0)
				return -1;
			/* The run's events, without their record heads. */
			while (start < p) {
				size_t	l = ((size_t)start[2] << 24) |
				    ((size_t)start[3] << 16) |
				    ((size_t)start[4] << 8) | start[5];

				if (relay_put(c, start + RELAY_INIT_REC, l) != 0)
					return -1;
				start += RELAY_INIT_REC + l;
			}
			start = NULL;
		}
		if (p == end)
			break;
		if (start == NULL) {
			start = p;
			cap = rcap;
			n = 0;
			t0 = t;
		}
		n += len;
		t1 = t;
		p += RELAY_INIT_REC + len;
	}
	return 0;
}

/* The session so far to a client that has just joined it. */
static void
relay_join(struct relay *rl, int i)
{
	struct relay_client	*c = rl->c[i];
	static const uint8_t	 end[2] = { 0xff, 0xff };

	if (relay_put(c, rl->hdr, rl->hlen) != 0 ||
	    relay_put_init(rl, c) != 0) {
		relay_drop(rl, i, "the header and init events do not fit "
		    "its queue");
		return;
	}
	if (!rl->session) {
		/* A file replayed to its end: all there is, then the end. */
		relay_put(c, end, sizeof end);
		c->state = RELAY_CLOSING;
		return;
	}
	c->state = RELAY_LIVE;
	rl->live++;
}

/* Events a late reader needs to decode and label what follows. */
static int
relay_is_init(uint16_t tag)
{
	switch (tag) {
	case PROTO_STARTUP:
	case PROTO_VERSION:
	case PROTO_PROGRAM_INVOCATION:
	case PROTO_CAPSET_CREATE:
	case PROTO_CAPSET_ASSIGN_CAP:
	case PROTO_RTS_IDENTIFIER:
	case PROTO_PROGRAM_ARGS:
	case PROTO_PROGRAM_ENV:
	case PROTO_OSPROCESS_PID:
	case PROTO_OSPROCESS_PPID:
	case PROTO_INTERN_STRING:
	case PROTO_WALL_CLOCK_TIME:
	case PROTO_THREAD_LABEL:
	case PROTO_CAP_CREATE:
	case PROTO_HEAP_INFO_GHC:
	case PROTO_PERF_NAME:
	case PROTO_HEAP_PROF_BEGIN:
	case PROTO_HEAP_PROF_COST_CENTRE:
	case PROTO_PROF_BEGIN:
	case PROTO_IPE:
	case PROTO_TICKY_COUNTER_DEF:
		return 1;
	}
	return 0;
}

/* The bytes of a header with the decoder's event types. */
static int
relay_make_header(struct relay *rl, const struct proto_dec *dec)
{
	size_t	 n = proto_header_encode(dec, NULL, 0);
	uint8_t	*h;

	if ((h = malloc(n)) == NULL)
		return -1;
	(void)proto_header_encode(dec, h, n);
	free(rl->hdr);
	rl->hdr = h;
	rl->hlen = n;
	return 0;
}

/* The end of a session for the clients in it: the end marker, then close. */
static void
relay_end_clients(struct relay *rl)
{
	static const uint8_t	 end[2] = { 0xff, 0xff };
	struct relay_client	*c;
	int			 i;

	relay_send_block(rl);
	for (i = 0; i < RELAY_MAX_CLIENTS; i++) {
		if ((c = rl->c[i]) == NULL || c->state != RELAY_LIVE)
			continue;
		if (relay_put(c, end, sizeof end) != 0) {
			relay_drop(rl, i, "queue full at the end");
			continue;
		}
		c->state = RELAY_CLOSING;
		rl->live--;
	}
}

/* A header: a session starts. */
void
relay_header(struct relay *rl, const struct proto_dec *dec)
{
	int	i;

	if (rl->session)
		relay_end_clients(rl);
	if (relay_make_header(rl, dec) != 0) {
		relay_note_add(rl, "relay: out of memory for a header");
		rl->session = 0;
		return;
	}
	rl->session = 1;
	rl->init_old = rl->ilen > 0;
	for (i = 0; i < RELAY_MAX_CLIENTS; i++) {
		if (rl->c[i] == NULL || rl->c[i]->state != RELAY_WAITING)
			continue;
		/* There from the start: the session's own events follow. */
		if (relay_put(rl->c[i], rl->hdr, rl->hlen) != 0) {
			relay_drop(rl, i, "the header does not fit its queue");
			continue;
		}
		rl->c[i]->state = RELAY_LIVE;
		rl->live++;
	}
}

/* An event as evtop applies it. */
void
relay_event(struct relay *rl, const struct proto_ev *ev)
{
	size_t	 hl, n = ev->size;
	uint8_t	*p;

	if (!rl->session || ev->tag == PROTO_BLOCK_MARKER ||
	    ev->size < 10 || ev->size > 12 + 65535)
		return;
	hl = ev->size - ev->len;	/* 10, or 12 with a length field */
	if (relay_is_init(ev->tag)) {
		if (rl->init_old && (ev->tag == PROTO_CAPSET_CREATE ||
		    ev->tag == PROTO_RTS_IDENTIFIER ||
		    ev->tag == PROTO_OSPROCESS_PID)) {
			/* This session has start-up events of its own. */
			rl->ilen = 0;
			rl->ninit = 0;
			rl->init_old = 0;
		}
		if (rl->ilen + RELAY_INIT_REC + n > rl->isize &&
		    rl->isize < RELAY_INIT_MAX) {
			size_t	 sz = rl->isize > 0 ? rl->isize * 2 : 65536;
			uint8_t	*np;

			while (sz < rl->ilen + RELAY_INIT_REC + n)
				sz *= 2;
			if (sz > RELAY_INIT_MAX)
				sz = RELAY_INIT_MAX;
			if ((np = realloc(rl->init, sz)) != NULL) {
				rl->init = np;
				rl->isize = sz;
			}
		}
		if (rl->ilen + RELAY_INIT_REC + n <= rl->isize) {
			p = rl->init + rl->ilen;
			be16put(p, ev->cap < 0 ? 0xffff : (uint16_t)ev->cap);
			be32put(p + 2, (uint32_t)n);
			p += RELAY_INIT_REC;
			be16put(p, ev->tag);
			be64put(p + 2, ev->time);
			if (hl == 12)
				be16put(p + 10, (uint16_t)ev->len);
			memcpy(p + hl, ev->payload, ev->len);
			rl->ilen += RELAY_INIT_REC + n;
			rl->ninit++;
		} else if (rl->init_lost++ == 0)
			relay_note_add(rl, "relay: init store full (%u MiB): "
			    "late joiners miss some definitions",
			    RELAY_INIT_MAX >> 20);
	}
	if (rl->live == 0)
		return;
	if (rl->blen > 0 && (ev->cap != rl->bcap ||
	    rl->blen + n > RELAY_BLOCK))
		relay_send_block(rl);
	if (rl->blen == 0) {
		rl->bcap = ev->cap;
		rl->bt0 = ev->time;
	}
	rl->bt1 = ev->time;
	p = rl->blk + rl->blen;
	be16put(p, ev->tag);
	be64put(p + 2, ev->time);
	if (hl == 12)
		be16put(p + 10, (uint16_t)ev->len);
	memcpy(p + hl, ev->payload, ev->len);
	rl->blen += n;
}

/* The source's connection ended; final: it will not come back. */
void
relay_end(struct relay *rl, int final)
{
	if (rl->session)
		relay_end_clients(rl);
	rl->session = 0;
	if (final)
		rl->final = 1;
}

/* Write what a client has queued, as far as it takes it. */
static void
relay_write(struct relay *rl, int i)
{
	struct relay_client	*c = rl->c[i];
	ssize_t			 w;
	size_t			 k;

	while (c->qlen > 0) {
		k = c->qsize - c->qhead < c->qlen ? c->qsize - c->qhead :
		    c->qlen;
		w = send(c->fd, c->q + c->qhead, k, MSG_NOSIGNAL|MSG_DONTWAIT);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				return;
			relay_note_add(rl, "relay: client %u: %s", c->id,
			    strerror(errno));
			relay_close(rl, i);
			return;
		}
		c->qhead = (c->qhead + (size_t)w) % c->qsize;
		c->qlen -= (size_t)w;
		rl->st.bytes += (uint64_t)w;
	}
	if (c->state == RELAY_CLOSING)
		relay_close(rl, i);
}

/* End of a pass: the block so far to the clients, and write. */
void
relay_flush(struct relay *rl)
{
	int	i;

	relay_send_block(rl);
	for (i = 0; i < RELAY_MAX_CLIENTS; i++) {
		if (rl->c[i] != NULL && (rl->c[i]->qlen > 0 ||
		    rl->c[i]->state == RELAY_CLOSING))
			relay_write(rl, i);
	}
}

/*
 * A client's command forwarded (why NULL) or refused: counted, and said
 * with its namespace made safe for a terminal (the note goes to stderr):
 * the client's escape sequences do not.
 */
static void
relay_cmd_result(struct relay *rl, unsigned client, const char *ns,
    size_t len, unsigned id, const char *why)
{
	char	safe[3 * 255 + 1];	/* U+FFFD a byte */

	safe[proto_sanitize(ns, len, safe, sizeof safe - 1)] = '\0';
	if (why == NULL) {
		rl->st.commands++;
		relay_note_add(rl, "relay: client %u: control command %s:%u "
		    "forwarded", client, safe, id);
	} else {
		rl->st.refused++;
		relay_note_add(rl, "relay: client %u: control command %s:%u "
		    "refused (%s)", client, safe, id, why);
	}
}

/* Control commands in what a client wrote (junk around them ignored). */
static void
relay_scan(struct relay *rl, struct relay_client *c)
{
	static const uint8_t	 magic[4] = { 0xf0, 0x9e, 0x97, 0x8c };
	size_t			 at, need, len;
	struct relay_cmd	*rc;

	for (;;) {
		for (at = 0; at < c->nin; at++) {
			len = c->nin - at < 4 ? c->nin - at : 4;
			if (memcmp(c->in + at, magic, len) == 0)
				break;
		}
		if (at > 0) {
			memmove(c->in, c->in + at, c->nin - at);
			c->nin -= at;
		}
		if (c->nin < 6)
			return;
		if (c->in[4] != 0 || c->in[5] == 0) {
			/* Not a message after all: look past this magic. */
			memmove(c->in, c->in + 1, c->nin - 1);
			c->nin--;
			continue;
		}
		need = 6 + (size_t)c->in[5] + 1;
		if (c->nin < need)
			return;
		if (rl->opts->serve_readonly || rl->ncmds == RELAY_NCMD) {
			relay_cmd_result(rl, c->id, (const char *)c->in + 6,
			    c->in[5], c->in[need - 1],
			    rl->opts->serve_readonly ? "--serve-readonly" :
			    "too many at once");
		} else {
			/* Counted when the loop says what became of it. */
			rc = &rl->cmds[rl->ncmds++];
			memcpy(rc->cmd.ns, c->in + 6, c->in[5]);
			rc->cmd.ns[c->in[5]] = '\0';
			rc->cmd.id = c->in[need - 1];
			rc->client = c->id;
		}
		memmove(c->in, c->in + need, c->nin - need);
		c->nin -= need;
	}
}

static void
relay_read(struct relay *rl, int i)
{
	struct relay_client	*c = rl->c[i];
	uint8_t			 buf[RELAY_READ];
	size_t			 off, k;
	ssize_t			 n;

	n = recv(c->fd, buf, sizeof buf, MSG_DONTWAIT);
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
		if (c->state != RELAY_CLOSING)
			relay_note_add(rl, "relay: client %u left", c->id);
		relay_close(rl, i);
		return;
	}
	for (off = 0; n > 0 && off < (size_t)n; off += k) {
		k = sizeof c->in - c->nin;
		if (k > (size_t)n - off)
			k = (size_t)n - off;
		memcpy(c->in + c->nin, buf + off, k);
		c->nin += k;
		relay_scan(rl, c);
		if (c->nin == sizeof c->in) {
			/* Cannot happen (a message fits), but bounded. */
			c->nin = 0;
		}
	}
}

static void
relay_accept(struct relay *rl, int lfd)
{
	struct relay_client	*c;
	int			 fd, i;

	while ((fd = listen_accept(lfd)) != -1) {
		for (i = 0; i < RELAY_MAX_CLIENTS && rl->c[i] != NULL; i++)
			;
		if (i == RELAY_MAX_CLIENTS) {
			relay_note_add(rl, "relay: a client refused: %d "
			    "connected already", RELAY_MAX_CLIENTS);
			close(fd);
			continue;
		}
		if ((c = calloc(1, sizeof *c)) == NULL ||
		    (c->q = malloc(rl->qsize)) == NULL) {
			free(c);
			close(fd);
			relay_note_add(rl, "relay: out of memory for a client");
			continue;
		}
		c->fd = fd;
		c->qsize = rl->qsize;
		c->id = ++rl->next_id;
		c->state = RELAY_WAITING;
		rl->c[i] = c;
		rl->st.clients++;
		rl->st.accepted++;
		/* What is in the block so far goes to those there before. */
		relay_send_block(rl);
		if (rl->session || rl->final) {
			if (rl->hdr != NULL) {
				relay_join(rl, i);
				if (rl->c[i] != NULL)
					relay_note_add(rl, "relay: client %u "
					    "joined: header and %zu init "
					    "events", c->id, rl->ninit);
			}
		} else
			relay_note_add(rl, "relay: client %u waits for a "
			    "session", c->id);
	}
}

int
relay_fds(struct relay *rl, struct pollfd *pfd, int room)
{
	int	i, n = 0;

	if (rl->ufd != -1 && n < room) {
		pfd[n].fd = rl->ufd;
		pfd[n].events = POLLIN;
		pfd[n].revents = 0;
		rl->slot[n++] = -1;
	}
	for (i = 0; i < rl->nt && n < room; i++) {
		pfd[n].fd = rl->tfd[i];
		pfd[n].events = POLLIN;
		pfd[n].revents = 0;
		rl->slot[n++] = -2 - i;
	}
	for (i = 0; i < RELAY_MAX_CLIENTS && n < room; i++) {
		if (rl->c[i] == NULL)
			continue;
		pfd[n].fd = rl->c[i]->fd;
		pfd[n].events = POLLIN | (rl->c[i]->qlen > 0 ? POLLOUT : 0);
		pfd[n].revents = 0;
		rl->slot[n++] = i;
	}
	rl->nslot = n;
	return n;
}

void
relay_handle(struct relay *rl, const struct pollfd *pfd, uint64_t now)
{
	int	k, i;

	for (k = 0; k < rl->nslot; k++) {
		if ((i = rl->slot[k]) < 0 || rl->c[i] == NULL)
			continue;
		if (pfd[k].revents & POLLOUT)
			relay_write(rl, i);
		if (rl->c[i] != NULL &&
		    (pfd[k].revents & (POLLIN|POLLHUP|POLLERR)))
			relay_read(rl, i);
	}
	for (k = 0; k < rl->nslot; k++) {
		if (!(pfd[k].revents & POLLIN) || rl->slot[k] >= 0)
			continue;
		relay_accept(rl, rl->slot[k] == -1 ? rl->ufd :
		    rl->tfd[-2 - rl->slot[k]]);
	}
	rl->nslot = 0;
}

int
relay_timeout_ms(const struct relay *rl, uint64_t now)
{
	return -1;
}

/*
 * A command a client sent, for the loop to forward: 1, or 0 if none.
 * The loop then says what became of it with relay_command_done().
 */
int
relay_command(struct relay *rl, struct evtop_cmd *cmd)
{
	if (rl->ncmds == 0)
		return 0;
	rl->taken = rl->cmds[0];
	*cmd = rl->taken.cmd;
	memmove(rl->cmds, rl->cmds + 1, (size_t)--rl->ncmds *
	    sizeof rl->cmds[0]);
	return 1;
}

/* The last command relay_command() gave: why is NULL if it went to the
 * program's queue, else why it was not sent (the source is a file...). */
void
relay_command_done(struct relay *rl, const char *why)
{
	relay_cmd_result(rl, rl->taken.client, rl->taken.cmd.ns,
	    strlen(rl->taken.cmd.ns), rl->taken.cmd.id, why);
}

/* Clients with bytes still to write. */
int
relay_pending(const struct relay *rl)
{
	int	i;

	for (i = 0; i < RELAY_MAX_CLIENTS; i++) {
		if (rl->c[i] != NULL && (rl->c[i]->qlen > 0 ||
		    rl->c[i]->state == RELAY_CLOSING))
			return 1;
	}
	return 0;
}

void
relay_free(struct relay *rl)
{
	int	i;

	if (rl == NULL)
		return;
	relay_end_clients(rl);
	for (i = 0; i < RELAY_MAX_CLIENTS; i++) {
		if (rl->c[i] != NULL && rl->c[i]->qlen > 0)
			relay_write(rl, i);	/* the last bytes, if taken */
		relay_close(rl, i);
	}
	if (rl->ufd != -1) {
		listen_unix_remove(rl->opts->serve, rl->uid);
		close(rl->ufd);
	}
	for (i = 0; i < rl->nt; i++)
		close(rl->tfd[i]);
	free(rl->hdr);
	free(rl->init);
	free(rl->blk);
	free(rl);
}
