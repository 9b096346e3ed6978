/*
 * names.c: names and texts that several layers print.
 */
#include <stddef.h>

#include "proto.h"

/* GHC's names for the tags, without the EVENT_ prefix. */
static const char *const tag_names[213] = {
	[0] = "CREATE_THREAD",
	[1] = "RUN_THREAD",
	[2] = "STOP_THREAD",
	[3] = "THREAD_RUNNABLE",
	[4] = "MIGRATE_THREAD",
	[5] = "RUN_SPARK",
	[6] = "STEAL_SPARK",
	[7] = "SHUTDOWN",
	[8] = "THREAD_WAKEUP",
	[9] = "GC_START",
	[10] = "GC_END",
	[11] = "REQUEST_SEQ_GC",
	[12] = "REQUEST_PAR_GC",
	[15] = "CREATE_SPARK_THREAD",
	[16] = "LOG_MSG",
	[17] = "STARTUP",
	[18] = "BLOCK_MARKER",
	[19] = "USER_MSG",
	[20] = "GC_IDLE",
	[21] = "GC_WORK",
	[22] = "GC_DONE",
	[23] = "VERSION",
	[24] = "PROGRAM_INVOCATION",
	[25] = "CAPSET_CREATE",
	[26] = "CAPSET_DELETE",
	[27] = "CAPSET_ASSIGN_CAP",
	[28] = "CAPSET_REMOVE_CAP",
	[29] = "RTS_IDENTIFIER",
	[30] = "PROGRAM_ARGS",
	[31] = "PROGRAM_ENV",
	[32] = "OSPROCESS_PID",
	[33] = "OSPROCESS_PPID",
	[34] = "SPARK_COUNTERS",
	[35] = "SPARK_CREATE",
	[36] = "SPARK_DUD",
	[37] = "SPARK_OVERFLOW",
	[38] = "SPARK_RUN",
	[39] = "SPARK_STEAL",
	[40] = "SPARK_FIZZLE",
	[41] = "SPARK_GC",
	[42] = "INTERN_STRING",
	[43] = "WALL_CLOCK_TIME",
	[44] = "THREAD_LABEL",
	[45] = "CAP_CREATE",
	[46] = "CAP_DELETE",
	[47] = "CAP_DISABLE",
	[48] = "CAP_ENABLE",
	[49] = "HEAP_ALLOCATED",
	[50] = "HEAP_SIZE",
	[51] = "HEAP_LIVE",
	[52] = "HEAP_INFO_GHC",
	[53] = "GC_STATS_GHC",
	[54] = "GC_GLOBAL_SYNC",
	[55] = "TASK_CREATE",
	[56] = "TASK_MIGRATE",
	[57] = "TASK_DELETE",
	[58] = "USER_MARKER",
	[59] = "HACK_BUG_T9003",
	[60] = "EDEN_START_RECEIVE",
	[61] = "EDEN_END_RECEIVE",
	[62] = "CREATE_PROCESS",
	[63] = "KILL_PROCESS",
	[64] = "ASSIGN_THREAD_TO_PROCESS",
	[65] = "CREATE_MACHINE",
	[66] = "KILL_MACHINE",
	[67] = "SEND_MESSAGE",
	[68] = "RECEIVE_MESSAGE",
	[69] = "SEND_RECEIVE_LOCAL_MESSAGE",
	[90] = "MEM_RETURN",
	[91] = "BLOCKS_SIZE",
	[100] = "MER_START_PAR_CONJUNCTION",
	[101] = "MER_STOP_PAR_CONJUNCTION",
	[102] = "MER_STOP_PAR_CONJUNCT",
	[103] = "MER_CREATE_SPARK",
	[104] = "MER_FUT_CREATE",
	[105] = "MER_FUT_WAIT_NOSUSPEND",
	[106] = "MER_FUT_WAIT_SUSPENDED",
	[107] = "MER_FUT_SIGNAL",
	[108] = "MER_LOOKING_FOR_GLOBAL_CONTEXT",
	[109] = "MER_WORK_STEALING",
	[110] = "MER_RELEASE_CONTEXT",
	[111] = "MER_ENGINE_SLEEPING",
	[112] = "MER_LOOKING_FOR_LOCAL_SPARK",
	[113] = "MER_CALLING_MAIN",
	[140] = "PERF_NAME",
	[141] = "PERF_COUNTER",
	[142] = "PERF_TRACEPOINT",
	[160] = "HEAP_PROF_BEGIN",
	[161] = "HEAP_PROF_COST_CENTRE",
	[162] = "HEAP_PROF_SAMPLE_BEGIN",
	[163] = "HEAP_PROF_SAMPLE_COST_CENTRE",
	[164] = "HEAP_PROF_SAMPLE_STRING",
	[165] = "HEAP_PROF_SAMPLE_END",
	[166] = "HEAP_BIO_PROF_SAMPLE_BEGIN",
	[167] = "PROF_SAMPLE_COST_CENTRE",
	[168] = "PROF_BEGIN",
	[169] = "IPE",
	[181] = "USER_BINARY_MSG",
	[200] = "CONC_MARK_BEGIN",
	[201] = "CONC_MARK_END",
	[202] = "CONC_SYNC_BEGIN",
	[203] = "CONC_SYNC_END",
	[204] = "CONC_SWEEP_BEGIN",
	[205] = "CONC_SWEEP_END",
	[206] = "CONC_UPD_REM_SET_FLUSH",
	[207] = "NONMOVING_HEAP_CENSUS",
	[208] = "NONMOVING_PRUNED_SEGMENTS",
	[210] = "TICKY_COUNTER_DEF",
	[211] = "TICKY_COUNTER_SAMPLE",
	[212] = "TICKY_COUNTER_BEGIN_SAMPLE",
};

