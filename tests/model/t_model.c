/*
 * t_model.c: the model on hand-built eventlogs: each test writes the bytes
 * (a header declaring the event types, then events, in per-cap blocks where
 * it matters), decodes them with proto and checks exact figures.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "evtop.h"
#include "model/model.h"

static int	passed, failed;

#define CHECK(cond, ...) do {						\
	if (cond) passed++;						\
	else {								\
		failed++;						\
		printf("not ok - %s line %d: ", __func__, __LINE__);	\
		printf(__VA_ARGS__);					\
		printf("\n");						\
	}								\
} while (0)

#define EQ(a, b) CHECK((uint64_t)(a) == (uint64_t)(b), "%s = %llu, want %llu", \
	#a, (unsigned long long)(a), (unsigned long long)(b))

#define MS	1000000ULL
#define US	1000ULL
#define SEC	1000000000ULL

/* ------------------------------------------------------------------ */
/* Building eventlogs. */

#define VAR	0xffff

static const struct {
	uint16_t	tag, size;
} types[] = {
	{ PROTO_CREATE_THREAD, 4 }, { PROTO_RUN_THREAD, 4 },
	{ PROTO_STOP_THREAD, 10 }, { PROTO_THREAD_RUNNABLE, 4 },
	{ PROTO_MIGRATE_THREAD, 6 }, { PROTO_THREAD_WAKEUP, 6 },
	{ PROTO_GC_START, 0 }, { PROTO_GC_END, 0 },
	{ PROTO_REQUEST_SEQ_GC, 0 }, { PROTO_REQUEST_PAR_GC, 0 },
	{ PROTO_LOG_MSG, VAR }, { PROTO_BLOCK_MARKER, 14 },
	{ PROTO_USER_MSG, VAR }, { PROTO_RTS_IDENTIFIER, VAR },
	{ PROTO_PROGRAM_ARGS, VAR }, { PROTO_OSPROCESS_PID, 8 },
	{ PROTO_SPARK_COUNTERS, 56 }, { PROTO_SPARK_CREATE, 0 },
	{ PROTO_SPARK_RUN, 0 },
	{ PROTO_THREAD_LABEL, VAR }, { PROTO_CAP_CREATE, 2 },
	{ PROTO_HEAP_ALLOCATED, 12 }, { PROTO_HEAP_SIZE, 12 },
	{ PROTO_HEAP_LIVE, 12 }, { PROTO_GC_STATS_GHC, 58 },
	{ PROTO_USER_MARKER, VAR }, { PROTO_HEAP_PROF_BEGIN, VAR },
	{ PROTO_HEAP_PROF_COST_CENTRE, VAR },
	{ PROTO_HEAP_PROF_SAMPLE_BEGIN, 8 },
	{ PROTO_HEAP_PROF_SAMPLE_COST_CENTRE, VAR },
	{ PROTO_HEAP_PROF_SAMPLE_STRING, VAR },
	{ PROTO_HEAP_PROF_SAMPLE_END, 8 },
	{ PROTO_PROF_SAMPLE_COST_CENTRE, VAR }, { PROTO_PROF_BEGIN, 8 },
	{ PROTO_CONC_MARK_BEGIN, 0 }, { PROTO_CONC_MARK_END, 4 },
	{ PROTO_CONC_SYNC_BEGIN, 0 }, { PROTO_CONC_SYNC_END, 0 },
	{ PROTO_CONC_SWEEP_BEGIN, 0 }, { PROTO_CONC_SWEEP_END, 0 },
	{ PROTO_NONMOVING_HEAP_CENSUS, 13 },
};

struct lb {
	uint8_t		*p;
	size_t		 n, cap;
	size_t		 blk;		/* offset of the open block's marker */
	int		 in_blk;
	uint64_t	 last;
};

