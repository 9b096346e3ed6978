/*
 * test-lines.c: the UI's pieces that need neither a terminal nor a model:
 * lines (text, cutting, ellipsis, wide glyphs, unsafe bytes), figures,
 * bars and sparklines, the key table (every key in the help, the bottom
 * bar fitting) and the layout engine (nothing overlaps, nothing outside).
 */
#include <locale.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui.h"
#include "../tap.h"

static void
is(const char *got, const char *want, const char *what)
{
	ok(strcmp(got, want) == 0, "%s: got \"%s\", want \"%s\"", what, got,
	    want);
}

static const char *
row(const struct lines *l, int y)
{
	static char	buf[4096];

	lines_row_text(l, y, buf, sizeof buf);
	return buf;
}

static void
test_lines(void)
{
	struct lines	l;
	int		n;

	lines_init(&l, 10, 3);
	n = lines_put(&l, 0, 0, LINES_NORMAL, "hello", -1);
	ok(n == 5, "put returns the columns used (%d)", n);
	is(row(&l, 0), "hello", "plain text");
	n = lines_put(&l, 1, 0, LINES_NORMAL, "hello world", -1);
	ok(n == 10, "cut text fills its room (%d)", n);
	is(row(&l, 1), "hello wor\xe2\x80\xa6", "cut with an ellipsis");
	lines_put(&l, 2, 4, LINES_NORMAL, "abcdef", 3);
	is(row(&l, 2), "    ab\xe2\x80\xa6", "cut to maxw");
	lines_reset(&l, 10, 3);
	l.ascii = 1;
	lines_put(&l, 0, 0, LINES_NORMAL, "hello world", -1);
	is(row(&l, 0), "hello wor~", "ASCII ellipsis");
	lines_put(&l, 1, 0, LINES_NORMAL, "caf\xc3\xa9", -1);
	is(row(&l, 1), "caf?", "non-ASCII in ASCII mode");
	l.ascii = 0;
	lines_reset(&l, 10, 3);
	/* Wide glyphs take two columns and are never cut in half. */
	n = lines_put(&l, 0, 0, LINES_NORMAL,
	    "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe6\x97\xa5\xe6\x9c\xac"
	    "\xe8\xaa\x9e", -1);
	ok(n == 10, "wide text fills 10 columns (%d)", n);
	is(row(&l, 0), "\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e\xe6\x97\xa5 "
	    "\xe2\x80\xa6", "wide text cut: pad, then the ellipsis");
	/* Control characters and invalid UTF-8 never reach the terminal. */
	lines_put(&l, 1, 0, LINES_NORMAL, "a\x1b[2Jb", -1);
	is(row(&l, 1), "a.[2Jb", "ESC drawn as '.'");
	lines_put_ev(&l, 2, 0, LINES_NORMAL, "x\xff\xfey\x07", 5, -1);
	is(row(&l, 2), "x\xef\xbf\xbd\xef\xbf\xbdy.",
	    "eventlog bytes sanitized");
	lines_reset(&l, 10, 3);
	lines_put_right(&l, 0, 10, LINES_BOLD, "42");
	is(row(&l, 0), "        42", "right-aligned");
	ok(l.cell[8].attr == LINES_BOLD && l.cell[7].attr == LINES_NORMAL,
	    "attributes where the text is");
	/* A filter's matches marked, in any case, wide glyphs included. */
	lines_reset(&l, 10, 3);
	lines_put(&l, 0, 0, LINES_NORMAL, "fib xFIBx", -1);
	lines_mark(&l, 0, 0, "fib", LINES_MATCH);
	ok(l.cell[0].attr == LINES_MATCH && l.cell[2].attr == LINES_MATCH &&
	    l.cell[3].attr == LINES_NORMAL && l.cell[4].attr == LINES_NORMAL &&
	    l.cell[5].attr == LINES_MATCH && l.cell[7].attr == LINES_MATCH &&
	    l.cell[8].attr == LINES_NORMAL, "lines_mark: both matches");
	lines_put(&l, 1, 0, LINES_NORMAL, "a\xe6\x97\xa5\xe6\x9c\xac" "b", -1);
	lines_mark(&l, 1, 0, "\xe6\x97\xa5\xe6\x9c\xac", LINES_MATCH);
	ok(l.cell[10].attr == LINES_NORMAL && l.cell[11].attr == LINES_MATCH &&
	    l.cell[14].attr == LINES_MATCH && l.cell[15].attr == LINES_NORMAL,
	    "lines_mark: wide glyphs");
	lines_reset(&l, 10, 3);
	/* Blit clips. */
	{
		struct lines	s;

		lines_init(&s, 4, 2);
		lines_put(&s, 0, 0, LINES_NORMAL, "abcd", -1);
		lines_put(&s, 1, 0, LINES_NORMAL, "efgh", -1);
		lines_blit(&l, 2, 8, &s);
		is(row(&l, 2), "        ab", "blit clipped at the right");
		lines_free(&s);
	}
	lines_free(&l);
}

