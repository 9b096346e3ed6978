/*
 * model-threads.c: Haskell threads, their states and CPU time.
 *
 * Threads live in a uthash table over a pool allocated in chunks, never
 * more than MODEL_MAX_THREADS entries.  Two lists (live, finished) in the
 * order threads joined them give the eviction order, with a second chance
 * (the CLOCK algorithm) for those seen since the hand last passed: a
 * finished thread is dropped once it has not been seen for FOLD_NS, and when
 * the table is full a finished thread goes first, else a live one not seen
 * lately.
 */
#include <stdlib.h>
#include <string.h>

#include "model/model-priv.h"

#define THR_CHUNK	1024

/*
 * Each thread in the table, by its slot in the chunks rather than by the
 * hash's list: the addresses are known ahead, so a walk over 100 000 is
 * not a chain of loads each waiting on the one before.
 */
#define THR_EACH(p, t, ci, j)						\
	for ((ci) = 0; (ci) < (p)->thr_nchunks; (ci)++)			\
		for ((j) = 0, (t) = (p)->thr_chunks[ci]; (j) < THR_CHUNK;	\
		    (j)++, (t)++)						\
			if ((t)->in_table)

void
model_threads_init(struct model *m)
{
	(void)m;
}

void
model_threads_free(struct model *m)
{
	struct model_priv	*p = m->p;
	size_t			 i;

	HASH_CLEAR(hh, p->thr_hash);
	for (i = 0; i < p->thr_nchunks; i++)
		mheap_free(p->thr_chunks[i]);
	mheap_free(p->thr_chunks);
	p->thr_chunks = NULL;
	p->thr_nchunks = 0;
	p->thr_free = NULL;
	p->thr_live.head = p->thr_live.tail = NULL;
	p->thr_fin.head = p->thr_fin.tail = NULL;
}

static void
list_del(struct mlist *l, struct mthr *t)
{
	if (t->prev != NULL)
		t->prev->next = t->next;
	else
		l->head = t->next;
	if (t->next != NULL)
		t->next->prev = t->prev;
	else
		l->tail = t->prev;
	t->prev = t->next = NULL;
}

static void
list_add(struct mlist *l, struct mthr *t)
{
	t->next = NULL;
	t->prev = l->tail;
	if (l->tail != NULL)
		l->tail->next = t;
	else
		l->head = t;
	l->tail = t;
}

static struct mlist *
list_of(struct model *m, struct mthr *t)
{
	return t->pub.state == MODEL_T_FINISHED ? &m->p->thr_fin :
	    &m->p->thr_live;
}

/* Seen now. */
static inline void
touch(struct model *m, struct mthr *t)
{
	t->pub.last = m->now;
	t->ref = 1;
}

/* The clock hand: the first entry of l not seen since the hand passed;
 * the others get their second chance at the tail. */
static struct mthr *
clock_victim(struct mlist *l)
{
	struct mthr	*t;

	while ((t = l->head)->ref) {
		t->ref = 0;
		if (l->head == l->tail)
			break;
		list_del(l, t);
		list_add(l, t);
	}
	return t;
}

static void
count_state(struct model *m, struct mthr *t, int d)
{
	struct model_threads	*th = &m->threads;

	th->by_state[t->pub.state] += d;
	if (t->pub.state != MODEL_T_FINISHED)
		th->live += d;
	if (t->pub.state == MODEL_T_BLOCKED)
		th->blocked_by[t->pub.why] += d;
}

static void	set_state_list(struct model *, struct mthr *,
		    enum model_tstate, unsigned);

static inline void
set_state(struct model *m, struct mthr *t, enum model_tstate st, unsigned why)
{
	struct model_threads	*th = &m->threads;

	if (why >= MODEL_NREASONS || st != MODEL_T_BLOCKED)
		why = st == MODEL_T_FINISHED && why < MODEL_NREASONS ? why : 0;
	if (t->pub.state == st && t->pub.why == why)
		return;
	if (t->pub.state == MODEL_T_FINISHED || st == MODEL_T_FINISHED) {
		set_state_list(m, t, st, why);
		return;
	}
	/* Live before and after: count_state() twice, live unchanged. */
	th->by_state[t->pub.state]--;
	if (t->pub.state == MODEL_T_BLOCKED)
		th->blocked_by[t->pub.why]--;
	t->pub.state = st;
	t->pub.why = (uint8_t)why;
	th->by_state[st]++;
	if (st == MODEL_T_BLOCKED)
		th->blocked_by[why]++;
}

/* A change of state to or from finished, which changes lists. */
static __attribute__((noinline)) void
set_state_list(struct model *m, struct mthr *t, enum model_tstate st,
    unsigned why)
{
	int	fin = t->pub.state == MODEL_T_FINISHED;

	count_state(m, t, -1);
	if (fin != (st == MODEL_T_FINISHED))
		list_del(list_of(m, t), t);
	t->pub.state = st;
	t->pub.why = (uint8_t)why;
	if (fin != (st == MODEL_T_FINISHED)) {
		t->ref = 0;
		list_add(list_of(m, t), t);
	}
	count_state(m, t, 1);
}

