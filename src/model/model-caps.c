/*
 * model-caps.c: capabilities: what each one does over time, its sparks.
 *
 * A cap is idle, running a Haskell thread (RUN_THREAD .. STOP_THREAD) or in
 * GC (its GC_START .. GC_END).  When it leaves a state the span is added to
 * its ring of ns per slot; the windows sum the ring plus the open span.
 */
#include <string.h>

#include "model/model-priv.h"

enum {
	SP_CREATED, SP_CONVERTED, SP_FIZZLED, SP_GCD, SP_DUD, SP_OVERFLOWED,
};

static const enum model_series sp_series[6] = {
	MODEL_S_SPARKS_CREATED, MODEL_S_SPARKS_CONVERTED,
	MODEL_S_SPARKS_FIZZLED, MODEL_S_SPARKS_GCD, MODEL_S_SPARKS_DUD,
	MODEL_S_SPARKS_OVERFLOWED,
};

static void
spark_add(struct model *m, struct mcap *c, int which, uint64_t t, uint64_t n)
{
	if (n == 0)
		return;
	model_count(m, sp_series[which], t, n);
	wctr_add_fast(m->p, &c->sp[which], t, n > UINT32_MAX ? UINT32_MAX : (uint32_t)n);
}

static uint64_t
delta(uint64_t now, uint64_t before)
{
	return now > before ? now - before : 0;
}

/* SPARK_COUNTERS, a cap's cumulative counts: the most frequent of these
 * events, it has its own entry (c is not NULL). */
void
model_spark_counters(struct model *m, struct mcap *c,
    const struct proto_ev *ev)
{
	struct model_sparks	*s = &c->pub.sparks, *b = &c->sp_prev;
	uint64_t		 t = ev->time;

	if (!s->has_counters) {
		/* What spark events already counted is the baseline. */
		memset(b, 0, sizeof *b);
		b->crt = s->ev_create;
		b->cnv = s->ev_run;
		b->fiz = s->ev_fizzle;
		b->gcd = s->ev_gc;
		b->dud = s->ev_dud;
		b->ovf = s->ev_overflow;
	}
	s->has_counters = 1;
	s->crt = ev->u.sparks.crt;
	s->dud = ev->u.sparks.dud;
	s->ovf = ev->u.sparks.ovf;
	s->cnv = ev->u.sparks.cnv;
	s->gcd = ev->u.sparks.gcd;
	s->fiz = ev->u.sparks.fiz;
	s->rem = ev->u.sparks.rem;
	spark_add(m, c, SP_CREATED, t, delta(s->crt, b->crt));
	spark_add(m, c, SP_CONVERTED, t, delta(s->cnv, b->cnv));
	spark_add(m, c, SP_FIZZLED, t, delta(s->fiz, b->fiz));
	spark_add(m, c, SP_GCD, t, delta(s->gcd, b->gcd));
	spark_add(m, c, SP_DUD, t, delta(s->dud, b->dud));
	spark_add(m, c, SP_OVERFLOWED, t, delta(s->ovf, b->ovf));
	/* Only the counters are read from b. */
	b->crt = s->crt;
	b->dud = s->dud;
	b->ovf = s->ovf;
	b->cnv = s->cnv;
	b->gcd = s->gcd;
	b->fiz = s->fiz;
}

/* An individual spark event: counted; a rate only without counters. */
static void
spark_event(struct model *m, struct mcap *c, uint64_t *ctr, int which,
    uint64_t t)
{
	(*ctr)++;
	if (which >= 0 && !c->pub.sparks.has_counters)
		spark_add(m, c, which, t, 1);
}

void
model_caps_event(struct model *m, struct mcap *c, const struct proto_ev *ev)
{
	struct model_sparks	*s;
	struct mcap		*o;

	switch (ev->kind) {
	case PROTO_CAP_CREATE:
		m->prog.caps_created++;
		if ((o = model_cap_get(m, ev->u.cap.cap)) != NULL)
			o->pub.enabled = 1;
		return;
	case PROTO_CAP_DELETE:
		m->prog.caps_deleted++;
		if ((o = model_cap_get(m, ev->u.cap.cap)) != NULL)
			o->pub.enabled = 0;
		return;
	case PROTO_CAP_ENABLE:
		m->prog.caps_enabled++;
		if ((o = model_cap_get(m, ev->u.cap.cap)) != NULL)
			o->pub.enabled = 1;
		return;
	case PROTO_CAP_DISABLE:
		m->prog.caps_disabled++;
		if ((o = model_cap_get(m, ev->u.cap.cap)) != NULL)
			o->pub.enabled = 0;
		return;
	}
	if (c == NULL)
		return;
	s = &c->pub.sparks;
	switch (ev->kind) {
	case PROTO_SPARK_CREATE:
		spark_event(m, c, &s->ev_create, SP_CREATED, ev->time);
		break;
	case PROTO_SPARK_DUD:
		spark_event(m, c, &s->ev_dud, SP_DUD, ev->time);
		break;
	case PROTO_SPARK_OVERFLOW:
		spark_event(m, c, &s->ev_overflow, SP_OVERFLOWED, ev->time);
		break;
	case PROTO_SPARK_RUN:
	case PROTO_RUN_SPARK:
		spark_event(m, c, &s->ev_run, SP_CONVERTED, ev->time);
		break;
	case PROTO_SPARK_STEAL:
	case PROTO_STEAL_SPARK:
		spark_event(m, c, &s->ev_steal, -1, ev->time);
		break;
	case PROTO_SPARK_FIZZLE:
		spark_event(m, c, &s->ev_fizzle, SP_FIZZLED, ev->time);
		break;
	case PROTO_SPARK_GC:
		spark_event(m, c, &s->ev_gc, SP_GCD, ev->time);
		break;
	}
}

