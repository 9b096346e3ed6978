/*
 * evtop.c: main(): the command line, and the wiring of the layers.
 *
 *	evtop show FILE			what `ghc-events show` prints
 *	evtop --batch [--json] SOURCE	headless figures (batch.c, loop.c)
 *	evtop [OPTIONS] SOURCE		the TUI (loop.c and ui/)
 */
#include <errno.h>
#include <getopt.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "evtop.h"
#include "time/redo.h"
#include "time/when.h"
#include "source/source.h"
#include "ui.h"

#ifndef EVTOP_VERSION
#define EVTOP_VERSION "0.1.0"
#endif

static const char evtop_usage[] =
"usage: evtop [OPTIONS] SOURCE\n"
"       evtop --batch [--json] [--interval SECONDS] [OPTIONS] SOURCE\n"
"       evtop show FILE\n"
"\n"
"A live top for GHC programs: reads a GHC eventlog as it is written and\n"
"shows threads, capabilities, GC, heap and cost centres.  Tested with\n"
"programs built by GHC 9.0.2 and 9.6 (IPE and -hi included); reads the\n"
"eventlogs of GHC 6.12 to 9.11.\n"
"\n"
"SOURCE is one of:\n"
"  FILE                 a recorded eventlog, replayed at its own pace\n"
"                         evtop prog.eventlog\n"
"  PATH                 a FIFO or a Unix socket, by what the path is\n"
"                         evtop /tmp/prog.sock\n"
"  -                    an eventlog stream on standard input\n"
"                         prog +RTS -l -ol /dev/stdout | evtop -\n"
"  --unix PATH          connect to an eventlog-socket Unix socket\n"
"                         evtop --unix /tmp/prog.sock\n"
"  --tcp HOST:PORT      connect over TCP (IPv6: [ADDRESS]:PORT)\n"
"                         evtop --tcp localhost:4242\n"
"                         evtop --tcp [::1]:4242\n"
"  --fifo PATH          read a named pipe the program writes to\n"
"                         mkfifo /tmp/el; prog +RTS -l -ol/tmp/el &\n"
"                         evtop --fifo /tmp/el\n"
"\n"
"Options:\n"
"  --batch              no terminal UI: print the figures and exit\n"
"                         evtop --batch prog.eventlog\n"
"  --json               with --batch, print JSON\n"
"                         evtop --batch --json prog.eventlog\n"
"  --interval SECONDS   with --batch on a live source, print every\n"
"                       SECONDS of wall time (default 1)\n"
"                         evtop --batch --interval 5 --unix /tmp/prog.sock\n"
"  --from T, --to T     with --batch on a file, the figures of the\n"
"                       events with FROM <= time < TO: T in seconds, or\n"
"                       as 1m30s, 250ms, end\n"
"                         evtop --batch --json --from 0.5 --to 0.9 prog.eventlog\n"
"  --once               exit when a live source ends instead of\n"
"                       waiting for it to come back\n"
"                         evtop --batch --once --fifo /tmp/el\n"
"  --record FILE        write the bytes received to FILE; a reconnection\n"
"                       goes on in FILE.1, FILE.2, ...\n"
"                         evtop --record run.eventlog --unix /tmp/prog.sock\n"
"  --send NS:ID         send a control command once connected\n"
"                       (repeatable); NS:ID or a built-in name: census,\n"
"                       start-heap-profiling, stop-heap-profiling,\n"
"                       start-profiling, stop-profiling\n"
"                         evtop --send census --unix /tmp/prog.sock\n"
"                         evtop --send eventlog-socket:5 --tcp localhost:4242\n"
"  --speed X            replay speed of a file (default 1, 0 = as fast\n"
"                       as possible)\n"
"                         evtop --speed 10 prog.eventlog\n"
"  --metrics HOST:PORT  serve Prometheus metrics at /metrics; with\n"
"                       --batch, goes on after the source ends until\n"
"                       SIGINT or SIGTERM\n"
"                         evtop --metrics 127.0.0.1:9464 --unix /tmp/prog.sock\n"
"  --serve PATH         re-serve the eventlog on a Unix socket (mode\n"
"                       0600) to any number of readers\n"
"                         evtop --serve /tmp/relay.sock --unix /tmp/prog.sock\n"
"  --serve-tcp HOST:PORT  the same over TCP\n"
"                         evtop --serve-tcp 127.0.0.1:4243 --tcp localhost:4242\n"
"  --serve-queue MIB    a relay client further behind is dropped\n"
"                       (default 16)\n"
"                         evtop --serve /tmp/r.sock --serve-queue 64 app.eventlog\n"
"  --serve-readonly     do not forward relay clients' control commands\n"
"                         evtop --serve /tmp/r.sock --serve-readonly --unix /tmp/p.sock\n"
"  --folded FILE        at the end, write the time profile's samples as\n"
"                       folded stacks (flame graphs); - for stdout\n"
"                         evtop --batch --folded prof.folded prog.eventlog\n"
"  --speedscope FILE    at the end, write them as a speedscope file\n"
"                         evtop --batch --speedscope p.json --unix /tmp/p.sock\n"
"  --hp FILE            at the end, write the heap profile's censuses as\n"
"                       GHC's .hp (hp2ps, eventlog2html)\n"
"                         evtop --batch --hp prog.hp prog.eventlog\n"
"  --export-dir DIR     where the export key (E) writes (default .)\n"
"                         evtop --export-dir /tmp/profiles prog.eventlog\n"
"  --history TIME       how much of a live source to keep, to put late\n"
"                       events in their place and go back (g): 10m by\n"
"                       default, 0 for none\n"
"                         evtop --history 2m --unix /tmp/prog.sock\n"
"  --history-size MIB   and at most this many MiB of it (default 512)\n"
"                         evtop --history-size 64 --fifo /tmp/el\n"
"  --log FILE           write a log of what happens to FILE\n"
"                         evtop --log evtop.log --unix /tmp/prog.sock\n"
"  -v                   log to evtop-PID.log in the current directory\n"
"                         evtop -v prog.eventlog\n"
"  -h, --help           this help\n"
"                         evtop --help\n"
"  -V, --version        the version\n"
"                         evtop --version\n"
"\n"
"See evtop(1).\n";

