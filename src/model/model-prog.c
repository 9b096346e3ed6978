/*
 * model-prog.c: the program (its identity, arguments, capsets, wall
 * clock) and its heap (sizes, allocation, the RTS's heap figures), from
 * their events.
 */
#include <stdlib.h>
#include <string.h>

#include "model/model-priv.h"

/* The GHC version of the RTS identifier, "GHC-9.6.6 rts_thr_p": "9.6.6". */
static void
prog_ghc(struct model_prog *g)
{
	size_t	n = 0;

	g->ghc[0] = '\0';
	if (strncmp(g->rts_id, "GHC-", 4) != 0)
		return;
	while (n + 1 < sizeof g->ghc && g->rts_id[4 + n] != '\0' &&
	    g->rts_id[4 + n] != ' ')
		n++;
	memcpy(g->ghc, g->rts_id + 4, n);
	g->ghc[n] = '\0';
}

/*
 * The heap profiling options among the program's arguments (NUL-separated,
 * n bytes): -hX between +RTS and -RTS (or the end), the last one winning,
 * and --no-automatic-heap-samples.  -h alone is -hc in a profiled RTS and
 * -hT in any other.
 */
static void
prog_rts_opts(struct model_prog *g, const char *a, size_t n)
{
	/* Breakdowns 1.. by letter; -hC is GHC 8's -hc. */
	static const char letters[] = "cmdyrbTieC";
	const char	*w, *end = a + n, *l;
	size_t		 len;
	int		 rts = 0;

#define WORD_IS(s)	(len == sizeof(s) - 1 && memcmp(w, s, len) == 0)
	g->hp_opt_breakdown = 0;
	g->hp_opt_manual = 0;
	for (w = a; w < end; w += len + 1) {
		len = strnlen(w, (size_t)(end - w));
		if (WORD_IS("+RTS"))
			rts = 1;
		else if (WORD_IS("-RTS") || WORD_IS("--RTS"))
			rts = 0;
		else if (!rts)
			continue;
		else if (WORD_IS("--no-automatic-heap-samples"))
			g->hp_opt_manual = 1;
		else if (WORD_IS("-h"))
			g->hp_opt_breakdown = strstr(g->rts_id, "_p") != NULL ?
			    1 : 7;
		else if (len >= 3 && w[0] == '-' && w[1] == 'h' &&
		    (l = memchr(letters, w[2], sizeof letters - 1)) != NULL)
			g->hp_opt_breakdown = l[0] == 'C' ? 1 :
			    (uint32_t)(l - letters) + 1;
	}
#undef WORD_IS
}

void
model_prog_event(struct model *m, const struct proto_ev *ev)
{
	struct model_priv	*p = m->p;
	struct model_prog	*g = &m->prog;
	char			 tmp[sizeof g->args];
	size_t			 n, i, k;
	static const char *const fnames[7] = {
		"module", "closure", "type", "cc", "ccs", "retainer", "bio"
	};

	switch (ev->kind) {
	case PROTO_RTS_IDENTIFIER:
		model_copy_text(g->rts_id, sizeof g->rts_id,
		    ev->u.capset_str.s.p, ev->u.capset_str.s.len);
		prog_ghc(g);
		p->sess_rts = 1;
		break;
	case PROTO_PROGRAM_ARGS:
		n = ev->u.capset_str.s.len;
		if (n > sizeof tmp)
			n = sizeof tmp;
		memcpy(tmp, ev->u.capset_str.s.p, n);
		while (n > 0 && tmp[n - 1] == '\0')
			n--;
		prog_rts_opts(g, tmp, n);
		for (i = 0; i < n; i++)
			if (tmp[i] == '\0')
				tmp[i] = ' ';
		model_copy_text(g->args, sizeof g->args, tmp, n);
		p->sess_args = 1;
		break;
	case PROTO_OSPROCESS_PID:
		/* (model.c has decided whether it is another program.) */
		p->sess_new = p->sess_pid = 0;
		g->pid = ev->u.pid.pid;
		g->has_pid = 1;
		break;
	case PROTO_OSPROCESS_PPID:
		g->ppid = ev->u.pid.pid;
		g->has_ppid = 1;
		break;
	case PROTO_WALL_CLOCK_TIME:
		g->has_wall = 1;
		g->wall_ns = ev->u.wall.sec * SEC_NS + ev->u.wall.nsec;
		g->wall_at = ev->time;
		break;
	case PROTO_HEAP_INFO_GHC:
		g->has_heap_info = 1;
		g->gens = ev->u.heap_info.gens;
		g->max_heap = ev->u.heap_info.max_heap;
		g->alloc_area = ev->u.heap_info.alloc_area;
		g->mblock = ev->u.heap_info.mblock;
		g->block = ev->u.heap_info.block;
		break;
	case PROTO_PROF_BEGIN:
		g->prof = 1;
		g->tick_ns = ev->u.prof_begin.interval;
		break;
	case PROTO_HEAP_PROF_BEGIN:
		g->heap_prof = 1;
		g->breakdown = ev->u.heap_prof_begin.breakdown;
		g->hp_interval = ev->u.heap_prof_begin.period;
		k = 0;
		g->hp_filters[0] = '\0';
		for (i = 0; i < 7; i++) {
			const struct proto_str *f =
			    &ev->u.heap_prof_begin.filter[i];
			int w;

			if (f->len == 0 || k + 16 >= sizeof g->hp_filters)
				continue;
			w = snprintf(g->hp_filters + k,
			    sizeof g->hp_filters - k, "%s%s=", k ? " " : "",
			    fnames[i]);
			if (w < 0)
				break;
			k += (size_t)w;
			model_copy_text(g->hp_filters + k,
			    sizeof g->hp_filters - k, f->p, f->len);
			k += strlen(g->hp_filters + k);
		}
		break;
	}
}

