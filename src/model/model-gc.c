/*
 * model-gc.c: collections, pauses, MMU, and the nonmoving collector.
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

#include "model/model-priv.h"

const uint64_t model_mmu_ns[MODEL_NMMU] = {
	10000000ULL, 100000000ULL, 1000000000ULL,
};

#define REC(p, seq)	(&(p)->gcrec[(seq) % MODEL_NGCREC])
#define SPAN(p, seq)	(&(p)->span[(seq) % MMU_NSPAN])

/* The bucket length of the windows' sums: gcw[0] MODEL_W1, gcw[1] W10. */
static const uint64_t gcw_unit[2] = { MODEL_SLOT_NS, SEC_NS };

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
dur(const struct model_gc_rec *r)
{
	return r->end - r->start;
}

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
static void
mmu_now(const struct model *m, double *out, int *lost)
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
	uint64_t	 pause = dur(r);
	int		 i;

	for (i = 0; i < 2; i++) {
		if ((a = gcagg_at(p, i, r->end / gcw_unit[i], 1)) == NULL)
			continue;
		a->count++;
		if (r->gen == MODEL_GEN_UNKNOWN)
			a->count_nogen++;
		else
			gen_count(a->count_gen, r->gen, 1);
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
		if ((a = gcagg_at(p, i, r->end / gcw_unit[i], 0)) == NULL)
			continue;
		a->count_nogen--;
		gen_count(a->count_gen, r->gen, 1);
		a->copied += r->copied;
		if (b >= 0) {
			a->bal_n++;
			a->bal_sum += (uint64_t)b;
		}
	}
	if (r->seq < p->run_first_seq)
		return;
	p->run.count_nogen--;
	gen_count(p->run.count_gen, r->gen, 1);
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
	hb = hist_bucket(pause);
	fb = fine_bucket(pause);
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
		gen_count(run->count_gen, r->gen, 1);
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
 * The pauses of the ring's records in window i's sums first..last, into
 * v, up to want of them (all the window holds: no more are there).
 */
static size_t
window_pauses(const struct model_priv *p, int i, uint64_t first,
    uint64_t last, uint64_t *v, uint64_t want)
{
	uint64_t	s, n;
	size_t		k = 0;

	for (s = p->gcseq; s >= 1 && s + MODEL_NGCREC > p->gcseq &&
	    k < want; s--) {
		n = REC(p, s)->end / gcw_unit[i];
		if (n >= first && n <= last)
			v[k++] = dur(REC(p, s));
	}
	return k;
}

/* A 1 s or 10 s window (i: 0 or 1) starting at lo: its sums added up. */
static void
window_sums(const struct model *m, int i, uint64_t lo,
    struct model_gc_win *out)
{
	const struct model_priv	*p = m->p;
	const struct gcagg	*a;
	uint64_t		 first = lo / gcw_unit[i], n;
	uint64_t		 last = m->now / gcw_unit[i];
	uint64_t		 cnt[FINE_NHIST], bal_n = 0, bal_sum = 0;
	int			 k, j;

	memset(out, 0, sizeof *out);
	memset(cnt, 0, sizeof cnt);
	for (k = 0; k < WIN_SLOTS; k++) {
		a = &p->gcw[i].b[k];
		if (a->at == 0 || a->at - 1 < first || a->at - 1 > last ||
		    a->count == 0)
			continue;
		out->count += a->count;
		out->count_nogen += a->count_nogen;
		for (j = 0; j < MODEL_NGEN; j++)
			out->count_gen[j] += a->count_gen[j];
		out->pause_total += a->pause_total;
		out->sync_total += a->sync_total;
		out->copied += a->copied;
		if (a->pmax > out->pause_max)
			out->pause_max = a->pmax;
		if (a->smax > out->sync_max)
			out->sync_max = a->smax;
		bal_n += a->bal_n;
		bal_sum += a->bal_sum;
		for (j = 0; j < MODEL_NHIST; j++)
			out->hist[j] += a->hist[j];
		for (j = 0; j < FINE_NHIST; j++)
			cnt[j] += a->fine[j];
	}
	out->balance = bal_mean(bal_n, bal_sum);
	out->exact = 1;
	if (out->count == 0)
		return;
	/* Exact percentiles from the pauses while the ring holds them all,
	 * else the fine buckets' middles. */
	n = window_pauses(p, i, first, last, p->scratch, out->count);
	if (n == out->count) {
		percentiles(p->scratch, (size_t)n, p->scratch2, out);
		return;
	}
	out->exact = 0;
	out->p50 = hist_rank(cnt, out->count, 50, out->pause_max);
	out->p90 = hist_rank(cnt, out->count, 90, out->pause_max);
	out->p99 = hist_rank(cnt, out->count, 99, out->pause_max);
}

#ifdef MODEL_GC_CHECK
/*
 * The window counted record by record from the ring, to check the sums
 * against (tests/perf/t_gcwin.c) whenever the ring holds the window.
 */
