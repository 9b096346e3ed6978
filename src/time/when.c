/*
 * when.c: a time as people write it, for `g` and --from/--to: "12.5s",
 * "1m30s", "250ms", "1h2m", "1500us", "90ns", a bare number of seconds,
 * "+5s" or "-5s" from now, "start" and "end".
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "time/when.h"

static const struct {
	const char	*unit;
	double		 ns;
} when_units[] = {
	{ "ms", 1e6 }, { "us", 1e3 }, { "ns", 1 }, { "h", 3600e9 },
	{ "m", 60e9 }, { "s", 1e9 },
};

/*
 * *t from s, now (for + and -) and end (for "end").  0, or -1 when s is
 * not a time (and *t unchanged).
 */
int
when_parse(const char *s, uint64_t now, uint64_t end, uint64_t *t)
{
	double		 total = 0, v;
	const char	*p;
	char		*e;
	int		 sign = 0, parts = 0;
	size_t		 i, n;

	while (isspace((unsigned char)*s))
		s++;
	if (strcmp(s, "end") == 0) {
		*t = end;
		return 0;
	}
	if (strcmp(s, "start") == 0) {
		*t = 0;
		return 0;
	}
	if (*s == '+' || *s == '-')
		sign = *s++ == '+' ? 1 : -1;
	for (p = s; *p != '\0' && !isspace((unsigned char)*p); parts++) {
		if (!isdigit((unsigned char)*p) && *p != '.')
			return -1;
		v = strtod(p, &e);
		if (e == p || !isfinite(v))
			return -1;
		/* Decimal digits only (strtod also takes 0x10 and 1e9). */
		for (; p < e; p++)
			if (!isdigit((unsigned char)*p) && *p != '.')
				return -1;
		for (i = 0; i < sizeof when_units / sizeof when_units[0];
		    i++) {
			n = strlen(when_units[i].unit);
			if (strncmp(p, when_units[i].unit, n) == 0)
				break;
		}
		if (i == sizeof when_units / sizeof when_units[0]) {
			/* No unit: seconds, and only alone. */
			if (parts > 0 || (*p != '\0' &&
			    !isspace((unsigned char)*p)))
				return -1;
			total += v * 1e9;
			continue;
		}
		total += v * when_units[i].ns;
		p += strlen(when_units[i].unit);
	}
	while (isspace((unsigned char)*p))
		p++;
	if (parts == 0 || *p != '\0' || total >= 1.8e19)
		return -1;
	v = floor(total + 0.5);
	if (sign > 0)
		*t = now > UINT64_MAX - (uint64_t)v ? UINT64_MAX :
		    now + (uint64_t)v;
	else if (sign < 0)
		*t = (uint64_t)v > now ? 0 : now - (uint64_t)v;
	else
		*t = (uint64_t)v;
	return 0;
}
