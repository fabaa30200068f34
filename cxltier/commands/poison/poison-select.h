/* SPDX-License-Identifier: GPL-2.0-only */
/* poison-select.h - which memdevs `cxltier poison MEMDEV|REGION...` reads,
 * and which of their ranges it shows */
#ifndef CXLTIER_POISON_SELECT_H
#define CXLTIER_POISON_SELECT_H

#include <stdbool.h>
#include "cli/cli.h"
#include "cxl/topology.h"
#include "events/poison.h"

struct poison_want {
	bool *direct;			/* [nmemdevs]: named itself (or nothing named): every range */
	bool *via_region;		/* [nmemdevs]: only through regions: their ranges */
	const char **regions;
	size_t nregions;
};

/* the memdevs the operands name (none: every memdev): 0, or an exit code
 * with the bad name (or the lack of memory) said */
int poison_select(struct cmd_env *env, const struct ct_topology *t, int argc, char **argv, struct poison_want *w);
void poison_want_free(struct poison_want *w);
/* is the range in one of the regions named (a keep for poison_out_add) */
bool poison_in_regions(const struct ct_poison *p, void *want);

#endif
