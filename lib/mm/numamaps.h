/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* private to lib/mm/ (unit tests in test/ may include it): other folders
 * and the CLI go through usage.h and migrate.h */
/* numamaps.h - /proc/PID/numa_maps: where a process's pages are */
#ifndef CXLTIER_NUMAMAPS_H
#define CXLTIER_NUMAMAPS_H

#include <stdbool.h>
#include <stdint.h>
#include "core/nodeset.h"

struct ct_numa_vma {
	uint64_t start;
	char policy[64];		/* "default", "bind:1", "prefer (many):0-1", "bind=static:0-1" */
	char kind[16];			/* "file", "heap", "stack", "anon" */
	bool huge;
	uint64_t page_kb;		/* kernelpagesize_kB, 0 when not printed */
	uint64_t pages[CT_MAX_NODES / 16];	/* pages per node (nodes < 64 kept) */
	uint64_t anon;
};

/* parse one line; 0 or -EINVAL */
int ct_numa_maps_parse_line(const char *line, struct ct_numa_vma *v);

/* every VMA of a numa_maps text, in its (address) order; lines that do not
 * parse are left out. *v is malloc'd. 0 or -ENOMEM. */
int ct_numa_maps_parse_all(const char *text, struct ct_numa_vma **v, size_t *n);

/* fn on each VMA of a numa_maps text that parses, in order */
void ct_numa_maps_foreach(const char *text, void (*fn)(const struct ct_numa_vma *v, void *arg), void *arg);
/* bytes per node over all VMAs of a numa_maps text; max nodes 64 */
void ct_numa_maps_bytes(const char *text, uint64_t bytes[64]);

#endif
