/*
 * loop-signals.c: the signals the poll loop takes, through a self-pipe, and
 * the terminal put back before a crash or a stop (job control).
 */
#include <stdio.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "loop/loop-priv.h"

/*
 * What the signal handlers need: the write end of the self-pipe, and how
 * to put the terminal back before dying.  The only file-scope variables,
 * set by loop_signals() and cleared by loop_unsignals().
 */
static int loop_sig_fd = -1;
static void (*loop_sig_restore)(void);

/*
 * The signals whose default action ends the process, bar those the loop
 * handles and SIGKILL, SIGSTOP: with a terminal, each puts it back first
 * (then dies as it would have).  The crash handlers run on a stack of
 * their own, so that a stack overflow (SIGSEGV) is one too.
 */
static const int loop_fatal[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL,
    SIGTRAP, SIGSYS, SIGQUIT, SIGXCPU, SIGXFSZ, SIGUSR1, SIGUSR2, SIGALRM,
    SIGVTALRM, SIGPROF, SIGPOLL, SIGSTKFLT, SIGPWR };
#define LOOP_NFATAL	(sizeof loop_fatal / sizeof loop_fatal[0])
#define LOOP_ALTSTACK	(64 << 10)
static char loop_altstack[LOOP_ALTSTACK];

static void
loop_sig_handler(int sig)
{
	unsigned char	c = (unsigned char)sig;
	int		saved = errno;

	if (loop_sig_fd != -1)
		(void)!write(loop_sig_fd, &c, 1);
	errno = saved;
}

static void
loop_catch(int sig, void (*fn)(int), int flags)
{
	struct sigaction	sa;

	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = fn;
	sa.sa_flags = flags;
	sigaction(sig, &sa, NULL);
}

static void
loop_crash_handler(int sig, siginfo_t *si, void *ctx)
{
	(void)ctx;
	/* A replayed file cut short under a reader's mapping (installed
	 * before us, its guard is ours to call): zeros there now, and the
	 * reader says it shrank. */
	if (sig == SIGBUS && reader_bus_fault(si->si_addr))
		return;
	if (loop_sig_restore != NULL)
		loop_sig_restore();
	loop_catch(sig, SIG_DFL, 0);
	raise(sig);		/* the default action, once this returns */
}

static void
loop_catch_crash(int sig)
{
	struct sigaction	sa;

	memset(&sa, 0, sizeof sa);
	sigemptyset(&sa.sa_mask);
	sa.sa_sigaction = loop_crash_handler;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigaction(sig, &sa, NULL);
}

/* A self-pipe for the signals the loop handles; -1 on failure. */
int
loop_signals(int fds[2], const struct loop_ui *ui, char **cause)
{
	stack_t	ss;
	int	tui = ui != NULL;
	int	i, fl;

	if (pipe(fds) != 0) {
		source_cause(cause, "pipe: %s", strerror(errno));
		return -1;
	}
	for (i = 0; i < 2; i++) {
		fl = fcntl(fds[i], F_GETFL);
		fcntl(fds[i], F_SETFL, fl|O_NONBLOCK);
		fcntl(fds[i], F_SETFD, FD_CLOEXEC);
	}
	loop_sig_fd = fds[1];
	loop_sig_restore = tui ? ui->emergency_restore : NULL;
	loop_catch(SIGPIPE, SIG_IGN, 0);
	loop_catch(SIGINT, loop_sig_handler, SA_RESTART);
	loop_catch(SIGTERM, loop_sig_handler, SA_RESTART);
	loop_catch(SIGHUP, loop_sig_handler, SA_RESTART);
	if (tui) {
		loop_catch(SIGWINCH, loop_sig_handler, SA_RESTART);
		loop_catch(SIGTSTP, loop_sig_handler, SA_RESTART);
		loop_catch(SIGCONT, loop_sig_handler, SA_RESTART);
		ss.ss_sp = loop_altstack;
		ss.ss_size = sizeof loop_altstack;
		ss.ss_flags = 0;
		(void)sigaltstack(&ss, NULL);
		for (i = 0; i < (int)LOOP_NFATAL; i++)
			loop_catch_crash(loop_fatal[i]);
	}
	return 0;
}

void
loop_unsignals(int fds[2], int tui)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGWINCH,
	    SIGTSTP, SIGCONT };
	size_t	i;

	for (i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		if (tui || i < 3)
			loop_catch(sigs[i], SIG_DFL, 0);
	}
	for (i = 0; tui && i < LOOP_NFATAL; i++)
		loop_catch(loop_fatal[i], SIG_DFL, 0);
	loop_sig_fd = -1;
	loop_sig_restore = NULL;
	if (fds[0] != -1)
		close(fds[0]);
	if (fds[1] != -1)
		close(fds[1]);
}

/*
 * After a SIGTERM or SIGHUP has ended the loop and everything is written
 * and put back: die of it, as scripts and systemd expect (a shell says
 * 128 + sig).  Returns that status if the signal does not end us; rc
 * when there was none.
 */
int
loop_die(int sig, int rc)
{
	sigset_t	set;

	if (sig == 0)
		return rc;
	fflush(NULL);		/* raise() leaves stdio's buffers unwritten */
	loop_catch(sig, SIG_DFL, 0);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	raise(sig);
	return 128 + sig;
}

/* Stop for job control: the terminal back as it was, then stop. */
static void
loop_suspend(struct loop *l)
{
	if (l->ui != NULL) {
		l->uiops->suspend(l->ui);
		l->suspended = 1;
	}
	loop_catch(SIGTSTP, SIG_DFL, 0);
	raise(SIGTSTP);
	/* Here again after SIGCONT. */
	loop_catch(SIGTSTP, loop_sig_handler, SA_RESTART);
	if (l->ui != NULL && l->suspended) {
		l->uiops->resume(l->ui);
		l->suspended = 0;
	}
	l->changed = 1;
}

static void
loop_signal(struct loop *l, int sig)
{
	switch (sig) {
	case SIGTERM:
	case SIGHUP:
		/* Asked to go: done as on ^C, then said by dying of it. */
		if (l->quit_sig == 0)
			l->quit_sig = sig;
		/* FALLTHROUGH */
	case SIGINT:
		/* ^C: the normal end of a session or a live run (0), as
		 * ping's and tcpdump's. */
		loop_log(l, "signal %d: quitting", sig);
		l->quit = 1;
		break;
	case SIGWINCH:
		if (l->ui != NULL)
			l->uiops->resize(l->ui);
		l->changed = 1;
		break;
	case SIGTSTP:
		loop_suspend(l);
		break;
	case SIGCONT:
		/* Stopped by someone else (SIGSTOP): redraw. */
		if (l->ui != NULL && !l->suspended)
			l->uiops->resize(l->ui);
		l->changed = 1;
		break;
	}
}

void
loop_read_signals(struct loop *l, int fd)
{
	unsigned char	c[64];
	ssize_t		n, i;

	while ((n = read(fd, c, sizeof c)) > 0) {
		for (i = 0; i < n; i++)
			loop_signal(l, c[i]);
	}
}
