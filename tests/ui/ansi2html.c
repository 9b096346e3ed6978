/*
 * ansi2html.c: a terminal screen as tmux's `capture-pane -e -p` prints it
 * (UTF-8 text and SGR sequences) to an HTML page, for the screenshots.
 *
 *	ansi2html TITLE < screen.ansi > screen.html
 *
 * Colours are the Tango palette on a dark background; bold, dim,
 * underline and reverse video are kept.  Anything else is dropped.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const palette[16] = {
	"#2e3436", "#cc0000", "#4e9a06", "#c4a000", "#3465a4", "#75507b",
	"#06989a", "#d3d7cf", "#555753", "#ef2929", "#8ae234", "#fce94f",
	"#729fcf", "#ad7fa8", "#34e2e2", "#eeeeec",
};
#define DEFAULT_FG	"#d3d7cf"
#define DEFAULT_BG	"#1c1f22"

struct style {
	int	fg, bg;		/* palette index, or -1 */
	int	bold, dim, ul, rev;
};

/* The colour of an xterm 256-colour index. */
static void
colour256(int n, char *buf, size_t size)
{
	static const int	steps[] = { 0, 95, 135, 175, 215, 255 };
	int			r, g, b, v;

	if (n < 0 || n > 255)
		n = 7;
	if (n < 16) {
		snprintf(buf, size, "%s", palette[n]);
		return;
	}
	if (n >= 232) {
		v = (8 + 10 * (n - 232)) & 0xff;
		snprintf(buf, size, "#%02x%02x%02x", v, v, v);
		return;
	}
	n -= 16;
	r = steps[n / 36];
	g = steps[n / 6 % 6];
	b = steps[n % 6];
	snprintf(buf, size, "#%02x%02x%02x", r, g, b);
}

static void
sgr(struct style *s, const int *p, int n)
{
	int	i;

	if (n == 0) {
		memset(s, 0, sizeof *s);
		s->fg = s->bg = -1;
		return;
	}
	for (i = 0; i < n; i++) {
		switch (p[i]) {
		case 0:
			memset(s, 0, sizeof *s);
			s->fg = s->bg = -1;
			break;
		case 1: s->bold = 1; break;
		case 2: s->dim = 1; break;
		case 4: s->ul = 1; break;
		case 7: s->rev = 1; break;
		case 22: s->bold = s->dim = 0; break;
		case 24: s->ul = 0; break;
		case 27: s->rev = 0; break;
		case 39: s->fg = -1; break;
		case 49: s->bg = -1; break;
		case 38:
		case 48:
			if (i + 2 < n && p[i + 1] == 5) {
				if (p[i] == 38)
					s->fg = 256 + p[i + 2];
				else
					s->bg = 256 + p[i + 2];
				i += 2;
			}
			break;
		default:
			if (p[i] >= 30 && p[i] <= 37)
				s->fg = p[i] - 30;
			else if (p[i] >= 40 && p[i] <= 47)
				s->bg = p[i] - 40;
			else if (p[i] >= 90 && p[i] <= 97)
				s->fg = p[i] - 90 + 8;
			else if (p[i] >= 100 && p[i] <= 107)
				s->bg = p[i] - 100 + 8;
			break;
		}
	}
}

static void
colour_of(int c, int bold, const char *dflt, char *buf, size_t size)
{
	if (c < 0)
		snprintf(buf, size, "%s", dflt);
	else if (c >= 256)
		colour256(c - 256, buf, size);
	else
		snprintf(buf, size, "%s", palette[bold && c < 8 ? c + 8 : c]);
}

static void
open_span(const struct style *s)
{
	char	fg[32], bg[32], t[32];

	colour_of(s->fg, s->bold, DEFAULT_FG, fg, sizeof fg);
	colour_of(s->bg, 0, DEFAULT_BG, bg, sizeof bg);
	if (s->rev) {
		memcpy(t, fg, sizeof t);
		memcpy(fg, bg, sizeof fg);
		memcpy(bg, t, sizeof bg);
	}
	printf("<span style=\"color:%s;background:%s%s%s%s\">", fg, bg,
	    s->bold ? ";font-weight:bold" : "",
	    s->dim ? ";opacity:0.65" : "",
	    s->ul ? ";text-decoration:underline" : "");
}

int
main(int argc, char **argv)
{
	struct style	 s;
	int		 c, p[32], np, v, have, open = 0;

	memset(&s, 0, sizeof s);
	s.fg = s.bg = -1;
	printf("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
	    "<title>%s</title><style>\n"
	    "html,body{margin:0;padding:0;background:%s;overflow:hidden}\n"
	    "pre{margin:0;padding:10px;font-family:'DejaVu Sans Mono',"
	    "monospace;font-size:14px;line-height:17px;color:%s}\n"
	    "span{white-space:pre}\n"
	    "</style></head><body><pre>", argc > 1 ? argv[1] : "evtop",
	    DEFAULT_BG, DEFAULT_FG);
	while ((c = getchar()) != EOF) {
		if (c == 0x1b) {
			if ((c = getchar()) != '[') {
				continue;
			}
			np = 0;
			v = 0;
			have = 0;
			while ((c = getchar()) != EOF) {
				if (c >= '0' && c <= '9') {
					v = v * 10 + (c - '0');
					have = 1;
				} else if (c == ';') {
					if (np < 32)
						p[np++] = have ? v : 0;
					v = 0;
					have = 0;
				} else
					break;
			}
			if (have && np < 32)
				p[np++] = v;
			if (c == 'm') {
				sgr(&s, p, np);
				if (open)
					printf("</span>");
				open_span(&s);
				open = 1;
			}
			continue;
		}
		if (c == '\n') {
			if (open)
				printf("</span>");
			putchar('\n');
			if (open)
				open_span(&s);
			continue;
		}
		if (!open) {
			open_span(&s);
			open = 1;
		}
		if (c == '<')
			printf("&lt;");
		else if (c == '>')
			printf("&gt;");
		else if (c == '&')
			printf("&amp;");
		else
			putchar(c);
	}
	if (open)
		printf("</span>");
	printf("</pre></body></html>\n");
	return 0;
}
