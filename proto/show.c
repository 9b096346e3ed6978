/*
 * show.c: an event as one line of `ghc-events show` text.
 *
 * The wording of each event follows the reference decoder (ghc-events'
 * buildEventInfo); ../shared/spec/EVENT_TABLE.md lists it.  The output is
 * not NUL-terminated and is cut if it does not fit.
 */
#include <stdio.h>
#include <string.h>

#include "proto.h"

struct out {
	char	*p;
	size_t	 n, size;
};

/*
 * Inlined: with PUTL's constant lengths, memcpy becomes a few moves (the
 * length is only cut on the rare path where the room runs out).
 */
static inline __attribute__((always_inline)) void
put(struct out *o, const char *s, size_t len)
{
	if (__builtin_expect(len <= o->size - o->n, 1)) {
		memcpy(o->p + o->n, s, len);
		o->n += len;
		return;
	}
	len = o->size - o->n;
	memcpy(o->p + o->n, s, len);
	o->n += len;
}

static void
puts_(struct out *o, const char *s)
{
	put(o, s, strlen(s));
}

/* A string literal: its length is known when compiling. */
#define PUTL(o, lit)	put((o), (lit), sizeof (lit) - 1)

static const char pairs[] =
    "00010203040506070809101112131415161718192021222324"
    "25262728293031323334353637383940414243444546474849"
    "50515253545556575859606162636465666768697071727374"
    "75767778798081828384858687888990919293949596979899";

/* 10^i: where a decimal number gets its i+1st digit (proto.h). */
const uint64_t proto_pow10[20] = {
	1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
	10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
	100000000000ULL, 1000000000000ULL, 10000000000000ULL,
	100000000000000ULL, 1000000000000000ULL, 10000000000000000ULL,
	100000000000000000ULL, 1000000000000000000ULL,
	10000000000000000000ULL,
};

/* Decimal digits of v >= 10: from its bit length, then one compare. */
static inline unsigned
digits(uint64_t v)
{
	unsigned	t = ((64 - (unsigned)__builtin_clzll(v)) * 1233) >> 12;

	return t + (v >= proto_pow10[t]);
}

/* How many decimal digits v has (proto.h). */
unsigned
proto_ndigits(uint64_t v)
{
	return v < 10 ? 1 : digits(v);
}

/* Exactly eight digits of v < 10^8, ending at d: four independent pairs. */
static inline void
eight(char *d, uint32_t v)
{
	uint32_t	a = v / 10000, b = v % 10000;

	memcpy(d - 8, pairs + 2 * (a / 100), 2);
	memcpy(d - 6, pairs + 2 * (a % 100), 2);
	memcpy(d - 4, pairs + 2 * (b / 100), 2);
	memcpy(d - 2, pairs + 2 * (b % 100), 2);
}

/* v in decimal, written from its last digit back, in place. */
static void
dec64(struct out *o, uint64_t v)
{
	unsigned	 n;
	char		*d;
	uint32_t	 low;

	if (v < 100 && o->size - o->n >= 2) {
		if (v < 10)
			o->p[o->n++] = (char)('0' + v);
		else {
			memcpy(o->p + o->n, pairs + 2 * v, 2);
			o->n += 2;
		}
		return;
	}
	n = v < 10 ? 1 : digits(v);
	if (o->size - o->n < n)
		return;
	d = o->p + o->n + n;
	o->n += n;
	while (v >= 100000000) {
		eight(d, (uint32_t)(v % 100000000));
		v /= 100000000;
		d -= 8;
	}
	low = (uint32_t)v;
	while (low >= 100) {
		d -= 2;
		memcpy(d, pairs + 2 * (low % 100), 2);
		low /= 100;
	}
	if (low >= 10)
		memcpy(d - 2, pairs + 2 * low, 2);
	else
		d[-1] = (char)('0' + low);
}

static void
hex64(struct out *o, uint64_t v)
{
	char	tmp[24];
	size_t	i = sizeof tmp;

	do {
		tmp[--i] = "0123456789abcdef"[v & 15];
		v >>= 4;
	} while (v != 0);
	put(o, tmp + i, sizeof tmp - i);
}

static void
decs(struct out *o, int v)
{
	if (v < 0) {
		put(o, "-", 1);
		dec64(o, (uint64_t)-(int64_t)v);
	} else
		dec64(o, (uint64_t)v);
}

