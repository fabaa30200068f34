/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * blocks-zone.h - private to lib/change/ (blocks-plan.c and
 * blocks-execute.c): what the plan and its execution both ask of a
 * block's zones as read from valid_zones.
 */
#ifndef CXLTIER_BLOCKS_ZONE_H
#define CXLTIER_BLOCKS_ZONE_H

#include <stdbool.h>
#include "mm/memblock.h"

/* the kernel offers zone z for the block (an offline block's candidates) */
static inline bool blocks_zone_offered(const struct ct_block *b, enum ct_zone z)
{
	for (unsigned i = 0; i < b->nzones; i++)
		if (b->zones[i] == z)
			return true;
	return false;
}

/* the zone an online block is in (valid_zones names one), else CT_ZONE_NONE */
static inline enum ct_zone blocks_zone_online(const struct ct_block *b)
{
	return b->state == CT_BLOCK_ONLINE && b->nzones == 1 ? b->zones[0] : CT_ZONE_NONE;
}

#endif
