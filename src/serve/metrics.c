/*
 * metrics.c: GET /metrics, the model in the Prometheus text exposition
 * format 0.0.4, or in OpenMetrics 1.0.0 when the scraper asks for it.
 *
 * Names follow Prometheus' conventions: ghc_* for what the program did,
 * evtop_* for evtop's own reading and serving; base units (seconds,
 * bytes) in the name; counters end in _total.  The two formats differ
 * only where OpenMetrics insists: a counter's family (HELP, TYPE) is named
 * without _total, an info metric is its own type, and "# EOF" ends it.
 *
 * Figures are the model's whole-run ones, the same as --batch --json
 * prints (gc.collections, gc.pause_total_ns, events, prof.samples, ...):
 * a run restarts them when a new program replaces the old one, and the
 * TUI's `z` key restarts the whole-run GC and capability figures, which
 * Prometheus takes as a counter reset.  Seconds are printed exactly, from
 * integer nanoseconds ("12.000345678"), so they compare with the JSON.
 */
#include <stdio.h>
#include <string.h>

#include "model/model.h"
#include "serve/serve.h"

/*
 * Pause histogram bounds: every other octave of the model's half-octave
 * histogram (model_gc_win.hist; bucket 2k+1 starts at 1000 * 2^k ns), so
 * that a bound is exactly one of its bucket edges: 1 us, 4 us, ... 4.2 s.
 */
#define METRICS_NLE	12

struct mw {
	FILE	*f;
	int	 om;		/* OpenMetrics */
};

enum mtype { M_COUNTER, M_GAUGE, M_HIST, M_INFO };

/* HELP and TYPE of a family; name is the sample name's base. */
static void
fam(struct mw *w, const char *name, enum mtype t, const char *help)
{
	static const char *const types[] = { "counter", "gauge", "histogram",
	    "info" };
	const char	*suffix = "", *type = types[t];

	if (!w->om && t == M_COUNTER)
		suffix = "_total";
	if (!w->om && t == M_INFO) {
		suffix = "_info";
		type = "gauge";
	}
	fprintf(w->f, "# HELP %s%s %s\n# TYPE %s%s %s\n", name, suffix, help,
	    name, suffix, type);
}

/*
 * k="v" appended to a label list, v as the format wants it: UTF-8 (a
 * byte that is not becomes U+FFFD), with \, " and newline escaped.  What
 * does not fit whole is left out: a value is cut between characters, and
 * a label without room for its name is not begun.
 */
static void
lbl(char *buf, size_t size, const char *k, const char *v)
{
	size_t		n = strlen(buf), vn = strlen(v), i = 0, e;
	uint32_t	c;
	char		t[4];
	int		w;

	w = snprintf(buf + n, size - n, "%s%s=\"", n > 0 ? "," : "", k);
	if (w < 0 || (size_t)w + 2 > size - n) {	/* with its '"' */
		buf[n] = '\0';
		return;
	}
	n += (size_t)w;
	while (i < vn) {
		i += proto_utf8_next(v + i, vn - i, &c);
		if (c == '\\' || c == '"' || c == '\n') {
			t[0] = '\\';
			t[1] = c == '\n' ? 'n' : (char)c;
			e = 2;
		} else
			e = proto_utf8_put(c, t);
		if (n + e + 2 > size)
			break;
		memcpy(buf + n, t, e);
		n += e;
	}
	buf[n++] = '"';
	buf[n] = '\0';
}

static void
u(struct mw *w, const char *name, const char *labels, uint64_t v)
{
	fprintf(w->f, "%s%s%s%s %llu\n", name, labels[0] ? "{" : "", labels,
	    labels[0] ? "}" : "", (unsigned long long)v);
}

/* Nanoseconds as seconds, exactly. */
static void
ns(struct mw *w, const char *name, const char *labels, uint64_t v)
{
	fprintf(w->f, "%s%s%s%s %llu.%09llu\n", name, labels[0] ? "{" : "",
	    labels, labels[0] ? "}" : "", (unsigned long long)(v /
	    1000000000u), (unsigned long long)(v % 1000000000u));
}

static void
d(struct mw *w, const char *name, const char *labels, double v)
{
	fprintf(w->f, "%s%s%s%s ", name, labels[0] ? "{" : "", labels,
	    labels[0] ? "}" : "");
	if (v != v)
		fputs("NaN\n", w->f);	/* both formats' spelling */
	else
		fprintf(w->f, "%.6g\n", v);
}

/* One family with one unlabelled sample, written by put (u or ns). */
static void
one(struct mw *w, const char *name, enum mtype t, const char *help,
    uint64_t v, void (*put)(struct mw *, const char *, const char *,
    uint64_t))
{
	char	full[128];

	fam(w, name, t, help);
	snprintf(full, sizeof full, "%s%s", name, t == M_COUNTER ?
	    "_total" : "");
	put(w, full, "", v);
}

