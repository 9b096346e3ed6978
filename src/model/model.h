/*
 * model.h: what evtop knows about the monitored program, built from events.
 *
 * Units everywhere: times are event time in ns since the monitored RTS
 * started (the events' own clock; the model never reads a clock), durations
 * in ns, sizes in bytes unless a field says otherwise.  "now" is the newest
 * event time the model has applied.
 *
 * Windows are in event time and identical for every figure:
 *   MODEL_W1	from the start of the 100 ms slot 9 slots before now's slot,
 *		to now: between 0.9 s and 1 s long;
 *   MODEL_W10	from the start of the second 9 seconds before now's second,
 *		to now: between 9 s and 10 s long;
 *   MODEL_WRUN	since the start of the run, or the last model_reset_window().
 * MODEL_W1 and MODEL_W10 start no earlier than the run's first event;
 * model_win_ns() says how long a window really is.
 *
 * Reading the model: the public structs below are plain data, valid until
 * the next call that changes the model (apply, flush, header, reset, free).
 * Pointers returned by the query functions (threads, cost centres, bands,
 * GC records, messages) are borrowed under the same rule.  Text fields are
 * NUL-terminated and already sanitized for a terminal (proto_sanitize;
 * names, of cost centres, bands and info tables, by proto_sanitize_name:
 * an invalid byte as "\xNN", so that names apart stay apart).
 *
 * Bounded: every table has a cap and an eviction rule (below); evictions
 * are counted in the struct that owns the table and appear in the JSON.
 */
#ifndef MODEL_H
#define MODEL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "proto.h"

enum model_win {
	MODEL_W1,		/* last second */
	MODEL_W10,		/* last ten seconds */
	MODEL_WRUN,		/* whole run, or since model_reset_window() */
};
#define MODEL_NWIN	3

#define MODEL_SLOT_NS	100000000ULL	/* history slot: 100 ms */
#define MODEL_NSLOTS	1200		/* history: 2 minutes of slots */

/* Caps on tables (eviction rules in the structs that own them). */
#define MODEL_MAX_CAPS	 256		/* caps >= this are counted only */
#define MODEL_MAX_THREADS 100000
#define MODEL_MAX_CCS	 65536
#define MODEL_MAX_STACKS 32768
#define MODEL_TOP_STACKS 512		/* the most model_top_stacks() gives */
#define MODEL_MAX_BANDS	 8192
#define MODEL_MAX_IPE	 65536		/* IPE entries kept (oldest go) */
#define MODEL_NGCREC	 4096		/* GC records kept */
#define MODEL_NMSG	 512		/* messages kept */
#define MODEL_MSG_LEN	 240		/* bytes of text kept per message */
#define MODEL_LABEL_LEN	 48		/* bytes of a thread label kept */
#define MODEL_NCENSUS	 64		/* heap-profile censuses kept */
#define MODEL_NTREND	 16		/* censuses in a band's trend */
#define MODEL_NGEN	 8		/* generations counted (higher: last) */
#define MODEL_NHIST	 48		/* pause histogram buckets */
#define MODEL_NM_SIZES	 32		/* nonmoving size classes kept */
#define MODEL_NNMREC	 256		/* nonmoving cycles kept */
/* An empty cost-centre stack is CCS_MAIN: the RTS leaves MAIN out of every
 * stack it posts, and names it MAIN on its own (its .hp, its .prof). */
#define MODEL_MAIN_STACK "MAIN"
#define MODEL_NMMU	 3		/* MMU windows: 10 ms, 100 ms, 1 s */

/* Live reordering (model_set_reorder): defaults. */
#define MODEL_REORDER_NS	2000000000ULL	/* 2 s of event time */
#define MODEL_REORDER_BYTES	(8u << 20)	/* 8 MiB of copied events */

/* ------------------------------------------------------------------ */
/* The program. */

