/*
 * tuidouble.c: the TUI loop (loop_tui) with a test double in place of ui/,
 * so that the loop can be driven without a terminal.
 *
 *	tuidouble [--speed X] [--once] [--send NS:ID] [--record FILE]
 *		  [--unix PATH | --tcp HOST:PORT | --fifo PATH | FILE]
 *
 * Keys are bytes on standard input: q quit, p pause/resume the replay,
 * + faster, - slower, m max speed, e to the end, c send a census, x send
 * sockprog:1, z reset the window.  Each draw prints one line on standard
 * output:
 *
 *	draw MS changed conn=N bytes=N speed=X paused=N pos=N/N ftime=N
 *	    events=N cmd="..." pending=N seen=N msg="..."
 *
 * and resize, suspend, resume, free print their name.  The emergency
 * restore writes "emergency" on standard error.  TUID_DRAW_MS=N makes each
 * draw take N ms (a slow terminal).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "evtop.h"
#include "model/model.h"
#include "source/source.h"
#include "ui.h"

struct ui {
	int		 fd;
	uint64_t	 start;
	long		 draw_ms;
	unsigned char	 buf[64];
	size_t		 n, i;
};

static uint64_t
now_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static struct ui *
double_new(const struct evtop_opts *o, char **cause)
{
	struct ui	*ui;
	const char	*s;

	if (getenv("TUID_FAIL") != NULL) {
		*cause = strdup("no terminal (TUID_FAIL)");
		return NULL;
	}
	ui = calloc(1, sizeof *ui);
	ui->fd = 0;
	fcntl(0, F_SETFL, fcntl(0, F_GETFL) | O_NONBLOCK);
	ui->start = now_ms();
	if ((s = getenv("TUID_DRAW_MS")) != NULL)
		ui->draw_ms = strtol(s, NULL, 10);
	printf("new\n");
	fflush(stdout);
	return ui;
}

static void
double_free(struct ui *ui)
{
	printf("free\n");
	fflush(stdout);
	free(ui);
}

static int
double_fd(const struct ui *ui)
{
	return ui->fd;
}

static int
double_timeout_ms(const struct ui *ui)
{
	return -1;
}

static int
double_input(struct ui *ui, int readable, struct evtop_cmd *cmd)
{
	ssize_t	r;
	char	*cause;

	if (ui->i == ui->n && readable && ui->fd != -1) {
		r = read(ui->fd, ui->buf, sizeof ui->buf);
		if (r == 0)
			ui->fd = -1;	/* no more keys: stop polling */
		ui->n = r > 0 ? (size_t)r : 0;
		ui->i = 0;
	}
	while (ui->i < ui->n) {
		switch (ui->buf[ui->i++]) {
		case 'q':
			return UI_QUIT;
		case 'p':
			return UI_PAUSE_REPLAY;
		case '+':
			return UI_FASTER;
		case '-':
			return UI_SLOWER;
		case 'm':
			return UI_MAX_SPEED;
		case 'e':
			return UI_TO_END;
		case 'z':
			return UI_RESET_WINDOW;
		case 'c':
			control_parse("census", cmd, &cause);
			return UI_SEND;
		case 'x':
			control_parse("sockprog:1", cmd, &cause);
			return UI_SEND;
		}
	}
	return UI_NONE;
}

static void
double_draw(struct ui *ui, const struct model *m,
    const struct evtop_status *st, int changed)
{
	if (!changed)
		return;
	printf("draw %llu changed conn=%d bytes=%llu speed=%g paused=%d "
	    "pos=%llu/%llu ftime=%llu events=%llu cmd=\"%s\" pending=%d "
	    "seen=%d rec=%s msg=\"%s\"\n",
	    (unsigned long long)(now_ms() - ui->start), (int)st->conn,
	    (unsigned long long)st->bytes, st->speed, st->paused,
	    (unsigned long long)st->file_pos,
	    (unsigned long long)st->file_size,
	    (unsigned long long)st->file_time,
	    (unsigned long long)m->totals.events, st->cmd_msg,
	    st->cmd_pending, st->cmd_seen,
	    st->record_path != NULL ? st->record_path : "-", st->conn_msg);
	fflush(stdout);
	if (ui->draw_ms > 0)
		usleep((useconds_t)ui->draw_ms * 1000);
}

static void
double_resize(struct ui *ui)
{
	printf("resize\n");
	fflush(stdout);
}

static void
double_suspend(struct ui *ui)
{
	printf("suspend\n");
	fflush(stdout);
}

static void
double_resume(struct ui *ui)
{
	printf("resume\n");
	fflush(stdout);
}

static void
double_emergency(void)
{
	static const char msg[] = "emergency\n";

	(void)!write(2, msg, sizeof msg - 1);
}

int
main(int argc, char **argv)
{
	static const struct loop_ui ops = {
		.new = double_new,
		.free = double_free,
		.fd = double_fd,
		.timeout_ms = double_timeout_ms,
		.input = double_input,
		.draw = double_draw,
		.resize = double_resize,
		.suspend = double_suspend,
		.resume = double_resume,
		.emergency_restore = double_emergency,
	};
	struct evtop_opts	 o;
	char			*cause = NULL;
	int			 i;

	memset(&o, 0, sizeof o);
	o.speed = 1;
	o.interval = 1;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--speed") == 0 && i + 1 < argc)
			o.speed = strtod(argv[++i], NULL);
		else if (strcmp(argv[i], "--once") == 0)
			o.once = 1;
		else if (strcmp(argv[i], "--record") == 0 && i + 1 < argc)
			o.record = argv[++i];
		else if (strcmp(argv[i], "--send") == 0 && i + 1 < argc) {
			if (control_parse(argv[++i], &o.send[o.nsend++],
			    &cause) != 0)
				return 2;
		} else if (strcmp(argv[i], "--unix") == 0 && i + 1 < argc) {
			o.kind = EVTOP_SRC_UNIX;
			o.target = argv[++i];
		} else if (strcmp(argv[i], "--tcp") == 0 && i + 1 < argc) {
			o.kind = EVTOP_SRC_TCP;
			o.target = argv[++i];
		} else if (strcmp(argv[i], "--fifo") == 0 && i + 1 < argc) {
			o.kind = EVTOP_SRC_FIFO;
			o.target = argv[++i];
		} else {
			o.kind = EVTOP_SRC_FILE;
			o.target = argv[i];
		}
	}
	if (o.target == NULL) {
		fprintf(stderr, "usage: tuidouble [options] SOURCE\n");
		return 2;
	}
	return loop_tui(&o, &ops);
}
