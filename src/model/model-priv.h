/*
 * model-priv.h: the model's insides, shared by src/model*.c only.
 * Everything outside the model reads model.h.
 */
#ifndef MODEL_PRIV_H
#define MODEL_PRIV_H

#include <string.h>

#include "model/model.h"

/* A cheap hash for uthash: the keys are ids or short byte strings. */
#define HASH_FUNCTION(keyptr, keylen, hashv) \
	((hashv) = model_hash((const void *)(keyptr), (size_t)(keylen)))
/* uthash's tables live in the model's heap too (model-mem.c): every
 * HASH_ADD and HASH_DEL in the model has its model at hand as `m`. */
#define uthash_malloc(sz)	mheap_alloc(mheap_of(m), (sz))
#define uthash_free(ptr, sz)	mheap_free(ptr)
#include <uthash.h>
/* Expand the bucket array sooner than uthash's 10 per chain: lookups are
 * the hot path, buckets are 16 bytes.  Not as soon as 3: with items coming
 * and going (threads by the million), chains of 6 turn up by chance, and
 * each doubled the array again (16 M buckets for 100 000 threads). */
#undef HASH_BKT_CAPACITY_THRESH
#define HASH_BKT_CAPACITY_THRESH 5U

#define SEC_NS		1000000000ULL
#define SLOTS_PER_SEC	(SEC_NS / MODEL_SLOT_NS)
#define WIN_SLOTS	10	/* MODEL_W1 in slots, MODEL_W10 in seconds */
#define FOLD_NS		(10 * SEC_NS)	/* finished threads kept this long */
#define NM_SEG_BYTES	32768	/* GHC's nonmoving segment size */
#define NM_SEG_HDR	24	/* its header on 64-bit hosts: two pointers,
				 * two block indices, the size, padded */
#define FINE_NHIST	(64 * 16)	/* 1/16 octave pause buckets */

