/*
 * reader.c: a file's events in the reference decoder's order (a stable
 * sort by time, which `evtop show` prints), in bounded memory, for every
 * reader of a file: show, --batch (through feed.c), the TUI's replay, and
 * seeking (reader_seek(), reader_tell()).
 *
 * Each capability writes its events in blocks, and its blocks follow each
 * other in time, so the events of one capability (and those outside any
 * block) form long runs in nearly sorted order even though the blocks of
 * different capabilities interleave in the file.  Nearly: GHC stamps some
 * events (GC_END) with a time taken a little before the events written just
 * ahead of them.
 *
 * Each capability's events are nearly sorted: in the logs of GHC 6.12 to
 * 9.x no event is more than a few places out of order in its capability's
 * stream.  reader_open() first scans a clean file (one header, events,
 * maybe the end marker at its very end), framing each event once, and
 * files it under its stream (its block's capability, or none) as
 * segments, stretches of the file; it checks that no event is earlier than
 * one 2 * READER_GROUP or more places before it in its stream.  A large
 * file's second half is scanned at once on another thread, from a block
 * marker near the middle, and joined to the first's streams when the
 * check holds across the cut (else the first thread scans it too).  Then the
 * single pass: each stream is read through a sorted lookahead of that many
 * events, which sorts it, and the streams are merged by (time, offset) in
 * rounds (all that every stream has ready up to the earliest of their last
 * ready events, merged pairwise without branches on which goes first), and
 * decoded in place from the mapping in batches.  That is the stable order,
 * and the events' pointers last as long as the mapping (feed.c hands them
 * to another thread).  A stream's pages are let go as it reads on.
 *
 * Otherwise, or for anything unusual (bad data, a second header, a cut
 * last event, a pipe), two passes over the bytes, read with pread(): the
 * first decodes the file and files each event under its capability's
 * current run, simulating a lookahead of READER_LOOK events (which sorts
 * local disorder away); when an event would come out of it too late, a new
 * run starts.  A run is a list of segments, contiguous byte ranges with the
 * decoder's block state at their start.  The second merges the runs with
 * one small cursor (a decoder sharing the header's types) per run, by time
 * and then file offset.  Past READER_FAN runs or READER_SEGS segments, the
 * runs so far are merged into a temporary file of raw event records, and
 * those files again, so memory stays bounded whatever the file holds.
 *
 * The module's files: this one opens, reads, seeks and tells (both ways
 * behind one interface); reader-scan.c and reader-pass.c are the single
 * pass's scan and pass, reader-runs.c the two passes, reader-bytes.c the
 * file's bytes (pread, the mapping and its SIGBUS guard, pages let go)
 * and the errors; reader-priv.h what they share.
 */
#include "read/reader-priv.h"

/*
 * Whether a header starts in p[0..n), its first 8 bytes ("hdrb" and
 * "hetb", always together) told by a window of the last 8 read (*w).
 */
static int
reader_magic(uint64_t *w, const uint8_t *p, size_t n)
{
	const uint64_t	magic = 0x6864726268657462ull;	/* "hdrbhetb" */
	size_t		i;

	for (i = 0; i < n; i++)
		if ((*w = *w << 8 | p[i]) == magic)
			return 1;
	return 0;
}

/*
 * A pipe or a device cannot be read twice: spool it to an unlinked
 * temporary file.  With no header in its first READER_NO_HEADER bytes, it
 * is not an eventlog (/dev/zero would be read without end): an error.
 */
