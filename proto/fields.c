/*
 * fields.c: which parser reads each tag's payload.
 *
 * Which parser applies to a tag is decided once per header
 * (proto_fields_kind), from the size the header declares: a fixed-size
 * event needs at least its parser's size (extra bytes are ignored, as the
 * format promises), a variable-size one needs a variable declaration.
 * Anything else is an unknown event, skipped by its declared size.  The
 * parsers themselves (proto_fields) are in dec.c, inlined where events are
 * framed.
 */
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