static inline uint32_t
model_hash(const void *key, size_t len)
{
	const uint8_t	*p = key;
	uint64_t	 h = 0x9e3779b97f4a7c15ULL ^ len;
	uint64_t	 w;
	size_t		 i;

	for (i = 0; i + 4 <= len; i += 4) {
		w = (uint32_t)p[i] | (uint32_t)p[i + 1] << 8 |
		    (uint32_t)p[i + 2] << 16 | (uint32_t)p[i + 3] << 24;
		h = (h ^ w) * 0xff51afd7ed558ccdULL;
		h ^= h >> 29;
	}
	for (; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	h ^= h >> 32;
	h *= 0xc4ceb9fe1a85ec53ULL;
	h ^= h >> 29;
	return (uint32_t)h;
}

/*
 * A counter with its own small windows: ten 100 ms slots (MODEL_W1) and ten
 * one-second buckets (MODEL_W10), each ring indexed by slot or second
 * number modulo 10; *_at is the newest number written.
 */
struct wctr {
	uint32_t	 fine_at, coarse_at;
	uint32_t	 fine[WIN_SLOTS], coarse[WIN_SLOTS];
};

/* The cap's private part; model.caps[] points at pub. */
struct mcap {
	struct model_cap pub;
	struct mthr	*cur;		/* its running thread, or NULL */
	int		 in_gc;		/* between its GC_START and GC_END */
	uint64_t	 gc_start_t;	/* its last GC_START */
	uint64_t	 gc_end_seq;	/* the collection its last GC_END ended */
	uint64_t	 gc_end_t;	/* and when */
	uint64_t	 acct;		/* closed spans accounted up to here */
	uint32_t	 run[MODEL_NSLOTS], gc[MODEL_NSLOTS];	/* ns per slot */
	struct wctr	 sp[6];		/* sparks: created .. overflowed */
	struct model_sparks sp_prev;	/* counters at the previous snapshot */
	uint64_t	 alloc_last;	/* its latest HEAP_ALLOCATED */
	uint8_t		 alloc_has;
};

/*
 * A thread.  What a walk over the table reads of each (the threads pane's
 * sort by CPU in the last second) comes first, in the first two cache
 * lines: a table of 100 000 is read from memory at every frame.
 */
struct mthr {
	uint8_t		 in_table;	/* a slot in use (see THR_EACH) */
	uint8_t		 ref;		/* seen since the clock hand passed */
	uint32_t	 epoch;
	struct wctr	 cpu;
	struct model_thread pub;
	uint64_t	 cpu_base;	/* cpu_ns at the last reset */
	struct mthr	*prev, *next;	/* list (live or finished) */
	UT_hash_handle	 hh;
};

struct mlist {
	struct mthr	*head, *tail;	/* head: next for the clock hand */
};

/* A cost centre. */
struct mcc {
	struct model_cc	 pub;
	struct wctr	 self_w, total_w;
	uint64_t	 stamp;		/* sample that last counted it */
	uint32_t	 epoch;
	char		*strs;		/* label, module, srcloc (owned) */
	uint32_t	 def_hash;	/* of the definition's payload */
	struct mcc	*prev, *next;	/* LRU by last sampled */
	UT_hash_handle	 hh;
};

struct mscap;
struct mhist;

/* A cost-centre stack seen in samples. */
struct mstack {
	uint32_t	*ids;		/* the key: innermost first */
	uint32_t	 depth;
	uint32_t	 vi;		/* its place in st_vec */
	uint64_t	 samples;	/* run (or reset) */
	uint64_t	 seq;		/* made after those of lower seq */
	uint32_t	 epoch;
	struct wctr	 w;
	struct mscap	*caps;		/* by capability (model-hist.c) */
	struct mstack	*prev, *next;
	UT_hash_handle	 hh;
};

/* An IPE entry: what GHC says of an info table (-finfo-table-map). */
struct mipe {
	struct model_ipe pub;
	char		*strs;		/* the six strings (owned) */
	uint32_t	 def_hash;	/* of the event's payload */
	uint32_t	 title_hash;	/* of its band title (model_band_title) */
	struct mipe	*prev, *next;	/* oldest defined first */
	UT_hash_handle	 hh;
};

/* Entries whose band titles hash alike: two info tables described alike
 * would be one band to hp2ps, so their bands' titles get a serial. */
struct mipe_title {
	uint32_t	 hash;
	uint32_t	 n;		/* entries with it */
	UT_hash_handle	 hh;
};

/* A heap-profile band. */
struct mband {
	struct model_band pub;
	uint8_t		*key;		/* kind byte + stack ids or label */
	size_t		 keylen;
	char		*namebuf;
	uint64_t	 trend[MODEL_NTREND];	/* by census number % NTREND */
	uint64_t	 stamp[MODEL_NTREND];	/* census number of each entry */
	struct mband	*prev, *next;	/* LRU by last census */
	UT_hash_handle	 hh;
	/* The census history (model-hist.c) names a band by serial. */
	uint64_t	 serial;
	uint64_t	 hist_no, hist_ent;	/* its entry in census hist_no */
	UT_hash_handle	 hs;
};

/* One slot of history: counters summed, gauges last. */
struct slot {
	uint64_t	 v[MODEL_NSERIES];
};

/* A record's work balance, worked out once it is made (in BAL_ONE units,
 * or -1: see model-gc.c). */
struct gcx {
	int64_t		 bal;
};

/* MMU state for one window length (see model-gc.c). */
struct mmu {
	uint64_t	 worst;		/* most GC time in a window of w seen */
	uint64_t	 a_lo, a_sum;	/* end-aligned windows: first record
					 * in the window, sum of pauses */
	uint64_t	 b_k, b_h, b_sum;	/* start-aligned at record b_k:
					 * records b_k..b_h-1, their sum */
	int		 first_done;	/* the window at the run's start */
};

/*
 * The collections ending in one 100 ms slot (MODEL_W1) or one second
 * (MODEL_W10), summed: a window is the sum of its ten, exact however many
 * collections it holds (model-gc.c).  The fine histogram gives the
 * percentiles to a bucket when the record ring no longer holds them all;
 * its counts are 32 bits: 4e9 collections in one slot is 80 GB of events.
 */
struct gcagg {
	uint64_t	 at;		/* slot or second number + 1; 0: empty */
	uint64_t	 count, count_nogen, count_gen[MODEL_NGEN];
	uint64_t	 pause_total, sync_total, copied;
	uint64_t	 pmax, smax;
	uint64_t	 bal_n, bal_sum;	/* see BAL_ONE */
	uint32_t	 hist[MODEL_NHIST];
	uint32_t	 fine[FINE_NHIST];
};

/* A window's ring of sums, indexed by slot or second number % WIN_SLOTS. */
struct gcwin {
	struct gcagg	 b[WIN_SLOTS];
};

/* A collection's span for the MMU (model-gc.c), in a ring of its own:
 * a 1 s window may hold more collections than the records kept. */
#define MMU_NSPAN	16384
struct gcspan {
	uint64_t	 start, end;
};

/* The reorder buffer (model-reorder.c). */
#define RQUEUES		4096	/* runs held at once */
#define RSTREAMS	(MODEL_MAX_CAPS + 1)	/* [0]: no cap */

struct rchunk;
struct rhdr;
#define RTAIL		8	/* a run's last events, for insertions */

struct rqueue {
	struct rhdr	*head, *tail;
	uint64_t	 head_time, head_seq;	/* the head's key, at hand */
	uint64_t	 n;
	uint64_t	 tail_time;	/* time of the newest event */
	int		 stream;	/* the stream it was made for */
	int		 hpos;		/* place in the heap, or -1 */
};

/* Where the reorder buffer releases events to (model.c: the dispatch,
 * which calls the buffer: through this, not back by name). */
typedef void	 model_apply_fn(struct model *, const struct proto_ev *);
/* A late event applied as the time order would have, or 0. */
typedef int	 model_late_fn(struct model *, const struct proto_ev *);

struct reorder {
	model_apply_fn	*apply;
	model_late_fn	*apply_late;	/* model_late_global() */
	uint64_t	 window;	/* 0: pass through */
	size_t		 max_bytes;
	size_t		 nchunks;
	struct rchunk	*all;		/* every chunk (rchunk.all) */
	struct rchunk	*free;
	struct rchunk	*chunk[RSTREAMS];	/* a stream's chunk */
	int16_t		 cur[RSTREAMS];	/* a stream's open run, or -1 */
	/* The open run's last events, in order, ring from tw_at: an event a
	 * little older than its stream's last goes in among them. */
	struct rhdr	*tw[RSTREAMS][RTAIL];
	uint8_t		 tw_at[RSTREAMS], tw_n[RSTREAMS];
	struct rqueue	 q[RQUEUES];	/* each holds one sorted run */
	uint16_t	 freeq[RQUEUES];
	int		 nfreeq;
	uint16_t	 heap[RQUEUES];	/* non-empty queues by head */
	int		 nheap;
	uint64_t	 seq;		/* arrival number */
	uint64_t	 newest;	/* newest time seen */
	uint64_t	 released;	/* newest time released */
	uint64_t	 released_off;	/* and its offset */
	int		 any_released;
	/* Released too once not later than this (model_reorder_release()). */
	uint64_t	 horizon;
	/* A late event at or after (defer_time, defer_off) is not applied
	 * but left to the owner, who puts it in its place (model_late()):
	 * the earliest such since the owner last asked. */
	int		 defer;
	uint64_t	 defer_time, defer_off;
	int		 deferred;
	uint64_t	 late_time, late_off;
	/* Told of a late global event applied in place (model_late_aside). */
	model_aside_fn	*aside;
	void		*aside_arg;
};

struct model_priv {
	/* Time. */
	int		 started;	/* an event has been applied */
	uint64_t	 slot;		/* number of now's slot */
	uint64_t	 slot_start;	/* the time it starts */
	uint64_t	 slot_end;	/* the time it ends */
	struct slot	*slot_cur;	/* &slots[slot % MODEL_NSLOTS] */
	uint32_t	 slot_idx;	/* slot % MODEL_NSLOTS */
	uint32_t	 slot_f;	/* slot % WIN_SLOTS */
	uint64_t	 slot_sec;	/* its second: slot / SLOTS_PER_SEC */
	uint32_t	 slot_k;	/* slot_sec % WIN_SLOTS */
	uint64_t	 slot_events, slot_bytes;	/* totals when the slot
							 * began */
	uint64_t	 run_events, run_bytes;	/* totals at the reset */
	struct slot	*slots;		/* [MODEL_NSLOTS] */
	uint64_t	 run_tot[MODEL_NSERIES];	/* since reset */
	uint32_t	 epoch;		/* model_reset_window() count */

	/* Sessions. */
	int		 sess_new;	/* new session, program not decided */
	int		 sess_pid;	/* a new session's pid not seen yet */
	int		 sess_rts, sess_args;	/* set in this session */

	/* Threads. */
	struct mthr	*thr_cache[256];	/* by id & 255: recent lookups */
	struct mthr	*thr_hash;
	struct mthr	*thr_free;
	struct mthr	**thr_chunks;
	size_t		 thr_nchunks;
	struct mlist	 thr_live, thr_fin;

	/* GC. */
	struct model_gc_rec *gcrec;	/* [MODEL_NGCREC] ring by seq */
	struct gcx	*gcx;		/* [MODEL_NGCREC] beside gcrec */
	uint64_t	 gcseq;		/* records made */
	struct model_gc_rec open;	/* the collection running now */
	int		 n_in_gc;
	int		 nocap_in_gc;
	uint64_t	 nocap_start_t, nocap_end_seq, nocap_end_t; /* as mcap's */
	int		 coll_open;	/* p->open is a collection running */
	int		 stats_mode;	/* GC_STATS_GHC seen: leaders close */
	int		 close_on;	/* GC_CLOSE_* or a cap's number */
	uint64_t	 open_last_end;	/* the latest GC_END in p->open */
	int		 req_pending;
	uint64_t	 req_time;
	int		 stats_pending;	/* last record awaits GC_STATS_GHC */
	int		 live_pending;	/* last record awaits HEAP_LIVE */
	struct model_gc_win run;	/* MODEL_WRUN accumulators */
	uint64_t	 run_first_seq;	/* first record of the run window */
	uint64_t	 bal_n, bal_sum;	/* BAL_ONE units */
	uint64_t	*fine_hist;	/* [FINE_NHIST], run window */
	uint64_t	*scratch;	/* [MODEL_NGCREC] for percentiles */
	uint64_t	*scratch2;	/* [MODEL_NGCREC] */
	struct mmu	 mmu[MODEL_NMMU];
	struct gcwin	*gcw;		/* [2]: MODEL_W1, MODEL_W10 */
	struct gcspan	*span;		/* [MMU_NSPAN] ring by seq */
	int		 mmu_lost;	/* a span left the ring still needed */
	uint64_t	 gc_since;	/* open collection's start for slots */

	/* Heap. */
	uint64_t	 alloc_last[8];	/* HEAP_ALLOCATED without a cap, by */
	uint32_t	 alloc_set[8];	/* capset (low 3 bits) */
	uint8_t		 alloc_has[8];

	/* Nonmoving. */
	uint64_t	 nm_census_at;	/* m->totals.events at the latest
					 * census event, 0: none */
	struct model_nm_rec *nmrec;	/* [MODEL_NNMREC] */
	uint64_t	 nmseq;
	int		 nm_open;	/* nmrec[nmseq-1] is the current cycle */
	int		 nm_synced;	/* its sync ended */
	int		 nm_in_sync, nm_marking;
	uint64_t	 nm_mark_since;

	/* Time profile. */
	struct mcc	*cc_hash;
	struct mcc	*cc_lru_head, *cc_lru_tail;
	struct mstack	*st_hash;
	struct mstack	*st_lru_head, *st_lru_tail;
	/* Every stack, in no order: walked by model_top_stacks() without
	 * the hash's chain of loads (cold after the threads pane's walk). */
	struct mstack	**st_vec;
	uint32_t	 st_n, st_room;
	uint64_t	 st_seq;
	uint64_t	 sample_seq;

	/* Heap profile. */
	struct mband	*band_hash;
	struct mband	*band_lru_head, *band_lru_tail;
	struct mipe	*ipe_hash;
	struct mipe	*ipe_lru_head, *ipe_lru_tail;
	struct mipe_title *ipe_titles;
	struct model_census *census;	/* [MODEL_NCENSUS] ring */
	uint64_t	 censusno;	/* censuses begun */

	/* What only the exports need (model-hist.c). */
	struct mhist	*hist;

	/* Messages. */
	struct model_msg *msg;		/* [MODEL_NMSG] ring */
	struct msgraw {
		uint8_t	 b[MODEL_MSG_LEN];
		uint16_t len;
		uint8_t	 done;		/* text made from b */
	} *msg_raw;			/* [MODEL_NMSG] */
	uint64_t	 msgseq;

	/* Reordering. */
	struct reorder	 ro;

	/* Tags counted in model.tag_count, in the order first seen (kept,
	 * as the counts are, across a reset). */
	uint16_t	*tags_seen;	/* [PROTO_NTAGS] */
	uint32_t	 ntags_seen;
};

/* model-mem.c: one region per model, so its bytes are its state. */
#define MHEAP_RESERVE	((size_t)1 << 30)	/* the most a model uses */
struct mheap;
struct mheap	*mheap_new(void);
void		 mheap_reset(struct mheap *);
void		 mheap_destroy(struct mheap *);
struct mheap	*mheap_of(const void *);
void		*mheap_alloc(struct mheap *, size_t);
void		 mheap_free(void *);
void		*mheap_realloc(void *, size_t);
size_t		 mheap_extent(const struct mheap *);
size_t		 mheap_inuse(const struct mheap *);
void		 mheap_expose(struct mheap *);
void		 mheap_restoring(struct mheap *, size_t);
void		 mheap_restored(struct mheap *, size_t, size_t);

/* Doubly linked lists for least recently used order (head: the least). */
#define LRU_DEL(head, tail, e) do {					\
	if ((e)->prev != NULL) (e)->prev->next = (e)->next;		\
	else (head) = (e)->next;					\
	if ((e)->next != NULL) (e)->next->prev = (e)->prev;		\
	else (tail) = (e)->prev;					\
	(e)->prev = (e)->next = NULL;					\
} while (0)

