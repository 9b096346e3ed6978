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

struct merge {
	int		 fd;
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
	if (m->dec == NULL || m->runs == NULL || m->segs == NULL ||
	    merge_index(m) == -1)
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
	if (m->out.v == NULL || !merge_heap_pop(m, &m->out, ev))
		return PROTO_AGAIN;
	m->done++;
	return PROTO_EVENT;
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