/* Text fields: decoded leniently, as Data.Text does. */
static void
text(struct out *o, struct proto_str s)
{
	o->n += proto_utf8_lenient(s.p, s.len, o->p + o->n, o->size - o->n);
}

/* String fields read byte by byte as Latin-1 (Haskell String). */
static void
latin1(struct out *o, struct proto_str s)
{
	uint32_t	i;
	unsigned char	c;
	char		two[2];

	for (i = 0; i < s.len; i++) {
		c = (unsigned char)s.p[i];
		if (c < 0x80) {
			put(o, (const char *)&c, 1);
		} else {
			two[0] = (char)(0xc0 | (c >> 6));
			two[1] = (char)(0x80 | (c & 0x3f));
			put(o, two, 2);
		}
	}
}

static void
stack(struct out *o, const struct proto_ccs *c)
{
	uint32_t	i;

	for (i = 0; i < c->depth; i++) {
		if (i > 0)
			PUTL(o, ", ");
		dec64(o, proto_ccs_at(c, i));
	}
}

static const char *
capset_type(uint16_t t)
{
	switch (t) {
	case 1:	return "CapsetCustom";
	case 2:	return "CapsetOsProcess";
	case 3:	return "CapsetClockDomain";
	default: return "CapsetUnknown";
	}
}

static const char *
eden_tag(uint8_t t)
{
	static const char *const names[] = {
		"Ready", "NewPE", "PETIDS", "Finish", "FailPE", "RFork",
		"Connect", "DataMes", "Head", "Constr", "Part", "Terminate",
		"Packet",
	};

	if (t >= 0x50 && t - 0x50 < (int)(sizeof names / sizeof names[0]))
		return names[t - 0x50];
	return "Unknown";
}

static void
stop(struct out *o, const struct proto_ev *ev)
{
	const char	*s;
	int		 info;

	s = proto_stop_status(ev->u.stop.status, &info);
	PUTL(o, "stopping thread ");
	dec64(o, ev->u.stop.thread);
	PUTL(o, " (");
	if (info && ev->u.stop.has_info) {
		puts_(o, s);
		dec64(o, ev->u.stop.info);
	} else if (ev->u.stop.status == 8)
		PUTL(o, "blocked on a black hole");
	else if (ev->u.stop.status == 2)
		PUTL(o, "stack overflow");
	else
		puts_(o, s);
	PUTL(o, ")");
}

static void
heap_prof_begin(struct out *o, const struct proto_ev *ev)
{
	const char	*b = proto_breakdown_name(ev->u.heap_prof_begin.breakdown);
	int		 i, any = 0;

	PUTL(o, "start heap profiling ");
	dec64(o, ev->u.heap_prof_begin.id);
	PUTL(o, " at sampling period ");
	dec64(o, ev->u.heap_prof_begin.period);
	PUTL(o, " broken down by ");
	if (b != NULL)
		puts_(o, b);
	else {
		PUTL(o, "unknown (");
		dec64(o, ev->u.heap_prof_begin.breakdown);
		PUTL(o, ")");
	}
	for (i = 0; i < 7; i++) {
		if (ev->u.heap_prof_begin.filter[i].len == 0)
			continue;
		if (!any++)
			PUTL(o, " filtered by ");
		text(o, ev->u.heap_prof_begin.filter[i]);
		PUTL(o, ", ");
	}
}

static void
binary(struct out *o, struct proto_str s)
{
	uint32_t	i;
	char		c;

	for (i = 0; i < s.len; i++) {
		c = s.p[i];
		if (c < 0x20 || c > 0x7e)
			c = '.';
		put(o, &c, 1);
	}
}

