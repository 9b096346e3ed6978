/*
 * model-hist.c: what the exports need beyond the panes' figures: each
 * cost-centre stack's samples by capability (speedscope has a profile per
 * capability), the samples with an empty stack (so that the exports add
 * up to prof.samples), and the last MODEL_HIST_CENSUSES heap-profile
 * censuses with every band's residency (a .hp file is every census).
 *
 * model-prof.c calls the hooks below as it counts; everything here is
 * bounded (model.h).  Per-capability entries are made when a (stack, cap)
 * pair is first sampled, as stacks are; band entries go into a ring
 * allocated once, so steady sampling allocates nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "model/model-priv.h"

/* A stack's samples on one capability; a list on the stack, most
 * recently sampled first (a stack is sampled on few caps). */
struct mscap {
	uint32_t	 cap;
	uint32_t	 epoch;
	uint64_t	 samples;	/* run (or reset) */
	struct wctr	 w;
	struct mscap	*next;
};

/* A census of the history: its bands are entries ent0 .. ent0+nent-1. */
struct hcensus {
	struct model_census c;
	uint64_t	 ent0, nent;
};

struct hent {
	uint64_t	 serial;	/* the band's */
	uint64_t	 bytes;
};

struct mhist {
	struct mstack	 empty;		/* samples without a stack */
	uint64_t	 nscaps;	/* mscap entries */
	uint64_t	 caps_full;
	struct mband	*by_serial;	/* bands, by serial (handle hs) */
	uint64_t	 serial;	/* last given */
	struct hcensus	*cen;		/* [MODEL_HIST_CENSUSES] by number */
	uint64_t	 lo, hi;	/* kept: numbers lo .. hi-1 */
	uint64_t	 dropped;
	struct hent	*ent;		/* [MODEL_HIST_ENTRIES] by number */
	uint64_t	 ent_hi;	/* entries made */
};

void
model_hist_init(struct model *m)
{
	struct mhist	*h;

	h = model_calloc(m, 1, sizeof *h);
	h->empty.epoch = m->p->epoch;
	h->cen = model_calloc(m, MODEL_HIST_CENSUSES, sizeof *h->cen);
	m->p->hist = h;
}

static void
hist_caps_free(struct mhist *h, struct mstack *s)
{
	struct mscap	*c, *next;

	for (c = s->caps; c != NULL; c = next) {
		next = c->next;
		mheap_free(c);
		h->nscaps--;
	}
	s->caps = NULL;
}

/* After model-prof.c has destroyed every stack and band. */
void
model_hist_free(struct model *m)
{
	struct mhist	*h = m->p->hist;

	if (h == NULL)
		return;
	hist_caps_free(h, &h->empty);
	mheap_free(h->cen);
	mheap_free(h->ent);
	mheap_free(h);
	m->p->hist = NULL;
}

/* ------------------------------------------------------------------ */
/* Samples by capability. */

/* A sample of stack s (NULL: the empty stack) on cap at t. */
void
model_hist_sample(struct model *m, struct mstack *s, uint32_t cap,
    uint64_t t)
{
	struct model_priv	*p = m->p;
	struct mhist		*h = p->hist;
	struct mscap		*c, *prev = NULL;

	if (s == NULL) {
		s = &h->empty;
		if (s->epoch != p->epoch) {
			s->samples = 0;
			s->epoch = p->epoch;
		}
		s->samples++;
		wctr_add_fast(p, &s->w, t, 1);
	}
	for (c = s->caps; c != NULL && c->cap != cap; c = c->next)
		prev = c;
	if (c == NULL) {
		/* Caps past the model's own cap count only in the whole. */
		if (h->nscaps >= MODEL_MAX_STACK_CAPS ||
		    cap >= MODEL_MAX_CAPS) {
			h->caps_full++;
			return;
		}
		c = model_calloc(m, 1, sizeof *c);
		c->cap = cap;
		c->epoch = p->epoch;
		h->nscaps++;
		c->next = s->caps;
		s->caps = c;
	} else if (prev != NULL) {
		prev->next = c->next;
		c->next = s->caps;
		s->caps = c;
	}
	if (c->epoch != p->epoch) {
		c->samples = 0;
		c->epoch = p->epoch;
	}
	c->samples++;
	wctr_add_fast(p, &c->w, t, 1);
}

void
model_hist_stack_gone(struct model *m, struct mstack *s)
{
	hist_caps_free(m->p->hist, s);
}

static uint64_t
hist_win(const struct model *m, uint64_t samples, uint32_t epoch,
    const struct wctr *w, enum model_win win)
{
	if (win == MODEL_WRUN)
		return epoch == m->p->epoch ? samples : 0;
	return wctr_sum(w, m, win);
}

