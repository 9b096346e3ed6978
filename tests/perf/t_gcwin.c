/*
 * t_gcwin.c: the 1 s and 10 s GC windows summed by 100 ms slot and by
 * second give what counting the records kept gives, whenever the ring
 * holds the window.
 *
 *	t_gcwin FILE...
 *
 * Built with MODEL_GC_CHECK, model_gc_window() computes each window both
 * ways and aborts when they differ.  Each file is applied in time order
 * (reader_next, as --batch) and in file order (late events, GC records
 * ending out of order), and the windows are asked for every few events.
 */
#include <stdio.h>
#include <stdlib.h>

#include "evtop.h"
#include "model/model.h"

static void
ask(struct model *m)
{
	struct model_gc_win	g;

	model_gc_window(m, MODEL_W1, &g);
	model_gc_window(m, MODEL_W10, &g);
}

static int
file_order(const char *path, uint64_t *n)
{
	static unsigned char	 raw[1 << 16];
	struct model		*m = model_new();
	struct proto_dec	*d = proto_dec_new(0);
	struct proto_ev		 e;
	enum proto_res		 r;
	size_t			 got, off;
	FILE			*f;

	if ((f = fopen(path, "rb")) == NULL || d == NULL)
		return -1;
	model_set_reorder(m, 0, 0);
	while ((got = fread(raw, 1, sizeof raw, f)) > 0) {
		for (off = 0; off < got;) {
			off += proto_dec_feed(d, raw + off, got - off);
			while ((r = proto_dec_next(d, &e)) != PROTO_AGAIN) {
				if (r == PROTO_HEADER)
					model_header(m, d);
				if (r != PROTO_EVENT)
					continue;
				model_apply(m, &e);
				if (++*n % 5 == 0)
					ask(m);
			}
		}
	}
	ask(m);
	fclose(f);
	proto_dec_free(d);
	model_free(m);
	return 0;
}

static int
time_order(const char *path, uint64_t *n)
{
	struct reader	*mg;
	struct model	*m;
	struct proto_ev	 e;
	char		*cause = NULL;

	if ((mg = reader_open(path, &cause)) == NULL) {
		free(cause);
		return -1;
	}
	m = model_new();
	model_set_reorder(m, 0, 0);
	if (reader_dec(mg) != NULL)
		model_header(m, reader_dec(mg));
	while (reader_next(mg, &e) == PROTO_EVENT) {
		model_apply(m, &e);
		if (++*n % 3 == 0)
			ask(m);
	}
	ask(m);
	model_free(m);
	reader_free(mg);
	return 0;
}

int
main(int argc, char **argv)
{
	uint64_t	n = 0;
	int		i, pass = 0, fail = 0;

	for (i = 1; i < argc; i++) {
		if (file_order(argv[i], &n) == 0 &&
		    time_order(argv[i], &n) == 0)
			pass++;
		else {
			printf("not ok - %s: cannot read\n", argv[i]);
			fail++;
		}
	}
	printf("gcwin: %llu events, %d passed, %d failed\n",
	    (unsigned long long)n, pass, fail);
	return fail != 0;
}