#define LRU_ADD(head, tail, e) do {					\
	(e)->next = NULL;						\
	(e)->prev = (tail);						\
	if ((tail) != NULL) (tail)->next = (e);				\
	else (head) = (e);						\
	(tail) = (e);							\
} while (0)

#define LRU_TOUCH(head, tail, e) do {					\
	if ((tail) != (e)) {						\
		LRU_DEL(head, tail, e);					\
		LRU_ADD(head, tail, e);					\
	}								\
} while (0)

/* model-core.c */
void		*model_calloc(const struct model *, size_t, size_t);
				/* in its heap; aborts when out of memory */
void		 model_start(struct model *, uint64_t);
void		 model_advance(struct model *, uint64_t);
struct mcap	*model_cap_get(struct model *, int32_t);
struct slot	*model_slot_at(struct model *, uint64_t);
void		 model_count_slot(struct model *, enum model_series, uint64_t,
		     uint64_t);
void		 model_gauge(struct model *, enum model_series, uint64_t);
void		 model_span(struct model *, enum model_series, uint64_t,
		     uint64_t);
void		 model_span_ring(const struct model *, uint32_t *, uint64_t,
		     uint64_t);
void		 model_copy_text(char *, size_t, const char *, size_t);
void		 wctr_add(struct wctr *, uint64_t, uint32_t);
void		 wctr_span(struct wctr *, uint64_t, uint64_t);
uint64_t	 wctr_sum(const struct wctr *, const struct model *,
		     enum model_win);
