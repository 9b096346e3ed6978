/*
 * text.c: strings from the eventlog, which may be any bytes at all.
 *
 * Each function writes at most outsize bytes and returns how many it wrote;
 * output is cut at a character boundary when it does not fit.
 */
#include <stdio.h>
#include <string.h>

#include "proto.h"

#define REPLACEMENT 0xfffd

/* Decode one code point; an invalid byte decodes alone as U+FFFD. */
size_t
proto_utf8_next(const char *s, size_t n, uint32_t *cp)
{
	const unsigned char	*p = (const unsigned char *)s;
	uint32_t		 c = p[0], min;
	size_t		len, i;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		c &= 0x1f;
		min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		c &= 0x0f;
		min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		c &= 0x07;
		min = 0x10000;
	} else {
		*cp = REPLACEMENT;
		return 1;
	}
	if (n < len) {
		*cp = REPLACEMENT;
		return 1;
	}
	for (i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80) {
			*cp = REPLACEMENT;
			return 1;
		}
		c = (c << 6) | (p[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) {
		*cp = REPLACEMENT;
		return 1;
	}
	*cp = c;
	return len;
}

/* Encode one code point; out has room for 4 bytes. */
size_t
proto_utf8_put(uint32_t c, char *out)
{
	if (c < 0x80) {
		out[0] = (char)c;
		return 1;
	}
	if (c < 0x800) {
		out[0] = (char)(0xc0 | (c >> 6));
		out[1] = (char)(0x80 | (c & 0x3f));
		return 2;
	}
	if (c < 0x10000) {
		out[0] = (char)(0xe0 | (c >> 12));
		out[1] = (char)(0x80 | ((c >> 6) & 0x3f));
		out[2] = (char)(0x80 | (c & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (c >> 18));
	out[1] = (char)(0x80 | ((c >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((c >> 6) & 0x3f));
	out[3] = (char)(0x80 | (c & 0x3f));
	return 4;
}

/* Valid UTF-8 out: each invalid input byte becomes U+FFFD. */
size_t
proto_utf8_lenient(const char *in, size_t n, char *out, size_t outsize)
{
	const unsigned char	*p = (const unsigned char *)in;
	size_t			 i = 0, o = 0, k;
	uint32_t		 c;
	char			 tmp[4];

	while (i < n) {
		if (p[i] < 0x80) {
			if (o + 1 > outsize)
				break;
			out[o++] = (char)p[i++];
			continue;
		}
		i += proto_utf8_next((const char *)p + i, n - i, &c);
		k = proto_utf8_put(c, tmp);
		if (o + k > outsize)
			break;
		memcpy(out + o, tmp, k);
		o += k;
	}
	return o;
}

/* C0 and C1 controls, DEL, and the line and bidi controls are '.'. */
static uint32_t
drawable(uint32_t c)
{
	if (c < 0x20 || (c >= 0x7f && c < 0xa0) || c == 0x2028 ||
	    c == 0x2029 || (c >= 0x202a && c <= 0x202e) ||
	    (c >= 0x2066 && c <= 0x2069))
		return '.';
	return c;
}

/*
 * Safe to draw on a terminal: valid UTF-8 without C0 or C1 controls or
 * DEL (each becomes '.'); invalid bytes become U+FFFD.
 */
size_t
proto_sanitize(const char *in, size_t n, char *out, size_t outsize)
{
	const unsigned char	*p = (const unsigned char *)in;
	size_t			 i = 0, o = 0, k;
	uint32_t		 c;
	char			 tmp[4];

	while (i < n) {
		i += proto_utf8_next((const char *)p + i, n - i, &c);
		k = proto_utf8_put(drawable(c), tmp);
		if (o + k > outsize)
			break;
		memcpy(out + o, tmp, k);
		o += k;
	}
	return o;
}

/* Whether s[0..n) begins with a byte that is not UTF-8. */
static int
invalid_at(const char *s, size_t n)
{
	uint32_t	c;

	return n > 0 && proto_utf8_next(s, n, &c) == 1 &&
	    c == REPLACEMENT;
}

/*
 * proto_sanitize() for a name (a cost centre's, a band's, an info
 * table's): an invalid byte becomes "\xNN" rather than U+FFFD, so that
 * two names apart in their bytes (Latin-1) stay apart.  A backslash that
 * would read as the start of such an escape ('x', a backslash or an
 * invalid byte after it) is doubled; a lone one, as a lambda's "\", is
 * left.  An escape is written whole or not at all.
 */
size_t
proto_sanitize_name(const char *in, size_t n, char *out, size_t outsize)
{
	const unsigned char	*p = (const unsigned char *)in;
	size_t			 i = 0, o = 0, k, len;
	uint32_t		 c;
	char			 tmp[8];

	while (i < n) {
		len = proto_utf8_next((const char *)p + i, n - i, &c);
		if (len == 1 && c == REPLACEMENT)
			k = (size_t)snprintf(tmp, sizeof tmp, "\\x%02x", p[i]);
		else if (c == '\\' && i + 1 < n && (p[i + 1] == 'x' ||
		    p[i + 1] == '\\' || invalid_at(in + i + 1, n - i - 1)))
			k = (size_t)snprintf(tmp, sizeof tmp, "\\\\");
		else
			k = proto_utf8_put(drawable(c), tmp);
		if (o + k > outsize)
			break;
		memcpy(out + o, tmp, k);
		o += k;
		i += len;
	}
	return o;
}

static const char *const ascii_names[32] = {
	"NUL", "SOH", "STX", "ETX", "EOT", "ENQ", "ACK", "a", "b", "t",
	"n", "v", "f", "r", "SO", "SI", "DLE", "DC1", "DC2", "DC3", "DC4",
	"NAK", "SYN", "ETB", "CAN", "EM", "SUB", "ESC", "FS", "GS", "RS", "US",
};

/*
 * One character as Haskell's showLitChar writes it inside a string;
 * next is the following character (-1 at the end), for the \& rule.
 */
static size_t
show_char(uint32_t c, int64_t next, char *out)
{
	int	n;

	if (c == '"')
		return (size_t)sprintf(out, "\\\"");
	if (c == '\\')
		return (size_t)sprintf(out, "\\\\");
	if (c >= 0x20 && c < 0x7f) {
		out[0] = (char)c;
		return 1;
	}
	if (c == 0x7f)
		return (size_t)sprintf(out, "\\DEL");
	if (c < 0x20) {
		n = sprintf(out, "\\%s", ascii_names[c]);
		if (c == 0x0e && next == 'H')
			n += sprintf(out + n, "\\&");
		return (size_t)n;
	}
	n = sprintf(out, "\\%u", c);
	if (next >= '0' && next <= '9')
		n += sprintf(out + n, "\\&");
	return (size_t)n;
}

/* Decode the code point at i, or -1 at the end. */
static int64_t
peek(const unsigned char *p, size_t n, size_t i)
{
	uint32_t	c;

	if (i >= n)
		return -1;
	proto_utf8_next((const char *)p + i, n - i, &c);
	return c;
}

/*
 * NUL-separated strings (PROGRAM_ARGS, PROGRAM_ENV) as Haskell's show prints
 * a [String]: trailing NULs are dropped, then the rest is split at each NUL.
 */
size_t
proto_haskell_show_list(const char *in, size_t n, char *out, size_t outsize)
{
	const unsigned char	*p = (const unsigned char *)in;
	size_t			 i = 0, o = 0, k;
	uint32_t		 c;
	char			 tmp[32];

	while (n > 0 && p[n - 1] == '\0')
		n--;
	if (outsize < 4)
		return 0;
	out[o++] = '[';
	out[o++] = '"';
	while (i < n) {
		if (p[i] == '\0') {
			if (o + 3 > outsize - 2)
				break;
			memcpy(out + o, "\",\"", 3);
			o += 3;
			i++;
			continue;
		}
		i += proto_utf8_next((const char *)p + i, n - i, &c);
		k = show_char(c, i < n && p[i] == '\0' ? -1 :
		    peek(p, n, i), tmp);
		if (o + k > outsize - 2)
			break;
		memcpy(out + o, tmp, k);
		o += k;
	}
	out[o++] = '"';
	out[o++] = ']';
	return o;
}
