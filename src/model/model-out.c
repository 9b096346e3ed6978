/*
 * model-out.c: the model as one line of JSON, or as text like `top -b`.
 * The JSON is built without printf (outbuf.c: numbers by hand, doubles
 * byte for byte as "%.Nf" prints them) and written with one fwrite; the
 * text, off the replay's hot path, uses stdio.
 *
 * The JSON object (times in ns, sizes in bytes, shares 0..1; "1s", "10s"
 * and "run" are MODEL_W1, MODEL_W10 and MODEL_WRUN):
 *   time_ns start_ns elapsed_ns
 *   program	rts ghc args pid ppid wall_clock_ns (of the first event)
 *		sessions resets caps caps_* heap_info prof_tick_ns heap_prof
 *		heap_prof_opts{breakdown automatic} (the -hX RTS option seen
 *		in the arguments, else null)
 *   events	{GHC tag name: count}, block markers excluded; events_total
 *		bytes_total blocks unknown unknown_tags errors last_error late
 *		headers reorder{held held_bytes forced oversize}
 *   rates	{1s,10s,run: window_ns events_per_s bytes_per_s}
 *   caps	[{cap enabled state thread events run_ns gc_ns idle_ns
 *		util{1s,10s,run} gc_share{...} sparks{...}}]
 *   threads	created finished live running runnable blocked migrations
 *		wakeups runs cpu_ns table evicted dropped blocked_by{status:
 *		{reason threads}} top[{id label state cpu_ns share}] (run)
 *   gc		collections pause_total_ns pause_max_ns pause_p50/p90/p99_ns
 *		percentiles_exact sync_total_ns sync_max_ns copied_bytes gc_ns
 *		window_ns productivity balance by_gen[] no_gen requests
 *		global_syncs in_gc dropped mmu{10ms,100ms,1s} mmu_exact
 *		hist[] last_1s{...} last_10s{...} (the same figures per
 *		window, exact at any rate; percentiles_exact false: each is
 *		the middle of its 1/16 octave bucket, within 1/32 of it)
 *   heap	size live blocks size_max live_max allocated alloc_rate{...}
 *		mem_return{...} censuses census_samples bands bands_evicted
 *		last_census top_bands[{band bytes delta share ipe}] (ipe: a
 *		-hi band's {table_name closure type label module srcloc},
 *		else absent) ipe{events entries evicted}
 *   nonmoving	censuses census_events live_bytes segment_bytes sizes[{blk_size
 *		active filled current live capacity occupancy}] (segments but
 *		live and capacity, in blocks; current: one per capability)
 *		marks mark_ns marked syncs sync_ns sync_max_ns sweeps sweep_ns
 *		flushes pruned_events pruned_total
 *   prof	samples empty tick_ns ccs stacks ccs_evicted stacks_evicted
 *		cc_defs top_self[{id cost_centre module samples time_ns
 *		share}] top_total[...] (run; cost_centre null if undefined)
 *   sparks	created converted fizzled gcd dud overflowed rate_1s rate_10s
 *   messages	user markers log binary recent[{time_ns cap kind text}]
 */
#include <stdlib.h>
#include <string.h>

#include "model/model-priv.h"

#define TOP_N		10
#ifndef JSON_BUF
#define JSON_BUF	32768	/* a line's bytes written at once (>= OUTBUF_MIN) */
#endif
#define JSON_NTAGS	256	/* tags sorted on the stack (more: calloc) */

static const char *const win_names[MODEL_NWIN] = { "1s", "10s", "run" };

/* The spark counters' keys, each with the separator before it. */
static const struct {
	const char		*key;
	enum model_series	 s;
} spark_keys[] = {
	{ "\"created\":", MODEL_S_SPARKS_CREATED },
	{ ",\"converted\":", MODEL_S_SPARKS_CONVERTED },
	{ ",\"fizzled\":", MODEL_S_SPARKS_FIZZLED },
	{ ",\"gcd\":", MODEL_S_SPARKS_GCD },
	{ ",\"dud\":", MODEL_S_SPARKS_DUD },
	{ ",\"overflowed\":", MODEL_S_SPARKS_OVERFLOWED },
};
#define NSPARK_KEYS	(sizeof spark_keys / sizeof spark_keys[0])

/*
 * The JSON pieces.  A key argument is the text before the value as it
 * appears in the line: separator, quoted name and colon (",\"pid\":").
 */
static void
js_u(struct outbuf *ob, const char *key, uint64_t v)
{
	outbuf_str(ob, key);
	outbuf_u64(ob, v);
}

static void
js_i(struct outbuf *ob, const char *key, int64_t v)
{
	outbuf_str(ob, key);
	outbuf_i64(ob, v);
}

static void
js_bool(struct outbuf *ob, const char *key, int v)
{
	outbuf_str(ob, key);
	outbuf_str(ob, v ? "true" : "false");
}

static void
js_str(struct outbuf *ob, const char *s)
{
	outbuf_json(ob, s);
}

