/*
 * model-core.c: the model's ground, which every area (model-caps.c,
 * model-gc.c, ...) builds on and which calls none of them: its memory,
 * its clock and 100 ms history slots, spans split over the slots they
 * cover, windowed counters, and the capabilities' records.
 *
 * Each applied event advances "now" (the newest event time) and, when it
 * crosses into a new 100 ms slot, rolls the history ring forward.  Counters
 * go into the slot of their event; spans (a cap running, a collection) are
 * split over the slots they cover when they close.  The figures for a
 * window are sums over its slots, plus the part of any span still open.
 */
#include <stdlib.h>
#include <string.h>

#include "model/model-priv.h"

/* n things of size bytes, cleared, in m's heap (model-mem.c). */
void *
model_calloc(const struct model *m, size_t n, size_t size)
{
	if (size != 0 && n > SIZE_MAX / size) {
		fprintf(stderr, "evtop: out of memory\n");
		abort();
	}
	return mheap_alloc(mheap_of(m), n * size);
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
void
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
}

void
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