static void
thr_remove(struct model *m, struct mthr *t)
{
	struct model_priv	*p = m->p;
	struct mcap		*c;
	int			 i;

	if (t->pub.state == MODEL_T_RUNNING) {
		for (i = 0; i < m->prog.ncaps; i++) {
			c = (struct mcap *)m->caps[i];
			if (c != NULL && c->cur == t)
				c->cur = NULL;
		}
	}
	count_state(m, t, -1);
	list_del(list_of(m, t), t);
	if (p->thr_cache[t->pub.id & 255] == t)
		p->thr_cache[t->pub.id & 255] = NULL;
	HASH_DEL(p->thr_hash, t);
	t->in_table = 0;
	t->next = p->thr_free;
	p->thr_free = t;
	m->threads.table--;
}

static struct mthr *
thr_alloc(struct model *m)
{
	struct model_priv	*p = m->p;
	struct mthr		*t, *chunk, **v;
	size_t			 i;

	if (p->thr_free == NULL && m->threads.table < MODEL_MAX_THREADS) {
		v = p->thr_chunks == NULL ? model_calloc(m, 1, sizeof *v) :
		    mheap_realloc(p->thr_chunks,
		    (p->thr_nchunks + 1) * sizeof *v);
		chunk = model_calloc(m, THR_CHUNK, sizeof *chunk);
		p->thr_chunks = v;
		p->thr_chunks[p->thr_nchunks++] = chunk;
		for (i = THR_CHUNK; i > 0; i--) {
			chunk[i - 1].next = p->thr_free;
			p->thr_free = &chunk[i - 1];
		}
	}
	if (m->threads.table >= MODEL_MAX_THREADS) {
		t = p->thr_fin.head != NULL ? p->thr_fin.head :
		    clock_victim(&p->thr_live);
		thr_remove(m, t);
		m->threads.evicted++;
	}
	t = p->thr_free;
	p->thr_free = t->next;
	return t;
}

static struct mthr *thr_find(struct model *, uint32_t);

/* The thread of that id, made if new; seen now.  A recent one is in the
 * cache: that test inline, the rest out of line. */
static inline struct mthr *
thr_get(struct model *m, uint32_t id)
{
	struct mthr	*t;

	if ((t = m->p->thr_cache[id & 255]) != NULL && t->pub.id == id) {
		touch(m, t);
		return t;
	}
	return thr_find(m, id);
}

static __attribute__((noinline)) struct mthr *
thr_find(struct model *m, uint32_t id)
{
	struct model_priv	*p = m->p;
	struct mthr		*t;

	HASH_FIND(hh, p->thr_hash, &id, sizeof id, t);
	if (t != NULL) {
		p->thr_cache[id & 255] = t;
		touch(m, t);
		return t;
	}
	t = thr_alloc(m);
	memset(t, 0, sizeof *t);
	t->pub.id = id;
	t->in_table = 1;
	t->pub.state = MODEL_T_RUNNABLE;
	t->pub.cap = -1;
	t->pub.created = t->pub.last = m->now;
	t->epoch = p->epoch;
	HASH_ADD(hh, p->thr_hash, pub.id, sizeof t->pub.id, t);
	p->thr_cache[id & 255] = t;
	list_add(&p->thr_live, t);
	count_state(m, t, 1);
	m->threads.table++;
	return t;
}

/* Every new slot: fold finished threads not seen for FOLD_NS. */
void
model_threads_tick(struct model *m)
{
	struct model_priv	*p = m->p;
	struct mthr		*t;

	while ((t = p->thr_fin.head) != NULL) {
		if (t->pub.last + FOLD_NS < m->now) {
			thr_remove(m, t);
			m->threads.dropped++;
		} else if (t->ref && t->next != NULL) {
			/* Seen after it finished: look again later. */
			t->ref = 0;
			list_del(&p->thr_fin, t);
			list_add(&p->thr_fin, t);
		} else
			break;
	}
}

static enum model_tstate
stop_state(uint16_t status)
{
	switch (status) {
	case 0:		/* no status */
	case 1:		/* heap overflow */
	case 2:		/* stack overflow */
	case 3:		/* yielding */
	case 17:	/* migrating */
	case 19:
		return MODEL_T_RUNNABLE;
	case 5:
		return MODEL_T_FINISHED;
	default:
		return status > 20 ? MODEL_T_RUNNABLE : MODEL_T_BLOCKED;
	}
}

/* RUN_THREAD, STOP_THREAD and THREAD_WAKEUP, the most frequent, have
 * entries of their own (see apply_one()). */