static void
one_u(struct mw *w, const char *name, enum mtype t, const char *help,
    uint64_t v)
{
	one(w, name, t, help, v, u);
}

static void
one_ns(struct mw *w, const char *name, enum mtype t, const char *help,
    uint64_t v)
{
	one(w, name, t, help, v, ns);
}

static void
metrics_events(struct mw *w, const struct model *m)
{
	char		 l[96], buf[32];
	uint32_t	 tag;

	fam(w, "ghc_eventlog_events", M_COUNTER,
	    "Events read from the eventlog, by type (block markers aside).");
	for (tag = 0; tag < PROTO_NTAGS; tag++) {
		if (m->tag_count[tag] == 0 || tag == PROTO_BLOCK_MARKER)
			continue;
		l[0] = '\0';
		lbl(l, sizeof l, "type", model_tag_name((uint16_t)tag, buf,
		    sizeof buf));
		u(w, "ghc_eventlog_events_total", l, m->tag_count[tag]);
	}
	one_u(w, "ghc_eventlog_event_bytes", M_COUNTER,
	    "Bytes of the events read (block markers aside).",
	    m->totals.bytes);
}

static void
metrics_gc(struct mw *w, const struct model *m)
{
	struct model_gc_win	g;
	uint64_t		cum = 0;
	char			l[64], le[32];
	int			k, b;

	model_gc_window(m, MODEL_WRUN, &g);
	one_u(w, "ghc_gc_collections", M_COUNTER,
	    "Garbage collections that ended.", g.count);
	one_ns(w, "ghc_gc_pause_seconds", M_COUNTER,
	    "Time the program was paused by collections.", g.pause_total);
	one_ns(w, "ghc_gc_pause_max_seconds", M_GAUGE,
	    "The longest collection pause.", g.pause_max);
	one_ns(w, "ghc_gc_sync_seconds", M_COUNTER,
	    "Time from a collection's request to its start.", g.sync_total);
	one_u(w, "ghc_gc_copied_bytes", M_COUNTER,
	    "Bytes copied by collections.", g.copied);
	one_u(w, "ghc_gc_requests", M_COUNTER,
	    "Collections requested (REQUEST_SEQ_GC, REQUEST_PAR_GC).",
	    m->gc.requests);
	fam(w, "ghc_gc_productivity_ratio", M_GAUGE,
	    "Share of the run with no collection running.");
	d(w, "ghc_gc_productivity_ratio", "", g.productivity);

	fam(w, "ghc_gc_pause_duration_seconds", M_HIST,
	    "Collection pauses by length.");
	for (k = 0, b = 0; k < METRICS_NLE; k++) {
		/* Bucket 4k+1 of the model starts at 1000 * 4^k ns. */
		for (; b < 4 * k + 1 && b < MODEL_NHIST; b++)
			cum += g.hist[b];
		snprintf(le, sizeof le, "%.9g", 1e-6 * (double)(1ull << (2 *
		    k)));
		l[0] = '\0';
		lbl(l, sizeof l, "le", le);
		u(w, "ghc_gc_pause_duration_seconds_bucket", l, cum);
	}
	u(w, "ghc_gc_pause_duration_seconds_bucket", "le=\"+Inf\"", g.count);
	ns(w, "ghc_gc_pause_duration_seconds_sum", "", g.pause_total);
	u(w, "ghc_gc_pause_duration_seconds_count", "", g.count);
}

static void
metrics_heap(struct mw *w, const struct model *m)
{
	one_u(w, "ghc_heap_size_bytes", M_GAUGE,
	    "Heap size (the latest HEAP_SIZE).", m->heap.size);
	one_u(w, "ghc_heap_live_bytes", M_GAUGE,
	    "Live data after the latest collection (HEAP_LIVE).",
	    m->heap.live);
	one_u(w, "ghc_heap_blocks_bytes", M_GAUGE,
	    "Bytes in blocks in use (the latest BLOCKS_SIZE).",
	    m->heap.blocks);
	one_u(w, "ghc_heap_allocated_bytes", M_COUNTER,
	    "Bytes allocated, all capabilities.", m->heap.allocated);
	one_u(w, "ghc_heap_prof_censuses", M_COUNTER,
	    "Heap profile censuses (HEAP_PROF_SAMPLE_BEGIN).",
	    m->hprof.censuses);
	one_u(w, "ghc_heap_prof_samples", M_COUNTER,
	    "Heap profile samples, one per band and census.",
	    m->hprof.samples);
	one_u(w, "ghc_nonmoving_censuses", M_COUNTER,
	    "Nonmoving heap censuses.", m->nm.censuses);
}

