/*
 * model-prof.c: the time profile (cost-centre samples) and the heap
 * profile (censuses and their bands).
 *
 * Cost centres, stacks and bands are uthash tables with an LRU list each;
 * a full table evicts its least recently used entry.  Entries are
 * allocated when first seen (definitions and new stacks come early in a
 * run); steady sampling only finds and counts.
 */
#include <stdlib.h>
#include <string.h>

#include "model/model-priv.h"

#define BAND_NAME_LEN	160
#define CC_STR_MAX	160	/* bytes kept of a label, module, srcloc */

void
model_prof_init(struct model *m)
{
	model_hist_init(m);
}

static void
cc_destroy(struct model *m, struct mcc *c)
{
	struct model_priv	*p = m->p;

	HASH_DEL(p->cc_hash, c);
	LRU_DEL(p->cc_lru_head, p->cc_lru_tail, c);
	mheap_free(c->strs);
	mheap_free(c);
	m->prof.ccs--;
}

static void
stack_destroy(struct model *m, struct mstack *s)
{
	struct model_priv	*p = m->p;

	HASH_DEL(p->st_hash, s);
	LRU_DEL(p->st_lru_head, p->st_lru_tail, s);
	p->st_vec[s->vi] = p->st_vec[--p->st_n];
	p->st_vec[s->vi]->vi = s->vi;
	model_hist_stack_gone(m, s);
	mheap_free(s->ids);
	mheap_free(s);
	m->prof.stacks--;
}

static void
band_destroy(struct model *m, struct mband *b)
{
	struct model_priv	*p = m->p;

	HASH_DEL(p->band_hash, b);
	LRU_DEL(p->band_lru_head, p->band_lru_tail, b);
	model_hist_band_gone(m, b);
	mheap_free(b->key);
	mheap_free(b->namebuf);
	mheap_free(b);
	m->hprof.bands--;
}

void
model_prof_free(struct model *m)
{
	struct model_priv	*p = m->p;

	while (p->cc_lru_head != NULL)
		cc_destroy(m, p->cc_lru_head);
	while (p->st_lru_head != NULL)
		stack_destroy(m, p->st_lru_head);
	mheap_free(p->st_vec);
	p->st_vec = NULL;
	p->st_room = 0;
	while (p->band_lru_head != NULL)
		band_destroy(m, p->band_lru_head);
	model_hist_free(m);
}

/* ------------------------------------------------------------------ */
/* Cost centres. */

static struct mcc *
cc_get(struct model *m, uint32_t id)
{
	struct model_priv	*p = m->p;
	struct mcc		*c;

	HASH_FIND(hh, p->cc_hash, &id, sizeof id, c);
	if (c != NULL)
		return c;
	if (m->prof.ccs >= MODEL_MAX_CCS) {
		cc_destroy(m, p->cc_lru_head);
		m->prof.ccs_evicted++;
	}
	c = model_calloc(m, 1, sizeof *c);
	c->pub.id = id;
	c->pub.label = c->pub.module = c->pub.srcloc = "";
	c->epoch = p->epoch;
	HASH_ADD(hh, p->cc_hash, pub.id, sizeof c->pub.id, c);
	LRU_ADD(p->cc_lru_head, p->cc_lru_tail, c);
	m->prof.ccs++;
	return c;
}

static size_t
cc_room(uint32_t len)
{
	return 4 * (size_t)len > CC_STR_MAX ? CC_STR_MAX : 4 * (size_t)len;
}

static void
cc_define(struct model *m, const struct proto_ev *ev)
{
	struct mcc		*c;
	const struct proto_str	*s[3];
	size_t			 room, off = 0, n;
	uint32_t		 h;
	int			 i;
	char			*buf;

	m->prof.cc_defs++;
	c = cc_get(m, ev->u.cost_centre.id);
	/* The same definition again (a reconnection re-sends them all). */
	h = model_hash(ev->payload, ev->len);
	if (c->pub.defined && c->def_hash == h)
		return;
	c->def_hash = h;
	s[0] = &ev->u.cost_centre.label;
	s[1] = &ev->u.cost_centre.module;
	s[2] = &ev->u.cost_centre.srcloc;
	/* Sanitizing can grow a byte to four (an invalid one, "\xe9"); keep
	 * CC_STR_MAX bytes of each. */
	room = 0;
	for (i = 0; i < 3; i++)
		room += cc_room(s[i]->len) + 1;
	buf = model_calloc(m, 1, room);
	mheap_free(c->strs);
	c->strs = buf;
	for (i = 0; i < 3; i++) {
		n = proto_sanitize_name(s[i]->p, s[i]->len, buf + off,
		    cc_room(s[i]->len));
		buf[off + n] = '\0';
		if (i == 0)
			c->pub.label = buf + off;
		else if (i == 1)
			c->pub.module = buf + off;
		else
			c->pub.srcloc = buf + off;
		off += n + 1;
	}
	c->pub.defined = 1;
	c->pub.caf = ev->u.cost_centre.flags & 1;
}

