// SPDX-License-Identifier: LGPL-2.1-or-later
/* access.c - node and region access figures, memdev QoS classes: see access.h */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "access.h"
#include "topology.h"

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

int ct_memdev_qos_class(struct ct_sysfs *s, const char *memdev, const char *partition, int64_t *qos)
{
	char path[256];
	int rc = ct_sysfs_read_s64(s, ct_path(path, sizeof(path), CXLDEV "/%s/%s/qos_class", memdev, partition), qos);

	if (rc == -ENOENT)
		ct_error_clear(s->err);
	return rc;
}

static int add_figure(struct ct_sysfs *s, struct ct_figure **out, size_t *n, const char *object, int access,
		      int node)
{
	struct ct_figure f = { .access = access };
	struct ct_figure *nf;

	if ((node >= 0 ? ct_node_access(s, node, access, &f.acc) : ct_region_access(s, object, access, &f.acc)) ||
	    !f.acc.present) {
		ct_error_clear(s->err);
		return 0;
	}
	if (node >= 0)
		snprintf(f.object, sizeof(f.object), "node%d", node);
	else
		ct_strlcpy(f.object, object, sizeof(f.object));
	nf = realloc(*out, (*n + 1) * sizeof(**out));
	if (!nf)
		return ct_fail(s->err, ENOMEM, "out of memory");
	*out = nf;
	nf[(*n)++] = f;
	return 0;
}

int ct_memdev_figures(struct ct_sysfs *s, const struct ct_topology *t, const char *memdev,
		      struct ct_figure **out, size_t *n)
{
	int rc = 0;

	*out = NULL;
	*n = 0;
	for (size_t i = 0; t && !rc && i < t->nregions; i++) {
		const struct ct_region *r = &t->regions[i];
		if (!ct_region_has_memdev(r, memdev))
			continue;
		for (int a = 0; !rc && a < 2; a++)
			rc = add_figure(s, out, n, r->name, a, -1);
		for (size_t d = 0; !rc && d < r->ndax; d++)
			for (int a = 0; !rc && r->dax[d].target_node >= 0 && a < 2; a++)
				rc = add_figure(s, out, n, NULL, a, r->dax[d].target_node);
	}
	if (rc) {
		free(*out);
		*out = NULL;
		*n = 0;
	}
	return rc;
}

int ct_memdev_view_load(struct ct_sysfs *s, const struct ct_topology *t, const char *memdev,
			struct ct_memdev_view *v)
{
	memset(v, 0, sizeof(*v));
	v->has_ram_qos = ct_memdev_qos_class(s, memdev, "ram", &v->ram_qos) == 0;
	v->has_pmem_qos = ct_memdev_qos_class(s, memdev, "pmem", &v->pmem_qos) == 0;
	ct_error_clear(s->err);
	return ct_memdev_figures(s, t, memdev, &v->figures, &v->nfigures);
}

void ct_memdev_view_free(struct ct_memdev_view *v)
{
	free(v->figures);
	memset(v, 0, sizeof(*v));
}
