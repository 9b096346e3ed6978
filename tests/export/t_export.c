/*
 * t_export.c: the exports' model part (model-hist.c) and export.c on
 * hand-made events: the census history's bounds (censuses, band entries,
 * a census never half kept), bands evicted from the table, the samples by
 * capability and their bound, the window of the export key, and a file
 * that cannot be written; each program of a stream exported (app.1.hp),
 * -hi bands described alike and names with Latin-1 bytes kept apart.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "evtop.h"
#include "model/model.h"

static int	passed, failed;

#define CHECK(cond, ...) do {						\
	if (cond) passed++;						\
	else {								\
		failed++;						\
		printf("not ok - %s line %d: ", __func__, __LINE__);	\
		printf(__VA_ARGS__);					\
		printf("\n");						\
	}								\
} while (0)

#define EQ(a, b) CHECK((uint64_t)(a) == (uint64_t)(b), "%s = %llu, want %llu", \
	#a, (unsigned long long)(a), (unsigned long long)(b))

#define MS	1000000ULL
#define SEC	1000000000ULL

static char	tmpdir[] = "/tmp/t_export.XXXXXX";

static void
apply(struct model *m, uint16_t kind, uint64_t t, struct proto_ev *ev)
{
	ev->kind = ev->tag = kind;
	ev->time = t;
	ev->cap = PROTO_NO_CAP;
	model_apply(m, ev);
}

static void
census_begin(struct model *m, uint64_t t)
{
	struct proto_ev	ev;

	memset(&ev, 0, sizeof ev);
	apply(m, PROTO_HEAP_PROF_SAMPLE_BEGIN, t, &ev);
}

static void
census_end(struct model *m, uint64_t t)
{
	struct proto_ev	ev;

	memset(&ev, 0, sizeof ev);
	apply(m, PROTO_HEAP_PROF_SAMPLE_END, t, &ev);
}

static void
band(struct model *m, uint64_t t, const char *label, uint64_t res)
{
	struct proto_ev	ev;

	memset(&ev, 0, sizeof ev);
	ev.u.heap_sample_str.residency = res;
	ev.u.heap_sample_str.label.p = label;
	ev.u.heap_sample_str.label.len = (uint32_t)strlen(label);
	apply(m, PROTO_HEAP_PROF_SAMPLE_STRING, t, &ev);
}

/* A stack's ids as the events carry them (u32, big-endian). */
static void
put_ids(uint8_t *b, const uint32_t *ids, int depth)
{
	int	i;

	for (i = 0; i < depth; i++) {
		b[4 * i] = (uint8_t)(ids[i] >> 24);
		b[4 * i + 1] = (uint8_t)(ids[i] >> 16);
		b[4 * i + 2] = (uint8_t)(ids[i] >> 8);
		b[4 * i + 3] = (uint8_t)ids[i];
	}
}

static void
sample(struct model *m, uint64_t t, uint32_t cap, const uint32_t *ids,
    int depth)
{
	struct proto_ev	ev;
	uint8_t		b[4 * 8];

	put_ids(b, ids, depth);
	memset(&ev, 0, sizeof ev);
	ev.u.prof_sample.cap = cap;
	ev.u.prof_sample.ccs.ids = b;
	ev.u.prof_sample.ccs.depth = (uint32_t)depth;
	apply(m, PROTO_PROF_SAMPLE_COST_CENTRE, t, &ev);
}

/* Lines of a file that start with s, and the sum of the numbers after a
 * tab on band lines. */
static int
file_count(const char *path, const char *s, uint64_t *bytes)
{
	FILE	*f = fopen(path, "r");
	char	 line[1024], *tab;
	int	 n = 0;

	if (bytes != NULL)
		*bytes = 0;
	if (f == NULL)
		return -1;
	while (fgets(line, sizeof line, f) != NULL) {
		if (strncmp(line, s, strlen(s)) == 0)
			n++;
		if (bytes != NULL && (tab = strchr(line, '\t')) != NULL)
			*bytes += strtoull(tab + 1, NULL, 10);
	}
	fclose(f);
	return n;
}

static int
file_has(const char *path, const char *s)
{
	FILE	*f = fopen(path, "r");
	char	 line[1024];
	int	 yes = 0;

	if (f == NULL)
		return 0;
	while (!yes && fgets(line, sizeof line, f) != NULL)
		yes = strstr(line, s) != NULL;
	fclose(f);
	return yes;
}

