/*
 * outbuf.c: text appended to a buffer the caller owns and written to a
 * FILE with one fwrite when done, or each time the buffer fills: the JSON
 * of a model snapshot without printf.  Numbers are formatted by hand;
 * doubles exactly as printf's "%.Nf" prints them (below).
 */
#include <stdio.h>
#include <string.h>

#include "model/model-priv.h"

/* Room for a u64, an i64 or a "%.4f" of a double below 2^64. */
#define OUTBUF_NUM	32

void
outbuf_init(struct outbuf *ob, char *buf, size_t size, FILE *f)
{
	ob->buf = buf;
	ob->size = size;
	ob->len = 0;
	ob->f = f;
}

void
outbuf_flush(struct outbuf *ob)
{
	if (ob->len > 0)
		fwrite(ob->buf, 1, ob->len, ob->f);
	ob->len = 0;
}

void
outbuf_bytes(struct outbuf *ob, const void *p, size_t n)
{
	const char	*s = p;
	size_t		 k;

	while (n > ob->size - ob->len) {
		k = ob->size - ob->len;
		memcpy(ob->buf + ob->len, s, k);
		ob->len += k;
		s += k;
		n -= k;
		outbuf_flush(ob);
	}
	memcpy(ob->buf + ob->len, s, n);
	ob->len += n;
}

/* At least n bytes free at ob->buf + ob->len (n <= OUTBUF_MIN). */
static char *
outbuf_room(struct outbuf *ob, size_t n)
{
	if (ob->size - ob->len < n)
		outbuf_flush(ob);
	return ob->buf + ob->len;
}

/* The decimal digits of v, ending at end; returns where they start.  Two
 * at a time: half the divisions. */
static char *
outbuf_digits(char *end, uint64_t v)
{
	static const char	 pairs[201] =
	    "00010203040506070809"
	    "10111213141516171819"
	    "20212223242526272829"
	    "30313233343536373839"
	    "40414243444546474849"
	    "50515253545556575859"
	    "60616263646566676869"
	    "70717273747576777879"
	    "80818283848586878889"
	    "90919293949596979899";
	unsigned		 r;

	while (v >= 100) {
		r = (unsigned)(v % 100);
		v /= 100;
		end -= 2;
		memcpy(end, pairs + 2 * r, 2);
	}
	if (v >= 10) {
		end -= 2;
		memcpy(end, pairs + 2 * v, 2);
	} else
		*--end = (char)('0' + v);
	return end;
}

void
outbuf_u64(struct outbuf *ob, uint64_t v)
{
	char	 tmp[20], *p;
	size_t	 n;

	p = outbuf_digits(tmp + sizeof tmp, v);
	n = (size_t)(tmp + sizeof tmp - p);
	memcpy(outbuf_room(ob, n), p, n);
	ob->len += n;
}

void
outbuf_i64(struct outbuf *ob, int64_t v)
{
	char	 tmp[21], *p;
	size_t	 n;

	/* The magnitude as unsigned: -INT64_MIN does not fit an int64_t. */
	p = outbuf_digits(tmp + sizeof tmp,
	    v < 0 ? 0 - (uint64_t)v : (uint64_t)v);
	if (v < 0)
		*--p = '-';
	n = (size_t)(tmp + sizeof tmp - p);
	memcpy(outbuf_room(ob, n), p, n);
	ob->len += n;
}

/*
 * printf("%.*f", prec, v) rounds the exact binary value of v to prec
 * decimals, to nearest and a tie to even (glibc, default rounding mode).
 * For a finite v with |v| < 2^64 and prec <= OUTBUF_PREC this does the
 * same in integers: v = m * 2^-k with m < 2^53; the integer part is
 * m >> k and the fraction F / 2^k.  Each decimal is 10F / 2^k, computed
 * as 5F / 2^(k-1) so that F never exceeds m * 5^prec < 2^63.  What is
 * left of F after the last decimal, against half of 2^k, rounds.
 * Anything else goes to snprintf (not finite, huge, or more decimals;
 * its text cut at 399 bytes, which prec <= 80 never reaches).
 */
