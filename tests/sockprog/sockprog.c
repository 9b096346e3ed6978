/*
 * sockprog.c: the C half of the test program.  A GHC 9.0.2 EventLogWriter
 * that serves the eventlog over a Unix socket and/or TCP the way
 * eventlog-socket does, and obeys its control commands.
 *
 *  - The RTS hands its buffers to writeEventLog(); the first bytes, up to
 *    and including "datb", are the header, kept and sent first to every
 *    client.  Later bytes are queued for the client connected, or dropped
 *    when there is none (as eventlog-socket does).
 *  - One client at a time; another one's connect() succeeds but it gets
 *    nothing until the first leaves.  A server thread does the socket work;
 *    the RTS never blocks on a slow client (the queue grows, up to
 *    SOCKPROG_MAX_QUEUE, past which the client is dropped).
 *  - Control commands (F0 9E 97 8C 00 LEN NS ID) are parsed from whatever
 *    the client writes, junk and splits included; the parser starts afresh
 *    on each connection.  Namespace "eventlog-socket": 1/2 start/stop time
 *    profiling (startProfTimer/stopProfTimer), 3/4 start/stop heap
 *    profiling (startHeapProfTimer/stopHeapProfTimer), 5 a heap census
 *    (the RTS flag performHeapProfile).  Namespace "sockprog": 1 quit.
 *    Commands are handed to the Haskell side, which has them obeyed (by
 *    sockprog_next_command(), once the RTS is up) and posts each as a user
 *    message ("sockprog: command NS:ID"), so a test sees it arrive.
 *
 * Environment (the names eventlog-socket reads, plus two):
 *   GHC_EVENTLOG_UNIX_PATH	serve on this Unix socket
 *   GHC_EVENTLOG_INET_HOST, GHC_EVENTLOG_INET_PORT   serve on TCP (port 0:
 *				any; the port is written to SOCKPROG_PORT_FILE)
 *   GHC_EVENTLOG_WAIT		wait for the first client before running
 *   SOCKPROG_JUNK		send GHC 9.0.2's 24-byte block marker before
 *				the header on every connection but the first
 *   SOCKPROG_LATE		start with the RTS's own writer (+RTS -l) and
 *				switch to this one from Haskell, with
 *				endEventLogging() and startEventLogging()
 *   SOCKPROG_DROP_AFTER=N	drop the first client after sending it N
 *				bytes (the program goes on; a client that
 *				reconnects gets the header and what follows)
 * With neither socket variable set, there is no server: the program is an
 * ordinary one and the RTS's own writer (+RTS -l -ol FILE) is used.
 *
 * The writer is installed from a C main() (RtsConfig.eventlog_writer), so
 * that the first client sees the whole log from its start-up events; with
 * SOCKPROG_LATE it is installed later, the way eventlog-socket's
 * GHC.Eventlog.Socket.start does it.
 *
 * sockprog_restart() (for demo/, GHC 9.0.2) has the RTS write its buffers
 * now: the client still sees one stream.
 */
#include <sys/socket.h>
#include <sys/un.h>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "Rts.h"

/* In the RTS, not in its public headers. */
extern bool	performHeapProfile;
void		startHeapProfTimer(void);
void		stopHeapProfTimer(void);
void		startProfTimer(void);
void		stopProfTimer(void);

extern StgClosure ZCMain_main_closure;

#define SOCKPROG_MAX_QUEUE	(512u << 20)
#define SOCKPROG_NCMD		64

struct chunk {
	struct chunk	*next;
	size_t		 len, off;
	uint8_t		 data[];
};

struct cmd {
	char		 ns[256];
	unsigned	 id;
};

static pthread_mutex_t	 mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t	 cv = PTHREAD_COND_INITIALIZER;
static pthread_t	 server;
static int		 wake[2] = { -1, -1 };	/* wakes the server */
static int		 lunix = -1, ltcp = -1, client = -1;
static char		 unix_path[108];
static uint8_t		*header;
static size_t		 header_len;
static int		 header_done;
static struct chunk	*qhead, *qtail;
static size_t		 qbytes;
static int		 stopping, stopped;
static int		 restarting, skip_header;	/* sockprog_restart() */
static unsigned		 nclients;
static int		 junk;
static unsigned long long drop_after, sent_first;
static int		 waiting_first;
static uint64_t		 last_time;	/* for the junk block marker */

static struct cmd	 cmds[SOCKPROG_NCMD];
static unsigned		 cmd_head, cmd_n;

