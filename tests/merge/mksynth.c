/*
 * mksynth.c: a synthetic eventlog whose capabilities' blocks interleave,
 * for the merge tests.
 *
 *	mksynth SEED EVENTS CAPS BLOCK [LATE [STEP [BACK [EARLY [BASE]]]]] > FILE
 *
 * CAPS capabilities post events on their own clocks (steps of 0 to STEP - 1
 * ns, 4 by default, so that times tie within and across caps; now and then
 * a step back of up to BACK steps, 2 by default, as GHC's GC_END does; a
 * large BACK puts events far out of place), into buffers flushed as blocks of
 * about BLOCK bytes each
 * (BLOCK varies by cap); events without a cap go between blocks.  With
 * LATE, cap 0 holds its buffer LATE times longer: its blocks come far
 * behind the others'.  Events without a cap just after a block count as
 * its cap's (the reference's reading of the block size), often far out of
 * place in that stream: the single pass takes them out of it.  With EARLY,
 * the second event of each of cap 0's blocks is stamped EARLY ns early:
 * wherever the scan in halves cuts the file, cap 0's stream in the second
 * half begins with an event too far out of place for the lookahead (and
 * there are no events without a cap, whose own clock would make every
 * stream's later events look early).  With BASE, the caps are numbered
 * from BASE (the u16 field's whole range: reader.c files caps past 255
 * apart).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rnd.h"

#define MAXCAPS		64
#define BLOCK_MARKER	18

struct cap {
	uint8_t		*buf;
	size_t		 n, size, limit;
	uint64_t	 t, first;
	unsigned	 nb;		/* events in the buffer */
};


static void
put16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void
put32(uint8_t *p, uint32_t v)
{
	put16(p, v >> 16);
	put16(p + 2, v & 0xffff);
}

static void
put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)(v >> 32));
	put32(p + 4, (uint32_t)v);
}

static void
type(FILE *f, unsigned tag, int size, const char *desc)
{
	uint8_t	b[12];

	fwrite("etb\0", 1, 4, f);
	put16(b, tag);
	put16(b + 2, size < 0 ? 0xffff : (unsigned)size);
	put32(b + 4, (uint32_t)strlen(desc));
	fwrite(b, 1, 8, f);
	fputs(desc, f);
	put32(b, 0);
	fwrite(b, 1, 4, f);
	fwrite("ete\0", 1, 4, f);
}

/* One event at p (room for 64 bytes): its size. */
static size_t
event(uint8_t *p, uint64_t t)
{
	size_t	len;

	put64(p + 2, t);
	switch (rnd() % 5) {
	case 0:		/* RUN_THREAD */
		put16(p, 1);
		put32(p + 10, (uint32_t)(rnd() % 100));
		return 14;
	case 1:		/* STOP_THREAD */
		put16(p, 2);
		put32(p + 10, (uint32_t)(rnd() % 100));
		put16(p + 14, (unsigned)(rnd() % 16));
		put32(p + 16, 0);
		return 20;
	case 2:		/* GC_START */
		put16(p, 9);
		return 10;
	case 3:		/* GC_END */
		put16(p, 10);
		return 10;
	default:	/* USER_MSG */
		put16(p, 19);
		len = rnd() % 40;
		put16(p + 10, (unsigned)len);
		memset(p + 12, 'a' + (int)(rnd() % 26), len);
		return 12 + len;
	}
}

static void
flush(FILE *f, struct cap *c, int id)
{
	uint8_t	m[24];

	if (c->n == 0)
		return;
	put16(m, BLOCK_MARKER);
	put64(m + 2, c->first);
	put32(m + 10, (uint32_t)(24 + c->n));
	put64(m + 14, c->t);
	put16(m + 22, (unsigned)id);
	fwrite(m, 1, 24, f);
	fwrite(c->buf, 1, c->n, f);
	c->n = 0;
	c->nb = 0;
}

int
main(int argc, char **argv)
{
	struct cap	 caps[MAXCAPS];
	uint8_t		 ev[64];
	uint64_t	 events, i, late = 1, step = 4, back = 2, t, nocap_t = 0;
	uint64_t	 early = 0;
	unsigned long	 base = 0;
	size_t		 block, k;
	int		 ncaps, c;
	FILE		*f = stdout;

	if (argc < 5) {
		fprintf(stderr, "usage: mksynth SEED EVENTS CAPS BLOCK "
		    "[LATE [STEP [BACK [EARLY [BASE]]]]]\n");
		return 2;
	}
	rng = strtoull(argv[1], NULL, 10) * 2654435761u + 88172645463325252ULL;
	events = strtoull(argv[2], NULL, 10);
	ncaps = atoi(argv[3]);
	block = strtoul(argv[4], NULL, 10);
	if (argc > 5)
		late = strtoull(argv[5], NULL, 10);
	if (argc > 6)
		step = strtoull(argv[6], NULL, 10);
	if (argc > 7)
		back = strtoull(argv[7], NULL, 10);
	if (argc > 8)
		early = strtoull(argv[8], NULL, 10);
	if (argc > 9)
		base = strtoul(argv[9], NULL, 10);
	if (ncaps < 1 || ncaps > MAXCAPS || block < 64 || late < 1 ||
	    step < 1 || back < 1 || base + (unsigned long)ncaps > 0xffff)
		return 2;

	fwrite("hdrbhetb", 1, 8, f);
	type(f, 1, 4, "Run thread");
	type(f, 2, 10, "Stop thread");
	type(f, 9, 0, "Start GC");
	type(f, 10, 0, "Finish GC");
	type(f, BLOCK_MARKER, 14, "Block marker");
	type(f, 19, -1, "Log message");
	fwrite("hetehdredatb", 1, 12, f);

	memset(caps, 0, sizeof caps);
	for (c = 0; c < ncaps; c++) {
		caps[c].limit = block / 2 + rnd() % block;
		if (c == 0)
			caps[c].limit *= late;
		caps[c].size = caps[c].limit + 64;
		if ((caps[c].buf = malloc(caps[c].size)) == NULL)
			return 1;
	}
	for (i = 0; i < events; i++) {
		c = (int)(rnd() % (uint64_t)(ncaps + 1)) - 1;
		if (c < 0 && early > 0)
			c = (int)(rnd() % (uint64_t)ncaps);
		if (c < 0) {
			/* Without a cap: between blocks, on its own clock. */
			nocap_t += rnd() % step;
			fwrite(ev, 1, event(ev, nocap_t), f);
			continue;
		}
		t = caps[c].t += rnd() % step;
		if (rnd() % 16 == 0 && t > back * step)
			t -= rnd() % (back * step);	/* stamped early */
		if (c == 0 && early > 0 && caps[c].nb == 1)
			t = t > early ? t - early : 0;
		if (caps[c].n == 0)
			caps[c].first = t;
		k = event(caps[c].buf + caps[c].n, t);
		caps[c].n += k;
		caps[c].nb++;
		if (caps[c].n >= caps[c].limit)
			flush(f, &caps[c], (int)base + c);
		if (nocap_t < caps[c].t && rnd() % 2)
			nocap_t = caps[c].t;
	}
	for (c = 0; c < ncaps; c++)
		flush(f, &caps[c], (int)base + c);
	fputc(0xff, f);
	fputc(0xff, f);
	return fclose(f) != 0;
}
