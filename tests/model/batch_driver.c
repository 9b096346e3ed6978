/*
 * batch_driver.c: `evtop --batch` without evtop.c's option parsing:
 *	batch_driver [--json] [--interval SECONDS] FILE
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evtop.h"

int
main(int argc, char **argv)
{
	struct evtop_opts	o;
	int			i;

	memset(&o, 0, sizeof o);
	o.kind = EVTOP_SRC_FILE;
	o.batch = 1;
	o.interval = 1;
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--json") == 0)
			o.json = 1;
		else if (strcmp(argv[i], "--interval") == 0 && i + 1 < argc)
			o.interval = atof(argv[++i]);
		else if (o.target == NULL)
			o.target = argv[i];
		else
			break;
	}
	if (o.target == NULL || i < argc) {
		fprintf(stderr, "usage: batch_driver [--json] "
		    "[--interval SECONDS] FILE\n");
		return 2;
	}
	return batch_main(&o);
}