static void
test_fmt(void)
{
	char		b[FMT_MAX];
	struct lines	l;
	struct fmt_seg	seg[3];
	double		v[5] = { 0, 1, 2, 3, 4 };
	int		i, c[3];

	is(fmt_bytes(b, 0), "0B", "bytes 0");
	is(fmt_bytes(b, 1023), "1023B", "bytes 1023");
	is(fmt_bytes(b, 1536), "1.50K", "bytes 1.5K");
	is(fmt_bytes(b, 1024), "1.00K", "bytes 1024 is 1K, not 1024B");
	/* Three significant figures up to the next unit digit. */
	is(fmt_bytes(b, 10199), "9.96K", "bytes 9.96K (10199)");
	is(fmt_bytes(b, 10234), "9.99K", "bytes 9.99K (10234)");
	is(fmt_bytes(b, 12 * 1048576 + 300000), "12.3M", "bytes 12.3M");
	is(fmt_bytes(b, 500ULL << 30), "500G", "bytes 500G");
	is(fmt_count(b, 999), "999", "count 999");
	is(fmt_count(b, 1234), "1.2k", "count 1.2k");
	is(fmt_count(b, 45600), "46k", "count 46k");
	is(fmt_count(b, 2.5e6), "2.5M", "count 2.5M");
	is(fmt_ns(b, 850), "850ns", "ns");
	is(fmt_ns(b, 1500), "1.5us", "us");
	/* From 10 us, whole microseconds. */
	is(fmt_ns(b, 25300), "25us", "us 25");
	is(fmt_ns(b, 9990), "10.0us", "us 9.99 rounds to 10.0");
	is(fmt_ns(b, 1234567), "1.23ms", "ms");
	is(fmt_ns(b, 24647627), "24.6ms", "ms 24.6 (gc.eventlog's max)");
	is(fmt_ns(b, 2500000000ULL), "2.50s", "s");
	is(fmt_ns(b, 125000000000ULL), "2m05s", "minutes");
	is(fmt_time(b, 12345000000ULL), "12.345s", "time");
	is(fmt_time(b, 723400000000ULL), "12m03.4s", "time minutes");
	is(fmt_pct(b, 0.123), "12.3%", "pct");
	is(fmt_pct(b, 1), "100%", "pct 100");
	ok(fmt_match("Main.fib", 8, "FIB") && !fmt_match("Main.fib", 8, "x")
	    && fmt_match("x", 1, ""), "case-insensitive match");

	/* Bars: segments take their share of the cells, and no more. */
	lines_init(&l, 20, 2);
	l.mono = 1;
	seg[0].frac = 0.5;
	seg[0].attr = LINES_MUT;
	seg[1].frac = 0.25;
	seg[1].attr = LINES_GC;
	seg[2].frac = 0.25;
	seg[2].attr = LINES_IDLE;
	fmt_bar(&l, 0, 0, 20, seg, 3);
	c[0] = c[1] = c[2] = 0;
	for (i = 0; i < 20; i++) {
		if (l.cell[i].attr == LINES_MUT)
			c[0]++;
		else if (l.cell[i].attr == LINES_GC)
			c[1]++;
		else if (l.cell[i].attr == LINES_IDLE)
			c[2]++;
	}
	ok(c[0] == 10 && c[1] == 5 && c[2] == 5, "bar 50/25/25 of 20: %d %d "
	    "%d", c[0], c[1], c[2]);
	ok(l.cell[0].ch != l.cell[10].ch, "mono: mutator and GC glyphs "
	    "differ");
	lines_reset(&l, 20, 2);
	l.ascii = 1;
	fmt_bar(&l, 0, 0, 20, seg, 3);
	is(row(&l, 0), "##########=====.....", "ASCII mono bar");
	fmt_spark(&l, 1, 0, 5, v, 5, 4, LINES_SPARK);
	is(row(&l, 1), " :=*@", "ASCII sparkline");
	l.ascii = 0;
	fmt_meter(&l, 1, 0, 8, 0.5, LINES_MUT);
	is(row(&l, 1), "\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88\xe2\x96\x88",
	    "meter at half of 8");
	lines_free(&l);
}

