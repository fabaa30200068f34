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

/* the kernel's tiering switches, each one file */
enum ct_tiering_switch {
	CT_TIERING_DEMOTION,		/* demotion_enabled: 0 off, 1 on */
	CT_TIERING_BALANCING,		/* numa_balancing: the NUMA_BALANCING_* bits, 0-3 */
	CT_TIERING_PROMOTE_RATE,	/* numa_balancing_promote_rate_limit_MBps: 0-INT_MAX */
	CT_TIERING_NSWITCHES,
};
#define CT_NUMA_BALANCING_NORMAL 1		/* the kernel's NUMA_BALANCING_NORMAL */
#define CT_NUMA_BALANCING_MEMORY_TIERING 2	/* NUMA_BALANCING_MEMORY_TIERING */
#define CT_PROMOTE_RATE_MAX 2147483647		/* the sysctl is an int, 0 and up */

/* the file of a switch ("/proc/sys/kernel/numa_balancing") and its short
 * name ("demotion", "balancing", "promote-rate") */
const char *ct_tiering_path(enum ct_tiering_switch w);
const char *ct_tiering_name(enum ct_tiering_switch w);
/* a switch's value in the settings read (-1 unknown) */
int64_t ct_tiering_value(const struct ct_tiering_settings *t, enum ct_tiering_switch w);
/* the one writer of the switches: value as the kernel takes it (demotion
 * written 1/0, which every kernel's kstrtobool reads); out of range:
 * -EINVAL, nothing written. 0, or -errno with a message naming the file,
 * permission said as permission (root, CAP_SYS_ADMIN for the sysctls) */
int ct_tiering_write(struct ct_sysfs *s, enum ct_tiering_switch w, int64_t value);

#endif
