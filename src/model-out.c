/*
 * model-out.c: the model as one line of JSON, or as text like `top -b`.
 *
 * The JSON object (times in ns, sizes in bytes, shares 0..1; "1s", "10s"
 * and "run" are MODEL_W1, MODEL_W10 and MODEL_WRUN):
 *   time_ns start_ns elapsed_ns
 *   program	rts args pid ppid wall_clock_ns (of the first event) sessions
 *		resets caps caps_* heap_info prof_tick_ns heap_prof
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
 *		global_syncs in_gc dropped mmu{10ms,100ms,1s} hist[]
 *		last_1s{...} last_10s{...} (the same figures per window)
 *   heap	size live blocks size_max live_max allocated alloc_rate{...}
 *		mem_return{...} censuses census_samples bands bands_evicted
 *		last_census top_bands[{band bytes delta share}]
 *   nonmoving	censuses census_events live_bytes segment_bytes sizes[]
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

#include "model-priv.h"

#define TOP_N	10

static const char *const win_names[MODEL_NWIN] = { "1s", "10s", "run" };

static void
js_str(FILE *f, const char *s)
{
	const unsigned char	*p = (const unsigned char *)s;

	fputc('"', f);
	for (; *p != '\0'; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

static void
js_dbl(FILE *f, double v)
{
	if (v != v)
		fputs("null", f);
	else
		fprintf(f, "%.4f", v);
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
json_events(const struct model *m, FILE *f)
{
	struct tagcount	*v;
	char		 buf[32];
	size_t		 n = 0, i;
	uint32_t	 tag;

	for (tag = 0; tag < PROTO_NTAGS; tag++)
		if (m->tag_count[tag] != 0 && tag != PROTO_BLOCK_MARKER)
			n++;
	v = calloc(n + 1, sizeof *v);
	if (v == NULL) {
		fputs("\"events\":{}", f);
		return;
	}
	n = 0;
	for (tag = 0; tag < PROTO_NTAGS; tag++) {
		if (m->tag_count[tag] == 0 || tag == PROTO_BLOCK_MARKER)
			continue;
		snprintf(v[n].name, sizeof v[n].name, "%s",
		    model_tag_name((uint16_t)tag, buf, sizeof buf));
		v[n++].n = m->tag_count[tag];
	}
	qsort(v, n, sizeof *v, cmp_tagcount);
	fputs("\"events\":{", f);
	for (i = 0; i < n; i++)
		fprintf(f, "%s\"%s\":%llu", i ? "," : "", v[i].name,
		    (unsigned long long)v[i].n);
	fputc('}', f);
	free(v);
}

static void
json_program(const struct model *m, FILE *f)
{
	const struct model_prog	*g = &m->prog;
	const char		*bd;

	fputs("\"program\":{\"rts\":", f);
	js_str(f, g->rts_id);
	fputs(",\"args\":", f);
	js_str(f, g->args);
	if (g->has_pid)
		fprintf(f, ",\"pid\":%u", g->pid);
	else
		fputs(",\"pid\":null", f);
	if (g->has_ppid)
		fprintf(f, ",\"ppid\":%u", g->ppid);
	else
		fputs(",\"ppid\":null", f);
	if (g->has_wall)
		fprintf(f, ",\"wall_clock_ns\":%llu", (unsigned long long)
		    (g->wall_ns - g->wall_at + g->start));
	else
		fputs(",\"wall_clock_ns\":null", f);
	fprintf(f, ",\"sessions\":%llu,\"resets\":%llu,\"caps\":%d,"
	    "\"caps_created\":%llu,\"caps_deleted\":%llu,"
	    "\"caps_enabled\":%llu,\"caps_disabled\":%llu,\"caps_over\":%llu",
	    (unsigned long long)g->sessions, (unsigned long long)g->resets,
	    g->ncaps, (unsigned long long)g->caps_created,
	    (unsigned long long)g->caps_deleted,
	    (unsigned long long)g->caps_enabled,
	    (unsigned long long)g->caps_disabled,
	    (unsigned long long)g->caps_over);
	if (g->has_heap_info)
		fprintf(f, ",\"heap_info\":{\"gens\":%u,\"max_heap\":%llu,"
		    "\"alloc_area\":%llu,\"mblock\":%llu,\"block\":%llu}",
		    g->gens, (unsigned long long)g->max_heap,
		    (unsigned long long)g->alloc_area,
		    (unsigned long long)g->mblock,
		    (unsigned long long)g->block);
	else
		fputs(",\"heap_info\":null", f);
	if (g->prof)
		fprintf(f, ",\"prof_tick_ns\":%llu",
		    (unsigned long long)g->tick_ns);
	else
		fputs(",\"prof_tick_ns\":null", f);
	if (g->heap_prof) {
		bd = proto_breakdown_name(g->breakdown);
		fputs(",\"heap_prof\":{\"breakdown\":", f);
		js_str(f, bd != NULL ? bd : "unknown");
		fprintf(f, ",\"interval_ns\":%llu,\"filters\":",
		    (unsigned long long)g->hp_interval);
		js_str(f, g->hp_filters);
		fputc('}', f);
	} else
		fputs(",\"heap_prof\":null", f);
	fputc('}', f);
}

static void
json_caps(const struct model *m, FILE *f)
{
	const struct model_cap	*c;
	struct model_util	 u;
	int			 i, w, first = 1;

	fputs("\"caps\":[", f);
	for (i = 0; i < m->prog.ncaps; i++) {
		if ((c = m->caps[i]) == NULL)
			continue;
		fprintf(f, "%s{\"cap\":%d,\"enabled\":%s,\"state\":\"%s\"",
		    first ? "" : ",", c->id, c->enabled ? "true" : "false",
		    cap_state_name(c->state));
		first = 0;
		if (c->state == MODEL_CAP_RUN)
			fprintf(f, ",\"thread\":%u", c->thread);
		else
			fputs(",\"thread\":null", f);
		fprintf(f, ",\"events\":%llu", (unsigned long long)c->events);
		model_cap_util(m, c, MODEL_WRUN, &u);
		fprintf(f, ",\"run_ns\":%llu,\"gc_ns\":%llu,\"idle_ns\":%llu",
		    (unsigned long long)u.run_ns, (unsigned long long)u.gc_ns,
		    (unsigned long long)u.idle_ns);
		fputs(",\"util\":{", f);
		for (w = 0; w < MODEL_NWIN; w++) {
			model_cap_util(m, c, (enum model_win)w, &u);
			fprintf(f, "%s\"%s\":", w ? "," : "", win_names[w]);
			js_dbl(f, u.run);
		}
		fputs("},\"gc_share\":{", f);
		for (w = 0; w < MODEL_NWIN; w++) {
			model_cap_util(m, c, (enum model_win)w, &u);
			fprintf(f, "%s\"%s\":", w ? "," : "", win_names[w]);
			js_dbl(f, u.gc);
		}
		fprintf(f, "},\"sparks\":{\"created\":%llu,\"converted\":%llu,"
		    "\"fizzled\":%llu,\"gcd\":%llu,\"dud\":%llu,"
		    "\"overflowed\":%llu,\"remaining\":%llu,\"stolen\":%llu}}",
		    (unsigned long long)model_cap_sparks(m, c,
		    MODEL_S_SPARKS_CREATED, MODEL_WRUN),
		    (unsigned long long)model_cap_sparks(m, c,
		    MODEL_S_SPARKS_CONVERTED, MODEL_WRUN),
		    (unsigned long long)model_cap_sparks(m, c,
		    MODEL_S_SPARKS_FIZZLED, MODEL_WRUN),
		    (unsigned long long)model_cap_sparks(m, c,
		    MODEL_S_SPARKS_GCD, MODEL_WRUN),
		    (unsigned long long)model_cap_sparks(m, c,
		    MODEL_S_SPARKS_DUD, MODEL_WRUN),
		    (unsigned long long)model_cap_sparks(m, c,
		    MODEL_S_SPARKS_OVERFLOWED, MODEL_WRUN),
		    (unsigned long long)c->sparks.rem,
		    (unsigned long long)c->sparks.ev_steal);
	}
	fputc(']', f);
}

static void
json_threads(const struct model *m, FILE *f)
{
	const struct model_threads *t = &m->threads;
	struct model_thread_row	 rows[TOP_N];
	int			 n, i, first = 1, w;
	const char		*txt;

	fprintf(f, "\"threads\":{\"created\":%llu,\"finished\":%llu,"
	    "\"live\":%u,\"running\":%u,\"runnable\":%u,\"blocked\":%u,"
	    "\"migrations\":%llu,\"wakeups\":%llu,\"runs\":%llu,"
	    "\"cpu_ns\":%llu,\"table\":%llu,\"evicted\":%llu,"
	    "\"dropped\":%llu,\"blocked_by\":{",
	    (unsigned long long)t->created, (unsigned long long)t->finished,
	    t->live, t->by_state[MODEL_T_RUNNING],
	    t->by_state[MODEL_T_RUNNABLE], t->by_state[MODEL_T_BLOCKED],
	    (unsigned long long)t->migrations,
	    (unsigned long long)t->wakeups, (unsigned long long)t->runs,
	    (unsigned long long)t->cpu_ns, (unsigned long long)t->table,
	    (unsigned long long)t->evicted, (unsigned long long)t->dropped);
	for (i = 0; i < MODEL_NREASONS; i++) {
		if (t->blocked_by[i] == 0)
			continue;
		txt = proto_stop_status((uint16_t)i, &w);
		fprintf(f, "%s\"%d\":{\"reason\":", first ? "" : ",", i);
		js_str(f, txt);
		fprintf(f, ",\"threads\":%u}", t->blocked_by[i]);
		first = 0;
	}
	fputs("},\"top\":[", f);
	n = model_threads_sorted(m, MODEL_WRUN, MODEL_TSORT_CPU, rows, TOP_N);
	for (i = 0; i < n; i++) {
		fprintf(f, "%s{\"id\":%u,\"label\":", i ? "," : "",
		    rows[i].t->id);
		js_str(f, rows[i].t->label);
		fprintf(f, ",\"state\":\"%s\",\"cpu_ns\":%llu,\"share\":",
		    state_name(rows[i].t->state),
		    (unsigned long long)rows[i].cpu_ns);
		js_dbl(f, rows[i].share);
		fputc('}', f);
	}
	fputs("]}", f);
}

static void
json_gc_win(FILE *f, const struct model_gc_win *g)
{
	int	i;

	fprintf(f, "\"collections\":%llu,\"pause_total_ns\":%llu,"
	    "\"pause_max_ns\":%llu,\"pause_p50_ns\":%llu,"
	    "\"pause_p90_ns\":%llu,\"pause_p99_ns\":%llu,"
	    "\"percentiles_exact\":%s,\"sync_total_ns\":%llu,"
	    "\"sync_max_ns\":%llu,\"copied_bytes\":%llu,\"gc_ns\":%llu,"
	    "\"window_ns\":%llu,\"productivity\":",
	    (unsigned long long)g->count, (unsigned long long)g->pause_total,
	    (unsigned long long)g->pause_max, (unsigned long long)g->p50,
	    (unsigned long long)g->p90, (unsigned long long)g->p99,
	    g->exact ? "true" : "false", (unsigned long long)g->sync_total,
	    (unsigned long long)g->sync_max, (unsigned long long)g->copied,
	    (unsigned long long)g->gc_ns, (unsigned long long)g->dur_ns);
	js_dbl(f, g->productivity);
	fputs(",\"balance\":", f);
	if (g->balance < 0)
		fputs("null", f);
	else
		js_dbl(f, g->balance);
	fputs(",\"by_gen\":[", f);
	for (i = 0; i < MODEL_NGEN; i++)
		fprintf(f, "%s%llu", i ? "," : "",
		    (unsigned long long)g->count_gen[i]);
	fprintf(f, "],\"no_gen\":%llu", (unsigned long long)g->count_nogen);
}

static void
json_gc(const struct model *m, FILE *f)
{
	struct model_gc_win	 g;
	static const char *const mmu_names[MODEL_NMMU] = {
		"10ms", "100ms", "1s"
	};
	int			 i, last;

	model_gc_window(m, MODEL_WRUN, &g);
	fputs("\"gc\":{", f);
	json_gc_win(f, &g);
	fprintf(f, ",\"requests\":%llu,\"global_syncs\":%llu,\"in_gc\":%s,"
	    "\"dropped\":%llu,\"mmu\":{", (unsigned long long)m->gc.requests,
	    (unsigned long long)m->gc.syncs, m->gc.in_gc ? "true" : "false",
	    (unsigned long long)m->gc.dropped);
	for (i = 0; i < MODEL_NMMU; i++) {
		fprintf(f, "%s\"%s\":", i ? "," : "", mmu_names[i]);
		if (g.mmu[i] < 0)
			fputs("null", f);
		else
			js_dbl(f, g.mmu[i]);
	}
	/* The histogram up to its last non-empty bucket. */
	for (last = MODEL_NHIST - 1; last > 0 && g.hist[last] == 0; last--)
		;
	fputs("},\"hist\":[", f);
	for (i = 0; i <= last; i++)
		fprintf(f, "%s%llu", i ? "," : "",
		    (unsigned long long)g.hist[i]);
	fputs("],\"last_1s\":{", f);
	model_gc_window(m, MODEL_W1, &g);
	json_gc_win(f, &g);
	fputs("},\"last_10s\":{", f);
	model_gc_window(m, MODEL_W10, &g);
	json_gc_win(f, &g);
	fputs("}}", f);
}

