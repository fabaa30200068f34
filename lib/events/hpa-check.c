// SPDX-License-Identifier: LGPL-2.1-or-later
/* hpa-check.c - a record's HPA against the live mapping of its card's DPA:
 * see hpa-check.h */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "core/sysfs.h"
#include "cxl/topology.h"
#include "events/hpa-check.h"

/* the root decoder interleaves host bridges: its arithmetic (modulo or
 * XOR) is the platform's, which sysfs does not show */
static bool root_interleaves(struct ct_context *ctx, const struct ct_region *r)
{
	char path[160];
	uint64_t ways = 1;

	snprintf(path, sizeof(path), "/sys/bus/cxl/devices/%s/interleave_ways", r->root_decoder);
	return r->root_decoder[0] && !ct_sysfs_read_u64(&ctx->sys, path, 0, &ways) && ways > 1;
}

/* position p of region r holds dpa: *hpa its host address there */
static bool hpa_at(const struct ct_region *r, unsigned p, uint64_t dpa, uint64_t *hpa)
{
	uint64_t off = dpa - r->dpa[p].resource, base = r->resource + r->cache_size, g = r->granularity;

	if (!r->dpa[p].size || dpa < r->dpa[p].resource || off >= r->dpa[p].size)
		return false;
	if (r->ways <= 1)
		*hpa = base + off;
	else if (g)
		*hpa = base + ((off / g) * r->ways + p) * g + off % g;
	else
		return false;
	return true;
}

/* the card behind the memdev is the record's */
static bool same_card(const struct ct_memdev *m, const struct ct_event *e, char *why, size_t len)
{
	if (e->has_serial && m->has_serial && m->serial != e->serial) {
		snprintf(why, len, "%s is another card now (serial 0x%" PRIx64 ", the record's 0x%" PRIx64 ")", m->name,
			 m->serial, e->serial);
		return false;
	}
	if (e->host[0] && strcmp(m->host, e->host)) {
		snprintf(why, len, "%s is another device now (%s, the record's %s)", m->name, m->host, e->host);
		return false;
	}
	return true;
}

static void check(struct ct_context *ctx, const struct ct_topology *t, const struct ct_event *e, bool *maps, char *why,
		  size_t len)
{
	const struct ct_memdev *m = ct_topology_memdev(t, e->memdev);
	uint64_t hpa;

	*maps = false;
	if (!m) {
		snprintf(why, len, "%s is gone", e->memdev);
		return;
	}
	if (!same_card(m, e, why, len))
		return;
	snprintf(why, len, "no region maps %s's DPA 0x%" PRIx64 " now", e->memdev, e->dpa);
	for (size_t i = 0; i < t->nregions; i++) {
		const struct ct_region *r = &t->regions[i];
		for (unsigned p = 0; p < r->ntargets && p < CT_MAX_TARGETS; p++) {
			if (strcmp(r->memdevs[p], e->memdev) || !hpa_at(r, p, e->dpa, &hpa))
				continue;
			if (hpa == e->hpa || (root_interleaves(ctx, r) && e->hpa >= r->resource + r->cache_size &&
					      e->hpa - r->resource < r->size)) {
				*maps = true;
				return;
			}
			snprintf(why, len, "%s maps %s's DPA 0x%" PRIx64 " at HPA 0x%" PRIx64 " now, not at the record's "
				 "0x%" PRIx64, r->name, e->memdev, e->dpa, hpa, e->hpa);
		}
	}
}

int ct_hpa_check(struct ct_context *ctx, const struct ct_event *e, bool *maps, char *why, size_t len)
{
	struct ct_topology t;
	int rc;

	memset(&t, 0, sizeof(t));
	if ((rc = ct_topology_load_for_change(ctx, &t)))
		return rc;
	check(ctx, &t, e, maps, why, len);
	ct_topology_free(&t);
	return 0;
}