/* More censuses than the history keeps: the oldest go, the JOB says so. */
static void
t_censuses(void)
{
	struct model		*m = model_new();
	struct model_hist_info	 hi;
	struct evtop_opts	 o;
	char			 path[256], job[128];
	uint64_t		 bytes, i, n = MODEL_HIST_CENSUSES + 76;

	model_set_reorder(m, 0, 0);
	for (i = 0; i < n; i++) {
		census_begin(m, i * 10 * MS);
		band(m, i * 10 * MS + 1, "a b", 100);
		band(m, i * 10 * MS + 2, "c", 10);
		band(m, i * 10 * MS + 3, "a b", 1);	/* a band again: summed */
		census_end(m, i * 10 * MS + 4);
	}
	model_hist_info(m, &hi);
	EQ(hi.censuses, MODEL_HIST_CENSUSES);
	EQ(hi.dropped, 76);
	memset(&o, 0, sizeof o);
	snprintf(path, sizeof path, "%s/c.hp", tmpdir);
	o.hp = path;
	EQ(export_end(m, &o), 0);
	EQ(file_count(path, "BEGIN_SAMPLE", &bytes), MODEL_HIST_CENSUSES);
	EQ(file_count(path, "END_SAMPLE", NULL), MODEL_HIST_CENSUSES);
	EQ(bytes, 111 * MODEL_HIST_CENSUSES);
	EQ(file_count(path, "a_b\t101", NULL), MODEL_HIST_CENSUSES);
	snprintf(job, sizeof job, "(evtop: the last %d censuses of %llu)",
	    MODEL_HIST_CENSUSES, (unsigned long long)n);
	CHECK(file_has(path, job), "JOB says %s", job);
	CHECK(file_has(path, "BEGIN_SAMPLE 0.760000"), "the first kept is 76");
	model_free(m);
}

/* Censuses of many bands: the entry ring drops whole censuses. */
static void
t_entries(void)
{
	struct model		*m = model_new();
	struct model_hist_info	 hi;
	struct evtop_opts	 o;
	char			 path[256], label[32];
	uint64_t		 bytes, c, b, nb = 6000, nc = 30;

	model_set_reorder(m, 0, 0);
	for (c = 0; c < nc; c++) {
		census_begin(m, c * SEC);
		for (b = 0; b < nb; b++) {
			snprintf(label, sizeof label, "band%llu",
			    (unsigned long long)b);
			band(m, c * SEC + 1 + b, label, 2);
		}
		census_end(m, c * SEC + 1 + nb);
	}
	model_hist_info(m, &hi);
	/* Whole censuses only: the kept ones fit in the entry ring. */
	EQ(hi.censuses, MODEL_HIST_ENTRIES / nb);
	EQ(hi.censuses + hi.dropped, nc);
	memset(&o, 0, sizeof o);
	snprintf(path, sizeof path, "%s/e.hp", tmpdir);
	o.hp = path;
	EQ(export_end(m, &o), 0);
	EQ(file_count(path, "BEGIN_SAMPLE", &bytes), hi.censuses);
	EQ(bytes, 2 * nb * hi.censuses);
	model_free(m);
}

/* Bands evicted from the table are still counted, as "(evicted)". */
static void
t_evicted(void)
{
	struct model		*m = model_new();
	struct evtop_opts	 o;
	char			 path[256], label[32];
	uint64_t		 bytes, b, nb = MODEL_MAX_BANDS + 100;

	model_set_reorder(m, 0, 0);
	census_begin(m, 0);
	for (b = 0; b < nb; b++) {
		snprintf(label, sizeof label, "x%llu", (unsigned long long)b);
		band(m, 1 + b, label, 3);
	}
	census_end(m, SEC);
	CHECK(m->hprof.bands_evicted > 0, "bands evicted");
	memset(&o, 0, sizeof o);
	snprintf(path, sizeof path, "%s/v.hp", tmpdir);
	o.hp = path;
	EQ(export_end(m, &o), 0);
	EQ(file_count(path, "BEGIN_SAMPLE", &bytes), 1);
	EQ(bytes, 3 * nb);
	EQ(file_count(path, "(evicted)\t", NULL), 1);
	model_free(m);
}

struct caps_seen {
	uint64_t	 samples, empty, by_cap[4], depth3;
	int		 ncap_max;
};

static void
caps_row(void *arg, const struct model_stack_row *r,
    const struct model_stack_cap *caps, int ncap)
{
	struct caps_seen	*s = arg;
	int			 i;

	s->samples += r->samples;
	if (r->depth == 0)
		s->empty += r->samples;
	if (r->depth == 3)
		s->depth3 += r->samples;
	if (ncap > s->ncap_max)
		s->ncap_max = ncap;
	for (i = 0; i < ncap; i++) {
		if (caps[i].cap < 4)
			s->by_cap[caps[i].cap] += caps[i].samples;
		if (i > 0 && caps[i].cap <= caps[i - 1].cap)
			s->ncap_max = 999;	/* not ascending */
	}
}