/* A share or ratio: 4 decimals, null if not a number. */
static void
js_dbl(struct outbuf *ob, double v)
{
	if (v != v)
		outbuf_str(ob, "null");
	else
		outbuf_fixed(ob, v, 4);
}

/* The same, null also when negative (not known). */
static void
js_dbl_known(struct outbuf *ob, double v)
{
	if (v < 0)
		outbuf_str(ob, "null");
	else
		js_dbl(ob, v);
}

/* "name": before a window's value, with a comma after the first. */
static void
js_win(struct outbuf *ob, int w)
{
	if (w > 0)
		outbuf_char(ob, ',');
	outbuf_char(ob, '"');
	outbuf_str(ob, win_names[w]);
	outbuf_str(ob, "\":");
}

static const char *
state_name(uint8_t st)
{
	switch (st) {
	case MODEL_T_RUNNING:	return "running";
	case MODEL_T_RUNNABLE:	return "runnable";
	case MODEL_T_BLOCKED:	return "blocked";
	default:		return "finished";
	}
}

static const char *
cap_state_name(enum model_cap_state st)
{
	switch (st) {
	case MODEL_CAP_RUN:	return "running";
	case MODEL_CAP_GC:	return "gc";
	default:		return "idle";
	}
}

static const char *
msg_kind_name(uint8_t k)
{
	switch (k) {
	case MODEL_MSG_USER:	return "user";
	case MODEL_MSG_MARKER:	return "marker";
	case MODEL_MSG_LOG:	return "log";
	default:		return "binary";
	}
}

struct tagcount {
	char		 name[32];
	uint64_t	 n;
};

static int
cmp_tagcount(const void *a, const void *b)
{
	return strcmp(((const struct tagcount *)a)->name,
	    ((const struct tagcount *)b)->name);
}


static void
json_events(const struct model *m, struct outbuf *ob)
{
	const struct model_priv	*p = m->p;
	struct tagcount		 small[JSON_NTAGS], *v = small;
	char			 buf[32];
	const char		*name;
	size_t			 n = 0, i, len;
	uint16_t		 tag;

	if (p->ntags_seen > JSON_NTAGS &&
	    (v = calloc(p->ntags_seen, sizeof *v)) == NULL) {
		outbuf_str(ob, "\"events\":{}");
		return;
	}
	for (i = 0; i < p->ntags_seen; i++) {
		tag = p->tags_seen[i];
		if (tag == PROTO_BLOCK_MARKER)
			continue;
		name = model_tag_name(tag, buf, sizeof buf);
		len = strnlen(name, sizeof v[n].name - 1);
		memcpy(v[n].name, name, len);
		v[n].name[len] = '\0';
		v[n].n = m->tag_count[tag];
		if (m->range.on && (v[n].n -= m->range.tags[tag]) == 0)
			continue;	/* none in the range */
		n++;
	}
	qsort(v, n, sizeof *v, cmp_tagcount);
	outbuf_str(ob, "\"events\":{");
	for (i = 0; i < n; i++) {
		outbuf_str(ob, i ? ",\"" : "\"");
		outbuf_str(ob, v[i].name);
		js_u(ob, "\":", v[i].n);
	}
	outbuf_char(ob, '}');
	if (v != small)
		free(v);
}

static void
json_program(const struct model *m, struct outbuf *ob)
{
	const struct model_prog	*g = &m->prog;
	const char		*bd;

	outbuf_str(ob, "\"program\":{\"rts\":");
	js_str(ob, g->rts_id);
	if (g->ghc[0] != '\0') {
		outbuf_str(ob, ",\"ghc\":");
		js_str(ob, g->ghc);
	} else
		outbuf_str(ob, ",\"ghc\":null");
	outbuf_str(ob, ",\"args\":");
	js_str(ob, g->args);
	if (g->has_pid)
		js_u(ob, ",\"pid\":", g->pid);
	else
		outbuf_str(ob, ",\"pid\":null");
	if (g->has_ppid)
		js_u(ob, ",\"ppid\":", g->ppid);
	else
		outbuf_str(ob, ",\"ppid\":null");
	if (g->has_wall)
		js_u(ob, ",\"wall_clock_ns\":", g->wall_ns - g->wall_at +
		    g->start);
	else
		outbuf_str(ob, ",\"wall_clock_ns\":null");
	js_u(ob, ",\"sessions\":", g->sessions);
	js_u(ob, ",\"resets\":", g->resets);
	js_i(ob, ",\"caps\":", g->ncaps);
	js_u(ob, ",\"caps_created\":", g->caps_created);
	js_u(ob, ",\"caps_deleted\":", g->caps_deleted);
	js_u(ob, ",\"caps_enabled\":", g->caps_enabled);
	js_u(ob, ",\"caps_disabled\":", g->caps_disabled);
	js_u(ob, ",\"caps_over\":", g->caps_over);
	if (g->has_heap_info) {
		js_u(ob, ",\"heap_info\":{\"gens\":", g->gens);
		js_u(ob, ",\"max_heap\":", g->max_heap);
		js_u(ob, ",\"alloc_area\":", g->alloc_area);
		js_u(ob, ",\"mblock\":", g->mblock);
		js_u(ob, ",\"block\":", g->block);
		outbuf_char(ob, '}');
	} else
		outbuf_str(ob, ",\"heap_info\":null");
	if (g->prof)
		js_u(ob, ",\"prof_tick_ns\":", g->tick_ns);
	else
		outbuf_str(ob, ",\"prof_tick_ns\":null");
	if (g->heap_prof) {
		bd = proto_breakdown_name(g->breakdown);
		outbuf_str(ob, ",\"heap_prof\":{\"breakdown\":");
		js_str(ob, bd != NULL ? bd : "unknown");
		js_u(ob, ",\"interval_ns\":", g->hp_interval);
		outbuf_str(ob, ",\"filters\":");
		js_str(ob, g->hp_filters);
		outbuf_char(ob, '}');
	} else
		outbuf_str(ob, ",\"heap_prof\":null");
	if (g->hp_opt_breakdown != 0) {
		bd = proto_breakdown_name(g->hp_opt_breakdown);
		outbuf_str(ob, ",\"heap_prof_opts\":{\"breakdown\":");
		js_str(ob, bd != NULL ? bd : "unknown");
		js_bool(ob, ",\"automatic\":", !g->hp_opt_manual);
		outbuf_char(ob, '}');
	} else
		outbuf_str(ob, ",\"heap_prof_opts\":null");
	outbuf_char(ob, '}');
}

