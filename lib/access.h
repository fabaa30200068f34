/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* access.h - access performance the kernel publishes for a node or region
 * (accessN/{read,write}_{latency,bandwidth}: ns and MB/s) */
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

#endif