static void
metrics_caps(struct mw *w, const struct model *m)
{
	static const char *const st[] = { "mutator", "gc", "idle" };
	struct model_util	 u1[MODEL_MAX_CAPS], ur[MODEL_MAX_CAPS];
	const struct model_cap	*c;
	char			 l[64], id[16];
	uint64_t		 v;
	int			 i, s;

	one_u(w, "ghc_capabilities", M_GAUGE,
	    "Capabilities seen (the highest number + 1).",
	    (uint64_t)m->prog.ncaps);
	for (i = 0; i < m->prog.ncaps; i++) {
		if ((c = m->caps[i]) == NULL)
			continue;
		model_cap_util(m, c, MODEL_WRUN, &ur[i]);
		model_cap_util(m, c, MODEL_W1, &u1[i]);
	}
	fam(w, "ghc_capability_seconds", M_COUNTER,
	    "Time each capability spent running Haskell, in GC, or idle.");
	for (i = 0; i < m->prog.ncaps; i++) {
		if (m->caps[i] == NULL)
			continue;
		snprintf(id, sizeof id, "%d", i);
		for (s = 0; s < 3; s++) {
			v = s == 0 ? ur[i].run_ns : s == 1 ? ur[i].gc_ns :
			    ur[i].idle_ns;
			l[0] = '\0';
			lbl(l, sizeof l, "cap", id);
			lbl(l, sizeof l, "state", st[s]);
			ns(w, "ghc_capability_seconds_total", l, v);
		}
	}
	fam(w, "ghc_capability_utilisation_ratio", M_GAUGE,
	    "Share of the last second each capability spent running "
	    "Haskell or in GC.");
	for (i = 0; i < m->prog.ncaps; i++) {
		if (m->caps[i] == NULL)
			continue;
		snprintf(id, sizeof id, "%d", i);
		for (s = 0; s < 2; s++) {
			l[0] = '\0';
			lbl(l, sizeof l, "cap", id);
			lbl(l, sizeof l, "state", st[s]);
			d(w, "ghc_capability_utilisation_ratio", l, s == 0 ?
			    u1[i].run : u1[i].gc);
		}
	}
}

static void
metrics_threads(struct mw *w, const struct model *m)
{
	static const struct { const char *name; int st; } states[] = {
		{ "running", MODEL_T_RUNNING },
		{ "runnable", MODEL_T_RUNNABLE },
		{ "blocked", MODEL_T_BLOCKED },
	};
	static const struct { const char *name; enum model_series s; } sp[] = {
		{ "created", MODEL_S_SPARKS_CREATED },
		{ "converted", MODEL_S_SPARKS_CONVERTED },
		{ "fizzled", MODEL_S_SPARKS_FIZZLED },
		{ "gcd", MODEL_S_SPARKS_GCD },
		{ "dud", MODEL_S_SPARKS_DUD },
		{ "overflowed", MODEL_S_SPARKS_OVERFLOWED },
	};
	char	l[64];
	size_t	i;

	fam(w, "ghc_threads", M_GAUGE, "Live Haskell threads by state.");
	for (i = 0; i < sizeof states / sizeof states[0]; i++) {
		l[0] = '\0';
		lbl(l, sizeof l, "state", states[i].name);
		u(w, "ghc_threads", l, m->threads.by_state[states[i].st]);
	}
	one_u(w, "ghc_threads_created", M_COUNTER, "Threads created.",
	    m->threads.created);
	one_u(w, "ghc_threads_finished", M_COUNTER, "Threads finished.",
	    m->threads.finished);
	fam(w, "ghc_sparks", M_COUNTER, "Sparks, by what became of them.");
	for (i = 0; i < sizeof sp / sizeof sp[0]; i++) {
		l[0] = '\0';
		lbl(l, sizeof l, "outcome", sp[i].name);
		u(w, "ghc_sparks_total", l, model_sum(m, sp[i].s,
		    MODEL_WRUN));
	}
}

static void
metrics_prof(struct mw *w, const struct model *m)
{
	static const char *const kinds[] = { "user", "marker", "log",
	    "binary" };
	uint64_t	v[4];
	char		l[64];
	int		i;

	one_u(w, "ghc_prof_samples", M_COUNTER,
	    "Time profiling samples (PROF_SAMPLE_COST_CENTRE).",
	    m->prof.samples_total);
	v[0] = m->msgs.user;
	v[1] = m->msgs.markers;
	v[2] = m->msgs.log;
	v[3] = m->msgs.binary;
	fam(w, "ghc_messages", M_COUNTER,
	    "Messages: user messages, markers, RTS log and binary messages.");
	for (i = 0; i < 4; i++) {
		l[0] = '\0';
		lbl(l, sizeof l, "kind", kinds[i]);
		u(w, "ghc_messages_total", l, v[i]);
	}
}