uint64_t	 model_history_first(const struct model *, int);
uint64_t	 model_win_start_at(uint64_t, uint64_t, enum model_win);

/*
 * The sum of slots lo..hi of a ring whose newest slot is at.  Inline, the
 * whole ring without a division when the window covers it: the threads
 * pane sums one for each of 100 000 threads at every frame.
 */
static inline uint64_t
wring_sum(const uint32_t *ring, uint64_t at, uint64_t lo, uint64_t hi)
{
	uint64_t	v = 0;
	unsigned	i, n;

	if (hi > at)
		hi = at;
	if (at >= WIN_SLOTS && lo < at - WIN_SLOTS + 1)
		lo = at - WIN_SLOTS + 1;
	if (lo > hi)
		return 0;
	if ((n = (unsigned)(hi - lo + 1)) == WIN_SLOTS) {
		for (i = 0; i < WIN_SLOTS; i++)
			v += ring[i];
		return v;
	}
	for (i = (unsigned)(lo % WIN_SLOTS); n > 0; n--) {
		v += ring[i];
		if (++i == WIN_SLOTS)
			i = 0;
	}
	return v;
}

/*
 * Fast paths for the common case, a time or span within now's slot (and
 * so within its second), where the ring indices are at hand in model_priv
 * and no division is needed; the general cases are in model.c.
 */
