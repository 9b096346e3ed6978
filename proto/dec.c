/*
 * dec.c: framing of the eventlog byte stream.
 *
 * The decoder owns one linear buffer.  proto_dec_feed() appends to it;
 * proto_dec_next() cuts one unit (a header piece or an event) from its front
 * when the whole unit is there, and says PROTO_AGAIN otherwise.  The header's
 * event-type table lives in a struct proto_types that decoders may share, so
 * that many cursors over one file cost one table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"

struct proto_type {
	uint16_t	 tag;
	int32_t		 size;
	char		*desc;
};

struct proto_types {
	unsigned	 refs;
	unsigned	 n;
	struct proto_type ent[PROTO_MAX_TYPES];
	/*
	 * Biased so that a table fresh from calloc() means "undeclared":
	 * size + 2 (PROTO_SIZE_NONE is 0) and kind + 1 (unknown is 0).
	 */
	int32_t		 size[PROTO_NTAGS];
	uint16_t	 kind[PROTO_NTAGS];
	uint16_t	 idx[PROTO_NTAGS];	/* entry + 1, 0 if absent */
};

enum dec_state {
	DEC_SEEK_BEGIN,		/* looking for "hdrb" */
	DEC_RESYNC,		/* after bad data: a header or a block */
	DEC_HDR_HETB,		/* expecting "hetb" */
	DEC_HDR_ENTRY_BEGIN,	/* "etb\0" ... or "hete" */
	DEC_HDR_EXTRA_CONTINUE,	/* skipping an entry's extra bytes */
	DEC_HDR_ETE,		/* expecting "ete\0" */
	DEC_HDR_HDRE,		/* expecting "hdre" */
	DEC_HDR_DATB,		/* expecting "datb" */
	DEC_DATA,		/* events */
};

struct proto_dec {
	struct proto_types *types;
	struct proto_types *building;	/* header being read */
	int		 shared;	/* types borrowed, never rebuilt */
	int		 frame_only;	/* no fields but block markers' */
	enum dec_state	 state;

	uint8_t		*buf;
	size_t		 bufsize;
	size_t		 start, end;
	uint64_t	 off;		/* stream offset of buf[start] */

	uint32_t	 extra_left;
	uint16_t	 pend_tag;
	int32_t		 pend_size;
	char		*pend_desc;

	int32_t		 block_cap;
	int64_t		 block_left;

	uint64_t	 skipped;	/* bytes skipped by the last SKIP */
	uint64_t	 skip_run;	/* bytes skipped so far in a seek */
	unsigned	 headers;
	char		 err[160];
	uint64_t	 err_off;
};

/* Internal: a unit was consumed, nothing to report, go on. */
#define DEC_CONTINUE	((enum proto_res)-1)

static const uint8_t magic_hdrb[4] = { 'h', 'd', 'r', 'b' };

static inline uint16_t
be16(const uint8_t *p)
{
	uint16_t	v;

	memcpy(&v, p, 2);
	return __builtin_bswap16(v);
}

static inline uint32_t
be32(const uint8_t *p)
{
	uint32_t	v;

	memcpy(&v, p, 4);
	return __builtin_bswap32(v);
}

static inline uint64_t
be64(const uint8_t *p)
{
	uint64_t	v;

	memcpy(&v, p, 8);
	return __builtin_bswap64(v);
}

static struct proto_types *
types_new(void)
{
	struct proto_types	*t;

	if ((t = calloc(1, sizeof *t)) == NULL)
		return NULL;
	t->refs = 1;
	return t;
}

static void
types_unref(struct proto_types *t)
{
	unsigned	i;

	if (t == NULL || --t->refs > 0)
		return;
	for (i = 0; i < t->n; i++)
		free(t->ent[i].desc);
	free(t);
}

struct proto_dec *
proto_dec_new(size_t bufsize)
{
	struct proto_dec	*d;

	if (bufsize < PROTO_MIN_BUF)
		bufsize = PROTO_MIN_BUF;
	if ((d = calloc(1, sizeof *d)) == NULL)
		return NULL;
	if ((d->buf = malloc(bufsize)) == NULL) {
		free(d);
		return NULL;
	}
	d->bufsize = bufsize;
	d->block_cap = PROTO_NO_CAP;
	return d;
}