/* Does the help's keys text for this binding's action name the key? */
static int
help_names(const struct keys_binding *b)
{
	const struct keys_info	*ki = NULL;
	char			 name[16];
	size_t			 i;

	for (i = 0; i < keys_ninfo(); i++) {
		if (keys_info_at(i)->help != NULL)
			ki = keys_info_at(i);
		if (keys_info_at(i)->action == b->action)
			break;
	}
	if (ki == NULL || i == keys_ninfo())
		return 0;
	if (b->kind == KEYS_FN)
		snprintf(name, sizeof name, "F%d", b->code);
	else if (b->kind == KEYS_CHAR && (b->mods & KEYS_CTRL))
		snprintf(name, sizeof name, "^%c", b->code - 'a' + 'A');
	else if (b->kind == KEYS_CHAR && b->code == ' ')
		snprintf(name, sizeof name, "Space");
	else if (b->kind == KEYS_CHAR)
		snprintf(name, sizeof name, "%c", b->code);
	else {
		static const char *const sym[] = {
			"", "Up", "Down", "Left", "Right", "PgUp", "PgDn",
			"Home", "End", "Tab", "Enter", "Esc", "Backspace",
			"Delete", "Space",
		};
		snprintf(name, sizeof name, "%s%s", b->mods & KEYS_SHIFT ?
		    "S-" : "", sym[b->code]);
	}
	/* A whole word of the keys column. */
	{
		const char	*p = ki->keys;
		size_t		 n = strlen(name);

		while ((p = strstr(p, name)) != NULL) {
			if ((p == ki->keys || p[-1] == ' ') &&
			    (p[n] == '\0' || p[n] == ' '))
				return 1;
			p++;
		}
	}
	return 0;
}

/* Cells [x, x + n) of a row's text, blanks at either end dropped. */
static void
help_cut(char *buf, size_t size, const char *r, int x, int n)
{
	int	len = (int)strlen(r), e;

	for (; n > 0 && x < len && r[x] == ' '; x++, n--)
		;
	if (x >= len || n <= 0) {
		buf[0] = '\0';
		return;
	}
	e = x + n < len ? x + n : len;
	while (e > x && r[e - 1] == ' ')
		e--;
	snprintf(buf, size, "%.*s", e - x, r + x);
}

/*
 * The help read back as a person reads it, at a width of ncol columns:
 * every entry's keys whole in their column and what it does whole (its
 * wrapped rows joined), in the table's order; nothing cut.  Stacked, the
 * keys have a row of their own, what they do below from column 4.
 */