static uint64_t
hist_stack(const struct model *m, enum model_win win, const struct mstack *s,
    uint64_t all, model_stack_fn *fn, void *arg)
{
	struct model_stack_cap	 caps[MODEL_MAX_CAPS], cc;
	struct model_stack_row	 r;
	const struct mscap	*c;
	int			 n = 0, i;

	r.ids = s->ids;
	r.depth = s->depth;
	r.samples = hist_win(m, s->samples, s->epoch, &s->w, win);
	if (r.samples == 0)
		return 0;
	r.share = all > 0 ? (double)r.samples / (double)all : 0;
	/* At most MODEL_MAX_CAPS entries, one per cap below it. */
	for (c = s->caps; c != NULL && n < MODEL_MAX_CAPS; c = c->next) {
		cc.cap = c->cap;
		if ((cc.samples = hist_win(m, c->samples, c->epoch, &c->w,
		    win)) == 0)
			continue;
		for (i = n++; i > 0 && caps[i - 1].cap > cc.cap; i--)
			caps[i] = caps[i - 1];
		caps[i] = cc;
	}
	fn(arg, &r, caps, n);
	return r.samples;
}

uint64_t
model_hist_stacks(const struct model *m, enum model_win win,
    model_stack_fn *fn, void *arg)
{
	struct mhist	*h = m->p->hist;
	struct mstack	*s, *tmp;
	uint64_t	 all = model_sum(m, MODEL_S_PROF_SAMPLES, win), n;

	n = hist_stack(m, win, &h->empty, all, fn, arg);
	HASH_ITER(hh, m->p->st_hash, s, tmp)
		n += hist_stack(m, win, s, all, fn, arg);
	return n;
}

/* ------------------------------------------------------------------ */
/* The census history. */

void
model_hist_band_new(struct model *m, struct mband *b)
{
	struct mhist	*h = m->p->hist;

	b->serial = ++h->serial;
	HASH_ADD(hs, h->by_serial, serial, sizeof b->serial, b);
}

void
model_hist_band_gone(struct model *m, struct mband *b)
{
	HASH_DELETE(hs, m->p->hist->by_serial, b);
}

static struct hcensus *
hist_cur(struct mhist *h)
{
	return h->hi > h->lo ? &h->cen[(h->hi - 1) % MODEL_HIST_CENSUSES] :
	    NULL;
}

void
model_hist_census(struct model *m, const struct model_census *c)
{
	struct mhist	*h = m->p->hist;
	struct hcensus	*hc;

	if (h->hi - h->lo == MODEL_HIST_CENSUSES) {
		h->lo++;
		h->dropped++;
	}
	hc = &h->cen[h->hi++ % MODEL_HIST_CENSUSES];
	memset(hc, 0, sizeof *hc);
	hc->c.start = c->start;
	hc->c.era = c->era;
	hc->ent0 = h->ent_hi;
}

void
model_hist_census_end(struct model *m, uint64_t t)
{
	struct hcensus	*hc = hist_cur(m->p->hist);

	if (hc != NULL)
		hc->c.end = t;
}

/* res more bytes of band b in the current census. */
void
model_hist_band(struct model *m, struct mband *b, uint64_t res)
{
	struct mhist	*h = m->p->hist;
	struct hcensus	*hc = hist_cur(h);
	struct hent	*e;

	if (hc == NULL)
		return;
	hc->c.total += res;
	hc->c.samples++;
	if (b->hist_no == h->hi) {
		/* A census's entries are the newest: still in the ring. */
		h->ent[b->hist_ent % MODEL_HIST_ENTRIES].bytes += res;
		return;
	}
	if (h->ent == NULL)
		h->ent = model_calloc(m, MODEL_HIST_ENTRIES, sizeof *h->ent);
	b->hist_no = h->hi;
	b->hist_ent = h->ent_hi++;
	e = &h->ent[b->hist_ent % MODEL_HIST_ENTRIES];
	e->serial = b->serial;
	e->bytes = res;
	hc->nent++;
	/* Older censuses whose entries were written over go. */
	while (h->lo + 1 < h->hi && h->ent_hi > MODEL_HIST_ENTRIES &&
	    h->cen[h->lo % MODEL_HIST_CENSUSES].ent0 <
	    h->ent_hi - MODEL_HIST_ENTRIES) {
		h->lo++;
		h->dropped++;
	}
}

uint64_t
model_hist_censuses(const struct model *m, uint64_t from,
    const struct model_hist_visit *v, void *arg)
{
	const struct mhist	*h = m->p->hist;
	const struct hcensus	*hc;
	const struct hent	*e;
	struct mband		*b;
	uint64_t		 no, i, n = 0;

	for (no = h->lo; no < h->hi; no++) {
		hc = &h->cen[no % MODEL_HIST_CENSUSES];
		if (hc->c.start < from)
			continue;
		n++;
		v->begin(arg, &hc->c);
		for (i = hc->ent0; i < hc->ent0 + hc->nent; i++) {
			e = &h->ent[i % MODEL_HIST_ENTRIES];
			HASH_FIND(hs, h->by_serial, &e->serial,
			    sizeof e->serial, b);
			v->band(arg, b != NULL ? &b->pub : NULL, e->bytes);
		}
		v->end(arg, &hc->c);
	}
	return n;
}

void
model_hist_info(const struct model *m, struct model_hist_info *info)
{
	const struct mhist	*h = m->p->hist;

	info->censuses = h->hi - h->lo;
	info->dropped = h->dropped;
	info->stack_caps = h->nscaps;
	info->caps_full = h->caps_full;
}
