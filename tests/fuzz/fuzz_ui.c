/*
 * fuzz_ui.c: libFuzzer over what is drawn.  The input's first byte says
 * how many keys follow (bits 0-4), whether the model reorders what it is
 * given (bit 5), which metrics format is written (bit 6), and whether the
 * log is a file replayed or a live source's bytes (bit 7); the keys come
 * next, then for a live source a byte that picks the reads' sizes, then
 * an eventlog.  A file's events, in the order they decode, go to a model
 * and the timeline's summary, its bytes to a file the raw events pane and
 * the timeline's zoom read; a live source's take loop.c's path
 * (fuzz-live.h: the history, corrections) and the raw events pane reads
 * the history.  Then every pane is drawn at a few sizes, Unicode and
 * ASCII, with the keys pressed between frames and the panes' work (a
 * search) run; the profiles are exported (to standard output, thrown
 * away) and the metrics written.  Beyond not crashing (ASan, UBSan): a frame is UTF-8
 * without control characters (fuzz_check()), ASCII when the terminal is.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ui.h"
#include "fuzz-live.h"
#include "../ui/uitest.h"
#include "serve/serve.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

/* What a key byte types beyond the bindings: a prompt's text. */
static const uint32_t	typed[] = {
	' ', 'a', 'Z', '0', '7', '%', ':', '=', '<', '>', '"', '\\', '-',
	'.', 'r', 's', 'e', 0xe9, 0x4e2d, 0x1f600,
};
#define NTYPED	(sizeof typed / sizeof typed[0])

static char	path[64];

static struct keys_key
fuzz_key(uint8_t b)
{
	const struct keys_binding *kb;
	struct keys_key	 k;
	size_t		 n = 0;
	uint32_t	 c;

	memset(&k, 0, sizeof k);
	while (keys_binding_at(n) != NULL)
		n++;
	if (b < 0xc0 && n > 0) {
		kb = keys_binding_at(b % n);
		k.kind = kb->kind;
		k.code = kb->code;
		k.mods = kb->mods;
	} else {
		c = typed[(b - 0xc0) % NTYPED];
		k.kind = KEYS_CHAR;
		k.code = (int)c;
	}
	if (k.kind == KEYS_CHAR) {
		c = (uint32_t)k.code;
		if (c < 0x80)
			k.utf8[0] = (char)c;
		else if (c < 0x800) {
			k.utf8[0] = (char)(0xc0 | c >> 6);
			k.utf8[1] = (char)(0x80 | (c & 0x3f));
		} else if (c < 0x10000) {
			k.utf8[0] = (char)(0xe0 | c >> 12);
			k.utf8[1] = (char)(0x80 | (c >> 6 & 0x3f));
			k.utf8[2] = (char)(0x80 | (c & 0x3f));
		} else {
			k.utf8[0] = (char)(0xf0 | c >> 18);
			k.utf8[1] = (char)(0x80 | (c >> 12 & 0x3f));
			k.utf8[2] = (char)(0x80 | (c >> 6 & 0x3f));
			k.utf8[3] = (char)(0x80 | (c & 0x3f));
		}
	}
	return k;
}

/* The events, as a stream gives them: to the model and the summary. */
static void
fuzz_feed(struct model *m, struct tl *tl, const uint8_t *p, size_t n)
{
	struct proto_dec	*d;
	struct proto_ev		 ev;
	enum proto_res		 rc;
	size_t			 k;

	if ((d = proto_dec_new(1u << 16)) == NULL)
		abort();
	while (n > 0) {
		k = proto_dec_feed(d, p, n);
		p += k;
		n -= k;
		while ((rc = proto_dec_next(d, &ev)) != PROTO_AGAIN) {
			if (rc == PROTO_HEADER)
				model_header(m, d);
			else if (rc == PROTO_EVENT) {
				model_apply(m, &ev);
				tl_event(tl, &ev, 1);
			} else if (rc == PROTO_ERROR)
				model_error(m, proto_dec_error(d));
		}
		if (k == 0 && proto_dec_room(d) == 0)
			proto_dec_reset(d);
	}
	model_flush(m);
	proto_dec_free(d);
}

/*
 * What reaches the terminal: UTF-8 (ASCII when asked), and no control
 * character, C0, DEL or C1, whatever the strings in the log (a thread's
 * label, a message, a cost centre's name) held: an escape sequence from
 * the program watched must not drive the terminal.
 */
static void
fuzz_check(const unsigned char *s, int ascii)
{
	uint32_t	c;
	int		n, i;

	while (*s != '\0') {
		if (*s < 0x80) {
			if ((*s < 0x20 && *s != '\n') || *s == 0x7f)
				__builtin_trap();
			s++;
			continue;
		}
		if (ascii)
			__builtin_trap();
		n = *s >= 0xf0 ? 3 : *s >= 0xe0 ? 2 : 1;
		if (*s < 0xc2 || *s > 0xf4)
			__builtin_trap();
		c = *s & (0x3f >> n);
		for (i = 1; i <= n; i++) {
			if ((s[i] & 0xc0) != 0x80)
				__builtin_trap();
			c = c << 6 | (s[i] & 0x3f);
		}
		if ((n == 2 && c < 0x800) || (n == 3 && (c < 0x10000 ||
		    c > 0x10ffff)) || (c >= 0xd800 && c < 0xe000) ||
		    (c >= 0x80 && c < 0xa0))
			__builtin_trap();
		s += n + 1;
	}
}

