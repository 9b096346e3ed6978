/*
 * model.c: the model's clock, history slots, sessions and event dispatch.
 *
 * Each applied event advances "now" (the newest event time) and, when it
 * crosses into a new 100 ms slot, rolls the history ring forward.  Counters
 * go into the slot of their event; spans (a cap running, a collection) are
 * split over the slots they cover when they close.  The figures for a
 * window are sums over its slots, plus the part of any span still open.
 */
#include <stdlib.h>
#include <string.h>

#include "model-priv.h"

static struct model *model_make(struct mheap *);
static void	model_init(struct model *);
static void	model_fini(struct model *);
static void	model_session_gap(struct model *);

/* n things of size bytes, cleared, in m's heap (model-heap.c). */
void *
model_calloc(const struct model *m, size_t n, size_t size)
{
	if (size != 0 && n > SIZE_MAX / size) {
		fprintf(stderr, "evtop: out of memory\n");
		abort();
	}
	return mheap_alloc(mheap_of(m), n * size);
}

struct model *
model_new(void)
{
	return model_make(mheap_new());
}

/* The model first, in a heap of its own: its bytes are its state. */
static struct model *
model_make(struct mheap *h)
{
	struct model	*m;

	m = mheap_alloc(h, sizeof *m);
	m->p = model_calloc(m, 1, sizeof *m->p);
	m->tag_count = model_calloc(m, PROTO_NTAGS, sizeof *m->tag_count);
	m->p->tags_seen = model_calloc(m, PROTO_NTAGS,
	    sizeof *m->p->tags_seen);
	model_reorder_init(&m->p->ro);
	model_init(m);
	return m;
}

/* Allocate and clear what a program's model holds. */
static void
model_init(struct model *m)
{
	struct model_priv	*p = m->p;

	p->slots = model_calloc(m, MODEL_NSLOTS, sizeof *p->slots);
	p->gcrec = model_calloc(m, MODEL_NGCREC, sizeof *p->gcrec);
	p->gcx = model_calloc(m, MODEL_NGCREC, sizeof *p->gcx);
	p->gcw = model_calloc(m, 2, sizeof *p->gcw);
	p->fine_hist = model_calloc(m, FINE_NHIST, sizeof *p->fine_hist);
	p->scratch = model_calloc(m, MODEL_NGCREC, sizeof *p->scratch);
	p->scratch2 = model_calloc(m, MODEL_NGCREC, sizeof *p->scratch2);
	p->nmrec = model_calloc(m, MODEL_NNMREC, sizeof *p->nmrec);
	p->census = model_calloc(m, MODEL_NCENSUS, sizeof *p->census);
	p->msg = model_calloc(m, MODEL_NMSG, sizeof *p->msg);
	p->msg_raw = model_calloc(m, MODEL_NMSG, sizeof *p->msg_raw);
	model_threads_init(m);
	model_gc_init(m);
	model_prof_init(m);
}

static void
model_fini(struct model *m)
{
	struct model_priv	*p = m->p;
	int			 i;

	model_threads_free(m);
	model_gc_free(m);
	model_prof_free(m);
	model_ipe_free(m);
	for (i = 0; i < MODEL_MAX_CAPS; i++) {
		mheap_free(m->caps[i]);
		m->caps[i] = NULL;
	}
	mheap_free(p->slots);
	mheap_free(p->gcrec);
	mheap_free(p->gcx);
	mheap_free(p->gcw);
	mheap_free(p->fine_hist);
	mheap_free(p->scratch);
	mheap_free(p->scratch2);
	mheap_free(p->nmrec);
	mheap_free(p->census);
	mheap_free(p->msg);
	mheap_free(p->msg_raw);
}

void
model_free(struct model *m)
{
	/* Everything it holds is in its heap. */
	if (m != NULL)
		mheap_destroy(mheap_of(m));
}

const void *
model_state(const struct model *m, size_t *len)
{
	const struct mheap	*h = mheap_of(m);

	*len = mheap_extent(h);
	return h;
}

/*
 * Copy a state of m back.  The model is at the same place in its heap in
 * every state, so the pointers in the bytes are right as they are.  If
 * fill fails the bytes are half old, half new: the model is made anew.
 */
int
model_restore(struct model *m, size_t len, int (*fill)(void *, void *,
    size_t), void *arg)
{
	struct mheap	*h = mheap_of(m);
	size_t		 had = mheap_extent(h);

	if (len < (size_t)((const char *)(m + 1) - (const char *)h) ||
	    len > MHEAP_RESERVE)
		return -1;
	mheap_restoring(h, len);
	if (fill(arg, h, len) != 0) {
		memset(h, 0, had > len ? had : len);
		mheap_reset(h);
		(void)model_make(h);	/* at m again: the first block */
		return -1;
	}
	mheap_restored(h, had);
	return 0;
}

/*
 * A new program (another pid) replaces the old one: everything but the
 * stream totals, the reorder buffer and what this session already said
 * about the program starts again.
 */