static void
die(const char *what)
{
	fprintf(stderr, "sockprog: %s: %s\n", what, strerror(errno));
	exit(1);
}

static void
poke(void)
{
	char	c = 0;

	if (wake[1] != -1)
		(void)!write(wake[1], &c, 1);
}

/* Queue bytes for the client; the lock is held. */
static void
enqueue(const void *p, size_t n)
{
	struct chunk	*c;

	if (client == -1 || n == 0)
		return;
	if (qbytes + n > SOCKPROG_MAX_QUEUE) {
		fprintf(stderr, "sockprog: client too slow, dropped\n");
		shutdown(client, SHUT_RDWR);
		return;
	}
	if ((c = malloc(sizeof *c + n)) == NULL)
		die("malloc");
	c->next = NULL;
	c->len = n;
	c->off = 0;
	memcpy(c->data, p, n);
	if (qtail != NULL)
		qtail->next = c;
	else
		qhead = c;
	qtail = c;
	qbytes += n;
}

static void
drop_queue(void)
{
	struct chunk	*c;

	while ((c = qhead) != NULL) {
		qhead = c->next;
		free(c);
	}
	qtail = NULL;
	qbytes = 0;
}

/* ------------------------------------------------------------------ */
/* The EventLogWriter. */

static uint64_t
be64(const uint8_t *p)
{
	uint64_t	v = 0;
	int		i;

	for (i = 0; i < 8; i++)
		v = (v << 8) | p[i];
	return v;
}

static void
sockprog_init_writer(void)
{
}

static bool
sockprog_write(void *buf, size_t size)
{
	const uint8_t	*p = buf;
	size_t		 i;

	pthread_mutex_lock(&mu);
	/* A restart's end marker and new header are not the client's. */
	if (restarting && size == 2 && p[0] == 0xff && p[1] == 0xff) {
		pthread_mutex_unlock(&mu);
		return true;
	}
	if (skip_header) {
		for (i = 0; i + 4 <= size; i++)
			if (memcmp(p + i, "datb", 4) == 0)
				break;
		if (i + 4 > size) {
			pthread_mutex_unlock(&mu);
			return true;
		}
		skip_header = 0;
		p += i + 4;
		size -= i + 4;
	}
	if (!header_done) {
		/* Everything up to "datb" is the header. */
		header = realloc(header, header_len + size);
		if (header == NULL)
			die("realloc");
		memcpy(header + header_len, p, size);
		header_len += size;
		for (i = 0; i + 4 <= header_len; i++) {
			if (memcmp(header + i, "datb", 4) == 0)
				break;
		}
		if (i + 4 <= header_len) {
			size_t rest = header_len - (i + 4);

			header_done = 1;
			header_len = i + 4;
			enqueue(header, header_len);
			enqueue(header + header_len, rest);
		}
	} else {
		/* A block starts with its marker: keep its time for junk. */
		if (size >= 10 && p[0] == 0 && p[1] == 18)
			last_time = be64(p + 2);
		enqueue(p, size);
	}
	pthread_mutex_unlock(&mu);
	poke();
	return true;
}

static void
sockprog_flush(void)
{
	poke();
}

/* At exit: let the server send what is queued, then stop it. */
static void
sockprog_stop_writer(void)
{
	pthread_mutex_lock(&mu);
	if (restarting) {
		skip_header = 1;
		pthread_mutex_unlock(&mu);
		return;
	}
	stopping = 1;
	pthread_mutex_unlock(&mu);
	poke();
	pthread_join(server, NULL);
}

static const EventLogWriter sockprog_writer = {
	.initEventLogWriter = sockprog_init_writer,
	.writeEventLog = sockprog_write,
	.flushEventLog = sockprog_flush,
	.stopEventLogWriter = sockprog_stop_writer,
};

/* ------------------------------------------------------------------ */
/* Control commands. */

struct parser {
	int		 state;		/* bytes of the message matched */
	uint8_t		 len;
	uint8_t		 ns[256];
	unsigned	 nslen;
};

/* What a built-in command does to the RTS. */
static void
obey(const char *ns, unsigned id)
{
	if (strcmp(ns, "eventlog-socket") != 0)
		return;
	switch (id) {
	case 1:
		startProfTimer();
		break;
	case 2:
		stopProfTimer();
		break;
	case 3:
		startHeapProfTimer();
		break;
	case 4:
		stopHeapProfTimer();
		break;
	case 5:
		performHeapProfile = true;
		break;
	default:
		fprintf(stderr, "sockprog: unknown command %s:%u\n", ns, id);
		break;
	}
}

