/*
 * t_when.c: times as people write them (src/time/when.c).
 */
#include <stdint.h>
#include <stdio.h>

#include "time/when.h"
#include "../tap.h"

#define NOW	(10ULL * 1000000000ULL)
#define END	(99ULL * 1000000000ULL)

static void
is(const char *s, uint64_t want)
{
	uint64_t	t = 12345;
	int		rc = when_parse(s, NOW, END, &t);

	ok(rc == 0 && t == want, "\"%s\" is %llu ns (got %llu, rc %d)", s,
	    (unsigned long long)want, (unsigned long long)t, rc);
}

static void
bad(const char *s)
{
	uint64_t	t = 12345;

	ok(when_parse(s, NOW, END, &t) == -1 && t == 12345,
	    "\"%s\" is not a time, and changes nothing", s);
}

int
main(void)
{
	is("12.5s", 12500000000ULL);
	is("12.5", 12500000000ULL);
	is("0.2", 200000000ULL);
	is("1m30s", 90000000000ULL);
	is("1m", 60000000000ULL);
	is("250ms", 250000000ULL);
	is("1500us", 1500000ULL);
	is("90ns", 90ULL);
	is("123456789ns", 123456789ULL);
	is("1h2m3s", 3723000000000ULL);
	is("+5s", NOW + 5000000000ULL);
	is("-5s", NOW - 5000000000ULL);
	is("-1m", 0);
	is("end", END);
	is("start", 0);
	is(" 2s ", 2000000000ULL);
	bad("");
	bad("s");
	bad("12x");
	bad("1m30");
	bad("1.2.3s");
	bad("5 s");
	bad("abc");
	bad("+");
	bad("1e30s");
	bad("0x10");
	bad("0x10s");
	bad("1e9");
	bad("2E3ms");
	return tap_done();
}
