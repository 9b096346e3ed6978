/*
 * model-ipe.c: info-table provenance.  A program built with
 * -finfo-table-map posts one IPE event per info table it knows (at start,
 * and again when a client reconnects); a -hi heap profile labels its bands
 * with info-table addresses, which these entries name.
 *
 * A uthash table keyed by address, at most MODEL_MAX_IPE entries: a full
 * table drops its oldest definition.  An entry is allocated when first
 * defined; the same definition again costs a lookup and a hash.
 */
#include <stdlib.h>
#include <string.h>

#include "model/model-priv.h"

/* The title of an entry's bands, model_band_title()'s (its length). */
static int
ipe_title(const struct model_ipe *e, char *buf, size_t len)
{
	const char	*where = e->srcloc[0] != '\0' && e->srcloc[0] != ':' ?
			    e->srcloc : e->module;

	return snprintf(buf, len, "%s (%s) %s", e->table_name,
	    e->type[0] != '\0' ? e->type : e->closure, where);
}

static struct mipe_title *
ipe_title_find(const struct model *m, uint32_t h)
{
	struct mipe_title	*t;

	HASH_FIND(hh, m->p->ipe_titles, &h, sizeof h, t);
	return t;
}

/* Count e's title in (add) or out. */
static void
ipe_title_count(struct model *m, const struct mipe *e, int add)
{
	struct model_priv	*p = m->p;
	struct mipe_title	*t = ipe_title_find(m, e->title_hash);

	if (add) {
		if (t == NULL) {
			t = model_calloc(m, 1, sizeof *t);
			t->hash = e->title_hash;
			HASH_ADD(hh, p->ipe_titles, hash, sizeof t->hash, t);
		}
		t->n++;
	} else if (t != NULL && --t->n == 0) {
		HASH_DEL(p->ipe_titles, t);
		mheap_free(t);
	}
}

static void
ipe_destroy(struct model *m, struct mipe *e)
{
	struct model_priv	*p = m->p;

	ipe_title_count(m, e, 0);
	HASH_DEL(p->ipe_hash, e);
	LRU_DEL(p->ipe_lru_head, p->ipe_lru_tail, e);
	mheap_free(e->strs);
	mheap_free(e);
	m->ipe.entries--;
}

void
model_ipe_free(struct model *m)
{
	while (m->p->ipe_lru_head != NULL)
		ipe_destroy(m, m->p->ipe_lru_head);
}

/* The closure type as GHC writes it, a decimal number, by its name. */
static const char *
closure_name(const struct proto_str *s)
{
	unsigned	t = 0;
	uint32_t	i;

	if (s->len == 0 || s->len > 3)
		return NULL;
	for (i = 0; i < s->len; i++) {
		if (s->p[i] < '0' || s->p[i] > '9')
			return NULL;
		t = t * 10 + (unsigned)(s->p[i] - '0');
	}
	return proto_closure_type_name(t);
}

void
model_ipe_event(struct model *m, const struct proto_ev *ev)
{
	struct model_priv	*p = m->p;
	struct mipe		*e;
	const struct proto_str	*s[6];
	const char		**dst[6];
	const char		*cname;
	char			 title[3 * MODEL_IPE_STR + 8];
	uint64_t		 info = ev->u.ipe.info;
	uint32_t		 h;
	size_t			 off = 0, n;
	int			 i;
	char			*buf;

	m->ipe.events++;
	h = model_hash(ev->payload, ev->len);
	HASH_FIND(hh, p->ipe_hash, &info, sizeof info, e);
	if (e != NULL && e->def_hash == h)
		return;		/* a reconnection sends them all again */
	if (e == NULL) {
		if (m->ipe.entries >= MODEL_MAX_IPE) {
			ipe_destroy(m, p->ipe_lru_head);
			m->ipe.evicted++;
		}
		e = model_calloc(m, 1, sizeof *e);
		e->pub.info = info;
		HASH_ADD(hh, p->ipe_hash, pub.info, sizeof e->pub.info, e);
		m->ipe.entries++;
	} else {
		LRU_DEL(p->ipe_lru_head, p->ipe_lru_tail, e);
		ipe_title_count(m, e, 0);	/* its title may change */
	}
	LRU_ADD(p->ipe_lru_head, p->ipe_lru_tail, e);
	e->def_hash = h;

	s[0] = &ev->u.ipe.table_name;	dst[0] = &e->pub.table_name;
	s[1] = &ev->u.ipe.closure_desc;	dst[1] = &e->pub.closure;
	s[2] = &ev->u.ipe.ty_desc;	dst[2] = &e->pub.type;
	s[3] = &ev->u.ipe.label;	dst[3] = &e->pub.label;
	s[4] = &ev->u.ipe.module;	dst[4] = &e->pub.module;
	s[5] = &ev->u.ipe.srcloc;	dst[5] = &e->pub.srcloc;
	mheap_free(e->strs);
	e->strs = buf = model_calloc(m, 6, MODEL_IPE_STR + 1);
	for (i = 0; i < 6; i++) {
		n = proto_sanitize_name(s[i]->p, s[i]->len, buf + off,
		    MODEL_IPE_STR);
		buf[off + n] = '\0';
		*dst[i] = buf + off;
		off += n + 1;
	}
	if ((cname = closure_name(&ev->u.ipe.closure_desc)) != NULL)
		e->pub.closure = cname;
	n = (size_t)ipe_title(&e->pub, title, sizeof title);
	e->title_hash = model_hash(title, n < sizeof title ? n :
	    sizeof title - 1);
	ipe_title_count(m, e, 1);
}

const struct model_ipe *
model_ipe_find(const struct model *m, uint64_t info)
{
	struct mipe	*e;

	HASH_FIND(hh, m->p->ipe_hash, &info, sizeof info, e);
	return e != NULL ? &e->pub : NULL;
}

/* The IPE entry naming a -hi band, NULL for any other band. */
const struct model_ipe *
model_band_ipe(const struct model *m, const struct model_band *b)
{
	return b->info != 0 ? model_ipe_find(m, b->info) : NULL;
}

/*
 * A band's name as the panes and exports show it: a -hi band with an IPE
 * entry as "table (type) where", where is the source location when it has
 * a file and the module otherwise; any other band by its label.  Where
 * another entry is described alike (the same title: two info tables of
 * one constructor, names cut to MODEL_IPE_STR), the band's serial in
 * front, "(12)", as a cut -hc name has it: hp2ps and eventlog2html tell
 * bands apart by name.  The length written, at most len - 1.
 */
size_t
model_band_title(const struct model *m, const struct model_band *b,
    char *buf, size_t len)
{
	const struct model_ipe	*e = model_band_ipe(m, b);
	const struct mipe_title	*t;
	int			 n, k = 0;

	if (len == 0)
		return 0;
	if (e == NULL)
		n = snprintf(buf, len, "%s", b->name);
	else {
		/* pub is an entry's first member, as it is a band's. */
		t = ipe_title_find(m, ((const struct mipe *)e)->title_hash);
		if (t != NULL && t->n > 1)
			k = snprintf(buf, len, "(%llu)", (unsigned long long)
			    ((const struct mband *)b)->serial);
		if (k < 0 || (size_t)k >= len)
			k = 0;
		n = ipe_title(e, buf + k, len - (size_t)k);
		n = n < 0 ? n : n + k;
	}
	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}
