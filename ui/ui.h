/*
 * ui.h: the terminal UI.
 *
 * The first part is the contract with the loop (src/loop/): a struct ui
 * that owns the terminal (ncursesw for output, libtermkey for keys).  The
 * rest is internal to ui/: plain "lines" (text plus attributes) that panes
 * render into without a terminal, the one key binding table, the layout
 * engine, the view (panes, focus, zoom, help, filter prompt) and the panes.
 * Only ui.c includes <curses.h> and <termkey.h>; everything else here can
 * be linked into tests and benchmarks without a terminal.
 */
#ifndef UI_H
#define UI_H

#include <stddef.h>
#include <stdint.h>

#include "evtop.h"

struct ui;
struct model;

/* What a key asks of the loop. */
enum ui_action {
	UI_NONE,
	UI_QUIT,
	UI_PAUSE_REPLAY,
	UI_FASTER,
	UI_SLOWER,
	UI_MAX_SPEED,
	UI_TO_END,
	UI_SEND,		/* *cmd filled */
	UI_RESET_WINDOW,
	UI_EXPORT,		/* cmd->id: the window on screen (model_win) */
	UI_SEEK,		/* go to the time ui_seek_ns() says */
	UI_RANGE,		/* show the range ui_range() says */
	UI_RANGE_OFF,		/* back from it */
};

/* ui.c */
struct ui	*ui_new(const struct evtop_opts *, char **);
void		 ui_free(struct ui *);
int		 ui_fd(const struct ui *);
int		 ui_timeout_ms(const struct ui *);
enum ui_action	 ui_input(struct ui *, int, struct evtop_cmd *);
void		 ui_draw(struct ui *, const struct model *,
		     const struct evtop_status *, int);
void		 ui_resize(struct ui *);
void		 ui_suspend(struct ui *);
void		 ui_resume(struct ui *);
void		 ui_emergency_restore(void);
uint64_t	 ui_seek_ns(const struct ui *);
void		 ui_range(const struct ui *, uint64_t *, uint64_t *);

/*
 * Everything below is internal to ui/ (and its tests).
 */

#define PANE_FILTER_MAX 64	/* bytes of a pane's filter text */

/* Attributes of a cell: meanings, mapped to colours or mono by ui.c. */
enum lines_attr {
	LINES_NORMAL,
	LINES_DIM,
	LINES_BOLD,
	LINES_TITLE,		/* a pane's title bar */
	LINES_TITLE_FOCUS,	/* the focused pane's title bar */
	LINES_HEAD,		/* column headings */
	LINES_SELECT,		/* the selected row of the focused pane */
	LINES_MUT,		/* mutator time */
	LINES_GC,		/* GC time */
	LINES_IDLE,		/* idle time, empty bar */
	LINES_GOOD,
	LINES_WARN,
	LINES_BAD,
	LINES_KEY,		/* a key in the bottom bar */
	LINES_KEYLABEL,		/* its label */
	LINES_SPARK,
	LINES_ACCENT,		/* names, figures worth a look */
	LINES_MATCH,		/* filter text */
	LINES_NATTR
};

/* One cell: a code point (0 = the right half of a wide one) and attr. */
struct lines_cell {
	uint32_t	 ch;
	uint8_t		 attr;
};

/* A width x height grid of cells. */
struct lines {
	int		 width;
	int		 height;
	int		 ascii;		/* no Unicode: bars and text in ASCII */
	int		 mono;		/* no colour: bars told apart by glyph */
	struct lines_cell *cell;
	size_t		 alloc;
};

/* lines.c */
void		 lines_init(struct lines *, int, int);
void		 lines_free(struct lines *);
void		 lines_reset(struct lines *, int, int);
int		 lines_put(struct lines *, int, int, int, const char *, int);
int		 lines_putn(struct lines *, int, int, int, const char *, size_t,
		     int);
int		 lines_putf(struct lines *, int, int, int, int, const char *,
		     ...) __attribute__((format(printf, 6, 7)));
int		 lines_put_right(struct lines *, int, int, int, const char *);
int		 lines_put_ev(struct lines *, int, int, int, const char *,
		     size_t, int);
void		 lines_putc(struct lines *, int, int, int, uint32_t);
void		 lines_fill(struct lines *, int, int, int, int, uint32_t);
void		 lines_attr(struct lines *, int, int, int, int);
void		 lines_mark(struct lines *, int, int, const char *, int);
void		 lines_blit(struct lines *, int, int, const struct lines *);
size_t		 lines_row_text(const struct lines *, int, char *, size_t);
size_t		 lines_text(const struct lines *, char *, size_t);
int		 lines_width(const char *, size_t, int);

