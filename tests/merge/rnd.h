/*
 * rnd.h: the merge tests' random numbers (xorshift64), seeded by setting
 * rng; header-only, each test program being one file.
 */
#ifndef RND_H
#define RND_H

#include <stdint.h>

static uint64_t	rng = 88172645463325252ULL;

static uint64_t
rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

#endif
