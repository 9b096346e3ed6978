/*
 * model-gc.c: collections, pauses, MMU, and the nonmoving collector.
 *
 * A collection starts at a GC_START when no cap is in GC and ends at the
 * GC_END that leaves none in GC (events without a cap count as one more
 * cap).  Each collection becomes a record in a ring of MODEL_NGCREC; the
 * whole-run figures are accumulated as collections end; the 1 s and 10 s
 * ones are kept as records enter and leave each window (struct gcwin),
 * brought up to date when asked (record by record when late events made
 * the ring's ends go back: then the windows are not runs of records).
 */
#include <stdlib.h>
#include <string.h>

#include "model-priv.h"

const uint64_t model_mmu_ns[MODEL_NMMU] = {
	10000000ULL, 100000000ULL, 1000000000ULL,
};

#define REC(p, seq)	(&(p)->gcrec[(seq) % MODEL_NGCREC])

void
model_gc_init(struct model *m)
{
	m->p->gcw[0].lo = m->p->gcw[1].lo = 1;
	model_gc_reset_run(m);
}

void
model_gc_free(struct model *m)
{
	(void)m;
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

static int
hist_bucket(uint64_t ns)
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

/* Fine bucket: exact below 16 ns, then 16 per octave. */
static int
fine_bucket(uint64_t v)
{
	int	msb;

	if (v < 16)
		return (int)v;
	msb = 63 - __builtin_clzll(v);
	return 16 + (msb - 4) * 16 + (int)((v >> (msb - 4)) & 15);
}

/* The middle of a fine bucket. */
static uint64_t
fine_value(int i)
{
	int	msb, sub;

	if (i < 16)
		return (uint64_t)i;
	msb = (i - 16) / 16 + 4;
	sub = (i - 16) % 16;
	return ((uint64_t)(16 + sub) << (msb - 4)) +
	    ((1ULL << (msb - 4)) >> 1);
}

/*
 * A collection's work balance, 0 to 1, in units of 1/BAL_ONE, or -1: in
 * integers so that a window's sum is the same whichever way it was added
 * up (kept as records come and go, or counted afresh).
 */
#define BAL_ONE		((int64_t)1 << 32)

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

static double
bal_mean(uint64_t n, uint64_t sum)
{
	return n > 0 ? (double)sum / (double)n / (double)BAL_ONE : -1;
}

static void
gen_count(uint64_t *count_gen, uint16_t gen, int d)
{
	count_gen[gen >= MODEL_NGEN ? MODEL_NGEN - 1 : gen] += d;
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
	p->run_first_seq = p->gcseq + 1 + (p->n_in_gc > 0);
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
dur(const struct model_gc_rec *r)
{
	return r->end - r->start;
}

/* Pause time of records from..to (inclusive) within [lo, hi). */
static uint64_t
gc_in(const struct model_priv *p, uint64_t from, uint64_t to, uint64_t lo,
    uint64_t hi)
{
	uint64_t	s, v = 0;

	if (p->gcseq >= MODEL_NGCREC && from <= p->gcseq - MODEL_NGCREC)
		from = p->gcseq - MODEL_NGCREC + 1;
	for (s = from; s <= to && s <= p->gcseq; s++) {
		if (REC(p, s)->start >= hi)
			break;
		v += model_overlap(REC(p, s)->start, REC(p, s)->end, lo, hi);
	}
	return v;
}

/* Record seq is about to leave the ring: windows still using it drop it. */
static void
mmu_forget(struct model_priv *p, uint64_t seq)
{
	struct mmu	*u;
	int		 i;

	for (i = 0; i < MODEL_NMMU; i++) {
		u = &p->mmu[i];
		if (u->a_lo == seq) {
			u->a_sum -= dur(REC(p, seq));
			u->a_lo++;
		}
		if (u->b_k == seq) {
			if (u->b_h > seq) {
				u->b_sum -= dur(REC(p, seq));
			} else
				u->b_h = seq + 1;
			u->b_k++;
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
	const struct model_gc_rec *r = REC(p, j), *k, *h;
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
		while (lo < j && REC(p, lo)->end + w <= re) {
			sum -= dur(REC(p, lo));
			lo++;
		}
		u->a_lo = lo;
		u->a_sum = sum;
		if (re >= start + w) {
			x = re - w;
			g = sum;
			if (REC(p, lo)->start < x)
				g -= x - REC(p, lo)->start;
			if (g > worst)
				worst = g;
		}
		/* Windows starting at a record's start: complete once a
		 * later record starts past their end. */
		bk = u->b_k;
		bh = u->b_h;
		sum = u->b_sum;
		while (bk <= j) {
			k = REC(p, bk);
			kw = k->start + w;
			while (bh <= j && REC(p, bh)->start < kw) {
				sum += dur(REC(p, bh));
				bh++;
			}
			if (bh > j)
				break;
			h = REC(p, bh - 1);
			g = sum;
			if (h->end > kw)
				g -= h->end - kw;
			if (g > worst)
				worst = g;
			sum -= dur(k);
			bk++;
		}
		u->b_k = bk;
		u->b_h = bh;
		u->b_sum = sum;
		u->worst = worst;
	}
}

/* MMU now: the completed windows, the pending ones, and the last w. */
static void
mmu_now(const struct model *m, double *out)
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
		for (s = p->gcseq; s >= p->run_first_seq && s >= 1 &&
		    s + MODEL_NGCREC > p->gcseq; s--) {
			if (REC(p, s)->end <= m->now - w)
				break;
			g += model_overlap(REC(p, s)->start, REC(p, s)->end,
			    m->now - w, m->now);
		}
		if (m->gc.in_gc)
			g += model_overlap(m->gc.open_start, open_end,
			    m->now - w, m->now);
		if (g > worst)
			worst = g;
		/* Pending start-aligned windows that have fully passed. */
		for (s = u->b_k; s <= p->gcseq; s++) {
			end = REC(p, s)->start + w;
			if (end > m->now)
				break;
			g = gc_in(p, s, p->gcseq, REC(p, s)->start, end);
			if (m->gc.in_gc)
				g += model_overlap(m->gc.open_start, open_end,
				    REC(p, s)->start, end);
			if (g > worst)
				worst = g;
		}
		out[i] = worst >= w ? 0 : 1 - (double)worst / (double)w;
	}
}

/* ------------------------------------------------------------------ */

/* ------------------------------------------------------------------ */
/* The 1 s and 10 s windows, kept as records come and go. */

#define SLOT(seq)	((uint16_t)((seq) % MODEL_NGCREC + 1))

/* Count record seq (the next after top) in the window. */
static void
gcwin_add(struct model_priv *p, struct gcwin *w, uint64_t seq)
{
	const struct model_gc_rec *r = REC(p, seq);
	const struct gcx	*x = &p->gcx[seq % MODEL_NGCREC];
	uint64_t		 pause = dur(r);
	int			 fb = x->fb;

	w->top = seq;
	w->count++;
	if (r->gen == MODEL_GEN_UNKNOWN)
		w->count_nogen++;
	else
		gen_count(w->count_gen, r->gen, 1);
	w->pause_total += pause;
	w->sync_total += r->sync_ns;
	w->copied += r->copied;
	w->hist[x->hb]++;
	if (w->pmax_seq != 0 && pause >= w->pmax) {
		w->pmax = pause;
		w->pmax_seq = seq;
	}
	if (w->smax_seq != 0 && r->sync_ns >= w->smax) {
		w->smax = r->sync_ns;
		w->smax_seq = seq;
	}
	if (x->bal >= 0) {
		w->bal_n++;
		w->bal_sum += (uint64_t)x->bal;
	}
	w->fcnt[fb]++;
	w->fnext[seq % MODEL_NGCREC] = 0;
	if (w->ftail[fb] != 0)
		w->fnext[w->ftail[fb] - 1] = SLOT(seq);
	else
		w->fhead[fb] = SLOT(seq);
	w->ftail[fb] = SLOT(seq);
}

/* The window's oldest counted record leaves it. */
static inline void
gcwin_drop(struct model_priv *p, struct gcwin *w)
{
	const struct model_gc_rec *r = REC(p, w->lo);
	const struct gcx	*x = &p->gcx[w->lo % MODEL_NGCREC];
	uint64_t		 pause = dur(r);
	int			 fb = x->fb;

	w->count--;
	if (r->gen == MODEL_GEN_UNKNOWN)
		w->count_nogen--;
	else
		gen_count(w->count_gen, r->gen, -1);
	w->pause_total -= pause;
	w->sync_total -= r->sync_ns;
	w->copied -= r->copied;
	w->hist[x->hb]--;
	if (w->pmax_seq == w->lo)
		w->pmax_seq = 0;
	if (w->smax_seq == w->lo)
		w->smax_seq = 0;
	if (x->bal >= 0) {
		w->bal_n--;
		w->bal_sum -= (uint64_t)x->bal;
	}
	/* The oldest of its bucket: the head of its list. */
	w->fcnt[fb]--;
	w->fhead[fb] = w->fnext[w->lo % MODEL_NGCREC];
	if (w->fhead[fb] == 0)
		w->ftail[fb] = 0;
	w->lo++;
}

/* Record seq is about to leave the ring: the windows let it go first. */
static void
gcwin_forget(struct model_priv *p, uint64_t seq)
{
	struct gcwin	*w;
	int		 i;

	for (i = 0; i < 2; i++) {
		w = &p->gcw[i];
		while (w->lo <= seq) {
			if (w->lo > w->top) {
				/* Not counted yet: nothing to take back. */
				w->lo = seq + 1;
				w->top = seq;
				break;
			}
			gcwin_drop(p, w);
		}
	}
}

static void
stats_into(struct model *m, struct model_gc_rec *r, const struct proto_ev *ev,
    int counted)
{
	struct model_priv	*p = m->p;
	int64_t			 b;

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
	if (counted)
		p->gcx[r->seq % MODEL_NGCREC].bal = rec_balance(r);
	if (!counted || r->seq < p->run_first_seq)
		return;
	/* The record was counted without a generation. */
	p->run.count_nogen--;
	gen_count(p->run.count_gen, r->gen, 1);
	p->run.copied += r->copied;
	if ((b = rec_balance(r)) >= 0) {
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
	struct gcx		*x;
	uint64_t		 pause;
	int64_t			 b;

	if (t < p->open.start)
		t = p->open.start;
	p->open.end = t;
	pause = t - p->open.start;
	if (p->gcseq + 1 > MODEL_NGCREC) {
		mmu_forget(p, p->gcseq + 1 - MODEL_NGCREC);
		gcwin_forget(p, p->gcseq + 1 - MODEL_NGCREC);
	}
	if (p->gcseq > 0 && t < REC(p, p->gcseq)->end)
		p->gc_backward = p->open.seq;
	r = REC(p, p->open.seq);
	*r = p->open;
	x = &p->gcx[r->seq % MODEL_NGCREC];
	x->bal = rec_balance(r);
	x->hb = (uint8_t)hist_bucket(pause);
	x->fb = (uint16_t)fine_bucket(pause);
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
	run->hist[x->hb]++;
	p->fine_hist[x->fb]++;
	run->sync_total += r->sync_ns;
	if (r->sync_ns > run->sync_max)
		run->sync_max = r->sync_ns;
	if (r->gen == MODEL_GEN_UNKNOWN) {
		run->count_nogen++;
		p->stats_pending = 1;
	} else {
		gen_count(run->count_gen, r->gen, 1);
		run->copied += r->copied;
		if ((b = x->bal) >= 0) {
			p->bal_n++;
			p->bal_sum += (uint64_t)b;
		}
	}
	mmu_add(m, r->seq);
}

/* GC_START and GC_END come once per cap per collection: each has its own
 * entry (as the other frequent kinds have, below), the collection's start
 * and end are calls of their own. */
void
model_gc_start(struct model *m, struct mcap *c, uint64_t t)
{
	struct model_priv	*p = m->p;
	int			*in;

	in = c != NULL ? &c->in_gc : &p->nocap_in_gc;
	if (*in)
		return;
	*in = 1;
	if (p->n_in_gc++ == 0)
		gc_begin(m, t);
	p->open.ncaps++;
	if (c != NULL) {
		model_cap_close(m, c, t);
		c->cur = NULL;
		c->pub.state = MODEL_CAP_GC;
	}
}

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
	if (--p->n_in_gc == 0)
		gc_end(m, t);
}

/* REQUEST_SEQ_GC, REQUEST_PAR_GC. */
void
model_gc_request(struct model *m, uint64_t t)
{
	struct model_priv	*p = m->p;

	m->gc.requests++;
	if (!p->req_pending && p->n_in_gc == 0) {
		p->req_pending = 1;
		p->req_time = t;
	}
}

/* GC_STATS_GHC: into the collection running, or the last if it awaits. */
void
model_gc_stats(struct model *m, const struct proto_ev *ev)
{
	struct model_priv	*p = m->p;

	if (p->n_in_gc > 0)
		stats_into(m, &p->open, ev, 0);
	else if (p->stats_pending && p->gcseq > 0) {
		stats_into(m, REC(p, p->gcseq), ev, 1);
		p->stats_pending = 0;
	}
}

/*
 * Put the k-th smallest of v[0..n) at v[k], smaller or equal ones before
 * it and larger or equal ones after (quickselect, median of three; a
 * range that shrinks too slowly is finished by insertion sort).
 */
static void
select_k(uint64_t *v, size_t n, size_t k)
{
	size_t		lo = 0, hi = n - 1, i, j, mid;
	uint64_t	piv, t;
	int		rounds = 0;

	while (hi > lo) {
		if (hi - lo < 16 || ++rounds > 64) {
			for (i = lo + 1; i <= hi; i++) {
				t = v[i];
				for (j = i; j > lo && v[j - 1] > t; j--)
					v[j] = v[j - 1];
				v[j] = t;
			}
			return;
		}
		mid = lo + (hi - lo) / 2;
		if (v[mid] < v[lo]) { t = v[mid]; v[mid] = v[lo]; v[lo] = t; }
		if (v[hi] < v[lo]) { t = v[hi]; v[hi] = v[lo]; v[lo] = t; }
		if (v[hi] < v[mid]) { t = v[hi]; v[hi] = v[mid]; v[mid] = t; }
		piv = v[mid];
		/* Hoare partition: v[lo..j] <= piv <= v[j+1..hi]. */
		i = lo - 1;
		j = hi + 1;
		for (;;) {
			do i++; while (v[i] < piv);
			do j--; while (v[j] > piv);
			if (i >= j)
				break;
			t = v[i]; v[i] = v[j]; v[j] = t;
		}
		if (k <= j)
			hi = j;
		else
			lo = j + 1;
	}
}

/* Nearest rank: the smallest value with at least pct% at or below it. */
static size_t
rank_index(uint64_t n, unsigned pct)
{
	uint64_t	r = (n * pct + 99) / 100;

	return r == 0 ? 0 : (size_t)(r - 1);
}

/*
 * The three percentiles of v[0..n), exactly, without sorting it all: the
 * values are counted by fine bucket (monotonic in the value), which tells
 * in which bucket each rank falls and its rank there; only those buckets'
 * values are gathered (into tmp) and selected from.
 */
static void
percentiles(uint64_t *v, size_t n, uint64_t *tmp, struct model_gc_win *out)
{
	uint16_t	cnt[FINE_NHIST];
	size_t		k[3], at[3], len[3], acc = 0, i, j;
	uint64_t	*res[3] = { &out->p50, &out->p90, &out->p99 };
	int		bk[3], b;

	k[0] = rank_index(n, 50);
	k[1] = rank_index(n, 90);
	k[2] = rank_index(n, 99);
	memset(cnt, 0, sizeof cnt);
	for (i = 0; i < n; i++)
		cnt[fine_bucket(v[i])]++;
	/* The bucket of each rank, and that rank within it. */
	for (b = 0, j = 0; j < 3; b++) {
		while (j < 3 && acc + cnt[b] > k[j]) {
			bk[j] = b;
			k[j] -= acc;
			j++;
		}
		acc += cnt[b];
	}
	/* Gather the distinct buckets' values, one after the other. */
	for (j = 0, i = 0; j < 3; j++) {
		if (j > 0 && bk[j] == bk[j - 1]) {
			at[j] = at[j - 1];
			len[j] = len[j - 1];
			continue;
		}
		at[j] = i;
		len[j] = cnt[bk[j]];
		i += len[j];
	}
	for (i = 0; i < n; i++) {
		b = fine_bucket(v[i]);
		if (b == bk[0])
			tmp[at[0]++] = v[i];
		else if (b == bk[1])
			tmp[at[1]++] = v[i];
		else if (b == bk[2])
			tmp[at[2]++] = v[i];
	}
	for (j = 0; j < 3; j++) {
		if (j > 0 && bk[j] == bk[j - 1])
			at[j] = at[j - 1];
		else
			at[j] -= len[j];	/* back to its start */
		select_k(tmp + at[j], len[j], k[j]);
		*res[j] = tmp[at[j] + k[j]];
	}
}

static uint64_t
hist_rank(const uint64_t *h, uint64_t n, unsigned pct, uint64_t max)
{
	uint64_t	r = (n * pct + 99) / 100, acc = 0, v;
	int		i;

	if (r == 0)
		r = 1;
	for (i = 0; i < FINE_NHIST; i++) {
		acc += h[i];
		if (acc >= r) {
			v = fine_value(i);
			return v > max ? max : v;
		}
	}
	return max;
}

/*
 * A 1 s or 10 s window from the kept counts: what the record by record
 * count gives (records from the newest back to the first ending before lo,
 * or to the ring's oldest), when ends are in order.  The newest record is
 * counted here, not kept, while GC_STATS_GHC may still change it.
 */
static void
window_kept(const struct model *m, struct gcwin *w, uint64_t lo,
    struct model_gc_win *out)
{
	struct model_priv	*p = m->p;
	const struct model_gc_rec *pend = NULL;
	uint64_t		 fin, s, pause, k[3], acc = 0, *res[3], bal_n;
	uint64_t		*tmp = p->scratch, bal_sum;
	size_t			 at, len[3];
	int			 bk[3], bp = -1, fb, j;
	uint16_t		 x;

	memset(out, 0, sizeof *out);
	out->exact = 1;
	out->balance = -1;
	if (p->gcseq == 0)
		return;
	/* Count the records made final since, drop those now too old. */
	fin = p->stats_pending ? p->gcseq - 1 : p->gcseq;
	if (w->top + 1 < w->lo)
		w->top = w->lo - 1;
	for (s = w->top + 1; s <= fin; s++)
		gcwin_add(p, w, s);
	while (w->lo <= w->top && REC(p, w->lo)->end < lo)
		gcwin_drop(p, w);
	if (fin < p->gcseq && REC(p, p->gcseq)->end >= lo)
		pend = REC(p, p->gcseq);
	if (w->lo > w->top && pend == NULL)
		return;

	out->count = w->count;
	out->count_nogen = w->count_nogen;
	memcpy(out->count_gen, w->count_gen, sizeof out->count_gen);
	out->pause_total = w->pause_total;
	out->sync_total = w->sync_total;
	out->copied = w->copied;
	memcpy(out->hist, w->hist, sizeof out->hist);
	if (w->pmax_seq == 0) {
		/* The longest pause left: find the next. */
		for (w->pmax = 0, s = w->lo; s <= w->top; s++) {
			if (dur(REC(p, s)) >= w->pmax) {
				w->pmax = dur(REC(p, s));
				w->pmax_seq = s;
			}
		}
	}
	if (w->smax_seq == 0) {
		for (w->smax = 0, s = w->lo; s <= w->top; s++) {
			if (REC(p, s)->sync_ns >= w->smax) {
				w->smax = REC(p, s)->sync_ns;
				w->smax_seq = s;
			}
		}
	}
	out->pause_max = w->lo <= w->top ? w->pmax : 0;
	out->sync_max = w->lo <= w->top ? w->smax : 0;
	if (pend != NULL) {
		pause = dur(pend);
		out->count++;
		if (pend->gen == MODEL_GEN_UNKNOWN)
			out->count_nogen++;
		else
			gen_count(out->count_gen, pend->gen, 1);
		out->pause_total += pause;
		out->sync_total += pend->sync_ns;
		out->copied += pend->copied;
		out->hist[hist_bucket(pause)]++;
		if (pause > out->pause_max)
			out->pause_max = pause;
		if (pend->sync_ns > out->sync_max)
			out->sync_max = pend->sync_ns;
		bp = fine_bucket(pause);
	}
	bal_n = w->lo <= w->top ? w->bal_n : 0;
	bal_sum = w->lo <= w->top ? w->bal_sum : 0;
	if (pend != NULL && p->gcx[p->gcseq % MODEL_NGCREC].bal >= 0) {
		bal_n++;
		bal_sum += (uint64_t)p->gcx[p->gcseq % MODEL_NGCREC].bal;
	}
	out->balance = bal_mean(bal_n, bal_sum);
	/* Older records than the ring holds may be in the window. */
	out->exact = !(p->gcseq > MODEL_NGCREC &&
	    REC(p, p->gcseq - MODEL_NGCREC + 1)->end >= lo);

	/* Percentiles: the bucket of each rank, then its pauses. */
	k[0] = rank_index(out->count, 50);
	k[1] = rank_index(out->count, 90);
	k[2] = rank_index(out->count, 99);
	res[0] = &out->p50;
	res[1] = &out->p90;
	res[2] = &out->p99;
	for (fb = 0, j = 0; j < 3; fb++) {
		while (j < 3 && acc + w->fcnt[fb] + (fb == bp) > k[j]) {
			bk[j] = fb;
			k[j] -= acc;
			j++;
		}
		acc += w->fcnt[fb] + (fb == bp);
	}
	for (j = 0, at = 0; j < 3; j++) {
		if (j > 0 && bk[j] == bk[j - 1]) {
			len[j] = len[j - 1];
			at -= len[j];
		} else {
			len[j] = 0;
			for (x = w->fhead[bk[j]]; x != 0; x = w->fnext[x - 1])
				tmp[at + len[j]++] = dur(&p->gcrec[x - 1]);
			if (bk[j] == bp)
				tmp[at + len[j]++] = dur(pend);
		}
		select_k(tmp + at, len[j], (size_t)k[j]);
		*res[j] = tmp[at + k[j]];
		at += len[j];
	}
}

/* A 1 s or 10 s window counted record by record, from the newest back. */
static void
window_scan(const struct model *m, uint64_t lo, struct model_gc_win *out)
{
	const struct model_priv	*p = m->p;
	const struct model_gc_rec *r;
	uint64_t		 s, n = 0, pause, bal_n = 0, bal_sum = 0;
	int64_t			 b;

	memset(out, 0, sizeof *out);
	out->exact = 1;
	for (s = p->gcseq; s >= 1; s--) {
		if (s + MODEL_NGCREC <= p->gcseq) {
			out->exact = 0;
			break;
		}
		r = REC(p, s);
		if (r->end < lo)
			break;
		pause = dur(r);
		p->scratch[n++] = pause;
		out->count++;
		if (r->gen == MODEL_GEN_UNKNOWN)
			out->count_nogen++;
		else
			gen_count(out->count_gen, r->gen, 1);
		out->pause_total += pause;
		if (pause > out->pause_max)
			out->pause_max = pause;
		out->sync_total += r->sync_ns;
		if (r->sync_ns > out->sync_max)
			out->sync_max = r->sync_ns;
		out->copied += r->copied;
		out->hist[hist_bucket(pause)]++;
		if ((b = p->gcx[s % MODEL_NGCREC].bal) >= 0) {
			bal_n++;
			bal_sum += (uint64_t)b;
		}
	}
	if (n > 0)
		percentiles(p->scratch, (size_t)n, p->scratch2, out);
	out->balance = bal_mean(bal_n, bal_sum);
}

void
model_gc_window(const struct model *m, enum model_win w,
    struct model_gc_win *out)
{
	const struct model_priv	*p = m->p;
	uint64_t		 lo, s, n = 0;
	int			 all = 1;

	lo = model_win_start(m, w);
	if (w == MODEL_WRUN) {
		*out = p->run;
		/* Exact percentiles only while the ring holds the whole run. */
		if (p->gcseq >= MODEL_NGCREC && (p->run_first_seq > 1 ?
		    p->run_first_seq : 1) + MODEL_NGCREC <= p->gcseq)
			all = 0;
		for (s = p->gcseq; all && s >= p->run_first_seq && s >= 1;
		    s--) {
			if (s + MODEL_NGCREC <= p->gcseq) {
				all = 0;
				break;
			}
			p->scratch[n++] = dur(REC(p, s));
		}
		out->exact = all;
		if (n > 0 && all)
			percentiles(p->scratch, (size_t)n, p->scratch2, out);
		else if (out->count > 0) {
			out->p50 = hist_rank(p->fine_hist, out->count, 50,
			    out->pause_max);
			out->p90 = hist_rank(p->fine_hist, out->count, 90,
			    out->pause_max);
			out->p99 = hist_rank(p->fine_hist, out->count, 99,
			    out->pause_max);
		}
		out->balance = bal_mean(p->bal_n, p->bal_sum);
	} else if (p->gc_backward == 0 || p->gc_backward + MODEL_NGCREC <=
	    p->gcseq + 1) {
		window_kept(m, &p->gcw[w == MODEL_W10], lo, out);
#ifdef MODEL_GC_CHECK
		{
			struct model_gc_win	chk;

			window_scan(m, lo, &chk);
			if (memcmp(&chk, out, sizeof chk) != 0) {
				fprintf(stderr, "model_gc_window: kept and "
				    "scanned windows differ: w %d count %llu/"
				    "%llu max %llu/%llu p50 %llu/%llu p99 "
				    "%llu/%llu exact %d/%d\n", w,
				    (unsigned long long)out->count,
				    (unsigned long long)chk.count,
				    (unsigned long long)out->pause_max,
				    (unsigned long long)chk.pause_max,
				    (unsigned long long)out->p50,
				    (unsigned long long)chk.p50,
				    (unsigned long long)out->p99,
				    (unsigned long long)chk.p99, out->exact,
				    chk.exact);
				abort();
			}
		}
#endif
	} else {
		/* Ends out of order in the ring: the window is not a run of
		 * records. */
		window_scan(m, lo, out);
	}
	out->gc_ns = model_sum(m, MODEL_S_GC_NS, w);
	out->dur_ns = m->now - lo;
	out->productivity = out->dur_ns > 0 ? 1 - (double)out->gc_ns /
	    (double)out->dur_ns : 1;
	if (out->productivity < 0)
		out->productivity = 0;
	if (w == MODEL_WRUN)
		mmu_now(m, out->mmu);
	else
		out->mmu[0] = out->mmu[1] = out->mmu[2] = -1;
}

const struct model_gc_rec *
model_gc_recent(const struct model *m, int i)
{
	const struct model_priv	*p = m->p;

	if (i < 0 || (uint64_t)i >= m->gc.recs)
		return NULL;
	return REC(p, p->gcseq - (uint64_t)i);
}

/* ------------------------------------------------------------------ */
/* The nonmoving collector. */

static struct model_nm_rec *
nm_cur(struct model *m, uint64_t t)
{
	struct model_priv	*p = m->p;
	struct model_nm_rec	*r;

	if (!p->nm_open) {
		p->nmseq++;
		r = &p->nmrec[(p->nmseq - 1) % MODEL_NNMREC];
		memset(r, 0, sizeof *r);
		r->mark_start = t;
		p->nm_open = 1;
		p->nm_synced = 0;
		m->nm.recs = p->nmseq < MODEL_NNMREC ? p->nmseq : MODEL_NNMREC;
	}
	return &p->nmrec[(p->nmseq - 1) % MODEL_NNMREC];
}

static void
nm_census(struct model *m, const struct proto_ev *ev)
{
	struct model_priv	*p = m->p;
	struct model_nonmoving	*nm = &m->nm;
	struct model_nm_size	*z;
	uint32_t		 bs = ev->u.census.blk_size;
	uint64_t		 per;

	nm->census_events++;
	/* A run of census events is one census: the previous event (block
	 * markers aside, as they are not counted) was one of it. */
	if (p->nm_census_at == 0 || p->nm_census_at + 1 != m->totals.events) {
		nm->censuses++;
		nm->nsizes = 0;
		nm->live_bytes = nm->seg_bytes = 0;
	}
	p->nm_census_at = m->totals.events;
	nm->census_time = ev->time;
	if (nm->nsizes >= MODEL_NM_SIZES)
		return;
	z = &nm->sizes[nm->nsizes++];
	z->blk_size = bs;
	z->active = ev->u.census.active;
	z->filled = ev->u.census.filled;
	z->live = ev->u.census.live;
	per = bs > 0 ? (NM_SEG_BYTES - NM_SEG_HDR) / ((uint64_t)bs + 1) : 0;
	z->capacity = per * ((uint64_t)z->active + z->filled);
	z->occupancy = z->capacity > 0 ? (double)z->live /
	    (double)z->capacity : 0;
	if (z->occupancy > 1)
		z->occupancy = 1;
	z->frag = z->capacity > 0 ? 1 - z->occupancy : 0;
	nm->live_bytes += (uint64_t)z->live * bs;
	nm->seg_bytes += ((uint64_t)z->active + z->filled) * NM_SEG_BYTES;
}

/*
 * A cycle: marking (CONC_MARK_BEGIN..END, again during the sync), the
 * sync pause (the first CONC_SYNC_BEGIN to the first CONC_SYNC_END), the
 * sweep.  A mark that begins when no cycle is open, or after the cycle's
 * sync ended, starts a new cycle; the sweep's end closes it.
 */
void
model_nm_event(struct model *m, const struct proto_ev *ev)
{
	struct model_priv	*p = m->p;
	struct model_nonmoving	*nm = &m->nm;
	struct model_nm_rec	*r;
	uint64_t		 t = ev->time, d;

	switch (ev->kind) {
	case PROTO_NONMOVING_HEAP_CENSUS:
		nm_census(m, ev);
		return;
	case PROTO_NONMOVING_PRUNED_SEGMENTS:
		nm->pruned_events++;
		nm->pruned_last = ev->u.pruned.pruned;
		nm->free_last = ev->u.pruned.free;
		nm->pruned_total += ev->u.pruned.pruned;
		return;
	case PROTO_CONC_UPD_REM_SET_FLUSH:
		nm->flushes++;
		return;
	case PROTO_CONC_MARK_BEGIN:
		if (p->nm_open && p->nm_synced && !p->nm_in_sync)
			p->nm_open = 0;
		r = nm_cur(m, t);
		p->nm_mark_since = t;
		p->nm_marking = 1;
		if (!p->nm_in_sync)
			nm->phase = MODEL_NM_MARK;
		break;
	case PROTO_CONC_MARK_END:
		r = nm_cur(m, t);
		d = p->nm_marking && t > p->nm_mark_since ?
		    t - p->nm_mark_since : 0;
		p->nm_marking = 0;
		r->mark_ns += d;
		r->marked += ev->u.mark_end.marked;
		nm->marks++;
		nm->mark_ns += d;
		nm->marked += ev->u.mark_end.marked;
		if (!p->nm_in_sync)
			nm->phase = MODEL_NM_IDLE;
		break;
	case PROTO_CONC_SYNC_BEGIN:
		r = nm_cur(m, t);
		if (p->nm_in_sync)
			return;
		p->nm_in_sync = 1;
		r->sync_start = t;
		nm->phase = MODEL_NM_SYNC;
		break;
	case PROTO_CONC_SYNC_END:
		r = nm_cur(m, t);
		if (!p->nm_in_sync)
			return;
		p->nm_in_sync = 0;
		p->nm_synced = 1;
		d = t > r->sync_start ? t - r->sync_start : 0;
		r->sync_ns = d;
		nm->syncs++;
		nm->sync_ns += d;
		if (d > nm->sync_max_ns)
			nm->sync_max_ns = d;
		nm->phase = MODEL_NM_IDLE;
		break;
	case PROTO_CONC_SWEEP_BEGIN:
		r = nm_cur(m, t);
		r->sweep_start = t;
		nm->phase = MODEL_NM_SWEEP;
		break;
	case PROTO_CONC_SWEEP_END:
		r = nm_cur(m, t);
		d = r->sweep_start != 0 && t > r->sweep_start ?
		    t - r->sweep_start : 0;
		r->sweep_ns = d;
		nm->sweeps++;
		nm->sweep_ns += d;
		nm->phase = MODEL_NM_IDLE;
		p->nm_open = 0;
		break;
	default:
		return;
	}
	nm->phase_since = t;
}

const struct model_nm_rec *
model_nm_recent(const struct model *m, int i)
{
	const struct model_priv	*p = m->p;

	if (i < 0 || (uint64_t)i >= m->nm.recs)
		return NULL;
	return &p->nmrec[(p->nmseq - 1 - (uint64_t)i) % MODEL_NNMREC];
}
