/*
 * t_vectors.c: the decoder on hand-built byte vectors: forward
 * compatibility, every layout variant, and bad input of every kind.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"

static int	passed, failed;
static char	text[1 << 20];

#define CHECK(cond, ...) do {						\
	if (cond) passed++;						\
	else {								\
		failed++;						\
		printf("not ok - line %d: ", __LINE__);		\
		printf(__VA_ARGS__);					\
		printf("\n");						\
	}								\
} while (0)

/* A growing byte vector that builds eventlogs. */
struct vec {
	unsigned char	b[1 << 18];
	size_t		n;
};

static void
put(struct vec *v, const void *p, size_t n)
{
	memcpy(v->b + v->n, p, n);
	v->n += n;
}

static void
u8(struct vec *v, unsigned x)
{
	v->b[v->n++] = (unsigned char)x;
}

static void
u16(struct vec *v, unsigned x)
{
	u8(v, x >> 8);
	u8(v, x);
}

static void
u32(struct vec *v, uint32_t x)
{
	u16(v, x >> 16);
	u16(v, x & 0xffff);
}

static void
u64(struct vec *v, uint64_t x)
{
	u32(v, (uint32_t)(x >> 32));
	u32(v, (uint32_t)x);
}

static void
str(struct vec *v, const char *s)
{
	put(v, s, strlen(s));
}

static void
type(struct vec *v, unsigned tag, int size, const char *desc)
{
	put(v, "etb\0", 4);
	u16(v, tag);
	u16(v, size < 0 ? 0xffff : (unsigned)size);
	u32(v, (uint32_t)strlen(desc));
	str(v, desc);
	u32(v, 0);
	put(v, "ete\0", 4);
}

static void
begin(struct vec *v)
{
	str(v, "hdrbhetb");
}

static void
end_header(struct vec *v)
{
	str(v, "hetehdredatb");
}

static void
ev(struct vec *v, unsigned tag, uint64_t t)
{
	u16(v, tag);
	u64(v, t);
}

/* Results of decoding a vector whole. */
struct got {
	int		 nev, nerr, nhdr, nend, nskip;
	struct proto_ev	 ev[64];
	char		 show[64][256];
	char		 err[8][160];
	uint64_t	 skipped;
	uint64_t	 pending;
	uint64_t	 hdr_at[4];	/* where each header began */
};

static void
decode(const struct vec *v, struct got *g)
{
	struct proto_dec	*d = proto_dec_new(0);
	struct proto_ev		 e;
	enum proto_res		 r;
	size_t			 used = 0, n;

	memset(g, 0, sizeof *g);
	while (used < v->n) {
		used += proto_dec_feed(d, v->b + used, v->n - used);
		while ((r = proto_dec_next(d, &e)) != PROTO_AGAIN) {
			switch (r) {
			case PROTO_EVENT:
				if (g->nev < 64) {
					n = proto_show_event(&e, d, text,
					    sizeof text);
					if (n > 255)
						n = 255;
					memcpy(g->show[g->nev], text, n);
					g->show[g->nev][n] = '\0';
					g->ev[g->nev] = e;
				}
				g->nev++;
				break;
			case PROTO_ERROR:
				if (g->nerr < 8)
					snprintf(g->err[g->nerr], 160, "%s",
					    proto_dec_error(d));
				g->nerr++;
				break;
			case PROTO_HEADER:
				if (g->nhdr < 4)
					g->hdr_at[g->nhdr] =
					    proto_dec_header_offset(d);
				g->nhdr++;
				break;
			case PROTO_END:
				g->nend++;
				break;
			case PROTO_SKIP:
				g->nskip++;
				g->skipped += proto_dec_skipped(d);
				break;
			default:
				break;
			}
		}
	}
	g->pending = proto_dec_pending(d);
	proto_dec_free(d);
}

static struct vec	v;
static struct got	g;

