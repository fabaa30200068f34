/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * usage.h - where a process's or a cgroup's memory is, per NUMA node: for a
 * process from /proc/PID/numa_maps (by mapping: anonymous, file-backed,
 * hugetlb), for a cgroup v2 from memory.numa_stat (anon, file, kernel).
 * The one reader of a process's numa_maps (migrate.c's too; the parsers
 * are numamaps.h's).
 */
#ifndef CXLTIER_USAGE_H
#define CXLTIER_USAGE_H

#include <stdbool.h>
#include <stdint.h>
#include "core/sysfs.h"

#define CT_USAGE_MAX_NODES 64

struct ct_usage_node {
	uint64_t anon;			/* private anonymous, heap, stack (bytes) */
	uint64_t file;			/* file-backed and shared memory */
	uint64_t huge;			/* hugetlb pages (processes) */
	uint64_t kernel;		/* kernel stacks, page tables, slab (cgroups) */
};

struct ct_usage {
	struct ct_usage_node node[CT_USAGE_MAX_NODES];
};

uint64_t ct_usage_node_bytes(const struct ct_usage_node *n);
uint64_t ct_usage_bytes(const struct ct_usage *u);

/* pure: a numa_maps text; a memory.numa_stat text (0 or -EINVAL) */
void ct_usage_from_numa_maps(const char *text, struct ct_usage *u);
int ct_usage_from_numa_stat(const char *text, struct ct_usage *u);

/* read them: 0, -ESRCH (no such process), -EPERM, -ENOENT (no such cgroup
 * or no memory controller in it), with a message */
int ct_usage_process(struct ct_sysfs *s, int pid, struct ct_usage *u);
/* a process's numa_maps text (malloc'd: the caller frees it): 0, -ESRCH (no
 * such process), -EPERM (another user's: the message is "no permission to
 * read /proc/PID/numa_maps: " and NEEDS_ROOT, what root is needed for),
 * another -errno, with a message */
int ct_usage_numa_maps(struct ct_sysfs *s, int pid, const char *needs_root, char **text);
/* bytes per node of a process, every kind together (ct_numa_maps_bytes of
 * its numa_maps); errors as ct_usage_numa_maps's */
int ct_usage_process_nodes(struct ct_sysfs *s, int pid, const char *needs_root, uint64_t bytes[CT_USAGE_MAX_NODES]);
int ct_usage_cgroup(struct ct_sysfs *s, const char *cgroup, struct ct_usage *u);

#endif
