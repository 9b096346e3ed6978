/*
 * fuzz_live.c: libFuzzer over a live source's path past the decoder: the
 * bytes kept in the history (spill.c), late events put back by taking the
 * model to a checkpoint and applying the history again (redo.c, ckpt.c,
 * reader.c over the history's files), the model, its JSON.  What loop.c
 * does with a read (fuzz-live.h), in reads of sizes the input's first
 * byte picks.  Beyond not crashing: every event decoded is counted once
 * by the model, however it came back (the events, and the block markers
 * apart).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-live.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct live	 l;
	char		*out = NULL;
	size_t		 outlen = 0;
	FILE		*f;

	if (size < 1)
		return 0;
	live_run(&l, data[0], data + 1, size - 1, NULL);
	if ((f = open_memstream(&out, &outlen)) == NULL)
		abort();
	model_json(l.m, f);
	fclose(f);
	free(out);
	/* Each event once: a program begun again forgets what came before. */
	if (l.m->prog.resets == 0 &&
	    (l.m->totals.events != l.decoded - l.markers ||
	    l.m->totals.blocks != l.markers)) {
		if (getenv("FUZZ_SAY"))
			fprintf(stderr, "decoded %llu, events %llu, blocks %llu, late %llu\n", (unsigned long long)l.decoded, (unsigned long long)l.m->totals.events, (unsigned long long)l.m->totals.blocks, (unsigned long long)l.m->totals.late);
		abort();
	}
	live_free(&l);
	return 0;
}
