/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * topology.h - the CXL memory chain as cxltier models it:
 * memdev -> endpoint -> region -> dax device -> memory blocks -> NUMA node -> tier.
 * Loaded through libcxl/libdaxctl on a live system, or through the rooted
 * sysfs reader when a captured tree is given (--sysroot).
 */
#ifndef CXLTIER_TOPOLOGY_H
#define CXLTIER_TOPOLOGY_H

#include <stdbool.h>
#include <stdint.h>
#include "core/sysfs.h"
#include "mm/memblock.h"

#define CT_NAME 64
#define CT_MAX_TARGETS 16

struct ct_dax {
	char name[CT_NAME];
	char mode[16];		/* ct_dax_mode_of_driver(): "system-ram", "devdax", "famfs", "unbound", or the driver */
	uint64_t size, resource;
	int target_node;	/* -1 when unknown */
	int memory_tier;	/* -1 when the node has no tier (yet) */
	struct ct_blocks blocks;
};

struct ct_region {
	char name[CT_NAME];
	char mode[16];		/* "ram", "pmem", ... as sysfs says */
	char root_decoder[CT_NAME];
	uint64_t size, resource;	/* the kernel's: the whole HPA range, an extended linear cache's alias included */
	uint64_t cache_size;		/* extended_linear_cache_size (6.19+): the DRAM cache in front, 0 none;
					 * the CXL capacity is size - cache_size, from resource + cache_size */
	unsigned ways, granularity;
	bool committed, enabled;
	unsigned ntargets;	/* positions read: the last set one + 1 (one between may be empty: "") */
	char targets[CT_MAX_TARGETS][CT_NAME];	/* endpoint decoders, by position */
	char memdevs[CT_MAX_TARGETS][CT_NAME];	/* their memdevs */
	struct ct_dpa {				/* what each target decodes of its memdev */
		uint64_t resource, size;	/* device physical address range; size 0: unknown */
	} dpa[CT_MAX_TARGETS];
	struct ct_dax *dax;
	size_t ndax;
};

struct ct_memdev {
	char name[CT_NAME];
	char host[CT_NAME];	/* PCI device */
	char endpoint[CT_NAME];	/* "" when the endpoint port is absent */
	char firmware[CT_NAME];
	uint64_t serial, ram_size, pmem_size;
	bool has_serial, enabled;
	int numa_node;		/* the PCI device's CPU affinity; -1 none */
	int ram_qos_class;	/* ram/qos_class (6.8+): the QTG id the platform gave; -1 none */
	char fw_update[16];	/* firmware upload state (firmware/memN/status), "" unknown */
};

struct ct_topology {
	const char *backend;	/* "libcxl" or "sysfs" */
	bool have_cxl_bus;	/* /sys/bus/cxl exists */
	uint64_t block_size;	/* memory block size, 0 when unknown */
	struct ct_memdev *memdevs;
	size_t nmemdevs;
	struct ct_region *regions;
	size_t nregions;
};

/* a memdev's capacity partitioning (the device's Identify / Get Partition Info) */
struct ct_partition {
	uint64_t total, volatile_only, persistent_only, alignment;
	bool have_active;		/* the device can be repartitioned: active and next */
	uint64_t active_volatile, active_persistent, next_volatile, next_persistent;
};

struct ct_context;
/* live systems only (-EOPNOTSUPP on a captured tree); root for the mailbox */
int ct_memdev_partition(struct ct_context *ctx, const char *memdev, struct ct_partition *p);
int ct_topology_load(struct ct_context *ctx, struct ct_topology *t);
/* the same chain for a run that changes memory (online, offline, the
 * policy's regions): through the rooted reader on the live system too
 * (CXLTIER_BACKEND still forces one). It reads what a change needs in a
 * tenth of libcxl's time (one memdev under emulation: 1 ms against 11, with
 * libcxl and libdaxctl not loaded at all), and the hot-add chain reads it
 * twice (test/bench/hotplug.sh); the VM tier holds both backends equal on
 * the same kernel (CXLTIER_BACKEND) */
int ct_topology_load_for_change(struct ct_context *ctx, struct ct_topology *t);
void ct_topology_free(struct ct_topology *t);

/* the backends, and what they share */
int ct_topology_load_sysfs(struct ct_context *ctx, struct ct_topology *t);
int ct_topology_load_libcxl(struct ct_context *ctx, struct ct_topology *t);
/* only the CXL regions' dax devices (libdaxctl; no memdevs, no block counts) */
int ct_topology_load_dax_libdaxctl(struct ct_context *ctx, struct ct_topology *t);
int ct_topology_finish(struct ct_context *ctx, struct ct_topology *t);
const struct ct_memdev *ct_topology_memdev(const struct ct_topology *t, const char *name);
bool ct_region_has_memdev(const struct ct_region *r, const char *memdev);
/* does spec name this memdev: "memN", "N" (its id), a serial ("0x..." or
 * decimal) or its PCI host ("0000:0d:00.0"), as ndctl's memdev filters */
bool ct_memdev_matches(const struct ct_memdev *m, const char *spec);
/* a dax device's mode from the driver it is bound to (NULL or "": none):
 * kmem "system-ram", device_dax "devdax", fsdev_dax "famfs" (a famfs file
 * system's memory: never converted, never onlined), none "unbound", any
 * other driver its own name */
const char *ct_dax_mode_of_driver(const char *driver);
/* the same, read from /sys/bus/dax/devices/DAX/driver into mode[len]; a
 * link that cannot be read (but is there) gives "unknown" */
void ct_dax_mode_read(struct ct_sysfs *s, const char *dax, char *mode, size_t len);
/* the region of that name, or NULL */
const struct ct_region *ct_topology_region(const struct ct_topology *t, const char *name);

#endif
