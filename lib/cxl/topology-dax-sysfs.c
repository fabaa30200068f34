// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * topology-dax-sysfs.c - only the CXL regions' dax devices, read through the
 * rooted sysfs reader: the view `online` and `offline` need, in a handful
 * of reads per device (libdaxctl's walk reads every attribute of every dax
 * region and device; libcxl's, every port and decoder). Each region also
 * gets its interleave set (region-members.c). No memdevs, no block counts.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/context.h"
#include "mm/memblock.h"
#include "cxl/region-members.h"
#include "cxl/topology-dax.h"

#define DAXDEV "/sys/bus/dax/devices"

/* ".../decoder0.0/region0/dax_region0/dax0.0" -> "region0"; false when not CXL (hmem, pmem) */
static bool cxl_region_of(const char *path, char *out, size_t len)
{
	const char *p = strstr(path, "/region"), *end;

	if (!p || !strstr(path, "/decoder"))
		return false;
	p++;
	end = strchr(p, '/');
	snprintf(out, len, "%.*s", (int)(end ? end - p : (long)strlen(p)), p);
	return true;
}

static struct ct_region *region_named(struct ct_context *ctx, struct ct_topology *t, const char *name)
{
	struct ct_region *r;

	for (size_t i = 0; i < t->nregions; i++)
		if (!strcmp(t->regions[i].name, name))
			return &t->regions[i];
	r = realloc(t->regions, (t->nregions + 1) * sizeof(*r));
	if (!r)
		return NULL;
	t->regions = r;
	r = &r[t->nregions++];
	memset(r, 0, sizeof(*r));
	ct_strlcpy(r->name, name, sizeof(r->name));
	if (ct_region_members(&ctx->sys, r))
		ct_error_clear(&ctx->err);	/* its devices stay unknown */
	return r;
}

/* one dax device: 0 (added or skipped) or -errno */
static int load_one(struct ct_context *ctx, struct ct_topology *t, const char *name)
{
	struct ct_sysfs *s = &ctx->sys;
	char path[128], real[1024], region[CT_NAME];
	struct ct_region *r;
	struct ct_dax d, *nd;
	int64_t node;

	memset(&d, 0, sizeof(d));
	if (ct_sysfs_realpath(s, ct_path(path, sizeof(path), DAXDEV "/%s", name), real, sizeof(real)) ||
	    !cxl_region_of(real, region, sizeof(region)))
		return 0;
	if (ct_sysfs_read_u64(s, ct_path(path, sizeof(path), DAXDEV "/%s/size", name), 0, &d.size) || !d.size ||
	    ct_sysfs_read_u64(s, ct_path(path, sizeof(path), DAXDEV "/%s/resource", name), 0, &d.resource))
		return 0;	/* a seed device without capacity */
	ct_strlcpy(d.name, name, sizeof(d.name));
	ct_dax_mode_read(s, name, d.mode, sizeof(d.mode));
	d.target_node = ct_sysfs_read_s64(s, ct_path(path, sizeof(path), DAXDEV "/%s/target_node", name), &node) ? -1 :
			(int)node;
	d.memory_tier = -1;
	if (!(r = region_named(ctx, t, region)))
		return ct_fail(&ctx->err, ENOMEM, "out of memory");
	nd = realloc(r->dax, (r->ndax + 1) * sizeof(*nd));
	if (!nd)
		return ct_fail(&ctx->err, ENOMEM, "out of memory");
	r->dax = nd;
	r->dax[r->ndax++] = d;
	return 0;
}

int ct_topology_load_dax_sysfs(struct ct_context *ctx, struct ct_topology *t)
{
	char **names;
	size_t n;
	int rc;

	memset(t, 0, sizeof(*t));
	t->backend = "sysfs-dax";
	t->have_cxl_bus = ct_sysfs_exists(&ctx->sys, "/sys/bus/cxl");
	if ((rc = ct_block_size_cached(ctx, &t->block_size)))
		return rc;
	if (ct_sysfs_list(&ctx->sys, DAXDEV, "dax", &names, &n)) {
		ct_error_clear(&ctx->err);
		return 0;	/* no dax bus: no dax devices */
	}
	for (size_t i = 0; i < n && !rc; i++)
		rc = load_one(ctx, t, names[i]);
	ct_strv_free(names, n);
	ct_error_clear(&ctx->err);
	if (rc)
		ct_topology_free(t);
	return rc;
}