static void
t_forward_compat(void)
{
	v.n = 0;
	begin(&v);
	type(&v, PROTO_RUN_THREAD, 8, "Run thread");	/* 4 more than known */
	type(&v, 300, 5, "Future fixed event");
	type(&v, 301, -1, "Future variable event");
	type(&v, PROTO_CREATE_THREAD, 2, "Create thread");	/* too small */
	type(&v, PROTO_HEAP_PROF_COST_CENTRE, -1, "Cost centre");
	end_header(&v);
	ev(&v, PROTO_RUN_THREAD, 10);
	u32(&v, 7);
	u32(&v, 0xdeadbeef);
	ev(&v, 300, 11);
	put(&v, "\1\2\3\4\5", 5);
	ev(&v, 301, 12);
	u16(&v, 3);
	put(&v, "abc", 3);
	ev(&v, PROTO_CREATE_THREAD, 13);
	u16(&v, 9);
	ev(&v, PROTO_HEAP_PROF_COST_CENTRE, 14);
	u16(&v, 4 + 2 + 2 + 2 + 1 + 3);
	u32(&v, 42);
	put(&v, "f\0M\0s\0\1xyz", 10);	/* flags, then 3 future bytes */
	u16(&v, 0xffff);
	decode(&v, &g);
	CHECK(g.nev == 5 && g.nerr == 0, "5 events, no error (%d, %d: %s)",
	    g.nev, g.nerr, g.err[0]);
	CHECK(strcmp(g.show[0], "10: running thread 7") == 0, "%s",
	    g.show[0]);
	CHECK(g.ev[1].kind == PROTO_KIND_UNKNOWN && g.ev[1].tag == 300 &&
	    strcmp(g.show[1], "11: Future fixed event") == 0, "%s",
	    g.show[1]);
	CHECK(g.ev[2].tag == 301 && g.ev[2].len == 3, "variable unknown");
	CHECK(g.ev[3].kind == PROTO_KIND_UNKNOWN &&
	    strcmp(g.show[3], "13: Create thread") == 0, "%s", g.show[3]);
	CHECK(strcmp(g.show[4], "14: cost centre 42 f in M at s CAF") == 0,
	    "%s", g.show[4]);
	CHECK(g.nend == 1 && g.pending == 0, "end marker");
}

static void
t_layouts(void)
{
	v.n = 0;
	begin(&v);
	type(&v, PROTO_GC_STATS_GHC, 50, "GC statistics");
	type(&v, PROTO_NONMOVING_HEAP_CENSUS, 13, "census");
	type(&v, PROTO_STOP_THREAD, 6, "Stop thread");
	type(&v, PROTO_TICKY_COUNTER_DEF, -1, "ticky");
	end_header(&v);
	ev(&v, PROTO_GC_STATS_GHC, 1);
	u32(&v, 0); u16(&v, 1); u64(&v, 100); u64(&v, 2); u64(&v, 3);
	u32(&v, 4); u64(&v, 5); u64(&v, 6);
	ev(&v, PROTO_NONMOVING_HEAP_CENSUS, 2);
	u8(&v, 5); u32(&v, 10); u32(&v, 11); u32(&v, 12);
	ev(&v, PROTO_STOP_THREAD, 3);
	u32(&v, 9); u16(&v, 2);
	ev(&v, PROTO_TICKY_COUNTER_DEF, 4);	/* base layout */
	u16(&v, 8 + 2 + 2 + 2);
	u64(&v, 77); u16(&v, 1); put(&v, "M\0f\0", 4);
	ev(&v, PROTO_TICKY_COUNTER_DEF, 5);	/* with info table and JSON */
	u16(&v, 8 + 2 + 2 + 2 + 8 + 3);
	u64(&v, 78); u16(&v, 2); put(&v, "M\0g\0", 4); u64(&v, 0x4050e0);
	put(&v, "{}\0", 3);
	decode(&v, &g);
	CHECK(g.nev == 5 && g.nerr == 0, "layouts decode (%d %d)", g.nev,
	    g.nerr);
	CHECK(strstr(g.show[0], "6 bytes total par copied") != NULL &&
	    strstr(g.show[0], "balanced") == NULL, "%s", g.show[0]);
	CHECK(strcmp(g.show[1], "2: nonmoving heap census 32: 10 active "
	    "segments, 11 filled segments, 12 live blocks") == 0, "%s",
	    g.show[1]);
	CHECK(strcmp(g.show[2], "3: stopping thread 9 (stack overflow)") == 0,
	    "%s", g.show[2]);
	CHECK(!g.ev[3].u.ticky_def.has_itbl && !g.ev[3].u.ticky_def.has_json,
	    "ticky base layout");
	CHECK(g.ev[4].u.ticky_def.has_itbl && g.ev[4].u.ticky_def.has_json &&
	    g.ev[4].u.ticky_def.itbl == 0x4050e0 &&
	    g.ev[4].u.ticky_def.json.len == 2, "ticky json layout");

	v.n = 0;
	begin(&v);
	type(&v, PROTO_GC_STATS_GHC, 58, "GC statistics");
	type(&v, PROTO_NONMOVING_HEAP_CENSUS, 14, "census");
	end_header(&v);
	ev(&v, PROTO_GC_STATS_GHC, 1);
	u32(&v, 0); u16(&v, 1); u64(&v, 100); u64(&v, 2); u64(&v, 3);
	u32(&v, 4); u64(&v, 5); u64(&v, 6); u64(&v, 99);
	ev(&v, PROTO_NONMOVING_HEAP_CENSUS, 2);
	u16(&v, 48); u32(&v, 10); u32(&v, 11); u32(&v, 12);
	decode(&v, &g);
	CHECK(g.nev == 2 && strstr(g.show[0], ", 99 bytes balanced par "
	    "copied") != NULL, "%s", g.show[0]);
	CHECK(strstr(g.show[1], "census 48: 10 active") != NULL, "%s",
	    g.show[1]);
}

