/*
 * serve.h: what evtop serves to others from its one poll loop: the
 * eventlog relay (--serve, --serve-tcp), the Prometheus endpoint
 * (--metrics), and the listening sockets under both.  Nothing here
 * blocks: each module adds its fds to the loop's poll set (X_fds), is
 * given them back after poll() (X_handle) and says how soon it needs
 * the loop again (X_timeout_ms).
 */
#ifndef SERVE_H
#define SERVE_H

#include <poll.h>
#include <stdint.h>
#include <stdio.h>

#include "evtop.h"

/* listen.c */
int		 listen_tcp(const char *, int *, int, char *, size_t, char **);
int		 listen_unix(const char *, uint64_t *, char **);
void		 listen_unix_remove(const char *, uint64_t);
int		 listen_accept(int);

/* http.c: GET/HEAD of one path, answered by a callback that writes the
 * body to a FILE (openmetrics: the client asked for OpenMetrics text). */
#define HTTP_MAX_LISTEN	4
#define HTTP_MAX_CONN	64		/* connections at once */
#define HTTP_MAX_REQ	8192		/* request line and headers */
#define HTTP_REQ_MS	10000		/* a whole request, from accept */
#define HTTP_IDLE_MS	10000		/* a response write making no progress */
#define HTTP_MAX_FDS	(HTTP_MAX_LISTEN + HTTP_MAX_CONN)

typedef void	 (*http_body_fn)(void *, int, FILE *);
struct http_stats {
	uint64_t	 requests;	/* answered, any status */
	uint64_t	 scrapes;	/* 200 on the path */
	uint64_t	 refused;	/* over HTTP_MAX_CONN */
	uint64_t	 evicted;	/* made room for another */
	uint64_t	 timeouts;
	uint64_t	 bad;		/* 4xx */
};
struct http;
struct http	*http_new(const char *, const char *, http_body_fn, void *,
		     char **);
void		 http_free(struct http *);
const char	*http_addr(const struct http *);
int		 http_fds(struct http *, struct pollfd *, int);
void		 http_handle(struct http *, const struct pollfd *, uint64_t);
int		 http_timeout_ms(const struct http *, uint64_t);
const struct http_stats *http_stats(const struct http *);
int		 http_wants_openmetrics(const char *);

/* metrics.c: the model and the loop's status in the Prometheus text
 * format (0.0.4), or OpenMetrics 1.0.0 (ends with "# EOF"). */
struct model;
struct relay_stats;
void		 metrics_write(FILE *, int, const struct model *,
		     const struct evtop_status *, const struct relay_stats *,
		     const struct http_stats *);

/* relay.c: the stream re-served to any number of clients. */
#define RELAY_MAX_CLIENTS 64
#define RELAY_QUEUE	(16u << 20)	/* default per-client queue */
#define RELAY_MAX_FDS	(2 + HTTP_MAX_LISTEN + RELAY_MAX_CLIENTS)

struct relay_stats {
	uint64_t	 clients;	/* connected now */
	uint64_t	 accepted;
	uint64_t	 dropped;	/* fell behind: queue full */
	uint64_t	 bytes;		/* written to clients */
	uint64_t	 commands;	/* control commands forwarded */
	uint64_t	 refused;	/* refused, or not sent (a file) */
};
struct relay;
struct relay	*relay_new(const struct evtop_opts *, char **);
void		 relay_free(struct relay *);
const char	*relay_addr(const struct relay *);
void		 relay_header(struct relay *, const struct proto_dec *);
void		 relay_event(struct relay *, const struct proto_ev *);
void		 relay_flush(struct relay *);
void		 relay_end(struct relay *, int);
int		 relay_fds(struct relay *, struct pollfd *, int);
void		 relay_handle(struct relay *, const struct pollfd *, uint64_t);
int		 relay_timeout_ms(const struct relay *, uint64_t);
int		 relay_command(struct relay *, struct evtop_cmd *);
void		 relay_command_done(struct relay *, const char *);
const char	*relay_note(struct relay *);
int		 relay_pending(const struct relay *);
const struct relay_stats *relay_stats(const struct relay *);

#endif
