// SPDX-License-Identifier: LGPL-2.1-or-later
/* mempolicy.c - set_mempolicy(2) by raw syscall */
#include <errno.h>
#include <stdbool.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include "mm/mempolicy.h"
#include "mm/numa.h"

const char *ct_mpol_name(int mode)
{
	switch (mode) {
	case CT_MPOL_PREFERRED: return "preferred";
	case CT_MPOL_BIND: return "bind";
	case CT_MPOL_INTERLEAVE: return "interleave";
	case CT_MPOL_PREFERRED_MANY: return "preferred-many";
	case CT_MPOL_WEIGHTED_INTERLEAVE: return "weighted-interleave";
	}
	return "unknown";
}

const char *ct_mpol_since(int mode)
{
	return mode == CT_MPOL_PREFERRED_MANY ? "5.15" : mode == CT_MPOL_WEIGHTED_INTERLEAVE ? "6.9" : NULL;
}

int ct_mpol_check_nodes(struct ct_sysfs *s, const struct ct_nodeset *nodes, struct ct_error *err)
{
	int n;

	if (!ct_nodeset_count(nodes))
		return ct_fail(err, EINVAL, "no node to place memory on");
	ct_nodeset_foreach(nodes, n) {
		if (!ct_node_exists(s, n))
			return ct_fail(err, ENODEV, "node %d does not exist (the nodes: 'cxltier tiers')", n);
		if (ct_node_has_memory(s, n) == 0)
			return ct_fail(err, ENODEV, "node %d has no memory online: online its memory blocks "
				       "('cxltier online') or name another node", n);
	}
	return 0;
}

/* the kernel reads maxnode - 1 bits (get_nodes() decrements it): one more
 * than the highest node's bit count */
static long set_policy(int mode, const struct ct_nodeset *nodes)
{
	unsigned long maxnode = 0;
	int n;

	if (nodes)
		ct_nodeset_foreach(nodes, n)
			maxnode = (unsigned long)n + 2;
	return syscall(SYS_set_mempolicy, mode, nodes && maxnode ? nodes->bits : NULL, maxnode);
}

/* does the kernel take an interleave over these nodes? The policy the
 * process had is set again after the try */
static bool nodes_allowed(const struct ct_nodeset *nodes)
{
	struct ct_nodeset old = { 0 };
	int old_mode;

	if (syscall(SYS_get_mempolicy, &old_mode, old.bits, (unsigned long)CT_MAX_NODES, NULL, 0UL))
		return false;
	if (set_policy(CT_MPOL_INTERLEAVE, nodes))
		return false;
	set_policy(old_mode, &old);
	return true;
}

int ct_mpol_set(int mode, const struct ct_nodeset *nodes, struct ct_error *err)
{
	int e;

	if (!set_policy(mode, nodes))
		return 0;
	e = errno;
	if (e == ENOSYS)
		return ct_fail(err, EOPNOTSUPP, "set_mempolicy: this kernel has no NUMA support (CONFIG_NUMA)");
	if (e != EINVAL)
		return ct_fail(err, e, "set_mempolicy %s: %s", ct_mpol_name(mode), strerror(e));
	/* EINVAL: the mode unknown to this kernel, or the nodes not allowed
	 * here. Interleave (2.6.7) over the same nodes tells which. */
	if (ct_mpol_since(mode) && nodes_allowed(nodes))
		return ct_fail(err, EOPNOTSUPP, "set_mempolicy %s: this kernel does not have it (Linux %s added it)",
			       ct_mpol_name(mode), ct_mpol_since(mode));
	return ct_fail(err, EINVAL, "set_mempolicy %s: the kernel refused the nodes: are they in this "
		       "process's cpuset (cpuset.mems.effective)?", ct_mpol_name(mode));
}
