/*
 * reader-scan.c: the single pass's scan (see reader.c): each event framed
 * once and filed under its stream as segments; out-of-place events taken
 * out; a large file scanned in two halves at once and joined.
 */
#include "read/reader-priv.h"

/* The merge's buffers (reader_fast_bufs()) go. */
void
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

void
reader_fast_free(struct reader_fast *f, uint64_t size)
{
	if (f == NULL)
		return;
	reader_fast_unmap(f, size);
	reader_fast_unbufs(f);
	free(f->tabs);
	free(f->sbuf);
	free(f->segs);
	free(f->exc);
	free(f->st);
	free(f->stream_hi);
	free(f);
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
int
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
int
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
int
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
