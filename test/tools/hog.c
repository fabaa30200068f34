// SPDX-License-Identifier: GPL-2.0-only
/* hog - a workload for migration tests: allocate MiB of memory, fill it
 * with a pattern, say "ready", then on SIGUSR1 check the pattern and say
 * "intact" or "corrupt"; SIGTERM ends it.
 * hog --hot PCT MiB: the same, then keep reading the first PCT % of it (the
 * hot set) in a loop; prints "range START HOT_END END" before "ready";
 * SIGUSR2 prints where the hot and the cold pages are ("hot N0..N7", "cold N0..N7").
 * After each pass over the hot set it flushes its own TLB (see flush_tlb):
 * QEMU's emulated TLB holds the whole hot set, a real CPU's does not.
 * hog --thp MiB: the memory in transparent huge pages (MADV_HUGEPAGE).
 * hog --small MiB: the memory never in transparent huge pages
 * (MADV_NOHUGEPAGE): khugepaged leaves it alone; prints "phys 0xADDR" (the
 * physical address of its first page, from /proc/self/pagemap: root only)
 * before "ready", and again after each check. Where THP is "always",
 * khugepaged collapses a 2 MiB range of the buffer's mapping that holds a
 * few small pages (the allocator's header) into a huge page at any moment,
 * and the new huge page-table entry is made young: to DAMON, an access.
 * hog --hugetlb MiB: the memory in hugetlb pages (MAP_HUGETLB, 2 MiB).
 * hog --memcpy MiB: time a plain copy of that much memory (the copy limit
 * migration is compared with) and print "memcpy_mbps N". */
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static volatile sig_atomic_t check, done, where;

/* DAMON clears a page's accessed bit without flushing the TLB; a CPU sets
 * the bit again only when it walks the page table, i.e. after the entry left
 * its TLB. A real x86 TLB reaches a few MiB, so a hot set of many MiB keeps
 * being walked and is seen; QEMU's emulated TLB grows to hold it all, and
 * DAMON would see a hot page untouched for seconds. Changing the protection
 * of more than 33 pages of our own makes the kernel flush this process's
 * whole TLB, as a real CPU's eviction would. */
#define FLUSH_PAGES 64
static unsigned char *flush_area;
static void flush_tlb(void)
{
	static int ro;

	if (flush_area)
		mprotect(flush_area, FLUSH_PAGES * 4096, (ro ^= 1) ? PROT_READ : PROT_READ | PROT_WRITE);
}
static void on_usr1(int s) { (void)s; check = 1; }
static void on_usr2(int s) { (void)s; where = 1; }

/* pages per node (0..7) of [a, a+len), asked of the kernel with move_pages */
static void node_pages(unsigned char *a, size_t len, unsigned long counts[8])
{
	for (size_t off = 0; off < len; off += 4096) {
		void *pg = a + off;
		int st = -1;
		syscall(SYS_move_pages, 0, 1UL, &pg, NULL, &st, 0);
		if (st >= 0 && st < 8)
			counts[st]++;
	}
}
static void on_term(int s) { (void)s; done = 1; }

/* "phys 0x..." of the page at p (0 when the PFN is hidden: not root) */
static void print_phys(const unsigned char *p)
{
	uint64_t e = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY);

	if (fd >= 0 && pread(fd, &e, sizeof(e), (off_t)((uintptr_t)p / 4096 * 8)) != sizeof(e))
		e = 0;
	if (fd >= 0)
		close(fd);
	printf("phys 0x%llx\n", (e >> 63) ? (unsigned long long)(e & ((1ULL << 55) - 1)) * 4096 : 0ULL);
}

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
	size_t hot = 0;
	int thp = argc > 2 && !strcmp(argv[1], "--thp");
	int hugetlb = argc > 2 && !strcmp(argv[1], "--hugetlb");
	int small = argc > 2 && !strcmp(argv[1], "--small");
	if (argc > 3 && !strcmp(argv[1], "--hot")) {
		mib = strtoul(argv[3], NULL, 10);
		len = mib << 20;
		hot = len / 100 * strtoul(argv[2], NULL, 10);
	}
	/* page-aligned, so that the hot set is whole pages */
	if (hugetlb) {
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB, -1, 0);
		if (p == MAP_FAILED)
			return 1;
	} else if (small) {
		/* a mapping of its own: no allocator's header beside it */
		p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED || madvise(p, len, MADV_NOHUGEPAGE))
			return 1;
	} else if (posix_memalign((void **)&p, 2u << 20, len)) {
		return 1;
	}
	if (thp && madvise(p, len, MADV_HUGEPAGE))
		return 1;
	for (size_t i = 0; i < len; i++)
		p[i] = (unsigned char)(i * 7 + 3);
	signal(SIGUSR1, on_usr1);
	signal(SIGTERM, on_term);
	signal(SIGUSR2, on_usr2);
	if (hot) {
		/* present pages, so that changing their protection flushes */
		flush_area = mmap(NULL, FLUSH_PAGES * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (flush_area == MAP_FAILED)
			return 1;
		memset(flush_area, 1, FLUSH_PAGES * 4096);
		printf("range %p %p %p\n", (void *)p, (void *)(p + hot), (void *)(p + len));
	}
	if (small)
		print_phys(p);
	printf("ready\n");
	fflush(stdout);
	while (!done) {
		if (hot) {
			volatile unsigned char sink = 0;
			for (size_t i = 0; i < hot && !check && !done && !where; i += 4096)
				sink += p[i];
			(void)sink;
			flush_tlb();
		} else {
			pause();
		}
		if (where) {	/* "hot N0 .. N7" and "cold N0 .. N7": where the two sets are */
			unsigned long h[8] = { 0 }, c[8] = { 0 };
			node_pages(p, hot, h);
			node_pages(p + hot, len - hot, c);
			printf("hot");
			for (int n = 0; n < 8; n++)
				printf(" %lu", h[n]);
			printf("\ncold");
			for (int n = 0; n < 8; n++)
				printf(" %lu", c[n]);
			printf("\n");
			fflush(stdout);
			where = 0;
		}
		if (check) {
			size_t bad = 0;
			for (size_t i = 0; i < len; i++)
				bad += p[i] != (unsigned char)(i * 7 + 3);
			if (small)
				print_phys(p);
			printf("%s\n", bad ? "corrupt" : "intact");
			fflush(stdout);
			check = 0;
		}
	}
	return 0;
}
