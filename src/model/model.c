/*
 * model.c: the model's top: its life (made, freed, its state saved and
 * put back, reset for a new program or a range), sessions, and the event
 * dispatch into the areas (model-caps.c, model-threads.c, model-gc.c,
 * model-nm.c, model-prog.c, model-prof.c, model-ipe.c, model-msgs.c) and
 * the reorder buffer.  Calls go one way: this file calls the areas, the areas call
 * model-core.c, which calls nothing of the model's.
 */
#include <stdlib.h>
#include <string.h>

#include "model/model-priv.h"

static struct model *model_make(struct mheap *);
static void	model_init(struct model *);
static void	model_fini(struct model *);
static void	model_session_gap(struct model *);
static void	model_apply_one(struct model *, const struct proto_ev *);


struct model *
model_new(void)
{
	return model_make(mheap_new());
}

void
model_on_program(struct model *m, void (*fn)(void *, const struct model *),
    void *arg)
{
	m->on_program = fn;
	m->on_program_arg = arg;
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
	model_reorder_init(&m->p->ro, model_apply_one, model_late_global);
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
	struct mheap	*h = mheap_of(m);

	*len = mheap_extent(h);
	mheap_expose(h);
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
	size_t		 had = mheap_extent(h), pool = model_reorder_pool(m);
	void		(*fn)(void *, const struct model *) = m->on_program;
	void		*fn_arg = m->on_program_arg;

	if (len < (size_t)((const char *)(m + 1) - (const char *)h) ||
	    len > MHEAP_RESERVE)
		return -1;
	mheap_restoring(h, len);
	if (fill(arg, h, len) != 0) {
		memset(h, 0, had > len ? had : len);
		mheap_reset(h);
		(void)model_make(h);	/* at m again: the first block */
		model_on_program(m, fn, fn_arg);
		return -1;
	}
	/*
	 * The pages of a live model's held events stay: a checkpoint has
	 * none (model_state_hole()), and the model takes them again at once.
	 * Given back, each cost a fault and clearing when taken again (a
	 * source at a program's pace, a correction every 70 ms: memset()'s
	 * page faults in mheap_alloc() were 12.5% of evtop's samples).
	 */
	mheap_restored(h, had, pool);
	model_on_program(m, fn, fn_arg);	/* the caller's, not the state's */
	/* Held back then: read again from the owner's history. */
	model_reorder_drop(m);
	return 0;
}

