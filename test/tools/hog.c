// SPDX-License-Identifier: GPL-2.0-only
/* hog - a workload for migration tests: allocate MiB of memory, fill it
 * with a pattern, say "ready", then on SIGUSR1 check the pattern and say
 * "intact" or "corrupt"; SIGTERM ends it.
 * hog --memcpy MiB: time a plain copy of that much memory (the copy limit
 * migration is compared with) and print "memcpy_mbps N". */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t check, done;
static void on_usr1(int s) { (void)s; check = 1; }
static void on_term(int s) { (void)s; done = 1; }

int main(int argc, char **argv)
{
	size_t mib = argc > 2 ? strtoul(argv[2], NULL, 10) : argc > 1 ? strtoul(argv[1], NULL, 10) : 16;
	size_t len = mib << 20;
	unsigned char *p;

	if (argc > 2 && !strcmp(argv[1], "--memcpy")) {
		unsigned char *a = malloc(len), *b = malloc(len);
		struct timespec t0, t1;
		if (!a || !b)
			return 1;
		memset(a, 1, len);
		memset(b, 2, len);
		clock_gettime(CLOCK_MONOTONIC, &t0);
		memcpy(b, a, len);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		printf("memcpy_mbps %.1f\n", len / 1e6 / ((t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9));
		return b[len / 2] != 1;
	}
	p = malloc(len);
	if (!p)
		return 1;
	for (size_t i = 0; i < len; i++)
		p[i] = (unsigned char)(i * 7 + 3);
	signal(SIGUSR1, on_usr1);
	signal(SIGTERM, on_term);
	printf("ready\n");
	fflush(stdout);
	while (!done) {
		pause();
		if (check) {
			size_t bad = 0;
			for (size_t i = 0; i < len; i++)
				bad += p[i] != (unsigned char)(i * 7 + 3);
			printf("%s\n", bad ? "corrupt" : "intact");
			fflush(stdout);
			check = 0;
		}
	}
	return 0;
}