/* Count 1 for a cost centre, self or total. */
static void
cc_count(struct model *m, struct mcc *c, int self, uint64_t t)
{
	struct model_priv	*p = m->p;

	if (c->epoch != p->epoch) {
		c->pub.self = c->pub.total = 0;
		c->epoch = p->epoch;
	}
	if (self) {
		c->pub.self++;
		wctr_add_fast(m->p, &c->self_w, t, 1);
	} else {
		c->pub.total++;
		wctr_add_fast(m->p, &c->total_w, t, 1);
	}
	LRU_TOUCH(p->cc_lru_head, p->cc_lru_tail, c);
}

static struct mstack *
stack_get(struct model *m, const struct proto_ccs *ccs)
{
	struct model_priv	*p = m->p;
	struct mstack		*s;
	uint32_t		 ids[255], i;
	size_t			 len = sizeof ids[0] * ccs->depth;

	/* The key is the ids in host order (depth is at most 255). */
	for (i = 0; i < ccs->depth && i < 255; i++)
		ids[i] = proto_ccs_at(ccs, i);
	HASH_FIND(hh, p->st_hash, ids, len, s);
	if (s != NULL) {
		LRU_TOUCH(p->st_lru_head, p->st_lru_tail, s);
		return s;
	}
	if (m->prof.stacks >= MODEL_MAX_STACKS) {
		stack_destroy(m, p->st_lru_head);
		m->prof.stacks_evicted++;
	}
	if (p->st_n == p->st_room) {
		p->st_room = p->st_room == 0 ? 1024 : 2 * p->st_room;
		p->st_vec = p->st_vec == NULL ?
		    model_calloc(m, p->st_room, sizeof *p->st_vec) :
		    mheap_realloc(p->st_vec, p->st_room * sizeof *p->st_vec);
	}
	s = model_calloc(m, 1, sizeof *s);
	s->ids = model_calloc(m, 1, len);
	memcpy(s->ids, ids, len);
	s->depth = ccs->depth;
	s->epoch = p->epoch;
	s->seq = p->st_seq++;
	s->vi = p->st_n;
	p->st_vec[p->st_n++] = s;
	HASH_ADD_KEYPTR(hh, p->st_hash, s->ids, len, s);
	LRU_ADD(p->st_lru_head, p->st_lru_tail, s);
	m->prof.stacks++;
	return s;
}

static void
prof_sample(struct model *m, const struct proto_ev *ev)
{
	struct model_priv	*p = m->p;
	const struct proto_ccs	*ccs = &ev->u.prof_sample.ccs;
	struct mstack		*s;
	struct mcc		*c;
	uint64_t		 t = ev->time;
	uint32_t		 i;

	m->prof.samples++;
	m->prof.samples_total++;
	model_count(m, MODEL_S_PROF_SAMPLES, t, 1);
	if (ccs->depth == 0) {
		m->prof.empty++;
		model_hist_sample(m, NULL, ev->u.prof_sample.cap, t);
		return;
	}
	s = stack_get(m, ccs);
	if (s->epoch != p->epoch) {
		s->samples = 0;
		s->epoch = p->epoch;
	}
	s->samples++;
	wctr_add_fast(m->p, &s->w, t, 1);
	model_hist_sample(m, s, ev->u.prof_sample.cap, t);
	p->sample_seq++;
	cc_count(m, cc_get(m, s->ids[0]), 1, t);
	for (i = 0; i < s->depth; i++) {
		c = cc_get(m, s->ids[i]);
		if (c->stamp == p->sample_seq)
			continue;
		c->stamp = p->sample_seq;
		cc_count(m, c, 0, t);
	}
}