const void *
model_state_hole(const struct model *m, const void *prev, size_t *len)
{
	return model_reorder_hole(m, prev, len);
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

	if (m->on_program != NULL)
		m->on_program(m->on_program_arg, m);
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
	/* Its events counted afresh, as everything else of it. */
	memset(m->tag_count, 0, PROTO_NTAGS * sizeof *m->tag_count);
	p->ntags_seen = 0;
	m->totals.events = m->totals.bytes = m->totals.blocks = 0;
	m->totals.unknown = m->totals.unknown_tags = m->totals.late = 0;
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
	/* A session's times are its own: none of them is late for the last
	 * one's. */
	p->ro.any_released = 0;
	p->ro.newest = p->ro.horizon = 0;
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
	p->coll_open = 0;
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
	r->finished = m->threads.finished;
	r->migrations = m->threads.migrations;
	r->wakeups = m->threads.wakeups;
	r->runs = m->threads.runs;
	r->cpu_ns = m->threads.cpu_ns;
	r->requests = m->gc.requests;
	r->syncs = m->gc.syncs;
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
		if (t >= p->slot_end) {
			model_advance(m, t / MODEL_SLOT_NS);
			model_threads_tick(m);
		}
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
	/*
	 * The most frequent kinds by branches of their own: the switch's
	 * one indirect jump, which every kind shares, was mispredicted at
	 * most events of a busy program (the kinds of two capabilities'
	 * streams merged come in no order); each branch here learns its
	 * own.  (`--batch` pinned on ghc-n2: 6% less CPU.)
	 */
	if (ev->kind == PROTO_RUN_THREAD) {
		model_thread_run(m, c, ev);
		return;
	}
	if (ev->kind == PROTO_STOP_THREAD) {
		model_thread_stop(m, c, ev);
		return;
	}
	if (ev->kind == PROTO_THREAD_WAKEUP) {
		model_thread_wakeup(m, c, ev);
		return;
	}
	switch (ev->kind) {
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
		model_gc_stats(m, c, ev);
		break;
	case PROTO_SPARK_COUNTERS:
		if (c != NULL)
			model_spark_counters(m, c, ev);
		break;
	case PROTO_HEAP_ALLOCATED:
		model_heap_allocated(m, c, ev);
		break;
	case PROTO_CREATE_THREAD:
	case PROTO_THREAD_RUNNABLE:
	case PROTO_MIGRATE_THREAD:
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
	case PROTO_OSPROCESS_PID:
		/* Another pid in a new session is another program, even
		 * after some of its events: GHC >= 9.2 re-sends the pid on
		 * each connection, but a capability's block can begin
		 * before it. */
		if (p->sess_pid && m->prog.has_pid &&
		    m->prog.pid != ev->u.pid.pid) {
			model_reset_program(m);
			/* The new program's first event, counted anew. */
			m->totals.bytes += ev->size;
			tag_first(m, ev);
			tags[ev->tag]++;
			m->totals.events++;
		}
		model_prog_event(m, ev);
		break;
	case PROTO_RTS_IDENTIFIER:
	case PROTO_PROGRAM_ARGS:
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

static void
model_apply_one(struct model *m, const struct proto_ev *ev)
{
	if (ev->kind == PROTO_BLOCK_MARKER)
		m->totals.blocks++;
	else
		apply_one(m, m->p, m->tag_count, ev, 1);
}

/* The kinds that set something of the program's (a field each). */
static int
late_sets(uint16_t kind)
{
	switch (kind) {
	case PROTO_RTS_IDENTIFIER:
	case PROTO_PROGRAM_ARGS:
	case PROTO_OSPROCESS_PID:
	case PROTO_OSPROCESS_PPID:
	case PROTO_WALL_CLOCK_TIME:
	case PROTO_HEAP_INFO_GHC:
		return 1;
	}
	return 0;
}

/*
 * The events that may go anywhere: global ones (no capability) of the
 * kinds GHC 9.0 sends at exit with the times of the start (capability
 * sets, tasks, the program's identity), and block markers.
 */
int
model_late_global_kind(const struct proto_ev *ev)
{
	if (ev->kind == PROTO_BLOCK_MARKER)
		return 1;
	if (ev->cap >= 0)
		return 0;
	if (late_sets(ev->kind))
		return 1;
	switch (ev->kind) {
	case PROTO_CAPSET_CREATE:
	case PROTO_CAPSET_DELETE:
	case PROTO_CAPSET_ASSIGN_CAP:
	case PROTO_CAPSET_REMOVE_CAP:
	case PROTO_TASK_CREATE:
	case PROTO_TASK_MIGRATE:
	case PROTO_TASK_DELETE:
	case PROTO_PROGRAM_ENV:
	case PROTO_CAP_CREATE:
		return 1;
	}
	return 0;
}

/*
 * Whether a late one does the same wherever it goes among those applied so
 * far: what it sets is set once (the first of its kind); a capability it
 * creates stays enabled (none disabled yet).  One session of one program
 * only: what a new session or program decides depends on the order.
 */
static int
late_global_ok(const struct model *m, const struct proto_ev *ev)
{
	const struct model_priv	*p = m->p;

	if (!model_late_global_kind(ev))
		return 0;
	if (ev->kind == PROTO_BLOCK_MARKER)
		return 1;
	if (!p->started || p->sess_new || m->prog.sessions > 1 ||
	    m->prog.resets > 0)
		return 0;
	if (late_sets(ev->kind))
		return m->tag_count[ev->tag] == 0;
	if (ev->kind == PROTO_CAP_CREATE)
		return m->prog.caps_deleted == 0 && m->prog.caps_disabled == 0;
	return 1;
}

/*
 * A late event applied where it belongs, if late_global_ok(): 1.  As the
 * time order would have: counted in its own slot (the slots are the
 * totals' differences: now's is told it has it already), and since the
 * reset only if not before it; the model's start is its first event.
 */
int
model_late_global(struct model *m, const struct proto_ev *ev)
{
	struct model_priv	*p = m->p;
	struct reorder		*ro = &p->ro;
	uint64_t		 t = ev->time;

	if (!late_global_ok(m, ev) ||
	    (ro->aside != NULL && !ro->aside(ro->aside_arg, ev)))
		return 0;
	if (ev->kind == PROTO_BLOCK_MARKER) {
		m->totals.blocks++;
		return 1;
	}
	if (t < m->prog.start) {
		if (m->reset_at == m->prog.start)
			m->reset_at = t;
		m->prog.start = t;
	}
	p->slot_events++;
	p->slot_bytes += ev->size;
	model_count_slot(m, MODEL_S_EVENTS, t, 1);
	model_count_slot(m, MODEL_S_BYTES, t, ev->size);
	if (t < m->reset_at) {
		p->run_events++;
		p->run_bytes += ev->size;
	}
	apply_one(m, p, m->tag_count, ev, 1);	/* (begin: not late) */
	return 1;
}

void
model_late_aside(struct model *m, model_aside_fn *fn, void *arg)
{
	m->p->ro.aside = fn;
	m->p->ro.aside_arg = arg;
}

static size_t	apply_sorted(struct model *, const struct proto_ev *, size_t,
		    uint64_t);
static size_t	apply_sorted_p(struct model *, const struct proto_ev *const *,
		    size_t, uint64_t);

/* Applied in time order up to last: they count as released. */
static void
apply_released(struct model *m, const struct proto_ev *last)
{
	struct reorder	*ro = &m->p->ro;

	if (!ro->any_released || last->time >= ro->released) {
		ro->released = last->time;
		ro->released_off = last->off;
	}
	ro->any_released = 1;
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
	size_t	i;

	if (m->p->ro.window != 0) {
		for (i = 0; i < n && (ev[i].time < until ||
		    ev[i].kind == PROTO_BLOCK_MARKER); i++)
			model_reorder_push(m, &ev[i]);
		return i;
	}
	return apply_sorted(m, ev, n, until);
}

/*
 * Events in time order, given by pointers (read from several files at
 * once), applied at once up to the first at or after until (block markers
 * aside), whatever the reorder buffer's window (which must hold nothing
 * older): a live source's history given again after a checkpoint
 * (src/time/redo.c).  They count as released; how many.
 */
size_t
model_apply_sorted_p(struct model *m, const struct proto_ev *const *ev,
    size_t n, uint64_t until)
{
	if ((n = apply_sorted_p(m, ev, n, until)) > 0)
		apply_released(m, ev[n - 1]);
	return n;
}

/* The reorder buffer's share of the model, for the owner of a live source
 * with a history: see struct reorder. */
void
model_late_defer(struct model *m, int on, uint64_t t, uint64_t off)
{
	struct reorder	*ro = &m->p->ro;

	ro->defer = on;
	ro->defer_time = t;
	ro->defer_off = off;
}

/* The earliest late event left to the owner since it last asked: 1, or 0
 * if none. */
int
model_late_take(struct model *m, uint64_t *t, uint64_t *off)
{
	struct reorder	*ro = &m->p->ro;

	if (!ro->deferred)
		return 0;
	*t = ro->late_time;
	*off = ro->late_off;
	ro->deferred = 0;
	return 1;
}

/* Whether late events were left to the owner since it last asked. */
int
model_late_peek(const struct model *m)
{
	return m->p->ro.deferred;
}

/* Where the events applied end: every event before (t, off) in time
 * order, and none at or after it, has been released to the model. */
void
model_released(const struct model *m, uint64_t *t, uint64_t *off)
{
	const struct reorder	*ro = &m->p->ro;

	*t = ro->any_released ? ro->released : 0;
	*off = ro->any_released ? ro->released_off + 1 : 0;
}

void
model_release_until(struct model *m, uint64_t t)
{
	model_reorder_horizon(m, t);
}

/* One event of a sorted batch: 0 if it is at or after until (not
 * applied).  begin: the model may not have started, or a session is new
 * (apply_begin).  Inlined in each loop: a call an event, with its
 * registers saved and restored, was a sixth of the model. */
static inline __attribute__((always_inline)) int
apply_step(struct model *m, struct model_priv *p, uint64_t *tags,
    const struct proto_ev *e, uint64_t until, int begin)
{
	if (e->kind == PROTO_BLOCK_MARKER) {
		m->totals.blocks++;
		return 1;
	}
	if (e->time >= until)
		return 0;
	if (begin && e->time < m->now)
		m->totals.late++;
	apply_one(m, p, tags, e, begin);
	return 1;
}

/*
 * Until the model has started and no new session is pending, each event is
 * checked for those (apply_begin); after that nothing in the loop can
 * start a session (only model_header() does), so the rest go without.
 * (m->now is 0 until the first event.)
 */
static size_t
apply_sorted(struct model *m, const struct proto_ev *ev, size_t n,
    uint64_t until)
{
	struct model_priv	*p = m->p;
	uint64_t		*tags = m->tag_count;
	size_t			 i = 0;

	for (; i < n && (p->sess_new || !p->started); i++)
		if (!apply_step(m, p, tags, &ev[i], until, 1))
			return i;
	for (; i < n; i++)
		if (!apply_step(m, p, tags, &ev[i], until, 0))
			break;
	return i;
}

/* The same, the events given by pointers (read from several files at
 * once, not copied into one array). */
static size_t
apply_sorted_p(struct model *m, const struct proto_ev *const *ev, size_t n,
    uint64_t until)
{
	struct model_priv	*p = m->p;
	uint64_t		*tags = m->tag_count;
	size_t			 i = 0;

	for (; i < n && (p->sess_new || !p->started); i++)
		if (!apply_step(m, p, tags, ev[i], until, 1))
			return i;
	for (; i < n; i++)
		if (!apply_step(m, p, tags, ev[i], until, 0))
			break;
	return i;
}
