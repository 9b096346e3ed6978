/*
 * spill-stats.c: what the history's files hold, asked by the writer and by
 * the cursors (see spill.c).
 */
#include "time/spill-priv.h"

uint64_t
spill_total(const struct spill *sp)
{
	uint64_t	t = 0;
	int		i;

	for (i = 0; i < sp->nseg; i++)
		t += sp->hlen + sp->seg[i].bytes;
	return t;
}

void
spill_stats(const struct spill *sp, struct spill_stats *st)
{
	int	i;

	memset(st, 0, sizeof *st);
	st->bytes = spill_total(sp);
	for (i = 0; i < sp->nseg; i++) {
		st->events += sp->seg[i].nev;
		if (!sp->seg[i].any)
			continue;
		if (st->first == 0 || sp->seg[i].tmin < st->first)
			st->first = sp->seg[i].tmin;
		if (sp->seg[i].tmax > st->last)
			st->last = sp->seg[i].tmax;
	}
}

const struct spill_seg *
spill_find(const struct spill *sp, uint64_t seq)
{
	int	i;

	for (i = 0; i < sp->nseg; i++)
		if (sp->seg[i].seq == seq)
			return &sp->seg[i];
	return NULL;
}
