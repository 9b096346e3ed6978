/*
 * reader.c: a file's events in the reference decoder's order (a stable
 * sort by time, which `evtop show` prints), in bounded memory, for every
 * reader of a file: show, --batch (through feed.c), the TUI's replay, and
 * seeking (reader_seek(), reader_tell()).
 *
 * Each capability writes its events in blocks, and its blocks follow each
 * other in time, so the events of one capability (and those outside any
 * block) form long runs in nearly sorted order even though the blocks of
 * different capabilities interleave in the file.  Nearly: GHC stamps some
 * events (GC_END) with a time taken a little before the events written just
 * ahead of them.
 *
 * Each capability's events are nearly sorted: in the logs of GHC 6.12 to
 * 9.x no event is more than a few places out of order in its capability's
 * stream.  reader_open() first scans a clean file (one header, events,
 * maybe the end marker at its very end), framing each event once, and
 * files it under its stream (its block's capability, or none) as
 * segments, stretches of the file; it checks that no event is earlier than
 * one 2 * READER_GROUP or more places before it in its stream.  A large
 * file's second half is scanned at once on another thread, from a block
 * marker near the middle, and joined to the first's streams when the
 * check holds across the cut (else the first thread scans it too).  Then the
 * single pass: each stream is read through a sorted lookahead of that many
 * events, which sorts it, and the streams are merged by (time, offset) in
 * rounds (all that every stream has ready up to the earliest of their last
 * ready events, merged pairwise without branches on which goes first), and
 * decoded in place from the mapping in batches.  That is the stable order,
 * and the events' pointers last as long as the mapping (feed.c hands them
 * to another thread).  A stream's pages are let go as it reads on.
 *
 * Otherwise, or for anything unusual (bad data, a second header, a cut
 * last event, a pipe), two passes over the bytes, read with pread(): the
 * first decodes the file and files each event under its capability's
 * current run, simulating a lookahead of READER_LOOK events (which sorts
 * local disorder away); when an event would come out of it too late, a new
 * run starts.  A run is a list of segments, contiguous byte ranges with the
 * decoder's block state at their start.  The second merges the runs with
 * one small cursor (a decoder sharing the header's types) per run, by time
 * and then file offset.  Past READER_FAN runs or READER_SEGS segments, the
 * runs so far are merged into a temporary file of raw event records, and
 * those files again, so memory stays bounded whatever the file holds.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evtop.h"

#ifndef READER_FAN
#define READER_FAN	256		/* sources merged at once */
#endif
#ifndef READER_SEGS
#define READER_SEGS	(1 << 19)	/* segments indexed at once */
#endif
#ifndef READER_LOOK
#define READER_LOOK	32		/* a run's lookahead, in events: a power of 2 */
#endif
#ifndef READER_SINGLE
#define READER_SINGLE	1		/* 0: only the two passes (tests) */
#endif
#ifndef READER_DROP
#define READER_DROP	(8 << 20)	/* mapped bytes read between drops */
#endif
/* A history's files (reader_open_own()): several are read at once, on
 * top of a live model, and little is read again; 8 MB each kept 30 MB of
 * their pages mapped, 60 MB in all with a late capability's blocks. */
#ifndef READER_DROP_OWN
#define READER_DROP_OWN	(1 << 20)
#endif
#define READER_KEYS	258		/* caps 0..255, none, the rest */
#define READER_READ	(1 << 16)
#define READER_MAX_EVENT	(12 + 65535)	/* the largest event there is */
#define READER_NONE	UINT32_MAX

/* Contiguous events of one run, and the decoder's block state before. */
struct reader_seg {
	uint64_t	 off, end;
	int64_t		 left;
	uint32_t	 count;
	int32_t		 cap;
	uint32_t	 next;		/* the run's next segment, or NONE */
};

/* An event waiting in a lookahead: enough to order it and find it again. */
struct reader_ent {
	uint64_t	 time, off;
	uint32_t	 size;
	int32_t		 cap;
};

/*
 * A lookahead: entries kept sorted by (time, offset) in a ring.  Events
 * arrive nearly sorted, so an insertion is nearly always an append.
 */
struct reader_look {
	struct reader_ent e[READER_LOOK];
	unsigned	 head, n;
};

struct reader_run {
	uint32_t	 first, last;	/* segments */
	uint64_t	 out;		/* time of the last event out */
	struct reader_look look;		/* pass 1: its cursor, simulated */
};

/* One sorted input: a run of the file, or a spill file of records. */
struct reader_src {
	uint64_t	 time, off;	/* of the event it offers next */
	/* Runs. */
	const struct reader_seg *seg;	/* the segment being read */
	uint32_t	 count;		/* its events not yet read */
	struct proto_dec *dec;
	uint64_t	 pos;		/* next file offset to read */
	struct reader_look look;
	/* Spills. */
	FILE		*spill;
	uint32_t	 rec_size;
	int32_t		 rec_cap;
};

/* A merge in progress over n sources. */
struct reader_heap {
	struct reader_src *v;
	size_t		  n, nh;
	size_t		 *heap;
	long		  pending;	/* source to advance first, or -1 */
	uint8_t		 *rec;		/* an event's bytes, when copied */
};

struct reader_spill {
	FILE		*f;
	unsigned	 level;
};

struct reader_fast;

struct reader {
	int		 fd;
	int		 own;		/* evtop's own file: it never shrinks */
	uint64_t	 bias;		/* own: added to the offsets told */
	struct reader_fast *fast;	/* the single pass, if it is used */
	struct proto_dec *dec;		/* pass 1 */
	struct proto_dec *types;	/* the first header's types */
	uint64_t	 size;
	uint8_t		*rbuf;		/* READER_READ: the scan's, pass 1's */

	struct reader_run *runs;
	size_t		 nruns;
	struct reader_seg *segs;
	size_t		 nsegs;
	long		 key_run[READER_KEYS];	/* current run of each key */
	int		 last_key;		/* key of the previous event */

	struct reader_spill *spills;
	size_t		 nspills, spills_size;

	struct reader_heap out;		/* the final merge */
	uint64_t	 events;
	/* Events given: read by another thread while feed.c's reads. */
	_Atomic uint64_t done;
	uint64_t	 last_time, last_off;	/* of the last event given */
	int		 given;		/* since the start or a seek */
	char		 error[256];
	int		 io_error;
};

static int	reader_flush_runs(struct reader *);

static int
reader_read_at(int fd, void *buf, size_t len, uint64_t off, size_t *got)
{
	ssize_t	n;

	for (;;) {
		n = pread(fd, buf, len, (off_t)off);
		if (n >= 0) {
			*got = (size_t)n;
			return 0;
		}
		if (errno != EINTR)
			return -1;
	}
}

static void
reader_fail(struct reader *m, const char *why)
{
	if (m->error[0] == '\0')
		snprintf(m->error, sizeof m->error, "%s", why);
	m->io_error = 1;
}

/* The file ends n bytes into the event at byte at: said from the start,
 * the events before it read. */
static void
reader_cut(struct reader *m, uint64_t at, uint64_t n)
{
	snprintf(m->error, sizeof m->error, "truncated: the event at byte %"
	    PRIu64 " is incomplete (%" PRIu64 " bytes)", at, n);
}

static int
reader_ent_before(const struct reader_ent *a, const struct reader_ent *b)
{
	if (a->time != b->time)
		return a->time < b->time;
	return a->off < b->off;
}

static void
reader_look_push(struct reader_look *l, const struct reader_ent *e)
{
	unsigned	i = l->n++, at, prev;

	/* Shift later entries up one place, from the tail. */
	for (; i > 0; i--) {
		prev = (l->head + i - 1) % READER_LOOK;
		if (!reader_ent_before(e, &l->e[prev]))
			break;
		l->e[(l->head + i) % READER_LOOK] = l->e[prev];
	}
	at = (l->head + i) % READER_LOOK;
	l->e[at] = *e;
}

static struct reader_ent
reader_look_pop(struct reader_look *l)
{
	struct reader_ent	top = l->e[l->head];

	l->head = (l->head + 1) % READER_LOOK;
	l->n--;
	return top;
}

/* Decode the run's next event in file order into its lookahead. */
static int
reader_src_read(struct reader *m, struct reader_src *s)
{
	struct proto_ev		ev;
	struct reader_ent	e;
	enum proto_res		r;
	size_t			got, room;

	while (s->count == 0) {
		if (s->seg == NULL || s->seg->next == READER_NONE)
			return 0;
		s->seg = &m->segs[s->seg->next];
		s->count = s->seg->count;
		s->pos = s->seg->off;
		proto_dec_seek(s->dec, s->seg->off, s->seg->cap,
		    s->seg->left);
	}
	for (;;) {
		r = proto_dec_next(s->dec, &ev);
		if (r == PROTO_EVENT)
			break;
		if (r == PROTO_END)
			continue;
		if (r != PROTO_AGAIN) {
			reader_fail(m, proto_dec_error(s->dec));
			return 0;
		}
		/* Read no further than the segment. */
		room = proto_dec_room(s->dec);
		if (room > READER_READ)
			room = READER_READ;
		if (room > s->seg->end - s->pos)
			room = (size_t)(s->seg->end - s->pos);
		/* But a GHC 9.6 IPE at its end is framed with the bytes
		 * after it (proto_frame_ipe(): up to three past a short
		 * one's end): another segment's. */
		if (room == 0 && s->pos < s->seg->end + 3)
			room = (size_t)(s->seg->end + 3 - s->pos);
		if (room == 0 || reader_read_at(m->fd, m->rbuf, room, s->pos,
		    &got) == -1 || got == 0) {
			reader_fail(m, "the file changed while reading");
			return 0;
		}
		proto_dec_feed(s->dec, m->rbuf, got);
		s->pos += got;
	}
	s->count--;
	e.time = ev.time;
	e.off = ev.off;
	e.size = ev.size;
	e.cap = ev.cap;
	reader_look_push(&s->look, &e);
	return 1;
}

/* Fill a run's lookahead and offer its least event; 0 when it is done. */
static int
reader_src_next_run(struct reader *m, struct reader_src *s)
{
	while (s->look.n < READER_LOOK && reader_src_read(m, s))
		;
	if (s->look.n == 0)
		return 0;
	s->time = s->look.e[s->look.head].time;
	s->off = s->look.e[s->look.head].off;
	return 1;
}

