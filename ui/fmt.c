/*
 * fmt.c: figures as short text (at most FMT_MAX bytes, into the caller's
 * buffer), bars and sparklines drawn into lines.
 *
 * Bars are told apart by colour, and by glyph when there is no colour;
 * Unicode block elements in a UTF-8 locale, ASCII otherwise.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ui.h"

/* 1536 -> "1.5K": binary multiples, three significant figures at most. */
const char *
fmt_bytes(char *buf, uint64_t v)
{
	static const char	 units[] = "KMGTPE";
	double			 d = (double)v;
	int			 u = -1;

	if (v < 1024) {
		snprintf(buf, FMT_MAX, "%lluB", (unsigned long long)v);
		return buf;
	}
	while (d >= 1024 && u < 5) {
		d /= 1024;
		u++;
	}
	if (d < 9.995)
		snprintf(buf, FMT_MAX, "%.2f%c", d, units[u]);
	else if (d < 99.95)
		snprintf(buf, FMT_MAX, "%.1f%c", d, units[u]);
	else
		snprintf(buf, FMT_MAX, "%.0f%c", d, units[u]);
	return buf;
}

/* Bytes per second. */
const char *
fmt_rate(char *buf, double v)
{
	size_t	n;

	if (!(v > 0))
		v = 0;
	if (v > 1e19)
		v = 1e19;
	fmt_bytes(buf, (uint64_t)v);
	n = strlen(buf);
	snprintf(buf + n, FMT_MAX - n, "/s");
	return buf;
}

/* A count: 999, 1.2k, 12k, 123k, 1.2M ... */
const char *
fmt_count(char *buf, double v)
{
	static const char	 units[] = "kMGTPE";
	int			 u = -1;

	if (!(v >= 0))
		v = 0;
	if (v < 999.5) {
		if (v == floor(v) || v >= 99.95)
			snprintf(buf, FMT_MAX, "%.0f", v);
		else
			snprintf(buf, FMT_MAX, "%.1f", v);
		return buf;
	}
	while (v >= 999.5 && u < 5) {
		v /= 1000;
		u++;
	}
	if (v < 9.95)
		snprintf(buf, FMT_MAX, "%.1f%c", v, units[u]);
	else
		snprintf(buf, FMT_MAX, "%.0f%c", v, units[u]);
	return buf;
}

/* A duration: 850ns 12us 1.2ms 12ms 1.23s 12.3s 2m05s 1h02m. */
const char *
fmt_ns(char *buf, uint64_t ns)
{
	double	d = (double)ns;
	uint64_t s;

	if (ns < 1000)
		snprintf(buf, FMT_MAX, "%lluns", (unsigned long long)ns);
	else if (ns < 1000000 && ns % 1000 == 0)
		snprintf(buf, FMT_MAX, "%lluus", (unsigned long long)ns / 1000);
	else if (ns >= 1000000 && ns < 1000000000 && ns % 1000000 == 0)
		snprintf(buf, FMT_MAX, "%llums",
		    (unsigned long long)ns / 1000000);
	else if (ns >= 1000000000 && ns < 60000000000ULL &&
	    ns % 1000000000 == 0)
		snprintf(buf, FMT_MAX, "%llus",
		    (unsigned long long)ns / 1000000000);
	else if (ns < 9995)
		snprintf(buf, FMT_MAX, "%.1fus", d / 1e3);
	else if (ns < 999500)
		snprintf(buf, FMT_MAX, "%.0fus", d / 1e3);
	else if (ns < 9995000)
		snprintf(buf, FMT_MAX, "%.2fms", d / 1e6);
	else if (ns < 99950000)
		snprintf(buf, FMT_MAX, "%.1fms", d / 1e6);
	else if (ns < 999500000)
		snprintf(buf, FMT_MAX, "%.0fms", d / 1e6);
	else if (ns < 9995000000ULL)
		snprintf(buf, FMT_MAX, "%.2fs", d / 1e9);
	else if (ns < 59950000000ULL)
		snprintf(buf, FMT_MAX, "%.1fs", d / 1e9);
	else {
		s = ns / 1000000000ULL;
		if (s < 3600)
			snprintf(buf, FMT_MAX, "%llum%02llus",
			    (unsigned long long)(s / 60),
			    (unsigned long long)(s % 60));
		else
			snprintf(buf, FMT_MAX, "%lluh%02llum",
			    (unsigned long long)(s / 3600),
			    (unsigned long long)(s / 60 % 60));
	}
	return buf;
}

/* A point in time since the program started: 12.345s, 12m03.4s, 1h02m03s. */
const char *
fmt_time(char *buf, uint64_t ns)
{
	uint64_t	s = ns / 1000000000ULL;

	if (s < 60)
		snprintf(buf, FMT_MAX, "%.3fs", (double)ns / 1e9);
	else if (s < 3600)
		snprintf(buf, FMT_MAX, "%llum%04.1fs",
		    (unsigned long long)(s / 60),
		    (double)(ns % 60000000000ULL) / 1e9);
	else
		snprintf(buf, FMT_MAX, "%lluh%02llum%02llus",
		    (unsigned long long)(s / 3600),
		    (unsigned long long)(s / 60 % 60),
		    (unsigned long long)(s % 60));
	return buf;
}