static int
reader_spool(struct reader *m, int in)
{
	char	 buf[READER_READ];
	FILE	*f;
	ssize_t	 n;
	uint64_t w = 0, got = 0;
	int	 fd, seen = 0;

	if ((f = tmpfile()) == NULL)
		return -1;
	fd = dup(fileno(f));
	fclose(f);
	if (fd == -1)
		return -1;
	while ((n = read(in, buf, sizeof buf)) != 0) {
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1 || write(fd, buf, (size_t)n) != n)
			break;
		if (!seen && !(seen = reader_magic(&w, (uint8_t *)buf,
		    (size_t)n)) && (got += (uint64_t)n) >= READER_NO_HEADER) {
			snprintf(m->error, sizeof m->error, "not an eventlog: "
			    "no header in its first %u bytes (a stream: "
			    "--fifo PATH, or - for stdin)", READER_NO_HEADER);
			m->io_error = 1;
			break;
		}
	}
	if (n != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static int
reader_open_fd(struct reader *m, const char *path)
{
	struct stat	st;
	int		fd, spooled;

	if (strcmp(path, "-") == 0)
		fd = dup(STDIN_FILENO);
	else
		fd = open(path, O_RDONLY);
	if (fd == -1)
		return -1;
	if (fstat(fd, &st) == 0 && !S_ISREG(st.st_mode)) {
		spooled = reader_spool(m, fd);
		close(fd);
		return spooled;
	}
	return fd;
}

/* Try the single pass: 1 it is set up, 0 it does not apply, -1 error. */
static int
reader_fast_open(struct reader *m)
{
	struct reader_fast	*f;
	int			 rc;

	if ((f = calloc(1, sizeof *f)) == NULL)
		return -1;
	if ((rc = reader_fast_scan(m, f)) != 1) {
		reader_fast_free(f, m->size);
		return rc;
	}
	reader_fast_seek(f, 0, 0);
	m->fast = f;
#ifdef READER_DEBUG
	fprintf(stderr, "reader: single pass, %u streams\n", f->nst);
#endif
	return 1;
}

/*
 * A hash (FNV-1a) of the bytes at the start, the middle and the end of
 * what is read: a program run again rewrites its eventlog in place, with
 * the same header but other times in its events.
 */
static uint64_t
reader_print(struct reader *m)
{
	uint8_t		buf[READER_PRINT];
	uint64_t	h = 14695981039346656037ull, at[3];
	size_t		got, i;
	int		k;

	at[0] = 0;
	at[1] = m->size / 2;
	at[2] = m->size > READER_PRINT ? m->size - READER_PRINT : 0;
	for (k = 0; k < 3; k++) {
		if (reader_read_at(m->fd, buf, m->size - at[k] < READER_PRINT ?
		    m->size - at[k] : READER_PRINT, at[k], &got) == -1)
			got = 0;
		for (i = 0; i < got; i++)
			h = (h ^ buf[i]) * 1099511628211ull;
	}
	return h;
}

static struct reader *reader_open_as(const char *, int, uint64_t, uint64_t,
		    char **);

struct reader *
reader_open(const char *path, char **cause)
{
	return reader_open_as(path, 0, UINT64_MAX, 0, cause);
}

/*
 * A file of evtop's own that nothing else writes or cuts (a live source's
 * history): mapped whatever other file is, as no SIGBUS can come of it.
 * Only its first size bytes are read (it may grow meanwhile), and the
 * offsets it tells, of events and to reader_seek(), are bias more than
 * the file's (where its events are in the stream it holds a part of).
 */
struct reader *
reader_open_own(const char *path, uint64_t size, uint64_t bias, char **cause)
{
	return reader_open_as(path, 1, size, bias, cause);
}

static struct reader *
reader_open_as(const char *path, int own, uint64_t size, uint64_t bias,
    char **cause)
{
	struct reader	 *m;
	struct stat	  st;
	struct reader_src *v;
	size_t		  n;

	if ((m = calloc(1, sizeof *m)) == NULL)
		goto fail;
	m->own = own;
	m->bias = bias;
	m->out.pending = -1;
	if ((m->fd = reader_open_fd(m, path)) == -1)
		goto fail;
	if ((m->rbuf = malloc(READER_READ)) == NULL)
		goto fail;
	if (fstat(m->fd, &st) == 0) {
		m->size = (uint64_t)st.st_size < size ? (uint64_t)st.st_size :
		    size;
		m->mtime = st.st_mtim;
	}
	if (!own)
		m->print = reader_print(m);
	if ((m->dec = proto_dec_new(0)) != NULL)
		proto_dec_frame_only(m->dec);
	reader_forget_runs(m);
	if (m->dec == NULL)
		goto fail;
	if (READER_SINGLE) {
		switch (reader_fast_open(m)) {
		case 1:
			/* Framed: what read the header goes. */
			free(m->rbuf);
			m->rbuf = NULL;
			proto_dec_free(m->dec);
			m->dec = NULL;
			return m;
		case -1:
			goto fail;
		}
		/* Not for the single pass: start again. */
#ifdef READER_DEBUG
		fprintf(stderr, "reader: two passes\n");
#endif
		proto_dec_free(m->types);
		m->types = NULL;
		proto_dec_reset(m->dec);
		m->events = 0;
	}
	/* The two passes' index (megabytes: only when they are used). */
	m->runs = calloc(READER_FAN, sizeof *m->runs);
	m->segs = calloc(READER_SEGS, sizeof *m->segs);
	if (m->runs == NULL || m->segs == NULL)
		goto fail;
	if (reader_index(m) == -1)
		goto fail;
	if (m->types == NULL)
		return m;	/* nothing to merge; reader_error() says why */
	if (m->nspills > 0 && reader_flush_runs(m) == -1)
		goto fail;
	if (m->nspills > 0) {
		n = m->nspills;
		v = reader_spill_srcs(m, n);
	} else {
		n = m->nruns;
		v = reader_run_srcs(m);
	}
	if (v == NULL || reader_heap_init(m, &m->out, v, n) == -1)
		goto fail;
	return m;

fail:
	if (asprintf(cause, "%s: %s", path, m != NULL && m->io_error ?
	    m->error : strerror(errno ? errno : ENOMEM)) == -1)
		*cause = NULL;
	reader_free(m);
	return NULL;
}

void
reader_free(struct reader *m)
{
	size_t	i;

	if (m == NULL)
		return;
	reader_fast_free(m->fast, m->size);
	reader_heap_free(&m->out);
	for (i = 0; i < m->nspills; i++)
		fclose(m->spills[i].f);
	free(m->spills);
	free(m->runs);
	free(m->segs);
	proto_dec_free(m->types);
	proto_dec_free(m->dec);
	if (m->fd != -1)
		close(m->fd);
	free(m->rbuf);
	free(m);
}

/*
 * Up to n next events into ev[]: fewer at times, 0 at the end.  Their
 * borrowed pointers last until the next call, or, when reader_lasting()
 * says so, until reader_free().
 */
static size_t
reader_next_in(struct reader *m, struct proto_ev *ev, size_t n, int full)
{
	size_t	k;

	if (n == 0)
		return 0;
	if (m->fast != NULL)
		k = reader_fast_next(m, m->fast, ev, n, full);
	else if ((k = m->out.v != NULL && reader_heap_pop(m, &m->out, ev)))
		ev->off += m->bias;
	if (k > 0) {
		atomic_fetch_add_explicit(&m->done, k, memory_order_relaxed);
		m->last_time = ev[k - 1].time;
		m->last_off = ev[k - 1].off - m->bias;
		m->given = 1;
	}
	return k;
}

size_t
reader_next_n(struct reader *m, struct proto_ev *ev, size_t n)
{
	return reader_next_in(m, ev, n, 1);
}

/*
 * The same, but in the single pass each event's fields are left for
 * proto_dec_rest() (a history's thread leaves them to the model's: see
 * src/time/spill-cur.c); the two passes give them whole.
 */
size_t
reader_next_heads(struct reader *m, struct proto_ev *ev, size_t n)
{
	return reader_next_in(m, ev, n, 0);
}

/*
 * Up to n next frames into fr[], in the order reader_next_n() gives their
 * events, for a reader whose events last (reader_lasting()): framed and
 * ordered on feed.c's thread, decoded on the caller's by
 * reader_frames_dec().  0 at the end.
 */
size_t
reader_next_frames(struct reader *m, struct proto_frame *fr, size_t n)
{
	size_t	k;

	if (m->fast == NULL || n == 0)
		return 0;
	if ((k = reader_fast_frames(m, m->fast, fr, n)) > 0) {
		atomic_fetch_add_explicit(&m->done, k, memory_order_relaxed);
		m->last_time = fr[k - 1].time;
		m->last_off = fr[k - 1].off;
		m->given = 1;
	}
	return k;
}

/*
 * Decode n frames of reader_next_frames() into ev[]: how many decoded, n
 * unless frame [return] is bad (reader_frames_fail() says why).  Reads
 * only what the reader's thread never writes (the types, the mapping), so
 * it runs beside it.
 */
size_t
reader_frames_dec(const struct reader *m, const struct proto_frame *fr,
    size_t n, struct proto_ev *ev)
{
	size_t	d, j;

	d = proto_dec_frames(m->types, m->fast->map, fr, n, ev);
	for (j = 0; m->bias != 0 && j < d; j++)
		ev[j].off += m->bias;
	return d;
}

/* The reader's error for a frame reader_frames_dec() could not decode;
 * it gives nothing more.  (The reader is the caller's again.) */
void
reader_frames_fail(struct reader *m, const struct proto_frame *bad)
{
	if (m->fast != NULL)
		reader_fast_fail(m, m->fast, bad);
}

enum proto_res
reader_next(struct reader *m, struct proto_ev *ev)
{
	return reader_next_n(m, ev, 1) == 1 ? PROTO_EVENT : PROTO_AGAIN;
}

/* The two passes from the start again: every source rewound. */
static void
reader_rewind(struct reader *m)
{
	struct reader_heap	*h = &m->out;
	struct reader_src	*s;
	size_t			 i;

	for (i = 0; i < h->n; i++) {
		s = &h->v[i];
		if (s->spill != NULL) {
			rewind(s->spill);
			continue;
		}
		/* Without spills, source i reads run i. */
		s->seg = &m->segs[m->runs[i].first];
		s->count = s->seg->count;
		s->pos = s->seg->off;
		s->look.head = s->look.n = 0;
		proto_dec_seek(s->dec, s->seg->off, s->seg->cap,
		    s->seg->left);
	}
	h->nh = 0;
	h->pending = -1;
	for (i = 0; i < h->n; i++)
		if (reader_src_next(m, &h->v[i]))
			h->heap[h->nh++] = i;
	for (i = h->nh; i-- > 0;)
		reader_sift(h->v, h->heap, h->nh, i);
}

/*
 * Go on from the first event at or after (time, off) in the order: with
 * (0, 0), from the start; with reader_tell()'s, from where that was said.
 * The single pass starts filing at the chunk the scan marked for that time
 * (a lag of chunks is read again, about the cost of the events between);
 * the two passes read from the start and pass over what is before.  0, or
 * -1 after an error (reader_error() says).
 */
int
reader_seek(struct reader *m, uint64_t time, uint64_t off)
{
	struct reader_heap	*h = &m->out;
	struct reader_src	*s;
	struct proto_ev		 ev;

	if (m->io_error)
		return -1;
	m->given = 0;
	off = off > m->bias ? off - m->bias : 0;
	if (m->fast != NULL && m->fast->rested) {
		/* What reader_rest() let go, again. */
		if (reader_fast_tables(m, m->fast) == -1 ||
		    reader_fast_bufs(m->fast) == -1) {
			reader_fail(m, strerror(ENOMEM));
			return -1;
		}
		m->fast->rested = 0;
	}
	if (m->fast != NULL) {
		reader_fast_seek(m->fast, time, off);
		return 0;
	}
	if (h->v == NULL)
		return 0;
	reader_rewind(m);
	for (;;) {
		reader_heap_advance(m, h);
		if (h->nh == 0)
			break;
		s = &h->v[h->heap[0]];
		if (s->time > time || (s->time == time && s->off >= off))
			break;
		if (!reader_heap_pop(m, h, &ev))
			break;
	}
	return m->io_error ? -1 : 0;
}

/*
 * A reader read to its end that may be read again (a live source's
 * history, at the next correction) keeps only what its scan found: its
 * tables, its buffers and the pages it read go, and reader_seek() takes
 * them again without a new scan.  Nothing more comes until then.  (The
 * two passes keep all: their index is the file's.)
 */
void
reader_rest(struct reader *m)
{
	struct reader_fast	*f = m->fast;

	if (f == NULL || f->rested)
		return;
	reader_fast_unbufs(f);
	free(f->tabs);
	f->tabs = f->tsize = NULL;
	f->fixed = NULL;
	reader_drop(f->map, 0, m->size + (uint64_t)sysconf(_SC_PAGESIZE) - 1);
	f->rested = 1;
}

/* Where to seek to go on after the events given so far. */
void
reader_tell(const struct reader *m, uint64_t *time, uint64_t *off)
{
	*time = m->given ? m->last_time : 0;
	*off = m->given ? m->last_off + 1 + m->bias : 0;
}

/* Whether the events' borrowed pointers last until reader_free(). */
int
reader_lasting(const struct reader *m)
{
	return m->fast != NULL;
}

/* Whether the file shrank under the mapping (so zeros were read). */
int
reader_shrank(const struct reader *m)
{
	return m->fast != NULL && reader_guard_shrunk(m->fast);
}

/*
 * Whether the bytes read are still the file's: NULL, or what became of
 * them (it shrank, or was written over: a program run again rewrites its
 * eventlog in place).  A file that only grew is the same.  Once changed,
 * changed for good.  Checked when asked (a stat, and a hash of a few
 * blocks if it was written to), not while reading.
 */
const char *
reader_changed(struct reader *m)
{
	struct stat	st;

	if (m->changed != NULL || m->own || fstat(m->fd, &st) != 0)
		return m->changed;
	if ((uint64_t)st.st_size < m->size)
		m->changed = "the file shrank";
	else if (st.st_mtim.tv_sec != m->mtime.tv_sec ||
	    st.st_mtim.tv_nsec != m->mtime.tv_nsec) {
		if (reader_print(m) != m->print)
			m->changed = "the file was written over";
		m->mtime = st.st_mtim;	/* grown: the same until it changes */
	}
	return m->changed;
}

/* The header's types, for printing unknown events and the type list. */
const struct proto_dec *
reader_dec(const struct reader *m)
{
	return m->types;
}

/* Why the file's events end early, or NULL.  (A shrink seen by a reader
 * of the events, feed.c's caller, before the reader thread said it.) */
const char *
reader_error(const struct reader *m)
{
	if (m->error[0] != '\0')
		return m->error;
	return reader_shrank(m) ? "the file shrank while read" : NULL;
}

uint64_t
reader_events(const struct reader *m)
{
	return m->events;
}

uint64_t
reader_done(const struct reader *m)
{
	return atomic_load_explicit(&m->done, memory_order_relaxed);
}

uint64_t
reader_size(const struct reader *m)
{
	return m->size;
}
