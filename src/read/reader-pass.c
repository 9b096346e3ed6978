/*
 * reader-pass.c: the single pass (see reader.c): each stream sorted through
 * its lookahead, the streams merged by (time, offset) in rounds, the
 * events decoded in place from the mapping.
 */
#include "read/reader-priv.h"

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
	int			 filter = (ft | fo) != 0 && !s->past;

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
	if (s->xv == NULL && s->pos + READER_POP / 2 >= s->pop &&
	    s->pos < s->end) {
		/* The next pages mapped at once: a fault a page (after
		 * fault-around, 16) cost 5 us each in a VM. */
		if (s->pop < s->pos)
			s->pop = s->pos;
		reader_populate(map, s->pop, READER_POP, m->size);
		s->pop += READER_POP;
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
	/* (Those passed over were before all it framed: the ready ones are
	 * still the first of all, which no later event goes before.) */
	if (filter && s->ready > 0)
		s->past = 1;
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

/* Why frame e failed to decode, and no events after it. */
void
reader_fast_fail(struct reader *m, struct reader_fast *f,
    const struct proto_frame *e)
{
	char	msg[160];

	snprintf(msg, sizeof msg, "byte %llu: %s", (unsigned long long)e->off,
	    proto_dec_frame_why(m->types, f->map, e));
	reader_fail(m, msg);
	f->all = 1;
}

/* Whether the mapping read zeros: then nothing more is given. */
static int
reader_fast_shrunk(struct reader *m, struct reader_fast *f)
{
	if (!reader_guard_shrunk(f))
		return 0;
	/* Some bytes read were the zeros mapped for them. */
	m->error[0] = '\0';
	reader_fail(m, "the file shrank while read");
	f->all = 1;
	return 1;
}

/* Up to n next events of the single pass into ev[], decoded in place,
 * their fields too if full (else see proto_dec_heads()). */
size_t
reader_fast_next(struct reader *m, struct reader_fast *f, struct proto_ev *ev,
    size_t n, int full)
{
	const struct proto_frame *e;
	size_t			 k = 0, c, d, j;

	while (k < n && !f->all) {
		if (f->icur == f->ncur && !reader_fast_round(m, f))
			break;
		e = f->cur + f->icur;
		c = f->ncur - f->icur < n - k ? f->ncur - f->icur : n - k;
		d = full ? proto_dec_frames(m->types, f->map, e, c, ev + k) :
		    proto_dec_heads(m->types, f->map, e, c, ev + k);
		for (j = k; m->bias != 0 && j < k + d; j++)
			ev[j].off += m->bias;
		f->icur += d;
		k += d;
		if (d < c)
			reader_fast_fail(m, f, e + d);
	}
	return reader_fast_shrunk(m, f) ? 0 : k;
}

/*
 * Up to n next frames of the single pass into fr[], in order, not
 * decoded: feed.c's thread hands these (24 bytes an event, not the 176 of
 * a decoded one) and the caller decodes them (reader_frames_dec()).
 */
size_t
reader_fast_frames(struct reader *m, struct reader_fast *f,
    struct proto_frame *fr, size_t n)
{
	size_t	k = 0, c;

	while (k < n && !f->all) {
		if (f->icur == f->ncur && !reader_fast_round(m, f))
			break;
		c = f->ncur - f->icur < n - k ? f->ncur - f->icur : n - k;
		memcpy(fr + k, f->cur + f->icur, c * sizeof *fr);
		f->icur += c;
		k += c;
	}
	return reader_fast_shrunk(m, f) ? 0 : k;
}

/*
 * The single pass from the first event at or after (time, off): each
 * stream from its first segment with an event that late.
 */
void
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
		s->drop = s->mark = s->pop = s->pos;
		s->i = s->n = s->ready = 0;
		s->past = 0;
		s->xi = 0;
		f->live[f->nlive++] = i;	/* refilled by the first round */
	}
	f->ncur = f->icur = 0;
	f->from_time = time;
	f->from_off = off;
}