static void
fuzz_frame(struct view *v, const struct model *m,
    const struct evtop_status *st, int w, int h, int ascii)
{
	fuzz_check((const unsigned char *)uitest_frame(v, m, st, w, h, ascii),
	    ascii);
}

/* The status loop.c gives for a live source with a history. */
static void
fuzz_status_live(struct evtop_status *st, struct live *l)
{
	struct redo_stats	rs;

	redo_stats(l->r, &rs);
	st->source = "unix:/fuzz";
	st->kind = EVTOP_SRC_UNIX;
	st->conn = EVTOP_CONN_OPEN;
	st->seekable = rs.on;
	st->pass = 1;
	st->file_time = rs.viewing ? rs.view_ns : l->m->now;
	st->file_first = st->history_first = rs.first;
	st->file_last = st->history_last = rs.last;
	st->history = rs.on;
	st->history_bytes = rs.bytes;
	st->corrections = rs.corrections;
	st->corrected_ns = rs.back_ns;
	st->corrected_at = rs.corrected_at != 0 ? st->wall_ns - 1 : 0;
	st->correcting = rs.busy;
	st->spill = redo_spill(l->r);
	st->history_error = rs.error;
	st->lag_known = l->m->prog.has_wall;
	st->lag_ns = 150000000;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int	 sz[][2] = { { 80, 24 }, { 200, 60 },
	    { 24, 7 }, { 120, 40 } };
	struct evtop_opts	 o;
	struct evtop_status	 st;
	struct evtop_cmd	 cmd;
	struct keys_key		 k;
	struct live		 l;
	struct model		*m;
	struct view		*v;
	struct tl		*tl;
	const uint8_t		*log;
	size_t			 nkeys, i, z, nlog;
	int			 fd, work, live;

	if (size < 1)
		return 0;
	live = data[0] >> 7;
	nkeys = data[0] & 31;
	if (nkeys + live > size - 1)
		return 0;
	log = data + 1 + nkeys + live;
	nlog = size - 1 - nkeys - live;
	if (path[0] == '\0') {
		snprintf(path, sizeof path, "/tmp/fuzz_ui.%d.eventlog",
		    (int)getpid());
		setenv("TERM", "xterm-256color", 0);
		/* The exports go to standard output ("-"), thrown away: no
		 * file is made or replaced. */
		if (freopen("/dev/null", "w", stdout) == NULL)
			abort();
	}
	if ((tl = tl_new()) == NULL)
		abort();
	memset(&st, 0, sizeof st);
	st.speed = 1;
	st.wall_ns = 1700000000ULL * 1000000000ULL;
	st.timeline = tl;
	if (live) {
		live_run(&l, data[1 + nkeys], log, nlog, tl);
		m = l.m;
		fuzz_status_live(&st, &l);
	} else {
		if ((fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600)) < 0 ||
		    write(fd, log, nlog) != (ssize_t)nlog)
			abort();
		close(fd);
		if ((m = model_new()) == NULL)
			abort();
		/* A replay's model, or a live source's (events reordered). */
		if (!(data[0] & 0x20))
			model_set_reorder(m, 0, 0);
		fuzz_feed(m, tl, log, nlog);
		st.source = path;
		st.kind = EVTOP_SRC_FILE;
		st.conn = EVTOP_CONN_DONE;
	}

	for (z = 0; z <= VIEW_NPANES; z++) {
		if ((v = view_new(st.kind)) == NULL)
			abort();
		if (z > 0) {
			memset(&k, 0, sizeof k);
			k.kind = KEYS_CHAR;
			k.code = '0' + (int)z;
			k.utf8[0] = (char)k.code;
			(void)view_key(v, &k, &cmd);
		}
		for (i = 0; i <= nkeys; i++) {
			fuzz_frame(v, m, &st, sz[(z + i) % 4][0],
			    sz[(z + i) % 4][1], (int)((z + i) & 1));
			if (i == nkeys)
				break;
			k = fuzz_key(data[1 + i]);
			memset(&cmd, 0, sizeof cmd);
			if (view_key(v, &k, &cmd) == UI_QUIT)
				break;
			/* A search or a read: a few slices of it. */
			for (work = 0; work < 64 && view_busy(v); work++)
				(void)view_work(v);
		}
		view_free(v);
	}

	memset(&o, 0, sizeof o);
	o.folded = o.speedscope = o.hp = "-";
	(void)export_end(m, &o);
	metrics_write(stdout, data[0] & 0x40, m, &st, NULL, NULL);
	tl_free(tl);
	if (live)
		live_free(&l);
	else {
		model_free(m);
		unlink(path);
	}
	return 0;
}