/* Samples by capability; caps past MODEL_MAX_CAPS count in the whole. */
static void
t_caps(void)
{
	struct model		*m = model_new();
	struct model_hist_info	 hi;
	struct caps_seen	 s;
	static const uint32_t	 a[] = { 3, 2, 1 }, b[] = { 2, 1 };
	uint64_t		 i;

	model_set_reorder(m, 0, 0);
	for (i = 0; i < 1000; i++) {
		sample(m, i * MS, (uint32_t)(i % 4), a, 3);
		sample(m, i * MS, 1, b, 2);
		if (i % 10 == 0)
			sample(m, i * MS, 2, NULL, 0);
		if (i % 100 == 0)
			sample(m, i * MS, 300, a, 3);
	}
	model_hist_info(m, &hi);
	EQ(hi.stack_caps, 4 + 1 + 1);	/* a on 0-3, b on 1, empty on 2 */
	EQ(hi.caps_full, 10);		/* cap 300 */
	memset(&s, 0, sizeof s);
	EQ(model_hist_stacks(m, MODEL_WRUN, caps_row, &s), m->prof.samples);
	EQ(s.samples, 2000 + 100 + 10);
	EQ(s.empty, 100);
	EQ(s.depth3, 1010);
	EQ(s.by_cap[0], 250);
	EQ(s.by_cap[1], 250 + 1000);
	EQ(s.by_cap[2], 250 + 100);
	EQ(s.by_cap[3], 250);
	CHECK(s.ncap_max == 4, "caps ascending, at most 4: %d", s.ncap_max);
	/* Steady sampling makes no more entries. */
	for (i = 1000; i < 5000; i++)
		sample(m, i * MS, (uint32_t)(i % 4), a, 3);
	model_hist_info(m, &hi);
	EQ(hi.stack_caps, 6);
	model_free(m);
}

/* The export key writes the window: 1 s holds the last second's samples
 * and censuses only; names carry the program; a missing directory fails
 * whole, leaving nothing behind. */
static void
t_key(void)
{
	struct model		*m = model_new();
	struct evtop_opts	 o;
	struct proto_ev		 ev;
	static const uint32_t	 a[] = { 2, 1 };
	static const char	 args[] = "./myprog\0+RTS\0-hT\0";
	char			 msg[160], cmd[512], path[256];
	uint64_t		 i, bytes;
	FILE			*p;
	int			 n;

	model_set_reorder(m, 0, 0);
	memset(&ev, 0, sizeof ev);
	ev.u.capset_str.s.p = args;
	ev.u.capset_str.s.len = sizeof args - 1;
	apply(m, PROTO_PROGRAM_ARGS, 0, &ev);
	for (i = 0; i < 5000; i++)		/* 5 s, 1 ms apart */
		sample(m, i * MS, 0, a, 2);
	for (i = 0; i < 50; i++) {		/* a census every 100 ms */
		census_begin(m, i * 100 * MS);
		band(m, i * 100 * MS + 1, "THUNK", 7);
		census_end(m, i * 100 * MS + 2);
	}
	memset(&o, 0, sizeof o);
	o.export_dir = tmpdir;
	n = export_key(m, &o, MODEL_W1, msg, sizeof msg);
	CHECK(n == 0 && strncmp(msg, "exported 1 s: myprog-", 21) == 0,
	    "%d %s", n, msg);
	CHECK(strstr(msg, ".speedscope.json .hp") != NULL, "%s", msg);
	snprintf(cmd, sizeof cmd, "cat %s/myprog-*.folded", tmpdir);
	if ((p = popen(cmd, "r")) != NULL) {
		char line[256] = "";

		if (fgets(line, sizeof line, p) == NULL)
			line[0] = '\0';
		pclose(p);
		/* The window: 0.9 to 1 s long, 1 ms a sample. */
		CHECK(strncmp(line, "#1;#2 ", 6) == 0 &&
		    atoi(line + 6) >= 900 && atoi(line + 6) <= 1000,
		    "the window's samples: %s", line);
	}
	snprintf(path, sizeof path, "sh -c 'ls %s/myprog-*.hp'", tmpdir);
	if ((p = popen(path, "r")) != NULL) {
		if (fgets(path, sizeof path, p) == NULL)
			path[0] = '\0';
		pclose(p);
		path[strcspn(path, "\n")] = '\0';
		n = file_count(path, "BEGIN_SAMPLE", &bytes);
		CHECK(n >= 9 && n <= 10, "censuses in 1 s: %d", n);
		EQ(bytes, 7 * (uint64_t)n);
		CHECK(file_has(path, "JOB \"./myprog +RTS -hT\""), "JOB");
	}
	/* A directory that is not there: the reason, and no file. */
	snprintf(path, sizeof path, "%s/none", tmpdir);
	o.export_dir = path;
	n = export_key(m, &o, MODEL_WRUN, msg, sizeof msg);
	CHECK(n != 0 && strncmp(msg, "export failed: ", 15) == 0 &&
	    strstr(msg, "No such file") != NULL, "%s", msg);
	model_free(m);
}