static void
model_reset_program(struct model *m)
{
	struct model_priv	*p = m->p;
	struct model_prog	 old = m->prog;
	struct reorder		 ro = p->ro;
	uint16_t		*tags = p->tags_seen;
	uint32_t		 ntags = p->ntags_seen;
	int			 rts = p->sess_rts, args = p->sess_args;

	model_fini(m);
	memset(m->p, 0, sizeof *m->p);
	p->ro = ro;
	p->tags_seen = tags;
	p->ntags_seen = ntags;
	memset(&m->prog, 0, sizeof m->prog);
	memset(&m->threads, 0, sizeof m->threads);
	memset(&m->gc, 0, sizeof m->gc);
	memset(&m->heap, 0, sizeof m->heap);
	memset(&m->nm, 0, sizeof m->nm);
	memset(&m->prof, 0, sizeof m->prof);
	memset(&m->hprof, 0, sizeof m->hprof);
	memset(&m->ipe, 0, sizeof m->ipe);
	memset(&m->msgs, 0, sizeof m->msgs);
	m->now = 0;
	m->reset_at = 0;
	model_init(m);
	if (rts)
		memcpy(m->prog.rts_id, old.rts_id, sizeof old.rts_id);
	if (args)
		memcpy(m->prog.args, old.args, sizeof old.args);
	m->prog.sessions = old.sessions;
	m->prog.resets = old.resets + 1;
	p->sess_rts = rts;
	p->sess_args = args;
}

void
model_set_reorder(struct model *m, uint64_t window, size_t max_bytes)
{
	model_reorder_flush(m);
	m->p->ro.window = window;
	m->p->ro.max_bytes = max_bytes;
}

void
model_header(struct model *m, const struct proto_dec *dec)
{
	struct model_priv	*p = m->p;

	(void)dec;
	model_reorder_flush(m);
	m->totals.headers++;
	m->prog.sessions++;
	p->sess_rts = p->sess_args = 0;
	/* The first session decides nothing; later ones may be a new program. */
	p->sess_new = p->sess_pid = m->prog.sessions > 1;
	if (p->sess_new && p->started)
		model_session_gap(m);
}

/*
 * What happened between two sessions is lost: spans still open end at the
 * last event seen (a cap is not counted as running through the gap), an
 * unfinished collection is dropped, running threads become runnable.
 */
static void
model_session_gap(struct model *m)
{
	struct model_priv	*p = m->p;
	struct mcap		*c;
	int			 i;

	for (i = 0; i < m->prog.ncaps; i++) {
		if ((c = (struct mcap *)m->caps[i]) == NULL)
			continue;
		model_cap_close(m, c, m->now);
		c->pub.state = MODEL_CAP_IDLE;
		c->cur = NULL;
		c->in_gc = 0;
	}
	model_threads_gap(m);
	if (m->gc.in_gc)
		m->gc.dropped++;
	m->gc.in_gc = 0;
	p->n_in_gc = 0;
	p->nocap_in_gc = 0;
	p->req_pending = 0;
	p->stats_pending = p->live_pending = 0;
	p->nm_in_sync = p->nm_marking = 0;
	p->nm_open = 0;
	m->nm.phase = MODEL_NM_IDLE;
	m->hprof.in_census = 0;
}

void
model_flush(struct model *m)
{
	model_reorder_flush(m);
}

void
model_error(struct model *m, const char *msg)
{
	m->totals.errors++;
	model_copy_text(m->totals.last_error, sizeof m->totals.last_error,
	    msg, strlen(msg));
}

void
model_apply(struct model *m, const struct proto_ev *ev)
{
	model_apply_until(m, ev, 1, UINT64_MAX);
}

void
model_copy_text(char *dst, size_t size, const char *src, size_t len)
{
	size_t	n;

	n = proto_sanitize(src, len, dst, size - 1);
	dst[n] = '\0';
}

const char *
model_tag_name(uint16_t tag, char *buf, size_t size)
{
	const char	*name;

	if ((name = proto_tag_name(tag)) != NULL)
		return name;
	snprintf(buf, size, "UNKNOWN_%u", tag);
	return buf;
}

/* ------------------------------------------------------------------ */
/* Time and slots. */

struct slot *
model_slot_at(struct model *m, uint64_t t)
{
	uint64_t	s = t / MODEL_SLOT_NS;

	if (s > m->p->slot || s + MODEL_NSLOTS <= m->p->slot)
		return NULL;
	return &m->p->slots[s % MODEL_NSLOTS];
}

/* Where slot s ends: a time at or past it is in a later slot. */
static uint64_t
slot_end(uint64_t s)
{
	return s < UINT64_MAX / MODEL_SLOT_NS ? (s + 1) * MODEL_SLOT_NS :
	    UINT64_MAX;
}

/* Now's slot is s: where it starts and ends, its places in the rings. */
static void
slot_set(struct model_priv *p, uint64_t s)
{
	p->slot = s;
	p->slot_start = s * MODEL_SLOT_NS;
	p->slot_end = slot_end(s);
	p->slot_idx = (uint32_t)(s % MODEL_NSLOTS);
	p->slot_cur = &p->slots[p->slot_idx];
	p->slot_f = (uint32_t)(s % WIN_SLOTS);
	p->slot_sec = s / SLOTS_PER_SEC;
	p->slot_k = (uint32_t)(p->slot_sec % WIN_SLOTS);
}

/* Roll the ring forward to now's slot: new slots start empty, gauges
 * carried. */
