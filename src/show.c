/*
 * show.c: `evtop show FILE`, the text of `ghc-events show`, in bounded memory.
 *
 * The reference prints every event sorted by time (a stable sort).  An
 * eventlog is a sequence of blocks, each in time order, so the events form
 * runs that only need merging.  Pass 1 decodes the file once and notes where
 * each maximal non-decreasing run starts (with the decoder's block state
 * there).  Pass 2 merges the runs with one small decoder per run, ties going
 * to the earlier run, which is file order.  A file with more runs than
 * SHOW_FAN merges them in groups into temporary files of formatted lines,
 * and those again, so memory stays bounded whatever the file holds.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evtop.h"

#define SHOW_FAN	256		/* sources merged at once */
#define SHOW_LINE	(1 << 20)	/* longest line: 8 x 64 KiB payload */
#define SHOW_READ	(1 << 16)

struct show_run {
	uint64_t	 off;
	int32_t		 cap;
	int64_t		 left;
	uint64_t	 count;
};

/* One sorted input of a merge: a run of the eventlog or a spill file. */
struct show_src {
	uint64_t	 time;		/* of the current event or line */
	struct proto_ev	 ev;		/* runs: the current event */
	uint32_t	 len;		/* spills: the current line's length */
	uint64_t	 count;		/* events left, runs only */
	struct proto_dec *dec;		/* runs: a cursor sharing the types */
	uint64_t	 pos;		/* runs: next file offset to read */
	FILE		*spill;		/* spill files */
};

/* A spill file, on a stack ordered by the file position of its lines. */
struct show_spill {
	FILE		*f;
	unsigned	 level;
};

struct show {
	int		 fd;
	struct proto_dec *dec;
	char		*line;
	FILE		*out;

	struct show_run	*runs;
	size_t		 nruns;
	struct show_spill *spills;
	size_t		 nspills, spills_size;
	int		 failed;
};

static int
show_read_at(int fd, void *buf, size_t len, uint64_t off, size_t *got)
{
	ssize_t	n;

	for (;;) {
		n = pread(fd, buf, len, (off_t)off);
		if (n >= 0) {
			*got = (size_t)n;
			return 0;
		}
		if (errno != EINTR)
			return -1;
	}
}

/* Advance a run cursor to its next event; 0 when the run is done. */
static int
show_src_next_run(struct show *sh, struct show_src *s)
{
	static char	 rbuf[SHOW_READ];
	struct proto_ev	 ev;
	enum proto_res	 r;
	size_t		 got, room;

	if (s->count == 0)
		return 0;
	for (;;) {
		r = proto_dec_next(s->dec, &ev);
		if (r == PROTO_EVENT)
			break;
		if (r == PROTO_ERROR || r == PROTO_HEADER || r == PROTO_SKIP) {
			/* Pass 1 stopped before anything like this. */
			fprintf(stderr, "evtop: show: %s\n",
			    proto_dec_error(s->dec));
			sh->failed = 1;
			s->count = 0;
			return 0;
		}
		if (r == PROTO_END)
			continue;
		room = proto_dec_room(s->dec);
		if (room > sizeof rbuf)
			room = sizeof rbuf;
		if (show_read_at(sh->fd, rbuf, room, s->pos, &got) == -1 ||
		    got == 0) {
			fprintf(stderr, "evtop: show: input changed while "
			    "reading\n");
			sh->failed = 1;
			s->count = 0;
			return 0;
		}
		proto_dec_feed(s->dec, rbuf, got);
		s->pos += got;
	}
	/* ev's pointers stay valid until this cursor moves again. */
	s->count--;
	s->time = ev.time;
	s->ev = ev;
	return 1;
}

static int
show_src_next_spill(struct show_src *s)
{
	uint64_t	time;
	uint32_t	len;

	if (fread(&time, sizeof time, 1, s->spill) != 1 ||
	    fread(&len, sizeof len, 1, s->spill) != 1 || len > SHOW_LINE)
		return 0;
	s->time = time;
	s->len = len;
	return 1;
}

static int
show_src_next(struct show *sh, struct show_src *s)
{
	return s->spill != NULL ? show_src_next_spill(s) :
	    show_src_next_run(sh, s);
}