static void
cc_def(struct model *m, uint32_t id, const char *label, const char *module,
    const char *loc)
{
	struct proto_ev	ev;

	memset(&ev, 0, sizeof ev);
	ev.u.cost_centre.id = id;
	ev.u.cost_centre.label.p = label;
	ev.u.cost_centre.label.len = (uint32_t)strlen(label);
	ev.u.cost_centre.module.p = module;
	ev.u.cost_centre.module.len = (uint32_t)strlen(module);
	ev.u.cost_centre.srcloc.p = loc;
	ev.u.cost_centre.srcloc.len = (uint32_t)strlen(loc);
	apply(m, PROTO_HEAP_PROF_COST_CENTRE, 0, &ev);
}

static void
band_ccs(struct model *m, uint64_t t, const uint32_t *ids, int depth,
    uint64_t res)
{
	struct proto_ev	ev;
	uint8_t		b[4 * 32];

	put_ids(b, ids, depth);
	memset(&ev, 0, sizeof ev);
	ev.u.heap_sample_cc.residency = res;
	ev.u.heap_sample_cc.ccs.ids = b;
	ev.u.heap_sample_cc.ccs.depth = (uint32_t)depth;
	apply(m, PROTO_HEAP_PROF_SAMPLE_COST_CENTRE, t, &ev);
}

/* Stacks of a folded file written on more than one line. */
static int
folded_dups(const char *path)
{
	char	cmd[512], line[64];
	FILE	*p;

	snprintf(cmd, sizeof cmd, "sed 's/ [0-9]*$//' %s | sort | uniq -d | "
	    "wc -l", path);
	if ((p = popen(cmd, "r")) == NULL ||
	    fgets(line, sizeof line, p) == NULL)
		line[0] = '\0';
	if (p != NULL)
		pclose(p);
	return atoi(line);
}

/* hp2ps draws file (in tmpdir): 1, 0 if it refuses, -1 if missing. */
static int
hp2ps_draws(const char *file)
{
	char	cmd[512];

	if (system("command -v hp2ps >/dev/null 2>&1") != 0)
		return -1;
	snprintf(cmd, sizeof cmd, "cd %s && hp2ps %s >/dev/null 2>&1",
	    tmpdir, file);
	return system(cmd) == 0;
}

/*
 * Bands whose names are cut to fit stay apart: a long stack reached from
 * two roots (the same first 159 bytes), two long labels (-hd, -hy) alike
 * at the start.  Each census names each band once, and hp2ps keeps them
 * apart (two keys in its PostScript).
 */