static void
model_advance(struct model *m, uint64_t s)
{
	struct model_priv	*p = m->p;
	struct slot		*prev = &p->slots[p->slot % MODEL_NSLOTS];
	struct slot		 carry;
	struct mcap		*c;
	uint64_t		 from, i;
	int			 k, j;

	/* The slot being left gets its events, bytes and live threads. */
	prev->v[MODEL_S_THREADS_LIVE] = m->threads.live;
	prev->v[MODEL_S_EVENTS] += m->totals.events - p->slot_events;
	prev->v[MODEL_S_BYTES] += m->totals.bytes - p->slot_bytes;
	p->slot_events = m->totals.events;
	p->slot_bytes = m->totals.bytes;
	carry = *prev;
	from = s - p->slot > MODEL_NSLOTS ? s - MODEL_NSLOTS + 1 : p->slot + 1;
	for (i = from; i <= s; i++) {
		struct slot *sl = &p->slots[i % MODEL_NSLOTS];

		memset(sl->v, 0, sizeof sl->v[0] * MODEL_S_FIRST_GAUGE);
		for (j = MODEL_S_FIRST_GAUGE; j < MODEL_NSERIES; j++)
			sl->v[j] = carry.v[j];
		for (k = 0; k < m->prog.ncaps; k++) {
			if ((c = (struct mcap *)m->caps[k]) == NULL)
				continue;
			c->run[i % MODEL_NSLOTS] = 0;
			c->gc[i % MODEL_NSLOTS] = 0;
		}
	}
	slot_set(p, s);
	model_threads_tick(m);
}

static void
model_start(struct model *m, uint64_t t)
{
	struct model_priv	*p = m->p;

	p->started = 1;
	m->now = t;
	m->prog.start = t;
	m->reset_at = t;
	slot_set(p, t / MODEL_SLOT_NS);
	p->slot_events = p->run_events = m->totals.events;
	p->slot_bytes = p->run_bytes = m->totals.bytes;
}

/* model_count() (model-priv.h) outside now's slot. */
void
model_count_slot(struct model *m, enum model_series s, uint64_t t,
    uint64_t v)
{
	struct slot	*sl;

	if ((sl = model_slot_at(m, t)) != NULL)
		sl->v[s] += v;
}

void
model_gauge(struct model *m, enum model_series s, uint64_t v)
{
	m->p->slots[m->p->slot % MODEL_NSLOTS].v[s] = v;
}

/*
 * The slots the span [t0, t1) covers that the history still holds: first
 * and last slot, with *t0 moved up to the first one's start.  0 if none.
 */
static int
model_span_slots(const struct model_priv *p, uint64_t *t0, uint64_t t1,
    uint64_t *a, uint64_t *b)
{
	uint64_t	lo;

	if (t1 <= *t0)
		return 0;
	lo = p->slot + 1 > MODEL_NSLOTS ? p->slot + 1 - MODEL_NSLOTS : 0;
	*a = *t0 / MODEL_SLOT_NS;
	*b = (t1 - 1) / MODEL_SLOT_NS;
	if (*a < lo) {
		*a = lo;
		*t0 = lo * MODEL_SLOT_NS;
	}
	if (*b > p->slot)
		*b = p->slot;
	return *a <= *b;
}

/* The part of [t0, t1) in slot a, t0 being where the slot's part starts. */
static uint64_t
model_span_piece(uint64_t a, uint64_t *t0, uint64_t t1)
{
	uint64_t	end = (a + 1) * MODEL_SLOT_NS, v;

	if (end > t1)
		end = t1;
	v = end > *t0 ? end - *t0 : 0;
	*t0 = end;
	return v;
}

/* Split the span [t0, t1) over the slots it covers. */
void
model_span(struct model *m, enum model_series s, uint64_t t0, uint64_t t1)
{
	struct model_priv	*p = m->p;
	uint64_t		 a, b;

	if (t1 <= t0)
		return;
	if (t1 > m->reset_at)
		p->run_tot[s] += t1 - (t0 > m->reset_at ? t0 : m->reset_at);
	if (model_in_slot(p, t0, t1)) {
		p->slot_cur->v[s] += t1 - t0;
		return;
	}
	if (!model_span_slots(p, &t0, t1, &a, &b))
		return;
	for (; a <= b; a++)
		p->slots[a % MODEL_NSLOTS].v[s] += model_span_piece(a, &t0, t1);
}

/* The same for a cap's own ring of ns per slot. */
void
model_span_ring(const struct model *m, uint32_t *ring, uint64_t t0,
    uint64_t t1)
{
	uint64_t	a, b;

	if (!model_span_slots(m->p, &t0, t1, &a, &b))
		return;
	for (; a <= b; a++)
		ring[a % MODEL_NSLOTS] += (uint32_t)model_span_piece(a, &t0,
		    t1);
}

uint64_t
model_win_start_at(uint64_t now, uint64_t start, enum model_win w)
{
	uint64_t	s;

	switch (w) {
	case MODEL_W1:
		s = now / MODEL_SLOT_NS;
		s = s >= WIN_SLOTS - 1 ? (s - (WIN_SLOTS - 1)) * MODEL_SLOT_NS :
		    0;
		break;
	case MODEL_W10:
		s = now / SEC_NS;
		s = s >= WIN_SLOTS - 1 ? (s - (WIN_SLOTS - 1)) * SEC_NS : 0;
		break;
	default:
		s = start;
		break;
	}
	return s > start ? s : start;
}

uint64_t
model_win_start(const struct model *m, enum model_win w)
{
	return model_win_start_at(m->now, w == MODEL_WRUN ? m->reset_at :
	    m->prog.start, w);
}

uint64_t
model_win_ns(const struct model *m, enum model_win w)
{
	return m->now - model_win_start(m, w);
}

