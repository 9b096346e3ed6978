/*
 * loop-base.c: the poll loop's log (--log) and its clocks.
 */
#include <stdio.h>
#include <stdarg.h>
#include <time.h>

#include "loop/loop-priv.h"

void
loop_log(struct loop *l, const char *fmt, ...)
{
	struct timespec	ts;
	va_list		ap;

	if (l->log == NULL)
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	fprintf(l->log, "%lld.%03ld ", (long long)ts.tv_sec,
	    ts.tv_nsec / 1000000);
	va_start(ap, fmt);
	vfprintf(l->log, fmt, ap);
	va_end(ap);
	fputc('\n', l->log);
	fflush(l->log);
}

uint64_t
loop_wall(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int
loop_min_timeout(int a, int b)
{
	if (a < 0)
		return b;
	if (b < 0)
		return a;
	return a < b ? a : b;
}

int
loop_ms_until(uint64_t at, uint64_t now)
{
	uint64_t	ms;

	if (at <= now)
		return 0;
	ms = (at - now + 999999) / 1000000;
	return ms > 60000 ? 60000 : (int)ms;
}
