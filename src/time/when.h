/* when.h: times as people write them (when.c). */
#ifndef WHEN_H
#define WHEN_H

#include <stdint.h>

int	 when_parse(const char *, uint64_t, uint64_t, uint64_t *);

#endif
