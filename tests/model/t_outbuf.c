/*
 * t_outbuf.c: the JSON writer (src/model/outbuf.c) against what printf and the
 * former fprintf-based js_str() print: every byte escaped, integer edges,
 * and doubles in every decimal count done by hand over ties, near-ties
 * and random bit patterns; then the same text through a minimal buffer
 * that flushes often.
 *
 *	build/tests/t_outbuf
 */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model-priv.h"
#include "../tap.h"

#define BIG	(1 << 20)

static char	 big[BIG];

/* A writer that never flushes; its text is big[0 .. ob.len). */
static void
fresh(struct outbuf *ob)
{
	outbuf_init(ob, big, sizeof big, NULL);
}

static int
same(const struct outbuf *ob, const char *want)
{
	return ob->len == strlen(want) && memcmp(ob->buf, want, ob->len) == 0;
}

/* The former js_str() of model-out.c, as it was. */
static void
old_js_str(FILE *f, const char *s)
{
	const unsigned char	*p = (const unsigned char *)s;

	fputc('"', f);
	for (; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

static int
json_ok(const char *s)
{
	struct outbuf	 ob;
	char		*want = NULL;
	size_t		 n = 0;
	FILE		*f;
	int		 r;

	if ((f = open_memstream(&want, &n)) == NULL)
		return 0;
	old_js_str(f, s);
	fclose(f);
	fresh(&ob);
	outbuf_json(&ob, s);
	r = same(&ob, want);
	free(want);
	return r;
}

static void
test_json(void)
{
	struct outbuf	 ob;
	char		 s[260];
	int		 b, bad = 0;

	for (b = 1; b < 256; b++) {
		s[0] = 'a';
		s[1] = (char)b;
		s[2] = 'z';
		s[3] = '\0';
		if (!json_ok(s)) {
			bad++;
			printf("# byte %d differs\n", b);
		}
		s[0] = (char)b;		/* alone, then first and last */
		s[1] = '\0';
		bad += !json_ok(s);
	}
	ok(bad == 0, "each byte 1..255 escaped as js_str did (%d differ)",
	    bad);
	for (b = 1; b < 256; b++)
		s[b - 1] = (char)b;
	s[255] = '\0';
	ok(json_ok(s), "bytes 1..255 in one string");
	for (b = 1; b < 256; b++)
		s[b - 1] = (char)(256 - b);
	ok(json_ok(s), "bytes 255..1 in one string");
	ok(json_ok(""), "the empty string");
	fresh(&ob);
	outbuf_json(&ob, "a\0b");
	ok(same(&ob, "\"a\""), "a NUL ends the string");
	fresh(&ob);
	outbuf_json(&ob, "\"\\\x01\x1f\x7f\x80\xff");
	ok(same(&ob, "\"\\\"\\\\\\u0001\\u001f\\u007f\x80\xff\""),
	    "quote, backslash, controls, DEL, high bytes as they are");
}

static void
test_ints(void)
{
	static const uint64_t	 u[] = {
		0, 1, 9, 10, 11, 99, 100, 101, 4294967295ULL, 4294967296ULL,
		999999999999999999ULL, 1000000000000000000ULL,
		9999999999999999999ULL, 10000000000000000000ULL,
		UINT64_MAX - 1, UINT64_MAX
	};
	static const int64_t	 s[] = {
		0, 1, -1, 9, -9, 10, -10, INT32_MIN, INT32_MAX,
		INT64_MAX, INT64_MIN + 1, INT64_MIN
	};
	struct outbuf		 ob;
	char			 want[32];
	uint64_t		 p;
	size_t			 i;
	int			 bad = 0, n = 0;

	for (i = 0; i < sizeof u / sizeof u[0]; i++) {
		fresh(&ob);
		outbuf_u64(&ob, u[i]);
		snprintf(want, sizeof want, "%" PRIu64, u[i]);
		ok(same(&ob, want), "u64 %s", want);
	}
	for (i = 0; i < sizeof s / sizeof s[0]; i++) {
		fresh(&ob);
		outbuf_i64(&ob, s[i]);
		snprintf(want, sizeof want, "%" PRId64, s[i]);
		ok(same(&ob, want), "i64 %s", want);
	}
	/* Each power of ten and its neighbours, both signs. */
	for (p = 1; p <= 1000000000000000000ULL; p *= 10) {
		for (i = 0; i < 3; i++) {
			fresh(&ob);
			outbuf_u64(&ob, p - 1 + i);
			snprintf(want, sizeof want, "%" PRIu64, p - 1 + i);
			bad += !same(&ob, want);
			fresh(&ob);
			outbuf_i64(&ob, -(int64_t)(p - 1 + i));
			snprintf(want, sizeof want, "%" PRId64,
			    -(int64_t)(p - 1 + i));
			bad += !same(&ob, want);
			n += 2;
		}
	}
	ok(bad == 0, "powers of ten and neighbours: %d of %d differ", bad, n);
}

/* splitmix64: a fixed sequence, the same on every run. */
static uint64_t
rnd(uint64_t *st)
{
	uint64_t	z = (*st += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double
from_bits(uint64_t b)
{
	double	v;

	memcpy(&v, &b, sizeof v);
	return v;
}

struct dtally {
	int		 n, bad;
};

/* outbuf_fixed(v, prec) against snprintf("%.*f"). */
static void
dbl_one(struct dtally *t, double v, int prec)
{
	struct outbuf	 ob;
	char		 want[400];

	fresh(&ob);
	outbuf_fixed(&ob, v, prec);
	snprintf(want, sizeof want, "%.*f", prec, v);
	t->n++;
	if (!same(&ob, want)) {
		if (t->bad++ < 10)
			printf("# %.*f: %a gives %.*s\n", prec, v, v,
			    (int)ob.len, ob.buf);
	}
}

/* v, its neighbours, and the same negated. */
static void
dbl_near(struct dtally *t, double v, int prec)
{
	dbl_one(t, v, prec);
	dbl_one(t, -v, prec);
	dbl_one(t, nextafter(v, HUGE_VAL), prec);
	dbl_one(t, nextafter(v, -HUGE_VAL), prec);
}

static void
test_doubles(void)
{
	static const double	 fixed[] = {
		0, 0.5, 1.5, 2.5, 3.5, 0.25, 0.75, 0.125, 0.375, 0.0625,
		0.03125, 0.09375, 0.00005, 0.00015, 0.00025, 0.0005, 0.0015,
		0.05, 0.15, 0.45, 0.12345, 0.99995, 0.999949999, 9.99995,
		99.99995, 0.049999999, 1e-10, 1e-5, 1e-4, 1e-3, 0.1, 0.2,
		0.3, 1.0 / 3, 2.0 / 3, 1, 10, 1e6, 123456.789, 1e15, 1e16,
		9007199254740991.0, 9007199254740992.0, 9007199254740993.0,
		4503599627370495.5, 4503599627370496.5, 1e18, 9.2e18,
		18446744073709549568.0, 18446744073709551616.0, 1e19, 1e20,
		1e300, DBL_MAX, DBL_MIN, DBL_MIN / 3, DBL_TRUE_MIN,
		DBL_EPSILON, 0.1 + 0.2
	};
	static const int	 precs[] = { 0, 1, 2, 3, 4, 6 };
	struct dtally		 t;
	struct outbuf		 ob;
	uint64_t		 st = 1, b, e;
	double			 v, unit;
	size_t			 i;
	int			 p, pi, j;

	for (pi = 0; pi < (int)(sizeof precs / sizeof precs[0]); pi++) {
		p = precs[pi];
		memset(&t, 0, sizeof t);
		for (i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
			dbl_near(&t, fixed[i], p);
		ok(t.bad == 0, "%%.%df: %d chosen values and neighbours, "
		    "%d differ", p, t.n, t.bad);

		/* The exact ties, (2j+1) / 2^(p+1), at small and large
		 * integer parts, and their neighbours. */
		memset(&t, 0, sizeof t);
		unit = ldexp(1, -(p + 1));
		for (j = 0; j < 5000; j++) {
			dbl_near(&t, (2 * j + 1) * unit, p);
			dbl_near(&t, ldexp(1, 40) + (2 * j + 1) * unit, p);
		}
		ok(t.bad == 0, "%%.%df: %d exact ties and neighbours, "
		    "%d differ", p, t.n, t.bad);

		/* The decimal midpoints j/10^p + 5/10^(p+1), which are not
		 * doubles: the nearest double and its neighbours. */
		memset(&t, 0, sizeof t);
		for (j = 0; j < 5000; j++)
			dbl_near(&t, (j + 0.5) / pow(10, p), p);
		ok(t.bad == 0, "%%.%df: %d values near decimal midpoints, "
		    "%d differ", p, t.n, t.bad);

		/* Random bit patterns: any exponent up to 2^70, then
		 * uniform in [0, 1) and [0, 1e7), then anything at all
		 * (NaN and infinities included). */
		memset(&t, 0, sizeof t);
		for (j = 0; j < 30000; j++) {
			b = rnd(&st);
			e = (b >> 52 & 0x7ff) % (1023 + 71);
			v = from_bits((b & 0x800fffffffffffffULL) | e << 52);
			dbl_one(&t, v, p);
			dbl_one(&t, (double)(rnd(&st) >> 11) * 0x1p-53, p);
			dbl_one(&t, (double)(rnd(&st) >> 11) * 0x1p-53 * 1e7,
			    p);
			dbl_one(&t, from_bits(rnd(&st)), p);
		}
		ok(t.bad == 0, "%%.%df: %d random values, %d differ", p,
		    t.n, t.bad);
	}

	memset(&t, 0, sizeof t);
	for (p = 0; p <= 4; p++) {
		dbl_one(&t, NAN, p);
		dbl_one(&t, -NAN, p);
		dbl_one(&t, HUGE_VAL, p);
		dbl_one(&t, -HUGE_VAL, p);
	}
	ok(t.bad == 0, "NaN and infinities as printf prints them");
	fresh(&ob);
	outbuf_fixed(&ob, -0.0, 4);
	ok(same(&ob, "-0.0000"), "-0.0 keeps its sign");
	/* By hand, from the exact values: 0.00015 is 0.000149999..., the
	 * double 0.99995 is 0.9999500000000000055..., 1/32 and 3/32 are
	 * ties at 4 decimals, 2.5 one at none. */
	fresh(&ob);
	outbuf_fixed(&ob, 0.00015, 4);
	ok(same(&ob, "0.0001"), "0.00015: 0.0001");
	fresh(&ob);
	outbuf_fixed(&ob, 0.99995, 4);
	ok(same(&ob, "1.0000"), "0.99995: 1.0000, a carry into the units");
	fresh(&ob);
	outbuf_fixed(&ob, 0.03125, 4);
	outbuf_fixed(&ob, 0.09375, 4);
	outbuf_fixed(&ob, 2.5, 0);
	outbuf_fixed(&ob, 3.5, 0);
	outbuf_fixed(&ob, 0.25, 1);
	ok(same(&ob, "0.03120.0938240.2"), "ties to even");
}

/* One random item, the same for a given state: a string with any bytes
 * (some long), or a number of any kind. */
static void
put_random(struct outbuf *ob, uint64_t *st)
{
	char		 s[300];
	uint64_t	 r = rnd(st);
	size_t		 n, i;

	switch (r % 6) {
	case 0:
		n = (size_t)(rnd(st) % (r & 64 ? 299 : 12));
		for (i = 0; i < n; i++)
			s[i] = (char)(1 + rnd(st) % 255);
		s[n] = '\0';
		outbuf_json(ob, s);
		break;
	case 1:
		outbuf_str(ob, ",\"a_key\":");
		break;
	case 2:
		outbuf_u64(ob, rnd(st) >> (rnd(st) % 64));
		break;
	case 3:
		outbuf_i64(ob, (int64_t)rnd(st) >> (rnd(st) % 64));
		break;
	case 4:
		outbuf_fixed(ob, (double)(rnd(st) >> 11) * 0x1p-40,
		    (int)(rnd(st) % 5));
		break;
	default:
		outbuf_char(ob, (char)('a' + r % 26));
		break;
	}
}

static void
test_flush(void)
{
	struct outbuf	 ob;
	char		 small[OUTBUF_MIN], *got = NULL;
	size_t		 n = 0, want;
	uint64_t	 st;
	FILE		*f;
	int		 i;

	st = 7;
	fresh(&ob);
	for (i = 0; i < 3000; i++)
		put_random(&ob, &st);
	want = ob.len;
	if ((f = open_memstream(&got, &n)) == NULL) {
		ok(0, "open_memstream");
		return;
	}
	st = 7;
	outbuf_init(&ob, small, sizeof small, f);
	for (i = 0; i < 3000; i++)
		put_random(&ob, &st);
	outbuf_flush(&ob);
	fclose(f);
	ok(want < sizeof big && n == want && memcmp(got, big, n) == 0,
	    "%zu bytes through a %d-byte buffer as through a big one", want,
	    OUTBUF_MIN);
	free(got);
}

int
main(void)
{
	test_json();
	test_ints();
	test_doubles();
	test_flush();
	return tap_done();
}