/*
 * A command received: queued for the Haskell side, which obeys it (once
 * the RTS is up: its start-up would undo a census request made earlier)
 * and posts it.
 */
static void
received(const char *ns, unsigned id)
{
	pthread_mutex_lock(&mu);
	if (cmd_n < SOCKPROG_NCMD) {
		struct cmd *c = &cmds[(cmd_head + cmd_n) % SOCKPROG_NCMD];

		snprintf(c->ns, sizeof c->ns, "%s", ns);
		c->id = id;
		cmd_n++;
		pthread_cond_broadcast(&cv);
	}
	pthread_mutex_unlock(&mu);
}

static void
parse(struct parser *ps, const uint8_t *p, size_t n)
{
	static const uint8_t magic[5] = { 0xf0, 0x9e, 0x97, 0x8c, 0x00 };
	size_t	i;
	uint8_t	c;

	for (i = 0; i < n; i++) {
		c = p[i];
		if (ps->state < 5) {
			if (c == magic[ps->state])
				ps->state++;
			else
				ps->state = c == magic[0] ? 1 : 0;
		} else if (ps->state == 5) {
			if (c == 0) {
				ps->state = 0;
				continue;
			}
			ps->len = c;
			ps->nslen = 0;
			ps->state = 6;
		} else if (ps->nslen < ps->len) {
			ps->ns[ps->nslen++] = c;
		} else {
			ps->ns[ps->nslen] = '\0';
			received((const char *)ps->ns, c);
			ps->state = 0;
		}
	}
}

/* ------------------------------------------------------------------ */
/* The server thread. */

static void
new_client(int fd)
{
	/* A 9.0.2 block marker: 00 12, time, size 0, end time, cap ffff. */
	uint8_t	bm[24];
	int	i;

	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
	pthread_mutex_lock(&mu);
	client = fd;
	nclients++;
	drop_queue();
	if (junk && nclients > 1) {
		memset(bm, 0, sizeof bm);
		bm[1] = 18;
		for (i = 0; i < 8; i++) {
			bm[2 + i] = (uint8_t)(last_time >> (56 - 8 * i));
			bm[14 + i] = (uint8_t)(last_time >> (56 - 8 * i));
		}
		bm[22] = bm[23] = 0xff;
		enqueue(bm, sizeof bm);
	}
	if (header_done)
		enqueue(header, header_len);
	waiting_first = 0;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
}

static void
end_client(void)
{
	pthread_mutex_lock(&mu);
	close(client);
	client = -1;
	drop_queue();
	pthread_mutex_unlock(&mu);
}

/* Write what the socket takes; -1 when the client is gone. */
static int
send_some(void)
{
	struct chunk	*c;
	ssize_t		 w;

	pthread_mutex_lock(&mu);
	while ((c = qhead) != NULL) {
		w = send(client, c->data + c->off, c->len - c->off,
		    MSG_NOSIGNAL);
		if (w < 0) {
			pthread_mutex_unlock(&mu);
			return errno == EAGAIN || errno == EINTR ? 0 : -1;
		}
		c->off += (size_t)w;
		qbytes -= (size_t)w;
		if (nclients == 1 && drop_after > 0) {
			sent_first += (unsigned long long)w;
			if (sent_first >= drop_after) {
				pthread_mutex_unlock(&mu);
				return -1;	/* drop this client */
			}
		}
		if (c->off < c->len)
			break;
		qhead = c->next;
		if (qhead == NULL)
			qtail = NULL;
		free(c);
	}
	pthread_mutex_unlock(&mu);
	return 0;
}

