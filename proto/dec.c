/*
 * dec.c: framing of the eventlog byte stream, and the events' fields.
 *
 * The decoder owns one linear buffer.  proto_dec_feed() appends to it;
 * proto_dec_next() cuts one unit (a header piece or an event) from its front
 * when the whole unit is there, and says PROTO_AGAIN otherwise.  The header's
 * event-type table lives in a struct proto_types that decoders may share, so
 * that many cursors over one file cost one table.
 */
#include <stddef.h>
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
	 * A variable-size IPE is PROTO_SIZES_IPE: see proto_frame_ipe().
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
	uint64_t	 hdr_off;	/* where the last "hdrb" began */
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
	d->hdr_off = 0;
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
	d->hdr_off = d->off + i;
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
	t->size[d->pend_tag] = d->pend_tag == PROTO_IPE &&
	    d->pend_size == PROTO_SIZE_VAR ? PROTO_SIZES_IPE :
	    d->pend_size + 2;
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

/* Fill ev for the event of tag and total bytes at p, its payload after
 * hdr. */
static inline __attribute__((always_inline)) long
framed(const struct proto_types *t, uint16_t tag, const uint8_t *p,
    size_t total, size_t hdr, struct proto_ev *ev)
{
	ev->tag = tag;
	ev->kind = (uint16_t)(t->kind[tag] - 1);
	ev->time = be64(p + 2);
	ev->size = (uint32_t)total;
	ev->payload = p + hdr;
	ev->len = (uint32_t)(total - hdr);
	return (long)total;
}

static __attribute__((noinline)) long
frame_ipe(const struct proto_types *t, uint16_t tag, const uint8_t *p,
    size_t n, struct proto_ev *ev)
{
	long	total = proto_frame_ipe(t->size, p, n);

	return total <= 0 ? total : framed(t, tag, p, (size_t)total, 12, ev);
}

/*
 * Frame one event at p (n bytes there): 0 when more bytes are needed, -1 for
 * a tag the header did not declare, else the event's size with ev filled.
 */
static inline __attribute__((always_inline)) long
frame(const struct proto_types *t, const uint8_t *p, size_t n,
    struct proto_ev *ev)
{
	long		total;
	int32_t		s;
	uint16_t	tag;

	if (n < 2)
		return 0;
	tag = be16(p);
	s = t->size[tag];
	if (s >= 2)
		total = 10 + (long)(s - 2);
	else if (s == 0)
		return -1;
	else if (s == PROTO_SIZES_IPE)
		return frame_ipe(t, tag, p, n, ev);	/* off the common path */
	else if (n < 12)
		return 0;
	else
		total = 12 + (long)be16(p + 10);
	if (n < (size_t)total)
		return 0;
	return framed(t, tag, p, (size_t)total, s >= 2 ? 10 : 12, ev);
}

/* Whether the two bytes at p start an event declared in size, or the end. */
static inline int
tag_declared(const int32_t *size, const uint8_t *p)
{
	uint16_t tag = be16(p);

	return tag == 0xffff || size[tag] != 0;
}

/*
 * The size of the IPE event (169) at p, n bytes there: as proto_frame_len.
 *
 * GHC 9.2 writes the source location as one string and declares the size it
 * writes.  From 9.4 on (9.6 seen here), rts/eventlog/EventLog.c postIPE
 * writes it as "file:span\0" from two strings but counts a NUL after the
 * file as well as the colon: the declared payload is one byte longer than
 * the bytes written, and the next event starts one byte early.  The reader
 * of reference (ghc-events) reads the six strings and ignores the size.
 *
 * So an IPE whose six strings end exactly one byte before its declared end
 * is taken as one byte shorter when the event that would then follow starts
 * with a declared tag (or the end marker) and the one at the declared end
 * does not: in the quirk, that one starts with the next tag's low byte and
 * its time's top byte, 0 (tags are below 256, so it is undeclared unless
 * both read tag 0).  Any other IPE is framed by its declared size: a longer
 * one from a future GHC has its extra bytes skipped, a damaged one fails in
 * its fields.  Only an extra byte 0 before a CREATE_THREAD could be taken
 * for the quirk.
 */