static void
t_long_bands(void)
{
	struct model		*m = model_new();
	struct evtop_opts	 o;
	uint32_t		 a[24], b[24];
	char			 path[256], label[64], la[400], lb[400];
	char			 cmd[1024], line[64];
	uint64_t		 c;
	FILE			*p;
	int			 i, r;

	model_set_reorder(m, 0, 0);
	for (i = 0; i < 22; i++) {
		snprintf(label, sizeof label,
		    "thisIsAVeryLongFunctionNameForLevel%02d", i);
		cc_def(m, (uint32_t)(10 + i), label, "Deep", "Deep.hs:1:1-9");
		a[i] = b[i] = (uint32_t)(10 + i);
	}
	cc_def(m, 1, "rootA", "Deep", "Deep.hs:2:1-9");
	cc_def(m, 2, "rootB", "Deep", "Deep.hs:3:1-9");
	a[22] = 1;
	b[22] = 2;
	memset(la, 'x', 300);
	memcpy(lb, la, 300);
	la[300] = lb[300] = '\0';
	la[299] = 'a';
	lb[299] = 'b';
	for (c = 0; c < 3; c++) {
		census_begin(m, c * SEC);
		band_ccs(m, c * SEC + 1, a, 23, 100);
		band_ccs(m, c * SEC + 2, b, 23, 200);
		band(m, c * SEC + 3, la, 10);
		band(m, c * SEC + 4, lb, 20);
		band(m, c * SEC + 5, "short", 5);
		census_end(m, c * SEC + 6);
	}
	memset(&o, 0, sizeof o);
	snprintf(path, sizeof path, "%s/long.hp", tmpdir);
	o.hp = path;
	EQ(export_end(m, &o), 0);
	EQ(file_count(path, "BEGIN_SAMPLE", NULL), 3);
	/* Within a census no name twice: 3 x 5 band lines, all told apart
	 * (each name 3 times, once a census). */
	snprintf(cmd, sizeof cmd, "grep -c '\t' %s; cut -f1 %s | grep -v "
	    "_SAMPLE | sort -u | wc -l", path, path);
	if ((p = popen(cmd, "r")) != NULL) {
		r = fgets(line, sizeof line, p) != NULL ? atoi(line) : -1;
		EQ(r, 15);
		r = fgets(line, sizeof line, p) != NULL ? atoi(line) : -1;
		EQ(r, 5 + 4);	/* the bands and the 4 header lines */
		pclose(p);
	}
	CHECK(file_has(path, "(1)thisIsAVeryLong") ||
	    file_has(path, "(2)thisIsAVeryLong"), "a cut name's serial");
	if ((r = hp2ps_draws("long.hp")) < 0)
		printf("# SKIPPED: hp2ps is missing\n");
	else {
		CHECK(r == 1, "hp2ps draws long.hp");
		snprintf(path, sizeof path, "%s/long.ps", tmpdir);
		EQ(file_count(path, "(\\(", NULL), 4);	/* the cut ones */
	}
	model_free(m);
}

/* No census at all: the RTS's empty first and last samples, which hp2ps
 * needs (it refuses a file with none). */
static void
t_no_census(void)
{
	struct model		*m = model_new();
	struct evtop_opts	 o;
	static const uint32_t	 a[] = { 2, 1 };
	char			 path[256];
	int			 r;

	model_set_reorder(m, 0, 0);
	sample(m, 5 * MS, 0, a, 2);
	sample(m, 1500 * MS, 0, a, 2);
	memset(&o, 0, sizeof o);
	snprintf(path, sizeof path, "%s/none.hp", tmpdir);
	o.hp = path;
	EQ(export_end(m, &o), 0);
	EQ(file_count(path, "BEGIN_SAMPLE", NULL), 2);
	CHECK(file_has(path, "BEGIN_SAMPLE 0.00\n"), "the first at 0");
	CHECK(file_has(path, "END_SAMPLE 1.500000\n"), "the last at the end");
	if ((r = hp2ps_draws("none.hp")) < 0)
		printf("# SKIPPED: hp2ps is missing\n");
	else
		CHECK(r == 1, "hp2ps draws none.hp");
	model_free(m);
}

/*
 * Cost centres of the same name (two lambdas "\" of a module): folded and
 * speedscope tell them apart by their source location; those alike in
 * that too are one folded line, summed.
 */
static void
t_same_names(void)
{
	struct model		*m = model_new();
	struct evtop_opts	 o;
	static const uint32_t	 s2[] = { 2, 1 }, s3[] = { 3, 1 },
				 s6[] = { 6, 1 }, s7[] = { 7, 1 },
				 s8[] = { 8, 1 }, s9[] = { 9, 1 };
	char			 path[256], ss[256];
	int			 i;

	model_set_reorder(m, 0, 0);
	cc_def(m, 1, "main", "Main", "P.hs:1:1-10");
	cc_def(m, 2, "\\", "Main", "P.hs:3:5-9");
	cc_def(m, 3, "\\", "Main", "P.hs:4:5-9");
	cc_def(m, 6, "go", "Main", "P.hs:9:1-3");
	cc_def(m, 7, "go", "Main", "P.hs:9:1-3");
	cc_def(m, 8, "a;b", "Main", "P.hs:5:1-3");
	cc_def(m, 9, "a:b", "Main", "P.hs:6:1-3");
	for (i = 0; i < 3; i++)
		sample(m, (uint64_t)i * MS, 0, s2, 2);
	for (i = 0; i < 5; i++)
		sample(m, (uint64_t)(10 + i) * MS, 0, s3, 2);
	for (i = 0; i < 2; i++)
		sample(m, (uint64_t)(20 + i) * MS, 0, s6, 2);
	for (i = 0; i < 4; i++)
		sample(m, (uint64_t)(30 + i) * MS, 0, s7, 2);
	sample(m, 40 * MS, 0, s8, 2);
	sample(m, 41 * MS, 0, s9, 2);
	memset(&o, 0, sizeof o);
	snprintf(path, sizeof path, "%s/same.folded", tmpdir);
	snprintf(ss, sizeof ss, "%s/same.speedscope.json", tmpdir);
	o.folded = path;
	o.speedscope = ss;
	EQ(export_end(m, &o), 0);
	EQ(folded_dups(path), 0);
	EQ(file_count(path, "Main.main;", NULL), 5);
	CHECK(file_has(path, "Main.main;Main.\\ (P.hs:3:5-9) 3\n") &&
	    file_has(path, "Main.main;Main.\\ (P.hs:4:5-9) 5\n"),
	    "lambdas apart by their location");
	CHECK(file_has(path, "Main.main;Main.go (P.hs:9:1-3) 6\n"),
	    "the same name and location: one line, summed");
	CHECK(file_has(path, "Main.main;Main.a:b (P.hs:5:1-3) 1\n") &&
	    file_has(path, "Main.main;Main.a:b (P.hs:6:1-3) 1\n"),
	    "';' made ':' and apart by their location");
	CHECK(file_has(ss, "\"name\":\"Main.\\\\ (P.hs:3:5-9)\",\"file\":"
	    "\"P.hs\",\"line\":3") && file_has(ss, "\"Main.a;b (P.hs:5:1-3)\""),
	    "speedscope's frames named as folded's");
	model_free(m);
}