static void *
serve(void *arg)
{
	struct parser	ps;
	struct pollfd	pfd[4];
	uint8_t		buf[4096];
	int		n, i, fd, quit, ci = -1;
	ssize_t		r;
	time_t		deadline = 0;

	memset(&ps, 0, sizeof ps);
	for (;;) {
		pthread_mutex_lock(&mu);
		quit = stopping;
		pthread_mutex_unlock(&mu);
		if (quit && deadline == 0)
			deadline = time(NULL) + 5;
		if (quit && (client == -1 || qhead == NULL ||
		    time(NULL) > deadline))
			break;
		n = 0;
		pfd[n].fd = wake[0];
		pfd[n++].events = POLLIN;
		if (client == -1) {
			if (lunix != -1) {
				pfd[n].fd = lunix;
				pfd[n++].events = POLLIN;
			}
			if (ltcp != -1) {
				pfd[n].fd = ltcp;
				pfd[n++].events = POLLIN;
			}
		} else {
			ci = n;
			pfd[n].fd = client;
			pfd[n++].events = POLLIN | (qhead != NULL ? POLLOUT : 0);
		}
		if (poll(pfd, n, quit ? 100 : 1000) < 0 && errno != EINTR)
			die("poll");
		if (pfd[0].revents & POLLIN)
			while (read(wake[0], buf, sizeof buf) > 0)
				;
		if (client == -1) {
			for (i = 1; i < n; i++) {
				if (!(pfd[i].revents & POLLIN))
					continue;
				fd = accept(pfd[i].fd, NULL, NULL);
				if (fd == -1)
					continue;
				if (pfd[i].fd == ltcp) {
					int one = 1;
					setsockopt(fd, IPPROTO_TCP,
					    TCP_NODELAY, &one, sizeof one);
				}
				memset(&ps, 0, sizeof ps);
				new_client(fd);
				break;
			}
			continue;
		}
		if (pfd[ci].revents & (POLLIN|POLLHUP|POLLERR)) {
			r = read(client, buf, sizeof buf);
			if (r == 0 || (r < 0 && errno != EAGAIN &&
			    errno != EINTR)) {
				end_client();
				continue;
			}
			if (r > 0)
				parse(&ps, buf, (size_t)r);
		}
		if (send_some() != 0)
			end_client();
	}
	pthread_mutex_lock(&mu);
	if (client != -1) {
		close(client);
		client = -1;
	}
	drop_queue();
	stopped = 1;
	pthread_cond_broadcast(&cv);
	pthread_mutex_unlock(&mu);
	if (lunix != -1) {
		close(lunix);
		unlink(unix_path);
	}
	if (ltcp != -1)
		close(ltcp);
	return NULL;
}

static void
listen_unix(const char *path)
{
	struct sockaddr_un	sun;

	if (strlen(path) >= sizeof sun.sun_path) {
		fprintf(stderr, "sockprog: %s: path too long\n", path);
		exit(1);
	}
	snprintf(unix_path, sizeof unix_path, "%s", path);
	unlink(path);
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	strcpy(sun.sun_path, path);
	if ((lunix = socket(AF_UNIX, SOCK_STREAM, 0)) == -1 ||
	    bind(lunix, (struct sockaddr *)&sun, sizeof sun) != 0 ||
	    listen(lunix, 4) != 0)
		die(path);
}

