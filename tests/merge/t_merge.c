/*
 * t_merge.c: what merge_next() delivers for each file, as one line:
 *
 *	t_merge FILE...
 *	-> NAME EVENTS DIGEST SORTED ERROR
 *
 * DIGEST folds every event's time, offset, cap, tag, size and payload, in
 * the order delivered; SORTED says whether that order is by (time, offset).
 * merge.sh builds this with several MERGE_* settings (the single pass with
 * chunks and holds of many sizes, and the two passes alone) and wants the
 * same line from each.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evtop.h"

static void
mix(uint64_t *h, const void *p, size_t n)
{
	const unsigned char	*c = p;
	size_t			 i;

	for (i = 0; i < n; i++) {
		*h ^= c[i];
		*h *= 1099511628211ULL;
	}
}

int
main(int argc, char **argv)
{
	struct merge	*m;
	struct proto_ev	 ev;
	const char	*name, *err;
	char		*cause;
	uint64_t	 h, n, v[4], last_t, last_off;
	int		 i, sorted, rc = 0;

	for (i = 1; i < argc; i++) {
		name = strrchr(argv[i], '/') ? strrchr(argv[i], '/') + 1 :
		    argv[i];
		if ((m = merge_open(argv[i], &cause)) == NULL) {
			printf("%s open-failed\n", name);
			free(cause);
			rc = 1;
			continue;
		}
		h = 14695981039346656037ULL;
		n = 0;
		sorted = 1;
		last_t = last_off = 0;
		while (merge_next(m, &ev) == PROTO_EVENT) {
			if (n > 0 && (ev.time < last_t || (ev.time == last_t &&
			    ev.off <= last_off)))
				sorted = 0;
			last_t = ev.time;
			last_off = ev.off;
			v[0] = ev.time;
			v[1] = ev.off;
			v[2] = (uint64_t)(uint32_t)ev.cap << 32 | ev.tag;
			v[3] = (uint64_t)ev.size << 32 | ev.kind;
			mix(&h, v, sizeof v);
			mix(&h, ev.payload, ev.len);
			n++;
		}
		if (n != merge_done(m))
			sorted = 0;
		err = merge_error(m);
		printf("%s %llu %016llx %s %s\n", name, (unsigned long long)n,
		    (unsigned long long)h, sorted ? "sorted" : "UNSORTED",
		    err != NULL ? "error" : "ok");
		merge_free(m);
	}
	return rc;
}
