/*
 * runrss.c: run a command, then print its wall and CPU time, throughput
 * and peak RSS, and whether they are within a budget.
 *
 *	runrss LABEL [-b BYTES] [-e EVENTS] [-t CPU_SECONDS] [-m RSS_MB]
 *	    COMMAND [ARG...]
 *
 * The command's stdout goes to /dev/null.  With -b and -e, the rates are
 * BYTES and EVENTS over the wall time (and over the CPU time).  With -t or
 * -m, the CPU time (which other load on the machine changes less than the
 * wall time) and the peak RSS must stay below them: else it says so and
 * exits 1.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	struct rusage	ru;
	struct timespec	a, b;
	double		wall, cpu, bytes = 0, events = 0, max_cpu = 0, max_rss = 0;
	pid_t		pid;
	int		status, fd, i = 2;

	for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (strcmp(argv[i], "-b") == 0)
			bytes = strtod(argv[i + 1], NULL);
		else if (strcmp(argv[i], "-e") == 0)
			events = strtod(argv[i + 1], NULL);
		else if (strcmp(argv[i], "-t") == 0)
			max_cpu = strtod(argv[i + 1], NULL);
		else if (strcmp(argv[i], "-m") == 0)
			max_rss = strtod(argv[i + 1], NULL);
		else
			break;
	}
	if (argc < 3 || i >= argc)
		return 2;
	clock_gettime(CLOCK_MONOTONIC, &a);
	if ((pid = fork()) == 0) {
		fd = open("/dev/null", O_WRONLY);
		dup2(fd, 1);
		execvp(argv[i], argv + i);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) == -1)
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &b);
	wall = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) /
	    1e9;
	cpu = (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	    (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
	printf("%s: %.2f s wall, %.2f s CPU", argv[1], wall, cpu);
	if (bytes > 0)
		printf(", %.0f MB/s", bytes / 1e6 / wall);
	if (events > 0)
		printf(", %.1f M events/s", events / 1e6 / wall);
	if ((bytes > 0 || events > 0) && cpu > 0)
		printf(" (per CPU second: %.0f MB/s, %.1f M events/s)",
		    bytes / 1e6 / cpu, events / 1e6 / cpu);
	printf(", peak RSS %ld MB, exit %d\n", ru.ru_maxrss / 1024,
	    WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		printf("%s: FAILED\n", argv[1]);
		return 1;
	}
	if ((max_cpu > 0 && cpu > max_cpu) || (max_rss > 0 &&
	    (double)ru.ru_maxrss / 1024 >= max_rss)) {
		printf("%s: OVER BUDGET (%.2f s CPU for %.2f, %ld MB RSS for "
		    "%.0f)\n", argv[1], cpu, max_cpu, ru.ru_maxrss / 1024,
		    max_rss);
		return 1;
	}
	if (max_cpu > 0 || max_rss > 0) {
		printf("%s: within budget (", argv[1]);
		if (max_cpu > 0)
			printf("CPU < %.2f s%s", max_cpu, max_rss > 0 ?
			    ", " : "");
		if (max_rss > 0)
			printf("peak RSS < %.0f MB", max_rss);
		printf(")\n");
	}
	return 0;
}
