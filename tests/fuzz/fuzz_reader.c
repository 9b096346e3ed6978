/*
 * fuzz_reader.c: libFuzzer over reader.c (the scan, the single pass, the
 * two passes, seeking), on the input as a file.  Beyond not crashing: what
 * it gives lies within the file, in (time, offset) order, is every event
 * the decoder gives before an error, and a seek to the middle event goes on
 * with the same events.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "evtop.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define FUZZ_KEEP	4096

/* The events the decoder gives from the start, in one piece, up to the
 * first error or second header: what the reader must give them all of. */
static uint64_t
stream_events(const uint8_t *data, size_t size)
{
	struct proto_dec	*d;
	struct proto_ev		 ev;
	enum proto_res		 r;
	uint64_t		 n = 0;
	int			 headers = 0;

	if ((d = proto_dec_new(size + 16)) == NULL)
		abort();
	proto_dec_feed(d, data, size);
	while ((r = proto_dec_next(d, &ev)) != PROTO_AGAIN) {
		if (r == PROTO_ERROR || (r == PROTO_HEADER && ++headers > 1))
			break;
		if (r == PROTO_SKIP && headers > 0)
			break;
		n += r == PROTO_EVENT;
	}
	proto_dec_free(d);
	return n;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint64_t	 keys[FUZZ_KEEP][2];
	struct reader	*r;
	struct proto_ev	 ev[16];
	char		 path[64], *cause = NULL;
	uint64_t	 n = 0, mid, i, last_t = 0, last_off = 0;
	size_t		 k, j;
	int		 fd;

	if ((fd = memfd_create("fuzz_reader", 0)) == -1)
		abort();
	if (write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	if ((r = reader_open(path, &cause)) != NULL) {
		while ((k = reader_next_n(r, ev, 16)) > 0)
			for (j = 0; j < k; j++, n++) {
				if (ev[j].off + ev[j].size > size)
					abort();
				if (n > 0 && (ev[j].time < last_t ||
				    (ev[j].time == last_t &&
				    ev[j].off <= last_off)))
					abort();
				last_t = ev[j].time;
				last_off = ev[j].off;
				if (n < FUZZ_KEEP) {
					keys[n][0] = ev[j].time;
					keys[n][1] = ev[j].off;
				}
			}
		/* Every event before the first error, bad input or not. */
		if (n != stream_events(data, size))
			abort();
		if (reader_error(r) == NULL && n > 0 && n <= FUZZ_KEEP) {
			mid = n / 2;
			if (reader_seek(r, keys[mid][0], keys[mid][1]) != 0)
				abort();
			for (i = mid; (k = reader_next_n(r, ev, 16)) > 0;)
				for (j = 0; j < k; j++, i++)
					if (i >= n || ev[j].time != keys[i][0] ||
					    ev[j].off != keys[i][1])
						abort();
			if (i != n)
				abort();
		}
		reader_free(r);
	}
	free(cause);
	close(fd);
	return 0;
}