static void
json_heap(const struct model *m, FILE *f)
{
	const struct model_heap	*h = &m->heap;
	struct model_band_row	 rows[TOP_N];
	const struct model_census *c;
	int			 n, i, w;

	fprintf(f, "\"heap\":{\"size\":%llu,\"live\":%llu,\"blocks\":%llu,"
	    "\"size_max\":%llu,\"live_max\":%llu,\"allocated\":%llu,"
	    "\"alloc_rate\":{",
	    (unsigned long long)h->size, (unsigned long long)h->live,
	    (unsigned long long)h->blocks, (unsigned long long)h->size_max,
	    (unsigned long long)h->live_max, (unsigned long long)h->allocated);
	for (w = 0; w < MODEL_NWIN; w++)
		fprintf(f, "%s\"%s\":%.0f", w ? "," : "", win_names[w],
		    model_rate(m, MODEL_S_ALLOC, (enum model_win)w));
	fprintf(f, "},\"mem_return\":{\"events\":%llu,\"current\":%u,"
	    "\"needed\":%u,\"returned\":%u,\"returned_total\":%llu},"
	    "\"censuses\":%llu,\"census_samples\":%llu,\"bands\":%llu,"
	    "\"bands_evicted\":%llu",
	    (unsigned long long)h->mr_events, h->mr_current, h->mr_needed,
	    h->mr_returned, (unsigned long long)h->mr_returned_total,
	    (unsigned long long)m->hprof.censuses,
	    (unsigned long long)m->hprof.samples,
	    (unsigned long long)m->hprof.bands,
	    (unsigned long long)m->hprof.bands_evicted);
	if ((c = model_census_recent(m, 0)) != NULL)
		fprintf(f, ",\"last_census\":{\"time_ns\":%llu,\"era\":%llu,"
		    "\"total\":%llu,\"samples\":%u}",
		    (unsigned long long)c->start, (unsigned long long)c->era,
		    (unsigned long long)c->total, c->samples);
	else
		fputs(",\"last_census\":null", f);
	fputs(",\"top_bands\":[", f);
	n = model_top_bands(m, rows, TOP_N);
	for (i = 0; i < n; i++) {
		fprintf(f, "%s{\"band\":", i ? "," : "");
		js_str(f, rows[i].band->name);
		fprintf(f, ",\"bytes\":%llu,\"delta\":%lld,\"share\":",
		    (unsigned long long)rows[i].bytes,
		    (long long)rows[i].delta);
		js_dbl(f, rows[i].share);
		fputc('}', f);
	}
	fputs("]}", f);
}

