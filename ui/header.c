/*
 * header.c: the rows at the top of the screen.
 *
 *   evtop  ./prog args                       GHC-9.0.2 rts_thr_l  pid 123
 *   unix /tmp/app.sock connected  12.3M read  45.6k ev/s  rec out.eventlog
 *   event 12.345s @14:02:03.4  wall 14:02:04  lag 1.0s  cmd: census (seen)
 *
 * (a file says how far its replay is and how many events it has had,
 * instead of the bytes read and the rate).
 *
 * A wide terminal gets the same on two rows.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "ui.h"
#include "model/model.h"

#define HEADER_WIDE	160
#define HEADER_NOTE_NS	3000000000ULL	/* a correction is said this long */

int
header_rows(int width)
{
	return width >= HEADER_WIDE ? 2 : 3;
}

static const char *
header_clock(char *buf, size_t size, uint64_t ns, int tenths)
{
	struct tm	tm;
	time_t		t = (time_t)(ns / 1000000000ULL);
	size_t		n;

	if (localtime_r(&t, &tm) == NULL) {
		snprintf(buf, size, "?");
		return buf;
	}
	n = strftime(buf, size, "%H:%M:%S", &tm);
	if (tenths && n + 3 < size)
		snprintf(buf + n, size - n, ".%u",
		    (unsigned)(ns / 100000000ULL % 10));
	return buf;
}

static const char *const header_src[] = {
	"file", "stdin", "fifo", "unix", "tcp",
};

/* Row 0: the program, and the RTS that wrote the stream: its identifier
 * and pid, or where that leaves too little room for the arguments, the
 * GHC version with or without the pid. */
static void
header_prog(struct lines *l, int y, int x, int w, const struct model *m,
    int paused)
{
	char	 right[3][200], pid[24] = "";
	int	 n, rx = 0, xend = x + w, i;

	if (paused)
		xend = lines_put_right(l, y, x + w, LINES_SELECT, " PAUSED ") -
		    1;
	if (m->prog.has_pid)
		snprintf(pid, sizeof pid, "pid %u", m->prog.pid);
	/* The RTS identifier comes from the eventlog: sanitized. */
	n = (int)proto_sanitize(m->prog.rts_id, strnlen(m->prog.rts_id,
	    sizeof m->prog.rts_id), right[0], 100);
	right[0][n] = '\0';
	snprintf(right[0] + n, sizeof right[0] - n, "%s%s", n > 0 &&
	    pid[0] ? "  " : "", pid);
	if (m->prog.ghc[0] != '\0') {
		snprintf(right[1], sizeof right[1], "GHC %s%s%s", m->prog.ghc,
		    pid[0] ? "  " : "", pid);
		snprintf(right[2], sizeof right[2], "GHC %s", m->prog.ghc);
	} else
		right[1][0] = right[2][0] = '\0';
	n = lines_put(l, y, x, LINES_BOLD, "evtop ", xend - x);
	for (i = 0; i < 3; i++) {
		rx = xend - lines_width(right[i], strlen(right[i]), l->ascii);
		if (right[i][0] != '\0' && rx >= x + n + 12)
			break;
	}
	if (i == 3)
		rx = xend;	/* no room: the arguments matter more */
	else
		lines_put(l, y, rx, LINES_DIM, right[i], xend - rx);
	if (m->prog.args[0] != '\0')
		lines_put_ev(l, y, x + n, LINES_ACCENT, m->prog.args,
		    strlen(m->prog.args), rx - (x + n) - 1);
	else
		lines_put(l, y, x + n, LINES_DIM, m->totals.events == 0 ?
		    "(no program yet)" : "(its arguments were not in the "
		    "stream)", rx - (x + n) - 1);
}

