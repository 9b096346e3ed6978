/*
 * model-gc.c: collections, pauses and the MMU, as the events come (the
 * figures of a window are model-gc-win.c's, the nonmoving collector
 * model-nm.c's).
 *
 * A collection starts at a GC_START when no cap is in GC and ends at the
 * GC_END that leaves none in GC (events without a cap count as one more
 * cap).  Each collection becomes a record in a ring of MODEL_NGCREC; the
 * whole-run figures are accumulated as collections end, the 1 s and 10 s
 * ones are sums by the 100 ms slot or the second of the collection's end
 * (struct gcwin), so that every figure is exact whatever the collection
 * rate.  Only the percentiles need the pauses themselves: exact while the
 * ring holds the window's records, else to a fine bucket (1/16 octave).
 * The MMU keeps the spans of its windows in a ring of its own.
 */
#include <stdlib.h>
#include <string.h>

#include "model/model-gc.h"

const uint64_t model_mmu_ns[MODEL_NMMU] = {
	10000000ULL, 100000000ULL, 1000000000ULL,
};

#define SPAN(p, seq)	(&(p)->span[(seq) % MMU_NSPAN])


void
model_gc_init(struct model *m)
{
	m->p->span = model_calloc(m, MMU_NSPAN, sizeof *m->p->span);
	model_gc_reset_run(m);
}

void
model_gc_free(struct model *m)
{
	mheap_free(m->p->span);
	m->p->span = NULL;
}

/*
 * Public histogram bucket of a pause: half octaves from 1 us, that is
 * 1 + floor(2 log2(ns / 1000)) for ns >= 1000; hist_lo[k - 1] is the
 * smallest pause in bucket k, ceil(1000 * 2^((k - 1) / 2)).
 */
static const uint64_t hist_lo[MODEL_NHIST - 1] = {
	1000, 1415, 2000, 2829, 4000, 5657, 8000, 11314, 16000, 22628,
	32000, 45255, 64000, 90510, 128000, 181020, 256000, 362039, 512000,
	724078, 1024000, 1448155, 2048000, 2896310, 4096000, 5792619,
	8192000, 11585238, 16384000, 23170476, 32768000, 46340951, 65536000,
	92681901, 131072000, 185363801, 262144000, 370727601, 524288000,
	741455201, 1048576000, 1482910401, 2097152000, 2965820801ULL,
	4194304000ULL, 5931641602ULL, 8388608000ULL,
};

int
model_gc_bucket(uint64_t ns)
{
	int	e, b;

	/* The number of bounds at or below ns: with 2^e <= ns / 1000 <
	 * 2^(e+1), bounds 0..2e are, 2e+2 is not, 2e+1 may be. */
	if (ns < 1000)
		return 0;
	e = 63 - __builtin_clzll(ns / 1000);
	if (2 * e + 1 >= MODEL_NHIST - 1)
		return MODEL_NHIST - 1;
	b = 2 * e + 1;
	return b + (ns >= hist_lo[b]);
}


static int64_t
rec_balance(const struct model_gc_rec *r)
{
	double	b;

	if (r->par_threads < 2 || r->par_max_copied == 0)
		return -1;
	b = (double)(r->par_balanced ? r->par_balanced : r->par_tot_copied);
	b = (b / (double)r->par_max_copied - 1) / (double)(r->par_threads - 1);
	b = b < 0 ? 0 : b > 1 ? 1 : b;
	return (int64_t)(b * (double)BAL_ONE + 0.5);
}

void
model_gc_reset_run(struct model *m)
{
	struct model_priv	*p = m->p;
	int			 i;

	memset(&p->run, 0, sizeof p->run);
	memset(p->fine_hist, 0, FINE_NHIST * sizeof *p->fine_hist);
	p->bal_n = 0;
	p->bal_sum = 0;
	/* A collection running now began before: it is not the run's. */
	p->run_first_seq = p->gcseq + 1 + (p->coll_open != 0);
	p->mmu_lost = 0;
	m->gc.collections = 0;
	m->gc.gc_ns = 0;
	for (i = 0; i < MODEL_NMMU; i++) {
		memset(&p->mmu[i], 0, sizeof p->mmu[i]);
		p->mmu[i].a_lo = p->mmu[i].b_k = p->mmu[i].b_h =
		    p->run_first_seq;
	}
}

/* ------------------------------------------------------------------ */
/* Minimum mutator utilisation. */