static void
put(struct lb *b, const void *p, size_t n)
{
	if (b->n + n > b->cap) {
		b->cap = (b->n + n) * 2 + 4096;
		if ((b->p = realloc(b->p, b->cap)) == NULL)
			abort();
	}
	if (n > 0)
		memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void
be(uint8_t *o, uint64_t v, int n)
{
	int	i;

	for (i = n - 1; i >= 0; i--) {
		o[i] = (uint8_t)v;
		v >>= 8;
	}
}

static void
u8(struct lb *b, unsigned v)
{
	uint8_t	o = (uint8_t)v;

	put(b, &o, 1);
}

static void
u16(struct lb *b, unsigned v)
{
	uint8_t	o[2];

	be(o, v, 2);
	put(b, o, 2);
}

static void
u32(struct lb *b, uint32_t v)
{
	uint8_t	o[4];

	be(o, v, 4);
	put(b, o, 4);
}

static void
u64(struct lb *b, uint64_t v)
{
	uint8_t	o[8];

	be(o, v, 8);
	put(b, o, 8);
}

static int
size_of(uint16_t tag)
{
	size_t	i;

	for (i = 0; i < sizeof types / sizeof types[0]; i++)
		if (types[i].tag == tag)
			return types[i].size;
	abort();
}

static void
lb_header(struct lb *b)
{
	size_t	i;

	put(b, "hdrb", 4);
	put(b, "hetb", 4);
	for (i = 0; i < sizeof types / sizeof types[0]; i++) {
		put(b, "etb\0", 4);
		u16(b, types[i].tag);
		u16(b, types[i].size);
		u32(b, 1);
		put(b, "x", 1);
		u32(b, 0);
		put(b, "ete\0", 4);
	}
	put(b, "hete", 4);
	put(b, "hdre", 4);
	put(b, "datb", 4);
}

static void
lb_end(struct lb *b)
{
	if (b->in_blk) {
		be(b->p + b->blk + 10, b->n - b->blk, 4);
		be(b->p + b->blk + 14, b->last, 8);
		b->in_blk = 0;
	}
}

/* Start a block of events on a cap (-1: none). */
static void
lb_block(struct lb *b, int cap, uint64_t t)
{
	lb_end(b);
	b->blk = b->n;
	b->in_blk = 1;
	u16(b, PROTO_BLOCK_MARKER);
	u64(b, t);
	u32(b, 0);
	u64(b, 0);
	u16(b, cap < 0 ? 0xffff : (unsigned)cap);
}

static void
ev(struct lb *b, uint16_t tag, uint64_t t, const void *pl, size_t len)
{
	u16(b, tag);
	u64(b, t);
	if (size_of(tag) == VAR)
		u16(b, (unsigned)len);
	else if ((size_t)size_of(tag) != len)
		abort();
	put(b, pl, len);
	if (t > b->last)
		b->last = t;
}

static void
ev0(struct lb *b, uint16_t tag, uint64_t t)
{
	ev(b, tag, t, NULL, 0);
}

static void
ev_thr(struct lb *b, uint16_t tag, uint64_t t, uint32_t tid)
{
	uint8_t	o[4];

	be(o, tid, 4);
	ev(b, tag, t, o, 4);
}

static void
ev_stop(struct lb *b, uint64_t t, uint32_t tid, uint16_t status)
{
	uint8_t	o[10];

	be(o, tid, 4);
	be(o + 4, status, 2);
	be(o + 6, 0, 4);
	ev(b, PROTO_STOP_THREAD, t, o, 10);
}

static void
ev_capset64(struct lb *b, uint16_t tag, uint64_t t, uint32_t set, uint64_t v)
{
	uint8_t	o[12];

	be(o, set, 4);
	be(o + 4, v, 8);
	ev(b, tag, t, o, 12);
}

static void
ev_pid(struct lb *b, uint64_t t, uint32_t pid)
{
	uint8_t	o[8];

	be(o, 0, 4);
	be(o + 4, pid, 4);
	ev(b, PROTO_OSPROCESS_PID, t, o, 8);
}

static void
ev_str(struct lb *b, uint16_t tag, uint64_t t, const char *s)
{
	ev(b, tag, t, s, strlen(s));
}

static void
ev_stats(struct lb *b, uint64_t t, uint16_t gen, uint64_t copied)
{
	uint8_t	o[58];

	memset(o, 0, sizeof o);
	be(o + 4, gen, 2);
	be(o + 6, copied, 8);
	be(o + 30, 2, 4);		/* par threads */
	be(o + 34, copied * 3 / 4, 8);	/* max copied */
	be(o + 42, copied, 8);		/* total copied */
	be(o + 50, copied, 8);		/* balanced */
	ev(b, PROTO_GC_STATS_GHC, t, o, 58);
}

/* A cost-centre stack event payload (prof sample or heap sample). */
static void
ev_prof(struct lb *b, uint64_t t, const uint32_t *ids, int depth)
{
	uint8_t	o[13 + 4 * 16];
	int	i;

	be(o, 0, 4);
	be(o + 4, 1, 8);
	o[12] = (uint8_t)depth;
	for (i = 0; i < depth; i++)
		be(o + 13 + 4 * i, ids[i], 4);
	ev(b, PROTO_PROF_SAMPLE_COST_CENTRE, t, o, 13 + 4 * (size_t)depth);
}

static void
ev_cc(struct lb *b, uint64_t t, uint32_t id, const char *label,
    const char *module)
{
	struct lb	p = { 0 };

	u32(&p, id);
	put(&p, label, strlen(label) + 1);
	put(&p, module, strlen(module) + 1);
	put(&p, "F.hs:1", 7);
	u8(&p, 0);
	ev(b, PROTO_HEAP_PROF_COST_CENTRE, t, p.p, p.n);
	free(p.p);
}

static void
ev_hsample_str(struct lb *b, uint64_t t, uint64_t res, const char *label)
{
	struct lb	p = { 0 };

	u8(&p, 1);
	u64(&p, res);
	put(&p, label, strlen(label) + 1);
	ev(b, PROTO_HEAP_PROF_SAMPLE_STRING, t, p.p, p.n);
	free(p.p);
}

static void
ev_census(struct lb *b, uint64_t t, int log2, uint32_t act, uint32_t fil,
    uint32_t live)
{
	uint8_t	o[13];

	o[0] = (uint8_t)log2;
	be(o + 1, act, 4);
	be(o + 5, fil, 4);
	be(o + 9, live, 4);
	ev(b, PROTO_NONMOVING_HEAP_CENSUS, t, o, 13);
}

/* Decode all of b into m in arrival order. */
static void
feed(struct model *m, struct lb *b)
{
	struct proto_dec	*d = proto_dec_new(PROTO_MIN_BUF * 2);
	struct proto_ev		 e;
	enum proto_res		 r;
	size_t			 off = 0;

	lb_end(b);
	for (;;) {
		r = proto_dec_next(d, &e);
		if (r == PROTO_EVENT)
			model_apply(m, &e);
		else if (r == PROTO_HEADER)
			model_header(m, d);
		else if (r == PROTO_ERROR)
			model_error(m, proto_dec_error(d));
		else if (r == PROTO_AGAIN) {
			if (off == b->n)
				break;
			off += proto_dec_feed(d, b->p + off, b->n - off);
		}
	}
	proto_dec_free(d);
}

/* As a file: through reader_next, in time order. */
static void
feed_file(struct model *m, struct lb *b)
{
	struct reader	*mg;
	struct proto_ev	 e;
	char		 path[] = "/tmp/t_model.XXXXXX", *cause = NULL;
	FILE		*f;
	int		 fd;

	lb_end(b);
	if ((fd = mkstemp(path)) == -1 || (f = fdopen(fd, "wb")) == NULL)
		abort();
	fwrite(b->p, 1, b->n, f);
	fclose(f);
	if ((mg = reader_open(path, &cause)) == NULL) {
		CHECK(0, "reader_open: %s", cause);
		free(cause);
		unlink(path);
		return;
	}
	model_set_reorder(m, 0, 0);
	model_header(m, reader_dec(mg));
	while (reader_next(mg, &e) == PROTO_EVENT)
		model_apply(m, &e);
	reader_free(mg);
	unlink(path);
}

/* live: arrival order through the reorder buffer; else as a file. */
static struct model *
run(struct lb *b, int live)
{
	struct model	*m = model_new();

	if (live)
		feed(m, b);
	else
		feed_file(m, b);
	model_flush(m);
	return m;
}

static void
lb_free(struct lb *b)
{
	free(b->p);
	memset(b, 0, sizeof *b);
}

/* ------------------------------------------------------------------ */

/* Two caps collect; cap 1 ends last: pause = its end - cap 0's start. */
static void
t_gc_two_caps(void)
{
	struct lb		 b = { 0 };
	struct model		*m;
	struct model_gc_win	 g;
	const struct model_gc_rec *r;
	int			 live;

	for (live = 0; live < 2; live++) {
		lb_header(&b);
		lb_block(&b, 0, 1000);
		ev0(&b, PROTO_REQUEST_PAR_GC, 1000);
		ev0(&b, PROTO_GC_START, 1500);
		ev0(&b, PROTO_GC_END, 4000);
		lb_block(&b, 1, 1200);
		ev0(&b, PROTO_GC_START, 1700);
		ev_stats(&b, 5000, 1, 4096);
		ev0(&b, PROTO_GC_END, 6000);
		/* A second collection on cap 1 alone, without GC_STATS_GHC:
		 * it ends when the next begins with no cap in GC.  That one
		 * is open at the end: not counted. */
		ev0(&b, PROTO_GC_START, 10000);
		ev0(&b, PROTO_GC_END, 10300);
		lb_block(&b, 0, 20000);
		ev0(&b, PROTO_GC_START, 20000);
		m = run(&b, live);
		EQ(m->gc.collections, 2);
		model_gc_window(m, MODEL_WRUN, &g);
		EQ(g.count, 2);
		/* The first from its leader's GC_START (cap 1 posts the
		 * stats) to its GC_END, as the RTS measures it; cap 0
		 * started first. */
		EQ(g.pause_max, 6000 - 1700);
		EQ(g.pause_total, 4300 + 300);
		EQ(g.sync_total, 500);
		EQ(g.count_gen[1], 1);
		EQ(g.count_nogen, 1);
		EQ(g.copied, 4096);
		r = model_gc_recent(m, 1);
		CHECK(r != NULL, "first record");
		if (r != NULL) {
			EQ(r->start, 1700);
			EQ(r->end, 6000);
			EQ(r->ncaps, 2);
			EQ(r->gen, 1);
			EQ(r->par_threads, 2);
		}
		/* (balanced / max - 1) / (threads - 1) = 4/3 - 1 */
		CHECK(g.balance > 0.333 && g.balance < 0.334,
		    "balance %f want 1/3", g.balance);
		EQ(m->totals.late, 0);
		model_free(m);
		lb_free(&b);
	}
}

/* Nearest-rank percentiles over pauses of 1..100 us. */
static void
t_gc_percentiles(void)
{
	struct lb		 b = { 0 };
	struct model		*m;
	struct model_gc_win	 g;
	uint64_t		 t = 0;
	int			 i;

	lb_header(&b);
	lb_block(&b, 0, 0);
	/* Shuffled order: pause (i * 37 % 100) + 1 us. */
	for (i = 0; i < 100; i++) {
		ev0(&b, PROTO_GC_START, t);
		ev0(&b, PROTO_GC_END, t + (uint64_t)(i * 37 % 100 + 1) * US);
		t += MS;
	}
	m = run(&b, 0);
	model_gc_window(m, MODEL_WRUN, &g);
	EQ(g.count, 100);
	EQ(g.pause_total, 5050 * US);
	EQ(g.pause_max, 100 * US);
	EQ(g.p50, 50 * US);
	EQ(g.p90, 90 * US);
	EQ(g.p99, 99 * US);
	CHECK(g.exact, "exact");
	/* Histogram: half octaves from 1 us; 1 us is bucket 1, 100 us is
	 * bucket 1 + floor(2 log2 100) = 14. */
	EQ(g.hist[1], 1);
	EQ(g.hist[14], 10);	/* [90.5, 128) us: 91..100 */
	model_free(m);
	lb_free(&b);
}

/* Percentiles and counts per window. */
static void
t_gc_windows(void)
{
	struct lb		 b = { 0 };
	struct model		*m;
	struct model_gc_win	 g;
	uint64_t		 t;
	int			 i;

	lb_header(&b);
	lb_block(&b, 0, 0);
	/* 20 collections of 1 ms, one every 0.5 s, then 5 of 2 ms at the
	 * end within 100 ms. */
	for (i = 0; i < 20; i++) {
		t = (uint64_t)i * 500 * MS;
		ev0(&b, PROTO_GC_START, t);
		ev0(&b, PROTO_GC_END, t + MS);
	}
	for (i = 0; i < 5; i++) {
		t = 10 * SEC + (uint64_t)i * 10 * MS;
		ev0(&b, PROTO_GC_START, t);
		ev0(&b, PROTO_GC_END, t + 2 * MS);
	}
	m = run(&b, 0);
	/* now = 10.042 s: W1 = [9.1 s, now]: collections at 9.5 s and the
	 * five at 10 s.  W10 = [1 s, now]: 18 + 5. */
	EQ(m->now, 10 * SEC + 42 * MS);
	EQ(model_win_start(m, MODEL_W1), 9100 * MS);
	EQ(model_win_start(m, MODEL_W10), 1 * SEC);
	model_gc_window(m, MODEL_W1, &g);
	EQ(g.count, 6);
	EQ(g.pause_total, 11 * MS);
	EQ(g.p50, 2 * MS);
	EQ(g.gc_ns, 11 * MS);
	model_gc_window(m, MODEL_W10, &g);
	EQ(g.count, 23);
	EQ(g.p50, 1 * MS);
	EQ(g.p99, 2 * MS);
	model_gc_window(m, MODEL_WRUN, &g);
	EQ(g.count, 25);
	EQ(g.gc_ns, 30 * MS);
	CHECK(g.productivity > 0.997 && g.productivity < 0.9971,
	    "productivity %f", g.productivity);
	EQ(model_sum(m, MODEL_S_GCS, MODEL_W1), 6);
	/* Reset: the run window starts again. */
	model_reset_window(m);
	model_gc_window(m, MODEL_WRUN, &g);
	EQ(g.count, 0);
	EQ(m->gc.collections, 0);
	model_free(m);
	lb_free(&b);
}

/*
 * 10 000 collections a second for 30 s, more than the 4096 records kept
 * in any window: every figure of the 1 s, 10 s and run windows (after a
 * reset too) against the test's own count of the collections it wrote.
 * Percentiles are exact to their 1/16 octave bucket then; the MMU exact.
 */
#define RATE_N		300000
#define RATE_STEP	(100 * US)

struct rcoll {
	uint64_t	 start, end, sync, stats_at, copied, maxc, balc;
	uint16_t	 gen;
	uint32_t	 thr;
};

static uint64_t
xs64(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static void
ev_stats_par(struct lb *b, const struct rcoll *c)
{
	uint8_t	o[58];

	memset(o, 0, sizeof o);
	be(o + 4, c->gen, 2);
	be(o + 6, c->copied, 8);
	be(o + 30, c->thr, 4);
	be(o + 34, c->maxc, 8);
	be(o + 42, c->copied, 8);
	be(o + 50, c->balc, 8);
	ev(b, PROTO_GC_STATS_GHC, c->stats_at, o, 58);
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* GC time in [x, x + w) of collections 0..n-1 (in order, apart),
 * through pre[k], their pauses before k. */
static uint64_t
rate_gc_in(const struct rcoll *c, const uint64_t *pre, size_t n, uint64_t x,
    uint64_t y)
{
	size_t		lo = 0, hi = n, mid;
	uint64_t	v;

	/* G(t): GC time before t. */
	uint64_t	g[2], t[2] = { x, y };
	int		i;

	for (i = 0; i < 2; i++) {
		lo = 0;
		hi = n;
		while (lo < hi) {	/* first collection starting at/after t */
			mid = (lo + hi) / 2;
			if (c[mid].start < t[i])
				lo = mid + 1;
			else
				hi = mid;
		}
		v = pre[lo];
		if (lo > 0 && c[lo - 1].end > t[i])
			v -= c[lo - 1].end - t[i];
		g[i] = v;
	}
	return g[1] - g[0];
}

static double
rate_bal(const struct rcoll *c)
{
	double	b = ((double)c->balc / (double)c->maxc - 1) /
	    (double)(c->thr - 1);

	return b < 0 ? 0 : b > 1 ? 1 : b;
}

/* The figures of collections first..last-1 ending at or after lo, as the
 * model should have them at now, against g. */
static void
rate_check(const char *what, const struct rcoll *c, size_t first,
    size_t last, uint64_t lo, uint64_t now, uint64_t run_start,
    const struct model_gc_win *g, int run)
{
	uint64_t	*v, cnt = 0, nogen = 0, gen[MODEL_NGEN] = { 0 };
	uint64_t	 tot = 0, max = 0, sync = 0, smax = 0, copied = 0;
	uint64_t	 hist[MODEL_NHIST] = { 0 }, want[3], got[3], *pre;
	uint64_t	 worst, x, gw;
	double		 bal = 0, mmu;
	size_t		 k, n = 0, bn = 0, r;
	int		 hb, i, bad = 0;
	static const unsigned pct[3] = { 50, 90, 99 };

	v = calloc(last - first + 1, sizeof *v);
	for (k = first; k < last; k++) {
		uint64_t p = c[k].end - c[k].start;

		if (c[k].end < lo || c[k].end > now)
			continue;
		v[n++] = p;
		cnt++;
		if (c[k].stats_at != 0 && c[k].stats_at <= now) {
			gen[c[k].gen]++;
			copied += c[k].copied;
			bal += rate_bal(&c[k]);
			bn++;
		} else
			nogen++;
		tot += p;
		if (p > max)
			max = p;
		sync += c[k].sync;
		if (c[k].sync > smax)
			smax = c[k].sync;
		hb = p < 1000 ? 0 : 1 + (int)floor(2 * log2((double)p / 1000));
		hist[hb]++;
	}
	CHECK(g->count == cnt && g->count_nogen == nogen && g->pause_total ==
	    tot && g->pause_max == max && g->sync_total == sync &&
	    g->sync_max == smax && g->copied == copied, "%s: count %llu/%llu "
	    "nogen %llu/%llu total %llu/%llu max %llu/%llu sync %llu/%llu "
	    "smax %llu/%llu copied %llu/%llu", what,
	    (unsigned long long)g->count, (unsigned long long)cnt,
	    (unsigned long long)g->count_nogen, (unsigned long long)nogen,
	    (unsigned long long)g->pause_total, (unsigned long long)tot,
	    (unsigned long long)g->pause_max, (unsigned long long)max,
	    (unsigned long long)g->sync_total, (unsigned long long)sync,
	    (unsigned long long)g->sync_max, (unsigned long long)smax,
	    (unsigned long long)g->copied, (unsigned long long)copied);
	CHECK(memcmp(g->count_gen, gen, sizeof gen) == 0 &&
	    memcmp(g->hist, hist, sizeof hist) == 0, "%s: by gen %llu %llu, "
	    "want %llu %llu; histogram differs: %d", what,
	    (unsigned long long)g->count_gen[0],
	    (unsigned long long)g->count_gen[1], (unsigned long long)gen[0],
	    (unsigned long long)gen[1],
	    memcmp(g->hist, hist, sizeof hist) != 0);
	CHECK(bn > 0 && fabs(g->balance - bal / (double)bn) < 1e-8,
	    "%s: balance %.10f want %.10f", what, g->balance,
	    bal / (double)bn);
	/* More pauses than the records kept: percentiles to their bucket,
	 * the middle of a 1/16 octave: within 1/32 of the value. */
	qsort(v, n, sizeof *v, cmp_u64);
	for (i = 0; i < 3; i++) {
		r = (n * pct[i] + 99) / 100;
		want[i] = v[r - 1];
	}
	got[0] = g->p50;
	got[1] = g->p90;
	got[2] = g->p99;
	for (i = 0; i < 3; i++)
		if ((got[i] > want[i] ? got[i] - want[i] : want[i] - got[i]) *
		    32 > want[i])
			bad++;
	CHECK(n > MODEL_NGCREC && !g->exact && bad == 0, "%s: %zu pauses, "
	    "exact %d, p50 %llu/%llu p90 %llu/%llu p99 %llu/%llu", what, n,
	    g->exact, (unsigned long long)got[0], (unsigned long long)want[0],
	    (unsigned long long)got[1], (unsigned long long)want[1],
	    (unsigned long long)got[2], (unsigned long long)want[2]);
	free(v);
	if (!run)
		return;
	/* MMU: the most GC time in any window of w in [run_start, now],
	 * over windows starting at a collection's start or ending at one's
	 * end, and the first and last. */
	pre = calloc(last - first + 1, sizeof *pre);
	for (k = first; k < last; k++)
		pre[k - first + 1] = pre[k - first] + c[k].end - c[k].start;
	for (i = 0; i < MODEL_NMMU; i++) {
		uint64_t w = model_mmu_ns[i];

		if (now < run_start + w) {
			CHECK(g->mmu[i] < 0, "%s: mmu %d %f, want none", what,
			    i, g->mmu[i]);
			continue;
		}
		worst = rate_gc_in(c + first, pre, last - first, run_start,
		    run_start + w);
		gw = rate_gc_in(c + first, pre, last - first, now - w, now);
		if (gw > worst)
			worst = gw;
		for (k = first; k < last; k++) {
			x = c[k].start;
			if (x >= run_start && x + w <= now &&
			    (gw = rate_gc_in(c + first, pre, last - first, x,
			    x + w)) > worst)
				worst = gw;
			x = c[k].end;
			if (x >= run_start + w && x <= now &&
			    (gw = rate_gc_in(c + first, pre, last - first,
			    x - w, x)) > worst)
				worst = gw;
		}
		mmu = 1 - (double)worst / (double)w;
		CHECK(fabs(g->mmu[i] - mmu) < 1e-9, "%s: mmu %s %.9f want "
		    "%.9f", what, i == 0 ? "10ms" : i == 1 ? "100ms" : "1s",
		    g->mmu[i], mmu);
	}
	CHECK(g->mmu_exact, "%s: mmu exact", what);
	free(pre);
}

static void
t_gc_rate(void)
{
	static const uint64_t	 stop[] = {
		9499 * RATE_STEP + 98 * US, 50000 * RATE_STEP + 98 * US,
		123456 * RATE_STEP + 98 * US, (RATE_N - 1) * RATE_STEP +
		98 * US,
	};
	struct lb		 b = { 0 };
	struct rcoll		*c;
	struct model		*m;
	struct model_gc_win	 g;
	struct reader		*mg;
	struct proto_ev		 e;
	char			 path[] = "/tmp/t_model.XXXXXX", *cause = NULL;
	char			 what[64];
	uint64_t		 x = 88172645463325252ULL, t, lo;
	size_t			 k, si = 0, run_first = 0;
	FILE			*f;
	int			 fd;

	c = calloc(RATE_N, sizeof *c);
	lb_header(&b);
	lb_block(&b, 0, 0);
	ev_thr(&b, PROTO_CREATE_THREAD, 0, 1);
	for (k = 0; k < RATE_N; k++) {
		if (k % 1000 == 0)
			lb_block(&b, 0, k * RATE_STEP);
		t = k * RATE_STEP + 1 * US + xs64(&x) % (4 * US);
		c[k].start = t;
		/* Mostly short pauses, some long: 0.5 us to 90 us. */
		c[k].end = t + 500 + (xs64(&x) % 8 == 0 ?
		    xs64(&x) % (89 * US) : xs64(&x) % (20 * US));
		if (k % 3 == 0) {
			c[k].sync = 1 + xs64(&x) % 900;
			ev0(&b, PROTO_REQUEST_PAR_GC, t - c[k].sync);
		}
		c[k].gen = k % 7 == 0 ? 1 : 0;
		c[k].copied = 1000 + xs64(&x) % 100000;
		c[k].thr = 2 + (uint32_t)(k % 3);
		c[k].maxc = c[k].copied / 2 + xs64(&x) % (c[k].copied / 2);
		c[k].balc = c[k].copied - xs64(&x) % (c[k].copied / 4);
		ev0(&b, PROTO_GC_START, t);
		/* Stats in the collection, after it (the record waits for
		 * them), or none. */
		if (k % 11 == 0)
			c[k].stats_at = 0;
		else if (k % 5 == 0)
			c[k].stats_at = c[k].end + 2 * US;
		else
			c[k].stats_at = c[k].end;
		if (c[k].stats_at == c[k].end)
			ev_stats_par(&b, &c[k]);
		ev0(&b, PROTO_GC_END, c[k].end);
		if (c[k].stats_at > c[k].end)
			ev_stats_par(&b, &c[k]);
	}
	lb_end(&b);
	if ((fd = mkstemp(path)) == -1 || (f = fdopen(fd, "wb")) == NULL)
		abort();
	fwrite(b.p, 1, b.n, f);
	fclose(f);
	lb_free(&b);
	if ((mg = reader_open(path, &cause)) == NULL) {
		CHECK(0, "reader_open: %s", cause);
		free(cause);
		unlink(path);
		free(c);
		return;
	}
	m = model_new();
	model_set_reorder(m, 0, 0);
	model_header(m, reader_dec(mg));
	for (;;) {
		int more = reader_next(mg, &e) == PROTO_EVENT;

		while (si < sizeof stop / sizeof stop[0] &&
		    (!more || e.time > stop[si])) {
			EQ(m->now, c[stop[si] / RATE_STEP].stats_at > 0 ?
			    c[stop[si] / RATE_STEP].stats_at :
			    c[stop[si] / RATE_STEP].end);
			lo = m->now / MODEL_SLOT_NS * MODEL_SLOT_NS;
			lo = lo >= 9 * MODEL_SLOT_NS ? lo - 9 * MODEL_SLOT_NS : 0;
			model_gc_window(m, MODEL_W1, &g);
			snprintf(what, sizeof what, "W1 at %llu",
			    (unsigned long long)m->now);
			rate_check(what, c, 0, RATE_N, lo, m->now, 0, &g, 0);
			lo = m->now / SEC * SEC;
			lo = lo >= 9 * SEC ? lo - 9 * SEC : 0;
			model_gc_window(m, MODEL_W10, &g);
			snprintf(what, sizeof what, "W10 at %llu",
			    (unsigned long long)m->now);
			rate_check(what, c, 0, RATE_N, lo, m->now, 0, &g, 0);
			model_gc_window(m, MODEL_WRUN, &g);
			snprintf(what, sizeof what, "run at %llu",
			    (unsigned long long)m->now);
			rate_check(what, c, run_first, RATE_N, 0, m->now,
			    m->reset_at, &g, 1);
			/* The run starts again at the second stop (as a
			 * range's start does). */
			if (si == 1) {
				model_reset_window(m);
				run_first = stop[si] / RATE_STEP + 1;
			}
			si++;
		}
		if (!more)
			break;
		model_apply(m, &e);
	}
	EQ(si, sizeof stop / sizeof stop[0]);
	EQ(m->gc.collections, RATE_N - run_first);
	reader_free(mg);
	unlink(path);
	model_free(m);
	free(c);
}

/* A collection arriving late, its slot long gone from the 1 s window's
 * ring: it counts in the 10 s window, and leaves the newer slot sharing
 * its place in the ring alone. */
static void
t_gc_late_slot(void)
{
	struct lb		 b = { 0 };
	struct model		*m;
	struct model_gc_win	 g;

	lb_header(&b);
	lb_block(&b, 0, 0);
	ev_thr(&b, PROTO_CREATE_THREAD, 0, 1);	/* the run starts at 0 */
	ev0(&b, PROTO_GC_START, 1500 * MS);
	ev0(&b, PROTO_GC_END, 1501 * MS);
	ev0(&b, PROTO_GC_START, 2000 * MS);
	ev0(&b, PROTO_GC_END, 2002 * MS);
	lb_block(&b, 1, 500 * MS);	/* posted late: slot 5, as 15 */
	ev0(&b, PROTO_GC_START, 500 * MS);
	ev0(&b, PROTO_GC_END, 504 * MS);
	m = model_new();
	model_set_reorder(m, 0, 0);
	feed(m, &b);
	model_flush(m);
	EQ(m->now, 2002 * MS);
	model_gc_window(m, MODEL_W1, &g);	/* slots 11..20 */
	EQ(g.count, 2);
	EQ(g.pause_total, 3 * MS);
	model_gc_window(m, MODEL_W10, &g);
	EQ(g.count, 3);
	EQ(g.pause_total, 7 * MS);
	model_free(m);
	lb_free(&b);
}

/* More collections in a 1 s window than the MMU keeps (MMU_NSPAN, 16384):
 * its figure is no longer exact, and says so. */
static void
t_gc_mmu_lost(void)
{
	struct lb		 b = { 0 };
	struct model		*m;
	struct model_gc_win	 g;
	uint64_t		 t;
	int			 i, n;

	for (n = 16000; n <= 17000; n += 1000) {
		lb_header(&b);
		lb_block(&b, 0, 0);
		ev_thr(&b, PROTO_CREATE_THREAD, 0, 1);
		for (i = 0; i < n; i++) {
			t = 1 * MS + (uint64_t)i * 50 * US;
			ev0(&b, PROTO_GC_START, t);
			ev0(&b, PROTO_GC_END, t + 1 * US);
		}
		ev_thr(&b, PROTO_CREATE_THREAD, 2 * SEC, 2);
		m = run(&b, 0);
		model_gc_window(m, MODEL_WRUN, &g);
		EQ(g.count, n);
		/* 1 s holds 16000 or 17000 collections of 1 us... */
		CHECK(g.mmu_exact == (n < 16384), "%d collections: mmu exact "
		    "%d", n, g.mmu_exact);
		/* ...and 20 in 1 ms: 1000 in 50 ms, so 10 ms hold 200. */
		CHECK(g.mmu[0] > 0.9799 && g.mmu[0] < 0.9801, "mmu 10ms %f",
		    g.mmu[0]);
		model_free(m);
		lb_free(&b);
	}
}

/* Minimum mutator utilisation. */
static void
t_gc_mmu(void)
{
	struct lb		 b = { 0 };
	struct model		*m;
	struct model_gc_win	 g;

	lb_header(&b);
	lb_block(&b, 0, 0);
	ev_thr(&b, PROTO_CREATE_THREAD, 0, 1);
	ev0(&b, PROTO_GC_START, 500 * MS);
	ev0(&b, PROTO_GC_END, 505 * MS);
	/* Two 3 ms pauses 4 ms apart: 6 ms of GC in a 10 ms window... */
	ev0(&b, PROTO_GC_START, 1000 * MS);
	ev0(&b, PROTO_GC_END, 1003 * MS);
	ev0(&b, PROTO_GC_START, 1007 * MS);
	ev0(&b, PROTO_GC_END, 1010 * MS);
	ev_thr(&b, PROTO_CREATE_THREAD, 2 * SEC, 2);
	m = run(&b, 0);
	model_gc_window(m, MODEL_WRUN, &g);
	/* 10 ms: [1000, 1010] holds 6 ms: 0.4.  100 ms: 6 ms: 0.94.
	 * 1 s: [0.505, 1.505) holds 6 ms, [0.5, 1.5) holds 5 + 6 = 11 ms:
	 * 0.989. */
	CHECK(g.mmu[0] > 0.3999 && g.mmu[0] < 0.4001, "mmu 10ms %f",
	    g.mmu[0]);
	CHECK(g.mmu[1] > 0.9399 && g.mmu[1] < 0.9401, "mmu 100ms %f",
	    g.mmu[1]);
	CHECK(g.mmu[2] > 0.9889 && g.mmu[2] < 0.9891, "mmu 1s %f", g.mmu[2]);
	model_free(m);
	lb_free(&b);

	/* A run shorter than the window has no MMU for it. */
	lb_header(&b);
	lb_block(&b, 0, 0);
	ev0(&b, PROTO_GC_START, 20 * MS);
	ev0(&b, PROTO_GC_END, 25 * MS);
	ev_thr(&b, PROTO_CREATE_THREAD, 50 * MS, 2);
	m = run(&b, 0);
	model_gc_window(m, MODEL_WRUN, &g);
	CHECK(g.mmu[0] > 0.4999 && g.mmu[0] < 0.5001, "mmu %f", g.mmu[0]);
	CHECK(g.mmu[1] < 0 && g.mmu[2] < 0, "mmu %f %f", g.mmu[1], g.mmu[2]);
	model_free(m);
	lb_free(&b);
}

/* Threads: states, CPU, labels, caps. */
/* A table query's filter: odd ids (threads) or ids but 2 (cost centres). */
static int
keep_odd_thread(const void *t, const void *arg)
{
	(void)arg;
	return ((const struct model_thread *)t)->id % 2 == 1;
}

static int
keep_not_cc(const void *cc, const void *arg)
{
	return ((const struct model_cc *)cc)->id != *(const uint32_t *)arg;
}

static void
t_threads(void)
{
	struct lb		 b = { 0 };
	struct model		*m;
	struct model_thread_row	 rows[4];
	struct model_util	 u;
	struct model_rowq	 q = { 0 };
	const struct model_thread *t;
	int			 n;

	lb_header(&b);
	lb_block(&b, 0, 0);
	ev_thr(&b, PROTO_CREATE_THREAD, 0, 1);
	ev_thr(&b, PROTO_CREATE_THREAD, 0, 2);
	ev_thr(&b, PROTO_CREATE_THREAD, 0, 3);
	ev(&b, PROTO_THREAD_LABEL, 10, "\0\0\0\2worker\x1b[2J", 14);
	ev_thr(&b, PROTO_RUN_THREAD, 100 * MS, 1);
	ev_stop(&b, 400 * MS, 1, 7);		/* blocked on an MVar */
	ev_thr(&b, PROTO_RUN_THREAD, 400 * MS, 2);
	ev_stop(&b, 500 * MS, 2, 5);		/* finished */
	ev_thr(&b, PROTO_RUN_THREAD, 600 * MS, 3);
	lb_block(&b, 1, 0);
	ev_thr(&b, PROTO_RUN_THREAD, 200 * MS, 4);	/* never created */
	ev_stop(&b, 900 * MS, 4, 3);		/* yield */
	ev0(&b, PROTO_GC_START, 900 * MS);
	ev0(&b, PROTO_GC_END, 950 * MS);
	ev_thr(&b, PROTO_CREATE_THREAD, 1000 * MS, 5);
	/* Made on cap 1, sent to cap 0's queue: on cap 0 before it runs. */
	ev(&b, PROTO_MIGRATE_THREAD, 1000 * MS, "\0\0\0\5\0\0", 6);
	m = run(&b, 0);
	t = model_thread_find(m, 5);
	CHECK(t != NULL && t->cap == 0 && t->migrations == 1, "migrated: "
	    "cap %d", t != NULL ? t->cap : -1);
	EQ(m->threads.created, 4);
	EQ(m->threads.finished, 1);
	EQ(m->threads.table, 5);
	EQ(m->threads.live, 4);
	EQ(m->threads.by_state[MODEL_T_RUNNING], 1);
	EQ(m->threads.by_state[MODEL_T_BLOCKED], 1);
	EQ(m->threads.by_state[MODEL_T_RUNNABLE], 2);
	EQ(m->threads.blocked_by[7], 1);
	t = model_thread_find(m, 2);
	CHECK(t != NULL && strcmp(t->label, "worker.[2J") == 0,
	    "label '%s'", t != NULL ? t->label : "(none)");
	t = model_thread_find(m, 1);
	CHECK(t != NULL && t->cpu_ns == 300 * MS, "cpu");
	n = model_threads_sorted(m, MODEL_WRUN, MODEL_TSORT_CPU, rows, 4,
	    NULL);
	EQ(n, 4);
	/* 4: 700 ms, 3: 400 ms running now, 1: 300 ms, 2: 100 ms. */
	EQ(rows[0].t->id, 4);
	EQ(rows[0].cpu_ns, 700 * MS);
	EQ(rows[1].t->id, 3);
	EQ(rows[1].cpu_ns, 400 * MS);
	EQ(rows[2].t->id, 1);
	EQ(rows[3].t->id, 2);
	/* Reversed, filtered, both: the whole order is 4 3 1 2 5. */
	q.keep = NULL;
	q.reverse = 1;
	n = model_threads_sorted(m, MODEL_WRUN, MODEL_TSORT_CPU, rows, 2, &q);
	EQ(n, 2);
	EQ(q.total, 5);
	EQ(rows[0].t->id, 5);
	EQ(rows[1].t->id, 2);
	q.keep = keep_odd_thread;
	q.reverse = 0;
	n = model_threads_sorted(m, MODEL_WRUN, MODEL_TSORT_CPU, rows, 4, &q);
	EQ(n, 3);
	EQ(q.total, 3);
	EQ(rows[0].t->id, 3);
	EQ(rows[1].t->id, 1);
	EQ(rows[2].t->id, 5);
	q.reverse = 1;
	n = model_threads_sorted(m, MODEL_WRUN, MODEL_TSORT_CPU, rows, 2, &q);
	EQ(n, 2);
	EQ(q.total, 3);
	EQ(rows[0].t->id, 5);
	EQ(rows[1].t->id, 1);
	/* W1 = [0.1 s, 1 s]: thread 1 ran 0.1..0.4. */
	n = model_threads_sorted(m, MODEL_W1, MODEL_TSORT_ID, rows, 2, NULL);
	EQ(n, 2);
	EQ(rows[0].t->id, 1);
	EQ(rows[0].cpu_ns, 300 * MS);
	EQ(rows[1].t->id, 2);
	/* Cap 0: ran 0.1..0.5 and 0.6..now (1 s) of 1 s. */
	model_cap_util(m, m->caps[0], MODEL_WRUN, &u);
	EQ(u.dur_ns, 1000 * MS);
	EQ(u.run_ns, 800 * MS);
	EQ(u.gc_ns, 0);
	model_cap_util(m, m->caps[1], MODEL_WRUN, &u);
	EQ(u.run_ns, 700 * MS);
	EQ(u.gc_ns, 50 * MS);
	EQ(u.idle_ns, 250 * MS);
	EQ(m->caps[0]->state, MODEL_CAP_RUN);
	EQ(m->caps[0]->thread, 3);
	EQ(model_sum(m, MODEL_S_RUN_NS, MODEL_WRUN), 1500 * MS);
	model_free(m);
	lb_free(&b);
}

/* Random thread ids: the table stays bounded; evictions are counted. */
static void
t_thread_eviction(void)
{
	struct lb	 b = { 0 };
	struct model	*m = model_new();
	struct rusage	 ru;
	long		 rss1 = 0, rss2;
	uint32_t	 x = 12345;
	int		 i, round;

	model_set_reorder(m, 0, 0);
	for (round = 0; round < 3; round++) {
		lb_header(&b);
		lb_block(&b, 0, 0);
		for (i = 0; i < 200000; i++) {
			x = x * 1103515245 + 12345;
			ev_thr(&b, PROTO_RUN_THREAD, (uint64_t)round * SEC +
			    (uint64_t)i, x);
		}
		feed(m, &b);
		lb_free(&b);
		getrusage(RUSAGE_SELF, &ru);
		if (round == 0)
			rss1 = ru.ru_maxrss;
	}
	rss2 = ru.ru_maxrss;
	EQ(m->threads.table, MODEL_MAX_THREADS);
	EQ(m->threads.live, MODEL_MAX_THREADS);
	EQ(m->threads.evicted, 600000 - MODEL_MAX_THREADS);
#ifndef T_MODEL_SAN	/* ASan keeps freed memory in quarantine */
	CHECK(rss2 - rss1 < 8192, "RSS grew by %ld KiB after the table was "
	    "full", rss2 - rss1);
#else
	(void)rss1;
	(void)rss2;
#endif
	model_free(m);

	/* Finished threads are folded away 10 s after they were seen. */
	m = model_new();
	model_set_reorder(m, 0, 0);
	lb_header(&b);
	lb_block(&b, 0, 0);
	for (i = 0; i < 1000; i++) {
		ev_thr(&b, PROTO_CREATE_THREAD, (uint64_t)i, (uint32_t)i + 1);
		ev_thr(&b, PROTO_RUN_THREAD, (uint64_t)i, (uint32_t)i + 1);
		ev_stop(&b, (uint64_t)i + 1, (uint32_t)i + 1, 5);
	}
	ev_thr(&b, PROTO_CREATE_THREAD, 5 * SEC, 5000);
	feed(m, &b);
	EQ(m->threads.table, 1001);
	lb_free(&b);
	lb_header(&b);
	lb_block(&b, 0, 0);
	ev_thr(&b, PROTO_CREATE_THREAD, 11 * SEC, 5001);
	feed(m, &b);
	EQ(m->threads.table, 2);
	EQ(m->threads.dropped, 1000);
	EQ(m->threads.finished, 1000);
	EQ(m->threads.evicted, 0);
	model_free(m);
	lb_free(&b);
}

/* THREAD_RUNNABLE (GHC before 7.x posted it): a blocked thread is runnable
 * again, no longer counted as blocked on its MVar; a running one stays. */
static void
t_thread_runnable(void)
{
	struct lb		 b = { 0 };
	struct model		*m;
	const struct model_thread *t;

	lb_header(&b);
	lb_block(&b, 0, 0);
	ev_thr(&b, PROTO_CREATE_THREAD, 0, 1);
	ev_thr(&b, PROTO_CREATE_THREAD, 0, 2);
	ev_thr(&b, PROTO_RUN_THREAD, 100 * MS, 1);
	ev_stop(&b, 200 * MS, 1, 7);			/* blocked on an MVar */
	ev_thr(&b, PROTO_RUN_THREAD, 200 * MS, 2);
	ev_thr(&b, PROTO_THREAD_RUNNABLE, 300 * MS, 1);
	ev_thr(&b, PROTO_THREAD_RUNNABLE, 300 * MS, 2);
	m = run(&b, 0);
	t = model_thread_find(m, 1);
	CHECK(t != NULL && t->state == MODEL_T_RUNNABLE, "thread 1: state %d",
	    t != NULL ? (int)t->state : -1);
	t = model_thread_find(m, 2);
	CHECK(t != NULL && t->state == MODEL_T_RUNNING, "thread 2: state %d",
	    t != NULL ? (int)t->state : -1);
	EQ(m->threads.by_state[MODEL_T_BLOCKED], 0);
	EQ(m->threads.blocked_by[7], 0);
	EQ(m->threads.by_state[MODEL_T_RUNNABLE], 1);
	model_free(m);
	lb_free(&b);
}

/*
 * A thread running since before the window: its CPU in the 1 s and 10 s
 * windows (the threads pane's CPU share) is the window's length, not its
 * whole run; and what ran before the window is not in it.
 */
static void
t_thread_window(void)
{
	struct lb		 b = { 0 };
	struct model		*m;
	struct model_thread_row	 rows[4];
	uint64_t		 len;
	int			 n, i, w;
	static const enum model_win wins[] = { MODEL_W1, MODEL_W10 };

	lb_header(&b);
	lb_block(&b, 0, 0);
	ev_thr(&b, PROTO_CREATE_THREAD, 0, 1);
	ev_thr(&b, PROTO_RUN_THREAD, 0, 1);		/* runs on */
	lb_block(&b, 1, 0);
	ev_thr(&b, PROTO_CREATE_THREAD, 0, 2);
	ev_thr(&b, PROTO_RUN_THREAD, 100 * MS, 2);
	ev_stop(&b, 1100 * MS, 2, 3);			/* 1 s, long ago */
	ev_thr(&b, PROTO_CREATE_THREAD, 25 * SEC + 350 * MS, 3);
	m = run(&b, 0);
	EQ(m->now, 25 * SEC + 350 * MS);
	for (w = 0; w < 2; w++) {
		len = m->now - model_win_start(m, wins[w]);
		CHECK(len > 0 && len <= (wins[w] == MODEL_W1 ? 1 : 10) * SEC,
		    "window %d: %llu ns", w, (unsigned long long)len);
		n = model_threads_sorted(m, wins[w], MODEL_TSORT_CPU, rows,
		    4, NULL);
		for (i = 0; i < n; i++) {
			if (rows[i].t->id == 1) {
				EQ(rows[i].cpu_ns, len);
				CHECK(rows[i].share > 0.999 &&
				    rows[i].share < 1.001, "share %g",
				    rows[i].share);
			} else
				EQ(rows[i].cpu_ns, 0);
		}
		CHECK(n >= 2, "%d rows", n);
	}
	n = model_threads_sorted(m, MODEL_WRUN, MODEL_TSORT_CPU, rows, 4,
	    NULL);
	CHECK(n >= 2 && rows[0].t->id == 1 && rows[0].cpu_ns == m->now &&
	    rows[1].t->id == 2 && rows[1].cpu_ns == SEC, "whole run");
	model_free(m);
	lb_free(&b);
}

/* The reorder buffer: blocks of two caps arrive out of order. */
static void
t_reorder(void)
{
	struct lb		 b = { 0 };
	struct model		*m;
	struct model_gc_win	 g;

	/* Cap 1's block (later events) arrives before cap 0's: within the
	 * window, the collection is still seen whole. */
	lb_header(&b);
	lb_block(&b, 1, 0);
	ev0(&b, PROTO_GC_START, 1 * SEC + 200);
	ev0(&b, PROTO_GC_END, 1 * SEC + 900);
	lb_block(&b, 0, 0);
	ev0(&b, PROTO_GC_START, 1 * SEC + 100);
	ev0(&b, PROTO_GC_END, 1 * SEC + 500);
	/* A block 5 s later releases everything before 3 s... */
	lb_block(&b, 0, 0);
	ev_thr(&b, PROTO_CREATE_THREAD, 6 * SEC, 1);
	/* ...so this one from cap 1 at 1 s is late; one at 2 s is not. */
	lb_block(&b, 1, 0);
	ev_thr(&b, PROTO_CREATE_THREAD, 1 * SEC, 2);
	ev_thr(&b, PROTO_CREATE_THREAD, 2 * SEC, 3);
	m = model_new();
	feed(m, &b);
	EQ(m->totals.late, 1);
	EQ(m->totals.held, 1);		/* 6 s; 2 s was released at once */
	model_flush(m);
	EQ(m->totals.held, 0);
	EQ(m->totals.held_bytes, 0);
	model_gc_window(m, MODEL_WRUN, &g);
	EQ(g.count, 1);
	EQ(g.pause_max, 800);
	EQ(m->threads.created, 3);
	EQ(m->now, 6 * SEC);
	model_free(m);

	/* Without reordering the same bytes give two collections. */
	m = model_new();
	model_set_reorder(m, 0, 0);
	feed(m, &b);
	model_gc_window(m, MODEL_WRUN, &g);
	EQ(g.count, 2);
	/* 1.1 s and 1.5 s after 1.9 s, 1 s and 2 s after 6 s. */
	EQ(m->totals.late, 4);
	EQ(m->now, 6 * SEC);
	model_free(m);

	/* The same through a buffer of one byte (two chunks, at least): as
	 * only two streams (caps 0 and 1) hold events, nothing is forced. */
	m = model_new();
	model_set_reorder(m, 10 * SEC, 1);
	feed(m, &b);
	EQ(m->totals.forced, 0);
	model_flush(m);
	EQ(m->totals.held, 0);
	EQ(m->threads.created, 3);
	model_free(m);
	lb_free(&b);

	/* A small buffer releases early (forced) and stays correct: a third
	 * stream needs a third chunk, so the events held are released before
	 * the window allows, oldest first: still one collection. */
	lb_header(&b);
	lb_block(&b, 1, 0);
	ev0(&b, PROTO_GC_START, 1 * SEC + 200);
	ev0(&b, PROTO_GC_END, 1 * SEC + 900);
	lb_block(&b, 0, 0);
	ev0(&b, PROTO_GC_START, 1 * SEC + 100);
	ev0(&b, PROTO_GC_END, 1 * SEC + 500);
	lb_block(&b, 2, 0);
	ev_thr(&b, PROTO_CREATE_THREAD, 1 * SEC + 950, 1);
	m = model_new();
	model_set_reorder(m, 10 * SEC, 1);
	feed(m, &b);
	CHECK(m->totals.forced > 0, "forced %llu",
	    (unsigned long long)m->totals.forced);
	model_flush(m);
	EQ(m->totals.held, 0);
	EQ(m->totals.late, 0);
	model_gc_window(m, MODEL_WRUN, &g);
	EQ(g.count, 1);
	EQ(g.pause_max, 800);
	EQ(m->threads.created, 1);
	model_free(m);
	lb_free(&b);

	/* Many events through a tiny buffer: forced releases. */
	{
		int	i;

		lb_header(&b);
		lb_block(&b, 0, 0);
		for (i = 0; i < 20000; i++)
			ev_str(&b, PROTO_USER_MSG, (uint64_t)i * US,
			    "a message of some length to fill the buffer");
		m = model_new();
		model_set_reorder(m, 100 * SEC, 1);
		feed(m, &b);
		CHECK(m->totals.forced > 0, "forced");
		CHECK(m->totals.held_bytes <= 2 * 65536, "held %llu",
		    (unsigned long long)m->totals.held_bytes);
		model_flush(m);
		EQ(m->msgs.user, 20000);
		EQ(m->totals.late, 0);
		model_free(m);
		lb_free(&b);
	}
}

/* Time profile: self, total once per sample, shares. */
static void
t_prof(void)
{
	struct lb		 b = { 0 };
	struct model		*m;
	struct model_cc_row	 rows[8];
	struct model_stack_row	 st[4];
	struct model_rowq	 q = { 0 };
	uint32_t		 not_id = 2;
	uint32_t		 s1[] = { 3, 2, 1 }, s2[] = { 2, 1 };
	uint32_t		 s3[] = { 3, 2, 3, 1 };	/* recursive */
	uint8_t			 pb[8];
	int			 i, n;

	lb_header(&b);
	lb_block(&b, 0, 0);
	be(pb, 1000000, 8);
	ev(&b, PROTO_PROF_BEGIN, 0, pb, 8);
	ev_cc(&b, 0, 1, "main", "Main");
	ev_cc(&b, 0, 2, "go", "Main");
	ev_cc(&b, 0, 3, "fib", "Fib");
	for (i = 0; i < 5; i++)
		ev_prof(&b, (uint64_t)(i + 1) * MS, s1, 3);
	for (i = 0; i < 3; i++)
		ev_prof(&b, (uint64_t)(i + 10) * MS, s2, 2);
	for (i = 0; i < 2; i++)
		ev_prof(&b, (uint64_t)(i + 20) * MS, s3, 4);
	ev_prof(&b, 30 * MS, NULL, 0);
	m = run(&b, 0);
	EQ(m->prof.samples, 11);
	EQ(m->prof.empty, 1);
	EQ(m->prog.tick_ns, 1000000);
	n = model_top_ccs(m, MODEL_WRUN, 0, rows, 8, NULL);
	EQ(n, 2);
	EQ(rows[0].cc->id, 3);
	EQ(rows[0].self, 7);
	CHECK(strcmp(rows[0].cc->label, "fib") == 0 &&
	    strcmp(rows[0].cc->module, "Fib") == 0, "names");
	EQ(rows[1].cc->id, 2);
	EQ(rows[1].self, 3);
	CHECK(rows[0].self_share > 0.636 && rows[0].self_share < 0.637,
	    "share %f", rows[0].self_share);
	n = model_top_ccs(m, MODEL_WRUN, 1, rows, 8, NULL);
	EQ(n, 3);
	EQ(rows[0].cc->id, 1);
	EQ(rows[0].total, 10);
	EQ(rows[1].cc->id, 2);
	EQ(rows[1].total, 10);
	EQ(rows[2].cc->id, 3);
	EQ(rows[2].total, 7);	/* not 9: once per sample */
	/* Reversed, filtered, both: the whole order is 1 2 3. */
	q.keep = NULL;
	q.reverse = 1;
	n = model_top_ccs(m, MODEL_WRUN, 1, rows, 2, &q);
	EQ(n, 2);
	EQ(q.total, 3);
	EQ(rows[0].cc->id, 3);
	EQ(rows[1].cc->id, 2);
	q.keep = keep_not_cc;
	q.arg = &not_id;
	n = model_top_ccs(m, MODEL_WRUN, 1, rows, 8, &q);
	EQ(n, 2);
	EQ(q.total, 2);
	EQ(rows[0].cc->id, 3);
	EQ(rows[1].cc->id, 1);
	q.reverse = 0;
	n = model_top_ccs(m, MODEL_WRUN, 1, rows, 1, &q);
	EQ(n, 1);
	EQ(q.total, 2);
	EQ(rows[0].cc->id, 1);
	n = model_top_stacks(m, MODEL_W1, st, 4);
	EQ(n, 3);
	EQ(st[0].samples, 5);
	EQ(st[0].depth, 3);
	EQ(st[0].ids[0], 3);
	model_free(m);
	lb_free(&b);
}

/* A stack as model_hist_stacks() gives them: in the order they were made. */
struct stk_ref {
	const uint32_t	*ids;
	uint32_t	 depth;
	uint64_t	 samples;
	size_t		 made;
};

struct stk_refs {
	struct stk_ref	*v;
	size_t		 n;
};

static void
stk_collect(void *arg, const struct model_stack_row *r,
    const struct model_stack_cap *caps, int ncaps)
{
	struct stk_refs	*a = arg;

	(void)caps;
	(void)ncaps;
	if (r->depth == 0)
		return;		/* the samples without a stack */
	a->v[a->n].ids = r->ids;
	a->v[a->n].depth = r->depth;
	a->v[a->n].samples = r->samples;
	a->v[a->n].made = a->n;
	a->n++;
}

/* Most samples first; as many, the one made first. */
static int
stk_cmp(const void *a, const void *b)
{
	const struct stk_ref	*x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return x->made < y->made ? -1 : 1;
}

/*
 * model_top_stacks() against every stack sorted: more stacks than the
 * table holds (the first made are evicted), few samples each (ties all
 * the way), those made during the evictions on top; the asked n under,
 * at and over MODEL_TOP_STACKS.
 */
static void
t_top_stacks(void)
{
	static struct model_stack_row	 st[MODEL_TOP_STACKS + 100];
	struct lb			 b = { 0 };
	struct stk_refs			 a;
	struct model			*m;
	uint32_t			 ids[2], x = 12345;
	uint64_t			 t = MS;
	int				 j, c, k, n, want, bad, w;
	const int			 ns = MODEL_MAX_STACKS + 3000;
	const int			 wants[] = { 1, 16, MODEL_TOP_STACKS,
					    MODEL_TOP_STACKS + 100 };

	lb_header(&b);
	lb_block(&b, 0, 0);
	for (j = 0; j < ns; j++) {
		ids[0] = (uint32_t)(j % 1000) + 1;
		ids[1] = (uint32_t)(j / 1000) + 1;
		x = x * 1103515245u + 12345u;
		for (c = 1 + (int)((x >> 16) % 4); c > 0; c--)
			ev_prof(&b, t += 1000, ids, 2);
	}
	/* The last made, made while the first were evicted, to the top. */
	for (j = ns - 600; j < ns; j++) {
		ids[0] = (uint32_t)(j % 1000) + 1;
		ids[1] = (uint32_t)(j / 1000) + 1;
		for (c = 0; c < 10; c++)
			ev_prof(&b, t += 1000, ids, 2);
	}
	m = run(&b, 0);
	EQ(m->prof.stacks, MODEL_MAX_STACKS);
	a.v = calloc((size_t)ns, sizeof *a.v);
	for (w = 0; w < 2; w++) {
		enum model_win	win = w == 0 ? MODEL_WRUN : MODEL_W10;

		a.n = 0;
		(void)model_hist_stacks(m, win, stk_collect, &a);
		CHECK(a.n > MODEL_TOP_STACKS, "%zu stacks with samples", a.n);
		qsort(a.v, a.n, sizeof *a.v, stk_cmp);
		for (k = 0; k < 4; k++) {
			want = wants[k];
			n = model_top_stacks(m, win, st, want);
			EQ(n, want < MODEL_TOP_STACKS ? want : MODEL_TOP_STACKS);
			for (j = bad = 0; j < n && !bad; j++)
				bad = st[j].ids != a.v[j].ids ||
				    st[j].samples != a.v[j].samples ||
				    st[j].depth != a.v[j].depth;
			CHECK(!bad, "window %d, %d asked: row %d differs", w,
			    want, j - 1);
		}
	}
	free(a.v);
	model_free(m);
	lb_free(&b);
}

/* Heap profile censuses, bands and trends. */
static void
t_heap_prof(void)
{
	struct lb		 b = { 0 };
	struct model		*m;
	struct model_band_row	 rows[4];
	uint8_t			 era[8];
	int			 i, n;

	lb_header(&b);
	lb_block(&b, -1, 0);
	for (i = 0; i < 3; i++) {
		be(era, (uint64_t)i + 1, 8);
		ev(&b, PROTO_HEAP_PROF_SAMPLE_BEGIN, (uint64_t)i * SEC, era,
		    8);
		ev_hsample_str(&b, (uint64_t)i * SEC + 1, 1000 *
		    ((uint64_t)i + 1), "ARR_WORDS");
		ev_hsample_str(&b, (uint64_t)i * SEC + 2, 500, "STACK");
		if (i == 1)
			ev_hsample_str(&b, (uint64_t)i * SEC + 3, 4000,
			    "THUNK");
		ev(&b, PROTO_HEAP_PROF_SAMPLE_END, (uint64_t)i * SEC + 4, era,
		    8);
	}
	m = run(&b, 0);
	EQ(m->hprof.censuses, 3);
	EQ(m->hprof.bands, 3);
	n = model_top_bands(m, rows, 4);
	EQ(n, 2);
	CHECK(strcmp(rows[0].band->name, "ARR_WORDS") == 0, "band %s",
	    rows[0].band->name);
	EQ(rows[0].bytes, 3000);
	EQ(rows[0].delta, 1000);
	EQ(rows[0].ntrend, 3);
	EQ(rows[0].trend[0], 1000);
	EQ(rows[0].trend[2], 3000);
	CHECK(rows[0].share > 0.857 && rows[0].share < 0.858, "share");
	EQ(model_census_recent(m, 0)->total, 3500);
	EQ(model_census_recent(m, 1)->total, 6500);
	model_free(m);
	lb_free(&b);
}

/* Nonmoving censuses are runs of consecutive census events. */
static void
t_nonmoving(void)
{
	struct lb	 b = { 0 };
	struct model	*m;
	uint8_t		 mk[4];

	lb_header(&b);
	lb_block(&b, -1, 0);
	ev_census(&b, 10, 3, 1, 2, 100);
	ev_census(&b, 11, 4, 0, 1, 50);
	lb_block(&b, -1, 0);		/* a block marker does not end it */
	ev_census(&b, 12, 5, 0, 0, 0);
	ev0(&b, PROTO_CONC_MARK_BEGIN, 100);
	be(mk, 77, 4);
	ev(&b, PROTO_CONC_MARK_END, 300, mk, 4);
	ev0(&b, PROTO_CONC_SYNC_BEGIN, 400);
	ev0(&b, PROTO_CONC_SYNC_BEGIN, 410);
	ev0(&b, PROTO_CONC_MARK_BEGIN, 420);
	ev(&b, PROTO_CONC_MARK_END, 430, mk, 4);
	ev0(&b, PROTO_CONC_SYNC_END, 500);
	ev0(&b, PROTO_CONC_SYNC_END, 510);
	ev0(&b, PROTO_CONC_SWEEP_BEGIN, 600);
	ev0(&b, PROTO_CONC_SWEEP_END, 900);
	ev_census(&b, 1000, 3, 4, 4, 400);
	m = run(&b, 0);
	EQ(m->nm.censuses, 2);
	EQ(m->nm.census_events, 4);
	EQ(m->nm.nsizes, 1);
	EQ(m->nm.sizes[0].blk_size, 8);
	EQ(m->nm.sizes[0].live, 400);
	/* (32768 - 24) / 9 = 3638 blocks a segment (GHC's
	 * nonmovingBlockCount for 8-byte blocks), 4 active, 4 filled and
	 * the current segment of the one capability (none seen: there is
	 * one). */
	EQ(m->nm.sizes[0].current, 1);
	EQ(m->nm.sizes[0].capacity, 3638 * 9);
	EQ(m->nm.seg_bytes, 9 * 32768);
	EQ(m->nm.marks, 2);
	EQ(m->nm.mark_ns, 210);
	EQ(m->nm.marked, 154);
	EQ(m->nm.syncs, 1);
	EQ(m->nm.sync_ns, 100);
	EQ(m->nm.sweeps, 1);
	EQ(m->nm.sweep_ns, 300);
	EQ(m->nm.recs, 1);
	EQ(model_nm_recent(m, 0)->marked, 154);
	model_free(m);
	lb_free(&b);
}

/*
 * The census counts the marked blocks of each capability's current
 * segment as live: 16 live 64-byte blocks with no active or filled
 * segment, 2552 live 128-byte blocks in 10 segments (as a real 9.0.2
 * program showed).  The capacity has a current segment per capability.
 */
static void
t_nm_current(void)
{
	struct lb		 b = { 0 };
	struct model		*m;
	const struct model_nm_size *z;
	uint8_t			 o[2];
	int			 ncaps;

	for (ncaps = 1; ncaps <= 2; ncaps++) {
		lb_header(&b);
		lb_block(&b, -1, 0);
		be(o, 0, 2);
		ev(&b, PROTO_CAP_CREATE, 0, o, 2);
		if (ncaps == 2) {
			be(o, 1, 2);
			ev(&b, PROTO_CAP_CREATE, 0, o, 2);
		}
		ev_census(&b, 10, 6, 0, 0, 16);
		ev_census(&b, 10, 7, 3, 7, 2552);
		m = run(&b, 0);
		EQ(m->nm.nsizes, 2);
		z = &m->nm.sizes[0];
		/* 32744 / 65 = 503 blocks a segment. */
		EQ(z->current, ncaps);
		EQ(z->capacity, 503 * ncaps);
		CHECK(fabs(z->occupancy - 16.0 / (503 * ncaps)) < 1e-12,
		    "occupancy %f", z->occupancy);
		z = &m->nm.sizes[1];
		/* 32744 / 129 = 253: 2530 in the 10 active and filled. */
		EQ(z->capacity, 253 * (10 + ncaps));
		CHECK(z->live <= z->capacity, "live %u capacity %llu", z->live,
		    (unsigned long long)z->capacity);
		EQ(m->nm.seg_bytes, (uint64_t)(2 * ncaps + 10) * 32768);
		model_free(m);
		lb_free(&b);
	}
}

/* One GC_STATS_GHC a collection: a second one with no collection awaiting
 * it (the last has its own) changes nothing. */
static void
t_gc_stats_once(void)
{
	struct lb		 b = { 0 };
	struct model		*m;
	struct model_gc_win	 g;

	lb_header(&b);
	lb_block(&b, 0, 0);
	ev0(&b, PROTO_GC_START, 1 * SEC);
	ev0(&b, PROTO_GC_END, 1 * SEC + 100 * MS);
	ev_stats(&b, 1 * SEC + 101 * MS, 1, 4096);
	ev_stats(&b, 1 * SEC + 200 * MS, 0, 999);
	ev_thr(&b, PROTO_CREATE_THREAD, 2 * SEC, 1);
	m = run(&b, 0);
	model_gc_window(m, MODEL_WRUN, &g);
	EQ(g.count, 1);
	EQ(g.count_gen[1], 1);
	EQ(g.count_gen[0], 0);
	EQ(g.count_nogen, 0);
	EQ(g.copied, 4096);
	CHECK(model_gc_recent(m, 0) != NULL &&
	    model_gc_recent(m, 0)->copied == 4096 &&
	    model_gc_recent(m, 0)->gen == 1, "the record keeps its stats");
	model_free(m);
	lb_free(&b);
}

/* Sparks run (SPARK_RUN events) before the cap's first SPARK_COUNTERS are
 * in its count already: 2 events, then counters saying 5 converted, then
 * 9: 9 converted in all, in the window as in the whole run. */
static void
t_sparks_baseline(void)
{
	struct lb	 b = { 0 };
	struct model	*m;
	uint8_t		 sc[56];

	lb_header(&b);
	lb_block(&b, 0, 0);
	ev0(&b, PROTO_SPARK_RUN, 100 * MS);
	ev0(&b, PROTO_SPARK_RUN, 200 * MS);
	memset(sc, 0, sizeof sc);
	be(sc + 24, 5, 8);	/* converted */
	ev(&b, PROTO_SPARK_COUNTERS, 300 * MS, sc, 56);
	be(sc + 24, 9, 8);
	ev(&b, PROTO_SPARK_COUNTERS, 400 * MS, sc, 56);
	m = run(&b, 0);
	EQ(model_cap_sparks(m, m->caps[0], MODEL_S_SPARKS_CONVERTED,
	    MODEL_WRUN), 9);
	EQ(model_cap_sparks(m, m->caps[0], MODEL_S_SPARKS_CONVERTED,
	    MODEL_W1), 9);
	EQ(model_sum(m, MODEL_S_SPARKS_CONVERTED, MODEL_WRUN), 9);
	model_free(m);
	lb_free(&b);
}

/* Messages, sanitized; heap figures; sparks. */
static void
t_misc(void)
{
	struct lb		 b = { 0 };
	struct model		*m;
	const struct model_msg	*g;
	uint8_t			 sc[56];

	lb_header(&b);
	lb_block(&b, 0, 0);
	ev_str(&b, PROTO_USER_MSG, 10, "hello\tworld");
	ev_str(&b, PROTO_USER_MARKER, 20, "mark");
	ev_str(&b, PROTO_LOG_MSG, 30, "log");
	ev_capset64(&b, PROTO_HEAP_ALLOCATED, 0, 0, 1000);
	ev_capset64(&b, PROTO_HEAP_ALLOCATED, 500 * MS, 0, 5000);
	ev_capset64(&b, PROTO_HEAP_SIZE, 500 * MS, 0, 1 << 20);
	ev_capset64(&b, PROTO_HEAP_LIVE, 500 * MS, 0, 1 << 19);
	memset(sc, 0, sizeof sc);
	be(sc, 10, 8);		/* created */
	be(sc + 24, 7, 8);	/* converted */
	ev(&b, PROTO_SPARK_COUNTERS, 600 * MS, sc, 56);
	be(sc, 30, 8);
	ev(&b, PROTO_SPARK_COUNTERS, 900 * MS, sc, 56);
	ev0(&b, PROTO_SPARK_CREATE, 900 * MS);
	lb_block(&b, 1, 0);
	ev_capset64(&b, PROTO_HEAP_ALLOCATED, 100 * MS, 0, 300);
	ev_capset64(&b, PROTO_HEAP_ALLOCATED, 900 * MS, 0, 2300);
	/* The cumulative count went back: it started again, and 800 bytes
	 * are what was allocated since. */
	ev_capset64(&b, PROTO_HEAP_ALLOCATED, 940 * MS, 0, 800);
	ev0(&b, PROTO_SPARK_CREATE, 950 * MS);
	ev_thr(&b, PROTO_CREATE_THREAD, 1000 * MS, 1);
	m = run(&b, 0);
	EQ(m->msgs.user, 1);
	EQ(m->msgs.markers, 1);
	EQ(m->msgs.log, 1);
	g = model_msg_recent(m, 2);
	CHECK(g != NULL && strcmp(g->text, "hello.world") == 0 && g->cap == 0,
	    "message");
	CHECK(model_msg_recent(m, 3) == NULL, "ring");
	/* Per cap: 1000 + 4000 and 300 + 2000 + 800; rates from the
	 * deltas (the first of each cap is since the start). */
	EQ(m->heap.allocated, 8100);
	EQ(model_sum(m, MODEL_S_ALLOC, MODEL_WRUN), 6800);
	EQ(m->heap.size, 1 << 20);
	EQ(m->heap.live, 1 << 19);
	/* Cap 0 has counters: 30 created; cap 1 only events: 1. */
	EQ(model_sum(m, MODEL_S_SPARKS_CREATED, MODEL_WRUN), 31);
	EQ(model_sum(m, MODEL_S_SPARKS_CONVERTED, MODEL_WRUN), 7);
	EQ(model_cap_sparks(m, m->caps[0], MODEL_S_SPARKS_CREATED,
	    MODEL_WRUN), 30);
	EQ(model_cap_sparks(m, m->caps[0], MODEL_S_SPARKS_CREATED, MODEL_W1),
	    30);
	EQ(m->caps[0]->sparks.ev_create, 1);
	EQ(model_cap_sparks(m, m->caps[1], MODEL_S_SPARKS_CREATED,
	    MODEL_WRUN), 1);
	model_free(m);
	lb_free(&b);
}

/* A new header: same pid goes on, another pid starts a new program. */
static void
t_sessions(void)
{
	struct lb	 b = { 0 };
	struct model	*m;

	lb_header(&b);
	lb_block(&b, -1, 0);
	ev(&b, PROTO_RTS_IDENTIFIER, 0, "\0\0\0\0GHC-9.0.2 rts_thr", 21);
	ev_pid(&b, 0, 100);
	lb_block(&b, 0, 0);
	ev_thr(&b, PROTO_CREATE_THREAD, 10, 1);
	lb_end(&b);
	ev_thr(&b, PROTO_RUN_THREAD, 20, 1);
	lb_end(&b);
	/* Reconnect, GHC 9.0.2 style: no start-up events. */
	lb_header(&b);
	lb_block(&b, 0, 0);
	ev_thr(&b, PROTO_CREATE_THREAD, 5 * SEC, 2);
	ev_stop(&b, 5 * SEC + 100, 1, 3);
	m = run(&b, 1);
	EQ(m->prog.sessions, 2);
	EQ(m->prog.resets, 0);
	EQ(m->threads.created, 2);
	EQ(m->prog.pid, 100);
	/* Thread 1 ran from 20 ns to the end of the first session only. */
	EQ(model_thread_find(m, 1)->cpu_ns, 0);
	EQ(m->caps[0]->run_ns, 0);
	EQ(m->threads.by_state[MODEL_T_RUNNING], 0);
	model_free(m);

	/* Same pid again: goes on. */
	lb_end(&b);
	lb_header(&b);
	lb_block(&b, -1, 0);
	ev_pid(&b, 6 * SEC, 100);
	ev_thr(&b, PROTO_CREATE_THREAD, 6 * SEC, 3);
	m = run(&b, 1);
	EQ(m->prog.sessions, 3);
	EQ(m->prog.resets, 0);
	EQ(m->threads.created, 3);
	model_free(m);

	/* Another pid: a new program, its events counted afresh from the
	 * pid that tells it (its session's RTS id kept). */
	lb_end(&b);
	lb_header(&b);
	lb_block(&b, -1, 0);
	ev(&b, PROTO_RTS_IDENTIFIER, 100, "\0\0\0\0GHC-9.4 rts", 15);
	ev_pid(&b, 100, 200);
	ev_thr(&b, PROTO_CREATE_THREAD, 200, 1);
	m = run(&b, 1);
	EQ(m->prog.sessions, 4);
	EQ(m->prog.resets, 1);
	EQ(m->prog.pid, 200);
	EQ(m->threads.created, 1);
	EQ(m->threads.table, 1);
	EQ(m->now, 200);
	EQ(m->totals.events, 2);
	EQ(m->tag_count[PROTO_CREATE_THREAD], 1);
	EQ(m->tag_count[PROTO_OSPROCESS_PID], 1);
	EQ(m->tag_count[PROTO_RTS_IDENTIFIER], 0);
	CHECK(strcmp(m->prog.rts_id, "GHC-9.4 rts") == 0, "rts %s",
	    m->prog.rts_id);
	model_free(m);
	lb_free(&b);

	/*
	 * No pid (GHC 9.0.2 tells it only at exit): the clock decides.  A
	 * session whose first event is a little older goes on; one whose
	 * clock starts again near 0 is a new program.
	 */
	memset(&b, 0, sizeof b);
	lb_header(&b);
	lb_block(&b, 0, 0);
	ev_thr(&b, PROTO_CREATE_THREAD, 5 * SEC, 1);
	lb_end(&b);
	lb_header(&b);
	lb_block(&b, 0, 0);
	ev_thr(&b, PROTO_CREATE_THREAD, 4 * SEC, 2);
	lb_end(&b);
	lb_header(&b);
	lb_block(&b, 0, 0);
	ev_thr(&b, PROTO_CREATE_THREAD, 1000, 1);
	m = run(&b, 1);
	EQ(m->prog.sessions, 3);
	EQ(m->prog.resets, 1);
	EQ(m->threads.created, 1);
	EQ(m->now, 1000);
	model_free(m);
	lb_free(&b);
}

/* Full profile tables evict and count. */
static void
t_table_evictions(void)
{
	struct lb	 b = { 0 };
	struct model	*m;
	char		 name[32];
	uint32_t	 ids[2];
	uint8_t		 era[8];
	int		 i;

	lb_header(&b);
	lb_block(&b, -1, 0);
	for (i = 0; i < MODEL_MAX_CCS + 100; i++) {
		snprintf(name, sizeof name, "cc%d", i);
		ev_cc(&b, 1, (uint32_t)i, name, "M");
	}
	for (i = 0; i < MODEL_MAX_STACKS + 50; i++) {
		ids[0] = (uint32_t)i;
		ids[1] = MODEL_MAX_CCS + 50;
		ev_prof(&b, 2, ids, 2);
	}
	be(era, 1, 8);
	ev(&b, PROTO_HEAP_PROF_SAMPLE_BEGIN, 3, era, 8);
	for (i = 0; i < MODEL_MAX_BANDS + 10; i++) {
		snprintf(name, sizeof name, "band%d", i);
		ev_hsample_str(&b, 4, 100, name);
	}
	ev(&b, PROTO_HEAP_PROF_SAMPLE_END, 5, era, 8);
	m = run(&b, 0);
	EQ(m->prof.cc_defs, MODEL_MAX_CCS + 100);
	EQ(m->prof.ccs, MODEL_MAX_CCS);
	/* 100 by the definitions, then the samples' new ids push out
	 * definitions never sampled. */
	CHECK(m->prof.ccs_evicted >= 100, "ccs evicted %llu",
	    (unsigned long long)m->prof.ccs_evicted);
	EQ(m->prof.stacks, MODEL_MAX_STACKS);
	EQ(m->prof.stacks_evicted, 50);
	EQ(m->hprof.bands, MODEL_MAX_BANDS);
	EQ(m->hprof.bands_evicted, 10);
	/* One defined late and in every sample: kept, with its name; one
	 * defined first and never sampled: evicted. */
	CHECK(model_cc_find(m, MODEL_MAX_CCS + 50) != NULL &&
	    strcmp(model_cc_find(m, MODEL_MAX_CCS + 50)->label, "cc65586") ==
	    0, "kept");
	EQ(model_cc_find(m, MODEL_MAX_CCS + 50)->total, MODEL_MAX_STACKS + 50);
	CHECK(model_cc_find(m, 0) == NULL || !model_cc_find(m, 0)->defined ||
	    model_cc_find(m, 0)->total > 0, "cc0");
	model_free(m);
	lb_free(&b);
}

/* Decode errors and unknown tags are counted. */
static void
t_errors(void)
{
	struct model	*m = model_new();
	char		 buf[32];

	model_error(m, "bad \x1b bytes");
	EQ(m->totals.errors, 1);
	CHECK(strcmp(m->totals.last_error, "bad . bytes") == 0, "%s",
	    m->totals.last_error);
	CHECK(strcmp(model_tag_name(300, buf, sizeof buf), "UNKNOWN_300") ==
	    0, "name");
	CHECK(strcmp(model_tag_name(1, buf, sizeof buf), "RUN_THREAD") == 0,
	    "name");
	model_free(m);
}

/* History slots and rates. */
static void
t_history(void)
{
	struct lb	 b = { 0 };
	struct model	*m;
	double		 h[40];
	int		 i, n;

	lb_header(&b);
	lb_block(&b, 0, 0);
	/* 10 events in each 100 ms slot for 3 s. */
	for (i = 0; i < 300; i++)
		ev_str(&b, PROTO_USER_MSG, (uint64_t)i * 10 * MS, "x");
	ev_thr(&b, PROTO_RUN_THREAD, 2990 * MS + 1, 1);
	m = run(&b, 0);
	n = model_history(m, MODEL_S_EVENTS, h, 40);
	EQ(n, 30);
	EQ(h[0], 10);
	EQ(h[28], 10);
	EQ(h[29], 11);
	EQ(model_sum(m, MODEL_S_EVENTS, MODEL_W1), 101);
	EQ(model_win_ns(m, MODEL_W1), 2990 * MS + 1 - 2000 * MS);
	CHECK(model_rate(m, MODEL_S_MESSAGES, MODEL_WRUN) > 100.3 &&
	    model_rate(m, MODEL_S_MESSAGES, MODEL_WRUN) < 100.4, "rate %f",
	    model_rate(m, MODEL_S_MESSAGES, MODEL_WRUN));
	n = model_cap_history(m, m->caps[0], h, 40);
	EQ(n, 30);
	EQ(h[0], 0);
	model_free(m);
	lb_free(&b);
}

/* The model's JSON without the parts that may differ between a file and a
 * live feed: reorder figures, and decode errors (merge stops at a
 * truncation with a message of its own). */
static char *
json_of(const struct model *m)
{
	char	*j = NULL, *p, *q;
	size_t	 n = 0;
	FILE	*f;

	f = open_memstream(&j, &n);
	model_json(m, f);
	fclose(f);
	if ((p = strstr(j, ",\"errors\":")) != NULL &&
	    (q = strstr(p, ",\"late\"")) != NULL)
		memmove(p, q, strlen(q) + 1);
	if ((p = strstr(j, ",\"late\":")) != NULL &&
	    (q = strstr(p, ",\"rates\"")) != NULL)
		memmove(p, q, strlen(q) + 1);
	return j;
}

/* The events of b after its header, decoded into ev[] (at most max; they
 * borrow nothing: no strings), and the header into *d: how many. */
static size_t
decode_all(struct lb *b, struct proto_dec *d, struct proto_ev *ev, size_t max)
{
	enum proto_res	r;
	size_t		off = 0, n = 0;

	lb_end(b);
	for (;;) {
		r = proto_dec_next(d, &ev[n]);
		if (r == PROTO_EVENT && n < max)
			n++;
		else if (r == PROTO_AGAIN) {
			if (off == b->n)
				break;
			off += proto_dec_feed(d, b->p + off, b->n - off);
		} else if (r == PROTO_ERROR)
			abort();
	}
	return n;
}

struct restore_src {
	const char	*p;
	size_t		 n;
};

static int
restore_fill(void *arg, void *dst, size_t n)
{
	const struct restore_src *s = arg;

	if (n != s->n)
		return -1;
	memcpy(dst, s->p, n);
	return 0;
}

/* A state restored drops what the reorder buffer held back, whose copies
 * a checkpoint does not keep (the holes: zeros here, as a checkpoint
 * gives them back); given those events again, the model ends as if it had
 * had them once. */
static void
t_restore_held(void)
{
	static struct proto_ev	 evs[1200];
	struct proto_dec	*d = proto_dec_new(1 << 20);
	struct restore_src	 src;
	struct model		*m, *r;
	struct lb		 b = { 0 };
	const char		*st, *h = NULL;
	char			*buf, *ja, *jb;
	size_t			 n, i, k, len, hn, holes = 0;

	/* Two caps' blocks, the second's older: all held in a long window. */
	lb_header(&b);
	for (k = 0; k < 2; k++) {
		lb_block(&b, 1 - (int)k, 0);
		for (i = 0; i < 200; i++) {
			uint64_t t = (k == 0 ? 2 : 1) * SEC + i * 1000;

			ev_thr(&b, PROTO_RUN_THREAD, t, (uint32_t)(k * 10 + i % 5));
			ev_stop(&b, t + 400, (uint32_t)(k * 10 + i % 5), 14);
			if (i % 50 == 0) {
				ev0(&b, PROTO_GC_START, t + 500);
				ev0(&b, PROTO_GC_END, t + 900);
			}
		}
	}
	n = decode_all(&b, d, evs, sizeof evs / sizeof evs[0]);

	r = model_new();
	model_set_reorder(r, 100 * SEC, 8u << 20);
	model_header(r, d);
	for (i = 0; i < n; i++)
		model_apply(r, &evs[i]);
	model_flush(r);

	m = model_new();
	model_set_reorder(m, 100 * SEC, 8u << 20);
	model_header(m, d);
	for (i = 0; i < n; i++)
		model_apply(m, &evs[i]);
	CHECK(m->totals.held > 0, "held %llu", (unsigned long long)m->totals.held);
	st = model_state(m, &len);
	buf = malloc(len);
	memcpy(buf, st, len);
	while ((h = model_state_hole(m, h, &hn)) != NULL) {
		CHECK(h >= st && hn <= len - (size_t)(h - st), "hole in state");
		memset(buf + (h - st), 0, hn);
		holes += hn;
	}
	/* Two streams: a chunk each at least. */
	CHECK(holes >= 2 * 65536, "holes %zu bytes", holes);
	/* Later, released: then back. */
	model_flush(m);
	src.p = buf;
	src.n = len;
	EQ(model_restore(m, len, restore_fill, &src), 0);
	EQ(m->totals.held, 0);
	/* (Block markers count as they come: the state has them.) */
	for (i = 0; i < n; i++)
		if (evs[i].kind != PROTO_BLOCK_MARKER)
			model_apply(m, &evs[i]);
	model_flush(m);
	ja = json_of(r);
	jb = json_of(m);
	CHECK(strcmp(ja, jb) == 0, "restored and given again: %s\nvs once: %s",
	    jb, ja);
	EQ(m->threads.runs, 400);
	free(ja);
	free(jb);
	free(buf);
	model_free(m);
	model_free(r);
	proto_dec_free(d);
	lb_free(&b);
}

/* The model of a file replayed (the reader's order, from where mg is). */
static struct model *
file_model(struct reader *mg)
{
	struct model	*m = model_new();
	struct proto_ev	 e;

	model_set_reorder(m, 0, 0);
	model_header(m, reader_dec(mg));
	while (reader_next(mg, &e) == PROTO_EVENT)
		model_apply(m, &e);
	model_flush(m);
	return m;
}

/* The same file gives the same JSON through merge (in order) and fed in
 * arrival order through the reorder buffer: always with a window long
 * enough for the whole log, and with the default window when no event
 * came later than it. */
static void
t_file_vs_live(const char *path)
{
	struct reader	*mg;
	struct model	*a, *b;
	struct lb	 raw = { 0 };
	char		*cause = NULL, *ja, *jb, buf[65536];
	size_t		 n;
	FILE		*f;
	int		 pass;

	if ((mg = reader_open(path, &cause)) == NULL) {
		CHECK(0, "%s: %s", path, cause);
		free(cause);
		return;
	}
	a = file_model(mg);
	reader_free(mg);
	ja = json_of(a);

	if ((f = fopen(path, "rb")) == NULL) {
		CHECK(0, "%s", path);
		return;
	}
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		put(&raw, buf, n);
	fclose(f);
	for (pass = 0; pass < 2; pass++) {
		b = model_new();
		if (pass == 0)
			model_set_reorder(b, 3600 * SEC, 64u << 20);
		feed(b, &raw);
		model_flush(b);
		jb = json_of(b);
		if (pass == 0)
			EQ(b->totals.late, 0);
		if (pass == 0 || b->totals.late == 0)
			CHECK(strcmp(ja, jb) == 0, "%s: file and live (%s "
			    "window) differ:\n%s\n%s", path, pass ? "default" :
			    "long", ja, jb);
		free(jb);
		model_free(b);
	}
	free(raw.p);
	free(ja);
	model_free(a);
}

/*
 * GHC 9.0 sends its global events (capability sets, tasks, the program's
 * identity) at exit with the times of the start: applied late, where they
 * belong (model_late_global()), the figures are a replay's, none late.
 * The file's events in time order but those of the kinds that may go
 * anywhere, which come after them all, through a reorder window of 1 ms.
 * With more than one of a kind set once, or sessions, they may not: then
 * only those are late.
 */
static void
t_globals_late(const char *path)
{
	struct reader	*mg;
	struct model	*a, *b;
	struct proto_ev	 e;
	char		*cause = NULL, *ja, *jb;
	uint64_t	 moved = 0;
	int		 pass;

	if ((mg = reader_open(path, &cause)) == NULL) {
		free(cause);
		return;
	}
	a = file_model(mg);
	ja = json_of(a);
	b = model_new();
	model_set_reorder(b, 1000000, 64u << 20);
	model_header(b, reader_dec(mg));
	for (pass = 0; pass < 2; pass++) {
		if (reader_seek(mg, 0, 0) != 0)
			break;
		while (reader_next(mg, &e) == PROTO_EVENT) {
			if (model_late_global_kind(&e) != pass)
				continue;
			moved += pass;
			model_apply(b, &e);
		}
	}
	model_flush(b);
	jb = json_of(b);
	if (a->prog.sessions <= 1 && a->prog.resets == 0 &&
	    a->tag_count[PROTO_RTS_IDENTIFIER] <= 1 &&
	    a->tag_count[PROTO_PROGRAM_ARGS] <= 1 &&
	    a->tag_count[PROTO_OSPROCESS_PID] <= 1 &&
	    a->tag_count[PROTO_OSPROCESS_PPID] <= 1 &&
	    a->tag_count[PROTO_WALL_CLOCK_TIME] <= 1 &&
	    a->tag_count[PROTO_HEAP_INFO_GHC] <= 1 &&
	    a->prog.caps_deleted == 0 && a->prog.caps_disabled == 0) {
		CHECK(moved > 0 && b->totals.late == 0 && strcmp(ja, jb) == 0,
		    "%s: %llu global events after the rest, late %llu: "
		    "file and live differ:\n%s\n%s", path,
		    (unsigned long long)moved,
		    (unsigned long long)b->totals.late, ja, jb);
	} else
		CHECK(b->totals.late <= moved, "%s: late %llu of %llu moved",
		    path, (unsigned long long)b->totals.late,
		    (unsigned long long)moved);
	reader_free(mg);
	free(ja);
	free(jb);
	model_free(a);
	model_free(b);
}

/*
 * The GC pane's live column on a real log: each collection's live bytes are
 * those of the HEAP_LIVE the GC leader posts after its own GC_END
 * (stat_endGC), which may come before the other caps' GC_END (the
 * nonmoving fixture) or after; worked out here from the events themselves,
 * with collections as tests/ref/figures.hs delimits them: one starts when
 * no cap is in GC, ends when none is left in GC.
 */
#define LIVE_N	64
static void
t_gc_live_file(const char *path)
{
	struct reader	*mg;
	struct model	*m;
	struct proto_ev	 e;
	const struct model_gc_rec *r;
	char		*cause = NULL;
	uint8_t		 in[4097];
	uint64_t	 live[LIVE_N] = { 0 }, seq = 0, want;
	int		 n_in = 0, waiting = 0, i, k, nz = 0;

	if ((mg = reader_open(path, &cause)) == NULL) {
		free(cause);
		return;
	}
	memset(in, 0, sizeof in);
	m = model_new();
	model_set_reorder(m, 0, 0);
	model_header(m, reader_dec(mg));
	while (reader_next(mg, &e) == PROTO_EVENT) {
		model_apply(m, &e);
		k = e.cap >= 0 && e.cap < 4096 ? e.cap : 4096;
		if (e.kind == PROTO_GC_START && !in[k]) {
			in[k] = 1;
			if (n_in++ == 0) {
				seq++;
				live[seq % LIVE_N] = 0;
				waiting = 0;
			}
		} else if (e.kind == PROTO_GC_END && in[k]) {
			in[k] = 0;
			if (--n_in == 0)
				waiting = 1;
		} else if (e.kind == PROTO_HEAP_LIVE && (waiting || n_in > 0)) {
			live[seq % LIVE_N] = e.u.heap.bytes;
			waiting = 0;
		}
	}
	reader_free(mg);
	if (n_in > 0)		/* still open: not a record */
		seq--;
	for (i = 0; i < LIVE_N / 2 && (r = model_gc_recent(m, i)) != NULL;
	    i++) {
		want = r->seq <= seq ? live[r->seq % LIVE_N] : 0;
		CHECK(r->live == want, "%s: collection %llu: live %llu, want "
		    "%llu", path, (unsigned long long)r->seq,
		    (unsigned long long)r->live, (unsigned long long)want);
		nz += want != 0;
	}
	/* The logs with HEAP_LIVE have it after their last major collection. */
	if (m->heap.live > 0)
		CHECK(nz > 0, "%s: no recent collection with live bytes", path);
	model_free(m);
}

/*
 * The threads pane's cap column on a real log: a thread is on the cap it
 * last ran or was created on, or the one it last migrated to
 * (MIGRATE_THREAD's new cap), whichever came last; worked out from the
 * events here.
 */
#define CAPS_N	4096
static void
t_thread_caps_file(const char *path)
{
	struct reader	*mg;
	struct model	*m;
	struct proto_ev	 e;
	const struct model_thread *t;
	char		*cause = NULL;
	static int	 cap[CAPS_N];
	uint32_t	 id;
	int		 moved = 0, bad = 0, seen = 0;

	if ((mg = reader_open(path, &cause)) == NULL) {
		free(cause);
		return;
	}
	memset(cap, 0xff, sizeof cap);		/* -1: not known */
	m = model_new();
	model_set_reorder(m, 0, 0);
	model_header(m, reader_dec(mg));
	while (reader_next(mg, &e) == PROTO_EVENT) {
		model_apply(m, &e);
		switch (e.kind) {
		case PROTO_RUN_THREAD:
		case PROTO_CREATE_THREAD:
		case PROTO_CREATE_SPARK_THREAD:
			if (e.cap >= 0 && e.u.thread.thread < CAPS_N)
				cap[e.u.thread.thread] = e.cap;
			break;
		case PROTO_MIGRATE_THREAD:
			if (e.u.migrate.thread < CAPS_N) {
				cap[e.u.migrate.thread] = e.u.migrate.cap;
				moved++;
			}
			break;
		}
	}
	reader_free(mg);
	for (id = 0; id < CAPS_N; id++) {
		if (cap[id] < 0 || (t = model_thread_find(m, id)) == NULL)
			continue;
		seen++;
		if (t->cap != cap[id] && bad++ < 3)
			CHECK(0, "%s: thread %u on cap %d, want %d", path, id,
			    t->cap, cap[id]);
	}
	CHECK(bad == 0, "%s: %d of %d threads on the wrong cap (%d "
	    "migrations)", path, bad, seen, moved);
	model_free(m);
}

/*
 * Every nonmoving census of a real log: the live blocks GHC counts (the
 * marked ones of the current segments too) fit in the capacity, which
 * has a current segment per capability the log created.
 */
static void
t_nm_capacity_file(const char *path)
{
	struct reader		*mg;
	struct model		*m;
	struct proto_ev		 e;
	const struct model_nm_size *z;
	char			*cause = NULL;
	uint64_t		 n = 0, over = 0;
	int			 caps = 0;

	if ((mg = reader_open(path, &cause)) == NULL) {
		free(cause);
		return;
	}
	m = model_new();
	model_set_reorder(m, 0, 0);
	model_header(m, reader_dec(mg));
	while (reader_next(mg, &e) == PROTO_EVENT) {
		if (e.kind == PROTO_CAP_CREATE && e.u.cap.cap + 1 > caps)
			caps = e.u.cap.cap + 1;
		model_apply(m, &e);
		if (e.kind != PROTO_NONMOVING_HEAP_CENSUS || m->nm.nsizes == 0)
			continue;
		z = &m->nm.sizes[m->nm.nsizes - 1];
		n++;
		if (z->live > z->capacity && over++ < 3)
			CHECK(0, "%s: %u-byte blocks: %u live, capacity %llu "
			    "(%u active, %u filled, %u current)", path,
			    z->blk_size, z->live,
			    (unsigned long long)z->capacity, z->active,
			    z->filled, z->current);
		if (caps > 0 && z->current != (uint32_t)caps && over++ < 3)
			CHECK(0, "%s: %u current segments, %d caps created",
			    path, z->current, caps);
	}
	CHECK(over == 0, "%s: %llu of %llu census sizes wrong", path,
	    (unsigned long long)over, (unsigned long long)n);
	reader_free(mg);
	model_free(m);
}

/* Read everything the UI can read, to /dev/null: no crash, no leak. */
static void
read_all(const struct model *m, FILE *null)
{
	struct model_thread_row	 tr[16];
	struct model_cc_row	 cr[16];
	struct model_stack_row	 sr[16];
	struct model_band_row	 br[16];
	struct model_gc_win	 g;
	struct model_util	 u;
	double			 h[MODEL_NSLOTS];
	int			 w, i;

	model_json(m, null);
	model_text(m, null);
	for (w = 0; w < MODEL_NWIN; w++) {
		model_gc_window(m, (enum model_win)w, &g);
		model_caps_util(m, (enum model_win)w, &u);
		(void)model_threads_sorted(m, (enum model_win)w,
		    MODEL_TSORT_TOTAL, tr, 16, NULL);
		(void)model_top_ccs(m, (enum model_win)w, 1, cr, 16, NULL);
		(void)model_top_stacks(m, (enum model_win)w, sr, 16);
	}
	(void)model_top_bands(m, br, 16);
	for (i = 0; i < MODEL_NSERIES; i++)
		(void)model_history(m, (enum model_series)i, h, MODEL_NSLOTS);
	for (i = 0; i < m->prog.ncaps; i++)
		if (m->caps[i] != NULL)
			(void)model_cap_history(m, m->caps[i], h, MODEL_NSLOTS);
	for (i = 0; model_gc_recent(m, i) != NULL; i++)
		;
	for (i = 0; model_msg_recent(m, i) != NULL; i++)
		;
	for (i = 0; model_census_recent(m, i) != NULL; i++)
		;
	for (i = 0; model_nm_recent(m, i) != NULL; i++)
		;
}

/* Damaged copies of a log, fed live through a small buffer: the model
 * takes whatever the decoder makes of them. */
static void
t_mutations(const char *path, int rounds)
{
	struct lb	 raw = { 0 }, cp = { 0 };
	struct model	*m;
	char		 buf[65536];
	size_t		 n, i, k;
	uint32_t	 x = 2463534242u;
	FILE		*f, *null;
	int		 r;

	if ((f = fopen(path, "rb")) == NULL || (null = fopen("/dev/null",
	    "w")) == NULL)
		return;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		put(&raw, buf, n);
	fclose(f);
	for (r = 0; r < rounds && raw.n > 0; r++) {
		cp.n = 0;
		put(&cp, raw.p, raw.n);
		/* A few random bytes, then maybe a cut or a doubled part. */
		for (k = 0; k < 1 + (size_t)r % 8; k++) {
			x ^= x << 13, x ^= x >> 17, x ^= x << 5;
			cp.p[x % cp.n] = (uint8_t)(x >> 8);
		}
		if (r % 3 == 1)
			cp.n = x % cp.n;
		else if (r % 3 == 2 && cp.n > 64) {
			i = x % (cp.n / 2);
			put(&cp, cp.p + i, cp.n / 4);
		}
		m = model_new();
		model_set_reorder(m, (uint64_t)(r % 4) * SEC / 4, 1);
		feed(m, &cp);
		if (r % 5 == 0)
			model_reset_window(m);
		read_all(m, null);
		model_flush(m);
		read_all(m, null);
		CHECK(m->totals.held == 0, "%s: held after flush", path);
		model_free(m);
	}
	free(raw.p);
	free(cp.p);
	fclose(null);
}

int
main(int argc, char **argv)
{
	int	i;

	t_gc_two_caps();
	t_gc_percentiles();
	t_gc_windows();
	t_gc_mmu();
	t_gc_rate();
	t_gc_mmu_lost();
	t_gc_late_slot();
	t_threads();
	t_thread_eviction();
	t_thread_window();
	t_thread_runnable();
	t_reorder();
	t_prof();
	t_top_stacks();
	t_heap_prof();
	t_nonmoving();
	t_nm_current();
	t_gc_stats_once();
	t_sparks_baseline();
	t_misc();
	t_sessions();
	t_errors();
	t_history();
	t_table_evictions();
	t_restore_held();
	for (i = 1; i < argc; i++) {
		t_file_vs_live(argv[i]);
		t_globals_late(argv[i]);
		t_gc_live_file(argv[i]);
		t_nm_capacity_file(argv[i]);
		t_thread_caps_file(argv[i]);
		t_mutations(argv[i], 24);
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed != 0;
}