static void
help_whole(int width, int ncol, int stacked)
{
	const struct keys_info	*ki;
	struct lines		 l;
	char			 keys[64], what[512], k2[64], w2[256];
	const char		*r;
	int			 keyw = 0, colw = width / ncol, rows, c, y;
	int			 have = 0, bad = 0, x, cut = 0, tx, entry;
	size_t			 i = 0, k;

	for (k = 0; k < keys_ninfo(); k++) {
		ki = keys_info_at(k);
		if (ki->help != NULL && (int)strlen(ki->keys) > keyw)
			keyw = (int)strlen(ki->keys);
	}
	tx = stacked ? 4 : 3 + keyw;
	if (stacked)
		keyw = colw - 2;
	lines_init(&l, width, 400);
	rows = keys_help_render(&l, 0, 0);
	for (c = 0; c < ncol; c++) {
		x = c * colw;
		for (y = 0; y <= rows; y++) {
			r = row(&l, y);
			if (y < rows && strstr(r, "\xe2\x80\xa6") != NULL)
				cut = 1;
			help_cut(k2, sizeof k2, r, x + 2, stacked ? 2 : keyw);
			if (stacked && k2[0] != '\0')
				help_cut(k2, sizeof k2, r, x + 2, keyw);
			help_cut(w2, sizeof w2, r, x + tx, colw - tx);
			if (stacked && k2[0] != '\0')
				w2[0] = '\0';	/* the keys' own row */
			/* A continuation row: its text after the entry's. */
			entry = y < rows && (int)strlen(r) > x + 1 &&
			    r[x + 1] == ' ';
			if (entry && have && k2[0] == '\0' && w2[0] != '\0') {
				snprintf(what + strlen(what), sizeof what -
				    strlen(what), "%s%s", what[0] ? " " : "",
				    w2);
				continue;
			}
			/* Anything else ends the entry. */
			if (have) {
				while (i < keys_ninfo() &&
				    keys_info_at(i)->help == NULL)
					i++;
				ki = keys_info_at(i++);
				if ((ki == NULL || strcmp(keys, ki->keys) ||
				    strcmp(what, ki->help)) && bad++ < 5)
					ok(0, "%d wide: help reads \"%s\" "
					    "\"%s\", not \"%s\" \"%s\"", width,
					    keys, what, ki ? ki->keys : "",
					    ki ? ki->help : "");
				have = 0;
			}
			if (entry && k2[0] != '\0') {
				snprintf(keys, sizeof keys, "%s", k2);
				snprintf(what, sizeof what, "%s", w2);
				have = 1;
			}
		}
	}
	while (i < keys_ninfo() && keys_info_at(i)->help == NULL)
		i++;
	ok(bad == 0 && i == keys_ninfo() && !cut, "%d wide: every entry of "
	    "the help whole, in %d column(s) of %d rows%s", width, ncol, rows,
	    cut ? "; some cut" : "");
	lines_free(&l);
}