/* fmt.c: figures as short text, bars and sparklines */
#define FMT_MAX	32
struct fmt_seg {
	double		 frac;		/* of the whole bar, 0..1 */
	int		 attr;
};
const char	*fmt_bytes(char *, uint64_t);
const char	*fmt_rate(char *, double);
const char	*fmt_count(char *, double);
const char	*fmt_ns(char *, uint64_t);
const char	*fmt_time(char *, uint64_t);
const char	*fmt_pct(char *, double);
void		 fmt_bar(struct lines *, int, int, int, const struct fmt_seg *,
		     int);
void		 fmt_meter(struct lines *, int, int, int, double, int);
void		 fmt_spark(struct lines *, int, int, int, const double *, int,
		     double, int);
int		 fmt_match(const char *, size_t, const char *);

/* keys.c: the one binding table */
enum keys_kind {
	KEYS_CHAR,		/* a Unicode code point */
	KEYS_FN,		/* function key number */
	KEYS_SYM,		/* one of enum keys_sym */
};
enum keys_sym {
	KEYS_SYM_NONE,
	KEYS_SYM_UP, KEYS_SYM_DOWN, KEYS_SYM_LEFT, KEYS_SYM_RIGHT,
	KEYS_SYM_PGUP, KEYS_SYM_PGDN, KEYS_SYM_HOME, KEYS_SYM_END,
	KEYS_SYM_TAB, KEYS_SYM_ENTER, KEYS_SYM_ESCAPE, KEYS_SYM_BACKSPACE,
	KEYS_SYM_DELETE, KEYS_SYM_SPACE,
};
#define KEYS_SHIFT	0x1
#define KEYS_ALT	0x2
#define KEYS_CTRL	0x4

/* A key press, translated from libtermkey by ui.c. */
struct keys_key {
	enum keys_kind	 kind;
	int		 code;		/* code point, F number or keys_sym */
	int		 mods;
	char		 utf8[8];	/* the text typed, for prompts */
};

enum keys_action {
	KEYS_NONE,
	KEYS_HELP,
	KEYS_QUIT,
	KEYS_PAUSE,
	KEYS_FILTER,
	KEYS_SORT_PREV,
	KEYS_SORT_NEXT,
	KEYS_SORT_REVERSE,
	KEYS_UP,
	KEYS_DOWN,
	KEYS_PGUP,
	KEYS_PGDN,
	KEYS_HOME,
	KEYS_END,
	KEYS_ENTER,
	KEYS_FOCUS_NEXT,
	KEYS_FOCUS_PREV,
	KEYS_OVERVIEW,
	KEYS_ZOOM1, KEYS_ZOOM2, KEYS_ZOOM3, KEYS_ZOOM4, KEYS_ZOOM5,
	KEYS_ZOOM6, KEYS_ZOOM7, KEYS_ZOOM8, KEYS_ZOOM9,
	KEYS_SEARCH_NEXT,
	KEYS_SEARCH_PREV,
	KEYS_SELF_TOTAL,
	KEYS_WINDOW,
	KEYS_RESET,
	KEYS_REDRAW,
	KEYS_SUSPEND,
	KEYS_FASTER,
	KEYS_SLOWER,
	KEYS_MAX_SPEED,
	KEYS_PAUSE_REPLAY,
	KEYS_TO_END,
	KEYS_GOTO,
	KEYS_RANGE_START,
	KEYS_RANGE_END,
	KEYS_TIME_PROF_ON,
	KEYS_TIME_PROF_OFF,
	KEYS_HEAP_PROF_ON,
	KEYS_HEAP_PROF_OFF,
	KEYS_CENSUS,
	KEYS_EXPORT,
	KEYS_LEFT,		/* the timeline: cursor a cell back */
	KEYS_RIGHT,
	KEYS_TL_IN,		/* zoom in, about the cursor */
	KEYS_TL_OUT,
	KEYS_TL_FIT,		/* the whole run */
	KEYS_TL_MARK_NEXT,
	KEYS_TL_MARK_PREV,
	KEYS_TL_LONG_NEXT,	/* the next longest GC pause */
	KEYS_TL_LONG_PREV,
	KEYS_NACTIONS
};

/* When a binding applies. */
#define KEYS_ANY	0
#define KEYS_REPLAY	1	/* a file being replayed */
#define KEYS_SOCKET	2	/* a unix or tcp socket: commands can be sent */

struct keys_binding {
	enum keys_kind	 kind;
	int		 code;
	int		 mods;
	enum keys_action action;
};

struct keys_info {
	enum keys_action action;
	const char	*group;		/* help section */
	const char	*keys;		/* as the help shows them */
	const char	*help;		/* what it does */
	const char	*bar;		/* bottom bar label, or NULL */
	const char	*barkey;	/* bottom bar key text */
	int		 when;		/* KEYS_ANY, KEYS_REPLAY, KEYS_SOCKET */
	uint8_t		 cmd;		/* eventlog-socket command id, or 0 */
};