static int
reader_src_next_spill(struct reader *m, struct reader_src *s)
{
	uint64_t	time, off;
	uint32_t	size;
	int32_t		cap;

	if (fread(&time, sizeof time, 1, s->spill) != 1)
		return 0;
	if (fread(&size, sizeof size, 1, s->spill) != 1 ||
	    fread(&cap, sizeof cap, 1, s->spill) != 1 ||
	    fread(&off, sizeof off, 1, s->spill) != 1 ||
	    size > READER_MAX_EVENT) {
		reader_fail(m, "a temporary file is damaged");
		return 0;
	}
	s->time = time;
	s->off = off;
	s->rec_size = size;
	s->rec_cap = cap;
	return 1;
}

static int
reader_src_next(struct reader *m, struct reader_src *s)
{
	return s->spill != NULL ? reader_src_next_spill(m, s) :
	    reader_src_next_run(m, s);
}

/* Time, then file offset: a stable sort of the file by time. */
static int
reader_before(const struct reader_src *v, size_t a, size_t b)
{
	if (v[a].time != v[b].time)
		return v[a].time < v[b].time;
	return v[a].off < v[b].off;
}

static void
reader_sift(const struct reader_src *v, size_t *h, size_t n, size_t i)
{
	size_t	c, t;

	for (;;) {
		c = 2 * i + 1;
		if (c >= n)
			return;
		if (c + 1 < n && reader_before(v, h[c + 1], h[c]))
			c++;
		if (!reader_before(v, h[c], h[i]))
			return;
		t = h[i];
		h[i] = h[c];
		h[c] = t;
		i = c;
	}
}

static void
reader_heap_free(struct reader_heap *h)
{
	size_t	i;

	for (i = 0; i < h->n; i++) {
		proto_dec_free(h->v[i].dec);
		if (h->v[i].spill != NULL)
			fclose(h->v[i].spill);
	}
	free(h->v);
	free(h->heap);
	free(h->rec);
	memset(h, 0, sizeof *h);
}

static int
reader_heap_init(struct reader *m, struct reader_heap *h, struct reader_src *v,
    size_t n)
{
	size_t	i;

	h->v = v;
	h->n = n;
	h->nh = 0;
	h->pending = -1;
	h->heap = calloc(n ? n : 1, sizeof *h->heap);
	h->rec = malloc(READER_MAX_EVENT);
	if (h->heap == NULL || h->rec == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		if (reader_src_next(m, &v[i]))
			h->heap[h->nh++] = i;
	}
	for (i = h->nh; i-- > 0;)
		reader_sift(v, h->heap, h->nh, i);
	return 0;
}

/* The least event of a run, decoded from wherever its bytes are now. */
static int
reader_take_run(struct reader *m, struct reader_heap *h, struct reader_src *s,
    struct proto_ev *ev)
{
	struct reader_ent	 e = reader_look_pop(&s->look);
	const uint8_t		*p;
	size_t			 got;

	if ((p = proto_dec_peek(s->dec, e.off, e.size)) == NULL) {
		/* The cursor has read on since: read the event again. */
		if (reader_read_at(m->fd, h->rec, e.size, e.off, &got) == -1 ||
		    got != e.size)
			return -1;
		p = h->rec;
	}
	if (proto_dec_one(m->types, p, e.size, e.cap, ev) != PROTO_EVENT)
		return -1;
	ev->off = e.off;
	return 0;
}

/* The next event of a merge; its pointers last until the next call. */
static int
reader_heap_pop(struct reader *m, struct reader_heap *h, struct proto_ev *ev)
{
	struct reader_src	*s;
	int			 rc;

	if (h->pending >= 0) {
		if (!reader_src_next(m, &h->v[h->pending]))
			h->heap[0] = h->heap[--h->nh];
		reader_sift(h->v, h->heap, h->nh, 0);
		h->pending = -1;
	}
	if (h->nh == 0)
		return 0;
	s = &h->v[h->heap[0]];
	h->pending = (long)h->heap[0];
	if (s->spill == NULL)
		rc = reader_take_run(m, h, s, ev);
	else if (fread(h->rec, 1, s->rec_size, s->spill) != s->rec_size ||
	    proto_dec_one(m->types, h->rec, s->rec_size, s->rec_cap, ev) !=
	    PROTO_EVENT)
		rc = -1;
	else {
		ev->off = s->off;
		rc = 0;
	}
	if (rc == -1) {
		reader_fail(m, "an event could not be read again");
		h->nh = 0;
		return 0;
	}
	return 1;
}

/* Sources for the pending runs of the file. */
static struct reader_src *
reader_run_srcs(struct reader *m)
{
	struct reader_src	*v;
	size_t			 i;

	if ((v = calloc(m->nruns ? m->nruns : 1, sizeof *v)) == NULL)
		return NULL;
	for (i = 0; i < m->nruns; i++) {
		if ((v[i].dec = proto_dec_new_sharing(m->types, 0)) == NULL) {
			while (i-- > 0)
				proto_dec_free(v[i].dec);
			free(v);
			return NULL;
		}
		/* Pass 1 checked the fields; they are decoded when taken. */
		proto_dec_frame_only(v[i].dec);
		v[i].seg = &m->segs[m->runs[i].first];
		v[i].count = v[i].seg->count;
		v[i].pos = v[i].seg->off;
		proto_dec_seek(v[i].dec, v[i].seg->off, v[i].seg->cap,
		    v[i].seg->left);
	}
	return v;
}

/* Sources reading the last n spill files, which leave the stack. */
static struct reader_src *
reader_spill_srcs(struct reader *m, size_t n)
{
	struct reader_src	*v;
	size_t			 i, first = m->nspills - n;

	if ((v = calloc(n ? n : 1, sizeof *v)) == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		v[i].spill = m->spills[first + i].f;
		rewind(v[i].spill);
	}
	m->nspills = first;
	return v;
}

static int
reader_push_spill(struct reader *m, FILE *f, unsigned level)
{
	struct reader_spill	*n;

	if (m->nspills == m->spills_size) {
		m->spills_size = m->spills_size ? 2 * m->spills_size : 16;
		n = realloc(m->spills, m->spills_size * sizeof *n);
		if (n == NULL)
			return -1;
		m->spills = n;
	}
	m->spills[m->nspills].f = f;
	m->spills[m->nspills].level = level;
	m->nspills++;
	return 0;
}

/* Merge n sources into a new spill file of records at level. */
static int
reader_to_spill(struct reader *m, struct reader_src *v, size_t n,
    unsigned level)
{
	struct reader_heap	 h;
	struct proto_ev		 ev;
	FILE			*f;
	uint32_t		 size;
	int			 rc = 0;

	memset(&h, 0, sizeof h);
	if ((f = tmpfile()) == NULL) {
		free(v);
		return -1;
	}
	if (reader_heap_init(m, &h, v, n) == -1)
		rc = -1;
	while (rc == 0 && reader_heap_pop(m, &h, &ev)) {
		size = ev.size;
		fwrite(&ev.time, sizeof ev.time, 1, f);
		fwrite(&size, sizeof size, 1, f);
		fwrite(&ev.cap, sizeof ev.cap, 1, f);
		fwrite(&ev.off, sizeof ev.off, 1, f);
		/* The event's bytes lie just before its payload. */
		fwrite(ev.payload - (ev.size - ev.len), 1, ev.size, f);
	}
	reader_heap_free(&h);
	if (rc == -1 || fflush(f) != 0 || ferror(f) || m->io_error ||
	    reader_push_spill(m, f, level) == -1) {
		fclose(f);
		return -1;
	}
	return 0;
}

/* Merge the top READER_FAN spills while they share a level. */
static int
reader_compact(struct reader *m)
{
	struct reader_src	*v;
	unsigned		 level;
	size_t			 i;

	while (m->nspills >= READER_FAN) {
		level = m->spills[m->nspills - 1].level;
		for (i = m->nspills - READER_FAN; i < m->nspills; i++) {
			if (m->spills[i].level != level)
				return 0;
		}
		if ((v = reader_spill_srcs(m, READER_FAN)) == NULL ||
		    reader_to_spill(m, v, READER_FAN, level + 1) == -1)
			return -1;
	}
	return 0;
}

static void
reader_forget_runs(struct reader *m)
{
	size_t	i;

	m->nruns = 0;
	m->nsegs = 0;
	m->last_key = -1;
	for (i = 0; i < READER_KEYS; i++)
		m->key_run[i] = -1;
}

static int
reader_flush_runs(struct reader *m)
{
	struct reader_src	*v;
	size_t			 n = m->nruns;

	if (n == 0)
		return 0;
	if ((v = reader_run_srcs(m)) == NULL)
		return -1;
	if (reader_to_spill(m, v, n, 0) == -1)
		return -1;
	reader_forget_runs(m);
	return reader_compact(m);
}

static int
reader_key(int32_t cap)
{
	if (cap == PROTO_NO_CAP)
		return READER_KEYS - 2;
	return cap < READER_KEYS - 2 ? cap : READER_KEYS - 1;
}

/*
 * Whether a run's cursor would give this event out in order.  The cursor
 * fills its lookahead to READER_LOOK events, then lets the least out before
 * it reads the next: so here, a full lookahead lets one out first, and the
 * new event must not be earlier than it.
 */
static int
reader_run_takes(struct reader_run *r, const struct reader_ent *e)
{
	struct reader_ent	out;

	if (r->look.n == READER_LOOK) {
		out = reader_look_pop(&r->look);
		r->out = out.time;
	}
	if (e->time < r->out)
		return 0;
	reader_look_push(&r->look, e);
	return 1;
}

