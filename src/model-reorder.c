/*
 * model-reorder.c: put a live stream's events back in time order.
 *
 * Each capability writes its events in time order, but whole blocks of
 * different capabilities arrive interleaved and late.  Events are copied
 * into one FIFO per capability (plus one for events without a cap), made
 * of 64 KiB chunks from a pool capped by max_bytes; a binary heap over the
 * FIFOs' heads, keyed by (time, arrival number), releases the oldest event
 * once it is `window` older than the newest event seen, or early when the
 * pool is full.  With no event late, the order is exactly the stable time
 * order merge_next() gives for a file.  An event older than one already
 * released is applied at once and counted as late.
 */
#include <stdlib.h>
#include <string.h>

#include "model-priv.h"

#define RCHUNK_BYTES	(64u << 10)

struct rchunk {
	struct rchunk	*next;
	uint32_t	 used, read;
	uint8_t		 data[RCHUNK_BYTES];
};

/* What is kept of an event; its payload follows. */
struct rhdr {
	uint64_t	 time, off, seq;
	int32_t		 cap;
	uint32_t	 size, len;
	uint16_t	 tag, kind;
};

#define RALIGN(n)	(((n) + 7) & ~(size_t)7)

void
model_reorder_init(struct reorder *ro)
{
	memset(ro, 0, sizeof *ro);
	ro->window = MODEL_REORDER_NS;
	ro->max_bytes = MODEL_REORDER_BYTES;
}

