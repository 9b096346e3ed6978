/*
 * proto.h: the GHC eventlog decoder.
 *
 * Pure: no I/O, no clock, no curses, no global state.  Bytes are pushed in
 * any chunking with proto_dec_feed(); events are pulled with proto_dec_next().
 * Pointers inside a delivered struct proto_ev are borrowed: they stay valid
 * until the next call to proto_dec_next() or proto_dec_feed().
 */
#ifndef PROTO_H
#define PROTO_H

#include <stddef.h>
#include <stdint.h>

/* GHC's event tags (rts/include/rts/EventLogFormat.h). */
enum {
	PROTO_CREATE_THREAD = 0,
	PROTO_RUN_THREAD = 1,
	PROTO_STOP_THREAD = 2,
	PROTO_THREAD_RUNNABLE = 3,
	PROTO_MIGRATE_THREAD = 4,
	PROTO_RUN_SPARK = 5,
	PROTO_STEAL_SPARK = 6,
	PROTO_SHUTDOWN = 7,
	PROTO_THREAD_WAKEUP = 8,
	PROTO_GC_START = 9,
	PROTO_GC_END = 10,
	PROTO_REQUEST_SEQ_GC = 11,
	PROTO_REQUEST_PAR_GC = 12,
	PROTO_CREATE_SPARK_THREAD = 15,
	PROTO_LOG_MSG = 16,
	PROTO_STARTUP = 17,
	PROTO_BLOCK_MARKER = 18,
	PROTO_USER_MSG = 19,
	PROTO_GC_IDLE = 20,
	PROTO_GC_WORK = 21,
	PROTO_GC_DONE = 22,
	PROTO_VERSION = 23,
	PROTO_PROGRAM_INVOCATION = 24,
	PROTO_CAPSET_CREATE = 25,
	PROTO_CAPSET_DELETE = 26,
	PROTO_CAPSET_ASSIGN_CAP = 27,
	PROTO_CAPSET_REMOVE_CAP = 28,
	PROTO_RTS_IDENTIFIER = 29,
	PROTO_PROGRAM_ARGS = 30,
	PROTO_PROGRAM_ENV = 31,
	PROTO_OSPROCESS_PID = 32,
	PROTO_OSPROCESS_PPID = 33,
	PROTO_SPARK_COUNTERS = 34,
	PROTO_SPARK_CREATE = 35,
	PROTO_SPARK_DUD = 36,
	PROTO_SPARK_OVERFLOW = 37,
	PROTO_SPARK_RUN = 38,
	PROTO_SPARK_STEAL = 39,
	PROTO_SPARK_FIZZLE = 40,
	PROTO_SPARK_GC = 41,
	PROTO_INTERN_STRING = 42,
	PROTO_WALL_CLOCK_TIME = 43,
	PROTO_THREAD_LABEL = 44,
	PROTO_CAP_CREATE = 45,
	PROTO_CAP_DELETE = 46,
	PROTO_CAP_DISABLE = 47,
	PROTO_CAP_ENABLE = 48,
	PROTO_HEAP_ALLOCATED = 49,
	PROTO_HEAP_SIZE = 50,
	PROTO_HEAP_LIVE = 51,
	PROTO_HEAP_INFO_GHC = 52,
	PROTO_GC_STATS_GHC = 53,
	PROTO_GC_GLOBAL_SYNC = 54,
	PROTO_TASK_CREATE = 55,
	PROTO_TASK_MIGRATE = 56,
	PROTO_TASK_DELETE = 57,
	PROTO_USER_MARKER = 58,
	PROTO_HACK_BUG_T9003 = 59,
	PROTO_EDEN_START_RECEIVE = 60,
	PROTO_EDEN_END_RECEIVE = 61,
	PROTO_CREATE_PROCESS = 62,
	PROTO_KILL_PROCESS = 63,
	PROTO_ASSIGN_THREAD_TO_PROCESS = 64,
	PROTO_CREATE_MACHINE = 65,
	PROTO_KILL_MACHINE = 66,
	PROTO_SEND_MESSAGE = 67,
	PROTO_RECEIVE_MESSAGE = 68,
	PROTO_SEND_RECEIVE_LOCAL_MESSAGE = 69,
	PROTO_MEM_RETURN = 90,
	PROTO_BLOCKS_SIZE = 91,
	PROTO_MER_START_PAR_CONJUNCTION = 100,
	PROTO_MER_STOP_PAR_CONJUNCTION = 101,
	PROTO_MER_STOP_PAR_CONJUNCT = 102,
	PROTO_MER_CREATE_SPARK = 103,
	PROTO_MER_FUT_CREATE = 104,
	PROTO_MER_FUT_WAIT_NOSUSPEND = 105,
	PROTO_MER_FUT_WAIT_SUSPENDED = 106,
	PROTO_MER_FUT_SIGNAL = 107,
	PROTO_MER_LOOKING_FOR_GLOBAL_CONTEXT = 108,
	PROTO_MER_WORK_STEALING = 109,
	PROTO_MER_RELEASE_CONTEXT = 110,
	PROTO_MER_ENGINE_SLEEPING = 111,
	PROTO_MER_LOOKING_FOR_LOCAL_SPARK = 112,
	PROTO_MER_CALLING_MAIN = 113,
	PROTO_PERF_NAME = 140,
	PROTO_PERF_COUNTER = 141,
	PROTO_PERF_TRACEPOINT = 142,
	PROTO_HEAP_PROF_BEGIN = 160,
	PROTO_HEAP_PROF_COST_CENTRE = 161,
	PROTO_HEAP_PROF_SAMPLE_BEGIN = 162,
	PROTO_HEAP_PROF_SAMPLE_COST_CENTRE = 163,
	PROTO_HEAP_PROF_SAMPLE_STRING = 164,
	PROTO_HEAP_PROF_SAMPLE_END = 165,
	PROTO_HEAP_BIO_PROF_SAMPLE_BEGIN = 166,
	PROTO_PROF_SAMPLE_COST_CENTRE = 167,
	PROTO_PROF_BEGIN = 168,
	PROTO_IPE = 169,
	PROTO_USER_BINARY_MSG = 181,
	PROTO_CONC_MARK_BEGIN = 200,
	PROTO_CONC_MARK_END = 201,
	PROTO_CONC_SYNC_BEGIN = 202,
	PROTO_CONC_SYNC_END = 203,
	PROTO_CONC_SWEEP_BEGIN = 204,
	PROTO_CONC_SWEEP_END = 205,
	PROTO_CONC_UPD_REM_SET_FLUSH = 206,
	PROTO_NONMOVING_HEAP_CENSUS = 207,
	PROTO_NONMOVING_PRUNED_SEGMENTS = 208,
	PROTO_TICKY_COUNTER_DEF = 210,
	PROTO_TICKY_COUNTER_SAMPLE = 211,
	PROTO_TICKY_BEGIN_SAMPLE = 212,
};

