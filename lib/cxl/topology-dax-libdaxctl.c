// SPDX-License-Identifier: LGPL-2.1-or-later
/* topology-dax-libdaxctl.c - only the CXL dax devices, through libdaxctl: what
 * onlining and offlining need, without walking every CXL port and decoder */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <daxctl/libdaxctl.h>
#include "core/context.h"
#include "mm/memblock.h"
#include "cxl/topology.h"

/* "/sys/devices/platform/ACPI0017:00/root0/decoder0.0/region0/dax_region0" -> "region0" */
static bool cxl_region_of(const char *path, char *out, size_t len)
{
	const char *p = strstr(path, "/region"), *end;

	if (!p || !strstr(path, "/decoder"))
		return false;	/* not CXL (hmem, pmem) */
	p++;
	end = strchr(p, '/');
	snprintf(out, len, "%.*s", (int)(end ? end - p : (long)strlen(p)), p);
	return true;
}

int ct_topology_load_dax_libdaxctl(struct ct_context *ctx, struct ct_topology *t)
{
	struct daxctl_ctx *dctx;
	struct daxctl_region *dr;
	struct daxctl_dev *dev;
	int rc;

	memset(t, 0, sizeof(*t));
	t->have_cxl_bus = ct_sysfs_exists(&ctx->sys, "/sys/bus/cxl");
	if (!ctx->live)
		return ct_topology_load(ctx, t);	/* a captured tree: the rooted reader */
	t->backend = "libdaxctl";
	if ((rc = ct_context_daxctl(ctx, &dctx)))
		return rc;
	if ((rc = ct_block_size_cached(ctx, &t->block_size)))
		return rc;
	daxctl_region_foreach(dctx, dr) {
		char name[CT_NAME];
		struct ct_region *r = NULL;
		const char *path = daxctl_region_get_path(dr);

		if (!path || !cxl_region_of(path, name, sizeof(name)))
			continue;
		for (size_t i = 0; i < t->nregions; i++)
			if (!strcmp(t->regions[i].name, name))
				r = &t->regions[i];
		if (!r) {
			struct ct_region *nr = realloc(t->regions, (t->nregions + 1) * sizeof(*nr));
			if (!nr)
				goto nomem;
			t->regions = nr;
			r = &t->regions[t->nregions++];
			memset(r, 0, sizeof(*r));
			ct_strlcpy(r->name, name, sizeof(r->name));
		}
		daxctl_dev_foreach(dr, dev) {
			struct ct_dax *d, *nd;
			if (!daxctl_dev_get_size(dev))
				continue;
			nd = realloc(r->dax, (r->ndax + 1) * sizeof(*nd));
			if (!nd)
				goto nomem;
			r->dax = nd;
			d = &r->dax[r->ndax++];
			memset(d, 0, sizeof(*d));
			ct_strlcpy(d->name, daxctl_dev_get_devname(dev), sizeof(d->name));
			if (daxctl_dev_get_memory(dev))	/* kmem's; else the driver link (fsdev_dax: famfs) */
				ct_strlcpy(d->mode, "system-ram", sizeof(d->mode));
			else
				ct_dax_mode_read(&ctx->sys, d->name, d->mode, sizeof(d->mode));
			d->size = daxctl_dev_get_size(dev);
			d->resource = daxctl_dev_get_resource(dev);
			d->target_node = daxctl_dev_get_target_node(dev);
			d->memory_tier = -1;
		}
	}
	return 0;
nomem:
	ct_topology_free(t);
	return ct_fail(&ctx->err, ENOMEM, "out of memory");
}
