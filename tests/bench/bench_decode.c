/*
 * bench_decode.c: decoder throughput on one core: the file is read into
 * memory first, then fed in 64 KiB chunks; events are counted by kind.
 *
 *	bench_decode [-c] FILE
 *
 * -c: print only the number of events (for the other benchmarks' rates).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "proto.h"

static double
cpu(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

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
	double			 t0, t, c0, c;
	struct rusage		 ru;
	FILE			*f;
	int			 count = 0;

	if (argc == 3 && strcmp(argv[1], "-c") == 0) {
		count = 1;
		argv++;
		argc--;
	}
	if (argc != 2 || (f = fopen(argv[1], "rb")) == NULL)
		return 2;
	fseek(f, 0, SEEK_END);
	n = (size_t)ftell(f);
	rewind(f);
	if ((buf = malloc(n)) == NULL || fread(buf, 1, n, f) != n)
		return 1;
	fclose(f);
	d = proto_dec_new(1 << 20);
	c0 = cpu();
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
	c = cpu() - c0;
	getrusage(RUSAGE_SELF, &ru);
	if (count)
		printf("%llu\n", (unsigned long long)events);
	else
		printf("decode: %.0f MB, %llu events (%llu GC_START) in %.3f s "
		    "(%.3f s CPU): %.0f MB/s, %.1f M events/s; peak RSS %ld MB "
		    "(the file is held in memory)\n", (double)n / 1e6,
		    (unsigned long long)events,
		    (unsigned long long)kinds[PROTO_GC_START], t, c,
		    (double)n / 1e6 / t, (double)events / 1e6 / t,
		    ru.ru_maxrss / 1024);
	proto_dec_free(d);
	free(buf);
	return 0;
}
