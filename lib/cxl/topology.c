// SPDX-License-Identifier: LGPL-2.1-or-later
/* topology.c - choose the backend, then fill what both backends share:
 * memory blocks behind each dax device and the tier of its node */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "core/context.h"
#include "mm/memblock.h"
#include "mm/tiers.h"
#include "cxl/topology.h"

static int topology_load(struct ct_context *ctx, struct ct_topology *t, bool live_libcxl)
{
	const char *force = getenv("CXLTIER_BACKEND");
	int rc;

	memset(t, 0, sizeof(*t));
	if ((rc = ct_sysfs_present(&ctx->sys, "/sys/bus/cxl")) < 0)
		return rc;	/* unseen is not absent */
	t->have_cxl_bus = rc;
	if (!t->have_cxl_bus)
		return 0;
	/* libcxl reads the live /sys only; a captured tree goes through the
	 * rooted reader. CXLTIER_BACKEND=sysfs|libcxl forces one (tests
	 * compare both against the same kernel). */
	if (force && strcmp(force, "sysfs") == 0)
		rc = ct_topology_load_sysfs(ctx, t);
	else if ((force && strcmp(force, "libcxl") == 0) || (ctx->live && live_libcxl))
		rc = ct_topology_load_libcxl(ctx, t);
	else
		rc = ct_topology_load_sysfs(ctx, t);
	if (!rc)
		rc = ct_topology_finish(ctx, t);
	if (rc)
		ct_topology_free(t);
	return rc;
}

int ct_topology_load(struct ct_context *ctx, struct ct_topology *t)
{
	return topology_load(ctx, t, true);
}

int ct_topology_load_for_change(struct ct_context *ctx, struct ct_topology *t)
{
	return topology_load(ctx, t, false);
}

int ct_topology_finish(struct ct_context *ctx, struct ct_topology *t)
{
	struct ct_tiers tiers;
	int rc;

	if ((rc = ct_sysfs_present(&ctx->sys, "/sys/devices/system/memory/block_size_bytes")) < 0)
		return rc;
	if (rc) {
		rc = ct_block_size_cached(ctx, &t->block_size);
		if (rc)
			return rc;
	}
	rc = ct_tiers_load(&ctx->sys, &tiers);
	if (rc)
		return rc;
	for (size_t i = 0; i < t->nregions; i++) {
		struct ct_region *r = &t->regions[i];

		for (size_t j = 0; j < r->ndax; j++) {
			struct ct_dax *d = &r->dax[j];

			d->memory_tier = d->target_node >= 0 ? ct_tiers_of_node(&tiers, d->target_node) : -1;
			memset(&d->blocks, 0, sizeof(d->blocks));
			if (!t->block_size || !d->size)
				continue;
			rc = ct_blocks_count(&ctx->sys, d->resource, d->size, t->block_size, &d->blocks);
			if (rc)
				break;
		}
		if (rc)
			break;
	}
	ct_tiers_free(&tiers);
	return rc;
}

void ct_topology_free(struct ct_topology *t)
{
	for (size_t i = 0; i < t->nregions; i++)
		free(t->regions[i].dax);
	free(t->regions);
	free(t->memdevs);
	t->regions = NULL;
	t->memdevs = NULL;
	t->nregions = t->nmemdevs = 0;
}

const struct ct_memdev *ct_topology_memdev(const struct ct_topology *t, const char *name)
{
	for (size_t i = 0; i < t->nmemdevs; i++)
		if (strcmp(t->memdevs[i].name, name) == 0)
			return &t->memdevs[i];
	return NULL;
}

bool ct_region_has_memdev(const struct ct_region *r, const char *memdev)
{
	for (unsigned i = 0; i < r->ntargets; i++)
		if (strcmp(r->memdevs[i], memdev) == 0)
			return true;
	return false;
}

const struct ct_region *ct_topology_region(const struct ct_topology *t, const char *name)
{
	for (size_t i = 0; i < t->nregions; i++)
		if (strcmp(t->regions[i].name, name) == 0)
			return &t->regions[i];
	return NULL;
}

bool ct_memdev_matches(const struct ct_memdev *m, const char *spec)
{
	bool named = strncmp(spec, "mem", 3) == 0;
	bool hex = !named && (strncmp(spec, "0x", 2) == 0 || strncmp(spec, "0X", 2) == 0);
	const char *num = named ? spec + 3 : hex ? spec + 2 : spec;
	unsigned long long v;
	char *end;

	if (strcmp(m->name, spec) == 0 || (m->host[0] && strcmp(m->host, spec) == 0))
		return true;
	if (*num < '0' || *num > '9')
		return false;
	v = strtoull(num, &end, hex ? 16 : 10);
	if (*end)
		return false;
	/* "memN" and "N": the id; "N" and "0x...": the serial */
	if (!hex && m->name[3] && strncmp(m->name, "mem", 3) == 0 && strtoull(m->name + 3, NULL, 10) == v)
		return true;
	return !named && m->has_serial && m->serial == v;
}
