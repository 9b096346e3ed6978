/*
 * evlist-match.c: does an event's `evtop show` line contain a query?
 * Decided without formatting the line, for nearly every event.
 *
 * Each kind's line is a template: proto/show.c's words with its fields as
 * holes, "%u: cap %d: running thread %u".  A query is compiled once
 * against each template into placements: every way it can lie over the
 * template's words and holes with the words agreeing, each kept as
 * conditions on the holes it covers (the hole's text equals, starts with,
 * ends with or contains a part of the query).  A kind with no placement
 * never matches and costs one look-up; a number's hole is checked on that
 * number's digits alone; a hole of text (a label, a message) is not
 * checked, so a placement over one makes the event a candidate.  Every
 * candidate is then formatted and searched, so the answer is exact and the
 * filter only has to be sound: it must never drop a match.  tests/events
 * checks that against formatting every line of every log, and checks that
 * each template spells its events' lines.  A kind without a template is
 * always a candidate.
 *
 * Case: a query without capitals matches either case (vim's smartcase).
 */
#include <stdlib.h>
#include <string.h>

#include "time/evlist.h"

#define EVL_NFIELD	12		/* time, cap and up to 10 in the body */
#define EVL_NPIECE	48
#define EVL_NPLACE	256		/* per template; past it: a candidate */
#define EVL_NKIND	256

enum { EVL_P_LIT, EVL_P_NUM, EVL_P_SNUM, EVL_P_HEX, EVL_P_STR, EVL_P_ANY };
enum { EVL_C_EXACT, EVL_C_PREFIX, EVL_C_SUFFIX, EVL_C_CONTAINS };

struct evl_piece {
	int		 type;
	int		 field;
	const char	*lit;
	size_t		 len;
};

/* A stopped thread's reason is one of a few texts, one a status (but for
 * a black hole's owner, a number after it): a condition on it is worked
 * out once a status, not once an event. */
#define EVL_SMEMO	32

struct evl_cond {
	uint64_t	 qnum;		/* a number's hole: the digits' value */
	uint8_t		 field, op, any, type;
	uint8_t		 qoff, qlen;
	uint8_t		 qlz;		/* the digits start with a 0 */
	/* EVL_P_STR: by status, 0 not known yet, else EVL_S_* bits. */
	uint8_t		 smemo[EVL_SMEMO];
};

enum {
	EVL_S_KNOWN = 1,	/* the status's text was tried */
	EVL_S_TRUE = 2,		/* it holds the condition */
	EVL_S_INFO = 4,		/* with the event's info, a number follows */
};

struct evl_place {
	uint32_t	 first;		/* conditions */
	uint32_t	 n;
};

struct evl_plan {
	int		 always;	/* every event is a candidate */
	uint32_t	 first;		/* placements */
	uint32_t	 n;
};

struct evl_query {
	char		 q[EVL_QUERY];
	size_t		 len;
	int		 icase;
	struct evl_plan	 plan[EVL_NKIND][2];	/* [kind][has a cap] */
	struct evl_place *place;
	size_t		 nplace, aplace;
	struct evl_cond	*cond;
	size_t		 ncond, acond;
	/* Compiling. */
	struct evl_cond	 stack[EVL_NPIECE + 1];
	int		 depth;
	int		 over;		/* too many placements, or no memory */
	uint32_t	 plan_n;
};

/*
 * The body of each kind's line, as proto/show.c writes it: %u an unsigned
 * decimal, %d a signed one, %x hexadecimal, %r a text evl_str() spells
 * (a stopped thread's reason), %s anything (text from the log, a list).
 * evl_vals() gives the numbers in order (a %r takes a number's place).
 */