static void
pid(struct model *m, uint64_t t, uint32_t p)
{
	struct proto_ev	ev;

	memset(&ev, 0, sizeof ev);
	ev.u.pid.pid = p;
	apply(m, PROTO_OSPROCESS_PID, t, &ev);
}

/* A model's state kept, and model_restore()'s fill for it. */
struct saved {
	void	*b;
	size_t	 n;
};

static int
state_fill(void *arg, void *dst, size_t n)
{
	struct saved	*sv = arg;

	if (n != sv->n)
		return -1;
	memcpy(dst, sv->b, n);
	return 0;
}

/* Lines of a file, whole. */
static int
file_lines(const char *path)
{
	return file_count(path, "", NULL);
}

/*
 * Another program in the stream (a FIFO's next writer, another pid): the
 * one that ended is written when the next begins, beside each path with
 * its number, NAME.1.EXT; the last goes to the path.  Once only, though
 * a correction meets the change again; "-" keeps only the last, said.
 */
static void
t_programs(void)
{
	struct model		*m = model_new();
	struct evtop_opts	 o;
	struct export_progs	 xp;
	static const uint32_t	 a[] = { 2, 1 }, b[] = { 3 };
	char			 fo[256], hp[256], p1[256], msg[160] = "";
	struct saved		 saved;
	const void		*st;
	size_t			 len;
	int			 i;

	model_set_reorder(m, 0, 0);
	memset(&o, 0, sizeof o);
	snprintf(fo, sizeof fo, "%s/run.folded", tmpdir);
	snprintf(hp, sizeof hp, "%s/run", tmpdir);	/* no extension */
	o.folded = fo;
	o.hp = hp;
	memset(&xp, 0, sizeof xp);
	xp.o = &o;
	xp.msg = msg;
	xp.len = sizeof msg;
	model_on_program(m, export_program, &xp);
	model_header(m, NULL);
	pid(m, 0, 100);
	for (i = 0; i < 3; i++)
		sample(m, (uint64_t)(i + 1) * MS, 0, a, 2);
	census_begin(m, 5 * MS);
	band(m, 5 * MS + 1, "first", 40);
	census_end(m, 5 * MS + 2);
	/* Kept, to come back to (as a correction does). */
	st = model_state(m, &len);
	if ((saved.b = malloc(len)) == NULL)
		abort();
	memcpy(saved.b, st, len);
	saved.n = len;
	/* The next program: a new session, another pid. */
	model_header(m, NULL);
	pid(m, 0, 200);
	EQ(m->prog.resets, 1);
	for (i = 0; i < 2; i++)
		sample(m, (uint64_t)(i + 1) * MS, 0, b, 1);
	EQ(export_end(m, &o), 0);
	snprintf(p1, sizeof p1, "%s/run.1.folded", tmpdir);
	CHECK(file_has(p1, "#1;#2 3\n") && file_lines(p1) == 1,
	    "program 1's samples in run.1.folded");
	CHECK(file_has(fo, "#3 2\n") && file_lines(fo) == 1,
	    "program 2's in run.folded");
	snprintf(p1, sizeof p1, "%s/run.1", tmpdir);
	EQ(file_count(p1, "first\t40", NULL), 1);
	EQ(file_count(hp, "BEGIN_SAMPLE", NULL), 2);	/* none: empty */
	EQ(file_count(hp, "first", NULL), 0);
	CHECK(strncmp(msg, "exported program 1 ", 19) == 0, "%s", msg);
	CHECK(strstr(xp.said, "run.1: no heap census") == NULL &&
	    strstr(xp.said, "run.1.folded") != NULL, "%s", xp.said);
	EQ(xp.done, 1);
	EQ(xp.failed, 0);
	/* Met again (a correction going back over it): not written again. */
	unlink(p1);
	EQ(model_restore(m, saved.n, state_fill, &saved), 0);
	free(saved.b);
	EQ(m->prog.resets, 0);
	model_header(m, NULL);
	pid(m, 0, 200);
	EQ(m->prog.resets, 1);
	CHECK(access(p1, F_OK) != 0, "written once");
	/* The third program: standard output keeps only the last. */
	o.folded = "-";
	model_header(m, NULL);
	pid(m, 0, 300);
	EQ(xp.done, 2);
	CHECK(strstr(xp.said, "--folded -: program 2's profile not kept") !=
	    NULL, "%s", xp.said);
	snprintf(p1, sizeof p1, "%s/run.2", tmpdir);
	EQ(file_count(p1, "BEGIN_SAMPLE", NULL), 2);
	CHECK(strstr(xp.said, "run.2: no heap census") != NULL, "%s",
	    xp.said);
	model_free(m);
}

