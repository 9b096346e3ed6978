/*
 * model-mem.c: the memory a model lives in, one region of its own.
 *
 * Every byte of a model (struct model first, then everything it points
 * to, uthash's tables included) is allocated from one mapping at an
 * address that never changes, and the allocator's own state lives at the
 * start of that mapping.  So the bytes from the start up to the highest
 * allocation are the whole model: a checkpoint is a copy of them, and
 * copying them back restores the model exactly, pointers and all
 * (src/time/ckpt.c).
 *
 * The region is reserved MHEAP_RESERVE bytes long and aligned to that,
 * so the heap a pointer belongs to is the pointer rounded down.  Pages are
 * touched only as the break passes them.  Blocks carry a 16-byte header
 * with their size class; freed blocks go on a list per class (small) or
 * one best-fit list (large, whole pages), and are cleared again when
 * given out.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "model/model-priv.h"

#if defined(__SANITIZE_ADDRESS__)
#define MHEAP_ASAN	1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MHEAP_ASAN	1
#endif
#endif
#ifdef MHEAP_ASAN
#include <sanitizer/asan_interface.h>
#define MHEAP_POISON(p, n)	ASAN_POISON_MEMORY_REGION(p, n)
#define MHEAP_UNPOISON(p, n)	ASAN_UNPOISON_MEMORY_REGION(p, n)
#else
#define MHEAP_POISON(p, n)	((void)(p), (void)(n))
#define MHEAP_UNPOISON(p, n)	((void)(p), (void)(n))
#endif

#define MHEAP_HDR	16
#define MHEAP_PAGE	4096
#define MHEAP_SMALL	65536		/* larger: whole pages, best fit */
#define MHEAP_NCLASS	64
#define MHEAP_LARGE	0xffffffffu	/* class of a large block */

struct mblock {
	uint32_t	 cls;		/* class, or MHEAP_LARGE */
	uint32_t	 pages;		/* a large block's length */
	struct mblock	*next;		/* when free */
};

struct mheap {
	char		*brk;		/* end of what was ever given */
	char		*limit;
	struct mblock	*free[MHEAP_NCLASS];
	struct mblock	*large;		/* free large blocks */
	size_t		 inuse;		/* bytes given and not freed */
};

/* Size classes: 16-byte steps to 256, then four per power of two. */
static uint32_t
mheap_class(size_t n, size_t *size)
{
	uint32_t	c;
	size_t		s, step;

	if (n <= 256) {
		s = (n + 15) & ~(size_t)15;
		if (s == 0)
			s = 16;
		*size = s;
		return (uint32_t)(s / 16 - 1);	/* 0..15 */
	}
	c = 16;
	for (s = 256; ; s *= 2) {
		step = s / 4;
		if (n <= s + step) { *size = s + step; return c; }
		if (n <= s + 2 * step) { *size = s + 2 * step; return c + 1; }
		if (n <= s + 3 * step) { *size = s + 3 * step; return c + 2; }
		if (n <= 2 * s) { *size = 2 * s; return c + 3; }
		c += 4;
	}
}