static const char *const evl_tmpl[EVL_NKIND] = {
	[PROTO_BLOCK_MARKER] = "event block: cap %u, end time: %u\n",
	[PROTO_STARTUP] = "startup: %u capabilities",
	[PROTO_CREATE_THREAD] = "creating thread %u",
	[PROTO_RUN_THREAD] = "running thread %u",
	[PROTO_STOP_THREAD] = "stopping thread %u (%r)",
	[PROTO_THREAD_RUNNABLE] = "thread %u is runnable",
	[PROTO_MIGRATE_THREAD] = "migrating thread %u to cap %u",
	[PROTO_CREATE_SPARK_THREAD] = "creating spark thread %u",
	[PROTO_SPARK_COUNTERS] = "spark stats: %u created, %u converted, "
	    "%u remaining (%u overflowed, %u dud, %u GC'd, %u fizzled)",
	[PROTO_SPARK_CREATE] = "spark created",
	[PROTO_SPARK_DUD] = "dud spark discarded",
	[PROTO_SPARK_OVERFLOW] = "overflowed spark discarded",
	[PROTO_SPARK_RUN] = "running a local spark",
	[PROTO_RUN_SPARK] = "running a local spark",
	[PROTO_SPARK_STEAL] = "stealing a spark from cap %u",
	[PROTO_STEAL_SPARK] = "stealing a spark from cap %u",
	[PROTO_SPARK_FIZZLE] = "spark fizzled",
	[PROTO_SPARK_GC] = "spark GCed",
	[PROTO_TASK_CREATE] = "task 0x%x created on cap %u with OS kernel "
	    "thread %u",
	[PROTO_TASK_MIGRATE] = "task 0x%x migrated from cap %u to cap %u",
	[PROTO_TASK_DELETE] = "task 0x%x deleted",
	[PROTO_SHUTDOWN] = "shutting down",
	[PROTO_THREAD_WAKEUP] = "waking up thread %u on cap %u",
	[PROTO_THREAD_LABEL] = "thread %u has label \"%s\"",
	[PROTO_REQUEST_SEQ_GC] = "requesting sequential GC",
	[PROTO_REQUEST_PAR_GC] = "requesting parallel GC",
	[PROTO_GC_START] = "starting GC",
	[PROTO_GC_END] = "finished GC",
	[PROTO_GC_WORK] = "GC working",
	[PROTO_GC_IDLE] = "GC idle",
	[PROTO_GC_DONE] = "GC done",
	[PROTO_GC_GLOBAL_SYNC] = "all caps stopped for GC",
	[PROTO_GC_STATS_GHC] = "GC stats for heap capset %u: generation %u, "
	    "%u bytes copied, %u bytes slop, %u bytes fragmentation, "
	    "%u par threads, %u bytes max par copied, "
	    "%u bytes total par copied%s",
	[PROTO_HEAP_ALLOCATED] = "allocated on heap capset %u: "
	    "%u total bytes till now",
	[PROTO_HEAP_SIZE] = "size of heap capset %u: %u bytes",
	[PROTO_BLOCKS_SIZE] = "blocks size of heap capset %u: %u bytes",
	[PROTO_HEAP_LIVE] = "live data in heap capset %u: %u bytes",
	[PROTO_HEAP_INFO_GHC] = "heap stats for heap capset %u: "
	    "generations %u, %u bytes max heap size, "
	    "%u bytes alloc area size, %u bytes mblock size, "
	    "%u bytes block size",
	[PROTO_MEM_RETURN] = "memory returned (mblocks): current(%u) "
	    "needed(%u) returned(%u)",
	[PROTO_CAP_CREATE] = "created cap %u",
	[PROTO_CAP_DELETE] = "deleted cap %u",
	[PROTO_CAP_DISABLE] = "disabled cap %u",
	[PROTO_CAP_ENABLE] = "enabled cap %u",
	[PROTO_LOG_MSG] = "%s",
	[PROTO_USER_MSG] = "%s",
	[PROTO_USER_MARKER] = "marker: %s",
	[PROTO_CAPSET_CREATE] = "created capset %u of type %s",
	[PROTO_CAPSET_DELETE] = "deleted capset %u",
	[PROTO_CAPSET_ASSIGN_CAP] = "assigned cap %u to capset %u",
	[PROTO_CAPSET_REMOVE_CAP] = "removed cap %u from capset %u",
	[PROTO_OSPROCESS_PID] = "capset %u: pid %u",
	[PROTO_OSPROCESS_PPID] = "capset %u: parent pid %u",
	[PROTO_WALL_CLOCK_TIME] = "capset %u: wall clock time %us %uns "
	    "(unix epoch)",
	[PROTO_RTS_IDENTIFIER] = "capset %u: RTS version \"%s\"",
	[PROTO_PROGRAM_ARGS] = "capset %u: args: %s",
	[PROTO_PROGRAM_ENV] = "capset %u: env: %s",
	[PROTO_INTERN_STRING] = "Interned string: \"%s\" with id %u",
	[PROTO_VERSION] = "compiler version is %s",
	[PROTO_PROGRAM_INVOCATION] = "program invocation: %s",
	[PROTO_PERF_NAME] = "perf event %u named \"%s\"",
	[PROTO_PERF_COUNTER] = "perf event counter %u incremented by %u in "
	    "OS thread %u",
	[PROTO_PERF_TRACEPOINT] = "perf event tracepoint %u reached in OS "
	    "thread %u",
	[PROTO_HEAP_PROF_COST_CENTRE] = "cost centre %u %s",
	[PROTO_HEAP_PROF_SAMPLE_BEGIN] = "start heap prof sample %u",
	[PROTO_HEAP_PROF_SAMPLE_END] = "end prof sample %u",
	[PROTO_HEAP_BIO_PROF_SAMPLE_BEGIN] = "start heap prof sample %u at "
	    "time %u",
	[PROTO_HEAP_PROF_SAMPLE_COST_CENTRE] = "heap prof sample %u, "
	    "residency %u, cost centre stack %s",
	[PROTO_HEAP_PROF_SAMPLE_STRING] = "heap prof sample %u, "
	    "residency %u, label %s",
	[PROTO_PROF_SAMPLE_COST_CENTRE] = "cap no %d, prof sample %u, "
	    "cost centre stack %s",
	[PROTO_PROF_BEGIN] = "start time profiling, tick interval %u (ns)",
	[PROTO_IPE] = "Info Table: %x:%s",
	[PROTO_USER_BINARY_MSG] = "binary message %s",
	[PROTO_CONC_MARK_BEGIN] = "concurrent mark began",
	[PROTO_CONC_MARK_END] = "concurrent mark ended: marked %u objects",
	[PROTO_CONC_SYNC_BEGIN] = "post-mark synchronization began",
	[PROTO_CONC_SYNC_END] = "post-mark synchronization ended",
	[PROTO_CONC_SWEEP_BEGIN] = "concurrent sweep began",
	[PROTO_CONC_SWEEP_END] = "concurrent sweep ended",
	[PROTO_CONC_UPD_REM_SET_FLUSH] = "update remembered set flushed by %u",
	[PROTO_NONMOVING_HEAP_CENSUS] = "nonmoving heap census %u: %u active "
	    "segments, %u filled segments, %u live blocks",
	[PROTO_NONMOVING_PRUNED_SEGMENTS] = "nonmoving segments pruned: "
	    "%u pruned segments, %u free segments retained",
	[PROTO_TICKY_COUNTER_SAMPLE] = "ticky counter sample %u: entry count: "
	    "%u, %u allocs, %u allocd",
	[PROTO_TICKY_BEGIN_SAMPLE] = "ticky begin counter sample",
};

