// SPDX-License-Identifier: GPL-2.0-only
/* pin-pages - touch 16 pages, then hold references to them by splicing them
 * into a pipe that nobody reads (vmsplice), say "ready" and wait for a
 * signal. Run under `numactl --membind=N`: the memory block holding those
 * pages cannot be offlined while they are pinned (migration fails), as with
 * pages under I/O. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

int main(void)
{
	size_t len = 16 * 4096;
	int fds[2];
	char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct iovec iov = { p, len };

	if (p == MAP_FAILED || pipe(fds)) {
		perror("pin-pages");
		return 1;
	}
	memset(p, 0x5a, len);
	if (vmsplice(fds[1], &iov, 1, 0) != (ssize_t)len) {
		perror("pin-pages: vmsplice");
		return 1;
	}
	printf("ready\n");
	fflush(stdout);
	pause();
	return 0;
}