struct model_prog {
	char		 rts_id[128];	/* RTS_IDENTIFIER, "GHC-9.0.2 rts_thr_l" */
	char		 ghc[24];	/* from it: "9.0.2", "" if not GHC's */
	char		 args[512];	/* PROGRAM_ARGS, space separated */
	uint32_t	 pid, ppid;	/* valid when has_pid / has_ppid */
	int		 has_pid, has_ppid;
	/* WALL_CLOCK_TIME: the wall clock (since the epoch) at event time
	 * wall_at; wall clock of event time t = wall_ns + (t - wall_at). */
	int		 has_wall;
	uint64_t	 wall_ns, wall_at;
	/* Capabilities. */
	int		 ncaps;		/* caps seen (highest id + 1), <= MAX_CAPS */
	uint64_t	 caps_created, caps_deleted, caps_enabled,
			 caps_disabled;	/* CAP_* events */
	uint64_t	 caps_over;	/* events on caps >= MODEL_MAX_CAPS */
	/* HEAP_INFO_GHC (has_heap_info). */
	int		 has_heap_info;
	uint16_t	 gens;
	uint64_t	 max_heap, alloc_area, mblock, block;	/* bytes */
	/* Time profiling: PROF_BEGIN. */
	int		 prof;		/* seen */
	uint64_t	 tick_ns;	/* sampling interval */
	/* Heap profiling: HEAP_PROF_BEGIN. */
	int		 heap_prof;	/* seen */
	uint32_t	 breakdown;	/* 1 cost centre ... 9 era */
	uint64_t	 hp_interval;	/* sampling period, ns */
	char		 hp_filters[256]; /* the non-empty filters, "k=v ..." */
	/* Heap profiling as the program's RTS options in PROGRAM_ARGS ask
	 * (HEAP_PROF_BEGIN comes once, at start: a client that connects
	 * later never sees it): -hX's breakdown, 0 for none. */
	uint32_t	 hp_opt_breakdown;
	int		 hp_opt_manual;	/* --no-automatic-heap-samples */
	/* Sessions: a header starts one; the same program goes on when the
	 * new session has the same pid or no pid at all. */
	uint64_t	 sessions;
	uint64_t	 resets;	/* a new program (pid) replaced the old */
	uint64_t	 start;		/* event time of the run's first event */
};

/* ------------------------------------------------------------------ */
/* Capabilities. */

enum model_cap_state {
	MODEL_CAP_IDLE,		/* no Haskell thread, not in GC */
	MODEL_CAP_RUN,		/* running a Haskell thread */
	MODEL_CAP_GC,		/* between its GC_START and GC_END */
};

struct model_sparks {
	/* The latest SPARK_COUNTERS (cumulative, as the RTS counts). */
	int		 has_counters;
	uint64_t	 crt, dud, ovf, cnv, gcd, fiz, rem;
	/* Individual spark events seen. */
	uint64_t	 ev_create, ev_dud, ev_overflow, ev_run, ev_steal,
			 ev_fizzle, ev_gc;
};

struct model_cap {
	int		 id;
	int		 exists;	/* seen at all */
	int		 enabled;	/* not disabled by CAP_DISABLE */
	enum model_cap_state state;
	uint64_t	 since;		/* time the state began */
	uint32_t	 thread;	/* running now, valid in MODEL_CAP_RUN */
	uint64_t	 run_ns, gc_ns;	/* whole run (since reset), closed spans;
					 * model_cap_util() adds the open one */
	uint64_t	 events;
	struct model_sparks sparks;
};

/* Time shares of a cap, or of all caps summed, over a window. */
struct model_util {
	uint64_t	 run_ns, gc_ns, idle_ns;
	uint64_t	 dur_ns;	/* the window length (times ncaps if summed) */
	double		 run, gc;	/* shares of dur_ns, 0..1 */
};

/* ------------------------------------------------------------------ */
/* Threads.  Table of at most MODEL_MAX_THREADS; a finished thread not seen
 * for 10 s is folded into the totals and dropped (threads.dropped); when
 * the table is full a finished thread is evicted first, else a live one not
 * seen lately (CLOCK second chance, close to least recently seen);
 * threads.evicted counts these. */

enum model_tstate {
	MODEL_T_RUNNABLE,	/* created, woken, yielded: waiting for a cap */
	MODEL_T_RUNNING,
	MODEL_T_BLOCKED,	/* why = STOP_THREAD status (proto_stop_status) */
	MODEL_T_FINISHED,
};
#define MODEL_NTSTATES	4
#define MODEL_NREASONS	21	/* STOP_THREAD statuses 0..20 */

