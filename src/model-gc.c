/*
 * model-gc.c: collections, pauses, MMU, and the nonmoving collector.
 *
 * A collection starts at a GC_START when no cap is in GC and ends at the
 * GC_END that leaves none in GC (events without a cap count as one more
 * cap).  Each collection becomes a record in a ring of MODEL_NGCREC; the
 * 1 s and 10 s figures are computed from the ring when asked, the whole-run
 * ones are accumulated as collections end.
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
	int	lo = 0, hi = MODEL_NHIST - 1, mid;

	/* The number of bounds at or below ns. */
	while (lo < hi) {
		mid = (lo + hi) / 2;
		if (hist_lo[mid] <= ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
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

static double
rec_balance(const struct model_gc_rec *r)
{
	double	b;

	if (r->par_threads < 2 || r->par_max_copied == 0)
		return -1;
	b = (double)(r->par_balanced ? r->par_balanced : r->par_tot_copied);
	b = (b / (double)r->par_max_copied - 1) / (double)(r->par_threads - 1);
	return b < 0 ? 0 : b > 1 ? 1 : b;
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
	p->run_first_seq = p->gcseq + 1;
	m->gc.collections = 0;
	m->gc.gc_ns = 0;
	for (i = 0; i < MODEL_NMMU; i++) {
		memset(&p->mmu[i], 0, sizeof p->mmu[i]);
		p->mmu[i].a_lo = p->mmu[i].b_k = p->mmu[i].b_h = p->gcseq + 1;
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

/* Record j just closed: evaluate the windows it completes. */
static void
mmu_add(struct model *m, uint64_t j)
{
	struct model_priv	*p = m->p;
	const struct model_gc_rec *r = REC(p, j), *k, *h;
	struct mmu		*u;
	uint64_t		 w, g, start = m->reset_at, x;
	int			 i;

	for (i = 0; i < MODEL_NMMU; i++) {
		u = &p->mmu[i];
		w = model_mmu_ns[i];
		/* The window at the run's start, once a record starts past
		 * its end. */
		if (!u->first_done && r->start >= start + w) {
			g = gc_in(p, p->run_first_seq, j, start, start + w);
			if (g > u->worst)
				u->worst = g;
			u->first_done = 1;
		}
		/* Windows ending at this record's end. */
		u->a_sum += dur(r);
		while (u->a_lo < j && REC(p, u->a_lo)->end + w <= r->end) {
			u->a_sum -= dur(REC(p, u->a_lo));
			u->a_lo++;
		}
		if (r->end >= start + w) {
			x = r->end - w;
			g = u->a_sum;
			if (REC(p, u->a_lo)->start < x)
				g -= x - REC(p, u->a_lo)->start;
			if (g > u->worst)
				u->worst = g;
		}
		/* Windows starting at a record's start: complete once a
		 * later record starts past their end. */
		for (;;) {
			if (u->b_k > j)
				break;
			k = REC(p, u->b_k);
			while (u->b_h <= j && REC(p, u->b_h)->start <
			    k->start + w) {
				u->b_sum += dur(REC(p, u->b_h));
				u->b_h++;
			}
			if (u->b_h > j)
				break;
			h = REC(p, u->b_h - 1);
			g = u->b_sum;
			if (h->end > k->start + w)
				g -= h->end - (k->start + w);
			if (g > u->worst)
				u->worst = g;
			u->b_sum -= dur(k);
			u->b_k++;
		}
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

static void
stats_into(struct model *m, struct model_gc_rec *r, const struct proto_ev *ev,
    int counted)
{
	struct model_priv	*p = m->p;
	double			 b;

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
	if (!counted || r->seq < p->run_first_seq)
		return;
	/* The record was counted without a generation. */
	p->run.count_nogen--;
	gen_count(p->run.count_gen, r->gen, 1);
	p->run.copied += r->copied;
	if ((b = rec_balance(r)) >= 0) {
		p->bal_n++;
		p->bal_sum += b;
	}
}

static void
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

static void
gc_end(struct model *m, uint64_t t)
{
	struct model_priv	*p = m->p;
	struct model_gc_rec	*r;
	struct model_gc_win	*run = &p->run;
	uint64_t		 pause;
	double			 b;

	if (t < p->open.start)
		t = p->open.start;
	p->open.end = t;
	pause = t - p->open.start;
	if (p->gcseq + 1 > MODEL_NGCREC)
		mmu_forget(p, p->gcseq + 1 - MODEL_NGCREC);
	r = REC(p, p->open.seq);
	*r = p->open;
	p->gcseq = r->seq;
	m->gc.recs = p->gcseq < MODEL_NGCREC ? p->gcseq : MODEL_NGCREC;
	m->gc.in_gc = 0;
	m->gc.collections++;
	model_span(m, MODEL_S_GC_NS, p->gc_since, t);
	model_count(m, MODEL_S_GCS, t, 1);
	m->gc.gc_ns += pause;

	run->count++;
	run->pause_total += pause;
	if (pause > run->pause_max)
		run->pause_max = pause;
	run->hist[hist_bucket(pause)]++;
	p->fine_hist[fine_bucket(pause)]++;
	run->sync_total += r->sync_ns;
	if (r->sync_ns > run->sync_max)
		run->sync_max = r->sync_ns;
	if (r->gen == MODEL_GEN_UNKNOWN) {
		run->count_nogen++;
		p->stats_pending = 1;
	} else {
		gen_count(run->count_gen, r->gen, 1);
		run->copied += r->copied;
		if ((b = rec_balance(r)) >= 0) {
			p->bal_n++;
			p->bal_sum += b;
		}
	}
	p->live_pending = 1;
	mmu_add(m, r->seq);
}

void
model_gc_event(struct model *m, struct mcap *c, const struct proto_ev *ev)
{
	struct model_priv	*p = m->p;
	int			*in;
	uint64_t		 t = ev->time;

	switch (ev->kind) {
	case PROTO_GC_START:
		in = c != NULL ? &c->in_gc : &p->nocap_in_gc;
		if (*in)
			break;
		*in = 1;
		if (p->n_in_gc++ == 0)
			gc_begin(m, t);
		p->open.ncaps++;
		if (c != NULL) {
			model_cap_close(m, c, t);
			if (c->cur != NULL)
				c->cur = NULL;
			c->pub.state = MODEL_CAP_GC;
		}
		break;
	case PROTO_GC_END:
		in = c != NULL ? &c->in_gc : &p->nocap_in_gc;
		if (!*in)
			break;
		*in = 0;
		if (c != NULL && c->pub.state == MODEL_CAP_GC) {
			model_cap_close(m, c, t);
			c->pub.state = MODEL_CAP_IDLE;
		}
		if (--p->n_in_gc == 0)
			gc_end(m, t);
		break;
	case PROTO_REQUEST_SEQ_GC:
	case PROTO_REQUEST_PAR_GC:
		m->gc.requests++;
		if (!p->req_pending && p->n_in_gc == 0) {
			p->req_pending = 1;
			p->req_time = t;
		}
		break;
	case PROTO_GC_GLOBAL_SYNC:
		m->gc.syncs++;
		break;
	case PROTO_GC_STATS_GHC:
		if (p->n_in_gc > 0)
			stats_into(m, &p->open, ev, 0);
		else if (p->stats_pending && p->gcseq > 0) {
			stats_into(m, REC(p, p->gcseq), ev, 1);
			p->stats_pending = 0;
		}
		break;
	}
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest rank: the smallest value with at least pct% at or below it. */
static uint64_t
rank(const uint64_t *v, uint64_t n, unsigned pct)
{
	uint64_t	r = (n * pct + 99) / 100;

	return v[r == 0 ? 0 : r - 1];
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

void
model_gc_window(const struct model *m, enum model_win w,
    struct model_gc_win *out)
{
	const struct model_priv	*p = m->p;
	const struct model_gc_rec *r;
	uint64_t		 lo, s, n = 0, pause, bal_n = 0;
	double			 b, bal_sum = 0;
	int			 all = 1;

	lo = model_win_start(m, w);
	if (w == MODEL_WRUN) {
		*out = p->run;
		for (s = p->gcseq; s >= p->run_first_seq && s >= 1; s--) {
			if (s + MODEL_NGCREC <= p->gcseq) {
				all = 0;
				break;
			}
			p->scratch[n++] = dur(REC(p, s));
		}
		bal_n = p->bal_n;
		bal_sum = p->bal_sum;
	} else {
		memset(out, 0, sizeof *out);
		for (s = p->gcseq; s >= 1; s--) {
			if (s + MODEL_NGCREC <= p->gcseq) {
				all = 0;
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
			if ((b = rec_balance(r)) >= 0) {
				bal_n++;
				bal_sum += b;
			}
		}
	}
	out->exact = all;
	if (n > 0 && (all || w != MODEL_WRUN)) {
		qsort(p->scratch, n, sizeof *p->scratch, cmp_u64);
		out->p50 = rank(p->scratch, n, 50);
		out->p90 = rank(p->scratch, n, 90);
		out->p99 = rank(p->scratch, n, 99);
	} else if (out->count > 0) {
		out->p50 = hist_rank(p->fine_hist, out->count, 50,
		    out->pause_max);
		out->p90 = hist_rank(p->fine_hist, out->count, 90,
		    out->pause_max);
		out->p99 = hist_rank(p->fine_hist, out->count, 99,
		    out->pause_max);
	}
	out->balance = bal_n > 0 ? bal_sum / (double)bal_n : -1;
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
	if (!p->nm_in_run) {
		nm->censuses++;
		nm->nsizes = 0;
		nm->live_bytes = nm->seg_bytes = 0;
		p->nm_in_run = 1;
	}
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
