/*
 * lines.c: a grid of cells (code point plus attribute) that panes draw
 * into, like htop's RichString but two-dimensional.  Nothing here knows
 * about the terminal: ui.c copies a grid to curses, tests read it back
 * as text.
 *
 * Text is cut to the room it is given; when it does not fit, its last
 * column becomes an ellipsis ("…", or "~" in ASCII), so a word is never
 * cut silently.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "ui.h"

#define LINES_REPLACEMENT 0xfffd

void
lines_init(struct lines *l, int width, int height)
{
	memset(l, 0, sizeof *l);
	lines_reset(l, width, height);
}

void
lines_free(struct lines *l)
{
	free(l->cell);
	l->cell = NULL;
	l->alloc = 0;
}

/* Resize to width x height and clear to blanks. */
void
lines_reset(struct lines *l, int width, int height)
{
	size_t	n, i;

	if (width < 0)
		width = 0;
	if (height < 0)
		height = 0;
	n = (size_t)width * (size_t)height;
	if (n > l->alloc) {
		free(l->cell);
		l->cell = calloc(n, sizeof *l->cell);
		if (l->cell == NULL) {
			l->alloc = 0;
			l->width = l->height = 0;
			return;
		}
		l->alloc = n;
	}
	l->width = width;
	l->height = height;
	for (i = 0; i < n; i++) {
		l->cell[i].ch = ' ';
		l->cell[i].attr = LINES_NORMAL;
	}
}

/* Columns a code point takes: 0 (dropped), 1 or 2. */
static int
lines_cp_width(uint32_t c, int ascii)
{
	int	w;

	if (c < 0x20 || c == 0x7f)
		return 1;	/* drawn as '.' */
	if (c < 0x7f)
		return 1;
	if (ascii)
		return 1;	/* drawn as '?' */
	if (c >= 0x80 && c < 0xa0)
		return 1;
	w = wcwidth((wchar_t)c);
	if (w < 0)
		return 1;	/* drawn as U+FFFD */
	return w > 2 ? 2 : w;
}

/* The code point a cell holds for c. */
static uint32_t
lines_cp_cell(uint32_t c, int ascii)
{
	if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0))
		return '.';
	if (c < 0x7f)
		return c;
	if (ascii)
		return '?';
	if (wcwidth((wchar_t)c) < 0)
		return LINES_REPLACEMENT;
	return c;
}

/* The columns n bytes of UTF-8 take. */
int
lines_width(const char *s, size_t n, int ascii)
{
	size_t		i = 0;
	uint32_t	c;
	int		w = 0;

	while (i < n && s[i] != '\0') {
		i += proto_utf8_next(s + i, n - i, &c);
		w += lines_cp_width(c, ascii);
	}
	return w;
}

static struct lines_cell *
lines_at(struct lines *l, int y, int x)
{
	if (l->cell == NULL || y < 0 || y >= l->height || x < 0 ||
	    x >= l->width)
		return NULL;
	return &l->cell[(size_t)y * (size_t)l->width + (size_t)x];
}

/* Put one glyph at (y, x); wide ones take two cells. */
void
lines_putc(struct lines *l, int y, int x, int attr, uint32_t c)
{
	struct lines_cell	*cell;
	int			 w;

	if ((cell = lines_at(l, y, x)) == NULL)
		return;
	/* Overwriting half of a wide glyph blanks the other half. */
	if (cell->ch == 0 && x > 0)
		cell[-1].ch = ' ';
	w = lines_cp_width(c, l->ascii);
	if (w == 0)
		return;
	if (w == 2 && x + 1 >= l->width) {
		cell->ch = ' ';
		cell->attr = (uint8_t)attr;
		return;
	}
	cell->ch = lines_cp_cell(c, l->ascii);
	cell->attr = (uint8_t)attr;
	if (w == 2) {
		if (x + 2 < l->width && cell[2].ch == 0)
			cell[2].ch = ' ';
		cell[1].ch = 0;
		cell[1].attr = (uint8_t)attr;
	} else if (x + 1 < l->width && cell[1].ch == 0)
		cell[1].ch = ' ';
}

/*
 * Put n bytes of UTF-8 at (y, x) in at most maxw columns (< 0: to the
 * right edge).  If it does not fit, the last column is an ellipsis.
 * Returns the columns used.
 */
int
lines_putn(struct lines *l, int y, int x, int attr, const char *s, size_t n,
    int maxw)
{
	size_t		i, j;
	uint32_t	c;
	int		w, cw, room, total, ell;

	if (y < 0 || y >= l->height || x >= l->width || x < 0)
		return 0;
	room = l->width - x;
	if (maxw >= 0 && maxw < room)
		room = maxw;
	if (room <= 0)
		return 0;
	total = lines_width(s, n, l->ascii);
	ell = total > room;
	w = 0;
	for (i = 0; i < n && s[i] != '\0'; i = j) {
		j = i + proto_utf8_next(s + i, n - i, &c);
		cw = lines_cp_width(c, l->ascii);
		if (cw == 0)
			continue;
		if (w + cw > room - ell)
			break;
		lines_putc(l, y, x + w, attr, c);
		w += cw;
	}
	if (ell) {
		/* Pad a wide glyph's leftover column before the ellipsis. */
		while (w < room - 1)
			lines_putc(l, y, x + w++, attr, ' ');
		lines_putc(l, y, x + w++, attr, l->ascii ? '~' : 0x2026);
	}
	return w;
}

int
lines_put(struct lines *l, int y, int x, int attr, const char *s, int maxw)
{
	return lines_putn(l, y, x, attr, s, strlen(s), maxw);
}