/* Sum a cap ring over [lo, now], plus the open span of that state. */
static uint64_t
ring_sum(const struct model *m, const struct mcap *c, const uint32_t *ring,
    enum model_cap_state st, uint64_t lo)
{
	uint64_t	a, v = 0;

	for (a = lo / MODEL_SLOT_NS; a <= m->p->slot; a++)
		v += ring[a % MODEL_NSLOTS];
	if (c->pub.state == st)
		v += model_overlap(c->pub.since, m->now, lo, m->now);
	return v;
}

void
model_cap_util(const struct model *m, const struct model_cap *pc,
    enum model_win w, struct model_util *u)
{
	const struct mcap	*c = (const struct mcap *)pc;
	uint64_t		 lo;

	memset(u, 0, sizeof *u);
	if (!m->p->started)
		return;
	lo = model_win_start(m, w);
	u->dur_ns = m->now - lo;
	if (w == MODEL_WRUN) {
		u->run_ns = pc->run_ns;
		u->gc_ns = pc->gc_ns;
		if (pc->state == MODEL_CAP_RUN)
			u->run_ns += model_overlap(pc->since, m->now, lo,
			    m->now);
		if (pc->state == MODEL_CAP_GC)
			u->gc_ns += model_overlap(pc->since, m->now, lo,
			    m->now);
	} else {
		u->run_ns = ring_sum(m, c, c->run, MODEL_CAP_RUN, lo);
		u->gc_ns = ring_sum(m, c, c->gc, MODEL_CAP_GC, lo);
	}
	if (u->run_ns > u->dur_ns)
		u->run_ns = u->dur_ns;
	if (u->gc_ns > u->dur_ns - u->run_ns)
		u->gc_ns = u->dur_ns - u->run_ns;
	u->idle_ns = u->dur_ns - u->run_ns - u->gc_ns;
	if (u->dur_ns > 0) {
		u->run = (double)u->run_ns / (double)u->dur_ns;
		u->gc = (double)u->gc_ns / (double)u->dur_ns;
	}
}

void
model_caps_util(const struct model *m, enum model_win w,
    struct model_util *u)
{
	struct model_util	 one;
	int			 i;

	memset(u, 0, sizeof *u);
	for (i = 0; i < m->prog.ncaps; i++) {
		if (m->caps[i] == NULL)
			continue;
		model_cap_util(m, m->caps[i], w, &one);
		u->run_ns += one.run_ns;
		u->gc_ns += one.gc_ns;
		u->idle_ns += one.idle_ns;
		u->dur_ns += one.dur_ns;
	}
	if (u->dur_ns > 0) {
		u->run = (double)u->run_ns / (double)u->dur_ns;
		u->gc = (double)u->gc_ns / (double)u->dur_ns;
	}
}

/* Share of each of the last n slots the cap spent running, oldest first. */
int
model_cap_history(const struct model *m, const struct model_cap *pc,
    double *out, int n)
{
	const struct mcap	*c = (const struct mcap *)pc;
	const struct model_priv	*p = m->p;
	uint64_t		 a, lo, hi, run;
	int			 k = 0;

	if (!p->started || n <= 0)
		return 0;
	for (a = model_history_first(m, n); a <= p->slot; a++) {
		lo = a * MODEL_SLOT_NS;
		hi = lo + MODEL_SLOT_NS;
		run = c->run[a % MODEL_NSLOTS];
		if (pc->state == MODEL_CAP_RUN)
			run += model_overlap(pc->since, m->now, lo, hi);
		if (lo < m->prog.start)
			lo = m->prog.start;
		if (hi > m->now)
			hi = m->now;
		out[k++] = hi > lo ? (double)run / (double)(hi - lo) : 0;
		if (out[k - 1] > 1)
			out[k - 1] = 1;
	}
	return k;
}

/* Sparks of one kind (a MODEL_S_SPARKS_* series) on a cap in a window;
 * MODEL_WRUN counts since the start of the program. */
uint64_t
model_cap_sparks(const struct model *m, const struct model_cap *pc,
    enum model_series s, enum model_win w)
{
	const struct mcap	*c = (const struct mcap *)pc;
	const struct model_sparks *k = &pc->sparks;
	int			 i;

	for (i = 0; i < 6; i++)
		if (sp_series[i] == s)
			break;
	if (i == 6)
		return 0;
	if (w != MODEL_WRUN)
		return wctr_sum(&c->sp[i], m, w);
	if (k->has_counters) {
		switch (i) {
		case SP_CREATED:	return k->crt;
		case SP_CONVERTED:	return k->cnv;
		case SP_FIZZLED:	return k->fiz;
		case SP_GCD:		return k->gcd;
		case SP_DUD:		return k->dud;
		default:		return k->ovf;
		}
	}
	switch (i) {
	case SP_CREATED:	return k->ev_create;
	case SP_CONVERTED:	return k->ev_run;
	case SP_FIZZLED:	return k->ev_fizzle;
	case SP_GCD:		return k->ev_gc;
	case SP_DUD:		return k->ev_dud;
	default:		return k->ev_overflow;
	}
}
