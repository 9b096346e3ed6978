/*
 * bench-ui.c: how long a frame takes to render into lines (no terminal)
 * from a big model: 64 capabilities, 100 000 threads, 10 000 cost
 * centres, deep stacks, GCs, a heap profile and messages, all built
 * through model_apply() from synthetic events, and the timeline's summary
 * of them (64 caps over all its buckets).  The budget is 5 ms of CPU
 * a frame; it exits 1 when the median frame goes over.  --show prints the
 * overview frames it measures.
 */
#include <locale.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "uitest.h"

#define NCAPS		64
#define NTHREADS	100000
#define NCCS		10000
#define RUN_NS		3000000000ULL	/* 3 s of event time */
#define STEP_NS		1000000ULL	/* 1 ms */
#define BUDGET_MS	5.0

struct gen {
	struct model	*m;
	struct tl	*tl;
	uint64_t	 t;
	uint64_t	 rng;
	uint64_t	 events;
};

static uint32_t
gen_rand(struct gen *g)
{
	g->rng ^= g->rng << 13;
	g->rng ^= g->rng >> 7;
	g->rng ^= g->rng << 17;
	return (uint32_t)g->rng;
}

static void
gen_ev(struct gen *g, struct proto_ev *ev, uint16_t tag, int32_t cap)
{
	memset(ev, 0, sizeof *ev);
	ev->tag = ev->kind = tag;
	ev->cap = cap;
	ev->time = g->t;
	ev->size = 16;
}

static void
gen_apply(struct gen *g, struct proto_ev *ev)
{
	model_apply(g->m, ev);
	tl_event(g->tl, ev, 1);
	g->events++;
	g->t += 7;
}

static struct proto_str
gen_str(const char *s)
{
	struct proto_str	p;

	p.p = s;
	p.len = (uint32_t)strlen(s);
	return p;
}

