/*
 * reader-runs.c: the two passes (see reader.c): the first files each event
 * under its capability's current run, the second merges the runs, spilling
 * merged runs to temporary files past READER_FAN runs or READER_SEGS
 * segments.
 */
#include "read/reader-priv.h"

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

int
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

void
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

void
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

int
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

/* The source whose event went last moves on (or leaves): the heap is a
 * heap again, its first the next event's. */
void
reader_heap_advance(struct reader *m, struct reader_heap *h)
{
	if (h->pending >= 0) {
		if (!reader_src_next(m, &h->v[h->pending]))
			h->heap[0] = h->heap[--h->nh];
		reader_sift(h->v, h->heap, h->nh, 0);
		h->pending = -1;
	}
}

/* The next event of a merge; its pointers last until the next call. */
int
reader_heap_pop(struct reader *m, struct reader_heap *h, struct proto_ev *ev)
{
	struct reader_src	*s;
	int			 rc;

	reader_heap_advance(m, h);
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
struct reader_src *
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
struct reader_src *
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

void
reader_forget_runs(struct reader *m)
{
	size_t	i;

	m->nruns = 0;
	m->nsegs = 0;
	m->last_key = -1;
	for (i = 0; i < READER_KEYS; i++)
		m->key_run[i] = -1;
}

int
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
int
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
					    proto_dec_header_offset(m->dec));
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