static void
t_blocks(void)
{
	v.n = 0;
	begin(&v);
	type(&v, PROTO_BLOCK_MARKER, 14, "Block marker");
	type(&v, PROTO_RUN_THREAD, 4, "Run thread");
	end_header(&v);
	ev(&v, PROTO_BLOCK_MARKER, 5);	/* cap 3, one 14-byte event inside */
	u32(&v, 24 + 14); u64(&v, 6); u16(&v, 3);
	ev(&v, PROTO_RUN_THREAD, 5); u32(&v, 1);
	ev(&v, PROTO_RUN_THREAD, 6); u32(&v, 2);	/* reference: still cap 3 */
	ev(&v, PROTO_RUN_THREAD, 7); u32(&v, 3);
	ev(&v, PROTO_BLOCK_MARKER, 8);	/* global block */
	u32(&v, 24 + 14); u64(&v, 8); u16(&v, 0xffff);
	ev(&v, PROTO_RUN_THREAD, 8); u32(&v, 4);
	decode(&v, &g);
	CHECK(g.nev == 6, "6 events");
	CHECK(g.ev[0].cap == 3 && g.ev[1].cap == 3, "marker and event in cap");
	/* The block size counts the marker too, but the reference only
	 * subtracts the events after it: the cap lasts 24 bytes longer. */
	CHECK(g.ev[2].cap == 3 && g.ev[3].cap == 3,
	    "the reference's counting: %d %d", g.ev[2].cap, g.ev[3].cap);
	CHECK(g.ev[4].cap == PROTO_NO_CAP && g.ev[5].cap == PROTO_NO_CAP,
	    "global block");
	CHECK(strcmp(g.show[0], "5: cap 3: event block: cap 3, end time: 6\n")
	    == 0, "%s", g.show[0]);
}

