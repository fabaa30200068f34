// SPDX-License-Identifier: LGPL-2.1-or-later
/* memdev-view.c - a memdev's QoS classes and the figures the kernel
 * published for its regions and their nodes: see memdev-view.h */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/context.h"
#include "core/kernel.h"
#include "mm/access.h"
#include "cxl/topology.h"
#include "cxl/memdev-view.h"

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
