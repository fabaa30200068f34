// SPDX-License-Identifier: LGPL-2.1-or-later
/* access.c - node and region access figures, memdev QoS classes: see access.h */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mm/access.h"

#define CXLDEV "/sys/bus/cxl/devices"
#define NODEDIR "/sys/devices/system/node"

int ct_access_read(struct ct_sysfs *s, const char *dir, struct ct_access *a)
{
	static const char *const names[] = { "read_latency", "write_latency", "read_bandwidth", "write_bandwidth" };
	uint64_t *fields[] = { &a->read_latency, &a->write_latency, &a->read_bandwidth, &a->write_bandwidth };
	char path[512];

	memset(a, 0, sizeof(*a));
	for (int i = 0; i < 4; i++) {
		int rc = ct_sysfs_read_u64(s, ct_path(path, sizeof(path), "%s/%s", dir, names[i]), 10, fields[i]);
		if (rc == -ENOENT)
			continue;
		if (rc)
			return rc;
		a->present = true;
	}
	ct_error_clear(s->err);
	return 0;
}

int ct_region_access(struct ct_sysfs *s, const char *region, int access, struct ct_access *a)
{
	char dir[256];

	return ct_access_read(s, ct_path(dir, sizeof(dir), CXLDEV "/%s/access%d", region, access), a);
}

char *ct_node_access_dir(char *buf, size_t len, int node, int access)
{
	return ct_path(buf, len, NODEDIR "/node%d/access%d/initiators", node, access);
}

int ct_node_access(struct ct_sysfs *s, int node, int access, struct ct_access *a)
{
	char dir[256];

	return ct_access_read(s, ct_node_access_dir(dir, sizeof(dir), node, access), a);
}

enum ct_figure_source ct_access_figure_source(const struct ct_access *node, const struct ct_access *region)
{
	if (node && node->present)
		return CT_FIGURES_NODE;
	if (region && region->present)
		return CT_FIGURES_REGION;
	return CT_FIGURES_NONE;
}

const char *ct_access_figure_source_name(enum ct_figure_source s)
{
	switch (s) {
	case CT_FIGURES_NODE: return "node";
	case CT_FIGURES_REGION: return "region";
	default: return NULL;
	}
}

int ct_memdev_qos_class(struct ct_sysfs *s, const char *memdev, const char *partition, int64_t *qos)
{
	char path[256];
	int rc = ct_sysfs_read_s64(s, ct_path(path, sizeof(path), CXLDEV "/%s/%s/qos_class", memdev, partition), qos);

	if (rc == -ENOENT)
		ct_error_clear(s->err);
	return rc;
}