const struct model_cc *
model_cc_find(const struct model *m, uint32_t id)
{
	struct mcc	*c;

	HASH_FIND(hh, m->p->cc_hash, &id, sizeof id, c);
	return c != NULL ? &c->pub : NULL;
}

/* Samples in a window: all of them, for shares. */
uint64_t
model_prof_samples(const struct model *m, enum model_win w)
{
	return model_sum(m, MODEL_S_PROF_SAMPLES, w);
}

static uint64_t
cc_win(const struct model *m, const struct mcc *c, int total,
    enum model_win w)
{
	if (w == MODEL_WRUN) {
		if (c->epoch != m->p->epoch)
			return 0;
		return total ? c->pub.total : c->pub.self;
	}
	return wctr_sum(total ? &c->total_w : &c->self_w, m, w);
}

static int
cc_row_before(const struct model_cc_row *a, const struct model_cc_row *b,
    int by_total)
{
	uint64_t	ka = by_total ? a->total : a->self;
	uint64_t	kb = by_total ? b->total : b->self;

	if (ka != kb)
		return ka > kb;
	return a->cc->id < b->cc->id;
}

/* Whether a comes before b in the order asked (rev: reversed). */
static inline int
cc_row_order(const struct model_cc_row *a, const struct model_cc_row *b,
    int by_total, int rev)
{
	return rev ? cc_row_before(b, a, by_total) :
	    cc_row_before(a, b, by_total);
}

/*
 * The n cost centres with the most samples in the window (self, or total
 * with by_total), most first, ties by lower id, or as q says; entries
 * without a sample in the window are left out.  Returns how many rows were
 * written.
 */
int
model_top_ccs(const struct model *m, enum model_win w, int by_total,
    struct model_cc_row *rows, int n, struct model_rowq *q)
{
	struct mcc		*c, *tmp;
	struct model_cc_row	 r;
	uint64_t		 all = model_prof_samples(m, w);
	int			 k = 0, i, kept = 0;
	int			 rev = q != NULL && q->reverse;

	HASH_ITER(hh, m->p->cc_hash, c, tmp) {
		r.cc = &c->pub;
		r.self = cc_win(m, c, 0, w);
		r.total = cc_win(m, c, 1, w);
		if ((by_total ? r.total : r.self) == 0)
			continue;
		if (q != NULL && q->keep != NULL && !q->keep(r.cc, q->arg))
			continue;
		kept++;
		if (n <= 0)
			continue;
		r.self_share = all > 0 ? (double)r.self / (double)all : 0;
		r.total_share = all > 0 ? (double)r.total / (double)all : 0;
		/* Insertion into the sorted prefix; n is a screenful or a few
		 * (the table's top, or the rows down to where a pane shows). */
		if (k == n && !cc_row_order(&r, &rows[k - 1], by_total, rev))
			continue;
		i = k < n ? k++ : k - 1;
		while (i > 0 && cc_row_order(&r, &rows[i - 1], by_total, rev)) {
			rows[i] = rows[i - 1];
			i--;
		}
		rows[i] = r;
	}
	if (q != NULL)
		q->total = kept;
	return k;
}

/* A stack in model_top_stacks()'s selection. */
struct stk_pick {
	uint64_t		 samples, seq;
	const struct mstack	*s;
};

/* a comes after b: fewer samples, or as many and made later. */
static inline int
stk_after(const struct stk_pick *a, const struct stk_pick *b)
{
	return a->samples < b->samples || (a->samples == b->samples &&
	    a->seq > b->seq);
}

/* Sift down in a heap whose root is the pick that comes last. */
static void
stk_down(struct stk_pick *h, int n, int i)
{
	struct stk_pick	tmp;
	int		c;

	for (;;) {
		c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && stk_after(&h[c + 1], &h[c]))
			c++;
		if (!stk_after(&h[c], &h[i]))
			break;
		tmp = h[i];
		h[i] = h[c];
		h[c] = tmp;
		i = c;
	}
}

/*
 * The n stacks (at most MODEL_TOP_STACKS) with the most samples in the
 * window, most first; as many: the one made first first.
 */