static void
test_keys(void)
{
	const struct keys_binding *b;
	struct keys_key		 k;
	struct lines		 l;
	char			 text[16384];
	size_t			 i;
	int			 rows, all = 1;

	for (i = 0; (b = keys_binding_at(i)) != NULL; i++) {
		if (!help_names(b)) {
			all = 0;
			ok(0, "binding %zu (action %d) is in the help", i,
			    b->action);
		}
	}
	ok(all && i > 40, "every one of %zu bindings is named in the help", i);
	memset(&k, 0, sizeof k);
	k.kind = KEYS_CHAR;
	k.code = 'q';
	ok(keys_lookup(&k) == KEYS_QUIT, "q quits");
	k.code = 'H';
	k.mods = KEYS_SHIFT;
	ok(keys_lookup(&k) == KEYS_HEAP_PROF_ON, "H (with shift) starts heap "
	    "profiling");
	k.kind = KEYS_FN;
	k.code = 10;
	k.mods = 0;
	ok(keys_lookup(&k) == KEYS_QUIT, "F10 quits");
	k.kind = KEYS_SYM;
	k.code = KEYS_SYM_TAB;
	k.mods = KEYS_SHIFT;
	ok(keys_lookup(&k) == KEYS_FOCUS_PREV, "Shift-Tab focuses back");
	k.kind = KEYS_CHAR;
	k.code = 'x';
	k.mods = 0;
	ok(keys_lookup(&k) == KEYS_NONE, "x is not bound");

	/* The help fits 80x40 (39 rows under its title) in two columns;
	 * at 80x24 it scrolls (view.c). */
	lines_init(&l, 80, 40);
	rows = keys_help_render(&l, 0, 0);
	ok(rows <= 39, "help fits 80x40 in two columns (%d rows)", rows);
	lines_text(&l, text, sizeof text);
	ok(strstr(text, "start heap profiling") != NULL &&
	    strstr(text, "request a heap census") != NULL &&
	    strstr(text, "F1 ?") != NULL, "help has control keys and F1");
	lines_free(&l);
	help_whole(80, 2, 0);
	help_whole(75, 1, 0);
	help_whole(20, 1, 1);

	/* The bottom bar fits and keeps Help and Quit. */
	lines_init(&l, 80, 1);
	keys_bar_render(&l, 0, KEYS_SOCKET);
	is(row(&l, 0) + strlen(row(&l, 0)) - 7, "F10Quit", "bar ends in "
	    "F10Quit at 80 (socket)");
	ok(strncmp(row(&l, 0), "F1Help", 6) == 0 && strstr(row(&l, 0),
	    "H/hHeap") != NULL && strstr(row(&l, 0), "+-Speed") == NULL,
	    "socket bar: help, heap keys, no replay keys: %s", row(&l, 0));
	lines_reset(&l, 80, 1);
	keys_bar_render(&l, 0, KEYS_REPLAY);
	ok(strstr(row(&l, 0), "+-Speed") != NULL && strstr(row(&l, 0),
	    "H/h") == NULL, "replay bar: speed, no control: %s", row(&l, 0));
	lines_reset(&l, 30, 1);
	keys_bar_render(&l, 0, KEYS_REPLAY);
	ok(strncmp(row(&l, 0), "F1Help", 6) == 0 && strstr(row(&l, 0),
	    "F10Quit") != NULL && strlen(row(&l, 0)) <= 30,
	    "narrow bar keeps help and quit: %s", row(&l, 0));
	lines_free(&l);
}

static void
test_layout(void)
{
	struct layout_item	it[7];
	static const int	 sizes[][2] = { { 80, 20 }, { 200, 56 },
	    { 100, 8 }, { 160, 30 }, { 40, 3 } };
	int			 s, i, j, overlap, outside, used, shown;

	for (s = 0; s < 5; s++) {
		for (i = 0; i < 7; i++) {
			it[i].min = 2 + i % 3;
			it[i].good = it[i].min + 2;
			it[i].want = i == 3 ? 0 : 4 + 10 * (i % 4);
			it[i].prio = i;
			it[i].col = i >= 4;
		}
		layout_place(it, 7, 0, 3, sizes[s][0], sizes[s][1]);
		overlap = outside = used = shown = 0;
		for (i = 0; i < 7; i++) {
			if (it[i].h == 0)
				continue;
			shown++;
			used += it[i].h * it[i].w;
			if (it[i].x < 0 || it[i].y < 3 || it[i].x + it[i].w >
			    sizes[s][0] || it[i].y + it[i].h > 3 + sizes[s][1])
				outside = 1;
			for (j = 0; j < i; j++) {
				if (it[j].h == 0)
					continue;
				if (it[i].x < it[j].x + it[j].w && it[j].x <
				    it[i].x + it[i].w && it[i].y < it[j].y +
				    it[j].h && it[j].y < it[i].y + it[i].h)
					overlap = 1;
			}
		}
		ok(!overlap && !outside && it[3].h == 0 && shown > 0,
		    "layout %dx%d: %d panes, none overlapping or outside",
		    sizes[s][0], sizes[s][1], shown);
		if (s < 2)
			ok(used >= (sizes[s][0] - 1) * sizes[s][1],
			    "layout %dx%d uses the room (%d of %d cells)",
			    sizes[s][0], sizes[s][1], used, sizes[s][0] *
			    sizes[s][1]);
	}
	ok(layout_columns(80, 24) == 1 && layout_columns(200, 60) == 2,
	    "one column at 80, two at 200");
}

int
main(void)
{
	if (setlocale(LC_CTYPE, "C.UTF-8") == NULL)
		setlocale(LC_CTYPE, "");
	test_lines();
	test_fmt();
	test_keys();
	test_layout();
	return tap_done();
}
