/*
 * show.c: `evtop show FILE`, the text `ghc-events show` prints, from the
 * time-ordered events of reader.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evtop.h"

#define SHOW_LINE	(1 << 20)	/* longest line: 8 x 64 KiB payload */
#define SHOW_OUT	(4 << 20)	/* lines are formatted in place here */
#define SHOW_BATCH	256		/* events asked of the reader at once */

/* Output buffered by hand: lines are formatted straight into it. */
struct show_out {
	char	*buf;
	size_t	 n;
	int	 error;
};

static void
show_flush(struct show_out *o)
{
	if (o->n > 0 && fwrite(o->buf, 1, o->n, stdout) != o->n)
		o->error = 1;
	o->n = 0;
}

/* Room for one more line of any length. */
static char *
show_room(struct show_out *o)
{
	if (SHOW_OUT - o->n < SHOW_LINE + 1)
		show_flush(o);
	return o->buf + o->n;
}

static void
show_types(const struct proto_dec *d, char *line, FILE *out)
{
	unsigned	i;
	size_t		n;

	fputs("Event Types:\n", out);
	for (i = 0; i < proto_dec_ntypes(d); i++) {
		n = proto_show_type(d, proto_dec_type_at(d, i), line,
		    SHOW_LINE);
		fwrite(line, 1, n, out);
		fputc('\n', out);
	}
	fputs("\nEvents:\n", out);
}

static int
show_file(const char *path)
{
	struct reader		*m;
	struct proto_ev		 ev[SHOW_BATCH];
	size_t			 i, n;
	const struct proto_dec	*d;
	struct show_out		 o = { NULL, 0, 0 };
	char			*line, *cause;
	int			 rc = 0;

	if ((m = reader_open(path, &cause)) == NULL) {
		fprintf(stderr, "evtop: %s\n", cause ? cause : path);
		free(cause);
		return 1;
	}
	if ((o.buf = malloc(SHOW_OUT)) == NULL) {
		reader_free(m);
		fprintf(stderr, "evtop: out of memory\n");
		return 1;
	}
	if ((d = reader_dec(m)) != NULL) {
		show_types(d, o.buf, stdout);
		/* In batches: the reader decodes many at once. */
		while ((n = reader_next_n(m, ev, SHOW_BATCH)) > 0) {
			for (i = 0; i < n; i++) {
				line = show_room(&o);
				o.n += proto_show_event(&ev[i], d, line,
				    SHOW_LINE);
				o.buf[o.n++] = '\n';
			}
		}
		show_flush(&o);
	}
	if (reader_error(m) == NULL)
		fputc('\n', stdout);
	if (fflush(stdout) != 0 || ferror(stdout) || o.error) {
		fprintf(stderr, "evtop: show: write error\n");
		rc = 1;
	}
	if (reader_error(m) != NULL) {
		fprintf(stderr, "evtop: %s: %s\n", path, reader_error(m));
		rc = 1;
	}
	free(o.buf);
	reader_free(m);
	return rc;
}

int
show_main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: evtop show FILE   (- for stdin)\n");
		return 2;
	}
	return show_file(argv[1]);
}