static uint64_t
sdur(const struct gcspan *r)
{
	return r->end - r->start;
}

/* Pause time of collections from..to (inclusive) within [lo, hi). */
static uint64_t
gc_in(const struct model_priv *p, uint64_t from, uint64_t to, uint64_t lo,
    uint64_t hi)
{
	uint64_t	s, v = 0;

	if (p->gcseq >= MMU_NSPAN && from <= p->gcseq - MMU_NSPAN)
		from = p->gcseq - MMU_NSPAN + 1;
	for (s = from; s <= to && s <= p->gcseq; s++) {
		if (SPAN(p, s)->start >= hi)
			break;
		v += model_overlap(SPAN(p, s)->start, SPAN(p, s)->end, lo,
		    hi);
	}
	return v;
}

/*
 * Span seq is about to leave the ring: windows still using it drop it,
 * and the MMU is no longer exact (more collections in a window than
 * MMU_NSPAN).
 */
static void
mmu_forget(struct model_priv *p, uint64_t seq)
{
	struct mmu	*u;
	int		 i;

	for (i = 0; i < MODEL_NMMU; i++) {
		u = &p->mmu[i];
		if (!u->first_done && seq >= p->run_first_seq)
			p->mmu_lost = 1;
		if (u->a_lo == seq) {
			u->a_sum -= sdur(SPAN(p, seq));
			u->a_lo++;
			p->mmu_lost = 1;
		}
		if (u->b_k == seq) {
			if (u->b_h > seq) {
				u->b_sum -= sdur(SPAN(p, seq));
			} else
				u->b_h = seq + 1;
			u->b_k++;
			p->mmu_lost = 1;
		}
	}
}

/*
 * Record j just closed: evaluate the windows it completes.  (The window's
 * state is worked on in locals: through u the compiler would reload it
 * after every store, as the records are uint64_t too.)
 */
static void
mmu_add(struct model *m, uint64_t j)
{
	struct model_priv	*p = m->p;
	const struct gcspan	*r = SPAN(p, j), *k, *h;
	struct mmu		*u;
	uint64_t		 w, g, start = m->reset_at, x, kw, worst;
	uint64_t		 rs = r->start, re = r->end, lo, sum, bk, bh;
	int			 i;

	for (i = 0; i < MODEL_NMMU; i++) {
		u = &p->mmu[i];
		w = model_mmu_ns[i];
		worst = u->worst;
		/* The window at the run's start, once a record starts past
		 * its end. */
		if (!u->first_done && rs >= start + w) {
			g = gc_in(p, p->run_first_seq, j, start, start + w);
			if (g > worst)
				worst = g;
			u->first_done = 1;
		}
		/* Windows ending at this record's end. */
		lo = u->a_lo;
		sum = u->a_sum + (re - rs);
		while (lo < j && SPAN(p, lo)->end + w <= re) {
			sum -= sdur(SPAN(p, lo));
			lo++;
		}
		u->a_lo = lo;
		u->a_sum = sum;
		if (re >= start + w) {
			x = re - w;
			g = sum;
			if (SPAN(p, lo)->start < x)
				g -= x - SPAN(p, lo)->start;
			if (g > worst)
				worst = g;
		}
		/* Windows starting at a record's start: complete once a
		 * later record starts past their end. */
		bk = u->b_k;
		bh = u->b_h;
		sum = u->b_sum;
		while (bk <= j) {
			k = SPAN(p, bk);
			kw = k->start + w;
			while (bh <= j && SPAN(p, bh)->start < kw) {
				sum += sdur(SPAN(p, bh));
				bh++;
			}
			if (bh > j)
				break;
			h = SPAN(p, bh - 1);
			g = sum;
			if (h->end > kw)
				g -= h->end - kw;
			if (g > worst)
				worst = g;
			sum -= sdur(k);
			bk++;
		}
		u->b_k = bk;
		u->b_h = bh;
		u->b_sum = sum;
		u->worst = worst;
	}
}