void
outbuf_fixed(struct outbuf *ob, double v, int prec)
{
	static const uint32_t	 pow10[OUTBUF_PREC + 1] = {
		1, 10, 100, 1000, 10000
	};
	char			 tmp[400], *q;
	uint64_t		 bits, m, ip, fr, q10, half;
	int			 ex, k, i, n, up;

	memcpy(&bits, &v, sizeof bits);
	ex = (int)(bits >> 52 & 0x7ff);
	m = bits & ((1ULL << 52) - 1);
	if (ex != 0)
		m |= 1ULL << 52;
	/* v = m * 2^(ex - 1075), or m * 2^-1074 when subnormal. */
	k = ex == 0 ? 1074 : 1075 - ex;
	if (ex == 0x7ff || k < -11 || prec < 0 || prec > OUTBUF_PREC) {
		n = snprintf(tmp, sizeof tmp, "%.*f", prec, v);
		if (n < 0)
			return;
		outbuf_bytes(ob, tmp, (size_t)n < sizeof tmp ?
		    (size_t)n : sizeof tmp - 1);
		return;
	}
	if (k <= 0) {
		ip = m << -k;
		fr = 0;
	} else if (k >= 64) {
		ip = 0;
		fr = m;
	} else {
		ip = m >> k;
		fr = m & ((1ULL << k) - 1);
	}
	/* The decimals, as one integer below 10^prec; fr < 2^k throughout
	 * and stays 0 once it is (then k no longer moves). */
	q10 = 0;
	for (i = 0; i < prec; i++) {
		q10 *= 10;
		if (fr == 0)
			continue;
		fr *= 5;
		k--;
		if (k < 64) {
			q10 += fr >> k;
			fr &= (1ULL << k) - 1;
		}
	}
	/* Round: fr / 2^k against 1/2.  With k > 64, fr < 2^63 < 2^(k-1). */
	if (fr != 0 && k <= 64) {
		half = 1ULL << (k - 1);
		up = fr > half ||
		    (fr == half && ((prec > 0 ? q10 : ip) & 1) != 0);
		if (up && prec == 0)
			ip++;
		else if (up && ++q10 == pow10[prec]) {
			q10 = 0;
			ip++;
		}
	}

	/* From the end: the decimals zero-padded, the point, the integer
	 * part, the sign (printf's "-0.0000" for a negative v included). */
	q = tmp + sizeof tmp;
	for (i = 0; i < prec; i++) {
		*--q = (char)('0' + q10 % 10);
		q10 /= 10;
	}
	if (prec > 0)
		*--q = '.';
	q = outbuf_digits(q, ip);
	if (bits >> 63)
		*--q = '-';
	n = (int)(tmp + sizeof tmp - q);
	memcpy(outbuf_room(ob, OUTBUF_NUM), q, (size_t)n);
	ob->len += (size_t)n;
}

/* A JSON string: '"' and '\' escaped with '\', other control bytes and
 * DEL as \u00XX; every other byte, UTF-8 or not, as it is. */
void
outbuf_json(struct outbuf *ob, const char *s)
{
	static const char	 hex[] = "0123456789abcdef";
	const unsigned char	*p = (const unsigned char *)s, *run;
	char			*e;

	outbuf_char(ob, '"');
	for (;;) {
		run = p;
		while (*p >= 0x20 && *p != '"' && *p != '\\' && *p != 0x7f)
			p++;
		if (p > run)
			outbuf_bytes(ob, run, (size_t)(p - run));
		if (*p == '\0')
			break;
		e = outbuf_room(ob, 6);
		if (*p == '"' || *p == '\\') {
			e[0] = '\\';
			e[1] = (char)*p;
			ob->len += 2;
		} else {
			memcpy(e, "\\u00", 4);
			e[4] = hex[*p >> 4];
			e[5] = hex[*p & 15];
			ob->len += 6;
		}
		p++;
	}
	outbuf_char(ob, '"');
}
