/*
 * ui.c: the terminal.  ncursesw draws the frames the view composes,
 * libtermkey reads the keys; this is the only file that includes either.
 *
 * The terminal is /dev/tty (so `evtop -` can read events from stdin),
 * opened twice: a non-blocking descriptor for keys, which the loop polls,
 * and a blocking one for output, so a slow link never loses a frame.
 */
#include <sys/ioctl.h>

#include <errno.h>
#include <fcntl.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <curses.h>
#include <termkey.h>

#include "ui.h"

struct ui {
	int		 in_fd, out_fd;
	FILE		*in, *out;
	SCREEN		*scr;
	TermKey		*tk;
	struct view	*view;
	struct lines	 screen;
	int		 utf8;
	int		 color;
	int		 advised;	/* read the tty since the last UI_NONE */
	int		 pending;	/* termkey holds a partial key */
	uint64_t	 pending_at;	/* since when, monotonic ms */
	int		 suspended;
	char		 clear[64];	/* no alternate screen: clear at exit */
	attr_t		 attr[LINES_NATTR];
	short		 pair[LINES_NATTR];
};

/*
 * What ui_emergency_restore() needs, from a signal handler: the one piece
 * of file-scope state in ui/, since a handler can be given no argument.
 * Written before it is marked valid, and only read by the handler.
 */
static struct {
	volatile sig_atomic_t valid;
	int		 fd;
	struct termios	 saved;
	char		 seq[256];
	size_t		 len;
} ui_emerg;

/*
 * A terminfo string as bytes to write, its padding ($<50>, a delay for
 * tputs) left out; 0 if the terminal has none or it does not fit.
 */
static size_t
ui_cap(const char *cap, char *buf, size_t size)
{
	const char	*s = tigetstr(cap), *e;
	size_t		 n = 0;

	if (s == NULL || s == (char *)-1)
		return 0;
	for (; *s != '\0'; s++) {
		if (s[0] == '$' && s[1] == '<' &&
		    (e = strchr(s, '>')) != NULL) {
			s = e;
			continue;
		}
		if (n + 1 >= size)
			return 0;
		buf[n++] = *s;
	}
	buf[n] = '\0';
	return n;
}

/* Append a terminfo string to the emergency sequence. */
static void
ui_emerg_add(const char *cap)
{
	ui_emerg.len += ui_cap(cap, ui_emerg.seq + ui_emerg.len,
	    sizeof ui_emerg.seq - ui_emerg.len);
}

/* Colour pairs and attributes of each lines_attr. */
static void
ui_colors(struct ui *ui)
{
	static const struct {
		short	 fg, bg;
		attr_t	 a;		/* with colour */
		attr_t	 mono;		/* without */
	} map[LINES_NATTR] = {
		[LINES_NORMAL] = { -1, -1, A_NORMAL, A_NORMAL },
		[LINES_DIM] = { -1, -1, A_DIM, A_DIM },
		[LINES_BOLD] = { -1, -1, A_BOLD, A_BOLD },
		[LINES_TITLE] = { COLOR_WHITE, COLOR_BLUE, A_NORMAL,
		    A_REVERSE },
		[LINES_TITLE_FOCUS] = { COLOR_BLACK, COLOR_CYAN, A_NORMAL,
		    A_REVERSE | A_BOLD },
		[LINES_HEAD] = { COLOR_BLACK, COLOR_GREEN, A_NORMAL,
		    A_UNDERLINE },
		[LINES_SELECT] = { COLOR_BLACK, COLOR_CYAN, A_NORMAL,
		    A_REVERSE },
		[LINES_MUT] = { COLOR_GREEN, -1, A_NORMAL, A_NORMAL },
		[LINES_GC] = { COLOR_RED, -1, A_NORMAL, A_NORMAL },
		[LINES_IDLE] = { -1, -1, A_DIM, A_DIM },
		[LINES_GOOD] = { COLOR_GREEN, -1, A_BOLD, A_NORMAL },
		[LINES_WARN] = { COLOR_YELLOW, -1, A_BOLD, A_BOLD },
		[LINES_BAD] = { COLOR_RED, -1, A_BOLD, A_BOLD },
		[LINES_KEY] = { -1, -1, A_BOLD, A_BOLD },
		[LINES_KEYLABEL] = { COLOR_BLACK, COLOR_CYAN, A_NORMAL,
		    A_REVERSE },
		[LINES_SPARK] = { COLOR_CYAN, -1, A_NORMAL, A_NORMAL },
		[LINES_ACCENT] = { COLOR_CYAN, -1, A_NORMAL, A_BOLD },
		[LINES_MATCH] = { COLOR_YELLOW, -1, A_BOLD | A_UNDERLINE,
		    A_UNDERLINE },
	};
	int	i;

	for (i = 0; i < LINES_NATTR; i++) {
		ui->pair[i] = 0;
		if (!ui->color) {
			ui->attr[i] = map[i].mono;
			continue;
		}
		ui->attr[i] = map[i].a;
		if (map[i].fg != -1 || map[i].bg != -1) {
			init_pair((short)(i + 1), map[i].fg, map[i].bg);
			ui->pair[i] = (short)(i + 1);
		}
	}
}