void
model_thread_run(struct model *m, struct mcap *c, const struct proto_ev *ev)
{
	struct mthr	*t;

	t = thr_get(m, ev->u.thread.thread);
	if (c != NULL) {
		model_cap_close(m, c, ev->time);
		if (c->cur != NULL && c->cur != t &&
		    c->cur->pub.state == MODEL_T_RUNNING)
			set_state(m, c->cur, MODEL_T_RUNNABLE, 0);
		c->pub.state = MODEL_CAP_RUN;
		c->pub.thread = t->pub.id;
		c->cur = t;
		t->pub.cap = c->pub.id;
	}
	m->threads.runs++;
	t->pub.runs++;
	if (t->pub.state != MODEL_T_RUNNING)
		set_state(m, t, MODEL_T_RUNNING, 0);
}

void
model_thread_stop(struct model *m, struct mcap *c, const struct proto_ev *ev)
{
	struct mthr		*t;
	enum model_tstate	 st;

	t = thr_get(m, ev->u.stop.thread);
	if (c != NULL && c->pub.state == MODEL_CAP_RUN) {
		model_cap_close(m, c, ev->time);
		c->pub.state = MODEL_CAP_IDLE;
		c->cur = NULL;
	}
	st = stop_state(ev->u.stop.status);
	if (st == MODEL_T_FINISHED && t->pub.state != MODEL_T_FINISHED) {
		m->threads.finished++;
		model_count(m, MODEL_S_THREADS_FINISHED, ev->time, 1);
	}
	set_state(m, t, st, ev->u.stop.status);
}

void
model_thread_wakeup(struct model *m, struct mcap *c, const struct proto_ev *ev)
{
	struct mthr	*t;

	t = thr_get(m, ev->u.migrate.thread);
	t->pub.wakeups++;
	m->threads.wakeups++;
	if (t->pub.state == MODEL_T_BLOCKED)
		set_state(m, t, MODEL_T_RUNNABLE, 0);
}

void
model_threads_event(struct model *m, struct mcap *c, const struct proto_ev *ev)
{
	struct mthr		*t;
	uint64_t		 now = ev->time;

	switch (ev->kind) {
	case PROTO_CREATE_THREAD:
		m->threads.created++;
		model_count(m, MODEL_S_THREADS_CREATED, now, 1);
		t = thr_get(m, ev->u.thread.thread);
		if (t->pub.state == MODEL_T_FINISHED) {
			/* An id used again: a new thread. */
			set_state(m, t, MODEL_T_RUNNABLE, 0);
			t->pub.created = m->now;
		}
		if (c != NULL)
			t->pub.cap = c->pub.id;
		break;
	case PROTO_CREATE_SPARK_THREAD:
		t = thr_get(m, ev->u.thread.thread);
		if (c != NULL)
			t->pub.cap = c->pub.id;
		break;
	case PROTO_THREAD_RUNNABLE:
		t = thr_get(m, ev->u.thread.thread);
		if (t->pub.state == MODEL_T_BLOCKED)
			set_state(m, t, MODEL_T_RUNNABLE, 0);
		break;
	case PROTO_MIGRATE_THREAD:
		t = thr_get(m, ev->u.migrate.thread);
		t->pub.migrations++;
		m->threads.migrations++;
		t->pub.cap = ev->u.migrate.cap;
		break;
	case PROTO_THREAD_LABEL:
		t = thr_get(m, ev->u.label.thread);
		model_copy_text(t->pub.label, sizeof t->pub.label,
		    ev->u.label.label.p, ev->u.label.label.len);
		break;
	}
}

/* A gap in the stream: no thread is known to run any more. */
void
model_threads_gap(struct model *m)
{
	struct mthr	*t;
	size_t		 ci, j;

	if (m->threads.by_state[MODEL_T_RUNNING] == 0)
		return;
	THR_EACH(m->p, t, ci, j) {
		if (t->pub.state == MODEL_T_RUNNING)
			set_state(m, t, MODEL_T_RUNNABLE, 0);
	}
}

const struct model_thread *
model_thread_find(const struct model *m, uint32_t id)
{
	struct mthr	*t;

	HASH_FIND(hh, m->p->thr_hash, &id, sizeof id, t);
	return t != NULL ? &t->pub : NULL;
}

/*
 * A window, worked out once for a pass over the whole table: the divisions
 * behind a window's slots cost more than the rest of a thread's figures.
 */
struct thr_win {
	enum model_win	 w;
	uint64_t	 start, lo, hi;	/* start in ns; lo..hi slots */
};

static void
thr_win_init(struct thr_win *q, const struct model *m, enum model_win w)
{
	uint64_t	unit = w == MODEL_W1 ? MODEL_SLOT_NS : SEC_NS;

	q->w = w;
	q->start = model_win_start(m, w);
	q->lo = q->start / unit;
	q->hi = m->now / unit;
}

