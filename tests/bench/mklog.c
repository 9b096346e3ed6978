/*
 * mklog.c: a large valid eventlog from a small real one, for benchmarks.
 *
 *	mklog IN OUT MEGABYTES
 *
 * Writes IN's header, then IN's events again and again, each copy's
 * timestamps (and block markers' end times) shifted past the previous
 * copy's, until OUT holds MEGABYTES, then the end marker.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"

static void
put64(unsigned char *p, uint64_t v)
{
	int	i;

	for (i = 7; i >= 0; i--) {
		p[i] = (unsigned char)v;
		v >>= 8;
	}
}

int
main(int argc, char **argv)
{
	struct proto_dec	*d;
	struct proto_ev		 ev;
	enum proto_res		 r;
	unsigned char		*in, *body, *ev0;
	size_t			 n, used = 0, body_len = 0, hdr_len = 0, i;
	uint64_t		 want, written = 0, span = 0, shift = 0;
	FILE			*f;

	if (argc != 4) {
		fprintf(stderr, "usage: mklog IN OUT MEGABYTES\n");
		return 2;
	}
	if ((f = fopen(argv[1], "rb")) == NULL)
		return 1;
	fseek(f, 0, SEEK_END);
	n = (size_t)ftell(f);
	rewind(f);
	in = malloc(n);
	body = malloc(n);
	if (in == NULL || body == NULL || fread(in, 1, n, f) != n)
		return 1;
	fclose(f);
	want = strtoull(argv[3], NULL, 10) << 20;

	/* Collect the events' bytes, without the end marker. */
	d = proto_dec_new(0);
	while (used < n) {
		used += proto_dec_feed(d, in + used, n - used);
		while ((r = proto_dec_next(d, &ev)) != PROTO_AGAIN) {
			if (r == PROTO_HEADER)
				hdr_len = (size_t)proto_dec_offset(d);
			if (r != PROTO_EVENT)
				continue;
			memcpy(body + body_len, in + ev.off, ev.size);
			body_len += ev.size;
			if (ev.time > span)
				span = ev.time;
		}
	}
	if (hdr_len == 0 || body_len == 0) {
		fprintf(stderr, "mklog: %s: no header or no events\n",
		    argv[1]);
		return 1;
	}
	span += 1000;

	if ((f = fopen(argv[2], "wb")) == NULL)
		return 1;
	fwrite(in, 1, hdr_len, f);
	written = hdr_len;
	ev0 = malloc(body_len);
	while (written < want) {
		/* Shift a copy's times by walking its events again. */
		memcpy(ev0, body, body_len);
		for (i = 0; i < body_len;) {
			struct proto_dec *one = d;
			int32_t	 size;
			unsigned tag = (unsigned)(ev0[i] << 8 | ev0[i + 1]);
			uint64_t t = 0;
			int	 k;

			for (k = 0; k < 8; k++)
				t = t << 8 | ev0[i + 2 + k];
			put64(ev0 + i + 2, t + shift);
			size = proto_dec_type_size(one, (uint16_t)tag);
			if (tag == PROTO_BLOCK_MARKER && size >= 14) {
				t = 0;
				for (k = 0; k < 8; k++)
					t = t << 8 | ev0[i + 14 + k];
				put64(ev0 + i + 14, t + shift);
			}
			if (size == PROTO_SIZE_VAR)
				i += 12 + (size_t)(ev0[i + 10] << 8 |
				    ev0[i + 11]);
			else
				i += 10 + (size_t)size;
		}
		fwrite(ev0, 1, body_len, f);
		written += body_len;
		shift += span;
	}
	fputc(0xff, f);
	fputc(0xff, f);
	if (fclose(f) != 0)
		return 1;
	fprintf(stderr, "mklog: %s: %llu MB, %llu copies of %s\n", argv[2],
	    (unsigned long long)(written >> 20),
	    (unsigned long long)(shift / span), argv[1]);
	proto_dec_free(d);
	return 0;
}