/* File one event of pass 1 under its key's run and segment. */
static int
reader_add(struct reader *m, const struct proto_ev *ev, int32_t cap,
    int64_t left)
{
	struct reader_run	*run;
	struct reader_seg	*seg;
	struct reader_ent	 e = { ev->time, ev->off, ev->size, ev->cap };
	int			 key = reader_key(ev->cap);
	long			 r = m->key_run[key];

	if (r >= 0 && !reader_run_takes(&m->runs[r], &e))
		r = -1;
	if (r < 0 || key != m->last_key || m->segs[m->runs[r].last].end !=
	    ev->off) {
		if (m->nsegs == READER_SEGS || (r < 0 &&
		    m->nruns == READER_FAN)) {
			if (reader_flush_runs(m) == -1)
				return -1;
			r = -1;
		}
		if (r < 0) {
			r = (long)m->nruns++;
			memset(&m->runs[r], 0, sizeof m->runs[r]);
			m->runs[r].first = (uint32_t)m->nsegs;
			m->key_run[key] = r;
			reader_run_takes(&m->runs[r], &e);
		} else
			m->segs[m->runs[r].last].next = (uint32_t)m->nsegs;
		seg = &m->segs[m->nsegs];
		seg->off = ev->off;
		seg->end = ev->off;
		seg->cap = cap;
		seg->left = left;
		seg->count = 0;
		seg->next = READER_NONE;
		m->runs[r].last = (uint32_t)m->nsegs++;
	}
	run = &m->runs[r];
	seg = &m->segs[run->last];
	seg->count++;
	seg->end = ev->off + ev->size;
	m->last_key = key;
	return 0;
}

/*
 * Pass 1: find the runs.  Bad input ends the pass with a message in
 * m->error; the events before it are still delivered.  -1 on a system
 * error.
 */
static int
reader_index(struct reader *m)
{
	struct proto_ev	 ev;
	enum proto_res	 r;
	uint64_t	 pos = 0;
	int32_t		 cap;
	int64_t		 left;
	size_t		 got, used, want;

	for (;;) {
		/* (evtop's own file: only its size, see reader_open_own().) */
		want = m->own && m->size - pos < READER_READ ?
		    (size_t)(m->size - pos) : READER_READ;
		if (reader_read_at(m->fd, m->rbuf, want, pos, &got) == -1)
			return -1;
		if (got == 0)
			break;
		pos += got;
		for (used = 0; used < got;) {
			used += proto_dec_feed(m->dec, m->rbuf + used,
			    got - used);
			for (;;) {
				proto_dec_block_state(m->dec, &cap, &left);
				r = proto_dec_next(m->dec, &ev);
				if (r == PROTO_AGAIN)
					break;
				if (r == PROTO_HEADER && m->types != NULL) {
					snprintf(m->error, sizeof m->error,
					    "byte %" PRIu64 ": a second header "
					    "starts a new session; only the "
					    "first is read",
					    proto_dec_offset(m->dec));
					return 0;
				}
				if (r == PROTO_HEADER) {
					m->types = proto_dec_new_sharing(m->dec,
					    0);
					if (m->types == NULL)
						return -1;
				}
				if (r == PROTO_ERROR) {
					snprintf(m->error, sizeof m->error,
					    "%s", proto_dec_error(m->dec));
					return 0;
				}
				if (r != PROTO_EVENT)
					continue;
				if (reader_add(m, &ev, cap, left) == -1)
					return -1;
				m->events++;
			}
		}
	}
	if (m->types == NULL)
		snprintf(m->error, sizeof m->error, "no eventlog header found");
	else if (proto_dec_pending(m->dec) > 0)
		reader_cut(m, proto_dec_offset(m->dec),
		    proto_dec_pending(m->dec));
	return 0;
}

/* A pipe cannot be read twice: spool it to an unlinked temporary file. */
static int
reader_spool(int in)
{
	char	 buf[READER_READ];
	FILE	*f;
	ssize_t	 n;
	int	 fd;

	if ((f = tmpfile()) == NULL)
		return -1;
	fd = dup(fileno(f));
	fclose(f);
	if (fd == -1)
		return -1;
	while ((n = read(in, buf, sizeof buf)) != 0) {
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 || write(fd, buf, (size_t)n) != n) {
			close(fd);
			return -1;
		}
	}
	return fd;
}

static int
reader_open_fd(const char *path)
{
	struct stat	st;
	int		fd, spooled;

	if (strcmp(path, "-") == 0)
		fd = dup(STDIN_FILENO);
	else
		fd = open(path, O_RDONLY);
	if (fd == -1)
		return -1;
	if (fstat(fd, &st) == 0 && !S_ISREG(st.st_mode)) {
		spooled = reader_spool(fd);
		close(fd);
		return spooled;
	}
	return fd;
}

/* ------------------------------------------------------------------ */
/* The single pass, over a mapping of the file. */

/*
 * The single pass keeps each stream (a capability's blocks, or the events
 * outside blocks) as a list of segments, stretches of the file where only
 * its events lie, found by the scan; pmax is the stream's newest time up
 * to the segment's end, for seeking.
 */
struct reader_fseg {
	uint64_t	 off, end;
	uint64_t	 pmax;
	uint32_t	 next;		/* the stream's next segment, or NONE */
};

#ifndef READER_GROUP
#define READER_GROUP	16		/* the scan's unit of displacement */
#endif
#ifndef READER_EXCEPT
#define READER_EXCEPT	(1 << 16)	/* events taken out of their streams */
#endif
/* The scan reads the file, not the mapping: copied in by the kernel, the
 * bytes are in cache when their events are framed one after the other,
 * and the mapping's pages are touched once, by the merge. */
#define READER_SCAN	(256 << 10)
#ifndef READER_BATCH
#define READER_BATCH	256		/* events a stream frames at once */
#endif
/* Enough to sort any event the scan let pass (see reader_fast_scan). */
#define READER_FLOOK	(2 * READER_GROUP)
/* A file this large is scanned in two halves at once; the second starts
 * at a block marker found within READER_CUT_LOOK bytes of the middle. */
#ifndef READER_SPLIT
#define READER_SPLIT	(16u << 20)
#endif
#define READER_CUT_READ	(256 << 10)
#define READER_CUT_LOOK	(16u << 20)
/* Events of a stream's start in the second half checked against the
 * first half's (reader_fast_follows()). */
#define READER_HEAD	(2 * READER_GROUP + 1)

struct reader_fstream {
	uint64_t	 pos, end;	/* unread bytes of the current segment */
	uint32_t	 seg;		/* the current segment, or NONE */
	uint32_t	 first, last;	/* its segments */
	int32_t		 cap;		/* as events carry it */
	unsigned	 i, ready, n;	/* next out, sorted out, framed */
	uint64_t	 drop, mark;	/* pages before drop are let go; then mark */
	/* The scan's check: the newest time of its groups before the last
	 * two, the last one's, and the current's. */
	uint64_t	 floor, gprev, gcur;
	unsigned	 gcnt;
	/* The times of its first READER_HEAD events in the scan's part, and
	 * how many there are (reader_fast_follows()). */
	uint64_t	 head[READER_HEAD];
	unsigned	 hn;
	/* The stream of events taken out of theirs, or NULL. */
	const struct proto_frame *xv;
	uint32_t	 xi, xn;
	/* ent[0] is a sentinel (time 0) before the frames, ent + 1. */
	struct proto_frame ent[1 + READER_BATCH + READER_FLOOK];
};

/* A sorted run of frames to merge. */
struct reader_frun {
	const struct proto_frame *p;
	size_t		 n;
};

struct reader_fast {
	/* The header's framing (proto_dec_sizes()), PROTO_NTAGS of them. */
	int32_t		*tsize;
	/* A fixed-size event's bytes by tag (its bytes as reader_raw16()
	 * loads them); 0 for the rest (variable, markers): the long way. */
	uint32_t	*fixed;
	void		*tabs;		/* both, if they are this one's */
	int		 rested;	/* reader_rest(): no tables, no buffers */
	int		 marker;	/* block markers have their fields */
	uint64_t	 data, end;	/* the events' bytes */
	uint64_t	 cut;		/* bytes of an event cut by the end */
	uint64_t	 safe;		/* events before it are framed fast */
	const uint8_t	*map;		/* the whole file */

	struct reader_fseg *segs;
	uint32_t	 nsegs, segs_room;
	struct reader_fstream *st;
	unsigned	 nst, st_room;
	/* A stream's index + 1 by a block's u16 cap: caps 0..255 and none
	 * (0xffff, at 256) here, the rest in stream_hi, made when one comes
	 * (all 65536 here were 128 KB a reader, kept while it rests). */
	uint16_t	 stream_of[257];
	uint16_t	*stream_hi;

	/*
	 * Events the scan found too far out of place in their streams:
	 * taken out (the segment is split around each), sorted, and given
	 * as one more stream.  A bounded correction: past READER_EXCEPT of
	 * them, the two passes.
	 */
	struct proto_frame *exc;
	uint32_t	 nexc, exc_room;
	uint8_t		*sbuf;		/* the scan's */

	unsigned	*live;		/* streams not done */
	unsigned	 nlive;
	struct reader_frun *run;	/* a round's runs, one per stream */
	struct proto_frame *out, *tmp;	/* where runs are merged */
	const struct proto_frame *cur;	/* the round's events, in order */
	size_t		 ncur, icur;
	uint64_t	 drop_step;	/* a stream's bytes between drops */
	int		 all;		/* nothing more: after an error */
	/* After a seek, events before (from_time, from_off) are passed
	 * over: (0, 0) passes none. */
	uint64_t	 from_time, from_off;
	int		 guard;		/* its range in reader_guard[] + 1, or 0 */
};

/*
 * A file that shrinks under the mapping raises SIGBUS on the missing
 * pages: the handler maps zeros there, and the reader stops with an error.
 * The handler covers READER_GUARDS mappings at once (the replay's, the raw
 * events pane's, a zoomed timeline's: readers of one file); a reader
 * beyond reads by pread (two passes), unless the file is evtop's own
 * (reader_open_own()), which is never cut short under it.  Readers are
 * opened and freed on one thread; the handler runs on any.
 */
#define READER_GUARDS	4
static struct {
	const uint8_t *volatile	lo, *volatile hi;
	volatile sig_atomic_t	shrunk;
} reader_guard[READER_GUARDS];
static int		 reader_nguards;
static struct sigaction	 reader_old_bus;

