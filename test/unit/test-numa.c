// SPDX-License-Identifier: GPL-2.0-only
/* /proc/zoneinfo parsing and the kernel's demotion-target rule */
#include <stdlib.h>
#include "tap.h"
#include "numa.h"
#include "tiers.h"
#include "tree.h"

static const char zoneinfo[] =
	"Node 0, zone      DMA\n  per-node stats\n      nr_inactive_anon 0\n  pages free     3840\n"
	"        boost    0\n        spanned  4095\n        present  3998\n        managed  3840\n"
	"Node 0, zone   Normal\n  pages free     1000\n        present  262144\n        managed  250000\n"
	"Node 1, zone  Movable\n  pages free     262144\n        present  262144\n"
	"Node 7, zone   Normal\n        present  99\n";

/* the two-socket guest: SLIT rows of nodes 0..3 */
static const int slit[4][4] = { { 10, 21, 17, 20 }, { 21, 10, 28, 20 }, { 17, 28, 10, 20 }, { 20, 20, 20, 10 } };
static int dist(const void *ctx, int a, int b)
{
	(void)ctx;
	return a < 4 && b < 4 ? slit[a][b] : -1;
}

/* a node whose blocks are all offline is still a node, without memory */
static void node_memory(void)
{
	char root[512], cmd[600];
	struct ct_error err = { 0 };
	struct ct_sysfs s;

	if (!mkdtemp(tap_tmp_template(root, sizeof(root), "cxltier-test-numa")) || ct_sysfs_open(&s, root, &err)) {
		ok(0, "a tree for the node memory tests");
		return;
	}
	is_int(ct_node_has_memory(&s, 1), 1, "no has_memory file: assumed to have memory");
	tree_put(root, "/sys/devices/system/node/node1/meminfo", "Node 1 MemTotal: 0 kB\n");
	tree_put(root, "/sys/devices/system/node/has_memory", "0,2\n");
	ok(ct_node_exists(&s, 1), "node 1 exists");
	is_int(ct_node_has_memory(&s, 1), 0, "node 1 has no memory online");
	is_int(ct_node_has_memory(&s, 2), 1, "node 2 has");
	ct_sysfs_close(&s);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	if (system(cmd))
		ok(0, "the tree removed");
}

int main(void)
{
	struct ct_node nodes[2] = { { .id = 0 }, { .id = 1 } };
	struct ct_numa n = { nodes, 2 };
	struct ct_tier tier[3];
	struct ct_tiers t = { tier, 3 };
	struct ct_nodeset pref, allowed;

	is_int(ct_zoneinfo_parse(zoneinfo, &n, 4096), 0, "zoneinfo parses");
	is_int(nodes[0].zone_dma, 3998ULL * 4096, "DMA present pages");
	is_int(nodes[0].zone_normal, 262144ULL * 4096, "Normal present pages (not managed)");
	is_int(nodes[1].zone_movable, 1ULL << 30, "Movable on node 1");
	ok(nodes[0].has_zones && nodes[1].has_zones, "both nodes have zones");
	ok(nodes[0].zone_movable == 0, "no Movable on node 0");

	/* tiers of the two-socket guest: 4: {0,1}, 5: {2}, 1000: {3} */
	tier[0].id = 4; ct_nodeset_parse(&tier[0].nodes, "0-1");
	tier[1].id = 5; ct_nodeset_parse(&tier[1].nodes, "2");
	tier[2].id = 1000; ct_nodeset_parse(&tier[2].nodes, "3");
	is_int(ct_tiers_demotion_targets(&t, 0, dist, NULL, &pref, &allowed), 1, "node 0: one preferred target");
	ok(ct_nodeset_has(&pref, 2), "node 0 demotes to node 2 (next tier)");
	ok(ct_nodeset_has(&allowed, 2) && ct_nodeset_has(&allowed, 3) && ct_nodeset_count(&allowed) == 2,
	   "node 0 may fall back to 2-3");
	is_int(ct_tiers_demotion_targets(&t, 2, dist, NULL, &pref, &allowed), 1, "node 2: one target");
	ok(ct_nodeset_has(&pref, 3), "node 2 demotes to node 3");
	is_int(ct_tiers_demotion_targets(&t, 3, dist, NULL, &pref, &allowed), 0, "the slowest tier demotes nowhere");
	is_int(ct_tiers_demotion_targets(&t, 9, dist, NULL, &pref, &allowed), 0, "a node without a tier: none");

	/* two nodes at the same best distance are both preferred */
	tier[1].id = 5; ct_nodeset_parse(&tier[1].nodes, "2-3");
	t.count = 2;
	is_int(ct_tiers_demotion_targets(&t, 1, dist, NULL, &pref, &allowed), 1, "node 1: 3 is nearer (20) than 2 (28)");
	ok(ct_nodeset_has(&pref, 3), "node 1 prefers 3");
	is_str(ct_numa_balancing_name(2), "memory_tiering", "balancing mode 2");
	is_str(ct_numa_balancing_name(3), "normal+memory_tiering", "balancing mode 3");
	node_memory();
	return tap_done();
}
