// SPDX-License-Identifier: LGPL-2.1-or-later
/* interleave.c - the memdevs a plan touches: see interleave.h */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "change/interleave.h"
#include "cxl/region-members.h"

static bool named(char *const *targets, int n, const char *memdev)
{
	for (int i = 0; i < n; i++)
		if (memdev[0] && !strcmp(targets[i], memdev))
			return true;
	return false;
}

/* the plan's blocks owned by one of the region's dax devices */
static unsigned blocks_in(const struct ct_region *r, const struct ct_blocks_plan *p)
{
	unsigned n = 0;

	for (size_t i = 0; i < p->n; i++)
		for (size_t j = 0; j < r->ndax; j++)
			if (!strcmp(p->op[i].owner, r->dax[j].name))
				n++;
	return n;
}

int ct_interleave_touched(struct ct_sysfs *s, struct ct_topology *t, const struct ct_blocks_plan *p, char *const *targets,
		    int ntargets, struct ct_interleave_set *out)
{
	uint64_t bs = t->block_size;

	out->m = NULL;
	out->n = 0;
	if (!bs && ct_block_size(s, &bs))
		bs = 0;
	for (size_t i = 0; i < t->nregions; i++) {
		struct ct_region *r = &t->regions[i];
		unsigned nb = blocks_in(r, p), ways;
		struct ct_interleave_touched *m;

		if (!nb)
			continue;
		if (ct_region_members(s, r))
			ct_error_clear(s->err);	/* its devices stay unknown */
		ways = r->ntargets ? r->ntargets : 1;
		m = realloc(out->m, (out->n + ways) * sizeof(*m));
		if (!m) {
			ct_interleave_touched_free(out);
			return ct_fail(s->err, ENOMEM, "out of memory");
		}
		out->m = m;
		for (unsigned k = 0; k < ways; k++) {
			m = &out->m[out->n++];
			memset(m, 0, sizeof(*m));
			ct_strlcpy(m->memdev, r->ntargets ? r->memdevs[k] : "", sizeof(m->memdev));
			ct_strlcpy(m->region, r->name, sizeof(m->region));
			m->ways = r->ntargets;
			m->position = k;
			m->blocks = nb;
			m->size = (uint64_t)nb * bs / ways;
			m->named = named(targets, ntargets, m->memdev);
		}
	}
	return 0;
}

void ct_interleave_touched_free(struct ct_interleave_set *set)
{
	free(set->m);
	set->m = NULL;
	set->n = 0;
}

const struct ct_region *ct_interleave_region_of(const struct ct_topology *t, const char *memdev)
{
	for (size_t i = 0; i < t->nregions; i++)
		if (t->regions[i].ntargets > 1 && ct_region_has_memdev(&t->regions[i], memdev))
			return &t->regions[i];
	return NULL;
}