static void
json_caps(const struct model *m, struct outbuf *ob)
{
	const struct model_cap	*c;
	struct model_util	 u[MODEL_NWIN];
	size_t			 k;
	int			 i, w, first = 1;

	outbuf_str(ob, "\"caps\":[");
	for (i = 0; i < m->prog.ncaps; i++) {
		if ((c = m->caps[i]) == NULL)
			continue;
		js_i(ob, first ? "{\"cap\":" : ",{\"cap\":", c->id);
		first = 0;
		js_bool(ob, ",\"enabled\":", c->enabled);
		outbuf_str(ob, ",\"state\":\"");
		outbuf_str(ob, cap_state_name(c->state));
		outbuf_char(ob, '"');
		if (c->state == MODEL_CAP_RUN)
			js_u(ob, ",\"thread\":", c->thread);
		else
			outbuf_str(ob, ",\"thread\":null");
		js_u(ob, ",\"events\":", c->events);
		for (w = 0; w < MODEL_NWIN; w++)
			model_cap_util(m, c, (enum model_win)w, &u[w]);
		js_u(ob, ",\"run_ns\":", u[MODEL_WRUN].run_ns);
		js_u(ob, ",\"gc_ns\":", u[MODEL_WRUN].gc_ns);
		js_u(ob, ",\"idle_ns\":", u[MODEL_WRUN].idle_ns);
		outbuf_str(ob, ",\"util\":{");
		for (w = 0; w < MODEL_NWIN; w++) {
			js_win(ob, w);
			js_dbl(ob, u[w].run);
		}
		outbuf_str(ob, "},\"gc_share\":{");
		for (w = 0; w < MODEL_NWIN; w++) {
			js_win(ob, w);
			js_dbl(ob, u[w].gc);
		}
		outbuf_str(ob, "},\"sparks\":{");
		for (k = 0; k < NSPARK_KEYS; k++)
			js_u(ob, spark_keys[k].key, model_cap_sparks(m, c,
			    spark_keys[k].s, MODEL_WRUN));
		js_u(ob, ",\"remaining\":", c->sparks.rem);
		js_u(ob, ",\"stolen\":", c->sparks.ev_steal);
		outbuf_str(ob, "}}");
	}
	outbuf_char(ob, ']');
}