static void
reader_sigbus(int sig, siginfo_t *si, void *ctx)
{
	uintptr_t	a = (uintptr_t)si->si_addr;
	long		pg = sysconf(_SC_PAGESIZE);
	int		i;

	(void)ctx;
	for (i = 0; i < READER_GUARDS; i++)
		if (reader_guard[i].lo != NULL &&
		    a >= (uintptr_t)reader_guard[i].lo &&
		    a < (uintptr_t)reader_guard[i].hi)
			break;
	if (i == READER_GUARDS) {
		/* Not ours: the handler before (a crash handler) has it
		 * when the fault repeats. */
		sigaction(sig, &reader_old_bus, NULL);
		return;
	}
	a &= ~(uintptr_t)(pg - 1);
	if (mmap((void *)a, (size_t)pg, PROT_READ, MAP_PRIVATE | MAP_FIXED |
	    MAP_ANONYMOUS, -1, 0) == MAP_FAILED)
		_exit(70);
	reader_guard[i].shrunk = 1;
}

/* Whether zeros were mapped for some of f's pages (the file shrank). */
static int
reader_guard_shrunk(const struct reader_fast *f)
{
	return f->guard != 0 && reader_guard[f->guard - 1].shrunk;
}

/* Let the pages of [from, to) go: they are read again if touched. */
static void
reader_drop(const uint8_t *map, uint64_t from, uint64_t to)
{
	uint64_t	pg = (uint64_t)sysconf(_SC_PAGESIZE);

	from = (from + pg - 1) & ~(pg - 1);
	to &= ~(pg - 1);
	if (to > from)
		madvise((void *)(map + from), to - from, MADV_DONTNEED);
}

static inline uint16_t
reader_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* A tag's two bytes as the machine loads them: an index for tables built
 * the same way (one load, no swap). */
static inline uint16_t
reader_raw16(const uint8_t *p)
{
	uint16_t	v;

	memcpy(&v, p, 2);
	return v;
}

static inline uint64_t
reader_be64(const uint8_t *p)
{
	uint64_t	v;

	memcpy(&v, p, 8);
	return __builtin_bswap64(v);
}

/* The merge's buffers (reader_fast_bufs()) go. */
static void
reader_fast_unbufs(struct reader_fast *f)
{
	free(f->live);
	free(f->run);
	free(f->out);
	free(f->tmp);
	f->live = NULL;
	f->run = NULL;
	f->out = f->tmp = NULL;
	f->cur = NULL;
	f->nlive = 0;
	f->ncur = f->icur = 0;
}

static void
reader_fast_free(struct reader_fast *f, uint64_t size)
{
	if (f == NULL)
		return;
	if (f->map != NULL)
		munmap((void *)f->map, (size_t)size);
	if (f->guard != 0) {
		reader_guard[f->guard - 1].lo = NULL;
		reader_guard[f->guard - 1].hi = NULL;
		if (--reader_nguards == 0)
			sigaction(SIGBUS, &reader_old_bus, NULL);
	}
	reader_fast_unbufs(f);
	free(f->tabs);
	free(f->sbuf);
	free(f->segs);
	free(f->exc);
	free(f->st);
	free(f->stream_hi);
	free(f);
}

/* Map the file and take SIGBUS for it: -1 if it cannot be. */
static int
reader_fast_map(struct reader *m, struct reader_fast *f)
{
	struct sigaction	sa;
	void			*map;
	int			 i = 0;

	if (m->size == 0)
		return -1;
	if (!m->own) {
		for (i = 0; i < READER_GUARDS; i++)
			if (reader_guard[i].lo == NULL)
				break;
		if (i == READER_GUARDS)
			return -1;	/* the two passes */
	}
	map = mmap(NULL, (size_t)m->size, PROT_READ, MAP_PRIVATE, m->fd, 0);
	if (map == MAP_FAILED)
		return -1;
	f->map = map;
	if (m->own)
		return 0;	/* never cut short under us: no handler */
	f->guard = i + 1;
	reader_guard[i].shrunk = 0;
	/* The end first: a range the handler sees is whole. */
	reader_guard[i].hi = f->map + m->size;
	reader_guard[i].lo = f->map;
	if (reader_nguards++ == 0) {
		memset(&sa, 0, sizeof sa);
		sa.sa_sigaction = reader_sigbus;
		sa.sa_flags = SA_SIGINFO;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGBUS, &sa, &reader_old_bus);
	}
	return 0;
}

/* Where a block's u16 cap field (0xffff: none) has its stream's index
 * + 1: NULL if it cannot have one. */
static uint16_t *
reader_fast_slot(struct reader_fast *f, uint16_t capf, int make)
{
	if (capf < 256 || capf == 0xffff)
		return &f->stream_of[capf < 256 ? capf : 256];
	if (f->stream_hi == NULL && make)
		f->stream_hi = calloc(65536, sizeof *f->stream_hi);
	return f->stream_hi != NULL ? &f->stream_hi[capf] : NULL;
}

/* The stream of a block's cap field, or -1. */
static long
reader_fast_of(struct reader_fast *f, uint16_t capf)
{
	uint16_t	*slot = reader_fast_slot(f, capf, 0);

	return slot != NULL ? (long)*slot - 1 : -1;
}

/* The same, made if there is none: -1 out of memory. */
static long
reader_fast_stream(struct reader_fast *f, uint16_t capf)
{
	struct reader_fstream	*s;
	uint16_t		*slot;

	if ((slot = reader_fast_slot(f, capf, 1)) == NULL)
		return -1;
	if (*slot != 0)
		return *slot - 1;
	if (f->nst == f->st_room) {
		s = reallocarray(f->st, f->st_room * 2 + 4, sizeof *s);
		if (s == NULL)
			return -1;
		f->st = s;
		f->st_room = f->st_room * 2 + 4;
	}
	s = &f->st[f->nst];
	memset(s, 0, offsetof(struct reader_fstream, ent));
	memset(&s->ent[0], 0, sizeof s->ent[0]);
	s->cap = capf == 0xffff ? PROTO_NO_CAP : capf;
	s->seg = s->first = s->last = READER_NONE;
	s->gcnt = READER_GROUP;
	*slot = (uint16_t)++f->nst;
	return f->nst - 1;
}

/* Stream si's events go on at pos: its last segment grows if it ends
 * there, else a new one starts.  Its index, or NONE out of memory. */
static uint32_t
reader_fast_seg(struct reader_fast *f, long si, uint64_t pos)
{
	struct reader_fstream	*s = &f->st[si];
	struct reader_fseg	*g;

	if (s->last != READER_NONE && f->segs[s->last].end == pos)
		return s->last;
	if (f->nsegs == f->segs_room) {
		if (f->segs_room >= UINT32_MAX / 4 || (g = reallocarray(f->segs,
		    f->segs_room * 2 + 256, sizeof *g)) == NULL)
			return READER_NONE;
		f->segs = g;
		f->segs_room = f->segs_room * 2 + 256;
	}
	g = &f->segs[f->nsegs];
	g->off = g->end = pos;
	g->pmax = 0;
	g->next = READER_NONE;
	if (s->last != READER_NONE)
		f->segs[s->last].next = f->nsegs;
	else
		s->first = f->nsegs;
	s->last = f->nsegs++;
	return s->last;
}