/* The part of spans still open that falls in [lo, hi). */
static uint64_t
model_open_part(const struct model *m, enum model_series s, uint64_t lo,
    uint64_t hi)
{
	const struct model_cap	*c;
	uint64_t		 v = 0;
	int			 i;

	if (s == MODEL_S_GC_NS && m->gc.in_gc)
		v = model_overlap(m->p->gc_since, m->now, lo, hi);
	if (s == MODEL_S_RUN_NS) {
		for (i = 0; i < m->prog.ncaps; i++) {
			c = m->caps[i];
			if (c != NULL && c->state == MODEL_CAP_RUN)
				v += model_overlap(c->since, m->now, lo, hi);
		}
	}
	return v;
}

/* A counter's value in slot a, with what the current slot has pending. */
static uint64_t
slot_val(const struct model *m, uint64_t a, enum model_series s)
{
	const struct model_priv	*p = m->p;
	const struct mcap	*c;
	uint64_t		 v = p->slots[a % MODEL_NSLOTS].v[s];
	int			 i;

	if (s == MODEL_S_RUN_NS) {
		for (i = 0; i < m->prog.ncaps; i++)
			if ((c = (const struct mcap *)m->caps[i]) != NULL)
				v += c->run[a % MODEL_NSLOTS];
	}
	if (a == p->slot && s == MODEL_S_THREADS_LIVE)
		v = m->threads.live;
	if (a == p->slot && s == MODEL_S_EVENTS)
		v += m->totals.events - p->slot_events;
	if (a == p->slot && s == MODEL_S_BYTES)
		v += m->totals.bytes - p->slot_bytes;
	return v;
}

uint64_t
model_sum(const struct model *m, enum model_series s, enum model_win w)
{
	const struct model_priv	*p = m->p;
	uint64_t		 lo, a, v = 0;
	int			 i;

	if (!p->started)
		return 0;
	if (s >= MODEL_S_FIRST_GAUGE)
		return slot_val(m, p->slot, s);
	lo = model_win_start(m, w);
	if (w == MODEL_WRUN) {
		if (s == MODEL_S_EVENTS)
			return m->totals.events - p->run_events;
		if (s == MODEL_S_BYTES)
			return m->totals.bytes - p->run_bytes;
		if (s == MODEL_S_RUN_NS) {
			for (i = 0; i < m->prog.ncaps; i++)
				if (m->caps[i] != NULL)
					v += m->caps[i]->run_ns;
			return v + model_open_part(m, s, lo, m->now);
		}
		return p->run_tot[s] + model_open_part(m, s, lo, m->now);
	}
	for (a = lo / MODEL_SLOT_NS; a <= p->slot; a++)
		v += slot_val(m, a, s);
	return v + model_open_part(m, s, lo, m->now);
}

double
model_rate(const struct model *m, enum model_series s, enum model_win w)
{
	uint64_t	ns = model_win_ns(m, w);

	if (ns == 0)
		return 0;
	return (double)model_sum(m, s, w) * 1e9 / (double)ns;
}

/* The first slot of a history of at most n slots, not before the run. */
uint64_t
model_history_first(const struct model *m, int n)
{
	const struct model_priv	*p = m->p;
	uint64_t		 first = m->prog.start / MODEL_SLOT_NS, a;

	if (n > MODEL_NSLOTS)
		n = MODEL_NSLOTS;
	a = p->slot + 1 >= (uint64_t)n ? p->slot + 1 - (uint64_t)n : 0;
	return a > first ? a : first;
}

int
model_history(const struct model *m, enum model_series s, double *out, int n)
{
	const struct model_priv	*p = m->p;
	uint64_t		 a, lo;
	int			 k = 0;

	if (!p->started || n <= 0)
		return 0;
	for (a = model_history_first(m, n); a <= p->slot; a++) {
		out[k] = (double)slot_val(m, a, s);
		if (s < MODEL_S_FIRST_GAUGE) {
			lo = a * MODEL_SLOT_NS;
			out[k] += (double)model_open_part(m, s, lo,
			    lo + MODEL_SLOT_NS);
		}
		k++;
	}
	return k;
}

/* ------------------------------------------------------------------ */
/* Small windowed counters. */

/* Add v at slot s of a ring whose newest slot is *at; older slots drop. */
static void
wring_add(uint32_t *ring, uint32_t *at, uint64_t s, uint32_t v)
{
	uint32_t	i, d;

	if (s > *at) {
		d = s - *at >= WIN_SLOTS ? WIN_SLOTS : (uint32_t)(s - *at);
		for (i = 1; i <= d; i++)
			ring[(s - d + i) % WIN_SLOTS] = 0;
		*at = (uint32_t)s;
	} else if (*at - s >= WIN_SLOTS)
		return;
	if (ring[s % WIN_SLOTS] > UINT32_MAX - v)
		ring[s % WIN_SLOTS] = UINT32_MAX;
	else
		ring[s % WIN_SLOTS] += v;
}

/* The sum of slots lo..hi of a ring whose newest slot is at. */
uint64_t
wring_sum(const uint32_t *ring, uint64_t at, uint64_t lo, uint64_t hi)
{
	uint64_t	s, v = 0;

	if (hi > at)
		hi = at;
	if (at >= WIN_SLOTS && lo < at - WIN_SLOTS + 1)
		lo = at - WIN_SLOTS + 1;
	for (s = lo; s <= hi; s++)
		v += ring[s % WIN_SLOTS];
	return v;
}

void
wctr_add(struct wctr *w, uint64_t t, uint32_t v)
{
	wring_add(w->fine, &w->fine_at, t / MODEL_SLOT_NS, v);
	wring_add(w->coarse, &w->coarse_at, t / SEC_NS, v);
}