/* Heap of source indexes by (time, index): the index is file order. */
static int
show_before(const struct show_src *v, size_t a, size_t b)
{
	if (v[a].time != v[b].time)
		return v[a].time < v[b].time;
	return a < b;
}

static void
show_sift(const struct show_src *v, size_t *h, size_t n, size_t i)
{
	size_t	c, t;

	for (;;) {
		c = 2 * i + 1;
		if (c >= n)
			return;
		if (c + 1 < n && show_before(v, h[c + 1], h[c]))
			c++;
		if (!show_before(v, h[c], h[i]))
			return;
		t = h[i];
		h[i] = h[c];
		h[c] = t;
		i = c;
	}
}

/*
 * Merge sources into out: as text lines, or as spill records when spill is
 * set.  Takes ownership of the sources' spill files.
 */
static int
show_merge(struct show *sh, struct show_src *v, size_t n, FILE *out,
    int spill)
{
	size_t	 *heap, nh = 0, i, top;
	uint32_t  len;
	int	  ok = 1;

	if ((heap = calloc(n ? n : 1, sizeof *heap)) == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		if (show_src_next(sh, &v[i]))
			heap[nh++] = i;
	}
	for (i = nh; i-- > 0;)
		show_sift(v, heap, nh, i);
	while (nh > 0) {
		top = heap[0];
		if (v[top].spill != NULL) {
			len = v[top].len;
			if (fread(sh->line, 1, len, v[top].spill) != len)
				ok = 0;
		} else
			len = (uint32_t)proto_show_event(&v[top].ev, v[top].dec,
			    sh->line, SHOW_LINE);
		if (spill) {
			fwrite(&v[top].time, sizeof v[top].time, 1, out);
			fwrite(&len, sizeof len, 1, out);
		}
		fwrite(sh->line, 1, len, out);
		if (!spill)
			fputc('\n', out);
		if (!show_src_next(sh, &v[top]))
			heap[0] = heap[--nh];
		show_sift(v, heap, nh, 0);
	}
	if (ferror(out) || sh->failed)
		ok = 0;
	free(heap);
	return ok ? 0 : -1;
}

static void
show_srcs_free(struct show_src *v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		proto_dec_free(v[i].dec);
		if (v[i].spill != NULL)
			fclose(v[i].spill);
	}
	free(v);
}

static struct show_src *
show_srcs_new(size_t n)
{
	return calloc(n ? n : 1, sizeof (struct show_src));
}

/* Sources for the pending runs of the input. */
static struct show_src *
show_run_srcs(struct show *sh)
{
	struct show_src	*v;
	size_t		 i;

	if ((v = show_srcs_new(sh->nruns)) == NULL)
		return NULL;
	for (i = 0; i < sh->nruns; i++) {
		v[i].dec = proto_dec_new_sharing(sh->dec, 0);
		if (v[i].dec == NULL) {
			show_srcs_free(v, sh->nruns);
			return NULL;
		}
		proto_dec_seek(v[i].dec, sh->runs[i].off, sh->runs[i].cap,
		    sh->runs[i].left);
		v[i].pos = sh->runs[i].off;
		v[i].count = sh->runs[i].count;
	}
	return v;
}

static int
show_push_spill(struct show *sh, FILE *f, unsigned level)
{
	struct show_spill	*n;

	if (sh->nspills == sh->spills_size) {
		sh->spills_size = sh->spills_size ? 2 * sh->spills_size : 16;
		n = realloc(sh->spills, sh->spills_size * sizeof *n);
		if (n == NULL)
			return -1;
		sh->spills = n;
	}
	sh->spills[sh->nspills].f = f;
	sh->spills[sh->nspills].level = level;
	sh->nspills++;
	return 0;
}

/* Sources reading the last n spill files, which leave the stack. */
static struct show_src *
show_spill_srcs(struct show *sh, size_t n)
{
	struct show_src	*v;
	size_t		 i, first = sh->nspills - n;

	if ((v = show_srcs_new(n)) == NULL)
		return NULL;
	for (i = 0; i < n; i++) {
		v[i].spill = sh->spills[first + i].f;
		rewind(v[i].spill);
	}
	sh->nspills = first;
	return v;
}

