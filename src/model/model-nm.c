/*
 * model-nm.c: the nonmoving collector (GHC's -xn): its cycles (mark, sync,
 * sweep) and the census of its segments by size class.
 */
#include <string.h>

#include "model/model-priv.h"

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

/*
 * A size class of the census.  GHC counts as live every block of the
 * filled segments and the marked ones of the active segments and of each
 * capability's current segment (rts/sm/NonMovingCensus.c), but counts the
 * current segments in neither the active nor the filled figure: the
 * capacity has one segment more per capability.  Blocks per segment as
 * nonmovingBlockCount(): the data after the header, a mark byte a block.
 */
static void
nm_census(struct model *m, const struct proto_ev *ev)
{
	struct model_priv	*p = m->p;
	struct model_nonmoving	*nm = &m->nm;
	struct model_nm_size	*z;
	uint32_t		 bs = ev->u.census.blk_size;
	uint64_t		 per, segs;

	nm->census_events++;
	/* A run of census events is one census: the previous event (block
	 * markers aside, as they are not counted) was one of it. */
	if (p->nm_census_at == 0 || p->nm_census_at + 1 != m->totals.events) {
		nm->censuses++;
		nm->nsizes = 0;
		nm->live_bytes = nm->seg_bytes = 0;
	}
	p->nm_census_at = m->totals.events;
	nm->census_time = ev->time;
	if (nm->nsizes >= MODEL_NM_SIZES)
		return;
	z = &nm->sizes[nm->nsizes++];
	z->blk_size = bs;
	z->active = ev->u.census.active;
	z->filled = ev->u.census.filled;
	z->live = ev->u.census.live;
	z->current = m->prog.ncaps > 0 ? (uint32_t)m->prog.ncaps : 1;
	segs = (uint64_t)z->active + z->filled + z->current;
	per = bs > 0 ? ((NM_SEG_BYTES - NM_SEG_HDR) & ~7ULL) /
	    ((uint64_t)bs + 1) : 0;
	z->capacity = per * segs;
	z->occupancy = z->capacity > 0 ? (double)z->live /
	    (double)z->capacity : 0;
	if (z->occupancy > 1)
		z->occupancy = 1;
	z->frag = z->capacity > 0 ? 1 - z->occupancy : 0;
	nm->live_bytes += (uint64_t)z->live * bs;
	nm->seg_bytes += segs * NM_SEG_BYTES;
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
