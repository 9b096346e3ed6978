/*
 * export.c: profiles out, from what the model holds (never the file
 * again): the time profile as folded stacks (flamegraph.pl, speedscope
 * and the rest read them) and as a speedscope file, the heap profile as
 * GHC's .hp text (hp2ps, eventlog2html).  --folded, --speedscope and --hp
 * write the whole run when evtop or its source ends; the TUI's export key
 * writes the window on screen.  Every file is written beside its name and
 * renamed into place, so that a reader never sees half of one; what is
 * not a regular file (a FIFO, a device) is written in place.  When
 * another program replaces the one watched (a FIFO's next writer), the
 * one that ended is written at once beside each path, with its number:
 * app.1.hp (export_program()); the last goes to the path itself.
 *
 * Frames are named as the cost-centre pane names them (Module.label; with
 * the source location after it where two share a name), bands as the heap
 * pane does, through export_band_name().  Each path is checked at
 * start-up (export_check()), so that a typo does not lose a live run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "evtop.h"
#include "model/model.h"

#define EXPORT_NAME_LEN	400	/* a frame's or band's name */

enum export_kind {
	EXPORT_FOLDED,
	EXPORT_SPEEDSCOPE,
	EXPORT_HP,
	EXPORT_NKINDS
};

static const char *const export_ext[EXPORT_NKINDS] = {
	".folded", ".speedscope.json", ".hp",
};

static void *
export_grow(void *p, size_t *alloc, size_t want, size_t size)
{
	size_t	 n = *alloc;

	if (want <= n)
		return p;
	while (n < want)
		n = n < 64 ? 64 : 2 * n;
	if ((p = realloc(p, n * size)) == NULL) {
		fprintf(stderr, "evtop: out of memory\n");
		abort();
	}
	*alloc = n;
	return p;
}

/* A frame's name: "Module.label" as the cost-centre pane shows it. */
static const char *
export_cc_name(const struct model *m, uint32_t id, char *buf, size_t len)
{
	const struct model_cc	*cc = model_cc_find(m, id);

	if (cc == NULL || !cc->defined)
		snprintf(buf, len, "#%u", id);
	else if (cc->module[0] != '\0')
		snprintf(buf, len, "%s.%s", cc->module, cc->label);
	else
		snprintf(buf, len, "%s", cc->label);
	return buf;
}

/*
 * The one place a band's name comes from for the .hp file: the heap
 * pane's (model_band_title: a -hi band by its IPE entry).
 */
const char *
export_band_name(const struct model *m, const struct model_band *band,
    char *buf, size_t len)
{
	model_band_title(m, band, buf, len);
	return buf;
}

/* ------------------------------------------------------------------ */
/*
 * The stacks of a window, gathered once for both time-profile formats,
 * and their frames: every cost centre in them, by id, with the name both
 * files give it.  Two cost centres of the same name (two lambdas "\" of a
 * module) are told apart by their source location, as speedscope's
 * frames are by their file and line; a folded line is the same text for
 * stacks still alike (';' in a name is ':' there), so those are summed.
 */

struct export_frame {
	uint32_t	 id;
	uint32_t	 rank;		/* of its folded text; alike, alike */
	size_t		 name;		/* offset in export_stacks.names */
	const char	*loc;		/* its source location, or "" */
};

struct export_stack {
	const uint32_t	*ids;		/* innermost first; the model's */
	uint32_t	 depth;
	uint64_t	 samples;
	size_t		 cap0;		/* its caps: caps[cap0 .. cap0+ncap) */
	int		 ncap;
	const struct export_stacks *xs;	/* for export_stack_cmp() */
};

struct export_stacks {
	struct export_stack *s;
	size_t		 n, alloc;
	struct model_stack_cap *caps;
	size_t		 ncaps, caps_alloc;
	uint64_t	 samples;
	struct export_frame *f;		/* by id */
	size_t		 nf, f_alloc;
	char		*names;
	size_t		 names_len, names_alloc;
};

static void
export_stack_add(void *arg, const struct model_stack_row *r,
    const struct model_stack_cap *caps, int ncap)
{
	struct export_stacks	*xs = arg;
	struct export_stack	*s;

	xs->s = export_grow(xs->s, &xs->alloc, xs->n + 1, sizeof *xs->s);
	xs->caps = export_grow(xs->caps, &xs->caps_alloc,
	    xs->ncaps + (size_t)ncap, sizeof *xs->caps);
	s = &xs->s[xs->n++];
	s->ids = r->ids;
	s->depth = r->depth;
	s->samples = r->samples;
	s->cap0 = xs->ncaps;
	s->ncap = ncap;
	s->xs = xs;
	memcpy(xs->caps + xs->ncaps, caps, (size_t)ncap * sizeof *caps);
	xs->ncaps += (size_t)ncap;
	xs->samples += r->samples;
}