#define PROTO_NTAGS	 65536	/* tags are u16 */
#define PROTO_NO_CAP	 (-1)
#define PROTO_SIZE_VAR	 (-1)	/* declared variable size */
#define PROTO_SIZE_NONE	 (-2)	/* tag not declared in the header */

/* Limits on lengths read from the input. */
#define PROTO_MAX_DESC	 4096		/* an event type's description */
#define PROTO_MAX_EXTRA	 (1 << 20)	/* an event type's extra info */
#define PROTO_MAX_TYPES	 4096		/* event types in one header */
#define PROTO_MIN_BUF	 (80 << 10)	/* holds any event or type entry */

/* A string borrowed from the input: not NUL-terminated, maybe not UTF-8. */
struct proto_str {
	const char	*p;
	uint32_t	 len;
};

/* A cost-centre stack: depth big-endian u32 ids, innermost first. */
struct proto_ccs {
	const uint8_t	*ids;
	uint32_t	 depth;
};

/*
 * One decoded event.  "kind" says which member of the union is valid; it is
 * the tag for every event that has a parser and PROTO_KIND_UNKNOWN for an
 * undeclared-parser tag (the reference prints such an event as the header's
 * description for its tag).
 */
#define PROTO_KIND_UNKNOWN 0xffff

struct proto_ev {
	uint64_t	 time;
	uint64_t	 off;		/* stream offset of the first byte */
	uint16_t	 tag;
	uint16_t	 kind;		/* tag, or PROTO_KIND_UNKNOWN */
	int32_t		 cap;		/* capability of its block or NO_CAP */
	uint32_t	 size;		/* whole event in bytes, header included */
	uint32_t	 len;		/* payload bytes */
	const uint8_t	*payload;	/* borrowed */