static void
json_threads(const struct model *m, struct outbuf *ob)
{
	const struct model_threads *t = &m->threads;
	struct model_thread_row	 rows[TOP_N];
	int			 n, i, first = 1, w;
	const char		*txt;

	js_u(ob, "\"threads\":{\"created\":", MODEL_SINCE(m, t->created, created));
	js_u(ob, ",\"finished\":", MODEL_SINCE(m, t->finished, finished));
	js_u(ob, ",\"live\":", t->live);
	js_u(ob, ",\"running\":", t->by_state[MODEL_T_RUNNING]);
	js_u(ob, ",\"runnable\":", t->by_state[MODEL_T_RUNNABLE]);
	js_u(ob, ",\"blocked\":", t->by_state[MODEL_T_BLOCKED]);
	js_u(ob, ",\"migrations\":",
	    MODEL_SINCE(m, t->migrations, migrations));
	js_u(ob, ",\"wakeups\":", MODEL_SINCE(m, t->wakeups, wakeups));
	js_u(ob, ",\"runs\":", MODEL_SINCE(m, t->runs, runs));
	js_u(ob, ",\"cpu_ns\":", MODEL_SINCE(m, t->cpu_ns, cpu_ns));
	js_u(ob, ",\"table\":", t->table);
	js_u(ob, ",\"evicted\":", t->evicted);
	js_u(ob, ",\"dropped\":", t->dropped);
	outbuf_str(ob, ",\"blocked_by\":{");
	for (i = 0; i < MODEL_NREASONS; i++) {
		if (t->blocked_by[i] == 0)
			continue;
		txt = proto_stop_status((uint16_t)i, &w);
		/* A text made to go on with the owner or the size: a count
		 * of threads has neither. */
		if (w)
			txt = i == 8 ? "blocked on a black hole" :
			    "stack overflow";
		js_i(ob, first ? "\"" : ",\"", i);
		outbuf_str(ob, "\":{\"reason\":");
		js_str(ob, txt);
		js_u(ob, ",\"threads\":", t->blocked_by[i]);
		outbuf_char(ob, '}');
		first = 0;
	}
	outbuf_str(ob, "},\"top\":[");
	n = model_threads_sorted(m, MODEL_WRUN, MODEL_TSORT_CPU, rows, TOP_N,
	    NULL);
	for (i = 0; i < n; i++) {
		js_u(ob, i ? ",{\"id\":" : "{\"id\":", rows[i].t->id);
		outbuf_str(ob, ",\"label\":");
		js_str(ob, rows[i].t->label);
		outbuf_str(ob, ",\"state\":\"");
		outbuf_str(ob, state_name(rows[i].t->state));
		js_u(ob, "\",\"cpu_ns\":", rows[i].cpu_ns);
		outbuf_str(ob, ",\"share\":");
		js_dbl(ob, rows[i].share);
		outbuf_char(ob, '}');
	}
	outbuf_str(ob, "]}");
}

static void
json_gc_win(struct outbuf *ob, const struct model_gc_win *g)
{
	int	i;

	js_u(ob, "\"collections\":", g->count);
	js_u(ob, ",\"pause_total_ns\":", g->pause_total);
	js_u(ob, ",\"pause_max_ns\":", g->pause_max);
	js_u(ob, ",\"pause_p50_ns\":", g->p50);
	js_u(ob, ",\"pause_p90_ns\":", g->p90);
	js_u(ob, ",\"pause_p99_ns\":", g->p99);
	js_bool(ob, ",\"percentiles_exact\":", g->exact);
	js_u(ob, ",\"sync_total_ns\":", g->sync_total);
	js_u(ob, ",\"sync_max_ns\":", g->sync_max);
	js_u(ob, ",\"copied_bytes\":", g->copied);
	js_u(ob, ",\"gc_ns\":", g->gc_ns);
	js_u(ob, ",\"window_ns\":", g->dur_ns);
	outbuf_str(ob, ",\"productivity\":");
	js_dbl(ob, g->productivity);
	outbuf_str(ob, ",\"balance\":");
	js_dbl_known(ob, g->balance);
	outbuf_str(ob, ",\"by_gen\":[");
	for (i = 0; i < MODEL_NGEN; i++)
		js_u(ob, i ? "," : "", g->count_gen[i]);
	js_u(ob, "],\"no_gen\":", g->count_nogen);
}

static void
json_gc(const struct model *m, struct outbuf *ob)
{
	struct model_gc_win	 g;
	static const char *const mmu_keys[MODEL_NMMU] = {
		"\"10ms\":", ",\"100ms\":", ",\"1s\":"
	};
	int			 i, last;

	model_gc_window(m, MODEL_WRUN, &g);
	outbuf_str(ob, "\"gc\":{");
	json_gc_win(ob, &g);
	js_u(ob, ",\"requests\":", MODEL_SINCE(m, m->gc.requests, requests));
	js_u(ob, ",\"global_syncs\":", MODEL_SINCE(m, m->gc.syncs, syncs));
	js_bool(ob, ",\"in_gc\":", m->gc.in_gc);
	js_u(ob, ",\"dropped\":", m->gc.dropped);
	outbuf_str(ob, ",\"mmu\":{");
	for (i = 0; i < MODEL_NMMU; i++) {
		outbuf_str(ob, mmu_keys[i]);
		js_dbl_known(ob, g.mmu[i]);
	}
	/* The histogram up to its last non-empty bucket. */
	for (last = MODEL_NHIST - 1; last > 0 && g.hist[last] == 0; last--)
		;
	js_bool(ob, "},\"mmu_exact\":", g.mmu_exact);
	outbuf_str(ob, ",\"hist\":[");
	for (i = 0; i <= last; i++)
		js_u(ob, i ? "," : "", g.hist[i]);
	outbuf_str(ob, "],\"last_1s\":{");
	model_gc_window(m, MODEL_W1, &g);
	json_gc_win(ob, &g);
	outbuf_str(ob, "},\"last_10s\":{");
	model_gc_window(m, MODEL_W10, &g);
	json_gc_win(ob, &g);
	outbuf_str(ob, "}}");
}

