/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * mempolicy.h - the calling process's NUMA memory policy, set with
 * set_mempolicy(2) by raw syscall (no libnuma: Debian 12's numactl 2.0.16
 * has no weighted interleave). The policy is inherited across fork and
 * kept across execve, so a process started after it runs under it.
 */
#ifndef CXLTIER_MEMPOLICY_H
#define CXLTIER_MEMPOLICY_H

#include "core/error.h"
#include "core/nodeset.h"
#include "core/sysfs.h"

/* the kernel's modes (include/uapi/linux/mempolicy.h) */
#define CT_MPOL_PREFERRED		1	/* one node first, then any */
#define CT_MPOL_BIND			2	/* these nodes only */
#define CT_MPOL_INTERLEAVE		3	/* page by page, round robin */
#define CT_MPOL_PREFERRED_MANY		5	/* these nodes first, then any (5.15+) */
#define CT_MPOL_WEIGHTED_INTERLEAVE	6	/* round robin by the nodes' weights (6.9+) */

/* "bind", "preferred", "preferred-many", "interleave", "weighted-interleave" */
const char *ct_mpol_name(int mode);
/* the Linux version that added the mode: "5.15", "6.9"; NULL for the old ones */
const char *ct_mpol_since(int mode);

/*
 * Every node of the set exists and has memory online (a policy over a
 * node without memory fails every allocation it steers there, or the
 * kernel refuses it). 0; -ENODEV naming the node and what to do; -EINVAL
 * for an empty set.
 */
int ct_mpol_check_nodes(struct ct_sysfs *s, const struct ct_nodeset *nodes, struct ct_error *err);

/*
 * Set the calling process's policy: mode over nodes. 0; -EOPNOTSUPP when
 * the kernel has no such mode (the message names the version that added
 * it); -EINVAL when the nodes are not the process's to use (its cpuset);
 * another -errno with a message. On failure the policy is what it was.
 */
int ct_mpol_set(int mode, const struct ct_nodeset *nodes, struct ct_error *err);

#endif