static void
listen_tcp(const char *host, const char *port, const char *portfile)
{
	struct addrinfo		 hints, *ai;
	struct sockaddr_storage	 ss;
	socklen_t		 len = sizeof ss;
	char			 pbuf[32];
	int			 one = 1;
	FILE			*f;

	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE;
	if (getaddrinfo(host, port, &hints, &ai) != 0) {
		fprintf(stderr, "sockprog: %s:%s: cannot resolve\n", host,
		    port);
		exit(1);
	}
	if ((ltcp = socket(ai->ai_family, SOCK_STREAM, 0)) == -1)
		die("socket");
	setsockopt(ltcp, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
	if (bind(ltcp, ai->ai_addr, ai->ai_addrlen) != 0 ||
	    listen(ltcp, 4) != 0)
		die("bind");
	freeaddrinfo(ai);
	getsockname(ltcp, (struct sockaddr *)&ss, &len);
	if (ss.ss_family == AF_INET6)
		snprintf(pbuf, sizeof pbuf, "%u",
		    ntohs(((struct sockaddr_in6 *)&ss)->sin6_port));
	else
		snprintf(pbuf, sizeof pbuf, "%u",
		    ntohs(((struct sockaddr_in *)&ss)->sin_port));
	if (portfile != NULL) {
		/* Written whole, then renamed: a reader never sees half. */
		char tmp[4096];

		snprintf(tmp, sizeof tmp, "%s.tmp", portfile);
		if ((f = fopen(tmp, "w")) == NULL)
			die(tmp);
		fprintf(f, "%s\n", pbuf);
		fclose(f);
		rename(tmp, portfile);
	}
}

/* Start the server; with wait, return once the first client is there. */
static void
start_server(void)
{
	const char	*path = getenv("GHC_EVENTLOG_UNIX_PATH");
	const char	*host = getenv("GHC_EVENTLOG_INET_HOST");
	const char	*port = getenv("GHC_EVENTLOG_INET_PORT");

	if (getenv("SOCKPROG_DROP_AFTER") != NULL)
		drop_after = strtoull(getenv("SOCKPROG_DROP_AFTER"), NULL, 10);
	if (pipe(wake) != 0)
		die("pipe");
	fcntl(wake[0], F_SETFL, O_NONBLOCK);
	fcntl(wake[1], F_SETFL, O_NONBLOCK);
	junk = getenv("SOCKPROG_JUNK") != NULL;
	if (path != NULL)
		listen_unix(path);
	if (port != NULL)
		listen_tcp(host != NULL ? host : "127.0.0.1", port,
		    getenv("SOCKPROG_PORT_FILE"));
	waiting_first = getenv("GHC_EVENTLOG_WAIT") != NULL;
	if (pthread_create(&server, NULL, serve, NULL) != 0)
		die("pthread_create");
	pthread_mutex_lock(&mu);
	while (waiting_first)
		pthread_cond_wait(&cv, &mu);
	pthread_mutex_unlock(&mu);
}

/* ------------------------------------------------------------------ */
/* For the Haskell side. */

static int
serving(void)
{
	return getenv("GHC_EVENTLOG_UNIX_PATH") != NULL ||
	    getenv("GHC_EVENTLOG_INET_PORT") != NULL;
}

/*
 * Wait up to ms for a command and obey it; 1 and "NS:ID" in buf when one
 * came, 2 when it is sockprog:1 (quit), 0 if none.
 */
int
sockprog_next_command(char *buf, int size, int ms)
{
	struct timespec	ts;
	struct cmd	c;
	int		r = 0;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += ms / 1000;
	ts.tv_nsec += (long)(ms % 1000) * 1000000;
	if (ts.tv_nsec >= 1000000000) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000;
	}
	if (wake[0] == -1) {
		/* No server: no commands; just wait. */
		usleep((useconds_t)ms * 1000);
		return 0;
	}
	pthread_mutex_lock(&mu);
	while (cmd_n == 0 && !stopped) {
		if (pthread_cond_timedwait(&cv, &mu, &ts) != 0)
			break;
	}
	if (cmd_n > 0) {
		c = cmds[cmd_head];
		cmd_head = (cmd_head + 1) % SOCKPROG_NCMD;
		cmd_n--;
		snprintf(buf, (size_t)size, "%s:%u", c.ns, c.id);
		r = strcmp(c.ns, "sockprog") == 0 && c.id == 1 ? 2 : 1;
	}
	pthread_mutex_unlock(&mu);
	if (r != 0)
		obey(c.ns, c.id);
	return r;
}

/* Clients served so far. */
int
sockprog_clients(void)
{
	int	n;

	pthread_mutex_lock(&mu);
	n = (int)nclients;
	pthread_mutex_unlock(&mu);
	return n;
}

/* SOCKPROG_LATE: leave the RTS's file writer for this one. */
void
sockprog_late_start(void)
{
	if (getenv("SOCKPROG_LATE") == NULL || !serving())
		return;
	start_server();
	endEventLogging();
	if (!startEventLogging(&sockprog_writer))
		fprintf(stderr, "sockprog: startEventLogging failed\n");
}

/*
 * End the eventlog and start it again: GHC 9.0.2 writes a buffer only when
 * it is full or at the end, and has no other way to make it write the
 * global one (the program's name, heap censuses, profiling samples).  The
 * client sees one stream.  The caller keeps every other writer of the
 * RTS's buffers out (demo/demo.c).
 */
void
sockprog_restart(void)
{
	if (!serving() || wake[0] == -1)
		return;
	pthread_mutex_lock(&mu);
	restarting = 1;
	pthread_mutex_unlock(&mu);
	endEventLogging();
	if (!startEventLogging(&sockprog_writer))
		fprintf(stderr, "sockprog: startEventLogging failed\n");
	pthread_mutex_lock(&mu);
	restarting = 0;
	pthread_mutex_unlock(&mu);
}

int
main(int argc, char **argv)
{
	RtsConfig	conf = defaultRtsConfig;

	signal(SIGPIPE, SIG_IGN);
	conf.rts_opts_enabled = RtsOptsAll;
	if (serving() && getenv("SOCKPROG_LATE") == NULL) {
		start_server();
		conf.eventlog_writer = &sockprog_writer;
	}
	return hs_main(argc, argv, &ZCMain_main_closure, conf);
}