enum keys_action keys_lookup(const struct keys_key *);
const struct keys_info *keys_info(enum keys_action);
const struct keys_info *keys_info_at(size_t);
size_t		 keys_ninfo(void);
const struct keys_binding *keys_binding_at(size_t);
int		 keys_help_render(struct lines *, int, int);
void		 keys_bar_render(struct lines *, int, int);

/* layout.c: where the panes go */
struct layout_item {
	int		 min;		/* rows below which it is left out */
	int		 good;		/* rows it is comfortable with */
	int		 want;		/* rows it can use */
	int		 prio;		/* lower is kept first */
	int		 col;		/* which column it prefers, 0 or 1 */
	/* Out. */
	int		 x, y, w, h;	/* h = 0: not shown */
};
int		 layout_columns(int, int);
void		 layout_place(struct layout_item *, int, int, int, int, int);

/* A pane's view state; ops draw from the model into lines. */
struct pane;
struct view;
struct pane_ops {
	const char	*name;
	const char	*key;		/* the zoom key, "1".."8" */
	const char	*const *sorts;	/* sort column names, or NULL */
	unsigned	 sorts_up;	/* bit i: sort i is smallest first */
	int		 select;	/* has a row selection */
	int		 win;		/* its window at first, -1: none */
	int		 min;		/* body rows it needs at least */
	int		 good;		/* body rows it is comfortable with */
	int		 (*want)(struct pane *, const struct model *, int);
	void		 (*title)(struct pane *, const struct model *, char *,
			     size_t);
	void		 (*render)(struct pane *, const struct model *,
			     struct lines *);
	int		 (*action)(struct pane *, enum keys_action);
	void		 (*free)(struct pane *);
	/* Work a pane does between frames (a search in slices), or NULL:
	 * whether it has some, a slice of it (1: the screen changed), stop
	 * it (1: there was some). */
	int		 (*busy)(struct pane *);
	int		 (*work)(struct pane *);
	int		 (*cancel)(struct pane *);
};

struct pane {
	const struct pane_ops *ops;
	int		 focus;
	int		 sort;
	int		 reverse;
	int		 self;		/* cost centres: sort by self */
	int		 win;		/* enum model_win, or -1 */
	int		 range;		/* a range is shown: win is the run's */
	int		 detail;	/* Enter: the selection's detail */
	int		 sel;		/* selected row */
	int		 top;		/* first row shown */
	int		 nrows;		/* rows there are, from the last render */
	int		 page;		/* rows shown by the last render */
	char		 filter[PANE_FILTER_MAX];
	void		*data;		/* the pane's scratch */
	struct view	*view;		/* its view: the shared time cursor */
	const struct evtop_status *st;	/* the loop's, from the last frame */
};

/* What an action may return besides 0 and 1: go to the view's cursor. */
#define PANE_SEEK	2

void		 pane_scroll(struct pane *, enum keys_action);
int		 pane_rows(struct pane *, int, int);
int		 pane_rows_want(const struct pane *, int);
const char	*pane_win_name(const struct pane *);

extern const struct pane_ops pane_caps_ops;
extern const struct pane_ops pane_gc_ops;
extern const struct pane_ops pane_heap_ops;
extern const struct pane_ops pane_nonmoving_ops;
extern const struct pane_ops pane_ccs_ops;
extern const struct pane_ops pane_threads_ops;
extern const struct pane_ops pane_msgs_ops;
extern const struct pane_ops pane_timeline_ops;
extern const struct pane_ops pane_events_ops;


/* header.c */
int		 header_rows(int);
void		 header_render(struct lines *, const struct model *,
		     const struct evtop_status *, int);

/* view.c: the screen without the terminal */
#define VIEW_NPANES	9
#define VIEW_PROMPT_FILTER	1	/* the focused pane's filter */
#define VIEW_PROMPT_GOTO	2	/* g: a time to go to */
struct view;
struct view	*view_new(enum evtop_src_kind);
void		 view_free(struct view *);
enum ui_action	 view_key(struct view *, const struct keys_key *,
		     struct evtop_cmd *);
void		 view_render(struct view *, const struct model *,
		     const struct evtop_status *, struct lines *);
int		 view_dirty(const struct view *);
void		 view_set_dirty(struct view *);
int		 view_paused(const struct view *);
int		 view_redraw_all(struct view *);
int		 view_busy(struct view *);
int		 view_work(struct view *);
struct pane	*view_pane(struct view *, int);
/* The time cursor the timeline and the raw events share (ns of event
 * time; VIEW_NO_CURSOR: none yet), and the time a UI_SEEK asks for. */
#define VIEW_NO_CURSOR	UINT64_MAX
uint64_t	 view_cursor(const struct view *);
void		 view_set_cursor(struct view *, uint64_t);
uint64_t	 view_seek_ns(const struct view *);
void		 view_range(const struct view *, uint64_t *, uint64_t *);

#endif
