/*
 * uifmt.c: a figure formatted as the UI shows it, for the tmux tests to
 * look for the batch JSON's numbers on the screen.
 *
 * usage: uifmt ns|bytes|count|pct|time VALUE
 *        uifmt keys	(the help's entries: keys, a tab, what they do)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui.h"

int
main(int argc, char **argv)
{
	char				 buf[FMT_MAX];
	const struct keys_info		*ki;
	size_t				 i;

	if (argc == 2 && strcmp(argv[1], "keys") == 0) {
		for (i = 0; (ki = keys_info_at(i)) != NULL; i++) {
			if (ki->help != NULL)
				printf("%s\t%s\n", ki->keys, ki->help);
		}
		return 0;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: uifmt ns|bytes|count|pct|time VALUE\n");
		return 2;
	}
	if (strcmp(argv[1], "ns") == 0)
		fmt_ns(buf, strtoull(argv[2], NULL, 10));
	else if (strcmp(argv[1], "bytes") == 0)
		fmt_bytes(buf, strtoull(argv[2], NULL, 10));
	else if (strcmp(argv[1], "count") == 0)
		fmt_count(buf, strtod(argv[2], NULL));
	else if (strcmp(argv[1], "pct") == 0)
		fmt_pct(buf, strtod(argv[2], NULL));
	else if (strcmp(argv[1], "time") == 0)
		fmt_time(buf, strtoull(argv[2], NULL, 10));
	else
		return 2;
	printf("%s\n", buf);
	return 0;
}
