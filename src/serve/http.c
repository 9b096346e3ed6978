/*
 * http.c: the smallest HTTP/1.x server that serves a Prometheus scrape,
 * inside the poll loop.
 *
 * One request per connection (the answer says "Connection: close"): the
 * request line and headers are read into a fixed buffer of HTTP_MAX_REQ
 * bytes (more is a 431), must arrive within HTTP_REQ_MS of the accept
 * (a client trickling bytes does not hold a slot for long), and the
 * response is rendered at once into memory and written as the client
 * takes it; a write that makes no progress for HTTP_IDLE_MS ends the
 * connection.  GET and HEAD of the path: 200; another path: 404; another
 * method: 405.  After the response, the write side is shut and what the
 * client still sends is read away for a moment, so that closing does not
 * reset the connection under the response.
 *
 * Never blocking: every socket is non-blocking, and at most
 * HTTP_MAX_CONN connections are open.  When all are taken, a new one
 * takes the place of the connection open longest without a whole
 * request (http_evict()); with none such, it is accepted and closed, so
 * the backlog does not fill.
 */
#include <sys/types.h>
#include <sys/socket.h>

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "serve/serve.h"
#include "source/source.h"

#define HTTP_LINGER_MS	1000

enum http_state { HTTP_READ, HTTP_WRITE, HTTP_LINGER };

struct http_conn {
	int		 fd;
	enum http_state	 state;
	uint64_t	 since;		/* accepted, monotonic ns */
	uint64_t	 deadline;	/* monotonic ns */
	size_t		 rlen;
	char		*out;
	size_t		 olen, opos;
	char		 req[HTTP_MAX_REQ];
};

struct http {
	int		 lfd[HTTP_MAX_LISTEN];
	int		 nl;
	char		 addr[256];	/* what we listen on */
	char		 path[128];
	http_body_fn	 body;
	void		*arg;
	struct http_conn *conn[HTTP_MAX_CONN];
	int		 slot[HTTP_MAX_FDS];	/* pollfd i: -1 listener, else conn */
	int		 nslot;
	struct http_stats st;
};

struct http *
http_new(const char *target, const char *path, http_body_fn body, void *arg,
    char **cause)
{
	struct http	*h;
	int		 n;

	if ((h = calloc(1, sizeof *h)) == NULL) {
		source_cause(cause, "out of memory");
		return NULL;
	}
	if ((n = listen_tcp(target, h->lfd, HTTP_MAX_LISTEN, h->addr,
	    sizeof h->addr, cause)) < 0) {
		free(h);
		return NULL;
	}
	h->nl = n;
	snprintf(h->path, sizeof h->path, "%s", path);
	h->body = body;
	h->arg = arg;
	return h;
}

static void
http_close(struct http *h, int i)
{
	struct http_conn	*c = h->conn[i];

	if (c == NULL)
		return;
	close(c->fd);
	free(c->out);
	free(c);
	h->conn[i] = NULL;
}

void
http_free(struct http *h)
{
	int	i;

	if (h == NULL)
		return;
	for (i = 0; i < HTTP_MAX_CONN; i++)
		http_close(h, i);
	for (i = 0; i < h->nl; i++)
		close(h->lfd[i]);
	free(h);
}

const char *
http_addr(const struct http *h)
{
	return h->addr;
}

const struct http_stats *
http_stats(const struct http *h)
{
	return &h->st;
}

/*
 * A parameter of one media range ("type/sub; a=b; q=0.5", len bytes)
 * into val (size bytes, cut to fit, quotes left out): 1, or 0 if it has
 * none of that name.
 */
static int
http_param(const char *item, size_t len, const char *name, char *val,
    size_t size)
{
	size_t	i, n = strlen(name), k;

	for (i = 0; i < len; i++) {
		if (item[i] != ';')
			continue;
		while (i + 1 < len && (item[i + 1] == ' ' ||
		    item[i + 1] == '\t'))
			i++;
		if (len - (i + 1) <= n || strncasecmp(item + i + 1, name, n) !=
		    0 || item[i + 1 + n] != '=')
			continue;
		for (i += 1 + n + 1, k = 0; i < len && item[i] != ';' &&
		    item[i] != ' ' && item[i] != '\t'; i++) {
			if (item[i] != '"' && k + 1 < size)
				val[k++] = item[i];
		}
		val[k] = '\0';
		return 1;
	}
	return 0;
}

