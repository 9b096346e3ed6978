/*
 * bench_model.c: throughput of the model.
 *
 *	bench_model [-m] FILE [MIN_EVENTS]
 *
 * -m: the model-only part alone (for profiling).
 * 1. merge + model: FILE through reader_next() into one model, as
 *    `evtop --batch` does; a small FILE is replayed again and again (each
 *    copy's times shifted past the previous one's, so the model sees one
 *    long run) until MIN_EVENTS (default 20 million) have been applied.
 *    Peak RSS (getrusage) is taken after this part.
 * 1b. the reader alone, for comparison.
 * 2. model only: the same events (at most the first EVBUF_MAX) decoded
 *    once into memory, then unpacked (proto_fields) and applied as fast as
 *    they can be, again and again until MIN_EVENTS; the time of a pass
 *    that only unpacks them is subtracted.
 * 3. live: the file's bytes decoded in arrival order into a model with the
 *    default reorder buffer.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

#include "evtop.h"
#include "model/model.h"

static double
now_s(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static long
rss_kib(void)
{
	struct rusage	ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

static void
report(const char *what, uint64_t events, uint64_t bytes, double secs)
{
	printf("%-16s %12llu events %8.1f MB  %6.3f s  %7.1f M events/s  "
	    "%7.1f MB/s\n", what, (unsigned long long)events,
	    (double)bytes / 1e6, secs, (double)events / secs / 1e6,
	    (double)bytes / secs / 1e6);
}

/*
 * Events kept in memory compactly (as a decoder's input is): a record per
 * event and the payloads, so replaying them touches as little memory as
 * decoding would; each is unpacked into one hot struct proto_ev.
 */
#define EVBUF_MAX	4000000		/* events kept: a large FILE's first */

struct rec {
	uint64_t	 time;
	uint32_t	 pay, len, size;
	int32_t		 cap;
	uint16_t	 tag, kind;
};

struct evbuf {
	struct rec	*r;
	uint8_t		*pay;
	size_t		 n, cap, pn, pcap;
};

static void
evbuf_add(struct evbuf *b, const struct proto_ev *e)
{
	struct rec	*r;

	if (b->n == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 4096;
		if ((b->r = realloc(b->r, b->cap * sizeof *b->r)) == NULL)
			abort();
	}
	if (b->pn + e->len > b->pcap) {
		b->pcap = 2 * (b->pn + e->len) + 65536;
		if ((b->pay = realloc(b->pay, b->pcap)) == NULL)
			abort();
	}
	r = &b->r[b->n++];
	r->time = e->time;
	r->pay = (uint32_t)b->pn;
	r->len = e->len;
	r->size = e->size;
	r->cap = e->cap;
	r->tag = e->tag;
	r->kind = e->kind;
	if (e->len > 0)
		memcpy(b->pay + b->pn, e->payload, e->len);
	b->pn += e->len;
}

