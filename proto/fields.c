/*
 * fields.c: the payload of each known event, read into struct proto_ev.
 *
 * Which parser applies to a tag is decided once per header
 * (proto_fields_kind), from the size the header declares: a fixed-size
 * event needs at least its parser's size (extra bytes are ignored, as the
 * format promises), a variable-size one needs a variable declaration.
 * Anything else is an unknown event, skipped by its declared size.
 */
#include <string.h>

#include "proto.h"

#define VAR	(-1)

/* Smallest payload each tag's parser reads; VAR for variable events. */
static const struct {
	uint16_t	tag;
	int16_t		min;
} parsers[] = {
	{ PROTO_CREATE_THREAD, 4 }, { PROTO_RUN_THREAD, 4 },
	{ PROTO_STOP_THREAD, 6 }, { PROTO_THREAD_RUNNABLE, 4 },
	{ PROTO_MIGRATE_THREAD, 6 }, { PROTO_RUN_SPARK, 4 },
	{ PROTO_STEAL_SPARK, 6 }, { PROTO_SHUTDOWN, 0 },
	{ PROTO_THREAD_WAKEUP, 6 }, { PROTO_GC_START, 0 },
	{ PROTO_GC_END, 0 }, { PROTO_REQUEST_SEQ_GC, 0 },
	{ PROTO_REQUEST_PAR_GC, 0 }, { PROTO_CREATE_SPARK_THREAD, 4 },
	{ PROTO_LOG_MSG, VAR }, { PROTO_STARTUP, 2 },
	{ PROTO_BLOCK_MARKER, 14 }, { PROTO_USER_MSG, VAR },
	{ PROTO_GC_IDLE, 0 }, { PROTO_GC_WORK, 0 }, { PROTO_GC_DONE, 0 },
	{ PROTO_VERSION, VAR }, { PROTO_PROGRAM_INVOCATION, VAR },
	{ PROTO_CAPSET_CREATE, 6 }, { PROTO_CAPSET_DELETE, 4 },
	{ PROTO_CAPSET_ASSIGN_CAP, 6 }, { PROTO_CAPSET_REMOVE_CAP, 6 },
	{ PROTO_RTS_IDENTIFIER, VAR }, { PROTO_PROGRAM_ARGS, VAR },
	{ PROTO_PROGRAM_ENV, VAR }, { PROTO_OSPROCESS_PID, 8 },
	{ PROTO_OSPROCESS_PPID, 8 }, { PROTO_SPARK_COUNTERS, 56 },
	{ PROTO_SPARK_CREATE, 0 }, { PROTO_SPARK_DUD, 0 },
	{ PROTO_SPARK_OVERFLOW, 0 }, { PROTO_SPARK_RUN, 0 },
	{ PROTO_SPARK_STEAL, 2 }, { PROTO_SPARK_FIZZLE, 0 },
	{ PROTO_SPARK_GC, 0 }, { PROTO_INTERN_STRING, VAR },
	{ PROTO_WALL_CLOCK_TIME, 16 }, { PROTO_THREAD_LABEL, VAR },
	{ PROTO_CAP_CREATE, 2 }, { PROTO_CAP_DELETE, 2 },
	{ PROTO_CAP_DISABLE, 2 }, { PROTO_CAP_ENABLE, 2 },
	{ PROTO_HEAP_ALLOCATED, 12 }, { PROTO_HEAP_SIZE, 12 },
	{ PROTO_HEAP_LIVE, 12 }, { PROTO_HEAP_INFO_GHC, 38 },
	{ PROTO_GC_STATS_GHC, 50 }, { PROTO_GC_GLOBAL_SYNC, 0 },
	{ PROTO_TASK_CREATE, 18 }, { PROTO_TASK_MIGRATE, 12 },
	{ PROTO_TASK_DELETE, 8 }, { PROTO_USER_MARKER, VAR },
	{ PROTO_EDEN_START_RECEIVE, 0 }, { PROTO_EDEN_END_RECEIVE, 0 },
	{ PROTO_CREATE_PROCESS, 4 }, { PROTO_KILL_PROCESS, 4 },
	{ PROTO_ASSIGN_THREAD_TO_PROCESS, 8 }, { PROTO_CREATE_MACHINE, 10 },
	{ PROTO_KILL_MACHINE, 2 }, { PROTO_SEND_MESSAGE, 19 },
	{ PROTO_RECEIVE_MESSAGE, 23 },
	{ PROTO_SEND_RECEIVE_LOCAL_MESSAGE, 17 },
	{ PROTO_MEM_RETURN, 16 }, { PROTO_BLOCKS_SIZE, 12 },
	{ PROTO_MER_START_PAR_CONJUNCTION, 12 },
	{ PROTO_MER_STOP_PAR_CONJUNCTION, 8 },
	{ PROTO_MER_STOP_PAR_CONJUNCT, 8 }, { PROTO_MER_CREATE_SPARK, 12 },
	{ PROTO_MER_FUT_CREATE, 12 }, { PROTO_MER_FUT_WAIT_NOSUSPEND, 8 },
	{ PROTO_MER_FUT_WAIT_SUSPENDED, 8 }, { PROTO_MER_FUT_SIGNAL, 8 },
	{ PROTO_MER_LOOKING_FOR_GLOBAL_CONTEXT, 0 },
	{ PROTO_MER_WORK_STEALING, 0 }, { PROTO_MER_RELEASE_CONTEXT, 4 },
	{ PROTO_MER_ENGINE_SLEEPING, 0 },
	{ PROTO_MER_LOOKING_FOR_LOCAL_SPARK, 0 },
	{ PROTO_MER_CALLING_MAIN, 0 }, { PROTO_PERF_NAME, VAR },
	{ PROTO_PERF_COUNTER, 20 }, { PROTO_PERF_TRACEPOINT, 12 },
	{ PROTO_HEAP_PROF_BEGIN, VAR }, { PROTO_HEAP_PROF_COST_CENTRE, VAR },
	{ PROTO_HEAP_PROF_SAMPLE_BEGIN, 8 },
	{ PROTO_HEAP_PROF_SAMPLE_COST_CENTRE, VAR },
	{ PROTO_HEAP_PROF_SAMPLE_STRING, VAR },
	{ PROTO_HEAP_PROF_SAMPLE_END, 8 },
	{ PROTO_HEAP_BIO_PROF_SAMPLE_BEGIN, 16 },
	{ PROTO_PROF_SAMPLE_COST_CENTRE, VAR }, { PROTO_PROF_BEGIN, 8 },
	{ PROTO_IPE, VAR }, { PROTO_USER_BINARY_MSG, VAR },
	{ PROTO_CONC_MARK_BEGIN, 0 }, { PROTO_CONC_MARK_END, 4 },
	{ PROTO_CONC_SYNC_BEGIN, 0 }, { PROTO_CONC_SYNC_END, 0 },
	{ PROTO_CONC_SWEEP_BEGIN, 0 }, { PROTO_CONC_SWEEP_END, 0 },
	{ PROTO_CONC_UPD_REM_SET_FLUSH, 2 },
	{ PROTO_NONMOVING_HEAP_CENSUS, 13 },
	{ PROTO_NONMOVING_PRUNED_SEGMENTS, 8 },
	{ PROTO_TICKY_COUNTER_DEF, VAR }, { PROTO_TICKY_COUNTER_SAMPLE, 32 },
	{ PROTO_TICKY_BEGIN_SAMPLE, 0 },
};

