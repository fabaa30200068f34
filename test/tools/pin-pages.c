// SPDX-License-Identifier: GPL-2.0-only
/* pin-pages - touch 16 pages, then hold references to them by splicing them
 * into a pipe that nobody reads (vmsplice), say "ready", then the memory
 * blocks the pages are in ("memory36 memory37", from /proc/self/pagemap:
 * root only; "?" otherwise), and wait for a signal. Run under
 * `numactl --membind=N`: the memory block holding those pages cannot be
 * offlined while they are pinned (migration fails), as with pages under I/O. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>

#define NPAGES 16

/* the memory block of each page, each block once; 0 when unknown */
static int print_blocks(const char *p, size_t page)
{
	unsigned long long bs = 0, seen[NPAGES];
	size_t nseen = 0;
	FILE *f = fopen("/sys/devices/system/memory/block_size_bytes", "r");
	int fd = open("/proc/self/pagemap", O_RDONLY);

	if (f) {
		if (fscanf(f, "%llx", &bs) != 1)
			bs = 0;
		fclose(f);
	}
	for (size_t i = 0; i < NPAGES && fd >= 0 && bs; i++) {
		uint64_t e;
		unsigned long long pfn, blk;
		off_t off = (off_t)((uintptr_t)(p + i * page) / page) * 8;
		size_t k;
		if (pread(fd, &e, sizeof(e), off) != sizeof(e) || !(e & (1ULL << 63)))
			continue;
		pfn = e & ((1ULL << 55) - 1);
		if (!pfn)
			continue;	/* PFNs hidden: not root */
		blk = pfn * page / bs;
		for (k = 0; k < nseen && seen[k] != blk; k++)
			;
		if (k == nseen)
			seen[nseen++] = blk;
	}
	if (fd >= 0)
		close(fd);
	for (size_t k = 0; k < nseen; k++)
		printf("%smemory%llu", k ? " " : "", seen[k]);
	printf("%s\n", nseen ? "" : "?");
	return 0;
}

int main(void)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), len = NPAGES * page;
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
	print_blocks(p, page);
	fflush(stdout);
	pause();
	return 0;
}