static void
json_nonmoving(const struct model *m, FILE *f)
{
	const struct model_nonmoving *nm = &m->nm;
	int			 i;

	fprintf(f, "\"nonmoving\":{\"censuses\":%llu,\"census_events\":%llu,"
	    "\"live_bytes\":%llu,\"segment_bytes\":%llu,\"sizes\":[",
	    (unsigned long long)nm->censuses,
	    (unsigned long long)nm->census_events,
	    (unsigned long long)nm->live_bytes,
	    (unsigned long long)nm->seg_bytes);
	for (i = 0; i < nm->nsizes; i++) {
		fprintf(f, "%s{\"blk_size\":%u,\"active\":%u,\"filled\":%u,"
		    "\"live\":%u,\"occupancy\":", i ? "," : "",
		    nm->sizes[i].blk_size, nm->sizes[i].active,
		    nm->sizes[i].filled, nm->sizes[i].live);
		js_dbl(f, nm->sizes[i].occupancy);
		fputc('}', f);
	}
	fprintf(f, "],\"marks\":%llu,\"mark_ns\":%llu,\"marked\":%llu,"
	    "\"syncs\":%llu,\"sync_ns\":%llu,\"sync_max_ns\":%llu,"
	    "\"sweeps\":%llu,\"sweep_ns\":%llu,\"flushes\":%llu,"
	    "\"pruned_events\":%llu,\"pruned_total\":%llu}",
	    (unsigned long long)nm->marks, (unsigned long long)nm->mark_ns,
	    (unsigned long long)nm->marked, (unsigned long long)nm->syncs,
	    (unsigned long long)nm->sync_ns,
	    (unsigned long long)nm->sync_max_ns,
	    (unsigned long long)nm->sweeps, (unsigned long long)nm->sweep_ns,
	    (unsigned long long)nm->flushes,
	    (unsigned long long)nm->pruned_events,
	    (unsigned long long)nm->pruned_total);
}