/* A fraction as a percentage: 0.0% 12.3% 100%. */
const char *
fmt_pct(char *buf, double f)
{
	if (!(f >= 0))
		f = 0;
	f *= 100;
	if (f >= 99.95)
		snprintf(buf, FMT_MAX, "%.0f%%", f > 1e6 ? 1e6 : f);
	else
		snprintf(buf, FMT_MAX, "%.1f%%", f);
	return buf;
}

/* The glyph a bar segment is drawn with. */
static uint32_t
fmt_seg_glyph(const struct lines *l, int i, int attr)
{
	static const uint32_t	 uni[] = { 0x2588, 0x2592, 0x2593, 0x2591 };
	static const uint32_t	 asc[] = { '#', '=', '%', '-' };

	if (attr == LINES_IDLE)
		return l->ascii ? '.' : 0x2591;
	if (!l->mono)
		return l->ascii ? '|' : 0x2588;
	i %= 4;
	return l->ascii ? asc[i] : uni[i];
}

/*
 * A bar of w cells split into segments.  Each segment ends at the cell
 * nearest to the running total, so the segments add up to the whole.
 */
void
fmt_bar(struct lines *l, int y, int x, int w, const struct fmt_seg *seg,
    int nseg)
{
	double	cum = 0, f;
	int	i, from = 0, to;

	if (w <= 0)
		return;
	lines_fill(l, y, x, w, LINES_NORMAL, ' ');
	for (i = 0; i < nseg; i++) {
		f = seg[i].frac;
		if (!(f > 0))
			continue;
		cum += f;
		if (cum > 1)
			cum = 1;
		to = (int)lround(cum * w);
		/* Something non-zero shows as one cell at least. */
		if (to == from && from < w && f * w >= 0.05)
			to = from + 1;
		lines_fill(l, y, x + from, to - from, seg[i].attr,
		    fmt_seg_glyph(l, i, seg[i].attr));
		from = to;
	}
}

/* A one-value bar with eighths of a cell in Unicode. */
void
fmt_meter(struct lines *l, int y, int x, int w, double frac, int attr)
{
	static const uint32_t	 eighth[] = { 0, 0x258f, 0x258e, 0x258d,
	    0x258c, 0x258b, 0x258a, 0x2589 };
	double			 cells;
	int			 full, part;

	if (w <= 0)
		return;
	if (!(frac > 0))
		frac = 0;
	if (frac > 1)
		frac = 1;
	lines_fill(l, y, x, w, LINES_NORMAL, ' ');
	cells = frac * w;
	if (l->ascii) {
		full = (int)lround(cells);
		if (full == 0 && frac > 0)
			full = 1;
		lines_fill(l, y, x, full, attr, l->mono ? '#' : '|');
		return;
	}
	full = (int)floor(cells);
	part = (int)lround((cells - full) * 8);
	if (part == 8) {
		full++;
		part = 0;
	}
	if (full == 0 && part == 0 && frac > 0)
		part = 1;
	lines_fill(l, y, x, full, attr, 0x2588);
	if (part > 0 && full < w)
		lines_putc(l, y, x + full, attr, eighth[part]);
}

/*
 * The last w of n values (oldest first), right-aligned, scaled to max
 * (<= 0: the largest shown).  Zero is a blank, anything more at least the
 * lowest level.
 */
void
fmt_spark(struct lines *l, int y, int x, int w, const double *v, int n,
    double max, int attr)
{
	static const uint32_t	 uni[] = { 0x2581, 0x2582, 0x2583, 0x2584,
	    0x2585, 0x2586, 0x2587, 0x2588 };
	static const char	 asc[] = ".:-=+*#@";
	int			 i, first, lvl;
	double			 f;

	if (w <= 0)
		return;
	lines_fill(l, y, x, w, attr, ' ');
	first = n > w ? n - w : 0;
	if (!(max > 0)) {
		max = 0;
		for (i = first; i < n; i++)
			if (v[i] > max)
				max = v[i];
	}
	for (i = first; i < n; i++) {
		if (!(v[i] > 0) || !(max > 0))
			continue;
		f = v[i] / max;
		if (f > 1)
			f = 1;
		lvl = (int)ceil(f * 8) - 1;
		if (lvl < 0)
			lvl = 0;
		lines_putc(l, y, x + w - (n - i), attr,
		    l->ascii ? (uint32_t)asc[lvl] : uni[lvl]);
	}
}

/* Does n bytes of s contain needle, ignoring ASCII case?  "" matches. */
int
fmt_match(const char *s, size_t n, const char *needle)
{
	size_t	k = strlen(needle), i, j;

	if (k == 0)
		return 1;
	if (s == NULL)
		return 0;
	for (i = 0; i + k <= n; i++) {
		for (j = 0; j < k; j++) {
			if (tolower((unsigned char)s[i + j]) !=
			    tolower((unsigned char)needle[j]))
				break;
		}
		if (j == k)
			return 1;
	}
	return 0;
}