/* Add the length of [t0, t1) to the slots and seconds it covers. */
void
wctr_span(struct wctr *w, uint64_t t0, uint64_t t1)
{
	uint64_t	a, b, u, end, unit;
	int		pass;

	if (t1 <= t0)
		return;
	for (pass = 0; pass < 2; pass++) {
		unit = pass == 0 ? MODEL_SLOT_NS : SEC_NS;
		a = t0 / unit;
		b = (t1 - 1) / unit;
		if (b - a >= WIN_SLOTS)
			a = b - (WIN_SLOTS - 1);
		u = a * unit > t0 ? a * unit : t0;
		for (; a <= b; a++) {
			end = (a + 1) * unit;
			if (end > t1)
				end = t1;
			if (pass == 0)
				wring_add(w->fine, &w->fine_at, a,
				    (uint32_t)(end - u));
			else
				wring_add(w->coarse, &w->coarse_at, a,
				    (uint32_t)(end - u));
			u = end;
		}
	}
}

uint64_t
wctr_sum(const struct wctr *w, const struct model *m, enum model_win win)
{
	uint64_t	unit = win == MODEL_W1 ? MODEL_SLOT_NS : SEC_NS;
	uint64_t	lo = model_win_start(m, win) / unit, hi = m->now / unit;

	if (win == MODEL_W1)
		return wring_sum(w->fine, w->fine_at, lo, hi);
	return wring_sum(w->coarse, w->coarse_at, lo, hi);
}

/* ------------------------------------------------------------------ */

struct mcap *
model_cap_get(struct model *m, int32_t cap)
{
	struct mcap	*c;

	if (cap < 0)
		return NULL;
	if (cap >= MODEL_MAX_CAPS) {
		m->prog.caps_over++;
		return NULL;
	}
	if ((c = (struct mcap *)m->caps[cap]) != NULL)
		return c;
	c = model_calloc(m, 1, sizeof *c);
	c->pub.id = cap;
	c->pub.exists = 1;
	c->pub.enabled = 1;
	c->pub.state = MODEL_CAP_IDLE;
	c->pub.since = m->now;
	c->acct = m->now;
	m->caps[cap] = &c->pub;
	if (cap + 1 > m->prog.ncaps)
		m->prog.ncaps = cap + 1;
	return c;
}

void
model_reset_window(struct model *m)
{
	struct model_priv	*p = m->p;
	struct model_cap	*c;
	int			 i;

	model_reorder_flush(m);
	m->reset_at = m->now;
	p->run_events = m->totals.events;
	p->run_bytes = m->totals.bytes;
	p->epoch++;
	memset(p->run_tot, 0, sizeof p->run_tot);
	for (i = 0; i < m->prog.ncaps; i++) {
		if ((c = m->caps[i]) == NULL)
			continue;
		c->run_ns = c->gc_ns = 0;
	}
	m->prof.samples = 0;
	model_gc_reset_run(m);
}

/* The run window from now on, for the range [from, to). */
void
model_range_begin(struct model *m, uint64_t from, uint64_t to)
{
	struct model_range	*r = &m->range;

	model_reset_window(m);
	if (r->tags == NULL)
		r->tags = model_calloc(m, PROTO_NTAGS, sizeof *r->tags);
	memcpy(r->tags, m->tag_count, PROTO_NTAGS * sizeof *r->tags);
	r->on = 1;
	r->from_ns = from;
	r->to_ns = to;
	r->events = m->totals.events;
	r->bytes = m->totals.bytes;
	r->blocks = m->totals.blocks;
	r->created = m->threads.created;
	r->censuses = m->hprof.censuses;
	r->nm_censuses = m->nm.censuses;
	r->nm_census_events = m->nm.census_events;
	r->user = m->msgs.user;
	r->markers = m->msgs.markers;
}

/* Program events. */
/* The GHC version of the RTS identifier, "GHC-9.6.6 rts_thr_p": "9.6.6". */
static void
prog_ghc(struct model_prog *g)
{
	size_t	n = 0;

	g->ghc[0] = '\0';
	if (strncmp(g->rts_id, "GHC-", 4) != 0)
		return;
	while (n + 1 < sizeof g->ghc && g->rts_id[4 + n] != '\0' &&
	    g->rts_id[4 + n] != ' ')
		n++;
	memcpy(g->ghc, g->rts_id + 4, n);
	g->ghc[n] = '\0';
}

/*
 * The heap profiling options among the program's arguments (NUL-separated,
 * n bytes): -hX between +RTS and -RTS (or the end), the last one winning,
 * and --no-automatic-heap-samples.  -h alone is -hc in a profiled RTS and
 * -hT in any other.
 */
static void
prog_rts_opts(struct model_prog *g, const char *a, size_t n)
{
	/* Breakdowns 1.. by letter; -hC is GHC 8's -hc. */
	static const char letters[] = "cmdyrbTieC";
	const char	*w, *end = a + n, *l;
	size_t		 len;
	int		 rts = 0;

#define WORD_IS(s)	(len == sizeof(s) - 1 && memcmp(w, s, len) == 0)
	g->hp_opt_breakdown = 0;
	g->hp_opt_manual = 0;
	for (w = a; w < end; w += len + 1) {
		len = strnlen(w, (size_t)(end - w));
		if (WORD_IS("+RTS"))
			rts = 1;
		else if (WORD_IS("-RTS") || WORD_IS("--RTS"))
			rts = 0;
		else if (!rts)
			continue;
		else if (WORD_IS("--no-automatic-heap-samples"))
			g->hp_opt_manual = 1;
		else if (WORD_IS("-h"))
			g->hp_opt_breakdown = strstr(g->rts_id, "_p") != NULL ?
			    1 : 7;
		else if (len >= 3 && w[0] == '-' && w[1] == 'h' &&
		    (l = memchr(letters, w[2], sizeof letters - 1)) != NULL)
			g->hp_opt_breakdown = l[0] == 'C' ? 1 :
			    (uint32_t)(l - letters) + 1;
	}
#undef WORD_IS
}