/* The q of a media range, 1 without one. */
static double
http_q(const char *item, size_t len)
{
	char	v[16];

	return http_param(item, len, "q", v, sizeof v) ? strtod(v, NULL) : 1;
}

/* Whether a media range is of type, whole: not a longer type it begins. */
static int
http_type_is(const char *item, size_t len, const char *type)
{
	size_t	n = 0, tl = strlen(type);

	while (n < len && item[n] != ';')
		n++;
	while (n > 0 && (item[n - 1] == ' ' || item[n - 1] == '\t'))
		n--;
	return n == tl && strncasecmp(item, type, tl) == 0;
}

/*
 * Whether an Accept header's value prefers OpenMetrics text to the
 * classic format: its best q at least the classic one's, and above 0.
 * Only OpenMetrics 1.0.0 is served, so a range naming another version
 * does not count: as Prometheus' content negotiation has it, the target
 * serves the best it has, here the text format 0.0.4.
 */
int
http_wants_openmetrics(const char *accept)
{
	const char	*p = accept, *end;
	double		 om = 0, text = 0, q;
	size_t		 len;
	char		 v[16];

	while (*p != '\0' && *p != '\r' && *p != '\n') {
		end = p + strcspn(p, ",\r\n");
		while (*p == ' ' || *p == '\t')
			p++;
		len = (size_t)(end - p);
		q = http_q(p, len);
		if (http_type_is(p, len, "application/openmetrics-text")) {
			if ((!http_param(p, len, "version", v, sizeof v) ||
			    strcmp(v, "1.0.0") == 0) && q > om)
				om = q;
		} else if (http_type_is(p, len, "text/plain") ||
		    http_type_is(p, len, "*/*")) {
			if (q > text)
				text = q;
		}
		p = *end == ',' ? end + 1 : end;
	}
	return om > 0 && om >= text;
}

/* A header's value in the request, or NULL. */
static const char *
http_header(const char *req, const char *name)
{
	const char	*p = strchr(req, '\n');
	size_t		 n = strlen(name);

	while (p != NULL && p[1] != '\0') {
		p++;
		if (strncasecmp(p, name, n) == 0 && p[n] == ':') {
			p += n + 1;
			while (*p == ' ' || *p == '\t')
				p++;
			return p;
		}
		p = strchr(p, '\n');
	}
	return NULL;
}

/* The response, whole, in c->out. */
static void
http_respond(struct http *h, struct http_conn *c, int code,
    const char *reason, int head, int om, const char *extra)
{
	FILE	*f;
	char	*body = NULL;
	size_t	 blen = 0;
	char	*out = NULL;
	size_t	 olen = 0;
	const char *type = "text/plain; charset=utf-8";

	h->st.requests++;
	if (code == 200) {
		h->st.scrapes++;
		if ((f = open_memstream(&body, &blen)) == NULL)
			goto fail;
		h->body(h->arg, om, f);
		if (fclose(f) != 0)
			goto fail;
		type = om ? "application/openmetrics-text; version=1.0.0; "
		    "charset=utf-8" : "text/plain; version=0.0.4; "
		    "charset=utf-8";
	} else {
		if (code >= 400 && code < 500)
			h->st.bad++;
		if ((f = open_memstream(&body, &blen)) == NULL)
			goto fail;
		fprintf(f, "%d %s\n", code, reason);
		if (fclose(f) != 0)
			goto fail;
	}
	if ((f = open_memstream(&out, &olen)) == NULL)
		goto fail;
	fprintf(f, "HTTP/1.1 %d %s\r\nContent-Type: %s\r\n"
	    "Content-Length: %zu\r\nConnection: close\r\n%s\r\n", code,
	    reason, type, blen, extra != NULL ? extra : "");
	if (!head)
		fwrite(body, 1, blen, f);
	if (fclose(f) != 0)
		goto fail;
	free(body);
	c->out = out;
	c->olen = olen;
	c->opos = 0;
	c->state = HTTP_WRITE;
	return;
fail:
	free(body);
	free(out);
	c->out = NULL;
	c->olen = c->opos = 0;
	c->state = HTTP_WRITE;	/* nothing to write: closes */
}

/*
 * The path of a request target: origin-form as it is; absolute-form
 * ("http://host:port/metrics", which RFC 9112 3.2.2 says a server must
 * accept) without its scheme and authority.
 */