/* The numbers of an event's body, in its template's order, from v[2]. */
static void
evl_vals(const struct proto_ev *ev, uint64_t *v)
{
	const __typeof__(ev->u) *u = &ev->u;

	v[0] = ev->time;
	v[1] = (uint64_t)(int64_t)ev->cap;
	v += 2;
	switch (ev->kind) {
	case PROTO_BLOCK_MARKER:
		v[0] = u->block.cap;
		v[1] = u->block.end_time;
		break;
	case PROTO_STARTUP:
		v[0] = u->startup.n;
		break;
	case PROTO_CREATE_THREAD:
	case PROTO_RUN_THREAD:
	case PROTO_THREAD_RUNNABLE:
	case PROTO_CREATE_SPARK_THREAD:
		v[0] = u->thread.thread;
		break;
	case PROTO_STOP_THREAD:
		v[0] = u->stop.thread;
		break;
	case PROTO_MIGRATE_THREAD:
	case PROTO_THREAD_WAKEUP:
		v[0] = u->migrate.thread;
		v[1] = u->migrate.cap;
		break;
	case PROTO_SPARK_COUNTERS:
		v[0] = u->sparks.crt;
		v[1] = u->sparks.cnv;
		v[2] = u->sparks.rem;
		v[3] = u->sparks.ovf;
		v[4] = u->sparks.dud;
		v[5] = u->sparks.gcd;
		v[6] = u->sparks.fiz;
		break;
	case PROTO_SPARK_STEAL:
	case PROTO_CAP_CREATE:
	case PROTO_CAP_DELETE:
	case PROTO_CAP_DISABLE:
	case PROTO_CAP_ENABLE:
	case PROTO_CONC_UPD_REM_SET_FLUSH:
		v[0] = u->cap.cap;
		break;
	case PROTO_STEAL_SPARK:
		v[0] = u->migrate.cap;
		break;
	case PROTO_TASK_CREATE:
		v[0] = u->task_create.task;
		v[1] = u->task_create.cap;
		v[2] = u->task_create.tid;
		break;
	case PROTO_TASK_MIGRATE:
		v[0] = u->task_migrate.task;
		v[1] = u->task_migrate.cap;
		v[2] = u->task_migrate.new_cap;
		break;
	case PROTO_TASK_DELETE:
		v[0] = u->task.task;
		break;
	case PROTO_THREAD_LABEL:
		v[0] = u->label.thread;
		break;
	case PROTO_GC_STATS_GHC:
		v[0] = u->gc_stats.capset;
		v[1] = u->gc_stats.gen;
		v[2] = u->gc_stats.copied;
		v[3] = u->gc_stats.slop;
		v[4] = u->gc_stats.frag;
		v[5] = u->gc_stats.par_n_threads;
		v[6] = u->gc_stats.par_max_copied;
		v[7] = u->gc_stats.par_tot_copied;
		break;
	case PROTO_HEAP_ALLOCATED:
	case PROTO_HEAP_SIZE:
	case PROTO_BLOCKS_SIZE:
	case PROTO_HEAP_LIVE:
		v[0] = u->heap.capset;
		v[1] = u->heap.bytes;
		break;
	case PROTO_HEAP_INFO_GHC:
		v[0] = u->heap_info.capset;
		v[1] = u->heap_info.gens;
		v[2] = u->heap_info.max_heap;
		v[3] = u->heap_info.alloc_area;
		v[4] = u->heap_info.mblock;
		v[5] = u->heap_info.block;
		break;
	case PROTO_MEM_RETURN:
		v[0] = u->mem_return.current;
		v[1] = u->mem_return.needed;
		v[2] = u->mem_return.returned;
		break;
	case PROTO_CAPSET_CREATE:
		v[0] = u->capset_create.capset;
		break;
	case PROTO_CAPSET_DELETE:
		v[0] = u->capset.capset;
		break;
	case PROTO_CAPSET_ASSIGN_CAP:
	case PROTO_CAPSET_REMOVE_CAP:
		v[0] = u->capset_cap.cap;
		v[1] = u->capset_cap.capset;
		break;
	case PROTO_OSPROCESS_PID:
	case PROTO_OSPROCESS_PPID:
		v[0] = u->pid.capset;
		v[1] = u->pid.pid;
		break;
	case PROTO_WALL_CLOCK_TIME:
		v[0] = u->wall.capset;
		v[1] = u->wall.sec;
		v[2] = u->wall.nsec;
		break;
	case PROTO_RTS_IDENTIFIER:
	case PROTO_PROGRAM_ARGS:
	case PROTO_PROGRAM_ENV:
		v[0] = u->capset_str.capset;
		break;
	case PROTO_INTERN_STRING:
		v[0] = u->intern.id;
		break;
	case PROTO_PERF_NAME:
		v[0] = u->perf_name.num;
		break;
	case PROTO_PERF_COUNTER:
		v[0] = u->perf.num;
		v[1] = u->perf.period + 1;
		v[2] = u->perf.tid;
		break;
	case PROTO_PERF_TRACEPOINT:
		v[0] = u->perf.num;
		v[1] = u->perf.tid;
		break;
	case PROTO_HEAP_PROF_COST_CENTRE:
		v[0] = u->cost_centre.id;
		break;
	case PROTO_HEAP_PROF_SAMPLE_BEGIN:
	case PROTO_HEAP_PROF_SAMPLE_END:
		v[0] = u->sample.era;
		break;
	case PROTO_HEAP_BIO_PROF_SAMPLE_BEGIN:
		v[0] = u->sample.era;
		v[1] = u->sample.time;
		break;
	case PROTO_HEAP_PROF_SAMPLE_COST_CENTRE:
		v[0] = u->heap_sample_cc.id;
		v[1] = u->heap_sample_cc.residency;
		break;
	case PROTO_HEAP_PROF_SAMPLE_STRING:
		v[0] = u->heap_sample_str.id;
		v[1] = u->heap_sample_str.residency;
		break;
	case PROTO_PROF_SAMPLE_COST_CENTRE:
		v[0] = (uint64_t)(int64_t)(int32_t)u->prof_sample.cap;
		v[1] = u->prof_sample.ticks;
		break;
	case PROTO_PROF_BEGIN:
		v[0] = u->prof_begin.interval;
		break;
	case PROTO_IPE:
		v[0] = u->ipe.info;
		break;
	case PROTO_CONC_MARK_END:
		v[0] = u->mark_end.marked;
		break;
	case PROTO_NONMOVING_HEAP_CENSUS:
		v[0] = u->census.blk_size;
		v[1] = u->census.active;
		v[2] = u->census.filled;
		v[3] = u->census.live;
		break;
	case PROTO_NONMOVING_PRUNED_SEGMENTS:
		v[0] = u->pruned.pruned;
		v[1] = u->pruned.free;
		break;
	case PROTO_TICKY_COUNTER_SAMPLE:
		v[0] = u->ticky.id;
		v[1] = u->ticky.entries;
		v[2] = u->ticky.allocs;
		v[3] = u->ticky.allocd;
		break;
	default:
		break;
	}
}