static void
info(struct out *o, const struct proto_ev *ev, const struct proto_dec *d)
{
	const char	*desc;

	switch (ev->kind) {
	case PROTO_BLOCK_MARKER:
		PUTL(o, "event block: cap ");
		dec64(o, ev->u.block.cap);
		PUTL(o, ", end time: ");
		dec64(o, ev->u.block.end_time);
		PUTL(o, "\n");
		break;
	case PROTO_STARTUP:
		PUTL(o, "startup: ");
		dec64(o, ev->u.startup.n);
		PUTL(o, " capabilities");
		break;
	case PROTO_CREATE_THREAD:
		PUTL(o, "creating thread ");
		dec64(o, ev->u.thread.thread);
		break;
	case PROTO_RUN_THREAD:
		PUTL(o, "running thread ");
		dec64(o, ev->u.thread.thread);
		break;
	case PROTO_STOP_THREAD:
		stop(o, ev);
		break;
	case PROTO_THREAD_RUNNABLE:
		PUTL(o, "thread ");
		dec64(o, ev->u.thread.thread);
		PUTL(o, " is runnable");
		break;
	case PROTO_MIGRATE_THREAD:
		PUTL(o, "migrating thread ");
		dec64(o, ev->u.migrate.thread);
		PUTL(o, " to cap ");
		dec64(o, ev->u.migrate.cap);
		break;
	case PROTO_CREATE_SPARK_THREAD:
		PUTL(o, "creating spark thread ");
		dec64(o, ev->u.thread.thread);
		break;
	case PROTO_SPARK_COUNTERS:
		PUTL(o, "spark stats: ");
		dec64(o, ev->u.sparks.crt);
		PUTL(o, " created, ");
		dec64(o, ev->u.sparks.cnv);
		PUTL(o, " converted, ");
		dec64(o, ev->u.sparks.rem);
		PUTL(o, " remaining (");
		dec64(o, ev->u.sparks.ovf);
		PUTL(o, " overflowed, ");
		dec64(o, ev->u.sparks.dud);
		PUTL(o, " dud, ");
		dec64(o, ev->u.sparks.gcd);
		PUTL(o, " GC'd, ");
		dec64(o, ev->u.sparks.fiz);
		PUTL(o, " fizzled)");
		break;
	case PROTO_SPARK_CREATE:
		PUTL(o, "spark created");
		break;
	case PROTO_SPARK_DUD:
		PUTL(o, "dud spark discarded");
		break;
	case PROTO_SPARK_OVERFLOW:
		PUTL(o, "overflowed spark discarded");
		break;
	case PROTO_SPARK_RUN:
	case PROTO_RUN_SPARK:
		PUTL(o, "running a local spark");
		break;
	case PROTO_SPARK_STEAL:
		PUTL(o, "stealing a spark from cap ");
		dec64(o, ev->u.cap.cap);
		break;
	case PROTO_STEAL_SPARK:
		PUTL(o, "stealing a spark from cap ");
		dec64(o, ev->u.migrate.cap);
		break;
	case PROTO_SPARK_FIZZLE:
		PUTL(o, "spark fizzled");
		break;
	case PROTO_SPARK_GC:
		PUTL(o, "spark GCed");
		break;
	case PROTO_TASK_CREATE:
		PUTL(o, "task 0x");
		hex64(o, ev->u.task_create.task);
		PUTL(o, " created on cap ");
		dec64(o, ev->u.task_create.cap);
		PUTL(o, " with OS kernel thread ");
		dec64(o, ev->u.task_create.tid);
		break;
	case PROTO_TASK_MIGRATE:
		PUTL(o, "task 0x");
		hex64(o, ev->u.task_migrate.task);
		PUTL(o, " migrated from cap ");
		dec64(o, ev->u.task_migrate.cap);
		PUTL(o, " to cap ");
		dec64(o, ev->u.task_migrate.new_cap);
		break;
	case PROTO_TASK_DELETE:
		PUTL(o, "task 0x");
		hex64(o, ev->u.task.task);
		PUTL(o, " deleted");
		break;
	case PROTO_SHUTDOWN:
		PUTL(o, "shutting down");
		break;
	case PROTO_THREAD_WAKEUP:
		PUTL(o, "waking up thread ");
		dec64(o, ev->u.migrate.thread);
		PUTL(o, " on cap ");
		dec64(o, ev->u.migrate.cap);
		break;
	case PROTO_THREAD_LABEL:
		PUTL(o, "thread ");
		dec64(o, ev->u.label.thread);
		PUTL(o, " has label \"");
		text(o, ev->u.label.label);
		puts_(o, "\"");
		break;
	case PROTO_REQUEST_SEQ_GC:
		PUTL(o, "requesting sequential GC");
		break;
	case PROTO_REQUEST_PAR_GC:
		PUTL(o, "requesting parallel GC");
		break;
	case PROTO_GC_START:
		PUTL(o, "starting GC");
		break;
	case PROTO_GC_END:
		PUTL(o, "finished GC");
		break;
	case PROTO_GC_WORK:
		PUTL(o, "GC working");
		break;
	case PROTO_GC_IDLE:
		PUTL(o, "GC idle");
		break;
	case PROTO_GC_DONE:
		PUTL(o, "GC done");
		break;
	case PROTO_GC_GLOBAL_SYNC:
		PUTL(o, "all caps stopped for GC");
		break;
	case PROTO_GC_STATS_GHC:
		PUTL(o, "GC stats for heap capset ");
		dec64(o, ev->u.gc_stats.capset);
		PUTL(o, ": generation ");
		dec64(o, ev->u.gc_stats.gen);
		PUTL(o, ", ");
		dec64(o, ev->u.gc_stats.copied);
		PUTL(o, " bytes copied, ");
		dec64(o, ev->u.gc_stats.slop);
		PUTL(o, " bytes slop, ");
		dec64(o, ev->u.gc_stats.frag);
		PUTL(o, " bytes fragmentation, ");
		dec64(o, ev->u.gc_stats.par_n_threads);
		PUTL(o, " par threads, ");
		dec64(o, ev->u.gc_stats.par_max_copied);
		PUTL(o, " bytes max par copied, ");
		dec64(o, ev->u.gc_stats.par_tot_copied);
		PUTL(o, " bytes total par copied");
		if (ev->u.gc_stats.has_balanced) {
			PUTL(o, ", ");
			dec64(o, ev->u.gc_stats.par_balanced_copied);
			PUTL(o, " bytes balanced par copied");
		}
		break;
	case PROTO_HEAP_ALLOCATED:
		PUTL(o, "allocated on heap capset ");
		dec64(o, ev->u.heap.capset);
		PUTL(o, ": ");
		dec64(o, ev->u.heap.bytes);
		PUTL(o, " total bytes till now");
		break;
	case PROTO_HEAP_SIZE:
		PUTL(o, "size of heap capset ");
		dec64(o, ev->u.heap.capset);
		PUTL(o, ": ");
		dec64(o, ev->u.heap.bytes);
		PUTL(o, " bytes");
		break;
	case PROTO_BLOCKS_SIZE:
		PUTL(o, "blocks size of heap capset ");
		dec64(o, ev->u.heap.capset);
		PUTL(o, ": ");
		dec64(o, ev->u.heap.bytes);
		PUTL(o, " bytes");
		break;
	case PROTO_HEAP_LIVE:
		PUTL(o, "live data in heap capset ");
		dec64(o, ev->u.heap.capset);
		PUTL(o, ": ");
		dec64(o, ev->u.heap.bytes);
		PUTL(o, " bytes");
		break;
	case PROTO_HEAP_INFO_GHC:
		PUTL(o, "heap stats for heap capset ");
		dec64(o, ev->u.heap_info.capset);
		PUTL(o, ": generations ");
		dec64(o, ev->u.heap_info.gens);
		PUTL(o, ", ");
		dec64(o, ev->u.heap_info.max_heap);
		PUTL(o, " bytes max heap size, ");
		dec64(o, ev->u.heap_info.alloc_area);
		PUTL(o, " bytes alloc area size, ");
		dec64(o, ev->u.heap_info.mblock);
		PUTL(o, " bytes mblock size, ");
		dec64(o, ev->u.heap_info.block);
		PUTL(o, " bytes block size");
		break;
	case PROTO_MEM_RETURN:
		PUTL(o, "memory returned (mblocks): current(");
		dec64(o, ev->u.mem_return.current);
		PUTL(o, ") needed(");
		dec64(o, ev->u.mem_return.needed);
		PUTL(o, ") returned(");
		dec64(o, ev->u.mem_return.returned);
		PUTL(o, ")");
		break;
	case PROTO_CAP_CREATE:
		PUTL(o, "created cap ");
		dec64(o, ev->u.cap.cap);
		break;
	case PROTO_CAP_DELETE:
		PUTL(o, "deleted cap ");
		dec64(o, ev->u.cap.cap);
		break;
	case PROTO_CAP_DISABLE:
		PUTL(o, "disabled cap ");
		dec64(o, ev->u.cap.cap);
		break;
	case PROTO_CAP_ENABLE:
		PUTL(o, "enabled cap ");
		dec64(o, ev->u.cap.cap);
		break;
	case PROTO_LOG_MSG:
	case PROTO_USER_MSG:
		text(o, ev->u.msg);
		break;
	case PROTO_USER_MARKER:
		PUTL(o, "marker: ");
		text(o, ev->u.msg);
		break;
	case PROTO_CAPSET_CREATE:
		PUTL(o, "created capset ");
		dec64(o, ev->u.capset_create.capset);
		PUTL(o, " of type ");
		puts_(o, capset_type(ev->u.capset_create.type));
		break;
	case PROTO_CAPSET_DELETE:
		PUTL(o, "deleted capset ");
		dec64(o, ev->u.capset.capset);
		break;
	case PROTO_CAPSET_ASSIGN_CAP:
		PUTL(o, "assigned cap ");
		dec64(o, ev->u.capset_cap.cap);
		PUTL(o, " to capset ");
		dec64(o, ev->u.capset_cap.capset);
		break;
	case PROTO_CAPSET_REMOVE_CAP:
		PUTL(o, "removed cap ");
		dec64(o, ev->u.capset_cap.cap);
		PUTL(o, " from capset ");
		dec64(o, ev->u.capset_cap.capset);
		break;
	case PROTO_OSPROCESS_PID:
		PUTL(o, "capset ");
		dec64(o, ev->u.pid.capset);
		PUTL(o, ": pid ");
		dec64(o, ev->u.pid.pid);
		break;
	case PROTO_OSPROCESS_PPID:
		PUTL(o, "capset ");
		dec64(o, ev->u.pid.capset);
		PUTL(o, ": parent pid ");
		dec64(o, ev->u.pid.pid);
		break;
	case PROTO_WALL_CLOCK_TIME:
		PUTL(o, "capset ");
		dec64(o, ev->u.wall.capset);
		PUTL(o, ": wall clock time ");
		dec64(o, ev->u.wall.sec);
		PUTL(o, "s ");
		dec64(o, ev->u.wall.nsec);
		PUTL(o, "ns (unix epoch)");
		break;
	case PROTO_RTS_IDENTIFIER:
		PUTL(o, "capset ");
		dec64(o, ev->u.capset_str.capset);
		PUTL(o, ": RTS version \"");
		text(o, ev->u.capset_str.s);
		puts_(o, "\"");
		break;
	case PROTO_PROGRAM_ARGS:
	case PROTO_PROGRAM_ENV:
		PUTL(o, "capset ");
		dec64(o, ev->u.capset_str.capset);
		PUTL(o, ": ");
		puts_(o, ev->kind == PROTO_PROGRAM_ARGS ? "args" : "env");
		PUTL(o, ": ");
		o->n += proto_haskell_show_list(ev->u.capset_str.s.p,
		    ev->u.capset_str.s.len, o->p + o->n, o->size - o->n);
		break;
	case PROTO_INTERN_STRING:
		puts_(o, "Interned string: \"");
		latin1(o, ev->u.intern.s);
		PUTL(o, "\" with id ");
		dec64(o, ev->u.intern.id);
		break;
	case PROTO_VERSION:
		PUTL(o, "compiler version is ");
		latin1(o, ev->u.msg);
		break;
	case PROTO_PROGRAM_INVOCATION:
		PUTL(o, "program invocation: ");
		latin1(o, ev->u.msg);
		break;
	case PROTO_EDEN_START_RECEIVE:
		PUTL(o, "starting to receive");
		break;
	case PROTO_EDEN_END_RECEIVE:
		PUTL(o, "stop receiving");
		break;
	case PROTO_CREATE_PROCESS:
		PUTL(o, "creating process ");
		dec64(o, ev->u.u32x2.a);
		break;
	case PROTO_KILL_PROCESS:
		PUTL(o, "killing process ");
		dec64(o, ev->u.u32x2.a);
		break;
	case PROTO_ASSIGN_THREAD_TO_PROCESS:
		PUTL(o, "assigning thread ");
		dec64(o, ev->u.u32x2.a);
		PUTL(o, " to process ");
		dec64(o, ev->u.u32x2.b);
		break;
	case PROTO_CREATE_MACHINE:
		PUTL(o, "creating machine ");
		dec64(o, ev->u.machine.machine);
		PUTL(o, " at ");
		dec64(o, ev->u.machine.realtime);
		break;
	case PROTO_KILL_MACHINE:
		PUTL(o, "killing machine ");
		dec64(o, ev->u.cap.cap);
		break;
	case PROTO_SEND_MESSAGE:
		PUTL(o, "sending message with tag ");
		puts_(o, eden_tag(ev->u.eden_msg.tag));
		PUTL(o, " from process ");
		dec64(o, ev->u.eden_msg.a);
		PUTL(o, ", thread ");
		dec64(o, ev->u.eden_msg.b);
		PUTL(o, " to machine ");
		dec64(o, ev->u.eden_msg.machine);
		PUTL(o, ", process ");
		dec64(o, ev->u.eden_msg.c);
		PUTL(o, " on inport ");
		dec64(o, ev->u.eden_msg.d);
		break;
	case PROTO_RECEIVE_MESSAGE:
		PUTL(o, "receiving message with tag ");
		puts_(o, eden_tag(ev->u.eden_msg.tag));
		PUTL(o, " at process ");
		dec64(o, ev->u.eden_msg.a);
		PUTL(o, ", inport ");
		dec64(o, ev->u.eden_msg.b);
		PUTL(o, " from machine ");
		dec64(o, ev->u.eden_msg.machine);
		PUTL(o, ", process ");
		dec64(o, ev->u.eden_msg.c);
		PUTL(o, ", thread ");
		dec64(o, ev->u.eden_msg.d);
		PUTL(o, " with size ");
		dec64(o, ev->u.eden_msg.e);
		break;
	case PROTO_SEND_RECEIVE_LOCAL_MESSAGE:
		PUTL(o, "sending/receiving message with tag ");
		puts_(o, eden_tag(ev->u.eden_msg.tag));
		PUTL(o, " from process ");
		dec64(o, ev->u.eden_msg.a);
		PUTL(o, ", thread ");
		dec64(o, ev->u.eden_msg.b);
		PUTL(o, " to process ");
		dec64(o, ev->u.eden_msg.c);
		PUTL(o, " on inport ");
		dec64(o, ev->u.eden_msg.d);
		break;
	case PROTO_MER_START_PAR_CONJUNCTION:
		PUTL(o, "Start a parallel conjunction 0x");
		hex64(o, ev->u.mer.id);
		PUTL(o, ", static_id: ");
		dec64(o, ev->u.mer.n);
		break;
	case PROTO_MER_STOP_PAR_CONJUNCTION:
		PUTL(o, "End par conjunction: 0x");
		hex64(o, ev->u.mer.id);
		break;
	case PROTO_MER_STOP_PAR_CONJUNCT:
		PUTL(o, "End par conjunct: 0x");
		hex64(o, ev->u.mer.id);
		break;
	case PROTO_MER_CREATE_SPARK:
		PUTL(o, "Create spark for conjunction: 0x");
		hex64(o, ev->u.mer.id);
		PUTL(o, " spark: 0x");
		hex64(o, ev->u.mer.n);
		break;
	case PROTO_MER_FUT_CREATE:
		PUTL(o, "Create future 0x");
		hex64(o, ev->u.mer.id);
		PUTL(o, " named ");
		dec64(o, ev->u.mer.n);
		break;
	case PROTO_MER_FUT_WAIT_NOSUSPEND:
		PUTL(o, "Wait didn't suspend for future: 0x");
		hex64(o, ev->u.mer.id);
		break;
	case PROTO_MER_FUT_WAIT_SUSPENDED:
		PUTL(o, "Wait suspended on future: 0x");
		hex64(o, ev->u.mer.id);
		break;
	case PROTO_MER_FUT_SIGNAL:
		PUTL(o, "Signaled future 0x");
		hex64(o, ev->u.mer.id);
		break;
	case PROTO_MER_LOOKING_FOR_GLOBAL_CONTEXT:
		PUTL(o, "Looking for global thread to resume");
		break;
	case PROTO_MER_WORK_STEALING:
		PUTL(o, "Trying to steal a spark");
		break;
	case PROTO_MER_LOOKING_FOR_LOCAL_SPARK:
		PUTL(o, "Looking for a local spark to execute");
		break;
	case PROTO_MER_RELEASE_CONTEXT:
		PUTL(o, "Releasing thread ");
		dec64(o, ev->u.thread.thread);
		PUTL(o, " to the free pool");
		break;
	case PROTO_MER_ENGINE_SLEEPING:
		PUTL(o, "Capability going to sleep");
		break;
	case PROTO_MER_CALLING_MAIN:
		PUTL(o, "About to call the program entry point");
		break;
	case PROTO_PERF_NAME:
		PUTL(o, "perf event ");
		dec64(o, ev->u.perf_name.num);
		PUTL(o, " named \"");
		text(o, ev->u.perf_name.name);
		puts_(o, "\"");
		break;
	case PROTO_PERF_COUNTER:
		PUTL(o, "perf event counter ");
		dec64(o, ev->u.perf.num);
		PUTL(o, " incremented by ");
		dec64(o, ev->u.perf.period + 1);
		PUTL(o, " in OS thread ");
		dec64(o, ev->u.perf.tid);
		break;
	case PROTO_PERF_TRACEPOINT:
		PUTL(o, "perf event tracepoint ");
		dec64(o, ev->u.perf.num);
		PUTL(o, " reached in OS thread ");
		dec64(o, ev->u.perf.tid);
		break;
	case PROTO_HEAP_PROF_BEGIN:
		heap_prof_begin(o, ev);
		break;
	case PROTO_HEAP_PROF_COST_CENTRE:
		PUTL(o, "cost centre ");
		dec64(o, ev->u.cost_centre.id);
		PUTL(o, " ");
		text(o, ev->u.cost_centre.label);
		PUTL(o, " in ");
		text(o, ev->u.cost_centre.module);
		PUTL(o, " at ");
		text(o, ev->u.cost_centre.srcloc);
		if (ev->u.cost_centre.flags & 1)
			PUTL(o, " CAF");
		break;
	case PROTO_HEAP_PROF_SAMPLE_BEGIN:
		PUTL(o, "start heap prof sample ");
		dec64(o, ev->u.sample.era);
		break;
	case PROTO_HEAP_PROF_SAMPLE_END:
		PUTL(o, "end prof sample ");
		dec64(o, ev->u.sample.era);
		break;
	case PROTO_HEAP_BIO_PROF_SAMPLE_BEGIN:
		PUTL(o, "start heap prof sample ");
		dec64(o, ev->u.sample.era);
		PUTL(o, " at time ");
		dec64(o, ev->u.sample.time);
		break;
	case PROTO_HEAP_PROF_SAMPLE_COST_CENTRE:
		PUTL(o, "heap prof sample ");
		dec64(o, ev->u.heap_sample_cc.id);
		PUTL(o, ", residency ");
		dec64(o, ev->u.heap_sample_cc.residency);
		PUTL(o, ", cost centre stack ");
		stack(o, &ev->u.heap_sample_cc.ccs);
		break;
	case PROTO_HEAP_PROF_SAMPLE_STRING:
		PUTL(o, "heap prof sample ");
		dec64(o, ev->u.heap_sample_str.id);
		PUTL(o, ", residency ");
		dec64(o, ev->u.heap_sample_str.residency);
		PUTL(o, ", label ");
		text(o, ev->u.heap_sample_str.label);
		break;
	case PROTO_PROF_SAMPLE_COST_CENTRE:
		PUTL(o, "cap no ");
		decs(o, (int32_t)ev->u.prof_sample.cap);
		PUTL(o, ", prof sample ");
		dec64(o, ev->u.prof_sample.ticks);
		PUTL(o, ", cost centre stack ");
		stack(o, &ev->u.prof_sample.ccs);
		break;
	case PROTO_PROF_BEGIN:
		PUTL(o, "start time profiling, tick interval ");
		dec64(o, ev->u.prof_begin.interval);
		PUTL(o, " (ns)");
		break;
	case PROTO_IPE:
		PUTL(o, "Info Table: ");
		hex64(o, ev->u.ipe.info);
		PUTL(o, ":");
		text(o, ev->u.ipe.closure_desc);
		PUTL(o, ":");
		text(o, ev->u.ipe.table_name);
		PUTL(o, " - ");
		text(o, ev->u.ipe.srcloc);
		break;
	case PROTO_USER_BINARY_MSG:
		PUTL(o, "binary message ");
		binary(o, ev->u.msg);
		break;
	case PROTO_CONC_MARK_BEGIN:
		PUTL(o, "concurrent mark began");
		break;
	case PROTO_CONC_MARK_END:
		PUTL(o, "concurrent mark ended: marked ");
		dec64(o, ev->u.mark_end.marked);
		PUTL(o, " objects");
		break;
	case PROTO_CONC_SYNC_BEGIN:
		PUTL(o, "post-mark synchronization began");
		break;
	case PROTO_CONC_SYNC_END:
		PUTL(o, "post-mark synchronization ended");
		break;
	case PROTO_CONC_SWEEP_BEGIN:
		PUTL(o, "concurrent sweep began");
		break;
	case PROTO_CONC_SWEEP_END:
		PUTL(o, "concurrent sweep ended");
		break;
	case PROTO_CONC_UPD_REM_SET_FLUSH:
		PUTL(o, "update remembered set flushed by ");
		dec64(o, ev->u.cap.cap);
		break;
	case PROTO_NONMOVING_HEAP_CENSUS:
		PUTL(o, "nonmoving heap census ");
		dec64(o, ev->u.census.blk_size);
		PUTL(o, ": ");
		dec64(o, ev->u.census.active);
		PUTL(o, " active segments, ");
		dec64(o, ev->u.census.filled);
		PUTL(o, " filled segments, ");
		dec64(o, ev->u.census.live);
		PUTL(o, " live blocks");
		break;
	case PROTO_NONMOVING_PRUNED_SEGMENTS:
		PUTL(o, "nonmoving segments pruned: ");
		dec64(o, ev->u.pruned.pruned);
		PUTL(o, " pruned segments, ");
		dec64(o, ev->u.pruned.free);
		PUTL(o, " free segments retained");
		break;
	case PROTO_TICKY_COUNTER_DEF:
		PUTL(o, "ticky counter definition ");
		dec64(o, ev->u.ticky_def.id);
		PUTL(o, ", arity: ");
		dec64(o, ev->u.ticky_def.arity);
		PUTL(o, ", def kinds: ");
		text(o, ev->u.ticky_def.kinds);
		PUTL(o, ", name: ");
		text(o, ev->u.ticky_def.name);
		/* The reference prints 0 for a definition without one. */
		PUTL(o, ", itbl: ");
		hex64(o, ev->u.ticky_def.itbl);
		break;
	case PROTO_TICKY_COUNTER_SAMPLE:
		PUTL(o, "ticky counter sample ");
		dec64(o, ev->u.ticky.id);
		PUTL(o, ": entry count: ");
		dec64(o, ev->u.ticky.entries);
		PUTL(o, ", ");
		dec64(o, ev->u.ticky.allocs);
		PUTL(o, " allocs, ");
		dec64(o, ev->u.ticky.allocd);
		PUTL(o, " allocd");
		break;
	case PROTO_TICKY_BEGIN_SAMPLE:
		PUTL(o, "ticky begin counter sample");
		break;
	default:
		/* No parser: the reference prints the header's description. */
		if ((desc = proto_dec_type_desc(d, ev->tag)) != NULL) {
			struct proto_str s = { desc, (uint32_t)strlen(desc) };

			text(o, s);
		}
		break;
	}
}

size_t
proto_show_event(const struct proto_ev *ev, const struct proto_dec *d,
    char *buf, size_t size)
{
	struct out	o = { buf, 0, size };

	dec64(&o, ev->time);
	PUTL(&o, ": ");
	if (ev->cap != PROTO_NO_CAP) {
		PUTL(&o, "cap ");
		decs(&o, ev->cap);
		PUTL(&o, ": ");
	}
	info(&o, ev, d);
	return o.n;
}

/* One line of the "Event Types:" list. */
size_t
proto_show_type(const struct proto_dec *d, uint16_t tag, char *buf,
    size_t size)
{
	struct out	 o = { buf, 0, size };
	const char	*desc = proto_dec_type_desc(d, tag);
	int		 sz = proto_dec_type_size(d, tag);
	struct proto_str s = { desc ? desc : "", desc ? (uint32_t)strlen(desc) :
			      0 };

	dec64(&o, tag);
	PUTL(&o, ": ");
	text(&o, s);
	if (sz == PROTO_SIZE_VAR)
		PUTL(&o, " (size variable)");
	else {
		PUTL(&o, " (size ");
		decs(&o, sz);
		PUTL(&o, ")");
	}
	return o.n;
}
