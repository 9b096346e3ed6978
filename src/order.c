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
 * ORDER_LOOK events, in rounds: all that every stream has ready up to the
 * earliest of their last ready events, merged at once (order_round()).
 * That is the reference's stable order whenever no
 * event is more than ORDER_LOOK events out of place in its stream; an event
 * that is comes out late, is counted as late (order_late()), and is given
 * all the same, as a live stream's would be.
 *
 * Memory: the index of blocks (a file with more than ORDER_SEGS blocks goes
 * to merge.c) and the pages each stream has touched since it last let go of
 * them: every ORDER_DROP / streams bytes it reads (16 KiB at least), a
 * stream drops its pages up to where it stood the last time, so all hold
 * about 2 * ORDER_DROP at most.
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
#define ORDER_DROP	(8 << 20)	/* bytes all streams read per drop */
#endif
#define ORDER_NONE	UINT32_MAX
#define ORDER_NOCAP	0xffffu		/* the stream of events of no cap */

/* A block, or a run of events outside blocks: [off, end) of one stream. */
struct order_seg {
	uint64_t	 off, end;
	uint32_t	 next;		/* the stream's next segment */
};

/* A sorted run of entries to merge. */
struct order_run {
	const struct proto_frame *p;
	size_t		 n;
};

struct order_stream {
	uint64_t	 pos, end;	/* unread bytes of the current segment */
	uint32_t	 seg;		/* the current segment */
	uint32_t	 last;		/* the last segment, while indexing */
	int32_t		 cap;		/* as events carry it: -1 for none */
	unsigned	 i, ready, n;	/* next out, sorted out, framed */
	uint64_t	 drop;		/* pages before this are let go */
	uint64_t	 mark;		/* and those before this next */
	struct proto_frame ent[ORDER_BATCH + ORDER_LOOK];
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

