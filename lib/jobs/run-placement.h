/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * run-placement.h - the memory policy a command is started under: tiers
 * or nodes and a mode in, the node set and the kernel's mode out, then the
 * policy set on the calling process (which execs the command next).
 *
 * Tiers are the kernel's memory tiers (memory_tierN, as `cxltier tiers`
 * and `migrate --to-tier` name them), a comma-separated list of:
 *   N            the tier memory_tierN
 *   fastest      the fastest tier (the lowest N), slowest the slowest
 *   fastest:K    the K fastest tiers (slowest:K the K slowest)
 * e.g. "fastest:2" for the two fastest tiers, "4,5" for two by number.
 */
#ifndef CXLTIER_RUN_PLACEMENT_H
#define CXLTIER_RUN_PLACEMENT_H

#include <stdbool.h>
#include "core/nodeset.h"
#include "mm/interleave-weights.h"
#include "mm/tiers.h"

struct ct_context;

/* what is asked; mode 0: preferred */
struct ct_place_opts {
	const char *tiers;		/* the tier list above, or NULL */
	const char *nodes;		/* a node list ("0,2", "0-3"), or NULL */
	int mode;			/* CT_MPOL_BIND, _PREFERRED, _INTERLEAVE,
					 * _WEIGHTED_INTERLEAVE (mm/mempolicy.h) */
	bool weights;			/* read the kernel's weights too (to show
					 * the split of a weighted interleave) */
};

struct ct_place {
	int mode;			/* the kernel's mode: preferred over several
					 * nodes is CT_MPOL_PREFERRED_MANY */
	struct ct_nodeset nodes;
	struct ct_nodeset tiers;	/* the tier ids named (--tier), else empty */
	bool has_weights;
	struct ct_wi_state weights;	/* when has_weights */
};

/* the tier list resolved against the kernel's tiers: the nodes in *nodes
 * and the tier ids in *ids. 0; -EINVAL naming the bad item; -ENOENT for a
 * tier the kernel does not have */
int ct_place_tiers(const struct ct_tiers *t, const char *list, struct ct_nodeset *nodes, struct ct_nodeset *ids,
		   struct ct_error *err);

/* the placement asked resolved and checked (every node exists and has
 * memory). 0; -EINVAL for a bad list; -ENODEV for a missing node or one
 * without memory; -EOPNOTSUPP for a kernel without memory tiers (--tier)
 * or without weighted interleave (weights asked) */
int ct_place_resolve(struct ct_context *ctx, const struct ct_place_opts *o, struct ct_place *p);
void ct_place_free(struct ct_place *p);

/* the policy set on the calling process (mm/mempolicy.h, ct_mpol_set) */
int ct_place_apply(struct ct_context *ctx, const struct ct_place *p);

#endif