enum {
	OPT_UNIX = 256,
	OPT_TCP,
	OPT_FIFO,
	OPT_BATCH,
	OPT_JSON,
	OPT_INTERVAL,
	OPT_ONCE,
	OPT_RECORD,
	OPT_SEND,
	OPT_SPEED,
	OPT_LOG,
	OPT_METRICS,
	OPT_SERVE,
	OPT_SERVE_TCP,
	OPT_SERVE_QUEUE,
	OPT_SERVE_READONLY,
	OPT_FOLDED,
	OPT_SPEEDSCOPE,
	OPT_HP,
	OPT_EXPORT_DIR,
	OPT_FROM,
	OPT_TO,
	OPT_HISTORY,
	OPT_HISTORY_SIZE,
};

static const struct option evtop_longopts[] = {
	{ "unix", required_argument, NULL, OPT_UNIX },
	{ "tcp", required_argument, NULL, OPT_TCP },
	{ "fifo", required_argument, NULL, OPT_FIFO },
	{ "batch", no_argument, NULL, OPT_BATCH },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "interval", required_argument, NULL, OPT_INTERVAL },
	{ "once", no_argument, NULL, OPT_ONCE },
	{ "record", required_argument, NULL, OPT_RECORD },
	{ "send", required_argument, NULL, OPT_SEND },
	{ "speed", required_argument, NULL, OPT_SPEED },
	{ "log", required_argument, NULL, OPT_LOG },
	{ "metrics", required_argument, NULL, OPT_METRICS },
	{ "serve", required_argument, NULL, OPT_SERVE },
	{ "serve-tcp", required_argument, NULL, OPT_SERVE_TCP },
	{ "serve-queue", required_argument, NULL, OPT_SERVE_QUEUE },
	{ "serve-readonly", no_argument, NULL, OPT_SERVE_READONLY },
	{ "from", required_argument, NULL, OPT_FROM },
	{ "to", required_argument, NULL, OPT_TO },
	{ "history", required_argument, NULL, OPT_HISTORY },
	{ "history-size", required_argument, NULL, OPT_HISTORY_SIZE },
	{ "folded", required_argument, NULL, OPT_FOLDED },
	{ "speedscope", required_argument, NULL, OPT_SPEEDSCOPE },
	{ "hp", required_argument, NULL, OPT_HP },
	{ "export-dir", required_argument, NULL, OPT_EXPORT_DIR },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 }
};