static void
model_prog_event(struct model *m, const struct proto_ev *ev)
{
	struct model_priv	*p = m->p;
	struct model_prog	*g = &m->prog;
	char			 tmp[sizeof g->args];
	size_t			 n, i, k;
	static const char *const fnames[7] = {
		"module", "closure", "type", "cc", "ccs", "retainer", "bio"
	};

	switch (ev->kind) {
	case PROTO_RTS_IDENTIFIER:
		model_copy_text(g->rts_id, sizeof g->rts_id,
		    ev->u.capset_str.s.p, ev->u.capset_str.s.len);
		prog_ghc(g);
		p->sess_rts = 1;
		break;
	case PROTO_PROGRAM_ARGS:
		n = ev->u.capset_str.s.len;
		if (n > sizeof tmp)
			n = sizeof tmp;
		memcpy(tmp, ev->u.capset_str.s.p, n);
		while (n > 0 && tmp[n - 1] == '\0')
			n--;
		prog_rts_opts(g, tmp, n);
		for (i = 0; i < n; i++)
			if (tmp[i] == '\0')
				tmp[i] = ' ';
		model_copy_text(g->args, sizeof g->args, tmp, n);
		p->sess_args = 1;
		break;
	case PROTO_OSPROCESS_PID:
		/* Another pid in a new session is another program, even
		 * after some of its events: GHC >= 9.2 re-sends the pid on
		 * each connection, but a capability's block can begin
		 * before it. */
		if (p->sess_pid && g->has_pid && g->pid != ev->u.pid.pid)
			model_reset_program(m);
		p->sess_new = p->sess_pid = 0;
		g->pid = ev->u.pid.pid;
		g->has_pid = 1;
		break;
	case PROTO_OSPROCESS_PPID:
		g->ppid = ev->u.pid.pid;
		g->has_ppid = 1;
		break;
	case PROTO_WALL_CLOCK_TIME:
		g->has_wall = 1;
		g->wall_ns = ev->u.wall.sec * SEC_NS + ev->u.wall.nsec;
		g->wall_at = ev->time;
		break;
	case PROTO_HEAP_INFO_GHC:
		g->has_heap_info = 1;
		g->gens = ev->u.heap_info.gens;
		g->max_heap = ev->u.heap_info.max_heap;
		g->alloc_area = ev->u.heap_info.alloc_area;
		g->mblock = ev->u.heap_info.mblock;
		g->block = ev->u.heap_info.block;
		break;
	case PROTO_PROF_BEGIN:
		g->prof = 1;
		g->tick_ns = ev->u.prof_begin.interval;
		break;
	case PROTO_HEAP_PROF_BEGIN:
		g->heap_prof = 1;
		g->breakdown = ev->u.heap_prof_begin.breakdown;
		g->hp_interval = ev->u.heap_prof_begin.period;
		k = 0;
		g->hp_filters[0] = '\0';
		for (i = 0; i < 7; i++) {
			const struct proto_str *f =
			    &ev->u.heap_prof_begin.filter[i];
			int w;

			if (f->len == 0 || k + 16 >= sizeof g->hp_filters)
				continue;
			w = snprintf(g->hp_filters + k,
			    sizeof g->hp_filters - k, "%s%s=", k ? " " : "",
			    fnames[i]);
			if (w < 0)
				break;
			k += (size_t)w;
			model_copy_text(g->hp_filters + k,
			    sizeof g->hp_filters - k, f->p, f->len);
			k += strlen(g->hp_filters + k);
		}
		break;
	}
}

/* HEAP_ALLOCATED, frequent: apply_one() calls it directly. */
static void
heap_allocated(struct model *m, struct mcap *c, const struct proto_ev *ev)
{
	struct model_priv	*p = m->p;
	uint64_t		 b = ev->u.heap.bytes, d, *last;
	uint8_t			*has;
	unsigned		 i;

	/* Cumulative per cap (the RTS posts each cap's own count), or per
	 * capset for events without a cap. */
	if (c != NULL) {
		last = &c->alloc_last;
		has = &c->alloc_has;
	} else {
		i = ev->u.heap.capset & 7;
		if (p->alloc_set[i] != ev->u.heap.capset)
			p->alloc_has[i] = 0;
		p->alloc_set[i] = ev->u.heap.capset;
		last = &p->alloc_last[i];
		has = &p->alloc_has[i];
	}
	if (*has) {
		d = b >= *last ? b - *last : b;
		model_count(m, MODEL_S_ALLOC, ev->time, d);
	} else
		d = b;	/* since the start: no rate from it */
	m->heap.allocated += d;
	*has = 1;
	*last = b;
}

