// SPDX-License-Identifier: GPL-2.0-only
/* the tiers a run names resolved to nodes (jobs/run-placement.h), and the
 * policy set on this process with set_mempolicy by raw syscall, read back
 * with get_mempolicy (mm/mempolicy.h) */
#include <errno.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "tap.h"
#include "jobs/run-placement.h"
#include "mm/mempolicy.h"

/* the two-socket lab: tier 4 = nodes 0-1, tier 5 = node 2, tier 1000 = node 3 */
static struct ct_tier lab[3];
static const struct ct_tiers tiers = { lab, 3 };

static const char *resolve(const char *list, char *ids_out, size_t len)
{
	static char out[64];
	struct ct_nodeset nodes, ids;
	static struct ct_error err;
	size_t off = 0;
	int n;

	if (ct_place_tiers(&tiers, list, &nodes, &ids, &err))
		return err.msg;
	ct_nodeset_foreach(&nodes, n)
		off += (size_t)snprintf(out + off, sizeof(out) - off, "%s%d", off ? "," : "", n);
	off = 0;
	ids_out[0] = '\0';
	ct_nodeset_foreach(&ids, n)
		off += (size_t)snprintf(ids_out + off, len - off, "%s%d", off ? "," : "", n);
	return out;
}

static void tiers_named(void)
{
	char ids[64];

	ct_nodeset_parse(&lab[0].nodes, "0-1");
	lab[0].id = 4;
	ct_nodeset_parse(&lab[1].nodes, "2");
	lab[1].id = 5;
	ct_nodeset_parse(&lab[2].nodes, "3");
	lab[2].id = 1000;
	is_str(resolve("fastest", ids, sizeof(ids)), "0,1", "fastest: the lowest tier's nodes");
	is_str(ids, "4", "... tier 4");
	is_str(resolve("slowest", ids, sizeof(ids)), "3", "slowest: the highest tier's");
	is_str(resolve("fastest:2", ids, sizeof(ids)), "0,1,2", "fastest:2: the two fastest tiers");
	is_str(ids, "4,5", "... tiers 4 and 5");
	is_str(resolve("slowest:2", ids, sizeof(ids)), "2,3", "slowest:2: the two slowest");
	is_str(ids, "5,1000", "... tiers 5 and 1000");
	is_str(resolve("fastest:3", ids, sizeof(ids)), "0,1,2,3", "fastest:3: every tier");
	is_str(resolve("1000,4", ids, sizeof(ids)), "0,1,3", "numbers, in any order");
	is_str(resolve("4,fastest", ids, sizeof(ids)), "0,1", "a tier named twice counts once");
	is_str(resolve("fastest:4", ids, sizeof(ids)), "tier 'fastest:4': this system has 3 memory tiers (see 'cxltier tiers')",
	       "more tiers than there are");
	is_str(resolve("6", ids, sizeof(ids)), "tier 6: no such memory tier (see 'cxltier tiers')", "a tier absent");
	is_str(resolve("0", ids, sizeof(ids)), "tier 0: no such memory tier (see 'cxltier tiers')", "tier 0 is a number");
	ok(strstr(resolve("fastest:0", ids, sizeof(ids)), "give a count of tiers") != NULL, "fastest:0 refused");
	ok(strstr(resolve("fastest:", ids, sizeof(ids)), "give a count of tiers") != NULL, "fastest: refused");
	ok(strstr(resolve("fastest2", ids, sizeof(ids)), "give a tier number") != NULL, "fastest2 refused");
	ok(strstr(resolve("4,", ids, sizeof(ids)), "an empty item") != NULL, "a trailing comma refused");
	ok(strstr(resolve("", ids, sizeof(ids)), "give a tier") != NULL, "nothing refused");
	ok(strstr(resolve("-4", ids, sizeof(ids)), "give a tier number") != NULL, "a sign refused");
}

/* the policy this process has: its mode and nodes */
static int policy(struct ct_nodeset *nodes)
{
	int mode = -1;

	memset(nodes, 0, sizeof(*nodes));
	if (syscall(SYS_get_mempolicy, &mode, nodes->bits, (unsigned long)CT_MAX_NODES, NULL, 0UL))
		return -errno;
	return mode;
}

static void policy_set(void)
{
	struct ct_nodeset one, got, none = { 0 };
	struct ct_error err = { 0 };

	ct_nodeset_parse(&one, "0");
	/* node 0 alone: maxnode must be 2, the kernel reading maxnode - 1 bits */
	is_int(ct_mpol_set(CT_MPOL_BIND, &one, &err), 0, "bind to node 0");
	is_int(policy(&got), CT_MPOL_BIND, "... the kernel has bind");
	ok(ct_nodeset_has(&got, 0) && ct_nodeset_count(&got) == 1, "... over node 0");
	is_int(ct_mpol_set(CT_MPOL_INTERLEAVE, &one, &err), 0, "interleave over node 0");
	is_int(policy(&got), CT_MPOL_INTERLEAVE, "... the kernel has interleave");
	is_int(ct_mpol_set(CT_MPOL_PREFERRED, &one, &err), 0, "preferred node 0");
	is_int(policy(&got), CT_MPOL_PREFERRED, "... the kernel has preferred");
	is_int(ct_mpol_set(CT_MPOL_BIND, &none, &err), -EINVAL, "bind to no node: refused");
	is_int(policy(&got), CT_MPOL_PREFERRED, "... the policy is what it was");
	ct_nodeset_parse(&got, "1023");
	ok(ct_mpol_set(CT_MPOL_BIND, &got, &err) < 0, "a node this machine has not: refused");
	ok(strstr(err.msg, "cpuset") != NULL, "... the message says where to look: %s", err.msg);
	/* a newer mode refused: the nodes, not the mode (the interleave tried
	 * over them fails too), and the policy as it was after the try */
	is_int(ct_mpol_set(CT_MPOL_PREFERRED_MANY, &got, &err), -EINVAL, "preferred-many over node 1023: the nodes'");
	is_int(policy(&none), CT_MPOL_PREFERRED, "... the policy is what it was");
	is_str(ct_mpol_name(CT_MPOL_WEIGHTED_INTERLEAVE), "weighted-interleave", "the names");
	is_str(ct_mpol_since(CT_MPOL_PREFERRED_MANY), "5.15", "preferred-many came with 5.15");
	is_str(ct_mpol_since(CT_MPOL_WEIGHTED_INTERLEAVE), "6.9", "weighted interleave with 6.9");
	ok(ct_mpol_since(CT_MPOL_BIND) == NULL, "bind is old");
}

int main(void)
{
	tiers_named();
	policy_set();
	return tap_done();
}