/* Merge the top SHOW_FAN spills while they share a level. */
static int
show_compact(struct show *sh)
{
	struct show_src	*v;
	unsigned	 level;
	size_t		 i;
	FILE		*f;

	while (sh->nspills >= SHOW_FAN) {
		level = sh->spills[sh->nspills - 1].level;
		for (i = sh->nspills - SHOW_FAN; i < sh->nspills; i++) {
			if (sh->spills[i].level != level)
				return 0;
		}
		if ((f = tmpfile()) == NULL)
			return -1;
		if ((v = show_spill_srcs(sh, SHOW_FAN)) == NULL ||
		    show_merge(sh, v, SHOW_FAN, f, 1) == -1) {
			fclose(f);
			return -1;
		}
		show_srcs_free(v, SHOW_FAN);
		if (show_push_spill(sh, f, level + 1) == -1)
			return -1;
	}
	return 0;
}

/* The pending runs go to a spill file. */
static int
show_flush_runs(struct show *sh)
{
	struct show_src	*v;
	FILE		*f;
	int		 rc;

	if (sh->nruns == 0)
		return 0;
	if ((f = tmpfile()) == NULL)
		return -1;
	if ((v = show_run_srcs(sh)) == NULL) {
		fclose(f);
		return -1;
	}
	rc = show_merge(sh, v, sh->nruns, f, 1);
	show_srcs_free(v, sh->nruns);
	sh->nruns = 0;
	if (rc == -1 || show_push_spill(sh, f, 0) == -1) {
		fclose(f);
		return -1;
	}
	return show_compact(sh);
}

static int
show_add_run(struct show *sh, uint64_t off, int32_t cap, int64_t left)
{
	if (sh->nruns == SHOW_FAN && show_flush_runs(sh) == -1)
		return -1;
	sh->runs[sh->nruns].off = off;
	sh->runs[sh->nruns].cap = cap;
	sh->runs[sh->nruns].left = left;
	sh->runs[sh->nruns].count = 0;
	sh->nruns++;
	return 0;
}

static void
show_types(struct show *sh)
{
	unsigned	i;
	size_t		n;

	fputs("Event Types:\n", sh->out);
	for (i = 0; i < proto_dec_ntypes(sh->dec); i++) {
		n = proto_show_type(sh->dec, proto_dec_type_at(sh->dec, i),
		    sh->line, SHOW_LINE);
		fwrite(sh->line, 1, n, sh->out);
		fputc('\n', sh->out);
	}
	fputs("\nEvents:\n", sh->out);
}

/*
 * Pass 1: index the runs.  Returns 0 at a clean end, 1 when the input is
 * bad (the message is printed; what came before is still shown), -1 on a
 * system error.
 */
static int
show_index(struct show *sh, const char *path)
{
	static char	 rbuf[SHOW_READ];
	struct proto_ev	 ev;
	enum proto_res	 r;
	uint64_t	 last = 0, pos = 0;
	int32_t		 cap;
	int64_t		 left;
	size_t		 got, used;
	int		 have_types = 0, any = 0;

	for (;;) {
		if (show_read_at(sh->fd, rbuf, sizeof rbuf, pos, &got) == -1) {
			fprintf(stderr, "evtop: %s: %s\n", path,
			    strerror(errno));
			return -1;
		}
		if (got == 0)
			break;
		pos += got;
		used = 0;
		while (used < got) {
			used += proto_dec_feed(sh->dec, rbuf + used,
			    got - used);
			for (;;) {
				proto_dec_block_state(sh->dec, &cap, &left);
				r = proto_dec_next(sh->dec, &ev);
				if (r == PROTO_AGAIN)
					break;
				switch (r) {
				case PROTO_HEADER:
					if (have_types) {
						fprintf(stderr, "evtop: %s: "
						    "byte %" PRIu64 ": a second "
						    "header starts a new "
						    "session; showing the "
						    "first\n", path,
						    proto_dec_offset(sh->dec));
						return 0;
					}
					have_types = 1;
					show_types(sh);
					break;
				case PROTO_SKIP:
					fprintf(stderr, "evtop: %s: skipped "
					    "%" PRIu64 " bytes before the "
					    "header\n", path,
					    proto_dec_skipped(sh->dec));
					break;
				case PROTO_ERROR:
					fprintf(stderr, "evtop: %s: %s\n",
					    path, proto_dec_error(sh->dec));
					return 1;
				case PROTO_EVENT:
					if (!any || ev.time < last) {
						if (show_add_run(sh, ev.off,
						    cap, left) == -1)
							return -1;
					}
					any = 1;
					last = ev.time;
					sh->runs[sh->nruns - 1].count++;
					break;
				default:
					break;
				}
			}
		}
	}
	if (!have_types) {
		fprintf(stderr, "evtop: %s: no eventlog header found\n", path);
		return 1;
	}
	if (proto_dec_pending(sh->dec) > 0) {
		fprintf(stderr, "evtop: %s: truncated: the event at byte %"
		    PRIu64 " is incomplete (%" PRIu64 " bytes)\n", path,
		    proto_dec_offset(sh->dec), proto_dec_pending(sh->dec));
		return 1;
	}
	return 0;
}

