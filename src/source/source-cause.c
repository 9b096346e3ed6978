/*
 * source-cause.c: why something failed, as a message the caller frees:
 * what every source, and much else, reports with.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source/source.h"

/* Set *cause to a formatted message (NULL if out of memory). */
void
source_cause(char **cause, const char *fmt, ...)
{
	va_list	ap;
	char	buf[512];

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	*cause = strdup(buf);
}
