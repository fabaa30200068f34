// SPDX-License-Identifier: GPL-2.0-only
/* poison-select.c - the memdevs and regions `cxltier poison` is given
 * (poison-select.h) */
#include <stdlib.h>
#include <string.h>
#include "poison-select.h"

bool poison_in_regions(const struct ct_poison *p, void *want)
{
	const struct poison_want *w = want;

	for (size_t i = 0; i < w->nregions; i++)
		if (!strcmp(p->region, w->regions[i]))
			return true;
	return false;
}

/* a region stands for its memdevs (and shows the ranges inside it) */
static int add_region(struct cmd_env *env, const struct ct_topology *t, const struct ct_region *r,
		      const char *given, struct poison_want *w)
{
	bool found = false;

	w->regions[w->nregions++] = r->name;
	for (size_t k = 0; k < t->nmemdevs; k++)
		if (ct_region_has_memdev(r, t->memdevs[k].name))
			w->via_region[k] = found = true;
	if (!found) {
		cmd_err(env, "%s has no memdevs to read", given);
		return EXIT_FAIL;
	}
	return 0;
}

int poison_select(struct cmd_env *env, const struct ct_topology *t, int argc, char **argv, struct poison_want *w)
{
	w->direct = calloc(t->nmemdevs + 1, sizeof(bool));
	w->via_region = calloc(t->nmemdevs + 1, sizeof(bool));
	w->regions = calloc((size_t)argc + 1, sizeof(char *));
	if (!w->direct || !w->via_region || !w->regions) {
		cmd_err(env, "out of memory");
		return EXIT_FAIL;
	}
	for (int i = 0; i < argc; i++) {
		const struct ct_region *r = ct_topology_region(t, argv[i]);
		bool found = false;
		if (r) {
			if (add_region(env, t, r, argv[i], w))
				return EXIT_FAIL;
			continue;
		}
		for (size_t k = 0; k < t->nmemdevs; k++)
			if (ct_memdev_matches(&t->memdevs[k], argv[i]))
				w->direct[k] = found = true;
		if (!found) {
			cmd_err(env, "no memdev or region '%s' (see 'cxltier list')", argv[i]);
			return EXIT_FAIL;
		}
	}
	for (size_t k = 0; !argc && k < t->nmemdevs; k++)
		w->direct[k] = true;
	return 0;
}

void poison_want_free(struct poison_want *w)
{
	free(w->direct);
	free(w->via_region);
	free(w->regions);
}