/* A status's reason without a black hole owner's number after it; s:
 * proto_stop_status()'s text for it. */
static size_t
evl_str_plain(uint16_t status, const char *s, char *buf)
{
	size_t		 n;

	if (status == 8)
		s = "blocked on a black hole";
	else if (status == 2)
		s = "stack overflow";
	n = strlen(s);
	if (n > 63)
		n = 63;
	memcpy(buf, s, n);
	return n;
}

/*
 * The text of a %r hole: a stopped thread's reason, as proto/show.c's
 * stop() words it.  Its length; buf holds 64 bytes.
 */
static size_t
evl_str(const struct proto_ev *ev, char *buf)
{
	const char	*s;
	int		 info;
	size_t		 n;

	s = proto_stop_status(ev->u.stop.status, &info);
	if (info && ev->u.stop.has_info) {
		n = (size_t)snprintf(buf, 64, "%s%u", s, ev->u.stop.info);
		return n < 64 ? n : 63;
	}
	return evl_str_plain(ev->u.stop.status, s, buf);
}

/* A template's pieces from field base on; how many, or -1. */
static int
evl_parse(const char *f, int base, struct evl_piece *pc, int n)
{
	const char	*s;

	while (*f != '\0') {
		if (n == EVL_NPIECE)
			return -1;
		if (f[0] == '%') {
			switch (f[1]) {
			case 'u': pc[n].type = EVL_P_NUM; break;
			case 'd': pc[n].type = EVL_P_SNUM; break;
			case 'x': pc[n].type = EVL_P_HEX; break;
			case 'r': pc[n].type = EVL_P_STR; break;
			default: pc[n].type = EVL_P_ANY; break;
			}
			pc[n].field = pc[n].type == EVL_P_ANY ? 0 : base++;
			pc[n].lit = NULL;
			pc[n].len = 0;
			f += 2;
		} else {
			for (s = f; *s != '\0' && *s != '%'; s++)
				;
			pc[n].type = EVL_P_LIT;
			pc[n].field = 0;
			pc[n].lit = f;
			pc[n].len = (size_t)(s - f);
			f = s;
		}
		if (base > EVL_NFIELD)
			return -1;
		n++;
	}
	return n;
}