static int
ui_open_tty(int flags)
{
	int	fd;

	fd = open("/dev/tty", flags | O_NOCTTY | O_CLOEXEC);
	if (fd >= 0 && !isatty(fd)) {
		close(fd);
		fd = -1;
	}
	return fd;
}

struct ui *
ui_new(const struct evtop_opts *opts, char **cause)
{
	struct ui	*ui;
	const char	*nc, *alt;
	int		 flags;

	if ((ui = calloc(1, sizeof *ui)) == NULL) {
		*cause = strdup("out of memory");
		return NULL;
	}
	ui->in_fd = ui->out_fd = -1;
	/* Keys and output: the controlling terminal, else stdin/stdout. */
	ui->in_fd = ui_open_tty(O_RDWR | O_NONBLOCK);	/* termkey writes smkx */
	ui->out_fd = ui_open_tty(O_WRONLY);
	if (ui->in_fd < 0 || ui->out_fd < 0) {
		if (ui->in_fd >= 0)
			close(ui->in_fd);
		if (ui->out_fd >= 0)
			close(ui->out_fd);
		ui->in_fd = ui->out_fd = -1;
		if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO) ||
		    opts->kind == EVTOP_SRC_STDIN) {
			*cause = strdup("no terminal (/dev/tty) to draw on");
			goto fail;
		}
		ui->in_fd = dup(STDIN_FILENO);
		ui->out_fd = dup(STDOUT_FILENO);
		if (ui->in_fd < 0 || ui->out_fd < 0) {
			*cause = strdup(strerror(errno));
			goto fail;
		}
	}
	if (tcgetattr(ui->in_fd, &ui_emerg.saved) != 0) {
		*cause = strdup("cannot read the terminal's settings");
		goto fail;
	}
	if ((ui->in = fdopen(ui->in_fd, "r")) == NULL ||
	    (ui->out = fdopen(ui->out_fd, "w")) == NULL) {
		*cause = strdup(strerror(errno));
		goto fail;
	}
	setlocale(LC_CTYPE, "");
	ui->utf8 = strcmp(nl_langinfo(CODESET), "UTF-8") == 0;
	if (getenv("TERM") == NULL || *getenv("TERM") == '\0') {
		*cause = strdup("TERM is not set");
		goto fail;
	}
	if ((ui->scr = newterm(NULL, ui->out, ui->in)) == NULL) {
		*cause = strdup("cannot use this terminal (TERM)");
		goto fail;
	}
	set_term(ui->scr);
	if (tigetstr("cup") == NULL || tigetstr("cup") == (char *)-1) {
		*cause = strdup("this terminal cannot move the cursor (TERM)");
		goto fail;
	}
	/*
	 * Left and entered again at once, as after ^Z: until then ncurses
	 * (6.4) writes out each cursor move as it makes it, a frame in a
	 * hundred writes (a packet each over ssh, a wake-up of tmux each);
	 * after, a frame in one or two.  Before the keys' settings
	 * (termkey's), which leaving would undo.
	 */
	endwin();
	refresh();
	/*
	 * Without an alternate screen (TERM=linux, vt100) the last frame
	 * would stay under the shell's prompt: cleared at exit instead.
	 */
	alt = tigetstr("smcup");
	if (alt == NULL || alt == (char *)-1 || *alt == '\0')
		ui_cap("clear", ui->clear, sizeof ui->clear);
	ui_emerg.fd = ui->out_fd;
	ui_emerg.len = 0;
	ui_emerg_add("rmcup");
	ui_emerg_add("cnorm");
	ui_emerg_add("sgr0");
	if (ui->clear[0] != '\0')
		ui_emerg_add("clear");	/* after sgr0: no colour left */
	ui_emerg_add("rmkx");
	ui_emerg.valid = 1;
	cbreak();
	noecho();
	nonl();
	intrflush(stdscr, FALSE);
	keypad(stdscr, FALSE);
	leaveok(stdscr, TRUE);
	curs_set(0);
	nc = getenv("NO_COLOR");
	ui->color = has_colors() && (nc == NULL || *nc == '\0');
	if (ui->color) {
		start_color();
		use_default_colors();
	}
	ui_colors(ui);
	flags = TERMKEY_FLAG_CONVERTKP | TERMKEY_FLAG_EINTR;
	flags |= ui->utf8 ? TERMKEY_FLAG_UTF8 : TERMKEY_FLAG_RAW;
	if ((ui->tk = termkey_new(ui->in_fd, flags)) == NULL) {
		*cause = strdup("cannot read keys from this terminal");
		goto fail;
	}
	termkey_set_canonflags(ui->tk, termkey_get_canonflags(ui->tk) |
	    TERMKEY_CANON_DELBS);
	if ((ui->view = view_new(opts->kind)) == NULL) {
		*cause = strdup("out of memory");
		goto fail;
	}
	lines_init(&ui->screen, 0, 0);
	erase();
	refresh();
	return ui;