static void
t_streams(void)
{
	size_t	at;

	/* GHC 9.0.2 sends a block marker before the header on reconnect. */
	v.n = 0;
	ev(&v, PROTO_BLOCK_MARKER, 1);
	u32(&v, 24); u64(&v, 2); u16(&v, 0xffff);
	begin(&v);
	type(&v, PROTO_RUN_THREAD, 4, "Run thread");
	end_header(&v);
	ev(&v, PROTO_RUN_THREAD, 5); u32(&v, 1);
	u16(&v, 0xffff);
	ev(&v, PROTO_RUN_THREAD, 6); u32(&v, 2);	/* after the end */
	at = v.n;
	begin(&v);					/* a new session */
	type(&v, PROTO_CREATE_THREAD, 4, "Create thread");
	end_header(&v);
	ev(&v, PROTO_CREATE_THREAD, 1); u32(&v, 9);
	decode(&v, &g);
	CHECK(g.nskip == 1 && g.skipped == 24, "24 bytes skipped (%llu)",
	    (unsigned long long)g.skipped);
	CHECK(g.nhdr == 2 && g.nend == 1 && g.nev == 3 && g.nerr == 0,
	    "headers %d end %d events %d errors %d", g.nhdr, g.nend, g.nev,
	    g.nerr);
	CHECK(strcmp(g.show[2], "1: creating thread 9") == 0, "%s",
	    g.show[2]);
	/* Each header where its "hdrb" is, not where it ends. */
	CHECK(g.hdr_at[0] == 24 && g.hdr_at[1] == at, "headers at %llu and "
	    "%llu (want 24 and %zu)", (unsigned long long)g.hdr_at[0],
	    (unsigned long long)g.hdr_at[1], at);
}

static void
t_bad(void)
{
	size_t	at;

	/* An undeclared tag: an error naming its offset; earlier events kept. */
	v.n = 0;
	begin(&v);
	type(&v, PROTO_RUN_THREAD, 4, "Run thread");
	end_header(&v);
	ev(&v, PROTO_RUN_THREAD, 5); u32(&v, 1);
	at = v.n;
	ev(&v, 77, 6); u32(&v, 2);
	decode(&v, &g);
	snprintf(text, sizeof text, "byte %zu:", at);
	CHECK(g.nev == 1 && g.nerr == 1 && strncmp(g.err[0], text,
	    strlen(text)) == 0, "undeclared: %s", g.err[0]);

	/* Truncated mid-event: the complete ones, then bytes pending. */
	v.n = at;
	ev(&v, PROTO_RUN_THREAD, 6); u32(&v, 2);
	v.n -= 3;
	decode(&v, &g);
	CHECK(g.nev == 1 && g.nerr == 0 && g.pending == 11, "truncated %llu",
	    (unsigned long long)g.pending);

	/* A string without its NUL; a stack deeper than its event. */
	v.n = 0;
	begin(&v);
	type(&v, PROTO_HEAP_PROF_SAMPLE_STRING, -1, "string sample");
	type(&v, PROTO_PROF_SAMPLE_COST_CENTRE, -1, "prof sample");
	type(&v, PROTO_RUN_THREAD, 4, "Run thread");
	end_header(&v);
	ev(&v, PROTO_HEAP_PROF_SAMPLE_STRING, 1);
	u16(&v, 1 + 8 + 3); u8(&v, 0); u64(&v, 10); put(&v, "abc", 3);
	ev(&v, PROTO_PROF_SAMPLE_COST_CENTRE, 2);
	u16(&v, 4 + 8 + 1 + 4); u32(&v, 0); u64(&v, 1); u8(&v, 200);
	u32(&v, 5);
	ev(&v, PROTO_RUN_THREAD, 3); u32(&v, 1);
	decode(&v, &g);
	CHECK(g.nerr == 2 && strstr(g.err[0], "NUL") != NULL &&
	    strstr(g.err[1], "stack") != NULL, "%s / %s", g.err[0], g.err[1]);
	CHECK(g.nev == 1 && strcmp(g.show[0], "3: running thread 1") == 0,
	    "decoding goes on after a bad payload");

	/* Garbage among events: decoding resumes at the next block. */
	v.n = 0;
	begin(&v);
	type(&v, PROTO_BLOCK_MARKER, 14, "Block marker");
	type(&v, PROTO_RUN_THREAD, 4, "Run thread");
	end_header(&v);
	ev(&v, PROTO_BLOCK_MARKER, 10);
	u32(&v, 24 + 28); u64(&v, 11); u16(&v, 0);
	ev(&v, PROTO_RUN_THREAD, 10); u32(&v, 1);
	ev(&v, PROTO_RUN_THREAD, 11); u32(&v, 2);
	put(&v, "\0\143garbage\0\022xx", 14);
	ev(&v, PROTO_BLOCK_MARKER, 20);
	u32(&v, 24 + 28); u64(&v, 21); u16(&v, 1);
	ev(&v, PROTO_RUN_THREAD, 20); u32(&v, 3);
	ev(&v, PROTO_RUN_THREAD, 21); u32(&v, 4);
	decode(&v, &g);
	CHECK(g.nerr == 1 && g.nskip == 1 && g.skipped == 14 && g.nev == 6,
	    "resync: %d errors, %d skips of %llu, %d events", g.nerr, g.nskip,
	    (unsigned long long)g.skipped, g.nev);
	CHECK(strcmp(g.show[5], "21: cap 1: running thread 4") == 0, "%s",
	    g.show[5]);

	/* A description length from the wire is bounded. */
	v.n = 0;
	begin(&v);
	put(&v, "etb\0", 4); u16(&v, 1); u16(&v, 4); u32(&v, 1000000000);
	decode(&v, &g);
	CHECK(g.nerr == 1 && strstr(g.err[0], "too long") != NULL, "%s",
	    g.err[0]);

	/* A header that goes wrong. */
	v.n = 0;
	str(&v, "hdrbXXXX");
	decode(&v, &g);
	CHECK(g.nerr == 1 && g.nhdr == 0, "bad header word");
}