/* Row 1: where the events come from. */
static int
header_source(struct lines *l, int y, int x, int w, const struct model *m,
    const struct evtop_status *st)
{
	char		 a[FMT_MAX], b[FMT_MAX];
	const char	*what;
	int		 attr, n = 0, k = st->kind, end = x + w, keep = 10;

	if (k < 0 || k > EVTOP_SRC_TCP)
		k = EVTOP_SRC_FILE;
	/* Why a file stops short matters more than its whole path. */
	if (k == EVTOP_SRC_FILE && st->file_err)
		keep += 3 + lines_width(st->conn_msg, strlen(st->conn_msg),
		    l->ascii);
	n += lines_putf(l, y, x + n, LINES_NORMAL, end - x - n, "%s ",
	    header_src[k]);
	n += lines_put(l, y, x + n, LINES_ACCENT, st->source != NULL ?
	    st->source : "?", end - x - n - keep > 8 ? end - x - n - keep :
	    8);
	switch (st->conn) {
	case EVTOP_CONN_WAITING:
		what = "waiting";
		attr = LINES_WARN;
		break;
	case EVTOP_CONN_OPEN:
		what = k == EVTOP_SRC_FILE ? "replaying" : "connected";
		attr = LINES_GOOD;
		break;
	case EVTOP_CONN_CLOSED:
		what = "closed";
		attr = LINES_BAD;
		break;
	default:
		what = "done";
		attr = LINES_DIM;
		break;
	}
	n += lines_put(l, y, x + n, LINES_NORMAL, " ", end - x - n);
	n += lines_put(l, y, x + n, attr, what, end - x - n);
	if (k == EVTOP_SRC_FILE) {
		if (st->file_err)
			/* Damaged or cut short: the events before, and why. */
			n += lines_putf(l, y, x + n, LINES_BAD, end - x - n,
			    " (%s)", st->conn_msg);
		if (st->paused)
			n += lines_put(l, y, x + n, LINES_WARN, " paused",
			    end - x - n);
		if (st->speed > 0)
			n += lines_putf(l, y, x + n, LINES_NORMAL, end - x - n,
			    " %gx", st->speed);
		else
			n += lines_put(l, y, x + n, LINES_NORMAL, " max speed",
			    end - x - n);
		if (st->file_size > 0)
			n += lines_putf(l, y, x + n, LINES_NORMAL, end - x - n,
			    " %.0f%%", 100.0 * (double)st->file_pos /
			    (double)st->file_size);
		n += lines_putf(l, y, x + n, LINES_NORMAL, end - x - n,
		    "  %s events", fmt_count(a, (double)m->totals.events));
		if (st->conn == EVTOP_CONN_OPEN && !st->paused)
			n += lines_putf(l, y, x + n, LINES_NORMAL, end - x - n,
			    "  %s ev/s", fmt_count(b, st->events_per_s));
	} else {
		if (st->conn_msg[0] != '\0' && st->conn != EVTOP_CONN_OPEN)
			n += lines_putf(l, y, x + n, LINES_DIM, end - x - n,
			    " (%s)", st->conn_msg);
		if (st->stream_err[0] != '\0')
			/* Bad bytes in the stream, as a file's damage. */
			n += lines_putf(l, y, x + n, LINES_BAD, end - x - n,
			    " (%s)", st->stream_err);
		n += lines_putf(l, y, x + n, LINES_NORMAL, end - x - n,
		    "  %s read  %s ev/s", fmt_bytes(a, st->bytes),
		    fmt_count(b, st->events_per_s));
	}
	if (st->record_path != NULL) {
		n += lines_put(l, y, x + n, LINES_NORMAL, "  ", end - x - n);
		n += lines_put(l, y, x + n, LINES_BAD, "rec ", end - x - n);
		n += lines_putf(l, y, x + n, LINES_NORMAL, end - x - n,
		    "%s %s", st->record_path, fmt_bytes(a, st->record_bytes));
	}
	return n;
}

/* What a live source's history did: late events being put back, or put
 * back in the last few seconds and how far back that went. */
static void
header_history(char *buf, size_t size, const struct model *m,
    const struct evtop_status *st)
{
	char	t[FMT_MAX];

	buf[0] = '\0';
	/* Older than the history: applied where they came, as counted. */
	if (m->totals.late > 0 && st->kind != EVTOP_SRC_FILE)
		snprintf(buf, size, "  late %llu", (unsigned long long)
		    m->totals.late);
	if (st->correcting)
		snprintf(buf + strlen(buf), size - strlen(buf),
		    "  correcting");
	else if (st->corrected_at != 0 && st->wall_ns >= st->corrected_at &&
	    st->wall_ns - st->corrected_at < HEADER_NOTE_NS)
		snprintf(buf + strlen(buf), size - strlen(buf),
		    "  corrected -%s", fmt_ns(t, st->corrected_ns));
}

