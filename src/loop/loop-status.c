/*
 * loop-status.c: what the header (and --batch, and the metrics) say of the
 * source: a file's replay or a live source's connection, its lag and
 * history, and the notes logged when they change.
 */
#include <stdio.h>
#include <string.h>

#include "loop/loop-priv.h"

/* The lag, and what the history did. */
static void
loop_status_live(struct loop *l, struct evtop_status *st)
{
	const struct model	*m = l->model;
	struct redo_stats	 rs;
	uint64_t		 pw;

	st->lag_known = 0;
	if (m->prog.has_wall && l->src->state == SOURCE_OPEN) {
		pw = m->prog.wall_ns + (m->now - m->prog.wall_at);
		st->lag_known = 1;
		st->lag_ns = st->wall_ns > pw ? st->wall_ns - pw : 0;
	}
	if (l->redo == NULL)
		return;
	redo_stats(l->redo, &rs);
	/* g, the timeline's Enter and e work over the history. */
	st->seekable = rs.on;
	st->pass = 1;
	st->file_time = rs.viewing ? rs.view_ns : m->now;
	st->file_first = rs.first;
	st->file_last = rs.last;
	st->range_on = rs.viewing && m->range.on;
	st->range_from = m->range.from_ns;
	st->range_to = m->range.to_ns;
	st->history = rs.on;
	st->history_bytes = rs.bytes;
	st->history_first = rs.first;
	st->history_last = rs.last;
	st->corrections = rs.corrections;
	st->corrected_ns = rs.back_ns;
	/* The header compares it with the wall clock. */
	st->corrected_at = rs.corrected_at == 0 ? 0 : st->wall_ns -
	    (source_now() - rs.corrected_at);
	st->correcting = rs.busy;
	st->viewing = rs.viewing;
	st->view_ns = rs.view_ns;
	st->spill = redo_spill(l->redo);
	st->history_error = rs.error;
}

void
loop_status(struct loop *l, uint64_t now)
{
	struct evtop_status	*st = &l->st, old = l->st;
	const char		*err;
	size_t			 len;

	st->source = l->opts->target;
	st->kind = l->opts->kind;
	st->wall_ns = loop_wall();
	if (now - l->rate_at >= LOOP_RATE_NS) {
		st->events_per_s = (double)(l->events - l->rate_events) *
		    1e9 / (double)(now - l->rate_at);
		l->rate_at = now;
		l->rate_events = l->events;
	}
	if (l->rp != NULL) {
		replay_status(l->rp, st);
		st->seekable = l->tr != NULL;
		st->range_on = l->model->range.on;
		st->range_from = l->model->range.from_ns;
		st->range_to = l->model->range.to_ns;
		st->pass = l->tr != NULL ? travel_progress(l->tr) : 1;
		if (l->tr != NULL)
			travel_span(l->tr, &st->file_first, &st->file_last);
		/* Where the replay is, by time: it moves back as well. */
		if (l->tr != NULL && st->pass >= 1 && !replay_done(l->rp) &&
		    st->file_last > st->file_first)
			st->file_pos = st->file_time <= st->file_first ? 0 :
			    (uint64_t)((double)st->file_size *
			    (double)(st->file_time - st->file_first) /
			    (double)(st->file_last - st->file_first));
		st->conn = replay_done(l->rp) ? EVTOP_CONN_DONE :
		    EVTOP_CONN_OPEN;
		st->bytes = st->file_pos;
		st->connections = 1;
		/* (The first pass's thread owns the reader, and its
		 * error, until the pass is over.) */
		err = l->file_changed[0] != '\0' ? l->file_changed :
		    st->pass < 1 ? NULL : replay_error(l->rp);
		st->file_err = err != NULL;
		snprintf(st->conn_msg, sizeof st->conn_msg, "%s",
		    err != NULL ? err : replay_done(l->rp) ? "replayed" :
		    st->paused ? "replay paused" : "replaying");
	} else {
		st->conn = source_conn(l->src);
		if (l->src->state == SOURCE_ENDED)
			st->conn = l->src->ops->reopen ? EVTOP_CONN_CLOSED :
			    EVTOP_CONN_DONE;
		snprintf(st->conn_msg, sizeof st->conn_msg, "%s",
		    l->src->msg);
		if (l->src->state == SOURCE_OPEN &&
		    l->src->conn_bytes >= LOOP_NO_HEADER &&
		    proto_dec_headers(l->dec) == 0)
			/* The same words as more comes (a line each in
			 * --batch). */
			snprintf(st->conn_msg, sizeof st->conn_msg,
			    "connected, but no eventlog header in the first "
			    "%u bytes", LOOP_NO_HEADER);
		/* Said as a file's damage is, and decoding goes on. */
		snprintf(st->stream_err, sizeof st->stream_err, "%s",
		    l->stream_err);
		st->bytes = l->src->bytes;
		st->connections = l->src->connections;
		st->speed = 0;
	}
	if (l->rec != NULL) {
		st->record_path = record_path(l->rec);
		st->record_bytes = record_bytes(l->rec);
		if ((err = record_error(l->rec)) != NULL) {
			len = strlen(st->conn_msg);
			snprintf(st->conn_msg + len, sizeof st->conn_msg - len,
			    "; %s", err);
		}
	}
	if (l->ctl != NULL)
		control_status(l->ctl, st);
	if (l->src != NULL)
		loop_status_live(l, st);
	old.wall_ns = st->wall_ns;
	old.lag_ns = st->lag_ns;
	if (memcmp(&old, st, sizeof old) != 0)
		l->changed = 1;
}