/*
 * An IPE event: six strings after the info word, declared with delta
 * bytes more than written (GHC 9.4+ declares one more), then extra
 * bytes (a future GHC's fields) counted in the declared size.
 */
static void
ipe(struct vec *w, uint64_t t, uint64_t info, const char *const s[6],
    int delta, const char *extra, size_t nextra)
{
	size_t	len = 8 + nextra;
	int	i;

	for (i = 0; i < 6; i++)
		len += strlen(s[i]) + 1;
	ev(w, PROTO_IPE, t);
	u16(w, (unsigned)((int)len + delta));
	u64(w, info);
	for (i = 0; i < 6; i++)
		put(w, s[i], strlen(s[i]) + 1);
	put(w, extra, nextra);
}

static void
ipe_header(struct vec *w)
{
	w->n = 0;
	begin(w);
	type(w, PROTO_BLOCK_MARKER, 14, "Block marker");
	type(w, PROTO_CREATE_THREAD, 4, "Create thread");
	type(w, PROTO_RUN_THREAD, 4, "Run thread");
	type(w, PROTO_IPE, -1, "IPE");
	end_header(w);
}

static void
t_ipe(void)
{
	static const char *const a[6] = { "Rec_con_info", "1", "Rec", "mk",
	    "Main", "Heap.hs:12:14-59" };
	static const char *const b[6] = { "sat_info", "15", "[Int]", "",
	    "Main", ":" };
	const char	*want_a = "1: Info Table: 40e800:1:Rec_con_info - "
	    "Heap.hs:12:14-59";
	struct proto_dec *d;
	struct proto_ev	 e;
	size_t		 at, blk;
	long		 k;
	int		 delta;

	/* GHC 9.2 declares what it writes; 9.4 on one byte more. */
	for (delta = 0; delta <= 1; delta++) {
		ipe_header(&v);
		ipe(&v, 1, 0x40e800, a, delta, "", 0);
		ipe(&v, 2, 0x40aa68, b, delta, "", 0);
		ev(&v, PROTO_RUN_THREAD, 3); u32(&v, 7);
		decode(&v, &g);
		CHECK(g.nev == 3 && g.nerr == 0, "IPE +%d: %d events, %d errors "
		    "(%s)", delta, g.nev, g.nerr, g.err[0]);
		CHECK(strcmp(g.show[0], want_a) == 0, "%s", g.show[0]);
		CHECK(strcmp(g.show[1], "2: Info Table: 40aa68:15:sat_info - :")
		    == 0, "%s", g.show[1]);
		CHECK(strcmp(g.show[2], "3: running thread 7") == 0, "%s",
		    g.show[2]);
	}

	/* Framed by a reader of its own (order.c): one byte short. */
	ipe_header(&v);
	at = v.n;
	ipe(&v, 1, 0x40e800, a, 1, "", 0);
	ev(&v, PROTO_RUN_THREAD, 3); u32(&v, 7);
	d = proto_dec_new(0);
	proto_dec_feed(d, v.b, at);
	while (proto_dec_next(d, &e) != PROTO_AGAIN)
		;
	k = proto_frame_len(proto_dec_sizes(d), v.b + at, v.n - at);
	CHECK(k == (long)(v.n - at - 14), "proto_frame_len of a 9.6 IPE: %ld",
	    k);
	/* Decoded again alone (the two passes, a history's reader) as it
	 * was framed: one byte short, or as declared, which the bytes after
	 * it decide (an undeclared tag there: as declared). */
	CHECK(proto_dec_one(d, v.b + at, (size_t)k, 0, &e) == PROTO_EVENT &&
	    e.time == 1 && e.kind == PROTO_IPE,
	    "a 9.6 IPE alone, one byte short");
	CHECK(proto_dec_one(d, v.b + at, (size_t)k + 1, 0, &e) == PROTO_EVENT &&
	    e.time == 1 && e.kind == PROTO_IPE && e.size == (uint32_t)k + 1,
	    "a 9.6 IPE alone, as declared");
	CHECK(proto_dec_one(d, v.b + at, (size_t)k + 2, 0, &e) == PROTO_ERROR,
	    "an IPE alone with a byte more than declared: an error");
	proto_dec_free(d);

	/* Last before the end marker, the stream ending there; and before a
	 * CREATE_THREAD, whose tag 0 reads the same at either place. */
	ipe_header(&v);
	ipe(&v, 1, 0x40e800, a, 1, "", 0);
	ev(&v, PROTO_CREATE_THREAD, 2); u32(&v, 9);
	ipe(&v, 3, 0x40aa68, b, 1, "", 0);
	u16(&v, 0xffff);
	decode(&v, &g);
	CHECK(g.nev == 3 && g.nerr == 0 && g.nend == 1 && g.pending == 0,
	    "IPE then the end: %d events, %d errors, %d ends", g.nev, g.nerr,
	    g.nend);
	CHECK(strcmp(g.show[1], "2: creating thread 9") == 0, "%s",
	    g.show[1]);

	/* In a block whose size counts the bytes written: the next block's
	 * events keep their capability. */
	ipe_header(&v);
	blk = v.n;
	ev(&v, PROTO_BLOCK_MARKER, 1);
	u32(&v, 0); u64(&v, 2); u16(&v, 0xffff);
	ipe(&v, 1, 0x40e800, a, 1, "", 0);
	v.b[blk + 10] = (unsigned char)((v.n - blk) >> 24);
	v.b[blk + 11] = (unsigned char)((v.n - blk) >> 16);
	v.b[blk + 12] = (unsigned char)((v.n - blk) >> 8);
	v.b[blk + 13] = (unsigned char)(v.n - blk);
	ev(&v, PROTO_BLOCK_MARKER, 3);
	u32(&v, 24 + 14); u64(&v, 4); u16(&v, 1);
	ev(&v, PROTO_RUN_THREAD, 4); u32(&v, 7);
	decode(&v, &g);
	CHECK(g.nev == 4 && g.nerr == 0 && strcmp(g.show[3],
	    "4: cap 1: running thread 7") == 0, "IPE in a block: %d events, "
	    "%s", g.nev, g.show[3]);

	/* A future GHC's longer IPE: its extra bytes skipped, even one
	 * byte (not 0) or a whole string. */
	ipe_header(&v);
	ipe(&v, 1, 0x40e800, a, 0, "\7", 1);
	ipe(&v, 2, 0x40e800, a, 0, "unit-id\0", 8);
	ev(&v, PROTO_RUN_THREAD, 3); u32(&v, 7);
	decode(&v, &g);
	CHECK(g.nev == 3 && g.nerr == 0 && strcmp(g.show[0], want_a) == 0 &&
	    strcmp(g.show[2], "3: running thread 7") == 0,
	    "longer IPE: %d events, %d errors: %s", g.nev, g.nerr, g.err[0]);

	/* Damaged: the last string has no NUL.  An error at its byte, the
	 * events before and after kept. */
	ipe_header(&v);
	ipe(&v, 1, 0x40e800, a, 1, "", 0);
	at = v.n;
	ev(&v, PROTO_IPE, 2);
	u16(&v, 8 + 4);
	u64(&v, 0x40aa68);
	put(&v, "abcd", 4);
	ev(&v, PROTO_RUN_THREAD, 3); u32(&v, 7);
	decode(&v, &g);
	snprintf(text, sizeof text, "byte %zu:", at);
	CHECK(g.nev == 2 && g.nerr == 1 && strncmp(g.err[0], text,
	    strlen(text)) == 0 && strstr(g.err[0], "NUL") != NULL,
	    "damaged IPE: %d events: %s", g.nev, g.err[0]);
	CHECK(strcmp(g.show[0], want_a) == 0 && strcmp(g.show[1],
	    "3: running thread 7") == 0, "%s / %s", g.show[0], g.show[1]);
}