static int
evtop_ui_input(struct ui *ui, int readable, struct evtop_cmd *cmd)
{
	return ui_input(ui, readable, cmd);
}

/* The TUI: the loop, given the UI's functions. */
int
tui_main(const struct evtop_opts *opts)
{
	static const struct loop_ui ui = {
		.new = ui_new,
		.free = ui_free,
		.fd = ui_fd,
		.timeout_ms = ui_timeout_ms,
		.input = evtop_ui_input,
		.draw = ui_draw,
		.resize = ui_resize,
		.suspend = ui_suspend,
		.resume = ui_resume,
		.emergency_restore = ui_emergency_restore,
		.seek_ns = ui_seek_ns,
		.range = ui_range,
	};

	return loop_tui(opts, &ui);
}

static int
evtop_bad(const char *fmt, const char *arg)
{
	fprintf(stderr, "evtop: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry 'evtop --help'.\n");
	return 2;
}

static int
evtop_number(const char *arg, double *out)
{
	char	*end;
	double	 d;

	errno = 0;
	d = strtod(arg, &end);
	if (*arg == '\0' || *end != '\0' || errno != 0 || !isfinite(d) ||
	    d < 0)
		return -1;
	*out = d;
	return 0;
}

/* --metrics, --serve*: what serve.h offers. */
static int
evtop_serve_opt(struct evtop_opts *opts, int c, const char *arg)
{
	char	host[256], port[32], *cause = NULL;
	double	mib;

	switch (c) {
	case OPT_METRICS:
	case OPT_SERVE_TCP:
		if (source_tcp_split(arg, host, sizeof host, port,
		    sizeof port, &cause) != 0) {
			fprintf(stderr, "evtop: %s %s\n", c == OPT_METRICS ?
			    "--metrics" : "--serve-tcp", cause);
			free(cause);
			return 2;
		}
		if (c == OPT_METRICS)
			opts->metrics = arg;
		else
			opts->serve_tcp = arg;
		return 0;
	case OPT_SERVE:
		opts->serve = arg;
		return 0;
	case OPT_SERVE_QUEUE:
		if (evtop_number(arg, &mib) != 0 || mib < 0.0625 ||
		    mib > 4096)
			return evtop_bad("--serve-queue %s: expected MiB, "
			    "0.0625 to 4096", arg);
		opts->serve_queue = (size_t)(mib * 1048576);
		return 0;
	case OPT_SERVE_READONLY:
		opts->serve_readonly = 1;
		return 0;
	}
	return 2;
}

static int
evtop_source(struct evtop_opts *opts, int *given, enum evtop_src_kind kind,
    const char *target)
{
	if (*given)
		return evtop_bad("more than one source: %s", target);
	*given = 1;
	opts->kind = kind;
	opts->target = target;
	return 0;
}

