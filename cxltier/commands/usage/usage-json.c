// SPDX-License-Identifier: GPL-2.0-only
/* usage-json.c - where a process's or a cgroup's memory is, as JSON
 * (usage-json.h) */
#include "usage-json.h"
#include "cli/json-build.h"

/* the usage into o: total, per node (with its tier), per tier */
void usage_json(json_object *o, const struct ct_usage *u, const struct ct_tiers *tiers, bool process)
{
	json_object *nodes, *ta;
	uint64_t per_tier[64] = { 0 };
	int tier_id[64], ntiers = 0;

	jb_u64(o, "bytes", ct_usage_bytes(u));
	nodes = jb_arr(o, "nodes");
	for (int n = 0; n < CT_USAGE_MAX_NODES; n++) {
		const struct ct_usage_node *un = &u->node[n];
		uint64_t b = ct_usage_node_bytes(un);
		int tier = ct_tiers_of_node(tiers, n), k;
		json_object *x;
		if (!b)
			continue;
		x = json_object_new_object();
		jb_int(x, "node", n);
		jb_int_known(x, "tier", tier);
		jb_u64(x, "bytes", b);
		jb_u64(x, "anon", un->anon);
		jb_u64(x, "file", un->file);
		jb_u64(x, process ? "huge" : "kernel", process ? un->huge : un->kernel);
		json_object_array_add(nodes, x);
		for (k = 0; k < ntiers && tier_id[k] != tier; k++)
			;
		if (tier < 0 || k == 64)
			continue;
		if (k == ntiers)
			tier_id[ntiers++] = tier;
		per_tier[k] += b;
	}
	ta = jb_arr(o, "tiers");
	for (int k = 0; k < ntiers; k++) {
		json_object *x = json_object_new_object();
		jb_int(x, "tier", tier_id[k]);
		jb_u64(x, "bytes", per_tier[k]);
		json_object_array_add(ta, x);
	}
}