static void
ipe_def(struct model *m, uint64_t info, const char *table, const char *type)
{
	struct proto_ev	ev;

	memset(&ev, 0, sizeof ev);
	ev.u.ipe.info = info;
	ev.u.ipe.table_name.p = table;
	ev.u.ipe.table_name.len = (uint32_t)strlen(table);
	ev.u.ipe.closure_desc.p = "1";
	ev.u.ipe.closure_desc.len = 1;
	ev.u.ipe.ty_desc.p = type;
	ev.u.ipe.ty_desc.len = (uint32_t)strlen(type);
	ev.u.ipe.module.p = "Main";
	ev.u.ipe.module.len = 4;
	ev.u.ipe.srcloc.p = "Ipe.hs:3:1-9";
	ev.u.ipe.srcloc.len = 12;
	ev.payload = (const uint8_t *)table;	/* the definition's hash */
	ev.len = (uint32_t)strlen(table);
	apply(m, PROTO_IPE, 0, &ev);
}

/* Distinct band names in an .hp (header lines aside). */
static int
hp_names(const char *path)
{
	char	cmd[512], line[64];
	FILE	*p;

	snprintf(cmd, sizeof cmd, "grep '\t' %s | cut -f1 | sort -u | wc -l",
	    path);
	if ((p = popen(cmd, "r")) == NULL ||
	    fgets(line, sizeof line, p) == NULL)
		line[0] = '\0';
	if (p != NULL)
		pclose(p);
	return atoi(line);
}

/*
 * -hi: two info tables described alike (the same table name, type and
 * place) are two bands, named apart by their serial as cut -hc names
 * are; one described alike by no other keeps its plain title.
 */
static void
t_ipe_alike(void)
{
	struct model		*m = model_new();
	struct evtop_opts	 o;
	struct model_band_row	 rows[8];
	char			 path[256], t0[256], t1[256];
	int			 n, r;

	model_set_reorder(m, 0, 0);
	ipe_def(m, 0x1000, "Rec_con_info", "Rec");
	ipe_def(m, 0x2000, "Rec_con_info", "Rec");
	ipe_def(m, 0x3000, "Other_con_info", "Other");
	census_begin(m, SEC);
	band(m, SEC + 1, "0x1000", 10);
	band(m, SEC + 2, "0x2000", 20);
	band(m, SEC + 3, "0x3000", 30);
	census_end(m, SEC + 4);
	memset(&o, 0, sizeof o);
	snprintf(path, sizeof path, "%s/hi.hp", tmpdir);
	o.hp = path;
	EQ(export_end(m, &o), 0);
	EQ(hp_names(path), 3);
	CHECK(file_has(path, "Other_con_info_(Other)_Ipe.hs:3:1-9\t30"),
	    "a title alike to no other is plain");
	CHECK(file_has(path, ")Rec_con_info_(Rec)_Ipe.hs:3:1-9\t10") &&
	    file_has(path, ")Rec_con_info_(Rec)_Ipe.hs:3:1-9\t20"),
	    "the two alike have a serial in front");
	/* The panes and JSON name them so too. */
	n = model_top_bands(m, rows, 8);
	EQ(n, 3);
	if (n == 3) {
		model_band_title(m, rows[1].band, t0, sizeof t0);
		model_band_title(m, rows[2].band, t1, sizeof t1);
		CHECK(strcmp(t0, t1) != 0 && t0[0] == '(', "%s / %s", t0, t1);
	}
	/* One of them defined anew, apart: both plain again. */
	ipe_def(m, 0x2000, "Rec2_con_info", "Rec");
	EQ(export_end(m, &o), 0);
	EQ(file_count(path, "Rec_con_info_(Rec)_Ipe.hs:3:1-9\t10", NULL), 1);
	EQ(file_count(path, "Rec2_con_info_(Rec)_Ipe.hs:3:1-9\t20", NULL), 1);
	if ((r = hp2ps_draws("hi.hp")) < 0)
		printf("# SKIPPED: hp2ps is missing\n");
	else
		CHECK(r == 1, "hp2ps draws hi.hp");
	model_free(m);
}