/* HEAP_ALLOCATED, frequent: apply_one() calls it directly. */
void
model_heap_allocated(struct model *m, struct mcap *c, const struct proto_ev *ev)
{
	struct model_priv	*p = m->p;
	uint64_t		 b = ev->u.heap.bytes, d, *last;
	uint8_t			*has;
	unsigned		 i;

	/* Cumulative per cap (the RTS posts each cap's own count), or per
	 * capset for events without a cap. */
	if (c != NULL) {
		last = &c->alloc_last;
		has = &c->alloc_has;
	} else {
		i = ev->u.heap.capset & 7;
		if (p->alloc_set[i] != ev->u.heap.capset)
			p->alloc_has[i] = 0;
		p->alloc_set[i] = ev->u.heap.capset;
		last = &p->alloc_last[i];
		has = &p->alloc_has[i];
	}
	if (*has) {
		d = b >= *last ? b - *last : b;
		model_count(m, MODEL_S_ALLOC, ev->time, d);
	} else
		d = b;	/* since the start: no rate from it */
	m->heap.allocated += d;
	*has = 1;
	*last = b;
}

void
model_heap_event(struct model *m, struct mcap *c, const struct proto_ev *ev)
{
	struct model_priv	*p = m->p;
	struct model_heap	*h = &m->heap;
	uint64_t		 b = ev->u.heap.bytes;

	switch (ev->kind) {
	case PROTO_HEAP_SIZE:
		h->size = b;
		if (b > h->size_max)
			h->size_max = b;
		model_gauge(m, MODEL_S_HEAP_SIZE, b);
		break;
	case PROTO_HEAP_LIVE:
		h->live = b;
		if (b > h->live_max)
			h->live_max = b;
		model_gauge(m, MODEL_S_HEAP_LIVE, b);
		/* The live bytes of the latest collection: the GC leader
		 * posts them after its own GC_END, before or after the other
		 * caps' (stat_endGC).  Open, it is p->open; ended, the
		 * record gcseq. */
		if (p->coll_open)
			p->open.live = b;
		else if (p->live_pending) {
			p->gcrec[p->gcseq % MODEL_NGCREC].live = b;
			p->live_pending = 0;
		}
		break;
	case PROTO_BLOCKS_SIZE:
		h->blocks = b;
		model_gauge(m, MODEL_S_BLOCKS_SIZE, b);
		break;
	case PROTO_MEM_RETURN:
		h->mr_events++;
		h->mr_current = ev->u.mem_return.current;
		h->mr_needed = ev->u.mem_return.needed;
		h->mr_returned = ev->u.mem_return.returned;
		h->mr_returned_total += ev->u.mem_return.returned;
		break;
	}
}
