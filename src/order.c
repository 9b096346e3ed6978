/*
 * order.c: a clean eventlog file's events in time order, decoded once, in
 * place, from a mapping of the file: the fast way `evtop --batch` replays a
 * file.  merge.c is the general way (any file, any disorder, and the exact
 * order `evtop show` must print); order_open() declines what it does not
 * take and the caller uses merge.c instead.
 *
 * A capability writes its events into its own buffer and the buffer out as
 * a block when full, so the events of one capability, block after block,
 * are in time order but for a few: GHC stamps some events (GC_END) a little
 * before the ones written just ahead of them, never more than 2 events out
 * of place in the logs of GHC 6.12 to 9.11.  order_open() walks the file
 * from block marker to block marker (the blocks' bytes are not read) and
 * files each block, and each run of events outside blocks, under its
 * stream: the block's capability, or none.  order_next_n() then merges the
 * streams by (time, file offset), each read through a sorted lookahead of
 * ORDER_LOOK events.  That is the reference's stable order whenever no
 * event is more than ORDER_LOOK events out of place in its stream; an event
 * that is comes out late, is counted as late (order_late()), and is given
 * all the same, as a live stream's would be.
 *
 * Memory: the index of blocks (a file with more than ORDER_SEGS blocks goes
 * to merge.c) and the pages each stream has touched since it last let go of
 * them: a stream drops its pages behind every ORDER_DROP / streams bytes it
 * reads (16 KiB at least), so all hold about ORDER_DROP at most.
 * A file that shrinks while mapped would raise SIGBUS on the missing pages:
 * a handler maps zeros there and the replay stops with an error.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evtop.h"

#ifndef ORDER_LOOK
#define ORDER_LOOK	32		/* a stream's lookahead, in events */
#endif
#ifndef ORDER_BATCH
#define ORDER_BATCH	256		/* events framed at once per stream */
#endif
#define ORDER_SEGS	(1 << 20)	/* blocks and runs indexed, at most */
#ifndef ORDER_DROP
#define ORDER_DROP	(16 << 20)	/* bytes all streams may hold read */
#endif
#define ORDER_NONE	UINT32_MAX
#define ORDER_NOCAP	0xffffu		/* the stream of events of no cap */

/* A block, or a run of events outside blocks: [off, end) of one stream. */
struct order_seg {
	uint64_t	 off, end;
	uint32_t	 next;		/* the stream's next segment */
};

/* An event framed but not yet given: its key and where it is. */
struct order_ent {
	uint64_t	 time, off;
	uint32_t	 size;
};

struct order_stream {
	uint64_t	 pos, end;	/* unread bytes of the current segment */
	uint32_t	 seg;		/* the current segment */
	uint32_t	 last;		/* the last segment, while indexing */
	int32_t		 cap;		/* as events carry it: -1 for none */
	unsigned	 i, ready, n;	/* next out, sorted out, framed */
	uint64_t	 drop;		/* pages before this are let go */
	struct order_ent ent[ORDER_BATCH + ORDER_LOOK];
};

struct order {
	int		 fd;
	const uint8_t	*map;
	uint64_t	 size, data;
	struct proto_dec *dec;
	const int32_t	*sizes;
	uint16_t	 block_tag;

	struct order_seg *segs;
	uint32_t	 nsegs, segs_room;
	struct order_stream *streams;
	unsigned	 nstreams, streams_room;
	uint16_t	*stream_of;	/* cap -> stream + 1 */

	unsigned	*heap;		/* streams with events, by their head */
	unsigned	 nheap;
	struct order_ent limit;		/* see order_limit() */
	uint64_t	 drop_step;	/* a stream's bytes between drops */
	uint64_t	 last_time, last_off;
	uint64_t	 late, done;
	char		 error[128];
};

/* ------------------------------------------------------------------ */
/* A file that shrinks under the mapping. */

