/*
 * fakeprod.c: a fake eventlog-socket program that serves a real eventlog
 * file over a Unix socket or TCP, for the fault tests.
 *
 *	fakeprod [OPTIONS] FILE
 *
 *	--unix PATH	serve on a Unix socket (unlinked and re-created)
 *	--tcp PORTFILE	serve on 127.0.0.1, port chosen by the kernel and
 *			written to PORTFILE (whole, by rename)
 *	--chunk N	write N bytes at a time (default 65536; 1 = byte by
 *			byte)
 *	--delay-us U	sleep U microseconds between writes (a slow writer)
 *	--junk		send GHC 9.0.2's 24-byte block marker before the
 *			header
 *	--events A:B	send the header, then only events A to B-1 (0-based,
 *			block markers count); B may be empty: to the end.
 *			Without it the file is sent as it is.
 *	--no-end	do not send the end marker after --events
 *	--die		exit right after the last byte, without closing
 *			nicely (the connection is cut: no end marker unless
 *			the file has one and --events was not given)
 *	--linger MS	keep the connection open MS milliseconds after the
 *			last byte (default 0), reading what the client sends
 *	--ctl FILE	write the bytes the client sends to FILE
 *	--hold MS	wait MS milliseconds after accepting before sending
 *			anything, then say on stderr how many bytes the
 *			client sent meanwhile ("fakeprod: before the
 *			header: N bytes")
 *	--repeat N	send the data N times (flood: for throughput use a
 *			file made by tests/bench/mklog instead)
 *
 * Serves one client, then exits 0.  Exits 1 on errors.
 */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <netinet/in.h>
#include <arpa/inet.h>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "proto.h"

static int	 ctlfd = -1;

static void
die(const char *what)
{
	fprintf(stderr, "fakeprod: %s: %s\n", what, strerror(errno));
	exit(1);
}

static uint8_t *
slurp(const char *path, size_t *len)
{
	struct stat	 sb;
	uint8_t		*p;
	int		 fd;
	ssize_t		 r;
	size_t		 got = 0;

	if ((fd = open(path, O_RDONLY)) == -1 || fstat(fd, &sb) != 0)
		die(path);
	if ((p = malloc((size_t)sb.st_size + 1)) == NULL)
		die("malloc");
	while (got < (size_t)sb.st_size) {
		r = read(fd, p + got, (size_t)sb.st_size - got);
		if (r <= 0)
			die(path);
		got += (size_t)r;
	}
	close(fd);
	*len = got;
	return p;
}

/* Offsets: end of header (after "datb"), and of each event. */
static void
frame(const uint8_t *p, size_t n, size_t *hdr_end, size_t **evoff,
    size_t *nev)
{
	struct proto_dec	*d = proto_dec_new(1 << 20);
	struct proto_ev		 ev;
	enum proto_res		 r;
	size_t			 off = 0, k, cap = 1024;

	*evoff = malloc(cap * sizeof **evoff);
	*nev = 0;
	*hdr_end = 0;
	for (;;) {
		k = proto_dec_feed(d, p + off, n - off);
		off += k;
		while ((r = proto_dec_next(d, &ev)) != PROTO_AGAIN) {
			if (r == PROTO_HEADER && *hdr_end == 0)
				*hdr_end = (size_t)proto_dec_offset(d);
			if (r != PROTO_EVENT)
				continue;
			if (*nev + 1 >= cap) {
				cap *= 2;
				*evoff = realloc(*evoff, cap * sizeof **evoff);
			}
			(*evoff)[(*nev)++] = (size_t)ev.off;
		}
		if (off >= n)
			break;
	}
	(*evoff)[*nev] = (size_t)proto_dec_offset(d);
	proto_dec_free(d);
}

static void
take_ctl(int fd)
{
	uint8_t	buf[4096];
	ssize_t	r;

	while ((r = recv(fd, buf, sizeof buf, MSG_DONTWAIT)) > 0) {
		if (ctlfd != -1 && write(ctlfd, buf, (size_t)r) != r)
			die("ctl");
	}
}

static void
send_all(int fd, const uint8_t *p, size_t n, size_t chunk, long delay_us)
{
	struct pollfd	pfd;
	ssize_t		w;
	size_t		k;

	while (n > 0) {
		k = n < chunk ? n : chunk;
		w = send(fd, p, k, MSG_NOSIGNAL);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN) {
				pfd.fd = fd;
				pfd.events = POLLOUT;
				poll(&pfd, 1, 100);
				continue;
			}
			fprintf(stderr, "fakeprod: send: %s\n",
			    strerror(errno));
			exit(0);	/* the client went away */
		}
		p += w;
		n -= (size_t)w;
		take_ctl(fd);
		if (delay_us > 0)
			usleep((useconds_t)delay_us);
	}
}