void
model_reorder_free(struct reorder *ro)
{
	struct rchunk	*c, *next;
	int		 i;

	for (i = 0; i <= MODEL_MAX_CAPS; i++) {
		for (c = ro->q[i].head; c != NULL; c = next) {
			next = c->next;
			free(c);
		}
		ro->q[i].head = ro->q[i].tail = NULL;
	}
	for (c = ro->free; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
	ro->free = NULL;
	ro->nchunks = 0;
	ro->nheap = 0;
}

static const struct rhdr *
head_of(const struct reorder *ro, int qi)
{
	const struct rchunk	*c = ro->q[qi].head;

	return (const struct rhdr *)(const void *)(c->data + c->read);
}

static int
q_before(const struct reorder *ro, int a, int b)
{
	const struct rhdr	*x = head_of(ro, a), *y = head_of(ro, b);

	if (x->time != y->time)
		return x->time < y->time;
	return x->seq < y->seq;
}

static void
heap_down(struct reorder *ro, int i)
{
	uint16_t	tmp;
	int		c;

	for (;;) {
		c = 2 * i + 1;
		if (c >= ro->nheap)
			break;
		if (c + 1 < ro->nheap && q_before(ro, ro->heap[c + 1],
		    ro->heap[c]))
			c++;
		if (!q_before(ro, ro->heap[c], ro->heap[i]))
			break;
		tmp = ro->heap[i];
		ro->heap[i] = ro->heap[c];
		ro->heap[c] = tmp;
		i = c;
	}
}

static void
heap_push(struct reorder *ro, int qi)
{
	uint16_t	tmp;
	int		i = ro->nheap++, up;

	ro->heap[i] = (uint16_t)qi;
	while (i > 0) {
		up = (i - 1) / 2;
		if (!q_before(ro, ro->heap[i], ro->heap[up]))
			break;
		tmp = ro->heap[i];
		ro->heap[i] = ro->heap[up];
		ro->heap[up] = tmp;
		i = up;
	}
}

/* Release the oldest held event into the model. */
static void
release_one(struct model *m)
{
	struct reorder		*ro = &m->p->ro;
	struct rqueue		*q;
	struct rchunk		*c;
	const struct rhdr	*h;
	struct proto_ev		 ev;
	int			 qi = ro->heap[0];

	q = &ro->q[qi];
	c = q->head;
	h = head_of(ro, qi);
	memset(&ev, 0, sizeof ev);
	ev.time = h->time;
	ev.off = h->off;
	ev.tag = h->tag;
	ev.kind = h->kind;
	ev.cap = h->cap;
	ev.size = h->size;
	ev.len = h->len;
	ev.payload = (const uint8_t *)(h + 1);
	(void)proto_fields(&ev);
	c->read += (uint32_t)RALIGN(sizeof *h + h->len);
	m->totals.held--;
	m->totals.held_bytes -= RALIGN(sizeof *h + h->len);
	q->n--;
	if (c->read == c->used) {
		/* Back to the pool; not reused before the next push. */
		q->head = c->next;
		if (q->head == NULL)
			q->tail = NULL;
		c->next = ro->free;
		ro->free = c;
	}
	if (q->n > 0)
		heap_down(ro, 0);
	else {
		ro->heap[0] = ro->heap[--ro->nheap];
		if (ro->nheap > 0)
			heap_down(ro, 0);
	}
	if (!ro->any_released || ev.time > ro->released)
		ro->released = ev.time;
	else if (ev.time < ro->released)
		m->totals.late++;	/* overtaken by an early release */
	ro->any_released = 1;
	model_apply_one(m, &ev);
}

void
model_reorder_flush(struct model *m)
{
	while (m->p->ro.nheap > 0)
		release_one(m);
}

static struct rchunk *
chunk_get(struct model *m)
{
	struct reorder	*ro = &m->p->ro;
	struct rchunk	*c;
	size_t		 max = ro->max_bytes / RCHUNK_BYTES;

	if (max < 2)
		max = 2;
	for (;;) {
		if ((c = ro->free) != NULL) {
			ro->free = c->next;
			break;
		}
		if (ro->nchunks < max) {
			if ((c = malloc(sizeof *c)) == NULL) {
				fprintf(stderr, "evtop: out of memory\n");
				abort();
			}
			ro->nchunks++;
			break;
		}
		/* Full: release early until a chunk comes back. */
		if (ro->nheap == 0)
			return NULL;
		m->totals.forced++;
		release_one(m);
	}
	c->next = NULL;
	c->used = c->read = 0;
	return c;
}

void
model_reorder_push(struct model *m, const struct proto_ev *ev)
{
	struct reorder	*ro = &m->p->ro;
	struct rqueue	*q;
	struct rchunk	*c;
	struct rhdr	*h;
	size_t		 need = RALIGN(sizeof *h + ev->len);
	int		 qi, was_empty;

	if (ev->kind == PROTO_BLOCK_MARKER) {
		model_apply_one(m, ev);
		return;
	}
	if (ro->any_released && ev->time < ro->released) {
		m->totals.late++;
		model_apply_one(m, ev);
		return;
	}
	if (need > RCHUNK_BYTES) {
		/* Too big to copy: what is older goes first, then it. */
		m->totals.oversize++;
		while (ro->nheap > 0 && head_of(ro, ro->heap[0])->time <=
		    ev->time)
			release_one(m);
		if (!ro->any_released || ev->time > ro->released)
			ro->released = ev->time;
		ro->any_released = 1;
		model_apply_one(m, ev);
		return;
	}
	if (ev->cap < 0)
		qi = 0;
	else
		qi = 1 + ev->cap % MODEL_MAX_CAPS;
	q = &ro->q[qi];
	if ((c = q->tail) == NULL || c->used + need > RCHUNK_BYTES) {
		if ((c = chunk_get(m)) == NULL) {
			model_apply_one(m, ev);
			return;
		}
		/* Releasing may have emptied and freed this queue's chunks. */
		if (q->tail != NULL)
			q->tail->next = c;
		else
			q->head = c;
		q->tail = c;
	}
	was_empty = q->n == 0;
	h = (struct rhdr *)(void *)(c->data + c->used);
	h->time = ev->time;
	h->off = ev->off;
	h->seq = ro->seq++;
	h->cap = ev->cap;
	h->size = ev->size;
	h->len = ev->len;
	h->tag = ev->tag;
	h->kind = ev->kind;
	if (ev->len > 0)
		memcpy(h + 1, ev->payload, ev->len);
	c->used += (uint32_t)need;
	q->n++;
	m->totals.held++;
	m->totals.held_bytes += need;
	if (was_empty)
		heap_push(ro, qi);
	if (ev->time > ro->newest)
		ro->newest = ev->time;
	while (ro->nheap > 0 && head_of(ro, ro->heap[0])->time + ro->window <=
	    ro->newest)
		release_one(m);
}