/* A pipe cannot be read twice: spool it to an unlinked temporary file. */
static int
show_spool(int in)
{
	char	 buf[SHOW_READ];
	FILE	*f;
	ssize_t	 n;
	int	 fd;

	if ((f = tmpfile()) == NULL)
		return -1;
	fd = dup(fileno(f));
	fclose(f);
	if (fd == -1)
		return -1;
	while ((n = read(in, buf, sizeof buf)) != 0) {
		if (n == -1) {
			if (errno == EINTR)
				continue;
			close(fd);
			return -1;
		}
		if (write(fd, buf, (size_t)n) != n) {
			close(fd);
			return -1;
		}
	}
	return fd;
}

static int
show_open(const char *path)
{
	struct stat	st;
	int		fd;

	if (strcmp(path, "-") == 0)
		fd = dup(STDIN_FILENO);
	else
		fd = open(path, O_RDONLY);
	if (fd == -1)
		return -1;
	if (fstat(fd, &st) == 0 && !S_ISREG(st.st_mode)) {
		int spooled = show_spool(fd);

		close(fd);
		return spooled;
	}
	return fd;
}

static int
show_file(const char *path)
{
	static char	 obuf[1 << 20];
	struct show	 sh;
	struct show_src	*v;
	size_t		 n;
	int		 bad, rc = 0;

	memset(&sh, 0, sizeof sh);
	sh.out = stdout;
	setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
	if ((sh.fd = show_open(path)) == -1) {
		fprintf(stderr, "evtop: %s: %s\n", path, strerror(errno));
		return 1;
	}
	sh.dec = proto_dec_new(0);
	sh.line = malloc(SHOW_LINE);
	sh.runs = calloc(SHOW_FAN, sizeof *sh.runs);
	if (sh.dec == NULL || sh.line == NULL || sh.runs == NULL)
		goto fail;

	if ((bad = show_index(&sh, path)) == -1)
		goto fail;
	if (sh.nspills == 0) {
		/* Few runs: merge them straight to the output. */
		if ((v = show_run_srcs(&sh)) == NULL)
			goto fail;
		rc = show_merge(&sh, v, sh.nruns, sh.out, 0);
		show_srcs_free(v, sh.nruns);
	} else {
		if (show_flush_runs(&sh) == -1)
			goto fail;
		n = sh.nspills;
		if ((v = show_spill_srcs(&sh, n)) == NULL)
			goto fail;
		rc = show_merge(&sh, v, n, sh.out, 0);
		show_srcs_free(v, n);
	}
	if (bad == 0)
		fputc('\n', sh.out);
	if (fflush(sh.out) != 0 || rc == -1) {
		fprintf(stderr, "evtop: show: write error\n");
		rc = 1;
	}
	if (bad || sh.failed)
		rc = 1;
	goto done;

fail:
	fprintf(stderr, "evtop: show: %s\n", strerror(errno ? errno : ENOMEM));
	rc = 1;
done:
	fflush(sh.out);
	proto_dec_free(sh.dec);
	free(sh.line);
	free(sh.runs);
	free(sh.spills);
	close(sh.fd);
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
