/*
 * reader-bytes.c: a file's bytes for reader.c's module: read with pread(),
 * or mapped, with a SIGBUS handler for a file cut short under the
 * mapping; its pages let go as reading moves on; the errors said.
 */
#include "read/reader-priv.h"

/*
 * A file that shrinks under the mapping raises SIGBUS on the missing
 * pages: the handler maps zeros there, and the reader stops with an error.
 * The handler covers READER_GUARDS mappings at once (the replay's, the raw
 * events pane's, a zoomed timeline's: readers of one file); a reader
 * beyond reads by pread (two passes), unless the file is evtop's own
 * (reader_open_own()), which is never cut short under it.  Readers are
 * opened and freed on one thread; the handler runs on any.  A handler
 * installed after ours (the TUI's crash handler) calls reader_bus_fault()
 * first, so the guard holds whatever the order.
 */
#define READER_GUARDS	4
static struct {
	const uint8_t *volatile	lo, *volatile hi;
	volatile sig_atomic_t	shrunk;
} reader_guard[READER_GUARDS];
static int		 reader_nguards;
static struct sigaction	 reader_old_bus;

int
reader_read_at(int fd, void *buf, size_t len, uint64_t off, size_t *got)
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

void
reader_fail(struct reader *m, const char *why)
{
	if (m->error[0] == '\0')
		snprintf(m->error, sizeof m->error, "%s", why);
	m->io_error = 1;
}

/* The file ends n bytes into the event at byte at: said from the start,
 * the events before it read. */
void
reader_cut(struct reader *m, uint64_t at, uint64_t n)
{
	snprintf(m->error, sizeof m->error, "truncated: the event at byte %"
	    PRIu64 " is incomplete (%" PRIu64 " bytes)", at, n);
}

/*
 * Whether a SIGBUS at addr fell in a guarded mapping: zeros are mapped
 * there then, and its reader stops with an error.  For whoever handles
 * SIGBUS (a crash handler installed after the guard's takes faults here
 * first); async-signal-safe.
 */
int
reader_bus_fault(const void *addr)
{
	uintptr_t	a = (uintptr_t)addr;
	long		pg = sysconf(_SC_PAGESIZE);
	int		i;

	for (i = 0; i < READER_GUARDS; i++)
		if (reader_guard[i].lo != NULL &&
		    a >= (uintptr_t)reader_guard[i].lo &&
		    a < (uintptr_t)reader_guard[i].hi)
			break;
	if (i == READER_GUARDS)
		return 0;
	a &= ~(uintptr_t)(pg - 1);
	if (mmap((void *)a, (size_t)pg, PROT_READ, MAP_PRIVATE | MAP_FIXED |
	    MAP_ANONYMOUS, -1, 0) == MAP_FAILED)
		_exit(70);
	reader_guard[i].shrunk = 1;
	return 1;
}

static void
reader_sigbus(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	/* Not ours: the handler before (a crash handler) has it when the
	 * fault repeats. */
	if (!reader_bus_fault(si->si_addr))
		sigaction(sig, &reader_old_bus, NULL);
}

/* Whether zeros were mapped for some of f's pages (the file shrank). */
int
reader_guard_shrunk(const struct reader_fast *f)
{
	return f->guard != 0 && reader_guard[f->guard - 1].shrunk;
}

/* Let the pages of [from, to) go: they are read again if touched. */
void
reader_drop(const uint8_t *map, uint64_t from, uint64_t to)
{
	uint64_t	pg = (uint64_t)sysconf(_SC_PAGESIZE);

	from = (from + pg - 1) & ~(pg - 1);
	to &= ~(pg - 1);
	if (to > from)
		madvise((void *)(map + from), to - from, MADV_DONTNEED);
}

/* Map [from, from + n) of a mapping of size bytes now, rather than a
 * fault at a time as it is read; where the kernel cannot, it is read as
 * before. */
void
reader_populate(const uint8_t *map, uint64_t from, uint64_t n, uint64_t size)
{
#ifdef MADV_POPULATE_READ
	uint64_t	pg = (uint64_t)sysconf(_SC_PAGESIZE);

	if (from >= size)
		return;
	if (n > size - from)
		n = size - from;
	n += from & (pg - 1);
	from &= ~(pg - 1);
	(void)madvise((void *)(map + from), n, MADV_POPULATE_READ);
#endif
}

/* Map the file and take SIGBUS for it: -1 if it cannot be. */
int
reader_fast_map(struct reader *m, struct reader_fast *f)
{
	struct sigaction	sa;
	void			*map;
	int			 i = 0;

	if (m->size == 0)
		return -1;
	if (!m->own) {
		for (i = 0; i < READER_GUARDS; i++)
			if (reader_guard[i].lo == NULL)
				break;
		if (i == READER_GUARDS)
			return -1;	/* the two passes */
	}
	map = mmap(NULL, (size_t)m->size, PROT_READ, MAP_PRIVATE, m->fd, 0);
	if (map == MAP_FAILED)
		return -1;
	f->map = map;
	if (m->own)
		return 0;	/* never cut short under us: no handler */
	f->guard = i + 1;
	reader_guard[i].shrunk = 0;
	/* The end first: a range the handler sees is whole. */
	reader_guard[i].hi = f->map + m->size;
	reader_guard[i].lo = f->map;
	if (reader_nguards++ == 0) {
		memset(&sa, 0, sizeof sa);
		sa.sa_sigaction = reader_sigbus;
		sa.sa_flags = SA_SIGINFO;
		sigemptyset(&sa.sa_mask);
		sigaction(SIGBUS, &sa, &reader_old_bus);
	}
	return 0;
}

/* The handler before back, unless another took SIGBUS since (and calls
 * reader_bus_fault() itself). */
static void
reader_unguard(void)
{
	struct sigaction	cur;

	if (sigaction(SIGBUS, NULL, &cur) == 0 &&
	    (cur.sa_flags & SA_SIGINFO) && cur.sa_sigaction == reader_sigbus)
		sigaction(SIGBUS, &reader_old_bus, NULL);
}

/* The mapping goes, and the handler's range with it. */
void
reader_fast_unmap(struct reader_fast *f, uint64_t size)
{
	if (f->map != NULL)
		munmap((void *)f->map, (size_t)size);
	if (f->guard != 0) {
		reader_guard[f->guard - 1].lo = NULL;
		reader_guard[f->guard - 1].hi = NULL;
		if (--reader_nguards == 0)
			reader_unguard();
	}
}
