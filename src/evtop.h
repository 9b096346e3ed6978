/*
 * evtop.h: declarations shared across src/ (sources, loop, model wiring).
 */
#ifndef EVTOP_H
#define EVTOP_H

#include <stdint.h>
#include <stdio.h>

#include "proto.h"

/* show.c */
int	show_main(int, char **);

#endif