static void
json_ccs(const struct model *m, FILE *f, int by_total)
{
	struct model_cc_row	rows[TOP_N];
	uint64_t		n;
	int			k, i;

	k = model_top_ccs(m, MODEL_WRUN, by_total, rows, TOP_N);
	for (i = 0; i < k; i++) {
		fprintf(f, "%s{\"id\":%u,\"cost_centre\":", i ? "," : "",
		    rows[i].cc->id);
		if (rows[i].cc->defined)
			js_str(f, rows[i].cc->label);
		else
			fputs("null", f);
		fputs(",\"module\":", f);
		if (rows[i].cc->defined)
			js_str(f, rows[i].cc->module);
		else
			fputs("null", f);
		n = by_total ? rows[i].total : rows[i].self;
		fprintf(f, ",\"samples\":%llu,\"time_ns\":%llu,\"share\":",
		    (unsigned long long)n,
		    (unsigned long long)(n * m->prog.tick_ns));
		js_dbl(f, by_total ? rows[i].total_share : rows[i].self_share);
		fputc('}', f);
	}
}

static void
json_prof(const struct model *m, FILE *f)
{
	const struct model_prof	*p = &m->prof;

	fprintf(f, "\"prof\":{\"samples\":%llu,\"empty\":%llu,"
	    "\"tick_ns\":%llu,\"ccs\":%llu,\"stacks\":%llu,"
	    "\"ccs_evicted\":%llu,\"stacks_evicted\":%llu,\"cc_defs\":%llu,"
	    "\"top_self\":[", (unsigned long long)p->samples,
	    (unsigned long long)p->empty, (unsigned long long)m->prog.tick_ns,
	    (unsigned long long)p->ccs, (unsigned long long)p->stacks,
	    (unsigned long long)p->ccs_evicted,
	    (unsigned long long)p->stacks_evicted,
	    (unsigned long long)p->cc_defs);
	json_ccs(m, f, 0);
	fputs("],\"top_total\":[", f);
	json_ccs(m, f, 1);
	fputs("]}", f);
}

