/*
 * test-panes.c: the panes and the view, rendered into lines from models
 * fed with the real GHC 9.0.2 fixtures; no terminal.  The figures on the
 * screen must be the model's, and those the independent reference
 * (tests/ref/figures, ghc-events 0.17) wrote to NAME.figures.json.  Keys
 * go through the view as ui.c would hand them over.
 *
 * usage: test-panes FIXTURES-DIR [CORPUS-DIR]
 * (every eventlog of CORPUS-DIR is rendered too, for robustness)
 */
#include <dirent.h>
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uitest.h"
#include "../tap.h"

static const char *dir = "tests/fixtures";

static int
has(const char *text, const char *needle)
{
	return strstr(text, needle) != NULL;
}

static char *
slurp(const char *path)
{
	FILE	*f;
	char	*buf;
	long	 n;

	if ((f = fopen(path, "rb")) == NULL)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	if (n < 0 || (buf = malloc((size_t)n + 1)) == NULL) {
		fclose(f);
		return NULL;
	}
	n = (long)fread(buf, 1, (size_t)n, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* A number in NAME.figures.json: "key": N after "section" (or anywhere). */
static long long
figure(const char *name, const char *section, const char *key)
{
	char		 path[512], pat[128], *json, *p;
	long long	 v = -1;

	snprintf(path, sizeof path, "%s/%s.figures.json", dir, name);
	if ((json = slurp(path)) == NULL)
		return -1;
	p = json;
	if (section != NULL) {
		snprintf(pat, sizeof pat, "\"%s\"", section);
		p = strstr(p, pat);
	}
	if (p != NULL) {
		snprintf(pat, sizeof pat, "\"%s\":", key);
		if ((p = strstr(p, pat)) != NULL)
			v = strtoll(p + strlen(pat), NULL, 10);
	}
	free(json);
	return v;
}

static struct model *
load(const char *name)
{
	char	path[512];

	snprintf(path, sizeof path, "%s/%s.eventlog", dir, name);
	return uitest_model(path);
}

/* The line of text containing needle, or "". */
static const char *
line_with(const char *text, const char *needle)
{
	static char	 buf[4096];
	const char	*p = strstr(text, needle), *a, *b;

	buf[0] = '\0';
	if (p == NULL)
		return buf;
	for (a = p; a > text && a[-1] != '\n'; a--)
		;
	for (b = p; *b != '\0' && *b != '\n'; b++)
		;
	snprintf(buf, sizeof buf, "%.*s", (int)(b - a), a);
	return buf;
}

/* Line n (from 0) of text. */
static const char *
nth_line(const char *text, int n)
{
	static char	 buf[4096];
	const char	*b;

	while (n-- > 0 && (text = strchr(text, '\n')) != NULL)
		text++;
	if (text == NULL)
		return "";
	b = strchr(text, '\n');
	snprintf(buf, sizeof buf, "%.*s", b ? (int)(b - text) :
	    (int)strlen(text), text);
	return buf;
}

/* Lines with something on them. */
static int
nonempty(const char *text)
{
	int	n = 0, any = 0;

	for (; *text != '\0'; text++) {
		if (*text == '\n') {
			n += any;
			any = 0;
		} else if (*text != ' ')
			any = 1;
	}
	return n + any;
}

static int
count_lines_with(const char *text, const char *needle)
{
	int	n = 0;

	while ((text = strstr(text, needle)) != NULL) {
		n++;
		text = strchr(text, '\n');
		if (text == NULL)
			break;
		text++;
	}
	return n;
}

static const char *
title(struct pane *p, const struct model *m)
{
	static char	buf[512];

	buf[0] = '\0';
	p->ops->title(p, m, buf, sizeof buf);
	return buf;
}

static enum ui_action
press(struct view *v, int kind, int code, struct evtop_cmd *cmd)
{
	struct keys_key	k = uitest_key(kind, code);

	return view_key(v, &k, cmd);
}

static const char *const fixtures[] = {
	"gc", "prof", "heap-hc", "heap-hT", "heap-hy", "nonmoving",
	"messages", "threads", "sparks", "truncated",
};
#define NFIXTURES (sizeof fixtures / sizeof fixtures[0])

/* Every pane at several sizes, Unicode and ASCII: no crash, and ASCII
 * frames hold nothing but ASCII. */
static void
test_all_sizes(void)
{
	static const int	 sz[][2] = { { 80, 24 }, { 200, 60 }, { 30, 8 },
	    { 20, 6 }, { 120, 40 } };
	struct evtop_status	 st;
	struct evtop_cmd	 cmd;
	struct model		*m;
	struct view		*v;
	struct tl		*tl;
	const char		*f;
	char			 path[512];
	size_t			 i, s, z, j;
	int			 ascii_ok = 1, frames = 0;

	for (i = 0; i < NFIXTURES; i++) {
		if ((m = load(fixtures[i])) == NULL) {
			ok(0, "load %s", fixtures[i]);
			continue;
		}
		uitest_status(&st, fixtures[i], EVTOP_SRC_FILE);
		snprintf(path, sizeof path, "%s/%s.eventlog", dir, fixtures[i]);
		st.source = path;
		st.timeline = tl = uitest_tl(path);
		for (z = 0; z <= VIEW_NPANES; z++) {
			v = view_new(EVTOP_SRC_FILE);
			if (z > 0)
				press(v, KEYS_CHAR, '0' + (int)z, &cmd);
			/* The timeline zoomed in, reading the file. */
			if (z == 8)
				press(v, KEYS_CHAR, 'i', &cmd);
			for (s = 0; s < sizeof sz / sizeof sz[0]; s++) {
				uitest_frame(v, m, &st, sz[s][0], sz[s][1], 0);
				f = uitest_frame(v, m, &st, sz[s][0], sz[s][1],
				    1);
				frames += 2;
				for (j = 0; f[j] != '\0'; j++)
					if ((unsigned char)f[j] >= 0x80)
						ascii_ok = 0;
			}
			view_free(v);
		}
		tl_free(tl);
		model_free(m);
	}
	ok(frames > 0 && ascii_ok, "%d frames of every pane and fixture; "
	    "the ASCII ones are pure ASCII", frames);
}

/*
 * A run of 2.3 s with 4788 collections, more than the 4096 records kept:
 * the GC pane's 10 s window holds them all, with the pause total that
 * ghc-events gives (tests/fixtures/conformance/stop.hT.figures.json), and
 * marks its percentiles as taken from buckets.
 */
static void
test_gc_many(const char *cdir)
{
	struct model	*m;
	struct view	*v;
	struct pane	*p;
	const char	*t, *body;
	char		 path[1024], want[64], a[FMT_MAX];
	long long	 n = figure("conformance/stop.hT", "gc", "collections");
	long long	 tot = figure("conformance/stop.hT", "gc",
			    "pause_total_ns");

	snprintf(path, sizeof path, "%s/stop.hT.eventlog", cdir);
	if ((m = uitest_model(path)) == NULL) {
		printf("# no %s\n", path);
		return;
	}
	v = view_new(EVTOP_SRC_FILE);
	p = view_pane(v, 1);
	p->win = MODEL_W10;
	t = title(p, m);
	snprintf(want, sizeof want, "%lld collections", n);
	ok(n == 4788 && has(t, want) && has(t, "(10s)"), "GC, 10 s window of "
	    "%lld collections: %s", n, t);
	body = uitest_pane(p, m, 100, 20);
	snprintf(want, sizeof want, "total %s", fmt_ns(a, (uint64_t)tot));
	ok(tot > 0 && has(body, want) && has(body, "p50 ~"), "GC, 10 s "
	    "window: %s, percentiles from buckets: %s", want,
	    line_with(body, "pauses"));
	view_free(v);
	model_free(m);
}

/* Every pane of every eventlog in a directory, at a few sizes. */
static void
test_corpus(const char *cdir)
{
	static const int	 sz[][2] = { { 80, 24 }, { 200, 60 }, { 24, 7 } };
	struct evtop_status	 st;
	struct evtop_cmd	 cmd;
	struct dirent		*de;
	struct model		*m;
	struct view		*v;
	struct tl		*tl;
	DIR			*d;
	char			 path[1024];
	size_t			 n, s, z;
	int			 logs = 0, frames = 0;

	if ((d = opendir(cdir)) == NULL) {
		printf("# no corpus at %s\n", cdir);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		n = strlen(de->d_name);
		if (n < 9 || strcmp(de->d_name + n - 9, ".eventlog") != 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", cdir, de->d_name);
		if ((m = uitest_model(path)) == NULL)
			continue;
		logs++;
		uitest_status(&st, path, EVTOP_SRC_FILE);
		st.timeline = tl = uitest_tl(path);
		for (z = 0; z <= VIEW_NPANES; z++) {
			v = view_new(EVTOP_SRC_FILE);
			if (z > 0)
				press(v, KEYS_CHAR, '0' + (int)z, &cmd);
			if (z == 8) {
				press(v, KEYS_CHAR, 'i', &cmd);
				press(v, KEYS_CHAR, 'i', &cmd);
			}
			for (s = 0; s < sizeof sz / sizeof sz[0]; s++) {
				uitest_frame(v, m, &st, sz[s][0], sz[s][1],
				    (int)(s & 1));
				frames++;
			}
			view_free(v);
		}
		tl_free(tl);
		model_free(m);
	}
	closedir(d);
	ok(logs > 0, "corpus: %d logs, %d frames", logs, frames);
}

static void
test_gc(void)
{
	struct model	*m = load("gc");
	struct view	*v = view_new(EVTOP_SRC_FILE);
	struct pane	*p = view_pane(v, 1);
	struct model_gc_win g;
	const char	*t, *body;
	char		 a[FMT_MAX], want[128];
	long long	 n = figure("gc", "gc", "collections");
	long long	 max = figure("gc", "gc", "pause_max_ns");
	long long	 tot = figure("gc", "gc", "pause_total_ns");

	if (m == NULL)
		return;
	p->win = MODEL_WRUN;
	model_gc_window(m, MODEL_WRUN, &g);
	t = title(p, m);
	snprintf(want, sizeof want, "%lld collections", n);
	ok(n == 205 && has(t, want) && g.count == (uint64_t)n,
	    "GC title: %s (reference %lld, model %llu)", t, n,
	    (unsigned long long)g.count);
	snprintf(want, sizeof want, "max pause %s", fmt_ns(a,
	    (uint64_t)max));
	ok(has(t, want) && g.pause_max == (uint64_t)max, "GC title has %s",
	    want);
	body = uitest_pane(p, m, 80, 20);
	snprintf(want, sizeof want, "total %s", fmt_ns(a, (uint64_t)tot));
	ok(has(body, want) && g.pause_total == (uint64_t)tot,
	    "GC body has the pause %s", want);
	snprintf(want, sizeof want, "p50 %s  p90 %s", fmt_ns(a, g.p50),
	    fmt_ns(a + 16, g.p90));
	snprintf(want, sizeof want, "p50 %s", fmt_ns(a, g.p50));
	ok(has(body, want), "GC body has the model's %s", want);
	snprintf(want, sizeof want, "0: %llu 1: %llu",
	    (unsigned long long)g.count_gen[0],
	    (unsigned long long)g.count_gen[1]);
	ok(has(body, want) && g.count_gen[0] + g.count_gen[1] == (uint64_t)n,
	    "GC by generation: %s", want);
	/* The newest collection is the first row of the list. */
	{
		const struct model_gc_rec *r = model_gc_recent(m, 0);
		char	seq[32];

		snprintf(seq, sizeof seq, "%6llu ", (unsigned long long)r->seq);
		ok(r != NULL && r->seq == (uint64_t)n &&
		    has(line_with(body, seq), fmt_ns(a, r->end - r->start)),
		    "newest collection #%llu listed with its pause",
		    (unsigned long long)r->seq);
		/* gc.eventlog ends with a major collection followed by the
		 * log's last HEAP_LIVE (66264 bytes, `evtop show`); the
		 * minor one before it has none: its row says -. */
		ok(r->gen == 1 && m->heap.live == 66264 &&
		    has(line_with(body, seq), fmt_bytes(a, 66264)),
		    "newest collection: live %s: %s", fmt_bytes(a, 66264),
		    line_with(body, seq));
		snprintf(seq, sizeof seq, "%6llu   0 ",
		    (unsigned long long)r->seq - 1);
		ok(has(line_with(body, seq), " - "), "the one before: no "
		    "live bytes: %s", line_with(body, seq));
		/* Its GC_STATS_GHC (`evtop show`): 2 par threads, 534456
		 * bytes copied in all, 288 of them balanced: balance 0.00
		 * (the largest share, 533232, would be 1.00). */
		ok(has(line_with(body, seq), "    2  0.00 "), "its balance: "
		    "%s", line_with(body, seq));
	}
	/* A tall pane draws the histogram as bars. */
	body = uitest_pane(p, m, 100, 50);
	ok(count_lines_with(body, " < ") >= 5, "tall GC pane: histogram rows");
	view_free(v);
	model_free(m);
}

static void
test_prof(void)
{
	struct model		*m = load("prof");
	struct view		*v = view_new(EVTOP_SRC_FILE);
	struct pane		*p = view_pane(v, 4);
	struct evtop_status	 st;
	struct evtop_cmd	 cmd;
	const char		*body, *row1, *f;
	char			 a[FMT_MAX], want[64];
	long long		 samples = figure("prof", "prof", "samples");
	long long		 top = figure("prof", "top_self", "samples");
	int			 i;

	if (m == NULL)
		return;
	p->win = MODEL_WRUN;
	snprintf(want, sizeof want, "%lld samples", samples);
	ok(samples == 525 && has(title(p, m), want) &&
	    model_prof_samples(m, MODEL_WRUN) == (uint64_t)samples,
	    "cost centres title: %s", title(p, m));
	body = uitest_pane(p, m, 100, 20);
	row1 = nth_line(body, 1);
	fmt_pct(a, (double)top / (double)samples);
	ok(has(row1, "Main.fib") && has(row1, a), "top by self: Main.fib at "
	    "%s (%lld of %lld samples): %s", a, top, samples, row1);
	ok(has(row1, " \xe2\x86\x90 Main.main"), "its callers follow, "
	    "innermost first");
	/* A row whose self and total shares differ shows both: the self
	 * share is its samples innermost over all samples. */
	{
		struct model_cc_row	 cr[16];
		char			 lab[128], b2[FMT_MAX];
		const char		*row = "";
		int			 n, j, found = 0;

		n = model_top_ccs(m, MODEL_WRUN, 0, cr, 16, NULL);
		for (j = 0; j < n && !found; j++) {
			if (strcmp(fmt_pct(a, (double)cr[j].cc->self /
			    (double)samples), fmt_pct(b2, cr[j].total_share))
			    == 0 || cr[j].cc->label[0] == '\0')
				continue;
			snprintf(lab, sizeof lab, "%s.%s", cr[j].cc->module,
			    cr[j].cc->label);
			row = line_with(body, lab);
			found = row[0] != '\0';
		}
		ok(found && has(row, a) && has(row, b2), "self %s and total "
		    "%s: %s", a, b2, row);
	}
	/* s: by total; the outermost cost centres come first. */
	p->focus = 1;
	ok(p->ops->action(p, KEYS_SELF_TOTAL) && p->sort == 1, "s sorts by "
	    "total");
	body = uitest_pane(p, m, 100, 20);
	ok(has(nth_line(body, 0), "TOTAL") && has(nth_line(body, 1),
	    "72.2%"), "by total: %s", nth_line(body, 1));
	/* Enter on the top row: the stacks ending in it. */
	p->sort = 0;
	p->sel = 0;
	p->detail = 1;
	body = uitest_pane(p, m, 100, 20);
	ok(has(body, "stacks ending in Main.fib") && has(body,
	    "Main.fib \xe2\x86\x90 Main.main"), "Enter shows Main.fib's "
	    "stacks");
	p->detail = 0;
	/* The filter, typed through the view. */
	uitest_status(&st, "prof", EVTOP_SRC_FILE);
	press(v, KEYS_CHAR, '5', &cmd);
	press(v, KEYS_CHAR, '/', &cmd);
	press(v, KEYS_CHAR, 's', &cmd);
	press(v, KEYS_CHAR, 'u', &cmd);
	press(v, KEYS_CHAR, 'm', &cmd);
	f = uitest_frame(v, m, &st, 100, 30, 0);
	ok(has(f, "Filter Cost centres: sum"), "the prompt shows the filter");
	press(v, KEYS_SYM, KEYS_SYM_ENTER, &cmd);
	f = uitest_frame(v, m, &st, 100, 30, 0);
	ok(has(f, "/sum") && count_lines_with(f, "Main.sumSquares") == 2 &&
	    !has(f, "Main.fib"), "filter sum: only sumSquares rows");
	for (i = 0; i < 3; i++)
		press(v, KEYS_SYM, KEYS_SYM_BACKSPACE, &cmd);
	press(v, KEYS_CHAR, '/', &cmd);
	press(v, KEYS_SYM, KEYS_SYM_ESCAPE, &cmd);
	f = uitest_frame(v, m, &st, 100, 30, 0);
	ok(has(f, "/sum"), "Esc in the prompt keeps the old filter");
	press(v, KEYS_CHAR, '/', &cmd);
	for (i = 0; i < 3; i++)
		press(v, KEYS_SYM, KEYS_SYM_BACKSPACE, &cmd);
	press(v, KEYS_SYM, KEYS_SYM_ENTER, &cmd);
	f = uitest_frame(v, m, &st, 100, 30, 0);
	ok(has(f, "Main.fib") && !has(f, "/sum"), "filter cleared");
	/* A filter longer than it may be: said. */
	press(v, KEYS_CHAR, '/', &cmd);
	for (i = 0; i < PANE_FILTER_MAX + 5; i++)
		press(v, KEYS_CHAR, 'x', &cmd);
	f = uitest_frame(v, m, &st, 100, 30, 0);
	ok(has(f, "at most 63 bytes"), "a full prompt says so");
	press(v, KEYS_SYM, KEYS_SYM_ESCAPE, &cmd);
	view_free(v);
	model_free(m);
}

static void
test_heap(const char *name, const char *breakdown)
{
	struct model		*m = load(name);
	struct view		*v = view_new(EVTOP_SRC_FILE);
	struct pane		*p = view_pane(v, 2);
	struct model_band_row	 r;
	const char		*body;
	char			 a[FMT_MAX], want[64];
	long long		 n = figure(name, "heap", "censuses");

	if (m == NULL)
		return;
	body = uitest_pane(p, m, 100, 30);
	snprintf(want, sizeof want, "census %lld,", n);
	ok(n > 0 && has(body, want) && m->hprof.censuses == (uint64_t)n,
	    "%s: %s", name, line_with(body, "census"));
	ok(has(body, breakdown), "%s: by %s", name, breakdown);
	if (model_top_bands(m, &r, 1) == 1)
		ok(has(line_with(body, fmt_bytes(a, r.bytes)), r.band->name),
		    "%s: the top band %s with %s", name, r.band->name, a);
	else
		ok(0, "%s: a top band", name);
	ok(has(line_with(body, "size"), fmt_bytes(a, m->heap.size)) &&
	    has(line_with(body, "live"), fmt_bytes(a, m->heap.live)),
	    "%s: heap size and live as the model has them", name);
	view_free(v);
	model_free(m);
}

static void
test_nonmoving(void)
{
	struct model	*m = load("nonmoving");
	struct view	*v = view_new(EVTOP_SRC_FILE);
	struct pane	*p = view_pane(v, 3);
	const char	*body;
	char		 want[64];
	long long	 n = figure("nonmoving", "nonmoving", "censuses");
	long long	 marks = figure("nonmoving", NULL, "CONC_MARK_BEGIN");

	if (m == NULL)
		return;
	ok(p->ops->want(p, m, 80) > 0, "nonmoving pane wants room");
	body = uitest_pane(p, m, 100, 30);
	snprintf(want, sizeof want, "census %lld at", n);
	ok(n == 10 && has(body, want), "nonmoving: %s", want);
	snprintf(want, sizeof want, "mark %lld x", marks);
	ok(marks > 0 && has(body, want), "nonmoving: %s", want);
	ok(has(body, "occupancy") && has(body, "\xe2\x96\x88"),
	    "occupancy bars");
	/* A size's row: occupancy live / capacity, fragmentation the rest. */
	{
		const struct model_nm_size *z = NULL;
		char	 lead[64], b1[FMT_MAX], b2[FMT_MAX], b3[FMT_MAX];
		double	 occ = 0;
		int	 i;

		for (i = 0; i < m->nm.nsizes && z == NULL; i++) {
			z = &m->nm.sizes[i];
			occ = z->capacity > 0 ? (double)z->live /
			    (double)z->capacity : 0;
			if (occ > 1)
				occ = 1;
			if (z->capacity == 0 || strcmp(fmt_pct(b1, occ),
			    fmt_pct(b2, 1 - occ)) == 0)
				z = NULL;
		}
		if (z != NULL) {
			snprintf(lead, sizeof lead, "%7s %7u %7u %3u ",
			    fmt_bytes(b3, z->blk_size), z->active, z->filled,
			    z->current);
			fmt_pct(b1, occ);
			fmt_pct(b2, 1 - occ);
		}
		ok(z != NULL && has(line_with(body, lead), b1) &&
		    has(line_with(body, lead), b2), "nonmoving: occupancy %s, "
		    "fragmentation %s: %s", b1, b2, z != NULL ?
		    line_with(body, lead) : "(no size)");
	}
	/* The 128-byte blocks live in the two capabilities' current
	 * segments only: 76 of 2 x 253, GHC's blocks a segment. */
	{
		const struct model_nm_size *z = NULL;
		char	 lead[64], b1[FMT_MAX];
		int	 i;

		for (i = 0; i < m->nm.nsizes; i++)
			if (m->nm.sizes[i].blk_size == 128)
				z = &m->nm.sizes[i];
		snprintf(lead, sizeof lead, "%7s %7u %7u %3u ", "128B", 0, 0,
		    2);
		ok(z != NULL && z->live == 76 && z->capacity == 2 * 253 &&
		    has(line_with(body, lead), "76/506") &&
		    has(line_with(body, lead), fmt_pct(b1, 76.0 / 506)),
		    "nonmoving: current segments in the capacity: %s",
		    line_with(body, lead));
	}
	model_free(m);
	/* Not shown in the overview without nonmoving activity. */
	if ((m = load("gc")) != NULL) {
		ok(p->ops->want(p, m, 80) == 0, "no nonmoving pane for gc");
		model_free(m);
	}
	view_free(v);
}

static void
test_messages(void)
{
	struct model		*m = load("messages");
	struct view		*v = view_new(EVTOP_SRC_FILE);
	struct pane		*p = view_pane(v, 6);
	const struct model_msg	*g;
	const char		*body;
	char			 want[64];
	long long		 user = figure("messages", "messages", "user");
	long long		 mk = figure("messages", "messages", "markers");

	if (m == NULL)
		return;
	snprintf(want, sizeof want, "%lld messages  %lld markers", user, mk);
	ok(user == 164 && has(title(p, m), want), "messages title: %s",
	    title(p, m));
	body = uitest_pane(p, m, 120, 600);
	g = model_msg_recent(m, 0);
	ok(g != NULL && has(nth_line(body, 0), "bin") && has(nth_line(body,
	    0), "\xef\xbf\xbd"), "newest first: the invalid binary message, "
	    "its bytes shown as U+FFFD: %s", nth_line(body, 0));
	ok(has(body, "\xe3\x81\x93\xe3\x82\x93\xe3\x81\xab\xe3\x81\xa1"
	    "\xe3\x81\xaf") && has(body, "\xf0\x9f\x9a\x80"),
	    "Japanese text and the emoji");
	ok(has(body, "mark \xe3\x83\x9e\xe3\x83\xbc\xe3\x82\xab\xe3\x83\xbc"),
	    "a marker");
	snprintf(p->filter, sizeof p->filter, "PHASE");
	body = uitest_pane(p, m, 120, 600);
	ok(count_lines_with(body, "phase") > 0 && count_lines_with(body,
	    "phase") == nonempty(body), "filter PHASE: %d rows, all with "
	    "phase", count_lines_with(body, "phase"));
	p->filter[0] = '\0';
	/* At 80 columns the 414-byte message is cut with an ellipsis. */
	body = uitest_pane(p, m, 80, 600);
	ok(has(line_with(body, "long message"), "\xe2\x80\xa6"),
	    "a long message ends in an ellipsis");
	view_free(v);
	model_free(m);
}

static void
test_threads(void)
{
	struct model		*m = load("threads");
	struct view		*v = view_new(EVTOP_SRC_FILE);
	struct pane		*p = view_pane(v, 5);
	struct evtop_status	 st;
	struct evtop_cmd	 cmd;
	const char		*body;
	char			 want[64];
	long long		 n = figure("threads", "threads", "created");
	int			 fwd[4], rev[4], i, k;
	struct model_thread_row	 all[64];

	if (m == NULL)
		return;
	p->win = MODEL_WRUN;
	body = uitest_pane(p, m, 100, 40);
	snprintf(want, sizeof want, "%lld created", n);
	ok(n == 29 && has(body, want), "threads: %s", line_with(body,
	    "created"));
	ok(count_lines_with(body, "finished") + count_lines_with(body,
	    "blocked ") + count_lines_with(body, "running") >=
	    (int)m->threads.table, "a row per thread in the table (%llu)",
	    (unsigned long long)m->threads.table);
	ok(has(body, "cruncher-1") && has(body, "TimerManager"),
	    "labels shown");
	snprintf(p->filter, sizeof p->filter, "cruncher");
	body = uitest_pane(p, m, 100, 40);
	ok(count_lines_with(body, "cruncher-") == 4 && nonempty(body) == 6,
	    "filter cruncher: 4 threads and 2 heading rows");
	p->filter[0] = '\0';
	/* Sort by id, then reversed. */
	p->sort = 2;
	body = uitest_pane(p, m, 100, 40);
	ok(strncmp(nth_line(body, 2), "       1 ", 9) == 0, "by id: thread 1 "
	    "first: %s", nth_line(body, 2));
	p->reverse = 1;
	body = uitest_pane(p, m, 100, 40);
	ok(strncmp(nth_line(body, 2), "      29 ", 9) == 0, "reversed: "
	    "thread 29 first: %s", nth_line(body, 2));
	/* Filtered and reversed: the same rows as filtered, backwards. */
	snprintf(p->filter, sizeof p->filter, "cruncher");
	p->reverse = 0;
	body = uitest_pane(p, m, 100, 40);
	for (i = 0; i < 4; i++)
		fwd[i] = atoi(nth_line(body, 2 + i));
	p->reverse = 1;
	body = uitest_pane(p, m, 100, 40);
	for (i = 0; i < 4; i++)
		rev[i] = atoi(nth_line(body, 2 + i));
	ok(count_lines_with(body, "cruncher-") == 4 && fwd[0] < fwd[3] &&
	    rev[0] == fwd[3] && rev[1] == fwd[2] && rev[2] == fwd[1] &&
	    rev[3] == fwd[0], "filtered and reversed: %d %d %d %d, then "
	    "%d %d %d %d", fwd[0], fwd[1], fwd[2], fwd[3], rev[0], rev[1],
	    rev[2], rev[3]);
	p->filter[0] = '\0';
	p->reverse = 0;
	p->sort = 0;
	/* Keys move the selection within the rows there are. */
	uitest_status(&st, "threads", EVTOP_SRC_FILE);
	press(v, KEYS_CHAR, '6', &cmd);
	uitest_frame(v, m, &st, 100, 30, 0);
	press(v, KEYS_SYM, KEYS_SYM_DOWN, &cmd);
	press(v, KEYS_SYM, KEYS_SYM_DOWN, &cmd);
	ok(p->sel == 2, "Down Down: row 2 (%d)", p->sel);
	press(v, KEYS_SYM, KEYS_SYM_END, &cmd);
	uitest_frame(v, m, &st, 100, 30, 0);
	ok(p->sel == (int)m->threads.table - 1 && p->top > 0,
	    "End: the last row (%d of %llu), scrolled (%d)", p->sel,
	    (unsigned long long)m->threads.table, p->top);
	/* Past the middle (8 lines: a header and 7 rows) the pane asks for
	 * the rows from the end, in the other order: the same rows as the
	 * whole order's. */
	body = uitest_pane(p, m, 100, 8);
	k = model_threads_sorted(m, (enum model_win)p->win, MODEL_TSORT_CPU,
	    all, 64, NULL);
	ok(k == (int)m->threads.table && p->top == k - 7 &&
	    atoi(nth_line(body, 1)) == (int)all[k - 7].t->id &&
	    atoi(nth_line(body, 4)) == (int)all[k - 4].t->id &&
	    atoi(nth_line(body, 7)) == (int)all[k - 1].t->id,
	    "End: rows %d.. are the whole order's: %s .. %s", p->top,
	    nth_line(body, 1), nth_line(body, 7));
	press(v, KEYS_SYM, KEYS_SYM_HOME, &cmd);
	uitest_frame(v, m, &st, 100, 30, 0);
	ok(p->sel == 0 && p->top == 0, "Home: back to the top");
	press(v, KEYS_CHAR, '>', &cmd);
	ok(p->sort == 1, "> sorts by the next column");
	press(v, KEYS_CHAR, '<', &cmd);
	press(v, KEYS_CHAR, '<', &cmd);
	ok(p->sort == 2, "< twice wraps to the last column");
	/* The title's arrow: the way the rows go (ids smallest first). */
	ok(strstr(uitest_frame(v, m, &st, 100, 30, 1), "id^") != NULL,
	    "by id: the arrow points up (smallest first)");
	press(v, KEYS_CHAR, 'r', &cmd);
	ok(p->reverse == 1, "r reverses");
	ok(strstr(uitest_frame(v, m, &st, 100, 30, 1), "idv") != NULL,
	    "by id, reversed: down");
	press(v, KEYS_CHAR, '>', &cmd);
	ok(strstr(uitest_frame(v, m, &st, 100, 30, 1), "cpuv") != NULL,
	    "by CPU (a new column is not reversed): down (most first)");
	press(v, KEYS_CHAR, '<', &cmd);
	press(v, KEYS_CHAR, 'w', &cmd);
	ok(p->win == MODEL_W1, "w cycles the window");
	/* After `z` (the window counters restarted) the share is the
	 * window's, 0, and the CPU column still the whole run's: the thread
	 * with the most CPU shows its own cap and its whole CPU. */
	k = model_threads_sorted(m, MODEL_WRUN, MODEL_TSORT_CPU, all, 64,
	    NULL);
	model_reset_window(m);
	p->win = MODEL_WRUN;
	p->filter[0] = '\0';
	body = uitest_pane(p, m, 100, 40);
	{
		const struct model_thread *t = all[0].t;
		static const char *const st_names[] = { "runnable",
		    "running", "blocked", "finished" };
		char	id[16], mid[32], a[FMT_MAX];
		const char *row;

		snprintf(id, sizeof id, "%8u ", t->id);
		snprintf(mid, sizeof mid, "%-9s%4d ", st_names[t->state],
		    t->cap);
		row = line_with(body, id);
		ok(k > 0 && t->cap >= 0 && t->cpu_ns > 0 &&
		    strncmp(row, id, strlen(id)) == 0 && has(row, mid) &&
		    has(row, fmt_ns(a, t->cpu_ns)) && has(row, " 0.0%"),
		    "after z: thread %u: cap %d, CPU in all %s: %s", t->id,
		    t->cap, fmt_ns(a, t->cpu_ns), row);
	}
	view_free(v);
	model_free(m);
}

static void
test_sparks(void)
{
	struct model	*m = load("sparks");
	struct view	*v = view_new(EVTOP_SRC_FILE);
	struct pane	*p = view_pane(v, 0);
	const char	*body;
	char		 a[FMT_MAX], want[64];

	if (m == NULL)
		return;
	p->win = MODEL_WRUN;
	body = uitest_pane(p, m, 120, 10);
	snprintf(want, sizeof want, "%s created", fmt_count(a, (double)
	    model_sum(m, MODEL_S_SPARKS_CREATED, MODEL_WRUN)));
	ok(model_sum(m, MODEL_S_SPARKS_CREATED, MODEL_WRUN) > 0 &&
	    has(body, want), "sparks line: %s", line_with(body, "sparks"));
	ok(has(body, "   0 ") && has(body, "   1 ") && has(body, " all "),
	    "a row per capability and the sum");
	/* The sum's row: the mutator's share, then the GC's. */
	{
		struct model_util	u;
		char			b1[FMT_MAX], b2[FMT_MAX];
		const char		*row = line_with(body, " all ");

		model_caps_util(m, MODEL_WRUN, &u);
		fmt_pct(b1, u.run);
		fmt_pct(b2, u.gc);
		ok(u.gc > 0 && strcmp(b1, b2) != 0 && has(row, b1) &&
		    has(strstr(row, b1) + strlen(b1), b2), "all caps: "
		    "mutator %s, GC %s: %s", b1, b2, row);
	}
	view_free(v);
	model_free(m);
}

/*
 * The capabilities' chart of a run shorter than it (0.42 s: 5 slots) is
 * spread across the width: the bottom row has a cell in every column
 * where the program ran, the first column included.
 */
static void
test_caps_chart(void)
{
	struct model	*m = load("gc");
	struct view	*v = view_new(EVTOP_SRC_FILE);
	struct pane	*p = view_pane(v, 0);
	const char	*body, *row, *c;
	int		 cells = 0, filled = 0, first = -1;

	if (m == NULL)
		return;
	body = uitest_pane(p, m, 120, 30);
	row = strstr(body, "\n     0%");
	ok(row != NULL && has(body, "all capabilities, last 500ms"),
	    "caps chart: a 0%% row and its title");
	if (row != NULL) {
		row += 8;
		if (strncmp(row, "\xe2\x94\x82", 3) == 0)	/* the axis */
			row += 3;
		for (c = row; *c != '\0' && *c != '\n'; cells++) {
			if (*c != ' ') {
				filled++;
				if (first < 0)
					first = cells;
			}
			c += (*c & 0xe0) == 0xe0 ? 3 : 1;
		}
	}
	/* 120 - 8 columns of chart, the run in all of them. */
	ok(cells == 112 && first == 0 && filled >= 100, "caps chart: %d of "
	    "%d columns, the first at %d", filled, cells, first);
	view_free(v);
	model_free(m);
}

/* The whole screen, keys, help, resize, pause, commands. */
static void
test_view(void)
{
	struct model		*m = load("gc");
	struct view		*v, *s;
	struct evtop_status	 st;
	struct evtop_cmd	 cmd;
	const char		*f;
	char			 first[1 << 14], want[128];
	int			 i;

	if (m == NULL)
		return;
	uitest_status(&st, "tests/fixtures/gc.eventlog", EVTOP_SRC_FILE);
	v = view_new(EVTOP_SRC_FILE);
	f = uitest_frame(v, m, &st, 80, 24, 0);
	snprintf(want, sizeof want, "pid %u", m->prog.pid);
	ok(has(nth_line(f, 0), m->prog.args) && has(nth_line(f, 0), want) &&
	    has(nth_line(f, 0), m->prog.rts_id), "header: %s", nth_line(f,
	    0));
	ok(has(nth_line(f, 1), "gc.eventlog") && has(nth_line(f, 1), "done"),
	    "header: source and state: %s", nth_line(f, 1));
	/* The events read: ghc-events counts 4779 in gc.eventlog. */
	snprintf(want, sizeof want, "  %s events", fmt_count(first,
	    (double)figure("gc", NULL, "events_total")));
	ok(figure("gc", NULL, "events_total") == 4779 &&
	    has(nth_line(f, 1), want), "header: %s: %s", want,
	    nth_line(f, 1));
	ok(has(f, " 1 Capabilities") && has(f, " 2 GC") && has(f, " 3 Heap"),
	    "overview at 80x24 has caps, GC and heap");
	ok(count_lines_with(f, " 2 GC ") == 1, "each pane once");
	ok(has(nth_line(f, 23), "F1Help") && has(nth_line(f, 23), "F10Quit"),
	    "bottom bar: %s", nth_line(f, 23));
	snprintf(first, sizeof first, "%s", f);
	/* Resize: bigger, then back; the same frame again. */
	f = uitest_frame(v, m, &st, 200, 60, 0);
	ok(has(f, " 1 Capabilities") && has(f, "\xe2\x94\x82"), "200x60: two "
	    "columns");
	f = uitest_frame(v, m, &st, 80, 24, 0);
	ok(strcmp(f, first) == 0, "back to 80x24: the same frame");
	/* Zoom, focus. */
	ok(press(v, KEYS_CHAR, '2', &cmd) == UI_NONE, "2");
	f = uitest_frame(v, m, &st, 80, 24, 0);
	ok(strncmp(nth_line(f, 3), " 2 GC", 5) == 0 && !has(f, " 1 Capab"),
	    "2 zooms GC: %s", nth_line(f, 3));
	press(v, KEYS_SYM, KEYS_SYM_TAB, &cmd);
	f = uitest_frame(v, m, &st, 80, 24, 0);
	ok(strncmp(nth_line(f, 3), " 3 Heap", 7) == 0, "Tab in a zoom: the "
	    "next pane");
	press(v, KEYS_CHAR, '0', &cmd);
	f = uitest_frame(v, m, &st, 80, 24, 0);
	ok(strcmp(f, first) == 0 && view_pane(v, 2)->focus &&
	    !view_pane(v, 0)->focus, "0: the overview again, focus on heap");
	press(v, KEYS_SYM, KEYS_SYM_ESCAPE, &cmd);
	/* Help. */
	press(v, KEYS_FN, 1, &cmd);
	f = uitest_frame(v, m, &st, 80, 24, 0);
	ok(has(f, "q F10") && has(f, "this help"), "F1: help");
	/* It scrolls at 80x24: End shows the last keys. */
	press(v, KEYS_SYM, KEYS_SYM_END, &cmd);
	f = uitest_frame(v, m, &st, 80, 24, 0);
	ok(has(f, "start heap profiling") && !has(f, "this help"),
	    "help scrolled to its end");
	press(v, KEYS_CHAR, 'x', &cmd);
	f = uitest_frame(v, m, &st, 80, 24, 0);
	ok(!has(f, "this help") && has(f, "F1Help"), "any key leaves help");
	press(v, KEYS_CHAR, '?', &cmd);
	f = uitest_frame(v, m, &st, 80, 24, 0);
	ok(has(f, "this help"), "? is help too");
	press(v, KEYS_CHAR, 'q', &cmd);
	/* Pause. */
	press(v, KEYS_CHAR, ' ', &cmd);
	f = uitest_frame(v, m, &st, 80, 24, 0);
	ok(view_paused(v) && has(nth_line(f, 0), "PAUSED"), "Space pauses");
	press(v, KEYS_CHAR, 'p', &cmd);
	ok(!view_paused(v), "p resumes");
	/* What goes back to the loop. */
	ok(press(v, KEYS_CHAR, 'q', &cmd) == UI_QUIT, "q quits");
	ok(press(v, KEYS_FN, 10, &cmd) == UI_QUIT, "F10 quits");
	ok(press(v, KEYS_CHAR, 'z', &cmd) == UI_RESET_WINDOW, "z resets");
	ok(press(v, KEYS_CHAR, '+', &cmd) == UI_FASTER &&
	    press(v, KEYS_CHAR, '-', &cmd) == UI_SLOWER &&
	    press(v, KEYS_CHAR, '*', &cmd) == UI_MAX_SPEED &&
	    press(v, KEYS_CHAR, 'P', &cmd) == UI_PAUSE_REPLAY &&
	    press(v, KEYS_CHAR, 'e', &cmd) == UI_TO_END, "replay keys");
	ok(press(v, KEYS_CHAR, 'H', &cmd) == UI_NONE, "H on a file: nothing "
	    "sent");
	f = uitest_frame(v, m, &st, 80, 24, 0);
	ok(has(nth_line(f, 23), "need a --unix or --tcp"), "and says why: %s",
	    nth_line(f, 23));
	s = view_new(EVTOP_SRC_UNIX);
	for (i = 0; i < 5; i++) {
		static const int	 keys[5] = { 'T', 't', 'H', 'h', 'c' };

		memset(&cmd, 0, sizeof cmd);
		ok(press(s, KEYS_CHAR, keys[i], &cmd) == UI_SEND &&
		    strcmp(cmd.ns, "eventlog-socket") == 0 && cmd.id == i + 1,
		    "%c sends eventlog-socket %d", keys[i], i + 1);
	}
	st.kind = EVTOP_SRC_UNIX;
	st.conn = EVTOP_CONN_OPEN;
	snprintf(st.cmd_msg, sizeof st.cmd_msg, "sent requestHeapCensus");
	st.cmd_pending = 1;
	f = uitest_frame(s, m, &st, 80, 24, 0);
	ok(has(nth_line(f, 2), "cmd: sent requestHeapCensus"), "the header "
	    "shows the command: %s", nth_line(f, 2));
	st.cmd_pending = 0;
	st.cmd_seen = 1;
	f = uitest_frame(s, m, &st, 100, 24, 0);
	ok(has(nth_line(f, 2), "(seen)"), "and that its effect was seen");
	ok(has(nth_line(f, 23), "H/hHeap"), "socket bar has the control "
	    "keys: %s", nth_line(f, 23));
	ok(press(s, KEYS_CHAR, '+', &cmd) == UI_NONE, "+ on a socket: "
	    "nothing");
	view_free(s);
	/* Too small. */
	f = uitest_frame(v, m, &st, 10, 3, 0);
	ok(has(f, "evtop: te"), "a tiny terminal says so");
	view_free(v);
	model_free(m);
}

/* The line that begins with label, or "". */
static const char *
row_of(const char *text, const char *label)
{
	static char	 buf[4096];
	const char	*p;
	size_t		 n = strlen(label);

	for (p = text; p != NULL; p = strchr(p, '\n'), p = p ? p + 1 : p)
		if (strncmp(p, label, n) == 0)
			return nth_line(p, 0);
	buf[0] = '\0';
	return buf;
}

/* The timeline (8) of a fixture, with its summary and its file. */
static struct view *
tl_view(const char *name, struct model **m, struct tl **tl,
    struct evtop_status *st, char *path, size_t size)
{
	struct evtop_cmd	cmd;
	struct view		*v;

	snprintf(path, size, "%s/%s.eventlog", dir, name);
	*m = uitest_model(path);
	*tl = uitest_tl(path);
	uitest_status(st, path, EVTOP_SRC_FILE);
	st->timeline = *tl;
	v = view_new(EVTOP_SRC_FILE);
	press(v, KEYS_CHAR, '8', &cmd);
	return v;
}

/* Frames until the pane has read what it needs from the file. */
static const char *
tl_frame(struct view *v, const struct model *m, const struct evtop_status *st,
    int w, int h, int ascii)
{
	const char	*f;
	int		 i;

	for (i = 0; i < 50; i++) {
		f = uitest_frame(v, m, st, w, h, ascii);
		if (!view_dirty(v))
			break;
	}
	return f;
}

static void
test_timeline(void)
{
	struct evtop_status	 st;
	struct evtop_cmd	 cmd;
	struct model		*m;
	struct tl		*tl;
	struct view		*v;
	const struct model_gc_rec *r, *longest = NULL;
	const char		*f;
	char			 path[512], want[128], a[FMT_MAX];
	long long		 pauses = figure("gc", "gc", "collections");
	long long		 pmax = figure("gc", "gc", "pause_max_ns");
	uint64_t		 c0;
	int			 i, j, n;
	enum ui_action		 ua;

	v = tl_view("gc", &m, &tl, &st, path, sizeof path);
	if (m == NULL || tl == NULL) {
		ok(0, "timeline: load gc");
		return;
	}
	f = tl_frame(v, m, &st, 200, 60, 0);
	snprintf(want, sizeof want, "whole run %s, %lld GC pauses (longest "
	    "%s)", fmt_ns(a, tl_now(tl) - tl_start(tl)), pauses,
	    fmt_ns(want + 100, (uint64_t)pmax));
	ok(pauses == 205 && has(f, " 8 Timeline") && has(f, want),
	    "200x60: the title has the reference's %lld pauses and longest "
	    "%lld ns: %s", pauses, pmax, line_with(f, "8 Timeline"));
	ok(has(f, "cap 0") && has(f, "cap 1") && !has(f, "cap 2") &&
	    has(f, "\nGC ") && has(f, "\nheap") && has(f, "\nlive") &&
	    has(f, "\nmarks") && has(f, "\ntime "), "200x60: axis, marks, "
	    "2 caps, GC, heap and live rows");
	snprintf(want, sizeof want, "\xe2\x96\xb2%s", fmt_ns(a,
	    (uint64_t)pmax));
	ok(has(row_of(f, "longest"), want), "the longest pause is marked "
	    "%s", want);
	/* Each cap's row: busy cells, blocks of eighths. */
	ok(has(line_with(f, "cap 0"), "\xe2\x96\x88") &&
	    has(row_of(f, "GC "), "\xe2\x96"), "cap and GC rows have "
	    "blocks");
	/* 80x24 has the same rows but live. */
	f = tl_frame(v, m, &st, 80, 24, 0);
	ok(has(f, "cap 0") && has(f, "cap 1") && has(f, "\nGC ") &&
	    has(f, "\ntime "), "80x24: axis, caps and GC");
	f = tl_frame(v, m, &st, 80, 24, 1);
	ok(has(line_with(f, "cap 0"), "#") && !has(f, "\xe2"),
	    "ASCII: # for busy cells, nothing but ASCII");

	/* l: the cursor on the longest pause, the model's record says where
	 * it began. */
	for (i = 0; (r = model_gc_recent(m, i)) != NULL; i++)
		if (longest == NULL || r->end - r->start > longest->end -
		    longest->start)
			longest = r;
	press(v, KEYS_CHAR, 'l', &cmd);
	ok(longest != NULL && view_cursor(v) == longest->start &&
	    longest->end - longest->start == (uint64_t)pmax,
	    "l: the cursor at the longest pause, %s", fmt_time(a,
	    view_cursor(v)));
	press(v, KEYS_CHAR, 'l', &cmd);
	c0 = view_cursor(v);
	press(v, KEYS_CHAR, 'L', &cmd);
	ok(c0 != longest->start && view_cursor(v) == longest->start,
	    "l again: the next longest; L: back to the longest");
	/* Zoom in at it: the status line says what the cursor's column
	 * holds, read from the file. */
	for (i = 0; i < 6; i++)
		press(v, KEYS_CHAR, 'i', &cmd);
	f = tl_frame(v, m, &st, 200, 60, 0);
	snprintf(want, sizeof want, "GC pause %s", fmt_ns(a,
	    (uint64_t)pmax));
	ok(has(f, "x4096") && has(f, want) && !view_dirty(v),
	    "zoomed x4096 at it: %s", line_with(f, "cursor"));
	/* In it, the caps are in GC: GC blocks over the cursor's column. */
	ok(has(row_of(f, "GC "), "\xe2\x96\x88\xe2\x96\x88"),
	    "its pause fills GC cells");
	ua = press(v, KEYS_SYM, KEYS_SYM_ENTER, &cmd);
	ok(ua == UI_SEEK && view_seek_ns(v) == longest->start,
	    "Enter asks the loop to go to the cursor");
	c0 = view_cursor(v);
	press(v, KEYS_SYM, KEYS_SYM_RIGHT, &cmd);
	ok(view_cursor(v) > c0, "Right moves the cursor on");
	press(v, KEYS_SYM, KEYS_SYM_LEFT, &cmd);
	press(v, KEYS_SYM, KEYS_SYM_LEFT, &cmd);
	ok(view_cursor(v) < c0, "Left moves it back");
	press(v, KEYS_CHAR, 'f', &cmd);
	f = tl_frame(v, m, &st, 200, 60, 0);
	ok(has(f, "whole run"), "f: the whole run again");
	press(v, KEYS_SYM, KEYS_SYM_HOME, &cmd);
	ok(view_cursor(v) == tl_start(tl), "Home: the start of the run");
	view_free(v);
	tl_free(tl);
	model_free(m);

	/* Markers: the reference's count, labels on screen, m and M. */
	v = tl_view("messages", &m, &tl, &st, path, sizeof path);
	if (m == NULL || tl == NULL) {
		ok(0, "timeline: load messages");
		return;
	}
	f = tl_frame(v, m, &st, 200, 60, 0);
	snprintf(want, sizeof want, "%lld markers", figure("messages",
	    "messages", "markers"));
	ok(has(f, want) && has(row_of(f, "marks"), "beta phase 3"),
	    "markers: %s, labels in the marks row", want);
	{
		size_t			 nm;
		const struct tl_mark	*mk = tl_marks(tl, &nm);

		press(v, KEYS_SYM, KEYS_SYM_HOME, &cmd);
		press(v, KEYS_CHAR, 'm', &cmd);
		c0 = view_cursor(v);
		press(v, KEYS_CHAR, 'm', &cmd);
		n = view_cursor(v) == mk[1].time;
		press(v, KEYS_CHAR, 'M', &cmd);
		ok(nm == 12 && c0 == mk[0].time && n && view_cursor(v) ==
		    mk[0].time, "m, m, M: the first, second, first marker "
		    "(%s)", mk[0].label);
	}
	view_free(v);
	tl_free(tl);
	model_free(m);

	/* Zoomed in far: the thread each cap runs, by its id. */
	v = tl_view("threads", &m, &tl, &st, path, sizeof path);
	if (m == NULL || tl == NULL) {
		ok(0, "timeline: load threads");
		return;
	}
	tl_frame(v, m, &st, 200, 60, 0);
	for (i = 0; i < 4; i++)
		press(v, KEYS_CHAR, 'i', &cmd);
	f = tl_frame(v, m, &st, 200, 60, 0);
	{
		const char	*row = row_of(f, "cap 0");
		const char	*t = strstr(row + 5, "T");
		uint32_t	 id = t != NULL ? (uint32_t)atoi(t + 1) : 0;

		/* The model knows the thread. */
		ok(t != NULL && id > 0 && model_thread_find(m, id) != NULL,
		    "x256: cap 0 runs T%u, a thread of the run", id);
	}
	/* Up and Down scroll the caps when they do not fit. */
	f = tl_frame(v, m, &st, 80, 8, 0);
	j = has(f, "cap 0");
	press(v, KEYS_SYM, KEYS_SYM_DOWN, &cmd);
	f = tl_frame(v, m, &st, 80, 8, 0);
	ok(j && !has(f, "cap 0") && has(f, "cap 1"), "80x8: Down scrolls to "
	    "cap 1");
	view_free(v);
	tl_free(tl);
	model_free(m);
}

int
main(int argc, char **argv)
{
	if (argc > 1)
		dir = argv[1];
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (setlocale(LC_CTYPE, "C.UTF-8") == NULL)
		setlocale(LC_CTYPE, "");
	test_all_sizes();
	test_gc();
	test_prof();
	test_heap("heap-hc", "by cost centre");
	test_heap("heap-hT", "by closure type");
	test_heap("heap-hy", "by type description");
	test_nonmoving();
	test_messages();
	test_threads();
	test_sparks();
	test_caps_chart();
	test_view();
	test_timeline();
	if (argc > 2) {
		test_gc_many(argv[2]);
		test_corpus(argv[2]);
	}
	return tap_done();
}