static inline int
model_in_slot(const struct model_priv *p, uint64_t t0, uint64_t t1)
{
	return t0 >= p->slot_start && t1 <= p->slot_end;
}

static inline uint64_t
model_overlap(uint64_t a0, uint64_t a1, uint64_t b0, uint64_t b1)
{
	uint64_t	lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;

	return hi > lo ? hi - lo : 0;
}

static inline uint32_t
wsat_add(uint32_t a, uint32_t d)
{
	return a > UINT32_MAX - d ? UINT32_MAX : a + d;
}

static inline void
model_count(struct model *m, enum model_series s, uint64_t t, uint64_t v)
{
	struct model_priv	*p = m->p;

	if (t >= p->slot_start && t < p->slot_end)
		p->slot_cur->v[s] += v;
	else
		model_count_slot(m, s, t, v);
	if (t >= m->reset_at)
		p->run_tot[s] += v;
}

static inline void
wctr_add_fast(const struct model_priv *p, struct wctr *w, uint64_t t,
    uint32_t v)
{
	if (t >= p->slot_start && t < p->slot_end &&
	    p->slot == w->fine_at && p->slot_sec == w->coarse_at) {
		w->fine[p->slot_f] = wsat_add(w->fine[p->slot_f], v);
		w->coarse[p->slot_k] = wsat_add(w->coarse[p->slot_k], v);
		return;
	}
	wctr_add(w, t, v);
}