static void
model_heap_event(struct model *m, struct mcap *c, const struct proto_ev *ev)
{
	struct model_priv	*p = m->p;
	struct model_heap	*h = &m->heap;
	uint64_t		 b = ev->u.heap.bytes;

	switch (ev->kind) {
	case PROTO_HEAP_SIZE:
		h->size = b;
		if (b > h->size_max)
			h->size_max = b;
		model_gauge(m, MODEL_S_HEAP_SIZE, b);
		break;
	case PROTO_HEAP_LIVE:
		h->live = b;
		if (b > h->live_max)
			h->live_max = b;
		model_gauge(m, MODEL_S_HEAP_LIVE, b);
		/* The live bytes of the latest collection: the GC leader
		 * posts them after its own GC_END, before or after the other
		 * caps' (stat_endGC).  Open, it is p->open; ended, the
		 * record gcseq. */
		if (p->n_in_gc > 0)
			p->open.live = b;
		else if (p->live_pending) {
			p->gcrec[p->gcseq % MODEL_NGCREC].live = b;
			p->live_pending = 0;
		}
		break;
	case PROTO_BLOCKS_SIZE:
		h->blocks = b;
		model_gauge(m, MODEL_S_BLOCKS_SIZE, b);
		break;
	case PROTO_MEM_RETURN:
		h->mr_events++;
		h->mr_current = ev->u.mem_return.current;
		h->mr_needed = ev->u.mem_return.needed;
		h->mr_returned = ev->u.mem_return.returned;
		h->mr_returned_total += ev->u.mem_return.returned;
		break;
	}
}

static int
is_startup(uint16_t kind)
{
	switch (kind) {
	case PROTO_CAPSET_CREATE:
	case PROTO_CAPSET_DELETE:
	case PROTO_CAPSET_ASSIGN_CAP:
	case PROTO_CAPSET_REMOVE_CAP:
	case PROTO_RTS_IDENTIFIER:
	case PROTO_PROGRAM_ARGS:
	case PROTO_PROGRAM_ENV:
	case PROTO_OSPROCESS_PID:
	case PROTO_OSPROCESS_PPID:
	case PROTO_WALL_CLOCK_TIME:
	case PROTO_BLOCK_MARKER:
		return 1;
	}
	return 0;
}

/*
 * What an event does before its kind's handler: a new session or program,
 * the model's first event (then 1: the clock is set).  Rare, so off the
 * per-event path: the fast loop in model_apply_until() runs only while
 * neither can happen.
 */
static int
apply_begin(struct model *m, const struct proto_ev *ev)
{
	struct model_priv	*p = m->p;
	uint64_t		 t = ev->time;

	if (p->sess_new && !is_startup(ev->kind)) {
		/*
		 * Timestamps keep growing across reconnections to one
		 * process and start again near 0 in a new one; GHC 9.0.2
		 * tells the pid only at exit, so the clock decides first:
		 * a session that starts in the first half of what was seen
		 * is a new program.  (A quiet capability's block can reach
		 * back some way, never to the start of a long run.)
		 */
		if (p->started && t < m->now / 2 && t + MODEL_SLOT_NS < m->now)
			model_reset_program(m);
		p->sess_new = 0;
	}
	if (p->started)
		return 0;
	model_start(m, t);
	return 1;
}

/* The first event of a tag: it is listed. */
static void
tag_first(struct model *m, const struct proto_ev *ev)
{
	struct model_priv	*p = m->p;

	p->tags_seen[p->ntags_seen++] = ev->tag;
	if (ev->kind == PROTO_KIND_UNKNOWN)
		m->totals.unknown_tags++;
}

/*
 * Apply one event, in time order (or late); begin: it may be a session's
 * or the model's first (see apply_begin()), and the caller counts it if
 * late.  Block markers are the caller's.  p and tags are m->p and
 * m->tag_count, which never change: a loop over events keeps them at hand.
 */