static void
json_sparks(const struct model *m, FILE *f)
{
	static const struct {
		const char		*name;
		enum model_series	 s;
	} k[] = {
		{ "created", MODEL_S_SPARKS_CREATED },
		{ "converted", MODEL_S_SPARKS_CONVERTED },
		{ "fizzled", MODEL_S_SPARKS_FIZZLED },
		{ "gcd", MODEL_S_SPARKS_GCD },
		{ "dud", MODEL_S_SPARKS_DUD },
		{ "overflowed", MODEL_S_SPARKS_OVERFLOWED },
	};
	size_t	i;
	int	w;

	fputs("\"sparks\":{", f);
	for (i = 0; i < sizeof k / sizeof k[0]; i++)
		fprintf(f, "%s\"%s\":%llu", i ? "," : "", k[i].name,
		    (unsigned long long)model_sum(m, k[i].s, MODEL_WRUN));
	for (w = 0; w < MODEL_W10 + 1; w++) {
		fprintf(f, ",\"rate_%s\":{", win_names[w]);
		for (i = 0; i < sizeof k / sizeof k[0]; i++)
			fprintf(f, "%s\"%s\":%.1f", i ? "," : "", k[i].name,
			    model_rate(m, k[i].s, (enum model_win)w));
		fputc('}', f);
	}
	fputc('}', f);
}