static inline uint64_t
reader_max(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* Whether this process may run on more than one core (not when pinned:
 * then two threads would only take turns). */
int
reader_cores(void)
{
	cpu_set_t	set;

	if (sched_getaffinity(0, sizeof set, &set) == -1)
		return 0;
	return CPU_COUNT(&set) > 1;
}

/*
 * Start fn(arg) on a thread with the signals the caller handles (Ctrl-C,
 * SIGTERM, a closed pipe) blocked, so that they reach the caller; a
 * fault's own signal (SIGBUS on a file that shrinks) cannot be blocked.
 */
int
reader_thread(pthread_t *th, void *(*fn)(void *), void *arg)
{
	sigset_t	all, old;
	int		rc;

	sigfillset(&all);
	sigdelset(&all, SIGBUS);
	sigdelset(&all, SIGSEGV);
	sigdelset(&all, SIGFPE);
	sigdelset(&all, SIGILL);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	rc = pthread_create(th, NULL, fn, arg);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

/*
 * The event at pos (size bytes, time t) is too far out of place in stream
 * si: out of it into f->exc, its segment *g ending before it (pmax: the
 * stream's newest time so far) and the next starting after.  1 done, 0
 * too many such, -1 out of memory.
 */
static __attribute__((noinline)) int
reader_fast_except(struct reader_fast *f, long si, uint32_t *g, uint64_t pos,
    uint64_t size, uint64_t t, uint64_t pmax)
{
	struct proto_frame	*x;

	if (f->nexc == f->exc_room) {
		if (f->exc_room >= READER_EXCEPT)
			return 0;
		x = reallocarray(f->exc, f->exc_room * 2 + 64, sizeof *x);
		if (x == NULL)
			return -1;
		f->exc = x;
		f->exc_room = f->exc_room * 2 + 64;
	}
	x = &f->exc[f->nexc++];
	x->time = t;
	x->off = pos;
	x->size = (uint32_t)size;
	x->cap = f->st[si].cap;
	f->segs[*g].end = pos;
	f->segs[*g].pmax = pmax;
	if ((*g = reader_fast_seg(f, si, pos + size)) == READER_NONE)
		return -1;
	return 1;
}

static int
reader_frame_cmp(const void *a, const void *b)
{
	const struct proto_frame *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

/* The stream of the events taken out, sorted, last: -1 out of memory. */
static int
reader_fast_excstream(struct reader_fast *f)
{
	struct reader_fstream	*s;

	qsort(f->exc, f->nexc, sizeof *f->exc, reader_frame_cmp);
	if (f->nst == f->st_room) {
		s = reallocarray(f->st, f->st_room + 1, sizeof *s);
		if (s == NULL)
			return -1;
		f->st = s;
		f->st_room++;
	}
	s = &f->st[f->nst++];
	memset(s, 0, offsetof(struct reader_fstream, ent));
	memset(&s->ent[0], 0, sizeof s->ent[0]);
	s->seg = s->first = s->last = READER_NONE;
	s->xv = f->exc;
	s->xn = f->nexc;
	return 0;
}

/* Where a scan of part of the file is, to pause there and go on. */
struct reader_scan {
	uint64_t	 pos;
	uint64_t	 until;		/* the block's end, when incap */
	uint64_t	 groups;	/* whole groups of READER_GROUP */
	int		 incap;
	uint16_t	 capf;		/* the stream in force */
};

/*
 * Frame the events from sc->pos on into f's streams (see
 * reader_fast_scan()), up to the file's end (1) or, lim being an event's
 * start, to lim (2: paused there, sc says where); an event across lim
 * and the scan goes on to the end.  0 if the file does not suit the
 * single pass, -1 on a system error.
 */
static int
reader_fast_span(struct reader *m, struct reader_fast *f,
    struct reader_scan *sc, uint64_t lim)
{
	struct proto_ev	 ev;
	struct reader_fstream *s;
	const uint8_t	*p;
	uint8_t		*buf;
	uint64_t	 pos, t, avail, size = m->size;
	uint64_t	 cs = 0, ce = 0, k, kstop;
	uint64_t	 floor, gprev, gcur;
	uint32_t	 g;
	unsigned	 gcnt, hn;
	size_t		 got;
	long		 total, si;
	uint64_t	 stop, until = sc->until, sz, groups = sc->groups;
	uint32_t	 bs;
	int		 rc;
	int		 incap = sc->incap;
	uint16_t	 tag, capf;
	const uint32_t	*fixed = f->fixed;

	if (f->sbuf == NULL &&
	    (f->sbuf = malloc(READER_SCAN + READER_MAX_EVENT)) == NULL)
		return -1;
	buf = f->sbuf;

	/* The stream in force is held in locals; a switch saves it. */
#define READER_LEAVE(at) do {						\
	s->floor = floor; s->gprev = gprev; s->gcur = gcur;		\
	s->gcnt = gcnt; s->hn = hn;					\
	f->segs[g].end = (at);						\
	f->segs[g].pmax = reader_max(floor, reader_max(gprev, gcur));	\
} while (0)
#define READER_ENTER(capf_, at) do {					\
	if ((si = reader_fast_stream(f, (capf_))) < 0 ||		\
	    (g = reader_fast_seg(f, si, (at))) == READER_NONE)		\
		return -1;						\
	s = &f->st[si];							\
	floor = s->floor; gprev = s->gprev; gcur = s->gcur;		\
	gcnt = s->gcnt; hn = s->hn;					\
	sc->capf = (capf_);						\
} while (0)
/* An event in its place: the checks' state. */
#define READER_TAKE(t_) do {						\
	gcur = reader_max(gcur, (t_));					\
	if (hn < READER_HEAD)						\
		s->head[hn++] = (t_);					\
	if (--gcnt == 0) {						\
		floor = reader_max(floor, gprev);			\
		gprev = gcur;						\
		gcur = 0;						\
		gcnt = READER_GROUP;					\
		groups++;						\
	}								\
} while (0)
	pos = sc->pos;
	READER_ENTER(sc->capf, pos);
	while (pos < size) {
		if (pos >= lim) {
			if (pos == lim) {
				READER_LEAVE(pos);
				sc->pos = pos;
				sc->until = until;
				sc->groups = groups;
				sc->incap = incap;
				return 2;
			}
			lim = UINT64_MAX;	/* an event across it */
		}
		if (ce < size && pos + READER_MAX_EVENT > ce) {
			/* The next bytes, whole events at least. */
			cs = pos;
			ce = size - pos < READER_SCAN + READER_MAX_EVENT ? size :
			    pos + READER_SCAN + READER_MAX_EVENT;
			for (k = 0; k < ce - cs; k += got) {
				if (reader_read_at(m->fd, buf + k, ce - cs - k,
				    cs + k, &got) == -1)
					return -1;
				if (got == 0)
					return 0;	/* it shrank */
			}
		}
		/*
		 * Fixed-size events up to the block's end, or to where one
		 * might not be whole in the buffer: the bulk, a few
		 * instructions each.
		 */
		stop = ce - pos > READER_MAX_EVENT ? ce - READER_MAX_EVENT : pos;
		if (incap && stop > until)
			stop = until;
		if (stop > lim)
			stop = lim;
		k = pos - cs;
		kstop = stop > pos ? stop - cs : k;
		while (k < kstop && (sz = fixed[reader_raw16(buf + k)]) != 0) {
			t = reader_be64(buf + k + 2);
			if (t < floor) {
				/* Too far out of place: out of the stream. */
				if ((rc = reader_fast_except(f, si, &g, cs + k,
				    sz, t, reader_max(floor, reader_max(gprev,
				    gcur)))) != 1)
					return rc;
				k += sz;
				continue;
			}
			READER_TAKE(t);
			k += sz;
		}
		pos = cs + k;
		if (incap && pos >= until) {
			/* Past the block's last event: capless. */
			incap = 0;
			READER_LEAVE(pos);
			READER_ENTER(0xffff, pos);
		}
		if (pos >= size || pos >= lim)
			continue;
		/* One event the long way: variable, a marker, the tail. */
		if (ce < size && pos + READER_MAX_EVENT > ce)
			continue;	/* read on first */
		p = buf + (pos - cs);
		avail = ce - pos;
		tag = avail >= 2 ? reader_be16(p) : 0;
		if (tag == 0xffff) {
			if (avail != 2)
				return 0;	/* a marker too soon */
			f->end = pos;
			break;
		}
		if ((total = proto_frame_len(f->tsize, p, avail)) == 0 &&
		    ce == size) {
			/* Cut short by the file's end (a program killed, a
			 * copy taken while written): every event before it
			 * is whole, and the two passes would say no more.
			 * evtop's own file (spill.c) ends so by design, with
			 * the first bytes of the event after its last, for a
			 * GHC 9.6 IPE to be framed with: not a cut. */
			f->end = pos;
			if (!m->own)
				f->cut = size - pos;
			break;
		}
		if (total <= 0)
			return 0;	/* undeclared, or cut */
		if (f->tsize[tag] < 2 && proto_dec_one(m->types, p,
		    (size_t)total, PROTO_NO_CAP, &ev) != PROTO_EVENT)
			return 0;	/* malformed */
		if (tag == PROTO_BLOCK_MARKER && f->marker) {
			/* As the decoder: u32 size, u64 end time, u16 cap;
			 * events starting within its size after its end
			 * are the block's (its own bytes count twice), and
			 * the first is, whatever the size. */
			capf = reader_be16(p + 22);
			incap = capf != 0xffff;
			bs = (uint32_t)p[10] << 24 | (uint32_t)p[11] << 16 |
			    (uint32_t)p[12] << 8 | p[13];
			until = pos + (uint64_t)total + (bs != 0 ? bs : 1);
			READER_LEAVE(pos);
			READER_ENTER(capf, pos);
		}
		t = reader_be64(p + 2);
		if (t < floor) {
			if ((rc = reader_fast_except(f, si, &g, pos,
			    (uint64_t)total, t, reader_max(floor,
			    reader_max(gprev, gcur)))) != 1)
				return rc;
			pos += (uint64_t)total;
			continue;
		}
		READER_TAKE(t);
		pos += (uint64_t)total;
	}
	READER_LEAVE(f->end);
#undef READER_LEAVE
#undef READER_ENTER
#undef READER_TAKE
	sc->pos = f->end;
	sc->groups = groups;
	return 1;
}

/* The events a scan filed: whole groups, what each stream's last one
 * holds, and those taken out. */
static uint64_t
reader_fast_count(const struct reader_fast *f, uint64_t groups)
{
	uint64_t	n = groups * READER_GROUP + f->nexc;
	unsigned	i;

	for (i = 0; i < f->nst; i++)
		n += READER_GROUP - f->st[i].gcnt;
	return n;
}

/*
 * Where a second thread may scan from: a block marker about halfway, by
 * its look (tag, a cap, a size, an end after its start), or 0.  Whether
 * it is one (not bytes inside an event) the first half's scan tells, by
 * ending there.
 */
static uint64_t
reader_fast_cut(struct reader *m, const struct reader_fast *f)
{
	uint8_t		 buf[READER_CUT_READ + 24];
	const uint8_t	*p, *e;
	uint64_t	 at, mid;
	size_t		 got;
	uint32_t	 bs;
	uint16_t	 cap;

	if (!f->marker || m->size - f->data < READER_SPLIT)
		return 0;
	mid = f->data + (m->size - f->data) / 2;
	for (at = mid; at < mid + READER_CUT_LOOK && at + 24 < m->size;
	    at += READER_CUT_READ) {
		if (reader_read_at(m->fd, buf, sizeof buf, at, &got) == -1 ||
		    got < 24)
			return 0;
		for (p = buf, e = buf + got - 24; p < e; p++) {
			if ((p = memchr(p, PROTO_BLOCK_MARKER, (size_t)(e - p)))
			    == NULL)
				break;
			if (p == buf || p[-1] != 0)
				continue;
			cap = reader_be16(p + 21);
			bs = (uint32_t)p[9] << 24 | (uint32_t)p[10] << 16 |
			    (uint32_t)p[11] << 8 | p[12];
			if ((cap < READER_KEYS || cap == 0xffff) && bs > 0 &&
			    bs <= (64u << 20) &&
			    reader_be64(p + 13) >= reader_be64(p + 1))
				return at + (uint64_t)(p - 1 - buf);
		}
	}
	return 0;
}

struct reader_half {
	struct reader	*m;
	struct reader_fast *f;
	struct reader_scan sc;
	int		 rc;
};

static void *
reader_half_run(void *arg)
{
	struct reader_half *h = arg;

	h->rc = reader_fast_span(h->m, h->f, &h->sc, UINT64_MAX);
	return NULL;
}

/*
 * Whether stream s2 of the second half may follow s of the first: the
 * scan's check across the cut.  The lookahead needs every event to be at
 * least every one 2 * READER_GROUP places or more before it.  For the
 * second half's first 2 * READER_GROUP events, those places reach into
 * the first half: the newest of its groups before the last two (floor),
 * of those before the last (gprev too), or all of it, by how far the
 * event is from the cut.  The later ones the second half checked against
 * its own first group at least: that must not be older than the first
 * half's newest.  (s2->head holds one more event than it checks: there
 * are later ones.)
 */
static int
reader_fast_follows(const struct reader_fstream *s,
    const struct reader_fstream *s2)
{
	uint64_t	 fmax, fprev, gmax = 0, lim;
	unsigned	 j, c = READER_GROUP - s->gcnt;

	fprev = reader_max(s->floor, s->gprev);
	fmax = reader_max(fprev, s->gcur);
	for (j = 1; j <= s2->hn && j <= 2 * READER_GROUP; j++) {
		lim = j <= READER_GROUP - c ? s->floor :
		    j <= 2 * READER_GROUP - c ? fprev : fmax;
		if (s2->head[j - 1] < lim)
			return 0;
		if (j <= READER_GROUP)
			gmax = reader_max(gmax, s2->head[j - 1]);
	}
	return s2->hn <= 2 * READER_GROUP || gmax >= fmax;
}

