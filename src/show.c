/*
 * show.c: `evtop show FILE`, the text `ghc-events show` prints, from the
 * time-ordered events of merge.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evtop.h"

#define SHOW_LINE	(1 << 20)	/* longest line: 8 x 64 KiB payload */

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
	static char		 obuf[1 << 20];
	struct merge		*m;
	struct proto_ev		 ev;
	const struct proto_dec	*d;
	char			*line, *cause;
	size_t			 n;
	int			 rc = 0;

	setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
	if ((m = merge_open(path, &cause)) == NULL) {
		fprintf(stderr, "evtop: %s\n", cause ? cause : path);
		free(cause);
		return 1;
	}
	if ((line = malloc(SHOW_LINE)) == NULL) {
		merge_free(m);
		fprintf(stderr, "evtop: out of memory\n");
		return 1;
	}
	if ((d = merge_dec(m)) != NULL) {
		show_types(d, line, stdout);
		while (merge_next(m, &ev) == PROTO_EVENT) {
			n = proto_show_event(&ev, d, line, SHOW_LINE);
			fwrite(line, 1, n, stdout);
			fputc('\n', stdout);
		}
	}
	if (merge_error(m) == NULL)
		fputc('\n', stdout);
	if (fflush(stdout) != 0 || ferror(stdout)) {
		fprintf(stderr, "evtop: show: write error\n");
		rc = 1;
	}
	if (merge_error(m) != NULL) {
		fprintf(stderr, "evtop: %s: %s\n", path, merge_error(m));
		rc = 1;
	}
	free(line);
	merge_free(m);
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