int
model_top_stacks(const struct model *m, enum model_win w,
    struct model_stack_row *rows, int n)
{
	const struct model_priv	*p = m->p;
	struct stk_pick		 h[MODEL_TOP_STACKS], r, tmp;
	const struct mstack	*s;
	uint64_t		 all = model_prof_samples(m, w);
	uint32_t		 i;
	int			 k = 0, j, up;

	if (n > MODEL_TOP_STACKS)
		n = MODEL_TOP_STACKS;
	if (n <= 0)
		return 0;
	for (i = 0; i < p->st_n; i++) {
		s = p->st_vec[i];
		if (w == MODEL_WRUN)
			r.samples = s->epoch == p->epoch ? s->samples : 0;
		else
			r.samples = wctr_sum(&s->w, m, w);
		if (r.samples == 0)
			continue;
		r.seq = s->seq;
		r.s = s;
		if (k < n) {
			/* Up from the end while it comes after its parent. */
			for (j = k++; j > 0; j = up) {
				up = (j - 1) / 2;
				if (!stk_after(&r, &h[up]))
					break;
				h[j] = h[up];
			}
			h[j] = r;
		} else if (stk_after(&h[0], &r)) {
			h[0] = r;
			stk_down(h, k, 0);
		}
	}
	/* Heap sort: the root is the last. */
	for (j = k - 1; j > 0; j--) {
		tmp = h[0];
		h[0] = h[j];
		h[j] = tmp;
		stk_down(h, j, 0);
	}
	for (j = 0; j < k; j++) {
		rows[j].ids = h[j].s->ids;
		rows[j].depth = h[j].s->depth;
		rows[j].samples = h[j].samples;
		rows[j].share = all > 0 ? (double)h[j].samples /
		    (double)all : 0;
	}
	return k;
}

/* ------------------------------------------------------------------ */
/* Heap profile. */

static struct model_census *
census_cur(struct model *m)
{
	struct model_priv	*p = m->p;

	return &p->census[(p->censusno - 1) % MODEL_NCENSUS];
}

static void
census_begin(struct model *m, uint64_t t, uint64_t era)
{
	struct model_priv	*p = m->p;
	struct model_census	*c;

	p->censusno++;
	c = census_cur(m);
	memset(c, 0, sizeof *c);
	c->start = t;
	c->era = era;
	m->hprof.in_census = 1;
	m->hprof.last_time = t;
	m->hprof.recs = p->censusno < MODEL_NCENSUS ? p->censusno :
	    MODEL_NCENSUS;
	model_hist_census(m, c);
}

/* n bytes of s after buf[*off], or what fits: 0 if it did not all fit. */
static int
band_put(char *buf, size_t size, size_t *off, const char *s, size_t n)
{
	int	fits = *off + n < size;

	if (!fits)
		n = size - 1 - *off;
	memcpy(buf + *off, s, n);
	*off += n;
	buf[*off] = '\0';
	return fits;
}

/* A band's name from its cost-centre stack: labels, innermost first, with
 * a CAF's module in front.  1 if it was cut to fit. */
static int
band_ccs_name(struct model *m, const struct proto_ccs *ccs, char *buf,
    size_t size)
{
	const struct model_cc	*c;
	size_t			 off = 0;
	uint32_t		 i, id;
	char			 piece[2 * CC_STR_MAX + 16];
	int			 fits = 1;

	buf[0] = '\0';
	if (ccs->depth == 0)
		snprintf(buf, size, "%s", MODEL_MAIN_STACK);
	for (i = 0; i < ccs->depth && fits; i++) {
		id = proto_ccs_at(ccs, i);
		c = model_cc_find(m, id);
		if (c != NULL && c->defined && (c->caf ||
		    strcmp(c->label, "CAF") == 0))
			/* CAFs are told apart by their module. */
			snprintf(piece, sizeof piece, "%s%s.%s",
			    i > 0 ? "/" : "", c->module, c->label);
		else if (c != NULL && c->defined)
			snprintf(piece, sizeof piece, "%s%s",
			    i > 0 ? "/" : "", c->label);
		else
			snprintf(piece, sizeof piece, "%s(%u)",
			    i > 0 ? "/" : "", id);
		fits = band_put(buf, size, &off, piece, strlen(piece));
	}
	return !fits;
}

/*
 * A name cut to fit gets its band's serial in front, "(12)", as the RTS
 * puts a stack's number before a long one in its .hp: two names cut
 * alike would otherwise be one band to hp2ps.  Cut at a character.
 */