static void
json_msgs(const struct model *m, FILE *f)
{
	const struct model_msg	*g;
	int			 i;

	fprintf(f, "\"messages\":{\"user\":%llu,\"markers\":%llu,\"log\":%llu,"
	    "\"binary\":%llu,\"recent\":[",
	    (unsigned long long)m->msgs.user,
	    (unsigned long long)m->msgs.markers,
	    (unsigned long long)m->msgs.log,
	    (unsigned long long)m->msgs.binary);
	for (i = 4; i >= 0; i--) {
		if ((g = model_msg_recent(m, i)) == NULL)
			continue;
		fprintf(f, "{\"time_ns\":%llu,\"cap\":%d,\"kind\":\"%s\","
		    "\"text\":", (unsigned long long)g->time, g->cap,
		    msg_kind_name(g->kind));
		js_str(f, g->text);
		fputs(i > 0 ? "}," : "}", f);
	}
	fputs("]}", f);
}

void
model_json(const struct model *m, FILE *f)
{
	const struct model_totals *t = &m->totals;
	int			 w;

	fprintf(f, "{\"time_ns\":%llu,\"start_ns\":%llu,\"elapsed_ns\":%llu,",
	    (unsigned long long)m->now, (unsigned long long)m->prog.start,
	    (unsigned long long)(m->now - m->prog.start));
	json_program(m, f);
	fputc(',', f);
	json_events(m, f);
	fprintf(f, ",\"events_total\":%llu,\"bytes_total\":%llu,"
	    "\"blocks\":%llu,\"unknown\":%llu,\"unknown_tags\":%llu,"
	    "\"errors\":%llu,\"last_error\":",
	    (unsigned long long)t->events, (unsigned long long)t->bytes,
	    (unsigned long long)t->blocks, (unsigned long long)t->unknown,
	    (unsigned long long)t->unknown_tags,
	    (unsigned long long)t->errors);
	if (t->errors > 0)
		js_str(f, t->last_error);
	else
		fputs("null", f);
	fprintf(f, ",\"late\":%llu,\"headers\":%llu,\"reorder\":{\"held\":%llu,"
	    "\"held_bytes\":%llu,\"forced\":%llu,\"oversize\":%llu},"
	    "\"rates\":{", (unsigned long long)t->late,
	    (unsigned long long)t->headers, (unsigned long long)t->held,
	    (unsigned long long)t->held_bytes, (unsigned long long)t->forced,
	    (unsigned long long)t->oversize);
	for (w = 0; w < MODEL_NWIN; w++) {
		fprintf(f, "%s\"%s\":{\"window_ns\":%llu,\"events_per_s\":%.1f,"
		    "\"bytes_per_s\":%.1f}", w ? "," : "", win_names[w],
		    (unsigned long long)model_win_ns(m, (enum model_win)w),
		    model_rate(m, MODEL_S_EVENTS, (enum model_win)w),
		    model_rate(m, MODEL_S_BYTES, (enum model_win)w));
	}
	fputs("},", f);
	json_caps(m, f);
	fputc(',', f);
	json_threads(m, f);
	fputc(',', f);
	json_gc(m, f);
	fputc(',', f);
	json_heap(m, f);
	fputc(',', f);
	json_nonmoving(m, f);
	fputc(',', f);
	json_prof(m, f);
	fputc(',', f);
	json_sparks(m, f);
	fputc(',', f);
	json_msgs(m, f);
	fputs("}\n", f);
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
	char			 a[32], b[32], d[32], e[32];
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
	n = model_threads_sorted(m, MODEL_W1, MODEL_TSORT_CPU, tr, TOP_N);
	fputs("\n  TID STATE      CPU%      CPU LABEL\n", f);
	for (i = 0; i < n; i++)
		fprintf(f, "%5u %-9s %5.1f %8s %s\n", tr[i].t->id,
		    state_name(tr[i].t->state), 100 * tr[i].share,
		    fmt_ns(a, sizeof a, tr[i].t->cpu_ns), tr[i].t->label);
	if (m->prof.samples_total > 0) {
		n = model_top_ccs(m, MODEL_WRUN, 0, cr, TOP_N);
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
		for (i = 0; i < n; i++)
			fprintf(f, "%11s %5.1f%%  %s\n",
			    fmt_bytes(a, sizeof a, (double)br[i].bytes),
			    100 * br[i].share, br[i].band->name);
	}
	if ((msg = model_msg_recent(m, 0)) != NULL)
		fprintf(f, "\nLast message (%s): %s\n", msg_kind_name(msg->kind),
		    msg->text);
}
