/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * memdev-remove.h - what taking a CXL memdev out needs beyond its regions:
 * disabling it (unbinding it from cxl_mem, as `cxl disable-memdev` does) and
 * naming who pins memory that will not go offline (the processes with pages
 * on its NUMA node, from /proc/PID/numa_maps).
 */
#ifndef CXLTIER_MEMDEV_REMOVE_H
#define CXLTIER_MEMDEV_REMOVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ct_context;

/*
 * Unbind memdev from the cxl_mem driver: its endpoint port, decoders and
 * mailbox go; the PCI device stays (the slot can then be powered off).
 * *was_disabled says it was not bound to begin with (0 returned). -ENOENT
 * for no such memdev, -EBUSY when it is still bound after the write, or
 * -errno of the write; with a message.
 */
int ct_memdev_remove_disable(struct ct_context *ctx, const char *memdev, bool *was_disabled);

struct ct_pinner {
	int pid;
	char comm[32];
	uint64_t bytes;		/* of its pages on the node */
};

/*
 * The processes with pages on NUMA node `node`, most bytes first (at most
 * max; *total says how many there were). Processes that end meanwhile or
 * cannot be read are left out. 0 or -errno (-ENOMEM) with a message.
 */
int ct_memdev_remove_pinners(struct ct_context *ctx, int node, size_t max, struct ct_pinner **out, size_t *n, size_t *total);
/* most bytes first, then by pid */
void ct_memdev_remove_pinners_sort(struct ct_pinner *p, size_t n);

#endif