static void
band_name_cut(char *name, size_t size, uint64_t serial)
{
	char	pre[24];
	size_t	np, n = strlen(name);

	np = (size_t)snprintf(pre, sizeof pre, "(%llu)",
	    (unsigned long long)serial);
	if (n > size - 1 - np)
		n = size - 1 - np;
	while (n > 0 && ((unsigned char)name[n] & 0xc0) == 0x80)
		n--;
	memmove(name + np, name, n);
	memcpy(name, pre, np);
	name[np + n] = '\0';
}

/* A -hi band's label, the info table's address "0x40e800"; else 0. */
static uint64_t
band_info(const uint8_t *s, size_t n)
{
	uint64_t	v = 0;
	size_t		i;
	int		d;

	if (n < 3 || n > 18 || s[0] != '0' || s[1] != 'x')
		return 0;
	for (i = 2; i < n; i++) {
		if (s[i] >= '0' && s[i] <= '9')
			d = s[i] - '0';
		else if (s[i] >= 'a' && s[i] <= 'f')
			d = s[i] - 'a' + 10;
		else
			return 0;
		v = v << 4 | (uint64_t)d;
	}
	return v;
}

/* A new band's name from its key (a stack's, or a label): 1 if cut. */
static int
band_name(struct model *m, const uint8_t *kb, size_t kn,
    const struct proto_ev *ev, char *name, size_t size)
{
	char	full[4 * 1024 + 1];	/* a 1 KiB key, each byte "\xNN" */

	if (kb[0] == 'c')
		return band_ccs_name(m, &ev->u.heap_sample_cc.ccs, name, size);
	full[proto_sanitize_name((const char *)kb + 1, kn - 1, full,
	    sizeof full - 1)] = '\0';
	model_copy_text(name, size, full, strlen(full));
	return strlen(full) > strlen(name);
}

static void
band_sample(struct model *m, const uint8_t *kb, size_t kn, uint64_t res,
    const struct proto_ev *ev)
{
	struct model_priv	*p = m->p;
	struct model_census	*cs;
	struct mband		*b;
	uint8_t			 stackkey[1 + 4 * 255];
	char			 name[BAND_NAME_LEN];
	uint64_t		 no;
	size_t			 n;

	m->hprof.samples++;
	if (p->censusno == 0)
		census_begin(m, ev->time, 0);
	no = p->censusno;
	cs = census_cur(m);
	cs->total += res;
	cs->samples++;
	if (kb == NULL) {
		/* A cost-centre stack: kind 'c' and the ids. */
		stackkey[0] = 'c';
		n = 4 * (size_t)ev->u.heap_sample_cc.ccs.depth;
		memcpy(stackkey + 1, ev->u.heap_sample_cc.ccs.ids, n);
		kb = stackkey;
		kn = n + 1;
	}
	HASH_FIND(hh, p->band_hash, kb, kn, b);
	if (b == NULL) {
		if (m->hprof.bands >= MODEL_MAX_BANDS) {
			band_destroy(m, p->band_lru_head);
			m->hprof.bands_evicted++;
		}
		b = model_calloc(m, 1, sizeof *b);
		b->key = model_calloc(m, 1, kn);
		memcpy(b->key, kb, kn);
		b->keylen = kn;
		model_hist_band_new(m, b);	/* its serial, for a cut name */
		if (band_name(m, kb, kn, ev, name, sizeof name))
			band_name_cut(name, sizeof name, b->serial);
		b->pub.info = kb[0] == 's' ? band_info(kb + 1, kn - 1) : 0;
		b->namebuf = model_calloc(m, 1, strlen(name) + 1);
		memcpy(b->namebuf, name, strlen(name) + 1);
		b->pub.name = b->namebuf;
		HASH_ADD_KEYPTR(hh, p->band_hash, b->key, b->keylen, b);
		LRU_ADD(p->band_lru_head, p->band_lru_tail, b);
		m->hprof.bands++;
	} else
		LRU_TOUCH(p->band_lru_head, p->band_lru_tail, b);
	if (b->pub.last_census == no)
		b->pub.bytes += res;
	else
		b->pub.bytes = res;
	b->pub.last_census = no;
	b->trend[no % MODEL_NTREND] = b->pub.bytes;
	b->stamp[no % MODEL_NTREND] = no;
	if (b->pub.bytes > b->pub.peak)
		b->pub.peak = b->pub.bytes;
	model_hist_band(m, b, res);
}