struct model_thread {
	uint32_t	 id;
	uint8_t		 state;		/* enum model_tstate */
	uint8_t		 why;		/* stop status when blocked/finished */
	int32_t		 cap;		/* last cap it ran or was seen on, -1 */
	uint64_t	 created;	/* time created or first seen */
	uint64_t	 last;		/* time last seen */
	uint64_t	 cpu_ns;	/* time running, closed spans */
	uint32_t	 runs, migrations, wakeups;
	char		 label[MODEL_LABEL_LEN];	/* THREAD_LABEL, or "" */
};

struct model_threads {
	uint32_t	 live;		/* in the table and not finished */
	uint32_t	 by_state[MODEL_NTSTATES];	/* threads in the table */
	uint32_t	 blocked_by[MODEL_NREASONS];	/* live blocked, by why */
	uint64_t	 created;	/* CREATE_THREAD events */
	uint64_t	 finished;	/* STOP_THREAD with "finished" */
	uint64_t	 migrations, wakeups, runs;
	uint64_t	 cpu_ns;	/* all threads, closed spans */
	uint64_t	 table;		/* entries in the table now */
	uint64_t	 evicted;	/* entries evicted by the cap */
	uint64_t	 dropped;	/* finished entries folded away */
};

enum model_tsort {
	MODEL_TSORT_CPU,	/* CPU in the window, most first */
	MODEL_TSORT_TOTAL,	/* CPU over the run, most first */
	MODEL_TSORT_ID,
};

struct model_thread_row {
	const struct model_thread *t;
	uint64_t	 cpu_ns;	/* in the window, running span included */
	double		 share;		/* cpu_ns / window length */
};

/*
 * How a table query (model_threads_sorted(), model_top_ccs()) picks its
 * rows, when not all in order (NULL): only those keep() accepts (given
 * the row's thread or cost centre and arg; NULL keeps all), and the order
 * reversed.  The query sets total to how many it kept in all, so that a
 * filtered or reversed screenful costs a screenful, not a sort of all.
 */
struct model_rowq {
	int		(*keep)(const void *, const void *);
	const void	*arg;
	int		 reverse;
	int		 total;		/* set by the query */
};

/* ------------------------------------------------------------------ */
/* GC.  A collection runs from the first cap's GC_START (while no cap is in
 * GC) to the GC_END that leaves no cap in GC, in merged time order.  Events
 * without a cap count as one more cap of their own. */

#define MODEL_GEN_UNKNOWN 0xffff

struct model_gc_rec {
	uint64_t	 start, end;	/* pause = end - start */
	uint64_t	 sync_ns;	/* REQUEST_*_GC to start; 0 if none */
	uint64_t	 copied, slop, frag;	/* GC_STATS_GHC, bytes */
	uint64_t	 par_max_copied, par_tot_copied, par_balanced;
	uint32_t	 par_threads;
	uint16_t	 gen;		/* MODEL_GEN_UNKNOWN without stats */
	uint16_t	 ncaps;		/* caps that took part */
	uint64_t	 live;		/* HEAP_LIVE after it, 0 if none */
	uint64_t	 seq;		/* collection number, from 1 */
};

/* Figures over one window. */
struct model_gc_win {
	uint64_t	 count;
	uint64_t	 count_gen[MODEL_NGEN];	/* last entry: gen >= NGEN-1 */
	uint64_t	 count_nogen;	/* without GC_STATS_GHC */
	uint64_t	 pause_total, pause_max;
	uint64_t	 p50, p90, p99;	/* pause percentiles (nearest rank) */
	int		 exact;		/* percentiles exact, else the middle
					 * of their 1/16 octave buckets */
	uint64_t	 sync_total, sync_max;
	uint64_t	 copied;
	uint64_t	 gc_ns;		/* time with a collection running */
	uint64_t	 dur_ns;	/* window length */
	double		 productivity;	/* 1 - gc_ns / dur_ns */
	double		 balance;	/* mean parallel work balance (GHC's
					 * "serial 0, perfect 1"), -1 none */
	/* MODEL_WRUN only (else -1): minimum mutator utilisation for
	 * windows of model_mmu_ns[] (10 ms, 100 ms, 1 s): the least mutator
	 * share of any window of that length in the run; -1 while the run
	 * is shorter than the window. */
	double		 mmu[MODEL_NMMU];
	int		 mmu_exact;	/* else more collections in a window
					 * than kept: GC time may be missed,
					 * the MMU may be lower */
	/* Pause histogram in half octaves from 1 us: bucket 0 holds pauses
	 * under 1000 ns, bucket i >= 1 those from ceil(1000 * 2^((i-1)/2)) ns
	 * to the next bucket's start; the last bucket has no end. */
	uint64_t	 hist[MODEL_NHIST];
};