/* A decoder for the same stream that reads the header's table of another. */
struct proto_dec *
proto_dec_new_sharing(const struct proto_dec *from, size_t bufsize)
{
	struct proto_dec	*d;

	if (from->types == NULL || (d = proto_dec_new(bufsize)) == NULL)
		return NULL;
	d->types = from->types;
	d->types->refs++;
	d->shared = 1;
	d->state = DEC_DATA;
	return d;
}

void
proto_dec_free(struct proto_dec *d)
{
	if (d == NULL)
		return;
	types_unref(d->types);
	types_unref(d->building);
	free(d->pend_desc);
	free(d->buf);
	free(d);
}

/* Forget everything: a new connection starts from nothing. */
void
proto_dec_reset(struct proto_dec *d)
{
	if (!d->shared) {
		types_unref(d->types);
		d->types = NULL;
	}
	types_unref(d->building);
	d->building = NULL;
	free(d->pend_desc);
	d->pend_desc = NULL;
	d->state = d->shared ? DEC_DATA : DEC_SEEK_BEGIN;
	d->start = d->end = 0;
	d->off = 0;
	d->block_cap = PROTO_NO_CAP;
	d->block_left = 0;
	d->skipped = d->skip_run = 0;
	d->headers = 0;
	d->err[0] = '\0';
}

/*
 * Frame events but leave the fields of fixed-size ones undecoded (ev.u is
 * not filled for them): for a reader that decodes the events it keeps
 * later, with proto_dec_one().  Malformed events are still reported.
 */
void
proto_dec_frame_only(struct proto_dec *d)
{
	d->frame_only = 1;
}

/* Go on reading at a stream offset, in a known block context. */
void
proto_dec_seek(struct proto_dec *d, uint64_t off, int32_t cap, int64_t left)
{
	d->start = d->end = 0;
	d->off = off;
	d->state = DEC_DATA;
	d->block_cap = cap;
	d->block_left = left;
}

void
proto_dec_block_state(const struct proto_dec *d, int32_t *cap, int64_t *left)
{
	*cap = d->block_cap;
	*left = d->block_left;
}

size_t
proto_dec_room(const struct proto_dec *d)
{
	return d->bufsize - (d->end - d->start);
}

size_t
proto_dec_feed(struct proto_dec *d, const void *data, size_t len)
{
	size_t	n;

	if (d->start > 0 && d->bufsize - d->end < len) {
		/* Compact: this forgets the consumed bytes proto_dec_peek sees. */
		memmove(d->buf, d->buf + d->start, d->end - d->start);
		d->end -= d->start;
		d->start = 0;
	}
	n = d->bufsize - d->end;
	if (n > len)
		n = len;
	memcpy(d->buf + d->end, data, n);
	d->end += n;
	return n;
}

static void
consume(struct proto_dec *d, size_t n)
{
	d->start += n;
	d->off += n;
}

static enum proto_res
fail(struct proto_dec *d, uint64_t at, const char *what, int resync)
{
	snprintf(d->err, sizeof d->err, "byte %llu: %s",
	    (unsigned long long)at, what);
	d->err_off = at;
	if (resync) {
		/*
		 * Framing is lost.  In a header, the next header is the next
		 * sure point; among events, a block marker is one too.
		 */
		d->state = d->building == NULL && d->types != NULL ?
		    DEC_RESYNC : DEC_SEEK_BEGIN;
		types_unref(d->building);
		d->building = NULL;
		d->skip_run = 0;
	}
	return PROTO_ERROR;
}

/* Expect a four-byte word; AGAIN until four bytes are there. */
static int
expect(struct proto_dec *d, const char *word, enum proto_res *res)
{
	if (d->end - d->start < 4) {
		*res = PROTO_AGAIN;
		return 0;
	}
	if (memcmp(d->buf + d->start, word, 4) != 0) {
		char	msg[64];

		snprintf(msg, sizeof msg, "bad header: expected \"%.3s\"",
		    word);
		*res = fail(d, d->off, msg, 1);
		return 0;
	}
	consume(d, 4);
	return 1;
}

static enum proto_res
seek_begin(struct proto_dec *d)
{
	const uint8_t	*p = d->buf + d->start;
	size_t		 n = d->end - d->start, i;

	for (i = 0; i + 4 <= n; i++) {
		if (p[i] == 'h' && memcmp(p + i, magic_hdrb, 4) == 0)
			break;
	}
	if (i + 4 > n) {
		/* Keep a possible start of the magic word. */
		i = n > 3 ? n - 3 : 0;
		d->skip_run += i;
		consume(d, i);
		return PROTO_AGAIN;
	}
	d->skip_run += i;
	consume(d, i + 4);
	d->state = DEC_HDR_HETB;
	if ((d->building = types_new()) == NULL)
		return fail(d, d->off, "out of memory", 1);
	if (d->skip_run > 0) {
		d->skipped = d->skip_run;
		d->skip_run = 0;
		return PROTO_SKIP;
	}
	return DEC_CONTINUE;
}