static void
t_text(void)
{
	static const char	args[] = "a\0b\xc3\xa9" "1\0\x1b\x0eH\0";
	char			out[256];
	size_t			n;

	n = proto_haskell_show_list(args, sizeof args - 1, out, sizeof out);
	out[n] = '\0';
	CHECK(strcmp(out, "[\"a\",\"b\\233\\&1\",\"\\ESC\\SO\\&H\"]") == 0,
	    "%s", out);
	n = proto_haskell_show_list("", 0, out, sizeof out);
	out[n] = '\0';
	CHECK(strcmp(out, "[\"\"]") == 0, "%s", out);

	n = proto_utf8_lenient("a\xff\xc3\xa9", 4, out, sizeof out);
	CHECK(n == 6 && memcmp(out, "a\xef\xbf\xbd\xc3\xa9", 6) == 0,
	    "lenient");
	n = proto_sanitize("x\x1b[2J\x9b\xc2\x9by", 9, out, sizeof out);
	out[n] = '\0';
	CHECK(strcmp(out, "x.[2J\xef\xbf\xbd.y") == 0, "sanitize: %s", out);

	/* Names: an invalid byte as \xNN, and never two inputs alike. */
	{
		static const char *const in[] = {
			"caf\xe9", "caf\xe8", "caf\\xe9", "caf\\\xe9",
			"caf\\\\xe9", "caf\xef\xbf\xbd", "\\", "a\\b",
		};
		static const char *const want[] = {
			"caf\\xe9", "caf\\xe8", "caf\\\\xe9",
			"caf\\\\\\xe9", "caf\\\\\\\\xe9",
			"caf\xef\xbf\xbd", "\\", "a\\b",
		};
		size_t	i;

		for (i = 0; i < sizeof in / sizeof in[0]; i++) {
			n = proto_sanitize_name(in[i], strlen(in[i]), out,
			    sizeof out - 1);
			out[n] = '\0';
			CHECK(strcmp(out, want[i]) == 0, "name %zu: %s", i, out);
		}
		/* An escape is whole or not there. */
		n = proto_sanitize_name("ab\xe9", 3, out, 4);
		CHECK(n == 2, "cut before an escape: %zu", n);
	}
}

int
main(void)
{
	t_forward_compat();
	t_layouts();
	t_blocks();
	t_streams();
	t_bad();
	t_ipe();
	t_text();
	printf("vectors: %d passed, %d failed\n", passed, failed);
	return failed != 0;
}