static void
json_ipe(struct outbuf *ob, const struct model_ipe *e)
{
	const struct { const char *key, *v; } f[] = {
		{ ",\"ipe\":{\"table_name\":", e ? e->table_name : NULL },
		{ ",\"closure\":", e ? e->closure : NULL },
		{ ",\"type\":", e ? e->type : NULL },
		{ ",\"label\":", e ? e->label : NULL },
		{ ",\"module\":", e ? e->module : NULL },
		{ ",\"srcloc\":", e ? e->srcloc : NULL },
	};
	size_t	i;

	if (e == NULL)
		return;
	for (i = 0; i < sizeof f / sizeof f[0]; i++) {
		outbuf_str(ob, f[i].key);
		js_str(ob, f[i].v);
	}
	outbuf_char(ob, '}');
}

static void
json_heap(const struct model *m, struct outbuf *ob)
{
	const struct model_heap	*h = &m->heap;
	struct model_band_row	 rows[TOP_N];
	const struct model_census *c;
	int			 n, i, w;

	js_u(ob, "\"heap\":{\"size\":", h->size);
	js_u(ob, ",\"live\":", h->live);
	js_u(ob, ",\"blocks\":", h->blocks);
	js_u(ob, ",\"size_max\":", h->size_max);
	js_u(ob, ",\"live_max\":", h->live_max);
	js_u(ob, ",\"allocated\":", h->allocated);
	outbuf_str(ob, ",\"alloc_rate\":{");
	for (w = 0; w < MODEL_NWIN; w++) {
		js_win(ob, w);
		outbuf_fixed(ob, model_rate(m, MODEL_S_ALLOC,
		    (enum model_win)w), 0);
	}
	js_u(ob, "},\"mem_return\":{\"events\":", h->mr_events);
	js_u(ob, ",\"current\":", h->mr_current);
	js_u(ob, ",\"needed\":", h->mr_needed);
	js_u(ob, ",\"returned\":", h->mr_returned);
	js_u(ob, ",\"returned_total\":", h->mr_returned_total);
	js_u(ob, "},\"censuses\":", MODEL_SINCE(m, m->hprof.censuses, censuses));
	js_u(ob, ",\"census_samples\":", m->hprof.samples);
	js_u(ob, ",\"bands\":", m->hprof.bands);
	js_u(ob, ",\"bands_evicted\":", m->hprof.bands_evicted);
	if ((c = model_census_recent(m, 0)) != NULL) {
		js_u(ob, ",\"last_census\":{\"time_ns\":", c->start);
		js_u(ob, ",\"era\":", c->era);
		js_u(ob, ",\"total\":", c->total);
		js_u(ob, ",\"samples\":", c->samples);
		outbuf_char(ob, '}');
	} else
		outbuf_str(ob, ",\"last_census\":null");
	outbuf_str(ob, ",\"top_bands\":[");
	n = model_top_bands(m, rows, TOP_N);
	for (i = 0; i < n; i++) {
		outbuf_str(ob, i ? ",{\"band\":" : "{\"band\":");
		js_str(ob, rows[i].band->name);
		js_u(ob, ",\"bytes\":", rows[i].bytes);
		js_i(ob, ",\"delta\":", rows[i].delta);
		outbuf_str(ob, ",\"share\":");
		js_dbl(ob, rows[i].share);
		json_ipe(ob, model_band_ipe(m, rows[i].band));
		outbuf_char(ob, '}');
	}
	js_u(ob, "],\"ipe\":{\"events\":", m->ipe.events);
	js_u(ob, ",\"entries\":", m->ipe.entries);
	js_u(ob, ",\"evicted\":", m->ipe.evicted);
	outbuf_str(ob, "}}");
}

static void
json_nonmoving(const struct model *m, struct outbuf *ob)
{
	const struct model_nonmoving *nm = &m->nm;
	int			 i;

	js_u(ob, "\"nonmoving\":{\"censuses\":",
	    MODEL_SINCE(m, nm->censuses, nm_censuses));
	js_u(ob, ",\"census_events\":",
	    MODEL_SINCE(m, nm->census_events, nm_census_events));
	js_u(ob, ",\"live_bytes\":", nm->live_bytes);
	js_u(ob, ",\"segment_bytes\":", nm->seg_bytes);
	outbuf_str(ob, ",\"sizes\":[");
	for (i = 0; i < nm->nsizes; i++) {
		js_u(ob, i ? ",{\"blk_size\":" : "{\"blk_size\":",
		    nm->sizes[i].blk_size);
		js_u(ob, ",\"active\":", nm->sizes[i].active);
		js_u(ob, ",\"filled\":", nm->sizes[i].filled);
		js_u(ob, ",\"current\":", nm->sizes[i].current);
		js_u(ob, ",\"live\":", nm->sizes[i].live);
		js_u(ob, ",\"capacity\":", nm->sizes[i].capacity);
		outbuf_str(ob, ",\"occupancy\":");
		js_dbl(ob, nm->sizes[i].occupancy);
		outbuf_char(ob, '}');
	}
	js_u(ob, "],\"marks\":", nm->marks);
	js_u(ob, ",\"mark_ns\":", nm->mark_ns);
	js_u(ob, ",\"marked\":", nm->marked);
	js_u(ob, ",\"syncs\":", nm->syncs);
	js_u(ob, ",\"sync_ns\":", nm->sync_ns);
	js_u(ob, ",\"sync_max_ns\":", nm->sync_max_ns);
	js_u(ob, ",\"sweeps\":", nm->sweeps);
	js_u(ob, ",\"sweep_ns\":", nm->sweep_ns);
	js_u(ob, ",\"flushes\":", nm->flushes);
	js_u(ob, ",\"pruned_events\":", nm->pruned_events);
	js_u(ob, ",\"pruned_total\":", nm->pruned_total);
	outbuf_char(ob, '}');
}