static enum proto_res
entry_begin(struct proto_dec *d)
{
	const uint8_t	*p = d->buf + d->start;
	size_t		 n = d->end - d->start;
	uint32_t	 dlen, xlen;
	uint16_t	 tag;
	int32_t		 size;

	if (n < 4)
		return PROTO_AGAIN;
	if (memcmp(p, "hete", 4) == 0) {
		consume(d, 4);
		d->state = DEC_HDR_HDRE;
		return DEC_CONTINUE;
	}
	if (memcmp(p, "etb\0", 4) != 0)
		return fail(d, d->off, "bad header: expected \"etb\"", 1);
	if (n < 12)
		return PROTO_AGAIN;
	tag = be16(p + 4);
	size = be16(p + 6);
	if (size == 0xffff)
		size = PROTO_SIZE_VAR;
	dlen = be32(p + 8);
	if (dlen > PROTO_MAX_DESC)
		return fail(d, d->off + 8, "event type description too long",
		    1);
	if (n < 12 + (size_t)dlen + 4)
		return PROTO_AGAIN;
	xlen = be32(p + 12 + dlen);
	if (xlen > PROTO_MAX_EXTRA)
		return fail(d, d->off + 12 + dlen,
		    "event type extra info too long", 1);
	if (d->building->n >= PROTO_MAX_TYPES)
		return fail(d, d->off, "too many event types", 1);
	free(d->pend_desc);
	if ((d->pend_desc = malloc(dlen + 1)) == NULL)
		return fail(d, d->off, "out of memory", 1);
	memcpy(d->pend_desc, p + 12, dlen);
	d->pend_desc[dlen] = '\0';
	d->pend_tag = tag;
	d->pend_size = size;
	d->extra_left = xlen;
	consume(d, 12 + dlen + 4);
	d->state = DEC_HDR_EXTRA_CONTINUE;
	return DEC_CONTINUE;
}

static void
entry_end(struct proto_dec *d)
{
	struct proto_types	*t = d->building;
	struct proto_type	*e;

	if (t->idx[d->pend_tag] != 0) {
		/* A tag declared twice: the later declaration wins. */
		e = &t->ent[t->idx[d->pend_tag] - 1];
		free(e->desc);
	} else {
		e = &t->ent[t->n++];
		t->idx[d->pend_tag] = (uint16_t)t->n;
	}
	e->tag = d->pend_tag;
	e->size = d->pend_size;
	e->desc = d->pend_desc;
	d->pend_desc = NULL;
	t->size[d->pend_tag] = d->pend_size + 2;
}

static enum proto_res
header_step(struct proto_dec *d)
{
	struct proto_types	*t;
	enum proto_res		 res = DEC_CONTINUE;
	size_t			 n;
	unsigned		 i;

	switch (d->state) {
	case DEC_HDR_HETB:
		if (expect(d, "hetb", &res))
			d->state = DEC_HDR_ENTRY_BEGIN;
		return res;
	case DEC_HDR_ENTRY_BEGIN:
		return entry_begin(d);
	case DEC_HDR_EXTRA_CONTINUE:
		n = d->end - d->start;
		if (n > d->extra_left)
			n = d->extra_left;
		consume(d, n);
		d->extra_left -= (uint32_t)n;
		if (d->extra_left == 0) {
			d->state = DEC_HDR_ETE;
			return DEC_CONTINUE;
		}
		return PROTO_AGAIN;
	case DEC_HDR_ETE:
		if (expect(d, "ete", &res)) {
			entry_end(d);
			d->state = DEC_HDR_ENTRY_BEGIN;
		}
		return res;
	case DEC_HDR_HDRE:
		if (expect(d, "hdre", &res))
			d->state = DEC_HDR_DATB;
		return res;
	case DEC_HDR_DATB:
		if (!expect(d, "datb", &res))
			return res;
		t = d->building;
		for (i = 0; i < t->n; i++)
			t->kind[t->ent[i].tag] = (uint16_t)(proto_fields_kind(
			    t->ent[i].tag, t->ent[i].size) + 1);
		types_unref(d->types);
		d->types = d->building;
		d->building = NULL;
		d->state = DEC_DATA;
		d->block_cap = PROTO_NO_CAP;
		d->block_left = 0;
		d->headers++;
		return PROTO_HEADER;
	default:
		return PROTO_AGAIN;
	}
}

