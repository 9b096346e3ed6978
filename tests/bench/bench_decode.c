/*
 * bench_decode.c: decoder throughput on one core: the file is read into
 * memory first, then fed in 64 KiB chunks; events are counted by kind.
 *
 *	bench_decode [-c] [-m MB_PER_S] FILE
 *
 * -c: print only the number of events (for the other benchmarks' rates).
 * Three runs; the best must reach MB_PER_S (-m), else it says so and exits
 * 1 (other load on the machine slows a run: the best is the decoder's).
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

/* Decode the n bytes at buf, fed in 64 KiB chunks: the time it took. */
static double
run(const unsigned char *buf, size_t n, uint64_t *events, uint64_t *gcs,
    double *cpu_s)
{
	struct proto_dec	*d = proto_dec_new(1 << 20);
	struct proto_ev		 ev;
	size_t			 used, chunk;
	double			 t0, c0;

	*events = *gcs = 0;
	c0 = cpu();
	t0 = now();
	for (used = 0; used < n; used += chunk) {
		chunk = n - used < 65536 ? n - used : 65536;
		chunk = proto_dec_feed(d, buf + used, chunk);
		while (proto_dec_next(d, &ev) != PROTO_AGAIN) {
			(*events)++;
			*gcs += ev.kind == PROTO_GC_START;
		}
	}
	*cpu_s = cpu() - c0;
	t0 = now() - t0;
	proto_dec_free(d);
	return t0;
}

int
main(int argc, char **argv)
{
	unsigned char		*buf;
	size_t			 n;
	uint64_t		 events, gcs;
	double			 t, c, best = 0, min_mbs = 0;
	struct rusage		 ru;
	FILE			*f;
	int			 count = 0, i;

	for (; argc > 2 && argv[1][0] == '-'; argc--, argv++) {
		if (strcmp(argv[1], "-c") == 0)
			count = 1;
		else if (strcmp(argv[1], "-m") == 0 && argc > 3) {
			min_mbs = strtod(argv[2], NULL);
			argc--;
			argv++;
		} else
			return 2;
	}
	if (argc != 2 || (f = fopen(argv[1], "rb")) == NULL)
		return 2;
	fseek(f, 0, SEEK_END);
	n = (size_t)ftell(f);
	rewind(f);
	if ((buf = malloc(n)) == NULL || fread(buf, 1, n, f) != n)
		return 1;
	fclose(f);
	if (count) {
		run(buf, n, &events, &gcs, &c);
		printf("%llu\n", (unsigned long long)events);
		free(buf);
		return 0;
	}
	for (i = 0; i < 3; i++) {
		t = run(buf, n, &events, &gcs, &c);
		getrusage(RUSAGE_SELF, &ru);
		printf("decode: %.0f MB, %llu events (%llu GC_START) in %.3f s "
		    "(%.3f s CPU): %.0f MB/s, %.1f M events/s; peak RSS %ld MB "
		    "(the file is held in memory)\n", (double)n / 1e6,
		    (unsigned long long)events, (unsigned long long)gcs, t, c,
		    (double)n / 1e6 / t, (double)events / 1e6 / t,
		    ru.ru_maxrss / 1024);
		if (best == 0 || t < best)
			best = t;
	}
	free(buf);
	printf("decode: best of 3: %.0f MB/s, %.1f M events/s", (double)n / 1e6 /
	    best, (double)events / 1e6 / best);
	if (min_mbs > 0 && (double)n / 1e6 / best < min_mbs) {
		printf(": OVER BUDGET (%.0f MB/s wanted)\n", min_mbs);
		return 1;
	}
	if (min_mbs > 0)
		printf(": within budget (>= %.0f MB/s)", min_mbs);
	printf("\n");
	return 0;
}
