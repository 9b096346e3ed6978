/*
 * delay.c: an eventlog with some capabilities' blocks moved later in the
 * file, as a program whose idle capabilities flush their buffers late
 * sends them: the same events, in another order of blocks.
 *
 *	delay [--cap C]... [--cap all-but-0] [--blocks N] [-v] IN OUT
 *
 *	--cap C		move the blocks of capability C (default: 1); may
 *			be repeated; `all-but-0` is every capability but 0
 *			(never the global blocks, cap 0xffff)
 *	--blocks N	how much later: N units of the original order
 *			(default 20)
 *	-v		say on stderr what was moved, and by how many
 *			bytes later than in IN (the least, the most)
 *
 * The file is cut into units: the header (and anything before it); each
 * block, from its EVENT_BLOCK_MARKER (tag 18: u32 size counted from the
 * marker, u64 end time, u16 cap) to the next block marker or the end of
 * its size, whichever comes first; and each run of events outside any
 * block.  OUT is the header, then the units in their order, except that
 * a unit of a moved capability at place i is written right after the
 * first unit not moved whose place is i + N or more (the moved ones keep
 * their order among themselves), then whatever is still held back, then
 * the end marker (0xffff) and what followed it.
 *
 * Not reordered, copied as they are at the end: what follows a second
 * header (a new session) or bad data.  A last event cut short (a
 * truncated file) stays last: the unit holding it is written after all
 * that is held back, so the cut bytes end the file as in IN.
 *
 * Exit 0, 1 on errors (unreadable, no header), 2 on usage.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"

struct unit {
	size_t		 off, end;
	int32_t		 cap;		/* PROTO_NO_CAP: global or outside */
	int		 block;		/* a block, not events outside one */
	int		 cut;		/* holds the cut last event */
};

static struct unit	*units;
static size_t		 nunits, units_cap;

static void
die(const char *what)
{
	fprintf(stderr, "delay: %s: %s\n", what, strerror(errno));
	exit(1);
}

static uint8_t *
slurp(const char *path, size_t *len)
{
	FILE	*f;
	uint8_t	*p;
	long	 n;

	if ((f = fopen(path, "rb")) == NULL || fseek(f, 0, SEEK_END) != 0 ||
	    (n = ftell(f)) < 0)
		die(path);
	rewind(f);
	if ((p = malloc((size_t)n + 1)) == NULL)
		die("malloc");
	if (fread(p, 1, (size_t)n, f) != (size_t)n)
		die(path);
	fclose(f);
	*len = (size_t)n;
	return p;
}

static struct unit *
new_unit(size_t off, int32_t cap, int block)
{
	struct unit	*u;

	if (nunits == units_cap) {
		units_cap = units_cap ? 2 * units_cap : 1024;
		units = realloc(units, units_cap * sizeof *units);
		if (units == NULL)
			die("realloc");
	}
	u = &units[nunits++];
	u->off = u->end = off;
	u->cap = cap;
	u->block = block;
	u->cut = 0;
	return u;
}

static size_t	 out_off;			/* bytes written */
static size_t	 disp_min = (size_t)-1, disp_max;	/* moved units' */

static void
put(FILE *f, const uint8_t *p, size_t off, size_t end)
{
	if (end > off && fwrite(p + off, 1, end - off, f) != end - off)
		die("write");
	out_off += end - off;
}

/* A moved unit: written how many bytes later than in IN. */
static void
put_moved(FILE *f, const uint8_t *p, const struct unit *u)
{
	size_t	d = out_off - u->off;

	if (d < disp_min)
		disp_min = d;
	if (d > disp_max)
		disp_max = d;
	put(f, p, u->off, u->end);
}