fail:
	ui_free(ui);
	return NULL;
}

void
ui_free(struct ui *ui)
{
	if (ui == NULL)
		return;
	if (ui->tk != NULL)
		termkey_destroy(ui->tk);
	if (ui->scr != NULL) {
		if (!isendwin())
			endwin();
		if (ui->clear[0] != '\0' && ui->out != NULL) {
			fputs(ui->clear, ui->out);
			fflush(ui->out);
		}
		delscreen(ui->scr);
	}
	ui_emerg.valid = 0;
	if (ui->in != NULL)
		fclose(ui->in);
	else if (ui->in_fd >= 0)
		close(ui->in_fd);
	if (ui->out != NULL)
		fclose(ui->out);
	else if (ui->out_fd >= 0)
		close(ui->out_fd);
	view_free(ui->view);
	lines_free(&ui->screen);
	free(ui);
}

int
ui_fd(const struct ui *ui)
{
	return ui->in_fd;
}

static uint64_t
ui_ms(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* Until a partial key (a lone Escape) must be taken as it is. */
int
ui_timeout_ms(const struct ui *ui)
{
	uint64_t	now, wait;

	/* A pane still has work for the next frame (the timeline reading
	 * a range of the file, a search going on in slices). */
	if (view_dirty(ui->view) || view_busy(ui->view))
		return 0;
	if (!ui->pending)
		return -1;
	now = ui_ms();
	wait = (uint64_t)termkey_get_waittime(ui->tk);
	if (now - ui->pending_at >= wait)
		return 0;
	return (int)(ui->pending_at + wait - now);
}

/* A termkey key as the binding table knows keys. */
static int
ui_key(const TermKeyKey *tk, struct keys_key *k)
{
	memset(k, 0, sizeof *k);
	k->mods = tk->modifiers & (KEYS_SHIFT | KEYS_ALT | KEYS_CTRL);
	switch (tk->type) {
	case TERMKEY_TYPE_UNICODE:
		k->kind = KEYS_CHAR;
		k->code = (int)tk->code.codepoint;
		snprintf(k->utf8, sizeof k->utf8, "%s", tk->utf8);
		return 0;
	case TERMKEY_TYPE_FUNCTION:
		k->kind = KEYS_FN;
		k->code = tk->code.number;
		return 0;
	case TERMKEY_TYPE_KEYSYM:
		k->kind = KEYS_SYM;
		switch (tk->code.sym) {
		case TERMKEY_SYM_UP:		k->code = KEYS_SYM_UP; break;
		case TERMKEY_SYM_DOWN:		k->code = KEYS_SYM_DOWN; break;
		case TERMKEY_SYM_LEFT:		k->code = KEYS_SYM_LEFT; break;
		case TERMKEY_SYM_RIGHT:		k->code = KEYS_SYM_RIGHT; break;
		case TERMKEY_SYM_PAGEUP:	k->code = KEYS_SYM_PGUP; break;
		case TERMKEY_SYM_PAGEDOWN:	k->code = KEYS_SYM_PGDN; break;
		case TERMKEY_SYM_HOME:
		case TERMKEY_SYM_FIND:
		case TERMKEY_SYM_BEGIN:		k->code = KEYS_SYM_HOME; break;
		case TERMKEY_SYM_END:
		case TERMKEY_SYM_SELECT:	k->code = KEYS_SYM_END; break;
		case TERMKEY_SYM_TAB:		k->code = KEYS_SYM_TAB; break;
		case TERMKEY_SYM_ENTER:
		case TERMKEY_SYM_KPENTER:	k->code = KEYS_SYM_ENTER; break;
		case TERMKEY_SYM_ESCAPE:	k->code = KEYS_SYM_ESCAPE; break;
		case TERMKEY_SYM_BACKSPACE:
		case TERMKEY_SYM_DEL:		k->code = KEYS_SYM_BACKSPACE;
						break;
		case TERMKEY_SYM_DELETE:	k->code = KEYS_SYM_DELETE; break;
		case TERMKEY_SYM_SPACE:		k->code = KEYS_SYM_SPACE; break;
		case TERMKEY_SYM_HELP:
			k->kind = KEYS_FN;
			k->code = 1;
			break;
		default:
			return -1;
		}
		return 0;
	default:
		return -1;	/* mouse, reports: not used */
	}
}

enum ui_action
ui_input(struct ui *ui, int readable, struct evtop_cmd *cmd)
{
	TermKeyResult	 res;
	TermKeyKey	 tkk;
	struct keys_key	 k;
	enum ui_action	 a;

	if (ui->suspended)
		return UI_NONE;
	if (readable && !ui->advised) {
		ui->advised = 1;
		errno = 0;
		if (termkey_advisereadable(ui->tk) == TERMKEY_RES_ERROR &&
		    errno != EAGAIN && errno != EINTR) {
			/* The terminal went away (EIO after a hangup). */
			ui->advised = 0;
			return UI_QUIT;
		}
	}
	for (;;) {
		/* Force a partial key only once its time is up: poll may
		 * have returned early for the source. */
		if (!readable && ui->pending && ui_timeout_ms(ui) == 0)
			res = termkey_getkey_force(ui->tk, &tkk);
		else
			res = termkey_getkey(ui->tk, &tkk);
		switch (res) {
		case TERMKEY_RES_KEY:
			ui->pending = 0;
			if (ui_key(&tkk, &k) != 0)
				continue;
			/* libtermkey takes ^Z from the terminal driver: stop
			 * as it would have, through the loop's handler. */
			if (keys_lookup(&k) == KEYS_SUSPEND) {
				raise(SIGTSTP);
				continue;
			}
			a = view_key(ui->view, &k, cmd);
			if (a != UI_NONE)
				return a;
			continue;
		case TERMKEY_RES_AGAIN:
			if (!ui->pending)
				ui->pending_at = ui_ms();
			ui->pending = 1;
			break;
		case TERMKEY_RES_EOF:
			ui->advised = 0;
			return UI_QUIT;	/* the terminal went away */
		default:
			ui->pending = 0;
			break;
		}
		break;
	}
	ui->advised = 0;
	return UI_NONE;
}

/* Copy the composed frame to curses. */
static void
ui_paint(struct ui *ui)
{
	const struct lines_cell	*c;
	cchar_t			 cc;
	wchar_t			 wc[2];
	int			 x, y, a;

	for (y = 0; y < ui->screen.height; y++) {
		c = &ui->screen.cell[(size_t)y * ui->screen.width];
		for (x = 0; x < ui->screen.width; x++) {
			if (c[x].ch == 0)
				continue;
			a = c[x].attr < LINES_NATTR ? c[x].attr : 0;
			wc[0] = (wchar_t)c[x].ch;
			wc[1] = L'\0';
			if (setcchar(&cc, wc, ui->attr[a], ui->pair[a], NULL) !=
			    OK)
				continue;
			mvwadd_wch(stdscr, y, x, &cc);
		}
	}
}

void
ui_draw(struct ui *ui, const struct model *m, const struct evtop_status *st,
    int changed)
{
	int	h, w;

	if (ui->suspended)
		return;
	view_work(ui->view);
	if (!view_dirty(ui->view) && (!changed || view_paused(ui->view)))
		return;
	getmaxyx(stdscr, h, w);
	ui->screen.ascii = !ui->utf8;
	ui->screen.mono = !ui->color;
	lines_reset(&ui->screen, w, h);
	view_render(ui->view, m, st, &ui->screen);
	if (view_redraw_all(ui->view))
		clearok(curscr, TRUE);
	ui_paint(ui);
	wnoutrefresh(stdscr);
	doupdate();
}

void
ui_resize(struct ui *ui)
{
	struct winsize	ws;

	if (ioctl(ui->out_fd, TIOCGWINSZ, &ws) == 0 && ws.ws_row > 0 &&
	    ws.ws_col > 0)
		resize_term(ws.ws_row, ws.ws_col);
	clearok(curscr, TRUE);
	view_set_dirty(ui->view);
}

void
ui_suspend(struct ui *ui)
{
	if (ui->suspended)
		return;
	termkey_stop(ui->tk);
	endwin();
	ui->suspended = 1;
}

void
ui_resume(struct ui *ui)
{
	if (!ui->suspended)
		return;
	ui->suspended = 0;
	termkey_start(ui->tk);
	ui_resize(ui);
	refresh();
}

/*
 * From a signal handler: leave the alternate screen, show the cursor,
 * reset attributes and put back the terminal's settings from before.
 * Only write() and tcsetattr(), both async-signal-safe.
 */
void
ui_emergency_restore(void)
{
	ssize_t	n;
	size_t	off = 0;

	if (!ui_emerg.valid)
		return;
	while (off < ui_emerg.len) {
		n = write(ui_emerg.fd, ui_emerg.seq + off, ui_emerg.len - off);
		if (n <= 0)
			break;
		off += (size_t)n;
	}
	tcsetattr(ui_emerg.fd, TCSANOW, &ui_emerg.saved);
}

/* The time a UI_SEEK asks for. */
uint64_t
ui_seek_ns(const struct ui *u)
{
	return view_seek_ns(u->view);
}

/* The range a UI_RANGE asks for. */
void
ui_range(const struct ui *u, uint64_t *from, uint64_t *to)
{
	view_range(u->view, from, to);
}
