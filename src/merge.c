/*
 * merge.c: the events of an eventlog file in the reference decoder's order,
 * a stable sort by time, in bounded memory.
 *
 * Each capability writes its events in blocks, and its blocks follow each
 * other in time, so the events of one capability (and those outside any
 * block) form long runs in nearly sorted order even though the blocks of
 * different capabilities interleave in the file.  Nearly: GHC stamps some
 * events (GC_END) with a time taken a little before the events written just
 * ahead of them.  So a run is read through a lookahead of MERGE_LOOK events,
 * which sorts such local disorder away.
 *
 * merge_open() decodes the file once and files each event under its
 * capability's current run, simulating that lookahead; when an event would
 * come out of it too late, a new run starts.  A run is a list of segments,
 * contiguous byte ranges with the decoder's block state at their start.
 * merge_next() merges the runs with one small cursor (a decoder sharing the
 * header's types) per run, by time and then file offset: the stable order.
 * Past MERGE_FAN runs or MERGE_SEGS segments, the runs so far are merged into
 * a temporary file of raw event records, and those files again, so memory
 * stays bounded whatever the file holds.
 *
 * Most files need none of that: their events are out of order only within
 * a short distance.  merge_open() first scans a clean file (one header,
 * events, maybe the end marker at its very end) cheaply, and measures that
 * distance: in chunks of MERGE_CHUNK bytes, the least lag D such that no
 * event is older than the newest event of the chunks D or more before its
 * own.  When D stays within MERGE_HOLD bytes, merge_next() reads the file
 * once: each event is filed, by time, under its capability's stream, and
 * before chunk k is read the held events up to the newest time of the
 * chunks up to k - D are let out, merging the streams.  No event read later
 * can be older than those, so this is the same stable order.  Otherwise, or
 * for anything unusual (bad data, a second header, a cut last event), the
 * two passes above run.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evtop.h"

#ifndef MERGE_FAN
#define MERGE_FAN	256		/* sources merged at once */
#endif
#ifndef MERGE_SEGS
#define MERGE_SEGS	(1 << 19)	/* segments indexed at once */
#endif
#ifndef MERGE_LOOK
#define MERGE_LOOK	32		/* a run's lookahead, in events: a power of 2 */
#endif
#ifndef MERGE_HOLD
#define MERGE_HOLD	(8 << 20)	/* bytes the single pass may hold back */
#endif
#ifndef MERGE_CHUNK
#define MERGE_CHUNK	(64 << 10)	/* its unit of file distance */
#endif
#define MERGE_SCAN	(2 << 20)	/* bytes read at once, at least */
#define MERGE_KEYS	258		/* caps 0..255, none, the rest */
#define MERGE_READ	(1 << 16)
#define MERGE_MAX_EVENT	(12 + 65535)	/* the largest event there is */
#define MERGE_NONE	UINT32_MAX

/* Contiguous events of one run, and the decoder's block state before. */
struct merge_seg {
	uint64_t	 off, end;
	int64_t		 left;
	uint32_t	 count;
	int32_t		 cap;
	uint32_t	 next;		/* the run's next segment, or NONE */
};

/* An event waiting in a lookahead: enough to order it and find it again. */
struct merge_ent {
	uint64_t	 time, off;
	uint32_t	 size;
	int32_t		 cap;
};

/*
 * A lookahead: entries kept sorted by (time, offset) in a ring.  Events
 * arrive nearly sorted, so an insertion is nearly always an append.
 */
struct merge_look {
	struct merge_ent e[MERGE_LOOK];
	unsigned	 head, n;
};

struct merge_run {
	uint32_t	 first, last;	/* segments */
	uint64_t	 out;		/* time of the last event out */
	struct merge_look look;		/* pass 1: its cursor, simulated */
};

/* One sorted input: a run of the file, or a spill file of records. */
struct merge_src {
	uint64_t	 time, off;	/* of the event it offers next */
	/* Runs. */
	const struct merge_seg *seg;	/* the segment being read */
	uint32_t	 count;		/* its events not yet read */
	struct proto_dec *dec;
	uint64_t	 pos;		/* next file offset to read */
	struct merge_look look;
	/* Spills. */
	FILE		*spill;
	uint32_t	 rec_size;
	int32_t		 rec_cap;
};

/* A merge in progress over n sources. */
struct merge_heap {
	struct merge_src *v;
	size_t		  n, nh;
	size_t		 *heap;
	long		  pending;	/* source to advance first, or -1 */
	uint8_t		 *rec;		/* an event's bytes, when copied */
};

struct merge_spill {
	FILE		*f;
	unsigned	 level;
};

struct merge_fast;

struct merge {
	int		 fd;
	struct merge_fast *fast;	/* the single pass, if it is used */
	struct proto_dec *dec;		/* pass 1 */
	struct proto_dec *types;	/* the first header's types */
	uint64_t	 size;
	uint8_t		 rbuf[MERGE_READ];

	struct merge_run *runs;
	size_t		 nruns;
	struct merge_seg *segs;
	size_t		 nsegs;
	long		 key_run[MERGE_KEYS];	/* current run of each key */
	int		 last_key;		/* key of the previous event */

	struct merge_spill *spills;
	size_t		 nspills, spills_size;

	struct merge_heap out;		/* the final merge */
	uint64_t	 events, done;
	char		 error[256];
	int		 io_error;
};

static int	merge_flush_runs(struct merge *);

static int
merge_read_at(int fd, void *buf, size_t len, uint64_t off, size_t *got)
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
merge_fail(struct merge *m, const char *why)
{
	if (m->error[0] == '\0')
		snprintf(m->error, sizeof m->error, "%s", why);
	m->io_error = 1;
}

static int
merge_ent_before(const struct merge_ent *a, const struct merge_ent *b)
{
	if (a->time != b->time)
		return a->time < b->time;
	return a->off < b->off;
}