/*
 * Frame one event at p (n bytes there): 0 when more bytes are needed, -1 for
 * a tag the header did not declare, else the event's size with ev filled.
 */
static long
frame(const struct proto_types *t, const uint8_t *p, size_t n,
    struct proto_ev *ev)
{
	size_t		total;
	uint16_t	tag;
	int32_t		size;

	if (n < 2)
		return 0;
	tag = be16(p);
	size = t->size[tag] - 2;
	if (size == PROTO_SIZE_NONE)
		return -1;
	if (size == PROTO_SIZE_VAR) {
		if (n < 12)
			return 0;
		total = 12 + (size_t)be16(p + 10);
		ev->payload = p + 12;
		ev->len = (uint32_t)(total - 12);
	} else {
		total = 10 + (size_t)size;
		ev->payload = p + 10;
		ev->len = (uint32_t)size;
	}
	if (n < total)
		return 0;
	ev->tag = tag;
	ev->kind = (uint16_t)(t->kind[tag] - 1);
	ev->time = be64(p + 2);
	ev->size = (uint32_t)total;
	return (long)total;
}

#define RESYNC_CHECK	4096	/* bytes after a block marker that must frame */

/*
 * Whether a block marker at p starts well-framed events: 1 yes, 0 no, -1
 * when more bytes are needed to tell.
 */
static int
resync_block_at(const struct proto_types *t, const uint8_t *p, size_t n)
{
	struct proto_ev	ev;
	uint64_t	time, end;
	uint32_t	bsize;
	uint16_t	cap;
	size_t		at, limit;
	long		k;

	if (n < 24)
		return -1;
	if (be16(p) != PROTO_BLOCK_MARKER || t->size[PROTO_BLOCK_MARKER] != 14 + 2)
		return 0;
	time = be64(p + 2);
	bsize = be32(p + 10);
	end = be64(p + 14);
	cap = be16(p + 22);
	if (bsize < 24 || bsize > (1u << 30) || end < time ||
	    (cap != 0xffff && cap >= 4096))
		return 0;
	limit = bsize < 24 + RESYNC_CHECK ? bsize : 24 + RESYNC_CHECK;
	for (at = 24; at < limit; at += (size_t)k) {
		if (n - at < 2)
			return -1;
		if ((k = frame(t, p + at, n - at, &ev)) == 0)
			return -1;
		if (k < 0 || ev.time < time || ev.time > end)
			return 0;
	}
	/* A whole short block must end exactly where it says. */
	return at == limit || limit < bsize;
}

/* After bad data: skip to the next header or trustworthy block marker. */
static enum proto_res
resync(struct proto_dec *d)
{
	const uint8_t	*p = d->buf + d->start;
	size_t		 n = d->end - d->start, i;
	int		 ok = 0;

	for (i = 0; i < n; i++) {
		if (p[i] == 'h' && n - i >= 4 && memcmp(p + i, magic_hdrb,
		    4) == 0) {
			d->skip_run += i;
			consume(d, i);
			d->state = DEC_SEEK_BEGIN;
			return DEC_CONTINUE;
		}
		if (p[i] != 0 || (ok = resync_block_at(d->types, p + i,
		    n - i)) == 0)
			continue;
		if (ok < 0 && n < d->bufsize / 2)
			break;		/* wait for the bytes that decide */
		if (ok > 0)
			break;
	}
	d->skip_run += i;
	consume(d, i);
	if (ok <= 0)
		return PROTO_AGAIN;
	d->state = DEC_DATA;
	d->block_cap = PROTO_NO_CAP;
	d->block_left = 0;
	d->skipped = d->skip_run;
	d->skip_run = 0;
	return PROTO_SKIP;
}

