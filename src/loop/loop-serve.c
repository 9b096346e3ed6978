/*
 * loop-serve.c: what evtop serves, in the poll set: Prometheus metrics
 * (--metrics) and the relay (--serve, --serve-tcp), each a slice of it.
 */
#include <stdio.h>

#include "loop/loop-priv.h"

static void
loop_metrics_body(void *arg, int om, FILE *f)
{
	struct loop	*l = arg;

	metrics_write(f, om, l->model, &l->st, l->relay != NULL ?
	    relay_stats(l->relay) : NULL, http_stats(l->http));
}

int
loop_serve_init(struct loop *l, int batch, char **cause)
{
	if (l->opts->metrics != NULL) {
		if ((l->http = http_new(l->opts->metrics, "/metrics",
		    loop_metrics_body, l, cause)) == NULL)
			return -1;
		loop_log(l, "metrics: listening on %s", http_addr(l->http));
		if (batch)
			fprintf(stderr, "evtop: metrics: listening on %s\n",
			    http_addr(l->http));
	}
	if (l->opts->serve != NULL || l->opts->serve_tcp != NULL) {
		if ((l->relay = relay_new(l->opts, cause)) == NULL)
			return -1;
		loop_log(l, "relay: listening on %s", relay_addr(l->relay));
		if (batch)
			fprintf(stderr, "evtop: relay: listening on %s\n",
			    relay_addr(l->relay));
		if (l->rp != NULL)
			relay_header(l->relay, replay_dec(l->rp));
	}
	return 0;
}

/* The serving fds from pfd[n]; the new count. */
int
loop_serve_fds(struct loop *l, struct pollfd *pfd, int n)
{
	if (l->http != NULL) {
		l->http_at = n;
		l->http_n = http_fds(l->http, pfd + n, LOOP_NFDS - n);
		n += l->http_n;
	}
	if (l->relay != NULL) {
		l->relay_at = n;
		l->relay_n = relay_fds(l->relay, pfd + n, LOOP_NFDS - n);
		n += l->relay_n;
	}
	return n;
}

/* The serving sockets' events (their commands are loop_serve_step()'s). */
void
loop_serve_handle(struct loop *l, const struct pollfd *pfd, uint64_t now)
{
	if (l->http != NULL)
		http_handle(l->http, pfd + l->http_at, now);
	if (l->relay != NULL)
		relay_handle(l->relay, pfd + l->relay_at, now);
}

int
loop_serve_timeout(const struct loop *l, int t, uint64_t now)
{
	if (l->http != NULL)
		t = loop_min_timeout(t, http_timeout_ms(l->http, now));
	if (l->relay != NULL)
		t = loop_min_timeout(t, relay_timeout_ms(l->relay, now));
	return t;
}
