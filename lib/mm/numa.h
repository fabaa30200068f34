/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* numa.h - NUMA nodes as sysfs and procfs show them: CPUs, memory, zones,
 * SLIT distances, HMAT/CXL access figures, and the tiering settings */
#ifndef CXLTIER_NUMA_H
#define CXLTIER_NUMA_H

#include <stdbool.h>
#include <stdint.h>
#include "mm/access.h"
#include "core/nodeset.h"
#include "core/sysfs.h"

struct ct_node {
	int id;
	bool has_cpu, has_memory;
	char cpulist[256];
	uint64_t mem_total, mem_free;		/* bytes; 0 when unknown */
	bool has_meminfo;
	/* present bytes per zone, from /proc/zoneinfo (absent: has_zones false) */
	bool has_zones;
	uint64_t zone_dma, zone_dma32, zone_normal, zone_movable, zone_device;
	struct ct_access access[2];		/* access0: any initiator, access1: CPUs */
	struct ct_nodeset initiators[2];	/* the initiator nodes of those figures */
	int *distance;				/* to every node in ct_numa.nodes order */
};

struct ct_numa {
	struct ct_node *nodes;			/* the online nodes, by id */
	size_t count;
};

struct ct_tiering_settings {
	int demotion_enabled;			/* -1 unknown (file absent) */
	int numa_balancing;			/* -1 unknown */
	int64_t promote_rate_limit_mbps;	/* -1 unknown */
};

int ct_numa_load(struct ct_sysfs *s, struct ct_numa *n);
void ct_numa_free(struct ct_numa *n);
const struct ct_node *ct_numa_node(const struct ct_numa *n, int id);
/* SLIT distance from one node to another; -1 unknown */
int ct_numa_distance(const struct ct_numa *n, int from, int to);

/* does nodeN exist (online or not)? */
bool ct_node_exists(struct ct_sysfs *s, int node);

/* has nodeN memory online (in node/has_memory)? A memoryless node, or one
 * whose memory blocks are all offline, cannot take pages. 1 when the kernel
 * does not say. */
int ct_node_has_memory(struct ct_sysfs *s, int node);

/* MemTotal and MemFree of nodeN/meminfo, in bytes */
int ct_node_meminfo(struct ct_sysfs *s, int node, uint64_t *total, uint64_t *free_bytes);

/* /proc/zoneinfo text: adds present pages x page_size per node and zone */
int ct_zoneinfo_parse(const char *text, struct ct_numa *n, uint64_t page_size);

int ct_tiering_settings_read(struct ct_sysfs *s, struct ct_tiering_settings *t);
const char *ct_numa_balancing_name(int mode);	/* "disabled", "normal", "memory_tiering", "normal+memory_tiering" */

#endif
