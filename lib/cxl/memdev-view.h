/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * memdev-view.h - what the kernel derived for one CXL memdev: the QoS
 * classes of its partitions and the access figures published for the
 * regions holding it and the nodes their memory went to, each checked
 * against the device's CDAT latency.
 */
#ifndef CXLTIER_MEMDEV_VIEW_H
#define CXLTIER_MEMDEV_VIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "core/kernel.h"
#include "mm/access.h"

struct ct_context;
struct ct_topology;

/* one set of figures the kernel published for a memdev's memory */
struct ct_figure {
	char object[64];		/* regionN or nodeN */
	int access;
	struct ct_access acc;
	/* who published them: the object itself, or (for a node that has
	 * none: ct_access_figure_source) the region in `region` */
	enum ct_figure_source source;
	char region[64];
	struct ct_latency_check check;	/* against the device's CDAT latency */
};

/* what the kernel derived for a memdev: QoS classes and figures */
struct ct_memdev_view {
	bool has_ram_qos, has_pmem_qos;
	int64_t ram_qos, pmem_qos;
	struct ct_figure *figures;
	size_t nfigures;
};

/*
 * For every region holding the memdev: the region's access0 and access1,
 * then for the node each of its dax devices put the memory in, the node's
 * figures, or the region's standing in for them when the node has none.
 * Only what the kernel published is listed; each is checked against
 * cdat_read_ns (the device's CDAT read latency, 0 unknown). Never fails for
 * what is absent; 0 or -ENOMEM.
 */
int ct_memdev_view_load(struct ct_context *ctx, const struct ct_topology *t, const char *memdev,
			uint64_t cdat_read_ns, struct ct_memdev_view *v);
void ct_memdev_view_free(struct ct_memdev_view *v);

#endif
