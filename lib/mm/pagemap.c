// SPDX-License-Identifier: LGPL-2.1-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include "mm/pagemap.h"

/* include/uapi/linux/fs.h (6.7): not in every libc's headers yet */
struct ct_page_region {
	uint64_t start, end, categories;
};

struct ct_pm_scan_arg {
	uint64_t size, flags, start, end, walk_end, vec, vec_len, max_pages;
	uint64_t category_inverted, category_mask, category_anyof_mask, return_mask;
};

#define CT_PAGEMAP_SCAN _IOWR('f', 16, struct ct_pm_scan_arg)
#define CT_PAGE_IS_PRESENT (1u << 3)
#define CT_PAGE_IS_HUGE (1u << 6)
#define VEC 256

int ct_pagemap_open(struct ct_sysfs *s, int pid)
{
	char path[64];

	return ct_sysfs_openat(s, ct_path(path, sizeof(path), "/proc/%d/pagemap", pid), O_RDONLY | O_CLOEXEC, 0);
}

static int append(struct ct_present **out, size_t *n, size_t *cap, const struct ct_page_region *r)
{
	bool huge = r->categories & CT_PAGE_IS_HUGE;
	struct ct_present *last = *n ? &(*out)[*n - 1] : NULL;

	if (last && last->end == r->start && last->huge == huge) {
		last->end = r->end;	/* two calls' runs side by side */
		return 0;
	}
	if (*n == *cap) {
		size_t nc = *cap ? 2 * *cap : 64;
		struct ct_present *no = realloc(*out, nc * sizeof(*no));
		if (!no)
			return -ENOMEM;
		*out = no;
		*cap = nc;
	}
	(*out)[(*n)++] = (struct ct_present){ r->start, r->end, huge };
	return 0;
}

int ct_pagemap_present(int fd, uint64_t start, uint64_t end, struct ct_present **out, size_t *n, size_t *cap)
{
	/* zeroed: a checker that does not know PAGEMAP_SCAN (valgrind 3.19)
	 * sees what the kernel writes into vec as uninitialised */
	struct ct_page_region vec[VEC] = { 0 };
	size_t n0 = *n;

	while (start < end) {
		struct ct_pm_scan_arg a = {
			.size = sizeof(a), .start = start, .end = end, .vec = (uintptr_t)vec, .vec_len = VEC,
			.category_mask = CT_PAGE_IS_PRESENT, .return_mask = CT_PAGE_IS_PRESENT | CT_PAGE_IS_HUGE,
		};
		int got = ioctl(fd, CT_PAGEMAP_SCAN, &a);
		if (got < 0) {
			int e = errno;
			*n = n0;
			return e == ENOTTY || e == EINVAL ? -EOPNOTSUPP : -e;
		}
		for (int i = 0; i < got; i++)
			if (append(out, n, cap, &vec[i])) {
				*n = n0;
				return -ENOMEM;
			}
		if (a.walk_end <= start)
			break;	/* (never: the kernel walked nothing) */
		start = a.walk_end;
	}
	return 0;
}
