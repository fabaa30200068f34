// SPDX-License-Identifier: GPL-2.0-only
/* the present runs of this process's own address space, from /proc/self's
 * pagemap (PAGEMAP_SCAN, 6.7+): a sparse reservation of 1 GiB with three
 * pages touched is three pages, not 262144 to ask about */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "tap.h"
#include "mm/pagemap.h"

int main(void)
{
	struct ct_error err = { 0 };
	struct ct_sysfs s;
	struct ct_present *pr = NULL;
	size_t n = 0, cap = 0;
	uint64_t len = 1ull << 30, page = (uint64_t)sysconf(_SC_PAGESIZE), bytes = 0;
	unsigned char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	int fd, rc;

	if (m == MAP_FAILED || ct_sysfs_open(&s, "/", &err)) {
		ok(0, "a 1 GiB reservation");
		return tap_done();
	}
	madvise(m, len, MADV_NOHUGEPAGE);	/* base pages: three pages touched are three pages */
	m[0] = 1;
	m[len / 2 + 5 * page] = 1;
	m[len - 1] = 1;
	fd = ct_pagemap_open(&s, (int)getpid());
	ok(fd >= 0, "/proc/PID/pagemap opened");
	rc = ct_pagemap_present(fd, (uintptr_t)m, (uintptr_t)m + len, &pr, &n, &cap);
	if (rc == -EOPNOTSUPP) {
		ok(1, "# SKIP no PAGEMAP_SCAN in this kernel");
		return tap_done();
	}
	is_int(rc, 0, "scanned");
	is_int(n, 3, "three present runs");
	for (size_t i = 0; i < n; i++)
		bytes += pr[i].end - pr[i].start;
	is_int(bytes, 3 * page, "three pages in all");
	ok(n == 3 && pr[0].start == (uintptr_t)m && pr[1].start == (uintptr_t)m + len / 2 + 5 * page &&
	   pr[2].end == (uintptr_t)m + len, "where they were touched");
	ok(n == 3 && !pr[0].huge && !pr[1].huge && !pr[2].huge, "none huge");

	/* a part of the range: appended to what is there */
	rc = ct_pagemap_present(fd, (uintptr_t)m + len / 2, (uintptr_t)m + len, &pr, &n, &cap);
	is_int(n, 5, "two more runs appended");
	close(fd);
	free(pr);
	munmap(m, len);
	ct_sysfs_close(&s);
	return tap_done();
}