/*
 * The second half's streams after the first's, the first paused where
 * the second began: 1 done, 0 they do not join (reader_fast_follows(), or
 * too many events taken out), -1 out of memory.  A segment's pmax is the
 * second half's newest time then, not both halves': seeking passes over
 * a segment by its own events' times, which pmax bounds either way.
 */
static int
reader_fast_join(struct reader_fast *f, struct reader_fast *f2,
    uint64_t *extra)
{
	struct reader_fstream	*s2, *s;
	struct reader_fseg	*g;
	struct proto_frame	*x;
	uint32_t		 base, i, j, room;
	long			 si;
	uint16_t		 capf;

	for (i = 0; i < f2->nst; i++) {
		s2 = &f2->st[i];
		capf = s2->cap == PROTO_NO_CAP ? 0xffff : (uint16_t)s2->cap;
		if ((si = reader_fast_of(f, capf)) >= 0 &&
		    !reader_fast_follows(&f->st[si], s2))
			return 0;
	}
	if (f->nexc + f2->nexc > READER_EXCEPT ||
	    f2->nsegs > UINT32_MAX / 4 - f->nsegs)
		return 0;
	if (f2->nexc > 0) {
		room = f->nexc + f2->nexc;
		if ((x = reallocarray(f->exc, room, sizeof *x)) == NULL)
			return -1;
		memcpy(x + f->nexc, f2->exc, f2->nexc * sizeof *x);
		f->exc = x;
		f->nexc = f->exc_room = room;
	}
	room = f->nsegs + f2->nsegs;
	if (room > f->segs_room) {
		if ((g = reallocarray(f->segs, room, sizeof *g)) == NULL)
			return -1;
		f->segs = g;
		f->segs_room = room;
	}
	base = f->nsegs;
	for (j = 0; j < f2->nsegs; j++) {
		f->segs[base + j] = f2->segs[j];
		if (f2->segs[j].next != READER_NONE)
			f->segs[base + j].next += base;
	}
	f->nsegs = room;
	for (i = 0; i < f2->nst; i++) {
		s2 = &f2->st[i];
		if (s2->first == READER_NONE)
			continue;
		capf = s2->cap == PROTO_NO_CAP ? 0xffff : (uint16_t)s2->cap;
		if ((si = reader_fast_stream(f, capf)) < 0)
			return -1;
		s = &f->st[si];
		if (s->last != READER_NONE)
			f->segs[s->last].next = base + s2->first;
		else
			s->first = base + s2->first;
		s->last = base + s2->last;
	}
	f->end = f2->end;
	f->cut = f2->cut;
	*extra = reader_fast_count(f2, 0) - f2->nexc;
	return 1;
}

/*
 * Scan from sc to the end, the second half on another thread when the
 * file is large, splits (reader_fast_cut()) and more than one core may
 * run us: 1, 0 or -1 as reader_fast_span(); *extra: the events the
 * second half filed in whole groups and partial ones.
 */
static int
reader_fast_halves(struct reader *m, struct reader_fast *f,
    struct reader_scan *sc, uint64_t *extra)
{
	struct reader_half	 h;
	struct reader_fast	*f2;
	pthread_t		 th;
	uint64_t		 cut;
	int			 rc, joined = 0;

	*extra = 0;
	if ((cut = reader_fast_cut(m, f)) == 0 || !reader_cores() ||
	    (f2 = calloc(1, sizeof *f2)) == NULL)
		return reader_fast_span(m, f, sc, UINT64_MAX);
	f2->tsize = f->tsize;	/* (read only: f's) */
	f2->fixed = f->fixed;
	f2->marker = f->marker;
	f2->data = f->data;
	f2->end = f->end;
	memset(&h, 0, sizeof h);
	h.m = m;
	h.f = f2;
	h.sc.pos = cut;
	h.sc.capf = 0xffff;
	if (reader_thread(&th, reader_half_run, &h) != 0) {
		reader_fast_free(f2, 0);
		return reader_fast_span(m, f, sc, UINT64_MAX);
	}
	rc = reader_fast_span(m, f, sc, cut);
	pthread_join(th, NULL);
	if (rc == 2 && h.rc == 1) {
		if ((joined = reader_fast_join(f, f2, extra)) == -1)
			rc = -1;
	}
	if (rc == 2 && joined == 1) {
		*extra += h.sc.groups * READER_GROUP;
		rc = 1;
	} else if (rc == 2)
		rc = reader_fast_span(m, f, sc, UINT64_MAX);
#ifdef READER_DEBUG
	fprintf(stderr, "reader: halves at %llu: %s\n", (unsigned long long)cut,
	    joined == 1 ? "joined" : "scanned again");
#endif
	reader_fast_free(f2, 0);
	return rc;
}

/* The tables framing takes, from the header's types: -1 out of memory. */
static int
reader_fast_tables(struct reader *m, struct reader_fast *f)
{
	uint32_t	i;
	uint8_t		tb[2];

	if ((f->tabs = malloc(PROTO_NTAGS * (sizeof *f->tsize +
	    sizeof *f->fixed))) == NULL)
		return -1;
	f->tsize = f->tabs;
	f->fixed = (uint32_t *)(f->tsize + PROTO_NTAGS);
	memcpy(f->tsize, proto_dec_sizes(m->types), PROTO_NTAGS *
	    sizeof *f->tsize);
	for (i = 0; i < PROTO_NTAGS; i++) {
		tb[0] = (uint8_t)(i >> 8);
		tb[1] = (uint8_t)i;
		f->fixed[reader_raw16(tb)] = f->tsize[i] >= 2 && i != 0xffff &&
		    !(i == PROTO_BLOCK_MARKER && f->marker) ?
		    8 + (uint32_t)f->tsize[i] : 0;
	}
	return 0;
}

/* The merge's buffers, for the streams the scan found: -1 out of memory. */
static int
reader_fast_bufs(struct reader_fast *f)
{
	f->live = calloc(f->nst + 1, sizeof *f->live);
	f->run = calloc(f->nst + 1, sizeof *f->run);
	f->out = calloc((size_t)(f->nst + 1) * (READER_BATCH + READER_FLOOK),
	    sizeof *f->out);
	f->tmp = calloc((size_t)(f->nst + 1) * (READER_BATCH + READER_FLOOK),
	    sizeof *f->tmp);
	return f->live == NULL || f->run == NULL || f->out == NULL ||
	    f->tmp == NULL ? -1 : 0;
}

/*
 * Whether the file suits the single pass: 1 yes, 0 no, -1 on a system
 * error.  Reads the header with m->dec, then frames every event (as the
 * decoder would: a bad event, one cut before the file's end, a second
 * header, a marker before the end, and the file is the two passes'; one
 * cut by the end ends the events, said as the two passes say it), and
 * files it by its block's capability: each stream's segments.  It also
 * checks that no event of a stream is earlier than one 2 * READER_GROUP
 * events or more before it in the stream (by the newest time of the
 * stream's groups of READER_GROUP events before the last two: a few
 * instructions an event), so that a lookahead of that many events sorts
 * every stream.  A large file's two halves are framed at once, on two
 * threads (reader_fast_halves()).
 */
static int
reader_fast_scan(struct reader *m, struct reader_fast *f)
{
	struct proto_ev	 ev;
	struct reader_scan sc;
	enum proto_res	 r;
	uint64_t	 pos, n, extra;
	size_t		 got, used;
	int		 rc;

	/* The header: the file must start with it. */
	r = PROTO_AGAIN;
	for (pos = 0; r != PROTO_HEADER;) {
		if ((r = proto_dec_next(m->dec, &ev)) == PROTO_HEADER)
			break;
		if (r != PROTO_AGAIN)
			return 0;
		if (reader_read_at(m->fd, m->rbuf, READER_READ, pos,
		    &got) == -1)
			return -1;
		if (got == 0)
			return 0;
		/* The decoder takes it all: it holds more than rbuf. */
		if ((used = proto_dec_feed(m->dec, m->rbuf, got)) == 0)
			return 0;
		pos += used;
	}
	if ((m->types = proto_dec_new_sharing(m->dec, 0)) == NULL)
		return -1;
	f->marker = proto_dec_type_size(m->dec, PROTO_BLOCK_MARKER) >= 14;
	f->data = proto_dec_offset(m->dec);
	f->end = m->size;
	if (reader_fast_tables(m, f) == -1)
		return -1;
	if (reader_fast_map(m, f) == -1)
		return 0;
	memset(&sc, 0, sizeof sc);
	sc.pos = f->data;
	sc.capf = 0xffff;
	if ((rc = reader_fast_halves(m, f, &sc, &extra)) != 1)
		return rc;
	if (f->cut > 0)
		reader_cut(m, f->end, f->cut);	/* as the two passes' index */
	free(f->sbuf);
	f->sbuf = NULL;
	n = reader_fast_count(f, sc.groups) + extra;
	if (f->nexc > 0 && reader_fast_excstream(f) == -1)
		return -1;
	m->events = n;
	f->safe = m->size > READER_MAX_EVENT ? m->size - READER_MAX_EVENT : 0;
	if (reader_fast_bufs(f) == -1)
		return -1;
	f->drop_step = (m->own ? READER_DROP_OWN : READER_DROP) / (f->nst + 1);
	if (f->drop_step < (16 << 10))
		f->drop_step = 16 << 10;
	return 1;
}

/* A stream's frames, after the sentinel. */
static inline struct proto_frame *
reader_frames(struct reader_fstream *s)
{
	return s->ent + 1;
}

/* a goes before b: by time, then by place in the file (no branch). */
static inline int
reader_fbefore(const struct proto_frame *a, const struct proto_frame *b)
{
	return (a->time < b->time) | ((a->time == b->time) & (a->off < b->off));
}

/*
 * Frame the stream's next events, sorting each into place among those not
 * given yet, and make ready all but the last READER_FLOOK (a later event
 * may still go before them; the scan saw that no later one goes before
 * the rest) or, at the stream's end, all: 0 if none is ready.
 */