struct model_gc {
	uint64_t	 collections;	/* since the run (or reset) */
	uint64_t	 requests;	/* REQUEST_SEQ_GC + REQUEST_PAR_GC */
	uint64_t	 syncs;		/* GC_GLOBAL_SYNC */
	int		 in_gc;		/* a collection is running now */
	uint64_t	 open_start;	/* its start */
	uint64_t	 gc_ns;		/* time with a collection running */
	uint64_t	 recs;		/* records in the ring (<= MODEL_NGCREC) */
	uint64_t	 dropped;	/* unfinished when a session ended */
};

extern const uint64_t model_mmu_ns[MODEL_NMMU];

/* ------------------------------------------------------------------ */
/* Heap. */

struct model_heap {
	uint64_t	 size, live, blocks;	/* latest HEAP_SIZE, HEAP_LIVE,
						 * BLOCKS_SIZE */
	uint64_t	 size_max, live_max;
	uint64_t	 allocated;	/* bytes allocated since the start: the
					 * HEAP_ALLOCATED counts (cumulative,
					 * one per cap) summed */
	/* MEM_RETURN, in megablocks. */
	uint64_t	 mr_events;
	uint32_t	 mr_current, mr_needed, mr_returned;
	uint64_t	 mr_returned_total;
};

/* ------------------------------------------------------------------ */
/* Nonmoving GC. */

struct model_nm_size {
	uint32_t	 blk_size;	/* bytes per block, 0 = unused class */
	uint32_t	 active, filled, live;	/* segments, segments, blocks */
	uint32_t	 current;	/* segments: one per capability, which
					 * GHC counts live blocks of but not in
					 * active or filled */
	/* Implied, assuming GHC's 32 KiB segments: blocks that fit in the
	 * active, filled and current segments, live share of them, and the
	 * rest. */
	uint64_t	 capacity;	/* blocks */
	double		 occupancy, frag;	/* 0..1 */
};

enum model_nm_phase {
	MODEL_NM_IDLE, MODEL_NM_MARK, MODEL_NM_SYNC, MODEL_NM_SWEEP,
};

/* One concurrent cycle; a phase's time is 0 until it ended.  Marking
 * goes on during the sync: mark_ns and marked sum every mark phase. */
struct model_nm_rec {
	uint64_t	 mark_start, mark_ns;
	uint64_t	 marked;	/* CONC_MARK_END objects */
	uint64_t	 sync_start, sync_ns;	/* the sync pause */
	uint64_t	 sweep_start, sweep_ns;
};

struct model_nonmoving {
	uint64_t	 censuses;	/* runs of NONMOVING_HEAP_CENSUS */
	uint64_t	 census_events;
	uint64_t	 census_time;	/* time of the latest census */
	/* The latest census: nsizes size classes in the order sent. */
	struct model_nm_size sizes[MODEL_NM_SIZES];
	int		 nsizes;
	uint64_t	 live_bytes;	/* sum of live blocks * size, latest */
	uint64_t	 seg_bytes;	/* (active + filled + current) * 32 KiB,
					 * latest */
	enum model_nm_phase phase;
	uint64_t	 phase_since;
	uint64_t	 marks, mark_ns, marked;	/* mark phases */
	uint64_t	 syncs, sync_ns, sync_max_ns;	/* sync pauses */
	uint64_t	 sweeps, sweep_ns;
	uint64_t	 flushes;	/* CONC_UPD_REM_SET_FLUSH */
	uint64_t	 pruned_events;	/* NONMOVING_PRUNED_SEGMENTS */
	uint32_t	 pruned_last, free_last;
	uint64_t	 pruned_total;
	uint64_t	 recs;		/* cycles in the ring */
};

/* ------------------------------------------------------------------ */
/* Time profile (PROF_SAMPLE_COST_CENTRE).  A sample counts once for its
 * whole stack, once as "self" for the innermost cost centre and once as
 * "total" for every distinct cost centre in the stack; samples times
 * prog.tick_ns is time.  Tables: cost centres (MODEL_MAX_CCS) and stacks
 * (MODEL_MAX_STACKS); when full, the least recently sampled (or defined)
 * entry is evicted (counted). */