static void
window_check(const struct model *m, int i, uint64_t lo,
    const struct model_gc_win *got)
{
	const struct model_priv	*p = m->p;
	const struct model_gc_rec *r;
	struct model_gc_win	 chk;
	uint64_t		 first = lo / gcw_unit[i], s, e, pause;
	uint64_t		 last = m->now / gcw_unit[i], bal_n = 0;
	uint64_t		 bal_sum = 0;
	size_t			 n = 0;
	int64_t			 b;

	memset(&chk, 0, sizeof chk);
	chk.exact = 1;
	for (s = p->gcseq; s >= 1 && s + MODEL_NGCREC > p->gcseq; s--) {
		r = REC(p, s);
		e = r->end / gcw_unit[i];
		if (e < first || e > last)
			continue;
		pause = dur(r);
		p->scratch[n++] = pause;
		chk.count++;
		if (r->gen == MODEL_GEN_UNKNOWN)
			chk.count_nogen++;
		else
			gen_count(chk.count_gen, r->gen, 1);
		chk.pause_total += pause;
		if (pause > chk.pause_max)
			chk.pause_max = pause;
		chk.sync_total += r->sync_ns;
		if (r->sync_ns > chk.sync_max)
			chk.sync_max = r->sync_ns;
		chk.copied += r->copied;
		chk.hist[hist_bucket(pause)]++;
		if ((b = p->gcx[s % MODEL_NGCREC].bal) >= 0) {
			bal_n++;
			bal_sum += (uint64_t)b;
		}
	}
	/* The ring holds every record made, or as many as the sums count:
	 * then it holds the window. */
	if (p->gcseq > MODEL_NGCREC && chk.count != got->count)
		return;
	if (n > 0)
		percentiles(p->scratch, n, p->scratch2, &chk);
	chk.balance = bal_mean(bal_n, bal_sum);
	if (memcmp(&chk, got, sizeof chk) != 0) {
		fprintf(stderr, "model_gc_window: sums and records differ: "
		    "w %d count %llu/%llu max %llu/%llu p50 %llu/%llu p99 "
		    "%llu/%llu exact %d/%d\n", i,
		    (unsigned long long)got->count,
		    (unsigned long long)chk.count,
		    (unsigned long long)got->pause_max,
		    (unsigned long long)chk.pause_max,
		    (unsigned long long)got->p50, (unsigned long long)chk.p50,
		    (unsigned long long)got->p99, (unsigned long long)chk.p99,
		    got->exact, chk.exact);
		abort();
	}
}
#endif

void
model_gc_window(const struct model *m, enum model_win w,
    struct model_gc_win *out)
{
	const struct model_priv	*p = m->p;
	uint64_t		 lo, s, n = 0;
	int			 all = 1, lost = 0;

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
	} else {
		window_sums(m, w == MODEL_W10, lo, out);
#ifdef MODEL_GC_CHECK
		window_check(m, w == MODEL_W10, lo, out);
#endif
	}
	out->gc_ns = model_sum(m, MODEL_S_GC_NS, w);
	out->dur_ns = m->now - lo;
	out->productivity = out->dur_ns > 0 ? 1 - (double)out->gc_ns /
	    (double)out->dur_ns : 1;
	if (out->productivity < 0)
		out->productivity = 0;
	if (w == MODEL_WRUN) {
		mmu_now(m, out->mmu, &lost);
		out->mmu_exact = !p->mmu_lost && !lost;
	} else {
		out->mmu[0] = out->mmu[1] = out->mmu[2] = -1;
		out->mmu_exact = 1;
	}
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

/*
 * A size class of the census.  GHC counts as live every block of the
 * filled segments and the marked ones of the active segments and of each
 * capability's current segment (rts/sm/NonMovingCensus.c), but counts the
 * current segments in neither the active nor the filled figure: the
 * capacity has one segment more per capability.  Blocks per segment as
 * nonmovingBlockCount(): the data after the header, a mark byte a block.
 */
static void
nm_census(struct model *m, const struct proto_ev *ev)
{
	struct model_priv	*p = m->p;
	struct model_nonmoving	*nm = &m->nm;
	struct model_nm_size	*z;
	uint32_t		 bs = ev->u.census.blk_size;
	uint64_t		 per, segs;

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
	z->current = m->prog.ncaps > 0 ? (uint32_t)m->prog.ncaps : 1;
	segs = (uint64_t)z->active + z->filled + z->current;
	per = bs > 0 ? ((NM_SEG_BYTES - NM_SEG_HDR) & ~7ULL) /
	    ((uint64_t)bs + 1) : 0;
	z->capacity = per * segs;
	z->occupancy = z->capacity > 0 ? (double)z->live /
	    (double)z->capacity : 0;
	if (z->occupancy > 1)
		z->occupancy = 1;
	z->frag = z->capacity > 0 ? 1 - z->occupancy : 0;
	nm->live_bytes += (uint64_t)z->live * bs;
	nm->seg_bytes += segs * NM_SEG_BYTES;
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