static int
export_u32_cmp(const void *a, const void *b)
{
	uint32_t	x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* The frame of id (there is one for every id in a stack). */
static const struct export_frame *
export_frame_of(const struct export_stacks *xs, uint32_t id)
{
	return bsearch(&id, xs->f, xs->nf, sizeof *xs->f, export_u32_cmp);
}

static const char *
export_frame_name(const struct export_stacks *xs,
    const struct export_frame *f)
{
	return xs->names + f->name;
}

static void
export_name_add(struct export_stacks *xs, struct export_frame *f,
    const char *name, const char *loc)
{
	size_t	n = strlen(name) + 1, l = loc[0] != '\0' ? strlen(loc) + 3 : 0;

	xs->names = export_grow(xs->names, &xs->names_alloc,
	    xs->names_len + n + l, 1);
	f->name = xs->names_len;
	if (l > 0)
		snprintf(xs->names + f->name, n + l, "%s (%s)", name, loc);
	else
		memcpy(xs->names + f->name, name, n);
	xs->names_len += n + l;
}

/* Two names as folded writes them: ';' there is ':'. */
static int
export_folded_cmp(const char *a, const char *b)
{
	for (; *a != '\0' && (*a == *b || (*a == ';' && *b == ':') ||
	    (*a == ':' && *b == ';')); a++, b++)
		;
	return (unsigned char)(*a == ';' ? ':' : *a) -
	    (unsigned char)(*b == ';' ? ':' : *b);
}

struct export_byname {
	const char	*name;
	struct export_frame *f;
};

static int
export_byname_cmp(const void *a, const void *b)
{
	const struct export_byname *x = a, *y = b;
	int			 c = export_folded_cmp(x->name, y->name);

	return c != 0 ? c : export_u32_cmp(&x->f->id, &y->f->id);
}

/* Names sorted into by, by[i].name from the frames' names. */
static void
export_by_name(struct export_stacks *xs, struct export_byname *by)
{
	size_t	i;

	for (i = 0; i < xs->nf; i++) {
		by[i].f = &xs->f[i];
		by[i].name = xs->names + xs->f[i].name;
	}
	qsort(by, xs->nf, sizeof *by, export_byname_cmp);
}

/*
 * The frames' names: "Module.label", and its source location after it
 * where another frame has the same name; then their ranks.
 */
static void
export_frames_name(const struct model *m, struct export_stacks *xs)
{
	struct export_byname	*by;
	const struct model_cc	*cc;
	char			 name[EXPORT_NAME_LEN];
	uint8_t			*same;
	size_t			 i, alloc = 0;
	uint32_t		 rank = 0;

	by = export_grow(NULL, &alloc, xs->nf + 1, sizeof *by);
	same = calloc(xs->nf + 1, 1);
	if (same == NULL) {
		fprintf(stderr, "evtop: out of memory\n");
		abort();
	}
	for (i = 0; i < xs->nf; i++) {
		cc = model_cc_find(m, xs->f[i].id);
		xs->f[i].loc = cc != NULL && cc->defined ? cc->srcloc : "";
		export_name_add(xs, &xs->f[i], export_cc_name(m, xs->f[i].id,
		    name, sizeof name), "");
	}
	export_by_name(xs, by);
	for (i = 1; i < xs->nf; i++) {
		if (export_folded_cmp(by[i - 1].name, by[i].name) == 0)
			same[by[i - 1].f - xs->f] = same[by[i].f - xs->f] = 1;
	}
	for (i = 0; i < xs->nf; i++) {
		if (same[i])
			export_name_add(xs, &xs->f[i], export_cc_name(m,
			    xs->f[i].id, name, sizeof name), xs->f[i].loc);
	}
	export_by_name(xs, by);
	for (i = 0; i < xs->nf; i++) {
		if (i > 0 && export_folded_cmp(by[i - 1].name,
		    by[i].name) != 0)
			rank++;
		by[i].f->rank = rank;
	}
	free(same);
	free(by);
}

/* The frames: every cost centre in a stack, by id. */
static void
export_frames_get(const struct model *m, struct export_stacks *xs)
{
	size_t	i, j;
	uint32_t k;

	for (i = 0; i < xs->n; i++) {
		xs->f = export_grow(xs->f, &xs->f_alloc,
		    xs->nf + xs->s[i].depth, sizeof *xs->f);
		for (k = 0; k < xs->s[i].depth; k++)
			xs->f[xs->nf++].id = xs->s[i].ids[k];
	}
	if (xs->nf > 0)
		qsort(xs->f, xs->nf, sizeof *xs->f, export_u32_cmp);
	for (i = j = 0; i < xs->nf; i++) {
		if (j == 0 || xs->f[j - 1].id != xs->f[i].id)
			xs->f[j++] = xs->f[i];
	}
	xs->nf = j;
	export_frames_name(m, xs);
}

/* Root first, as the files list them: compare from the outermost frame,
 * by the ranks of their names. */
static int
export_stack_cmp(const void *a, const void *b)
{
	const struct export_stack *x = a, *y = b;
	uint32_t		 i, p, q;

	for (i = 0; i < x->depth && i < y->depth; i++) {
		p = export_frame_of(x->xs, x->ids[x->depth - 1 - i])->rank;
		q = export_frame_of(y->xs, y->ids[y->depth - 1 - i])->rank;
		if (p != q)
			return p < q ? -1 : 1;
	}
	return x->depth < y->depth ? -1 : x->depth > y->depth;
}

static void
export_stacks_get(const struct model *m, int win, struct export_stacks *xs)
{
	memset(xs, 0, sizeof *xs);
	model_hist_stacks(m, (enum model_win)win, export_stack_add, xs);
	export_frames_get(m, xs);
	if (xs->n > 1)
		qsort(xs->s, xs->n, sizeof *xs->s, export_stack_cmp);
}

static void
export_stacks_free(struct export_stacks *xs)
{
	free(xs->s);
	free(xs->caps);
	free(xs->f);
	free(xs->names);
}

/* ------------------------------------------------------------------ */
/* Folded stacks: "root;...;leaf count", one line per stack. */

static void
export_folded_frame(FILE *f, const char *name)
{
	/* ';' separates frames: one inside a name would split it. */
	for (; *name != '\0'; name++)
		fputc(*name == ';' ? ':' : *name, f);
}

static int
export_folded(const struct model *m, int win, FILE *f)
{
	struct export_stacks	 xs;
	const struct export_stack *s;
	uint64_t		 n;
	size_t			 i;
	uint32_t		 k;

	export_stacks_get(m, win, &xs);
	for (i = 0; i < xs.n; i++) {
		s = &xs.s[i];
		/* Stacks written alike are one line: their samples summed. */
		for (n = s->samples; i + 1 < xs.n &&
		    export_stack_cmp(s, &xs.s[i + 1]) == 0; i++)
			n += xs.s[i + 1].samples;
		if (s->depth == 0)
			fputs(MODEL_MAIN_STACK, f);
		for (k = s->depth; k > 0; k--) {
			export_folded_frame(f, export_frame_name(&xs,
			    export_frame_of(&xs, s->ids[k - 1])));
			if (k > 1)
				fputc(';', f);
		}
		fprintf(f, " %llu\n", (unsigned long long)n);
	}
	export_stacks_free(&xs);
	return 0;
}

/* ------------------------------------------------------------------ */
/* speedscope's file format (file-format-schema.json): shared frames and
 * "sampled" profiles, all capabilities first, then one per capability. */

static void
export_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s != '\0'; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/*
 * The file and line of a GHC source location: "F:L:C-C", "F:L:C" or
 * "F:(L,C)-(L,C)"; 0 if it has none ("<built-in>", "<entire-module>").
 */
static int
export_srcloc(const char *loc, char *file, size_t len, unsigned long *line,
    unsigned long *col)
{
	const char	*p, *q;
	char		*end;
	size_t		 n;

	if (loc[0] == '\0' || loc[0] == '<')
		return 0;
	if ((p = strstr(loc, ":(")) != NULL) {
		*line = strtoul(p + 2, &end, 10);
		if (end == p + 2 || *end != ',')
			return 0;
		*col = strtoul(end + 1, NULL, 10);
	} else {
		/* The last two ':' before the column. */
		if ((q = strrchr(loc, ':')) == NULL || q == loc)
			return 0;
		for (p = q - 1; p > loc && *p != ':'; p--)
			;
		if (*p != ':')
			return 0;
		*line = strtoul(p + 1, &end, 10);
		if (end == p + 1 || end != q)
			return 0;
		*col = strtoul(q + 1, &end, 10);
		if (end == q + 1)
			return 0;
	}
	n = (size_t)(p - loc);
	if (n == 0 || n >= len)
		return 0;
	memcpy(file, loc, n);
	file[n] = '\0';
	return 1;
}

/* A profile: every stack (cap < 0) or those sampled on cap. */
static void
export_ss_profile(FILE *f, const struct export_stacks *xs, int cap,
    uint64_t tick, const char *name)
{
	const struct export_stack *s;
	uint64_t		 w, end = 0;
	uint32_t		 k;
	size_t			 i;
	int			 c, first = 1;

	fputs("{\"type\":\"sampled\",\"name\":", f);
	export_json_str(f, name);
	fprintf(f, ",\"unit\":\"%s\",\"startValue\":0,\"samples\":[",
	    tick > 0 ? "nanoseconds" : "none");
	for (i = 0; i < xs->n; i++) {
		s = &xs->s[i];
		if (cap >= 0) {
			for (c = 0; c < s->ncap &&
			    xs->caps[s->cap0 + c].cap != (uint32_t)cap; c++)
				;
			if (c == s->ncap)
				continue;
		}
		fputs(first ? "[" : ",[", f);
		first = 0;
		if (s->depth == 0)
			fprintf(f, "%zu", xs->nf);	/* MODEL_MAIN_STACK */
		for (k = s->depth; k > 0; k--)
			fprintf(f, "%zu%s", (size_t)(export_frame_of(xs,
			    s->ids[k - 1]) - xs->f), k > 1 ? "," : "");
		fputc(']', f);
	}
	fputs("],\"weights\":[", f);
	first = 1;
	for (i = 0; i < xs->n; i++) {
		s = &xs->s[i];
		w = s->samples;
		if (cap >= 0) {
			for (c = 0; c < s->ncap &&
			    xs->caps[s->cap0 + c].cap != (uint32_t)cap; c++)
				;
			if (c == s->ncap)
				continue;
			w = xs->caps[s->cap0 + c].samples;
		}
		if (tick > 0)
			w *= tick;
		end += w;
		fprintf(f, "%s%llu", first ? "" : ",", (unsigned long long)w);
		first = 0;
	}
	fprintf(f, "],\"endValue\":%llu}", (unsigned long long)end);
}

static int
export_speedscope(const struct model *m, int win, const char *title,
    FILE *f)
{
	struct export_stacks	 xs;
	uint32_t		*caps = NULL;
	size_t			 ncaps = 0, calloc_ = 0;
	size_t			 i, j, k;
	unsigned long		 line, col;
	char			 name[EXPORT_NAME_LEN], file[EXPORT_NAME_LEN];
	int			 any_empty = 0;

	export_stacks_get(m, win, &xs);
	/* The capabilities of the stacks, each once. */
	for (i = 0; i < xs.n; i++) {
		any_empty |= xs.s[i].depth == 0;
		caps = export_grow(caps, &calloc_, ncaps +
		    (size_t)xs.s[i].ncap, sizeof *caps);
		for (k = 0; k < (size_t)xs.s[i].ncap; k++)
			caps[ncaps++] = xs.caps[xs.s[i].cap0 + k].cap;
	}
	if (ncaps > 0)
		qsort(caps, ncaps, sizeof *caps, export_u32_cmp);
	for (i = j = 0; i < ncaps; i++) {
		if (j == 0 || caps[j - 1] != caps[i])
			caps[j++] = caps[i];
	}
	ncaps = j;

	fputs("{\"$schema\":\"https://www.speedscope.app/"
	    "file-format-schema.json\",\"exporter\":\"evtop\",\"name\":", f);
	export_json_str(f, title);
	fputs(",\"activeProfileIndex\":0,\"shared\":{\"frames\":[", f);
	for (i = 0; i < xs.nf; i++) {
		fputs(i > 0 ? ",{\"name\":" : "{\"name\":", f);
		export_json_str(f, export_frame_name(&xs, &xs.f[i]));
		if (export_srcloc(xs.f[i].loc, file, sizeof file, &line,
		    &col)) {
			fputs(",\"file\":", f);
			export_json_str(f, file);
			fprintf(f, ",\"line\":%lu,\"col\":%lu", line, col);
		}
		fputc('}', f);
	}
	if (any_empty)
		fprintf(f, "%s{\"name\":\"" MODEL_MAIN_STACK "\"}",
		    xs.nf > 0 ? "," : "");
	fputs("]},\"profiles\":[", f);
	export_ss_profile(f, &xs, -1, m->prog.tick_ns, "all capabilities");
	for (i = 0; i < ncaps; i++) {
		snprintf(name, sizeof name, "capability %u", caps[i]);
		fputc(',', f);
		export_ss_profile(f, &xs, (int)caps[i], m->prog.tick_ns, name);
	}
	fputs("]}\n", f);
	free(caps);
	export_stacks_free(&xs);
	return 0;
}

/* ------------------------------------------------------------------ */
/* The .hp file, as GHC writes it and hp2ps reads it. */

struct export_hp {
	const struct model *m;
	FILE		*f;
	uint64_t	 evicted;	/* bytes of bands gone from the table */
};

static void
export_hp_begin(void *arg, const struct model_census *c)
{
	struct export_hp	*x = arg;

	x->evicted = 0;
	fprintf(x->f, "BEGIN_SAMPLE %.6f\n", (double)c->start / 1e9);
}

static void
export_hp_band(void *arg, const struct model_band *b, uint64_t bytes)
{
	struct export_hp	*x = arg;
	char			 name[EXPORT_NAME_LEN], *p;

	if (b == NULL) {
		x->evicted += bytes;
		return;
	}
	export_band_name(x->m, b, name, sizeof name);
	/* hp2ps reads a name up to white space. */
	for (p = name; *p != '\0'; p++) {
		if (*p == ' ' || *p == '\t')
			*p = '_';
	}
	fprintf(x->f, "%s\t%llu\n", name[0] != '\0' ? name : "(none)",
	    (unsigned long long)bytes);
}

static void
export_hp_end(void *arg, const struct model_census *c)
{
	struct export_hp	*x = arg;

	if (x->evicted > 0)
		fprintf(x->f, "(evicted)\t%llu\n",
		    (unsigned long long)x->evicted);
	fprintf(x->f, "END_SAMPLE %.6f\n", (double)(c->end > c->start ?
	    c->end : c->start) / 1e9);
}

static void
export_hp_nop(void *arg, const struct model_census *c)
{
	(void)arg;
	(void)c;
}

static void
export_hp_nop_band(void *arg, const struct model_band *b, uint64_t n)
{
	(void)arg;
	(void)b;
	(void)n;
}

/* Censuses of the window that the history holds. */
static uint64_t
export_hp_count(const struct model *m, int win)
{
	static const struct model_hist_visit v = {
		export_hp_nop, export_hp_nop_band, export_hp_nop,
	};

	return model_hist_censuses(m, model_win_start(m, (enum model_win)win),
	    &v, NULL);
}

/*
 * No census: the empty first and last samples the RTS always writes
 * (hp2ps refuses a file with no sample), at the start and at the newest
 * event.
 */
static void
export_hp_empty(const struct model *m, FILE *f)
{
	double	end = (double)m->now / 1e9;

	fprintf(f, "BEGIN_SAMPLE 0.00\nEND_SAMPLE 0.00\n"
	    "BEGIN_SAMPLE %.6f\nEND_SAMPLE %.6f\n", end, end);
}

static int
export_hp(const struct model *m, int win, uint64_t wall_ns, FILE *f)
{
	static const struct model_hist_visit v = {
		export_hp_begin, export_hp_band, export_hp_end,
	};
	struct export_hp	 x = { m, f, 0 };
	struct model_hist_info	 hi;
	struct tm		 tm;
	time_t			 t;
	char			 date[64];
	const char		*s;

	/* The program's start if the stream said when, else now. */
	if (m->prog.has_wall && m->prog.wall_at >= m->prog.start)
		wall_ns = m->prog.wall_ns - (m->prog.wall_at - m->prog.start);
	t = (time_t)(wall_ns / 1000000000ULL);
	if (localtime_r(&t, &tm) == NULL ||
	    strftime(date, sizeof date, "%a %b %d %H:%M %Y", &tm) == 0)
		snprintf(date, sizeof date, "?");
	fputs("JOB \"", f);
	for (s = m->prog.args[0] != '\0' ? m->prog.args : "evtop"; *s != '\0';
	    s++)
		fputc(*s == '"' ? '\'' : *s, f);
	/* Say so when the history no longer holds the whole run. */
	model_hist_info(m, &hi);
	if (hi.dropped > 0 && win == MODEL_WRUN)
		fprintf(f, " (evtop: the last %llu censuses of %llu)",
		    (unsigned long long)hi.censuses,
		    (unsigned long long)(hi.censuses + hi.dropped));
	fprintf(f, "\"\nDATE \"%s\"\nSAMPLE_UNIT \"seconds\"\n"
	    "VALUE_UNIT \"bytes\"\n", date);
	if (model_hist_censuses(m, model_win_start(m, (enum model_win)win),
	    &v, &x) == 0)
		export_hp_empty(m, f);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Files. */

static int
export_write(const struct model *m, enum export_kind k, int win,
    uint64_t wall_ns, const char *title, FILE *f)
{
	switch (k) {
	case EXPORT_FOLDED:
		return export_folded(m, win, f);
	case EXPORT_SPEEDSCOPE:
		return export_speedscope(m, win, title, f);
	default:
		return export_hp(m, win, wall_ns, f);
	}
}

/* The profile into f, then f closed (synced first, with sync): 0 or an
 * errno. */
static int
export_close(const struct model *m, enum export_kind k, int win,
    uint64_t wall_ns, const char *title, FILE *f, int sync)
{
	int	err = 0;

	export_write(m, k, win, wall_ns, title, f);
	if (fflush(f) != 0 || ferror(f) || (sync && fsync(fileno(f)) != 0))
		err = errno != 0 ? errno : EIO;
	if (fclose(f) != 0 && err == 0)
		err = errno;
	return err;
}

/* Write path whole or not at all: a temporary file beside it, renamed
 * over it ("-": standard output; what is not a regular file, in place). */
static int
export_file(const struct model *m, enum export_kind k, int win,
    uint64_t wall_ns, const char *title, const char *path, char **cause)
{
	struct stat	 sb;
	char		*tmp;
	FILE		*f;
	int		 fd, err = 0;

	if (strcmp(path, "-") == 0) {
		export_write(m, k, win, wall_ns, title, stdout);
		if (fflush(stdout) != 0 || ferror(stdout)) {
			if (asprintf(cause, "standard output: %s",
			    strerror(errno)) < 0)
				*cause = NULL;
			return -1;
		}
		return 0;
	}
	/* A device, a FIFO, /dev/stdout, a shell's >(...): written in place.
	 * A temporary file renamed over it would replace it (or could not
	 * be made beside it). */
	if (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode)) {
		tmp = NULL;
		if ((f = fopen(path, "w")) == NULL)
			err = errno;
		else
			err = export_close(m, k, win, wall_ns, title, f, 0);
		if (err == 0)
			return 0;
		goto fail;
	}
	if (asprintf(&tmp, "%s.tmpXXXXXX", path) < 0) {
		*cause = NULL;
		return -1;
	}
	if ((fd = mkstemp(tmp)) == -1 || (f = fdopen(fd, "w")) == NULL) {
		err = errno;
		if (fd != -1) {
			close(fd);
			unlink(tmp);
		}
		goto fail;
	}
	err = export_close(m, k, win, wall_ns, title, f, 1);
	/* mkstemp makes 0600; a profile is as readable as any output. */
	if (err == 0) {
		mode_t	mask = umask(0);

		umask(mask);
		chmod(tmp, 0666 & ~mask);
	}
	if (err == 0 && rename(tmp, path) != 0)
		err = errno;
	if (err != 0) {
		unlink(tmp);
		goto fail;
	}
	free(tmp);
	return 0;
fail:
	free(tmp);
	if (asprintf(cause, "%s: %s", path, strerror(err)) < 0)
		*cause = NULL;
	return -1;
}

static uint64_t
export_wall(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* "prog" of "./dir/prog args", for titles and file names. */
static void
export_prog(const struct model *m, char *buf, size_t len)
{
	const char	*a = m->prog.args, *s, *e;
	size_t		 n = 0;

	e = a + strcspn(a, " ");
	for (s = e; s > a && s[-1] != '/'; s--)
		;
	for (; s < e && n + 1 < len && n < 40; s++) {
		/* Only what a file name takes without quoting. */
		if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		    (*s >= '0' && *s <= '9') || *s == '.' || *s == '_' ||
		    *s == '-')
			buf[n++] = *s;
	}
	if (n == 0 || buf[0] == '.')
		n = (size_t)snprintf(buf, len, "evtop");
	buf[n] = '\0';
}

/* The warning for an .hp with no census (hp2ps draws it empty), in buf;
 * "" if it has some. */
static void
export_no_census(const struct model *m, const char *path, char *buf,
    size_t len)
{
	buf[0] = '\0';
	if (export_hp_count(m, MODEL_WRUN) == 0)
		snprintf(buf, len, "%s: no heap census came (the program "
		    "ran without +RTS -h, or heap profiling was never "
		    "started): a profile with no bands written",
		    strcmp(path, "-") == 0 ? "standard output" : path);
}

/* Written in place (standard output, a FIFO, a device): there is no
 * name beside it for another program's profile. */
static int
export_in_place(const char *path)
{
	struct stat	sb;

	return strcmp(path, "-") == 0 ||
	    (stat(path, &sb) == 0 && !S_ISREG(sb.st_mode));
}

/* path with a program's number before its extension: "app.hp" is
 * "app.2.hp", "prof" "prof.2".  0, or -1 if it does not fit. */
static int
export_numbered(char *buf, size_t len, const char *path, uint64_t no)
{
	const char	*base = strrchr(path, '/'), *dot;
	int		 n;

	base = base != NULL ? base + 1 : path;
	if ((dot = strrchr(base, '.')) == NULL || dot == base)
		dot = base + strlen(base);
	n = snprintf(buf, len, "%.*s.%llu%s", (int)(dot - path), path,
	    (unsigned long long)no, dot);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* A line about a program's export: on stderr now (--batch), else kept
 * for the end (the TUI says it once the terminal is back). */
static void
export_say(struct export_progs *xp, const char *line, int failed)
{
	size_t	n = strlen(xp->said);

	/* The header: once one failed, only failures (which need seeing). */
	if (xp->msg != NULL && (failed || xp->failed == 0))
		snprintf(xp->msg, xp->len, "%s", line);
	if (failed)
		xp->failed++;
	if (xp->err != NULL) {
		fprintf(xp->err, "evtop: %s\n", line);
		return;
	}
	snprintf(xp->said + n, sizeof xp->said - n, "evtop: %s\n", line);
}

/*
 * A model_on_program() function: the program m holds ends, another
 * begins.  Its profiles, the whole of its run, go beside each export's
 * path with its number (1 the first program): app.1.hp; what is written
 * in place (standard output, a FIFO) gets only the last program's.
 * What was written, or why not, in xp->msg (the TUI's header).
 */
void
export_program(void *arg, const struct model *m)
{
	struct export_progs	*xp = arg;
	const struct evtop_opts	*o = xp->o;
	const char		*path[EXPORT_NKINDS] = { o->folded,
				    o->speedscope, o->hp };
	static const char *const opt[EXPORT_NKINDS] = { "--folded",
				    "--speedscope", "--hp" };
	uint64_t		 no = m->prog.resets + 1, now = export_wall();
	char			 prog[64], name[4096], line[4300];
	char			 done[1024] = "", *cause = NULL;
	size_t			 off = 0;
	int			 k, n;

	/* A correction, or the past looked at, that goes back over the
	 * change meets it again: each program is written once. */
	if (no <= xp->done)
		return;
	xp->done = no;
	export_prog(m, prog, sizeof prog);
	for (k = 0; k < EXPORT_NKINDS; k++) {
		if (path[k] == NULL)
			continue;
		if (export_in_place(path[k])) {
			snprintf(line, sizeof line, "%s %s: program %llu's "
			    "profile not kept: only the last program's is "
			    "written there", opt[k], path[k],
			    (unsigned long long)no);
			export_say(xp, line, 0);
			continue;
		}
		if (export_numbered(name, sizeof name, path[k], no) != 0) {
			snprintf(line, sizeof line, "export failed: %s: name "
			    "too long", path[k]);
			export_say(xp, line, 1);
			continue;
		}
		if (k == EXPORT_HP) {
			export_no_census(m, name, line, sizeof line);
			if (line[0] != '\0')
				export_say(xp, line, 0);
		}
		if (export_file(m, (enum export_kind)k, MODEL_WRUN, now, prog,
		    name, &cause) != 0) {
			snprintf(line, sizeof line, "export failed: %s",
			    cause != NULL ? cause : "out of memory");
			free(cause);
			cause = NULL;
			export_say(xp, line, 1);
			continue;
		}
		n = snprintf(done + off, sizeof done - off, "%s%s",
		    off == 0 ? "" : " ", name);
		if (n > 0 && (size_t)n < sizeof done - off)
			off += (size_t)n;
	}
	if (off > 0) {
		snprintf(line, sizeof line, "exported program %llu (another "
		    "began): %s", (unsigned long long)no, done);
		export_say(xp, line, 0);
	}
}

/* Whether an export goes to standard output (--batch prints nothing
 * else then). */
int
export_stdout(const struct evtop_opts *o)
{
	return (o->folded != NULL && strcmp(o->folded, "-") == 0) ||
	    (o->speedscope != NULL && strcmp(o->speedscope, "-") == 0) ||
	    (o->hp != NULL && strcmp(o->hp, "-") == 0);
}

/*
 * Whether a file can be made beside path, as export_file() makes its
 * temporary one: 0, or an errno.  Made and removed at once; access()
 * would not do (root passes it for /proc, a read-only mount's EROFS).
 */
static int
export_dir_ok(const char *path)
{
	char	*tmp;
	int	 fd, err = 0;

	if (asprintf(&tmp, "%s.tmpXXXXXX", path) < 0)
		return ENOMEM;
	if ((fd = mkstemp(tmp)) == -1)
		err = errno;
	else {
		close(fd);
		unlink(tmp);
	}
	free(tmp);
	return err;
}

/* One export's path: "-", a file that can be made (or replaced) in its
 * directory, or what is written in place and can be opened to write. */
static int
export_check_path(const char *opt, const char *path, char **cause)
{
	struct stat	 sb;
	const char	*slash = strrchr(path, '/');
	int		 err = 0, in_dir = 0, st;

	if (strcmp(path, "-") == 0)
		return 0;
	st = stat(path, &sb) == 0;
	if (st && S_ISDIR(sb.st_mode))
		err = EISDIR;
	else if (st && !S_ISREG(sb.st_mode)) {
		if (access(path, W_OK) != 0)
			err = errno;
	} else if (st || errno == ENOENT) {
		/* Made beside its name and renamed: the directory counts. */
		err = export_dir_ok(path);
		in_dir = slash != NULL;
	} else
		err = errno;
	if (err == 0)
		return 0;
	if ((in_dir ? asprintf(cause, "%s %s: cannot write in %.*s: %s", opt,
	    path, (int)(slash == path ? 1 : slash - path), path,
	    strerror(err)) :
	    asprintf(cause, "%s %s: %s", opt, path, strerror(err))) < 0)
		*cause = NULL;
	return -1;
}

/* --export-dir: a directory that a file can be made in. */
static int
export_check_dir(const char *dir, char **cause)
{
	struct stat	 sb;
	char		*probe;
	int		 err, in = 0;

	if (stat(dir, &sb) != 0)
		err = errno;
	else if (!S_ISDIR(sb.st_mode))
		err = ENOTDIR;
	else if (asprintf(&probe, "%s/.evtop", dir) < 0)
		err = ENOMEM;
	else {
		err = export_dir_ok(probe);
		in = 1;
		free(probe);
	}
	if (err == 0)
		return 0;
	if (asprintf(cause, "--export-dir %s: %s%s", dir, in ? "cannot "
	    "write in it: " : "", strerror(err)) < 0)
		*cause = NULL;
	return -1;
}

/*
 * At start-up: every export's path can be written at the end (an export
 * that fails then has lost a live source's whole profile).  0, or -1 and
 * why in cause.
 */
int
export_check(const struct evtop_opts *o, char **cause)
{
	if (o->folded != NULL &&
	    export_check_path("--folded", o->folded, cause) != 0)
		return -1;
	if (o->speedscope != NULL &&
	    export_check_path("--speedscope", o->speedscope, cause) != 0)
		return -1;
	if (o->hp != NULL && export_check_path("--hp", o->hp, cause) != 0)
		return -1;
	/* The export key's directory: a typo is found now, not at an E. */
	if (o->export_dir != NULL &&
	    export_check_dir(o->export_dir, cause) != 0)
		return -1;
	return 0;
}

/* --folded, --speedscope, --hp: the whole run, at the end. */
int
export_end(const struct model *m, const struct evtop_opts *o)
{
	const char	*path[EXPORT_NKINDS] = { o->folded, o->speedscope,
			    o->hp };
	char		 prog[64], *cause = NULL;
	uint64_t	 now = export_wall();
	int		 k, rc = 0;

	export_prog(m, prog, sizeof prog);
	/* Said in every mode: the TUI calls this once the terminal is back. */
	if (o->hp != NULL) {
		char	warn[4300];

		export_no_census(m, o->hp, warn, sizeof warn);
		if (warn[0] != '\0')
			fprintf(stderr, "evtop: %s\n", warn);
	}
	for (k = 0; k < EXPORT_NKINDS; k++) {
		if (path[k] == NULL)
			continue;
		if (export_file(m, (enum export_kind)k, MODEL_WRUN, now, prog,
		    path[k], &cause) != 0) {
			fprintf(stderr, "evtop: %s\n", cause != NULL ? cause :
			    "out of memory");
			free(cause);
			cause = NULL;
			rc = 1;
		}
	}
	return rc;
}

/* DIR/PROG-STAMP[-TRY]EXT into buf; 0, or -1 if it does not fit. */
static int
export_path(char *buf, size_t len, const char *dir, const char *prog,
    const char *stamp, int try, const char *ext)
{
	char	suffix[16] = "";
	int	n;

	if (try > 1)
		snprintf(suffix, sizeof suffix, "-%d", try);
	n = snprintf(buf, len, "%s/%s-%s%s%s", dir, prog, stamp, suffix, ext);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/*
 * The export key: the window on screen (win) into DIR/PROG-TIME.folded,
 * .speedscope.json and .hp (those with something to say), in
 * --export-dir or the current directory.  What was written, or why not,
 * goes into msg.
 */
int
export_key(const struct model *m, const struct evtop_opts *o, int win,
    char *msg, size_t len)
{
	static const char *const winname[] = { "1 s", "10 s", "run" };
	const char	*dir = o->export_dir != NULL ? o->export_dir : ".";
	char		 prog[64], stamp[32], title[160], path[4096];
	char		*cause = NULL, done[128] = "";
	uint64_t	 now = export_wall(), samples, censuses;
	struct tm	 tm;
	time_t		 t = (time_t)(now / 1000000000ULL);
	int		 k, n, want[EXPORT_NKINDS], try;
	size_t		 off = 0;

	if (win < 0 || win >= MODEL_NWIN)
		win = MODEL_WRUN;
	samples = model_prof_samples(m, (enum model_win)win);
	censuses = export_hp_count(m, win);
	want[EXPORT_FOLDED] = want[EXPORT_SPEEDSCOPE] = samples > 0;
	want[EXPORT_HP] = censuses > 0;
	if (samples == 0 && censuses == 0) {
		snprintf(msg, len, "export: nothing to write: no profile "
		    "samples or heap censuses in the window (%s)",
		    winname[win]);
		return -1;
	}
	export_prog(m, prog, sizeof prog);
	if (localtime_r(&t, &tm) == NULL ||
	    strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &tm) == 0)
		snprintf(stamp, sizeof stamp, "%llu",
		    (unsigned long long)(now / 1000000000ULL));
	snprintf(title, sizeof title, "%s (%s)", prog, winname[win]);
	/* Never over an earlier export: within the same second, -2, -3... */
	for (try = 1; try < 100; try++) {
		for (k = n = 0; k < EXPORT_NKINDS; k++) {
			if (export_path(path, sizeof path, dir, prog, stamp,
			    try, export_ext[k]) == 0 && access(path, F_OK) == 0)
				n++;
		}
		if (n == 0)
			break;
	}
	for (k = 0; k < EXPORT_NKINDS; k++) {
		if (!want[k])
			continue;
		if (export_path(path, sizeof path, dir, prog, stamp, try,
		    export_ext[k]) != 0) {
			snprintf(msg, len, "export failed: %s: name too long",
			    dir);
			return -1;
		}
		if (export_file(m, (enum export_kind)k, win, now, title, path,
		    &cause) != 0) {
			snprintf(msg, len, "export failed: %s", cause != NULL ?
			    cause : "out of memory");
			free(cause);
			return -1;
		}
		/* The first file's name, then the other extensions. */
		n = snprintf(done + off, sizeof done - off, "%s%s",
		    off == 0 ? "" : " ", off == 0 ? strrchr(path, '/') + 1 :
		    export_ext[k]);
		if (n > 0 && (size_t)n < sizeof done - off)
			off += (size_t)n;
	}
	snprintf(msg, len, "exported %s: %s", winname[win], done);
	return 0;
}