struct model_cc {
	uint32_t	 id;
	const char	*label, *module, *srcloc;	/* "" when not defined;
							 * 160 bytes at most */
	int		 defined;	/* HEAP_PROF_COST_CENTRE seen */
	int		 caf;
	uint64_t	 self, total;	/* samples over the run (or reset) */
};

struct model_cc_row {
	const struct model_cc *cc;
	uint64_t	 self, total;	/* samples in the window */
	double		 self_share, total_share;	/* of the window's samples */
};

struct model_stack_row {
	const uint32_t	*ids;		/* innermost first */
	uint32_t	 depth;
	uint64_t	 samples;	/* in the window */
	double		 share;
};

struct model_prof {
	uint64_t	 samples;	/* PROF_SAMPLE_COST_CENTRE, run (reset) */
	uint64_t	 samples_total;	/* never reset */
	uint64_t	 empty;		/* samples with an empty stack */
	uint64_t	 ccs, stacks;	/* entries in the tables */
	uint64_t	 ccs_evicted, stacks_evicted;
	uint64_t	 cc_defs;	/* HEAP_PROF_COST_CENTRE events */
};

/* ------------------------------------------------------------------ */
/* Heap profile (HEAP_PROF_SAMPLE_BEGIN .. END).  Bands are keyed by cost
 * centre stack (163) or label (164); at most MODEL_MAX_BANDS, evicting the
 * band whose last census is the oldest when full (counted). */

struct model_band {
	const char	*name;		/* label, or the stack's labels a/b/c;
					 * one cut to 159 bytes has the band's
					 * serial in front, "(12)a/b/..." */
	uint64_t	 info;		/* a label "0x..." (-hi): its address */
	uint64_t	 bytes;		/* residency in the latest census */
	uint64_t	 peak;		/* largest residency seen */
	uint64_t	 last_census;	/* number of the last census it was in */
};

struct model_band_row {
	const struct model_band *band;
	uint64_t	 bytes;		/* latest census */
	double		 share;		/* of the census total */
	int64_t		 delta;		/* bytes since the previous census */
	/* Residency in the last MODEL_NTREND censuses, oldest first, 0 where
	 * the band was absent; ntrend of them are valid. */
	uint64_t	 trend[MODEL_NTREND];
	int		 ntrend;
};

struct model_census {
	uint64_t	 start, end;	/* event times; end 0 while open */
	uint64_t	 era;
	uint64_t	 total;		/* residency summed over samples */
	uint32_t	 samples;
};

struct model_hprof {
	uint64_t	 censuses;	/* HEAP_PROF_SAMPLE_BEGIN events */
	int		 in_census;
	uint64_t	 last_time;	/* start of the latest census */
	uint64_t	 samples;	/* 163/164 events */
	uint64_t	 bands, bands_evicted;
	uint64_t	 recs;		/* censuses in the ring */
};

/* ------------------------------------------------------------------ */
/* Info-table provenance (IPE events, -finfo-table-map): names for -hi
 * bands.  Strings are sanitized, at most MODEL_IPE_STR bytes each. */

#define MODEL_IPE_STR	 96

struct model_ipe {
	uint64_t	 info;		/* the info table's address */
	const char	*table_name;	/* "Rec_Main_2_con_info" */
	const char	*closure;	/* closure type: "CONSTR_2_0", "THUNK" */
	const char	*type;		/* Haskell type: "Rec", "[Int]" */
	const char	*label;		/* "mkRec", maybe "" */
	const char	*module;	/* "Main" */
	const char	*srcloc;	/* "Ipe.hs:24:12-69", maybe ":" */
};

struct model_ipes {
	uint64_t	 events;	/* IPE events */
	uint64_t	 entries;	/* in the table */
	uint64_t	 evicted;	/* oldest dropped for a new one */
};

/* ------------------------------------------------------------------ */
/* What the exports (export.c) need besides the panes' figures
 * (model-hist.c): each stack's samples by capability, the samples with an
 * empty stack, and a history of heap-profile censuses with their bands.
 * Bounded: at most MODEL_MAX_STACK_CAPS (stack, capability) entries, made
 * when first sampled and freed with their stack (a sample that finds the
 * table full counts for the whole program only: caps_full); the last
 * MODEL_HIST_CENSUSES censuses, holding MODEL_HIST_ENTRIES bands between
 * them (about 2 MiB, allocated at the first band), the oldest census
 * dropped first (dropped). */