const char *
proto_tag_name(uint16_t tag)
{
	if (tag < sizeof tag_names / sizeof tag_names[0])
		return tag_names[tag];
	return NULL;
}

/*
 * The reason a thread stopped, as ghc-events prints it.  *with_info is set
 * when the text is followed by the event's info field (a thread or a size).
 */
const char *
proto_stop_status(uint16_t status, int *with_info)
{
	*with_info = 0;
	switch (status) {
	case 0:		return "No stop thread status";
	case 1:		return "heap overflow";
	case 2:		*with_info = 1; return "stack overflow, size ";
	case 3:		return "thread yielding";
	case 4:		return "thread blocked";
	case 5:		return "thread finished";
	case 6:		return "making a foreign call";
	case 7:		return "blocked on an MVar";
	case 8:		*with_info = 1;
			return "blocked on black hole owned by thread ";
	case 9:		return "blocked on I/O read";
	case 10:	return "blocked on I/O write";
	case 11:	return "blocked on threadDelay";
	case 12:	return "blocked in STM retry";
	case 13:	return "blocked on asyncDoProc";
	case 14:
	case 15:	return "blocked in a foreign call";
	case 16:	return "blocked in throwTo";
	case 17:	return "thread migrating";
	case 18:	return "blocked in throwTo";
	case 20:	return "blocked reading an MVar";
	default:	return "No stop thread status";
	}
}

/* HEAP_PROF_BEGIN's breakdown, as ghc-events prints it. */
const char *
proto_breakdown_name(uint32_t b)
{
	static const char *const names[] = {
		NULL, "cost centre", "module", "closure description",
		"type description", "retainer", "biography", "closure type",
		"info table", "era",
	};

	if (b < sizeof names / sizeof names[0])
		return names[b];
	return NULL;
}

/*
 * A closure type's name, by its number in GHC's rts/storage/ClosureTypes.h
 * (the same from GHC 8.0 to 9.6; CONTINUATION is 9.6's): what an IPE event's
 * closure description holds, as decimal text.
 */
const char *
proto_closure_type_name(unsigned t)
{
	static const char *const names[] = {
		"INVALID_OBJECT", "CONSTR", "CONSTR_1_0", "CONSTR_0_1",
		"CONSTR_2_0", "CONSTR_1_1", "CONSTR_0_2", "CONSTR_NOCAF",
		"FUN", "FUN_1_0", "FUN_0_1", "FUN_2_0", "FUN_1_1", "FUN_0_2",
		"FUN_STATIC", "THUNK", "THUNK_1_0", "THUNK_0_1", "THUNK_2_0",
		"THUNK_1_1", "THUNK_0_2", "THUNK_STATIC", "THUNK_SELECTOR",
		"BCO", "AP", "PAP", "AP_STACK", "IND", "IND_STATIC", "RET_BCO",
		"RET_SMALL", "RET_BIG", "RET_FUN", "UPDATE_FRAME",
		"CATCH_FRAME", "UNDERFLOW_FRAME", "STOP_FRAME",
		"BLOCKING_QUEUE", "BLACKHOLE", "MVAR_CLEAN", "MVAR_DIRTY",
		"TVAR", "ARR_WORDS", "MUT_ARR_PTRS_CLEAN",
		"MUT_ARR_PTRS_DIRTY", "MUT_ARR_PTRS_FROZEN_DIRTY",
		"MUT_ARR_PTRS_FROZEN_CLEAN", "MUT_VAR_CLEAN", "MUT_VAR_DIRTY",
		"WEAK", "PRIM", "MUT_PRIM", "TSO", "STACK", "TREC_CHUNK",
		"ATOMICALLY_FRAME", "CATCH_RETRY_FRAME", "CATCH_STM_FRAME",
		"WHITEHOLE", "SMALL_MUT_ARR_PTRS_CLEAN",
		"SMALL_MUT_ARR_PTRS_DIRTY", "SMALL_MUT_ARR_PTRS_FROZEN_DIRTY",
		"SMALL_MUT_ARR_PTRS_FROZEN_CLEAN", "COMPACT_NFDATA",
		"CONTINUATION",
	};

	if (t < sizeof names / sizeof names[0])
		return names[t];
	return NULL;
}