void
model_prof_event(struct model *m, const struct proto_ev *ev)
{
	struct model_priv	*p = m->p;
	uint8_t			 key[1 + 1024];
	size_t			 n;

	switch (ev->kind) {
	case PROTO_HEAP_PROF_COST_CENTRE:
		cc_define(m, ev);
		break;
	case PROTO_PROF_SAMPLE_COST_CENTRE:
		prof_sample(m, ev);
		break;
	case PROTO_HEAP_PROF_SAMPLE_BEGIN:
		m->hprof.censuses++;
		census_begin(m, ev->time, ev->u.sample.era);
		break;
	case PROTO_HEAP_BIO_PROF_SAMPLE_BEGIN:
		census_begin(m, ev->time, ev->u.sample.era);
		break;
	case PROTO_HEAP_PROF_SAMPLE_END:
		if (p->censusno > 0 && m->hprof.in_census) {
			census_cur(m)->end = ev->time;
			model_hist_census_end(m, ev->time);
		}
		m->hprof.in_census = 0;
		break;
	case PROTO_HEAP_PROF_SAMPLE_COST_CENTRE:
		band_sample(m, NULL, 0, ev->u.heap_sample_cc.residency, ev);
		break;
	case PROTO_HEAP_PROF_SAMPLE_STRING:
		/* Labels longer than the key are told apart by 1 KiB. */
		key[0] = 's';
		n = ev->u.heap_sample_str.label.len;
		if (n > sizeof key - 1)
			n = sizeof key - 1;
		memcpy(key + 1, ev->u.heap_sample_str.label.p, n);
		band_sample(m, key, n + 1, ev->u.heap_sample_str.residency,
		    ev);
		break;
	}
}

/* The census the bands show: the latest one that ended, else the open. */
static uint64_t
shown_census(const struct model *m)
{
	uint64_t	no = m->p->censusno;

	if (m->hprof.in_census && no > 1)
		no--;
	return no;
}

static uint64_t
band_at(const struct mband *b, uint64_t no)
{
	if (no == 0 || b->stamp[no % MODEL_NTREND] != no)
		return 0;
	return b->trend[no % MODEL_NTREND];
}

static int
band_before(const struct model_band_row *a, const struct model_band_row *b)
{
	if (a->bytes != b->bytes)
		return a->bytes > b->bytes;
	return strcmp(a->band->name, b->band->name) < 0;
}

/*
 * The n biggest bands of the census shown (the latest complete one), most
 * first, with each band's trend over the last MODEL_NTREND censuses.
 */
int
model_top_bands(const struct model *m, struct model_band_row *rows, int n)
{
	const struct model_priv	*p = m->p;
	struct mband		*b, *tmp;
	struct model_band_row	 r;
	uint64_t		 no = shown_census(m), total, first, c;
	int			 k = 0, i;

	if (n <= 0 || no == 0)
		return 0;
	total = p->census[(no - 1) % MODEL_NCENSUS].total;
	first = no >= MODEL_NTREND ? no - MODEL_NTREND + 1 : 1;
	HASH_ITER(hh, p->band_hash, b, tmp) {
		if ((r.bytes = band_at(b, no)) == 0)
			continue;
		r.band = &b->pub;
		if (k == n && !band_before(&r, &rows[k - 1]))
			continue;
		r.share = total > 0 ? (double)r.bytes / (double)total : 0;
		r.delta = (int64_t)r.bytes - (int64_t)band_at(b, no - 1);
		r.ntrend = 0;
		for (c = first; c <= no; c++)
			r.trend[r.ntrend++] = band_at(b, c);
		i = k < n ? k++ : k - 1;
		while (i > 0 && band_before(&r, &rows[i - 1])) {
			rows[i] = rows[i - 1];
			i--;
		}
		rows[i] = r;
	}
	return k;
}

const struct model_census *
model_census_recent(const struct model *m, int i)
{
	const struct model_priv	*p = m->p;

	if (i < 0 || (uint64_t)i >= m->hprof.recs)
		return NULL;
	return &p->census[(p->censusno - 1 - (uint64_t)i) % MODEL_NCENSUS];
}