#define MODEL_MAX_STACK_CAPS	65536
#define MODEL_HIST_CENSUSES	1024
#define MODEL_HIST_ENTRIES	(1u << 17)

struct model_stack_cap {
	uint32_t	 cap;
	uint64_t	 samples;	/* in the window */
};

struct model_hist_info {
	uint64_t	 censuses;	/* kept */
	uint64_t	 dropped;	/* begun, no longer kept */
	uint64_t	 stack_caps;	/* (stack, cap) entries */
	uint64_t	 caps_full;	/* samples not counted by cap */
};

/* A stack with samples in the window and its counts by cap (ascending
 * cap numbers); the empty stack has depth 0. */
typedef void	 model_stack_fn(void *, const struct model_stack_row *,
		     const struct model_stack_cap *, int);

/* A census of the history: begin, its bands (NULL: evicted from the band
 * table since; bytes summed per band), end. */
struct model_hist_visit {
	void	(*begin)(void *, const struct model_census *);
	void	(*band)(void *, const struct model_band *, uint64_t);
	void	(*end)(void *, const struct model_census *);
};

/* ------------------------------------------------------------------ */
/* Messages: USER_MSG, USER_MARKER, LOG_MSG, USER_BINARY_MSG. */

enum model_msg_kind {
	MODEL_MSG_USER, MODEL_MSG_MARKER, MODEL_MSG_LOG, MODEL_MSG_BINARY,
};

struct model_msg {
	uint64_t	 time;
	int32_t		 cap;		/* -1 without a cap */
	uint8_t		 kind;		/* enum model_msg_kind */
	char		 text[MODEL_MSG_LEN];	/* sanitized, maybe cut */
};

struct model_msgs {
	uint64_t	 user, markers, log, binary;
	uint64_t	 kept;		/* in the ring (<= MODEL_NMSG) */
};

/* ------------------------------------------------------------------ */
/* Totals over the stream (kept across a reset by a new program). */

struct model_totals {
	uint64_t	 events;	/* block markers excluded */
	uint64_t	 bytes;		/* of those events */
	uint64_t	 blocks;	/* BLOCK_MARKER events */
	uint64_t	 unknown;	/* events with no parser (KIND_UNKNOWN) */
	uint64_t	 unknown_tags;	/* distinct such tags */
	uint64_t	 errors;	/* model_error() calls */
	char		 last_error[256];
	uint64_t	 late;		/* applied after a later event had been */
	uint64_t	 headers;	/* model_header() calls */
	/* Reordering. */
	uint64_t	 held, held_bytes;	/* in the buffer now */
	uint64_t	 forced;	/* released early: buffer full */
	uint64_t	 oversize;	/* too big to hold: applied at once */
};

/*
 * A range of event time being reported (--from/--to): model_range_begin()
 * at its start resets the run window and notes the counts that only grow,
 * which the output then gives as counted since.
 */
struct model_range {
	int		 on;
	uint64_t	 from_ns, to_ns;
	uint64_t	*tags;		/* [PROTO_NTAGS] tag_count at from */
	uint64_t	 events, bytes, blocks, created, censuses;
	uint64_t	 nm_censuses, nm_census_events, user, markers;
	uint64_t	 finished, migrations, wakeups, runs, cpu_ns;
	uint64_t	 requests, syncs;
};

/* A count that only grows, from the range's start when one is shown. */
#define MODEL_SINCE(m, v, field) \
	((m)->range.on ? (v) - (m)->range.field : (v))

/* ------------------------------------------------------------------ */
/* Per-slot series, for rates and sparklines. */

