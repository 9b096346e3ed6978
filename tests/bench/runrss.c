/*
 * runrss.c: run a command, then print its wall time and peak RSS.
 *
 *	runrss LABEL COMMAND [ARG...]   (stdout of COMMAND goes to /dev/null)
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int
main(int argc, char **argv)
{
	struct rusage	ru;
	struct timespec	a, b;
	pid_t		pid;
	int		status, fd;

	if (argc < 3)
		return 2;
	clock_gettime(CLOCK_MONOTONIC, &a);
	if ((pid = fork()) == 0) {
		fd = open("/dev/null", O_WRONLY);
		dup2(fd, 1);
		execvp(argv[2], argv + 2);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) == -1)
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%s: %.2f s wall, %.2f s CPU, peak RSS %ld MB, exit %d\n",
	    argv[1], (double)(b.tv_sec - a.tv_sec) +
	    (double)(b.tv_nsec - a.tv_nsec) / 1e9,
	    (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
	    (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6,
	    ru.ru_maxrss / 1024, WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return 0;
}