int
main(int argc, char **argv)
{
	static uint8_t		 moved[65536];
	struct proto_dec	*d;
	struct proto_ev		 ev;
	enum proto_res		 r;
	struct unit		*u = NULL;
	const char		*in = NULL, *out = NULL;
	uint8_t			*p;
	size_t			 n, used = 0, hdr_end = 0, last_end = 0;
	size_t			 block_end = 0, tail = 0, endmark = 0;
	size_t			*held, nheld = 0, h0 = 0, i, j;
	size_t			 delay = 20, nmoved = 0, noutside = 0;
	size_t			 nevents = 0;
	int			 any_cap = 0, verbose = 0, stop = 0;
	int			 have_end = 0, in_block = 0;
	FILE			*f;

	for (i = 1; i < (size_t)argc; i++) {
		if (strcmp(argv[i], "--cap") == 0 && i + 1 < (size_t)argc) {
			const char	*c = argv[++i];
			char		*e;
			unsigned long	 v;

			any_cap = 1;
			if (strcmp(c, "all-but-0") == 0) {
				memset(moved + 1, 1, 0xfffe);
				continue;
			}
			v = strtoul(c, &e, 10);
			if (*c == '\0' || *e != '\0' || v >= 0xffff) {
				fprintf(stderr, "delay: bad --cap %s\n", c);
				return 2;
			}
			moved[v] = 1;
		} else if (strcmp(argv[i], "--blocks") == 0 &&
		    i + 1 < (size_t)argc) {
			char	*e;

			delay = strtoul(argv[++i], &e, 10);
			if (*argv[i] == '\0' || *e != '\0') {
				fprintf(stderr, "delay: bad --blocks %s\n",
				    argv[i]);
				return 2;
			}
		} else if (strcmp(argv[i], "-v") == 0)
			verbose = 1;
		else if (argv[i][0] != '-' && in == NULL)
			in = argv[i];
		else if (argv[i][0] != '-' && out == NULL)
			out = argv[i];
		else {
			fprintf(stderr, "usage: delay [--cap C]... "
			    "[--blocks N] [-v] IN OUT\n");
			return 2;
		}
	}
	if (in == NULL || out == NULL) {
		fprintf(stderr, "usage: delay [--cap C]... [--blocks N] [-v] "
		    "IN OUT\n");
		return 2;
	}
	if (!any_cap)
		moved[1] = 1;

	p = slurp(in, &n);
	d = proto_dec_new(1 << 20);
	proto_dec_frame_only(d);
	while (!stop && used < n) {
		used += proto_dec_feed(d, p + used, n - used);
		while (!stop && (r = proto_dec_next(d, &ev)) != PROTO_AGAIN) {
			switch (r) {
			case PROTO_HEADER:
				if (hdr_end == 0) {
					hdr_end = last_end =
					    (size_t)proto_dec_offset(d);
					break;
				}
				/* A new session: the rest as it is. */
				stop = 1;
				break;
			case PROTO_END:
				if (hdr_end == 0)
					break;
				endmark = last_end;
				have_end = 1;
				stop = 1;
				break;
			case PROTO_EVENT:
				if (hdr_end == 0)
					break;
				nevents++;
				if (ev.kind == PROTO_BLOCK_MARKER) {
					u = new_unit((size_t)ev.off,
					    ev.u.block.cap == 0xffff ?
					    PROTO_NO_CAP : ev.u.block.cap, 1);
					block_end = (size_t)ev.off +
					    ev.u.block.block_size;
					in_block = 1;
				} else if (in_block &&
				    (size_t)ev.off >= block_end) {
					in_block = 0;
					u = NULL;
				}
				if (u == NULL) {
					u = new_unit((size_t)ev.off,
					    PROTO_NO_CAP, 0);
					noutside++;
				} else if (!u->block)
					noutside++;
				u->end = (size_t)ev.off + ev.size;
				last_end = u->end;
				break;
			default:	/* SKIP before the header, or an ERROR */
				if (hdr_end != 0)
					stop = 1;
				break;
			}
		}
	}
	if (hdr_end == 0) {
		fprintf(stderr, "delay: %s: no eventlog header\n", in);
		return 1;
	}
	proto_dec_free(d);

	/* What could not be framed: after the end marker, after a second
	 * header or bad data, or a last event cut short. */
	tail = have_end ? endmark + 2 : last_end;
	if (!have_end && !stop && tail < n && nunits > 0) {
		units[nunits - 1].end = n;
		units[nunits - 1].cut = 1;
		tail = n;
	}

	if ((f = fopen(out, "wb")) == NULL)
		die(out);
	put(f, p, 0, hdr_end);
	if ((held = malloc((nunits + 1) * sizeof *held)) == NULL)
		die("malloc");
	for (i = 0; i < nunits; i++) {
		u = &units[i];
		if (u->block && u->cap != PROTO_NO_CAP && moved[u->cap]) {
			held[nheld++] = i;
			nmoved++;
			continue;
		}
		if (u->cut)
			break;		/* last, after what is held */
		put(f, p, u->off, u->end);
		while (h0 < nheld && held[h0] + delay <= i) {
			j = held[h0++];
			put_moved(f, p, &units[j]);
		}
	}
	for (; h0 < nheld; h0++)
		put_moved(f, p, &units[held[h0]]);
	if (i < nunits)
		put(f, p, units[i].off, units[i].end);
	if (have_end)
		put(f, p, endmark, endmark + 2);
	put(f, p, tail, n);
	if (fclose(f) != 0)
		die(out);
	if (verbose)
		fprintf(stderr, "delay: %s: %zu events, %zu units, %zu blocks "
		    "moved %zu later (by %zu to %zu bytes), %zu events outside "
		    "blocks%s%s%s\n", out, nevents, nunits, nmoved, delay,
		    nmoved ? disp_min : 0, disp_max, noutside,
		    have_end ? "" : ", no end marker",
		    nunits > 0 && units[nunits - 1].cut ?
		    ", the last event cut" : "",
		    tail < n ? ", bytes copied as they are at the end" : "");
	free(held);
	free(units);
	free(p);
	return 0;
}
