/*
 * t_split.c: the decoder gives the same results however its input is cut.
 *
 * For each file: feed it whole, one byte at a time, and split in two at
 * every offset (files up to SPLIT_ALL bytes, or -a BYTES; a sample of
 * offsets above).
 * Every result (each event's framing, block cap and payload bytes, headers,
 * end markers, skips, errors) is folded into one digest per way of feeding;
 * all digests must agree.  Fields are decoded from the payload alone, so
 * the same payload bytes give the same fields.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"

#define SPLIT_ALL	(24 << 10)
#define SPLIT_SAMPLES	300

struct digest {
	uint64_t	h;
	uint64_t	events;
	uint64_t	errors;
};

static void
mix(struct digest *d, const void *p, size_t n)
{
	const unsigned char	*c = p;
	size_t			 i;

	for (i = 0; i < n; i++) {
		d->h ^= c[i];
		d->h *= 1099511628211ULL;
	}
}

static void
drain(struct proto_dec *dec, struct digest *d)
{
	struct proto_ev	ev;
	enum proto_res	r;
	uint64_t	v[3];

	while ((r = proto_dec_next(dec, &ev)) != PROTO_AGAIN) {
		v[0] = (uint64_t)r;
		v[1] = proto_dec_offset(dec);
		v[2] = 0;
		if (r == PROTO_EVENT) {
			mix(d, ev.payload, ev.len);
			v[1] ^= ev.time * 31 + ((uint64_t)ev.kind << 48) +
			    ((uint64_t)ev.tag << 32) + ev.len;
			v[2] = ev.off ^ ((uint64_t)(uint32_t)ev.cap << 40);
			d->events++;
		} else if (r == PROTO_ERROR) {
			mix(d, proto_dec_error(dec),
			    strlen(proto_dec_error(dec)));
			d->errors++;
		} else if (r == PROTO_SKIP)
			v[2] = proto_dec_skipped(dec);
		mix(d, v, sizeof v);
	}
}

static void
feed(struct proto_dec *dec, const unsigned char *p, size_t n,
    struct digest *d)
{
	size_t	used = 0;

	while (used < n) {
		used += proto_dec_feed(dec, p + used, n - used);
		drain(dec, d);
	}
}

static struct digest
run(const unsigned char *p, size_t n, size_t cut, int bytewise)
{
	struct proto_dec	*dec = proto_dec_new(0);
	struct digest		 d = { 14695981039346656037ULL, 0, 0 };
	size_t			 i;
	uint64_t		 tail;

	if (dec == NULL)
		abort();
	if (bytewise) {
		for (i = 0; i < n; i++)
			feed(dec, p + i, 1, &d);
	} else {
		feed(dec, p, cut, &d);
		feed(dec, p + cut, n - cut, &d);
	}
	tail = proto_dec_pending(dec);
	mix(&d, &tail, sizeof tail);
	proto_dec_free(dec);
	return d;
}

static int
same(struct digest a, struct digest b)
{
	return a.h == b.h && a.events == b.events && a.errors == b.errors;
}

int
main(int argc, char **argv)
{
	unsigned char	*p;
	struct digest	 whole, d;
	size_t		 n, cut, step;
	FILE		*f;
	size_t		 all = SPLIT_ALL;
	int		 i = 1, passed = 0, failed = 0, bad;

	if (argc > 2 && strcmp(argv[1], "-a") == 0) {
		all = (size_t)strtoul(argv[2], NULL, 10);
		i = 3;
	}
	for (; i < argc; i++) {
		if ((f = fopen(argv[i], "rb")) == NULL) {
			perror(argv[i]);
			return 1;
		}
		fseek(f, 0, SEEK_END);
		n = (size_t)ftell(f);
		rewind(f);
		if ((p = malloc(n ? n : 1)) == NULL ||
		    fread(p, 1, n, f) != n)
			return 1;
		fclose(f);

		whole = run(p, n, n, 0);
		bad = 0;
		d = run(p, n, 0, 1);
		if (!same(d, whole)) {
			printf("not ok - %s: byte at a time differs\n",
			    argv[i]);
			bad = 1;
		}
		step = n <= all ? 1 : n / SPLIT_SAMPLES + 1;
		for (cut = 0; cut <= n && !bad; cut += step) {
			d = run(p, n, cut, 0);
			if (!same(d, whole)) {
				printf("not ok - %s: split at %zu differs\n",
				    argv[i], cut);
				bad = 1;
			}
		}
		if (whole.events == 0) {
			printf("not ok - %s: no events at all\n", argv[i]);
			bad = 1;
		}
		if (bad)
			failed++;
		else {
			passed++;
			printf("ok - %s: %llu events, %llu errors, %s splits\n",
			    argv[i], (unsigned long long)whole.events,
			    (unsigned long long)whole.errors,
			    step == 1 ? "all" : "sampled");
		}
		free(p);
	}
	printf("split: %d passed, %d failed\n", passed, failed);
	return failed != 0;
}
