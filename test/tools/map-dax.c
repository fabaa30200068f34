// SPDX-License-Identifier: GPL-2.0-only
/* map-dax - map MIB MiB (default 2: device dax's usual alignment) of a
 * device dax character device (any node of it: /dev/daxX.Y, or one made
 * with mknod), write its first byte, close the file descriptor (the mapping
 * stays), say "ready", then wait for a signal: a process that has the
 * device mapped, as a database would */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	size_t len = (size_t)(argc > 2 ? atol(argv[2]) : 2) << 20;
	int fd = argc > 1 ? open(argv[1], O_RDWR) : -1;
	volatile char *p;

	if (fd < 0) {
		perror(argc > 1 ? argv[1] : "usage: map-dax DEVICE [MIB]");
		return 1;
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		perror("map-dax: mmap");
		return 1;
	}
	p[0] = 1;
	close(fd);
	printf("ready\n");
	fflush(stdout);
	pause();
	return 0;
}