/*
 * Names with Latin-1 bytes (not UTF-8): each invalid byte as \xNN, so
 * that "caf\xe9" and "caf\xe8" are two bands, two frames, where both were
 * "caf" U+FFFD; a backslash that would read as an escape is doubled.
 */
static void
t_latin1(void)
{
	struct model		*m = model_new();
	struct evtop_opts	 o;
	static const uint32_t	 s1[] = { 1 }, s2[] = { 2 }, s3[] = { 3 };
	char			 hp[256], fo[256], ss[256];

	model_set_reorder(m, 0, 0);
	cc_def(m, 1, "f\xe9", "M\xfc", "P.hs:1:1-3");
	cc_def(m, 2, "f\xe8", "M\xfc", "P.hs:1:1-3");
	cc_def(m, 3, "f\\xe8", "M\xfc", "P.hs:1:1-3");
	sample(m, MS, 0, s1, 1);
	sample(m, 2 * MS, 0, s2, 1);
	sample(m, 3 * MS, 0, s2, 1);
	sample(m, 4 * MS, 0, s3, 1);
	census_begin(m, SEC);
	band(m, SEC + 1, "T\xe9", 10);
	band(m, SEC + 2, "T\xe8", 20);
	census_end(m, SEC + 3);
	memset(&o, 0, sizeof o);
	snprintf(hp, sizeof hp, "%s/l1.hp", tmpdir);
	snprintf(fo, sizeof fo, "%s/l1.folded", tmpdir);
	snprintf(ss, sizeof ss, "%s/l1.speedscope.json", tmpdir);
	o.hp = hp;
	o.folded = fo;
	o.speedscope = ss;
	EQ(export_end(m, &o), 0);
	EQ(hp_names(hp), 2);
	CHECK(file_has(hp, "T\\xe9\t10") && file_has(hp, "T\\xe8\t20"),
	    "bands as \\xNN");
	EQ(file_lines(fo), 3);
	CHECK(file_has(fo, "M\\xfc.f\\xe9 1\n") &&
	    file_has(fo, "M\\xfc.f\\xe8 2\n") &&
	    file_has(fo, "M\\xfc.f\\\\xe8 1\n"), "frames as \\xNN");
	CHECK(file_has(ss, "\"M\\\\xfc.f\\\\xe9\"") &&
	    file_has(ss, "\"M\\\\xfc.f\\\\\\\\xe8\""), "JSON: escaped, ASCII");
	CHECK(!file_has(ss, "\xef\xbf\xbd") && !file_has(fo, "\xef\xbf\xbd"),
	    "no U+FFFD");
	model_free(m);
}

int
main(void)
{
	char	cmd[128];

	if (mkdtemp(tmpdir) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	t_censuses();
	t_entries();
	t_evicted();
	t_caps();
	t_key();
	t_long_bands();
	t_no_census();
	t_same_names();
	t_programs();
	t_ipe_alike();
	t_latin1();
	snprintf(cmd, sizeof cmd, "ls %s | grep -c tmp >/dev/null", tmpdir);
	CHECK(system(cmd) != 0, "no temporary file left in %s", tmpdir);
	/* T_EXPORT_KEEP=1: the files stay, to be looked at. */
	if (getenv("T_EXPORT_KEEP") != NULL)
		printf("# kept %s\n", tmpdir);
	else {
		snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
		if (system(cmd) != 0)
			printf("# could not remove %s\n", tmpdir);
	}
	printf("%d passed, %d failed\n", passed, failed);
	return failed == 0 ? 0 : 1;
}