long
proto_frame_ipe(const int32_t *size, const uint8_t *p, size_t n)
{
	const uint8_t	*q, *end, *nul;
	size_t		 total;
	int		 i;

	if (n < 12)
		return 0;
	total = 12 + (size_t)be16(p + 10);
	if (n < total)
		return 0;
	if (total < 12 + 8 + 6)
		return (long)total;
	q = p + 12 + 8;
	end = p + total;
	for (i = 0; i < 6; i++, q = nul + 1)
		if ((nul = memchr(q, '\0', (size_t)(end - q))) == NULL)
			return (long)total;
	if (q != end - 1)
		return (long)total;
	/* The bytes of the event after it, either way. */
	if (n < total + 1)
		return 0;
	if (!tag_declared(size, end - 1))
		return (long)total;
	if (n < total + 2)	/* only the end marker can end a stream here */
		return be16(end - 1) == 0xffff ? (long)total - 1 : 0;
	return !tag_declared(size, end) || be16(end) == be16(end - 1) ?
	    (long)total - 1 : (long)total;
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

/* ------------------------------------------------------------------ */
/* Fields: the payload of each known event, read into struct proto_ev. */

/* A bounded reader over one payload. */
struct rd {
	const uint8_t	*p;
	uint32_t	 left;
	const char	*bad;
};

static inline __attribute__((always_inline)) int
need(struct rd *r, uint32_t n)
{
	if (r->bad != NULL)
		return 0;
	if (r->left < n) {
		r->bad = "event payload shorter than its fields";
		return 0;
	}
	return 1;
}

static inline __attribute__((always_inline)) uint8_t
u8(struct rd *r)
{
	uint8_t	v;

	if (!need(r, 1))
		return 0;
	v = r->p[0];
	r->p++;
	r->left--;
	return v;
}

static inline __attribute__((always_inline)) uint16_t
u16(struct rd *r)
{
	uint16_t	v;

	if (!need(r, 2))
		return 0;
	memcpy(&v, r->p, 2);
	v = __builtin_bswap16(v);
	r->p += 2;
	r->left -= 2;
	return v;
}

static inline __attribute__((always_inline)) uint32_t
u32(struct rd *r)
{
	uint32_t	v;

	if (!need(r, 4))
		return 0;
	memcpy(&v, r->p, 4);
	v = __builtin_bswap32(v);
	r->p += 4;
	r->left -= 4;
	return v;
}

static inline __attribute__((always_inline)) uint64_t
u64(struct rd *r)
{
	uint64_t	v;

	if (!need(r, 8))
		return 0;
	memcpy(&v, r->p, 8);
	r->p += 8;
	r->left -= 8;
	return __builtin_bswap64(v);
}

/* The rest of the payload. */
static struct proto_str
rest(struct rd *r)
{
	struct proto_str	s = { (const char *)r->p, r->left };

	r->p += r->left;
	r->left = 0;
	return s;
}

/* A NUL-terminated string; the NUL must lie inside the payload. */
static struct proto_str
strz(struct rd *r)
{
	struct proto_str	 s = { "", 0 };
	const uint8_t		*nul;

	if (r->bad != NULL)
		return s;
	if ((nul = memchr(r->p, '\0', r->left)) == NULL) {
		r->bad = "string without its terminating NUL";
		return s;
	}
	s.p = (const char *)r->p;
	s.len = (uint32_t)(nul - r->p);
	r->p += s.len + 1;
	r->left -= s.len + 1;
	return s;
}

static struct proto_ccs
ccs(struct rd *r)
{
	struct proto_ccs	c = { NULL, 0 };
	uint8_t			depth = u8(r);

	if (!need(r, 4 * (uint32_t)depth)) {
		r->bad = "cost-centre stack longer than its event";
		return c;
	}
	c.ids = r->p;
	c.depth = depth;
	r->p += 4 * (uint32_t)depth;
	r->left -= 4 * (uint32_t)depth;
	return c;
}

#define SHORT	"event payload shorter than its fields"

/*
 * A fixed-size event's payload is checked once against its parser's size
 * (for a decoded event the header's declaration already guarantees it),
 * then read without further checks.
 */
#define FIXED(n)	do { if (len < (n)) return SHORT; } while (0)

/* The kinds fields() reads as a thread's (u.stop's layout, which
 * u.thread's and u.migrate's share), each with its payload's least size:
 * 6 where a 16-bit field follows the id.  (All are below 16.) */
static const uint8_t dec_thread_min[16] = {
	[PROTO_CREATE_THREAD] = 4, [PROTO_RUN_THREAD] = 4,
	[PROTO_STOP_THREAD] = 6, [PROTO_THREAD_RUNNABLE] = 4,
	[PROTO_MIGRATE_THREAD] = 6, [PROTO_RUN_SPARK] = 4,
	[PROTO_STEAL_SPARK] = 6, [PROTO_THREAD_WAKEUP] = 6,
	[PROTO_CREATE_SPARK_THREAD] = 4,
};
_Static_assert(offsetof(struct proto_ev, u.thread.thread) ==
    offsetof(struct proto_ev, u.stop.thread) &&
    offsetof(struct proto_ev, u.migrate.thread) ==
    offsetof(struct proto_ev, u.stop.thread) &&
    offsetof(struct proto_ev, u.migrate.cap) ==
    offsetof(struct proto_ev, u.stop.status), "thread events share a layout");

/* Variable-size events: read through the bounded reader. */
static const char *
fields_var(struct proto_ev *ev)
{
	struct rd	 r = { ev->payload, ev->len, NULL };
	int		 i;

	switch (ev->kind) {
	case PROTO_LOG_MSG:
	case PROTO_USER_MSG:
	case PROTO_USER_MARKER:
	case PROTO_VERSION:
	case PROTO_PROGRAM_INVOCATION:
	case PROTO_USER_BINARY_MSG:
		ev->u.msg = rest(&r);
		break;
	case PROTO_RTS_IDENTIFIER:
	case PROTO_PROGRAM_ARGS:
	case PROTO_PROGRAM_ENV:
		ev->u.capset_str.capset = u32(&r);
		ev->u.capset_str.s = rest(&r);
		break;
	case PROTO_INTERN_STRING:
		if (need(&r, 4)) {
			ev->u.intern.s.p = (const char *)r.p;
			ev->u.intern.s.len = r.left - 4;
			r.p += r.left - 4;
			r.left = 4;
			ev->u.intern.id = u32(&r);
		}
		break;
	case PROTO_THREAD_LABEL:
		ev->u.label.thread = u32(&r);
		ev->u.label.label = rest(&r);
		break;
	case PROTO_PERF_NAME:
		ev->u.perf_name.num = u32(&r);
		ev->u.perf_name.name = rest(&r);
		break;
	case PROTO_HEAP_PROF_BEGIN:
		ev->u.heap_prof_begin.id = u8(&r);
		ev->u.heap_prof_begin.period = u64(&r);
		ev->u.heap_prof_begin.breakdown = u32(&r);
		for (i = 0; i < 7; i++)
			ev->u.heap_prof_begin.filter[i] = strz(&r);
		break;
	case PROTO_HEAP_PROF_COST_CENTRE:
		ev->u.cost_centre.id = u32(&r);
		ev->u.cost_centre.label = strz(&r);
		ev->u.cost_centre.module = strz(&r);
		ev->u.cost_centre.srcloc = strz(&r);
		ev->u.cost_centre.flags = u8(&r);
		break;
	case PROTO_HEAP_PROF_SAMPLE_COST_CENTRE:
		ev->u.heap_sample_cc.id = u8(&r);
		ev->u.heap_sample_cc.residency = u64(&r);
		ev->u.heap_sample_cc.ccs = ccs(&r);
		break;
	case PROTO_HEAP_PROF_SAMPLE_STRING:
		ev->u.heap_sample_str.id = u8(&r);
		ev->u.heap_sample_str.residency = u64(&r);
		ev->u.heap_sample_str.label = strz(&r);
		break;
	case PROTO_PROF_SAMPLE_COST_CENTRE:
		ev->u.prof_sample.cap = u32(&r);
		ev->u.prof_sample.ticks = u64(&r);
		ev->u.prof_sample.ccs = ccs(&r);
		break;
	case PROTO_IPE:
		ev->u.ipe.info = u64(&r);
		ev->u.ipe.table_name = strz(&r);
		ev->u.ipe.closure_desc = strz(&r);
		ev->u.ipe.ty_desc = strz(&r);
		ev->u.ipe.label = strz(&r);
		ev->u.ipe.module = strz(&r);
		ev->u.ipe.srcloc = strz(&r);
		break;
	case PROTO_TICKY_COUNTER_DEF:
		ev->u.ticky_def.id = u64(&r);
		ev->u.ticky_def.arity = u16(&r);
		ev->u.ticky_def.kinds = strz(&r);
		ev->u.ticky_def.name = strz(&r);
		ev->u.ticky_def.has_itbl = r.bad == NULL && r.left >= 8;
		ev->u.ticky_def.itbl = ev->u.ticky_def.has_itbl ? u64(&r) : 0;
		ev->u.ticky_def.has_json = r.bad == NULL && r.left > 0 &&
		    memchr(r.p, '\0', r.left) != NULL;
		if (ev->u.ticky_def.has_json)
			ev->u.ticky_def.json = strz(&r);
		break;
	default:
		break;
	}
	return r.bad;
}

/*
 * The fields of a fixed-size event read in place; the rest by fields_var.
 * Inlined where events are decoded.
 */
static inline __attribute__((always_inline)) const char *
fields(struct proto_ev *ev)
{
	const uint8_t	*p = ev->payload;
	uint32_t	 len = ev->len;
	unsigned	 k = ev->kind, f16, info;

	/*
	 * A thread's id, then maybe a 16-bit field and a 32-bit one: most
	 * events of a busy program.  Read alike whatever the kind, a field
	 * the event lacks read from the id's bytes and masked off, not
	 * branched on: the kinds come in no order a predictor learns, and
	 * the switch below cost a mispredicted branch every other event.
	 */
	if (k < 16 && dec_thread_min[k] != 0) {
		if (len < dec_thread_min[k])
			return SHORT;
		f16 = len >= 6;
		info = len >= 10;
		ev->u.stop.thread = be32(p);
		ev->u.stop.status = (uint16_t)(be16(p + 4 * f16) & -f16);
		ev->u.stop.info = be32(p + 6 * info) & -info;
		ev->u.stop.has_info = (int)info;
		return NULL;
	}
	switch (k) {
	case PROTO_MER_RELEASE_CONTEXT:
		FIXED(4);
		ev->u.thread.thread = be32(p);
		break;
	case PROTO_BLOCK_MARKER:
		FIXED(14);
		ev->u.block.block_size = be32(p);
		ev->u.block.end_time = be64(p + 4);
		ev->u.block.cap = be16(p + 12);
		break;
	case PROTO_STARTUP:
		FIXED(2);
		ev->u.startup.n = be16(p);
		break;
	case PROTO_CAPSET_CREATE:
		FIXED(6);
		ev->u.capset_create.capset = be32(p);
		ev->u.capset_create.type = be16(p + 4);
		break;
	case PROTO_CAPSET_DELETE:
		FIXED(4);
		ev->u.capset.capset = be32(p);
		break;
	case PROTO_CAPSET_ASSIGN_CAP:
	case PROTO_CAPSET_REMOVE_CAP:
		FIXED(6);
		ev->u.capset_cap.capset = be32(p);
		ev->u.capset_cap.cap = be16(p + 4);
		break;
	case PROTO_OSPROCESS_PID:
	case PROTO_OSPROCESS_PPID:
		FIXED(8);
		ev->u.pid.capset = be32(p);
		ev->u.pid.pid = be32(p + 4);
		break;
	case PROTO_SPARK_COUNTERS:
		FIXED(56);
		ev->u.sparks.crt = be64(p);
		ev->u.sparks.dud = be64(p + 8);
		ev->u.sparks.ovf = be64(p + 16);
		ev->u.sparks.cnv = be64(p + 24);
		ev->u.sparks.gcd = be64(p + 32);
		ev->u.sparks.fiz = be64(p + 40);
		ev->u.sparks.rem = be64(p + 48);
		break;
	case PROTO_SPARK_STEAL:
	case PROTO_CAP_CREATE:
	case PROTO_CAP_DELETE:
	case PROTO_CAP_DISABLE:
	case PROTO_CAP_ENABLE:
	case PROTO_CONC_UPD_REM_SET_FLUSH:
	case PROTO_KILL_MACHINE:
		FIXED(2);
		ev->u.cap.cap = be16(p);
		break;
	case PROTO_WALL_CLOCK_TIME:
		FIXED(16);
		ev->u.wall.capset = be32(p);
		ev->u.wall.sec = be64(p + 4);
		ev->u.wall.nsec = be32(p + 12);
		break;
	case PROTO_HEAP_ALLOCATED:
	case PROTO_HEAP_SIZE:
	case PROTO_HEAP_LIVE:
	case PROTO_BLOCKS_SIZE:
		FIXED(12);
		ev->u.heap.capset = be32(p);
		ev->u.heap.bytes = be64(p + 4);
		break;
	case PROTO_HEAP_INFO_GHC:
		FIXED(38);
		ev->u.heap_info.capset = be32(p);
		ev->u.heap_info.gens = be16(p + 4);
		ev->u.heap_info.max_heap = be64(p + 6);
		ev->u.heap_info.alloc_area = be64(p + 14);
		ev->u.heap_info.mblock = be64(p + 22);
		ev->u.heap_info.block = be64(p + 30);
		break;
	case PROTO_GC_STATS_GHC:
		FIXED(50);
		ev->u.gc_stats.capset = be32(p);
		ev->u.gc_stats.gen = be16(p + 4);
		ev->u.gc_stats.copied = be64(p + 6);
		ev->u.gc_stats.slop = be64(p + 14);
		ev->u.gc_stats.frag = be64(p + 22);
		ev->u.gc_stats.par_n_threads = be32(p + 30);
		ev->u.gc_stats.par_max_copied = be64(p + 34);
		ev->u.gc_stats.par_tot_copied = be64(p + 42);
		ev->u.gc_stats.has_balanced = len >= 58;
		ev->u.gc_stats.par_balanced_copied = len >= 58 ?
		    be64(p + 50) : 0;
		break;
	case PROTO_TASK_CREATE:
		FIXED(18);
		ev->u.task_create.task = be64(p);
		ev->u.task_create.cap = be16(p + 8);
		ev->u.task_create.tid = be64(p + 10);
		break;
	case PROTO_TASK_MIGRATE:
		FIXED(12);
		ev->u.task_migrate.task = be64(p);
		ev->u.task_migrate.cap = be16(p + 8);
		ev->u.task_migrate.new_cap = be16(p + 10);
		break;
	case PROTO_TASK_DELETE:
		FIXED(8);
		ev->u.task.task = be64(p);
		break;
	case PROTO_CREATE_PROCESS:
	case PROTO_KILL_PROCESS:
		FIXED(4);
		ev->u.u32x2.a = be32(p);
		break;
	case PROTO_ASSIGN_THREAD_TO_PROCESS:
		FIXED(8);
		ev->u.u32x2.a = be32(p);
		ev->u.u32x2.b = be32(p + 4);
		break;
	case PROTO_CREATE_MACHINE:
		FIXED(10);
		ev->u.machine.machine = be16(p);
		ev->u.machine.realtime = be64(p + 2);
		break;
	case PROTO_SEND_MESSAGE:
		FIXED(19);
		ev->u.eden_msg.tag = p[0];
		ev->u.eden_msg.a = be32(p + 1);
		ev->u.eden_msg.b = be32(p + 5);
		ev->u.eden_msg.machine = be16(p + 9);
		ev->u.eden_msg.c = be32(p + 11);
		ev->u.eden_msg.d = be32(p + 15);
		break;
	case PROTO_RECEIVE_MESSAGE:
		FIXED(23);
		ev->u.eden_msg.tag = p[0];
		ev->u.eden_msg.a = be32(p + 1);
		ev->u.eden_msg.b = be32(p + 5);
		ev->u.eden_msg.machine = be16(p + 9);
		ev->u.eden_msg.c = be32(p + 11);
		ev->u.eden_msg.d = be32(p + 15);
		ev->u.eden_msg.e = be32(p + 19);
		break;
	case PROTO_SEND_RECEIVE_LOCAL_MESSAGE:
		FIXED(17);
		ev->u.eden_msg.tag = p[0];
		ev->u.eden_msg.a = be32(p + 1);
		ev->u.eden_msg.b = be32(p + 5);
		ev->u.eden_msg.c = be32(p + 9);
		ev->u.eden_msg.d = be32(p + 13);
		break;
	case PROTO_MEM_RETURN:
		FIXED(16);
		ev->u.mem_return.capset = be32(p);
		ev->u.mem_return.current = be32(p + 4);
		ev->u.mem_return.needed = be32(p + 8);
		ev->u.mem_return.returned = be32(p + 12);
		break;
	case PROTO_MER_START_PAR_CONJUNCTION:
	case PROTO_MER_CREATE_SPARK:
	case PROTO_MER_FUT_CREATE:
		FIXED(12);
		ev->u.mer.id = be64(p);
		ev->u.mer.n = be32(p + 8);
		break;
	case PROTO_MER_STOP_PAR_CONJUNCTION:
	case PROTO_MER_STOP_PAR_CONJUNCT:
	case PROTO_MER_FUT_WAIT_NOSUSPEND:
	case PROTO_MER_FUT_WAIT_SUSPENDED:
	case PROTO_MER_FUT_SIGNAL:
		FIXED(8);
		ev->u.mer.id = be64(p);
		break;
	case PROTO_PERF_COUNTER:
		FIXED(20);
		ev->u.perf.num = be32(p);
		ev->u.perf.tid = be64(p + 4);
		ev->u.perf.period = be64(p + 12);
		break;
	case PROTO_PERF_TRACEPOINT:
		FIXED(12);
		ev->u.perf.num = be32(p);
		ev->u.perf.tid = be64(p + 4);
		break;
	case PROTO_HEAP_PROF_SAMPLE_BEGIN:
	case PROTO_HEAP_PROF_SAMPLE_END:
		FIXED(8);
		ev->u.sample.era = be64(p);
		ev->u.sample.time = 0;
		break;
	case PROTO_HEAP_BIO_PROF_SAMPLE_BEGIN:
		FIXED(16);
		ev->u.sample.era = be64(p);
		ev->u.sample.time = be64(p + 8);
		break;
	case PROTO_PROF_BEGIN:
		FIXED(8);
		ev->u.prof_begin.interval = be64(p);
		break;
	case PROTO_CONC_MARK_END:
		FIXED(4);
		ev->u.mark_end.marked = be32(p);
		break;
	case PROTO_NONMOVING_HEAP_CENSUS:
		/* GHC 9.10 widened the block size from a log2 byte to u16. */
		FIXED(13);
		if (len >= 14) {
			ev->u.census.blk_size = be16(p);
			p += 2;
		} else {
			ev->u.census.blk_size = 1u << (p[0] & 31);
			p += 1;
		}
		ev->u.census.active = be32(p);
		ev->u.census.filled = be32(p + 4);
		ev->u.census.live = be32(p + 8);
		break;
	case PROTO_NONMOVING_PRUNED_SEGMENTS:
		FIXED(8);
		ev->u.pruned.pruned = be32(p);
		ev->u.pruned.free = be32(p + 4);
		break;
	case PROTO_TICKY_COUNTER_SAMPLE:
		FIXED(32);
		ev->u.ticky.id = be64(p);
		ev->u.ticky.entries = be64(p + 8);
		ev->u.ticky.allocs = be64(p + 16);
		ev->u.ticky.allocd = be64(p + 24);
		break;
	case PROTO_LOG_MSG:
	case PROTO_USER_MSG:
	case PROTO_USER_MARKER:
	case PROTO_VERSION:
	case PROTO_PROGRAM_INVOCATION:
	case PROTO_USER_BINARY_MSG:
	case PROTO_RTS_IDENTIFIER:
	case PROTO_PROGRAM_ARGS:
	case PROTO_PROGRAM_ENV:
	case PROTO_INTERN_STRING:
	case PROTO_THREAD_LABEL:
	case PROTO_PERF_NAME:
	case PROTO_HEAP_PROF_BEGIN:
	case PROTO_HEAP_PROF_COST_CENTRE:
	case PROTO_HEAP_PROF_SAMPLE_COST_CENTRE:
	case PROTO_HEAP_PROF_SAMPLE_STRING:
	case PROTO_PROF_SAMPLE_COST_CENTRE:
	case PROTO_IPE:
	case PROTO_TICKY_COUNTER_DEF:
		return fields_var(ev);
	default:
		break;
	}
	return NULL;
}

/* Fill ev->u from ev->payload; NULL, or why the payload is malformed. */
const char *
proto_fields(struct proto_ev *ev)
{
	return fields(ev);
}

/* ------------------------------------------------------------------ */

/* A framed event of total bytes at the front: consume it, read its fields
 * and follow the block it sits in. */
static inline __attribute__((always_inline)) enum proto_res
take_event(struct proto_dec *d, struct proto_ev *ev, size_t total)
{
	const char	*why;

	ev->off = d->off;
	consume(d, total);

	/* Only a variable-size event can be malformed once framed; a
	 * fixed-size empty one has no fields. */
	why = (d->frame_only || ev->len == 0) &&
	    ev->kind != PROTO_BLOCK_MARKER && ev->size == 10 + ev->len ?
	    NULL : fields(ev);
	if (ev->kind == PROTO_BLOCK_MARKER) {
		/* As the reference: the block's size counts from the marker. */
		d->block_cap = ev->u.block.cap == 0xffff ? PROTO_NO_CAP :
		    ev->u.block.cap;
		d->block_left = ev->u.block.block_size;
		ev->cap = d->block_cap;
	} else {
		ev->cap = d->block_cap;
		d->block_left -= (int64_t)total;
		if (d->block_left <= 0)
			d->block_cap = PROTO_NO_CAP;
	}
	if (why != NULL)
		return fail(d, ev->off, why, 0);
	return PROTO_EVENT;
}

static enum proto_res
data_step(struct proto_dec *d, struct proto_ev *ev)
{
	const uint8_t	*p = d->buf + d->start;
	size_t		 n = d->end - d->start;
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
	return take_event(d, ev, (size_t)total);
}

/*
 * Decode one whole event held elsewhere (a copy the caller kept), with this
 * decoder's header.  The block context is the caller's: cap is given.
 */
enum proto_res
proto_dec_one(const struct proto_dec *d, const void *buf, size_t n,
    int32_t cap, struct proto_ev *ev)
{
	const uint8_t	*p = buf;
	long		 total;

	if (d->types == NULL)
		return PROTO_ERROR;
	if ((total = frame(d->types, p, n, ev)) != (long)n) {
		/* An IPE is whole as its reader framed it, by the bytes
		 * after it (proto_frame_ipe): one byte short, or as declared
		 * where alone it could be either. */
		if (n < 12 || d->types->size[be16(p)] != PROTO_SIZES_IPE ||
		    (n + 1 != 12 + (size_t)be16(p + 10) &&
		    n != 12 + (size_t)be16(p + 10)))
			return PROTO_ERROR;
		framed(d->types, be16(p), p, n, 12, ev);
	}
	ev->cap = cap;
	ev->off = 0;
	return fields(ev) == NULL ? PROTO_EVENT : PROTO_ERROR;
}

/*
 * Decode the event at buf, avail bytes there, with this decoder's header,
 * for a reader that frames a stream itself (src/order.c): its size, 0 if
 * avail is too short for it, -1 if its tag is not declared.  A framed
 * event whose fields do not parse gives its size and *why.
 */
long
proto_dec_at(const struct proto_dec *d, const void *buf, size_t avail,
    int32_t cap, struct proto_ev *ev, const char **why)
{
	long	total;

	if (d->types == NULL || (total = frame(d->types, buf, avail, ev)) <= 0)
		return d->types == NULL ? -1 : total;
	ev->cap = cap;
	*why = fields(ev);
	return total;
}

/*
 * Events already framed: f[0..n), each at base + f->off, into ev[0..),
 * their fields too if full, until one whose fields do not parse.  How many
 * were decoded; if fewer than n, proto_dec_frame_why() says why f[that
 * many] was not.  (One call for many events; its arguments all in
 * registers.)
 */
static inline __attribute__((always_inline)) size_t
dec_frames(const struct proto_dec *d, const uint8_t *base,
    const struct proto_frame *f, size_t n, struct proto_ev *ev, int full)
{
	const int32_t	*sizes = d->types->size;
	const uint16_t	*kinds = d->types->kind;
	const uint8_t	*p;
	size_t		 i;
	uint16_t	 tag;
	int		 var;

	for (i = 0; i < n; i++, f++, ev++) {
		p = base + f->off;
		tag = be16(p);
		var = sizes[tag] < 2;	/* variable, IPE among them */
		ev->tag = tag;
		ev->kind = (uint16_t)(kinds[tag] - 1);
		ev->time = f->time;
		ev->off = f->off;
		ev->size = f->size;
		ev->payload = p + (var ? 12 : 10);
		ev->len = f->size - (var ? 12 : 10);
		ev->cap = f->cap;
		/* Fixed-size and empty: no fields (a kind that has some is
		 * declared with room for them, see proto_fields_kind). */
		if (full && (var || ev->len != 0) && fields(ev) != NULL)
			break;
	}
	return i;
}

size_t
proto_dec_frames(const struct proto_dec *d, const uint8_t *base,
    const struct proto_frame *f, size_t n, struct proto_ev *ev)
{
	return dec_frames(d, base, f, n, ev, 1);
}

/*
 * The same but the fields (ev->u), which proto_dec_rest() reads later,
 * on another thread (src/read/feed.c): all n.
 */
size_t
proto_dec_heads(const struct proto_dec *d, const uint8_t *base,
    const struct proto_frame *f, size_t n, struct proto_ev *ev)
{
	return dec_frames(d, base, f, n, ev, 0);
}

/* The fields of an event proto_dec_heads() gave: NULL, or why they do
 * not parse. */
const char *
proto_dec_rest(struct proto_ev *ev)
{
	int	var = ev->size - ev->len == 12;

	return var || ev->len != 0 ? fields(ev) : NULL;
}

/* Why proto_dec_frames() stopped at f. */
const char *
proto_dec_frame_why(const struct proto_dec *d, const uint8_t *base,
    const struct proto_frame *f)
{
	struct proto_ev	ev;
	const char	*why;

	if (proto_dec_frames(d, base, f, 1, &ev) == 1)
		return "no error";
	why = fields(&ev);
	return why != NULL ? why : "no error";
}

/* The header's size per tag, biased as struct proto_types says. */
const int32_t *
proto_dec_sizes(const struct proto_dec *d)
{
	return d->types != NULL ? d->types->size : NULL;
}

/* Everything but a whole declared event among events. */
static __attribute__((noinline)) enum proto_res
next_slow(struct proto_dec *d, struct proto_ev *ev)
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

enum proto_res
proto_dec_next(struct proto_dec *d, struct proto_ev *ev)
{
	const struct proto_types *t;
	const uint8_t	*p;
	size_t		 total;
	int32_t		 size;
	uint16_t	 tag;

	/*
	 * The common case, a whole declared event among events, framed here;
	 * everything else (the end marker, an undeclared tag, a short tail)
	 * goes the general way.
	 */
	if (d->state == DEC_DATA && d->end - d->start >= 12) {
		t = d->types;
		p = d->buf + d->start;
		tag = be16(p);
		size = t->size[tag];	/* biased: see struct proto_types */
		if (size >= 2)
			total = 10 + (size_t)(size - 2);
		else
			total = 12 + (size_t)be16(p + 10);
		if (size >= 1 && tag != 0xffff && total <= d->end - d->start) {
			ev->tag = tag;
			ev->kind = (uint16_t)(t->kind[tag] - 1);
			ev->time = be64(p + 2);
			ev->size = (uint32_t)total;
			ev->payload = p + (size >= 2 ? 10 : 12);
			ev->len = (uint32_t)(total - (size >= 2 ? 10 : 12));
			return take_event(d, ev, total);
		}
	}
	return next_slow(d, ev);
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

/* Where the header last read (or being read) begins: its "hdrb".  (The
 * offset after PROTO_HEADER is where it ends, its events' start.) */
uint64_t
proto_dec_header_offset(const struct proto_dec *d)
{
	return d->hdr_off;
}

int
proto_dec_type_size(const struct proto_dec *d, uint16_t tag)
{
	if (d->types == NULL)
		return PROTO_SIZE_NONE;
	return d->types->size[tag] == PROTO_SIZES_IPE ? PROTO_SIZE_VAR :
	    d->types->size[tag] - 2;
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