/* MMU now: the completed windows, the pending ones, and the last w. */
void
model_gc_mmu_now(const struct model *m, double *out, int *lost)
{
	const struct model_priv	*p = m->p;
	const struct mmu	*u;
	uint64_t		 w, g, worst, start = m->reset_at, s, end;
	uint64_t		 open_end = m->gc.in_gc ? m->now : 0;
	int			 i;

	for (i = 0; i < MODEL_NMMU; i++) {
		u = &p->mmu[i];
		w = model_mmu_ns[i];
		if (m->now < start + w) {
			out[i] = -1;
			continue;
		}
		worst = u->worst;
		/* The run's first window. */
		if (!u->first_done) {
			g = gc_in(p, p->run_first_seq, p->gcseq, start,
			    start + w);
			if (m->gc.in_gc)
				g += model_overlap(m->gc.open_start, open_end,
				    start, start + w);
			if (g > worst)
				worst = g;
		}
		/* The last w. */
		g = 0;
		for (s = p->gcseq; s >= p->run_first_seq && s >= 1; s--) {
			if (s + MMU_NSPAN <= p->gcseq) {
				*lost = 1;
				break;
			}
			if (SPAN(p, s)->end <= m->now - w)
				break;
			g += model_overlap(SPAN(p, s)->start, SPAN(p, s)->end,
			    m->now - w, m->now);
		}
		if (m->gc.in_gc)
			g += model_overlap(m->gc.open_start, open_end,
			    m->now - w, m->now);
		if (g > worst)
			worst = g;
		/* Pending start-aligned windows that have fully passed. */
		for (s = u->b_k; s <= p->gcseq; s++) {
			end = SPAN(p, s)->start + w;
			if (end > m->now)
				break;
			g = gc_in(p, s, p->gcseq, SPAN(p, s)->start, end);
			if (m->gc.in_gc)
				g += model_overlap(m->gc.open_start, open_end,
				    SPAN(p, s)->start, end);
			if (g > worst)
				worst = g;
		}
		out[i] = worst >= w ? 0 : 1 - (double)worst / (double)w;
	}
}

/* ------------------------------------------------------------------ */
/* The 1 s and 10 s windows: sums by slot or second. */

/* Window i's sums for slot or second n; NULL if the ring has moved past
 * it.  make: clear it for n if it holds an older one. */
static struct gcagg *
gcagg_at(struct model_priv *p, int i, uint64_t n, int make)
{
	struct gcagg	*a = &p->gcw[i].b[n % WIN_SLOTS];

	if (a->at == n + 1)
		return a;
	if (!make || a->at > n + 1)
		return NULL;
	memset(a, 0, sizeof *a);
	a->at = n + 1;
	return a;
}

/* Count a record that just ended, with its buckets, in both windows. */
static void
gcagg_add(struct model_priv *p, const struct model_gc_rec *r, int64_t bal,
    int hb, int fb)
{
	struct gcagg	*a;
	uint64_t	 pause = gc_dur(r);
	int		 i;

	for (i = 0; i < 2; i++) {
		if ((a = gcagg_at(p, i, r->end / GCW_UNIT(i), 1)) == NULL)
			continue;
		a->count++;
		if (r->gen == MODEL_GEN_UNKNOWN)
			a->count_nogen++;
		else
			gc_gen_count(a->count_gen, r->gen, 1);
		a->pause_total += pause;
		a->sync_total += r->sync_ns;
		a->copied += r->copied;
		if (pause > a->pmax)
			a->pmax = pause;
		if (r->sync_ns > a->smax)
			a->smax = r->sync_ns;
		if (bal >= 0) {
			a->bal_n++;
			a->bal_sum += (uint64_t)bal;
		}
		a->hist[hb]++;
		a->fine[fb]++;
	}
}

static void
stats_into(struct model *m, struct model_gc_rec *r, const struct proto_ev *ev,
    int counted)
{
	struct model_priv	*p = m->p;
	struct gcagg		*a;
	int64_t			 b = -1;
	int			 i;

	r->gen = ev->u.gc_stats.gen;
	r->copied = ev->u.gc_stats.copied;
	r->slop = ev->u.gc_stats.slop;
	r->frag = ev->u.gc_stats.frag;
	r->par_threads = ev->u.gc_stats.par_n_threads;
	r->par_max_copied = ev->u.gc_stats.par_max_copied;
	r->par_tot_copied = ev->u.gc_stats.par_tot_copied;
	r->par_balanced = ev->u.gc_stats.has_balanced ?
	    ev->u.gc_stats.par_balanced_copied : 0;
	model_count(m, MODEL_S_COPIED, ev->time, r->copied);
	if (!counted)
		return;
	/* The record was counted without a generation, copied bytes or
	 * balance: in the windows' sums of its end, and in the run. */
	b = p->gcx[r->seq % MODEL_NGCREC].bal = rec_balance(r);
	for (i = 0; i < 2; i++) {
		if ((a = gcagg_at(p, i, r->end / GCW_UNIT(i), 0)) == NULL)
			continue;
		a->count_nogen--;
		gc_gen_count(a->count_gen, r->gen, 1);
		a->copied += r->copied;
		if (b >= 0) {
			a->bal_n++;
			a->bal_sum += (uint64_t)b;
		}
	}
	if (r->seq < p->run_first_seq)
		return;
	p->run.count_nogen--;
	gc_gen_count(p->run.count_gen, r->gen, 1);
	p->run.copied += r->copied;
	if (b >= 0) {
		p->bal_n++;
		p->bal_sum += (uint64_t)b;
	}
}