int
main(int argc, char **argv)
{
	struct reader	*mg;
	struct model	*m;
	struct proto_ev	 e;
	struct evbuf	 eb = { 0 };
	struct proto_dec *d;
	struct stat	 st;
	enum proto_res	 r;
	char		*cause = NULL;
	uint64_t	 min = 20000000, events = 0, bytes = 0, shift = 0;
	uint64_t	 last = 0, first = 0, span;
	double		 t0, t1;
	size_t		 i, off, got;
	long		 rss;
	int		 only_model = 0, pass;
	double		 tp[2];
	volatile uint32_t sink = 0;
	uint8_t		*raw;
	FILE		*f;

	if (argc > 1 && strcmp(argv[1], "-m") == 0) {
		only_model = 1;
		argc--;
		argv++;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: bench_model [-m] FILE [MIN_EVENTS]\n");
		return 2;
	}
	if (argc > 2)
		min = strtoull(argv[2], NULL, 10);
	if (stat(argv[1], &st) == -1) {
		perror(argv[1]);
		return 1;
	}
	printf("bench_model: %s (%.1f MB)\n", argv[1],
	    (double)st.st_size / 1e6);

	if (only_model)
		goto model_only;

	/* 1. merge + model. */
	m = model_new();
	model_set_reorder(m, 0, 0);
	t0 = now_s();
	do {
		if ((mg = reader_open(argv[1], &cause)) == NULL) {
			fprintf(stderr, "bench_model: %s\n", cause);
			return 1;
		}
		if (events == 0)
			model_header(m, reader_dec(mg));
		first = 0;
		while (reader_next(mg, &e) == PROTO_EVENT) {
			if (first == 0)
				first = e.time;
			e.time += shift;
			last = e.time;
			model_apply(m, &e);
			events++;
			bytes += e.size;
		}
		reader_free(mg);
		shift = last + 1000000 - first;
	} while (events < min && events > 0);
	model_flush(m);
	t1 = now_s();
	rss = rss_kib();
	report("merge+model", events, bytes, t1 - t0);
	printf("%-16s %ld KiB peak RSS; model: %llu threads, %llu GCs\n", "",
	    rss, (unsigned long long)m->threads.created,
	    (unsigned long long)m->gc.collections);
	model_free(m);

	/* 1b. merge alone, for comparison. */
	events = bytes = 0;
	t0 = now_s();
	do {
		if ((mg = reader_open(argv[1], &cause)) == NULL)
			return 1;
		while (reader_next(mg, &e) == PROTO_EVENT) {
			events++;
			bytes += e.size;
		}
		reader_free(mg);
	} while (events < min && events > 0);
	t1 = now_s();
	report("reader only", events, bytes, t1 - t0);

	/* 2. model only. */
model_only:
	if ((mg = reader_open(argv[1], &cause)) == NULL)
		return 1;
	while (eb.n < EVBUF_MAX && reader_next(mg, &e) == PROTO_EVENT)
		evbuf_add(&eb, &e);
	reader_free(mg);
	m = model_new();
	model_set_reorder(m, 0, 0);
	memset(&e, 0, sizeof e);
	for (pass = 0; pass < 2; pass++) {
		events = bytes = shift = 0;
		t0 = now_s();
		while (events < min && eb.n > 0) {
			span = eb.r[eb.n - 1].time - eb.r[0].time + 1000000;
			for (i = 0; i < eb.n; i++) {
				e.time = eb.r[i].time + shift;
				e.tag = eb.r[i].tag;
				e.kind = eb.r[i].kind;
				e.cap = eb.r[i].cap;
				e.size = eb.r[i].size;
				e.len = eb.r[i].len;
				e.payload = eb.pay + eb.r[i].pay;
				(void)proto_fields(&e);
				if (pass == 1)
					model_apply(m, &e);
				else
					sink += e.u.thread.thread;
				bytes += e.size;
			}
			shift += span;
			events += eb.n;
		}
		if (pass == 1)
			model_flush(m);
		tp[pass] = now_s() - t0;
	}
	report("unpack only", events, bytes, tp[0]);
	report("unpack+model", events, bytes, tp[1]);
	report("model only", events, bytes, tp[1] - tp[0]);
	model_free(m);
	free(eb.r);
	free(eb.pay);
	if (only_model)
		return 0;

	/* 3. live: arrival order through the reorder buffer. */
	if ((f = fopen(argv[1], "rb")) == NULL)
		return 1;
	raw = malloc(1 << 20);
	m = model_new();
	d = proto_dec_new(PROTO_MIN_BUF * 2);
	events = bytes = 0;
	t0 = now_s();
	while ((got = fread(raw, 1, 1 << 20, f)) > 0) {
		for (off = 0; off < got;) {
			off += proto_dec_feed(d, raw + off, got - off);
			while ((r = proto_dec_next(d, &e)) != PROTO_AGAIN) {
				if (r == PROTO_EVENT) {
					model_apply(m, &e);
					events++;
					bytes += e.size;
				} else if (r == PROTO_HEADER)
					model_header(m, d);
			}
		}
	}
	model_flush(m);
	t1 = now_s();
	report("decode+live", events, bytes, t1 - t0);
	printf("%-16s late %llu, forced %llu\n", "",
	    (unsigned long long)m->totals.late,
	    (unsigned long long)m->totals.forced);
	model_free(m);
	proto_dec_free(d);
	fclose(f);
	free(raw);
	return 0;
}