static void
json_ccs(const struct model *m, struct outbuf *ob, int by_total)
{
	struct model_cc_row	rows[TOP_N];
	uint64_t		n;
	int			k, i;

	k = model_top_ccs(m, MODEL_WRUN, by_total, rows, TOP_N, NULL);
	for (i = 0; i < k; i++) {
		js_u(ob, i ? ",{\"id\":" : "{\"id\":", rows[i].cc->id);
		outbuf_str(ob, ",\"cost_centre\":");
		if (rows[i].cc->defined)
			js_str(ob, rows[i].cc->label);
		else
			outbuf_str(ob, "null");
		outbuf_str(ob, ",\"module\":");
		if (rows[i].cc->defined)
			js_str(ob, rows[i].cc->module);
		else
			outbuf_str(ob, "null");
		n = by_total ? rows[i].total : rows[i].self;
		js_u(ob, ",\"samples\":", n);
		js_u(ob, ",\"time_ns\":", n * m->prog.tick_ns);
		outbuf_str(ob, ",\"share\":");
		js_dbl(ob, by_total ? rows[i].total_share :
		    rows[i].self_share);
		outbuf_char(ob, '}');
	}
}

static void
json_prof(const struct model *m, struct outbuf *ob)
{
	const struct model_prof	*p = &m->prof;

	js_u(ob, "\"prof\":{\"samples\":", p->samples);
	js_u(ob, ",\"empty\":", p->empty);
	js_u(ob, ",\"tick_ns\":", m->prog.tick_ns);
	js_u(ob, ",\"ccs\":", p->ccs);
	js_u(ob, ",\"stacks\":", p->stacks);
	js_u(ob, ",\"ccs_evicted\":", p->ccs_evicted);
	js_u(ob, ",\"stacks_evicted\":", p->stacks_evicted);
	js_u(ob, ",\"cc_defs\":", p->cc_defs);
	outbuf_str(ob, ",\"top_self\":[");
	json_ccs(m, ob, 0);
	outbuf_str(ob, "],\"top_total\":[");
	json_ccs(m, ob, 1);
	outbuf_str(ob, "]}");
}

static void
json_sparks(const struct model *m, struct outbuf *ob)
{
	size_t	i;
	int	w;

	outbuf_str(ob, "\"sparks\":{");
	for (i = 0; i < NSPARK_KEYS; i++)
		js_u(ob, spark_keys[i].key, model_sum(m, spark_keys[i].s,
		    MODEL_WRUN));
	for (w = 0; w < MODEL_W10 + 1; w++) {
		outbuf_str(ob, ",\"rate_");
		outbuf_str(ob, win_names[w]);
		outbuf_str(ob, "\":{");
		for (i = 0; i < NSPARK_KEYS; i++) {
			outbuf_str(ob, spark_keys[i].key);
			outbuf_fixed(ob, model_rate(m, spark_keys[i].s,
			    (enum model_win)w), 1);
		}
		outbuf_char(ob, '}');
	}
	outbuf_char(ob, '}');
}

static void
json_msgs(const struct model *m, struct outbuf *ob)
{
	const struct model_msg	*g;
	int			 i;

	js_u(ob, "\"messages\":{\"user\":", MODEL_SINCE(m, m->msgs.user, user));
	js_u(ob, ",\"markers\":", MODEL_SINCE(m, m->msgs.markers, markers));
	js_u(ob, ",\"log\":", m->msgs.log);
	js_u(ob, ",\"binary\":", m->msgs.binary);
	outbuf_str(ob, ",\"recent\":[");
	for (i = 4; i >= 0; i--) {
		if ((g = model_msg_recent(m, i)) == NULL)
			continue;
		js_u(ob, "{\"time_ns\":", g->time);
		js_i(ob, ",\"cap\":", g->cap);
		outbuf_str(ob, ",\"kind\":\"");
		outbuf_str(ob, msg_kind_name(g->kind));
		outbuf_str(ob, "\",\"text\":");
		js_str(ob, g->text);
		outbuf_str(ob, i > 0 ? "}," : "}");
	}
	outbuf_str(ob, "]}");
}

/* Built in a buffer on the stack and written with one fwrite (more only
 * if a line outgrows JSON_BUF: many caps, long names). */
void
model_json(const struct model *m, FILE *f)
{
	model_json_more(m, f, NULL);
}