enum model_series {
	/* Counters: summed per slot. */
	MODEL_S_EVENTS,
	MODEL_S_BYTES,		/* event bytes */
	MODEL_S_ALLOC,		/* bytes allocated */
	MODEL_S_GCS,		/* collections ended */
	MODEL_S_GC_NS,		/* time with a collection running */
	MODEL_S_RUN_NS,		/* caps running Haskell, summed over caps */
	MODEL_S_THREADS_CREATED,
	MODEL_S_THREADS_FINISHED,
	MODEL_S_SPARKS_CREATED,	/* from SPARK_COUNTERS deltas where a cap */
	MODEL_S_SPARKS_CONVERTED, /* posts them, else from spark events */
	MODEL_S_SPARKS_FIZZLED,
	MODEL_S_SPARKS_GCD,
	MODEL_S_SPARKS_DUD,
	MODEL_S_SPARKS_OVERFLOWED,
	MODEL_S_PROF_SAMPLES,
	MODEL_S_MESSAGES,
	MODEL_S_COPIED,		/* bytes copied by GC */
	/* Gauges: the last value in the slot (carried forward). */
	MODEL_S_HEAP_SIZE,
	MODEL_S_HEAP_LIVE,
	MODEL_S_BLOCKS_SIZE,
	MODEL_S_THREADS_LIVE,
	MODEL_NSERIES
};
#define MODEL_S_FIRST_GAUGE MODEL_S_HEAP_SIZE

/* ------------------------------------------------------------------ */

struct model_priv;

struct model {
	uint64_t	 now;		/* newest event time applied */
	uint64_t	 reset_at;	/* start of MODEL_WRUN */
	struct model_prog prog;
	struct model_cap *caps[MODEL_MAX_CAPS];	/* NULL until seen */
	struct model_threads threads;
	struct model_gc	 gc;
	struct model_heap heap;
	struct model_nonmoving nm;
	struct model_prof prof;
	struct model_hprof hprof;
	struct model_ipes ipe;
	struct model_msgs msgs;
	struct model_totals totals;
	uint64_t	*tag_count;	/* [PROTO_NTAGS] events per tag */
	struct model_range range;
	struct model_priv *p;		/* private */
	/* model_on_program(): the same function across resets and states. */
	void		(*on_program)(void *, const struct model *);
	void		*on_program_arg;
};

/*
 * model.c
 * model_set_reorder(m, window_ns, max_bytes): events given to model_apply()
 *	in arrival order are held back and released in time order (ties in
 *	arrival order) once they are window_ns older than the newest event
 *	seen, or when max_bytes of copies are held.  window_ns 0: the input is
 *	already in time order (a file through reader_next), apply at once.
 *	Default: MODEL_REORDER_NS, MODEL_REORDER_BYTES.
 * model_apply_until(m, ev, n, until): model_apply() on ev[0..n) up to the
 *	first event at or after until (block markers aside); how many.
 * model_header(): on PROTO_HEADER; releases what is held back.
 * model_flush(): the source ended (or has been quiet): release everything.
 * model_error(): a decode error, counted and kept in totals.last_error.
 * model_reset_window(): MODEL_WRUN figures start again now (the `z` key).
 * model_sum/rate(): a counter series summed over a window, or per second.
 * model_history(): the last n slots of a series, oldest first, into out[];
 *	returns how many were written (counters per slot, gauges as values).
 * model_tag_name(): GHC's name of a tag, or "UNKNOWN_<tag>" in buf.
 * The *_recent(m, i) accessors return the i-th newest record (0 = newest),
 * or NULL past the end of their ring.
 */
struct model	*model_new(void);
/* fn(arg, m) when another program is about to replace the one m holds
 * (m holds it still: its exports are written then). */
void		 model_on_program(struct model *,
		     void (*)(void *, const struct model *), void *);
void		 model_free(struct model *);
/* A model's whole state is the bytes of its own heap (model-mem.c):
 * model_state() gives them; model_restore() copies a state of the same
 * model back through fill(arg, dst, n), which returns 0 when it could.
 * What the reorder buffer held back is dropped then (its owner reads it
 * again), so the bytes model_state_hole() gives, hole after hole (prev
 * NULL: the first; NULL after the last), need not be kept. */
const void	*model_state(const struct model *, size_t *);
const void	*model_state_hole(const struct model *, const void *,
		     size_t *);
int		 model_restore(struct model *, size_t,
		     int (*)(void *, void *, size_t), void *);
void		 model_set_reorder(struct model *, uint64_t, size_t);
void		 model_header(struct model *, const struct proto_dec *);
void		 model_apply(struct model *, const struct proto_ev *);
size_t		 model_apply_until(struct model *, const struct proto_ev *,
		     size_t, uint64_t);
size_t		 model_apply_sorted_p(struct model *,
		     const struct proto_ev *const *, size_t, uint64_t);
