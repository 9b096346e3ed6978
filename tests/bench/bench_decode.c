/*
 * bench_decode.c: decoder throughput on one core: the file is read into
 * memory first, then fed in 64 KiB chunks; events are counted by kind.
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "proto.h"

static double
now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int
main(int argc, char **argv)
{
	struct proto_dec	*d;
	struct proto_ev		 ev;
	unsigned char		*buf;
	size_t			 n, used, chunk;
	uint64_t		 events = 0, kinds[256] = { 0 };
	double			 t0, t;
	FILE			*f;

	if (argc != 2 || (f = fopen(argv[1], "rb")) == NULL)
		return 2;
	fseek(f, 0, SEEK_END);
	n = (size_t)ftell(f);
	rewind(f);
	if ((buf = malloc(n)) == NULL || fread(buf, 1, n, f) != n)
		return 1;
	fclose(f);
	d = proto_dec_new(1 << 20);
	t0 = now();
	for (used = 0; used < n; used += chunk) {
		chunk = n - used < 65536 ? n - used : 65536;
		chunk = proto_dec_feed(d, buf + used, chunk);
		while (proto_dec_next(d, &ev) != PROTO_AGAIN) {
			events++;
			kinds[ev.kind & 0xff]++;
		}
	}
	t = now() - t0;
	printf("decode: %.0f MB in %.3f s: %.0f MB/s, %.1f M events/s "
	    "(%llu events, %llu GC_START)\n", (double)n / 1e6, t,
	    (double)n / 1e6 / t, (double)events / 1e6 / t,
	    (unsigned long long)events,
	    (unsigned long long)kinds[PROTO_GC_START]);
	proto_dec_free(d);
	free(buf);
	return 0;
}