/* Row 2: times, and the last control command. */
static void
header_times(struct lines *l, int y, int x, int w, const struct model *m,
    const struct evtop_status *st)
{
	char		 a[2 * FMT_MAX + 2], b[FMT_MAX], c1[32], times[160];
	char		 lag[64], note[64];
	const char	*tag = NULL;
	uint64_t	 pw = 0;
	int		 n = 0, end = x + w, cmdw = 0, tagattr = LINES_GOOD;
	int		 full;

	/* The command and its fate need room first: the times shrink. */
	if (st->cmd_msg[0] != '\0') {
		if (st->cmd_seen)
			tag = " (seen)";
		else if (st->cmd_pending) {
			tag = " (waiting)";
			tagattr = LINES_WARN;
		}
		cmdw = 7 + lines_width(st->cmd_msg, strlen(st->cmd_msg),
		    l->ascii) + (tag != NULL ? (int)strlen(tag) : 0);
	}
	/* What the export key wrote: after the command, as room allows. */
	if (st->export_msg[0] != '\0')
		cmdw += 2 + lines_width(st->export_msg,
		    strlen(st->export_msg), l->ascii);
	if (m->prog.has_wall)
		pw = m->prog.wall_ns + (m->now - m->prog.wall_at);
	lag[0] = '\0';
	if (pw != 0 && st->kind != EVTOP_SRC_FILE && st->wall_ns > pw &&
	    st->conn == EVTOP_CONN_OPEN && !st->viewing)
		snprintf(lag, sizeof lag, "  lag %s", fmt_ns(a, st->wall_ns -
		    pw));
	/* A file held after a seek is at the time asked, not at its last
	 * event; during the first pass the model runs ahead of the replay. */
	if (st->seekable && st->pass < 1)
		snprintf(a, sizeof a, "first pass %d%%", (int)(st->pass * 100));
	else if (st->range_on) {
		fmt_time(a, st->range_from);
		fmt_time(b, st->range_to);
		snprintf(a + strlen(a), sizeof a - strlen(a), "-%s", b);
	} else if (st->viewing)
		fmt_time(a, st->view_ns);
	else
		fmt_time(a, st->seekable ? st->file_time : m->now);
	/* A live source's past: held there while reading goes on. */
	header_history(note, sizeof note, m, st);
	for (full = 1; full >= 0; full--) {
		n = snprintf(times, sizeof times, st->seekable && st->pass < 1 ?
		    "%s" : st->range_on ? "range %s (Esc: back)" : st->viewing ?
		    "past %s (e: now)" : "event %s", a);
		if (full && pw != 0)
			n += snprintf(times + n, sizeof times - n, " @%s",
			    header_clock(c1, sizeof c1, pw, 1));
		if (full && st->wall_ns != 0)
			n += snprintf(times + n, sizeof times - n, "  wall %s",
			    header_clock(c1, sizeof c1, st->wall_ns, 0));
		snprintf(times + n, sizeof times - n, "%s", lag);
		if (lines_width(times, strlen(times), l->ascii) + cmdw +
		    (int)strlen(note) <= w)
			break;
	}
	n = lines_put(l, y, x, LINES_NORMAL, times, w);
	if (lag[0] != '\0' && st->wall_ns - pw > 2000000000ULL)
		lines_attr(l, y, x + n - (int)strlen(lag) + 2,
		    (int)strlen(lag) - 2, LINES_WARN);
	if (note[0] != '\0')
		n += lines_put(l, y, x + n, LINES_ACCENT, note, end - x - n);
	if (st->export_msg[0] != '\0') {
		n += lines_put(l, y, x + n, LINES_NORMAL, "  ", end - x - n);
		n += lines_put(l, y, x + n, strncmp(st->export_msg,
		    "exported", 8) == 0 ? LINES_GOOD : LINES_WARN,
		    st->export_msg, end - x - n);
	}
	if (st->cmd_msg[0] == '\0')
		return;
	n += lines_put(l, y, x + n, LINES_NORMAL, "  cmd: ", end - x - n);
	/* Cut the message, never its fate. */
	if (tag != NULL && x + n + cmdw - 7 > end)
		end = lines_put_right(l, y, end, tagattr, tag);
	n += lines_put(l, y, x + n, LINES_ACCENT, st->cmd_msg, end - x - n);
	if (tag != NULL && end == x + w)
		lines_put(l, y, x + n, tagattr, tag, end - x - n);
}

/* The columns row y uses from x on: up to its last one not blank. */
static int
header_used(const struct lines *l, int y, int x)
{
	int	e = l->width;

	while (e > x && l->cell[(size_t)y * (size_t)l->width + (size_t)(e -
	    1)].ch == ' ')
		e--;
	return e - x;
}

void
header_render(struct lines *l, const struct model *m,
    const struct evtop_status *st, int paused)
{
	int	w = l->width, n, sw;

	header_prog(l, 0, 0, w, m, paused);
	if (l->height >= 3) {
		header_source(l, 1, 0, w, m, st);
		header_times(l, 2, 0, w, m, st);
		return;
	}
	/*
	 * Wide: source and times share the second row, half each, but the
	 * source (a damaged file's reason, a long path) takes what the
	 * times leave: measured by drawing them there first.
	 */
	header_times(l, 1, 0, w, m, st);
	sw = w - header_used(l, 1, 0) - 2;
	if (sw < w / 2)
		sw = w / 2;
	lines_fill(l, 1, 0, w, LINES_NORMAL, ' ');
	n = header_source(l, 1, 0, sw, m, st);
	if (n < w / 2)
		n = w / 2;
	header_times(l, 1, n + 2, w - n - 2, m, st);
}
