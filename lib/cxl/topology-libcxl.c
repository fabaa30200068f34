// SPDX-License-Identifier: LGPL-2.1-or-later
/* topology-libcxl.c - the CXL chain through libcxl and libdaxctl on a live
 * system. What bookworm's libcxl 76.1 lacks (region mode) comes from sysfs. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cxl/libcxl.h>
#include <daxctl/libdaxctl.h>
#include "core/array.h"
#include "core/context.h"
#include "cxl/region-members.h"
#include "cxl/topology.h"
#include "mm/access.h"

static void fill_memdev(struct cxl_memdev *m, struct ct_memdev *out)
{
	struct cxl_endpoint *ep = cxl_memdev_get_endpoint(m);
	const char *s;

	ct_strlcpy(out->name, cxl_memdev_get_devname(m), sizeof(out->name));
	out->serial = cxl_memdev_get_serial(m);
	out->has_serial = out->serial != ULLONG_MAX;
	out->numa_node = cxl_memdev_get_numa_node(m);
	out->ram_size = cxl_memdev_get_ram_size(m);
	out->pmem_size = cxl_memdev_get_pmem_size(m);
	out->enabled = cxl_memdev_is_enabled(m);
	if ((s = cxl_memdev_get_host(m)))
		ct_strlcpy(out->host, s, sizeof(out->host));
	if ((s = cxl_memdev_get_firmware_verison(m)))
		ct_strlcpy(out->firmware, s, sizeof(out->firmware));
	if (ep)
		ct_strlcpy(out->endpoint, cxl_endpoint_get_devname(ep), sizeof(out->endpoint));
}

/* kmem's, as libdaxctl sees it; else the driver link (libdaxctl calls
 * every driver but kmem devdax: a famfs device's fsdev_dax too) */
static void dax_mode(struct ct_context *ctx, struct daxctl_dev *dev, char *mode, size_t len)
{
	if (daxctl_dev_get_memory(dev))
		ct_strlcpy(mode, "system-ram", len);
	else
		ct_dax_mode_read(&ctx->sys, daxctl_dev_get_devname(dev), mode, len);
}

/* libdaxctl regions of CXL regions live below .../regionN/dax_regionM */
static int fill_dax(struct ct_context *ctx, struct ct_region *r)
{
	struct daxctl_ctx *dctx;
	struct daxctl_region *dr;
	struct daxctl_dev *dev;
	char needle[CT_NAME + 2];
	int rc = ct_context_daxctl(ctx, &dctx);

	if (rc)
		return rc;
	snprintf(needle, sizeof(needle), "/%s/", r->name);
	daxctl_region_foreach(dctx, dr) {
		const char *path = daxctl_region_get_path(dr);
		if (!path || !strstr(path, needle))
			continue;
		daxctl_dev_foreach(dr, dev) {
			struct ct_dax *d;
			if (!daxctl_dev_get_size(dev))
				continue;	/* the empty seed device */
			if ((rc = ct_array_grow(&ctx->err, (void **)&r->dax, r->ndax, sizeof(*r->dax))))
				return rc;
			d = &r->dax[r->ndax++];
			ct_strlcpy(d->name, daxctl_dev_get_devname(dev), sizeof(d->name));
			dax_mode(ctx, dev, d->mode, sizeof(d->mode));
			d->size = daxctl_dev_get_size(dev);
			d->resource = daxctl_dev_get_resource(dev);
			d->target_node = daxctl_dev_get_target_node(dev);
		}
	}
	return 0;
}

static int fill_region(struct ct_context *ctx, struct cxl_decoder *root, struct cxl_region *reg,
		       struct ct_region *r)
{
	char path[256];