static void
merge_look_push(struct merge_look *l, const struct merge_ent *e)
{
	unsigned	i = l->n++, at, prev;

	/* Shift later entries up one place, from the tail. */
	for (; i > 0; i--) {
		prev = (l->head + i - 1) % MERGE_LOOK;
		if (!merge_ent_before(e, &l->e[prev]))
			break;
		l->e[(l->head + i) % MERGE_LOOK] = l->e[prev];
	}
	at = (l->head + i) % MERGE_LOOK;
	l->e[at] = *e;
}

static struct merge_ent
merge_look_pop(struct merge_look *l)
{
	struct merge_ent	top = l->e[l->head];

	l->head = (l->head + 1) % MERGE_LOOK;
	l->n--;
	return top;
}

/* Decode the run's next event in file order into its lookahead. */
static int
merge_src_read(struct merge *m, struct merge_src *s)
{
	struct proto_ev		ev;
	struct merge_ent	e;
	enum proto_res		r;
	size_t			got, room;

	while (s->count == 0) {
		if (s->seg == NULL || s->seg->next == MERGE_NONE)
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
			merge_fail(m, proto_dec_error(s->dec));
			return 0;
		}
		/* Read no further than the segment. */
		room = proto_dec_room(s->dec);
		if (room > sizeof m->rbuf)
			room = sizeof m->rbuf;
		if (room > s->seg->end - s->pos)
			room = (size_t)(s->seg->end - s->pos);
		if (room == 0 || merge_read_at(m->fd, m->rbuf, room, s->pos,
		    &got) == -1 || got == 0) {
			merge_fail(m, "the file changed while reading");
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
	merge_look_push(&s->look, &e);
	return 1;
}

/* Fill a run's lookahead and offer its least event; 0 when it is done. */
static int
merge_src_next_run(struct merge *m, struct merge_src *s)
{
	while (s->look.n < MERGE_LOOK && merge_src_read(m, s))
		;
	if (s->look.n == 0)
		return 0;
	s->time = s->look.e[s->look.head].time;
	s->off = s->look.e[s->look.head].off;
	return 1;
}

static int
merge_src_next_spill(struct merge *m, struct merge_src *s)
{
	uint64_t	time, off;
	uint32_t	size;
	int32_t		cap;

	if (fread(&time, sizeof time, 1, s->spill) != 1)
		return 0;
	if (fread(&size, sizeof size, 1, s->spill) != 1 ||
	    fread(&cap, sizeof cap, 1, s->spill) != 1 ||
	    fread(&off, sizeof off, 1, s->spill) != 1 ||
	    size > MERGE_MAX_EVENT) {
		merge_fail(m, "a temporary file is damaged");
		return 0;
	}
	s->time = time;
	s->off = off;
	s->rec_size = size;
	s->rec_cap = cap;
	return 1;
}

static int
merge_src_next(struct merge *m, struct merge_src *s)
{
	return s->spill != NULL ? merge_src_next_spill(m, s) :
	    merge_src_next_run(m, s);
}

/* Time, then file offset: a stable sort of the file by time. */
static int
merge_before(const struct merge_src *v, size_t a, size_t b)
{
	if (v[a].time != v[b].time)
		return v[a].time < v[b].time;
	return v[a].off < v[b].off;
}

static void
merge_sift(const struct merge_src *v, size_t *h, size_t n, size_t i)
{
	size_t	c, t;

	for (;;) {
		c = 2 * i + 1;
		if (c >= n)
			return;
		if (c + 1 < n && merge_before(v, h[c + 1], h[c]))
			c++;
		if (!merge_before(v, h[c], h[i]))
			return;
		t = h[i];
		h[i] = h[c];
		h[c] = t;
		i = c;
	}
}

static void
merge_heap_free(struct merge_heap *h)
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
merge_heap_init(struct merge *m, struct merge_heap *h, struct merge_src *v,
    size_t n)
{
	size_t	i;

	h->v = v;
	h->n = n;
	h->nh = 0;
	h->pending = -1;
	h->heap = calloc(n ? n : 1, sizeof *h->heap);
	h->rec = malloc(MERGE_MAX_EVENT);
	if (h->heap == NULL || h->rec == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		if (merge_src_next(m, &v[i]))
			h->heap[h->nh++] = i;
	}
	for (i = h->nh; i-- > 0;)
		merge_sift(v, h->heap, h->nh, i);
	return 0;
}

/* The least event of a run, decoded from wherever its bytes are now. */
static int
merge_take_run(struct merge *m, struct merge_heap *h, struct merge_src *s,
    struct proto_ev *ev)
{
	struct merge_ent	 e = merge_look_pop(&s->look);
	const uint8_t		*p;
	size_t			 got;

	if ((p = proto_dec_peek(s->dec, e.off, e.size)) == NULL) {
		/* The cursor has read on since: read the event again. */
		if (merge_read_at(m->fd, h->rec, e.size, e.off, &got) == -1 ||
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
merge_heap_pop(struct merge *m, struct merge_heap *h, struct proto_ev *ev)
{
	struct merge_src	*s;
	int			 rc;

	if (h->pending >= 0) {
		if (!merge_src_next(m, &h->v[h->pending]))
			h->heap[0] = h->heap[--h->nh];
		merge_sift(h->v, h->heap, h->nh, 0);
		h->pending = -1;
	}
	if (h->nh == 0)
		return 0;
	s = &h->v[h->heap[0]];
	h->pending = (long)h->heap[0];
	if (s->spill == NULL)
		rc = merge_take_run(m, h, s, ev);
	else if (fread(h->rec, 1, s->rec_size, s->spill) != s->rec_size ||
	    proto_dec_one(m->types, h->rec, s->rec_size, s->rec_cap, ev) !=
	    PROTO_EVENT)
		rc = -1;
	else {
		ev->off = s->off;
		rc = 0;
	}
	if (rc == -1) {
		merge_fail(m, "an event could not be read again");
		h->nh = 0;
		return 0;
	}
	return 1;
}

/* Sources for the pending runs of the file. */
static struct merge_src *
merge_run_srcs(struct merge *m)
{
	struct merge_src	*v;
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
static struct merge_src *
merge_spill_srcs(struct merge *m, size_t n)
{
	struct merge_src	*v;
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
merge_push_spill(struct merge *m, FILE *f, unsigned level)
{
	struct merge_spill	*n;

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
merge_to_spill(struct merge *m, struct merge_src *v, size_t n,
    unsigned level)
{
	struct merge_heap	 h;
	struct proto_ev		 ev;
	FILE			*f;
	uint32_t		 size;
	int			 rc = 0;

	memset(&h, 0, sizeof h);
	if ((f = tmpfile()) == NULL) {
		free(v);
		return -1;
	}
	if (merge_heap_init(m, &h, v, n) == -1)
		rc = -1;
	while (rc == 0 && merge_heap_pop(m, &h, &ev)) {
		size = ev.size;
		fwrite(&ev.time, sizeof ev.time, 1, f);
		fwrite(&size, sizeof size, 1, f);
		fwrite(&ev.cap, sizeof ev.cap, 1, f);
		fwrite(&ev.off, sizeof ev.off, 1, f);
		/* The event's bytes lie just before its payload. */
		fwrite(ev.payload - (ev.size - ev.len), 1, ev.size, f);
	}
	merge_heap_free(&h);
	if (rc == -1 || fflush(f) != 0 || ferror(f) || m->io_error ||
	    merge_push_spill(m, f, level) == -1) {
		fclose(f);
		return -1;
	}
	return 0;
}

/* Merge the top MERGE_FAN spills while they share a level. */
static int
merge_compact(struct merge *m)
{
	struct merge_src	*v;
	unsigned		 level;
	size_t			 i;

	while (m->nspills >= MERGE_FAN) {
		level = m->spills[m->nspills - 1].level;
		for (i = m->nspills - MERGE_FAN; i < m->nspills; i++) {
			if (m->spills[i].level != level)
				return 0;
		}
		if ((v = merge_spill_srcs(m, MERGE_FAN)) == NULL ||
		    merge_to_spill(m, v, MERGE_FAN, level + 1) == -1)
			return -1;
	}
	return 0;
}

static void
merge_forget_runs(struct merge *m)
{
	size_t	i;

	m->nruns = 0;
	m->nsegs = 0;
	m->last_key = -1;
	for (i = 0; i < MERGE_KEYS; i++)
		m->key_run[i] = -1;
}

static int
merge_flush_runs(struct merge *m)
{
	struct merge_src	*v;
	size_t			 n = m->nruns;

	if (n == 0)
		return 0;
	if ((v = merge_run_srcs(m)) == NULL)
		return -1;
	if (merge_to_spill(m, v, n, 0) == -1)
		return -1;
	merge_forget_runs(m);
	return merge_compact(m);
}

static int
merge_key(int32_t cap)
{
	if (cap == PROTO_NO_CAP)
		return MERGE_KEYS - 2;
	return cap < MERGE_KEYS - 2 ? cap : MERGE_KEYS - 1;
}

/*
 * Whether a run's cursor would give this event out in order.  The cursor
 * fills its lookahead to MERGE_LOOK events, then lets the least out before
 * it reads the next: so here, a full lookahead lets one out first, and the
 * new event must not be earlier than it.
 */
static int
merge_run_takes(struct merge_run *r, const struct merge_ent *e)
{
	struct merge_ent	out;

	if (r->look.n == MERGE_LOOK) {
		out = merge_look_pop(&r->look);
		r->out = out.time;
	}
	if (e->time < r->out)
		return 0;
	merge_look_push(&r->look, e);
	return 1;
}

/* File one event of pass 1 under its key's run and segment. */
static int
merge_add(struct merge *m, const struct proto_ev *ev, int32_t cap,
    int64_t left)
{
	struct merge_run	*run;
	struct merge_seg	*seg;
	struct merge_ent	 e = { ev->time, ev->off, ev->size, ev->cap };
	int			 key = merge_key(ev->cap);
	long			 r = m->key_run[key];

	if (r >= 0 && !merge_run_takes(&m->runs[r], &e))
		r = -1;
	if (r < 0 || key != m->last_key || m->segs[m->runs[r].last].end !=
	    ev->off) {
		if (m->nsegs == MERGE_SEGS || (r < 0 &&
		    m->nruns == MERGE_FAN)) {
			if (merge_flush_runs(m) == -1)
				return -1;
			r = -1;
		}
		if (r < 0) {
			r = (long)m->nruns++;
			memset(&m->runs[r], 0, sizeof m->runs[r]);
			m->runs[r].first = (uint32_t)m->nsegs;
			m->key_run[key] = r;
			merge_run_takes(&m->runs[r], &e);
		} else
			m->segs[m->runs[r].last].next = (uint32_t)m->nsegs;
		seg = &m->segs[m->nsegs];
		seg->off = ev->off;
		seg->end = ev->off;
		seg->cap = cap;
		seg->left = left;
		seg->count = 0;
		seg->next = MERGE_NONE;
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
merge_index(struct merge *m)
{
	struct proto_ev	 ev;
	enum proto_res	 r;
	uint64_t	 pos = 0;
	int32_t		 cap;
	int64_t		 left;
	size_t		 got, used;

	for (;;) {
		if (merge_read_at(m->fd, m->rbuf, sizeof m->rbuf, pos,
		    &got) == -1)
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
				if (merge_add(m, &ev, cap, left) == -1)
					return -1;
				m->events++;
			}
		}
	}
	if (m->types == NULL)
		snprintf(m->error, sizeof m->error, "no eventlog header found");
	else if (proto_dec_pending(m->dec) > 0)
		snprintf(m->error, sizeof m->error, "truncated: the event at "
		    "byte %" PRIu64 " is incomplete (%" PRIu64 " bytes)",
		    proto_dec_offset(m->dec), proto_dec_pending(m->dec));
	return 0;
}

/* A pipe cannot be read twice: spool it to an unlinked temporary file. */
static int
merge_spool(int in)
{
	char	 buf[MERGE_READ];
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
merge_open_fd(const char *path)
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
		spooled = merge_spool(fd);
		close(fd);
		return spooled;
	}
	return fd;
}

/* ------------------------------------------------------------------ */
/* The single pass. */

/* A held event: its time, the low 32 bits of its offset, its size. */
struct merge_hent {
	uint64_t	 time;
	uint32_t	 off;
	uint32_t	 size;
};

/* The held events of one capability, sorted: v[head..n). */
struct merge_stream {
	struct merge_hent *v;
	uint32_t	 head, n, size;
	int32_t		 cap;
	int32_t		 hpos;		/* place in the heap, or -1 */
};

/* A stream in the heap, with its head's key at hand. */
struct merge_hkey {
	uint64_t	 time, off;
	uint32_t	 st;
};

#define MERGE_NSTREAMS	65536		/* by a block's u16 cap field */
#define MERGE_SHRINK	256		/* an empty stream keeps this many */
#define MERGE_OUT	4096		/* events let out at once */

struct merge_fast {
	/* The header's framing, copied: size + 2 by tag (0: undeclared,
	 * 1: variable), as proto.h's PROTO_SIZE_* plus 2. */
	int32_t		 tsize[PROTO_NTAGS];
	int		 marker;	/* block markers have their fields */
	uint64_t	 data, end;	/* the events' bytes */
	uint32_t	 lag;		/* D, in chunks */

	/* The file's bytes from offset lo are at buf[0]; read up to hi. */
	uint8_t		*buf;
	size_t		 bufsize;
	uint64_t	 lo, hi;
	uint64_t	 pos;		/* next event to file */
	int32_t		 block_cap;
	int64_t		 block_left;

	/* Newest time of the chunks up to each of the last lag + 1. */
	uint64_t	*pmax;
	uint64_t	 chunk;		/* next chunk to read */
	uint64_t	 upto;		/* newest time read so far */
	uint64_t	 thresh;	/* events up to this time may go */
	int		 all;		/* everything is read: all may go */

	uint16_t	 stream_of[MERGE_NSTREAMS];	/* index + 1 */
	struct merge_stream *st;
	uint32_t	 nst;
	struct merge_hkey *heap;	/* streams by head */
	uint32_t	 nheap;

	/* Events let out, in order, not yet delivered: out[pos..n). */
	struct merge_out {
		uint64_t	 off;
		uint32_t	 size;
		int32_t		 cap;
	}		 out[MERGE_OUT];
	uint32_t	 out_pos, out_n;
};

static inline uint16_t
merge_be16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint64_t
merge_be64(const uint8_t *p)
{
	uint64_t	v;

	memcpy(&v, p, 8);
	return __builtin_bswap64(v);
}

static void
merge_fast_free(struct merge_fast *f)
{
	uint32_t	i;

	if (f == NULL)
		return;
	for (i = 0; i < f->nst; i++)
		free(f->st[i].v);
	free(f->st);
	free(f->heap);
	free(f->pmax);
	free(f->buf);
	free(f);
}

/*
 * Have the bytes [at, at + want) in the buffer, or as many as the file has
 * (fewer only at its end); bytes before keep stay.  -1 on a read error.
 */
static int
merge_fast_fill(struct merge *m, struct merge_fast *f, uint64_t keep,
    uint64_t at, size_t want)
{
	size_t	got, room;

	if (at + want <= f->hi || f->hi >= m->size)
		return 0;
	if (at + want > f->lo + f->bufsize) {
		/* Move what is kept to the front. */
		memmove(f->buf, f->buf + (keep - f->lo), (size_t)(f->hi - keep));
		f->lo = keep;
	}
	while (f->hi < at + want && f->hi < m->size) {
		room = f->bufsize - (size_t)(f->hi - f->lo);
		if (room > m->size - f->hi)
			room = (size_t)(m->size - f->hi);
		if (merge_read_at(m->fd, f->buf + (f->hi - f->lo), room, f->hi,
		    &got) == -1)
			return -1;
		if (got == 0)
			break;
		f->hi += got;
	}
	return 0;
}

/*
 * Whether the file suits the single pass, and with what lag: 1 yes, 0 no,
 * -1 on a system error.  Reads the header with m->dec.
 */
static int
merge_fast_scan(struct merge *m, struct merge_fast *f)
{
	struct proto_ev	 ev;
	enum proto_res	 r;
	const uint8_t	*p, *base;
	uint64_t	 pos, chunk = 0, prefix = 0, floor, t, cend, avail;
	uint64_t	 n = 0, ring[MERGE_HOLD / MERGE_CHUNK + 1];
	uint32_t	 lag = 1, nring = MERGE_HOLD / MERGE_CHUNK + 1;
	size_t		 total, got, used;
	int32_t		 size;
	uint16_t	 tag;

	/* The header: the file must start with it. */
	r = PROTO_AGAIN;
	for (pos = 0; r != PROTO_HEADER;) {
		if ((r = proto_dec_next(m->dec, &ev)) == PROTO_HEADER)
			break;
		if (r != PROTO_AGAIN)
			return 0;
		if (merge_read_at(m->fd, m->rbuf, sizeof m->rbuf, pos,
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
	memcpy(f->tsize, proto_dec_sizes(m->dec), sizeof f->tsize);
	f->marker = proto_dec_type_size(m->dec, PROTO_BLOCK_MARKER) >= 14;
	f->data = f->lo = f->hi = proto_dec_offset(m->dec);
	f->end = m->size;

	/*
	 * The events, a chunk at a time.  ring[j % nring] is the newest time
	 * of chunks 0..j; floor, that of chunks 0..chunk-lag, which no event
	 * of this chunk may precede.
	 */
	for (pos = f->data; pos < m->size; chunk++) {
		cend = f->data + (chunk + 1) * MERGE_CHUNK;
		if (cend > m->size)
			cend = m->size;
		if (merge_fast_fill(m, f, pos, pos, (size_t)(cend - pos) +
		    12 + 65535) == -1)
			return -1;
		floor = chunk >= lag ? ring[(chunk - lag) % nring] : 0;
		base = f->buf - f->lo;
		for (; pos < cend; pos += total) {
			p = base + pos;
			avail = f->hi - pos;
			if (avail < 2)
				return 0;
			tag = merge_be16(p);
			if ((size = f->tsize[tag]) >= 2)
				total = 8 + (size_t)size;
			else if (size == 1 && avail >= 12)
				total = 12 + (size_t)merge_be16(p + 10);
			else if (size == PROTO_SIZES_IPE &&
			    proto_frame_len(f->tsize, p, avail) > 0)
				total = (size_t)proto_frame_len(f->tsize, p,
				    avail);
			else if (tag == 0xffff && avail == 2) {
				f->end = pos;	/* the end marker */
				pos = m->size;
				break;
			} else
				return 0;	/* undeclared, or cut */
			if (avail < total || tag == 0xffff)
				return 0;	/* cut, or a marker too soon */
			if (size < 2 && proto_dec_one(m->types, p, total,
			    PROTO_NO_CAP, &ev) != PROTO_EVENT)
				return 0;	/* malformed */
			t = merge_be64(p + 2);
			while (t < floor) {
				/* The lag must grow for this event. */
				if (++lag >= nring)
					return 0;
				floor = chunk >= lag ?
				    ring[(chunk - lag) % nring] : 0;
			}
			if (t > prefix)
				prefix = t;
			n++;
		}
		ring[chunk % nring] = prefix;
	}
	m->events = n;
	f->lag = lag;
	return 1;
}

static struct merge_stream *
merge_fast_stream(struct merge_fast *f, uint16_t capfield)
{
	struct merge_stream	*s, *n;
	uint32_t		 size;

	if (f->stream_of[capfield] != 0)
		return &f->st[f->stream_of[capfield] - 1];
	if ((f->nst & (f->nst - 1)) == 0) {
		size = f->nst ? 2 * f->nst : 4;
		if ((n = realloc(f->st, size * sizeof *n)) == NULL)
			return NULL;
		f->st = n;
		if ((f->heap = realloc(f->heap, size * sizeof *f->heap)) ==
		    NULL)
			return NULL;
	}
	s = &f->st[f->nst++];
	memset(s, 0, sizeof *s);
	s->cap = capfield == 0xffff ? PROTO_NO_CAP : capfield;
	s->hpos = -1;
	f->stream_of[capfield] = (uint16_t)f->nst;
	return s;
}

/* Held offsets are the last 4 GiB before f->hi: their low bits say which. */
static inline uint64_t
merge_fast_off(const struct merge_fast *f, uint32_t off)
{
	return f->hi - (uint32_t)((uint32_t)f->hi - off);
}

static inline int
merge_hkey_before(const struct merge_hkey *a, const struct merge_hkey *b)
{
	if (a->time != b->time)
		return a->time < b->time;
	return a->off < b->off;
}

static inline void
merge_heap_set(struct merge_fast *f, uint32_t i, const struct merge_hkey *k)
{
	f->heap[i] = *k;
	f->st[k->st].hpos = (int32_t)i;
}

static void
merge_fast_up(struct merge_fast *f, uint32_t i)
{
	struct merge_hkey	k = f->heap[i];
	uint32_t		up;

	while (i > 0) {
		up = (i - 1) / 2;
		if (!merge_hkey_before(&k, &f->heap[up]))
			break;
		merge_heap_set(f, i, &f->heap[up]);
		i = up;
	}
	merge_heap_set(f, i, &k);
}

static inline void
merge_fast_down(struct merge_fast *f, uint32_t i)
{
	struct merge_hkey	k = f->heap[i];
	uint32_t		c;

	for (;;) {
		c = 2 * i + 1;
		if (c >= f->nheap)
			break;
		if (c + 1 < f->nheap && merge_hkey_before(&f->heap[c + 1],
		    &f->heap[c]))
			c++;
		if (!merge_hkey_before(&f->heap[c], &k))
			break;
		merge_heap_set(f, i, &f->heap[c]);
		i = c;
	}
	merge_heap_set(f, i, &k);
}

/* A stream's head key. */
static inline void
merge_fast_key(const struct merge_fast *f, const struct merge_stream *s,
    struct merge_hkey *k)
{
	k->time = s->v[s->head].time;
	k->off = merge_fast_off(f, s->v[s->head].off);
	k->st = (uint32_t)(s - f->st);
}

/* File an event under its stream, in (time, offset) order. */
static int
merge_fast_hold(struct merge_fast *f, struct merge_stream *s, uint64_t time,
    uint64_t off, uint32_t size)
{
	struct merge_hent	*v;
	uint32_t		 at, lo, hi, mid;

	if (s->n == s->size) {
		if (s->head >= s->n / 2 && s->head > 0) {
			memmove(s->v, s->v + s->head, (s->n - s->head) *
			    sizeof *s->v);
			s->n -= s->head;
			s->head = 0;
			if (s->n < s->size / 4 && s->size > MERGE_SHRINK) {
				/* Mostly let out: give room back. */
				s->size /= 2;
				if ((v = realloc(s->v, s->size * sizeof *v)) !=
				    NULL)
					s->v = v;
			}
		} else {
			s->size = s->size ? 2 * s->size : 64;
			if ((v = realloc(s->v, s->size * sizeof *v)) == NULL)
				return -1;
			s->v = v;
		}
	}
	at = s->n;
	if (at > s->head && s->v[at - 1].time > time) {
		/* Earlier than the stream's last: find its place (after
		 * equal times, which are earlier in the file), usually among
		 * the last few. */
		for (lo = at - 1; lo > s->head && at - lo < 8 &&
		    s->v[lo - 1].time > time; lo--)
			;
		if (lo > s->head && s->v[lo - 1].time > time) {
			hi = lo - 1;
			lo = s->head;
			while (lo < hi) {
				mid = lo + (hi - lo) / 2;
				if (s->v[mid].time > time)
					hi = mid;
				else
					lo = mid + 1;
			}
		}
		for (at = s->n; at > lo; at--)
			s->v[at] = s->v[at - 1];
	}
	s->v[at].time = time;
	s->v[at].off = (uint32_t)off;
	s->v[at].size = size;
	s->n++;
	if (s->hpos < 0) {
		merge_fast_key(f, s, &f->heap[f->nheap]);
		merge_fast_up(f, f->nheap++);
	} else if (at == s->head) {
		merge_fast_key(f, s, &f->heap[s->hpos]);
		merge_fast_up(f, (uint32_t)s->hpos);
	}
	return 0;
}

/*
 * File the events that start in the next chunk; then the events up to the
 * newest time of the chunks up to chunk - lag may go.  0 when the file
 * ended, -1 on error (m->error says).
 */
static __attribute__((noinline)) int
merge_fast_chunk(struct merge *m, struct merge_fast *f)
{
	struct merge_stream	*s;
	const uint8_t		*p, *buf, *pstop, *pend;
	const int32_t		*tsize;
	uint64_t		 keep, start, stop, t, cmax = 0, pos;
	uint32_t		 nring = f->lag + 1, off;
	size_t			 total, avail;
	int64_t			 left;
	int32_t			 size, cap;
	uint16_t		 capf, tag;

	start = f->data + f->chunk * MERGE_CHUNK;
	stop = start + MERGE_CHUNK < f->end ? start + MERGE_CHUNK : f->end;
	/* Chunks from chunk - lag + 1 on still hold events. */
	keep = f->chunk + 1 >= f->lag ? f->data + (f->chunk + 1 - f->lag) *
	    MERGE_CHUNK : f->data;
	if (keep > f->pos)
		keep = f->pos;
	if (merge_fast_fill(m, f, keep, f->pos, (size_t)(stop - f->pos) +
	    12 + 65535) == -1) {
		merge_fail(m, "the file could not be read again");
		return -1;
	}
	/* Events from p up to pstop, bytes up to pend; an event at p is at
	 * file offset f->lo + (p - buf). */
	buf = f->buf;
	p = buf + (f->pos - f->lo);
	pstop = buf + (stop - f->lo);
	pend = buf + (f->hi - f->lo);
	tsize = f->tsize;
	cap = f->block_cap;
	left = f->block_left;
	if ((s = merge_fast_stream(f, cap < 0 ? 0xffff : (uint16_t)cap)) ==
	    NULL)
		goto nomem;
	for (; p < pstop; p += total) {
		avail = (size_t)(pend - p);
		if (avail < 12) {
			/* Only at the very end: a fixed-size event of 10 or
			 * 11 bytes. */
			if (avail < 10 || (size = tsize[merge_be16(p)]) < 2)
				goto changed;
			tag = merge_be16(p);
			total = 8 + (size_t)size;
		} else {
			tag = merge_be16(p);
			if ((size = tsize[tag]) >= 2)
				total = 8 + (size_t)size;
			else if (size == 1)
				total = 12 + (size_t)merge_be16(p + 10);
			else if (size == PROTO_SIZES_IPE &&
			    proto_frame_len(tsize, p, avail) > 0)
				total = (size_t)proto_frame_len(tsize, p, avail);
			else
				goto changed;
		}
		if (avail < total)
			goto changed;
		t = merge_be64(p + 2);
		if (t > cmax)
			cmax = t;
		off = (uint32_t)(f->lo + (uint64_t)(p - buf));
		if (tag == PROTO_BLOCK_MARKER && f->marker) {
			/* As the decoder: u32 size, u64 end time, u16 cap. */
			capf = merge_be16(p + 22);
			cap = capf == 0xffff ? PROTO_NO_CAP : capf;
			left = (int64_t)((uint32_t)p[10] << 24 |
			    (uint32_t)p[11] << 16 | (uint32_t)p[12] << 8 |
			    p[13]);
			if ((s = merge_fast_stream(f, capf)) == NULL)
				goto nomem;
		} else if (cap >= 0 && (left -= (int64_t)total) <= 0) {
			/* The block's last event: the next are capless. */
			if (merge_fast_hold(f, s, t, off, (uint32_t)total) == -1)
				goto nomem;
			cap = PROTO_NO_CAP;
			if ((s = merge_fast_stream(f, 0xffff)) == NULL)
				goto nomem;
			continue;
		}
		if (s->n < s->size && s->n > s->head &&
		    s->v[s->n - 1].time <= t) {
			/* In order after the stream's last: append. */
			s->v[s->n].time = t;
			s->v[s->n].off = off;
			s->v[s->n].size = (uint32_t)total;
			s->n++;
		} else if (merge_fast_hold(f, s, t, off, (uint32_t)total) ==
		    -1)
			goto nomem;
	}
	pos = f->lo + (uint64_t)(p - buf);
	f->pos = pos;
	f->block_cap = cap;
	f->block_left = left;
	if (cmax > f->upto)
		f->upto = cmax;
	f->pmax[f->chunk % nring] = f->upto;
	f->chunk++;
	if (f->pos >= f->end) {
		f->all = 1;
		f->thresh = UINT64_MAX;
		return 0;
	}
	f->thresh = f->chunk >= f->lag ? f->pmax[(f->chunk - f->lag) % nring] :
	    0;
	return 1;

changed:
	merge_fail(m, "the file changed while reading");
	return -1;
nomem:
	merge_fail(m, "out of memory");
	return -1;
}

/* An empty stream leaves the heap; a long one gives its room back. */
static void
merge_fast_empty(struct merge_stream *s)
{
	s->head = s->n = 0;
	s->hpos = -1;
	if (s->size > MERGE_SHRINK) {
		free(s->v);
		s->v = NULL;
		s->size = 0;
	}
}

/*
 * Two or three streams held, the common case (two capabilities, and the
 * events without one, which seldom come first): merge the two with the
 * least heads without a branch on which goes first, until one is empty,
 * or an event is past the threshold or not before the third's head.
 * Events let out into f->out.
 */
static uint32_t
merge_fast_two(struct merge_fast *f)
{
	struct merge_out	*o = f->out;
	struct merge_stream	*a, *b, *c = NULL;
	const struct merge_hent	*va, *vb, *x, *y, *e;
	struct merge_hkey	 lim;
	uint64_t		 thresh = f->thresh, lt_time;
	uint32_t		 ia, ib, na, nb, n = 0, lt, lt_off;
	uint32_t		 base = (uint32_t)f->lo, hi = (uint32_t)f->hi;
	int32_t			 cap[2];
	int			 bi = 1;

	if (f->nheap == 3 && merge_hkey_before(&f->heap[2], &f->heap[1]))
		bi = 2;
	a = &f->st[f->heap[0].st];
	b = &f->st[f->heap[bi].st];
	/* The events go while before lim: the threshold, or the third. */
	lt_time = thresh;
	lt_off = base - 1;	/* after any held */
	if (f->nheap == 3) {
		lim = f->heap[3 - bi];
		c = &f->st[lim.st];
		if (lim.time <= thresh) {
			lt_time = lim.time;
			lt_off = (uint32_t)lim.off;
		}
	}
	cap[0] = b->cap;
	cap[1] = a->cap;
	va = a->v;
	vb = b->v;
	ia = a->head;
	ib = b->head;
	na = a->n;
	nb = b->n;
	while (n < MERGE_OUT && ia < na && ib < nb) {
		x = &va[ia];
		y = &vb[ib];
		lt = (x->time < y->time) | ((x->time == y->time) &
		    ((uint32_t)(x->off - base) < (uint32_t)(y->off - base)));
		/* Selected by arithmetic: which goes is not predictable. */
		e = (const struct merge_hent *)((uintptr_t)y ^
		    (((uintptr_t)x ^ (uintptr_t)y) & -(uintptr_t)lt));
		if (e->time > lt_time || (e->time == lt_time &&
		    (uint32_t)(e->off - base) >= (uint32_t)(lt_off - base)))
			break;
		o[n].off = f->hi - (uint32_t)(hi - e->off);
		o[n].size = e->size;
		o[n].cap = cap[lt];
		n++;
		ia += lt;
		ib += lt ^ 1;
	}
	a->head = ia;
	b->head = ib;
	/* The heap again, from what is left. */
	f->nheap = 0;
	a->hpos = b->hpos = -1;
	if (ia < na) {
		merge_fast_key(f, a, &f->heap[f->nheap]);
		merge_fast_up(f, f->nheap++);
	} else
		merge_fast_empty(a);
	if (ib < nb) {
		merge_fast_key(f, b, &f->heap[f->nheap]);
		merge_fast_up(f, f->nheap++);
	} else
		merge_fast_empty(b);
	if (c != NULL) {
		f->heap[f->nheap] = lim;
		merge_fast_up(f, f->nheap++);
	}
	return n;
}

/*
 * Let out the held events up to the threshold, in order, into f->out: the
 * stream at the heap's root goes on while its head is before the better
 * of its children's.  How many went.
 */
static uint32_t
merge_fast_release(struct merge_fast *f)
{
	struct merge_out	*o = f->out;
	struct merge_stream	*s;
	struct merge_hkey	*k, lim;
	uint64_t		 thresh = f->thresh;
	uint32_t		 n = 0, hi = (uint32_t)f->hi;

	if (f->nheap == 2 || f->nheap == 3)
		n = merge_fast_two(f);
	while (n < MERGE_OUT && f->nheap > 0 && f->heap[0].time <= thresh) {
		k = &f->heap[0];
		s = &f->st[k->st];
		lim.time = UINT64_MAX;
		lim.off = UINT64_MAX;
		if (f->nheap > 1)
			lim = f->heap[1];
		if (f->nheap > 2 && merge_hkey_before(&f->heap[2], &lim))
			lim = f->heap[2];
		for (;;) {
			o[n].off = k->off;
			o[n].size = s->v[s->head].size;
			o[n].cap = s->cap;
			n++;
			if (++s->head == s->n)
				break;
			k->time = s->v[s->head].time;
			k->off = f->hi - (uint32_t)(hi - s->v[s->head].off);
			if (n == MERGE_OUT || k->time > thresh ||
			    !merge_hkey_before(k, &lim))
				break;
		}
		if (s->head < s->n) {
			merge_fast_down(f, 0);
			continue;
		}
		/* The stream is empty: out of the heap. */
		merge_fast_empty(s);
		if (--f->nheap > 0) {
			merge_heap_set(f, 0, &f->heap[f->nheap]);
			merge_fast_down(f, 0);
		}
	}
	return n;
}

/* The next event in order: let out more, filing more chunks as needed. */
static int
merge_fast_next(struct merge *m, struct merge_fast *f, struct proto_ev *ev)
{
	const struct merge_out	*o;

	while (f->out_pos == f->out_n) {
		f->out_pos = 0;
		if ((f->out_n = merge_fast_release(f)) > 0)
			break;
		if (f->all || merge_fast_chunk(m, f) == -1)
			return 0;
	}
	o = &f->out[f->out_pos++];
	if (proto_dec_one(m->types, f->buf + (o->off - f->lo), o->size,
	    o->cap, ev) != PROTO_EVENT) {
		merge_fail(m, "the file changed while reading");
		f->out_pos = f->out_n = 0;
		f->all = 1;
		f->nheap = 0;
		return 0;
	}
	ev->off = o->off;
	return 1;
}

/* Try the single pass: 1 it is set up, 0 it does not apply, -1 error. */
static int
merge_fast_open(struct merge *m)
{
	struct merge_fast	*f;
	int			 rc;

	if ((f = calloc(1, sizeof *f)) == NULL)
		return -1;
	f->bufsize = MERGE_SCAN + 12 + 65535;
	if ((f->buf = malloc(f->bufsize)) == NULL) {
		merge_fast_free(f);
		return -1;
	}
	if ((rc = merge_fast_scan(m, f)) != 1) {
		merge_fast_free(f);
		return rc;
	}
	/* Room for lag + 1 chunks and the longest event past them, and to
	 * read MERGE_SCAN more before what is kept moves to the front. */
	free(f->buf);
	f->bufsize = (size_t)(f->lag + 2) * MERGE_CHUNK + 2 * (12 + 65535) +
	    MERGE_SCAN;
	f->buf = malloc(f->bufsize);
	f->pmax = calloc(f->lag + 1, sizeof *f->pmax);
	if (f->buf == NULL || f->pmax == NULL) {
		merge_fast_free(f);
		return -1;
	}
	f->lo = f->hi = f->pos = f->data;
	f->block_cap = PROTO_NO_CAP;
	m->fast = f;
#ifdef MERGE_DEBUG
	fprintf(stderr, "merge: single pass, lag %u chunks\n", f->lag);
#endif
	return 1;
}

struct merge *
merge_open(const char *path, char **cause)
{
	struct merge	 *m;
	struct stat	  st;
	struct merge_src *v;
	size_t		  n;

	if ((m = calloc(1, sizeof *m)) == NULL)
		goto fail;
	m->out.pending = -1;
	if ((m->fd = merge_open_fd(path)) == -1) {
		free(m);
		m = NULL;
		goto fail;
	}
	if (fstat(m->fd, &st) == 0)
		m->size = (uint64_t)st.st_size;
	if ((m->dec = proto_dec_new(0)) != NULL)
		proto_dec_frame_only(m->dec);
	m->runs = calloc(MERGE_FAN, sizeof *m->runs);
	m->segs = calloc(MERGE_SEGS, sizeof *m->segs);
	merge_forget_runs(m);
	if (m->dec == NULL || m->runs == NULL || m->segs == NULL)
		goto fail;
	if (MERGE_HOLD >= MERGE_CHUNK) {
		switch (merge_fast_open(m)) {
		case 1:
			return m;
		case -1:
			goto fail;
		}
		/* Not for the single pass: start again. */
#ifdef MERGE_DEBUG
		fprintf(stderr, "merge: two passes\n");
#endif
		proto_dec_free(m->types);
		m->types = NULL;
		proto_dec_reset(m->dec);
		m->events = 0;
	}
	if (merge_index(m) == -1)
		goto fail;
	if (m->types == NULL)
		return m;	/* nothing to merge; merge_error() says why */
	if (m->nspills > 0 && merge_flush_runs(m) == -1)
		goto fail;
	if (m->nspills > 0) {
		n = m->nspills;
		v = merge_spill_srcs(m, n);
	} else {
		n = m->nruns;
		v = merge_run_srcs(m);
	}
	if (v == NULL || merge_heap_init(m, &m->out, v, n) == -1)
		goto fail;
	return m;

fail:
	if (asprintf(cause, "%s: %s", path, m != NULL && m->io_error ?
	    m->error : strerror(errno ? errno : ENOMEM)) == -1)
		*cause = NULL;
	merge_free(m);
	return NULL;
}

void
merge_free(struct merge *m)
{
	size_t	i;

	if (m == NULL)
		return;
	merge_fast_free(m->fast);
	merge_heap_free(&m->out);
	for (i = 0; i < m->nspills; i++)
		fclose(m->spills[i].f);
	free(m->spills);
	free(m->runs);
	free(m->segs);
	proto_dec_free(m->types);
	proto_dec_free(m->dec);
	if (m->fd != -1)
		close(m->fd);
	free(m);
}

enum proto_res
merge_next(struct merge *m, struct proto_ev *ev)
{
	if (m->fast != NULL) {
		if (!merge_fast_next(m, m->fast, ev))
			return PROTO_AGAIN;
	} else if (m->out.v == NULL || !merge_heap_pop(m, &m->out, ev))
		return PROTO_AGAIN;
	m->done++;
	return PROTO_EVENT;
}

/*
 * Up to n next events into ev[] (fewer at the end of a batch let out, 0 at
 * the end): for a reader that takes many at once.  All of them stay valid
 * until the next call.
 */
size_t
merge_next_n(struct merge *m, struct proto_ev *ev, size_t n)
{
	struct merge_fast	*f = m->fast;
	const struct merge_out	*o;
	size_t			 k = 0;

	if (f == NULL)
		return n > 0 && merge_next(m, ev) == PROTO_EVENT;
	while (f->out_pos == f->out_n) {
		f->out_pos = 0;
		if ((f->out_n = merge_fast_release(f)) > 0)
			break;
		if (f->all || merge_fast_chunk(m, f) == -1)
			return 0;
	}
	for (; k < n && f->out_pos < f->out_n; k++) {
		o = &f->out[f->out_pos++];
		if (proto_dec_one(m->types, f->buf + (o->off - f->lo),
		    o->size, o->cap, &ev[k]) != PROTO_EVENT) {
			merge_fail(m, "the file changed while reading");
			f->out_pos = f->out_n = 0;
			f->all = 1;
			f->nheap = 0;
			break;
		}
		ev[k].off = o->off;
	}
	m->done += k;
	return k;
}

/* The header's types, for printing unknown events and the type list. */
const struct proto_dec *
merge_dec(const struct merge *m)
{
	return m->types;
}

/* Why the file's events end early, or NULL. */
const char *
merge_error(const struct merge *m)
{
	return m->error[0] != '\0' ? m->error : NULL;
}

uint64_t
merge_events(const struct merge *m)
{
	return m->events;
}

uint64_t
merge_done(const struct merge *m)
{
	return m->done;
}

uint64_t
merge_size(const struct merge *m)
{
	return m->size;
}