/* CPU of a thread in a window, its running span included. */
static uint64_t
thr_cpu(const struct model *m, const struct mthr *t, const struct thr_win *q)
{
	const struct mcap	*c;
	uint64_t		 v;

	if (q->w == MODEL_WRUN)
		v = t->epoch == m->p->epoch ? t->pub.cpu_ns - t->cpu_base : 0;
	else if (q->w == MODEL_W1)
		v = wring_sum(t->cpu.fine, t->cpu.fine_at, q->lo, q->hi);
	else
		v = wring_sum(t->cpu.coarse, t->cpu.coarse_at, q->lo, q->hi);
	if (t->pub.state == MODEL_T_RUNNING && t->pub.cap >= 0 &&
	    t->pub.cap < MODEL_MAX_CAPS &&
	    (c = (const struct mcap *)m->caps[t->pub.cap]) != NULL &&
	    c->cur == t && c->pub.state == MODEL_CAP_RUN)
		v += model_overlap(c->pub.since, m->now, q->start, m->now);
	return v;
}

static inline __attribute__((always_inline)) uint64_t
row_key(const struct model_thread_row *r, enum model_tsort by)
{
	switch (by) {
	case MODEL_TSORT_CPU:
		return r->cpu_ns;
	case MODEL_TSORT_TOTAL:
		return r->t->cpu_ns;
	default:
		return UINT32_MAX - r->t->id;
	}
}

/* Does a come before b: larger key first, then lower id. */
static inline __attribute__((always_inline)) int
row_before(const struct model_thread_row *a, const struct model_thread_row *b,
    enum model_tsort by)
{
	uint64_t	ka = row_key(a, by), kb = row_key(b, by);

	if (ka != kb)
		return ka > kb;
	return a->t->id < b->t->id;
}

/* Whether a comes before b in the order asked (rev: reversed). */
static inline __attribute__((always_inline)) int
row_order(const struct model_thread_row *a, const struct model_thread_row *b,
    enum model_tsort by, int rev)
{
	return rev ? row_before(b, a, by) : row_before(a, b, by);
}

/* Sift down in a heap whose root is the row that comes last. */
static void
heap_down(struct model_thread_row *h, int n, int i, enum model_tsort by,
    int rev)
{
	struct model_thread_row	tmp;
	int			c;

	for (;;) {
		c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && row_order(&h[c], &h[c + 1], by, rev))
			c++;
		if (!row_order(&h[i], &h[c], by, rev))
			break;
		tmp = h[i];
		h[i] = h[c];
		h[c] = tmp;
		i = c;
	}
}

static void
heap_up(struct model_thread_row *h, int i, enum model_tsort by, int rev)
{
	struct model_thread_row	tmp;
	int			up;

	while (i > 0) {
		up = (i - 1) / 2;
		if (!row_order(&h[up], &h[i], by, rev))
			break;
		tmp = h[i];
		h[i] = h[up];
		h[up] = tmp;
		i = up;
	}
}

/*
 * The first n threads of the table in the given order (or as q says),
 * into rows[]; returns how many.  Every thread in the table takes part,
 * finished ones included (their state says so).
 */
int
model_threads_sorted(const struct model *m, enum model_win w,
    enum model_tsort by, struct model_thread_row *rows, int n,
    struct model_rowq *q)
{
	struct mthr		*t;
	struct model_thread_row	 r, x;
	size_t			 ci, j;
	struct thr_win		 qw;
	uint64_t		 dur = model_win_ns(m, w);
	double			 per = dur > 0 ? 1.0 / (double)dur : 0;
	int			 k = 0, i, kept = 0;
	int			 rev = q != NULL && q->reverse;

	if (n <= 0)
		n = 0;
	thr_win_init(&qw, m, w);
	THR_EACH(m->p, t, ci, j) {
		if (q != NULL && q->keep != NULL && !q->keep(&t->pub, q->arg))
			continue;
		kept++;
		if (n == 0)
			continue;
		r.t = &t->pub;
		r.cpu_ns = thr_cpu(m, t, &qw);
		if (k < n) {
			rows[k] = r;
			heap_up(rows, k++, by, rev);
		} else if (row_order(&r, &rows[0], by, rev)) {
			rows[0] = r;
			heap_down(rows, k, 0, by, rev);
		}
	}
	/* Heap sort: the root is the last row. */
	for (i = k - 1; i > 0; i--) {
		x = rows[0];
		rows[0] = rows[i];
		rows[i] = x;
		heap_down(rows, i, 0, by, rev);
	}
	/* The shares of those kept only. */
	for (i = 0; i < k; i++)
		rows[i].share = (double)rows[i].cpu_ns * per;
	if (q != NULL)
		q->total = kept;
	return k;
}