static int
reader_fast_refill(struct reader *m, struct reader_fast *f,
    struct reader_fstream *s)
{
	struct proto_frame	*v = reader_frames(s), *x, *xe;
	const struct proto_frame *xs;
	const uint8_t		*map = f->map, *p, *pe;
	const uint32_t		*fixed = f->fixed;
	uint64_t		 ft = f->from_time, fo = f->from_off;
	uint64_t		 pos = s->pos, end = s->end, t;
	unsigned		 j, n;
	long			 len;
	int32_t			 cap = s->cap;
	int			 filter = (ft | fo) != 0;

	/* Pages go a step behind what is still to come: what the events
	 * given since the last step borrow may still be read (feed.c hands
	 * them to the model on another thread, thousands of events behind;
	 * a page dropped too soon is only read again). */
	if (s->i > 0 && s->xv == NULL &&
	    v[0].off - s->mark >= f->drop_step) {
		reader_drop(map, s->drop, s->mark);
		s->drop = s->mark;
		s->mark = v[0].off;
	}
	memmove(v, v + s->i, (s->n - s->i) * sizeof *v);
	n = s->n - s->i;
	if (s->xv != NULL) {
		/* The events taken out: sorted already, all ready. */
		while (n < READER_BATCH + READER_FLOOK && s->xi < s->xn) {
			xs = &s->xv[s->xi++];
			if (filter && (xs->time < ft || (xs->time == ft &&
			    xs->off < fo)))
				continue;
			v[n++] = *xs;
		}
		s->i = 0;
		s->n = s->ready = n;
		return n > 0;
	}
	while (n < READER_BATCH + READER_FLOOK) {
		if (pos == end) {
			if (s->seg == READER_NONE ||
			    (s->seg = f->segs[s->seg].next) == READER_NONE)
				break;
			pos = f->segs[s->seg].off;
			end = f->segs[s->seg].end;
			continue;
		}
		/*
		 * The bulk: fixed-size events in order, framed by a lookup
		 * (the scan framed these bytes), up to the segment's end or
		 * the file's last 64 KiB (an event there might reach past
		 * the mapping if the file changed).
		 */
		if (!filter) {
			x = v + n;
			xe = v + READER_BATCH + READER_FLOOK;
			p = map + pos;
			pe = map + (end < f->safe ? end : f->safe);
			/* An event has 10 bytes at least: stopping within 10
			 * bytes a free frame, the frames need no test. */
			if (pe > p &&
			    (uint64_t)(pe - p) > (uint64_t)(xe - x) * 10)
				pe = p + (xe - x) * 10;
			while (p < pe && (len = fixed[reader_raw16(p)]) != 0) {
				/* The bytes a few events on: ready by the
				 * time they are framed. */
				__builtin_prefetch(p + 256);
				t = reader_be64(p + 2);
				if (x[-1].time > t)
					break;	/* out of order: the long way */
				x->time = t;
				x->off = (uint64_t)(p - map);
				x->size = (uint32_t)len;
				x->cap = cap;
				x++;
				p += len;
			}
			n = (unsigned)(x - v);
			pos = (uint64_t)(p - map);
			if (pos > end)
				goto changed;	/* an event ran past */
			if (pos == end || n == READER_BATCH + READER_FLOOK)
				continue;
		}
		/* One event the long way: variable-size, out of order, the
		 * file's tail, or after a seek. */
		p = map + pos;
		/* Framed with the bytes after the segment too: a GHC 9.6
		 * IPE that ends a block is told by the two after it
		 * (proto_frame_ipe()); it must still end within. */
		if ((len = proto_frame_len(f->tsize, p, m->size - pos)) <= 0 ||
		    (uint64_t)len > end - pos)
			goto changed;
		t = reader_be64(p + 2);
		if (filter && (t < ft || (t == ft && pos < fo))) {
			pos += (uint64_t)len;
			continue;	/* before where a seek starts */
		}
		/* Insertion from the back (v[-1] is a sentinel of time 0). */
		for (j = n; j > 0 && v[j - 1].time > t; j--)
			v[j] = v[j - 1];
		x = v + j;
		x->time = t;
		x->off = pos;
		x->size = (uint32_t)len;
		x->cap = cap;
		n++;
		pos += (uint64_t)len;
	}
	s->pos = pos;
	s->end = end;
	s->i = 0;
	s->n = n;
	if (pos == end && s->seg == READER_NONE)
		s->ready = n;
	else
		s->ready = n > READER_FLOOK ? n - READER_FLOOK : 0;
	return s->ready > 0;

changed:
	reader_fail(m, "the file changed while reading");
	f->all = 1;
	return 0;
}