	union {
		struct { uint32_t thread; } thread;	/* 0 1 3 15 */
		struct { uint32_t thread; uint16_t status;
			 uint32_t info; int has_info; } stop;
		struct { uint32_t thread; uint16_t cap; } migrate; /* 4 8 */
		struct { uint32_t block_size; uint64_t end_time;
			 uint16_t cap; } block;
		struct proto_str msg;	/* 16 19 58 23 24 181 */
		struct { uint16_t n; } startup;
		struct { uint32_t capset; uint16_t type; } capset_create;
		struct { uint32_t capset; } capset;	/* 26 */
		struct { uint32_t capset; uint16_t cap; } capset_cap;
		struct { uint32_t capset; struct proto_str s; } capset_str;
					/* 29 30 31: args NUL-separated */
		struct { uint32_t capset; uint32_t pid; } pid; /* 32 33 */
		struct { uint64_t crt, dud, ovf, cnv, gcd, fiz, rem; } sparks;
		struct { uint16_t cap; } cap;	/* 39 45-48 206 */
		struct { struct proto_str s; uint32_t id; } intern;
		struct { uint32_t capset; uint64_t sec;
			 uint32_t nsec; } wall;
		struct { uint32_t thread; struct proto_str label; } label;
		struct { uint32_t capset; uint64_t bytes; } heap; /* 49-51 91 */
		struct { uint32_t capset; uint16_t gens; uint64_t max_heap,
			 alloc_area, mblock, block; } heap_info;
		struct { uint32_t capset; uint16_t gen; uint64_t copied,
			 slop, frag; uint32_t par_n_threads;
			 uint64_t par_max_copied, par_tot_copied,
			 par_balanced_copied; int has_balanced; } gc_stats;
		struct { uint64_t task; uint16_t cap;
			 uint64_t tid; } task_create;
		struct { uint64_t task; uint16_t cap;
			 uint16_t new_cap; } task_migrate;
		struct { uint64_t task; } task;
		struct { uint32_t a, b; } u32x2;	/* 62-64 */
		struct { uint16_t machine; uint64_t realtime; } machine;
		struct { uint8_t tag; uint32_t a, b; uint16_t machine;
			 uint32_t c, d, e; } eden_msg;	/* 67-69 */
		struct { uint32_t capset, current, needed,
			 returned; } mem_return;
		struct { uint64_t id; uint32_t n; } mer;	/* 100-110 */
		struct { uint32_t num; struct proto_str name; } perf_name;
		struct { uint32_t num; uint64_t tid, period; } perf;
		struct { uint8_t id; uint64_t period; uint32_t breakdown;
			 struct proto_str filter[7]; } heap_prof_begin;
		struct { uint32_t id; struct proto_str label, module, srcloc;
			 uint8_t flags; } cost_centre;
		struct { uint64_t era; uint64_t time; } sample; /* 162 165 166 */
		struct { uint8_t id; uint64_t residency;
			 struct proto_ccs ccs; } heap_sample_cc;
		struct { uint8_t id; uint64_t residency;
			 struct proto_str label; } heap_sample_str;
		struct { uint32_t cap; uint64_t ticks;
			 struct proto_ccs ccs; } prof_sample;
		struct { uint64_t interval; } prof_begin;
		struct { uint64_t info; struct proto_str table_name,
			 closure_desc, ty_desc, label, module,
			 srcloc; } ipe;
		struct { uint32_t marked; } mark_end;
		struct { uint32_t blk_size; uint32_t active, filled,
			 live; } census;
		struct { uint32_t pruned, free; } pruned;
		struct { uint64_t id; uint16_t arity; struct proto_str kinds,
			 name; uint64_t itbl; int has_itbl;
			 struct proto_str json; int has_json; } ticky_def;
		struct { uint64_t id, entries, allocs, allocd; } ticky;
	} u;
};

/* An event its reader has framed (src/read/reader.c): its time, where it is
 * from a base, its size (proto_frame_len()) and its block's capability. */
struct proto_frame {
	uint64_t	 time, off;
	uint32_t	 size;
	int32_t		 cap;
};

enum proto_res {
	PROTO_AGAIN,	/* need more bytes */
	PROTO_EVENT,	/* *ev holds an event */
	PROTO_HEADER,	/* a header was read; its types are now in force */
	PROTO_END,	/* the end-of-data marker; decoding goes on after it */
	PROTO_SKIP,	/* bytes before a header were skipped */
	PROTO_ERROR,	/* bad input: see proto_dec_error(); then resyncs */
};

struct proto_dec;

/* dec.c */
struct proto_dec *proto_dec_new(size_t);
struct proto_dec *proto_dec_new_sharing(const struct proto_dec *, size_t);
void		  proto_dec_free(struct proto_dec *);
void		  proto_dec_reset(struct proto_dec *);
size_t		  proto_dec_feed(struct proto_dec *, const void *, size_t);
size_t		  proto_dec_room(const struct proto_dec *);
enum proto_res	  proto_dec_next(struct proto_dec *, struct proto_ev *);
const char	 *proto_dec_error(const struct proto_dec *);
uint64_t	  proto_dec_error_offset(const struct proto_dec *);
uint64_t	  proto_dec_skipped(const struct proto_dec *);
uint64_t	  proto_dec_offset(const struct proto_dec *);
const uint8_t	 *proto_dec_peek(const struct proto_dec *, uint64_t, size_t);
uint64_t	  proto_dec_pending(const struct proto_dec *);
int		  proto_dec_in_data(const struct proto_dec *);
unsigned	  proto_dec_headers(const struct proto_dec *);
uint64_t	  proto_dec_header_offset(const struct proto_dec *);
int		  proto_dec_type_size(const struct proto_dec *, uint16_t);
const char	 *proto_dec_type_desc(const struct proto_dec *, uint16_t);
unsigned	  proto_dec_ntypes(const struct proto_dec *);
uint16_t	  proto_dec_type_at(const struct proto_dec *, unsigned);
void		  proto_dec_frame_only(struct proto_dec *);
void		  proto_dec_seek(struct proto_dec *, uint64_t, int32_t,
		      int64_t);
