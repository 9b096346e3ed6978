/*
 * fuzz_proto.c: libFuzzer over the decoder.  The first input byte picks how
 * the rest is cut into chunks; every event is printed as `show` text and its
 * strings sanitized, and re-decoded alone with proto_dec_one(): the same.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "proto.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static char	out[1 << 20];

static void
drain(struct proto_dec *d)
{
	struct proto_ev	ev, again;
	enum proto_res	r;

	while ((r = proto_dec_next(d, &ev)) != PROTO_AGAIN) {
		if (r != PROTO_EVENT)
			continue;
		proto_show_event(&ev, d, out, sizeof out);
		if (ev.kind == PROTO_USER_MSG || ev.kind == PROTO_LOG_MSG)
			proto_sanitize(ev.u.msg.p, ev.u.msg.len, out, 64);
		/* Alone, as the two passes and a history's reader decode
		 * an event again: the same. */
		if (proto_dec_one(d, ev.payload - (ev.size - ev.len), ev.size,
		    ev.cap, &again) != PROTO_EVENT ||
		    again.time != ev.time || again.kind != ev.kind)
			__builtin_trap();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct proto_dec	*d;
	size_t			 chunk, used, n;

	if (size == 0)
		return 0;
	chunk = (size_t)data[0] * 7 + 1;
	data++;
	size--;
	if ((d = proto_dec_new(0)) == NULL)
		return 0;
	for (used = 0; used < size; used += n) {
		n = size - used < chunk ? size - used : chunk;
		n = proto_dec_feed(d, data + used, n);
		drain(d);
	}
	proto_dec_free(d);
	return 0;
}