/* Merge the sorted runs a[0..na) and b[0..nb) into out, stably. */
static void
reader_merge2(const struct proto_frame *a, size_t na,
    const struct proto_frame *b, size_t nb, struct proto_frame *out)
{
	const struct proto_frame *ae = a + na, *be = b + nb;
	uintptr_t		 mask;
	int			 tb;

	if (na > 0 && nb > 0) {
		for (;;) {
			/* Selected by arithmetic: which goes is not
			 * predictable (`tb ? b : a` became a branch, a
			 * mispredicted one an event in four). */
			tb = reader_fbefore(b, a);
			mask = -(uintptr_t)tb;
			*out++ = *(const struct proto_frame *)
			    (((uintptr_t)b & mask) | ((uintptr_t)a & ~mask));
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

/* Merge f->run[0..nrun) into one, pairs at a time; one stays in place. */
static const struct proto_frame *
reader_merge(struct reader_fast *f, unsigned nrun)
{
	struct proto_frame	*dst = f->out, *other = f->tmp, *sw;
	size_t			 at;
	unsigned		 i, k;

	while (nrun > 1) {
		at = 0;
		for (i = k = 0; i < nrun; i += 2, k++) {
			if (i + 1 < nrun) {
				reader_merge2(f->run[i].p, f->run[i].n,
				    f->run[i + 1].p, f->run[i + 1].n,
				    dst + at);
				f->run[k].n = f->run[i].n + f->run[i + 1].n;
			} else {
				memcpy(dst + at, f->run[i].p,
				    f->run[i].n * sizeof *dst);
				f->run[k].n = f->run[i].n;
			}
			f->run[k].p = dst + at;
			at += f->run[k].n;
		}
		nrun = k;
		sw = dst;
		dst = other;
		other = sw;
	}
	return f->run[0].p;
}

/*
 * One round of the merge: streams that gave all their ready events are
 * refilled (and leave when done); then every ready event up to the
 * earliest of the streams' last ready ones (no stream's later events can
 * go before that) goes to f->cur in order.  0 when all are done.
 */
static int
reader_fast_round(struct reader *m, struct reader_fast *f)
{
	struct reader_fstream	*s;
	struct proto_frame	 h;
	const struct proto_frame *e;
	unsigned		 k, lo, hi, mid, nrun = 0;
	size_t			 total = 0;

	for (k = 0; k < f->nlive; k++) {
		s = &f->st[f->live[k]];
		if (s->i == s->ready && !reader_fast_refill(m, f, s))
			f->live[k--] = f->live[--f->nlive];
		if (f->all)
			return 0;
	}
	if (f->nlive == 0)
		return 0;
	s = &f->st[f->live[0]];
	h = reader_frames(s)[s->ready - 1];
	for (k = 1; k < f->nlive; k++) {
		s = &f->st[f->live[k]];
		e = &reader_frames(s)[s->ready - 1];
		if (reader_fbefore(e, &h))
			h = *e;
	}
	for (k = 0; k < f->nlive; k++) {
		s = &f->st[f->live[k]];
		/* Its first ready event after h, by bisection. */
		lo = s->i;
		hi = s->ready;
		while (lo < hi) {
			mid = lo + (hi - lo) / 2;
			if (reader_fbefore(&h, &reader_frames(s)[mid]))
				hi = mid;
			else
				lo = mid + 1;
		}
		if (lo > s->i) {
			f->run[nrun].p = &reader_frames(s)[s->i];
			f->run[nrun++].n = lo - s->i;
			total += lo - s->i;
			s->i = lo;
		}
	}
	f->cur = reader_merge(f, nrun);
	f->ncur = total;
	f->icur = 0;
	return 1;
}

/* Up to n next events of the single pass into ev[], decoded in place. */
static size_t
reader_fast_next(struct reader *m, struct reader_fast *f, struct proto_ev *ev,
    size_t n)
{
	const struct proto_frame *e;
	char			 msg[160];
	size_t			 k = 0, c, d, j;

	while (k < n && !f->all) {
		if (f->icur == f->ncur && !reader_fast_round(m, f))
			break;
		e = f->cur + f->icur;
		c = f->ncur - f->icur < n - k ? f->ncur - f->icur : n - k;
		d = proto_dec_frames(m->types, f->map, e, c, ev + k);
		for (j = k; m->bias != 0 && j < k + d; j++)
			ev[j].off += m->bias;
		f->icur += d;
		k += d;
		if (d < c) {
			snprintf(msg, sizeof msg, "byte %llu: %s",
			    (unsigned long long)e[d].off,
			    proto_dec_frame_why(m->types, f->map, e + d));
			reader_fail(m, msg);
			f->all = 1;
		}
	}
	if (reader_guard_shrunk(f)) {
		/* Some bytes read were the zeros mapped for them. */
		m->error[0] = '\0';
		reader_fail(m, "the file shrank while read");
		f->all = 1;
		return 0;
	}
	return k;
}

/*
 * The single pass from the first event at or after (time, off): each
 * stream from its first segment with an event that late.
 */
static void
reader_fast_seek(struct reader_fast *f, uint64_t time, uint64_t off)
{
	struct reader_fstream	*s;
	uint32_t		 g;
	unsigned		 i;

	f->nlive = 0;
	for (i = 0; i < f->nst; i++) {
		s = &f->st[i];
		for (g = s->first; g != READER_NONE && f->segs[g].pmax < time;
		    g = f->segs[g].next)
			;
		s->seg = g;
		s->pos = s->end = 0;
		if (g != READER_NONE) {
			s->pos = f->segs[g].off;
			s->end = f->segs[g].end;
		}
		s->drop = s->mark = s->pos;
		s->i = s->n = s->ready = 0;
		s->xi = 0;
		f->live[f->nlive++] = i;	/* refilled by the first round */
	}
	f->ncur = f->icur = 0;
	f->from_time = time;
	f->from_off = off;
}

/* Try the single pass: 1 it is set up, 0 it does not apply, -1 error. */
static int
reader_fast_open(struct reader *m)
{
	struct reader_fast	*f;
	int			 rc;

	if ((f = calloc(1, sizeof *f)) == NULL)
		return -1;
	if ((rc = reader_fast_scan(m, f)) != 1) {
		reader_fast_free(f, m->size);
		return rc;
	}
	reader_fast_seek(f, 0, 0);
	m->fast = f;
#ifdef READER_DEBUG
	fprintf(stderr, "reader: single pass, %u streams\n", f->nst);
#endif
	return 1;
}


static struct reader *reader_open_as(const char *, int, uint64_t, uint64_t,
		    char **);

struct reader *
reader_open(const char *path, char **cause)
{
	return reader_open_as(path, 0, UINT64_MAX, 0, cause);
}

/*
 * A file of evtop's own that nothing else writes or cuts (a live source's
 * history): mapped whatever other file is, as no SIGBUS can come of it.
 * Only its first size bytes are read (it may grow meanwhile), and the
 * offsets it tells, of events and to reader_seek(), are bias more than
 * the file's (where its events are in the stream it holds a part of).
 */
struct reader *
reader_open_own(const char *path, uint64_t size, uint64_t bias, char **cause)
{
	return reader_open_as(path, 1, size, bias, cause);
}

static struct reader *
reader_open_as(const char *path, int own, uint64_t size, uint64_t bias,
    char **cause)
{
	struct reader	 *m;
	struct stat	  st;
	struct reader_src *v;
	size_t		  n;

	if ((m = calloc(1, sizeof *m)) == NULL)
		goto fail;
	m->own = own;
	m->bias = bias;
	m->out.pending = -1;
	if ((m->fd = reader_open_fd(path)) == -1) {
		free(m);
		m = NULL;
		goto fail;
	}
	if ((m->rbuf = malloc(READER_READ)) == NULL)
		goto fail;
	if (fstat(m->fd, &st) == 0)
		m->size = (uint64_t)st.st_size < size ? (uint64_t)st.st_size :
		    size;
	if ((m->dec = proto_dec_new(0)) != NULL)
		proto_dec_frame_only(m->dec);
	reader_forget_runs(m);
	if (m->dec == NULL)
		goto fail;
	if (READER_SINGLE) {
		switch (reader_fast_open(m)) {
		case 1:
			/* Framed: what read the header goes. */
			free(m->rbuf);
			m->rbuf = NULL;
			proto_dec_free(m->dec);
			m->dec = NULL;
			return m;
		case -1:
			goto fail;
		}
		/* Not for the single pass: start again. */
#ifdef READER_DEBUG
		fprintf(stderr, "reader: two passes\n");
#endif
		proto_dec_free(m->types);
		m->types = NULL;
		proto_dec_reset(m->dec);
		m->events = 0;
	}
	/* The two passes' index (megabytes: only when they are used). */
	m->runs = calloc(READER_FAN, sizeof *m->runs);
	m->segs = calloc(READER_SEGS, sizeof *m->segs);
	if (m->runs == NULL || m->segs == NULL)
		goto fail;
	if (reader_index(m) == -1)
		goto fail;
	if (m->types == NULL)
		return m;	/* nothing to merge; reader_error() says why */
	if (m->nspills > 0 && reader_flush_runs(m) == -1)
		goto fail;
	if (m->nspills > 0) {
		n = m->nspills;
		v = reader_spill_srcs(m, n);
	} else {
		n = m->nruns;
		v = reader_run_srcs(m);
	}
	if (v == NULL || reader_heap_init(m, &m->out, v, n) == -1)
		goto fail;
	return m;

fail:
	if (asprintf(cause, "%s: %s", path, m != NULL && m->io_error ?
	    m->error : strerror(errno ? errno : ENOMEM)) == -1)
		*cause = NULL;
	reader_free(m);
	return NULL;
}

void
reader_free(struct reader *m)
{
	size_t	i;

	if (m == NULL)
		return;
	reader_fast_free(m->fast, m->size);
	reader_heap_free(&m->out);
	for (i = 0; i < m->nspills; i++)
		fclose(m->spills[i].f);
	free(m->spills);
	free(m->runs);
	free(m->segs);
	proto_dec_free(m->types);
	proto_dec_free(m->dec);
	if (m->fd != -1)
		close(m->fd);
	free(m->rbuf);
	free(m);
}

/*
 * Up to n next events into ev[]: fewer at times, 0 at the end.  Their
 * borrowed pointers last until the next call, or, when reader_lasting()
 * says so, until reader_free().
 */
size_t
reader_next_n(struct reader *m, struct proto_ev *ev, size_t n)
{
	size_t	k;

	if (n == 0)
		return 0;
	if (m->fast != NULL)
		k = reader_fast_next(m, m->fast, ev, n);
	else if ((k = m->out.v != NULL && reader_heap_pop(m, &m->out, ev)))
		ev->off += m->bias;
	if (k > 0) {
		atomic_fetch_add_explicit(&m->done, k, memory_order_relaxed);
		m->last_time = ev[k - 1].time;
		m->last_off = ev[k - 1].off - m->bias;
		m->given = 1;
	}
	return k;
}

enum proto_res
reader_next(struct reader *m, struct proto_ev *ev)
{
	return reader_next_n(m, ev, 1) == 1 ? PROTO_EVENT : PROTO_AGAIN;
}

/* The two passes from the start again: every source rewound. */
static void
reader_rewind(struct reader *m)
{
	struct reader_heap	*h = &m->out;
	struct reader_src	*s;
	size_t			 i;

	for (i = 0; i < h->n; i++) {
		s = &h->v[i];
		if (s->spill != NULL) {
			rewind(s->spill);
			continue;
		}
		/* Without spills, source i reads run i. */
		s->seg = &m->segs[m->runs[i].first];
		s->count = s->seg->count;
		s->pos = s->seg->off;
		s->look.head = s->look.n = 0;
		proto_dec_seek(s->dec, s->seg->off, s->seg->cap,
		    s->seg->left);
	}
	h->nh = 0;
	h->pending = -1;
	for (i = 0; i < h->n; i++)
		if (reader_src_next(m, &h->v[i]))
			h->heap[h->nh++] = i;
	for (i = h->nh; i-- > 0;)
		reader_sift(h->v, h->heap, h->nh, i);
}

/*
 * Go on from the first event at or after (time, off) in the order: with
 * (0, 0), from the start; with reader_tell()'s, from where that was said.
 * The single pass starts filing at the chunk the scan marked for that time
 * (a lag of chunks is read again, about the cost of the events between);
 * the two passes read from the start and pass over what is before.  0, or
 * -1 after an error (reader_error() says).
 */
int
reader_seek(struct reader *m, uint64_t time, uint64_t off)
{
	struct reader_heap	*h = &m->out;
	struct reader_src	*s;
	struct proto_ev		 ev;

	if (m->io_error)
		return -1;
	m->given = 0;
	off = off > m->bias ? off - m->bias : 0;
	if (m->fast != NULL && m->fast->rested) {
		/* What reader_rest() let go, again. */
		if (reader_fast_tables(m, m->fast) == -1 ||
		    reader_fast_bufs(m->fast) == -1) {
			reader_fail(m, strerror(ENOMEM));
			return -1;
		}
		m->fast->rested = 0;
	}
	if (m->fast != NULL) {
		reader_fast_seek(m->fast, time, off);
		return 0;
	}
	if (h->v == NULL)
		return 0;
	reader_rewind(m);
	for (;;) {
		if (h->pending >= 0) {
			if (!reader_src_next(m, &h->v[h->pending]))
				h->heap[0] = h->heap[--h->nh];
			reader_sift(h->v, h->heap, h->nh, 0);
			h->pending = -1;
		}
		if (h->nh == 0)
			break;
		s = &h->v[h->heap[0]];
		if (s->time > time || (s->time == time && s->off >= off))
			break;
		if (!reader_heap_pop(m, h, &ev))
			break;
	}
	return m->io_error ? -1 : 0;
}

/*
 * A reader read to its end that may be read again (a live source's
 * history, at the next correction) keeps only what its scan found: its
 * tables, its buffers and the pages it read go, and reader_seek() takes
 * them again without a new scan.  Nothing more comes until then.  (The
 * two passes keep all: their index is the file's.)
 */
void
reader_rest(struct reader *m)
{
	struct reader_fast	*f = m->fast;

	if (f == NULL || f->rested)
		return;
	reader_fast_unbufs(f);
	free(f->tabs);
	f->tabs = f->tsize = NULL;
	f->fixed = NULL;
	reader_drop(f->map, 0, m->size + (uint64_t)sysconf(_SC_PAGESIZE) - 1);
	f->rested = 1;
}

/* Where to seek to go on after the events given so far. */
void
reader_tell(const struct reader *m, uint64_t *time, uint64_t *off)
{
	*time = m->given ? m->last_time : 0;
	*off = m->given ? m->last_off + 1 + m->bias : 0;
}

/* Whether the events' borrowed pointers last until reader_free(). */
int
reader_lasting(const struct reader *m)
{
	return m->fast != NULL;
}

/* Whether the file shrank under the mapping (so zeros were read). */
int
reader_shrank(const struct reader *m)
{
	return m->fast != NULL && reader_guard_shrunk(m->fast);
}

/* The header's types, for printing unknown events and the type list. */
const struct proto_dec *
reader_dec(const struct reader *m)
{
	return m->types;
}

/* Why the file's events end early, or NULL.  (A shrink seen by a reader
 * of the events, feed.c's caller, before the reader thread said it.) */
const char *
reader_error(const struct reader *m)
{
	if (m->error[0] != '\0')
		return m->error;
	return reader_shrank(m) ? "the file shrank while read" : NULL;
}

uint64_t
reader_events(const struct reader *m)
{
	return m->events;
}

uint64_t
reader_done(const struct reader *m)
{
	return atomic_load_explicit(&m->done, memory_order_relaxed);
}

uint64_t
reader_size(const struct reader *m)
{
	return m->size;
}