enum proto_res	  proto_dec_one(const struct proto_dec *, const void *, size_t,
		      int32_t, struct proto_ev *);
long		  proto_frame_ipe(const int32_t *, const uint8_t *, size_t);
long		  proto_dec_at(const struct proto_dec *, const void *, size_t,
		      int32_t, struct proto_ev *, const char **);
size_t		  proto_dec_frames(const struct proto_dec *, const uint8_t *,
		      const struct proto_frame *, size_t, struct proto_ev *);
size_t		  proto_dec_heads(const struct proto_dec *, const uint8_t *,
		      const struct proto_frame *, size_t, struct proto_ev *);
const char	 *proto_dec_rest(struct proto_ev *);
const char	 *proto_dec_frame_why(const struct proto_dec *,
		      const uint8_t *, const struct proto_frame *);
const int32_t	 *proto_dec_sizes(const struct proto_dec *);
void		  proto_dec_block_state(const struct proto_dec *, int32_t *,
		      int64_t *);
const char	 *proto_fields(struct proto_ev *);

/* enc.c */
size_t		  proto_header_encode(const struct proto_dec *, uint8_t *,
		      size_t);

/*
 * An event kept by value (the reorder buffer's, what comes during a
 * correction): what struct proto_ev holds besides the decoded fields, the
 * payload right after it (proto_rec_put() copies it there).
 */
struct proto_rec {
	uint64_t	 time, off;
	int32_t		 cap;
	uint32_t	 size, len;
	uint16_t	 tag, kind;
};
void		  proto_rec_put(struct proto_rec *, const struct proto_ev *);
void		  proto_rec_get(const struct proto_rec *, struct proto_ev *);

/* fields.c */
uint16_t	  proto_fields_kind(uint16_t, int32_t);

/* names.c */
const char	 *proto_tag_name(uint16_t);
const char	 *proto_stop_status(uint16_t, int *);
const char	 *proto_breakdown_name(uint32_t);
const char	 *proto_closure_type_name(unsigned);

/* show.c: text as `ghc-events show` prints it */
size_t		  proto_show_event(const struct proto_ev *,
		      const struct proto_dec *, char *, size_t);
size_t		  proto_show_type(const struct proto_dec *, uint16_t, char *,
		      size_t);

/* text.c */
size_t		  proto_utf8_next(const char *, size_t, uint32_t *);
size_t		  proto_utf8_put(uint32_t, char *);
size_t		  proto_utf8_lenient(const char *, size_t, char *, size_t);
size_t		  proto_haskell_show_list(const char *, size_t, char *,
		      size_t);
size_t		  proto_sanitize(const char *, size_t, char *, size_t);
size_t		  proto_sanitize_name(const char *, size_t, char *, size_t);

/*
 * The size of the event at p (n bytes there) by a header's size table
 * (proto_dec_sizes: declared size + 2, 1 for variable, 0 for undeclared,
 * PROTO_SIZES_IPE for a variable IPE, framed by proto_frame_ipe()):
 * 0 if n is too short to tell or to hold it, -1 if the tag is undeclared.
 */
#define PROTO_SIZES_IPE	(-1)

static inline long
proto_frame_len(const int32_t *size, const uint8_t *p, size_t n)
{
	int32_t	s;
	size_t	total;

	if (n < 2)
		return 0;
	s = size[(p[0] << 8) | p[1]];
	if (s >= 2)
		total = 10 + (size_t)(s - 2);
	else if (s == 1 && n >= 12)
		total = 12 + (((size_t)p[10] << 8) | p[11]);
	else if (s == PROTO_SIZES_IPE)
		return proto_frame_ipe(size, p, n);
	else
		return s == 1 ? 0 : -1;
	return total <= n ? (long)total : 0;
}

static inline uint32_t
proto_ccs_at(const struct proto_ccs *c, uint32_t i)
{
	const uint8_t *p = c->ids + 4 * (size_t)i;

	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
	    ((uint32_t)p[2] << 8) | p[3];
}

/* show.c: decimal digits, shared with the raw events search. */
extern const uint64_t proto_pow10[20];	/* 10^i */
unsigned	 proto_ndigits(uint64_t);

#endif
