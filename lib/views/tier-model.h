/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * tier-model.h - every memory node as tiering sees it: CPUs, size, zones,
 * memory tier, SLIT, the kernel's access figures, the CXL devices whose
 * memory is there with their CDAT figures, demotion targets; the nodes
 * ranked by effective distance from an initiator, where the sources
 * disagree, and the tiering settings. Built from numa.h, tiers.h,
 * topology.h and the CXL ports' CDAT.
 */
#ifndef CXLTIER_TIER_MODEL_H
#define CXLTIER_TIER_MODEL_H

#include <stdbool.h>
#include "mm/access.h"
#include "mm/interleave-compute.h"
#include "mm/interleave-weights.h"
#include "core/kernel.h"
#include "core/nodeset.h"
#include "mm/numa.h"
#include "mm/tiers.h"
#include "cxl/topology.h"

struct ct_context;

/* what decided a node's effective distance */
enum ct_rank_source {
	CT_RANK_NONE,		/* nothing: the node is not ranked */
	CT_RANK_HMAT,		/* the node's access1 figures over the initiator's */
	CT_RANK_REGION,		/* a CXL node without figures: its region's access1 */
	CT_RANK_CDAT_LOCAL,	/* CDAT device latency added to the local latency */
	CT_RANK_SLIT,		/* the SLIT distance */
};
const char *ct_rank_source_name(enum ct_rank_source s);	/* "hmat", "region", "cdat+local", "slit" */

/* the kernel's access figures that speak for a node (kernel.h decides
 * which: the node's own, else for a CXL node its region's) */
struct ct_tier_figures {
	struct ct_access acc;		/* present false: none */
	enum ct_figure_source source;
	char region[CT_NAME];		/* when from a region */
	struct ct_nodeset initiators;	/* the node's own figures: their initiators */
	struct ct_latency_check check;	/* CXL nodes: the latency against CDAT */
};

struct ct_names {
	char (*v)[CT_NAME];
	size_t n;
};

struct ct_tier_node {
	const struct ct_node *node;	/* in ct_tier_model.numa */
	int tier;			/* memory tier, -1 none */
	struct ct_tier_figures access[2];	/* access0: any initiator, access1: CPUs */
	/* the CXL memory on the node */
	bool has_cxl;
	struct ct_names memdevs, regions, daxes;
	struct ct_names no_cdat;	/* memdevs whose CDAT could not be read */
	bool has_cdat;
	struct ct_access cdat;		/* worst latency, summed bandwidth of those devices */
	/* demotion, as mm/memory-tiers.c computes it */
	bool has_demotion;
	struct ct_nodeset demotion_preferred, demotion_allowed;
	/* ranking from ct_tier_model.from */
	enum ct_rank_source rank_source;
	double effective;		/* SLIT scale, 10 = local */
	int rank;			/* 1 = closest; 0 unranked */
	int slit;			/* SLIT distance from the initiator, -1 unknown */
	int via;			/* figures that speak only for the CPU nodes nearest
					 * the memory, ranked from another node: the one of
					 * them it reaches first (its SLIT hop added); -1 none */
	/* weighted interleave: the weight computed from access[1] as the
	 * kernel's auto mode would, and the kernel's (0: it shows none) */
	const struct ct_wi_step *wi;
	unsigned wi_kernel;
};

/* the weighted-interleave weights of the memory nodes */
struct ct_tier_weights {
	bool have;			/* the kernel has weighted interleave */
	char error[256];		/* why not, when have is false */
	struct ct_wi_state kernel;	/* its weights and mode */
	struct ct_wi_step *steps;	/* computed: one per ct_tier_model.nodes, in their order */
	struct ct_wi_result calc;	/* the arithmetic */
};

enum ct_disagreement_kind {
	CT_DISAGREE_TIER,	/* ranks closer, but the kernel puts it in a slower tier */
	CT_DISAGREE_SLIT,	/* ranks closer, but SLIT says farther */
};

struct ct_disagreement {
	enum ct_disagreement_kind kind;
	int closer, farther;		/* node ids */
	enum ct_rank_source by;		/* what ranked the closer one */
	int closer_value, farther_value;	/* tiers or SLIT distances */
};

struct ct_tier_model {
	struct ct_numa numa;
	struct ct_tiers tiers;
	struct ct_topology topo;
	bool have_topo;
	char topo_error[512];		/* why there is no CXL topology */
	int from;			/* the initiator node of the ranking */
	struct ct_tier_node *nodes;	/* the nodes holding memory, in node order */
	size_t count;
	struct ct_disagreement *dis;
	size_t ndis;
	struct ct_tiering_settings settings;
	struct ct_tier_weights weights;
};

/*
 * from: the initiator to rank from, -1 for the node the caller runs on
 * (the first CPU node of a captured tree). 0; -EOPNOTSUPP without NUMA
 * information; -ENODEV when from is not an online node; another -errno
 * with a message.
 */
int ct_tier_model_load(struct ct_context *ctx, int from, struct ct_tier_model *m);
void ct_tier_model_free(struct ct_tier_model *m);
/* rank m->nodes from m->from and list the disagreements (tier-rank.c;
 * called by ct_tier_model_load) */
int ct_tier_rank(struct ct_tier_model *m);
/* the kernel's weights and those computed from each node's access1 figures
 * (tier-weights.c; called by ct_tier_model_load). 0, or -ENOMEM; a kernel
 * without weighted interleave, or weights that cannot be read, is said in
 * m->weights (have false, error). */
int ct_tier_weights_load(struct ct_context *ctx, struct ct_tier_model *m);
void ct_tier_weights_free(struct ct_tier_weights *w);

#endif