static __attribute__((noinline)) void
gc_begin(struct model *m, uint64_t t)
{
	struct model_priv	*p = m->p;
	struct model_gc_rec	*r = &p->open;

	r->end = r->sync_ns = r->copied = r->slop = r->frag = 0;
	r->par_max_copied = r->par_tot_copied = r->par_balanced = 0;
	r->par_threads = 0;
	r->ncaps = 0;
	r->live = 0;
	r->start = t;
	r->gen = MODEL_GEN_UNKNOWN;
	r->seq = p->gcseq + 1;
	if (p->req_pending && p->req_time <= t)
		r->sync_ns = t - p->req_time;
	p->req_pending = 0;
	p->stats_pending = 0;
	p->live_pending = 0;
	m->gc.in_gc = 1;
	m->gc.open_start = t;
	p->gc_since = t;
}

static __attribute__((noinline)) void
gc_end(struct model *m, uint64_t t)
{
	struct model_priv	*p = m->p;
	struct model_gc_rec	*r;
	struct model_gc_win	*run = &p->run;
	struct gcspan		*sp;
	uint64_t		 pause;
	int64_t			 b;
	int			 hb, fb;

	if (t < p->open.start)
		t = p->open.start;
	p->open.end = t;
	pause = t - p->open.start;
	if (p->gcseq + 1 > MMU_NSPAN)
		mmu_forget(p, p->gcseq + 1 - MMU_NSPAN);
	r = REC(p, p->open.seq);
	*r = p->open;
	b = p->gcx[r->seq % MODEL_NGCREC].bal = rec_balance(r);
	hb = model_gc_bucket(pause);
	fb = gc_fine_bucket(pause);
	sp = SPAN(p, r->seq);
	sp->start = r->start;
	sp->end = t;
	gcagg_add(p, r, b, hb, fb);
	p->gcseq = r->seq;
	m->gc.recs = p->gcseq < MODEL_NGCREC ? p->gcseq : MODEL_NGCREC;
	m->gc.in_gc = 0;
	model_span(m, MODEL_S_GC_NS, p->gc_since, t);
	model_count(m, MODEL_S_GCS, t, 1);
	p->live_pending = 1;
	if (r->seq < p->run_first_seq) {
		/* Begun before the run window's reset: not the run's. */
		p->stats_pending = r->gen == MODEL_GEN_UNKNOWN;
		return;
	}
	m->gc.collections++;
	m->gc.gc_ns += pause;

	run->count++;
	run->pause_total += pause;
	if (pause > run->pause_max)
		run->pause_max = pause;
	run->hist[hb]++;
	p->fine_hist[fb]++;
	run->sync_total += r->sync_ns;
	if (r->sync_ns > run->sync_max)
		run->sync_max = r->sync_ns;
	if (r->gen == MODEL_GEN_UNKNOWN) {
		run->count_nogen++;
		p->stats_pending = 1;
	} else {
		gc_gen_count(run->count_gen, r->gen, 1);
		run->copied += r->copied;
		if (b >= 0) {
			p->bal_n++;
			p->bal_sum += (uint64_t)b;
		}
	}
	mmu_add(m, r->seq);
}

/* GC_START and GC_END come once per cap per collection: each has its own
 * entry (as the other frequent kinds have, below), the collection's start
 * and end are calls of their own. */
/* Who closes the open collection, besides a cap by its number. */
enum { GC_CLOSE_NONE = -3, GC_CLOSE_ALL = -2, GC_CLOSE_NOCAP = -1 };

/* c's number for close_on (NULL: the events without a cap). */
static int
gc_who(const struct model *m, const struct mcap *c)
{
	return c != NULL ? c->pub.id : GC_CLOSE_NOCAP;
}

/* Closed at t; by its leader (the GC_STATS_GHC poster) whose GC_START
 * was at s, from there: the pause the RTS measures (+RTS -s), where the
 * first GC_START may be a worker's, woken before its leader. */