static const char *
metrics_kind(enum evtop_src_kind k)
{
	switch (k) {
	case EVTOP_SRC_FILE:	return "file";
	case EVTOP_SRC_STDIN:	return "stdin";
	case EVTOP_SRC_FIFO:	return "fifo";
	case EVTOP_SRC_UNIX:	return "unix";
	default:		return "tcp";
	}
}

static void
metrics_evtop(struct mw *w, const struct model *m,
    const struct evtop_status *st)
{
	const struct model_prog	*g = &m->prog;
	/* The source whole: a path, each byte U+FFFD at worst. */
	char			 l[3 * 4096 + 64], pid[16];

	fam(w, "ghc_program", M_INFO, "The program: its RTS and pid.");
	l[0] = '\0';
	lbl(l, sizeof l, "rts", g->rts_id);
	snprintf(pid, sizeof pid, "%u", g->pid);
	lbl(l, sizeof l, "pid", g->has_pid ? pid : "");
	u(w, "ghc_program_info", l, 1);
	one_ns(w, "ghc_eventlog_time_seconds", M_GAUGE,
	    "Event time reached: seconds since the program's RTS started.",
	    m->now);
	one_u(w, "evtop_late_events", M_COUNTER,
	    "Events applied after a later one had been (out of order).",
	    m->totals.late);
	one_u(w, "evtop_decode_errors", M_COUNTER,
	    "Errors decoding the eventlog.", m->totals.errors);
	one_u(w, "evtop_unknown_events", M_COUNTER,
	    "Events of a type evtop has no parser for.", m->totals.unknown);
	one_u(w, "evtop_sessions", M_COUNTER,
	    "Eventlog headers seen (a session each).", g->sessions);
	if (st == NULL)
		return;
	fam(w, "evtop_source", M_INFO, "Where evtop reads the eventlog.");
	l[0] = '\0';
	lbl(l, sizeof l, "source", st->source != NULL ? st->source : "");
	lbl(l, sizeof l, "kind", metrics_kind(st->kind));
	u(w, "evtop_source_info", l, 1);
	one_u(w, "evtop_source_up", M_GAUGE,
	    "1 while the source is connected (or being replayed).",
	    st->conn == EVTOP_CONN_OPEN);
	one_u(w, "evtop_source_bytes", M_COUNTER,
	    "Bytes read from the source.", st->bytes);
	one_u(w, "evtop_source_connections", M_COUNTER,
	    "Connections to the source that delivered data.",
	    st->connections);
	one_u(w, "evtop_source_reconnects", M_COUNTER,
	    "Connections to the source after the first.",
	    st->connections > 1 ? st->connections - 1 : 0);
}

static void
metrics_serve(struct mw *w, const struct relay_stats *r,
    const struct http_stats *h)
{
	char	l[64];

	if (r != NULL) {
		one_u(w, "evtop_relay_clients", M_GAUGE,
		    "Relay clients connected.", r->clients);
		one_u(w, "evtop_relay_clients_accepted", M_COUNTER,
		    "Relay clients accepted.", r->accepted);
		one_u(w, "evtop_relay_clients_dropped", M_COUNTER,
		    "Relay clients dropped for falling behind.", r->dropped);
		one_u(w, "evtop_relay_sent_bytes", M_COUNTER,
		    "Bytes written to relay clients.", r->bytes);
		fam(w, "evtop_relay_commands", M_COUNTER,
		    "Control commands from relay clients.");
		l[0] = '\0';
		lbl(l, sizeof l, "result", "forwarded");
		u(w, "evtop_relay_commands_total", l, r->commands);
		l[0] = '\0';
		lbl(l, sizeof l, "result", "refused");
		u(w, "evtop_relay_commands_total", l, r->refused);
	}
	if (h != NULL)
		one_u(w, "evtop_metrics_scrapes", M_COUNTER,
		    "Scrapes answered before this one.", h->scrapes > 0 ?
		    h->scrapes - 1 : 0);
}

void
metrics_write(FILE *f, int om, const struct model *m,
    const struct evtop_status *st, const struct relay_stats *r,
    const struct http_stats *h)
{
	struct mw	w = { f, om };

	metrics_events(&w, m);
	metrics_gc(&w, m);
	metrics_heap(&w, m);
	metrics_caps(&w, m);
	metrics_threads(&w, m);
	metrics_prof(&w, m);
	metrics_evtop(&w, m, st);
	metrics_serve(&w, r, h);
	if (om)
		fputs("# EOF\n", f);
}