static enum proto_res
data_step(struct proto_dec *d, struct proto_ev *ev)
{
	const uint8_t	*p = d->buf + d->start;
	size_t		 n = d->end - d->start;
	const char	*why;
	char		 msg[64];
	long		 total;

	if (n < 2)
		return PROTO_AGAIN;
	if (p[0] == 0xff && p[1] == 0xff) {
		consume(d, 2);
		return PROTO_END;
	}
	if ((total = frame(d->types, p, n, ev)) == 0)
		return PROTO_AGAIN;
	if (total < 0) {
		if (n < 4)
			return PROTO_AGAIN;
		if (memcmp(p, magic_hdrb, 4) == 0 && !d->shared) {
			/* A new header in the same stream: a new session. */
			d->state = DEC_SEEK_BEGIN;
			return DEC_CONTINUE;
		}
		snprintf(msg, sizeof msg, "event tag %u not declared in the "
		    "header", be16(p));
		return fail(d, d->off, msg, 1);
	}
	ev->off = d->off;
	consume(d, (size_t)total);

	/* Only a variable-size event can be malformed once framed. */
	why = d->frame_only && ev->kind != PROTO_BLOCK_MARKER &&
	    ev->size == 10 + ev->len ? NULL : proto_fields(ev);
	if (ev->kind == PROTO_BLOCK_MARKER) {
		/* As the reference: the block's size counts from the marker. */
		d->block_cap = ev->u.block.cap == 0xffff ? PROTO_NO_CAP :
		    ev->u.block.cap;
		d->block_left = ev->u.block.block_size;
		ev->cap = d->block_cap;
	} else {
		ev->cap = d->block_cap;
		d->block_left -= total;
		if (d->block_left <= 0)
			d->block_cap = PROTO_NO_CAP;
	}
	if (why != NULL)
		return fail(d, ev->off, why, 0);
	return PROTO_EVENT;
}

/*
 * Decode one whole event held elsewhere (a copy the caller kept), with this
 * decoder's header.  The block context is the caller's: cap is given.
 */
enum proto_res
proto_dec_one(const struct proto_dec *d, const void *buf, size_t n,
    int32_t cap, struct proto_ev *ev)
{
	if (d->types == NULL || frame(d->types, buf, n, ev) != (long)n)
		return PROTO_ERROR;
	ev->cap = cap;
	ev->off = 0;
	return proto_fields(ev) == NULL ? PROTO_EVENT : PROTO_ERROR;
}

enum proto_res
proto_dec_next(struct proto_dec *d, struct proto_ev *ev)
{
	enum proto_res	res;

	do {
		if (d->state == DEC_SEEK_BEGIN)
			res = seek_begin(d);
		else if (d->state == DEC_RESYNC)
			res = resync(d);
		else if (d->state == DEC_DATA)
			res = data_step(d, ev);
		else
			res = header_step(d);
	} while (res == DEC_CONTINUE);
	return res;
}

const char *
proto_dec_error(const struct proto_dec *d)
{
	return d->err;
}

uint64_t
proto_dec_error_offset(const struct proto_dec *d)
{
	return d->err_off;
}

uint64_t
proto_dec_skipped(const struct proto_dec *d)
{
	return d->skipped;
}

/*
 * The bytes of an event decoded earlier, if the buffer still holds them:
 * consumed bytes stay until a later proto_dec_feed() makes room.
 */
const uint8_t *
proto_dec_peek(const struct proto_dec *d, uint64_t off, size_t len)
{
	uint64_t	base = d->off - d->start;

	if (off < base || off + len > base + d->end)
		return NULL;
	return d->buf + (off - base);
}

/* Stream offset of the first byte not yet decoded. */
uint64_t
proto_dec_offset(const struct proto_dec *d)
{
	return d->off;
}

/* Bytes held that do not yet make a whole unit. */
uint64_t
proto_dec_pending(const struct proto_dec *d)
{
	return d->end - d->start;
}

int
proto_dec_in_data(const struct proto_dec *d)
{
	return d->state == DEC_DATA;
}

unsigned
proto_dec_headers(const struct proto_dec *d)
{
	return d->headers;
}

int
proto_dec_type_size(const struct proto_dec *d, uint16_t tag)
{
	return d->types == NULL ? PROTO_SIZE_NONE : d->types->size[tag] - 2;
}

const char *
proto_dec_type_desc(const struct proto_dec *d, uint16_t tag)
{
	if (d->types == NULL || d->types->idx[tag] == 0)
		return NULL;
	return d->types->ent[d->types->idx[tag] - 1].desc;
}

unsigned
proto_dec_ntypes(const struct proto_dec *d)
{
	return d->types == NULL ? 0 : d->types->n;
}

/* The i-th declared type, in header order. */
uint16_t
proto_dec_type_at(const struct proto_dec *d, unsigned i)
{
	return d->types->ent[i].tag;
}