static const uint8_t	*order_map_lo, *order_map_hi;
static volatile sig_atomic_t order_shrunk;

static void
order_sigbus(int sig, siginfo_t *si, void *ctx)
{
	uintptr_t	a = (uintptr_t)si->si_addr;
	long		pg = sysconf(_SC_PAGESIZE);

	(void)ctx;
	if (a < (uintptr_t)order_map_lo || a >= (uintptr_t)order_map_hi) {
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	a &= ~(uintptr_t)(pg - 1);
	if (mmap((void *)a, (size_t)pg, PROT_READ, MAP_PRIVATE | MAP_FIXED |
	    MAP_ANONYMOUS, -1, 0) == MAP_FAILED)
		_exit(70);
	order_shrunk = 1;
}

/* ------------------------------------------------------------------ */

static uint64_t
order_be64(const uint8_t *p)
{
	uint64_t	v;

	memcpy(&v, p, 8);
	return __builtin_bswap64(v);
}

static void
order_fail(struct order *o, uint64_t at, const char *what)
{
	if (o->error[0] == '\0')
		snprintf(o->error, sizeof o->error, "byte %llu: %s",
		    (unsigned long long)at, what);
}

/* Let the pages of [from, to) go: they are read again if needed. */
static void
order_drop(struct order *o, uint64_t from, uint64_t to)
{
	uint64_t	pg = (uint64_t)sysconf(_SC_PAGESIZE);

	from = (from + pg - 1) & ~(pg - 1);
	to &= ~(pg - 1);
	if (to > from)
		madvise((void *)(o->map + from), to - from, MADV_DONTNEED);
}

static struct order_stream *
order_stream(struct order *o, uint16_t cap)
{
	struct order_stream	*s;

	if (o->stream_of[cap] != 0)
		return &o->streams[o->stream_of[cap] - 1];
	if (o->nstreams == o->streams_room) {
		s = reallocarray(o->streams, o->streams_room * 2 + 4,
		    sizeof *s);
		if (s == NULL)
			return NULL;
		o->streams = s;
		o->streams_room = o->streams_room * 2 + 4;
	}
	s = &o->streams[o->nstreams];
	memset(s, 0, sizeof *s);
	s->cap = cap == ORDER_NOCAP ? PROTO_NO_CAP : cap;
	s->seg = s->last = ORDER_NONE;
	o->stream_of[cap] = (uint16_t)++o->nstreams;
	return s;
}

/* File [off, end) under cap's stream, joining a run it continues. */
static int
order_file(struct order *o, uint16_t cap, uint64_t off, uint64_t end)
{
	struct order_stream	*s = order_stream(o, cap);
	struct order_seg	*g;

	if (s == NULL)
		return -1;
	if (s->last != ORDER_NONE && o->segs[s->last].end == off &&
	    s->last == o->nsegs - 1) {
		o->segs[s->last].end = end;
		return 0;
	}
	if (o->nsegs == o->segs_room) {
		if (o->nsegs == ORDER_SEGS || (g = reallocarray(o->segs,
		    o->segs_room * 2 + 256, sizeof *g)) == NULL)
			return -1;
		o->segs = g;
		o->segs_room = o->segs_room * 2 + 256;
	}
	g = &o->segs[o->nsegs];
	g->off = off;
	g->end = end;
	g->next = ORDER_NONE;
	if (s->last != ORDER_NONE)
		o->segs[s->last].next = o->nsegs;
	else
		s->seg = o->nsegs;
	s->last = o->nsegs++;
	return 0;
}

/*
 * Walk the events from block marker to block marker and index them: 0 if
 * the file is clean (every block whole, every event outside blocks
 * declared, the end marker if any at its very end), -1 if not.  As the
 * decoder does, events that start within a block's size after its marker
 * (which counts the marker's own 24 bytes twice) belong to its cap.
 */
static int
order_index(struct order *o)
{
	struct proto_ev	 ev;
	const char	*why;
	uint64_t	 pos = o->data, until = 0, dropped = o->data;
	uint16_t	 cap = ORDER_NOCAP;
	long		 n;

	while (pos < o->size) {
		if (o->size - pos >= 2 && o->map[pos] == 0xff &&
		    o->map[pos + 1] == 0xff)
			return pos + 2 == o->size ? 0 : -1;
		n = proto_frame_len(o->sizes, o->map + pos, o->size - pos);
		if (n <= 0)
			return -1;
		if (((o->map[pos] << 8) | o->map[pos + 1]) == o->block_tag) {
			if (proto_dec_at(o->dec, o->map + pos, (size_t)n,
			    PROTO_NO_CAP, &ev, &why) != n || why != NULL ||
			    ev.u.block.block_size < (uint32_t)n ||
			    ev.u.block.block_size > o->size - pos)
				return -1;
			cap = ev.u.block.cap;
			if (order_file(o, cap, pos, pos +
			    ev.u.block.block_size) == -1)
				return -1;
			until = pos + n + ev.u.block.block_size;
			pos += ev.u.block.block_size;
		} else {
			if (order_file(o, pos < until ? cap : ORDER_NOCAP,
			    pos, pos + (uint64_t)n) == -1)
				return -1;
			pos += (uint64_t)n;
		}
		if (pos - dropped >= ORDER_DROP) {
			order_drop(o, dropped, pos);
			dropped = pos;
		}
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* The streams' lookaheads and the merge. */

static int
order_before(const struct order_ent *a, const struct order_ent *b)
{
	return a->time < b->time || (a->time == b->time && a->off < b->off);
}

/*
 * Frame the stream's next events, sorting each into place among those not
 * given yet, and make ready all but the last ORDER_LOOK (a later event may
 * still go before them) or, at the stream's end, all: 0 if none is ready.
 * An event that does not frame ends its segment.
 */
static int
order_refill(struct order *o, struct order_stream *s)
{
	struct order_ent	 e, *v = s->ent;
	unsigned		 j, n;
	long			 len;

	/* Pages before what is still to come go (with a lag: the events
	 * just given borrow them). */
	if (s->i > 0 && v[0].off - s->drop >= o->drop_step) {
		order_drop(o, s->drop, v[0].off);
		s->drop = v[0].off;
	}
	memmove(v, v + s->i, (s->n - s->i) * sizeof *v);
	n = s->n - s->i;
	while (n < ORDER_BATCH + ORDER_LOOK) {
		if (s->pos == s->end) {
			if (s->seg == ORDER_NONE ||
			    (s->seg = o->segs[s->seg].next) == ORDER_NONE)
				break;
			s->pos = o->segs[s->seg].off;
			s->end = o->segs[s->seg].end;
			continue;
		}
		len = proto_frame_len(o->sizes, o->map + s->pos,
		    s->end - s->pos);
		if (len <= 0 && s->pos + 2 == o->size &&
		    o->map[s->pos] == 0xff && o->map[s->pos + 1] == 0xff) {
			/* The end marker, counted in the last block. */
			s->pos = s->end;
			continue;
		}
		if (len <= 0) {
			order_fail(o, s->pos, len == 0 ?
			    "an event runs past its block" :
			    "an event tag not declared in the header");
			s->pos = s->end;
			continue;
		}
		e.time = order_be64(o->map + s->pos + 2);
		e.off = s->pos;
		e.size = (uint32_t)len;
		s->pos += (uint64_t)len;
		/* Insertion from the back: usually it goes last. */
		for (j = n; j > 0 && v[j - 1].time > e.time; j--)
			v[j] = v[j - 1];
		v[j] = e;
		n++;
	}
	s->i = 0;
	s->n = n;
	if (s->pos == s->end && s->seg == ORDER_NONE)
		s->ready = n;
	else
		s->ready = n > ORDER_LOOK ? n - ORDER_LOOK : 0;
	return s->ready > 0;
}

static const struct order_ent *
order_head(const struct order *o, unsigned h)
{
	const struct order_stream *s = &o->streams[o->heap[h]];

	return &s->ent[s->i];
}

static void
order_sift(struct order *o, unsigned i)
{
	unsigned	c, v = o->heap[i];

	for (;;) {
		c = 2 * i + 1;
		if (c >= o->nheap)
			break;
		if (c + 1 < o->nheap &&
		    order_before(order_head(o, c + 1), order_head(o, c)))
			c++;
		if (!order_before(order_head(o, c),
		    &o->streams[v].ent[o->streams[v].i]))
			break;
		o->heap[i] = o->heap[c];
		i = c;
	}
	o->heap[i] = v;
}

/* The least head below the heap's top: the top's stream goes on until
 * its events pass it. */
static void
order_limit(struct order *o)
{
	const struct order_ent	*l;

	if (o->nheap < 2) {
		o->limit.time = UINT64_MAX;
		o->limit.off = UINT64_MAX;
		return;
	}
	l = order_head(o, 1);
	if (o->nheap > 2 && order_before(order_head(o, 2), l))
		l = order_head(o, 2);
	o->limit = *l;
}

static void
order_heap_init(struct order *o)
{
	struct order_stream	*s;
	unsigned		 i;

	for (i = 0; i < o->nstreams; i++) {
		s = &o->streams[i];
		if (s->seg != ORDER_NONE) {
			s->pos = s->drop = o->segs[s->seg].off;
			s->end = o->segs[s->seg].end;
		}
		s->i = s->n = s->ready = 0;
		if (order_refill(o, s))
			o->heap[o->nheap++] = i;
	}
	for (i = o->nheap / 2; i-- > 0;)
		order_sift(o, i);
	order_limit(o);
}

/*
 * The top stream s cannot give its head now (its ready events ran out, or
 * the head passes the limit): refill it, drop it when done, or let the
 * heap choose again.
 */
static void
order_switch(struct order *o, struct order_stream *s)
{
	if (s->i == s->ready && !order_refill(o, s)) {
		/* The stream is done. */
		o->heap[0] = o->heap[--o->nheap];
		if (o->nheap > 1)
			order_sift(o, 0);
	} else if (s->i < s->ready && order_before(&s->ent[s->i], &o->limit))
		return;		/* refilled, and still first */
	else if (o->nheap == 2) {
		/* Two streams (one capability and the events of none): swap. */
		if (order_before(order_head(o, 1), order_head(o, 0))) {
			o->heap[0] = o->heap[1];
			o->heap[1] = (unsigned)(s - o->streams);
		}
	} else
		order_sift(o, 0);
	order_limit(o);
}

/*
 * Up to n next events into ev[], 0 at the end.  Their borrowed pointers
 * stay valid until order_free().  The top stream of the heap gives events
 * while they come before every other stream's head (o->limit).
 */
size_t
order_next_n(struct order *o, struct proto_ev *ev, size_t n)
{
	struct order_stream	*s;
	const struct order_ent	*e;
	const char		*why;
	size_t			 k = 0;

	while (k < n && o->nheap > 0) {
		s = &o->streams[o->heap[0]];
		if (s->i == s->ready || !order_before(&s->ent[s->i], &o->limit)) {
			order_switch(o, s);
			continue;
		}
		do {
			e = &s->ent[s->i++];
			if (e->time < o->last_time || (e->time ==
			    o->last_time && e->off < o->last_off))
				o->late++;
			else {
				o->last_time = e->time;
				o->last_off = e->off;
			}
			why = proto_dec_framed(o->dec, o->map + e->off,
			    e->size, s->cap, &ev[k]);
			if (why != NULL) {
				order_fail(o, e->off, why);
				continue;
			}
			ev[k++].off = e->off;
		} while (k < n && s->i < s->ready &&
		    order_before(&s->ent[s->i], &o->limit));
	}
	if (order_shrunk) {
		/* Some of these may have been read as the zeros mapped. */
		order_fail(o, k > 0 ? ev[0].off : 0,
		    "the file shrank while read");
		o->nheap = 0;
		return 0;
	}
	o->done += k;
	return k;
}

/* ------------------------------------------------------------------ */

/* Read the header through a decoder; the first event's offset, or 0. */
static uint64_t
order_header(struct order *o)
{
	struct proto_ev	ev;
	uint64_t	fed = 0;
	size_t		n;

	for (;;) {
		switch (proto_dec_next(o->dec, &ev)) {
		case PROTO_HEADER:
			return proto_dec_offset(o->dec);
		case PROTO_AGAIN:
			if (fed == o->size)
				return 0;
			n = proto_dec_feed(o->dec, o->map + fed,
			    (size_t)(o->size - fed < 65536 ? o->size - fed :
			    65536));
			fed += n;
			if (n == 0)
				return 0;
			break;
		default:	/* junk before it, or a bad header */
			return 0;
		}
	}
}

/*
 * The file at path, mapped and indexed for order_next_n(); NULL if it is
 * not a clean, regular, non-empty file (merge.c then takes it).
 */
struct order *
order_open(const char *path)
{
	struct sigaction	 sa;
	struct order		*o;
	struct stat		 st;
	void			*map;
	int			 fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return NULL;
	if (fstat(fd, &st) == -1 || !S_ISREG(st.st_mode) || st.st_size < 16 ||
	    order_map_lo != NULL || (o = calloc(1, sizeof *o)) == NULL) {
		close(fd);
		return NULL;
	}
	o->fd = fd;
	o->size = (uint64_t)st.st_size;
	map = mmap(NULL, (size_t)o->size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) {
		free(o);
		close(fd);
		return NULL;
	}
	o->map = map;
	order_map_lo = o->map;
	order_map_hi = o->map + o->size;
	order_shrunk = 0;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = order_sigbus;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, NULL);

	o->dec = proto_dec_new(0);
	o->stream_of = calloc(65536, sizeof *o->stream_of);
	if (o->dec == NULL || o->stream_of == NULL ||
	    (o->data = order_header(o)) == 0 ||
	    proto_dec_type_size(o->dec, PROTO_BLOCK_MARKER) != 14) {
		order_free(o);
		return NULL;
	}
	o->sizes = proto_dec_sizes(o->dec);
	o->block_tag = PROTO_BLOCK_MARKER;
	if (order_index(o) == -1) {
		order_free(o);
		return NULL;
	}
	order_drop(o, 0, o->size);
	o->drop_step = ORDER_DROP / (o->nstreams + 1);
	if (o->drop_step < (16 << 10))
		o->drop_step = 16 << 10;
	if ((o->heap = calloc(o->nstreams + 1, sizeof *o->heap)) == NULL) {
		order_free(o);
		return NULL;
	}
	order_heap_init(o);
	return o;
}

void
order_free(struct order *o)
{
	struct sigaction	sa;

	if (o == NULL)
		return;
	if (o->map != NULL) {
		munmap((void *)o->map, (size_t)o->size);
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = SIG_DFL;
		sigaction(SIGBUS, &sa, NULL);
		order_map_lo = order_map_hi = NULL;
	}
	proto_dec_free(o->dec);
	free(o->segs);
	free(o->streams);
	free(o->stream_of);
	free(o->heap);
	close(o->fd);
	free(o);
}

const struct proto_dec *
order_dec(const struct order *o)
{
	return o->dec;
}

/* Why some events were not given (the first reason), or NULL. */
const char *
order_error(const struct order *o)
{
	return o->error[0] != '\0' ? o->error : NULL;
}

uint64_t
order_late(const struct order *o)
{
	return o->late;
}

uint64_t
order_done(const struct order *o)
{
	return o->done;
}