/* At most one export to stdout, and that only with --batch. */
static int
evtop_export_check(const struct evtop_opts *o)
{
	char	*cause = NULL;
	int	 n = 0;

	n += o->folded != NULL && strcmp(o->folded, "-") == 0;
	n += o->speedscope != NULL && strcmp(o->speedscope, "-") == 0;
	n += o->hp != NULL && strcmp(o->hp, "-") == 0;
	if (n > 1)
		return evtop_bad("%s: one export at most to stdout", "-");
	if (n > 0 && !o->batch)
		return evtop_bad("%s: an export to stdout needs --batch", "-");
	/* A path that cannot be written fails now, not after the run. */
	if (export_check(o, &cause) != 0) {
		n = evtop_bad("%s", cause != NULL ? cause : "out of memory");
		free(cause);
		return n;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	struct evtop_opts	 opts;
	char			 logname[64], *cause = NULL;
	int			 c, given = 0, r;

#ifdef M_MMAP_THRESHOLD
	/* Large blocks (a reader's tables, a thread's slabs) go back to the
	 * system when freed.  glibc would raise the threshold to the largest
	 * block freed and keep such blocks in its heaps, one a thread: with
	 * a live history read on a thread of its own, 16 MB more at peak. */
	mallopt(M_MMAP_THRESHOLD, 128 << 10);
#endif
	if (argc >= 2 && strcmp(argv[1], "show") == 0)
		return show_main(argc - 1, argv + 1);

	memset(&opts, 0, sizeof opts);
	opts.interval = 1;
	opts.speed = 1;
	opts.history_ns = REDO_HISTORY_NS;
	opts.history_bytes = REDO_HISTORY_BYTES;
	opts.to_ns = UINT64_MAX;
	while ((c = getopt_long(argc, argv, "hvV", evtop_longopts,
	    NULL)) != -1) {
		switch (c) {
		case OPT_UNIX:
			if ((r = evtop_source(&opts, &given, EVTOP_SRC_UNIX,
			    optarg)) != 0)
				return r;
			break;
		case OPT_TCP:
			if ((r = evtop_source(&opts, &given, EVTOP_SRC_TCP,
			    optarg)) != 0)
				return r;
			break;
		case OPT_FIFO:
			if ((r = evtop_source(&opts, &given, EVTOP_SRC_FIFO,
			    optarg)) != 0)
				return r;
			break;
		case OPT_BATCH:
			opts.batch = 1;
			break;
		case OPT_FROM:
		case OPT_TO:
			if (when_parse(optarg, 0, UINT64_MAX, c == OPT_FROM ?
			    &opts.from_ns : &opts.to_ns) != 0 ||
			    optarg[0] == '+' || optarg[0] == '-')
				return evtop_bad(c == OPT_FROM ?
				    "--from %s: expected a time: seconds, "
				    "or as 1m30s, 250ms, end" :
				    "--to %s: expected a time: seconds, "
				    "or as 1m30s, 250ms, end", optarg);
			opts.range = 1;
			break;
		case OPT_HISTORY:
			if (when_parse(optarg, 0, UINT64_MAX,
			    &opts.history_ns) != 0 || optarg[0] == '+' ||
			    optarg[0] == '-' || opts.history_ns == UINT64_MAX)
				return evtop_bad("--history %s: expected a "
				    "time: seconds, or as 10m, 90s; 0 for "
				    "none", optarg);
			break;
		case OPT_HISTORY_SIZE: {
			double	mib;

			if (evtop_number(optarg, &mib) != 0 || mib < 1 ||
			    mib > 1048576)
				return evtop_bad("--history-size %s: expected "
				    "MiB, 1 to 1048576", optarg);
			opts.history_bytes = (uint64_t)(mib * 1048576);
			break;
		}
		case OPT_JSON:
			opts.json = 1;
			break;
		case OPT_INTERVAL:
			if (evtop_number(optarg, &opts.interval) != 0 ||
			    opts.interval < 0.01)
				return evtop_bad("--interval %s: expected "
				    "seconds, at least 0.01", optarg);
			break;
		case OPT_ONCE:
			opts.once = 1;
			break;
		case OPT_RECORD:
			opts.record = optarg;
			break;
		case OPT_SEND:
			if (opts.nsend == EVTOP_MAX_SEND)
				return evtop_bad("--send %s: too many "
				    "commands", optarg);
			if (control_parse(optarg, &opts.send[opts.nsend],
			    &cause) != 0) {
				fprintf(stderr, "evtop: --send %s\n", cause);
				free(cause);
				return 2;
			}
			opts.nsend++;
			break;
		case OPT_SPEED:
			if (evtop_number(optarg, &opts.speed) != 0)
				return evtop_bad("--speed %s: expected a "
				    "number, 0 or more", optarg);
			break;
		case OPT_LOG:
			opts.log = optarg;
			break;
		case OPT_METRICS:
		case OPT_SERVE:
		case OPT_SERVE_TCP:
		case OPT_SERVE_QUEUE:
		case OPT_SERVE_READONLY:
			if ((r = evtop_serve_opt(&opts, c, optarg)) != 0)
				return r;
			break;
		/* Profiles out (export.c). */
		case OPT_FOLDED:
			opts.folded = optarg;
			break;
		case OPT_SPEEDSCOPE:
			opts.speedscope = optarg;
			break;
		case OPT_HP:
			opts.hp = optarg;
			break;
		case OPT_EXPORT_DIR:
			opts.export_dir = optarg;
			break;
		case 'v':
			snprintf(logname, sizeof logname, "evtop-%ld.log",
			    (long)getpid());
			opts.log = logname;
			break;
		case 'h':
			fputs(evtop_usage, stdout);
			return 0;
		case 'V':
			printf("evtop %s\n", EVTOP_VERSION);
			return 0;
		default:
			fprintf(stderr, "Try 'evtop --help'.\n");
			return 2;
		}
	}
	if (optind < argc) {
		if (optind + 1 < argc)
			return evtop_bad("unexpected argument: %s",
			    argv[optind + 1]);
		if (given)
			return evtop_bad("more than one source: %s",
			    argv[optind]);
		if (source_kind_of(argv[optind], &opts.kind, &cause) != 0) {
			fprintf(stderr, "evtop: %s\n", cause);
			free(cause);
			return 1;
		}
		opts.target = argv[optind];
		given = 1;
	}
	if (!given) {
		fputs(evtop_usage, stderr);
		return 2;
	}
	if (opts.kind == EVTOP_SRC_TCP) {
		char host[256], port[32];

		if (source_tcp_split(opts.target, host, sizeof host, port,
		    sizeof port, &cause) != 0) {
			fprintf(stderr, "evtop: --tcp %s\n", cause);
			free(cause);
			return 2;
		}
	}
	if (opts.json && !opts.batch)
		return evtop_bad("%s needs --batch", "--json");
	if (opts.record != NULL && opts.kind == EVTOP_SRC_FILE)
		return evtop_bad("--record %s: the source is a file already",
		    opts.record);
	if (opts.nsend > 0 && opts.kind != EVTOP_SRC_UNIX &&
	    opts.kind != EVTOP_SRC_TCP)
		return evtop_bad("--send needs a socket source (--unix or "
		    "--tcp), not %s", opts.target);
	if ((r = evtop_export_check(&opts)) != 0)
		return r;
	if (opts.range && (!opts.batch || opts.kind != EVTOP_SRC_FILE))
		return evtop_bad("--from and --to need --batch and a file, "
		    "not %s", opts.target);
	/* (--from end alone, or with --to end: the state at the end.) */
	if (opts.range && opts.from_ns >= opts.to_ns &&
	    opts.to_ns != UINT64_MAX)
		return evtop_bad("--from must come before --to (%s)",
		    opts.target);

	if (opts.batch)
		return batch_main(&opts);
	return tui_main(&opts);
}
