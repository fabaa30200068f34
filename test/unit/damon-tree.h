/* SPDX-License-Identifier: GPL-2.0-only */
/* damon-tree.h - the files of DAMON's sysfs that ct_damon_sample touches,
 * laid out empty in a test's throw-away tree (kdamond 0, context 0, scheme 0) */
#ifndef CXLTIER_TEST_DAMON_TREE_H
#define CXLTIER_TEST_DAMON_TREE_H

#include "tree.h"

#define ADMIN "/sys/kernel/mm/damon/admin/kdamonds"
#define KD ADMIN "/0"
#define CTX KD "/contexts/0"
#define SCHEME CTX "/schemes/0"

static inline void damon_tree_empty(const char *root)
{
	static const char *const files[] = {
		ADMIN "/nr_kdamonds", KD "/state", KD "/pid", KD "/contexts/nr_contexts", CTX "/operations",
		CTX "/monitoring_attrs/intervals/sample_us", CTX "/monitoring_attrs/intervals/aggr_us",
		CTX "/monitoring_attrs/intervals/update_us", CTX "/monitoring_attrs/nr_regions/min",
		CTX "/monitoring_attrs/nr_regions/max", CTX "/targets/nr_targets", CTX "/targets/0/pid_target",
		CTX "/schemes/nr_schemes", SCHEME "/action", SCHEME "/access_pattern/sz/min",
		SCHEME "/access_pattern/sz/max", SCHEME "/access_pattern/nr_accesses/min",
		SCHEME "/access_pattern/nr_accesses/max", SCHEME "/access_pattern/age/min",
		SCHEME "/access_pattern/age/max",
	};

	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++)
		tree_put(root, files[i], "");
}

#endif