/* model_json() with more keys at the end: more is `"key":value,...`. */
void
model_json_more(const struct model *m, FILE *f, const char *more)
{
	const struct model_totals *t = &m->totals;
	char			 buf[JSON_BUF];
	struct outbuf		 b, *ob = &b;
	int			 w;

	outbuf_init(ob, buf, sizeof buf, f);
	js_u(ob, "{\"time_ns\":", m->now);
	js_u(ob, ",\"start_ns\":", m->prog.start);
	js_u(ob, ",\"elapsed_ns\":", m->now - m->prog.start);
	outbuf_char(ob, ',');
	json_program(m, ob);
	outbuf_char(ob, ',');
	if (m->range.on) {
		js_u(ob, "\"range\":{\"from_ns\":", m->range.from_ns);
		outbuf_str(ob, ",\"to_ns\":");
		if (m->range.to_ns == UINT64_MAX)
			outbuf_str(ob, "null");
		else
			outbuf_u64(ob, m->range.to_ns);
		outbuf_str(ob, "},");
	}
	json_events(m, ob);
	js_u(ob, ",\"events_total\":", MODEL_SINCE(m, t->events, events));
	js_u(ob, ",\"bytes_total\":", MODEL_SINCE(m, t->bytes, bytes));
	js_u(ob, ",\"blocks\":", MODEL_SINCE(m, t->blocks, blocks));
	js_u(ob, ",\"unknown\":", t->unknown);
	js_u(ob, ",\"unknown_tags\":", t->unknown_tags);
	js_u(ob, ",\"errors\":", t->errors);
	outbuf_str(ob, ",\"last_error\":");
	if (t->errors > 0)
		js_str(ob, t->last_error);
	else
		outbuf_str(ob, "null");
	js_u(ob, ",\"late\":", t->late);
	js_u(ob, ",\"headers\":", t->headers);
	js_u(ob, ",\"reorder\":{\"held\":", t->held);
	js_u(ob, ",\"held_bytes\":", t->held_bytes);
	js_u(ob, ",\"forced\":", t->forced);
	js_u(ob, ",\"oversize\":", t->oversize);
	outbuf_str(ob, "},\"rates\":{");
	for (w = 0; w < MODEL_NWIN; w++) {
		js_win(ob, w);
		js_u(ob, "{\"window_ns\":", model_win_ns(m, (enum model_win)w));
		outbuf_str(ob, ",\"events_per_s\":");
		outbuf_fixed(ob, model_rate(m, MODEL_S_EVENTS,
		    (enum model_win)w), 1);
		outbuf_str(ob, ",\"bytes_per_s\":");
		outbuf_fixed(ob, model_rate(m, MODEL_S_BYTES,
		    (enum model_win)w), 1);
		outbuf_char(ob, '}');
	}
	outbuf_str(ob, "},");
	json_caps(m, ob);
	outbuf_char(ob, ',');
	json_threads(m, ob);
	outbuf_char(ob, ',');
	json_gc(m, ob);
	outbuf_char(ob, ',');
	json_heap(m, ob);
	outbuf_char(ob, ',');
	json_nonmoving(m, ob);
	outbuf_char(ob, ',');
	json_prof(m, ob);
	outbuf_char(ob, ',');
	json_sparks(m, ob);
	outbuf_char(ob, ',');
	json_msgs(m, ob);
	if (more != NULL && *more != '\0') {
		outbuf_char(ob, ',');
		outbuf_str(ob, more);
	}
	outbuf_str(ob, "}\n");
	outbuf_flush(ob);
}

/* ------------------------------------------------------------------ */
/* Text. */

static const char *
fmt_ns(char *buf, size_t size, uint64_t ns)
{
	if (ns < 1000)
		snprintf(buf, size, "%lluns", (unsigned long long)ns);
	else if (ns < 1000000)
		snprintf(buf, size, "%.1fus", (double)ns / 1e3);
	else if (ns < 1000000000)
		snprintf(buf, size, "%.2fms", (double)ns / 1e6);
	else
		snprintf(buf, size, "%.3fs", (double)ns / 1e9);
	return buf;
}

static const char *
fmt_bytes(char *buf, size_t size, double b)
{
	static const char units[] = "BKMGTP";
	int		  u = 0;

	while (b >= 1024 && u < 5) {
		b /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, size, "%.0fB", b);
	else
		snprintf(buf, size, "%.1f%c", b, units[u]);
	return buf;
}

