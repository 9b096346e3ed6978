/*
 * demo.c: the C half of evtop's demo program (EvtopDemo.hs), beside the
 * eventlog writer it shares with the tests (tests/sockprog/sockprog.c,
 * which has main()).
 *
 * GHC 9.0.2 writes its global event buffer (the program's name, heap
 * censuses, profiling samples) only when it is full, and has no heap
 * profiling that can be paused: demo_flush() has it written a few times a
 * second and demo_census() asks for one census, so that the demo reacts
 * to H, h and c as a GHC >= 9.2 program with eventlog-socket does.
 */
#include <pthread.h>

#include "Rts.h"

/* In the RTS, not in its public headers. */
extern pthread_mutex_t	eventBufMutex;
extern bool		performHeapProfile;

void	sockprog_restart(void);
void	demo_flush(void);
void	demo_census(void);

/*
 * Called unsafe, with -N1: the one capability stays with the caller, and
 * the mutex keeps out the timer thread's profiling samples, the only
 * other writers of the buffers being flushed.
 */
void
demo_flush(void)
{
	pthread_mutex_lock(&eventBufMutex);
	sockprog_restart();
	pthread_mutex_unlock(&eventBufMutex);
}

/* The census is made at the next collection. */
void
demo_census(void)
{
	performHeapProfile = true;
}
