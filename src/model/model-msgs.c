/*
 * model-msgs.c: messages from the program (USER_MSG, USER_MARKER, LOG_MSG,
 * USER_BINARY_MSG), counted and kept in a ring of MODEL_NMSG.
 */
#include <string.h>

#include "model/model-priv.h"

void
model_msgs_event(struct model *m, const struct proto_ev *ev)
{
	struct model_priv	*p = m->p;
	struct model_msg	*g;
	uint8_t			 kind;
	size_t			 i, n;

	switch (ev->kind) {
	case PROTO_USER_MSG:
		m->msgs.user++;
		kind = MODEL_MSG_USER;
		break;
	case PROTO_USER_MARKER:
		m->msgs.markers++;
		kind = MODEL_MSG_MARKER;
		break;
	case PROTO_LOG_MSG:
		m->msgs.log++;
		kind = MODEL_MSG_LOG;
		break;
	default:
		m->msgs.binary++;
		kind = MODEL_MSG_BINARY;
		break;
	}
	model_count(m, MODEL_S_MESSAGES, ev->time, 1);
	/* The bytes are kept raw and sanitized when first read. */
	i = p->msgseq++ % MODEL_NMSG;
	g = &p->msg[i];
	g->time = ev->time;
	g->cap = ev->cap;
	g->kind = kind;
	n = ev->u.msg.len < MODEL_MSG_LEN ? ev->u.msg.len : MODEL_MSG_LEN;
	memcpy(p->msg_raw[i].b, ev->u.msg.p, n);
	p->msg_raw[i].len = (uint16_t)n;
	p->msg_raw[i].done = 0;
	m->msgs.kept = p->msgseq < MODEL_NMSG ? p->msgseq : MODEL_NMSG;
}

/* The i-th newest message; its text is made from the raw bytes now. */
const struct model_msg *
model_msg_recent(const struct model *m, int i)
{
	const struct model_priv	*p = m->p;
	struct model_msg	*g;
	size_t			 k;

	if (i < 0 || (uint64_t)i >= m->msgs.kept)
		return NULL;
	k = (p->msgseq - 1 - (uint64_t)i) % MODEL_NMSG;
	g = &p->msg[k];
	if (!p->msg_raw[k].done) {
		model_copy_text(g->text, sizeof g->text,
		    (const char *)p->msg_raw[k].b, p->msg_raw[k].len);
		p->msg_raw[k].done = 1;
	}
	return g;
}