int
lines_putf(struct lines *l, int y, int x, int attr, int maxw,
    const char *fmt, ...)
{
	char	buf[1024];
	va_list	ap;
	int	n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n < 0)
		return 0;
	return lines_put(l, y, x, attr, buf, maxw);
}

/* Put s so that its last column is xend - 1; returns its first column. */
int
lines_put_right(struct lines *l, int y, int xend, int attr, const char *s)
{
	int	w = lines_width(s, strlen(s), l->ascii), x = xend - w;

	if (x < 0)
		x = 0;
	lines_put(l, y, x, attr, s, xend - x);
	return x;
}

/*
 * Put text that came from the eventlog: any bytes at all, made safe by
 * proto_sanitize first.  Only what can show is sanitized.
 */
int
lines_put_ev(struct lines *l, int y, int x, int attr, const char *s,
    size_t n, int maxw)
{
	char	buf[2048];
	size_t	k, cap;

	if (s == NULL)
		return 0;
	cap = (size_t)(l->width > 0 ? l->width : 1) * 4 + 8;
	if (n > cap)
		n = cap;
	k = proto_sanitize(s, n, buf, sizeof buf - 1);
	buf[k] = '\0';
	return lines_putn(l, y, x, attr, buf, k, maxw);
}

/* Fill n cells from (y, x) with glyph c. */
void
lines_fill(struct lines *l, int y, int x, int n, int attr, uint32_t c)
{
	int	i;

	for (i = 0; i < n; i++)
		lines_putc(l, y, x + i, attr, c);
}

/* Set the attribute of n cells from (y, x), keeping their glyphs. */
void
lines_attr(struct lines *l, int y, int x, int n, int attr)
{
	struct lines_cell	*cell;
	int			 i;

	for (i = 0; i < n; i++) {
		if ((cell = lines_at(l, y, x + i)) != NULL)
			cell->attr = (uint8_t)attr;
	}
}

static uint32_t
lines_fold(uint32_t c)
{
	return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/*
 * Give the cells of row y from column x on that spell needle (ignoring
 * ASCII case) the attribute attr: a filter's matches stand out.
 */
void
lines_mark(struct lines *l, int y, int x, const char *needle, int attr)
{
	uint32_t		 want[PANE_FILTER_MAX];
	struct lines_cell	*row;
	size_t			 i = 0, n = strlen(needle);
	int			 k = 0, c, j, d;

	if (y < 0 || y >= l->height || l->cell == NULL || x < 0)
		return;
	while (i < n && k < PANE_FILTER_MAX) {
		i += proto_utf8_next(needle + i, n - i, &want[k]);
		want[k] = lines_fold(want[k]);
		k++;
	}
	if (k == 0)
		return;
	row = &l->cell[(size_t)y * l->width];
	for (c = x; c < l->width; c++) {
		/* Match k glyphs, skipping the right halves of wide ones. */
		for (j = 0, d = c; j < k && d < l->width; d++) {
			if (row[d].ch == 0 && d > c)
				continue;
			if (lines_fold(row[d].ch) != want[j])
				break;
			j++;
		}
		if (j < k)
			continue;
		while (d < l->width && row[d].ch == 0)
			d++;	/* the last glyph's right half */
		for (; c < d; c++)
			row[c].attr = (uint8_t)attr;
		c--;
	}
}

/* Copy src onto dst with its top left corner at (y, x), clipped. */
void
lines_blit(struct lines *dst, int y, int x, const struct lines *src)
{
	int	r, w;

	if (src->cell == NULL || dst->cell == NULL || x >= dst->width ||
	    x < 0)
		return;
	w = src->width;
	if (x + w > dst->width)
		w = dst->width - x;
	for (r = 0; r < src->height; r++) {
		if (y + r < 0 || y + r >= dst->height)
			continue;
		memcpy(&dst->cell[(size_t)(y + r) * dst->width + x],
		    &src->cell[(size_t)r * src->width],
		    (size_t)w * sizeof *src->cell);
		/* A wide glyph cut at the right edge becomes a blank. */
		if (w > 0 && w < src->width &&
		    src->cell[(size_t)r * src->width + w].ch == 0)
			dst->cell[(size_t)(y + r) * dst->width + x + w - 1].ch =
			    ' ';
	}
}

/* Row y as UTF-8 without trailing blanks; returns its length. */
size_t
lines_row_text(const struct lines *l, int y, char *buf, size_t size)
{
	const struct lines_cell	*cell;
	size_t			 o = 0, end = 0;
	char			 tmp[4];
	size_t			 k;
	int			 x;

	if (size == 0)
		return 0;
	if (y >= 0 && y < l->height && l->cell != NULL) {
		cell = &l->cell[(size_t)y * l->width];
		for (x = 0; x < l->width; x++) {
			if (cell[x].ch == 0)
				continue;
			k = proto_utf8_put(cell[x].ch, tmp);
			if (o + k >= size)
				break;
			memcpy(buf + o, tmp, k);
			o += k;
			if (cell[x].ch != ' ')
				end = o;
		}
	}
	buf[end] = '\0';
	return end;
}

/* The whole grid as text, one line per row; returns its length. */
size_t
lines_text(const struct lines *l, char *buf, size_t size)
{
	size_t	o = 0;
	int	y;

	if (size == 0)
		return 0;
	buf[0] = '\0';
	for (y = 0; y < l->height && o + 1 < size; y++) {
		o += lines_row_text(l, y, buf + o, size - o - 1);
		buf[o++] = '\n';
		buf[o] = '\0';
	}
	return o;
}