static inline __attribute__((always_inline)) void
apply_one(struct model *m, struct model_priv *p, uint64_t *tags,
    const struct proto_ev *ev, int begin)
{
	struct mcap		*c;
	uint64_t		 t = ev->time, *tc;

	if (begin && (p->sess_new || !p->started) && apply_begin(m, ev))
		;	/* now is t */
	else if (t > m->now) {
		m->now = t;
		if (t >= p->slot_end)
			model_advance(m, t / MODEL_SLOT_NS);
	} else if (!begin && t < m->now)
		m->totals.late++;	/* (else the caller's count) */
	/*
	 * Events and bytes per slot and since the reset are differences of
	 * these totals (see model_advance); a late event counts now.  (The
	 * tag's count between the two keeps them apart: together the
	 * compiler makes one vector add of them, twice the instructions.)
	 */
	m->totals.bytes += ev->size;
	tc = &tags[ev->tag];
	if (*tc == 0)
		tag_first(m, ev);
	++*tc;
	m->totals.events++;

	/* One unsigned test for both "no cap" (-1) and "too high". */
	if ((uint32_t)ev->cap < MODEL_MAX_CAPS) {
		if ((c = (struct mcap *)m->caps[ev->cap]) == NULL)
			c = model_cap_get(m, ev->cap);
		c->pub.events++;
	} else if (ev->cap >= 0)
		c = model_cap_get(m, ev->cap);	/* counts it, gives NULL */
	else
		c = NULL;
	switch (ev->kind) {
	case PROTO_RUN_THREAD:
		model_thread_run(m, c, ev);
		break;
	case PROTO_STOP_THREAD:
		model_thread_stop(m, c, ev);
		break;
	case PROTO_GC_START:
		model_gc_start(m, c, t);
		break;
	case PROTO_GC_END:
		model_gc_end(m, c, t);
		break;
	case PROTO_REQUEST_SEQ_GC:
	case PROTO_REQUEST_PAR_GC:
		model_gc_request(m, t);
		break;
	case PROTO_GC_STATS_GHC:
		model_gc_stats(m, ev);
		break;
	case PROTO_SPARK_COUNTERS:
		if (c != NULL)
			model_spark_counters(m, c, ev);
		break;
	case PROTO_HEAP_ALLOCATED:
		heap_allocated(m, c, ev);
		break;
	case PROTO_CREATE_THREAD:
	case PROTO_THREAD_RUNNABLE:
	case PROTO_MIGRATE_THREAD:
	case PROTO_THREAD_WAKEUP:
	case PROTO_THREAD_LABEL:
	case PROTO_CREATE_SPARK_THREAD:
		model_threads_event(m, c, ev);
		break;
	case PROTO_GC_GLOBAL_SYNC:
		m->gc.syncs++;
		break;
	case PROTO_HEAP_SIZE:
	case PROTO_HEAP_LIVE:
	case PROTO_BLOCKS_SIZE:
	case PROTO_MEM_RETURN:
		model_heap_event(m, c, ev);
		break;
	case PROTO_CAP_CREATE:
	case PROTO_CAP_DELETE:
	case PROTO_CAP_ENABLE:
	case PROTO_CAP_DISABLE:
	case PROTO_SPARK_CREATE:
	case PROTO_SPARK_DUD:
	case PROTO_SPARK_OVERFLOW:
	case PROTO_SPARK_RUN:
	case PROTO_SPARK_STEAL:
	case PROTO_SPARK_FIZZLE:
	case PROTO_SPARK_GC:
	case PROTO_RUN_SPARK:
	case PROTO_STEAL_SPARK:
		model_caps_event(m, c, ev);
		break;
	case PROTO_CONC_MARK_BEGIN:
	case PROTO_CONC_MARK_END:
	case PROTO_CONC_SYNC_BEGIN:
	case PROTO_CONC_SYNC_END:
	case PROTO_CONC_SWEEP_BEGIN:
	case PROTO_CONC_SWEEP_END:
	case PROTO_CONC_UPD_REM_SET_FLUSH:
	case PROTO_NONMOVING_HEAP_CENSUS:
	case PROTO_NONMOVING_PRUNED_SEGMENTS:
		model_nm_event(m, ev);
		break;
	case PROTO_HEAP_PROF_COST_CENTRE:
	case PROTO_PROF_SAMPLE_COST_CENTRE:
	case PROTO_HEAP_PROF_SAMPLE_BEGIN:
	case PROTO_HEAP_BIO_PROF_SAMPLE_BEGIN:
	case PROTO_HEAP_PROF_SAMPLE_COST_CENTRE:
	case PROTO_HEAP_PROF_SAMPLE_STRING:
	case PROTO_HEAP_PROF_SAMPLE_END:
		model_prof_event(m, ev);
		break;
	case PROTO_IPE:
		model_ipe_event(m, ev);
		break;
	case PROTO_USER_MSG:
	case PROTO_USER_MARKER:
	case PROTO_LOG_MSG:
	case PROTO_USER_BINARY_MSG:
		model_msgs_event(m, ev);
		break;
	case PROTO_RTS_IDENTIFIER:
	case PROTO_PROGRAM_ARGS:
	case PROTO_OSPROCESS_PID:
	case PROTO_OSPROCESS_PPID:
	case PROTO_WALL_CLOCK_TIME:
	case PROTO_HEAP_INFO_GHC:
	case PROTO_PROF_BEGIN:
	case PROTO_HEAP_PROF_BEGIN:
		model_prog_event(m, ev);
		break;
	case PROTO_KIND_UNKNOWN:
		m->totals.unknown++;
		break;
	}
}

void
model_apply_one(struct model *m, const struct proto_ev *ev)
{
	if (ev->kind == PROTO_BLOCK_MARKER)
		m->totals.blocks++;
	else
		apply_one(m, m->p, m->tag_count, ev, 1);
}

/*
 * model_apply() on ev[0..n) up to the first event (block markers aside)
 * at or after time until: how many were applied.  One call per batch of
 * a file's events, stopping where --batch prints.
 */
size_t
model_apply_until(struct model *m, const struct proto_ev *ev, size_t n,
    uint64_t until)
{
	struct model_priv	*p = m->p;
	uint64_t		*tags = m->tag_count;
	const struct proto_ev	*e = ev, *end = ev + n;
	size_t			 i;

	if (p->ro.window != 0) {
		for (i = 0; i < n && (ev[i].time < until ||
		    ev[i].kind == PROTO_BLOCK_MARKER); i++)
			model_reorder_push(m, &ev[i]);
		return i;
	}
	/*
	 * Until the model has started and no new session is pending, each
	 * event is checked for those (apply_begin); after that nothing in
	 * the loop can start a session (only model_header() does), so the
	 * rest go without.  (m->now is 0 until the first event.)
	 */
	for (; e < end && (p->sess_new || !p->started); e++) {
		if (e->kind == PROTO_BLOCK_MARKER) {
			m->totals.blocks++;
			continue;
		}
		if (e->time >= until)
			return (size_t)(e - ev);
		if (e->time < m->now)
			m->totals.late++;
		apply_one(m, p, tags, e, 1);
	}
	for (; e < end; e++) {
		if (e->kind == PROTO_BLOCK_MARKER) {
			m->totals.blocks++;
			continue;
		}
		if (e->time >= until)
			break;
		apply_one(m, p, tags, e, 0);
	}
	return (size_t)(e - ev);
}
