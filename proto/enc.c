/*
 * enc.c: events written down again: a header's bytes from a decoder's event
 * types, for whoever writes a stream of the events it read (the relay, a
 * live source's history), and an event kept by value.
 */
#include <stdint.h>
#include <string.h>

#include "proto.h"

static void
enc_be16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void
enc_be32(uint8_t *p, uint32_t v)
{
	enc_be16(p, (uint16_t)(v >> 16));
	enc_be16(p + 2, (uint16_t)v);
}

/*
 * The header (its "datb" included) with dec's event types into out, if
 * it has room for them: the header's length either way.
 */
size_t
proto_header_encode(const struct proto_dec *dec, uint8_t *out, size_t room)
{
	unsigned	 i, nt = proto_dec_ntypes(dec);
	size_t		 size = 20, n, dl;
	const char	*desc;
	uint16_t	 tag;
	int		 sz;

	for (i = 0; i < nt; i++) {
		desc = proto_dec_type_desc(dec, proto_dec_type_at(dec, i));
		size += 20 + (desc != NULL ? strlen(desc) : 0);
	}
	if (out == NULL || room < size)
		return size;
	memcpy(out, "hdrbhetb", 8);
	n = 8;
	for (i = 0; i < nt; i++) {
		tag = proto_dec_type_at(dec, i);
		sz = proto_dec_type_size(dec, tag);
		desc = proto_dec_type_desc(dec, tag);
		dl = desc != NULL ? strlen(desc) : 0;
		memcpy(out + n, "etb\0", 4);
		enc_be16(out + n + 4, tag);
		enc_be16(out + n + 6, sz < 0 ? 0xffff : (uint16_t)sz);
		enc_be32(out + n + 8, (uint32_t)dl);
		memcpy(out + n + 12, desc != NULL ? desc : "", dl);
		n += 12 + dl;
		enc_be32(out + n, 0);	/* no extra info */
		memcpy(out + n + 4, "ete\0", 4);
		n += 8;
	}
	memcpy(out + n, "hetehdredatb", 12);
	return size;
}

/* Keep ev in r, its payload after r (which has room for it). */
void
proto_rec_put(struct proto_rec *r, const struct proto_ev *ev)
{
	r->time = ev->time;
	r->off = ev->off;
	r->cap = ev->cap;
	r->size = ev->size;
	r->len = ev->len;
	r->tag = ev->tag;
	r->kind = ev->kind;
	if (ev->len > 0)
		memcpy(r + 1, ev->payload, ev->len);
}

/* The event kept in r, its fields decoded again; it points into r. */
void
proto_rec_get(const struct proto_rec *r, struct proto_ev *ev)
{
	ev->time = r->time;
	ev->off = r->off;
	ev->cap = r->cap;
	ev->size = r->size;
	ev->len = r->len;
	ev->tag = r->tag;
	ev->kind = r->kind;
	ev->payload = (const uint8_t *)(r + 1);
	(void)proto_fields(ev);
}