int
main(int argc, char **argv)
{
	const char	*unix_path = NULL, *portfile = NULL, *file = NULL;
	size_t		 chunk = 65536, n, hdr_end = 0, nev = 0, *evoff = NULL;
	size_t		 a = 0, b = 0;
	long		 delay_us = 0, linger_ms = 0, hold_ms = 0, repeat = 1, i;
	int		 junk = 0, events = 0, no_end = 0, die_now = 0;
	int		 lfd, fd;
	uint8_t		*p, bm[24];
	struct pollfd	 pfd;
	uint64_t	 end_at;
	struct timespec	 ts;

	signal(SIGPIPE, SIG_IGN);
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--unix") == 0 && i + 1 < argc)
			unix_path = argv[++i];
		else if (strcmp(argv[i], "--tcp") == 0 && i + 1 < argc)
			portfile = argv[++i];
		else if (strcmp(argv[i], "--chunk") == 0 && i + 1 < argc)
			chunk = strtoul(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--delay-us") == 0 && i + 1 < argc)
			delay_us = strtol(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--junk") == 0)
			junk = 1;
		else if (strcmp(argv[i], "--events") == 0 && i + 1 < argc) {
			char *colon;

			events = 1;
			a = strtoul(argv[++i], &colon, 10);
			b = colon[0] == ':' && colon[1] != '\0' ?
			    strtoul(colon + 1, NULL, 10) : (size_t)-1;
		} else if (strcmp(argv[i], "--no-end") == 0)
			no_end = 1;
		else if (strcmp(argv[i], "--die") == 0)
			die_now = 1;
		else if (strcmp(argv[i], "--linger") == 0 && i + 1 < argc)
			linger_ms = strtol(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--hold") == 0 && i + 1 < argc)
			hold_ms = strtol(argv[++i], NULL, 10);
		else if (strcmp(argv[i], "--ctl") == 0 && i + 1 < argc) {
			ctlfd = open(argv[++i], O_WRONLY|O_CREAT|O_TRUNC,
			    0644);
			if (ctlfd == -1)
				die(argv[i]);
		} else if (strcmp(argv[i], "--repeat") == 0 && i + 1 < argc)
			repeat = strtol(argv[++i], NULL, 10);
		else if (argv[i][0] != '-' && file == NULL)
			file = argv[i];
		else {
			fprintf(stderr, "fakeprod: bad argument %s\n",
			    argv[i]);
			return 2;
		}
	}
	if (file == NULL || (unix_path == NULL) == (portfile == NULL) ||
	    chunk == 0) {
		fprintf(stderr, "usage: fakeprod --unix PATH|--tcp PORTFILE "
		    "[options] FILE\n");
		return 2;
	}
	p = slurp(file, &n);
	if (events) {
		frame(p, n, &hdr_end, &evoff, &nev);
		if (b > nev)
			b = nev;
		if (a > b)
			a = b;
	}

	if (unix_path != NULL) {
		struct sockaddr_un sun;

		unlink(unix_path);
		memset(&sun, 0, sizeof sun);
		sun.sun_family = AF_UNIX;
		snprintf(sun.sun_path, sizeof sun.sun_path, "%s", unix_path);
		if ((lfd = socket(AF_UNIX, SOCK_STREAM, 0)) == -1 ||
		    bind(lfd, (struct sockaddr *)&sun, sizeof sun) != 0 ||
		    listen(lfd, 4) != 0)
			die(unix_path);
	} else {
		struct sockaddr_in sin;
		socklen_t len = sizeof sin;
		char tmp[4096];
		FILE *f;
		int one = 1;

		if ((lfd = socket(AF_INET, SOCK_STREAM, 0)) == -1)
			die("socket");
		setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
		memset(&sin, 0, sizeof sin);
		sin.sin_family = AF_INET;
		sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		if (bind(lfd, (struct sockaddr *)&sin, sizeof sin) != 0 ||
		    listen(lfd, 4) != 0)
			die("bind");
		getsockname(lfd, (struct sockaddr *)&sin, &len);
		snprintf(tmp, sizeof tmp, "%s.tmp", portfile);
		if ((f = fopen(tmp, "w")) == NULL)
			die(tmp);
		fprintf(f, "%u\n", ntohs(sin.sin_port));
		fclose(f);
		if (rename(tmp, portfile) != 0)
			die(portfile);
	}

	if ((fd = accept(lfd, NULL, NULL)) == -1)
		die("accept");
	if (unix_path != NULL)
		unlink(unix_path);	/* gone with the program */
	close(lfd);
	if (hold_ms > 0) {
		/* A program still starting: what the client sends now. */
		struct pollfd	hp = { .fd = fd, .events = POLLIN };
		uint8_t		hb[4096];
		ssize_t		r;
		size_t		early = 0;

		while (poll(&hp, 1, (int)hold_ms) > 0 &&
		    (r = read(fd, hb, sizeof hb)) > 0) {
			early += (size_t)r;
			if (ctlfd != -1 && write(ctlfd, hb, (size_t)r) != r)
				die("ctl");
		}
		fprintf(stderr, "fakeprod: before the header: %zu bytes\n",
		    early);
	}

	if (junk) {
		memset(bm, 0, sizeof bm);
		bm[1] = 18;
		bm[9] = 1;
		bm[21] = 1;
		bm[22] = bm[23] = 0xff;
		send_all(fd, bm, sizeof bm, chunk, delay_us);
	}
	for (i = 0; i < repeat; i++) {
		if (!events) {
			send_all(fd, p, n, chunk, delay_us);
			continue;
		}
		if (i == 0)
			send_all(fd, p, hdr_end, chunk, delay_us);
		send_all(fd, p + evoff[a], evoff[b] - evoff[a], chunk,
		    delay_us);
	}
	if (events && !no_end)
		send_all(fd, (const uint8_t *)"\xff\xff", 2, chunk, delay_us);
	if (die_now)
		_exit(0);

	clock_gettime(CLOCK_MONOTONIC, &ts);
	end_at = (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000 +
	    (uint64_t)linger_ms;
	for (;;) {
		uint64_t now;

		clock_gettime(CLOCK_MONOTONIC, &ts);
		now = (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec /
		    1000000;
		if (now >= end_at)
			break;
		pfd.fd = fd;
		pfd.events = POLLIN;
		if (poll(&pfd, 1, (int)(end_at - now)) > 0) {
			uint8_t buf[4096];
			ssize_t r = read(fd, buf, sizeof buf);

			if (r <= 0)
				break;
			if (ctlfd != -1 && write(ctlfd, buf, (size_t)r) != r)
				die("ctl");
		}
	}
	take_ctl(fd);
	close(fd);
	free(evoff);
	free(p);
	return 0;
}
