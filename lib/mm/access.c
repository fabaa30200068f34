// SPDX-License-Identifier: LGPL-2.1-or-later
/* access.c - node and region access figures, memdev QoS classes: see access.h */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mm/access.h"
#include "core/context.h"
#include "cxl/topology.h"

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

/* what the figures are judged by */
struct judge {
	uint64_t cdat_read_ns;
};

static int add_figure(struct ct_context *ctx, struct ct_memdev_view *v, const struct ct_figure *f,
		      const struct judge *j)
{
	struct ct_figure *nf = realloc(v->figures, (v->nfigures + 1) * sizeof(*nf));

	if (!nf)
		return ct_fail(&ctx->err, ENOMEM, "out of memory");
	v->figures = nf;
	nf += v->nfigures++;
	*nf = *f;
	ct_kernel_check_latency(f->acc.read_latency, j->cdat_read_ns, 0, &nf->check);
	return 0;
}

/* a region's figures, then those speaking for each node its memory is in */
static int add_region(struct ct_context *ctx, const struct ct_region *r, const struct judge *j,
		      struct ct_memdev_view *v)
{
	struct ct_access racc[2];
	int rc = 0;

	for (int a = 0; a < 2; a++) {
		struct ct_figure f = { .access = a, .source = CT_FIGURES_REGION };
		if (ct_region_access(&ctx->sys, r->name, a, &racc[a]))
			memset(&racc[a], 0, sizeof(racc[a]));
		f.acc = racc[a];
		ct_strlcpy(f.object, r->name, sizeof(f.object));
		if (f.acc.present && (rc = add_figure(ctx, v, &f, j)))
			return rc;
	}
	for (size_t d = 0; d < r->ndax; d++) {
		int node = r->dax[d].target_node;
		for (int a = 0; node >= 0 && a < 2; a++) {
			struct ct_figure f = { .access = a };
			if (ct_node_access(&ctx->sys, node, a, &f.acc))
				memset(&f.acc, 0, sizeof(f.acc));
			f.source = ct_access_figure_source(&f.acc, &racc[a]);
			if (f.source == CT_FIGURES_REGION) {
				f.acc = racc[a];
				ct_strlcpy(f.region, r->name, sizeof(f.region));
			}
			snprintf(f.object, sizeof(f.object), "node%d", node);
			if (f.source != CT_FIGURES_NONE && (rc = add_figure(ctx, v, &f, j)))
				return rc;
		}
	}
	ct_error_clear(&ctx->err);
	return 0;
}

int ct_memdev_view_load(struct ct_context *ctx, const struct ct_topology *t, const char *memdev,
			uint64_t cdat_read_ns, struct ct_memdev_view *v)
{
	struct judge j = { .cdat_read_ns = cdat_read_ns };
	int rc = 0;

	memset(v, 0, sizeof(*v));
	v->has_ram_qos = ct_memdev_qos_class(&ctx->sys, memdev, "ram", &v->ram_qos) == 0;
	v->has_pmem_qos = ct_memdev_qos_class(&ctx->sys, memdev, "pmem", &v->pmem_qos) == 0;
	ct_error_clear(&ctx->err);
	for (size_t i = 0; t && !rc && i < t->nregions; i++)
		if (ct_region_has_memdev(&t->regions[i], memdev))
			rc = add_region(ctx, &t->regions[i], &j, v);
	return rc;
}

void ct_memdev_view_free(struct ct_memdev_view *v)
{
	free(v->figures);
	memset(v, 0, sizeof(*v));
}