/* A kind's whole line, with the cap's part or not; pieces, or -1. */
static int
evl_template(unsigned kind, int cap, struct evl_piece *pc)
{
	int	n;

	if (kind >= EVL_NKIND || evl_tmpl[kind] == NULL)
		return -1;
	n = evl_parse("%u: ", 0, pc, 0);
	if (cap)
		n = evl_parse("cap %d: ", 1, pc, n);
	return evl_parse(evl_tmpl[kind], 2, pc, n);
}

static inline unsigned char
evl_fold(unsigned char c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

static int
evl_eq(const struct evl_query *q, const char *qs, const char *s, size_t n)
{
	size_t	i;

	if (!q->icase)
		return memcmp(qs, s, n) == 0;
	for (i = 0; i < n; i++) {
		if ((unsigned char)qs[i] != evl_fold((unsigned char)s[i]))
			return 0;
	}
	return 1;
}

/* Can a hole of this type hold s?  (False for a prefix: false for all.) */
static int
evl_alpha(int type, const char *s, size_t n)
{
	size_t	i;
	char	c;

	for (i = 0; i < n; i++) {
		c = s[i];
		if (c >= '0' && c <= '9')
			continue;
		if (type == EVL_P_ANY || type == EVL_P_STR ||
		    (type == EVL_P_SNUM && c == '-') ||
		    (type == EVL_P_HEX && c >= 'a' && c <= 'f'))
			continue;
		return 0;
	}
	return 1;
}

static void
evl_push(struct evl_query *q, const struct evl_piece *p, int op, size_t off,
    size_t len)
{
	struct evl_cond	*c = &q->stack[q->depth++];
	size_t		 i;

	c->qnum = 0;
	c->qlz = len > 0 && q->q[off] == '0';
	for (i = 0; i < len && i < 19; i++)
		c->qnum = c->qnum * 10 + (uint64_t)(q->q[off + i] - '0');
	c->field = (uint8_t)p->field;
	c->op = (uint8_t)op;
	c->any = p->type == EVL_P_ANY;
	c->type = (uint8_t)p->type;
	c->qoff = (uint8_t)off;
	c->qlen = (uint8_t)len;
	memset(c->smemo, 0, sizeof c->smemo);
}

/* The placement on the stack is one more way to match. */
static void
evl_emit(struct evl_query *q)
{
	void	*p;
	size_t	 n;

	if (q->over)
		return;
	if (q->plan_n >= EVL_NPLACE) {
		q->over = 1;
		return;
	}
	if (q->nplace == q->aplace) {
		n = q->aplace ? 2 * q->aplace : 256;
		if ((p = reallocarray(q->place, n, sizeof *q->place)) == NULL) {
			q->over = 1;
			return;
		}
		q->place = p;
		q->aplace = n;
	}
	while (q->ncond + (size_t)q->depth > q->acond) {
		n = q->acond ? 2 * q->acond : 1024;
		if ((p = reallocarray(q->cond, n, sizeof *q->cond)) == NULL) {
			q->over = 1;
			return;
		}
		q->cond = p;
		q->acond = n;
	}
	q->place[q->nplace].first = (uint32_t)q->ncond;
	q->place[q->nplace].n = (uint32_t)q->depth;
	if (q->depth > 0)
		memcpy(q->cond + q->ncond, q->stack, (size_t)q->depth *
		    sizeof *q->stack);
	q->ncond += (size_t)q->depth;
	q->nplace++;
	q->plan_n++;
}

/* The rest of the query, q[qi..], from the start of piece pi on. */
static void
evl_walk(struct evl_query *q, const struct evl_piece *pc, int k, int pi,
    size_t qi)
{
	const struct evl_piece	*p;
	size_t			 rest = q->len - qi, j;

	if (q->over)
		return;
	if (rest == 0) {
		evl_emit(q);
		return;
	}
	if (pi == k)
		return;
	p = &pc[pi];
	if (p->type == EVL_P_LIT) {
		if (!evl_eq(q, q->q + qi, p->lit, rest < p->len ? rest :
		    p->len))
			return;
		if (rest <= p->len)
			evl_emit(q);
		else
			evl_walk(q, pc, k, pi + 1, qi + p->len);
		return;
	}
	/* The query ends inside the hole. */
	if (evl_alpha(p->type, q->q + qi, rest)) {
		evl_push(q, p, EVL_C_PREFIX, qi, rest);
		evl_emit(q);
		q->depth--;
	}
	/* Or covers all of it: j bytes.  Only text can be empty. */
	for (j = p->type == EVL_P_ANY ? 0 : 1; j < rest; j++) {
		if (!evl_alpha(p->type, q->q + qi, j))
			break;
		evl_push(q, p, EVL_C_EXACT, qi, j);
		evl_walk(q, pc, k, pi + 1, qi + j);
		q->depth--;
	}
}

/* Every placement of the query over one template. */
static void
evl_compile(struct evl_query *q, const struct evl_piece *pc, int k,
    struct evl_plan *plan)
{
	const struct evl_piece	*p;
	size_t			 o, j, n;
	int			 pi;

	q->over = 0;
	q->plan_n = 0;
	q->depth = 0;
	plan->first = (uint32_t)q->nplace;
	for (pi = 0; pi < k && !q->over; pi++) {
		p = &pc[pi];
		if (p->type == EVL_P_LIT) {
			for (o = 0; o < p->len; o++) {
				n = p->len - o;
				if (!evl_eq(q, q->q, p->lit + o, q->len < n ?
				    q->len : n))
					continue;
				if (q->len <= n)
					evl_emit(q);
				else
					evl_walk(q, pc, k, pi + 1, n);
			}
			continue;
		}
		if (evl_alpha(p->type, q->q, q->len)) {
			evl_push(q, p, EVL_C_CONTAINS, 0, q->len);
			evl_emit(q);
			q->depth--;
		}
		for (j = 1; j < q->len; j++) {
			if (!evl_alpha(p->type, q->q, j))
				break;
			evl_push(q, p, EVL_C_SUFFIX, 0, j);
			evl_walk(q, pc, k, pi + 1, j);
			q->depth--;
		}
	}
	plan->always = q->over;
	plan->n = q->over ? 0 : q->plan_n;
	if (q->over)
		q->nplace = plan->first;
}

struct evl_query *
evl_query_new(const char *text)
{
	struct evl_query	*q;
	struct evl_piece	 pc[EVL_NPIECE];
	size_t			 i;
	unsigned		 kind;
	int			 cap, k;

	if ((q = calloc(1, sizeof *q)) == NULL)
		return NULL;
	q->len = strlen(text);
	if (q->len >= sizeof q->q)
		q->len = sizeof q->q - 1;
	memcpy(q->q, text, q->len);
	q->icase = 1;
	for (i = 0; i < q->len; i++) {
		if (q->q[i] >= 'A' && q->q[i] <= 'Z')
			q->icase = 0;
	}
	for (kind = 0; kind < EVL_NKIND; kind++) {
		for (cap = 0; cap < 2; cap++) {
			if ((k = evl_template(kind, cap, pc)) < 0) {
				q->plan[kind][cap].always = 1;
				continue;
			}
			if (q->len == 0)
				q->plan[kind][cap].always = 1;
			else
				evl_compile(q, pc, k, &q->plan[kind][cap]);
		}
	}
	return q;
}

void
evl_query_free(struct evl_query *q)
{
	if (q == NULL)
		return;
	free(q->place);
	free(q->cond);
	free(q);
}

int
evl_query_icase(const struct evl_query *q)
{
	return q->icase;
}

/* A number as its hole shows it; its length. */
static size_t
evl_num(int type, uint64_t v, char *buf)
{
	char	tmp[24];
	size_t	i = sizeof tmp, n;
	int	neg = 0;

	if (type == EVL_P_SNUM && (int64_t)v < 0) {
		neg = 1;
		v = (uint64_t)-(int64_t)v;
	}
	do {
		if (type == EVL_P_HEX) {
			tmp[--i] = "0123456789abcdef"[v & 15];
			v >>= 4;
		} else {
			tmp[--i] = (char)('0' + v % 10);
			v /= 10;
		}
	} while (v != 0);
	if (neg)
		tmp[--i] = '-';
	n = sizeof tmp - i;
	memcpy(buf, tmp + i, n);
	return n;
}

/*
 * A condition on an unsigned number's decimal digits, by arithmetic: the
 * number is not written out.  Digits of a query start with 0 only where
 * the number is 0 or the digits are not the number's first.
 */
static int
evl_num_true(const struct evl_cond *c, uint64_t v)
{
	unsigned	d = proto_ndigits(v), m = c->qlen, j;
	uint64_t	s = c->qnum;

	if (m > d)
		return 0;
	switch (c->op) {
	case EVL_C_EXACT:
		return m == d && v == s && (!c->qlz || m == 1);
	case EVL_C_PREFIX:
		if (c->qlz)
			return m == 1 && v == 0;
		return v / proto_pow10[d - m] == s;
	case EVL_C_SUFFIX:
		return v % proto_pow10[m] == s;
	default:
		for (j = 0; j + m <= d; j++) {
			if (j + m == d && c->qlz && m > 1)
				break;	/* would be the first digits */
			if ((v / proto_pow10[j]) % proto_pow10[m] == s &&
			    (!c->qlz || j + m < d || v == 0))
				return 1;
		}
		return 0;
	}
}

static int
evl_cmp(const struct evl_query *q, const char *x, const char *s, size_t m)
{
	return evl_eq(q, x, s, m);
}

static int
evl_cond_true(const struct evl_query *q, const struct evl_cond *c,
    const char *s, size_t n)
{
	const char	*x = q->q + c->qoff;
	size_t		 m = c->qlen, i;

	switch (c->op) {
	case EVL_C_EXACT:
		return n == m && evl_cmp(q, x, s, m);
	case EVL_C_PREFIX:
		return n >= m && evl_cmp(q, x, s, m);
	case EVL_C_SUFFIX:
		return n >= m && evl_cmp(q, x, s + n - m, m);
	default:
		if (!q->icase)
			return memmem(s, n, x, m) != NULL;
		for (i = 0; i + m <= n; i++) {
			if (evl_fold((unsigned char)s[i]) ==
			    (unsigned char)x[0] && evl_cmp(q, x, s + i, m))
				return 1;
		}
		return 0;
	}
}

/*
 * Does the stopped thread's reason hold condition c: 1 or 0, from c's
 * memo for its status, or -1 where the text has a number (a black hole's
 * owner) or the status is past the memo.
 */
static int
evl_str_memo(const struct evl_query *q, struct evl_cond *c,
    const struct proto_ev *ev)
{
	char		 buf[64];
	const char	*s;
	uint16_t	 st = ev->u.stop.status;
	uint8_t		*m;
	int		 info;

	if (st >= EVL_SMEMO)
		return -1;
	m = &c->smemo[st];
	if (*m == 0) {
		s = proto_stop_status(st, &info);
		*m = EVL_S_KNOWN | (info ? EVL_S_INFO : 0);
		if (evl_cond_true(q, c, buf, evl_str_plain(st, s, buf)))
			*m |= EVL_S_TRUE;
	}
	if ((*m & EVL_S_INFO) && ev->u.stop.has_info)
		return -1;
	return (*m & EVL_S_TRUE) != 0;
}

/* Could the event's line hold the query?  Never 0 when it does. */
int
evl_query_candidate(struct evl_query *q, const struct proto_ev *ev)
{
	const struct evl_plan	*pl;
	const struct evl_place	*pa;
	struct evl_cond		*c;
	int			 r;
	uint64_t		 v[EVL_NFIELD];
	char			 num[EVL_NFIELD][64];
	uint8_t			 nlen[EVL_NFIELD];
	uint32_t		 i, j, have = 0;
	if (ev->kind >= EVL_NKIND)
		return 1;
	pl = &q->plan[ev->kind][ev->cap != PROTO_NO_CAP];
	if (pl->always)
		return 1;
	if (pl->n == 0)
		return 0;
	evl_vals(ev, v);
	for (i = 0; i < pl->n; i++) {
		pa = &q->place[pl->first + i];
		for (j = 0; j < pa->n; j++) {
			c = &q->cond[pa->first + j];
			if (c->any)
				continue;	/* text: the line will tell */
			if (c->type == EVL_P_NUM && c->qlen <= 19) {
				if (!evl_num_true(c, v[c->field]))
					break;
				continue;
			}
			if (c->type == EVL_P_STR &&
			    (r = evl_str_memo(q, c, ev)) >= 0) {
				if (!r)
					break;
				continue;
			}
			if (!(have & (1u << c->field))) {
				nlen[c->field] = (uint8_t)(c->type ==
				    EVL_P_STR ? evl_str(ev, num[c->field]) :
				    evl_num(c->type, v[c->field],
				    num[c->field]));
				have |= 1u << c->field;
			}
			if (!evl_cond_true(q, c, num[c->field],
			    nlen[c->field]))
				break;
		}
		if (j == pa->n)
			return 1;
	}
	return 0;
}

/* Where the query is in a line of n bytes: 1 and *at, or 0. */
int
evl_text_find(const struct evl_query *q, const char *s, size_t n,
    size_t *at)
{
	const char	*p;
	size_t		 i;

	if (q->len == 0 || n < q->len)
		return 0;
	if (!q->icase) {
		if ((p = memmem(s, n, q->q, q->len)) == NULL)
			return 0;
		*at = (size_t)(p - s);
		return 1;
	}
	for (i = 0; i + q->len <= n; i++) {
		if (evl_fold((unsigned char)s[i]) == (unsigned char)q->q[0] &&
		    evl_eq(q, q->q, s + i, q->len)) {
			*at = i;
			return 1;
		}
	}
	return 0;
}

/*
 * Does the event's line hold the query?  The line's length (formatted into
 * buf, size bytes) and *at where, or -1; only candidates are formatted.
 */
long
evl_query_match(struct evl_query *q, const struct proto_ev *ev,
    const struct proto_dec *d, char *buf, size_t size, size_t *at)
{
	size_t	n;

	if (!evl_query_candidate(q, ev))
		return -1;
	n = proto_show_event(ev, d, buf, size);
	if (!evl_text_find(q, buf, n, at))
		return -1;
	return (long)n;
}

static int
evl_check_at(const struct proto_ev *ev, const struct evl_piece *pc, int k,
    int pi, const uint64_t *v, const char *s, size_t n, size_t pos)
{
	char	num[64];
	size_t	m, end;

	if (pi == k)
		return pos == n;
	switch (pc[pi].type) {
	case EVL_P_LIT:
		m = pc[pi].len;
		if (n - pos < m || memcmp(s + pos, pc[pi].lit, m) != 0)
			return 0;
		return evl_check_at(ev, pc, k, pi + 1, v, s, n, pos + m);
	case EVL_P_ANY:
		for (end = pos; end <= n; end++) {
			if (evl_check_at(ev, pc, k, pi + 1, v, s, n, end))
				return 1;
		}
		return 0;
	default:
		m = pc[pi].type == EVL_P_STR ? evl_str(ev, num) :
		    evl_num(pc[pi].type, v[pc[pi].field], num);
		if (n - pos < m || memcmp(s + pos, num, m) != 0)
			return 0;
		return evl_check_at(ev, pc, k, pi + 1, v, s, n, pos + m);
	}
}

/*
 * Does the event's template spell its line (n bytes of `evtop show`)?
 * 1 yes, 0 no, -1 its kind has none.  For the tests.
 */
int
evl_tmpl_check(const struct proto_ev *ev, const char *s, size_t n)
{
	struct evl_piece	pc[EVL_NPIECE];
	uint64_t		v[EVL_NFIELD];
	int			k;

	if ((k = evl_template(ev->kind, ev->cap != PROTO_NO_CAP, pc)) < 0)
		return -1;
	memset(v, 0, sizeof v);
	evl_vals(ev, v);
	return evl_check_at(ev, pc, k, 0, v, s, n, 0);
}
