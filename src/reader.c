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
 * Most files are out of order only within a short distance.  reader_open()
 * first scans a clean file (one header, events, maybe the end marker at its
 * very end) from a mapping, framing each event, and measures that distance:
 * in chunks of READER_CHUNK bytes, the least lag D such that no event is
 * older than the newest event of the chunks D or more before its own; and
 * it notes where each chunk starts and in which block, so that a seek can
 * start filing there.  When D stays within READER_HOLD bytes (the single
 * pass), each event is filed, by time, under its capability's stream, and
 * before chunk k is read the held events up to the newest time of the
 * chunks up to k - D are let out, merging the streams, and decoded in
 * place from the mapping.  No event read later can be older than those, so
 * this is the stable order, and the events' pointers last as long as the
 * mapping (feed.c hands them to another thread).
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
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
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
#ifndef READER_HOLD
#define READER_HOLD	(8 << 20)	/* bytes the single pass may hold back */
#endif
#ifndef READER_CHUNK
#define READER_CHUNK	(64 << 10)	/* its unit of file distance */
#endif
#ifndef READER_DROP
#define READER_DROP	(8 << 20)	/* mapped bytes read between drops */
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
	struct reader_fast *fast;	/* the single pass, if it is used */
	struct proto_dec *dec;		/* pass 1 */
	struct proto_dec *types;	/* the first header's types */
	uint64_t	 size;
	uint8_t		 rbuf[READER_READ];

	struct reader_run *runs;
	size_t		 nruns;
	struct reader_seg *segs;
	size_t		 nsegs;
	long		 key_run[READER_KEYS];	/* current run of each key */
	int		 last_key;		/* key of the previous event */

	struct reader_spill *spills;
	size_t		 nspills, spills_size;

	struct reader_heap out;		/* the final merge */
	uint64_t	 events, done;
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
		if (room > sizeof m->rbuf)
			room = sizeof m->rbuf;
		if (room > s->seg->end - s->pos)
			room = (size_t)(s->seg->end - s->pos);
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
	size_t		 got, used;

	for (;;) {
		if (reader_read_at(m->fd, m->rbuf, sizeof m->rbuf, pos,
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
				if (reader_add(m, &ev, cap, left) == -1)
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

/* A held event: its time, the low 32 bits of its offset, its size. */
struct reader_hent {
	uint64_t	 time;
	uint32_t	 off;
	uint32_t	 size;
};

/* The held events of one capability, sorted: v[head..n). */
struct reader_stream {
	struct reader_hent *v;
	uint32_t	 head, n, size;
	int32_t		 cap;
	int32_t		 hpos;		/* place in the heap, or -1 */
};

/* A stream in the heap, with its head's key at hand. */
struct reader_hkey {
	uint64_t	 time, off;
	uint32_t	 st;
};

/*
 * What the scan learnt of each chunk: the thresholds of the pass, and all
 * a seek needs to start filing there (32 bytes a chunk: 1/2048 of the
 * file at the default chunk).
 */
struct reader_ckpt {
	uint64_t	 pmax;		/* newest time of the chunks up to it */
	uint64_t	 pos;		/* its first event */
	int64_t		 left;		/* the block state there */
	int32_t		 cap;
};

#define READER_NSTREAMS	65536		/* by a block's u16 cap field */
#define READER_SHRINK	256		/* an empty stream keeps this many */
#define READER_OUT	4096		/* events let out at once */

struct reader_fast {
	/* The header's framing (proto_dec_sizes()). */
	int32_t		 tsize[PROTO_NTAGS];
	int		 marker;	/* block markers have their fields */
	uint64_t	 data, end;	/* the events' bytes */
	uint32_t	 lag;		/* D, in chunks */

	const uint8_t	*map;		/* the whole file */
	uint64_t	 lo, hi;	/* held offsets lie in [lo, hi) */
	uint64_t	 pos;		/* next event to file */
	int32_t		 block_cap;
	int64_t		 block_left;
	uint64_t	 dropped, mark;	/* pages let go up to; next step */

	struct reader_ckpt *ck;		/* per chunk, from the scan */
	uint64_t	 nck;
	uint64_t	 chunk;		/* next chunk to file */
	uint64_t	 thresh;	/* events up to this time may go */
	int		 all;		/* everything is filed: all may go */
	/* After a seek, events before (from_time, from_off) are passed
	 * over: (0, 0) passes none. */
	uint64_t	 from_time, from_off;

	uint16_t	 stream_of[READER_NSTREAMS];	/* index + 1 */
	struct reader_stream *st;
	uint32_t	 nst;
	struct reader_hkey *heap;	/* streams by head */
	uint32_t	 nheap;

	/* Events let out, in order, not yet delivered: out[pos..n). */
	struct proto_frame out[READER_OUT];
	uint32_t	 out_pos, out_n;
};

/*
 * A file that shrinks under the mapping raises SIGBUS on the missing
 * pages: the handler maps zeros there, and the reader stops with an error.
 * One mapping at a time has the handler; a second reader reads by pread.
 */
static const uint8_t	*reader_map_lo, *reader_map_hi;
static volatile sig_atomic_t reader_shrunk;
static struct sigaction	 reader_old_bus;

static void
reader_sigbus(int sig, siginfo_t *si, void *ctx)
{
	uintptr_t	a = (uintptr_t)si->si_addr;
	long		pg = sysconf(_SC_PAGESIZE);

	(void)ctx;
	if (a < (uintptr_t)reader_map_lo || a >= (uintptr_t)reader_map_hi) {
		/* Not ours: the handler before (a crash handler) has it
		 * when the fault repeats. */
		sigaction(sig, &reader_old_bus, NULL);
		return;
	}
	a &= ~(uintptr_t)(pg - 1);
	if (mmap((void *)a, (size_t)pg, PROT_READ, MAP_PRIVATE | MAP_FIXED |
	    MAP_ANONYMOUS, -1, 0) == MAP_FAILED)
		_exit(70);
	reader_shrunk = 1;
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

static inline uint64_t
reader_be64(const uint8_t *p)
{
	uint64_t	v;

	memcpy(&v, p, 8);
	return __builtin_bswap64(v);
}

static void
reader_fast_free(struct reader_fast *f, uint64_t size)
{
	struct sigaction	sa;
	uint32_t		i;

	if (f == NULL)
		return;
	if (f->map != NULL) {
		munmap((void *)f->map, (size_t)size);
		memset(&sa, 0, sizeof sa);
		sigaction(SIGBUS, &reader_old_bus, NULL);
		reader_map_lo = reader_map_hi = NULL;
	}
	for (i = 0; i < f->nst; i++)
		free(f->st[i].v);
	free(f->st);
	free(f->heap);
	free(f->ck);
	free(f);
}

/* Map the file and take SIGBUS for it: -1 if it cannot be. */
static int
reader_fast_map(struct reader *m, struct reader_fast *f)
{
	struct sigaction	sa;
	void			*map;

	if (reader_map_lo != NULL || m->size == 0)
		return -1;
	map = mmap(NULL, (size_t)m->size, PROT_READ, MAP_PRIVATE, m->fd, 0);
	if (map == MAP_FAILED)
		return -1;
	f->map = map;
	reader_map_lo = f->map;
	reader_map_hi = f->map + m->size;
	reader_shrunk = 0;
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = reader_sigbus;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGBUS, &sa, &reader_old_bus);
	return 0;
}

/*
 * Whether the file suits the single pass, and with what lag: 1 yes, 0 no,
 * -1 on a system error.  Reads the header with m->dec, then every event's
 * frame from the mapping, noting each chunk's checkpoint.
 */
static int
reader_fast_scan(struct reader *m, struct reader_fast *f)
{
	struct proto_ev	 ev;
	enum proto_res	 r;
	const uint8_t	*p, *map;
	uint64_t	 pos, chunk = 0, prefix = 0, floor, t, cend, avail;
	uint64_t	 n = 0, dropped, size = m->size;
	uint32_t	 lag = 1, nring = READER_HOLD / READER_CHUNK + 1;
	size_t		 total, got, used;
	int64_t		 left = 0;
	int32_t		 tsz, cap = PROTO_NO_CAP;
	uint16_t	 tag, capf;

	/* The header: the file must start with it. */
	r = PROTO_AGAIN;
	for (pos = 0; r != PROTO_HEADER;) {
		if ((r = proto_dec_next(m->dec, &ev)) == PROTO_HEADER)
			break;
		if (r != PROTO_AGAIN)
			return 0;
		if (reader_read_at(m->fd, m->rbuf, sizeof m->rbuf, pos,
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
	f->data = dropped = proto_dec_offset(m->dec);
	f->end = size;
	if (reader_fast_map(m, f) == -1)
		return 0;
	f->ck = calloc((size - f->data) / READER_CHUNK + 2, sizeof *f->ck);
	if (f->ck == NULL)
		return -1;
	map = f->map;

	/*
	 * The events, a chunk at a time.  ck[j].pmax is the newest time of
	 * chunks 0..j; floor, that of chunks 0..chunk-lag, which no event of
	 * this chunk may precede.  The block state is followed as
	 * reader_fast_chunk() does, for the checkpoints.
	 */
	for (pos = f->data; pos < size; chunk++) {
		cend = f->data + (chunk + 1) * READER_CHUNK;
		if (cend > size)
			cend = size;
		f->ck[chunk].pos = pos;
		f->ck[chunk].cap = cap;
		f->ck[chunk].left = left;
		floor = chunk >= lag ? f->ck[chunk - lag].pmax : 0;
		for (; pos < cend; pos += total) {
			p = map + pos;
			avail = size - pos;
			if (avail < 2)
				return 0;
			tag = reader_be16(p);
			if ((tsz = f->tsize[tag]) >= 2 && avail >= 10)
				total = 8 + (size_t)tsz;
			else if (tsz == 1 && avail >= 12)
				total = 12 + (size_t)reader_be16(p + 10);
			else if (tsz == PROTO_SIZES_IPE &&
			    proto_frame_len(f->tsize, p, avail) > 0)
				total = (size_t)proto_frame_len(f->tsize, p,
				    avail);
			else if (tag == 0xffff && avail == 2) {
				f->end = pos;	/* the end marker */
				pos = size;
				break;
			} else
				return 0;	/* undeclared, or cut */
			if (avail < total || tag == 0xffff)
				return 0;	/* cut, or a marker too soon */
			if (tsz < 2 && proto_dec_one(m->types, p, total,
			    PROTO_NO_CAP, &ev) != PROTO_EVENT)
				return 0;	/* malformed */
			if (tag == PROTO_BLOCK_MARKER && f->marker) {
				capf = reader_be16(p + 22);
				cap = capf == 0xffff ? PROTO_NO_CAP : capf;
				left = (int64_t)((uint32_t)p[10] << 24 |
				    (uint32_t)p[11] << 16 |
				    (uint32_t)p[12] << 8 | p[13]);
			} else if (cap >= 0 && (left -= (int64_t)total) <= 0)
				cap = PROTO_NO_CAP;
			t = reader_be64(p + 2);
			while (t < floor) {
				/* The lag must grow for this event. */
				if (++lag >= nring)
					return 0;
				floor = chunk >= lag ?
				    f->ck[chunk - lag].pmax : 0;
			}
			if (t > prefix)
				prefix = t;
			n++;
		}
		f->ck[chunk].pmax = prefix;
		if (pos - dropped >= READER_DROP) {
			reader_drop(map, dropped, pos);
			dropped = pos;
		}
	}
	reader_drop(map, 0, size);
	if (reader_shrunk)
		return 0;	/* zeros were read: the two passes say where */
	f->nck = chunk;
	m->events = n;
	f->lag = lag;
	return 1;
}

static struct reader_stream *
reader_fast_stream(struct reader_fast *f, uint16_t capfield)
{
	struct reader_stream	*s, *n;
	struct reader_hkey	*h;
	uint32_t		 size;

	if (f->stream_of[capfield] != 0)
		return &f->st[f->stream_of[capfield] - 1];
	if ((f->nst & (f->nst - 1)) == 0) {
		size = f->nst ? 2 * f->nst : 4;
		if ((n = realloc(f->st, size * sizeof *n)) == NULL)
			return NULL;
		f->st = n;
		if ((h = realloc(f->heap, size * sizeof *h)) == NULL)
			return NULL;
		f->heap = h;
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
reader_fast_off(const struct reader_fast *f, uint32_t off)
{
	return f->hi - (uint32_t)((uint32_t)f->hi - off);
}

static inline int
reader_hkey_before(const struct reader_hkey *a, const struct reader_hkey *b)
{
	if (a->time != b->time)
		return a->time < b->time;
	return a->off < b->off;
}

static inline void
reader_heap_set(struct reader_fast *f, uint32_t i, const struct reader_hkey *k)
{
	f->heap[i] = *k;
	f->st[k->st].hpos = (int32_t)i;
}

static void
reader_fast_up(struct reader_fast *f, uint32_t i)
{
	struct reader_hkey	k = f->heap[i];
	uint32_t		up;

	while (i > 0) {
		up = (i - 1) / 2;
		if (!reader_hkey_before(&k, &f->heap[up]))
			break;
		reader_heap_set(f, i, &f->heap[up]);
		i = up;
	}
	reader_heap_set(f, i, &k);
}

static inline void
reader_fast_down(struct reader_fast *f, uint32_t i)
{
	struct reader_hkey	k = f->heap[i];
	uint32_t		c;

	for (;;) {
		c = 2 * i + 1;
		if (c >= f->nheap)
			break;
		if (c + 1 < f->nheap && reader_hkey_before(&f->heap[c + 1],
		    &f->heap[c]))
			c++;
		if (!reader_hkey_before(&f->heap[c], &k))
			break;
		reader_heap_set(f, i, &f->heap[c]);
		i = c;
	}
	reader_heap_set(f, i, &k);
}

/* A stream's head key. */
static inline void
reader_fast_key(const struct reader_fast *f, const struct reader_stream *s,
    struct reader_hkey *k)
{
	k->time = s->v[s->head].time;
	k->off = reader_fast_off(f, s->v[s->head].off);
	k->st = (uint32_t)(s - f->st);
}

/* File an event under its stream, in (time, offset) order. */
static int
reader_fast_hold(struct reader_fast *f, struct reader_stream *s, uint64_t time,
    uint64_t off, uint32_t size)
{
	struct reader_hent	*v;
	uint32_t		 at, lo, hi, mid;

	if (s->n == s->size) {
		if (s->head >= s->n / 2 && s->head > 0) {
			memmove(s->v, s->v + s->head, (s->n - s->head) *
			    sizeof *s->v);
			s->n -= s->head;
			s->head = 0;
			if (s->n < s->size / 4 && s->size > READER_SHRINK) {
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
		reader_fast_key(f, s, &f->heap[f->nheap]);
		reader_fast_up(f, f->nheap++);
	} else if (at == s->head) {
		reader_fast_key(f, s, &f->heap[s->hpos]);
		reader_fast_up(f, (uint32_t)s->hpos);
	}
	return 0;
}

/*
 * File the events that start in the next chunk; then the events up to the
 * newest time of the chunks up to chunk - lag may go.  0 when the file
 * ended, -1 on error (m->error says).
 */
static __attribute__((noinline)) int
reader_fast_chunk(struct reader *m, struct reader_fast *f)
{
	struct reader_stream	*s, *into;
	const uint8_t		*p, *map = f->map, *pstop, *pend;
	const int32_t		*tsize;
	uint64_t		 keep, start, stop, t, ft = f->from_time;
	size_t			 total, avail;
	int64_t			 left;
	int32_t			 size, cap;
	uint32_t		 off;
	uint16_t		 capf, tag;

	start = f->data + f->chunk * READER_CHUNK;
	stop = start + READER_CHUNK < f->end ? start + READER_CHUNK : f->end;
	/* Chunks from chunk - lag + 1 on still hold events. */
	keep = f->chunk + 1 >= f->lag ? f->data + (f->chunk + 1 - f->lag) *
	    READER_CHUNK : f->data;
	if (keep > f->pos)
		keep = f->pos;
	f->lo = keep;
	f->hi = stop + READER_MAX_EVENT;
	/* Pages go a step behind what is held: events given out borrow
	 * them, thousands of events behind on feed.c's other thread (a page
	 * dropped too soon is only read again). */
	if (keep - f->mark >= READER_DROP) {
		reader_drop(map, f->dropped, f->mark);
		f->dropped = f->mark;
		f->mark = keep;
	}
	p = map + f->pos;
	pstop = map + stop;
	pend = map + m->size;
	tsize = f->tsize;
	cap = f->block_cap;
	left = f->block_left;
	if ((s = reader_fast_stream(f, cap < 0 ? 0xffff : (uint16_t)cap)) ==
	    NULL)
		goto nomem;
	for (; p < pstop; p += total) {
		avail = (size_t)(pend - p);
		tag = reader_be16(p);
		/* The scan framed these bytes: they are whole. */
		if ((size = tsize[tag]) >= 2)
			total = 8 + (size_t)size;
		else if (size == 1 && avail >= 12)
			total = 12 + (size_t)reader_be16(p + 10);
		else if (size == PROTO_SIZES_IPE &&
		    proto_frame_len(tsize, p, avail) > 0)
			total = (size_t)proto_frame_len(tsize, p, avail);
		else
			goto changed;
		if (avail < total)
			goto changed;
		t = reader_be64(p + 2);
		off = (uint32_t)(p - map);
		into = s;
		if (tag == PROTO_BLOCK_MARKER && f->marker) {
			/* As the decoder: u32 size, u64 end time, u16 cap. */
			capf = reader_be16(p + 22);
			cap = capf == 0xffff ? PROTO_NO_CAP : capf;
			left = (int64_t)((uint32_t)p[10] << 24 |
			    (uint32_t)p[11] << 16 | (uint32_t)p[12] << 8 |
			    p[13]);
			if ((s = into = reader_fast_stream(f, capf)) == NULL)
				goto nomem;
		} else if (cap >= 0 && (left -= (int64_t)total) <= 0) {
			/* The block's last event: the next are capless. */
			cap = PROTO_NO_CAP;
			if ((s = reader_fast_stream(f, 0xffff)) == NULL)
				goto nomem;
		}
		if (t <= ft && (t < ft || (uint64_t)(p - map) < f->from_off))
			continue;	/* before where a seek starts */
		if (into->n < into->size && into->n > into->head &&
		    into->v[into->n - 1].time <= t) {
			/* In order after the stream's last: append. */
			into->v[into->n].time = t;
			into->v[into->n].off = off;
			into->v[into->n].size = (uint32_t)total;
			into->n++;
		} else if (reader_fast_hold(f, into, t, off, (uint32_t)total) ==
		    -1)
			goto nomem;
	}
	f->pos = (uint64_t)(p - map);
	f->block_cap = cap;
	f->block_left = left;
	f->chunk++;
	if (f->pos >= f->end) {
		f->all = 1;
		f->thresh = UINT64_MAX;
		return 0;
	}
	f->thresh = f->chunk >= f->lag ? f->ck[f->chunk - f->lag].pmax : 0;
	return 1;

changed:
	reader_fail(m, "the file changed while reading");
	return -1;
nomem:
	reader_fail(m, "out of memory");
	return -1;
}

/* An empty stream leaves the heap; a long one gives its room back. */
static void
reader_fast_empty(struct reader_stream *s)
{
	s->head = s->n = 0;
	s->hpos = -1;
	if (s->size > READER_SHRINK) {
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
reader_fast_two(struct reader_fast *f)
{
	struct proto_frame	*o = f->out;
	struct reader_stream	*a, *b, *c = NULL;
	const struct reader_hent *va, *vb, *x, *y, *e;
	struct reader_hkey	 lim;
	uint64_t		 thresh = f->thresh, lt_time;
	uint32_t		 ia, ib, na, nb, n = 0, lt, lt_off;
	uint32_t		 base = (uint32_t)f->lo, hi = (uint32_t)f->hi;
	int32_t			 cap[2];
	int			 bi = 1;

	if (f->nheap == 3 && reader_hkey_before(&f->heap[2], &f->heap[1]))
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
	while (n < READER_OUT && ia < na && ib < nb) {
		x = &va[ia];
		y = &vb[ib];
		lt = (x->time < y->time) | ((x->time == y->time) &
		    ((uint32_t)(x->off - base) < (uint32_t)(y->off - base)));
		/* Selected by arithmetic: which goes is not predictable. */
		e = (const struct reader_hent *)((uintptr_t)y ^
		    (((uintptr_t)x ^ (uintptr_t)y) & -(uintptr_t)lt));
		if (e->time > lt_time || (e->time == lt_time &&
		    (uint32_t)(e->off - base) >= (uint32_t)(lt_off - base)))
			break;
		o[n].time = e->time;
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
		reader_fast_key(f, a, &f->heap[f->nheap]);
		reader_fast_up(f, f->nheap++);
	} else
		reader_fast_empty(a);
	if (ib < nb) {
		reader_fast_key(f, b, &f->heap[f->nheap]);
		reader_fast_up(f, f->nheap++);
	} else
		reader_fast_empty(b);
	if (c != NULL) {
		f->heap[f->nheap] = lim;
		reader_fast_up(f, f->nheap++);
	}
	return n;
}

/*
 * Let out the held events up to the threshold, in order, into f->out: the
 * stream at the heap's root goes on while its head is before the better
 * of its children's.  How many went.
 */
static uint32_t
reader_fast_release(struct reader_fast *f)
{
	struct proto_frame	*o = f->out;
	struct reader_stream	*s;
	struct reader_hkey	*k, lim;
	uint64_t		 thresh = f->thresh;
	uint32_t		 n = 0, hi = (uint32_t)f->hi;

	if (f->nheap == 2 || f->nheap == 3)
		n = reader_fast_two(f);
	while (n < READER_OUT && f->nheap > 0 && f->heap[0].time <= thresh) {
		k = &f->heap[0];
		s = &f->st[k->st];
		lim.time = UINT64_MAX;
		lim.off = UINT64_MAX;
		if (f->nheap > 1)
			lim = f->heap[1];
		if (f->nheap > 2 && reader_hkey_before(&f->heap[2], &lim))
			lim = f->heap[2];
		for (;;) {
			o[n].time = k->time;
			o[n].off = k->off;
			o[n].size = s->v[s->head].size;
			o[n].cap = s->cap;
			n++;
			if (++s->head == s->n)
				break;
			k->time = s->v[s->head].time;
			k->off = f->hi - (uint32_t)(hi - s->v[s->head].off);
			if (n == READER_OUT || k->time > thresh ||
			    !reader_hkey_before(k, &lim))
				break;
		}
		if (s->head < s->n) {
			reader_fast_down(f, 0);
			continue;
		}
		/* The stream is empty: out of the heap. */
		reader_fast_empty(s);
		if (--f->nheap > 0) {
			reader_heap_set(f, 0, &f->heap[f->nheap]);
			reader_fast_down(f, 0);
		}
	}
	return n;
}

/* Events let out and not yet given, filing chunks as needed: 0 at the end. */
static int
reader_fast_more(struct reader *m, struct reader_fast *f)
{
	while (f->out_pos == f->out_n) {
		f->out_pos = 0;
		if ((f->out_n = reader_fast_release(f)) > 0)
			break;
		if (f->all || reader_fast_chunk(m, f) == -1) {
			f->out_n = 0;
			return 0;
		}
	}
	return 1;
}

/* Up to n next events of the single pass into ev[]. */
static size_t
reader_fast_next(struct reader *m, struct reader_fast *f, struct proto_ev *ev,
    size_t n)
{
	const char	*why = NULL;
	char		 msg[160];
	size_t		 k;

	if (!reader_fast_more(m, f))
		return 0;
	if (n > f->out_n - f->out_pos)
		n = f->out_n - f->out_pos;
	k = proto_dec_frames(m->types, f->map, f->out + f->out_pos, n, ev,
	    &why);
	f->out_pos += (uint32_t)k;
	if (reader_shrunk) {
		/* Some bytes read were the zeros mapped for them. */
		m->error[0] = '\0';
		reader_fail(m, "the file shrank while read");
		k = 0;
	} else if (k < n) {
		snprintf(msg, sizeof msg, "byte %llu: %s", (unsigned long long)
		    f->out[f->out_pos].off, why);
		reader_fail(m, msg);
	} else
		return k;
	/* Nothing more after an error. */
	f->out_pos = f->out_n = 0;
	f->all = 1;
	f->nheap = 0;
	return k;
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
	f->lo = f->hi = f->pos = f->data;
	f->dropped = f->mark = f->data;
	f->block_cap = PROTO_NO_CAP;
	m->fast = f;
#ifdef READER_DEBUG
	fprintf(stderr, "reader: single pass, lag %u chunks\n", f->lag);
#endif
	return 1;
}

/* The single pass from the first event at or after (time, off). */
static void
reader_fast_seek(struct reader_fast *f, uint64_t time, uint64_t off)
{
	uint64_t	lo = 0, hi = f->nck, mid;
	uint32_t	i;

	for (i = 0; i < f->nst; i++)
		reader_fast_empty(&f->st[i]);
	f->nheap = 0;
	f->out_pos = f->out_n = 0;
	/* The first chunk with an event that late (pmax grows). */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (f->ck[mid].pmax < time)
			lo = mid + 1;
		else
			hi = mid;
	}
	f->chunk = lo;
	f->from_time = time;
	f->from_off = off;
	f->lo = f->hi = f->dropped = f->mark = f->pos = lo < f->nck ?
	    f->ck[lo].pos : f->end;
	f->all = lo >= f->nck;
	if (f->all) {
		f->thresh = UINT64_MAX;
		return;
	}
	f->block_cap = f->ck[lo].cap;
	f->block_left = f->ck[lo].left;
	f->thresh = lo >= f->lag ? f->ck[lo - f->lag].pmax : 0;
}

struct reader *
reader_open(const char *path, char **cause)
{
	struct reader	 *m;
	struct stat	  st;
	struct reader_src *v;
	size_t		  n;

	if ((m = calloc(1, sizeof *m)) == NULL)
		goto fail;
	m->out.pending = -1;
	if ((m->fd = reader_open_fd(path)) == -1) {
		free(m);
		m = NULL;
		goto fail;
	}
	if (fstat(m->fd, &st) == 0)
		m->size = (uint64_t)st.st_size;
	if ((m->dec = proto_dec_new(0)) != NULL)
		proto_dec_frame_only(m->dec);
	m->runs = calloc(READER_FAN, sizeof *m->runs);
	m->segs = calloc(READER_SEGS, sizeof *m->segs);
	reader_forget_runs(m);
	if (m->dec == NULL || m->runs == NULL || m->segs == NULL)
		goto fail;
	if (READER_HOLD >= READER_CHUNK) {
		switch (reader_fast_open(m)) {
		case 1:
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
	else
		k = m->out.v != NULL && reader_heap_pop(m, &m->out, ev);
	if (k > 0) {
		m->done += k;
		m->last_time = ev[k - 1].time;
		m->last_off = ev[k - 1].off;
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

/* Where to seek to go on after the events given so far. */
void
reader_tell(const struct reader *m, uint64_t *time, uint64_t *off)
{
	*time = m->given ? m->last_time : 0;
	*off = m->given ? m->last_off + 1 : 0;
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
	return m->fast != NULL && reader_shrunk;
}

/* The header's types, for printing unknown events and the type list. */
const struct proto_dec *
reader_dec(const struct reader *m)
{
	return m->types;
}

/* Why the file's events end early, or NULL. */
const char *
reader_error(const struct reader *m)
{
	return m->error[0] != '\0' ? m->error : NULL;
}

uint64_t
reader_events(const struct reader *m)
{
	return m->events;
}

uint64_t
reader_done(const struct reader *m)
{
	return m->done;
}

uint64_t
reader_size(const struct reader *m)
{
	return m->size;
}