static inline void
wctr_span_fast(const struct model_priv *p, struct wctr *w, uint64_t t0,
    uint64_t t1)
{
	uint32_t	d;

	if (t1 > t0 && model_in_slot(p, t0, t1) &&
	    p->slot == w->fine_at && p->slot_sec == w->coarse_at) {
		d = (uint32_t)(t1 - t0);
		w->fine[p->slot_f] = wsat_add(w->fine[p->slot_f], d);
		w->coarse[p->slot_k] = wsat_add(w->coarse[p->slot_k], d);
		return;
	}
	wctr_span(w, t0, t1);
}

static inline void
model_span_ring_fast(const struct model *m, uint32_t *ring, uint64_t t0,
    uint64_t t1)
{
	const struct model_priv	*p = m->p;

	if (t1 > t0 && model_in_slot(p, t0, t1)) {
		ring[p->slot_idx] += (uint32_t)(t1 - t0);
		return;
	}
	model_span_ring(m, ring, t0, t1);
}

/* The thread ran over [t0, t1).  (Inline, as model_cap_close(): a run
 * or GC span ends at every RUN_THREAD, STOP_THREAD, GC_START, GC_END.) */
static inline __attribute__((always_inline)) void
model_thread_cpu(struct model *m, struct mthr *t, uint64_t t0, uint64_t t1)
{
	if (t1 <= t0)
		return;
	if (t->epoch != m->p->epoch) {
		t->cpu_base = t->pub.cpu_ns +
		    model_overlap(t0, t1, 0, m->reset_at);
		t->epoch = m->p->epoch;
	}
	t->pub.cpu_ns += t1 - t0;
	m->threads.cpu_ns += t1 - t0;
	wctr_span_fast(m->p, &t->cpu, t0, t1);
}

/* Close the cap's current span at t; the caller sets the next state. */
static inline __attribute__((always_inline)) void
model_cap_close(struct model *m, struct mcap *c, uint64_t t)
{
	uint64_t	since = c->pub.since;

	if (t < since)
		t = since;
	switch (c->pub.state) {
	case MODEL_CAP_RUN:
		/* MODEL_S_RUN_NS is the sum of the caps' rings. */
		model_span_ring_fast(m, c->run, since, t);
		c->pub.run_ns += since >= m->reset_at ? t - since :
		    model_overlap(since, t, m->reset_at, t);
		if (c->cur != NULL)
			model_thread_cpu(m, c->cur, since, t);
		break;
	case MODEL_CAP_GC:
		model_span_ring_fast(m, c->gc, since, t);
		c->pub.gc_ns += model_overlap(since, t, m->reset_at, t);
		break;
	case MODEL_CAP_IDLE:
		break;
	}
	c->pub.since = t;
}

/* model-prog.c */
void		 model_prog_event(struct model *, const struct proto_ev *);
void		 model_heap_allocated(struct model *, struct mcap *,
		     const struct proto_ev *);
void		 model_heap_event(struct model *, struct mcap *,
		     const struct proto_ev *);

/* model-caps.c */
void		 model_caps_event(struct model *, struct mcap *,
		     const struct proto_ev *);
