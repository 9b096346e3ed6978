/*
 * model-gc.h: what the files of the collections share (model-gc.c takes
 * the events in, model-gc-win.c answers for a window): the record ring,
 * the windows' bucket lengths, the pause buckets and the work balance.
 */
#ifndef EVTOP_MODEL_GC_H
#define EVTOP_MODEL_GC_H

#include "model/model-priv.h"

#define REC(p, seq)	(&(p)->gcrec[(seq) % MODEL_NGCREC])

/* The bucket length of the windows' sums: gcw[0] MODEL_W1, gcw[1] W10. */
#define GCW_UNIT(i)	((i) == 0 ? MODEL_SLOT_NS : SEC_NS)

/*
 * A collection's work balance, 0 to 1, in units of 1/BAL_ONE, or -1: in
 * integers so that a window's sum is the same whichever way it was added
 * up (kept as records come and go, or counted afresh).
 */
#define BAL_ONE		((int64_t)1 << 32)

/* Fine bucket: exact below 16 ns, then 16 per octave. */
static inline int
gc_fine_bucket(uint64_t v)
{
	int	msb;

	if (v < 16)
		return (int)v;
	msb = 63 - __builtin_clzll(v);
	return 16 + (msb - 4) * 16 + (int)((v >> (msb - 4)) & 15);
}

/* The middle of a fine bucket. */
static inline uint64_t
gc_fine_value(int i)
{
	int	msb, sub;

	if (i < 16)
		return (uint64_t)i;
	msb = (i - 16) / 16 + 4;
	sub = (i - 16) % 16;
	return ((uint64_t)(16 + sub) << (msb - 4)) +
	    ((1ULL << (msb - 4)) >> 1);
}

static inline double
gc_bal_mean(uint64_t n, uint64_t sum)
{
	return n > 0 ? (double)sum / (double)n / (double)BAL_ONE : -1;
}

static inline void
gc_gen_count(uint64_t *count_gen, uint16_t gen, int d)
{
	count_gen[gen >= MODEL_NGEN ? MODEL_NGEN - 1 : gen] += d;
}

static inline uint64_t
gc_dur(const struct model_gc_rec *r)
{
	return r->end - r->start;
}

/* model-gc.c */
int		 model_gc_bucket(uint64_t);
void		 model_gc_mmu_now(const struct model *, double *, int *);

#endif
