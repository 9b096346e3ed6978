/*
 * evtop.c: main(): the command line, and the wiring of the layers.
 */
#include <stdio.h>
#include <string.h>

#include "evtop.h"

int
main(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "show") == 0)
		return show_main(argc - 1, argv + 1);
	fprintf(stderr, "usage: evtop show FILE\n");
	return 2;
}