void
model_text(const struct model *m, FILE *f)
{
	struct model_util	 u1, ur;
	struct model_gc_win	 g, g1;
	struct model_thread_row	 tr[TOP_N];
	struct model_cc_row	 cr[TOP_N];
	struct model_band_row	 br[TOP_N];
	const struct model_cap	*c;
	const struct model_msg	*msg;
	char			 a[32], b[32], d[32], e[32], title[256];
	int			 i, n;

	fprintf(f, "evtop - %s  events %llu (%.0f/s)  %s%s%s\n",
	    fmt_ns(a, sizeof a, m->now - m->prog.start),
	    (unsigned long long)m->totals.events,
	    model_rate(m, MODEL_S_EVENTS, MODEL_W1),
	    m->prog.rts_id[0] != '\0' ? m->prog.rts_id : "(no RTS id)",
	    m->prog.args[0] != '\0' ? "  " : "", m->prog.args);
	model_caps_util(m, MODEL_W1, &u1);
	model_caps_util(m, MODEL_WRUN, &ur);
	fprintf(f, "Caps: %d  run %.1f%% gc %.1f%% idle %.1f%% (1s)  "
	    "run %.1f%% gc %.1f%% (run)\n", m->prog.ncaps, 100 * u1.run,
	    100 * u1.gc, 100 * (1 - u1.run - u1.gc), 100 * ur.run,
	    100 * ur.gc);
	fprintf(f, "Threads: %u live, %u running, %u runnable, %u blocked; "
	    "%llu created, %llu finished\n", m->threads.live,
	    m->threads.by_state[MODEL_T_RUNNING],
	    m->threads.by_state[MODEL_T_RUNNABLE],
	    m->threads.by_state[MODEL_T_BLOCKED],
	    (unsigned long long)m->threads.created,
	    (unsigned long long)m->threads.finished);
	model_gc_window(m, MODEL_WRUN, &g);
	model_gc_window(m, MODEL_W1, &g1);
	fprintf(f, "GC: %llu collections, pause total %s max %s p50 %s "
	    "p99 %s, productivity %.1f%% (1s %.1f%%)\n",
	    (unsigned long long)g.count, fmt_ns(a, sizeof a, g.pause_total),
	    fmt_ns(b, sizeof b, g.pause_max), fmt_ns(d, sizeof d, g.p50),
	    fmt_ns(e, sizeof e, g.p99), 100 * g.productivity,
	    100 * g1.productivity);
	fprintf(f, "Heap: size %s", fmt_bytes(a, sizeof a,
	    (double)m->heap.size));
	fprintf(f, " live %s", fmt_bytes(a, sizeof a, (double)m->heap.live));
	fprintf(f, " allocated %s", fmt_bytes(a, sizeof a,
	    (double)m->heap.allocated));
	fprintf(f, " (%s/s)\n", fmt_bytes(a, sizeof a,
	    model_rate(m, MODEL_S_ALLOC, MODEL_W1)));
	if (m->nm.census_events > 0 || m->nm.marks > 0)
		fprintf(f, "Nonmoving: %llu censuses, %llu marks, sync max %s\n",
		    (unsigned long long)m->nm.censuses,
		    (unsigned long long)m->nm.marks,
		    fmt_ns(a, sizeof a, m->nm.sync_max_ns));
	fprintf(f, "Messages: %llu user, %llu markers, %llu log; "
	    "errors %llu, late %llu\n", (unsigned long long)m->msgs.user,
	    (unsigned long long)m->msgs.markers,
	    (unsigned long long)m->msgs.log,
	    (unsigned long long)m->totals.errors,
	    (unsigned long long)m->totals.late);

	fputs("\n  CAP STATE    THREAD   RUN%    GC%\n", f);
	for (i = 0; i < m->prog.ncaps; i++) {
		if ((c = m->caps[i]) == NULL)
			continue;
		model_cap_util(m, c, MODEL_W1, &u1);
		if (c->state == MODEL_CAP_RUN)
			snprintf(a, sizeof a, "%u", c->thread);
		else
			snprintf(a, sizeof a, "-");
		fprintf(f, "%5d %-8s %6s %5.1f  %5.1f\n", c->id,
		    cap_state_name(c->state), a, 100 * u1.run, 100 * u1.gc);
	}
	n = model_threads_sorted(m, MODEL_W1, MODEL_TSORT_CPU, tr, TOP_N,
	    NULL);
	fputs("\n  TID STATE      CPU%      CPU LABEL\n", f);
	for (i = 0; i < n; i++)
		fprintf(f, "%5u %-9s %5.1f %8s %s\n", tr[i].t->id,
		    state_name(tr[i].t->state), 100 * tr[i].share,
		    fmt_ns(a, sizeof a, tr[i].t->cpu_ns), tr[i].t->label);
	if (m->prof.samples_total > 0) {
		n = model_top_ccs(m, MODEL_WRUN, 0, cr, TOP_N, NULL);
		fputs("\n SELF%  TOTAL%  COST CENTRE\n", f);
		for (i = 0; i < n; i++)
			fprintf(f, "%5.1f  %5.1f   %s %s\n",
			    100 * cr[i].self_share, 100 * cr[i].total_share,
			    cr[i].cc->module, cr[i].cc->label);
	}
	if (m->hprof.censuses > 0 || m->hprof.samples > 0) {
		n = model_top_bands(m, br, TOP_N);
		fprintf(f, "\n  RESIDENCY  SHARE  BAND (census %llu)\n",
		    (unsigned long long)m->hprof.censuses);
		for (i = 0; i < n; i++) {
			model_band_title(m, br[i].band, title, sizeof title);
			fprintf(f, "%11s %5.1f%%  %s\n",
			    fmt_bytes(a, sizeof a, (double)br[i].bytes),
			    100 * br[i].share, title);
		}
	}
	if ((msg = model_msg_recent(m, 0)) != NULL)
		fprintf(f, "\nLast message (%s): %s\n", msg_kind_name(msg->kind),
		    msg->text);
}