static const char *
http_path(const char *target)
{
	const char	*p;

	if (target[0] == '/' || (p = strstr(target, "://")) == NULL)
		return target;
	p += 3 + strcspn(p + 3, "/");
	return *p == '/' ? p : "/";
}

/* A whole request is at req (in c->req): answer it. */
static void
http_request(struct http *h, struct http_conn *c, char *req)
{
	char		*sp, *sp2, *q;
	const char	*accept, *path;
	size_t		 mlen;
	int		 head, found;

	sp = strchr(req, ' ');
	sp2 = sp != NULL ? strchr(sp + 1, ' ') : NULL;
	if (sp == NULL || sp2 == NULL || sp == req ||
	    strncmp(sp2 + 1, "HTTP/1.", 7) != 0) {
		http_respond(h, c, 400, "Bad Request", 0, 0, NULL);
		return;
	}
	mlen = (size_t)(sp - req);
	head = mlen == 4 && memcmp(req, "HEAD", 4) == 0;
	if (!head && !(mlen == 3 && memcmp(req, "GET", 3) == 0)) {
		http_respond(h, c, 405, "Method Not Allowed", 0, 0,
		    "Allow: GET, HEAD\r\n");
		return;
	}
	/* The path, without a query string. */
	*sp2 = '\0';
	if ((q = strchr(sp + 1, '?')) != NULL)
		*q = '\0';
	path = http_path(sp + 1);
	found = strcmp(path, h->path) == 0;
	*sp2 = ' ';
	if (!found) {
		http_respond(h, c, 404, "Not Found", head, 0, NULL);
		return;
	}
	accept = http_header(req, "Accept");
	http_respond(h, c, 200, "OK", head,
	    accept != NULL && http_wants_openmetrics(accept), NULL);
}

/*
 * Where the request line begins: after the empty lines a client may send
 * first (RFC 9112 2.2: a server should ignore them).  They stay in the
 * buffer, so that they count towards HTTP_MAX_REQ.
 */
static char *
http_start(char *req)
{
	for (;;) {
		if (req[0] == '\n')
			req++;
		else if (req[0] == '\r' && req[1] == '\n')
			req += 2;
		else
			return req;
	}
}

static void
http_read(struct http *h, int i, uint64_t now)
{
	struct http_conn	*c = h->conn[i];
	char			 junk[4096], *req;
	ssize_t			 n;

	if (c->state == HTTP_LINGER) {
		while ((n = read(c->fd, junk, sizeof junk)) > 0)
			;
		if (n == 0 || (errno != EAGAIN && errno != EINTR))
			http_close(h, i);
		return;
	}
	n = read(c->fd, c->req + c->rlen, sizeof c->req - 1 - c->rlen);
	if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
		http_close(h, i);
		return;
	}
	if (n < 0)
		return;
	c->rlen += (size_t)n;
	c->req[c->rlen] = '\0';
	req = http_start(c->req);
	/* A NUL in the request would hide the end from strstr(). */
	if (memchr(c->req, '\0', c->rlen) != NULL) {
		http_respond(h, c, 400, "Bad Request", 0, 0, NULL);
	} else if (strstr(req, "\r\n\r\n") != NULL ||
	    strstr(req, "\n\n") != NULL)
		http_request(h, c, req);
	else if (c->rlen == sizeof c->req - 1)
		http_respond(h, c, 431, "Request Header Fields Too Large",
		    0, 0, NULL);
	if (c->state == HTTP_WRITE)
		c->deadline = now + HTTP_IDLE_MS * 1000000ull;
}

static void
http_write(struct http *h, int i, uint64_t now)
{
	struct http_conn	*c = h->conn[i];
	ssize_t			 n;

	while (c->opos < c->olen) {
		n = send(c->fd, c->out + c->opos, c->olen - c->opos,
		    MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN)
				return;
			http_close(h, i);
			return;
		}
		c->opos += (size_t)n;
		c->deadline = now + HTTP_IDLE_MS * 1000000ull;
	}
	shutdown(c->fd, SHUT_WR);
	free(c->out);
	c->out = NULL;
	c->state = HTTP_LINGER;
	c->deadline = now + HTTP_LINGER_MS * 1000000ull;
}