	ct_strlcpy(r->name, cxl_region_get_devname(reg), sizeof(r->name));
	ct_strlcpy(r->root_decoder, cxl_decoder_get_devname(root), sizeof(r->root_decoder));
	r->size = cxl_region_get_size(reg);
	r->resource = cxl_region_get_resource(reg);
	if (r->resource == ULLONG_MAX)
		r->resource = 0;
	r->ways = cxl_region_get_interleave_ways(reg);
	r->granularity = cxl_region_get_interleave_granularity(reg);
	r->committed = cxl_region_decode_is_committed(reg) > 0;
	r->enabled = cxl_region_is_enabled(reg) > 0;
	/* libcxl 81 has no call for the extended linear cache (6.19+) */
	if (ct_sysfs_read_u64(&ctx->sys, ct_path(path, sizeof(path), "/sys/bus/cxl/devices/%s/extended_linear_cache_size",
						 r->name), 0, &r->cache_size) || r->cache_size >= r->size)
		r->cache_size = 0;
	/* cxl_region_get_mode() arrived in libcxl 77 */
	ct_sysfs_read_str(&ctx->sys, ct_path(path, sizeof(path), "/sys/bus/cxl/devices/%s/mode", r->name),
			  r->mode, sizeof(r->mode));
	ct_error_clear(&ctx->err);
	/* the interleave set from the region's targetN attributes: libcxl's
	 * cxl_region_get_target_decoder() enumerates every decoder of every
	 * endpoint port, ten attributes each, to hand back one */
	ct_region_members(&ctx->sys, r);
	for (unsigned i = 0; i < r->ntargets; i++) {
		uint64_t v;
		if (!r->targets[i][0])
			continue;
		if (ct_sysfs_read_u64(&ctx->sys, ct_path(path, sizeof(path), "/sys/bus/cxl/devices/%s/dpa_size",
							 r->targets[i]), 0, &v) == 0)
			r->dpa[i].size = v;
		if (ct_sysfs_read_u64(&ctx->sys, ct_path(path, sizeof(path), "/sys/bus/cxl/devices/%s/dpa_resource",
							 r->targets[i]), 0, &v) == 0)
			r->dpa[i].resource = v;
	}
	ct_error_clear(&ctx->err);
	return fill_dax(ctx, r);
}

static int cmp_name(const void *a, const void *b)
{
	const char *x = a, *y = b;	/* names are the first member */
	size_t lx = strlen(x), ly = strlen(y);

	/* "region10" after "region9": shorter first, then bytes */
	return lx != ly ? (lx < ly ? -1 : 1) : strcmp(x, y);
}

int ct_topology_load_libcxl(struct ct_context *ctx, struct ct_topology *t)
{
	struct cxl_ctx *cctx;
	struct cxl_memdev *m;
	struct cxl_bus *bus;
	int rc = ct_context_cxl(ctx, &cctx);

	t->backend = "libcxl";
	if (rc)
		return rc;
	cxl_memdev_foreach(cctx, m) {
		struct ct_memdev *md;
		char path[256];
		int64_t qos;
		if ((rc = ct_array_grow(&ctx->err, (void **)&t->memdevs, t->nmemdevs, sizeof(*t->memdevs))))
			return rc;
		md = &t->memdevs[t->nmemdevs++];
		fill_memdev(m, md);
		/* (libcxl 76 has no accessor) */
		md->ram_qos_class = ct_memdev_qos_class(&ctx->sys, md->name, "ram", &qos) ? -1 : (int)qos;
		/* firmware upload state: libcxl 76 has no accessor */
		ct_sysfs_read_str(&ctx->sys, ct_path(path, sizeof(path), "/sys/bus/cxl/devices/%s/firmware/%s/status",
						     md->name, md->name), md->fw_update, sizeof(md->fw_update));
		ct_error_clear(&ctx->err);
	}
	cxl_bus_foreach(cctx, bus) {
		struct cxl_port *port = cxl_bus_get_port(bus);
		struct cxl_decoder *dec;
		struct cxl_region *reg;

		cxl_decoder_foreach(port, dec) {
			cxl_region_foreach(dec, reg) {
				if ((rc = ct_array_grow(&ctx->err, (void **)&t->regions, t->nregions, sizeof(*t->regions))))
					return rc;
				rc = fill_region(ctx, dec, reg, &t->regions[t->nregions++]);
				if (rc)
					return rc;
			}
		}
	}
	if (t->nmemdevs)
		qsort(t->memdevs, t->nmemdevs, sizeof(*t->memdevs), cmp_name);
	if (t->nregions)
		qsort(t->regions, t->nregions, sizeof(*t->regions), cmp_name);
	return 0;
}