	unsigned	*live;		/* streams not done */
	unsigned	 nlive;
	struct order_run *run;		/* a round's runs, one per stream */
	struct proto_frame *out, *tmp;	/* where runs are merged */
	const struct proto_frame *cur;	/* the round's events, in order */
	size_t		 ncur, icur;
	struct proto_frame last;	/* the latest event given */
	uint64_t	 drop_step;	/* a stream's bytes between drops */
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

/* a goes before b: by time, then by place in the file (no branch). */
static inline int
order_before(const struct proto_frame *a, const struct proto_frame *b)
{
	return (a->time < b->time) | ((a->time == b->time) & (a->off < b->off));
}

/*
 * Frame the stream's next events, sorting each into place among those not
 * given yet, and make ready all but the last ORDER_LOOK (a later event may
 * still go before them) or, at the stream's end, all: 0 if none is ready
 * (the stream is done).  An event that does not frame ends its segment.
 */
static int
order_refill(struct order *o, struct order_stream *s)
{
	struct proto_frame	 e, *v = s->ent;
	unsigned		 j, n;
	long			 len;

	/* Pages go a step behind what is still to come: what the events
	 * given since the last step borrow may still be read (feed.c hands
	 * them to the model on another thread, thousands of events behind;
	 * a page dropped too soon is read again, slowly). */
	if (s->i > 0 && v[0].off - s->mark >= o->drop_step) {
		order_drop(o, s->drop, s->mark);
		s->drop = s->mark;
		s->mark = v[0].off;
	}
	memmove(v, v + s->i, (s->n - s->i) * sizeof *v);
	n = s->n - s->i;
	e.cap = s->cap;
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
		/* The bytes a few events on: ready by the time they are
		 * framed (measured: 0.56 -> 0.52 s of 26 M events). */
		__builtin_prefetch(o->map + s->pos + 256);
		e.time = order_be64(o->map + s->pos + 2);
		e.off = s->pos;
		e.size = (uint32_t)len;
		s->pos += (uint64_t)len;
		/* Usually it goes last; else insertion from the back. */
		if (n == 0 || v[n - 1].time <= e.time) {
			v[n++] = e;
			continue;
		}
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

/* Merge the sorted runs a[0..na) and b[0..nb) into out, stably. */
static void
order_merge2(const struct proto_frame *a, size_t na,
    const struct proto_frame *b, size_t nb, struct proto_frame *out)
{
	const struct proto_frame *ae = a + na, *be = b + nb;
	int			 tb;

	if (na > 0 && nb > 0) {
		for (;;) {
			tb = order_before(b, a);
			*out++ = *(tb ? b : a);
			b += tb;
			a += !tb;
			if (a == ae || b == be)
				break;
		}
	}
	memcpy(out, a, (size_t)(ae - a) * sizeof *a);
	out += ae - a;
	memcpy(out, b, (size_t)(be - b) * sizeof *b);
}

/*
 * Merge the runs o->run[0..nrun) into one, in o->out or o->tmp, pairs of
 * runs at a time (log2(nrun) passes); a single run stays where it is.
 */
static const struct proto_frame *
order_merge(struct order *o, unsigned nrun)
{
	struct proto_frame	*dst = o->out, *other = o->tmp, *sw;
	size_t			 at;
	unsigned		 i, k;

	while (nrun > 1) {
		at = 0;
		for (i = k = 0; i < nrun; i += 2, k++) {
			if (i + 1 < nrun) {
				order_merge2(o->run[i].p, o->run[i].n,
				    o->run[i + 1].p, o->run[i + 1].n,
				    dst + at);
				o->run[k].n = o->run[i].n + o->run[i + 1].n;
			} else {
				memcpy(dst + at, o->run[i].p,
				    o->run[i].n * sizeof *dst);
				o->run[k].n = o->run[i].n;
			}
			o->run[k].p = dst + at;
			at += o->run[k].n;
		}
		nrun = k;
		sw = dst;
		dst = other;
		other = sw;
	}
	return o->run[0].p;
}

/*
 * One round of the merge: streams that gave all their ready events are
 * refilled (and let go when done); then every ready event up to the
 * earliest of the streams' last ready ones (no stream's later events can
 * go before that) goes to o->cur in time order.  0 when all are done.
 */
static int
order_round(struct order *o)
{
	struct order_stream	*s;
	struct proto_frame	 h;
	const struct proto_frame	*e;
	unsigned		 k, lo, hi, mid, nrun = 0;
	size_t			 total = 0, w;

	for (k = 0; k < o->nlive; k++) {
		s = &o->streams[o->live[k]];
		if (s->i == s->ready && !order_refill(o, s))
			o->live[k--] = o->live[--o->nlive];
	}
	if (o->nlive == 0)
		return 0;
	h = o->streams[o->live[0]].ent[o->streams[o->live[0]].ready - 1];
	for (k = 1; k < o->nlive; k++) {
		s = &o->streams[o->live[k]];
		e = &s->ent[s->ready - 1];
		if (order_before(e, &h))
			h = *e;
	}
	for (k = 0; k < o->nlive; k++) {
		s = &o->streams[o->live[k]];
		/* Its first ready event after h, by bisection. */
		lo = s->i;
		hi = s->ready;
		while (lo < hi) {
			mid = lo + (hi - lo) / 2;
			if (order_before(&h, &s->ent[mid]))
				hi = mid;
			else
				lo = mid + 1;
		}
		if (lo > s->i) {
			o->run[nrun].p = &s->ent[s->i];
			o->run[nrun++].n = lo - s->i;
			total += lo - s->i;
			s->i = lo;
		}
	}
	o->cur = order_merge(o, nrun);
	o->ncur = total;
	o->icur = 0;

	/* Out of place by more than a lookahead: before what was given. */
	for (w = 0; w < total && order_before(&o->cur[w], &o->last); w++)
		o->late++;
	if (order_before(&o->last, &o->cur[total - 1]))
		o->last = o->cur[total - 1];
	return 1;
}

static int
order_merge_init(struct order *o)
{
	struct order_stream	*s;
	size_t			 room = (size_t)(o->nstreams + 1) *
				    (ORDER_BATCH + ORDER_LOOK);
	unsigned		 i;

	o->live = calloc(o->nstreams + 1, sizeof *o->live);
	o->run = calloc(o->nstreams + 1, sizeof *o->run);
	o->out = calloc(room, sizeof *o->out);
	o->tmp = calloc(room, sizeof *o->tmp);
	if (o->live == NULL || o->run == NULL || o->out == NULL ||
	    o->tmp == NULL)
		return -1;
	for (i = 0; i < o->nstreams; i++) {
		s = &o->streams[i];
		if (s->seg != ORDER_NONE) {
			s->pos = s->drop = s->mark = o->segs[s->seg].off;
			s->end = o->segs[s->seg].end;
		}
		s->i = s->n = s->ready = 0;
		o->live[o->nlive++] = i;	/* refilled by the first round */
	}
	return 0;
}

/* Up to n of the round's next events at *e, refilled: 0 at the end. */
static size_t
order_take(struct order *o, const struct proto_frame **e, size_t n)
{
	while (o->icur == o->ncur)
		if (!order_round(o))
			return 0;
	*e = o->cur + o->icur;
	if (n > o->ncur - o->icur)
		n = o->ncur - o->icur;
	o->icur += n;
	return n;
}

/*
 * k events were given: 0 instead if some were read as the zeros mapped.
 * An error found in them (had: there was one before) is the zeros'.
 */
static size_t
order_given(struct order *o, size_t k, uint64_t off, int had)
{
	if (order_shrunk) {
		if (!had)
			o->error[0] = '\0';
		order_fail(o, off, "the file shrank while read");
		o->nlive = 0;
		o->icur = o->ncur = 0;
		return 0;
	}
	o->done += k;
	return k;
}

/*
 * Up to n next events into ev[], 0 at the end.  Their borrowed pointers
 * stay valid until order_free().
 */
size_t
order_next_n(struct order *o, struct proto_ev *ev, size_t n)
{
	const struct proto_frame *e;
	const char		*why;
	size_t			 k = 0, m, i, d;
	int			 had = o->error[0] != '\0';

	while (k < n && (m = order_take(o, &e, n - k)) > 0) {
		for (i = 0; i < m; i += d) {
			d = proto_dec_frames(o->dec, o->map, e + i, m - i,
			    ev + k, &why);
			k += d;
			if (i + d < m) {
				/* Its fields do not parse: left out. */
				order_fail(o, e[i + d].off, why);
				d++;
			}
		}
	}
	return order_given(o, k, k > 0 ? ev[0].off : 0, had);
}

/* Whether the file shrank under the map (so some bytes read as zeros). */
int
order_shrank(const struct order *o)
{
	(void)o;
	return order_shrunk != 0;
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
	if (order_merge_init(o) == -1) {
		order_free(o);
		return NULL;
	}
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
	free(o->live);
	free(o->run);
	free(o->out);
	free(o->tmp);
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
