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
#include "sysfs.h"

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

/* memN/ram/qos_class or memN/pmem/qos_class (partition "ram" or "pmem"):
 * 0, or -ENOENT when the kernel has none (before 6.8, or no QTG) */
int ct_memdev_qos_class(struct ct_sysfs *s, const char *memdev, const char *partition, int64_t *qos);

/* one published set of figures: regionN or nodeN, access class */
struct ct_figure {
	char object[64];
	int access;
	struct ct_access acc;
};

struct ct_topology;
/*
 * The kernel's figures for a memdev's memory: for every region holding it,
 * the region's access0 and access1, then those of the node each of its dax
 * devices put the memory in. Only what the kernel published is listed.
 * *out is malloc'd (NULL when none); 0 or -ENOMEM.
 */
int ct_memdev_figures(struct ct_sysfs *s, const struct ct_topology *t, const char *memdev,
		      struct ct_figure **out, size_t *n);

/* what the kernel derived for a memdev: QoS classes and figures */
struct ct_memdev_view {
	bool has_ram_qos, has_pmem_qos;
	int64_t ram_qos, pmem_qos;
	struct ct_figure *figures;
	size_t nfigures;
};

/* never fails for what is absent; 0 or -ENOMEM */
int ct_memdev_view_load(struct ct_sysfs *s, const struct ct_topology *t, const char *memdev,
			struct ct_memdev_view *v);
void ct_memdev_view_free(struct ct_memdev_view *v);

#endif