/* The parser for a tag declared with this size, or PROTO_KIND_UNKNOWN. */
uint16_t
proto_fields_kind(uint16_t tag, int32_t size)
{
	size_t	i;

	for (i = 0; i < sizeof parsers / sizeof parsers[0]; i++) {
		if (parsers[i].tag != tag)
			continue;
		if (parsers[i].min == VAR ? size == PROTO_SIZE_VAR :
		    size != PROTO_SIZE_VAR && size >= parsers[i].min)
			return tag;
		break;
	}
	return PROTO_KIND_UNKNOWN;
}

/* A bounded reader over one payload. */
struct rd {
	const uint8_t	*p;
	uint32_t	 left;
	const char	*bad;
};

#define INLINE static inline __attribute__((always_inline))

INLINE int
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

INLINE uint8_t
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

INLINE uint16_t
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

INLINE uint32_t
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

INLINE uint64_t
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

/* Fill ev->u from ev->payload; NULL, or why the payload is malformed. */
const char *
proto_fields(struct proto_ev *ev)
{
	struct rd	 r = { ev->payload, ev->len, NULL };
	int		 i;

	switch (ev->kind) {
	case PROTO_CREATE_THREAD:
	case PROTO_RUN_THREAD:
	case PROTO_THREAD_RUNNABLE:
	case PROTO_CREATE_SPARK_THREAD:
	case PROTO_RUN_SPARK:
	case PROTO_MER_RELEASE_CONTEXT:
		ev->u.thread.thread = u32(&r);
		break;
	case PROTO_STOP_THREAD:
		ev->u.stop.thread = u32(&r);
		ev->u.stop.status = u16(&r);
		ev->u.stop.has_info = r.left >= 4;
		ev->u.stop.info = ev->u.stop.has_info ? u32(&r) : 0;
		break;
	case PROTO_MIGRATE_THREAD:
	case PROTO_THREAD_WAKEUP:
	case PROTO_STEAL_SPARK:
		ev->u.migrate.thread = u32(&r);
		ev->u.migrate.cap = u16(&r);
		break;
	case PROTO_BLOCK_MARKER:
		ev->u.block.block_size = u32(&r);
		ev->u.block.end_time = u64(&r);
		ev->u.block.cap = u16(&r);
		break;
	case PROTO_LOG_MSG:
	case PROTO_USER_MSG:
	case PROTO_USER_MARKER:
	case PROTO_VERSION:
	case PROTO_PROGRAM_INVOCATION:
	case PROTO_USER_BINARY_MSG:
		ev->u.msg = rest(&r);
		break;
	case PROTO_STARTUP:
		ev->u.startup.n = u16(&r);
		break;
	case PROTO_CAPSET_CREATE:
		ev->u.capset_create.capset = u32(&r);
		ev->u.capset_create.type = u16(&r);
		break;
	case PROTO_CAPSET_DELETE:
		ev->u.capset.capset = u32(&r);
		break;
	case PROTO_CAPSET_ASSIGN_CAP:
	case PROTO_CAPSET_REMOVE_CAP:
		ev->u.capset_cap.capset = u32(&r);
		ev->u.capset_cap.cap = u16(&r);
		break;
	case PROTO_RTS_IDENTIFIER:
	case PROTO_PROGRAM_ARGS:
	case PROTO_PROGRAM_ENV:
		ev->u.capset_str.capset = u32(&r);
		ev->u.capset_str.s = rest(&r);
		break;
	case PROTO_OSPROCESS_PID:
	case PROTO_OSPROCESS_PPID:
		ev->u.pid.capset = u32(&r);
		ev->u.pid.pid = u32(&r);
		break;
	case PROTO_SPARK_COUNTERS:
		ev->u.sparks.crt = u64(&r);
		ev->u.sparks.dud = u64(&r);
		ev->u.sparks.ovf = u64(&r);
		ev->u.sparks.cnv = u64(&r);
		ev->u.sparks.gcd = u64(&r);
		ev->u.sparks.fiz = u64(&r);
		ev->u.sparks.rem = u64(&r);
		break;
	case PROTO_SPARK_STEAL:
	case PROTO_CAP_CREATE:
	case PROTO_CAP_DELETE:
	case PROTO_CAP_DISABLE:
	case PROTO_CAP_ENABLE:
	case PROTO_CONC_UPD_REM_SET_FLUSH:
	case PROTO_KILL_MACHINE:
		ev->u.cap.cap = u16(&r);
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
	case PROTO_WALL_CLOCK_TIME:
		ev->u.wall.capset = u32(&r);
		ev->u.wall.sec = u64(&r);
		ev->u.wall.nsec = u32(&r);
		break;
	case PROTO_THREAD_LABEL:
		ev->u.label.thread = u32(&r);
		ev->u.label.label = rest(&r);
		break;
	case PROTO_HEAP_ALLOCATED:
	case PROTO_HEAP_SIZE:
	case PROTO_HEAP_LIVE:
	case PROTO_BLOCKS_SIZE:
		ev->u.heap.capset = u32(&r);
		ev->u.heap.bytes = u64(&r);
		break;
	case PROTO_HEAP_INFO_GHC:
		ev->u.heap_info.capset = u32(&r);
		ev->u.heap_info.gens = u16(&r);
		ev->u.heap_info.max_heap = u64(&r);
		ev->u.heap_info.alloc_area = u64(&r);
		ev->u.heap_info.mblock = u64(&r);
		ev->u.heap_info.block = u64(&r);
		break;
	case PROTO_GC_STATS_GHC:
		ev->u.gc_stats.capset = u32(&r);
		ev->u.gc_stats.gen = u16(&r);
		ev->u.gc_stats.copied = u64(&r);
		ev->u.gc_stats.slop = u64(&r);
		ev->u.gc_stats.frag = u64(&r);
		ev->u.gc_stats.par_n_threads = u32(&r);
		ev->u.gc_stats.par_max_copied = u64(&r);
		ev->u.gc_stats.par_tot_copied = u64(&r);
		ev->u.gc_stats.has_balanced = r.left >= 8;
		ev->u.gc_stats.par_balanced_copied =
		    ev->u.gc_stats.has_balanced ? u64(&r) : 0;
		break;
	case PROTO_TASK_CREATE:
		ev->u.task_create.task = u64(&r);
		ev->u.task_create.cap = u16(&r);
		ev->u.task_create.tid = u64(&r);
		break;
	case PROTO_TASK_MIGRATE:
		ev->u.task_migrate.task = u64(&r);
		ev->u.task_migrate.cap = u16(&r);
		ev->u.task_migrate.new_cap = u16(&r);
		break;
	case PROTO_TASK_DELETE:
		ev->u.task.task = u64(&r);
		break;
	case PROTO_CREATE_PROCESS:
	case PROTO_KILL_PROCESS:
		ev->u.u32x2.a = u32(&r);
		break;
	case PROTO_ASSIGN_THREAD_TO_PROCESS:
		ev->u.u32x2.a = u32(&r);
		ev->u.u32x2.b = u32(&r);
		break;
	case PROTO_CREATE_MACHINE:
		ev->u.machine.machine = u16(&r);
		ev->u.machine.realtime = u64(&r);
		break;
	case PROTO_SEND_MESSAGE:
		ev->u.eden_msg.tag = u8(&r);
		ev->u.eden_msg.a = u32(&r);
		ev->u.eden_msg.b = u32(&r);
		ev->u.eden_msg.machine = u16(&r);
		ev->u.eden_msg.c = u32(&r);
		ev->u.eden_msg.d = u32(&r);
		break;
	case PROTO_RECEIVE_MESSAGE:
		ev->u.eden_msg.tag = u8(&r);
		ev->u.eden_msg.a = u32(&r);
		ev->u.eden_msg.b = u32(&r);
		ev->u.eden_msg.machine = u16(&r);
		ev->u.eden_msg.c = u32(&r);
		ev->u.eden_msg.d = u32(&r);
		ev->u.eden_msg.e = u32(&r);
		break;
	case PROTO_SEND_RECEIVE_LOCAL_MESSAGE:
		ev->u.eden_msg.tag = u8(&r);
		ev->u.eden_msg.a = u32(&r);
		ev->u.eden_msg.b = u32(&r);
		ev->u.eden_msg.c = u32(&r);
		ev->u.eden_msg.d = u32(&r);
		break;
	case PROTO_MEM_RETURN:
		ev->u.mem_return.capset = u32(&r);
		ev->u.mem_return.current = u32(&r);
		ev->u.mem_return.needed = u32(&r);
		ev->u.mem_return.returned = u32(&r);
		break;
	case PROTO_MER_START_PAR_CONJUNCTION:
	case PROTO_MER_CREATE_SPARK:
	case PROTO_MER_FUT_CREATE:
		ev->u.mer.id = u64(&r);
		ev->u.mer.n = u32(&r);
		break;
	case PROTO_MER_STOP_PAR_CONJUNCTION:
	case PROTO_MER_STOP_PAR_CONJUNCT:
	case PROTO_MER_FUT_WAIT_NOSUSPEND:
	case PROTO_MER_FUT_WAIT_SUSPENDED:
	case PROTO_MER_FUT_SIGNAL:
		ev->u.mer.id = u64(&r);
		break;
	case PROTO_PERF_NAME:
		ev->u.perf_name.num = u32(&r);
		ev->u.perf_name.name = rest(&r);
		break;
	case PROTO_PERF_COUNTER:
		ev->u.perf.num = u32(&r);
		ev->u.perf.tid = u64(&r);
		ev->u.perf.period = u64(&r);
		break;
	case PROTO_PERF_TRACEPOINT:
		ev->u.perf.num = u32(&r);
		ev->u.perf.tid = u64(&r);
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
	case PROTO_HEAP_PROF_SAMPLE_BEGIN:
	case PROTO_HEAP_PROF_SAMPLE_END:
		ev->u.sample.era = u64(&r);
		ev->u.sample.time = 0;
		break;
	case PROTO_HEAP_BIO_PROF_SAMPLE_BEGIN:
		ev->u.sample.era = u64(&r);
		ev->u.sample.time = u64(&r);
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
	case PROTO_PROF_BEGIN:
		ev->u.prof_begin.interval = u64(&r);
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
	case PROTO_CONC_MARK_END:
		ev->u.mark_end.marked = u32(&r);
		break;
	case PROTO_NONMOVING_HEAP_CENSUS:
		/* GHC 9.10 widened the block size from a log2 byte to u16. */
		if (ev->len >= 14)
			ev->u.census.blk_size = u16(&r);
		else
			ev->u.census.blk_size = 1u << (u8(&r) & 31);
		ev->u.census.active = u32(&r);
		ev->u.census.filled = u32(&r);
		ev->u.census.live = u32(&r);
		break;
	case PROTO_NONMOVING_PRUNED_SEGMENTS:
		ev->u.pruned.pruned = u32(&r);
		ev->u.pruned.free = u32(&r);
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
	case PROTO_TICKY_COUNTER_SAMPLE:
		ev->u.ticky.id = u64(&r);
		ev->u.ticky.entries = u64(&r);
		ev->u.ticky.allocs = u64(&r);
		ev->u.ticky.allocd = u64(&r);
		break;
	default:
		break;
	}
	return r.bad;
}