static void
gen_model(struct gen *g)
{
	struct proto_ev	 ev;
	static char	 label[NCCS][24], module[NCCS][24], srcloc[NCCS][32];
	static char	 band[64][32], msg[128];
	uint8_t		 ids[4 * 8];
	uint32_t	 tid, cc, depth;
	uint64_t	 end, era = 0;
	int		 c, i, k, running[NCAPS];

	gen_ev(g, &ev, PROTO_RTS_IDENTIFIER, -1);
	ev.u.capset_str.s = gen_str("GHC-9.0.2 rts_thr_l");
	gen_apply(g, &ev);
	gen_ev(g, &ev, PROTO_PROGRAM_ARGS, -1);
	ev.u.capset_str.s = gen_str("./bench\0+RTS\0-N64\0-l");
	gen_apply(g, &ev);
	gen_ev(g, &ev, PROTO_OSPROCESS_PID, -1);
	ev.u.pid.pid = 4242;
	gen_apply(g, &ev);
	gen_ev(g, &ev, PROTO_PROF_BEGIN, -1);
	ev.u.prof_begin.interval = 1000000;
	gen_apply(g, &ev);
	gen_ev(g, &ev, PROTO_HEAP_PROF_BEGIN, -1);
	ev.u.heap_prof_begin.breakdown = 7;
	ev.u.heap_prof_begin.period = 100000000;
	gen_apply(g, &ev);
	for (c = 0; c < NCAPS; c++) {
		gen_ev(g, &ev, PROTO_CAP_CREATE, -1);
		ev.u.cap.cap = (uint16_t)c;
		gen_apply(g, &ev);
		running[c] = 0;
	}
	for (i = 0; i < NCCS; i++) {
		snprintf(label[i], sizeof label[i], "function%d", i);
		snprintf(module[i], sizeof module[i], "Data.Module%d", i % 97);
		snprintf(srcloc[i], sizeof srcloc[i], "src/M%d.hs:%d:1", i % 97,
		    i);
		gen_ev(g, &ev, PROTO_HEAP_PROF_COST_CENTRE, -1);
		ev.u.cost_centre.id = (uint32_t)i + 1;
		ev.u.cost_centre.label = gen_str(label[i]);
		ev.u.cost_centre.module = gen_str(module[i]);
		ev.u.cost_centre.srcloc = gen_str(srcloc[i]);
		gen_apply(g, &ev);
	}
	for (tid = 1; tid <= NTHREADS; tid++) {
		gen_ev(g, &ev, PROTO_CREATE_THREAD, (int32_t)(tid % NCAPS));
		ev.u.thread.thread = tid;
		gen_apply(g, &ev);
	}
	for (i = 0; i < 64; i++)
		snprintf(band[i], sizeof band[i], "THUNK_%d_closure", i);
	tid = 1;
	for (end = g->t + RUN_NS; g->t < end; ) {
		uint64_t step_end = g->t + STEP_NS;

		/* Each cap stops what it ran and runs the next thread. */
		for (c = 0; c < NCAPS; c++) {
			if (running[c] != 0) {
				gen_ev(g, &ev, PROTO_STOP_THREAD, c);
				ev.u.stop.thread = (uint32_t)running[c];
				ev.u.stop.status = (gen_rand(g) & 1) ? 7 : 3;
				gen_apply(g, &ev);
			}
			gen_ev(g, &ev, PROTO_RUN_THREAD, c);
			ev.u.thread.thread = tid;
			running[c] = (int)tid;
			gen_apply(g, &ev);
			tid = tid % NTHREADS + 1;
		}
		/* Profiling ticks in random cost centres, each with its
		 * callers up a fixed call tree (cost centre i is called by
		 * i / 8): a real program's stacks, one per cost centre. */
		for (k = 0; k < 12; k++) {
			cc = 1 + gen_rand(g) % NCCS;
			for (depth = 0; cc != 0 && depth < 8; depth++) {
				ids[4 * depth] = (uint8_t)(cc >> 24);
				ids[4 * depth + 1] = (uint8_t)(cc >> 16);
				ids[4 * depth + 2] = (uint8_t)(cc >> 8);
				ids[4 * depth + 3] = (uint8_t)cc;
				cc /= 8;
			}
			gen_ev(g, &ev, PROTO_PROF_SAMPLE_COST_CENTRE, -1);
			ev.u.prof_sample.cap = (uint32_t)(k % NCAPS);
			ev.u.prof_sample.ticks = 1;
			ev.u.prof_sample.ccs.ids = ids;
			ev.u.prof_sample.ccs.depth = depth;
			gen_apply(g, &ev);
		}
		/* A collection every 50 ms. */
		if ((g->t / STEP_NS) % 50 == 0) {
			for (c = 0; c < NCAPS; c++) {
				gen_ev(g, &ev, PROTO_GC_START, c);
				gen_apply(g, &ev);
			}
			g->t += 200000 + gen_rand(g) % 2000000;
			gen_ev(g, &ev, PROTO_GC_STATS_GHC, -1);
			ev.u.gc_stats.gen = (uint16_t)(gen_rand(g) % 2);
			ev.u.gc_stats.copied = 1000000 + gen_rand(g) % 1000000;
			ev.u.gc_stats.par_n_threads = NCAPS;
			ev.u.gc_stats.par_max_copied = 100000;
			ev.u.gc_stats.par_tot_copied = 1000000;
			ev.u.gc_stats.par_balanced_copied = 800000;
			ev.u.gc_stats.has_balanced = 1;
			gen_apply(g, &ev);
			for (c = 0; c < NCAPS; c++) {
				gen_ev(g, &ev, PROTO_GC_END, c);
				gen_apply(g, &ev);
			}
			gen_ev(g, &ev, PROTO_HEAP_SIZE, -1);
			ev.u.heap.bytes = 500000000 + gen_rand(g) % 100000000;
			gen_apply(g, &ev);
			gen_ev(g, &ev, PROTO_HEAP_LIVE, -1);
			ev.u.heap.bytes = 200000000 + gen_rand(g) % 100000000;
			gen_apply(g, &ev);
			gen_ev(g, &ev, PROTO_HEAP_ALLOCATED, -1);
			ev.u.heap.bytes = g->t * 3;
			gen_apply(g, &ev);
		}
		/* A census every 200 ms. */
		if ((g->t / STEP_NS) % 200 == 1) {
			gen_ev(g, &ev, PROTO_HEAP_PROF_SAMPLE_BEGIN, -1);
			ev.u.sample.era = ++era;
			gen_apply(g, &ev);
			for (i = 0; i < 64; i++) {
				gen_ev(g, &ev, PROTO_HEAP_PROF_SAMPLE_STRING, -1);
				ev.u.heap_sample_str.residency = 1000 *
				    (uint64_t)(i + 1) + gen_rand(g) % 100000;
				ev.u.heap_sample_str.label = gen_str(band[i]);
				gen_apply(g, &ev);
			}
			gen_ev(g, &ev, PROTO_HEAP_PROF_SAMPLE_END, -1);
			ev.u.sample.era = era;
			gen_apply(g, &ev);
		}
		if ((g->t / STEP_NS) % 100 == 2) {
			snprintf(msg, sizeof msg, "iteration %llu done",
			    (unsigned long long)(g->t / STEP_NS));
			gen_ev(g, &ev, PROTO_USER_MSG, 0);
			ev.u.msg = gen_str(msg);
			gen_apply(g, &ev);
		}
		if (g->t < step_end)
			g->t = step_end;
	}
	model_flush(g->m);
}

