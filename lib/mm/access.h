/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * access.h - the performance the kernel publishes for CXL memory: a node's
 * or region's accessN figures ({read,write}_{latency,bandwidth}: ns and
 * MB/s) and a memdev partition's QoS class (the QTG id the platform gave).
 */
#ifndef CXLTIER_ACCESS_H
#define CXLTIER_ACCESS_H

#include <stdbool.h>
#include <stdint.h>
#include "core/sysfs.h"

struct ct_access {
	bool present;			/* the directory has figures */
	uint64_t read_latency, write_latency;		/* ns, 0 when absent */
	uint64_t read_bandwidth, write_bandwidth;	/* MB/s, 0 when absent */
};

/* dir: ".../access0" (region) or ".../access0/initiators" (node). A missing
 * directory or empty one is not an error: present stays false. */
int ct_access_read(struct ct_sysfs *s, const char *dir, struct ct_access *a);

/* access class 0 (closest initiator) or 1 (closest CPU) of a region (6.9+,
 * filled once its memory is online) or of a node (HMAT, or the CXL driver) */
int ct_region_access(struct ct_sysfs *s, const char *region, int access, struct ct_access *a);
int ct_node_access(struct ct_sysfs *s, int node, int access, struct ct_access *a);
/* the directory of a node's figures, whose nodeN links name the initiators */
char *ct_node_access_dir(char *buf, size_t len, int node, int access);

/*
 * Which figures speak for a NUMA node holding CXL memory: the node's own
 * accessN when the kernel published them (firmware HMAT, or 6.9 to 6.x where
 * the CXL driver pushes its region's coordinates into the node), else those
 * of the region whose memory is there (7.x keeps the coordinates on
 * regionN/accessN and publishes none for a node the firmware described only
 * as a generic port). region may be NULL.
 */
enum ct_figure_source {
	CT_FIGURES_NONE,
	CT_FIGURES_NODE,
	CT_FIGURES_REGION,
};
enum ct_figure_source ct_access_figure_source(const struct ct_access *node, const struct ct_access *region);
const char *ct_access_figure_source_name(enum ct_figure_source s);	/* "node", "region"; NULL for none */

/* memN/ram/qos_class or memN/pmem/qos_class (partition "ram" or "pmem"):
 * 0, or -ENOENT when the kernel has none (before 6.8, or no QTG) */
int ct_memdev_qos_class(struct ct_sysfs *s, const char *memdev, const char *partition, int64_t *qos);

#endif