/*
 * Why a live source that ended for good never gave a header (nothing
 * came, or not a whole header), or NULL: evtop then fails, as on a file
 * with no header.
 */
const char *
loop_ended_empty(const struct loop *l)
{
	if (l->src == NULL || l->src->state != SOURCE_ENDED ||
	    l->model->totals.headers > 0)
		return NULL;
	return l->model->totals.errors > 0 ? l->model->totals.last_error :
	    l->src->msg;
}

/* Log what changed in the connection and in the commands (and tell
 * stderr too in --batch). */
void
loop_note(struct loop *l, int batch)
{
	const char	*n;

	if (strcmp(l->st.conn_msg, l->last_msg) != 0) {
		memcpy(l->last_msg, l->st.conn_msg, sizeof l->last_msg);
		loop_log(l, "%s: %s", l->opts->target, l->st.conn_msg);
		if (batch)
			fprintf(stderr, "evtop: %s: %s\n", l->opts->target,
			    l->st.conn_msg);
	}
	while ((n = control_note(l->ctl)) != NULL) {
		loop_log(l, "control: %s", n);
		if (batch)
			fprintf(stderr, "evtop: %s\n", n);
	}
	while (l->relay != NULL && (n = relay_note(l->relay)) != NULL) {
		loop_log(l, "%s", n);
		if (batch)
			fprintf(stderr, "evtop: %s\n", n);
	}
}

/* The history's part of a live source's JSON: ,"history":{...}. */
void
loop_history_json(struct loop *l, char *buf, size_t size)
{
	const struct evtop_status	*st = &l->st;
	struct redo_stats		 rs;
	char				 err[200];
	size_t				 i, k = 0;

	redo_stats(l->redo, &rs);
	/* Its own words and paths: only quotes and backslashes to mind. */
	for (i = 0; rs.error != NULL && rs.error[i] != '\0' &&
	    k + 3 < sizeof err; i++) {
		if (rs.error[i] == '"' || rs.error[i] == '\\')
			err[k++] = '\\';
		err[k++] = (unsigned char)rs.error[i] < 0x20 ? ' ' :
		    rs.error[i];
	}
	err[k] = '\0';
	snprintf(buf, size, ",\"history\":{\"on\":%s,\"bytes\":%llu,"
	    "\"first_ns\":%llu,\"last_ns\":%llu,\"checkpoints\":%d,"
	    "\"corrections\":%llu,\"corrected_ns\":%llu,"
	    "\"reapplied\":%llu,\"reapply_ns\":%llu,\"overflowed\":%llu,"
	    "\"error\":%s%s%s}",
	    rs.on ? "true" : "false",
	    (unsigned long long)st->history_bytes,
	    (unsigned long long)st->history_first,
	    (unsigned long long)st->history_last, rs.checkpoints,
	    (unsigned long long)st->corrections,
	    (unsigned long long)st->corrected_ns,
	    (unsigned long long)rs.reapplied,
	    (unsigned long long)rs.reapply_ns,
	    (unsigned long long)rs.overflowed, rs.error != NULL ? "\"" :
	    "null", rs.error != NULL ? err : "", rs.error != NULL ? "\"" : "");
}
