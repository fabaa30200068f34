// SPDX-License-Identifier: GPL-2.0-only
/* /proc/zoneinfo parsing and the kernel's demotion-target rule */
#include <stdlib.h>
#include "tap.h"
#include "mm/numa.h"
#include "mm/tiers.h"
#include "tree.h"

static const char zoneinfo[] =
	"Node 0, zone      DMA\n  per-node stats\n      nr_inactive_anon 0\n  pages free     3840\n"
	"        boost    0\n        spanned  4095\n        present  3998\n        managed  3840\n"
	"Node 0, zone   Normal\n  pages free     1000\n        present  262144\n        managed  250000\n"
	"Node 1, zone  Movable\n  pages free     262144\n        present  262144\n"
	"Node 7, zone   Normal\n        present  99\n";

/* SLIT rows of nodes 0..3 and which have CPUs */
struct slit4 {
	int d[4][4];
	unsigned cpus;		/* bit n: node n has CPUs */
};
/* the two-socket guest */
static const struct slit4 two_socket = {
	{ { 10, 21, 17, 20 }, { 21, 10, 28, 20 }, { 17, 28, 10, 20 }, { 20, 20, 20, 10 } }, 0x3 };

static int dist(const void *ctx, int a, int b)
{
	const struct slit4 *t = ctx;

	return a >= 0 && b >= 0 && a < 4 && b < 4 ? t->d[a][b] : -1;
}

static bool has_cpu(const void *ctx, int n)
{
	const struct slit4 *t = ctx;

	return n >= 0 && n < 4 && (t->cpus >> n & 1);
}

static const struct ct_tier_node_info info = { dist, has_cpu };

/* find_next_best_node()'s order, and the stop at the first new distance */
static void demotion_order(void)
{
	/* node 2 over a slower tier {0, 1, 3}: 0 (CPUs, below 2) at 17 scores
	 * 19, 3 (headless, above) at 18 scores 18: the kernel picks 3, then
	 * stops at 0 (another distance) */
	struct slit4 t = { { { 10, 21, 17, 20 }, { 21, 10, 28, 20 }, { 17, 20, 10, 18 }, { 20, 20, 18, 10 } }, 0x3 };
	struct ct_tier tier[2] = { { .id = 4 }, { .id = 5 } };
	struct ct_tiers tiers = { tier, 2 };
	struct ct_nodeset pref, allowed;

	ct_nodeset_parse(&tier[0].nodes, "2");
	ct_nodeset_parse(&tier[1].nodes, "0-1,3");
	is_int(ct_tiers_demotion_targets(&tiers, 2, &info, &t, &pref, &allowed), 1, "node 2: one preferred target");
	ok(ct_nodeset_has(&pref, 3), "node 2 prefers headless 3 (18) to node 0 with CPUs (17): as the kernel picks");
	/* equal scores: 1 (20, below 2: 21) and 3 (21): node_load unknown, the
	 * lower id first; then 3's distance differs: {1} */
	t.cpus = 0;
	t.d[2][1] = 20;
	t.d[2][3] = 21;
	t.d[2][0] = 30;
	ct_tiers_demotion_targets(&tiers, 2, &info, &t, &pref, &allowed);
	ok(ct_nodeset_has(&pref, 1) && ct_nodeset_count(&pref) == 1, "a tie in score: the lower id, then stop");
	/* the same distance, one below with CPUs: both, whatever the order */
	t.cpus = 0x1;
	t.d[2][0] = 20;
	t.d[2][3] = 20;
	t.d[2][1] = 30;
	ct_tiers_demotion_targets(&tiers, 2, &info, &t, &pref, &allowed);
	ok(ct_nodeset_has(&pref, 0) && ct_nodeset_has(&pref, 3) && ct_nodeset_count(&pref) == 2,
	   "nodes at the same distance are all preferred");
}

/* a node whose blocks are all offline is still a node, without memory */
static void node_memory(void)
{
	char root[512];
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
	tap_rm_tree(root);
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
	is_int(ct_tiers_demotion_targets(&t, 0, &info, &two_socket, &pref, &allowed), 1, "node 0: one preferred target");
	ok(ct_nodeset_has(&pref, 2), "node 0 demotes to node 2 (next tier)");
	ok(ct_nodeset_has(&allowed, 2) && ct_nodeset_has(&allowed, 3) && ct_nodeset_count(&allowed) == 2,
	   "node 0 may fall back to 2-3");
	is_int(ct_tiers_demotion_targets(&t, 2, &info, &two_socket, &pref, &allowed), 1, "node 2: one target");
	ok(ct_nodeset_has(&pref, 3), "node 2 demotes to node 3");
	is_int(ct_tiers_demotion_targets(&t, 3, &info, &two_socket, &pref, &allowed), 0, "the slowest tier demotes nowhere");
	is_int(ct_tiers_demotion_targets(&t, 9, &info, &two_socket, &pref, &allowed), 0, "a node without a tier: none");

	/* two nodes at the same best distance are both preferred */
	tier[1].id = 5; ct_nodeset_parse(&tier[1].nodes, "2-3");
	t.count = 2;
	is_int(ct_tiers_demotion_targets(&t, 1, &info, &two_socket, &pref, &allowed), 1, "node 1: 3 is nearer (20) than 2 (28)");
	ok(ct_nodeset_has(&pref, 3), "node 1 prefers 3");
	is_str(ct_numa_balancing_name(2), "memory_tiering", "balancing mode 2");
	is_str(ct_numa_balancing_name(3), "normal+memory_tiering", "balancing mode 3");
	demotion_order();
	node_memory();
	return tap_done();
}
