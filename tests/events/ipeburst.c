/*
 * ipeburst.c: a log whose blocks hold only GHC 9.6 IPE events, so that
 * every block marker but the first follows an IPE: what a program built
 * with -finfo-table-map sends at its start, over many blocks.
 *
 *	ipeburst IN OUT BLOCKS
 *
 * IN is a GHC 9.4+ log with IPE events (tests/fixtures/ghc96-ipe-*): its
 * header is kept, and its IPE events' bytes are written again and again,
 * eight to a block of capability 0, their times growing, BLOCKS blocks,
 * then the end marker.  GHC 9.4+ writes an IPE one byte shorter than its
 * size says when its strings end the event (proto_frame_ipe() tells the
 * two apart by the bytes after it); the bytes are copied as the decoder
 * framed them, so the file has what the program sent.
 *
 * Exit 0, 1 on errors, 2 on usage.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"

#define IB_PER_BLOCK	8
#define IB_MAX_IPE	4096

static void
be(uint8_t *p, uint64_t v, int n)
{
	while (n-- > 0) {
		p[n] = (uint8_t)v;
		v >>= 8;
	}
}

int
main(int argc, char **argv)
{
	static uint8_t	 in[1 << 22];
	struct proto_dec *dec;
	struct proto_ev	 ev;
	enum proto_res	 r;
	FILE		*f;
	uint64_t	 off[IB_MAX_IPE], data = 0, t = 1000;
	uint32_t	 len[IB_MAX_IPE], bsize;
	size_t		 n, nipe = 0, i, j, k;
	long		 blocks;
	uint8_t		 mark[24], ev_buf[1 << 16], end[2] = { 0xff, 0xff };

	if (argc != 4 || (blocks = strtol(argv[3], NULL, 10)) <= 0) {
		fprintf(stderr, "usage: ipeburst IN OUT BLOCKS\n");
		return 2;
	}
	if ((f = fopen(argv[1], "rb")) == NULL) {
		perror(argv[1]);
		return 1;
	}
	n = fread(in, 1, sizeof in, f);
	fclose(f);
	if ((dec = proto_dec_new(0)) == NULL)
		return 1;
	proto_dec_feed(dec, in, n);
	while ((r = proto_dec_next(dec, &ev)) != PROTO_AGAIN) {
		if (r == PROTO_HEADER)
			data = proto_dec_offset(dec);
		if (r == PROTO_EVENT && ev.kind == PROTO_IPE &&
		    nipe < IB_MAX_IPE && ev.size <= sizeof ev_buf) {
			off[nipe] = ev.off;
			len[nipe++] = ev.size;
		}
	}
	proto_dec_free(dec);
	if (data == 0 || nipe == 0) {
		fprintf(stderr, "ipeburst: %s: no header or no IPE events\n",
		    argv[1]);
		return 1;
	}
	if ((f = fopen(argv[2], "wb")) == NULL) {
		perror(argv[2]);
		return 1;
	}
	fwrite(in, 1, (size_t)data, f);
	for (k = 0, i = 0; (long)i < blocks; i++) {
		bsize = sizeof mark;
		for (j = 0; j < IB_PER_BLOCK; j++)
			bsize += len[(k + j) % nipe];
		be(mark, PROTO_BLOCK_MARKER, 2);
		be(mark + 2, t, 8);
		be(mark + 10, bsize, 4);
		be(mark + 14, t + IB_PER_BLOCK * 100, 8);
		be(mark + 22, 0, 2);
		fwrite(mark, 1, sizeof mark, f);
		for (j = 0; j < IB_PER_BLOCK; j++, k++) {
			memcpy(ev_buf, in + off[k % nipe], len[k % nipe]);
			be(ev_buf + 2, t += 100, 8);
			fwrite(ev_buf, 1, len[k % nipe], f);
		}
		t += 1000;
	}
	fwrite(end, 1, sizeof end, f);
	if (fclose(f) != 0) {
		perror(argv[2]);
		return 1;
	}
	return 0;
}