struct mheap *
mheap_new(void)
{
	char		*r, *base;
	struct mheap	*h;
	uintptr_t	 a;

	/* Twice the length, to cut an aligned reservation out of it. */
	r = mmap(NULL, 2 * MHEAP_RESERVE, PROT_READ | PROT_WRITE,
	    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (r == MAP_FAILED) {
		fprintf(stderr, "evtop: out of memory (address space)\n");
		abort();
	}
	a = ((uintptr_t)r + MHEAP_RESERVE - 1) & ~(uintptr_t)(MHEAP_RESERVE - 1);
	base = (char *)a;
	if (base > r)
		munmap(r, (size_t)(base - r));
	munmap(base + MHEAP_RESERVE, (size_t)(r + MHEAP_RESERVE - base));
	h = (struct mheap *)(void *)base;
	mheap_reset(h);
	return h;
}

/* Empty the heap (its pages must be zeros up to the break). */
void
mheap_reset(struct mheap *h)
{
	memset(h, 0, sizeof *h);
	h->brk = (char *)h + ((sizeof *h + 63) & ~(size_t)63);
	h->limit = (char *)h + MHEAP_RESERVE;
}

void
mheap_destroy(struct mheap *h)
{
	if (h != NULL) {
		MHEAP_UNPOISON(h, mheap_extent(h));
		munmap(h, MHEAP_RESERVE);
	}
}

struct mheap *
mheap_of(const void *p)
{
	return (struct mheap *)((uintptr_t)p & ~(uintptr_t)(MHEAP_RESERVE - 1));
}

static char *
mheap_take(struct mheap *h, size_t n)
{
	char	*b = h->brk;

	if ((size_t)(h->limit - b) < n) {
		fprintf(stderr, "evtop: out of memory (the model's %zu MB)\n",
		    (size_t)(MHEAP_RESERVE >> 20));
		abort();
	}
	h->brk = b + n;
	return b;
}

/* n bytes, cleared; aborts when out of memory, as model_calloc() does. */
void *
mheap_alloc(struct mheap *h, size_t n)
{
	struct mblock	*b, **pp, **best;
	size_t		 size, pages;
	uint32_t	 c;

	if (n + MHEAP_HDR <= MHEAP_SMALL) {
		c = mheap_class(n + MHEAP_HDR, &size);
		if ((b = h->free[c]) != NULL) {
			MHEAP_UNPOISON(b, size);
			h->free[c] = b->next;
		} else {
			b = (struct mblock *)(void *)mheap_take(h, size);
			MHEAP_UNPOISON(b, size);
		}
		b->cls = c;
		b->pages = 0;
	} else {
		pages = (n + MHEAP_HDR + MHEAP_PAGE - 1) / MHEAP_PAGE;
		if (pages > UINT32_MAX)
			pages = UINT32_MAX;	/* mheap_take() says no */
		size = pages * MHEAP_PAGE;
		/* Best fit, so a model made again reuses its blocks. */
		best = NULL;
		for (pp = &h->large; (b = *pp) != NULL; pp = &b->next)
			if (b->pages >= pages && (best == NULL ||
			    b->pages < (*best)->pages)) {
				best = pp;
				if (b->pages == pages)
					break;
			}
		if (best != NULL) {
			b = *best;
			*best = b->next;
			size = (size_t)b->pages * MHEAP_PAGE;
			MHEAP_UNPOISON(b, size);
		} else {
			b = (struct mblock *)(void *)mheap_take(h, size);
			MHEAP_UNPOISON(b, size);
			b->pages = (uint32_t)pages;
		}
		b->cls = MHEAP_LARGE;
	}
	h->inuse += size;
	b->next = NULL;
	memset((char *)b + MHEAP_HDR, 0, size - MHEAP_HDR);
	MHEAP_POISON((char *)b + MHEAP_HDR + n, size - MHEAP_HDR - n);
	return (char *)b + MHEAP_HDR;
}

static size_t
mheap_block_size(const struct mblock *b)
{
	size_t	size;

	if (b->cls == MHEAP_LARGE)
		return (size_t)b->pages * MHEAP_PAGE;
	if (b->cls < 16)
		return ((size_t)b->cls + 1) * 16;
	size = (size_t)256 << ((b->cls - 16) / 4);
	return size + size / 4 * ((b->cls - 16) % 4 + 1);
}

void
mheap_free(void *p)
{
	struct mheap	*h;
	struct mblock	*b;
	size_t		 size;

	if (p == NULL)
		return;
	h = mheap_of(p);
	b = (struct mblock *)(void *)((char *)p - MHEAP_HDR);
	size = mheap_block_size(b);
	MHEAP_UNPOISON(b, size);
	h->inuse -= size;
	if (b->cls == MHEAP_LARGE) {
		b->next = h->large;
		h->large = b;
	} else {
		b->next = h->free[b->cls];
		h->free[b->cls] = b;
	}
	MHEAP_POISON((char *)b + MHEAP_HDR, size - MHEAP_HDR);
}

void *
mheap_realloc(void *p, size_t n)
{
	struct mblock	*b;
	void		*q;
	size_t		 had;

	b = (struct mblock *)(void *)((char *)p - MHEAP_HDR);
	had = mheap_block_size(b) - MHEAP_HDR;
	MHEAP_UNPOISON(p, had);		/* the slack too: it is cleared */
	if (n <= had)
		return p;
	q = mheap_alloc(mheap_of(p), n);
	memcpy(q, p, had);
	mheap_free(p);
	return q;
}

/* The bytes that are the whole model: [mheap_base(), mheap_base() + n). */
size_t
mheap_extent(const struct mheap *h)
{
	return (size_t)(h->brk - (const char *)h);
}

size_t
mheap_inuse(const struct mheap *h)
{
	return h->inuse;
}

/*
 * The whole extent is about to be read as bytes (a checkpoint): under a
 * sanitizer, the poison of freed blocks and slack goes (it is not put
 * back: blocks given out later are poisoned again as they are freed).
 */
void
mheap_expose(struct mheap *h)
{
	MHEAP_UNPOISON(h, mheap_extent(h));
	(void)h;
}

/*
 * Before a checkpoint's bytes are copied over the model (a sanitizer
 * would see the copy write into freed blocks): the blocks' poison goes.
 */
void
mheap_restoring(struct mheap *h, size_t n)
{
	size_t	e = mheap_extent(h);

	MHEAP_UNPOISON(h, n > e ? n : e);
}

/*
 * After the first n bytes were copied back from a checkpoint: let go of
 * the pages past the break they restored, which hold a later state, but
 * the first keep bytes, which the model is about to grow back into.
 */
void
mheap_restored(struct mheap *h, size_t had, size_t keep)
{
	uintptr_t	from, to;

	from = ((uintptr_t)h->brk + keep + MHEAP_PAGE - 1) &
	    ~(uintptr_t)(MHEAP_PAGE - 1);
	to = (uintptr_t)h + had;
	if (to > from)
		madvise((void *)from, to - from, MADV_DONTNEED);
}
