/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* nodeset.h - the kernel's list format ("0-3,5") to and from a bitmap */
#ifndef CXLTIER_NODESET_H
#define CXLTIER_NODESET_H

#include <stdbool.h>
#include <stddef.h>

#define CT_MAX_NODES 1024

struct ct_nodeset {
	unsigned long bits[CT_MAX_NODES / (8 * sizeof(unsigned long))];
};

/* 0, or -EINVAL on a malformed list or a number >= CT_MAX_NODES */
int ct_nodeset_parse(struct ct_nodeset *set, const char *list);
bool ct_nodeset_has(const struct ct_nodeset *set, int node);
void ct_nodeset_add(struct ct_nodeset *set, int node);
int ct_nodeset_count(const struct ct_nodeset *set);
/* next member >= from, or -1 */
int ct_nodeset_next(const struct ct_nodeset *set, int from);

#define ct_nodeset_foreach(set, n) \
	for (n = ct_nodeset_next(set, 0); n >= 0; n = ct_nodeset_next(set, n + 1))

#endif
