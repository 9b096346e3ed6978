/*
 * model-gc-win.c: the collections' figures for a window (1 s, 10 s, the
 * run): sums kept by slot, pauses from the ring while it holds the
 * window's, percentiles exact or to a fine bucket; checked against the
 * ring where it can be (see model-gc.c for how they are kept).
 */
#include <stdlib.h>
#include <string.h>

#include "model/model-gc.h"

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
		cnt[gc_fine_bucket(v[i])]++;
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
		b = gc_fine_bucket(v[i]);
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
			v = gc_fine_value(i);
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
		n = REC(p, s)->end / GCW_UNIT(i);
		if (n >= first && n <= last)
			v[k++] = gc_dur(REC(p, s));
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
	uint64_t		 first = lo / GCW_UNIT(i), n;
	uint64_t		 last = m->now / GCW_UNIT(i);
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
	out->balance = gc_bal_mean(bal_n, bal_sum);
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
	uint64_t		 first = lo / GCW_UNIT(i), s, e, pause;
	uint64_t		 last = m->now / GCW_UNIT(i), bal_n = 0;
	uint64_t		 bal_sum = 0;
	size_t			 n = 0;
	int64_t			 b;

	memset(&chk, 0, sizeof chk);
	chk.exact = 1;
	for (s = p->gcseq; s >= 1 && s + MODEL_NGCREC > p->gcseq; s--) {
		r = REC(p, s);
		e = r->end / GCW_UNIT(i);
		if (e < first || e > last)
			continue;
		pause = gc_dur(r);
		p->scratch[n++] = pause;
		chk.count++;
		if (r->gen == MODEL_GEN_UNKNOWN)
			chk.count_nogen++;
		else
			gc_gen_count(chk.count_gen, r->gen, 1);
		chk.pause_total += pause;
		if (pause > chk.pause_max)
			chk.pause_max = pause;
		chk.sync_total += r->sync_ns;
		if (r->sync_ns > chk.sync_max)
			chk.sync_max = r->sync_ns;
		chk.copied += r->copied;
		chk.hist[model_gc_bucket(pause)]++;
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
	chk.balance = gc_bal_mean(bal_n, bal_sum);
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
			p->scratch[n++] = gc_dur(REC(p, s));
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
		out->balance = gc_bal_mean(p->bal_n, p->bal_sum);
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
		model_gc_mmu_now(m, out->mmu, &lost);
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