/*
 * The time this thread has run, not the wall clock: make bench may share
 * the machine with other work, and a frame's cost is what it computes.
 */
static double
now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static int
cmp_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

#define NFRAMES	40

/* Render NFRAMES frames at w x h; the median and the worst, in ms. */
static void
bench_frames(struct view *v, const struct model *m,
    const struct evtop_status *st, int w, int h, double *median,
    double *worst)
{
	struct lines	s;
	double		t[NFRAMES], t0;
	int		i;

	lines_init(&s, w, h);
	for (i = 0; i < NFRAMES; i++) {
		t0 = now_ms();
		lines_reset(&s, w, h);
		view_render(v, m, st, &s);
		t[i] = now_ms() - t0;
	}
	lines_free(&s);
	qsort(t, NFRAMES, sizeof t[0], cmp_double);
	*median = t[NFRAMES / 2];
	*worst = t[NFRAMES - 1];
}

int
main(int argc, char **argv)
{
	struct gen		 g;
	struct view		*v;
	struct evtop_status	 st;
	struct keys_key		 k;
	struct evtop_cmd	 cmd;
	double			 t0, med, worst, maxmed = 0;
	int			 i, fail = 0;
	static const int	 sizes[][2] = { { 80, 24 }, { 200, 60 } };
	static const char *const names[] = { "overview", "1 caps", "2 GC",
	    "3 heap", "4 nonmoving", "5 cost centres", "6 threads",
	    "7 messages", "8 timeline", "9 raw events" };
	_Static_assert(sizeof names / sizeof names[0] == VIEW_NPANES + 1,
	    "a name for the overview and each pane");
	int			 sz, z;

	/* Unicode glyphs, as in a UTF-8 terminal (wcwidth costs too). */
	if (setlocale(LC_CTYPE, "C.UTF-8") == NULL)
		setlocale(LC_CTYPE, "");
	memset(&g, 0, sizeof g);
	g.rng = 88172645463325252ULL;
	if ((g.m = model_new()) == NULL || (g.tl = tl_new()) == NULL)
		return 1;
	model_set_reorder(g.m, 0, 0);
	t0 = now_ms();
	gen_model(&g);
	printf("bench-ui: model of %d caps, %llu threads in the table, %llu "
	    "cost centres, %llu stacks from %llu events in %.0f ms\n",
	    g.m->prog.ncaps, (unsigned long long)g.m->threads.table,
	    (unsigned long long)g.m->prof.ccs,
	    (unsigned long long)g.m->prof.stacks,
	    (unsigned long long)g.events, now_ms() - t0);
	uitest_status(&st, "synthetic", EVTOP_SRC_UNIX);
	st.timeline = g.tl;
	printf("bench-ui: timeline summary of %d caps, %zu buckets of %llu "
	    "ns\n", tl_ncaps(g.tl), tl_nbuckets(g.tl),
	    (unsigned long long)tl_width(g.tl));
	if (argc > 1 && strcmp(argv[1], "--show") == 0) {
		/* The frames being measured, to look at. */
		v = view_new(EVTOP_SRC_UNIX);
		fputs(uitest_frame(v, g.m, &st, 80, 24, 0), stdout);
		fputs(uitest_frame(v, g.m, &st, 200, 60, 0), stdout);
		view_free(v);
	}
	for (sz = 0; sz < 2; sz++) {
		for (z = 0; z <= VIEW_NPANES; z++) {
			if ((v = view_new(EVTOP_SRC_UNIX)) == NULL)
				return 1;
			if (z > 0) {
				k = uitest_key(KEYS_CHAR, '0' + z);
				view_key(v, &k, &cmd);
			}
			/* The threads pane is the heavy one: focus it. */
			for (i = 0; i < VIEW_NPANES; i++)
				view_pane(v, i)->focus = i == 5;
			bench_frames(v, g.m, &st, sizes[sz][0], sizes[sz][1],
			    &med, &worst);
			printf("bench-ui: %3dx%-3d %-15s median %6.3f ms  worst "
			    "%6.3f ms\n", sizes[sz][0], sizes[sz][1], names[z],
			    med, worst);
			if (med > maxmed)
				maxmed = med;
			if (med > BUDGET_MS)
				fail = 1;
			view_free(v);
		}
	}
	/* What the model's queries cost by themselves, for the record. */
	{
		static struct model_thread_row	 tr[64];
		static struct model_cc_row	 cr[64];
		static struct model_stack_row	 sr[512];
		double				 t[NFRAMES];
		int				 q, j;

		for (q = 0; q < 3; q++) {
			for (j = 0; j < NFRAMES; j++) {
				t0 = now_ms();
				if (q == 0)
					model_threads_sorted(g.m, MODEL_W1,
					    MODEL_TSORT_CPU, tr, 60, NULL);
				else if (q == 1)
					model_top_ccs(g.m, MODEL_W10, 0, cr,
					    60, NULL);
				else
					model_top_stacks(g.m, MODEL_WRUN, sr,
					    512);
				t[j] = now_ms() - t0;
			}
			qsort(t, NFRAMES, sizeof t[0], cmp_double);
			printf("bench-ui: model query %-26s median %6.3f ms\n",
			    q == 0 ? "threads_sorted(1s, 60)" : q == 1 ?
			    "top_ccs(10s, 60)" : "top_stacks(run, 512)",
			    t[NFRAMES / 2]);
		}
	}
	/* Not the budget's frame, for the record: a filter tries every row
	 * of a table, a reversed order by CPU meets ties all the way, and
	 * the end of the table is a screenful from the other end. */
	for (z = 0; z < 3; z++) {
		struct pane	*p;
		const char	*filter = z == 0 ? "function12" : "";

		v = view_new(EVTOP_SRC_UNIX);
		k = uitest_key(KEYS_CHAR, z == 0 ? '5' : '6');
		view_key(v, &k, &cmd);
		p = view_pane(v, z == 0 ? 4 : 5);
		snprintf(p->filter, sizeof p->filter, "%s", filter);
		p->reverse = z == 1;
		if (z == 2)
			p->sel = NTHREADS;	/* End */
		bench_frames(v, g.m, &st, 200, 60, &med, &worst);
		printf("bench-ui: 200x60  %-15s median %6.3f ms  worst %6.3f ms "
		    "(not budgeted)\n", z == 0 ? "5 ccs /filter" : z == 1 ?
		    "6 threads rev" : "6 threads End", med, worst);
		view_free(v);
	}
	printf("bench-ui: slowest median frame %.3f ms (budget %.1f ms): %s\n",
	    maxmed, BUDGET_MS, fail ? "OVER BUDGET" : "ok");
	model_free(g.m);
	tl_free(g.tl);
	return fail;
}