void		 model_spark_counters(struct model *, struct mcap *,
		     const struct proto_ev *);

/* model-threads.c */
void		 model_threads_init(struct model *);
void		 model_threads_free(struct model *);
void		 model_threads_event(struct model *, struct mcap *,
		     const struct proto_ev *);
void		 model_threads_tick(struct model *);
void		 model_threads_gap(struct model *);
void		 model_thread_run(struct model *, struct mcap *,
		     const struct proto_ev *);
void		 model_thread_stop(struct model *, struct mcap *,
		     const struct proto_ev *);
void		 model_thread_wakeup(struct model *, struct mcap *,
		     const struct proto_ev *);

/* model-gc.c */
void		 model_gc_init(struct model *);
void		 model_gc_free(struct model *);
void		 model_gc_start(struct model *, struct mcap *, uint64_t);
void		 model_gc_end(struct model *, struct mcap *, uint64_t);
void		 model_gc_request(struct model *, uint64_t);
void		 model_gc_stats(struct model *, struct mcap *,
		     const struct proto_ev *);
void		 model_gc_reset_run(struct model *);

/* model-nm.c */
void		 model_nm_event(struct model *, const struct proto_ev *);

/* model-prof.c */
void		 model_prof_init(struct model *);
void		 model_prof_free(struct model *);
void		 model_prof_event(struct model *, const struct proto_ev *);

/* model-ipe.c */
void		 model_ipe_free(struct model *);
void		 model_ipe_event(struct model *, const struct proto_ev *);
/* model-hist.c */
struct mscap;
void		 model_hist_init(struct model *);
void		 model_hist_free(struct model *);
void		 model_hist_sample(struct model *, struct mstack *, uint32_t,
		     uint64_t);
void		 model_hist_stack_gone(struct model *, struct mstack *);
void		 model_hist_band_new(struct model *, struct mband *);
void		 model_hist_band_gone(struct model *, struct mband *);
void		 model_hist_census(struct model *, const struct model_census *);
void		 model_hist_census_end(struct model *, uint64_t);
void		 model_hist_band(struct model *, struct mband *, uint64_t);

/* model-msgs.c */
void		 model_msgs_event(struct model *, const struct proto_ev *);

/* model-reorder.c */
void		 model_reorder_init(struct reorder *, model_apply_fn *,
		     model_late_fn *);
void		 model_reorder_free(struct reorder *);
void		 model_reorder_push(struct model *, const struct proto_ev *);
void		 model_reorder_flush(struct model *);
void		 model_reorder_drop(struct model *);
size_t		 model_reorder_pool(const struct model *);
const void	*model_reorder_hole(const struct model *, const void *,
		     size_t *);
void		 model_reorder_horizon(struct model *, uint64_t);

/* outbuf.c: text appended to a buffer the caller owns (at least OUTBUF_MIN
 * bytes), written to f by outbuf_flush() or whenever the buffer fills.
 * outbuf_fixed(ob, v, prec) prints what printf("%.*f", prec, v) prints
 * (prec <= 80), by hand up to OUTBUF_PREC decimals; outbuf_json() a quoted
 * JSON string. */
#define OUTBUF_MIN	64
#define OUTBUF_PREC	4	/* outbuf_fixed() by hand up to this many */
struct outbuf {
	char		*buf;
	size_t		 size, len;
	FILE		*f;
};
void		 outbuf_init(struct outbuf *, char *, size_t, FILE *);
void		 outbuf_flush(struct outbuf *);
void		 outbuf_bytes(struct outbuf *, const void *, size_t);
void		 outbuf_u64(struct outbuf *, uint64_t);
void		 outbuf_i64(struct outbuf *, int64_t);
void		 outbuf_fixed(struct outbuf *, double, int);
void		 outbuf_json(struct outbuf *, const char *);

/* A C string, as it is: inline, so a literal's length is a constant. */
static inline void
outbuf_str(struct outbuf *ob, const char *s)
{
	size_t	n = strlen(s);

	if (n <= ob->size - ob->len) {
		memcpy(ob->buf + ob->len, s, n);
		ob->len += n;
	} else
		outbuf_bytes(ob, s, n);
}

static inline void
outbuf_char(struct outbuf *ob, char c)
{
	if (ob->len == ob->size)
		outbuf_flush(ob);
	ob->buf[ob->len++] = c;
}

#endif
