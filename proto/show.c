/*
 * show.c: an event as one line of `ghc-events show` text.
 *
 * The wording of each event follows the reference decoder (ghc-events'
 * buildEventInfo); ../shared/spec/EVENT_TABLE.md lists it.  The output is
 * not NUL-terminated and is cut if it does not fit.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "proto.h"

struct out {
	char	*p;
	size_t	 n, size;
};

static void
put(struct out *o, const char *s, size_t len)
{
	if (len > o->size - o->n)
		len = o->size - o->n;
	memcpy(o->p + o->n, s, len);
	o->n += len;
}

static void
puts_(struct out *o, const char *s)
{
	put(o, s, strlen(s));
}

static void
printf_(struct out *o, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
printf_(struct out *o, const char *fmt, ...)
{
	char	tmp[256];
	va_list	ap;
	int	n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof tmp, fmt, ap);
	va_end(ap);
	if (n > 0)
		put(o, tmp, (size_t)n < sizeof tmp ? (size_t)n :
		    sizeof tmp - 1);
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

	for (i = 0; i < c->depth; i++)
		printf_(o, i == 0 ? "%" PRIu32 : ", %" PRIu32,
		    proto_ccs_at(c, i));
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
	printf_(o, "stopping thread %" PRIu32 " (", ev->u.stop.thread);
	if (info && ev->u.stop.has_info)
		printf_(o, "%s%" PRIu32, s, ev->u.stop.info);
	else if (ev->u.stop.status == 8)
		puts_(o, "blocked on a black hole");
	else if (ev->u.stop.status == 2)
		puts_(o, "stack overflow");
	else
		puts_(o, s);
	puts_(o, ")");
}

static void
heap_prof_begin(struct out *o, const struct proto_ev *ev)
{
	const char	*b = proto_breakdown_name(ev->u.heap_prof_begin.breakdown);
	int		 i, any = 0;

	printf_(o, "start heap profiling %u at sampling period %" PRIu64
	    " broken down by ", ev->u.heap_prof_begin.id,
	    ev->u.heap_prof_begin.period);
	if (b != NULL)
		puts_(o, b);
	else
		printf_(o, "unknown (%" PRIu32 ")",
		    ev->u.heap_prof_begin.breakdown);
	for (i = 0; i < 7; i++) {
		if (ev->u.heap_prof_begin.filter[i].len == 0)
			continue;
		if (!any++)
			puts_(o, " filtered by ");
		text(o, ev->u.heap_prof_begin.filter[i]);
		puts_(o, ", ");
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
		printf_(o, "event block: cap %u, end time: %" PRIu64 "\n",
		    ev->u.block.cap, ev->u.block.end_time);
		break;
	case PROTO_STARTUP:
		printf_(o, "startup: %u capabilities", ev->u.startup.n);
		break;
	case PROTO_CREATE_THREAD:
		printf_(o, "creating thread %" PRIu32, ev->u.thread.thread);
		break;
	case PROTO_RUN_THREAD:
		printf_(o, "running thread %" PRIu32, ev->u.thread.thread);
		break;
	case PROTO_STOP_THREAD:
		stop(o, ev);
		break;
	case PROTO_THREAD_RUNNABLE:
		printf_(o, "thread %" PRIu32 " is runnable",
		    ev->u.thread.thread);
		break;
	case PROTO_MIGRATE_THREAD:
		printf_(o, "migrating thread %" PRIu32 " to cap %u",
		    ev->u.migrate.thread, ev->u.migrate.cap);
		break;
	case PROTO_CREATE_SPARK_THREAD:
		printf_(o, "creating spark thread %" PRIu32,
		    ev->u.thread.thread);
		break;
	case PROTO_SPARK_COUNTERS:
		printf_(o, "spark stats: %" PRIu64 " created, %" PRIu64
		    " converted, %" PRIu64 " remaining (%" PRIu64
		    " overflowed, %" PRIu64 " dud, %" PRIu64 " GC'd, %" PRIu64
		    " fizzled)", ev->u.sparks.crt, ev->u.sparks.cnv,
		    ev->u.sparks.rem, ev->u.sparks.ovf, ev->u.sparks.dud,
		    ev->u.sparks.gcd, ev->u.sparks.fiz);
		break;
	case PROTO_SPARK_CREATE:
		puts_(o, "spark created");
		break;
	case PROTO_SPARK_DUD:
		puts_(o, "dud spark discarded");
		break;
	case PROTO_SPARK_OVERFLOW:
		puts_(o, "overflowed spark discarded");
		break;
	case PROTO_SPARK_RUN:
	case PROTO_RUN_SPARK:
		puts_(o, "running a local spark");
		break;
	case PROTO_SPARK_STEAL:
		printf_(o, "stealing a spark from cap %u", ev->u.cap.cap);
		break;
	case PROTO_STEAL_SPARK:
		printf_(o, "stealing a spark from cap %u", ev->u.migrate.cap);
		break;
	case PROTO_SPARK_FIZZLE:
		puts_(o, "spark fizzled");
		break;
	case PROTO_SPARK_GC:
		puts_(o, "spark GCed");
		break;
	case PROTO_TASK_CREATE:
		printf_(o, "task 0x%" PRIx64 " created on cap %u with OS "
		    "kernel thread %" PRIu64, ev->u.task_create.task,
		    ev->u.task_create.cap, ev->u.task_create.tid);
		break;
	case PROTO_TASK_MIGRATE:
		printf_(o, "task 0x%" PRIx64 " migrated from cap %u to cap %u",
		    ev->u.task_migrate.task, ev->u.task_migrate.cap,
		    ev->u.task_migrate.new_cap);
		break;
	case PROTO_TASK_DELETE:
		printf_(o, "task 0x%" PRIx64 " deleted", ev->u.task.task);
		break;
	case PROTO_SHUTDOWN:
		puts_(o, "shutting down");
		break;
	case PROTO_THREAD_WAKEUP:
		printf_(o, "waking up thread %" PRIu32 " on cap %u",
		    ev->u.migrate.thread, ev->u.migrate.cap);
		break;
	case PROTO_THREAD_LABEL:
		printf_(o, "thread %" PRIu32 " has label \"",
		    ev->u.label.thread);
		text(o, ev->u.label.label);
		puts_(o, "\"");
		break;
	case PROTO_REQUEST_SEQ_GC:
		puts_(o, "requesting sequential GC");
		break;
	case PROTO_REQUEST_PAR_GC:
		puts_(o, "requesting parallel GC");
		break;
	case PROTO_GC_START:
		puts_(o, "starting GC");
		break;
	case PROTO_GC_END:
		puts_(o, "finished GC");
		break;
	case PROTO_GC_WORK:
		puts_(o, "GC working");
		break;
	case PROTO_GC_IDLE:
		puts_(o, "GC idle");
		break;
	case PROTO_GC_DONE:
		puts_(o, "GC done");
		break;
	case PROTO_GC_GLOBAL_SYNC:
		puts_(o, "all caps stopped for GC");
		break;
	case PROTO_GC_STATS_GHC:
		printf_(o, "GC stats for heap capset %" PRIu32 ": generation %u"
		    ", %" PRIu64 " bytes copied, %" PRIu64 " bytes slop, %"
		    PRIu64 " bytes fragmentation, %" PRIu32 " par threads, %"
		    PRIu64 " bytes max par copied, %" PRIu64
		    " bytes total par copied", ev->u.gc_stats.capset,
		    ev->u.gc_stats.gen, ev->u.gc_stats.copied,
		    ev->u.gc_stats.slop, ev->u.gc_stats.frag,
		    ev->u.gc_stats.par_n_threads,
		    ev->u.gc_stats.par_max_copied,
		    ev->u.gc_stats.par_tot_copied);
		if (ev->u.gc_stats.has_balanced)
			printf_(o, ", %" PRIu64 " bytes balanced par copied",
			    ev->u.gc_stats.par_balanced_copied);
		break;
	case PROTO_HEAP_ALLOCATED:
		printf_(o, "allocated on heap capset %" PRIu32 ": %" PRIu64
		    " total bytes till now", ev->u.heap.capset,
		    ev->u.heap.bytes);
		break;
	case PROTO_HEAP_SIZE:
		printf_(o, "size of heap capset %" PRIu32 ": %" PRIu64
		    " bytes", ev->u.heap.capset, ev->u.heap.bytes);
		break;
	case PROTO_BLOCKS_SIZE:
		printf_(o, "blocks size of heap capset %" PRIu32 ": %" PRIu64
		    " bytes", ev->u.heap.capset, ev->u.heap.bytes);
		break;
	case PROTO_HEAP_LIVE:
		printf_(o, "live data in heap capset %" PRIu32 ": %" PRIu64
		    " bytes", ev->u.heap.capset, ev->u.heap.bytes);
		break;
	case PROTO_HEAP_INFO_GHC:
		printf_(o, "heap stats for heap capset %" PRIu32 ": generations"
		    " %u, %" PRIu64 " bytes max heap size, %" PRIu64 " bytes "
		    "alloc area size, %" PRIu64 " bytes mblock size, %" PRIu64
		    " bytes block size", ev->u.heap_info.capset,
		    ev->u.heap_info.gens, ev->u.heap_info.max_heap,
		    ev->u.heap_info.alloc_area, ev->u.heap_info.mblock,
		    ev->u.heap_info.block);
		break;
	case PROTO_MEM_RETURN:
		printf_(o, "memory returned (mblocks): current(%" PRIu32
		    ") needed(%" PRIu32 ") returned(%" PRIu32 ")",
		    ev->u.mem_return.current, ev->u.mem_return.needed,
		    ev->u.mem_return.returned);
		break;
	case PROTO_CAP_CREATE:
		printf_(o, "created cap %u", ev->u.cap.cap);
		break;
	case PROTO_CAP_DELETE:
		printf_(o, "deleted cap %u", ev->u.cap.cap);
		break;
	case PROTO_CAP_DISABLE:
		printf_(o, "disabled cap %u", ev->u.cap.cap);
		break;
	case PROTO_CAP_ENABLE:
		printf_(o, "enabled cap %u", ev->u.cap.cap);
		break;
	case PROTO_LOG_MSG:
	case PROTO_USER_MSG:
		text(o, ev->u.msg);
		break;
	case PROTO_USER_MARKER:
		puts_(o, "marker: ");
		text(o, ev->u.msg);
		break;
	case PROTO_CAPSET_CREATE:
		printf_(o, "created capset %" PRIu32 " of type %s",
		    ev->u.capset_create.capset,
		    capset_type(ev->u.capset_create.type));
		break;
	case PROTO_CAPSET_DELETE:
		printf_(o, "deleted capset %" PRIu32, ev->u.capset.capset);
		break;
	case PROTO_CAPSET_ASSIGN_CAP:
		printf_(o, "assigned cap %u to capset %" PRIu32,
		    ev->u.capset_cap.cap, ev->u.capset_cap.capset);
		break;
	case PROTO_CAPSET_REMOVE_CAP:
		printf_(o, "removed cap %u from capset %" PRIu32,
		    ev->u.capset_cap.cap, ev->u.capset_cap.capset);
		break;
	case PROTO_OSPROCESS_PID:
		printf_(o, "capset %" PRIu32 ": pid %" PRIu32,
		    ev->u.pid.capset, ev->u.pid.pid);
		break;
	case PROTO_OSPROCESS_PPID:
		printf_(o, "capset %" PRIu32 ": parent pid %" PRIu32,
		    ev->u.pid.capset, ev->u.pid.pid);
		break;
	case PROTO_WALL_CLOCK_TIME:
		printf_(o, "capset %" PRIu32 ": wall clock time %" PRIu64
		    "s %" PRIu32 "ns (unix epoch)", ev->u.wall.capset,
		    ev->u.wall.sec, ev->u.wall.nsec);
		break;
	case PROTO_RTS_IDENTIFIER:
		printf_(o, "capset %" PRIu32 ": RTS version \"",
		    ev->u.capset_str.capset);
		text(o, ev->u.capset_str.s);
		puts_(o, "\"");
		break;
	case PROTO_PROGRAM_ARGS:
	case PROTO_PROGRAM_ENV:
		printf_(o, "capset %" PRIu32 ": %s: ", ev->u.capset_str.capset,
		    ev->kind == PROTO_PROGRAM_ARGS ? "args" : "env");
		o->n += proto_haskell_show_list(ev->u.capset_str.s.p,
		    ev->u.capset_str.s.len, o->p + o->n, o->size - o->n);
		break;
	case PROTO_INTERN_STRING:
		puts_(o, "Interned string: \"");
		latin1(o, ev->u.intern.s);
		printf_(o, "\" with id %" PRIu32, ev->u.intern.id);
		break;
	case PROTO_VERSION:
		puts_(o, "compiler version is ");
		latin1(o, ev->u.msg);
		break;
	case PROTO_PROGRAM_INVOCATION:
		puts_(o, "program invocation: ");
		latin1(o, ev->u.msg);
		break;
	case PROTO_EDEN_START_RECEIVE:
		puts_(o, "starting to receive");
		break;
	case PROTO_EDEN_END_RECEIVE:
		puts_(o, "stop receiving");
		break;
	case PROTO_CREATE_PROCESS:
		printf_(o, "creating process %" PRIu32, ev->u.u32x2.a);
		break;
	case PROTO_KILL_PROCESS:
		printf_(o, "killing process %" PRIu32, ev->u.u32x2.a);
		break;
	case PROTO_ASSIGN_THREAD_TO_PROCESS:
		printf_(o, "assigning thread %" PRIu32 " to process %" PRIu32,
		    ev->u.u32x2.a, ev->u.u32x2.b);
		break;
	case PROTO_CREATE_MACHINE:
		printf_(o, "creating machine %u at %" PRIu64,
		    ev->u.machine.machine, ev->u.machine.realtime);
		break;
	case PROTO_KILL_MACHINE:
		printf_(o, "killing machine %u", ev->u.cap.cap);
		break;
	case PROTO_SEND_MESSAGE:
		printf_(o, "sending message with tag %s from process %" PRIu32
		    ", thread %" PRIu32 " to machine %u, process %" PRIu32
		    " on inport %" PRIu32, eden_tag(ev->u.eden_msg.tag),
		    ev->u.eden_msg.a, ev->u.eden_msg.b,
		    ev->u.eden_msg.machine, ev->u.eden_msg.c,
		    ev->u.eden_msg.d);
		break;
	case PROTO_RECEIVE_MESSAGE:
		printf_(o, "receiving message with tag %s at process %" PRIu32
		    ", inport %" PRIu32 " from machine %u, process %" PRIu32
		    ", thread %" PRIu32 " with size %" PRIu32,
		    eden_tag(ev->u.eden_msg.tag), ev->u.eden_msg.a,
		    ev->u.eden_msg.b, ev->u.eden_msg.machine,
		    ev->u.eden_msg.c, ev->u.eden_msg.d, ev->u.eden_msg.e);
		break;
	case PROTO_SEND_RECEIVE_LOCAL_MESSAGE:
		printf_(o, "sending/receiving message with tag %s from process "
		    "%" PRIu32 ", thread %" PRIu32 " to process %" PRIu32
		    " on inport %" PRIu32, eden_tag(ev->u.eden_msg.tag),
		    ev->u.eden_msg.a, ev->u.eden_msg.b, ev->u.eden_msg.c,
		    ev->u.eden_msg.d);
		break;
	case PROTO_MER_START_PAR_CONJUNCTION:
		printf_(o, "Start a parallel conjunction 0x%" PRIx64
		    ", static_id: %" PRIu32, ev->u.mer.id, ev->u.mer.n);
		break;
	case PROTO_MER_STOP_PAR_CONJUNCTION:
		printf_(o, "End par conjunction: 0x%" PRIx64, ev->u.mer.id);
		break;
	case PROTO_MER_STOP_PAR_CONJUNCT:
		printf_(o, "End par conjunct: 0x%" PRIx64, ev->u.mer.id);
		break;
	case PROTO_MER_CREATE_SPARK:
		printf_(o, "Create spark for conjunction: 0x%" PRIx64
		    " spark: 0x%" PRIx32, ev->u.mer.id, ev->u.mer.n);
		break;
	case PROTO_MER_FUT_CREATE:
		printf_(o, "Create future 0x%" PRIx64 " named %" PRIu32,
		    ev->u.mer.id, ev->u.mer.n);
		break;
	case PROTO_MER_FUT_WAIT_NOSUSPEND:
		printf_(o, "Wait didn't suspend for future: 0x%" PRIx64,
		    ev->u.mer.id);
		break;
	case PROTO_MER_FUT_WAIT_SUSPENDED:
		printf_(o, "Wait suspended on future: 0x%" PRIx64,
		    ev->u.mer.id);
		break;
	case PROTO_MER_FUT_SIGNAL:
		printf_(o, "Signaled future 0x%" PRIx64, ev->u.mer.id);
		break;
	case PROTO_MER_LOOKING_FOR_GLOBAL_CONTEXT:
		puts_(o, "Looking for global thread to resume");
		break;
	case PROTO_MER_WORK_STEALING:
		puts_(o, "Trying to steal a spark");
		break;
	case PROTO_MER_LOOKING_FOR_LOCAL_SPARK:
		puts_(o, "Looking for a local spark to execute");
		break;
	case PROTO_MER_RELEASE_CONTEXT:
		printf_(o, "Releasing thread %" PRIu32 " to the free pool",
		    ev->u.thread.thread);
		break;
	case PROTO_MER_ENGINE_SLEEPING:
		puts_(o, "Capability going to sleep");
		break;
	case PROTO_MER_CALLING_MAIN:
		puts_(o, "About to call the program entry point");
		break;
	case PROTO_PERF_NAME:
		printf_(o, "perf event %" PRIu32 " named \"",
		    ev->u.perf_name.num);
		text(o, ev->u.perf_name.name);
		puts_(o, "\"");
		break;
	case PROTO_PERF_COUNTER:
		printf_(o, "perf event counter %" PRIu32 " incremented by %"
		    PRIu64 " in OS thread %" PRIu64, ev->u.perf.num,
		    ev->u.perf.period + 1, ev->u.perf.tid);
		break;
	case PROTO_PERF_TRACEPOINT:
		printf_(o, "perf event tracepoint %" PRIu32 " reached in OS "
		    "thread %" PRIu64, ev->u.perf.num, ev->u.perf.tid);
		break;
	case PROTO_HEAP_PROF_BEGIN:
		heap_prof_begin(o, ev);
		break;
	case PROTO_HEAP_PROF_COST_CENTRE:
		printf_(o, "cost centre %" PRIu32 " ", ev->u.cost_centre.id);
		text(o, ev->u.cost_centre.label);
		puts_(o, " in ");
		text(o, ev->u.cost_centre.module);
		puts_(o, " at ");
		text(o, ev->u.cost_centre.srcloc);
		if (ev->u.cost_centre.flags & 1)
			puts_(o, " CAF");
		break;
	case PROTO_HEAP_PROF_SAMPLE_BEGIN:
		printf_(o, "start heap prof sample %" PRIu64, ev->u.sample.era);
		break;
	case PROTO_HEAP_PROF_SAMPLE_END:
		printf_(o, "end prof sample %" PRIu64, ev->u.sample.era);
		break;
	case PROTO_HEAP_BIO_PROF_SAMPLE_BEGIN:
		printf_(o, "start heap prof sample %" PRIu64 " at time %"
		    PRIu64, ev->u.sample.era, ev->u.sample.time);
		break;
	case PROTO_HEAP_PROF_SAMPLE_COST_CENTRE:
		printf_(o, "heap prof sample %u, residency %" PRIu64
		    ", cost centre stack ", ev->u.heap_sample_cc.id,
		    ev->u.heap_sample_cc.residency);
		stack(o, &ev->u.heap_sample_cc.ccs);
		break;
	case PROTO_HEAP_PROF_SAMPLE_STRING:
		printf_(o, "heap prof sample %u, residency %" PRIu64
		    ", label ", ev->u.heap_sample_str.id,
		    ev->u.heap_sample_str.residency);
		text(o, ev->u.heap_sample_str.label);
		break;
	case PROTO_PROF_SAMPLE_COST_CENTRE:
		printf_(o, "cap no %" PRId32 ", prof sample %" PRIu64
		    ", cost centre stack ", (int32_t)ev->u.prof_sample.cap,
		    ev->u.prof_sample.ticks);
		stack(o, &ev->u.prof_sample.ccs);
		break;
	case PROTO_PROF_BEGIN:
		printf_(o, "start time profiling, tick interval %" PRIu64
		    " (ns)", ev->u.prof_begin.interval);
		break;
	case PROTO_IPE:
		printf_(o, "Info Table: %" PRIx64 ":", ev->u.ipe.info);
		text(o, ev->u.ipe.closure_desc);
		puts_(o, ":");
		text(o, ev->u.ipe.table_name);
		puts_(o, " - ");
		text(o, ev->u.ipe.srcloc);
		break;
	case PROTO_USER_BINARY_MSG:
		puts_(o, "binary message ");
		binary(o, ev->u.msg);
		break;
	case PROTO_CONC_MARK_BEGIN:
		puts_(o, "concurrent mark began");
		break;
	case PROTO_CONC_MARK_END:
		printf_(o, "concurrent mark ended: marked %" PRIu32 " objects",
		    ev->u.mark_end.marked);
		break;
	case PROTO_CONC_SYNC_BEGIN:
		puts_(o, "post-mark synchronization began");
		break;
	case PROTO_CONC_SYNC_END:
		puts_(o, "post-mark synchronization ended");
		break;
	case PROTO_CONC_SWEEP_BEGIN:
		puts_(o, "concurrent sweep began");
		break;
	case PROTO_CONC_SWEEP_END:
		puts_(o, "concurrent sweep ended");
		break;
	case PROTO_CONC_UPD_REM_SET_FLUSH:
		printf_(o, "update remembered set flushed by %u",
		    ev->u.cap.cap);
		break;
	case PROTO_NONMOVING_HEAP_CENSUS:
		printf_(o, "nonmoving heap census %" PRIu32 ": %" PRIu32
		    " active segments, %" PRIu32 " filled segments, %" PRIu32
		    " live blocks", ev->u.census.blk_size,
		    ev->u.census.active, ev->u.census.filled,
		    ev->u.census.live);
		break;
	case PROTO_NONMOVING_PRUNED_SEGMENTS:
		printf_(o, "nonmoving segments pruned: %" PRIu32 " pruned "
		    "segments, %" PRIu32 " free segments retained",
		    ev->u.pruned.pruned, ev->u.pruned.free);
		break;
	case PROTO_TICKY_COUNTER_DEF:
		printf_(o, "ticky counter definition %" PRIu64 ", arity: %u, "
		    "def kinds: ", ev->u.ticky_def.id, ev->u.ticky_def.arity);
		text(o, ev->u.ticky_def.kinds);
		puts_(o, ", name: ");
		text(o, ev->u.ticky_def.name);
		/* The reference prints 0 for a definition without one. */
		printf_(o, ", itbl: %" PRIx64, ev->u.ticky_def.itbl);
		break;
	case PROTO_TICKY_COUNTER_SAMPLE:
		printf_(o, "ticky counter sample %" PRIu64 ": entry count: %"
		    PRIu64 ", %" PRIu64 " allocs, %" PRIu64 " allocd",
		    ev->u.ticky.id, ev->u.ticky.entries, ev->u.ticky.allocs,
		    ev->u.ticky.allocd);
		break;
	case PROTO_TICKY_BEGIN_SAMPLE:
		puts_(o, "ticky begin counter sample");
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

	printf_(&o, "%" PRIu64 ": ", ev->time);
	if (ev->cap != PROTO_NO_CAP)
		printf_(&o, "cap %" PRId32 ": ", ev->cap);
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

	printf_(&o, "%u: ", tag);
	text(&o, s);
	if (sz == PROTO_SIZE_VAR)
		puts_(&o, " (size variable)");
	else
		printf_(&o, " (size %d)", sz);
	return o.n;
}