static void
gc_close(struct model *m, uint64_t s, uint64_t t)
{
	struct model_priv	*p = m->p;

	if (s > p->open.start && s <= t)
		p->open.start = s;
	gc_end(m, t);
	p->coll_open = 0;
}

void
model_gc_start(struct model *m, struct mcap *c, uint64_t t)
{
	struct model_priv	*p = m->p;
	int			*in;

	in = c != NULL ? &c->in_gc : &p->nocap_in_gc;
	if (*in)
		return;
	*in = 1;
	if (c != NULL)
		c->gc_start_t = t;
	else
		p->nocap_start_t = t;
	/* Every cap out of GC and no GC_STATS_GHC came: it ended there. */
	if (p->coll_open && p->n_in_gc == 0)
		gc_close(m, 0, p->open_last_end);
	p->n_in_gc++;
	if (!p->coll_open) {
		gc_begin(m, t);
		p->coll_open = 1;
		p->close_on = GC_CLOSE_NONE;
		p->open_last_end = t;
	}
	p->open.ncaps++;
	if (c != NULL) {
		model_cap_close(m, c, t);
		c->cur = NULL;
		c->pub.state = MODEL_CAP_GC;
	}
}

/*
 * A collection closes at the GC_END that leaves no cap in GC; once the
 * log has GC_STATS_GHC, at its poster's (the leader's) GC_END instead: an
 * idle worker posts its GC_END when it wakes for the next collection,
 * after that one's first GC_START on -N4 (GHC 9.0, 9.6), which made two
 * collections one and a pause of both.
 */
void
model_gc_end(struct model *m, struct mcap *c, uint64_t t)
{
	struct model_priv	*p = m->p;
	int			*in;

	in = c != NULL ? &c->in_gc : &p->nocap_in_gc;
	if (!*in)
		return;
	*in = 0;
	if (c != NULL && c->pub.state == MODEL_CAP_GC) {
		model_cap_close(m, c, t);
		c->pub.state = MODEL_CAP_IDLE;
	}
	p->n_in_gc--;
	if (!p->coll_open)
		return;		/* a worker's, after its leader's */
	if (c != NULL) {
		c->gc_end_seq = p->open.seq;
		c->gc_end_t = t;
	} else {
		p->nocap_end_seq = p->open.seq;
		p->nocap_end_t = t;
	}
	if (t > p->open_last_end)
		p->open_last_end = t;
	if (p->close_on == gc_who(m, c))
		gc_close(m, c != NULL ? c->gc_start_t : p->nocap_start_t, t);
	else if (p->n_in_gc == 0 && (!p->stats_mode ||
	    p->close_on == GC_CLOSE_ALL))
		gc_close(m, 0, t);
}

/* REQUEST_SEQ_GC, REQUEST_PAR_GC. */
void
model_gc_request(struct model *m, uint64_t t)
{
	struct model_priv	*p = m->p;

	m->gc.requests++;
	if (!p->req_pending && (!p->coll_open || p->n_in_gc == 0)) {
		p->req_pending = 1;
		p->req_time = t;
	}
}

/*
 * GC_STATS_GHC: into the collection running, which its poster (c, the
 * leader) closes at its GC_END (see model_gc_end()); or into the last if
 * it awaits them (the first of a log, closed before they were known).
 */
void
model_gc_stats(struct model *m, struct mcap *c, const struct proto_ev *ev)
{
	struct model_priv	*p = m->p;
	int			 in = c != NULL ? c->in_gc : p->nocap_in_gc;
	uint64_t		 seq = c != NULL ? c->gc_end_seq :
				    p->nocap_end_seq;

	p->stats_mode = 1;
	if (p->coll_open) {
		stats_into(m, &p->open, ev, 0);
		if (in)
			p->close_on = gc_who(m, c);
		else if (seq == p->open.seq)
			gc_close(m, c != NULL ? c->gc_start_t :
			    p->nocap_start_t, c != NULL ? c->gc_end_t :
			    p->nocap_end_t);
		else if (p->n_in_gc == 0)
			gc_close(m, 0, p->open_last_end);
		else
			p->close_on = GC_CLOSE_ALL;	/* no leader seen */
	} else if (p->stats_pending && p->gcseq > 0) {
		stats_into(m, REC(p, p->gcseq), ev, 1);
		p->stats_pending = 0;
	}
}
