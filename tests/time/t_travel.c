/*
 * t_travel.c: seeking equals replaying.  For each log: the first pass with
 * a checkpoint every few events, then seeks to random times (and the
 * edges: before the first event, at event times, past the last), each
 * compared, as the whole --batch JSON, with a model that replays the log
 * from its start and stops at the same time; and after a seek the replay
 * goes on to the end and equals a replay of the whole log.
 *
 * Usage: t_travel [-n SEEKS] [-e EVERY] LOG...
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "evtop.h"
#include "model/model.h"
#include "time/travel.h"
#include "../tap.h"

#define N	4096

static struct proto_ev	evs[N];

static char *
json_of(const struct model *m, size_t *len)
{
	char	*buf = NULL;
	FILE	*f = open_memstream(&buf, len);

	model_json(m, f);
	fclose(f);
	return buf;
}

static struct model *
model_for(struct reader *rd)
{
	struct model	*m = model_new();

	model_set_reorder(m, 0, 0);
	if (reader_dec(rd) != NULL)
		model_header(m, reader_dec(rd));
	return m;
}

/* Apply the reader's events before t (all of them: UINT64_MAX). */
static void
replay_until(struct reader *rd, struct model *m, uint64_t t)
{
	size_t	n;

	while ((n = reader_next_n(rd, evs, N)) > 0)
		if (model_apply_until(m, evs, n, t) < n)
			break;
}

/* A replay from the start to t; with a range [from, t) if from > 0. */
static char *
fresh_json(const char *path, uint64_t from, uint64_t t, size_t *len)
{
	struct reader	*rd;
	struct model	*m;
	char		*j, *cause = NULL;
	size_t		 n, k;

	if ((rd = reader_open(path, &cause)) == NULL) {
		free(cause);
		return NULL;
	}
	m = model_for(rd);
	if (from > 0) {
		/* The events before from, then the range from the one that
		 * stopped it. */
		while ((n = reader_next_n(rd, evs, N)) > 0) {
			k = model_apply_until(m, evs, n, from);
			if (k < n) {
				model_range_begin(m, from, t);
				if (model_apply_until(m, evs + k, n - k, t) <
				    n - k)
					goto done;
				break;
			}
		}
		if (!m->range.on)
			model_range_begin(m, from, t);
	}
	replay_until(rd, m, t);
done:
	j = json_of(m, len);
	model_free(m);
	reader_free(rd);
	return j;
}

/* The last event time of each batch of the pass: batches end where
 * checkpoints are taken, so these are the times where an off-by-one in
 * choosing a checkpoint shows. */
static uint64_t	 edge[16];
static uint64_t	 nedge;

static void
note_batch(void *arg, const struct proto_ev *ev, size_t n)
{
	(void)arg;
	edge[nedge++ % 16] = ev[n - 1].time;
}

static uint64_t
rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void
one_log(const char *path, int nseek, uint64_t every, uint64_t seed)
{
	struct reader	*rd;
	struct model	*m;
	struct travel	*tr;
	char		*cause = NULL, *a, *b, *full;
	size_t		 alen, blen, flen;
	uint64_t	 first, last, t, ts[64];
	int		 i, nt = 0, bad = 0, resumed_bad = 0, nck;

	if ((rd = reader_open(path, &cause)) == NULL) {
		printf("# %s: %s (skipped)\n", path, cause);
		free(cause);
		return;
	}
	m = model_for(rd);
	if ((tr = travel_new(rd, m, every, &cause)) == NULL) {
		ok(0, "%s: %s", path, cause);
		free(cause);
		return;
	}
	nedge = 0;
	while (!travel_pass(tr, 10000, note_batch, NULL))
		;
	full = json_of(m, &flen);
	travel_span(tr, &first, &last);
	nck = travel_checkpoints(tr, NULL);
	ts[nt++] = 0;
	ts[nt++] = first;
	ts[nt++] = first + 1;
	ts[nt++] = last;
	ts[nt++] = last + 1;
	ts[nt++] = UINT64_MAX;
	for (i = 0; i < 16 && (uint64_t)i < nedge && nt < 40; i += 3) {
		ts[nt++] = edge[i];
		ts[nt++] = edge[i] + 1;
	}
	while (nt < nseek && nt < 64)
		ts[nt++] = last > first ? first + rnd(&seed) % (last - first + 1)
		    : first;
	for (i = 0; i < nt; i++) {
		t = ts[i];
		if (travel_seek(tr, t) != 0) {
			ok(0, "%s: seek to %llu failed", path,
			    (unsigned long long)t);
			bad++;
			continue;
		}
		a = json_of(m, &alen);
		b = fresh_json(path, 0, t, &blen);
		if (b == NULL || alen != blen || memcmp(a, b, alen) != 0) {
			if (bad++ == 0)
				printf("# %s: seek to %llu differs\n", path,
				    (unsigned long long)t);
		}
		free(a);
		free(b);
		/* Every third: go on to the end from there. */
		if (i % 3 == 0) {
			replay_until(rd, m, UINT64_MAX);
			a = json_of(m, &alen);
			if (alen != flen || memcmp(a, full, flen) != 0)
				resumed_bad++;
			free(a);
		}
	}
	ok(bad == 0, "%s: %d seeks (%d checkpoints) equal a replay stopped "
	    "there", path, nt, nck);
	/* Ranges: seek to from, begin the range, apply to t. */
	bad = 0;
	for (i = 0; i + 1 < nt; i += 2) {
		uint64_t	from = ts[i] < ts[i + 1] ? ts[i] : ts[i + 1];

		t = ts[i] < ts[i + 1] ? ts[i + 1] : ts[i];
		if (from == 0 || from == t)
			continue;
		if (travel_seek(tr, from) != 0) {
			bad++;
			continue;
		}
		model_range_begin(m, from, t);
		if (travel_apply(tr, t) != 0) {
			bad++;
			continue;
		}
		a = json_of(m, &alen);
		b = fresh_json(path, from, t, &blen);
		if (b == NULL || alen != blen || memcmp(a, b, alen) != 0) {
			if (bad++ == 0)
				printf("# %s: range [%llu, %llu) differs\n",
				    path, (unsigned long long)from,
				    (unsigned long long)t);
		}
		free(a);
		free(b);
	}
	ok(bad == 0, "%s: ranges by seeking equal ranges by replaying", path);
	ok(resumed_bad == 0, "%s: replays resumed after a seek end as the "
	    "whole replay does", path);
	free(full);
	travel_free(tr);
	model_free(m);
	reader_free(rd);
}

int
main(int argc, char **argv)
{
	int		 c, nseek = 12;
	uint64_t	 every = 500;

	while ((c = getopt(argc, argv, "n:e:")) != -1) {
		if (c == 'n')
			nseek = atoi(optarg);
		else if (c == 'e')
			every = strtoull(optarg, NULL, 10);
		else
			return 2;
	}
	for (; optind < argc; optind++)
		one_log(argv[optind], nseek, every, 0x9e3779b97f4a7c15ULL ^
		    (uint64_t)optind);
	return tap_done();
}