/*
 * All slots taken: make room by closing the connection open longest that
 * has not sent a whole request.  A scraper sends its request at once, so
 * it is never that one for long, while a client trickling a byte at a
 * time is; a shorter deadline alone would not do, as such clients fill
 * the slots again as fast as they time out.  One accepted in this same
 * pass is spared (its request may be waiting unread).  The slot, or -1.
 */
static int
http_evict(struct http *h, uint64_t now)
{
	struct http_conn	*c;
	int			 i, old = -1;

	for (i = 0; i < HTTP_MAX_CONN; i++) {
		if ((c = h->conn[i]) == NULL || c->state != HTTP_READ ||
		    c->since >= now)
			continue;
		if (old == -1 || c->since < h->conn[old]->since)
			old = i;
	}
	if (old != -1) {
		h->st.evicted++;
		http_close(h, old);
	}
	return old;
}

static void
http_accept(struct http *h, int lfd, uint64_t now)
{
	struct http_conn	*c;
	int			 fd, i;

	while ((fd = listen_accept(lfd)) != -1) {
		for (i = 0; i < HTTP_MAX_CONN && h->conn[i] != NULL; i++)
			;
		if (i == HTTP_MAX_CONN)
			i = http_evict(h, now);
		if (i == -1 || (c = calloc(1, sizeof *c)) == NULL) {
			h->st.refused++;
			close(fd);
			continue;
		}
		c->fd = fd;
		c->state = HTTP_READ;
		c->since = now;
		c->deadline = now + HTTP_REQ_MS * 1000000ull;
		h->conn[i] = c;
	}
}

/* The fds to poll, into pfd[0..room); how many. */
int
http_fds(struct http *h, struct pollfd *pfd, int room)
{
	int	i, n = 0;

	for (i = 0; i < h->nl && n < room; i++) {
		pfd[n].fd = h->lfd[i];
		pfd[n].events = POLLIN;
		pfd[n].revents = 0;
		h->slot[n++] = -1 - i;
	}
	for (i = 0; i < HTTP_MAX_CONN && n < room; i++) {
		if (h->conn[i] == NULL)
			continue;
		pfd[n].fd = h->conn[i]->fd;
		pfd[n].events = h->conn[i]->state == HTTP_WRITE ? POLLOUT :
		    POLLIN;
		pfd[n].revents = 0;
		h->slot[n++] = i;
	}
	h->nslot = n;
	return n;
}

/* After poll(): pfd is what http_fds() filled, with revents. */
void
http_handle(struct http *h, const struct pollfd *pfd, uint64_t now)
{
	struct http_conn	*c;
	int			 i, k;

	for (k = 0; k < h->nslot; k++) {
		if ((i = h->slot[k]) < 0 || (c = h->conn[i]) == NULL)
			continue;
		if (pfd[k].revents & (POLLERR|POLLNVAL)) {
			http_close(h, i);
			continue;
		}
		if (c->state == HTTP_WRITE && (pfd[k].revents & POLLOUT))
			http_write(h, i, now);
		else if (c->state != HTTP_WRITE &&
		    (pfd[k].revents & (POLLIN|POLLHUP)))
			http_read(h, i, now);
		/* A request answered just now: try to write at once. */
		if ((c = h->conn[i]) != NULL && c->state == HTTP_WRITE)
			http_write(h, i, now);
	}
	for (k = 0; k < h->nslot; k++) {
		if (h->slot[k] < 0 && (pfd[k].revents & POLLIN))
			http_accept(h, h->lfd[-1 - h->slot[k]], now);
	}
	for (i = 0; i < HTTP_MAX_CONN; i++) {
		if ((c = h->conn[i]) != NULL && now >= c->deadline) {
			if (c->state != HTTP_LINGER)
				h->st.timeouts++;
			http_close(h, i);
		}
	}
	h->nslot = 0;
}

int
http_timeout_ms(const struct http *h, uint64_t now)
{
	uint64_t	first = UINT64_MAX, ms;
	int		i;

	for (i = 0; i < HTTP_MAX_CONN; i++) {
		if (h->conn[i] != NULL && h->conn[i]->deadline < first)
			first = h->conn[i]->deadline;
	}
	if (first == UINT64_MAX)
		return -1;
	if (first <= now)
		return 0;
	ms = (first - now + 999999) / 1000000;
	return ms > 60000 ? 60000 : (int)ms;
}