void		 model_late_defer(struct model *, int, uint64_t, uint64_t);
/* A late global event whose effect does not depend on where it goes is
 * applied where it belongs (model_late_global()); the owner of a live
 * source's history is told first, to apply it again after going back to
 * a checkpoint older than its coming (0 from it: deferred as any other). */
typedef int	 model_aside_fn(void *, const struct proto_ev *);
void		 model_late_aside(struct model *, model_aside_fn *, void *);
int		 model_late_global(struct model *, const struct proto_ev *);
int		 model_late_global_kind(const struct proto_ev *);
int		 model_late_take(struct model *, uint64_t *, uint64_t *);
int		 model_late_peek(const struct model *);
void		 model_released(const struct model *, uint64_t *, uint64_t *);
void		 model_release_until(struct model *, uint64_t);
void		 model_flush(struct model *);
void		 model_error(struct model *, const char *);
void		 model_reset_window(struct model *);
void		 model_range_begin(struct model *, uint64_t, uint64_t);
uint64_t	 model_win_ns(const struct model *, enum model_win);
uint64_t	 model_win_start(const struct model *, enum model_win);
uint64_t	 model_sum(const struct model *, enum model_series,
		     enum model_win);
double		 model_rate(const struct model *, enum model_series,
		     enum model_win);
int		 model_history(const struct model *, enum model_series,
		     double *, int);
const char	*model_tag_name(uint16_t, char *, size_t);

/* model-caps.c */
void		 model_cap_util(const struct model *, const struct model_cap *,
		     enum model_win, struct model_util *);
void		 model_caps_util(const struct model *, enum model_win,
		     struct model_util *);
int		 model_cap_history(const struct model *,
		     const struct model_cap *, double *, int);
uint64_t	 model_cap_sparks(const struct model *,
		     const struct model_cap *, enum model_series,
		     enum model_win);

/* model-threads.c */
const struct model_thread *model_thread_find(const struct model *, uint32_t);
int		 model_threads_sorted(const struct model *, enum model_win,
		     enum model_tsort, struct model_thread_row *, int,
		     struct model_rowq *);

/* model-gc-win.c */
void		 model_gc_window(const struct model *, enum model_win,
		     struct model_gc_win *);
const struct model_gc_rec *model_gc_recent(const struct model *, int);

/* model-nm.c */
const struct model_nm_rec *model_nm_recent(const struct model *, int);

/* model-prof.c */
const struct model_cc *model_cc_find(const struct model *, uint32_t);
int		 model_top_ccs(const struct model *, enum model_win, int,
		     struct model_cc_row *, int, struct model_rowq *);
int		 model_top_stacks(const struct model *, enum model_win,
		     struct model_stack_row *, int);
uint64_t	 model_prof_samples(const struct model *, enum model_win);
int		 model_top_bands(const struct model *, struct model_band_row *,
		     int);
const struct model_ipe *model_ipe_find(const struct model *, uint64_t);
const struct model_ipe *model_band_ipe(const struct model *,
		     const struct model_band *);
size_t		 model_band_title(const struct model *,
		     const struct model_band *, char *, size_t);
const struct model_census *model_census_recent(const struct model *, int);

/* model-hist.c: model_hist_stacks() calls fn for every stack with samples
 * in the window and returns the samples it reported; model_hist_censuses()
 * visits the kept censuses that began at or after from, oldest first, and
 * returns how many. */
uint64_t	 model_hist_stacks(const struct model *, enum model_win,
		     model_stack_fn *, void *);
uint64_t	 model_hist_censuses(const struct model *, uint64_t,
		     const struct model_hist_visit *, void *);
void		 model_hist_info(const struct model *,
		     struct model_hist_info *);

/* model-msgs.c */
const struct model_msg *model_msg_recent(const struct model *, int);

/* model-out.c */
void		 model_json(const struct model *, FILE *);
void		 model_json_more(const struct model *, FILE *, const char *);
void		 model_text(const struct model *, FILE *);

/* batch.c: batch_emit() prints the model once as --batch does (text or
 * JSON per the options); batch_interval_ns() is --interval in ns. */
struct evtop_opts;
void		 batch_emit(const struct model *, const struct evtop_opts *,
		     FILE *, const char *);
uint64_t	 batch_interval_ns(const struct evtop_opts *);

#endif
