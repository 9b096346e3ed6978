/*
 * fuzz_order.c: libFuzzer over order.c (the index of blocks, the streams'
 * lookaheads and the merge), on the input as a file.  Beyond not crashing:
 * what it gives lies within the file, in (time, offset) order unless it
 * counts events late, and when it reports no error merge.c gives as many
 * events.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "evtop.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct order	*o;
	struct merge	*m;
	struct proto_ev	 ev[16];
	char		 path[64], *cause = NULL;
	uint64_t	 n = 0, mn = 0, last_t = 0, last_off = 0;
	size_t		 k, i;
	int		 fd;

	if ((fd = memfd_create("fuzz_order", 0)) == -1)
		abort();
	if (write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	if ((o = order_open(path)) != NULL) {
		while ((k = order_next_n(o, ev, 16)) > 0)
			for (i = 0; i < k; i++, n++) {
				if (ev[i].off + ev[i].size > size)
					abort();
				if (n > 0 && order_late(o) == 0 &&
				    (ev[i].time < last_t || (ev[i].time ==
				    last_t && ev[i].off <= last_off)))
					abort();
				last_t = ev[i].time;
				last_off = ev[i].off;
			}
		if (order_error(o) == NULL) {
			if ((m = merge_open(path, &cause)) == NULL)
				abort();
			while (merge_next(m, &ev[0]) == PROTO_EVENT)
				mn++;
			if (mn != n)
				abort();
			merge_free(m);
		}
		order_free(o);
	}
	free(cause);
	close(fd);
	return 0;
}
