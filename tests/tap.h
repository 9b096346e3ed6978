/*
 * tap.h: the C tests' checks, TAP-ish: "ok N - what" or "not ok N - what"
 * for each, then "N passed, N failed" from tap_done(), whose value is the
 * exit status.  Header-only: each test program is one file.
 */
#ifndef TAP_H
#define TAP_H

#include <stdarg.h>
#include <stdio.h>

static int	tap_passed, tap_failed;

static __attribute__((unused, format(printf, 2, 3))) void
ok(int cond, const char *fmt, ...)
{
	va_list	ap;

	if (cond)
		tap_passed++;
	else
		tap_failed++;
	printf("%s %d - ", cond ? "ok" : "not ok", tap_passed + tap_failed);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

static __attribute__((unused)) int
tap_done(void)
{
	printf("%d passed, %d failed\n", tap_passed, tap_failed);
	return tap_failed != 0;
}

#endif
